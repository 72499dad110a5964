/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The software DPA runtime (lib/dpa): the dpa, DPA threads, completion
 * contexts, DPA memory and the device-side calls, with every error; trigger
 * semantics (coalescing, no lost trigger, at most one run at a time),
 * reschedule and finish not returning, local storage, back-pressure, a stress
 * of one million entries, and both execution modes (pthreads, service cores
 * on lcore 1).
 *
 * The DPA programs are the prog_*() functions. Most take a pointer to a test
 * structure as their argument, which works because the software DPA shares
 * the process's memory; prog_mem() shows the portable way, a DPA memory handle.
 */

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_pause.h>
#include <rte_service.h>

#include <rte_comch_dpa.h>
#include <rte_comch_dpa_dev.h>
#include <rte_comch_dpa_driver.h>

#include "comch_test_common.h"
#include "comch_test_dpa.h"

static struct rte_comch_dev *dpa_test_dev;

#define LOAD(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define INC(p) __atomic_fetch_add((p), 1, __ATOMIC_ACQ_REL)

static struct rte_comch_dpa_thread_stats
thread_stats(struct rte_comch_dpa_thread *t)
{
	struct rte_comch_dpa_thread_stats st;

	assert_int_equal(rte_comch_dpa_thread_stats_get(t, &st), 0);
	return st;
}

static void
post_imm(struct rte_comch_dpa_cq *cq, uint64_t seq, int want)
{
	struct rte_comch_dpa_cqe e = { .user_data = seq, .producer_id = 7, .imm_len = 8 };

	memcpy(e.imm, &seq, sizeof(seq));
	assert_int_equal(rte_comch_dpa_cq_post(cq, &e), want);
}

/* ---------------------------------------------------------- programs */

/* Counts its runs; ends them in the way mode says; never gets past an end. */
struct p_count {
	uint64_t runs;
	uint64_t after;      /* incremented after a call that must not return */
	int mode;            /* 0 return, 1 reschedule, 2 finish */
	int hold;            /* spin while set (the run in progress) */
	uint64_t entered;
	int in_run;
	uint64_t overlap;    /* two runs of the thread at once */
	uint64_t done;
};

static void
prog_count(uint64_t arg)
{
	struct p_count *p = (struct p_count *)(uintptr_t)arg;

	if (__atomic_exchange_n(&p->in_run, 1, __ATOMIC_ACQ_REL) != 0)
		INC(&p->overlap);
	INC(&p->entered);
	while (LOAD(&p->hold))
		rte_pause();
	INC(&p->runs);
	STORE(&p->in_run, 0);
	if (p->mode == 1) {
		rte_comch_dpa_dev_thread_reschedule();
		INC(&p->after);
	} else if (p->mode == 2) {
		rte_comch_dpa_dev_thread_finish();
		INC(&p->after);
	}
}

/* ------------------------------------------------------------ dpa */

static void
test_dpa_create_errors(void **state)
{
	struct rte_comch_dpa_conf conf = { .nb_units = 1, .mode = RTE_COMCH_DPA_EXEC_PTHREAD };
	struct rte_comch_dpa *dpa;
	uint32_t id;

	(void)state;
	rte_errno = 0;
	assert_null(rte_comch_dpa_create(NULL, &conf));
	assert_int_equal(rte_errno, EINVAL);
	rte_errno = 0;
	assert_null(rte_comch_dpa_create(dpa_test_dev, NULL));
	assert_int_equal(rte_errno, EINVAL);
	conf.nb_units = 0;
	rte_errno = 0;
	assert_null(rte_comch_dpa_create(dpa_test_dev, &conf));
	assert_int_equal(rte_errno, EINVAL);
	conf.nb_units = RTE_COMCH_DPA_MAX_UNITS + 1;
	assert_null(rte_comch_dpa_create(dpa_test_dev, &conf));
	conf.nb_units = 1;
	conf.max_threads = RTE_COMCH_DPA_MAX_OBJECTS + 1;
	assert_null(rte_comch_dpa_create(dpa_test_dev, &conf));
	conf.max_threads = 0;
	conf.max_cqs = RTE_COMCH_DPA_MAX_OBJECTS + 1;
	assert_null(rte_comch_dpa_create(dpa_test_dev, &conf));
	conf.max_cqs = 0;
	conf.mode = (enum rte_comch_dpa_exec_mode)7;
	rte_errno = 0;
	assert_null(rte_comch_dpa_create(dpa_test_dev, &conf));
	assert_int_equal(rte_errno, EINVAL);

	assert_int_equal(rte_comch_dpa_destroy(NULL), -EINVAL);
	assert_int_equal(rte_comch_dpa_start(NULL), -EINVAL);
	assert_int_equal(rte_comch_dpa_stop(NULL), -EINVAL);
	assert_null(rte_comch_dpa_get_device(NULL));
	assert_int_equal(rte_comch_dpa_unit_service_id(NULL, 0, &id), -EINVAL);

	dpa = ct_dpa_new(dpa_test_dev, RTE_COMCH_DPA_EXEC_PTHREAD, 2, 0, 0);
	/* On lines of its own: its units and the CPU write parts of it as they run. */
	assert_int_equal((uintptr_t)dpa & (RTE_CACHE_LINE_SIZE - 1), 0);
	assert_ptr_equal(rte_comch_dpa_get_device(dpa), dpa_test_dev);
	assert_int_equal(rte_comch_dpa_unit_service_id(dpa, 0, &id), -ENOTSUP);
	assert_int_equal(rte_comch_dpa_unit_service_id(dpa, 2, &id), -EINVAL);
	assert_int_equal(rte_comch_dpa_unit_service_id(dpa, 0, NULL), -EINVAL);
	assert_int_equal(rte_comch_dpa_stop(dpa), -EBUSY);
	assert_int_equal(rte_comch_dpa_start(dpa), 0);
	assert_int_equal(rte_comch_dpa_start(dpa), -EBUSY);
	assert_int_equal(rte_comch_dpa_destroy(dpa), -EBUSY);
	assert_int_equal(rte_comch_dpa_stop(dpa), 0);
	assert_int_equal(rte_comch_dpa_destroy(dpa), 0);

	/* service mode: one service per unit, named, distinct */
	dpa = ct_dpa_new(dpa_test_dev, RTE_COMCH_DPA_EXEC_SERVICE, 2, 0, 0);
	{
		uint32_t id0, id1;

		assert_int_equal(rte_comch_dpa_unit_service_id(dpa, 0, &id0), 0);
		assert_int_equal(rte_comch_dpa_unit_service_id(dpa, 1, &id1), 0);
		assert_int_not_equal(id0, id1);
		assert_non_null(rte_service_get_name(id0));
		assert_int_equal(rte_comch_dpa_unit_service_id(dpa, 2, &id0), -EINVAL);
	}
	assert_int_equal(rte_comch_dpa_destroy(dpa), 0);
}

/* ------------------------------------------------------------ threads */

static void
test_dpa_thread_errors(void **state)
{
	struct rte_comch_dpa_thread_conf conf = { .func = prog_count, .unit = 0 };
	struct rte_comch_dpa *dpa = ct_dpa_new(dpa_test_dev, RTE_COMCH_DPA_EXEC_PTHREAD, 1, 2, 0);
	struct rte_comch_dpa_thread *t, *t2;
	struct rte_comch_dpa_thread_stats st;
	rte_comch_dpa_handle_t h;
	struct p_count p = { 0 };

	(void)state;
	conf.arg = (uintptr_t)&p;
	rte_errno = 0;
	assert_null(rte_comch_dpa_thread_create(NULL, &conf));
	assert_int_equal(rte_errno, EINVAL);
	assert_null(rte_comch_dpa_thread_create(dpa, NULL));
	conf.func = NULL;
	assert_null(rte_comch_dpa_thread_create(dpa, &conf));
	conf.func = prog_count;
	conf.local_storage_size = RTE_COMCH_DPA_TLS_MAX + 1;
	assert_null(rte_comch_dpa_thread_create(dpa, &conf));
	conf.local_storage_size = 0;
	conf.unit = 1;
	rte_errno = 0;
	assert_null(rte_comch_dpa_thread_create(dpa, &conf));
	assert_int_equal(rte_errno, EINVAL);
	conf.unit = 0;

	/* NULL everywhere */
	assert_int_equal(rte_comch_dpa_thread_start(NULL), -EINVAL);
	assert_int_equal(rte_comch_dpa_thread_run(NULL), -EINVAL);
	assert_int_equal(rte_comch_dpa_thread_stop(NULL), -EINVAL);
	assert_int_equal(rte_comch_dpa_thread_destroy(NULL), -EINVAL);
	assert_int_equal(rte_comch_dpa_thread_notify(NULL), -EINVAL);
	assert_int_equal(rte_comch_dpa_thread_get_dpa_handle(NULL, &h), -EINVAL);
	assert_int_equal(rte_comch_dpa_thread_stats_get(NULL, &st), -EINVAL);

	t = rte_comch_dpa_thread_create(dpa, &conf);
	assert_non_null(t);
	t2 = rte_comch_dpa_thread_create(dpa, &conf);
	assert_non_null(t2);
	rte_errno = 0;
	assert_null(rte_comch_dpa_thread_create(dpa, &conf)); /* max_threads 2 */
	assert_int_equal(rte_errno, ENOSPC);
	assert_int_equal(rte_comch_dpa_thread_get_dpa_handle(t, NULL), -EINVAL);
	assert_int_equal(rte_comch_dpa_thread_stats_get(t, NULL), -EINVAL);
	assert_int_equal(rte_comch_dpa_thread_get_dpa_handle(t, &h), 0);
	assert_int_not_equal(h, RTE_COMCH_DPA_HANDLE_INVALID);

	/* wrong states: idle */
	assert_int_equal(rte_comch_dpa_thread_run(t), -EBUSY);
	assert_int_equal(rte_comch_dpa_thread_stop(t), -EBUSY);
	assert_int_equal(rte_comch_dpa_thread_notify(t), -EPERM);
	/* started */
	assert_int_equal(rte_comch_dpa_thread_start(t), 0);
	assert_int_equal(rte_comch_dpa_thread_start(t), -EBUSY);
	assert_int_equal(rte_comch_dpa_thread_stop(t), -EBUSY);
	assert_int_equal(rte_comch_dpa_thread_notify(t), -EPERM);
	/* running */
	assert_int_equal(rte_comch_dpa_thread_run(t), 0);
	assert_int_equal(rte_comch_dpa_thread_run(t), -EBUSY);
	assert_int_equal(rte_comch_dpa_thread_destroy(t), -EBUSY);
	assert_int_equal(rte_comch_dpa_destroy(dpa), -EBUSY);
	assert_int_equal(rte_comch_dpa_thread_stop(t), 0);
	assert_int_equal(rte_comch_dpa_thread_notify(t), -EPERM);
	st = thread_stats(t);
	assert_int_equal(st.ignored, 3);
	assert_int_equal(st.triggers, 0);
	assert_int_equal(rte_comch_dpa_thread_destroy(t), 0);
	/* a destroyed thread is refused, not followed */
	assert_int_equal(rte_comch_dpa_thread_start(t), -EINVAL);
	assert_int_equal(rte_comch_dpa_thread_notify(t), -EINVAL);
	assert_int_equal(rte_comch_dpa_thread_destroy(t), -EINVAL);
	/* the slot is free again; its new handle differs from the old one */
	t = rte_comch_dpa_thread_create(dpa, &conf);
	assert_non_null(t);
	{
		rte_comch_dpa_handle_t h2;

		assert_int_equal(rte_comch_dpa_thread_get_dpa_handle(t, &h2), 0);
		assert_int_not_equal(h, h2);
	}
	assert_int_equal(rte_comch_dpa_thread_destroy(t), 0);
	assert_int_equal(rte_comch_dpa_thread_destroy(t2), 0);
	assert_int_equal(rte_comch_dpa_destroy(dpa), 0);
}

