/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Connections: getters, user data, per-connection and per-device counters
 * (exact counts and bytes), stats reset, server_disconnect and what both ends
 * see, tasks in flight when a connection ends, submit on an ended connection;
 * the producer and consumer ids of a connection (from 1), and the closes that
 * IDLE producers and consumers do not hold back (update_info of the ended
 * connection they keep, their start refused); pausing and resuming what a
 * connection delivers (the peer backs off, nothing is lost, the end is seen).
 */

#include <errno.h>
#include <string.h>

#include <rte_errno.h>

#include "comch_test_common.h"

static void
test_conn_getters(void **state)
{
	union rte_comch_data ud = { .u64 = 0 };
	struct rte_comch_connection *c2 = NULL;
	struct ct_cfg cfg = { .srv_msg_size = 512 };
	struct ct_pair p;
	uint32_t v = 0;

	(void)state;
	ct_pair_up(&p, &cfg);
	assert_int_equal(rte_comch_client_get_connection(p.cli.client, &c2), 0);
	assert_ptr_equal(c2, p.cconn);
	assert_ptr_not_equal(p.cconn, p.sconn);

	assert_ptr_equal(rte_comch_connection_get_server(p.sconn), p.srv.server);
	assert_ptr_equal(rte_comch_connection_get_client(p.cconn), p.cli.client);
	assert_ptr_equal(rte_comch_connection_get_ctx(p.sconn), p.srv.ctx);
	assert_ptr_equal(rte_comch_connection_get_ctx(p.cconn), p.cli.ctx);
	rte_errno = 0;
	assert_null(rte_comch_connection_get_server(p.cconn));
	assert_int_equal(rte_errno, ENOENT);
	rte_errno = 0;
	assert_null(rte_comch_connection_get_client(p.sconn));
	assert_int_equal(rte_errno, ENOENT);
	rte_errno = 0;
	assert_null(rte_comch_connection_get_server(NULL));
	assert_int_equal(rte_errno, EINVAL);
	rte_errno = 0;
	assert_null(rte_comch_connection_get_client(NULL));
	assert_int_equal(rte_errno, EINVAL);
	rte_errno = 0;
	assert_null(rte_comch_connection_get_ctx(NULL));
	assert_int_equal(rte_errno, EINVAL);

	assert_int_equal(rte_comch_connection_update_info(NULL), -EINVAL);
	assert_int_equal(rte_comch_connection_update_info(p.sconn), 0);
	assert_int_equal(rte_comch_connection_update_info(p.cconn), 0);

	assert_int_equal(rte_comch_connection_get_max_msg_size(NULL, &v), -EINVAL);
	assert_int_equal(rte_comch_connection_get_max_msg_size(p.sconn, NULL), -EINVAL);
	assert_int_equal(rte_comch_connection_get_max_msg_size(p.sconn, &v), 0);
	assert_int_equal(v, 512);
	assert_int_equal(rte_comch_connection_get_max_msg_size(p.cconn, &v), 0);
	assert_int_equal(v, 512);
	assert_int_equal(rte_comch_client_get_max_msg_size(p.cli.client, &v), 0);
	assert_int_equal(v, 512);

	/* user data: zero at first, independent on each end */
	assert_int_equal(rte_comch_connection_get_user_data(p.sconn, &ud), 0);
	assert_true(ud.u64 == 0);
	assert_int_equal(rte_comch_connection_set_user_data(NULL, ud), -EINVAL);
	assert_int_equal(rte_comch_connection_get_user_data(NULL, &ud), -EINVAL);
	assert_int_equal(rte_comch_connection_get_user_data(p.sconn, NULL), -EINVAL);
	ud.u64 = 0xabcdef0123ULL;
	assert_int_equal(rte_comch_connection_set_user_data(p.sconn, ud), 0);
	ud.ptr = &p;
	assert_int_equal(rte_comch_connection_set_user_data(p.cconn, ud), 0);
	assert_int_equal(rte_comch_connection_get_user_data(p.sconn, &ud), 0);
	assert_true(ud.u64 == 0xabcdef0123ULL);
	assert_int_equal(rte_comch_connection_get_user_data(p.cconn, &ud), 0);
	assert_ptr_equal(ud.ptr, &p);
	ct_pair_close(&p);
}

static void
check_conn_stats(struct rte_comch_connection *conn, uint64_t sm, uint64_t sb, uint64_t rm,
		 uint64_t rb)
{
	struct rte_comch_conn_stats st;

	memset(&st, 0xff, sizeof(st));
	assert_int_equal(rte_comch_connection_get_stats(conn, &st), 0);
	assert_int_equal(st.sent_messages, sm);
	assert_int_equal(st.sent_bytes, sb);
	assert_int_equal(st.recv_messages, rm);
	assert_int_equal(st.recv_bytes, rb);
}

static void
check_dev_stats(struct rte_comch_dev *dev, const struct rte_comch_dev_stats *exp)
{
	struct rte_comch_dev_stats st;

	memset(&st, 0xff, sizeof(st));
	assert_int_equal(rte_comch_dev_stats_get(dev, &st), 0);
	assert_int_equal(st.connections_opened, exp->connections_opened);
	assert_int_equal(st.connections_closed, exp->connections_closed);
	assert_int_equal(st.connections_rejected, exp->connections_rejected);
	assert_int_equal(st.peer_errors, exp->peer_errors);
	assert_int_equal(st.msgs_sent, exp->msgs_sent);
	assert_int_equal(st.bytes_sent, exp->bytes_sent);
	assert_int_equal(st.msgs_received, exp->msgs_received);
	assert_int_equal(st.bytes_received, exp->bytes_received);
	assert_int_equal(st.send_errors, exp->send_errors);
	assert_int_equal(st.budget_refusals, exp->budget_refusals);
}

