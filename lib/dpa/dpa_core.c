/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The dpa object: configuration, its object tables, start and stop, and the
 * grace period that stop and destroy wait for.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_pause.h>

#include "dpa_private.h"

RTE_LOG_REGISTER_DEFAULT(dpa_logtype, NOTICE);

__thread struct dpa_exec *dpa_cur_exec __attribute__((tls_model("initial-exec")));

/* Tags of the live dpas: a handle names its dpa by tag, 1 to 255. */
static pthread_mutex_t dpa_tags_lock = PTHREAD_MUTEX_INITIALIZER;
static bool dpa_tags[256];

static int
dpa_tag_get(void)
{
	int tag;

	pthread_mutex_lock(&dpa_tags_lock);
	for (tag = 1; tag < 256; tag++) {
		if (!dpa_tags[tag]) {
			dpa_tags[tag] = true;
			break;
		}
	}
	pthread_mutex_unlock(&dpa_tags_lock);
	return tag < 256 ? tag : -ENOSPC;
}

static void
dpa_tag_put(uint8_t tag)
{
	pthread_mutex_lock(&dpa_tags_lock);
	dpa_tags[tag] = false;
	pthread_mutex_unlock(&dpa_tags_lock);
}

/*
 * The object a handle of the runtime's kind (DPA_KIND_*) names in dpa, or
 * NULL (logged, naming func) when the handle is of another
 * kind or dpa, out of range, or stale.
 */
void *
dpa_handle_lookup(struct rte_comch_dpa *dpa, rte_comch_dpa_handle_t h, uint8_t kind,
		  const char *func)
{
	uint32_t slot = rte_comch_dpa_handle_slot(h);
	const uint16_t *live = NULL;
	const char *name;
	uint32_t max;
	void *obj = NULL;

	switch (kind) {
	case DPA_KIND_THREAD:
		name = "thread";
		max = dpa->max_threads;
		break;
	case DPA_KIND_CQ:
		name = "cq";
		max = dpa->max_cqs;
		break;
	default:
		name = "memory";
		max = dpa->max_mems;
		break;
	}
	if (rte_comch_dpa_handle_kind(h) != kind || rte_comch_dpa_handle_tag(h) != dpa->tag ||
	    slot >= max) {
		DPA_LOG_FN(ERR, func, "0x%" PRIx64 " is not a %s handle of dpa %u", h, name,
			   dpa->tag);
		return NULL;
	}
	if (kind == DPA_KIND_THREAD) {
		obj = &dpa->threads[slot];
		live = &dpa->threads[slot].live;
	} else if (kind == DPA_KIND_CQ) {
		obj = &dpa->cqs[slot];
		live = &dpa->cqs[slot].live;
	} else {
		obj = &dpa->mems[slot];
		live = &dpa->mems[slot].live;
	}
	/* Generation 0 is no object's: a free slot's live is 0, and must not match it. */
	if (rte_comch_dpa_handle_gen(h) == 0 ||
	    comch_load_acquire(live) != rte_comch_dpa_handle_gen(h)) {
		DPA_LOG_FN(ERR, func, "dpa %u: stale %s handle 0x%" PRIx64, dpa->tag, name, h);
		return NULL;
	}
	return obj;
}

/*
 * Wait until every run that was in progress when called has ended. A unit's
 * seq is odd during a run, and the unit bumps it (sequentially consistent)
 * before it checks whether the thread may run and what its handles name: so
 * after a change made before this call, any run either saw the change or is
 * waited for here.
 */
void
dpa_grace_wait(struct rte_comch_dpa *dpa)
{
	uint32_t i;

	comch_fence_seq_cst();
	for (i = 0; i < dpa->nb_units; i++) {
		uint64_t s = comch_load_seq_cst(&dpa->units[i].seq);

		if ((s & 1) == 0)
			continue;
		while (comch_load_acquire(&dpa->units[i].seq) == s)
			rte_pause();
	}
	/* RPCs run on CPU threads, outside the units: wait until none is in progress. */
	while (comch_load_acquire(&dpa->nb_rpcs) != 0)
		rte_pause();
}

