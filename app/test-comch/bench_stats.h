/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef BENCH_STATS_H
#define BENCH_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_cycles.h>

#include "bench.h"

/* Most latency samples kept (8 bytes each). */
#define BENCH_MAX_SAMPLES UINT64_C(100000000)

/*
 * Whether to time send number seq: about one in 16, spread pseudo-randomly so
 * that the samples do not line up with any periodic stall (queue refills).
 */
static inline bool
bench_sample_send(uint64_t seq)
{
	return (seq * UINT64_C(0x9e3779b97f4a7c15)) >> 60 == 0;
}

/* Allocate (and touch) room for n samples; NULL with res->error set on failure. */
uint64_t *bench_samples_alloc(uint64_t n, struct bench_result *res);

/*
 * Fill res's latency fields from n round-trip samples in TSC cycles. Sorts the
 * samples; percentiles are nearest-rank.
 */
void bench_stats_lat(struct bench_result *res, uint64_t *samples, uint64_t n, uint64_t tsc_hz);

/* CPU time used by the calling thread so far, in seconds (sleeps do not count). */
double bench_cpu_seconds(void);

/*
 * Fill res's stream fields: msgs messages of size bytes in cycles TSC cycles,
 * during which the sending thread used cpu_s seconds of CPU; send_cycles over
 * send_samples successful send calls.
 */
void bench_stats_stream(struct bench_result *res, uint64_t msgs, uint32_t size, uint64_t cycles,
			double cpu_s, uint64_t send_cycles, uint64_t send_samples,
			uint64_t tsc_hz);

/*
 * The sending side's measured window of a stream: from the answer to the SYNC
 * that ends the warm-up to the answer to the END, its time, its thread's CPU
 * time and the messages sent, and within it the sends refused and those timed.
 */
struct bench_tx_window {
	uint64_t eagain;             /* sends refused: the receiver was full */
	uint64_t send_cycles;        /* cycles of send_samples timed successful sends */
	uint64_t send_samples;
	uint64_t msgs_start;
	uint64_t tsc_start, tsc_stop;
	double cpu_start, cpu_stop;
};

/* Start measuring, msgs sent so far: the counts start again from 0. */
static inline void
bench_tx_start(struct bench_tx_window *w, uint64_t msgs)
{
	w->msgs_start = msgs;
	w->eagain = 0;
	w->send_cycles = 0;
	w->send_samples = 0;
	w->cpu_start = bench_cpu_seconds();
	w->tsc_start = rte_rdtsc();
}

static inline void
bench_tx_stop(struct bench_tx_window *w)
{
	w->tsc_stop = rte_rdtsc();
	w->cpu_stop = bench_cpu_seconds();
}

/* The TSC at the start of send number seq if it is one to time, else 0. */
static inline uint64_t
bench_tx_t0(uint64_t seq)
{
	return bench_sample_send(seq) ? rte_rdtsc() : 0;
}

/* The send begun at t0 (bench_tx_t0()) succeeded: its cycles count if it was timed. */
static inline void
bench_tx_sent(struct bench_tx_window *w, uint64_t t0)
{
	if (t0 != 0) {
		w->send_cycles += rte_rdtsc() - t0;
		w->send_samples++;
	}
}

/* The same for one call that sent n messages: its cycles count once per message. */
static inline void
bench_tx_sent_n(struct bench_tx_window *w, uint64_t t0, unsigned int n)
{
	if (t0 != 0) {
		w->send_cycles += rte_rdtsc() - t0;
		w->send_samples += n;
	}
}

/* Fill res's stream fields and its refusals from w, msgs of size bytes sent by its end. */
void bench_tx_result(const struct bench_tx_window *w, uint64_t msgs, uint32_t size,
		     uint64_t tsc_hz, struct bench_result *res);

/*
 * The receiving side's measured window: its thread's CPU time from the first
 * to the last measured message (the SYNC that ends the warm-up, the END), and
 * how many messages it had received at each end.
 */
struct bench_rx_window {
	double cpu_start, cpu_stop;
	uint64_t msgs_start, msgs_stop;
	bool started, stopped;
};

static inline void
bench_rx_start(struct bench_rx_window *w, uint64_t msgs)
{
	w->cpu_start = bench_cpu_seconds();
	w->msgs_start = msgs;
	w->started = true;
	w->stopped = false;
}

static inline void
bench_rx_stop(struct bench_rx_window *w, uint64_t msgs)
{
	if (!w->started)
		return;
	w->cpu_stop = bench_cpu_seconds();
	w->msgs_stop = msgs;
	w->stopped = true;
}

/*
 * Fill res->rx_cyc_per_msg from n windows of one receiver (one per connection
 * of a server with many): from the earliest start to the latest stop, over
 * every message in them. Nothing if no window was closed (a latency test).
 */
void bench_rx_result(const struct bench_rx_window *w, unsigned int n, struct bench_result *res);

/*
 * Read the side's resident memory into *kb (one of res's rss_*_kb) and its peak
 * so far into res->hwm_kb. Both stay 0, not measured, if /proc cannot tell: a
 * missing figure is no reason to fail a test.
 */
void bench_rss_sample(struct bench_result *res, uint64_t *kb);

#endif /* BENCH_STATS_H */
