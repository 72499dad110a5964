/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The host side of a handshake: one attempt, stepped by the client's slow
 * tick. rdma_cm resolves the BlueField side's address and the route (the
 * route must go through this device: the PD is its), the QP is made with a
 * receive for the answer, the request carries our magic and version; once
 * ESTABLISHED, the HELLO says which function and server, the sizes. On
 * ACCEPT the ring is posted and READY sent: the connection is up.
 *
 * What an attempt comes to, as the library wants it: the server's REJECT
 * (its errno), nobody listening on the address and port (-ENOENT: rdma_cm's
 * REJECTED with reason 8, invalid service ID), the server going away or not
 * answering within MLX5_CLIENT_HS_MS (-ECONNRESET, retried by the library),
 * a route through another device (-ENETUNREACH), a garbled answer (-EPROTO).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bsd/string.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>

#include "mlx5_internal.h"

/* The IB CM's reject reason rdma_cm reports when nobody listens on a port. */
#define MLX5_REJ_INVALID_SERVICE_ID 8

#define MLX5_EV_FAILED (MLX5_CM_BIT(RDMA_CM_EVENT_ADDR_ERROR) | \
			MLX5_CM_BIT(RDMA_CM_EVENT_ROUTE_ERROR) | \
			MLX5_CM_BIT(RDMA_CM_EVENT_CONNECT_ERROR) | \
			MLX5_CM_BIT(RDMA_CM_EVENT_UNREACHABLE) | \
			MLX5_CM_BIT(RDMA_CM_EVENT_DISCONNECTED) | \
			MLX5_CM_BIT(RDMA_CM_EVENT_DEVICE_REMOVAL))

/* A REJECT's status, as the library takes it; anything else breaks the protocol. */
static int
mlx5_cli_reject_reason(int status)
{
	switch (status) {
	case ENOENT:
	case EMSGSIZE:
	case ECONNREFUSED:
	case ENOMEM:
	case EPROTO:
		return -status;
	default:
		return -EPROTO;
	}
}

/* The server's answer, from the handshake buffer. dev->lock. */
void
mlx5_cli_on_answer(struct mlx5_conn *c, const struct mlx5_hdr *h, const void *payload,
		   uint32_t len)
{
	struct mlx5_dev *dev = c->dev;
	const struct mlx5_accept *a = payload;
	uint32_t max_msg, srv_queue, cli_queue;
	int rc;

	if (h->type == MLX5_MSG_REJECT) {
		c->hs_result = mlx5_cli_reject_reason(h->status);
		/* A status the protocol does not define is the server's fault: say which. */
		if (c->hs_result == -EPROTO)
			MLX5_LOG(NOTICE, "%s: the server refused the connection with status %u: "
				 "taken as a protocol error", dev->name, h->status);
		else
			MLX5_LOG(INFO, "%s: the server refused the connection: %s", dev->name,
				 strerror(-c->hs_result));
		return;
	}
	if (len != sizeof(*a) || rte_le_to_cpu_32(a->magic) != MLX5_MAGIC ||
	    rte_le_to_cpu_32(a->version) != MLX5_VERSION) {
		c->hs_result = -EPROTO;
		MLX5_LOG(ERR, "%s: a garbled ACCEPT", dev->name);
		return;
	}
	max_msg = rte_le_to_cpu_32(a->max_msg_size);
	srv_queue = rte_le_to_cpu_32(a->server_queue);
	cli_queue = rte_le_to_cpu_32(a->client_queue);
	/* Only what our ring's geometry needs is checked here; the library judges the rest. */
	if (max_msg == 0 || max_msg > dev->max_msg || srv_queue == 0 ||
	    srv_queue > dev->max_queue || cli_queue != c->params.recv_queue_size) {
		c->hs_result = -EPROTO;
		MLX5_LOG(ERR, "%s: the server agreed to limits out of range (message size %u, "
			 "queues %u and %u)", dev->name, max_msg, srv_queue, cli_queue);
		return;
	}
	rc = mlx5_conn_carrier(c, max_msg, cli_queue, srv_queue);
	if (rc == 0)
		rc = mlx5_conn_fast_attrs(c);
	if (rc == 0) {
		/* The server sends nothing before this: our receives are posted. */
		c->state = MLX5_ST_UP;
		rc = mlx5_conn_send(c, MLX5_MSG_READY, 0, NULL, 0, NULL, 0);
	}
	if (rc < 0) {
		c->state = MLX5_ST_WAIT_ACCEPT;
		c->hs_result = rc == -ENOMEM ? -ENOMEM : -ECONNRESET;
		return;
	}
	c->params.max_msg_size = max_msg;
	c->params.peer_queue_size = srv_queue;
	c->hs_result = 0;
}

