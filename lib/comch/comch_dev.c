/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/* Devices and representors: opening from devargs, capabilities, statistics. */

#include <errno.h>
#include <stdio.h>
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

/* Devargs keys the library reads itself, for every driver. */
#define COMCH_KEY_MAX_PEER_CONSUMERS "max_peer_consumers"
#define COMCH_DEFAULT_PEER_CONSUMERS 64
static const char * const comch_lib_keys[] = { COMCH_KEY_MAX_PEER_CONSUMERS, NULL };

static bool
comch_is_lib_key(const char *key)
{
	unsigned int i;

	for (i = 0; comch_lib_keys[i] != NULL; i++)
		if (strcmp(key, comch_lib_keys[i]) == 0)
			return true;
	return false;
}

static int
comch_dev_parse_u32(const char *key, const char *value, void *opaque)
{
	uint32_t *out = opaque;
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(value != NULL ? value : "", &end, 0);
	if (value == NULL || *value == '\0' || *end != '\0' || errno != 0 || v == 0 ||
	    v > COMCH_MAX_PEER_CONSUMERS) {
		COMCH_LOG(ERR, "devargs: %s=%s: give a number in 1..%u", key,
			  value != NULL ? value : "", COMCH_MAX_PEER_CONSUMERS);
		return -EINVAL;
	}
	*out = (uint32_t)v;
	return 0;
}

/*
 * Split args into the library's keys, read here, and the driver's, returned
 * as a kvlist of the driver's valid keys. Every key is checked against both
 * lists, so a typo fails the open whichever side it meant.
 */
static struct rte_kvargs *
comch_dev_parse_args(const struct rte_comch_driver *drv, const char *args,
		     uint32_t *max_peer_consumers)
{
	const char *all_keys[RTE_KVARGS_MAX + RTE_DIM(comch_lib_keys)];
	struct rte_kvargs *all, *drv_kv;
	char drv_args[RTE_COMCH_DEVARGS_MAX];
	unsigned int i, n = 0;
	size_t off = 0;

	for (i = 0; drv->valid_keys != NULL && drv->valid_keys[i] != NULL &&
		    n < RTE_KVARGS_MAX; i++)
		all_keys[n++] = drv->valid_keys[i];
	for (i = 0; comch_lib_keys[i] != NULL; i++)
		all_keys[n++] = comch_lib_keys[i];
	all_keys[n] = NULL;
	all = rte_kvargs_parse(args, all_keys);
	if (all == NULL)
		return NULL;
	if (rte_kvargs_count(all, COMCH_KEY_MAX_PEER_CONSUMERS) > 1 ||
	    rte_kvargs_process(all, COMCH_KEY_MAX_PEER_CONSUMERS, comch_dev_parse_u32,
			       max_peer_consumers) < 0) {
		rte_kvargs_free(all);
		return NULL;
	}
	drv_args[0] = '\0';
	for (i = 0; i < all->count; i++) {
		if (comch_is_lib_key(all->pairs[i].key))
			continue;
		off += snprintf(drv_args + off, off < sizeof(drv_args) ? sizeof(drv_args) - off : 0,
				"%s%s%s%s", off == 0 ? "" : ",", all->pairs[i].key,
				all->pairs[i].value != NULL ? "=" : "",
				all->pairs[i].value != NULL ? all->pairs[i].value : "");
	}
	rte_kvargs_free(all);
	if (off >= sizeof(drv_args))
		return NULL;
	drv_kv = rte_kvargs_parse(drv_args, drv->valid_keys);
	return drv_kv;
}

/* Take what probe filled in: the driver's device, role, capabilities, representors. */
static int
comch_dev_adopt(struct rte_comch_dev *dev, const struct rte_comch_drv_dev_conf *conf)
{
	unsigned int i;

	dev->priv = conf->priv;
	dev->role = conf->role;
	dev->info = conf->info;
	if (conf->nb_reps == 0)
		return 0;
	dev->rep_names = calloc(conf->nb_reps, sizeof(*dev->rep_names));
	if (dev->rep_names == NULL)
		return -ENOMEM;
	for (i = 0; i < conf->nb_reps; i++) {
		dev->rep_names[i] = strdup(conf->rep_names[i]);
		if (dev->rep_names[i] == NULL)
			return -ENOMEM;
		dev->nb_reps++;
	}
	return 0;
}

