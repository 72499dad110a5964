/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef RTE_COMCH_CONSUMER_H
#define RTE_COMCH_CONSUMER_H

/**
 * @file
 * Fast path, receiving side: the consumer.
 *
 * A consumer lives on an established connection (or a started MsgQ: see
 * below) and receives into buffers of its mmap (which must allow
 * RTE_COMCH_MMAP_PERM_PCI_READ_WRITE: the peer writes into it). The mmap's
 * memory may be the driver's (rte_comch_mmap_alloc_memrange()) or the
 * application's own (rte_comch_mmap_set_memrange()): a driver whose peer
 * cannot reach the latter stages the data and copies it once more (shm: see
 * its guide), the former costs no extra copy. It posts buffers with post-recv
 * tasks; a producer on the other side of the connection writes its data, and
 * up to the consumer's immediate data length of immediate data, into the next
 * posted buffer, in the order it sent them, appended at the tail of the data
 * the buffer already holds (as DOCA describes it). A post-recv task completes
 * only then, with the data length, the immediate data and the producer's id
 * readable from it. A task posted with no buffer receives immediate data only.
 *
 * Life cycle: create (IDLE), configure, attach to an engine, start
 * (-EINPROGRESS: STARTING until the peer, told through the connection's
 * engine, has taken it: the peer sees a new-consumer event with this
 * consumer's id, and this consumer is RUNNING. A peer may refuse a consumer
 * over its budget (its devargs max_peer_consumers, or a driver's limits): the
 * consumer goes back to IDLE with last error -ENOSPC, -EMFILE or -ENOMEM, and
 * the connection stays), RUNNING, stop (the peer sees an expired-consumer event; once
 * it has confirmed it will not write again, posted tasks complete with
 * -ECONNABORTED and the consumer is IDLE). A peer that does not confirm within
 * 1 s (slow, hung or hostile) costs neither the connection nor the stop: the
 * stop completes without the confirmation (what the peer finished writing is
 * delivered, the other posted tasks complete with -ECONNABORTED, the last error
 * is -ETIMEDOUT) and the connection stays. The consumer is then quarantined
 * until the confirmation comes or the connection ends: its id stays taken
 * (no other consumer gets it, and it counts against max_consumers), its start
 * is refused (-EBUSY), and once destroyed its mmap stays held (the mmap's stop
 * says -EBUSY), since the peer may still know the id and, until it confirms,
 * write into the buffers that were posted (the driver keeps it out of them as
 * far as its transport can: see its guide). So a peer that never confirms holds
 * at most max_consumers ids and mmap references per connection, until the
 * connection ends. If the connection ends, posted tasks complete with
 * -ECONNRESET and the consumer goes to IDLE by itself with that last error.
 *
 * A MsgQ's consumer (rte_comch_msgq_consumer_create()) has no mmap: its
 * post-recv tasks take no buffer (-EINVAL) and receive immediate data only.
 * There is no peer to tell: its start makes it RUNNING at once, and its stop
 * ends once no producer of the MsgQ can be writing to it any more (the sends
 * of its CPU producers in flight, a grace period: each running one progressed
 * or asleep; or those of its DPA producers), posted tasks completing with
 * -ECONNABORTED. With the burst API, its posts take no buffer either (NULL,
 * length 0). A consumer on the DPA side of its MsgQ (a DPA consumer) receives
 * in its DPA program: its post-recv tasks and the burst API are refused
 * (-ENOTSUP).
 *
 * Sleeping: an engine whose consumers have buffers posted can sleep; it is
 * woken when a producer fills one (from that producer's next progress) and
 * when the connection ends.
 *
 * Thread safety: create and destroy a consumer from any thread, as DOCA allows
 * (one per thread): on a connection, the call takes the connection's engine
 * for itself, after the round in progress on another thread if any; a MsgQ's
 * takes the MsgQ's lock. Start, stop, submit and progress it from the thread
 * using its own engine, which may be another one.
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

struct rte_comch_consumer;
struct rte_comch_consumer_task_post_recv;

/**
 * Post-recv task completion or error callback.
 *
 * @param task           The task; rte_comch_task_get_status() gives the result.
 * @param task_user_data The task's user data.
 * @param ctx_user_data  The consumer context's user data.
 */
