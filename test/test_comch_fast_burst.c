/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The fast path's burst API: modes and their errors, bursts of every size of
 * message delivered whole and in order, back-pressure without loss, the limit
 * of posted buffers, buffers given back on stop and on the connection's end,
 * and the producer's completion counts. Both ends run on one engine.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "comch_test_common.h"

#define NB_POSTS 16
#define SLOT 4096

/* A consumer in burst mode with NB_POSTS slots of SLOT bytes, and a producer in burst mode. */
struct bench {
	struct ct_pair p;
	struct ct_cons c;
	struct ct_prod pr;
};

static void
bench_up(struct bench *b, enum ct_fast_mode mode, uint32_t imm_len)
{
	ct_fast_up(&b->p, NULL, mode);
	ct_cons_new(&b->c, b->p.sconn, ct_fast_pe(&b->p, true), NB_POSTS, SLOT, imm_len);
	assert_int_equal(rte_comch_consumer_burst_enable(b->c.cons, NB_POSTS), 0);
	ct_cons_start(&b->p, &b->c, &b->p.cli);
	ct_prod_new(&b->pr, b->p.cconn, ct_fast_pe(&b->p, false), 4, SLOT, false);
	assert_int_equal(rte_comch_producer_burst_enable(b->pr.prod), 0);
	assert_int_equal(rte_comch_ctx_start(b->pr.ctx), 0);
}

/* Stop a burst consumer: take back what it has posted until it is IDLE; how many came back. */
static uint32_t
cons_stop_drain(struct bench *b)
{
	struct rte_comch_fp_cpl cpl[NB_POSTS];
	uint64_t end = ct_now_ms() + CT_TIMEOUT_MS;
	enum rte_comch_ctx_state st;
	uint32_t back = 0;
	int n;

	assert_int_equal(rte_comch_ctx_get_state(b->c.ctx, &st), 0);
	if (st == RTE_COMCH_CTX_STATE_IDLE)
		return 0;
	assert_int_equal(rte_comch_ctx_stop(b->c.ctx), -EINPROGRESS);
	do {
		assert_true(ct_now_ms() < end);
		ct_fast_progress(&b->p);
		n = rte_comch_consumer_recv_burst(b->c.cons, cpl, RTE_DIM(cpl));
		back += n > 0 ? n : 0;
		assert_int_equal(rte_comch_ctx_get_state(b->c.ctx, &st), 0);
	} while (st != RTE_COMCH_CTX_STATE_IDLE);
	assert_int_equal(ct_fast_wait_known(&b->p, &b->p.cli, b->c.id, false), 0);
	return back;
}

static void
bench_down(struct bench *b)
{
	ct_prod_stop(&b->p, &b->pr);
	ct_prod_free(&b->pr);
	cons_stop_drain(b);
	ct_cons_free(&b->c);
	ct_pair_close(&b->p);
}

static void
noop_recv_cb(struct rte_comch_consumer_task_post_recv *t, union rte_comch_data a,
	     union rte_comch_data c)
{
	(void)t; (void)a; (void)c;
}

/* Post slots [first, first + n) with cookies equal to their index. */
static int
post_slots(struct bench *b, uint32_t first, uint32_t n)
{
	struct rte_comch_fp_post posts[NB_POSTS];
	uint32_t i;

	assert_true(n <= NB_POSTS);
	for (i = 0; i < n; i++) {
		posts[i].addr = b->c.mem + (size_t)((first + i) % NB_POSTS) * SLOT;
		posts[i].len = SLOT;
		posts[i].cookie = first + i;
	}
	return rte_comch_consumer_post_burst(b->c.cons, posts, n);
}

/* Message seq: len bytes of its pattern, and seq in the immediate data. */
static void
make_msg(struct rte_comch_fp_msg *m, uint8_t *data, uint32_t seq, uint32_t len)
{
	ct_fast_fill(data, len, 0, seq);
	m->data = len != 0 ? data : NULL;
	m->len = len;
	ct_fast_imm(m->imm, 8, 0, seq);
	m->imm_len = 8;
}

static uint32_t
msg_len(uint32_t seq)
{
	static const uint32_t lens[] = { 0, 1, 7, 63, 64, 65, 200, 1000, 4095, 4096 };

	return lens[seq % RTE_DIM(lens)];
}

