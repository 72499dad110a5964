/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * DPA threads: their life (create, start, run, stop, destroy), their
 * handles, and triggers, which queue a thread on its unit at most once.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>

#include "dpa_private.h"

static const char *
dpa_state_name(int state)
{
	switch (state) {
	case DPA_THREAD_IDLE: return "idle";
	case DPA_THREAD_STARTED: return "started";
	case DPA_THREAD_RUNNING: return "running";
	case DPA_THREAD_FINISHED: return "finished";
	default: return "free";
	}
}

rte_comch_dpa_handle_t
dpa_thread_handle(const struct rte_comch_dpa_thread *t)
{
	return rte_comch_dpa_handle_make(DPA_KIND_THREAD, t->dpa->tag, t->gen, t->slot);
}

/* The thread pointer the CPU passed, if it names a live thread. */
static int
dpa_thread_check(const struct rte_comch_dpa_thread *t, const char *func)
{
	return dpa_obj_check(DPA_LIVE(t), "thread", func);
}

/* A set of thread states, for dpa_thread_ctl_lock(). */
#define DPA_STATE(s) (1u << (s))
#define DPA_STATE_ANY UINT32_MAX

/*
 * Open a CPU call that changes a thread's state: not NULL (-EINVAL), not
 * called from a DPA program (-EPERM), then under its dpa's control lock: a
 * live thread (-EINVAL) in one of the states (else -EBUSY, logged with why).
 * Returns the state, the lock held (dpa_ctl_unlock() when done), or the
 * error, the lock not held. A destroyed thread's slot (and so t->dpa) lives
 * as long as its dpa.
 */
static int
dpa_thread_ctl_lock(struct rte_comch_dpa_thread *t, uint32_t states, const char *why,
		    const char *func)
{
	int ret = dpa_thread_check(t, func);
	int state;

	if (ret == 0)
		ret = dpa_ctl_lock(t->dpa, func);
	if (ret < 0)
		return ret;
	/* Again under the lock: another thread may have destroyed it meanwhile. */
	ret = dpa_thread_check(t, func);
	if (ret == 0) {
		state = comch_load_seq_cst(&t->state);
		if ((DPA_STATE(state) & states) != 0)
			return state;
		DPA_LOG_FN(ERR, func, "dpa %u thread %u: %s, %s", t->dpa->tag, t->slot,
			   dpa_state_name(state), why);
		ret = -EBUSY;
	}
	dpa_ctl_unlock(t->dpa);
	return ret;
}

int
dpa_thread_trigger_begin(struct rte_comch_dpa_thread *t)
{
	if (comch_load_seq_cst(&t->state) != DPA_THREAD_RUNNING) {
		DPA_STAT_INC_MT(&t->trig.ignored);
		DPA_LOG(DEBUG, "dpa %u thread %u: trigger dropped, thread %s", t->dpa->tag,
			t->slot, dpa_state_name(comch_load_relaxed(&t->state)));
		return -EPERM;
	}
	DPA_STAT_INC_MT(&t->trig.triggers);
	if (comch_exchange_seq_cst(&t->pending, 1) != 0) {
		/* Queued and not yet taken: the run to come sees this trigger's work. */
		DPA_STAT_INC_MT(&t->trig.coalesced);
		return 0;
	}
	return 1;
}

int
dpa_thread_trigger(struct rte_comch_dpa_thread *t)
{
	int ret = dpa_thread_trigger_begin(t);

	if (ret <= 0)
		return ret;
	dpa_unit_kick(&t->dpa->units[comch_load_relaxed(&t->unit)], t->slot);
	return 0;
}

struct rte_comch_dpa_thread *
rte_comch_dpa_thread_create(struct rte_comch_dpa *dpa,
			    const struct rte_comch_dpa_thread_conf *conf)
{
	struct rte_comch_dpa_thread *t = NULL;
	uint32_t i;
	int ret;

	if (dpa == NULL || conf == NULL || conf->func == NULL ||
	    conf->local_storage_size > RTE_COMCH_DPA_TLS_MAX ||
	    (conf->unit != RTE_COMCH_DPA_UNIT_ANY && conf->unit >= dpa->nb_units)) {
		DPA_LOG(ERR, "dpa or conf is NULL, no entry function, local storage above %u "
			"or unit out of range", RTE_COMCH_DPA_TLS_MAX);
		rte_errno = EINVAL;
		return NULL;
	}
	ret = dpa_ctl_lock(dpa, __func__);
	if (ret < 0) {
		rte_errno = -ret;
		return NULL;
	}
	/* A slot still queued on a unit (pending) is not reused until the unit takes it. */
	for (i = 0; i < dpa->max_threads; i++) {
		if (dpa->threads[i].live == 0 &&
		    comch_load_acquire(&dpa->threads[i].pending) == 0) {
			t = &dpa->threads[i];
			break;
		}
	}
	if (t == NULL) {
		DPA_LOG(ERR, "dpa %u: %u threads exist already", dpa->tag, dpa->max_threads);
		dpa_ctl_unlock(dpa);
		rte_errno = ENOSPC;
		return NULL;
	}
	t->func = conf->func;
	t->arg = conf->arg;
	t->tls_size = conf->local_storage_size;
	t->tls = NULL;
	t->nb_cqs = 0;
	if (conf->unit != RTE_COMCH_DPA_UNIT_ANY) {
		comch_store_relaxed(&t->unit, conf->unit);
	} else {
		comch_store_relaxed(&t->unit, dpa->next_unit);
		dpa->next_unit = (dpa->next_unit + 1) % dpa->nb_units;
	}
	memset(&t->trig, 0, sizeof(t->trig));
	memset(&t->run, 0, sizeof(t->run));
	t->gen = rte_comch_dpa_next_gen(t->gen);
	comch_store_relaxed(&t->state, DPA_THREAD_IDLE);
	comch_store_release(&t->live, t->gen);
	dpa->nb_threads++;
	dpa_ctl_unlock(dpa);
	return t;
}

