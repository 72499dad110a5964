/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * fp-many over comch, server side: one connection, --consumers consumers on
 * the side's fast-path engine, each posting its buffers and checking every
 * message. A consumer may hear from several producers: it tells them apart by
 * the producer id of each completed task, and checks each producer's sequence
 * numbers on their own (the library orders messages per producer and
 * consumer, not across producers). The control requests are those of the
 * other fast-path modes (comch_fp_server.c), counted over all consumers:
 *   SYNC seq -> SYNC_ACK once seq messages arrived in all;
 *   END seq  -> RESULT once seq arrived;
 *   DONE     -> consumers torn down, then DONE_ACK.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "bench_fp.h"
#include "bench_runners.h"
#include "bench_stats.h"

/* One producer's messages to one consumer. */
struct stream_rx {
	uint32_t producer_id;
	uint64_t next_seq;
};

struct many_server;

/* One consumer: its side of the fast path and the streams it hears from. */
struct many_cons {
	struct bf_side f;
	struct many_server *sv;
	struct stream_rx *streams;   /* [max_streams], in the order first heard from */
	uint32_t nb_streams;
	uint32_t last;               /* the stream of the previous message */
};

struct many_server {
	struct bench_result *res;
	struct many_cons *cons;      /* [nb_cons]; cons[0].f also drives the engines */
	uint32_t nb_cons;
	uint32_t max_streams;        /* producers that send to one consumer */
	uint64_t received;
	uint64_t bytes;
	bool done;                   /* DONE served: only the control path is left */
	struct bf_ctrl_req req;      /* the control request being served */
};

/* The stream of producer pid on consumer mc, the first message of a new one opening it. */
static inline struct stream_rx *
stream_of(struct many_cons *mc, uint32_t pid)
{
	uint32_t i;

	if (likely(mc->last < mc->nb_streams && mc->streams[mc->last].producer_id == pid))
		return &mc->streams[mc->last];
	for (i = 0; i < mc->nb_streams; i++)
		if (mc->streams[i].producer_id == pid)
			break;
	if (i == mc->nb_streams) {
		if (i == mc->sv->max_streams)
			return NULL;
		mc->streams[i].producer_id = pid;
		mc->streams[i].next_seq = 0;
		mc->nb_streams++;
	}
	mc->last = i;
	return &mc->streams[i];
}

static void
on_recv(struct bf_side *f, const uint8_t *imm, uint32_t imm_len, const uint8_t *data, size_t len)
{
	struct many_cons *mc = f->priv;
	struct many_server *sv = mc->sv;
	struct stream_rx *st;
	uint32_t pid = UINT32_MAX;
	int ret;

	ret = rte_comch_consumer_task_post_recv_get_producer_id(f->rx_task, &pid);
	if (unlikely(ret < 0)) {
		bench_fail(f->res, ret, "rte_comch_consumer_task_post_recv_get_producer_id: %s",
			   strerror(-ret));
		return;
	}
	st = stream_of(mc, pid);
	if (unlikely(st == NULL)) {
		bench_fail(f->res, -EPROTO, "consumer %td: message from producer %" PRIu32 ", "
			   "but %" PRIu32 " others already send to it (at most %" PRIu32 ")",
			   mc - sv->cons, pid, mc->nb_streams, sv->max_streams);
		return;
	}
	if (unlikely(bench_msg_check_fp(imm, imm_len, data, len, BENCH_MSG_DATA, st->next_seq,
					f->size, f->res) < 0))
		return;
	st->next_seq++;
	sv->received++;
	sv->bytes += len;
}

/* Control-path message: remember the request; the main loop answers it. */
static void
on_ctrl(struct bc_sess *s, const uint8_t *msg, uint32_t len)
{
	struct many_server *sv = s->priv;

	bf_ctrl_take(&sv->req, s, msg, len);
}