static void
test_conn_and_dev_stats(void **state)
{
	struct rte_comch_dev_stats host_exp = { 0 }, dpu_exp = { 0 };
	struct rte_comch_conn_stats st;
	struct ct_pair p;
	uint8_t msg[1000];
	uint32_t i;

	(void)state;
	ct_pair_up(&p, NULL);
	assert_int_equal(rte_comch_connection_get_stats(NULL, &st), -EINVAL);
	assert_int_equal(rte_comch_connection_get_stats(p.sconn, NULL), -EINVAL);
	check_conn_stats(p.sconn, 0, 0, 0, 0);
	check_conn_stats(p.cconn, 0, 0, 0, 0);
	host_exp.connections_opened = 1;
	dpu_exp.connections_opened = 1;
	check_dev_stats(p.host, &host_exp);
	check_dev_stats(p.dpu, &dpu_exp);

	/* client sends 5 messages of 100..500 bytes (1500), server 3 of 1000 */
	for (i = 0; i < 5; i++) {
		ct_msg_fill(msg, 100 * (i + 1), 1, i);
		assert_int_equal(ct_send(&p.cli, p.cconn, msg, 100 * (i + 1), NULL), 0);
		assert_int_equal(ct_wait_count(p.pe, &p.cli.nb_send_ok, i + 1, CT_TIMEOUT_MS), 0);
	}
	for (i = 0; i < 3; i++) {
		ct_msg_fill(msg, sizeof(msg), 2, i);
		assert_int_equal(ct_send(&p.srv, p.sconn, msg, sizeof(msg), NULL), 0);
		assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_send_ok, i + 1, CT_TIMEOUT_MS), 0);
	}
	ct_progress_for(p.pe, 10);
	assert_int_equal(p.srv.nb_recv, 5);
	assert_int_equal(p.cli.nb_recv, 3);
	check_conn_stats(p.cconn, 5, 1500, 3, 3000);
	check_conn_stats(p.sconn, 3, 3000, 5, 1500);
	host_exp.msgs_sent = 5;
	host_exp.bytes_sent = 1500;
	host_exp.msgs_received = 3;
	host_exp.bytes_received = 3000;
	dpu_exp.msgs_sent = 3;
	dpu_exp.bytes_sent = 3000;
	dpu_exp.msgs_received = 5;
	dpu_exp.bytes_received = 1500;
	check_dev_stats(p.host, &host_exp);
	check_dev_stats(p.dpu, &dpu_exp);

	/* reset zeroes the device counters, not the connection's */
	assert_int_equal(rte_comch_dev_stats_reset(p.host), 0);
	memset(&host_exp, 0, sizeof(host_exp));
	check_dev_stats(p.host, &host_exp);
	check_dev_stats(p.dpu, &dpu_exp);
	check_conn_stats(p.cconn, 5, 1500, 3, 3000);

	/* counting resumes from zero */
	ct_msg_fill(msg, 64, 1, 5);
	assert_int_equal(ct_send(&p.cli, p.cconn, msg, 64, NULL), 0);
	assert_int_equal(ct_wait_count(p.pe, &p.cli.nb_send_ok, 6, CT_TIMEOUT_MS), 0);
	host_exp.msgs_sent = 1;
	host_exp.bytes_sent = 64;
	check_dev_stats(p.host, &host_exp);
	dpu_exp.msgs_received = 6;
	dpu_exp.bytes_received = 1564;
	check_dev_stats(p.dpu, &dpu_exp);

	/* closed connections stay counted */
	ct_ctx_stop_wait(p.pe, p.cli.ctx);
	assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_disconnect, 1, CT_TIMEOUT_MS), 0);
	host_exp.connections_closed = 1;
	dpu_exp.connections_closed = 1;
	check_dev_stats(p.host, &host_exp);
	check_dev_stats(p.dpu, &dpu_exp);
	assert_int_equal(p.srv.bad_msgs, 0);
	assert_int_equal(p.cli.bad_msgs, 0);
	ct_pair_close(&p);
}

/* In the disconnect callback: the connection is ending, submit is refused. */
struct disc_probe {
	struct rte_comch_task_send *task;
	int update_info;
	int submit;
	int disconnect_again;
};

static void
disc_probe_hook(struct ct_side *s, struct rte_comch_connection *conn, int status)
{
	struct disc_probe *d = s->arg;

	d->update_info = rte_comch_connection_update_info(conn);
	d->disconnect_again = rte_comch_server_disconnect(s->server, conn);
	if (d->task != NULL) {
		d->submit = rte_comch_task_submit(rte_comch_task_send_as_task(d->task));
		rte_comch_task_free(rte_comch_task_send_as_task(d->task));
		d->task = NULL;
	}
}

