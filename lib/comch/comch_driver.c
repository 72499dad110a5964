/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/* The driver registry. Drivers add themselves from constructors, before main(). */

#include <string.h>
#include <sys/queue.h>

#include <rte_log.h>

#include "comch_private.h"

RTE_LOG_REGISTER_DEFAULT(comch_logtype, NOTICE);

static TAILQ_HEAD(, rte_comch_driver) comch_drivers = TAILQ_HEAD_INITIALIZER(comch_drivers);

/* The groups of ops every driver supplies; the others depend on its capabilities. */
static bool
comch_driver_valid(const struct rte_comch_driver *drv)
{
	const struct rte_comch_drv_ops *ops = drv->ops;

	return drv->name != NULL && drv->probe != NULL && ops != NULL && ops->dev != NULL &&
	       ops->dev->close != NULL && ops->conn != NULL && ops->mmap != NULL;
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