/* Undo a probe: the driver's device and our copies of its names (not dev itself). */
static void
comch_dev_release(struct rte_comch_dev *dev)
{
	unsigned int i;

	if (dev->priv != NULL)
		dev->ops->dev->close(dev->priv);
	for (i = 0; i < dev->nb_reps; i++)
		free(dev->rep_names[i]);
	free(dev->rep_names);
}

struct rte_comch_dev *
rte_comch_dev_open(const char *devargs)
{
	struct rte_comch_drv_dev_conf conf = { 0 };
	uint32_t peer_consumers = COMCH_DEFAULT_PEER_CONSUMERS;
	const struct rte_comch_driver *drv;
	struct rte_kvargs *kvlist;
	struct rte_comch_dev *dev;
	const char *args;
	int rc, slot;

	if (COMCH_NULL_ARG(devargs)) {
		rte_errno = EINVAL;
		return NULL;
	}
	drv = comch_dev_parse_driver(devargs, &args);
	if (drv == NULL)
		return NULL;
	kvlist = comch_dev_parse_args(drv, args, &peer_consumers);
	if (kvlist == NULL) {
		COMCH_LOG(ERR, "devargs \"%s\": malformed, or a key neither %s nor the library "
			  "knows, or a bad value", devargs, drv->name);
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
	dev->ops = drv->ops;
	rte_spinlock_init(&dev->lock);
	TAILQ_INIT(&dev->conns);
	rc = drv->probe(kvlist, &conf);
	if (rc == 0)
		rc = comch_dev_adopt(dev, &conf); /* names may point into kvlist */
	else
		conf.priv = NULL;
	rte_kvargs_free(kvlist);
	if (rc < 0) {
		COMCH_LOG(ERR, "devargs \"%s\": driver %s refused it: %s",
			  devargs, drv->name, strerror(-rc));
		dev->priv = conf.priv;
		comch_dev_release(dev);
		free(dev);
		rte_errno = -rc;
		return NULL;
	}
	dev->info.role = dev->role;
	strlcpy(dev->info.driver_name, drv->name, sizeof(dev->info.driver_name));
	dev->info.max_peer_consumers = peer_consumers;

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
		comch_dev_release(dev);
		free(dev);
		rte_errno = -slot;
		return NULL;
	}
	comch_obj_publish(&dev->reg, &dev->magic);
	COMCH_LOG(INFO, "device %u: %s (%s)", dev->id, dev->info.name, devargs);
	return dev;
}

int
rte_comch_dev_close(struct rte_comch_dev *dev)
{
	if (COMCH_BAD_OBJ(dev, magic, COMCH_MAGIC_DEV))
		return -EINVAL;
	if (dev->nb_users != 0) {
		COMCH_LOG(ERR, "device %s: %u representors, servers, clients, mmaps or MsgQs still "
			  "use it", dev->info.name, dev->nb_users);
		return -EBUSY;
	}
	comch_devs_lock();
	comch_devs[dev->id] = NULL;
	comch_devs_unlock();
	comch_dev_release(dev);
	comch_obj_retire(&dev->reg, &dev->magic, dev);
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
	st->budget_refusals = COMCH_CNT_READ(d->budget_refusals);
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
	stats->budget_refusals = raw.budget_refusals - base.budget_refusals;
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
	comch_fetch_add_relaxed(&dev->conns_rejected, 1);
}

void
comch_dev_count_budget_refusal(struct rte_comch_dev *dev)
{
	comch_fetch_add_relaxed(&dev->budget_refusals, 1);
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
	comch_obj_publish(&rep->reg, &rep->magic);
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
	comch_obj_retire(&rep->reg, &rep->magic, rep);
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
