/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The legacy endpoint API (rte_comch_ep_*), beyond test_comch_ep.c:
 * - peer death (shm only): a peer process (this binary, re-executed with
 *   "--child") killed with SIGKILL while connected, on either side; the
 *   survivor's recv event fires, recvfrom never hangs, update_info says
 *   -ECONNABORTED, sendto -ECONNRESET, the service event fires and the
 *   service state forgets the peer; the server serves a new client afterwards.
 * - 72 clients on one service: all connect, exchange, are listed, leave.
 * - back-pressure: a sender flooding through a small window, sleeping on
 *   send_fd and recv_fd with epoll on -EAGAIN, a slow receiver on another
 *   lcore; every message arrives once, in order.
 * - a sender asleep on a full window (send_fd) woken by its peer's death.
 * - recvfrom into buffers of every boundary size, and every bad input of
 *   recvfrom and sendto.
 * - any thread may use an endpoint, one at a time: calls from a worker lcore
 *   work, and a second thread's calls while one is inside are refused (-EBUSY).
 * - clients that come and go unseen by the server's application cost nothing.
 * - the receive queue is bounded: a client flooding a server that progresses
 *   but does not read gets -EAGAIN once the server's queue and its
 *   connection's are full, and everything arrives once, in order, when the
 *   server reads; across processes (shm), a flood of 64 KiB messages at a
 *   server blocked in a blocking sendto leaves its memory flat, and what a
 *   flooder that dies leaves in its ring is delivered all the same.
 * No timing is asserted: every wait is bounded by a generous timeout.
 */

#include <errno.h>
#include <ftw.h>
#include <inttypes.h>
#include <limits.h>
#include <malloc.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_errno.h>

#include <rte_comch_ep.h>
#include <rte_lcore.h>

#include "comch_test_common.h"

/* Generous bound of the waits on another process or thread. */
#define LONG_MS 30000

/*
 * Under a sanitizer that checks heap accesses (AddressSanitizer,
 * ThreadSanitizer), the checks that pass freed objects back are left out:
 * the sanitizer reports the read that recognises them.
 */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define EP_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define EP_ASAN 1
#endif
#endif
#ifndef EP_ASAN
#define EP_ASAN 0
#endif
/* ThreadSanitizer's shadow memory grows with every byte touched: no RSS bound under it. */
#if defined(__SANITIZE_THREAD__)
#define EP_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define EP_TSAN 1
#endif
#endif
#ifndef EP_TSAN
#define EP_TSAN 0
#endif

struct env {
	char domain[32];
	struct rte_comch_dev *dpu;
	struct rte_comch_dev *host;
	struct rte_comch_dev_rep *rep;
};

static void
env_open(struct env *e)
{
	memset(e, 0, sizeof(*e));
	ct_domain(e->domain, sizeof(e->domain));
	e->dpu = ct_dev_open("domain=%s,role=dpu,rep=pf0", e->domain);
	assert_non_null(e->dpu);
	e->host = ct_dev_open("domain=%s,role=host,fn=pf0", e->domain);
	assert_non_null(e->host);
	e->rep = rte_comch_dev_rep_open(e->dpu, "pf0");
	assert_non_null(e->rep);
}

static void
env_close(struct env *e)
{
	assert_int_equal(rte_comch_dev_rep_close(e->rep), 0);
	assert_int_equal(rte_comch_dev_close(e->host), 0);
	assert_int_equal(rte_comch_dev_close(e->dpu), 0);
}

static struct rte_comch_ep *
ep_server(struct env *e, const char *name, uint32_t rq)
{
	struct rte_comch_ep *ep = rte_comch_ep_create();

	assert_non_null(ep);
	assert_int_equal(rte_comch_ep_set_device(ep, e->dpu), 0);
	assert_int_equal(rte_comch_ep_set_device_rep(ep, e->rep), 0);
	if (rq != 0)
		assert_int_equal(rte_comch_ep_set_recv_queue_size(ep, rq), 0);
	assert_int_equal(rte_comch_ep_listen(ep, name), 0);
	return ep;
}

static struct rte_comch_ep *
ep_client(struct env *e, const char *name, uint32_t sq, struct rte_comch_ep_peer **peer)
{
	struct rte_comch_ep *ep = rte_comch_ep_create();

	assert_non_null(ep);
	assert_int_equal(rte_comch_ep_set_device(ep, e->host), 0);
	if (sq != 0)
		assert_int_equal(rte_comch_ep_set_send_queue_size(ep, sq), 0);
	assert_int_equal(rte_comch_ep_connect(ep, name, peer), 0);
	return ep;
}

/* Run an endpoint's progress without taking a message. */
static void
pump(struct rte_comch_ep *ep)
{
	struct rte_comch_ep_peer *p;
	size_t len = 0;
	int rc;

	if (ep == NULL)
		return;
	rc = rte_comch_ep_recvfrom(ep, NULL, &len, 0, &p);
	/* a zero-length message would be taken: no test here sends one unasked */
	assert_true(rc == -EAGAIN || rc == -EMSGSIZE);
}

static int
recv_wait(struct rte_comch_ep *ep, struct rte_comch_ep *other, void *buf, size_t *len,
	  struct rte_comch_ep_peer **peer, unsigned int ms)
{
	uint64_t t0 = ct_now_ms();
	size_t cap = *len;
	int rc;

	do {
		*len = cap;
		rc = rte_comch_ep_recvfrom(ep, buf, len, 0, peer);
		if (rc != -EAGAIN)
			return rc;
		pump(other);
	} while (ct_now_ms() - t0 < ms);
	return -ETIMEDOUT;
}

static int
send_wait(struct rte_comch_ep *ep, struct rte_comch_ep *other, const void *msg, size_t len,
	  struct rte_comch_ep_peer *peer)
{
	uint64_t t0 = ct_now_ms();
	int rc;

	do {
		rc = rte_comch_ep_sendto(ep, msg, len, 0, peer);
		if (rc != -EAGAIN)
			return rc;
		pump(other);
	} while (ct_now_ms() - t0 < LONG_MS);
	return -ETIMEDOUT;
}

/* Pump other until update_info(peer) says want; returns 0 or the last answer. */
static int
wait_info(struct rte_comch_ep_peer *peer, struct rte_comch_ep *other, int want)
{
	uint64_t t0 = ct_now_ms();
	int rc;

	do {
		rc = rte_comch_ep_peer_addr_update_info(peer);
		if (rc == want)
			return 0;
		pump(other);
	} while (ct_now_ms() - t0 < LONG_MS);
	return rc;
}

static bool
fd_readable(int fd, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	return poll(&pfd, 1, ms) == 1 && (pfd.revents & POLLIN) != 0;
}

static uint32_t
svc_nb(struct rte_comch_ep *ep)
{
	struct rte_comch_ep_peer * const *list;
	uint32_t nb = UINT32_MAX;

	assert_int_equal(rte_comch_ep_update_service_state_info(ep), 0);
	assert_int_equal(rte_comch_ep_get_peer_addr_list(ep, &list, &nb), 0);
	assert_true(nb == 0 ? list == NULL : list != NULL);
	return nb;
}

/*
 * Arm the receive event, progressing while the engine has work, and taking
 * (dropping) the messages queued meanwhile (arming refuses while any is).
 */
static void
arm_recv(struct rte_comch_ep *ep)
{
	struct rte_comch_ep_peer *from;
	uint64_t t0 = ct_now_ms();
	char buf[256];
	size_t len;
	int rc;

	while ((rc = rte_comch_ep_event_handle_arm_recv(ep)) == -EAGAIN &&
	       ct_now_ms() - t0 < LONG_MS) {
		len = sizeof(buf);
		rc = rte_comch_ep_recvfrom(ep, buf, &len, 0, &from);
		assert_true(rc == 0 || rc == -EAGAIN);
	}
	assert_int_equal(rc, 0);
}

/* ============================================================ child process */

/* The flood (test_flood_*): FLOOD_MSGS messages of FLOOD_LEN bytes. */
#define FLOOD_LEN 65536
#define FLOOD_MSGS 1024
/* Small messages the server sends the flooder meanwhile (blocking sendto). */
#define FLOOD_REPLIES 200
/* The flooder says it is stalled after that many -EAGAIN in a row, over that long. */
#define FLOOD_STALL_TRIES 1000
#define FLOOD_STALL_MS 200

/* Take (and count) what the server sent the flooder; a bad one makes it -1. */
static void
flood_take_replies(struct rte_comch_ep *ep, int *got)
{
	struct rte_comch_ep_peer *from;
	uint8_t buf[64];
	uint32_t seq;
	size_t len;
	int rc;

	for (;;) {
		len = sizeof(buf);
		rc = rte_comch_ep_recvfrom(ep, buf, &len, 0, &from);
		if (rc == -EAGAIN)
			return;
		if (*got < 0)
			continue;
		memcpy(&seq, buf, sizeof(seq));
		/* each reply is its sequence number */
		if (rc != 0 || len != sizeof(seq) || seq != (uint32_t)*got)
			*got = -1;
		else
			(*got)++;
	}
}

/*
 * "flood" and "flood-die": send FLOOD_MSGS messages, non-blocking, counting
 * -EAGAIN; once stalled (the server stopped taking), say "STALLED sent=N
 * eagain=M" and from then on take the server's replies ("flood-die": stop
 * progressing instead, until killed). "DONE eagain=M replies=R" at the end.
 */
