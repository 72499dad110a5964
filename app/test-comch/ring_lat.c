/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * msgq-lat's ring baseline: the client's thread puts a PING in one rte_ring,
 * a thread on the server's CPU takes it, checks it and puts it back as a PONG
 * in the other ring, as msgq-lat's DPA program answers through the second
 * MsgQ. Timed like msgq-lat: from just before the PING is built to the check
 * of its PONG. An END, in place of a PING, ends the thread.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>

#include "bench_msg.h"
#include "bench_ring.h"
#include "bench_runners.h"
#include "bench_stats.h"

static void *
echo_main(void *arg)
{
	struct bench_ring *br = arg;
	struct bench_result *res = &br->thread_res;
	uint8_t msg[BENCH_MSGQ_MAX_SIZE + 4];
	struct bench_msg_hdr hdr;
	uint64_t seq;

	for (seq = 0;; seq++) {
		if (bench_ring_get(br, br->to_peer, msg, res) < 0)
			break;
		bench_msg_peek(msg, br->size, &hdr);
		if (hdr.kind == BENCH_MSG_END)
			return NULL;
		if (bench_msg_check(msg, br->size, BENCH_MSG_PING, seq, br->size, res) < 0)
			break;
		hdr.kind = BENCH_MSG_PONG;
		memcpy(msg, &hdr, sizeof(hdr));
		if (bench_ring_put(br, br->to_client, msg, NULL, res) < 0)
			break;
	}
	br->abort = true;
	return NULL;
}

int
ring_lat_client(struct bench_ctx *bc, const struct bench_test *t, struct bench_result *res)
{
	const struct bench_opts *o = bc->opts;
	uint64_t *samples, seq, total = o->warmup + o->iterations, t0;
	uint8_t msg[BENCH_MSGQ_MAX_SIZE + 4];
	struct bench_ring br = { .tid = 0 };
	int ret;

	samples = bench_samples_alloc(o->iterations, res);
	if (samples == NULL)
		return res->status;
	ret = bench_ring_open(&br, bc, t, true, echo_main, res);
	for (seq = 0; ret == 0 && seq < total; seq++) {
		t0 = rte_rdtsc();
		bench_msg_fill(msg, t->size, BENCH_MSG_PING, seq);
		ret = bench_ring_put(&br, br.to_peer, msg, NULL, res);
		if (ret == 0)
			ret = bench_ring_get(&br, br.to_client, msg, res);
		if (ret == 0)
			ret = bench_msg_check(msg, t->size, BENCH_MSG_PONG, seq, t->size, res);
		if (seq >= o->warmup)
			samples[seq - o->warmup] = rte_rdtsc() - t0;
	}
	res->verified = seq;
	if (br.started && ret == 0) {
		bench_msg_fill(msg, t->size, BENCH_MSG_END, seq);
		bench_ring_put(&br, br.to_peer, msg, NULL, res);
	}
	bench_ring_close(&br, res);
	if (res->status == 0)
		bench_stats_lat(res, samples, o->iterations, bc->tsc_hz);
	free(samples);
	return res->status;
}
