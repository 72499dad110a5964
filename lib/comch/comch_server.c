/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/* The server context (BlueField side). */

#include <errno.h>
#include <stdlib.h>

#include <rte_errno.h>

#include "comch_private.h"

/* Handshakes a server's driver may hold before its answer, and how long each may take. */
#define COMCH_HANDSHAKE_TIMEOUT_MS 2000
/* Events taken from the driver per slow tick. */
#define COMCH_SRV_EVENT_BURST 16

static int
comch_server_start(struct rte_comch_ctx *ctx)
{
	struct comch_ctrl *ctrl = container_of(ctx, struct comch_ctrl, ctx);
	struct rte_comch_server *srv = comch_ctrl_server(ctrl);
	int rc;

	if (srv->connect_cb == NULL) {
		COMCH_LOG(ERR, "start: register connection status callbacks first");
		return -EINVAL;
	}
	rc = comch_ctrl_prepare_start(ctrl);
	if (rc < 0)
		return rc;
	rc = ctx->dev->ops->server->start(srv->drv, ctx->pe);
	if (rc < 0) {
		COMCH_LOG(ERR, "server %s: driver cannot listen: %s", ctrl->name, strerror(-rc));
		return rc;
	}
	srv->nb_answered = 0;
	comch_ctx_set_state(ctx, RTE_COMCH_CTX_STATE_RUNNING);
	return 0;
}

static int
comch_server_stop(struct rte_comch_ctx *ctx)
{
	struct comch_ctrl *ctrl = container_of(ctx, struct comch_ctrl, ctx);
	const struct rte_comch_connection *conn;
	int rc;

	/* The connections it closes: none with a producer or consumer at work. */
	TAILQ_FOREACH(conn, &ctrl->conns, next) {
		rc = comch_conn_check_fast_idle(conn, "server stop");
		if (rc < 0)
			return rc;
	}
	ctx->dev->ops->server->stop(comch_ctrl_server(ctrl)->drv);
	/* Nothing to drain: IDLE at once, without a STOPPING in between (as DOCA's). */
	if (ctrl->nb_conns == 0) {
		comch_ctx_set_state(ctx, RTE_COMCH_CTX_STATE_IDLE);
		return 0;
	}
	comch_ctx_set_state(ctx, RTE_COMCH_CTX_STATE_STOPPING);
	comch_ctrl_close_all(ctrl, -ECONNABORTED);
	return -EINPROGRESS;
}

/*
 * Admission, decided here for every driver: 0 with what is agreed, or the
 * positive errno to refuse the client with, and why (for the log).
 */
static int
comch_server_admit(const struct rte_comch_server *srv, const struct rte_comch_drv_offer *o,
		   struct rte_comch_drv_conn_params *agreed, const char **why)
{
	const struct comch_ctrl *ctrl = &srv->ctrl;
	const struct rte_comch_dev_info *info = &ctrl->ctx.dev->info;

	if (strnlen(o->name, sizeof(o->name)) == sizeof(o->name) ||
	    strcmp(o->name, ctrl->name) != 0) {
		*why = "it asked for another server name";
		return ENOENT;
	}
	if (o->max_msg_size != 0 && o->max_msg_size != ctrl->max_msg_size) {
		*why = "its max message size differs";
		return EMSGSIZE;
	}
	if (o->recv_queue_size == 0 || o->recv_queue_size > info->max_recv_queue_size) {
		*why = "its receive queue size is out of range";
		return EPROTO;
	}
	/* Handshakes answered and not yet up count: they will be connections. */
	if (ctrl->nb_conns + srv->nb_answered >= info->max_clients) {
		*why = "too many clients";
		return ECONNREFUSED;
	}
	agreed->max_msg_size = ctrl->max_msg_size;
	agreed->peer_queue_size = o->recv_queue_size;
	agreed->recv_queue_size = ctrl->recv_queue_size;
	return 0;
}

/* A handshake completed: the connection is the library's from now on. */
static void
comch_server_conn_up(struct rte_comch_server *srv, void *drv,
		     const struct rte_comch_drv_conn_params *params)
{
	const struct rte_comch_drv_conn_ops *ops = srv->ctrl.ctx.dev->ops->conn;
	struct rte_comch_connection *conn;

	conn = comch_conn_create(&srv->ctrl, drv, params);
	if (conn == NULL) {
		COMCH_LOG(ERR, "server %s: out of memory for a new connection", srv->ctrl.name);
		ops->close(drv, 0);
		ops->free(drv);
		return;
	}
	comch_pe_enter_cb(srv->ctrl.ctx.pe);
	srv->connect_cb(conn, 0);
	comch_pe_leave_cb(srv->ctrl.ctx.pe);
}

