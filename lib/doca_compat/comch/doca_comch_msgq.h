/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef DOCA_COMPAT_COMCH_MSGQ_H
#define DOCA_COMPAT_COMCH_MSGQ_H

/**
 * @file
 * DOCA compatibility layer: Comch MsgQ, CPU code and DPA programs exchanging
 * messages, over rte_comch's MsgQ (rte_comch_msgq.h) and the software DPA.
 *
 * A MsgQ carries one direction: doca_comch_msgq_set_dpa_consumer() (CPU
 * producers to DPA consumers) or doca_comch_msgq_set_dpa_producer() (DPA
 * producers to CPU consumers). Its producers and consumers are the
 * doca_comch_producer and doca_comch_consumer contexts of
 * doca_comch_producer.h and doca_comch_consumer.h, with immediate data only
 * (NULL buffers):
 *   - the CPU side is attached to a progress engine and used with tasks, as on
 *     a connection;
 *   - the DPA side is set with doca_ctx_set_datapath_on_dpa() (doca_dpa.h),
 *     configured with the calls below, started with doca_ctx_start(), and
 *     driven by DPA programs (doca_dpa_dev_comch_msgq.h) through its handle.
 *
 * The MsgQ of a device runs on the device's DPA device (doca_dpa.h), next to
 * its own: any DOCA device has MsgQs, with no mapping to set up.
 *
 * This header also declares the MsgQ calls DOCA declares in
 * doca_comch_consumer.h and doca_comch_producer.h, which include it.
 *
 * Thread safety: as rte_comch_msgq.h; a consumer completion context, as a
 * DPA completion context (doca_dpa.h).
 */

#include <stdint.h>

#include <doca_dpa_types.h>
#include <doca_error.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_dev;
struct doca_devinfo;
struct doca_dpa;
struct doca_dpa_thread;
struct doca_dpa_completion;
struct doca_comch_consumer;
struct doca_comch_producer;

/** A MsgQ: one direction between CPU code and DPA programs. */
struct doca_comch_msgq;
/** Where the messages of DPA consumers land for their program: a consumer completion context. */
struct doca_comch_consumer_completion;

/* ------------------------------------------------------------------- MsgQ */

/**
 * Whether MsgQs can be made on a device: always (the software DPA).
 * @param devinfo The device.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if devinfo is not a live devinfo.
 */
doca_error_t
doca_comch_msgq_cap_is_supported(const struct doca_devinfo *devinfo);

/**
 * Create a MsgQ on a device, stopped, with no direction.
 * @param dev An open device; it stays in use until the MsgQ is destroyed.
 * @param msgq Set to the MsgQ.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (NULL, not a live device);
 *   DOCA_ERROR_NO_MEMORY; the error of opening the device's DPA device.
 */
doca_error_t
doca_comch_msgq_create(struct doca_dev *dev, struct doca_comch_msgq **msgq);

/**
 * Destroy a stopped MsgQ.
 * @param msgq The MsgQ.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if not live;
 *   DOCA_ERROR_BAD_STATE if it is started.
 */
doca_error_t
doca_comch_msgq_destroy(struct doca_comch_msgq *msgq);

/**
 * Make the MsgQ carry messages from CPU producers to consumers on a DPA.
 * @param msgq A stopped MsgQ.
 * @param dpa A DPA of the MsgQ's device; it must outlive the MsgQ's start.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (not live);
 *   DOCA_ERROR_BAD_STATE if the MsgQ is started.
 */
doca_error_t
doca_comch_msgq_set_dpa_consumer(struct doca_comch_msgq *msgq, struct doca_dpa *dpa);

/**
 * Make the MsgQ carry messages from producers on a DPA to CPU consumers.
 * @param msgq A stopped MsgQ.
 * @param dpa A DPA of the MsgQ's device.
 * @return As doca_comch_msgq_set_dpa_consumer().
 */
doca_error_t
doca_comch_msgq_set_dpa_producer(struct doca_comch_msgq *msgq, struct doca_dpa *dpa);

/**
 * Set how many consumers the MsgQ may have at once (default 16).
 * @param msgq A stopped MsgQ.
 * @param max_num_consumers 1 to 256.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (not live, out of range);
 *   DOCA_ERROR_BAD_STATE if started.
 */
doca_error_t
doca_comch_msgq_set_max_num_consumers(struct doca_comch_msgq *msgq, uint32_t max_num_consumers);

/**
 * Set how many producers the MsgQ may have at once (default 16).
 * @param msgq A stopped MsgQ.
 * @param max_num_producers 1 to 256.
 * @return As doca_comch_msgq_set_max_num_consumers().
 */
doca_error_t
doca_comch_msgq_set_max_num_producers(struct doca_comch_msgq *msgq, uint32_t max_num_producers);

/**
 * Start the MsgQ: producers and consumers can be made from it.
 * @param msgq The MsgQ.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (not live, its DPA is another
 *   device's); DOCA_ERROR_BAD_STATE if started already or no direction was set;
 *   DOCA_ERROR_NO_MEMORY.
 */
