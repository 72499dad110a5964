/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The drivers the conformance suite runs against, in one table: how each
 * opens a device from the harness's keys (domain, role, fn, rep and the
 * driver's own), what it can do that a test may need, and what a test binary
 * sets up for it first. A driver joins the suite here and in test/meson.build's
 * conformance_drivers.
 */

#include <stdio.h>
#include <string.h>

#include "comch_test_common.h"
#include "comch_test_drivers.h"

/* shm keeps its sockets in a directory: the test binary's own. */
static int
ct_shm_devargs(char *buf, size_t len, const char *kv)
{
	return snprintf(buf, len, "shm:%s,dir=%s", kv, ct_dir());
}

/* skeleton takes the harness's keys as they are. */
static int
ct_skeleton_devargs(char *buf, size_t len, const char *kv)
{
	return snprintf(buf, len, "skeleton:%s", kv);
}

static const struct ct_driver_desc ct_drivers[] = {
	{
		.name = "shm",
		.caps = CT_CAP_PROCESSES,
		.devargs = ct_shm_devargs,
	},
	{
		.name = "skeleton",
		.caps = 0,
		.devargs = ct_skeleton_devargs,
	},
};

const struct ct_driver_desc *
ct_driver_desc(void)
{
	const char *name = ct_driver();
	unsigned int i;

	for (i = 0; i < RTE_DIM(ct_drivers); i++)
		if (strcmp(ct_drivers[i].name, name) == 0)
			return &ct_drivers[i];
	return NULL;
}

bool
ct_driver_can(unsigned int caps)
{
	const struct ct_driver_desc *d = ct_driver_desc();

	return d != NULL && (d->caps & caps) == caps;
}
