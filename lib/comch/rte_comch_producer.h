/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef RTE_COMCH_PRODUCER_H
#define RTE_COMCH_PRODUCER_H

/**
 * @file
 * Fast path, sending side: the producer.
 *
 * A producer lives on an established connection, or on a started MsgQ
 * (rte_comch_msgq.h), and sends to consumers on the other side, by their ids
 * (learnt from new-consumer events; a MsgQ's consumers are its own). A send task
 * carries a buffer (from any started mmap) and/or up to 32 bytes of immediate
 * data; the driver copies them straight into the next buffer the target
 * consumer posted. Messages to one consumer arrive in the order they were
 * sent. A send completes, through its callback in the producer's progress,
 * once the data is in the consumer's buffer and the consumer has been told.
 *
 * Submit refuses at once, leaving nothing half-delivered and the task with the
 * caller: -EAGAIN if the consumer has no buffer posted yet, or if another
 * producer of this process sent to it first and the two are switching to a
 * shared lock (for one grace period: every running producer of the
 * connection runs a progress round or sleeps); progress and retry: nothing is
 * dropped. -EMSGSIZE if the data is longer than the room of the buffer it
 * would land in (a post-recv task's buffer offers the room after the data it
 * holds: messages are appended), or the immediate data longer than the
 * consumer accepts; the buffer stays posted for the next message; -ENOENT if
 * the consumer id is unknown or expired; -ENOTCONN if the connection ended
 * (or the MsgQ's driver failed).
 *
 * On a MsgQ, messages are immediate data only (a buffer is refused with
 * -EINVAL). A producer on the DPA side of its MsgQ (a DPA producer) is driven
 * by its DPA program: its send tasks and the burst API are refused
 * (-ENOTSUP), and no grace period waits for its engine.
 *
 * Sleeping: completions are reported at the producer's next progress, which is
 * also when the consumers it filled are woken if they sleep. Posting a buffer
 * wakes nobody, so while the producer's last submit was refused with -EAGAIN,
 * rte_comch_pe_request_notification() on its engine says -EAGAIN (keep
 * polling) until a submit succeeds or the producer is restarted. A running
 * producer must be progressed or asleep: the peer's withdrawal of a consumer
 * (a MsgQ: the stop of one of its DPA consumers) waits for every running
 * producer of the connection or MsgQ to do one or the other.
 *
 * Thread safety: create and destroy a producer from any thread, as DOCA
 * allows (one per thread): on a connection, the call takes the connection's
 * engine for itself, after the round in progress on another thread if any; a
 * MsgQ's takes the MsgQ's lock. Start, stop, submit and progress it from the
 * thread using its own engine. Producers on different lcores may send to the
 * same consumer.
 */

#include <stdint.h>

#include <rte_compat.h>

#include <rte_comch_types.h>
#include <rte_comch_ctrl.h>
#include <rte_comch_fp.h>
#include <rte_comch_mmap.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rte_comch_producer;
struct rte_comch_producer_task_send;

/**
 * Producer send task completion or error callback.
 *
 * @param task           The task; rte_comch_task_get_status() gives the result.
 * @param task_user_data The task's user data.
 * @param ctx_user_data  The producer context's user data.
 */
typedef void (*rte_comch_producer_task_send_cb_t)(struct rte_comch_producer_task_send *task,
						  union rte_comch_data task_user_data,
						  union rte_comch_data ctx_user_data);

/**
 * Create a producer on a connection.
 *
 * @param conn An established connection.
 * @return
 *   The producer, or NULL with rte_errno set: EINVAL if conn is NULL or not a
 *   live connection; ENOTSUP if the device has no producers; ENOTCONN if the
 *   connection is not established; ENOSPC if the connection has the device's
 *   max_producers already; ENOMEM.
 */
__rte_experimental
struct rte_comch_producer *
rte_comch_producer_create(struct rte_comch_connection *conn);

/**
 * Destroy a producer.
 *
 * @param producer The producer; IDLE.
 * @return
 *   0 on success; -EINVAL if producer is NULL; -EBUSY if it is not IDLE or send
 *   tasks taken from its pool have not been freed.
 */
__rte_experimental
int
rte_comch_producer_destroy(struct rte_comch_producer *producer);

/**
 * The producer's context. Started, it is RUNNING at once.
 *
 * @param producer The producer.
 * @return
 *   The context, or NULL with rte_errno set to EINVAL if producer is NULL.
 */
__rte_experimental
struct rte_comch_ctx *
rte_comch_producer_as_ctx(struct rte_comch_producer *producer);

/**
 * The producer's id, unique on its connection or MsgQ, given to consumers with
 * each message. Ids start at 1, as consumers' do: never 0, the smallest free
 * one at creation, reused after a destroy.
 *
 * @param producer The producer.
 * @param id       Set to its id.
 * @return
 *   0 on success; -EINVAL if an argument is NULL.
 */
