/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * DOCA compatibility layer: the fast path, both sides in one process (the same
 * mapping as test_doca_compat_comch.c: dt_env_setup()). A consumer on the client
 * side, its new-consumer event on the server, a producer there sending a buffer
 * and immediate data into it, both completions, the expired event; what
 * consumers and producers refuse; memory maps, inventories and buffers; a
 * device closed before the mmap that has it.
 */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_comch.h>

#include <doca_buf_pool.h>

#include "test_doca_compat.h"

/* ------------------------------------------------------------- fixture */

/* One consumer (client side) and one producer (server side) on the pair's connection. */
struct dt_fast {
	/* consumer side */
	void *cmem;
	size_t clen;
	struct doca_mmap *cmm;
	struct doca_buf_inventory *cinv;
	struct doca_buf *cbuf;
	struct doca_comch_consumer *cons;
	uint32_t cons_id;
	/* producer side */
	void *pmem;
	size_t plen;
	struct doca_mmap *pmm;
	struct doca_buf_inventory *pinv;
	struct doca_buf *pbuf;
	struct doca_comch_producer *prod;
	/* what the post-recv callbacks saw */
	uint32_t nb_recv_ok;
	uint32_t nb_recv_err;
	doca_error_t recv_status;
	union doca_data recv_tud;
	union doca_data recv_cud;
	struct doca_ctx *recv_ctx;
	struct doca_buf *recv_buf;
	void *recv_head;
	void *recv_data;
	size_t recv_len;
	uint8_t recv_bytes[512];
	const uint8_t *recv_imm_ptr;
	uint32_t recv_imm_len;
	uint8_t recv_imm[32];
	uint32_t recv_prod_id;
	/* what the producer send callbacks saw */
	uint32_t nb_send_ok;
	uint32_t nb_send_err;
	doca_error_t send_status;
	union doca_data send_tud;
	union doca_data send_cud;
	struct doca_ctx *send_ctx;
	uint32_t send_cons_id;
	uint32_t send_imm_len;
	const struct doca_buf *send_buf;
};

struct dt_fix {
	struct dt_pair p;
	struct dt_fast f;
};

static int
dt_setup(void **state)
{
	struct dt_fix *x = calloc(1, sizeof(*x));

	*state = x;
	return x == NULL ? -1 : 0;
}

static bool
dt_ctx_idle(struct doca_pe *pe, struct doca_ctx *ctx)
{
	doca_error_t r;

	if (dt_state(ctx) == DOCA_CTX_STATE_IDLE)
		return true;
	r = doca_ctx_stop(ctx);
	if (r != DOCA_SUCCESS && r != DOCA_ERROR_IN_PROGRESS)
		return false;
	return dt_wait_state(pe, ctx, DOCA_CTX_STATE_IDLE);
}

/* Best effort: also after a failure half-way. */
static void
dt_fast_down(struct dt_fix *x)
{
	struct dt_fast *f = &x->f;

	if (f->prod != NULL && dt_ctx_idle(x->p.pe, doca_comch_producer_as_ctx(f->prod)) &&
	    doca_comch_producer_destroy(f->prod) == DOCA_SUCCESS)
		f->prod = NULL;
	if (f->cons != NULL && dt_ctx_idle(x->p.pe, doca_comch_consumer_as_ctx(f->cons)) &&
	    doca_comch_consumer_destroy(f->cons) == DOCA_SUCCESS)
		f->cons = NULL;
	if (f->cbuf != NULL && doca_buf_dec_refcount(f->cbuf, NULL) == DOCA_SUCCESS)
		f->cbuf = NULL;
	if (f->pbuf != NULL && doca_buf_dec_refcount(f->pbuf, NULL) == DOCA_SUCCESS)
		f->pbuf = NULL;
	if (f->cinv != NULL && doca_buf_inventory_destroy(f->cinv) == DOCA_SUCCESS)
		f->cinv = NULL;
	if (f->pinv != NULL && doca_buf_inventory_destroy(f->pinv) == DOCA_SUCCESS)
		f->pinv = NULL;
	if (f->cmm != NULL && doca_mmap_destroy(f->cmm) == DOCA_SUCCESS)
		f->cmm = NULL;
	if (f->pmm != NULL && doca_mmap_destroy(f->pmm) == DOCA_SUCCESS)
		f->pmm = NULL;
	if (f->cmm == NULL) {
		free(f->cmem);
		f->cmem = NULL;
	}
	if (f->pmm == NULL) {
		free(f->pmem);
		f->pmem = NULL;
	}
}

static int
dt_teardown(void **state)
{
	struct dt_fix *x = *state;
	bool ok;

	dt_fast_down(x);
	ok = dt_pair_down(&x->p);
	free(x);
	/* a test that fails is reported as such; one that passed must leave nothing */
	return ok ? 0 : -1;
}

/* --------------------------------------------------------------- fast path */

static void
dt_recv_done(struct doca_comch_consumer_task_post_recv *task, union doca_data task_user_data,
	     union doca_data ctx_user_data, bool ok)
{
	struct dt_fast *f = ctx_user_data.ptr;
	struct doca_task *t = doca_comch_consumer_task_post_recv_as_task(task);
	struct doca_buf *buf = doca_comch_consumer_task_post_recv_get_buf(task);
	uint32_t imm_len;

	if (ok)
		f->nb_recv_ok++;
	else
		f->nb_recv_err++;
	f->recv_status = doca_task_get_status(t);
	f->recv_tud = task_user_data;
	f->recv_cud = ctx_user_data;
	f->recv_ctx = doca_task_get_ctx(t);
	f->recv_buf = buf;
	f->recv_head = NULL;
	f->recv_data = NULL;
	f->recv_len = 0;
	if (buf != NULL && doca_buf_get_head(buf, &f->recv_head) == DOCA_SUCCESS &&
	    doca_buf_get_data(buf, &f->recv_data) == DOCA_SUCCESS &&
	    doca_buf_get_data_len(buf, &f->recv_len) == DOCA_SUCCESS && f->recv_data != NULL)
		memcpy(f->recv_bytes, f->recv_data,
		       f->recv_len < sizeof(f->recv_bytes) ? f->recv_len : sizeof(f->recv_bytes));
	f->recv_imm_ptr = doca_comch_consumer_task_post_recv_get_imm_data(task);
	imm_len = doca_comch_consumer_task_post_recv_get_imm_data_len(task);
	f->recv_imm_len = imm_len;
	if (f->recv_imm_ptr != NULL && imm_len <= sizeof(f->recv_imm))
		memcpy(f->recv_imm, f->recv_imm_ptr, imm_len);
	f->recv_prod_id = doca_comch_consumer_task_post_recv_get_producer_id(task);
	doca_task_free(t);
}

static void
dt_recv_ok_cb(struct doca_comch_consumer_task_post_recv *task, union doca_data task_user_data,
	      union doca_data ctx_user_data)
{
	dt_recv_done(task, task_user_data, ctx_user_data, true);
}

static void
dt_recv_err_cb(struct doca_comch_consumer_task_post_recv *task, union doca_data task_user_data,
	       union doca_data ctx_user_data)
{
	dt_recv_done(task, task_user_data, ctx_user_data, false);
}

