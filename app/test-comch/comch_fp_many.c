/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * fp-many over comch, client side: --producers producers on one connection,
 * all on this side's fast-path engine, stream DATA to the server's
 * --consumers consumers. There are max(P, C) streams; stream j runs from
 * producer j % P to consumer j % C, so producer i sends to consumer i % C and,
 * with more consumers than producers, also to consumers i + P, i + 2P...
 * Each stream numbers its messages from 0: the server checks each one's order.
 *
 * Each round, every producer submits up to the test's burst, taking its
 * streams in turn; a submit refused because that consumer has no buffer
 * posted (-EAGAIN) is kept for the producer's next turn; then one round of
 * progress reaps all completions. Framed as fp-stream: --warmup messages in
 * all, a SYNC the server answers once it has them all, --duration seconds, an
 * END answered with what the consumers received.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "bench_fp.h"
#include "bench_runners.h"
#include "bench_stats.h"

struct stream_tx {
	uint32_t consumer;           /* index in the peer's announced consumers */
	uint64_t seq;                /* next message */
	uint64_t measured_from;
};

struct producer {
	struct bf_side f;
	uint32_t cur;                /* the stream to send on next */
	struct rte_comch_producer_task_send *pending; /* refused, for stream pending_j */
	uint32_t pending_j;
};

struct many_state {
	struct producer *pr;         /* [nb_pr]; pr[0].f also drives the engines */
	uint32_t nb_pr;
	struct stream_tx *streams;   /* [nb_streams] */
	uint32_t nb_streams;
	uint32_t burst;
	uint64_t sent;
	struct bench_tx_window tx;
	struct bench_stall stall;
};

/* Producer i's next stream after j: its streams are i, i + P, i + 2P... */
static inline uint32_t
next_stream(const struct many_state *st, uint32_t i, uint32_t j)
{
	j += st->nb_pr;
	return j < st->nb_streams ? j : i;
}

/* Producer p's refused message again: 0 once taken, -EAGAIN if refused again. */
static inline int
resubmit(struct many_state *st, struct producer *p)
{
	int ret = bf_resubmit(&p->f, p->pending);

	if (ret == -EAGAIN)
		return ret;
	p->pending = NULL;
	if (ret < 0)
		return ret;
	st->streams[p->pending_j].seq++;
	st->sent++;
	return 0;
}

/* Up to a burst from producer i, the refused one first; stop at a refusal. */
static inline int
send_burst(struct many_state *st, uint32_t i)
{
	struct producer *p = &st->pr[i];
	struct bf_side *f = &p->f;
	struct stream_tx *sx;
	uint32_t k, j;
	uint64_t c0;
	int ret;

	for (k = 0; k < st->burst; k++) {
		if (unlikely(p->pending != NULL)) {
			ret = resubmit(st, p);
			if (ret == -EAGAIN) {
				st->tx.eagain++;
				return 0;
			}
			if (ret < 0)
				return ret;
			continue;
		}
		j = p->cur;
		sx = &st->streams[j];
		p->cur = next_stream(st, i, j);
		f->peer_id = f->s->peer_ids[sx->consumer];
		c0 = bench_tx_t0(st->sent);
		ret = bf_send(f, BENCH_MSG_DATA, sx->seq, &p->pending);
		if (likely(ret == 0)) {
			bench_tx_sent(&st->tx, c0);
			sx->seq++;
			st->sent++;
			continue;
		}
		if (ret == -EAGAIN) {
			p->pending_j = j;
			st->tx.eagain++;
			return 0;
		}
		return ret == -ENOBUFS ? 0 : ret;
	}
	return 0;
}

static bool
any_pending(const struct many_state *st)
{
	uint32_t i;

	for (i = 0; i < st->nb_pr; i++)
		if (st->pr[i].pending != NULL)
			return true;
	return false;
}

/*
 * Rounds over every producer until t_end (TSC) or until limit messages were
 * sent; then, with flush, until none is left refused (each carries a
 * sequence number, and a SYNC or END must count it).
 */
static int
send_rounds(struct many_state *st, uint64_t t_end, uint64_t limit, bool flush)
{
	uint32_t i;
	int ret = 0;

	while (ret == 0 && st->sent < limit && rte_rdtsc() < t_end) {
		for (i = 0; i < st->nb_pr && ret == 0; i++)
			ret = send_burst(st, i);
		if (likely(ret == 0))
			ret = bf_progress(&st->pr[0].f);
		if (likely(ret == 0))
			ret = bf_check_stall(&st->pr[0].f, &st->stall, st->sent);
	}
	while (ret == 0 && flush && any_pending(st)) {
		for (i = 0; i < st->nb_pr && ret == 0; i++) {
			if (st->pr[i].pending != NULL)
				ret = resubmit(st, &st->pr[i]);
			ret = ret == -EAGAIN ? 0 : ret;
		}
		if (ret == 0)
			ret = bf_progress(&st->pr[0].f);
		if (ret == 0)
			ret = bf_check_stall(&st->pr[0].f, &st->stall, st->sent);
	}
	return ret;
}

