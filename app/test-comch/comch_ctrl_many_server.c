/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * ctrl-many over comch, server side: one server, --clients connections, each
 * checked by a responder of its own (its sequence numbers, its SYNC and END),
 * all on the side's one engine. The session helpers (bench_comch.h) serve one
 * connection per server; this file keeps a table of them instead, and answers
 * SYNC and END on the connection they came from, from inside the receive
 * callback (a reply the client's queue refuses waits for the next round).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>

#include "bench_comch.h"
#include "bench_responder.h"
#include "bench_runners.h"
#include "bench_stats.h"

/* Replies in flight at once per connection: a SYNC_ACK or a RESULT, and room to spare. */
#define REPLIES_PER_CONN 2
#define REPLIES_EXTRA 16

struct many_server;

struct many_conn {
	struct many_server *sv;
	struct rte_comch_connection *conn;
	struct bench_responder r;
	bool closed;
};

struct many_server {
	struct bench_result *res;
	struct rte_comch_server *server;
	struct rte_comch_ctx *ctx;
	struct rte_comch_pe *pe;
	const struct bench_test *t;
	struct many_conn *conns;
	uint32_t max_conns;
	uint32_t nb_conns;           /* connected so far */
	uint32_t nb_closed;          /* of those, ended */
	uint32_t nb_ended;           /* ENDs answered: the measured part is over on them */
	/* Reply buffers: a reply stays unchanged until its task completes. */
	uint8_t *buf_mem;
	uint8_t **buf_free;
	uint32_t nb_free;
	uint32_t nb_bufs;
	uint32_t inflight;
	/* Replies the client's full queue refused, in the order they are due. */
	struct rte_comch_task_send **deferred;
	uint32_t nb_deferred;
};

static struct many_server *
server_of(struct rte_comch_connection *conn)
{
	union rte_comch_data ud = { .ptr = NULL };

	rte_comch_ctx_get_user_data(rte_comch_connection_get_ctx(conn), &ud);
	return ud.ptr;
}

static struct many_conn *
conn_of(struct rte_comch_connection *conn)
{
	union rte_comch_data ud = { .ptr = NULL };

	if (rte_comch_connection_get_user_data(conn, &ud) < 0)
		return NULL;
	return ud.ptr;
}

static void
reply_release(struct many_server *sv, struct rte_comch_task_send *task)
{
	sv->buf_free[sv->nb_free++] = (uint8_t *)(uintptr_t)rte_comch_task_send_get_msg(task,
										       NULL);
	rte_comch_task_free(rte_comch_task_send_as_task(task));
}

static void
reply_done(struct rte_comch_task_send *task, union rte_comch_data task_ud,
	   union rte_comch_data ctx_ud)
{
	struct many_server *sv = ctx_ud.ptr;

	sv->inflight--;
	reply_release(sv, task);
}

static void
reply_failed(struct rte_comch_task_send *task, union rte_comch_data task_ud,
	     union rte_comch_data ctx_ud)
{
	struct many_server *sv = ctx_ud.ptr;
	int status = rte_comch_task_get_status(rte_comch_task_send_as_task(task));

	bench_fail(sv->res, status < 0 ? status : -EIO, "reply not taken by the client: %s (%d)",
		   strerror(-status), status);
	sv->inflight--;
	reply_release(sv, task);
}

/* Submit a reply, or queue it behind the ones already waiting. */
static void
reply_submit(struct many_server *sv, struct rte_comch_task_send *task)
{
	int ret;

	if (sv->nb_deferred == 0) {
		ret = rte_comch_task_submit(rte_comch_task_send_as_task(task));
		if (likely(ret == 0)) {
			sv->inflight++;
			return;
		}
		if (ret != -EAGAIN) {
			bench_fail(sv->res, ret, "reply: rte_comch_task_submit: %s",
				   strerror(-ret));
			reply_release(sv, task);
			return;
		}
	}
	sv->deferred[sv->nb_deferred++] = task;
}

/* Outside callbacks: submit what was deferred, in order, until the first refusal. */
static void
reply_retry(struct many_server *sv)
{
	uint32_t done = 0;
	int ret;

	while (done < sv->nb_deferred) {
		ret = rte_comch_task_submit(rte_comch_task_send_as_task(sv->deferred[done]));
		if (ret == -EAGAIN)
			break;
		if (ret < 0) {
			bench_fail(sv->res, ret, "reply: rte_comch_task_submit: %s",
				   strerror(-ret));
			reply_release(sv, sv->deferred[done]);
		} else {
			sv->inflight++;
		}
		done++;
	}
	memmove(sv->deferred, sv->deferred + done, (sv->nb_deferred - done) *
		sizeof(*sv->deferred));
	sv->nb_deferred -= done;
}

static void
on_msg(struct rte_comch_connection *conn, const uint8_t *msg, uint32_t len)
{
	struct many_conn *mc = conn_of(conn);
	struct rte_comch_task_send *task;
	struct many_server *sv;
	uint8_t *buf;
	int n, ret;

	if (unlikely(mc == NULL)) {
		fprintf(stderr, "%s: message on an unknown connection\n", BENCH_PROG);
		return;
	}
	sv = mc->sv;
	/* After a failure, nothing more is checked: the first error is the story. */
	if (unlikely(sv->res->status != 0))
		return;
	n = bench_responder_handle(&mc->r, msg, len);
	if (likely(n <= 0))
		return;
	if (unlikely(sv->nb_free == 0)) {
		bench_fail(sv->res, -ENOBUFS, "all %" PRIu32 " reply buffers in flight",
			   sv->nb_bufs);
		return;
	}
	buf = sv->buf_free[--sv->nb_free];
	bench_responder_reply(&mc->r, buf);
	ret = rte_comch_server_task_send_alloc_init(sv->server, conn, buf, n, &task);
	if (ret < 0) {
		sv->buf_free[sv->nb_free++] = buf;
		bench_fail(sv->res, ret, "rte_comch_server_task_send_alloc_init: %s",
			   strerror(-ret));
		return;
	}
	reply_submit(sv, task);
	/* The last END: every connection still up, the traffic over. */
	if (mc->r.reply_kind == BENCH_MSG_RESULT && ++sv->nb_ended == sv->max_conns)
		bench_rss_sample(sv->res, &sv->res->rss_end_kb);
}

static void
on_connect(struct rte_comch_connection *conn, int status)
{
	struct many_server *sv = server_of(conn);
	struct many_conn *mc;
	int ret;

	if (status != 0) {
		bench_fail(sv->res, status, "connection failed: %s", strerror(-status));
		return;
	}
	if (sv->nb_conns == sv->max_conns) {
		/* More clients than --clients: someone else's run, or mismatched options. */
		fprintf(stderr, "%s: refusing client %" PRIu32 " of a test of %" PRIu32 "\n",
			BENCH_PROG, sv->nb_conns + 1, sv->max_conns);
		rte_comch_server_disconnect(sv->server, conn);
		return;
	}
	mc = &sv->conns[sv->nb_conns++];
	mc->sv = sv;
	mc->conn = conn;
	bench_responder_init(&mc->r, sv->t, sv->res);
	ret = rte_comch_connection_set_user_data(conn, (union rte_comch_data){ .ptr = mc });
	if (ret < 0)
		bench_fail(sv->res, ret, "rte_comch_connection_set_user_data: %s", strerror(-ret));
	if (sv->nb_conns == sv->max_conns) {
		bench_rss_sample(sv->res, &sv->res->rss_conn_kb);
		sv->res->mem_units = sv->max_conns;
	}
}

static void
on_disconnect(struct rte_comch_connection *conn, int status)
{
	struct many_conn *mc = conn_of(conn);
	struct many_server *sv;

	if (mc == NULL || mc->closed)
		return;
	sv = mc->sv;
	mc->closed = true;
	sv->nb_closed++;
	/* The client's orderly stop; anything else is a failure. */
	if (status != -ECONNABORTED)
		bench_fail(sv->res, status < 0 ? status : -EIO, "client %td: connection ended: "
			   "%s (%d)", mc - sv->conns, strerror(-status), status);
}

static int
server_open(struct many_server *sv, struct bench_ctx *bc)
{
	const struct bench_test *t = sv->t;
	struct bench_result *res = sv->res;
	/* As the clients' sessions set it (bench_comch.c): the sizes must agree. */
	uint32_t max_msg = RTE_MAX(t->size, (uint32_t)BENCH_CTRL_MSG_ROOM), i;
	struct rte_comch_dev_rep *rep;
	struct rte_comch_dev *dev;
	char name[64];
	int ret;

	sv->nb_bufs = sv->max_conns * REPLIES_PER_CONN + REPLIES_EXTRA;
	sv->conns = calloc(sv->max_conns, sizeof(*sv->conns));
	sv->buf_mem = calloc(sv->nb_bufs, max_msg);
	sv->buf_free = calloc(sv->nb_bufs, sizeof(*sv->buf_free));
	sv->deferred = calloc(sv->nb_bufs, sizeof(*sv->deferred));
	if (sv->conns == NULL || sv->buf_mem == NULL || sv->buf_free == NULL ||
	    sv->deferred == NULL)
		return bench_fail(res, -ENOMEM, "out of memory for %" PRIu32 " connections",
				  sv->max_conns);
	for (i = 0; i < sv->nb_bufs; i++)
		sv->buf_free[i] = sv->buf_mem + (size_t)i * max_msg;
	sv->nb_free = sv->nb_bufs;

	ret = bc_env_get(bc, res, &dev, &rep, &sv->pe);
	if (ret < 0)
		return ret;
	bc_server_name(t, name, sizeof(name));
	sv->server = rte_comch_server_create(dev, rep, name);
	if (sv->server == NULL)
		return bench_fail(res, -rte_errno, "rte_comch_server_create(%s): %s", name,
				  strerror(rte_errno));
	sv->ctx = rte_comch_server_as_ctx(sv->server);
	ret = rte_comch_server_set_max_msg_size(sv->server, max_msg);
	if (ret == 0)
		ret = rte_comch_server_set_recv_queue_size(sv->server, t->recv_queue);
	if (ret < 0)
		return bench_fail(res, ret, "server %s: message size %" PRIu32 ", queue %" PRIu32
				  ": %s", name, max_msg, t->recv_queue, strerror(-ret));
	ret = rte_comch_server_task_send_set_conf(sv->server, reply_done, reply_failed,
						  sv->nb_bufs);
	if (ret == 0)
		ret = rte_comch_server_event_msg_recv_register(sv->server, on_msg);
	if (ret == 0)
		ret = rte_comch_server_event_connection_status_changed_register(sv->server,
				on_connect, on_disconnect);
	if (ret == 0)
		ret = rte_comch_ctx_set_user_data(sv->ctx, (union rte_comch_data){ .ptr = sv });
	if (ret == 0)
		ret = rte_comch_pe_connect_ctx(sv->pe, sv->ctx);
	if (ret < 0)
		return bench_fail(res, ret, "server %s: configuration: %s", name, strerror(-ret));
	ret = rte_comch_ctx_start(sv->ctx);
	if (ret < 0)
		return bench_fail(res, ret, "server %s: rte_comch_ctx_start: %s", name,
				  strerror(-ret));
	return 0;
}

/*
 * Until every client connected and left. Clients connect one after the other:
 * each gets BENCH_CONNECT_TIMEOUT_S after the previous one. Then the clients
 * pace the test, and their death ends the connections.
 */
static int
serve(struct many_server *sv, struct bench_ctx *bc)
{
	uint64_t deadline = rte_rdtsc() + BENCH_CONNECT_TIMEOUT_S * bc->tsc_hz;
	uint32_t seen = 0;
	int ret;

	while (sv->nb_conns < sv->max_conns || sv->nb_closed < sv->nb_conns) {
		ret = rte_comch_pe_progress(sv->pe);
		if (unlikely(ret < 0))
			return bench_fail(sv->res, ret, "rte_comch_pe_progress: %s",
					  strerror(-ret));
		if (unlikely(sv->nb_deferred != 0))
			reply_retry(sv);
		if (unlikely(sv->res->status != 0))
			return sv->res->status;
		if (unlikely(sv->nb_conns < sv->max_conns)) {
			if (sv->nb_conns != seen) {
				seen = sv->nb_conns;
				deadline = rte_rdtsc() + BENCH_CONNECT_TIMEOUT_S * bc->tsc_hz;
			} else if (rte_rdtsc() > deadline) {
				return bench_fail(sv->res, -ETIMEDOUT, "%" PRIu32 " of %" PRIu32
						  " clients connected, then none for %d s",
						  sv->nb_conns, sv->max_conns,
						  BENCH_CONNECT_TIMEOUT_S);
			}
		}
	}
	return 0;
}

static void
server_close(struct many_server *sv, struct bench_ctx *bc)
{
	enum rte_comch_ctx_state state = RTE_COMCH_CTX_STATE_IDLE;
	uint64_t deadline;
	int ret;

	if (sv->ctx != NULL && rte_comch_ctx_get_state(sv->ctx, &state) == 0 &&
	    state != RTE_COMCH_CTX_STATE_IDLE) {
		ret = rte_comch_ctx_stop(sv->ctx);
		if (ret < 0 && ret != -EINPROGRESS)
			bench_fail(sv->res, ret, "rte_comch_ctx_stop: %s", strerror(-ret));
		deadline = rte_rdtsc() + BENCH_REPLY_TIMEOUT_S * bc->tsc_hz;
		while (rte_comch_ctx_get_state(sv->ctx, &state) == 0 &&
		       state != RTE_COMCH_CTX_STATE_IDLE) {
			ret = rte_comch_pe_progress(sv->pe);
			if (ret < 0 || rte_rdtsc() > deadline) {
				bench_fail(sv->res, ret < 0 ? ret : -ETIMEDOUT, "server not idle "
					   "after stop: %s", strerror(ret < 0 ? -ret : ETIMEDOUT));
				break;
			}
		}
	}
	while (sv->nb_deferred != 0)
		reply_release(sv, sv->deferred[--sv->nb_deferred]);
	if (sv->server != NULL && (ret = rte_comch_server_destroy(sv->server)) < 0)
		bench_fail(sv->res, ret, "rte_comch_server_destroy: %s", strerror(-ret));
	free(sv->conns);
	free(sv->buf_mem);
	free(sv->buf_free);
	free(sv->deferred);
}

int
comch_ctrl_many_serve(struct bench_ctx *bc, const struct bench_test *t, struct bench_result *res)
{
	struct many_server sv = {
		.res = res, .t = t, .max_conns = bc->opts->clients,
	};
	struct bench_rx_window *w;
	uint32_t i;
	int ret;

	/* The device first: its memory is the process's, not the connections'. */
	ret = bc_env_open(bc, res);
	if (ret == 0) {
		bench_rss_sample(res, &res->rss_base_kb);
		ret = server_open(&sv, bc);
	}
	if (ret == 0)
		serve(&sv, bc);
	/* The totals of every connection, and the server's one receiving window. */
	w = calloc(RTE_MAX(sv.nb_conns, 1u), sizeof(*w));
	for (i = 0; i < sv.nb_conns; i++) {
		res->verified += sv.conns[i].r.next_data + sv.conns[i].r.next_ping;
		if (w != NULL)
			w[i] = sv.conns[i].r.rx;
	}
	res->ops = res->verified;
	if (w != NULL)
		bench_rx_result(w, sv.nb_conns, res);
	free(w);
	server_close(&sv, bc);
	return res->status;
}
