/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_pause.h>

#include "bench_ring.h"

/* Spins between two looks at the clock and at the other thread. */
#define SPINS_PER_CHECK 4096

static struct rte_ring *
ring_make(const char *what, const struct bench_test *t, uint32_t esize, uint32_t depth,
	  struct bench_result *res)
{
	char name[RTE_RING_NAMESIZE];
	struct rte_ring *r;

	snprintf(name, sizeof(name), "bench_%s_%u", what, t->id);
	r = rte_ring_create_elem(name, esize, depth, SOCKET_ID_ANY,
				 RING_F_SP_ENQ | RING_F_SC_DEQ | RING_F_EXACT_SZ);
	if (r == NULL)
		bench_fail(res, -rte_errno, "rte_ring_create_elem(%s): %s", name,
			   rte_strerror(rte_errno));
	return r;
}

int
bench_ring_open(struct bench_ring *br, struct bench_ctx *bc, const struct bench_test *t,
		bool two_way, void *(*fn)(void *), struct bench_result *res)
{
	int ret;

	br->size = t->size;
	br->esize = RTE_ALIGN_CEIL(t->size, 4);
	bench_result_init(&br->thread_res, t, BENCH_SIDE_CLIENT);
	br->thread_res.tsc_hz = bc->tsc_hz;
	ret = bench_local_begin(&br->local, bc, t, res);
	if (ret < 0)
		return ret;
	br->to_peer = ring_make("req", t, br->esize, bench_msgq_depth(bc->opts), res);
	if (br->to_peer == NULL)
		return res->status;
	if (two_way) {
		br->to_client = ring_make("rsp", t, br->esize, bench_msgq_depth(bc->opts), res);
		if (br->to_client == NULL)
			return res->status;
	}
	ret = bench_local_thread_start(&br->tid, fn, br, bench_local_cpu(bc), res);
	br->started = ret == 0;
	return ret;
}

void
bench_ring_close(struct bench_ring *br, struct bench_result *res)
{
	/* Failed: the thread may wait for messages that will never come. */
	if (res->status != 0)
		br->abort = true;
	if (br->started)
		pthread_join(br->tid, NULL);
	br->started = false;
	if (br->thread_res.status != 0)
		bench_fail(res, br->thread_res.status, "%s", br->thread_res.error);
	rte_ring_free(br->to_peer);
	rte_ring_free(br->to_client);
	br->to_peer = NULL;
	br->to_client = NULL;
	bench_local_end(&br->local);
}

/* A look every SPINS_PER_CHECK spins: the other end failed, or nothing moved for long. */
static int
ring_check(struct bench_ring *br, uint64_t *deadline, const char *what,
	   struct bench_result *res)
{
	if (br->abort)
		return bench_fail(res, -EPIPE, "the other end failed");
	if (*deadline == 0)
		*deadline = rte_rdtsc() + BENCH_REPLY_TIMEOUT_S * rte_get_tsc_hz();
	else if (rte_rdtsc() > *deadline)
		return bench_fail(res, -ETIMEDOUT, "ring %s for %d s", what,
				  BENCH_REPLY_TIMEOUT_S);
	return 0;
}

int
bench_ring_put(struct bench_ring *br, struct rte_ring *r, const void *msg, uint64_t *full,
	       struct bench_result *res)
{
	uint64_t deadline = 0;
	unsigned int spins = 0;
	int ret;

	while (unlikely(rte_ring_sp_enqueue_elem(r, (void *)(uintptr_t)msg, br->esize) != 0)) {
		if (full != NULL)
			(*full)++;
		if (br->pause)
			rte_pause();
		if (unlikely(++spins % SPINS_PER_CHECK == 0)) {
			ret = ring_check(br, &deadline, "full", res);
			if (ret < 0)
				return ret;
		}
	}
	return 0;
}

int
bench_ring_get(struct bench_ring *br, struct rte_ring *r, void *msg, struct bench_result *res)
{
	uint64_t deadline = 0;
	unsigned int spins = 0;
	int ret;

	while (rte_ring_sc_dequeue_elem(r, msg, br->esize) != 0) {
		if (br->pause)
			rte_pause();
		if (unlikely(++spins % SPINS_PER_CHECK == 0)) {
			ret = ring_check(br, &deadline, "empty", res);
			if (ret < 0)
				return ret;
		}
	}
	return 0;
}