static void
dt_psend_done(struct doca_comch_producer_task_send *task, union doca_data task_user_data,
	      union doca_data ctx_user_data, bool ok)
{
	struct dt_fast *f = ctx_user_data.ptr;
	struct doca_task *t = doca_comch_producer_task_send_as_task(task);

	if (ok)
		f->nb_send_ok++;
	else
		f->nb_send_err++;
	f->send_status = doca_task_get_status(t);
	f->send_tud = task_user_data;
	f->send_cud = ctx_user_data;
	f->send_ctx = doca_task_get_ctx(t);
	f->send_cons_id = doca_comch_producer_task_send_get_consumer_id(task);
	f->send_imm_len = doca_comch_producer_task_send_get_imm_data_len(task);
	f->send_buf = doca_comch_producer_task_send_get_buf(task);
	doca_task_free(t);
}

static void
dt_psend_ok_cb(struct doca_comch_producer_task_send *task, union doca_data task_user_data,
	       union doca_data ctx_user_data)
{
	dt_psend_done(task, task_user_data, ctx_user_data, true);
}

static void
dt_psend_err_cb(struct doca_comch_producer_task_send *task, union doca_data task_user_data,
		union doca_data ctx_user_data)
{
	dt_psend_done(task, task_user_data, ctx_user_data, false);
}

/* An mmap of mem for dev, started; with PCI read/write (a consumer's) if pci. */
static struct doca_mmap *
dt_mmap(void *mem, size_t len, struct doca_dev *dev, bool pci)
{
	struct doca_mmap *mm = NULL;

	DT_OK(doca_mmap_create(&mm));
	DT_OK(doca_mmap_set_memrange(mm, mem, len));
	if (pci)
		DT_OK(doca_mmap_set_permissions(mm, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE |
						DOCA_ACCESS_FLAG_PCI_READ_WRITE));
	DT_OK(doca_mmap_add_dev(mm, dev));
	DT_OK(doca_mmap_start(mm));
	return mm;
}

struct dt_cons_arg {
	struct dt_fix *x;
	uint32_t nb_new;
};

static bool
dt_consumer_announced(void *arg)
{
	struct dt_cons_arg *a = arg;
	enum doca_ctx_states st;

	return a->x->p.srec.nb_new_cons >= a->nb_new &&
	       doca_ctx_get_state(doca_comch_consumer_as_ctx(a->x->f.cons), &st) == DOCA_SUCCESS &&
	       st == DOCA_CTX_STATE_RUNNING;
}

/* The client's consumer, receiving into cmem (malloc'd or page-aligned), RUNNING. */
static void
dt_consumer_up(struct dt_fix *x, bool use_malloc)
{
	struct dt_fast *f = &x->f;
	struct dt_cons_arg a = { .x = x, .nb_new = x->p.srec.nb_new_cons + 1 };
	struct doca_ctx *ctx;
	uint32_t id = 0, imm_len = 0;

	f->clen = 1 << 16;
	f->cmem = use_malloc ? malloc(f->clen) : aligned_alloc(4096, f->clen);
	assert_non_null(f->cmem);
	memset(f->cmem, 0xee, f->clen);
	f->cmm = dt_mmap(f->cmem, f->clen, x->p.host, true);
	DT_OK(doca_buf_inventory_create(4, &f->cinv));
	DT_OK(doca_buf_inventory_start(f->cinv));

	DT_OK(doca_comch_consumer_create(x->p.cconn, f->cmm, &f->cons));
	ctx = doca_comch_consumer_as_ctx(f->cons);
	assert_non_null(ctx);
	DT_OK(doca_ctx_set_user_data(ctx, (union doca_data){ .ptr = f }));
	DT_OK(doca_comch_consumer_set_imm_data_len(f->cons, 16));
	DT_OK(doca_comch_consumer_get_imm_data_len(f->cons, &imm_len));
	assert_int_equal(imm_len, 16);
	DT_OK(doca_comch_consumer_task_post_recv_set_conf(f->cons, dt_recv_ok_cb, dt_recv_err_cb,
							  4));
	DT_OK(doca_pe_connect_ctx(x->p.pe, ctx));
	DT_ERR(doca_ctx_start(ctx), DOCA_ERROR_IN_PROGRESS);
	assert_int_equal(dt_state(ctx), DOCA_CTX_STATE_STARTING);
	assert_true(dt_progress_until(x->p.pe, dt_consumer_announced, &a));
	DT_OK(doca_comch_consumer_get_id(f->cons, &id));
	assert_int_not_equal(id, 0);
	assert_int_not_equal(x->p.srec.new_cons_id, 0);
	assert_int_equal(x->p.srec.new_cons_id, id);
	assert_ptr_equal(x->p.srec.new_cons_conn, x->p.sconn);
	f->cons_id = id;
}

/* The server's producer, sending from pmem (malloc'd), RUNNING. */
static void
dt_producer_up(struct dt_fix *x)
{
	struct dt_fast *f = &x->f;
	struct doca_ctx *ctx;

	f->plen = 4096;
	f->pmem = malloc(f->plen);
	assert_non_null(f->pmem);
	f->pmm = dt_mmap(f->pmem, f->plen, x->p.dpu, false);
	DT_OK(doca_buf_inventory_create(4, &f->pinv));
	DT_OK(doca_buf_inventory_start(f->pinv));
	DT_OK(doca_comch_producer_create(x->p.sconn, &f->prod));
	ctx = doca_comch_producer_as_ctx(f->prod);
	assert_non_null(ctx);
	DT_OK(doca_ctx_set_user_data(ctx, (union doca_data){ .ptr = f }));
	DT_OK(doca_comch_producer_task_send_set_conf(f->prod, dt_psend_ok_cb, dt_psend_err_cb, 4));
	DT_OK(doca_pe_connect_ctx(x->p.pe, ctx));
	DT_OK(doca_ctx_start(ctx));
	assert_int_equal(dt_state(ctx), DOCA_CTX_STATE_RUNNING);
}

/* Post buf (may be NULL: immediate data only) to the consumer. */
static void
dt_post(struct dt_fix *x, struct doca_buf *buf)
{
	struct doca_comch_consumer_task_post_recv *task = NULL;
	struct doca_task *t;

	DT_OK(doca_comch_consumer_task_post_recv_alloc_init(x->f.cons, buf, &task));
	assert_ptr_equal(doca_comch_consumer_task_post_recv_get_buf(task), buf);
	t = doca_comch_consumer_task_post_recv_as_task(task);
	assert_ptr_equal(doca_task_get_ctx(t), doca_comch_consumer_as_ctx(x->f.cons));
	doca_task_set_user_data(t, (union doca_data){ .u64 = 0xc0ffee });
	DT_OK(doca_task_submit(t));
}

struct dt_fast_arg {
	struct dt_fast *f;
	uint32_t recv;
	uint32_t sent;
};

static bool
dt_fast_delivered(void *arg)
{
	struct dt_fast_arg *a = arg;

	return a->f->nb_recv_ok + a->f->nb_recv_err >= a->recv &&
	       a->f->nb_send_ok + a->f->nb_send_err >= a->sent;
}

