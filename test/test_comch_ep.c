/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The legacy endpoint API (rte_comch_ep_*): configuration errors, a listening
 * and a connecting endpoint in one process exchanging messages both ways,
 * recvfrom into a buffer too small, a full send queue and its send event,
 * disconnection from either side and reconnection, the service state.
 */

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>

#include <rte_comch_ep.h>

#include "comch_test_common.h"

struct env {
	char domain[32];
	struct rte_comch_dev *dpu;
	struct rte_comch_dev *host;
	struct rte_comch_dev_rep *rep;
	struct rte_comch_ep *srv;
	struct rte_comch_ep *cli;
	struct rte_comch_ep_peer *cpeer; /* the client's peer (the server) */
	struct rte_comch_ep_peer *speer; /* the server's peer (the client) */
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
	if (e->cli != NULL)
		assert_int_equal(rte_comch_ep_destroy(e->cli), 0);
	if (e->srv != NULL)
		assert_int_equal(rte_comch_ep_destroy(e->srv), 0);
	assert_int_equal(rte_comch_dev_rep_close(e->rep), 0);
	assert_int_equal(rte_comch_dev_close(e->host), 0);
	assert_int_equal(rte_comch_dev_close(e->dpu), 0);
}

/* Run an endpoint's progress without taking a message (unless of length 0). */
static void
pump(struct rte_comch_ep *ep)
{
	struct rte_comch_ep_peer *p;
	size_t len = 0;
	int rc;

	rc = rte_comch_ep_recvfrom(ep, NULL, &len, 0, &p);
	assert_true(rc == -EAGAIN || rc == -EMSGSIZE);
}

/* Receive one message on ep, pumping other meanwhile; returns recvfrom's result. */
static int
recv_wait(struct rte_comch_ep *ep, struct rte_comch_ep *other, void *buf, size_t *len,
	  struct rte_comch_ep_peer **peer)
{
	uint64_t t0 = ct_now_ms();
	size_t cap = *len;
	int rc;

	do {
		*len = cap;
		rc = rte_comch_ep_recvfrom(ep, buf, len, 0, peer);
		if (rc != -EAGAIN)
			return rc;
		if (other != NULL)
			pump(other);
	} while (ct_now_ms() - t0 < CT_TIMEOUT_MS);
	return -ETIMEDOUT;
}

/* sendto, retrying on -EAGAIN while pumping other. */
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
		if (other != NULL)
			pump(other);
	} while (ct_now_ms() - t0 < CT_TIMEOUT_MS);
	return -ETIMEDOUT;
}

/* Pump both until update_info(peer) says want. */
static int
wait_info(struct env *e, struct rte_comch_ep_peer *peer, struct rte_comch_ep *other, int want)
{
	uint64_t t0 = ct_now_ms();
	int rc;

	do {
		rc = rte_comch_ep_peer_addr_update_info(peer);
		if (rc == want)
			return 0;
		pump(other);
	} while (ct_now_ms() - t0 < CT_TIMEOUT_MS);
	(void)e;
	return rc;
}

/* A listening endpoint and a connected one; the first message tells the server its peer. */
static void
env_up(struct env *e, uint32_t cli_sq)
{
	struct rte_comch_ep_peer *p;
	char buf[16];
	size_t len = sizeof(buf);
	int rc;

	e->srv = rte_comch_ep_create();
	assert_non_null(e->srv);
	assert_int_equal(rte_comch_ep_set_device(e->srv, e->dpu), 0);
	assert_int_equal(rte_comch_ep_set_device_rep(e->srv, e->rep), 0);
	assert_int_equal(rte_comch_ep_listen(e->srv, "ep_svc"), 0);

	e->cli = rte_comch_ep_create();
	assert_non_null(e->cli);
	assert_int_equal(rte_comch_ep_set_device(e->cli, e->host), 0);
	if (cli_sq != 0)
		assert_int_equal(rte_comch_ep_set_send_queue_size(e->cli, cli_sq), 0);
	assert_int_equal(rte_comch_ep_connect(e->cli, "ep_svc", &e->cpeer), 0);
	assert_non_null(e->cpeer);
	rc = rte_comch_ep_peer_addr_update_info(e->cpeer);
	assert_true(rc == -EINPROGRESS || rc == 0);
	assert_int_equal(wait_info(e, e->cpeer, e->srv, 0), 0);

	assert_int_equal(send_wait(e->cli, e->srv, "hello", 6, e->cpeer), 0);
	assert_int_equal(recv_wait(e->srv, e->cli, buf, &len, &p), 0);
	assert_int_equal(len, 6);
	assert_string_equal(buf, "hello");
	e->speer = p;
	assert_int_equal(rte_comch_ep_peer_addr_update_info(e->speer), 0);
}

