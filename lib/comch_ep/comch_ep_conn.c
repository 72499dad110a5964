/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Endpoints: listen (a server), connect (a client), disconnect, and the life
 * of peer addresses, driven by the connection and state callbacks.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>

#include <rte_errno.h>

#include "comch_ep_private.h"

struct rte_comch_ep_peer *
comch_ep_peer_new(struct rte_comch_ep *ep, struct rte_comch_connection *conn)
{
	struct rte_comch_ep_peer *peer;

	peer = calloc(1, sizeof(*peer));
	if (peer == NULL)
		return NULL;
	peer->ep = ep;
	peer->magic = COMCH_EP_PEER_MAGIC;
	comch_obj_publish(&peer->reg, &peer->magic);
	TAILQ_INSERT_TAIL(&ep->peers, peer, next);
	if (conn != NULL)
		comch_ep_peer_attach(peer, conn);
	return peer;
}

void
comch_ep_peer_attach(struct rte_comch_ep_peer *peer, struct rte_comch_connection *conn)
{
	peer->conn = conn;
	peer->connecting = false;
	rte_comch_connection_set_user_data(conn, (union rte_comch_data){ .ptr = peer });
	comch_ep_rxq_conn_added(peer->ep, conn);
}

void
comch_ep_peer_release(struct rte_comch_ep_peer *peer)
{
	if (peer->released)
		return;
	peer->released = true;
	comch_objreg_remove(&peer->reg);
}

void
comch_ep_peer_free(struct rte_comch_ep_peer *peer)
{
	TAILQ_REMOVE(&peer->ep->peers, peer, next);
	comch_obj_kill(&peer->magic);
	comch_objreg_quarantine(peer);
}

void
comch_ep_peer_put(struct rte_comch_ep_peer *peer)
{
	if (!peer->released || peer->conn != NULL || peer->connecting || peer->inflight != 0)
		return;
	comch_ep_peer_free(peer);
}

void
comch_ep_peer_conn_gone(struct rte_comch_ep_peer *peer, int status)
{
	peer->conn = NULL;
	peer->connecting = false;
	peer->status = status < 0 ? status : -ECONNABORTED;
	comch_ep_peer_put(peer);
}

/* ------------------------------------------------------------- server side */

static void
ep_connect_cb(struct rte_comch_connection *conn, int status)
{
	struct rte_comch_ctx *ctx = rte_comch_connection_get_ctx(conn);
	union rte_comch_data ud = { .ptr = NULL };
	struct rte_comch_ep *ep;

	/* A client that could not connect: no peer address, nothing to tell. */
	if (status != 0)
		return;
	rte_comch_ctx_get_user_data(ctx, &ud);
	ep = ud.ptr;
	if (comch_ep_peer_new(ep, conn) == NULL) {
		COMCH_LOG(ERR, "endpoint: out of memory for a peer address, disconnecting it");
		rte_comch_server_disconnect(ep->server, conn);
		return;
	}
	comch_ep_service_event(ep);
}

static void
ep_disconnect_cb(struct rte_comch_connection *conn, int status)
{
	union rte_comch_data ud = { .ptr = NULL };
	struct rte_comch_ep_peer *peer;

	rte_comch_connection_get_user_data(conn, &ud);
	peer = ud.ptr;
	if (peer == NULL)
		return;
	comch_ep_service_event(peer->ep);
	/*
	 * A client that came and went without the application ever seeing its
	 * peer address (no message, in no snapshot): nobody can release it but
	 * us. Kept, it would stay until the endpoint's destruction, one per such
	 * client (an unbounded leak on a long-lived service).
	 */
	if (!peer->seen)
		comch_ep_peer_release(peer);
	comch_ep_peer_conn_gone(peer, status);
}

/* The server stopped running (a failure, or the endpoint's end): a service event. */
static void
ep_server_state_cb(union rte_comch_data user_data, struct rte_comch_ctx *ctx,
		   enum rte_comch_ctx_state prev, enum rte_comch_ctx_state next)
{
	RTE_SET_USED(ctx);
	if (prev == RTE_COMCH_CTX_STATE_RUNNING && next != RTE_COMCH_CTX_STATE_RUNNING)
		comch_ep_service_event(user_data.ptr);
}

