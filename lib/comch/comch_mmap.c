/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Memory registration: one range per mmap, set once, with permissions, and
 * registered at start with the driver of each device added. Memory the mmap
 * allocates comes from the first device's driver (memory it can hand to the
 * peer), or, with no device, from the C library: that memory no peer can map.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <rte_errno.h>

#include "comch_private.h"

#define COMCH_MMAP_PERMS (RTE_COMCH_MMAP_PERM_LOCAL_READ_WRITE | \
			  RTE_COMCH_MMAP_PERM_PCI_READ_ONLY | RTE_COMCH_MMAP_PERM_PCI_READ_WRITE)
#define COMCH_BAD_MMAP(m) COMCH_BAD_OBJ(m, magic, COMCH_MAGIC_MMAP)
#define COMCH_BAD_MMAP_FAST(m) COMCH_BAD_OBJ_FAST(m, magic, COMCH_MAGIC_MMAP)

struct rte_comch_mmap *
rte_comch_mmap_create(void)
{
	struct rte_comch_mmap *mmap = calloc(1, sizeof(*mmap));

	if (mmap == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	mmap->magic = COMCH_MAGIC_MMAP;
	mmap->perms = RTE_COMCH_MMAP_PERM_LOCAL_READ_WRITE;
	comch_obj_publish(&mmap->reg, &mmap->magic);
	return mmap;
}

int
rte_comch_mmap_add_dev(struct rte_comch_mmap *mmap, struct rte_comch_dev *dev)
{
	unsigned int i;

	if (COMCH_BAD_MMAP(mmap) || COMCH_BAD_OBJ(dev, magic, COMCH_MAGIC_DEV))
		return -EINVAL;
	if (comch_mmap_started(mmap)) {
		COMCH_LOG(ERR, "mmap %p is started: add devices before start", (void *)mmap);
		return -EBUSY;
	}
	for (i = 0; i < mmap->nb_devs; i++) {
		if (mmap->devs[i].dev == dev) {
			COMCH_LOG(ERR, "mmap %p: device %s was added already", (void *)mmap,
				  dev->info.name);
			return -EEXIST;
		}
	}
	if (mmap->nb_devs == COMCH_MMAP_MAX_DEVS) {
		COMCH_LOG(ERR, "mmap %p: %u devices already", (void *)mmap, COMCH_MMAP_MAX_DEVS);
		return -ENOSPC;
	}
	mmap->devs[mmap->nb_devs++].dev = dev;
	dev->nb_users++;
	return 0;
}

/* Common checks of the calls that give an mmap its memory. */
static int
comch_mmap_check_range(const struct rte_comch_mmap *mmap, size_t len)
{
	if (COMCH_BAD_MMAP(mmap))
		return -EINVAL;
	if (len == 0) {
		COMCH_LOG(ERR, "memory range is empty");
		return -EINVAL;
	}
	if (comch_mmap_started(mmap)) {
		COMCH_LOG(ERR, "mmap %p is started: its memory is fixed", (const void *)mmap);
		return -EBUSY;
	}
	if (mmap->has_range) {
		COMCH_LOG(ERR, "mmap %p already has its memory", (const void *)mmap);
		return -EEXIST;
	}
	return 0;
}

int
rte_comch_mmap_set_memrange(struct rte_comch_mmap *mmap, void *addr, size_t len)
{
	int rc = comch_mmap_check_range(mmap, len);

	if (rc < 0)
		return rc;
	if (COMCH_NULL_ARG(addr))
		return -EINVAL;
	mmap->addr = addr;
	mmap->len = len;
	mmap->has_range = true;
	return 0;
}

/* Anonymous memory; apart so that the mmap() call is not shadowed by an "mmap" argument. */
static void *
comch_mmap_anon(size_t len)
{
	return mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

int
rte_comch_mmap_alloc_memrange(struct rte_comch_mmap *mmap, size_t len)
{
	int rc = comch_mmap_check_range(mmap, len);
	struct rte_comch_dev *dev;
	void *addr;

	if (rc < 0)
		return rc;
	if (mmap->nb_devs == 0) {
		addr = comch_mmap_anon(len);
		if (addr == MAP_FAILED) {
			COMCH_LOG(ERR, "cannot allocate %zu bytes: %s", len, strerror(errno));
			return -ENOMEM;
		}
		mmap->anon = true;
	} else {
		/* The first device's driver: memory it can hand to its peers. */
		dev = mmap->devs[0].dev;
		rc = dev->ops->mmap->alloc(dev->priv, len, &addr, &mmap->alloc_mem);
		if (rc < 0) {
			COMCH_LOG(ERR, "device %s cannot allocate %zu bytes: %s", dev->info.name,
				  len, strerror(-rc));
			return rc;
		}
		mmap->alloc_dev = dev;
	}
	mmap->addr = addr;
	mmap->len = len;
	mmap->has_range = true;
	return 0;
}

int
rte_comch_mmap_get_memrange(const struct rte_comch_mmap *mmap, void **addr, size_t *len)
{
	if (COMCH_BAD_MMAP_FAST(mmap) || COMCH_NULL_ARG(addr, len))
		return -EINVAL;
	if (!mmap->has_range)
		return -ENOENT;
	*addr = mmap->addr;
	*len = mmap->len;
	return 0;
}

int
rte_comch_mmap_set_permissions(struct rte_comch_mmap *mmap, uint32_t perms)
{
	const uint32_t pci = RTE_COMCH_MMAP_PERM_PCI_READ_ONLY | RTE_COMCH_MMAP_PERM_PCI_READ_WRITE;

	if (COMCH_BAD_MMAP(mmap))
		return -EINVAL;
	if (perms == 0 || (perms & ~COMCH_MMAP_PERMS) != 0 || (perms & pci) == pci) {
		COMCH_LOG(ERR, "permissions %#x: give a non-empty mask of RTE_COMCH_MMAP_PERM_*, "
			  "with at most one PCI permission", perms);
		return -EINVAL;
	}
	if (comch_mmap_started(mmap)) {
		COMCH_LOG(ERR, "mmap %p is started: its permissions are fixed", (void *)mmap);
		return -EBUSY;
	}
	mmap->perms = perms;
	return 0;
}

int
rte_comch_mmap_get_permissions(const struct rte_comch_mmap *mmap, uint32_t *perms)
{
	if (COMCH_BAD_MMAP_FAST(mmap) || COMCH_NULL_ARG(perms))
		return -EINVAL;
	*perms = mmap->perms;
	return 0;
}

bool
comch_mmap_started(const struct rte_comch_mmap *mmap)
{
	return (comch_load_acquire(&mmap->refs) & COMCH_MMAP_STARTED) != 0;
}

int
comch_mmap_hold(struct rte_comch_mmap *mmap)
{
	uint32_t v = comch_load_relaxed(&mmap->refs);

	do {
		if ((v & COMCH_MMAP_STARTED) == 0)
			return -EPERM;
	} while (!comch_cas_acq_rel(&mmap->refs, &v, v + 1));
	return 0;
}

void
comch_mmap_release(struct rte_comch_mmap *mmap)
{
	comch_fetch_sub_release(&mmap->refs, 1);
}

/* Unregister from the first n devices. */
static void
comch_mmap_dereg(struct rte_comch_mmap *mmap, unsigned int n)
{
	struct rte_comch_dev *dev;
	unsigned int i;

	for (i = 0; i < n; i++) {
		dev = mmap->devs[i].dev;
		dev->ops->mmap->dereg(dev->priv, mmap->devs[i].reg);
		mmap->devs[i].reg = NULL;
	}
}

int
rte_comch_mmap_start(struct rte_comch_mmap *mmap)
{
	struct rte_comch_dev *dev;
	unsigned int i;
	uint32_t v = 0;
	int rc;

	if (COMCH_BAD_MMAP(mmap))
		return -EINVAL;
	if (!mmap->has_range) {
		COMCH_LOG(ERR, "mmap %p: register memory before start", (void *)mmap);
		return -ENOENT;
	}
	if (comch_mmap_started(mmap)) {
		COMCH_LOG(ERR, "mmap %p is already started", (void *)mmap);
		return -EBUSY;
	}
	for (i = 0; i < mmap->nb_devs; i++) {
		dev = mmap->devs[i].dev;
		/* An allocation is its driver's: any of that driver's devices may share it. */
		rc = dev->ops->mmap->reg(dev->priv, mmap->addr, mmap->len, mmap->perms,
					 mmap->alloc_dev != NULL && dev->drv == mmap->alloc_dev->drv ?
					 mmap->alloc_mem : NULL, &mmap->devs[i].reg);
		if (rc < 0) {
			COMCH_LOG(ERR, "mmap %p: device %s cannot register it: %s", (void *)mmap,
				  dev->info.name, strerror(-rc));
			comch_mmap_dereg(mmap, i);
			return rc;
		}
	}
	if (!comch_cas_acq_rel(&mmap->refs, &v, COMCH_MMAP_STARTED)) {
		comch_mmap_dereg(mmap, mmap->nb_devs);
		COMCH_LOG(ERR, "mmap %p is already started", (void *)mmap);
		return -EBUSY;
	}
	return 0;
}

/*
 * Stop: 0, -EALREADY if it was not started, or -EBUSY (logged, naming what)
 * while buffers or consumers hold it.
 */
static int
comch_mmap_do_stop(struct rte_comch_mmap *mmap, const char *what)
{
	uint32_t v = COMCH_MMAP_STARTED;

	/* Only from "started, held by nobody": a concurrent hold makes this fail. */
	if (comch_cas_acq_rel(&mmap->refs, &v, 0)) {
		comch_mmap_dereg(mmap, mmap->nb_devs);
		return 0;
	}
	if ((v & COMCH_MMAP_STARTED) == 0)
		return -EALREADY;
	COMCH_LOG(ERR, "%s: mmap %p: %u buffers or consumers still use it", what, (void *)mmap,
		  v & ~COMCH_MMAP_STARTED);
	return -EBUSY;
}

int
rte_comch_mmap_stop(struct rte_comch_mmap *mmap)
{
	int rc;

	if (COMCH_BAD_MMAP(mmap))
		return -EINVAL;
	rc = comch_mmap_do_stop(mmap, "stop");
	if (rc == -EALREADY)
		COMCH_LOG(ERR, "mmap %p is not started", (void *)mmap);
	return rc;
}

int
rte_comch_mmap_destroy(struct rte_comch_mmap *mmap)
{
	unsigned int i;
	int rc;

	if (COMCH_BAD_MMAP(mmap))
		return -EINVAL;
	/* Started: stopped first, as DOCA's destroy does; refused while something holds it. */
	rc = comch_mmap_do_stop(mmap, "destroy");
	if (rc == -EBUSY)
		return rc;
	if (mmap->alloc_dev != NULL)
		mmap->alloc_dev->ops->mmap->free(mmap->alloc_dev->priv, mmap->alloc_mem);
	else if (mmap->anon)
		munmap(mmap->addr, mmap->len);
	for (i = 0; i < mmap->nb_devs; i++)
		mmap->devs[i].dev->nb_users--;
	comch_obj_retire(&mmap->reg, &mmap->magic, mmap);
	return 0;
}
