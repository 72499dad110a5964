/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * What servers and clients share: configuration, the send task pool, and the
 * per-round walk over their connections.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_mempool.h>

#include "comch_private.h"

struct comch_ctrl *
comch_ctrl_alloc(size_t outer_size, size_t ctrl_offset, struct rte_comch_dev *dev,
		 enum comch_ctx_type type, const struct comch_ctx_ops *ops, const char *name)
{
	size_t name_len;
	struct comch_ctrl *ctrl;
	void *outer;

	if (COMCH_NULL_ARG(name)) {
		rte_errno = EINVAL;
		return NULL;
	}
	name_len = strnlen(name, dev->info.max_name_len);
	if (name_len == 0) {
		COMCH_LOG(ERR, "server name is empty");
		rte_errno = EINVAL;
		return NULL;
	}
	if (name_len >= dev->info.max_name_len) {
		COMCH_LOG(ERR, "server name is longer than %u bytes", dev->info.max_name_len - 1);
		rte_errno = ENAMETOOLONG;
		return NULL;
	}
	outer = calloc(1, outer_size + name_len + 1);
	if (outer == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	ctrl = RTE_PTR_ADD(outer, ctrl_offset);
	comch_ctx_init(&ctrl->ctx, ops, type, dev);
	memcpy(ctrl->name, name, name_len + 1);
	ctrl->max_msg_size = dev->info.default_msg_size;
	ctrl->recv_queue_size = RTE_MIN((uint32_t)RTE_COMCH_DEFAULT_RECV_QUEUE_SIZE,
					dev->info.max_recv_queue_size);
	TAILQ_INIT(&ctrl->conns);
	return ctrl;
}

/* Checks before the outer object is freed: idle, and every task back in the pool. */
/* Teardown order: producers and consumers go before their connections' contexts. */
int
comch_ctrl_check_no_fast(const struct comch_ctrl *ctrl, const char *what)
{
	if (ctrl->nb_fast != 0) {
		COMCH_LOG(ERR, "%s: %u producers or consumers still exist on its connections: "
			  "destroy them first", what, ctrl->nb_fast);
		return -EBUSY;
	}
	return 0;
}

int
comch_ctrl_release(struct comch_ctrl *ctrl)
{
	int rc = comch_ctx_check_idle(&ctrl->ctx, "destroy");
	unsigned int used;

	if (rc == 0)
		rc = comch_ctrl_check_no_fast(ctrl, "destroy");
	if (rc < 0)
		return rc;
	if (comch_pe_in_cb(ctrl->ctx.pe)) {
		COMCH_LOG(ERR, "destroy: not from inside a callback of the context's engine");
		return -EDEADLK;
	}
	used = comch_task_pool_in_use(ctrl->task_pool);
	if (used != 0) {
		COMCH_LOG(ERR, "destroy: %u send tasks were not freed", used);
		return -EBUSY;
	}
	comch_task_pool_free(ctrl->task_pool);
	ctrl->task_pool = NULL;
	comch_pe_detach(&ctrl->ctx);
	return 0;
}

int
comch_ctrl_set_max_msg_size(struct comch_ctrl *ctrl, uint32_t size)
{
	int rc = comch_ctx_check_idle(&ctrl->ctx, "set_max_msg_size");

	if (rc < 0)
		return rc;
	if (size == 0) {
		COMCH_LOG(ERR, "max message size must not be 0");
		return -EINVAL;
	}
	if (size > ctrl->ctx.dev->info.max_msg_size) {
		COMCH_LOG(ERR, "max message size %u is above the device's %u",
			  size, ctrl->ctx.dev->info.max_msg_size);
		return -EMSGSIZE;
	}
	ctrl->max_msg_size = size;
	ctrl->max_msg_size_set = true;
	return 0;
}

int
comch_ctrl_set_recv_queue_size(struct comch_ctrl *ctrl, uint32_t size)
{
	int rc = comch_ctx_check_idle(&ctrl->ctx, "set_recv_queue_size");

	if (rc < 0)
		return rc;
	if (size == 0 || size > ctrl->ctx.dev->info.max_recv_queue_size) {
		COMCH_LOG(ERR, "receive queue size %u is not in 1..%u",
			  size, ctrl->ctx.dev->info.max_recv_queue_size);
		return -EINVAL;
	}
	ctrl->recv_queue_size = size;
	return 0;
}

int
comch_ctrl_task_send_set_conf(struct comch_ctrl *ctrl, rte_comch_task_send_cb_t ok_cb,
			      rte_comch_task_send_cb_t err_cb, uint32_t num)
{
	int rc = comch_ctx_check_idle(&ctrl->ctx, "task_send_set_conf");

	if (rc < 0)
		return rc;
	if (ok_cb == NULL || err_cb == NULL) {
		COMCH_LOG(ERR, "send task %s callback is NULL", ok_cb == NULL ? "completion" : "error");
		return -EINVAL;
	}
	if (num == 0 || num > ctrl->ctx.dev->info.max_send_tasks) {
		COMCH_LOG(ERR, "number of send tasks %u is not in 1..%u",
			  num, ctrl->ctx.dev->info.max_send_tasks);
		return -EINVAL;
	}
	if (ctrl->task_pool != NULL && num != ctrl->nb_send_tasks) {
		if (comch_task_pool_in_use(ctrl->task_pool) != 0) {
			COMCH_LOG(ERR, "cannot resize the send task pool while tasks are taken");
			return -EBUSY;
		}
		comch_task_pool_free(ctrl->task_pool);
		ctrl->task_pool = NULL;
	}
	ctrl->send_ok_cb = ok_cb;
	ctrl->send_err_cb = err_cb;
	ctrl->nb_send_tasks = num;
	return 0;
}

int
comch_ctrl_event_consumer_register(struct comch_ctrl *ctrl, rte_comch_event_consumer_cb_t new_cb,
				   rte_comch_event_consumer_cb_t expired_cb)
{
	int rc = comch_ctx_check_idle(&ctrl->ctx, "event_consumer_register");

	if (rc < 0)
		return rc;
	if (new_cb == NULL || expired_cb == NULL) {
		COMCH_LOG(ERR, "%s consumer callback is NULL", new_cb == NULL ? "new" : "expired");
		return -EINVAL;
	}
	ctrl->new_consumer_cb = new_cb;
	ctrl->expired_consumer_cb = expired_cb;
	return 0;
}

int
comch_ctrl_event_msg_recv_register(struct comch_ctrl *ctrl, rte_comch_event_msg_recv_cb_t cb)
{
	int rc = comch_ctx_check_idle(&ctrl->ctx, "event_msg_recv_register");

	if (rc < 0)
		return rc;
	if (cb == NULL) {
		COMCH_LOG(ERR, "receive callback is NULL");
		return -EINVAL;
	}
	ctrl->recv_cb = cb;
	return 0;
}

/* Mandatory configuration, and the task pool (one producer, one consumer: the engine lcore). */
int
comch_ctrl_prepare_start(struct comch_ctrl *ctrl)
{
	if (ctrl->send_ok_cb == NULL) {
		COMCH_LOG(ERR, "start: configure send tasks first (task_send_set_conf)");
		return -EINVAL;
	}
	if (ctrl->recv_cb == NULL) {
		COMCH_LOG(ERR, "start: register a receive callback first");
		return -EINVAL;
	}
	if (ctrl->task_pool != NULL)
		return 0;
	ctrl->task_pool = comch_task_pool_create(ctrl->nb_send_tasks,
						 sizeof(struct rte_comch_task_send));
	return ctrl->task_pool == NULL ? -ENOMEM : 0;
}

int
comch_ctrl_task_send_alloc_init(struct comch_ctrl *ctrl, struct rte_comch_connection *conn,
				const void *msg, uint32_t len, struct rte_comch_task_send **task)
{
	struct rte_comch_task_send *t;

	if (COMCH_BAD_CONN_FAST(conn))
		return -EINVAL;
	if (unlikely(task == NULL || (msg == NULL && len > 0))) {
		COMCH_LOG(ERR, "%s is NULL", task == NULL ? "task" : "msg");
		return -EINVAL;
	}
	if (unlikely(conn->ctrl != ctrl)) {
		COMCH_LOG(ERR, "connection %p does not belong to this context", (void *)conn);
		return -EINVAL;
	}
	if (unlikely(ctrl->ctx.state != RTE_COMCH_CTX_STATE_RUNNING)) {
		COMCH_LOG(ERR, "send task: context is not running");
		return -EBUSY;
	}
	if (unlikely(conn->state != COMCH_CONN_ESTABLISHED)) {
		COMCH_LOG(DEBUG, "send task: connection %p is closing", (void *)conn);
		return -ENOTCONN;
	}
	if (unlikely(len > conn->max_msg_size)) {
		COMCH_LOG(ERR, "message of %u bytes is above the connection's max of %u",
			  len, conn->max_msg_size);
		return -EMSGSIZE;
	}
	if (unlikely(comch_task_get(ctrl->task_pool, (void **)&t) < 0)) {
		COMCH_LOG(DEBUG, "send task pool is empty (%u tasks)", ctrl->nb_send_tasks);
		return -ENOMEM;
	}
	t->base.ctx = &ctrl->ctx;
	t->base.user_data.u64 = 0;
	t->base.status = 0;
	t->base.type = COMCH_TASK_SEND;
	t->base.allocated = true;
	t->conn = conn;
	t->msg = msg;
	t->len = len;
	conn->nb_tasks++; /* the task points at conn: it stays allocated until the task goes */
	*task = t;
	return 0;
}

/*
 * The end of a round over the connections (comch_ctrl_progress_conns()): tear
 * down the dead, telling the owner (ended) of each. Teardown runs callbacks
 * that may end other connections, so the walk restarts until a pass finds
 * nothing to tear down.
 */
int
comch_ctrl_reap_conns(struct comch_ctrl *ctrl, comch_ctrl_conn_ended_t ended)
{
	struct rte_comch_connection *conn;
	bool dead = true;
	int did = 0;

	while (dead) {
		dead = false;
		TAILQ_FOREACH(conn, &ctrl->conns, next) {
			if (conn->state == COMCH_CONN_DEAD) {
				comch_conn_teardown(conn);
				ended(ctrl, conn);
				comch_conn_retire(conn);
				did++;
				dead = true;
				break;
			}
		}
	}
	return did;
}

void
comch_ctrl_close_all(struct comch_ctrl *ctrl, int reason)
{
	struct rte_comch_connection *conn;

	TAILQ_FOREACH(conn, &ctrl->conns, next)
		comch_conn_close_local(conn, reason);
}

int
comch_ctrl_arm(struct rte_comch_ctx *ctx)
{
	struct comch_ctrl *ctrl = container_of(ctx, struct comch_ctrl, ctx);
	struct rte_comch_connection *conn;
	int rc;

	if (ctx->state != RTE_COMCH_CTX_STATE_RUNNING)
		return -EAGAIN; /* connecting or stopping: timers to run */
	TAILQ_FOREACH(conn, &ctrl->conns, next) {
		/* A withdrawn consumer waits for a grace period: checked by polling. */
		if (conn->state != COMCH_CONN_ESTABLISHED || conn->link.nb_unimporting != 0)
			return -EAGAIN;
		/* Paused: its waiting messages must neither wake the engine nor keep it up. */
		rc = conn->ops->arm(conn->drv, !conn->recv_paused);
		if (rc < 0)
			return rc;
	}
	return 0;
}

void
comch_ctrl_disarm(struct rte_comch_ctx *ctx)
{
	struct comch_ctrl *ctrl = container_of(ctx, struct comch_ctrl, ctx);
	struct rte_comch_connection *conn;

	/* Draining ones too: armed, they would cost the peer a wake-up per message. */
	TAILQ_FOREACH(conn, &ctrl->conns, next)
		if (conn->state != COMCH_CONN_DEAD)
			conn->ops->disarm(conn->drv);
}
