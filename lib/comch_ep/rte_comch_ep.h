/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef RTE_COMCH_EP_H
#define RTE_COMCH_EP_H

/**
 * @file
 * Endpoints: the legacy socket-like API (DOCA Comm Channel's endpoint and peer
 * address), as a layer over the public server, client, connection and progress
 * engine API. It needs nothing of a driver beyond that, so it runs on every one.
 *
 * Library: librte_comch_ep (pkg-config librte_comch_ep), apart from librte_comch,
 * which it links; not included by rte_comch.h. Refusals are logged on the
 * "lib.comch.ep" log type.
 *
 * Design:
 * - An endpoint owns a progress engine, created (labelled with the calling
 *   lcore) by rte_comch_ep_create(). Every endpoint call that can move
 *   things (listen, connect, sendto, recvfrom, arm, update_info, disconnect,
 *   destroy) runs progress on it; the application never sees the engine.
 * - BlueField side: rte_comch_ep_listen() makes a server on the endpoint's
 *   device and representor; every client connecting to it becomes a peer
 *   address. Host side: rte_comch_ep_connect() makes a client; one endpoint
 *   makes one connection at a time.
 * - A peer address wraps one connection, and outlives it: once the connection
 *   ends, the peer is in error until the application releases it with
 *   rte_comch_ep_disconnect(). Its counters are the endpoint's own. On a
 *   listening endpoint, a peer the application never saw (no message from it
 *   was queued, and it was in no service state snapshot) is released by the
 *   endpoint itself when its connection ends.
 * - Received messages are copied out of the receive callback into a queue in
 *   the endpoint, in arrival order over all peers, until rte_comch_ep_recvfrom()
 *   takes them. The queue holds at most recv_queue_size messages (so at most
 *   recv_queue_size x the max message size bytes): once full, the endpoint
 *   pauses its connections (rte_comch_connection_recv_pause()), the peers'
 *   messages wait in their connections' receive queues, and the peers'
 *   sendto returns -EAGAIN; recvfrom resumes them once the queue is half
 *   empty. Nothing is dropped; a peer that dies while the queue is full adds
 *   what it left in its connection's queue (at most recv_queue_size more).
 * - Sent messages are copied by rte_comch_ep_sendto(): the caller's buffer is
 *   free on return. At most send_queue_size messages of the endpoint are in
 *   flight (not yet taken by their peer); each connection also allows at most
 *   its peer's receive queue size. Beyond either, sendto returns -EAGAIN.
 * - Event channels: recv_fd is the engine's notification fd
 *   (rte_comch_pe_get_notification_fd()), armed by rte_comch_ep_event_handle_arm_recv()
 *   with rte_comch_pe_request_notification(). send_fd is an eventfd of the
 *   endpoint, written when room appears in the send queue after
 *   rte_comch_ep_event_handle_arm_send(). The peer's taking of a message is
 *   seen through the engine, so an application waiting for send room polls
 *   both descriptors (arm_send arms the engine as well).
 * - A listening endpoint has a service state: an eventfd written on every
 *   connection and disconnection, and a snapshot of its connected peers.
 *
 * Thread safety: any thread may use an endpoint and its peer addresses, one at
 * a time, as with DOCA's endpoints: a program that uses one endpoint from
 * several threads serialises its calls with its own lock. While a thread is
 * inside a call on the endpoint (sendto, blocking or not, recvfrom, the arm
 * calls, update_info, the service state, listen, connect, disconnect,
 * destroy), those calls from another thread are refused with -EBUSY and
 * change nothing. The configuration calls and the getters are not checked:
 * make them before the endpoint is shared.
 */

#include <stddef.h>
#include <stdint.h>

#include <rte_compat.h>

#include <rte_comch.h>
#include <rte_comch_dev.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rte_comch_ep;
struct rte_comch_ep_peer;

