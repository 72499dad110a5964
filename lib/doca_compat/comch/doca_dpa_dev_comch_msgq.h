/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef DOCA_COMPAT_DPA_DEV_COMCH_MSGQ_H
#define DOCA_COMPAT_DPA_DEV_COMCH_MSGQ_H

/**
 * @file
 * DOCA compatibility layer: the MsgQ calls of DPA programs, over the software
 * DPA's (rte_comch_dpa_dev.h, the MsgQ section).
 *
 * A DPA consumer (a MsgQ set with doca_comch_msgq_set_dpa_consumer()) offers
 * receives to the CPU producers and takes their messages from its consumer
 * completion context; a DPA producer (doca_comch_msgq_set_dpa_producer())
 * sends immediate data, and copies between mmaps, to CPU consumers by id.
 * Immediate data is 32 bytes at most.
 *
 * Thread safety: as doca_dpa_dev.h.
 */

#include <stddef.h>
#include <stdint.h>

#include <doca_dpa_dev.h>
#include <doca_dpa_types.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A message taken from a consumer completion context: valid until acknowledged. */
typedef const struct doca_dpa_dev_comch_consumer_completion_element
	*doca_dpa_dev_comch_consumer_completion_element_t;

/**
 * Take the next message of a consumer completion context.
 * @param consumer_comp doca_comch_consumer_completion_get_dpa_handle().
 * @param comp_element Set to the message.
 * @return 1 if one was taken; 0 if there is none; a negative errno (bad
 *   handle, NULL, outside a program).
 */
int
doca_dpa_dev_comch_consumer_get_completion(
	doca_dpa_dev_comch_consumer_completion_t consumer_comp,
	doca_dpa_dev_comch_consumer_completion_element_t *comp_element);

/**
 * The immediate data of a message. It lives in the completion context: valid
 * until the message is acknowledged; do not write it.
 * @param comp_element The message.
 * @param imm_len Set to its length (0 to 32); may be NULL.
 * @return The data; NULL (and *imm_len 0) if comp_element is NULL.
 */
uint8_t *
doca_dpa_dev_comch_consumer_get_completion_imm(
	doca_dpa_dev_comch_consumer_completion_element_t comp_element, uint32_t *imm_len);

/**
 * The id of the CPU producer that sent a message.
 * @param comp_element The message.
 * @return The id (never 0); 0 if comp_element is NULL.
 */
uint32_t
doca_dpa_dev_comch_consumer_get_completion_producer_id(
	doca_dpa_dev_comch_consumer_completion_element_t comp_element);

/**
 * The user data of a message: what doca_comch_consumer_set_completion() gave
 * its consumer.
 * @param comp_element The message.
 * @return The user data; 0 if comp_element is NULL.
 */
uint32_t
doca_dpa_dev_comch_consumer_get_completion_user_data(
	doca_dpa_dev_comch_consumer_completion_element_t comp_element);

/**
 * Acknowledge the oldest messages taken, giving their places back in the
 * context (the receives are offered again with doca_dpa_dev_comch_consumer_ack()).
 * @param consumer_comp The consumer completion context.
 * @param num How many, at most what was taken and not acknowledged.
 * @return 0; -EINVAL (bad handle, num too big: nothing acknowledged); -EPERM
 *   outside a program.
 */
int
doca_dpa_dev_comch_consumer_completion_ack(doca_dpa_dev_comch_consumer_completion_t consumer_comp,
					   uint64_t num);

/**
 * Arm the consumer completion context: the next message, or one already
 * waiting, wakes its thread once.
 * @param consumer_comp The consumer completion context.
 * @return 0; -EINVAL on a bad handle; -EPERM outside a program.
 */
int
doca_dpa_dev_comch_consumer_completion_request_notification(
	doca_dpa_dev_comch_consumer_completion_t consumer_comp);

