/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef DOCA_COMPAT_COMCH_H
#define DOCA_COMPAT_COMCH_H

/**
 * @file
 * DOCA compatibility layer: Comch control path (servers, clients, connections,
 * send tasks, message / connection / consumer events) and capability queries,
 * over rte_comch servers, clients and connections.
 *
 * Servers run on the BlueField side (a device with a representor), clients on
 * the host side; see doca_dev.h for how a program's device becomes one side.
 *
 * Thread-safety: a server or client, its connections and its tasks are used by
 * the thread that progresses its engine; capability queries from any thread.
 */

#include <stdint.h>

#include <doca_error.h>
#include <doca_types.h>
#include <doca_compat_fast.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_ctx;
struct doca_dev;
struct doca_dev_rep;
struct doca_devinfo;
struct doca_task;

struct doca_comch_server;
struct doca_comch_client;
struct doca_comch_connection;
struct doca_comch_task_send;
struct doca_comch_event_msg_recv;
struct doca_comch_event_connection_status_changed;
struct doca_comch_event_consumer;

/**
 * Send task completion or error callback.
 * @param task The task; doca_task_get_status() gives the result.
 * @param task_user_data The task's user data.
 * @param ctx_user_data The server's or client's user data.
 */
typedef void (*doca_comch_task_send_completion_cb_t)(struct doca_comch_task_send *task,
						     union doca_data task_user_data,
						     union doca_data ctx_user_data);

/**
 * A message arrived. The bytes are valid during the callback only; they are
 * read where the peer wrote them: copy before validating if the peer is not
 * trusted.
 * @param event The event (no fields to read).
 * @param recv_buffer The message.
 * @param msg_len Its length.
 * @param comch_connection The connection it came on.
 */
typedef void (*doca_comch_event_msg_recv_cb_t)(struct doca_comch_event_msg_recv *event,
					       uint8_t *recv_buffer, uint32_t msg_len,
					       struct doca_comch_connection *comch_connection);

/**
 * A client connected to the server, or a connection ended.
 * @param event The event (no fields to read).
 * @param comch_connection The connection.
 * @param change_successful 1; a connection that fails is never reported.
 */
typedef void (*doca_comch_event_connection_status_changed_cb_t)(
	struct doca_comch_event_connection_status_changed *event,
	struct doca_comch_connection *comch_connection, uint8_t change_successful);

/**
 * A consumer on the other side of a connection started (new) or stopped (expired).
 * @param event The event (no fields to read).
 * @param comch_connection The connection.
 * @param id The consumer's id (never 0).
 */
typedef void (*doca_comch_event_consumer_cb_t)(struct doca_comch_event_consumer *event,
					       struct doca_comch_connection *comch_connection,
					       uint32_t id);

/** Connection counters (doca_comch_connection_get_counter()). */
enum doca_comch_counter {
	DOCA_COMCH_COUNTER_SENT_MESSAGES = 0, /**< Messages the peer took. */
	DOCA_COMCH_COUNTER_SENT_BYTES = 1,    /**< Their bytes. */
	DOCA_COMCH_COUNTER_RECV_MESSAGES = 2, /**< Messages delivered to the receive callback. */
	DOCA_COMCH_COUNTER_RECV_BYTES = 3,    /**< Their bytes. */
};

/* ------------------------------------------------------------ capabilities */

/**
 * Longest server name, including the NUL.
 * @param devinfo The device.
 * @param max_name_len Set to the length.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument; errors of
 *   opening the device for the question.
 */
doca_error_t
doca_comch_cap_get_max_name_len(const struct doca_devinfo *devinfo, uint32_t *max_name_len);

/**
 * Largest control-path message.
 * @param devinfo The device.
 * @param size Set to the size.
 * @return As doca_comch_cap_get_max_name_len().
 */
doca_error_t
doca_comch_cap_get_max_msg_size(const struct doca_devinfo *devinfo, uint32_t *size);

/**
 * Largest receive queue.
 * @param devinfo The device.
 * @param size Set to the number of messages.
 * @return As doca_comch_cap_get_max_name_len().
 */
doca_error_t
doca_comch_cap_get_max_recv_queue_size(const struct doca_devinfo *devinfo, uint32_t *size);

/**
 * Most clients connected to one server.
 * @param devinfo The device.
 * @param num_clients Set to the number.
 * @return As doca_comch_cap_get_max_name_len().
 */
doca_error_t
doca_comch_cap_get_max_clients(const struct doca_devinfo *devinfo, uint32_t *num_clients);

/**
 * Most send tasks of one server or client.
 * @param devinfo The device.
 * @param max_send_tasks Set to the number.
 * @return As doca_comch_cap_get_max_name_len().
 */
doca_error_t
doca_comch_cap_get_max_send_tasks(const struct doca_devinfo *devinfo, uint32_t *max_send_tasks);

