/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Send tasks and messages: alloc_init errors, the task API (submit, free,
 * status, user data, getters), tasks freed in flight, resubmission from
 * callbacks, message sizes,
 * receive-queue back-pressure (-EAGAIN) with exactly-once in-order delivery,
 * and tasks not freed blocking destroy.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>

#include "comch_test_common.h"

static void
test_alloc_init_errors(void **state)
{
	struct rte_comch_task_send *t = NULL, *t2 = NULL, *t3 = NULL;
	struct ct_cfg cfg = { .srv_msg_size = 128, .cli_tasks = 2 };
	struct ct_pair p, q;
	uint8_t msg[129];

	(void)state;
	ct_pair_up(&p, &cfg);
	ct_pair_up(&q, NULL);
	memset(msg, 0x5a, sizeof(msg));

	assert_int_equal(rte_comch_server_task_send_alloc_init(NULL, p.sconn, msg, 8, &t),
			 -EINVAL);
	assert_int_equal(rte_comch_server_task_send_alloc_init(p.srv.server, NULL, msg, 8, &t),
			 -EINVAL);
	assert_int_equal(rte_comch_server_task_send_alloc_init(p.srv.server, p.sconn, msg, 8,
		NULL), -EINVAL);
	assert_int_equal(rte_comch_server_task_send_alloc_init(p.srv.server, p.sconn, NULL, 8,
		&t), -EINVAL);
	/* connections that are not the server's: its client's end, another server's */
	assert_int_equal(rte_comch_server_task_send_alloc_init(p.srv.server, p.cconn, msg, 8,
		&t), -EINVAL);
	assert_int_equal(rte_comch_server_task_send_alloc_init(p.srv.server, q.sconn, msg, 8,
		&t), -EINVAL);
	assert_int_equal(rte_comch_client_task_send_alloc_init(NULL, p.cconn, msg, 8, &t),
			 -EINVAL);
	assert_int_equal(rte_comch_client_task_send_alloc_init(p.cli.client, NULL, msg, 8, &t),
			 -EINVAL);
	assert_int_equal(rte_comch_client_task_send_alloc_init(p.cli.client, p.cconn, msg, 8,
		NULL), -EINVAL);
	assert_int_equal(rte_comch_client_task_send_alloc_init(p.cli.client, p.cconn, NULL, 8,
		&t), -EINVAL);
	assert_int_equal(rte_comch_client_task_send_alloc_init(p.cli.client, p.sconn, msg, 8,
		&t), -EINVAL);
	assert_int_equal(rte_comch_client_task_send_alloc_init(p.cli.client, q.cconn, msg, 8,
		&t), -EINVAL);

	/* the negotiated size is 128 on both ends */
	assert_int_equal(rte_comch_server_task_send_alloc_init(p.srv.server, p.sconn, msg, 129,
		&t), -EMSGSIZE);
	assert_int_equal(rte_comch_client_task_send_alloc_init(p.cli.client, p.cconn, msg, 129,
		&t), -EMSGSIZE);

	/* a pool of 2 */
	assert_int_equal(rte_comch_client_task_send_alloc_init(p.cli.client, p.cconn, msg, 128,
		&t), 0);
	assert_non_null(t);
	assert_int_equal(rte_comch_client_task_send_alloc_init(p.cli.client, p.cconn, NULL, 0,
		&t2), 0);
	assert_non_null(t2);
	assert_int_equal(rte_comch_client_task_send_alloc_init(p.cli.client, p.cconn, msg, 1,
		&t3), -ENOMEM);
	/* tasks taken and not freed keep the client from being destroyed */
	ct_ctx_stop_wait(p.pe, p.cli.ctx);
	assert_int_equal(rte_comch_client_destroy(p.cli.client), -EBUSY);
	assert_int_equal(rte_comch_task_free(rte_comch_task_send_as_task(t)), 0);
	assert_int_equal(rte_comch_client_destroy(p.cli.client), -EBUSY);
	assert_int_equal(rte_comch_task_free(rte_comch_task_send_as_task(t2)), 0);
	ct_pair_close(&p);
	ct_pair_close(&q);
}

