/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef RTE_COMCH_CTRL_H
#define RTE_COMCH_CTRL_H

/**
 * @file
 * Control path: server, client, connection, send task and receive events.
 *
 * A server runs on the BlueField side, on one device and one representor, under
 * a name unique for that representor. A client runs on the host side and
 * connects to one server by its exact name, through its own host function. An
 * established pair is a connection; either side sends messages on it with send
 * tasks and receives them through the receive event.
 *
 * Message semantics:
 * - A message is at most the connection's max message size (the same on both
 *   sides: a client that sets a different size is refused with -EMSGSIZE).
 * - Messages on one connection arrive in the order their tasks were submitted,
 *   each exactly once, whole.
 * - A send task completes successfully once the peer has taken the message
 *   from its receive queue and handed it to its receive callback, and only
 *   then: a message is either taken (success) or not (error), never both.
 *   A task in flight when the connection ends completes with an error:
 *   -ECONNRESET if the peer died or broke the protocol, -ECONNABORTED if the
 *   peer closed the connection without taking the message, -ETIMEDOUT if our
 *   own close waited longer than the drain timeout (1 s) for the peer to take it.
 *   -ETIMEDOUT is the one exception to "never both": a peer that was stalled
 *   inside its own callback for longer than the drain timeout may still take
 *   the message afterwards, before it sees the close.
 * - Closing a connection on one side (rte_comch_server_disconnect(), or
 *   rte_comch_ctx_stop()) is orderly: no new sends are accepted and nothing more
 *   is delivered from that connection, while what was already sent drains.
 * - At most the peer's receive queue size of messages are in flight on a
 *   connection; rte_comch_task_submit() returns -EAGAIN beyond that. A
 *   receiver that cannot take more pauses the connection
 *   (rte_comch_connection_recv_pause()): its messages wait, and so does the
 *   sender, until it resumes.
 *
 * Thread safety: servers, clients, connections and their tasks are used by
 * the thread using their engine (any thread, one at a time: rte_comch_pe.h).
 */

#include <stdint.h>

#include <rte_compat.h>

#include <rte_comch_types.h>
#include <rte_comch_dev.h>
#include <rte_comch_ctx.h>
#include <rte_comch_task.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rte_comch_server;
struct rte_comch_client;
struct rte_comch_connection;
struct rte_comch_task_send;

/** Default control-path message size, when none is set. */
#define RTE_COMCH_DEFAULT_MSG_SIZE 4080
/** Default receive queue size, in messages. */
#define RTE_COMCH_DEFAULT_RECV_QUEUE_SIZE 64
/** Default number of send tasks in a pool. */
#define RTE_COMCH_DEFAULT_SEND_TASKS 1024
/** Default time a client keeps trying to reach its server, in milliseconds. */
#define RTE_COMCH_DEFAULT_CONNECT_TIMEOUT_MS 5000

/**
 * Send task completion or error callback.
 *
 * @param task          The task; rte_comch_task_get_status() gives the result.
 * @param task_user_data The task's user data.
 * @param ctx_user_data  The context's user data.
 */
typedef void (*rte_comch_task_send_cb_t)(struct rte_comch_task_send *task,
					 union rte_comch_data task_user_data,
					 union rte_comch_data ctx_user_data);

/**
 * Message received callback. The message is valid only during the callback.
 * It is read in place, in memory the peer shares: a malicious peer can change
 * the bytes while the callback runs. Copy a message before validating it if the
 * peer is not trusted. (Its length is checked, and never changes.)
 *
 * @param conn The connection the message arrived on.
 * @param msg  The message.
 * @param len  Its length in bytes (0 is a valid message).
 */
typedef void (*rte_comch_event_msg_recv_cb_t)(struct rte_comch_connection *conn,
					      const uint8_t *msg, uint32_t len);

