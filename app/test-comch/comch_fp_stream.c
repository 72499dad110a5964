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
 */

#include <errno.h>
#include <inttypes.h>

#include "bench_fp.h"
#include "bench_runners.h"
#include "bench_stats.h"

#define SPINS_PER_CHECK 4096

struct stream_state {
	uint32_t burst;
	uint64_t seq;        /* next message to send */
	struct rte_comch_producer_task_send *pending; /* refused, carries seq */
	uint64_t eagain;
	uint64_t send_cycles;
	uint64_t send_samples;
	/* Stall detection: a stream that stops moving fails after BENCH_REPLY_TIMEOUT_S. */
	unsigned int spins;
	uint64_t last_seq;
	uint64_t deadline;
};

/* Submit up to a burst of messages, the refused one first; stop at a refusal. */
static inline int
send_burst(struct bf_side *f, struct stream_state *st, uint64_t end)
{
	uint32_t i;
	uint64_t c0;
	int ret;

	for (i = 0; i < st->burst && st->seq < end; i++) {
		if (unlikely(st->pending != NULL)) {
			ret = bf_resubmit(f, st->pending);
			if (ret == -EAGAIN) {
				st->eagain++;
				return 0;
			}
			st->pending = NULL;
			if (ret < 0)
				return ret;
			st->seq++;
			continue;
		}
		c0 = bench_sample_send(st->seq) ? rte_rdtsc() : 0;
		ret = bf_send(f, BENCH_MSG_DATA, st->seq, &st->pending);
		if (likely(ret == 0)) {
			if (c0 != 0) {
				st->send_cycles += rte_rdtsc() - c0;
				st->send_samples++;
			}
			st->seq++;
			continue;
		}
		if (ret == -EAGAIN) {
			st->eagain++;
			return 0;
		}
		return ret == -ENOBUFS ? 0 : ret;
	}
	return 0;
}

/* Fail if the stream has not moved for BENCH_REPLY_TIMEOUT_S, or the connection ended. */
static int
check_stall(struct bf_side *f, struct stream_state *st)
{
	int ret;

	if (likely(++st->spins % SPINS_PER_CHECK != 0))
		return 0;
	ret = bc_check_open(f->s, "buffers posted by the server");
	if (ret < 0)
		return ret;
	if (st->seq != st->last_seq || st->deadline == 0) {
		st->last_seq = st->seq;
		st->deadline = bc_deadline(f->s, BENCH_REPLY_TIMEOUT_S);
		return 0;
	}
	if (rte_rdtsc() > st->deadline)
		return bench_fail(f->res, -ETIMEDOUT, "message %" PRIu64 " refused for %d s: the "
				  "server posts no buffer", st->seq, BENCH_REPLY_TIMEOUT_S);
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
			ret = check_stall(f, st);
	}
	return ret;
}

int
comch_fp_stream_client(struct bench_ctx *bc, const struct bench_test *t,
		       struct bench_result *res)
{
	const struct bench_opts *o = bc->opts;
	struct stream_state st = { .burst = t->burst };
	uint64_t t_start = 0, t_end, t_stop = 0, measured_from;
	double cpu_start = 0, cpu_stop = 0;
	struct bf_side f = { .res = res };
	struct bc_sess s;
	int ret;

	f.s = &s;
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
	measured_from = st.seq;
	st.eagain = 0;
	st.send_cycles = 0;
	st.send_samples = 0;
	cpu_start = bench_cpu_seconds();
	t_start = rte_rdtsc();
	t_end = t_start + (uint64_t)(o->duration * bc->tsc_hz);
	while (ret == 0 && rte_rdtsc() < t_end) {
		ret = send_burst(&f, &st, UINT64_MAX);
		if (likely(ret == 0))
			ret = bf_progress(&f);
		if (likely(ret == 0))
			ret = check_stall(&f, &st);
	}
	/* The one refused last goes too: it carries a sequence number. */
	if (ret == 0)
		ret = send_until(&f, &st, st.seq + (st.pending != NULL));
	if (ret == 0)
		ret = bf_ctrl_request(&f, BENCH_MSG_END, st.seq);
	t_stop = rte_rdtsc();
	cpu_stop = bench_cpu_seconds();
	if (ret == 0 && (f.result.received != st.seq ||
			 f.result.bytes != st.seq * (uint64_t)t->size))
		bench_fail(res, -EBADMSG, "sent %" PRIu64 " messages (%" PRIu64 " bytes), server "
			   "received %" PRIu64 " (%" PRIu64 " bytes)", st.seq, st.seq * t->size,
			   f.result.received, f.result.bytes);
	if (st.pending != NULL)
		bf_abandon(&f, st.pending);
	/* Our side down first, then the server's, then the connection. */
	if (bf_close(&f) == 0)
		bf_ctrl_request(&f, BENCH_MSG_DONE, 0);
	bc_close(&s);
	if (res->status == 0) {
		bench_stats_stream(res, st.seq - measured_from, t->size, t_stop - t_start,
				   cpu_stop - cpu_start, st.send_cycles, st.send_samples,
				   bc->tsc_hz);
		res->verified = f.result.received;
		res->eagain = st.eagain;
	}
	return res->status;
}
