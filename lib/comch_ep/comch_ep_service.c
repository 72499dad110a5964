/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/* Endpoints: the service state of a listening endpoint, and its event descriptor. */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "comch_ep_private.h"

void
comch_ep_service_event(struct rte_comch_ep *ep)
{
	uint64_t one = 1;

	if (ep->svc_fd >= 0 && write(ep->svc_fd, &one, sizeof(one)) != sizeof(one) &&
	    errno != EAGAIN)
		COMCH_LOG(ERR, "endpoint: service event: %s", strerror(errno));
}

static int
ep_service_check(const struct rte_comch_ep *ep, const char *func)
{
	if (ep->server == NULL) {
		COMCH_LOG(ERR, "%s: the endpoint does not listen", func);
		return -EBUSY;
	}
	return 0;
}

int
rte_comch_ep_get_service_event_channel(const struct rte_comch_ep *ep, int *fd)
{
	int rc;

	if (COMCH_EP_BAD(ep) || COMCH_NULL_ARG(fd))
		return -EINVAL;
	rc = ep_service_check(ep, __func__);
	if (rc != 0)
		return rc;
	*fd = ep->svc_fd;
	return 0;
}

static int
ep_update_service_state(struct rte_comch_ep *ep)
{
	struct rte_comch_ep_peer *peer, **arr;
	enum rte_comch_ctx_state st;
	uint32_t n = 0;
	uint64_t v;
	int rc;

	rc = ep_service_check(ep, "rte_comch_ep_update_service_state_info");
	if (rc != 0)
		return rc;
	comch_ep_progress(ep);
	/* Re-arm: events from here on make the descriptor readable again. */
	if (read(ep->svc_fd, &v, sizeof(v)) < 0 && errno != EAGAIN)
		COMCH_LOG(ERR, "endpoint: service event: %s", strerror(errno));
	ep->svc_nb = 0;
	TAILQ_FOREACH(peer, &ep->peers, next)
		if (peer->conn != NULL && !peer->released)
			n++;
	if (n > ep->svc_cap) {
		arr = realloc(ep->svc_peers, n * sizeof(*arr));
		if (arr == NULL) {
			COMCH_LOG(ERR, "endpoint: out of memory for %u peers", n);
			return -ENOMEM;
		}
		ep->svc_peers = arr;
		ep->svc_cap = n;
	}
	TAILQ_FOREACH(peer, &ep->peers, next)
		if (peer->conn != NULL && !peer->released) {
			peer->seen = true;
			ep->svc_peers[ep->svc_nb++] = peer;
		}
	if (rte_comch_ctx_get_state(rte_comch_server_as_ctx(ep->server), &st) == 0 &&
	    st != RTE_COMCH_CTX_STATE_RUNNING) {
		COMCH_LOG(ERR, "endpoint: its server is no longer running (%s)",
			  strerror(-rte_comch_ctx_get_last_error(rte_comch_server_as_ctx(ep->server))));
		return -ENOTCONN;
	}
	return 0;
}

int
rte_comch_ep_update_service_state_info(struct rte_comch_ep *ep)
{
	int rc;

	if (COMCH_EP_BAD(ep))
		return -EINVAL;
	rc = comch_ep_enter(ep, __func__);
	if (rc != 0)
		return rc;
	rc = ep_update_service_state(ep);
	comch_ep_leave(ep);
	return rc;
}

int
rte_comch_ep_get_peer_addr_list(const struct rte_comch_ep *ep,
				struct rte_comch_ep_peer * const **peers, uint32_t *nb)
{
	int rc;

	if (COMCH_EP_BAD(ep) || COMCH_NULL_ARG(peers, nb))
		return -EINVAL;
	rc = ep_service_check(ep, __func__);
	if (rc != 0)
		return rc;
	*peers = ep->svc_nb != 0 ? ep->svc_peers : NULL;
	*nb = ep->svc_nb;
	return 0;
}