/* An event that arrives after the server stopped, in the same burst. */
static void
comch_server_refuse_event(struct rte_comch_server *srv, const struct rte_comch_drv_srv_event *ev)
{
	const struct rte_comch_drv_ops *ops = srv->ctrl.ctx.dev->ops;

	if (ev->type == RTE_COMCH_DRV_SRV_OFFER) {
		ops->server->answer(srv->drv, ev->hs, ECONNREFUSED, NULL);
	} else if (ev->type == RTE_COMCH_DRV_SRV_UP) {
		ops->conn->close(ev->hs, 0);
		ops->conn->free(ev->hs);
	}
}

/* Slow tick: what the driver's handshakes came to. */
static int
comch_server_poll(struct rte_comch_server *srv, uint64_t now)
{
	const struct rte_comch_drv_server_ops *ops = srv->ctrl.ctx.dev->ops->server;
	struct rte_comch_drv_srv_event ev[COMCH_SRV_EVENT_BURST];
	struct rte_comch_drv_conn_params agreed;
	struct rte_comch_dev *dev = srv->ctrl.ctx.dev;
	const char *why = NULL;
	unsigned int i, n;
	int status;

	n = ops->poll(srv->drv, ev, RTE_DIM(ev), now);
	for (i = 0; i < n; i++) {
		/* A callback may stop the server: what is left of the burst is refused. */
		if (srv->ctrl.ctx.state != RTE_COMCH_CTX_STATE_RUNNING) {
			comch_server_refuse_event(srv, &ev[i]);
			continue;
		}
		switch (ev[i].type) {
		case RTE_COMCH_DRV_SRV_OFFER:
			status = comch_server_admit(srv, &ev[i].offer, &agreed, &why);
			if (status != 0) {
				COMCH_LOG(NOTICE, "server %s: refusing a client: %s",
					  srv->ctrl.name, why);
				comch_dev_count_rejected(dev);
			} else {
				srv->nb_answered++;
			}
			ops->answer(srv->drv, ev[i].hs, status, status == 0 ? &agreed : NULL);
			/* A client that asked for another name is not this server's. */
			if (status != 0 && status != ENOENT)
				comch_conn_report_failed(&srv->ctrl, -status, srv->connect_cb);
			break;
		case RTE_COMCH_DRV_SRV_UP:
			srv->nb_answered--;
			comch_server_conn_up(srv, ev[i].hs, &ev[i].params);
			break;
		case RTE_COMCH_DRV_SRV_FAILED:
			srv->nb_answered--;
			COMCH_LOG(NOTICE, "server %s: a client's handshake failed: %s",
				  srv->ctrl.name, strerror(-ev[i].status));
			comch_dev_count_rejected(dev);
			comch_conn_report_failed(&srv->ctrl, ev[i].status, srv->connect_cb);
			break;
		case RTE_COMCH_DRV_SRV_DROPPED:
			comch_dev_count_rejected(dev);
			/* Refused for a budget: the driver logged it, at a rate it keeps. */
			if (ev[i].status == -EUSERS) {
				comch_dev_count_budget_refusal(dev);
				break;
			}
			COMCH_LOG(NOTICE, "server %s: a client's handshake failed: %s",
				  srv->ctrl.name, strerror(-ev[i].status));
			break;
		}
	}
	return n != 0;
}

/* A connection of the server ended: its disconnect callback says so. */
static void
comch_server_conn_ended(struct comch_ctrl *ctrl, struct rte_comch_connection *conn)
{
	struct rte_comch_server *srv = comch_ctrl_server(ctrl);

	comch_pe_enter_cb(srv->ctrl.ctx.pe);
	srv->disconnect_cb(conn, conn->close_reason);
	comch_pe_leave_cb(srv->ctrl.ctx.pe);
}

