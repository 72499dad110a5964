/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Connections: life cycle, the queue of send tasks waiting for the peer to take
 * their message, and the upcalls through which drivers report traffic.
 */

#include <errno.h>
#include <stdlib.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_ring.h>

#include "comch_private.h"

/* How long a local close waits for the peer to take what was already sent. */
#define COMCH_DRAIN_TIMEOUT_MS 1000

struct rte_comch_connection *
comch_conn_create(struct comch_ctrl *ctrl, void *priv, const struct comch_conn_params *p)
{
	struct rte_comch_dev *dev = ctrl->ctx.dev;
	struct rte_comch_connection *conn;
	uint32_t qsize = rte_align32pow2(p->peer_queue_size);

	conn = calloc(1, sizeof(*conn));
	if (conn == NULL)
		return NULL;
	conn->txq = calloc(qsize, sizeof(*conn->txq));
	if (conn->txq == NULL) {
		free(conn);
		return NULL;
	}
	conn->magic = COMCH_MAGIC_CONN;
	conn->txq_mask = qsize - 1;
	conn->ctrl = ctrl;
	conn->priv = priv;
	conn->max_msg_size = p->max_msg_size;
	conn->state = COMCH_CONN_ESTABLISHED;
	TAILQ_INIT(&conn->producers);
	TAILQ_INIT(&conn->consumers);
	TAILQ_INSERT_TAIL(&ctrl->conns, conn, next);
	ctrl->nb_conns++;
	rte_spinlock_lock(&dev->lock);
	TAILQ_INSERT_TAIL(&dev->conns, conn, dev_next);
	conn->id = dev->next_conn_id++;
	dev->conns_opened++;
	rte_spinlock_unlock(&dev->lock);
	return conn;
}

void
comch_conn_close_local(struct rte_comch_connection *conn, int reason)
{
	if (conn->state != COMCH_CONN_ESTABLISHED)
		return;
	conn->state = COMCH_CONN_DRAINING;
	conn->close_reason = reason;
	conn->task_err = reason;
	conn->drain_deadline = rte_rdtsc() + comch_ms_to_tsc(COMCH_DRAIN_TIMEOUT_MS);
}

static void
comch_conn_task_done(struct rte_comch_connection *conn, struct rte_comch_task_send *t,
		     int status)
{
	struct comch_ctrl *ctrl = conn->ctrl;
	rte_comch_task_send_cb_t cb = status == 0 ? ctrl->send_ok_cb : ctrl->send_err_cb;

	t->base.status = status;
	ctrl->ctx.nb_inflight--;
	comch_pe_add_inflight(ctrl->ctx.pe, -1);
	comch_pe_enter_cb(ctrl->ctx.pe);
	cb(t, t->base.user_data, ctrl->ctx.user_data);
	comch_pe_leave_cb(ctrl->ctx.pe);
}

int
comch_conn_teardown(struct rte_comch_connection *conn)
{
	struct comch_ctrl *ctrl = conn->ctrl;
	struct rte_comch_dev *dev = ctrl->ctx.dev;
	struct rte_comch_task_send *t;
	uint32_t failed;

	/* Producers and consumers on other lcores stop using the link first. */
	comch_fast_conn_ended(conn);
	/* It may report messages the peer took at the last moment: count after it. */
	dev->ops->conn_close(conn);
	failed = conn->txq_tail - conn->txq_head;
	/* The task's own callback may resubmit it: that fails with -ENOTCONN now. */
	while (conn->txq_head != conn->txq_tail) {
		t = conn->txq[conn->txq_head++ & conn->txq_mask];
		comch_conn_task_done(conn, t, conn->task_err);
	}
	TAILQ_REMOVE(&ctrl->conns, conn, next);
	ctrl->nb_conns--;
	rte_spinlock_lock(&dev->lock);
	TAILQ_REMOVE(&dev->conns, conn, dev_next);
	dev->closed.msgs_sent += conn->cnt.msgs_sent;
	dev->closed.bytes_sent += conn->cnt.bytes_sent;
	dev->closed.msgs_recv += conn->cnt.msgs_recv;
	dev->closed.bytes_recv += conn->cnt.bytes_recv;
	dev->conns_closed++;
	dev->send_errors += failed;
	if (conn->close_reason == -EPROTO)
		dev->peer_errors++;
	rte_spinlock_unlock(&dev->lock);
	COMCH_LOG(INFO, "connection %p ended (%s), %u messages not taken by the peer",
		  (void *)conn, strerror(-conn->close_reason), failed);

	if (ctrl->ctx.type == COMCH_CTX_SERVER)
		comch_server_conn_ended(comch_ctrl_server(ctrl), conn);
	else
		comch_client_conn_ended(comch_ctrl_client(ctrl), conn);
	/* Tasks, producers or consumers still point at it: the last one to go frees it. */
	conn->zombie = true;
	comch_conn_release_check(conn);
	return 1;
}

