/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * ctrl-ev-lat over comch, client side: ctrl-lat's ping-pong, timed the same
 * way, with both sides sleeping on their engines' notification fds whenever
 * progress finds nothing to do. So a round trip is two wake-ups, one per side.
 *
 * Then the idle window: a SYNC of the number of round trips (answered once
 * the server has begun its window), --idle seconds of sleeping, and an END
 * (answered with RESULT) that ends the server's window.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "bench_comch.h"
#include "bench_event.h"
#include "bench_msg.h"
#include "bench_runners.h"
#include "bench_stats.h"

/* Rounds between two looks at the clock for a timeout (a round may sleep). */
#define ROUNDS_PER_CHECK 64

struct lat_state {
	struct bench_ev ev;
	uint64_t seq;       /* the PING in flight, or the request's seq */
	uint32_t size;
	uint32_t want_kind; /* the reply awaited */
	uint32_t want_len;
	bool got;
	uint64_t t0;        /* TSC just before the send */
};

static void
on_msg(struct bc_sess *s, const uint8_t *msg, uint32_t len)
{
	struct lat_state *st = s->priv;
	struct bench_msg_hdr hdr;

	if (st->want_kind != BENCH_MSG_RESULT) {
		if (bench_msg_check(msg, len, st->want_kind, st->seq, st->want_len, s->res) == 0)
			st->got = true;
		return;
	}
	/* RESULT's body is the server's counts, not a pattern: the header is enough. */
	if (bench_msg_peek(msg, len, &hdr) < 0 || hdr.kind != BENCH_MSG_RESULT ||
	    hdr.seq != st->seq || len != BENCH_MSG_RESULT_LEN)
		bench_fail(s->res, -EBADMSG, "expected RESULT, got %s seq %" PRIu64 " of %"
			   PRIu32 " bytes", bench_msg_kind_name(hdr.kind), hdr.seq, len);
	else
		st->got = true;
}

/* Progress, sleeping when idle, until the awaited reply arrives. */
static int
wait_reply(struct bc_sess *s, struct lat_state *st)
{
	uint64_t deadline = 0;
	unsigned int rounds = 0;
	int ret;

	while (!st->got) {
		ret = bc_progress_ev(s, &st->ev);
		if (ret == 0)
			ret = bc_check_open(s, bench_msg_kind_name(st->want_kind));
		if (unlikely(ret < 0))
			return ret;
		if (unlikely(++rounds % ROUNDS_PER_CHECK == 0)) {
			if (deadline == 0)
				deadline = bc_deadline(s, BENCH_REPLY_TIMEOUT_S);
			else if (rte_rdtsc() > deadline)
				return bench_fail(s->res, -ETIMEDOUT, "no %s for seq %" PRIu64
						  " after %d s", bench_msg_kind_name(st->want_kind),
						  st->seq, BENCH_REPLY_TIMEOUT_S);
		}
	}
	return 0;
}

/* Send kind/seq (len bytes) and wait for its reply. */
static int
request(struct bc_sess *s, struct lat_state *st, uint32_t kind, uint32_t len, uint32_t want,
	uint32_t want_len)
{
	struct rte_comch_task_send *pending;
	uint64_t deadline = bc_deadline(s, BENCH_REPLY_TIMEOUT_S);
	uint8_t *buf;
	int ret;

	/* Buffers come back as earlier messages complete. */
	while ((buf = bc_buf_get(s)) == NULL) {
		ret = bc_progress_ev(s, &st->ev);
		if (ret == 0 && rte_rdtsc() > deadline)
			ret = bench_fail(s->res, -ETIMEDOUT, "earlier messages not completed "
					 "after %d s", BENCH_REPLY_TIMEOUT_S);
		if (ret < 0)
			return ret;
	}
	bench_msg_fill(buf, len, kind, st->seq);
	st->want_kind = want;
	st->want_len = want_len;
	st->got = false;
	st->t0 = rte_rdtsc();
	ret = bc_send(s, buf, len, &pending);
	/* With one message at a time the queue is never full; if it is, wait like any sender. */
	if (unlikely(ret == -EAGAIN))
		ret = bc_send_wait(s, pending, &s->res->eagain);
	if (ret < 0)
		return ret;
	return wait_reply(s, st);
}

int
comch_ctrl_ev_lat_client(struct bench_ctx *bc, const struct bench_test *t,
			 struct bench_result *res)
{
	const struct bench_opts *o = bc->opts;
	struct lat_state st = { .size = t->size };
	uint64_t *samples, total = o->warmup + o->iterations;
	struct bc_sess s;
	int ret;

	samples = bench_samples_alloc(o->iterations, res);
	if (samples == NULL)
		return res->status;
	ret = bc_client_open(&s, bc, t, res, on_msg, &st);
	if (ret == 0)
		ret = bench_ev_init(&st.ev, res, bc->tsc_hz, s.pe, NULL);
	for (st.seq = 0; ret == 0 && st.seq < total; st.seq++) {
		ret = request(&s, &st, BENCH_MSG_PING, st.size, BENCH_MSG_PONG, st.size);
		/* From just before the send to the PONG checked, as ctrl-lat times it. */
		if (st.seq >= o->warmup)
			samples[st.seq - o->warmup] = rte_rdtsc() - st.t0;
	}
	res->verified = st.seq;
	/* Both sides quiet, then idle; the server's window is framed by SYNC and END. */
	if (ret == 0)
		ret = request(&s, &st, BENCH_MSG_SYNC, BENCH_MSG_HDR_LEN, BENCH_MSG_SYNC_ACK,
			      BENCH_MSG_HDR_LEN);
	if (ret == 0)
		ret = bench_ev_idle(&st.ev, o->idle);
	if (ret == 0)
		ret = bc_check_open(&s, "the end of the idle window");
	/* END's seq is the number of DATA messages sent: none. */
	st.seq = 0;
	if (ret == 0)
		request(&s, &st, BENCH_MSG_END, BENCH_MSG_HDR_LEN, BENCH_MSG_RESULT,
			BENCH_MSG_RESULT_LEN);
	bc_close(&s);
	if (res->status == 0) {
		bench_stats_lat(res, samples, o->iterations, bc->tsc_hz);
		bench_ev_report(&st.ev, res);
	}
	free(samples);
	return res->status;
}