static int
child_flood(struct rte_comch_ep *ep, struct rte_comch_ep_peer *peer, bool die)
{
	static uint8_t msg[FLOOD_LEN];
	uint64_t t0 = ct_now_ms(), eagain = 0, run = 0, run_t0 = 0;
	uint32_t sent = 0;
	bool stalled = false;
	int got = 0, rc;

	ct_msg_fill(msg, FLOOD_LEN, 1, sent);
	while (sent < FLOOD_MSGS && ct_now_ms() - t0 < 4 * LONG_MS) {
		rc = rte_comch_ep_sendto(ep, msg, FLOOD_LEN, 0, peer);
		if (rc == 0) {
			run = 0;
			ct_msg_fill(msg, FLOOD_LEN, 1, ++sent);
			continue;
		}
		if (rc != -EAGAIN)
			return 11;
		eagain++;
		if (run++ == 0)
			run_t0 = ct_now_ms();
		if (!stalled && run >= FLOOD_STALL_TRIES &&
		    ct_now_ms() - run_t0 >= FLOOD_STALL_MS) {
			printf("STALLED sent=%u eagain=%" PRIu64 "\n", sent, eagain);
			fflush(stdout);
			stalled = true;
			while (die && ct_now_ms() - t0 < 4 * LONG_MS)
				usleep(1000);
		}
		if (stalled)
			flood_take_replies(ep, &got);
		usleep(50);
	}
	while (got >= 0 && got < FLOOD_REPLIES && ct_now_ms() - t0 < 4 * LONG_MS) {
		flood_take_replies(ep, &got);
		usleep(50);
	}
	printf("DONE sent=%u eagain=%" PRIu64 " replies=%d\n", sent, eagain, got);
	fflush(stdout);
	/* progress until killed: the server sees its last messages taken */
	while (ct_now_ms() - t0 < 4 * LONG_MS) {
		flood_take_replies(ep, &got);
		usleep(1000);
	}
	return 0;
}

/*
 * "--child srv|cli|stall|flood|flood-die <dir> <domain> <name>": an endpoint in
 * a process of its own (own EAL, shm devices in dir), echoing every message it
 * receives. A client first sends "hello"; "stall" is a client that then does
 * nothing; "flood" and "flood-die" flood the server (child_flood()).
 * "READY" on stdout once listening (connected). It runs until killed (or
 * LONG_MS * 4, or its parent dies).
 */
static int
child_main(int argc, char **argv)
{
	char pfx[64], devargs[600], buf[8192];
	struct rte_comch_ep_peer *peer = NULL, *from;
	struct rte_comch_dev_rep *rep;
	struct rte_comch_dev *dev;
	struct rte_comch_ep *ep;
	bool server, stall, flood;
	uint64_t t0;
	size_t len;
	int rc;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (argc < 6)
		return 2;
	server = strcmp(argv[2], "srv") == 0;
	stall = strcmp(argv[2], "stall") == 0;
	flood = strncmp(argv[2], "flood", 5) == 0;
	snprintf(pfx, sizeof(pfx), "--file-prefix=comch_epc%d", (int)getpid());
	{
		char *eargv[] = { argv[0], (char *)"--no-huge", (char *)"-m", (char *)"128",
				  (char *)"--no-pci", pfx, (char *)"-l", (char *)"0",
				  (char *)"--log-level=lib.comch:notice", NULL };

		if (rte_eal_init(RTE_DIM(eargv) - 1, eargv) < 0) {
			fprintf(stderr, "child: rte_eal_init: %s\n", rte_strerror(rte_errno));
			return 3;
		}
	}
	if (server)
		snprintf(devargs, sizeof(devargs), "shm:domain=%s,role=dpu,rep=pf0,dir=%s",
			 argv[4], argv[3]);
	else
		snprintf(devargs, sizeof(devargs), "shm:domain=%s,role=host,fn=pf0,dir=%s",
			 argv[4], argv[3]);
	dev = rte_comch_dev_open(devargs);
	ep = rte_comch_ep_create();
	if (dev == NULL || ep == NULL || rte_comch_ep_set_device(ep, dev) != 0)
		return 4;
	if (server) {
		rep = rte_comch_dev_rep_open(dev, "pf0");
		if (rep == NULL || rte_comch_ep_set_device_rep(ep, rep) != 0 ||
		    rte_comch_ep_listen(ep, argv[5]) != 0)
			return 5;
	} else {
		if (rte_comch_ep_connect(ep, argv[5], &peer) != 0)
			return 6;
		t0 = ct_now_ms();
		while ((rc = rte_comch_ep_peer_addr_update_info(peer)) != 0) {
			if (rc != -EINPROGRESS || ct_now_ms() - t0 > LONG_MS) {
				fprintf(stderr, "child: connect: %d\n", rc);
				return 7;
			}
			usleep(100);
		}
		while ((rc = rte_comch_ep_sendto(ep, "hello", 6, 0, peer)) == -EAGAIN)
			usleep(100);
		if (rc != 0)
			return 8;
	}
	printf("READY\n");
	fflush(stdout);
	if (flood)
		return child_flood(ep, peer, strcmp(argv[2], "flood-die") == 0);
	t0 = ct_now_ms();
	/* "stall": connected, then never progresses again (its window fills) */
	while (stall && ct_now_ms() - t0 < 4 * LONG_MS)
		usleep(1000);
	while (ct_now_ms() - t0 < 4 * LONG_MS) {
		len = sizeof(buf);
		rc = rte_comch_ep_recvfrom(ep, buf, &len, 0, &from);
		if (rc == -EAGAIN) {
			usleep(50);
			continue;
		}
		if (rc != 0)
			return 9;
		while ((rc = rte_comch_ep_sendto(ep, buf, len, 0, from)) == -EAGAIN)
			usleep(50);
		if (rc != 0 && rc != -ECONNRESET)
			return 10;
	}
	return 0;
}

struct child {
	pid_t pid;
	int out;             /* read end of its stdout */
	char prefix[64];
	char buf[256];       /* what it wrote, not yet taken as lines */
	size_t len;
};

