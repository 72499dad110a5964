/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The "dpa" driver (drivers/comch/dpa, dpa_drv*.c, dpa_msgq_*.c): devargs,
 * memory and its DPA handles, the CPU-side configuration of DPA consumers and
 * producers (rte_comch_dpa_msgq.h), the device-side MsgQ calls with every
 * error, and MsgQs end to end through rte_comch_msgq_*(): CPU producers to a
 * DPA consumer (credits from consumer_ack, back-pressure), DPA producers to a
 * CPU consumer (post_send, dma_copy, completions, waking a sleeping engine),
 * and many DPA threads sending at once.
 *
 * Device-side calls are made from inside a DPA program by a "runner": a DPA
 * thread whose program calls the function the test hands it (in_dpa()).
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
#include <rte_log.h>
#include <rte_pause.h>
#include <rte_service.h>

#include <rte_comch_dpa.h>
#include <rte_comch_dpa_dev.h>
#include <rte_comch_dpa_msgq.h>

#include "comch_test_common.h"
#include "comch_test_dpa.h"

#define LOAD(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define INC(p) __atomic_fetch_add((p), 1, __ATOMIC_ACQ_REL)

static struct rte_comch_dev *dpa_dev;   /* "dpa:name=t<pid>" */
static struct rte_comch_dev *skel_dev;  /* a device of another driver */

/* ------------------------------------------------------------ the runner */

typedef int (*dev_call_t)(void *arg);

/* A DPA thread that runs, at each trigger, the call the test handed it. */
struct runner {
	struct rte_comch_dpa_thread *t;
	dev_call_t fn;
	void *arg;
	int rc;
	uint64_t done;
};

static void
prog_runner(uint64_t arg)
{
	struct runner *r = (struct runner *)(uintptr_t)arg;
	dev_call_t fn = LOAD(&r->fn);

	if (fn != NULL) {
		STORE(&r->fn, NULL);
		STORE(&r->rc, fn(LOAD(&r->arg)));
		INC(&r->done);
	}
}

static void
runner_new(struct runner *r, struct rte_comch_dpa *dpa)
{
	memset(r, 0, sizeof(*r));
	r->t = ct_dpa_thread_new(dpa, prog_runner, r, 0, true);
}

/* Run fn(arg) inside a DPA program and return what it returned. */
static int
in_dpa(struct runner *r, dev_call_t fn, void *arg)
{
	uint64_t want = LOAD(&r->done) + 1;

	STORE(&r->arg, arg);
	STORE(&r->fn, fn);
	assert_int_equal(rte_comch_dpa_thread_notify(r->t), 0);
	if (!ct_dpa_wait_ge(&r->done, want))
		fail_msg("the DPA program did not run");
	return LOAD(&r->rc);
}

/* ------------------------------------------------------------ devargs */

static void
test_drv_open(void **state)
{
	char name[64];
	const char *bad[] = {
		"dpa:role=bluefield", "dpa:bogus=1", "dpa:name=", "dpa:role=",
		"dpa:role=host,role=dpu", "dpa:name=a,name=b", name,
	};
	struct rte_comch_dev_info info;
	struct rte_comch_dev *d;
	unsigned int i;

	(void)state;
	assert_int_equal(rte_comch_dev_info_get(dpa_dev, &info), 0);
	assert_string_equal(info.driver_name, "dpa");
	assert_int_equal(info.role, RTE_COMCH_ROLE_HOST);
	assert_true((info.capa & RTE_COMCH_CAPA_MSGQ) != 0);
	assert_true((info.capa & RTE_COMCH_CAPA_PRODUCER) != 0);
	assert_true((info.capa & RTE_COMCH_CAPA_CONSUMER) != 0);
	assert_true((info.capa & RTE_COMCH_CAPA_SLEEP) != 0);
	assert_true((info.capa & (RTE_COMCH_CAPA_SERVER | RTE_COMCH_CAPA_CLIENT)) == 0);
	assert_int_equal(info.max_producers, RTE_COMCH_MSGQ_MAX);
	assert_int_equal(info.max_consumers, RTE_COMCH_MSGQ_MAX);
	assert_int_equal(info.max_imm_data_len, 32);
	assert_true(info.max_fast_tasks >= 1024);

	/* no keys: the host role, named after it */
	d = rte_comch_dev_open("dpa:");
	assert_non_null(d);
	assert_int_equal(rte_comch_dev_info_get(d, &info), 0);
	assert_string_equal(info.name, "dpa_host");
	/* names are unique in a process */
	rte_errno = 0;
	assert_null(rte_comch_dev_open("dpa:role=host"));
	assert_int_equal(rte_errno, EEXIST);
	assert_int_equal(rte_comch_dev_close(d), 0);
	d = rte_comch_dev_open("dpa:role=dpu,name=bf3");
	assert_non_null(d);
	assert_int_equal(rte_comch_dev_info_get(d, &info), 0);
	assert_string_equal(info.name, "dpa_bf3");
	assert_int_equal(info.role, RTE_COMCH_ROLE_DPU);
	assert_int_equal(rte_comch_dev_close(d), 0);

	/* bad devargs */
	snprintf(name, sizeof(name), "dpa:name=%0*d", 33, 0); /* one character too long */
	for (i = 0; i < RTE_DIM(bad); i++) {
		rte_errno = 0;
		d = rte_comch_dev_open(bad[i]);
		if (d != NULL)
			fail_msg("\"%s\" opened", bad[i]);
		assert_int_equal(rte_errno, EINVAL);
	}
}

/* ------------------------------------------------------------ memory */

static struct rte_comch_mmap *
mk_mmap(struct rte_comch_dev *dev, size_t len, uint32_t perms, bool start)
{
	struct rte_comch_mmap *m = rte_comch_mmap_create();

	assert_non_null(m);
	if (dev != NULL)
		assert_int_equal(rte_comch_mmap_add_dev(m, dev), 0);
	assert_int_equal(rte_comch_mmap_alloc_memrange(m, len), 0);
	assert_int_equal(rte_comch_mmap_set_permissions(m, perms), 0);
	if (start)
		assert_int_equal(rte_comch_mmap_start(m), 0);
	return m;
}

static void
rm_mmap(struct rte_comch_mmap *m)
{
	rte_comch_mmap_stop(m); /* -EALREADY if not started: fine */
	assert_int_equal(rte_comch_mmap_destroy(m), 0);
}

/* arg: { mmap, dpa }. A CPU-side call: refused inside a program. */
static int
call_mmap_handle(void *arg)
{
	void **a = arg;
	rte_comch_dpa_handle_t h;

	return rte_comch_dpa_mmap_get_dpa_handle(a[1], a[0], &h);
}

static void
test_drv_mmap(void **state)
{
	const uint32_t rw = RTE_COMCH_MMAP_PERM_LOCAL_READ_WRITE |
			    RTE_COMCH_MMAP_PERM_PCI_READ_WRITE;
	struct rte_comch_dpa *dpa = ct_dpa_new(dpa_dev, RTE_COMCH_DPA_EXEC_PTHREAD, 1, 0, 0);
	struct rte_comch_dpa *sdpa = ct_dpa_new(skel_dev, RTE_COMCH_DPA_EXEC_PTHREAD, 1, 0, 0);
	struct rte_comch_mmap *m, *m2, *none;
	rte_comch_dpa_handle_t h, h2, h3;
	struct runner r;
	void *args[2];
	uint8_t *addr;
	size_t len, i;

	(void)state;
	/* the driver allocates zeroed, page-aligned memory */
	m = mk_mmap(dpa_dev, 10000, rw, false);
	assert_int_equal(rte_comch_mmap_get_memrange(m, (void **)&addr, &len), 0);
	assert_int_equal(len, 10000);
	assert_int_equal((uintptr_t)addr % (uintptr_t)sysconf(_SC_PAGESIZE), 0);
	for (i = 0; i < len; i++)
		if (addr[i] != 0)
			fail_msg("byte %zu is not zero", i);
	memset(addr, 0xab, len);
	/* not started: no registration, no handle */
	assert_int_equal(rte_comch_dpa_mmap_get_dpa_handle(dpa, m, &h), -EINVAL);
	assert_int_equal(rte_comch_mmap_start(m), 0);
	assert_int_equal(rte_comch_dpa_mmap_get_dpa_handle(dpa, m, &h), 0);
	assert_int_not_equal(h, RTE_COMCH_DPA_HANDLE_INVALID);
	assert_int_equal(rte_comch_dpa_mmap_get_dpa_handle(dpa, m, &h2), 0);
	assert_int_equal(h, h2);
	/* argument errors */
	assert_int_equal(rte_comch_dpa_mmap_get_dpa_handle(NULL, m, &h2), -EINVAL);
	assert_int_equal(rte_comch_dpa_mmap_get_dpa_handle(dpa, NULL, &h2), -EINVAL);
	assert_int_equal(rte_comch_dpa_mmap_get_dpa_handle(dpa, m, NULL), -EINVAL);
	/* a dpa of another driver's device reaches no mmap */
	assert_int_equal(rte_comch_dpa_mmap_get_dpa_handle(sdpa, m, &h2), -EINVAL);
	/* an mmap started without the dpa's device, or with none */
	m2 = mk_mmap(skel_dev, 4096, rw, true);
	assert_int_equal(rte_comch_dpa_mmap_get_dpa_handle(dpa, m2, &h2), -EINVAL);
	none = mk_mmap(NULL, 4096, rw, true);
	assert_int_equal(rte_comch_dpa_mmap_get_dpa_handle(dpa, none, &h2), -EINVAL);
	/* inside a program: -EPERM */
	assert_int_equal(rte_comch_dpa_start(dpa), 0);
	runner_new(&r, dpa);
	args[0] = m;
	args[1] = dpa;
	assert_int_equal(in_dpa(&r, call_mmap_handle, args), -EPERM);
	/* a restart registers again: the old handle is stale, the new one differs */
	assert_int_equal(rte_comch_mmap_stop(m), 0);
	assert_int_equal(rte_comch_dpa_mmap_get_dpa_handle(dpa, m, &h2), -EINVAL);
	assert_int_equal(rte_comch_mmap_start(m), 0);
	assert_int_equal(rte_comch_dpa_mmap_get_dpa_handle(dpa, m, &h3), 0);
	assert_int_not_equal(h, h3);
	/* the memory survived: it is the mmap's, not the registration's */
	assert_int_equal(addr[len - 1], 0xab);

	assert_int_equal(rte_comch_dpa_stop(dpa), 0);
	ct_dpa_thread_rm(r.t);
	rm_mmap(m);
	rm_mmap(m2);
	rm_mmap(none);
	assert_int_equal(rte_comch_dpa_destroy(dpa), 0);
	assert_int_equal(rte_comch_dpa_destroy(sdpa), 0);
}

/* ------------------------------------------------------------ device side, no MsgQ */

