/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The control-path requests that frame a fast-path test (bench_fp.h): the
 * client sends SYNC, END and DONE and waits for each answer; a server takes
 * each request from its control session and answers it from its main loop,
 * once its fast path has caught up with what the request counts.
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <rte_cycles.h>

#include "bench_event.h"
#include "bench_fp.h"

/* ------------------------------------------------------------------ client */

void
bf_client_on_msg(struct bc_sess *s, const uint8_t *msg, uint32_t len)
{
	struct bf_side *f = s->priv;

	if (f->want_kind == BENCH_MSG_RESULT) {
		if (bench_msg_check_result(msg, len, f->want_seq, "", &f->result, s->res) == 0)
			f->got_reply = true;
		return;
	}
	if (f->want_kind != 0 && bench_msg_check(msg, len, f->want_kind, f->want_seq,
						 BENCH_MSG_HDR_LEN, s->res) == 0)
		f->got_reply = true;
	else if (f->want_kind == 0)
		bench_fail(s->res, -EBADMSG, "unexpected control message of %" PRIu32 " bytes",
			   len);
}

int
bf_ctrl_check_result(struct bf_side *f, uint64_t sent)
{
	if (f->result.received == sent && f->result.bytes == sent * f->size)
		return 0;
	return bench_fail(f->res, -EBADMSG, "sent %" PRIu64 " messages (%" PRIu64 " bytes), the "
			  "server received %" PRIu64 " (%" PRIu64 " bytes)", sent, sent * f->size,
			  f->result.received, f->result.bytes);
}

static uint32_t
reply_kind(uint32_t kind)
{
	switch (kind) {
	case BENCH_MSG_SYNC: return BENCH_MSG_SYNC_ACK;
	case BENCH_MSG_END: return BENCH_MSG_RESULT;
	default: return BENCH_MSG_DONE_ACK;
	}
}

int
bf_ctrl_request(struct bf_side *f, uint32_t kind, uint64_t seq)
{
	struct bc_sess *s = f->s;
	struct rte_comch_task_send *pending = NULL;
	uint64_t deadline = bc_deadline(s, BENCH_REPLY_TIMEOUT_S);
	uint8_t *buf;
	int ret;

	while ((buf = bc_buf_get(s)) == NULL) {
		ret = bf_progress_both(f);
		if (ret == 0)
			ret = bc_check_open(s, "send buffers");
		if (ret < 0)
			return ret;
	}
	f->want_kind = reply_kind(kind);
	f->want_seq = seq;
	f->got_reply = false;
	bench_msg_fill(buf, BENCH_MSG_HDR_LEN, kind, seq);
	ret = bc_send(s, buf, BENCH_MSG_HDR_LEN, &pending);
	if (ret == -EAGAIN)
		ret = bc_send_wait(s, pending, &f->res->eagain);
	while (ret == 0 && !f->got_reply) {
		ret = bf_progress_both(f);
		if (ret == 0)
			ret = bc_check_open(s, bench_msg_kind_name(f->want_kind));
		if (ret == 0 && rte_rdtsc() > deadline)
			ret = bench_fail(f->res, -ETIMEDOUT, "no %s after %d s",
					 bench_msg_kind_name(f->want_kind), BENCH_REPLY_TIMEOUT_S);
	}
	f->want_kind = 0;
	return ret;
}

/* ------------------------------------------------------------------ server */

void
bf_ctrl_take(struct bf_ctrl_req *c, struct bc_sess *s, const uint8_t *msg, uint32_t len)
{
	struct bench_msg_hdr hdr;

	if (unlikely(s->res->status != 0))
		return;
	if (bench_msg_peek(msg, len, &hdr) < 0 || len != BENCH_MSG_HDR_LEN ||
	    (hdr.kind != BENCH_MSG_SYNC && hdr.kind != BENCH_MSG_END &&
	     hdr.kind != BENCH_MSG_DONE)) {
		bench_fail(s->res, -EBADMSG, "unexpected control message of %" PRIu32 " bytes "
			   "(kind %" PRIu32 ")", len, len >= BENCH_MSG_HDR_LEN ? hdr.kind : 0);
		return;
	}
	if (c->kind != 0) {
		bench_fail(s->res, -EPROTO, "%s while %s is being served",
			   bench_msg_kind_name(hdr.kind), bench_msg_kind_name(c->kind));
		return;
	}
	c->kind = hdr.kind;
	c->seq = hdr.seq;
	c->deadline = bc_deadline(s, BENCH_REPLY_TIMEOUT_S);
}

/* Answer the request being served with kind; a RESULT carries got and bytes. */
static int
ctrl_reply(struct bf_ctrl_req *c, struct bc_sess *s, uint32_t kind, uint64_t got, uint64_t bytes)
{
	struct bench_msg_result result = { .received = got, .bytes = bytes };
	uint32_t len = kind == BENCH_MSG_RESULT ? BENCH_MSG_RESULT_LEN : BENCH_MSG_HDR_LEN;
	uint8_t *buf = bc_buf_get(s);

	if (buf == NULL)
		return bench_fail(s->res, -ENOBUFS, "no buffer for %s", bench_msg_kind_name(kind));
	bench_msg_fill(buf, BENCH_MSG_HDR_LEN, kind, c->seq);
	if (kind == BENCH_MSG_RESULT) {
		memcpy(buf + offsetof(struct bench_msg_hdr, len), &len, sizeof(len));
		memcpy(buf + BENCH_MSG_HDR_LEN, &result, sizeof(result));
	}
	c->kind = 0;
	return bc_reply(s, buf, len);
}

int
bf_ctrl_answer(struct bf_ctrl_req *c, struct bc_sess *s, uint64_t got, uint64_t bytes, bool ready)
{
	if (got > c->seq)
		return bench_fail(s->res, -EBADMSG, "%s: the client sent %" PRIu64 " messages, %"
				  PRIu64 " arrived", bench_msg_kind_name(c->kind), c->seq, got);
	if (got < c->seq || !ready) {
		if (rte_rdtsc() <= c->deadline)
			return 0;
		return bench_fail(s->res, -EBADMSG, "%s: the client sent %" PRIu64 " messages, %"
				  PRIu64 " arrived in %d s: %" PRIu64 " lost",
				  bench_msg_kind_name(c->kind), c->seq, got, BENCH_REPLY_TIMEOUT_S,
				  c->seq - got);
	}
	if (c->kind == BENCH_MSG_SYNC)
		bench_rx_start(&c->rx, got);
	else
		bench_rx_stop(&c->rx, got);
	if (c->ev != NULL)
		bench_ev_on_request(c->ev, c->kind, c->seq);
	return ctrl_reply(c, s, c->kind == BENCH_MSG_SYNC ? BENCH_MSG_SYNC_ACK : BENCH_MSG_RESULT,
			 got, bytes);
}

int
bf_ctrl_done(struct bf_ctrl_req *c, struct bc_sess *s)
{
	return ctrl_reply(c, s, BENCH_MSG_DONE_ACK, 0, 0);
}
