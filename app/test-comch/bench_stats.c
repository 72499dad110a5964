/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_mem.h"
#include "bench_stats.h"

uint64_t *
bench_samples_alloc(uint64_t n, struct bench_result *res)
{
	uint64_t *s;

	if (n > BENCH_MAX_SAMPLES) {
		bench_fail(res, -E2BIG, "%" PRIu64 " iterations: at most %" PRIu64 " are kept",
			   n, BENCH_MAX_SAMPLES);
		return NULL;
	}
	s = malloc(n * sizeof(*s));
	if (s == NULL) {
		bench_fail(res, -ENOMEM, "no memory for %" PRIu64 " samples", n);
		return NULL;
	}
	/* Fault the pages in now rather than inside the measured loop. */
	memset(s, 0, n * sizeof(*s));
	return s;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Nearest rank: the smallest sample with at least p of all samples at or below it. */
static uint64_t
rank(const uint64_t *sorted, uint64_t n, double p)
{
	uint64_t r = (uint64_t)ceil(p * n);

	if (r == 0)
		r = 1;
	if (r > n)
		r = n;
	return sorted[r - 1];
}

void
bench_stats_lat(struct bench_result *res, uint64_t *samples, uint64_t n, uint64_t tsc_hz)
{
	static const double pct[BENCH_PCT_NB] = { 0.0, 0.50, 0.90, 0.99, 0.999, 1.0 };
	double ns_per_cyc = 1e9 / tsc_hz;
	uint64_t i, sum = 0;
	int p;

	if (n == 0)
		return;
	qsort(samples, n, sizeof(*samples), cmp_u64);
	for (i = 0; i < n; i++)
		sum += samples[i];
	for (p = 0; p < BENCH_PCT_NB; p++)
		res->lat_ns[p] = rank(samples, n, pct[p]) * ns_per_cyc;
	res->lat_ns[BENCH_PCT_MIN] = samples[0] * ns_per_cyc;
	res->mean_ns = (double)sum / n * ns_per_cyc;
	res->ops = n;
	res->seconds = sum / (double)tsc_hz;
	res->tsc_hz = tsc_hz;
}

double
bench_cpu_seconds(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) < 0)
		return 0;
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void
bench_rx_result(const struct bench_rx_window *w, unsigned int n, struct bench_result *res)
{
	double start = 0, stop = 0;
	uint64_t msgs = 0;
	bool any = false;
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (!w[i].stopped)
			continue;
		if (!any || w[i].cpu_start < start)
			start = w[i].cpu_start;
		if (!any || w[i].cpu_stop > stop)
			stop = w[i].cpu_stop;
		msgs += w[i].msgs_stop - w[i].msgs_start;
		any = true;
	}
	if (any && msgs != 0 && stop > start)
		res->rx_cyc_per_msg = (stop - start) * res->tsc_hz / msgs;
}

void
bench_stats_stream(struct bench_result *res, uint64_t msgs, uint32_t size, uint64_t cycles,
		   double cpu_s, uint64_t send_cycles, uint64_t send_samples, uint64_t tsc_hz)
{
	res->ops = msgs;
	res->tsc_hz = tsc_hz;
	res->seconds = cycles / (double)tsc_hz;
	if (msgs == 0 || cycles == 0)
		return;
	res->msgs_per_s = msgs / res->seconds;
	res->mb_per_s = (double)msgs * size / res->seconds / 1e6;
	/*
	 * CPU time, not elapsed time: a polling sender pays for every cycle, a blocking
	 * one only for those it did not sleep through.
	 */
	res->cyc_per_msg = cpu_s * tsc_hz / msgs;
	if (send_samples != 0)
		res->send_cyc = (double)send_cycles / send_samples;
}

void
bench_tx_result(const struct bench_tx_window *w, uint64_t msgs, uint32_t size, uint64_t tsc_hz,
		struct bench_result *res)
{
	bench_stats_stream(res, msgs - w->msgs_start, size, w->tsc_stop - w->tsc_start,
			   w->cpu_stop - w->cpu_start, w->send_cycles, w->send_samples, tsc_hz);
	res->eagain = w->eagain;
}

void
bench_rss_sample(struct bench_result *res, uint64_t *kb)
{
	struct bench_mem m;

	if (bench_mem_read(&m) < 0)
		return;
	*kb = m.rss_kb;
	res->hwm_kb = m.hwm_kb;
}