static void
test_server_disconnect(void **state)
{
	struct disc_probe d = { .update_info = 1, .submit = 1, .disconnect_again = 1 };
	struct rte_comch_dev_stats ds;
	struct ct_pair p, q;
	uint8_t msg[64];

	(void)state;
	ct_pair_up(&p, NULL);
	ct_pair_up(&q, NULL);
	p.srv.arg = &d;
	p.srv.on_disconnect = disc_probe_hook;
	ct_msg_fill(msg, sizeof(msg), 0, 0);
	assert_int_equal(rte_comch_server_task_send_alloc_init(p.srv.server, p.sconn, msg,
		sizeof(msg), &d.task), 0);

	assert_int_equal(rte_comch_server_disconnect(NULL, p.sconn), -EINVAL);
	assert_int_equal(rte_comch_server_disconnect(p.srv.server, NULL), -EINVAL);
	assert_int_equal(rte_comch_server_disconnect(p.srv.server, p.cconn), -EINVAL);
	assert_int_equal(rte_comch_server_disconnect(p.srv.server, q.sconn), -EINVAL);

	assert_int_equal(rte_comch_server_disconnect(p.srv.server, p.sconn), 0);
	/* already ending: no second disconnect, no new send */
	assert_int_equal(rte_comch_server_disconnect(p.srv.server, p.sconn), -ENOTCONN);
	assert_int_equal(ct_send(&p.srv, p.sconn, msg, sizeof(msg), NULL), -ENOTCONN);
	assert_int_equal(rte_comch_connection_update_info(p.sconn), -ECONNABORTED);
	assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_disconnect, 1, CT_TIMEOUT_MS), 0);
	assert_int_equal(p.srv.disc_status[0], -ECONNABORTED);
	assert_int_equal(d.update_info, -ECONNABORTED);
	assert_int_equal(d.disconnect_again, -ENOTCONN);
	assert_int_equal(d.submit, -ENOTCONN);

	/* the client ends by itself, with the reason */
	assert_int_equal(ct_wait_state(p.pe, p.cli.ctx, RTE_COMCH_CTX_STATE_IDLE,
				       CT_TIMEOUT_MS), 0);
	assert_int_equal(rte_comch_ctx_get_last_error(p.cli.ctx), -ECONNABORTED);
	/* the server keeps running and serving the other pair */
	ct_progress_for(p.pe, 20);
	assert_int_equal(p.srv.nb_disconnect, 1);
	assert_int_equal(rte_comch_dev_stats_get(p.dpu, &ds), 0);
	assert_int_equal(ds.connections_closed, 1);
	assert_int_equal(ds.send_errors, 0);
	/* the same client can connect again */
	ct_pair_connect(&p);
	assert_int_equal(p.srv.nb_connect, 2);
	assert_int_equal(rte_comch_ctx_get_last_error(p.cli.ctx), 0);
	ct_pair_close(&q);
	ct_pair_close(&p);
}

static void
test_disconnect_inflight_tasks(void **state)
{
	struct rte_comch_dev_stats ds;
	uint8_t msg[4][64];
	struct ct_pair p;
	uint32_t i;

	(void)state;
	ct_pair_up(&p, NULL);
	/* 3 from the client and 2 from the server, none taken by the peer yet */
	for (i = 0; i < 3; i++) {
		ct_msg_fill(msg[i], sizeof(msg[i]), 1, i);
		assert_int_equal(ct_send(&p.cli, p.cconn, msg[i], sizeof(msg[i]), NULL), 0);
	}
	for (i = 0; i < 2; i++)
		assert_int_equal(ct_send(&p.srv, p.sconn, msg[i], sizeof(msg[i]), NULL), 0);
	assert_int_equal(rte_comch_server_disconnect(p.srv.server, p.sconn), 0);
	assert_int_equal(ct_wait_state(p.pe, p.cli.ctx, RTE_COMCH_CTX_STATE_IDLE,
				       CT_TIMEOUT_MS), 0);
	assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_disconnect, 1, CT_TIMEOUT_MS), 0);
	ct_progress_for(p.pe, 50);
	assert_int_equal(p.srv.disc_status[0], -ECONNABORTED);
	assert_int_equal(rte_comch_ctx_get_last_error(p.cli.ctx), -ECONNABORTED);
	/* every task completed once; a message arrived iff its task succeeded */
	assert_int_equal(p.cli.nb_send_ok + p.cli.nb_send_err, 3);
	assert_int_equal(p.srv.nb_send_ok + p.srv.nb_send_err, 2);
	assert_int_equal(p.cli.nb_send_ok, p.srv.nb_recv);
	assert_int_equal(p.srv.nb_send_ok, p.cli.nb_recv);
	assert_int_equal(p.srv.bad_msgs, 0);
	assert_int_equal(p.cli.bad_msgs, 0);
	for (i = 0; i < p.cli.nb_send_err; i++)
		assert_int_equal(p.cli.err_status[i], -ECONNABORTED);
	assert_int_equal(rte_comch_dev_stats_get(p.host, &ds), 0);
	assert_int_equal(ds.send_errors, p.cli.nb_send_err);
	/* rte_comch_server_disconnect() is orderly: what the server sent drains
	 * (taken by the client, so successful); nothing the client sent is
	 * delivered after the call, so the client's 3 fail with -ECONNABORTED */
	assert_int_equal(p.srv.nb_send_ok, 2);
	assert_int_equal(p.srv.nb_send_err, 0);
	assert_int_equal(p.cli.nb_recv, 2);
	assert_int_equal(p.srv.nb_recv, 0);
	assert_int_equal(p.cli.nb_send_err, 3);
	assert_int_equal(rte_comch_dev_stats_get(p.dpu, &ds), 0);
	assert_int_equal(ds.send_errors, 0);
	assert_int_equal(ds.msgs_sent, 2);
	assert_int_equal(ds.msgs_received, 0);
	assert_int_equal(rte_comch_dev_stats_get(p.host, &ds), 0);
	assert_int_equal(ds.send_errors, 3);
	ct_pair_close(&p);
}

