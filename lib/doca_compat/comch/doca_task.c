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

/*
 * The per-message calls (submit, free, status, user data) are inline in
 * doca_pe.h; what a refused submission means in DOCA's terms is here, off
 * their path.
 */
doca_error_t
rte_comch_doca_task_submit_err(struct doca_task *task, int rc)
{
	if (task == NULL) /* rte_comch said so */
		return DOCA_ERROR_INVALID_VALUE;
	if (rc == -EAGAIN)
		return DOCA_ERROR_AGAIN;
	if (rc == -EALREADY) /* in flight already: a state, not an existing object */
		return DOCA_ERROR_BAD_STATE;
	return dc_ctx_err_slow(rte_comch_task_get_ctx(DC_TASK(task)), rc,
			       RTE_COMCH_CTX_STATE_RUNNING);
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