/**
 * Connection status callback (server side).
 *
 * The connection callback also reports a client that asked for this server
 * and could not connect (as DOCA reports a connection that failed): status is
 * then negative, and conn is a connection that ended before it began, valid
 * only during the callback: its getters and user data work, everything else
 * answers -ENOTCONN, and nothing about it needs to be undone.
 *
 * @param conn   The connection. After a disconnection callback returns, the
 *               connection is over: it stays allocated only while send
 *               tasks, producers or consumers still point at it, and is freed
 *               with the last of them. Do not keep the pointer otherwise.
 * @param status For a new connection, 0. For a client that could not
 *               connect: -EMSGSIZE (its max message size differs),
 *               -ECONNREFUSED (the server has max_clients), -EPROTO (a receive
 *               queue size out of range, or a broken handshake), or the reason
 *               its handshake failed after the server accepted it
 *               (-ECONNRESET if it left, -ETIMEDOUT...). For a disconnection:
 *               -ECONNABORTED if either side closed it in order, -ECONNRESET
 *               if the peer died, -EPROTO if the peer broke the protocol and
 *               was dropped.
 */
typedef void (*rte_comch_event_conn_status_cb_t)(struct rte_comch_connection *conn, int status);

/**
 * New or expired consumer callback: a consumer on the other side of conn was
 * started (producers may now send to it) or stopped (they may no longer).
 *
 * @param conn        The connection.
 * @param consumer_id The consumer's id.
 */
typedef void (*rte_comch_event_consumer_cb_t)(struct rte_comch_connection *conn,
					      uint32_t consumer_id);

/** Per-connection counters, read with rte_comch_connection_get_stats(). */
struct rte_comch_conn_stats {
	uint64_t sent_messages;  /**< Messages the peer has taken. */
	uint64_t sent_bytes;     /**< Bytes of those messages. */
	uint64_t recv_messages;  /**< Messages delivered to the receive callback. */
	uint64_t recv_bytes;     /**< Bytes of those messages. */
};

/* ------------------------------------------------------------------ server */

/**
 * Create a server (BlueField side).
 *
 * @param dev  A DPU-role device.
 * @param rep  A representor of dev: only clients of that host function reach it.
 * @param name Server name, unique per representor, shorter than the device's
 *             max_name_len.
 * @return
 *   The server, or NULL with rte_errno set:
 *   - EINVAL: a NULL argument, an empty name, or rep not of dev.
 *   - ENAMETOOLONG: name is too long.
 *   - EPERM: dev is a host-side device.
 *   - EEXIST: a server of that name already exists on this representor, in this
 *     or any other process.
 *   - ENOMEM: out of memory.
 *   - Another errno value from the driver when it cannot set the server up
 *     (the shm driver: its socket or lock file cannot be created).
 */
__rte_experimental
struct rte_comch_server *
rte_comch_server_create(struct rte_comch_dev *dev, struct rte_comch_dev_rep *rep,
			const char *name);

/**
 * Destroy a server.
 *
 * @param server The server; IDLE.
 * @return
 *   0 on success; -EINVAL if server is NULL; -EBUSY if it is not IDLE, if send
 *   tasks taken from its pool have not been freed, or if producers or
 *   consumers created on its connections still exist (IDLE ones too);
 *   -EDEADLK if called from inside a callback of the server's engine.
 */
__rte_experimental
int
rte_comch_server_destroy(struct rte_comch_server *server);

/**
 * The server's context, for the rte_comch_ctx_* and rte_comch_pe_* calls.
 *
 * @param server The server.
 * @return
 *   The context, or NULL with rte_errno set to EINVAL if server is NULL.
 */
__rte_experimental
struct rte_comch_ctx *
rte_comch_server_as_ctx(struct rte_comch_server *server);

/**
 * Set the largest message the server's connections carry. Only while IDLE.
 *
 * @param server The server.
 * @param size   Largest message in bytes, 1 to the device's max_msg_size.
 * @return
 *   0 on success; -EINVAL if server is NULL or size is 0; -EMSGSIZE if size is
 *   above the device's max_msg_size; -EBUSY if the server is not IDLE.
 */
__rte_experimental
int
rte_comch_server_set_max_msg_size(struct rte_comch_server *server, uint32_t size);

/**
 * Read the largest message size.
 *
 * @param server The server.
 * @param size   Set to the largest message size in bytes.
 * @return
 *   0 on success; -EINVAL if server or size is NULL.
 */
__rte_experimental
int
rte_comch_server_get_max_msg_size(const struct rte_comch_server *server, uint32_t *size);

