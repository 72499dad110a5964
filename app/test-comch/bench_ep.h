/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef BENCH_EP_H
#define BENCH_EP_H

/*
 * The endpoint modes' plumbing (ep-lat, ep-lat-epoll, ep-stream): one endpoint
 * per test and side, with its single peer, over the process's device. Sends
 * and receives either poll (every endpoint call runs progress) or, in an epoll
 * mode, sleep in epoll_wait() on the endpoint's two event channels when there
 * is nothing to do. Modes only decide what to send and what to check.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_comch_ep.h>

#include "bench.h"

struct bench_ep {
	struct bench_ctx *bc;
	struct bench_result *res;
	struct rte_comch_ep *ep;
	struct rte_comch_ep_peer *peer; /* server side: the sender of the first message */
	bool epoll;                     /* sleep on the event channels when idle */
	int epfd;                       /* epoll set of send_fd and recv_fd, or -1 */
	uint64_t eagain;                /* sends refused (queue full), counted by bep_send() */
	uint64_t wakeups;               /* sleeps ended by an event channel */
	uint64_t timeouts;              /* sleeps ended by the safety timeout */
};

/* Server side: an endpoint listening as test t's service. */
int bep_listen(struct bench_ep *e, struct bench_ctx *bc, const struct bench_test *t,
	       struct bench_result *res);
/* Client side: an endpoint connected to test t's service (retried until it listens). */
int bep_connect(struct bench_ep *e, struct bench_ctx *bc, const struct bench_test *t,
		struct bench_result *res);

/* Send len bytes to the peer, waiting (polling or asleep) while the queues are full. */
int bep_send(struct bench_ep *e, const void *msg, uint32_t len);

/*
 * Receive one message into buf (cap bytes), waiting for it: its length, 0 if
 * the peer is gone (server side), or a negative errno value. The client fails
 * after BENCH_REPLY_TIMEOUT_S; the server waits BENCH_CONNECT_TIMEOUT_S for its
 * first message, then for as long as its peer is there.
 */
int bep_recv(struct bench_ep *e, void *buf, uint32_t cap);

/* Disconnect and destroy. */
void bep_close(struct bench_ep *e);

#endif /* BENCH_EP_H */
