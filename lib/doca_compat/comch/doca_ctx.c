/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/* DOCA contexts: a wrapper per rte_comch context, for DOCA's user data and callbacks. */

#include <errno.h>
#include <string.h>

#include "doca_compat_private.h"

void
dc_ctx_init(struct doca_ctx *ctx, enum dc_ctx_kind kind, struct rte_comch_ctx *rctx,
	    struct doca_dev *dev)
{
	ctx->rctx = rctx;
	ctx->dev = dev;
	rte_comch_ctx_set_user_data(rctx, (union rte_comch_data){ .ptr = ctx });
	dc_obj_publish(&ctx->obj, ctx, DC_KIND_CTX | kind);
}

void
dc_ctx_fini(struct doca_ctx *ctx, void *wrapper)
{
	if (ctx->dev != NULL)
		doca_compat_dev_release(ctx->dev);
	dc_obj_retire(&ctx->obj, wrapper);
}

struct doca_ctx *
dc_ctx_of(const struct rte_comch_ctx *rctx)
{
	union rte_comch_data d = { .ptr = NULL };

	if (rctx == NULL || rte_comch_ctx_get_user_data(rctx, &d) != 0)
		return NULL;
	return d.ptr;
}

doca_error_t
dc_ctx_err_slow(const struct rte_comch_ctx *rctx, int rc, enum rte_comch_ctx_state needed)
{
	enum rte_comch_ctx_state state;

	if (rc == -EBUSY && rte_comch_ctx_get_state(rctx, &state) == 0 && state != needed)
		return DOCA_ERROR_BAD_STATE;
	return rte_comch_doca_error_from_errno(rc);
}

doca_error_t
doca_ctx_start(struct doca_ctx *ctx)
{
	int rc;

	DC_OBJ_ARG(ctx, DC_KIND_CTX_ANY);
	rc = rte_comch_ctx_start(ctx->rctx);
	if (rc == -EINPROGRESS)
		return DOCA_ERROR_IN_PROGRESS;
	if (rc == -ENOTCONN)
		return DOCA_ERROR_NOT_CONNECTED; /* no progress engine */
	return dc_ctx_err(ctx->rctx, rc, RTE_COMCH_CTX_STATE_IDLE);
}

doca_error_t
doca_ctx_stop(struct doca_ctx *ctx)
{
	enum rte_comch_ctx_state state;
	int rc;

	DC_OBJ_ARG(ctx, DC_KIND_CTX_ANY);
	/* A DPA-side producer or consumer stops at once, as on DOCA (doca_comch_msgq.c). */
	if (ctx->dpa != NULL)
		return dc_dpa_ctx_stop(ctx);
	rc = rte_comch_ctx_get_state(ctx->rctx, &state);
	if (rc != 0)
		return rte_comch_doca_error_from_errno(rc);
	if (state == RTE_COMCH_CTX_STATE_IDLE) {
		DC_LOG(ERR, "the context is idle already");
		return DOCA_ERROR_BAD_STATE;
	}
	/* A stop while STOPPING is -EINPROGRESS again: DOCA programs stop while they wait. */
	rc = rte_comch_ctx_stop(ctx->rctx);
	return rc == -EINPROGRESS ? DOCA_ERROR_IN_PROGRESS : rte_comch_doca_error_from_errno(rc);
}

doca_error_t
doca_ctx_get_state(const struct doca_ctx *ctx, enum doca_ctx_states *state)
{
	enum rte_comch_ctx_state s;
	int rc;

	DC_OBJ_ARG_FAST(ctx, DC_KIND_CTX_ANY);
	DC_NULL_ARG(state);
	rc = rte_comch_ctx_get_state(ctx->rctx, &s);
	if (rc == 0)
		*state = (enum doca_ctx_states)s; /* same values, by design */
	return rte_comch_doca_error_from_errno(rc);
}

static void
dc_ctx_state_changed(union rte_comch_data user_data, struct rte_comch_ctx *rctx,
		     enum rte_comch_ctx_state prev, enum rte_comch_ctx_state next)
{
	struct doca_ctx *ctx = user_data.ptr;

	RTE_SET_USED(rctx);
	if (ctx->state_cb != NULL)
		ctx->state_cb(ctx->user_data, ctx, (enum doca_ctx_states)prev,
			      (enum doca_ctx_states)next);
}

doca_error_t
doca_ctx_set_state_changed_cb(struct doca_ctx *ctx, doca_ctx_state_changed_callback_t cb)
{
	int rc;

	DC_OBJ_ARG(ctx, DC_KIND_CTX_ANY);
	rc = rte_comch_ctx_set_state_changed_cb(ctx->rctx, cb == NULL ? NULL : dc_ctx_state_changed);
	if (rc == 0)
		ctx->state_cb = cb;
	return dc_ctx_err(ctx->rctx, rc, RTE_COMCH_CTX_STATE_IDLE);
}

doca_error_t
doca_ctx_set_user_data(struct doca_ctx *ctx, union doca_data user_data)
{
	DC_OBJ_ARG(ctx, DC_KIND_CTX_ANY);
	ctx->user_data = user_data;
	return DOCA_SUCCESS;
}

doca_error_t
doca_ctx_get_user_data(const struct doca_ctx *ctx, union doca_data *user_data)
{
	DC_OBJ_ARG_FAST(ctx, DC_KIND_CTX_ANY);
	DC_NULL_ARG(user_data);
	*user_data = ctx->user_data;
	return DOCA_SUCCESS;
}

doca_error_t
doca_ctx_get_num_inflight_tasks(const struct doca_ctx *ctx, size_t *num_inflight_tasks)
{
	uint32_t n;
	int rc;

	DC_OBJ_ARG_FAST(ctx, DC_KIND_CTX_ANY);
	DC_NULL_ARG(num_inflight_tasks);
	rc = rte_comch_ctx_get_num_inflight_tasks(ctx->rctx, &n);
	if (rc == 0)
		*num_inflight_tasks = n;
	return rte_comch_doca_error_from_errno(rc);
}
