/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * ctrl-lat and ctrl-ev-lat over comch, client side: one PING in flight at a
 * time; the round trip runs from just before the send to the return of the
 * progress call whose receive callback saw (and checked) the PONG.
 *
 * ctrl-ev-lat (the mode's event flag) is the same ping-pong with both sides
 * sleeping on their engines' notification fds whenever progress finds nothing
 * to do, so a round trip is two wake-ups, one per side. Then the idle window:
 * a SYNC of the number of round trips (answered once the server has begun its
 * window), --idle seconds of sleeping, and an END (answered with RESULT) that
 * ends the server's window.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "bench_comch.h"
#include "bench_event.h"
#include "bench_msg.h"
#include "bench_runners.h"
#include "bench_stats.h"

/* Busy-loop rounds between two looks at the clock and the connection. */
#define SPINS_PER_CHECK 4096

struct lat_state {
	bool event;            /* sleep when idle (ctrl-ev-lat) */
	struct bench_ev ev;    /* its engine, when event is set */
	unsigned int every;    /* rounds between two looks at the clock */
	uint64_t seq;          /* the request in flight */
	uint32_t want_kind;    /* the reply awaited */
	uint32_t want_len;
	bool got;
	uint64_t rtt;          /* TSC from just before the send to the reply checked */
};

static void
on_msg(struct bc_sess *s, const uint8_t *msg, uint32_t len)
{
	struct lat_state *st = s->priv;
	int ret;

	if (likely(st->want_kind != BENCH_MSG_RESULT))
		ret = bench_msg_check(msg, len, st->want_kind, st->seq, st->want_len, s->res);
	else
		/* RESULT's body is the server's counts, not a pattern: none to check here. */
		ret = bench_msg_check_result(msg, len, st->seq, "", NULL, s->res);
	if (ret == 0)
		st->got = true;
}

/* One round of progress: spinning, or in event mode sleeping if there is nothing to do. */
static inline int
progress(struct bc_sess *s, struct lat_state *st)
{
	return st->event ? bc_progress_ev(s, &st->ev) : bc_progress(s);
}

/* Progress until the awaited reply arrives. */
static int
wait_reply(struct bc_sess *s, struct lat_state *st, uint32_t kind)
{
	unsigned int left = st->every;
	uint64_t deadline = 0;
	int ret;

	while (!st->got) {
		ret = progress(s, st);
		if (unlikely(ret < 0))
			return ret;
		if (unlikely(--left == 0)) {
			left = st->every;
			ret = bc_wait_check(s, &deadline, bench_msg_kind_name(st->want_kind),
					    bench_msg_kind_name(kind), st->seq);
			if (ret < 0)
				return ret;
		}
	}
	return 0;
}

/* Send kind/seq (len bytes) and wait for its reply, timing the round trip. */
static int
request(struct bc_sess *s, struct lat_state *st, uint32_t kind, uint32_t len, uint32_t want,
	uint32_t want_len)
{
	struct rte_comch_task_send *pending;
	uint64_t deadline = bc_deadline(s, BENCH_REPLY_TIMEOUT_S);
	uint64_t t0;
	uint8_t *buf;
	int ret;

	/* Buffers come back as earlier messages complete. */
	while ((buf = bc_buf_get(s)) == NULL) {
		ret = progress(s, st);
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
	t0 = rte_rdtsc();
	ret = bc_send(s, buf, len, &pending);
	/* With one message at a time the queue is never full; if it is, wait like any sender. */
	if (unlikely(ret == -EAGAIN))
		ret = bc_send_wait(s, pending, &s->res->eagain);
	if (ret < 0)
		return ret;
	ret = wait_reply(s, st, kind);
	st->rtt = rte_rdtsc() - t0;
	return ret;
}

/* Event mode: both sides quiet, then idle; the server's window is framed by SYNC and END. */
static int
idle_window(struct bc_sess *s, struct lat_state *st, double seconds)
{
	int ret;

	ret = request(s, st, BENCH_MSG_SYNC, BENCH_MSG_HDR_LEN, BENCH_MSG_SYNC_ACK,
		      BENCH_MSG_HDR_LEN);
	if (ret == 0)
		ret = bench_ev_idle(&st->ev, seconds);
	if (ret == 0)
		ret = bc_check_open(s, "the end of the idle window");
	/* END's seq is the number of DATA messages sent: none. */
	st->seq = 0;
	if (ret == 0)
		ret = request(s, st, BENCH_MSG_END, BENCH_MSG_HDR_LEN, BENCH_MSG_RESULT,
			      BENCH_MSG_RESULT_LEN);
	return ret;
}

int
comch_ctrl_lat_client(struct bench_ctx *bc, const struct bench_test *t, struct bench_result *res)
{
	const struct bench_opts *o = bc->opts;
	struct lat_state st = {
		.event = t->mode->event,
		/* A round that may sleep is worth a look every time. */
		.every = t->mode->event ? 1 : SPINS_PER_CHECK,
	};
	uint64_t *samples, total = o->warmup + o->iterations;
	struct bc_sess s;
	int ret;

	samples = bench_samples_alloc(o->iterations, res);
	if (samples == NULL)
		return res->status;
	ret = bc_client_open(&s, bc, t, res, on_msg, &st);
	if (ret == 0 && st.event)
		ret = bench_ev_init(&st.ev, res, bc->tsc_hz, s.pe, NULL);
	for (st.seq = 0; ret == 0 && st.seq < total; st.seq++) {
		ret = request(&s, &st, BENCH_MSG_PING, t->size, BENCH_MSG_PONG, t->size);
		if (st.seq >= o->warmup)
			samples[st.seq - o->warmup] = st.rtt;
	}
	res->verified = st.seq;
	if (ret == 0 && st.event)
		idle_window(&s, &st, o->idle);
	bc_close(&s);
	if (res->status == 0) {
		bench_stats_lat(res, samples, o->iterations, bc->tsc_hz);
		if (st.event)
			bench_ev_report(&st.ev, res);
	}
	free(samples);
	return res->status;
}
