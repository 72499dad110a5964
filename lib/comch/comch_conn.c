/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Connections: life cycle, the queue of send tasks waiting for the peer to take
 * their message, each round's poll of the driver (messages in, in place, and
 * the count the peer took), and the one abort path.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_ring.h>

#include "comch_private.h"

/* How long a local close waits for the peer to take what was already sent. */
#define COMCH_DRAIN_TIMEOUT_MS 1000
/* Messages delivered per connection per round, so one busy peer cannot starve the rest. */
#define COMCH_RECV_BURST 32
/* Room for a start and a stop request of every consumer at once. */
#define COMCH_FP_REQ_RING 1024

static const struct comch_link_ops comch_conn_link_ops;

struct rte_comch_connection *
comch_conn_create(struct comch_ctrl *ctrl, void *drv, const struct rte_comch_drv_conn_params *p)
{
	struct rte_comch_dev *dev = ctrl->ctx.dev;
	struct rte_comch_connection *conn;
	uint32_t qsize = rte_align32pow2(p->peer_queue_size);

	conn = comch_zalloc_lines(1, sizeof(*conn));
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
	conn->drv = drv;
	conn->ops = dev->ops->conn;
	conn->max_msg_size = p->max_msg_size;
	conn->state = COMCH_CONN_ESTABLISHED;
	TAILQ_INSERT_TAIL(&ctrl->conns, conn, next);
	ctrl->nb_conns++;
	rte_spinlock_lock(&dev->lock);
	TAILQ_INSERT_TAIL(&dev->conns, conn, dev_next);
	conn->id = dev->next_conn_id++;
	dev->conns_opened++;
	rte_spinlock_unlock(&dev->lock);
	comch_link_init(&conn->link, &comch_conn_link_ops, dev, conn->id, drv,
			dev->info.max_peer_consumers);
	comch_obj_publish(&conn->reg, &conn->magic);
	return conn;
}

void
comch_conn_report_failed(struct comch_ctrl *ctrl, int status,
			 rte_comch_event_conn_status_cb_t cb)
{
	struct rte_comch_dev *dev = ctrl->ctx.dev;
	struct rte_comch_connection *conn;

	conn = comch_zalloc_lines(1, sizeof(*conn));
	if (conn == NULL) {
		COMCH_LOG(ERR, "%s: out of memory to report a failed connection", ctrl->name);
		return;
	}
	conn->magic = COMCH_MAGIC_CONN;
	conn->ctrl = ctrl;
	/* Ended from the start: whatever is asked of it, but its getters, is -ENOTCONN. */
	conn->state = COMCH_CONN_DEAD;
	conn->close_reason = status;
	conn->task_err = status;
	conn->max_msg_size = ctrl->max_msg_size;
	rte_spinlock_lock(&dev->lock);
	conn->id = dev->next_conn_id++;
	rte_spinlock_unlock(&dev->lock);
	comch_link_init(&conn->link, &comch_conn_link_ops, dev, conn->id, NULL, 0);
	comch_store_relaxed(&conn->link.fp_dead, 1);
	comch_obj_publish(&conn->reg, &conn->magic);
	comch_pe_enter_cb(ctrl->ctx.pe);
	cb(conn, status);
	comch_pe_leave_cb(ctrl->ctx.pe);
	/* In no list, held by nothing (no task, producer or consumer could be made). */
	comch_obj_retire(&conn->reg, &conn->magic, conn);
}

int
comch_conn_check_fast_idle(const struct rte_comch_connection *conn, const char *what)
{
	uint32_t n = comch_link_nb_active(&conn->link);

	/*
	 * IDLE ones may stay: they outlive the connection (which stays allocated
	 * until the last is destroyed), and their start fails once it has ended.
	 */
	if (n == 0)
		return 0;
	COMCH_LOG(ERR, "%s: connection %u: %u producers or consumers on it are not idle: stop "
		  "them first", what, conn->id, n);
	return -EBUSY;
}

void
comch_conn_close_local(struct rte_comch_connection *conn, int reason)
{
	if (conn->state != COMCH_CONN_ESTABLISHED)
		return;
	conn->state = COMCH_CONN_DRAINING;
	conn->close_reason = reason;
	conn->task_err = reason;
	conn->closed_locally = true;
	conn->drain_deadline = rte_rdtsc() + comch_ms_to_tsc(COMCH_DRAIN_TIMEOUT_MS);
}

