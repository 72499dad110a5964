/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * msgq-rate: one-way floods of DATA through one MsgQ, each way (t->dir).
 *
 * CPU -> DPA: the CPU's producer sends one DATA per send task, progressing its
 * engine after each (which reaps the completions) and pausing after a send
 * refused for want of a receive, as the ring row's sender does, for
 * --duration seconds after the warm-up; comch-burst sends one per burst call
 * instead, reaping and progressing every 16 sends (bench_msgq_round()); the
 * DPA program checks each and gives its receive back at once (SINK). An END
 * with the number sent is answered by a RESULT through the second MsgQ once
 * the program has taken them all.
 *
 * DPA -> CPU: a SYNC starts the program's flood (SOURCE), which sends DATA as
 * long as the CPU consumer has receives posted; the CPU checks each and posts
 * its receive again; after the warm-up it counts for --duration seconds, then
 * sends END, and the program answers with a RESULT of how many it sent, after
 * the last DATA.
 *
 * Either way the row gives the messages of the measured window over its time,
 * the sender's CPU cycles per message (the program's: its unit's thread CPU
 * time) and the receiver's, and the sends refused for want of a receive.
 */

#include <errno.h>
#include <inttypes.h>

#include <rte_pause.h>

#include "bench_msg.h"
#include "bench_msgq.h"
#include "bench_runners.h"
#include "bench_stall.h"
#include "bench_stats.h"

#define SPINS_PER_CHECK 4096

struct rate_state {
	uint64_t rx;                  /* DATA received from the DPA */
	uint64_t result;              /* the RESULT's count */
	bool got_result;
};

static void
on_recv(struct bench_msgq *m, const uint8_t *imm, uint32_t len)
{
	struct rate_state *st = m->priv;
	struct bench_msg_hdr hdr;

	if (bench_msg_peek(imm, len, &hdr) == 0 && hdr.kind == BENCH_MSG_RESULT) {
		if (bench_msg_check(imm, len, BENCH_MSG_RESULT, hdr.seq, m->size, m->res) == 0) {
			st->result = hdr.seq;
			st->got_result = true;
		}
		return;
	}
	bench_msg_check(imm, len, BENCH_MSG_DATA, st->rx++, m->size, m->res);
}

/* Progress until the RESULT arrives. */
static int
wait_result(struct bench_msgq *m, struct rate_state *st)
{
	unsigned int spins = 0;
	uint64_t deadline = 0;
	int ret = 0;

	while (ret == 0 && !st->got_result) {
		ret = bench_msgq_progress(m);
		if (ret == 0 && ++spins % SPINS_PER_CHECK == 0)
			ret = bench_msgq_look(m, &deadline, "RESULT");
	}
	return ret;
}

/* The program's CPU cycles per message over its measured messages; 0 if none. */
static double
prog_cyc(const struct bench_msgq *m)
{
	return m->args.cpu_msgs == 0 ? 0 : m->args.cpu_s * m->tsc_hz / m->args.cpu_msgs;
}