/* Send data (len bytes; none if NULL) and imm from the producer to the consumer; wait. */
static void
dt_produce(struct dt_fix *x, const void *data, size_t len, const uint8_t *imm, uint32_t imm_len)
{
	struct dt_fast *f = &x->f;
	struct dt_fast_arg a = { .f = f, .recv = f->nb_recv_ok + 1, .sent = f->nb_send_ok + 1 };
	struct doca_comch_producer_task_send *task = NULL;
	struct doca_buf *buf = NULL;
	uint64_t deadline = dt_now_ms() + DT_TIMEOUT_MS;
	struct doca_task *t;
	doca_error_t r;

	if (data != NULL) {
		if (f->pbuf != NULL) {
			DT_OK(doca_buf_dec_refcount(f->pbuf, NULL));
			f->pbuf = NULL;
		}
		assert_true(len <= f->plen);
		memcpy(f->pmem, data, len);
		DT_OK(doca_buf_inventory_buf_get_by_data(f->pinv, f->pmm, f->pmem, len, &f->pbuf));
		buf = f->pbuf;
	}
	DT_OK(doca_comch_producer_task_send_alloc_init(f->prod, buf, imm, imm_len, f->cons_id,
						       &task));
	assert_int_equal(doca_comch_producer_task_send_get_consumer_id(task), f->cons_id);
	assert_int_equal(doca_comch_producer_task_send_get_imm_data_len(task), imm_len);
	assert_ptr_equal(doca_comch_producer_task_send_get_buf(task), buf);
	t = doca_comch_producer_task_send_as_task(task);
	doca_task_set_user_data(t, (union doca_data){ .u64 = 0xfeed });
	/* AGAIN: the post has not reached the producer's side yet */
	while ((r = doca_task_submit(t)) == DOCA_ERROR_AGAIN && dt_now_ms() < deadline)
		doca_pe_progress(x->p.pe);
	DT_OK(r);
	assert_true(dt_progress_until(x->p.pe, dt_fast_delivered, &a));
}

/* Stop the consumer: the server sees it expire. */
static void
dt_consumer_stop(struct dt_fix *x)
{
	struct doca_ctx *ctx = doca_comch_consumer_as_ctx(x->f.cons);
	uint32_t before = x->p.srec.nb_exp_cons;
	doca_error_t r;

	r = doca_ctx_stop(ctx);
	assert_true(r == DOCA_ERROR_IN_PROGRESS || r == DOCA_SUCCESS);
	assert_true(dt_wait_state(x->p.pe, ctx, DOCA_CTX_STATE_IDLE));
	assert_true(dt_wait_count(x->p.pe, &x->p.srec.nb_exp_cons, before + 1));
	assert_int_equal(x->p.srec.exp_cons_id, x->f.cons_id);
	assert_ptr_equal(x->p.srec.exp_cons_conn, x->p.sconn);
}

/*
 * The whole fast path: consumer on the client (page-aligned memory), its
 * new-consumer event on the server, a producer there sending a buffer and
 * immediate data to it, the completion on both sides, the expired event.
 */
static void
test_consumer_events(void **state)
{
	static const uint8_t imm[8] = { 'i', 'm', 'm', '-', 'd', 'a', 't', 'a' };
	struct dt_fix *x = *state;
	struct dt_fast *f = &x->f;
	uint8_t data[100];
	void *head, *d;
	size_t len, n;
	uint32_t pid = 0;
	unsigned int i;

	for (i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i ^ 0x5a);
	dt_pair_up(&x->p);
	dt_consumer_up(x, false);
	assert_int_equal(x->p.srec.nb_new_cons, 1);
	dt_producer_up(x);
	DT_OK(doca_comch_producer_get_id(f->prod, &pid));

	/* an empty buffer at the start of the consumer's memory */
	DT_OK(doca_buf_inventory_buf_get_by_addr(f->cinv, f->cmm, f->cmem, 256, &f->cbuf));
	DT_OK(doca_buf_get_head(f->cbuf, &head));
	DT_OK(doca_buf_get_data(f->cbuf, &d));
	DT_OK(doca_buf_get_data_len(f->cbuf, &len));
	DT_OK(doca_buf_get_len(f->cbuf, &n));
	assert_ptr_equal(head, f->cmem);
	assert_ptr_equal(d, f->cmem);
	assert_int_equal(len, 0);
	assert_int_equal(n, 256);
	dt_post(x, f->cbuf);
	DT_OK(doca_ctx_get_num_inflight_tasks(doca_comch_consumer_as_ctx(f->cons), &n));
	assert_int_equal(n, 1);

	dt_produce(x, data, sizeof(data), imm, sizeof(imm));
	/* the consumer's side */
	assert_int_equal(f->nb_recv_ok, 1);
	assert_int_equal(f->nb_recv_err, 0);
	DT_ERR(f->recv_status, DOCA_SUCCESS);
	assert_int_equal(f->recv_tud.u64, 0xc0ffee);
	assert_ptr_equal(f->recv_cud.ptr, f);
	assert_ptr_equal(f->recv_ctx, doca_comch_consumer_as_ctx(f->cons));
	assert_ptr_equal(f->recv_buf, f->cbuf);
	assert_ptr_equal(f->recv_data, f->cmem);
	assert_int_equal(f->recv_len, sizeof(data));
	assert_memory_equal(f->recv_bytes, data, sizeof(data));
	assert_int_equal(f->recv_imm_len, sizeof(imm));
	assert_non_null(f->recv_imm_ptr);
	assert_memory_equal(f->recv_imm, imm, sizeof(imm));
	assert_int_equal(f->recv_prod_id, pid);
	/* the producer's side */
	assert_int_equal(f->nb_send_ok, 1);
	assert_int_equal(f->nb_send_err, 0);
	DT_ERR(f->send_status, DOCA_SUCCESS);
	assert_int_equal(f->send_tud.u64, 0xfeed);
	assert_ptr_equal(f->send_cud.ptr, f);
	assert_ptr_equal(f->send_ctx, doca_comch_producer_as_ctx(f->prod));
	assert_int_equal(f->send_cons_id, f->cons_id);
	assert_int_equal(f->send_imm_len, sizeof(imm));
	assert_ptr_equal(f->send_buf, f->pbuf);

	/* immediate data only: a post with no buffer, a send with none */
	dt_post(x, NULL);
	dt_produce(x, NULL, 0, imm, 4);
	assert_int_equal(f->nb_recv_ok, 2);
	assert_null(f->recv_buf);
	assert_int_equal(f->recv_imm_len, 4);
	assert_memory_equal(f->recv_imm, imm, 4);
	assert_int_equal(f->recv_prod_id, pid);

	/* what still depends on the consumer and the producer */
	DT_ERR(doca_ctx_stop(x->p.crec.ctx), DOCA_ERROR_IN_USE);
	DT_ERR(doca_comch_server_disconnect(x->p.server, x->p.sconn), DOCA_ERROR_IN_USE);
	DT_ERR(doca_comch_consumer_destroy(f->cons), DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_comch_producer_destroy(f->prod), DOCA_ERROR_BAD_STATE);

	/* stop: the expired-consumer event on the server */
	dt_consumer_stop(x);
	assert_int_equal(x->p.srec.nb_exp_cons, 1);
	assert_int_equal(f->nb_recv_err, 0);	/* nothing was posted any more */
	DT_OK(doca_ctx_stop(doca_comch_producer_as_ctx(f->prod)));
	DT_OK(doca_comch_producer_destroy(f->prod));
	f->prod = NULL;
	DT_OK(doca_comch_consumer_destroy(f->cons));
	f->cons = NULL;
}

