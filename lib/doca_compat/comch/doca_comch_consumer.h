/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef DOCA_COMPAT_COMCH_CONSUMER_H
#define DOCA_COMPAT_COMCH_CONSUMER_H

/**
 * @file
 * DOCA compatibility layer: fast-path consumers (rte_comch consumers): post
 * buffers that producers on the other side of the connection fill.
 *
 * Thread-safety: a consumer and its tasks are used by the thread that
 * progresses its engine.
 */

#include <stdint.h>

#include <doca_error.h>
#include <doca_types.h>
#include <doca_compat_fast.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_buf;
struct doca_ctx;
struct doca_devinfo;
struct doca_mmap;
struct doca_task;
struct doca_comch_connection;
struct doca_comch_consumer;
struct doca_comch_consumer_task_post_recv;

/**
 * Post-recv completion or error callback.
 * @param task The task; doca_task_get_status() gives the result.
 * @param task_user_data The task's user data.
 * @param ctx_user_data The consumer's user data.
 */
typedef void (*doca_comch_consumer_task_post_recv_completion_cb_t)(
	struct doca_comch_consumer_task_post_recv *task, union doca_data task_user_data,
	union doca_data ctx_user_data);

/**
 * Whether the device runs consumers.
 * @param devinfo The device.
 * @return DOCA_SUCCESS if so; DOCA_ERROR_NOT_SUPPORTED if not;
 *   DOCA_ERROR_INVALID_VALUE if devinfo is NULL.
 */
doca_error_t
doca_comch_consumer_cap_is_supported(const struct doca_devinfo *devinfo);

/**
 * Most tasks of one consumer.
 * @param devinfo The device.
 * @param max_num_tasks Set to the number.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument.
 */
doca_error_t
doca_comch_consumer_cap_get_max_num_tasks(const struct doca_devinfo *devinfo,
					  uint32_t *max_num_tasks);

/**
 * Largest buffer a consumer receives (capped at UINT32_MAX).
 * @param devinfo The device.
 * @param max_buf_size Set to the size.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument.
 */
doca_error_t
doca_comch_consumer_cap_get_max_buf_size(const struct doca_devinfo *devinfo,
					 uint32_t *max_buf_size);

/**
 * Longest buffer list: 1 here.
 * @param devinfo The device.
 * @param max_buf_list_len Set to 1.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument.
 */
doca_error_t
doca_comch_consumer_cap_get_max_buf_list_len(const struct doca_devinfo *devinfo,
					     uint32_t *max_buf_list_len);

/**
 * Longest immediate data a consumer takes.
 * @param devinfo The device.
 * @param max_imm_data_len Set to the length.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument.
 */
doca_error_t
doca_comch_consumer_cap_get_max_imm_data_len(const struct doca_devinfo *devinfo,
					     uint32_t *max_imm_data_len);

/**
 * Create a consumer on an established connection, receiving into mmap (which
 * must be started, with DOCA_ACCESS_FLAG_PCI_READ_WRITE, on the connection's device).
 * @param comch_connection The connection.
 * @param buf_mmap The mmap its buffers come from.
 * @param consumer Set to the consumer.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument or an mmap
 *   not on the connection's device; DOCA_ERROR_BAD_STATE if the connection is
 *   not established; DOCA_ERROR_NOT_PERMITTED if the mmap is not started or
 *   lacks PCI read/write; DOCA_ERROR_NO_MEMORY.
 */
doca_error_t
doca_comch_consumer_create(struct doca_comch_connection *comch_connection,
			   struct doca_mmap *buf_mmap, struct doca_comch_consumer **consumer);

/**
 * Destroy an IDLE consumer.
 * @param consumer The consumer.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if NULL; DOCA_ERROR_BAD_STATE if not IDLE.
 */
doca_error_t
doca_comch_consumer_destroy(struct doca_comch_consumer *consumer);

/**
 * The consumer as a context.
 * @param consumer The consumer.
 * @return Its context; NULL (with a log line) if consumer is not a live consumer.
 */
struct doca_ctx *
doca_comch_consumer_as_ctx(struct doca_comch_consumer *consumer);

/**
 * The consumer's id (never 0), as producers address it; set when it is RUNNING.
 * @param consumer The consumer.
 * @param id Set to the id.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument.
 */
doca_error_t
doca_comch_consumer_get_id(const struct doca_comch_consumer *consumer, uint32_t *id);