static void
test_dev_outside_program(void **state)
{
	uint8_t imm[4] = { 1, 2, 3, 4 };

	(void)state;
	assert_int_equal(rte_comch_dpa_dev_consumer_ack(1, 1), -EPERM);
	assert_int_equal(rte_comch_dpa_dev_producer_post_send_imm_only(1, 0, imm, 4, 0), -EPERM);
	assert_int_equal(rte_comch_dpa_dev_producer_dma_copy(1, 0, 2, 0, 3, 0, 0, imm, 4, 0),
			 -EPERM);
	assert_int_equal(rte_comch_dpa_dev_producer_is_consumer_empty(1, 0), -EPERM);
}

struct bad_handles {
	rte_comch_dpa_handle_t thread, cq, mem;
	int rc[14];
};

static int
call_bad_handles(void *arg)
{
	struct bad_handles *b = arg;
	uint8_t imm[4] = { 0 };
	int i = 0;

	b->rc[i++] = rte_comch_dpa_dev_consumer_ack(RTE_COMCH_DPA_HANDLE_INVALID, 1);
	b->rc[i++] = rte_comch_dpa_dev_consumer_ack(0x6301000100000000ull, 1); /* forged */
	b->rc[i++] = rte_comch_dpa_dev_consumer_ack(b->thread, 1);  /* another kind */
	b->rc[i++] = rte_comch_dpa_dev_consumer_ack(b->cq, 1);
	b->rc[i++] = rte_comch_dpa_dev_producer_post_send_imm_only(0, 0, imm, 4, 0);
	b->rc[i++] = rte_comch_dpa_dev_producer_post_send_imm_only(0x7001000100000000ull, 0,
								    imm, 4, 0);
	b->rc[i++] = rte_comch_dpa_dev_producer_post_send_imm_only(b->mem, 0, imm, 4, 0);
	b->rc[i++] = rte_comch_dpa_dev_producer_post_send_imm_only(b->thread, 0, imm, 4, 0);
	b->rc[i++] = rte_comch_dpa_dev_producer_dma_copy(0, 0, 0, 0, 0, 0, 0, imm, 4, 0);
	b->rc[i++] = rte_comch_dpa_dev_producer_dma_copy(b->cq, 0, b->mem, 0, b->mem, 0, 0,
							 imm, 4, 0);
	b->rc[i++] = rte_comch_dpa_dev_producer_is_consumer_empty(0, 0);
	b->rc[i++] = rte_comch_dpa_dev_producer_is_consumer_empty(b->cq, 0);
	b->rc[i++] = rte_comch_dpa_dev_producer_is_consumer_empty(0x70ffffffffffffffull, 0);
	b->rc[i++] = rte_comch_dpa_dev_consumer_ack(0x63ffffffffffffffull, 0);
	return 0;
}

static void
test_dev_bad_handles(void **state)
{
	struct rte_comch_dpa *dpa = ct_dpa_new(dpa_dev, RTE_COMCH_DPA_EXEC_PTHREAD, 1, 0, 0);
	struct bad_handles b = { 0 };
	struct rte_comch_dpa_cq *cq;
	struct runner r;
	unsigned int i;

	(void)state;
	runner_new(&r, dpa);
	assert_int_equal(rte_comch_dpa_thread_get_dpa_handle(r.t, &b.thread), 0);
	cq = ct_dpa_cq_new(dpa, 4, NULL, &b.cq);
	assert_int_equal(rte_comch_dpa_mem_alloc(dpa, 64, &b.mem), 0);
	assert_int_equal(rte_comch_dpa_start(dpa), 0);
	assert_int_equal(in_dpa(&r, call_bad_handles, &b), 0);
	for (i = 0; i < RTE_DIM(b.rc); i++)
		if (b.rc[i] != -EINVAL)
			fail_msg("call %u returned %d, expected -EINVAL", i, b.rc[i]);
	assert_int_equal(rte_comch_dpa_stop(dpa), 0);
	ct_dpa_thread_rm(r.t);
	assert_int_equal(rte_comch_dpa_cq_destroy(cq), 0);
	assert_int_equal(rte_comch_dpa_mem_free(dpa, b.mem), 0);
	assert_int_equal(rte_comch_dpa_destroy(dpa), 0);
}

/* ------------------------------------------------------------ MsgQ helpers */

static struct rte_comch_msgq *
mk_msgq(struct rte_comch_dpa *dpa, bool dpa_consumer, uint32_t max)
{
	struct rte_comch_msgq *q = rte_comch_msgq_create(dpa_dev);

	assert_non_null(q);
	if (dpa_consumer)
		assert_int_equal(rte_comch_msgq_set_dpa_consumer(q, rte_comch_dpa_as_accel(dpa)),
				 0);
	else
		assert_int_equal(rte_comch_msgq_set_dpa_producer(q, rte_comch_dpa_as_accel(dpa)),
				 0);
	assert_int_equal(rte_comch_msgq_set_max_num_consumers(q, max), 0);
	assert_int_equal(rte_comch_msgq_set_max_num_producers(q, max), 0);
	assert_int_equal(rte_comch_msgq_start(q), 0);
	return q;
}

static void
rm_msgq(struct rte_comch_msgq *q)
{
	assert_int_equal(rte_comch_msgq_stop(q), 0);
	assert_int_equal(rte_comch_msgq_destroy(q), 0);
}

static void
set_ud(struct rte_comch_ctx *ctx, void *p)
{
	union rte_comch_data ud = { .ptr = p };

	assert_int_equal(rte_comch_ctx_set_user_data(ctx, ud), 0);
}

/* Stop a context if it runs and progress until it is idle. */
static void
ctx_stop(struct rte_comch_pe *pe, struct rte_comch_ctx *ctx)
{
	enum rte_comch_ctx_state st;

	assert_int_equal(rte_comch_ctx_get_state(ctx, &st), 0);
	if (st == RTE_COMCH_CTX_STATE_IDLE)
		return;
	rte_comch_ctx_stop(ctx);
	assert_int_equal(ct_wait_state(pe, ctx, RTE_COMCH_CTX_STATE_IDLE, CT_TIMEOUT_MS), 0);
}

/* Start a context and progress until it runs. */
static void
ctx_start(struct rte_comch_pe *pe, struct rte_comch_ctx *ctx)
{
	int rc = rte_comch_ctx_start(ctx);

	if (rc != 0 && rc != -EINPROGRESS)
		fail_msg("start: %d", rc);
	assert_int_equal(ct_wait_state(pe, ctx, RTE_COMCH_CTX_STATE_RUNNING, CT_TIMEOUT_MS), 0);
}

#define LOG_MAX 64

/* A CPU consumer of a MsgQ and what its post-recv tasks saw. */
struct cpu_cons {
	struct rte_comch_consumer *c;
	struct rte_comch_pe *pe;
	uint32_t id;
	bool repost;                  /* submit each task again after its message */
	uint32_t nb_ok;
	uint32_t nb_err;
	int last_err;
	uint32_t nb_bad;              /* out of order, per producer (imm: a uint32_t seq) */
	uint32_t next_seq[RTE_COMCH_MSGQ_MAX + 1]; /* by producer id, 1 to the max */
	uint32_t prod_id[LOG_MAX];
	uint32_t imm_len[LOG_MAX];
	uint8_t imm[LOG_MAX][RTE_COMCH_MAX_IMM_DATA_LEN];
};

static void
recv_ok(struct rte_comch_consumer_task_post_recv *task, union rte_comch_data task_ud,
	union rte_comch_data ctx_ud)
{
	struct cpu_cons *cc = ctx_ud.ptr;
	struct rte_comch_task *t = rte_comch_consumer_task_post_recv_as_task(task);
	uint32_t i = cc->nb_ok % LOG_MAX, len, pid, seq;
	const uint8_t *imm = rte_comch_consumer_task_post_recv_get_imm_data(task, &len);

	assert_int_equal(rte_comch_consumer_task_post_recv_get_producer_id(task, &pid), 0);
	cc->prod_id[i] = pid;
	cc->imm_len[i] = len;
	memcpy(cc->imm[i], imm, sizeof(cc->imm[i]));
	if (cc->repost) {
		memcpy(&seq, imm, sizeof(seq));
		if (pid >= RTE_DIM(cc->next_seq) || seq != cc->next_seq[pid])
			cc->nb_bad++;
		else
			cc->next_seq[pid]++;
	}
	cc->nb_ok++;
	if (cc->repost && rte_comch_task_submit(t) == 0)
		return;
	rte_comch_task_free(t);
}

static void
recv_err(struct rte_comch_consumer_task_post_recv *task, union rte_comch_data task_ud,
	 union rte_comch_data ctx_ud)
{
	struct cpu_cons *cc = ctx_ud.ptr;
	struct rte_comch_task *t = rte_comch_consumer_task_post_recv_as_task(task);

	cc->nb_err++;
	cc->last_err = rte_comch_task_get_status(t);
	rte_comch_task_free(t);
}

/* A CPU consumer of q (immediate data of imm_len), on pe, started. */
static void
cpu_cons_new(struct cpu_cons *cc, struct rte_comch_msgq *q, struct rte_comch_pe *pe,
	     uint32_t imm_len, uint32_t nb_tasks)
{
	struct rte_comch_ctx *ctx;

	memset(cc, 0, sizeof(*cc));
	cc->pe = pe;
	cc->c = rte_comch_msgq_consumer_create(q);
	assert_non_null(cc->c);
	ctx = rte_comch_consumer_as_ctx(cc->c);
	assert_int_equal(rte_comch_consumer_get_id(cc->c, &cc->id), 0);
	assert_int_equal(rte_comch_consumer_set_imm_data_len(cc->c, imm_len), 0);
	assert_int_equal(rte_comch_consumer_task_post_recv_set_conf(cc->c, recv_ok, recv_err,
								    nb_tasks), 0);
	set_ud(ctx, cc);
	assert_int_equal(rte_comch_pe_connect_ctx(pe, ctx), 0);
	ctx_start(pe, ctx);
}

/* Post n receives (immediate data only). */
static void
cpu_post(struct cpu_cons *cc, unsigned int n)
{
	struct rte_comch_consumer_task_post_recv *t;

	while (n-- > 0) {
		assert_int_equal(rte_comch_consumer_task_post_recv_alloc_init(cc->c, NULL, &t), 0);
		assert_int_equal(rte_comch_task_submit(
					 rte_comch_consumer_task_post_recv_as_task(t)), 0);
	}
}

static void
cpu_cons_free(struct cpu_cons *cc)
{
	ctx_stop(cc->pe, rte_comch_consumer_as_ctx(cc->c));
	assert_int_equal(rte_comch_consumer_destroy(cc->c), 0);
}

/* A CPU producer of a MsgQ and its completed sends. */
struct cpu_prod {
	struct rte_comch_producer *p;
	struct rte_comch_pe *pe;
	uint32_t id;
	uint32_t nb_ok;
	uint32_t nb_err;
};

static void
send_ok(struct rte_comch_producer_task_send *task, union rte_comch_data task_ud,
	union rte_comch_data ctx_ud)
{
	struct cpu_prod *cp = ctx_ud.ptr;

	cp->nb_ok++;
	rte_comch_task_free(rte_comch_producer_task_send_as_task(task));
}

static void
send_err(struct rte_comch_producer_task_send *task, union rte_comch_data task_ud,
	 union rte_comch_data ctx_ud)
{
	struct cpu_prod *cp = ctx_ud.ptr;

