/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef DOCA_COMPAT_COMM_CHANNEL_H
#define DOCA_COMPAT_COMM_CHANNEL_H

/**
 * @file
 * DOCA compatibility layer: the legacy Comm Channel endpoint API
 * (doca_comm_channel_ep_*, doca_comm_channel_peer_addr_*), which DOCA has
 * deprecated in favour of DOCA Comch, over rte_comch's endpoint API
 * (rte_comch_ep.h).
 *
 * An endpoint is socket-like: the BlueField side listens as a named service on
 * a device and a representor, the host side connects to a service by name, and
 * both exchange messages with non-blocking sendto/recvfrom on peer addresses.
 * Each endpoint owns a progress engine that its own calls run; the program
 * never progresses anything itself.
 *
 * How this differs from a BlueField:
 * - The side an endpoint takes follows what it does: listen binds its device
 *   as the BlueField side, connect as the host side (see doca_dev.h for how an
 *   unpinned device changes side). Until then the device is only recorded.
 * - An endpoint is used by the thread that created it: calls from another
 *   thread return DOCA_ERROR_NOT_PERMITTED (DOCA allows any thread under the
 *   program's own lock).
 * - Disconnecting closes the connection in order, and the other side sees it
 *   end (DOCA's disconnect is one-sided). Destroying an endpoint lets messages
 *   in flight drain for up to about a second instead of dropping them.
 * - Connections are admitted by the endpoint's progress, so a service never
 *   has pending connections.
 * - The event handles are file descriptors (epoll descriptors that the
 *   endpoint owns): wait on them with epoll or poll, never close them.
 *
 * Thread-safety: an endpoint and its peer addresses are used only by the
 * thread that created the endpoint. The capability queries may be called from
 * any thread.
 */

#include <stddef.h>
#include <stdint.h>

#include <doca_error.h>
#include <doca_types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_devinfo;
struct doca_dev;
struct doca_dev_rep;

/** Flags of doca_comm_channel_ep_sendto() and doca_comm_channel_ep_recvfrom(). */
enum doca_comm_channel_msg_flags {
	DOCA_CC_MSG_FLAG_NONE = 0, /**< The only flag: the call never blocks. */
};

/** A local endpoint: a service (BlueField side) or a client (host side). */
struct doca_comm_channel_ep_t;

/**
 * A peer address: one connection of an endpoint, the source of the messages
 * it receives and the destination of the messages it sends.
 */
struct doca_comm_channel_addr_t;

/** An endpoint's event handle: a file descriptor to wait on with epoll or poll. */
typedef doca_event_handle_t doca_event_channel_t;

/* ---------------------------------------------------------- capabilities */

/**
 * The longest service name every mapped device accepts, counting the
 * terminating NUL. Starts EAL on first use.
 *
 * Thread-safe.
 *
 * @param max_service_name_len Set to the length.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if max_service_name_len is
 *   NULL; DOCA_ERROR_INITIALIZATION if EAL cannot start; the errors of the
 *   device mapping (see doca_devinfo_create_list()).
 */
doca_error_t
doca_comm_channel_get_max_service_name_len(uint32_t *max_service_name_len);

/**
 * The largest message size an endpoint on a device may be given.
 *
 * Thread-safe.
 *
 * @param devinfo The device.
 * @param max_message_size Set to the size, in bytes.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument; the
 *   device's error if it cannot be queried.
 */
doca_error_t
doca_comm_channel_get_max_message_size(struct doca_devinfo *devinfo, uint32_t *max_message_size);

/**
 * The largest send queue an endpoint on a device may be given: how many of
 * its messages may be in flight at once.
 *
 * Thread-safe.
 *
 * @param devinfo The device.
 * @param max_send_queue_size Set to the size, in messages.
 * @return As doca_comm_channel_get_max_message_size().
 */
doca_error_t
doca_comm_channel_get_max_send_queue_size(struct doca_devinfo *devinfo,
					  uint32_t *max_send_queue_size);

/**
 * The largest receive queue an endpoint on a device may be given: how many
 * messages each peer may have in flight towards it.
 *
 * Thread-safe.
 *
 * @param devinfo The device.
 * @param max_recv_queue_size Set to the size, in messages.
 * @return As doca_comm_channel_get_max_message_size().
 */
doca_error_t
doca_comm_channel_get_max_recv_queue_size(struct doca_devinfo *devinfo,
					  uint32_t *max_recv_queue_size);

