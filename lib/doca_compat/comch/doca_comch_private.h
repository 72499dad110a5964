/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef DOCA_COMCH_PRIVATE_H
#define DOCA_COMCH_PRIVATE_H

/* What servers and clients share: the DOCA callbacks rte_comch's trampolines call. */

#include "doca_comch.h"
#include "doca_compat_private.h"

/* Connections and send tasks are rte_comch's own, cast. */
#define DC_CONN(c) ((struct rte_comch_connection *)(c))
#define DC_CCONN(c) ((const struct rte_comch_connection *)(c))
#define DC_DCONN(c) ((struct doca_comch_connection *)(c))
#define DC_SEND(t) ((struct rte_comch_task_send *)(t))

/* The part of a server or client wrapper the shared trampolines use. */
struct dc_comch {
	struct doca_ctx ctx;	/* first: a context's user data points here */
	doca_comch_task_send_completion_cb_t send_ok;
	doca_comch_task_send_completion_cb_t send_err;
	doca_comch_event_msg_recv_cb_t recv_cb;
	doca_comch_event_consumer_cb_t new_consumer;
	doca_comch_event_consumer_cb_t expired_consumer;
};

struct doca_comch_server {
	struct dc_comch c;	/* first */
	struct rte_comch_server *rs;
	struct doca_dev_rep *rep;
	doca_comch_event_connection_status_changed_cb_t connect_cb;
	doca_comch_event_connection_status_changed_cb_t disconnect_cb;
};

struct doca_comch_client {
	struct dc_comch c;	/* first */
	struct rte_comch_client *rc;
};
DC_OBJ_FIRST(struct doca_comch_server, c.ctx.obj);
DC_OBJ_FIRST(struct doca_comch_client, c.ctx.obj);

/* rte_comch callbacks that call the DOCA ones of the connection's server or client. */
DC_INTERNAL void
dc_comch_send_ok(struct rte_comch_task_send *task, union rte_comch_data task_user_data,
		 union rte_comch_data ctx_user_data);
DC_INTERNAL void
dc_comch_send_err(struct rte_comch_task_send *task, union rte_comch_data task_user_data,
		  union rte_comch_data ctx_user_data);
DC_INTERNAL void
dc_comch_msg_recv(struct rte_comch_connection *conn, const uint8_t *msg, uint32_t len);
DC_INTERNAL void
dc_comch_new_consumer(struct rte_comch_connection *conn, uint32_t consumer_id);
DC_INTERNAL void
dc_comch_expired_consumer(struct rte_comch_connection *conn, uint32_t consumer_id);
/* The server or client wrapper a connection belongs to. */
DC_INTERNAL struct dc_comch *
dc_comch_of_conn(const struct rte_comch_connection *conn);
/* The DOCA event objects passed to callbacks (programs never read them). */
DC_INTERNAL struct doca_comch_event_connection_status_changed *
dc_comch_conn_event(void);

struct doca_comch_consumer;
struct doca_comch_producer;

/*
 * MsgQ (doca_comch_msgq.c): wrap an rte_comch consumer or producer a MsgQ
 * made, as doca_comch_consumer_create() and _producer_create() wrap theirs
 * (published, IDLE; DOCA_ERROR_NO_MEMORY and the rte_comch object destroyed if
 * the wrapper cannot be had), and the rte_comch object of a wrapper the caller
 * checked.
 */
DC_INTERNAL doca_error_t
dc_consumer_wrap(struct rte_comch_consumer *rc, struct doca_comch_consumer **consumer);
DC_INTERNAL struct rte_comch_consumer *
dc_consumer_rte(const struct doca_comch_consumer *consumer);
DC_INTERNAL doca_error_t
dc_producer_wrap(struct rte_comch_producer *rp, struct doca_comch_producer **producer);
DC_INTERNAL struct rte_comch_producer *
dc_producer_rte(const struct doca_comch_producer *producer);

#endif /* DOCA_COMCH_PRIVATE_H */
