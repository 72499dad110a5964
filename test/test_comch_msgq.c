/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * MsgQ through the library (rte_comch_msgq.h) on the dpa driver: the MsgQ's
 * state machine and every error of its calls; producers and consumers made
 * from a MsgQ as ordinary contexts, with what they refuse (buffers, bursts,
 * CPU calls on the DPA side); both directions end to end with sequence checks,
 * a stress of millions of messages each way, a slow DPA program that holds the
 * CPU producer back without losing anything, and a DPA consumer stopped while
 * a CPU producer sends to it.
 *
 * The DPA programs are the prog_*() functions; their argument points at a
 * test structure (the software DPA shares the process's memory).
 */

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_service.h>

#include <rte_comch.h>
#include <rte_comch_dpa.h>
#include <rte_comch_dpa_dev.h>
#include <rte_comch_dpa_msgq.h>

#include "comch_test_common.h"
#include "comch_test_dpa.h"

#define LOAD(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)

/* Messages each way in the stress, and the DPA's window of receives. */
#define STRESS_MSGS 2000000u
#define WINDOW 64u
/* Rounds of the race between a DPA producer's fill and the CPU's sleep. */
#define WAKE_ROUNDS 3000u

static struct rte_comch_dev *dev;      /* "dpa:" */
static struct rte_comch_dev *skel_dev; /* a device with no MsgQ */

/* One test's objects, torn down by fx_down() whatever the test did. */
struct fx {
	struct rte_comch_dpa *dpa;
	uint32_t unit_service;
	struct rte_comch_pe *pe;
	struct rte_comch_msgq *q;
	struct rte_comch_dpa_thread *t;
	struct rte_comch_dpa_cq *cq;
	rte_comch_dpa_handle_t cq_h;
};

/*
 * The CPU side runs on this lcore (0), the DPA's one unit on service lcore 1:
 * a unit thread would inherit lcore 0's CPU and share it with the test.
 */
static void
fx_up(struct fx *f)
{
	struct rte_comch_dpa_conf conf = { .nb_units = 1, .mode = RTE_COMCH_DPA_EXEC_SERVICE };

	memset(f, 0, sizeof(*f));
	f->dpa = rte_comch_dpa_create(dev, &conf);
	assert_non_null(f->dpa);
	assert_int_equal(rte_comch_dpa_unit_service_id(f->dpa, 0, &f->unit_service), 0);
	assert_int_equal(rte_service_map_lcore_set(f->unit_service, 1, 1), 0);
	assert_int_equal(rte_service_runstate_set(f->unit_service, 1), 0);
	assert_int_equal(rte_comch_dpa_start(f->dpa), 0);
	f->pe = rte_comch_pe_create(rte_lcore_id());
	assert_non_null(f->pe);
	f->q = rte_comch_msgq_create(dev);
	assert_non_null(f->q);
	/* On lines of its own: its producers read its link at every send. */
	assert_int_equal((uintptr_t)f->q & (RTE_CACHE_LINE_SIZE - 1), 0);
}

/* A running DPA thread of fn(arg) and its completion context (entries: size). */
static void
fx_thread(struct fx *f, rte_comch_dpa_func_t fn, void *arg, uint32_t size)
{
	f->t = ct_dpa_thread_new(f->dpa, fn, arg, 0, true);
	f->cq = ct_dpa_cq_new(f->dpa, size, f->t, &f->cq_h);
}

static void
fx_down(struct fx *f)
{
	if (f->q != NULL) {
		rte_comch_msgq_stop(f->q); /* -EBUSY if not started: fine */
		assert_int_equal(rte_comch_msgq_destroy(f->q), 0);
	}
	if (f->cq != NULL)
		assert_int_equal(rte_comch_dpa_cq_destroy(f->cq), 0);
	if (f->t != NULL) {
		rte_comch_dpa_thread_stop(f->t);
		assert_int_equal(rte_comch_dpa_thread_destroy(f->t), 0);
	}
	assert_int_equal(rte_comch_dpa_stop(f->dpa), 0);
	assert_int_equal(rte_service_runstate_set(f->unit_service, 0), 0);
	assert_int_equal(rte_service_map_lcore_set(f->unit_service, 1, 0), 0);
	assert_int_equal(rte_comch_dpa_destroy(f->dpa), 0);
	assert_int_equal(rte_comch_pe_destroy(f->pe), 0);
}

/* Progress until *p (written by a DPA program, or by callbacks) reaches want. */
static void
wait_u64(struct fx *f, const uint64_t *p, uint64_t want)
{
	uint64_t deadline = ct_now_ms() + 60000;

	while (LOAD(p) < want) {
		rte_comch_pe_progress(f->pe);
		assert_true(ct_now_ms() < deadline);
	}
}

static void
ctx_start(struct fx *f, struct rte_comch_ctx *ctx)
{
	assert_int_equal(rte_comch_pe_connect_ctx(f->pe, ctx), 0);
	assert_int_equal(rte_comch_ctx_start(ctx), 0);
	assert_int_equal(ct_wait_state(f->pe, ctx, RTE_COMCH_CTX_STATE_RUNNING, CT_TIMEOUT_MS), 0);
}

static void
ctx_stop(struct fx *f, struct rte_comch_ctx *ctx)
{
	ct_ctx_stop_wait(f->pe, ctx);
}

/* ------------------------------------------------------------ CPU producer side */

struct cpu_prod {
	struct rte_comch_producer *p;
	uint64_t ok, err;
	int last_err;
};

static void
prod_ok(struct rte_comch_producer_task_send *task, union rte_comch_data task_ud,
	union rte_comch_data ctx_ud)
{
	struct cpu_prod *cp = ctx_ud.ptr;

	RTE_SET_USED(task_ud);
	cp->ok++;
	rte_comch_task_free(rte_comch_producer_task_send_as_task(task));
}

static void
prod_err(struct rte_comch_producer_task_send *task, union rte_comch_data task_ud,
	 union rte_comch_data ctx_ud)
{
	struct cpu_prod *cp = ctx_ud.ptr;

	RTE_SET_USED(task_ud);
	cp->err++;
	cp->last_err = rte_comch_task_get_status(rte_comch_producer_task_send_as_task(task));
	rte_comch_task_free(rte_comch_producer_task_send_as_task(task));
}

static void
cpu_prod_new(struct fx *f, struct cpu_prod *cp, uint32_t num_tasks)
{
	memset(cp, 0, sizeof(*cp));
	cp->p = rte_comch_msgq_producer_create(f->q);
	assert_non_null(cp->p);
	assert_int_equal(rte_comch_producer_task_send_set_conf(cp->p, prod_ok, prod_err,
								num_tasks), 0);
	assert_int_equal(rte_comch_ctx_set_user_data(rte_comch_producer_as_ctx(cp->p),
						     (union rte_comch_data){ .ptr = cp }), 0);
	ctx_start(f, rte_comch_producer_as_ctx(cp->p));
}

/* One send of an 8-byte sequence number: submit's result (the task is freed on refusal). */
static int
cpu_send(struct cpu_prod *cp, uint32_t cons_id, uint64_t seq, uint32_t imm_len)
{
	struct rte_comch_producer_task_send *t;
	uint8_t imm[RTE_COMCH_MAX_IMM_DATA_LEN] = { 0 };
	int rc;

	memcpy(imm, &seq, sizeof(seq));
	rc = rte_comch_producer_task_send_alloc_init(cp->p, NULL, imm, imm_len, cons_id, &t);
	if (rc < 0)
		return rc;
	rc = rte_comch_task_submit(rte_comch_producer_task_send_as_task(t));
	if (rc < 0)
		rte_comch_task_free(rte_comch_producer_task_send_as_task(t));
	return rc;
}

/* ------------------------------------------------------------ DPA consumer program */

/* What a DPA consumer's program sees and counts; the CPU reads it with LOAD. */
struct dpa_cons {
	rte_comch_dpa_handle_t cons_h, cq_h;
	uint32_t window;        /* receives offered at the first run */
	uint32_t slow_us;       /* a slow program: this long per message */
	uint32_t hold;          /* 1: take nothing, offer nothing (back-pressure) */
	uint32_t prime_only;    /* 1: hold again right after the first offer */
	uint32_t primed;
	uint64_t got, bad;
	uint64_t next_seq[5];   /* per producer id (from 1) */
	int err;
	uint32_t id;            /* the consumer's: what CPU producers send to */
};

static void
prog_dpa_consumer(uint64_t arg)
{
	struct dpa_cons *s = (void *)(uintptr_t)arg;
	struct rte_comch_dpa_cqe e;
	const uint8_t *imm;
	uint32_t len, pid, n = 0;
	uint64_t seq;
	int rc;

	if (LOAD(&s->hold))
		rte_comch_dpa_dev_thread_reschedule();
	if (!s->primed) {
		rc = rte_comch_dpa_dev_consumer_ack(s->cons_h, s->window);
		if (rc < 0)
			STORE(&s->err, rc);
		s->primed = 1;
		if (LOAD(&s->prime_only)) {
			/* Offered, and nothing taken until the CPU says: the window is exact. */
			STORE(&s->hold, 1);
			rte_comch_dpa_dev_thread_reschedule();
		}
	}
	while (rte_comch_dpa_dev_get_completion(s->cq_h, &e) == 1) {
		imm = rte_comch_dpa_dev_get_completion_imm(&e, &len);
		pid = rte_comch_dpa_dev_get_completion_producer_id(&e);
		memcpy(&seq, imm, sizeof(seq));
		if (len < sizeof(seq) || pid >= RTE_DIM(s->next_seq) || s->next_seq[pid] != seq)
			STORE(&s->bad, s->bad + 1);
		else
			s->next_seq[pid]++;
		n++;
		if (s->slow_us != 0)
			usleep(s->slow_us);
		/* Give back as we go, so that the producer never waits for a whole round. */
		if (n == 16) {
			rte_comch_dpa_dev_completion_ack(s->cq_h, n);
			rte_comch_dpa_dev_consumer_ack(s->cons_h, n);
			STORE(&s->got, s->got + n);
			n = 0;
		}
	}
	if (n != 0) {
		rte_comch_dpa_dev_completion_ack(s->cq_h, n);
		rte_comch_dpa_dev_consumer_ack(s->cons_h, n);
		STORE(&s->got, s->got + n);
	}
	rte_comch_dpa_dev_completion_request_notification(s->cq_h);
}

/* A DPA consumer on f's completion context, started, its program primed. */
static struct rte_comch_consumer *
dpa_cons_new(struct fx *f, struct dpa_cons *s, uint32_t window, uint32_t imm_len)
{
	struct rte_comch_consumer *c = rte_comch_msgq_consumer_create(f->q);

	assert_non_null(c);
	s->window = window;
	s->cq_h = f->cq_h;
	assert_int_equal(rte_comch_consumer_set_imm_data_len(c, imm_len), 0);
	assert_int_equal(rte_comch_dpa_consumer_set_completion(c, f->cq, 0xc0de), 0);
	assert_int_equal(rte_comch_dpa_consumer_set_dev_max_num_recv(c, window), 0);
	assert_int_equal(rte_comch_dpa_consumer_get_dpa_handle(c, &s->cons_h), 0);
	assert_int_equal(rte_comch_consumer_get_id(c, &s->id), 0);
	ctx_start(f, rte_comch_consumer_as_ctx(c));
	assert_int_equal(rte_comch_dpa_thread_notify(f->t), 0);
	return c;
}

/*
 * f up, with a CPU -> DPA MsgQ started, and its DPA consumer, whose program
 * (prog_dpa_consumer(s)) takes entries from a completion context of cq_size.
 */
static struct rte_comch_consumer *
cpu_to_dpa_up(struct fx *f, struct dpa_cons *s, uint32_t cq_size, uint32_t window,
	      uint32_t imm_len)
{
	fx_up(f);
	fx_thread(f, prog_dpa_consumer, s, cq_size);
	assert_int_equal(rte_comch_msgq_set_dpa_consumer(f->q, rte_comch_dpa_as_accel(f->dpa)),
			 0);
	assert_int_equal(rte_comch_msgq_start(f->q), 0);
	return dpa_cons_new(f, s, window, imm_len);
}

/* Stop and destroy a CPU -> DPA test's producer, then its consumer, and take f down. */
static void
cpu_to_dpa_down(struct fx *f, struct rte_comch_producer *p, struct rte_comch_consumer *c)
{
	ctx_stop(f, rte_comch_producer_as_ctx(p));
	assert_int_equal(rte_comch_producer_destroy(p), 0);
	ctx_stop(f, rte_comch_consumer_as_ctx(c));
	assert_int_equal(rte_comch_consumer_destroy(c), 0);
	fx_down(f);
}

/* Send seq numbers [from, to) from cp to cons_id, retrying on -EAGAIN; returns refusals. */
static uint64_t
send_all(struct fx *f, struct cpu_prod *cp, uint32_t cons_id, uint64_t from, uint64_t to)
{
	uint64_t seq = from, again = 0, deadline = ct_now_ms() + 120000;
	int rc;

	while (seq < to) {
		rc = cpu_send(cp, cons_id, seq, 8);
		if (rc == 0) {
			seq++;
			if ((seq & 31) == 0)
				rte_comch_pe_progress(f->pe);
			continue;
		}
		assert_true(rc == -EAGAIN || rc == -ENOMEM);
		again++;
		rte_comch_pe_progress(f->pe);
		assert_true(ct_now_ms() < deadline);
	}
	while (cp->ok + cp->err < to && ct_now_ms() < deadline)
		rte_comch_pe_progress(f->pe);
	return again;
}

/* ------------------------------------------------------------ tests: the MsgQ itself */

static void
test_msgq_errors(void **state)
{
	struct rte_comch_msgq *q;
	struct fx f;
	int dir;

	RTE_SET_USED(state);
	fx_up(&f);
	q = f.q;
	/* NULLs, and a device without MsgQ. */
	rte_errno = 0;
	assert_null(rte_comch_msgq_create(NULL));
	assert_int_equal(rte_errno, EINVAL);
	assert_null(rte_comch_msgq_create(skel_dev));
	assert_int_equal(rte_errno, ENOTSUP);
	assert_int_equal(rte_comch_msgq_destroy(NULL), -EINVAL);
	assert_int_equal(rte_comch_msgq_start(NULL), -EINVAL);
	assert_int_equal(rte_comch_msgq_stop(NULL), -EINVAL);
	assert_int_equal(rte_comch_msgq_set_dpa_consumer(NULL, rte_comch_dpa_as_accel(f.dpa)),
			 -EINVAL);
	assert_int_equal(rte_comch_msgq_set_dpa_producer(q, NULL), -EINVAL);
	assert_int_equal(rte_comch_msgq_set_max_num_consumers(NULL, 4), -EINVAL);
	assert_int_equal(rte_comch_msgq_get_direction(q, NULL), -EINVAL);
	assert_null(rte_comch_msgq_get_device(NULL));
	assert_ptr_equal(rte_comch_msgq_get_device(q), dev);
	assert_null(rte_comch_msgq_consumer_create(NULL));
	assert_null(rte_comch_msgq_producer_create(NULL));
	/* Limits. */
	assert_int_equal(rte_comch_msgq_set_max_num_consumers(q, 0), -EINVAL);
	assert_int_equal(rte_comch_msgq_set_max_num_producers(q, RTE_COMCH_MSGQ_MAX + 1), -EINVAL);
	assert_int_equal(rte_comch_msgq_set_max_num_producers(q, RTE_COMCH_MSGQ_MAX), 0);
	/* No direction: no start, no objects. */
	assert_int_equal(rte_comch_msgq_get_direction(q, &dir), -ENOENT);
	assert_int_equal(rte_comch_msgq_start(q), -ENOENT);
	assert_int_equal(rte_comch_msgq_stop(q), -EBUSY);
	rte_errno = 0;
	assert_null(rte_comch_msgq_consumer_create(q));
	assert_int_equal(rte_errno, EBUSY);
	/* A direction, replaced by the other. */
	assert_int_equal(rte_comch_msgq_set_dpa_consumer(q, rte_comch_dpa_as_accel(f.dpa)), 0);
	assert_int_equal(rte_comch_msgq_get_direction(q, &dir), 0);
	assert_int_equal(dir, 1);
	assert_int_equal(rte_comch_msgq_set_dpa_producer(q, rte_comch_dpa_as_accel(f.dpa)), 0);
	assert_int_equal(rte_comch_msgq_get_direction(q, &dir), 0);
	assert_int_equal(dir, 0);
	/* Started: no configuration, no destroy, no second start. */
	assert_int_equal(rte_comch_msgq_start(q), 0);
	assert_int_equal(rte_comch_msgq_start(q), -EBUSY);
	assert_int_equal(rte_comch_msgq_set_dpa_consumer(q, rte_comch_dpa_as_accel(f.dpa)), -EBUSY);
	assert_int_equal(rte_comch_msgq_set_max_num_consumers(q, 8), -EBUSY);
	assert_int_equal(rte_comch_msgq_destroy(q), -EBUSY);
	assert_int_equal(rte_comch_msgq_stop(q), 0);
	assert_int_equal(rte_comch_msgq_stop(q), -EBUSY);
	/* Restartable. */
	assert_int_equal(rte_comch_msgq_start(q), 0);
	assert_int_equal(rte_comch_msgq_stop(q), 0);
	fx_down(&f);
}

/* A dpa of another device: refused at start. */
static void
test_msgq_foreign_dpa(void **state)
{
	struct rte_comch_dpa_conf conf = { .nb_units = 1, .mode = RTE_COMCH_DPA_EXEC_PTHREAD };
	struct rte_comch_dpa *other = rte_comch_dpa_create(skel_dev, &conf);
	struct fx f;

	RTE_SET_USED(state);
	assert_non_null(other);
	fx_up(&f);
	assert_int_equal(rte_comch_msgq_set_dpa_consumer(f.q, rte_comch_dpa_as_accel(other)), 0);
	assert_int_equal(rte_comch_msgq_start(f.q), -EINVAL);
	fx_down(&f);
	assert_int_equal(rte_comch_dpa_destroy(other), 0);
}

/*
 * Accelerator handles: only a live dpa gives one, and the dpa driver refuses
 * at start a handle that is no dpa (the library never looks inside it).
 */
static void
test_msgq_accel_handles(void **state)
{
	struct rte_comch_dpa_conf conf = { .nb_units = 1, .mode = RTE_COMCH_DPA_EXEC_PTHREAD };
	struct rte_comch_dpa *gone;
	struct fx f;

	RTE_SET_USED(state);
	rte_errno = 0;
	assert_null(rte_comch_dpa_as_accel(NULL));
	assert_int_equal(rte_errno, EINVAL);
	gone = rte_comch_dpa_create(skel_dev, &conf);
	assert_non_null(gone);
	assert_non_null(rte_comch_dpa_as_accel(gone));
	assert_int_equal(rte_comch_dpa_destroy(gone), 0);
	fx_up(&f);
	/* Not a dpa at all: the MsgQ itself, passed as one. */
	assert_int_equal(rte_comch_msgq_set_dpa_consumer(f.q, (struct rte_comch_accel *)f.q), 0);
	assert_int_equal(rte_comch_msgq_start(f.q), -EINVAL);
	assert_int_equal(rte_comch_msgq_set_dpa_producer(f.q, rte_comch_dpa_as_accel(f.dpa)), 0);
	assert_int_equal(rte_comch_msgq_start(f.q), 0);
	assert_int_equal(rte_comch_msgq_stop(f.q), 0);
	fx_down(&f);
}

/* What MsgQ producers and consumers refuse, and the MsgQ's limits on them. */
static void
test_msgq_objects(void **state)
{
	struct rte_comch_consumer_task_post_recv *rt;
	struct rte_comch_producer_task_send *st;
	struct rte_comch_consumer *c[3];
	struct rte_comch_producer *p;
	struct rte_comch_buf_pool *pool;
	struct rte_comch_mmap *mmap;
	struct rte_comch_buf *buf;
	static uint8_t mem[4096];
	uint32_t id;
	struct fx f;

	RTE_SET_USED(state);
	fx_up(&f);
	fx_thread(&f, prog_dpa_consumer, NULL, 64);
	assert_int_equal(rte_comch_msgq_set_dpa_consumer(f.q, rte_comch_dpa_as_accel(f.dpa)), 0);
	assert_int_equal(rte_comch_msgq_set_max_num_consumers(f.q, 2), 0);
	assert_int_equal(rte_comch_msgq_start(f.q), 0);
	/* Ids from 1 (never 0), and no more than the maximum. */
	c[0] = rte_comch_msgq_consumer_create(f.q);
	c[1] = rte_comch_msgq_consumer_create(f.q);
	assert_non_null(c[0]);
	assert_non_null(c[1]);
	assert_int_equal(rte_comch_consumer_get_id(c[0], &id), 0);
	assert_int_equal(id, 1);
	assert_int_equal(rte_comch_consumer_get_id(c[1], &id), 0);
	assert_int_equal(id, 2);
	rte_errno = 0;
	c[2] = rte_comch_msgq_consumer_create(f.q);
	assert_null(c[2]);
	assert_int_equal(rte_errno, ENOSPC);
	/* A DPA consumer: its program receives, the CPU posts nothing. */
	assert_int_equal(rte_comch_consumer_task_post_recv_alloc_init(c[0], NULL, &rt), -ENOTSUP);
	assert_int_equal(rte_comch_consumer_burst_enable(c[0], 8), -ENOTSUP);
	/* Without its completion context, it does not start. */
	assert_int_equal(rte_comch_pe_connect_ctx(f.pe, rte_comch_consumer_as_ctx(c[0])), 0);
	assert_int_equal(rte_comch_ctx_start(rte_comch_consumer_as_ctx(c[0])), -EINVAL);
	/* A CPU producer: immediate data only (its burst API: test_msgq_cpu_to_dpa_burst). */
	p = rte_comch_msgq_producer_create(f.q);
	assert_non_null(p);
	mmap = rte_comch_mmap_create();
	assert_non_null(mmap);
	assert_int_equal(rte_comch_mmap_set_memrange(mmap, mem, sizeof(mem)), 0);
	assert_int_equal(rte_comch_mmap_start(mmap), 0);
	pool = rte_comch_buf_pool_create(4);
	assert_non_null(pool);
	assert_int_equal(rte_comch_buf_pool_get_by_addr(pool, mmap, mem, 64, &buf), 0);
	assert_int_equal(rte_comch_producer_task_send_set_conf(p, prod_ok, prod_err, 4), 0);
	ctx_start(&f, rte_comch_producer_as_ctx(p));
	assert_int_equal(rte_comch_producer_task_send_alloc_init(p, buf, NULL, 0, 0, &st), -EINVAL);
	/* Consumer 1 never started: not there to send to. */
	assert_int_equal(rte_comch_producer_task_send_alloc_init(p, NULL, (const uint8_t *)"x", 1,
								  1, &st), 0);
	assert_int_equal(rte_comch_task_submit(rte_comch_producer_task_send_as_task(st)), -ENOENT);
	rte_comch_task_free(rte_comch_producer_task_send_as_task(st));
	/* Stop refused while they exist. */
	assert_int_equal(rte_comch_msgq_stop(f.q), -EBUSY);
	ctx_stop(&f, rte_comch_producer_as_ctx(p));
	assert_int_equal(rte_comch_producer_destroy(p), 0);
	assert_int_equal(rte_comch_consumer_destroy(c[0]), 0);
	assert_int_equal(rte_comch_msgq_stop(f.q), -EBUSY);
	assert_int_equal(rte_comch_consumer_destroy(c[1]), 0);
	assert_int_equal(rte_comch_msgq_stop(f.q), 0);
	rte_comch_buf_dec_refcount(buf, NULL);
	assert_int_equal(rte_comch_buf_pool_destroy(pool), 0);
	assert_int_equal(rte_comch_mmap_stop(mmap), 0);
	assert_int_equal(rte_comch_mmap_destroy(mmap), 0);
	fx_down(&f);
}

/*
 * A completion context as DOCA's consumer completion: at most max_consumers
 * attached, immediate data up to its imm_len, not destroyed under them.
 */
static void
test_msgq_consumer_completion_limits(void **state)
{
	struct rte_comch_dpa_cq_conf cc = { .size = 16, .max_consumers = 1, .imm_len = 8 };
	struct rte_comch_consumer *c[2];
	struct rte_comch_dpa_cq *cq, *cq2;
	struct fx f;

	RTE_SET_USED(state);
	fx_up(&f);
	fx_thread(&f, prog_dpa_consumer, NULL, 16);
	cc.thread = f.t;
	cq = rte_comch_dpa_cq_create(f.dpa, &cc);
	assert_non_null(cq);
	cc.imm_len = RTE_COMCH_DPA_IMM_MAX + 1;
	rte_errno = 0;
	assert_null(rte_comch_dpa_cq_create(f.dpa, &cc));
	assert_int_equal(rte_errno, EINVAL);
	assert_int_equal(rte_comch_msgq_set_dpa_consumer(f.q, rte_comch_dpa_as_accel(f.dpa)), 0);
	assert_int_equal(rte_comch_msgq_start(f.q), 0);
	c[0] = rte_comch_msgq_consumer_create(f.q);
	c[1] = rte_comch_msgq_consumer_create(f.q);
	assert_non_null(c[0]);
	assert_non_null(c[1]);
	/* One consumer at most; setting the same context again is no second one. */
	assert_int_equal(rte_comch_dpa_consumer_set_completion(c[0], cq, 1), 0);
	assert_int_equal(rte_comch_dpa_consumer_set_completion(c[0], cq, 2), 0);
	assert_int_equal(rte_comch_dpa_consumer_set_completion(c[1], cq, 3), -ENOSPC);
	assert_int_equal(rte_comch_dpa_consumer_set_completion(c[1], f.cq, 3), 0);
	/* Immediate data longer than the context takes: no start. */
	assert_int_equal(rte_comch_consumer_set_imm_data_len(c[0], 16), 0);
	assert_int_equal(rte_comch_pe_connect_ctx(f.pe, rte_comch_consumer_as_ctx(c[0])), 0);
	assert_int_equal(rte_comch_ctx_start(rte_comch_consumer_as_ctx(c[0])), -EINVAL);
	assert_int_equal(rte_comch_consumer_set_imm_data_len(c[0], 8), 0);
	assert_int_equal(rte_comch_ctx_start(rte_comch_consumer_as_ctx(c[0])), 0);
	ctx_stop(&f, rte_comch_consumer_as_ctx(c[0]));
	/* Not destroyed under its consumer; moving the consumer away frees it. */
	assert_int_equal(rte_comch_dpa_cq_destroy(cq), -EBUSY);
	cq2 = cq;
	assert_int_equal(rte_comch_dpa_consumer_set_completion(c[0], f.cq, 1), 0);
	assert_int_equal(rte_comch_dpa_cq_destroy(cq2), 0);
	assert_int_equal(rte_comch_dpa_cq_destroy(f.cq), -EBUSY);
	assert_int_equal(rte_comch_consumer_destroy(c[0]), 0);
	assert_int_equal(rte_comch_consumer_destroy(c[1]), 0);
	fx_down(&f);
}

/* ------------------------------------------------------------ CPU -> DPA */

/* The DPA program's receives gate the producer: -EAGAIN beyond them, nothing lost. */
static void
test_msgq_cpu_to_dpa_credits(void **state)
{
	struct rte_comch_consumer *c;
	struct dpa_cons s = { .hold = 1, .prime_only = 1 };
	struct cpu_prod cp;
	struct fx f;
	uint64_t seq, deadline;

	RTE_SET_USED(state);
	c = cpu_to_dpa_up(&f, &s, 64, 8, 16);
	cpu_prod_new(&f, &cp, 32);
	/* Nothing offered yet: refused, the task stays the caller's. */
	assert_int_equal(cpu_send(&cp, s.id, 0, 8), -EAGAIN);
	/* The program offers 8 receives and takes nothing: exactly 8 go, the 9th waits. */
	STORE(&s.hold, 0);
	assert_int_equal(rte_comch_dpa_thread_notify(f.t), 0);
	for (seq = 0; seq < 8; seq++) {
		while (cpu_send(&cp, s.id, seq, 8) == -EAGAIN)
			rte_comch_pe_progress(f.pe);
	}
	/* (The program holds again once it offered: wait for that, so it takes nothing.) */
	deadline = ct_now_ms() + CT_TIMEOUT_MS;
	while (LOAD(&s.hold) == 0)
		assert_true(ct_now_ms() < deadline);
	assert_int_equal(cpu_send(&cp, s.id, 8, 8), -EAGAIN);
	ct_progress_for(f.pe, 5);
	assert_int_equal(cpu_send(&cp, s.id, 8, 8), -EAGAIN);
	assert_int_equal(LOAD(&s.got), 0);
	/* From now on it takes them and offers each receive again. */
	STORE(&s.prime_only, 0);
	STORE(&s.hold, 0);
	assert_int_equal(rte_comch_dpa_thread_notify(f.t), 0);
	/* Immediate data longer than the consumer takes (16), or than anyone (32). */
	assert_int_equal(cpu_send(&cp, s.id, 8, 17), -EMSGSIZE);
	assert_int_equal(cpu_send(&cp, s.id, 8, 33), -EMSGSIZE);
	/* An id the MsgQ never had; 0, which no consumer ever has (ids start at 1). */
	assert_int_equal(cpu_send(&cp, 5, 8, 8), -ENOENT);
	assert_int_equal(s.id, 1);
	assert_int_equal(cpu_send(&cp, 0, 8, 8), -ENOENT);
	/* (Whether the producer outruns the program now is timing: not checked.) */
	send_all(&f, &cp, s.id, 8, 1000);
	wait_u64(&f, &s.got, 1000);
	assert_int_equal(LOAD(&s.got), 1000);
	assert_int_equal(LOAD(&s.bad), 0);
	assert_int_equal(LOAD(&s.err), 0);
	assert_int_equal(cp.ok, 1000);
	assert_int_equal(cp.err, 0);
	cpu_to_dpa_down(&f, cp.p, c);
}

/* Messages seq .. seq + n - 1 of 8-byte sequence numbers, immediate data only. */
static void
burst_fill(struct rte_comch_fp_msg *msgs, uint64_t seq, unsigned int n)
{
	unsigned int i;

	memset(msgs, 0, n * sizeof(*msgs));
	for (i = 0; i < n; i++, seq++) {
		msgs[i].imm_len = sizeof(seq);
		memcpy(msgs[i].imm, &seq, sizeof(seq));
	}
}

/* Burst sends of seq numbers [*seq, to) from p, up to 8 a call, progressing between. */
static void
burst_send_all(struct fx *f, struct rte_comch_producer *p, uint32_t cons_id, uint64_t *seq,
	       uint64_t to)
{
	uint64_t deadline = ct_now_ms() + 120000;
	struct rte_comch_fp_msg msgs[8];
	int rc;

	while (*seq < to) {
		burst_fill(msgs, *seq, RTE_MIN(to - *seq, RTE_DIM(msgs)));
		rc = rte_comch_producer_send_burst(p, cons_id, NULL, msgs,
						   RTE_MIN(to - *seq, RTE_DIM(msgs)));
		assert_true(rc >= 0);
		*seq += rc;
		rte_comch_pe_progress(f->pe);
		assert_true(ct_now_ms() < deadline);
	}
}

/*
 * A CPU producer in burst mode: immediate data only, in order, each message
 * within the receives the program offered (none sent beyond them, none lost),
 * each completed once.
 */
static void
test_msgq_cpu_to_dpa_burst(void **state)
{
	struct dpa_cons s = { .hold = 1, .prime_only = 1 };
	struct rte_comch_fp_msg msgs[8];
	struct rte_comch_consumer *c;
	struct rte_comch_producer *p;
	struct rte_comch_mmap *mmap;
	static uint8_t mem[4096];
	uint64_t seq = 0, deadline;
	int status[16];
	struct fx f;
	int i, rc;

	RTE_SET_USED(state);
	c = cpu_to_dpa_up(&f, &s, 64, 8, 16);
	p = rte_comch_msgq_producer_create(f.q);
	assert_non_null(p);
	assert_int_equal(rte_comch_producer_burst_enable(p), 0);
	ctx_start(&f, rte_comch_producer_as_ctx(p));
	/* Nothing offered yet: none sent. */
	burst_fill(msgs, 0, 8);
	assert_int_equal(rte_comch_producer_send_burst(p, s.id, NULL, msgs, 8), 0);
	/* The program offers 8 receives and takes nothing: exactly 8 go, then none. */
	STORE(&s.hold, 0);
	assert_int_equal(rte_comch_dpa_thread_notify(f.t), 0);
	deadline = ct_now_ms() + CT_TIMEOUT_MS;
	while (seq < 8) {
		burst_fill(msgs, seq, 8);
		rc = rte_comch_producer_send_burst(p, s.id, NULL, msgs, 8);
		assert_true(rc >= 0 && seq + rc <= 8);
		seq += rc;
		assert_true(ct_now_ms() < deadline);
	}
	while (LOAD(&s.hold) == 0)
		assert_true(ct_now_ms() < deadline);
	burst_fill(msgs, seq, 8);
	assert_int_equal(rte_comch_producer_send_burst(p, s.id, NULL, msgs, 8), 0);
	/* Each send completed once, successfully. */
	memset(status, 0xff, sizeof(status));
	assert_int_equal(rte_comch_producer_completed_burst(p, status, RTE_DIM(status)), 8);
	for (i = 0; i < 8; i++)
		assert_int_equal(status[i], 0);
	assert_int_equal(rte_comch_producer_completed_burst(p, status, RTE_DIM(status)), 0);
	/* Let the program take them and give its receives back as it goes. */
	STORE(&s.prime_only, 0);
	STORE(&s.hold, 0);
	assert_int_equal(rte_comch_dpa_thread_notify(f.t), 0);
	wait_u64(&f, &s.got, 8);
	/*
	 * Immediate data only: no mmap, even one registered with the device (the
	 * generic check refuses one that is not), no data; nor more than the
	 * consumer takes.
	 */
	mmap = rte_comch_mmap_create();
	assert_non_null(mmap);
	assert_int_equal(rte_comch_mmap_add_dev(mmap, dev), 0);
	assert_int_equal(rte_comch_mmap_set_memrange(mmap, mem, sizeof(mem)), 0);
	assert_int_equal(rte_comch_mmap_start(mmap), 0);
	burst_fill(msgs, seq, 3);
	assert_int_equal(rte_comch_producer_send_burst(p, s.id, mmap, msgs, 3), -EINVAL);
	msgs[0].data = mem;
	msgs[0].len = 64;
	assert_int_equal(rte_comch_producer_send_burst(p, s.id, NULL, msgs, 3), -EMSGSIZE);
	burst_fill(msgs, seq, 3);
	msgs[0].imm_len = 17;
	assert_int_equal(rte_comch_producer_send_burst(p, s.id, NULL, msgs, 3), -EMSGSIZE);
	burst_fill(msgs, seq, 3);
	assert_int_equal(rte_comch_producer_send_burst(p, 5, NULL, msgs, 3), -ENOENT);
	assert_int_equal(rte_comch_producer_send_burst(p, s.id, NULL, NULL, 3), -EINVAL);
	/* A message with data ends the burst before it: 8 receives are offered now. */
	msgs[2].data = mem;
	msgs[2].len = 1;
	assert_int_equal(rte_comch_producer_send_burst(p, s.id, NULL, msgs, 3), 2);
	seq += 2;
	/* A thousand more, in order, none lost. */
	burst_send_all(&f, p, s.id, &seq, seq + 1000);
	wait_u64(&f, &s.got, seq);
	assert_int_equal(LOAD(&s.got), seq);
	assert_int_equal(LOAD(&s.bad), 0);
	assert_int_equal(LOAD(&s.err), 0);
	assert_int_equal(s.next_seq[1], seq);
	/* A DPA consumer has no burst API: its program receives. */
	assert_int_equal(rte_comch_consumer_burst_enable(c, 8), -ENOTSUP);
	assert_int_equal(rte_comch_mmap_stop(mmap), 0);
	assert_int_equal(rte_comch_mmap_destroy(mmap), 0);
	cpu_to_dpa_down(&f, p, c);
}

/* A slow program (50 us a message, 4 receives): the producer waits, nothing is lost. */
static void
test_msgq_slow_program(void **state)
{
	struct rte_comch_consumer *c;
	struct dpa_cons s = { .slow_us = 50 };
	struct cpu_prod cp;
	uint64_t again;
	struct fx f;

	RTE_SET_USED(state);
	c = cpu_to_dpa_up(&f, &s, 4, 4, 8);
	cpu_prod_new(&f, &cp, 16);
	again = send_all(&f, &cp, s.id, 0, 2000);
	wait_u64(&f, &s.got, 2000);
	assert_int_equal(LOAD(&s.bad), 0);
	assert_int_equal(cp.ok, 2000);
	/* It was held back: the producer met a full consumer many times. */
	assert_true(again > 100);
	print_message("  slow program: 2000 messages, %" PRIu64 " refusals (-EAGAIN)\n", again);
	cpu_to_dpa_down(&f, cp.p, c);
}

/* A DPA consumer stopped while the producer sends: -ENOENT after, then a restart works. */
static void
test_msgq_consumer_stop_restart(void **state)
{
	struct rte_comch_consumer *c;
	struct dpa_cons s = { 0 };
	struct cpu_prod cp;
	struct fx f;
	int rc;

	RTE_SET_USED(state);
	c = cpu_to_dpa_up(&f, &s, 64, 32, 8);
	cpu_prod_new(&f, &cp, 32);
	send_all(&f, &cp, s.id, 0, 100);
	wait_u64(&f, &s.got, 100);
	assert_int_equal(rte_comch_ctx_stop(rte_comch_consumer_as_ctx(c)), -EINPROGRESS);
	/* Stopping: its grace period needs our producer's progress, which this loop gives. */
	do {
		rte_comch_pe_progress(f.pe);
		rc = cpu_send(&cp, s.id, 100, 8);
	} while (rc == 0 || rc == -EAGAIN);
	assert_int_equal(rc, -ENOENT);
	assert_int_equal(ct_wait_state(f.pe, rte_comch_consumer_as_ctx(c),
				       RTE_COMCH_CTX_STATE_IDLE, CT_TIMEOUT_MS), 0);
	/* Started again: a fresh receive state, the program offers again. */
	s.primed = 0;
	memset(s.next_seq, 0, sizeof(s.next_seq));
	STORE(&s.got, 0);
	assert_int_equal(rte_comch_ctx_start(rte_comch_consumer_as_ctx(c)), 0);
	assert_int_equal(rte_comch_dpa_thread_notify(f.t), 0);
	cp.ok = 0;
	send_all(&f, &cp, s.id, 0, 100);
	wait_u64(&f, &s.got, 100);
	assert_int_equal(LOAD(&s.bad), 0);
	cpu_to_dpa_down(&f, cp.p, c);
}

/* ------------------------------------------------------------ DPA -> CPU */

/* What a DPA producer's program sends: seq numbers [sent, limit) to one consumer. */
struct dpa_prod {
	rte_comch_dpa_handle_t prod_h, cq_h;
	uint32_t cons_id;
	uint64_t limit;         /* written by the CPU */
	uint64_t sent, again, cpl;
	int err;
};

static void
prog_dpa_producer(uint64_t arg)
{
	struct dpa_prod *s = (void *)(uintptr_t)arg;
	struct rte_comch_dpa_cqe e;
	uint64_t limit = LOAD(&s->limit);
	uint32_t n = 0;
	int rc;

	/* Completions of earlier sends first: they make room for more. */
	while (rte_comch_dpa_dev_get_completion(s->cq_h, &e) == 1)
		n++;
	if (n != 0) {
		rte_comch_dpa_dev_completion_ack(s->cq_h, n);
		STORE(&s->cpl, s->cpl + n);
	}
	while (s->sent < limit) {
		rc = rte_comch_dpa_dev_producer_post_send_imm_only(s->prod_h, s->cons_id,
						&s->sent, sizeof(s->sent),
						RTE_COMCH_DPA_DEV_SUBMIT_FLAG_COMPLETION);
		if (rc == -EAGAIN) {
			STORE(&s->again, s->again + 1);
			break;
		}
		if (rc < 0) {
			STORE(&s->err, rc);
			break;
		}
		STORE(&s->sent, s->sent + 1);
	}
	rte_comch_dpa_dev_completion_request_notification(s->cq_h);
}

struct cpu_cons {
	struct rte_comch_consumer *c;
	uint64_t got, bad, next_seq, flushed;
	uint32_t id;            /* the consumer's */
	uint32_t pid;           /* the producer's its messages must come from */
	bool repost;
};

static void
cons_ok(struct rte_comch_consumer_task_post_recv *task, union rte_comch_data task_ud,
	union rte_comch_data ctx_ud)
{
	struct cpu_cons *cc = ctx_ud.ptr;
	const uint8_t *imm;
	uint32_t len, pid = UINT32_MAX;
	uint64_t seq;

	RTE_SET_USED(task_ud);
	imm = rte_comch_consumer_task_post_recv_get_imm_data(task, &len);
	memcpy(&seq, imm, sizeof(seq));
	rte_comch_consumer_task_post_recv_get_producer_id(task, &pid);
	if (len != sizeof(seq) || seq != cc->next_seq || pid != cc->pid)
		cc->bad++;
	cc->next_seq = seq + 1;
	cc->got++;
	if (cc->repost && rte_comch_task_submit(rte_comch_consumer_task_post_recv_as_task(task))
	    == 0)
		return;
	rte_comch_task_free(rte_comch_consumer_task_post_recv_as_task(task));
}

static void
cons_err(struct rte_comch_consumer_task_post_recv *task, union rte_comch_data task_ud,
	 union rte_comch_data ctx_ud)
{
	struct cpu_cons *cc = ctx_ud.ptr;

	RTE_SET_USED(task_ud);
	cc->flushed++;
	rte_comch_task_free(rte_comch_consumer_task_post_recv_as_task(task));
}

/* A started CPU consumer with n receives posted. */
static void
cpu_cons_new(struct fx *f, struct cpu_cons *cc, uint32_t n)
{
	struct rte_comch_consumer_task_post_recv *t;
	uint32_t i;

	cc->c = rte_comch_msgq_consumer_create(f->q);
	assert_non_null(cc->c);
	assert_int_equal(rte_comch_consumer_get_id(cc->c, &cc->id), 0);
	assert_int_equal(rte_comch_consumer_set_imm_data_len(cc->c, 8), 0);
	assert_int_equal(rte_comch_consumer_task_post_recv_set_conf(cc->c, cons_ok, cons_err, n),
			 0);
	assert_int_equal(rte_comch_ctx_set_user_data(rte_comch_consumer_as_ctx(cc->c),
						     (union rte_comch_data){ .ptr = cc }), 0);
	ctx_start(f, rte_comch_consumer_as_ctx(cc->c));
	for (i = 0; i < n; i++) {
		assert_int_equal(rte_comch_consumer_task_post_recv_alloc_init(cc->c, NULL, &t), 0);
		assert_int_equal(rte_comch_task_submit(rte_comch_consumer_task_post_recv_as_task(t)),
				 0);
	}
}

/* Progress until cc got want, notifying the DPA producer's thread as receives are reposted. */
static void
pump_dpa_to_cpu(struct fx *f, struct cpu_cons *cc, uint64_t want)
{
	uint64_t deadline = ct_now_ms() + 120000, last = UINT64_MAX;

	while (cc->got < want) {
		if (cc->got != last) {
			last = cc->got;
			assert_int_equal(rte_comch_dpa_thread_notify(f->t), 0);
		}
		rte_comch_pe_progress(f->pe);
		assert_true(ct_now_ms() < deadline);
	}
}

/* f up, with a DPA -> CPU MsgQ started, and a thread running prog_dpa_producer(s). */
static void
dpa_to_cpu_up(struct fx *f, struct dpa_prod *s)
{
	fx_up(f);
	fx_thread(f, prog_dpa_producer, s, 2 * WINDOW);
	assert_int_equal(rte_comch_msgq_set_dpa_producer(f->q, rte_comch_dpa_as_accel(f->dpa)),
			 0);
	assert_int_equal(rte_comch_msgq_start(f->q), 0);
}

/* Stop and destroy a DPA -> CPU test's DPA producer (its consumer is gone), and take f down. */
static void
dpa_to_cpu_down(struct fx *f, struct rte_comch_producer *p)
{
	ctx_stop(f, rte_comch_producer_as_ctx(p));
	assert_int_equal(rte_comch_producer_destroy(p), 0);
	fx_down(f);
}

/* A DPA producer whose program sends to cc, which checks it gets its id. */
static struct rte_comch_producer *
dpa_prod_new(struct fx *f, struct dpa_prod *s, struct cpu_cons *cc)
{
	struct rte_comch_producer *p = rte_comch_msgq_producer_create(f->q);

	assert_non_null(p);
	assert_int_equal(rte_comch_dpa_producer_completion_attach(p, f->cq, 0xfeed), 0);
	assert_int_equal(rte_comch_dpa_producer_set_dev_max_num_send(p, WINDOW), 0);
	assert_int_equal(rte_comch_dpa_producer_get_dpa_handle(p, &s->prod_h), 0);
	assert_int_equal(rte_comch_producer_get_id(p, &cc->pid), 0);
	s->cons_id = cc->id;
	s->cq_h = f->cq_h;
	/* A DPA producer: its program sends, not the CPU. */
	assert_int_equal(rte_comch_producer_task_send_alloc_init(p, NULL, NULL, 0, 0, NULL),
			 -EINVAL);
	ctx_start(f, rte_comch_producer_as_ctx(p));
	return p;
}

/* Sends beyond the posted receives wait; the consumer's stop returns what is still posted. */
static void
test_msgq_dpa_to_cpu(void **state)
{
	struct rte_comch_producer_task_send *st;
	struct rte_comch_producer *p;
	struct dpa_prod s = { 0 };
	struct cpu_cons cc = { 0 };
	struct fx f;

	RTE_SET_USED(state);
	dpa_to_cpu_up(&f, &s);
	cpu_cons_new(&f, &cc, 8);
	p = dpa_prod_new(&f, &s, &cc);
	assert_int_equal(rte_comch_producer_task_send_alloc_init(p, NULL, NULL, 0, 0, &st),
			 -ENOTSUP);
	assert_int_equal(rte_comch_producer_burst_enable(p), -ENOTSUP);
	/* 20 to send, 8 posted: 8 arrive, the rest wait (-EAGAIN in the program). */
	STORE(&s.limit, 20);
	assert_int_equal(rte_comch_dpa_thread_notify(f.t), 0);
	wait_u64(&f, &cc.got, 8);
	ct_progress_for(f.pe, 20);
	assert_int_equal(cc.got, 8);
	assert_int_equal(LOAD(&s.sent), 8);
	assert_true(LOAD(&s.again) > 0);
	assert_int_equal(cc.bad, 0);
	/* Repost as they come: the program sends the rest when told. */
	cc.repost = true;
	{
		struct rte_comch_consumer_task_post_recv *t;
		uint32_t i;

		for (i = 0; i < 8; i++) {
			assert_int_equal(rte_comch_consumer_task_post_recv_alloc_init(cc.c, NULL,
										    &t), 0);
			assert_int_equal(rte_comch_task_submit(
				rte_comch_consumer_task_post_recv_as_task(t)), 0);
		}
	}
	/* Each repost is worth telling the program about (a posted receive rings nobody). */
	pump_dpa_to_cpu(&f, &cc, 20);
	assert_int_equal(cc.bad, 0);
	assert_int_equal(LOAD(&s.err), 0);
	/* Stopping the consumer returns the receives still posted, with an error. */
	ct_ctx_stop_wait(f.pe, rte_comch_consumer_as_ctx(cc.c));
	assert_int_equal(cc.flushed, 8);
	assert_int_equal(rte_comch_consumer_destroy(cc.c), 0);
	dpa_to_cpu_down(&f, p);
}

/* Receives of cc in burst mode until *next reaches want, in order; reposted if repost. */
static void
burst_recv_until(struct fx *f, struct cpu_cons *cc, uint64_t *next, uint64_t want, bool repost)
{
	uint64_t deadline = ct_now_ms() + 120000, seq;
	struct rte_comch_fp_post posts[16];
	struct rte_comch_fp_cpl cpl[16];
	int i, n;

	memset(posts, 0, sizeof(posts));
	while (*next < want) {
		rte_comch_pe_progress(f->pe);
		n = rte_comch_consumer_recv_burst(cc->c, cpl, RTE_DIM(cpl));
		assert_true(n >= 0);
		for (i = 0; i < n; i++) {
			memcpy(&seq, cpl[i].imm, sizeof(seq));
			assert_int_equal(cpl[i].status, 0);
			assert_int_equal(cpl[i].cookie, *next % 8);
			assert_int_equal(cpl[i].imm_len, sizeof(seq));
			assert_int_equal(cpl[i].producer_id, cc->pid);
			assert_int_equal(cpl[i].len, 0);
			assert_int_equal(seq, *next);
			(*next)++;
			posts[i].cookie = cpl[i].cookie;
		}
		if (repost && n > 0) {
			assert_int_equal(rte_comch_consumer_post_burst(cc->c, posts, n), n);
			/* A post rings nobody: tell the program there is room. */
			assert_int_equal(rte_comch_dpa_thread_notify(f->t), 0);
		}
		assert_true(ct_now_ms() < deadline);
	}
}

/*
 * A CPU consumer in burst mode: receives posted without a buffer, filled in
 * order, each with the DPA producer's id and immediate data, never beyond
 * those posted; its stop gives back what is still posted.
 */
static void
test_msgq_dpa_to_cpu_burst(void **state)
{
	struct rte_comch_fp_post posts[8];
	struct rte_comch_fp_cpl cpl[16];
	struct rte_comch_producer *p;
	struct dpa_prod s = { 0 };
	struct cpu_cons cc = { 0 };
	enum rte_comch_ctx_state st;
	static uint8_t mem[64];
	uint64_t next = 0, deadline;
	uint32_t i, aborted = 0;
	struct fx f;
	int n, rc;

	RTE_SET_USED(state);
	dpa_to_cpu_up(&f, &s);
	cc.c = rte_comch_msgq_consumer_create(f.q);
	assert_non_null(cc.c);
	assert_int_equal(rte_comch_consumer_get_id(cc.c, &cc.id), 0);
	assert_int_equal(rte_comch_consumer_set_imm_data_len(cc.c, 8), 0);
	assert_int_equal(rte_comch_consumer_burst_enable(cc.c, 8), 0);
	ctx_start(&f, rte_comch_consumer_as_ctx(cc.c));
	p = dpa_prod_new(&f, &s, &cc);
	/* No buffer on a MsgQ: a post with one is refused, and ends a burst before it. */
	memset(posts, 0, sizeof(posts));
	for (i = 0; i < RTE_DIM(posts); i++)
		posts[i].cookie = i;
	posts[0].addr = mem;
	posts[0].len = sizeof(mem);
	assert_int_equal(rte_comch_consumer_post_burst(cc.c, posts, 8), -EINVAL);
	posts[0].addr = NULL;
	posts[0].len = 0;
	posts[3].addr = mem;
	posts[3].len = 1;
	assert_int_equal(rte_comch_consumer_post_burst(cc.c, posts, 8), 3);
	posts[3].addr = NULL;
	posts[3].len = 0;
	assert_int_equal(rte_comch_consumer_post_burst(cc.c, posts + 3, 5), 5);
	/* max_posts (8) outstanding: none more. */
	assert_int_equal(rte_comch_consumer_post_burst(cc.c, posts, 1), 0);
	/* 20 to send, 8 posted: 8 arrive, in order, the rest wait (-EAGAIN in the program). */
	STORE(&s.limit, 20);
	assert_int_equal(rte_comch_dpa_thread_notify(f.t), 0);
	burst_recv_until(&f, &cc, &next, 8, false);
	ct_progress_for(f.pe, 20);
	assert_int_equal(rte_comch_consumer_recv_burst(cc.c, cpl, RTE_DIM(cpl)), 0);
	assert_int_equal(LOAD(&s.sent), 8);
	assert_true(LOAD(&s.again) > 0);
	/* Posted again as they come: the rest arrive. */
	assert_int_equal(rte_comch_consumer_post_burst(cc.c, posts, 8), 8);
	assert_int_equal(rte_comch_dpa_thread_notify(f.t), 0);
	burst_recv_until(&f, &cc, &next, 20, true);
	assert_int_equal(LOAD(&s.err), 0);
	/* Stopping gives back the 8 still posted, with -ECONNABORTED, then IDLE. */
	rc = rte_comch_ctx_stop(rte_comch_consumer_as_ctx(cc.c));
	assert_true(rc == 0 || rc == -EINPROGRESS);
	deadline = ct_now_ms() + CT_TIMEOUT_MS;
	do {
		rte_comch_pe_progress(f.pe);
		n = rte_comch_consumer_recv_burst(cc.c, cpl, RTE_DIM(cpl));
		for (i = 0; n > 0 && i < (uint32_t)n; i++) {
			assert_int_equal(cpl[i].status, -ECONNABORTED);
			aborted++;
		}
		assert_int_equal(rte_comch_ctx_get_state(rte_comch_consumer_as_ctx(cc.c), &st), 0);
		assert_true(ct_now_ms() < deadline);
	} while (st != RTE_COMCH_CTX_STATE_IDLE);
	assert_int_equal(aborted, 8);
	assert_int_equal(rte_comch_consumer_destroy(cc.c), 0);
	dpa_to_cpu_down(&f, p);
}

/*
 * No wake-up lost: each round the program sends one message while the CPU
 * arms its engine and sleeps, the two racing. Either the arming sees the
 * message (-EAGAIN: progress), or the fill sees the engine armed and wakes it:
 * a sleep that times out is a lost wake-up.
 */
static void
test_msgq_dpa_to_cpu_wake_race(void **state)
{
	struct pollfd pfd = { .events = POLLIN };
	struct rte_comch_producer *p;
	struct dpa_prod s = { 0 };
	struct cpu_cons cc = { 0 };
	uint64_t round, deadline, slept = 0;
	struct fx f;
	int rc;

	RTE_SET_USED(state);
	dpa_to_cpu_up(&f, &s);
	cpu_cons_new(&f, &cc, 8);
	cc.repost = true;
	p = dpa_prod_new(&f, &s, &cc);
	assert_int_equal(rte_comch_pe_get_notification_fd(f.pe, &pfd.fd), 0);
	for (round = 1; round <= WAKE_ROUNDS; round++) {
		STORE(&s.limit, round);
		assert_int_equal(rte_comch_dpa_thread_notify(f.t), 0);
		deadline = ct_now_ms() + CT_TIMEOUT_MS;
		while (cc.got < round) {
			rc = rte_comch_pe_request_notification(f.pe);
			if (rc == 0) {
				/* Armed: the message can only have come since, and must wake us. */
				assert_int_equal(poll(&pfd, 1, CT_TIMEOUT_MS), 1);
				assert_int_equal(rte_comch_pe_clear_notification(f.pe), 0);
				slept++;
			} else {
				assert_int_equal(rc, -EAGAIN);
			}
			rte_comch_pe_progress(f.pe);
			assert_true(ct_now_ms() < deadline);
		}
	}
	assert_int_equal(cc.got, WAKE_ROUNDS);
	assert_int_equal(cc.bad, 0);
	assert_int_equal(LOAD(&s.err), 0);
	/* Both ways of the race were run (the sleep, at least sometimes). */
	assert_true(slept > 0);
	ct_ctx_stop_wait(f.pe, rte_comch_consumer_as_ctx(cc.c));
	assert_int_equal(rte_comch_consumer_destroy(cc.c), 0);
	dpa_to_cpu_down(&f, p);
}

/* ------------------------------------------------------------ stress */

/* Millions each way with sequence checks: CPU -> DPA, then DPA -> CPU. */
static void
test_msgq_stress(void **state)
{
	struct rte_comch_consumer *c;
	struct rte_comch_producer *p;
	struct dpa_cons dc = { 0 };
	struct dpa_prod dp = { 0 };
	struct cpu_cons cc = { .repost = true };
	struct cpu_prod cp;
	uint64_t t0;
	struct fx f;

	RTE_SET_USED(state);
	/* CPU -> DPA */
	c = cpu_to_dpa_up(&f, &dc, 2 * WINDOW, WINDOW, 8);
	cpu_prod_new(&f, &cp, 256);
	t0 = ct_now_ms();
	send_all(&f, &cp, dc.id, 0, STRESS_MSGS);
	wait_u64(&f, &dc.got, STRESS_MSGS);
	print_message("  CPU -> DPA: %u messages in %" PRIu64 " ms\n", STRESS_MSGS,
		      ct_now_ms() - t0);
	assert_int_equal(LOAD(&dc.bad), 0);
	assert_int_equal(dc.next_seq[1], STRESS_MSGS); /* the one producer: id 1 */
	assert_int_equal(cp.ok, STRESS_MSGS);
	cpu_to_dpa_down(&f, cp.p, c);
	/* DPA -> CPU: the CPU reposts each receive and tells the program when it did. */
	dpa_to_cpu_up(&f, &dp);
	cpu_cons_new(&f, &cc, WINDOW);
	p = dpa_prod_new(&f, &dp, &cc);
	STORE(&dp.limit, STRESS_MSGS);
	t0 = ct_now_ms();
	pump_dpa_to_cpu(&f, &cc, STRESS_MSGS);
	print_message("  DPA -> CPU: %" PRIu64 " messages in %" PRIu64 " ms\n", cc.got,
		      ct_now_ms() - t0);
	assert_int_equal(cc.got, STRESS_MSGS);
	assert_int_equal(cc.bad, 0);
	assert_int_equal(LOAD(&dp.err), 0);
	ct_ctx_stop_wait(f.pe, rte_comch_consumer_as_ctx(cc.c));
	assert_int_equal(rte_comch_consumer_destroy(cc.c), 0);
	dpa_to_cpu_down(&f, p);
}

/* ------------------------------------------------------------ main */

static int
msgq_group_setup(void **state)
{
	if (ct_group_setup(state) != 0)
		return -1;
	if (rte_service_lcore_add(1) != 0 || rte_service_lcore_start(1) != 0)
		return -1;
	return ct_dpa_devs_open(&dev, &skel_dev);
}

static int
msgq_group_teardown(void **state)
{
	ct_dpa_devs_close(dev, skel_dev);
	rte_service_lcore_stop(1);
	rte_service_lcore_del(1);
	return ct_group_teardown(state);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_msgq_errors),
		cmocka_unit_test(test_msgq_foreign_dpa),
		cmocka_unit_test(test_msgq_accel_handles),
		cmocka_unit_test(test_msgq_objects),
		cmocka_unit_test(test_msgq_consumer_completion_limits),
		cmocka_unit_test(test_msgq_cpu_to_dpa_credits),
		cmocka_unit_test(test_msgq_cpu_to_dpa_burst),
		cmocka_unit_test(test_msgq_slow_program),
		cmocka_unit_test(test_msgq_consumer_stop_restart),
		cmocka_unit_test(test_msgq_dpa_to_cpu),
		cmocka_unit_test(test_msgq_dpa_to_cpu_burst),
		cmocka_unit_test(test_msgq_dpa_to_cpu_wake_race),
		cmocka_unit_test(test_msgq_stress),
	};

	if (getenv("COMCH_TEST_FILTER") != NULL)
		cmocka_set_test_filter(getenv("COMCH_TEST_FILTER"));
	return cmocka_run_group_tests_name("comch_msgq", tests, msgq_group_setup,
					   msgq_group_teardown);
}