/**
 * The most clients one service on a device can have connected at once
 * (never 0: every device here has a limit).
 *
 * Thread-safe.
 *
 * @param devinfo The device.
 * @param max_num_connections Set to the number.
 * @return As doca_comm_channel_get_max_message_size().
 */
doca_error_t
doca_comm_channel_get_service_max_num_connections(struct doca_devinfo *devinfo,
						  uint32_t *max_num_connections);

/* -------------------------------------------------------------- endpoint */

/**
 * Create an endpoint, with its progress engine, for the calling thread. Starts
 * EAL on first use; a thread that is not a DPDK lcore is registered as one.
 *
 * @param ep Set to the endpoint.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if ep is NULL;
 *   DOCA_ERROR_INITIALIZATION if EAL cannot start or the thread cannot be
 *   registered; DOCA_ERROR_FULL if no lcore is left for the thread;
 *   DOCA_ERROR_NO_MEMORY; others mapped from rte_comch_ep_create().
 */
doca_error_t
doca_comm_channel_ep_create(struct doca_comm_channel_ep_t **ep);

/**
 * Destroy an endpoint: stop its service or connection, let the messages in
 * flight drain (about a second at most), release every peer address, its
 * event handles and its hold on the device. Peer addresses are invalid
 * afterwards.
 *
 * @param local_ep The endpoint.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if local_ep is NULL or not a
 *   live endpoint; DOCA_ERROR_NOT_PERMITTED from another thread;
 *   DOCA_ERROR_AGAIN if its service or connection did not stop in time (the
 *   endpoint is intact: call again).
 */
doca_error_t
doca_comm_channel_ep_destroy(struct doca_comm_channel_ep_t *local_ep);

/**
 * Set the device to communicate through. Mandatory. Only recorded here: listen
 * binds it as the BlueField side, connect as the host side. Only before listen
 * or connect.
 *
 * @param ep The endpoint.
 * @param device An open device, not to be closed while the endpoint exists.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument;
 *   DOCA_ERROR_BAD_STATE after listen or connect.
 */
doca_error_t
doca_comm_channel_ep_set_device(struct doca_comm_channel_ep_t *ep, struct doca_dev *device);

/**
 * The device set with doca_comm_channel_ep_set_device().
 *
 * @param ep The endpoint.
 * @param device Set to the device.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument;
 *   DOCA_ERROR_NOT_FOUND if none is set.
 */
doca_error_t
doca_comm_channel_ep_get_device(struct doca_comm_channel_ep_t *ep, struct doca_dev **device);

/**
 * Set the representor whose host function may connect to the service.
 * Mandatory for listen; only before listen or connect.
 *
 * @param ep The endpoint.
 * @param device_rep An open representor of the endpoint's device, not to be
 *   closed while the endpoint exists.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument;
 *   DOCA_ERROR_BAD_STATE after listen or connect.
 */
doca_error_t
doca_comm_channel_ep_set_device_rep(struct doca_comm_channel_ep_t *ep,
				    struct doca_dev_rep *device_rep);

/**
 * The representor set with doca_comm_channel_ep_set_device_rep().
 *
 * @param ep The endpoint.
 * @param device_rep Set to the representor.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument;
 *   DOCA_ERROR_NOT_FOUND if none is set.
 */
doca_error_t
doca_comm_channel_ep_get_device_rep(struct doca_comm_channel_ep_t *ep,
				    struct doca_dev_rep **device_rep);

/**
 * Set the largest message the endpoint sends or receives. Both sides of a
 * connection use one size: a service imposes its own, a client that never set
 * one takes the service's. Only before listen or connect.
 *
 * @param ep The endpoint.
 * @param max_msg_size The size, in bytes.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if ep is NULL, the size is
 *   0, or it is above doca_comm_channel_get_max_message_size() of the
 *   endpoint's device (checked here if the device is set, else by listen or
 *   connect); DOCA_ERROR_BAD_STATE after listen or connect.
 */
doca_error_t
doca_comm_channel_ep_set_max_msg_size(struct doca_comm_channel_ep_t *ep, uint16_t max_msg_size);

/**
 * The largest message size: the one in use once listening or connected, else
 * the one set, else the device's default (0 with neither a size nor a device
 * set). A size above 65535 reads as 65535.
 *
 * @param ep The endpoint.
 * @param max_msg_size Set to the size, in bytes.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument; the
 *   device's error if it cannot be queried.
 */
