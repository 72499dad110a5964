/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/* Devices and representors: opening from devargs, capabilities, statistics. */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bsd/string.h>

#include <rte_errno.h>
#include <rte_kvargs.h>
#include <rte_spinlock.h>

#include "comch_private.h"

/* Open devices by id. Guarded so the telemetry thread can walk it. */
static struct rte_comch_dev *comch_devs[RTE_COMCH_MAX_DEVS];
static rte_spinlock_t comch_devs_sl = RTE_SPINLOCK_INITIALIZER;

void
comch_devs_lock(void)
{
	rte_spinlock_lock(&comch_devs_sl);
}

void
comch_devs_unlock(void)
{
	rte_spinlock_unlock(&comch_devs_sl);
}

struct rte_comch_dev *
comch_dev_lookup_locked(uint16_t id)
{
	return id < RTE_COMCH_MAX_DEVS ? comch_devs[id] : NULL;
}

static int
comch_dev_slot_locked(const char *name)
{
	int free_slot = -ENOSPC;
	int i;

	for (i = RTE_COMCH_MAX_DEVS - 1; i >= 0; i--) {
		if (comch_devs[i] == NULL)
			free_slot = i;
		else if (strcmp(comch_devs[i]->info.name, name) == 0)
			return -EEXIST;
	}
	return free_slot;
}

/* Split "drv:args" and find the driver. */
static const struct rte_comch_driver *
comch_dev_parse_driver(const char *devargs, const char **args)
{
	const char *colon = strchr(devargs, ':');
	size_t len = colon != NULL ? (size_t)(colon - devargs) : strlen(devargs);
	const struct rte_comch_driver *drv;

	*args = colon != NULL ? colon + 1 : "";
	/* "shm" alone is a driver with no arguments; "a=b" is arguments with no driver. */
	if (len == 0 || strcspn(devargs, "=,") < len) {
		COMCH_LOG(ERR, "devargs \"%s\": expected <driver>:<key>=<value>,...", devargs);
		rte_errno = EINVAL;
		return NULL;
	}
	drv = comch_driver_find(devargs, len);
	if (drv == NULL) {
		COMCH_LOG(ERR, "devargs \"%s\": no driver \"%.*s\" is registered",
			  devargs, (int)len, devargs);
		rte_errno = ENODEV;
	}
	return drv;
}

struct rte_comch_dev *
rte_comch_dev_open(const char *devargs)
{
	const struct rte_comch_driver *drv;
	struct rte_kvargs *kvlist;
	struct rte_comch_dev *dev;
	const char *args;
	int rc, slot;

	if (devargs == NULL) {
		COMCH_LOG(ERR, "devargs is NULL");
		rte_errno = EINVAL;
		return NULL;
	}
	drv = comch_dev_parse_driver(devargs, &args);
	if (drv == NULL)
		return NULL;
	kvlist = rte_kvargs_parse(args, drv->valid_keys);
	if (kvlist == NULL) {
		COMCH_LOG(ERR, "devargs \"%s\": malformed, or a key %s does not know",
			  devargs, drv->name);
		rte_errno = EINVAL;
		return NULL;
	}
	dev = calloc(1, sizeof(*dev));
	if (dev == NULL) {
		rte_kvargs_free(kvlist);
		rte_errno = ENOMEM;
		return NULL;
	}
	dev->magic = COMCH_MAGIC_DEV;
	dev->drv = drv;
	rte_spinlock_init(&dev->lock);
	TAILQ_INIT(&dev->conns);
	rc = drv->probe(dev, kvlist);
	rte_kvargs_free(kvlist);
	if (rc < 0) {
		COMCH_LOG(ERR, "devargs \"%s\": driver %s refused it: %s",
			  devargs, drv->name, strerror(-rc));
		free(dev);
		rte_errno = -rc;
		return NULL;
	}
	dev->info.role = dev->role;
	strlcpy(dev->info.driver_name, drv->name, sizeof(dev->info.driver_name));

	comch_devs_lock();
	slot = comch_dev_slot_locked(dev->info.name);
	if (slot >= 0) {
		dev->id = slot;
		dev->info.dev_id = slot;
		comch_devs[slot] = dev;
	}
	comch_devs_unlock();
	if (slot < 0) {
		COMCH_LOG(ERR, "device %s: %s", dev->info.name, slot == -EEXIST ?
			  "already open in this process" : "too many devices open");
		dev->ops->dev_close(dev);
		free(dev);
		rte_errno = -slot;
		return NULL;
	}
	COMCH_LOG(INFO, "device %u: %s (%s)", dev->id, dev->info.name, devargs);
	return dev;
}