static void
test_client_stop_inflight_drains(void **state)
{
	uint8_t msg[8][64];
	struct ct_pair p;
	uint32_t i;

	(void)state;
	ct_pair_up(&p, NULL);
	for (i = 0; i < 8; i++) {
		ct_msg_fill(msg[i], sizeof(msg[i]), 1, i);
		assert_int_equal(ct_send(&p.cli, p.cconn, msg[i], sizeof(msg[i]), NULL), 0);
	}
	/* stop lets in-flight messages drain: the server takes all 8 */
	assert_int_equal(rte_comch_ctx_stop(p.cli.ctx), -EINPROGRESS);
	assert_int_equal(ct_wait_state(p.pe, p.cli.ctx, RTE_COMCH_CTX_STATE_IDLE,
				       CT_TIMEOUT_MS), 0);
	assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_disconnect, 1, CT_TIMEOUT_MS), 0);
	assert_int_equal(p.srv.nb_recv, 8);
	assert_int_equal(p.srv.bad_msgs, 0);
	assert_int_equal(p.cli.nb_send_ok, 8);
	assert_int_equal(p.cli.nb_send_err, 0);
	assert_int_equal(p.srv.disc_status[0], -ECONNABORTED);
	assert_int_equal(rte_comch_ctx_get_last_error(p.cli.ctx), 0);
	ct_pair_close(&p);
}

/*
 * A message the peer took counts as sent even when the peer closes right
 * after: the sender must not report it failed (it arrived exactly once).
 * Two engines, so the sender does not progress while the receiver takes.
 */
static void
test_peer_close_after_taking(void **state)
{
	uint8_t msg[5][64];
	struct ct_pair p;
	uint32_t i;

	(void)state;
	ct_pair_open_split(&p, NULL);
	ct_pair_connect(&p);
	/* server -> client, then the client stops at once */
	for (i = 0; i < 5; i++) {
		ct_msg_fill(msg[i], sizeof(msg[i]), 2, i);
		assert_int_equal(ct_send(&p.srv, p.sconn, msg[i], sizeof(msg[i]), NULL), 0);
	}
	assert_int_equal(ct_wait_count(p.cpe, &p.cli.nb_recv, 5, CT_TIMEOUT_MS), 0);
	ct_ctx_stop_wait(p.cpe, p.cli.ctx);
	assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_disconnect, 1, CT_TIMEOUT_MS), 0);
	ct_progress_for(p.pe, 20);
	assert_int_equal(p.srv.disc_status[0], -ECONNABORTED);
	assert_int_equal(p.srv.nb_send_err, 0);
	assert_int_equal(p.srv.nb_send_ok, 5);

	/* client -> server, then the server disconnects at once */
	ct_pair_connect(&p);
	for (i = 0; i < 5; i++)
		assert_int_equal(ct_send(&p.cli, p.cconn, msg[i], sizeof(msg[i]), NULL), 0);
	assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_recv, 5, CT_TIMEOUT_MS), 0);
	assert_int_equal(rte_comch_server_disconnect(p.srv.server, p.sconn), 0);
	ct_progress_for(p.pe, 20);
	assert_int_equal(ct_wait_state(p.cpe, p.cli.ctx, RTE_COMCH_CTX_STATE_IDLE,
				       CT_TIMEOUT_MS), 0);
	assert_int_equal(rte_comch_ctx_get_last_error(p.cli.ctx), -ECONNABORTED);
	assert_int_equal(p.cli.nb_send_err, 0);
	assert_int_equal(p.cli.nb_send_ok, 5);
	ct_pair_close(&p);
}

/* A stop waits at most the drain timeout (1 s) for the peer to take what was sent. */
static void
test_stop_drain_timeout(void **state)
{
	uint8_t msg[3][64];
	struct ct_pair p;
	uint64_t t0, ms;
	uint32_t i;

	(void)state;
	ct_pair_open_split(&p, NULL);
	ct_pair_connect(&p);
	ct_progress_for(p.pe, 10);
	for (i = 0; i < 3; i++) {
		ct_msg_fill(msg[i], sizeof(msg[i]), 1, i);
		assert_int_equal(ct_send(&p.cli, p.cconn, msg[i], sizeof(msg[i]), NULL), 0);
	}
	t0 = ct_now_ms();
	assert_int_equal(rte_comch_ctx_stop(p.cli.ctx), -EINPROGRESS);
	/* the server's engine does not run: nobody takes the messages */
	assert_int_equal(ct_wait_state(p.cpe, p.cli.ctx, RTE_COMCH_CTX_STATE_IDLE, 5000), 0);
	ms = ct_now_ms() - t0;
	assert_true(ms >= 900 && ms < 3000);
	assert_int_equal(p.cli.nb_send_ok, 0);
	assert_int_equal(p.cli.nb_send_err, 3);
	for (i = 0; i < 3; i++)
		assert_int_equal(p.cli.err_status[i], -ETIMEDOUT);
	/* the server learns the client left; what failed is not delivered */
	assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_disconnect, 1, CT_TIMEOUT_MS), 0);
	ct_progress_for(p.pe, 20);
	assert_int_equal(p.srv.nb_recv, 0);
	ct_pair_close(&p);
}

