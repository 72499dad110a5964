/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * DOCA compatibility layer: threads and teardown, as DOCA programs do them.
 * - A progress engine made on one thread and progressed by another (a plain
 *   thread, no lcore) connects a client and carries its messages; a second
 *   thread progressing it at the same time gets nothing done (0), and the
 *   engine carries on.
 * - A producer thread and a consumer thread, each with its own device handle,
 *   memory, engine and producer or consumer created on the connection while
 *   the main thread keeps progressing the connection's engine; once the
 *   messages are through, each frees its buffers and then its tasks (the
 *   consumer's still posted), stops, destroys, and closes its device before
 *   it destroys the mmap that has it. Every call succeeds, no task callback
 *   runs for a freed task, and everything is released.
 * The same mapping as the other suites (dt_env_setup()); DT_ assertions run
 * on the main thread only: the threads record what they saw.
 */

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_comch_consumer.h>
#include <doca_comch_producer.h>
#include <doca_mmap.h>

#include "test_doca_compat.h"

#define DT_NB_TASKS 16
#define DT_NB_MSGS 2000
#define DT_MSG_LEN 256

/* ------------------------------------------------ an engine on another thread */

struct dt_progress_arg {
	struct doca_pe *pe;
	struct doca_ctx *ctx;
	const uint32_t *count;	/* wait for it to reach target instead, if not NULL */
	uint32_t target;
	int ok;
};

static enum doca_ctx_states
dt_ctx_state(struct doca_ctx *ctx)
{
	enum doca_ctx_states st = DOCA_CTX_STATE_IDLE;

	(void)doca_ctx_get_state(ctx, &st);
	return st;
}

/* Progress a until its context is RUNNING, or its counter reaches its target. */
static void *
dt_progress_thread(void *arg)
{
	struct dt_progress_arg *a = arg;
	uint64_t deadline = dt_now_ms() + DT_TIMEOUT_MS;

	while (dt_now_ms() < deadline) {
		(void)doca_pe_progress(a->pe);
		if (a->count == NULL ? dt_ctx_state(a->ctx) == DOCA_CTX_STATE_RUNNING :
		    *(volatile const uint32_t *)a->count >= a->target) {
			a->ok = 1;
			break;
		}
		sched_yield();
	}
	return NULL;
}

/* Inside a receive callback of the main thread's progress: another thread's progress. */
struct dt_concurrent {
	struct doca_pe *pe;
	uint8_t got;
	int calls;
};

static struct dt_concurrent dt_conc;

static void *
dt_concurrent_thread(void *arg)
{
	struct dt_concurrent *c = arg;

	c->got = doca_pe_progress(c->pe);
	return NULL;
}

static void
dt_conc_recv_cb(struct doca_comch_event_msg_recv *event, uint8_t *recv_buffer,
		uint32_t msg_len, struct doca_comch_connection *conn)
{
	pthread_t th;

	dt_recv_cb(event, recv_buffer, msg_len, conn);
	if (dt_conc.calls++ != 0)
		return;
	dt_conc.got = 0xff;
	if (pthread_create(&th, NULL, dt_concurrent_thread, &dt_conc) == 0)
		pthread_join(th, NULL);
}

static void
test_pe_other_thread(void **state)
{
	struct dt_progress_arg a = { .ok = 0 };
	struct dt_pair p;
	pthread_t th;
	union doca_data ud = { .u64 = 0 };

	(void)state;
	memset(&p, 0, sizeof(p));
	dt_pair_open(&p);
	dt_server_create(&p, 8);
	dt_client_create(&p, 8);
	DT_OK(doca_ctx_start(p.srec.ctx));
	DT_ERR(doca_ctx_start(p.crec.ctx), DOCA_ERROR_IN_PROGRESS);
	/* the engine is this thread's; a plain thread connects the client through it */
	a.pe = p.pe;
	a.ctx = p.crec.ctx;
	DT_EQ(pthread_create(&th, NULL, dt_progress_thread, &a), 0);
	DT_EQ(pthread_join(th, NULL), 0);
	DT_EQ(a.ok, 1);
	DT_OK(doca_comch_client_get_connection(p.client, &p.cconn));
	DT_ASSERT(dt_wait_count(p.pe, &p.srec.nb_connect, 1));
	p.sconn = p.srec.conn;
	/* and back here: a message each way */
	dt_send(&p, true, "to the server", 14, ud);
	dt_send(&p, false, "to the client", 14, ud);
	DT_ASSERT(dt_wait_count(p.pe, &p.crec.nb_recv, 1));
	DT_ASSERT(dt_wait_count(p.pe, &p.srec.nb_recv, 1));
	DT_ASSERT(dt_pair_down(&p));
}

static void
test_pe_concurrent(void **state)
{
	struct dt_pair p;
	union doca_data ud = { .u64 = 0 };

	(void)state;
	memset(&p, 0, sizeof(p));
	memset(&dt_conc, 0, sizeof(dt_conc));
	dt_pair_open(&p);
	dt_server_create(&p, 8);
	dt_client_create(&p, 8);
	/* registered while IDLE: the recording callback, and another thread inside it */
	DT_OK(doca_comch_server_event_msg_recv_register(p.server, dt_conc_recv_cb));
	dt_pair_connect(&p);
	dt_conc.pe = p.pe;
	dt_send(&p, true, "one", 4, ud);
	DT_ASSERT(dt_wait_count(p.pe, &p.srec.nb_recv, 1));
	DT_EQ(dt_conc.calls, 1);
	DT_EQ(dt_conc.got, 0);
	/* the engine carries on */
	dt_send(&p, true, "two", 4, ud);
	DT_ASSERT(dt_wait_count(p.pe, &p.srec.nb_recv, 2));
	DT_EQ(p.srec.last_len, 4);
	DT_ASSERT(memcmp(p.srec.last_msg, "two", 4) == 0);
	DT_ASSERT(dt_pair_down(&p));
}

/* ------------------------------------ producer and consumer on their threads */

struct dt_side {
	struct dt_pair *p;
	const char *pci;
	uint32_t *cons_id;		/* published by the main thread (atomic) */
	int *stop;			/* the consumer got everything (atomic) */
	/* what the thread saw */
	int line;			/* the first failed step, 0 if none */
	doca_error_t err;
	uint32_t nb_ok;
	uint32_t nb_err;
	uint32_t nb_bad;
	int done;			/* atomic */
};

#define DT_STEP(s, call) do { \
	doca_error_t dt_s_ = (call); \
	if (dt_s_ != DOCA_SUCCESS) { \
		(s)->line = __LINE__; \
		(s)->err = dt_s_; \
		goto out; \
	} \
} while (0)

