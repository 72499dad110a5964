/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Server side of the memif baselines of fp-lat, fp-stream and fp-bw: receive
 * bursts, let the responder check each message and say what to answer (PONG,
 * SYNC_ACK, RESULT), send the answers, until the client's DONE. Then wait for
 * the client to go, so that the DONE_ACK is read before the port closes.
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "bench_memif.h"
#include "bench_msg.h"
#include "bench_responder.h"
#include "bench_runners.h"
#include "bench_stall.h"

#define RX_BURST 32

struct memif_server {
	struct bm_port p;
	struct bench_responder r;
	struct rte_mbuf *tx[RX_BURST];
	unsigned int nb_tx;
	bool done;                   /* DONE received and answered */
};

/* The answer the responder says is due (or DONE_ACK), into an mbuf. */
static int
answer(struct memif_server *sv)
{
	uint8_t small[BENCH_CTRL_MSG_ROOM];
	struct bench_msg_result result;
	struct rte_mbuf *m;

	switch (sv->r.reply_kind) {
	case BENCH_MSG_PONG:
		m = bm_build(&sv->p, BENCH_MSG_PONG, sv->r.reply_seq, sv->p.len);
		break;
	case BENCH_MSG_RESULT:
		/* The responder's counts, in a message of memif's one shape. */
		bench_responder_reply(&sv->r, small);
		memcpy(&result, small + BENCH_MSG_HDR_LEN, sizeof(result));
		m = bm_build_result(&sv->p, sv->r.reply_seq, &result);
		break;
	default:
		m = bm_build(&sv->p, sv->r.reply_kind, sv->r.reply_seq, sv->p.ctl_len);
	}
	if (m == NULL)
		return bench_fail(sv->p.res, -ENOBUFS, "memif: mbuf pool empty");
	sv->tx[sv->nb_tx++] = m;
	return 0;
}

static int
serve_one(struct memif_server *sv, const struct rte_mbuf *m)
{
	struct iovec iov[BM_MAX_SEGS];
	struct bench_msg_hdr hdr = { 0 };
	unsigned int n = bm_iov(m, iov, RTE_DIM(iov));
	int ret;

	if (n != 0 && bench_msg_peek(iov[0].iov_base, iov[0].iov_len, &hdr) == 0 &&
	    hdr.kind == BENCH_MSG_DONE) {
		sv->done = true;
		sv->r.reply_kind = BENCH_MSG_DONE_ACK;
		sv->r.reply_seq = hdr.seq;
		return answer(sv);
	}
	ret = bench_responder_handle_iov(&sv->r, iov, n);
	return ret > 0 ? answer(sv) : ret;
}

/* Send every answer due; the ring has room for them unless the client stopped reading. */
static int
flush(struct memif_server *sv)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i < sv->nb_tx; i++)
		if (ret == 0)
			ret = bm_send(&sv->p, sv->tx[i]);
		else
			rte_pktmbuf_free(sv->tx[i]);
	sv->nb_tx = 0;
	return ret;
}

/* After DONE_ACK: the client closes its side once it has read it. */
static int
wait_client_gone(struct memif_server *sv)
{
	uint64_t deadline = rte_rdtsc() + BENCH_REPLY_TIMEOUT_S * sv->p.tsc_hz;

	while (bm_link_up(&sv->p))
		if (rte_rdtsc() > deadline)
			return bench_fail(sv->p.res, -ETIMEDOUT, "memif: the client stayed "
					  "connected %d s after DONE", BENCH_REPLY_TIMEOUT_S);
	return 0;
}

int
memif_fp_serve(struct bench_ctx *bc, const struct bench_test *t, struct bench_result *res)
{
	struct memif_server sv = { .nb_tx = 0 };
	struct rte_mbuf *rx[RX_BURST];
	unsigned int i, n, spins = 0;
	int ret;

	bench_responder_init(&sv.r, t, res);
	/* memif carries the header in the message: size bytes after it, as comch's data. */
	sv.r.size = t->size + BENCH_MSG_HDR_LEN;
	ret = bm_open(&sv.p, bc, t, res, true);
	while (ret == 0 && !sv.done) {
		n = rte_eth_rx_burst(sv.p.port, 0, rx, RX_BURST);
		if (n == 0) {
			if (unlikely(++spins % BENCH_STALL_SPINS == 0 && !bm_link_up(&sv.p)))
				ret = bench_fail(res, -ECONNRESET, "memif: the client went away "
						 "before DONE");
			continue;
		}
		for (i = 0; i < n; i++)
			if (ret == 0)
				ret = serve_one(&sv, rx[i]);
		rte_pktmbuf_free_bulk(rx, n);
		if (sv.nb_tx != 0)
			ret = flush(&sv) < 0 && ret == 0 ? res->status : ret;
	}
	if (ret == 0)
		wait_client_gone(&sv);
	bm_close(&sv.p);
	bench_responder_finish(&sv.r);
	return res->status;
}