/* server_disconnect drains what the server sent for at most 1 s, then gives up. */
static void
test_server_disconnect_drain_timeout(void **state)
{
	uint8_t msg[2][64];
	struct ct_pair p;
	uint64_t t0, ms;
	uint32_t i;

	(void)state;
	ct_pair_open_split(&p, NULL);
	ct_pair_connect(&p);
	for (i = 0; i < 2; i++) {
		ct_msg_fill(msg[i], sizeof(msg[i]), 2, i);
		assert_int_equal(ct_send(&p.srv, p.sconn, msg[i], sizeof(msg[i]), NULL), 0);
	}
	t0 = ct_now_ms();
	assert_int_equal(rte_comch_server_disconnect(p.srv.server, p.sconn), 0);
	/* the client's engine does not run: nobody takes them */
	assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_disconnect, 1, 5000), 0);
	ms = ct_now_ms() - t0;
	assert_true(ms >= 900 && ms < 3000);
	assert_int_equal(p.srv.nb_send_ok, 0);
	assert_int_equal(p.srv.nb_send_err, 2);
	assert_int_equal(p.srv.err_status[0], -ETIMEDOUT);
	assert_int_equal(p.srv.err_status[1], -ETIMEDOUT);
	assert_int_equal(p.srv.disc_status[0], -ECONNABORTED);
	/* the client then learns it, and does not deliver what failed */
	assert_int_equal(ct_wait_state(p.cpe, p.cli.ctx, RTE_COMCH_CTX_STATE_IDLE,
				       CT_TIMEOUT_MS), 0);
	assert_int_equal(rte_comch_ctx_get_last_error(p.cli.ctx), -ECONNABORTED);
	assert_int_equal(p.cli.nb_recv, 0);
	ct_pair_close(&p);
}

/* A client that stops delivers nothing more; what it did not take fails at the server. */
static void
test_client_stop_not_taken(void **state)
{
	uint8_t msg[3][64];
	struct ct_pair p;
	uint32_t i;

	(void)state;
	ct_pair_open_split(&p, NULL);
	ct_pair_connect(&p);
	for (i = 0; i < 3; i++) {
		ct_msg_fill(msg[i], sizeof(msg[i]), 2, i);
		assert_int_equal(ct_send(&p.srv, p.sconn, msg[i], sizeof(msg[i]), NULL), 0);
	}
	ct_ctx_stop_wait(p.cpe, p.cli.ctx);
	ct_progress_for(p.cpe, 20);
	assert_int_equal(p.cli.nb_recv, 0);
	assert_int_equal(rte_comch_ctx_get_last_error(p.cli.ctx), 0);
	assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_disconnect, 1, CT_TIMEOUT_MS), 0);
	ct_progress_for(p.pe, 20);
	assert_int_equal(p.srv.disc_status[0], -ECONNABORTED);
	assert_int_equal(p.srv.nb_send_ok, 0);
	assert_int_equal(p.srv.nb_send_err, 3);
	for (i = 0; i < 3; i++)
		assert_int_equal(p.srv.err_status[i], -ECONNABORTED);
	ct_pair_close(&p);
}

/* Producer and consumer ids start at 1, on each side of a connection: 0 is never one. */
static void
test_fast_ids_from_one(void **state)
{
	struct rte_comch_consumer *x;
	struct ct_cons sc[2], cc;
	struct ct_prod sp, cp;
	struct ct_pair p;
	uint32_t id = 0;

	(void)state;
	ct_fast_up(&p, NULL, CT_FAST_ONE);
	ct_cons_new(&sc[0], p.sconn, p.pe, 2, 64, 0);
	ct_cons_new(&sc[1], p.sconn, p.pe, 2, 64, 0);
	ct_cons_new(&cc, p.cconn, p.pe, 2, 64, 0);
	assert_int_equal(sc[0].id, 1);
	assert_int_equal(sc[1].id, 2);
	assert_int_equal(cc.id, 1);
	ct_prod_new(&sp, p.sconn, p.pe, 4, 4096, true);
	ct_prod_new(&cp, p.cconn, p.pe, 4, 4096, true);
	assert_int_equal(sp.id, 1);
	assert_int_equal(cp.id, 1);
	/* the smallest free id: 1 again once its consumer is gone */
	ct_cons_free(&sc[0]);
	x = rte_comch_consumer_create(p.sconn, sc[1].mmap);
	assert_non_null(x);
	assert_int_equal(rte_comch_consumer_get_id(x, &id), 0);
	assert_int_equal(id, 1);
	assert_int_equal(rte_comch_consumer_destroy(x), 0);

	/* the other side learns it by that id, and its producers send to that */
	ct_cons_start(&p, &cc, &p.srv);
	assert_int_equal(p.srv.new_cons[p.srv.nb_new_cons - 1], 1);
	ct_cons_post_all(&cc);
	/* no consumer has id 0: a send to it is refused as to any unknown id */
	assert_int_equal(ct_prod_send(&sp, 0, 16, 0, NULL), -ENOENT);
	assert_int_equal(ct_prod_send_retry(&p, &sp, cc.id, 16, 0, NULL), 0);
	assert_int_equal(ct_fast_wait_count(&p, &cc.nb_ok, 1), 0);
	assert_int_equal(cc.last_prod_id, sp.id);
	assert_int_equal(cc.bad, 0);

	ct_cons_stop(&p, &cc, &p.srv);
	ct_cons_free(&cc);
	ct_cons_free(&sc[1]);
	ct_prod_stop(&p, &sp);
	ct_prod_free(&sp);
	ct_prod_stop(&p, &cp);
	ct_prod_free(&cp);
	ct_pair_close(&p);
}