/* A consumer receiving into malloc'd memory (DOCA programs use malloc, not hugepages). */
static void
test_consumer_malloc(void **state)
{
	struct dt_fix *x = *state;
	struct dt_fast *f = &x->f;
	static const char msg[] = "from malloc'd memory to malloc'd memory";

	dt_pair_up(&x->p);
	dt_consumer_up(x, true);
	dt_producer_up(x);
	DT_OK(doca_buf_inventory_buf_get_by_addr(f->cinv, f->cmm, (char *)f->cmem + 1000, 512,
						 &f->cbuf));
	dt_post(x, f->cbuf);
	dt_produce(x, msg, sizeof(msg), NULL, 0);
	DT_ERR(f->recv_status, DOCA_SUCCESS);
	assert_ptr_equal(f->recv_data, (char *)f->cmem + 1000);
	assert_int_equal(f->recv_len, sizeof(msg));
	assert_memory_equal(f->recv_bytes, msg, sizeof(msg));
	assert_memory_equal((char *)f->cmem + 1000, msg, sizeof(msg));
	dt_consumer_stop(x);
}

/* DOCA's post-recv appends the message after the buffer's data. */
static void
test_consumer_append(void **state)
{
	struct dt_fix *x = *state;
	struct dt_fast *f = &x->f;
	void *head;

	dt_pair_up(&x->p);
	dt_consumer_up(x, false);
	dt_producer_up(x);
	DT_OK(doca_buf_inventory_buf_get_by_addr(f->cinv, f->cmm, f->cmem, 256, &f->cbuf));
	memcpy(f->cmem, "HDR:", 4);
	DT_OK(doca_buf_set_data(f->cbuf, f->cmem, 4));
	dt_post(x, f->cbuf);
	dt_produce(x, "payload", 7, NULL, 0);
	DT_ERR(f->recv_status, DOCA_SUCCESS);
	DT_OK(doca_buf_get_head(f->cbuf, &head));
	assert_ptr_equal(head, f->cmem);
	assert_ptr_equal(f->recv_data, f->cmem);
	assert_int_equal(f->recv_len, 4 + 7);
	assert_memory_equal(f->recv_bytes, "HDR:payload", 11);
	dt_consumer_stop(x);
}

/*
 * A receive posted when the consumer stops ends in the error callback, with
 * an error status, its task and context user data, and its buffer untouched.
 */
static void
test_consumer_flush(void **state)
{
	struct dt_fix *x = *state;
	struct dt_fast *f = &x->f;

	dt_pair_up(&x->p);
	dt_consumer_up(x, true);
	DT_OK(doca_buf_inventory_buf_get_by_addr(f->cinv, f->cmm, f->cmem, 256, &f->cbuf));
	dt_post(x, f->cbuf);
	dt_consumer_stop(x);
	assert_int_equal(f->nb_recv_ok, 0);
	assert_int_equal(f->nb_recv_err, 1);
	assert_true(f->recv_status != DOCA_SUCCESS);
	assert_int_equal(f->recv_tud.u64, 0xc0ffee);
	assert_ptr_equal(f->recv_cud.ptr, f);
	assert_ptr_equal(f->recv_ctx, doca_comch_consumer_as_ctx(f->cons));
	assert_ptr_equal(f->recv_buf, f->cbuf);
	assert_int_equal(f->recv_len, 0);
}

/* A message without immediate data: the getters say "none" (NULL, 0). */
static void
test_consumer_no_imm(void **state)
{
	struct dt_fix *x = *state;
	struct dt_fast *f = &x->f;
	struct doca_comch_producer_task_send *task = NULL;
	const uint8_t *with, *without;
	uint32_t with_len, without_len;
	uint8_t b = 0x42, first;

	dt_pair_up(&x->p);
	dt_consumer_up(x, false);
	dt_producer_up(x);
	/* a send task whose immediate data is taken away has none (read, free, then check) */
	DT_OK(doca_comch_producer_task_send_alloc_init(f->prod, NULL, &b, 1, f->cons_id, &task));
	with = doca_comch_producer_task_send_get_imm_data(task);
	with_len = doca_comch_producer_task_send_get_imm_data_len(task);
	first = with != NULL ? with[0] : 0;
	doca_comch_producer_task_send_set_imm_data(task, NULL, 0);
	without = doca_comch_producer_task_send_get_imm_data(task);
	without_len = doca_comch_producer_task_send_get_imm_data_len(task);
	doca_task_free(doca_comch_producer_task_send_as_task(task));
	assert_int_equal(with_len, 1);
	assert_int_equal(first, 0x42);
	assert_int_equal(without_len, 0);
	assert_null(without);

	DT_OK(doca_buf_inventory_buf_get_by_addr(f->cinv, f->cmm, f->cmem, 64, &f->cbuf));
	dt_post(x, f->cbuf);
	dt_produce(x, "x", 1, NULL, 0);
	DT_ERR(f->recv_status, DOCA_SUCCESS);
	assert_int_equal(f->recv_len, 1);
	assert_int_equal(f->recv_imm_len, 0);
	assert_null(f->recv_imm_ptr);
	dt_consumer_stop(x);
}