/*
 * Two CPU threads creating and destroying threads, completion contexts and
 * buffers of one dpa at the same time: each gets its own slots, and the
 * counts stay exact (the limits are hit exactly at the maximum afterwards,
 * and the dpa, empty, is destroyed).
 */
enum { CTL_MAX = 2, CTL_ROUNDS = 20000 };

struct ctl_worker {
	struct rte_comch_dpa *dpa;
	int *go;
	int cpu;
	struct p_count p;
	const char *failed;  /* the first call that failed, NULL if none */
	int err;             /* its error */
	int round;
};

static bool
ctl_fail(struct ctl_worker *w, const char *call, int err, int round)
{
	w->failed = call;
	w->err = err;
	w->round = round;
	return false;
}

/* One round: a thread, a context attached to it and a buffer, made and unmade. */
static bool
ctl_round(struct ctl_worker *w, int r)
{
	struct rte_comch_dpa_thread_conf tconf = {
		.func = prog_count, .arg = (uintptr_t)&w->p, .unit = RTE_COMCH_DPA_UNIT_ANY,
	};
	struct rte_comch_dpa_cq_conf cconf = { .size = 2 };
	struct rte_comch_dpa_thread *t;
	struct rte_comch_dpa_cq *cq;
	rte_comch_dpa_handle_t mem;
	int ret;

	t = rte_comch_dpa_thread_create(w->dpa, &tconf);
	if (t == NULL)
		return ctl_fail(w, "thread_create", -rte_errno, r);
	ret = rte_comch_dpa_thread_start(t);
	if (ret < 0)
		return ctl_fail(w, "thread_start", ret, r);
	cconf.thread = t;
	cq = rte_comch_dpa_cq_create(w->dpa, &cconf);
	if (cq == NULL)
		return ctl_fail(w, "cq_create", -rte_errno, r);
	ret = rte_comch_dpa_mem_alloc(w->dpa, 64, &mem);
	if (ret < 0)
		return ctl_fail(w, "mem_alloc", ret, r);
	ret = rte_comch_dpa_mem_free(w->dpa, mem);
	if (ret < 0)
		return ctl_fail(w, "mem_free", ret, r);
	ret = rte_comch_dpa_cq_destroy(cq);
	if (ret < 0)
		return ctl_fail(w, "cq_destroy", ret, r);
	ret = rte_comch_dpa_thread_destroy(t);
	if (ret < 0)
		return ctl_fail(w, "thread_destroy", ret, r);
	return true;
}

static void *
ctl_worker_main(void *arg)
{
	struct ctl_worker *w = arg;
	cpu_set_t cpus;
	int r;

	/* A CPU of its own (EAL pinned the creator to one): the two really run at once. */
	CPU_ZERO(&cpus);
	CPU_SET(w->cpu, &cpus);
	pthread_setaffinity_np(pthread_self(), sizeof(cpus), &cpus);
	while (LOAD(w->go) == 0)
		rte_pause();
	for (r = 0; r < CTL_ROUNDS; r++)
		if (!ctl_round(w, r))
			break;
	return NULL;
}

static void
test_dpa_control_two_threads(void **state)
{
	struct rte_comch_dpa_conf conf = {
		.nb_units = 2, .mode = RTE_COMCH_DPA_EXEC_PTHREAD,
		.max_threads = CTL_MAX, .max_cqs = CTL_MAX, .max_mems = CTL_MAX,
	};
	struct rte_comch_dpa_thread_conf tconf = { .func = prog_count, .unit = 0 };
	struct rte_comch_dpa_cq_conf cconf = { .size = 2 };
	struct rte_comch_dpa_thread *t[CTL_MAX];
	struct rte_comch_dpa_cq *cq[CTL_MAX];
	rte_comch_dpa_handle_t mem[CTL_MAX], extra;
	struct ctl_worker w[2];
	pthread_t tid[2];
	struct rte_comch_dpa *dpa;
	int go = 0, i;

	(void)state;
	dpa = rte_comch_dpa_create(dpa_test_dev, &conf);
	assert_non_null(dpa);
	memset(w, 0, sizeof(w));
	for (i = 0; i < 2; i++) {
		w[i].dpa = dpa;
		w[i].go = &go;
		w[i].cpu = i % RTE_MAX(sysconf(_SC_NPROCESSORS_ONLN), 1L);
		assert_int_equal(pthread_create(&tid[i], NULL, ctl_worker_main, &w[i]), 0);
	}
	STORE(&go, 1);
	for (i = 0; i < 2; i++) {
		assert_int_equal(pthread_join(tid[i], NULL), 0);
		if (w[i].failed != NULL)
			print_error("worker %d: %s failed with %d in round %d\n", i, w[i].failed,
				    w[i].err, w[i].round);
		assert_null(w[i].failed);
	}

	/* Nothing leaked or counted twice: exactly CTL_MAX of each fit, not one more. */
	tconf.arg = (uintptr_t)&w[0].p;
	for (i = 0; i < CTL_MAX; i++) {
		t[i] = rte_comch_dpa_thread_create(dpa, &tconf);
		assert_non_null(t[i]);
		cq[i] = rte_comch_dpa_cq_create(dpa, &cconf);
		assert_non_null(cq[i]);
		assert_int_equal(rte_comch_dpa_mem_alloc(dpa, 64, &mem[i]), 0);
	}
	rte_errno = 0;
	assert_null(rte_comch_dpa_thread_create(dpa, &tconf));
	assert_int_equal(rte_errno, ENOSPC);
	rte_errno = 0;
	assert_null(rte_comch_dpa_cq_create(dpa, &cconf));
	assert_int_equal(rte_errno, ENOSPC);
	assert_int_equal(rte_comch_dpa_mem_alloc(dpa, 64, &extra), -ENOSPC);
	for (i = 0; i < CTL_MAX; i++) {
		assert_int_equal(rte_comch_dpa_thread_destroy(t[i]), 0);
		assert_int_equal(rte_comch_dpa_cq_destroy(cq[i]), 0);
		assert_int_equal(rte_comch_dpa_mem_free(dpa, mem[i]), 0);
	}
	/* The counts are back at zero: nothing is left that would keep the dpa. */
	assert_int_equal(rte_comch_dpa_destroy(dpa), 0);
}

/* ------------------------------------------------------------ completion contexts */

static void
test_dpa_cq_errors(void **state)
{
	struct rte_comch_dpa *dpa = ct_dpa_new(dpa_test_dev, RTE_COMCH_DPA_EXEC_PTHREAD, 1, 0, 2);
	struct rte_comch_dpa *dpa2 = ct_dpa_new(dpa_test_dev, RTE_COMCH_DPA_EXEC_PTHREAD, 1, 0, 0);
	struct rte_comch_dpa_cq_conf conf = { .size = 3 };
	struct rte_comch_dpa_cqe e = { .imm_len = RTE_COMCH_DPA_IMM_MAX + 1 };
	struct rte_comch_dpa_cq_stats st;
	struct rte_comch_dpa_thread *t, *other;
	struct rte_comch_dpa_cq *cq, *cq2;
	rte_comch_dpa_handle_t h;
	struct p_count p = { 0 };

	(void)state;
	t = ct_dpa_thread_new(dpa, prog_count, &p, 0, false);
	other = ct_dpa_thread_new(dpa2, prog_count, &p, 0, false);
	rte_errno = 0;
	assert_null(rte_comch_dpa_cq_create(dpa, &conf)); /* not a power of 2 */
	assert_int_equal(rte_errno, EINVAL);
	conf.size = 1;
	assert_null(rte_comch_dpa_cq_create(dpa, &conf));
	conf.size = RTE_COMCH_DPA_CQ_MAX_SIZE * 2;
	assert_null(rte_comch_dpa_cq_create(dpa, &conf));
	assert_null(rte_comch_dpa_cq_create(NULL, &conf));
	assert_null(rte_comch_dpa_cq_create(dpa, NULL));
	conf.size = 4;
	conf.thread = other; /* of another dpa */
	rte_errno = 0;
	assert_null(rte_comch_dpa_cq_create(dpa, &conf));
	assert_int_equal(rte_errno, EINVAL);
	conf.thread = t;
	cq = rte_comch_dpa_cq_create(dpa, &conf);
	assert_non_null(cq);
	cq2 = ct_dpa_cq_new(dpa, 2, NULL, NULL);
	rte_errno = 0;
	assert_null(rte_comch_dpa_cq_create(dpa, &conf)); /* max_cqs 2 */
	assert_int_equal(rte_errno, ENOSPC);

	assert_int_equal(rte_comch_dpa_cq_destroy(NULL), -EINVAL);
	assert_int_equal(rte_comch_dpa_cq_get_dpa_handle(NULL, &h), -EINVAL);
	assert_int_equal(rte_comch_dpa_cq_get_dpa_handle(cq, NULL), -EINVAL);
	assert_int_equal(rte_comch_dpa_cq_stats_get(NULL, &st), -EINVAL);
	assert_int_equal(rte_comch_dpa_cq_stats_get(cq, NULL), -EINVAL);
	assert_int_equal(rte_comch_dpa_cq_post(NULL, &e), -EINVAL);
	assert_int_equal(rte_comch_dpa_cq_post(cq, NULL), -EINVAL);
	assert_int_equal(rte_comch_dpa_cq_post(cq, &e), -EINVAL); /* imm too long */
	e.imm_len = RTE_COMCH_DPA_IMM_MAX;
	assert_int_equal(rte_comch_dpa_cq_post(cq, &e), 0);

	/* a thread with a completion context attached stays */
	assert_int_equal(rte_comch_dpa_thread_destroy(t), -EBUSY);
	assert_int_equal(rte_comch_dpa_destroy(dpa), -EBUSY);

	/* full: back-pressure, nothing lost or overwritten */
	assert_int_equal(rte_comch_dpa_cq_post(cq2, &e), 0);
	assert_int_equal(rte_comch_dpa_cq_post(cq2, &e), 0);
	assert_int_equal(rte_comch_dpa_cq_post(cq2, &e), -EAGAIN);
	assert_int_equal(rte_comch_dpa_cq_stats_get(cq2, &st), 0);
	assert_int_equal(st.posted, 2);
	assert_int_equal(st.full, 1);

	assert_int_equal(rte_comch_dpa_cq_destroy(cq), 0);
	assert_int_equal(rte_comch_dpa_cq_post(cq, &e), -EINVAL);
	assert_int_equal(rte_comch_dpa_cq_destroy(cq), -EINVAL);
	assert_int_equal(rte_comch_dpa_cq_get_dpa_handle(cq, &h), -EINVAL);
	assert_int_equal(rte_comch_dpa_cq_destroy(cq2), 0);
	ct_dpa_thread_rm(t);
	ct_dpa_thread_rm(other);
	assert_int_equal(rte_comch_dpa_destroy(dpa), 0);
	assert_int_equal(rte_comch_dpa_destroy(dpa2), 0);
}