/* Receive until want completions arrived (progressing both ends); check each. */
static void
recv_check(struct bench *b, uint32_t *next_seq, uint32_t want, uint32_t pid)
{
	struct rte_comch_fp_cpl cpl[NB_POSTS];
	uint8_t imm[RTE_COMCH_MAX_IMM_DATA_LEN];
	uint64_t end = ct_now_ms() + CT_TIMEOUT_MS;
	uint32_t got = 0;
	int i, n;

	while (got < want) {
		assert_true(ct_now_ms() < end);
		ct_fast_progress(&b->p);
		n = rte_comch_consumer_recv_burst(b->c.cons, cpl, RTE_DIM(cpl));
		assert_true(n >= 0);
		for (i = 0; i < n; i++, got++, (*next_seq)++) {
			assert_int_equal(cpl[i].status, 0);
			assert_int_equal(cpl[i].cookie, *next_seq);
			assert_int_equal(cpl[i].len, msg_len(*next_seq));
			assert_int_equal(cpl[i].producer_id, pid);
			assert_int_equal(cpl[i].imm_len, 8);
			ct_fast_imm(imm, 8, 0, *next_seq);
			assert_memory_equal(cpl[i].imm, imm, 8);
			assert_int_equal(ct_fast_check(b->c.mem + (cpl[i].cookie % NB_POSTS) * SLOT,
						       cpl[i].len, 0, *next_seq), 0);
		}
	}
}

static void
test_burst_modes(void **state)
{
	struct rte_comch_fp_cpl cpl[4];
	struct rte_comch_fp_msg m = { 0 };
	struct rte_comch_producer_task_send *t;
	struct ct_pair p;
	struct ct_cons c;
	struct ct_prod pr;

	(void)state;
	ct_fast_up(&p, NULL, CT_FAST_ONE);
	ct_cons_new(&c, p.sconn, p.pe, 4, 64, 0);
	ct_prod_new(&pr, p.cconn, p.pe, 4, 4096, true);
	/* Task mode: the burst calls say so. */
	assert_int_equal(rte_comch_producer_send_burst(pr.prod, 0, NULL, &m, 1), -EBUSY);
	assert_int_equal(rte_comch_producer_completed_burst(pr.prod, NULL, 4), -EBUSY);
	assert_int_equal(rte_comch_consumer_recv_burst(c.cons, cpl, 4), -EBUSY);
	assert_int_equal(rte_comch_consumer_post_burst(c.cons, NULL, 0), -EBUSY);
	/* Only while IDLE, and with a sane size. */
	assert_int_equal(rte_comch_producer_burst_enable(pr.prod), -EBUSY);
	assert_int_equal(rte_comch_producer_burst_enable(NULL), -EINVAL);
	assert_int_equal(rte_comch_consumer_burst_enable(NULL, 4), -EINVAL);
	assert_int_equal(rte_comch_consumer_burst_enable(c.cons, 0), -EINVAL);
	assert_int_equal(rte_comch_consumer_burst_enable(c.cons, 1u << 30), -EINVAL);
	/* Burst mode, not running: IDLE refuses, a send to nobody too. */
	assert_int_equal(rte_comch_consumer_burst_enable(c.cons, 4), 0);
	assert_int_equal(rte_comch_consumer_recv_burst(c.cons, cpl, 4), -EBUSY);
	assert_int_equal(rte_comch_consumer_post_burst(c.cons, NULL, 0), -EBUSY);
	ct_prod_stop(&p, &pr);
	assert_int_equal(rte_comch_producer_burst_enable(pr.prod), 0);
	assert_int_equal(rte_comch_producer_send_burst(pr.prod, 0, NULL, &m, 1), -EBUSY);
	assert_int_equal(rte_comch_ctx_start(pr.ctx), 0);
	assert_int_equal(rte_comch_producer_send_burst(pr.prod, 0, NULL, &m, 1), -ENOENT);
	assert_int_equal(rte_comch_producer_send_burst(pr.prod, 0, NULL, NULL, 1), -EINVAL);
	assert_int_equal(rte_comch_producer_send_burst(pr.prod, 0, NULL, NULL, 0), 0);
	assert_int_equal(rte_comch_producer_completed_burst(pr.prod, NULL, 4), 0);
	/* A running producer in burst mode makes no send task. */
	assert_int_equal(rte_comch_producer_task_send_alloc_init(pr.prod, NULL, NULL, 0, 1, &t),
			 -ENOTSUP);
	/* Back to tasks: set_conf undoes burst mode. */
	ct_prod_stop(&p, &pr);
	assert_int_equal(rte_comch_consumer_task_post_recv_set_conf(c.cons, noop_recv_cb,
								    noop_recv_cb, 4), 0);
	assert_int_equal(rte_comch_consumer_recv_burst(c.cons, cpl, 4), -EBUSY);
	ct_prod_free(&pr);
	ct_cons_free(&c);
	ct_pair_close(&p);
}

