/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/* The context state machine, common to every context type. */

#include <errno.h>

#include "comch_private.h"

static const char * const comch_state_names[] = {
	[RTE_COMCH_CTX_STATE_IDLE] = "idle",
	[RTE_COMCH_CTX_STATE_STARTING] = "starting",
	[RTE_COMCH_CTX_STATE_RUNNING] = "running",
	[RTE_COMCH_CTX_STATE_STOPPING] = "stopping",
};

void
comch_ctx_init(struct rte_comch_ctx *ctx, const struct comch_ctx_ops *ops,
	       enum comch_ctx_type type, struct rte_comch_dev *dev)
{
	ctx->magic = COMCH_MAGIC_CTX | type;
	ctx->ops = ops;
	ctx->type = type;
	ctx->dev = dev;
	ctx->state = RTE_COMCH_CTX_STATE_IDLE;
}

void
comch_ctx_set_state(struct rte_comch_ctx *ctx, enum rte_comch_ctx_state next)
{
	enum rte_comch_ctx_state prev = ctx->state;

	if (prev == next)
		return;
	/*
	 * Its engine's lcore is the only writer; a connection's lcore reads the
	 * states of the producers and consumers on it (comch_link_nb_active()).
	 */
	comch_store_relaxed(&ctx->state, next);
	ctx->quiet = false;
	COMCH_LOG(DEBUG, "context %p: %s -> %s", (void *)ctx,
		  comch_state_names[prev], comch_state_names[next]);
	if (ctx->state_cb == NULL)
		return;
	comch_pe_enter_cb(ctx->pe);
	ctx->state_cb(ctx->user_data, ctx, prev, next);
	comch_pe_leave_cb(ctx->pe);
}

int
comch_ctx_check_idle(const struct rte_comch_ctx *ctx, const char *what)
{
	if (ctx->state != RTE_COMCH_CTX_STATE_IDLE) {
		COMCH_LOG(ERR, "%s: only while idle (context is %s)",
			  what, comch_state_names[ctx->state]);
		return -EBUSY;
	}
	return 0;
}

int
rte_comch_ctx_start(struct rte_comch_ctx *ctx)
{
	int rc;

	if (COMCH_BAD_CTX(ctx))
		return -EINVAL;
	rc = comch_ctx_check_idle(ctx, "start");
	if (rc < 0)
		return rc;
	if (ctx->pe == NULL) {
		COMCH_LOG(ERR, "start: attach the context to a progress engine first");
		return -ENOTCONN;
	}
	ctx->last_error = 0;
	return ctx->ops->start(ctx);
}

int
rte_comch_ctx_stop(struct rte_comch_ctx *ctx)
{
	if (COMCH_BAD_CTX(ctx))
		return -EINVAL;
	switch (ctx->state) {
	case RTE_COMCH_CTX_STATE_IDLE:
		COMCH_LOG(ERR, "stop: context is already idle");
		return -EBUSY;
	case RTE_COMCH_CTX_STATE_STOPPING:
		/* A stop under way (asked for, or the connection ended): DOCA programs ask again. */
		return -EINPROGRESS;
	default:
		return ctx->ops->stop(ctx);
	}
}

int
rte_comch_ctx_get_state(const struct rte_comch_ctx *ctx, enum rte_comch_ctx_state *state)
{
	if (COMCH_BAD_CTX_FAST(ctx) || COMCH_NULL_ARG(state))
		return -EINVAL;
	*state = ctx->state;
	return 0;
}

int
rte_comch_ctx_set_state_changed_cb(struct rte_comch_ctx *ctx, rte_comch_ctx_state_changed_cb_t cb)
{
	int rc;

	if (COMCH_BAD_CTX(ctx))
		return -EINVAL;
	rc = comch_ctx_check_idle(ctx, "set_state_changed_cb");
	if (rc == 0)
		ctx->state_cb = cb;
	return rc;
}

int
rte_comch_ctx_set_user_data(struct rte_comch_ctx *ctx, union rte_comch_data user_data)
{
	if (COMCH_BAD_CTX_FAST(ctx))
		return -EINVAL;
	ctx->user_data = user_data;
	return 0;
}

int
rte_comch_ctx_get_user_data(const struct rte_comch_ctx *ctx, union rte_comch_data *user_data)
{
	if (COMCH_BAD_CTX_FAST(ctx) || COMCH_NULL_ARG(user_data))
		return -EINVAL;
	*user_data = ctx->user_data;
	return 0;
}

int
rte_comch_ctx_get_num_inflight_tasks(const struct rte_comch_ctx *ctx, uint32_t *num)
{
	if (COMCH_BAD_CTX_FAST(ctx) || COMCH_NULL_ARG(num))
		return -EINVAL;
	*num = ctx->nb_inflight;
	return 0;
}

int
rte_comch_ctx_get_last_error(const struct rte_comch_ctx *ctx)
{
	if (COMCH_BAD_CTX_FAST(ctx))
		return -EINVAL;
	return ctx->last_error;
}
