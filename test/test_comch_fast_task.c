/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Fast path tasks: alloc_init errors of send and post-recv tasks (NULL
 * arguments, immediate data too long or missing, buffer above max_buf_size,
 * buffer of another mmap, context not RUNNING, pool empty), every getter and
 * setter of both task types (and -EBUSY while in flight), the generic task
 * calls on them, unfreed tasks blocking destroy, and tasks freed in flight
 * (returned when they come back, without a callback).
 */

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include <rte_common.h>
#include <rte_errno.h>

#include "comch_test_common.h"

#define GIB ((size_t)1 << 30)

/* An mmap over 1 GiB + 4 KiB of address space never touched (PROT_NONE, no reserve). */
struct huge {
	void *va;
	struct rte_comch_mmap *mmap;
	struct rte_comch_buf_pool *pool;
};

static void
huge_open(struct huge *h)
{
	h->va = mmap(NULL, GIB + 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		     -1, 0);
	assert_true(h->va != MAP_FAILED);
	h->mmap = rte_comch_mmap_create();
	assert_non_null(h->mmap);
	assert_int_equal(rte_comch_mmap_set_memrange(h->mmap, h->va, GIB + 4096), 0);
	assert_int_equal(rte_comch_mmap_start(h->mmap), 0);
	h->pool = rte_comch_buf_pool_create(4);
	assert_non_null(h->pool);
}

static struct rte_comch_buf *
huge_buf(struct huge *h, size_t len)
{
	struct rte_comch_buf *b = NULL;

	assert_int_equal(rte_comch_buf_pool_get_by_data(h->pool, h->mmap, h->va, len, &b), 0);
	return b;
}

static void
huge_close(struct huge *h)
{
	assert_int_equal(rte_comch_buf_pool_destroy(h->pool), 0);
	assert_int_equal(rte_comch_mmap_stop(h->mmap), 0);
	assert_int_equal(rte_comch_mmap_destroy(h->mmap), 0);
	munmap(h->va, GIB + 4096);
}

static void
test_send_alloc_errors(void **state)
{
	struct rte_comch_producer_task_send *t = NULL, *t2 = NULL, *t3 = NULL;
	uint8_t imm[RTE_COMCH_MAX_IMM_DATA_LEN + 1] = { 1, 2, 3 };
	struct rte_comch_buf *buf = NULL, *big, *max;
	struct ct_prod pr;
	struct ct_pair p;
	struct huge h;

	(void)state;
	ct_fast_up(&p, NULL, CT_FAST_ONE);
	ct_prod_new(&pr, p.sconn, p.pe, 2, 4096, false);
	assert_int_equal(rte_comch_buf_pool_get_by_data(pr.pool, pr.mmap, pr.mem, 16, &buf), 0);

	/* IDLE: not yet */
	assert_int_equal(rte_comch_producer_task_send_alloc_init(pr.prod, buf, NULL, 0, 1, &t),
			 -EBUSY);
	assert_int_equal(rte_comch_ctx_start(pr.ctx), 0);

	assert_int_equal(rte_comch_producer_task_send_alloc_init(NULL, buf, NULL, 0, 1, &t),
			 -EINVAL);
	assert_int_equal(rte_comch_producer_task_send_alloc_init(pr.prod, buf, NULL, 0, 1, NULL),
			 -EINVAL);
	assert_int_equal(rte_comch_producer_task_send_alloc_init(pr.prod, buf, NULL, 4, 1, &t),
			 -EINVAL);
	assert_int_equal(rte_comch_producer_task_send_alloc_init(pr.prod, buf, imm,
		RTE_COMCH_MAX_IMM_DATA_LEN + 1, 1, &t), -EMSGSIZE);
	assert_int_equal(rte_comch_producer_task_send_alloc_init(pr.prod, NULL, imm, UINT32_MAX,
		1, &t), -EMSGSIZE);

	/* data above max_buf_size (1 GiB); exactly 1 GiB is accepted */
	huge_open(&h);
	big = huge_buf(&h, GIB + 1);
	max = huge_buf(&h, GIB);
	assert_int_equal(rte_comch_producer_task_send_alloc_init(pr.prod, big, NULL, 0, 1, &t),
			 -EMSGSIZE);
	assert_int_equal(rte_comch_producer_task_send_alloc_init(pr.prod, max, NULL, 0, 1, &t),
			 0);
	assert_int_equal(rte_comch_task_free(rte_comch_producer_task_send_as_task(t)), 0);

	/* a pool of 2: full data, immediate only, then empty */
	assert_int_equal(rte_comch_producer_task_send_alloc_init(pr.prod, buf, imm,
		RTE_COMCH_MAX_IMM_DATA_LEN, 1, &t), 0);
	assert_non_null(t);
	assert_int_equal(rte_comch_producer_task_send_alloc_init(pr.prod, NULL, NULL, 0, 1, &t2),
			 0);
	assert_non_null(t2);
	assert_int_equal(rte_comch_producer_task_send_alloc_init(pr.prod, NULL, imm, 1, 1, &t3),
			 -ENOMEM);

	/* tasks taken and not freed keep the producer from being destroyed */
	ct_prod_stop(&p, &pr);
	assert_int_equal(rte_comch_producer_task_send_alloc_init(pr.prod, NULL, NULL, 0, 1, &t3),
			 -EBUSY);
	assert_int_equal(rte_comch_producer_destroy(pr.prod), -EBUSY);
	assert_int_equal(rte_comch_task_free(rte_comch_producer_task_send_as_task(t)), 0);
	assert_int_equal(rte_comch_producer_destroy(pr.prod), -EBUSY);
	assert_int_equal(rte_comch_task_free(rte_comch_producer_task_send_as_task(t2)), 0);
	assert_int_equal(rte_comch_buf_dec_refcount(buf, NULL), 0);
	assert_int_equal(rte_comch_buf_dec_refcount(big, NULL), 0);
	assert_int_equal(rte_comch_buf_dec_refcount(max, NULL), 0);
	huge_close(&h);
	ct_prod_free(&pr);
	ct_pair_close(&p);
}