/** Message flags: none (non-blocking). */
#define RTE_COMCH_EP_MSG_FLAG_NONE 0
/**
 * rte_comch_ep_sendto() only: wait until the message is queued instead of
 * returning -EAGAIN, sleeping on the endpoint's event channels (epoll), not
 * spinning; received messages keep being queued meanwhile, up to the receive
 * queue size (then the peers wait: two endpoints sending to each other this
 * way without reading wait forever once both queues are full).
 */
#define RTE_COMCH_EP_MSG_FLAG_BLOCKING 1
/** Send queue size of an endpoint where none is set (capped by the device). */
#define RTE_COMCH_EP_DEFAULT_SEND_QUEUE_SIZE 64
/** Receive queue size of an endpoint where none is set (capped by the device). */
#define RTE_COMCH_EP_DEFAULT_RECV_QUEUE_SIZE 64

/** A peer's counters, as of the last rte_comch_ep_peer_addr_update_info(). */
struct rte_comch_ep_peer_stats {
	uint64_t send_messages;  /**< Messages sent to the peer and taken by it. */
	uint64_t send_bytes;     /**< Bytes of those messages. */
	uint64_t recv_messages;  /**< Messages received from the peer. */
	uint64_t recv_bytes;     /**< Bytes of those messages. */
	uint32_t send_in_flight_messages; /**< Sent messages the peer has not taken yet. */
};

/* ------------------------------------------------------------ endpoint */

/**
 * Create an endpoint, with a progress engine labelled with the calling lcore
 * (any thread may use the endpoint afterwards, one at a time).
 *
 * @return
 *   The endpoint, or NULL with rte_errno set: EINVAL if the calling thread is
 *   not an EAL or registered thread; ENOMEM; or the error of the engine's or
 *   the eventfd's creation (see rte_comch_pe_create()).
 */
__rte_experimental
struct rte_comch_ep *
rte_comch_ep_create(void);

/**
 * Destroy an endpoint: stop its server or client, let messages in flight drain
 * (at most about the drain timeout of 1 s), release every peer address and
 * every queued message, and the engine. Peer addresses are invalid afterwards.
 *
 * @param ep The endpoint.
 * @return
 *   0 on success; -EINVAL if ep is NULL; -EBUSY while another thread is
 *   inside a call on the endpoint, or if the server or client did not stop
 *   within 3 s (call again).
 */
__rte_experimental
int
rte_comch_ep_destroy(struct rte_comch_ep *ep);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * What this library holds for its objects, as rte_comch_obj_stats_get() tells
 * it for librte_comch's (which no longer counts these): the endpoints and peer
 * addresses that are live (a peer address until it is released and nothing
 * refers to it), and the memory of destroyed ones kept back so that stale
 * handles are refused (up to 1024 objects and 4 MiB, the oldest freed first).
 * An application that destroyed every endpoint sees live == 0. Thread-safe.
 *
 * @param stats
 *   Filled in.
 * @return
 *   0, or -EINVAL if stats is NULL.
 */
__rte_experimental
int
rte_comch_ep_obj_stats_get(struct rte_comch_obj_stats *stats);

/**
 * Set the device to communicate through. Mandatory; only before listen or connect.
 *
 * @param ep  The endpoint.
 * @param dev The device.
 * @return
 *   0 on success; -EINVAL if ep or dev is NULL; -EBUSY after listen or connect.
 */
__rte_experimental
int
rte_comch_ep_set_device(struct rte_comch_ep *ep, struct rte_comch_dev *dev);

/**
 * Read the device.
 *
 * @param ep  The endpoint.
 * @param dev Set to its device.
 * @return
 *   0 on success; -EINVAL if ep or dev is NULL; -ENOENT if none is set.
 */
__rte_experimental
int
rte_comch_ep_get_device(const struct rte_comch_ep *ep, struct rte_comch_dev **dev);