int
rte_comch_dpa_thread_start(struct rte_comch_dpa_thread *thread)
{
	int ret = dpa_thread_ctl_lock(thread, DPA_STATE(DPA_THREAD_IDLE), "not idle", __func__);

	if (ret < 0)
		return ret;
	ret = 0;
	if (thread->tls_size != 0) {
		thread->tls = calloc(1, thread->tls_size);
		if (thread->tls == NULL) {
			DPA_LOG(ERR, "out of memory for %u bytes of local storage",
				thread->tls_size);
			ret = -ENOMEM;
		}
	}
	if (ret == 0)
		comch_store_seq_cst(&thread->state, DPA_THREAD_STARTED);
	dpa_ctl_unlock(thread->dpa);
	return ret;
}

int
rte_comch_dpa_thread_run(struct rte_comch_dpa_thread *thread)
{
	/* FINISHED only moves to RUNNING here and to STARTED in stop: no race with the unit. */
	int ret = dpa_thread_ctl_lock(thread, DPA_STATE(DPA_THREAD_STARTED) |
				      DPA_STATE(DPA_THREAD_FINISHED),
				      "neither started nor finished", __func__);

	if (ret < 0)
		return ret;
	comch_store_seq_cst(&thread->state, DPA_THREAD_RUNNING);
	dpa_ctl_unlock(thread->dpa);
	return 0;
}

int
rte_comch_dpa_thread_stop(struct rte_comch_dpa_thread *thread)
{
	int ret = dpa_thread_ctl_lock(thread, DPA_STATE(DPA_THREAD_RUNNING) |
				      DPA_STATE(DPA_THREAD_FINISHED),
				      "neither running nor finished", __func__);

	if (ret < 0)
		return ret;
	/* Exchange, not store: the unit may turn RUNNING into FINISHED meanwhile. */
	comch_exchange_seq_cst(&thread->state, DPA_THREAD_STARTED);
	dpa_grace_wait(thread->dpa);
	dpa_ctl_unlock(thread->dpa);
	return 0;
}

int
rte_comch_dpa_thread_destroy(struct rte_comch_dpa_thread *thread)
{
	int state = dpa_thread_ctl_lock(thread, DPA_STATE_ANY, NULL, __func__);

	if (state < 0)
		return state;
	if (state == DPA_THREAD_RUNNING || state == DPA_THREAD_FINISHED ||
	    thread->nb_cqs != 0) {
		DPA_LOG(ERR, "dpa %u thread %u: %s, %u completion contexts attached",
			thread->dpa->tag, thread->slot, dpa_state_name(state), thread->nb_cqs);
		dpa_ctl_unlock(thread->dpa);
		return -EBUSY;
	}
	comch_store_seq_cst(&thread->live, 0);
	comch_store_seq_cst(&thread->state, DPA_THREAD_FREE);
	/* A unit may be looking at the slot (it was queued): let it finish looking. */
	dpa_grace_wait(thread->dpa);
	free(thread->tls);
	thread->tls = NULL;
	thread->dpa->nb_threads--;
	dpa_ctl_unlock(thread->dpa);
	return 0;
}

int
rte_comch_dpa_thread_notify(struct rte_comch_dpa_thread *thread)
{
	int ret = dpa_thread_check(thread, __func__);

	if (ret < 0)
		return ret;
	ret = dpa_thread_trigger(thread);
	if (ret < 0)
		DPA_LOG(ERR, "dpa %u thread %u: not running, trigger dropped", thread->dpa->tag,
			thread->slot);
	return ret;
}

int
rte_comch_dpa_thread_get_dpa_handle(const struct rte_comch_dpa_thread *thread,
				    rte_comch_dpa_handle_t *handle)
{
	int ret = dpa_get_check(DPA_LIVE(thread), "thread", handle, "handle", __func__);

	if (ret < 0)
		return ret;
	*handle = dpa_thread_handle(thread);
	return 0;
}

int
rte_comch_dpa_thread_stats_get(const struct rte_comch_dpa_thread *thread,
			       struct rte_comch_dpa_thread_stats *stats)
{
	int ret = dpa_get_check(DPA_LIVE(thread), "thread", stats, "stats", __func__);

	if (ret < 0)
		return ret;
	stats->triggers = DPA_STAT_GET(&thread->trig.triggers);
	stats->coalesced = DPA_STAT_GET(&thread->trig.coalesced);
	stats->ignored = DPA_STAT_GET(&thread->trig.ignored) + DPA_STAT_GET(&thread->run.ignored);
	stats->runs = DPA_STAT_GET(&thread->run.runs);
	stats->reschedules = DPA_STAT_GET(&thread->run.reschedules);
	stats->returns = DPA_STAT_GET(&thread->run.returns);
	stats->finishes = DPA_STAT_GET(&thread->run.finishes);
	return 0;
}
