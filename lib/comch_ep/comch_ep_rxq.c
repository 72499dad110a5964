/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Endpoints: the receive queue, where the receive callback leaves copies of
 * the messages for recvfrom. It holds at most the receive queue size: once
 * full, every connection of the endpoint is paused, so that the peers' messages
 * wait in the connections' own queues and the peers' sends back off, instead
 * of the endpoint copying whatever arrives (a peer flooding an endpoint that
 * progresses but does not read would take all its memory). Nothing is dropped.
 *
 * A recvfrom that finds the queue empty takes the next message without it:
 * the receive callback copies it straight into the caller's buffer and, for
 * a large one, pauses its connection, so that the rest of the burst waits in
 * the connection's ring for the next recvfrom instead of being copied into
 * the queue; the connection is resumed before recvfrom returns, so no message
 * waits unseen. A reader that keeps up thus copies each message once.
 */

#include <stdlib.h>
#include <string.h>

#include "comch_ep_private.h"

/*
 * From this size on, the rest of the burst waits in the ring after a message
 * taken straight: below it, copying a message into the queue costs less than
 * the pause and resume of its connection.
 */
#define COMCH_EP_DIRECT_PAUSE_MIN 1024

static void
ep_rxq_set_paused(struct rte_comch_ep *ep, bool paused)
{
	struct rte_comch_ep_peer *peer;

	ep->rxq_paused = paused;
	/* A connection closing or ended says -ENOTCONN: it delivers nothing more anyway. */
	TAILQ_FOREACH(peer, &ep->peers, next) {
		if (peer->conn == NULL)
			continue;
		if (paused)
			rte_comch_connection_recv_pause(peer->conn);
		else
			rte_comch_connection_recv_resume(peer->conn);
	}
	COMCH_LOG(DEBUG, "endpoint: receive queue %s (%u messages)",
		  paused ? "full, connections paused" : "has room, connections resumed",
		  ep->rxq_nb);
}

/*
 * Resumed once half of it is free, not at the first free slot: a reader then
 * pays one pause and one resume per half queue, not per message.
 */
static void
ep_rxq_room_check(struct rte_comch_ep *ep)
{
	if (ep->rxq_paused && ep->rxq_nb <= ep->rxq_cap / 2)
		ep_rxq_set_paused(ep, false);
}

void
comch_ep_rxq_init(struct rte_comch_ep *ep)
{
	TAILQ_INIT(&ep->rxq);
	ep->rxq_nb = 0;
	ep->rxq_paused = false;
}

void
comch_ep_rxq_push(struct rte_comch_ep *ep, struct comch_ep_msg *m)
{
	TAILQ_INSERT_TAIL(&ep->rxq, m, next);
	ep->rxq_nb++;
	/*
	 * A pause in the receive callback takes effect after this message: it
	 * never has to be refused. Only a peer that died while paused adds
	 * more (what it left in its ring, at most the receive queue size).
	 */
	if (!ep->rxq_paused && ep->rxq_nb >= ep->rxq_cap)
		ep_rxq_set_paused(ep, true);
}

struct comch_ep_msg *
comch_ep_rxq_pop(struct rte_comch_ep *ep)
{
	struct comch_ep_msg *m = TAILQ_FIRST(&ep->rxq);

	if (m == NULL)
		return NULL;
	TAILQ_REMOVE(&ep->rxq, m, next);
	ep->rxq_nb--;
	ep_rxq_room_check(ep);
	return m;
}

void
comch_ep_rxq_conn_added(struct rte_comch_ep *ep, struct rte_comch_connection *conn)
{
	/* A new connection into a full queue waits with the others. */
	if (ep->rxq_paused)
		rte_comch_connection_recv_pause(conn);
}

void
comch_ep_rxq_purge(struct rte_comch_ep *ep, struct rte_comch_ep_peer *peer)
{
	struct comch_ep_msg *m, *tmp;

	for (m = TAILQ_FIRST(&ep->rxq); m != NULL; m = tmp) {
		tmp = TAILQ_NEXT(m, next);
		if (peer != NULL && m->peer != peer)
			continue;
		TAILQ_REMOVE(&ep->rxq, m, next);
		ep->rxq_nb--;
		free(m);
	}
	ep_rxq_room_check(ep);
}

void
comch_ep_direct_arm(struct rte_comch_ep *ep, void *buf, size_t cap)
{
	ep->direct.armed = TAILQ_EMPTY(&ep->rxq);
	ep->direct.done = false;
	ep->direct.buf = buf;
	ep->direct.cap = cap;
}

bool
comch_ep_direct_take(struct rte_comch_ep *ep, struct rte_comch_ep_peer *peer,
		     struct rte_comch_connection *conn, const uint8_t *msg, uint32_t len)
{
	if (!ep->direct.armed)
		return false;
	/* One message, the first: a later one, or one too big, goes to the queue. */
	ep->direct.armed = false;
	if (len > ep->direct.cap)
		return false;
	if (len != 0)
		memcpy(ep->direct.buf, msg, len);
	ep->direct.len = len;
	ep->direct.peer = peer;
	ep->direct.done = true;
	ep->direct.paused = len >= COMCH_EP_DIRECT_PAUSE_MIN &&
			    rte_comch_connection_recv_pause(conn) == 0;
	return true;
}

bool
comch_ep_direct_end(struct rte_comch_ep *ep, size_t *len, struct rte_comch_ep_peer **peer)
{
	struct comch_ep_direct *d = &ep->direct;

	d->armed = false;
	/* Unless the queue filled meanwhile: then every connection waits for room. */
	if (d->paused && d->peer->conn != NULL && !ep->rxq_paused)
		rte_comch_connection_recv_resume(d->peer->conn);
	d->paused = false;
	if (!d->done)
		return false;
	d->done = false;
	*len = d->len;
	*peer = d->peer;
	return true;
}