static int
ep_listen(struct rte_comch_ep *ep, const char *name)
{
	struct rte_comch_server *srv;
	struct rte_comch_ctx *ctx;
	int rc;

	if (ep->server != NULL || ep->client != NULL) {
		COMCH_LOG(ERR, "endpoint: already listens or connected");
		return -EBUSY;
	}
	if (ep->dev == NULL || ep->rep == NULL) {
		COMCH_LOG(ERR, "endpoint: listen needs a device and a representor");
		return -EINVAL;
	}
	rc = comch_ep_check_limits(ep);
	if (rc != 0)
		return rc;
	if (ep->svc_fd < 0) {
		ep->svc_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
		if (ep->svc_fd < 0) {
			rc = -errno;
			COMCH_LOG(ERR, "endpoint: service eventfd: %s", strerror(-rc));
			return rc;
		}
	}
	srv = rte_comch_server_create(ep->dev, ep->rep, name);
	if (srv == NULL) {
		rc = -rte_errno;
		COMCH_LOG(ERR, "endpoint: cannot listen on %s: %s", name, strerror(-rc));
		return rc;
	}
	ctx = rte_comch_server_as_ctx(srv);
	if (ep->max_msg_size != 0) {
		rc = rte_comch_server_set_max_msg_size(srv, ep->max_msg_size);
		if (rc != 0)
			goto fail;
	}
	ep->rxq_cap = comch_ep_recv_queue_size(ep);
	rc = rte_comch_server_set_recv_queue_size(srv, ep->rxq_cap);
	if (rc == 0)
		rc = rte_comch_server_task_send_set_conf(srv, comch_ep_send_done_cb,
							 comch_ep_send_done_cb,
							 comch_ep_send_queue_size(ep));
	if (rc == 0)
		rc = rte_comch_server_event_msg_recv_register(srv, comch_ep_recv_cb);
	if (rc == 0)
		rc = rte_comch_server_event_connection_status_changed_register(srv,
				ep_connect_cb, ep_disconnect_cb);
	if (rc == 0)
		rc = rte_comch_ctx_set_user_data(ctx, (union rte_comch_data){ .ptr = ep });
	if (rc == 0)
		rc = rte_comch_ctx_set_state_changed_cb(ctx, ep_server_state_cb);
	if (rc == 0)
		rc = rte_comch_pe_connect_ctx(ep->pe, ctx);
	if (rc != 0)
		goto fail;
	rc = rte_comch_ctx_start(ctx);
	if (rc != 0 && rc != -EINPROGRESS)
		goto fail;
	ep->server = srv;
	comch_ep_progress(ep);
	return 0;
fail:
	COMCH_LOG(ERR, "endpoint: cannot listen on %s: %s", name, strerror(-rc));
	rte_comch_server_destroy(srv);
	return rc;
}

int
rte_comch_ep_listen(struct rte_comch_ep *ep, const char *name)
{
	int rc;

	if (COMCH_EP_BAD(ep) || COMCH_NULL_ARG(name))
		return -EINVAL;
	rc = comch_ep_enter(ep, __func__);
	if (rc != 0)
		return rc;
	rc = ep_listen(ep, name);
	comch_ep_leave(ep);
	return rc;
}

/* ------------------------------------------------------------- client side */

static void
ep_client_state_cb(union rte_comch_data user_data, struct rte_comch_ctx *ctx,
		   enum rte_comch_ctx_state prev, enum rte_comch_ctx_state next)
{
	struct rte_comch_ep *ep = user_data.ptr;
	struct rte_comch_ep_peer *peer = ep->cpeer;
	struct rte_comch_connection *conn;
	int err;

	RTE_SET_USED(prev);
	if (peer == NULL)
		return;
	if (next == RTE_COMCH_CTX_STATE_RUNNING &&
	    rte_comch_client_get_connection(ep->client, &conn) == 0) {
		comch_ep_peer_attach(peer, conn);
	} else if (next == RTE_COMCH_CTX_STATE_IDLE) {
		err = rte_comch_ctx_get_last_error(ctx);
		if (err != 0)
			COMCH_LOG(INFO, "endpoint: connection ended: %s", strerror(-err));
		if (peer->released)
			ep->cpeer = NULL;
		comch_ep_peer_conn_gone(peer, err);
	}
}

/* A client stopped and released can be replaced; returns 0 or -EBUSY. */
static int
ep_client_reap(struct rte_comch_ep *ep)
{
	enum rte_comch_ctx_state st;
	int rc;

	if (ep->client == NULL)
		return 0;
	if (ep->cpeer != NULL && !ep->cpeer->released) {
		COMCH_LOG(ERR, "endpoint: its connection is not released (disconnect it first)");
		return -EBUSY;
	}
	comch_ep_progress(ep);
	rte_comch_ctx_get_state(rte_comch_client_as_ctx(ep->client), &st);
	if (st != RTE_COMCH_CTX_STATE_IDLE) {
		COMCH_LOG(ERR, "endpoint: its previous connection is still closing");
		return -EBUSY;
	}
	rc = rte_comch_client_destroy(ep->client);
	if (rc != 0) {
		COMCH_LOG(ERR, "endpoint: previous client: %s", strerror(-rc));
		return -EBUSY;
	}
	ep->client = NULL;
	ep->cpeer = NULL;
	return 0;
}