/* The connection is over for reason; the rest of the round tears it down. */
static void
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

/*
 * Ask the connection's engine to end it for reason (-EPROTO: the peer
 * broke the protocol): the one abort path. Any lcore; the engine does it in
 * its progress.
 */
static void
comch_conn_abort(struct rte_comch_connection *conn, int reason)
{
	int none = 0;

	/* The first reason wins; the connection's engine acts on it, and may sleep. */
	if (comch_cas_acq_rel(&conn->link.abort_reason, &none, reason))
		rte_comch_drv_pe_wake(conn->ctrl->ctx.pe);
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
	if (comch_task_done_freed(&t->base)) {
		comch_conn_task_released(conn);
		return;
	}
	comch_pe_enter_cb(ctrl->ctx.pe);
	cb(t, t->base.user_data, ctrl->ctx.user_data);
	comch_pe_leave_cb(ctrl->ctx.pe);
}

/*
 * Whether producers' or consumers' requests wait for the connection's lcore.
 * Every round asks, and almost every round finds none: the ring's indexes say
 * so without a call (a request queued meanwhile is served next round, as one
 * queued just after a dequeue would be). Only this lcore dequeues.
 */
static inline bool
comch_conn_fp_req_pending(const struct rte_comch_connection *conn)
{
	return comch_load_acquire(&conn->fp_req->prod.tail) != conn->fp_req->cons.head;
}

/* The peer took the n oldest messages in flight: -EPROTO if it claims more. */
static int
comch_conn_taken(struct rte_comch_connection *conn, uint32_t n)
{
	struct rte_comch_task_send *t;

	if (unlikely(n > conn->txq_tail - conn->txq_head)) {
		COMCH_LOG(ERR, "connection %u: the peer says it took %u messages, %u were sent",
			  conn->id, n, conn->txq_tail - conn->txq_head);
		return -EPROTO;
	}
	while (n-- > 0) {
		t = conn->txq[conn->txq_head++ & conn->txq_mask];
		COMCH_CNT_ADD(conn->cnt.msgs_sent, 1);
		COMCH_CNT_ADD(conn->cnt.bytes_sent, t->len);
		comch_conn_task_done(conn, t, 0);
	}
	return 0;
}

/*
 * One poll of the driver: messages in (at most max, none once closed on our
 * side), messages taken. A callback that closes the connection stops the
 * delivery: nothing more is delivered on a closed connection. One that pauses
 * it stops it too, unless pausable is false (the peer's end was seen): the
 * rest stays in the driver's ring, released only once delivered.
 */
static __rte_always_inline int
comch_conn_poll(struct rte_comch_connection *conn, unsigned int max, bool pausable)
{
	struct rte_comch_drv_msg msgs[COMCH_RECV_BURST];
	struct comch_ctrl *ctrl = conn->ctrl;
	uint32_t taken = 0;
	int i, n;

	n = conn->ops->poll(conn->drv, msgs, RTE_MIN(max, (unsigned int)COMCH_RECV_BURST),
			    &taken);
	/* (Taken is 0 in most rounds: nothing to check, no call.) */
	if (unlikely(n < 0) || unlikely(taken != 0 && comch_conn_taken(conn, taken) < 0)) {
		COMCH_LOG(ERR, "connection %u: the peer corrupted what it shares: dropping it",
			  conn->id);
		conn->ops->release(conn->drv, 0);
		comch_conn_lost(conn, -EPROTO);
		return 1;
	}
	for (i = 0; i < n && conn->state == COMCH_CONN_ESTABLISHED; i++) {
		if (unlikely(conn->recv_paused) && pausable)
			break;
		COMCH_CNT_ADD(conn->cnt.msgs_recv, 1);
		COMCH_CNT_ADD(conn->cnt.bytes_recv, msgs[i].len);
		comch_pe_enter_cb(ctrl->ctx.pe);
		ctrl->recv_cb(conn, msgs[i].data, msgs[i].len);
		comch_pe_leave_cb(ctrl->ctx.pe);
	}
	conn->ops->release(conn->drv, i);
	return i + (taken != 0);
}