static void
dpa_free(struct rte_comch_dpa *dpa)
{
	free(dpa->threads);
	free(dpa->cqs);
	free(dpa->mems);
	free(dpa->eps);
	free(dpa->units);
	pthread_mutex_destroy(&dpa->ctl_lock);
	free(dpa);
}

struct rte_comch_dpa *
rte_comch_dpa_create(struct rte_comch_dev *dev, const struct rte_comch_dpa_conf *conf)
{
	struct rte_comch_dpa *dpa;
	uint32_t i;
	int ret;

	if (dev == NULL || conf == NULL) {
		DPA_LOG(ERR, "dev or conf is NULL");
		rte_errno = EINVAL;
		return NULL;
	}
	if (conf->nb_units == 0 || conf->nb_units > RTE_COMCH_DPA_MAX_UNITS ||
	    conf->max_threads > RTE_COMCH_DPA_MAX_OBJECTS ||
	    conf->max_cqs > RTE_COMCH_DPA_MAX_OBJECTS ||
	    conf->max_mems > RTE_COMCH_DPA_MAX_OBJECTS ||
	    (conf->mode != RTE_COMCH_DPA_EXEC_SERVICE &&
	     conf->mode != RTE_COMCH_DPA_EXEC_PTHREAD)) {
		DPA_LOG(ERR, "bad conf: %u units (1 to %u), %u threads, %u cqs, %u buffers "
			"(at most %u), mode %d", conf->nb_units, RTE_COMCH_DPA_MAX_UNITS,
			conf->max_threads, conf->max_cqs, conf->max_mems,
			RTE_COMCH_DPA_MAX_OBJECTS, (int)conf->mode);
		rte_errno = EINVAL;
		return NULL;
	}
	dpa = comch_zalloc_lines(1, sizeof(*dpa));
	if (dpa == NULL)
		goto nomem;
	pthread_mutex_init(&dpa->ctl_lock, NULL);
	dpa->dev = dev;
	comch_spinlock_init(&dpa->eps_lock);
	dpa->mode = conf->mode;
	dpa->nb_units = conf->nb_units;
	dpa->max_threads = conf->max_threads != 0 ? conf->max_threads :
			   RTE_COMCH_DPA_DEFAULT_OBJECTS;
	dpa->max_cqs = conf->max_cqs != 0 ? conf->max_cqs : RTE_COMCH_DPA_DEFAULT_OBJECTS;
	dpa->max_mems = conf->max_mems != 0 ? conf->max_mems : RTE_COMCH_DPA_DEFAULT_OBJECTS;
	dpa->threads = comch_zalloc_lines(dpa->max_threads, sizeof(*dpa->threads));
	dpa->cqs = comch_zalloc_lines(dpa->max_cqs, sizeof(*dpa->cqs));
	dpa->mems = calloc(dpa->max_mems, sizeof(*dpa->mems));
	dpa->max_eps = DPA_MAX_EPS;
	dpa->eps = calloc(dpa->max_eps, sizeof(*dpa->eps));
	dpa->units = comch_zalloc_lines(dpa->nb_units, sizeof(*dpa->units));
	if (dpa->threads == NULL || dpa->cqs == NULL || dpa->mems == NULL || dpa->eps == NULL ||
	    dpa->units == NULL) {
		dpa_free(dpa);
		goto nomem;
	}
	ret = dpa_tag_get();
	if (ret < 0) {
		DPA_LOG(ERR, "255 dpas exist already");
		dpa_free(dpa);
		rte_errno = ENOSPC;
		return NULL;
	}
	dpa->tag = (uint8_t)ret;
	for (i = 0; i < dpa->max_threads; i++) {
		dpa->threads[i].dpa = dpa;
		dpa->threads[i].slot = i;
	}
	for (i = 0; i < dpa->max_cqs; i++) {
		dpa->cqs[i].dpa = dpa;
		dpa->cqs[i].slot = i;
	}
	ret = dpa_units_init(dpa);
	if (ret < 0) {
		dpa_tag_put(dpa->tag);
		dpa_free(dpa);
		rte_errno = -ret;
		return NULL;
	}
	comch_objreg_add(&dpa->reg, dpa, DPA_ACCEL_KIND);
	DPA_LOG(DEBUG, "dpa %u: %u %s units, %u threads, %u cqs", dpa->tag, dpa->nb_units,
		dpa->mode == RTE_COMCH_DPA_EXEC_SERVICE ? "service" : "pthread",
		dpa->max_threads, dpa->max_cqs);
	return dpa;
nomem:
	DPA_LOG(ERR, "out of memory");
	rte_errno = ENOMEM;
	return NULL;
}