static void
test_post_recv_alloc_errors(void **state)
{
	struct rte_comch_consumer_task_post_recv *t = NULL, *t2 = NULL, *t3 = NULL;
	struct rte_comch_buf *buf = NULL, *obuf = NULL;
	struct ct_cons c, other;
	struct ct_pair p;

	(void)state;
	ct_fast_up(&p, NULL, CT_FAST_SPLIT);
	ct_cons_new(&c, p.cconn, p.cpe, 2, 64, 0);
	ct_cons_new(&other, p.cconn, p.cpe, 2, 64, 0);
	assert_int_equal(rte_comch_buf_pool_get_by_addr(c.pool, c.mmap, c.mem, 64, &buf), 0);
	assert_int_equal(rte_comch_buf_pool_get_by_addr(other.pool, other.mmap, other.mem, 64,
		&obuf), 0);

	/* IDLE, then STARTING: not RUNNING */
	assert_int_equal(rte_comch_consumer_task_post_recv_alloc_init(c.cons, buf, &t), -EBUSY);
	assert_int_equal(rte_comch_ctx_start(c.ctx), -EINPROGRESS);
	assert_int_equal(rte_comch_consumer_task_post_recv_alloc_init(c.cons, buf, &t), -EBUSY);
	assert_int_equal(ct_fast_wait_state(&p, c.ctx, RTE_COMCH_CTX_STATE_RUNNING), 0);

	assert_int_equal(rte_comch_consumer_task_post_recv_alloc_init(NULL, buf, &t), -EINVAL);
	assert_int_equal(rte_comch_consumer_task_post_recv_alloc_init(c.cons, buf, NULL),
			 -EINVAL);
	/* a buffer of another mmap */
	assert_int_equal(rte_comch_consumer_task_post_recv_alloc_init(c.cons, obuf, &t),
			 -EINVAL);

	/* a pool of 2 */
	assert_int_equal(rte_comch_consumer_task_post_recv_alloc_init(c.cons, buf, &t), 0);
	assert_non_null(t);
	assert_int_equal(rte_comch_consumer_task_post_recv_alloc_init(c.cons, NULL, &t2), 0);
	assert_non_null(t2);
	assert_int_equal(rte_comch_consumer_task_post_recv_alloc_init(c.cons, NULL, &t3),
			 -ENOMEM);

	ct_cons_stop(&p, &c, &p.srv);
	assert_int_equal(rte_comch_consumer_task_post_recv_alloc_init(c.cons, NULL, &t3), -EBUSY);
	assert_int_equal(rte_comch_consumer_destroy(c.cons), -EBUSY);
	assert_int_equal(rte_comch_task_free(rte_comch_consumer_task_post_recv_as_task(t)), 0);
	assert_int_equal(rte_comch_consumer_destroy(c.cons), -EBUSY);
	assert_int_equal(rte_comch_task_free(rte_comch_consumer_task_post_recv_as_task(t2)), 0);
	assert_int_equal(rte_comch_buf_dec_refcount(buf, NULL), 0);
	assert_int_equal(rte_comch_buf_dec_refcount(obuf, NULL), 0);
	ct_cons_free(&c);
	ct_cons_free(&other);
	ct_pair_close(&p);
}