static void
test_config_errors(void **state)
{
	struct rte_comch_dev_info info;
	struct rte_comch_dev_rep *rep;
	struct rte_comch_ep_peer *p;
	struct rte_comch_dev *dev;
	struct rte_comch_ep *ep;
	int sfd, rfd;
	uint32_t v;
	size_t len;
	struct env e;
	char buf[8];

	(void)state;
	env_open(&e);
	assert_int_equal(rte_comch_dev_info_get(e.dpu, &info), 0);
	ep = rte_comch_ep_create();
	assert_non_null(ep);

	/* NULL arguments */
	assert_int_equal(rte_comch_ep_destroy(NULL), -EINVAL);
	assert_int_equal(rte_comch_ep_set_device(NULL, e.dpu), -EINVAL);
	assert_int_equal(rte_comch_ep_set_device(ep, NULL), -EINVAL);
	assert_int_equal(rte_comch_ep_set_device_rep(ep, NULL), -EINVAL);
	assert_int_equal(rte_comch_ep_get_max_msg_size(ep, NULL), -EINVAL);
	assert_int_equal(rte_comch_ep_get_event_channel(ep, NULL, NULL), -EINVAL);
	assert_int_equal(rte_comch_ep_sendto(ep, "x", 1, 0, NULL), -EINVAL);
	assert_int_equal(rte_comch_ep_peer_addr_update_info(NULL), -EINVAL);
	assert_int_equal(rte_comch_ep_peer_addr_set_user_data(NULL, 1), -EINVAL);

	/* nothing set yet */
	assert_int_equal(rte_comch_ep_get_device(ep, &dev), -ENOENT);
	assert_int_equal(rte_comch_ep_get_device_rep(ep, &rep), -ENOENT);
	assert_int_equal(rte_comch_ep_listen(ep, "svc"), -EINVAL);
	assert_int_equal(rte_comch_ep_connect(ep, "svc", &p), -EINVAL);
	assert_int_equal(rte_comch_ep_get_send_queue_size(ep, &v), 0);
	assert_int_equal(v, RTE_COMCH_EP_DEFAULT_SEND_QUEUE_SIZE);
	len = sizeof(buf);
	assert_int_equal(rte_comch_ep_recvfrom(ep, buf, &len, 0, &p), -EAGAIN);
	assert_int_equal(rte_comch_ep_recvfrom(ep, buf, &len, 1, &p), -EINVAL);
	assert_int_equal(rte_comch_ep_get_event_channel(ep, &sfd, &rfd), 0);
	assert_true(sfd >= 0 && rfd >= 0 && sfd != rfd);

	/* sizes: 0, and above the device's limits */
	assert_int_equal(rte_comch_ep_set_max_msg_size(ep, 0), -EINVAL);
	assert_int_equal(rte_comch_ep_set_send_queue_size(ep, 0), -EINVAL);
	assert_int_equal(rte_comch_ep_set_recv_queue_size(ep, 0), -EINVAL);
	assert_int_equal(rte_comch_ep_set_device(ep, e.dpu), 0);
	assert_int_equal(rte_comch_ep_get_device(ep, &dev), 0);
	assert_ptr_equal(dev, e.dpu);
	assert_int_equal(rte_comch_ep_get_max_msg_size(ep, &v), 0);
	assert_int_equal(v, info.default_msg_size);
	assert_int_equal(rte_comch_ep_set_max_msg_size(ep, info.max_msg_size + 1), -EMSGSIZE);
	assert_int_equal(rte_comch_ep_set_send_queue_size(ep, info.max_send_tasks + 1), -EINVAL);
	assert_int_equal(rte_comch_ep_set_recv_queue_size(ep, info.max_recv_queue_size + 1),
			 -EINVAL);
	assert_int_equal(rte_comch_ep_set_max_msg_size(ep, 128), 0);
	assert_int_equal(rte_comch_ep_get_max_msg_size(ep, &v), 0);
	assert_int_equal(v, 128);
	assert_int_equal(rte_comch_ep_set_send_queue_size(ep, 8), 0);
	assert_int_equal(rte_comch_ep_get_send_queue_size(ep, &v), 0);
	assert_int_equal(v, 8);
	assert_int_equal(rte_comch_ep_set_recv_queue_size(ep, 4), 0);
	assert_int_equal(rte_comch_ep_get_recv_queue_size(ep, &v), 0);
	assert_int_equal(v, 4);

	/* listen needs a representor; a BlueField device does not connect */
	assert_int_equal(rte_comch_ep_listen(ep, "svc"), -EINVAL);
	assert_int_equal(rte_comch_ep_connect(ep, "svc", &p), -EPERM);
	assert_int_equal(rte_comch_ep_set_device_rep(ep, e.rep), 0);
	assert_int_equal(rte_comch_ep_get_device_rep(ep, &rep), 0);
	assert_ptr_equal(rep, e.rep);
	assert_int_equal(rte_comch_ep_listen(ep, "svc"), 0);
	/* listening: no more configuration, no second listen, no connect */
	assert_int_equal(rte_comch_ep_set_max_msg_size(ep, 64), -EBUSY);
	assert_int_equal(rte_comch_ep_set_device(ep, e.dpu), -EBUSY);
	assert_int_equal(rte_comch_ep_listen(ep, "svc2"), -EBUSY);
	assert_int_equal(rte_comch_ep_connect(ep, "svc", &p), -EBUSY);
	assert_int_equal(rte_comch_ep_destroy(ep), 0);

	/* a host device does not listen */
	ep = rte_comch_ep_create();
	assert_non_null(ep);
	assert_int_equal(rte_comch_ep_set_device(ep, e.host), 0);
	assert_int_equal(rte_comch_ep_set_device_rep(ep, e.rep), 0);
	assert_int_equal(rte_comch_ep_listen(ep, "svc"), -EPERM);
	assert_int_equal(rte_comch_ep_destroy(ep), 0);
	env_close(&e);
}