static struct child *
child_spawn(const char *role, const char *domain, const char *name)
{
	struct child *c = calloc(1, sizeof(*c));
	int fds[2];

	assert_non_null(c);
	assert_int_equal(pipe(fds), 0);
	fflush(NULL);
	c->pid = fork();
	assert_true(c->pid >= 0);
	if (c->pid == 0) {
		char *argv[] = { (char *)"test_comch_ep_more", (char *)"--child", (char *)role,
				 (char *)ct_dir(), (char *)domain, (char *)name, NULL };

		close(fds[0]);
		dup2(fds[1], STDOUT_FILENO);
		close(fds[1]);
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	close(fds[1]);
	c->out = fds[0];
	snprintf(c->prefix, sizeof(c->prefix), "comch_epc%d", (int)c->pid);
	return c;
}

/* The next line the child wrote (without its newline), waiting at most ms; false if none. */
static bool
child_line(struct child *c, char *line, size_t cap, int ms)
{
	char *nl;
	ssize_t r;

	while ((nl = memchr(c->buf, '\n', c->len)) == NULL) {
		if (c->len == sizeof(c->buf))
			c->len = 0; /* a line too long for us: not one we wait for */
		if (!fd_readable(c->out, ms))
			return false;
		r = read(c->out, c->buf + c->len, sizeof(c->buf) - c->len);
		if (r <= 0)
			fail_msg("child %d exited", (int)c->pid);
		c->len += (size_t)r;
	}
	*nl = '\0';
	snprintf(line, cap, "%s", c->buf);
	c->len -= (size_t)(nl + 1 - c->buf);
	memmove(c->buf, nl + 1, c->len);
	return true;
}

/* Wait for "READY" on the child's stdout. */
static void
child_ready(struct child *c)
{
	char line[sizeof(c->buf)] = "";

	while (strstr(line, "READY") == NULL)
		if (!child_line(c, line, sizeof(line), LONG_MS))
			fail_msg("child %d: no READY", (int)c->pid);
}

static int
rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

/* SIGKILL the child, reap it, remove its EAL runtime directory. */
static void
child_kill(struct child *c)
{
	char rundir[PATH_MAX];
	const char *base;
	int st;

	if (c == NULL)
		return;
	kill(c->pid, SIGKILL);
	assert_int_equal(waitpid(c->pid, &st, 0), c->pid);
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
	close(c->out);
	if (geteuid() == 0)
		base = "/var/run/dpdk";
	else
		base = getenv("XDG_RUNTIME_DIR");
	if (base == NULL)
		base = "/tmp";
	snprintf(rundir, sizeof(rundir), "%s%s/%s", base, geteuid() == 0 ? "" : "/dpdk",
		 c->prefix);
	nftw(rundir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
	free(c);
}

/* ============================================================== peer death */

/* Send ping and wait for its echo from peer. */
static void
ping(struct rte_comch_ep *ep, struct rte_comch_ep_peer *peer, const char *msg)
{
	struct rte_comch_ep_peer *from;
	char buf[64];
	size_t len = sizeof(buf);

	assert_int_equal(send_wait(ep, NULL, msg, strlen(msg) + 1, peer), 0);
	assert_int_equal(recv_wait(ep, NULL, buf, &len, &from, LONG_MS), 0);
	assert_ptr_equal(from, peer);
	assert_int_equal(len, strlen(msg) + 1);
	assert_string_equal(buf, msg);
}

/* The peer is dead: recv_fd fires (if armed), and everything says so without hanging. */
static void
check_dead_peer(struct rte_comch_ep *ep, struct rte_comch_ep_peer *peer, bool sleep_capa)
{
	struct rte_comch_ep_peer_stats st;
	struct rte_comch_ep_peer *from;
	char buf[64];
	uint64_t t0;
	size_t len;
	int rfd, rc;

	assert_int_equal(rte_comch_ep_get_event_channel(ep, NULL, &rfd), 0);
	if (sleep_capa)
		assert_true(fd_readable(rfd, LONG_MS));
	/* update_info reports the end; recvfrom drains echoes, then says -EAGAIN */
	t0 = ct_now_ms();
	while ((rc = rte_comch_ep_peer_addr_update_info(peer)) == 0 &&
	       ct_now_ms() - t0 < LONG_MS) {
		len = sizeof(buf);
		rc = rte_comch_ep_recvfrom(ep, buf, &len, 0, &from);
		assert_true(rc == 0 || rc == -EAGAIN);
	}
	assert_int_equal(rc, -ECONNABORTED);
	do {
		len = sizeof(buf);
		rc = rte_comch_ep_recvfrom(ep, buf, &len, 0, &from);
		assert_true(rc == 0 || rc == -EAGAIN);
	} while (rc == 0);
	assert_int_equal(rte_comch_ep_recvfrom(ep, buf, &len, 0, &from), -EAGAIN);
	assert_int_equal(rte_comch_ep_sendto(ep, "x", 2, 0, peer), -ECONNRESET);
	assert_int_equal(rte_comch_ep_sendto(ep, NULL, 0, 0, peer), -ECONNRESET);
	/* the messages in flight at the death complete (with an error) */
	t0 = ct_now_ms();
	do {
		assert_int_equal(rte_comch_ep_peer_addr_update_info(peer), -ECONNABORTED);
		assert_int_equal(rte_comch_ep_peer_addr_get_stats(peer, &st), 0);
	} while (st.send_in_flight_messages != 0 && ct_now_ms() - t0 < LONG_MS);
	assert_int_equal(st.send_in_flight_messages, 0);
	/* and the arm says so: nothing queued, no work left */
	arm_recv(ep);
}

static bool
has_sleep(struct rte_comch_dev *dev)
{
	struct rte_comch_dev_info info;

	assert_int_equal(rte_comch_dev_info_get(dev, &info), 0);
	return (info.capa & RTE_COMCH_CAPA_SLEEP) != 0;
}

/* A client process killed: the server sees it go, and serves the next one. */
static void
test_death_of_client(void **state)
{
	struct rte_comch_ep_peer *speer, *p2;
	struct rte_comch_ep *srv;
	struct child *c;
	uint64_t t0;
	char buf[64];
	size_t len;
	int sfd, i;
	bool sl;
	struct env e;

	(void)state;
	CT_NEED(CT_CAP_PROCESSES, "the peer is a child process");
	env_open(&e);
	sl = has_sleep(e.dpu);
	srv = ep_server(&e, "ep_death_c", 0);
	assert_int_equal(rte_comch_ep_get_service_event_channel(srv, &sfd), 0);
	assert_int_equal(svc_nb(srv), 0);

	for (int round = 0; round < 2; round++) {
		c = child_spawn("cli", e.domain, "ep_death_c");
		len = sizeof(buf);
		assert_int_equal(recv_wait(srv, NULL, buf, &len, &speer, LONG_MS), 0);
		assert_string_equal(buf, "hello");
		child_ready(c);
		assert_int_equal(rte_comch_ep_peer_addr_update_info(speer), 0);
		ping(srv, speer, "ping");
		assert_int_equal(svc_nb(srv), 1);
		assert_false(fd_readable(sfd, 0));

		/* messages in flight, recv armed, then the kill */
		for (i = 0; i < 3; i++)
			assert_int_equal(send_wait(srv, NULL, "inflight", 9, speer), 0);
		arm_recv(srv);
		child_kill(c);
		check_dead_peer(srv, speer, sl);
		/* the service event, and a state without the peer (not yet released) */
		t0 = ct_now_ms();
		while (!fd_readable(sfd, 0) && ct_now_ms() - t0 < LONG_MS)
			pump(srv);
		assert_true(fd_readable(sfd, 0));
		assert_int_equal(svc_nb(srv), 0);
		assert_false(fd_readable(sfd, 0));
		assert_int_equal(rte_comch_ep_disconnect(srv, speer), 0);
		assert_int_equal(svc_nb(srv), 0);
	}

	/* still serving: an in-process client now */
	{
		struct rte_comch_ep *cli = ep_client(&e, "ep_death_c", 0, &p2);

		assert_int_equal(wait_info(p2, srv, 0), 0);
		assert_int_equal(send_wait(cli, srv, "again", 6, p2), 0);
		len = sizeof(buf);
		assert_int_equal(recv_wait(srv, cli, buf, &len, &speer, LONG_MS), 0);
		assert_string_equal(buf, "again");
		assert_int_equal(svc_nb(srv), 1);
		assert_int_equal(rte_comch_ep_destroy(cli), 0);
	}
	assert_int_equal(rte_comch_ep_destroy(srv), 0);
	env_close(&e);
}

/* A server process killed: the client sees it go, and connects to the next one. */
static void
test_death_of_server(void **state)
{
	struct rte_comch_ep_peer *cpeer;
	struct rte_comch_ep *cli;
	struct child *c;
	char name[32];
	int i;
	bool sl;
	struct env e;

	(void)state;
	CT_NEED(CT_CAP_PROCESSES, "the peer is a child process");
	env_open(&e);
	sl = has_sleep(e.host);
	cli = rte_comch_ep_create();
	assert_non_null(cli);
	assert_int_equal(rte_comch_ep_set_device(cli, e.host), 0);
	for (int round = 0; round < 2; round++) {
		/* a service name of its own per round: a dead server's name may linger */
		snprintf(name, sizeof(name), "ep_death_s%d", round);
		c = child_spawn("srv", e.domain, name);
		child_ready(c);
		{
			uint64_t t0 = ct_now_ms();
			int rc;

			/* the previous client may still be stopping */
			while ((rc = rte_comch_ep_connect(cli, name, &cpeer)) == -EBUSY &&
			       ct_now_ms() - t0 < LONG_MS)
				usleep(100);
			assert_int_equal(rc, 0);
		}
		assert_int_equal(wait_info(cpeer, NULL, 0), 0);
		ping(cli, cpeer, "ping");
		ping(cli, cpeer, "pong");
		for (i = 0; i < 3; i++)
			assert_int_equal(send_wait(cli, NULL, "inflight", 9, cpeer), 0);
		arm_recv(cli);
		child_kill(c);
		check_dead_peer(cli, cpeer, sl);
		assert_int_equal(rte_comch_ep_disconnect(cli, cpeer), 0);
	}
	assert_int_equal(rte_comch_ep_destroy(cli), 0);
	env_close(&e);
}

/* A sender asleep on a full window (send_fd, recv_fd) is woken by its peer's death. */
static void
test_death_while_blocked(void **state)
{
	struct rte_comch_ep_peer_stats st;
	struct epoll_event ev, evs[2];
	struct rte_comch_ep_peer *speer;
	struct rte_comch_ep *srv;
	struct child *c;
	bool woken = false;
	uint32_t i, sent = 0;
	uint64_t t0;
	char buf[64];
	size_t len;
	int sfd, rfd, epfd, n, rc = 0;
	struct env e;

	(void)state;
	CT_NEED(CT_CAP_PROCESSES, "the peer is a child process");
	env_open(&e);
	srv = ep_server(&e, "ep_death_b", 0);
	c = child_spawn("stall", e.domain, "ep_death_b");
	len = sizeof(buf);
	assert_int_equal(recv_wait(srv, NULL, buf, &len, &speer, LONG_MS), 0);
	assert_string_equal(buf, "hello");
	child_ready(c);
	/* the child takes nothing: fill its window */
	for (i = 0; i < 100000; i++) {
		rc = rte_comch_ep_sendto(srv, &i, sizeof(i), 0, speer);
		if (rc == -EAGAIN)
			break;
		assert_int_equal(rc, 0);
		sent++;
	}
	assert_int_equal(rc, -EAGAIN);
	assert_true(sent > 0);
	assert_int_equal(rte_comch_ep_get_event_channel(srv, &sfd, &rfd), 0);
	assert_int_equal(rte_comch_ep_event_handle_arm_send(srv), 0);
	epfd = epoll_create1(EPOLL_CLOEXEC);
	assert_true(epfd >= 0);
	ev = (struct epoll_event){ .events = EPOLLIN, .data.fd = sfd };
	assert_int_equal(epoll_ctl(epfd, EPOLL_CTL_ADD, sfd, &ev), 0);
	ev = (struct epoll_event){ .events = EPOLLIN, .data.fd = rfd };
	assert_int_equal(epoll_ctl(epfd, EPOLL_CTL_ADD, rfd, &ev), 0);
	/* a spurious wake-up first is allowed: still blocked, arm again */
	n = epoll_wait(epfd, evs, 2, 0);
	for (int k = 0; k < n; k++)
		if (evs[k].data.fd == sfd)
			assert_int_equal(rte_comch_ep_sendto(srv, &i, sizeof(i), 0, speer),
					 -EAGAIN);
	assert_int_equal(rte_comch_ep_event_handle_arm_send(srv), 0);

	child_kill(c);
	t0 = ct_now_ms();
	while (!woken && ct_now_ms() - t0 < LONG_MS) {
		n = epoll_wait(epfd, evs, 2, 1000);
		assert_true(n >= 0);
		for (int k = 0; k < n; k++)
			woken |= evs[k].data.fd == sfd;
		if (!woken) {
			/* recv_fd (or a time-out): progress, as the contract says, re-arm */
			pump(srv);
			assert_int_equal(rte_comch_ep_event_handle_arm_send(srv), 0);
		}
	}
	assert_true(woken);
	assert_int_equal(rte_comch_ep_sendto(srv, &i, sizeof(i), 0, speer), -ECONNRESET);
	assert_int_equal(rte_comch_ep_peer_addr_update_info(speer), -ECONNABORTED);
	assert_int_equal(rte_comch_ep_peer_addr_get_stats(speer, &st), 0);
	assert_int_equal(st.send_in_flight_messages, 0);
	/* the messages the child never took are not counted as sent */
	assert_true(st.send_messages < sent);
	len = sizeof(buf);
	assert_int_equal(rte_comch_ep_recvfrom(srv, buf, &len, 0, &speer), -EAGAIN);
	assert_int_equal(rte_comch_ep_disconnect(srv, speer), 0);
	assert_int_equal(svc_nb(srv), 0);
	close(epfd);
	assert_int_equal(rte_comch_ep_destroy(srv), 0);
	env_close(&e);
}

/* ============================================================== many clients */

#define NB_MANY 72

static void
pump_many(struct rte_comch_ep *srv, struct rte_comch_ep **cli)
{
	pump(srv);
	for (unsigned int i = 0; i < NB_MANY; i++)
		if (cli[i] != NULL)
			pump(cli[i]);
}

static void
test_many_clients(void **state)
{
	struct rte_comch_ep_peer *cp[NB_MANY], *sp[NB_MANY], *from;
	struct rte_comch_ep_peer * const *list;
	struct rte_comch_ep *cli[NB_MANY];
	struct rte_comch_ep *srv;
	struct rte_comch_dev_info info;
	bool seen[NB_MANY];
	unsigned int i, nb_up, r;
	uint64_t t0, ud;
	uint32_t nb, v[2];
	size_t len;
	int rc;
	struct env e;

	(void)state;
	env_open(&e);
	assert_int_equal(rte_comch_dev_info_get(e.dpu, &info), 0);
	assert_true(info.max_clients >= NB_MANY);
	srv = ep_server(&e, "ep_many", 0);
	for (i = 0; i < NB_MANY; i++)
		cli[i] = ep_client(&e, "ep_many", 0, &cp[i]);
	/* all connected */
	t0 = ct_now_ms();
	do {
		nb_up = 0;
		for (i = 0; i < NB_MANY; i++) {
			rc = rte_comch_ep_peer_addr_update_info(cp[i]);
			assert_true(rc == 0 || rc == -EINPROGRESS);
			nb_up += rc == 0;
		}
		pump(srv);
	} while (nb_up < NB_MANY && ct_now_ms() - t0 < LONG_MS);
	assert_int_equal(nb_up, NB_MANY);

	/* each says who it is: the server learns 72 distinct peers */
	for (i = 0; i < NB_MANY; i++) {
		v[0] = i;
		v[1] = 0;
		assert_int_equal(send_wait(cli[i], srv, v, sizeof(v), cp[i]), 0);
	}
	memset(seen, 0, sizeof(seen));
	memset(sp, 0, sizeof(sp));
	for (i = 0; i < NB_MANY; i++) {
		len = sizeof(v);
		t0 = ct_now_ms();
		while ((rc = rte_comch_ep_recvfrom(srv, v, &len, 0, &from)) == -EAGAIN &&
		       ct_now_ms() - t0 < LONG_MS) {
			pump_many(srv, cli);
			len = sizeof(v);
		}
		assert_int_equal(rc, 0);
		assert_int_equal(len, sizeof(v));
		assert_true(v[0] < NB_MANY && v[1] == 0);
		assert_false(seen[v[0]]);
		seen[v[0]] = true;
		for (unsigned int j = 0; j < NB_MANY; j++)
			assert_true(sp[j] != from);
		sp[v[0]] = from;
		assert_int_equal(rte_comch_ep_peer_addr_set_user_data(from, 1000 + v[0]), 0);
	}
	/* rounds of request/reply, the server answering each peer by its address */
	for (r = 1; r <= 3; r++) {
		for (i = 0; i < NB_MANY; i++) {
			v[0] = i;
			v[1] = r;
			assert_int_equal(send_wait(cli[i], srv, v, sizeof(v), cp[i]), 0);
		}
		for (i = 0; i < NB_MANY; i++) {
			len = sizeof(v);
			t0 = ct_now_ms();
			while ((rc = rte_comch_ep_recvfrom(srv, v, &len, 0, &from)) == -EAGAIN &&
			       ct_now_ms() - t0 < LONG_MS) {
				pump_many(srv, cli);
				len = sizeof(v);
			}
			assert_int_equal(rc, 0);
			assert_int_equal(v[1], r);
			assert_ptr_equal(from, sp[v[0]]);
			assert_int_equal(rte_comch_ep_peer_addr_get_user_data(from, &ud), 0);
			assert_int_equal(ud, 1000 + v[0]);
			v[1] = r + 100;
			t0 = ct_now_ms();
			while ((rc = rte_comch_ep_sendto(srv, v, sizeof(v), 0, from)) == -EAGAIN &&
			       ct_now_ms() - t0 < LONG_MS)
				pump_many(srv, cli);
			assert_int_equal(rc, 0);
		}
		for (i = 0; i < NB_MANY; i++) {
			len = sizeof(v);
			t0 = ct_now_ms();
			while ((rc = rte_comch_ep_recvfrom(cli[i], v, &len, 0, &from)) == -EAGAIN &&
			       ct_now_ms() - t0 < LONG_MS) {
				pump(srv);
				len = sizeof(v);
			}
			assert_int_equal(rc, 0);
			assert_ptr_equal(from, cp[i]);
			assert_int_equal(v[0], i);
			assert_int_equal(v[1], r + 100);
		}
	}
	/* the service state lists every one of them */
	assert_int_equal(svc_nb(srv), NB_MANY);
	assert_int_equal(rte_comch_ep_get_peer_addr_list(srv, &list, &nb), 0);
	memset(seen, 0, sizeof(seen));
	for (i = 0; i < nb; i++) {
		assert_int_equal(rte_comch_ep_peer_addr_get_user_data(list[i], &ud), 0);
		assert_true(ud >= 1000 && ud < 1000 + NB_MANY);
		assert_false(seen[ud - 1000]);
		seen[ud - 1000] = true;
		assert_ptr_equal(list[i], sp[ud - 1000]);
	}
	/* every client leaves: the server sees each go, and lists nobody */
	for (i = 0; i < NB_MANY; i++)
		assert_int_equal(rte_comch_ep_disconnect(cli[i], cp[i]), 0);
	t0 = ct_now_ms();
	do {
		nb_up = 0;
		for (i = 0; i < NB_MANY; i++) {
			rc = rte_comch_ep_peer_addr_update_info(sp[i]);
			assert_true(rc == 0 || rc == -ECONNABORTED);
			nb_up += rc == 0;
		}
		pump_many(srv, cli);
	} while (nb_up != 0 && ct_now_ms() - t0 < LONG_MS);
	assert_int_equal(nb_up, 0);
	assert_int_equal(svc_nb(srv), 0);
	for (i = 0; i < NB_MANY; i++) {
		assert_int_equal(rte_comch_ep_sendto(srv, "x", 2, 0, sp[i]), -ECONNRESET);
		assert_int_equal(rte_comch_ep_disconnect(srv, sp[i]), 0);
	}
	for (i = 0; i < NB_MANY; i++) {
		assert_int_equal(rte_comch_ep_destroy(cli[i]), 0);
		cli[i] = NULL;
	}
	assert_int_equal(svc_nb(srv), 0);
	assert_int_equal(rte_comch_ep_destroy(srv), 0);
	env_close(&e);
}

/* ============================================================= back-pressure */

#define BP_MSGS 20000
#define BP_MAX_LEN 200

struct bp {
	struct env *e;
	int ready;          /* atomic: the server listens */
	int stop;           /* atomic: the sender is done, the server may go */
	uint32_t got;       /* atomic */
	uint32_t bad;
	uint64_t max_backlog; /* most messages received by the endpoint, not yet taken */
	int rc;
};

/* At file scope: a failed assertion leaves the case while the receiver runs. */
static struct bp bp_run;

/* ct_reap_lcores() after a failure: the receiver returns. */
static void
bp_stop(void *arg)
{
	struct bp *b = arg;

	__atomic_store_n(&b->stop, 1, __ATOMIC_RELEASE);
}

static size_t
bp_len(uint32_t seq)
{
	return sizeof(uint32_t) + seq % (BP_MAX_LEN - sizeof(uint32_t) + 1);
}

static void
bp_fill(uint8_t *buf, uint32_t seq)
{
	size_t len = bp_len(seq);

	memcpy(buf, &seq, sizeof(seq));
	for (size_t i = sizeof(seq); i < len; i++)
		buf[i] = (uint8_t)(seq * 7 + i);
}

/* The slow receiver, on a worker lcore: its endpoint is created there. */
static int
bp_receiver(void *arg)
{
	struct bp *b = arg;
	struct rte_comch_ep_peer *from, *first = NULL;
	uint8_t buf[BP_MAX_LEN], want[BP_MAX_LEN];
	struct rte_comch_ep *srv;
	uint32_t seq, next = 0;
	uint64_t t0 = ct_now_ms();
	size_t len;
	int rc;

	srv = rte_comch_ep_create();
	if (srv == NULL || rte_comch_ep_set_device(srv, b->e->dpu) != 0 ||
	    rte_comch_ep_set_device_rep(srv, b->e->rep) != 0 ||
	    rte_comch_ep_set_recv_queue_size(srv, 4) != 0 ||
	    rte_comch_ep_listen(srv, "ep_bp") != 0) {
		b->rc = -1;
		__atomic_store_n(&b->ready, -1, __ATOMIC_RELEASE);
		return -1;
	}
	__atomic_store_n(&b->ready, 1, __ATOMIC_RELEASE);
	while (next < BP_MSGS && !__atomic_load_n(&b->stop, __ATOMIC_ACQUIRE) &&
	       ct_now_ms() - t0 < 4 * LONG_MS) {
		len = sizeof(buf);
		rc = rte_comch_ep_recvfrom(srv, buf, &len, 0, &from);
		if (rc == -EAGAIN)
			continue;
		if (rc != 0 || len < sizeof(seq)) {
			b->bad++;
			break;
		}
		if (first == NULL)
			first = from;
		memcpy(&seq, buf, sizeof(seq));
		bp_fill(want, seq);
		if (from != first || seq != next || len != bp_len(seq) ||
		    memcmp(buf, want, len) != 0)
			b->bad++;
		next = seq + 1;
		{
			struct rte_comch_ep_peer_stats st;

			if (rte_comch_ep_peer_addr_update_info(from) == 0 &&
			    rte_comch_ep_peer_addr_get_stats(from, &st) == 0 &&
			    st.recv_messages - next > b->max_backlog)
				b->max_backlog = st.recv_messages - next;
		}
		__atomic_store_n(&b->got, __atomic_load_n(&b->got, __ATOMIC_RELAXED) + 1,
				 __ATOMIC_RELEASE);
		/* slow: every 16th message, a pause (the sender's window fills) */
		if (seq % 16 == 0)
			usleep(200);
	}
	/* keep progressing until the sender has seen its last completions */
	while (!__atomic_load_n(&b->stop, __ATOMIC_ACQUIRE) && ct_now_ms() - t0 < 6 * LONG_MS) {
		len = sizeof(buf);
		if (rte_comch_ep_recvfrom(srv, buf, &len, 0, &from) != -EAGAIN)
			b->bad++;
	}
	b->rc = rte_comch_ep_destroy(srv);
	return 0;
}

/*
 * A flood against a slow receiver on another lcore: non-blocking (-EAGAIN,
 * then epoll on the event channels), or blocking (sendto sleeps itself).
 */
static void
back_pressure(bool blocking)
{
	struct rte_comch_ep_peer_stats st;
	struct epoll_event ev, evs[2];
	struct rte_comch_ep_peer *cp;
	struct rte_comch_ep *cli;
	uint8_t buf[BP_MAX_LEN];
	uint32_t seq, nb_again = 0, nb_wait = 0, nb_send_wake = 0;
	unsigned int worker;
	uint64_t t0, bytes = 0;
	int sfd, rfd, epfd, rc, n;
	struct bp *b = &bp_run;
	struct env e;

	worker = rte_get_next_lcore(-1, 1, 0);
	if (worker >= RTE_MAX_LCORE)
		skip();
	env_open(&e);
	memset(b, 0, sizeof(*b));
	b->e = &e;
	assert_int_equal(ct_remote_launch_stoppable(bp_receiver, b, worker, bp_stop), 0);
	t0 = ct_now_ms();
	while (__atomic_load_n(&b->ready, __ATOMIC_ACQUIRE) == 0 && ct_now_ms() - t0 < LONG_MS)
		usleep(100);
	assert_int_equal(__atomic_load_n(&b->ready, __ATOMIC_ACQUIRE), 1);

	cli = ep_client(&e, "ep_bp", 8, &cp);
	assert_int_equal(wait_info(cp, NULL, 0), 0);
	assert_int_equal(rte_comch_ep_get_event_channel(cli, &sfd, &rfd), 0);
	epfd = epoll_create1(EPOLL_CLOEXEC);
	assert_true(epfd >= 0);
	ev = (struct epoll_event){ .events = EPOLLIN, .data.fd = sfd };
	assert_int_equal(epoll_ctl(epfd, EPOLL_CTL_ADD, sfd, &ev), 0);
	ev = (struct epoll_event){ .events = EPOLLIN, .data.fd = rfd };
	assert_int_equal(epoll_ctl(epfd, EPOLL_CTL_ADD, rfd, &ev), 0);

	t0 = ct_now_ms();
	for (seq = 0; seq < BP_MSGS; seq++) {
		bp_fill(buf, seq);
		for (;;) {
			rc = rte_comch_ep_sendto(cli, buf, bp_len(seq),
						 blocking ? RTE_COMCH_EP_MSG_FLAG_BLOCKING :
							    RTE_COMCH_EP_MSG_FLAG_NONE, cp);
			/* Blocking: queued when it returns, never -EAGAIN. */
			if (rc != -EAGAIN || blocking)
				break;
			nb_again++;
			assert_true(ct_now_ms() - t0 < 4 * LONG_MS);
			assert_int_equal(rte_comch_ep_event_handle_arm_send(cli), 0);
			/* bounded sleep: a lost wake-up would only slow the test down */
			n = epoll_wait(epfd, evs, 2, 1000);
			assert_true(n >= 0);
			nb_wait++;
			for (int k = 0; k < n; k++)
				nb_send_wake += evs[k].data.fd == sfd;
		}
		assert_int_equal(rc, 0);
		bytes += bp_len(seq);
	}
	/* every message taken by the receiver: the counters agree */
	do {
		assert_int_equal(rte_comch_ep_peer_addr_update_info(cp), 0);
		assert_int_equal(rte_comch_ep_peer_addr_get_stats(cp, &st), 0);
	} while ((st.send_in_flight_messages != 0 ||
		  __atomic_load_n(&b->got, __ATOMIC_ACQUIRE) < BP_MSGS) &&
		 ct_now_ms() - t0 < 5 * LONG_MS);
	assert_int_equal(st.send_in_flight_messages, 0);
	assert_int_equal(st.send_messages, BP_MSGS);
	assert_int_equal(st.send_bytes, bytes);
	bp_stop(b);
	assert_int_equal(ct_wait_lcore(worker), 0);
	assert_int_equal(b->rc, 0);
	assert_int_equal(b->bad, 0);
	assert_int_equal(b->got, BP_MSGS);
	/* the window was full at times (the sender had to wait); no timing is asserted */
	assert_true(blocking || nb_again > 0);
	/* the receiver never queued more than its receive queue size (4) */
	assert_true(b->max_backlog <= 4);
	print_message("  back-pressure: %u -EAGAIN, %u waits, %u send_fd wake-ups, "
		      "receiver backlog up to %" PRIu64 " messages\n",
		      nb_again, nb_wait, nb_send_wake, b->max_backlog);
	close(epfd);
	assert_int_equal(rte_comch_ep_destroy(cli), 0);
	env_close(&e);
}

static void
test_back_pressure(void **state)
{
	(void)state;
	back_pressure(false);
}

/* The same flood with blocking sends: every one returns 0, none is lost. */
static void
test_back_pressure_blocking(void **state)
{
	(void)state;
	back_pressure(true);
}

/* ============================================================== flood */

/*
 * A client floods a server that progresses but does not read: the server
 * queues its receive queue's worth (8), its connection holds as many, then
 * the client's sends say -EAGAIN, as long as the server does not read. Read,
 * everything arrives once, in order, and the queue never holds more than 8.
 */
static void
test_recv_queue_bound(void **state)
{
	const uint32_t rq = 8, tries = 2000, total = 300;
	struct rte_comch_ep_peer_stats st;
	struct rte_comch_ep_peer *cp, *sp, *from;
	struct rte_comch_ep *srv, *cli;
	uint32_t i, id, seq = 0, next = 0, got_seq, nb_again = 0;
	uint8_t msg[256], buf[256];
	uint64_t t0;
	size_t len;
	int rc;
	struct env e;

	(void)state;
	env_open(&e);
	srv = ep_server(&e, "ep_bound", rq);
	cli = ep_client(&e, "ep_bound", 0, &cp);
	assert_int_equal(wait_info(cp, srv, 0), 0);
	assert_int_equal(send_wait(cli, srv, "hi", 3, cp), 0);
	len = sizeof(buf);
	assert_int_equal(recv_wait(srv, cli, buf, &len, &sp, LONG_MS), 0);

	for (i = 0; i < tries; i++) {
		ct_msg_fill(msg, sizeof(msg), 1, seq);
		rc = rte_comch_ep_sendto(cli, msg, sizeof(msg), 0, cp);
		if (rc == 0)
			seq++;
		else
			assert_int_equal(rc, -EAGAIN);
		nb_again += rc != 0;
		/* the server's progress, without a read */
		assert_int_equal(rte_comch_ep_peer_addr_update_info(sp), 0);
	}
	assert_int_equal(rte_comch_ep_peer_addr_get_stats(sp, &st), 0);
	print_message("  not read: %" PRIu64 " messages queued, %u sent, %u -EAGAIN\n",
		      st.recv_messages - 1, seq, nb_again);
	assert_int_equal(st.recv_messages, 1 + rq);
	assert_int_equal(seq, 2 * rq);
	assert_int_equal(nb_again, tries - 2 * rq);

	/* reading: the rest flows, in order, each once, never more than rq queued */
	t0 = ct_now_ms();
	while (next < total && ct_now_ms() - t0 < LONG_MS) {
		if (seq < total) {
			ct_msg_fill(msg, sizeof(msg), 1, seq);
			rc = rte_comch_ep_sendto(cli, msg, sizeof(msg), 0, cp);
			assert_true(rc == 0 || rc == -EAGAIN);
			seq += rc == 0;
		}
		len = sizeof(buf);
		rc = rte_comch_ep_recvfrom(srv, buf, &len, 0, &from);
		if (rc == -EAGAIN)
			continue;
		assert_int_equal(rc, 0);
		assert_ptr_equal(from, sp);
		assert_int_equal(ct_msg_check(buf, (uint32_t)len, &id, &got_seq), 0);
		assert_int_equal(got_seq, next);
		next++;
		assert_int_equal(rte_comch_ep_peer_addr_update_info(sp), 0);
		assert_int_equal(rte_comch_ep_peer_addr_get_stats(sp, &st), 0);
		assert_true(st.recv_messages - 1 - next <= rq);
	}
	assert_int_equal(next, total);
	len = sizeof(buf);
	assert_int_equal(recv_wait(srv, cli, buf, &len, &from, 100), -ETIMEDOUT);
	assert_int_equal(rte_comch_ep_peer_addr_get_stats(sp, &st), 0);
	assert_int_equal(st.recv_messages, 1 + total);
	assert_int_equal(rte_comch_ep_destroy(cli), 0);
	assert_int_equal(rte_comch_ep_destroy(srv), 0);
	env_close(&e);
}

/* A field of /proc/self/status, in KiB. */
static uint64_t
status_kib(const char *field)
{
	char line[256];
	uint64_t v = 0;
	size_t n = strlen(field);
	FILE *f = fopen("/proc/self/status", "r");

	assert_non_null(f);
	while (fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, field, n) == 0 && line[n] == ':')
			v = strtoull(line + n + 1, NULL, 10);
	fclose(f);
	assert_true(v > 0);
	return v;
}

/* Reset the peak resident set size (VmHWM) to the current one (Linux 4.0). */
static void
rss_peak_reset(void)
{
	FILE *f = fopen("/proc/self/clear_refs", "w");

	assert_non_null(f);
	assert_true(fputs("5", f) >= 0);
	assert_int_equal(fclose(f), 0);
}

/* A server listening for the flooder, with messages of FLOOD_LEN; its peer in *sp. */
static struct rte_comch_ep *
flood_server(struct env *e, const char *name, const char *role, struct child **c,
	     struct rte_comch_ep_peer **sp)
{
	struct rte_comch_ep *srv = rte_comch_ep_create();
	char buf[8];
	size_t len = sizeof(buf);

	assert_non_null(srv);
	assert_int_equal(rte_comch_ep_set_device(srv, e->dpu), 0);
	assert_int_equal(rte_comch_ep_set_device_rep(srv, e->rep), 0);
	assert_int_equal(rte_comch_ep_set_max_msg_size(srv, FLOOD_LEN), 0);
	assert_int_equal(rte_comch_ep_listen(srv, name), 0);
	*c = child_spawn(role, e->domain, name);
	assert_int_equal(recv_wait(srv, NULL, buf, &len, sp, LONG_MS), 0);
	assert_string_equal(buf, "hello");
	child_ready(*c);
	return srv;
}

/* Progress srv, not reading, until the child writes a line; returns it in line. */
static void
flood_wait_line(struct rte_comch_ep_peer *sp, struct child *c, char *line, size_t cap)
{
	uint64_t t0 = ct_now_ms();

	while (!child_line(c, line, cap, 0)) {
		assert_true(ct_now_ms() - t0 < 2 * LONG_MS);
		assert_int_equal(rte_comch_ep_peer_addr_update_info(sp), 0);
	}
}

/* Read n messages of the flood, in order from 0, each once and intact. */
static void
flood_read(struct rte_comch_ep *srv, struct rte_comch_ep_peer *sp, uint32_t n)
{
	struct rte_comch_ep_peer *from;
	uint32_t id, seq, next;
	uint8_t *buf = malloc(FLOOD_LEN);
	size_t len;

	assert_non_null(buf);
	for (next = 0; next < n; next++) {
		len = FLOOD_LEN;
		assert_int_equal(recv_wait(srv, NULL, buf, &len, &from, LONG_MS), 0);
		assert_ptr_equal(from, sp);
		assert_int_equal(ct_msg_check(buf, (uint32_t)len, &id, &seq), 0);
		assert_int_equal(seq, next);
	}
	free(buf);
}

/*
 * The issue's flood, across processes: a client process floods 64 KiB
 * messages at a server that does not read; the server is blocked in blocking
 * sendto calls (its replies wait for the flooder, which reads only once it
 * is stalled), then progresses without reading. The server's peak resident
 * memory grows by less than its receive queue (64 x 64 KiB) plus the
 * connection's ring it maps (as much) plus 4 MiB of slack; before the bound
 * it grew by the whole flood (64 MiB). The flooder sees -EAGAIN over and
 * over; once the server reads, every message arrives once, in order.
 */
static void
test_flood_rss(void **state)
{
	const uint64_t bound_kib = 2 * RTE_COMCH_EP_DEFAULT_RECV_QUEUE_SIZE * FLOOD_LEN / 1024 +
				   4096;
	char line[256], *p;
	struct rte_comch_ep_peer *sp;
	struct rte_comch_ep *srv;
	uint64_t base, peak, eagain;
	struct child *c;
	uint32_t i;
	struct env e;

	(void)state;
	CT_NEED(CT_CAP_PROCESSES, "the flooder is a child process");
	env_open(&e);
	srv = flood_server(&e, "ep_flood", "flood", &c, &sp);
	rss_peak_reset();
	base = status_kib("VmRSS");
	for (i = 0; i < FLOOD_REPLIES; i++)
		assert_int_equal(rte_comch_ep_sendto(srv, &i, sizeof(i),
						     RTE_COMCH_EP_MSG_FLAG_BLOCKING, sp), 0);
	flood_wait_line(sp, c, line, sizeof(line));
	peak = status_kib("VmHWM");
	print_message("  server: resident %" PRIu64 " KiB, peak %" PRIu64 " KiB (+%" PRIu64
		      " KiB, bound +%" PRIu64 " KiB); flooder: %s\n", base, peak, peak - base,
		      bound_kib, line);
	if (!EP_TSAN)
		assert_true(peak - base < bound_kib);
	assert_true(strncmp(line, "STALLED ", 8) == 0);
	p = strstr(line, "eagain=");
	assert_non_null(p);
	assert_true(strtoull(p + 7, NULL, 10) >= FLOOD_STALL_TRIES);

	flood_read(srv, sp, FLOOD_MSGS);
	flood_wait_line(sp, c, line, sizeof(line));
	print_message("  flooder: %s\n", line);
	assert_true(strncmp(line, "DONE ", 5) == 0);
	assert_int_equal(strtoul(strstr(line, "sent=") + 5, NULL, 10), FLOOD_MSGS);
	assert_int_equal(strtol(strstr(line, "replies=") + 8, NULL, 10), FLOOD_REPLIES);
	eagain = strtoull(strstr(line, "eagain=") + 7, NULL, 10);
	assert_true(eagain >= FLOOD_STALL_TRIES);
	child_kill(c);
	assert_int_equal(rte_comch_ep_disconnect(srv, sp), 0);
	assert_int_equal(rte_comch_ep_destroy(srv), 0);
	env_close(&e);
}

/*
 * A flooder dies while the server's queue is full (its connection paused):
 * what it had sent (its sendto said 0) is delivered all the same, the 64 the
 * server had queued and the 64 left in the ring, once, in order.
 */
static void
test_flood_peer_dies_paused(void **state)
{
	char line[256], buf[8];
	struct rte_comch_ep_peer_stats st;
	struct rte_comch_ep_peer *sp, *from;
	struct rte_comch_ep *srv;
	struct child *c;
	uint32_t sent;
	size_t len;
	struct env e;

	(void)state;
	CT_NEED(CT_CAP_PROCESSES, "the peer is a child process killed mid-flood");
	env_open(&e);
	srv = flood_server(&e, "ep_flood_die", "flood-die", &c, &sp);
	flood_wait_line(sp, c, line, sizeof(line));
	print_message("  flooder: %s\n", line);
	assert_true(strncmp(line, "STALLED ", 8) == 0);
	sent = (uint32_t)strtoul(strstr(line, "sent=") + 5, NULL, 10);
	/* the server's receive queue, and its connection's */
	assert_int_equal(sent, 2 * RTE_COMCH_EP_DEFAULT_RECV_QUEUE_SIZE);
	child_kill(c);
	assert_int_equal(wait_info(sp, NULL, -ECONNABORTED), 0);
	flood_read(srv, sp, sent);
	len = sizeof(buf);
	assert_int_equal(rte_comch_ep_recvfrom(srv, buf, &len, 0, &from), -EAGAIN);
	assert_int_equal(rte_comch_ep_peer_addr_get_stats(sp, &st), 0);
	assert_int_equal(st.recv_messages, 1 + sent);
	assert_int_equal(rte_comch_ep_disconnect(srv, sp), 0);
	assert_int_equal(rte_comch_ep_destroy(srv), 0);
	env_close(&e);
}

/* ===================================================== sizes and bad inputs */

static void
test_recv_sizes(void **state)
{
	struct rte_comch_ep_peer *cp, *sp, *from;
	struct rte_comch_ep *srv, *cli;
	uint8_t *msg, *buf;
	uint32_t max, sizes[4];
	size_t len;
	struct env e;

	(void)state;
	env_open(&e);
	srv = ep_server(&e, "ep_sizes", 0);
	cli = ep_client(&e, "ep_sizes", 0, &cp);
	assert_int_equal(wait_info(cp, srv, 0), 0);
	assert_int_equal(send_wait(cli, srv, "hi", 3, cp), 0);
	{
		char b3[3];

		len = sizeof(b3);
		assert_int_equal(recv_wait(srv, cli, b3, &len, &sp, LONG_MS), 0);
	}
	assert_int_equal(rte_comch_ep_get_max_msg_size(cli, &max), 0);
	assert_int_equal(rte_comch_ep_get_max_msg_size(srv, &sizes[0]), 0);
	assert_int_equal(sizes[0], max);
	assert_true(max >= 2);
	sizes[0] = 0;
	sizes[1] = 1;
	sizes[2] = max - 1;
	sizes[3] = max;
	msg = malloc(max + 1);
	buf = malloc(max + 1);
	assert_non_null(msg);
	assert_non_null(buf);
	for (uint32_t i = 0; i <= max; i++)
		msg[i] = (uint8_t)(i * 31 + 5);

	for (int dir = 0; dir < 2; dir++) {
		struct rte_comch_ep *tx = dir == 0 ? srv : cli, *rx = dir == 0 ? cli : srv;
		struct rte_comch_ep_peer *to = dir == 0 ? sp : cp, *want = dir == 0 ? cp : sp;

		for (int k = 0; k < 4; k++) {
			uint32_t s = sizes[k];

			assert_int_equal(send_wait(tx, rx, s == 0 ? NULL : msg, s, to), 0);
			from = NULL;
			if (s > 0) {
				/* one byte short, then none at all: refused, kept, length told */
				len = s - 1;
				assert_int_equal(recv_wait(rx, tx, buf, &len, &from, LONG_MS),
						 -EMSGSIZE);
				assert_int_equal(len, s);
				assert_null(from);
				len = 0;
				assert_int_equal(rte_comch_ep_recvfrom(rx, NULL, &len, 0, &from),
						 -EMSGSIZE);
				assert_int_equal(len, s);
				assert_null(from);
			}
			/* exactly the size: taken, with nothing written past it */
			memset(buf, 0xa5, max + 1);
			len = s;
			assert_int_equal(recv_wait(rx, tx, s == 0 ? NULL : buf, &len, &from,
						   LONG_MS), 0);
			assert_int_equal(len, s);
			assert_ptr_equal(from, want);
			if (s > 0)
				assert_memory_equal(buf, msg, s);
			assert_int_equal(buf[s], 0xa5);
			len = max;
			assert_int_equal(rte_comch_ep_recvfrom(rx, buf, &len, 0, &from), -EAGAIN);
		}
		/* and a bigger buffer than the message */
		assert_int_equal(send_wait(tx, rx, msg, 1, to), 0);
		len = max + 1;
		assert_int_equal(recv_wait(rx, tx, buf, &len, &from, LONG_MS), 0);
		assert_int_equal(len, 1);
		assert_int_equal(buf[0], msg[0]);
	}
	free(msg);
	free(buf);
	assert_int_equal(rte_comch_ep_destroy(cli), 0);
	assert_int_equal(rte_comch_ep_destroy(srv), 0);
	env_close(&e);
}

static void
test_bad_inputs(void **state)
{
	struct rte_comch_ep_peer *cp, *sp, *from, *stale;
	struct rte_comch_ep_peer * const *list;
	struct rte_comch_ep *srv, *cli, *fresh, *reborn;
	static uint8_t big[65536];
	struct rte_comch_ep_peer_stats st;
	uint64_t fake_peer[64];
	char buf[16];
	uint32_t max, nb;
	size_t len;
	int fd;
	struct env e;

	(void)state;
	env_open(&e);
	/* a fresh endpoint: no listen, no connect */
	fresh = rte_comch_ep_create();
	assert_non_null(fresh);
	len = sizeof(buf);
	assert_int_equal(rte_comch_ep_recvfrom(fresh, buf, &len, 0, &from), -EAGAIN);
	assert_int_equal(rte_comch_ep_update_service_state_info(fresh), -EBUSY);
	assert_int_equal(rte_comch_ep_get_peer_addr_list(fresh, &list, &nb), -EBUSY);
	assert_int_equal(rte_comch_ep_get_service_event_channel(fresh, &fd), -EBUSY);
	assert_int_equal(rte_comch_ep_event_handle_arm_send(fresh), 0);

	srv = ep_server(&e, "ep_bad", 0);
	/* listening, nobody connected: nothing to take */
	len = sizeof(buf);
	assert_int_equal(rte_comch_ep_recvfrom(srv, buf, &len, 0, &from), -EAGAIN);
	assert_int_equal(svc_nb(srv), 0);
	cli = ep_client(&e, "ep_bad", 0, &cp);
	/* connecting: -EAGAIN, not an error (if not connected already) */
	{
		int rc = rte_comch_ep_sendto(cli, "x", 2, 0, cp);

		assert_true(rc == -EAGAIN || rc == 0);
		if (rc == 0) {
			len = sizeof(buf);
			assert_int_equal(recv_wait(srv, cli, buf, &len, &sp, LONG_MS), 0);
		}
	}
	assert_int_equal(wait_info(cp, srv, 0), 0);
	assert_int_equal(send_wait(cli, srv, "hi", 3, cp), 0);
	len = sizeof(buf);
	assert_int_equal(recv_wait(srv, cli, buf, &len, &sp, LONG_MS), 0);
	assert_string_equal(buf, "hi");
	assert_int_equal(rte_comch_ep_get_max_msg_size(cli, &max), 0);
	assert_true(max < sizeof(big));

	/* recvfrom: NULL ep, len, peer; NULL buf with room; unknown flags */
	assert_int_equal(send_wait(srv, cli, "queued", 7, sp), 0);
	len = sizeof(buf);
	assert_int_equal(rte_comch_ep_recvfrom(NULL, buf, &len, 0, &from), -EINVAL);
	assert_int_equal(rte_comch_ep_recvfrom(cli, buf, NULL, 0, &from), -EINVAL);
	assert_int_equal(rte_comch_ep_recvfrom(cli, buf, &len, 0, NULL), -EINVAL);
	assert_int_equal(rte_comch_ep_recvfrom(cli, NULL, &len, 0, &from), -EINVAL);
	/* recvfrom never blocks: the blocking flag is sendto's only */
	assert_int_equal(rte_comch_ep_recvfrom(cli, buf, &len, RTE_COMCH_EP_MSG_FLAG_BLOCKING,
					       &from), -EINVAL);
	assert_int_equal(rte_comch_ep_recvfrom(cli, buf, &len, -1, &from), -EINVAL);
	assert_int_equal(len, sizeof(buf));
	/* none of those took the message */
	assert_int_equal(recv_wait(cli, srv, buf, &len, &from, LONG_MS), 0);
	assert_string_equal(buf, "queued");
	assert_ptr_equal(from, cp);

	/* sendto: NULL ep, peer; NULL message with a length; unknown flags */
	assert_int_equal(rte_comch_ep_sendto(NULL, "x", 2, 0, cp), -EINVAL);
	assert_int_equal(rte_comch_ep_sendto(cli, "x", 2, 0, NULL), -EINVAL);
	assert_int_equal(rte_comch_ep_sendto(cli, NULL, 2, 0, cp), -EINVAL);
	assert_int_equal(rte_comch_ep_sendto(cli, "x", 2, 2, cp), -EINVAL);
	assert_int_equal(rte_comch_ep_sendto(cli, "x", 2, -1, cp), -EINVAL);
	/* a peer of another endpoint, and a peer that never was */
	assert_int_equal(rte_comch_ep_sendto(cli, "x", 2, 0, sp), -EINVAL);
	assert_int_equal(rte_comch_ep_sendto(srv, "x", 2, 0, cp), -EINVAL);
	assert_int_equal(rte_comch_ep_sendto(fresh, "x", 2, 0, cp), -EINVAL);
	memset(fake_peer, 0, sizeof(fake_peer));
	assert_int_equal(rte_comch_ep_sendto(cli, "x", 2, 0,
					     (struct rte_comch_ep_peer *)fake_peer), -EINVAL);
	memset(fake_peer, 0xff, sizeof(fake_peer));
	assert_int_equal(rte_comch_ep_sendto(srv, "x", 2, 0,
					     (struct rte_comch_ep_peer *)fake_peer), -EINVAL);
	assert_int_equal(rte_comch_ep_peer_addr_update_info(
				 (struct rte_comch_ep_peer *)fake_peer), -EINVAL);
	assert_int_equal(rte_comch_ep_disconnect(cli, sp), -EINVAL);
	assert_int_equal(rte_comch_ep_disconnect(srv, cp), -EINVAL);
	/* an endpoint that never was */
	memset(fake_peer, 0, sizeof(fake_peer));
	assert_int_equal(rte_comch_ep_sendto((struct rte_comch_ep *)fake_peer, "x", 2, 0, cp),
			 -EINVAL);
	len = sizeof(buf);
	assert_int_equal(rte_comch_ep_recvfrom((struct rte_comch_ep *)fake_peer, buf, &len, 0,
					       &from), -EINVAL);
	/* too big, also with a length that would be small truncated to 32 bits */
	assert_int_equal(rte_comch_ep_sendto(cli, big, (size_t)max + 1, 0, cp), -EMSGSIZE);
	assert_int_equal(rte_comch_ep_sendto(srv, big, (size_t)max + 1, 0, sp), -EMSGSIZE);
	assert_int_equal(rte_comch_ep_sendto(cli, big, ((size_t)1 << 32) + 1, 0, cp),
			 -EMSGSIZE);
	assert_int_equal(rte_comch_ep_sendto(cli, big, SIZE_MAX, 0, cp), -EMSGSIZE);
	/* none of those sent anything: only the two good messages were taken */
	{
		uint64_t t0 = ct_now_ms();

		do {
			assert_int_equal(rte_comch_ep_peer_addr_update_info(cp), 0);
			assert_int_equal(rte_comch_ep_peer_addr_get_stats(cp, &st), 0);
			pump(srv);
		} while (st.send_in_flight_messages != 0 && ct_now_ms() - t0 < LONG_MS);
	}
	assert_int_equal(st.send_in_flight_messages, 0);
	len = sizeof(buf);
	assert_int_equal(rte_comch_ep_recvfrom(srv, buf, &len, 0, &from), -EAGAIN);
	assert_int_equal(rte_comch_ep_peer_addr_update_info(sp), 0);
	assert_int_equal(rte_comch_ep_peer_addr_get_stats(sp, &st), 0);
	assert_true(st.recv_messages == 1 || st.recv_messages == 2); /* ["x",] "hi" */
	assert_int_equal(st.send_messages, 1);                        /* "queued" */
	/* a zero-length message with a NULL buffer is fine both ways */
	assert_int_equal(send_wait(cli, srv, NULL, 0, cp), 0);
	len = 0;
	assert_int_equal(recv_wait(srv, cli, NULL, &len, &from, LONG_MS), 0);
	assert_int_equal(len, 0);
	assert_ptr_equal(from, sp);

	/*
	 * A released peer: refused while anything still holds it, and once freed
	 * (and a destroyed endpoint): the library keeps their memory back and
	 * checks destroys and disconnects against its registry of live objects,
	 * so none of this reads freed memory (these run under ASan too).
	 */
	stale = sp;
	assert_int_equal(rte_comch_ep_disconnect(srv, sp), 0);
	assert_int_equal(rte_comch_ep_sendto(srv, "x", 2, 0, stale), -EINVAL);
	assert_int_equal(rte_comch_ep_disconnect(srv, stale), -EINVAL);
	assert_int_equal(rte_comch_ep_peer_addr_update_info(stale), -EINVAL);
	assert_int_equal(wait_info(cp, srv, -ECONNABORTED), 0);
	assert_int_equal(rte_comch_ep_sendto(cli, "x", 2, 0, cp), -ECONNRESET);
	assert_int_equal(rte_comch_ep_disconnect(cli, cp), 0);
	assert_int_equal(rte_comch_ep_sendto(cli, "x", 2, 0, cp), -EINVAL);
	assert_int_equal(rte_comch_ep_disconnect(cli, cp), -EINVAL);
	assert_int_equal(rte_comch_ep_destroy(fresh), 0);
	len = sizeof(buf);
	assert_int_equal(rte_comch_ep_recvfrom(fresh, buf, &len, 0, &from), -EINVAL);
	assert_int_equal(rte_comch_ep_sendto(fresh, "x", 2, 0, cp), -EINVAL);
	assert_int_equal(rte_comch_ep_destroy(fresh), -EINVAL);
	/* A new endpoint made right after never takes the stale one's place. */
	reborn = rte_comch_ep_create();
	assert_non_null(reborn);
	assert_ptr_not_equal(reborn, fresh);
	assert_int_equal(rte_comch_ep_destroy(fresh), -EINVAL);
	assert_int_equal(rte_comch_ep_set_max_msg_size(reborn, 64), 0);
	assert_int_equal(rte_comch_ep_destroy(reborn), 0);
	assert_int_equal(rte_comch_ep_destroy(cli), 0);
	assert_int_equal(rte_comch_ep_destroy(srv), 0);
	env_close(&e);
}

/* ============================================================== any thread */

struct xl {
	struct rte_comch_ep *srv, *cli, *fresh;
	struct rte_comch_ep_peer *sp, *cp;
	char got[16];
	size_t got_len;
	int rc[8];
};

/*
 * On a worker: the endpoints were made on the main lcore, and every call works
 * here as there (the program serialises them: the main lcore waits).
 */
static int
xl_worker(void *arg)
{
	struct xl *x = arg;
	struct rte_comch_ep_peer *from;
	int i = 0;

	x->rc[i++] = rte_comch_ep_sendto(x->cli, "x", 2, 0, x->cp);
	x->got_len = sizeof(x->got);
	x->rc[i++] = rte_comch_ep_recvfrom(x->cli, x->got, &x->got_len, 0, &from);
	x->rc[i++] = rte_comch_ep_peer_addr_update_info(x->cp);
	x->rc[i++] = rte_comch_ep_update_service_state_info(x->srv);
	x->rc[i++] = rte_comch_ep_event_handle_arm_send(x->cli);
	x->rc[i++] = rte_comch_ep_destroy(x->fresh);
	return 0;
}

static void
test_any_thread(void **state)
{
	struct rte_comch_ep_peer *from;
	unsigned int worker;
	char buf[16];
	size_t len;
	struct xl x;
	struct env e;

	(void)state;
	worker = rte_get_next_lcore(-1, 1, 0);
	if (worker >= RTE_MAX_LCORE)
		skip();
	env_open(&e);
	memset(&x, 0, sizeof(x));
	x.srv = ep_server(&e, "ep_xl", 0);
	x.cli = ep_client(&e, "ep_xl", 0, &x.cp);
	assert_int_equal(wait_info(x.cp, x.srv, 0), 0);
	assert_int_equal(send_wait(x.cli, x.srv, "hi", 3, x.cp), 0);
	len = sizeof(buf);
	assert_int_equal(recv_wait(x.srv, x.cli, buf, &len, &x.sp, LONG_MS), 0);
	x.fresh = rte_comch_ep_create();
	assert_non_null(x.fresh);
	assert_int_equal(rte_comch_ep_set_device(x.fresh, e.host), 0);
	/* something queued at the client, for the worker to receive */
	assert_int_equal(send_wait(x.srv, x.cli, "queued", 7, x.sp), 0);
	do {
		len = 0;
		pump(x.srv);
	} while (rte_comch_ep_recvfrom(x.cli, NULL, &len, 0, &from) == -EAGAIN);

	assert_int_equal(ct_remote_launch(xl_worker, &x, worker), 0);
	assert_int_equal(ct_wait_lcore(worker), 0);
	for (int i = 0; i < 6; i++) {
		if (x.rc[i] != 0)
			print_message("  call %d from another lcore: %d\n", i, x.rc[i]);
		assert_int_equal(x.rc[i], 0);
	}
	assert_int_equal(x.got_len, 7);
	assert_string_equal(x.got, "queued");
	/* and back here: what the worker sent arrives, the endpoints go */
	len = sizeof(buf);
	assert_int_equal(recv_wait(x.srv, x.cli, buf, &len, &from, LONG_MS), 0);
	assert_string_equal(buf, "x");
	assert_int_equal(svc_nb(x.srv), 1);
	assert_int_equal(rte_comch_ep_destroy(x.cli), 0);
	assert_int_equal(rte_comch_ep_destroy(x.srv), 0);
	env_close(&e);
}

/* A blocking sendto on a worker, until it is inside (retried while refused). */
struct xb {
	struct rte_comch_ep *cli;
	struct rte_comch_ep_peer *cp;
	struct rte_comch_ep *srv;  /* the server: gone, it frees a blocked sendto */
	int rc;
};

/* At file scope: a failed assertion leaves the case while the sender blocks. */
static struct xb xb_run;

/* ct_reap_lcores() after a failure: the server goes, and the blocked send with it. */
static void
xb_stop(void *arg)
{
	struct xb *b = arg;

	if (b->srv != NULL && rte_comch_ep_destroy(b->srv) == 0)
		b->srv = NULL;
}

static int
xb_sender(void *arg)
{
	struct xb *b = arg;
	uint64_t t0 = ct_now_ms();

	do {
		b->rc = rte_comch_ep_sendto(b->cli, "blocked", 8, RTE_COMCH_EP_MSG_FLAG_BLOCKING,
					    b->cp);
	} while (b->rc == -EBUSY && ct_now_ms() - t0 < LONG_MS);
	return 0;
}

/*
 * One thread at a time: while a thread is inside a call on an endpoint (a
 * blocking sendto waiting for room), another thread's calls on it are refused
 * with -EBUSY and change nothing; the first completes once there is room.
 */
static void
test_concurrent_refused(void **state)
{
	struct rte_comch_ep_peer *from;
	struct xb *b = &xb_run;
	unsigned int worker, busy = 0;
	uint64_t t0;
	char buf[16];
	size_t len;
	struct env e;
	int rc;

	(void)state;
	worker = rte_get_next_lcore(-1, 1, 0);
	if (worker >= RTE_MAX_LCORE)
		skip();
	env_open(&e);
	*b = (struct xb){ .rc = 1 };
	b->srv = ep_server(&e, "ep_xb", 1);
	b->cli = ep_client(&e, "ep_xb", 1, &b->cp);
	assert_int_equal(wait_info(b->cp, b->srv, 0), 0);
	/* fill the window: the server progresses but does not read */
	t0 = ct_now_ms();
	while ((rc = rte_comch_ep_sendto(b->cli, "fill", 5, 0, b->cp)) == 0 &&
	       ct_now_ms() - t0 < LONG_MS)
		pump(b->srv);
	assert_int_equal(rc, -EAGAIN);

	assert_int_equal(ct_remote_launch_stoppable(xb_sender, b, worker, xb_stop), 0);
	t0 = ct_now_ms();
	do {
		rc = rte_comch_ep_peer_addr_update_info(b->cp);
		busy += rc == -EBUSY;
	} while (rc != -EBUSY && ct_now_ms() - t0 < LONG_MS);
	assert_int_equal(rc, -EBUSY);
	len = 0;
	assert_int_equal(rte_comch_ep_recvfrom(b->cli, NULL, &len, 0, &from), -EBUSY);
	assert_int_equal(rte_comch_ep_event_handle_arm_recv(b->cli), -EBUSY);
	assert_int_equal(rte_comch_ep_destroy(b->cli), -EBUSY);
	/* room at last: the blocked send goes through */
	t0 = ct_now_ms();
	do {
		len = sizeof(buf);
		rc = rte_comch_ep_recvfrom(b->srv, buf, &len, 0, &from);
		if (rc == 0 && strcmp(buf, "blocked") == 0)
			break;
	} while ((rc == 0 || rc == -EAGAIN) && ct_now_ms() - t0 < LONG_MS);
	assert_int_equal(rc, 0);
	assert_int_equal(ct_wait_lcore(worker), 0);
	assert_int_equal(b->rc, 0);
	print_message("  refused %u calls while the worker was inside\n", busy);
	assert_int_equal(rte_comch_ep_destroy(b->cli), 0);
	assert_int_equal(rte_comch_ep_destroy(b->srv), 0);
	b->srv = NULL;
	env_close(&e);
}

/*
 * Clients that connect and leave without a word, between two looks at the
 * service state: the server's application never learns their peer addresses,
 * so it cannot release them; the endpoint must not keep them. Measured as the
 * heap in use (glibc mallinfo2), after a first round to warm everything up.
 */
/*
 * What librte_comch and librte_comch_ep keep back of destroyed objects
 * (bounded), each in its own registry: the sum of both.
 */
static void
kept_back(struct rte_comch_obj_stats *st)
{
	struct rte_comch_obj_stats ep;

	assert_int_equal(rte_comch_obj_stats_get(st), 0);
	assert_int_equal(rte_comch_ep_obj_stats_get(&ep), 0);
	st->quarantined += ep.quarantined;
	st->quarantined_bytes += ep.quarantined_bytes;
}

/* The heap in use, less what the libraries keep back of destroyed objects. */
static size_t
heap_in_use(void)
{
	struct mallinfo2 mi = mallinfo2();
	struct rte_comch_obj_stats st;

	kept_back(&st);
	/* glibc counts a chunk's header too: one size_t more than its usable size. */
	return mi.uordblks + mi.hblkhd - st.quarantined_bytes - st.quarantined * sizeof(size_t);
}

static void
churn(struct env *e, struct rte_comch_ep *srv, unsigned int n)
{
	struct rte_comch_ep_peer *cp;
	struct rte_comch_ep *cli;

	for (unsigned int i = 0; i < n; i++) {
		cli = ep_client(e, "ep_churn", 0, &cp);
		assert_int_equal(wait_info(cp, srv, 0), 0);
		assert_int_equal(rte_comch_ep_disconnect(cli, cp), 0);
		assert_int_equal(rte_comch_ep_destroy(cli), 0);
		pump(srv);
	}
}

/* Connections of the server's device that ended so far. */
static uint64_t
server_conns_closed(const struct env *e)
{
	struct rte_comch_dev_stats st;

	assert_int_equal(rte_comch_dev_stats_get(e->dpu, &st), 0);
	return st.connections_closed;
}

/*
 * Progress the server until its device has ended closed connections, then
 * check that it lists no peer. A client is connected on its side before the
 * server's engine, at its next slow tick, takes the connection up: a client
 * that left at once may not have reached the server yet, so a peer count of 0
 * alone does not say that every client came and went.
 */
static void
wait_server_saw_all_leave(const struct env *e, struct rte_comch_ep *srv, uint64_t closed)
{
	uint64_t t0 = ct_now_ms();

	while (server_conns_closed(e) < closed && ct_now_ms() - t0 < LONG_MS)
		pump(srv);
	assert_int_equal(server_conns_closed(e), closed);
	assert_int_equal(svc_nb(srv), 0);
}

static void
test_unseen_peers(void **state)
{
	struct rte_comch_obj_stats q0, q1;
	struct rte_comch_ep *srv;
	size_t before, after;
	const unsigned int n = 400;
	uint64_t closed;
	struct env e;

	(void)state;
	env_open(&e);
	srv = ep_server(&e, "ep_churn", 0);
	closed = server_conns_closed(&e);
	/*
	 * Until the libraries' quarantines of destroyed objects are full: from
	 * then on each frees one block for each it takes, of the same kinds.
	 */
	do {
		kept_back(&q0);
		churn(&e, srv, 20);
		closed += 20;
		wait_server_saw_all_leave(&e, srv, closed);
		kept_back(&q1);
	} while (q1.quarantined > q0.quarantined);
	before = heap_in_use();
	churn(&e, srv, n);
	closed += n;
	wait_server_saw_all_leave(&e, srv, closed);
	after = heap_in_use();
	/* The churn runs under the sanitizers too (teardown races): only this check does not. */
	if (EP_ASAN) {
		print_message("  (a sanitizer's heap, unseen by mallinfo2: not measured)\n");
	} else {
		print_message("  heap: %zu bytes before %u silent clients, %zu after\n", before,
			      n, after);
		/* less than 64 bytes a client: nothing is kept per client */
		assert_true(after < before + 64 * n);
	}
	assert_int_equal(rte_comch_ep_destroy(srv), 0);
	env_close(&e);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recv_sizes),
		cmocka_unit_test(test_bad_inputs),
		cmocka_unit_test(test_many_clients),
		cmocka_unit_test_teardown(test_back_pressure, ct_reap_lcores),
		cmocka_unit_test_teardown(test_back_pressure_blocking, ct_reap_lcores),
		cmocka_unit_test(test_any_thread),
		cmocka_unit_test_teardown(test_concurrent_refused, ct_reap_lcores),
		cmocka_unit_test(test_unseen_peers),
		cmocka_unit_test(test_death_of_client),
		cmocka_unit_test(test_death_of_server),
		cmocka_unit_test(test_death_while_blocked),
		cmocka_unit_test(test_recv_queue_bound),
		cmocka_unit_test(test_flood_rss),
		cmocka_unit_test(test_flood_peer_dies_paused),
	};

	if (argc > 1 && strcmp(argv[1], "--child") == 0)
		return child_main(argc, argv);
	return CT_RUN("comch_ep_more", tests);
}
