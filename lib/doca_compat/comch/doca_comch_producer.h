/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef DOCA_COMPAT_COMCH_PRODUCER_H
#define DOCA_COMPAT_COMCH_PRODUCER_H

/**
 * @file
 * DOCA compatibility layer: fast-path producers (rte_comch producers): send a
 * buffer, with optional immediate data, into the next buffer a consumer on the
 * other side of the connection posted.
 *
 * Thread-safety: a producer and its tasks are used by the thread that
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
struct doca_task;
struct doca_comch_connection;
struct doca_comch_producer;
struct doca_comch_producer_task_send;

/**
 * Producer send completion or error callback.
 * @param task The task; doca_task_get_status() gives the result.
 * @param task_user_data The task's user data.
 * @param ctx_user_data The producer's user data.
 */
typedef void (*doca_comch_producer_task_send_completion_cb_t)(
	struct doca_comch_producer_task_send *task, union doca_data task_user_data,
	union doca_data ctx_user_data);

/**
 * Whether the device runs producers.
 * @param devinfo The device.
 * @return DOCA_SUCCESS if so; DOCA_ERROR_NOT_SUPPORTED if not;
 *   DOCA_ERROR_INVALID_VALUE if devinfo is NULL.
 */
doca_error_t
doca_comch_producer_cap_is_supported(const struct doca_devinfo *devinfo);

/**
 * Most tasks of one producer.
 * @param devinfo The device.
 * @param max_num_tasks Set to the number.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument.
 */
doca_error_t
doca_comch_producer_cap_get_max_num_tasks(const struct doca_devinfo *devinfo,
					  uint32_t *max_num_tasks);

/**
 * Largest buffer a producer sends (capped at UINT32_MAX).
 * @param devinfo The device.
 * @param max_buf_size Set to the size.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument.
 */
doca_error_t
doca_comch_producer_cap_get_max_buf_size(const struct doca_devinfo *devinfo,
					 uint32_t *max_buf_size);

/**
 * Longest buffer list: 1 here.
 * @param devinfo The device.
 * @param max_buf_list_len Set to 1.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument.
 */
doca_error_t
doca_comch_producer_cap_get_max_buf_list_len(const struct doca_devinfo *devinfo,
					     uint32_t *max_buf_list_len);

/**
 * Create a producer on an established connection.
 * @param comch_connection The connection.
 * @param producer Set to the producer.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument;
 *   DOCA_ERROR_BAD_STATE if the connection is not established;
 *   DOCA_ERROR_FULL if the connection has its most producers; DOCA_ERROR_NO_MEMORY.
 */
doca_error_t
doca_comch_producer_create(struct doca_comch_connection *comch_connection,
			   struct doca_comch_producer **producer);

/**
 * Destroy an IDLE producer.
 * @param producer The producer.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if NULL; DOCA_ERROR_BAD_STATE if not IDLE.
 */
doca_error_t
doca_comch_producer_destroy(struct doca_comch_producer *producer);

/**
 * The producer as a context.
 * @param producer The producer.
 * @return Its context; NULL (with a log line) if producer is not a live producer.
 */
struct doca_ctx *
doca_comch_producer_as_ctx(struct doca_comch_producer *producer);

/**
 * The producer's id, as the consumer's tasks report it.
 * @param producer The producer.
 * @param id Set to the id.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument.
 */
doca_error_t
doca_comch_producer_get_id(const struct doca_comch_producer *producer, uint32_t *id);

/**
 * Configure the send tasks (IDLE only; mandatory).
 * @param producer The producer.
 * @param task_completion_cb Called when a buffer was delivered.
 * @param task_error_cb Called when it could not be.
 * @param num_send_tasks Size of the pool.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (NULL, bad number);
 *   DOCA_ERROR_BAD_STATE if not IDLE; DOCA_ERROR_IN_USE if the pool changes
 *   size while tasks taken from it are not all freed.
 */
