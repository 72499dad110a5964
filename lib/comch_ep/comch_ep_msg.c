/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/* Endpoints: sendto and recvfrom, and the send and receive callbacks behind them. */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "comch_ep_private.h"

void
comch_ep_send_done_cb(struct rte_comch_task_send *task, union rte_comch_data task_ud,
		      union rte_comch_data ctx_ud)
{
	struct rte_comch_task *t = rte_comch_task_send_as_task(task);
	struct comch_ep_sendbuf *sb = task_ud.ptr;
	struct rte_comch_ep *ep = ctx_ud.ptr;
	struct rte_comch_ep_peer *peer = sb->peer;
	int status = rte_comch_task_get_status(t);

	if (status == 0) {
		peer->cnt.send_messages++;
		peer->cnt.send_bytes += sb->len;
	} else {
		COMCH_LOG(DEBUG, "endpoint: a message of %u bytes was not taken: %s", sb->len,
			  strerror(-status));
	}
	peer->inflight--;
	ep->inflight--;
	free(sb);
	rte_comch_task_free(t);
	ep->send_blocked = false;
	comch_ep_send_room(ep);
	comch_ep_peer_put(peer);
}

void
comch_ep_recv_cb(struct rte_comch_connection *conn, const uint8_t *msg, uint32_t len)
{
	struct rte_comch_ctx *ctx = rte_comch_connection_get_ctx(conn);
	union rte_comch_data ud = { .ptr = NULL };
	struct rte_comch_ep_peer *peer;
	struct rte_comch_ep *ep;
	struct comch_ep_msg *m;

	rte_comch_ctx_get_user_data(ctx, &ud);
	ep = ud.ptr;
	ud.ptr = NULL;
	rte_comch_connection_get_user_data(conn, &ud);
	peer = ud.ptr;
	if (peer == NULL) {
		/* Host side: a message before the state change to RUNNING was seen. */
		peer = ep->cpeer;
		if (peer == NULL || ep->client == NULL) {
			COMCH_LOG(ERR, "endpoint: message on a connection without a peer, dropped");
			ep->rx_dropped++;
			return;
		}
		comch_ep_peer_attach(peer, conn);
	}
	if (peer->released) {
		/* Disconnected by the application: nothing more is delivered. */
		return;
	}
	if (comch_ep_direct_take(ep, peer, conn, msg, len)) {
		peer->seen = true;
		peer->cnt.recv_messages++;
		peer->cnt.recv_bytes += len;
		return;
	}
	m = malloc(sizeof(*m) + len);
	if (m == NULL) {
		COMCH_LOG(ERR, "endpoint: out of memory for a message of %u bytes, dropped", len);
		ep->rx_dropped++;
		return;
	}
	m->peer = peer;
	peer->seen = true;
	m->len = len;
	if (len != 0)
		memcpy(m->data, msg, len);
	comch_ep_rxq_push(ep, m);
	peer->cnt.recv_messages++;
	peer->cnt.recv_bytes += len;
}

static int
ep_task_alloc(struct rte_comch_ep *ep, struct rte_comch_connection *conn, const void *msg,
	      uint32_t len, struct rte_comch_task_send **task)
{
	if (ep->server != NULL)
		return rte_comch_server_task_send_alloc_init(ep->server, conn, msg, len, task);
	return rte_comch_client_task_send_alloc_init(ep->client, conn, msg, len, task);
}

/* One try of a send: 0, or -EAGAIN when it must wait, or the error. */
static int
comch_ep_send_once(struct rte_comch_ep *ep, const void *msg, size_t len,
		   struct rte_comch_ep_peer *peer)
{
	struct rte_comch_task_send *task;
	struct comch_ep_sendbuf *sb;
	struct rte_comch_task *t;
	uint32_t max;
	int rc;

	comch_ep_progress(ep);
	if (peer->connecting) {
		COMCH_LOG(DEBUG, "endpoint: connection still being established");
		return -EAGAIN;
	}
	if (peer->conn == NULL || rte_comch_connection_update_info(peer->conn) != 0) {
		COMCH_LOG(ERR, "endpoint: send to a peer whose connection ended (%s)",
			  strerror(peer->status != 0 ? -peer->status : ECONNABORTED));
		return -ECONNRESET;
	}
	if (rte_comch_connection_get_max_msg_size(peer->conn, &max) == 0 && len > max) {
		COMCH_LOG(ERR, "endpoint: message of %zu bytes above the max %u", len, max);
		return -EMSGSIZE;
	}
	if (ep->inflight >= comch_ep_send_queue_size(ep)) {
		COMCH_LOG(DEBUG, "endpoint: send queue full (%u)", ep->inflight);
		return -EAGAIN;
	}
	sb = malloc(sizeof(*sb));
	if (sb == NULL) {
		COMCH_LOG(ERR, "endpoint: out of memory for a message of %zu bytes", len);
		return -ENOMEM;
	}
	sb->peer = peer;
	sb->len = (uint32_t)len;
	/* A submit that returns 0 has copied the message: no copy of ours. */
	rc = ep_task_alloc(ep, peer->conn, msg, sb->len, &task);
	if (rc != 0) {
		free(sb);
		if (rc == -ENOMEM) {
			COMCH_LOG(DEBUG, "endpoint: no send task free");
			return -EAGAIN;
		}
		COMCH_LOG(ERR, "endpoint: send: %s", strerror(-rc));
		return rc == -ENOTCONN ? -ECONNRESET : rc;
	}
	t = rte_comch_task_send_as_task(task);
	rte_comch_task_set_user_data(t, (union rte_comch_data){ .ptr = sb });
	rc = rte_comch_task_submit(t);
	if (rc != 0) {
		rte_comch_task_free(t);
		free(sb);
		if (rc == -EAGAIN) {
			COMCH_LOG(DEBUG, "endpoint: the peer's receive queue is full");
			ep->send_blocked = true;
			return -EAGAIN;
		}
		COMCH_LOG(ERR, "endpoint: send: %s", strerror(-rc));
		return rc == -ENOTCONN ? -ECONNRESET : rc;
	}
	peer->inflight++;
	ep->inflight++;
	return 0;
}

