/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * ctrl-many baseline, client side: --clients Unix SOCK_SEQPACKET connections
 * to one server, streaming DATA round-robin from one thread, framed as over
 * comch (SYNC on each, --duration seconds, END on each answered by what the
 * server checked on that connection). With "unix" a send blocks while its
 * socket is full, as a plain blocking program does; with "unix-poll" a full
 * socket is skipped until its next turn, as the comch client skips a full
 * queue, so each connection's share shows how evenly the server reads them.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_cycles.h>

#include "bench_msg.h"
#include "bench_runners.h"
#include "bench_stall.h"
#include "bench_stats.h"
#include "bench_unix.h"

struct many_state {
	struct bu_conn *c;
	uint64_t *seq;              /* next DATA of each connection */
	uint64_t *measured_from;
	uint32_t n;
	uint32_t size;
	uint8_t *buf;
	uint32_t cap;
	uint64_t sent;
	struct bench_tx_window tx;
	struct bench_result *res;
};

/* One DATA on connection i; in poll mode, a full socket is counted and skipped. */
static inline int
try_send(struct many_state *st, uint32_t i)
{
	struct bu_conn *c = &st->c[i];
	uint64_t c0;
	ssize_t n;
	int ret;

	bench_msg_fill(st->buf, st->size, BENCH_MSG_DATA, st->seq[i]);
	c0 = bench_tx_t0(st->sent);
	if (!c->poll) {
		ret = bu_send(c, st->buf, st->size);
	} else {
		n = send(c->fd, st->buf, st->size, MSG_DONTWAIT | MSG_NOSIGNAL);
		if (unlikely(n != (ssize_t)st->size)) {
			if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
				st->tx.eagain++;
				return 0;
			}
			if (n < 0 && errno == ENOBUFS && c->probe)
				return -ENOBUFS;
			return bench_fail(st->res, n < 0 ? -errno : -EIO, "client %" PRIu32
					  ": send: %s", i, n < 0 ? strerror(errno) : "short");
		}
		c->probe = false;
		ret = 0;
	}
	if (ret < 0)
		return ret;
	bench_tx_sent(&st->tx, c0);
	st->seq[i]++;
	st->sent++;
	return 0;
}

/*
 * Rounds over every connection until t_end (TSC) or until limit messages were
 * sent; failing if no socket takes one for BENCH_REPLY_TIMEOUT_S.
 */
static int
send_rounds(struct many_state *st, uint64_t t_end, uint64_t limit)
{
	uint64_t tsc_hz = st->c[0].tsc_hz;
	struct bench_stall stall;
	uint32_t i;
	int ret = 0;

	bench_stall_init(&stall, st->sent, tsc_hz);
	while (ret == 0 && st->sent < limit && rte_rdtsc() < t_end) {
		for (i = 0; i < st->n && ret == 0; i++)
			ret = try_send(st, i);
		if (ret == 0 && bench_stalled(&stall, st->sent, tsc_hz))
			ret = bench_fail(st->res, -ETIMEDOUT, "no socket took a message for %d s",
					 BENCH_REPLY_TIMEOUT_S);
	}
	return ret;
}

/* SYNC or END on every connection, then every answer, checked. */
static int
barrier(struct many_state *st, uint32_t kind)
{
	struct bench_msg_result result;
	char who[32];
	uint32_t i;
	int n, ret;

	for (i = 0; i < st->n; i++) {
		bench_msg_fill(st->buf, BENCH_MSG_HDR_LEN, kind, st->seq[i]);
		ret = bu_send(&st->c[i], st->buf, BENCH_MSG_HDR_LEN);
		if (ret < 0)
			return ret;
	}
	for (i = 0; i < st->n; i++) {
		n = bu_recv(&st->c[i], st->buf, st->cap, false);
		if (n < 0)
			return n;
		if (n == 0)
			return bench_fail(st->res, -ECONNRESET, "client %" PRIu32 ": server closed "
					  "the connection", i);
		if (kind == BENCH_MSG_SYNC) {
			ret = bench_msg_check(st->buf, n, BENCH_MSG_SYNC_ACK, st->seq[i],
					      BENCH_MSG_HDR_LEN, st->res);
			if (ret < 0)
				return ret;
			continue;
		}
		snprintf(who, sizeof(who), "client %" PRIu32 ": ", i);
		ret = bench_msg_check_result(st->buf, n, st->seq[i], who, &result, st->res);
		if (ret < 0)
			return ret;
		if (result.received != st->seq[i] || result.bytes != st->seq[i] * st->size)
			return bench_fail(st->res, -EBADMSG, "client %" PRIu32 " sent %" PRIu64
					  " messages, the server received %" PRIu64 " (%" PRIu64
					  " bytes)", i, st->seq[i], result.received, result.bytes);
		st->res->verified += result.received;
	}
	return 0;
}

