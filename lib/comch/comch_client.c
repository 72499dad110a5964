/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/* The client context (host side): one connection to one server. */

#include <errno.h>
#include <stdlib.h>

#include <rte_cycles.h>
#include <rte_errno.h>

#include "comch_private.h"

/* Back off after a failed attempt, 1 ms doubling to 100 ms, remembering why. */
static void
comch_client_backoff(struct rte_comch_client *cli, int reason, uint64_t now)
{
	cli->last_try = reason;
	cli->nb_failed++;
	cli->next_try = now + comch_ms_to_tsc(cli->retry_ms);
	cli->retry_ms = RTE_MIN(cli->retry_ms * 2, 100u);
}

/* Stop connecting: the attempt under way, if any, is given up. */
static void
comch_client_abort_attempt(struct rte_comch_client *cli)
{
	if (cli->hs != NULL)
		cli->ctrl.ctx.dev->ops->client->abort(cli->hs);
	cli->hs = NULL;
}

/* Give up connecting: back to idle, with reason as the context's last error. */
static void
comch_client_fail(struct rte_comch_client *cli, int reason)
{
	comch_client_abort_attempt(cli);
	cli->ctrl.ctx.last_error = reason;
	COMCH_LOG(ERR, "client of %s: cannot connect: %s", cli->ctrl.name, strerror(-reason));
	comch_ctx_set_state(&cli->ctrl.ctx, RTE_COMCH_CTX_STATE_IDLE);
}

/*
 * One connection attempt. A failure of connect itself is retried, but for a
 * name no server can ever have.
 */
static void
comch_client_attempt(struct rte_comch_client *cli, uint64_t now)
{
	const struct rte_comch_dev *dev = cli->ctrl.ctx.dev;
	struct rte_comch_drv_client_conf conf = {
		.name = cli->ctrl.name,
		.max_msg_size = cli->ctrl.max_msg_size_set ? cli->ctrl.max_msg_size : 0,
		.recv_queue_size = cli->ctrl.recv_queue_size,
	};
	int rc;

	rc = dev->ops->client->connect(dev->priv, &conf, cli->ctrl.ctx.pe, &cli->hs);
	if (rc >= 0)
		return;
	cli->hs = NULL;
	/* Nobody there yet, or a transient shortage: again later; a bad name never works. */
	if (rc == -ENAMETOOLONG || rc == -EINVAL || rc == -EACCES || rc == -EPERM)
		comch_client_fail(cli, rc);
	else
		comch_client_backoff(cli, rc, now);
}

static int
comch_client_start(struct rte_comch_ctx *ctx)
{
	struct comch_ctrl *ctrl = container_of(ctx, struct comch_ctrl, ctx);
	struct rte_comch_client *cli = comch_ctrl_client(ctrl);
	uint64_t now = rte_rdtsc();
	int rc;

	rc = comch_ctrl_prepare_start(ctrl);
	if (rc < 0)
		return rc;
	cli->connect_deadline = cli->connect_timeout_ms == 0 ? 0 :
		now + comch_ms_to_tsc(cli->connect_timeout_ms);
	cli->retry_ms = 1;
	cli->next_try = 0;
	cli->last_try = -EINPROGRESS;
	cli->nb_failed = 0;
	comch_ctx_set_state(ctx, RTE_COMCH_CTX_STATE_STARTING);
	comch_client_attempt(cli, now);
	return ctx->state == RTE_COMCH_CTX_STATE_STARTING ? -EINPROGRESS : ctx->last_error;
}

static int
comch_client_stop(struct rte_comch_ctx *ctx)
{
	struct comch_ctrl *ctrl = container_of(ctx, struct comch_ctrl, ctx);
	struct rte_comch_client *cli = comch_ctrl_client(ctrl);
	int rc;

	/* Not connected yet: nothing to drain, IDLE at once (no STOPPING in between). */
	if (ctx->state == RTE_COMCH_CTX_STATE_STARTING) {
		comch_client_abort_attempt(cli);
		comch_ctx_set_state(ctx, RTE_COMCH_CTX_STATE_IDLE);
		return 0;
	}
	/* RUNNING: connected, and the close is the peer's to learn, through progress. */
	rc = cli->conn != NULL ? comch_conn_check_fast_idle(cli->conn, "client stop") : 0;
	if (rc < 0)
		return rc;
	comch_ctx_set_state(ctx, RTE_COMCH_CTX_STATE_STOPPING);
	comch_ctrl_close_all(ctrl, -ECONNABORTED);
	return -EINPROGRESS;
}