/* Bursts of every size of message, each delivered whole, in order, with its imm. */
static void
test_burst_roundtrip(void **state)
{
	static uint8_t data[NB_POSTS][SLOT];
	struct rte_comch_fp_msg msgs[NB_POSTS];
	uint32_t seq = 0, posted = 0, next = 0, pid, i, round;
	int n;
	struct bench b;

	(void)state;
	bench_up(&b, CT_FAST_SPLIT, 8);
	assert_int_equal(rte_comch_producer_get_id(b.pr.prod, &pid), 0);
	for (round = 0; round < 20; round++) {
		assert_int_equal(post_slots(&b, posted, NB_POSTS), NB_POSTS);
		posted += NB_POSTS;
		for (i = 0; i < NB_POSTS; i++)
			make_msg(&msgs[i], data[i], seq + i, msg_len(seq + i));
		n = rte_comch_producer_send_burst(b.pr.prod, b.c.id, b.pr.mmap, msgs, NB_POSTS);
		assert_int_equal(n, NB_POSTS);
		assert_int_equal(rte_comch_producer_completed_burst(b.pr.prod, NULL, 64), NB_POSTS);
		seq += NB_POSTS;
		recv_check(&b, &next, NB_POSTS, pid);
	}
	assert_int_equal(next, seq);
	bench_down(&b);
}

/*
 * More messages than buffers: the send takes what fits and tells how many;
 * the rest goes once buffers are posted again. Nothing is lost or reordered.
 */
static void
test_burst_backpressure(void **state)
{
	static uint8_t data[2 * NB_POSTS][SLOT];
	struct rte_comch_fp_msg msgs[2 * NB_POSTS];
	uint32_t next = 0, pid, i;
	struct bench b;
	int st[2 * NB_POSTS];

	(void)state;
	bench_up(&b, CT_FAST_ONE, 8);
	assert_int_equal(rte_comch_producer_get_id(b.pr.prod, &pid), 0);
	for (i = 0; i < 2 * NB_POSTS; i++)
		make_msg(&msgs[i], data[i], i, msg_len(i));
	/* Nothing posted: nothing goes, it is not an error. */
	assert_int_equal(rte_comch_producer_send_burst(b.pr.prod, b.c.id, NULL, msgs,
						       2 * NB_POSTS), 0);
	assert_int_equal(post_slots(&b, 0, NB_POSTS / 2), NB_POSTS / 2);
	assert_int_equal(rte_comch_producer_send_burst(b.pr.prod, b.c.id, NULL, msgs,
						       2 * NB_POSTS), NB_POSTS / 2);
	recv_check(&b, &next, NB_POSTS / 2, pid);
	assert_int_equal(post_slots(&b, NB_POSTS / 2, NB_POSTS), NB_POSTS);
	/* All the rest offered, NB_POSTS taken. */
	assert_int_equal(rte_comch_producer_send_burst(b.pr.prod, b.c.id, NULL,
						       msgs + NB_POSTS / 2,
						       2 * NB_POSTS - NB_POSTS / 2),
			 NB_POSTS);
	recv_check(&b, &next, NB_POSTS, pid);
	assert_int_equal(post_slots(&b, 3 * NB_POSTS / 2, NB_POSTS / 2), NB_POSTS / 2);
	assert_int_equal(rte_comch_producer_send_burst(b.pr.prod, b.c.id, NULL,
						       msgs + 3 * NB_POSTS / 2, NB_POSTS / 2),
			 NB_POSTS / 2);
	recv_check(&b, &next, NB_POSTS / 2, pid);
	assert_int_equal(next, 2 * NB_POSTS);
	/* Every send is reported done, each with status 0. */
	memset(st, 0xff, sizeof(st));
	assert_int_equal(rte_comch_producer_completed_burst(b.pr.prod, st, 2 * NB_POSTS),
			 2 * NB_POSTS);
	for (i = 0; i < 2 * NB_POSTS; i++)
		assert_int_equal(st[i], 0);
	assert_int_equal(rte_comch_producer_completed_burst(b.pr.prod, st, 8), 0);
	bench_down(&b);
}

/*
 * A burst leaves nothing in flight, but the consumers it filled are owed a
 * wake-up at the producer's next progress: its engine may not sleep before
 * (unless the send woke them itself: CT_CAP_WAKE_AT_SEND).
 */
