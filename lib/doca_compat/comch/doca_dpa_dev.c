/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The device side of DOCA DPA and of its MsgQ, for programs of the software
 * DPA: each call is the driver's of the same meaning. A completion element is
 * the entry in its completion context (rte_comch_dpa_dev_get_completion_ref()),
 * valid until acknowledged, as DOCA's is. The thread's local storage is a
 * device address the layer keeps in the driver's local storage of the thread
 * (doca_dpa.c: dc_dpa_thread_entry()).
 */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <rte_log.h>

#include <rte_comch_dpa_dev.h>

#include "doca_compat_private.h"
#include "doca_dpa_dev.h"
#include "doca_dpa_dev_comch_msgq.h"

#define DC_CQE(e) ((const struct rte_comch_dpa_cqe *)(const void *)(e))

void
doca_dpa_dev_log(enum doca_dpa_dev_log_level level, const char *format, ...)
{
	uint32_t rte_level;
	char line[512];
	va_list ap;

	switch (level) {
	case DOCA_DPA_DEV_LOG_LEVEL_DISABLE:
		return;
	case DOCA_DPA_DEV_LOG_LEVEL_CRIT:
		rte_level = RTE_LOG_CRIT;
		break;
	case DOCA_DPA_DEV_LOG_LEVEL_ERROR:
		rte_level = RTE_LOG_ERR;
		break;
	case DOCA_DPA_DEV_LOG_LEVEL_WARNING:
		rte_level = RTE_LOG_WARNING;
		break;
	case DOCA_DPA_DEV_LOG_LEVEL_INFO:
		rte_level = RTE_LOG_INFO;
		break;
	default:
		rte_level = RTE_LOG_DEBUG;
		break;
	}
	if (format == NULL || !rte_log_can_log(doca_compat_logtype, rte_level))
		return;
	va_start(ap, format);
	vsnprintf(line, sizeof(line), format, ap);
	va_end(ap);
	/* Programs end their lines or not: one line each. */
	rte_log(rte_level, doca_compat_logtype, "doca: DPA: %.*s\n", (int)strcspn(line, "\n"),
		line);
}

void
doca_dpa_dev_thread_reschedule(void)
{
	rte_comch_dpa_dev_thread_reschedule();
}

void
doca_dpa_dev_thread_finish(void)
{
	rte_comch_dpa_dev_thread_finish();
}

doca_dpa_dev_uintptr_t
doca_dpa_dev_thread_get_local_storage(void)
{
	const doca_dpa_dev_uintptr_t *tls = rte_comch_dpa_dev_thread_get_local_storage();

	return tls != NULL ? *tls : 0;
}

int
doca_dpa_dev_thread_notify(doca_dpa_dev_notification_completion_t notify_comp_handle)
{
	return rte_comch_dpa_dev_thread_notify(notify_comp_handle);
}

int
doca_dpa_dev_get_completion(doca_dpa_dev_completion_t dpa_comp_handle,
			    doca_dpa_dev_completion_element_t *comp_element)
{
	return rte_comch_dpa_dev_get_completion_ref(dpa_comp_handle,
		(const struct rte_comch_dpa_cqe **)(void *)comp_element);
}

uint32_t
doca_dpa_dev_get_completion_user_data(doca_dpa_dev_completion_element_t comp_element)
{
	return (uint32_t)rte_comch_dpa_dev_get_completion_user_data(DC_CQE(comp_element));
}

int
doca_dpa_dev_completion_ack(doca_dpa_dev_completion_t dpa_comp_handle, uint64_t num_comp)
{
	if (num_comp > UINT32_MAX)
		return -EINVAL;
	return rte_comch_dpa_dev_completion_ack(dpa_comp_handle, (uint32_t)num_comp);
}

int
doca_dpa_dev_completion_request_notification(doca_dpa_dev_completion_t dpa_comp_handle)
{
	return rte_comch_dpa_dev_completion_request_notification(dpa_comp_handle);
}

/* ------------------------------------------------------------------- MsgQ */

int
doca_dpa_dev_comch_consumer_get_completion(
	doca_dpa_dev_comch_consumer_completion_t consumer_comp,
	doca_dpa_dev_comch_consumer_completion_element_t *comp_element)
{
	return rte_comch_dpa_dev_get_completion_ref(consumer_comp,
		(const struct rte_comch_dpa_cqe **)(void *)comp_element);
}

