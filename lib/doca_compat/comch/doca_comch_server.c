/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/* DOCA Comch servers over rte_comch servers. */

#include <errno.h>
#include <stdlib.h>

#include <rte_errno.h>

#include "doca_comch_private.h"
#include "doca_dev_private.h"

#define DC_SRV_CTX(s) rte_comch_server_as_ctx((s)->rs)
#define DC_SRV_IDLE(s, rc) dc_ctx_err(DC_SRV_CTX(s), (rc), RTE_COMCH_CTX_STATE_IDLE)

doca_error_t
doca_comch_server_create(struct doca_dev *dev, struct doca_dev_rep *repr, const char *name,
			 struct doca_comch_server **server)
{
	struct rte_comch_dev *rdev;
	struct doca_comch_server *s;

	DC_OBJ_ARG(dev, DC_KIND_DEV);
	DC_OBJ_ARG(repr, DC_KIND_DEV_REP);
	DC_NULL_ARG(name);
	DC_NULL_ARG(server);
	if (doca_compat_rep_dev(repr)->info != dev->info) {
		DC_LOG(ERR, "the representor is not one of the device's");
		return DOCA_ERROR_INVALID_VALUE;
	}
	rdev = doca_compat_dev_get_held(dev, DOCA_COMPAT_ROLE_DPU);
	if (rdev == NULL)
		return DOCA_ERROR_NOT_PERMITTED;
	s = calloc(1, sizeof(*s));
	if (s == NULL) {
		doca_compat_dev_release(dev);
		return DOCA_ERROR_NO_MEMORY;
	}
	s->rs = rte_comch_server_create(rdev, doca_compat_rep_get(repr), name);
	if (s->rs == NULL) {
		doca_error_t ret = rte_errno == EEXIST ? DOCA_ERROR_ALREADY_EXIST :
				   rte_comch_doca_error_from_errno(-rte_errno);

		free(s);
		doca_compat_dev_release(dev);
		return ret;
	}
	s->rep = repr;
	dc_ctx_init(&s->c.ctx, DC_CTX_SERVER, DC_SRV_CTX(s), dev);
	*server = s;
	return DOCA_SUCCESS;
}

doca_error_t
doca_comch_server_destroy(struct doca_comch_server *server)
{
	int rc;

	DC_OBJ_ARG(server, DC_KIND_SERVER);
	rc = rte_comch_server_destroy(server->rs);
	if (rc != 0)
		return DC_SRV_IDLE(server, rc);
	dc_ctx_fini(&server->c.ctx, server);
	return DOCA_SUCCESS;
}

doca_error_t
doca_comch_server_set_max_msg_size(struct doca_comch_server *server, uint32_t size)
{
	DC_OBJ_ARG(server, DC_KIND_SERVER);
	return DC_SRV_IDLE(server, rte_comch_server_set_max_msg_size(server->rs, size));
}

doca_error_t
doca_comch_server_get_max_msg_size(const struct doca_comch_server *server, uint32_t *size)
{
	DC_OBJ_ARG(server, DC_KIND_SERVER);
	return rte_comch_doca_error_from_errno(rte_comch_server_get_max_msg_size(server->rs, size));
}

doca_error_t
doca_comch_server_set_recv_queue_size(struct doca_comch_server *server, uint32_t size)
{
	DC_OBJ_ARG(server, DC_KIND_SERVER);
	return DC_SRV_IDLE(server, rte_comch_server_set_recv_queue_size(server->rs, size));
}

doca_error_t
doca_comch_server_get_recv_queue_size(const struct doca_comch_server *server, uint32_t *size)
{
	DC_OBJ_ARG(server, DC_KIND_SERVER);
	return rte_comch_doca_error_from_errno(
		rte_comch_server_get_recv_queue_size(server->rs, size));
}

doca_error_t
doca_comch_server_get_device(const struct doca_comch_server *server, struct doca_dev **dev)
{
	DC_OBJ_ARG(server, DC_KIND_SERVER);
	DC_NULL_ARG(dev);
	*dev = server->c.ctx.dev;
	return DOCA_SUCCESS;
}

doca_error_t
doca_comch_server_get_device_rep(const struct doca_comch_server *server,
				 struct doca_dev_rep **rep)
{
	DC_OBJ_ARG(server, DC_KIND_SERVER);
	DC_NULL_ARG(rep);
	*rep = server->rep;
	return DOCA_SUCCESS;
}

struct doca_ctx *
doca_comch_server_as_ctx(struct doca_comch_server *server)
{
	return DC_BAD_OBJ(server, DC_KIND_SERVER) ? NULL : &server->c.ctx;
}

doca_error_t
doca_comch_server_disconnect(struct doca_comch_server *server,
			     struct doca_comch_connection *connection)
{
	int rc;

