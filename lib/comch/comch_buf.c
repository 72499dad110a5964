/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Buffers: reference-counted pieces of started mmaps, from pools on rte_mempool.
 * A pool is either of descriptors (the caller names the piece at each get) or
 * of elements of one mmap (rte_comch_buf_pool_create_in_mmap()): there each
 * descriptor is one element for good, its piece set once when the mempool is
 * populated, so that taking one is taking a free element.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_mempool.h>

#include "comch_private.h"

struct rte_comch_buf_pool {
	uint32_t magic; /* COMCH_MAGIC_BUF_POOL */
	struct comch_objreg_entry reg;    /**< In the registry of live objects. */
	struct rte_mempool *mp;
	/* Pools of elements only: the mmap they cut, held while the pool lives. */
	struct rte_comch_mmap *mmap;
	uint8_t *first;                   /**< The first element. */
	size_t stride;                    /**< From one element to the next. */
	size_t elt_size;                  /**< Bytes of an element. */
};

/*
 * A descriptor just taken from its mempool: order what its last holder did
 * before releasing it (the release CAS of rte_comch_buf_dec_refcount()) before
 * what the new holder writes. The mempool's ring orders it already, but in
 * DPDK's code, where ThreadSanitizer cannot see it: this acquire says it in
 * ours, for a plain load on x86.
 */
static inline void
comch_buf_taken(struct rte_comch_buf *b)
{
	(void)comch_load_acquire(&b->refcnt);
}

/*
 * Give a pool its num descriptors (init, if not NULL, sets each up once, with
 * the pool as its opaque) and publish it. 0, or -ENOMEM with a log line.
 */
static int
comch_buf_pool_fill(struct rte_comch_buf_pool *pool, uint32_t num, rte_mempool_obj_cb_t *init)
{
	static uint32_t pool_seq;
	char name[RTE_MEMPOOL_NAMESIZE];

	pool->magic = COMCH_MAGIC_BUF_POOL;
	snprintf(name, sizeof(name), "comch_buf_%u",
		 comch_fetch_add_relaxed(&pool_seq, 1));
	/* Any lcore takes and returns buffers: the default multi-producer/consumer ring. */
	pool->mp = rte_mempool_create(name, num, sizeof(struct rte_comch_buf), 0, 0,
				      NULL, NULL, init, pool, SOCKET_ID_ANY, 0);
	if (pool->mp == NULL) {
		COMCH_LOG(ERR, "cannot create a pool of %u buffers: %s", num,
			  rte_strerror(rte_errno));
		return -ENOMEM;
	}
	comch_obj_publish(&pool->reg, &pool->magic);
	return 0;
}

struct rte_comch_buf_pool *
rte_comch_buf_pool_create(uint32_t num)
{
	struct rte_comch_buf_pool *pool;

	if (num == 0) {
		COMCH_LOG(ERR, "a buffer pool needs at least one buffer");
		rte_errno = EINVAL;
		return NULL;
	}
	pool = calloc(1, sizeof(*pool));
	if (pool == NULL || comch_buf_pool_fill(pool, num, NULL) != 0) {
		free(pool);
		rte_errno = ENOMEM;
		return NULL;
	}
	return pool;
}

/* rte_mempool's object constructor: descriptor obj_idx is element obj_idx, for good. */
static void
comch_buf_elt_init(struct rte_mempool *mp, void *opaque, void *obj, unsigned int obj_idx)
{
	struct rte_comch_buf_pool *pool = opaque;
	struct rte_comch_buf *b = obj;

	RTE_SET_USED(mp);
	b->head = pool->first + (size_t)obj_idx * pool->stride;
	b->len = pool->elt_size;
	b->data = b->head;
	b->data_len = 0;
	b->mmap = pool->mmap;
	b->pool = pool;
	b->refcnt = 0;
}

/*
 * Where elements start: the first at the first multiple of align inside the
 * range, then every elt_size rounded up to align. 0, or -EINVAL with a log
 * line if num of them do not fit (or the arithmetic would overflow).
 */
static int
comch_buf_elt_layout(const struct rte_comch_mmap *mmap, uint32_t num, size_t elt_size,
		     size_t align, uint8_t **first, size_t *stride)
{
	uintptr_t lo = (uintptr_t)mmap->addr, start;
	size_t step, room;

	if (elt_size == 0 || align == 0 || !rte_is_power_of_2(align) || align > SIZE_MAX / 2) {
		COMCH_LOG(ERR, "element size %zu, alignment %zu: the size must not be 0, the "
			  "alignment a power of two", elt_size, align);
		return -EINVAL;
	}
	step = elt_size > SIZE_MAX - (align - 1) ? 0 : RTE_ALIGN_CEIL(elt_size, align);
	start = RTE_ALIGN_CEIL(lo, (uintptr_t)align);
	room = start - lo > mmap->len ? 0 : mmap->len - (start - lo);
	/* num - 1 strides, then one element, within the room after the first */
	if (step == 0 || room < elt_size || (num - 1) > (room - elt_size) / step) {
		COMCH_LOG(ERR, "%u elements of %zu bytes aligned to %zu do not fit in mmap "
			  "%p+%zu", num, elt_size, align, mmap->addr, mmap->len);
		return -EINVAL;
	}
	*first = (uint8_t *)start;
	*stride = step;
	return 0;
}