/* The route is resolved: the QP with a receive for the answer, and the request. */
static int
mlx5_cli_connect(struct mlx5_conn *c)
{
	struct mlx5_dev *dev = c->dev;
	struct mlx5_req_pdata pd = {
		.magic = rte_cpu_to_le_32(MLX5_MAGIC),
		.version = rte_cpu_to_le_32(MLX5_VERSION),
	};
	struct rdma_conn_param cp;
	int rc;

	rc = mlx5_conn_create_qp(c, c->params.recv_queue_size + MLX5_OTHER_CREDITS + 1);
	if (rc == 0)
		rc = mlx5_wake_on(c->pe, c->ch, &c->wake_on);
	if (rc == 0)
		rc = mlx5_conn_hs_recv(c);
	if (rc < 0)
		return rc;
	dev->glue->req_notify_cq(c->cq, 1);
	memset(&cp, 0, sizeof(cp));
	cp.private_data = &pd;
	cp.private_data_len = sizeof(pd);
	cp.retry_count = 7;
	cp.rnr_retry_count = 0; /* credits: a receive is always there for an honest peer */
	if (dev->glue->connect(c->id, &cp) != 0) {
		MLX5_LOG(INFO, "%s: rdma_connect: %s", dev->name, strerror(errno));
		return -ECONNRESET;
	}
	c->state = MLX5_ST_CONNECTING;
	return 0;
}

static int
mlx5_cli_hello(struct mlx5_conn *c)
{
	struct mlx5_hello h;

	memset(&h, 0, sizeof(h));
	h.magic = rte_cpu_to_le_32(MLX5_MAGIC);
	h.version = rte_cpu_to_le_32(MLX5_VERSION);
	h.max_msg_size = rte_cpu_to_le_32(c->want_msg);
	h.recv_queue_size = rte_cpu_to_le_32(c->params.recv_queue_size);
	strlcpy(h.fn, c->dev->fn, sizeof(h.fn));
	strlcpy(h.name, c->offer.name, sizeof(h.name));
	c->state = MLX5_ST_WAIT_ACCEPT;
	return mlx5_conn_hs_send(c, 1, MLX5_WR(MLX5_WR_HS_SEND, 0), MLX5_MSG_HELLO, 0, &h,
				 sizeof(h));
}

/* One step of the attempt: -EINPROGRESS, 0 (up) or why it failed. dev->lock. */
static int
mlx5_cli_step(struct mlx5_conn *c, uint64_t now)
{
	struct mlx5_dev *dev = c->dev;
	uint32_t ev = c->cm_events;
	const char *nm;

	/* The server's answer first: it may disconnect right after its REJECT. */
	if (c->state == MLX5_ST_WAIT_ACCEPT) {
		mlx5_channel_drain(dev->glue, c->ch);
		mlx5_conn_drain(c);
		if (c->hs_result < 0)
			return c->hs_result;
	}
	/* Taken by the look above, or by the one after the arm in the step before. */
	if (c->state == MLX5_ST_UP) {
		/* From now on the library arms it, or polls it. */
		mlx5_wake_off(c->pe, c->ch, &c->wake_on);
		mlx5_channel_drain(dev->glue, c->ch);
		return 0;
	}
	if (ev & MLX5_CM_BIT(RDMA_CM_EVENT_REJECTED)) {
		if (c->cm_status == MLX5_REJ_INVALID_SERVICE_ID) {
			MLX5_LOG(INFO, "%s: nobody listens on %s", dev->name, dev->addr_str);
			return -ENOENT;
		}
		return -ECONNRESET;
	}
	if (ev & MLX5_EV_FAILED) {
		MLX5_LOG(INFO, "%s: connecting to %s failed (rdma_cm status %d)", dev->name,
			 dev->addr_str, c->cm_status);
		return -ECONNRESET;
	}
	switch (c->state) {
	case MLX5_ST_RESOLVING:
		if (ev & MLX5_CM_BIT(RDMA_CM_EVENT_ROUTE_RESOLVED))
			return mlx5_cli_connect(c) < 0 ? -ECONNRESET : -EINPROGRESS;
		if ((ev & MLX5_CM_BIT(RDMA_CM_EVENT_ADDR_RESOLVED)) && !c->route_asked) {
			if (c->id->verbs != dev->ctx) {
				nm = c->id->verbs != NULL ?
				     dev->glue->get_device_name(c->id->verbs->device) : NULL;
				MLX5_LOG(ERR, "%s: the route to %s goes through RDMA device %s, "
					 "not %s", dev->name, dev->addr_str,
					 nm != NULL ? nm : "(none)", dev->ibdev);
				return -ENETUNREACH;
			}
			if (dev->glue->resolve_route(c->id, MLX5_RESOLVE_MS) != 0)
				return -ECONNRESET;
			c->route_asked = true;
		}
		break;
	case MLX5_ST_CONNECTING:
		if (ev & MLX5_CM_BIT(RDMA_CM_EVENT_ESTABLISHED))
			return mlx5_cli_hello(c) < 0 ? -ECONNRESET : -EINPROGRESS;
		break;
	case MLX5_ST_WAIT_ACCEPT:
		if (c->end != 0)
			return c->end == -EPROTO ? -EPROTO : -ECONNRESET;
		/* Arm, then look again: an answer in between raises the event anyway. */
		dev->glue->req_notify_cq(c->cq, 1);
		mlx5_conn_drain(c);
		if (c->state != MLX5_ST_WAIT_ACCEPT || c->hs_result != 0)
			return -EINPROGRESS; /* the next step takes it */
		break;
	default:
		MLX5_LOG(ERR, "%s: a client's handshake in state %d: a driver bug", dev->name,
			 (int)c->state);
		return -EPROTO;
	}
	if (now >= c->deadline) {
		MLX5_LOG(INFO, "%s: %s did not answer within %u ms", dev->name, dev->addr_str,
			 MLX5_CLIENT_HS_MS);
		return -ECONNRESET;
	}
	return -EINPROGRESS;
}

