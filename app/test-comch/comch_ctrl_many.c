/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * ctrl-many over comch, client side: --clients clients of one server, all on
 * this side's one engine, stream DATA messages round-robin, one send per
 * client per round and one round of progress after each round. A client whose
 * queue is full (-EAGAIN) keeps its message for its next turn and the round
 * moves on, so a slow connection does not hold the others back: how evenly
 * the server drains its connections shows in each client's share.
 *
 * Framed as ctrl-stream, on every connection: --warmup messages in all, a SYNC
 * on each (the measured part starts once all are answered), --duration
 * seconds, then an END on each, answered with what the server received and
 * checked on that connection; the clock stops at the last answer.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_comch.h"
#include "bench_msg.h"
#include "bench_runners.h"
#include "bench_stall.h"
#include "bench_stats.h"

/* Rounds between two looks at the connection while waiting for a buffer. */
#define SPINS_PER_CHECK 4096

struct many_client {
	struct bc_sess s;
	uint32_t idx;
	uint64_t seq;               /* next DATA to send */
	uint64_t measured_from;     /* seq when the measured part started */
	struct rte_comch_task_send *pending; /* refused; carries seq */
	/* The reply awaited: SYNC_ACK or RESULT with this seq. */
	uint32_t want_kind;
	uint64_t want_seq;
	bool got_reply;
	struct bench_msg_result result;
};

struct many_state {
	struct many_client *cl;
	uint32_t n;
	uint32_t size;
	uint64_t sent;              /* DATA sent by all */
	struct bench_tx_window tx;
};

static void
on_msg(struct bc_sess *s, const uint8_t *msg, uint32_t len)
{
	struct many_client *c = s->priv;
	char who[32];
	int ret;

	if (c->want_kind == BENCH_MSG_SYNC_ACK) {
		ret = bench_msg_check(msg, len, BENCH_MSG_SYNC_ACK, c->want_seq,
				      BENCH_MSG_HDR_LEN, s->res);
	} else {
		/* Nothing but a RESULT may come while no SYNC_ACK is awaited. */
		snprintf(who, sizeof(who), "client %" PRIu32 ": ", c->idx);
		ret = bench_msg_check_result(msg, len, c->want_seq, who, &c->result, s->res);
	}
	if (ret == 0)
		c->got_reply = true;
}

/* One DATA of client c, or its refused one again; a refusal is counted, not waited for. */
static inline int
try_send(struct many_state *st, struct many_client *c)
{
	struct rte_comch_task_send *pending;
	uint64_t c0;
	uint8_t *buf;
	int ret;

	if (unlikely(c->pending != NULL)) {
		ret = bc_resubmit(&c->s, c->pending);
		if (ret == -EAGAIN) {
			st->tx.eagain++;
			return 0;
		}
		c->pending = NULL;
		if (ret < 0)
			return ret;
		c->seq++;
		st->sent++;
		return 0;
	}
	/* Every buffer in flight: the queue is full, as good as refused. */
	buf = bc_buf_get(&c->s);
	if (unlikely(buf == NULL)) {
		st->tx.eagain++;
		return 0;
	}
	bench_msg_fill(buf, st->size, BENCH_MSG_DATA, c->seq);
	c0 = bench_tx_t0(st->sent);
	ret = bc_send(&c->s, buf, st->size, &pending);
	if (likely(ret == 0)) {
		bench_tx_sent(&st->tx, c0);
		c->seq++;
		st->sent++;
		return 0;
	}
	if (ret == -EAGAIN) {
		c->pending = pending;
		st->tx.eagain++;
		return 0;
	}
	return ret;
}

/*
 * Rounds over every client until t_end (TSC) or until limit messages were
 * sent; failing if none is taken for BENCH_REPLY_TIMEOUT_S.
 */