/* Answer the pending request once the consumers have caught up with it. */
static int
serve_request(struct many_server *sv)
{
	uint32_t c;
	int ret;

	switch (sv->req.kind) {
	case BENCH_MSG_SYNC:
	case BENCH_MSG_END:
		return bf_ctrl_answer(&sv->req, sv->cons[0].f.s, sv->received, sv->bytes, true);
	case BENCH_MSG_DONE:
		/* Our consumers as the traffic left them, before they go. */
		bench_rss_sample(sv->res, &sv->res->rss_end_kb);
		/* The client tore its producers down first; our consumers need its acks. */
		for (c = 0; c < sv->nb_cons; c++) {
			ret = bf_close(&sv->cons[c].f);
			if (ret < 0)
				return ret;
		}
		sv->done = true;
		return bf_ctrl_done(&sv->req, sv->cons[0].f.s);
	default:
		return 0;
	}
}

static int
consumers_open(struct many_server *sv, struct bc_sess *s, const struct bench_test *t)
{
	uint32_t c;
	int ret;

	for (c = 0; c < sv->nb_cons; c++) {
		sv->cons[c].sv = sv;
		sv->cons[c].streams = calloc(sv->max_streams, sizeof(*sv->cons[c].streams));
		if (sv->cons[c].streams == NULL)
			return bench_fail(sv->res, -ENOMEM, "out of memory");
		ret = bf_open(&sv->cons[c].f, s, t, sv->res);
		if (ret == 0)
			ret = bf_consumer_open(&sv->cons[c].f, on_recv, &sv->cons[c]);
		if (ret < 0)
			return ret;
	}
	return 0;
}

int
comch_fp_many_serve(struct bench_ctx *bc, const struct bench_test *t, struct bench_result *res)
{
	const struct bench_opts *o = bc->opts;
	uint32_t nb_streams = RTE_MAX(o->producers, o->consumers), c;
	struct many_server sv = {
		.res = res, .nb_cons = o->consumers,
		/* Stream j runs from producer j % P to consumer j % C (comch_fp_many.c). */
		.max_streams = (nb_streams + o->consumers - 1) / o->consumers,
	};
	struct bc_sess s;
	int ret;

	/* The device and the engines first: theirs is the process's memory. */
	if (bc_env_fp_pe(bc, res) == NULL)
		return res->status;
	bench_rss_sample(res, &res->rss_base_kb);
	sv.cons = calloc(sv.nb_cons, sizeof(*sv.cons));
	if (sv.cons == NULL)
		return bench_fail(res, -ENOMEM, "out of memory for %" PRIu32 " consumers",
				  sv.nb_cons);
	/* Each may be closed whatever happens before it is opened. */
	for (c = 0; c < sv.nb_cons; c++) {
		sv.cons[c].f.s = &s;
		sv.cons[c].f.res = res;
	}
	ret = bc_server_open(&s, bc, t, res, on_ctrl, &sv);
	if (ret == 0)
		ret = bc_server_accept(&s);
	if (ret == 0)
		ret = consumers_open(&sv, &s, t);
	if (ret == 0) {
		bench_rss_sample(res, &res->rss_conn_kb);
		res->mem_units = sv.nb_cons;
	}
	/* Until DONE has torn the consumers down: then only the control path is left. */
	while (ret == 0 && !sv.done && !s.closed) {
		ret = bf_progress(&sv.cons[0].f);
		if (unlikely(ret == 0 && sv.req.kind != 0))
			ret = serve_request(&sv);
	}
	if (ret == 0 && s.closed)
		ret = bc_check_open(&s, "DONE");
	if (ret == 0)
		ret = bc_server_serve(&s);
	for (c = 0; c < sv.nb_cons; c++)
		bf_close(&sv.cons[c].f);
	bc_close(&s);
	res->verified = sv.received;
	res->ops = sv.received;
	bench_rx_result(&sv.req.rx, 1, res);
	for (c = 0; c < sv.nb_cons; c++)
		free(sv.cons[c].streams);
	free(sv.cons);
	return res->status;
}
