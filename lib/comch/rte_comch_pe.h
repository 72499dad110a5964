/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef RTE_COMCH_PE_H
#define RTE_COMCH_PE_H

/**
 * @file
 * Progress engine: the poll loop that drives contexts.
 *
 * rte_comch_pe_progress() completes tasks, delivers events and moves contexts
 * through their states; every callback of every context attached to the
 * engine runs inside it, on the thread that called it.
 *
 * An engine can also sleep: rte_comch_pe_get_notification_fd() gives a file
 * descriptor to wait on with poll/epoll; rte_comch_pe_request_notification()
 * arms it before sleeping, so a polling engine never pays a system call for it.
 *
 * Thread safety: an engine is not bound to a thread. Any thread may use it (an
 * lcore or not), one thread at a time: an engine and everything attached to
 * it (contexts, connections, tasks) is used by one thread at any moment, and
 * a program that hands it to another thread does so with its own
 * synchronisation (a lock, a join, a queue). While a thread is inside
 * progress, a notification call or destroy on an engine, the same calls from
 * another thread are refused with -EBUSY and change nothing; the check costs
 * one uncontended compare-and-swap per call.
 */

#include <stdint.h>

#include <rte_compat.h>

#include <rte_lcore.h>

#include <rte_comch_types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rte_comch_pe;
struct rte_comch_ctx;

/** Pass to rte_comch_pe_create() to label the engine with the calling lcore. */
#define RTE_COMCH_PE_LCORE_SELF LCORE_ID_ANY

/**
 * Create a progress engine.
 *
 * @param lcore_id
 *   The lcore meant to progress it, or RTE_COMCH_PE_LCORE_SELF for the calling
 *   one (a thread that is no lcore must first register with
 *   rte_thread_register()). A label (rte_comch_pe_get_lcore()), not a binding:
 *   any thread may use the engine, one at a time.
 * @return
 *   The engine, or NULL with rte_errno set:
 *   - EINVAL: lcore_id is not an enabled lcore, or SELF from an unregistered thread.
 *   - ENOMEM: out of memory.
 *   - other: the errno of a failed epoll_create1(), or of the engine's wake-up
 *     eventfd (its creation or its epoll_ctl()).
 */
__rte_experimental
struct rte_comch_pe *
rte_comch_pe_create(unsigned int lcore_id);

/**
 * Destroy a progress engine.
 *
 * @param pe
 *   The engine.
 * @return
 *   0 on success; -EINVAL if pe is NULL; -EBUSY while contexts are attached
 *   (destroy them first) or while another thread uses the engine;
 *   -EDEADLK if called from inside a callback.
 */
__rte_experimental
int
rte_comch_pe_destroy(struct rte_comch_pe *pe);

/**
 * Attach an idle context to an engine. A context is attached once, for life.
 *
 * @param pe
 *   The engine.
 * @param ctx
 *   The context to attach (rte_comch_server_as_ctx() and the like).
 * @return
 *   0 on success; -EINVAL if pe or ctx is NULL; -EBUSY if the context is not
 *   idle; -EEXIST if it is already attached to an engine.
 */
__rte_experimental
int
rte_comch_pe_connect_ctx(struct rte_comch_pe *pe, struct rte_comch_ctx *ctx);

/**
 * Run one round of progress over every attached context.
 *
 * Any thread may call it, one at a time (see the file's thread safety).
 *
 * @param pe
 *   The engine.
 * @return
 *   1 if anything happened (a task completed, an event fired, a state changed),
 *   0 if nothing did; -EINVAL if pe is NULL; -EBUSY if another thread is using
 *   the engine at the same time; -EDEADLK if called from inside one of its
 *   callbacks.
 */
__rte_experimental
int
rte_comch_pe_progress(struct rte_comch_pe *pe);

/**
 * The lcore an engine was created for (its label: any thread may use it).
 *
 * @param pe
 *   The engine.
 * @return
 *   The lcore id, or LCORE_ID_ANY with rte_errno set to EINVAL if pe is NULL.
 */
__rte_experimental
unsigned int
rte_comch_pe_get_lcore(const struct rte_comch_pe *pe);

/**
 * Count tasks submitted on this engine's contexts that have not completed yet.
 *
 * @param pe
 *   The engine.
 * @param num
 *   Set to the number of tasks in flight over all its contexts.
 * @return
 *   0 on success; -EINVAL if pe or num is NULL.
 */
__rte_experimental
int
rte_comch_pe_get_num_inflight_tasks(const struct rte_comch_pe *pe, uint64_t *num);

/**
 * File descriptor that becomes readable when the engine has work after
 * rte_comch_pe_request_notification(). Owned by the engine: do not close it.
 *
 * @param pe
 *   The engine.
 * @param fd
 *   Set to the descriptor.
 * @return
 *   0 on success; -EINVAL if pe or fd is NULL.
 */
__rte_experimental
int
rte_comch_pe_get_notification_fd(const struct rte_comch_pe *pe, int *fd);

/**
 * Arm notifications before sleeping on the notification fd.
 *
 * Peers ring the engine only while it is armed, so polling costs them nothing.
 * Armed, the engine is woken when a message arrives on one of its connections,
 * when the peer takes a message the engine sent (so it may sleep with sends in
 * flight), when a producer fills a buffer of one of its consumers, and on
 * connection events. Peers ring from their next progress, once per round, not
 * from submit. A context connecting or stopping runs on timers, and a producer
 * whose last send was refused with -EAGAIN waits for buffers whose posting
 * rings nothing: either keeps the engine polling.
 *
 * @param pe
 *   The engine.
 * @return
 *   0 if armed: the caller may sleep until the fd is readable;
 *   -EAGAIN if work is pending (a message or a filled buffer waiting,
 *   completions due, a starved producer, a context starting or stopping):
 *   call progress instead of sleeping;
 *   -EINVAL if pe is NULL; -EBUSY while another thread uses the engine.
 */
__rte_experimental
int
rte_comch_pe_request_notification(struct rte_comch_pe *pe);

/**
 * Disarm notifications and consume the peers' wake-ups after the fd became
 * readable. Call it before the next round of progress. Socket events (a new
 * client, a peer that closed) keep the fd readable until that progress handles them.
 *
 * @param pe
 *   The engine.
 * @return
 *   0 on success; -EINVAL if pe is NULL; -EBUSY while another thread uses the
 *   engine.
 */
__rte_experimental
int
rte_comch_pe_clear_notification(struct rte_comch_pe *pe);

#ifdef __cplusplus
}
#endif

#endif /* RTE_COMCH_PE_H */
