/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_pause.h>

#include "bench_msg.h"
#include "bench_msgq.h"

/* Longest wait for the contexts to reach IDLE at the teardown. */
#define STOP_TIMEOUT_S 5

/* ------------------------------------------------------------------ CPU side */

static struct bench_msgq *
msgq_of(union rte_comch_data ctx_user_data)
{
	return ctx_user_data.ptr;
}

static void
send_done(struct rte_comch_producer_task_send *task, union rte_comch_data task_user_data,
	  union rte_comch_data ctx_user_data)
{
	rte_comch_task_free(rte_comch_producer_task_send_as_task(task));
}

static void
send_failed(struct rte_comch_producer_task_send *task, union rte_comch_data task_user_data,
	    union rte_comch_data ctx_user_data)
{
	struct bench_msgq *m = msgq_of(ctx_user_data);
	int status = rte_comch_task_get_status(rte_comch_producer_task_send_as_task(task));

	rte_comch_task_free(rte_comch_producer_task_send_as_task(task));
	if (!m->stopping)
		bench_fail(m->res, status, "send to the DPA failed: %s", strerror(-status));
}

static void
recv_done(struct rte_comch_consumer_task_post_recv *task, union rte_comch_data task_user_data,
	  union rte_comch_data ctx_user_data)
{
	struct bench_msgq *m = msgq_of(ctx_user_data);
	struct rte_comch_task *gt = rte_comch_consumer_task_post_recv_as_task(task);
	const uint8_t *imm;
	uint32_t len = 0;
	int ret;

	imm = rte_comch_consumer_task_post_recv_get_imm_data(task, &len);
	m->on_recv(m, imm, len);
	/* The same task, posted again: the DPA may send again at once. */
	ret = rte_comch_task_submit(gt);
	if (unlikely(ret < 0)) {
		rte_comch_task_free(gt);
		if (!m->stopping)
			bench_fail(m->res, ret, "post a receive again: %s", strerror(-ret));
	}
}

static void
recv_failed(struct rte_comch_consumer_task_post_recv *task, union rte_comch_data task_user_data,
	    union rte_comch_data ctx_user_data)
{
	struct bench_msgq *m = msgq_of(ctx_user_data);
	struct rte_comch_task *gt = rte_comch_consumer_task_post_recv_as_task(task);
	int status = rte_comch_task_get_status(gt);

	rte_comch_task_free(gt);
	/* At the teardown, the receives still posted come back with -ECONNABORTED. */
	if (!m->stopping)
		bench_fail(m->res, status, "receive from the DPA failed: %s", strerror(-status));
}

int
bench_msgq_burst_poll(struct bench_msgq *m, bool pe)
{
	struct rte_comch_fp_post posts[BF_RX_BURST];
	struct rte_comch_fp_cpl cpl[BF_RX_BURST];
	int i, n, k = 0, ret;

	if (pe) {
		ret = rte_comch_pe_progress(m->pe);
		if (unlikely(ret < 0))
			return bench_msgq_progress_fail(m, ret);
		/* Reaped: a MsgQ's send is done when it is made. */
		if (m->cpu_prod != NULL)
			rte_comch_producer_completed_burst(m->cpu_prod, NULL, UINT16_MAX);
	}
	/* A teardown after a failed open: what exists yet. */
	if (unlikely(m->cpu_cons == NULL))
		return m->res->status;
	n = rte_comch_consumer_recv_burst(m->cpu_cons, cpl, RTE_DIM(cpl));
	if (unlikely(n < 0)) {
		/* IDLE: stopped, with every receive back. */
		if (n == -EBUSY && m->stopping)
			return m->res->status;
		return bench_fail(m->res, n, "rte_comch_consumer_recv_burst: %s", strerror(-n));
	}
	/* Nothing: pause before the next look, as the ring row's threads do. */
	if (n == 0)
		rte_pause();
	for (i = 0; i < n; i++) {
		if (unlikely(cpl[i].status != 0)) {
			/* At the teardown, receives still posted come back: -ECONNABORTED. */
			if (!m->stopping)
				bench_fail(m->res, cpl[i].status, "receive from the DPA failed: %s",
					   strerror(-cpl[i].status));
			continue;
		}
		m->on_recv(m, cpl[i].imm, cpl[i].imm_len);
		posts[k].addr = NULL;
		posts[k].len = 0;
		posts[k].cookie = cpl[i].cookie;
		k++;
	}
	/* Posted again at once: the DPA may send again. */
	if (k != 0 && !m->stopping) {
		ret = rte_comch_consumer_post_burst(m->cpu_cons, posts, k);
		if (unlikely(ret != k))
			return bench_fail(m->res, ret < 0 ? ret : -ENOSPC,
					  "post %d receives again: %s", k,
					  ret < 0 ? strerror(-ret) : "not all taken");
	}
	return m->res->status;
}

