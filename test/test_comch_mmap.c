/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/* Memory registration, buffers and buffer pools: every call and every documented error. */

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>

#include <rte_comch.h>

#include "comch_test_common.h"

/* The registered range, with room on both sides to probe pieces that stick out. */
static uint8_t backing[64 + 4096 + 64];
#define mem (backing + 64)
#define MEM_LEN 4096

static void
test_mmap_config(void **state)
{
	struct rte_comch_mmap *m = rte_comch_mmap_create();
	uint32_t perms;
	size_t len;
	void *addr;

	assert_non_null(m);
	assert_int_equal(rte_comch_mmap_get_permissions(m, &perms), 0);
	assert_int_equal(perms, RTE_COMCH_MMAP_PERM_LOCAL_READ_WRITE);
	assert_int_equal(rte_comch_mmap_get_memrange(m, &addr, &len), -ENOENT);
	assert_int_equal(rte_comch_mmap_start(m), -ENOENT);

	assert_int_equal(rte_comch_mmap_set_memrange(NULL, mem, MEM_LEN), -EINVAL);
	assert_int_equal(rte_comch_mmap_set_memrange(m, NULL, MEM_LEN), -EINVAL);
	assert_int_equal(rte_comch_mmap_set_memrange(m, mem, 0), -EINVAL);
	assert_int_equal(rte_comch_mmap_set_memrange(m, mem, MEM_LEN), 0);
	assert_int_equal(rte_comch_mmap_set_memrange(m, mem, MEM_LEN), -EEXIST);
	assert_int_equal(rte_comch_mmap_alloc_memrange(m, 4096), -EEXIST);
	assert_int_equal(rte_comch_mmap_get_memrange(m, &addr, &len), 0);
	assert_ptr_equal(addr, mem);
	assert_int_equal(len, MEM_LEN);
	assert_int_equal(rte_comch_mmap_get_memrange(m, NULL, &len), -EINVAL);

	assert_int_equal(rte_comch_mmap_set_permissions(NULL, 1), -EINVAL);
	assert_int_equal(rte_comch_mmap_set_permissions(m, 0), -EINVAL);
	assert_int_equal(rte_comch_mmap_set_permissions(m, RTE_BIT32(9)), -EINVAL);
	assert_int_equal(rte_comch_mmap_set_permissions(m, RTE_COMCH_MMAP_PERM_PCI_READ_ONLY |
						       RTE_COMCH_MMAP_PERM_PCI_READ_WRITE), -EINVAL);
	perms = RTE_COMCH_MMAP_PERM_LOCAL_READ_WRITE | RTE_COMCH_MMAP_PERM_PCI_READ_WRITE;
	assert_int_equal(rte_comch_mmap_set_permissions(m, perms), 0);
	assert_int_equal(rte_comch_mmap_get_permissions(m, NULL), -EINVAL);
	assert_int_equal(rte_comch_mmap_get_permissions(m, &perms), 0);
	assert_int_equal(perms, RTE_COMCH_MMAP_PERM_LOCAL_READ_WRITE |
			 RTE_COMCH_MMAP_PERM_PCI_READ_WRITE);

	assert_int_equal(rte_comch_mmap_start(NULL), -EINVAL);
	assert_int_equal(rte_comch_mmap_start(m), 0);
	assert_int_equal(rte_comch_mmap_start(m), -EBUSY);
	assert_int_equal(rte_comch_mmap_set_permissions(m, RTE_COMCH_MMAP_PERM_LOCAL_READ_WRITE),
			 -EBUSY);
	assert_int_equal(rte_comch_mmap_stop(NULL), -EINVAL);
	assert_int_equal(rte_comch_mmap_stop(m), 0);
	assert_int_equal(rte_comch_mmap_stop(m), -EALREADY);
	assert_int_equal(rte_comch_mmap_destroy(NULL), -EINVAL);
	assert_int_equal(rte_comch_mmap_destroy(m), 0);
}

