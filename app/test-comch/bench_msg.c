/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>

#include "bench_msg.h"

/*
 * The pattern has a prime period, and message seq starts at offset seq % period
 * in it: consecutive messages differ in every byte, yet checking one is a single
 * memcmp against a reference twice as long as the largest message.
 */
#define PATTERN_PERIOD BENCH_MSG_PERIOD

static uint8_t *pattern;
static size_t pattern_len;

int
bench_msg_init(uint32_t max_len)
{
	size_t i, n = (size_t)RTE_MAX(max_len, (uint32_t)BENCH_CTRL_MSG_ROOM) + PATTERN_PERIOD;

	if (pattern != NULL)
		return 0;
	/* Cache-line aligned, as a sender's buffer would be. */
	pattern = aligned_alloc(RTE_CACHE_LINE_SIZE, RTE_ALIGN_CEIL(n, RTE_CACHE_LINE_SIZE));
	if (pattern == NULL)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		pattern[i] = (uint8_t)((i % PATTERN_PERIOD) * 7 + 1);
	pattern_len = n;
	return 0;
}

const uint8_t *
bench_msg_pattern(uint64_t seq)
{
	return pattern + seq % PATTERN_PERIOD;
}

size_t
bench_msg_pattern_len(void)
{
	return pattern_len;
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
	case BENCH_MSG_DONE: return "DONE";
	case BENCH_MSG_DONE_ACK: return "DONE_ACK";
	default: return "unknown";
	}
}

/* Kind and sequence number; the first thing that differs fails res. */
static int
check_hdr(const struct bench_msg_hdr *hdr, enum bench_msg_kind kind, uint64_t seq,
	  struct bench_result *res)
{
	if (hdr->kind != (uint32_t)kind)
		return bench_fail(res, -EBADMSG, "expected %s seq %" PRIu64 ", got %s (kind %"
				  PRIu32 ") seq %" PRIu64, bench_msg_kind_name(kind), seq,
				  bench_msg_kind_name(hdr->kind), hdr->kind, hdr->seq);
	if (hdr->seq != seq) {
		if (hdr->seq > seq)
			return bench_fail(res, -EBADMSG, "%s: expected seq %" PRIu64 ", got %"
					  PRIu64 ": %" PRIu64 " message(s) lost",
					  bench_msg_kind_name(kind), seq, hdr->seq, hdr->seq - seq);
		return bench_fail(res, -EBADMSG, "%s: expected seq %" PRIu64 ", got %" PRIu64
				  ": duplicated or reordered message",
				  bench_msg_kind_name(kind), seq, hdr->seq);
	}
	return 0;
}

/*
 * body (n bytes) against the pattern of seq from byte from of it; at is the
 * offset in the message reported for byte 0.
 */
static int
check_body(const uint8_t *body, size_t n, enum bench_msg_kind kind, uint64_t seq, size_t from,
	   size_t at, struct bench_result *res)
{
	const uint8_t *ref = pattern_for(seq) + from;
	size_t off;

	if (likely(memcmp(body, ref, n) == 0))
		return 0;
	for (off = 0; off < n && body[off] == ref[off]; off++)
		;
	return bench_fail(res, -EBADMSG, "%s seq %" PRIu64 ": corrupt payload at byte %zu: "
			  "0x%02x, expected 0x%02x", bench_msg_kind_name(kind), seq, off + at,
			  body[off], ref[off]);
}

int
bench_msg_check_iov(const struct iovec *iov, unsigned int n, enum bench_msg_kind kind,
		    uint64_t seq, uint32_t expect_len, struct bench_result *res)
{
	struct bench_msg_hdr hdr;
	size_t len = 0, at, skip;
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++)
		len += iov[i].iov_len;
	if (n == 0 || bench_msg_peek(iov[0].iov_base, iov[0].iov_len, &hdr) < 0)
		return bench_fail(res, -EBADMSG, "%s seq %" PRIu64 ": runt message of %zu bytes "
				  "(or its header split)", bench_msg_kind_name(kind), seq, len);
	ret = check_hdr(&hdr, kind, seq, res);
	if (ret < 0)
		return ret;
	if (len != expect_len || hdr.len != len)
		return bench_fail(res, -EBADMSG, "%s seq %" PRIu64 ": length %zu, header says %"
				  PRIu32 ", expected %" PRIu32, bench_msg_kind_name(kind), seq,
				  len, hdr.len, expect_len);
	/* The pattern runs on from the header, whatever the segments. */
	for (i = 0, at = 0; i < n; at += iov[i].iov_len, i++) {
		skip = i == 0 ? sizeof(hdr) : 0;
		ret = check_body((const uint8_t *)iov[i].iov_base + skip, iov[i].iov_len - skip,
				 kind, seq, at + skip - sizeof(hdr), at + skip, res);
		if (ret < 0)
			return ret;
	}
	return 0;
}

int
bench_msg_check(const uint8_t *msg, uint32_t len, enum bench_msg_kind kind, uint64_t seq,
		uint32_t expect_len, struct bench_result *res)
{
	const struct iovec iov = { .iov_base = (void *)(uintptr_t)msg, .iov_len = len };

	return bench_msg_check_iov(&iov, 1, kind, seq, expect_len, res);
}

int
bench_msg_check_fp(const uint8_t *imm, uint32_t imm_len, const uint8_t *data, size_t len,
		   enum bench_msg_kind kind, uint64_t seq, uint32_t size, struct bench_result *res)
{
	struct bench_msg_hdr hdr;
	int ret;

	if (unlikely(imm_len != sizeof(hdr)))
		return bench_fail(res, -EBADMSG, "%s seq %" PRIu64 ": %" PRIu32 " bytes of "
				  "immediate data, expected the %zu-byte header",
				  bench_msg_kind_name(kind), seq, imm_len, sizeof(hdr));
	memcpy(&hdr, imm, sizeof(hdr));
	ret = check_hdr(&hdr, kind, seq, res);
	if (unlikely(ret < 0))
		return ret;
	if (unlikely(len != size || hdr.len != size))
		return bench_fail(res, -EBADMSG, "%s seq %" PRIu64 ": %zu bytes of data, header "
				  "says %" PRIu32 ", expected %" PRIu32, bench_msg_kind_name(kind),
				  seq, len, hdr.len, size);
	if (len == 0)
		return 0;
	return check_body(data, len, kind, seq, 0, 0, res);
}

int
bench_msg_check_result(const uint8_t *msg, uint32_t len, uint64_t seq, const char *who,
		       struct bench_msg_result *out, struct bench_result *res)
{
	struct bench_msg_hdr hdr = { 0 };

	if (bench_msg_peek(msg, len, &hdr) < 0 || hdr.kind != BENCH_MSG_RESULT ||
	    len != BENCH_MSG_RESULT_LEN || hdr.len != len || hdr.seq != seq)
		return bench_fail(res, -EBADMSG, "%sexpected RESULT for %" PRIu64 " messages, got "
				  "%s seq %" PRIu64 " of %" PRIu32 " bytes", who, seq,
				  bench_msg_kind_name(hdr.kind), hdr.seq, len);
	if (out != NULL)
		memcpy(out, msg + BENCH_MSG_HDR_LEN, sizeof(*out));
	return 0;
}