doca_error_t
doca_comm_channel_ep_get_max_msg_size(struct doca_comm_channel_ep_t *ep, uint16_t *max_msg_size);

/**
 * Set the send queue size: how many of the endpoint's messages, over all its
 * peers, may be in flight (sent and not yet taken by their peer). Only before
 * listen or connect.
 *
 * @param ep The endpoint.
 * @param send_queue_size The size, in messages.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if ep is NULL, the size is
 *   0, or it is above doca_comm_channel_get_max_send_queue_size() (checked as
 *   for doca_comm_channel_ep_set_max_msg_size()); DOCA_ERROR_BAD_STATE after
 *   listen or connect.
 */
doca_error_t
doca_comm_channel_ep_set_send_queue_size(struct doca_comm_channel_ep_t *ep,
					 uint16_t send_queue_size);

/**
 * The send queue size: the one set, else a default of 64 capped by the device.
 *
 * @param ep The endpoint.
 * @param send_queue_size Set to the size.
 * @return As doca_comm_channel_ep_get_max_msg_size().
 */
doca_error_t
doca_comm_channel_ep_get_send_queue_size(struct doca_comm_channel_ep_t *ep,
					 uint16_t *send_queue_size);

/**
 * Set the receive queue size: how many messages each peer may have in flight
 * towards the endpoint. Only before listen or connect.
 *
 * @param ep The endpoint.
 * @param recv_queue_size The size, in messages.
 * @return As doca_comm_channel_ep_set_send_queue_size(), against
 *   doca_comm_channel_get_max_recv_queue_size().
 */
doca_error_t
doca_comm_channel_ep_set_recv_queue_size(struct doca_comm_channel_ep_t *ep,
					 uint16_t recv_queue_size);

/**
 * The receive queue size: the one set, else a default of 64 capped by the device.
 *
 * @param ep The endpoint.
 * @param recv_queue_size Set to the size.
 * @return As doca_comm_channel_ep_get_max_msg_size().
 */
doca_error_t
doca_comm_channel_ep_get_recv_queue_size(struct doca_comm_channel_ep_t *ep,
					 uint16_t *recv_queue_size);

/* ------------------------------------------------------------ connection */

/**
 * Listen as a service (BlueField side): bind the endpoint's device as the
 * BlueField side and serve clients of the representor's host function under
 * name. A client becomes a peer address, seen first as the source of a
 * message from doca_comm_channel_ep_recvfrom() (or in the service state).
 *
 * @param local_ep The endpoint.
 * @param name The service name (see doca_comm_channel_get_max_service_name_len()).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument, a name
 *   too long, a representor of another device or sizes beyond the device's
 *   limits; DOCA_ERROR_BAD_STATE if the device or the representor is not set;
 *   DOCA_ERROR_NOT_PERMITTED if the endpoint already listens or connected, if
 *   the device cannot be the BlueField side (mapped to the host side, or in
 *   use as it), or from another thread; DOCA_ERROR_ALREADY_EXIST if the
 *   representor already has a service of that name; others mapped from
 *   rte_comch_ep_listen().
 */
doca_error_t
doca_comm_channel_ep_listen(struct doca_comm_channel_ep_t *local_ep, const char *name);

/**
 * Connect to a service (host side): bind the endpoint's device as the host
 * side and start connecting. The connection is made by the endpoint's later
 * calls; doca_comm_channel_peer_addr_update_info() tells when it is up.
 * After doca_comm_channel_ep_disconnect() of that peer, the endpoint may
 * connect again.
 *
 * @param local_ep The endpoint.
 * @param name The service name.
 * @param peer_addr Set to the connection's peer address.
 * @return DOCA_SUCCESS (connecting); DOCA_ERROR_INVALID_VALUE on a NULL
 *   argument, a name too long or sizes beyond the device's limits;
 *   DOCA_ERROR_BAD_STATE if the device is not set; DOCA_ERROR_NOT_PERMITTED
 *   if the endpoint listens or has a connection not yet disconnected, if the
 *   device cannot be the host side, or from another thread; DOCA_ERROR_AGAIN
 *   if its previous connection, disconnected, is still closing (call again);
 *   others mapped from rte_comch_ep_connect().
 */