doca_error_t
doca_comch_msgq_start(struct doca_comch_msgq *msgq);

/**
 * Stop the MsgQ, once its producers and consumers are destroyed.
 * @param msgq The MsgQ.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if not live;
 *   DOCA_ERROR_BAD_STATE if it is not started; DOCA_ERROR_IN_USE while
 *   producers or consumers of it remain.
 */
doca_error_t
doca_comch_msgq_stop(struct doca_comch_msgq *msgq);

/**
 * Create a consumer on a started MsgQ: on the DPA if its consumers are there
 * (then doca_ctx_set_datapath_on_dpa() and the DPA calls below), otherwise a
 * CPU consumer (post-recv tasks with NULL buffers).
 * @param msgq The MsgQ.
 * @param consumer Set to the consumer, IDLE.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if not live;
 *   DOCA_ERROR_BAD_STATE if the MsgQ is not started; DOCA_ERROR_FULL if it
 *   has its maximum of consumers; DOCA_ERROR_NO_MEMORY.
 */
doca_error_t
doca_comch_msgq_consumer_create(struct doca_comch_msgq *msgq,
				struct doca_comch_consumer **consumer);

/**
 * Create a producer on a started MsgQ: on the DPA if its producers are there,
 * otherwise a CPU producer (send tasks with NULL buffers and immediate data).
 * @param msgq The MsgQ.
 * @param producer Set to the producer, IDLE.
 * @return As doca_comch_msgq_consumer_create().
 */
doca_error_t
doca_comch_msgq_producer_create(struct doca_comch_msgq *msgq,
				struct doca_comch_producer **producer);

/* ----------------------------------------------- consumer completion contexts */

/**
 * Create a consumer completion context: where the messages of DPA consumers
 * land, for the program of its thread. Configure it, start it, then attach
 * consumers to it (doca_comch_consumer_set_completion()).
 * @param consumer_comp Set to the context, stopped (16 receives, 32 bytes of
 *   immediate data, no limit of consumers until set).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if consumer_comp is NULL;
 *   DOCA_ERROR_NO_MEMORY.
 */
doca_error_t
doca_comch_consumer_completion_create(struct doca_comch_consumer_completion **consumer_comp);

/**
 * Destroy a consumer completion context, stopping it first if needed.
 * @param consumer_comp The context.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if not live;
 *   DOCA_ERROR_IN_USE while consumers are attached.
 */
doca_error_t
doca_comch_consumer_completion_destroy(struct doca_comch_consumer_completion *consumer_comp);

/**
 * Set the DPA thread the context wakes when a message lands while it is
 * armed (required; before the start). The context belongs to the thread's DPA.
 * @param consumer_comp The context.
 * @param dpa_thread A DPA thread, started before the context starts.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (not live);
 *   DOCA_ERROR_BAD_STATE if the context is started.
 */
doca_error_t
doca_comch_consumer_completion_set_dpa_thread(struct doca_comch_consumer_completion *consumer_comp,
					      struct doca_dpa_thread *dpa_thread);

/**
 * Set how many messages the context holds for its consumers together, rounded
 * up to a power of two (before the start).
 * @param consumer_comp The context.
 * @param max_num_recv 1 to 1048576.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (not live, out of range);
 *   DOCA_ERROR_BAD_STATE if started.
 */
doca_error_t
doca_comch_consumer_completion_set_max_num_recv(
	struct doca_comch_consumer_completion *consumer_comp, uint32_t max_num_recv);

/**
 * How many messages the context holds.
 * @param consumer_comp The context.
 * @param max_num_recv Set to it (a power of two).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on NULL or not live.
 */
doca_error_t
doca_comch_consumer_completion_get_max_num_recv(
	struct doca_comch_consumer_completion *consumer_comp, uint32_t *max_num_recv);

/**
 * Set how many consumers may be attached at once, rounded up to a power of
 * two (before the start).
 * @param consumer_comp The context.
 * @param max_num_consumers 1 to 65536.
 * @return As doca_comch_consumer_completion_set_max_num_recv().
 */
doca_error_t
doca_comch_consumer_completion_set_max_num_consumers(
	struct doca_comch_consumer_completion *consumer_comp, uint32_t max_num_consumers);

/**
 * How many consumers may be attached at once (0: no limit).
 * @param consumer_comp The context.
 * @param max_num_consumers Set to it.
 * @return As doca_comch_consumer_completion_get_max_num_recv().
 */
doca_error_t
doca_comch_consumer_completion_get_max_num_consumers(
	struct doca_comch_consumer_completion *consumer_comp, uint32_t *max_num_consumers);

/**
 * Set the longest immediate data of its messages (before the start): the
 * consumers attached may accept no more (checked at their start).
 * @param consumer_comp The context.
 * @param imm_data_len 1 to 32.
 * @return As doca_comch_consumer_completion_set_max_num_recv().
 */
doca_error_t
doca_comch_consumer_completion_set_imm_data_len(
	struct doca_comch_consumer_completion *consumer_comp, uint32_t imm_data_len);

