/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * fp-ev-lat over comch, client side: fp-lat's ping-pong, timed the same way,
 * with both sides sleeping on the notification fds of both their engines (the
 * connection's and the fast path's) whenever progress finds nothing to do.
 *
 * Then the idle window, framed like ctrl-ev-lat's by control requests the
 * fast-path server answers: SYNC of the number of PINGs (which begins the
 * server's window once they all arrived), --idle seconds of sleeping, END
 * (which ends it). The set-up and the teardown poll, as fp-lat's do.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "bench_event.h"
#include "bench_fp.h"
#include "bench_runners.h"
#include "bench_stats.h"

/* Rounds between two looks at the clock for a timeout (a round may sleep). */
#define ROUNDS_PER_CHECK 64

struct lat_state {
	struct bench_ev ev;
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

/* Progress, sleeping when idle, until the PONG arrives. */
static int
wait_pong(struct bf_side *f, struct lat_state *st)
{
	uint64_t deadline = 0;
	unsigned int rounds = 0;
	int ret;

	while (!st->got_pong) {
		ret = bf_progress_ev(f, &st->ev);
		if (ret == 0)
			ret = bc_check_open(f->s, "PONG");
		if (unlikely(ret < 0))
			return ret;
		if (unlikely(++rounds % ROUNDS_PER_CHECK == 0)) {
			if (deadline == 0)
				deadline = bc_deadline(f->s, BENCH_REPLY_TIMEOUT_S);
			else if (rte_rdtsc() > deadline)
				return bench_fail(f->res, -ETIMEDOUT, "no PONG for PING %" PRIu64
						  " after %d s", st->seq, BENCH_REPLY_TIMEOUT_S);
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
		/* Polling: a buffer posted by the peer rings nobody. */
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
	ret = wait_pong(f, st);
	*rtt = rte_rdtsc() - t0;
	return ret;
}

int
comch_fp_ev_lat_client(struct bench_ctx *bc, const struct bench_test *t,
		       struct bench_result *res)
{
	const struct bench_opts *o = bc->opts;
	struct lat_state st = { .seq = 0 };
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
	if (ret == 0)
		ret = bf_ctrl_request(&f, BENCH_MSG_SYNC, 0);
	if (ret == 0)
		/* The fast path's engine first: the busy one, which says -EAGAIN first. */
		ret = bench_ev_init(&st.ev, res, bc->tsc_hz, f.pe, s.pe);
	for (st.seq = 0; ret == 0 && st.seq < total; st.seq++) {
		ret = ping(&f, &st, &rtt);
		if (st.seq >= o->warmup)
			samples[st.seq - o->warmup] = rtt;
	}
	res->verified = st.seq;
	if (ret == 0)
		ret = bf_ctrl_request(&f, BENCH_MSG_SYNC, total);
	if (ret == 0)
		ret = bench_ev_idle(&st.ev, o->idle);
	if (ret == 0)
		ret = bf_ctrl_request(&f, BENCH_MSG_END, total);
	if (ret == 0 && f.result.received != total)
		bench_fail(res, -EBADMSG, "server received %" PRIu64 " PINGs, %" PRIu64 " sent",
			   f.result.received, total);
	/* Our side down first, then the server's, then the connection. */
	if (bf_close(&f) == 0)
		bf_ctrl_request(&f, BENCH_MSG_DONE, 0);
	bc_close(&s);
	if (res->status == 0) {
		bench_stats_lat(res, samples, o->iterations, bc->tsc_hz);
		bench_ev_report(&st.ev, res);
	}
	free(samples);
	return res->status;
}