doca_error_t
doca_comm_channel_ep_connect(struct doca_comm_channel_ep_t *local_ep, const char *name,
			     struct doca_comm_channel_addr_t **peer_addr);

/**
 * Disconnect a peer and release its peer address, which is invalid on return;
 * its messages not yet received are dropped. Messages already sent still
 * drain, and the other side sees the connection end.
 *
 * @param local_ep The endpoint.
 * @param peer_addr One of its peer addresses.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument;
 *   DOCA_ERROR_NOT_CONNECTED if peer_addr is not a live peer address of
 *   local_ep; DOCA_ERROR_NOT_PERMITTED from another thread.
 */
doca_error_t
doca_comm_channel_ep_disconnect(struct doca_comm_channel_ep_t *local_ep,
				struct doca_comm_channel_addr_t *peer_addr);

/* -------------------------------------------------------------- messages */

/**
 * Send a message. It is copied: msg is free again on return. Never blocks.
 *
 * @param local_ep The endpoint.
 * @param msg The message (may be NULL if len is 0).
 * @param len Its length, at most the connection's max message size.
 * @param flags DOCA_CC_MSG_FLAG_NONE.
 * @param peer_addr The peer to send it to.
 * @return DOCA_SUCCESS (the message is in flight); DOCA_ERROR_AGAIN if the send
 *   queue or the peer's receive queue is full, or the connection is still being
 *   made: call again later (doca_comm_channel_ep_event_handle_arm_send() to
 *   sleep until then); DOCA_ERROR_CONNECTION_RESET if the peer's connection
 *   has ended (disconnect it); DOCA_ERROR_NOT_CONNECTED if peer_addr is NULL,
 *   not a live peer address of local_ep, or the endpoint neither listens nor
 *   connected; DOCA_ERROR_INVALID_VALUE if local_ep is NULL, msg is NULL with
 *   len above 0, len is above the max message size, or flags are unknown;
 *   DOCA_ERROR_NO_MEMORY; DOCA_ERROR_NOT_PERMITTED from another thread.
 */
doca_error_t
doca_comm_channel_ep_sendto(struct doca_comm_channel_ep_t *local_ep, const void *msg, size_t len,
			    int flags, struct doca_comm_channel_addr_t *peer_addr);

/**
 * Take the oldest message received, from any peer. Never blocks. On a service,
 * the first message of a new client is also how its peer address first appears.
 *
 * @param local_ep The endpoint.
 * @param msg Where to copy the message (may be NULL if *len is 0).
 * @param len In: the size of msg. Out: the length of the message.
 * @param flags DOCA_CC_MSG_FLAG_NONE.
 * @param peer_addr Set to the peer the message came from.
 * @return DOCA_SUCCESS; DOCA_ERROR_AGAIN if no message is waiting;
 *   DOCA_ERROR_TOO_BIG if the message is longer than *len: *len is set to its
 *   length and the message stays first in line; DOCA_ERROR_NOT_CONNECTED if
 *   the endpoint neither listens nor connected; DOCA_ERROR_INVALID_VALUE for a
 *   NULL local_ep, len or peer_addr, a NULL msg with *len above 0, or unknown
 *   flags; DOCA_ERROR_NOT_PERMITTED from another thread. A message that
 *   arrived before its peer's connection ended is still delivered.
 */
doca_error_t
doca_comm_channel_ep_recvfrom(struct doca_comm_channel_ep_t *local_ep, void *msg, size_t *len,
			      int flags, struct doca_comm_channel_addr_t **peer_addr);

/* --------------------------------------------------------- event channel */

/**
 * The endpoint's event handles. The send handle becomes readable, once armed,
 * when a send may succeed; the receive handle, once armed, when a message (or
 * a connection event) may be waiting. Wake-ups can be spurious: the call then
 * still returns DOCA_ERROR_AGAIN, and the program arms and waits again. The
 * handles belong to the endpoint: never close them.
 *
 * @param local_ep The endpoint, listening or connected.
 * @param send_event_channel Set to the send handle; may be NULL.
 * @param recv_event_channel Set to the receive handle; may be NULL.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if local_ep is NULL or both
 *   handle pointers are; DOCA_ERROR_BAD_STATE before listen or connect;
 *   DOCA_ERROR_OPERATING_SYSTEM if a descriptor cannot be made; others
 *   mapped from rte_comch_ep_get_event_channel().
 */