/*
 * The driver says the connection ended. Whatever the peer took of ours before
 * the end was delivered. A peer that died leaves us what it finished writing
 * before: still ours to take, even while receive is paused (nothing else would
 * ever deliver it). A peer that closed it reported what we had not taken as
 * failed (its drain timed out): that is not delivered.
 */
static void
comch_conn_ended_by_peer(struct rte_comch_connection *conn, int reason)
{
	unsigned int max = conn->state == COMCH_CONN_ESTABLISHED && reason == -ECONNRESET ?
			   COMCH_RECV_BURST : 0;

	/* Bounded: the peer can have written its ring's capacity at most. */
	while (conn->state != COMCH_CONN_DEAD && comch_conn_poll(conn, max, false) > 0)
		;
	comch_conn_lost(conn, reason);
}

/* Slow tick: the library's control messages, and the end of the connection. */
static int
comch_conn_ctl(struct rte_comch_connection *conn)
{
	struct rte_comch_drv_ctl ctl;
	int did = 0, rc;

	while (conn->state != COMCH_CONN_DEAD) {
		rc = conn->ops->ctl_poll(conn->drv, &ctl);
		if (rc == 0)
			break;
		did = 1;
		if (rc < 0) {
			comch_conn_ended_by_peer(conn, rc);
			continue;
		}
		rc = comch_proto_on_ctl(conn, &ctl);
		if (rc == -EPROTO) {
			COMCH_LOG(ERR, "connection %u: the peer broke the control protocol: "
				  "dropping it", conn->id);
			comch_conn_lost(conn, -EPROTO);
		} else if (rc < 0) {
			COMCH_LOG(ERR, "connection %u: cannot answer the peer (%s): ending it",
				  conn->id, strerror(-rc));
			comch_conn_lost(conn, rc);
		}
	}
	return did;
}

int
comch_conn_progress(struct rte_comch_connection *conn, bool slow, uint64_t now)
{
	int did = 0, reason;

	if (conn->state == COMCH_CONN_DEAD)
		return 0;
	if (unlikely(conn->fp_req != NULL) && comch_conn_fp_req_pending(conn))
		did += comch_proto_serve(conn);
	/* The peer's consumers it withdrew, unmapped (and confirmed) once our producers let go. */
	if (unlikely(conn->link.nb_unimporting != 0)) {
		reason = comch_proto_unimports(conn);
		if (reason < 0)
			comch_conn_abort(conn, reason);
		did += reason != 0;
	}
	reason = comch_load_acquire(&conn->link.abort_reason);
	if (unlikely(reason != 0)) {
		comch_conn_lost(conn, reason);
		return 1;
	}
	/*
	 * The control messages first: an end that came with them decides what
	 * of the ring is still delivered (see comch_conn_ended_by_peer()).
	 */
	if (unlikely(slow))
		did += comch_conn_ctl(conn);
	/* Closed on our side, or paused: only learn what the peer takes, deliver no more. */
	if (conn->state != COMCH_CONN_DEAD)
		did += comch_conn_poll(conn, conn->state == COMCH_CONN_ESTABLISHED &&
				       !conn->recv_paused ? COMCH_RECV_BURST : 0, true);
	if (conn->state == COMCH_CONN_DRAINING) {
		if (conn->txq_head == conn->txq_tail) {
			conn->state = COMCH_CONN_DEAD;
		} else if (now >= conn->drain_deadline) {
			COMCH_LOG(WARNING, "connection %u: peer did not take %u messages in time",
				  conn->id, conn->txq_tail - conn->txq_head);
			conn->task_err = -ETIMEDOUT;
			conn->state = COMCH_CONN_DEAD;
		}
	}
	return did;
}