static void
test_alloc_not_running(void **state)
{
	struct rte_comch_task_send *t = NULL;
	struct ct_pair p;
	uint8_t msg[64];
	int ret;

	(void)state;
	ct_pair_up(&p, NULL);
	ct_msg_fill(msg, sizeof(msg), 0, 0);
	/* in flight, not progressed: the client must drain it while STOPPING */
	assert_int_equal(ct_send(&p.cli, p.cconn, msg, sizeof(msg), NULL), 0);
	ret = rte_comch_ctx_stop(p.cli.ctx);
	assert_int_equal(ret, -EINPROGRESS);
	assert_int_equal(rte_comch_client_task_send_alloc_init(p.cli.client, p.cconn, msg,
		sizeof(msg), &t), -EBUSY);
	/* asked again while STOPPING: no error, the stop goes on */
	assert_int_equal(rte_comch_ctx_stop(p.cli.ctx), -EINPROGRESS);
	assert_int_equal(ct_wait_state(p.pe, p.cli.ctx, RTE_COMCH_CTX_STATE_IDLE,
				       CT_TIMEOUT_MS), 0);
	/* the drained message was delivered and its task completed */
	assert_int_equal(p.srv.nb_recv, 1);
	assert_int_equal(p.cli.nb_send_ok, 1);
	assert_int_equal(p.cli.nb_send_err, 0);
	ct_pair_close(&p);
}

static void
test_task_api(void **state)
{
	struct rte_comch_task_send *t = NULL;
	struct rte_comch_task *task;
	union rte_comch_data ud = { .u64 = 0 };
	struct ct_pair p;
	uint8_t msg[64];
	const void *m;
	uint32_t len = 0;

	(void)state;
	ct_pair_up(&p, NULL);
	p.cli.keep_tasks = true;
	ct_msg_fill(msg, sizeof(msg), 0, 0);

	assert_int_equal(rte_comch_task_submit(NULL), -EINVAL);
	assert_int_equal(rte_comch_task_free(NULL), -EINVAL);
	assert_int_equal(rte_comch_task_get_status(NULL), -EINVAL);
	assert_int_equal(rte_comch_task_set_user_data(NULL, ud), -EINVAL);
	assert_int_equal(rte_comch_task_get_user_data(NULL, &ud), -EINVAL);
	rte_errno = 0;
	assert_null(rte_comch_task_get_ctx(NULL));
	assert_int_equal(rte_errno, EINVAL);
	rte_errno = 0;
	assert_null(rte_comch_task_send_as_task(NULL));
	assert_int_equal(rte_errno, EINVAL);
	rte_errno = 0;
	assert_null(rte_comch_task_send_get_conn(NULL));
	assert_int_equal(rte_errno, EINVAL);
	rte_errno = 0;
	assert_null(rte_comch_task_send_get_msg(NULL, &len));
	assert_int_equal(rte_errno, EINVAL);

	assert_int_equal(rte_comch_client_task_send_alloc_init(p.cli.client, p.cconn, msg,
		sizeof(msg), &t), 0);
	task = rte_comch_task_send_as_task(t);
	assert_non_null(task);
	assert_int_equal(rte_comch_task_get_user_data(task, NULL), -EINVAL);
	assert_int_equal(rte_comch_task_get_status(task), 0);
	assert_ptr_equal(rte_comch_task_get_ctx(task), p.cli.ctx);
	assert_ptr_equal(rte_comch_task_send_get_conn(t), p.cconn);
	m = rte_comch_task_send_get_msg(t, &len);
	assert_ptr_equal(m, msg);
	assert_int_equal(len, sizeof(msg));
	assert_ptr_equal(rte_comch_task_send_get_msg(t, NULL), msg);
	ud.u64 = 0xfeedULL;
	assert_int_equal(rte_comch_task_set_user_data(task, ud), 0);
	ud.u64 = 0;
	assert_int_equal(rte_comch_task_get_user_data(task, &ud), 0);
	assert_true(ud.u64 == 0xfeedULL);

	assert_int_equal(rte_comch_task_submit(task), 0);
	assert_int_equal(rte_comch_task_get_status(task), -EINPROGRESS);
	assert_int_equal(rte_comch_task_submit(task), -EALREADY);
	assert_int_equal(ct_wait_count(p.pe, &p.cli.nb_send_ok, 1, CT_TIMEOUT_MS), 0);
	/* the callback got the task and both user data */
	assert_ptr_equal(p.cli.last_task, t);
	assert_true(p.cli.last_task_ud.u64 == 0xfeedULL);
	assert_ptr_equal(p.cli.last_ctx_ud.ptr, &p.cli);
	assert_int_equal(rte_comch_task_get_status(task), 0);
	/* the task was submitted once: exactly one delivery */
	ct_progress_for(p.pe, 20);
	assert_int_equal(p.srv.nb_recv, 1);
	assert_int_equal(p.srv.last_len, sizeof(msg));
	assert_memory_equal(p.srv.last_msg, msg, sizeof(msg));

	/* after completion the task can be submitted again as it is */
	ct_msg_fill(msg, sizeof(msg), 0, 1);
	assert_int_equal(rte_comch_task_submit(task), 0);
	assert_int_equal(ct_wait_count(p.pe, &p.cli.nb_send_ok, 2, CT_TIMEOUT_MS), 0);
	assert_int_equal(p.srv.nb_recv, 2);
	assert_int_equal(p.srv.bad_msgs, 0);
	assert_int_equal(rte_comch_task_free(task), 0);

	/* zero-length message */
	assert_int_equal(rte_comch_client_task_send_alloc_init(p.cli.client, p.cconn, NULL, 0,
		&t), 0);
	rte_errno = 0;
	len = 99;
	m = rte_comch_task_send_get_msg(t, &len);
	assert_int_equal(len, 0);
	assert_true(m != NULL || rte_errno == 0);
	assert_int_equal(rte_comch_task_submit(rte_comch_task_send_as_task(t)), 0);
	assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_recv, 3, CT_TIMEOUT_MS), 0);
	assert_int_equal(p.srv.last_len, 0);
	assert_int_equal(ct_wait_count(p.pe, &p.cli.nb_send_ok, 3, CT_TIMEOUT_MS), 0);
	assert_int_equal(rte_comch_task_free(rte_comch_task_send_as_task(t)), 0);
	ct_pair_close(&p);
}