/**
 * Set the longest immediate data the consumer takes (IDLE only).
 * @param consumer The consumer.
 * @param imm_data_len 0 to doca_comch_consumer_cap_get_max_imm_data_len().
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (NULL, too long);
 *   DOCA_ERROR_BAD_STATE if not IDLE.
 */
doca_error_t
doca_comch_consumer_set_imm_data_len(struct doca_comch_consumer *consumer, uint32_t imm_data_len);

/**
 * The longest immediate data the consumer takes.
 * @param consumer The consumer.
 * @param imm_data_len Set to it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument.
 */
doca_error_t
doca_comch_consumer_get_imm_data_len(const struct doca_comch_consumer *consumer,
				     uint32_t *imm_data_len);

/**
 * Configure the post-recv tasks (IDLE only; mandatory).
 * @param consumer The consumer.
 * @param task_completion_cb Called when a producer filled the buffer.
 * @param task_error_cb Called when the task ends without data (stop, peer gone).
 * @param num_post_recv_tasks Size of the pool.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (NULL, bad number);
 *   DOCA_ERROR_BAD_STATE if not IDLE; DOCA_ERROR_IN_USE if the pool changes
 *   size while tasks taken from it are not all freed.
 */
doca_error_t
doca_comch_consumer_task_post_recv_set_conf(
	struct doca_comch_consumer *consumer,
	doca_comch_consumer_task_post_recv_completion_cb_t task_completion_cb,
	doca_comch_consumer_task_post_recv_completion_cb_t task_error_cb,
	uint32_t num_post_recv_tasks);

/**
 * Take a post-recv task. A message is written after the buffer's data (at
 * data + data_len) and data_len grows by its length.
 * @param consumer A RUNNING consumer.
 * @param buf A buffer from the consumer's mmap, or NULL for immediate data only.
 * @param task Set to the task.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (NULL, buffer not from the
 *   mmap); DOCA_ERROR_NO_MEMORY if the pool is empty; DOCA_ERROR_BAD_STATE if
 *   not RUNNING.
 */
doca_error_t
doca_comch_consumer_task_post_recv_alloc_init(struct doca_comch_consumer *consumer,
					      struct doca_buf *buf,
					      struct doca_comch_consumer_task_post_recv **task);

/**
 * The generic task of a post-recv task.
 * @param task The post-recv task.
 * @return The task; NULL if task is NULL.
 */
static inline struct doca_task *
doca_comch_consumer_task_post_recv_as_task(struct doca_comch_consumer_task_post_recv *task)
{
	return task == NULL ? NULL : (struct doca_task *)rte_comch_consumer_task_post_recv_as_task(
		(struct rte_comch_consumer_task_post_recv *)task);
}

/**
 * A post-recv task's buffer.
 * @param task The task.
 * @return The buffer; NULL if none or task is NULL.
 */
static inline struct doca_buf *
doca_comch_consumer_task_post_recv_get_buf(const struct doca_comch_consumer_task_post_recv *task)
{
	return task == NULL ? NULL : (struct doca_buf *)rte_comch_consumer_task_post_recv_get_buf(
		(const struct rte_comch_consumer_task_post_recv *)task);
}

/**
 * Change a post-recv task's buffer (not while in flight).
 * @param task The task.
 * @param buf The buffer.
 */
void
doca_comch_consumer_task_post_recv_set_buf(struct doca_comch_consumer_task_post_recv *task,
					   struct doca_buf *buf);

/**
 * Immediate data of a completed task; valid until the task is freed or reposted.
 * @param task The task.
 * @return The bytes; NULL if none or task is NULL.
 */
const uint8_t *
doca_comch_consumer_task_post_recv_get_imm_data(
	const struct doca_comch_consumer_task_post_recv *task);

/**
 * Length of a completed task's immediate data.
 * @param task The task.
 * @return The length; 0 if none or task is NULL.
 */
uint32_t
doca_comch_consumer_task_post_recv_get_imm_data_len(
	const struct doca_comch_consumer_task_post_recv *task);

/**
 * The producer that filled a completed task.
 * @param task The task.
 * @return Its id; 0 if task is NULL or not completed.
 */
uint32_t
doca_comch_consumer_task_post_recv_get_producer_id(
	const struct doca_comch_consumer_task_post_recv *task);

#ifdef __cplusplus
}
#endif

/* MsgQ's calls on consumers and producers, which DOCA declares here. */
#include <doca_comch_msgq.h>

#endif /* DOCA_COMPAT_COMCH_CONSUMER_H */
