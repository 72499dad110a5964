/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * DOCA's legacy Comm Channel endpoint API over rte_comch endpoints
 * (rte_comch_ep.h), which already have its semantics with -errno returns.
 * What this file adds:
 * - The side. An rte_comch endpoint takes an rte_comch device opened as one
 *   side; a DOCA device may not have chosen yet (doca_dev.h). So set_device
 *   only records the DOCA device, and listen / connect bind it, as the
 *   BlueField / host side, to the rte_comch endpoint, holding it (its side
 *   is then fixed) until the endpoint is destroyed. The sizes set before
 *   are kept here and handed over at that moment.
 * - DOCA's error codes, where its documentation names one for a case.
 * - Event handles that behave as DOCA's: an armed handle that has something
 *   to report is readable at once, and waiting on a single handle is enough.
 *   rte_comch's own descriptors need the program to wait on two of them, and
 *   its arm_recv answers -EAGAIN instead of waking; each DOCA handle is
 *   therefore an epoll descriptor over the rte_comch descriptors it needs,
 *   plus, where a wake-up must be forced, an eventfd of ours.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_lcore.h>

#include <rte_comch_ep.h>

#include "doca_comm_channel.h"
#include "doca_compat_private.h"
#include "doca_dev.h"
#include "doca_dev_private.h"

/* A peer address is the rte_comch peer itself, cast: nothing to add to it. */
#define DCC_PEER(a) ((struct rte_comch_ep_peer *)(a))
#define DCC_CPEER(a) ((const struct rte_comch_ep_peer *)(a))
#define DCC_ADDR(p) ((struct doca_comm_channel_addr_t *)(p))

/* What the endpoint has become; it never goes back to DCC_UNBOUND. */
enum dcc_side {
	DCC_UNBOUND,	/* neither listened nor connected: the device is only recorded */
	DCC_SERVICE,	/* listening: the device is bound as the BlueField side */
	DCC_CLIENT,	/* connected (at least once): bound as the host side */
};

/* The sizes set before listen / connect, by index. */
enum dcc_size {
	DCC_MSG_SIZE,
	DCC_SEND_QUEUE,
	DCC_RECV_QUEUE,
	DCC_NB_SIZES,
};

static const char * const dcc_size_name[DCC_NB_SIZES] = {
	[DCC_MSG_SIZE] = "max message size",
	[DCC_SEND_QUEUE] = "send queue size",
	[DCC_RECV_QUEUE] = "receive queue size",
};

struct doca_comm_channel_ep_t {
	struct dc_obj obj;			/* first: DC_KIND_CC_EP */
	enum dcc_side side;
	struct rte_comch_ep *rte;
	struct doca_dev *dev;			/* set_device; held once bound */
	struct doca_dev_rep *dev_rep;		/* set_device_rep */
	uint32_t size[DCC_NB_SIZES];		/* 0: not set */
	struct rte_comch_ep_peer *cpeer;	/* client: the connection not yet disconnected */
	/* Event handles, made on first request; -1 before. */
	int send_ch;	/* epoll: rte send_fd, rte recv_fd (completions come through it) */
	int recv_ch;	/* epoll: rte recv_fd, recv_kick */
	int recv_kick;	/* eventfd: wakes recv_ch when arm_recv cannot arm */
	int svc_ch;	/* epoll: rte svc fd, rte recv_fd (connections show there), svc_kick */
	int svc_kick;	/* eventfd: wakes svc_ch when the engine cannot be armed */
};
DC_OBJ_FIRST(struct doca_comm_channel_ep_t, obj);

/*
 * Return DOCA_ERROR_INVALID_VALUE, with a log line, unless ep is a live
 * endpoint: from the registry, or, for the per-message calls, inline.
 */
#define DCC_EP_CHECK(ep) DC_OBJ_ARG(ep, DC_KIND_CC_EP)
#define DCC_EP_CHECK_FAST(ep) DC_OBJ_ARG_FAST(ep, DC_KIND_CC_EP)

/* Return err, with a log line, if ep has neither listened nor connected. */
#define DCC_BOUND_CHECK(ep, err) \
	do { \
		if ((ep)->side == DCC_UNBOUND) { \
			DC_LOG(ERR, "the endpoint neither listens nor connected"); \
			return (err); \
		} \
	} while (0)

/* The service calls: BAD_STATE before listen, NOT_SUPPORTED on a client endpoint. */
#define DCC_SERVICE_CHECK(ep) \
	do { \
		DCC_BOUND_CHECK(ep, DOCA_ERROR_BAD_STATE); \
		if ((ep)->side != DCC_SERVICE) { \
			DC_LOG(ERR, "only a listening endpoint has a service state"); \
			return DOCA_ERROR_NOT_SUPPORTED; \
		} \
	} while (0)