/* The burst API's send of one message, as a send task carries one. */
static int
send_burst_one(struct bench_msgq *m, uint32_t kind, uint64_t seq)
{
	struct rte_comch_fp_msg msg;
	int ret;

	msg.data = NULL;
	msg.len = 0;
	msg.imm_len = m->size;
	bench_msg_fill(msg.imm, m->size, kind, seq);
	ret = rte_comch_producer_send_burst(m->cpu_prod, m->dpa_cons_id, NULL, &msg, 1);
	if (likely(ret == 1))
		return 0;
	if (ret == 0)
		return -EAGAIN;
	return bench_fail(m->res, ret, "send %s %" PRIu64 ": %s", bench_msg_kind_name(kind), seq,
			  strerror(-ret));
}

int
bench_msgq_send(struct bench_msgq *m, uint32_t kind, uint64_t seq)
{
	struct rte_comch_producer_task_send *task;
	uint8_t msg[BENCH_MSGQ_MAX_SIZE];
	struct rte_comch_task *gt;
	int ret;

	if (m->burst)
		return send_burst_one(m, kind, seq);
	bench_msg_fill(msg, m->size, kind, seq);
	ret = rte_comch_producer_task_send_alloc_init(m->cpu_prod, NULL, msg, m->size,
						      m->dpa_cons_id, &task);
	if (unlikely(ret == -ENOMEM))
		return -EAGAIN;
	if (unlikely(ret < 0))
		return bench_fail(m->res, ret, "send task: %s", strerror(-ret));
	gt = rte_comch_producer_task_send_as_task(task);
	ret = rte_comch_task_submit(gt);
	if (likely(ret == 0))
		return 0;
	/* Refused at once: the task is ours again. */
	rte_comch_task_free(gt);
	if (ret == -EAGAIN)
		return ret;
	return bench_fail(m->res, ret, "send %s %" PRIu64 ": %s", bench_msg_kind_name(kind), seq,
			  strerror(-ret));
}

int
bench_msgq_send_wait(struct bench_msgq *m, uint32_t kind, uint64_t seq)
{
	uint64_t deadline = 0;
	unsigned int spins = 0;
	int ret;

	while ((ret = bench_msgq_send(m, kind, seq)) == -EAGAIN) {
		ret = bench_msgq_progress(m);
		if (ret == 0 && ++spins % 4096 == 0)
			ret = bench_msgq_look(m, &deadline, "a receive offered by the DPA");
		if (ret < 0)
			return ret;
	}
	return ret;
}

int
bench_msgq_progress_fail(struct bench_msgq *m, int ret)
{
	if (ret < 0)
		return bench_fail(m->res, ret, "progress: %s", strerror(-ret));
	return m->res->status;
}

/* The program's status word, as it is now: a racy read, but of a word it writes once. */
static int32_t
prog_status(struct bench_msgq *m)
{
	int32_t st = 0;

	rte_comch_dpa_d2h_memcpy(m->dpa, &st, m->args_mem,
				 offsetof(struct bench_msgq_args, status), sizeof(st));
	return st;
}

int
bench_msgq_look(struct bench_msgq *m, uint64_t *deadline, const char *what)
{
	int32_t st = prog_status(m);

	if (st != 0)
		return bench_fail(m->res, st, "the DPA program failed (see below)");
	if (*deadline == 0)
		*deadline = rte_rdtsc() + BENCH_REPLY_TIMEOUT_S * m->tsc_hz;
	else if (rte_rdtsc() > *deadline)
		return bench_fail(m->res, -ETIMEDOUT, "no %s for %d s", what,
				  BENCH_REPLY_TIMEOUT_S);
	return 0;
}

/* ------------------------------------------------------------------ set-up */

