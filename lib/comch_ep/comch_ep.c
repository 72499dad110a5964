/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/* Endpoints: creation, destruction, configuration and the engine they own. */

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/eventfd.h>

#include <rte_cycles.h>
#include <rte_errno.h>

#include "comch_ep_private.h"

/* How long destroy lets a stopping server or client drain. */
#define COMCH_EP_STOP_TIMEOUT_MS 3000

RTE_LOG_REGISTER_DEFAULT(comch_ep_logtype, NOTICE);

bool
comch_ep_bad(const struct rte_comch_ep *ep, const char *func, bool registry)
{
	if (ep == NULL) {
		COMCH_LOG(ERR, "%s: ep is NULL", func);
		return true;
	}
	if ((registry ? comch_objreg_kind(&ep->magic) : ep->magic) != COMCH_EP_MAGIC) {
		COMCH_LOG(ERR, "%s: %p is not a live endpoint", func, (const void *)ep);
		return true;
	}
	return false;
}

bool
comch_ep_peer_bad(const struct rte_comch_ep_peer *peer, const char *func, bool registry)
{
	if (peer == NULL) {
		COMCH_LOG(ERR, "%s: peer is NULL", func);
		return true;
	}
	/* A released peer leaves the registry: its magic word stays until it is freed. */
	if (registry ? comch_objreg_kind(&peer->magic) != COMCH_EP_PEER_MAGIC :
	    peer->magic != COMCH_EP_PEER_MAGIC || peer->released) {
		COMCH_LOG(ERR, "%s: %p is not a live peer address", func, (const void *)peer);
		return true;
	}
	return false;
}

int
rte_comch_ep_obj_stats_get(struct rte_comch_obj_stats *stats)
{
	if (COMCH_NULL_ARG(stats))
		return -EINVAL;
	/* This library's own registry (lib/common), apart from librte_comch's. */
	comch_objreg_stats(&stats->live, &stats->quarantined, &stats->quarantined_bytes);
	return 0;
}

/* The calling thread, as a non-zero number: the address of its token. */
static __thread char comch_ep_thread_token;

int
comch_ep_enter(struct rte_comch_ep *ep, const char *func)
{
	uintptr_t self = (uintptr_t)&comch_ep_thread_token;
	uintptr_t seen = 0;

	if (likely(atomic_compare_exchange_strong_explicit(&ep->user, &seen, self,
							   memory_order_acq_rel,
							   memory_order_acquire)))
		return 0;
	if (seen == self) {
		/* A public call made from inside another: the library's own bug. */
		COMCH_LOG(ERR, "%s: called from inside another call on the endpoint", func);
		return -EDEADLK;
	}
	COMCH_LOG(ERR, "%s: the endpoint is in use by another thread at the same time: "
		  "one thread at a time may use it (under the program's own lock)", func);
	return -EBUSY;
}

void
comch_ep_leave(struct rte_comch_ep *ep)
{
	atomic_store_explicit(&ep->user, 0, memory_order_release);
}

int
comch_ep_progress(struct rte_comch_ep *ep)
{
	int rc;

	if (ep->pe_armed) {
		rte_comch_pe_clear_notification(ep->pe);
		ep->pe_armed = false;
	}
	rc = rte_comch_pe_progress(ep->pe);
	if (rc < 0)
		COMCH_LOG(ERR, "endpoint progress: %s", strerror(-rc));
	return rc;
}

/* -err, after a log line, if size (what) is above the device's max; else 0. */
static int
ep_over_limit(const char *what, uint32_t size, uint32_t max, int err)
{
	if (size <= max)
		return 0;
	COMCH_LOG(ERR, "endpoint: %s %u above the device's %u", what, size, max);
	return -err;
}

static int
ep_dev_info(const struct rte_comch_ep *ep, struct rte_comch_dev_info *info)
{
	if (ep->dev == NULL)
		return -ENOENT;
	return rte_comch_dev_info_get(ep->dev, info);
}

