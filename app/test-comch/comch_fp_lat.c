/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * fp-lat over comch, client side: the client's producer sends a PING to the
 * server's consumer, the server's producer answers with a PONG to the client's
 * consumer, one at a time. The round trip runs from just before the PING's task
 * is allocated to the return of the fast-path progress call whose consumer
 * completion saw (and checked) the PONG. At size 0 both carry immediate data
 * only (the 16-byte header); otherwise also size bytes of data.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "bench_fp.h"
#include "bench_runners.h"
#include "bench_stats.h"

/* Busy-loop rounds between two looks at the clock for a timeout. */
#define SPINS_PER_CHECK 4096

struct lat_state {
	uint64_t seq;  /* the PING in flight */
	bool got_pong;
};

static void
on_recv(struct bf_side *f, const uint8_t *imm, uint32_t imm_len, const uint8_t *data, size_t len)
{
	struct lat_state *st = f->priv;

	if (bench_msg_check_fp(imm, imm_len, data, len, BENCH_MSG_PONG, st->seq, f->size,
			       f->res) == 0)
		st->got_pong = true;
}

/* Progress until cond holds, failing after BENCH_REPLY_TIMEOUT_S without it. */
static int
wait_for(struct bf_side *f, const bool *cond, const char *what, uint64_t seq)
{
	uint64_t deadline = 0;
	unsigned int spins = 0;
	int ret;

	while (!*cond) {
		ret = bf_progress(f);
		if (unlikely(ret < 0))
			return ret;
		if (unlikely(++spins % SPINS_PER_CHECK == 0)) {
			ret = bc_check_open(f->s, what);
			if (ret < 0)
				return ret;
			if (deadline == 0)
				deadline = bc_deadline(f->s, BENCH_REPLY_TIMEOUT_S);
			else if (rte_rdtsc() > deadline)
				return bench_fail(f->res, -ETIMEDOUT, "no %s for PING %" PRIu64
						  " after %d s", what, seq, BENCH_REPLY_TIMEOUT_S);
		}
	}
	return 0;
}

/* A PING refused for want of a posted buffer (-EAGAIN) or of a task (-ENOBUFS). */
static int
ping_retry(struct bf_side *f, struct lat_state *st, int ret,
	   struct rte_comch_producer_task_send *pending)
{
	uint64_t deadline = bc_deadline(f->s, BENCH_REPLY_TIMEOUT_S);
	int r;

	while (ret == -EAGAIN || ret == -ENOBUFS) {
		f->res->eagain++;
		r = bf_progress(f);
		if (r == 0 && rte_rdtsc() > deadline)
			r = bench_fail(f->res, -ETIMEDOUT, "PING %" PRIu64 " refused for %d s: "
				       "the server posts no buffer", st->seq,
				       BENCH_REPLY_TIMEOUT_S);
		if (r < 0) {
			if (ret == -EAGAIN)
				bf_abandon(f, pending);
			return r;
		}
		ret = ret == -EAGAIN ? bf_resubmit(f, pending) :
			bf_send(f, BENCH_MSG_PING, st->seq, &pending);
	}
	return ret;
}

static int
ping(struct bf_side *f, struct lat_state *st, uint64_t *rtt)
{
	struct rte_comch_producer_task_send *pending = NULL;
	uint64_t t0;
	int ret;

	st->got_pong = false;
	t0 = rte_rdtsc();
	ret = bf_send(f, BENCH_MSG_PING, st->seq, &pending);
	/* With one PING at a time neither happens; if one does, wait like any sender. */
	if (unlikely(ret == -EAGAIN || ret == -ENOBUFS))
		ret = ping_retry(f, st, ret, pending);
	if (ret < 0)
		return ret;
	ret = wait_for(f, &st->got_pong, "PONG", st->seq);
	*rtt = rte_rdtsc() - t0;
	return ret;
}

int
comch_fp_lat_client(struct bench_ctx *bc, const struct bench_test *t, struct bench_result *res)
{
	const struct bench_opts *o = bc->opts;
	struct lat_state st = { 0 };
	uint64_t *samples, total = o->warmup + o->iterations, rtt = 0;
	struct bf_side f = { .res = res };
	struct bc_sess s;
	int ret;

	samples = bench_samples_alloc(o->iterations, res);
	if (samples == NULL)
		return res->status;
	f.s = &s;
	ret = bc_client_open(&s, bc, t, res, bf_client_on_msg, &f);
	if (ret == 0)
		ret = bf_open(&f, &s, t, res);
	/* Ours first: the server's producer needs our consumer, we need its. */
	if (ret == 0)
		ret = bf_consumer_open(&f, on_recv, &st);
	if (ret == 0)
		ret = bf_producer_open(&f);
	/* Until SYNC_ACK, the server may not have its producer yet. */
	if (ret == 0)
		ret = bf_ctrl_request(&f, BENCH_MSG_SYNC, 0);
	for (st.seq = 0; ret == 0 && st.seq < total; st.seq++) {
		ret = ping(&f, &st, &rtt);
		if (st.seq >= o->warmup)
			samples[st.seq - o->warmup] = rtt;
	}
	res->verified = st.seq;
	/* Our side down first, then the server's, then the connection. */
	if (bf_close(&f) == 0)
		bf_ctrl_request(&f, BENCH_MSG_DONE, 0);
	bc_close(&s);
	if (res->status == 0)
		bench_stats_lat(res, samples, o->iterations, bc->tsc_hz);
	free(samples);
	return res->status;
}