/**
 * Whether servers can run on the device: yes for a BlueField-side device, and
 * for one that may still become it (see doca_dev.h).
 * @param devinfo The device.
 * @return DOCA_SUCCESS if so; DOCA_ERROR_NOT_SUPPORTED if not;
 *   DOCA_ERROR_INVALID_VALUE if devinfo is NULL.
 */
doca_error_t
doca_comch_cap_server_is_supported(const struct doca_devinfo *devinfo);

/**
 * Whether clients can run on the device: yes for a host-side device, and for
 * one not pinned to the BlueField side that nothing uses as it yet.
 * @param devinfo The device.
 * @return As doca_comch_cap_server_is_supported().
 */
doca_error_t
doca_comch_cap_client_is_supported(const struct doca_devinfo *devinfo);

/* ------------------------------------------------------------------ server */

/**
 * Create a server, named name, on a device's representor (the device becomes
 * the BlueField side).
 * @param dev The device.
 * @param repr One of its representors.
 * @param name The name clients connect to.
 * @param server Set to the server.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (NULL argument, name too long
 *   or empty); DOCA_ERROR_NOT_PERMITTED if the device cannot be the BlueField
 *   side; DOCA_ERROR_ALREADY_EXIST if the name is taken on the representor;
 *   DOCA_ERROR_NO_MEMORY.
 */
doca_error_t
doca_comch_server_create(struct doca_dev *dev, struct doca_dev_rep *repr, const char *name,
			 struct doca_comch_server **server);

/**
 * Destroy an IDLE server.
 * @param server The server.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if NULL; DOCA_ERROR_BAD_STATE
 *   if it is not IDLE; DOCA_ERROR_IN_USE while connections (kept by tasks,
 *   producers or consumers) remain; DOCA_ERROR_UNKNOWN if called from inside
 *   a callback of its progress engine (rte_comch's -EDEADLK).
 */
doca_error_t
doca_comch_server_destroy(struct doca_comch_server *server);

/**
 * Set the largest message (IDLE only).
 * @param server The server.
 * @param size 1 to doca_comch_cap_get_max_msg_size().
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (NULL, size out of range);
 *   DOCA_ERROR_BAD_STATE if not IDLE.
 */
doca_error_t
doca_comch_server_set_max_msg_size(struct doca_comch_server *server, uint32_t size);

/**
 * The largest message.
 * @param server The server.
 * @param size Set to it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument.
 */
doca_error_t
doca_comch_server_get_max_msg_size(const struct doca_comch_server *server, uint32_t *size);

/**
 * Set the receive queue size (IDLE only).
 * @param server The server.
 * @param size 1 to doca_comch_cap_get_max_recv_queue_size().
 * @return As doca_comch_server_set_max_msg_size().
 */
doca_error_t
doca_comch_server_set_recv_queue_size(struct doca_comch_server *server, uint32_t size);

/**
 * The receive queue size.
 * @param server The server.
 * @param size Set to it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument.
 */
doca_error_t
doca_comch_server_get_recv_queue_size(const struct doca_comch_server *server, uint32_t *size);

/**
 * The server's device.
 * @param server The server.
 * @param dev Set to the device handle given at creation.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument.
 */
doca_error_t
doca_comch_server_get_device(const struct doca_comch_server *server, struct doca_dev **dev);

/**
 * The server's representor.
 * @param server The server.
 * @param rep Set to the representor handle given at creation.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument.
 */
doca_error_t
doca_comch_server_get_device_rep(const struct doca_comch_server *server,
				 struct doca_dev_rep **rep);

/**
 * The server as a context.
 * @param server The server.
 * @return Its context; NULL (with a log line) if server is not a live server.
 */
struct doca_ctx *
doca_comch_server_as_ctx(struct doca_comch_server *server);

/**
 * Close a connection of the server; the client sees it end.
 * @param server The server.
 * @param connection One of its connections.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (NULL, not the server's);
 *   DOCA_ERROR_IN_USE while producers or consumers are active on it;
 *   DOCA_ERROR_NOT_CONNECTED if it has ended already.
 */
doca_error_t
doca_comch_server_disconnect(struct doca_comch_server *server,
			     struct doca_comch_connection *connection);

/**
 * Configure the server's send tasks (IDLE only; mandatory).
 * @param server The server.
 * @param task_completion_cb Called when a message was sent.
 * @param task_error_cb Called when it could not be.
 * @param num_send_tasks Size of the pool.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (NULL, bad number);
 *   DOCA_ERROR_BAD_STATE if not IDLE; DOCA_ERROR_IN_USE if the pool changes
 *   size while tasks taken from it are not all freed.
 */
