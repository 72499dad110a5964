/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/* The server context (BlueField side). */

#include <errno.h>
#include <stdlib.h>

#include <rte_errno.h>

#include "comch_private.h"

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
	rc = ctx->dev->ops->server_start(srv);
	if (rc < 0) {
		COMCH_LOG(ERR, "server %s: driver cannot listen: %s", ctrl->name, strerror(-rc));
		return rc;
	}
	comch_ctx_set_state(ctx, RTE_COMCH_CTX_STATE_RUNNING);
	return 0;
}

static int
comch_server_stop(struct rte_comch_ctx *ctx)
{
	struct comch_ctrl *ctrl = container_of(ctx, struct comch_ctrl, ctx);
	int rc = comch_ctrl_check_no_fast(ctrl, "stop");

	if (rc < 0)
		return rc;

	ctx->dev->ops->server_stop(comch_ctrl_server(ctrl));
	comch_ctx_set_state(ctx, RTE_COMCH_CTX_STATE_STOPPING);
	comch_ctrl_close_all(ctrl, -ECONNABORTED);
	if (ctrl->nb_conns != 0)
		return -EINPROGRESS;
	comch_ctx_set_state(ctx, RTE_COMCH_CTX_STATE_IDLE);
	return 0;
}

static int
comch_server_progress(struct rte_comch_ctx *ctx, bool slow, uint64_t now)
{
	struct comch_ctrl *ctrl = container_of(ctx, struct comch_ctrl, ctx);
	int did = comch_ctrl_progress_conns(ctrl, now);

	if (unlikely(slow) && ctx->state == RTE_COMCH_CTX_STATE_RUNNING)
		ctx->dev->ops->server_tick(comch_ctrl_server(ctrl), now);
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

void
comch_server_conn_ended(struct rte_comch_server *srv, struct rte_comch_connection *conn)
{
	comch_pe_enter_cb(srv->ctrl.ctx.pe);
	srv->disconnect_cb(conn, conn->close_reason);
	comch_pe_leave_cb(srv->ctrl.ctx.pe);
}

struct rte_comch_connection *
comch_server_conn_new(struct rte_comch_server *srv, void *priv, const struct comch_conn_params *p)
{
	struct rte_comch_connection *conn;

	if (srv->ctrl.ctx.state != RTE_COMCH_CTX_STATE_RUNNING)
		return NULL;
	conn = comch_conn_create(&srv->ctrl, priv, p);
	if (conn == NULL) {
		COMCH_LOG(ERR, "server %s: out of memory for a new connection", srv->ctrl.name);
		return NULL;
	}
	comch_pe_enter_cb(srv->ctrl.ctx.pe);
	srv->connect_cb(conn, 0);
	comch_pe_leave_cb(srv->ctrl.ctx.pe);
	return conn;
}


struct rte_comch_server *
rte_comch_server_create(struct rte_comch_dev *dev, struct rte_comch_dev_rep *rep,
			const char *name)
{
	struct rte_comch_server *srv;
	struct comch_ctrl *ctrl;
	int rc;

	if (COMCH_BAD_OBJ(dev, magic, COMCH_MAGIC_DEV)) {
		rte_errno = EINVAL;
		return NULL;
	}
	if (dev->role != RTE_COMCH_ROLE_DPU) {
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
	rc = dev->ops->server_create(srv);
	if (rc < 0) {
		COMCH_LOG(ERR, "server \"%s\" on %s: %s", name, rep->name, strerror(-rc));
		free(srv);
		rte_errno = -rc;
		return NULL;
	}
	rep->nb_servers++;
	dev->nb_users++;
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
	server->ctrl.ctx.dev->ops->server_destroy(server);
	server->rep->nb_servers--;
	server->ctrl.ctx.dev->nb_users--;
	comch_obj_kill(&server->ctrl.ctx.magic);
	free(server);
	return 0;
}

struct rte_comch_ctx *
rte_comch_server_as_ctx(struct rte_comch_server *server)
{
	if (COMCH_BAD_SERVER(server)) {
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
	if (COMCH_BAD_SERVER(server) || COMCH_NULL_ARG(size))
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
	if (COMCH_BAD_SERVER(server) || COMCH_NULL_ARG(size))
		return -EINVAL;
	*size = server->ctrl.recv_queue_size;
	return 0;
}

struct rte_comch_dev *
rte_comch_server_get_device(const struct rte_comch_server *server)
{
	if (COMCH_BAD_SERVER(server)) {
		rte_errno = EINVAL;
		return NULL;
	}
	return server->ctrl.ctx.dev;
}

struct rte_comch_dev_rep *
rte_comch_server_get_device_rep(const struct rte_comch_server *server)
{
	if (COMCH_BAD_SERVER(server)) {
		rte_errno = EINVAL;
		return NULL;
	}
	return server->rep;
}

int
rte_comch_server_disconnect(struct rte_comch_server *server, struct rte_comch_connection *conn)
{
	if (COMCH_BAD_SERVER(server) || COMCH_NULL_ARG(conn))
		return -EINVAL;
	if (conn->ctrl != &server->ctrl) {
		COMCH_LOG(ERR, "connection %p is not of server %s", (void *)conn, server->ctrl.name);
		return -EINVAL;
	}
	if (conn->state != COMCH_CONN_ESTABLISHED) {
		COMCH_LOG(ERR, "connection %p is already ending", (void *)conn);
		return -ENOTCONN;
	}
	if (conn->nb_fast != 0) {
		COMCH_LOG(ERR, "connection %p: %u producers or consumers still exist on it: "
			  "destroy them first", (void *)conn, conn->nb_fast);
		return -EBUSY;
	}
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
	if (unlikely(COMCH_BAD_SERVER(server)))
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
