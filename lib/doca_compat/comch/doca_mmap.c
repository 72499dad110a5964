/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/* DOCA mmaps over rte_comch mmaps; the wrapper holds the device and the free callback. */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>

#include "doca_compat_private.h"
#include "doca_mmap.h"
#include "doca_mmap_private.h"

static const uint32_t dc_mmap_known_flags = DOCA_ACCESS_FLAG_LOCAL_READ_WRITE |
	DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE | DOCA_ACCESS_FLAG_RDMA_ATOMIC |
	DOCA_ACCESS_FLAG_PCI_READ_ONLY | DOCA_ACCESS_FLAG_PCI_READ_WRITE |
	DOCA_ACCESS_FLAG_PCI_RELAXED_ORDERING;
static const uint32_t dc_mmap_rdma_flags = DOCA_ACCESS_FLAG_RDMA_READ |
	DOCA_ACCESS_FLAG_RDMA_WRITE | DOCA_ACCESS_FLAG_RDMA_ATOMIC;

/* rte_comch answers -EBUSY for a started mmap and for one in use: tell them apart. */
static doca_error_t
dc_mmap_err(const struct doca_mmap *mmap, int rc, bool want_started)
{
	if (rc == -EBUSY && mmap->started != want_started)
		return DOCA_ERROR_BAD_STATE;
	if (rc == -EPERM)
		return DOCA_ERROR_BAD_STATE; /* not started */
	return rte_comch_doca_error_from_errno(rc);
}

doca_error_t
doca_mmap_create(struct doca_mmap **mmap)
{
	struct doca_mmap *m;
	doca_error_t ret;

	DC_NULL_ARG(mmap);
	ret = doca_compat_eal_init();
	if (ret != DOCA_SUCCESS)
		return ret;
	m = calloc(1, sizeof(*m));
	if (m == NULL)
		return DOCA_ERROR_NO_MEMORY;
	m->rm = rte_comch_mmap_create();
	if (m->rm == NULL) {
		free(m);
		return DOCA_ERROR_NO_MEMORY;
	}
	dc_obj_publish(&m->obj, m, DC_KIND_MMAP);
	*mmap = m;
	return DOCA_SUCCESS;
}

doca_error_t
doca_mmap_destroy(struct doca_mmap *mmap)
{
	void *addr = NULL;
	size_t len = 0;
	int rc;

	DC_OBJ_ARG(mmap, DC_KIND_MMAP);
	rte_comch_mmap_get_memrange(mmap->rm, &addr, &len);
	/* rte_comch stops a started mmap on destroy, as DOCA does. */
	rc = rte_comch_mmap_destroy(mmap->rm);
	if (rc != 0) {
		DC_LOG(ERR, "mmap %p: %s", (void *)mmap, strerror(-rc));
		return rc == -EBUSY ? DOCA_ERROR_IN_USE : rte_comch_doca_error_from_errno(rc);
	}
	if (mmap->dev != NULL)
		doca_compat_dev_release_memory(mmap->dev);
	if (mmap->free_cb != NULL && addr != NULL)
		mmap->free_cb(addr, len, mmap->free_opaque);
	dc_obj_retire(&mmap->obj, mmap);
	return DOCA_SUCCESS;
}

doca_error_t
doca_mmap_start(struct doca_mmap *mmap)
{
	int rc;

	DC_OBJ_ARG(mmap, DC_KIND_MMAP);
	/* Reachable by the DPA of its device too, if it has one (doca_dpa.c). */
	rc = dc_dpa_mmap_add_dpa_dev(mmap);
	if (rc == 0)
		rc = rte_comch_mmap_start(mmap->rm);
	if (rc == -ENOENT)
		return DOCA_ERROR_INVALID_VALUE; /* no memory range */
	if (rc == 0)
		mmap->started = true;
	return dc_mmap_err(mmap, rc, false);
}

doca_error_t
doca_mmap_stop(struct doca_mmap *mmap)
{
	int rc;

	DC_OBJ_ARG(mmap, DC_KIND_MMAP);
	if (!mmap->started) {
		DC_LOG(ERR, "mmap %p is not started", (void *)mmap);
		return DOCA_ERROR_BAD_STATE;
	}
	rc = rte_comch_mmap_stop(mmap->rm);
	if (rc == 0)
		mmap->started = false;
	return dc_mmap_err(mmap, rc, true);
}

