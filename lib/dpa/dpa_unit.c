/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Execution units: each has a run queue of triggered threads and a dispatch
 * loop that runs them one at a time, from their entry, and catches the
 * longjmp() with which reschedule and finish end a run. A unit is driven by
 * an rte_service (service mode) or by a pthread of its own (pthread mode).
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_pause.h>
#include <rte_service.h>
#include <rte_service_component.h>

#include "dpa_private.h"

/* Threads taken from the run queue per poll. */
#define DPA_UNIT_BURST 32
/* Empty polls a pthread unit spins before it sleeps. */
#define DPA_UNIT_SPIN 256
/* A sleeping pthread unit also wakes up this often, as a safety net. */
#define DPA_UNIT_NAP_NS 1000000

/* Run thread slot once, if it may run; the unit's seq is odd meanwhile. */
static void
dpa_unit_run_one(struct dpa_unit *u, uint32_t slot)
{
	struct rte_comch_dpa_thread *t = &u->dpa->threads[slot];
	/* A program may run another dpa's unit (a service iteration): nested. */
	struct dpa_exec *outer = dpa_cur_exec;
	struct dpa_exec ex;
	int end;

	/* Odd before the checks below: see dpa_grace_wait(). */
	comch_fetch_add_seq_cst(&u->seq, 1);
	/* Cleared before the run: a trigger from now on queues the thread again. */
	comch_store_seq_cst(&t->pending, 0);
	/*
	 * The slot may have been destroyed, and even reused by a thread of
	 * another unit, since it was queued: run only a live, running thread of
	 * this unit.
	 */
	if (comch_load_acquire(&t->live) == 0 || comch_load_relaxed(&t->unit) != u->id)
		goto out;
	if (comch_load_seq_cst(&t->state) != DPA_THREAD_RUNNING) {
		/* Stopped or finished after it was triggered: that trigger is dropped. */
		DPA_STAT_INC(&t->run.ignored);
		goto out;
	}
	ex.dpa = u->dpa;
	ex.thread = t;
	ex.unit = u;
	ex.end = 0;
	dpa_cur_exec = &ex;
	DPA_STAT_INC(&t->run.runs);
	if (setjmp(ex.jb) == 0) {
		t->func(t->arg);
		ex.end = DPA_END_RETURN;
	}
	dpa_cur_exec = outer;
	end = ex.end;
	switch (end) {
	case DPA_END_RESCHEDULE:
		DPA_STAT_INC(&t->run.reschedules);
		break;
	case DPA_END_FINISH: {
		int expected = DPA_THREAD_RUNNING;

		DPA_STAT_INC(&t->run.finishes);
		/* Unless the CPU stopped it meanwhile, which wins. */
		comch_cas_seq_cst_relaxed(&t->state, &expected, DPA_THREAD_FINISHED);
		break;
	}
	default:
		DPA_STAT_INC(&t->run.returns);
		break;
	}
out:
	comch_fetch_add_release(&u->seq, 1);
}

/* Run the threads waiting in u's run queue (a burst of them); returns how many. */
static unsigned int
dpa_unit_run_queued(struct dpa_unit *u)
{
	void *objs[DPA_UNIT_BURST];
	unsigned int n, i;

	n = rte_ring_sc_dequeue_burst(u->runq, objs, DPA_UNIT_BURST, NULL);
	for (i = 0; i < n; i++)
		dpa_unit_run_one(u, (uint32_t)(uintptr_t)objs[i]);
	return n;
}

/*
 * One poll of a unit: its run queue, then the contexts it watches (every
 * time: threads that keep triggering themselves must not starve them), and
 * the threads that triggered at once. After DPA_UNIT_SPIN polls in a row that
 * found nothing, it arms what it watches (dpa_watch.c). Returns the number of
 * threads run or triggered.
 */
static unsigned int
dpa_unit_poll(struct dpa_unit *u)
{
	unsigned int n = dpa_unit_run_queued(u);
	uint32_t run[DPA_UNIT_BURST];
	unsigned int nb_run, i;

	/* Its own threads that the contexts triggered run at once, not through the queue. */
	n += dpa_watch_poll(u, run, RTE_DIM(run), &nb_run);
	for (i = 0; i < nb_run; i++)
		dpa_unit_run_one(u, run[i]);
	if (n != 0) {
		u->idle = 0;
	} else if (++u->idle >= DPA_UNIT_SPIN) {
		dpa_watch_arm_all(u);
		u->idle = 0;
	}
	return n;
}

/*
 * Units made so far, counted with release after each unit's set-up. A service
 * core learns of a unit through the service framework, which is not
 * instrumented: reading this with acquire first tells ThreadSanitizer what
 * the framework orders anyway, that the set-up came before the call.
 */
static uint64_t dpa_units_made;

/*
 * The service of a unit. It polls only while the dpa is started, and says
 * when it is inside: stop waits on that flag, in code that sanitizers see,
 * rather than on the service core framework alone.
 */