struct rte_comch_buf_pool *
rte_comch_buf_pool_create_in_mmap(struct rte_comch_mmap *mmap, uint32_t num, size_t elt_size,
				  size_t align)
{
	struct rte_comch_buf_pool *pool;
	int rc;

	if (COMCH_BAD_OBJ(mmap, magic, COMCH_MAGIC_MMAP)) {
		rte_errno = EINVAL;
		return NULL;
	}
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
	/* The pool holds the mmap: its range cannot change or go while elements exist. */
	if (comch_mmap_hold(mmap) < 0) {
		COMCH_LOG(ERR, "mmap %p is not started", (void *)mmap);
		free(pool);
		rte_errno = EPERM;
		return NULL;
	}
	pool->mmap = mmap;
	pool->elt_size = elt_size;
	rc = comch_buf_elt_layout(mmap, num, elt_size, align, &pool->first, &pool->stride);
	if (rc == 0)
		rc = comch_buf_pool_fill(pool, num, comch_buf_elt_init);
	if (rc != 0) {
		comch_mmap_release(mmap);
		free(pool);
		rte_errno = -rc;
		return NULL;
	}
	return pool;
}

int
rte_comch_buf_pool_alloc(struct rte_comch_buf_pool *pool, struct rte_comch_buf **buf)
{
	struct rte_comch_buf *b;

	if (COMCH_BAD_OBJ_FAST(pool, magic, COMCH_MAGIC_BUF_POOL) || COMCH_NULL_ARG(buf))
		return -EINVAL;
	if (unlikely(pool->mmap == NULL)) {
		COMCH_LOG(ERR, "pool %p has no elements: take a buffer by address or data",
			  (void *)pool);
		return -EINVAL;
	}
	if (unlikely(rte_mempool_get(pool->mp, (void **)&b) < 0)) {
		COMCH_LOG(DEBUG, "buffer pool is empty");
		return -ENOMEM;
	}
	/* Cannot fail: the pool holds its mmap started. */
	comch_mmap_hold(pool->mmap);
	comch_buf_taken(b);
	b->data = b->head;
	b->data_len = 0;
	b->refcnt = 1;
	*buf = b;
	return 0;
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
	if (pool->mmap != NULL)
		comch_mmap_release(pool->mmap);
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
	if (unlikely(pool->mmap != NULL)) {
		COMCH_LOG(ERR, "pool %p is of elements: rte_comch_buf_pool_alloc()", (void *)pool);
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
	comch_buf_taken(b);
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

/* Point a buffer its caller alone holds at another piece of its mmap. */
static int
comch_buf_reuse(struct rte_comch_buf *buf, void *addr, size_t len, size_t data_len)
{
	uint32_t refs;

	if (COMCH_NULL_ARG(buf, addr))
		return -EINVAL;
	/* One read: the count the checks below and the log line speak of. */
	refs = comch_load_relaxed(&buf->refcnt);
	if (buf->pool == NULL || refs == 0) {
		COMCH_LOG(ERR, "buffer %p is not taken from a pool", (void *)buf);
		return -EINVAL;
	}
	if (buf->pool->mmap != NULL) {
		COMCH_LOG(ERR, "buffer %p is an element of its pool: its piece is fixed",
			  (void *)buf);
		return -EPERM;
	}
	/* Another holder would see its piece move under it. */
	if (refs != 1) {
		COMCH_LOG(ERR, "buffer %p has %u references: only its only holder may reuse it",
			  (void *)buf, refs);
		return -EBUSY;
	}
	if (!comch_range_inside(buf->mmap->addr, buf->mmap->len, addr, len)) {
		COMCH_LOG(ERR, "piece %p+%zu is not inside mmap %p+%zu",
			  addr, len, buf->mmap->addr, buf->mmap->len);
		return -EINVAL;
	}
	buf->head = addr;
	buf->len = len;
	buf->data = addr;
	buf->data_len = data_len;
	return 0;
}

int
rte_comch_buf_reuse_by_addr(struct rte_comch_buf *buf, void *addr, size_t len)
{
	return comch_buf_reuse(buf, addr, len, 0);
}

int
rte_comch_buf_reuse_by_data(struct rte_comch_buf *buf, void *data, size_t len)
{
	return comch_buf_reuse(buf, data, len, len);
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
	struct rte_comch_buf_pool *pool;
	struct rte_comch_mmap *mmap;
	uint16_t old;

	if (COMCH_NULL_ARG(buf))
		return -EINVAL;
	/* Read before the last reference goes: from then on the buffer may be another's. */
	mmap = buf->mmap;
	pool = buf->pool;
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
		rte_mempool_put(pool->mp, buf);
		comch_mmap_release(mmap);
	}
	return 0;
}