doca_error_t
doca_comm_channel_ep_get_event_channel(struct doca_comm_channel_ep_t *local_ep,
				       doca_event_channel_t *send_event_channel,
				       doca_event_channel_t *recv_event_channel);

/**
 * Arm the send handle before waiting on it: it becomes readable when the send
 * queue has room (at once if it has). Consumes the previous send event.
 *
 * @param local_ep The endpoint, listening or connected.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if local_ep is NULL;
 *   DOCA_ERROR_BAD_STATE before listen or connect; DOCA_ERROR_NOT_PERMITTED
 *   from another thread.
 */
doca_error_t
doca_comm_channel_ep_event_handle_arm_send(struct doca_comm_channel_ep_t *local_ep);

/**
 * Arm the receive handle before waiting on it: it becomes readable when
 * something arrives, or at once if messages are already waiting. Consumes the
 * previous receive event.
 *
 * @param local_ep The endpoint, listening or connected.
 * @return As doca_comm_channel_ep_event_handle_arm_send().
 */
doca_error_t
doca_comm_channel_ep_event_handle_arm_recv(struct doca_comm_channel_ep_t *local_ep);

/* --------------------------------------------------------- service state */

/**
 * The service event handle of a listening endpoint: it becomes readable when
 * a client connects, a connection ends or the service fails, and stays so
 * until doca_comm_channel_ep_update_service_state_info(), which arms it again.
 * It is armed when first returned. It belongs to the endpoint: never close it.
 *
 * @param local_ep The endpoint.
 * @param service_event_channel Set to the handle.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument;
 *   DOCA_ERROR_BAD_STATE before listen; DOCA_ERROR_NOT_SUPPORTED on a
 *   connecting (host-side) endpoint; DOCA_ERROR_OPERATING_SYSTEM if a
 *   descriptor cannot be made; DOCA_ERROR_NOT_PERMITTED from another thread.
 */
doca_error_t
doca_comm_channel_ep_get_service_event_channel(struct doca_comm_channel_ep_t *local_ep,
					       doca_event_channel_t *service_event_channel);

/**
 * Run the endpoint's progress, arm the service event handle again and take a
 * snapshot of the service's connected peers. The array of the previous
 * snapshot is invalid from this call on.
 *
 * @param local_ep The endpoint.
 * @return DOCA_SUCCESS; DOCA_ERROR_CONNECTION_RESET if the service has failed
 *   (destroy the endpoint); DOCA_ERROR_INVALID_VALUE if local_ep is NULL;
 *   DOCA_ERROR_BAD_STATE before listen; DOCA_ERROR_NOT_SUPPORTED on a
 *   connecting endpoint; DOCA_ERROR_NO_MEMORY; DOCA_ERROR_NOT_PERMITTED from
 *   another thread.
 */
doca_error_t
doca_comm_channel_ep_update_service_state_info(struct doca_comm_channel_ep_t *local_ep);

/**
 * The peers connected at the last doca_comm_channel_ep_update_service_state_info().
 *
 * @param local_ep The endpoint.
 * @param peer_addr_array Set to an array owned by the endpoint, valid until the
 *   next update or the endpoint's destruction (NULL if there are none).
 * @param peer_addr_array_len Set to the number of entries.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument;
 *   DOCA_ERROR_BAD_STATE before listen; DOCA_ERROR_NOT_SUPPORTED on a
 *   connecting endpoint.
 */
doca_error_t
doca_comm_channel_ep_get_peer_addr_list(const struct doca_comm_channel_ep_t *local_ep,
					struct doca_comm_channel_addr_t ***peer_addr_array,
					uint32_t *peer_addr_array_len);

/**
 * The connections waiting for the service to complete them. Always 0 here:
 * the endpoint's progress completes every connection as it comes.
 *
 * @param local_ep The endpoint.
 * @param pending_connections Set to 0.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument;
 *   DOCA_ERROR_BAD_STATE before listen; DOCA_ERROR_NOT_SUPPORTED on a
 *   connecting endpoint.
 */
doca_error_t
doca_comm_channel_ep_get_pending_connections(const struct doca_comm_channel_ep_t *local_ep,
					     uint32_t *pending_connections);

/* ---------------------------------------------------------- peer address */

/**
 * Attach a value to a peer address (0 until set).
 *
 * @param peer_addr The peer address.
 * @param user_context The value.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if peer_addr is NULL or not live.
 */