/**
 * Set how many messages each connection can queue towards the server.
 * Only while IDLE.
 *
 * @param server The server.
 * @param size   Messages each connection can queue, 1 to the device's
 *               max_recv_queue_size.
 * @return
 *   0 on success; -EINVAL if server is NULL, size is 0 or above the device's
 *   max_recv_queue_size; -EBUSY if the server is not IDLE.
 */
__rte_experimental
int
rte_comch_server_set_recv_queue_size(struct rte_comch_server *server, uint32_t size);

/**
 * Read the receive queue size.
 *
 * @param server The server.
 * @param size   Set to the receive queue size, in messages.
 * @return
 *   0 on success; -EINVAL if server or size is NULL.
 */
__rte_experimental
int
rte_comch_server_get_recv_queue_size(const struct rte_comch_server *server, uint32_t *size);

/**
 * The device the server was created on.
 *
 * @param server The server.
 * @return
 *   The device, or NULL with rte_errno set to EINVAL if server is NULL.
 */
__rte_experimental
struct rte_comch_dev *
rte_comch_server_get_device(const struct rte_comch_server *server);

/**
 * The representor the server was created on.
 *
 * @param server The server.
 * @return
 *   The representor, or NULL with rte_errno set to EINVAL if server is NULL.
 */
__rte_experimental
struct rte_comch_dev_rep *
rte_comch_server_get_device_rep(const struct rte_comch_server *server);

/**
 * Register the new and expired consumer callbacks (fast path; optional). Only
 * while IDLE. They run on the server's engine.
 *
 * @param server              The server.
 * @param new_consumer_cb     Called when a consumer of a client is started.
 * @param expired_consumer_cb Called when a consumer of a client is stopped.
 * @return
 *   0 on success; -EINVAL if any argument is NULL; -EBUSY if not IDLE.
 */
__rte_experimental
int
rte_comch_server_event_consumer_register(struct rte_comch_server *server,
					 rte_comch_event_consumer_cb_t new_consumer_cb,
					 rte_comch_event_consumer_cb_t expired_consumer_cb);

/**
 * Disconnect one connection, in order. From this call on, nothing the client
 * sends is delivered on it and new submits fail with -ENOTCONN. Messages the
 * server already sent stay in flight until the client takes them (they
 * complete successfully) or the drain timeout of 1 s expires (they complete
 * with -ETIMEDOUT). Then the client is told: its messages the server did not
 * take fail on its side with -ECONNABORTED and it goes to IDLE with last error
 * -ECONNABORTED. The server's disconnection callback fires with -ECONNABORTED
 * from inside progress, after which the connection is freed.
 *
 * Producers and consumers of the server's on the connection must be IDLE (the
 * client's do not matter: they see the connection end). IDLE ones may stay:
 * the connection then ends under them but stays allocated until the last of
 * them is destroyed; starting them fails with -ENOTCONN once it has ended.
 *
 * @param server The server.
 * @param conn   One of its established connections.
 * @return
 *   0 on success; -EINVAL if server or conn is NULL or conn is not the
 *   server's; -ENOTCONN if the connection is already ending; -EBUSY while
 *   producers or consumers on it are not IDLE (STARTING, RUNNING or STOPPING:
 *   stop them first).
 */
__rte_experimental
int
rte_comch_server_disconnect(struct rte_comch_server *server, struct rte_comch_connection *conn);

/**
 * Configure the server's send tasks. Mandatory; only while IDLE.
 *
 * @param server        The server.
 * @param completion_cb Called when a task succeeded. Mandatory.
 * @param error_cb      Called when a task failed. Mandatory.
 * @param num_tasks     Pool size, 1 to the device's max_send_tasks.
 * @return
 *   0 on success; -EINVAL for a NULL argument or a bad num_tasks; -EBUSY if the
 *   server is not IDLE, or if num_tasks changes the size of a pool whose tasks
 *   are not all freed.
 */
__rte_experimental
int
rte_comch_server_task_send_set_conf(struct rte_comch_server *server,
				    rte_comch_task_send_cb_t completion_cb,
				    rte_comch_task_send_cb_t error_cb, uint32_t num_tasks);

