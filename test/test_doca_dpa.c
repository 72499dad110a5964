/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * DOCA compatibility layer: MsgQ and the DPA under DOCA's names (doca_dpa.h,
 * doca_dpa_dev.h, doca_comch_msgq.h, doca_dpa_dev_comch_msgq.h), on the
 * software DPA, in one process (dt_env_setup()'s mapping).
 *
 * The device-side calls run in RPCs (doca_dpa_rpc()) of the test's own
 * functions, so each runs at a known point and its result is checked where it
 * is made; threads are run where their triggering is what is checked. The
 * whole flow, with a thread, is examples/doca_comch_msgq (test
 * doca_msgq_sample).
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_log.h>

#include <doca_comch_consumer.h>
#include <doca_comch_msgq.h>
#include <doca_comch_producer.h>
#include <doca_dpa.h>
#include <doca_dpa_dev.h>
#include <doca_dpa_dev_comch_msgq.h>

#include "test_doca_compat.h"

/* A function of the test as a DPA function (declared as DOCA declares them). */
#define DT_FUNC(f) ((doca_dpa_func_t *)(void (*)(void))(f))

#define LOAD(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)

/* Wait (yielding) until *p >= want; false at DT_TIMEOUT_MS. */
static bool
dt_wait_u64(const uint64_t *p, uint64_t want)
{
	uint64_t deadline = dt_now_ms() + DT_TIMEOUT_MS;

	while (LOAD(p) < want)
		if (dt_now_ms() > deadline)
			return false;
	return true;
}

/* ------------------------------------------------------------- programs */

/* A thread's program: records what it sees, ends its run as told. */
struct t_prog {
	uint64_t runs;
	doca_dpa_dev_uintptr_t tls;	/* get_local_storage() in the last run */
	uint64_t after;			/* past an end of run: never */
	int finish;
};

static void
t_prog(uint64_t arg)
{
	struct t_prog *p = (struct t_prog *)(uintptr_t)arg;

	p->tls = doca_dpa_dev_thread_get_local_storage();
	__atomic_fetch_add(&p->runs, 1, __ATOMIC_RELEASE);
	if (LOAD(&p->finish))
		doca_dpa_dev_thread_finish();
	doca_dpa_dev_thread_reschedule();
	p->after++;
}

struct t_pair {
	uint64_t a;
	uint32_t b;
};

/* An RPC: notifies a thread, returns a sum of its arguments, one a structure. */
static uint64_t
t_rpc_notify(doca_dpa_dev_notification_completion_t n, struct t_pair s, uint32_t x, int *rc,
	     doca_dpa_dev_uintptr_t *tls)
{
	*rc = doca_dpa_dev_thread_notify(n);
	*tls = doca_dpa_dev_thread_get_local_storage();
	/* an RPC is not a thread's run: these log and return */
	doca_dpa_dev_thread_reschedule();
	doca_dpa_dev_thread_finish();
	return s.a + s.b + x;
}

/* An RPC that tries another RPC (refused: they do not nest). */
static uint64_t
t_rpc_nested(struct doca_dpa *dpa)
{
	uint64_t r = 0;

	return (uint64_t)rte_comch_doca_dpa_rpc_begin(dpa, &r);
}

static uint64_t rpc_calls;

static uint64_t
t_rpc_count(void)
{
	return ++rpc_calls;
}

/* ------------------------------------------------------------- the DPA */

static void
test_dpa_objects(void **state)
{
	struct doca_dev *dev = dt_dev_open("03:00.0");
	struct doca_dpa *dpa = NULL, *dpa2 = NULL;
	struct doca_dpa_app *app = (struct doca_dpa_app *)&state, *got = NULL;
	struct doca_dpa_thread *t = NULL, *t2 = NULL, *o = NULL;
	struct doca_dpa_completion *c = NULL, *c2 = NULL;
	struct doca_dpa_notification_completion *n = NULL;
	doca_dpa_dev_notification_completion_t nh = 0;
	doca_dpa_dev_completion_t ch = 0;
	doca_dpa_dev_uintptr_t m = 0;
	struct t_prog p = { 0 };
	struct doca_mmap *mm = NULL;

	(void)state;
	DT_OK(doca_dpa_cap_is_supported(doca_dev_as_devinfo(dev)));
	DT_ERR(doca_dpa_cap_is_supported(NULL), DOCA_ERROR_INVALID_VALUE);
	DT_OK(doca_mmap_create(&mm));
	/* creation: no device, a handle of another kind, nowhere to put it */
	DT_ERR(doca_dpa_create(NULL, &dpa), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_dpa_create((struct doca_dev *)mm, &dpa), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_dpa_create(dev, NULL), DOCA_ERROR_INVALID_VALUE);
	DT_OK(doca_dpa_create(dev, &dpa));
	DT_OK(doca_dpa_create(dev, &dpa2));
	DT_ERR(doca_dev_close(dev), DOCA_ERROR_IN_USE);
	/* the application: any value, before the start */
	DT_OK(doca_dpa_get_app(dpa, &got));
	assert_null(got);
	DT_OK(doca_dpa_set_app(dpa, app));
	DT_OK(doca_dpa_get_app(dpa, &got));
	assert_ptr_equal(got, app);
	DT_ERR(doca_dpa_get_app(dpa, NULL), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_dpa_stop(dpa), DOCA_ERROR_BAD_STATE);
	DT_OK(doca_dpa_start(dpa));
	DT_ERR(doca_dpa_start(dpa), DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_dpa_set_app(dpa, NULL), DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_dpa_set_app((struct doca_dpa *)mm, NULL), DOCA_ERROR_INVALID_VALUE);

	/* a thread: a function first; settings while not started */
	DT_ERR(doca_dpa_thread_create(dpa, NULL), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_dpa_thread_create((struct doca_dpa *)dev, &t), DOCA_ERROR_INVALID_VALUE);
	DT_OK(doca_dpa_thread_create(dpa, &t));
	DT_ERR(doca_dpa_thread_start(t), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_dpa_thread_run(t), DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_dpa_thread_stop(t), DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_dpa_thread_set_func_arg(t, NULL, 0), DOCA_ERROR_INVALID_VALUE);
	DT_OK(doca_dpa_mem_alloc(dpa, 64, &m));
	DT_ERR(doca_dpa_thread_set_local_storage(t, m + 64), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_dpa_thread_set_local_storage(t, 0x1000), DOCA_ERROR_INVALID_VALUE);
	DT_OK(doca_dpa_thread_set_local_storage(t, m));
	DT_OK(doca_dpa_thread_set_func_arg(t, DT_FUNC(t_prog), (uintptr_t)&p));
	DT_OK(doca_dpa_thread_start(t));
	DT_ERR(doca_dpa_thread_start(t), DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_dpa_thread_set_func_arg(t, DT_FUNC(t_prog), 0), DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_dpa_thread_set_local_storage(t, m), DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_dpa_thread_stop(t), DOCA_ERROR_BAD_STATE); /* not running */

	/* completion contexts: size, thread of the same DPA and started, then start */
	DT_ERR(doca_dpa_completion_create(dpa, 0, &c), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_dpa_completion_create(dpa, (1u << 20) + 1, &c), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_dpa_completion_create(dpa, 3, NULL), DOCA_ERROR_INVALID_VALUE);
	DT_OK(doca_dpa_completion_create(dpa, 3, &c));
	DT_ERR(doca_dpa_completion_get_dpa_handle(c, &ch), DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_dpa_completion_stop(c), DOCA_ERROR_BAD_STATE);
	DT_OK(doca_dpa_thread_create(dpa2, &o));
	DT_ERR(doca_dpa_completion_set_thread(c, o), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_dpa_completion_set_thread(c, NULL), DOCA_ERROR_INVALID_VALUE);
	DT_OK(doca_dpa_completion_set_thread(c, t));
	DT_OK(doca_dpa_completion_start(c));
	DT_ERR(doca_dpa_completion_start(c), DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_dpa_completion_set_thread(c, t), DOCA_ERROR_BAD_STATE);
	DT_OK(doca_dpa_completion_get_dpa_handle(c, &ch));
	assert_int_not_equal(ch, 0);
	DT_ERR(doca_dpa_completion_get_dpa_handle(c, NULL), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_dpa_thread_destroy(t), DOCA_ERROR_IN_USE);
	/* a thread not started yet cannot wake a context that starts */
	DT_OK(doca_dpa_thread_create(dpa, &t2));
	DT_OK(doca_dpa_completion_create(dpa, 2, &c2));
	DT_OK(doca_dpa_completion_set_thread(c2, t2));
	DT_ERR(doca_dpa_completion_start(c2), DOCA_ERROR_BAD_STATE);

	/* a notification completion: the thread started, then the handle */
	DT_ERR(doca_dpa_notification_completion_create(dpa, o, &n), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_dpa_notification_completion_create(dpa, t, NULL), DOCA_ERROR_INVALID_VALUE);
	DT_OK(doca_dpa_notification_completion_create(dpa, t2, &n));
	DT_ERR(doca_dpa_notification_completion_start(n), DOCA_ERROR_BAD_STATE);
	DT_OK(doca_dpa_notification_completion_destroy(n));
	DT_OK(doca_dpa_notification_completion_create(dpa, t, &n));
	DT_ERR(doca_dpa_notification_completion_get_dpa_handle(n, &nh), DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_dpa_notification_completion_stop(n), DOCA_ERROR_BAD_STATE);
	DT_OK(doca_dpa_notification_completion_start(n));
	DT_ERR(doca_dpa_notification_completion_start(n), DOCA_ERROR_BAD_STATE);
	DT_OK(doca_dpa_notification_completion_get_dpa_handle(n, &nh));
	assert_int_not_equal(nh, 0);
	DT_OK(doca_dpa_notification_completion_stop(n));

	/* a DPA with objects is not destroyed, and is left started */
	DT_ERR(doca_dpa_destroy(dpa), DOCA_ERROR_IN_USE);
	DT_ERR(doca_dpa_start(dpa), DOCA_ERROR_BAD_STATE);

	DT_OK(doca_dpa_notification_completion_destroy(n));
	DT_ERR(doca_dpa_notification_completion_destroy(n), DOCA_ERROR_INVALID_VALUE);
	DT_OK(doca_dpa_completion_destroy(c));
	DT_OK(doca_dpa_completion_destroy(c2));
	DT_ERR(doca_dpa_completion_destroy(c), DOCA_ERROR_INVALID_VALUE);
	DT_OK(doca_dpa_thread_destroy(t));
	DT_OK(doca_dpa_thread_destroy(t2));
	DT_OK(doca_dpa_thread_destroy(o));
	DT_ERR(doca_dpa_thread_destroy(t), DOCA_ERROR_INVALID_VALUE);
	DT_OK(doca_dpa_mem_free(dpa, m));
	/* destroy stops a started DPA */
	DT_OK(doca_dpa_destroy(dpa));
	DT_ERR(doca_dpa_destroy(dpa), DOCA_ERROR_INVALID_VALUE);
	DT_OK(doca_dpa_destroy(dpa2));
	DT_OK(doca_mmap_destroy(mm));
	DT_OK(doca_dev_close(dev));
	assert_int_equal(p.runs, 0);
}

static void
test_dpa_memory(void **state)
{
	struct doca_dev *dev = dt_dev_open("03:00.0");
	doca_dpa_dev_uintptr_t m = 0, m2 = 0, many[1024];
	struct doca_dpa *dpa = NULL, *dpa2 = NULL;
	uint8_t buf[64], back[64];
	unsigned int i, nb;

	(void)state;
	DT_OK(doca_dpa_create(dev, &dpa));
	DT_OK(doca_dpa_create(dev, &dpa2));
	DT_ERR(doca_dpa_mem_alloc(dpa, 0, &m), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_dpa_mem_alloc(dpa, (1ull << 30) + 1, &m), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_dpa_mem_alloc(dpa, 64, NULL), DOCA_ERROR_INVALID_VALUE);
	DT_OK(doca_dpa_mem_alloc(dpa, 64, &m));
	DT_OK(doca_dpa_mem_alloc(dpa2, 64, &m2));
	/* zeroed; the device address is the process address */
	for (i = 0; i < 64; i++)
		assert_int_equal(((const uint8_t *)(uintptr_t)m)[i], 0);
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)i;
	DT_OK(doca_dpa_h2d_memcpy(dpa, m, buf, 64));
	assert_memory_equal((const void *)(uintptr_t)m, buf, 64);
	DT_OK(doca_dpa_memset(dpa, m + 8, 0xab, 8));
	DT_OK(doca_dpa_d2h_memcpy(dpa, back, m, 64));
	assert_int_equal(back[7], 7);
	assert_int_equal(back[8], 0xab);
	assert_int_equal(back[15], 0xab);
	assert_int_equal(back[16], 16);
	DT_OK(doca_dpa_h2d_memcpy(dpa, m + 60, buf, 4));
	DT_OK(doca_dpa_d2h_memcpy(dpa, back, m + 64, 0));
	/* outside one buffer of this DPA */
	DT_ERR(doca_dpa_h2d_memcpy(dpa, m + 60, buf, 5), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_dpa_d2h_memcpy(dpa, back, m + 1, 64), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_dpa_memset(dpa, m - 1, 0, 1), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_dpa_h2d_memcpy(dpa, m2, buf, 1), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_dpa_h2d_memcpy(dpa, m, NULL, 1), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_dpa_d2h_memcpy(dpa, NULL, m, 1), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_dpa_h2d_memcpy(NULL, m, buf, 1), DOCA_ERROR_INVALID_VALUE);
	/* a free names the start of a buffer of this DPA */
	DT_ERR(doca_dpa_mem_free(dpa, m + 1), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_dpa_mem_free(dpa, m2), DOCA_ERROR_INVALID_VALUE);
	DT_OK(doca_dpa_mem_free(dpa, m));
	DT_ERR(doca_dpa_mem_free(dpa, m), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_dpa_h2d_memcpy(dpa, m, buf, 1), DOCA_ERROR_INVALID_VALUE);
	/* as many buffers as the DPA holds, then FULL */
	for (nb = 0; nb < 1024; nb++)
		if (doca_dpa_mem_alloc(dpa, 8, &many[nb]) != DOCA_SUCCESS)
			break;
	assert_int_equal(nb, 1024);
	DT_ERR(doca_dpa_mem_alloc(dpa, 8, &m), DOCA_ERROR_FULL);
	for (i = 0; i < nb; i++)
		DT_OK(doca_dpa_mem_free(dpa, many[i]));
	DT_ERR(doca_dpa_destroy(dpa2), DOCA_ERROR_IN_USE); /* its buffer */
	DT_OK(doca_dpa_mem_free(dpa2, m2));
	DT_OK(doca_dpa_destroy(dpa2));
	DT_OK(doca_dpa_destroy(dpa));
	DT_OK(doca_dev_close(dev));
}

