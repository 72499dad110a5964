/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The layer's objects in its registry of live objects (doca_obj_private.h):
 * librte_comch_doca_sdk's, which librte_comch_doca calls too.
 */

#include "doca_obj_private.h"

/*
 * Each library of the layer registers the log type (the Comch mapping in
 * doca_eal.c): both get the same one, "lib.comch.doca" (DPDK answers a
 * registered name with its id).
 */
RTE_LOG_REGISTER_DEFAULT(doca_compat_logtype, NOTICE);

static const char *
dc_kind_name(uint32_t kind)
{
	switch (kind) {
	case DC_KIND_DEVINFO:
		return "doca_devinfo";
	case DC_KIND_DEVINFO_LIST:
		return "doca_devinfo list";
	case DC_KIND_DEV:
		return "doca_dev";
	case DC_KIND_DEVINFO_REP:
		return "doca_devinfo_rep";
	case DC_KIND_DEVINFO_REP_LIST:
		return "doca_devinfo_rep list";
	case DC_KIND_DEV_REP:
		return "doca_dev_rep";
	case DC_KIND_MMAP:
		return "doca_mmap";
	case DC_KIND_INVENTORY:
		return "doca_buf_inventory";
	case DC_KIND_CC_EP:
		return "doca_comm_channel_ep_t";
	case DC_KIND_ARGP_PARAM:
		return "doca_argp_param";
	case DC_KIND_LOG_BACKEND:
		return "doca_log_backend";
	case DC_KIND_DPA:
		return "doca_dpa";
	case DC_KIND_DPA_THREAD:
		return "doca_dpa_thread";
	case DC_KIND_DPA_COMPLETION:
		return "doca_dpa_completion";
	case DC_KIND_DPA_NOTIFICATION:
		return "doca_dpa_notification_completion";
	case DC_KIND_MSGQ:
		return "doca_comch_msgq";
	case DC_KIND_CONSUMER_COMPLETION:
		return "doca_comch_consumer_completion";
	case DC_KIND_BUF_POOL:
		return "doca_buf_pool";
	case DC_KIND_SERVER:
		return "doca_comch_server";
	case DC_KIND_CLIENT:
		return "doca_comch_client";
	case DC_KIND_PRODUCER:
		return "doca_comch_producer";
	case DC_KIND_CONSUMER:
		return "doca_comch_consumer";
	case DC_KIND_CTX_ANY:
		return "doca_ctx";
	default:
		return NULL;
	}
}

void
dc_obj_publish(struct dc_obj *obj, const void *handle, uint32_t kind)
{
	obj->magic = kind;
	comch_objreg_add(&obj->reg, handle, kind);
}

/* Volatile: a plain store to memory about to be handed away is one the compiler may drop. */
static void
dc_obj_kill(struct dc_obj *obj)
{
	*(volatile uint32_t *)&obj->magic = DC_KIND_DEAD;
}

void
dc_obj_retire(struct dc_obj *obj, void *block)
{
	dc_obj_kill(obj);
	comch_objreg_retire(&obj->reg, block);
}

void
dc_obj_remove(struct dc_obj *obj)
{
	dc_obj_kill(obj);
	comch_objreg_remove(&obj->reg);
}

bool
dc_obj_bad(const char *func, const char *name, const void *handle, uint32_t want, bool registry)
{
	const char *is;
	uint32_t kind;
	bool dead;

	if (handle == NULL) {
		rte_log(RTE_LOG_ERR, doca_compat_logtype, "doca: %s(): %s is NULL\n", func, name);
		return true;
	}
	kind = registry ? comch_objreg_kind(handle) :
	       ((const struct dc_obj *)handle)->magic;
	if (dc_kind_ok(kind, want))
		return false;
	is = dc_kind_name(kind);
	dead = registry ? comch_objreg_retired(handle) : kind == DC_KIND_DEAD;
	if (is != NULL)
		rte_log(RTE_LOG_ERR, doca_compat_logtype, "doca: %s(): %s is a %s, not a %s\n",
			func, name, is, dc_kind_name(want));
	else
		rte_log(RTE_LOG_ERR, doca_compat_logtype, "doca: %s(): %s is not a live %s%s\n",
			func, name, dc_kind_name(want), dead ? ": it was destroyed" :
			" (an object of another kind, no object, or one destroyed long ago)");
	return true;
}