/**
 * Take a send task from the server's pool and set it up. The message is not
 * copied here but at submit: it must stay unchanged until a submit of the
 * task returns 0, and is the caller's again from then on.
 *
 * The task holds the connection: if it ends, the connection stays valid
 * (ended) until the task is freed, and submitting the task gives -ENOTCONN.
 *
 * @param server The server; RUNNING.
 * @param conn   The connection to send on, one of the server's.
 * @param msg    The message; may be NULL if len is 0.
 * @param len    Its length in bytes, at most the max message size.
 * @param task   Set to the task.
 * @return
 *   0 on success; -EINVAL for a NULL server, conn or task, a NULL msg with
 *   len > 0, or conn not of this server; -ENOTCONN if the connection is
 *   closing or closed; -EMSGSIZE if len is above the max message size; -EBUSY
 *   if the server is not RUNNING; -ENOMEM if the pool is empty.
 */
__rte_experimental
int
rte_comch_server_task_send_alloc_init(struct rte_comch_server *server,
				      struct rte_comch_connection *conn, const void *msg,
				      uint32_t len, struct rte_comch_task_send **task);

/**
 * Register the message received callback. Mandatory; only while IDLE.
 *
 * @param server The server.
 * @param cb     Called for each message received on its connections.
 * @return
 *   0 on success; -EINVAL if server or cb is NULL; -EBUSY if not IDLE.
 */
__rte_experimental
int
rte_comch_server_event_msg_recv_register(struct rte_comch_server *server,
					 rte_comch_event_msg_recv_cb_t cb);

/**
 * Register the connection and disconnection callbacks. Mandatory; only while IDLE.
 *
 * @param server        The server.
 * @param connect_cb    Called when a client connects (status 0).
 * @param disconnect_cb Called when a connection ends, with its reason.
 * @return
 *   0 on success; -EINVAL if any argument is NULL; -EBUSY if not IDLE.
 */
__rte_experimental
int
rte_comch_server_event_connection_status_changed_register(
	struct rte_comch_server *server, rte_comch_event_conn_status_cb_t connect_cb,
	rte_comch_event_conn_status_cb_t disconnect_cb);

/* ------------------------------------------------------------------ client */

/**
 * Create a client (host side) for the server of the given name.
 *
 * @param dev         A host-side device.
 * @param server_name Name of the server to connect to, shorter than the
 *                    device's max_name_len.
 * @return
 *   The client, or NULL with rte_errno set:
 *   - EINVAL: dev or server_name is NULL, or server_name is empty.
 *   - ENAMETOOLONG: server_name is too long for the device.
 *   - EPERM: dev is a BlueField-side device.
 *   - ENOMEM: out of memory.
 */
__rte_experimental
struct rte_comch_client *
rte_comch_client_create(struct rte_comch_dev *dev, const char *server_name);

/**
 * Destroy a client.
 *
 * @param client The client; IDLE.
 * @return
 *   0 on success; -EINVAL if client is NULL; -EBUSY if it is not IDLE, if send
 *   tasks taken from its pool have not been freed, or if producers or
 *   consumers created on its connections still exist (IDLE ones too);
 *   -EDEADLK if called from inside a callback of the client's engine.
 */
__rte_experimental
int
rte_comch_client_destroy(struct rte_comch_client *client);

/**
 * The client's context.
 *
 * @param client The client.
 * @return
 *   The context, or NULL with rte_errno set to EINVAL if client is NULL.
 */
__rte_experimental
struct rte_comch_ctx *
rte_comch_client_as_ctx(struct rte_comch_client *client);

/**
 * Require a message size; the server must use the same one. If never set, the
 * client takes the server's. Only while IDLE.
 *
 * @param client The client.
 * @param size   Largest message in bytes, 1 to the device's max_msg_size.
 * @return
 *   0 on success; -EINVAL if client is NULL or size is 0; -EMSGSIZE above the
 *   device's max_msg_size; -EBUSY if not IDLE.
 */
__rte_experimental
int
rte_comch_client_set_max_msg_size(struct rte_comch_client *client, uint32_t size);

/**
 * Read the message size: the one set, or once connected the one in use.
 *
 * @param client The client.
 * @param size   Set to the message size in bytes.
 * @return
 *   0 on success; -EINVAL if client or size is NULL.
 */
__rte_experimental
int
rte_comch_client_get_max_msg_size(const struct rte_comch_client *client, uint32_t *size);