/* ------------------------------------------------------------ device side outside a program */

static void
test_dpa_dev_outside_program(void **state)
{
	struct rte_comch_dpa_cqe e = { .user_data = 42, .producer_id = 3, .imm_len = 2 };
	uint32_t len = 99;

	(void)state;
	assert_int_equal(rte_comch_dpa_dev_get_completion(1, &e), -EPERM);
	assert_int_equal(rte_comch_dpa_dev_completion_ack(1, 0), -EPERM);
	assert_int_equal(rte_comch_dpa_dev_completion_request_notification(1), -EPERM);
	assert_int_equal(rte_comch_dpa_dev_thread_notify(1), -EPERM);
	assert_null(rte_comch_dpa_dev_thread_get_local_storage());
	assert_null(rte_comch_dpa_dev_mem_ptr(1, 0, 0));
	/* they log and return: there is no run to end */
	rte_comch_dpa_dev_thread_reschedule();
	rte_comch_dpa_dev_thread_finish();
	/* accessors */
	assert_ptr_equal(rte_comch_dpa_dev_get_completion_imm(&e, &len), e.imm);
	assert_int_equal(len, 2);
	assert_non_null(rte_comch_dpa_dev_get_completion_imm(&e, NULL));
	assert_int_equal(rte_comch_dpa_dev_get_completion_producer_id(&e), 3);
	assert_int_equal(rte_comch_dpa_dev_get_completion_user_data(&e), 42);
	assert_null(rte_comch_dpa_dev_get_completion_imm(NULL, &len));
	assert_int_equal(len, 0);
	assert_int_equal(rte_comch_dpa_dev_get_completion_producer_id(NULL), 0);
	assert_int_equal(rte_comch_dpa_dev_get_completion_user_data(NULL), 0);
}

/* ------------------------------------------------------------ handles inside a program */

struct p_handles {
	rte_comch_dpa_handle_t good_cq, stale_cq, other_cq, thread, other_thread, stale_thread;
	int rc[17];
	uint64_t done;
};

static void
prog_handles(uint64_t arg)
{
	struct p_handles *p = (struct p_handles *)(uintptr_t)arg;
	struct rte_comch_dpa_cqe e;
	int i = 0;

	p->rc[i++] = rte_comch_dpa_dev_get_completion(RTE_COMCH_DPA_HANDLE_INVALID, &e);
	p->rc[i++] = rte_comch_dpa_dev_get_completion(0x4300ffff00000000ull, &e); /* forged */
	p->rc[i++] = rte_comch_dpa_dev_get_completion(p->good_cq ^ 0x80000, &e); /* slot */
	p->rc[i++] = rte_comch_dpa_dev_get_completion(p->good_cq ^ (1ull << 40), &e); /* gen */
	p->rc[i++] = rte_comch_dpa_dev_get_completion(p->stale_cq, &e);
	p->rc[i++] = rte_comch_dpa_dev_get_completion(p->other_cq, &e);
	p->rc[i++] = rte_comch_dpa_dev_get_completion(p->thread, &e); /* wrong kind */
	p->rc[i++] = rte_comch_dpa_dev_completion_ack(p->stale_cq, 0);
	p->rc[i++] = rte_comch_dpa_dev_completion_request_notification(p->other_cq);
	p->rc[i++] = rte_comch_dpa_dev_thread_notify(p->good_cq);    /* wrong kind */
	p->rc[i++] = rte_comch_dpa_dev_thread_notify(p->other_thread);
	p->rc[i++] = rte_comch_dpa_dev_thread_notify(p->stale_thread);
	p->rc[i++] = rte_comch_dpa_dev_get_completion(p->good_cq, NULL);
	p->rc[i++] = rte_comch_dpa_dev_get_completion(p->good_cq, &e); /* empty: 0 */
	p->rc[i++] = rte_comch_dpa_dev_completion_ack(p->good_cq, 0);
	/* generation 0 (never given out) of a free slot: a free slot's live word is 0 too */
	p->rc[i++] = rte_comch_dpa_dev_get_completion((p->good_cq & ~0xffffffffffffull) | 5, &e);
	/* a context with no thread: arming it does nothing, and nothing watches it */
	p->rc[i++] = rte_comch_dpa_dev_completion_request_notification(p->good_cq);
	STORE(&p->done, 1);
	rte_comch_dpa_dev_thread_finish();
}

static void
test_dpa_dev_bad_handles(void **state)
{
	struct rte_comch_dpa *dpa = ct_dpa_new(dpa_test_dev, RTE_COMCH_DPA_EXEC_PTHREAD, 1, 0, 0);
	struct rte_comch_dpa *dpa2 = ct_dpa_new(dpa_test_dev, RTE_COMCH_DPA_EXEC_PTHREAD, 1, 0, 0);
	static const int want[17] = { -EINVAL, -EINVAL, -EINVAL, -EINVAL, -EINVAL, -EINVAL,
				      -EINVAL, -EINVAL, -EINVAL, -EINVAL, -EINVAL, -EINVAL,
				      -EINVAL, 0, 0, -EINVAL, 0 };
	struct p_handles p = { 0 };
	struct p_count pc = { 0 };
	struct rte_comch_dpa_thread *t, *t2;
	struct rte_comch_dpa_cq *stale, *good, *other;
	unsigned int i;

	(void)state;
	/* a thread handle gone stale */
	t = ct_dpa_thread_new(dpa, prog_count, &pc, 0, false);
	assert_int_equal(rte_comch_dpa_thread_get_dpa_handle(t, &p.stale_thread), 0);
	ct_dpa_thread_rm(t);
	t = ct_dpa_thread_new(dpa, prog_handles, &p, 0, true);
	t2 = ct_dpa_thread_new(dpa2, prog_count, &pc, 0, true);
	assert_int_equal(rte_comch_dpa_thread_get_dpa_handle(t, &p.thread), 0);
	assert_int_equal(rte_comch_dpa_thread_get_dpa_handle(t2, &p.other_thread), 0);
	/* stale: destroyed, and its slot taken by a new context */
	stale = ct_dpa_cq_new(dpa, 4, NULL, &p.stale_cq);
	assert_int_equal(rte_comch_dpa_cq_destroy(stale), 0);
	good = ct_dpa_cq_new(dpa, 4, NULL, &p.good_cq);
	assert_int_not_equal(p.good_cq, p.stale_cq);
	other = ct_dpa_cq_new(dpa2, 4, NULL, &p.other_cq);
	assert_int_equal(rte_comch_dpa_start(dpa), 0);
	assert_int_equal(rte_comch_dpa_thread_notify(t), 0);
	assert_true(ct_dpa_wait_ge(&p.done, 1));
	for (i = 0; i < RTE_DIM(want); i++)
		if (p.rc[i] != want[i])
			fail_msg("call %u returned %d, expected %d", i, p.rc[i], want[i]);
	assert_int_equal(rte_comch_dpa_stop(dpa), 0);
	assert_int_equal(rte_comch_dpa_cq_destroy(good), 0);
	assert_int_equal(rte_comch_dpa_cq_destroy(other), 0);
	ct_dpa_thread_rm(t);
	ct_dpa_thread_rm(t2);
	assert_int_equal(rte_comch_dpa_destroy(dpa), 0);
	assert_int_equal(rte_comch_dpa_destroy(dpa2), 0);
}

/* ------------------------------------------------------------ runs, reschedule, finish */

static void
test_dpa_run_end(void **state)
{
	struct rte_comch_dpa *dpa = ct_dpa_new(dpa_test_dev, RTE_COMCH_DPA_EXEC_PTHREAD, 1, 0, 0);
	struct p_count pr = { .mode = 0 }, ps = { .mode = 1 }, pf = { .mode = 2 };
	struct rte_comch_dpa_thread *tr, *ts, *tf;
	struct rte_comch_dpa_thread_stats st;
	int i;

	(void)state;
	tr = ct_dpa_thread_new(dpa, prog_count, &pr, 0, true);
	ts = ct_dpa_thread_new(dpa, prog_count, &ps, 0, true);
	tf = ct_dpa_thread_new(dpa, prog_count, &pf, 0, true);
	assert_int_equal(rte_comch_dpa_start(dpa), 0);
	/* run does not trigger */
	usleep(2000);
	assert_int_equal(LOAD(&pr.runs), 0);
	for (i = 1; i <= 3; i++) {
		assert_int_equal(rte_comch_dpa_thread_notify(tr), 0);
		assert_int_equal(rte_comch_dpa_thread_notify(ts), 0);
		assert_true(ct_dpa_wait_ge(&pr.runs, i));
		assert_true(ct_dpa_wait_ge(&ps.runs, i));
	}
	/* finish: one run, then not triggerable until run again */
	assert_int_equal(rte_comch_dpa_thread_notify(tf), 0);
	assert_true(ct_dpa_wait_ge(&pf.runs, 1));
	assert_int_equal(rte_comch_dpa_stop(dpa), 0); /* all runs are over */
	assert_int_equal(rte_comch_dpa_thread_notify(tf), -EPERM);
	assert_int_equal(rte_comch_dpa_thread_run(tf), 0);
	assert_int_equal(rte_comch_dpa_start(dpa), 0);
	assert_int_equal(rte_comch_dpa_thread_notify(tf), 0);
	assert_true(ct_dpa_wait_ge(&pf.runs, 2));
	assert_int_equal(rte_comch_dpa_stop(dpa), 0);

	/* the calls that end a run never returned into the program */
	assert_int_equal(ps.after, 0);
	assert_int_equal(pf.after, 0);
	st = thread_stats(tr);
	assert_int_equal(st.runs, 3);
	assert_int_equal(st.returns, 3);
	assert_int_equal(st.reschedules, 0);
	st = thread_stats(ts);
	assert_int_equal(st.runs, 3);
	assert_int_equal(st.reschedules, 3);
	assert_int_equal(st.returns, 0);
	st = thread_stats(tf);
	assert_int_equal(st.runs, 2);
	assert_int_equal(st.finishes, 2);
	assert_int_equal(st.ignored, 1);
	/* finished, and stop takes it back to started */
	assert_int_equal(rte_comch_dpa_thread_destroy(tf), -EBUSY);
	ct_dpa_thread_rm(tr);
	ct_dpa_thread_rm(ts);
	ct_dpa_thread_rm(tf);
	assert_int_equal(rte_comch_dpa_destroy(dpa), 0);
}

/* ------------------------------------------------------------ triggers */

static void *
release_later(void *arg)
{
	struct p_count *p = arg;

	usleep(20000);
	STORE(&p->hold, 0);
	return NULL;
}