static void
test_burst_owed_wakeup_keeps_engine_up(void **state)
{
	static uint8_t data[4][SLOT];
	struct rte_comch_fp_msg msgs[4];
	uint32_t next = 0, pid, i;
	struct bench b;
	int st[4];

	(void)state;
	bench_up(&b, CT_FAST_OWN, 8);
	assert_ptr_not_equal(b.pr.pe, b.p.cpe);
	assert_int_equal(rte_comch_producer_get_id(b.pr.prod, &pid), 0);
	for (i = 0; i < 4; i++)
		make_msg(&msgs[i], data[i], i, msg_len(i));
	assert_int_equal(post_slots(&b, 0, 4), 4);
	/* nothing owed: it may sleep */
	assert_int_equal(rte_comch_pe_request_notification(b.pr.pe), 0);
	assert_int_equal(rte_comch_pe_clear_notification(b.pr.pe), 0);
	assert_int_equal(rte_comch_producer_send_burst(b.pr.prod, b.c.id, NULL, msgs, 4), 4);
	if (ct_driver_can(CT_CAP_WAKE_AT_SEND)) {
		/* the send woke the consumer itself: nothing is owed */
		assert_int_equal(rte_comch_pe_request_notification(b.pr.pe), 0);
		assert_int_equal(rte_comch_pe_clear_notification(b.pr.pe), 0);
	} else {
		assert_int_equal(rte_comch_pe_request_notification(b.pr.pe), -EAGAIN);
	}
	/* one round pays the wake-up; then it may sleep again */
	assert_true(rte_comch_pe_progress(b.pr.pe) >= 0);
	assert_int_equal(rte_comch_pe_request_notification(b.pr.pe), 0);
	assert_int_equal(rte_comch_pe_clear_notification(b.pr.pe), 0);
	recv_check(&b, &next, 4, pid);
	assert_int_equal(rte_comch_producer_completed_burst(b.pr.prod, st, 4), 4);
	bench_down(&b);
}

/* A message too long for its buffer, or with too much immediate data, stops the burst there. */
static void
test_burst_errors(void **state)
{
	static uint8_t big[SLOT + 1];
	struct rte_comch_fp_msg msgs[3];
	struct bench b;

	(void)state;
	bench_up(&b, CT_FAST_ONE, 8);
	assert_int_equal(post_slots(&b, 0, 3), 3);
	make_msg(&msgs[0], big, 0, 10);
	make_msg(&msgs[1], big, 1, SLOT + 1);
	make_msg(&msgs[2], big, 2, 10);
	assert_int_equal(rte_comch_producer_send_burst(b.pr.prod, b.c.id, NULL, msgs, 3), 1);
	assert_int_equal(rte_comch_producer_send_burst(b.pr.prod, b.c.id, NULL, msgs + 1, 2),
			 -EMSGSIZE);
	msgs[2].imm_len = 9; /* the consumer takes 8 */
	assert_int_equal(rte_comch_producer_send_burst(b.pr.prod, b.c.id, NULL, msgs + 2, 1),
			 -EMSGSIZE);
	msgs[2].imm_len = 8;
	assert_int_equal(rte_comch_producer_send_burst(b.pr.prod, b.c.id, NULL, msgs + 2, 1), 1);
	assert_int_equal(rte_comch_producer_send_burst(b.pr.prod, b.c.id + 1, NULL, msgs, 1),
			 -ENOENT);
	bench_down(&b);
}

/* Posting: at most max_posts outstanding, and only buffers of the consumer's mmap. */
static void
test_burst_post_limits(void **state)
{
	struct rte_comch_fp_post bad[2] = {
		{ .addr = (void *)(uintptr_t)0x1000, .len = 64, .cookie = 1 },
		{ .addr = NULL, .len = 0, .cookie = 2 },
	};
	struct bench b;

	(void)state;
	bench_up(&b, CT_FAST_ONE, 0);
	assert_int_equal(rte_comch_consumer_post_burst(b.c.cons, bad, 2), -EINVAL);
	assert_int_equal(rte_comch_consumer_post_burst(b.c.cons, bad + 1, 1), 1);
	assert_int_equal(post_slots(&b, 0, NB_POSTS), NB_POSTS - 1);
	assert_int_equal(post_slots(&b, 0, 1), 0);
	/* A buffer that runs past the end of the mmap is not in it either. */
	bad[0].addr = b.c.mem + b.c.mem_len - 8;
	assert_int_equal(rte_comch_consumer_post_burst(b.c.cons, bad, 1), 0);
	/* All of them come back at stop: NB_POSTS, the immediate-only one too. */
	ct_prod_stop(&b.p, &b.pr);
	ct_prod_free(&b.pr);
	assert_int_equal(cons_stop_drain(&b), NB_POSTS);
	ct_cons_free(&b.c);
	ct_pair_close(&b.p);
}

