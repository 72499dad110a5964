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

#ifndef F_SEAL_FUTURE_WRITE
#define F_SEAL_FUTURE_WRITE 0x0010 /* Linux 5.1 */
#endif

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
	mmap->magic = COMCH_MAGIC_MMAP;
	mmap->perms = RTE_COMCH_MMAP_PERM_LOCAL_READ_WRITE;
	mmap->memfd = -1;
	return mmap;
}

/* Common checks of the calls that give an mmap its memory. */
static int
comch_mmap_check_range(const struct rte_comch_mmap *mmap, size_t len)
{
	if (COMCH_BAD_OBJ(mmap, magic, COMCH_MAGIC_MMAP))
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
	/* No F_SEAL_SEAL: start may still have to add F_SEAL_FUTURE_WRITE. */
	if (fd < 0 || ftruncate(fd, len) < 0 ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW) < 0) {
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
	if (COMCH_BAD_OBJ(mmap, magic, COMCH_MAGIC_MMAP) || COMCH_NULL_ARG(addr, len))
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

	if (COMCH_BAD_OBJ(mmap, magic, COMCH_MAGIC_MMAP))
		return -EINVAL;
	if (perms == 0 || (perms & ~COMCH_MMAP_PERMS) != 0 ||
	    (perms & pci) == pci) {
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
	if (COMCH_BAD_OBJ(mmap, magic, COMCH_MAGIC_MMAP) || COMCH_NULL_ARG(perms))
		return -EINVAL;
	*perms = mmap->perms;
	return 0;
}

bool
comch_mmap_started(const struct rte_comch_mmap *mmap)
{
	return (__atomic_load_n(&mmap->refs, __ATOMIC_ACQUIRE) & COMCH_MMAP_STARTED) != 0;
}

int
comch_mmap_hold(struct rte_comch_mmap *mmap)
{
	uint32_t v = __atomic_load_n(&mmap->refs, __ATOMIC_RELAXED);

	do {
		if ((v & COMCH_MMAP_STARTED) == 0)
			return -EPERM;
	} while (!__atomic_compare_exchange_n(&mmap->refs, &v, v + 1, false,
					      __ATOMIC_ACQUIRE, __ATOMIC_RELAXED));
	return 0;
}

void
comch_mmap_release(struct rte_comch_mmap *mmap)
{
	__atomic_fetch_sub(&mmap->refs, 1, __ATOMIC_RELEASE);
}

int
rte_comch_mmap_start(struct rte_comch_mmap *mmap)
{
	uint32_t v = 0;

	if (COMCH_BAD_OBJ(mmap, magic, COMCH_MAGIC_MMAP))
		return -EINVAL;
	if (!mmap->has_range) {
		COMCH_LOG(ERR, "mmap %p: register memory before start", (void *)mmap);
		return -ENOENT;
	}
	/*
	 * Memory the peer may only read: no writable mapping can be made of it
	 * from now on (ours, made before, stays writable).
	 */
	if (mmap->memfd >= 0 && (mmap->perms & RTE_COMCH_MMAP_PERM_PCI_READ_ONLY) != 0 &&
	    fcntl(mmap->memfd, F_ADD_SEALS, F_SEAL_FUTURE_WRITE) < 0) {
		COMCH_LOG(ERR, "mmap %p: cannot make its memory read-only for the peer: %s",
			  (void *)mmap, strerror(errno));
		return -errno;
	}
	if (!__atomic_compare_exchange_n(&mmap->refs, &v, COMCH_MMAP_STARTED, false,
					 __ATOMIC_RELEASE, __ATOMIC_RELAXED)) {
		COMCH_LOG(ERR, "mmap %p is already started", (void *)mmap);
		return -EBUSY;
	}
	return 0;
}

int
rte_comch_mmap_stop(struct rte_comch_mmap *mmap)
{
	uint32_t v = COMCH_MMAP_STARTED;

	if (COMCH_BAD_OBJ(mmap, magic, COMCH_MAGIC_MMAP))
		return -EINVAL;
	/* Only from "started, held by nobody": a concurrent hold makes this fail. */
	if (__atomic_compare_exchange_n(&mmap->refs, &v, 0, false, __ATOMIC_ACQ_REL,
					__ATOMIC_ACQUIRE))
		return 0;
	if ((v & COMCH_MMAP_STARTED) == 0) {
		COMCH_LOG(ERR, "mmap %p is not started", (void *)mmap);
		return -EALREADY;
	}
	COMCH_LOG(ERR, "mmap %p: %u buffers or consumers still use it", (void *)mmap,
		  v & ~COMCH_MMAP_STARTED);
	return -EBUSY;
}

int
rte_comch_mmap_destroy(struct rte_comch_mmap *mmap)
{
	if (COMCH_BAD_OBJ(mmap, magic, COMCH_MAGIC_MMAP))
		return -EINVAL;
	if (comch_mmap_started(mmap)) {
		COMCH_LOG(ERR, "mmap %p is started: stop it first", (void *)mmap);
		return -EBUSY;
	}
	if (mmap->memfd >= 0) {
		munmap(mmap->addr, mmap->len);
		close(mmap->memfd);
	}
	comch_obj_kill(&mmap->magic);
	free(mmap);
	return 0;
}