/*
 * rte_comch_server_disconnect() is refused while a producer or consumer of the
 * server's on the connection is not IDLE; IDLE ones (never started, or
 * stopped) do not hold it back. They stay: the connection ends under them but
 * stays allocated, says how it ended, and refuses their start, until the last
 * of them is destroyed. The client's own producers do not matter.
 */
static void
test_disconnect_with_idle_fast(void **state)
{
	struct ct_cons sc, sc2;
	struct ct_prod sp, cp;
	struct ct_pair p;

	(void)state;
	ct_fast_up(&p, NULL, CT_FAST_SPLIT);
	ct_prod_new(&sp, p.sconn, p.pe, 4, 4096, true);
	ct_cons_new(&sc, p.sconn, p.pe, 2, 64, 0);
	ct_cons_new(&sc2, p.sconn, p.pe, 2, 64, 0);
	ct_cons_start(&p, &sc, &p.cli);
	ct_prod_new(&cp, p.cconn, p.cpe, 4, 4096, true);

	/* RUNNING ones refuse the close */
	assert_int_equal(rte_comch_server_disconnect(p.srv.server, p.sconn), -EBUSY);
	ct_prod_stop(&p, &sp);
	assert_int_equal(rte_comch_server_disconnect(p.srv.server, p.sconn), -EBUSY);
	assert_int_equal(rte_comch_ctx_stop(p.srv.ctx), -EBUSY);
	ct_cons_stop(&p, &sc, &p.cli);
	assert_int_equal(rte_comch_connection_update_info(p.sconn), 0);

	/* all IDLE: stopped (sp, sc) or never started (sc2); the client's cp runs */
	assert_int_equal(rte_comch_server_disconnect(p.srv.server, p.sconn), 0);
	assert_int_equal(rte_comch_connection_update_info(p.sconn), -ECONNABORTED);
	assert_int_equal(ct_fast_wait_count(&p, &p.srv.nb_disconnect, 1), 0);
	assert_int_equal(p.srv.disc_status[0], -ECONNABORTED);
	assert_int_equal(ct_fast_wait_state(&p, p.cli.ctx, RTE_COMCH_CTX_STATE_IDLE), 0);
	assert_int_equal(rte_comch_ctx_get_last_error(p.cli.ctx), -ECONNABORTED);
	/* both ends ended, in order; still allocated for their producers and consumers */
	assert_int_equal(rte_comch_connection_update_info(p.sconn), -ECONNABORTED);
	assert_int_equal(rte_comch_connection_update_info(p.cconn), -ECONNABORTED);
	/* their start is refused: the connection has ended */
	assert_int_equal(rte_comch_ctx_start(sp.ctx), -ENOTCONN);
	assert_int_equal(rte_comch_ctx_start(sc.ctx), -ENOTCONN);
	assert_int_equal(rte_comch_ctx_start(sc2.ctx), -ENOTCONN);
	/* the server, without connections, stops at once; its destroy waits for them */
	assert_int_equal(rte_comch_ctx_stop(p.srv.ctx), 0);
	assert_int_equal(rte_comch_server_destroy(p.srv.server), -EBUSY);
	/* a consumer still holds its mmap, through the end of its connection */
	assert_int_equal(rte_comch_mmap_destroy(sc2.mmap), -EBUSY);

	/* destroyed at last: the ended connections go with the last of each side's */
	ct_prod_free(&sp);
	ct_cons_free(&sc);
	ct_cons_free(&sc2);
	ct_prod_stop(&p, &cp);
	ct_prod_free(&cp);
	ct_pair_close(&p);
}

/*
 * A client stops, and later a server, with IDLE producers and consumers on
 * their connections: the old connection stays theirs while the client
 * connects again, and goes with them without touching the new one.
 */