/**
 * Offer num more receives to the CPU producers of a DPA consumer: each
 * message takes one; a CPU send finding none is refused (DOCA_ERROR_AGAIN on
 * the CPU) and sent again later.
 * @param consumer doca_comch_consumer_get_dpa_handle().
 * @param num Receives to add; those offered and not taken stay within the
 *   consumer's doca_comch_consumer_set_dev_max_num_recv().
 * @return 0; -EINVAL (bad handle, too many: none added); -ENOTCONN if the
 *   consumer is not started; -EPERM outside a program.
 */
int
doca_dpa_dev_comch_consumer_ack(doca_dpa_dev_comch_consumer_t consumer, uint32_t num);

/**
 * Send immediate data to a CPU consumer of the producer's MsgQ: it completes
 * the consumer's oldest posted receive. Without
 * DOCA_DPA_DEV_SUBMIT_FLAG_OPTIMIZE_REPORTS, an element is posted to the
 * producer's completion context (doca_comch_producer_dpa_completion_attach())
 * once the message is delivered.
 * @param producer doca_comch_producer_get_dpa_handle().
 * @param consumer_id The CPU consumer's id (doca_comch_consumer_get_id()).
 * @param imm The data; NULL only with imm_len 0.
 * @param imm_len 0 to 32, at most what the consumer accepts.
 * @param flags doca_dpa_dev_submit_flag values.
 * @return 0: delivered. Nothing is delivered otherwise: -EAGAIN (no receive
 *   posted, or the completion has no room: send again later); -ENOENT (no
 *   started consumer of that id); -EMSGSIZE; -EINVAL (bad handle or flags, a
 *   completion with none attached); -EPERM outside a program.
 */
int
doca_dpa_dev_comch_producer_post_send_imm_only(doca_dpa_dev_comch_producer_t producer,
					       uint32_t consumer_id, const uint8_t *imm,
					       uint32_t imm_len, uint32_t flags);

/**
 * Copy length bytes between two mmaps, then send immediate data as
 * doca_dpa_dev_comch_producer_post_send_imm_only() does (which usually says
 * where the bytes are). Nothing is copied if the call fails.
 * @param producer doca_comch_producer_get_dpa_handle().
 * @param consumer_id The CPU consumer's id.
 * @param dst_mmap doca_mmap_dev_get_dpa_handle() of an mmap with PCI read-write access.
 * @param dst_addr Destination, in that mmap's range.
 * @param src_mmap Handle of an mmap with PCI access.
 * @param src_addr Source, in that mmap's range.
 * @param length Bytes; the ranges must not overlap.
 * @param imm The data; NULL only with imm_len 0.
 * @param imm_len 0 to 32.
 * @param flags doca_dpa_dev_submit_flag values.
 * @return As doca_dpa_dev_comch_producer_post_send_imm_only(), and -ERANGE
 *   (a range outside its mmap), -EPERM (an mmap lacks the access), -EINVAL (a
 *   stale mmap handle, overlapping ranges).
 */
int
doca_dpa_dev_comch_producer_dma_copy(doca_dpa_dev_comch_producer_t producer,
				     uint32_t consumer_id, doca_dpa_dev_mmap_t dst_mmap,
				     uint64_t dst_addr, doca_dpa_dev_mmap_t src_mmap,
				     uint64_t src_addr, size_t length, const uint8_t *imm,
				     uint32_t imm_len, uint32_t flags);

/**
 * Whether a CPU consumer has no receive posted: a send to it now is refused.
 * @param producer doca_comch_producer_get_dpa_handle().
 * @param consumer_id The CPU consumer's id.
 * @return 1 if it has none; 0 if it has one at least; a negative errno
 *   (-ENOENT: no started consumer of that id; bad handle; outside a program).
 */
int
doca_dpa_dev_comch_producer_is_consumer_empty(doca_dpa_dev_comch_producer_t producer,
					      uint32_t consumer_id);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_COMPAT_DPA_DEV_COMCH_MSGQ_H */