static void
test_exchange(void **state)
{
	struct rte_comch_ep_peer_stats st;
	struct rte_comch_ep_peer *p;
	const uint32_t n = 200;
	uint64_t ud = 1, t0;
	char buf[64];
	size_t len;
	struct env e;

	(void)state;
	env_open(&e);
	env_up(&e, 0);
	assert_int_equal(rte_comch_ep_peer_addr_get_user_data(e.speer, &ud), 0);
	assert_int_equal(ud, 0);
	assert_int_equal(rte_comch_ep_peer_addr_set_user_data(e.speer, 42), 0);
	assert_int_equal(rte_comch_ep_peer_addr_get_user_data(e.speer, &ud), 0);
	assert_int_equal(ud, 42);

	/*
	 * Both ways, interleaved, in order; in rounds of 50, read after each:
	 * an endpoint that does not read takes its receive queue (64) and its
	 * connection's (64), then the sender waits.
	 */
	for (uint32_t i = 0; i < n; i++) {
		char want[32];

		snprintf(buf, sizeof(buf), "c2s %u", i);
		assert_int_equal(send_wait(e.cli, e.srv, buf, strlen(buf) + 1, e.cpeer), 0);
		snprintf(buf, sizeof(buf), "s2c %u", i);
		assert_int_equal(send_wait(e.srv, e.cli, buf, strlen(buf) + 1, e.speer), 0);
		if (i % 50 != 49)
			continue;
		for (uint32_t j = i - 49; j <= i; j++) {
			len = sizeof(buf);
			assert_int_equal(recv_wait(e.srv, e.cli, buf, &len, &p), 0);
			assert_ptr_equal(p, e.speer);
			snprintf(want, sizeof(want), "c2s %u", j);
			assert_string_equal(buf, want);
			len = sizeof(buf);
			assert_int_equal(recv_wait(e.cli, e.srv, buf, &len, &p), 0);
			assert_ptr_equal(p, e.cpeer);
			snprintf(want, sizeof(want), "s2c %u", j);
			assert_string_equal(buf, want);
		}
	}
	/* a zero-length message */
	assert_int_equal(send_wait(e.cli, e.srv, NULL, 0, e.cpeer), 0);
	len = sizeof(buf);
	assert_int_equal(recv_wait(e.srv, e.cli, buf, &len, &p), 0);
	assert_int_equal(len, 0);

	/* counters, once every send has completed */
	t0 = ct_now_ms();
	do {
		assert_int_equal(rte_comch_ep_peer_addr_update_info(e.cpeer), 0);
		assert_int_equal(rte_comch_ep_peer_addr_get_stats(e.cpeer, &st), 0);
		pump(e.srv);
	} while (st.send_in_flight_messages != 0 && ct_now_ms() - t0 < CT_TIMEOUT_MS);
	assert_int_equal(st.send_in_flight_messages, 0);
	assert_int_equal(st.send_messages, n + 2);
	assert_int_equal(st.recv_messages, n);
	assert_true(st.send_bytes > 6);
	assert_int_equal(rte_comch_ep_peer_addr_update_info(e.speer), 0);
	assert_int_equal(rte_comch_ep_peer_addr_get_stats(e.speer, &st), 0);
	assert_int_equal(st.recv_messages, n + 2);

	/* too big */
	{
		uint32_t max;
		static char big[65536];

		assert_int_equal(rte_comch_ep_get_max_msg_size(e.cli, &max), 0);
		assert_true(max < sizeof(big));
		assert_int_equal(rte_comch_ep_sendto(e.cli, big, max + 1, 0, e.cpeer), -EMSGSIZE);
		assert_int_equal(rte_comch_ep_sendto(e.cli, big, 1, 7, e.cpeer), -EINVAL);
	}
	env_close(&e);
}