static void
test_stop_with_idle_fast(void **state)
{
	struct rte_comch_connection *old;
	struct ct_prod cp, sp;
	struct ct_cons cc;
	struct ct_pair p;
	uint8_t msg[64];

	(void)state;
	ct_fast_up(&p, NULL, CT_FAST_SPLIT);
	ct_prod_new(&cp, p.cconn, p.cpe, 4, 4096, false);
	ct_cons_new(&cc, p.cconn, p.cpe, 2, 64, 0);
	ct_cons_start(&p, &cc, &p.srv);
	assert_int_equal(rte_comch_ctx_stop(p.cli.ctx), -EBUSY);
	ct_cons_stop(&p, &cc, &p.srv);

	old = p.cconn;
	assert_int_equal(rte_comch_ctx_stop(p.cli.ctx), -EINPROGRESS);
	assert_int_equal(rte_comch_connection_update_info(old), -ECONNABORTED);
	assert_int_equal(ct_fast_wait_state(&p, p.cli.ctx, RTE_COMCH_CTX_STATE_IDLE), 0);
	assert_int_equal(rte_comch_ctx_get_last_error(p.cli.ctx), 0);
	assert_int_equal(ct_fast_wait_count(&p, &p.srv.nb_disconnect, 1), 0);
	assert_int_equal(p.srv.disc_status[0], -ECONNABORTED);
	assert_int_equal(rte_comch_connection_update_info(old), -ECONNABORTED);
	assert_int_equal(rte_comch_ctx_start(cp.ctx), -ENOTCONN);
	assert_int_equal(rte_comch_ctx_start(cc.ctx), -ENOTCONN);
	assert_int_equal(rte_comch_client_destroy(p.cli.client), -EBUSY);

	/* connected again: a new connection, with ids of its own */
	ct_pair_connect(&p);
	assert_ptr_not_equal(p.cconn, old);
	ct_prod_new(&sp, p.sconn, p.pe, 4, 4096, false);
	assert_int_equal(sp.id, 1);
	ct_msg_fill(msg, sizeof(msg), 0, 0);
	assert_int_equal(ct_send(&p.srv, p.sconn, msg, sizeof(msg), NULL), 0);
	assert_int_equal(ct_fast_wait_count(&p, &p.cli.nb_recv, 1), 0);
	/* the old ones go, and the old connection with them: the new one carries on */
	ct_prod_free(&cp);
	ct_cons_free(&cc);
	ct_msg_fill(msg, sizeof(msg), 0, 1);
	assert_int_equal(ct_send(&p.srv, p.sconn, msg, sizeof(msg), NULL), 0);
	assert_int_equal(ct_fast_wait_count(&p, &p.cli.nb_recv, 2), 0);
	assert_int_equal(rte_comch_connection_update_info(p.cconn), 0);
	assert_int_equal(p.cli.bad_msgs, 0);

	/* the server's stop: its IDLE producer does not hold it back either */
	assert_int_equal(rte_comch_ctx_stop(p.srv.ctx), -EINPROGRESS);
	assert_int_equal(ct_fast_wait_state(&p, p.srv.ctx, RTE_COMCH_CTX_STATE_IDLE), 0);
	assert_int_equal(ct_fast_wait_state(&p, p.cli.ctx, RTE_COMCH_CTX_STATE_IDLE), 0);
	assert_int_equal(rte_comch_ctx_get_last_error(p.cli.ctx), -ECONNABORTED);
	assert_int_equal(rte_comch_connection_update_info(p.sconn), -ECONNABORTED);
	assert_int_equal(rte_comch_ctx_start(sp.ctx), -ENOTCONN);
	ct_prod_free(&sp);
	ct_pair_close(&p);
}

/* ============================================================ recv pause */

/* Send message seq of sender 1 from the client until it is refused; how many went. */
static uint32_t
send_until_again(struct ct_pair *p, uint32_t seq, uint32_t most)
{
	uint8_t msg[64];
	uint32_t n;
	int rc = 0;

	for (n = 0; n < most; n++) {
		ct_msg_fill(msg, sizeof(msg), 1, seq + n);
		rc = ct_send(&p->cli, p->cconn, msg, sizeof(msg), NULL);
		if (rc != 0)
			break;
	}
	assert_true(n == most || rc == -EAGAIN);
	return n;
}

/*
 * A paused connection delivers nothing: its messages wait in its receive queue
 * (4), the peer's sends back off with -EAGAIN; our own sends still complete.
 * A resume delivers them at the next progress, in order, each once.
 */