/*
 * Stop a consumer with buffers posted: they come back through recv_burst with
 * -ECONNABORTED, after those filled, and only then is the consumer IDLE.
 */
static void
test_burst_stop_gives_back(void **state)
{
	static uint8_t data[4][SLOT];
	struct rte_comch_fp_msg msgs[4];
	struct rte_comch_fp_cpl cpl[NB_POSTS];
	enum rte_comch_ctx_state st;
	uint32_t i, filled = 0, back = 0;
	uint64_t end = ct_now_ms() + CT_TIMEOUT_MS;
	struct bench b;
	int n;

	(void)state;
	bench_up(&b, CT_FAST_ONE, 8);
	assert_int_equal(post_slots(&b, 0, NB_POSTS), NB_POSTS);
	for (i = 0; i < 4; i++)
		make_msg(&msgs[i], data[i], i, msg_len(i));
	assert_int_equal(rte_comch_producer_send_burst(b.pr.prod, b.c.id, NULL, msgs, 4), 4);
	assert_int_equal(rte_comch_ctx_stop(b.c.ctx), -EINPROGRESS);
	do {
		assert_true(ct_now_ms() < end);
		ct_fast_progress(&b.p);
		n = rte_comch_consumer_recv_burst(b.c.cons, cpl, RTE_DIM(cpl));
		assert_true(n >= 0 || (n == -EBUSY && back + filled == NB_POSTS));
		for (i = 0; n > 0 && i < (uint32_t)n; i++) {
			assert_int_equal(cpl[i].cookie, filled + back);
			if (cpl[i].status == 0) {
				assert_int_equal(back, 0); /* the filled ones first */
				filled++;
			} else {
				assert_int_equal(cpl[i].status, -ECONNABORTED);
				back++;
			}
		}
		assert_int_equal(rte_comch_ctx_get_state(b.c.ctx, &st), 0);
		/* IDLE only once every buffer came back. */
		assert_true(st != RTE_COMCH_CTX_STATE_IDLE || filled + back == NB_POSTS);
	} while (st != RTE_COMCH_CTX_STATE_IDLE);
	assert_int_equal(filled, 4);
	assert_int_equal(back, NB_POSTS - 4);
	assert_int_equal(rte_comch_consumer_recv_burst(b.c.cons, cpl, RTE_DIM(cpl)), -EBUSY);
	bench_down(&b);
}

/* The connection ends: what is still posted comes back with -ECONNRESET, the consumer ends. */
static void
test_burst_connection_end(void **state)
{
	struct rte_comch_fp_cpl cpl[NB_POSTS];
	enum rte_comch_ctx_state st;
	uint64_t end = ct_now_ms() + CT_TIMEOUT_MS;
	uint32_t back = 0;
	struct bench b;
	int i, n;

	(void)state;
	bench_up(&b, CT_FAST_SPLIT, 8);
	assert_int_equal(post_slots(&b, 0, NB_POSTS), NB_POSTS);
	ct_prod_stop(&b.p, &b.pr);
	ct_prod_free(&b.pr);
	assert_int_equal(rte_comch_server_disconnect(b.p.srv.server, b.p.sconn), -EBUSY);
	/* The client goes: the server's consumer is the one left on the connection. */
	assert_int_equal(rte_comch_ctx_stop(b.p.cli.ctx), -EINPROGRESS);
	do {
		assert_true(ct_now_ms() < end);
		ct_fast_progress(&b.p);
		n = rte_comch_consumer_recv_burst(b.c.cons, cpl, RTE_DIM(cpl));
		for (i = 0; i < n; i++, back++)
			assert_int_equal(cpl[i].status, -ECONNRESET);
		assert_int_equal(rte_comch_ctx_get_state(b.c.ctx, &st), 0);
	} while (st != RTE_COMCH_CTX_STATE_IDLE);
	assert_int_equal(back, NB_POSTS);
	assert_int_equal(rte_comch_ctx_get_last_error(b.c.ctx), -ECONNRESET);
	ct_cons_free(&b.c);
	ct_pair_close(&b.p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_burst_modes),
		cmocka_unit_test(test_burst_roundtrip),
		cmocka_unit_test(test_burst_backpressure),
		cmocka_unit_test(test_burst_owed_wakeup_keeps_engine_up),
		cmocka_unit_test(test_burst_errors),
		cmocka_unit_test(test_burst_post_limits),
		cmocka_unit_test(test_burst_stop_gives_back),
		cmocka_unit_test(test_burst_connection_end),
	};

	return CT_RUN("comch_fast_burst", tests);
}