/**
 * Set how many messages the server can queue towards the client. Only while IDLE.
 *
 * @param client The client.
 * @param size   Messages the server can queue, 1 to the device's
 *               max_recv_queue_size.
 * @return
 *   0 on success; -EINVAL if client is NULL, size is 0 or above the device's
 *   max_recv_queue_size; -EBUSY if not IDLE.
 */
__rte_experimental
int
rte_comch_client_set_recv_queue_size(struct rte_comch_client *client, uint32_t size);

/**
 * Read the receive queue size.
 *
 * @param client The client.
 * @param size   Set to the receive queue size, in messages.
 * @return
 *   0 on success; -EINVAL if client or size is NULL.
 */
__rte_experimental
int
rte_comch_client_get_recv_queue_size(const struct rte_comch_client *client, uint32_t *size);

/**
 * Set how long the client keeps trying to reach its server after start
 * (0: forever). Every failed attempt backs off, 1 ms doubling to 100 ms.
 * Past the timeout the client goes back to IDLE with a last error that says
 * what the last failed attempt met: -ENOENT (no server of that name
 * listened), -ECONNRESET (a server accepted the connection, then closed it
 * during the handshake), or -ETIMEDOUT (anything else, a handshake still
 * running for instance). The log line also gives the number of attempts.
 * Only while IDLE.
 *
 * @param client     The client.
 * @param timeout_ms Connect timeout in milliseconds; 0 for none.
 * @return
 *   0 on success; -EINVAL if client is NULL; -EBUSY if not IDLE.
 */
__rte_experimental
int
rte_comch_client_set_connect_timeout(struct rte_comch_client *client, uint32_t timeout_ms);

/**
 * The device the client was created on.
 *
 * @param client The client.
 * @return
 *   The device, or NULL with rte_errno set to EINVAL if client is NULL.
 */
__rte_experimental
struct rte_comch_dev *
rte_comch_client_get_device(const struct rte_comch_client *client);

/**
 * The client's connection.
 *
 * @param client The client.
 * @param conn   Set to its connection.
 * @return
 *   0 on success; -EINVAL if client or conn is NULL; -ENOTCONN if the client is
 *   not RUNNING.
 */
__rte_experimental
int
rte_comch_client_get_connection(const struct rte_comch_client *client,
				struct rte_comch_connection **conn);

/**
 * Configure the client's send tasks. Mandatory; only while IDLE.
 *
 * @param client        The client.
 * @param completion_cb Called when a task succeeded. Mandatory.
 * @param error_cb      Called when a task failed. Mandatory.
 * @param num_tasks     Pool size, 1 to the device's max_send_tasks.
 * @return
 *   0 on success; -EINVAL for a NULL argument or a bad num_tasks; -EBUSY if the
 *   client is not IDLE, or if num_tasks changes the size of a pool whose tasks
 *   are not all freed.
 */
__rte_experimental
int
rte_comch_client_task_send_set_conf(struct rte_comch_client *client,
				    rte_comch_task_send_cb_t completion_cb,
				    rte_comch_task_send_cb_t error_cb, uint32_t num_tasks);

/**
 * Take a send task from the client's pool and set it up. The message is not
 * copied here but at submit: it must stay unchanged until a submit of the
 * task returns 0, and is the caller's again from then on.
 *
 * @param client The client; RUNNING.
 * @param conn   The connection to send on: the client's
 *               (rte_comch_client_get_connection()).
 * @param msg    The message; may be NULL if len is 0.
 * @param len    Its length in bytes, at most the max message size.
 * @param task   Set to the task.
 * @return
 *   0 on success; -EINVAL for a NULL client, conn or task, a NULL msg with
 *   len > 0, or conn not of this client; -ENOTCONN if the connection is
 *   closing or closed; -EMSGSIZE if len is above the max message size; -EBUSY
 *   if the client is not RUNNING; -ENOMEM if the pool is empty.
 */
__rte_experimental
int
rte_comch_client_task_send_alloc_init(struct rte_comch_client *client,
				      struct rte_comch_connection *conn, const void *msg,
				      uint32_t len, struct rte_comch_task_send **task);