uint8_t *
doca_dpa_dev_comch_consumer_get_completion_imm(
	doca_dpa_dev_comch_consumer_completion_element_t comp_element, uint32_t *imm_len)
{
	/* Not const, as DOCA's: programs that take it either way build. */
	return (uint8_t *)(uintptr_t)rte_comch_dpa_dev_get_completion_imm(DC_CQE(comp_element),
									  imm_len);
}

uint32_t
doca_dpa_dev_comch_consumer_get_completion_producer_id(
	doca_dpa_dev_comch_consumer_completion_element_t comp_element)
{
	return rte_comch_dpa_dev_get_completion_producer_id(DC_CQE(comp_element));
}

uint32_t
doca_dpa_dev_comch_consumer_get_completion_user_data(
	doca_dpa_dev_comch_consumer_completion_element_t comp_element)
{
	return (uint32_t)rte_comch_dpa_dev_get_completion_user_data(DC_CQE(comp_element));
}

int
doca_dpa_dev_comch_consumer_completion_ack(doca_dpa_dev_comch_consumer_completion_t consumer_comp,
					   uint64_t num)
{
	return doca_dpa_dev_completion_ack(consumer_comp, num);
}

int
doca_dpa_dev_comch_consumer_completion_request_notification(
	doca_dpa_dev_comch_consumer_completion_t consumer_comp)
{
	return rte_comch_dpa_dev_completion_request_notification(consumer_comp);
}

int
doca_dpa_dev_comch_consumer_ack(doca_dpa_dev_comch_consumer_t consumer, uint32_t num)
{
	return rte_comch_dpa_dev_consumer_ack(consumer, num);
}

/* The driver's flags of DOCA's: a completion unless reports are optimized away. */
static inline uint32_t
dc_dpa_send_flags(uint32_t flags)
{
	return (flags & DOCA_DPA_DEV_SUBMIT_FLAG_OPTIMIZE_REPORTS) ? 0 :
	       RTE_COMCH_DPA_DEV_SUBMIT_FLAG_COMPLETION;
}

/* Flags DOCA defines (the others are refused, as the driver refuses its unknown ones). */
#define DC_DPA_SEND_FLAGS \
	(DOCA_DPA_DEV_SUBMIT_FLAG_FLUSH | DOCA_DPA_DEV_SUBMIT_FLAG_OPTIMIZE_REPORTS)

int
doca_dpa_dev_comch_producer_post_send_imm_only(doca_dpa_dev_comch_producer_t producer,
					       uint32_t consumer_id, const uint8_t *imm,
					       uint32_t imm_len, uint32_t flags)
{
	if (flags & ~(uint32_t)DC_DPA_SEND_FLAGS) {
		DC_LOG(ERR, "unknown flags 0x%x", flags & ~(uint32_t)DC_DPA_SEND_FLAGS);
		return -EINVAL;
	}
	return rte_comch_dpa_dev_producer_post_send_imm_only(producer, consumer_id, imm, imm_len,
							     dc_dpa_send_flags(flags));
}

int
doca_dpa_dev_comch_producer_dma_copy(doca_dpa_dev_comch_producer_t producer,
				     uint32_t consumer_id, doca_dpa_dev_mmap_t dst_mmap,
				     uint64_t dst_addr, doca_dpa_dev_mmap_t src_mmap,
				     uint64_t src_addr, size_t length, const uint8_t *imm,
				     uint32_t imm_len, uint32_t flags)
{
	if (flags & ~(uint32_t)DC_DPA_SEND_FLAGS) {
		DC_LOG(ERR, "unknown flags 0x%x", flags & ~(uint32_t)DC_DPA_SEND_FLAGS);
		return -EINVAL;
	}
	return rte_comch_dpa_dev_producer_dma_copy(producer, consumer_id, dst_mmap, dst_addr,
						   src_mmap, src_addr, length, imm, imm_len,
						   dc_dpa_send_flags(flags));
}

int
doca_dpa_dev_comch_producer_is_consumer_empty(doca_dpa_dev_comch_producer_t producer,
					      uint32_t consumer_id)
{
	return rte_comch_dpa_dev_producer_is_consumer_empty(producer, consumer_id);
}