/**
 * Set the representor a listening endpoint serves (BlueField side). Mandatory
 * for listen; only before listen or connect.
 *
 * @param ep  The endpoint.
 * @param rep A representor of the endpoint's device.
 * @return
 *   0 on success; -EINVAL if ep or rep is NULL; -EBUSY after listen or connect.
 */
__rte_experimental
int
rte_comch_ep_set_device_rep(struct rte_comch_ep *ep, struct rte_comch_dev_rep *rep);

/**
 * Read the representor.
 *
 * @param ep  The endpoint.
 * @param rep Set to its representor.
 * @return
 *   0 on success; -EINVAL if ep or rep is NULL; -ENOENT if none is set.
 */
__rte_experimental
int
rte_comch_ep_get_device_rep(const struct rte_comch_ep *ep, struct rte_comch_dev_rep **rep);

/**
 * Set the largest message. Both sides of a connection must use the same size:
 * a listening endpoint imposes its own (the device's default if never set); a
 * connecting one that never set a size takes the server's. Only before listen
 * or connect.
 *
 * @param ep   The endpoint.
 * @param size Largest message in bytes.
 * @return
 *   0 on success; -EINVAL if ep is NULL or size is 0; -EMSGSIZE if size is
 *   above the device's max_msg_size (checked here if the device is set, else
 *   at listen or connect); -EBUSY after listen or connect.
 */
__rte_experimental
int
rte_comch_ep_set_max_msg_size(struct rte_comch_ep *ep, uint32_t size);

/**
 * Read the largest message size: the one in use once connected (host side) or
 * listening, else the one set, else the device's default (0 without a device).
 *
 * @param ep   The endpoint.
 * @param size Set to the largest message size in bytes.
 * @return
 *   0 on success; -EINVAL if ep or size is NULL.
 */
__rte_experimental
int
rte_comch_ep_get_max_msg_size(const struct rte_comch_ep *ep, uint32_t *size);

/**
 * Set the send queue size: how many of the endpoint's messages may be in
 * flight (sent, not yet taken by their peer), over all its peers. Only before
 * listen or connect.
 *
 * @param ep   The endpoint.
 * @param size Messages in flight, at most.
 * @return
 *   0 on success; -EINVAL if ep is NULL, size is 0, or size is above the
 *   device's max_send_tasks (checked here if the device is set, else at listen
 *   or connect); -EBUSY after listen or connect.
 */
__rte_experimental
int
rte_comch_ep_set_send_queue_size(struct rte_comch_ep *ep, uint32_t size);

/**
 * Read the send queue size (the default, capped by the device, if none is set).
 *
 * @param ep   The endpoint.
 * @param size Set to the send queue size, in messages.
 * @return
 *   0 on success; -EINVAL if ep or size is NULL.
 */
__rte_experimental
int
rte_comch_ep_get_send_queue_size(const struct rte_comch_ep *ep, uint32_t *size);

/**
 * Set the receive queue size: how many messages each peer may have in flight
 * towards this endpoint, and how many received messages the endpoint holds
 * for rte_comch_ep_recvfrom() (beyond, the peers wait). Only before listen or
 * connect.
 *
 * @param ep   The endpoint.
 * @param size Messages per peer in flight, and messages held, at most.
 * @return
 *   0 on success; -EINVAL if ep is NULL, size is 0, or size is above the
 *   device's max_recv_queue_size (checked here if the device is set, else at
 *   listen or connect); -EBUSY after listen or connect.
 */
__rte_experimental
int
rte_comch_ep_set_recv_queue_size(struct rte_comch_ep *ep, uint32_t size);

/**
 * Read the receive queue size (the default, capped by the device, if none is set).
 *
 * @param ep   The endpoint.
 * @param size Set to the receive queue size, in messages.
 * @return
 *   0 on success; -EINVAL if ep or size is NULL.
 */
__rte_experimental
int
rte_comch_ep_get_recv_queue_size(const struct rte_comch_ep *ep, uint32_t *size);

/* ---------------------------------------------------------- connection */