uint32_t
comch_ep_send_queue_size(const struct rte_comch_ep *ep)
{
	struct rte_comch_dev_info info;

	if (ep->send_queue_size != 0)
		return ep->send_queue_size;
	if (ep_dev_info(ep, &info) == 0 && info.max_send_tasks < RTE_COMCH_EP_DEFAULT_SEND_QUEUE_SIZE)
		return info.max_send_tasks;
	return RTE_COMCH_EP_DEFAULT_SEND_QUEUE_SIZE;
}

uint32_t
comch_ep_recv_queue_size(const struct rte_comch_ep *ep)
{
	struct rte_comch_dev_info info;

	if (ep->recv_queue_size != 0)
		return ep->recv_queue_size;
	if (ep_dev_info(ep, &info) == 0 &&
	    info.max_recv_queue_size < RTE_COMCH_EP_DEFAULT_RECV_QUEUE_SIZE)
		return info.max_recv_queue_size;
	return RTE_COMCH_EP_DEFAULT_RECV_QUEUE_SIZE;
}

int
comch_ep_check_limits(const struct rte_comch_ep *ep)
{
	struct rte_comch_dev_info info;
	int rc;

	rc = ep_dev_info(ep, &info);
	if (rc != 0) {
		COMCH_LOG(ERR, "endpoint: no device info: %s", strerror(-rc));
		return rc == -ENOENT ? -EINVAL : rc;
	}
	rc = ep_over_limit("max message size", ep->max_msg_size, info.max_msg_size, EMSGSIZE);
	if (rc == 0)
		rc = ep_over_limit("send queue size", ep->send_queue_size, info.max_send_tasks,
				   EINVAL);
	if (rc == 0)
		rc = ep_over_limit("receive queue size", ep->recv_queue_size,
				   info.max_recv_queue_size, EINVAL);
	return rc;
}

struct rte_comch_ep *
rte_comch_ep_create(void)
{
	struct rte_comch_ep *ep;
	int rc;

	ep = calloc(1, sizeof(*ep));
	if (ep == NULL) {
		COMCH_LOG(ERR, "endpoint: out of memory");
		rte_errno = ENOMEM;
		return NULL;
	}
	ep->pe = rte_comch_pe_create(RTE_COMCH_PE_LCORE_SELF);
	if (ep->pe == NULL) {
		rc = rte_errno;
		COMCH_LOG(ERR, "endpoint: no progress engine: %s", strerror(rc));
		free(ep);
		rte_errno = rc;
		return NULL;
	}
	ep->send_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (ep->send_fd < 0) {
		rc = errno;
		COMCH_LOG(ERR, "endpoint: eventfd: %s", strerror(rc));
		rte_comch_pe_destroy(ep->pe);
		free(ep);
		rte_errno = rc;
		return NULL;
	}
	ep->svc_fd = -1;
	ep->block_epfd = -1;
	TAILQ_INIT(&ep->peers);
	comch_ep_rxq_init(ep);
	ep->magic = COMCH_EP_MAGIC;
	comch_obj_publish(&ep->reg, &ep->magic);
	return ep;
}

/* Stop ctx if it runs and progress until it is IDLE, at most the stop timeout. */
static int
ep_stop_ctx(struct rte_comch_ep *ep, struct rte_comch_ctx *ctx)
{
	uint64_t deadline = rte_get_timer_cycles() +
		rte_get_timer_hz() * COMCH_EP_STOP_TIMEOUT_MS / 1000;
	enum rte_comch_ctx_state st;

	if (rte_comch_ctx_get_state(ctx, &st) == 0 && st != RTE_COMCH_CTX_STATE_IDLE &&
	    st != RTE_COMCH_CTX_STATE_STOPPING)
		rte_comch_ctx_stop(ctx);
	while (rte_comch_ctx_get_state(ctx, &st) == 0 && st != RTE_COMCH_CTX_STATE_IDLE) {
		if (rte_get_timer_cycles() > deadline) {
			COMCH_LOG(ERR, "endpoint: context did not stop in %u ms",
				  COMCH_EP_STOP_TIMEOUT_MS);
			return -EBUSY;
		}
		if (comch_ep_progress(ep) < 0)
			return -EBUSY;
	}
	return 0;
}

