/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef DOCA_COMPAT_PE_H
#define DOCA_COMPAT_PE_H

/**
 * @file
 * DOCA compatibility layer: progress engines and tasks, over rte_comch's.
 *
 * A progress engine is created for the calling thread (a thread that is not a
 * DPDK lcore is registered with rte_thread_register() on the way); as in DOCA,
 * any thread may progress it, one at a time (doca_pe_progress() does nothing
 * for a thread that meets another inside it). Tasks of its contexts are used
 * by the thread progressing it.
 *
 * The per-message calls (submit, free, status, user data, progress) are
 * inline: see doca_compat_fast.h.
 */

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_error.h>
#include <doca_types.h>
#include <doca_compat_fast.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_pe;
struct doca_ctx;
struct doca_task;

/**
 * Create a progress engine for the calling thread. Starts EAL on first use.
 *
 * @param pe Set to the engine.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if pe is NULL;
 *   DOCA_ERROR_INITIALIZATION if EAL cannot start; DOCA_ERROR_NO_MEMORY, or
 *   DOCA_ERROR_FULL if no lcore is left for the thread; others mapped from
 *   rte_comch_pe_create() (its epoll or eventfd failing).
 */
doca_error_t
doca_pe_create(struct doca_pe **pe);

/**
 * Destroy a progress engine.
 *
 * @param pe The engine.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if pe is NULL;
 *   DOCA_ERROR_IN_USE while contexts are connected to it; DOCA_ERROR_UNKNOWN
 *   if called from inside one of its callbacks (rte_comch's -EDEADLK).
 */
doca_error_t
doca_pe_destroy(struct doca_pe *pe);

/**
 * Run completions and events of every context connected to the engine. Never
 * call it from a callback.
 *
 * @param pe The engine.
 * @return 1 if anything happened, else 0 (also if pe is NULL).
 */
static inline uint8_t
doca_pe_progress(struct doca_pe *pe)
{
	/* A doca_pe is an rte_comch engine. */
	return pe != NULL && rte_comch_pe_progress((struct rte_comch_pe *)pe) > 0;
}

/**
 * Connect an IDLE context to the engine (once per context).
 *
 * @param pe The engine.
 * @param ctx The context.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument;
 *   DOCA_ERROR_BAD_STATE if the context is not IDLE;
 *   DOCA_ERROR_ALREADY_EXIST if it is connected already.
 */
doca_error_t
doca_pe_connect_ctx(struct doca_pe *pe, struct doca_ctx *ctx);

/**
 * Number of tasks submitted on the engine's contexts and not completed.
 *
 * @param pe The engine.
 * @param num_inflight_tasks Set to the number.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument.
 */
doca_error_t
doca_pe_get_num_inflight_tasks(const struct doca_pe *pe, size_t *num_inflight_tasks);

/**
 * The engine's notification handle: a file descriptor that becomes readable
 * when, after doca_pe_request_notification(), there is something to progress.
 *
 * @param pe The engine.
 * @param handle Set to the descriptor.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument (or pe
 *   not a live engine).
 */
doca_error_t
doca_pe_get_notification_handle(const struct doca_pe *pe, doca_notification_handle_t *handle);

/**
 * Arm the notification handle; then wait on it, then doca_pe_clear_notification().
 *
 * @param pe The engine.
 * @return DOCA_SUCCESS: armed, the caller may wait on the handle;
 *   DOCA_ERROR_AGAIN if work is pending (see rte_comch_pe_request_notification()):
 *   progress instead of waiting; DOCA_ERROR_INVALID_VALUE if pe is NULL;
 *   DOCA_ERROR_NOT_PERMITTED from a thread other than the engine's.
 */
doca_error_t
doca_pe_request_notification(struct doca_pe *pe);

/**
 * Clear the notification handle after a wake-up.
 *
 * @param pe The engine.
 * @param handle The engine's handle (from doca_pe_get_notification_handle()).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if pe is NULL or handle is not
 *   the engine's; DOCA_ERROR_NOT_PERMITTED from a thread other than the
 *   engine's.
 */
doca_error_t
doca_pe_clear_notification(struct doca_pe *pe, doca_notification_handle_t handle);

/**
 * Submit a task. If it fails the task still belongs to the caller.
 *
 * @param task The task.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (NULL, or a bad field: the
 *   log says which); DOCA_ERROR_BAD_STATE if its context is not RUNNING;
 *   DOCA_ERROR_AGAIN if the queue is full for now; DOCA_ERROR_NOT_CONNECTED if
 *   its connection is gone; others mapped from rte_comch_task_submit().
 */