static void
test_small_buffer(void **state)
{
	struct rte_comch_ep_peer *p = NULL;
	uint8_t msg[100], buf[100];
	size_t len;
	struct env e;

	(void)state;
	env_open(&e);
	env_up(&e, 0);
	for (unsigned int i = 0; i < sizeof(msg); i++)
		msg[i] = (uint8_t)i;
	assert_int_equal(send_wait(e.srv, e.cli, msg, sizeof(msg), e.speer), 0);
	len = 10;
	assert_int_equal(recv_wait(e.cli, e.srv, buf, &len, &p), -EMSGSIZE);
	assert_int_equal(len, sizeof(msg));
	assert_null(p);
	/* kept: a second try with room gets it */
	len = sizeof(buf);
	assert_int_equal(rte_comch_ep_recvfrom(e.cli, buf, &len, 0, &p), 0);
	assert_int_equal(len, sizeof(msg));
	assert_memory_equal(buf, msg, sizeof(msg));
	assert_ptr_equal(p, e.cpeer);
	len = sizeof(buf);
	assert_int_equal(rte_comch_ep_recvfrom(e.cli, buf, &len, 0, &p), -EAGAIN);
	env_close(&e);
}

static bool
fd_readable(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	return poll(&pfd, 1, 0) == 1 && (pfd.revents & POLLIN) != 0;
}

