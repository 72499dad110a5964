/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_errno.h>

#include "bench_comch.h"
#include "bench_ep.h"

/* Busy-loop rounds between two looks at the clock and the peer. */
#define SPINS_PER_CHECK 4096
/* Tries of rte_comch_ep_destroy() while its server or client stops (-EBUSY). */
#define DESTROY_TRIES 100

static uint64_t
deadline(const struct bench_ep *e, double seconds)
{
	return rte_rdtsc() + (uint64_t)(seconds * e->bc->tsc_hz);
}

/* Endpoint, device, sizes; the epoll set in an epoll mode. */
static int
ep_open(struct bench_ep *e, struct bench_ctx *bc, const struct bench_test *t,
	struct bench_result *res, struct rte_comch_dev_rep **rep)
{
	const uint32_t max_msg = RTE_MAX(bench_wire_size(t), (uint32_t)BENCH_CTRL_MSG_ROOM);
	struct epoll_event ev = { .events = EPOLLIN };
	struct rte_comch_dev *dev;
	struct rte_comch_pe *pe;
	int ret, fds[2], i;

	memset(e, 0, sizeof(*e));
	e->bc = bc;
	e->res = res;
	e->epfd = -1;
	e->epoll = t->mode->epoll;
	ret = bc_env_get(bc, res, &dev, rep, &pe);
	if (ret < 0)
		return ret;
	e->ep = rte_comch_ep_create();
	if (e->ep == NULL)
		return bench_fail(res, -rte_errno, "rte_comch_ep_create: %s", strerror(rte_errno));
	if ((ret = rte_comch_ep_set_device(e->ep, dev)) < 0 ||
	    (ret = rte_comch_ep_set_max_msg_size(e->ep, max_msg)) < 0 ||
	    (ret = rte_comch_ep_set_recv_queue_size(e->ep, t->recv_queue)) < 0 ||
	    (ret = rte_comch_ep_set_send_queue_size(e->ep, t->recv_queue)) < 0)
		return bench_fail(res, ret, "endpoint configuration (max message %" PRIu32
				  ", queues %" PRIu32 "): %s", max_msg, t->recv_queue,
				  strerror(-ret));
	if (!e->epoll)
		return 0;
	ret = rte_comch_ep_get_event_channel(e->ep, &fds[0], &fds[1]);
	if (ret < 0)
		return bench_fail(res, ret, "rte_comch_ep_get_event_channel: %s", strerror(-ret));
	e->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (e->epfd < 0)
		return bench_fail(res, -errno, "epoll_create1: %s", strerror(errno));
	for (i = 0; i < 2; i++) {
		ev.data.fd = fds[i];
		if (epoll_ctl(e->epfd, EPOLL_CTL_ADD, fds[i], &ev) < 0)
			return bench_fail(res, -errno, "epoll_ctl: %s", strerror(errno));
	}
	return 0;
}

int
bep_listen(struct bench_ep *e, struct bench_ctx *bc, const struct bench_test *t,
	   struct bench_result *res)
{
	struct rte_comch_dev_rep *rep;
	char name[64];
	int ret;

	ret = ep_open(e, bc, t, res, &rep);
	if (ret < 0)
		return ret;
	bc_server_name(t, name, sizeof(name));
	ret = rte_comch_ep_set_device_rep(e->ep, rep);
	if (ret == 0)
		ret = rte_comch_ep_listen(e->ep, name);
	if (ret < 0)
		return bench_fail(res, ret, "rte_comch_ep_listen(%s): %s", name, strerror(-ret));
	return 0;
}

int
bep_connect(struct bench_ep *e, struct bench_ctx *bc, const struct bench_test *t,
	    struct bench_result *res)
{
	struct rte_comch_dev_rep *rep;
	uint64_t end;
	size_t len;
	char name[64];
	int ret;

	ret = ep_open(e, bc, t, res, &rep);
	if (ret < 0)
		return ret;
	bc_server_name(t, name, sizeof(name));
	/* The server side may still be starting, or finishing the previous test. */
	end = deadline(e, BENCH_CONNECT_TIMEOUT_S);
	for (;;) {
		if (rte_rdtsc() > end)
			return bench_fail(res, -ETIMEDOUT, "not connected to %s after %d s", name,
					  BENCH_CONNECT_TIMEOUT_S);
		if (e->peer == NULL) {
			ret = rte_comch_ep_connect(e->ep, name, &e->peer);
			if (ret == -EBUSY) {
				/* The previous client is stopping: any call progresses. */
				len = 0;
				rte_comch_ep_recvfrom(e->ep, NULL, &len, 0, &e->peer);
				e->peer = NULL;
				continue;
			}
			if (ret < 0)
				return bench_fail(res, ret, "rte_comch_ep_connect(%s): %s", name,
						  strerror(-ret));
		}
		ret = rte_comch_ep_peer_addr_update_info(e->peer);
		if (ret == 0)
			return 0;
		if (ret == -ECONNABORTED) {
			/* Nobody listening yet: release the peer and try again. */
			rte_comch_ep_disconnect(e->ep, e->peer);
			e->peer = NULL;
		} else if (ret != -EINPROGRESS) {
			return bench_fail(res, ret, "connecting to %s: %s", name, strerror(-ret));
		}
	}
}

