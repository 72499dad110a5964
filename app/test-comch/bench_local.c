/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#include <errno.h>
#include <string.h>

#include "bench_local.h"
#include "bench_runners.h"

int
bench_local_serve(struct bench_ctx *bc, const struct bench_test *t, struct bench_result *res)
{
	struct bu_conn c;
	uint8_t b[16];
	int ret;

	ret = bu_accept(&c, bc, t, res);
	if (ret < 0)
		return ret;
	/* No timeout on this side's socket: the client paces the test, its death ends it. */
	do {
		ret = bu_recv(&c, b, sizeof(b), true);
	} while (ret > 0);
	bu_close(&c);
	return ret < 0 ? ret : res->status;
}

int
bench_local_begin(struct bench_local *l, struct bench_ctx *bc, const struct bench_test *t,
		  struct bench_result *res)
{
	return bu_connect(&l->conn, bc, t, res);
}

void
bench_local_end(struct bench_local *l)
{
	bu_close(&l->conn);
}

unsigned int
bench_local_cpu(const struct bench_ctx *bc)
{
	return bc->opts->server_lcore;
}

int
bench_local_pin_push(cpu_set_t *saved, unsigned int cpu, struct bench_result *res)
{
	cpu_set_t set;
	int ret;

	ret = pthread_getaffinity_np(pthread_self(), sizeof(*saved), saved);
	if (ret != 0)
		return bench_fail(res, -ret, "pthread_getaffinity_np: %s", strerror(ret));
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	ret = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (ret != 0)
		return bench_fail(res, -ret, "cannot run on CPU %u: %s", cpu, strerror(ret));
	return 0;
}

void
bench_local_pin_pop(const cpu_set_t *saved)
{
	pthread_setaffinity_np(pthread_self(), sizeof(*saved), saved);
}

int
bench_local_thread_start(pthread_t *tid, void *(*fn)(void *), void *arg, unsigned int cpu,
			 struct bench_result *res)
{
	pthread_attr_t attr;
	cpu_set_t set;
	int ret;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_attr_init(&attr);
	ret = pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	if (ret == 0)
		ret = pthread_create(tid, &attr, fn, arg);
	pthread_attr_destroy(&attr);
	if (ret != 0)
		return bench_fail(res, -ret, "thread on CPU %u: %s", cpu, strerror(ret));
	return 0;
}