static int32_t
dpa_unit_service(void *arg)
{
	struct dpa_unit *u = arg;
	unsigned int n = 0;

	(void)comch_load_acquire(&dpa_units_made);
	comch_store_seq_cst(&u->in_service, 1);
	if (comch_load_seq_cst(&u->running))
		n = dpa_unit_poll(u);
	comch_store_release(&u->in_service, 0);
	/* -EAGAIN tells newer service cores that there was nothing to do. */
	return n > 0 ? 0 : -EAGAIN;
}

/*
 * Whether the run queue holds a slot: its tails read as atomics (seq_cst for
 * the producers', written by kicks), where rte_ring_count() reads them plainly.
 */
static bool
dpa_runq_empty(const struct rte_ring *r)
{
	return comch_load_seq_cst(&r->prod.tail) == comch_load_relaxed(&r->cons.tail);
}

/*
 * Sleep unless a thread is queued. Against dpa_unit_kick(): each side stores
 * (sleeping; the queued slot), fences, then reads what the other stores, so
 * one of the two sees the other: the nap finds the slot, or the kick finds
 * the unit asleep and signals it, under the lock held from here to the wait.
 */
static void
dpa_unit_nap(struct dpa_unit *u)
{
	struct timespec ts;

	pthread_mutex_lock(&u->lock);
	comch_store_seq_cst(&u->sleeping, 1);
	comch_fence_seq_cst();
	if (dpa_runq_empty(u->runq) && comch_load_acquire(&u->running)) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_nsec += DPA_UNIT_NAP_NS;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&u->cond, &u->lock, &ts);
	}
	comch_store_relaxed(&u->sleeping, 0);
	pthread_mutex_unlock(&u->lock);
}

static void *
dpa_unit_pthread(void *arg)
{
	struct dpa_unit *u = arg;

	while (comch_load_acquire(&u->running)) {
		if (dpa_unit_poll(u) > 0)
			continue;
		/* Nothing, and the count restarted: it armed what it watched, it may sleep. */
		if (u->idle == 0)
			dpa_unit_nap(u);
		else
			rte_pause();
	}
	return NULL;
}

/* Queue a triggered thread slot (its pending flag just went from 0 to 1). */
void
dpa_unit_kick(struct dpa_unit *u, uint32_t slot)
{
	int ret;

	/*
	 * One producer at a time, under a lock: CPU threads and programs queue
	 * threads at once, and the lock hands the ring from one to the next
	 * with acquire and release, where DPDK 22.11's multi-producer enqueue
	 * waits for the producer before it with a relaxed read (which
	 * ThreadSanitizer rightly reports). Not on the hot path: a unit
	 * runs the triggers of the contexts it watches without queueing them.
	 */
	comch_spin_lock(&u->kick_lock);
	ret = rte_ring_sp_enqueue(u->runq, (void *)(uintptr_t)slot);
	comch_spin_unlock(&u->kick_lock);
	/* Cannot fail: a slot is queued at most once and the queue holds them all. */
	if (ret != 0) {
		DPA_LOG(ERR, "dpa %u unit %u: run queue full", u->dpa->tag, u->id);
		return;
	}
	if (u->dpa->mode != RTE_COMCH_DPA_EXEC_PTHREAD)
		return;
	/* The slot queued, then whether the unit sleeps: see dpa_unit_nap(). */
	comch_fence_seq_cst();
	if (comch_load_seq_cst(&u->sleeping)) {
		pthread_mutex_lock(&u->lock);
		pthread_cond_signal(&u->cond);
		pthread_mutex_unlock(&u->lock);
	}
}

int
dpa_units_init(struct rte_comch_dpa *dpa)
{
	uint32_t count = rte_align32pow2(dpa->max_threads + 1);
	ssize_t memsize = rte_ring_get_memsize(count);
	pthread_condattr_t ca;
	uint32_t i;
	int ret = 0;

	/* The units come zeroed (comch_zalloc_lines()). */
	for (i = 0; i < dpa->nb_units; i++) {
		struct dpa_unit *u = &dpa->units[i];
		char name[RTE_RING_NAMESIZE];

		u->dpa = dpa;
		u->id = i;
		u->watch = calloc(RTE_MAX(dpa->max_cqs, 1u), sizeof(*u->watch));
		if (u->watch == NULL) {
			DPA_LOG(ERR, "out of memory");
			ret = -ENOMEM;
			break;
		}
		u->runq = aligned_alloc(RTE_CACHE_LINE_SIZE, RTE_ALIGN_CEIL(memsize,
								    RTE_CACHE_LINE_SIZE));
		if (u->runq == NULL) {
			DPA_LOG(ERR, "out of memory");
			ret = -ENOMEM;
			break;
		}
		snprintf(name, sizeof(name), "comch_dpa%u_u%u", dpa->tag, i);
		/* One producer at a time (under kick_lock), one consumer. */
		ret = rte_ring_init(u->runq, name, count, RING_F_SP_ENQ | RING_F_SC_DEQ);
		comch_spinlock_init(&u->kick_lock);
		if (ret < 0) {
			DPA_LOG(ERR, "rte_ring_init: %d", ret);
			free(u->runq);
			u->runq = NULL;
			break;
		}
		pthread_condattr_init(&ca);
		pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
		pthread_cond_init(&u->cond, &ca);
		pthread_condattr_destroy(&ca);
		pthread_mutex_init(&u->lock, NULL);
		/* Published before the service framework can call the unit. */
		comch_fetch_add_release(&dpa_units_made, 1);
		if (dpa->mode == RTE_COMCH_DPA_EXEC_SERVICE) {
			struct rte_service_spec spec;

			memset(&spec, 0, sizeof(spec));
			snprintf(spec.name, sizeof(spec.name), "comch_dpa%u_unit%u", dpa->tag, i);
			spec.callback = dpa_unit_service;
			spec.callback_userdata = u;
			spec.socket_id = SOCKET_ID_ANY;
			ret = rte_service_component_register(&spec, &u->service_id);
			if (ret < 0) {
				DPA_LOG(ERR, "rte_service_component_register(%s): %d", spec.name,
					ret);
				break;
			}
			u->service_registered = true;
		}
	}
	if (ret < 0)
		dpa_units_fini(dpa);
	return ret;
}

