/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/* DOCA tasks: rte_comch tasks, cast. */

#include <errno.h>

#include <rte_common.h>

#include "doca_compat_private.h"
#include "doca_pe.h"

#define DC_TASK(t) ((struct rte_comch_task *)(t))
#define DC_CTASK(t) ((const struct rte_comch_task *)(t))

/* The DOCA error of a refused submission (off the per-message path). */
static __rte_noinline doca_error_t
dc_task_submit_err(struct doca_task *task, int rc)
{
	if (task == NULL) /* rte_comch said so */
		return DOCA_ERROR_INVALID_VALUE;
	if (rc == -EALREADY) /* in flight already: a state, not an existing object */
		return DOCA_ERROR_BAD_STATE;
	return dc_ctx_err_slow(rte_comch_task_get_ctx(DC_TASK(task)), rc,
			       RTE_COMCH_CTX_STATE_RUNNING);
}

/*
 * rte_comch checks the task (NULL, freed, in flight) and answers -EAGAIN when
 * the peer has no room; a sender spins on that answer, so it is told inline.
 */
doca_error_t
doca_task_submit(struct doca_task *task)
{
	int rc = rte_comch_task_submit(DC_TASK(task));

	if (likely(rc == 0))
		return DOCA_SUCCESS;
	if (rc == -EAGAIN)
		return DOCA_ERROR_AGAIN;
	return dc_task_submit_err(task, rc);
}

doca_error_t
doca_task_try_submit(struct doca_task *task)
{
	return doca_task_submit(task);
}

/* Per message: rte_comch logs a task it cannot free (freed twice); NULL is DOCA's no-op. */
void
doca_task_free(struct doca_task *task)
{
	if (task != NULL)
		rte_comch_task_free(DC_TASK(task));
}

doca_error_t
doca_task_get_status(const struct doca_task *task)
{
	/* rte_comch answers -EINVAL, with a log line, for NULL. */
	return dc_err(rte_comch_task_get_status(DC_CTASK(task)));
}

void
doca_task_set_user_data(struct doca_task *task, union doca_data user_data)
{
	if (task != NULL)
		rte_comch_task_set_user_data(DC_TASK(task), dc_data_to(user_data));
}

union doca_data
doca_task_get_user_data(const struct doca_task *task)
{
	union rte_comch_data d = { .u64 = 0 };

	if (task != NULL)
		rte_comch_task_get_user_data(DC_CTASK(task), &d);
	return dc_data_from(d);
}

struct doca_ctx *
doca_task_get_ctx(const struct doca_task *task)
{
	return task == NULL ? NULL : dc_ctx_of(rte_comch_task_get_ctx(DC_CTASK(task)));
}

doca_error_t
doca_task_submit_ex(struct doca_task *task, uint32_t flags)
{
	const uint32_t known = DOCA_TASK_SUBMIT_FLAG_FLUSH | DOCA_TASK_SUBMIT_FLAG_OPTIMIZE_REPORTS;

	if (flags & ~known) {
		DC_LOG(ERR, "task %p: unknown submit flags 0x%x", (void *)task, flags & ~known);
		return DOCA_ERROR_INVALID_VALUE;
	}
	/* FLUSH is what every submit does here; OPTIMIZE_REPORTS a hint with no effect. */
	return doca_task_submit(task);
}