int
rte_comch_dev_close(struct rte_comch_dev *dev)
{
	if (COMCH_BAD_OBJ(dev, magic, COMCH_MAGIC_DEV))
		return -EINVAL;
	if (dev->nb_users != 0) {
		COMCH_LOG(ERR, "device %s: %u representors, servers or clients still use it",
			  dev->info.name, dev->nb_users);
		return -EBUSY;
	}
	comch_devs_lock();
	comch_devs[dev->id] = NULL;
	comch_devs_unlock();
	dev->ops->dev_close(dev);
	comch_obj_kill(&dev->magic);
	free(dev);
	return 0;
}

int
rte_comch_dev_info_get(const struct rte_comch_dev *dev, struct rte_comch_dev_info *info)
{
	if (COMCH_BAD_OBJ(dev, magic, COMCH_MAGIC_DEV) || COMCH_NULL_ARG(info))
		return -EINVAL;
	*info = dev->info;
	return 0;
}

struct rte_comch_dev *
rte_comch_dev_get_by_id(uint16_t dev_id)
{
	struct rte_comch_dev *dev;

	comch_devs_lock();
	dev = comch_dev_lookup_locked(dev_id);
	comch_devs_unlock();
	if (dev == NULL)
		rte_errno = ENODEV;
	return dev;
}

/* Raw totals: connections that ended plus the live ones. Caller holds dev->lock. */
static void
comch_dev_read_stats_locked(const struct rte_comch_dev *d, struct rte_comch_dev_stats *st)
{
	const struct rte_comch_connection *conn;

	st->msgs_sent = d->closed.msgs_sent;
	st->bytes_sent = d->closed.bytes_sent;
	st->msgs_received = d->closed.msgs_recv;
	st->bytes_received = d->closed.bytes_recv;
	TAILQ_FOREACH(conn, &d->conns, dev_next) {
		st->msgs_sent += COMCH_CNT_READ(conn->cnt.msgs_sent);
		st->bytes_sent += COMCH_CNT_READ(conn->cnt.bytes_sent);
		st->msgs_received += COMCH_CNT_READ(conn->cnt.msgs_recv);
		st->bytes_received += COMCH_CNT_READ(conn->cnt.bytes_recv);
	}
	st->connections_opened = d->conns_opened;
	st->connections_closed = d->conns_closed;
	st->connections_rejected = COMCH_CNT_READ(d->conns_rejected);
	st->peer_errors = d->peer_errors;
	st->send_errors = d->send_errors;
}

int
rte_comch_dev_stats_get(const struct rte_comch_dev *dev, struct rte_comch_dev_stats *stats)
{
	struct rte_comch_dev *d = (struct rte_comch_dev *)(uintptr_t)dev;
	struct rte_comch_dev_stats raw, base;

	if (COMCH_BAD_OBJ(dev, magic, COMCH_MAGIC_DEV) || COMCH_NULL_ARG(stats))
		return -EINVAL;
	/* Under the lock: a reset on another thread is seen whole or not at all. */
	rte_spinlock_lock(&d->lock);
	comch_dev_read_stats_locked(d, &raw);
	base = d->base;
	rte_spinlock_unlock(&d->lock);
	stats->connections_opened = raw.connections_opened - base.connections_opened;
	stats->connections_closed = raw.connections_closed - base.connections_closed;
	stats->connections_rejected = raw.connections_rejected - base.connections_rejected;
	stats->peer_errors = raw.peer_errors - base.peer_errors;
	stats->msgs_sent = raw.msgs_sent - base.msgs_sent;
	stats->bytes_sent = raw.bytes_sent - base.bytes_sent;
	stats->msgs_received = raw.msgs_received - base.msgs_received;
	stats->bytes_received = raw.bytes_received - base.bytes_received;
	stats->send_errors = raw.send_errors - base.send_errors;
	return 0;
}

