/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "bench_msg.h"

/*
 * The pattern has a prime period, and message seq starts at offset seq % period
 * in it: consecutive messages differ in every byte, yet checking one is a single
 * memcmp against a reference twice as long as the largest message.
 */
#define PATTERN_PERIOD 251

static uint8_t *pattern;

int
bench_msg_init(void)
{
	size_t i, n = BENCH_MAX_SIZE + PATTERN_PERIOD;

	if (pattern != NULL)
		return 0;
	pattern = malloc(n);
	if (pattern == NULL)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		pattern[i] = (uint8_t)((i % PATTERN_PERIOD) * 7 + 1);
	return 0;
}

static inline const uint8_t *
pattern_for(uint64_t seq)
{
	return pattern + seq % PATTERN_PERIOD;
}

void
bench_msg_fill(uint8_t *buf, uint32_t len, enum bench_msg_kind kind, uint64_t seq)
{
	struct bench_msg_hdr hdr = { .seq = seq, .kind = kind, .len = len };

	memcpy(buf, &hdr, sizeof(hdr));
	memcpy(buf + sizeof(hdr), pattern_for(seq), len - sizeof(hdr));
}

int
bench_msg_peek(const uint8_t *msg, uint32_t len, struct bench_msg_hdr *hdr)
{
	if (len < sizeof(*hdr))
		return -EBADMSG;
	/* Copied out: nothing promises a received message is 8-byte aligned. */
	memcpy(hdr, msg, sizeof(*hdr));
	return 0;
}

const char *
bench_msg_kind_name(uint32_t kind)
{
	switch (kind) {
	case BENCH_MSG_PING: return "PING";
	case BENCH_MSG_PONG: return "PONG";
	case BENCH_MSG_DATA: return "DATA";
	case BENCH_MSG_SYNC: return "SYNC";
	case BENCH_MSG_SYNC_ACK: return "SYNC_ACK";
	case BENCH_MSG_END: return "END";
	case BENCH_MSG_RESULT: return "RESULT";
	default: return "unknown";
	}
}

/* Offset of the first byte that differs; called only once a difference is known. */
static uint32_t
first_diff(const uint8_t *a, const uint8_t *b, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n && a[i] == b[i]; i++)
		;
	return i;
}

int
bench_msg_check(const uint8_t *msg, uint32_t len, enum bench_msg_kind kind, uint64_t seq,
		uint32_t expect_len, struct bench_result *res)
{
	struct bench_msg_hdr hdr;
	uint32_t off, body;

	if (bench_msg_peek(msg, len, &hdr) < 0)
		return bench_fail(res, -EBADMSG, "%s seq %" PRIu64 ": runt message of %" PRIu32
				  " bytes", bench_msg_kind_name(kind), seq, len);
	if (hdr.kind != (uint32_t)kind)
		return bench_fail(res, -EBADMSG, "expected %s seq %" PRIu64 ", got %s (kind %"
				  PRIu32 ") seq %" PRIu64, bench_msg_kind_name(kind), seq,
				  bench_msg_kind_name(hdr.kind), hdr.kind, hdr.seq);
	if (hdr.seq != seq) {
		if (hdr.seq > seq)
			return bench_fail(res, -EBADMSG, "%s: expected seq %" PRIu64 ", got %"
					  PRIu64 ": %" PRIu64 " message(s) lost",
					  bench_msg_kind_name(kind), seq, hdr.seq, hdr.seq - seq);
		return bench_fail(res, -EBADMSG, "%s: expected seq %" PRIu64 ", got %" PRIu64
				  ": duplicated or reordered message",
				  bench_msg_kind_name(kind), seq, hdr.seq);
	}
	if (len != expect_len || hdr.len != len)
		return bench_fail(res, -EBADMSG, "%s seq %" PRIu64 ": length %" PRIu32
				  ", header says %" PRIu32 ", expected %" PRIu32,
				  bench_msg_kind_name(kind), seq, len, hdr.len, expect_len);
	body = len - sizeof(hdr);
	if (memcmp(msg + sizeof(hdr), pattern_for(seq), body) != 0) {
		off = first_diff(msg + sizeof(hdr), pattern_for(seq), body);
		return bench_fail(res, -EBADMSG, "%s seq %" PRIu64 ": corrupt payload at byte %"
				  PRIu32 ": 0x%02x, expected 0x%02x",
				  bench_msg_kind_name(kind), seq, off + BENCH_MSG_HDR_LEN,
				  msg[sizeof(hdr) + off], pattern_for(seq)[off]);
	}
	return 0;
}
