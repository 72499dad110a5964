/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * ep-lat and ep-lat-epoll, client side: the PING/PONG exchange of ctrl-lat
 * over the endpoint API, one PING in flight, timed as its Unix-socket baseline
 * is: from just before sendto() to the PONG taken by recvfrom() and checked.
 * ep-lat polls recvfrom(); ep-lat-epoll sleeps in epoll_wait() on the event
 * channels whenever there is nothing to take (both sides).
 */

#include <errno.h>
#include <stdlib.h>

#include <rte_common.h>
#include <rte_cycles.h>

#include "bench_ep.h"
#include "bench_msg.h"
#include "bench_runners.h"
#include "bench_stats.h"

int
ep_lat_client(struct bench_ctx *bc, const struct bench_test *t, struct bench_result *res)
{
	const struct bench_opts *o = bc->opts;
	const uint32_t size = bench_wire_size(t);
	const uint32_t cap = RTE_MAX(size, (uint32_t)BENCH_CTRL_MSG_ROOM);
	uint64_t *samples, seq = 0, total = o->warmup + o->iterations, t0;
	uint8_t *ping, *pong;
	struct bench_ep e = { .ep = NULL, .epfd = -1 };
	int n, ret;

	samples = bench_samples_alloc(o->iterations, res);
	ping = malloc(cap);
	pong = malloc(cap);
	if (samples == NULL || ping == NULL || pong == NULL) {
		bench_fail(res, -ENOMEM, "out of memory");
		goto out;
	}
	ret = bep_connect(&e, bc, t, res);
	for (; ret == 0 && seq < total; seq++) {
		bench_msg_fill(ping, size, BENCH_MSG_PING, seq);
		t0 = rte_rdtsc();
		ret = bep_send(&e, ping, size);
		if (ret != 0)
			break;
		n = bep_recv(&e, pong, cap);
		if (n <= 0)
			break;
		ret = bench_msg_check(pong, n, BENCH_MSG_PONG, seq, size, res);
		if (seq >= o->warmup)
			samples[seq - o->warmup] = rte_rdtsc() - t0;
	}
	res->verified = seq;
	res->eagain = e.eagain;
	res->wakeups = e.wakeups;
	res->ev_timeouts = e.timeouts;
	bep_close(&e);
	if (res->status == 0)
		bench_stats_lat(res, samples, o->iterations, bc->tsc_hz);
out:
	free(samples);
	free(ping);
	free(pong);
	return res->status;
}