static void
test_send_queue_full(void **state)
{
	const uint32_t sq = 4;
	struct rte_comch_ep_peer *p;
	uint64_t t0;
	uint32_t i;
	char buf[16];
	size_t len;
	int sfd;
	struct env e;

	(void)state;
	env_open(&e);
	env_up(&e, sq);
	assert_int_equal(rte_comch_ep_get_event_channel(e.cli, &sfd, NULL), 0);
	/* let the first message ("hello") complete */
	t0 = ct_now_ms();
	do {
		struct rte_comch_ep_peer_stats st;

		rte_comch_ep_peer_addr_update_info(e.cpeer);
		rte_comch_ep_peer_addr_get_stats(e.cpeer, &st);
		if (st.send_in_flight_messages == 0)
			break;
		pump(e.srv);
	} while (ct_now_ms() - t0 < CT_TIMEOUT_MS);
	/* the server takes nothing while the client fills its queue */
	for (i = 0; i < sq; i++)
		assert_int_equal(rte_comch_ep_sendto(e.cli, &i, sizeof(i), 0, e.cpeer), 0);
	assert_int_equal(rte_comch_ep_sendto(e.cli, &i, sizeof(i), 0, e.cpeer), -EAGAIN);
	assert_int_equal(rte_comch_ep_event_handle_arm_send(e.cli), 0);
	/* the server takes them; the client's progress sees the room and signals send_fd */
	for (i = 0; i < sq; i++) {
		uint32_t v;

		len = sizeof(v);
		assert_int_equal(recv_wait(e.srv, NULL, &v, &len, &p), 0);
		assert_int_equal(v, i);
	}
	t0 = ct_now_ms();
	while (!fd_readable(sfd) && ct_now_ms() - t0 < CT_TIMEOUT_MS) {
		pump(e.cli);
		pump(e.srv);
	}
	assert_true(fd_readable(sfd));
	assert_int_equal(rte_comch_ep_sendto(e.cli, "again", 6, 0, e.cpeer), 0);
	len = sizeof(buf);
	assert_int_equal(recv_wait(e.srv, e.cli, buf, &len, &p), 0);
	assert_string_equal(buf, "again");
	/* with room, arming signals at once */
	t0 = ct_now_ms();
	do {
		assert_int_equal(rte_comch_ep_event_handle_arm_send(e.cli), 0);
		pump(e.srv);
	} while (!fd_readable(sfd) && ct_now_ms() - t0 < CT_TIMEOUT_MS);
	assert_true(fd_readable(sfd));
	env_close(&e);
}

/* The peer's receive queue (its window) full: -EAGAIN though the send queue has room. */
static void
test_peer_window_full(void **state)
{
	struct rte_comch_ep_peer *p, *cp;
	struct rte_comch_ep *srv, *cli;
	uint32_t i, v, sent = 0;
	uint64_t t0;
	size_t len;
	int sfd, rc;
	struct env e;

	(void)state;
	env_open(&e);
	srv = rte_comch_ep_create();
	assert_non_null(srv);
	assert_int_equal(rte_comch_ep_set_device(srv, e.dpu), 0);
	assert_int_equal(rte_comch_ep_set_device_rep(srv, e.rep), 0);
	assert_int_equal(rte_comch_ep_listen(srv, "ep_win"), 0);
	cli = rte_comch_ep_create();
	assert_non_null(cli);
	assert_int_equal(rte_comch_ep_set_device(cli, e.host), 0);
	assert_int_equal(rte_comch_ep_set_recv_queue_size(cli, 2), 0);
	assert_int_equal(rte_comch_ep_connect(cli, "ep_win", &cp), 0);
	assert_int_equal(wait_info(&e, cp, srv, 0), 0);
	assert_int_equal(send_wait(cli, srv, &sent, sizeof(sent), cp), 0);
	len = sizeof(v);
	assert_int_equal(recv_wait(srv, cli, &v, &len, &p), 0);

	/* the client takes nothing: the server fills the client's window of 2 */
	for (i = 0; i < 8; i++) {
		rc = rte_comch_ep_sendto(srv, &i, sizeof(i), 0, p);
		if (rc == -EAGAIN)
			break;
		assert_int_equal(rc, 0);
		sent++;
	}
	assert_int_equal(rc, -EAGAIN);
	assert_true(sent >= 2 && sent < 8);
	assert_int_equal(rte_comch_ep_get_event_channel(srv, &sfd, NULL), 0);
	assert_int_equal(rte_comch_ep_event_handle_arm_send(srv), 0);
	/* the client takes them; the server's progress sees the room */
	for (i = 0; i < sent; i++) {
		len = sizeof(v);
		assert_int_equal(recv_wait(cli, NULL, &v, &len, &cp), 0);
		assert_int_equal(v, i);
	}
	t0 = ct_now_ms();
	while (!fd_readable(sfd) && ct_now_ms() - t0 < CT_TIMEOUT_MS) {
		pump(srv);
		pump(cli);
	}
	assert_true(fd_readable(sfd));
	assert_int_equal(send_wait(srv, cli, &i, sizeof(i), p), 0);
	assert_int_equal(rte_comch_ep_destroy(cli), 0);
	assert_int_equal(rte_comch_ep_destroy(srv), 0);
	env_close(&e);
}