/* Epoll mode: sleep until an event channel fires, at most BENCH_EV_SAFETY_MS. */
static int
sleep_on(struct bench_ep *e)
{
	struct epoll_event evs[2];
	int n;

	n = epoll_wait(e->epfd, evs, RTE_DIM(evs), BENCH_EV_SAFETY_MS);
	if (n < 0 && errno != EINTR)
		return bench_fail(e->res, -errno, "epoll_wait: %s", strerror(errno));
	if (n > 0)
		e->wakeups++;
	else if (n == 0)
		e->timeouts++;
	return 0;
}

int
bep_send(struct bench_ep *e, const void *msg, uint32_t len)
{
	uint64_t end = 0;
	unsigned int spins = 0;
	int ret;

	for (;;) {
		ret = rte_comch_ep_sendto(e->ep, msg, len, RTE_COMCH_EP_MSG_FLAG_NONE, e->peer);
		if (likely(ret != -EAGAIN))
			break;
		e->eagain++;
		if (e->epoll) {
			ret = rte_comch_ep_event_handle_arm_send(e->ep);
			if (ret == 0)
				ret = sleep_on(e);
			if (ret < 0)
				return bench_fail(e->res, ret, "waiting for send room: %s",
						  strerror(-ret));
		}
		if (!e->epoll && ++spins % SPINS_PER_CHECK != 0)
			continue;
		if (end == 0)
			end = deadline(e, BENCH_REPLY_TIMEOUT_S);
		else if (rte_rdtsc() > end)
			return bench_fail(e->res, -ETIMEDOUT, "send queue still full after %d s",
					  BENCH_REPLY_TIMEOUT_S);
	}
	if (unlikely(ret < 0))
		return bench_fail(e->res, ret, "rte_comch_ep_sendto(%" PRIu32 " B): %s", len,
				  strerror(-ret));
	return 0;
}

/* The rare part of a wait to receive: is the peer still there, is it too late. */
static int
recv_check(struct bench_ep *e, uint64_t end)
{
	int ret;

	if (e->peer != NULL) {
		ret = rte_comch_ep_peer_addr_update_info(e->peer);
		if (ret == -ECONNABORTED && e->bc->side == BENCH_SIDE_SERVER)
			return 1;
		if (ret < 0)
			return bench_fail(e->res, ret, "connection: %s", strerror(-ret));
	}
	/* The server waits for its client's requests without a deadline once connected. */
	if ((e->peer == NULL || e->bc->side == BENCH_SIDE_CLIENT) && rte_rdtsc() > end)
		return bench_fail(e->res, -ETIMEDOUT, "nothing received after %d s",
				  e->peer == NULL ? BENCH_CONNECT_TIMEOUT_S :
				  BENCH_REPLY_TIMEOUT_S);
	return 0;
}

int
bep_recv(struct bench_ep *e, void *buf, uint32_t cap)
{
	uint64_t end = deadline(e, e->peer == NULL ? BENCH_CONNECT_TIMEOUT_S :
				BENCH_REPLY_TIMEOUT_S);
	struct rte_comch_ep_peer *from;
	unsigned int spins = 0;
	bool woke = false;
	size_t len;
	int ret;

	for (;;) {
		len = cap;
		ret = rte_comch_ep_recvfrom(e->ep, buf, &len, RTE_COMCH_EP_MSG_FLAG_NONE, &from);
		if (likely(ret == 0))
			break;
		if (ret != -EAGAIN)
			return bench_fail(e->res, ret, "rte_comch_ep_recvfrom (%" PRIu32 " B): %s",
					  cap, strerror(-ret));
		/* Polling: now and then; asleep: after a wake-up that brought nothing. */
		if (woke || ++spins % SPINS_PER_CHECK == 0) {
			ret = recv_check(e, end);
			if (ret != 0)
				return ret > 0 ? 0 : ret;
		}
		woke = false;
		if (!e->epoll)
			continue;
		ret = rte_comch_ep_event_handle_arm_recv(e->ep);
		if (ret == 0) {
			ret = sleep_on(e);
			woke = true;
		} else if (ret == -EAGAIN) {
			ret = 0;
		}
		if (ret < 0)
			return bench_fail(e->res, ret, "arming the receive event: %s",
					  strerror(-ret));
	}
	if (e->peer == NULL)
		e->peer = from;
	else if (unlikely(from != e->peer))
		return bench_fail(e->res, -EPROTO, "a message from a second peer");
	return (int)len;
}

void
bep_close(struct bench_ep *e)
{
	int ret, i;

	if (e->epfd >= 0)
		close(e->epfd);
	e->epfd = -1;
	if (e->ep == NULL)
		return;
	if (e->peer != NULL)
		rte_comch_ep_disconnect(e->ep, e->peer);
	e->peer = NULL;
	for (i = 0; i < DESTROY_TRIES; i++) {
		ret = rte_comch_ep_destroy(e->ep);
		if (ret != -EBUSY)
			break;
	}
	if (ret < 0)
		bench_fail(e->res, ret, "rte_comch_ep_destroy: %s", strerror(-ret));
	e->ep = NULL;
}
