/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The cache-line baseline of the latency modes: the floor of any ping-pong
 * through shared memory, two cores bouncing one cache line. The server
 * creates a page of shared memory (a memfd, passed over the test's Unix
 * socket), whose first 64-byte line holds two words: the client writes the
 * sequence number of its PING in one and spins until the server has copied it
 * into the other. No payload, no queue, no check beyond the sequence numbers;
 * timed as the other latency modes: from just before the PING's store to the
 * load that saw the PONG.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_cycles.h>

#include "bench_fdpass.h"
#include "bench_runners.h"
#include "bench_stats.h"
#include "bench_unix.h"

/* Spins between two looks at the clock and at the socket. */
#define SPINS_PER_CHECK 4096
#define CL_BYTES 4096
/* The client's last PING: the server stops. */
#define CL_STOP UINT64_MAX

/* One cache line, both directions in it: every PING and PONG moves it between the cores. */
struct cl_line {
	uint64_t ping; /* client: 1 + seq of the PING in flight, CL_STOP at the end */
	uint64_t pong; /* server: the last ping it saw */
} __rte_aligned(RTE_CACHE_LINE_SIZE);

/* The peer closed the socket: it is gone (or done, which the line says first). */
static bool
peer_gone(int sock)
{
	char b;

	return recv(sock, &b, 1, MSG_PEEK | MSG_DONTWAIT) == 0;
}

/*
 * Spin until *word is no longer old. Every SPINS_PER_CHECK spins, fail if the
 * peer is gone or if nothing changed for BENCH_REPLY_TIMEOUT_S.
 */
static int
spin_change(volatile uint64_t *word, uint64_t old, uint64_t *val, int sock, uint64_t tsc_hz,
	    const char *what, struct bench_result *res)
{
	uint64_t v, deadline = 0;
	unsigned int spins = 0;

	while ((v = __atomic_load_n(word, __ATOMIC_ACQUIRE)) == old) {
		if (likely(++spins % SPINS_PER_CHECK != 0))
			continue;
		/* What the peer stored before it closed is visible by now: look once more. */
		if (peer_gone(sock) && __atomic_load_n(word, __ATOMIC_ACQUIRE) == old)
			return bench_fail(res, -ECONNRESET, "peer went away while waiting for %s",
					  what);
		if (deadline == 0)
			deadline = rte_rdtsc() + BENCH_REPLY_TIMEOUT_S * tsc_hz;
		else if (rte_rdtsc() > deadline)
			return bench_fail(res, -ETIMEDOUT, "no %s after %d s", what,
					  BENCH_REPLY_TIMEOUT_S);
	}
	*val = v;
	return 0;
}

static struct cl_line *
cl_map(int fd, struct bench_result *res)
{
	void *p = mmap(NULL, CL_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	if (p == MAP_FAILED) {
		bench_fail(res, -errno, "mmap of the shared line: %s", strerror(errno));
		return NULL;
	}
	return p;
}

int
cacheline_lat_server(struct bench_ctx *bc, const struct bench_test *t, struct bench_result *res)
{
	struct cl_line *line = NULL;
	uint64_t last = 0, v = 0;
	struct bu_conn c;
	int fd, ret;

	ret = bu_accept(&c, bc, t, res);
	if (ret < 0)
		return ret;
	fd = memfd_create("test-comch-cacheline", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, CL_BYTES) < 0)
		ret = bench_fail(res, -errno, "shared line: %s", strerror(errno));
	if (ret == 0) {
		line = cl_map(fd, res);
		ret = res->status;
	}
	if (ret == 0)
		ret = bench_fd_send(c.fd, fd, res);
	while (ret == 0) {
		ret = spin_change(&line->ping, last, &v, c.fd, bc->tsc_hz, "a PING", res);
		if (ret < 0 || v == CL_STOP)
			break;
		if (unlikely(v != last + 1)) {
			ret = bench_fail(res, -EBADMSG, "expected PING %" PRIu64 ", got %" PRIu64,
					 last, v - 1);
			break;
		}
		__atomic_store_n(&line->pong, v, __ATOMIC_RELEASE);
		last = v;
	}
	if (line != NULL)
		munmap(line, CL_BYTES);
	if (fd >= 0)
		close(fd);
	bu_close(&c);
	res->verified = last;
	res->ops = last;
	return res->status;
}

int
cacheline_lat_client(struct bench_ctx *bc, const struct bench_test *t, struct bench_result *res)
{
	const struct bench_opts *o = bc->opts;
	uint64_t *samples, seq, total = o->warmup + o->iterations, t0, v;
	struct cl_line *line = NULL;
	struct bu_conn c;
	int fd = -1, ret;

	samples = bench_samples_alloc(o->iterations, res);
	if (samples == NULL)
		return res->status;
	ret = bu_connect(&c, bc, t, res);
	if (ret == 0)
		ret = bench_fd_recv(c.fd, &fd, res);
	if (ret == 0) {
		line = cl_map(fd, res);
		ret = res->status;
	}
	for (seq = 0; ret == 0 && seq < total; seq++) {
		t0 = rte_rdtsc();
		__atomic_store_n(&line->ping, seq + 1, __ATOMIC_RELEASE);
		ret = spin_change(&line->pong, seq, &v, c.fd, bc->tsc_hz, "a PONG", res);
		if (ret == 0 && unlikely(v != seq + 1))
			ret = bench_fail(res, -EBADMSG, "expected PONG %" PRIu64 ", got %" PRIu64,
					 seq, v - 1);
		if (seq >= o->warmup)
			samples[seq - o->warmup] = rte_rdtsc() - t0;
	}
	res->verified = seq;
	if (line != NULL) {
		__atomic_store_n(&line->ping, CL_STOP, __ATOMIC_RELEASE);
		munmap(line, CL_BYTES);
	}
	if (fd >= 0)
		close(fd);
	bu_close(&c);
	if (res->status == 0)
		bench_stats_lat(res, samples, o->iterations, bc->tsc_hz);
	free(samples);
	return res->status;
}