/* What consumers and producers refuse. */
static void
test_fast_refusals(void **state)
{
	struct dt_fix *x = *state;
	struct dt_fast *f = &x->f;
	struct doca_comch_consumer *c = NULL;
	struct doca_comch_consumer_task_post_recv *rt = NULL;
	struct doca_comch_producer_task_send *pt = NULL;
	struct doca_mmap *mm;
	uint8_t imm[33] = { 0 };
	void *mem = aligned_alloc(4096, 8192);

	assert_non_null(mem);
	dt_pair_up(&x->p);
	/* an mmap of the other side's device */
	mm = dt_mmap(mem, 8192, x->p.dpu, true);
	DT_ERR(doca_comch_consumer_create(x->p.cconn, mm, &c), DOCA_ERROR_INVALID_VALUE);
	DT_OK(doca_mmap_destroy(mm));
	/* an mmap the peer may not write into */
	mm = dt_mmap(mem, 8192, x->p.host, false);
	DT_ERR(doca_comch_consumer_create(x->p.cconn, mm, &c), DOCA_ERROR_NOT_PERMITTED);
	DT_OK(doca_mmap_destroy(mm));
	/* an mmap not started */
	DT_OK(doca_mmap_create(&mm));
	DT_OK(doca_mmap_set_memrange(mm, mem, 8192));
	DT_OK(doca_mmap_set_permissions(mm, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE |
					DOCA_ACCESS_FLAG_PCI_READ_WRITE));
	DT_OK(doca_mmap_add_dev(mm, x->p.host));
	DT_ERR(doca_comch_consumer_create(x->p.cconn, mm, &c), DOCA_ERROR_NOT_PERMITTED);
	DT_OK(doca_mmap_destroy(mm));
	free(mem);

	/* IDLE consumer and producer: no tasks; too much immediate data */
	f->clen = 8192;
	f->cmem = aligned_alloc(4096, f->clen);
	assert_non_null(f->cmem);
	f->cmm = dt_mmap(f->cmem, f->clen, x->p.host, true);
	DT_OK(doca_comch_consumer_create(x->p.cconn, f->cmm, &f->cons));
	DT_ERR(doca_comch_consumer_set_imm_data_len(f->cons, 1000), DOCA_ERROR_INVALID_VALUE);
	DT_OK(doca_comch_consumer_task_post_recv_set_conf(f->cons, dt_recv_ok_cb, dt_recv_err_cb,
							  2));
	DT_ERR(doca_comch_consumer_task_post_recv_alloc_init(f->cons, NULL, &rt),
	       DOCA_ERROR_BAD_STATE);
	DT_OK(doca_comch_producer_create(x->p.sconn, &f->prod));
	DT_OK(doca_comch_producer_task_send_set_conf(f->prod, dt_psend_ok_cb, dt_psend_err_cb, 2));
	DT_ERR(doca_comch_producer_task_send_alloc_init(f->prod, NULL, imm, 4, 1, &pt),
	       DOCA_ERROR_BAD_STATE);
	/* a consumer not on an engine does not start */
	DT_ERR(doca_ctx_start(doca_comch_consumer_as_ctx(f->cons)), DOCA_ERROR_NOT_CONNECTED);
	/* running producer: immediate data over the limit */
	DT_OK(doca_ctx_set_user_data(doca_comch_producer_as_ctx(f->prod),
				     (union doca_data){ .ptr = f }));
	DT_OK(doca_pe_connect_ctx(x->p.pe, doca_comch_producer_as_ctx(f->prod)));
	DT_OK(doca_ctx_start(doca_comch_producer_as_ctx(f->prod)));
	DT_ERR(doca_comch_producer_task_send_alloc_init(f->prod, NULL, imm, sizeof(imm), 1, &pt),
	       DOCA_ERROR_INVALID_VALUE);
	DT_OK(doca_ctx_stop(doca_comch_producer_as_ctx(f->prod)));
}


static bool dt_freed;
static void *dt_freed_addr;
static size_t dt_freed_len;

static void
dt_free_cb(void *addr, size_t len, void *opaque)
{
	dt_freed = opaque == &dt_freed;
	dt_freed_addr = addr;
	dt_freed_len = len;
}

static void
test_mmap_buf(void **state)
{
	struct dt_fix *x = *state;
	struct doca_buf_inventory *inv = NULL;
	struct doca_mmap *mm = NULL;
	struct doca_buf *b = NULL, *b2 = NULL, *b3 = NULL, *other;
	uint8_t *mem = malloc(4096);
	uint16_t refs;
	uint32_t u32;
	size_t len;
	void *p;

	assert_non_null(mem);
	x->p.host = dt_dev_open("04:00.0");
	DT_OK(doca_mmap_create(&mm));
	DT_ERR(doca_mmap_get_memrange(mm, &p, &len), DOCA_ERROR_BAD_STATE);
	DT_OK(doca_mmap_set_memrange(mm, mem, 4096));
	DT_ERR(doca_mmap_set_memrange(mm, mem, 4096), DOCA_ERROR_BAD_STATE);
	DT_OK(doca_mmap_get_memrange(mm, &p, &len));
	assert_ptr_equal(p, mem);
	assert_int_equal(len, 4096);
	DT_ERR(doca_mmap_set_permissions(mm, DOCA_ACCESS_FLAG_RDMA_WRITE),
	       DOCA_ERROR_NOT_SUPPORTED);
	DT_ERR(doca_mmap_set_permissions(mm, 1u << 20), DOCA_ERROR_INVALID_VALUE);
	DT_OK(doca_mmap_set_permissions(mm, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE |
					DOCA_ACCESS_FLAG_PCI_READ_ONLY |
					DOCA_ACCESS_FLAG_PCI_RELAXED_ORDERING));
	DT_OK(doca_mmap_set_max_num_devices(mm, 4));
	DT_OK(doca_mmap_add_dev(mm, x->p.host));
	DT_ERR(doca_mmap_add_dev(mm, x->p.host), DOCA_ERROR_FULL);
	DT_OK(doca_mmap_set_free_cb(mm, dt_free_cb, &dt_freed));
	DT_ERR(doca_mmap_stop(mm), DOCA_ERROR_BAD_STATE);
	DT_OK(doca_buf_inventory_create(2, &inv));
	/* neither started */
	DT_ERR(doca_buf_inventory_buf_get_by_addr(inv, mm, mem, 64, &b), DOCA_ERROR_BAD_STATE);
	DT_OK(doca_buf_inventory_start(inv));
	DT_ERR(doca_buf_inventory_start(inv), DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_buf_inventory_buf_get_by_addr(inv, mm, mem, 64, &b), DOCA_ERROR_BAD_STATE);
	DT_OK(doca_mmap_start(mm));
	DT_ERR(doca_mmap_start(mm), DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_mmap_set_permissions(mm, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE),
	       DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_mmap_add_dev(mm, x->p.host), DOCA_ERROR_FULL);

	DT_OK(doca_buf_inventory_get_num_elements(inv, &u32));
	assert_int_equal(u32, 2);
	DT_OK(doca_buf_inventory_get_num_free_elements(inv, &u32));
	assert_int_equal(u32, 2);
	/* outside the mmap */
	DT_ERR(doca_buf_inventory_buf_get_by_addr(inv, mm, mem + 4000, 200, &b),
	       DOCA_ERROR_INVALID_VALUE);
	DT_OK(doca_buf_inventory_buf_get_by_addr(inv, mm, mem + 100, 200, &b));
	DT_OK(doca_buf_inventory_get_num_free_elements(inv, &u32));
	assert_int_equal(u32, 1);	/* one taken */
	DT_OK(doca_buf_get_head(b, &p));
	assert_ptr_equal(p, mem + 100);
	DT_OK(doca_buf_get_len(b, &len));
	assert_int_equal(len, 200);
	DT_OK(doca_buf_get_data(b, &p));
	assert_ptr_equal(p, mem + 100);
	DT_OK(doca_buf_get_data_len(b, &len));
	assert_int_equal(len, 0);
	DT_OK(doca_buf_set_data(b, mem + 110, 50));
	DT_OK(doca_buf_get_data(b, &p));
	assert_ptr_equal(p, mem + 110);
	DT_OK(doca_buf_get_data_len(b, &len));
	assert_int_equal(len, 50);
	DT_ERR(doca_buf_set_data(b, mem + 110, 500), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_buf_set_data(b, mem, 10), DOCA_ERROR_INVALID_VALUE);
	DT_OK(doca_buf_set_data_len(b, 60));
	DT_OK(doca_buf_get_data(b, &p));
	assert_ptr_equal(p, mem + 110);
	DT_ERR(doca_buf_set_data_len(b, 300), DOCA_ERROR_INVALID_VALUE);
	DT_OK(doca_buf_reset_data_len(b));
	DT_OK(doca_buf_get_data_len(b, &len));
	assert_int_equal(len, 0);
	DT_OK(doca_buf_get_data(b, &p));
	assert_ptr_equal(p, mem + 110);
	/* never chained */
	DT_OK(doca_buf_get_next_in_list(b, &other));
	assert_null(other);
	DT_OK(doca_buf_get_last_in_list(b, &other));
	assert_ptr_equal(other, b);
	DT_OK(doca_buf_get_list_len(b, &u32));
	assert_int_equal(u32, 1);
	/* by data: all of it in use */
	DT_OK(doca_buf_inventory_buf_get_by_data(inv, mm, mem + 1000, 30, &b2));
	DT_OK(doca_buf_get_data(b2, &p));
	assert_ptr_equal(p, mem + 1000);
	DT_OK(doca_buf_get_data_len(b2, &len));
	assert_int_equal(len, 30);
	DT_ERR(doca_buf_chain_list(b, b2), DOCA_ERROR_NOT_SUPPORTED);
	/* the inventory is empty */
	DT_ERR(doca_buf_inventory_buf_get_by_addr(inv, mm, mem, 8, &b3), DOCA_ERROR_NO_MEMORY);
	/* references */
	DT_OK(doca_buf_get_refcount(b, &refs));
	assert_int_equal(refs, 1);
	DT_OK(doca_buf_inc_refcount(b, &refs));
	assert_int_equal(refs, 2);
	DT_OK(doca_buf_dec_refcount(b, &refs));
	assert_int_equal(refs, 1);
	/* in use: neither goes */
	DT_ERR(doca_mmap_stop(mm), DOCA_ERROR_IN_USE);
	DT_ERR(doca_mmap_destroy(mm), DOCA_ERROR_IN_USE);
	DT_ERR(doca_buf_inventory_destroy(inv), DOCA_ERROR_IN_USE);
	assert_false(dt_freed);
	DT_OK(doca_buf_dec_refcount(b, &refs));
	assert_int_equal(refs, 0);
	DT_OK(doca_buf_dec_refcount(b2, NULL));
	/* a buffer back in the inventory can be taken again */
	DT_OK(doca_buf_inventory_buf_get_by_addr(inv, mm, mem, 8, &b3));
	DT_OK(doca_buf_dec_refcount(b3, NULL));
	DT_OK(doca_buf_inventory_stop(inv));
	DT_ERR(doca_buf_inventory_stop(inv), DOCA_ERROR_BAD_STATE);
	DT_OK(doca_buf_inventory_destroy(inv));
	/* destroy stops a started mmap and hands the memory to the callback */
	DT_OK(doca_mmap_destroy(mm));
	assert_true(dt_freed);
	assert_ptr_equal(dt_freed_addr, mem);
	assert_int_equal(dt_freed_len, 4096);
	DT_OK(doca_dev_close(x->p.host));
	x->p.host = NULL;
	free(mem);
}