	DC_OBJ_ARG(server, DC_KIND_SERVER);
	DC_NULL_ARG(connection);
	rc = rte_comch_server_disconnect(server->rs, DC_CONN(connection));
	/* -EBUSY here is about the connection's producers and consumers, never a state. */
	return rte_comch_doca_error_from_errno(rc);
}

doca_error_t
doca_comch_server_task_send_set_conf(struct doca_comch_server *server,
				     doca_comch_task_send_completion_cb_t task_completion_cb,
				     doca_comch_task_send_completion_cb_t task_error_cb,
				     uint32_t num_send_tasks)
{
	int rc;

	DC_OBJ_ARG(server, DC_KIND_SERVER);
	DC_NULL_ARG(task_completion_cb);
	DC_NULL_ARG(task_error_cb);
	rc = rte_comch_server_task_send_set_conf(server->rs, dc_comch_send_ok, dc_comch_send_err,
						 num_send_tasks);
	if (rc == 0) {
		server->c.send_ok = task_completion_cb;
		server->c.send_err = task_error_cb;
	}
	return DC_SRV_IDLE(server, rc);
}

doca_error_t
doca_comch_server_task_send_alloc_init(struct doca_comch_server *server,
				       struct doca_comch_connection *peer, const void *msg,
				       uint32_t len, struct doca_comch_task_send **task)
{
	int rc;

	DC_OBJ_ARG_FAST(server, DC_KIND_SERVER);
	rc = rte_comch_server_task_send_alloc_init(server->rs, DC_CONN(peer), msg, len,
						   (struct rte_comch_task_send **)task);
	if (rc == -EMSGSIZE)
		return DOCA_ERROR_INVALID_VALUE; /* DOCA: a length above the maximum is a bad value */
	return dc_ctx_err(DC_SRV_CTX(server), rc, RTE_COMCH_CTX_STATE_RUNNING);
}

doca_error_t
doca_comch_server_event_msg_recv_register(struct doca_comch_server *server,
					  doca_comch_event_msg_recv_cb_t recv_event_cb)
{
	int rc;

	DC_OBJ_ARG(server, DC_KIND_SERVER);
	DC_NULL_ARG(recv_event_cb);
	rc = rte_comch_server_event_msg_recv_register(server->rs, dc_comch_msg_recv);
	if (rc == 0)
		server->c.recv_cb = recv_event_cb;
	return DC_SRV_IDLE(server, rc);
}

static void
dc_server_conn_status(struct rte_comch_connection *conn, bool up, uint8_t ok)
{
	struct doca_comch_server *s = (struct doca_comch_server *)dc_comch_of_conn(conn);
	doca_comch_event_connection_status_changed_cb_t cb = up ? s->connect_cb : s->disconnect_cb;

	cb(dc_comch_conn_event(), DC_DCONN(conn), ok);
}

/* A client that connected (status 0), or one that could not: change_successful 0. */
static void
dc_server_connected(struct rte_comch_connection *conn, int status)
{
	dc_server_conn_status(conn, true, status == 0);
}

/* Either side closed it in order; anything else is a connection that failed. */
static void
dc_server_disconnected(struct rte_comch_connection *conn, int status)
{
	dc_server_conn_status(conn, false, status == -ECONNABORTED);
}

doca_error_t
doca_comch_server_event_connection_status_changed_register(
	struct doca_comch_server *server,
	doca_comch_event_connection_status_changed_cb_t connect_cb,
	doca_comch_event_connection_status_changed_cb_t disconnect_cb)
{
	int rc;

	DC_OBJ_ARG(server, DC_KIND_SERVER);
	DC_NULL_ARG(connect_cb);
	DC_NULL_ARG(disconnect_cb);
	rc = rte_comch_server_event_connection_status_changed_register(server->rs,
		dc_server_connected, dc_server_disconnected);
	if (rc == 0) {
		server->connect_cb = connect_cb;
		server->disconnect_cb = disconnect_cb;
	}
	return DC_SRV_IDLE(server, rc);
}

doca_error_t
doca_comch_server_event_consumer_register(struct doca_comch_server *server,
					  doca_comch_event_consumer_cb_t new_consumer_event_cb,
					  doca_comch_event_consumer_cb_t expired_consumer_event_cb)
{
	int rc;

	DC_OBJ_ARG(server, DC_KIND_SERVER);
	DC_NULL_ARG(new_consumer_event_cb);
	DC_NULL_ARG(expired_consumer_event_cb);
	rc = rte_comch_server_event_consumer_register(server->rs, dc_comch_new_consumer,
						      dc_comch_expired_consumer);
	if (rc == 0) {
		server->c.new_consumer = new_consumer_event_cb;
		server->c.expired_consumer = expired_consumer_event_cb;
	}
	return DC_SRV_IDLE(server, rc);
}
