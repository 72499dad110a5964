/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "bench_responder.h"

void
bench_responder_init(struct bench_responder *r, const struct bench_test *t,
		     struct bench_result *res)
{
	memset(r, 0, sizeof(*r));
	r->res = res;
	r->size = bench_wire_size(t);
}

static int
reply(struct bench_responder *r, uint32_t kind, uint64_t seq, uint32_t len)
{
	r->reply_kind = kind;
	r->reply_seq = seq;
	r->reply_len = len;
	return len;
}

int
bench_responder_handle_iov(struct bench_responder *r, const struct iovec *iov, unsigned int n)
{
	struct bench_msg_hdr hdr;
	int ret;

	if (n == 0 || bench_msg_peek(iov[0].iov_base, iov[0].iov_len, &hdr) < 0)
		return bench_fail(r->res, -EBADMSG, "runt message of %zu bytes",
				  n == 0 ? 0 : iov[0].iov_len);
	switch (hdr.kind) {
	case BENCH_MSG_PING:
		ret = bench_msg_check_iov(iov, n, BENCH_MSG_PING, r->next_ping, r->size, r->res);
		if (ret < 0)
			return ret;
		return reply(r, BENCH_MSG_PONG, r->next_ping++, r->size);
	case BENCH_MSG_DATA:
		ret = bench_msg_check_iov(iov, n, BENCH_MSG_DATA, r->next_data, r->size, r->res);
		if (ret < 0)
			return ret;
		r->next_data++;
		r->data_bytes += r->size;
		return 0;
	case BENCH_MSG_SYNC:
		/* The warm-up is over: what follows is measured, until END. */
		bench_rx_start(&r->rx, r->next_data);
		return reply(r, BENCH_MSG_SYNC_ACK, hdr.seq, BENCH_MSG_HDR_LEN);
	case BENCH_MSG_END:
		/* END's seq is how many DATA the client sent: anything else is loss. */
		if (hdr.seq != r->next_data)
			return bench_fail(r->res, -EBADMSG, "client sent %" PRIu64 " DATA messages,"
					  " server received %" PRIu64 ": %" PRIu64 " lost",
					  hdr.seq, r->next_data, hdr.seq - r->next_data);
		bench_rx_stop(&r->rx, r->next_data);
		return reply(r, BENCH_MSG_RESULT, hdr.seq, BENCH_MSG_RESULT_LEN);
	default:
		return bench_fail(r->res, -EBADMSG, "unexpected message kind %" PRIu32
				  " (seq %" PRIu64 ", %" PRIu32 " bytes)", hdr.kind, hdr.seq, hdr.len);
	}
}

int
bench_responder_handle(struct bench_responder *r, const uint8_t *msg, uint32_t len)
{
	const struct iovec iov = { .iov_base = (void *)(uintptr_t)msg, .iov_len = len };

	return bench_responder_handle_iov(r, &iov, 1);
}

void
bench_responder_reply(const struct bench_responder *r, uint8_t *buf)
{
	struct bench_msg_result result = {
		.received = r->next_data,
		.bytes = r->data_bytes,
		.errors = 0,
	};

	if (r->reply_kind != BENCH_MSG_RESULT) {
		bench_msg_fill(buf, r->reply_len, r->reply_kind, r->reply_seq);
		return;
	}
	bench_msg_fill(buf, BENCH_MSG_HDR_LEN, BENCH_MSG_RESULT, r->reply_seq);
	/* The header says the whole length; the body is the result, not a pattern. */
	memcpy(buf + offsetof(struct bench_msg_hdr, len), &r->reply_len, sizeof(r->reply_len));
	memcpy(buf + BENCH_MSG_HDR_LEN, &result, sizeof(result));
}

void
bench_responder_finish(const struct bench_responder *r)
{
	r->res->verified = r->next_ping + r->next_data;
	r->res->ops = r->res->verified;
	bench_rx_result(&r->rx, 1, r->res);
}
