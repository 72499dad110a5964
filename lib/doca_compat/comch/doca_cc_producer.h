/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef DOCA_COMPAT_CC_PRODUCER_H
#define DOCA_COMPAT_CC_PRODUCER_H

/**
 * @file
 * DOCA compatibility layer: DOCA 2.5's names of Comch producers
 * (doca_cc_producer_*), over doca_comch_producer.h: the same objects and
 * calls under the old names (macros), and functions of the layer for the
 * calls whose signature changed (a send task without immediate data, a
 * task's buffer not const) and for the capabilities DOCA 2.5 had apart.
 *
 * Thread safety: as doca_comch_producer.h.
 */

#include <stdint.h>

#include <doca_cc.h>
#include <doca_comch_producer.h>
#include <doca_error.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_buf;
struct doca_devinfo;

/** A producer (struct doca_comch_producer). */
#define doca_cc_producer doca_comch_producer
/** A send task (struct doca_comch_producer_task_send). */
#define doca_cc_producer_task_send doca_comch_producer_task_send
/** Send callback (doca_comch_producer_task_send_completion_cb_t). */
typedef doca_comch_producer_task_send_completion_cb_t doca_cc_producer_task_send_completion_cb_t;

/** doca_comch_producer_create(). */
#define doca_cc_producer_create doca_comch_producer_create
/** doca_comch_producer_destroy(). */
#define doca_cc_producer_destroy doca_comch_producer_destroy
/** doca_comch_producer_cap_is_supported() (DOCA 2.5's header). */
#define doca_cc_producer_cap_is_supported doca_comch_producer_cap_is_supported
/** doca_comch_producer_cap_is_supported() (DOCA 2.5's guide). */
#define doca_cc_cap_is_producer_supported doca_comch_producer_cap_is_supported
/** doca_comch_producer_get_id(). */
#define doca_cc_producer_get_id doca_comch_producer_get_id
/** doca_comch_producer_cap_get_max_num_tasks(). */
#define doca_cc_producer_cap_get_max_num_tasks doca_comch_producer_cap_get_max_num_tasks
/** doca_comch_producer_cap_get_max_buf_size(). */
#define doca_cc_producer_cap_get_max_buf_size doca_comch_producer_cap_get_max_buf_size
/** doca_comch_producer_as_ctx(). */
#define doca_cc_producer_as_ctx doca_comch_producer_as_ctx
/** doca_comch_producer_task_send_set_conf() (DOCA 2.5's header). */
#define doca_cc_producer_task_send_set_conf doca_comch_producer_task_send_set_conf
/** doca_comch_producer_task_send_set_conf() (DOCA 2.5's guide). */
#define doca_cc_producer_send_task_set_conf doca_comch_producer_task_send_set_conf
/** doca_comch_producer_task_send_set_buf(). */
#define doca_cc_producer_task_send_set_buf doca_comch_producer_task_send_set_buf
/** doca_comch_producer_task_send_get_consumer_id(). */
#define doca_cc_producer_task_send_get_consumer_id doca_comch_producer_task_send_get_consumer_id
/** doca_comch_producer_task_send_set_consumer_id(). */
#define doca_cc_producer_task_send_set_consumer_id doca_comch_producer_task_send_set_consumer_id
/** doca_comch_producer_task_send_as_task(). */
#define doca_cc_producer_task_send_as_task doca_comch_producer_task_send_as_task

/**
 * Take a send task for a buffer to a consumer: doca_comch_producer_task_send_alloc_init()
 * without immediate data (DOCA 2.5 had none).
 * @param producer A RUNNING producer.
 * @param buf The buffer.
 * @param consumer_id The consumer, as the consumer event gave it.
 * @param task Set to the task.
 * @return As doca_comch_producer_task_send_alloc_init().
 */
doca_error_t
doca_cc_producer_task_send_alloc_init(struct doca_comch_producer *producer, struct doca_buf *buf,
				      uint32_t consumer_id,
				      struct doca_comch_producer_task_send **task);

/**
 * A send task's buffer (DOCA 2.5 gave it writable).
 * @param task The task.
 * @return The buffer; NULL if task is NULL or has none.
 */
struct doca_buf *
doca_cc_producer_task_send_get_buf(struct doca_comch_producer_task_send *task);

/**
 * The most send tasks of a producer, as a power of two: the largest n with
 * 2^n at most doca_comch_producer_cap_get_max_num_tasks().
 * @param devinfo The device.
 * @param max_log_num_tasks Set to n.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument or a
 *   devinfo that is not live; errors of opening the device for the question.
 */
doca_error_t
doca_cc_producer_cap_get_max_log_num_tasks(const struct doca_devinfo *devinfo,
					   uint32_t *max_log_num_tasks);

/**
 * The most producers on one connection (one side).
 * @param devinfo The device.
 * @param max_producers Set to the number.
 * @return As doca_cc_producer_cap_get_max_log_num_tasks().
 */
doca_error_t
doca_cc_producer_cap_get_max_producers(const struct doca_devinfo *devinfo,
				       uint32_t *max_producers);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_COMPAT_CC_PRODUCER_H */