static void
test_dpa_trigger_while_running(void **state)
{
	struct rte_comch_dpa *dpa = ct_dpa_new(dpa_test_dev, RTE_COMCH_DPA_EXEC_PTHREAD, 1, 0, 0);
	struct p_count p = { .hold = 1 };
	struct rte_comch_dpa_thread *t;
	struct rte_comch_dpa_thread_stats st;
	int i;

	(void)state;
	t = ct_dpa_thread_new(dpa, prog_count, &p, 0, true);
	assert_int_equal(rte_comch_dpa_start(dpa), 0);
	assert_int_equal(rte_comch_dpa_thread_notify(t), 0);
	assert_true(ct_dpa_wait_ge(&p.entered, 1));
	/* while it runs: five triggers make one more run, after this one */
	for (i = 0; i < 5; i++)
		assert_int_equal(rte_comch_dpa_thread_notify(t), 0);
	STORE(&p.hold, 0);
	assert_true(ct_dpa_wait_ge(&p.runs, 2));
	usleep(5000);
	assert_int_equal(LOAD(&p.runs), 2);
	assert_int_equal(p.overlap, 0);
	st = thread_stats(t);
	assert_int_equal(st.triggers, 6);
	assert_int_equal(st.coalesced, 4);
	assert_int_equal(st.runs, 2);

	/* stop waits for the run in progress */
	STORE(&p.hold, 1);
	assert_int_equal(rte_comch_dpa_thread_notify(t), 0);
	assert_true(ct_dpa_wait_ge(&p.entered, 3));
	{
		pthread_t helper;

		/* a helper releases the run later: stop must wait for it to end */
		assert_int_equal(pthread_create(&helper, NULL, release_later, &p), 0);
		assert_int_equal(rte_comch_dpa_thread_stop(t), 0);
		assert_int_equal(LOAD(&p.runs), 3);
		assert_int_equal(LOAD(&p.in_run), 0);
		pthread_join(helper, NULL);
	}
	/* triggers kept while the dpa is stopped run after its start */
	assert_int_equal(rte_comch_dpa_thread_run(t), 0);
	assert_int_equal(rte_comch_dpa_stop(dpa), 0);
	assert_int_equal(rte_comch_dpa_thread_notify(t), 0);
	usleep(2000);
	assert_int_equal(LOAD(&p.runs), 3);
	assert_int_equal(rte_comch_dpa_start(dpa), 0);
	assert_true(ct_dpa_wait_ge(&p.runs, 4));
	assert_int_equal(rte_comch_dpa_stop(dpa), 0);
	ct_dpa_thread_rm(t);
	assert_int_equal(rte_comch_dpa_destroy(dpa), 0);
}

/* A thread that notifies another, and itself a few times. */
struct p_chain {
	rte_comch_dpa_handle_t peer;
	rte_comch_dpa_handle_t self;
	uint64_t runs;
	int rc_peer;
	int rc_self;
};

static void
prog_chain(uint64_t arg)
{
	struct p_chain *p = (struct p_chain *)(uintptr_t)arg;

	if (INC(&p->runs) + 1 < 3)
		p->rc_self = rte_comch_dpa_dev_thread_notify(p->self);
	else
		p->rc_peer = rte_comch_dpa_dev_thread_notify(p->peer);
	rte_comch_dpa_dev_thread_reschedule();
}

static void
test_dpa_dev_notify(void **state)
{
	struct rte_comch_dpa *dpa = ct_dpa_new(dpa_test_dev, RTE_COMCH_DPA_EXEC_PTHREAD, 2, 0, 0);
	struct p_chain c = { 0 };
	struct p_count p = { 0 };
	struct rte_comch_dpa_thread *tc, *tp;

	(void)state;
	tc = ct_dpa_thread_new(dpa, prog_chain, &c, 0, true);
	tp = ct_dpa_thread_new(dpa, prog_count, &p, 0, true);
	assert_int_equal(rte_comch_dpa_thread_get_dpa_handle(tc, &c.self), 0);
	assert_int_equal(rte_comch_dpa_thread_get_dpa_handle(tp, &c.peer), 0);
	assert_int_equal(rte_comch_dpa_start(dpa), 0);
	assert_int_equal(rte_comch_dpa_thread_notify(tc), 0);
	assert_true(ct_dpa_wait_ge(&p.runs, 1));
	assert_int_equal(LOAD(&c.runs), 3);
	/* the chain writes rc_peer after the peer may have run: read it once stopped */
	assert_int_equal(rte_comch_dpa_stop(dpa), 0);
	assert_int_equal(c.rc_self, 0);
	assert_int_equal(c.rc_peer, 0);
	ct_dpa_thread_rm(tc);
	ct_dpa_thread_rm(tp);
	assert_int_equal(rte_comch_dpa_destroy(dpa), 0);
}

/* ------------------------------------------------------------ CPU calls from a program */

struct p_cpu {
	struct rte_comch_dpa *dpa;
	struct rte_comch_dpa_thread *self;
	int rc[6];
	int err_create;
	uint64_t done;
};

static void
prog_cpu_calls(uint64_t arg)
{
	struct p_cpu *p = (struct p_cpu *)(uintptr_t)arg;
	struct rte_comch_dpa_cq_conf cc = { .size = 4 };
	struct rte_comch_dpa_cq *cq;

	p->rc[0] = rte_comch_dpa_stop(p->dpa);
	p->rc[1] = rte_comch_dpa_thread_stop(p->self);
	p->rc[2] = rte_comch_dpa_thread_destroy(p->self);
	p->rc[3] = rte_comch_dpa_destroy(p->dpa);
	p->rc[4] = rte_comch_dpa_start(p->dpa);
	p->rc[5] = rte_comch_dpa_thread_run(p->self);
	rte_errno = 0;
	cq = rte_comch_dpa_cq_create(p->dpa, &cc);
	p->err_create = cq == NULL ? rte_errno : 0;
	STORE(&p->done, 1);
}

static void
test_dpa_cpu_calls_in_program(void **state)
{
	struct rte_comch_dpa *dpa = ct_dpa_new(dpa_test_dev, RTE_COMCH_DPA_EXEC_PTHREAD, 1, 0, 0);
	struct p_cpu p = { .dpa = dpa };
	int i;

	(void)state;
	p.self = ct_dpa_thread_new(dpa, prog_cpu_calls, &p, 0, true);
	assert_int_equal(rte_comch_dpa_start(dpa), 0);
	assert_int_equal(rte_comch_dpa_thread_notify(p.self), 0);
	assert_true(ct_dpa_wait_ge(&p.done, 1));
	for (i = 0; i < 6; i++)
		assert_int_equal(p.rc[i], -EPERM);
	assert_int_equal(p.err_create, EPERM);
	assert_int_equal(rte_comch_dpa_stop(dpa), 0);
	ct_dpa_thread_rm(p.self);
	assert_int_equal(rte_comch_dpa_destroy(dpa), 0);
}

/* ------------------------------------------------------------ local storage */

struct p_tls {
	uint64_t runs;
	uint64_t bad;       /* storage not zeroed at first, moved, or NULL */
	void *first;
};

static void
prog_tls(uint64_t arg)
{
	struct p_tls *p = (struct p_tls *)(uintptr_t)arg;
	uint64_t *tls = rte_comch_dpa_dev_thread_get_local_storage();
	uint64_t n = LOAD(&p->runs);

	if (tls == NULL || (n == 0 && (tls[0] != 0 || tls[7] != 0)) ||
	    (n > 0 && p->first != tls) || tls[0] != n)
		INC(&p->bad);
	if (n == 0)
		p->first = tls;
	tls[0]++;
	tls[7] = 0xabcd;
	STORE(&p->runs, n + 1);
}

static void
prog_no_tls(uint64_t arg)
{
	struct p_tls *p = (struct p_tls *)(uintptr_t)arg;

	if (rte_comch_dpa_dev_thread_get_local_storage() != NULL)
		INC(&p->bad);
	INC(&p->runs);
}

static void
test_dpa_local_storage(void **state)
{
	struct rte_comch_dpa *dpa = ct_dpa_new(dpa_test_dev, RTE_COMCH_DPA_EXEC_PTHREAD, 2, 0, 0);
	struct p_tls a = { 0 }, b = { 0 }, c = { 0 };
	struct rte_comch_dpa_thread *ta, *tb, *tc;
	int i;

	(void)state;
	ta = ct_dpa_thread_new(dpa, prog_tls, &a, 64, true);
	tb = ct_dpa_thread_new(dpa, prog_tls, &b, 64, true);
	tc = ct_dpa_thread_new(dpa, prog_no_tls, &c, 0, true);
	assert_int_equal(rte_comch_dpa_start(dpa), 0);
	for (i = 1; i <= 10; i++) {
		assert_int_equal(rte_comch_dpa_thread_notify(ta), 0);
		assert_int_equal(rte_comch_dpa_thread_notify(tb), 0);
		assert_true(ct_dpa_wait_ge(&a.runs, i));
		assert_true(ct_dpa_wait_ge(&b.runs, i));
	}
	assert_int_equal(rte_comch_dpa_thread_notify(tc), 0);
	assert_true(ct_dpa_wait_ge(&c.runs, 1));
	assert_int_equal(rte_comch_dpa_stop(dpa), 0);
	assert_int_equal(a.bad, 0);
	assert_int_equal(b.bad, 0);
	assert_int_equal(c.bad, 0);
	assert_ptr_not_equal(a.first, b.first);
	ct_dpa_thread_rm(ta);
	ct_dpa_thread_rm(tb);
	ct_dpa_thread_rm(tc);
	assert_int_equal(rte_comch_dpa_destroy(dpa), 0);
}

/* ------------------------------------------------------------ completion semantics */

/* Takes what the CPU asks for, step by step, and records what it saw. */
struct p_cq {
	rte_comch_dpa_handle_t cq;
	int step;               /* what the next run does */
	uint64_t runs;
	int rc[16];
	struct rte_comch_dpa_cqe got[8];
	uint64_t done;          /* step completed */
};

static void
prog_cq_steps(uint64_t arg)
{
	struct p_cq *p = (struct p_cq *)(uintptr_t)arg;
	int i;

	INC(&p->runs);
	switch (p->step) {
	case 0: /* take four, one more is not there; acks beyond are refused */
		for (i = 0; i < 5; i++)
			p->rc[i] = rte_comch_dpa_dev_get_completion(p->cq, &p->got[i]);
		p->rc[5] = rte_comch_dpa_dev_completion_ack(p->cq, 5);
		p->rc[6] = rte_comch_dpa_dev_completion_ack(p->cq, 2);
		p->rc[7] = rte_comch_dpa_dev_completion_ack(p->cq, 3);
		p->rc[8] = rte_comch_dpa_dev_completion_ack(p->cq, 2);
		p->rc[9] = rte_comch_dpa_dev_completion_ack(p->cq, 1);
		break; /* not armed again */
	case 1: /* take and ack what is there, arm */
		while (rte_comch_dpa_dev_get_completion(p->cq, &p->got[0]) == 1)
			rte_comch_dpa_dev_completion_ack(p->cq, 1);
		p->rc[0] = rte_comch_dpa_dev_completion_request_notification(p->cq);
		break;
	case 2: /* arm with an entry waiting: that triggers this thread again at once */
		p->rc[1] = rte_comch_dpa_dev_completion_request_notification(p->cq);
		p->step = 1;
		break;
	}
	STORE(&p->done, LOAD(&p->done) + 1);
	rte_comch_dpa_dev_thread_reschedule();
}