static void
test_send_task_accessors(void **state)
{
	uint8_t imm[RTE_COMCH_MAX_IMM_DATA_LEN], imm0[RTE_COMCH_MAX_IMM_DATA_LEN];
	union rte_comch_data ud = { .u64 = 0xfeed }, got;
	struct rte_comch_producer_task_send *t = NULL;
	struct rte_comch_buf *buf = NULL, *big;
	struct rte_comch_task *gt;
	const uint8_t *ti;
	struct ct_prod pr;
	struct ct_cons c;
	struct ct_pair p;
	struct huge h;
	uint32_t len = 0, id = 0;

	(void)state;
	ct_fast_up(&p, NULL, CT_FAST_ONE);
	ct_cons_new(&c, p.cconn, p.pe, 4, 256, RTE_COMCH_MAX_IMM_DATA_LEN);
	c.check = true;
	ct_cons_start(&p, &c, &p.srv);
	ct_cons_post_all(&c);
	ct_prod_new(&pr, p.sconn, p.pe, 4, 4096, true);
	huge_open(&h);
	big = huge_buf(&h, GIB + 1);

	ct_fast_fill(pr.mem, 100, pr.id, 0);
	assert_int_equal(rte_comch_buf_pool_get_by_data(pr.pool, pr.mmap, pr.mem, 100, &buf), 0);
	memset(imm, 0x11, sizeof(imm));
	assert_int_equal(rte_comch_producer_task_send_alloc_init(pr.prod, buf, imm, 8, c.id, &t),
			 0);
	rte_errno = 0;
	assert_null(rte_comch_producer_task_send_as_task(NULL));
	assert_int_equal(rte_errno, EINVAL);
	gt = rte_comch_producer_task_send_as_task(t);
	assert_non_null(gt);
	assert_ptr_equal(rte_comch_task_get_ctx(gt), pr.ctx);
	assert_int_equal(rte_comch_task_get_status(gt), 0);
	assert_int_equal(rte_comch_task_set_user_data(gt, ud), 0);
	assert_int_equal(rte_comch_task_get_user_data(gt, &got), 0);
	assert_true(got.u64 == ud.u64);

	/* buffer */
	rte_errno = 0;
	assert_null(rte_comch_producer_task_send_get_buf(NULL));
	assert_int_equal(rte_errno, EINVAL);
	assert_ptr_equal(rte_comch_producer_task_send_get_buf(t), buf);
	assert_int_equal(rte_comch_producer_task_send_set_buf(NULL, buf), -EINVAL);
	assert_int_equal(rte_comch_producer_task_send_set_buf(t, big), -EMSGSIZE);
	assert_ptr_equal(rte_comch_producer_task_send_get_buf(t), buf);
	assert_int_equal(rte_comch_producer_task_send_set_buf(t, NULL), 0);
	assert_null(rte_comch_producer_task_send_get_buf(t));
	assert_int_equal(rte_comch_producer_task_send_set_buf(t, buf), 0);

	/* immediate data: a copy kept in the task */
	rte_errno = 0;
	assert_null(rte_comch_producer_task_send_get_imm_data(NULL, &len));
	assert_int_equal(rte_errno, EINVAL);
	ti = rte_comch_producer_task_send_get_imm_data(t, &len);
	assert_non_null(ti);
	assert_int_equal(len, 8);
	assert_true(ti != imm);
	memset(imm, 0x22, sizeof(imm));
	memset(imm0, 0x11, sizeof(imm0));
	assert_memory_equal(ti, imm0, 8);
	assert_non_null(rte_comch_producer_task_send_get_imm_data(t, NULL));
	assert_int_equal(rte_comch_producer_task_send_set_imm_data(NULL, imm, 4), -EINVAL);
	assert_int_equal(rte_comch_producer_task_send_set_imm_data(t, NULL, 4), -EINVAL);
	assert_int_equal(rte_comch_producer_task_send_set_imm_data(t, imm,
		RTE_COMCH_MAX_IMM_DATA_LEN + 1), -EMSGSIZE);
	assert_int_equal(rte_comch_producer_task_send_set_imm_data(t, NULL, 0), 0);
	rte_comch_producer_task_send_get_imm_data(t, &len);
	assert_int_equal(len, 0);
	ct_fast_imm(imm, RTE_COMCH_MAX_IMM_DATA_LEN, pr.id, 0);
	assert_int_equal(rte_comch_producer_task_send_set_imm_data(t, imm,
		RTE_COMCH_MAX_IMM_DATA_LEN), 0);
	ti = rte_comch_producer_task_send_get_imm_data(t, &len);
	assert_int_equal(len, RTE_COMCH_MAX_IMM_DATA_LEN);
	assert_memory_equal(ti, imm, RTE_COMCH_MAX_IMM_DATA_LEN);

	/* consumer id */
	assert_int_equal(rte_comch_producer_task_send_get_consumer_id(NULL, &id), -EINVAL);
	assert_int_equal(rte_comch_producer_task_send_get_consumer_id(t, NULL), -EINVAL);
	assert_int_equal(rte_comch_producer_task_send_get_consumer_id(t, &id), 0);
	assert_int_equal(id, c.id);
	assert_int_equal(rte_comch_producer_task_send_set_consumer_id(NULL, 5), -EINVAL);
	assert_int_equal(rte_comch_producer_task_send_set_consumer_id(t, c.id + 1000), 0);
	assert_int_equal(rte_comch_producer_task_send_get_consumer_id(t, &id), 0);
	assert_int_equal(id, c.id + 1000);
	assert_int_equal(rte_comch_producer_task_send_set_consumer_id(t, c.id), 0);

	/* in flight until the producer's next progress: nothing may change */
	pr.keep_tasks = true;
	assert_int_equal(rte_comch_task_submit(gt), 0);
	assert_int_equal(rte_comch_task_get_status(gt), -EINPROGRESS);
	assert_int_equal(rte_comch_producer_task_send_set_buf(t, NULL), -EBUSY);
	assert_int_equal(rte_comch_producer_task_send_set_imm_data(t, imm, 4), -EBUSY);
	assert_int_equal(rte_comch_producer_task_send_set_consumer_id(t, 1), -EBUSY);
	assert_int_equal(rte_comch_task_submit(gt), -EALREADY);
	assert_int_equal(rte_comch_producer_task_send_get_consumer_id(t, &id), 0);
	assert_int_equal(id, c.id);
	assert_int_equal(ct_fast_wait_count(&p, &pr.nb_ok, 1), 0);
	assert_ptr_equal(pr.last_task, t);
	assert_true(pr.last_task_ud.u64 == ud.u64);
	assert_int_equal(rte_comch_task_get_status(gt), 0);
	assert_int_equal(ct_fast_wait_count(&p, &c.nb_ok, 1), 0);
	assert_int_equal(c.bad, 0);
	assert_int_equal(c.last_data_len, 100);
	assert_int_equal(c.last_imm_len, RTE_COMCH_MAX_IMM_DATA_LEN);
	assert_int_equal(c.last_prod_id, pr.id);

	/* completed: the task can be changed and sent again; data is read at submit */
	ct_fast_fill(pr.mem, 100, pr.id, 1);
	ct_fast_imm(imm, 3, pr.id, 1);
	assert_int_equal(rte_comch_producer_task_send_set_imm_data(t, imm, 3), 0);
	assert_int_equal(rte_comch_task_submit(gt), 0);
	memset(pr.mem, 0xee, 100);
	assert_int_equal(ct_fast_wait_count(&p, &pr.nb_ok, 2), 0);
	assert_int_equal(ct_fast_wait_count(&p, &c.nb_ok, 2), 0);
	assert_int_equal(c.bad, 0);
	assert_int_equal(c.last_imm_len, 3);
	assert_int_equal(pr.nb_err, 0);
	assert_int_equal(rte_comch_task_free(gt), 0);
	assert_int_equal(rte_comch_buf_dec_refcount(buf, NULL), 0);
	assert_int_equal(rte_comch_buf_dec_refcount(big, NULL), 0);
	huge_close(&h);

	ct_prod_stop(&p, &pr);
	ct_prod_free(&pr);
	ct_cons_stop(&p, &c, &p.srv);
	ct_cons_free(&c);
	ct_pair_close(&p);
}

