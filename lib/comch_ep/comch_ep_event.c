/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Endpoints: event channels. recv_fd is the engine's notification fd; send_fd
 * an eventfd of the endpoint, written when the send queue gets room.
 */

#include <errno.h>
#include <stdint.h>
#include <unistd.h>

#include "comch_ep_private.h"

/* Rounds of progress arm calls try before giving up on a busy engine. */
#define COMCH_EP_ARM_ROUNDS 4

static void
ep_send_fd_signal(struct rte_comch_ep *ep)
{
	uint64_t one = 1;

	if (write(ep->send_fd, &one, sizeof(one)) != sizeof(one) && errno != EAGAIN)
		COMCH_LOG(ERR, "endpoint: send event: %s", strerror(errno));
}

static void
ep_send_fd_drain(struct rte_comch_ep *ep)
{
	uint64_t v;

	if (read(ep->send_fd, &v, sizeof(v)) < 0 && errno != EAGAIN)
		COMCH_LOG(ERR, "endpoint: send event: %s", strerror(errno));
}

static bool
ep_send_room(const struct rte_comch_ep *ep)
{
	return !ep->send_blocked && ep->inflight < comch_ep_send_queue_size(ep);
}

void
comch_ep_send_room(struct rte_comch_ep *ep)
{
	if (ep->send_armed && ep_send_room(ep)) {
		ep->send_armed = false;
		ep_send_fd_signal(ep);
	}
}

/* Arm the engine, running progress while it has work; 0 or -EAGAIN. */
static int
ep_arm_pe(struct rte_comch_ep *ep)
{
	int rc = -EAGAIN;

	if (ep->pe_armed)
		return 0;
	for (unsigned int i = 0; i < COMCH_EP_ARM_ROUNDS; i++) {
		rc = rte_comch_pe_request_notification(ep->pe);
		if (rc != -EAGAIN)
			break;
		comch_ep_progress(ep);
	}
	if (rc == 0)
		ep->pe_armed = true;
	else if (rc != -EAGAIN)
		COMCH_LOG(ERR, "endpoint: cannot arm the engine: %s", strerror(-rc));
	return rc;
}

int
rte_comch_ep_get_event_channel(const struct rte_comch_ep *ep, int *send_fd, int *recv_fd)
{
	int rc;

	if (COMCH_EP_BAD(ep))
		return -EINVAL;
	if (send_fd == NULL && recv_fd == NULL) {
		COMCH_LOG(ERR, "endpoint: send_fd and recv_fd are NULL");
		return -EINVAL;
	}
	if (recv_fd != NULL) {
		rc = rte_comch_pe_get_notification_fd(ep->pe, recv_fd);
		if (rc != 0)
			return rc;
	}
	if (send_fd != NULL)
		*send_fd = ep->send_fd;
	return 0;
}

int
comch_ep_arm_send(struct rte_comch_ep *ep)
{
	int rc;

	comch_ep_progress(ep);
	ep_send_fd_drain(ep);
	if (ep_send_room(ep)) {
		ep_send_fd_signal(ep);
		return 0;
	}
	ep->send_armed = true;
	/* The room comes through the engine: arm it, or wake the caller to progress. */
	rc = ep_arm_pe(ep);
	if (rc != 0)
		ep_send_fd_signal(ep);
	if (ep_send_room(ep))
		comch_ep_send_room(ep);
	return rc == -EAGAIN ? 0 : rc;
}

int
rte_comch_ep_event_handle_arm_send(struct rte_comch_ep *ep)
{
	int rc;

	if (COMCH_EP_BAD_FAST(ep))
		return -EINVAL;
	rc = comch_ep_enter(ep, __func__);
	if (rc != 0)
		return rc;
	rc = comch_ep_arm_send(ep);
	comch_ep_leave(ep);
	return rc;
}

static int
ep_arm_recv(struct rte_comch_ep *ep)
{
	int rc;

	if (!TAILQ_EMPTY(&ep->rxq)) {
		COMCH_LOG(DEBUG, "endpoint: messages queued, not arming");
		return -EAGAIN;
	}
	rc = ep_arm_pe(ep);
	if (rc == -EAGAIN)
		COMCH_LOG(DEBUG, "endpoint: work pending, not arming");
	if (rc == 0 && !TAILQ_EMPTY(&ep->rxq)) {
		/* The progress of the attempts queued messages: do not sleep. */
		rte_comch_pe_clear_notification(ep->pe);
		ep->pe_armed = false;
		return -EAGAIN;
	}
	return rc;
}

int
rte_comch_ep_event_handle_arm_recv(struct rte_comch_ep *ep)
{
	int rc;

	if (COMCH_EP_BAD_FAST(ep))
		return -EINVAL;
	/*
	 * Before touching the endpoint: while another thread is inside a call on
	 * it, the queue (and the engine) are that thread's; -EBUSY, not -EAGAIN.
	 */
	rc = comch_ep_enter(ep, __func__);
	if (rc != 0)
		return rc;
	rc = ep_arm_recv(ep);
	comch_ep_leave(ep);
	return rc;
}
