/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * fp-stream and fp-bw over comch, client side: one producer (the client's, on
 * its lcore) streams DATA to one consumer (the server's, on its lcore), which
 * checks each message and posts its buffer again. The producer submits up to
 * the test's burst of sends, then runs one round of progress (which reaps the
 * completions); a submit refused because no buffer is posted (-EAGAIN) waits for
 * the next round. As ctrl-stream: --warmup messages, a SYNC the server answers
 * once it has them all, --duration seconds of sending, then an END the server
 * answers with what it received; the clock stops at that answer, so every
 * message counted has arrived and been checked.
 *
 * comch-burst: the same with the burst API: one rte_comch_producer_send_burst()
 * of up to the burst per round, from an array of messages whose data is the
 * pattern itself; what it does not take (no buffer posted) goes first next round.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "bench_fp.h"
#include "bench_runners.h"
#include "bench_stats.h"

struct stream_state {
	uint32_t burst;
	uint64_t seq;        /* next message to send */
	struct rte_comch_producer_task_send *pending; /* refused, carries seq */
	struct bench_tx_window tx;
	struct bench_stall stall;
	struct rte_comch_fp_msg *msgs; /* burst API: one burst's messages */
};

/* Burst API: one call for up to a burst of messages; the rest go next time. */
static inline int
send_burst_api(struct bf_side *f, struct stream_state *st, uint64_t end)
{
	struct rte_comch_fp_msg *msgs = st->msgs;
	uint32_t i, nb = RTE_MIN((uint64_t)st->burst, end - st->seq);
	uint64_t c0;
	int n;

	if (nb == 0)
		return 0;
	for (i = 0; i < nb; i++)
		bf_msg(f, &msgs[i], BENCH_MSG_DATA, st->seq + i);
	c0 = bench_tx_t0(st->seq);
	n = rte_comch_producer_send_burst(f->producer, f->peer_id, f->tx_mmap, msgs, nb);
	if (likely(n > 0)) {
		/* A timed call counts once per message it sent. */
		bench_tx_sent_n(&st->tx, c0, n);
		st->seq += n;
		if ((uint32_t)n < nb)
			st->tx.eagain++;
		return 0;
	}
	n = bf_send_refused(f, n);
	if (n == -ENOBUFS) {
		st->tx.eagain++;
		return 0;
	}
	return n;
}

/* Submit up to a burst of messages, the refused one first; stop at a refusal. */
static inline int
send_burst(struct bf_side *f, struct stream_state *st, uint64_t end)
{
	uint32_t i;
	uint64_t c0;
	int ret;

	if (f->burst)
		return send_burst_api(f, st, end);
	for (i = 0; i < st->burst && st->seq < end; i++) {
		if (unlikely(st->pending != NULL)) {
			ret = bf_resubmit(f, st->pending);
			if (ret == -EAGAIN) {
				st->tx.eagain++;
				return 0;
			}
			st->pending = NULL;
			if (ret < 0)
				return ret;
			st->seq++;
			continue;
		}
		c0 = bench_tx_t0(st->seq);
		ret = bf_send(f, BENCH_MSG_DATA, st->seq, &st->pending);
		if (likely(ret == 0)) {
			bench_tx_sent(&st->tx, c0);
			st->seq++;
			continue;
		}
		if (ret == -EAGAIN) {
			st->tx.eagain++;
			return 0;
		}
		return ret == -ENOBUFS ? 0 : ret;
	}
	return 0;
}

/* Send every message up to end (none left refused). */
static int
send_until(struct bf_side *f, struct stream_state *st, uint64_t end)
{
	int ret = 0;

	while (ret == 0 && (st->seq < end || st->pending != NULL)) {
		ret = send_burst(f, st, end);
		if (ret == 0)
			ret = bf_progress(f);
		if (ret == 0)
			ret = bf_check_stall(f, &st->stall, st->seq);
	}
	return ret;
}

int
comch_fp_stream_client(struct bench_ctx *bc, const struct bench_test *t,
		       struct bench_result *res)
{
	const struct bench_opts *o = bc->opts;
	struct stream_state st = { .burst = t->burst };
	struct bf_side f = { .res = res };
	uint64_t t_end;
	struct bc_sess s;
	int ret;

	f.s = &s;
	if (t->transport == BENCH_TR_COMCH_BURST) {
		st.msgs = calloc(st.burst, sizeof(*st.msgs));
		if (st.msgs == NULL)
			return bench_fail(res, -ENOMEM, "no memory for a burst of %" PRIu32,
					  st.burst);
	}
	ret = bc_client_open(&s, bc, t, res, bf_client_on_msg, &f);
	if (ret == 0)
		ret = bf_open(&f, &s, t, res);
	if (ret == 0)
		ret = bf_producer_open(&f);
	if (ret == 0)
		ret = send_until(&f, &st, o->warmup);
	/* Start from an empty pipe: the warm-up must not count, nor its backlog. */
	if (ret == 0)
		ret = bf_ctrl_request(&f, BENCH_MSG_SYNC, st.seq);
	bench_tx_start(&st.tx, st.seq);
	t_end = st.tx.tsc_start + (uint64_t)(o->duration * bc->tsc_hz);
	while (ret == 0 && rte_rdtsc() < t_end) {
		ret = send_burst(&f, &st, UINT64_MAX);
		if (likely(ret == 0))
			ret = bf_progress(&f);
		if (likely(ret == 0))
			ret = bf_check_stall(&f, &st.stall, st.seq);
	}
	/* The one refused last goes too: it carries a sequence number. */
	if (ret == 0)
		ret = send_until(&f, &st, st.seq + (st.pending != NULL));
	if (ret == 0)
		ret = bf_ctrl_request(&f, BENCH_MSG_END, st.seq);
	bench_tx_stop(&st.tx);
	if (ret == 0)
		bf_ctrl_check_result(&f, st.seq);
	if (st.pending != NULL)
		bf_abandon(&f, st.pending);
	/* Our side down first, then the server's, then the connection. */
	if (bf_close(&f) == 0)
		bf_ctrl_request(&f, BENCH_MSG_DONE, 0);
	bc_close(&s);
	if (res->status == 0) {
		bench_tx_result(&st.tx, st.seq, t->size, bc->tsc_hz, res);
		res->verified = f.result.received;
	}
	free(st.msgs);
	return res->status;
}
