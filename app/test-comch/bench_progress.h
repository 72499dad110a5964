/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef BENCH_PROGRESS_H
#define BENCH_PROGRESS_H

/*
 * A one-line progress report on standard error for long runs: which test of
 * the plan runs, over what, and for how long so far, rewritten in place with
 * a carriage return. Only when standard error is a terminal, unless
 * --progress or --no-progress says otherwise; standard output (the table, and
 * a CSV written there) never sees it, and it is erased before anything else
 * is printed.
 */

#include <stdbool.h>

#include "bench.h"

struct bench_progress {
	bool on;
	const struct bench_opts *o;
	const struct bench_test *plan;
	unsigned int nb;
	unsigned int cur;          /* the test running */
	double t_run;              /* when the run started */
	double t_test;             /* when the current test started */
	double t_drawn;            /* when the line was last drawn */
	int width;                 /* of the line on screen; 0 if none */
};

void bench_progress_init(struct bench_progress *p, const struct bench_opts *o,
			 const struct bench_test *plan, unsigned int nb);

/* done tests have ended: redraw, at most every few tenths of a second. */
void bench_progress_update(struct bench_progress *p, unsigned int done);

/* Erase the line, before the table (or anything else) is printed. */
void bench_progress_clear(struct bench_progress *p);

#endif /* BENCH_PROGRESS_H */