/**
 * Register the message received callback. Mandatory; only while IDLE.
 *
 * @param client The client.
 * @param cb     Called for each message received on its connection.
 * @return
 *   0 on success; -EINVAL if client or cb is NULL; -EBUSY if not IDLE.
 */
__rte_experimental
int
rte_comch_client_event_msg_recv_register(struct rte_comch_client *client,
					 rte_comch_event_msg_recv_cb_t cb);

/**
 * Register the new and expired consumer callbacks (fast path; optional). Only
 * while IDLE. They run on the client's engine.
 *
 * @param client              The client.
 * @param new_consumer_cb     Called when a consumer of the server is started.
 * @param expired_consumer_cb Called when a consumer of the server is stopped.
 * @return
 *   0 on success; -EINVAL if any argument is NULL; -EBUSY if not IDLE.
 */
__rte_experimental
int
rte_comch_client_event_consumer_register(struct rte_comch_client *client,
					 rte_comch_event_consumer_cb_t new_consumer_cb,
					 rte_comch_event_consumer_cb_t expired_consumer_cb);

/* -------------------------------------------------------------- connection */

/**
 * Attach user data to a connection.
 *
 * @param conn The connection.
 * @param data The user data.
 * @return
 *   0 on success; -EINVAL if conn is NULL.
 */
__rte_experimental
int
rte_comch_connection_set_user_data(struct rte_comch_connection *conn, union rte_comch_data data);

/**
 * Read a connection's user data.
 *
 * @param conn The connection.
 * @param data Set to its user data (zero if never set).
 * @return
 *   0 on success; -EINVAL if conn or data is NULL.
 */
__rte_experimental
int
rte_comch_connection_get_user_data(const struct rte_comch_connection *conn,
				   union rte_comch_data *data);

/**
 * The server a connection belongs to.
 *
 * @param conn The connection.
 * @return
 *   The server, or NULL with rte_errno set: EINVAL if conn is NULL, ENOENT if
 *   it is a client's connection.
 */
__rte_experimental
struct rte_comch_server *
rte_comch_connection_get_server(const struct rte_comch_connection *conn);

/**
 * The client a connection belongs to.
 *
 * @param conn The connection.
 * @return
 *   The client, or NULL with rte_errno set: EINVAL if conn is NULL, ENOENT if
 *   it is a server's connection.
 */
__rte_experimental
struct rte_comch_client *
rte_comch_connection_get_client(const struct rte_comch_connection *conn);

/**
 * The context (server or client) a connection belongs to.
 *
 * @param conn The connection.
 * @return
 *   The context, or NULL with rte_errno set to EINVAL if conn is NULL.
 */
__rte_experimental
struct rte_comch_ctx *
rte_comch_connection_get_ctx(const struct rte_comch_connection *conn);

/**
 * The device a connection runs on (its server's or client's): the device to add
 * to the mmaps of the connection's consumers and producers.
 *
 * @param conn The connection.
 * @return
 *   The device, or NULL with rte_errno set to EINVAL if conn is NULL or not a
 *   live connection.
 */
__rte_experimental
struct rte_comch_dev *
rte_comch_connection_get_device(const struct rte_comch_connection *conn);

/**
 * Whether a connection can carry messages, and if not, why.
 *
 * A connection is handed to the application (the server's connection
 * callback, rte_comch_client_get_connection() once the client is RUNNING) only
 * once it is established: while a client connects, it has no connection yet
 * (rte_comch_client_get_connection() says -ENOTCONN), so this call never says
 * -EINPROGRESS. The connection's end stays readable for as long as it is
 * allocated: until the disconnection callback returns (server), until the
 * client leaves STOPPING, or until its last producer or consumer is destroyed.
 *
 * @param conn The connection.
 * @return
 *   - 0: it is established.
 *   - -ECONNRESET: it ended, or is ending, otherwise than in order: the peer
 *     died, broke the protocol, or memory ran out (the disconnection status,
 *     or the client's last error, has the precise reason).
 *   - -ECONNABORTED: it was closed in order, by either side
 *     (rte_comch_server_disconnect(), a stop of the server or the client);
 *     from the call that closes it on, while it drains.
 *   - -EINVAL: conn is NULL.
 */
__rte_experimental
int
rte_comch_connection_update_info(const struct rte_comch_connection *conn);

