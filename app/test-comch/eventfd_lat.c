/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The eventfd baseline of the event modes: the cost of waking a sleeping
 * process and being woken back, with nothing else. Each side blocks in read()
 * on its own eventfd; the other side write()s it. No payload: a PING is the
 * value 1 written to the server's eventfd, a PONG the same to the client's.
 * The client times each round trip as the event modes do: from just before
 * the write to the return of the read that saw the PONG.
 *
 * The eventfds cross over the test's Unix socket (SCM_RIGHTS). A side blocked
 * in read() would not see its peer die: a guard thread, asleep on the socket
 * meanwhile, wakes it with a value of its own if the socket ends first.
 */

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <rte_cycles.h>

#include "bench_fdpass.h"
#include "bench_runners.h"
#include "bench_stats.h"
#include "bench_unix.h"

#define EV_PING 1
/* The client's last write: this plus the number of PINGs it sent, so the server can count. */
#define EV_STOP (UINT64_C(1) << 40)
/* Written by the guard thread: the peer's socket ended. */
#define EV_PEER_GONE (UINT64_C(1) << 56)
/* The byte the server sends back on the socket when it saw the STOP. */
#define EV_BYE 'B'

struct guard {
	pthread_t thread;
	int sock;     /* the test's socket: readable only once the peer is gone */
	int efd;      /* our eventfd, which the guard writes EV_PEER_GONE to */
	int stop;     /* an eventfd: we are done, the guard may go */
	bool running;
};

static void *
guard_main(void *arg)
{
	struct guard *g = arg;
	struct pollfd pfd[2] = {
		{ .fd = g->sock, .events = POLLIN | POLLRDHUP },
		{ .fd = g->stop, .events = POLLIN },
	};
	uint64_t v = EV_PEER_GONE;

	for (;;) {
		if (poll(pfd, 2, -1) < 0 && errno != EINTR)
			break;
		if (pfd[1].revents != 0)
			return NULL;
		if (pfd[0].revents != 0)
			break;
	}
	/* Nothing is sent on the socket while the guard runs: it ended. */
	if (write(g->efd, &v, sizeof(v)) < 0)
		return NULL;
	return NULL;
}

static int
guard_start(struct guard *g, int sock, int efd, struct bench_result *res)
{
	int ret;

	g->sock = sock;
	g->efd = efd;
	g->stop = eventfd(0, EFD_CLOEXEC);
	if (g->stop < 0)
		return bench_fail(res, -errno, "eventfd: %s", strerror(errno));
	ret = pthread_create(&g->thread, NULL, guard_main, g);
	if (ret != 0) {
		close(g->stop);
		return bench_fail(res, -ret, "pthread_create: %s", strerror(ret));
	}
	g->running = true;
	return 0;
}

static void
guard_stop(struct guard *g)
{
	uint64_t v = 1;

	if (!g->running)
		return;
	if (write(g->stop, &v, sizeof(v)) == sizeof(v))
		pthread_join(g->thread, NULL);
	else
		pthread_detach(g->thread);
	close(g->stop);
	g->running = false;
}

static int
ev_write(int fd, uint64_t v, struct bench_result *res)
{
	if (likely(write(fd, &v, sizeof(v)) == sizeof(v)))
		return 0;
	return bench_fail(res, -errno, "write to the peer's eventfd: %s", strerror(errno));
}

/* Block until our eventfd is written; its value (the sum of the writes) in *v. */
static int
ev_read(int fd, uint64_t *v, struct bench_result *res)
{
	ssize_t n;

	do {
		n = read(fd, v, sizeof(*v));
	} while (unlikely(n < 0 && errno == EINTR));
	if (likely(n == sizeof(*v)))
		return 0;
	return bench_fail(res, n < 0 ? -errno : -EIO, "read of our eventfd: %s",
			  n < 0 ? strerror(errno) : "short read");
}

/*
 * Our eventfd in *efd and the peer's in *peer, crossed over the test's socket:
 * the server's first, so the client receives before it sends.
 */
static int
ev_exchange(struct bu_conn *c, bool server, int *efd, int *peer, struct bench_result *res)
{
	int ret = 0;

	*efd = eventfd(0, EFD_CLOEXEC);
	if (*efd < 0)
		return bench_fail(res, -errno, "eventfd: %s", strerror(errno));
	if (server)
		ret = bench_fd_send(c->fd, *efd, res);
	if (ret == 0)
		ret = bench_fd_recv(c->fd, peer, res);
	if (ret == 0 && !server)
		ret = bench_fd_send(c->fd, *efd, res);
	return ret;
}