/* Attach a context to the engine and start it; a MsgQ's start is immediate. */
static int
ctx_start(struct bench_msgq *m, struct rte_comch_ctx *ctx, const char *what)
{
	union rte_comch_data ud = { .ptr = m };
	enum rte_comch_ctx_state st = RTE_COMCH_CTX_STATE_IDLE;
	uint64_t deadline;
	int ret;

	rte_comch_ctx_set_user_data(ctx, ud);
	ret = rte_comch_pe_connect_ctx(m->pe, ctx);
	if (ret == 0)
		ret = rte_comch_ctx_start(ctx);
	if (ret == -EINPROGRESS)
		ret = 0;
	if (ret < 0)
		return bench_fail(m->res, ret, "start the %s: %s", what, strerror(-ret));
	deadline = rte_rdtsc() + BENCH_CONNECT_TIMEOUT_S * m->tsc_hz;
	while (rte_comch_ctx_get_state(ctx, &st) == 0 && st == RTE_COMCH_CTX_STATE_STARTING &&
	       rte_rdtsc() < deadline)
		rte_comch_pe_progress(m->pe);
	if (st != RTE_COMCH_CTX_STATE_RUNNING)
		return bench_fail(m->res, -EIO, "the %s did not start (%s)", what,
				  strerror(-rte_comch_ctx_get_last_error(ctx)));
	return 0;
}

static int
fail_errno(struct bench_msgq *m, const char *what)
{
	return bench_fail(m->res, -rte_errno, "%s: %s", what, rte_strerror(rte_errno));
}

/* The DPA objects: a dpa of one pthread unit, its thread, rx_cq, the arguments. */
static int
open_dpa(struct bench_msgq *m)
{
	const struct rte_comch_dpa_conf dconf = {
		.nb_units = 1,
		.mode = RTE_COMCH_DPA_EXEC_PTHREAD,
	};
	struct rte_comch_dpa_thread_conf tconf = {
		.func = bench_msgq_prog,
		.local_storage_size = sizeof(struct bench_msgq_tls),
		.unit = 0,
	};
	struct rte_comch_dpa_cq_conf cconf = {
		.size = RTE_MAX(2u, rte_align32pow2(m->depth)),
	};
	int ret;

	m->dpa = rte_comch_dpa_create(m->dev, &dconf);
	if (m->dpa == NULL)
		return fail_errno(m, "rte_comch_dpa_create");
	ret = rte_comch_dpa_mem_alloc(m->dpa, sizeof(struct bench_msgq_args), &m->args_mem);
	if (ret < 0)
		return bench_fail(m->res, ret, "DPA memory: %s", strerror(-ret));
	tconf.arg = m->args_mem;
	m->thread = rte_comch_dpa_thread_create(m->dpa, &tconf);
	if (m->thread == NULL)
		return fail_errno(m, "rte_comch_dpa_thread_create");
	cconf.thread = m->thread;
	m->rx_cq = rte_comch_dpa_cq_create(m->dpa, &cconf);
	if (m->rx_cq == NULL)
		return fail_errno(m, "rte_comch_dpa_cq_create");
	return 0;
}

/* A MsgQ of one direction, started. */
static struct rte_comch_msgq *
open_msgq(struct bench_msgq *m, bool dpa_consumer)
{
	struct rte_comch_msgq *q = rte_comch_msgq_create(m->dev);
	int ret;

	if (q == NULL) {
		fail_errno(m, "rte_comch_msgq_create");
		return NULL;
	}
	ret = dpa_consumer ? rte_comch_msgq_set_dpa_consumer(q, rte_comch_dpa_as_accel(m->dpa)) :
			     rte_comch_msgq_set_dpa_producer(q, rte_comch_dpa_as_accel(m->dpa));
	if (ret == 0)
		ret = rte_comch_msgq_start(q);
	if (ret < 0)
		bench_fail(m->res, ret, "MsgQ start: %s", strerror(-ret));
	return q;
}

/*
 * The four ends: DPA consumer and CPU producer on to_dpa, CPU consumer and DPA
 * producer on from_dpa.
 */
