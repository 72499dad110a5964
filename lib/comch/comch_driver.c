/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/* The driver registry. Drivers add themselves from constructors, before main(). */

#include <string.h>
#include <bsd/string.h>
#include <sys/queue.h>

#include <rte_errno.h>
#include <rte_log.h>

#include "comch_private.h"

static TAILQ_HEAD(, rte_comch_driver) comch_drivers = TAILQ_HEAD_INITIALIZER(comch_drivers);

/*
 * The groups of ops every driver supplies; the others depend on its
 * capabilities. A driver without servers and clients (MsgQ only) has no
 * connections either.
 */
static bool
comch_driver_valid(const struct rte_comch_driver *drv)
{
	const struct rte_comch_drv_ops *ops = drv->ops;

	return drv->name != NULL && drv->probe != NULL && ops != NULL && ops->dev != NULL &&
	       ops->dev->close != NULL && ops->mmap != NULL &&
	       (ops->conn != NULL || (ops->server == NULL && ops->client == NULL)) &&
	       (ops->msgq == NULL || (ops->consumer != NULL && ops->producer != NULL));
}

void
rte_comch_drv_register(struct rte_comch_driver *drv)
{
	if (drv == NULL || !comch_driver_valid(drv)) {
		COMCH_LOG(ERR, "driver %s is incomplete: not registered",
			  drv != NULL && drv->name != NULL ? drv->name : "(no name)");
		return;
	}
	TAILQ_INSERT_TAIL(&comch_drivers, drv, next);
}

const struct rte_comch_driver *
comch_driver_find(const char *name, size_t len)
{
	struct rte_comch_driver *drv;

	TAILQ_FOREACH(drv, &comch_drivers, next) {
		if (strlen(drv->name) == len && strncmp(drv->name, name, len) == 0)
			return drv;
	}
	return NULL;
}

int
rte_comch_dev_list(struct rte_comch_dev_desc *descs, unsigned int n)
{
	const struct rte_comch_driver *drv;
	unsigned int total = 0, i;
	int rc;

	if (descs == NULL && n != 0) {
		COMCH_LOG(ERR, "descs is NULL");
		return -EINVAL;
	}
	TAILQ_FOREACH(drv, &comch_drivers, next) {
		if (drv->list == NULL)
			continue;
		rc = drv->list(total < n ? descs + total : NULL, total < n ? n - total : 0);
		if (rc < 0) {
			COMCH_LOG(NOTICE, "driver %s cannot list its devices: %s", drv->name,
				  strerror(-rc));
			continue;
		}
		for (i = total; i < n && i < total + (unsigned int)rc; i++)
			strlcpy(descs[i].driver, drv->name, sizeof(descs[i].driver));
		total += rc;
	}
	return (int)total;
}

/* ------------------------------------------------------------------ accessors */

void *
rte_comch_drv_dev_priv(const struct rte_comch_dev *dev, const struct rte_comch_driver *drv)
{
	if (COMCH_BAD_OBJ_FAST(dev, magic, COMCH_MAGIC_DEV) || dev->drv != drv) {
		rte_errno = EINVAL;
		return NULL;
	}
	return dev->priv;
}

void *
rte_comch_drv_consumer_priv(const struct rte_comch_consumer *consumer,
			    const struct rte_comch_driver *drv)
{
	if (COMCH_BAD_CONSUMER_FAST(consumer) || consumer->ctx.dev->drv != drv) {
		rte_errno = EINVAL;
		return NULL;
	}
	return consumer->drv;
}

void *
rte_comch_drv_producer_priv(const struct rte_comch_producer *producer,
			    const struct rte_comch_driver *drv)
{
	if (COMCH_BAD_PRODUCER_FAST(producer) || producer->ctx.dev->drv != drv) {
		rte_errno = EINVAL;
		return NULL;
	}
	return producer->drv;
}

void *
rte_comch_drv_mmap_reg(const struct rte_comch_mmap *mmap, const struct rte_comch_dev *dev)
{
	void *reg;

	if (COMCH_BAD_OBJ_FAST(mmap, magic, COMCH_MAGIC_MMAP) || !comch_mmap_started(mmap)) {
		rte_errno = EINVAL;
		return NULL;
	}
	reg = comch_mmap_reg(mmap, dev);
	if (reg == NULL)
		rte_errno = EINVAL;
	return reg;
}
