/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/* DOCA tasks: rte_comch tasks, cast. */

#include <errno.h>
#include <string.h>

#include "doca_compat_private.h"
#include "doca_pe.h"

#define DC_TASK(t) ((struct rte_comch_task *)(t))
#define DC_CTASK(t) ((const struct rte_comch_task *)(t))

doca_error_t
doca_task_submit(struct doca_task *task)
{
	int rc;

	DC_NULL_ARG(task);
	rc = rte_comch_task_submit(DC_TASK(task));
	if (rc == -EALREADY) /* in flight already: a state, not an existing object */
		return DOCA_ERROR_BAD_STATE;
	return dc_ctx_err(rte_comch_task_get_ctx(DC_TASK(task)), rc, RTE_COMCH_CTX_STATE_RUNNING);
}

doca_error_t
doca_task_try_submit(struct doca_task *task)
{
	return doca_task_submit(task);
}

void
doca_task_free(struct doca_task *task)
{
	int rc;

	if (task == NULL)
		return;
	rc = rte_comch_task_free(DC_TASK(task));
	if (rc != 0)
		DC_LOG(ERR, "task %p not freed: %s", (void *)task, strerror(-rc));
}

doca_error_t
doca_task_get_status(const struct doca_task *task)
{
	DC_NULL_ARG(task);
	return rte_comch_doca_error_from_errno(rte_comch_task_get_status(DC_CTASK(task)));
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
