/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * fp-lat and fp-ev-lat over comch, client side: the client's producer sends a
 * PING to the server's consumer, the server's producer answers with a PONG to
 * the client's consumer, one at a time. The round trip runs from just before
 * the PING's task is allocated to the return of the fast-path progress call
 * whose consumer completion saw (and checked) the PONG. At size 0 both carry
 * immediate data only (the 16-byte header); otherwise also size bytes of data.
 *
 * fp-ev-lat (the mode's event flag) is the same ping-pong with both sides
 * sleeping on the notification fds of both their engines (the connection's
 * and the fast path's) whenever progress finds nothing to do. Then the idle
 * window, framed like ctrl-ev-lat's by control requests the fast-path server
 * answers: SYNC of the number of PINGs (which begins the server's window once
 * they all arrived), --idle seconds of sleeping, END (which ends it). The
 * set-up and the teardown poll in both modes.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "bench_event.h"
#include "bench_fp.h"
#include "bench_runners.h"
#include "bench_stats.h"

/* Busy-loop rounds between two looks at the clock and the connection. */
#define SPINS_PER_CHECK 4096

struct lat_state {
	bool event;            /* sleep when idle (fp-ev-lat) */
	struct bench_ev ev;    /* both engines, when event is set */
	unsigned int every;    /* rounds between two looks at the clock */
	uint64_t seq;          /* the PING in flight */
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

/* Progress until the PONG arrives: spinning, or in event mode sleeping when idle. */
static int
wait_pong(struct bf_side *f, struct lat_state *st)
{
	unsigned int left = st->every;
	uint64_t deadline = 0;
	int ret;

	while (!st->got_pong) {
		ret = st->event ? bf_progress_ev(f, &st->ev) : bf_progress(f);
		if (unlikely(ret < 0))
			return ret;
		if (unlikely(--left == 0)) {
			left = st->every;
			ret = bc_wait_check(f->s, &deadline, "PONG", "PING", st->seq);
			if (ret < 0)
				return ret;
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
		/* Polling in both modes: a buffer posted by the peer rings nobody. */
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

/* Event mode: the server's idle window, framed by SYNC and END of the PINGs sent. */
static int
idle_window(struct bf_side *f, struct lat_state *st, uint64_t total, double seconds)
{
	int ret;

	ret = bf_ctrl_request(f, BENCH_MSG_SYNC, total);
	if (ret == 0)
		ret = bench_ev_idle(&st->ev, seconds);
	if (ret == 0)
		ret = bf_ctrl_request(f, BENCH_MSG_END, total);
	if (ret == 0 && f->result.received != total)
		ret = bench_fail(f->res, -EBADMSG, "server received %" PRIu64 " PINGs, %" PRIu64
				 " sent", f->result.received, total);
	return ret;
}

int
comch_fp_lat_client(struct bench_ctx *bc, const struct bench_test *t, struct bench_result *res)
{
	const struct bench_opts *o = bc->opts;
	struct lat_state st = {
		.event = t->mode->event,
		/* A round that may sleep is worth a look every time. */
		.every = t->mode->event ? 1 : SPINS_PER_CHECK,
	};
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
	/* The fast path's engine first: the busy one, which says -EAGAIN first. */
	if (ret == 0 && st.event)
		ret = bench_ev_init(&st.ev, res, bc->tsc_hz, f.pe, s.pe);
	for (st.seq = 0; ret == 0 && st.seq < total; st.seq++) {
		ret = ping(&f, &st, &rtt);
		if (st.seq >= o->warmup)
			samples[st.seq - o->warmup] = rtt;
	}
	res->verified = st.seq;
	if (ret == 0 && st.event)
		idle_window(&f, &st, total, o->idle);
	/* Our side down first, then the server's, then the connection. */
	if (bf_close(&f) == 0)
		bf_ctrl_request(&f, BENCH_MSG_DONE, 0);
	bc_close(&s);
	if (res->status == 0) {
		bench_stats_lat(res, samples, o->iterations, bc->tsc_hz);
		if (st.event)
			bench_ev_report(&st.ev, res);
	}
	free(samples);
	return res->status;
}
