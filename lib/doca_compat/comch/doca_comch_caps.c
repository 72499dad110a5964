/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Capability queries: rte_comch's device information, field by field, and
 * the sides a device can be (which the representor filter follows).
 */

#include <errno.h>

#include "doca_comch.h"
#include "doca_comch_consumer.h"
#include "doca_comch_producer.h"
#include "doca_dev_private.h"

/* Read one uint32_t out of the device information. */
#define DC_CAP_U32(devinfo, out, expr) \
	do { \
		struct rte_comch_dev_info info; \
		doca_error_t ret_; \
		DC_OBJ_ARG(devinfo, DC_KIND_DEVINFO); \
		DC_NULL_ARG(out); \
		ret_ = dc_devinfo_query((devinfo), &info); \
		if (ret_ != DOCA_SUCCESS) \
			return ret_; \
		*(out) = (expr); \
		return DOCA_SUCCESS; \
	} while (0)

static uint32_t
dc_cap_u32(uint64_t v)
{
	return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

doca_error_t
doca_comch_cap_get_max_name_len(const struct doca_devinfo *devinfo, uint32_t *max_name_len)
{
	DC_CAP_U32(devinfo, max_name_len, info.max_name_len);
}

doca_error_t
doca_comch_cap_get_max_msg_size(const struct doca_devinfo *devinfo, uint32_t *size)
{
	DC_CAP_U32(devinfo, size, info.max_msg_size);
}

doca_error_t
doca_comch_cap_get_max_recv_queue_size(const struct doca_devinfo *devinfo, uint32_t *size)
{
	DC_CAP_U32(devinfo, size, info.max_recv_queue_size);
}

doca_error_t
doca_comch_cap_get_max_clients(const struct doca_devinfo *devinfo, uint32_t *num_clients)
{
	DC_CAP_U32(devinfo, num_clients, info.max_clients);
}

doca_error_t
doca_comch_cap_get_max_send_tasks(const struct doca_devinfo *devinfo, uint32_t *max_send_tasks)
{
	DC_CAP_U32(devinfo, max_send_tasks, info.max_send_tasks);
}

/*
 * A side is supported if the device is that side, or may still become it: not
 * pinned by its mapping and not in use as the other side; pinned, it must have
 * capa too (0: no capability asked). devinfo is checked.
 */
static doca_error_t
dc_cap_side(const struct doca_devinfo *devinfo, enum doca_compat_role side, uint64_t capa)
{
	struct rte_comch_dev_info info;
	bool can;
	doca_error_t ret;

	ret = dc_devinfo_query(devinfo, &info);
	if (ret != DOCA_SUCCESS)
		return ret;
	dc_map_lock();
	if (devinfo->pinned != DOCA_COMPAT_ROLE_ANY)
		can = devinfo->pinned == side && (capa == 0 || (info.capa & capa));
	else
		can = devinfo->rdev == NULL || devinfo->role == side || devinfo->holds == 0;
	dc_map_unlock();
	return can ? DOCA_SUCCESS : DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t
doca_comch_cap_server_is_supported(const struct doca_devinfo *devinfo)
{
	DC_OBJ_ARG(devinfo, DC_KIND_DEVINFO);
	return dc_cap_side(devinfo, DOCA_COMPAT_ROLE_DPU, RTE_COMCH_CAPA_SERVER);
}

doca_error_t
doca_comch_cap_client_is_supported(const struct doca_devinfo *devinfo)
{
	DC_OBJ_ARG(devinfo, DC_KIND_DEVINFO);
	return dc_cap_side(devinfo, DOCA_COMPAT_ROLE_HOST, RTE_COMCH_CAPA_CLIENT);
}

/*
 * Representors are the BlueField side's (doca_devinfo_rep_create_list() makes
 * a device that side): the filter is there where that side can be had.
 */
doca_error_t
doca_devinfo_rep_cap_is_filter_net_supported(const struct doca_devinfo *devinfo,
					      uint8_t *filter_net_supported)
{
	doca_error_t ret;

	DC_OBJ_ARG(devinfo, DC_KIND_DEVINFO);
	DC_NULL_ARG(filter_net_supported);
	ret = dc_cap_side(devinfo, DOCA_COMPAT_ROLE_DPU, 0);
	if (ret != DOCA_SUCCESS && ret != DOCA_ERROR_NOT_SUPPORTED)
		return ret;
	*filter_net_supported = ret == DOCA_SUCCESS;
	return DOCA_SUCCESS;
}

/* Whether the device has a capability; devinfo is checked. */
static doca_error_t
dc_cap_flag(const struct doca_devinfo *devinfo, uint64_t capa)
{
	struct rte_comch_dev_info info;
	doca_error_t ret;

	ret = dc_devinfo_query(devinfo, &info);
	if (ret != DOCA_SUCCESS)
		return ret;
	return (info.capa & capa) ? DOCA_SUCCESS : DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t
doca_comch_producer_cap_is_supported(const struct doca_devinfo *devinfo)
{
	DC_OBJ_ARG(devinfo, DC_KIND_DEVINFO);
	return dc_cap_flag(devinfo, RTE_COMCH_CAPA_PRODUCER);
}

doca_error_t
doca_comch_consumer_cap_is_supported(const struct doca_devinfo *devinfo)
{
	DC_OBJ_ARG(devinfo, DC_KIND_DEVINFO);
	return dc_cap_flag(devinfo, RTE_COMCH_CAPA_CONSUMER);
}

doca_error_t
doca_comch_producer_cap_get_max_num_tasks(const struct doca_devinfo *devinfo,
					  uint32_t *max_num_tasks)
{
	DC_CAP_U32(devinfo, max_num_tasks, info.max_fast_tasks);
}

doca_error_t
doca_comch_consumer_cap_get_max_num_tasks(const struct doca_devinfo *devinfo,
					  uint32_t *max_num_tasks)
{
	DC_CAP_U32(devinfo, max_num_tasks, info.max_fast_tasks);
}

doca_error_t
doca_comch_producer_cap_get_max_buf_size(const struct doca_devinfo *devinfo,
					 uint32_t *max_buf_size)
{
	DC_CAP_U32(devinfo, max_buf_size, dc_cap_u32(info.max_buf_size));
}

doca_error_t
doca_comch_consumer_cap_get_max_buf_size(const struct doca_devinfo *devinfo,
					 uint32_t *max_buf_size)
{
	DC_CAP_U32(devinfo, max_buf_size, dc_cap_u32(info.max_buf_size));
}

doca_error_t
doca_comch_producer_cap_get_max_buf_list_len(const struct doca_devinfo *devinfo,
					     uint32_t *max_buf_list_len)
{
	DC_CAP_U32(devinfo, max_buf_list_len, 1);
}

doca_error_t
doca_comch_consumer_cap_get_max_buf_list_len(const struct doca_devinfo *devinfo,
					     uint32_t *max_buf_list_len)
{
	DC_CAP_U32(devinfo, max_buf_list_len, 1);
}

doca_error_t
doca_comch_consumer_cap_get_max_imm_data_len(const struct doca_devinfo *devinfo,
					     uint32_t *max_imm_data_len)
{
	DC_CAP_U32(devinfo, max_imm_data_len, info.max_imm_data_len);
}
