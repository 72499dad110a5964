/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * fp-stream and fp-bw over memif, client side: comch's fp-stream with memif's
 * burst calls. Each round builds messages up to the burst (DATA, consecutive
 * sequence numbers, each written into an mbuf or a chain) and gives them to
 * rte_eth_tx_burst(); what the ring does not take goes first next round. As
 * over comch: --warmup messages, a SYNC the server answers once it has them
 * all, --duration seconds of sending, then an END the server answers with what
 * it received; the clock stops at that answer.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "bench_memif.h"
#include "bench_msg.h"
#include "bench_runners.h"
#include "bench_stall.h"
#include "bench_stats.h"

struct stream_state {
	struct bm_port p;
	uint32_t burst;
	uint64_t seq;                /* next message to hand to the PMD */
	struct rte_mbuf **pend;      /* built, not taken yet: seq, seq + 1... */
	uint32_t nb_pend;
	struct bench_tx_window tx;
	struct bench_stall stall;
};

/* Build messages up to a burst, then one tx_burst. */
static inline int
send_round(struct stream_state *st, uint64_t end)
{
	struct bm_port *p = &st->p;
	uint64_t c0;
	uint16_t n;

	while (st->nb_pend < st->burst && st->seq + st->nb_pend < end) {
		st->pend[st->nb_pend] = bm_build(p, BENCH_MSG_DATA, st->seq + st->nb_pend, p->len);
		if (unlikely(st->pend[st->nb_pend] == NULL))
			break;
		st->nb_pend++;
	}
	if (st->nb_pend == 0)
		return 0;
	c0 = bench_tx_t0(st->seq);
	n = rte_eth_tx_burst(p->port, 0, st->pend, st->nb_pend);
	bench_tx_sent_n(&st->tx, c0, n);
	st->seq += n;
	if (n < st->nb_pend) {
		st->tx.eagain++;
		memmove(st->pend, st->pend + n, (st->nb_pend - n) * sizeof(*st->pend));
	}
	st->nb_pend -= n;
	if (unlikely(bench_stalled(&st->stall, st->seq, p->tsc_hz)))
		return bench_fail(p->res, -ETIMEDOUT, "memif: nothing taken for %d s, %" PRIu64
				  " sent%s", BENCH_REPLY_TIMEOUT_S, st->seq,
				  bm_link_up(p) ? "" : ": the server went away");
	return 0;
}

static int
send_until(struct stream_state *st, uint64_t end)
{
	int ret = 0;

	while (ret == 0 && st->seq < end)
		ret = send_round(st, end);
	return ret;
}

int
memif_fp_stream_client(struct bench_ctx *bc, const struct bench_test *t,
		       struct bench_result *res)
{
	const struct bench_opts *o = bc->opts;
	struct stream_state st = { .burst = t->burst };
	uint64_t t_end;
	int ret;

	st.pend = calloc(st.burst, sizeof(*st.pend));
	if (st.pend == NULL)
		return bench_fail(res, -ENOMEM, "no memory for a burst of %" PRIu32, st.burst);
	ret = bm_open(&st.p, bc, t, res, false);
	bench_stall_init(&st.stall, 0, bc->tsc_hz);
	if (ret == 0)
		ret = send_until(&st, o->warmup);
	if (ret == 0)
		ret = bm_request(&st.p, BENCH_MSG_SYNC, st.seq, BENCH_MSG_SYNC_ACK);
	bench_tx_start(&st.tx, st.seq);
	t_end = st.tx.tsc_start + (uint64_t)(o->duration * bc->tsc_hz);
	while (ret == 0 && rte_rdtsc() < t_end)
		ret = send_round(&st, UINT64_MAX);
	/* Those built last go too: they carry sequence numbers. */
	if (ret == 0)
		ret = send_until(&st, st.seq + st.nb_pend);
	if (ret == 0)
		ret = bm_request(&st.p, BENCH_MSG_END, st.seq, BENCH_MSG_RESULT);
	bench_tx_stop(&st.tx);
	if (ret == 0 && (st.p.result.received != st.seq ||
			 st.p.result.bytes != st.seq * st.p.len))
		bench_fail(res, -EBADMSG, "sent %" PRIu64 " messages, the server received %"
			   PRIu64 " (%" PRIu64 " bytes)", st.seq, st.p.result.received,
			   st.p.result.bytes);
	if (ret == 0)
		bm_request(&st.p, BENCH_MSG_DONE, 0, BENCH_MSG_DONE_ACK);
	if (st.nb_pend != 0)
		rte_pktmbuf_free_bulk(st.pend, st.nb_pend);
	bm_close(&st.p);
	if (res->status == 0 && !res->skipped) {
		bench_tx_result(&st.tx, st.seq, t->size, bc->tsc_hz, res);
		res->verified = st.p.result.received;
	}
	free(st.pend);
	return res->status;
}
