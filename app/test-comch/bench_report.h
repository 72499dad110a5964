/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef BENCH_REPORT_H
#define BENCH_REPORT_H

/*
 * Results on their way from a child side to the parent (a pipe), and the table
 * of results both the parent and a lone side print from.
 */

#include <stdbool.h>
#include <stddef.h>

#include "bench.h"

/* Send one result down the report pipe: one write, atomic (smaller than PIPE_BUF). */
int bench_report_write(int fd, const struct bench_result *res);

struct bench_report_reader {
	int fd;
	bool eof;
	size_t have;
	struct bench_result rec; /* being assembled */
};

/*
 * One read from the pipe. 1: a whole record is in r->rec. 0: not yet, or end of
 * file (r->eof). Negative errno value: a read error or a record that is not one.
 */
int bench_report_read(struct bench_report_reader *r);

/* Failures outside any test (EAL, setup) kept per run. */
#define BENCH_MAX_EXTRA 8

struct bench_results {
	unsigned int nb_tests;
	struct bench_result *client; /* [nb_tests]; magic 0 if none arrived */
	struct bench_result *server;
	struct bench_result extra[BENCH_MAX_EXTRA];
	unsigned int nb_extra;
};

int bench_results_init(struct bench_results *rs, unsigned int nb_tests);
void bench_results_free(struct bench_results *rs);
/* File a result under its test and side. */
void bench_results_add(struct bench_results *rs, const struct bench_result *res);

#endif /* BENCH_REPORT_H */
