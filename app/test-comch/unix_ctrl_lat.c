/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * ctrl-lat baseline, client side: the same PING/PONG exchange as over comch,
 * timed the same way: from just before the send to the PONG received and checked.
 * It is also the baseline of fp-lat.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include <rte_common.h>
#include <rte_cycles.h>

#include "bench_msg.h"
#include "bench_runners.h"
#include "bench_stats.h"
#include "bench_unix.h"

int
unix_ctrl_lat_client(struct bench_ctx *bc, const struct bench_test *t, struct bench_result *res)
{
	const struct bench_opts *o = bc->opts;
	/* A fast-path test of 0 bytes compares with a header-only message. */
	const uint32_t size = bench_wire_size(t);
	uint64_t *samples, seq, total = o->warmup + o->iterations, t0, t1;
	uint32_t cap = RTE_MAX(size, (uint32_t)BENCH_CTRL_MSG_ROOM);
	uint8_t *ping, *pong;
	struct bu_conn c;
	int n, ret, limit = 0;

	samples = bench_samples_alloc(o->iterations, res);
	ping = malloc(cap);
	pong = malloc(cap);
	if (samples == NULL || ping == NULL || pong == NULL) {
		bench_fail(res, -ENOMEM, "out of memory");
		goto out;
	}
	ret = bu_connect(&c, bc, t, res);
	if (ret == 0 && bu_fit(&c, size, &limit) < 0) {
		bench_skip(res, "a %" PRIu32 "-byte datagram does not fit a Unix socket here "
			   "(send buffer %d bytes, see net.core.wmem_max)", size, limit);
		ret = 1;
	}
	c.probe = true;
	for (seq = 0; ret == 0 && seq < total; seq++) {
		bench_msg_fill(ping, size, BENCH_MSG_PING, seq);
		t0 = rte_rdtsc();
		ret = bu_send(&c, ping, size);
		if (ret == -ENOBUFS && res->status == 0) {
			bench_skip(res, "a %" PRIu32 "-byte datagram is more than this kernel "
				   "allocates for a Unix socket (ENOBUFS)", size);
			ret = 1;
		}
		if (ret != 0)
			break;
		n = bu_recv(&c, pong, cap, false);
		if (n == 0)
			ret = bench_fail(res, -ECONNRESET, "server closed the connection");
		if (n <= 0)
			break;
		ret = bench_msg_check(pong, n, BENCH_MSG_PONG, seq, size, res);
		t1 = rte_rdtsc();
		if (seq >= o->warmup)
			samples[seq - o->warmup] = t1 - t0;
	}
	res->verified = seq;
	bu_close(&c);
	if (res->status == 0 && !res->skipped)
		bench_stats_lat(res, samples, o->iterations, bc->tsc_hz);
out:
	free(samples);
	free(ping);
	free(pong);
	return res->status;
}