static int
mlx5_client_connect(void *dev, const struct rte_comch_drv_client_conf *conf,
		    struct rte_comch_pe *pe, void **hs)
{
	struct mlx5_dev *d = dev;
	struct mlx5_conn *c;
	int rc;

	if (strlen(conf->name) >= MLX5_MAX_NAME_LEN)
		return -ENAMETOOLONG;
	c = mlx5_conn_new(d, false);
	if (c == NULL)
		return -ENOMEM;
	strlcpy(c->offer.name, conf->name, sizeof(c->offer.name));
	c->want_msg = conf->max_msg_size;
	c->params.recv_queue_size = conf->recv_queue_size;
	c->state = MLX5_ST_RESOLVING;
	c->deadline = rte_rdtsc() + mlx5_ms(d, MLX5_CLIENT_HS_MS);
	pthread_mutex_lock(&d->lock);
	rc = mlx5_conn_attach_locked(c, pe);
	if (rc < 0)
		goto fail;
	if (d->glue->create_id(d->cm_ch, &c->id, c, RDMA_PS_TCP) != 0) {
		rc = -errno;
		c->id = NULL;
		MLX5_LOG(ERR, "%s: rdma_create_id: %s", d->name, strerror(-rc));
		goto fail;
	}
	if (d->glue->resolve_addr(c->id, NULL, (struct sockaddr *)&d->addr,
				  MLX5_RESOLVE_MS) != 0) {
		rc = -errno;
		MLX5_LOG(INFO, "%s: rdma_resolve_addr(%s): %s", d->name, d->addr_str,
			 strerror(-rc));
		goto fail;
	}
	pthread_mutex_unlock(&d->lock);
	*hs = c;
	return 0;
fail:
	mlx5_conn_destroy_locked(c);
	pthread_mutex_unlock(&d->lock);
	return rc < 0 ? rc : -ENOMEM;
}

static int
mlx5_client_poll(void *hs, struct rte_comch_drv_conn_params *params)
{
	struct mlx5_conn *c = hs;
	struct mlx5_dev *dev = c->dev;
	enum mlx5_state before;
	unsigned int round;
	int rc;

	/* A few steps at once: each rdma_cm step queues the event of the next. */
	for (round = 0; round < 4; round++) {
		mlx5_dispatch(dev, c->pe);
		pthread_mutex_lock(&dev->lock);
		before = c->state;
		rc = mlx5_cli_step(c, rte_rdtsc());
		if (rc != -EINPROGRESS && rc != 0)
			mlx5_conn_destroy_locked(c);
		pthread_mutex_unlock(&dev->lock);
		if (rc != -EINPROGRESS || c->state == before)
			break;
	}
	if (rc == 0)
		*params = c->params;
	return rc;
}

static void
mlx5_client_abort(void *hs)
{
	struct mlx5_conn *c = hs;
	struct mlx5_dev *dev = c->dev;

	pthread_mutex_lock(&dev->lock);
	mlx5_conn_destroy_locked(c);
	pthread_mutex_unlock(&dev->lock);
}

const struct rte_comch_drv_client_ops mlx5_client_ops = {
	.connect = mlx5_client_connect,
	.poll = mlx5_client_poll,
	.abort = mlx5_client_abort,
};
