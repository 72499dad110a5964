/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef RTE_COMCH_DPA_DEV_H
#define RTE_COMCH_DPA_DEV_H

/**
 * @file
 * The software DPA: the device side, for DPA programs only.
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

/* ------------------------------------------------------------------ MsgQ */

/*
 * The MsgQ calls of a program: DPA consumers and DPA producers of MsgQs
 * (rte_comch_msgq.h, configured with rte_comch_dpa_msgq.h), named by their DPA
 * handles. A DPA consumer's messages are completion entries on its completion
 * context: the program takes them with rte_comch_dpa_dev_get_completion()
 * (doca_dpa_dev_get_completion()), reads them with the entry accessors above
 * (doca_dpa_dev_comch_consumer_get_completion_imm(), _producer_id(),
 * doca_dpa_dev_get_completion_user_data()), acknowledges them with
 * rte_comch_dpa_dev_completion_ack() (doca_dpa_dev_completion_ack()) and asks
 * to be woken by the next with
 * rte_comch_dpa_dev_completion_request_notification()
 * (doca_dpa_dev_completion_request_notification()).
 */

/**
 * Flag of a DPA producer's send: post a completion entry to the producer's
 * attached completion context once the message is delivered.
 */
#define RTE_COMCH_DPA_DEV_SUBMIT_FLAG_COMPLETION (1u << 0)

/**
 * Offer n more receives to CPU producers on a DPA consumer
 * (doca_dpa_dev_comch_consumer_ack()). Each message a CPU producer sends takes
 * one; a send finds none offered is refused (-EAGAIN on the CPU) and retried.
 *
 * @param consumer
 *   A DPA consumer's handle (rte_comch_dpa_consumer_get_dpa_handle()).
 * @param n
 *   Receives to add; the receives offered and not yet taken never exceed the
 *   consumer's dev_max_num_recv. 0 does nothing.
 * @return
 *   0; -EINVAL if the handle is not a live DPA consumer of this dpa, or the
 *   receives offered would exceed dev_max_num_recv (nothing is added);
 *   -ENOTCONN if the consumer is not started (never started, or stopped since:
 *   its start resets the offer to 0); -EPERM outside a DPA program.
 */
__rte_experimental
int
rte_comch_dpa_dev_consumer_ack(rte_comch_dpa_handle_t consumer, uint32_t n);

/**
 * Send immediate data to a CPU consumer of the producer's MsgQ
 * (doca_dpa_dev_comch_producer_post_send_imm_only()). The message fills the
 * consumer's oldest posted receive (a post-recv task on the CPU) and wakes its
 * engine. With RTE_COMCH_DPA_DEV_SUBMIT_FLAG_COMPLETION, a completion entry
 * {user_data of the attach, producer_id = the producer's id, imm_len 0} is
 * posted to the producer's attached completion context when the message is
 * delivered, which here is before the call returns.
 *
 * Checks, in this order: the arguments; then, under the consumer's lock, that
 * the consumer is started and has a posted receive left, and that the
 * completion, if asked for, has room; only then is the message delivered.
 *
 * @param producer
 *   A DPA producer's handle (rte_comch_dpa_producer_get_dpa_handle()).
 * @param consumer_id
 *   The CPU consumer's id in the MsgQ.
 * @param imm
 *   The immediate data; may be NULL when imm_len is 0.
 * @param imm_len
 *   0 to RTE_COMCH_DPA_IMM_MAX, and at most what the consumer accepts
 *   (rte_comch_consumer_set_imm_data_len()).
 * @param flags
 *   0 or RTE_COMCH_DPA_DEV_SUBMIT_FLAG_COMPLETION.
 * @return
 *   0: delivered. Errors (nothing delivered):
 *   - -EPERM outside a DPA program;
 *   - -EINVAL: the handle is not a live DPA producer of this dpa, unknown
 *     flags, imm NULL with imm_len above 0, or a completion asked for with no
 *     completion context attached (or the attached one destroyed);
 *   - -EMSGSIZE: imm_len above RTE_COMCH_DPA_IMM_MAX or above what the consumer
 *     accepts;
 *   - -ENOENT: no consumer of that id, or it is not started;
 *   - -EAGAIN: the consumer has no posted receive left, or the completion
 *     would exceed dev_max_num_send or find the completion context full: send
 *     again later.
 */
__rte_experimental
int
rte_comch_dpa_dev_producer_post_send_imm_only(rte_comch_dpa_handle_t producer,
					      uint32_t consumer_id, const void *imm,
					      uint32_t imm_len, uint32_t flags);

/**
 * Copy bytes between two mmaps, then send immediate data as
 * rte_comch_dpa_dev_producer_post_send_imm_only() does
 * (doca_dpa_dev_comch_producer_dma_copy()): the consumer learns of the copy by
 * the message. Nothing is copied if the call fails.
 *
 * @param producer
 *   A DPA producer's handle.
 * @param consumer_id
 *   The CPU consumer's id in the MsgQ.
 * @param dst_mmap
 *   Handle of the destination mmap (rte_comch_dpa_mmap_get_dpa_handle() for
 *   this dpa); its permissions must include RTE_COMCH_MMAP_PERM_PCI_READ_WRITE.
 * @param dst_addr
 *   Destination address, in the mmap's range.
 * @param src_mmap
 *   Handle of the source mmap; its permissions must include
 *   RTE_COMCH_MMAP_PERM_PCI_READ_ONLY or RTE_COMCH_MMAP_PERM_PCI_READ_WRITE.
 * @param src_addr
 *   Source address, in the mmap's range.
 * @param len
 *   Bytes to copy; 0 copies nothing.
 * @param imm
 *   Immediate data of the message; may be NULL when imm_len is 0.
 * @param imm_len
 *   As for rte_comch_dpa_dev_producer_post_send_imm_only().
 * @param flags
 *   0 or RTE_COMCH_DPA_DEV_SUBMIT_FLAG_COMPLETION.
 * @return
 *   0: copied and delivered. Errors (nothing copied or delivered): those of
 *   rte_comch_dpa_dev_producer_post_send_imm_only(), and, checked before the
 *   consumer:
 *   - -EINVAL: an mmap handle is not a live registration on this dpa's device
 *     (stale once the mmap stopped), or the two ranges overlap;
 *   - -ERANGE: [addr, addr + len) is not inside its mmap's range (or wraps);
 *   - -EPERM: an mmap lacks the permission above.
 */
__rte_experimental
int
rte_comch_dpa_dev_producer_dma_copy(rte_comch_dpa_handle_t producer, uint32_t consumer_id,
				    rte_comch_dpa_handle_t dst_mmap, uint64_t dst_addr,
				    rte_comch_dpa_handle_t src_mmap, uint64_t src_addr,
				    uint64_t len, const void *imm, uint32_t imm_len,
				    uint32_t flags);

/**
 * Whether a CPU consumer has no posted receive left: a send to it now would
 * get -EAGAIN (doca_dpa_dev_comch_producer_is_consumer_empty()).
 *
 * @param producer
 *   A DPA producer's handle.
 * @param consumer_id
 *   The CPU consumer's id in the MsgQ.
 * @return
 *   1 if it has none; 0 if it has at least one; -EINVAL if the handle is not a
 *   live DPA producer of this dpa; -ENOENT if no consumer of that id is
 *   started; -EPERM outside a DPA program.
 */
__rte_experimental
int
rte_comch_dpa_dev_producer_is_consumer_empty(rte_comch_dpa_handle_t producer,
					     uint32_t consumer_id);

#ifdef __cplusplus
}
#endif

#endif /* RTE_COMCH_DPA_DEV_H */