doca_error_t
doca_comch_server_task_send_set_conf(struct doca_comch_server *server,
				     doca_comch_task_send_completion_cb_t task_completion_cb,
				     doca_comch_task_send_completion_cb_t task_error_cb,
				     uint32_t num_send_tasks);

/**
 * Take a send task for a message on a connection. The message is copied at
 * submit and must not change until the task completes.
 * @param server A RUNNING server.
 * @param peer The connection.
 * @param msg The message (NULL only with len 0).
 * @param len Its length, at most the max message size.
 * @param task Set to the task.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (NULL, conn not the server's,
 *   len too big); DOCA_ERROR_NO_MEMORY if the pool is empty;
 *   DOCA_ERROR_BAD_STATE if the server is not RUNNING;
 *   DOCA_ERROR_NOT_CONNECTED if the connection ended.
 */
doca_error_t
doca_comch_server_task_send_alloc_init(struct doca_comch_server *server,
				       struct doca_comch_connection *peer, const void *msg,
				       uint32_t len, struct doca_comch_task_send **task);

/**
 * Register the message callback (IDLE only; mandatory).
 * @param server The server.
 * @param recv_event_cb The callback.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on NULL; DOCA_ERROR_BAD_STATE if not IDLE.
 */
doca_error_t
doca_comch_server_event_msg_recv_register(struct doca_comch_server *server,
					  doca_comch_event_msg_recv_cb_t recv_event_cb);

/**
 * Register the connection callbacks (IDLE only; mandatory).
 * @param server The server.
 * @param connect_cb Called for each new connection.
 * @param disconnect_cb Called when a connection ends, for either side's reason.
 * @return As doca_comch_server_event_msg_recv_register().
 */
doca_error_t
doca_comch_server_event_connection_status_changed_register(
	struct doca_comch_server *server,
	doca_comch_event_connection_status_changed_cb_t connect_cb,
	doca_comch_event_connection_status_changed_cb_t disconnect_cb);

/**
 * Register the consumer callbacks (IDLE only): consumers the client starts or stops.
 * @param server The server.
 * @param new_consumer_event_cb Called when one starts.
 * @param expired_consumer_event_cb Called when one stops.
 * @return As doca_comch_server_event_msg_recv_register().
 */
doca_error_t
doca_comch_server_event_consumer_register(struct doca_comch_server *server,
					  doca_comch_event_consumer_cb_t new_consumer_event_cb,
					  doca_comch_event_consumer_cb_t expired_consumer_event_cb);

/* ------------------------------------------------------------------ client */

/**
 * Create a client of the server named server_name (the device is the host side).
 * @param dev The device.
 * @param server_name The server's name.
 * @param client Set to the client.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (NULL, name too long or
 *   empty); DOCA_ERROR_NOT_PERMITTED if the device is the BlueField side;
 *   DOCA_ERROR_NO_MEMORY.
 */
doca_error_t
doca_comch_client_create(struct doca_dev *dev, const char *server_name,
			 struct doca_comch_client **client);

/**
 * Destroy an IDLE client.
 * @param client The client.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if NULL; DOCA_ERROR_BAD_STATE
 *   if not IDLE; DOCA_ERROR_IN_USE while its connection is kept by tasks,
 *   producers or consumers; DOCA_ERROR_UNKNOWN if called from inside a
 *   callback of its progress engine (rte_comch's -EDEADLK).
 */
doca_error_t
doca_comch_client_destroy(struct doca_comch_client *client);

/**
 * Set the largest message (IDLE only); the server's must be as large.
 * @param client The client.
 * @param size 1 to doca_comch_cap_get_max_msg_size().
 * @return As doca_comch_server_set_max_msg_size().
 */
doca_error_t
doca_comch_client_set_max_msg_size(struct doca_comch_client *client, uint32_t size);

/**
 * The largest message.
 * @param client The client.
 * @param size Set to it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument.
 */
doca_error_t
doca_comch_client_get_max_msg_size(const struct doca_comch_client *client, uint32_t *size);

/**
 * Set the receive queue size (IDLE only).
 * @param client The client.
 * @param size 1 to doca_comch_cap_get_max_recv_queue_size().
 * @return As doca_comch_server_set_max_msg_size().
 */
doca_error_t
doca_comch_client_set_recv_queue_size(struct doca_comch_client *client, uint32_t size);

/**
 * The receive queue size.
 * @param client The client.
 * @param size Set to it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument.
 */
doca_error_t
doca_comch_client_get_recv_queue_size(const struct doca_comch_client *client, uint32_t *size);

/**
 * The client's device.
 * @param client The client.
 * @param dev Set to the device handle given at creation.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument.
 */
doca_error_t
doca_comch_client_get_device(const struct doca_comch_client *client, struct doca_dev **dev);

/**
 * The client as a context.
 * @param client The client.
 * @return Its context; NULL (with a log line) if client is not a live client.
 */