/**
 * The longest immediate data of its messages.
 * @param consumer_comp The context.
 * @param imm_data_len Set to it.
 * @return As doca_comch_consumer_completion_get_max_num_recv().
 */
doca_error_t
doca_comch_consumer_completion_get_imm_data_len(
	struct doca_comch_consumer_completion *consumer_comp, uint32_t *imm_data_len);

/**
 * Start the context, armed: consumers can be attached to it.
 * @param consumer_comp The context.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if not live;
 *   DOCA_ERROR_BAD_STATE if started already, or no thread was set, or the
 *   thread is not started; DOCA_ERROR_FULL if its DPA has as many completion
 *   contexts as it can; DOCA_ERROR_NO_MEMORY.
 */
doca_error_t
doca_comch_consumer_completion_start(struct doca_comch_consumer_completion *consumer_comp);

/**
 * Stop the context: its handle goes stale.
 * @param consumer_comp The context.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if not live;
 *   DOCA_ERROR_BAD_STATE if not started; DOCA_ERROR_IN_USE while consumers
 *   are attached.
 */
doca_error_t
doca_comch_consumer_completion_stop(struct doca_comch_consumer_completion *consumer_comp);

/**
 * The handle its program names the started context by.
 * @param consumer_comp The context.
 * @param handle Set to the handle.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on NULL or not live;
 *   DOCA_ERROR_BAD_STATE if it is not started.
 */
doca_error_t
doca_comch_consumer_completion_get_dpa_handle(struct doca_comch_consumer_completion *consumer_comp,
					      doca_dpa_dev_comch_consumer_completion_t *handle);

/* ------------------------------------------------ DPA consumers, DPA producers */

/**
 * Attach a DPA consumer to a started consumer completion context (required
 * before its start): each message a CPU producer sends it lands there.
 * @param consumer A DPA consumer, IDLE, its datapath set on the DPA.
 * @param consumer_comp The context.
 * @param user_data Carried by each of its messages
 *   (doca_dpa_dev_comch_consumer_get_completion_user_data()).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (not live, not a DPA consumer,
 *   the context of another DPA); DOCA_ERROR_BAD_STATE if the consumer is not
 *   IDLE or the context not started; DOCA_ERROR_FULL if the context has its
 *   maximum of consumers.
 */
doca_error_t
doca_comch_consumer_set_completion(struct doca_comch_consumer *consumer,
				   struct doca_comch_consumer_completion *consumer_comp,
				   uint32_t user_data);

/**
 * Set how many receives the consumer's program may offer at once
 * (doca_dpa_dev_comch_consumer_ack(); default 16; before the start).
 * @param consumer A DPA consumer, IDLE.
 * @param dev_max_num_recv 1 to 1048576.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (not live, not a DPA
 *   consumer, out of range); DOCA_ERROR_BAD_STATE if not IDLE.
 */
doca_error_t
doca_comch_consumer_set_dev_max_num_recv(struct doca_comch_consumer *consumer,
					 uint32_t dev_max_num_recv);

/**
 * The handle programs name a DPA consumer by.
 * @param consumer A DPA consumer.
 * @param dpa_consumer Set to the handle.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (NULL, not live, not a DPA consumer).
 */
doca_error_t
doca_comch_consumer_get_dpa_handle(struct doca_comch_consumer *consumer,
				   doca_dpa_dev_comch_consumer_t *dpa_consumer);

/**
 * Set how many completions a DPA producer may have asked for and its program
 * not yet acknowledged (default 16; before the start).
 * @param producer A DPA producer, IDLE.
 * @param dev_max_num_send 1 to 1048576.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (not live, not a DPA
 *   producer, out of range); DOCA_ERROR_BAD_STATE if not IDLE.
 */
doca_error_t
doca_comch_producer_set_dev_max_num_send(struct doca_comch_producer *producer,
					 uint32_t dev_max_num_send);

/**
 * Attach the DPA completion context a DPA producer's completions land on
 * (required to send without DOCA_DPA_DEV_SUBMIT_FLAG_OPTIMIZE_REPORTS; before
 * the start). Their user data is the producer's context user data now.
 * @param producer A DPA producer, IDLE.
 * @param dpa_comp A started completion context of the MsgQ's DPA.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (not live, not a DPA
 *   producer, another DPA's context); DOCA_ERROR_BAD_STATE if the producer is
 *   not IDLE or the context not started.
 */
doca_error_t
doca_comch_producer_dpa_completion_attach(struct doca_comch_producer *producer,
					  struct doca_dpa_completion *dpa_comp);

/**
 * The handle programs name a DPA producer by.
 * @param producer A DPA producer.
 * @param dpa_producer Set to the handle.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (NULL, not live, not a DPA producer).
 */
doca_error_t
doca_comch_producer_get_dpa_handle(struct doca_comch_producer *producer,
				   doca_dpa_dev_comch_producer_t *dpa_producer);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_COMPAT_COMCH_MSGQ_H */