doca_error_t
doca_mmap_add_dev(struct doca_mmap *mmap, struct doca_dev *dev)
{
	struct rte_comch_dev *rdev;
	int rc;

	DC_OBJ_ARG(mmap, DC_KIND_MMAP);
	DC_OBJ_ARG(dev, DC_KIND_DEV);
	if (mmap->dev != NULL) {
		DC_LOG(ERR, "mmap %p has a device already: an mmap has one here", (void *)mmap);
		return DOCA_ERROR_FULL;
	}
	rdev = doca_compat_dev_hold_memory(dev);
	if (rdev == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	rc = rte_comch_mmap_add_dev(mmap->rm, rdev);
	if (rc != 0) {
		doca_compat_dev_release_memory(dev);
		return dc_mmap_err(mmap, rc, false);
	}
	mmap->dev = dev;
	return DOCA_SUCCESS;
}

doca_error_t
doca_mmap_set_max_num_devices(struct doca_mmap *mmap, uint32_t max_num_devices)
{
	DC_OBJ_ARG(mmap, DC_KIND_MMAP);
	if (max_num_devices == 0) {
		DC_LOG(ERR, "an mmap needs room for one device");
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

doca_error_t
doca_mmap_set_memrange(struct doca_mmap *mmap, void *addr, size_t len)
{
	int rc;

	DC_OBJ_ARG(mmap, DC_KIND_MMAP);
	rc = rte_comch_mmap_set_memrange(mmap->rm, addr, len);
	/* -EEXIST: it has a range already */
	return rc == -EEXIST ? DOCA_ERROR_BAD_STATE : dc_mmap_err(mmap, rc, false);
}

doca_error_t
doca_mmap_get_memrange(const struct doca_mmap *mmap, void **addr, size_t *len)
{
	int rc;

	DC_OBJ_ARG(mmap, DC_KIND_MMAP);
	DC_NULL_ARG(addr);
	DC_NULL_ARG(len);
	rc = rte_comch_mmap_get_memrange(mmap->rm, addr, len);
	if (rc == -ENOENT || (rc == 0 && *addr == NULL)) {
		DC_LOG(ERR, "mmap %p has no memory range", (void *)mmap);
		return DOCA_ERROR_BAD_STATE;
	}
	return rte_comch_doca_error_from_errno(rc);
}

doca_error_t
doca_mmap_set_permissions(struct doca_mmap *mmap, uint32_t access_mask)
{
	uint32_t perms = RTE_COMCH_MMAP_PERM_LOCAL_READ_WRITE;

	DC_OBJ_ARG(mmap, DC_KIND_MMAP);
	if (access_mask & ~dc_mmap_known_flags) {
		DC_LOG(ERR, "unknown access flags 0x%x", access_mask & ~dc_mmap_known_flags);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (access_mask & dc_mmap_rdma_flags) {
		DC_LOG(ERR, "RDMA access is not supported by rte_comch mmaps");
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (access_mask & DOCA_ACCESS_FLAG_PCI_READ_ONLY)
		perms |= RTE_COMCH_MMAP_PERM_PCI_READ_ONLY;
	if (access_mask & DOCA_ACCESS_FLAG_PCI_READ_WRITE)
		perms |= RTE_COMCH_MMAP_PERM_PCI_READ_WRITE;
	return dc_mmap_err(mmap, rte_comch_mmap_set_permissions(mmap->rm, perms), false);
}

doca_error_t
doca_mmap_set_free_cb(struct doca_mmap *mmap, doca_mmap_memrange_free_cb_t free_cb, void *opaque)
{
	DC_OBJ_ARG(mmap, DC_KIND_MMAP);
	mmap->free_cb = free_cb;
	mmap->free_opaque = opaque;
	return DOCA_SUCCESS;
}

doca_error_t
doca_mmap_enable_thread_safety(struct doca_mmap *mmap)
{
	DC_OBJ_ARG(mmap, DC_KIND_MMAP);
	if (mmap->started) {
		DC_LOG(ERR, "mmap %p is started: ask for thread safety before start",
		       (void *)mmap);
		return DOCA_ERROR_BAD_STATE;
	}
	/* Nothing to switch on: started mmaps' buffers are safe from any thread. */
	return DOCA_SUCCESS;
}