/*
 * A device closed while an mmap still has it, as DOCA programs close theirs
 * before they destroy the mmap: closed for the program at once (its handle is
 * stale), the mmap works on, and the device closes for good with the mmap.
 */
static void
test_dev_close_before_mmap(void **state)
{
	struct rte_comch_obj_stats before, after;
	struct doca_mmap *mm = NULL;
	struct doca_dev *dev;
	uint8_t *mem = malloc(4096);

	(void)state;
	assert_non_null(mem);
	assert_int_equal(rte_comch_obj_stats_get(&before), 0);
	DT_OK(doca_mmap_create(&mm));
	dev = dt_dev_open("04:00.0");
	DT_OK(doca_mmap_set_memrange(mm, mem, 4096));
	DT_OK(doca_mmap_set_permissions(mm, DOCA_ACCESS_FLAG_PCI_READ_WRITE));
	DT_OK(doca_mmap_add_dev(mm, dev));
	DT_OK(doca_mmap_start(mm));
	DT_OK(doca_dev_close(dev));
	DT_ERR(doca_dev_close(dev), DOCA_ERROR_INVALID_VALUE);
	assert_null(doca_dev_as_devinfo(dev));
	DT_OK(doca_mmap_stop(mm));
	DT_OK(doca_mmap_start(mm));
	/* the rte_comch device was open until the mmap went */
	assert_int_equal(rte_comch_obj_stats_get(&after), 0);
	assert_true(after.live > before.live);
	DT_OK(doca_mmap_destroy(mm));
	assert_int_equal(rte_comch_obj_stats_get(&after), 0);
	assert_int_equal(after.live, before.live);
	free(mem);
}

/*
 * doca_task_submit_ex(): a receive posted with FLUSH and a send submitted with
 * OPTIMIZE_REPORTS from an element of a doca_buf_pool both complete, each
 * reported; an unknown flag is refused and leaves the task the caller's.
 */
static void
test_submit_ex(void **state)
{
	struct dt_fix *x = *state;
	struct dt_fast *f = &x->f;
	struct dt_fast_arg a = { .f = f, .recv = 1, .sent = 1 };
	struct doca_comch_consumer_task_post_recv *rtask = NULL;
	struct doca_comch_producer_task_send *stask = NULL;
	uint64_t deadline = dt_now_ms() + DT_TIMEOUT_MS;
	struct doca_buf_pool *pool = NULL;
	struct doca_buf *pbuf = NULL;
	struct doca_task *t;
	doca_error_t r;
	void *data;

	dt_pair_up(&x->p);
	dt_consumer_up(x, true);
	dt_producer_up(x);
	DT_OK(doca_buf_inventory_buf_get_by_addr(f->cinv, f->cmm, f->cmem, 256, &f->cbuf));
	DT_OK(doca_comch_consumer_task_post_recv_alloc_init(f->cons, f->cbuf, &rtask));
	t = doca_comch_consumer_task_post_recv_as_task(rtask);
	DT_ERR(doca_task_submit_ex(t, 1u << 7), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_task_submit_ex(NULL, DOCA_TASK_SUBMIT_FLAG_FLUSH), DOCA_ERROR_INVALID_VALUE);
	DT_OK(doca_task_submit_ex(t, DOCA_TASK_SUBMIT_FLAG_FLUSH));

	DT_OK(doca_buf_pool_create(2, 64, f->pmm, &pool));
	DT_OK(doca_buf_pool_start(pool));
	DT_OK(doca_buf_pool_buf_alloc(pool, &pbuf));
	DT_OK(doca_buf_get_data(pbuf, &data));
	memcpy(data, "from a pool", 12);
	DT_OK(doca_buf_set_data(pbuf, data, 12));
	DT_OK(doca_comch_producer_task_send_alloc_init(f->prod, pbuf, NULL, 0, f->cons_id,
						       &stask));
	t = doca_comch_producer_task_send_as_task(stask);
	DT_ERR(doca_task_submit_ex(t, DOCA_TASK_SUBMIT_FLAG_FLUSH | (1u << 31)),
	       DOCA_ERROR_INVALID_VALUE);
	while ((r = doca_task_submit_ex(t, DOCA_TASK_SUBMIT_FLAG_OPTIMIZE_REPORTS)) ==
	       DOCA_ERROR_AGAIN && dt_now_ms() < deadline)
		doca_pe_progress(x->p.pe);
	DT_OK(r);
	assert_true(dt_progress_until(x->p.pe, dt_fast_delivered, &a));
	assert_int_equal(f->nb_send_ok, 1);
	assert_int_equal(f->nb_recv_ok, 1);
	assert_int_equal(f->recv_len, 12);
	assert_memory_equal(f->recv_bytes, "from a pool", 12);

	/* the element is back in the pool with its last reference */
	DT_ERR(doca_buf_pool_stop(pool), DOCA_ERROR_IN_USE);
	DT_OK(doca_buf_dec_refcount(pbuf, NULL));
	DT_OK(doca_buf_pool_destroy(pool));
}