	cp->nb_err++;
	rte_comch_task_free(rte_comch_producer_task_send_as_task(task));
}

static void
cpu_prod_new(struct cpu_prod *cp, struct rte_comch_msgq *q, struct rte_comch_pe *pe)
{
	struct rte_comch_ctx *ctx;

	memset(cp, 0, sizeof(*cp));
	cp->pe = pe;
	cp->p = rte_comch_msgq_producer_create(q);
	assert_non_null(cp->p);
	ctx = rte_comch_producer_as_ctx(cp->p);
	assert_int_equal(rte_comch_producer_get_id(cp->p, &cp->id), 0);
	assert_int_equal(rte_comch_producer_task_send_set_conf(cp->p, send_ok, send_err, 64), 0);
	set_ud(ctx, cp);
	assert_int_equal(rte_comch_pe_connect_ctx(pe, ctx), 0);
	ctx_start(pe, ctx);
}

static void
cpu_prod_free(struct cpu_prod *cp)
{
	ctx_stop(cp->pe, rte_comch_producer_as_ctx(cp->p));
	assert_int_equal(rte_comch_producer_destroy(cp->p), 0);
}

/* Send imm (len bytes) to consumer cid: 0, or submit's error. */
static int
cpu_send(struct cpu_prod *cp, uint32_t cid, const void *imm, uint32_t len)
{
	struct rte_comch_producer_task_send *t;
	int rc;

	rc = rte_comch_producer_task_send_alloc_init(cp->p, NULL, imm, len, cid, &t);
	if (rc < 0)
		return rc;
	rc = rte_comch_task_submit(rte_comch_producer_task_send_as_task(t));
	if (rc < 0)
		rte_comch_task_free(rte_comch_producer_task_send_as_task(t));
	return rc;
}

/*
 * cpu_send(), progressing and retrying on -EAGAIN for up to ms: a second
 * producer's first send to a consumer waits a grace period of the library.
 * -ENOMEM too: the tasks of sends that went come back at the next progress.
 */
static int
cpu_send_wait(struct cpu_prod *cp, uint32_t cid, const void *imm, uint32_t len,
	      unsigned int ms)
{
	uint64_t deadline = ct_now_ms() + ms;
	int rc;

	while ((rc = cpu_send(cp, cid, imm, len)) == -EAGAIN || rc == -ENOMEM) {
		if (ct_now_ms() > deadline)
			break;
		rte_comch_pe_progress(cp->pe);
	}
	return rc;
}

/* Send seq (as 4 bytes of imm) to cid, retrying on -EAGAIN. */
static int
cpu_send_retry(struct cpu_prod *cp, uint32_t cid, uint32_t seq)
{
	return cpu_send_wait(cp, cid, &seq, sizeof(seq), CT_TIMEOUT_MS);
}

static bool
pred_ge(void *arg)
{
	uint32_t **a = arg;

	return *a[0] >= *a[1];
}

/* Progress pe until *counter >= want; asserts it happens. */
static void
progress_ge(struct rte_comch_pe *pe, uint32_t *counter, uint32_t want)
{
	uint32_t *a[2] = { counter, &want };

	assert_int_equal(progress_until(pe, pred_ge, a, CT_TIMEOUT_MS), 0);
}

/* ------------------------------------------------------------ CPU producers to a DPA consumer */

#define GRANT_ASKED (1u << 31)

/* The DPA consumer's program: gives credits, takes entries, checks their order. */
struct p_cons {
	rte_comch_dpa_handle_t cq;
	rte_comch_dpa_handle_t cons;
	uint32_t grant;       /* GRANT_ASKED | credits to give at the next run (the test's) */
	int auto_ack;         /* give a credit back for each entry taken */
	int ack_rc;           /* of the last grant */
	uint64_t acks;        /* grants done */
	uint64_t got;         /* entries taken */
	uint64_t bad;         /* entries out of order, or credits refused under auto_ack */
	uint32_t next_seq[RTE_COMCH_MSGQ_MAX + 1]; /* by producer id, 1 to the max */
	struct rte_comch_dpa_cqe e[LOG_MAX];
};

static void
prog_cons(uint64_t arg)
{
	struct p_cons *p = (struct p_cons *)(uintptr_t)arg;
	rte_comch_dpa_handle_t cq = LOAD(&p->cq), cons = LOAD(&p->cons);
	uint32_t g = __atomic_exchange_n(&p->grant, 0, __ATOMIC_ACQ_REL);
	struct rte_comch_dpa_cqe e;
	uint32_t seq, pid;

	if ((g & GRANT_ASKED) != 0) {
		STORE(&p->ack_rc, rte_comch_dpa_dev_consumer_ack(cons, g & ~GRANT_ASKED));
		INC(&p->acks);
	}
	while (rte_comch_dpa_dev_get_completion(cq, &e) == 1) {
		pid = rte_comch_dpa_dev_get_completion_producer_id(&e);
		memcpy(&seq, rte_comch_dpa_dev_get_completion_imm(&e, NULL), sizeof(seq));
		if (LOAD(&p->auto_ack)) {
			if (pid >= RTE_DIM(p->next_seq) || seq != p->next_seq[pid])
				INC(&p->bad);
			else
				p->next_seq[pid]++;
			if (rte_comch_dpa_dev_consumer_ack(cons, 1) != 0)
				INC(&p->bad);
		}
		p->e[LOAD(&p->got) % LOG_MAX] = e;
		if (rte_comch_dpa_dev_completion_ack(cq, 1) != 0)
			INC(&p->bad);
		INC(&p->got);
	}
	rte_comch_dpa_dev_completion_request_notification(cq);
}

/* Ask the program to give n credits; returns what consumer_ack said. */
static int
grant(struct p_cons *p, struct rte_comch_dpa_thread *t, uint32_t n)
{
	uint64_t want = LOAD(&p->acks) + 1;

	STORE(&p->grant, n | GRANT_ASKED);
	assert_int_equal(rte_comch_dpa_thread_notify(t), 0);
	assert_true(ct_dpa_wait_ge(&p->acks, want));
	return LOAD(&p->ack_rc);
}

struct ack_args {
	rte_comch_dpa_handle_t cons, cq;
	uint32_t n;
};

static int
call_consumer_ack(void *arg)
{
	struct ack_args *a = arg;

	return rte_comch_dpa_dev_consumer_ack(a->cons, a->n);
}

/* Take one entry of a completion context and acknowledge it: 1, or 0 if none. */
static int
call_take_one(void *arg)
{
	struct ack_args *a = arg;
	struct rte_comch_dpa_cqe e;
	int rc = rte_comch_dpa_dev_get_completion(a->cq, &e);

	if (rc == 1 && rte_comch_dpa_dev_completion_ack(a->cq, 1) != 0)
		return -1;
	return rc;
}