/* A thread's device, found by PCI address, and memory: an mmap over mem, an inventory. */
struct dt_mem {
	struct doca_dev *dev;
	struct doca_mmap *mmap;
	struct doca_buf_inventory *inv;
};

static doca_error_t
dt_mem_open(struct dt_mem *m, const char *pci, uint32_t perms, void *mem, size_t len,
	    uint32_t nb_bufs)
{
	struct doca_devinfo **list = NULL;
	uint32_t n = 0, i;
	uint8_t eq = 0;
	doca_error_t r;

	r = doca_devinfo_create_list(&list, &n);
	for (i = 0; r == DOCA_SUCCESS && i < n && m->dev == NULL; i++)
		if (doca_devinfo_is_equal_pci_addr(list[i], pci, &eq) == DOCA_SUCCESS && eq)
			r = doca_dev_open(list[i], &m->dev);
	if (list != NULL)
		(void)doca_devinfo_destroy_list(list);
	if (r == DOCA_SUCCESS && m->dev == NULL)
		r = DOCA_ERROR_NOT_FOUND;
	if (r == DOCA_SUCCESS)
		r = doca_mmap_create(&m->mmap);
	if (r == DOCA_SUCCESS)
		r = doca_mmap_set_permissions(m->mmap, perms);
	if (r == DOCA_SUCCESS)
		r = doca_mmap_add_dev(m->mmap, m->dev);
	if (r == DOCA_SUCCESS)
		r = doca_mmap_set_memrange(m->mmap, mem, len);
	if (r == DOCA_SUCCESS)
		r = doca_mmap_start(m->mmap);
	if (r == DOCA_SUCCESS)
		r = doca_buf_inventory_create(nb_bufs, &m->inv);
	if (r == DOCA_SUCCESS)
		r = doca_buf_inventory_start(m->inv);
	return r;
}

/* As DOCA programs end: the device before the mmap that has it. */
static doca_error_t
dt_mem_close(struct dt_mem *m)
{
	doca_error_t r = doca_dev_close(m->dev);

	if (r == DOCA_SUCCESS)
		r = doca_mmap_destroy(m->mmap);
	if (r == DOCA_SUCCESS)
		r = doca_buf_inventory_destroy(m->inv);
	return r;
}

