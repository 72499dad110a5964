/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Connections and send tasks (rte_comch's, cast) and the callbacks servers and
 * clients share: each finds the DOCA wrapper through the connection's context.
 */


#include "doca_comch_private.h"

/* DOCA passes event objects to callbacks; they carry nothing programs read. */
struct doca_comch_event_msg_recv {
	int unused;
};
struct doca_comch_event_connection_status_changed {
	int unused;
};
struct doca_comch_event_consumer {
	int unused;
};
static struct doca_comch_event_msg_recv dc_ev_msg_recv;
static struct doca_comch_event_connection_status_changed dc_ev_conn;
static struct doca_comch_event_consumer dc_ev_consumer;

struct doca_comch_event_connection_status_changed *
dc_comch_conn_event(void)
{
	return &dc_ev_conn;
}

struct dc_comch *
dc_comch_of_conn(const struct rte_comch_connection *conn)
{
	return (struct dc_comch *)dc_ctx_of(rte_comch_connection_get_ctx(conn));
}

void
dc_comch_send_ok(struct rte_comch_task_send *task, union rte_comch_data task_user_data,
		 union rte_comch_data ctx_user_data)
{
	struct dc_comch *c = ctx_user_data.ptr;

	c->send_ok((struct doca_comch_task_send *)task, dc_data_from(task_user_data),
		   c->ctx.user_data);
}

void
dc_comch_send_err(struct rte_comch_task_send *task, union rte_comch_data task_user_data,
		  union rte_comch_data ctx_user_data)
{
	struct dc_comch *c = ctx_user_data.ptr;

	c->send_err((struct doca_comch_task_send *)task, dc_data_from(task_user_data),
		    c->ctx.user_data);
}

void
dc_comch_msg_recv(struct rte_comch_connection *conn, const uint8_t *msg, uint32_t len)
{
	struct dc_comch *c = dc_comch_of_conn(conn);

	/* DOCA's callback takes a non-const pointer; the bytes are valid during the call. */
	c->recv_cb(&dc_ev_msg_recv, (uint8_t *)(uintptr_t)msg, len, DC_DCONN(conn));
}

void
dc_comch_new_consumer(struct rte_comch_connection *conn, uint32_t consumer_id)
{
	struct dc_comch *c = dc_comch_of_conn(conn);

	if (c->new_consumer != NULL)
		c->new_consumer(&dc_ev_consumer, DC_DCONN(conn), consumer_id);
}

void
dc_comch_expired_consumer(struct rte_comch_connection *conn, uint32_t consumer_id)
{
	struct dc_comch *c = dc_comch_of_conn(conn);

	if (c->expired_consumer != NULL)
		c->expired_consumer(&dc_ev_consumer, DC_DCONN(conn), consumer_id);
}

doca_error_t
doca_comch_connection_set_user_data(struct doca_comch_connection *connection,
				    union doca_data user_data)
{
	DC_NULL_ARG(connection);
	return rte_comch_doca_error_from_errno(
		rte_comch_connection_set_user_data(DC_CONN(connection), dc_data_to(user_data)));
}

union doca_data
doca_comch_connection_get_user_data(const struct doca_comch_connection *connection)
{
	union rte_comch_data d = { .u64 = 0 };

	if (connection != NULL)
		rte_comch_connection_get_user_data(DC_CCONN(connection), &d);
	return dc_data_from(d);
}

struct doca_comch_server *
doca_comch_server_get_server_ctx(const struct doca_comch_connection *connection)
{
	struct rte_comch_server *rs;

	if (connection == NULL)
		return NULL;
	rs = rte_comch_connection_get_server(DC_CCONN(connection));
	if (rs == NULL)
		return NULL;
	return (struct doca_comch_server *)dc_ctx_of(rte_comch_server_as_ctx(rs));
}

struct doca_comch_client *
doca_comch_client_get_client_ctx(const struct doca_comch_connection *connection)
{
	struct rte_comch_client *rc;

	if (connection == NULL)
		return NULL;
	rc = rte_comch_connection_get_client(DC_CCONN(connection));
	if (rc == NULL)
		return NULL;
	return (struct doca_comch_client *)dc_ctx_of(rte_comch_client_as_ctx(rc));
}

doca_error_t
doca_comch_connection_update_info(const struct doca_comch_connection *connection)
{
	DC_NULL_ARG(connection);
	return rte_comch_doca_error_from_errno(
		rte_comch_connection_update_info(DC_CCONN(connection)));
}

doca_error_t
doca_comch_connection_get_counter(const struct doca_comch_connection *connection,
				  enum doca_comch_counter counter, uint64_t *value)
{
	struct rte_comch_conn_stats st;
	int rc;

	DC_NULL_ARG(connection);
	DC_NULL_ARG(value);
	rc = rte_comch_connection_get_stats(DC_CCONN(connection), &st);
	if (rc != 0)
		return rte_comch_doca_error_from_errno(rc);
	switch (counter) {
	case DOCA_COMCH_COUNTER_SENT_MESSAGES:
		*value = st.sent_messages;
		break;
	case DOCA_COMCH_COUNTER_SENT_BYTES:
		*value = st.sent_bytes;
		break;
	case DOCA_COMCH_COUNTER_RECV_MESSAGES:
		*value = st.recv_messages;
		break;
	case DOCA_COMCH_COUNTER_RECV_BYTES:
		*value = st.recv_bytes;
		break;
	default:
		DC_LOG(ERR, "unknown counter %d", (int)counter);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