static void
test_msgq_cpu_to_dpa(void **state)
{
	struct rte_comch_dpa *dpa = ct_dpa_new(dpa_dev, RTE_COMCH_DPA_EXEC_PTHREAD, 2, 0, 0);
	struct rte_comch_dpa *other = ct_dpa_new(dpa_dev, RTE_COMCH_DPA_EXEC_PTHREAD, 1, 0, 0);
	struct rte_comch_pe *pe = rte_comch_pe_create(RTE_COMCH_PE_LCORE_SELF);
	struct rte_comch_dpa_cq *cq, *cq2, *ocq, *dead;
	struct rte_comch_consumer *c, *c2;
	struct rte_comch_ctx *cctx, *cctx2;
	struct rte_comch_dpa_thread *t;
	struct rte_comch_dpa_cq_stats st;
	struct p_cons p = { .ack_rc = 1 };
	struct ack_args a2 = { 0 };
	rte_comch_dpa_handle_t h;
	struct cpu_prod pr[2];
	struct rte_comch_msgq *q;
	uint8_t imm[32];
	struct runner r;
	uint32_t i, cid, cid2, seq[2] = { 0, 0 };
	int rc;

	(void)state;
	assert_non_null(pe);
	assert_int_equal(rte_comch_dpa_start(dpa), 0);
	t = ct_dpa_thread_new(dpa, prog_cons, &p, 0, true);
	runner_new(&r, dpa);
	cq = ct_dpa_cq_new(dpa, 8, t, &h);
	STORE(&p.cq, h);
	ocq = ct_dpa_cq_new(other, 8, NULL, NULL);
	dead = ct_dpa_cq_new(dpa, 8, NULL, NULL);
	assert_int_equal(rte_comch_dpa_cq_destroy(dead), 0);
	q = mk_msgq(dpa, true, 4);

	/* a DPA consumer, configured with the dpa driver's calls */
	c = rte_comch_msgq_consumer_create(q);
	assert_non_null(c);
	cctx = rte_comch_consumer_as_ctx(c);
	/* MsgQ ids start at 1 */
	assert_int_equal(rte_comch_consumer_get_id(c, &cid), 0);
	assert_int_equal(cid, 1);
	assert_int_equal(rte_comch_consumer_set_imm_data_len(c, 32), 0);
	assert_int_equal(rte_comch_pe_connect_ctx(pe, cctx), 0);
	assert_int_equal(rte_comch_dpa_consumer_get_dpa_handle(c, &h), 0);
	assert_int_not_equal(h, RTE_COMCH_DPA_HANDLE_INVALID);
	STORE(&p.cons, h);
	assert_int_equal(rte_comch_dpa_consumer_get_dpa_handle(NULL, &h), -EINVAL);
	assert_int_equal(rte_comch_dpa_consumer_get_dpa_handle(c, NULL), -EINVAL);
	/* no completion context: the start is refused */
	rc = rte_comch_ctx_start(cctx);
	assert_true(rc < 0 && rc != -EINPROGRESS);
	assert_int_equal(rte_comch_dpa_consumer_set_completion(NULL, cq, 1), -EINVAL);
	assert_int_equal(rte_comch_dpa_consumer_set_completion(c, NULL, 1), -EINVAL);
	assert_int_equal(rte_comch_dpa_consumer_set_completion(c, ocq, 1), -EINVAL);
	assert_int_equal(rte_comch_dpa_consumer_set_completion(c, dead, 1), -EINVAL);
	assert_int_equal(rte_comch_dpa_consumer_set_completion(c, cq, 0x1234), 0);
	assert_int_equal(rte_comch_dpa_consumer_set_dev_max_num_recv(NULL, 4), -EINVAL);
	assert_int_equal(rte_comch_dpa_consumer_set_dev_max_num_recv(c, 0), -EINVAL);
	assert_int_equal(rte_comch_dpa_consumer_set_dev_max_num_recv(c,
								 RTE_COMCH_DPA_CQ_MAX_SIZE + 1),
			 -EINVAL);
	assert_int_equal(rte_comch_dpa_consumer_set_dev_max_num_recv(c, 4), 0);
	/* credits before the start: not connected */
	assert_int_equal(grant(&p, t, 1), -ENOTCONN);
	ctx_start(pe, cctx);
	assert_int_equal(rte_comch_dpa_consumer_set_completion(c, cq, 1), -EBUSY);
	assert_int_equal(rte_comch_dpa_consumer_set_dev_max_num_recv(c, 8), -EBUSY);

	/* two CPU producers: the DPA producer calls refuse them */
	cpu_prod_new(&pr[0], q, pe);
	cpu_prod_new(&pr[1], q, pe);
	assert_int_not_equal(pr[0].id, pr[1].id);
	assert_int_equal(rte_comch_dpa_producer_get_dpa_handle(pr[0].p, &h), -EINVAL);
	assert_int_equal(rte_comch_dpa_producer_set_dev_max_num_send(pr[0].p, 4), -EINVAL);
	assert_int_equal(rte_comch_dpa_producer_completion_attach(pr[0].p, cq, 1), -EINVAL);

	/* no credit: back-pressure */
	memset(imm, 0, sizeof(imm));
	assert_int_equal(cpu_send(&pr[0], cid, imm, 4), -EAGAIN);
	/* 3 credits: 3 sends, then back-pressure again */
	assert_int_equal(grant(&p, t, 3), 0);
	for (i = 0; i < 3; i++) {
		memset(imm, (int)i + 1, sizeof(imm));
		assert_int_equal(cpu_send(&pr[0], cid, imm, 5 + i), 0);
	}
	assert_int_equal(cpu_send(&pr[0], cid, imm, 4), -EAGAIN);
	progress_ge(pe, &pr[0].nb_ok, 3);
	assert_true(ct_dpa_wait_ge(&p.got, 3));
	for (i = 0; i < 3; i++) {
		assert_int_equal(p.e[i].user_data, 0x1234);
		assert_int_equal(p.e[i].producer_id, pr[0].id);
		assert_int_equal(p.e[i].imm_len, 5 + i);
		assert_int_equal(p.e[i].imm[0], i + 1);
		assert_int_equal(p.e[i].imm[4 + i], i + 1);
	}
	/* credits never exceed dev_max_num_recv (4) */
	assert_int_equal(grant(&p, t, 5), -EINVAL);
	assert_int_equal(grant(&p, t, 4), 0);
	assert_int_equal(grant(&p, t, 1), -EINVAL);
	assert_int_equal(grant(&p, t, 0), 0);
	for (i = 0; i < 4; i++)
		assert_int_equal(cpu_send_wait(&pr[i & 1], cid, imm, 1, CT_TIMEOUT_MS), 0);
	assert_int_equal(cpu_send_wait(&pr[1], cid, imm, 1, 50), -EAGAIN);
	assert_true(ct_dpa_wait_ge(&p.got, 7));
	assert_int_equal(p.e[3].producer_id, pr[0].id);
	assert_int_equal(p.e[4].producer_id, pr[1].id);

	/* a second consumer whose context no program polls: the context's room counts too */
	c2 = rte_comch_msgq_consumer_create(q);
	assert_non_null(c2);
	cctx2 = rte_comch_consumer_as_ctx(c2);
	assert_int_equal(rte_comch_consumer_get_id(c2, &cid2), 0);
	assert_int_equal(cid2, 2);
	cq2 = ct_dpa_cq_new(dpa, 2, NULL, &a2.cq);
	assert_int_equal(rte_comch_dpa_consumer_set_completion(c2, cq2, 7), 0);
	assert_int_equal(rte_comch_consumer_set_imm_data_len(c2, 8), 0);
	assert_int_equal(rte_comch_dpa_consumer_get_dpa_handle(c2, &a2.cons), 0);
	assert_int_equal(rte_comch_pe_connect_ctx(pe, cctx2), 0);
	ctx_start(pe, cctx2);
	a2.n = 4;
	assert_int_equal(in_dpa(&r, call_consumer_ack, &a2), 0);
	assert_int_equal(cpu_send(&pr[0], cid2, imm, 8), 0);
	assert_int_equal(cpu_send(&pr[0], cid2, imm, 8), 0);
	assert_int_equal(cpu_send(&pr[0], cid2, imm, 8), -EAGAIN); /* context full, credits left */
	assert_int_equal(rte_comch_dpa_cq_stats_get(cq2, &st), 0);
	assert_int_equal(st.posted, 2);
	assert_true(st.full >= 1);
	assert_int_equal(in_dpa(&r, call_take_one, &a2), 1);
	assert_int_equal(cpu_send(&pr[0], cid2, imm, 8), 0);
	assert_int_equal(cpu_send(&pr[0], cid2, imm, 8), -EAGAIN); /* full again */
	assert_int_equal(in_dpa(&r, call_take_one, &a2), 1);
	assert_int_equal(in_dpa(&r, call_take_one, &a2), 1);
	assert_int_equal(cpu_send(&pr[0], cid2, imm, 8), 0);      /* the fourth credit */
	assert_int_equal(cpu_send(&pr[0], cid2, imm, 8), -EAGAIN); /* room, no credit left */
	assert_int_equal(in_dpa(&r, call_take_one, &a2), 1);
	assert_int_equal(in_dpa(&r, call_take_one, &a2), 0);

	/* many messages, the program giving each credit back: order per producer kept */
	STORE(&p.auto_ack, 1);
	assert_int_equal(grant(&p, t, 4), 0);
	for (i = 0; i < 4000; i++) {
		struct cpu_prod *cp = &pr[i % 2];

		assert_int_equal(cpu_send_retry(cp, cid, seq[i % 2]++), 0);
	}
	assert_true(ct_dpa_wait_ge(&p.got, 7 + 4000));
	assert_int_equal(LOAD(&p.bad), 0);
	progress_ge(pe, &pr[1].nb_ok, 2000);
	assert_int_equal(pr[0].nb_err + pr[1].nb_err, 0);

	/* stopped: no credits taken; restarted: none left over */
	ctx_stop(pe, cctx);
	assert_int_equal(grant(&p, t, 1), -ENOTCONN);
	ctx_start(pe, cctx);
	assert_int_equal(cpu_send_wait(&pr[0], cid, imm, 4, 50), -EAGAIN);

	cpu_prod_free(&pr[0]);
	cpu_prod_free(&pr[1]);
	ctx_stop(pe, cctx);
	ctx_stop(pe, cctx2);
	assert_int_equal(rte_comch_consumer_destroy(c), 0);
	assert_int_equal(rte_comch_consumer_destroy(c2), 0);
	/* the consumer's handle is stale */
	a2.n = 1;
	assert_int_equal(in_dpa(&r, call_consumer_ack, &a2), -EINVAL);
	rm_msgq(q);
	assert_int_equal(rte_comch_dpa_stop(dpa), 0);
	ct_dpa_thread_rm(r.t);
	assert_int_equal(rte_comch_dpa_cq_destroy(cq), 0);
	assert_int_equal(rte_comch_dpa_cq_destroy(cq2), 0);
	assert_int_equal(rte_comch_dpa_cq_destroy(ocq), 0);
	ct_dpa_thread_rm(t);
	assert_int_equal(rte_comch_dpa_destroy(dpa), 0);
	assert_int_equal(rte_comch_dpa_destroy(other), 0);
	assert_int_equal(rte_comch_pe_destroy(pe), 0);
}

/* ------------------------------------------------------------ DPA producers to a CPU consumer */

/* A device-side send, as a runner call. */
struct send_args {
	rte_comch_dpa_handle_t prod;
	uint32_t cid;
	const void *imm;
	uint32_t imm_len;
	uint32_t flags;
	rte_comch_dpa_handle_t dst_mmap, src_mmap;
	uint64_t dst, src, len;
};

static int
call_post_send(void *arg)
{
	struct send_args *a = arg;

	return rte_comch_dpa_dev_producer_post_send_imm_only(a->prod, a->cid, a->imm, a->imm_len,
							     a->flags);
}

static int
call_dma_copy(void *arg)
{
	struct send_args *a = arg;

	return rte_comch_dpa_dev_producer_dma_copy(a->prod, a->cid, a->dst_mmap, a->dst,
						   a->src_mmap, a->src, a->len, a->imm,
						   a->imm_len, a->flags);
}

static int
call_is_empty(void *arg)
{
	struct send_args *a = arg;

	return rte_comch_dpa_dev_producer_is_consumer_empty(a->prod, a->cid);
}

/* Take one entry of a completion context into *e (ack it): 1, or 0 if none. */
struct take_args {
	rte_comch_dpa_handle_t cq;
	struct rte_comch_dpa_cqe e;
};

static int
call_take(void *arg)
{
	struct take_args *a = arg;
	int rc = rte_comch_dpa_dev_get_completion(a->cq, &a->e);

	if (rc == 1 && rte_comch_dpa_dev_completion_ack(a->cq, 1) != 0)
		return -1;
	return rc;
}