static void
dt_cons_ok(struct doca_comch_consumer_task_post_recv *task, union doca_data task_ud,
	   union doca_data ctx_ud)
{
	struct dt_side *s = ctx_ud.ptr;
	struct doca_buf *buf = doca_comch_consumer_task_post_recv_get_buf(task);
	void *data = NULL;
	size_t len = 0;

	(void)task_ud;
	s->nb_ok++;
	if (doca_buf_get_data(buf, &data) != DOCA_SUCCESS ||
	    doca_buf_get_data_len(buf, &len) != DOCA_SUCCESS || len != DT_MSG_LEN ||
	    ((uint8_t *)data)[0] != 0x5a || ((uint8_t *)data)[DT_MSG_LEN - 1] != 0xa5)
		s->nb_bad++;
	if (s->nb_ok == DT_NB_MSGS)
		__atomic_store_n(s->stop, 1, __ATOMIC_RELEASE);
	/* posted again at once, as DOCA programs keep their receives posted */
	if (doca_buf_reset_data_len(buf) != DOCA_SUCCESS ||
	    doca_task_submit(doca_comch_consumer_task_post_recv_as_task(task)) != DOCA_SUCCESS)
		s->nb_bad++;
}

static void
dt_cons_err(struct doca_comch_consumer_task_post_recv *task, union doca_data task_ud,
	    union doca_data ctx_ud)
{
	struct dt_side *s = ctx_ud.ptr;

	(void)task;
	(void)task_ud;
	s->nb_err++;
}

