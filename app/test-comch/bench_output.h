/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef BENCH_OUTPUT_H
#define BENCH_OUTPUT_H

#include <stdio.h>

#include "bench.h"
#include "bench_report.h"

/*
 * Print the human-readable table: per mode and size, one row per transport and
 * the comch-to-baseline ratios, then every failure. who says which sides'
 * results to expect (BOTH in the parent). Returns the number of failures.
 */
unsigned int bench_output_print(FILE *f, const struct bench_opts *o,
				const struct bench_test *plan, unsigned int nb,
				const struct bench_results *rs, enum bench_side who);

/* Write one CSV row per result to path. 0 or a negative errno value. */
int bench_output_csv(const char *path, const struct bench_opts *o,
		     const struct bench_test *plan, unsigned int nb,
		     const struct bench_results *rs, enum bench_side who);

/*
 * After --repeat: each rte_comch result against its mode's main baseline, the
 * median over the runs of the per-run ratio, with the lowest and highest;
 * with targets, then the performance targets judged on those medians.
 */
void bench_output_repeated(FILE *f, const struct bench_test *plan, unsigned int nb,
			   const struct bench_results *rs, unsigned int nb_runs, bool targets);

#endif /* BENCH_OUTPUT_H */
