/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/* The endpoint samples' waiting (librte_comch_ep), built into those two samples only. */

#include <errno.h>
#include <stdio.h>
#include <sys/epoll.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_errno.h>

#include <rte_comch_ep.h>

#include "comch_sample.h"
#include "comch_sample_ep.h"

/* How long the endpoint samples nap when arming says the engine has work pending. */
#define COMCH_SAMPLE_EP_BUSY_NAP_MS 1

static int
ep_wait_fail(const char *who, const char *what, int err)
{
	fprintf(stderr, "%s: %s: %s (-%s)\n", who, what, rte_strerror(-err),
		comch_sample_errno_name(err));
	return err;
}

int
comch_sample_ep_wait(struct rte_comch_ep *ep, int epfd, int send_fd, bool for_send,
		     uint64_t deadline, struct epoll_event *events, int max, const char *who)
{
	struct epoll_event ev = { .events = for_send ? EPOLLIN : 0, .data.fd = send_fd };
	uint64_t now, hz = rte_get_timer_hz();
	int n, ret, timeout_ms = -1;

	if (epoll_ctl(epfd, EPOLL_CTL_MOD, send_fd, &ev) < 0)
		return ep_wait_fail(who, "epoll_ctl(send_fd)", -errno);
	ret = for_send ? rte_comch_ep_event_handle_arm_send(ep) :
			 rte_comch_ep_event_handle_arm_recv(ep);
	/* -EAGAIN: something is queued or in the works, the engine must run again. */
	if (ret == -EAGAIN)
		timeout_ms = COMCH_SAMPLE_EP_BUSY_NAP_MS;
	else if (ret < 0)
		return ep_wait_fail(who, "cannot arm the event channel", ret);
	if (deadline != 0) {
		now = rte_get_timer_cycles();
		if (now >= deadline)
			return -ETIMEDOUT;
		if (timeout_ms < 0)
			timeout_ms = (int)RTE_MIN((deadline - now) * 1000 / hz + 1,
						  (uint64_t)INT32_MAX);
	}
	/* A signal interrupts epoll_wait() (it is never restarted): 0 events. */
	n = epoll_wait(epfd, events, max, timeout_ms);
	if (n < 0 && errno != EINTR)
		return ep_wait_fail(who, "epoll_wait", -errno);
	return n < 0 ? 0 : n;
}