/* Free a torn-down connection once nothing points at it any more. */
void
comch_conn_release_check(struct rte_comch_connection *conn)
{
	if (conn->zombie && conn->nb_fast == 0 && conn->nb_tasks == 0)
		comch_conn_free(conn);
}

void
comch_conn_task_released(struct rte_comch_connection *conn)
{
	conn->nb_tasks--;
	comch_conn_release_check(conn);
}

void
comch_conn_free(struct rte_comch_connection *conn)
{
	conn->ctrl->ctx.dev->ops->conn_free(conn);
	free(conn->fp_req);
	free(conn->txq);
	comch_obj_kill(&conn->magic);
	free(conn);
}

int
comch_conn_task_send_submit(struct rte_comch_task_send *t)
{
	struct rte_comch_connection *conn = t->conn;
	struct comch_ctrl *ctrl = conn->ctrl;
	int rc;

	if (unlikely(ctrl->ctx.state != RTE_COMCH_CTX_STATE_RUNNING)) {
		COMCH_LOG(ERR, "submit: context is not running");
		return -EBUSY;
	}
	if (unlikely(conn->state != COMCH_CONN_ESTABLISHED)) {
		COMCH_LOG(DEBUG, "submit: connection %p is closing", (void *)conn);
		return -ENOTCONN;
	}
	/* Full until progress reaps completions; a driver may never overrun our queue. */
	if (unlikely(conn->txq_tail - conn->txq_head > conn->txq_mask))
		return -EAGAIN;
	rc = ctrl->ctx.dev->ops->conn_send(conn, t->msg, t->len);
	if (unlikely(rc < 0))
		return rc;
	conn->txq[conn->txq_tail++ & conn->txq_mask] = t;
	t->base.status = -EINPROGRESS;
	ctrl->ctx.nb_inflight++;
	comch_pe_add_inflight(ctrl->ctx.pe, 1);
	return 0;
}

/* ------------------------------------------------------------------ upcalls */

void
comch_conn_recv(struct rte_comch_connection *conn, const void *msg, uint32_t len)
{
	struct comch_ctrl *ctrl = conn->ctrl;

	COMCH_CNT_ADD(conn->cnt.msgs_recv, 1);
	COMCH_CNT_ADD(conn->cnt.bytes_recv, len);
	comch_pe_enter_cb(ctrl->ctx.pe);
	ctrl->recv_cb(conn, msg, len);
	comch_pe_leave_cb(ctrl->ctx.pe);
}

void
comch_conn_tx_done(struct rte_comch_connection *conn, uint32_t n)
{
	struct rte_comch_task_send *t;

	n = RTE_MIN(n, conn->txq_tail - conn->txq_head);
	while (n-- > 0) {
		t = conn->txq[conn->txq_head++ & conn->txq_mask];
		COMCH_CNT_ADD(conn->cnt.msgs_sent, 1);
		COMCH_CNT_ADD(conn->cnt.bytes_sent, t->len);
		comch_conn_task_done(conn, t, 0);
	}
}

