/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef RTE_COMCH_TASK_H
#define RTE_COMCH_TASK_H

/**
 * @file
 * Tasks: asynchronous operations.
 *
 * A task is taken from its context's pool with an *_alloc_init() call, handed to
 * the library with rte_comch_task_submit(), and handed back through its
 * completion or error callback, from inside progress. The callback usually frees
 * it; it may also resubmit it. A task whose submit failed still belongs to the
 * caller, who may retry or free it.
 *
 * Thread safety: a task is used only from its context's engine lcore.
 */

#include <stdint.h>

#include <rte_compat.h>

#include <rte_comch_types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rte_comch_task;
struct rte_comch_ctx;

/**
 * Submit a task.
 *
 * @param task A task taken from its context's pool and set up.
 * @return
 *   0 on success: the task completes later through a callback.
 *   -EINVAL if task is NULL or was freed; -EALREADY if it is already in flight;
 *   -EBUSY if its context is not RUNNING; -ENOTCONN if its connection (or
 *   MsgQ) has ended; -EAGAIN if the other side has no room yet: for a
 *   control-path send, the peer's receive queue is full; for a producer send,
 *   the consumer has no buffer posted; for a post-receive task, the driver's
 *   transport has no room for more posts yet (mlx5). Progress, then retry.
 *   For a producer send also: -ENOENT for an unknown or expired consumer id;
 *   -EMSGSIZE if the data is longer than the buffer it would land in, or the
 *   immediate data longer than the consumer accepts; -EINVAL if the buffer's
 *   mmap is not registered with the producer's device
 *   (rte_comch_mmap_add_dev()); -ENOTCONN also if the consumer's side broke
 *   the protocol (the connection or MsgQ is then ended).
 *   For a post-receive task also: -ENOSPC if as many buffers as the consumer
 *   has tasks are posted already; -EINVAL if the buffer's data is not inside
 *   its piece, or the piece not inside the consumer's mmap; the driver's
 *   error if it cannot post (-ECONNRESET: its transport failed). Submitted
 *   from one of its consumer's own completion callbacks, a post-receive task
 *   goes to the driver when that round of callbacks is over, with the others
 *   submitted in it (one publication to the peer a round, not one a buffer):
 *   a driver error then comes back through the consumer's error callback,
 *   with the task.
 *   For a control-path send also: -ENOMEM if the driver has no memory for the
 *   message (the skeleton driver copies it).
 *   On failure the task still belongs to the caller, and nothing was sent.
 */
__rte_experimental
int
rte_comch_task_submit(struct rte_comch_task *task);

/**
 * Return a task to its context's pool.
 *
 * A task in flight may be freed too, as DOCA programs do before they stop a
 * context: it is given up at once (it cannot be submitted or freed again) and
 * goes back to the pool when it comes back, whether it completes or a stop
 * flushes it, without its callback: the application, which gave it up, hears
 * no more of it. Until then it counts in flight, and a stop waits for it.
 * A posted receive freed this way drops the message that fills it.
 *
 * @param task The task, in flight or not.
 * @return
 *   0 on success; -EINVAL if task is NULL or not allocated (freed twice).
 */
__rte_experimental
int
rte_comch_task_free(struct rte_comch_task *task);

/**
 * Result of the task's last run.
 *
 * @param task The task.
 * @return
 *   0 if it has not run yet or succeeded; -EINPROGRESS while it is in flight;
 *   the negative errno value it failed with (see each task type); -EINVAL if
 *   task is NULL.
 */
__rte_experimental
int
rte_comch_task_get_status(const struct rte_comch_task *task);

/**
 * Attach user data to a task; it is passed to the task's callbacks.
 *
 * @param task      The task.
 * @param user_data The user data.
 * @return
 *   0 on success; -EINVAL if task is NULL.
 */
__rte_experimental
int
rte_comch_task_set_user_data(struct rte_comch_task *task, union rte_comch_data user_data);

/**
 * Read a task's user data.
 *
 * @param task      The task.
 * @param user_data Set to its user data.
 * @return
 *   0 on success; -EINVAL if task or user_data is NULL.
 */
__rte_experimental
int
rte_comch_task_get_user_data(const struct rte_comch_task *task, union rte_comch_data *user_data);

/**
 * The context a task belongs to.
 *
 * @param task The task.
 * @return
 *   The context, or NULL with rte_errno set to EINVAL if task is NULL.
 */
__rte_experimental
struct rte_comch_ctx *
rte_comch_task_get_ctx(const struct rte_comch_task *task);

#ifdef __cplusplus
}
#endif

#endif /* RTE_COMCH_TASK_H */