static int
to_dpa(struct bench_msgq *m, struct rate_state *st, const struct bench_opts *o)
{
	struct bench_tx_window w = { .eagain = 0 };
	struct bench_result *res = m->res;
	struct bench_stall stall;
	uint64_t sent, t0, end, deadline = 0;
	int ret = 0;

	for (sent = 0; ret == 0 && sent < o->warmup; sent++)
		ret = bench_msgq_send_wait(m, BENCH_MSG_DATA, sent);
	bench_stall_init(&stall, sent, m->tsc_hz);
	bench_tx_start(&w, sent);
	end = w.tsc_start + (uint64_t)(o->duration * m->tsc_hz);
	while (ret == 0 && rte_rdtsc() < end) {
		t0 = bench_tx_t0(sent);
		ret = bench_msgq_send(m, BENCH_MSG_DATA, sent);
		if (likely(ret == 0)) {
			bench_tx_sent(&w, t0);
			sent++;
		} else if (ret == -EAGAIN) {
			/* No receive offered: pause, as the ring sender does, then try again. */
			w.eagain++;
			ret = 0;
			rte_pause();
			if (bench_stall_due(&stall) && bench_stall_expired(&stall, sent, m->tsc_hz))
				ret = bench_msgq_look(m, &deadline, "receive offered by the DPA");
		}
		if (ret == 0)
			ret = bench_msgq_round(m);
	}
	bench_tx_stop(&w);
	if (ret == 0)
		ret = bench_msgq_send_wait(m, BENCH_MSG_END, sent);
	if (ret == 0)
		ret = wait_result(m, st);
	if (ret == 0 && st->result != sent)
		ret = bench_fail(res, -EBADMSG, "%" PRIu64 " DATA sent, the DPA took %" PRIu64,
				 sent, st->result);
	res->verified = sent;
	if (ret == 0)
		bench_tx_result(&w, sent, m->size, m->tsc_hz, res);
	return ret;
}

static int
from_dpa(struct bench_msgq *m, struct rate_state *st, const struct bench_opts *o)
{
	struct bench_rx_window w = { .started = false };
	struct bench_result *res = m->res;
	struct bench_stall stall;
	uint64_t t0 = 0, t1, end, deadline = 0;
	unsigned int spins = 0;
	int ret;

	ret = bench_msgq_send_wait(m, BENCH_MSG_SYNC, 0);
	while (ret == 0 && st->rx < o->warmup) {
		ret = bench_msgq_progress(m);
		if (ret == 0 && ++spins % SPINS_PER_CHECK == 0)
			ret = bench_msgq_look(m, &deadline, "DATA from the DPA");
	}
	bench_rx_start(&w, st->rx);
	bench_stall_init(&stall, st->rx, m->tsc_hz);
	t0 = rte_rdtsc();
	end = t0 + (uint64_t)(o->duration * m->tsc_hz);
	deadline = 0;
	while (ret == 0 && rte_rdtsc() < end) {
		ret = bench_msgq_progress(m);
		if (ret == 0 && bench_stall_due(&stall) &&
		    bench_stall_expired(&stall, st->rx, m->tsc_hz))
			ret = bench_msgq_look(m, &deadline, "DATA from the DPA");
	}
	t1 = rte_rdtsc();
	bench_rx_stop(&w, st->rx);
	if (ret == 0)
		ret = bench_msgq_send_wait(m, BENCH_MSG_END, 0);
	if (ret == 0)
		ret = wait_result(m, st);
	if (ret == 0 && st->result != st->rx)
		ret = bench_fail(res, -EBADMSG, "the DPA sent %" PRIu64 " DATA, %" PRIu64
				 " received", st->result, st->rx);
	res->verified = st->rx;
	if (ret == 0) {
		/* The sender is the program: its cycles come with the teardown's read-back. */
		bench_stats_stream(res, w.msgs_stop - w.msgs_start, m->size, t1 - t0, 0, 0, 0,
				   m->tsc_hz);
		bench_rx_result(&w, 1, res);
	}
	return ret;
}

int
msgq_rate_client(struct bench_ctx *bc, const struct bench_test *t, struct bench_result *res)
{
	const bool out = t->dir == BENCH_DIR_TO_DPA;
	struct rate_state st = { .rx = 0 };
	struct bench_msgq m;
	int ret;

	ret = bench_msgq_open(&m, bc, t, out ? BENCH_MSGQ_SINK : BENCH_MSGQ_SOURCE, on_recv,
			      &st, res);
	if (ret == 0)
		ret = out ? to_dpa(&m, &st, bc->opts) : from_dpa(&m, &st, bc->opts);
	bench_msgq_close(&m);
	if (res->status != 0)
		return res->status;
	if (out) {
		res->rx_cyc_per_msg = prog_cyc(&m);
	} else {
		res->cyc_per_msg = prog_cyc(&m);
		res->eagain = m.args.eagain;
	}
	return 0;
}
