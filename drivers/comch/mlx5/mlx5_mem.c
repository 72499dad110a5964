/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Memory: the library's mmaps (allocation, registration), and the driver's
 * own registered buffers (receive and send rings, handshakes, records,
 * staging).
 *
 * An mmap is registered with local and remote write on the device's PD:
 * a consumer on it hands the peer its address and rkey, and the peer's
 * producers RDMA WRITE into the buffers it posts. Any memory of the process
 * can be registered, so consumers work on the application's own memory as
 * on memory this driver allocated.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "mlx5_internal.h"

/* Page-aligned, zeroed: anonymous mappings (registration pins whole pages anyway). */
static void *
mlx5_pages(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

int
mlx5_mem_alloc(struct mlx5_dev *dev, struct mlx5_mem *m, size_t len, int access)
{
	m->len = RTE_ALIGN_CEIL(len, 64);
	m->addr = mlx5_pages(m->len);
	m->mr = NULL;
	if (m->addr == NULL)
		return -ENOMEM;
	errno = 0;
	m->mr = dev->glue->reg_mr(dev->pd, m->addr, m->len, access);
	if (m->mr == NULL) {
		int err = errno != 0 ? errno : ENOMEM;

		MLX5_LOG(ERR, "%s: registering %zu bytes: %s", dev->name, m->len, strerror(err));
		munmap(m->addr, m->len);
		m->addr = NULL;
		return -err;
	}
	return 0;
}

void
mlx5_mem_free(struct mlx5_dev *dev, struct mlx5_mem *m)
{
	if (m->mr != NULL)
		dev->glue->dereg_mr(m->mr);
	if (m->addr != NULL)
		munmap(m->addr, m->len);
	memset(m, 0, sizeof(*m));
}

/* ------------------------------------------------------------------ mmap ops */

struct mlx5_alloc {
	void *addr;
	size_t len;
};

static int
mlx5_mmap_alloc(void *dev, size_t len, void **addr, void **mem)
{
	struct mlx5_alloc *a = malloc(sizeof(*a));

	if (a == NULL)
		return -ENOMEM;
	a->len = len;
	a->addr = mlx5_pages(len);
	if (a->addr == NULL) {
		free(a);
		return -ENOMEM;
	}
	*addr = a->addr;
	*mem = a;
	return 0;
}

static void
mlx5_mmap_free(void *dev, void *mem)
{
	struct mlx5_alloc *a = mem;

	munmap(a->addr, a->len);
	free(a);
}

static int
mlx5_mmap_reg(void *dev, void *addr, size_t len, uint32_t perms, void *mem, void **reg)
{
	struct mlx5_dev *d = dev;
	struct mlx5_reg *r = malloc(sizeof(*r));
	int err;

	if (r == NULL)
		return -ENOMEM;
	r->glue = d->glue;
	errno = 0;
	r->mr = d->glue->reg_mr(d->pd, addr, len, IBV_ACCESS_LOCAL_WRITE |
				IBV_ACCESS_REMOTE_WRITE);
	if (r->mr == NULL) {
		err = errno != 0 ? errno : ENOMEM;
		MLX5_LOG(ERR, "%s: registering %zu bytes at %p: %s", d->name, len, addr,
			 strerror(err));
		free(r);
		return -err;
	}
	*reg = r;
	return 0;
}

static void
mlx5_mmap_dereg(void *dev, void *reg)
{
	struct mlx5_reg *r = reg;
	int rc = r->glue->dereg_mr(r->mr);

	if (rc != 0)
		MLX5_LOG(ERR, "dereg_mr: %s", strerror(rc));
	free(r);
}

const struct rte_comch_drv_mmap_ops mlx5_mmap_ops = {
	.alloc = mlx5_mmap_alloc,
	.free = mlx5_mmap_free,
	.reg = mlx5_mmap_reg,
	.dereg = mlx5_mmap_dereg,
};