/* A completion callback that resubmits its task until it ran n times. */
static void
resubmit_hook(struct ct_side *s, struct rte_comch_task_send *task, bool ok)
{
	uint32_t *left = s->arg;
	struct rte_comch_task *t = rte_comch_task_send_as_task(task);

	if (ok && *left > 0) {
		(*left)--;
		if (rte_comch_task_submit(t) == 0)
			return;
		s->bad_msgs++;
	}
	rte_comch_task_free(t);
}

static void
test_resubmit_from_callback(void **state)
{
	uint32_t left = 9;
	struct ct_pair p;
	uint8_t msg[32];

	(void)state;
	ct_pair_up(&p, NULL);
	p.srv.arg = &left;
	p.srv.on_task = resubmit_hook;
	memset(msg, 0xa5, sizeof(msg));
	assert_int_equal(ct_send(&p.srv, p.sconn, msg, sizeof(msg), NULL), 0);
	assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_send_ok, 10, CT_TIMEOUT_MS), 0);
	ct_progress_for(p.pe, 20);
	assert_int_equal(left, 0);
	assert_int_equal(p.srv.bad_msgs, 0);
	assert_int_equal(p.srv.nb_send_ok, 10);
	assert_int_equal(p.cli.nb_recv, 10);
	assert_int_equal(p.cli.recv_bytes, 10 * sizeof(msg));
	ct_pair_close(&p);
}

