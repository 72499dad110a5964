/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/* Memory registration: one range per mmap, set once, with permissions. */

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rte_errno.h>

#include "comch_private.h"

#define COMCH_MMAP_PERMS (RTE_COMCH_MMAP_PERM_LOCAL_READ_WRITE | \
			  RTE_COMCH_MMAP_PERM_PCI_READ_ONLY | RTE_COMCH_MMAP_PERM_PCI_READ_WRITE)

struct rte_comch_mmap *
rte_comch_mmap_create(void)
{
	struct rte_comch_mmap *mmap = calloc(1, sizeof(*mmap));

	if (mmap == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	mmap->perms = RTE_COMCH_MMAP_PERM_LOCAL_READ_WRITE;
	mmap->memfd = -1;
	return mmap;
}

/* Common checks of the calls that give an mmap its memory. */
static int
comch_mmap_check_range(const struct rte_comch_mmap *mmap, size_t len)
{
	if (mmap == NULL || len == 0) {
		COMCH_LOG(ERR, "%s", mmap == NULL ? "mmap is NULL" : "memory range is empty");
		return -EINVAL;
	}
	if (mmap->started) {
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
	if (addr == NULL) {
		COMCH_LOG(ERR, "addr is NULL");
		return -EINVAL;
	}
	mmap->addr = addr;
	mmap->len = len;
	mmap->has_range = true;
	return 0;
}

/* Map a memfd; apart so that the mmap() call is not shadowed by an "mmap" argument. */
static void *
comch_mmap_map_fd(int fd, size_t len)
{
	return mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
}

int
rte_comch_mmap_alloc_memrange(struct rte_comch_mmap *mmap, size_t len)
{
	int rc = comch_mmap_check_range(mmap, len);
	void *addr;
	int fd;

	if (rc < 0)
		return rc;
	/* A memfd, so that a driver can hand the same pages to the peer. */
	fd = memfd_create("comch-mmap", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0 || ftruncate(fd, len) < 0 ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) < 0) {
		rc = -errno;
		goto fail;
	}
	addr = comch_mmap_map_fd(fd, len);
	if (addr == MAP_FAILED) {
		rc = -errno;
		goto fail;
	}
	mmap->addr = addr;
	mmap->len = len;
	mmap->memfd = fd;
	mmap->has_range = true;
	return 0;
fail:
	COMCH_LOG(ERR, "cannot allocate %zu bytes of shareable memory: %s", len, strerror(-rc));
	if (fd >= 0)
		close(fd);
	return rc;
}

int
rte_comch_mmap_get_memrange(const struct rte_comch_mmap *mmap, void **addr, size_t *len)
{
	if (mmap == NULL || addr == NULL || len == NULL) {
		COMCH_LOG(ERR, "an argument is NULL");
		return -EINVAL;
	}
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

	if (mmap == NULL || perms == 0 || (perms & ~COMCH_MMAP_PERMS) != 0 ||
	    (perms & pci) == pci) {
		COMCH_LOG(ERR, "permissions %#x: give a non-empty mask of RTE_COMCH_MMAP_PERM_*, "
			  "with at most one PCI permission", perms);
		return -EINVAL;
	}
	if (mmap->started) {
		COMCH_LOG(ERR, "mmap %p is started: its permissions are fixed", (void *)mmap);
		return -EBUSY;
	}
	mmap->perms = perms;
	return 0;
}

int
rte_comch_mmap_get_permissions(const struct rte_comch_mmap *mmap, uint32_t *perms)
{
	if (mmap == NULL || perms == NULL) {
		COMCH_LOG(ERR, "%s is NULL", mmap == NULL ? "mmap" : "perms");
		return -EINVAL;
	}
	*perms = mmap->perms;
	return 0;
}

int
rte_comch_mmap_start(struct rte_comch_mmap *mmap)
{
	if (mmap == NULL) {
		COMCH_LOG(ERR, "mmap is NULL");
		return -EINVAL;
	}
	if (!mmap->has_range) {
		COMCH_LOG(ERR, "mmap %p: register memory before start", (void *)mmap);
		return -ENOENT;
	}
	if (mmap->started) {
		COMCH_LOG(ERR, "mmap %p is already started", (void *)mmap);
		return -EBUSY;
	}
	mmap->started = true;
	return 0;
}

int
rte_comch_mmap_stop(struct rte_comch_mmap *mmap)
{
	uint32_t refs;

	if (mmap == NULL) {
		COMCH_LOG(ERR, "mmap is NULL");
		return -EINVAL;
	}
	if (!mmap->started) {
		COMCH_LOG(ERR, "mmap %p is not started", (void *)mmap);
		return -EALREADY;
	}
	refs = __atomic_load_n(&mmap->refs, __ATOMIC_ACQUIRE);
	if (refs != 0) {
		COMCH_LOG(ERR, "mmap %p: %u buffers or consumers still use it", (void *)mmap, refs);
		return -EBUSY;
	}
	mmap->started = false;
	return 0;
}

int
rte_comch_mmap_destroy(struct rte_comch_mmap *mmap)
{
	if (mmap == NULL) {
		COMCH_LOG(ERR, "mmap is NULL");
		return -EINVAL;
	}
	if (mmap->started) {
		COMCH_LOG(ERR, "mmap %p is started: stop it first", (void *)mmap);
		return -EBUSY;
	}
	if (mmap->memfd >= 0) {
		munmap(mmap->addr, mmap->len);
		close(mmap->memfd);
	}
	free(mmap);
	return 0;
}