/* An mmap of len bytes of mem on the host device, started unless asked not to. */
static struct doca_mmap *
dt_host_mmap(struct dt_fix *x, void *mem, size_t len, bool start)
{
	struct doca_mmap *mm = NULL;

	if (x->p.host == NULL)
		x->p.host = dt_dev_open("04:00.0");
	DT_OK(doca_mmap_create(&mm));
	DT_OK(doca_mmap_set_memrange(mm, mem, len));
	DT_OK(doca_mmap_add_dev(mm, x->p.host));
	if (start)
		DT_OK(doca_mmap_start(mm));
	return mm;
}

/*
 * A buffer pool: the mmap's range cut into aligned elements at start, each
 * buffer one whole element with nothing in use, back with its last reference;
 * the pool holds the mmap started.
 */
static void
test_buf_pool(void **state)
{
	struct dt_fix *x = *state;
	uint8_t *mem = aligned_alloc(64, 4096);
	struct doca_buf *b[3] = { NULL }, *more = NULL;
	struct doca_buf_pool *pool = NULL;
	union doca_data ud = { .u64 = 0 };
	struct doca_mmap *mm;
	void *head, *data;
	uint32_t u32;
	size_t len;
	int i;

	assert_non_null(mem);
	mm = dt_host_mmap(x, mem + 1, 4095, false);
	DT_ERR(doca_buf_pool_create(3, 100, NULL, &pool), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_buf_pool_create(3, 100, mm, NULL), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_buf_pool_create(0, 100, mm, &pool), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_buf_pool_create(3, 0, mm, &pool), DOCA_ERROR_INVALID_VALUE);
	DT_OK(doca_buf_pool_create(3, 100, mm, &pool));
	DT_ERR(doca_buf_pool_buf_alloc(pool, &b[0]), DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_buf_pool_start(pool), DOCA_ERROR_BAD_STATE);	/* the mmap is not */
	DT_OK(doca_mmap_start(mm));
	DT_ERR(doca_buf_pool_set_element_alignment(pool, 0), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_buf_pool_set_element_alignment(pool, 48), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_buf_pool_set_element_alignment(NULL, 64), DOCA_ERROR_INVALID_VALUE);
	DT_OK(doca_buf_pool_set_element_alignment(pool, 64));
	DT_OK(doca_buf_pool_set_user_data(pool, (union doca_data){ .u64 = 42 }));
	DT_OK(doca_buf_pool_get_user_data(pool, &ud));
	assert_int_equal(ud.u64, 42);
	DT_OK(doca_buf_pool_get_num_elements(pool, &u32));
	assert_int_equal(u32, 3);
	DT_OK(doca_buf_pool_get_num_free_elements(pool, &u32));
	assert_int_equal(u32, 3);
	DT_OK(doca_buf_pool_start(pool));
	DT_ERR(doca_buf_pool_start(pool), DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_buf_pool_set_element_alignment(pool, 8), DOCA_ERROR_BAD_STATE);
	/* the pool holds the mmap */
	DT_ERR(doca_mmap_stop(mm), DOCA_ERROR_IN_USE);

	DT_ERR(doca_buf_pool_buf_alloc(NULL, &b[0]), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_buf_pool_buf_alloc(pool, NULL), DOCA_ERROR_INVALID_VALUE);
	for (i = 0; i < 3; i++) {
		DT_OK(doca_buf_pool_buf_alloc(pool, &b[i]));
		DT_OK(doca_buf_get_head(b[i], &head));
		DT_OK(doca_buf_get_data(b[i], &data));
		DT_OK(doca_buf_get_len(b[i], &len));
		assert_ptr_equal(data, head);
		assert_int_equal(len, 100);
		DT_OK(doca_buf_get_data_len(b[i], &len));
		assert_int_equal(len, 0);
		/* aligned elements, 128 bytes apart, inside the range */
		assert_int_equal((uintptr_t)head % 64, 0);
		assert_true((uint8_t *)head >= mem + 64 && (uint8_t *)head <= mem + 64 + 256);
	}
	assert_true(b[0] != b[1] && b[1] != b[2] && b[0] != b[2]);
	DT_ERR(doca_buf_pool_buf_alloc(pool, &more), DOCA_ERROR_NO_MEMORY);
	DT_OK(doca_buf_pool_get_num_free_elements(pool, &u32));
	assert_int_equal(u32, 0);
	/* an element's piece is fixed */
	DT_ERR(doca_buf_inventory_buf_reuse_by_addr(b[0], mem + 1, 8), DOCA_ERROR_NOT_PERMITTED);
	DT_ERR(doca_buf_pool_stop(pool), DOCA_ERROR_IN_USE);
	DT_ERR(doca_buf_pool_destroy(pool), DOCA_ERROR_IN_USE);

	/* the element of a released buffer comes out again */
	DT_OK(doca_buf_get_head(b[1], &head));
	DT_OK(doca_buf_dec_refcount(b[1], NULL));
	DT_OK(doca_buf_pool_buf_alloc(pool, &more));
	DT_OK(doca_buf_get_head(more, &data));
	assert_ptr_equal(data, head);
	DT_OK(doca_buf_dec_refcount(more, NULL));
	DT_OK(doca_buf_dec_refcount(b[0], NULL));
	DT_OK(doca_buf_dec_refcount(b[2], NULL));
	DT_OK(doca_buf_pool_stop(pool));
	DT_ERR(doca_buf_pool_stop(pool), DOCA_ERROR_BAD_STATE);
	DT_OK(doca_mmap_stop(mm));
	/* cut again, unaligned: 40 elements of 100 bytes follow each other */
	DT_OK(doca_mmap_start(mm));
	DT_OK(doca_buf_pool_destroy(pool));
	DT_OK(doca_buf_pool_create(40, 100, mm, &pool));
	DT_OK(doca_buf_pool_start(pool));
	DT_OK(doca_buf_pool_destroy(pool));	/* started, nothing out */
	DT_OK(doca_buf_pool_create(41, 100, mm, &pool));
	DT_OK(doca_buf_pool_set_element_alignment(pool, 1));
	DT_ERR(doca_buf_pool_start(pool), DOCA_ERROR_INVALID_VALUE);	/* 4100 > 4095 */
	DT_OK(doca_buf_pool_destroy(pool));
	DT_ERR(doca_buf_pool_destroy(pool), DOCA_ERROR_INVALID_VALUE);
	DT_OK(doca_mmap_destroy(mm));
	free(mem);
}

