/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef BENCH_LOCAL_H
#define BENCH_LOCAL_H

/*
 * One-process modes (MsgQ and their ring baseline): the client's process runs
 * both ends of the exchange, its own on its lcore and the other (the software
 * DPA's execution unit, or the ring's echo thread) on the CPU of the server's
 * lcore, which the server's process leaves idle meanwhile: it waits, asleep
 * in recv(), on the test's Unix socket until the client closes it. So a
 * one-process test runs on the same two CPUs as every other test, and the
 * two processes still walk the plan in step.
 */

#include <pthread.h>
#include <sched.h>

#include "bench.h"
#include "bench_unix.h"

struct bench_local {
	struct bu_conn conn;         /* to the server side, which waits until it closes */
};

/* Client: the test begins; the server side waits until bench_local_end(). */
int bench_local_begin(struct bench_local *l, struct bench_ctx *bc, const struct bench_test *t,
		      struct bench_result *res);
void bench_local_end(struct bench_local *l);

/* The CPU of the other end: the server's lcore (lcore N is CPU N: EAL's -l N). */
unsigned int bench_local_cpu(const struct bench_ctx *bc);

/*
 * Make the calling thread run on cpu, and so every thread it creates until
 * bench_local_pin_pop() (a new thread inherits its creator's affinity): how
 * the software DPA's pthread units, which the library starts, land there.
 */
int bench_local_pin_push(cpu_set_t *saved, unsigned int cpu, struct bench_result *res);
void bench_local_pin_pop(const cpu_set_t *saved);

/* Start a thread of our own on cpu. */
int bench_local_thread_start(pthread_t *tid, void *(*fn)(void *), void *arg, unsigned int cpu,
			     struct bench_result *res);

#endif /* BENCH_LOCAL_H */
