/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * msgq-rate's ring baseline: the client's thread puts DATA messages, one per
 * call as a MsgQ send task carries one, in an rte_ring as fast as it takes
 * them; a thread on the server's CPU takes them one per call and checks each.
 * Measured like msgq-rate: the sender's window after the warm-up, its
 * messages, its thread's CPU time and the puts refused (ring full); the
 * receiver's CPU time per message over the same messages. An END with the
 * number sent ends the receiver, which fails unless it took them all.
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_cycles.h>
#include <rte_pause.h>

#include "bench_msg.h"
#include "bench_ring.h"
#include "bench_runners.h"
#include "bench_stall.h"
#include "bench_stats.h"

struct rate_state {
	uint64_t warmup;
};

static void *
sink_main(void *arg)
{
	struct bench_ring *br = arg;
	const struct rate_state *st = br->priv;
	struct bench_result *res = &br->thread_res;
	uint8_t msg[BENCH_MSGQ_MAX_SIZE + 4];
	struct bench_rx_window w = { .started = false };
	struct bench_msg_hdr hdr;
	uint64_t seq;

	for (seq = 0;; seq++) {
		if (seq == st->warmup)
			bench_rx_start(&w, seq);
		if (bench_ring_get(br, br->to_peer, msg, res) < 0)
			break;
		bench_msg_peek(msg, br->size, &hdr);
		if (hdr.kind == BENCH_MSG_END) {
			bench_rx_stop(&w, seq);
			if (hdr.seq != seq) {
				bench_fail(res, -EBADMSG, "%" PRIu64 " messages sent, %" PRIu64
					   " received", hdr.seq, seq);
				break;
			}
			bench_rx_result(&w, 1, res);
			return NULL;
		}
		if (bench_msg_check(msg, br->size, BENCH_MSG_DATA, seq, br->size, res) < 0)
			break;
	}
	br->abort = true;
	return NULL;
}

int
ring_rate_client(struct bench_ctx *bc, const struct bench_test *t, struct bench_result *res)
{
	const struct bench_opts *o = bc->opts;
	struct rate_state st = { .warmup = o->warmup };
	uint8_t msg[BENCH_MSGQ_MAX_SIZE + 4];
	struct bench_ring br = { .priv = &st, .pause = true };
	struct bench_tx_window w = { .eagain = 0 };
	struct bench_stall stall;
	uint64_t sent = 0, t0, end;
	int ret;

	ret = bench_ring_open(&br, bc, t, false, sink_main, res);
	for (; ret == 0 && sent < o->warmup; sent++) {
		bench_msg_fill(msg, t->size, BENCH_MSG_DATA, sent);
		ret = bench_ring_put(&br, br.to_peer, msg, NULL, res);
	}
	bench_stall_init(&stall, sent, bc->tsc_hz);
	bench_tx_start(&w, sent);
	end = w.tsc_start + (uint64_t)(o->duration * bc->tsc_hz);
	while (ret == 0 && rte_rdtsc() < end) {
		t0 = bench_tx_t0(sent);
		bench_msg_fill(msg, t->size, BENCH_MSG_DATA, sent);
		if (likely(rte_ring_sp_enqueue_elem(br.to_peer, msg, br.esize) == 0)) {
			bench_tx_sent(&w, t0);
			sent++;
			continue;
		}
		w.eagain++;
		rte_pause();
		if (unlikely(br.abort))
			ret = bench_fail(res, -EPIPE, "the receiving thread failed");
		else if (bench_stalled(&stall, sent, bc->tsc_hz))
			ret = bench_fail(res, -ETIMEDOUT, "ring full for %d s",
					 BENCH_REPLY_TIMEOUT_S);
	}
	bench_tx_stop(&w);
	if (ret == 0) {
		bench_msg_fill(msg, t->size, BENCH_MSG_END, sent);
		ret = bench_ring_put(&br, br.to_peer, msg, NULL, res);
	}
	bench_ring_close(&br, res);
	res->verified = sent;
	if (res->status == 0) {
		bench_tx_result(&w, sent, t->size, bc->tsc_hz, res);
		res->rx_cyc_per_msg = br.thread_res.rx_cyc_per_msg;
	}
	return res->status;
}