struct doca_ctx *
doca_comch_client_as_ctx(struct doca_comch_client *client);

/**
 * The client's connection, once the client is RUNNING.
 * @param client The client.
 * @param connection Set to the connection.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument;
 *   DOCA_ERROR_BAD_STATE if not connected.
 */
doca_error_t
doca_comch_client_get_connection(const struct doca_comch_client *client,
				 struct doca_comch_connection **connection);

/**
 * Configure the client's send tasks (IDLE only; mandatory).
 * @param client The client.
 * @param task_completion_cb Called when a message was sent.
 * @param task_error_cb Called when it could not be.
 * @param num_send_tasks Size of the pool.
 * @return As doca_comch_server_task_send_set_conf().
 */
doca_error_t
doca_comch_client_task_send_set_conf(struct doca_comch_client *client,
				     doca_comch_task_send_completion_cb_t task_completion_cb,
				     doca_comch_task_send_completion_cb_t task_error_cb,
				     uint32_t num_send_tasks);

/**
 * Take a send task for a message to the server.
 * @param client A RUNNING client.
 * @param peer Its connection.
 * @param msg The message.
 * @param len Its length.
 * @param task Set to the task.
 * @return As doca_comch_server_task_send_alloc_init().
 */
doca_error_t
doca_comch_client_task_send_alloc_init(struct doca_comch_client *client,
				       struct doca_comch_connection *peer, const void *msg,
				       uint32_t len, struct doca_comch_task_send **task);

/**
 * Register the message callback (IDLE only; mandatory).
 * @param client The client.
 * @param recv_event_cb The callback.
 * @return As doca_comch_server_event_msg_recv_register().
 */
doca_error_t
doca_comch_client_event_msg_recv_register(struct doca_comch_client *client,
					  doca_comch_event_msg_recv_cb_t recv_event_cb);

/**
 * Register the consumer callbacks (IDLE only): consumers the server starts or stops.
 * @param client The client.
 * @param new_consumer_event_cb Called when one starts.
 * @param expired_consumer_event_cb Called when one stops.
 * @return As doca_comch_server_event_msg_recv_register().
 */
doca_error_t
doca_comch_client_event_consumer_register(struct doca_comch_client *client,
					  doca_comch_event_consumer_cb_t new_consumer_event_cb,
					  doca_comch_event_consumer_cb_t expired_consumer_event_cb);

/* -------------------------------------------------------------- connection */

/**
 * Set a connection's user data.
 * @param connection The connection.
 * @param user_data The data.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if connection is NULL.
 */
doca_error_t
doca_comch_connection_set_user_data(struct doca_comch_connection *connection,
				    union doca_data user_data);

/**
 * A connection's user data.
 * @param connection The connection.
 * @return Its user data; zero if connection is NULL.
 */
union doca_data
doca_comch_connection_get_user_data(const struct doca_comch_connection *connection);

/**
 * The server a connection belongs to.
 * @param connection The connection.
 * @return The server; NULL if connection is NULL or a client's.
 */
struct doca_comch_server *
doca_comch_server_get_server_ctx(const struct doca_comch_connection *connection);

/**
 * The client a connection belongs to.
 * @param connection The connection.
 * @return The client; NULL if connection is NULL or a server's.
 */
struct doca_comch_client *
doca_comch_client_get_client_ctx(const struct doca_comch_connection *connection);

/**
 * Whether a connection can be used.
 * @param connection The connection.
 * @return DOCA_SUCCESS if established; DOCA_ERROR_CONNECTION_RESET if the peer
 *   died or broke the protocol; DOCA_ERROR_CONNECTION_ABORTED if it was closed in
 *   order; DOCA_ERROR_INVALID_VALUE if NULL. Never CONNECTION_INPROGRESS: a
 *   connection is handed out only once established.
 */
doca_error_t
doca_comch_connection_update_info(const struct doca_comch_connection *connection);

/**
 * Read one of a connection's counters.
 * @param connection The connection.
 * @param counter Which one.
 * @param value Set to its value.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on NULL or an unknown counter.
 */
doca_error_t
doca_comch_connection_get_counter(const struct doca_comch_connection *connection,
				  enum doca_comch_counter counter, uint64_t *value);

/* --------------------------------------------------------------- send task */

/**
 * The generic task of a send task.
 * @param task The send task.
 * @return The task; NULL if task is NULL.
 */
static inline struct doca_task *
doca_comch_task_send_as_task(struct doca_comch_task_send *task)
{
	return task == NULL ? NULL :
		(struct doca_task *)rte_comch_task_send_as_task((struct rte_comch_task_send *)task);
}

#ifdef __cplusplus
}
#endif

#endif /* DOCA_COMPAT_COMCH_H */