/**
 * Listen as a service (BlueField side): create and start a server of that
 * name on the endpoint's device and representor. Clients connect through the
 * endpoint's later calls (every call runs progress); a new client becomes a
 * peer address, seen first as the source of its first message.
 *
 * @param ep   The endpoint, with a device and a representor.
 * @param name The service (server) name.
 * @return
 *   0 on success; -EINVAL if ep or name is NULL, or the device or the
 *   representor is not set, or a size is beyond the device's limits;
 *   -EPERM on a host-side device; -EBUSY if the endpoint already listens or
 *   connected; -EMSGSIZE if the message size is beyond the device's limit;
 *   -EBUSY while another thread is inside a call on the endpoint; other
 *   errors of rte_comch_server_create() (as negative values: -EEXIST,
 *   -ENAMETOOLONG, -ENOMEM) or of the start.
 */
__rte_experimental
int
rte_comch_ep_listen(struct rte_comch_ep *ep, const char *name);

/**
 * Connect to a service (host side): create and start a client of the
 * endpoint's device. The connection is made asynchronously, by the endpoint's
 * later calls: rte_comch_ep_peer_addr_update_info() says -EINPROGRESS until
 * it is established (0), or failed (-ECONNABORTED; the log gives the reason).
 * sendto() to a peer still connecting returns -EAGAIN.
 *
 * @param ep   The endpoint, with a device.
 * @param name The service (server) name.
 * @param peer Set to the new peer address, valid until rte_comch_ep_disconnect().
 * @return
 *   0 on success (connecting); -EINVAL if an argument is NULL or the device
 *   is not set; -EPERM on a BlueField-side device; -EBUSY if the endpoint
 *   listens, or has a connection not yet released with
 *   rte_comch_ep_disconnect(), or a client still stopping, or while another
 *   thread is inside a call on the endpoint;
 *   -EMSGSIZE if the message size is beyond the device's limit; other errors
 *   of rte_comch_client_create() (-ENAMETOOLONG, -ENOMEM) or of the start.
 */
__rte_experimental
int
rte_comch_ep_connect(struct rte_comch_ep *ep, const char *name, struct rte_comch_ep_peer **peer);

/**
 * Disconnect a peer and release its peer address, which is invalid on return.
 * Messages from it still queued in the endpoint are dropped. The connection
 * closes in order: messages already sent keep draining (their completion is
 * still counted by nothing the application can see); the other side sees the
 * connection end. On a host-side endpoint this stops its client, after which
 * (once stopped) it may connect again.
 *
 * @param ep   The endpoint.
 * @param peer One of its peer addresses.
 * @return
 *   0 on success; -EINVAL if ep or peer is NULL or peer is not of ep;
 *   -EBUSY while another thread is inside a call on the endpoint.
 */
__rte_experimental
int
rte_comch_ep_disconnect(struct rte_comch_ep *ep, struct rte_comch_ep_peer *peer);

/* ------------------------------------------------------------ messages */

/**
 * Send a message to a peer. The message is copied: buf is free on return.
 * Non-blocking, unless flags has RTE_COMCH_EP_MSG_FLAG_BLOCKING: then the
 * call sleeps on the endpoint's event channels until the message is queued
 * (never -EAGAIN), or the peer's connection ends (-ECONNRESET), or another
 * error. Do not block on a peer that only the calling thread would drain.
 *
 * @param ep    The endpoint.
 * @param msg   The message; may be NULL if len is 0.
 * @param len   Its length in bytes, at most the connection's max message size.
 * @param flags RTE_COMCH_EP_MSG_FLAG_NONE or RTE_COMCH_EP_MSG_FLAG_BLOCKING.
 * @param peer  The peer address to send to, one of ep's.
 * @return
 *   0 on success (the message is in flight); -EAGAIN if the send queue is
 *   full, the peer's receive queue is full, or the connection is still being
 *   established: call again later (rte_comch_ep_event_handle_arm_send() to
 *   sleep until then); -ECONNRESET if the peer's connection has ended or
 *   failed (release it with rte_comch_ep_disconnect()); -EMSGSIZE if len is
 *   above the connection's max message size; -EINVAL for a NULL ep or peer, a
 *   NULL msg with len > 0, unknown flags or a peer not of ep; -ENOMEM out of
 *   memory for the copy; -EBUSY while another thread is inside a call on the
 *   endpoint; other negative errors of the send task's allocation or submit
 *   (-EBUSY: the server or client is no longer running); blocking: the error
 *   of epoll_create1() or epoll_wait().
 */