__rte_experimental
int
rte_comch_producer_get_id(const struct rte_comch_producer *producer, uint32_t *id);

/**
 * Configure send tasks. Mandatory; only while IDLE. error_cb is called for a
 * send the driver accepted at submit but could not complete (an asynchronous
 * transport's transfer that failed), with the reason as the task's status;
 * with a driver that copies at submit (shm), a send either fails at submit or
 * completes successfully.
 *
 * @param producer      The producer.
 * @param completion_cb Called when a send completed. Mandatory.
 * @param error_cb      Called when a send failed after its submit. Mandatory.
 * @param num_tasks     Pool size, 1 to the device's max_fast_tasks.
 * @return
 *   0 on success; -EINVAL for a NULL argument or num_tasks not in 1 to the
 *   device's max_fast_tasks; -EBUSY if not IDLE, or if num_tasks changes the
 *   size of a pool whose tasks are not all freed.
 */
__rte_experimental
int
rte_comch_producer_task_send_set_conf(struct rte_comch_producer *producer,
				      rte_comch_producer_task_send_cb_t completion_cb,
				      rte_comch_producer_task_send_cb_t error_cb,
				      uint32_t num_tasks);

/**
 * Take a send task from the pool and set it up. The buffer's data and the
 * immediate data are read at submit.
 *
 * @param producer    The producer; RUNNING.
 * @param buf         Data to send (its data, data_len), or NULL for immediate data only.
 * @param imm_data    Immediate data, or NULL if imm_len is 0.
 * @param imm_len     0 to RTE_COMCH_MAX_IMM_DATA_LEN bytes.
 * @param consumer_id Target consumer on the other side.
 * @param task        Set to the task.
 * @return
 *   0 on success; -EINVAL for a NULL producer or task, NULL imm_data with
 *   imm_len > 0, or a buffer on a MsgQ; -EMSGSIZE if imm_len is above the
 *   device's max_imm_data_len or the buffer's data above its max_buf_size;
 *   -ENOTSUP for a DPA producer; -EBUSY if the producer is not RUNNING;
 *   -ENOMEM if the pool is empty.
 */
__rte_experimental
int
rte_comch_producer_task_send_alloc_init(struct rte_comch_producer *producer,
					struct rte_comch_buf *buf, const uint8_t *imm_data,
					uint32_t imm_len, uint32_t consumer_id,
					struct rte_comch_producer_task_send **task);

/**
 * The generic task behind a producer send task.
 *
 * @param task The send task.
 * @return
 *   The task, or NULL with rte_errno set to EINVAL if task is NULL.
 */
__rte_experimental
struct rte_comch_task *
rte_comch_producer_task_send_as_task(struct rte_comch_producer_task_send *task);

/**
 * The task's buffer.
 *
 * @param task The send task.
 * @return
 *   The buffer (NULL for immediate data only), or NULL with rte_errno set to
 *   EINVAL if task is NULL.
 */
__rte_experimental
struct rte_comch_buf *
rte_comch_producer_task_send_get_buf(const struct rte_comch_producer_task_send *task);

/**
 * Change the task's buffer (NULL: immediate data only).
 *
 * @param task The send task, not in flight.
 * @param buf  The new buffer, or NULL.
 * @return
 *   0 on success; -EINVAL if task is NULL, or buf is not NULL on a MsgQ's
 *   producer; -EMSGSIZE if the buffer's data is above max_buf_size; -EBUSY if
 *   the task is in flight.
 */
__rte_experimental
int
rte_comch_producer_task_send_set_buf(struct rte_comch_producer_task_send *task,
				     struct rte_comch_buf *buf);

/**
 * The task's immediate data.
 *
 * @param task The send task.
 * @param len Set to its length; may be NULL.
 * @return
 *   The immediate data (a copy kept in the task), or NULL with rte_errno set
 *   to EINVAL if task is NULL.
 */
__rte_experimental
const uint8_t *
rte_comch_producer_task_send_get_imm_data(const struct rte_comch_producer_task_send *task,
					  uint32_t *len);

/**
 * Change the task's immediate data (copied into the task).
 *
 * @param task     The send task, not in flight.
 * @param imm_data The immediate data, or NULL if len is 0.
 * @param len      Its length, 0 to the device's max_imm_data_len.
 * @return
 *   0 on success; -EINVAL if task is NULL or imm_data is NULL with len > 0;
 *   -EMSGSIZE above max_imm_data_len; -EBUSY if the task is in flight.
 */
__rte_experimental
int
rte_comch_producer_task_send_set_imm_data(struct rte_comch_producer_task_send *task,
					  const uint8_t *imm_data, uint32_t len);

/**
 * The task's target consumer.
 *
 * @param task        The send task.
 * @param consumer_id Set to its target consumer's id.
 * @return
 *   0 on success; -EINVAL if an argument is NULL.
 */