static void
test_msgq_dpa_to_cpu(void **state)
{
	const uint32_t lrw = RTE_COMCH_MMAP_PERM_LOCAL_READ_WRITE;
	struct rte_comch_dpa *dpa = ct_dpa_new(dpa_dev, RTE_COMCH_DPA_EXEC_PTHREAD, 1, 0, 0);
	struct rte_comch_dpa *other = ct_dpa_new(dpa_dev, RTE_COMCH_DPA_EXEC_PTHREAD, 1, 0, 0);
	struct rte_comch_pe *pe = rte_comch_pe_create(RTE_COMCH_PE_LCORE_SELF);
	struct rte_comch_mmap *src, *dst, *ro, *loc, *stale;
	struct rte_comch_producer *dp, *dp2;
	struct rte_comch_dpa_cq *cq, *ocq;
	uint8_t *src_mem, *dst_mem, *ro_mem, *loc_mem, *stale_mem;
	rte_comch_dpa_handle_t h_src, h_dst, h_ro, h_loc, h_stale, h_other, h_thread;
	const char hello[] = "hello, CPU";
	uint8_t zero[4096], big[33];
	struct send_args a, b, c;
	struct take_args tk = { 0 };
	struct cpu_cons cc;
	uint32_t dp_id, i;
	struct rte_comch_msgq *q;
	struct pollfd pfd;
	struct runner r;
	size_t len;

	(void)state;
	assert_non_null(pe);
	memset(zero, 0, sizeof(zero));
	memset(big, 7, sizeof(big));
	assert_int_equal(rte_comch_dpa_start(dpa), 0);
	runner_new(&r, dpa);
	assert_int_equal(rte_comch_dpa_thread_get_dpa_handle(r.t, &h_thread), 0);
	cq = ct_dpa_cq_new(dpa, 4, NULL, &tk.cq);
	ocq = ct_dpa_cq_new(other, 4, NULL, NULL);
	q = mk_msgq(dpa, false, 4);

	/* a CPU consumer: the DPA consumer calls refuse it */
	cpu_cons_new(&cc, q, pe, 16, 8);
	assert_int_equal(cc.id, 1); /* MsgQ ids start at 1 */
	assert_int_equal(rte_comch_dpa_consumer_set_completion(cc.c, cq, 1), -EINVAL);
	assert_int_equal(rte_comch_dpa_consumer_set_dev_max_num_recv(cc.c, 4), -EINVAL);
	assert_int_equal(rte_comch_dpa_consumer_get_dpa_handle(cc.c, &a.prod), -EINVAL);

	/* two DPA producers: dp with completions (at most 2 outstanding), dp2 without */
	dp = rte_comch_msgq_producer_create(q);
	dp2 = rte_comch_msgq_producer_create(q);
	assert_non_null(dp);
	assert_non_null(dp2);
	assert_int_equal(rte_comch_producer_get_id(dp, &dp_id), 0);
	assert_int_equal(rte_comch_dpa_producer_set_dev_max_num_send(NULL, 2), -EINVAL);
	assert_int_equal(rte_comch_dpa_producer_set_dev_max_num_send(dp, 0), -EINVAL);
	assert_int_equal(rte_comch_dpa_producer_set_dev_max_num_send(dp,
								 RTE_COMCH_DPA_CQ_MAX_SIZE + 1),
			 -EINVAL);
	assert_int_equal(rte_comch_dpa_producer_set_dev_max_num_send(dp, 2), 0);
	assert_int_equal(rte_comch_dpa_producer_completion_attach(NULL, cq, 1), -EINVAL);
	assert_int_equal(rte_comch_dpa_producer_completion_attach(dp, NULL, 1), -EINVAL);
	assert_int_equal(rte_comch_dpa_producer_completion_attach(dp, ocq, 1), -EINVAL);
	assert_int_equal(rte_comch_dpa_producer_completion_attach(dp, cq, 0xfeed), 0);
	assert_int_equal(rte_comch_dpa_producer_get_dpa_handle(NULL, &a.prod), -EINVAL);
	assert_int_equal(rte_comch_dpa_producer_get_dpa_handle(dp, NULL), -EINVAL);
	assert_int_equal(rte_comch_dpa_producer_get_dpa_handle(dp, &a.prod), 0);
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	assert_int_equal(rte_comch_dpa_producer_get_dpa_handle(dp, &a.prod), 0);
	assert_int_equal(rte_comch_dpa_producer_get_dpa_handle(dp2, &b.prod), 0);
	assert_int_not_equal(a.prod, b.prod);

	/* nothing posted: back-pressure */
	a.cid = cc.id;
	a.imm = hello;
	a.imm_len = sizeof(hello);
	a.flags = 0;
	assert_int_equal(in_dpa(&r, call_is_empty, &a), 1);
	assert_int_equal(in_dpa(&r, call_post_send, &a), -EAGAIN);
	cpu_post(&cc, 2);
	assert_int_equal(in_dpa(&r, call_is_empty, &a), 0);
	assert_int_equal(in_dpa(&r, call_post_send, &a), 0);
	progress_ge(pe, &cc.nb_ok, 1);
	assert_int_equal(cc.prod_id[0], dp_id);
	assert_int_equal(cc.imm_len[0], sizeof(hello));
	assert_memory_equal(cc.imm[0], hello, sizeof(hello));
	assert_memory_equal(cc.imm[0] + sizeof(hello), zero, 32 - sizeof(hello));

	/* refused sends deliver nothing */
	b.cid = cc.id;
	b.imm = hello;
	b.imm_len = 4;
	b.flags = RTE_COMCH_DPA_DEV_SUBMIT_FLAG_COMPLETION;
	assert_int_equal(in_dpa(&r, call_post_send, &b), -EINVAL);  /* none attached */
	b.flags = 0x2;
	assert_int_equal(in_dpa(&r, call_post_send, &b), -EINVAL);  /* unknown flag */
	b.flags = 0;
	b.imm = NULL;
	assert_int_equal(in_dpa(&r, call_post_send, &b), -EINVAL);  /* NULL imm */
	b.imm = big;
	b.imm_len = 33;
	assert_int_equal(in_dpa(&r, call_post_send, &b), -EMSGSIZE);
	b.imm_len = 17;                                           /* the consumer takes 16 */
	assert_int_equal(in_dpa(&r, call_post_send, &b), -EMSGSIZE);
	b.imm_len = 4;
	b.cid = 3;                                                /* no such consumer */
	assert_int_equal(in_dpa(&r, call_post_send, &b), -ENOENT);
	assert_int_equal(in_dpa(&r, call_is_empty, &b), -ENOENT);
	b.cid = 5;                                                /* beyond the MsgQ's ids */
	assert_int_equal(in_dpa(&r, call_post_send, &b), -ENOENT);
	b.cid = 0;                                                /* never an id */
	assert_int_equal(in_dpa(&r, call_post_send, &b), -ENOENT);
	assert_int_equal(in_dpa(&r, call_is_empty, &b), -ENOENT);
	b.cid = cc.id;
	b.imm = NULL;
	b.imm_len = 0;                                            /* no imm at all is fine */
	assert_int_equal(in_dpa(&r, call_post_send, &b), 0);
	progress_ge(pe, &cc.nb_ok, 2);
	assert_int_equal(cc.imm_len[1], 0);
	assert_memory_equal(cc.imm[1], zero, 32);

	/* completions: at most dev_max_num_send (2) not acknowledged */
	cpu_post(&cc, 4);
	a.flags = RTE_COMCH_DPA_DEV_SUBMIT_FLAG_COMPLETION;
	a.imm_len = 4;
	assert_int_equal(in_dpa(&r, call_post_send, &a), 0);
	assert_int_equal(in_dpa(&r, call_post_send, &a), 0);
	assert_int_equal(in_dpa(&r, call_post_send, &a), -EAGAIN);
	progress_ge(pe, &cc.nb_ok, 4);
	ct_progress_for(pe, 5);
	assert_int_equal(cc.nb_ok, 4);                            /* the third was not delivered */
	assert_int_equal(in_dpa(&r, call_take, &tk), 1);
	assert_int_equal(tk.e.user_data, 0xfeed);
	assert_int_equal(tk.e.producer_id, dp_id);
	assert_int_equal(tk.e.imm_len, 0);
	assert_int_equal(in_dpa(&r, call_post_send, &a), 0);
	assert_int_equal(in_dpa(&r, call_take, &tk), 1);
	assert_int_equal(in_dpa(&r, call_take, &tk), 1);
	assert_int_equal(in_dpa(&r, call_take, &tk), 0);
	progress_ge(pe, &cc.nb_ok, 5);

	/* dma_copy: mmaps of the dpa's device */
	src = mk_mmap(dpa_dev, 4096, lrw | RTE_COMCH_MMAP_PERM_PCI_READ_ONLY, true);
	dst = mk_mmap(dpa_dev, 4096, lrw | RTE_COMCH_MMAP_PERM_PCI_READ_WRITE, true);
	ro = mk_mmap(dpa_dev, 4096, lrw | RTE_COMCH_MMAP_PERM_PCI_READ_ONLY, true);
	loc = mk_mmap(dpa_dev, 4096, lrw, true);
	stale = mk_mmap(dpa_dev, 4096, lrw | RTE_COMCH_MMAP_PERM_PCI_READ_WRITE, true);
	assert_int_equal(rte_comch_mmap_get_memrange(src, (void **)&src_mem, &len), 0);
	assert_int_equal(rte_comch_mmap_get_memrange(dst, (void **)&dst_mem, &len), 0);
	assert_int_equal(rte_comch_mmap_get_memrange(ro, (void **)&ro_mem, &len), 0);
	assert_int_equal(rte_comch_mmap_get_memrange(loc, (void **)&loc_mem, &len), 0);
	assert_int_equal(rte_comch_mmap_get_memrange(stale, (void **)&stale_mem, &len), 0);
	for (i = 0; i < 4096; i++)
		src_mem[i] = (uint8_t)(i * 7 + 1);
	assert_int_equal(rte_comch_dpa_mmap_get_dpa_handle(dpa, src, &h_src), 0);
	assert_int_equal(rte_comch_dpa_mmap_get_dpa_handle(dpa, dst, &h_dst), 0);
	assert_int_equal(rte_comch_dpa_mmap_get_dpa_handle(dpa, ro, &h_ro), 0);
	assert_int_equal(rte_comch_dpa_mmap_get_dpa_handle(dpa, loc, &h_loc), 0);
	assert_int_equal(rte_comch_dpa_mmap_get_dpa_handle(dpa, stale, &h_stale), 0);
	assert_int_equal(rte_comch_dpa_mmap_get_dpa_handle(other, dst, &h_other), 0);
	assert_int_equal(rte_comch_mmap_stop(stale), 0);

	/* refused: nothing copied (the consumer has 1 receive posted) */
	b.cid = cc.id;
	b.imm = hello;
	b.imm_len = 4;
	b.flags = 0;
	b.dst_mmap = h_dst;
	b.src_mmap = h_src;
	b.dst = (uintptr_t)dst_mem + 100;
	b.src = (uintptr_t)src_mem + 10;
	b.len = 256;
	c = b;
	c.dst_mmap = RTE_COMCH_DPA_HANDLE_INVALID;
	assert_int_equal(in_dpa(&r, call_dma_copy, &c), -EINVAL);
	c = b;
	c.src_mmap = h_thread;                                    /* not an mmap */
	assert_int_equal(in_dpa(&r, call_dma_copy, &c), -EINVAL);
	c = b;
	c.dst_mmap = h_other;                                     /* another dpa's handle */
	assert_int_equal(in_dpa(&r, call_dma_copy, &c), -EINVAL);
	c = b;
	c.dst_mmap = h_stale;                                     /* stopped since */
	c.dst = (uintptr_t)stale_mem;
	assert_int_equal(in_dpa(&r, call_dma_copy, &c), -EINVAL);
	c = b;
	c.src_mmap = h_stale;
	c.src = (uintptr_t)stale_mem;
	assert_int_equal(in_dpa(&r, call_dma_copy, &c), -EINVAL);
	c = b;
	c.dst_mmap = h_ro;                                        /* the peer may not write */
	c.dst = (uintptr_t)ro_mem;
	assert_int_equal(in_dpa(&r, call_dma_copy, &c), -EPERM);
	c = b;
	c.dst_mmap = h_src;
	c.dst = (uintptr_t)src_mem + 2048;
	assert_int_equal(in_dpa(&r, call_dma_copy, &c), -EPERM);
	c = b;
	c.src_mmap = h_loc;                                       /* the peer may not read */
	c.src = (uintptr_t)loc_mem;
	assert_int_equal(in_dpa(&r, call_dma_copy, &c), -EPERM);
	c = b;
	c.dst = (uintptr_t)dst_mem + 4096 - 255;                  /* one byte past the end */
	assert_int_equal(in_dpa(&r, call_dma_copy, &c), -ERANGE);
	c = b;
	c.src = (uintptr_t)src_mem - 1;                           /* one byte before */
	assert_int_equal(in_dpa(&r, call_dma_copy, &c), -ERANGE);
	c = b;
	c.src = (uintptr_t)src_mem + 4096;
	assert_int_equal(in_dpa(&r, call_dma_copy, &c), -ERANGE);
	c = b;
	c.len = UINT64_MAX;
	assert_int_equal(in_dpa(&r, call_dma_copy, &c), -ERANGE);
	c = b;
	c.dst = UINT64_MAX - 50;                                  /* would wrap */
	assert_int_equal(in_dpa(&r, call_dma_copy, &c), -ERANGE);
	c = b;
	c.flags = RTE_COMCH_DPA_DEV_SUBMIT_FLAG_COMPLETION;       /* dp2 has none attached */
	assert_int_equal(in_dpa(&r, call_dma_copy, &c), -EINVAL);
	assert_int_equal(in_dpa(&r, call_is_empty, &b), 0);       /* the receive is still there */
	assert_memory_equal(dst_mem, zero, sizeof(zero));
	/* overlap, within one mmap readable and writable by the peer */
	b.src_mmap = h_dst;
	b.src = b.dst + 255;
	assert_int_equal(in_dpa(&r, call_dma_copy, &b), -EINVAL);
	b.src = b.dst + 256;                                      /* adjacent: fine */
	assert_int_equal(in_dpa(&r, call_dma_copy, &b), 0);
	progress_ge(pe, &cc.nb_ok, 6);
	assert_memory_equal(dst_mem + 100, zero, 256);            /* it copied zeroes */
	assert_memory_equal(dst_mem, zero, sizeof(zero));
	/* no receive posted: -EAGAIN, nothing copied */
	b.src_mmap = h_src;
	b.src = (uintptr_t)src_mem + 10;
	assert_int_equal(in_dpa(&r, call_dma_copy, &b), -EAGAIN);
	assert_memory_equal(dst_mem, zero, sizeof(zero));
	/* the consumer's limits apply as to post_send */
	cpu_post(&cc, 2);
	b.imm_len = 17;
	assert_int_equal(in_dpa(&r, call_dma_copy, &b), -EMSGSIZE);
	b.imm_len = 4;
	b.cid = 2;
	assert_int_equal(in_dpa(&r, call_dma_copy, &b), -ENOENT);
	b.cid = 0;
	assert_int_equal(in_dpa(&r, call_dma_copy, &b), -ENOENT);
	b.cid = cc.id;
	assert_memory_equal(dst_mem, zero, sizeof(zero));
	/* a good copy, with a completion: data, message, entry */
	a.cid = cc.id;
	a.dst_mmap = h_dst;
	a.src_mmap = h_src;
	a.dst = (uintptr_t)dst_mem + 100;
	a.src = (uintptr_t)src_mem + 10;
	a.len = 256;
	assert_int_equal(in_dpa(&r, call_dma_copy, &a), 0);
	progress_ge(pe, &cc.nb_ok, 7);
	assert_memory_equal(dst_mem + 100, src_mem + 10, 256);
	assert_memory_equal(dst_mem, zero, 100);
	assert_memory_equal(dst_mem + 356, zero, 4096 - 356);
	assert_memory_equal(cc.imm[6], hello, 4);
	assert_int_equal(in_dpa(&r, call_take, &tk), 1);
	assert_int_equal(tk.e.user_data, 0xfeed);
	/* the whole mmap, and nothing */
	a.dst = (uintptr_t)dst_mem;
	a.src = (uintptr_t)src_mem;
	a.len = 4096;
	a.flags = 0;
	assert_int_equal(in_dpa(&r, call_dma_copy, &a), 0);
	progress_ge(pe, &cc.nb_ok, 8);
	assert_memory_equal(dst_mem, src_mem, 4096);
	a.len = 0;
	assert_int_equal(in_dpa(&r, call_dma_copy, &a), -EAGAIN); /* no receive left */

	/* a sleeping engine is woken by a DPA producer's send */
	cpu_post(&cc, 1);
	assert_int_equal(rte_comch_pe_get_notification_fd(pe, &pfd.fd), 0);
	pfd.events = POLLIN;
	for (i = 0; i < 1000 && rte_comch_pe_request_notification(pe) == -EAGAIN; i++)
		rte_comch_pe_progress(pe);
	assert_true(i < 1000);
	assert_int_equal(poll(&pfd, 1, 20), 0);                   /* asleep, nothing to do */
	a.flags = 0;
	a.len = 0;
	assert_int_equal(in_dpa(&r, call_post_send, &a), 0);
	assert_int_equal(poll(&pfd, 1, CT_TIMEOUT_MS), 1);
	assert_int_equal(rte_comch_pe_clear_notification(pe), 0);
	progress_ge(pe, &cc.nb_ok, 9);

	/* stopped: its receives come back, and DPA producers find no consumer */
	cpu_post(&cc, 3);
	ctx_stop(pe, rte_comch_consumer_as_ctx(cc.c));
	assert_int_equal(cc.nb_err, 3);
	assert_int_equal(in_dpa(&r, call_post_send, &a), -ENOENT);
	assert_int_equal(in_dpa(&r, call_is_empty, &a), -ENOENT);
	/* restarted: a fresh ring */
	ctx_start(pe, rte_comch_consumer_as_ctx(cc.c));
	assert_int_equal(in_dpa(&r, call_is_empty, &a), 1);
	cpu_post(&cc, 1);
	assert_int_equal(in_dpa(&r, call_post_send, &a), 0);
	progress_ge(pe, &cc.nb_ok, 10);

	/* a destroyed producer's handle is stale */
	assert_int_equal(rte_comch_producer_destroy(dp2), 0);
	assert_int_equal(in_dpa(&r, call_is_empty, &b), -EINVAL);

	cpu_cons_free(&cc);
	assert_int_equal(rte_comch_producer_destroy(dp), 0);
	rm_msgq(q);
	rm_mmap(src);
	rm_mmap(dst);
	rm_mmap(ro);
	rm_mmap(loc);
	rm_mmap(stale);
	assert_int_equal(rte_comch_dpa_stop(dpa), 0);
	ct_dpa_thread_rm(r.t);
	assert_int_equal(rte_comch_dpa_cq_destroy(cq), 0);
	assert_int_equal(rte_comch_dpa_cq_destroy(ocq), 0);
	assert_int_equal(rte_comch_dpa_destroy(dpa), 0);
	assert_int_equal(rte_comch_dpa_destroy(other), 0);
	assert_int_equal(rte_comch_pe_destroy(pe), 0);
}

