/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef RTE_COMCH_DPA_MSGQ_H
#define RTE_COMCH_DPA_MSGQ_H

/**
 * @file
 * The software DPA's side of MsgQ, configured from the CPU.
 *
 * A MsgQ (rte_comch_msgq.h) on a device opened with "dpa:" devargs links CPU
 * code and DPA programs of a dpa created on that device. Its DPA consumers and
 * DPA producers are ordinary rte_comch consumers and producers for the
 * library, configured with the calls below while idle and driven by DPA
 * programs (rte_comch_dpa_dev.h), which name them by DPA handle:
 *   - a DPA consumer receives what CPU producers send as completion entries
 *     on its completion context (rte_comch_dpa_consumer_set_completion()),
 *     one for each receive its program offered with
 *     rte_comch_dpa_dev_consumer_ack();
 *   - a DPA producer sends to CPU consumers by id
 *     (rte_comch_dpa_dev_producer_post_send_imm_only(), _dma_copy()); a
 *     send may ask for a completion entry on the completion context attached
 *     with rte_comch_dpa_producer_completion_attach();
 *   - memory a program copies with dma_copy is an mmap started with the
 *     dpa's device added, named by rte_comch_dpa_mmap_get_dpa_handle().
 * Each call maps onto the DOCA call named in its comment.
 *
 * Thread safety: configure a producer or consumer from the thread that
 * configures it in the library (while it is idle); the handle getters may be
 * called from any thread while the object exists. Not from inside a DPA
 * program (-EPERM for the setters).
 */

#include <stdint.h>

#include <rte_compat.h>

#include <rte_comch_dpa_types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rte_comch_consumer;
struct rte_comch_producer;
struct rte_comch_mmap;
struct rte_comch_dpa;
struct rte_comch_dpa_cq;

/**
 * Set the completion context a DPA consumer receives on, and the user data of
 * its entries (doca_comch_consumer_set_completion()). Required before the
 * consumer's start. Each message a CPU producer sends is one entry
 * {user_data, producer_id, imm_len, imm}; the program takes it with
 * rte_comch_dpa_dev_get_completion() and gives its place back with
 * rte_comch_dpa_dev_completion_ack(). Give the context at least
 * dev_max_num_recv entries, or sends wait for its room as well.
 *
 * @param consumer
 *   A DPA consumer (rte_comch_msgq_consumer_create() on a MsgQ with DPA
 *   consumers), idle.
 * @param cq
 *   A completion context of the MsgQ's dpa: DOCA's consumer completion. Its
 *   conf's max_consumers bounds the consumers attached to it, its imm_len
 *   the immediate data they accept (checked at their start); it cannot be
 *   destroyed while they are attached.
 * @param user_data
 *   Copied into each entry.
 * @return
 *   0; -EINVAL if consumer is NULL, not a DPA consumer (a CPU consumer, or a
 *   consumer of another driver's device), or cq is NULL, destroyed or of
 *   another dpa; -ENOSPC if cq has max_consumers consumers attached already;
 *   -EBUSY if the consumer is not idle; -EPERM from a DPA program.
 */
__rte_experimental
int
rte_comch_dpa_consumer_set_completion(struct rte_comch_consumer *consumer,
				      struct rte_comch_dpa_cq *cq, uint64_t user_data);

/**
 * Set how many receives a DPA consumer's program may offer at once
 * (doca_comch_consumer_set_dev_max_num_recv()): the credits of
 * rte_comch_dpa_dev_consumer_ack() never exceed it. Default 16.
 *
 * @param consumer
 *   A DPA consumer, idle.
 * @param max
 *   1 to RTE_COMCH_DPA_CQ_MAX_SIZE.
 * @return
 *   0; -EINVAL if consumer is NULL or not a DPA consumer, or max is out of
 *   range; -EBUSY if the consumer is not idle; -EPERM from a DPA program.
 */
__rte_experimental
int
rte_comch_dpa_consumer_set_dev_max_num_recv(struct rte_comch_consumer *consumer, uint32_t max);