static void
test_dpa_cq_semantics(void **state)
{
	struct rte_comch_dpa *dpa = ct_dpa_new(dpa_test_dev, RTE_COMCH_DPA_EXEC_PTHREAD, 1, 0, 0);
	struct p_cq p = { 0 };
	struct rte_comch_dpa_thread *t;
	struct rte_comch_dpa_cq *cq;
	struct rte_comch_dpa_cq_stats cs;
	struct rte_comch_dpa_cqe e = { 0 };
	uint32_t len;
	int i;

	(void)state;
	t = ct_dpa_thread_new(dpa, prog_cq_steps, &p, 0, true);
	cq = ct_dpa_cq_new(dpa, 4, t, &p.cq);
	/* posted while the dpa is stopped: the first entry triggers (armed at creation) */
	for (i = 0; i < 4; i++) {
		e.user_data = 100 + i;
		e.producer_id = 10 + i;
		e.imm_len = i * 10;
		memset(e.imm, 'a' + i, sizeof(e.imm));
		assert_int_equal(rte_comch_dpa_cq_post(cq, &e), 0);
	}
	assert_int_equal(rte_comch_dpa_cq_post(cq, &e), -EAGAIN);
	assert_int_equal(rte_comch_dpa_start(dpa), 0);
	assert_true(ct_dpa_wait_ge(&p.done, 1));
	assert_int_equal(LOAD(&p.runs), 1);
	for (i = 0; i < 4; i++) {
		const uint8_t *imm;

		assert_int_equal(p.rc[i], 1);
		imm = rte_comch_dpa_dev_get_completion_imm(&p.got[i], &len);
		assert_int_equal(len, i * 10);
		assert_true(len == 0 || (imm[0] == 'a' + i && imm[len - 1] == 'a' + i));
		assert_int_equal(rte_comch_dpa_dev_get_completion_user_data(&p.got[i]), 100 + i);
		assert_int_equal(rte_comch_dpa_dev_get_completion_producer_id(&p.got[i]), 10 + i);
	}
	assert_int_equal(p.rc[4], 0);       /* none left */
	assert_int_equal(p.rc[5], -EINVAL); /* 5 > 4 taken */
	assert_int_equal(p.rc[6], 0);
	assert_int_equal(p.rc[7], -EINVAL); /* 3 > 2 left */
	assert_int_equal(p.rc[8], 0);
	assert_int_equal(p.rc[9], -EINVAL); /* nothing left */
	/* room again; not armed: posts wake nobody */
	post_imm(cq, 1, 0);
	post_imm(cq, 2, 0);
	usleep(3000);
	assert_int_equal(LOAD(&p.runs), 1);
	/* a CPU trigger: the program drains and arms */
	p.step = 1;
	assert_int_equal(rte_comch_dpa_thread_notify(t), 0);
	assert_true(ct_dpa_wait_ge(&p.done, 2));
	assert_int_equal(p.rc[0], 0);
	/* armed and empty: the next post triggers, and the program wraps the ring */
	for (i = 0; i < 20; i++) {
		uint64_t before = LOAD(&p.done);

		post_imm(cq, 3 + i, 0);
		assert_true(ct_dpa_wait_ge(&p.done, before + 1));
	}
	/* arming with an entry already there is not lost: the run after drains it */
	{
		uint64_t before = LOAD(&p.done);

		p.step = 2;
		post_imm(cq, 100, 0);
		assert_true(ct_dpa_wait_ge(&p.done, before + 2));
		assert_int_equal(p.rc[1], 0);
	}
	assert_int_equal(rte_comch_dpa_stop(dpa), 0);
	assert_int_equal(rte_comch_dpa_cq_stats_get(cq, &cs), 0);
	assert_int_equal(cs.posted, 27);
	assert_int_equal(cs.received, 27);
	assert_int_equal(cs.acked, 27);
	assert_int_equal(cs.full, 1);
	assert_int_equal(cs.notifications, 23);
	assert_int_equal(rte_comch_dpa_cq_destroy(cq), 0);
	ct_dpa_thread_rm(t);
	assert_int_equal(rte_comch_dpa_destroy(dpa), 0);
}

/* ------------------------------------------------------------ DPA memory */

/* What the program finds in DPA memory: its configuration, and room for results. */
struct m_cfg {
	rte_comch_dpa_handle_t self;   /* this buffer */
	rte_comch_dpa_handle_t stale;  /* a freed buffer */
	rte_comch_dpa_handle_t cq;     /* not a buffer */
	uint64_t size;
	uint64_t runs;
	uint64_t bad;
	uint8_t tail[16];
};

static void
prog_mem(uint64_t arg)
{
	struct m_cfg *c = rte_comch_dpa_dev_mem_ptr(arg, 0, sizeof(*c));

	if (c == NULL)
		return; /* counted by the test through the thread's stats */
	c->runs++;
	if (rte_comch_dpa_dev_mem_ptr(c->self, 0, c->size) == NULL ||
	    rte_comch_dpa_dev_mem_ptr(c->self, c->size, 0) == NULL ||
	    rte_comch_dpa_dev_mem_ptr(c->self, 0, c->size + 1) != NULL ||
	    rte_comch_dpa_dev_mem_ptr(c->self, c->size + 1, 0) != NULL ||
	    rte_comch_dpa_dev_mem_ptr(c->self, 8, UINT64_MAX) != NULL ||
	    rte_comch_dpa_dev_mem_ptr(c->stale, 0, 1) != NULL ||
	    rte_comch_dpa_dev_mem_ptr(c->cq, 0, 1) != NULL ||
	    rte_comch_dpa_dev_mem_ptr(RTE_COMCH_DPA_HANDLE_INVALID, 0, 0) != NULL)
		c->bad++;
	memset(c->tail, 0x5a, sizeof(c->tail));
}

static void
test_dpa_mem(void **state)
{
	struct rte_comch_dpa_conf conf = {
		.nb_units = 1, .mode = RTE_COMCH_DPA_EXEC_PTHREAD, .max_mems = 3,
	};
	struct rte_comch_dpa *dpa = rte_comch_dpa_create(dpa_test_dev, &conf);
	struct rte_comch_dpa *dpa2 = ct_dpa_new(dpa_test_dev, RTE_COMCH_DPA_EXEC_PTHREAD, 1, 0, 0);
	rte_comch_dpa_handle_t m, stale, other, spare, x;
	struct rte_comch_dpa_thread_conf tc = { .func = prog_mem, .unit = RTE_COMCH_DPA_UNIT_ANY };
	struct rte_comch_dpa_thread *t;
	struct rte_comch_dpa_cq *cq;
	struct m_cfg c = { 0 }, back;
	uint8_t buf[64];
	unsigned int i;

	(void)state;
	assert_non_null(dpa);
	/* errors of alloc */
	assert_int_equal(rte_comch_dpa_mem_alloc(NULL, 8, &m), -EINVAL);
	assert_int_equal(rte_comch_dpa_mem_alloc(dpa, 8, NULL), -EINVAL);
	assert_int_equal(rte_comch_dpa_mem_alloc(dpa, 0, &m), -EINVAL);
	assert_int_equal(rte_comch_dpa_mem_alloc(dpa, RTE_COMCH_DPA_MEM_MAX + 1, &m), -EINVAL);
	assert_int_equal(rte_comch_dpa_mem_alloc(dpa, 100, &stale), 0);
	assert_int_equal(rte_comch_dpa_mem_free(dpa, stale), 0);
	assert_int_equal(rte_comch_dpa_mem_alloc(dpa, sizeof(c), &m), 0);
	assert_int_not_equal(m, stale);
	assert_int_equal(rte_comch_dpa_mem_alloc(dpa, 64, &spare), 0);
	assert_int_equal(rte_comch_dpa_mem_alloc(dpa, 64, &x), 0);
	assert_int_equal(rte_comch_dpa_mem_alloc(dpa, 64, &x), -ENOSPC); /* max_mems 3 */
	assert_int_equal(rte_comch_dpa_mem_alloc(dpa2, 64, &other), 0);

	/* zeroed; copies in both directions, bounds */
	assert_int_equal(rte_comch_dpa_d2h_memcpy(dpa, buf, spare, 0, 64), 0);
	for (i = 0; i < 64; i++)
		assert_int_equal(buf[i], 0);
	assert_int_equal(rte_comch_dpa_memset(dpa, spare, 8, 0xee, 8), 0);
	memset(buf, 0x11, 8);
	assert_int_equal(rte_comch_dpa_h2d_memcpy(dpa, spare, 56, buf, 8), 0);
	assert_int_equal(rte_comch_dpa_d2h_memcpy(dpa, buf, spare, 0, 64), 0);
	assert_int_equal(buf[7], 0);
	assert_int_equal(buf[8], 0xee);
	assert_int_equal(buf[15], 0xee);
	assert_int_equal(buf[16], 0);
	assert_int_equal(buf[56], 0x11);
	assert_int_equal(buf[63], 0x11);
	assert_int_equal(rte_comch_dpa_h2d_memcpy(dpa, spare, 57, buf, 8), -EINVAL);
	assert_int_equal(rte_comch_dpa_h2d_memcpy(dpa, spare, 65, buf, 0), -EINVAL);
	assert_int_equal(rte_comch_dpa_h2d_memcpy(dpa, spare, 8, buf, UINT64_MAX), -EINVAL);
	assert_int_equal(rte_comch_dpa_h2d_memcpy(dpa, spare, 64, buf, 0), 0);
	assert_int_equal(rte_comch_dpa_d2h_memcpy(dpa, buf, spare, 0, 65), -EINVAL);
	assert_int_equal(rte_comch_dpa_memset(dpa, spare, 60, 0, 5), -EINVAL);
	assert_int_equal(rte_comch_dpa_h2d_memcpy(NULL, spare, 0, buf, 1), -EINVAL);
	assert_int_equal(rte_comch_dpa_h2d_memcpy(dpa, spare, 0, NULL, 1), -EINVAL);
	assert_int_equal(rte_comch_dpa_d2h_memcpy(NULL, buf, spare, 0, 1), -EINVAL);
	assert_int_equal(rte_comch_dpa_d2h_memcpy(dpa, NULL, spare, 0, 1), -EINVAL);
	assert_int_equal(rte_comch_dpa_memset(NULL, spare, 0, 0, 1), -EINVAL);
	/* stale, of another dpa, of another kind, forged */
	assert_int_equal(rte_comch_dpa_h2d_memcpy(dpa, stale, 0, buf, 1), -EINVAL);
	assert_int_equal(rte_comch_dpa_d2h_memcpy(dpa, buf, stale, 0, 1), -EINVAL);
	assert_int_equal(rte_comch_dpa_memset(dpa, stale, 0, 0, 1), -EINVAL);
	assert_int_equal(rte_comch_dpa_mem_free(dpa, stale), -EINVAL);
	assert_int_equal(rte_comch_dpa_h2d_memcpy(dpa, other, 0, buf, 1), -EINVAL);
	assert_int_equal(rte_comch_dpa_mem_free(dpa, other), -EINVAL);
	assert_int_equal(rte_comch_dpa_mem_free(dpa, 0x12345678), -EINVAL);
	assert_int_equal(rte_comch_dpa_mem_free(NULL, spare), -EINVAL);

	/* a program configured through DPA memory, its argument a handle */
	tc.arg = m;
	t = rte_comch_dpa_thread_create(dpa, &tc);
	assert_non_null(t);
	assert_int_equal(rte_comch_dpa_thread_start(t), 0);
	assert_int_equal(rte_comch_dpa_thread_run(t), 0);
	cq = ct_dpa_cq_new(dpa, 2, NULL, &c.cq);
	c.self = m;
	c.stale = stale;
	c.size = sizeof(c);
	assert_int_equal(rte_comch_dpa_h2d_memcpy(dpa, m, 0, &c, sizeof(c)), 0);
	assert_int_equal(rte_comch_dpa_start(dpa), 0);
	assert_int_equal(rte_comch_dpa_thread_notify(t), 0);
	{
		uint64_t deadline = ct_now_ms() + CT_TIMEOUT_MS;

		while (thread_stats(t).returns < 1 && ct_now_ms() < deadline)
			usleep(50);
	}
	/* stopped: the program's writes are ours to read */
	assert_int_equal(rte_comch_dpa_stop(dpa), 0);
	assert_int_equal(rte_comch_dpa_d2h_memcpy(dpa, &back, m, 0, sizeof(back)), 0);
	assert_int_equal(back.runs, 1);
	assert_int_equal(back.bad, 0);
	assert_int_equal(back.tail[0], 0x5a);
	assert_int_equal(back.tail[15], 0x5a);

	assert_int_equal(rte_comch_dpa_destroy(dpa), -EBUSY);
	ct_dpa_thread_rm(t);
	assert_int_equal(rte_comch_dpa_cq_destroy(cq), 0);
	assert_int_equal(rte_comch_dpa_destroy(dpa), -EBUSY); /* buffers left */
	assert_int_equal(rte_comch_dpa_mem_free(dpa, m), 0);
	assert_int_equal(rte_comch_dpa_mem_free(dpa, spare), 0);
	assert_int_equal(rte_comch_dpa_mem_free(dpa, x), 0);
	assert_int_equal(rte_comch_dpa_mem_free(dpa2, other), 0);
	assert_int_equal(rte_comch_dpa_destroy(dpa), 0);
	assert_int_equal(rte_comch_dpa_destroy(dpa2), 0);
}

