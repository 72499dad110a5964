/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef BENCH_RESPONDER_H
#define BENCH_RESPONDER_H

/*
 * The server side of the control-path modes, whatever the transport: check each
 * message the client sends and say which reply is due. The comch and socket
 * servers only move bytes; every rule lives here, once.
 */

#include <stdint.h>

#include "bench.h"
#include "bench_msg.h"
#include "bench_stats.h"

struct bench_responder {
	struct bench_result *res;
	uint32_t size;       /* length of PING and DATA messages */
	uint64_t next_ping;  /* sequence number the next PING must carry */
	uint64_t next_data;  /* same for DATA */
	uint64_t data_bytes;
	uint32_t reply_kind; /* reply due for the last message handled */
	uint64_t reply_seq;
	uint32_t reply_len;
	struct bench_rx_window rx; /* from SYNC to END: a stream's measured part */
};

void bench_responder_init(struct bench_responder *r, const struct bench_test *t,
			  struct bench_result *res);

/*
 * Check one message. Returns the length of the reply due (0 if none), or a
 * negative errno value with r->res->error set.
 */
int bench_responder_handle(struct bench_responder *r, const uint8_t *msg, uint32_t len);
/* The same for a message in n pieces (an mbuf chain), the whole header in the first. */
int bench_responder_handle_iov(struct bench_responder *r, const struct iovec *iov,
			       unsigned int n);

/* Write the reply due into buf, which has room for the length handle returned. */
void bench_responder_reply(const struct bench_responder *r, uint8_t *buf);

/* Copy the totals, and the cost of receiving (stream tests), into the server's result. */
void bench_responder_finish(const struct bench_responder *r);

#endif /* BENCH_RESPONDER_H */