static void *
dt_consumer_thread(void *arg)
{
	struct dt_side *s = arg;
	struct doca_comch_consumer_task_post_recv *task[DT_NB_TASKS] = { NULL };
	struct doca_buf *buf[DT_NB_TASKS] = { NULL };
	struct doca_comch_consumer *cons = NULL;
	struct dt_mem m = { .dev = NULL };
	struct doca_pe *pe = NULL;
	union doca_data ud = { .ptr = s };
	uint64_t deadline = dt_now_ms() + DT_TIMEOUT_MS;
	uint32_t i;
	char *mem;

	mem = aligned_alloc(64, DT_NB_TASKS * DT_MSG_LEN);
	if (mem == NULL) {
		s->line = __LINE__;
		goto out;
	}
	DT_STEP(s, dt_mem_open(&m, s->pci, DOCA_ACCESS_FLAG_PCI_READ_WRITE, mem,
			       DT_NB_TASKS * DT_MSG_LEN, DT_NB_TASKS));
	DT_STEP(s, doca_pe_create(&pe));
	/* on the connection, while the main thread progresses its engine */
	DT_STEP(s, doca_comch_consumer_create(s->p->cconn, m.mmap, &cons));
	DT_STEP(s, doca_pe_connect_ctx(pe, doca_comch_consumer_as_ctx(cons)));
	DT_STEP(s, doca_comch_consumer_task_post_recv_set_conf(cons, dt_cons_ok, dt_cons_err,
							       DT_NB_TASKS));
	DT_STEP(s, doca_ctx_set_user_data(doca_comch_consumer_as_ctx(cons), ud));
	DT_STEP(s, doca_ctx_start(doca_comch_consumer_as_ctx(cons)) == DOCA_ERROR_IN_PROGRESS ?
		DOCA_SUCCESS : DOCA_ERROR_UNEXPECTED);
	while (dt_ctx_state(doca_comch_consumer_as_ctx(cons)) != DOCA_CTX_STATE_RUNNING) {
		(void)doca_pe_progress(pe);
		DT_STEP(s, dt_now_ms() < deadline ? DOCA_SUCCESS : DOCA_ERROR_TIME_OUT);
	}
	for (i = 0; i < DT_NB_TASKS; i++) {
		DT_STEP(s, doca_buf_inventory_buf_get_by_addr(m.inv, m.mmap, mem + i * DT_MSG_LEN,
							      DT_MSG_LEN, &buf[i]));
		DT_STEP(s, doca_comch_consumer_task_post_recv_alloc_init(cons, buf[i], &task[i]));
		DT_STEP(s, doca_task_submit(doca_comch_consumer_task_post_recv_as_task(task[i])));
	}
	deadline = dt_now_ms() + 4 * DT_TIMEOUT_MS;
	while (!__atomic_load_n(s->stop, __ATOMIC_ACQUIRE)) {
		(void)doca_pe_progress(pe);
		DT_STEP(s, dt_now_ms() < deadline ? DOCA_SUCCESS : DOCA_ERROR_TIME_OUT);
	}
	/* the teardown of DOCA programs: buffers, then tasks (still posted), then stop */
	for (i = 0; i < DT_NB_TASKS; i++) {
		DT_STEP(s, doca_buf_dec_refcount(buf[i], NULL));
		doca_task_free(doca_comch_consumer_task_post_recv_as_task(task[i]));
	}
	DT_STEP(s, doca_ctx_stop(doca_comch_consumer_as_ctx(cons)) == DOCA_ERROR_IN_PROGRESS ?
		DOCA_SUCCESS : DOCA_ERROR_UNEXPECTED);
	deadline = dt_now_ms() + DT_TIMEOUT_MS;
	while (dt_ctx_state(doca_comch_consumer_as_ctx(cons)) != DOCA_CTX_STATE_IDLE) {
		(void)doca_pe_progress(pe);
		DT_STEP(s, dt_now_ms() < deadline ? DOCA_SUCCESS : DOCA_ERROR_TIME_OUT);
	}
	DT_STEP(s, doca_comch_consumer_destroy(cons));
	DT_STEP(s, doca_pe_destroy(pe));
	DT_STEP(s, dt_mem_close(&m));
out:
	free(mem);
	__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void
dt_prod_ok(struct doca_comch_producer_task_send *task, union doca_data task_ud,
	   union doca_data ctx_ud)
{
	struct dt_side *s = ctx_ud.ptr;

	(void)task;
	(void)task_ud;
	s->nb_ok++;
}

static void
dt_prod_err(struct doca_comch_producer_task_send *task, union doca_data task_ud,
	    union doca_data ctx_ud)
{
	struct dt_side *s = ctx_ud.ptr;

	(void)task;
	(void)task_ud;
	s->nb_err++;
}

static void *
dt_producer_thread(void *arg)
{
	struct dt_side *s = arg;
	struct doca_comch_producer_task_send *task[DT_NB_TASKS] = { NULL };
	struct doca_comch_producer *prod = NULL;
	struct dt_mem m = { .dev = NULL };
	struct doca_buf *buf = NULL;
	struct doca_pe *pe = NULL;
	union doca_data ud = { .ptr = s };
	uint64_t deadline = dt_now_ms() + DT_TIMEOUT_MS;
	uint32_t i, cons_id, sent = 0;
	doca_error_t r;
	uint8_t *mem;

	mem = aligned_alloc(64, DT_MSG_LEN);
	if (mem == NULL) {
		s->line = __LINE__;
		goto out;
	}
	memset(mem, 0x5a, DT_MSG_LEN - 1);
	mem[DT_MSG_LEN - 1] = 0xa5;
	DT_STEP(s, dt_mem_open(&m, s->pci, DOCA_ACCESS_FLAG_PCI_READ_ONLY, mem, DT_MSG_LEN, 1));
	DT_STEP(s, doca_buf_inventory_buf_get_by_data(m.inv, m.mmap, mem, DT_MSG_LEN, &buf));
	DT_STEP(s, doca_pe_create(&pe));
	DT_STEP(s, doca_comch_producer_create(s->p->sconn, &prod));
	DT_STEP(s, doca_pe_connect_ctx(pe, doca_comch_producer_as_ctx(prod)));
	DT_STEP(s, doca_comch_producer_task_send_set_conf(prod, dt_prod_ok, dt_prod_err,
							  DT_NB_TASKS));
	DT_STEP(s, doca_ctx_set_user_data(doca_comch_producer_as_ctx(prod), ud));
	DT_STEP(s, doca_ctx_start(doca_comch_producer_as_ctx(prod)));
	while ((cons_id = __atomic_load_n(s->cons_id, __ATOMIC_ACQUIRE)) == 0)
		DT_STEP(s, dt_now_ms() < deadline ? DOCA_SUCCESS : DOCA_ERROR_TIME_OUT);
	for (i = 0; i < DT_NB_TASKS; i++)
		DT_STEP(s, doca_comch_producer_task_send_alloc_init(prod, buf, NULL, 0, cons_id,
								    &task[i]));
	/* each task sent again once it completed, until all messages went */
	deadline = dt_now_ms() + 4 * DT_TIMEOUT_MS;
	while (s->nb_ok < DT_NB_MSGS) {
		for (i = 0; i < DT_NB_TASKS && sent < DT_NB_MSGS; i++) {
			r = doca_task_submit(doca_comch_producer_task_send_as_task(task[i]));
			if (r == DOCA_SUCCESS)
				sent++;
			else if (r != DOCA_ERROR_AGAIN && r != DOCA_ERROR_BAD_STATE)
				DT_STEP(s, r);
		}
		(void)doca_pe_progress(pe);
		DT_STEP(s, dt_now_ms() < deadline ? DOCA_SUCCESS : DOCA_ERROR_TIME_OUT);
	}
	for (i = 0; i < DT_NB_TASKS; i++)
		doca_task_free(doca_comch_producer_task_send_as_task(task[i]));
	DT_STEP(s, doca_buf_dec_refcount(buf, NULL));
	r = doca_ctx_stop(doca_comch_producer_as_ctx(prod));
	DT_STEP(s, r == DOCA_ERROR_IN_PROGRESS ? DOCA_SUCCESS : r);
	deadline = dt_now_ms() + DT_TIMEOUT_MS;
	while (dt_ctx_state(doca_comch_producer_as_ctx(prod)) != DOCA_CTX_STATE_IDLE) {
		(void)doca_pe_progress(pe);
		DT_STEP(s, dt_now_ms() < deadline ? DOCA_SUCCESS : DOCA_ERROR_TIME_OUT);
	}
	DT_STEP(s, doca_comch_producer_destroy(prod));
	DT_STEP(s, doca_pe_destroy(pe));
	DT_STEP(s, dt_mem_close(&m));
out:
	free(mem);
	__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void
test_producer_consumer_threads(void **state)
{
	uint32_t cons_id = 0;
	int stop = 0;
	struct dt_side cs = { .pci = "04:00.0", .cons_id = &cons_id, .stop = &stop };
	struct dt_side ps = { .pci = "03:00.0", .cons_id = &cons_id, .stop = &stop };
	uint64_t deadline;
	pthread_t ct, pt;
	struct dt_pair p;

	(void)state;
	memset(&p, 0, sizeof(p));
	dt_pair_up(&p);
	cs.p = &p;
	ps.p = &p;
	DT_EQ(pthread_create(&ct, NULL, dt_consumer_thread, &cs), 0);
	DT_EQ(pthread_create(&pt, NULL, dt_producer_thread, &ps), 0);
	/* this thread keeps the connection going, as DOCA programs' main threads do */
	deadline = dt_now_ms() + 8 * DT_TIMEOUT_MS;
	while (!__atomic_load_n(&cs.done, __ATOMIC_ACQUIRE) ||
	       !__atomic_load_n(&ps.done, __ATOMIC_ACQUIRE)) {
		(void)doca_pe_progress(p.pe);
		if (p.srec.nb_new_cons > 0)
			__atomic_store_n(&cons_id, p.srec.new_cons_id, __ATOMIC_RELEASE);
		if (dt_now_ms() > deadline)
			break;
	}
	DT_EQ(pthread_join(ct, NULL), 0);
	DT_EQ(pthread_join(pt, NULL), 0);
	if (cs.line != 0 || ps.line != 0)
		print_error("consumer thread: line %d (%s); producer thread: line %d (%s)\n",
			    cs.line, doca_error_get_name(cs.err), ps.line,
			    doca_error_get_name(ps.err));
	DT_EQ(cs.line, 0);
	DT_EQ(ps.line, 0);
	DT_EQ(cs.nb_ok, DT_NB_MSGS);
	DT_EQ(cs.nb_bad, 0);
	DT_EQ(ps.nb_ok, DT_NB_MSGS);
	/* no callback for the tasks freed in flight: no error either */
	DT_EQ(cs.nb_err, 0);
	DT_EQ(ps.nb_err, 0);
	/* the consumer came and went on the server's side */
	DT_ASSERT(dt_wait_count(p.pe, &p.srec.nb_exp_cons, 1));
	DT_ASSERT(dt_pair_down(&p));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pe_other_thread),
		cmocka_unit_test(test_pe_concurrent),
		cmocka_unit_test(test_producer_consumer_threads),
	};
	int ret;

	/* the mapping before any DOCA call: the layer reads it once */
	dt_env_setup();
	ret = cmocka_run_group_tests_name("doca_compat_threads", tests, NULL, NULL);
	dt_env_teardown();
	return ret;
}