typedef void (*rte_comch_consumer_task_post_recv_cb_t)(
	struct rte_comch_consumer_task_post_recv *task, union rte_comch_data task_user_data,
	union rte_comch_data ctx_user_data);

/**
 * Create a consumer on a connection, receiving into mmap.
 *
 * @param conn An established connection.
 * @param mmap A started mmap with RTE_COMCH_MMAP_PERM_PCI_READ_WRITE, registered
 *             with the connection's device: the memory producers write into.
 * @return
 *   The consumer, or NULL with rte_errno set:
 *   - EINVAL: conn or mmap is NULL.
 *   - ENOTCONN: the connection is not established.
 *   - EPERM: mmap is not started, or lacks RTE_COMCH_MMAP_PERM_PCI_READ_WRITE.
 *   - EINVAL: the mmap is not registered with the connection's device
 *     (rte_comch_mmap_add_dev(), before the mmap started).
 *   - ENOTSUP: the device has no consumers, or its driver cannot let the peer
 *     write into this mmap's memory (see the driver's guide: shm takes memory
 *     of any origin, up to 1 TiB).
 *   - ENOSPC: the connection has the device's max_consumers already.
 *   - ENOMEM: out of memory.
 */
__rte_experimental
struct rte_comch_consumer *
rte_comch_consumer_create(struct rte_comch_connection *conn, struct rte_comch_mmap *mmap);

/**
 * Destroy a consumer. One whose last stop completed without the peer's
 * confirmation (quarantined) is gone for the application, and holds nothing
 * that stops the connection from ending, but its id and its mmap stay held
 * until the peer confirms or the connection ends.
 *
 * @param consumer The consumer; IDLE.
 * @return
 *   0 on success; -EINVAL if consumer is NULL; -EBUSY if it is not IDLE or
 *   post-recv tasks taken from its pool have not been freed.
 */
__rte_experimental
int
rte_comch_consumer_destroy(struct rte_comch_consumer *consumer);

/**
 * The consumer's context.
 *
 * @param consumer The consumer.
 * @return
 *   The context, or NULL with rte_errno set to EINVAL if consumer is NULL.
 */
__rte_experimental
struct rte_comch_ctx *
rte_comch_consumer_as_ctx(struct rte_comch_consumer *consumer);

/**
 * The consumer's id, unique on its connection or MsgQ: producers on the other
 * side address it with this id.
 *
 * Ids start at 1 and are never 0, on connections and MsgQs alike, so that 0
 * can stand for "no consumer yet" (as DOCA programs use it): the id is the
 * smallest one not taken by another consumer of the same side of the
 * connection (or of the MsgQ), at most the device's max_consumers (the
 * MsgQ's max_num_consumers), and is reused after a destroy. A peer that
 * announces a consumer 0 breaks the protocol and is dropped (-EPROTO).
 *
 * @param consumer The consumer.
 * @param id       Set to its id.
 * @return
 *   0 on success; -EINVAL if an argument is NULL.
 */
__rte_experimental
int
rte_comch_consumer_get_id(const struct rte_comch_consumer *consumer, uint32_t *id);

/**
 * Set how many bytes of immediate data the consumer accepts with each message
 * (default 0). Only while IDLE.
 *
 * @param consumer The consumer.
 * @param len      Bytes of immediate data, 0 to the device's max_imm_data_len.
 * @return
 *   0 on success; -EINVAL if consumer is NULL or len is above the device's
 *   max_imm_data_len; -EBUSY if not IDLE.
 */
__rte_experimental
int
rte_comch_consumer_set_imm_data_len(struct rte_comch_consumer *consumer, uint32_t len);

/**
 * Read the immediate data length.
 *
 * @param consumer The consumer.
 * @param len      Set to the immediate data length in bytes.
 * @return
 *   0 on success; -EINVAL if an argument is NULL.
 */
__rte_experimental
int
rte_comch_consumer_get_imm_data_len(const struct rte_comch_consumer *consumer, uint32_t *len);