static int
send_rounds(struct many_state *st, uint64_t t_end, uint64_t limit)
{
	uint64_t tsc_hz = st->cl[0].s.bc->tsc_hz;
	struct bench_stall stall;
	uint32_t i;
	int ret = 0;

	bench_stall_init(&stall, st->sent, tsc_hz);
	while (ret == 0 && st->sent < limit && rte_rdtsc() < t_end) {
		for (i = 0; i < st->n && ret == 0; i++)
			ret = try_send(st, &st->cl[i]);
		if (likely(ret == 0))
			ret = bc_progress(&st->cl[0].s);
		if (ret == 0 && bench_stalled(&stall, st->sent, tsc_hz))
			ret = bench_fail(st->cl[0].s.res, -ETIMEDOUT, "no message taken by the "
					 "server for %d s", BENCH_REPLY_TIMEOUT_S);
	}
	return ret;
}

/* Send every message refused so far: a SYNC or END must come after them. */
static int
flush(struct many_state *st)
{
	uint64_t deadline = bc_deadline(&st->cl[0].s, BENCH_REPLY_TIMEOUT_S);
	uint32_t i, left;
	int ret = 0;

	do {
		left = 0;
		for (i = 0; i < st->n && ret == 0; i++) {
			if (st->cl[i].pending == NULL)
				continue;
			ret = try_send(st, &st->cl[i]);
			left += st->cl[i].pending != NULL;
		}
		if (ret == 0)
			ret = bc_progress(&st->cl[0].s);
		if (ret == 0 && left != 0 && rte_rdtsc() > deadline)
			ret = bench_fail(st->cl[0].s.res, -ETIMEDOUT, "%" PRIu32 " client(s) "
					 "still refused after %d s", left, BENCH_REPLY_TIMEOUT_S);
	} while (ret == 0 && left != 0);
	return ret;
}

/* Send kind (SYNC or END) on client c: wait for a buffer and for room in the queue. */
static int
send_ctrl(struct many_state *st, struct many_client *c, uint32_t kind, uint64_t seq)
{
	struct rte_comch_task_send *pending;
	unsigned int spins = 0;
	uint8_t *buf;
	int ret;

	while ((buf = bc_buf_get(&c->s)) == NULL) {
		ret = bc_progress(&c->s);
		if (ret == 0 && ++spins % SPINS_PER_CHECK == 0)
			ret = bc_check_open(&c->s, "send buffers");
		if (ret < 0)
			return ret;
	}
	c->want_kind = kind == BENCH_MSG_SYNC ? BENCH_MSG_SYNC_ACK : BENCH_MSG_RESULT;
	c->want_seq = seq;
	c->got_reply = false;
	bench_msg_fill(buf, BENCH_MSG_HDR_LEN, kind, seq);
	ret = bc_send(&c->s, buf, BENCH_MSG_HDR_LEN, &pending);
	if (ret == -EAGAIN)
		ret = bc_send_wait(&c->s, pending, &st->tx.eagain);
	return ret;
}

/* SYNC or END on every client, then progress until every one is answered. */
static int
barrier(struct many_state *st, uint32_t kind)
{
	uint64_t deadline;
	uint32_t i, waiting;
	int ret;

	for (i = 0; i < st->n; i++) {
		ret = send_ctrl(st, &st->cl[i], kind, st->cl[i].seq);
		if (ret < 0)
			return ret;
	}
	deadline = bc_deadline(&st->cl[0].s, BENCH_REPLY_TIMEOUT_S);
	for (;;) {
		waiting = 0;
		for (i = 0; i < st->n; i++) {
			if (st->cl[i].got_reply)
				continue;
			ret = bc_check_open(&st->cl[i].s, bench_msg_kind_name(st->cl[i].want_kind));
			if (ret < 0)
				return ret;
			waiting++;
		}
		if (waiting == 0)
			return 0;
		ret = bc_progress(&st->cl[0].s);
		if (ret < 0)
			return ret;
		if (rte_rdtsc() > deadline)
			return bench_fail(st->cl[0].s.res, -ETIMEDOUT, "%" PRIu32 " client(s) "
					  "without %s after %d s", waiting,
					  kind == BENCH_MSG_SYNC ? "SYNC_ACK" : "RESULT",
					  BENCH_REPLY_TIMEOUT_S);
	}
}