/**
 * The handle a DPA program names a DPA consumer by
 * (doca_comch_consumer_get_dpa_handle()). It becomes stale when the consumer
 * is destroyed.
 *
 * @param consumer
 *   A DPA consumer.
 * @param[out] handle
 *   Its handle, to give to programs.
 * @return
 *   0; -EINVAL if consumer or handle is NULL, or consumer is not a DPA consumer.
 */
__rte_experimental
int
rte_comch_dpa_consumer_get_dpa_handle(const struct rte_comch_consumer *consumer,
				      rte_comch_dpa_handle_t *handle);

/**
 * Set how many completions a DPA producer may have requested and not yet
 * acknowledged on its completion context
 * (doca_comch_producer_set_dev_max_num_send()): counted as the context's
 * entries posted and not acknowledged, a send that asks for a completion
 * beyond it is refused with -EAGAIN. Default 16.
 *
 * @param producer
 *   A DPA producer (rte_comch_msgq_producer_create() on a MsgQ with DPA
 *   producers), idle.
 * @param max
 *   1 to RTE_COMCH_DPA_CQ_MAX_SIZE.
 * @return
 *   0; -EINVAL if producer is NULL or not a DPA producer (a CPU producer, or a
 *   producer of another driver's device), or max is out of range; -EBUSY if
 *   the producer is not idle; -EPERM from a DPA program.
 */
__rte_experimental
int
rte_comch_dpa_producer_set_dev_max_num_send(struct rte_comch_producer *producer, uint32_t max);

/**
 * Attach the completion context a DPA producer's completions go to
 * (doca_comch_producer_dpa_completion_attach()). A send with
 * RTE_COMCH_DPA_DEV_SUBMIT_FLAG_COMPLETION posts, once delivered, an entry
 * {user_data, producer_id = the producer's id, imm_len 0} there.
 *
 * @param producer
 *   A DPA producer, idle.
 * @param cq
 *   A completion context of the MsgQ's dpa; it must outlive the producer's
 *   use of it. Several producers may share one.
 * @param user_data
 *   Copied into each of its completion entries.
 * @return
 *   0; -EINVAL if producer is NULL or not a DPA producer, or cq is NULL,
 *   destroyed or of another dpa; -EBUSY if the producer is not idle; -EPERM
 *   from a DPA program.
 */
__rte_experimental
int
rte_comch_dpa_producer_completion_attach(struct rte_comch_producer *producer,
					 struct rte_comch_dpa_cq *cq, uint64_t user_data);

/**
 * The handle a DPA program names a DPA producer by
 * (doca_comch_producer_get_dpa_handle()). It becomes stale when the producer
 * is destroyed. Programs may send with it from the producer's creation on,
 * whatever the state of its context: the software DPA does not tie its sends
 * to the producer's start.
 *
 * @param producer
 *   A DPA producer.
 * @param[out] handle
 *   Its handle, to give to programs.
 * @return
 *   0; -EINVAL if producer or handle is NULL, or producer is not a DPA producer.
 */
__rte_experimental
int
rte_comch_dpa_producer_get_dpa_handle(const struct rte_comch_producer *producer,
				      rte_comch_dpa_handle_t *handle);

/**
 * The handle a program of dpa names an mmap by in
 * rte_comch_dpa_dev_producer_dma_copy() (doca_mmap_dev_get_dpa_handle()): the
 * mmap's registration on dpa's device. It becomes stale when the mmap stops.
 * Addresses given with it are the mmap's own (process) addresses.
 *
 * @param dpa
 *   A dpa created on a "dpa:" device.
 * @param mmap
 *   An mmap started with dpa's device added (rte_comch_mmap_add_dev() before
 *   rte_comch_mmap_start()).
 * @param[out] handle
 *   The handle; valid in programs of this dpa only.
 * @return
 *   0; -EINVAL if an argument is NULL, dpa's device is not a "dpa:" device,
 *   or the mmap is not started or not registered with dpa's device; -EPERM
 *   from a DPA program.
 */
__rte_experimental
int
rte_comch_dpa_mmap_get_dpa_handle(struct rte_comch_dpa *dpa, const struct rte_comch_mmap *mmap,
				  rte_comch_dpa_handle_t *handle);

#ifdef __cplusplus
}
#endif

#endif /* RTE_COMCH_DPA_MSGQ_H */
