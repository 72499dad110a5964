/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * ctrl-stream over comch, client side: DATA messages as fast as the server's
 * receive queue takes them (-EAGAIN: progress and retry), for --duration
 * seconds. The clock stops when the server answers the END that follows the
 * last message, so every message counted has been received and checked.
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "bench_comch.h"
#include "bench_msg.h"
#include "bench_runners.h"
#include "bench_stats.h"

#define SPINS_PER_CHECK 4096

struct stream_state {
	uint32_t size;
	struct bench_tx_window tx;
	/* The reply awaited: SYNC_ACK or RESULT with this seq. */
	uint32_t want_kind;
	uint64_t want_seq;
	bool got_reply;
	struct bench_msg_result result;
};

static void
on_msg(struct bc_sess *s, const uint8_t *msg, uint32_t len)
{
	struct stream_state *st = s->priv;
	int ret;

	if (st->want_kind == BENCH_MSG_SYNC_ACK)
		ret = bench_msg_check(msg, len, BENCH_MSG_SYNC_ACK, st->want_seq,
				      BENCH_MSG_HDR_LEN, s->res);
	else
		ret = bench_msg_check_result(msg, len, st->want_seq, "", &st->result, s->res);
	if (ret == 0)
		st->got_reply = true;
}

static int
send_msg(struct bc_sess *s, struct stream_state *st, uint32_t kind, uint64_t seq, uint32_t len)
{
	struct rte_comch_task_send *pending;
	unsigned int spins = 0;
	uint64_t c0;
	uint8_t *buf;
	int ret;

	/* Buffers come back as the server takes messages. */
	while (unlikely((buf = bc_buf_get(s)) == NULL)) {
		ret = bc_progress(s);
		if (ret < 0)
			return ret;
		if (unlikely(++spins % SPINS_PER_CHECK == 0 &&
			     bc_check_open(s, "send buffers") < 0))
			return s->res->status;
	}
	bench_msg_fill(buf, len, kind, seq);
	c0 = bench_tx_t0(seq);
	ret = bc_send(s, buf, len, &pending);
	if (ret == 0)
		bench_tx_sent(&st->tx, c0);
	if (ret == -EAGAIN)
		ret = bc_send_wait(s, pending, &st->tx.eagain);
	return ret;
}

/* Send kind (SYNC or END) and progress until its answer arrives. */
static int
round_trip(struct bc_sess *s, struct stream_state *st, uint32_t kind, uint64_t seq, uint32_t len)
{
	uint64_t deadline = bc_deadline(s, BENCH_REPLY_TIMEOUT_S);
	int ret;

	st->want_kind = kind == BENCH_MSG_SYNC ? BENCH_MSG_SYNC_ACK : BENCH_MSG_RESULT;
	st->want_seq = seq;
	st->got_reply = false;
	ret = send_msg(s, st, kind, seq, len);
	while (ret == 0 && !st->got_reply) {
		ret = bc_progress(s);
		if (ret == 0)
			ret = bc_check_open(s, bench_msg_kind_name(st->want_kind));
		if (ret == 0 && rte_rdtsc() > deadline)
			ret = bench_fail(s->res, -ETIMEDOUT, "no %s after %d s",
					 bench_msg_kind_name(st->want_kind), BENCH_REPLY_TIMEOUT_S);
	}
	return ret;
}

int
comch_ctrl_stream_client(struct bench_ctx *bc, const struct bench_test *t,
			 struct bench_result *res)
{
	const struct bench_opts *o = bc->opts;
	struct stream_state st = { .size = t->size };
	uint64_t seq = 0, t_end;
	struct bc_sess s;
	int ret;

	ret = bc_client_open(&s, bc, t, res, on_msg, &st);
	for (; ret == 0 && seq < o->warmup; seq++)
		ret = send_msg(&s, &st, BENCH_MSG_DATA, seq, t->size);
	/* Start from an empty queue: the warm-up must not count, nor its backlog. */
	if (ret == 0)
		ret = round_trip(&s, &st, BENCH_MSG_SYNC, seq, BENCH_MSG_HDR_LEN);
	bench_tx_start(&st.tx, seq);
	t_end = st.tx.tsc_start + (uint64_t)(o->duration * bc->tsc_hz);
	for (; ret == 0 && rte_rdtsc() < t_end; seq++)
		ret = send_msg(&s, &st, BENCH_MSG_DATA, seq, t->size);
	if (ret == 0)
		ret = round_trip(&s, &st, BENCH_MSG_END, seq, BENCH_MSG_HDR_LEN);
	bench_tx_stop(&st.tx);
	if (ret == 0 && (st.result.received != seq ||
			 st.result.bytes != seq * (uint64_t)t->size))
		bench_fail(res, -EBADMSG, "sent %" PRIu64 " messages (%" PRIu64 " bytes), server "
			   "received %" PRIu64 " (%" PRIu64 " bytes)", seq, seq * t->size,
			   st.result.received, st.result.bytes);
	bc_close(&s);
	if (res->status == 0) {
		bench_tx_result(&st.tx, seq, t->size, bc->tsc_hz, res);
		res->verified = st.result.received;
	}
	return res->status;
}
