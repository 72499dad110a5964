/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef DOCA_MMAP_PRIVATE_H
#define DOCA_MMAP_PRIVATE_H

#include <stdbool.h>

#include "doca_compat_private.h"
#include "doca_mmap.h"

struct doca_mmap {
	struct dc_obj obj;	/* first: DC_KIND_MMAP */
	struct rte_comch_mmap *rm;
	struct doca_dev *dev;	/* held while the mmap exists */
	bool started;
	bool dpa_added;		/* its device's DPA device was added (doca_dpa.c) */
	doca_mmap_memrange_free_cb_t free_cb;
	void *free_opaque;
};
DC_OBJ_FIRST(struct doca_mmap, obj);

#endif /* DOCA_MMAP_PRIVATE_H */