/* ------------------------------------------------------------ RPC, addresses, entries in place */

/* A program that records how many times it ran (the RPC's notify target). */
static void
prog_runs(uint64_t arg)
{
	INC((uint64_t *)(uintptr_t)arg);
}

struct rpc_free {
	struct rte_comch_dpa *dpa;
	rte_comch_dpa_handle_t mem;
	int rc;
	uint64_t done;
};

/* Frees a buffer from another thread: waits for the RPC in progress. */
static void *
rpc_free_main(void *arg)
{
	struct rpc_free *f = arg;

	f->rc = rte_comch_dpa_mem_free(f->dpa, f->mem);
	STORE(&f->done, 1);
	return NULL;
}

static void
test_dpa_rpc(void **state)
{
	struct rte_comch_dpa *dpa = ct_dpa_new(dpa_test_dev, RTE_COMCH_DPA_EXEC_PTHREAD, 1, 0, 0);
	struct rte_comch_dpa *dpa2 = ct_dpa_new(dpa_test_dev, RTE_COMCH_DPA_EXEC_PTHREAD, 1, 0, 0);
	struct rpc_free f = { .dpa = dpa };
	struct p_count nested = { .mode = 0 };
	rte_comch_dpa_handle_t mem, th;
	struct rte_comch_dpa_thread *t;
	uint64_t runs = 0;
	pthread_t tid;
	void *addr;
	int rc;

	(void)state;
	/* errors: no dpa, no RPC to end, another dpa's RPC to end */
	assert_int_equal(rte_comch_dpa_rpc_begin(NULL), -EINVAL);
	assert_int_equal(rte_comch_dpa_rpc_begin((struct rte_comch_dpa *)&nested), -EINVAL);
	assert_int_equal(rte_comch_dpa_rpc_end(dpa), -EINVAL);
	assert_int_equal(rte_comch_dpa_rpc_end(NULL), -EINVAL);
	t = ct_dpa_thread_new(dpa, prog_runs, &runs, 16, true);
	assert_int_equal(rte_comch_dpa_thread_get_dpa_handle(t, &th), 0);
	assert_int_equal(rte_comch_dpa_mem_alloc(dpa, 64, &mem), 0);
	assert_int_equal(rte_comch_dpa_mem_get_addr(dpa, mem, &addr), 0);
	assert_int_equal(rte_comch_dpa_start(dpa), 0);

	/* device-side calls outside an RPC are refused */
	assert_null(rte_comch_dpa_dev_mem_ptr(mem, 0, 8));
	assert_int_equal(rte_comch_dpa_rpc_begin(dpa), 0);
	/* inside: the dpa's objects, as a program sees them */
	assert_ptr_equal(rte_comch_dpa_dev_mem_ptr(mem, 0, 8), addr);
	assert_int_equal(rte_comch_dpa_dev_thread_notify(th), 0);
	/* no thread of its own: no local storage, no end of run (logged, returns) */
	assert_null(rte_comch_dpa_dev_thread_get_local_storage());
	rte_comch_dpa_dev_thread_reschedule();
	rte_comch_dpa_dev_thread_finish();
	/* not nested, no CPU-side call, no RPC of another dpa to end */
	assert_int_equal(rte_comch_dpa_rpc_begin(dpa), -EPERM);
	assert_int_equal(rte_comch_dpa_rpc_begin(dpa2), -EPERM);
	assert_int_equal(rte_comch_dpa_thread_stop(t), -EPERM);
	assert_int_equal(rte_comch_dpa_rpc_end(dpa2), -EINVAL);
	/* a free from another thread waits for the RPC to end */
	f.mem = mem;
	assert_int_equal(pthread_create(&tid, NULL, rpc_free_main, &f), 0);
	usleep(20000);
	assert_int_equal(LOAD(&f.done), 0);
	assert_int_equal(rte_comch_dpa_rpc_end(dpa), 0);
	assert_int_equal(pthread_join(tid, NULL), 0);
	assert_int_equal(f.rc, 0);
	assert_true(ct_dpa_wait_ge(&runs, 1));
	/* the thread is CPU again */
	assert_null(rte_comch_dpa_dev_mem_ptr(mem, 0, 8));
	assert_int_equal(rte_comch_dpa_rpc_end(dpa), -EINVAL);
	rc = rte_comch_dpa_mem_get_addr(dpa, mem, &addr);
	assert_int_equal(rc, -EINVAL); /* freed */

	assert_int_equal(rte_comch_dpa_stop(dpa), 0);
	ct_dpa_thread_rm(t);
	assert_int_equal(rte_comch_dpa_destroy(dpa), 0);
	assert_int_equal(rte_comch_dpa_destroy(dpa2), 0);
}

/* A program begins an RPC: refused, as RPCs do not nest into programs. */
struct p_rpc_in_prog {
	struct rte_comch_dpa *dpa;
	int rc;
	uint64_t done;
};

static void
prog_rpc_begin(uint64_t arg)
{
	struct p_rpc_in_prog *p = (struct p_rpc_in_prog *)(uintptr_t)arg;

	p->rc = rte_comch_dpa_rpc_begin(p->dpa);
	STORE(&p->done, 1);
}

static void
test_dpa_rpc_in_program(void **state)
{
	struct rte_comch_dpa *dpa = ct_dpa_new(dpa_test_dev, RTE_COMCH_DPA_EXEC_PTHREAD, 1, 0, 0);
	struct p_rpc_in_prog p = { .dpa = dpa, .rc = 1 };
	struct rte_comch_dpa_thread *t = ct_dpa_thread_new(dpa, prog_rpc_begin, &p, 0, true);

	(void)state;
	assert_int_equal(rte_comch_dpa_start(dpa), 0);
	assert_int_equal(rte_comch_dpa_thread_notify(t), 0);
	assert_true(ct_dpa_wait_ge(&p.done, 1));
	assert_int_equal(p.rc, -EPERM);
	assert_int_equal(rte_comch_dpa_stop(dpa), 0);
	ct_dpa_thread_rm(t);
	assert_int_equal(rte_comch_dpa_destroy(dpa), 0);
}

static void
test_dpa_mem_get_addr(void **state)
{
	struct rte_comch_dpa *dpa = ct_dpa_new(dpa_test_dev, RTE_COMCH_DPA_EXEC_PTHREAD, 1, 0, 0);
	struct rte_comch_dpa *dpa2 = ct_dpa_new(dpa_test_dev, RTE_COMCH_DPA_EXEC_PTHREAD, 1, 0, 0);
	rte_comch_dpa_handle_t m, m2;
	uint64_t v = 0x0123456789abcdefull, back = 0;
	uint8_t *a, *a2;
	void *p;

	(void)state;
	assert_int_equal(rte_comch_dpa_mem_alloc(dpa, 64, &m), 0);
	assert_int_equal(rte_comch_dpa_mem_alloc(dpa, 64, &m2), 0);
	assert_int_equal(rte_comch_dpa_mem_get_addr(dpa, m, &p), 0);
	a = p;
	assert_int_equal(rte_comch_dpa_mem_get_addr(dpa, m2, &p), 0);
	a2 = p;
	assert_ptr_not_equal(a, a2);
	/* the buffer itself: the CPU's copies land there, and what is written there is read back */
	assert_int_equal(rte_comch_dpa_h2d_memcpy(dpa, m, 8, &v, sizeof(v)), 0);
	assert_memory_equal(a + 8, &v, sizeof(v));
	memset(a2, 0x77, 64);
	assert_int_equal(rte_comch_dpa_d2h_memcpy(dpa, &back, m2, 56, sizeof(back)), 0);
	assert_int_equal(back, 0x7777777777777777ull);
	/* errors */
	assert_int_equal(rte_comch_dpa_mem_get_addr(NULL, m, &p), -EINVAL);
	assert_int_equal(rte_comch_dpa_mem_get_addr(dpa, m, NULL), -EINVAL);
	assert_int_equal(rte_comch_dpa_mem_get_addr(dpa2, m, &p), -EINVAL);
	assert_int_equal(rte_comch_dpa_mem_get_addr(dpa, RTE_COMCH_DPA_HANDLE_INVALID, &p),
			 -EINVAL);
	assert_int_equal(rte_comch_dpa_mem_free(dpa, m2), 0);
	assert_int_equal(rte_comch_dpa_mem_get_addr(dpa, m2, &p), -EINVAL);
	assert_int_equal(rte_comch_dpa_mem_free(dpa, m), 0);
	assert_int_equal(rte_comch_dpa_destroy(dpa), 0);
	assert_int_equal(rte_comch_dpa_destroy(dpa2), 0);
}