int
unix_ctrl_many_client(struct bench_ctx *bc, const struct bench_test *t,
		      struct bench_result *res)
{
	const struct bench_opts *o = bc->opts;
	const uint32_t size = bench_wire_size(t);
	struct many_state st = {
		.n = o->clients, .size = size, .res = res,
		.cap = RTE_MAX(size, (uint32_t)BENCH_CTRL_MSG_ROOM),
	};
	int ret = 0, limit = 0;
	uint64_t n;
	uint32_t i, opened = 0;

	bench_rss_sample(res, &res->rss_base_kb);
	st.c = calloc(st.n, sizeof(*st.c));
	st.seq = calloc(st.n, sizeof(*st.seq));
	st.measured_from = calloc(st.n, sizeof(*st.measured_from));
	st.buf = malloc(st.cap);
	if (st.c == NULL || st.seq == NULL || st.measured_from == NULL || st.buf == NULL) {
		bench_fail(res, -ENOMEM, "out of memory for %" PRIu32 " connections", st.n);
		goto out;
	}
	for (i = 0; i < st.n && ret == 0; i++, opened++)
		ret = bu_connect(&st.c[i], bc, t, res);
	/* All connected first: the server, which waits for every one, then sees them close. */
	for (i = 0; i < st.n && ret == 0; i++) {
		if (bu_fit(&st.c[i], size, &limit) < 0) {
			bench_skip(res, "a %" PRIu32 "-byte datagram does not fit a Unix "
				   "socket here (send buffer %d bytes, see net.core.wmem_max)",
				   size, limit);
			goto out;
		}
		st.c[i].probe = true;
	}
	if (ret == 0) {
		bench_rss_sample(res, &res->rss_conn_kb);
		res->mem_units = st.n;
	}
	if (ret == 0)
		ret = send_rounds(&st, UINT64_MAX, RTE_MAX(o->warmup, (uint64_t)st.n));
	if (ret == -ENOBUFS) {
		bench_skip(res, "a %" PRIu32 "-byte datagram is more than this kernel "
			   "allocates for a Unix socket (ENOBUFS)", size);
		goto out;
	}
	if (ret == 0)
		ret = barrier(&st, BENCH_MSG_SYNC);
	for (i = 0; i < st.n; i++)
		st.measured_from[i] = st.seq[i];
	bench_tx_start(&st.tx, st.sent);
	if (ret == 0)
		ret = send_rounds(&st, st.tx.tsc_start + (uint64_t)(o->duration * bc->tsc_hz),
				  UINT64_MAX);
	if (ret == 0)
		ret = barrier(&st, BENCH_MSG_END);
	bench_tx_stop(&st.tx);
	if (ret == 0)
		bench_rss_sample(res, &res->rss_end_kb);
	if (res->status == 0) {
		bench_tx_result(&st.tx, st.sent, size, bc->tsc_hz, res);
		res->senders = st.n;
		res->receivers = 1;
		res->share_min = UINT64_MAX;
		for (i = 0; i < st.n; i++) {
			n = st.seq[i] - st.measured_from[i];
			res->share_min = RTE_MIN(res->share_min, n);
			res->share_max = RTE_MAX(res->share_max, n);
		}
	}
out:
	for (i = 0; i < opened && st.c != NULL; i++)
		bu_close(&st.c[i]);
	free(st.c);
	free(st.seq);
	free(st.measured_from);
	free(st.buf);
	return res->status;
}