/**
 * Configure post-recv tasks. Mandatory; only while IDLE.
 *
 * @param consumer      The consumer.
 * @param completion_cb Called when a posted buffer was filled. Mandatory.
 * @param error_cb      Called when a posted task came back unfilled. Mandatory.
 * @param num_tasks Pool size, 1 to the device's max_fast_tasks; also how many
 *                  buffers can be posted at once.
 * @return
 *   0 on success; -EINVAL for a NULL argument or a bad num_tasks; -EBUSY if
 *   not IDLE, or if num_tasks changes the size of a pool whose tasks are not
 *   all freed.
 */
__rte_experimental
int
rte_comch_consumer_task_post_recv_set_conf(struct rte_comch_consumer *consumer,
					   rte_comch_consumer_task_post_recv_cb_t completion_cb,
					   rte_comch_consumer_task_post_recv_cb_t error_cb,
					   uint32_t num_tasks);

/**
 * Take a post-recv task from the pool.
 *
 * @param consumer The consumer; RUNNING.
 * @param buf A buffer of the consumer's mmap to receive into, or NULL to
 *            receive immediate data only. At each submit, the message is to
 *            land at the tail of the buffer's data (data + data_len: its head
 *            for a buffer from rte_comch_buf_pool_get_by_addr()), and the room
 *            from there to the end of its piece (head + len) is offered: a
 *            longer message is refused to its producer (-EMSGSIZE) and the
 *            buffer stays posted. Reset data_len
 *            (rte_comch_buf_reset_data_len()) before posting a buffer again to
 *            receive over what it held. Posting a piece of memory that is
 *            already posted is the caller's mistake: it is not detected.
 * @param task Set to the task.
 * @return
 *   0 on success; -EINVAL for a NULL consumer or task, or a buffer not of the
 *   consumer's mmap (any buffer on a MsgQ); -ENOTSUP for a DPA consumer;
 *   -EBUSY if the consumer is not RUNNING; -ENOMEM if the pool is empty.
 *   Its submit (rte_comch_task_submit()) also refuses with -EINVAL a buffer
 *   whose data and data_len do not lie inside its piece.
 */
__rte_experimental
int
rte_comch_consumer_task_post_recv_alloc_init(struct rte_comch_consumer *consumer,
					     struct rte_comch_buf *buf,
					     struct rte_comch_consumer_task_post_recv **task);

/**
 * The generic task behind a post-recv task.
 *
 * @param task The post-recv task.
 * @return
 *   The task, or NULL with rte_errno set to EINVAL if task is NULL.
 */
__rte_experimental
struct rte_comch_task *
rte_comch_consumer_task_post_recv_as_task(struct rte_comch_consumer_task_post_recv *task);

/**
 * The task's buffer. After a successful completion, the producer's bytes
 * follow the data the buffer held at submit: data is unchanged, and data_len
 * grew by the number of bytes the producer wrote (0 for immediate data only).
 *
 * @param task The post-recv task.
 * @return
 *   The buffer (NULL for an immediate-only task), or NULL with rte_errno set
 *   to EINVAL if task is NULL.
 */
__rte_experimental
struct rte_comch_buf *
rte_comch_consumer_task_post_recv_get_buf(const struct rte_comch_consumer_task_post_recv *task);

/**
 * Change the task's buffer before submitting it again.
 *
 * @param task The post-recv task, not in flight.
 * @param buf  A buffer of the consumer's mmap, or NULL for immediate data only.
 * @return
 *   0 on success; -EINVAL if task is NULL or buf is not of the consumer's mmap
 *   (any buffer on a MsgQ); -EBUSY if the task is in flight.
 */
__rte_experimental
int
rte_comch_consumer_task_post_recv_set_buf(struct rte_comch_consumer_task_post_recv *task,
					  struct rte_comch_buf *buf);

/**
 * The immediate data received with the message, valid until the task is
 * submitted again or freed.
 *
 * @param task The post-recv task.
 * @param len Set to its length (0 if none); may be NULL.
 * @return
 *   The immediate data, or NULL with rte_errno set to EINVAL if task is NULL.
 */
__rte_experimental
const uint8_t *
rte_comch_consumer_task_post_recv_get_imm_data(
	const struct rte_comch_consumer_task_post_recv *task, uint32_t *len);

/**
 * The id of the producer whose message completed the task.
 *
 * @param task The post-recv task.
 * @param id   Set to the producer's id.
 * @return
 *   0 on success; -EINVAL if an argument is NULL; -ENOENT if the task has not
 *   completed successfully.
 */