/* Stop and destroy everything of ep; -EBUSY, with ep intact, if its contexts do not go. */
static int
ep_destroy(struct rte_comch_ep *ep)
{
	struct rte_comch_ep_peer *peer;
	int rc;

	if (ep->server != NULL) {
		rc = ep_stop_ctx(ep, rte_comch_server_as_ctx(ep->server));
		if (rc != 0)
			return rc;
		rc = rte_comch_server_destroy(ep->server);
		if (rc != 0) {
			COMCH_LOG(ERR, "endpoint: server destroy: %s", strerror(-rc));
			return -EBUSY;
		}
		ep->server = NULL;
	}
	if (ep->client != NULL) {
		rc = ep_stop_ctx(ep, rte_comch_client_as_ctx(ep->client));
		if (rc != 0)
			return rc;
		rc = rte_comch_client_destroy(ep->client);
		if (rc != 0) {
			COMCH_LOG(ERR, "endpoint: client destroy: %s", strerror(-rc));
			return -EBUSY;
		}
		ep->client = NULL;
	}
	/* Every task has completed and every connection is gone: free what is left. */
	comch_ep_rxq_purge(ep, NULL);
	while ((peer = TAILQ_FIRST(&ep->peers)) != NULL) {
		comch_ep_peer_release(peer);
		comch_ep_peer_free(peer);
	}
	rc = rte_comch_pe_destroy(ep->pe);
	if (rc != 0)
		COMCH_LOG(ERR, "endpoint: engine destroy: %s", strerror(-rc));
	close(ep->send_fd);
	if (ep->block_epfd >= 0)
		close(ep->block_epfd);
	if (ep->svc_fd >= 0)
		close(ep->svc_fd);
	free(ep->svc_peers);
	comch_obj_retire(&ep->reg, &ep->magic, ep);
	return 0;
}

int
rte_comch_ep_destroy(struct rte_comch_ep *ep)
{
	int rc;

	if (COMCH_EP_BAD(ep))
		return -EINVAL;
	rc = comch_ep_enter(ep, __func__);
	if (rc != 0)
		return rc;
	rc = ep_destroy(ep);
	/* Destroyed: nobody else may take it, so it is not given back. */
	if (rc != 0)
		comch_ep_leave(ep);
	return rc;
}

/* Configuration is refused once the endpoint listens or connected. */
static int
ep_config_check(const struct rte_comch_ep *ep, const char *func)
{
	if (ep->server != NULL || ep->client != NULL) {
		COMCH_LOG(ERR, "%s: the endpoint already listens or connected", func);
		return -EBUSY;
	}
	return 0;
}

int
rte_comch_ep_set_device(struct rte_comch_ep *ep, struct rte_comch_dev *dev)
{
	int rc;

	if (COMCH_EP_BAD(ep) || COMCH_NULL_ARG(dev))
		return -EINVAL;
	rc = ep_config_check(ep, __func__);
	if (rc != 0)
		return rc;
	ep->dev = dev;
	return 0;
}

int
rte_comch_ep_get_device(const struct rte_comch_ep *ep, struct rte_comch_dev **dev)
{
	if (COMCH_EP_BAD(ep) || COMCH_NULL_ARG(dev))
		return -EINVAL;
	if (ep->dev == NULL) {
		COMCH_LOG(ERR, "endpoint: no device set");
		return -ENOENT;
	}
	*dev = ep->dev;
	return 0;
}

int
rte_comch_ep_set_device_rep(struct rte_comch_ep *ep, struct rte_comch_dev_rep *rep)
{
	int rc;

	if (COMCH_EP_BAD(ep) || COMCH_NULL_ARG(rep))
		return -EINVAL;
	rc = ep_config_check(ep, __func__);
	if (rc != 0)
		return rc;
	ep->rep = rep;
	return 0;
}

