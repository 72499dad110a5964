/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * msgq-lat: the CPU sends a PING to the DPA consumer through the first MsgQ;
 * the DPA program, woken by its completion, checks it and answers with a PONG
 * through the second MsgQ, to the CPU consumer's posted receive. One at a
 * time; the round trip runs from just before the PING's send task is taken to
 * the return of the progress call whose receive completion checked the PONG.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "bench_msg.h"
#include "bench_msgq.h"
#include "bench_runners.h"
#include "bench_stats.h"

/* Progress rounds between two looks at the clock and at the program. */
#define SPINS_PER_CHECK 4096

struct lat_state {
	uint64_t seq;                 /* the PING in flight */
	bool got_pong;
};

static void
on_recv(struct bench_msgq *m, const uint8_t *imm, uint32_t len)
{
	struct lat_state *st = m->priv;

	if (bench_msg_check(imm, len, BENCH_MSG_PONG, st->seq, m->size, m->res) == 0)
		st->got_pong = true;
}

static int
ping(struct bench_msgq *m, struct lat_state *st)
{
	unsigned int spins = 0;
	uint64_t deadline = 0;
	int ret;

	st->got_pong = false;
	ret = bench_msgq_send(m, BENCH_MSG_PING, st->seq);
	/* With one PING at a time the program always has a receive offered. */
	if (unlikely(ret == -EAGAIN))
		ret = bench_msgq_send_wait(m, BENCH_MSG_PING, st->seq);
	while (ret == 0 && !st->got_pong) {
		ret = bench_msgq_progress(m);
		if (unlikely(ret == 0 && ++spins % SPINS_PER_CHECK == 0))
			ret = bench_msgq_look(m, &deadline, "PONG");
	}
	return ret;
}

int
msgq_lat_client(struct bench_ctx *bc, const struct bench_test *t, struct bench_result *res)
{
	const struct bench_opts *o = bc->opts;
	uint64_t *samples, total = o->warmup + o->iterations, t0;
	struct lat_state st = { .seq = 0 };
	struct bench_msgq m;
	int ret;

	samples = bench_samples_alloc(o->iterations, res);
	if (samples == NULL)
		return res->status;
	ret = bench_msgq_open(&m, bc, t, BENCH_MSGQ_ECHO, on_recv, &st, res);
	for (st.seq = 0; ret == 0 && st.seq < total; st.seq++) {
		t0 = rte_rdtsc();
		ret = ping(&m, &st);
		if (st.seq >= o->warmup)
			samples[st.seq - o->warmup] = rte_rdtsc() - t0;
	}
	res->verified = st.seq;
	bench_msgq_close(&m);
	if (res->status == 0 && m.args.received != total)
		bench_fail(res, -EBADMSG, "the DPA program received %" PRIu64 " PINGs, %" PRIu64
			   " sent", m.args.received, total);
	if (res->status == 0)
		bench_stats_lat(res, samples, o->iterations, bc->tsc_hz);
	free(samples);
	return res->status;
}