static void
test_destroy_with_unfreed_task(void **state)
{
	struct rte_comch_task_send *t = NULL;
	struct ct_pair p;
	uint8_t msg[8] = { 0 };

	(void)state;
	ct_pair_up(&p, NULL);
	assert_int_equal(rte_comch_server_task_send_alloc_init(p.srv.server, p.sconn, msg,
		sizeof(msg), &t), 0);
	ct_ctx_stop_wait(p.pe, p.cli.ctx);
	ct_ctx_stop_wait(p.pe, p.srv.ctx);
	assert_int_equal(rte_comch_server_destroy(p.srv.server), -EBUSY);
	/* a task whose connection has ended is still freed normally */
	assert_int_equal(rte_comch_task_free(rte_comch_task_send_as_task(t)), 0);
	ct_pair_close(&p);
}

/*
 * Send tasks freed in flight, as DOCA programs free them before a stop: a
 * message handed over still arrives, and its task comes back without a
 * completion callback; tasks a stop flushes come back without an error
 * callback; the pool is whole afterwards.
 */
static void
test_free_in_flight(void **state)
{
	struct ct_cfg cfg = { .srv_rq = 4, .cli_tasks = 4 };
	struct ct_inflight ci = { .want = 0 };
	struct rte_comch_task_send *t[4];
	struct rte_comch_task *gt;
	uint8_t msg[8][32];
	struct ct_pair p;
	uint32_t i, n;

	(void)state;
	ct_pair_up(&p, &cfg);
	ci.ctx = p.cli.ctx;
	/* the server takes nothing while paused: the sends stay in flight */
	assert_int_equal(rte_comch_connection_recv_pause(p.sconn), 0);
	for (i = 0; i < 4; i++) {
		ct_msg_fill(msg[i], sizeof(msg[i]), 0, i);
		assert_int_equal(ct_send(&p.cli, p.cconn, msg[i], sizeof(msg[i]), &t[i]), 0);
	}
	ct_progress_for(p.pe, 20);
	for (i = 0; i < 4; i++) {
		gt = rte_comch_task_send_as_task(t[i]);
		assert_int_equal(rte_comch_task_get_status(gt), -EINPROGRESS);
		assert_int_equal(rte_comch_task_free(gt), 0);
		assert_int_equal(rte_comch_task_free(gt), -EINVAL);
		assert_int_equal(rte_comch_task_submit(gt), -EALREADY);
	}
	assert_int_equal(rte_comch_ctx_get_num_inflight_tasks(p.cli.ctx, &n), 0);
	assert_int_equal(n, 4);
	/* taken: the messages arrive, the tasks go back with no callback */
	assert_int_equal(rte_comch_connection_recv_resume(p.sconn), 0);
	assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_recv, 4, CT_TIMEOUT_MS), 0);
	assert_int_equal(progress_until(p.pe, ct_inflight_is, &ci, CT_TIMEOUT_MS), 0);
	assert_int_equal(p.srv.next_seq, 4);
	assert_int_equal(p.srv.bad_msgs, 0);
	assert_int_equal(p.cli.nb_send_ok + p.cli.nb_send_err, 0);

	/* the pool is whole: four more in flight, freed, then flushed by a stop */
	assert_int_equal(rte_comch_connection_recv_pause(p.sconn), 0);
	for (i = 0; i < 4; i++) {
		ct_msg_fill(msg[4 + i], sizeof(msg[4 + i]), 0, 4 + i);
		assert_int_equal(ct_send(&p.cli, p.cconn, msg[4 + i], sizeof(msg[4 + i]), &t[i]),
				 0);
		assert_int_equal(rte_comch_task_free(rte_comch_task_send_as_task(t[i])), 0);
	}
	ct_ctx_stop_wait(p.cpe, p.cli.ctx);
	assert_int_equal(rte_comch_ctx_get_num_inflight_tasks(p.cli.ctx, &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(p.cli.nb_send_ok + p.cli.nb_send_err, 0);
	/* and the client's destroy finds every task back (ct_pair_close() checks) */
	ct_pair_close(&p);
}

/* Fill a receive queue of 4, check -EAGAIN, then stream with retries. */
#define NB_STREAM 300
#define STREAM_LEN 100

static void
stream_with_backpressure(struct ct_pair *p, struct ct_side *tx, struct ct_side *rx,
			 struct rte_comch_connection *conn, uint32_t qsize)
{
	static uint8_t bufs[NB_STREAM][STREAM_LEN];
	struct rte_comch_task_send *t = NULL;
	uint32_t i, again = 0;

	for (i = 0; i < NB_STREAM; i++)
		ct_msg_fill(bufs[i], STREAM_LEN, 7, i);
	for (i = 0; i < qsize; i++)
		assert_int_equal(ct_send(tx, conn, bufs[i], STREAM_LEN, NULL), 0);
	/* the peer has not progressed: its queue is full */
	assert_int_equal(ct_send(tx, conn, bufs[qsize], STREAM_LEN, &t), -EAGAIN);
	/* a refused task still belongs to the caller and is not in flight */
	assert_int_equal(rte_comch_task_get_status(rte_comch_task_send_as_task(t)) ==
			 -EINPROGRESS, 0);
	assert_int_equal(rte_comch_task_free(rte_comch_task_send_as_task(t)), 0);
	for (i = qsize; i < NB_STREAM; i++)
		assert_int_equal(ct_send_retry(p->pe, tx, conn, bufs[i], STREAM_LEN, &again), 0);
	assert_true(again > 0);
	assert_int_equal(ct_wait_count(p->pe, &tx->nb_send_ok, NB_STREAM, CT_TIMEOUT_MS), 0);
	ct_progress_for(p->pe, 50);
	/* every message exactly once, whole, in order */
	assert_int_equal(rx->nb_recv, NB_STREAM);
	assert_int_equal(rx->next_seq, NB_STREAM);
	assert_int_equal(rx->bad_msgs, 0);
	assert_int_equal(rx->recv_bytes, (uint64_t)NB_STREAM * STREAM_LEN);
	assert_int_equal(tx->nb_send_ok, NB_STREAM);
	assert_int_equal(tx->nb_send_err, 0);
}

static void
test_recv_queue_full(void **state)
{
	struct ct_cfg cfg = { .srv_rq = 4, .cli_rq = 5, .srv_tasks = 512, .cli_tasks = 512 };
	struct ct_pair p;

	(void)state;
	ct_pair_up(&p, &cfg);
	stream_with_backpressure(&p, &p.cli, &p.srv, p.cconn, 4);
	stream_with_backpressure(&p, &p.srv, &p.cli, p.sconn, 5);
	ct_pair_close(&p);
}

static void
test_msg_sizes(void **state)
{
	static const uint32_t sizes[] = { 16, 17, 4095, 65536, 1024 * 1024 };
	struct ct_cfg cfg = { .srv_msg_size = 1024 * 1024, .srv_rq = 2, .cli_rq = 2 };
	struct ct_pair p;
	uint32_t v = 0, i;
	uint8_t *buf;

	(void)state;
	buf = malloc(1024 * 1024);
	assert_non_null(buf);
	ct_pair_up(&p, &cfg);
	/* the client took the server's size */
	assert_int_equal(rte_comch_client_get_max_msg_size(p.cli.client, &v), 0);
	assert_int_equal(v, 1024 * 1024);
	for (i = 0; i < RTE_DIM(sizes); i++) {
		ct_msg_fill(buf, sizes[i], 3, i);
		assert_int_equal(ct_send(&p.cli, p.cconn, buf, sizes[i], NULL), 0);
		assert_int_equal(ct_wait_count(p.pe, &p.cli.nb_send_ok, i + 1, CT_TIMEOUT_MS), 0);
		assert_int_equal(p.srv.nb_recv, i + 1);
		assert_int_equal(p.srv.last_len, sizes[i]);
		ct_msg_fill(buf, sizes[i], 4, i);
		assert_int_equal(ct_send(&p.srv, p.sconn, buf, sizes[i], NULL), 0);
		assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_send_ok, i + 1, CT_TIMEOUT_MS), 0);
		assert_int_equal(p.cli.nb_recv, i + 1);
	}
	/* ct_recv_cb checked every byte of every message */
	assert_int_equal(p.srv.bad_msgs, 0);
	assert_int_equal(p.cli.bad_msgs, 0);
	assert_int_equal(p.srv.next_seq, RTE_DIM(sizes));
	assert_int_equal(p.cli.next_seq, RTE_DIM(sizes));
	ct_pair_close(&p);
	free(buf);
}