static void
test_post_recv_task_accessors(void **state)
{
	union rte_comch_data ud = { .u64 = 77 }, got;
	struct rte_comch_consumer_task_post_recv *t = NULL;
	struct rte_comch_buf *buf = NULL, *obuf = NULL;
	struct rte_comch_task *gt;
	struct ct_cons c, other;
	const uint8_t *imm;
	struct ct_prod pr;
	struct ct_pair p;
	uint32_t len = 99, id = 0;

	(void)state;
	ct_fast_up(&p, NULL, CT_FAST_SPLIT);
	ct_cons_new(&c, p.sconn, p.pe, 2, 256, 16);
	ct_cons_new(&other, p.sconn, p.pe, 2, 256, 0);
	c.keep_tasks = true;
	c.check = true;
	ct_cons_start(&p, &c, &p.cli);
	ct_prod_new(&pr, p.cconn, p.cpe, 4, 4096, true);
	assert_int_equal(rte_comch_buf_pool_get_by_addr(c.pool, c.mmap, c.mem, 256, &buf), 0);
	assert_int_equal(rte_comch_buf_pool_get_by_addr(other.pool, other.mmap, other.mem, 256,
		&obuf), 0);
	memset(c.mem, 0xcc, 256);

	assert_int_equal(rte_comch_consumer_task_post_recv_alloc_init(c.cons, buf, &t), 0);
	rte_errno = 0;
	assert_null(rte_comch_consumer_task_post_recv_as_task(NULL));
	assert_int_equal(rte_errno, EINVAL);
	gt = rte_comch_consumer_task_post_recv_as_task(t);
	assert_non_null(gt);
	assert_ptr_equal(rte_comch_task_get_ctx(gt), c.ctx);
	assert_int_equal(rte_comch_task_get_status(gt), 0);
	assert_int_equal(rte_comch_task_set_user_data(gt, ud), 0);
	assert_int_equal(rte_comch_task_get_user_data(gt, &got), 0);
	assert_true(got.u64 == 77);

	rte_errno = 0;
	assert_null(rte_comch_consumer_task_post_recv_get_buf(NULL));
	assert_int_equal(rte_errno, EINVAL);
	assert_ptr_equal(rte_comch_consumer_task_post_recv_get_buf(t), buf);
	assert_int_equal(rte_comch_consumer_task_post_recv_set_buf(NULL, buf), -EINVAL);
	assert_int_equal(rte_comch_consumer_task_post_recv_set_buf(t, obuf), -EINVAL);
	assert_ptr_equal(rte_comch_consumer_task_post_recv_get_buf(t), buf);
	assert_int_equal(rte_comch_consumer_task_post_recv_set_buf(t, NULL), 0);
	assert_null(rte_comch_consumer_task_post_recv_get_buf(t));
	assert_int_equal(rte_comch_consumer_task_post_recv_set_buf(t, buf), 0);

	/* nothing received yet */
	rte_errno = 0;
	assert_null(rte_comch_consumer_task_post_recv_get_imm_data(NULL, &len));
	assert_int_equal(rte_errno, EINVAL);
	rte_comch_consumer_task_post_recv_get_imm_data(t, &len);
	assert_int_equal(len, 0);
	assert_int_equal(rte_comch_consumer_task_post_recv_get_producer_id(NULL, &id), -EINVAL);
	assert_int_equal(rte_comch_consumer_task_post_recv_get_producer_id(t, NULL), -EINVAL);
	assert_int_equal(rte_comch_consumer_task_post_recv_get_producer_id(t, &id), -ENOENT);

	/* posted: in flight until a message lands */
	assert_int_equal(rte_comch_task_submit(gt), 0);
	assert_int_equal(rte_comch_task_get_status(gt), -EINPROGRESS);
	assert_int_equal(rte_comch_consumer_task_post_recv_set_buf(t, NULL), -EBUSY);
	assert_int_equal(rte_comch_task_submit(gt), -EALREADY);
	assert_int_equal(rte_comch_consumer_task_post_recv_get_producer_id(t, &id), -ENOENT);

	assert_int_equal(ct_prod_send_retry(&p, &pr, c.id, 50, 16, NULL), 0);
	assert_int_equal(ct_fast_wait_count(&p, &c.nb_ok, 1), 0);
	assert_int_equal(c.bad, 0);
	assert_ptr_equal(c.last_task, t);
	assert_int_equal(rte_comch_task_get_status(gt), 0);
	assert_int_equal(rte_comch_consumer_task_post_recv_get_producer_id(t, &id), 0);
	assert_int_equal(id, pr.id);
	imm = rte_comch_consumer_task_post_recv_get_imm_data(t, &len);
	assert_non_null(imm);
	assert_int_equal(len, 16);
	assert_ptr_equal(rte_comch_consumer_task_post_recv_get_buf(t), buf);
	assert_ptr_equal(buf->data, buf->head);
	assert_ptr_equal(buf->head, c.mem);
	assert_int_equal(buf->data_len, 50);
	assert_int_equal(ct_fast_check(buf->data, 50, pr.id, 0), 0);
	/* nothing written past the message */
	assert_int_equal(c.mem[50], 0xcc);
	assert_int_equal(c.mem[255], 0xcc);
	assert_int_equal(rte_comch_task_get_user_data(gt, &got), 0);
	assert_true(got.u64 == 77);

	/* posted again, then flushed by stop: no producer id for an error */
	assert_int_equal(rte_comch_buf_reset_data_len(buf), 0);
	assert_int_equal(rte_comch_task_submit(gt), 0);
	ct_cons_stop(&p, &c, &p.cli);
	assert_int_equal(c.nb_err, 1);
	assert_int_equal(c.err_status[0], -ECONNABORTED);
	assert_int_equal(rte_comch_task_get_status(gt), -ECONNABORTED);
	assert_int_equal(rte_comch_consumer_task_post_recv_get_producer_id(t, &id), -ENOENT);
	ct_cons_task_release(t);
	assert_int_equal(rte_comch_buf_dec_refcount(obuf, NULL), 0);

	ct_prod_stop(&p, &pr);
	ct_prod_free(&pr);
	ct_cons_free(&c);
	ct_cons_free(&other);
	ct_pair_close(&p);
}

