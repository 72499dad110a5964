/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Telemetry endpoints. They run in the EAL telemetry thread: the device table
 * lock keeps a device from being closed under them, the device lock keeps its
 * connection list still, and counters are read with relaxed atomic loads.
 */

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <rte_telemetry.h>

#include "comch_private.h"

static int
comch_tel_devs(const char *cmd, const char *params, struct rte_tel_data *d)
{
	uint16_t id;

	rte_tel_data_start_array(d, RTE_TEL_INT_VAL);
	comch_devs_lock();
	for (id = 0; id < RTE_COMCH_MAX_DEVS; id++)
		if (comch_dev_lookup_locked(id) != NULL)
			rte_tel_data_add_array_int(d, id);
	comch_devs_unlock();
	return 0;
}

/*
 * Parse "<dev_id>" (or "<dev_id>,<more>" when rest is not NULL) and lock the
 * device table; on success the caller unlocks it.
 */
static struct rte_comch_dev *
comch_tel_dev_lock(const char *params, const char **rest)
{
	struct rte_comch_dev *dev;
	unsigned long id;
	char *end;

	if (params == NULL || *params == '\0')
		return NULL;
	id = strtoul(params, &end, 10);
	if (end == params || id >= RTE_COMCH_MAX_DEVS)
		return NULL;
	if (rest != NULL && *end == ',')
		*rest = end + 1;
	else if (*end != '\0')
		return NULL;
	comch_devs_lock();
	dev = comch_dev_lookup_locked(id);
	if (dev == NULL)
		comch_devs_unlock();
	return dev;
}

static int
comch_tel_dev_info(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct rte_comch_dev *dev = comch_tel_dev_lock(params, NULL);
	const struct rte_comch_dev_info *info;
	struct rte_tel_data *reps;
	unsigned int i;

	if (dev == NULL)
		return -EINVAL;
	info = &dev->info;
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "name", info->name);
	rte_tel_data_add_dict_string(d, "driver", info->driver_name);
	rte_tel_data_add_dict_string(d, "role", info->role == RTE_COMCH_ROLE_DPU ? "dpu" : "host");
	rte_tel_data_add_dict_u64(d, "max_name_len", info->max_name_len);
	rte_tel_data_add_dict_u64(d, "max_msg_size", info->max_msg_size);
	rte_tel_data_add_dict_u64(d, "max_recv_queue_size", info->max_recv_queue_size);
	rte_tel_data_add_dict_u64(d, "max_clients", info->max_clients);
	rte_tel_data_add_dict_u64(d, "max_send_tasks", info->max_send_tasks);
	reps = rte_tel_data_alloc();
	if (reps != NULL) {
		rte_tel_data_start_array(reps, RTE_TEL_STRING_VAL);
		for (i = 0; i < dev->nb_reps; i++)
			rte_tel_data_add_array_string(reps, dev->rep_names[i]);
		if (rte_tel_data_add_dict_container(d, "representors", reps, 0) < 0)
			rte_tel_data_free(reps);
	}
	comch_devs_unlock();
	return 0;
}

static int
comch_tel_dev_stats(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct rte_comch_dev *dev = comch_tel_dev_lock(params, NULL);
	struct rte_comch_dev_stats st;

	if (dev == NULL)
		return -EINVAL;
	rte_comch_dev_stats_get(dev, &st);
	comch_devs_unlock();
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_u64(d, "connections_opened", st.connections_opened);
	rte_tel_data_add_dict_u64(d, "connections_closed", st.connections_closed);
	rte_tel_data_add_dict_u64(d, "connections_rejected", st.connections_rejected);
	rte_tel_data_add_dict_u64(d, "peer_errors", st.peer_errors);
	rte_tel_data_add_dict_u64(d, "msgs_sent", st.msgs_sent);
	rte_tel_data_add_dict_u64(d, "bytes_sent", st.bytes_sent);
	rte_tel_data_add_dict_u64(d, "msgs_received", st.msgs_received);
	rte_tel_data_add_dict_u64(d, "bytes_received", st.bytes_received);
	rte_tel_data_add_dict_u64(d, "send_errors", st.send_errors);
	rte_tel_data_add_dict_u64(d, "budget_refusals", st.budget_refusals);
	return 0;
}