static inline doca_error_t
doca_task_submit(struct doca_task *task)
{
	/* rte_comch checks the task (NULL, freed, in flight); a DOCA task is an rte_comch one. */
	int rc = rte_comch_task_submit((struct rte_comch_task *)task);

	if (DOCA_COMPAT_LIKELY(rc == 0))
		return DOCA_SUCCESS;
	/* A sender spins on this one: told inline. */
	if (rc == -EAGAIN)
		return DOCA_ERROR_AGAIN;
	return rte_comch_doca_task_submit_err(task, rc);
}

/**
 * Same as doca_task_submit(): rte_comch validates every task it submits.
 *
 * @param task The task.
 * @return As doca_task_submit().
 */
static inline doca_error_t
doca_task_try_submit(struct doca_task *task)
{
	return doca_task_submit(task);
}

/** How doca_task_submit_ex() hands a task over: DOCA_TASK_SUBMIT_FLAG_* OR-ed. */
enum doca_task_submit_flag {
	/** No flag: as doca_task_submit(). */
	DOCA_TASK_SUBMIT_FLAG_NONE = 0,
	/**
	 * Hand this task and any held back before it to the device now. Every
	 * submit here does: rte_comch hands a task over as it is submitted.
	 */
	DOCA_TASK_SUBMIT_FLAG_FLUSH = 1 << 0,
	/**
	 * The program can do with the task's completion being reported late,
	 * with later ones. A hint here: every task's completion is reported, at
	 * the first progress that sees it.
	 */
	DOCA_TASK_SUBMIT_FLAG_OPTIMIZE_REPORTS = 1 << 1,
};

/**
 * Submit a task with flags. The layer takes both flags as hints it needs no
 * action for (see enum doca_task_submit_flag): the task is submitted as
 * doca_task_submit() submits it, and completes as it would.
 *
 * @param task The task.
 * @param flags DOCA_TASK_SUBMIT_FLAG_* OR-ed together, or 0.
 * @return As doca_task_submit(); DOCA_ERROR_INVALID_VALUE (the task not
 *   submitted) if flags has a bit that is not a DOCA_TASK_SUBMIT_FLAG_*.
 */
doca_error_t
doca_task_submit_ex(struct doca_task *task, uint32_t flags);

/**
 * Return a task to its context's pool. Only for tasks not in flight.
 *
 * @param task The task; NULL is ignored.
 */
static inline void
doca_task_free(struct doca_task *task)
{
	/* rte_comch logs a task it cannot free (freed twice); NULL is DOCA's no-op. */
	if (task != NULL)
		rte_comch_task_free((struct rte_comch_task *)task);
}

/**
 * Result of a completed task.
 *
 * @param task The task.
 * @return DOCA_SUCCESS for a task that succeeded; its error otherwise;
 *   DOCA_ERROR_INVALID_VALUE if task is NULL.
 */
static inline doca_error_t
doca_task_get_status(const struct doca_task *task)
{
	/* rte_comch answers -EINVAL, with a log line, for NULL. */
	int rc = rte_comch_task_get_status((const struct rte_comch_task *)task);

	return DOCA_COMPAT_LIKELY(rc == 0) ? DOCA_SUCCESS : rte_comch_doca_error_from_errno(rc);
}

/**
 * Set a task's user data.
 *
 * @param task The task; NULL is ignored.
 * @param user_data The data.
 */
static inline void
doca_task_set_user_data(struct doca_task *task, union doca_data user_data)
{
	union rte_comch_data d;

	d.u64 = user_data.u64;
	if (task != NULL)
		rte_comch_task_set_user_data((struct rte_comch_task *)task, d);
}

/**
 * A task's user data.
 *
 * @param task The task.
 * @return Its user data; zero if task is NULL.
 */
static inline union doca_data
doca_task_get_user_data(const struct doca_task *task)
{
	union rte_comch_data d;
	union doca_data u;

	d.u64 = 0;
	if (task != NULL)
		rte_comch_task_get_user_data((const struct rte_comch_task *)task, &d);
	u.u64 = d.u64;
	return u;
}

/**
 * The context a task belongs to.
 *
 * @param task The task.
 * @return The context; NULL if task is NULL.
 */
struct doca_ctx *
doca_task_get_ctx(const struct doca_task *task);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_COMPAT_PE_H */
