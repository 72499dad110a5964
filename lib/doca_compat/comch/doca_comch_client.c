/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/* DOCA Comch clients over rte_comch clients. */

#include <errno.h>
#include <stdlib.h>

#include <rte_errno.h>

#include "doca_comch_private.h"

#define DC_CLI_CTX(c) rte_comch_client_as_ctx((c)->rc)
#define DC_CLI_IDLE(c, rc) dc_ctx_err(DC_CLI_CTX(c), (rc), RTE_COMCH_CTX_STATE_IDLE)

doca_error_t
doca_comch_client_create(struct doca_dev *dev, const char *server_name,
			 struct doca_comch_client **client)
{
	struct rte_comch_dev *rdev;
	struct doca_comch_client *c;

	DC_OBJ_ARG(dev, DC_KIND_DEV);
	DC_NULL_ARG(server_name);
	DC_NULL_ARG(client);
	rdev = doca_compat_dev_get_held(dev, DOCA_COMPAT_ROLE_HOST);
	if (rdev == NULL)
		return DOCA_ERROR_NOT_PERMITTED;
	c = calloc(1, sizeof(*c));
	if (c == NULL) {
		doca_compat_dev_release(dev);
		return DOCA_ERROR_NO_MEMORY;
	}
	c->rc = rte_comch_client_create(rdev, server_name);
	if (c->rc == NULL) {
		doca_error_t ret = rte_comch_doca_error_from_errno(-rte_errno);

		free(c);
		doca_compat_dev_release(dev);
		return ret;
	}
	dc_ctx_init(&c->c.ctx, DC_CTX_CLIENT, DC_CLI_CTX(c), dev);
	*client = c;
	return DOCA_SUCCESS;
}

doca_error_t
doca_comch_client_destroy(struct doca_comch_client *client)
{
	int rc;

	DC_OBJ_ARG(client, DC_KIND_CLIENT);
	rc = rte_comch_client_destroy(client->rc);
	if (rc != 0)
		return DC_CLI_IDLE(client, rc);
	dc_ctx_fini(&client->c.ctx, client);
	return DOCA_SUCCESS;
}

doca_error_t
doca_comch_client_set_max_msg_size(struct doca_comch_client *client, uint32_t size)
{
	DC_OBJ_ARG(client, DC_KIND_CLIENT);
	return DC_CLI_IDLE(client, rte_comch_client_set_max_msg_size(client->rc, size));
}

doca_error_t
doca_comch_client_get_max_msg_size(const struct doca_comch_client *client, uint32_t *size)
{
	DC_OBJ_ARG(client, DC_KIND_CLIENT);
	return rte_comch_doca_error_from_errno(rte_comch_client_get_max_msg_size(client->rc, size));
}

doca_error_t
doca_comch_client_set_recv_queue_size(struct doca_comch_client *client, uint32_t size)
{
	DC_OBJ_ARG(client, DC_KIND_CLIENT);
	return DC_CLI_IDLE(client, rte_comch_client_set_recv_queue_size(client->rc, size));
}

doca_error_t
doca_comch_client_get_recv_queue_size(const struct doca_comch_client *client, uint32_t *size)
{
	DC_OBJ_ARG(client, DC_KIND_CLIENT);
	return rte_comch_doca_error_from_errno(
		rte_comch_client_get_recv_queue_size(client->rc, size));
}

doca_error_t
doca_comch_client_get_device(const struct doca_comch_client *client, struct doca_dev **dev)
{
	DC_OBJ_ARG(client, DC_KIND_CLIENT);
	DC_NULL_ARG(dev);
	*dev = client->c.ctx.dev;
	return DOCA_SUCCESS;
}

struct doca_ctx *
doca_comch_client_as_ctx(struct doca_comch_client *client)
{
	return DC_BAD_OBJ(client, DC_KIND_CLIENT) ? NULL : &client->c.ctx;
}

doca_error_t
doca_comch_client_get_connection(const struct doca_comch_client *client,
				 struct doca_comch_connection **connection)
{
	int rc;

	DC_OBJ_ARG(client, DC_KIND_CLIENT);
	DC_NULL_ARG(connection);
	rc = rte_comch_client_get_connection(client->rc,
					     (struct rte_comch_connection **)connection);
	if (rc == -ENOTCONN)
		return DOCA_ERROR_BAD_STATE; /* not RUNNING yet, or any more */
	return rte_comch_doca_error_from_errno(rc);
}

doca_error_t
doca_comch_client_task_send_set_conf(struct doca_comch_client *client,
				     doca_comch_task_send_completion_cb_t task_completion_cb,
				     doca_comch_task_send_completion_cb_t task_error_cb,
				     uint32_t num_send_tasks)
{
	int rc;

	DC_OBJ_ARG(client, DC_KIND_CLIENT);
	DC_NULL_ARG(task_completion_cb);
	DC_NULL_ARG(task_error_cb);
	rc = rte_comch_client_task_send_set_conf(client->rc, dc_comch_send_ok, dc_comch_send_err,
						 num_send_tasks);
	if (rc == 0) {
		client->c.send_ok = task_completion_cb;
		client->c.send_err = task_error_cb;
	}
	return DC_CLI_IDLE(client, rc);
}

doca_error_t
doca_comch_client_task_send_alloc_init(struct doca_comch_client *client,
				       struct doca_comch_connection *peer, const void *msg,
				       uint32_t len, struct doca_comch_task_send **task)
{
	int rc;

	DC_OBJ_ARG_FAST(client, DC_KIND_CLIENT);
	rc = rte_comch_client_task_send_alloc_init(client->rc, DC_CONN(peer), msg, len,
						   (struct rte_comch_task_send **)task);
	if (rc == -EMSGSIZE)
		return DOCA_ERROR_INVALID_VALUE; /* DOCA: a length above the maximum is a bad value */
	return dc_ctx_err(DC_CLI_CTX(client), rc, RTE_COMCH_CTX_STATE_RUNNING);
}

doca_error_t
doca_comch_client_event_msg_recv_register(struct doca_comch_client *client,
					  doca_comch_event_msg_recv_cb_t recv_event_cb)
{
	int rc;

	DC_OBJ_ARG(client, DC_KIND_CLIENT);
	DC_NULL_ARG(recv_event_cb);
	rc = rte_comch_client_event_msg_recv_register(client->rc, dc_comch_msg_recv);
	if (rc == 0)
		client->c.recv_cb = recv_event_cb;
	return DC_CLI_IDLE(client, rc);
}

doca_error_t
doca_comch_client_event_consumer_register(struct doca_comch_client *client,
					  doca_comch_event_consumer_cb_t new_consumer_event_cb,
					  doca_comch_event_consumer_cb_t expired_consumer_event_cb)
{
	int rc;

	DC_OBJ_ARG(client, DC_KIND_CLIENT);
	DC_NULL_ARG(new_consumer_event_cb);
	DC_NULL_ARG(expired_consumer_event_cb);
	rc = rte_comch_client_event_consumer_register(client->rc, dc_comch_new_consumer,
						      dc_comch_expired_consumer);
	if (rc == 0) {
		client->c.new_consumer = new_consumer_event_cb;
		client->c.expired_consumer = expired_consumer_event_cb;
	}
	return DC_CLI_IDLE(client, rc);
}
