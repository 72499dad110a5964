/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef DOCA_COMPAT_CTX_H
#define DOCA_COMPAT_CTX_H

/**
 * @file
 * DOCA compatibility layer: contexts (servers, clients, producers, consumers)
 * and their state machine, over rte_comch contexts.
 *
 * Thread-safety: a context is used by one thread at a time, the one that runs
 * its progress engine, as in rte_comch.
 */

#include <stddef.h>

#include <doca_error.h>
#include <doca_types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_ctx;
struct doca_devinfo;

/** Context states. */
enum doca_ctx_states {
	DOCA_CTX_STATE_IDLE = 0,     /**< Configurable; nothing runs. */
	DOCA_CTX_STATE_STARTING = 1, /**< Started; reaches RUNNING through progress. */
	DOCA_CTX_STATE_RUNNING = 2,  /**< Tasks may be submitted, events fire. */
	DOCA_CTX_STATE_STOPPING = 3, /**< Draining; reaches IDLE through progress. */
};

/**
 * Called on every state change of a context, from progress or from the call
 * that changed it.
 *
 * @param user_data The context's user data.
 * @param ctx The context.
 * @param prev_state The state it left.
 * @param next_state The state it entered.
 */
typedef void (*doca_ctx_state_changed_callback_t)(const union doca_data user_data,
						  struct doca_ctx *ctx,
						  enum doca_ctx_states prev_state,
						  enum doca_ctx_states next_state);

/**
 * Start a context.
 *
 * @param ctx The context, connected to a progress engine.
 * @return DOCA_SUCCESS if it is RUNNING (servers, producers);
 *   DOCA_ERROR_IN_PROGRESS if it is STARTING and gets to RUNNING through
 *   progress (clients, consumers); DOCA_ERROR_INVALID_VALUE if ctx is NULL or a
 *   mandatory configuration is missing; DOCA_ERROR_BAD_STATE if it is not
 *   IDLE; DOCA_ERROR_NOT_CONNECTED if no progress engine has it; others mapped
 *   from rte_comch_ctx_start().
 */
doca_error_t
doca_ctx_start(struct doca_ctx *ctx);

/**
 * Stop a context. In-flight tasks complete through their error callbacks;
 * the program frees them.
 *
 * @param ctx The context.
 * @return DOCA_SUCCESS if it is IDLE; DOCA_ERROR_IN_PROGRESS if it is STOPPING
 *   and gets to IDLE through progress (also when called again while
 *   STOPPING); DOCA_ERROR_BAD_STATE if it is IDLE already;
 *   DOCA_ERROR_IN_USE if it cannot stop while other objects depend on it
 *   (a client with active producers or consumers); DOCA_ERROR_INVALID_VALUE if
 *   ctx is NULL.
 */
doca_error_t
doca_ctx_stop(struct doca_ctx *ctx);

/**
 * A context's state.
 *
 * @param ctx The context.
 * @param state Set to its state.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument.
 */
doca_error_t
doca_ctx_get_state(const struct doca_ctx *ctx, enum doca_ctx_states *state);

/**
 * Set the state-change callback (IDLE only).
 *
 * @param ctx The context.
 * @param cb The callback, or NULL for none.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if ctx is NULL;
 *   DOCA_ERROR_BAD_STATE if it is not IDLE.
 */
doca_error_t
doca_ctx_set_state_changed_cb(struct doca_ctx *ctx, doca_ctx_state_changed_callback_t cb);

/**
 * Set the context's user data, passed to its callbacks.
 *
 * @param ctx The context.
 * @param user_data The data.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if ctx is NULL.
 */
doca_error_t
doca_ctx_set_user_data(struct doca_ctx *ctx, union doca_data user_data);

/**
 * A context's user data.
 *
 * @param ctx The context.
 * @param user_data Set to the data (zero if never set).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument.
 */
doca_error_t
doca_ctx_get_user_data(const struct doca_ctx *ctx, union doca_data *user_data);

/**
 * Number of the context's tasks submitted and not yet completed.
 *
 * @param ctx The context.
 * @param num_inflight_tasks Set to the number.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument.
 */
doca_error_t
doca_ctx_get_num_inflight_tasks(const struct doca_ctx *ctx, size_t *num_inflight_tasks);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_COMPAT_CTX_H */