/* What a failed connection attempt means, for the log. */
static const char *
comch_client_try_reason(int rc)
{
	switch (rc) {
	case -ENOENT:
		return "no server of that name listens on this function";
	case -ECONNRESET:
		return "the server closed the connection during the handshake";
	case -EINPROGRESS:
		return "no attempt has failed yet";
	default:
		return strerror(-rc);
	}
}

/*
 * The connect timeout expired. The last error says what the attempts met:
 * -ENOENT if no server listened, -ECONNRESET if one kept dropping the
 * handshake, -ETIMEDOUT otherwise (a handshake still running, say).
 */
static void
comch_client_give_up(struct rte_comch_client *cli)
{
	int rc = cli->last_try;

	COMCH_LOG(ERR, "client of %s: gave up after %u ms and %u failed attempts; the last: %s",
		  cli->ctrl.name, cli->connect_timeout_ms, cli->nb_failed,
		  comch_client_try_reason(rc));
	comch_client_fail(cli, rc == -ENOENT || rc == -ECONNRESET ? rc : -ETIMEDOUT);
}

/* Whether what the server agreed is something this client can live with. */
static bool
comch_client_params_ok(const struct rte_comch_client *cli,
		       const struct rte_comch_drv_conn_params *p)
{
	const struct rte_comch_dev_info *info = &cli->ctrl.ctx.dev->info;

	return p->max_msg_size != 0 && p->max_msg_size <= info->max_msg_size &&
	       (!cli->ctrl.max_msg_size_set || p->max_msg_size == cli->ctrl.max_msg_size) &&
	       p->peer_queue_size != 0 && p->peer_queue_size <= info->max_recv_queue_size;
}

/* The server accepted: the connection is the library's from now on. */
static void
comch_client_connected(struct rte_comch_client *cli, void *drv,
		       const struct rte_comch_drv_conn_params *p)
{
	const struct rte_comch_drv_conn_ops *ops = cli->ctrl.ctx.dev->ops->conn;
	struct rte_comch_connection *conn = NULL;
	int reason = -EPROTO;

	if (!comch_client_params_ok(cli, p)) {
		COMCH_LOG(ERR, "client of %s: the server agreed to limits out of range (message "
			  "size %u, queue %u)", cli->ctrl.name, p->max_msg_size, p->peer_queue_size);
	} else {
		conn = comch_conn_create(&cli->ctrl, drv, p);
		reason = -ENOMEM;
	}
	if (conn == NULL) {
		ops->close(drv, reason);
		ops->free(drv);
		comch_client_fail(cli, reason);
		return;
	}
	cli->conn = conn;
	cli->ctrl.max_msg_size = p->max_msg_size;
	comch_ctx_set_state(&cli->ctrl.ctx, RTE_COMCH_CTX_STATE_RUNNING);
}

/* Slow tick while STARTING: the attempt under way, or the next one. */
static void
comch_client_connecting(struct rte_comch_client *cli, uint64_t now)
{
	struct rte_comch_drv_conn_params params;
	void *hs = cli->hs;
	int rc;

	if (hs == NULL) {
		if (now >= cli->next_try)
			comch_client_attempt(cli, now);
	} else {
		rc = cli->ctrl.ctx.dev->ops->client->poll(hs, &params);
		if (rc == 0) {
			cli->hs = NULL;
			comch_client_connected(cli, hs, &params);
			return;
		}
		if (rc != -EINPROGRESS) {
			cli->hs = NULL;
			/*
			 * A server that went away is retried, and so is a name no
			 * server has yet (a transport that asks the peer, as mlx5
			 * does, learns it here rather than from connect); any
			 * other refusal is final.
			 */
			if (rc == -ECONNRESET || rc == -ENOENT)
				comch_client_backoff(cli, rc, now);
			else
				comch_client_fail(cli, rc);
		}
	}
	if (cli->ctrl.ctx.state == RTE_COMCH_CTX_STATE_STARTING && cli->connect_deadline != 0 &&
	    now >= cli->connect_deadline)
		comch_client_give_up(cli);
}