static void
test_mmap_started_memory_is_fixed(void **state)
{
	struct rte_comch_mmap *m = rte_comch_mmap_create();
	struct rte_comch_mmap *empty = rte_comch_mmap_create();

	assert_int_equal(rte_comch_mmap_set_memrange(m, mem, MEM_LEN), 0);
	assert_int_equal(rte_comch_mmap_start(m), 0);
	/* Started with memory: neither call may change it. */
	assert_int_equal(rte_comch_mmap_set_memrange(m, mem, 16), -EBUSY);
	assert_int_equal(rte_comch_mmap_alloc_memrange(m, 4096), -EBUSY);
	assert_int_equal(rte_comch_mmap_alloc_memrange(NULL, 4096), -EINVAL);
	assert_int_equal(rte_comch_mmap_alloc_memrange(empty, 0), -EINVAL);
	assert_int_equal(rte_comch_mmap_stop(m), 0);
	assert_int_equal(rte_comch_mmap_destroy(m), 0);
	assert_int_equal(rte_comch_mmap_destroy(empty), 0);
}

static void
test_mmap_alloc_memrange(void **state)
{
	const size_t len = 16u << 20;
	struct rte_comch_mmap *m = rte_comch_mmap_create();
	uint8_t *p;
	size_t got, i;

	assert_int_equal(rte_comch_mmap_alloc_memrange(m, len), 0);
	assert_int_equal(rte_comch_mmap_get_memrange(m, (void **)&p, &got), 0);
	assert_int_equal(got, len);
	for (i = 0; i < len; i += 4096)
		assert_int_equal(p[i], 0);
	memset(p, 0xa5, len);
	assert_int_equal(p[len - 1], 0xa5);
	assert_int_equal(rte_comch_mmap_destroy(m), 0);
}