static int
open_ends(struct bench_msgq *m)
{
	int ret;

	m->dpa_cons = rte_comch_msgq_consumer_create(m->to_dpa);
	if (m->dpa_cons == NULL)
		return fail_errno(m, "DPA consumer");
	ret = rte_comch_consumer_set_imm_data_len(m->dpa_cons, m->size);
	if (ret == 0)
		ret = rte_comch_dpa_consumer_set_completion(m->dpa_cons, m->rx_cq, 0);
	if (ret == 0)
		ret = rte_comch_dpa_consumer_set_dev_max_num_recv(m->dpa_cons, m->depth);
	if (ret == 0)
		ret = rte_comch_consumer_get_id(m->dpa_cons, &m->dpa_cons_id);
	if (ret == 0)
		ret = rte_comch_dpa_consumer_get_dpa_handle(m->dpa_cons, &m->args.consumer);
	if (ret < 0)
		return bench_fail(m->res, ret, "DPA consumer: %s", strerror(-ret));
	ret = ctx_start(m, rte_comch_consumer_as_ctx(m->dpa_cons), "DPA consumer");
	if (ret < 0)
		return ret;

	m->cpu_prod = rte_comch_msgq_producer_create(m->to_dpa);
	if (m->cpu_prod == NULL)
		return fail_errno(m, "CPU producer");
	ret = m->burst ? rte_comch_producer_burst_enable(m->cpu_prod) :
	      rte_comch_producer_task_send_set_conf(m->cpu_prod, send_done, send_failed,
						    m->depth);
	if (ret < 0)
		return bench_fail(m->res, ret, "CPU producer: %s", strerror(-ret));
	ret = ctx_start(m, rte_comch_producer_as_ctx(m->cpu_prod), "CPU producer");
	if (ret < 0)
		return ret;

	m->cpu_cons = rte_comch_msgq_consumer_create(m->from_dpa);
	if (m->cpu_cons == NULL)
		return fail_errno(m, "CPU consumer");
	ret = rte_comch_consumer_set_imm_data_len(m->cpu_cons, m->size);
	if (ret == 0)
		ret = m->burst ? rte_comch_consumer_burst_enable(m->cpu_cons, m->depth) :
		      rte_comch_consumer_task_post_recv_set_conf(m->cpu_cons, recv_done,
								 recv_failed, m->depth);
	if (ret == 0)
		ret = rte_comch_consumer_get_id(m->cpu_cons, &m->args.cpu_consumer);
	if (ret < 0)
		return bench_fail(m->res, ret, "CPU consumer: %s", strerror(-ret));
	ret = ctx_start(m, rte_comch_consumer_as_ctx(m->cpu_cons), "CPU consumer");
	if (ret < 0)
		return ret;

	m->dpa_prod = rte_comch_msgq_producer_create(m->from_dpa);
	if (m->dpa_prod == NULL)
		return fail_errno(m, "DPA producer");
	ret = rte_comch_dpa_producer_get_dpa_handle(m->dpa_prod, &m->args.producer);
	if (ret < 0)
		return bench_fail(m->res, ret, "DPA producer: %s", strerror(-ret));
	return ctx_start(m, rte_comch_producer_as_ctx(m->dpa_prod), "DPA producer");
}

/* Burst API: post every receive of the CPU consumer, no buffer, cookies 0 .. depth - 1. */
static int
post_receives_burst(struct bench_msgq *m)
{
	struct rte_comch_fp_post post = { .addr = NULL, .len = 0 };
	int ret;

	for (post.cookie = 0; post.cookie < m->depth; post.cookie++) {
		ret = rte_comch_consumer_post_burst(m->cpu_cons, &post, 1);
		if (ret != 1)
			return bench_fail(m->res, ret < 0 ? ret : -ENOSPC, "post a receive: %s",
					  ret < 0 ? strerror(-ret) : "not taken");
	}
	return 0;
}

/* Post every receive task of the CPU consumer. */
static int
post_receives(struct bench_msgq *m)
{
	struct rte_comch_consumer_task_post_recv *task;
	uint32_t i;
	int ret;

	if (m->burst)
		return post_receives_burst(m);
	for (i = 0; i < m->depth; i++) {
		ret = rte_comch_consumer_task_post_recv_alloc_init(m->cpu_cons, NULL, &task);
		if (ret < 0)
			return bench_fail(m->res, ret, "receive task: %s", strerror(-ret));
		ret = rte_comch_task_submit(rte_comch_consumer_task_post_recv_as_task(task));
		if (ret < 0) {
			rte_comch_task_free(rte_comch_consumer_task_post_recv_as_task(task));
			return bench_fail(m->res, ret, "post a receive: %s", strerror(-ret));
		}
	}
	return 0;
}