/* The client's connection ended: the client stops, saying why unless asked to. */
static void
comch_client_conn_ended(struct comch_ctrl *ctrl, struct rte_comch_connection *conn)
{
	struct rte_comch_client *cli = comch_ctrl_client(ctrl);
	struct rte_comch_ctx *ctx = &cli->ctrl.ctx;

	cli->conn = NULL;
	/* Not asked to stop: the connection ended under us, say why. */
	if (ctx->state == RTE_COMCH_CTX_STATE_RUNNING) {
		ctx->last_error = conn->close_reason;
		comch_ctx_set_state(ctx, RTE_COMCH_CTX_STATE_STOPPING);
	}
}

static int
comch_client_progress(struct rte_comch_ctx *ctx, bool slow, uint64_t now)
{
	struct comch_ctrl *ctrl = container_of(ctx, struct comch_ctrl, ctx);
	struct rte_comch_client *cli = comch_ctrl_client(ctrl);
	int did = comch_ctrl_progress_conns(ctrl, slow, now, comch_client_conn_ended);

	if (unlikely(slow) && ctx->state == RTE_COMCH_CTX_STATE_STARTING) {
		comch_client_connecting(cli, now);
		did |= ctx->state != RTE_COMCH_CTX_STATE_STARTING;
	}
	if (ctx->state == RTE_COMCH_CTX_STATE_STOPPING && cli->conn == NULL) {
		comch_ctx_set_state(ctx, RTE_COMCH_CTX_STATE_IDLE);
		did = 1;
	}
	return did;
}

static const struct comch_ctx_ops comch_client_ops = {
	.start = comch_client_start,
	.stop = comch_client_stop,
	.progress = comch_client_progress,
	.arm = comch_ctrl_arm,
	.disarm = comch_ctrl_disarm,
};


struct rte_comch_client *
rte_comch_client_create(struct rte_comch_dev *dev, const char *server_name)
{
	struct rte_comch_client *cli;
	struct comch_ctrl *ctrl;

	if (COMCH_BAD_OBJ(dev, magic, COMCH_MAGIC_DEV)) {
		rte_errno = EINVAL;
		return NULL;
	}
	if ((dev->info.capa & RTE_COMCH_CAPA_CLIENT) == 0 || dev->ops->client == NULL) {
		COMCH_LOG(ERR, "device %s: clients run on the host side", dev->info.name);
		rte_errno = EPERM;
		return NULL;
	}
	ctrl = comch_ctrl_alloc(sizeof(*cli), offsetof(struct rte_comch_client, ctrl), dev,
				COMCH_CTX_CLIENT, &comch_client_ops, server_name);
	if (ctrl == NULL)
		return NULL;
	cli = comch_ctrl_client(ctrl);
	cli->connect_timeout_ms = RTE_COMCH_DEFAULT_CONNECT_TIMEOUT_MS;
	ctrl->nb_send_tasks = RTE_MIN((uint32_t)RTE_COMCH_DEFAULT_SEND_TASKS,
				      dev->info.max_send_tasks);
	dev->nb_users++;
	comch_ctx_publish(&ctrl->ctx);
	return cli;
}

int
rte_comch_client_destroy(struct rte_comch_client *client)
{
	int rc;

	if (COMCH_BAD_CLIENT(client))
		return -EINVAL;
	rc = comch_ctrl_release(&client->ctrl);
	if (rc < 0)
		return rc;
	client->ctrl.ctx.dev->nb_users--;
	comch_ctx_retire(&client->ctrl.ctx, client);
	return 0;
}

struct rte_comch_ctx *
rte_comch_client_as_ctx(struct rte_comch_client *client)
{
	if (COMCH_BAD_CLIENT_FAST(client)) {
		rte_errno = EINVAL;
		return NULL;
	}
	return &client->ctrl.ctx;
}