/* Every consumer announced, then a producer per --producers. */
static int
producers_open(struct many_state *st, uint32_t nb_cons)
{
	struct bf_side *f = &st->pr[0].f;
	uint64_t deadline = bc_deadline(f->s, BENCH_REPLY_TIMEOUT_S);
	uint32_t i;
	int ret;

	while (f->s->nb_peer_consumers < nb_cons) {
		ret = bf_progress_both(f);
		if (ret == 0)
			ret = bc_check_open(f->s, "the server's consumers");
		if (ret < 0)
			return ret;
		if (rte_rdtsc() > deadline)
			return bench_fail(f->res, -ETIMEDOUT, "%" PRIu32 " of %" PRIu32
					  " consumers announced by the server after %d s",
					  f->s->nb_peer_consumers, nb_cons, BENCH_REPLY_TIMEOUT_S);
	}
	if (f->s->nb_peer_announced != nb_cons)
		return bench_fail(f->res, -EPROTO, "the server announced %" PRIu32 " consumers, "
				  "expected %" PRIu32, f->s->nb_peer_announced, nb_cons);
	for (i = 0; i < st->nb_pr; i++) {
		st->pr[i].cur = i;
		ret = bf_producer_open(&st->pr[i].f);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* Each consumer's share of the measured messages: the least and the best served. */
static void
shares(const struct many_state *st, uint32_t nb_cons, struct bench_result *res)
{
	uint64_t *per = calloc(nb_cons, sizeof(*per));
	uint32_t j, c;

	if (per == NULL)
		return;
	for (j = 0; j < st->nb_streams; j++)
		per[st->streams[j].consumer] += st->streams[j].seq - st->streams[j].measured_from;
	res->share_min = UINT64_MAX;
	for (c = 0; c < nb_cons; c++) {
		res->share_min = RTE_MIN(res->share_min, per[c]);
		res->share_max = RTE_MAX(res->share_max, per[c]);
	}
	free(per);
}

int
comch_fp_many_client(struct bench_ctx *bc, const struct bench_test *t, struct bench_result *res)
{
	const struct bench_opts *o = bc->opts;
	struct many_state st = {
		.nb_pr = o->producers, .burst = t->burst,
		.nb_streams = RTE_MAX(o->producers, o->consumers),
	};
	struct bf_side *f;
	struct bc_sess s;
	uint32_t i, j;
	int ret;

	/* The device and the engines first: theirs is the process's memory. */
	if (bc_env_fp_pe(bc, res) == NULL)
		return res->status;
	bench_rss_sample(res, &res->rss_base_kb);
	st.pr = calloc(st.nb_pr, sizeof(*st.pr));
	st.streams = calloc(st.nb_streams, sizeof(*st.streams));
	if (st.pr == NULL || st.streams == NULL) {
		free(st.pr);
		free(st.streams);
		return bench_fail(res, -ENOMEM, "out of memory for %" PRIu32 " producers",
				  st.nb_pr);
	}
	for (j = 0; j < st.nb_streams; j++)
		st.streams[j].consumer = j % o->consumers;
	for (i = 0; i < st.nb_pr; i++) {
		st.pr[i].f.s = &s;
		st.pr[i].f.res = res;
	}
	f = &st.pr[0].f;
	/* pr[0] makes the control requests: the session's replies go to it. */
	ret = bc_client_open(&s, bc, t, res, bf_client_on_msg, f);
	for (i = 0; i < st.nb_pr && ret == 0; i++)
		ret = bf_open(&st.pr[i].f, &s, t, res);
	if (ret == 0)
		ret = producers_open(&st, o->consumers);
	if (ret == 0) {
		bench_rss_sample(res, &res->rss_conn_kb);
		res->mem_units = st.nb_pr;
	}
	if (ret == 0)
		ret = send_rounds(&st, UINT64_MAX, o->warmup, true);
	/* Start from an empty pipe: the warm-up must not count, nor its backlog. */
	if (ret == 0)
		ret = bf_ctrl_request(f, BENCH_MSG_SYNC, st.sent);
	for (j = 0; j < st.nb_streams; j++)
		st.streams[j].measured_from = st.streams[j].seq;
	bench_tx_start(&st.tx, st.sent);
	if (ret == 0)
		ret = send_rounds(&st, st.tx.tsc_start + (uint64_t)(o->duration * bc->tsc_hz),
				  UINT64_MAX, true);
	if (ret == 0)
		ret = bf_ctrl_request(f, BENCH_MSG_END, st.sent);
	bench_tx_stop(&st.tx);
	if (ret == 0)
		bench_rss_sample(res, &res->rss_end_kb);
	if (ret == 0)
		bf_ctrl_check_result(f, st.sent);
	/* Our producers down first, then the server's consumers, then the connection. */
	for (i = 0; i < st.nb_pr; i++) {
		if (st.pr[i].pending != NULL)
			bf_abandon(&st.pr[i].f, st.pr[i].pending);
		bf_close(&st.pr[i].f);
	}
	if (res->status == 0)
		bf_ctrl_request(f, BENCH_MSG_DONE, 0);
	bc_close(&s);
	if (res->status == 0) {
		bench_tx_result(&st.tx, st.sent, t->size, bc->tsc_hz, res);
		res->verified = f->result.received;
		res->senders = st.nb_pr;
		res->receivers = o->consumers;
		shares(&st, o->consumers, res);
	}
	free(st.pr);
	free(st.streams);
	return res->status;
}