static int
comch_server_progress(struct rte_comch_ctx *ctx, bool slow, uint64_t now)
{
	struct comch_ctrl *ctrl = container_of(ctx, struct comch_ctrl, ctx);
	int did = comch_ctrl_progress_conns(ctrl, slow, now, comch_server_conn_ended);

	if (unlikely(slow) && ctx->state == RTE_COMCH_CTX_STATE_RUNNING)
		did |= comch_server_poll(comch_ctrl_server(ctrl), now);
	if (ctx->state == RTE_COMCH_CTX_STATE_STOPPING && ctrl->nb_conns == 0) {
		comch_ctx_set_state(ctx, RTE_COMCH_CTX_STATE_IDLE);
		did = 1;
	}
	return did;
}

static const struct comch_ctx_ops comch_server_ops = {
	.start = comch_server_start,
	.stop = comch_server_stop,
	.progress = comch_server_progress,
	.arm = comch_ctrl_arm,
	.disarm = comch_ctrl_disarm,
};

struct rte_comch_server *
rte_comch_server_create(struct rte_comch_dev *dev, struct rte_comch_dev_rep *rep,
			const char *name)
{
	struct rte_comch_drv_server_conf conf;
	struct rte_comch_server *srv;
	struct comch_ctrl *ctrl;
	int rc;

	if (COMCH_BAD_OBJ(dev, magic, COMCH_MAGIC_DEV)) {
		rte_errno = EINVAL;
		return NULL;
	}
	if ((dev->info.capa & RTE_COMCH_CAPA_SERVER) == 0 || dev->ops->server == NULL) {
		COMCH_LOG(ERR, "device %s: servers run on the BlueField side", dev->info.name);
		rte_errno = EPERM;
		return NULL;
	}
	if (COMCH_BAD_OBJ(rep, magic, COMCH_MAGIC_REP)) {
		rte_errno = EINVAL;
		return NULL;
	}
	if (rep->dev != dev) {
		COMCH_LOG(ERR, "representor %s is not of device %s", rep->name, dev->info.name);
		rte_errno = EINVAL;
		return NULL;
	}
	ctrl = comch_ctrl_alloc(sizeof(*srv), offsetof(struct rte_comch_server, ctrl), dev,
				COMCH_CTX_SERVER, &comch_server_ops, name);
	if (ctrl == NULL)
		return NULL;
	srv = comch_ctrl_server(ctrl);
	srv->rep = rep;
	ctrl->nb_send_tasks = RTE_MIN((uint32_t)RTE_COMCH_DEFAULT_SEND_TASKS,
				      dev->info.max_send_tasks);
	conf.name = ctrl->name;
	conf.rep_name = rep->name;
	conf.max_pending = dev->info.max_clients;
	conf.handshake_ms = COMCH_HANDSHAKE_TIMEOUT_MS;
	rc = dev->ops->server->create(dev->priv, &conf, &srv->drv);
	if (rc < 0) {
		COMCH_LOG(ERR, "server \"%s\" on %s: %s", name, rep->name, strerror(-rc));
		free(srv);
		rte_errno = -rc;
		return NULL;
	}
	rep->nb_servers++;
	dev->nb_users++;
	comch_ctx_publish(&ctrl->ctx);
	return srv;
}

int
rte_comch_server_destroy(struct rte_comch_server *server)
{
	int rc;

	if (COMCH_BAD_SERVER(server))
		return -EINVAL;
	rc = comch_ctrl_release(&server->ctrl);
	if (rc < 0)
		return rc;
	server->ctrl.ctx.dev->ops->server->destroy(server->drv);
	server->rep->nb_servers--;
	server->ctrl.ctx.dev->nb_users--;
	comch_ctx_retire(&server->ctrl.ctx, server);
	return 0;
}

struct rte_comch_ctx *
rte_comch_server_as_ctx(struct rte_comch_server *server)
{
	if (COMCH_BAD_SERVER_FAST(server)) {
		rte_errno = EINVAL;
		return NULL;
	}
	return &server->ctrl.ctx;
}

int
rte_comch_server_set_max_msg_size(struct rte_comch_server *server, uint32_t size)
{
	if (COMCH_BAD_SERVER(server))
		return -EINVAL;
	return comch_ctrl_set_max_msg_size(&server->ctrl, size);
}

int
rte_comch_server_get_max_msg_size(const struct rte_comch_server *server, uint32_t *size)
{
	if (COMCH_BAD_SERVER_FAST(server) || COMCH_NULL_ARG(size))
		return -EINVAL;
	*size = server->ctrl.max_msg_size;
	return 0;
}