/* ------------------------------------------------------------ many DPA threads at once */

#define NB_SENDERS 4
#define PER_SENDER 5000

/* Sends seq 0.. to consumer cid until refused; the test triggers it again. */
struct p_send {
	rte_comch_dpa_handle_t prod;
	uint32_t cid;
	uint32_t next;        /* the program's own */
	uint64_t sent;
	uint64_t errors;      /* other than -EAGAIN */
	uint64_t empty_seen;  /* is_consumer_empty said 1 */
};

static void
prog_send(uint64_t arg)
{
	struct p_send *p = (struct p_send *)(uintptr_t)arg;
	int rc;

	while (p->next < PER_SENDER) {
		rc = rte_comch_dpa_dev_producer_post_send_imm_only(p->prod, p->cid, &p->next,
								   sizeof(p->next), 0);
		if (rc == -EAGAIN) {
			if (rte_comch_dpa_dev_producer_is_consumer_empty(p->prod, p->cid) == 1)
				INC(&p->empty_seen);
			break;
		}
		if (rc != 0) {
			INC(&p->errors);
			break;
		}
		p->next++;
		INC(&p->sent);
	}
}

static void
test_msgq_many_senders(void **state)
{
	struct rte_comch_dpa *dpa = ct_dpa_new(dpa_dev, RTE_COMCH_DPA_EXEC_PTHREAD, 2, 0, 0);
	struct rte_comch_pe *pe = rte_comch_pe_create(RTE_COMCH_PE_LCORE_SELF);
	struct rte_comch_dpa_thread *t[NB_SENDERS];
	struct rte_comch_producer *dp[NB_SENDERS];
	struct p_send ps[NB_SENDERS];
	struct rte_comch_msgq *q;
	struct cpu_cons cc;
	uint64_t deadline;
	uint32_t i, id;

	(void)state;
	assert_non_null(pe);
	q = mk_msgq(dpa, false, NB_SENDERS);
	cpu_cons_new(&cc, q, pe, 4, 64);
	cc.repost = true;
	memset(ps, 0, sizeof(ps));
	for (i = 0; i < NB_SENDERS; i++) {
		dp[i] = rte_comch_msgq_producer_create(q);
		assert_non_null(dp[i]);
		assert_int_equal(rte_comch_producer_get_id(dp[i], &id), 0);
		assert_int_equal(id, i + 1); /* the smallest free id, from 1 */
		assert_int_equal(rte_comch_dpa_producer_get_dpa_handle(dp[i], &ps[i].prod), 0);
		ps[i].cid = cc.id;
		t[i] = ct_dpa_thread_new(dpa, prog_send, &ps[i], 0, true);
	}
	assert_int_equal(rte_comch_dpa_start(dpa), 0);
	cpu_post(&cc, 64);
	deadline = ct_now_ms() + 4 * CT_TIMEOUT_MS;
	while (cc.nb_ok < NB_SENDERS * PER_SENDER && ct_now_ms() < deadline) {
		/* Receives posted again by the callbacks: let the senders use them. */
		for (i = 0; i < NB_SENDERS; i++)
			if (LOAD(&ps[i].sent) < PER_SENDER)
				rte_comch_dpa_thread_notify(t[i]);
		for (i = 0; i < 16; i++)
			rte_comch_pe_progress(pe);
	}
	assert_int_equal(cc.nb_ok, NB_SENDERS * PER_SENDER);
	assert_int_equal(cc.nb_bad, 0);
	for (i = 0; i < NB_SENDERS; i++) {
		assert_int_equal(LOAD(&ps[i].errors), 0);
		assert_int_equal(cc.next_seq[i + 1], PER_SENDER); /* producer ids 1 to N */
	}
	print_message("  %u messages from %u DPA threads on 2 units\n", cc.nb_ok, NB_SENDERS);

	assert_int_equal(rte_comch_dpa_stop(dpa), 0);
	cc.repost = false;
	cpu_cons_free(&cc);
	for (i = 0; i < NB_SENDERS; i++) {
		ct_dpa_thread_rm(t[i]);
		assert_int_equal(rte_comch_producer_destroy(dp[i]), 0);
	}
	rm_msgq(q);
	assert_int_equal(rte_comch_dpa_destroy(dpa), 0);
	assert_int_equal(rte_comch_pe_destroy(pe), 0);
}

/* ------------------------------------------------------------ a DPA producer's engine */

/*
 * A started DPA producer whose engine nobody progresses: its program sends,
 * not the CPU, so no grace period of the library may wait for that engine,
 * and a CPU consumer's stop ends.
 */