int
rte_comch_ep_get_device_rep(const struct rte_comch_ep *ep, struct rte_comch_dev_rep **rep)
{
	if (COMCH_EP_BAD(ep) || COMCH_NULL_ARG(rep))
		return -EINVAL;
	if (ep->rep == NULL) {
		COMCH_LOG(ERR, "endpoint: no representor set");
		return -ENOENT;
	}
	*rep = ep->rep;
	return 0;
}

int
rte_comch_ep_set_max_msg_size(struct rte_comch_ep *ep, uint32_t size)
{
	struct rte_comch_dev_info info;
	int rc;

	if (COMCH_EP_BAD(ep))
		return -EINVAL;
	if (size == 0) {
		COMCH_LOG(ERR, "endpoint: max message size 0");
		return -EINVAL;
	}
	rc = ep_config_check(ep, __func__);
	if (rc != 0)
		return rc;
	if (ep_dev_info(ep, &info) == 0) {
		rc = ep_over_limit("max message size", size, info.max_msg_size, EMSGSIZE);
		if (rc != 0)
			return rc;
	}
	ep->max_msg_size = size;
	return 0;
}

int
rte_comch_ep_get_max_msg_size(const struct rte_comch_ep *ep, uint32_t *size)
{
	struct rte_comch_dev_info info;
	struct rte_comch_connection *conn;

	if (COMCH_EP_BAD(ep) || COMCH_NULL_ARG(size))
		return -EINVAL;
	if (ep->server != NULL)
		return rte_comch_server_get_max_msg_size(ep->server, size);
	if (ep->client != NULL && rte_comch_client_get_connection(ep->client, &conn) == 0)
		return rte_comch_connection_get_max_msg_size(conn, size);
	if (ep->max_msg_size != 0)
		*size = ep->max_msg_size;
	else if (ep_dev_info(ep, &info) == 0)
		*size = info.default_msg_size;
	else
		*size = 0;
	return 0;
}

int
rte_comch_ep_set_send_queue_size(struct rte_comch_ep *ep, uint32_t size)
{
	struct rte_comch_dev_info info;
	int rc;

	if (COMCH_EP_BAD(ep))
		return -EINVAL;
	if (size == 0) {
		COMCH_LOG(ERR, "endpoint: send queue size 0");
		return -EINVAL;
	}
	rc = ep_config_check(ep, __func__);
	if (rc != 0)
		return rc;
	if (ep_dev_info(ep, &info) == 0) {
		rc = ep_over_limit("send queue size", size, info.max_send_tasks, EINVAL);
		if (rc != 0)
			return rc;
	}
	ep->send_queue_size = size;
	return 0;
}

int
rte_comch_ep_get_send_queue_size(const struct rte_comch_ep *ep, uint32_t *size)
{
	if (COMCH_EP_BAD(ep) || COMCH_NULL_ARG(size))
		return -EINVAL;
	*size = comch_ep_send_queue_size(ep);
	return 0;
}

int
rte_comch_ep_set_recv_queue_size(struct rte_comch_ep *ep, uint32_t size)
{
	struct rte_comch_dev_info info;
	int rc;

	if (COMCH_EP_BAD(ep))
		return -EINVAL;
	if (size == 0) {
		COMCH_LOG(ERR, "endpoint: receive queue size 0");
		return -EINVAL;
	}
	rc = ep_config_check(ep, __func__);
	if (rc != 0)
		return rc;
	if (ep_dev_info(ep, &info) == 0) {
		rc = ep_over_limit("receive queue size", size, info.max_recv_queue_size, EINVAL);
		if (rc != 0)
			return rc;
	}
	ep->recv_queue_size = size;
	return 0;
}

int
rte_comch_ep_get_recv_queue_size(const struct rte_comch_ep *ep, uint32_t *size)
{
	if (COMCH_EP_BAD(ep) || COMCH_NULL_ARG(size))
		return -EINVAL;
	*size = comch_ep_recv_queue_size(ep);
	return 0;
}
