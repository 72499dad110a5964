/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/* DOCA progress engines: rte_comch engines, cast; one per creating thread. */

#include <errno.h>

#include <rte_errno.h>
#include <rte_lcore.h>

#include "doca_compat_private.h"
#include "doca_pe.h"

#define DC_PE(pe) ((struct rte_comch_pe *)(pe))

doca_error_t
doca_pe_create(struct doca_pe **pe)
{
	struct rte_comch_pe *rpe;
	doca_error_t ret;

	DC_NULL_ARG(pe);
	ret = doca_compat_thread_init();
	if (ret != DOCA_SUCCESS)
		return ret;
	rpe = rte_comch_pe_create(RTE_COMCH_PE_LCORE_SELF);
	if (rpe == NULL)
		return rte_comch_doca_error_from_errno(-rte_errno);
	*pe = (struct doca_pe *)rpe;
	return DOCA_SUCCESS;
}

doca_error_t
doca_pe_destroy(struct doca_pe *pe)
{
	DC_NULL_ARG(pe);
	return rte_comch_doca_error_from_errno(rte_comch_pe_destroy(DC_PE(pe)));
}

doca_error_t
doca_pe_connect_ctx(struct doca_pe *pe, struct doca_ctx *ctx)
{
	int rc;

	DC_NULL_ARG(pe);
	DC_OBJ_ARG(ctx, DC_KIND_CTX_ANY);
	rc = rte_comch_pe_connect_ctx(DC_PE(pe), ctx->rctx);
	if (rc == -EEXIST || rc == -EALREADY)
		return DOCA_ERROR_ALREADY_EXIST;
	return dc_ctx_err(ctx->rctx, rc, RTE_COMCH_CTX_STATE_IDLE);
}

doca_error_t
doca_pe_get_num_inflight_tasks(const struct doca_pe *pe, size_t *num_inflight_tasks)
{
	uint64_t n;
	int rc;

	DC_NULL_ARG(pe);
	DC_NULL_ARG(num_inflight_tasks);
	rc = rte_comch_pe_get_num_inflight_tasks((const struct rte_comch_pe *)pe, &n);
	if (rc == 0)
		*num_inflight_tasks = n;
	return rte_comch_doca_error_from_errno(rc);
}

doca_error_t
doca_pe_get_notification_handle(const struct doca_pe *pe, doca_notification_handle_t *handle)
{
	DC_NULL_ARG(pe);
	DC_NULL_ARG(handle);
	return rte_comch_doca_error_from_errno(
		rte_comch_pe_get_notification_fd((const struct rte_comch_pe *)pe, handle));
}

doca_error_t
doca_pe_request_notification(struct doca_pe *pe)
{
	DC_NULL_ARG(pe);
	return rte_comch_doca_error_from_errno(rte_comch_pe_request_notification(DC_PE(pe)));
}

doca_error_t
doca_pe_clear_notification(struct doca_pe *pe, doca_notification_handle_t handle)
{
	int fd;

	DC_NULL_ARG(pe);
	if (rte_comch_pe_get_notification_fd(DC_PE(pe), &fd) == 0 && fd != handle) {
		DC_LOG(ERR, "handle %d is not this engine's (%d)", handle, fd);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return rte_comch_doca_error_from_errno(rte_comch_pe_clear_notification(DC_PE(pe)));
}