void
dpa_units_fini(struct rte_comch_dpa *dpa)
{
	uint32_t i;

	for (i = 0; i < dpa->nb_units; i++) {
		struct dpa_unit *u = &dpa->units[i];

		free(u->watch);
		u->watch = NULL;
		if (u->runq == NULL)
			continue;
		if (u->service_registered)
			rte_service_component_unregister(u->service_id);
		u->service_registered = false;
		pthread_cond_destroy(&u->cond);
		pthread_mutex_destroy(&u->lock);
		free(u->runq);
		u->runq = NULL;
	}
}

int
dpa_units_start(struct rte_comch_dpa *dpa)
{
	char name[32];
	uint32_t i;
	int ret;

	for (i = 0; i < dpa->nb_units; i++) {
		struct dpa_unit *u = &dpa->units[i];

		if (dpa->mode == RTE_COMCH_DPA_EXEC_SERVICE) {
			comch_store_seq_cst(&u->running, 1);
			rte_service_component_runstate_set(u->service_id, 1);
			continue;
		}
		comch_store_release(&u->running, 1);
		ret = pthread_create(&u->tid, NULL, dpa_unit_pthread, u);
		if (ret != 0) {
			DPA_LOG(ERR, "dpa %u unit %u: pthread_create: %s", dpa->tag, i,
				strerror(ret));
			comch_store_release(&u->running, 0);
			dpa_units_stop(dpa);
			return -ret;
		}
		u->tid_valid = true;
		/* At most "dpa255-u63": within the kernel's 16 bytes. */
		snprintf(name, sizeof(name), "dpa%u-u%u", dpa->tag, i);
		pthread_setname_np(u->tid, name);
	}
	return 0;
}

void
dpa_units_stop(struct rte_comch_dpa *dpa)
{
	uint32_t i;

	for (i = 0; i < dpa->nb_units; i++) {
		struct dpa_unit *u = &dpa->units[i];

		if (dpa->mode == RTE_COMCH_DPA_EXEC_SERVICE) {
			rte_service_component_runstate_set(u->service_id, 0);
			/* A service core may be inside the callback still: wait it out. */
			comch_store_seq_cst(&u->running, 0);
			while (comch_load_seq_cst(&u->in_service) != 0)
				rte_pause();
			while (rte_service_may_be_active(u->service_id) == 1)
				rte_pause();
			/*
			 * An invocation the framework let in before it saw the
			 * runstate may have set the flag after the first wait:
			 * it is over now, and reading its release of the flag
			 * says so where ThreadSanitizer sees it (the framework's
			 * own ordering is not instrumented).
			 */
			while (comch_load_acquire(&u->in_service) != 0)
				rte_pause();
			continue;
		}
		if (!u->tid_valid)
			continue;
		comch_store_release(&u->running, 0);
		pthread_mutex_lock(&u->lock);
		pthread_cond_signal(&u->cond);
		pthread_mutex_unlock(&u->lock);
		pthread_join(u->tid, NULL);
		u->tid_valid = false;
	}
	dpa_grace_wait(dpa);
	/* Nobody polls now: what the units watched is armed, as it was asked to be. */
	for (i = 0; i < dpa->nb_units; i++)
		dpa_watch_arm_all(&dpa->units[i]);
}

int
rte_comch_dpa_unit_service_id(const struct rte_comch_dpa *dpa, uint32_t unit,
			      uint32_t *service_id)
{
	if (dpa == NULL || service_id == NULL || unit >= dpa->nb_units) {
		DPA_LOG(ERR, "dpa or service_id is NULL, or unit %u out of range", unit);
		return -EINVAL;
	}
	if (dpa->mode != RTE_COMCH_DPA_EXEC_SERVICE) {
		DPA_LOG(ERR, "dpa %u: units are pthreads, not services", dpa->tag);
		return -ENOTSUP;
	}
	*service_id = dpa->units[unit].service_id;
	return 0;
}