void
comch_conn_teardown(struct rte_comch_connection *conn)
{
	struct comch_ctrl *ctrl = conn->ctrl;
	struct rte_comch_dev *dev = ctrl->ctx.dev;
	struct rte_comch_task_send *t;
	uint32_t failed;
	int tell;

	/* Producers and consumers on other lcores stop using the link first. */
	comch_proto_conn_ended(conn);
	/*
	 * Tell the peer: an orderly close of ours, or that it broke the
	 * protocol; a peer that closed or died is told nothing.
	 */
	tell = conn->close_reason == -EPROTO ? -EPROTO : conn->closed_locally ? 0 : -ECONNRESET;
	conn->ops->close(conn->drv, tell);
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
	COMCH_LOG(INFO, "connection %u ended (%s), %u messages not taken by the peer",
		  conn->id, strerror(-conn->close_reason), failed);
}

void
comch_conn_retire(struct rte_comch_connection *conn)
{
	/* Tasks, producers or consumers still point at it: the last one to go frees it. */
	conn->zombie = true;
	comch_conn_release_check(conn);
}

/* Free a torn-down connection once nothing points at it any more. */
void
comch_conn_release_check(struct rte_comch_connection *conn)
{
	if (conn->zombie && conn->link.nb_fast == 0 && conn->nb_tasks == 0)
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
	/* No producer is left to copy into the peer's consumers. */
	comch_link_release_remotes(&conn->link);
	comch_grace_free(&conn->link);
	conn->ops->free(conn->drv);
	comch_link_remotes_free(&conn->link);
	free(conn->fp_req);
	free(conn->txq);
	comch_obj_retire(&conn->reg, &conn->magic, conn);
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
		COMCH_LOG(DEBUG, "submit: connection %u is closing", conn->id);
		return -ENOTCONN;
	}
	/* Full until progress reaps completions; a driver may never overrun our queue. */
	if (unlikely(conn->txq_tail - conn->txq_head > conn->txq_mask))
		return -EAGAIN;
	rc = conn->ops->send(conn->drv, t->msg, t->len);
	if (unlikely(rc < 0))
		return rc;
	conn->txq[conn->txq_tail++ & conn->txq_mask] = t;
	t->base.status = -EINPROGRESS;
	ctrl->ctx.nb_inflight++;
	comch_pe_add_inflight(ctrl->ctx.pe, 1);
	return 0;
}

/* ------------------------------------------------------------------ public */

int
rte_comch_connection_set_user_data(struct rte_comch_connection *conn, union rte_comch_data data)
{
	if (COMCH_BAD_CONN_FAST(conn))
		return -EINVAL;
	conn->user_data = data;
	return 0;
}

int
rte_comch_connection_get_user_data(const struct rte_comch_connection *conn,
				   union rte_comch_data *data)
{
	if (COMCH_BAD_CONN_FAST(conn) || COMCH_NULL_ARG(data))
		return -EINVAL;
	*data = conn->user_data;
	return 0;
}