int
rte_comch_dev_stats_reset(struct rte_comch_dev *dev)
{
	if (COMCH_BAD_OBJ(dev, magic, COMCH_MAGIC_DEV))
		return -EINVAL;
	rte_spinlock_lock(&dev->lock);
	comch_dev_read_stats_locked(dev, &dev->base);
	rte_spinlock_unlock(&dev->lock);
	return 0;
}

void
comch_dev_count_rejected(struct rte_comch_dev *dev)
{
	__atomic_fetch_add(&dev->conns_rejected, 1, __ATOMIC_RELAXED);
}

int
rte_comch_dev_rep_list(const struct rte_comch_dev *dev, const char **names, unsigned int n)
{
	unsigned int i;

	if (COMCH_BAD_OBJ(dev, magic, COMCH_MAGIC_DEV))
		return -EINVAL;
	if (names == NULL && n > 0) {
		COMCH_LOG(ERR, "names is NULL with n = %u", n);
		return -EINVAL;
	}
	if (dev->role != RTE_COMCH_ROLE_DPU) {
		COMCH_LOG(ERR, "device %s: host-side devices have no representors",
			  dev->info.name);
		return -EPERM;
	}
	for (i = 0; i < n && i < dev->nb_reps; i++)
		names[i] = dev->rep_names[i];
	return dev->nb_reps;
}

struct rte_comch_dev_rep *
rte_comch_dev_rep_open(struct rte_comch_dev *dev, const char *name)
{
	struct rte_comch_dev_rep *rep;
	unsigned int i;

	if (COMCH_BAD_OBJ(dev, magic, COMCH_MAGIC_DEV) || COMCH_NULL_ARG(name)) {
		rte_errno = EINVAL;
		return NULL;
	}
	if (dev->role != RTE_COMCH_ROLE_DPU) {
		COMCH_LOG(ERR, "device %s: host-side devices have no representors",
			  dev->info.name);
		rte_errno = EPERM;
		return NULL;
	}
	for (i = 0; i < dev->nb_reps; i++)
		if (strcmp(dev->rep_names[i], name) == 0)
			break;
	if (i == dev->nb_reps) {
		COMCH_LOG(ERR, "device %s has no representor \"%s\"", dev->info.name, name);
		rte_errno = ENOENT;
		return NULL;
	}
	rep = calloc(1, sizeof(*rep));
	if (rep == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	rep->magic = COMCH_MAGIC_REP;
	rep->dev = dev;
	rep->name = dev->rep_names[i];
	dev->nb_users++;
	return rep;
}

int
rte_comch_dev_rep_close(struct rte_comch_dev_rep *rep)
{
	if (COMCH_BAD_OBJ(rep, magic, COMCH_MAGIC_REP))
		return -EINVAL;
	if (rep->nb_servers != 0) {
		COMCH_LOG(ERR, "representor %s: %u servers still use it",
			  rep->name, rep->nb_servers);
		return -EBUSY;
	}
	rep->dev->nb_users--;
	comch_obj_kill(&rep->magic);
	free(rep);
	return 0;
}

const char *
rte_comch_dev_rep_name(const struct rte_comch_dev_rep *rep)
{
	if (COMCH_NULL_ARG(rep)) {
		rte_errno = EINVAL;
		return NULL;
	}
	return rep->name;
}