/* DC_LOG on behalf of a public function: the helpers below serve several. */
#define DCC_LOG_FOR(func, level, fmt, ...) \
	rte_log(RTE_LOG_##level, doca_compat_logtype, "doca: %s(): " fmt "\n", (func), \
		##__VA_ARGS__)

static doca_error_t
dcc_err(int rc)
{
	return rte_comch_doca_error_from_errno(rc);
}

/* ------------------------------------------------------------ capabilities */

doca_error_t
doca_comm_channel_get_max_service_name_len(uint32_t *max_service_name_len)
{
	struct rte_comch_dev_info info;
	uint32_t len = UINT32_MAX;
	doca_error_t ret;
	unsigned int i;

	DC_NULL_ARG(max_service_name_len);
	ret = doca_compat_eal_init();
	if (ret != DOCA_SUCCESS)
		return ret;
	ret = dc_map_load();
	if (ret != DOCA_SUCCESS)
		return ret;
	/* No device is named: the length that every device accepts. */
	for (i = 0; i < dc_map_nb_devs(); i++) {
		ret = dc_devinfo_query(dc_map_dev(i), &info);
		if (ret != DOCA_SUCCESS)
			return ret;
		len = RTE_MIN(len, info.max_name_len);
	}
	*max_service_name_len = len;
	return DOCA_SUCCESS;
}

doca_error_t
doca_comm_channel_get_max_message_size(struct doca_devinfo *devinfo, uint32_t *max_message_size)
{
	struct rte_comch_dev_info info;
	doca_error_t ret;

	DC_NULL_ARG(devinfo);
	DC_NULL_ARG(max_message_size);
	ret = dc_devinfo_query(devinfo, &info);
	if (ret == DOCA_SUCCESS)
		*max_message_size = info.max_msg_size;
	return ret;
}

doca_error_t
doca_comm_channel_get_max_send_queue_size(struct doca_devinfo *devinfo,
					  uint32_t *max_send_queue_size)
{
	struct rte_comch_dev_info info;
	doca_error_t ret;

	DC_NULL_ARG(devinfo);
	DC_NULL_ARG(max_send_queue_size);
	ret = dc_devinfo_query(devinfo, &info);
	if (ret == DOCA_SUCCESS)
		*max_send_queue_size = info.max_send_tasks;
	return ret;
}

doca_error_t
doca_comm_channel_get_max_recv_queue_size(struct doca_devinfo *devinfo,
					  uint32_t *max_recv_queue_size)
{
	struct rte_comch_dev_info info;
	doca_error_t ret;

	DC_NULL_ARG(devinfo);
	DC_NULL_ARG(max_recv_queue_size);
	ret = dc_devinfo_query(devinfo, &info);
	if (ret == DOCA_SUCCESS)
		*max_recv_queue_size = info.max_recv_queue_size;
	return ret;
}

doca_error_t
doca_comm_channel_get_service_max_num_connections(struct doca_devinfo *devinfo,
						  uint32_t *max_num_connections)
{
	struct rte_comch_dev_info info;
	doca_error_t ret;

	DC_NULL_ARG(devinfo);
	DC_NULL_ARG(max_num_connections);
	ret = dc_devinfo_query(devinfo, &info);
	if (ret == DOCA_SUCCESS)
		*max_num_connections = info.max_clients;
	return ret;
}

/* ---------------------------------------------------------------- endpoint */

static void
dcc_close(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

doca_error_t
doca_comm_channel_ep_create(struct doca_comm_channel_ep_t **ep)
{
	struct doca_comm_channel_ep_t *e;
	doca_error_t ret;

	DC_NULL_ARG(ep);
	ret = doca_compat_thread_init();
	if (ret != DOCA_SUCCESS)
		return ret;
	e = calloc(1, sizeof(*e));
	if (e == NULL) {
		DC_LOG(ERR, "out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	e->rte = rte_comch_ep_create();
	if (e->rte == NULL) {
		ret = dcc_err(-rte_errno);
		DC_LOG(ERR, "cannot create the endpoint: %s", rte_strerror(rte_errno));
		free(e);
		return ret;
	}
	e->send_ch = -1;
	e->recv_ch = -1;
	e->recv_kick = -1;
	e->svc_ch = -1;
	e->svc_kick = -1;
	dc_obj_publish(&e->obj, e, DC_KIND_CC_EP);
	*ep = e;
	return DOCA_SUCCESS;
}

doca_error_t
doca_comm_channel_ep_destroy(struct doca_comm_channel_ep_t *local_ep)
{
	int rc;

	DCC_EP_CHECK(local_ep);
	rc = rte_comch_ep_destroy(local_ep->rte);
	if (rc == -EBUSY) {
		/* Nothing is released yet: the program may simply call again. */
		DC_LOG(ERR, "the endpoint's service or connection has not stopped yet");
		return DOCA_ERROR_AGAIN;
	}
	if (rc != 0)
		return dcc_err(rc);
	/* Our epoll descriptors watched the rte_comch ones, gone now: close them too. */
	dcc_close(&local_ep->send_ch);
	dcc_close(&local_ep->recv_ch);
	dcc_close(&local_ep->recv_kick);
	dcc_close(&local_ep->svc_ch);
	dcc_close(&local_ep->svc_kick);
	if (local_ep->side != DCC_UNBOUND)
		doca_compat_dev_release(local_ep->dev);
	dc_obj_retire(&local_ep->obj, local_ep);
	return DOCA_SUCCESS;
}

doca_error_t
doca_comm_channel_ep_set_device(struct doca_comm_channel_ep_t *ep, struct doca_dev *device)
{
	DCC_EP_CHECK(ep);
	DC_OBJ_ARG(device, DC_KIND_DEV);
	if (ep->side != DCC_UNBOUND) {
		DC_LOG(ERR, "the endpoint already listens or connected");
		return DOCA_ERROR_BAD_STATE;
	}
	ep->dev = device;
	return DOCA_SUCCESS;
}

doca_error_t
doca_comm_channel_ep_get_device(struct doca_comm_channel_ep_t *ep, struct doca_dev **device)
{
	DCC_EP_CHECK(ep);
	DC_NULL_ARG(device);
	if (ep->dev == NULL) {
		DC_LOG(ERR, "no device is set");
		return DOCA_ERROR_NOT_FOUND;
	}
	*device = ep->dev;
	return DOCA_SUCCESS;
}

doca_error_t
doca_comm_channel_ep_set_device_rep(struct doca_comm_channel_ep_t *ep,
				    struct doca_dev_rep *device_rep)
{
	DCC_EP_CHECK(ep);
	DC_OBJ_ARG(device_rep, DC_KIND_DEV_REP);
	if (ep->side != DCC_UNBOUND) {
		DC_LOG(ERR, "the endpoint already listens or connected");
		return DOCA_ERROR_BAD_STATE;
	}
	ep->dev_rep = device_rep;
	return DOCA_SUCCESS;
}

doca_error_t
doca_comm_channel_ep_get_device_rep(struct doca_comm_channel_ep_t *ep,
				    struct doca_dev_rep **device_rep)
{
	DCC_EP_CHECK(ep);
	DC_NULL_ARG(device_rep);
	if (ep->dev_rep == NULL) {
		DC_LOG(ERR, "no representor is set");
		return DOCA_ERROR_NOT_FOUND;
	}
	*device_rep = ep->dev_rep;
	return DOCA_SUCCESS;
}

/*
 * The device's limit of a size, and the value used when none is set: the
 * device's default message size; for the queues, rte_comch_ep's default capped
 * by the device, as rte_comch_ep computes it once bound. The endpoint does not
 * hold its device before it is bound: the device may have been closed since.
 */
static doca_error_t
dcc_dev_size(const struct doca_comm_channel_ep_t *ep, enum dcc_size which, uint32_t *max,
	     uint32_t *def, const char *func)
{
	struct rte_comch_dev_info info;
	doca_error_t ret;

	if (dc_obj_bad(func, "ep->dev", ep->dev, DC_KIND_DEV, true))
		return DOCA_ERROR_INVALID_VALUE;
	ret = dc_devinfo_query(doca_dev_as_devinfo(ep->dev), &info);
	if (ret != DOCA_SUCCESS) {
		DCC_LOG_FOR(func, ERR, "cannot query the endpoint's device: %s",
			    doca_error_get_name(ret));
		return ret;
	}
	switch (which) {
	case DCC_MSG_SIZE:
		*max = info.max_msg_size;
		*def = info.default_msg_size;
		break;
	case DCC_SEND_QUEUE:
		*max = info.max_send_tasks;
		*def = RTE_MIN((uint32_t)RTE_COMCH_EP_DEFAULT_SEND_QUEUE_SIZE, info.max_send_tasks);
		break;
	default:
		*max = info.max_recv_queue_size;
		*def = RTE_MIN((uint32_t)RTE_COMCH_EP_DEFAULT_RECV_QUEUE_SIZE,
			       info.max_recv_queue_size);
		break;
	}
	return DOCA_SUCCESS;
}

/* The work of a size setter, whose checked ep it is; func names it in the log. */
static doca_error_t
dcc_size_set(struct doca_comm_channel_ep_t *ep, enum dcc_size which, uint16_t size,
	     const char *func)
{
	uint32_t max, def;
	doca_error_t ret;

	if (size == 0) {
		DCC_LOG_FOR(func, ERR, "%s 0", dcc_size_name[which]);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (ep->side != DCC_UNBOUND) {
		DCC_LOG_FOR(func, ERR, "the endpoint already listens or connected");
		return DOCA_ERROR_BAD_STATE;
	}
	/* Without a device, listen or connect checks it (rte_comch_ep does). */
	if (ep->dev != NULL) {
		ret = dcc_dev_size(ep, which, &max, &def, func);
		if (ret != DOCA_SUCCESS)
			return ret;
		if (size > max) {
			DCC_LOG_FOR(func, ERR, "%s %u above the device's %u", dcc_size_name[which],
				    size, max);
			return DOCA_ERROR_INVALID_VALUE;
		}
	}
	ep->size[which] = size;
	return DOCA_SUCCESS;
}

/* The work of a size getter, whose checked arguments they are. */
static doca_error_t
dcc_size_get(struct doca_comm_channel_ep_t *ep, enum dcc_size which, uint16_t *size,
	     const char *func)
{
	uint32_t v, max;
	doca_error_t ret;
	int rc;

	if (ep->side != DCC_UNBOUND) {
		/* Bound: rte_comch_ep knows the sizes in use (a client's negotiated one). */
		if (which == DCC_MSG_SIZE)
			rc = rte_comch_ep_get_max_msg_size(ep->rte, &v);
		else if (which == DCC_SEND_QUEUE)
			rc = rte_comch_ep_get_send_queue_size(ep->rte, &v);
		else
			rc = rte_comch_ep_get_recv_queue_size(ep->rte, &v);
		if (rc != 0)
			return dcc_err(rc);
	} else if (ep->size[which] != 0) {
		v = ep->size[which];
	} else if (ep->dev != NULL) {
		ret = dcc_dev_size(ep, which, &max, &v, func);
		if (ret != DOCA_SUCCESS)
			return ret;
	} else if (which == DCC_MSG_SIZE) {
		v = 0;	/* only a device has a default message size */
	} else {
		v = which == DCC_SEND_QUEUE ? RTE_COMCH_EP_DEFAULT_SEND_QUEUE_SIZE :
					      RTE_COMCH_EP_DEFAULT_RECV_QUEUE_SIZE;
	}
	*size = (uint16_t)RTE_MIN(v, (uint32_t)UINT16_MAX);
	return DOCA_SUCCESS;
}

doca_error_t
doca_comm_channel_ep_set_max_msg_size(struct doca_comm_channel_ep_t *ep, uint16_t max_msg_size)
{
	DCC_EP_CHECK(ep);
	return dcc_size_set(ep, DCC_MSG_SIZE, max_msg_size, __func__);
}

doca_error_t
doca_comm_channel_ep_get_max_msg_size(struct doca_comm_channel_ep_t *ep, uint16_t *max_msg_size)
{
	DCC_EP_CHECK(ep);
	DC_NULL_ARG(max_msg_size);
	return dcc_size_get(ep, DCC_MSG_SIZE, max_msg_size, __func__);
}

doca_error_t
doca_comm_channel_ep_set_send_queue_size(struct doca_comm_channel_ep_t *ep,
					 uint16_t send_queue_size)
{
	DCC_EP_CHECK(ep);
	return dcc_size_set(ep, DCC_SEND_QUEUE, send_queue_size, __func__);
}

doca_error_t
doca_comm_channel_ep_get_send_queue_size(struct doca_comm_channel_ep_t *ep,
					 uint16_t *send_queue_size)
{
	DCC_EP_CHECK(ep);
	DC_NULL_ARG(send_queue_size);
	return dcc_size_get(ep, DCC_SEND_QUEUE, send_queue_size, __func__);
}

doca_error_t
doca_comm_channel_ep_set_recv_queue_size(struct doca_comm_channel_ep_t *ep,
					 uint16_t recv_queue_size)
{
	DCC_EP_CHECK(ep);
	return dcc_size_set(ep, DCC_RECV_QUEUE, recv_queue_size, __func__);
}

doca_error_t
doca_comm_channel_ep_get_recv_queue_size(struct doca_comm_channel_ep_t *ep,
					 uint16_t *recv_queue_size)
{
	DCC_EP_CHECK(ep);
	DC_NULL_ARG(recv_queue_size);
	return dcc_size_get(ep, DCC_RECV_QUEUE, recv_queue_size, __func__);
}

/* -------------------------------------------------------------- connection */

/*
 * Give the rte_comch endpoint the device as role (and, for a service, the
 * representor) and the sizes set so far, holding the device: its side cannot
 * change under the endpoint. Undone by dcc_unbind() if listen or connect then
 * fails: the rte_comch endpoint keeps a device pointer that may go stale, but
 * nothing uses it before the next dcc_bind() replaces it, since every call on
 * an unbound endpoint is answered here without reaching rte_comch (destroy
 * excepted, which does not use the device).
 */
static doca_error_t
dcc_bind(struct doca_comm_channel_ep_t *ep, enum doca_compat_role role, const char *func)
{
	struct rte_comch_dev *rdev;
	int rc;

	rdev = doca_compat_dev_get_held(ep->dev, role);
	if (rdev == NULL) {
		DCC_LOG_FOR(func, ERR, "the endpoint's device cannot be the %s side",
			    role == DOCA_COMPAT_ROLE_DPU ? "BlueField" : "host");
		return DOCA_ERROR_NOT_PERMITTED;
	}
	rc = rte_comch_ep_set_device(ep->rte, rdev);
	if (rc == 0 && role == DOCA_COMPAT_ROLE_DPU)
		rc = rte_comch_ep_set_device_rep(ep->rte, doca_compat_rep_get(ep->dev_rep));
	if (rc == 0 && ep->size[DCC_MSG_SIZE] != 0)
		rc = rte_comch_ep_set_max_msg_size(ep->rte, ep->size[DCC_MSG_SIZE]);
	if (rc == 0 && ep->size[DCC_SEND_QUEUE] != 0)
		rc = rte_comch_ep_set_send_queue_size(ep->rte, ep->size[DCC_SEND_QUEUE]);
	if (rc == 0 && ep->size[DCC_RECV_QUEUE] != 0)
		rc = rte_comch_ep_set_recv_queue_size(ep->rte, ep->size[DCC_RECV_QUEUE]);
	if (rc != 0) {
		doca_compat_dev_release(ep->dev);
		/* A size beyond the device's limit: DOCA calls it an invalid value. */
		return rc == -EMSGSIZE ? DOCA_ERROR_INVALID_VALUE : dcc_err(rc);
	}
	return DOCA_SUCCESS;
}

static void
dcc_unbind(struct doca_comm_channel_ep_t *ep)
{
	doca_compat_dev_release(ep->dev);
}

doca_error_t
doca_comm_channel_ep_listen(struct doca_comm_channel_ep_t *local_ep, const char *name)
{
	doca_error_t ret;
	int rc;

	DCC_EP_CHECK(local_ep);
	DC_NULL_ARG(name);
	if (local_ep->side != DCC_UNBOUND) {
		DC_LOG(ERR, "the endpoint already %s",
		       local_ep->side == DCC_SERVICE ? "listens" : "connected");
		return DOCA_ERROR_NOT_PERMITTED;
	}
	if (local_ep->dev == NULL || local_ep->dev_rep == NULL) {
		DC_LOG(ERR, "listen needs a device and a representor (set_device, set_device_rep)");
		return DOCA_ERROR_BAD_STATE;
	}
	/* Not held before listen: closed since? */
	DC_OBJ_ARG(local_ep->dev, DC_KIND_DEV);
	DC_OBJ_ARG(local_ep->dev_rep, DC_KIND_DEV_REP);
	if (doca_dev_as_devinfo(doca_compat_rep_dev(local_ep->dev_rep)) !=
	    doca_dev_as_devinfo(local_ep->dev)) {
		DC_LOG(ERR, "the representor is not one of the endpoint's device");
		return DOCA_ERROR_INVALID_VALUE;
	}
	ret = dcc_bind(local_ep, DOCA_COMPAT_ROLE_DPU, __func__);
	if (ret != DOCA_SUCCESS)
		return ret;
	rc = rte_comch_ep_listen(local_ep->rte, name);
	if (rc != 0) {
		dcc_unbind(local_ep);
		return rc == -EMSGSIZE ? DOCA_ERROR_INVALID_VALUE : dcc_err(rc);
	}
	local_ep->side = DCC_SERVICE;
	return DOCA_SUCCESS;
}

doca_error_t
doca_comm_channel_ep_connect(struct doca_comm_channel_ep_t *local_ep, const char *name,
			     struct doca_comm_channel_addr_t **peer_addr)
{
	struct rte_comch_ep_peer *peer;
	doca_error_t ret;
	int rc;

	DCC_EP_CHECK(local_ep);
	DC_NULL_ARG(name);
	DC_NULL_ARG(peer_addr);
	if (local_ep->side == DCC_SERVICE) {
		DC_LOG(ERR, "a listening endpoint does not connect");
		return DOCA_ERROR_NOT_PERMITTED;
	}
	if (local_ep->cpeer != NULL) {
		DC_LOG(ERR, "the endpoint is connected: disconnect its peer first");
		return DOCA_ERROR_NOT_PERMITTED;
	}
	if (local_ep->side == DCC_UNBOUND) {
		if (local_ep->dev == NULL) {
			DC_LOG(ERR, "connect needs a device (set_device)");
			return DOCA_ERROR_BAD_STATE;
		}
		/* Not held before the first connect: closed since? */
		DC_OBJ_ARG(local_ep->dev, DC_KIND_DEV);
		ret = dcc_bind(local_ep, DOCA_COMPAT_ROLE_HOST, __func__);
		if (ret != DOCA_SUCCESS)
			return ret;
	}
	rc = rte_comch_ep_connect(local_ep->rte, name, &peer);
	if (rc != 0) {
		if (local_ep->side == DCC_UNBOUND) {
			dcc_unbind(local_ep);
			return rc == -EMSGSIZE ? DOCA_ERROR_INVALID_VALUE : dcc_err(rc);
		}
		/*
		 * A client whose peer was disconnected: -EBUSY is its previous
		 * connection still closing, which a later call gets past.
		 */
		return rc == -EBUSY ? DOCA_ERROR_AGAIN : dcc_err(rc);
	}
	local_ep->side = DCC_CLIENT;
	local_ep->cpeer = peer;
	*peer_addr = DCC_ADDR(peer);
	return DOCA_SUCCESS;
}

doca_error_t
doca_comm_channel_ep_disconnect(struct doca_comm_channel_ep_t *local_ep,
				struct doca_comm_channel_addr_t *peer_addr)
{
	bool client_peer;
	int rc;

	DCC_EP_CHECK(local_ep);
	DC_NULL_ARG(peer_addr);
	DCC_BOUND_CHECK(local_ep, DOCA_ERROR_NOT_CONNECTED);
	client_peer = DCC_PEER(peer_addr) == local_ep->cpeer;
	rc = rte_comch_ep_disconnect(local_ep->rte, DCC_PEER(peer_addr));
	/* ep is live: -EINVAL says the peer is not one of its live peer addresses. */
	if (rc == -EINVAL)
		return DOCA_ERROR_NOT_CONNECTED;
	if (rc == 0 && client_peer)
		local_ep->cpeer = NULL;
	return dcc_err(rc);
}

/* ---------------------------------------------------------------- messages */

doca_error_t
doca_comm_channel_ep_sendto(struct doca_comm_channel_ep_t *local_ep, const void *msg, size_t len,
			    int flags, struct doca_comm_channel_addr_t *peer_addr)
{
	int rc;

	DCC_EP_CHECK_FAST(local_ep);
	if (peer_addr == NULL) {
		/* DOCA's answer to a missing destination. */
		DC_LOG(ERR, "peer_addr is NULL");
		return DOCA_ERROR_NOT_CONNECTED;
	}
	if (msg == NULL && len > 0) {
		DC_LOG(ERR, "msg is NULL with a length of %zu", len);
		return DOCA_ERROR_INVALID_VALUE;
	}
	/* rte_comch's blocking flag is not DOCA's: only NONE is taken. */
	if (flags != DOCA_CC_MSG_FLAG_NONE) {
		DC_LOG(ERR, "unknown flags %#x", (unsigned int)flags);
		return DOCA_ERROR_INVALID_VALUE;
	}
	DCC_BOUND_CHECK(local_ep, DOCA_ERROR_NOT_CONNECTED);
	rc = rte_comch_ep_sendto(local_ep->rte, msg, len, RTE_COMCH_EP_MSG_FLAG_NONE,
				 DCC_PEER(peer_addr));
	switch (rc) {
	case -EINVAL:
		/* Every other argument is checked: the peer is not one of ep's live peers. */
		return DOCA_ERROR_NOT_CONNECTED;
	case -EMSGSIZE:
		return DOCA_ERROR_INVALID_VALUE;
	case -EBUSY:
		/* The service or client stopped running: the connection is over. */
		return DOCA_ERROR_CONNECTION_RESET;
	default:
		return dcc_err(rc);
	}
}

doca_error_t
doca_comm_channel_ep_recvfrom(struct doca_comm_channel_ep_t *local_ep, void *msg, size_t *len,
			      int flags, struct doca_comm_channel_addr_t **peer_addr)
{
	struct rte_comch_ep_peer *peer;
	int rc;

	DCC_EP_CHECK_FAST(local_ep);
	DC_NULL_ARG(len);
	DC_NULL_ARG(peer_addr);
	if (msg == NULL && *len > 0) {
		DC_LOG(ERR, "msg is NULL with a size of %zu", *len);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (flags != DOCA_CC_MSG_FLAG_NONE) {
		DC_LOG(ERR, "unknown flags %#x", (unsigned int)flags);
		return DOCA_ERROR_INVALID_VALUE;
	}
	DCC_BOUND_CHECK(local_ep, DOCA_ERROR_NOT_CONNECTED);
	/* -EAGAIN (nothing waiting) and -EMSGSIZE (buffer too small) map as they are. */
	rc = rte_comch_ep_recvfrom(local_ep->rte, msg, len, RTE_COMCH_EP_MSG_FLAG_NONE, &peer);
	if (rc == 0)
		*peer_addr = DCC_ADDR(peer);
	return dcc_err(rc);
}

/* ----------------------------------------------------------- event channel */

/* An epoll descriptor watching fds for input; or -1, with a log line. */
static int
dcc_epoll_of(const int *fds, unsigned int n)
{
	struct epoll_event ev;
	unsigned int i;
	int epfd;

	epfd = epoll_create1(EPOLL_CLOEXEC);
	if (epfd < 0) {
		DC_LOG(ERR, "epoll_create1: %s", strerror(errno));
		return -1;
	}
	for (i = 0; i < n; i++) {
		ev = (struct epoll_event){ .events = EPOLLIN, .data.fd = fds[i] };
		if (epoll_ctl(epfd, EPOLL_CTL_ADD, fds[i], &ev) < 0) {
			DC_LOG(ERR, "epoll_ctl: %s", strerror(errno));
			close(epfd);
			return -1;
		}
	}
	return epfd;
}

static int
dcc_eventfd(void)
{
	int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);

	if (fd < 0)
		DC_LOG(ERR, "eventfd: %s", strerror(errno));
	return fd;
}

/* Make a kick eventfd readable (the counter cannot overflow in practice). */
static void
dcc_kick(int fd)
{
	uint64_t one = 1;

	if (fd >= 0 && write(fd, &one, sizeof(one)) != sizeof(one) && errno != EAGAIN)
		DC_LOG(ERR, "eventfd write: %s", strerror(errno));
}

static void
dcc_kick_drain(int fd)
{
	uint64_t v;

	if (fd >= 0 && read(fd, &v, sizeof(v)) < 0 && errno != EAGAIN)
		DC_LOG(ERR, "eventfd read: %s", strerror(errno));
}

/* Make the send and receive handles, once. */
static doca_error_t
dcc_channels(struct doca_comm_channel_ep_t *ep)
{
	int send_fd, recv_fd, fds[2];
	int rc;

	if (ep->send_ch >= 0)
		return DOCA_SUCCESS;
	rc = rte_comch_ep_get_event_channel(ep->rte, &send_fd, &recv_fd);
	if (rc != 0)
		return dcc_err(rc);
	ep->recv_kick = dcc_eventfd();
	if (ep->recv_kick < 0)
		return DOCA_ERROR_OPERATING_SYSTEM;
	/* Send room appears when a peer takes a message, which the engine reports. */
	fds[0] = send_fd;
	fds[1] = recv_fd;
	ep->send_ch = dcc_epoll_of(fds, 2);
	fds[0] = recv_fd;
	fds[1] = ep->recv_kick;
	ep->recv_ch = dcc_epoll_of(fds, 2);
	if (ep->send_ch < 0 || ep->recv_ch < 0) {
		dcc_close(&ep->send_ch);
		dcc_close(&ep->recv_ch);
		dcc_close(&ep->recv_kick);
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	return DOCA_SUCCESS;
}

doca_error_t
doca_comm_channel_ep_get_event_channel(struct doca_comm_channel_ep_t *local_ep,
				       doca_event_channel_t *send_event_channel,
				       doca_event_channel_t *recv_event_channel)
{
	doca_error_t ret;

	DCC_EP_CHECK(local_ep);
	if (send_event_channel == NULL && recv_event_channel == NULL) {
		DC_LOG(ERR, "send_event_channel and recv_event_channel are NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	DCC_BOUND_CHECK(local_ep, DOCA_ERROR_BAD_STATE);
	ret = dcc_channels(local_ep);
	if (ret != DOCA_SUCCESS)
		return ret;
	if (send_event_channel != NULL)
		*send_event_channel = local_ep->send_ch;
	if (recv_event_channel != NULL)
		*recv_event_channel = local_ep->recv_ch;
	return DOCA_SUCCESS;
}

doca_error_t
doca_comm_channel_ep_event_handle_arm_send(struct doca_comm_channel_ep_t *local_ep)
{
	DCC_EP_CHECK_FAST(local_ep);
	DCC_BOUND_CHECK(local_ep, DOCA_ERROR_BAD_STATE);
	/* rte_comch's arm already signals at once when there is room, and arms the engine. */
	return dcc_err(rte_comch_ep_event_handle_arm_send(local_ep->rte));
}

/*
 * Arm the engine for a handle that watches it; where rte_comch says -EAGAIN
 * (messages waiting, or work pending), wake the handle through its kick
 * instead: DOCA's programs sleep after arming, and would miss that work.
 */
static int
dcc_arm_engine(struct doca_comm_channel_ep_t *ep, int kick)
{
	int rc;

	dcc_kick_drain(kick);
	rc = rte_comch_ep_event_handle_arm_recv(ep->rte);
	if (rc == -EAGAIN) {
		dcc_kick(kick);
		rc = 0;
	}
	return rc;
}

doca_error_t
doca_comm_channel_ep_event_handle_arm_recv(struct doca_comm_channel_ep_t *local_ep)
{
	DCC_EP_CHECK_FAST(local_ep);
	DCC_BOUND_CHECK(local_ep, DOCA_ERROR_BAD_STATE);
	return dcc_err(dcc_arm_engine(local_ep, local_ep->recv_kick));
}

/* ----------------------------------------------------------- service state */

doca_error_t
doca_comm_channel_ep_get_service_event_channel(struct doca_comm_channel_ep_t *local_ep,
					       doca_event_channel_t *service_event_channel)
{
	int fds[3];
	int rc;

	DCC_EP_CHECK(local_ep);
	DC_NULL_ARG(service_event_channel);
	DCC_SERVICE_CHECK(local_ep);
	if (local_ep->svc_ch < 0) {
		rc = rte_comch_ep_get_service_event_channel(local_ep->rte, &fds[0]);
		if (rc == 0)
			rc = rte_comch_ep_get_event_channel(local_ep->rte, NULL, &fds[1]);
		if (rc != 0)
			return dcc_err(rc);
		local_ep->svc_kick = dcc_eventfd();
		if (local_ep->svc_kick < 0)
			return DOCA_ERROR_OPERATING_SYSTEM;
		/* Connections and their ends are seen by the engine's progress. */
		fds[2] = local_ep->svc_kick;
		local_ep->svc_ch = dcc_epoll_of(fds, 3);
		if (local_ep->svc_ch < 0) {
			dcc_close(&local_ep->svc_kick);
			return DOCA_ERROR_OPERATING_SYSTEM;
		}
		/* Armed from the start: a program may wait before its first update. */
		rc = dcc_arm_engine(local_ep, local_ep->svc_kick);
		if (rc != 0) {
			/* Never hand out a handle that was not armed: start over next time. */
			dcc_close(&local_ep->svc_ch);
			dcc_close(&local_ep->svc_kick);
			return dcc_err(rc);
		}
	}
	*service_event_channel = local_ep->svc_ch;
	return DOCA_SUCCESS;
}

doca_error_t
doca_comm_channel_ep_update_service_state_info(struct doca_comm_channel_ep_t *local_ep)
{
	int rc;

	DCC_EP_CHECK_FAST(local_ep);
	DCC_SERVICE_CHECK(local_ep);
	rc = rte_comch_ep_update_service_state_info(local_ep->rte);
	if (rc == -ENOTCONN)
		return DOCA_ERROR_CONNECTION_RESET; /* the service failed: DOCA's answer */
	if (rc == 0 && local_ep->svc_ch >= 0)
		rc = dcc_arm_engine(local_ep, local_ep->svc_kick);
	return dcc_err(rc);
}

doca_error_t
doca_comm_channel_ep_get_peer_addr_list(const struct doca_comm_channel_ep_t *local_ep,
					struct doca_comm_channel_addr_t ***peer_addr_array,
					uint32_t *peer_addr_array_len)
{
	struct rte_comch_ep_peer * const *list;
	uint32_t nb;
	int rc;

	DCC_EP_CHECK_FAST(local_ep);
	DC_NULL_ARG(peer_addr_array);
	DC_NULL_ARG(peer_addr_array_len);
	DCC_SERVICE_CHECK(local_ep);
	rc = rte_comch_ep_get_peer_addr_list(local_ep->rte, &list, &nb);
	if (rc != 0)
		return dcc_err(rc);
	/* DOCA's type has no const: the array stays the endpoint's all the same. */
	*peer_addr_array = (struct doca_comm_channel_addr_t **)(uintptr_t)list;
	*peer_addr_array_len = nb;
	return DOCA_SUCCESS;
}

doca_error_t
doca_comm_channel_ep_get_pending_connections(const struct doca_comm_channel_ep_t *local_ep,
					     uint32_t *pending_connections)
{
	DCC_EP_CHECK_FAST(local_ep);
	DC_NULL_ARG(pending_connections);
	DCC_SERVICE_CHECK(local_ep);
	/* rte_comch's progress completes each connection as it comes: none ever waits. */
	*pending_connections = 0;
	return DOCA_SUCCESS;
}

/* ------------------------------------------------------------ peer address */

doca_error_t
doca_comm_channel_peer_addr_set_user_data(struct doca_comm_channel_addr_t *peer_addr,
					  uint64_t user_context)
{
	DC_NULL_ARG(peer_addr);
	return dcc_err(rte_comch_ep_peer_addr_set_user_data(DCC_PEER(peer_addr), user_context));
}

doca_error_t
doca_comm_channel_peer_addr_get_user_data(struct doca_comm_channel_addr_t *peer_addr,
					  uint64_t *user_data)
{
	DC_NULL_ARG(peer_addr);
	DC_NULL_ARG(user_data);
	return dcc_err(rte_comch_ep_peer_addr_get_user_data(DCC_CPEER(peer_addr), user_data));
}

doca_error_t
doca_comm_channel_peer_addr_user_data_set(struct doca_comm_channel_addr_t *peer_addr,
					  uint64_t user_context)
{
	return doca_comm_channel_peer_addr_set_user_data(peer_addr, user_context);
}

doca_error_t
doca_comm_channel_peer_addr_user_data_get(struct doca_comm_channel_addr_t *peer_addr,
					  uint64_t *user_data)
{
	return doca_comm_channel_peer_addr_get_user_data(peer_addr, user_data);
}

doca_error_t
doca_comm_channel_peer_addr_update_info(struct doca_comm_channel_addr_t *peer_addr)
{
	int rc;

	DC_NULL_ARG(peer_addr);
	rc = rte_comch_ep_peer_addr_update_info(DCC_PEER(peer_addr));
	/* DOCA has a code of its own for a connection being made. */
	if (rc == -EINPROGRESS)
		return DOCA_ERROR_CONNECTION_INPROGRESS;
	return dcc_err(rc);
}

/* The counters of the last update_info. */
static doca_error_t
dcc_peer_stats(const struct doca_comm_channel_addr_t *peer_addr,
	       struct rte_comch_ep_peer_stats *stats)
{
	return dcc_err(rte_comch_ep_peer_addr_get_stats(DCC_CPEER(peer_addr), stats));
}

doca_error_t
doca_comm_channel_peer_addr_get_send_messages(const struct doca_comm_channel_addr_t *peer_addr,
					      uint64_t *send_messages)
{
	struct rte_comch_ep_peer_stats st;
	doca_error_t ret;

	DC_NULL_ARG(peer_addr);
	DC_NULL_ARG(send_messages);
	ret = dcc_peer_stats(peer_addr, &st);
	if (ret == DOCA_SUCCESS)
		*send_messages = st.send_messages;
	return ret;
}

doca_error_t
doca_comm_channel_peer_addr_get_send_bytes(const struct doca_comm_channel_addr_t *peer_addr,
					   uint64_t *send_bytes)
{
	struct rte_comch_ep_peer_stats st;
	doca_error_t ret;

	DC_NULL_ARG(peer_addr);
	DC_NULL_ARG(send_bytes);
	ret = dcc_peer_stats(peer_addr, &st);
	if (ret == DOCA_SUCCESS)
		*send_bytes = st.send_bytes;
	return ret;
}

doca_error_t
doca_comm_channel_peer_addr_get_recv_messages(const struct doca_comm_channel_addr_t *peer_addr,
					      uint64_t *recv_messages)
{
	struct rte_comch_ep_peer_stats st;
	doca_error_t ret;

	DC_NULL_ARG(peer_addr);
	DC_NULL_ARG(recv_messages);
	ret = dcc_peer_stats(peer_addr, &st);
	if (ret == DOCA_SUCCESS)
		*recv_messages = st.recv_messages;
	return ret;
}

doca_error_t
doca_comm_channel_peer_addr_get_recv_bytes(const struct doca_comm_channel_addr_t *peer_addr,
					   uint64_t *recv_bytes)
{
	struct rte_comch_ep_peer_stats st;
	doca_error_t ret;

	DC_NULL_ARG(peer_addr);
	DC_NULL_ARG(recv_bytes);
	ret = dcc_peer_stats(peer_addr, &st);
	if (ret == DOCA_SUCCESS)
		*recv_bytes = st.recv_bytes;
	return ret;
}

doca_error_t
doca_comm_channel_peer_addr_get_send_in_flight_messages(
	const struct doca_comm_channel_addr_t *peer_addr, uint64_t *send_in_flight_messages)
{
	struct rte_comch_ep_peer_stats st;
	doca_error_t ret;

	DC_NULL_ARG(peer_addr);
	DC_NULL_ARG(send_in_flight_messages);
	ret = dcc_peer_stats(peer_addr, &st);
	if (ret == DOCA_SUCCESS)
		*send_in_flight_messages = st.send_in_flight_messages;
	return ret;
}