/* Hand the program its arguments, run its thread, start the unit on the other CPU. */
static int
start_dpa(struct bench_msgq *m, unsigned int cpu)
{
	cpu_set_t saved;
	int ret;

	ret = rte_comch_dpa_thread_get_dpa_handle(m->thread, &m->args.self);
	if (ret == 0)
		ret = rte_comch_dpa_cq_get_dpa_handle(m->rx_cq, &m->args.rx_cq);
	if (ret == 0)
		ret = rte_comch_dpa_h2d_memcpy(m->dpa, m->args_mem, 0, &m->args, sizeof(m->args));
	if (ret == 0)
		ret = rte_comch_dpa_thread_start(m->thread);
	m->thread_started = ret == 0;
	if (ret == 0)
		ret = rte_comch_dpa_thread_run(m->thread);
	if (ret < 0)
		return bench_fail(m->res, ret, "DPA thread: %s", strerror(-ret));
	/* The unit's pthread inherits this thread's CPU. */
	ret = bench_local_pin_push(&saved, cpu, m->res);
	if (ret < 0)
		return ret;
	ret = rte_comch_dpa_start(m->dpa);
	bench_local_pin_pop(&saved);
	m->dpa_started = ret == 0;
	/* Its first run offers the first receives. */
	if (ret == 0)
		ret = rte_comch_dpa_thread_notify(m->thread);
	if (ret < 0)
		return bench_fail(m->res, ret, "DPA start: %s", strerror(-ret));
	return 0;
}

int
bench_msgq_open(struct bench_msgq *m, struct bench_ctx *bc, const struct bench_test *t,
		enum bench_msgq_prog prog, bench_msgq_recv_cb_t on_recv, void *priv,
		struct bench_result *res)
{
	const struct bench_opts *o = bc->opts;
	char devargs[64];
	int ret;

	memset(m, 0, sizeof(*m));
	m->res = res;
	m->tsc_hz = bc->tsc_hz;
	m->size = t->size;
	m->burst = t->transport == BENCH_TR_COMCH_BURST;
	m->depth = bench_msgq_depth(o);
	m->on_recv = on_recv;
	m->priv = priv;
	m->args.prog = prog;
	m->args.size = t->size;
	m->args.depth = m->depth;
	m->args.warmup = o->warmup;
	ret = bench_local_begin(&m->local, bc, t, res);
	if (ret < 0)
		return ret;
	/* A name of its own: a device's name is unique in the process. */
	snprintf(devargs, sizeof(devargs), "dpa:name=bench%u,role=host", t->id);
	m->dev = rte_comch_dev_open(devargs);
	if (m->dev == NULL)
		return fail_errno(m, devargs);
	m->pe = rte_comch_pe_create(RTE_COMCH_PE_LCORE_SELF);
	if (m->pe == NULL)
		return fail_errno(m, "rte_comch_pe_create");
	ret = open_dpa(m);
	if (ret == 0) {
		m->to_dpa = open_msgq(m, true);
		m->from_dpa = open_msgq(m, false);
		ret = res->status;
	}
	if (ret == 0)
		ret = open_ends(m);
	if (ret == 0)
		ret = post_receives(m);
	if (ret == 0)
		ret = start_dpa(m, bench_local_cpu(bc));
	return ret;
}

/* ------------------------------------------------------------------ teardown */

static void
ctx_stop_begin(struct bench_msgq *m, struct rte_comch_ctx *ctx)
{
	enum rte_comch_ctx_state st;

	if (rte_comch_ctx_get_state(ctx, &st) == 0 && st != RTE_COMCH_CTX_STATE_IDLE &&
	    st != RTE_COMCH_CTX_STATE_STOPPING)
		rte_comch_ctx_stop(ctx);
}

static bool
ctx_idle(struct rte_comch_ctx *ctx)
{
	enum rte_comch_ctx_state st;

	return ctx == NULL || (rte_comch_ctx_get_state(ctx, &st) == 0 &&
			       st == RTE_COMCH_CTX_STATE_IDLE);
}

