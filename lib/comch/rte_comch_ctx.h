/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef RTE_COMCH_CTX_H
#define RTE_COMCH_CTX_H

/**
 * @file
 * Contexts: the state machine every server and client goes through.
 *
 * @code
 *   IDLE --start--> STARTING --(connected)--> RUNNING --stop--> STOPPING --> IDLE
 *   IDLE --start---------------------------> RUNNING            (servers)
 * @endcode
 *
 * - Configuration (task pools, callbacks, sizes) is accepted only while IDLE.
 * - rte_comch_ctx_start() needs an attached progress engine. A server reaches
 *   RUNNING at once; a client returns -EINPROGRESS and reaches RUNNING through
 *   progress when its connection is established.
 * - rte_comch_ctx_stop() disconnects, lets in-flight messages drain, flushes
 *   tasks still in flight to their error callbacks and reaches IDLE through
 *   progress. A client whose connection ends (peer stop, peer death, protocol
 *   error) goes the same way by itself; rte_comch_ctx_get_last_error() says why.
 * - Every change of state is reported to the state-changed callback, from
 *   inside progress, except the changes made by start and stop themselves,
 *   which are reported before they return.
 *
 * Thread safety: a context is used only from its engine's lcore.
 */

#include <stdint.h>

#include <rte_compat.h>

#include <rte_comch_types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rte_comch_ctx;

/** Context states. */
enum rte_comch_ctx_state {
	RTE_COMCH_CTX_STATE_IDLE = 0,     /**< Configurable; no activity. */
	RTE_COMCH_CTX_STATE_STARTING = 1, /**< Start requested, not yet running. */
	RTE_COMCH_CTX_STATE_RUNNING = 2,  /**< Tasks can be submitted; events fire. */
	RTE_COMCH_CTX_STATE_STOPPING = 3, /**< Draining; reaches IDLE through progress. */
};

/**
 * State-changed callback.
 *
 * @param user_data  The context's user data.
 * @param ctx        The context.
 * @param prev_state State before the change.
 * @param next_state State after the change.
 */
typedef void (*rte_comch_ctx_state_changed_cb_t)(union rte_comch_data user_data,
						 struct rte_comch_ctx *ctx,
						 enum rte_comch_ctx_state prev_state,
						 enum rte_comch_ctx_state next_state);

/**
 * Start a context.
 *
 * @return
 *   0 if the context is RUNNING; -EINPROGRESS if it is STARTING and will reach
 *   RUNNING through progress; -EINVAL if ctx is NULL; -EBUSY if it is not IDLE;
 *   -ENOTCONN if it has no progress engine, or if it is a producer or consumer
 *   whose connection has ended (an IDLE one outlives the connection it was
 *   created on: see rte_comch_ctx_stop()); -EINVAL if a mandatory callback
 *   (send task configuration, receive event, server connection event) is
 *   missing; -ENOMEM if the task pool cannot be created; other negative errno
 *   values from the driver.
 */
__rte_experimental
int
rte_comch_ctx_start(struct rte_comch_ctx *ctx);

/**
 * Stop a context.
 *
 * @return
 *   0 if the context is already IDLE on return; -EINPROGRESS if it is STOPPING
 *   and will reach IDLE through progress; -EINVAL if ctx is NULL; -EBUSY if it
 *   is IDLE or already STOPPING, or if it is a server or client with producers
 *   or consumers on its connections (destroy those first: the teardown order
 *   is producers and consumers, then connections, then servers and clients).
 */
__rte_experimental
int
rte_comch_ctx_stop(struct rte_comch_ctx *ctx);

/**
 * Read a context's state.
 *
 * @return
 *   0 on success; -EINVAL if ctx or state is NULL.
 */
__rte_experimental
int
rte_comch_ctx_get_state(const struct rte_comch_ctx *ctx, enum rte_comch_ctx_state *state);

/**
 * Set the state-changed callback (NULL to remove it). Only while IDLE.
 *
 * @return
 *   0 on success; -EINVAL if ctx is NULL; -EBUSY if the context is not IDLE.
 */
__rte_experimental
int
rte_comch_ctx_set_state_changed_cb(struct rte_comch_ctx *ctx, rte_comch_ctx_state_changed_cb_t cb);

/**
 * Set the context's user data, passed to its callbacks.
 *
 * @return
 *   0 on success; -EINVAL if ctx is NULL.
 */
__rte_experimental
int
rte_comch_ctx_set_user_data(struct rte_comch_ctx *ctx, union rte_comch_data user_data);

/**
 * Read the context's user data.
 *
 * @return
 *   0 on success; -EINVAL if ctx or user_data is NULL.
 */
__rte_experimental
int
rte_comch_ctx_get_user_data(const struct rte_comch_ctx *ctx, union rte_comch_data *user_data);

/**
 * Count the context's tasks submitted and not yet completed.
 *
 * @return
 *   0 on success; -EINVAL if ctx or num is NULL.
 */
__rte_experimental
int
rte_comch_ctx_get_num_inflight_tasks(const struct rte_comch_ctx *ctx, uint32_t *num);

/**
 * Why the context last left RUNNING or STARTING without being asked to.
 *
 * @return
 *   0 if it was stopped by its user (or never stopped); otherwise a negative
 *   errno value. A client: -ENOENT no server of that name on its function,
 *   -ETIMEDOUT the connect timeout expired, -EMSGSIZE the message sizes of
 *   client and server differ, -ECONNREFUSED the server refused the connection
 *   (client limit), -ECONNRESET the server kept dropping the handshake until
 *   the connect timeout. A server or client whose connection ended:
 *   -ECONNRESET the peer died, -ECONNABORTED the peer closed the connection,
 *   -EPROTO the peer broke the protocol, -ENOMEM the peer or we ran out of
 *   memory for the connection. A producer or consumer: -ECONNRESET its
 *   connection ended under it, -EPROTO the peer corrupted what it shares; a
 *   consumer whose start the peer refused over its budget: -ENOSPC (too many
 *   consumers, or mappings), -EMFILE (descriptors), -ENOMEM, -ENOTSUP (the
 *   peer takes no consumers). -EINVAL if ctx is NULL.
 */
__rte_experimental
int
rte_comch_ctx_get_last_error(const struct rte_comch_ctx *ctx);

#ifdef __cplusplus
}
#endif

#endif /* RTE_COMCH_CTX_H */