static void
test_recv_event(void **state)
{
	struct rte_comch_dev_info info;
	struct rte_comch_ep_peer *p;
	struct pollfd pfd;
	uint64_t t0;
	char buf[16];
	size_t len;
	int rfd, rc;
	struct env e;

	(void)state;
	env_open(&e);
	assert_int_equal(rte_comch_dev_info_get(e.host, &info), 0);
	if ((info.capa & RTE_COMCH_CAPA_SLEEP) == 0) {
		env_close(&e);
		skip();
	}
	env_up(&e, 0);
	assert_int_equal(rte_comch_ep_get_event_channel(e.cli, NULL, &rfd), 0);
	/* arm (retrying while the engine has work), then the server sends */
	t0 = ct_now_ms();
	while ((rc = rte_comch_ep_event_handle_arm_recv(e.cli)) == -EAGAIN &&
	       ct_now_ms() - t0 < CT_TIMEOUT_MS)
		pump(e.srv);
	assert_int_equal(rc, 0);
	assert_int_equal(send_wait(e.srv, NULL, "wake", 5, e.speer), 0);
	pfd = (struct pollfd){ .fd = rfd, .events = POLLIN };
	t0 = ct_now_ms();
	while (poll(&pfd, 1, 10) == 0 && ct_now_ms() - t0 < CT_TIMEOUT_MS)
		pump(e.srv); /* the server rings from its next progress */
	assert_true((pfd.revents & POLLIN) != 0);
	len = sizeof(buf);
	assert_int_equal(recv_wait(e.cli, e.srv, buf, &len, &p), 0);
	assert_string_equal(buf, "wake");
	/* a message queued: arming refuses */
	assert_int_equal(send_wait(e.srv, NULL, "more", 5, e.speer), 0);
	t0 = ct_now_ms();
	while ((rc = rte_comch_ep_event_handle_arm_recv(e.cli)) == 0 &&
	       ct_now_ms() - t0 < CT_TIMEOUT_MS)
		pump(e.srv);
	assert_int_equal(rc, -EAGAIN);
	env_close(&e);
}

/*
 * Messages that arrive while a recvfrom takes one straight from the connection
 * stay in order, and still count as waiting: arming says -EAGAIN, and a small
 * buffer gets -EMSGSIZE with the length, as for queued ones.
 */
static void
test_recv_rest_waits(void **state)
{
	struct rte_comch_dev_info info;
	struct rte_comch_ep_peer *p;
	static char big[2048], buf[4096];
	uint64_t t0;
	size_t len;
	int rc;
	struct env e;

	(void)state;
	env_open(&e);
	assert_int_equal(rte_comch_dev_info_get(e.host, &info), 0);
	env_up(&e, 0);
	/* The first large: its connection is paused while it is taken, then resumed. */
	memset(big, 'b', sizeof(big));
	assert_int_equal(send_wait(e.srv, NULL, big, sizeof(big), e.speer), 0);
	assert_int_equal(send_wait(e.srv, NULL, "m11", 4, e.speer), 0);
	assert_int_equal(send_wait(e.srv, NULL, "m2", 3, e.speer), 0);
	pump(e.srv);
	len = sizeof(buf);
	assert_int_equal(recv_wait(e.cli, e.srv, buf, &len, &p), 0);
	assert_int_equal(len, sizeof(big));
	assert_memory_equal(buf, big, sizeof(big));
	assert_ptr_equal(p, e.cpeer);
	if ((info.capa & RTE_COMCH_CAPA_SLEEP) != 0) {
		/* Two more are there: the engine must not sleep on them. */
		t0 = ct_now_ms();
		while ((rc = rte_comch_ep_event_handle_arm_recv(e.cli)) == 0 &&
		       ct_now_ms() - t0 < CT_TIMEOUT_MS)
			pump(e.srv);
		assert_int_equal(rc, -EAGAIN);
	}
	len = 2;
	assert_int_equal(recv_wait(e.cli, e.srv, buf, &len, &p), -EMSGSIZE);
	assert_int_equal(len, 4);
	len = sizeof(buf);
	assert_int_equal(recv_wait(e.cli, e.srv, buf, &len, &p), 0);
	assert_string_equal(buf, "m11");
	len = sizeof(buf);
	assert_int_equal(recv_wait(e.cli, e.srv, buf, &len, &p), 0);
	assert_string_equal(buf, "m2");
	len = sizeof(buf);
	assert_int_equal(rte_comch_ep_recvfrom(e.cli, buf, &len, 0, &p), -EAGAIN);
	env_close(&e);
}