__rte_experimental
int
rte_comch_producer_task_send_get_consumer_id(const struct rte_comch_producer_task_send *task,
					     uint32_t *consumer_id);

/**
 * Change the task's target consumer.
 *
 * @param task        The send task, not in flight.
 * @param consumer_id The new target consumer's id.
 * @return
 *   0 on success; -EINVAL if task is NULL; -EBUSY if the task is in flight.
 */
__rte_experimental
int
rte_comch_producer_task_send_set_consumer_id(struct rte_comch_producer_task_send *task,
					     uint32_t consumer_id);

/**
 * Use the burst API instead of send tasks: rte_comch_producer_send_burst() and
 * rte_comch_producer_completed_burst(). Only while IDLE; a later
 * rte_comch_producer_task_send_set_conf() goes back to tasks.
 *
 * A MsgQ's CPU producer takes the burst API too, with immediate data only
 * (see rte_comch_producer_send_burst()).
 *
 * @param producer The producer of a connection, or a MsgQ's CPU producer; IDLE.
 * @return
 *   0 on success; -EINVAL if producer is NULL; -ENOTSUP for a MsgQ producer
 *   that a DPA program sends on (the CPU sends nothing on it); -EBUSY if it is
 *   not IDLE, or if send tasks taken from its pool have not been freed.
 */
__rte_experimental
int
rte_comch_producer_burst_enable(struct rte_comch_producer *producer);

/**
 * Send messages to one consumer of the peer, in order, each into the next
 * buffer it posted: the data is copied there (as much as the message has),
 * with the immediate data. On return the messages' memory is the caller's
 * again, for drivers that copy at send (shm, skeleton); with a driver that
 * completes later, when rte_comch_producer_completed_burst() says so.
 *
 * Inline, through the producer's fast-path object: no allocation, callback or
 * free; the consumer's lock is taken once per burst. The consumer is woken, if
 * it sleeps, at the producer's next progress.
 * A MsgQ's CPU producer sends immediate data only: mmap is NULL and each
 * message's len 0; each message takes one receive the DPA program offered.
 * Thread safety: the thread using the producer's engine.
 *
 * @param producer     The producer, RUNNING in burst mode.
 * @param consumer_id  A consumer of the peer (its new-consumer event gave the id).
 * @param mmap         The registered memory the messages' data lies in. Drivers
 *                     that copy it themselves (shm, skeleton) accept NULL; a
 *                     portable application gives it.
 * @param msgs         The messages; data may be NULL for immediate data only.
 * @param nb           How many.
 * @return
 *   The number sent, from the first: fewer than nb when the consumer has no
 *   more buffers posted (send the rest later: nothing is dropped), or when the
 *   next message does not fit. With none sent: -EMSGSIZE if the first is
 *   longer than the buffer it would land in, or its immediate data longer
 *   than the consumer accepts; -ENOENT if the consumer id is unknown or
 *   expired; -ENOTCONN if the connection ended; -EBUSY if the producer is not
 *   RUNNING in burst mode; -EINVAL if msgs is NULL with nb > 0, or mmap is not
 *   registered with the producer's device (for a MsgQ: if mmap is not NULL). A
 *   message with more immediate data than the consumer accepts (at most
 *   RTE_COMCH_MAX_IMM_DATA_LEN), or with data on a MsgQ, ends the burst
 *   before it; first in the burst, it fails it with -EMSGSIZE.
 */
__rte_experimental
static inline int
rte_comch_producer_send_burst(struct rte_comch_producer *producer, uint32_t consumer_id,
			      const struct rte_comch_mmap *mmap,
			      const struct rte_comch_fp_msg *msgs, uint16_t nb)
{
	const struct rte_comch_producer_fp *fp = (const struct rte_comch_producer_fp *)producer;

	return fp->send_burst(fp->obj, consumer_id, mmap, msgs, nb);
}

/**
 * How many burst sends completed since the last call, oldest first, up to max.
 * With a driver that copies at send (shm, skeleton) every send completes when
 * it returns; a driver whose transfers complete later reports them here, and
 * status[i] (if status is not NULL) is 0 or the -errno of a transfer that
 * failed.
 *
 * Inline. Thread safety: the thread using the producer's engine.
 *
 * @param producer The producer, in burst mode.
 * @param status   Set to the status of each completion, or NULL.
 * @param max      Room in status: the most completions to report.
 * @return
 *   The number of completions (0 to max); -EBUSY if the producer is not in
 *   burst mode.
 */
__rte_experimental
static inline int
rte_comch_producer_completed_burst(struct rte_comch_producer *producer, int *status,
				   uint16_t max)
{
	const struct rte_comch_producer_fp *fp = (const struct rte_comch_producer_fp *)producer;

	return fp->completed_burst(fp->obj, status, max);
}

#ifdef __cplusplus
}
#endif

#endif /* RTE_COMCH_PRODUCER_H */