static void
test_dpa_get_completion_ref(void **state)
{
	struct rte_comch_dpa *dpa = ct_dpa_new(dpa_test_dev, RTE_COMCH_DPA_EXEC_PTHREAD, 1, 0, 0);
	const struct rte_comch_dpa_cqe *r1 = NULL, *r2 = NULL, *r3 = NULL;
	struct rte_comch_dpa_cqe copy;
	rte_comch_dpa_handle_t h;
	struct rte_comch_dpa_cq *cq = ct_dpa_cq_new(dpa, 2, NULL, &h);
	uint32_t len;

	(void)state;
	post_imm(cq, 11, 0);
	post_imm(cq, 12, 0);
	post_imm(cq, 13, -EAGAIN); /* full: two places, neither acknowledged */
	assert_int_equal(rte_comch_dpa_dev_get_completion_ref(h, &r1), -EPERM);
	assert_int_equal(rte_comch_dpa_rpc_begin(dpa), 0);
	assert_int_equal(rte_comch_dpa_dev_get_completion_ref(h, NULL), -EINVAL);
	assert_int_equal(rte_comch_dpa_dev_get_completion_ref(h ^ (1ull << 40), &r1), -EINVAL);
	assert_int_equal(rte_comch_dpa_dev_get_completion_ref(h, &r1), 1);
	assert_int_equal(rte_comch_dpa_dev_get_completion_ref(h, &r2), 1);
	assert_int_equal(rte_comch_dpa_dev_get_completion_ref(h, &r3), 0);
	assert_null(r3);
	/* in place, in order, read with the accessors */
	assert_ptr_not_equal(r1, r2);
	assert_int_equal(rte_comch_dpa_dev_get_completion_user_data(r1), 11);
	assert_int_equal(rte_comch_dpa_dev_get_completion_user_data(r2), 12);
	assert_int_equal(rte_comch_dpa_dev_get_completion_producer_id(r1), 7);
	assert_non_null(rte_comch_dpa_dev_get_completion_imm(r2, &len));
	assert_int_equal(len, 8);
	/* the first place back: the next post lands there, the second entry is untouched */
	assert_int_equal(rte_comch_dpa_dev_completion_ack(h, 1), 0);
	assert_int_equal(rte_comch_dpa_rpc_end(dpa), 0);
	post_imm(cq, 14, 0);
	post_imm(cq, 15, -EAGAIN);
	assert_int_equal(rte_comch_dpa_dev_get_completion_user_data(r2), 12);
	assert_int_equal(rte_comch_dpa_rpc_begin(dpa), 0);
	assert_int_equal(rte_comch_dpa_dev_get_completion(h, &copy), 1);
	assert_int_equal(copy.user_data, 14);
	assert_int_equal(rte_comch_dpa_dev_get_completion_user_data(r1), 14);
	assert_int_equal(rte_comch_dpa_dev_completion_ack(h, 2), 0);
	assert_int_equal(rte_comch_dpa_rpc_end(dpa), 0);
	assert_int_equal(rte_comch_dpa_cq_destroy(cq), 0);
	assert_int_equal(rte_comch_dpa_destroy(dpa), 0);
}

/* ------------------------------------------------------------ stress */

/*
 * The consumer side of a DPA consumer: drain, check the sequence, ack in
 * batches, arm, reschedule. State across runs lives in local storage.
 */
struct p_stress {
	rte_comch_dpa_handle_t cq;
	uint64_t received;
	uint64_t bad;
	int in_run;
	uint64_t overlap;
};

struct p_stress_tls {
	uint64_t next;
};

static void
prog_stress(uint64_t arg)
{
	struct p_stress *p = (struct p_stress *)(uintptr_t)arg;
	struct p_stress_tls *s = rte_comch_dpa_dev_thread_get_local_storage();
	struct rte_comch_dpa_cqe e;
	uint32_t unacked = 0;
	uint64_t seq;
	uint32_t len;

	if (__atomic_exchange_n(&p->in_run, 1, __ATOMIC_ACQ_REL) != 0)
		INC(&p->overlap);
	while (rte_comch_dpa_dev_get_completion(p->cq, &e) == 1) {
		const uint8_t *imm = rte_comch_dpa_dev_get_completion_imm(&e, &len);

		memcpy(&seq, imm, sizeof(seq));
		if (len != 8 || seq != s->next ||
		    rte_comch_dpa_dev_get_completion_user_data(&e) != s->next)
			INC(&p->bad);
		s->next++;
		if (++unacked == 64) {
			rte_comch_dpa_dev_completion_ack(p->cq, unacked);
			unacked = 0;
		}
	}
	if (unacked != 0)
		rte_comch_dpa_dev_completion_ack(p->cq, unacked);
	STORE(&p->received, s->next);
	STORE(&p->in_run, 0);
	rte_comch_dpa_dev_completion_request_notification(p->cq);
	rte_comch_dpa_dev_thread_reschedule();
}

static void
run_stress(struct rte_comch_dpa *dpa, uint64_t n, uint32_t cq_size)
{
	struct p_stress p = { 0 };
	struct rte_comch_dpa_thread *t;
	struct rte_comch_dpa_thread_stats st;
	struct rte_comch_dpa_cq *cq;
	struct rte_comch_dpa_cqe e = { .producer_id = 1, .imm_len = 8 };
	uint64_t i, again = 0, t0;
	int ret;

	t = ct_dpa_thread_new(dpa, prog_stress, &p, sizeof(struct p_stress_tls), true);
	cq = ct_dpa_cq_new(dpa, cq_size, t, &p.cq);
	t0 = ct_now_ms();
	for (i = 0; i < n; i++) {
		e.user_data = i;
		memcpy(e.imm, &i, sizeof(i));
		while ((ret = rte_comch_dpa_cq_post(cq, &e)) == -EAGAIN) {
			/* back-pressure: the program has not acked yet */
			if ((++again & 63) == 0)
				sched_yield();
			else
				rte_pause();
		}
		assert_int_equal(ret, 0);
	}
	/* Within the suite's timeout; how fast is the benchmark's to say, not a test's. */
	assert_true(ct_dpa_wait_ge(&p.received, n));
	print_message("  %" PRIu64 " entries in %" PRIu64 " ms, %" PRIu64 " full retries\n", n,
		      ct_now_ms() - t0, again);
	assert_int_equal(p.bad, 0);
	assert_int_equal(p.overlap, 0);
	st = thread_stats(t);
	print_message("  %" PRIu64 " runs, %" PRIu64 " triggers (%" PRIu64 " coalesced)\n",
		      st.runs, st.triggers, st.coalesced);
	/* posts coalesce: a run drains whatever arrived since the context was armed */
	assert_true(st.runs >= 1 && st.runs < n);
	assert_true(st.runs <= st.triggers);
	assert_int_equal(st.reschedules, st.runs);
	assert_int_equal(rte_comch_dpa_thread_stop(t), 0);
	assert_int_equal(rte_comch_dpa_cq_destroy(cq), 0);
	ct_dpa_thread_rm(t);
}

static void
test_dpa_stress_pthread(void **state)
{
	struct rte_comch_dpa *dpa = ct_dpa_new(dpa_test_dev, RTE_COMCH_DPA_EXEC_PTHREAD, 1, 0, 0);

	(void)state;
	assert_int_equal(rte_comch_dpa_start(dpa), 0);
	run_stress(dpa, 1000000, 1024);
	assert_int_equal(rte_comch_dpa_stop(dpa), 0);
	assert_int_equal(rte_comch_dpa_destroy(dpa), 0);
}

/*
 * A post whose trigger the thread drops (stopped) leaves the context armed:
 * once the thread runs again, the next post wakes it, and it takes both.
 */
/* Wait until t has dropped at least n triggers. */
static bool
wait_ignored(struct rte_comch_dpa_thread *t, uint64_t n)
{
	struct rte_comch_dpa_thread_stats st;
	int i;

	for (i = 0; i < 100000; i++) {
		st = thread_stats(t);
		if (st.ignored >= n)
			return true;
		usleep(50);
	}
	return false;
}

/*
 * One started pthread unit, a prog_stress thread on it and a 16-entry context
 * attached, through which the program has taken one entry (and asked to be
 * notified of the next).
 */
struct stress_rig {
	struct rte_comch_dpa *dpa;
	struct rte_comch_dpa_thread *t;
	struct rte_comch_dpa_cq *cq;
	struct p_stress p;
};

static void
stress_rig_open(struct stress_rig *r)
{
	memset(r, 0, sizeof(*r));
	r->dpa = ct_dpa_new(dpa_test_dev, RTE_COMCH_DPA_EXEC_PTHREAD, 1, 0, 0);
	assert_int_equal(rte_comch_dpa_start(r->dpa), 0);
	r->t = ct_dpa_thread_new(r->dpa, prog_stress, &r->p, sizeof(struct p_stress_tls), true);
	r->cq = ct_dpa_cq_new(r->dpa, 16, r->t, &r->p.cq);
	post_imm(r->cq, 0, 0);
	assert_true(ct_dpa_wait_ge(&r->p.received, 1));
}

/* Check what the program saw, and destroy it all; the thread was stopped already. */
static void
stress_rig_close(struct stress_rig *r)
{
	assert_int_equal(r->p.bad, 0);
	assert_int_equal(r->p.overlap, 0);
	assert_int_equal(rte_comch_dpa_cq_destroy(r->cq), 0);
	ct_dpa_thread_rm(r->t);
	assert_int_equal(rte_comch_dpa_stop(r->dpa), 0);
	assert_int_equal(rte_comch_dpa_destroy(r->dpa), 0);
}

static void
test_dpa_dropped_trigger_keeps_arming(void **state)
{
	struct rte_comch_dpa_thread_stats st;
	struct stress_rig r;

	(void)state;
	stress_rig_open(&r);
	assert_int_equal(rte_comch_dpa_thread_stop(r.t), 0);
	post_imm(r.cq, 1, 0);
	/* Dropped by the post, or by the unit if it was still watching the context. */
	assert_true(wait_ignored(r.t, 1));
	st = thread_stats(r.t);
	assert_int_equal(st.ignored, 1);
	assert_int_equal(rte_comch_dpa_thread_run(r.t), 0);
	post_imm(r.cq, 2, 0);
	assert_true(ct_dpa_wait_ge(&r.p.received, 3));
	assert_int_equal(rte_comch_dpa_thread_stop(r.t), 0);
	stress_rig_close(&r);
}

/*
 * A program that asks to be notified at the end of each run has its unit watch
 * the context; a unit with nothing to do arms what it watches before it
 * sleeps, so a post long after the last run still triggers the thread once.
 */
static void
test_dpa_watch_then_sleep(void **state)
{
	struct rte_comch_dpa_thread_stats st;
	struct rte_comch_dpa_cq_stats cs;
	struct stress_rig r;
	uint64_t i;

	(void)state;
	stress_rig_open(&r);
	/* One at a time, each after the run of the one before: mostly watched, not armed. */
	for (i = 1; i < 100; i++) {
		post_imm(r.cq, i, 0);
		assert_true(ct_dpa_wait_ge(&r.p.received, i + 1));
	}
	/* The unit finds nothing to do, arms the context and sleeps. */
	usleep(20000);
	post_imm(r.cq, 100, 0);
	assert_true(ct_dpa_wait_ge(&r.p.received, 101));
	usleep(20000);
	post_imm(r.cq, 101, 0);
	assert_true(ct_dpa_wait_ge(&r.p.received, 102));
	assert_int_equal(rte_comch_dpa_thread_stop(r.t), 0);
	/* Each post made one trigger, whoever saw it: none lost, none twice. */
	st = thread_stats(r.t);
	assert_int_equal(st.triggers, 102);
	assert_int_equal(st.coalesced, 0);
	assert_int_equal(st.runs, 102);
	assert_int_equal(rte_comch_dpa_cq_stats_get(r.cq, &cs), 0);
	assert_int_equal(cs.notifications, 102);
	stress_rig_close(&r);
}

