/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef RTE_COMCH_DPA_PROG_H
#define RTE_COMCH_DPA_PROG_H

/**
 * @file
 * The software DPA runtime: the device side, for DPA programs only.
 * (rte_comch_dpa_dev.h, which DPA programs include, includes this header and
 * adds the MsgQ calls of the dpa driver.)
 *
 * A DPA program is the entry function of a DPA thread. Each time the thread
 * is triggered, its unit calls the entry function from the start; the run ends
 * with rte_comch_dpa_dev_thread_reschedule() (wait for the next trigger),
 * rte_comch_dpa_dev_thread_finish() (stop being triggered until the CPU runs
 * the thread again), or by returning from the entry function, which counts as
 * a reschedule. State that must survive from one run to the next belongs in
 * the thread's local storage.
 *
 * Each call maps one to one onto a DOCA device call; the driver guide
 * (doc/guides/comchdevs/dpa.rst) has the table. Objects are named by handles
 * (rte_comch_dpa_handle_t) of the program's own dpa.
 *
 * Thread safety: these calls are made by the running program, on its unit.
 * A thread runs on one unit at a time, so its local storage and the
 * completion contexts attached to it are used by one run at a time; a
 * completion context attached to no thread must be read by one program at a
 * time (the application arranges it). Called outside a DPA program, the calls
 * that need one fail with -EPERM (or return NULL), and the two that end a run
 * log an error and return; the accessors of a completion entry work anywhere.
 */

#include <stdint.h>

#include <rte_compat.h>

#include <rte_comch_dpa_types.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * End this run; the thread runs again from its entry at its next trigger
 * (doca_dpa_dev_thread_reschedule()).
 *
 * Inside a DPA program this call does not return: it jumps back to the unit's
 * dispatch loop. Outside one it logs an error and returns.
 */
__rte_experimental
void
rte_comch_dpa_dev_thread_reschedule(void);

/**
 * End this run and stop being triggered until the CPU calls
 * rte_comch_dpa_thread_run() again (doca_dpa_dev_thread_finish()).
 *
 * Inside a DPA program this call does not return. Outside one it logs an
 * error and returns.
 */
__rte_experimental
void
rte_comch_dpa_dev_thread_finish(void);

/**
 * The running thread's local storage (doca_dpa_dev_thread_get_local_storage()).
 *
 * @return
 *   The storage, zeroed when the thread was started and kept across runs;
 *   NULL if the thread has none, or outside a DPA program.
 */
__rte_experimental
void *
rte_comch_dpa_dev_thread_get_local_storage(void);

/**
 * Trigger a thread of the same dpa (doca_dpa_dev_thread_notify()); a thread
 * may trigger itself, it then runs again after this run.
 *
 * @param thread
 *   The thread's handle (rte_comch_dpa_thread_get_dpa_handle()).
 * @return
 *   0; -EINVAL if the handle is not a live thread of this dpa; -EPERM if the
 *   thread is not running (the trigger is dropped), or outside a DPA program.
 */
__rte_experimental
int
rte_comch_dpa_dev_thread_notify(rte_comch_dpa_handle_t thread);

/**
 * Take the next completion entry of a completion context
 * (doca_dpa_dev_get_completion()). The entry stays in the context, holding
 * its place, until it is acknowledged.
 *
 * @param cq
 *   The completion context's handle.
 * @param[out] cqe
 *   A copy of the entry.
 * @return
 *   1 if an entry was taken; 0 if there is none; -EINVAL if cqe is NULL or
 *   the handle is not a live completion context of this dpa; -EPERM outside a
 *   DPA program.
 */
__rte_experimental
int
rte_comch_dpa_dev_get_completion(rte_comch_dpa_handle_t cq, struct rte_comch_dpa_cqe *cqe);