static void
test_buf_pool(void **state)
{
	struct rte_comch_mmap *m = rte_comch_mmap_create();
	struct rte_comch_buf_pool *pool;
	struct rte_comch_buf *a, *b, *c;
	uint32_t n;

	assert_null(rte_comch_buf_pool_create(0));
	assert_int_equal(rte_errno, EINVAL);
	pool = rte_comch_buf_pool_create(2);
	assert_non_null(pool);
	assert_int_equal(rte_comch_buf_pool_get_num_free(NULL, &n), -EINVAL);
	assert_int_equal(rte_comch_buf_pool_get_num_free(pool, NULL), -EINVAL);
	assert_int_equal(rte_comch_buf_pool_get_num_free(pool, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(rte_comch_mmap_set_memrange(m, mem, MEM_LEN), 0);

	assert_int_equal(rte_comch_buf_pool_get_by_addr(pool, m, mem, 64, &a), -EPERM);
	assert_int_equal(rte_comch_mmap_start(m), 0);
	assert_int_equal(rte_comch_buf_pool_get_by_addr(NULL, m, mem, 64, &a), -EINVAL);
	assert_int_equal(rte_comch_buf_pool_get_by_addr(pool, NULL, mem, 64, &a), -EINVAL);
	assert_int_equal(rte_comch_buf_pool_get_by_addr(pool, m, NULL, 64, &a), -EINVAL);
	assert_int_equal(rte_comch_buf_pool_get_by_addr(pool, m, mem, 64, NULL), -EINVAL);
	/* Pieces that stick out of the mmap, by one byte either way. */
	assert_int_equal(rte_comch_buf_pool_get_by_addr(pool, m, mem - 1, 64, &a), -EINVAL);
	assert_int_equal(rte_comch_buf_pool_get_by_addr(pool, m, mem + 1, MEM_LEN, &a),
			 -EINVAL);
	assert_int_equal(rte_comch_buf_pool_get_by_data(pool, m, mem + 8, SIZE_MAX, &a), -EINVAL);

	assert_int_equal(rte_comch_buf_pool_get_by_addr(pool, m, mem + 64, 128, &a), 0);
	assert_ptr_equal(a->head, mem + 64);
	assert_ptr_equal(a->data, mem + 64);
	assert_int_equal(a->len, 128);
	assert_int_equal(a->data_len, 0);
	assert_int_equal(a->refcnt, 1);
	assert_ptr_equal(a->mmap, m);
	assert_int_equal(rte_comch_buf_pool_get_by_data(pool, m, mem, MEM_LEN, &b), 0);
	assert_int_equal(b->data_len, MEM_LEN);
	assert_int_equal(rte_comch_buf_pool_get_by_data(pool, m, mem, 8, &c), -ENOMEM);
	assert_int_equal(rte_comch_buf_pool_get_num_free(pool, &n), 0);
	assert_int_equal(n, 0);

	/* Buffers hold the mmap and the pool. */
	assert_int_equal(rte_comch_mmap_stop(m), -EBUSY);
	assert_int_equal(rte_comch_buf_pool_destroy(pool), -EBUSY);
	assert_int_equal(rte_comch_buf_pool_destroy(NULL), -EINVAL);
	assert_int_equal(rte_comch_buf_dec_refcount(a, NULL), 0);
	assert_int_equal(rte_comch_buf_pool_get_num_free(pool, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(rte_comch_mmap_stop(m), -EBUSY);
	assert_int_equal(rte_comch_buf_dec_refcount(b, NULL), 0);
	assert_int_equal(rte_comch_buf_dec_refcount(b, NULL), -EINVAL);
	assert_int_equal(rte_comch_mmap_stop(m), 0);
	assert_int_equal(rte_comch_buf_pool_destroy(pool), 0);
	assert_int_equal(rte_comch_mmap_destroy(m), 0);
}

/*
 * A started mmap is destroyed as it is, stopped on the way (DOCA programs do
 * not stop theirs first), unless something still holds it.
 */
static void
test_mmap_destroy_started(void **state)
{
	struct rte_comch_buf_pool *pool = rte_comch_buf_pool_create(2);
	struct rte_comch_buf *a, *b;
	struct rte_comch_mmap *m;
	struct rte_comch_dev *dev;
	char domain[32];
	uint8_t *addr;
	size_t len;

	(void)state;
	assert_non_null(pool);
	ct_domain(domain, sizeof(domain));
	dev = ct_dev_open("domain=%s,role=host", domain);
	assert_non_null(dev);
	/* registered with a device, its memory from the device's driver */
	m = rte_comch_mmap_create();
	assert_non_null(m);
	assert_int_equal(rte_comch_mmap_add_dev(m, dev), 0);
	assert_int_equal(rte_comch_mmap_alloc_memrange(m, MEM_LEN), 0);
	assert_int_equal(rte_comch_mmap_get_memrange(m, (void **)&addr, &len), 0);
	assert_int_equal(rte_comch_mmap_start(m), 0);
	assert_int_equal(rte_comch_dev_close(dev), -EBUSY);

	/* a buffer holds it: refused, and it stays started and usable */
	assert_int_equal(rte_comch_buf_pool_get_by_addr(pool, m, addr, 64, &a), 0);
	assert_int_equal(rte_comch_mmap_destroy(m), -EBUSY);
	assert_int_equal(rte_comch_mmap_start(m), -EBUSY);
	assert_int_equal(rte_comch_buf_pool_get_by_addr(pool, m, addr + 64, 64, &b), 0);
	memset(b->head, 0x5a, b->len);
	assert_int_equal(rte_comch_buf_dec_refcount(a, NULL), 0);
	assert_int_equal(rte_comch_mmap_destroy(m), -EBUSY);
	assert_int_equal(rte_comch_buf_dec_refcount(b, NULL), 0);

	/* held by nobody: stopped, unregistered and freed in one call */
	assert_int_equal(rte_comch_mmap_destroy(m), 0);
	/* the device it was registered with has no user left */
	assert_int_equal(rte_comch_dev_close(dev), 0);

	/* without a device, on memory of the application's: the same */
	m = rte_comch_mmap_create();
	assert_non_null(m);
	assert_int_equal(rte_comch_mmap_set_memrange(m, mem, MEM_LEN), 0);
	assert_int_equal(rte_comch_mmap_start(m), 0);
	assert_int_equal(rte_comch_mmap_destroy(m), 0);
	assert_int_equal(rte_comch_buf_pool_destroy(pool), 0);
}

static void
test_buf_data(void **state)
{
	struct rte_comch_mmap *m = rte_comch_mmap_create();
	struct rte_comch_buf_pool *pool = rte_comch_buf_pool_create(1);
	struct rte_comch_buf *b;

	assert_int_equal(rte_comch_mmap_set_memrange(m, mem, MEM_LEN), 0);
	assert_int_equal(rte_comch_mmap_start(m), 0);
	assert_int_equal(rte_comch_buf_pool_get_by_addr(pool, m, mem + 100, 200, &b), 0);
	assert_int_equal(rte_comch_buf_set_data(b, mem + 150, 150), 0);
	assert_ptr_equal(b->data, mem + 150);
	assert_int_equal(b->data_len, 150);
	assert_int_equal(rte_comch_buf_set_data(b, mem + 150, 151), -EINVAL);
	assert_int_equal(rte_comch_buf_set_data(b, mem + 99, 1), -EINVAL);
	assert_int_equal(rte_comch_buf_set_data(b, mem + 300, 0), 0);
	assert_int_equal(rte_comch_buf_set_data(NULL, mem, 1), -EINVAL);
	assert_int_equal(rte_comch_buf_set_data(b, NULL, 1), -EINVAL);
	assert_int_equal(rte_comch_buf_set_data(b, mem + 120, 10), 0);
	assert_int_equal(rte_comch_buf_reset_data_len(b), 0);
	assert_ptr_equal(b->data, mem + 120);
	assert_int_equal(b->data_len, 0);
	assert_int_equal(rte_comch_buf_reset_data_len(NULL), -EINVAL);
	assert_int_equal(rte_comch_buf_dec_refcount(b, NULL), 0);
	assert_int_equal(rte_comch_buf_pool_destroy(pool), 0);
	assert_int_equal(rte_comch_mmap_stop(m), 0);
	assert_int_equal(rte_comch_mmap_destroy(m), 0);
}

#define REF_ROUNDS 200000

static int
ref_worker(void *arg)
{
	struct rte_comch_buf *b = arg;
	int i;

	for (i = 0; i < REF_ROUNDS; i++) {
		if (rte_comch_buf_inc_refcount(b, NULL) != 0 ||
		    rte_comch_buf_dec_refcount(b, NULL) != 0)
			return -1;
	}
	return 0;
}

static void
test_buf_refcount(void **state)
{
	struct rte_comch_mmap *m = rte_comch_mmap_create();
	struct rte_comch_buf_pool *pool = rte_comch_buf_pool_create(1);
	struct rte_comch_buf *b;
	unsigned int worker = rte_get_next_lcore(-1, 1, 0);
	uint16_t rc;

	assert_int_equal(rte_comch_mmap_set_memrange(m, mem, MEM_LEN), 0);
	assert_int_equal(rte_comch_mmap_start(m), 0);
	assert_int_equal(rte_comch_buf_pool_get_by_data(pool, m, mem, 16, &b), 0);
	assert_int_equal(rte_comch_buf_inc_refcount(b, &rc), 0);
	assert_int_equal(rc, 2);
	assert_int_equal(rte_comch_buf_inc_refcount(NULL, &rc), -EINVAL);
	assert_int_equal(rte_comch_buf_dec_refcount(NULL, &rc), -EINVAL);

	/* Two lcores take and drop references at once: none is lost. */
	assert_true(worker < RTE_MAX_LCORE);
	assert_int_equal(ct_remote_launch(ref_worker, b, worker), 0);
	assert_int_equal(ref_worker(b), 0);
	assert_int_equal(ct_wait_lcore(worker), 0);
	assert_int_equal(b->refcnt, 2);

	assert_int_equal(rte_comch_buf_dec_refcount(b, &rc), 0);
	assert_int_equal(rc, 1);
	/* Held by two: the pool cannot be destroyed until the last reference goes. */
	assert_int_equal(rte_comch_buf_pool_destroy(pool), -EBUSY);
	b->refcnt = UINT16_MAX;
	assert_int_equal(rte_comch_buf_inc_refcount(b, &rc), -EOVERFLOW);
	b->refcnt = 1;
	assert_int_equal(rte_comch_buf_dec_refcount(b, &rc), 0);
	assert_int_equal(rc, 0);
	assert_int_equal(rte_comch_buf_pool_destroy(pool), 0);
	assert_int_equal(rte_comch_mmap_stop(m), 0);
	assert_int_equal(rte_comch_mmap_destroy(m), 0);
}

/* Stop on one lcore, buffers taken on another: a stopped mmap is never held. */
struct stop_race {
	struct rte_comch_mmap *m;
	struct rte_comch_buf_pool *pool;
	uint32_t held;          /* buffers the worker holds */
	uint32_t done;
	uint32_t violations;    /* buffers got while the main lcore had the mmap stopped */
	uint32_t stopped;
};

static int
stop_race_worker(void *arg)
{
	struct stop_race *r = arg;
	struct rte_comch_buf *b;

	while (!__atomic_load_n(&r->done, __ATOMIC_ACQUIRE)) {
		if (rte_comch_buf_pool_get_by_addr(r->pool, r->m, mem, 64, &b) != 0)
			continue;
		if (__atomic_load_n(&r->stopped, __ATOMIC_ACQUIRE))
			__atomic_fetch_add(&r->violations, 1, __ATOMIC_RELAXED);
		__atomic_fetch_add(&r->held, 1, __ATOMIC_RELEASE);
		__atomic_fetch_sub(&r->held, 1, __ATOMIC_RELEASE);
		rte_comch_buf_dec_refcount(b, NULL);
	}
	return 0;
}

static void
test_mmap_stop_races_buffer_get(void **state)
{
	struct stop_race r = { .m = rte_comch_mmap_create(), .pool = rte_comch_buf_pool_create(4) };
	unsigned int worker = rte_get_next_lcore(-1, 1, 0);
	unsigned int i, stops = 0;

	assert_int_equal(rte_comch_mmap_set_memrange(r.m, mem, MEM_LEN), 0);
	assert_int_equal(rte_comch_mmap_start(r.m), 0);
	assert_int_equal(ct_remote_launch(stop_race_worker, &r, worker), 0);
	for (i = 0; i < 200000; i++) {
		if (rte_comch_mmap_stop(r.m) != 0)
			continue;
		stops++;
		__atomic_store_n(&r.stopped, 1, __ATOMIC_RELEASE);
		/* Stopped: the worker cannot get a buffer now. */
		assert_int_equal(__atomic_load_n(&r.held, __ATOMIC_ACQUIRE), 0);
		__atomic_store_n(&r.stopped, 0, __ATOMIC_RELEASE);
		assert_int_equal(rte_comch_mmap_start(r.m), 0);
	}
	__atomic_store_n(&r.done, 1, __ATOMIC_RELEASE);
	assert_int_equal(ct_wait_lcore(worker), 0);
	assert_int_equal(r.violations, 0);
	assert_true(stops > 0);
	assert_int_equal(rte_comch_mmap_stop(r.m), 0);
	assert_int_equal(rte_comch_buf_pool_destroy(r.pool), 0);
	assert_int_equal(rte_comch_mmap_destroy(r.m), 0);
}

static void
test_buf_no_resurrection(void **state)
{
	struct rte_comch_mmap *m = rte_comch_mmap_create();
	struct rte_comch_buf_pool *pool = rte_comch_buf_pool_create(1);
	struct rte_comch_buf *b;

	assert_int_equal(rte_comch_mmap_set_memrange(m, mem, MEM_LEN), 0);
	assert_int_equal(rte_comch_mmap_start(m), 0);
	assert_int_equal(rte_comch_buf_pool_get_by_addr(pool, m, mem, 64, &b), 0);
	assert_int_equal(rte_comch_buf_dec_refcount(b, NULL), 0);
	/* Back in the pool: a new reference would let the pool hand it out twice. */
	assert_int_equal(rte_comch_buf_inc_refcount(b, NULL), -EINVAL);
	assert_int_equal(rte_comch_mmap_stop(m), 0);
	assert_int_equal(rte_comch_buf_pool_destroy(pool), 0);
	assert_int_equal(rte_comch_mmap_destroy(m), 0);
}

/*
 * A pool of elements: the mmap's range cut into aligned pieces, one buffer per
 * piece for good, the pool holding the mmap; no get by address on it.
 */
static void
test_buf_pool_in_mmap(void **state)
{
	struct rte_comch_mmap *m = rte_comch_mmap_create();
	struct rte_comch_buf *a, *b, *c, *d;
	struct rte_comch_buf_pool *pool;
	uint8_t *first;
	uint32_t n;

	assert_int_equal(rte_comch_mmap_set_memrange(m, mem + 1, MEM_LEN - 1), 0);
	assert_null(rte_comch_buf_pool_create_in_mmap(m, 2, 100, 64));
	assert_int_equal(rte_errno, EPERM);
	assert_int_equal(rte_comch_mmap_start(m), 0);
	assert_null(rte_comch_buf_pool_create_in_mmap(NULL, 2, 100, 64));
	assert_int_equal(rte_errno, EINVAL);
	assert_null(rte_comch_buf_pool_create_in_mmap(m, 0, 100, 64));
	assert_int_equal(rte_errno, EINVAL);
	assert_null(rte_comch_buf_pool_create_in_mmap(m, 2, 0, 64));
	assert_int_equal(rte_errno, EINVAL);
	assert_null(rte_comch_buf_pool_create_in_mmap(m, 2, 100, 48));
	assert_int_equal(rte_errno, EINVAL);
	/* 4096 - 1 bytes from mem + 1: 63 aligned to 64, 32 strides of 128 do not fit */
	assert_null(rte_comch_buf_pool_create_in_mmap(m, 32, 100, 64));
	assert_int_equal(rte_errno, EINVAL);
	assert_null(rte_comch_buf_pool_create_in_mmap(m, 2, SIZE_MAX, 1));
	assert_int_equal(rte_errno, EINVAL);
	pool = rte_comch_buf_pool_create_in_mmap(m, 3, 100, 64);
	assert_non_null(pool);
	/* It holds the mmap. */
	assert_int_equal(rte_comch_mmap_stop(m), -EBUSY);

	first = (uint8_t *)RTE_ALIGN_CEIL((uintptr_t)(mem + 1), 64);
	assert_int_equal(rte_comch_buf_pool_alloc(NULL, &a), -EINVAL);
	assert_int_equal(rte_comch_buf_pool_alloc(pool, NULL), -EINVAL);
	assert_int_equal(rte_comch_buf_pool_get_by_addr(pool, m, mem + 64, 8, &a), -EINVAL);
	assert_int_equal(rte_comch_buf_pool_alloc(pool, &a), 0);
	assert_int_equal(rte_comch_buf_pool_alloc(pool, &b), 0);
	assert_int_equal(rte_comch_buf_pool_alloc(pool, &c), 0);
	assert_int_equal(rte_comch_buf_pool_alloc(pool, &d), -ENOMEM);
	assert_int_equal(rte_comch_buf_pool_get_num_free(pool, &n), 0);
	assert_int_equal(n, 0);
	/* Three different elements, 128 bytes apart from the first aligned address. */
	assert_true(a->head != b->head && b->head != c->head && a->head != c->head);
	assert_true((uint8_t *)a->head >= first && (uint8_t *)a->head <= first + 256);
	assert_int_equal(((uint8_t *)a->head - first) % 128, 0);
	assert_int_equal(((uint8_t *)b->head - first) % 128, 0);
	assert_int_equal(((uint8_t *)c->head - first) % 128, 0);
	assert_int_equal(a->len, 100);
	assert_ptr_equal(a->data, a->head);
	assert_int_equal(a->data_len, 0);
	assert_int_equal(a->refcnt, 1);
	assert_ptr_equal(a->mmap, m);
	/* Its piece is fixed. */
	assert_int_equal(rte_comch_buf_reuse_by_addr(a, mem, 8), -EPERM);
	assert_int_equal(rte_comch_buf_set_data(a, (uint8_t *)a->head + 10, 90), 0);
	assert_int_equal(rte_comch_buf_pool_destroy(pool), -EBUSY);

	/* Back in the pool, the same element comes out again, reset. */
	d = b;
	assert_int_equal(rte_comch_buf_dec_refcount(b, NULL), 0);
	assert_int_equal(rte_comch_buf_pool_alloc(pool, &b), 0);
	assert_ptr_equal(b, d);
	assert_int_equal(rte_comch_buf_dec_refcount(a, NULL), 0);
	assert_int_equal(rte_comch_buf_pool_alloc(pool, &a), 0);
	assert_ptr_equal(a->data, a->head);
	assert_int_equal(a->data_len, 0);
	assert_int_equal(rte_comch_buf_dec_refcount(a, NULL), 0);
	assert_int_equal(rte_comch_buf_dec_refcount(b, NULL), 0);
	assert_int_equal(rte_comch_buf_dec_refcount(c, NULL), 0);
	assert_int_equal(rte_comch_buf_pool_get_num_free(pool, &n), 0);
	assert_int_equal(n, 3);
	assert_int_equal(rte_comch_mmap_stop(m), -EBUSY);
	assert_int_equal(rte_comch_buf_pool_destroy(pool), 0);
	assert_int_equal(rte_comch_mmap_stop(m), 0);
	assert_int_equal(rte_comch_mmap_destroy(m), 0);
}

/* A buffer its only holder points at another piece of its mmap. */
static void
test_buf_reuse(void **state)
{
	struct rte_comch_buf_pool *pool = rte_comch_buf_pool_create(1);
	struct rte_comch_mmap *m = rte_comch_mmap_create();
	struct rte_comch_buf *a, *again;
	uint32_t n;

	assert_int_equal(rte_comch_mmap_set_memrange(m, mem, MEM_LEN), 0);
	assert_int_equal(rte_comch_mmap_start(m), 0);
	assert_int_equal(rte_comch_buf_pool_get_by_data(pool, m, mem, 64, &a), 0);

	assert_int_equal(rte_comch_buf_reuse_by_addr(NULL, mem, 8), -EINVAL);
	assert_int_equal(rte_comch_buf_reuse_by_addr(a, NULL, 8), -EINVAL);
	assert_int_equal(rte_comch_buf_reuse_by_addr(a, mem - 1, 8), -EINVAL);
	assert_int_equal(rte_comch_buf_reuse_by_data(a, mem + 8, MEM_LEN), -EINVAL);
	assert_ptr_equal(a->head, mem);
	assert_int_equal(a->data_len, 64);

	assert_int_equal(rte_comch_buf_reuse_by_addr(a, mem + 128, 256), 0);
	assert_ptr_equal(a->head, mem + 128);
	assert_ptr_equal(a->data, mem + 128);
	assert_int_equal(a->len, 256);
	assert_int_equal(a->data_len, 0);
	assert_int_equal(rte_comch_buf_reuse_by_data(a, mem + 512, 32), 0);
	assert_ptr_equal(a->head, mem + 512);
	assert_ptr_equal(a->data, mem + 512);
	assert_int_equal(a->len, 32);
	assert_int_equal(a->data_len, 32);
	/* No buffer went back to the pool on the way. */
	assert_int_equal(rte_comch_buf_pool_get_num_free(pool, &n), 0);
	assert_int_equal(n, 0);

	/* Another holder would see the piece move under it. */
	assert_int_equal(rte_comch_buf_inc_refcount(a, NULL), 0);
	assert_int_equal(rte_comch_buf_reuse_by_addr(a, mem, 8), -EBUSY);
	assert_ptr_equal(a->head, mem + 512);
	assert_int_equal(rte_comch_buf_dec_refcount(a, NULL), 0);
	again = a;
	assert_int_equal(rte_comch_buf_dec_refcount(a, NULL), 0);
	/* Back in its pool: nobody holds it. */
	assert_int_equal(rte_comch_buf_reuse_by_addr(again, mem, 8), -EINVAL);
	assert_int_equal(rte_comch_mmap_stop(m), 0);
	assert_int_equal(rte_comch_buf_pool_destroy(pool), 0);
	assert_int_equal(rte_comch_mmap_destroy(m), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mmap_config),
		cmocka_unit_test(test_mmap_started_memory_is_fixed),
		cmocka_unit_test(test_mmap_alloc_memrange),
		cmocka_unit_test(test_mmap_destroy_started),
		cmocka_unit_test(test_buf_pool),
		cmocka_unit_test(test_buf_pool_in_mmap),
		cmocka_unit_test(test_buf_reuse),
		cmocka_unit_test(test_buf_data),
		cmocka_unit_test(test_buf_refcount),
		cmocka_unit_test(test_mmap_stop_races_buffer_get),
		cmocka_unit_test(test_buf_no_resurrection),
	};

	return CT_RUN("mmap and buffers", tests);
}