static void
test_dpa_thread_rpc(void **state)
{
	struct doca_dev *dev = dt_dev_open("03:00.0");
	struct doca_dpa_notification_completion *n = NULL;
	doca_dpa_dev_notification_completion_t nh = 0;
	doca_dpa_dev_uintptr_t tls = 0, seen = 1;
	struct doca_dpa_thread *t = NULL;
	struct t_pair s = { .a = 1000, .b = 20 };
	struct doca_dpa *dpa = NULL;
	struct t_prog p = { 0 };
	uint64_t ret = 0, runs;
	unsigned int i;
	int rc = 1;

	(void)state;
	DT_OK(doca_dpa_create(dev, &dpa));
	DT_OK(doca_dpa_start(dpa));
	DT_OK(doca_dpa_mem_alloc(dpa, 32, &tls));
	DT_OK(doca_dpa_thread_create(dpa, &t));
	DT_OK(doca_dpa_thread_set_func_arg(t, DT_FUNC(t_prog), (uintptr_t)&p));
	DT_OK(doca_dpa_thread_set_local_storage(t, tls + 16));
	DT_OK(doca_dpa_thread_start(t));
	DT_OK(doca_dpa_notification_completion_create(dpa, t, &n));
	DT_OK(doca_dpa_notification_completion_start(n));
	DT_OK(doca_dpa_notification_completion_get_dpa_handle(n, &nh));
	/* not running yet: the notification is dropped */
	DT_OK(doca_dpa_rpc(dpa, DT_FUNC(t_rpc_notify), &ret, nh, s, 3u, &rc, &seen));
	assert_int_equal(rc, -EPERM);
	DT_OK(doca_dpa_thread_run(t));
	DT_ERR(doca_dpa_thread_run(t), DOCA_ERROR_BAD_STATE);
	/* an RPC with its arguments, a structure among them, wakes the thread */
	DT_OK(doca_dpa_rpc(dpa, DT_FUNC(t_rpc_notify), &ret, nh, s, 3u, &rc, &seen));
	assert_int_equal(ret, 1023);
	assert_int_equal(rc, 0);
	assert_int_equal(seen, 0); /* an RPC has no local storage */
	assert_true(dt_wait_u64(&p.runs, 1));
	assert_int_equal(LOAD(&p.tls), tls + 16);
	/* the run ended at reschedule: nothing after it ran */
	assert_int_equal(p.after, 0);
	/* finished: not woken until run again */
	__atomic_store_n(&p.finish, 1, __ATOMIC_RELEASE);
	DT_OK(doca_dpa_rpc(dpa, DT_FUNC(t_rpc_notify), &ret, nh, s, 0u, &rc, &seen));
	assert_true(dt_wait_u64(&p.runs, 2));
	/*
	 * its run counts before it finishes: notify until it has (a notify before
	 * wakes it again)
	 */
	for (i = 0; i < DT_TIMEOUT_MS; i++) {
		DT_OK(doca_dpa_rpc(dpa, DT_FUNC(t_rpc_notify), &ret, nh, s, 0u, &rc, &seen));
		if (rc == -EPERM)
			break;
		usleep(1000);
	}
	assert_int_equal(rc, -EPERM);
	__atomic_store_n(&p.finish, 0, __ATOMIC_RELEASE);
	DT_OK(doca_dpa_thread_run(t));
	runs = LOAD(&p.runs);
	DT_OK(doca_dpa_rpc(dpa, DT_FUNC(t_rpc_notify), &ret, nh, s, 0u, &rc, &seen));
	assert_int_equal(rc, 0);
	assert_true(dt_wait_u64(&p.runs, runs + 1));
	assert_int_equal(p.after, 0);
	/* RPCs do not nest; no RPC without somewhere to return, nor on a foreign DPA */
	DT_OK(doca_dpa_rpc(dpa, DT_FUNC(t_rpc_nested), &ret, dpa));
	assert_int_equal(ret, DOCA_ERROR_NOT_PERMITTED);
	rpc_calls = 0;
	DT_ERR(doca_dpa_rpc(dpa, DT_FUNC(t_rpc_count), NULL), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_dpa_rpc((struct doca_dpa *)dev, DT_FUNC(t_rpc_count), &ret),
	       DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(rpc_calls, 0);
	DT_OK(doca_dpa_rpc(dpa, DT_FUNC(t_rpc_count), &ret));
	assert_int_equal(ret, 1);
	DT_ERR(rte_comch_doca_dpa_rpc_end(dpa), DOCA_ERROR_INVALID_VALUE); /* none in progress */
	/* stop; stopped twice is refused; destroy needs the notification gone */
	DT_OK(doca_dpa_thread_stop(t));
	DT_ERR(doca_dpa_thread_stop(t), DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_dpa_thread_destroy(t), DOCA_ERROR_IN_USE);
	DT_OK(doca_dpa_notification_completion_destroy(n));
	DT_OK(doca_dpa_thread_destroy(t));
	DT_OK(doca_dpa_mem_free(dpa, tls));
	DT_OK(doca_dpa_stop(dpa));
	DT_OK(doca_dpa_destroy(dpa));
	DT_OK(doca_dev_close(dev));
}

/* ------------------------------------------------------------- MsgQ */

/* A program that never runs: consumer completion contexts need a thread. */
static void
t_idle(uint64_t arg)
{
	(void)arg;
}

/* What a MsgQ case sets up: a DPA, its thread and completion contexts, an engine. */
struct t_msgq {
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct doca_dpa *dpa;
	struct doca_dpa_thread *t;
	struct doca_comch_consumer_completion *cc;
	struct doca_dpa_completion *comp;
	doca_dpa_dev_comch_consumer_completion_t cch;
	doca_dpa_dev_completion_t comph;
};

static void
t_msgq_up(struct t_msgq *m)
{
	m->dev = dt_dev_open("03:00.0");
	DT_OK(doca_pe_create(&m->pe));
	DT_OK(doca_dpa_create(m->dev, &m->dpa));
	DT_OK(doca_dpa_start(m->dpa));
	DT_OK(doca_dpa_thread_create(m->dpa, &m->t));
	DT_OK(doca_dpa_thread_set_func_arg(m->t, DT_FUNC(t_idle), 0));
	DT_OK(doca_dpa_thread_start(m->t));
	DT_OK(doca_comch_consumer_completion_create(&m->cc));
	DT_OK(doca_comch_consumer_completion_set_dpa_thread(m->cc, m->t));
	DT_OK(doca_comch_consumer_completion_set_max_num_recv(m->cc, 5)); /* 8 */
	DT_OK(doca_comch_consumer_completion_set_imm_data_len(m->cc, 16));
	DT_OK(doca_comch_consumer_completion_set_max_num_consumers(m->cc, 1));
	DT_OK(doca_comch_consumer_completion_start(m->cc));
	DT_OK(doca_comch_consumer_completion_get_dpa_handle(m->cc, &m->cch));
	DT_OK(doca_dpa_completion_create(m->dpa, 4, &m->comp));
	DT_OK(doca_dpa_completion_start(m->comp));
	DT_OK(doca_dpa_completion_get_dpa_handle(m->comp, &m->comph));
}

static void
t_msgq_down(struct t_msgq *m)
{
	DT_OK(doca_comch_consumer_completion_destroy(m->cc));
	DT_OK(doca_dpa_completion_destroy(m->comp));
	DT_OK(doca_dpa_thread_destroy(m->t));
	DT_OK(doca_dpa_destroy(m->dpa));
	DT_OK(doca_pe_destroy(m->pe));
	DT_OK(doca_dev_close(m->dev));
}

/* Stop a context and progress the engine until it is idle. */
static void
t_stop(struct doca_pe *pe, struct doca_ctx *ctx)
{
	doca_error_t ret = doca_ctx_stop(ctx);

	DT_ASSERT(ret == DOCA_SUCCESS || ret == DOCA_ERROR_IN_PROGRESS);
	DT_ASSERT(dt_wait_state(pe, ctx, DOCA_CTX_STATE_IDLE));
}

static void
test_msgq_errors(void **state)
{
	struct doca_comch_consumer *cons = NULL, *cons2 = NULL;
	struct doca_comch_consumer_completion *cc = NULL;
	struct doca_comch_producer *prod = NULL;
	struct doca_comch_msgq *q = NULL;
	struct doca_dpa_completion *comp = NULL;
	doca_dpa_dev_comch_consumer_completion_t h;
	doca_dpa_dev_comch_consumer_t ch;
	doca_dpa_dev_comch_producer_t ph;
	struct t_msgq m = { 0 };
	uint32_t v = 0;

	(void)state;
	t_msgq_up(&m);
	DT_OK(doca_comch_msgq_cap_is_supported(doca_dev_as_devinfo(m.dev)));
	DT_ERR(doca_comch_msgq_cap_is_supported(NULL), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_comch_msgq_create(NULL, &q), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_comch_msgq_create(m.dev, NULL), DOCA_ERROR_INVALID_VALUE);
	DT_OK(doca_comch_msgq_create(m.dev, &q));
	/* no direction, not started */
	DT_ERR(doca_comch_msgq_start(q), DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_comch_msgq_stop(q), DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_comch_msgq_consumer_create(q, &cons), DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_comch_msgq_producer_create(q, &prod), DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_comch_msgq_set_dpa_consumer(q, (struct doca_dpa *)m.dev),
	       DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_comch_msgq_set_max_num_consumers(q, 0), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_comch_msgq_set_max_num_producers(q, 257), DOCA_ERROR_INVALID_VALUE);
	DT_OK(doca_comch_msgq_set_max_num_consumers(q, 1));
	DT_OK(doca_comch_msgq_set_max_num_producers(q, 1));
	DT_OK(doca_comch_msgq_set_dpa_producer(q, m.dpa));
	DT_OK(doca_comch_msgq_set_dpa_consumer(q, m.dpa)); /* replaces it */
	DT_OK(doca_comch_msgq_start(q));
	DT_ERR(doca_comch_msgq_start(q), DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_comch_msgq_set_dpa_producer(q, m.dpa), DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_comch_msgq_set_max_num_consumers(q, 2), DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_comch_msgq_destroy(q), DOCA_ERROR_BAD_STATE);
	DT_OK(doca_comch_msgq_consumer_create(q, &cons));
	DT_ERR(doca_comch_msgq_consumer_create(q, &cons2), DOCA_ERROR_FULL);
	DT_ERR(doca_comch_msgq_consumer_create(q, NULL), DOCA_ERROR_INVALID_VALUE);
	DT_OK(doca_comch_msgq_producer_create(q, &prod));
	DT_ERR(doca_comch_msgq_stop(q), DOCA_ERROR_IN_USE);

	/* a CPU producer is not on the DPA side; a DPA consumer's calls refuse it */
	DT_ERR(doca_ctx_set_datapath_on_dpa(doca_comch_producer_as_ctx(prod), m.dpa),
	       DOCA_ERROR_NOT_SUPPORTED);
	DT_ERR(doca_ctx_set_datapath_on_dpa(NULL, m.dpa), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_ctx_set_datapath_on_dpa(doca_comch_consumer_as_ctx(cons), NULL),
	       DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_comch_producer_set_dev_max_num_send(prod, 4), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_comch_producer_get_dpa_handle(prod, &ph), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_comch_producer_dpa_completion_attach(prod, m.comp), DOCA_ERROR_INVALID_VALUE);
	/* the DPA consumer */
	DT_OK(doca_ctx_set_datapath_on_dpa(doca_comch_consumer_as_ctx(cons), m.dpa));
	DT_ERR(doca_ctx_set_datapath_on_dpa(doca_comch_consumer_as_ctx(cons), m.dpa),
	       DOCA_ERROR_ALREADY_EXIST);
	DT_ERR(doca_comch_consumer_get_dpa_handle(cons, NULL), DOCA_ERROR_INVALID_VALUE);
	DT_OK(doca_comch_consumer_get_dpa_handle(cons, &ch));
	DT_ERR(doca_comch_consumer_set_dev_max_num_recv(cons, 0), DOCA_ERROR_INVALID_VALUE);
	/* a consumer completion context: settings while stopped, in range */
	DT_ERR(doca_comch_consumer_completion_create(NULL), DOCA_ERROR_INVALID_VALUE);
	DT_OK(doca_comch_consumer_completion_create(&cc));
	DT_OK(doca_comch_consumer_completion_get_max_num_recv(cc, &v));
	assert_int_equal(v, 16);
	DT_OK(doca_comch_consumer_completion_get_imm_data_len(cc, &v));
	assert_int_equal(v, 32);
	DT_OK(doca_comch_consumer_completion_get_max_num_consumers(cc, &v));
	assert_int_equal(v, 0);
	DT_ERR(doca_comch_consumer_completion_get_max_num_recv(cc, NULL), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_comch_consumer_completion_set_max_num_recv(cc, 0), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_comch_consumer_completion_set_max_num_recv(cc, (1u << 20) + 1),
	       DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_comch_consumer_completion_set_imm_data_len(cc, 33), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_comch_consumer_completion_set_imm_data_len(cc, 0), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_comch_consumer_completion_set_max_num_consumers(cc, 0),
	       DOCA_ERROR_INVALID_VALUE);
	DT_OK(doca_comch_consumer_completion_set_max_num_consumers(cc, 3));
	DT_OK(doca_comch_consumer_completion_get_max_num_consumers(cc, &v));
	assert_int_equal(v, 4);
	DT_OK(doca_comch_consumer_completion_set_max_num_recv(cc, 100));
	DT_OK(doca_comch_consumer_completion_get_max_num_recv(cc, &v));
	assert_int_equal(v, 128);
	DT_ERR(doca_comch_consumer_completion_get_dpa_handle(cc, &h), DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_comch_consumer_completion_stop(cc), DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_comch_consumer_completion_start(cc), DOCA_ERROR_BAD_STATE); /* no thread */
	DT_ERR(doca_comch_consumer_set_completion(cons, cc, 1), DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_comch_consumer_completion_set_dpa_thread(cc, (struct doca_dpa_thread *)q),
	       DOCA_ERROR_INVALID_VALUE);
	DT_OK(doca_comch_consumer_completion_set_dpa_thread(cc, m.t));
	DT_OK(doca_comch_consumer_completion_start(cc));
	DT_ERR(doca_comch_consumer_completion_start(cc), DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_comch_consumer_completion_set_imm_data_len(cc, 8), DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_comch_consumer_completion_set_dpa_thread(cc, m.t), DOCA_ERROR_BAD_STATE);
	DT_OK(doca_comch_consumer_set_completion(cons, cc, 1));
	/* attached: neither the context nor its thread go */
	DT_ERR(doca_comch_consumer_completion_stop(cc), DOCA_ERROR_IN_USE);
	DT_ERR(doca_comch_consumer_completion_destroy(cc), DOCA_ERROR_IN_USE);
	DT_ERR(doca_dpa_thread_destroy(m.t), DOCA_ERROR_IN_USE);
	/* a DPA completion context, not started, for the producers below */
	DT_OK(doca_dpa_completion_create(m.dpa, 2, &comp));

	DT_OK(doca_comch_producer_destroy(prod));
	DT_OK(doca_comch_consumer_destroy(cons));
	DT_OK(doca_comch_consumer_completion_stop(cc));
	DT_OK(doca_comch_consumer_completion_destroy(cc));
	DT_OK(doca_comch_msgq_stop(q));
	DT_OK(doca_comch_msgq_destroy(q));
	DT_ERR(doca_comch_msgq_destroy(q), DOCA_ERROR_INVALID_VALUE);

	/* DPA producers: a started completion context, and their own calls */
	DT_OK(doca_comch_msgq_create(m.dev, &q));
	DT_OK(doca_comch_msgq_set_dpa_producer(q, m.dpa));
	DT_OK(doca_comch_msgq_start(q));
	DT_OK(doca_comch_msgq_producer_create(q, &prod));
	DT_OK(doca_comch_msgq_consumer_create(q, &cons));
	DT_ERR(doca_ctx_set_datapath_on_dpa(doca_comch_consumer_as_ctx(cons), m.dpa),
	       DOCA_ERROR_NOT_SUPPORTED);
	DT_ERR(doca_comch_consumer_set_completion(cons, m.cc, 1), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_comch_consumer_set_dev_max_num_recv(cons, 4), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_comch_consumer_get_dpa_handle(cons, &ch), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_comch_producer_dpa_completion_attach(prod, comp), DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_comch_producer_dpa_completion_attach(prod, NULL), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_comch_producer_set_dev_max_num_send(prod, 0), DOCA_ERROR_INVALID_VALUE);
	DT_OK(doca_comch_producer_set_dev_max_num_send(prod, 4));
	DT_OK(doca_comch_producer_get_dpa_handle(prod, &ph));
	DT_ERR(doca_comch_producer_get_dpa_handle(prod, NULL), DOCA_ERROR_INVALID_VALUE);
	DT_OK(doca_comch_producer_destroy(prod));
	DT_OK(doca_comch_consumer_destroy(cons));
	DT_OK(doca_comch_msgq_stop(q));
	DT_OK(doca_comch_msgq_destroy(q));
	DT_OK(doca_dpa_completion_destroy(comp));
	t_msgq_down(&m);
}

/* ---------------------------------------------------- the device side in RPCs */

struct t_dev {
	/* the DPA consumer side */
	doca_dpa_dev_comch_consumer_t consumer;
	doca_dpa_dev_comch_consumer_completion_t cc;
	int acks[2];
	int got[3];
	uint32_t imm_len[2];
	uint8_t imm[2][16];
	uint32_t producer_id[2];
	uint32_t user_data[2];
	int cc_ack[2];
	int armed;
	/* the DPA producer side */
	doca_dpa_dev_comch_producer_t producer;
	doca_dpa_dev_completion_t comp;
	doca_dpa_dev_mmap_t dst_mmap, src_mmap;
	uint64_t dst, src;
	uint32_t cpu_consumer;
	int empty[2];
	int send[6];
	int comp_got[3];
	uint32_t comp_ud[2];
	int comp_ack;
};

static uint64_t
t_dev_offer(struct t_dev *d)
{
	d->acks[0] = doca_dpa_dev_comch_consumer_ack(d->consumer, 2);
	d->acks[1] = doca_dpa_dev_comch_consumer_ack(d->consumer, 3); /* 5 > 4 */
	return 0;
}

static uint64_t
t_dev_take(struct t_dev *d)
{
	doca_dpa_dev_comch_consumer_completion_element_t e[3];
	int i;

	for (i = 0; i < 3; i++)
		d->got[i] = doca_dpa_dev_comch_consumer_get_completion(d->cc, &e[i]);
	for (i = 0; i < 2; i++) {
		const uint8_t *imm = doca_dpa_dev_comch_consumer_get_completion_imm(e[i],
										    &d->imm_len[i]);

		memcpy(d->imm[i], imm, d->imm_len[i] <= 16 ? d->imm_len[i] : 16);
		d->producer_id[i] = doca_dpa_dev_comch_consumer_get_completion_producer_id(e[i]);
		d->user_data[i] = doca_dpa_dev_comch_consumer_get_completion_user_data(e[i]);
	}
	d->cc_ack[0] = doca_dpa_dev_comch_consumer_completion_ack(d->cc, 3);
	d->cc_ack[1] = doca_dpa_dev_comch_consumer_completion_ack(d->cc, 2);
	d->armed = doca_dpa_dev_comch_consumer_completion_request_notification(d->cc);
	return 0;
}

static uint64_t
t_dev_send_empty(struct t_dev *d)
{
	static const uint8_t ans[24] = "answer-0";

	d->empty[0] = doca_dpa_dev_comch_producer_is_consumer_empty(d->producer, d->cpu_consumer);
	d->send[0] = doca_dpa_dev_comch_producer_post_send_imm_only(d->producer, d->cpu_consumer,
								    ans, sizeof(ans), 0);
	return 0;
}

static uint64_t
t_dev_send(struct t_dev *d)
{
	static const uint8_t ans[3][24] = { "answer-1", "answer-2", "answer-3" };

	d->empty[1] = doca_dpa_dev_comch_producer_is_consumer_empty(d->producer, d->cpu_consumer);
	/* a completion; none; an unknown flag; a copy with a completion; the completions full */
	d->send[1] = doca_dpa_dev_comch_producer_post_send_imm_only(
		d->producer, d->cpu_consumer, ans[0], sizeof(ans[0]),
		DOCA_DPA_DEV_SUBMIT_FLAG_FLUSH);
	d->send[2] = doca_dpa_dev_comch_producer_post_send_imm_only(
		d->producer, d->cpu_consumer, ans[1], sizeof(ans[1]),
		DOCA_DPA_DEV_SUBMIT_FLAG_OPTIMIZE_REPORTS);
	d->send[3] = doca_dpa_dev_comch_producer_post_send_imm_only(
		d->producer, d->cpu_consumer, ans[1], sizeof(ans[1]), 1u << 7);
	d->send[4] = doca_dpa_dev_comch_producer_dma_copy(d->producer, d->cpu_consumer,
							  d->dst_mmap, d->dst, d->src_mmap, d->src,
							  64, ans[2], sizeof(ans[2]), 0);
	d->send[5] = doca_dpa_dev_comch_producer_post_send_imm_only(
		d->producer, d->cpu_consumer, ans[1], sizeof(ans[1]), 0);
	return 0;
}

static uint64_t
t_dev_completions(struct t_dev *d)
{
	doca_dpa_dev_completion_element_t e[3];
	int i;

	for (i = 0; i < 3; i++)
		d->comp_got[i] = doca_dpa_dev_get_completion(d->comp, &e[i]);
	for (i = 0; i < 2; i++)
		d->comp_ud[i] = doca_dpa_dev_get_completion_user_data(e[i]);
	d->comp_ack = doca_dpa_dev_completion_ack(d->comp, 2);
	return (uint64_t)doca_dpa_dev_completion_request_notification(d->comp);
}

/* What the CPU consumer's receives got. */
struct t_cpu {
	uint32_t ok, err;
	uint8_t imm[4][24];
	uint32_t imm_len[4];
	uint32_t producer_id[4];
};

static void
t_recv_ok(struct doca_comch_consumer_task_post_recv *task, union doca_data task_user_data,
	  union doca_data ctx_user_data)
{
	struct t_cpu *c = ctx_user_data.ptr;
	uint32_t i = c->ok++;

	(void)task_user_data;
	if (i < 4) {
		c->imm_len[i] = doca_comch_consumer_task_post_recv_get_imm_data_len(task);
		memcpy(c->imm[i], doca_comch_consumer_task_post_recv_get_imm_data(task),
		       c->imm_len[i] <= 24 ? c->imm_len[i] : 24);
		c->producer_id[i] = doca_comch_consumer_task_post_recv_get_producer_id(task);
	}
	doca_task_free(doca_comch_consumer_task_post_recv_as_task(task));
}

static void
t_recv_err(struct doca_comch_consumer_task_post_recv *task, union doca_data task_user_data,
	   union doca_data ctx_user_data)
{
	struct t_cpu *c = ctx_user_data.ptr;

	(void)task_user_data;
	c->err++;
	doca_task_free(doca_comch_consumer_task_post_recv_as_task(task));
}

static uint32_t sends_done;

static void
t_send_done(struct doca_comch_producer_task_send *task, union doca_data task_user_data,
	    union doca_data ctx_user_data)
{
	(void)task_user_data;
	(void)ctx_user_data;
	sends_done++;
	doca_task_free(doca_comch_producer_task_send_as_task(task));
}

/* A started mmap of len bytes at addr (or of DPA memory), and its handle for the DPA. */
static struct doca_mmap *
t_mmap(struct t_msgq *m, void *addr, doca_dpa_dev_uintptr_t dpa_addr, size_t len,
	doca_dpa_dev_mmap_t *h)
{
	struct doca_mmap *mm = NULL;

	DT_OK(doca_mmap_create(&mm));
	DT_OK(doca_mmap_add_dev(mm, m->dev));
	DT_OK(doca_mmap_set_permissions(mm, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE |
					DOCA_ACCESS_FLAG_PCI_READ_WRITE));
	if (addr != NULL)
		DT_OK(doca_mmap_set_memrange(mm, addr, len));
	else
		DT_OK(doca_mmap_set_dpa_memrange(mm, m->dpa, dpa_addr, len));
	DT_ERR(doca_mmap_dev_get_dpa_handle(mm, m->dev, h), DOCA_ERROR_BAD_STATE);
	DT_OK(doca_mmap_start(mm));
	DT_OK(doca_mmap_dev_get_dpa_handle(mm, m->dev, h));
	return mm;
}

static void
test_msgq_device_calls(void **state)
{
	static const uint8_t req[2][16] = { "request-0", "request-1" };
	struct doca_comch_producer_task_send *st;
	struct doca_comch_consumer_task_post_recv *rt;
	struct doca_comch_consumer *dcons, *ccons;
	struct doca_comch_producer *cprod, *dprod;
	struct doca_comch_msgq *qa, *qb;
	struct doca_mmap *dst_mm, *src_mm;
	doca_dpa_dev_uintptr_t src = 0;
	struct t_msgq m = { 0 };
	struct t_dev d = { 0 };
	struct t_cpu c = { 0 };
	uint32_t dcons_id, cprod_id, dprod_id, i;
	uint8_t *dst = aligned_alloc(64, 4096);
	uint64_t ret = 1;

	(void)state;
	assert_non_null(dst);
	memset(dst, 0, 4096);
	t_msgq_up(&m);
	d.cc = m.cch;
	d.comp = m.comph;

	/* MsgQ A: a CPU producer to a DPA consumer */
	DT_OK(doca_comch_msgq_create(m.dev, &qa));
	DT_OK(doca_comch_msgq_set_dpa_consumer(qa, m.dpa));
	DT_OK(doca_comch_msgq_start(qa));
	DT_OK(doca_comch_msgq_consumer_create(qa, &dcons));
	DT_OK(doca_comch_msgq_producer_create(qa, &cprod));
	DT_OK(doca_ctx_set_datapath_on_dpa(doca_comch_consumer_as_ctx(dcons), m.dpa));
	DT_OK(doca_comch_consumer_set_imm_data_len(dcons, 16));
	DT_OK(doca_comch_consumer_set_completion(dcons, m.cc, 0x77));
	DT_OK(doca_comch_consumer_set_dev_max_num_recv(dcons, 4));
	DT_OK(doca_ctx_start(doca_comch_consumer_as_ctx(dcons)));
	assert_int_equal(dt_state(doca_comch_consumer_as_ctx(dcons)), DOCA_CTX_STATE_RUNNING);
	DT_OK(doca_comch_consumer_get_dpa_handle(dcons, &d.consumer));
	DT_OK(doca_comch_consumer_get_id(dcons, &dcons_id));
	DT_OK(doca_comch_producer_task_send_set_conf(cprod, t_send_done, t_send_done, 4));
	DT_OK(doca_pe_connect_ctx(m.pe, doca_comch_producer_as_ctx(cprod)));
	DT_OK(doca_ctx_start(doca_comch_producer_as_ctx(cprod)));
	DT_OK(doca_comch_producer_get_id(cprod, &cprod_id));
	/* no receive offered yet: refused */
	DT_OK(doca_comch_producer_task_send_alloc_init(cprod, NULL, req[0], 16, dcons_id, &st));
	DT_ERR(doca_task_submit(doca_comch_producer_task_send_as_task(st)), DOCA_ERROR_AGAIN);
	doca_task_free(doca_comch_producer_task_send_as_task(st));
	DT_OK(doca_dpa_rpc(m.dpa, DT_FUNC(t_dev_offer), &ret, &d));
	assert_int_equal(d.acks[0], 0);
	assert_int_equal(d.acks[1], -EINVAL);
	for (i = 0; i < 2; i++) {
		DT_OK(doca_comch_producer_task_send_alloc_init(cprod, NULL, req[i], 16, dcons_id,
							       &st));
		DT_OK(doca_task_submit(doca_comch_producer_task_send_as_task(st)));
	}
	DT_ASSERT(dt_wait_count(m.pe, &sends_done, 2));
	DT_OK(doca_comch_producer_task_send_alloc_init(cprod, NULL, req[0], 16, dcons_id, &st));
	DT_ERR(doca_task_submit(doca_comch_producer_task_send_as_task(st)), DOCA_ERROR_AGAIN);
	doca_task_free(doca_comch_producer_task_send_as_task(st));
	/* the DPA takes both, in order, with their producer and user data */
	DT_OK(doca_dpa_rpc(m.dpa, DT_FUNC(t_dev_take), &ret, &d));
	assert_int_equal(d.got[0], 1);
	assert_int_equal(d.got[1], 1);
	assert_int_equal(d.got[2], 0);
	for (i = 0; i < 2; i++) {
		assert_int_equal(d.imm_len[i], 16);
		assert_memory_equal(d.imm[i], req[i], 16);
		assert_int_equal(d.producer_id[i], cprod_id);
		assert_int_equal(d.user_data[i], 0x77);
	}
	assert_int_equal(d.cc_ack[0], -EINVAL);
	assert_int_equal(d.cc_ack[1], 0);
	assert_int_equal(d.armed, 0);

	/* MsgQ B: a DPA producer to a CPU consumer */
	DT_OK(doca_comch_msgq_create(m.dev, &qb));
	DT_OK(doca_comch_msgq_set_dpa_producer(qb, m.dpa));
	DT_OK(doca_comch_msgq_start(qb));
	DT_OK(doca_comch_msgq_consumer_create(qb, &ccons));
	DT_OK(doca_comch_msgq_producer_create(qb, &dprod));
	DT_OK(doca_comch_consumer_set_imm_data_len(ccons, 24));
	DT_OK(doca_comch_consumer_task_post_recv_set_conf(ccons, t_recv_ok, t_recv_err, 8));
	DT_OK(doca_ctx_set_user_data(doca_comch_consumer_as_ctx(ccons),
				     (union doca_data){ .ptr = &c }));
	DT_OK(doca_pe_connect_ctx(m.pe, doca_comch_consumer_as_ctx(ccons)));
	DT_OK(doca_ctx_start(doca_comch_consumer_as_ctx(ccons)));
	DT_OK(doca_comch_consumer_get_id(ccons, &d.cpu_consumer));
	DT_OK(doca_ctx_set_datapath_on_dpa(doca_comch_producer_as_ctx(dprod), m.dpa));
	DT_OK(doca_ctx_set_user_data(doca_comch_producer_as_ctx(dprod),
				     (union doca_data){ .u64 = 0x5150 }));
	DT_OK(doca_comch_producer_set_dev_max_num_send(dprod, 2));
	DT_OK(doca_comch_producer_dpa_completion_attach(dprod, m.comp));
	DT_OK(doca_ctx_start(doca_comch_producer_as_ctx(dprod)));
	DT_OK(doca_comch_producer_get_dpa_handle(dprod, &d.producer));
	DT_OK(doca_comch_producer_get_id(dprod, &dprod_id));
	/* the copy's memory: ours, and the DPA's */
	DT_OK(doca_dpa_mem_alloc(m.dpa, 64, &src));
	for (i = 0; i < 64; i++)
		((uint8_t *)(uintptr_t)src)[i] = (uint8_t)(0xc0 + i);
	DT_ERR(doca_mmap_set_dpa_memrange(NULL, m.dpa, src, 64), DOCA_ERROR_INVALID_VALUE);
	dst_mm = t_mmap(&m, dst, 0, 4096, &d.dst_mmap);
	src_mm = t_mmap(&m, NULL, src, 64, &d.src_mmap);
	d.dst = (uintptr_t)dst + 128;
	d.src = src;
	/* no receive posted: empty, and a send is refused */
	DT_OK(doca_dpa_rpc(m.dpa, DT_FUNC(t_dev_send_empty), &ret, &d));
	assert_int_equal(d.empty[0], 1);
	assert_int_equal(d.send[0], -EAGAIN);
	for (i = 0; i < 4; i++) {
		DT_OK(doca_comch_consumer_task_post_recv_alloc_init(ccons, NULL, &rt));
		DT_OK(doca_task_submit(doca_comch_consumer_task_post_recv_as_task(rt)));
	}
	DT_OK(doca_dpa_rpc(m.dpa, DT_FUNC(t_dev_send), &ret, &d));
	assert_int_equal(d.empty[1], 0);
	assert_int_equal(d.send[1], 0);
	assert_int_equal(d.send[2], 0);		/* no completion asked */
	assert_int_equal(d.send[3], -EINVAL);	/* unknown flag */
	assert_int_equal(d.send[4], 0);
	assert_int_equal(d.send[5], -EAGAIN);	/* two completions not acknowledged */
	DT_ASSERT(dt_wait_count(m.pe, &c.ok, 3));
	assert_memory_equal(c.imm[0], "answer-1", 9);
	assert_memory_equal(c.imm[1], "answer-2", 9);
	assert_memory_equal(c.imm[2], "answer-3", 9);
	for (i = 0; i < 3; i++) {
		assert_int_equal(c.imm_len[i], 24);
		assert_int_equal(c.producer_id[i], dprod_id);
	}
	assert_memory_equal(dst + 128, (const void *)(uintptr_t)src, 64);
	assert_int_equal(dst[127], 0);
	assert_int_equal(dst[192], 0);
	/* the two completions, with the producer's user data */
	DT_OK(doca_dpa_rpc(m.dpa, DT_FUNC(t_dev_completions), &ret, &d));
	assert_int_equal(ret, 0);
	assert_int_equal(d.comp_got[0], 1);
	assert_int_equal(d.comp_got[1], 1);
	assert_int_equal(d.comp_got[2], 0);
	assert_int_equal(d.comp_ud[0], 0x5150);
	assert_int_equal(d.comp_ud[1], 0x5150);
	assert_int_equal(d.comp_ack, 0);

	/* teardown in DOCA's order: the DPA sides stop at once */
	t_stop(m.pe, doca_comch_producer_as_ctx(cprod));
	DT_OK(doca_ctx_stop(doca_comch_consumer_as_ctx(dcons)));
	assert_int_equal(dt_state(doca_comch_consumer_as_ctx(dcons)), DOCA_CTX_STATE_IDLE);
	DT_ERR(doca_ctx_stop(doca_comch_consumer_as_ctx(dcons)), DOCA_ERROR_BAD_STATE);
	DT_OK(doca_ctx_stop(doca_comch_producer_as_ctx(dprod)));
	assert_int_equal(dt_state(doca_comch_producer_as_ctx(dprod)), DOCA_CTX_STATE_IDLE);
	t_stop(m.pe, doca_comch_consumer_as_ctx(ccons));
	assert_int_equal(c.err, 1); /* the receive left was given back */
	DT_ERR(doca_comch_msgq_stop(qa), DOCA_ERROR_IN_USE);
	DT_ERR(doca_comch_consumer_completion_stop(m.cc), DOCA_ERROR_IN_USE);
	DT_ERR(doca_dpa_destroy(m.dpa), DOCA_ERROR_IN_USE);
	DT_OK(doca_comch_producer_destroy(cprod));
	DT_OK(doca_comch_consumer_destroy(dcons));
	DT_OK(doca_comch_producer_destroy(dprod));
	DT_OK(doca_comch_consumer_destroy(ccons));
	DT_OK(doca_comch_msgq_stop(qa));
	DT_OK(doca_comch_msgq_destroy(qa));
	DT_OK(doca_comch_msgq_stop(qb));
	DT_OK(doca_comch_msgq_destroy(qb));
	DT_OK(doca_mmap_destroy(dst_mm));
	DT_OK(doca_mmap_destroy(src_mm));
	DT_OK(doca_dpa_mem_free(m.dpa, src));
	t_msgq_down(&m);
	free(dst);
}

/* An mmap's DPA handle: a DPA on the device first, then the mmap's start. */
static void
test_mmap_dpa_handle(void **state)
{
	struct doca_dev *dev = dt_dev_open("04:00.0");
	struct doca_mmap *early = NULL, *late = NULL;
	doca_dpa_dev_mmap_t h = 0;
	struct doca_dpa *dpa = NULL;
	static uint8_t mem[2][256];

	(void)state;
	DT_OK(doca_mmap_create(&early));
	DT_OK(doca_mmap_add_dev(early, dev));
	DT_OK(doca_mmap_set_memrange(early, mem[0], sizeof(mem[0])));
	DT_OK(doca_mmap_start(early));
	DT_ERR(doca_mmap_dev_get_dpa_handle(early, dev, &h), DOCA_ERROR_NOT_FOUND);
	DT_OK(doca_dpa_create(dev, &dpa));
	DT_ERR(doca_mmap_dev_get_dpa_handle(early, dev, &h), DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_mmap_dev_get_dpa_handle(early, dev, NULL), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_mmap_dev_get_dpa_handle(NULL, dev, &h), DOCA_ERROR_INVALID_VALUE);
	DT_OK(doca_mmap_create(&late));
	DT_OK(doca_mmap_add_dev(late, dev));
	DT_OK(doca_mmap_set_memrange(late, mem[1], sizeof(mem[1])));
	DT_OK(doca_mmap_start(late));
	DT_OK(doca_mmap_dev_get_dpa_handle(late, dev, &h));
	assert_int_not_equal(h, 0);
	/* stopped and started again: the DPA's device is there still */
	DT_OK(doca_mmap_stop(late));
	DT_OK(doca_mmap_start(late));
	DT_OK(doca_mmap_dev_get_dpa_handle(late, dev, &h));
	/* a DPA memory range must be one buffer of the DPA */
	DT_ERR(doca_mmap_set_dpa_memrange(early, dpa, 0x1000, 8), DOCA_ERROR_INVALID_VALUE);
	DT_OK(doca_mmap_destroy(early));
	DT_OK(doca_mmap_destroy(late));
	DT_OK(doca_dpa_destroy(dpa));
	DT_OK(doca_dev_close(dev));
}

/* The device calls outside a program, and the programs' log. */
static char *t_log_buf;
static size_t t_log_len;

static uint64_t
t_rpc_log(void)
{
	DOCA_DPA_DEV_LOG_ERR("dpa says %d", 42);
	DOCA_DPA_DEV_LOG_DBG("dpa debug %s\n", "line");
	doca_dpa_dev_log(DOCA_DPA_DEV_LOG_LEVEL_DISABLE, "never %d", 1);
	return 0;
}

static void
test_dpa_dev_outside_and_log(void **state)
{
	struct doca_dev *dev = dt_dev_open("03:00.0");
	doca_dpa_dev_comch_consumer_completion_element_t ce = NULL;
	doca_dpa_dev_completion_element_t e = NULL;
	struct doca_dpa *dpa = NULL;
	uint32_t len = 7;
	uint64_t ret = 1;
	FILE *log;

	(void)state;
	/* no program: refused, 0 or NULL, never followed */
	assert_int_equal(doca_dpa_dev_thread_get_local_storage(), 0);
	assert_int_equal(doca_dpa_dev_thread_notify(1), -EPERM);
	assert_int_equal(doca_dpa_dev_get_completion(1, &e), -EPERM);
	assert_int_equal(doca_dpa_dev_completion_ack(1, 1), -EPERM);
	assert_int_equal(doca_dpa_dev_completion_ack(1, 1ull << 40), -EINVAL);
	assert_int_equal(doca_dpa_dev_completion_request_notification(1), -EPERM);
	assert_int_equal(doca_dpa_dev_comch_consumer_get_completion(1, &ce), -EPERM);
	assert_int_equal(doca_dpa_dev_comch_consumer_completion_ack(1, 1), -EPERM);
	assert_int_equal(doca_dpa_dev_comch_consumer_completion_request_notification(1), -EPERM);
	assert_int_equal(doca_dpa_dev_comch_consumer_ack(1, 1), -EPERM);
	assert_int_equal(doca_dpa_dev_comch_producer_post_send_imm_only(1, 1, NULL, 0, 0), -EPERM);
	assert_int_equal(doca_dpa_dev_comch_producer_dma_copy(1, 1, 1, 0, 1, 0, 0, NULL, 0, 0),
			 -EPERM);
	assert_int_equal(doca_dpa_dev_comch_producer_dma_copy(1, 1, 1, 0, 1, 0, 0, NULL, 0, 8),
			 -EINVAL);
	assert_int_equal(doca_dpa_dev_comch_producer_is_consumer_empty(1, 1), -EPERM);
	doca_dpa_dev_thread_reschedule();
	doca_dpa_dev_thread_finish();
	assert_null(doca_dpa_dev_comch_consumer_get_completion_imm(NULL, &len));
	assert_int_equal(len, 0);
	assert_int_equal(doca_dpa_dev_comch_consumer_get_completion_producer_id(NULL), 0);
	assert_int_equal(doca_dpa_dev_comch_consumer_get_completion_user_data(NULL), 0);
	assert_int_equal(doca_dpa_dev_get_completion_user_data(NULL), 0);

	/* a program's lines go to the layer's log, one each, at their level */
	log = open_memstream(&t_log_buf, &t_log_len);
	assert_non_null(log);
	rte_openlog_stream(log);
	rte_log_set_level_pattern("lib.comch.doca", RTE_LOG_DEBUG);
	DT_OK(doca_dpa_create(dev, &dpa));
	DT_OK(doca_dpa_rpc(dpa, DT_FUNC(t_rpc_log), &ret));
	rte_log_set_level_pattern("lib.comch.doca", RTE_LOG_NOTICE);
	rte_openlog_stream(NULL);
	fclose(log);
	assert_non_null(strstr(t_log_buf, "doca: DPA: dpa says 42\n"));
	assert_non_null(strstr(t_log_buf, "doca: DPA: dpa debug line\n"));
	assert_null(strstr(t_log_buf, "never"));
	free(t_log_buf);
	DT_OK(doca_dpa_destroy(dpa));
	DT_OK(doca_dev_close(dev));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dpa_objects),
		cmocka_unit_test(test_dpa_memory),
		cmocka_unit_test(test_dpa_thread_rpc),
		cmocka_unit_test(test_msgq_errors),
		cmocka_unit_test(test_msgq_device_calls),
		cmocka_unit_test(test_mmap_dpa_handle),
		cmocka_unit_test(test_dpa_dev_outside_and_log),
	};
	int ret;

	/* the mapping before any DOCA call: the layer reads it once */
	dt_env_setup();
	if (getenv("COMCH_TEST_FILTER") != NULL)
		cmocka_set_test_filter(getenv("COMCH_TEST_FILTER"));
	ret = cmocka_run_group_tests_name("doca_dpa", tests, NULL, NULL);
	dt_env_teardown();
	return ret;
}
