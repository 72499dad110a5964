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
 *   STARTING or RUNNING --stop, nothing to wait for--> IDLE
 * @endcode
 *
 * - Configuration (task pools, callbacks, sizes) is accepted only while IDLE.
 * - rte_comch_ctx_start() needs an attached progress engine. A server reaches
 *   RUNNING at once; a client returns -EINPROGRESS and reaches RUNNING through
 *   progress when its connection is established.
 * - rte_comch_ctx_stop() disconnects, lets in-flight messages drain, flushes
 *   tasks still in flight to their error callbacks and reaches IDLE through
 *   progress; a context with nothing to wait for is IDLE when it returns. A
 *   client whose connection ends (peer stop, peer death, protocol error) goes
 *   through STOPPING by itself; rte_comch_ctx_get_last_error() says why.
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
 * @param ctx The context (of a server, client, producer or consumer); IDLE.
 * @return
 *   - 0: the context is RUNNING.
 *   - -EINPROGRESS: it is STARTING and reaches RUNNING through progress (a
 *     client connecting, a consumer on a connection being announced).
 *   - -EINVAL: ctx is NULL; or a mandatory configuration is missing (send task
 *     configuration, receive event, server connection event; a producer's or
 *     consumer's task configuration).
 *   - -EBUSY: it is not IDLE; or it is a consumer whose last stop the peer has
 *     not confirmed yet (it timed out: start it again once it has), or a MsgQ
 *     consumer of the same id still being withdrawn.
 *   - -ENOTCONN: it has no progress engine, or it is a producer or consumer
 *     whose connection or MsgQ has ended (an IDLE one outlives the connection it
 *     was created on: see rte_comch_ctx_stop()).
 *   - -ENOMEM: its task pool cannot be created.
 *   - -EAGAIN: a consumer on a connection whose engine has too many requests
 *     of its consumers waiting; try again after progress.
 *   - -ECONNRESET: a consumer whose announcement the peer did not take: the
 *     connection ends.
 *   - Another negative errno value from the driver: a server that cannot
 *     listen, a client whose connection attempt fails at once for good (its
 *     last error says the same), a consumer the driver cannot share.
 */
__rte_experimental
int
rte_comch_ctx_start(struct rte_comch_ctx *ctx);

/**
 * Stop a context.
 *
 * A context with nothing to wait for goes straight to IDLE, without passing
 * through STOPPING (its state-changed callback sees RUNNING -> IDLE, or
 * STARTING -> IDLE): a server without connections, a client still STARTING
 * (its connection attempt is given up), a producer with no send in flight.
 * Otherwise the context is STOPPING when the call returns and reaches IDLE
 * through progress: a server with connections (they drain and close), a
 * connected client (the server learns of the close), a producer with sends in
 * flight (they complete), a consumer (the other side confirms it writes no
 * more into it).
 *
 * A stop asked for again while the context is STOPPING (after an earlier
 * stop, or a client whose connection ended) is no error: it changes nothing
 * and returns -EINPROGRESS, the stop under way going on.
 *
 * @param ctx The context.
 * @return
 *   - 0: the context is IDLE on return.
 *   - -EINPROGRESS: it is STOPPING (from this call, or from before it) and
 *     reaches IDLE through progress.
 *   - -EINVAL: ctx is NULL.
 *   - -EBUSY: it is IDLE already; or it is a server or client, and a
 *     connection it would close has producers or consumers that are not IDLE
 *     (STARTING, RUNNING or STOPPING): stop them first. IDLE producers and
 *     consumers do not hold the stop back: they stay allocated, the connection
 *     ends under them, starting them afterwards fails with -ENOTCONN, and they
 *     are destroyed as usual, before the server or client itself is (whose
 *     destroy is refused with -EBUSY until then).
 */
__rte_experimental
int
rte_comch_ctx_stop(struct rte_comch_ctx *ctx);

/**
 * Read a context's state.
 *
 * @param ctx   The context.
 * @param state Set to its state.
 * @return
 *   0 on success; -EINVAL if ctx or state is NULL.
 */
__rte_experimental
int
rte_comch_ctx_get_state(const struct rte_comch_ctx *ctx, enum rte_comch_ctx_state *state);

/**
 * Set the state-changed callback (NULL to remove it). Only while IDLE.
 *
 * @param ctx The context.
 * @param cb  Called on each change of state, or NULL.
 * @return
 *   0 on success; -EINVAL if ctx is NULL; -EBUSY if the context is not IDLE.
 */
__rte_experimental
int
rte_comch_ctx_set_state_changed_cb(struct rte_comch_ctx *ctx, rte_comch_ctx_state_changed_cb_t cb);

/**
 * Set the context's user data, passed to its callbacks.
 *
 * @param ctx       The context.
 * @param user_data The user data.
 * @return
 *   0 on success; -EINVAL if ctx is NULL.
 */
__rte_experimental
int
rte_comch_ctx_set_user_data(struct rte_comch_ctx *ctx, union rte_comch_data user_data);

/**
 * Read the context's user data.
 *
 * @param ctx       The context.
 * @param user_data Set to its user data.
 * @return
 *   0 on success; -EINVAL if ctx or user_data is NULL.
 */
__rte_experimental
int
rte_comch_ctx_get_user_data(const struct rte_comch_ctx *ctx, union rte_comch_data *user_data);

/**
 * Count the context's tasks submitted and not yet completed.
 *
 * @param ctx The context.
 * @param num Set to the number of tasks in flight.
 * @return
 *   0 on success; -EINVAL if ctx or num is NULL.
 */
__rte_experimental
int
rte_comch_ctx_get_num_inflight_tasks(const struct rte_comch_ctx *ctx, uint32_t *num);

/**
 * Why the context last left RUNNING or STARTING without being asked to.
 *
 * @param ctx The context.
 * @return
 *   0 if it was stopped by its user (or never stopped); otherwise a negative
 *   errno value. A client: -ENOENT no server of that name on its function,
 *   -ETIMEDOUT the connect timeout expired, -EMSGSIZE the message sizes of
 *   client and server differ, -ECONNREFUSED the server refused the connection
 *   (its client limit, or its driver's limit of connections per client
 *   process), -ECONNRESET the server kept dropping the handshake until
 *   the connect timeout. A server or client whose connection ended:
 *   -ECONNRESET the peer died, -ECONNABORTED the peer closed the connection,
 *   -EPROTO the peer broke the protocol, -ENOMEM the peer or we ran out of
 *   memory for the connection. A producer or consumer: -ECONNRESET its
 *   connection ended under it, -EPROTO the peer corrupted what it shares; a
 *   consumer whose start the peer refused over its budget: -ENOSPC (too many
 *   consumers, or mappings), -EMFILE (descriptors), -ENOMEM, -ENOTSUP (the
 *   peer takes no consumers); a consumer the peer did not answer (5 s at its
 *   start, 1 s at its stop): -ETIMEDOUT; a consumer the driver could not
 *   share with the peer at its start: the driver's error. -EINVAL if ctx is
 *   NULL.
 */
__rte_experimental
int
rte_comch_ctx_get_last_error(const struct rte_comch_ctx *ctx);

#ifdef __cplusplus
}
#endif

#endif /* RTE_COMCH_CTX_H */