static void
test_recv_pause_backoff(void **state)
{
	struct ct_cfg cfg = { .srv_rq = 4 };
	struct ct_pair p;
	uint8_t msg[64];
	uint32_t n;

	(void)state;
	ct_pair_up(&p, &cfg);
	assert_int_equal(rte_comch_connection_recv_pause(NULL), -EINVAL);
	assert_int_equal(rte_comch_connection_recv_resume(NULL), -EINVAL);
	/* resuming one that runs, pausing one paused: nothing to do */
	assert_int_equal(rte_comch_connection_recv_resume(p.sconn), 0);
	assert_int_equal(rte_comch_connection_recv_pause(p.sconn), 0);
	assert_int_equal(rte_comch_connection_recv_pause(p.sconn), 0);

	/* the server's receive queue takes 4, then the client must wait */
	assert_int_equal(send_until_again(&p, 0, 100), 4);
	ct_progress_for(p.pe, 50);
	assert_int_equal(p.srv.nb_recv, 0);
	assert_int_equal(p.cli.nb_send_ok, 0);
	assert_int_equal(p.cli.nb_send_err, 0);
	assert_int_equal(send_until_again(&p, 4, 100), 0);
	assert_int_equal(rte_comch_connection_update_info(p.sconn), 0);
	/* the other way goes on: what the server sends is taken */
	ct_msg_fill(msg, sizeof(msg), 2, 0);
	assert_int_equal(ct_send(&p.srv, p.sconn, msg, sizeof(msg), NULL), 0);
	assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_send_ok, 1, CT_TIMEOUT_MS), 0);
	assert_int_equal(p.cli.nb_recv, 1);
	assert_int_equal(p.srv.nb_recv, 0);

	/* resumed: the next round delivers the 4, the client may send again */
	assert_int_equal(rte_comch_connection_recv_resume(p.sconn), 0);
	assert_int_equal(rte_comch_pe_progress(p.pe), 1);
	assert_int_equal(p.srv.nb_recv, 4);
	assert_int_equal(ct_wait_count(p.pe, &p.cli.nb_send_ok, 4, CT_TIMEOUT_MS), 0);
	n = send_until_again(&p, 4, 4);
	assert_int_equal(n, 4);
	assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_recv, 8, CT_TIMEOUT_MS), 0);
	assert_int_equal(ct_wait_count(p.pe, &p.cli.nb_send_ok, 8, CT_TIMEOUT_MS), 0);
	ct_progress_for(p.pe, 20);
	assert_int_equal(p.srv.nb_recv, 8);
	assert_int_equal(p.srv.next_seq, 8);
	assert_int_equal(p.srv.bad_msgs, 0);
	assert_int_equal(p.cli.nb_send_err, 0);

	/* closing: no pause or resume any more */
	assert_int_equal(rte_comch_server_disconnect(p.srv.server, p.sconn), 0);
	assert_int_equal(rte_comch_connection_recv_pause(p.sconn), -ENOTCONN);
	assert_int_equal(rte_comch_connection_recv_resume(p.sconn), -ENOTCONN);
	ct_pair_close(&p);
}

/* The receive callback pauses at the second message: the rest of the burst waits. */
static void
pause_at_second(struct ct_side *s, struct rte_comch_connection *conn, const uint8_t *msg,
		uint32_t len)
{
	(void)msg;
	(void)len;
	if (s->nb_recv == 2)
		assert_int_equal(rte_comch_connection_recv_pause(conn), 0);
}

static void
test_recv_pause_in_callback(void **state)
{
	struct ct_pair p;

	(void)state;
	ct_pair_up(&p, NULL);
	p.srv.on_recv = pause_at_second;
	/* 6 in the receive queue at once: one burst, stopped after the second */
	assert_int_equal(send_until_again(&p, 0, 6), 6);
	assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_recv, 2, CT_TIMEOUT_MS), 0);
	ct_progress_for(p.pe, 50);
	assert_int_equal(p.srv.nb_recv, 2);
	/* the peer learns that 2 were taken, not more */
	assert_int_equal(p.cli.nb_send_ok, 2);
	assert_int_equal(rte_comch_connection_recv_resume(p.sconn), 0);
	assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_recv, 6, CT_TIMEOUT_MS), 0);
	assert_int_equal(ct_wait_count(p.pe, &p.cli.nb_send_ok, 6, CT_TIMEOUT_MS), 0);
	assert_int_equal(p.srv.next_seq, 6);
	assert_int_equal(p.srv.bad_msgs, 0);
	ct_pair_close(&p);
}

/*
 * A peer that closes while we are paused: its stop waits the drain timeout for
 * us to take its messages, then reports them failed (-ETIMEDOUT); we see the
 * end, paused as we are, and do not deliver what failed.
 */
static void
test_recv_pause_peer_closes(void **state)
{
	struct ct_pair p;
	uint32_t i;

	(void)state;
	ct_pair_up(&p, NULL);
	assert_int_equal(rte_comch_connection_recv_pause(p.sconn), 0);
	assert_int_equal(send_until_again(&p, 0, 3), 3);
	assert_int_equal(rte_comch_ctx_stop(p.cli.ctx), -EINPROGRESS);
	assert_int_equal(ct_wait_state(p.pe, p.cli.ctx, RTE_COMCH_CTX_STATE_IDLE, 5000), 0);
	assert_int_equal(p.cli.nb_send_ok, 0);
	assert_int_equal(p.cli.nb_send_err, 3);
	for (i = 0; i < 3; i++)
		assert_int_equal(p.cli.err_status[i], -ETIMEDOUT);
	assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_disconnect, 1, CT_TIMEOUT_MS), 0);
	assert_int_equal(p.srv.disc_status[0], -ECONNABORTED);
	ct_progress_for(p.pe, 20);
	assert_int_equal(p.srv.nb_recv, 0);
	ct_pair_close(&p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_conn_getters),
		cmocka_unit_test(test_conn_and_dev_stats),
		cmocka_unit_test(test_server_disconnect),
		cmocka_unit_test(test_disconnect_inflight_tasks),
		cmocka_unit_test(test_client_stop_inflight_drains),
		cmocka_unit_test(test_peer_close_after_taking),
		cmocka_unit_test(test_stop_drain_timeout),
		cmocka_unit_test(test_server_disconnect_drain_timeout),
		cmocka_unit_test(test_client_stop_not_taken),
		cmocka_unit_test(test_fast_ids_from_one),
		cmocka_unit_test(test_disconnect_with_idle_fast),
		cmocka_unit_test(test_stop_with_idle_fast),
		cmocka_unit_test(test_recv_pause_backoff),
		cmocka_unit_test(test_recv_pause_in_callback),
		cmocka_unit_test(test_recv_pause_peer_closes),
	};

	return CT_RUN("comch_conn", tests);
}
