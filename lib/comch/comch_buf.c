/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/* Buffers: reference-counted pieces of started mmaps, from pools on rte_mempool. */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <rte_errno.h>
#include <rte_mempool.h>

#include "comch_private.h"

struct rte_comch_buf_pool {
	uint32_t magic; /* COMCH_MAGIC_BUF_POOL */
	struct comch_objreg_entry reg;    /**< In the registry of live objects. */
	struct rte_mempool *mp;
};

struct rte_comch_buf_pool *
rte_comch_buf_pool_create(uint32_t num)
{
	static uint32_t pool_seq;
	char name[RTE_MEMPOOL_NAMESIZE];
	struct rte_comch_buf_pool *pool;

	if (num == 0) {
		COMCH_LOG(ERR, "a buffer pool needs at least one buffer");
		rte_errno = EINVAL;
		return NULL;
	}
	pool = calloc(1, sizeof(*pool));
	if (pool == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	pool->magic = COMCH_MAGIC_BUF_POOL;
	snprintf(name, sizeof(name), "comch_buf_%u",
		 comch_fetch_add_relaxed(&pool_seq, 1));
	/* Any lcore takes and returns buffers: the default multi-producer/consumer ring. */
	pool->mp = rte_mempool_create(name, num, sizeof(struct rte_comch_buf), 0, 0,
				      NULL, NULL, NULL, NULL, SOCKET_ID_ANY, 0);
	if (pool->mp == NULL) {
		COMCH_LOG(ERR, "cannot create a pool of %u buffers: %s", num,
			  rte_strerror(rte_errno));
		free(pool);
		rte_errno = ENOMEM;
		return NULL;
	}
	comch_obj_publish(&pool->reg, &pool->magic);
	return pool;
}

int
rte_comch_buf_pool_destroy(struct rte_comch_buf_pool *pool)
{
	unsigned int used;

	if (COMCH_BAD_OBJ(pool, magic, COMCH_MAGIC_BUF_POOL))
		return -EINVAL;
	used = rte_mempool_in_use_count(pool->mp);
	if (used != 0) {
		COMCH_LOG(ERR, "buffer pool: %u buffers are still out", used);
		return -EBUSY;
	}
	rte_mempool_free(pool->mp);
	comch_obj_retire(&pool->reg, &pool->magic, pool);
	return 0;
}

int
rte_comch_buf_pool_get_num_free(const struct rte_comch_buf_pool *pool, uint32_t *num)
{
	if (COMCH_BAD_OBJ_FAST(pool, magic, COMCH_MAGIC_BUF_POOL) || COMCH_NULL_ARG(num))
		return -EINVAL;
	/* The pool has no per-lcore cache: the ring holds every free buffer. */
	*num = rte_mempool_avail_count(pool->mp);
	return 0;
}

/* Whether [p, p + len) lies within [base, base + base_len), without overflowing. */
static inline bool
comch_range_inside(const void *base, size_t base_len, const void *p, size_t len)
{
	uintptr_t start = (uintptr_t)p, lo = (uintptr_t)base, hi = lo + base_len;

	return start >= lo && start <= hi && len <= hi - start;
}

static int
comch_buf_get(struct rte_comch_buf_pool *pool, struct rte_comch_mmap *mmap, void *addr,
	      size_t len, size_t data_len, struct rte_comch_buf **buf)
{
	struct rte_comch_buf *b;

	if (COMCH_BAD_OBJ_FAST(pool, magic, COMCH_MAGIC_BUF_POOL) ||
	    COMCH_BAD_OBJ_FAST(mmap, magic, COMCH_MAGIC_MMAP))
		return -EINVAL;
	if (unlikely(addr == NULL || buf == NULL)) {
		COMCH_LOG(ERR, "%s is NULL", addr == NULL ? "addr" : "buf");
		return -EINVAL;
	}
	if (unlikely(!comch_range_inside(mmap->addr, mmap->len, addr, len))) {
		COMCH_LOG(ERR, "piece %p+%zu is not inside mmap %p+%zu",
			  addr, len, mmap->addr, mmap->len);
		return -EINVAL;
	}
	if (unlikely(comch_mmap_hold(mmap) < 0)) {
		COMCH_LOG(ERR, "mmap %p is not started", (void *)mmap);
		return -EPERM;
	}
	if (unlikely(rte_mempool_get(pool->mp, (void **)&b) < 0)) {
		comch_mmap_release(mmap);
		COMCH_LOG(DEBUG, "buffer pool is empty");
		return -ENOMEM;
	}
	b->head = addr;
	b->len = len;
	b->data = addr;
	b->data_len = data_len;
	b->mmap = mmap;
	b->pool = pool;
	b->refcnt = 1;
	*buf = b;
	return 0;
}

int
rte_comch_buf_pool_get_by_addr(struct rte_comch_buf_pool *pool, struct rte_comch_mmap *mmap,
			       void *addr, size_t len, struct rte_comch_buf **buf)
{
	return comch_buf_get(pool, mmap, addr, len, 0, buf);
}

int
rte_comch_buf_pool_get_by_data(struct rte_comch_buf_pool *pool, struct rte_comch_mmap *mmap,
			       void *data, size_t len, struct rte_comch_buf **buf)
{
	return comch_buf_get(pool, mmap, data, len, len, buf);
}

int
rte_comch_buf_set_data(struct rte_comch_buf *buf, void *data, size_t data_len)
{
	if (COMCH_NULL_ARG(buf, data))
		return -EINVAL;
	if (!comch_range_inside(buf->head, buf->len, data, data_len)) {
		COMCH_LOG(ERR, "data %p+%zu is not inside the buffer %p+%zu",
			  data, data_len, buf->head, buf->len);
		return -EINVAL;
	}
	buf->data = data;
	buf->data_len = data_len;
	return 0;
}

int
rte_comch_buf_reset_data_len(struct rte_comch_buf *buf)
{
	if (COMCH_NULL_ARG(buf))
		return -EINVAL;
	buf->data_len = 0;
	return 0;
}

int
rte_comch_buf_inc_refcount(struct rte_comch_buf *buf, uint16_t *refcnt)
{
	uint16_t old;

	if (buf == NULL || buf->pool == NULL) {
		COMCH_LOG(ERR, "buf is NULL or not from a pool");
		return -EINVAL;
	}
	old = comch_load_relaxed(&buf->refcnt);
	do {
		if (old == 0) {
			COMCH_LOG(ERR, "buffer %p is back in its pool: no reference to add",
				  (void *)buf);
			return -EINVAL;
		}
		if (old == UINT16_MAX) {
			COMCH_LOG(ERR, "buffer %p has %u references already", (void *)buf, old);
			return -EOVERFLOW;
		}
	} while (!comch_cas_acq_rel(&buf->refcnt, &old, old + 1));
	if (refcnt != NULL)
		*refcnt = old + 1;
	return 0;
}

int
rte_comch_buf_dec_refcount(struct rte_comch_buf *buf, uint16_t *refcnt)
{
	struct rte_comch_mmap *mmap;
	uint16_t old;

	if (COMCH_NULL_ARG(buf))
		return -EINVAL;
	old = comch_load_relaxed(&buf->refcnt);
	do {
		if (old == 0) {
			COMCH_LOG(ERR, "buffer %p has no reference left (freed twice?)", (void *)buf);
			return -EINVAL;
		}
	} while (!comch_cas_acq_rel(&buf->refcnt, &old, old - 1));
	if (refcnt != NULL)
		*refcnt = old - 1;
	if (old == 1) {
		mmap = buf->mmap;
		rte_mempool_put(buf->pool->mp, buf);
		comch_mmap_release(mmap);
	}
	return 0;
}
