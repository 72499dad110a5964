/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef RTE_COMCH_MSGQ_H
#define RTE_COMCH_MSGQ_H

/**
 * @file
 * MsgQ: producers and consumers between CPU code and DPA programs.
 *
 * A MsgQ links producers and consumers of one process without a server, a
 * client or a connection: one side is CPU code, the other programs on the
 * device's DPA (the software DPA of the "dpa" driver, rte_comch_dpa.h). Each
 * MsgQ carries one direction, chosen before its start:
 *   - rte_comch_msgq_set_dpa_consumer(): CPU producers send to DPA consumers;
 *   - rte_comch_msgq_set_dpa_producer(): DPA producers send to CPU consumers.
 * Two MsgQs make a request/answer pair.
 *
 * rte_comch_msgq_producer_create() and rte_comch_msgq_consumer_create() return
 * ordinary producers and consumers (rte_comch_producer.h, rte_comch_consumer.h),
 * contexts with the usual states, attached to an engine and started, stopped,
 * progressed and destroyed as those of a connection. Messages carry immediate
 * data only (up to 32 bytes): send tasks and posted receives take no buffer
 * (NULL).
 *   - The CPU side of a MsgQ uses the tasks: a CPU producer's send task names
 *     a DPA consumer by its id; a CPU consumer's post-recv task completes with
 *     what a DPA producer sent, and that producer's id. Either may use the
 *     burst API instead (rte_comch_producer_burst_enable(),
 *     rte_comch_consumer_burst_enable()): a producer's sends name no mmap and
 *     carry no data; a consumer's posts are NULL with length 0.
 *   - The DPA side is configured from the CPU with the dpa driver's calls
 *     (rte_comch_dpa.h: completion contexts, device-side limits, DPA handles)
 *     and driven by DPA programs (rte_comch_dpa_dev.h). Its task calls are
 *     refused with -ENOTSUP.
 *
 * Several producers and consumers per MsgQ: ids are 1 .. max (never 0), reused
 * after a destroy. A DPA consumer takes messages from every CPU producer of its MsgQ
 * (the producer id tells them apart); a DPA producer sends to any CPU consumer
 * of its MsgQ by id. Messages from one producer to one consumer arrive in
 * order; between producers there is no order.
 *
 * Flow control: a CPU producer's send to a DPA consumer needs a receive the
 * DPA program offered (consumer_ack on the device side), and a DPA producer's
 * send to a CPU consumer needs a posted receive task; otherwise the send is
 * refused with -EAGAIN and nothing is lost: progress and retry.
 *
 * Stops: a consumer's stop ends once no producer of the MsgQ can write to it
 * any more: for a DPA consumer, once every running CPU producer of the MsgQ
 * was progressed (or its engine slept); a CPU consumer's does not wait for
 * the DPA producers' engines. Sends to a stopped consumer are refused
 * (-ENOENT). If the driver fails (for example a CPU producer's send finds the
 * completion context of a started DPA consumer destroyed), the MsgQ ends as a
 * connection does: sends fail with -ENOTCONN, consumers return their receives
 * with -ECONNRESET, and none starts again until every producer and consumer
 * is destroyed and the MsgQ stopped and started again.
 *
 * Thread safety: create, configure, start, stop and destroy a MsgQ from one
 * thread at a time, while none of its producers or consumers is being created
 * or destroyed. Its producers and consumers follow the rules of their headers,
 * with "the lcore of the connection's engine" read as "any lcore, one call at a
 * time per MsgQ" (the library locks the MsgQ around them).
 */

#include <stdint.h>

#include <rte_compat.h>

#include <rte_comch_types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rte_comch_msgq;
/**
 * An accelerator that runs one side of a MsgQ, opaque to the library: the
 * driver of the MsgQ's device resolves it. The dpa driver's software DPA gives
 * one with rte_comch_dpa_as_accel().
 */
struct rte_comch_accel;

/** Default of rte_comch_msgq_set_max_num_consumers() and _producers(). */
#define RTE_COMCH_MSGQ_DEFAULT_MAX 16
/** Largest max_num_consumers and max_num_producers of a MsgQ. */
#define RTE_COMCH_MSGQ_MAX 256

/**
 * Create a MsgQ on a device whose driver offers MsgQs (RTE_COMCH_CAPA_MSGQ:
 * a device opened with "dpa:" devargs).
 *
 * @param dev
 *   The device; it stays open until the MsgQ is destroyed
 *   (rte_comch_dev_close() says -EBUSY until then).
 * @return
 *   The MsgQ, idle and with no direction yet, or NULL with rte_errno set:
 *   EINVAL if dev is NULL; ENOTSUP if its driver has no MsgQ; ENOMEM.
 */
__rte_experimental
struct rte_comch_msgq *
rte_comch_msgq_create(struct rte_comch_dev *dev);

/**
 * Destroy a stopped MsgQ.
 *
 * @param msgq
 *   A stopped MsgQ.
 * @return
 *   0; -EINVAL if msgq is NULL or destroyed; -EBUSY if it is started.
 */
__rte_experimental
int
rte_comch_msgq_destroy(struct rte_comch_msgq *msgq);

/**
 * Make the MsgQ carry messages from CPU producers to consumers on an
 * accelerator (doca_comch_msgq_set_dpa_consumer()). Replaces an earlier
 * direction.
 *
 * @param msgq
 *   A stopped MsgQ.
 * @param accel
 *   The accelerator (a DPA: rte_comch_dpa_as_accel()) of the MsgQ's device;
 *   it must outlive the MsgQ's start.
 * @return
 *   0; -EINVAL if msgq or accel is NULL; -EBUSY if the MsgQ is started.
 *   Whether accel belongs to the device is checked by its driver at start.
 */