int
rte_comch_dpa_destroy(struct rte_comch_dpa *dpa)
{
	int ret = dpa_ctl_lock(dpa, __func__);

	if (ret < 0)
		return ret;
	if (dpa->started || dpa->nb_threads != 0 || dpa->nb_cqs != 0 || dpa->nb_mems != 0 ||
	    comch_load_acquire(&dpa->nb_users) != 0) {
		DPA_LOG(ERR, "dpa %u: %s, %u threads, %u cqs, %u buffers and %u users (started "
			"MsgQs) left", dpa->tag, dpa->started ? "started" : "stopped",
			dpa->nb_threads, dpa->nb_cqs, dpa->nb_mems,
			comch_load_relaxed(&dpa->nb_users));
		dpa_ctl_unlock(dpa);
		return -EBUSY;
	}
	/* Nothing of the dpa is left: the caller makes no other call on it from now on. */
	comch_objreg_remove(&dpa->reg);
	dpa_ctl_unlock(dpa);
	dpa_units_fini(dpa);
	dpa_tag_put(dpa->tag);
	dpa_free(dpa);
	return 0;
}

int
rte_comch_dpa_start(struct rte_comch_dpa *dpa)
{
	int ret = dpa_ctl_lock(dpa, __func__);

	if (ret < 0)
		return ret;
	if (dpa->started) {
		DPA_LOG(ERR, "dpa %u: already started", dpa->tag);
		ret = -EBUSY;
	} else {
		ret = dpa_units_start(dpa);
		dpa->started = ret == 0;
	}
	dpa_ctl_unlock(dpa);
	return ret;
}

int
rte_comch_dpa_stop(struct rte_comch_dpa *dpa)
{
	int ret = dpa_ctl_lock(dpa, __func__);

	if (ret < 0)
		return ret;
	if (!dpa->started) {
		DPA_LOG(ERR, "dpa %u: not started", dpa->tag);
		ret = -EBUSY;
	} else {
		dpa_units_stop(dpa);
		dpa->started = false;
	}
	dpa_ctl_unlock(dpa);
	return ret;
}

struct rte_comch_accel *
rte_comch_dpa_as_accel(struct rte_comch_dpa *dpa)
{
	if (rte_comch_dpa_from_accel((struct rte_comch_accel *)dpa, __func__) == NULL) {
		rte_errno = EINVAL;
		return NULL;
	}
	return (struct rte_comch_accel *)dpa;
}

struct rte_comch_dpa *
rte_comch_dpa_from_accel(struct rte_comch_accel *accel, const char *func)
{
	if (accel == NULL || comch_objreg_kind(accel) != DPA_ACCEL_KIND) {
		DPA_LOG(ERR, "%s: %p is not a live dpa", func, (void *)accel);
		return NULL;
	}
	return (struct rte_comch_dpa *)accel;
}

struct rte_comch_dev *
rte_comch_dpa_get_device(const struct rte_comch_dpa *dpa)
{
	return dpa != NULL ? dpa->dev : NULL;
}

uint8_t
rte_comch_dpa_tag(const struct rte_comch_dpa *dpa)
{
	return dpa->tag;
}

void
rte_comch_dpa_user_get(struct rte_comch_dpa *dpa)
{
	comch_fetch_add_release(&dpa->nb_users, 1);
}

void
rte_comch_dpa_user_put(struct rte_comch_dpa *dpa)
{
	comch_fetch_sub_release(&dpa->nb_users, 1);
}

bool
rte_comch_dpa_in_program(void)
{
	return dpa_in_program();
}

struct rte_comch_dpa *
rte_comch_dpa_dev_caller(const char *func)
{
	return dpa_dev_caller(func);
}