void
comch_conn_lost(struct rte_comch_connection *conn, int reason)
{
	if (conn->state == COMCH_CONN_DEAD)
		return;
	/* A peer breaking the protocol is reported as such, even during our own close. */
	if (conn->state == COMCH_CONN_ESTABLISHED || reason == -EPROTO)
		conn->close_reason = reason;
	conn->state = COMCH_CONN_DEAD;
	/* What the peer never took is reported as reset if it died or misbehaved. */
	conn->task_err = reason == -EPROTO ? -ECONNRESET : reason;
}

/* ------------------------------------------------------------------ public */

int
rte_comch_connection_set_user_data(struct rte_comch_connection *conn, union rte_comch_data data)
{
	if (COMCH_BAD_CONN(conn))
		return -EINVAL;
	conn->user_data = data;
	return 0;
}

int
rte_comch_connection_get_user_data(const struct rte_comch_connection *conn,
				   union rte_comch_data *data)
{
	if (COMCH_BAD_CONN(conn) || COMCH_NULL_ARG(data))
		return -EINVAL;
	*data = conn->user_data;
	return 0;
}

struct rte_comch_server *
rte_comch_connection_get_server(const struct rte_comch_connection *conn)
{
	if (COMCH_BAD_CONN(conn)) {
		rte_errno = EINVAL;
		return NULL;
	}
	if (conn->ctrl->ctx.type != COMCH_CTX_SERVER) {
		rte_errno = ENOENT;
		return NULL;
	}
	return comch_ctrl_server(conn->ctrl);
}

struct rte_comch_client *
rte_comch_connection_get_client(const struct rte_comch_connection *conn)
{
	if (COMCH_BAD_CONN(conn)) {
		rte_errno = EINVAL;
		return NULL;
	}
	if (conn->ctrl->ctx.type != COMCH_CTX_CLIENT) {
		rte_errno = ENOENT;
		return NULL;
	}
	return comch_ctrl_client(conn->ctrl);
}

struct rte_comch_ctx *
rte_comch_connection_get_ctx(const struct rte_comch_connection *conn)
{
	if (COMCH_BAD_CONN(conn)) {
		rte_errno = EINVAL;
		return NULL;
	}
	return &conn->ctrl->ctx;
}

int
rte_comch_connection_update_info(const struct rte_comch_connection *conn)
{
	if (COMCH_BAD_CONN(conn))
		return -EINVAL;
	return conn->state == COMCH_CONN_ESTABLISHED ? 0 : -ECONNABORTED;
}

int
rte_comch_connection_get_stats(const struct rte_comch_connection *conn,
			       struct rte_comch_conn_stats *stats)
{
	if (COMCH_BAD_CONN(conn) || COMCH_NULL_ARG(stats))
		return -EINVAL;
	stats->sent_messages = conn->cnt.msgs_sent;
	stats->sent_bytes = conn->cnt.bytes_sent;
	stats->recv_messages = conn->cnt.msgs_recv;
	stats->recv_bytes = conn->cnt.bytes_recv;
	return 0;
}

int
rte_comch_connection_get_max_msg_size(const struct rte_comch_connection *conn, uint32_t *size)
{
	if (COMCH_BAD_CONN(conn) || COMCH_NULL_ARG(size))
		return -EINVAL;
	*size = conn->max_msg_size;
	return 0;
}

struct rte_comch_task *
rte_comch_task_send_as_task(struct rte_comch_task_send *task)
{
	if (COMCH_NULL_ARG(task)) {
		rte_errno = EINVAL;
		return NULL;
	}
	return &task->base;
}

struct rte_comch_connection *
rte_comch_task_send_get_conn(const struct rte_comch_task_send *task)
{
	if (COMCH_NULL_ARG(task)) {
		rte_errno = EINVAL;
		return NULL;
	}
	return task->conn;
}

const void *
rte_comch_task_send_get_msg(const struct rte_comch_task_send *task, uint32_t *len)
{
	if (COMCH_NULL_ARG(task)) {
		rte_errno = EINVAL;
		return NULL;
	}
	if (len != NULL)
		*len = task->len;
	return task->msg;
}
