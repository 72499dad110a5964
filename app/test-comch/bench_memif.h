/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef BENCH_MEMIF_H
#define BENCH_MEMIF_H

/*
 * The memif baseline's plumbing: DPDK's shared-memory PMD, the channel a DPDK
 * user would otherwise put between two local processes. One memif port per
 * test, hot-plugged as a vdev: the server side is memif's server (it listens
 * on the test's socket), the client side its client, in copy mode (memif) or
 * zero-copy mode (memif-zc: the server reads the client's mbufs where the
 * client wrote them).
 *
 * Messages are those of the control-path baselines: the 16-byte header, then
 * size bytes of the pattern, the same payload a comch fast-path message
 * carries with its header as immediate data. The sender writes each message
 * into mbufs, as a memif application does; one mbuf holds up to seg bytes, so
 * larger messages are chains. The control messages (SYNC, END and their
 * answers, DONE) travel in-band: memif keeps order, so an END arrives after
 * every DATA sent before it. They are as long as the data messages (header,
 * then the pattern; a RESULT's counts replace its start): memif's copy mode
 * needs every message of a ring in the same shape (see seg_size()).
 */

#include <stdbool.h>
#include <stdint.h>
#include <sys/uio.h>

#include <rte_mbuf.h>

#include "bench.h"
#include "bench_msg.h"

/* Longest chain of mbufs: larger messages are not run over memif. */
#define BM_MAX_SEGS 256u

struct bm_port {
	struct bench_result *res;
	uint64_t tsc_hz;
	char name[32];           /* the vdev */
	char ready[256];         /* exists while the server's port is started */
	bool server;
	uint16_t port;
	bool plugged;            /* the vdev exists */
	bool started;
	struct rte_mempool *mp;
	uint32_t seg;            /* data bytes of one mbuf */
	uint32_t len;            /* bytes of a PING, PONG or DATA: header and size */
	uint32_t ctl_len;        /* bytes of the other messages: as many, or room for a RESULT */
	struct bench_msg_result result; /* the RESULT of the last END (client) */
	struct {
		int fd, dup;
	} saved[8];              /* EAL's memory files, while a zero-copy client starts */
	unsigned int nb_saved;
};

/*
 * Create the test's memif port, server or client, and wait until the two
 * sides are connected (the client retries until the server listens), within
 * BENCH_CONNECT_TIMEOUT_S. -ENOTSUP (res untouched) if this DPDK has no
 * memif PMD: the caller skips the test.
 */
int bm_open(struct bm_port *p, struct bench_ctx *bc, const struct bench_test *t,
	    struct bench_result *res, bool server);
/* Stop, close and unplug the port, free its pool. */
void bm_close(struct bm_port *p);

/* Message kind/seq of len bytes, in one mbuf or a chain; NULL if the pool is empty. */
struct rte_mbuf *bm_build(struct bm_port *p, uint32_t kind, uint64_t seq, uint32_t len);

/* A RESULT of ctl_len bytes, the counts after the header; NULL if the pool is empty. */
struct rte_mbuf *bm_build_result(struct bm_port *p, uint64_t seq,
				 const struct bench_msg_result *result);

/*
 * Send one message (the mbuf is the PMD's from then on), retrying while the
 * ring is full, within BENCH_REPLY_TIMEOUT_S.
 */
int bm_send(struct bm_port *p, struct rte_mbuf *m);

/*
 * Wait for one message, within BENCH_REPLY_TIMEOUT_S; the caller frees it.
 * -ENOTCONN if the peer went away.
 */
int bm_recv(struct bm_port *p, struct rte_mbuf **m);

/* The segments of m as pieces: their number, or 0 if more than max. */
unsigned int bm_iov(const struct rte_mbuf *m, struct iovec *iov, unsigned int max);

/* Check message m: kind, sequence number, length and the pattern, across its segments. */
int bm_check(struct bm_port *p, const struct rte_mbuf *m, uint32_t kind, uint64_t seq,
	     uint32_t len);

/*
 * Client: send the control message ctl/seq (a header) and wait for its answer,
 * of kind want: SYNC_ACK, DONE_ACK, or RESULT (into p->result).
 */
int bm_request(struct bm_port *p, uint32_t ctl, uint64_t seq, uint32_t want);

/* Whether the peer is (still) connected. */
bool bm_link_up(struct bm_port *p);

#endif /* BENCH_MEMIF_H */