/* Stop the four contexts, progressing until all are IDLE. */
static void
stop_ends(struct bench_msgq *m)
{
	struct rte_comch_ctx *ctx[4] = {
		m->cpu_prod != NULL ? rte_comch_producer_as_ctx(m->cpu_prod) : NULL,
		m->dpa_prod != NULL ? rte_comch_producer_as_ctx(m->dpa_prod) : NULL,
		m->cpu_cons != NULL ? rte_comch_consumer_as_ctx(m->cpu_cons) : NULL,
		m->dpa_cons != NULL ? rte_comch_consumer_as_ctx(m->dpa_cons) : NULL,
	};
	uint64_t deadline = rte_rdtsc() + STOP_TIMEOUT_S * m->tsc_hz;
	unsigned int i, idle;

	m->stopping = true;
	for (i = 0; i < RTE_DIM(ctx); i++)
		if (ctx[i] != NULL)
			ctx_stop_begin(m, ctx[i]);
	do {
		/* The burst API takes its consumer's unfilled receives back itself. */
		if (m->burst)
			bench_msgq_burst_poll(m, true);
		else
			rte_comch_pe_progress(m->pe);
		for (i = 0, idle = 0; i < RTE_DIM(ctx); i++)
			idle += ctx_idle(ctx[i]);
	} while (idle < RTE_DIM(ctx) && rte_rdtsc() < deadline);
	if (idle < RTE_DIM(ctx))
		bench_fail(m->res, -ETIMEDOUT, "MsgQ ends still not idle after %d s",
			   STOP_TIMEOUT_S);
}

static void
destroy_ends(struct bench_msgq *m)
{
	if (m->cpu_prod != NULL && rte_comch_producer_destroy(m->cpu_prod) == 0)
		m->cpu_prod = NULL;
	if (m->dpa_prod != NULL && rte_comch_producer_destroy(m->dpa_prod) == 0)
		m->dpa_prod = NULL;
	if (m->cpu_cons != NULL && rte_comch_consumer_destroy(m->cpu_cons) == 0)
		m->cpu_cons = NULL;
	if (m->dpa_cons != NULL && rte_comch_consumer_destroy(m->dpa_cons) == 0)
		m->dpa_cons = NULL;
	if (m->cpu_prod != NULL || m->dpa_prod != NULL || m->cpu_cons != NULL ||
	    m->dpa_cons != NULL)
		bench_fail(m->res, -EBUSY, "a MsgQ producer or consumer could not be destroyed");
}

static void
close_msgq(struct bench_msgq *m, struct rte_comch_msgq *q)
{
	if (q == NULL)
		return;
	rte_comch_msgq_stop(q);
	if (rte_comch_msgq_destroy(q) < 0)
		bench_fail(m->res, -EBUSY, "a MsgQ could not be destroyed");
}

/* What the program wrote: its failure first, as the cause of what the CPU saw. */
static void
read_back(struct bench_msgq *m)
{
	struct bench_result *res = m->res;

	if (rte_comch_dpa_d2h_memcpy(m->dpa, &m->args, m->args_mem, 0, sizeof(m->args)) < 0)
		return;
	m->args.error[sizeof(m->args.error) - 1] = '\0';
	if (m->args.status == 0)
		return;
	res->status = 0;
	bench_fail(res, m->args.status, "DPA program: %s", m->args.error);
}

int
bench_msgq_close(struct bench_msgq *m)
{
	if (m->thread_started) {
		rte_comch_dpa_thread_stop(m->thread);
		read_back(m);
	}
	stop_ends(m);
	destroy_ends(m);
	close_msgq(m, m->to_dpa);
	close_msgq(m, m->from_dpa);
	if (m->rx_cq != NULL)
		rte_comch_dpa_cq_destroy(m->rx_cq);
	if (m->thread != NULL)
		rte_comch_dpa_thread_destroy(m->thread);
	if (m->args_mem != RTE_COMCH_DPA_HANDLE_INVALID)
		rte_comch_dpa_mem_free(m->dpa, m->args_mem);
	if (m->dpa_started)
		rte_comch_dpa_stop(m->dpa);
	if (m->dpa != NULL && rte_comch_dpa_destroy(m->dpa) < 0)
		bench_fail(m->res, -EBUSY, "the dpa could not be destroyed");
	if (m->pe != NULL && rte_comch_pe_destroy(m->pe) < 0)
		bench_fail(m->res, -EBUSY, "the engine could not be destroyed");
	if (m->dev != NULL)
		rte_comch_dev_close(m->dev);
	bench_local_end(&m->local);
	return m->res->status;
}