doca_error_t
doca_comch_producer_task_send_set_conf(struct doca_comch_producer *producer,
				       doca_comch_producer_task_send_completion_cb_t task_completion_cb,
				       doca_comch_producer_task_send_completion_cb_t task_error_cb,
				       uint32_t num_send_tasks);

/**
 * Take a send task: buf's data (and the immediate data) for consumer_id.
 * @param producer A RUNNING producer.
 * @param buf The buffer (its data is sent), or NULL for immediate data only.
 * @param imm_data Immediate data, or NULL.
 * @param imm_data_len Its length (at most the consumer's).
 * @param consumer_id A consumer announced by the consumer event callback.
 * @param task Set to the task.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (NULL, immediate data too
 *   long); DOCA_ERROR_NO_MEMORY if the pool is empty; DOCA_ERROR_BAD_STATE if
 *   not RUNNING.
 */
static inline doca_error_t
doca_comch_producer_task_send_alloc_init(struct doca_comch_producer *producer,
					 const struct doca_buf *buf, const uint8_t *imm_data,
					 uint32_t imm_data_len, uint32_t consumer_id,
					 struct doca_comch_producer_task_send **task)
{
	int rc = rte_comch_doca_producer_task_send_alloc_init(producer, buf, imm_data,
							      imm_data_len, consumer_id, task);

	return DOCA_COMPAT_LIKELY(rc == 0) ? DOCA_SUCCESS :
		rte_comch_doca_producer_alloc_err(producer, rc);
}

/**
 * The generic task of a send task.
 * @param task The send task.
 * @return The task; NULL if task is NULL.
 */
static inline struct doca_task *
doca_comch_producer_task_send_as_task(struct doca_comch_producer_task_send *task)
{
	return task == NULL ? NULL : (struct doca_task *)rte_comch_producer_task_send_as_task(
		(struct rte_comch_producer_task_send *)task);
}

/**
 * A send task's buffer.
 * @param task The task.
 * @return The buffer; NULL if none or task is NULL.
 */
const struct doca_buf *
doca_comch_producer_task_send_get_buf(const struct doca_comch_producer_task_send *task);

/**
 * Change a send task's buffer (not while in flight).
 * @param task The task.
 * @param buf The buffer.
 */
void
doca_comch_producer_task_send_set_buf(struct doca_comch_producer_task_send *task,
				      const struct doca_buf *buf);

/**
 * A send task's immediate data.
 * @param task The task.
 * @return The bytes; NULL if none or task is NULL.
 */
const uint8_t *
doca_comch_producer_task_send_get_imm_data(const struct doca_comch_producer_task_send *task);

/**
 * Length of a send task's immediate data.
 * @param task The task.
 * @return The length; 0 if none or task is NULL.
 */
uint32_t
doca_comch_producer_task_send_get_imm_data_len(const struct doca_comch_producer_task_send *task);

/**
 * Change a send task's immediate data (not while in flight).
 * @param task The task.
 * @param imm_data The bytes.
 * @param imm_data_len Their length.
 */
void
doca_comch_producer_task_send_set_imm_data(struct doca_comch_producer_task_send *task,
					   const uint8_t *imm_data, uint32_t imm_data_len);

/**
 * A send task's consumer.
 * @param task The task.
 * @return The consumer id; 0 if task is NULL.
 */
uint32_t
doca_comch_producer_task_send_get_consumer_id(const struct doca_comch_producer_task_send *task);

/**
 * Change a send task's consumer (not while in flight).
 * @param task The task.
 * @param consumer_id The consumer id.
 */
void
doca_comch_producer_task_send_set_consumer_id(struct doca_comch_producer_task_send *task,
					      const uint32_t consumer_id);

#ifdef __cplusplus
}
#endif

/* MsgQ's calls on consumers and producers, which DOCA declares here. */
#include <doca_comch_msgq.h>

#endif /* DOCA_COMPAT_COMCH_PRODUCER_H */