/**
 * Take the next completion entry of a completion context, as
 * rte_comch_dpa_dev_get_completion() does, but give its address in the
 * context instead of a copy (DOCA's completion element): the entry stays
 * there, unchanged, until it is acknowledged (rte_comch_dpa_dev_completion_ack())
 * or the context is destroyed.
 *
 * @param cq
 *   The completion context's handle.
 * @param[out] cqe
 *   The entry, to read with the accessors below.
 * @return
 *   As rte_comch_dpa_dev_get_completion().
 */
__rte_experimental
int
rte_comch_dpa_dev_get_completion_ref(rte_comch_dpa_handle_t cq,
				     const struct rte_comch_dpa_cqe **cqe);

/**
 * Acknowledge the n oldest entries taken and not yet acknowledged, giving
 * their places back to the producers (doca_dpa_dev_completion_ack()).
 *
 * @param cq
 *   The completion context's handle.
 * @param n
 *   How many entries to acknowledge.
 * @return
 *   0; -EINVAL if the handle is not a live completion context of this dpa, or
 *   n is more than the entries taken and not yet acknowledged (nothing is
 *   acknowledged then); -EPERM outside a DPA program.
 */
__rte_experimental
int
rte_comch_dpa_dev_completion_ack(rte_comch_dpa_handle_t cq, uint32_t n);

/**
 * Arm a completion context: the next entry, or one already waiting, triggers
 * the attached thread once (doca_dpa_dev_completion_request_notification()).
 * A trigger disarms the context; a program arms it again before its run ends
 * to be woken by the next entry.
 *
 * @param cq
 *   The completion context's handle.
 * @return
 *   0; -EINVAL if the handle is not a live completion context of this dpa;
 *   -EPERM outside a DPA program.
 */
__rte_experimental
int
rte_comch_dpa_dev_completion_request_notification(rte_comch_dpa_handle_t cq);

/**
 * The address of bytes of a DPA memory buffer (what a program gets on the
 * hardware by using the device address it was given directly).
 *
 * @param mem
 *   The buffer's handle (rte_comch_dpa_mem_alloc()).
 * @param offset
 *   First byte.
 * @param len
 *   Bytes the program will use from there.
 * @return
 *   The address, valid while the buffer exists; NULL if the handle is not a
 *   live buffer of this dpa, [offset, offset + len) is not inside it, or
 *   outside a DPA program.
 */
__rte_experimental
void *
rte_comch_dpa_dev_mem_ptr(rte_comch_dpa_handle_t mem, uint64_t offset, uint64_t len);

/**
 * The immediate data of an entry (doca_dpa_dev_comch_consumer_get_completion_imm()).
 *
 * @param cqe
 *   An entry from rte_comch_dpa_dev_get_completion().
 * @param[out] len
 *   Its length, 0 to RTE_COMCH_DPA_IMM_MAX; may be NULL.
 * @return
 *   The data, inside cqe; NULL (and *len 0) if cqe is NULL.
 */
__rte_experimental
const uint8_t *
rte_comch_dpa_dev_get_completion_imm(const struct rte_comch_dpa_cqe *cqe, uint32_t *len);

/**
 * The id of the producer that posted an entry
 * (doca_dpa_dev_comch_consumer_get_completion_producer_id()).
 *
 * @param cqe
 *   An entry from rte_comch_dpa_dev_get_completion().
 * @return
 *   The id (1 or more: no producer has id 0); 0 if cqe is NULL.
 */
__rte_experimental
uint32_t
rte_comch_dpa_dev_get_completion_producer_id(const struct rte_comch_dpa_cqe *cqe);

/**
 * The user data of an entry (doca_dpa_dev_get_completion_user_data()).
 *
 * @param cqe
 *   An entry from rte_comch_dpa_dev_get_completion().
 * @return
 *   The user data; 0 if cqe is NULL.
 */
__rte_experimental
uint64_t
rte_comch_dpa_dev_get_completion_user_data(const struct rte_comch_dpa_cqe *cqe);

#ifdef __cplusplus
}
#endif

#endif /* RTE_COMCH_DPA_PROG_H */