static void
test_msgq_dpa_producer_idle_engine(void **state)
{
	struct rte_comch_dpa *dpa = ct_dpa_new(dpa_dev, RTE_COMCH_DPA_EXEC_PTHREAD, 1, 0, 0);
	struct rte_comch_pe *pe = rte_comch_pe_create(RTE_COMCH_PE_LCORE_SELF);
	struct rte_comch_pe *pe2 = rte_comch_pe_create(RTE_COMCH_PE_LCORE_SELF);
	struct rte_comch_producer *dp;
	struct rte_comch_ctx *dctx;
	struct rte_comch_msgq *q;
	struct cpu_cons cc;

	(void)state;
	assert_non_null(pe);
	assert_non_null(pe2);
	assert_int_equal(rte_comch_dpa_start(dpa), 0);
	q = mk_msgq(dpa, false, 2);
	cpu_cons_new(&cc, q, pe, 8, 4);
	dp = rte_comch_msgq_producer_create(q);
	assert_non_null(dp);
	dctx = rte_comch_producer_as_ctx(dp);
	assert_int_equal(rte_comch_pe_connect_ctx(pe2, dctx), 0);
	assert_int_equal(rte_comch_ctx_start(dctx), 0);
	/* pe2 is never progressed from here on. */
	cpu_post(&cc, 2);
	ctx_stop(pe, rte_comch_consumer_as_ctx(cc.c));
	assert_int_equal(cc.nb_err, 2);
	assert_int_equal(cc.last_err, -ECONNABORTED);
	/* And started again, stopped again, with the same producer running. */
	ctx_start(pe, rte_comch_consumer_as_ctx(cc.c));
	cpu_cons_free(&cc);
	ctx_stop(pe2, dctx);
	assert_int_equal(rte_comch_producer_destroy(dp), 0);
	rm_msgq(q);
	assert_int_equal(rte_comch_dpa_stop(dpa), 0);
	assert_int_equal(rte_comch_dpa_destroy(dpa), 0);
	assert_int_equal(rte_comch_pe_destroy(pe2), 0);
	assert_int_equal(rte_comch_pe_destroy(pe), 0);
}

/* ------------------------------------------------------------ stops under fire */

#define FLOOD_RESTARTS 100

/* A DPA producer's program: sends seq 0.. to one consumer as fast as it is taken. */
struct p_flood {
	rte_comch_dpa_handle_t prod;
	uint32_t cid;
	uint32_t next;        /* the next seq: advanced only by a delivered send */
	uint64_t refused;     /* -ENOENT: the consumer was not started */
	uint64_t errors;      /* anything but 0, -EAGAIN and -ENOENT */
};

static void
prog_flood(uint64_t arg)
{
	struct p_flood *p = (struct p_flood *)(uintptr_t)arg;
	unsigned int i;
	int rc;

	for (i = 0; i < 64; i++) {
		rc = rte_comch_dpa_dev_producer_post_send_imm_only(p->prod, p->cid, &p->next,
								   sizeof(p->next), 0);
		if (rc == 0)
			STORE(&p->next, p->next + 1);
		else if (rc == -ENOENT)
			INC(&p->refused);
		else if (rc != -EAGAIN)
			INC(&p->errors);
	}
}

/*
 * A CPU consumer stopped and started again and again while a DPA producer, on
 * a unit of its own (service lcore 1), sends to it: each stop returns the
 * receives left unfilled, the producer is refused in between, and across every
 * restart the consumer gets each delivered message once, in order.
 */
static void
test_msgq_stop_while_dpa_sends(void **state)
{
	struct rte_comch_dpa_conf conf = { .nb_units = 1, .mode = RTE_COMCH_DPA_EXEC_SERVICE };
	struct rte_comch_dpa *dpa = rte_comch_dpa_create(dpa_dev, &conf);
	struct rte_comch_pe *pe = rte_comch_pe_create(RTE_COMCH_PE_LCORE_SELF);
	int level = rte_log_get_level(rte_log_register("pmd.comch.dpa"));
	struct rte_comch_ctx *ctx;
	struct rte_comch_dpa_thread *t;
	struct rte_comch_producer *dp;
	struct p_flood f = { 0 };
	struct rte_comch_msgq *q;
	struct cpu_cons cc;
	uint32_t i, want, posted = 8, service;
	uint64_t deadline;

	(void)state;
	assert_non_null(dpa);
	assert_non_null(pe);
	assert_int_equal(rte_comch_dpa_unit_service_id(dpa, 0, &service), 0);
	assert_int_equal(rte_service_lcore_add(1), 0);
	assert_int_equal(rte_service_map_lcore_set(service, 1, 1), 0);
	assert_int_equal(rte_service_runstate_set(service, 1), 0);
	assert_int_equal(rte_service_lcore_start(1), 0);
	/* Each send refused while the consumer is stopped logs: quiet for this test. */
	rte_log_set_level_pattern("pmd.comch.dpa", RTE_LOG_CRIT);
	q = mk_msgq(dpa, false, 2);
	cpu_cons_new(&cc, q, pe, 4, posted);
	cc.repost = true;
	ctx = rte_comch_consumer_as_ctx(cc.c);
	dp = rte_comch_msgq_producer_create(q);
	assert_non_null(dp);
	assert_int_equal(rte_comch_dpa_producer_get_dpa_handle(dp, &f.prod), 0);
	assert_int_equal(rte_comch_pe_connect_ctx(pe, rte_comch_producer_as_ctx(dp)), 0);
	ctx_start(pe, rte_comch_producer_as_ctx(dp));
	f.cid = cc.id;
	assert_int_equal(rte_comch_dpa_start(dpa), 0);
	t = ct_dpa_thread_new(dpa, prog_flood, &f, 0, true);
	cpu_post(&cc, posted);
	for (i = 0; i < FLOOD_RESTARTS; i++) {
		/* Some messages in, then a stop while the program sends. */
		want = cc.nb_ok + 2 * posted;
		deadline = ct_now_ms() + CT_TIMEOUT_MS;
		while (cc.nb_ok < want && ct_now_ms() < deadline) {
			rte_comch_dpa_thread_notify(t);
			rte_comch_pe_progress(pe);
		}
		assert_true(cc.nb_ok >= want);
		assert_int_equal(rte_comch_ctx_stop(ctx), -EINPROGRESS);
		rte_comch_dpa_thread_notify(t);
		assert_int_equal(ct_wait_state(pe, ctx, RTE_COMCH_CTX_STATE_IDLE, CT_TIMEOUT_MS),
				 0);
		assert_int_equal(cc.nb_bad, 0);
		/* Stopped: the program is refused, nothing is lost. */
		rte_comch_dpa_thread_notify(t);
		ct_progress_for(pe, 1);
		ctx_start(pe, ctx);
		cpu_post(&cc, posted);
	}
	assert_int_equal(rte_comch_dpa_stop(dpa), 0);
	ctx_stop(pe, ctx);
	rte_log_set_level_pattern("pmd.comch.dpa", level > 0 ? (uint32_t)level : RTE_LOG_NOTICE);
	/* Every message the program counted as delivered arrived, once and in order. */
	assert_int_equal(cc.nb_bad, 0);
	assert_int_equal(cc.nb_ok, LOAD(&f.next));
	assert_int_equal(cc.next_seq[1], LOAD(&f.next)); /* the producer's id: 1 */
	assert_int_equal(LOAD(&f.errors), 0);
	assert_true(LOAD(&f.refused) > 0);
	print_message("  %u restarts: %u messages, %" PRIu64 " sends refused while stopped, "
		      "%u receives returned\n", FLOOD_RESTARTS, cc.nb_ok, LOAD(&f.refused),
		      cc.nb_err);

	assert_int_equal(rte_comch_consumer_destroy(cc.c), 0);
	ctx_stop(pe, rte_comch_producer_as_ctx(dp));
	assert_int_equal(rte_comch_producer_destroy(dp), 0);
	rm_msgq(q);
	ct_dpa_thread_rm(t);
	assert_int_equal(rte_service_runstate_set(service, 0), 0);
	assert_int_equal(rte_service_map_lcore_set(service, 1, 0), 0);
	assert_int_equal(rte_service_lcore_stop(1), 0);
	assert_int_equal(rte_service_lcore_del(1), 0);
	assert_int_equal(rte_comch_dpa_destroy(dpa), 0);
	assert_int_equal(rte_comch_pe_destroy(pe), 0);
}

/* ------------------------------------------------------------ two lcores at once */

#define CHURN_ROUNDS 200

/* A DPA consumer's program that takes every entry and gives its receive back. */
struct p_sink {
	rte_comch_dpa_handle_t cq, cons;
	uint64_t got;
	uint64_t bad;
};

static void
prog_sink(uint64_t arg)
{
	struct p_sink *s = (struct p_sink *)(uintptr_t)arg;
	rte_comch_dpa_handle_t cq = LOAD(&s->cq), cons = LOAD(&s->cons);
	struct rte_comch_dpa_cqe e;

	while (rte_comch_dpa_dev_get_completion(cq, &e) == 1) {
		if (rte_comch_dpa_dev_completion_ack(cq, 1) != 0 ||
		    rte_comch_dpa_dev_consumer_ack(cons, 1) != 0)
			INC(&s->bad);
		INC(&s->got);
	}
	rte_comch_dpa_dev_completion_request_notification(cq);
}

/* What one lcore of the churn does, and the line of its first failed check. */
struct churn {
	struct rte_comch_msgq *to_cpu; /* DPA producers, CPU consumers */
	struct rte_comch_msgq *to_dpa; /* CPU producers, one DPA consumer (id 0) */
	unsigned int line;
	uint32_t sent;
};

/* No cmocka on a worker lcore: a failed check records its line and ends the churn. */
#define CHURN_CHECK(ch, cond) do { \
	if (!(cond)) { \
		(ch)->line = __LINE__; \
		return; \
	} \
} while (0)

static void
churn_round(struct churn *ch, struct rte_comch_pe *pe)
{
	struct rte_comch_consumer_task_post_recv *rt;
	struct rte_comch_producer *dp;
	struct rte_comch_ctx *ctx;
	struct cpu_cons cc;
	struct cpu_prod cp;
	uint32_t seq = ch->sent;
	unsigned int i;

	/* A CPU consumer: created, started, posted, stopped (its receives back), destroyed. */
	memset(&cc, 0, sizeof(cc));
	cc.pe = pe;
	cc.c = rte_comch_msgq_consumer_create(ch->to_cpu);
	CHURN_CHECK(ch, cc.c != NULL);
	ctx = rte_comch_consumer_as_ctx(cc.c);
	CHURN_CHECK(ch, rte_comch_consumer_set_imm_data_len(cc.c, 8) == 0);
	CHURN_CHECK(ch, rte_comch_consumer_task_post_recv_set_conf(cc.c, recv_ok, recv_err,
								     4) == 0);
	CHURN_CHECK(ch, rte_comch_ctx_set_user_data(ctx, (union rte_comch_data){ .ptr = &cc })
			== 0);
	CHURN_CHECK(ch, rte_comch_pe_connect_ctx(pe, ctx) == 0);
	CHURN_CHECK(ch, rte_comch_ctx_start(ctx) == 0);
	for (i = 0; i < 2; i++) {
		CHURN_CHECK(ch, rte_comch_consumer_task_post_recv_alloc_init(cc.c, NULL, &rt) == 0);
		CHURN_CHECK(ch, rte_comch_task_submit(
				rte_comch_consumer_task_post_recv_as_task(rt)) == 0);
	}
	CHURN_CHECK(ch, rte_comch_ctx_stop(ctx) == -EINPROGRESS);
	CHURN_CHECK(ch, ct_wait_state(pe, ctx, RTE_COMCH_CTX_STATE_IDLE, CT_TIMEOUT_MS) == 0);
	CHURN_CHECK(ch, cc.nb_err == 2 && cc.nb_ok == 0);
	CHURN_CHECK(ch, rte_comch_consumer_destroy(cc.c) == 0);
	/* A DPA producer, created and destroyed. */
	dp = rte_comch_msgq_producer_create(ch->to_cpu);
	CHURN_CHECK(ch, dp != NULL);
	CHURN_CHECK(ch, rte_comch_producer_destroy(dp) == 0);
	/* A CPU producer sending to the DPA consumer, which the other lcore's shares. */
	memset(&cp, 0, sizeof(cp));
	cp.pe = pe;
	cp.p = rte_comch_msgq_producer_create(ch->to_dpa);
	CHURN_CHECK(ch, cp.p != NULL);
	ctx = rte_comch_producer_as_ctx(cp.p);
	CHURN_CHECK(ch, rte_comch_producer_task_send_set_conf(cp.p, send_ok, send_err, 8) == 0);
	CHURN_CHECK(ch, rte_comch_ctx_set_user_data(ctx, (union rte_comch_data){ .ptr = &cp })
			== 0);
	CHURN_CHECK(ch, rte_comch_pe_connect_ctx(pe, ctx) == 0);
	CHURN_CHECK(ch, rte_comch_ctx_start(ctx) == 0);
	/* (the DPA consumer is the first, so id 1, of its MsgQ: see test_msgq_two_lcores) */
	CHURN_CHECK(ch, cpu_send_wait(&cp, 1, &seq, sizeof(seq), CT_TIMEOUT_MS) == 0);
	CHURN_CHECK(ch, ct_wait_count(pe, &cp.nb_ok, 1, CT_TIMEOUT_MS) == 0);
	CHURN_CHECK(ch, cp.nb_err == 0);
	ch->sent++;
	rte_comch_ctx_stop(ctx);
	CHURN_CHECK(ch, ct_wait_state(pe, ctx, RTE_COMCH_CTX_STATE_IDLE, CT_TIMEOUT_MS) == 0);
	CHURN_CHECK(ch, rte_comch_producer_destroy(cp.p) == 0);
}

