/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * DOCA 2.5's Comch names: the calls whose signature changed when DOCA renamed
 * them, over the doca_comch ones (the others are macros, doca_cc*.h).
 */

#include "doca_cc_consumer.h"
#include "doca_cc_producer.h"
#include "doca_dev_private.h"

/* The largest n with 2^n <= max (0 for max 0 or 1). */
static uint32_t
dc_log2_floor(uint32_t max)
{
	return max == 0 ? 0 : 31 - (uint32_t)__builtin_clz(max);
}

/* Return, as *out, the largest n with 2^n at most what get() says of devinfo. */
#define DC_CC_LOG_TASKS(devinfo, out, get) \
	do { \
		uint32_t max_ = 0; \
		doca_error_t ret_; \
		DC_OBJ_ARG(devinfo, DC_KIND_DEVINFO); \
		DC_NULL_ARG(out); \
		ret_ = get((devinfo), &max_); \
		if (ret_ == DOCA_SUCCESS) \
			*(out) = dc_log2_floor(max_); \
		return ret_; \
	} while (0)

doca_error_t
doca_cc_consumer_cap_get_max_log_num_tasks(const struct doca_devinfo *devinfo,
					   uint32_t *max_log_num_tasks)
{
	DC_CC_LOG_TASKS(devinfo, max_log_num_tasks, doca_comch_consumer_cap_get_max_num_tasks);
}

doca_error_t
doca_cc_producer_cap_get_max_log_num_tasks(const struct doca_devinfo *devinfo,
					   uint32_t *max_log_num_tasks)
{
	DC_CC_LOG_TASKS(devinfo, max_log_num_tasks, doca_comch_producer_cap_get_max_num_tasks);
}

/* Return one field of rte_comch's information about a device, as *out. */
#define DC_CC_CAP(devinfo, out, field) \
	do { \
		struct rte_comch_dev_info info_; \
		doca_error_t ret_; \
		DC_OBJ_ARG(devinfo, DC_KIND_DEVINFO); \
		DC_NULL_ARG(out); \
		ret_ = dc_devinfo_query((devinfo), &info_); \
		if (ret_ == DOCA_SUCCESS) \
			*(out) = info_.field; \
		return ret_; \
	} while (0)

doca_error_t
doca_cc_consumer_cap_get_max_consumers(const struct doca_devinfo *devinfo,
				       uint32_t *max_consumers)
{
	DC_CC_CAP(devinfo, max_consumers, max_consumers);
}

doca_error_t
doca_cc_producer_cap_get_max_producers(const struct doca_devinfo *devinfo,
				       uint32_t *max_producers)
{
	DC_CC_CAP(devinfo, max_producers, max_producers);
}

doca_error_t
doca_cc_producer_task_send_alloc_init(struct doca_comch_producer *producer, struct doca_buf *buf,
				      uint32_t consumer_id,
				      struct doca_comch_producer_task_send **task)
{
	return doca_comch_producer_task_send_alloc_init(producer, buf, NULL, 0, consumer_id, task);
}

struct doca_buf *
doca_cc_producer_task_send_get_buf(struct doca_comch_producer_task_send *task)
{
	/* The task's buffer is the program's: DOCA 2.5 handed it back writable. */
	return (struct doca_buf *)(uintptr_t)doca_comch_producer_task_send_get_buf(task);
}
