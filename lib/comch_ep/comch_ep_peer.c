/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/* Endpoints: peer addresses seen by the application: user data, state, counters. */

#include <errno.h>

#include "comch_ep_private.h"

int
rte_comch_ep_peer_addr_set_user_data(struct rte_comch_ep_peer *peer, uint64_t user_data)
{
	if (COMCH_EP_PEER_BAD_FAST(peer))
		return -EINVAL;
	peer->user_data = user_data;
	return 0;
}

int
rte_comch_ep_peer_addr_get_user_data(const struct rte_comch_ep_peer *peer,
				     uint64_t *user_data)
{
	if (COMCH_EP_PEER_BAD_FAST(peer) || COMCH_NULL_ARG(user_data))
		return -EINVAL;
	*user_data = peer->user_data;
	return 0;
}

static int
ep_peer_update_info(struct rte_comch_ep_peer *peer)
{
	comch_ep_progress(peer->ep);
	peer->snap = peer->cnt;
	peer->snap.send_in_flight_messages = peer->inflight;
	if (peer->connecting)
		return -EINPROGRESS;
	if (peer->conn == NULL || rte_comch_connection_update_info(peer->conn) != 0) {
		COMCH_LOG(DEBUG, "endpoint: peer %p: connection ended (%s)", (void *)peer,
			  strerror(peer->status != 0 ? -peer->status : ECONNABORTED));
		return -ECONNABORTED;
	}
	return 0;
}

int
rte_comch_ep_peer_addr_update_info(struct rte_comch_ep_peer *peer)
{
	struct rte_comch_ep *ep;
	int rc;

	if (COMCH_EP_PEER_BAD_FAST(peer))
		return -EINVAL;
	ep = peer->ep;
	rc = comch_ep_enter(ep, __func__);
	if (rc != 0)
		return rc;
	rc = ep_peer_update_info(peer);
	comch_ep_leave(ep);
	return rc;
}

int
rte_comch_ep_peer_addr_get_stats(const struct rte_comch_ep_peer *peer,
				 struct rte_comch_ep_peer_stats *stats)
{
	if (COMCH_EP_PEER_BAD_FAST(peer) || COMCH_NULL_ARG(stats))
		return -EINVAL;
	*stats = peer->snap;
	return 0;
}