__rte_experimental
int
rte_comch_ep_sendto(struct rte_comch_ep *ep, const void *msg, size_t len, int flags,
		    struct rte_comch_ep_peer *peer);

/**
 * Take the oldest message received by the endpoint, from any peer.
 * Non-blocking.
 *
 * @param ep    The endpoint.
 * @param buf   Where to copy the message (may be NULL if *len is 0).
 * @param len   In: the size of buf. Out: the length of the message.
 * @param flags RTE_COMCH_EP_MSG_FLAG_NONE.
 * @param peer  Set to the peer address it came from.
 * @return
 *   0 on success; -EAGAIN if no message is queued; -EMSGSIZE if the message
 *   is longer than *len: *len is set to its length and the message stays
 *   queued; -EINVAL for a NULL ep, len or peer, a NULL buf with *len > 0, or
 *   unknown flags; -EBUSY while another thread is inside a call on the
 *   endpoint.
 */
__rte_experimental
int
rte_comch_ep_recvfrom(struct rte_comch_ep *ep, void *buf, size_t *len, int flags,
		      struct rte_comch_ep_peer **peer);

/* ------------------------------------------------------- event channel */

/**
 * The descriptors to wait on with poll/epoll. Owned by the endpoint: do not
 * close them.
 *
 * @param ep      The endpoint.
 * @param send_fd Set to the send event descriptor (an eventfd); may be NULL.
 * @param recv_fd Set to the receive event descriptor (the engine's
 *                notification fd); may be NULL.
 * @return
 *   0 on success; -EINVAL if ep is NULL or both pointers are.
 */
__rte_experimental
int
rte_comch_ep_get_event_channel(const struct rte_comch_ep *ep, int *send_fd, int *recv_fd);

/**
 * Arm the send event before sleeping: send_fd becomes readable when the send
 * queue has room. The event is consumed (send_fd drained) by this call; if
 * there is room already, send_fd is made readable at once. Since the room
 * comes from the peer taking messages, which the engine sees, this also arms
 * the engine: wait on recv_fd too, and call any endpoint function when it is
 * readable. A wake-up can be spurious: sendto may still say -EAGAIN.
 *
 * @param ep The endpoint.
 * @return
 *   0 on success; -EINVAL if ep is NULL; -EBUSY while another thread is
 *   inside a call on the endpoint.
 */
__rte_experimental
int
rte_comch_ep_event_handle_arm_send(struct rte_comch_ep *ep);

/**
 * Arm the receive event before sleeping: recv_fd becomes readable when
 * something arrives (a message, a connection event).
 *
 * @param ep The endpoint.
 * @return
 *   0 if armed: the caller may sleep on recv_fd; -EAGAIN if messages are
 *   queued or work is pending (a connection being made or closed): call
 *   rte_comch_ep_recvfrom() instead of sleeping; -EINVAL if ep is NULL;
 *   -EBUSY while another thread is inside a call on the endpoint.
 */
__rte_experimental
int
rte_comch_ep_event_handle_arm_recv(struct rte_comch_ep *ep);

/* ------------------------------------------------------- service state */