static int
ep_connect(struct rte_comch_ep *ep, const char *name, struct rte_comch_ep_peer **peer)
{
	struct rte_comch_client *cli;
	struct rte_comch_ep_peer *p;
	struct rte_comch_ctx *ctx;
	int rc;

	if (ep->server != NULL) {
		COMCH_LOG(ERR, "endpoint: a listening endpoint does not connect");
		return -EBUSY;
	}
	if (ep->dev == NULL) {
		COMCH_LOG(ERR, "endpoint: connect needs a device");
		return -EINVAL;
	}
	rc = ep_client_reap(ep);
	if (rc != 0)
		return rc;
	rc = comch_ep_check_limits(ep);
	if (rc != 0)
		return rc;
	cli = rte_comch_client_create(ep->dev, name);
	if (cli == NULL) {
		rc = -rte_errno;
		COMCH_LOG(ERR, "endpoint: cannot connect to %s: %s", name, strerror(-rc));
		return rc;
	}
	ctx = rte_comch_client_as_ctx(cli);
	rc = 0;
	if (ep->max_msg_size != 0)
		rc = rte_comch_client_set_max_msg_size(cli, ep->max_msg_size);
	ep->rxq_cap = comch_ep_recv_queue_size(ep);
	if (rc == 0)
		rc = rte_comch_client_set_recv_queue_size(cli, ep->rxq_cap);
	if (rc == 0)
		rc = rte_comch_client_task_send_set_conf(cli, comch_ep_send_done_cb,
							 comch_ep_send_done_cb,
							 comch_ep_send_queue_size(ep));
	if (rc == 0)
		rc = rte_comch_client_event_msg_recv_register(cli, comch_ep_recv_cb);
	if (rc == 0)
		rc = rte_comch_ctx_set_state_changed_cb(ctx, ep_client_state_cb);
	if (rc == 0)
		rc = rte_comch_ctx_set_user_data(ctx, (union rte_comch_data){ .ptr = ep });
	if (rc != 0)
		goto fail;
	p = comch_ep_peer_new(ep, NULL);
	if (p == NULL) {
		rc = -ENOMEM;
		goto fail;
	}
	p->connecting = true;
	ep->client = cli;
	ep->cpeer = p;
	rc = rte_comch_pe_connect_ctx(ep->pe, ctx);
	if (rc == 0)
		rc = rte_comch_ctx_start(ctx);
	if (rc != 0 && rc != -EINPROGRESS) {
		ep->client = NULL;
		ep->cpeer = NULL;
		TAILQ_REMOVE(&ep->peers, p, next);
		free(p);
		goto fail;
	}
	*peer = p;
	comch_ep_progress(ep);
	return 0;
fail:
	COMCH_LOG(ERR, "endpoint: cannot connect to %s: %s", name, strerror(-rc));
	rte_comch_client_destroy(cli);
	return rc;
}

int
rte_comch_ep_connect(struct rte_comch_ep *ep, const char *name, struct rte_comch_ep_peer **peer)
{
	int rc;

	if (COMCH_EP_BAD(ep) || COMCH_NULL_ARG(name, peer))
		return -EINVAL;
	rc = comch_ep_enter(ep, __func__);
	if (rc != 0)
		return rc;
	rc = ep_connect(ep, name, peer);
	comch_ep_leave(ep);
	return rc;
}

/* -------------------------------------------------------------- disconnect */

int
rte_comch_ep_disconnect(struct rte_comch_ep *ep, struct rte_comch_ep_peer *peer)
{
	enum rte_comch_ctx_state st;
	int rc;

	if (COMCH_EP_BAD(ep) || COMCH_EP_PEER_BAD(peer))
		return -EINVAL;
	if (peer->ep != ep) {
		COMCH_LOG(ERR, "endpoint: peer %p is not of endpoint %p", (void *)peer, (void *)ep);
		return -EINVAL;
	}
	rc = comch_ep_enter(ep, __func__);
	if (rc != 0)
		return rc;
	comch_ep_progress(ep);
	comch_ep_rxq_purge(ep, peer);
	comch_ep_peer_release(peer);
	/* Hold the peer: the stop below may report IDLE, and end it, before returning. */
	peer->inflight++;
	if (ep->server != NULL && peer->conn != NULL) {
		rc = rte_comch_server_disconnect(ep->server, peer->conn);
		if (rc != 0 && rc != -ENOTCONN)
			COMCH_LOG(ERR, "endpoint: disconnect: %s", strerror(-rc));
	} else if (ep->client != NULL && peer == ep->cpeer) {
		rte_comch_ctx_get_state(rte_comch_client_as_ctx(ep->client), &st);
		if (st == RTE_COMCH_CTX_STATE_IDLE)
			ep->cpeer = NULL;
		else if (st != RTE_COMCH_CTX_STATE_STOPPING)
			rte_comch_ctx_stop(rte_comch_client_as_ctx(ep->client));
	}
	peer->inflight--;
	comch_ep_peer_put(peer);
	comch_ep_progress(ep);
	comch_ep_leave(ep);
	return 0;
}