static void
test_disconnect(void **state)
{
	struct rte_comch_ep_peer *p;
	char buf[16];
	size_t len;
	struct env e;

	(void)state;
	env_open(&e);
	env_up(&e, 0);
	/* the server disconnects its peer: the client sees the connection end */
	assert_int_equal(rte_comch_ep_disconnect(e.srv, e.speer), 0);
	assert_int_equal(wait_info(&e, e.cpeer, e.srv, -ECONNABORTED), 0);
	assert_int_equal(rte_comch_ep_sendto(e.cli, "x", 2, 0, e.cpeer), -ECONNRESET);
	/* not released yet: no new connection */
	assert_int_equal(rte_comch_ep_connect(e.cli, "ep_svc", &p), -EBUSY);
	assert_int_equal(rte_comch_ep_disconnect(e.cli, e.cpeer), 0);
	/* reconnect */
	assert_int_equal(rte_comch_ep_connect(e.cli, "ep_svc", &e.cpeer), 0);
	assert_int_equal(wait_info(&e, e.cpeer, e.srv, 0), 0);
	assert_int_equal(send_wait(e.cli, e.srv, "back", 5, e.cpeer), 0);
	len = sizeof(buf);
	assert_int_equal(recv_wait(e.srv, e.cli, buf, &len, &e.speer), 0);
	assert_string_equal(buf, "back");
	/* now the client disconnects: the server's peer is in error */
	assert_int_equal(rte_comch_ep_disconnect(e.cli, e.cpeer), 0);
	assert_int_equal(wait_info(&e, e.speer, e.cli, -ECONNABORTED), 0);
	assert_int_equal(rte_comch_ep_sendto(e.srv, "x", 2, 0, e.speer), -ECONNRESET);
	assert_int_equal(rte_comch_ep_disconnect(e.srv, e.speer), 0);
	env_close(&e);
}

static void
test_connect_unknown(void **state)
{
	struct rte_comch_ep_peer *p;
	struct rte_comch_ep *ep;
	uint64_t t0;
	int rc;
	struct env e;

	(void)state;
	env_open(&e);
	ep = rte_comch_ep_create();
	assert_non_null(ep);
	assert_int_equal(rte_comch_ep_set_device(ep, e.host), 0);
	assert_int_equal(rte_comch_ep_connect(ep, "nobody", &p), 0);
	assert_int_equal(rte_comch_ep_peer_addr_update_info(p), -EINPROGRESS);
	assert_int_equal(rte_comch_ep_sendto(ep, "x", 2, 0, p), -EAGAIN);
	/* the default connect timeout is 5 s: disconnect while still connecting */
	assert_int_equal(rte_comch_ep_disconnect(ep, p), 0);
	t0 = ct_now_ms();
	while ((rc = rte_comch_ep_connect(ep, "nobody", &p)) == -EBUSY &&
	       ct_now_ms() - t0 < CT_TIMEOUT_MS)
		;
	assert_int_equal(rc, 0);
	assert_int_equal(rte_comch_ep_destroy(ep), 0);
	env_close(&e);
}

