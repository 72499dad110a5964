/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef RTE_COMCH_DPA_DEV_H
#define RTE_COMCH_DPA_DEV_H

/**
 * @file
 * What a DPA program calls: the runtime's device side (rte_comch_dpa_prog.h,
 * of librte_comch_dpa_rt: threads, completion contexts, DPA memory) and the
 * MsgQ calls below, of the dpa driver (librte_comch_dpa).
 *
 * Thread safety: these calls are made by the running program, on its unit.
 * Called outside a DPA program, they fail with -EPERM.
 */

#include <stdint.h>

#include <rte_compat.h>

#include <rte_comch_dpa_prog.h>

#ifdef __cplusplus
extern "C" {
#endif

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
