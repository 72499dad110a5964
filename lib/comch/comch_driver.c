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

void
comch_driver_register(struct rte_comch_driver *drv)
{
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
