/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Shared memory: sealed memfds, ours and the peer's, and the mmap ops. Rings,
 * post rings and consumers' memory are all memfds: a peer can map them from
 * the descriptor we pass, and cannot shrink them under us (SIGBUS), since we
 * only map those sealed against resizing, of exactly the size agreed.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shm_internal.h"

#ifndef F_SEAL_FUTURE_WRITE
#define F_SEAL_FUTURE_WRITE 0x0010 /* Linux 5.1 */
#endif

/* Map a memfd; apart so that the mmap() call is not shadowed by an "mmap" argument. */
static void *
shm_map(int fd, size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	return p == MAP_FAILED ? NULL : p;
}

int
shm_memfd_new(const char *name, size_t len, unsigned int seals, int *fd, void **addr)
{
	int rc;

	*fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (*fd < 0)
		return -errno;
	if (ftruncate(*fd, len) < 0 || fcntl(*fd, F_ADD_SEALS, seals) < 0) {
		rc = -errno;
		goto fail;
	}
	*addr = shm_map(*fd, len);
	if (*addr == NULL) {
		rc = -errno;
		goto fail;
	}
	return 0;
fail:
	close(*fd);
	*fd = -1;
	return rc;
}

void *
shm_memfd_map_peer(int fd, size_t len, const char *what)
{
	int seals = fcntl(fd, F_GET_SEALS);
	struct stat st;
	void *p;

	if (seals < 0 || (seals & (F_SEAL_SHRINK | F_SEAL_GROW)) != (F_SEAL_SHRINK | F_SEAL_GROW)) {
		SHM_LOG(ERR, "peer's %s: not a memfd sealed against resizing", what);
		return NULL;
	}
	if (fstat(fd, &st) < 0 || (uint64_t)st.st_size != len) {
		SHM_LOG(ERR, "peer's %s: not of the %zu bytes agreed", what, len);
		return NULL;
	}
	p = shm_map(fd, len);
	if (p == NULL)
		SHM_LOG(ERR, "peer's %s: mmap: %s", what, strerror(errno));
	return p;
}

/* ------------------------------------------------------------------ mmap ops */

static int
shm_mmap_alloc(void *dev, size_t len, void **addr, void **mem)
{
	struct shm_alloc *a = malloc(sizeof(*a));
	int rc;

	if (a == NULL)
		return -ENOMEM;
	/* No F_SEAL_SEAL: a registration may still add F_SEAL_FUTURE_WRITE. */
	rc = shm_memfd_new("comch-mmap", len, F_SEAL_SHRINK | F_SEAL_GROW, &a->memfd, &a->addr);
	if (rc < 0) {
		SHM_LOG(ERR, "cannot allocate %zu bytes of shareable memory: %s", len, strerror(-rc));
		free(a);
		return rc;
	}
	shm_fds_keep(1);
	a->len = len;
	*addr = a->addr;
	*mem = a;
	return 0;
}

static void
shm_mmap_free(void *dev, void *mem)
{
	struct shm_alloc *a = mem;

	munmap(a->addr, a->len);
	close(a->memfd);
	shm_fds_keep(-1);
	free(a);
}

static int
shm_mmap_reg(void *dev, void *addr, size_t len, uint32_t perms, void *mem, void **reg)
{
	const struct shm_alloc *a = mem;
	struct shm_reg *r = malloc(sizeof(*r));
	int rc;

	if (r == NULL)
		return -ENOMEM;
	r->memfd = a != NULL ? a->memfd : -1;
	r->addr = addr;
	r->len = len;
	/*
	 * Memory the peer may only read: no writable mapping can be made of it
	 * from now on (ours, made before, stays writable).
	 */
	if (a != NULL && (perms & RTE_COMCH_MMAP_PERM_PCI_READ_ONLY) != 0 &&
	    fcntl(a->memfd, F_ADD_SEALS, F_SEAL_FUTURE_WRITE) < 0) {
		rc = -errno;
		SHM_LOG(ERR, "cannot make memory read-only for the peer: %s", strerror(-rc));
		free(r);
		return rc;
	}
	*reg = r;
	return 0;
}

static void
shm_mmap_dereg(void *dev, void *reg)
{
	free(reg);
}

const struct rte_comch_drv_mmap_ops shm_mmap_ops = {
	.alloc = shm_mmap_alloc,
	.free = shm_mmap_free,
	.reg = shm_mmap_reg,
	.dereg = shm_mmap_dereg,
};
