/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <rte_branch_prediction.h>
#include <rte_cycles.h>

#include "bench_unix.h"

#define SPINS_PER_CHECK 4096

static int
sock_path(struct bench_ctx *bc, const struct bench_test *t, struct sockaddr_un *sa,
	  struct bench_result *res)
{
	int n;

	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	n = snprintf(sa->sun_path, sizeof(sa->sun_path), "%s/unix-%u.sock", bc->opts->dir,
		     t->id);
	if (n < 0 || (size_t)n >= sizeof(sa->sun_path))
		return bench_fail(res, -ENAMETOOLONG, "socket path too long in %s",
				  bc->opts->dir);
	return 0;
}

static void
conn_init(struct bu_conn *c, struct bench_ctx *bc, const struct bench_test *t,
	  struct bench_result *res)
{
	memset(c, 0, sizeof(*c));
	c->fd = -1;
	c->poll = t->transport == BENCH_TR_UNIX_POLL;
	c->tsc_hz = bc->tsc_hz;
	c->res = res;
}

/*
 * The test's listening socket, its path in *sa, with a backlog of n: its fd,
 * or a negative errno value (res failed).
 */
static int
listen_sock(struct bench_ctx *bc, const struct bench_test *t, int n, struct sockaddr_un *sa,
	    struct bench_result *res)
{
	int fd, ret;

	ret = sock_path(bc, t, sa, res);
	if (ret < 0)
		return ret;
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return bench_fail(res, -errno, "socket: %s", strerror(errno));
	/* A file left by an earlier run of the same test would make bind fail. */
	unlink(sa->sun_path);
	if (bind(fd, (struct sockaddr *)sa, sizeof(*sa)) < 0 || listen(fd, n) < 0) {
		ret = bench_fail(res, -errno, "bind/listen %s: %s", sa->sun_path, strerror(errno));
		close(fd);
		unlink(sa->sun_path);
		return ret;
	}
	return fd;
}

static int
set_timeout(struct bu_conn *c, int opt, int seconds)
{
	struct timeval tv = { .tv_sec = seconds };

	if (setsockopt(c->fd, SOL_SOCKET, opt, &tv, sizeof(tv)) < 0)
		return bench_fail(c->res, -errno, "setsockopt(timeout): %s", strerror(errno));
	return 0;
}

int
bu_accept(struct bu_conn *c, struct bench_ctx *bc, const struct bench_test *t,
	  struct bench_result *res)
{
	struct pollfd pfd = { .events = POLLIN };
	struct sockaddr_un sa;
	int ret;

	conn_init(c, bc, t, res);
	pfd.fd = listen_sock(bc, t, 1, &sa, res);
	if (pfd.fd < 0)
		return pfd.fd;
	ret = poll(&pfd, 1, BENCH_CONNECT_TIMEOUT_S * 1000);
	if (ret <= 0) {
		ret = bench_fail(res, ret < 0 ? -errno : -ETIMEDOUT, "no client on %s within %d s",
				 sa.sun_path, BENCH_CONNECT_TIMEOUT_S);
		goto out;
	}
	c->fd = accept4(pfd.fd, NULL, NULL, SOCK_CLOEXEC);
	ret = c->fd < 0 ? bench_fail(res, -errno, "accept: %s", strerror(errno)) : 0;
out:
	close(pfd.fd);
	unlink(sa.sun_path);
	return ret;
}

int
bu_accept_many(struct bu_conn *c, uint32_t n, struct bench_ctx *bc, const struct bench_test *t,
	       struct bench_result *res)
{
	struct pollfd pfd = { .events = POLLIN };
	struct sockaddr_un sa;
	uint32_t i;
	int ret;

	for (i = 0; i < n; i++) {
		conn_init(&c[i], bc, t, res);
		/* Served from one loop, in turn: no call may block. */
		c[i].poll = true;
	}
	/* A backlog for all of them: the clients connect before the server accepts. */
	pfd.fd = listen_sock(bc, t, n, &sa, res);
	if (pfd.fd < 0)
		return pfd.fd;
	for (i = 0; i < n; i++) {
		ret = poll(&pfd, 1, BENCH_CONNECT_TIMEOUT_S * 1000);
		if (ret <= 0) {
			ret = bench_fail(res, ret < 0 ? -errno : -ETIMEDOUT, "%" PRIu32 " of %"
					 PRIu32 " clients on %s, then none for %d s", i, n,
					 sa.sun_path, BENCH_CONNECT_TIMEOUT_S);
			goto out;
		}
		c[i].fd = accept4(pfd.fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (c[i].fd < 0) {
			ret = bench_fail(res, -errno, "accept: %s", strerror(errno));
			goto out;
		}
	}
	ret = 0;
out:
	close(pfd.fd);
	unlink(sa.sun_path);
	return ret;
}

int
bu_connect(struct bu_conn *c, struct bench_ctx *bc, const struct bench_test *t,
	   struct bench_result *res)
{
	uint64_t deadline = rte_rdtsc() + BENCH_CONNECT_TIMEOUT_S * bc->tsc_hz;
	struct sockaddr_un sa;
	int ret;