struct rte_comch_server *
rte_comch_connection_get_server(const struct rte_comch_connection *conn)
{
	if (COMCH_BAD_CONN_FAST(conn)) {
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
	if (COMCH_BAD_CONN_FAST(conn)) {
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
	if (COMCH_BAD_CONN_FAST(conn)) {
		rte_errno = EINVAL;
		return NULL;
	}
	return &conn->ctrl->ctx;
}

struct rte_comch_dev *
rte_comch_connection_get_device(const struct rte_comch_connection *conn)
{
	if (COMCH_BAD_CONN_FAST(conn)) {
		rte_errno = EINVAL;
		return NULL;
	}
	return conn->ctrl->ctx.dev;
}

/* How a connection that ended (or is ending) ended, as update_info says it. */
static int
comch_conn_end_status(int close_reason)
{
	/* Closed in order, by either side; anything else is a failure: a reset. */
	return close_reason == -ECONNABORTED ? -ECONNABORTED : -ECONNRESET;
}

int
rte_comch_connection_update_info(const struct rte_comch_connection *conn)
{
	int abort_reason;

	if (COMCH_BAD_CONN_FAST(conn))
		return -EINVAL;
	switch (conn->state) {
	case COMCH_CONN_ESTABLISHED:
		/* An abort another lcore asked for ends it at the next progress. */
		abort_reason = comch_load_relaxed(&conn->link.abort_reason);
		return abort_reason == 0 ? 0 : comch_conn_end_status(abort_reason);
	case COMCH_CONN_DRAINING:
		return -ECONNABORTED; /* closed on this side, in order */
	default:
		return comch_conn_end_status(conn->close_reason);
	}
}

/* Pause or resume the delivery of conn's messages: 0, or -EINVAL / -ENOTCONN. */
static int
comch_conn_set_recv_paused(struct rte_comch_connection *conn, bool paused, const char *what)
{
	if (COMCH_BAD_CONN(conn))
		return -EINVAL;
	if (conn->state != COMCH_CONN_ESTABLISHED) {
		COMCH_LOG(DEBUG, "%s: connection %u is closing", what, conn->id);
		return -ENOTCONN;
	}
	conn->recv_paused = paused;
	return 0;
}

int
rte_comch_connection_recv_pause(struct rte_comch_connection *conn)
{
	return comch_conn_set_recv_paused(conn, true, "recv_pause");
}

int
rte_comch_connection_recv_resume(struct rte_comch_connection *conn)
{
	return comch_conn_set_recv_paused(conn, false, "recv_resume");
}

int
rte_comch_connection_get_stats(const struct rte_comch_connection *conn,
			       struct rte_comch_conn_stats *stats)
{
	if (COMCH_BAD_CONN_FAST(conn) || COMCH_NULL_ARG(stats))
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
	if (COMCH_BAD_CONN_FAST(conn) || COMCH_NULL_ARG(size))
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

/* ------------------------------------------------------------------ as a link's owner */

/* A connection's ring of consumers' start and stop requests, made with its first one. */
static int
comch_conn_link_attach(struct comch_link *link, const char *what)
{
	struct rte_comch_connection *conn = comch_link_conn(link);
	static uint32_t ring_seq;
	char name[RTE_RING_NAMESIZE];

	if (conn->state != COMCH_CONN_ESTABLISHED) {
		COMCH_LOG(ERR, "%s: the connection is not established", what);
		return -ENOTCONN;
	}
	if (conn->fp_req == NULL) {
		/* From the heap, not a memzone: those are few (see comch_task_pool.c). */
		snprintf(name, sizeof(name), "comch_fp_%u",
			 comch_fetch_add_relaxed(&ring_seq, 1));
		conn->fp_req = aligned_alloc(RTE_CACHE_LINE_SIZE,
					     rte_ring_get_memsize(COMCH_FP_REQ_RING));
		if (conn->fp_req == NULL ||
		    rte_ring_init(conn->fp_req, name, COMCH_FP_REQ_RING, RING_F_SC_DEQ) < 0) {
			COMCH_LOG(ERR, "%s: cannot create a request ring", what);
			free(conn->fp_req);
			conn->fp_req = NULL;
			return -ENOMEM;
		}
	}
	conn->ctrl->nb_fast++;
	return 0;
}

/* One producer or consumer fewer: a connection that ended goes with its last one. */
static void
comch_conn_link_detach(struct comch_link *link)
{
	struct rte_comch_connection *conn = comch_link_conn(link);

	conn->ctrl->nb_fast--;
	comch_conn_release_check(conn);
}

static struct rte_comch_pe *
comch_conn_link_pe(struct comch_link *link)
{
	/* A server or client outlives its connections' producers and consumers. */
	return comch_link_conn(link)->ctrl->ctx.pe;
}

static void
comch_conn_link_abort(struct comch_link *link, int reason)
{
	comch_conn_abort(comch_link_conn(link), reason);
}

static void
comch_conn_link_serve(struct comch_link *link)
{
	struct rte_comch_connection *conn = comch_link_conn(link);

	if (conn->fp_req != NULL)
		comch_proto_serve(conn);
}

static void
comch_conn_link_blob_discard(struct comch_link *link, struct rte_comch_drv_blob *blob)
{
	comch_link_conn(link)->ops->blob_discard(link->drv, blob);
}

static const struct comch_link_ops comch_conn_link_ops = {
	.kind = "connection",
	.locked = false,
	.buffers = true,
	.peer = true,
	.attach = comch_conn_link_attach,
	.detach = comch_conn_link_detach,
	.pe = comch_conn_link_pe,
	.request = comch_proto_request,
	.abort = comch_conn_link_abort,
	.serve = comch_conn_link_serve,
	.blob_discard = comch_conn_link_blob_discard,
};