/**
 * Stop delivering a connection's messages to the receive callback, so that an
 * application that cannot take more (its own queue is full) pushes back on
 * the peer instead of dropping or buffering without bound.
 *
 * While paused, the receive callback is not called for this connection; the
 * peer's messages stay in this side's receive queue (the driver's ring), so
 * once that is full (the receive queue size) the peer's sends wait:
 * rte_comch_task_submit() says -EAGAIN there, as with any slow receiver.
 * Nothing is dropped: rte_comch_connection_recv_resume() delivers them in
 * order, from the next progress on. Everything else goes on: our send tasks
 * complete as the peer takes their messages, the fast path is not affected,
 * and the connection's end is seen. A sleeping engine
 * (rte_comch_pe_request_notification()) is not woken by a paused connection's
 * messages, nor kept from sleeping by those already waiting.
 *
 * Called inside the receive callback, it takes effect after the current
 * message: the rest of the burst stays in the ring.
 *
 * At the connection's end: a peer that closes in order waits for us to take
 * what it sent, up to its drain timeout, and reports what we did not take as
 * failed (-ETIMEDOUT on its send tasks); those messages are not delivered. A
 * peer that died leaves what it finished writing, at most the receive queue
 * size: that is delivered before the disconnection, pause or not (it would be
 * lost otherwise).
 *
 * Pausing a paused connection (resuming one that runs) does nothing. Only on
 * the engine lcore of the connection's server or client, callbacks included.
 *
 * @param conn
 *   The connection.
 * @return
 *   0 on success; -EINVAL if conn is NULL or not a live connection;
 *   -ENOTCONN if it is closing or ended.
 */
__rte_experimental
int
rte_comch_connection_recv_pause(struct rte_comch_connection *conn);

/**
 * Deliver a paused connection's messages again (see
 * rte_comch_connection_recv_pause()): those waiting in its receive queue come
 * first, in order, from the next progress of its engine. It does not wake an
 * engine already armed: call it between progress and
 * rte_comch_pe_request_notification(), which then says -EAGAIN while
 * messages wait.
 *
 * @param conn
 *   The connection.
 * @return
 *   0 on success; -EINVAL if conn is NULL or not a live connection;
 *   -ENOTCONN if it is closing or ended.
 */
__rte_experimental
int
rte_comch_connection_recv_resume(struct rte_comch_connection *conn);

/**
 * Read a connection's counters.
 *
 * @param conn  The connection.
 * @param stats Filled in.
 * @return
 *   0 on success; -EINVAL if conn or stats is NULL.
 */
__rte_experimental
int
rte_comch_connection_get_stats(const struct rte_comch_connection *conn,
			       struct rte_comch_conn_stats *stats);

/**
 * The connection's negotiated max message size.
 *
 * @param conn The connection.
 * @param size Set to its max message size in bytes.
 * @return
 *   0 on success; -EINVAL if conn or size is NULL.
 */
__rte_experimental
int
rte_comch_connection_get_max_msg_size(const struct rte_comch_connection *conn, uint32_t *size);

/* --------------------------------------------------------------- send task */

/**
 * The generic task behind a send task, for rte_comch_task_* calls.
 *
 * @param task The send task.
 * @return
 *   The task, or NULL with rte_errno set to EINVAL if task is NULL.
 */
__rte_experimental
struct rte_comch_task *
rte_comch_task_send_as_task(struct rte_comch_task_send *task);

/**
 * The connection a send task targets.
 *
 * @param task The send task.
 * @return
 *   The connection, or NULL with rte_errno set to EINVAL if task is NULL.
 */
__rte_experimental
struct rte_comch_connection *
rte_comch_task_send_get_conn(const struct rte_comch_task_send *task);

/**
 * The message of a send task.
 *
 * @param task The send task.
 * @param len Set to its length; may be NULL.
 * @return
 *   The message, or NULL with rte_errno set to EINVAL if task is NULL (a
 *   zero-length message may also be NULL, with rte_errno untouched).
 */
__rte_experimental
const void *
rte_comch_task_send_get_msg(const struct rte_comch_task_send *task, uint32_t *len);

#ifdef __cplusplus
}
#endif

#endif /* RTE_COMCH_CTRL_H */
