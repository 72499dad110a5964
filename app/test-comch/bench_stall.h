/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef BENCH_STALL_H
#define BENCH_STALL_H

/*
 * A stream sender's watch for a receiver that stops taking messages: every
 * BENCH_STALL_SPINS rounds of its loop it looks at how many it has sent, and
 * fails once that has not moved for BENCH_REPLY_TIMEOUT_S.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_cycles.h>

#include "bench.h"

/* Rounds between two looks at the clock. */
#define BENCH_STALL_SPINS 4096

struct bench_stall {
	unsigned int spins;
	uint64_t last;               /* messages sent when they last moved */
	uint64_t deadline;           /* TSC; 0: set by the next look */
};

/* Watch from now, with sent messages sent so far (zeroed, from the first look). */
static inline void
bench_stall_init(struct bench_stall *w, uint64_t sent, uint64_t tsc_hz)
{
	w->spins = 0;
	w->last = sent;
	w->deadline = rte_rdtsc() + BENCH_REPLY_TIMEOUT_S * tsc_hz;
}

/* One round of the loop: true every BENCH_STALL_SPINS, when it is time to look. */
static inline bool
bench_stall_due(struct bench_stall *w)
{
	return unlikely(++w->spins % BENCH_STALL_SPINS == 0);
}

/* A look: true if sent has not moved for BENCH_REPLY_TIMEOUT_S. */
static inline bool
bench_stall_expired(struct bench_stall *w, uint64_t sent, uint64_t tsc_hz)
{
	if (sent != w->last || w->deadline == 0) {
		w->last = sent;
		w->deadline = rte_rdtsc() + BENCH_REPLY_TIMEOUT_S * tsc_hz;
		return false;
	}
	return rte_rdtsc() > w->deadline;
}

/* One round of the loop, and a look if it is time: true if sent is stalled. */
static inline bool
bench_stalled(struct bench_stall *w, uint64_t sent, uint64_t tsc_hz)
{
	return bench_stall_due(w) && bench_stall_expired(w, sent, tsc_hz);
}

#endif /* BENCH_STALL_H */
