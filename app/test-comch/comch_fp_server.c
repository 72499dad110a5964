/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Server side of the fast-path modes over comch (fp-lat, fp-ev-lat, fp-stream,
 * fp-bw): a server per test, one client; on the connection, a consumer that
 * checks every message, and for the latency modes a producer that answers each
 * PING with a PONG from inside the consumer's completion callback. The client
 * frames the test with control-path requests, answered from the main loop
 * (bench_fp_ctl.c) once the fast path has caught up with them:
 *   SYNC seq  -> SYNC_ACK once seq messages arrived and the side is ready (its
 *                producer sends to the client's consumer, if the mode needs it);
 *   END seq   -> RESULT (messages and bytes received) once seq arrived;
 *   DONE      -> producer and consumer torn down, then DONE_ACK.
 * The fast path and the control path are not ordered with each other, so a
 * request waits for the messages it counts, at most BENCH_REPLY_TIMEOUT_S.
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "bench_event.h"
#include "bench_fp.h"
#include "bench_runners.h"
#include "bench_stats.h"

struct fp_server {
	struct bf_side f;
	bool need_producer;  /* fp-lat: answer PINGs */
	uint64_t next_ping;  /* sequence numbers the next PING and DATA must carry */
	uint64_t next_data;
	uint64_t data_bytes;
	/* The control request being served; in fp-ev-lat, req.ev sleeps when idle. */
	struct bf_ctrl_req req;
	/* A PONG the callback could not send (no buffer posted, or no task): retried. */
	struct rte_comch_producer_task_send *pending;
	bool pong_due;
	uint64_t pong_seq;
};

static void
send_pong(struct fp_server *sv, uint64_t seq)
{
	int ret = bf_send(&sv->f, BENCH_MSG_PONG, seq, &sv->pending);

	if (ret == -ENOBUFS) {
		sv->pong_due = true;
		sv->pong_seq = seq;
	}
}

/* Consumer completion: one message, checked against what must come next. */
static void
on_recv(struct bf_side *f, const uint8_t *imm, uint32_t imm_len, const uint8_t *data, size_t len)
{
	struct fp_server *sv = f->priv;
	struct bench_msg_hdr hdr = { 0 };

	if (imm_len == sizeof(hdr))
		memcpy(&hdr, imm, sizeof(hdr));
	switch (hdr.kind) {
	case BENCH_MSG_DATA:
		if (bench_msg_check_fp(imm, imm_len, data, len, BENCH_MSG_DATA, sv->next_data,
				       f->size, f->res) == 0) {
			sv->next_data++;
			sv->data_bytes += len;
		}
		return;
	case BENCH_MSG_PING:
		if (bench_msg_check_fp(imm, imm_len, data, len, BENCH_MSG_PING, sv->next_ping,
				       f->size, f->res) < 0)
			return;
		if (unlikely(f->producer == NULL || sv->pending != NULL || sv->pong_due)) {
			bench_fail(f->res, -EPROTO, "PING %" PRIu64 " before the %s", hdr.seq,
				   f->producer == NULL ? "SYNC (no producer yet)" :
				   "previous PONG went out");
			return;
		}
		send_pong(sv, sv->next_ping++);
		return;
	default:
		bench_fail(f->res, -EBADMSG, "unexpected fast-path message: kind %" PRIu32
			   " seq %" PRIu64 ", %" PRIu32 " bytes of immediate data, %zu of data",
			   hdr.kind, hdr.seq, imm_len, len);
	}
}

/* Control-path message: remember the request; the main loop answers it. */
static void
on_ctrl(struct bc_sess *s, const uint8_t *msg, uint32_t len)
{
	struct fp_server *sv = s->priv;

	bf_ctrl_take(&sv->req, s, msg, len);
}

/* Answer the pending request if the fast path has caught up with it. */
static int
serve_request(struct fp_server *sv)
{
	struct bf_side *f = &sv->f;
	int ret;

	switch (sv->req.kind) {
	case BENCH_MSG_SYNC:
	case BENCH_MSG_END:
		return bf_ctrl_answer(&sv->req, f->s, sv->next_data + sv->next_ping,
				      sv->data_bytes, !sv->need_producer || f->producer != NULL);
	case BENCH_MSG_DONE:
		/* The client tore its side down first; ours needs its acknowledgement. */
		ret = bf_close(f);
		if (ret < 0)
			return ret;
		return bf_ctrl_done(&sv->req, f->s);
	default:
		return 0;
	}
}

/* The rare work of the main loop. */
static int
serve_slow(struct fp_server *sv)
{
	struct bf_side *f = &sv->f;
	int ret = 0;

	if (sv->need_producer && f->producer == NULL && f->s->nb_peer_consumers != 0 &&
	    f->consumer != NULL)
		ret = bf_producer_open(f);
	if (ret == 0 && sv->pending != NULL) {
		ret = bf_resubmit(f, sv->pending);
		if (ret != -EAGAIN)
			sv->pending = NULL;
		ret = ret == -EAGAIN ? 0 : ret;
	}
	if (ret == 0 && sv->pong_due) {
		sv->pong_due = false;
		send_pong(sv, sv->pong_seq);
	}
	if (ret == 0 && sv->req.kind != 0)
		ret = serve_request(sv);
	return ret < 0 ? ret : f->res->status;
}

int
comch_fp_serve(struct bench_ctx *bc, const struct bench_test *t, struct bench_result *res)
{
	struct fp_server sv = { .need_producer = t->mode->kind == BENCH_KIND_LAT };
	struct bf_side *f = &sv.f;
	struct bench_ev ev;
	struct bc_sess s;
	int ret;

	f->s = &s;
	f->res = res;
	ret = bc_server_open(&s, bc, t, res, on_ctrl, &sv);
	if (ret == 0)
		ret = bc_server_accept(&s);
	if (ret == 0)
		ret = bf_open(f, &s, t, res);
	if (ret == 0)
		ret = bf_consumer_open(f, on_recv, &sv);
	if (ret == 0 && t->mode->event) {
		/* The fast path's engine first: the busy one, which says -EAGAIN first. */
		ret = bench_ev_init(&ev, res, bc->tsc_hz, f->pe, s.pe);
		sv.req.ev = ret == 0 ? &ev : NULL;
	}
	/* Until DONE has torn the fast path down: then only the control path is left. */
	while (ret == 0 && f->consumer != NULL && !s.closed) {
		/* A PONG waiting for a posted buffer is retried by polling: no wake-up for it. */
		if (sv.req.ev != NULL && sv.pending == NULL && !sv.pong_due)
			ret = bf_progress_ev(f, sv.req.ev);
		else
			ret = bf_progress(f);
		if (unlikely(ret == 0 && (sv.req.kind != 0 || sv.pending != NULL || sv.pong_due ||
					  (sv.need_producer && f->producer == NULL))))
			ret = serve_slow(&sv);
	}
	if (ret == 0 && s.closed)
		ret = bc_check_open(&s, "DONE");
	if (ret == 0)
		ret = bc_server_serve(&s);
	if (sv.pending != NULL)
		bf_abandon(f, sv.pending);
	bf_close(f);
	bc_close(&s);
	res->verified = sv.next_data + sv.next_ping;
	res->ops = res->verified;
	bench_rx_result(&sv.req.rx, 1, res);
	if (sv.req.ev != NULL)
		bench_ev_report(sv.req.ev, res);
	return res->status;
}
