/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * fp-lat over memif, client side: the PING/PONG of comch's fp-lat, timed the
 * same way, from just before the PING is built to the PONG received and
 * checked. The client writes each PING into an mbuf; the server answers with
 * a PONG it writes the same way.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include <rte_cycles.h>
#include <rte_mbuf.h>

#include "bench_memif.h"
#include "bench_msg.h"
#include "bench_runners.h"
#include "bench_stats.h"

int
memif_fp_lat_client(struct bench_ctx *bc, const struct bench_test *t, struct bench_result *res)
{
	const struct bench_opts *o = bc->opts;
	uint64_t *samples, seq, total = o->warmup + o->iterations, t0;
	struct rte_mbuf *m;
	struct bm_port p;
	int ret;

	samples = bench_samples_alloc(o->iterations, res);
	if (samples == NULL)
		return res->status;
	ret = bm_open(&p, bc, t, res, false);
	for (seq = 0; ret == 0 && seq < total; seq++) {
		t0 = rte_rdtsc();
		ret = bm_send(&p, bm_build(&p, BENCH_MSG_PING, seq, p.len));
		if (ret == 0)
			ret = bm_recv(&p, &m);
		if (ret < 0)
			break;
		ret = bm_check(&p, m, BENCH_MSG_PONG, seq, p.len);
		rte_pktmbuf_free(m);
		if (seq >= o->warmup)
			samples[seq - o->warmup] = rte_rdtsc() - t0;
	}
	res->verified = seq;
	if (ret == 0)
		bm_request(&p, BENCH_MSG_DONE, 0, BENCH_MSG_DONE_ACK);
	bm_close(&p);
	if (res->status == 0 && !res->skipped)
		bench_stats_lat(res, samples, o->iterations, bc->tsc_hz);
	free(samples);
	return res->status;
}