int
rte_comch_client_set_max_msg_size(struct rte_comch_client *client, uint32_t size)
{
	if (COMCH_BAD_CLIENT(client))
		return -EINVAL;
	return comch_ctrl_set_max_msg_size(&client->ctrl, size);
}

int
rte_comch_client_get_max_msg_size(const struct rte_comch_client *client, uint32_t *size)
{
	if (COMCH_BAD_CLIENT_FAST(client) || COMCH_NULL_ARG(size))
		return -EINVAL;
	*size = client->ctrl.max_msg_size;
	return 0;
}

int
rte_comch_client_set_recv_queue_size(struct rte_comch_client *client, uint32_t size)
{
	if (COMCH_BAD_CLIENT(client))
		return -EINVAL;
	return comch_ctrl_set_recv_queue_size(&client->ctrl, size);
}

int
rte_comch_client_get_recv_queue_size(const struct rte_comch_client *client, uint32_t *size)
{
	if (COMCH_BAD_CLIENT_FAST(client) || COMCH_NULL_ARG(size))
		return -EINVAL;
	*size = client->ctrl.recv_queue_size;
	return 0;
}

int
rte_comch_client_set_connect_timeout(struct rte_comch_client *client, uint32_t timeout_ms)
{
	int rc;

	if (COMCH_BAD_CLIENT(client))
		return -EINVAL;
	rc = comch_ctx_check_idle(&client->ctrl.ctx, "set_connect_timeout");
	if (rc == 0)
		client->connect_timeout_ms = timeout_ms;
	return rc;
}

struct rte_comch_dev *
rte_comch_client_get_device(const struct rte_comch_client *client)
{
	if (COMCH_BAD_CLIENT_FAST(client)) {
		rte_errno = EINVAL;
		return NULL;
	}
	return client->ctrl.ctx.dev;
}

int
rte_comch_client_get_connection(const struct rte_comch_client *client,
				struct rte_comch_connection **conn)
{
	if (COMCH_BAD_CLIENT_FAST(client) || COMCH_NULL_ARG(conn))
		return -EINVAL;
	if (client->ctrl.ctx.state != RTE_COMCH_CTX_STATE_RUNNING || client->conn == NULL) {
		COMCH_LOG(ERR, "client of %s is not connected", client->ctrl.name);
		return -ENOTCONN;
	}
	*conn = client->conn;
	return 0;
}

int
rte_comch_client_task_send_set_conf(struct rte_comch_client *client,
				    rte_comch_task_send_cb_t completion_cb,
				    rte_comch_task_send_cb_t error_cb, uint32_t num_tasks)
{
	if (COMCH_BAD_CLIENT(client))
		return -EINVAL;
	return comch_ctrl_task_send_set_conf(&client->ctrl, completion_cb, error_cb, num_tasks);
}

int
rte_comch_client_task_send_alloc_init(struct rte_comch_client *client,
				      struct rte_comch_connection *conn, const void *msg,
				      uint32_t len, struct rte_comch_task_send **task)
{
	if (unlikely(COMCH_BAD_CLIENT_FAST(client)))
		return -EINVAL;
	return comch_ctrl_task_send_alloc_init(&client->ctrl, conn, msg, len, task);
}

int
rte_comch_client_event_msg_recv_register(struct rte_comch_client *client,
					 rte_comch_event_msg_recv_cb_t cb)
{
	if (COMCH_BAD_CLIENT(client))
		return -EINVAL;
	return comch_ctrl_event_msg_recv_register(&client->ctrl, cb);
}

int
rte_comch_client_event_consumer_register(struct rte_comch_client *client,
					 rte_comch_event_consumer_cb_t new_consumer_cb,
					 rte_comch_event_consumer_cb_t expired_consumer_cb)
{
	if (COMCH_BAD_CLIENT(client))
		return -EINVAL;
	return comch_ctrl_event_consumer_register(&client->ctrl, new_consumer_cb,
						  expired_consumer_cb);
}
