/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * ctrl-many baseline, server side: --clients Unix SOCK_SEQPACKET connections,
 * non-blocking, served from one epoll loop; each is checked by a responder of
 * its own, as over comch. The "unix" baseline sleeps in epoll_wait() until a
 * socket is readable; "unix-poll" calls it without a timeout, in a busy loop,
 * as comch polls its engine. Each readable socket is read until it is empty or
 * RECV_BUDGET messages were taken, so that one busy client cannot starve the
 * others.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>

#include "bench_responder.h"
#include "bench_runners.h"
#include "bench_stats.h"
#include "bench_unix.h"

/* Messages read from one socket before the next ready one gets its turn. */
#define RECV_BUDGET 64

struct many_server {
	struct bench_result *res;
	struct bu_conn *c;
	struct bench_responder *r;
	uint32_t n;
	uint32_t open;
	uint32_t ended;              /* ENDs answered: the measured part is over on them */
	uint8_t *buf, *reply;
	uint32_t cap;
	int ep;
};

/* Read what socket i has, up to the budget. 0, or a negative errno value. */
static int
drain(struct many_server *sv, uint32_t i)
{
	unsigned int k;
	ssize_t m;
	int ret;

	for (k = 0; k < RECV_BUDGET; k++) {
		m = recv(sv->c[i].fd, sv->buf, sv->cap, MSG_DONTWAIT | MSG_TRUNC);
		if (m > 0) {
			if (unlikely((size_t)m > sv->cap))
				return bench_fail(sv->res, -EMSGSIZE, "client %" PRIu32 ": message "
						  "of %zd bytes, room for %" PRIu32, i, m, sv->cap);
			ret = bench_responder_handle(&sv->r[i], sv->buf, m);
			if (ret > 0) {
				bench_responder_reply(&sv->r[i], sv->reply);
				ret = bu_send(&sv->c[i], sv->reply, ret);
				/* The last END: every socket still open, the traffic over. */
				if (ret == 0 && sv->r[i].reply_kind == BENCH_MSG_RESULT &&
				    ++sv->ended == sv->n)
					bench_rss_sample(sv->res, &sv->res->rss_end_kb);
			}
			if (ret < 0)
				return ret;
			continue;
		}
		if (m == 0) {
			/* The client is done with this connection. */
			epoll_ctl(sv->ep, EPOLL_CTL_DEL, sv->c[i].fd, NULL);
			bu_close(&sv->c[i]);
			sv->open--;
			return 0;
		}
		if (errno == EAGAIN)
			return 0;
		if (errno != EINTR)
			return bench_fail(sv->res, -errno, "client %" PRIu32 ": recv: %s", i,
					  strerror(errno));
	}
	return 0;
}

static int
serve(struct many_server *sv, bool sleep)
{
	struct epoll_event *ev;
	uint32_t i;
	int k, j, ret = 0;

	ev = calloc(sv->n, sizeof(*ev));
	if (ev == NULL)
		return bench_fail(sv->res, -ENOMEM, "out of memory");
	for (i = 0; i < sv->n && ret == 0; i++) {
		struct epoll_event e = { .events = EPOLLIN, .data.u32 = i };

		if (epoll_ctl(sv->ep, EPOLL_CTL_ADD, sv->c[i].fd, &e) < 0)
			ret = bench_fail(sv->res, -errno, "epoll_ctl: %s", strerror(errno));
	}
	sv->open = sv->n;
	/* No deadline: the clients pace the test, and their death closes the sockets. */
	while (ret == 0 && sv->open > 0) {
		k = epoll_wait(sv->ep, ev, sv->n, sleep ? 1000 : 0);
		if (k < 0 && errno != EINTR)
			ret = bench_fail(sv->res, -errno, "epoll_wait: %s", strerror(errno));
		for (j = 0; j < k && ret == 0; j++)
			if (sv->c[ev[j].data.u32].fd >= 0)
				ret = drain(sv, ev[j].data.u32);
	}
	free(ev);
	return ret;
}

int
unix_ctrl_many_serve(struct bench_ctx *bc, const struct bench_test *t, struct bench_result *res)
{
	const uint32_t size = bench_wire_size(t);
	struct many_server sv = {
		.res = res, .n = bc->opts->clients, .ep = -1,
		.cap = RTE_MAX(size, (uint32_t)BENCH_CTRL_MSG_ROOM),
	};
	struct bench_rx_window *w = NULL;
	uint32_t i;
	int ret;

	bench_rss_sample(res, &res->rss_base_kb);
	sv.c = calloc(sv.n, sizeof(*sv.c));
	sv.r = calloc(sv.n, sizeof(*sv.r));
	w = calloc(sv.n, sizeof(*w));
	sv.buf = malloc(sv.cap);
	sv.reply = malloc(sv.cap);
	if (sv.c == NULL || sv.r == NULL || w == NULL || sv.buf == NULL || sv.reply == NULL) {
		bench_fail(res, -ENOMEM, "out of memory for %" PRIu32 " connections", sv.n);
		goto out;
	}
	for (i = 0; i < sv.n; i++) {
		sv.c[i].fd = -1;
		bench_responder_init(&sv.r[i], t, res);
	}
	ret = bu_accept_many(sv.c, sv.n, bc, t, res);
	if (ret == 0) {
		bench_rss_sample(res, &res->rss_conn_kb);
		res->mem_units = sv.n;
	}
	if (ret == 0) {
		sv.ep = epoll_create1(EPOLL_CLOEXEC);
		if (sv.ep < 0)
			ret = bench_fail(res, -errno, "epoll_create1: %s", strerror(errno));
	}
	if (ret == 0)
		serve(&sv, t->transport == BENCH_TR_UNIX);
	/* The totals of every connection, and the server's one receiving window. */
	for (i = 0; i < sv.n; i++) {
		res->verified += sv.r[i].next_data + sv.r[i].next_ping;
		w[i] = sv.r[i].rx;
		bu_close(&sv.c[i]);
	}
	res->ops = res->verified;
	bench_rx_result(w, sv.n, res);
out:
	if (sv.ep >= 0)
		close(sv.ep);
	free(sv.c);
	free(sv.r);
	free(w);
	free(sv.buf);
	free(sv.reply);
	return res->status;
}