static enum rte_comch_ctx_state seen[2][16];
static uint32_t nb_seen[2];
static struct rte_comch_ctx *cons_ctx;

/* Log the states of the consumer (0) and of the producer (1). */
static void
state_cb(union rte_comch_data ud, struct rte_comch_ctx *ctx, enum rte_comch_ctx_state prev,
	 enum rte_comch_ctx_state next)
{
	int k = ctx == cons_ctx ? 0 : 1;

	(void)ud;
	if (nb_seen[k] < RTE_DIM(seen[k]) - 1) {
		if (nb_seen[k] == 0)
			seen[k][nb_seen[k]++] = prev;
		seen[k][nb_seen[k]++] = next;
	}
}

/* States reported for a consumer and a producer; in-flight task counts. */
static void
test_states_inflight(void **state)
{
	struct ct_prod pr;
	struct ct_cons c;
	struct ct_pair p;
	uint64_t pe_n = 0;
	uint32_t n = 99;

	(void)state;
	memset(nb_seen, 0, sizeof(nb_seen));
	ct_fast_up(&p, NULL, CT_FAST_OWN);
	ct_cons_new(&c, p.sconn, ct_fast_pe(&p, true), 4, 64, 0);
	ct_prod_new(&pr, p.cconn, ct_fast_pe(&p, false), 4, 4096, false);
	cons_ctx = c.ctx;
	assert_int_equal(rte_comch_ctx_set_state_changed_cb(c.ctx, state_cb), 0);
	assert_int_equal(rte_comch_ctx_set_state_changed_cb(pr.ctx, state_cb), 0);

	ct_cons_start(&p, &c, &p.cli);
	assert_int_equal(rte_comch_ctx_get_num_inflight_tasks(c.ctx, &n), 0);
	assert_int_equal(n, 0);
	ct_cons_post_all(&c);
	assert_int_equal(rte_comch_ctx_get_num_inflight_tasks(c.ctx, &n), 0);
	assert_int_equal(n, 4);
	/* the consumer has an engine of its own */
	assert_int_equal(rte_comch_pe_get_num_inflight_tasks(c.pe, &pe_n), 0);
	assert_true(pe_n == 4);

	assert_int_equal(rte_comch_ctx_start(pr.ctx), 0);
	assert_int_equal(ct_prod_send_retry(&p, &pr, c.id, 10, 0, NULL), 0);
	assert_int_equal(rte_comch_ctx_get_num_inflight_tasks(pr.ctx, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(ct_fast_wait_count(&p, &pr.nb_ok, 1), 0);
	assert_int_equal(rte_comch_ctx_get_num_inflight_tasks(pr.ctx, &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(ct_fast_wait_count(&p, &c.nb_ok, 1), 0);
	assert_int_equal(rte_comch_ctx_get_num_inflight_tasks(c.ctx, &n), 0);
	assert_int_equal(n, 3);

	ct_prod_stop(&p, &pr);
	ct_cons_stop(&p, &c, &p.cli);
	assert_int_equal(rte_comch_ctx_get_num_inflight_tasks(c.ctx, &n), 0);
	assert_int_equal(n, 0);

	/* consumer: IDLE, STARTING, RUNNING, STOPPING, IDLE */
	assert_int_equal(nb_seen[0], 5);
	assert_int_equal(seen[0][0], RTE_COMCH_CTX_STATE_IDLE);
	assert_int_equal(seen[0][1], RTE_COMCH_CTX_STATE_STARTING);
	assert_int_equal(seen[0][2], RTE_COMCH_CTX_STATE_RUNNING);
	assert_int_equal(seen[0][3], RTE_COMCH_CTX_STATE_STOPPING);
	assert_int_equal(seen[0][4], RTE_COMCH_CTX_STATE_IDLE);
	/* producer: IDLE, RUNNING at once, then (STOPPING if it had to wait) IDLE */
	assert_true(nb_seen[1] == 3 || nb_seen[1] == 4);
	assert_int_equal(seen[1][0], RTE_COMCH_CTX_STATE_IDLE);
	assert_int_equal(seen[1][1], RTE_COMCH_CTX_STATE_RUNNING);
	assert_int_equal(seen[1][nb_seen[1] - 1], RTE_COMCH_CTX_STATE_IDLE);

	ct_prod_free(&pr);
	ct_cons_free(&c);
	ct_pair_close(&p);
}

/*
 * Tasks freed in flight, as DOCA programs free them before they stop a
 * context (their buffers first): each goes back to its pool when it comes
 * back, filled, sent or flushed by the stop, without its callback; the
 * contexts reach IDLE and are destroyed, so every task was returned.
 */
static void
test_free_in_flight(void **state)
{
	struct rte_comch_consumer_task_post_recv *rt[4];
	struct rte_comch_producer_task_send *st = NULL;
	struct ct_inflight ia;
	struct rte_comch_task *gt;
	uint64_t deadline;
	struct ct_prod pr;
	struct ct_cons c;
	struct ct_pair p;
	uint32_t i, n;
	int rc;

	(void)state;
	ct_fast_up(&p, NULL, CT_FAST_ONE);
	ct_cons_new(&c, p.cconn, p.pe, 4, 256, 0);
	c.keep_tasks = true;
	ct_cons_start(&p, &c, &p.srv);
	for (i = 0; i < 4; i++)
		assert_int_equal(ct_cons_post(&c, i, &rt[i]), 0);
	for (i = 0; i < 4; i++) {
		gt = rte_comch_consumer_task_post_recv_as_task(rt[i]);
		assert_int_equal(rte_comch_buf_dec_refcount(
			rte_comch_consumer_task_post_recv_get_buf(rt[i]), NULL), 0);
		assert_int_equal(rte_comch_task_free(gt), 0);
		/* given up: not freed twice, not submitted again, still in flight */
		assert_int_equal(rte_comch_task_free(gt), -EINVAL);
		assert_int_equal(rte_comch_task_submit(gt), -EALREADY);
		assert_int_equal(rte_comch_task_get_status(gt), -EINPROGRESS);
	}
	assert_int_equal(rte_comch_ctx_get_num_inflight_tasks(c.ctx, &n), 0);
	assert_int_equal(n, 4);

	/* a producer fills one of them: the freed task takes it, silently */
	ct_prod_new(&pr, p.sconn, p.pe, 4, 4096, true);
	pr.keep_tasks = true;
	deadline = ct_now_ms() + CT_TIMEOUT_MS;
	for (;;) {
		st = NULL;
		rc = ct_prod_send(&pr, c.id, 100, 0, &st);
		if (rc != -EAGAIN || ct_now_ms() > deadline)
			break;
		ct_prod_task_release(st);
		ct_fast_progress(&p);
	}
	assert_int_equal(rc, 0);
	/* and the producer's send, freed in flight too (its buffer first) */
	assert_int_equal(rte_comch_buf_dec_refcount(rte_comch_producer_task_send_get_buf(st),
						    NULL), 0);
	assert_int_equal(rte_comch_task_free(rte_comch_producer_task_send_as_task(st)), 0);
	ia = (struct ct_inflight){ .ctx = pr.ctx, .want = 0 };
	assert_int_equal(ct_fast_until(&p, ct_inflight_is, &ia, CT_TIMEOUT_MS), 0);
	ia = (struct ct_inflight){ .ctx = c.ctx, .want = 3 };
	assert_int_equal(ct_fast_until(&p, ct_inflight_is, &ia, CT_TIMEOUT_MS), 0);
	assert_int_equal(pr.nb_ok + pr.nb_err, 0);
	assert_int_equal(c.nb_ok + c.nb_err, 0);

	/* the stop flushes the other three: no error callback, and it ends */
	ct_cons_stop(&p, &c, &p.srv);
	assert_int_equal(c.nb_ok + c.nb_err, 0);
	assert_int_equal(rte_comch_ctx_get_num_inflight_tasks(c.ctx, &n), 0);
	assert_int_equal(n, 0);
	ct_prod_stop(&p, &pr);
	assert_int_equal(pr.nb_ok + pr.nb_err, 0);
	/* every task is back in its pool: the destroys are not refused */
	ct_prod_free(&pr);
	ct_cons_free(&c);
	ct_pair_close(&p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_send_alloc_errors),
		cmocka_unit_test(test_post_recv_alloc_errors),
		cmocka_unit_test(test_send_task_accessors),
		cmocka_unit_test(test_post_recv_task_accessors),
		cmocka_unit_test(test_states_inflight),
		cmocka_unit_test(test_free_in_flight),
	};

	return CT_RUN("comch_fast_task", tests);
}
