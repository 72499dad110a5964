/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef BENCH_MSG_H
#define BENCH_MSG_H

/*
 * What travels: the same messages over comch and over the baselines, so both
 * pay the same cost to build and check them.
 *
 * A message is a 16-byte header (sequence number, kind, total length) followed
 * by a byte pattern that depends on the sequence number, so that a stale, torn,
 * duplicated or misplaced message does not pass the check.
 *
 * On the fast path the header travels as the 16 bytes of immediate data and
 * the buffer carries only the pattern (the header's length is then the
 * buffer's): a message of any size, from 0, still has its sequence number
 * checked, and the sender sends straight from the reference pattern.
 */

#include <stdint.h>
#include <stddef.h>
#include <sys/uio.h>

#include "bench.h"

enum bench_msg_kind {
	BENCH_MSG_PING = 1, /* client -> server, consecutive seq from 0; answered by PONG */
	BENCH_MSG_PONG,     /* server -> client, the PING's seq and length */
	BENCH_MSG_DATA,     /* client -> server, consecutive seq from 0; not answered */
	BENCH_MSG_SYNC,     /* client -> server, any seq; answered by SYNC_ACK: a barrier */
	BENCH_MSG_SYNC_ACK, /* server -> client */
	BENCH_MSG_END,      /* client -> server, seq = number of DATA sent; answered by RESULT */
	BENCH_MSG_RESULT,   /* server -> client, struct bench_msg_result after the header */
	BENCH_MSG_DONE,     /* client -> server (fast path): tear your producer/consumer down */
	BENCH_MSG_DONE_ACK, /* server -> client: done, the connection may close */
};

struct bench_msg_hdr {
	uint64_t seq;
	uint32_t kind;
	uint32_t len; /* the whole message, header included */
};

#define BENCH_MSG_HDR_LEN ((uint32_t)sizeof(struct bench_msg_hdr))

/* What the server saw of a stream, answered to END. */
struct bench_msg_result {
	uint64_t received; /* DATA messages received and checked */
	uint64_t bytes;
	uint64_t errors;   /* always 0: a server fails at its first error */
};

#define BENCH_MSG_RESULT_LEN (BENCH_MSG_HDR_LEN + (uint32_t)sizeof(struct bench_msg_result))

/*
 * Build the reference pattern for messages up to max_len bytes; once per
 * process, before any fill or check.
 */
int bench_msg_init(uint32_t max_len);

/* The pattern, and its length: a message of seq carries bench_msg_pattern(seq). */
const uint8_t *bench_msg_pattern(uint64_t seq);
size_t bench_msg_pattern_len(void);
/* The pattern's period: messages seq and seq + period carry the same bytes. */
#define BENCH_MSG_PERIOD 251

/* Write a message of len bytes (len >= BENCH_MSG_HDR_LEN): header and pattern. */
void bench_msg_fill(uint8_t *buf, uint32_t len, enum bench_msg_kind kind, uint64_t seq);

/* Read a message's header; -EBADMSG if it is shorter than a header. */
int bench_msg_peek(const uint8_t *msg, uint32_t len, struct bench_msg_hdr *hdr);

/*
 * Check a received message against what was expected: length, kind, sequence
 * number, header length field and the pattern. Returns 0, or a negative errno
 * value with res->error saying what differed.
 */
int bench_msg_check(const uint8_t *msg, uint32_t len, enum bench_msg_kind kind, uint64_t seq,
		    uint32_t expect_len, struct bench_result *res);

/* The same for a message in n pieces, the whole header in the first. */
int bench_msg_check_iov(const struct iovec *iov, unsigned int n, enum bench_msg_kind kind,
			uint64_t seq, uint32_t expect_len, struct bench_result *res);

/*
 * Check a fast-path message: its header (the immediate data, imm_len bytes),
 * then len bytes of data that must be size bytes of the pattern of seq.
 */
int bench_msg_check_fp(const uint8_t *imm, uint32_t imm_len, const uint8_t *data, size_t len,
		       enum bench_msg_kind kind, uint64_t seq, uint32_t size,
		       struct bench_result *res);

/*
 * Check the RESULT that answers an END of seq messages (kind, sequence number,
 * length) and copy its counts to *out, if out is not NULL. An error says who
 * first ("client 3: ", or "").
 */
int bench_msg_check_result(const uint8_t *msg, uint32_t len, uint64_t seq, const char *who,
			   struct bench_msg_result *out, struct bench_result *res);

const char *bench_msg_kind_name(uint32_t kind);

#endif /* BENCH_MSG_H */