/*
 * A stream of messages above 4 KiB, long enough for the shm driver's copy pick
 * to try its other way after its first turn of 4096 sends and to come back:
 * every byte of every message arrives, once and in order, whichever way
 * copied it (every driver runs it).
 */
#define NB_LARGE 4500
#define LARGE_MAX 16384

static void
test_large_msgs_across_copies(void **state)
{
	struct ct_cfg cfg = { .srv_msg_size = LARGE_MAX };
	static uint8_t buf[LARGE_MAX];
	uint64_t bytes = 0, deadline;
	struct ct_pair p;
	uint32_t i, len;
	int ret;

	(void)state;
	ct_pair_up(&p, &cfg);
	deadline = ct_now_ms() + CT_TIMEOUT_MS;
	for (i = 0; i < NB_LARGE; i++) {
		len = 4097 + (i * 2731) % (LARGE_MAX - 4097 + 1);
		ct_msg_fill(buf, len, 6, i);
		/* The queue full, or the tasks all in flight: progress, they come back. */
		while ((ret = ct_send(&p.cli, p.cconn, buf, len, NULL)) == -EAGAIN ||
		       ret == -ENOMEM) {
			assert_true(ct_now_ms() < deadline);
			assert_true(rte_comch_pe_progress(p.pe) >= 0);
		}
		assert_int_equal(ret, 0);
		bytes += len;
	}
	assert_int_equal(ct_wait_count(p.pe, &p.cli.nb_send_ok, NB_LARGE, CT_TIMEOUT_MS), 0);
	ct_progress_for(p.pe, 50);
	assert_int_equal(p.srv.nb_recv, NB_LARGE);
	assert_int_equal(p.srv.next_seq, NB_LARGE);
	assert_int_equal(p.srv.bad_msgs, 0);
	assert_int_equal(p.srv.recv_bytes, bytes);
	assert_int_equal(p.cli.nb_send_err, 0);
	ct_pair_close(&p);
}