static int
churn_run(void *arg)
{
	struct churn *ch = arg;
	struct rte_comch_pe *pe = rte_comch_pe_create(RTE_COMCH_PE_LCORE_SELF);
	unsigned int i;

	if (pe == NULL) {
		ch->line = __LINE__;
		return -1;
	}
	for (i = 0; i < CHURN_ROUNDS && ch->line == 0; i++)
		churn_round(ch, pe);
	if (rte_comch_pe_destroy(pe) != 0 && ch->line == 0)
		ch->line = __LINE__;
	return ch->line == 0 ? 0 : -1;
}

/*
 * Two lcores create, start, stop and destroy producers and consumers of the
 * same MsgQs at once (the MsgQ's lock), their CPU producers sharing one DPA
 * consumer (the grace periods of sharing and of the consumers' stops).
 */
static void
test_msgq_two_lcores(void **state)
{
	struct rte_comch_dpa *dpa = ct_dpa_new(dpa_dev, RTE_COMCH_DPA_EXEC_PTHREAD, 1, 0, 0);
	struct rte_comch_pe *pe = rte_comch_pe_create(RTE_COMCH_PE_LCORE_SELF);
	struct churn ch[2];
	struct p_sink s = { 0 };
	struct ack_args a = { 0 };
	struct rte_comch_dpa_thread *t;
	struct rte_comch_dpa_cq *cq;
	struct rte_comch_consumer *c;
	rte_comch_dpa_handle_t h;
	struct runner r;
	uint32_t id;

	(void)state;
	assert_non_null(pe);
	assert_int_equal(rte_comch_dpa_start(dpa), 0);
	t = ct_dpa_thread_new(dpa, prog_sink, &s, 0, true);
	runner_new(&r, dpa);
	cq = ct_dpa_cq_new(dpa, 64, t, &h);
	STORE(&s.cq, h);
	memset(ch, 0, sizeof(ch));
	ch[0].to_cpu = mk_msgq(dpa, false, 4);
	ch[0].to_dpa = mk_msgq(dpa, true, 4);
	ch[1].to_cpu = ch[0].to_cpu;
	ch[1].to_dpa = ch[0].to_dpa;
	/* The DPA consumer both lcores' producers send to, with 8 receives offered. */
	c = rte_comch_msgq_consumer_create(ch[0].to_dpa);
	assert_non_null(c);
	assert_int_equal(rte_comch_consumer_get_id(c, &id), 0);
	assert_int_equal(id, 1);
	assert_int_equal(rte_comch_consumer_set_imm_data_len(c, 8), 0);
	assert_int_equal(rte_comch_dpa_consumer_set_completion(c, cq, 0), 0);
	assert_int_equal(rte_comch_dpa_consumer_set_dev_max_num_recv(c, 8), 0);
	assert_int_equal(rte_comch_dpa_consumer_get_dpa_handle(c, &h), 0);
	STORE(&s.cons, h);
	a.cons = h;
	a.n = 8;
	assert_int_equal(rte_comch_pe_connect_ctx(pe, rte_comch_consumer_as_ctx(c)), 0);
	ctx_start(pe, rte_comch_consumer_as_ctx(c));
	assert_int_equal(in_dpa(&r, call_consumer_ack, &a), 0);

	assert_int_equal(ct_remote_launch(churn_run, &ch[1], 1), 0);
	churn_run(&ch[0]);
	ct_wait_lcore(1);
	if (ch[0].line != 0 || ch[1].line != 0)
		fail_msg("churn failed at line %u (lcore 0), %u (lcore 1)", ch[0].line,
			 ch[1].line);
	assert_true(ct_dpa_wait_ge(&s.got, 2 * CHURN_ROUNDS));
	assert_int_equal(LOAD(&s.got), 2 * CHURN_ROUNDS);
	assert_int_equal(LOAD(&s.bad), 0);
	print_message("  2 lcores: %u rounds each, %" PRIu64 " messages\n", CHURN_ROUNDS,
		      LOAD(&s.got));

	ctx_stop(pe, rte_comch_consumer_as_ctx(c));
	assert_int_equal(rte_comch_consumer_destroy(c), 0);
	rm_msgq(ch[0].to_cpu);
	rm_msgq(ch[0].to_dpa);
	assert_int_equal(rte_comch_dpa_stop(dpa), 0);
	ct_dpa_thread_rm(r.t);
	assert_int_equal(rte_comch_dpa_cq_destroy(cq), 0);
	ct_dpa_thread_rm(t);
	assert_int_equal(rte_comch_dpa_destroy(dpa), 0);
	assert_int_equal(rte_comch_pe_destroy(pe), 0);
}

/* ------------------------------------------------------------ what the driver refuses */

static void
test_msgq_refused(void **state)
{
	struct rte_comch_dpa *sdpa = ct_dpa_new(skel_dev, RTE_COMCH_DPA_EXEC_PTHREAD, 1, 0, 0);
	struct rte_comch_dpa *dpa = ct_dpa_new(dpa_dev, RTE_COMCH_DPA_EXEC_PTHREAD, 1, 0, 0);
	struct rte_comch_pe *pe = rte_comch_pe_create(RTE_COMCH_PE_LCORE_SELF);
	struct rte_comch_dpa_cq *cq = ct_dpa_cq_new(dpa, 4, NULL, NULL);
	struct rte_comch_msgq *q;
	rte_comch_dpa_handle_t h;
	struct ct_cons oc;
	struct ct_prod op;
	struct ct_pair p;
	struct ct_cfg cfg = { .fast = true };

	(void)state;
	/* a device of another driver has no MsgQ */
	rte_errno = 0;
	assert_null(rte_comch_msgq_create(skel_dev));
	assert_int_equal(rte_errno, ENOTSUP);
	/* a dpa of another device: the driver refuses the start */
	q = rte_comch_msgq_create(dpa_dev);
	assert_non_null(q);
	/* a MsgQ holds its device open */
	assert_int_equal(rte_comch_dev_close(dpa_dev), -EBUSY);
	assert_int_equal(rte_comch_msgq_set_dpa_consumer(q, rte_comch_dpa_as_accel(sdpa)), 0);
	assert_int_equal(rte_comch_msgq_start(q), -EINVAL);
	/* a started MsgQ holds its dpa */
	assert_int_equal(rte_comch_msgq_set_dpa_producer(q, rte_comch_dpa_as_accel(dpa)), 0);
	assert_int_equal(rte_comch_msgq_start(q), 0);
	assert_int_equal(rte_comch_dpa_destroy(dpa), -EBUSY);
	rm_msgq(q);

	/* a consumer and a producer of another driver are no DPA consumer or producer */
	ct_fast_up(&p, &cfg, CT_FAST_ONE);
	ct_cons_new(&oc, p.cconn, ct_fast_pe(&p, false), 1, 64, 0);
	ct_prod_new(&op, p.sconn, ct_fast_pe(&p, true), 1, 64, false);
	assert_int_equal(rte_comch_dpa_consumer_set_completion(oc.cons, cq, 1), -EINVAL);
	assert_int_equal(rte_comch_dpa_consumer_set_dev_max_num_recv(oc.cons, 4), -EINVAL);
	assert_int_equal(rte_comch_dpa_consumer_get_dpa_handle(oc.cons, &h), -EINVAL);
	assert_int_equal(rte_comch_dpa_producer_completion_attach(op.prod, cq, 1), -EINVAL);
	assert_int_equal(rte_comch_dpa_producer_set_dev_max_num_send(op.prod, 4), -EINVAL);
	assert_int_equal(rte_comch_dpa_producer_get_dpa_handle(op.prod, &h), -EINVAL);
	ct_prod_free(&op);
	ct_cons_free(&oc);
	ct_pair_close(&p);

	assert_int_equal(rte_comch_dpa_cq_destroy(cq), 0);
	assert_int_equal(rte_comch_dpa_destroy(dpa), 0);
	assert_int_equal(rte_comch_dpa_destroy(sdpa), 0);
	assert_int_equal(rte_comch_pe_destroy(pe), 0);
}

/* ------------------------------------------------------------ main */

static int
msgq_group_setup(void **state)
{
	if (ct_group_setup(state) != 0)
		return -1;
	return ct_dpa_devs_open(&dpa_dev, &skel_dev);
}

static int
msgq_group_teardown(void **state)
{
	ct_dpa_devs_close(dpa_dev, skel_dev);
	return ct_group_teardown(state);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_drv_open),
		cmocka_unit_test(test_drv_mmap),
		cmocka_unit_test(test_dev_outside_program),
		cmocka_unit_test(test_dev_bad_handles),
		cmocka_unit_test(test_msgq_refused),
		cmocka_unit_test(test_msgq_cpu_to_dpa),
		cmocka_unit_test(test_msgq_dpa_to_cpu),
		cmocka_unit_test(test_msgq_many_senders),
		cmocka_unit_test(test_msgq_dpa_producer_idle_engine),
		cmocka_unit_test(test_msgq_two_lcores),
		cmocka_unit_test(test_msgq_stop_while_dpa_sends),
	};

	if (getenv("COMCH_TEST_FILTER") != NULL)
		cmocka_set_test_filter(getenv("COMCH_TEST_FILTER"));
	return cmocka_run_group_tests_name("comch_msgq_drv", tests, msgq_group_setup,
					   msgq_group_teardown);
}