doca_error_t
doca_comm_channel_peer_addr_set_user_data(struct doca_comm_channel_addr_t *peer_addr,
					  uint64_t user_context);

/**
 * The value attached to a peer address.
 *
 * @param peer_addr The peer address.
 * @param user_data Set to the value.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument or a peer
 *   address not live.
 */
doca_error_t
doca_comm_channel_peer_addr_get_user_data(struct doca_comm_channel_addr_t *peer_addr,
					  uint64_t *user_data);

/**
 * The legacy guide's other spelling of doca_comm_channel_peer_addr_set_user_data().
 *
 * @param peer_addr The peer address.
 * @param user_context The value.
 * @return As doca_comm_channel_peer_addr_set_user_data().
 */
doca_error_t
doca_comm_channel_peer_addr_user_data_set(struct doca_comm_channel_addr_t *peer_addr,
					  uint64_t user_context);

/**
 * The legacy guide's other spelling of doca_comm_channel_peer_addr_get_user_data().
 *
 * @param peer_addr The peer address.
 * @param user_data Set to the value.
 * @return As doca_comm_channel_peer_addr_get_user_data().
 */
doca_error_t
doca_comm_channel_peer_addr_user_data_get(struct doca_comm_channel_addr_t *peer_addr,
					  uint64_t *user_data);

/**
 * Run the endpoint's progress, take a snapshot of the peer's counters (read
 * with the getters below) and tell the state of its connection.
 *
 * @param peer_addr The peer address.
 * @return DOCA_SUCCESS if the connection is up;
 *   DOCA_ERROR_CONNECTION_INPROGRESS while it is being made (host side);
 *   DOCA_ERROR_CONNECTION_ABORTED if it has ended or could not be made (the
 *   snapshot is still taken: disconnect the peer); DOCA_ERROR_INVALID_VALUE if
 *   peer_addr is NULL or not live; DOCA_ERROR_NOT_PERMITTED from another thread.
 */
doca_error_t
doca_comm_channel_peer_addr_update_info(struct doca_comm_channel_addr_t *peer_addr);

/**
 * Messages sent to the peer and taken by it, at the last update_info.
 *
 * @param peer_addr The peer address.
 * @param send_messages Set to the number.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument or a peer
 *   address not live.
 */
doca_error_t
doca_comm_channel_peer_addr_get_send_messages(const struct doca_comm_channel_addr_t *peer_addr,
					      uint64_t *send_messages);

/**
 * Bytes of the messages counted by doca_comm_channel_peer_addr_get_send_messages().
 *
 * @param peer_addr The peer address.
 * @param send_bytes Set to the number.
 * @return As doca_comm_channel_peer_addr_get_send_messages().
 */
doca_error_t
doca_comm_channel_peer_addr_get_send_bytes(const struct doca_comm_channel_addr_t *peer_addr,
					   uint64_t *send_bytes);

/**
 * Messages received from the peer, at the last update_info (taken by recvfrom
 * or not).
 *
 * @param peer_addr The peer address.
 * @param recv_messages Set to the number.
 * @return As doca_comm_channel_peer_addr_get_send_messages().
 */
doca_error_t
doca_comm_channel_peer_addr_get_recv_messages(const struct doca_comm_channel_addr_t *peer_addr,
					      uint64_t *recv_messages);

/**
 * Bytes of the messages counted by doca_comm_channel_peer_addr_get_recv_messages().
 *
 * @param peer_addr The peer address.
 * @param recv_bytes Set to the number.
 * @return As doca_comm_channel_peer_addr_get_send_messages().
 */
doca_error_t
doca_comm_channel_peer_addr_get_recv_bytes(const struct doca_comm_channel_addr_t *peer_addr,
					   uint64_t *recv_bytes);

/**
 * Messages sent to the peer and not yet taken by it, at the last update_info:
 * 0 means everything sent has arrived, so disconnecting loses nothing.
 *
 * @param peer_addr The peer address.
 * @param send_in_flight_messages Set to the number.
 * @return As doca_comm_channel_peer_addr_get_send_messages().
 */
doca_error_t
doca_comm_channel_peer_addr_get_send_in_flight_messages(
	const struct doca_comm_channel_addr_t *peer_addr, uint64_t *send_in_flight_messages);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_COMPAT_COMM_CHANNEL_H */