/* A buffer of an inventory moved in place to other pieces of its mmap. */
static void
test_buf_reuse(void **state)
{
	struct dt_fix *x = *state;
	uint8_t *mem = malloc(4096);
	struct doca_buf_inventory *inv = NULL;
	struct doca_buf *b = NULL;
	struct doca_mmap *mm;
	void *head, *data;
	uint32_t u32;
	size_t len;

	assert_non_null(mem);
	mm = dt_host_mmap(x, mem, 4096, true);
	DT_OK(doca_buf_inventory_create(2, &inv));
	DT_OK(doca_buf_inventory_start(inv));
	DT_OK(doca_buf_inventory_buf_get_by_data(inv, mm, mem, 64, &b));

	DT_ERR(doca_buf_inventory_buf_reuse_by_addr(NULL, mem, 8), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_buf_inventory_buf_reuse_by_data(NULL, mem, 8), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_buf_inventory_buf_reuse_by_addr(b, NULL, 8), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_buf_inventory_buf_reuse_by_data(b, mem + 4000, 200),
	       DOCA_ERROR_INVALID_VALUE);

	DT_OK(doca_buf_inventory_buf_reuse_by_addr(b, mem + 1024, 512));
	DT_OK(doca_buf_get_head(b, &head));
	DT_OK(doca_buf_get_data(b, &data));
	DT_OK(doca_buf_get_len(b, &len));
	assert_ptr_equal(head, mem + 1024);
	assert_ptr_equal(data, mem + 1024);
	assert_int_equal(len, 512);
	DT_OK(doca_buf_get_data_len(b, &len));
	assert_int_equal(len, 0);
	DT_OK(doca_buf_inventory_buf_reuse_by_data(b, mem + 2048, 100));
	DT_OK(doca_buf_get_head(b, &head));
	DT_OK(doca_buf_get_data_len(b, &len));
	assert_ptr_equal(head, mem + 2048);
	assert_int_equal(len, 100);
	/* in place: the inventory gave nothing back and took nothing more */
	DT_OK(doca_buf_inventory_get_num_free_elements(inv, &u32));
	assert_int_equal(u32, 1);

	/* a second holder would see the buffer move under it */
	DT_OK(doca_buf_inc_refcount(b, NULL));
	DT_ERR(doca_buf_inventory_buf_reuse_by_addr(b, mem, 8), DOCA_ERROR_IN_USE);
	DT_OK(doca_buf_get_head(b, &head));
	assert_ptr_equal(head, mem + 2048);
	DT_OK(doca_buf_dec_refcount(b, NULL));
	DT_OK(doca_buf_dec_refcount(b, NULL));
	DT_OK(doca_buf_inventory_destroy(inv));
	DT_OK(doca_mmap_destroy(mm));
	free(mem);
}

#define DT_TS_THREADS 2
#define DT_TS_ROUNDS 20000

struct dt_ts_arg {
	struct doca_buf_inventory *inv;
	struct doca_buf_pool *pool;
	struct doca_mmap *mm;
	uint8_t *mem;
	int errors;
};

/* Take, reference, reuse and release buffers of one mmap, as the other thread does. */
static void *
dt_ts_worker(void *p)
{
	struct dt_ts_arg *a = p;
	struct doca_buf *b, *e;
	int i;

	for (i = 0; i < DT_TS_ROUNDS; i++) {
		if (doca_buf_inventory_buf_get_by_addr(a->inv, a->mm, a->mem, 64, &b) !=
		    DOCA_SUCCESS) {
			a->errors++;
			continue;
		}
		if (doca_buf_pool_buf_alloc(a->pool, &e) != DOCA_SUCCESS)
			a->errors++;
		else if (doca_buf_dec_refcount(e, NULL) != DOCA_SUCCESS)
			a->errors++;
		if (doca_buf_inc_refcount(b, NULL) != DOCA_SUCCESS ||
		    doca_buf_dec_refcount(b, NULL) != DOCA_SUCCESS ||
		    doca_buf_inventory_buf_reuse_by_data(b, a->mem + 64 * (i % 8), 64) !=
		    DOCA_SUCCESS ||
		    doca_buf_dec_refcount(b, NULL) != DOCA_SUCCESS)
			a->errors++;
	}
	return NULL;
}

/*
 * doca_mmap_enable_thread_safety(): before start only; then two threads
 * taking and releasing buffers of the mmap at once, from one inventory and
 * one pool, lose none.
 */
static void
test_mmap_thread_safety(void **state)
{
	struct dt_fix *x = *state;
	uint8_t *mem = malloc(4096);
	struct dt_ts_arg a[DT_TS_THREADS];
	struct doca_buf_inventory *inv = NULL;
	struct doca_buf_pool *pool = NULL;
	pthread_t th[DT_TS_THREADS];
	struct doca_mmap *mm;
	uint32_t u32;
	int i;

	assert_non_null(mem);
	mm = dt_host_mmap(x, mem, 4096, false);
	DT_ERR(doca_mmap_enable_thread_safety(NULL), DOCA_ERROR_INVALID_VALUE);
	DT_OK(doca_mmap_enable_thread_safety(mm));
	DT_OK(doca_mmap_start(mm));
	DT_ERR(doca_mmap_enable_thread_safety(mm), DOCA_ERROR_BAD_STATE);
	/* one buffer per thread at most: the rounds go through every descriptor */
	DT_OK(doca_buf_inventory_create(DT_TS_THREADS, &inv));
	DT_OK(doca_buf_inventory_start(inv));
	DT_OK(doca_buf_pool_create(DT_TS_THREADS, 64, mm, &pool));
	DT_OK(doca_buf_pool_start(pool));
	for (i = 0; i < DT_TS_THREADS; i++) {
		a[i] = (struct dt_ts_arg){ .inv = inv, .pool = pool, .mm = mm,
					   .mem = mem + 1024 * i };
		assert_int_equal(pthread_create(&th[i], NULL, dt_ts_worker, &a[i]), 0);
	}
	for (i = 0; i < DT_TS_THREADS; i++) {
		assert_int_equal(pthread_join(th[i], NULL), 0);
		assert_int_equal(a[i].errors, 0);
	}
	DT_OK(doca_buf_inventory_get_num_free_elements(inv, &u32));
	assert_int_equal(u32, DT_TS_THREADS);
	DT_OK(doca_buf_pool_get_num_free_elements(pool, &u32));
	assert_int_equal(u32, DT_TS_THREADS);
	DT_OK(doca_buf_pool_destroy(pool));
	DT_OK(doca_buf_inventory_destroy(inv));
	DT_OK(doca_mmap_stop(mm));
	DT_OK(doca_mmap_destroy(mm));
	free(mem);
}

#define DT_TEST(t) cmocka_unit_test_setup_teardown(t, dt_setup, dt_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		DT_TEST(test_consumer_events),
		DT_TEST(test_consumer_malloc),
		DT_TEST(test_consumer_append),
		DT_TEST(test_consumer_flush),
		DT_TEST(test_consumer_no_imm),
		DT_TEST(test_submit_ex),
		DT_TEST(test_fast_refusals),
		DT_TEST(test_mmap_buf),
		DT_TEST(test_buf_pool),
		DT_TEST(test_buf_reuse),
		DT_TEST(test_mmap_thread_safety),
		DT_TEST(test_dev_close_before_mmap),
	};
	int ret;

	/* the mapping before any DOCA call: the layer reads it once */
	dt_env_setup();
	ret = cmocka_run_group_tests_name("doca_compat_fast", tests, NULL, NULL);
	dt_env_teardown();
	return ret;
}