__rte_experimental
int
rte_comch_consumer_task_post_recv_get_producer_id(
	const struct rte_comch_consumer_task_post_recv *task, uint32_t *id);

/**
 * Use the burst API instead of post-recv tasks: rte_comch_consumer_post_burst()
 * and rte_comch_consumer_recv_burst(). Only while IDLE; a later
 * rte_comch_consumer_task_post_recv_set_conf() goes back to tasks.
 *
 * A MsgQ's CPU consumer takes the burst API too, with immediate data only
 * (see rte_comch_consumer_post_burst()).
 *
 * @param consumer   The consumer of a connection, or a MsgQ's CPU consumer.
 * @param max_posts  Buffers posted at once at most: 1 to the device's max_fast_tasks.
 * @return
 *   0 on success; -EINVAL if consumer is NULL or max_posts out of range;
 *   -ENOTSUP for a MsgQ consumer that a DPA program receives on; -EBUSY if it
 *   is not IDLE, or if post-recv tasks taken from its pool have not been
 *   freed.
 */
__rte_experimental
int
rte_comch_consumer_burst_enable(struct rte_comch_consumer *consumer, uint32_t max_posts);

/**
 * Post receive buffers, in the order producers will fill them. Each must lie in
 * the consumer's mmap (or be NULL with length 0: immediate data only). A buffer
 * is the peer's to write until its completion comes back from
 * rte_comch_consumer_recv_burst(). The burst API has no buffer objects: a
 * message lands at the address posted, and len is the room offered there. To
 * append to data kept in a buffer, as a post-recv task does, post its tail
 * (the end of the data, and the room left after it). A MsgQ's CPU consumer
 * has no mmap: each post is NULL with length 0, and its completion carries
 * the immediate data a DPA producer sent.
 *
 * Inline, through the consumer's fast-path object: no lock, no allocation.
 * Thread safety: the thread using the consumer's engine.
 *
 * @param consumer The consumer, RUNNING in burst mode.
 * @param posts    The buffers: address and room of each.
 * @param nb       How many.
 * @return
 *   The number posted, from the first (fewer than nb when max_posts buffers
 *   are outstanding: post the rest once some come back); or, with none posted,
 *   -EBUSY if the consumer is not RUNNING in burst mode, -ENOTCONN if its
 *   connection ended, -EINVAL if posts is NULL or the first buffer is not in
 *   the consumer's mmap (for a MsgQ: is not NULL with length 0). A buffer
 *   that is not ends the burst before it.
 */
__rte_experimental
static inline int
rte_comch_consumer_post_burst(struct rte_comch_consumer *consumer,
			      const struct rte_comch_fp_post *posts, uint16_t nb)
{
	const struct rte_comch_consumer_fp *fp = (const struct rte_comch_consumer_fp *)consumer;

	return fp->post_burst(fp->obj, posts, nb);
}

/**
 * Take completions: buffers the peer's producers filled, oldest first, with
 * their length (bytes written from the address posted), immediate data and
 * producer id. Once the consumer is stopped
 * (or its connection ends), the buffers left unfilled come back after them,
 * with status -ECONNABORTED (stopped) or -ECONNRESET (the connection ended):
 * the consumer reaches IDLE only when every buffer came back, so keep calling
 * this (and progressing its engine) until then.
 *
 * Inline, through the consumer's fast-path object. Thread safety: the thread
 * using the consumer's engine.
 *
 * @param consumer The consumer, in burst mode.
 * @param cpl      Filled with up to max completions.
 * @param max      Room in cpl.
 * @return
 *   The number of completions written to cpl (0 to max); -EBUSY if the
 *   consumer is not in burst mode or is IDLE; -EINVAL if cpl is NULL and max
 *   is not 0.
 */
__rte_experimental
static inline int
rte_comch_consumer_recv_burst(struct rte_comch_consumer *consumer,
			      struct rte_comch_fp_cpl *cpl, uint16_t max)
{
	const struct rte_comch_consumer_fp *fp = (const struct rte_comch_consumer_fp *)consumer;

	return fp->recv_burst(fp->obj, cpl, max);
}

#ifdef __cplusplus
}
#endif

#endif /* RTE_COMCH_CONSUMER_H */
