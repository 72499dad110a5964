/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * ctrl-lat over comch, client side: one PING in flight at a time; the round trip
 * runs from just before the send task is allocated to the return of the progress
 * call whose receive callback saw (and checked) the PONG.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "bench_comch.h"
#include "bench_msg.h"
#include "bench_runners.h"
#include "bench_stats.h"

/* Busy-loop rounds between two looks at the clock for a timeout. */
#define SPINS_PER_CHECK 4096

struct lat_state {
	uint64_t seq;  /* the PING in flight */
	uint32_t size;
	bool got_pong;
};

static void
on_msg(struct bc_sess *s, const uint8_t *msg, uint32_t len)
{
	struct lat_state *st = s->priv;

	if (bench_msg_check(msg, len, BENCH_MSG_PONG, st->seq, st->size, s->res) == 0)
		st->got_pong = true;
}

/* Progress until the PONG of st->seq arrives. */
static int
wait_pong(struct bc_sess *s, struct lat_state *st)
{
	uint64_t deadline = 0;
	unsigned int spins = 0;
	int ret;

	while (!st->got_pong) {
		ret = bc_progress(s);
		if (unlikely(ret < 0))
			return ret;
		if (unlikely(++spins % SPINS_PER_CHECK == 0)) {
			ret = bc_check_open(s, "a PONG");
			if (ret < 0)
				return ret;
			if (deadline == 0)
				deadline = bc_deadline(s, BENCH_REPLY_TIMEOUT_S);
			else if (rte_rdtsc() > deadline)
				return bench_fail(s->res, -ETIMEDOUT, "no PONG for PING %" PRIu64
						  " after %d s", st->seq, BENCH_REPLY_TIMEOUT_S);
		}
	}
	return 0;
}

static uint8_t *
get_buf(struct bc_sess *s)
{
	uint64_t deadline = bc_deadline(s, BENCH_REPLY_TIMEOUT_S);
	uint8_t *buf;

	/* Buffers come back as earlier PINGs complete. */
	while ((buf = bc_buf_get(s)) == NULL) {
		if (bc_progress(s) < 0)
			return NULL;
		if (rte_rdtsc() > deadline) {
			bench_fail(s->res, -ETIMEDOUT, "earlier PINGs not completed after %d s",
				   BENCH_REPLY_TIMEOUT_S);
			return NULL;
		}
	}
	return buf;
}

static int
ping(struct bc_sess *s, struct lat_state *st, uint64_t *rtt)
{
	struct rte_comch_task_send *pending;
	uint64_t t0;
	uint8_t *buf;
	int ret;

	buf = get_buf(s);
	if (buf == NULL)
		return s->res->status;
	bench_msg_fill(buf, st->size, BENCH_MSG_PING, st->seq);
	st->got_pong = false;

	t0 = rte_rdtsc();
	ret = bc_send(s, buf, st->size, &pending);
	/* With one PING at a time the queue is never full; if it is, wait like any sender. */
	if (unlikely(ret == -EAGAIN))
		ret = bc_send_wait(s, pending, &s->res->eagain);
	if (ret < 0)
		return ret;
	ret = wait_pong(s, st);
	*rtt = rte_rdtsc() - t0;
	return ret;
}

int
comch_ctrl_lat_client(struct bench_ctx *bc, const struct bench_test *t, struct bench_result *res)
{
	const struct bench_opts *o = bc->opts;
	struct lat_state st = { .size = t->size };
	uint64_t *samples, total = o->warmup + o->iterations, rtt = 0;
	struct bc_sess s;
	int ret;

	samples = bench_samples_alloc(o->iterations, res);
	if (samples == NULL)
		return res->status;
	ret = bc_client_open(&s, bc, t, res, on_msg, &st);
	for (st.seq = 0; ret == 0 && st.seq < total; st.seq++) {
		ret = ping(&s, &st, &rtt);
		if (st.seq >= o->warmup)
			samples[st.seq - o->warmup] = rtt;
	}
	res->verified = st.seq;
	bc_close(&s);
	if (res->status == 0)
		bench_stats_lat(res, samples, o->iterations, bc->tsc_hz);
	free(samples);
	return res->status;
}