int
rte_comch_server_set_recv_queue_size(struct rte_comch_server *server, uint32_t size)
{
	if (COMCH_BAD_SERVER(server))
		return -EINVAL;
	return comch_ctrl_set_recv_queue_size(&server->ctrl, size);
}

int
rte_comch_server_get_recv_queue_size(const struct rte_comch_server *server, uint32_t *size)
{
	if (COMCH_BAD_SERVER_FAST(server) || COMCH_NULL_ARG(size))
		return -EINVAL;
	*size = server->ctrl.recv_queue_size;
	return 0;
}

struct rte_comch_dev *
rte_comch_server_get_device(const struct rte_comch_server *server)
{
	if (COMCH_BAD_SERVER_FAST(server)) {
		rte_errno = EINVAL;
		return NULL;
	}
	return server->ctrl.ctx.dev;
}

struct rte_comch_dev_rep *
rte_comch_server_get_device_rep(const struct rte_comch_server *server)
{
	if (COMCH_BAD_SERVER_FAST(server)) {
		rte_errno = EINVAL;
		return NULL;
	}
	return server->rep;
}

int
rte_comch_server_disconnect(struct rte_comch_server *server, struct rte_comch_connection *conn)
{
	int rc;

	if (COMCH_BAD_SERVER(server) || COMCH_BAD_CONN(conn))
		return -EINVAL;
	if (conn->ctrl != &server->ctrl) {
		COMCH_LOG(ERR, "connection %p is not of server %s", (void *)conn, server->ctrl.name);
		return -EINVAL;
	}
	if (conn->state != COMCH_CONN_ESTABLISHED) {
		COMCH_LOG(ERR, "connection %p is already ending", (void *)conn);
		return -ENOTCONN;
	}
	rc = comch_conn_check_fast_idle(conn, "disconnect");
	if (rc < 0)
		return rc;
	comch_conn_close_local(conn, -ECONNABORTED);
	return 0;
}

int
rte_comch_server_task_send_set_conf(struct rte_comch_server *server,
				    rte_comch_task_send_cb_t completion_cb,
				    rte_comch_task_send_cb_t error_cb, uint32_t num_tasks)
{
	if (COMCH_BAD_SERVER(server))
		return -EINVAL;
	return comch_ctrl_task_send_set_conf(&server->ctrl, completion_cb, error_cb, num_tasks);
}

int
rte_comch_server_task_send_alloc_init(struct rte_comch_server *server,
				      struct rte_comch_connection *conn, const void *msg,
				      uint32_t len, struct rte_comch_task_send **task)
{
	if (unlikely(COMCH_BAD_SERVER_FAST(server)))
		return -EINVAL;
	return comch_ctrl_task_send_alloc_init(&server->ctrl, conn, msg, len, task);
}

int
rte_comch_server_event_msg_recv_register(struct rte_comch_server *server,
					 rte_comch_event_msg_recv_cb_t cb)
{
	if (COMCH_BAD_SERVER(server))
		return -EINVAL;
	return comch_ctrl_event_msg_recv_register(&server->ctrl, cb);
}

int
rte_comch_server_event_connection_status_changed_register(
	struct rte_comch_server *server, rte_comch_event_conn_status_cb_t connect_cb,
	rte_comch_event_conn_status_cb_t disconnect_cb)
{
	int rc;

	if (COMCH_BAD_SERVER(server))
		return -EINVAL;
	rc = comch_ctx_check_idle(&server->ctrl.ctx, "event_connection_status_changed_register");
	if (rc < 0)
		return rc;
	if (connect_cb == NULL || disconnect_cb == NULL) {
		COMCH_LOG(ERR, "%s callback is NULL", connect_cb == NULL ? "connect" : "disconnect");
		return -EINVAL;
	}
	server->connect_cb = connect_cb;
	server->disconnect_cb = disconnect_cb;
	return 0;
}

int
rte_comch_server_event_consumer_register(struct rte_comch_server *server,
					 rte_comch_event_consumer_cb_t new_consumer_cb,
					 rte_comch_event_consumer_cb_t expired_consumer_cb)
{
	if (COMCH_BAD_SERVER(server))
		return -EINVAL;
	return comch_ctrl_event_consumer_register(&server->ctrl, new_consumer_cb,
						  expired_consumer_cb);
}