/*
 * A blocking send waits for room on the event channels, as an application
 * would: send_fd says a message of ours was taken, recv_fd that the engine has
 * work (a connection up, a peer's answer or end). The 100 ms tick is a safety
 * net for a wake-up lost to the engine's timers, not a poll.
 */
static int
comch_ep_send_wait(struct rte_comch_ep *ep)
{
	struct epoll_event ev[2];
	int send_fd, recv_fd, rc;

	if (ep->block_epfd < 0) {
		rc = rte_comch_ep_get_event_channel(ep, &send_fd, &recv_fd);
		if (rc < 0)
			return rc;
		ep->block_epfd = epoll_create1(EPOLL_CLOEXEC);
		if (ep->block_epfd < 0)
			return -errno;
		ev[0] = (struct epoll_event){ .events = EPOLLIN, .data.fd = send_fd };
		ev[1] = (struct epoll_event){ .events = EPOLLIN, .data.fd = recv_fd };
		if (epoll_ctl(ep->block_epfd, EPOLL_CTL_ADD, send_fd, &ev[0]) < 0 ||
		    epoll_ctl(ep->block_epfd, EPOLL_CTL_ADD, recv_fd, &ev[1]) < 0) {
			rc = -errno;
			close(ep->block_epfd);
			ep->block_epfd = -1;
			COMCH_LOG(ERR, "endpoint: cannot watch its event channels: %s",
				  strerror(-rc));
			return rc;
		}
	}
	/* Inside sendto, which holds the endpoint: the call's body, not the call. */
	rc = comch_ep_arm_send(ep);
	if (rc == -EAGAIN)
		return 0; /* room, or work, already there: try again */
	if (rc < 0)
		return rc;
	do {
		rc = epoll_wait(ep->block_epfd, ev, RTE_DIM(ev), 100);
	} while (rc < 0 && errno == EINTR);
	if (rc < 0) {
		rc = -errno;
		COMCH_LOG(ERR, "endpoint: epoll_wait: %s", strerror(-rc));
		return rc;
	}
	return 0;
}

int
rte_comch_ep_sendto(struct rte_comch_ep *ep, const void *msg, size_t len, int flags,
		    struct rte_comch_ep_peer *peer)
{
	int rc;

	if (COMCH_EP_BAD_FAST(ep) || COMCH_EP_PEER_BAD_FAST(peer))
		return -EINVAL;
	if (peer->ep != ep) {
		COMCH_LOG(ERR, "endpoint: peer %p is not of endpoint %p", (void *)peer, (void *)ep);
		return -EINVAL;
	}
	if ((msg == NULL && len > 0) ||
	    (flags != RTE_COMCH_EP_MSG_FLAG_NONE && flags != RTE_COMCH_EP_MSG_FLAG_BLOCKING)) {
		COMCH_LOG(ERR, "endpoint: NULL message of %zu bytes or unknown flags %#x", len,
			  (unsigned int)flags);
		return -EINVAL;
	}
	rc = comch_ep_enter(ep, __func__);
	if (rc != 0)
		return rc;
	while ((rc = comch_ep_send_once(ep, msg, len, peer)) == -EAGAIN &&
	       flags == RTE_COMCH_EP_MSG_FLAG_BLOCKING) {
		rc = comch_ep_send_wait(ep);
		if (rc < 0)
			break;
	}
	comch_ep_leave(ep);
	return rc;
}

static int
ep_recvfrom(struct rte_comch_ep *ep, void *buf, size_t *len, struct rte_comch_ep_peer **peer)
{
	struct comch_ep_msg *m;

	comch_ep_direct_arm(ep, buf, *len);
	comch_ep_progress(ep);
	if (comch_ep_direct_end(ep, len, peer))
		return 0;
	m = TAILQ_FIRST(&ep->rxq);
	if (m == NULL)
		return -EAGAIN;
	if (m->len > *len) {
		COMCH_LOG(DEBUG, "endpoint: message of %u bytes, buffer of %zu", m->len, *len);
		*len = m->len;
		return -EMSGSIZE;
	}
	if (m->len != 0)
		memcpy(buf, m->data, m->len);
	*len = m->len;
	*peer = m->peer;
	free(comch_ep_rxq_pop(ep));
	return 0;
}

int
rte_comch_ep_recvfrom(struct rte_comch_ep *ep, void *buf, size_t *len, int flags,
		      struct rte_comch_ep_peer **peer)
{
	int rc;

	if (COMCH_EP_BAD_FAST(ep) || COMCH_NULL_ARG(len, peer))
		return -EINVAL;
	if ((buf == NULL && *len > 0) || flags != RTE_COMCH_EP_MSG_FLAG_NONE) {
		COMCH_LOG(ERR, "endpoint: NULL buffer of %zu bytes or unknown flags %#x", *len,
			  (unsigned int)flags);
		return -EINVAL;
	}
	rc = comch_ep_enter(ep, __func__);
	if (rc != 0)
		return rc;
	rc = ep_recvfrom(ep, buf, len, peer);
	comch_ep_leave(ep);
	return rc;
}