/*
 * What a unit watched when the dpa stops is armed: a post while it is stopped
 * triggers the thread at once (queued for the next start), as if the program
 * had armed the context itself.
 */
static void
test_dpa_watch_across_stop(void **state)
{
	struct rte_comch_dpa_thread_stats st;
	struct stress_rig r;

	(void)state;
	stress_rig_open(&r);
	assert_int_equal(rte_comch_dpa_stop(r.dpa), 0);
	post_imm(r.cq, 1, 0);
	/* Triggered by the post itself: nothing polls now. */
	st = thread_stats(r.t);
	assert_int_equal(st.triggers, 2);
	assert_int_equal(st.runs, 1);
	assert_int_equal(rte_comch_dpa_start(r.dpa), 0);
	assert_true(ct_dpa_wait_ge(&r.p.received, 2));
	post_imm(r.cq, 2, 0);
	assert_true(ct_dpa_wait_ge(&r.p.received, 3));
	assert_int_equal(rte_comch_dpa_thread_stop(r.t), 0);
	stress_rig_close(&r);
}

/* Triggers itself at the end of every run until told to stop: its unit is never idle. */
struct p_busy {
	rte_comch_dpa_handle_t self;
	int stop;
	uint64_t runs;
};

static void
prog_busy(uint64_t arg)
{
	struct p_busy *p = (struct p_busy *)(uintptr_t)arg;

	INC(&p->runs);
	if (!LOAD(&p->stop))
		rte_comch_dpa_dev_thread_notify(p->self);
	rte_comch_dpa_dev_thread_reschedule();
}

/*
 * A context destroyed while its unit watches it: the unit lets it go without
 * reading its freed entries (ASan), and a context made in its place works. A
 * thread that keeps the unit busy keeps it from ever arming what it watches,
 * and must not keep it from seeing the entries that land there either.
 */
static void
test_dpa_watch_destroyed_cq(void **state)
{
	struct rte_comch_dpa *dpa = ct_dpa_new(dpa_test_dev, RTE_COMCH_DPA_EXEC_PTHREAD, 1, 0, 0);
	struct rte_comch_dpa_thread *t1, *t2, *tb;
	struct rte_comch_dpa_cq *cq1, *cq2;
	struct p_stress p1 = { 0 }, p2 = { 0 };
	struct p_busy b = { 0 };
	int round;

	(void)state;
	assert_int_equal(rte_comch_dpa_start(dpa), 0);
	t1 = ct_dpa_thread_new(dpa, prog_stress, &p1, sizeof(struct p_stress_tls), true);
	t2 = ct_dpa_thread_new(dpa, prog_stress, &p2, sizeof(struct p_stress_tls), true);
	tb = ct_dpa_thread_new(dpa, prog_busy, &b, 0, true);
	assert_int_equal(rte_comch_dpa_thread_get_dpa_handle(tb, &b.self), 0);
	assert_int_equal(rte_comch_dpa_thread_notify(tb), 0);
	assert_true(ct_dpa_wait_ge(&b.runs, 1));
	/* Each thread's local storage counts on across rounds: so do the sequence numbers. */
	for (round = 0; round < 50; round++) {
		cq1 = ct_dpa_cq_new(dpa, 16, t1, &p1.cq);
		post_imm(cq1, round, 0);
		assert_true(ct_dpa_wait_ge(&p1.received, round + 1));
		/* Watched now: the busy unit never went idle to arm it. */
		assert_int_equal(rte_comch_dpa_thread_stop(t1), 0);
		assert_int_equal(rte_comch_dpa_cq_destroy(cq1), 0);
		assert_int_equal(rte_comch_dpa_thread_run(t1), 0);
		/* The same slot, another thread: armed at creation, not watched. */
		cq2 = ct_dpa_cq_new(dpa, 16, t2, &p2.cq);
		post_imm(cq2, 2 * round, 0);
		assert_true(ct_dpa_wait_ge(&p2.received, 2 * round + 1));
		post_imm(cq2, 2 * round + 1, 0);
		assert_true(ct_dpa_wait_ge(&p2.received, 2 * round + 2));
		assert_int_equal(p1.bad + p2.bad, 0);
		assert_int_equal(rte_comch_dpa_thread_stop(t2), 0);
		assert_int_equal(rte_comch_dpa_cq_destroy(cq2), 0);
		assert_int_equal(rte_comch_dpa_thread_run(t2), 0);
	}
	STORE(&b.stop, 1);
	assert_int_equal(rte_comch_dpa_thread_stop(tb), 0);
	ct_dpa_thread_rm(tb);
	ct_dpa_thread_rm(t1);
	ct_dpa_thread_rm(t2);
	assert_int_equal(rte_comch_dpa_stop(dpa), 0);
	assert_int_equal(rte_comch_dpa_destroy(dpa), 0);
}

/* Many threads on two units, triggered over and over: never two runs of one at once. */
static void
test_dpa_many_threads(void **state)
{
	enum { NB = 8, ROUNDS = 2000 };
	struct rte_comch_dpa *dpa = ct_dpa_new(dpa_test_dev, RTE_COMCH_DPA_EXEC_PTHREAD, 2, NB, 0);
	struct p_count p[NB];
	struct rte_comch_dpa_thread *t[NB];
	struct rte_comch_dpa_thread_stats st;
	int i, r;

	(void)state;
	memset(p, 0, sizeof(p));
	for (i = 0; i < NB; i++)
		t[i] = ct_dpa_thread_new(dpa, prog_count, &p[i], 0, true);
	assert_int_equal(rte_comch_dpa_start(dpa), 0);
	for (r = 0; r < ROUNDS; r++)
		for (i = 0; i < NB; i++)
			assert_int_equal(rte_comch_dpa_thread_notify(t[i]), 0);
	/* the last trigger of each is never lost: each runs after it */
	for (i = 0; i < NB; i++) {
		uint64_t target;

		st = thread_stats(t[i]);
		target = st.triggers - st.coalesced;
		assert_true(ct_dpa_wait_ge(&p[i].runs, target));
	}
	assert_int_equal(rte_comch_dpa_stop(dpa), 0);
	for (i = 0; i < NB; i++) {
		st = thread_stats(t[i]);
		assert_int_equal(st.triggers, ROUNDS);
		assert_int_equal(st.runs, st.triggers - st.coalesced);
		assert_int_equal(p[i].overlap, 0);
		ct_dpa_thread_rm(t[i]);
	}
	assert_int_equal(rte_comch_dpa_destroy(dpa), 0);
}

/* ------------------------------------------------------------ service cores */

static void
test_dpa_service_cores(void **state)
{
	struct rte_comch_dpa *dpa = ct_dpa_new(dpa_test_dev, RTE_COMCH_DPA_EXEC_SERVICE, 2, 0, 0);
	struct p_count pf = { .mode = 2 };
	struct rte_comch_dpa_thread *tf;
	uint32_t ids[2];
	unsigned int u;

	(void)state;
	if (rte_lcore_count() < 2) {
		print_message("  (needs two lcores: skipped)\n");
		rte_comch_dpa_destroy(dpa);
		skip();
	}
	assert_int_equal(rte_service_lcore_add(1), 0);
	for (u = 0; u < 2; u++) {
		assert_int_equal(rte_comch_dpa_unit_service_id(dpa, u, &ids[u]), 0);
		assert_int_equal(rte_service_map_lcore_set(ids[u], 1, 1), 0);
		assert_int_equal(rte_service_runstate_set(ids[u], 1), 0);
	}
	assert_int_equal(rte_service_lcore_start(1), 0);
	assert_int_equal(rte_comch_dpa_start(dpa), 0);

	run_stress(dpa, 200000, 256);
	tf = ct_dpa_thread_new(dpa, prog_count, &pf, 0, true);
	assert_int_equal(rte_comch_dpa_thread_notify(tf), 0);
	assert_true(ct_dpa_wait_ge(&pf.runs, 1));
	assert_int_equal(rte_comch_dpa_stop(dpa), 0);
	assert_int_equal(pf.after, 0);
	assert_int_equal(rte_comch_dpa_thread_notify(tf), -EPERM);
	ct_dpa_thread_rm(tf);

	for (u = 0; u < 2; u++) {
		assert_int_equal(rte_service_runstate_set(ids[u], 0), 0);
		assert_int_equal(rte_service_map_lcore_set(ids[u], 1, 0), 0);
	}
	assert_int_equal(rte_service_lcore_stop(1), 0);
	assert_int_equal(rte_service_lcore_del(1), 0);
	assert_int_equal(rte_comch_dpa_destroy(dpa), 0);
}

/* ------------------------------------------------------------ main */

static int
dpa_group_setup(void **state)
{
	char d[32], devargs[96];

	if (ct_group_setup(state) != 0)
		return -1;
	ct_domain(d, sizeof(d));
	snprintf(devargs, sizeof(devargs), "skeleton:domain=%s,role=dpu", d);
	dpa_test_dev = rte_comch_dev_open(devargs);
	return dpa_test_dev != NULL ? 0 : -1;
}

static int
dpa_group_teardown(void **state)
{
	if (dpa_test_dev != NULL)
		rte_comch_dev_close(dpa_test_dev);
	return ct_group_teardown(state);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dpa_create_errors),
		cmocka_unit_test(test_dpa_thread_errors),
		cmocka_unit_test(test_dpa_control_two_threads),
		cmocka_unit_test(test_dpa_cq_errors),
		cmocka_unit_test(test_dpa_dev_outside_program),
		cmocka_unit_test(test_dpa_dev_bad_handles),
		cmocka_unit_test(test_dpa_run_end),
		cmocka_unit_test(test_dpa_trigger_while_running),
		cmocka_unit_test(test_dpa_dev_notify),
		cmocka_unit_test(test_dpa_cpu_calls_in_program),
		cmocka_unit_test(test_dpa_local_storage),
		cmocka_unit_test(test_dpa_cq_semantics),
		cmocka_unit_test(test_dpa_mem),
		cmocka_unit_test(test_dpa_mem_get_addr),
		cmocka_unit_test(test_dpa_rpc),
		cmocka_unit_test(test_dpa_rpc_in_program),
		cmocka_unit_test(test_dpa_get_completion_ref),
		cmocka_unit_test(test_dpa_stress_pthread),
		cmocka_unit_test(test_dpa_dropped_trigger_keeps_arming),
		cmocka_unit_test(test_dpa_watch_then_sleep),
		cmocka_unit_test(test_dpa_watch_across_stop),
		cmocka_unit_test(test_dpa_watch_destroyed_cq),
		cmocka_unit_test(test_dpa_many_threads),
		cmocka_unit_test(test_dpa_service_cores),
	};

	if (getenv("COMCH_TEST_FILTER") != NULL)
		cmocka_set_test_filter(getenv("COMCH_TEST_FILTER"));
	return cmocka_run_group_tests_name("comch_dpa", tests, dpa_group_setup,
					   dpa_group_teardown);
}