	conn_init(c, bc, t, res);
	ret = sock_path(bc, t, &sa, res);
	if (ret < 0)
		return ret;
	for (;;) {
		c->fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
		if (c->fd < 0)
			return bench_fail(res, -errno, "socket: %s", strerror(errno));
		if (connect(c->fd, (struct sockaddr *)&sa, sizeof(sa)) == 0)
			break;
		ret = -errno;
		close(c->fd);
		c->fd = -1;
		/* Not listening yet (or a stale file from an earlier run): try again. */
		if ((ret != -ENOENT && ret != -ECONNREFUSED) || rte_rdtsc() > deadline)
			return bench_fail(res, ret, "connect %s: %s", sa.sun_path,
					  strerror(-ret));
		usleep(1000);
	}
	/* A blocking client must not wait forever on a server that went away. */
	ret = set_timeout(c, SO_RCVTIMEO, BENCH_REPLY_TIMEOUT_S);
	if (ret == 0)
		ret = set_timeout(c, SO_SNDTIMEO, BENCH_REPLY_TIMEOUT_S);
	return ret;
}

int
bu_fit(struct bu_conn *c, uint32_t size, int *limit)
{
	/* Headroom for the kernel's per-message accounting; it doubles what is set. */
	int want = size + 64 * 1024, got = 0;
	socklen_t len = sizeof(got);

	if (getsockopt(c->fd, SOL_SOCKET, SO_SNDBUF, &got, &len) == 0 && got >= want)
		return 0;
	setsockopt(c->fd, SOL_SOCKET, SO_SNDBUF, &want, sizeof(want));
	len = sizeof(got);
	if (getsockopt(c->fd, SOL_SOCKET, SO_SNDBUF, &got, &len) == 0 && got >= want)
		return 0;
	/* Past net.core.wmem_max: only allowed with CAP_NET_ADMIN. */
	setsockopt(c->fd, SOL_SOCKET, SO_SNDBUFFORCE, &want, sizeof(want));
	len = sizeof(got);
	if (getsockopt(c->fd, SOL_SOCKET, SO_SNDBUF, &got, &len) == 0 && got >= want)
		return 0;
	*limit = got;
	return -EMSGSIZE;
}

void
bu_close(struct bu_conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

int
bu_send(struct bu_conn *c, const uint8_t *buf, uint32_t len)
{
	int flags = MSG_NOSIGNAL | (c->poll ? MSG_DONTWAIT : 0);
	uint64_t deadline = 0;
	unsigned int spins = 0;
	ssize_t n;

	for (;;) {
		n = send(c->fd, buf, len, flags);
		if (likely(n == (ssize_t)len)) {
			c->probe = false;
			return 0;
		}
		if (n >= 0)
			return bench_fail(c->res, -EIO, "short send: %zd of %" PRIu32, n, len);
		if (errno == EINTR)
			continue;
		if (errno == ENOBUFS && c->probe)
			return -ENOBUFS;
		if (errno != EAGAIN || !c->poll)
			return bench_fail(c->res, -errno, "send: %s", strerror(errno));
		c->eagain++;
		if (unlikely(++spins % SPINS_PER_CHECK == 0)) {
			if (deadline == 0)
				deadline = rte_rdtsc() + BENCH_REPLY_TIMEOUT_S * c->tsc_hz;
			else if (rte_rdtsc() > deadline)
				return bench_fail(c->res, -ETIMEDOUT, "socket full for %d s",
						  BENCH_REPLY_TIMEOUT_S);
		}
	}
}

int
bu_recv(struct bu_conn *c, uint8_t *buf, uint32_t cap, bool wait_forever)
{
	/* MSG_TRUNC: the real length comes back even if it did not fit. */
	int flags = MSG_TRUNC | (c->poll ? MSG_DONTWAIT : 0);
	uint64_t deadline = 0;
	unsigned int spins = 0;
	ssize_t n;

	for (;;) {
		n = recv(c->fd, buf, cap, flags);
		if (likely(n > 0)) {
			if (unlikely((size_t)n > cap))
				return bench_fail(c->res, -EMSGSIZE, "message of %zd bytes, room "
						  "for %" PRIu32, n, cap);
			return n;
		}
		if (n == 0)
			return 0;
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN && !c->poll)
			return bench_fail(c->res, -ETIMEDOUT, "nothing received for %d s",
					  BENCH_REPLY_TIMEOUT_S);
		if (errno != EAGAIN)
			return bench_fail(c->res, -errno, "recv: %s", strerror(errno));
		if (unlikely(!wait_forever && ++spins % SPINS_PER_CHECK == 0)) {
			if (deadline == 0)
				deadline = rte_rdtsc() + BENCH_REPLY_TIMEOUT_S * c->tsc_hz;
			else if (rte_rdtsc() > deadline)
				return bench_fail(c->res, -ETIMEDOUT, "nothing received for %d s",
						  BENCH_REPLY_TIMEOUT_S);
		}
	}
}
