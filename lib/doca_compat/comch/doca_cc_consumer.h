/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef DOCA_COMPAT_CC_CONSUMER_H
#define DOCA_COMPAT_CC_CONSUMER_H

/**
 * @file
 * DOCA compatibility layer: DOCA 2.5's names of Comch consumers
 * (doca_cc_consumer_*), over doca_comch_consumer.h: the same objects and
 * calls under the old names (macros), and the capability DOCA 2.5's guide
 * gives as a power of two, a function of the layer.
 *
 * Thread safety: as doca_comch_consumer.h.
 */

#include <stdint.h>

#include <doca_cc.h>
#include <doca_comch_consumer.h>
#include <doca_error.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_devinfo;

/** A consumer (struct doca_comch_consumer). */
#define doca_cc_consumer doca_comch_consumer
/** A post-recv task (struct doca_comch_consumer_task_post_recv). */
#define doca_cc_consumer_task_post_recv doca_comch_consumer_task_post_recv
/** Post-recv callback (doca_comch_consumer_task_post_recv_completion_cb_t). */
typedef doca_comch_consumer_task_post_recv_completion_cb_t
	doca_cc_consumer_task_post_recv_completion_cb_t;

/** doca_comch_consumer_create(). */
#define doca_cc_consumer_create doca_comch_consumer_create
/** doca_comch_consumer_destroy(). */
#define doca_cc_consumer_destroy doca_comch_consumer_destroy
/** doca_comch_consumer_cap_is_supported() (DOCA 2.5's header). */
#define doca_cc_consumer_cap_is_supported doca_comch_consumer_cap_is_supported
/** doca_comch_consumer_cap_is_supported() (DOCA 2.5's guide). */
#define doca_cc_cap_is_consumer_supported doca_comch_consumer_cap_is_supported
/** doca_comch_consumer_get_id(). */
#define doca_cc_consumer_get_id doca_comch_consumer_get_id
/** doca_comch_consumer_cap_get_max_num_tasks(). */
#define doca_cc_consumer_cap_get_max_num_tasks doca_comch_consumer_cap_get_max_num_tasks
/** doca_comch_consumer_cap_get_max_buf_size(). */
#define doca_cc_consumer_cap_get_max_buf_size doca_comch_consumer_cap_get_max_buf_size
/** doca_comch_consumer_as_ctx(). */
#define doca_cc_consumer_as_ctx doca_comch_consumer_as_ctx
/** doca_comch_consumer_task_post_recv_set_conf() (DOCA 2.5's header). */
#define doca_cc_consumer_task_post_recv_set_conf doca_comch_consumer_task_post_recv_set_conf
/** doca_comch_consumer_task_post_recv_set_conf() (DOCA 2.5's guide). */
#define doca_cc_consumer_post_recv_task_set_conf doca_comch_consumer_task_post_recv_set_conf
/** doca_comch_consumer_task_post_recv_alloc_init(). */
#define doca_cc_consumer_task_post_recv_alloc_init doca_comch_consumer_task_post_recv_alloc_init
/** doca_comch_consumer_task_post_recv_get_buf(). */
#define doca_cc_consumer_task_post_recv_get_buf doca_comch_consumer_task_post_recv_get_buf
/** doca_comch_consumer_task_post_recv_set_buf(). */
#define doca_cc_consumer_task_post_recv_set_buf doca_comch_consumer_task_post_recv_set_buf
/** doca_comch_consumer_task_post_recv_get_producer_id(). */
#define doca_cc_consumer_task_post_recv_get_producer_id \
	doca_comch_consumer_task_post_recv_get_producer_id
/** doca_comch_consumer_task_post_recv_as_task(). */
#define doca_cc_consumer_task_post_recv_as_task doca_comch_consumer_task_post_recv_as_task

/**
 * The most post-recv tasks of a consumer, as a power of two: the largest n
 * with 2^n at most doca_comch_consumer_cap_get_max_num_tasks().
 * @param devinfo The device.
 * @param max_log_num_tasks Set to n.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument or a
 *   devinfo that is not live; errors of opening the device for the question.
 */
doca_error_t
doca_cc_consumer_cap_get_max_log_num_tasks(const struct doca_devinfo *devinfo,
					   uint32_t *max_log_num_tasks);

/**
 * The most consumers on one connection (one side).
 * @param devinfo The device.
 * @param max_consumers Set to the number.
 * @return As doca_cc_consumer_cap_get_max_log_num_tasks().
 */
doca_error_t
doca_cc_consumer_cap_get_max_consumers(const struct doca_devinfo *devinfo,
				       uint32_t *max_consumers);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_COMPAT_CC_CONSUMER_H */