__rte_experimental
int
rte_comch_msgq_set_dpa_consumer(struct rte_comch_msgq *msgq, struct rte_comch_accel *accel);

/**
 * Make the MsgQ carry messages from producers on an accelerator to CPU
 * consumers (doca_comch_msgq_set_dpa_producer()). Replaces an earlier
 * direction.
 *
 * @param msgq
 *   A stopped MsgQ.
 * @param accel
 *   As rte_comch_msgq_set_dpa_consumer().
 * @return
 *   As rte_comch_msgq_set_dpa_consumer().
 */
__rte_experimental
int
rte_comch_msgq_set_dpa_producer(struct rte_comch_msgq *msgq, struct rte_comch_accel *accel);

/**
 * Set how many consumers the MsgQ may have at once (default
 * RTE_COMCH_MSGQ_DEFAULT_MAX).
 *
 * @param msgq
 *   A stopped MsgQ.
 * @param max
 *   Consumers at once, 1 to RTE_COMCH_MSGQ_MAX.
 * @return
 *   0; -EINVAL if msgq is NULL or max is 0 or above RTE_COMCH_MSGQ_MAX;
 *   -EBUSY if the MsgQ is started.
 */
__rte_experimental
int
rte_comch_msgq_set_max_num_consumers(struct rte_comch_msgq *msgq, uint32_t max);

/**
 * Set how many producers the MsgQ may have at once (default
 * RTE_COMCH_MSGQ_DEFAULT_MAX).
 *
 * @param msgq
 *   A stopped MsgQ.
 * @param max
 *   Producers at once, 1 to RTE_COMCH_MSGQ_MAX.
 * @return
 *   As rte_comch_msgq_set_max_num_consumers().
 */
__rte_experimental
int
rte_comch_msgq_set_max_num_producers(struct rte_comch_msgq *msgq, uint32_t max);

/**
 * Start the MsgQ: producers and consumers can be created from it.
 *
 * @param msgq
 *   A stopped MsgQ with a direction.
 * @return
 *   0; -EINVAL if msgq is NULL, or the driver refused the dpa (not a live dpa,
 *   or not of this device); -EBUSY if already started; -ENOENT if no direction
 *   was set; -EPERM if called from a DPA program; -ENOMEM.
 */
__rte_experimental
int
rte_comch_msgq_start(struct rte_comch_msgq *msgq);

/**
 * Stop the MsgQ.
 *
 * @param msgq
 *   A started MsgQ, without producers or consumers.
 * @return
 *   0; -EINVAL if msgq is NULL; -EBUSY if it is not started, or producers or
 *   consumers of it still exist (destroy them first).
 */
__rte_experimental
int
rte_comch_msgq_stop(struct rte_comch_msgq *msgq);

/**
 * Whether the MsgQ's consumers are on the DPA.
 *
 * @param msgq
 *   The MsgQ.
 * @param[out] dpa_consumer
 *   1: CPU producers to DPA consumers; 0: DPA producers to CPU consumers.
 * @return
 *   0; -EINVAL if an argument is NULL; -ENOENT if no direction was set.
 */
__rte_experimental
int
rte_comch_msgq_get_direction(const struct rte_comch_msgq *msgq, int *dpa_consumer);

/**
 * The device of a MsgQ.
 *
 * @param msgq
 *   The MsgQ.
 * @return
 *   The device, or NULL (rte_errno EINVAL) if msgq is NULL.
 */
__rte_experimental
struct rte_comch_dev *
rte_comch_msgq_get_device(const struct rte_comch_msgq *msgq);

/**
 * Create a consumer on a started MsgQ (doca_comch_msgq_consumer_create()):
 * a DPA consumer if the MsgQ's consumers are on the DPA, otherwise a CPU
 * consumer. Set its immediate data length (rte_comch_consumer_set_imm_data_len())
 * and, for a CPU consumer, its post-recv tasks, attach it to an engine and
 * start it as any consumer; a DPA consumer is configured with the dpa driver
 * (rte_comch_dpa_consumer_set_completion() and friends) before its start.
 *
 * @param msgq
 *   A started MsgQ.
 * @return
 *   The consumer, or NULL with rte_errno set: EINVAL if msgq is NULL;
 *   EBUSY if the MsgQ is not started; ENOSPC if it has max_num_consumers
 *   consumers already; ENOMEM; or the driver's error.
 */
__rte_experimental
struct rte_comch_consumer *
rte_comch_msgq_consumer_create(struct rte_comch_msgq *msgq);

/**
 * Create a producer on a started MsgQ (doca_comch_msgq_producer_create()):
 * a DPA producer if the MsgQ's producers are on the DPA, otherwise a CPU
 * producer.
 *
 * @param msgq
 *   A started MsgQ.
 * @return
 *   The producer, or NULL with rte_errno set: EINVAL if msgq is NULL;
 *   EBUSY if the MsgQ is not started; ENOSPC if it has max_num_producers
 *   producers already; ENOMEM; or the driver's error.
 */
__rte_experimental
struct rte_comch_producer *
rte_comch_msgq_producer_create(struct rte_comch_msgq *msgq);

#ifdef __cplusplus
}
#endif

#endif /* RTE_COMCH_MSGQ_H */