/* A submitted message is read at submit: its buffer is the sender's again at once. */
static void
test_buffer_free_at_submit(void **state)
{
	static const uint32_t sizes[] = { 16, 64, 4096, 65536 };
	struct ct_cfg cfg = { .srv_msg_size = 65536, .srv_rq = 8, .cli_rq = 8 };
	struct ct_pair p;
	uint8_t *buf;
	uint32_t i;

	(void)state;
	buf = malloc(65536);
	assert_non_null(buf);
	ct_pair_up(&p, &cfg);
	for (i = 0; i < RTE_DIM(sizes); i++) {
		ct_msg_fill(buf, sizes[i], 3, i);
		assert_int_equal(ct_send(&p.cli, p.cconn, buf, sizes[i], NULL), 0);
		/* Overwritten before any progress: the peer must still get what was sent. */
		memset(buf, 0xee, sizes[i]);
	}
	assert_int_equal(ct_wait_count(p.pe, &p.cli.nb_send_ok, RTE_DIM(sizes), CT_TIMEOUT_MS),
			 0);
	assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_recv, RTE_DIM(sizes), CT_TIMEOUT_MS), 0);
	/* ct_recv_cb checked every byte of every message */
	assert_int_equal(p.srv.bad_msgs, 0);
	assert_int_equal(p.srv.next_seq, RTE_DIM(sizes));
	ct_pair_close(&p);
	free(buf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alloc_init_errors),
		cmocka_unit_test(test_alloc_not_running),
		cmocka_unit_test(test_task_api),
		cmocka_unit_test(test_resubmit_from_callback),
		cmocka_unit_test(test_destroy_with_unfreed_task),
		cmocka_unit_test(test_free_in_flight),
		cmocka_unit_test(test_recv_queue_full),
		cmocka_unit_test(test_msg_sizes),
		cmocka_unit_test(test_large_msgs_across_copies),
		cmocka_unit_test(test_buffer_free_at_submit),
	};

	return CT_RUN("comch_msg", tests);
}
