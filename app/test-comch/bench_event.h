/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef BENCH_EVENT_H
#define BENCH_EVENT_H

/*
 * Event mode: a side whose progress engines sleep instead of spinning. When a
 * round of progress does nothing, the side asks each engine to arm its
 * notifications; if all agree, it sleeps on their notification fds until one is
 * readable, then clears them and progresses again. An engine that answers
 * -EAGAIN has work pending (tasks in flight, a message waiting): the side
 * progresses again without sleeping.
 *
 * bench_ev_wait() is that sleep, the only one of every event-mode runner, on
 * both sides. It counts how each sleep ended, so that a run shows whether the
 * engines really slept (wake-ups), could not (work pending), or missed a
 * wake-up (the safety timeout expired).
 *
 * The idle window: after the measured ping-pong both sides stay connected and
 * sleep; what their threads use of the CPU meanwhile is the cost of an idle
 * connection. Its sleeps are counted apart.
 */

#include <poll.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_comch.h>

#include "bench.h"
#include "bench_comch.h"
#include "bench_fp.h"

/* Most engines one side sleeps on: the connection's and the fast path's. */
#define BENCH_EV_MAX_PE 2

struct bench_ev_count {
	uint64_t wakeups;  /* sleeps ended by a readable fd */
	uint64_t eagain;   /* requests answered -EAGAIN: work pending, no sleep */
	uint64_t timeouts; /* sleeps ended by BENCH_EV_SAFETY_MS */
};

struct bench_ev {
	struct bench_result *res;
	uint64_t tsc_hz;
	unsigned int nb_pe;
	struct rte_comch_pe *pe[BENCH_EV_MAX_PE];
	struct pollfd pfd[BENCH_EV_MAX_PE];
	struct bench_ev_count busy;  /* outside the idle window */
	struct bench_ev_count idle;  /* inside it */
	struct bench_ev_count *cnt;  /* the one counting now */
	/* The idle window, once begun. */
	bool in_idle;
	uint64_t idle_tsc;           /* TSC at its start, then its length */
	double idle_cpu;             /* thread CPU seconds at its start, then used in it */
};

/* Set ev up over one or two engines (pe2 may be NULL). */
int bench_ev_init(struct bench_ev *ev, struct bench_result *res, uint64_t tsc_hz,
		  struct rte_comch_pe *pe, struct rte_comch_pe *pe2);

/*
 * Sleep until an engine has work: arm every engine and wait on their fds, then
 * disarm. Returns 0 at once if one has work pending (-EAGAIN), after a wake-up,
 * after the safety timeout, or at deadline (TSC; 0: none, the safety timeout
 * applies). Negative errno value on failure (res->error set).
 */
int bench_ev_wait(struct bench_ev *ev, uint64_t deadline);

/*
 * One round of an event-mode loop: progress every engine once and, if none did
 * anything, bench_ev_wait(). Returns the test's status.
 */
int bench_ev_round(struct bench_ev *ev);

/* Start and end the idle window: CPU time and sleeps from here on are its own. */
void bench_ev_idle_begin(struct bench_ev *ev);
void bench_ev_idle_end(struct bench_ev *ev);

/*
 * The client's idle window: sleep for seconds, progressing whatever wakes the
 * engines. Returns the test's status.
 */
int bench_ev_idle(struct bench_ev *ev, double seconds);

/*
 * The server's idle window, framed by the client's control messages: a SYNC
 * of n > 0 (n round trips done) begins it, END ends it.
 */
void bench_ev_on_request(struct bench_ev *ev, uint32_t kind, uint64_t seq);

/* Copy the counts and the idle window into res. */
void bench_ev_report(const struct bench_ev *ev, struct bench_result *res);

/* bc_progress() of a control session, in event mode. */
static inline int
bc_progress_ev(struct bc_sess *s, struct bench_ev *ev)
{
	int ret = bench_ev_round(ev);

	/* Replies deferred from a callback go out, as bc_progress() sends them. */
	if (unlikely(ret == 0 && s->nb_deferred != 0))
		return bc_progress_after(s, 0);
	return ret;
}

/* bf_progress() of a fast-path side, in event mode: both engines every round. */
static inline int
bf_progress_ev(struct bf_side *f, struct bench_ev *ev)
{
	return bc_progress_ev(f->s, ev);
}

#endif /* BENCH_EVENT_H */