static void
test_service_state(void **state)
{
	struct rte_comch_ep_peer * const *list;
	struct rte_comch_ep_peer *p2;
	struct rte_comch_ep *cli2;
	uint32_t nb = 99;
	uint64_t t0;
	int fd;
	struct env e;

	(void)state;
	env_open(&e);
	env_up(&e, 0);
	assert_int_equal(rte_comch_ep_get_service_event_channel(e.cli, &fd), -EBUSY);
	assert_int_equal(rte_comch_ep_update_service_state_info(e.cli), -EBUSY);
	assert_int_equal(rte_comch_ep_get_service_event_channel(e.srv, &fd), 0);
	/* the first client's connection was an event */
	assert_true(fd_readable(fd));
	assert_int_equal(rte_comch_ep_update_service_state_info(e.srv), 0);
	assert_false(fd_readable(fd));
	assert_int_equal(rte_comch_ep_get_peer_addr_list(e.srv, &list, &nb), 0);
	assert_int_equal(nb, 1);
	assert_ptr_equal(list[0], e.speer);

	/* a second client */
	cli2 = rte_comch_ep_create();
	assert_non_null(cli2);
	assert_int_equal(rte_comch_ep_set_device(cli2, e.host), 0);
	assert_int_equal(rte_comch_ep_connect(cli2, "ep_svc", &p2), 0);
	t0 = ct_now_ms();
	while (!fd_readable(fd) && ct_now_ms() - t0 < CT_TIMEOUT_MS) {
		rte_comch_ep_peer_addr_update_info(p2);
		pump(e.srv);
	}
	assert_true(fd_readable(fd));
	assert_int_equal(rte_comch_ep_update_service_state_info(e.srv), 0);
	assert_int_equal(rte_comch_ep_get_peer_addr_list(e.srv, &list, &nb), 0);
	assert_int_equal(nb, 2);

	/* the first client leaves */
	assert_int_equal(rte_comch_ep_disconnect(e.cli, e.cpeer), 0);
	t0 = ct_now_ms();
	while (!fd_readable(fd) && ct_now_ms() - t0 < CT_TIMEOUT_MS) {
		pump(e.cli);
		pump(e.srv);
	}
	assert_true(fd_readable(fd));
	assert_int_equal(rte_comch_ep_update_service_state_info(e.srv), 0);
	assert_int_equal(rte_comch_ep_get_peer_addr_list(e.srv, &list, &nb), 0);
	assert_int_equal(nb, 1);
	assert_ptr_not_equal(list[0], e.speer);
	assert_int_equal(rte_comch_ep_peer_addr_update_info(e.speer), -ECONNABORTED);
	assert_int_equal(rte_comch_ep_destroy(cli2), 0);
	env_close(&e);
}

/*
 * librte_comch_ep counts its own objects (rte_comch_ep_obj_stats_get()): an
 * endpoint is live from create to destroy, then its memory is kept back.
 */
static void
test_obj_stats(void **state)
{
	struct rte_comch_obj_stats s0, s1, s2;
	struct rte_comch_ep *ep;

	(void)state;
	assert_int_equal(rte_comch_ep_obj_stats_get(NULL), -EINVAL);
	assert_int_equal(rte_comch_ep_obj_stats_get(&s0), 0);
	ep = rte_comch_ep_create();
	assert_non_null(ep);
	assert_int_equal(rte_comch_ep_obj_stats_get(&s1), 0);
	assert_int_equal(s1.live, s0.live + 1);
	assert_int_equal(rte_comch_ep_destroy(ep), 0);
	assert_int_equal(rte_comch_ep_obj_stats_get(&s2), 0);
	assert_int_equal(s2.live, s0.live);
	assert_true(s2.quarantined > 0);
	/* a stale handle is refused, its memory kept back */
	assert_int_equal(rte_comch_ep_destroy(ep), -EINVAL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_errors),
		cmocka_unit_test(test_exchange),
		cmocka_unit_test(test_small_buffer),
		cmocka_unit_test(test_send_queue_full),
		cmocka_unit_test(test_peer_window_full),
		cmocka_unit_test(test_recv_event),
		cmocka_unit_test(test_recv_rest_waits),
		cmocka_unit_test(test_disconnect),
		cmocka_unit_test(test_connect_unknown),
		cmocka_unit_test(test_service_state),
		cmocka_unit_test(test_obj_stats),
	};

	return CT_RUN("comch_ep", tests);
}
