/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef BENCH_RING_H
#define BENCH_RING_H

/*
 * The ring baseline of the MsgQ modes: what the same exchange costs between
 * two threads of one process with the plainest DPDK tool, a single-producer
 * single-consumer rte_ring each way, holding the same messages by value (the
 * 16 to 32 bytes of a MsgQ's immediate data) and as deep as a MsgQ test's
 * offered receives (bench_msgq_depth()). The client's thread is one end; the
 * other end is a pthread on the server's CPU, where the software DPA's unit
 * runs in the MsgQ rows.
 */

#include <stdbool.h>
#include <stdint.h>
#include <pthread.h>

#include <rte_ring.h>

#include "bench.h"
#include "bench_local.h"

struct bench_ring {
	struct bench_local local;
	struct rte_ring *to_peer;     /* client -> thread */
	struct rte_ring *to_client;   /* thread -> client; NULL for a one-way test */
	uint32_t size;                /* message bytes */
	uint32_t esize;               /* ring element: size rounded up to 4 bytes */
	pthread_t tid;
	bool started;
	/*
	 * Pause (rte_pause()) between two tries on a full or empty ring, as the
	 * software DPA's unit does between empty polls: the rate test's, so that
	 * a spinning end does not steal the other's cache lines. The latency
	 * test spins without, as its MsgQ row's progress loop does.
	 */
	bool pause;
	/* Either end failed (the thread's failure is in thread_res): the other gives up. */
	volatile bool abort;
	struct bench_result thread_res;
	void *priv;                   /* the mode's */
};

/*
 * Meet the server side, make the rings (both, or to_peer only) and start fn on
 * the server's CPU with br as its argument.
 */
int bench_ring_open(struct bench_ring *br, struct bench_ctx *bc, const struct bench_test *t,
		    bool two_way, void *(*fn)(void *), struct bench_result *res);
/* Join the thread (which must be ending), copy its failure to res, free all. */
void bench_ring_close(struct bench_ring *br, struct bench_result *res);

/*
 * Put one message in r, spinning while it is full (counted in *full, if not
 * NULL): 0, or a failure in res if the other end failed or nothing moved for
 * BENCH_REPLY_TIMEOUT_S.
 */
int bench_ring_put(struct bench_ring *br, struct rte_ring *r, const void *msg,
		   uint64_t *full, struct bench_result *res);
/* Take one message from r, spinning while it is empty; the same failures. */
int bench_ring_get(struct bench_ring *br, struct rte_ring *r, void *msg,
		   struct bench_result *res);

#endif /* BENCH_RING_H */