/**
 * The service event descriptor of a listening endpoint (an eventfd, owned by
 * the endpoint: do not close it). It becomes readable when a client connects,
 * a connection ends or the service fails (its server stops running: then
 * rte_comch_ep_update_service_state_info() says -ENOTCONN), and stays so until
 * rte_comch_ep_update_service_state_info()
 * (which re-arms it). The events are seen by the endpoint's progress: wait on
 * recv_fd too (rte_comch_ep_event_handle_arm_recv()), and call any endpoint
 * function when it is readable.
 *
 * @param ep A listening endpoint.
 * @param fd Set to the service event descriptor.
 * @return
 *   0 on success; -EINVAL if ep or fd is NULL; -EBUSY if the endpoint does
 *   not listen.
 */
__rte_experimental
int
rte_comch_ep_get_service_event_channel(const struct rte_comch_ep *ep, int *fd);

/**
 * Run progress, re-arm the service event and take a snapshot of the service's
 * connected peers (read with rte_comch_ep_get_peer_addr_list()). The previous
 * snapshot's array is invalid from this call on.
 *
 * @param ep A listening endpoint.
 * @return
 *   0 on success; -EINVAL if ep is NULL; -EBUSY if the endpoint does not
 *   listen; -ENOTCONN if its server is no longer running (the endpoint must be
 *   destroyed); -ENOMEM out of memory for the snapshot; -EBUSY while another
 *   thread is inside a call on the endpoint.
 */
__rte_experimental
int
rte_comch_ep_update_service_state_info(struct rte_comch_ep *ep);

/**
 * The peers connected at the last rte_comch_ep_update_service_state_info():
 * those whose connection was established and neither ended nor released.
 *
 * @param ep    A listening endpoint.
 * @param peers Set to an array owned by the endpoint, valid until the next
 *              update or destroy (a peer in it is valid until released);
 *              NULL if there are none.
 * @param nb    Set to the number of entries.
 * @return
 *   0 on success; -EINVAL if an argument is NULL; -EBUSY if the endpoint
 *   does not listen.
 */
__rte_experimental
int
rte_comch_ep_get_peer_addr_list(const struct rte_comch_ep *ep,
				struct rte_comch_ep_peer * const **peers, uint32_t *nb);

/* -------------------------------------------------------- peer address */

/**
 * Attach user data to a peer address (0 until set).
 *
 * @param peer      The peer address.
 * @param user_data The user data.
 * @return
 *   0 on success; -EINVAL if peer is NULL.
 */
__rte_experimental
int
rte_comch_ep_peer_addr_set_user_data(struct rte_comch_ep_peer *peer, uint64_t user_data);

/**
 * Read a peer address's user data.
 *
 * @param peer      The peer address.
 * @param user_data Set to its user data.
 * @return
 *   0 on success; -EINVAL if peer or user_data is NULL.
 */
__rte_experimental
int
rte_comch_ep_peer_addr_get_user_data(const struct rte_comch_ep_peer *peer,
				     uint64_t *user_data);

/**
 * Run progress on the peer's endpoint, then take a snapshot of the peer's
 * counters (read with rte_comch_ep_peer_addr_get_stats()) and report the
 * state of its connection.
 *
 * @param peer The peer address, on its endpoint's lcore.
 * @return
 *   0 if the connection is established; -EINPROGRESS while it is being
 *   established (host side); -ECONNABORTED if it has ended or could not be
 *   made (the snapshot is still taken); -EINVAL if peer is NULL; -EBUSY while
 *   another thread is inside a call on the endpoint.
 */
__rte_experimental
int
rte_comch_ep_peer_addr_update_info(struct rte_comch_ep_peer *peer);

/**
 * Read the counters of the last rte_comch_ep_peer_addr_update_info() (zero
 * before the first).
 *
 * @param peer  The peer address.
 * @param stats Filled in.
 * @return
 *   0 on success; -EINVAL if peer or stats is NULL.
 */
__rte_experimental
int
rte_comch_ep_peer_addr_get_stats(const struct rte_comch_ep_peer *peer,
				 struct rte_comch_ep_peer_stats *stats);

#ifdef __cplusplus
}
#endif

#endif /* RTE_COMCH_EP_H */