/* Every client's count must be the server's, on its own connection. */
static void
check_results(struct many_state *st, struct bench_result *res)
{
	struct many_client *c;
	uint64_t n;
	uint32_t i;

	res->share_min = UINT64_MAX;
	for (i = 0; i < st->n && res->status == 0; i++) {
		c = &st->cl[i];
		if (c->result.received != c->seq || c->result.bytes != c->seq * (uint64_t)st->size)
			bench_fail(res, -EBADMSG, "client %" PRIu32 " sent %" PRIu64 " messages, "
				   "the server received %" PRIu64 " (%" PRIu64 " bytes)", i, c->seq,
				   c->result.received, c->result.bytes);
		res->verified += c->result.received;
		n = c->seq - c->measured_from;
		res->share_min = RTE_MIN(res->share_min, n);
		res->share_max = RTE_MAX(res->share_max, n);
	}
}

int
comch_ctrl_many_client(struct bench_ctx *bc, const struct bench_test *t,
		       struct bench_result *res)
{
	const struct bench_opts *o = bc->opts;
	struct many_state st = { .n = o->clients, .size = t->size };
	uint32_t i, opened = 0;
	int ret = 0;

	/* The device first: its memory is the process's, not the connections'. */
	ret = bc_env_open(bc, res);
	if (ret < 0)
		return ret;
	bench_rss_sample(res, &res->rss_base_kb);
	st.cl = calloc(st.n, sizeof(*st.cl));
	if (st.cl == NULL)
		return bench_fail(res, -ENOMEM, "out of memory for %" PRIu32 " clients", st.n);
	/* One after the other: the server accepts them in this order. */
	for (i = 0; i < st.n && ret == 0; i++, opened++) {
		st.cl[i].idx = i;
		ret = bc_client_open(&st.cl[i].s, bc, t, res, on_msg, &st.cl[i]);
	}
	if (ret == 0) {
		bench_rss_sample(res, &res->rss_conn_kb);
		res->mem_units = st.n;
	}
	if (ret == 0)
		ret = send_rounds(&st, UINT64_MAX, o->warmup);
	if (ret == 0)
		ret = flush(&st);
	/* Start from empty queues: the warm-up must not count, nor its backlog. */
	if (ret == 0)
		ret = barrier(&st, BENCH_MSG_SYNC);
	for (i = 0; i < st.n; i++)
		st.cl[i].measured_from = st.cl[i].seq;
	bench_tx_start(&st.tx, st.sent);
	if (ret == 0)
		ret = send_rounds(&st, st.tx.tsc_start + (uint64_t)(o->duration * bc->tsc_hz),
				  UINT64_MAX);
	/* The refused ones go too: they carry sequence numbers. */
	if (ret == 0)
		ret = flush(&st);
	if (ret == 0)
		ret = barrier(&st, BENCH_MSG_END);
	bench_tx_stop(&st.tx);
	/* Every ring as the traffic left it: the slots it wrote are resident now. */
	if (ret == 0)
		bench_rss_sample(res, &res->rss_end_kb);
	if (ret == 0)
		check_results(&st, res);
	/* Each session's close waits for what it sent, and for the server's goodbye. */
	for (i = 0; i < opened; i++) {
		/* Left refused by a failure: never submitted, ours to free. */
		if (st.cl[i].pending != NULL)
			rte_comch_task_free(rte_comch_task_send_as_task(st.cl[i].pending));
		bc_close(&st.cl[i].s);
	}
	if (res->status == 0) {
		bench_tx_result(&st.tx, st.sent, t->size, bc->tsc_hz, res);
		res->senders = st.n;
		res->receivers = 1;
	}
	free(st.cl);
	return res->status;
}