/* DPDK 22.11 cannot nest dicts: list connection ids here, describe one in /comch/conn. */
static int
comch_tel_conns(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct rte_comch_dev *dev = comch_tel_dev_lock(params, NULL);
	const struct rte_comch_connection *conn;

	if (dev == NULL)
		return -EINVAL;
	rte_tel_data_start_array(d, RTE_TEL_INT_VAL);
	rte_spinlock_lock(&dev->lock);
	TAILQ_FOREACH(conn, &dev->conns, dev_next)
		rte_tel_data_add_array_int(d, conn->id);
	rte_spinlock_unlock(&dev->lock);
	comch_devs_unlock();
	return 0;
}

static int
comch_tel_conn(const char *cmd, const char *params, struct rte_tel_data *d)
{
	const struct rte_comch_connection *conn;
	struct rte_comch_dev *dev;
	const char *rest = NULL;
	unsigned long id;
	char *end;
	int rc = -ENOENT;

	dev = comch_tel_dev_lock(params, &rest);
	if (dev == NULL)
		return -EINVAL;
	id = rest != NULL ? strtoul(rest, &end, 10) : ULONG_MAX;
	if (rest == NULL || end == rest || *end != '\0' || id > UINT32_MAX) {
		comch_devs_unlock();
		return -EINVAL;
	}
	rte_spinlock_lock(&dev->lock);
	TAILQ_FOREACH(conn, &dev->conns, dev_next) {
		if (conn->id != id)
			continue;
		rte_tel_data_start_dict(d);
		rte_tel_data_add_dict_int(d, "id", conn->id);
		rte_tel_data_add_dict_string(d, "server", conn->ctrl->name);
		rte_tel_data_add_dict_string(d, "side", conn->ctrl->ctx.type == COMCH_CTX_SERVER ?
					     "server" : "client");
		rte_tel_data_add_dict_u64(d, "max_msg_size", conn->max_msg_size);
		rte_tel_data_add_dict_u64(d, "sent_messages", COMCH_CNT_READ(conn->cnt.msgs_sent));
		rte_tel_data_add_dict_u64(d, "sent_bytes", COMCH_CNT_READ(conn->cnt.bytes_sent));
		rte_tel_data_add_dict_u64(d, "recv_messages", COMCH_CNT_READ(conn->cnt.msgs_recv));
		rte_tel_data_add_dict_u64(d, "recv_bytes", COMCH_CNT_READ(conn->cnt.bytes_recv));
		rc = 0;
		break;
	}
	rte_spinlock_unlock(&dev->lock);
	comch_devs_unlock();
	return rc;
}

static int
comch_tel_objects(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct rte_comch_obj_stats st;

	rte_comch_obj_stats_get(&st);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_u64(d, "live", st.live);
	rte_tel_data_add_dict_u64(d, "quarantined", st.quarantined);
	rte_tel_data_add_dict_u64(d, "quarantined_bytes", st.quarantined_bytes);
	return 0;
}

RTE_INIT(comch_telemetry_init)
{
	rte_telemetry_register_cmd("/comch/devs", comch_tel_devs,
				   "Ids of open comch devices. No parameters");
	rte_telemetry_register_cmd("/comch/dev_info", comch_tel_dev_info,
				   "Capabilities of a comch device. Parameters: int dev_id");
	rte_telemetry_register_cmd("/comch/dev_stats", comch_tel_dev_stats,
				   "Counters of a comch device. Parameters: int dev_id");
	rte_telemetry_register_cmd("/comch/conns", comch_tel_conns,
				   "Ids of the live connections of a comch device. Parameters: int dev_id");
	rte_telemetry_register_cmd("/comch/conn", comch_tel_conn,
				   "One connection's counters. Parameters: int dev_id, int conn_id");
	rte_telemetry_register_cmd("/comch/objects", comch_tel_objects,
				   "Live comch objects, destroyed ones kept back. No parameters");
}
