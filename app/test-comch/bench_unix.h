/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef BENCH_UNIX_H
#define BENCH_UNIX_H

/*
 * The baseline's plumbing: a Unix SOCK_SEQPACKET connection per test, the kind
 * of channel one would build between two local processes without comch. It
 * keeps message boundaries like comch does, so both carry the same messages.
 *
 * In "unix" mode calls block, as usual; in "unix-poll" mode they never block and
 * the caller spins on EAGAIN, as a comch application spins on progress.
 */

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "bench.h"

struct bu_conn {
	int fd;
	bool poll;             /* non-blocking calls in a busy loop */
	uint64_t tsc_hz;
	uint64_t eagain;       /* sends that found the socket full (poll mode) */
	bool probe;            /* next send: -ENOBUFS is returned, not a failure */
	struct bench_result *res;
};

/* Server: listen on the test's socket and accept its one client. */
int bu_accept(struct bu_conn *c, struct bench_ctx *bc, const struct bench_test *t,
	      struct bench_result *res);
/*
 * Server: listen on the test's socket and accept n clients into c[0..n-1], in
 * the order they connect, each within BENCH_CONNECT_TIMEOUT_S of the previous
 * one (ctrl-many). The connections are non-blocking (c->poll set).
 */
int bu_accept_many(struct bu_conn *c, uint32_t n, struct bench_ctx *bc,
		   const struct bench_test *t, struct bench_result *res);
/* Client: connect to the test's socket, retrying until the server listens. */
int bu_connect(struct bu_conn *c, struct bench_ctx *bc, const struct bench_test *t,
	       struct bench_result *res);
void bu_close(struct bu_conn *c);

/*
 * Make room in the socket for messages of size bytes: a datagram must fit the
 * send buffer whole. -EMSGSIZE (res untouched) if the system does not allow it.
 */
int bu_fit(struct bu_conn *c, uint32_t size, int *limit);

/*
 * Send one message; 0 or a negative errno value (res->error set). With c->probe
 * set (the first message of a test), a datagram too large for the kernel to
 * allocate returns -ENOBUFS with res untouched: the caller skips the test.
 */
int bu_send(struct bu_conn *c, const uint8_t *buf, uint32_t len);

/*
 * Receive one message into buf (cap bytes). Returns its length, 0 when the peer
 * closed the connection, or a negative errno value (res->error set). With
 * wait_forever, no receive timeout applies (a server waits for its client).
 */
int bu_recv(struct bu_conn *c, uint8_t *buf, uint32_t cap, bool wait_forever);

#endif /* BENCH_UNIX_H */