int
eventfd_lat_server(struct bench_ctx *bc, const struct bench_test *t, struct bench_result *res)
{
	struct guard g = { .running = false };
	int efd = -1, peer = -1, ret;
	uint64_t v, pings = 0;
	struct bu_conn c;
	char bye = EV_BYE;

	ret = bu_accept(&c, bc, t, res);
	if (ret < 0)
		return ret;
	ret = ev_exchange(&c, true, &efd, &peer, res);
	if (ret == 0)
		ret = guard_start(&g, c.fd, efd, res);
	while (ret == 0) {
		ret = ev_read(efd, &v, res);
		if (ret < 0)
			break;
		if (likely(v == EV_PING)) {
			pings++;
			ret = ev_write(peer, EV_PING, res);
		} else if (v >= EV_PEER_GONE) {
			ret = bench_fail(res, -ECONNRESET, "client went away after %" PRIu64
					 " PINGs", pings);
		} else if (v >= EV_STOP) {
			if (v - EV_STOP != pings)
				ret = bench_fail(res, -EBADMSG, "client sent %" PRIu64 " PINGs, "
						 "%" PRIu64 " arrived", v - EV_STOP, pings);
			break;
		} else {
			/* Two PINGs at once: the client did not wait for its PONG. */
			ret = bench_fail(res, -EBADMSG, "eventfd read %" PRIu64 " after %" PRIu64
					 " PINGs: expected one PING", v, pings);
		}
	}
	guard_stop(&g);
	/* Said on the socket, which the client waits on: it may close now. */
	if (ret == 0 && send(c.fd, &bye, 1, MSG_NOSIGNAL) != 1)
		bench_fail(res, -errno, "send: %s", strerror(errno));
	if (peer >= 0)
		close(peer);
	if (efd >= 0)
		close(efd);
	bu_close(&c);
	res->verified = pings;
	res->ops = pings;
	return res->status;
}

int
eventfd_lat_client(struct bench_ctx *bc, const struct bench_test *t, struct bench_result *res)
{
	const struct bench_opts *o = bc->opts;
	uint64_t *samples, seq = 0, total = o->warmup + o->iterations, t0, v;
	struct guard g = { .running = false };
	int efd = -1, peer = -1, ret;
	struct bu_conn c;
	char bye = 0;
	ssize_t n;

	samples = bench_samples_alloc(o->iterations, res);
	if (samples == NULL)
		return res->status;
	ret = bu_connect(&c, bc, t, res);
	if (ret == 0)
		ret = ev_exchange(&c, false, &efd, &peer, res);
	if (ret == 0)
		ret = guard_start(&g, c.fd, efd, res);
	for (seq = 0; ret == 0 && seq < total; seq++) {
		t0 = rte_rdtsc();
		ret = ev_write(peer, EV_PING, res);
		if (ret == 0)
			ret = ev_read(efd, &v, res);
		if (ret == 0 && unlikely(v != EV_PING))
			ret = bench_fail(res, v >= EV_PEER_GONE ? -ECONNRESET : -EBADMSG,
					 v >= EV_PEER_GONE ? "server went away" :
					 "eventfd read %" PRIu64 ": expected one PONG", v);
		if (seq >= o->warmup)
			samples[seq - o->warmup] = rte_rdtsc() - t0;
	}
	res->verified = seq;
	/* The guard goes first: the server's answer below makes the socket readable. */
	guard_stop(&g);
	if (ret == 0)
		ret = ev_write(peer, EV_STOP + total, res);
	/* The server's word that it counted every PING (the socket times out, see bu_connect). */
	if (ret == 0) {
		n = recv(c.fd, &bye, 1, 0);
		if (n != 1 || bye != EV_BYE)
			bench_fail(res, n < 0 ? -errno : -ECONNRESET, "no word from the server "
				   "after the last PING: %s",
				   n < 0 ? strerror(errno) : "connection closed");
	}
	if (peer >= 0)
		close(peer);
	if (efd >= 0)
		close(efd);
	bu_close(&c);
	if (res->status == 0)
		bench_stats_lat(res, samples, o->iterations, bc->tsc_hz);
	free(samples);
	return res->status;
}
