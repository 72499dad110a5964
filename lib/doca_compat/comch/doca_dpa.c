/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * DOCA DPAs over the software DPA. A DOCA device's DPA runs on an rte_comch
 * "dpa:" device the layer opens next to the device's own the first time a DPA
 * or a MsgQ is made on it, and keeps open until the process ends (mmaps it was
 * added to hold it, whichever outlives the other). Threads, completion
 * contexts and notification completions collect DOCA's settings and become
 * rte_comch objects at their start; DPA memory is the driver's, handed out by
 * process address, which is what a device address is here.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>

#include <rte_comch_dpa_dev.h>
#include <rte_comch_dpa_msgq.h>

#include "doca_dev_private.h"
#include "doca_dpa_private.h"
#include "doca_mmap_private.h"

/* Object limits of a DOCA DPA (the driver's default is 64 of each). */
#define DC_DPA_MAX_THREADS 256
#define DC_DPA_MAX_CQS 512
#define DC_DPA_MAX_MEMS 1024

/* The DPA device of a DOCA device, and the DPAs on it. Lives as long as the process. */
struct dc_dpa_dev {
	const struct doca_devinfo *info;
	struct rte_comch_dev *rdev;
	struct doca_dpa *dpas;
	struct dc_dpa_dev *next;
};

static pthread_mutex_t dc_dpa_devs_lock = PTHREAD_MUTEX_INITIALIZER;
static struct dc_dpa_dev *dc_dpa_devs;

/* The entry of info, or NULL; dc_dpa_devs_lock held. */
static struct dc_dpa_dev *
dc_dpa_dev_find(const struct doca_devinfo *info)
{
	struct dc_dpa_dev *d;

	for (d = dc_dpa_devs; d != NULL; d = d->next)
		if (d->info == info)
			return d;
	return NULL;
}

/* The entry of dev's devinfo, made (and its device opened) on first use; dc_dpa_devs_lock held. */
static struct dc_dpa_dev *
dc_dpa_dev_get_locked(struct doca_dev *dev)
{
	struct dc_dpa_dev *d = dc_dpa_dev_find(dev->info);
	char devargs[64];

	if (d != NULL)
		return d;
	d = calloc(1, sizeof(*d));
	if (d == NULL) {
		DC_LOG(ERR, "out of memory");
		return NULL;
	}
	snprintf(devargs, sizeof(devargs), "dpa:name=doca%u", dev->info->index);
	d->rdev = rte_comch_dev_open(devargs);
	if (d->rdev == NULL) {
		DC_LOG(ERR, "cannot open the DPA device of %s (%s): %s", dev->info->pci, devargs,
		       rte_strerror(rte_errno));
		free(d);
		return NULL;
	}
	d->info = dev->info;
	d->next = dc_dpa_devs;
	dc_dpa_devs = d;
	return d;
}

struct rte_comch_dev *
dc_dpa_rdev_get(struct doca_dev *dev)
{
	struct dc_dpa_dev *d;

	if (doca_compat_eal_init() != DOCA_SUCCESS)
		return NULL;
	pthread_mutex_lock(&dc_dpa_devs_lock);
	d = dc_dpa_dev_get_locked(dev);
	pthread_mutex_unlock(&dc_dpa_devs_lock);
	return d != NULL ? d->rdev : NULL;
}

void
dc_dpa_dev_hold(struct doca_dev *dev, int n)
{
	/* The handle's count only: the device's side stays free to change. */
	dc_map_lock();
	dev->holds += n;
	dc_map_unlock();
}

uint32_t
dc_dpa_pow2(uint32_t size)
{
	return size < 2 ? 2 : rte_align32pow2(size);
}

int
dc_dpa_mmap_add_dpa_dev(struct doca_mmap *mmap)
{
	struct rte_comch_dev *rdev = NULL;
	struct dc_dpa_dev *d;
	int rc;

	if (mmap->dev == NULL || mmap->dpa_added)
		return 0;
	pthread_mutex_lock(&dc_dpa_devs_lock);
	d = dc_dpa_dev_find(mmap->dev->info);
	if (d != NULL && d->dpas != NULL)
		rdev = d->rdev;
	pthread_mutex_unlock(&dc_dpa_devs_lock);
	if (rdev == NULL)
		return 0;
	rc = rte_comch_mmap_add_dev(mmap->rm, rdev);
	mmap->dpa_added = rc == 0;
	return rc;
}

/* ----------------------------------------------------------------- the DPA */

/* Execution units of a DOCA DPA: RTE_COMCH_DOCA_DPA_UNITS, default 1; 0 if it is bad. */
static uint32_t
dc_dpa_units(void)
{
	const char *env = getenv("RTE_COMCH_DOCA_DPA_UNITS");
	unsigned long n;
	char *end;

	if (env == NULL)
		return 1;
	errno = 0;
	n = strtoul(env, &end, 10);
	if (errno != 0 || end == env || *end != '\0' || n == 0 || n > RTE_COMCH_DPA_MAX_UNITS) {
		DC_LOG(ERR, "RTE_COMCH_DOCA_DPA_UNITS=%s: 1 to %u execution units", env,
		       RTE_COMCH_DPA_MAX_UNITS);
		return 0;
	}
	return (uint32_t)n;
}

doca_error_t
doca_dpa_cap_is_supported(const struct doca_devinfo *devinfo)
{
	DC_OBJ_ARG(devinfo, DC_KIND_DEVINFO);
	return DOCA_SUCCESS;
}

doca_error_t
doca_dpa_create(struct doca_dev *dev, struct doca_dpa **dpa)
{
	struct rte_comch_dpa_conf conf = {
		.mode = RTE_COMCH_DPA_EXEC_PTHREAD,
		.max_threads = DC_DPA_MAX_THREADS,
		.max_cqs = DC_DPA_MAX_CQS,
		.max_mems = DC_DPA_MAX_MEMS,
	};
	struct dc_dpa_dev *d;
	struct doca_dpa *p;
	doca_error_t ret;

	DC_OBJ_ARG(dev, DC_KIND_DEV);
	DC_NULL_ARG(dpa);
	conf.nb_units = dc_dpa_units();
	if (conf.nb_units == 0)
		return DOCA_ERROR_INVALID_VALUE;
	ret = doca_compat_eal_init();
	if (ret != DOCA_SUCCESS)
		return ret;
	p = calloc(1, sizeof(*p));
	if (p == NULL)
		return DOCA_ERROR_NO_MEMORY;
	pthread_mutex_init(&p->lock, NULL);
	pthread_mutex_lock(&dc_dpa_devs_lock);
	d = dc_dpa_dev_get_locked(dev);
	if (d != NULL)
		p->rdpa = rte_comch_dpa_create(d->rdev, &conf);
	if (p->rdpa == NULL) {
		pthread_mutex_unlock(&dc_dpa_devs_lock);
		ret = d == NULL ? DOCA_ERROR_DRIVER : rte_comch_doca_error_from_errno(-rte_errno);
		pthread_mutex_destroy(&p->lock);
		free(p);
		return ret;
	}
	p->rdev = d->rdev;
	p->dev = dev;
	p->max_mems = DC_DPA_MAX_MEMS;
	p->next = d->dpas;
	d->dpas = p;
	pthread_mutex_unlock(&dc_dpa_devs_lock);
	dc_dpa_dev_hold(dev, 1);
	dc_obj_publish(&p->obj, p, DC_KIND_DPA);
	*dpa = p;
	return DOCA_SUCCESS;
}

/* Out of its device's list. */
static void
dc_dpa_unlink(struct doca_dpa *dpa)
{
	struct doca_dpa **pp;
	struct dc_dpa_dev *d;

	pthread_mutex_lock(&dc_dpa_devs_lock);
	d = dc_dpa_dev_find(dpa->dev->info);
	for (pp = d != NULL ? &d->dpas : NULL; pp != NULL && *pp != NULL; pp = &(*pp)->next) {
		if (*pp == dpa) {
			*pp = dpa->next;
			break;
		}
	}
	pthread_mutex_unlock(&dc_dpa_devs_lock);
}

doca_error_t
doca_dpa_destroy(struct doca_dpa *dpa)
{
	bool was_started;
	int rc;

	DC_OBJ_ARG(dpa, DC_KIND_DPA);
	was_started = dpa->started;
	if (was_started) {
		rc = rte_comch_dpa_stop(dpa->rdpa);
		if (rc < 0)
			return rte_comch_doca_error_from_errno(rc);
		dpa->started = false;
	}
	rc = rte_comch_dpa_destroy(dpa->rdpa);
	if (rc < 0) {
		/* Objects are left: as it was. */
		if (was_started)
			dpa->started = rte_comch_dpa_start(dpa->rdpa) == 0;
		return rte_comch_doca_error_from_errno(rc);
	}
	/* Its contexts went with their MsgQs, which a destroyed DPA has none of. */
	if (dpa->pe != NULL)
		rte_comch_pe_destroy(dpa->pe);
	dc_dpa_unlink(dpa);
	dc_dpa_dev_hold(dpa->dev, -1);
	free(dpa->mems);
	pthread_mutex_destroy(&dpa->lock);
	dc_obj_retire(&dpa->obj, dpa);
	return DOCA_SUCCESS;
}

doca_error_t
doca_dpa_set_app(struct doca_dpa *dpa, struct doca_dpa_app *app)
{
	DC_OBJ_ARG(dpa, DC_KIND_DPA);
	if (dpa->started) {
		DC_LOG(ERR, "the DPA is started");
		return DOCA_ERROR_BAD_STATE;
	}
	dpa->app = app;
	return DOCA_SUCCESS;
}

doca_error_t
doca_dpa_get_app(struct doca_dpa *dpa, struct doca_dpa_app **app)
{
	DC_OBJ_ARG(dpa, DC_KIND_DPA);
	DC_NULL_ARG(app);
	*app = dpa->app;
	return DOCA_SUCCESS;
}

doca_error_t
doca_dpa_start(struct doca_dpa *dpa)
{
	int rc;

	DC_OBJ_ARG(dpa, DC_KIND_DPA);
	rc = rte_comch_dpa_start(dpa->rdpa);
	if (rc == 0)
		dpa->started = true;
	return rc == -EBUSY ? DOCA_ERROR_BAD_STATE : rte_comch_doca_error_from_errno(rc);
}

doca_error_t
doca_dpa_stop(struct doca_dpa *dpa)
{
	int rc;

	DC_OBJ_ARG(dpa, DC_KIND_DPA);
	rc = rte_comch_dpa_stop(dpa->rdpa);
	if (rc == 0)
		dpa->started = false;
	return rc == -EBUSY ? DOCA_ERROR_BAD_STATE : rte_comch_doca_error_from_errno(rc);
}

struct rte_comch_pe *
dc_dpa_pe(struct doca_dpa *dpa)
{
	pthread_mutex_lock(&dpa->lock);
	if (dpa->pe == NULL && doca_compat_thread_init() == DOCA_SUCCESS) {
		dpa->pe = rte_comch_pe_create(RTE_COMCH_PE_LCORE_SELF);
		if (dpa->pe == NULL)
			DC_LOG(ERR, "no engine for the DPA's contexts: %s",
			       rte_strerror(rte_errno));
	}
	pthread_mutex_unlock(&dpa->lock);
	return dpa->pe;
}

/* ----------------------------------------------------------------- threads */

/*
 * What a DPA thread's unit calls: the thread's local storage (8 bytes of the
 * driver's) holds DOCA's, a device address the program reads back with
 * doca_dpa_dev_thread_get_local_storage(); then the program's function.
 */
static void
dc_dpa_thread_entry(uint64_t arg)
{
	const struct doca_dpa_thread *t = (const struct doca_dpa_thread *)(uintptr_t)arg;
	doca_dpa_dev_uintptr_t *tls = rte_comch_dpa_dev_thread_get_local_storage();

	if (tls != NULL)
		*tls = t->tls;
	t->entry(t->arg);
}

doca_error_t
doca_dpa_thread_create(struct doca_dpa *dpa, struct doca_dpa_thread **dpa_thread)
{
	struct doca_dpa_thread *t;

	DC_OBJ_ARG(dpa, DC_KIND_DPA);
	DC_NULL_ARG(dpa_thread);
	t = calloc(1, sizeof(*t));
	if (t == NULL)
		return DOCA_ERROR_NO_MEMORY;
	t->dpa = dpa;
	dc_obj_publish(&t->obj, t, DC_KIND_DPA_THREAD);
	*dpa_thread = t;
	return DOCA_SUCCESS;
}

/* DOCA_ERROR_BAD_STATE, logged, if t is started: its settings are the driver's then. */
static doca_error_t
dc_dpa_thread_idle(const struct doca_dpa_thread *t, const char *func)
{
	if (t->rt == NULL)
		return DOCA_SUCCESS;
	rte_log(RTE_LOG_ERR, doca_compat_logtype, "doca: %s(): the thread is started\n", func);
	return DOCA_ERROR_BAD_STATE;
}

doca_error_t
doca_dpa_thread_set_func_arg(struct doca_dpa_thread *dpa_thread, doca_dpa_func_t *func,
			     uint64_t arg)
{
	doca_error_t ret;

	DC_OBJ_ARG(dpa_thread, DC_KIND_DPA_THREAD);
	DC_NULL_ARG(func);
	ret = dc_dpa_thread_idle(dpa_thread, __func__);
	if (ret != DOCA_SUCCESS)
		return ret;
	/* Declared without parameters (DOCA's type), defined with its argument. */
	dpa_thread->entry = (void (*)(uint64_t))func;
	dpa_thread->arg = arg;
	return DOCA_SUCCESS;
}

/* The buffer of dpa holding [ptr, ptr + size), and the offset of ptr in it; dpa->lock held. */
static const struct dc_dpa_mem *
dc_dpa_mem_find(const struct doca_dpa *dpa, doca_dpa_dev_uintptr_t ptr, uint64_t size,
		uint64_t *off)
{
	uint32_t i;

	for (i = 0; i < dpa->nb_mems; i++) {
		const struct dc_dpa_mem *m = &dpa->mems[i];

		if (ptr >= m->addr && ptr - m->addr <= m->size &&
		    size <= m->size - (ptr - m->addr)) {
			*off = ptr - m->addr;
			return m;
		}
	}
	return NULL;
}

doca_error_t
doca_dpa_thread_set_local_storage(struct doca_dpa_thread *dpa_thread,
				  doca_dpa_dev_uintptr_t dev_ptr)
{
	doca_error_t ret;
	uint64_t off;
	bool found;

	DC_OBJ_ARG(dpa_thread, DC_KIND_DPA_THREAD);
	ret = dc_dpa_thread_idle(dpa_thread, __func__);
	if (ret != DOCA_SUCCESS)
		return ret;
	pthread_mutex_lock(&dpa_thread->dpa->lock);
	found = dc_dpa_mem_find(dpa_thread->dpa, dev_ptr, 1, &off) != NULL;
	pthread_mutex_unlock(&dpa_thread->dpa->lock);
	if (!found) {
		DC_LOG(ERR, "0x%" PRIx64 " is not in DPA memory of the thread's DPA", dev_ptr);
		return DOCA_ERROR_INVALID_VALUE;
	}
	dpa_thread->tls = dev_ptr;
	return DOCA_SUCCESS;
}

doca_error_t
doca_dpa_thread_start(struct doca_dpa_thread *dpa_thread)
{
	struct rte_comch_dpa_thread_conf conf = {
		.func = dc_dpa_thread_entry,
		.arg = (uint64_t)(uintptr_t)dpa_thread,
		.local_storage_size = sizeof(doca_dpa_dev_uintptr_t),
		.unit = RTE_COMCH_DPA_UNIT_ANY,
	};
	struct rte_comch_dpa_thread *rt;
	doca_error_t ret;
	int rc;

	DC_OBJ_ARG(dpa_thread, DC_KIND_DPA_THREAD);
	ret = dc_dpa_thread_idle(dpa_thread, __func__);
	if (ret != DOCA_SUCCESS)
		return ret;
	if (dpa_thread->entry == NULL) {
		DC_LOG(ERR, "the thread has no function (doca_dpa_thread_set_func_arg())");
		return DOCA_ERROR_INVALID_VALUE;
	}
	rt = rte_comch_dpa_thread_create(dpa_thread->dpa->rdpa, &conf);
	if (rt == NULL)
		return rte_comch_doca_error_from_errno(-rte_errno);
	rc = rte_comch_dpa_thread_start(rt);
	if (rc < 0) {
		rte_comch_dpa_thread_destroy(rt);
		return rte_comch_doca_error_from_errno(rc);
	}
	dpa_thread->rt = rt;
	return DOCA_SUCCESS;
}

doca_error_t
doca_dpa_thread_run(struct doca_dpa_thread *dpa_thread)
{
	int rc;

	DC_OBJ_ARG(dpa_thread, DC_KIND_DPA_THREAD);
	if (dpa_thread->rt == NULL) {
		DC_LOG(ERR, "the thread is not started");
		return DOCA_ERROR_BAD_STATE;
	}
	rc = rte_comch_dpa_thread_run(dpa_thread->rt);
	if (rc == 0)
		dpa_thread->running = true;
	return rc == -EBUSY ? DOCA_ERROR_BAD_STATE : rte_comch_doca_error_from_errno(rc);
}

doca_error_t
doca_dpa_thread_stop(struct doca_dpa_thread *dpa_thread)
{
	int rc;

	DC_OBJ_ARG(dpa_thread, DC_KIND_DPA_THREAD);
	if (dpa_thread->rt == NULL) {
		DC_LOG(ERR, "the thread is not started");
		return DOCA_ERROR_BAD_STATE;
	}
	rc = rte_comch_dpa_thread_stop(dpa_thread->rt);
	if (rc == 0)
		dpa_thread->running = false;
	return rc == -EBUSY ? DOCA_ERROR_BAD_STATE : rte_comch_doca_error_from_errno(rc);
}

doca_error_t
doca_dpa_thread_destroy(struct doca_dpa_thread *dpa_thread)
{
	int rc;

	DC_OBJ_ARG(dpa_thread, DC_KIND_DPA_THREAD);
	if (dpa_thread->users != 0) {
		DC_LOG(ERR, "%u completion contexts or notifications use the thread",
		       dpa_thread->users);
		return DOCA_ERROR_IN_USE;
	}
	if (dpa_thread->rt != NULL) {
		rc = dpa_thread->running ? rte_comch_dpa_thread_stop(dpa_thread->rt) : 0;
		if (rc == 0) {
			dpa_thread->running = false;
			rc = rte_comch_dpa_thread_destroy(dpa_thread->rt);
		}
		if (rc < 0)
			return rc == -EBUSY ? DOCA_ERROR_IN_USE :
			       rte_comch_doca_error_from_errno(rc);
	}
	dc_obj_retire(&dpa_thread->obj, dpa_thread);
	return DOCA_SUCCESS;
}

/* ------------------------------------------------------ completion contexts */

doca_error_t
dc_dpa_cq_start(struct doca_dpa *dpa, struct doca_dpa_thread *t, uint32_t size,
		uint32_t max_consumers, uint32_t imm_len, struct rte_comch_dpa_cq **cq)
{
	struct rte_comch_dpa_cq_conf conf = {
		.size = size,
		.thread = t != NULL ? t->rt : NULL,
		.max_consumers = max_consumers,
		.imm_len = imm_len,
	};

	if (t != NULL && t->rt == NULL) {
		DC_LOG(ERR, "its DPA thread is not started (doca_dpa_thread_start())");
		return DOCA_ERROR_BAD_STATE;
	}
	*cq = rte_comch_dpa_cq_create(dpa->rdpa, &conf);
	return *cq != NULL ? DOCA_SUCCESS : rte_comch_doca_error_from_errno(-rte_errno);
}

/* Whether t is a live thread of dpa (logged otherwise, naming func). */
static bool
dc_dpa_thread_of(const struct doca_dpa_thread *t, const struct doca_dpa *dpa, const char *func)
{
	if (DC_BAD_OBJ(t, DC_KIND_DPA_THREAD))
		return false;
	if (t->dpa != dpa) {
		rte_log(RTE_LOG_ERR, doca_compat_logtype,
			"doca: %s(): the thread is another DPA's\n", func);
		return false;
	}
	return true;
}

doca_error_t
doca_dpa_completion_create(struct doca_dpa *dpa, unsigned int queue_size,
			   struct doca_dpa_completion **dpa_comp)
{
	struct doca_dpa_completion *c;

	DC_OBJ_ARG(dpa, DC_KIND_DPA);
	DC_NULL_ARG(dpa_comp);
	if (queue_size == 0 || queue_size > RTE_COMCH_DPA_CQ_MAX_SIZE) {
		DC_LOG(ERR, "queue_size %u is not 1 to %u", queue_size, RTE_COMCH_DPA_CQ_MAX_SIZE);
		return DOCA_ERROR_INVALID_VALUE;
	}
	c = calloc(1, sizeof(*c));
	if (c == NULL)
		return DOCA_ERROR_NO_MEMORY;
	c->dpa = dpa;
	c->size = dc_dpa_pow2(queue_size);
	dc_obj_publish(&c->obj, c, DC_KIND_DPA_COMPLETION);
	*dpa_comp = c;
	return DOCA_SUCCESS;
}

doca_error_t
doca_dpa_completion_set_thread(struct doca_dpa_completion *dpa_comp,
			       struct doca_dpa_thread *dpa_thread)
{
	DC_OBJ_ARG(dpa_comp, DC_KIND_DPA_COMPLETION);
	if (!dc_dpa_thread_of(dpa_thread, dpa_comp->dpa, __func__))
		return DOCA_ERROR_INVALID_VALUE;
	if (dpa_comp->cq != NULL) {
		DC_LOG(ERR, "the completion context is started");
		return DOCA_ERROR_BAD_STATE;
	}
	if (dpa_comp->thread != NULL)
		dpa_comp->thread->users--;
	dpa_comp->thread = dpa_thread;
	dpa_thread->users++;
	return DOCA_SUCCESS;
}

doca_error_t
doca_dpa_completion_start(struct doca_dpa_completion *dpa_comp)
{
	DC_OBJ_ARG(dpa_comp, DC_KIND_DPA_COMPLETION);
	if (dpa_comp->cq != NULL) {
		DC_LOG(ERR, "the completion context is started already");
		return DOCA_ERROR_BAD_STATE;
	}
	return dc_dpa_cq_start(dpa_comp->dpa, dpa_comp->thread, dpa_comp->size, 0, 0,
			       &dpa_comp->cq);
}

doca_error_t
doca_dpa_completion_stop(struct doca_dpa_completion *dpa_comp)
{
	int rc;

	DC_OBJ_ARG(dpa_comp, DC_KIND_DPA_COMPLETION);
	if (dpa_comp->cq == NULL) {
		DC_LOG(ERR, "the completion context is not started");
		return DOCA_ERROR_BAD_STATE;
	}
	rc = rte_comch_dpa_cq_destroy(dpa_comp->cq);
	if (rc == 0)
		dpa_comp->cq = NULL;
	return rte_comch_doca_error_from_errno(rc);
}

doca_error_t
doca_dpa_completion_destroy(struct doca_dpa_completion *dpa_comp)
{
	doca_error_t ret;

	DC_OBJ_ARG(dpa_comp, DC_KIND_DPA_COMPLETION);
	if (dpa_comp->cq != NULL) {
		ret = doca_dpa_completion_stop(dpa_comp);
		if (ret != DOCA_SUCCESS)
			return ret;
	}
	if (dpa_comp->thread != NULL)
		dpa_comp->thread->users--;
	dc_obj_retire(&dpa_comp->obj, dpa_comp);
	return DOCA_SUCCESS;
}

doca_error_t
doca_dpa_completion_get_dpa_handle(struct doca_dpa_completion *dpa_comp,
				   doca_dpa_dev_completion_t *handle)
{
	DC_OBJ_ARG(dpa_comp, DC_KIND_DPA_COMPLETION);
	DC_NULL_ARG(handle);
	if (dpa_comp->cq == NULL) {
		DC_LOG(ERR, "the completion context is not started");
		return DOCA_ERROR_BAD_STATE;
	}
	return rte_comch_doca_error_from_errno(rte_comch_dpa_cq_get_dpa_handle(dpa_comp->cq,
									       handle));
}

/* ------------------------------------------------ notification completions */

struct doca_dpa_notification_completion {
	struct dc_obj obj;		/* first: DC_KIND_DPA_NOTIFICATION */
	struct doca_dpa_thread *thread;
	bool started;
};
DC_OBJ_FIRST(struct doca_dpa_notification_completion, obj);

doca_error_t
doca_dpa_notification_completion_create(struct doca_dpa *dpa, struct doca_dpa_thread *dpa_thread,
					struct doca_dpa_notification_completion **notify_comp)
{
	struct doca_dpa_notification_completion *n;

	DC_OBJ_ARG(dpa, DC_KIND_DPA);
	DC_NULL_ARG(notify_comp);
	if (!dc_dpa_thread_of(dpa_thread, dpa, __func__))
		return DOCA_ERROR_INVALID_VALUE;
	n = calloc(1, sizeof(*n));
	if (n == NULL)
		return DOCA_ERROR_NO_MEMORY;
	n->thread = dpa_thread;
	dpa_thread->users++;
	dc_obj_publish(&n->obj, n, DC_KIND_DPA_NOTIFICATION);
	*notify_comp = n;
	return DOCA_SUCCESS;
}

doca_error_t
doca_dpa_notification_completion_start(struct doca_dpa_notification_completion *notify_comp)
{
	DC_OBJ_ARG(notify_comp, DC_KIND_DPA_NOTIFICATION);
	if (notify_comp->started || notify_comp->thread->rt == NULL) {
		DC_LOG(ERR, "%s", notify_comp->started ? "it is started already" :
		       "its thread is not started (doca_dpa_thread_start())");
		return DOCA_ERROR_BAD_STATE;
	}
	notify_comp->started = true;
	return DOCA_SUCCESS;
}

doca_error_t
doca_dpa_notification_completion_stop(struct doca_dpa_notification_completion *notify_comp)
{
	DC_OBJ_ARG(notify_comp, DC_KIND_DPA_NOTIFICATION);
	if (!notify_comp->started) {
		DC_LOG(ERR, "it is not started");
		return DOCA_ERROR_BAD_STATE;
	}
	notify_comp->started = false;
	return DOCA_SUCCESS;
}

doca_error_t
doca_dpa_notification_completion_destroy(struct doca_dpa_notification_completion *notify_comp)
{
	DC_OBJ_ARG(notify_comp, DC_KIND_DPA_NOTIFICATION);
	notify_comp->thread->users--;
	dc_obj_retire(&notify_comp->obj, notify_comp);
	return DOCA_SUCCESS;
}

doca_error_t
doca_dpa_notification_completion_get_dpa_handle(
	struct doca_dpa_notification_completion *notify_comp,
	doca_dpa_dev_notification_completion_t *handle)
{
	DC_OBJ_ARG(notify_comp, DC_KIND_DPA_NOTIFICATION);
	DC_NULL_ARG(handle);
	if (!notify_comp->started) {
		DC_LOG(ERR, "it is not started");
		return DOCA_ERROR_BAD_STATE;
	}
	/* What a program notifies is the thread itself. */
	return rte_comch_doca_error_from_errno(
		rte_comch_dpa_thread_get_dpa_handle(notify_comp->thread->rt, handle));
}

/* -------------------------------------------------------------- DPA memory */

doca_error_t
doca_dpa_mem_alloc(struct doca_dpa *dpa, size_t size, doca_dpa_dev_uintptr_t *dev_ptr)
{
	rte_comch_dpa_handle_t h;
	struct dc_dpa_mem *m;
	void *addr = NULL;
	int rc;

	DC_OBJ_ARG(dpa, DC_KIND_DPA);
	DC_NULL_ARG(dev_ptr);
	if (size == 0 || size > RTE_COMCH_DPA_MEM_MAX) {
		DC_LOG(ERR, "%zu bytes: 1 to %llu", size,
		       (unsigned long long)RTE_COMCH_DPA_MEM_MAX);
		return DOCA_ERROR_INVALID_VALUE;
	}
	pthread_mutex_lock(&dpa->lock);
	if (dpa->mems == NULL) {
		dpa->mems = calloc(dpa->max_mems, sizeof(*dpa->mems));
		if (dpa->mems == NULL) {
			pthread_mutex_unlock(&dpa->lock);
			return DOCA_ERROR_NO_MEMORY;
		}
	}
	rc = rte_comch_dpa_mem_alloc(dpa->rdpa, size, &h);
	if (rc == 0)
		rc = rte_comch_dpa_mem_get_addr(dpa->rdpa, h, &addr);
	if (rc == 0) {
		/* The driver holds no more than max_mems: a place is free. */
		m = &dpa->mems[dpa->nb_mems++];
		m->addr = (uintptr_t)addr;
		m->size = size;
		m->h = h;
		*dev_ptr = m->addr;
	}
	pthread_mutex_unlock(&dpa->lock);
	return rte_comch_doca_error_from_errno(rc);
}

doca_error_t
doca_dpa_mem_free(struct doca_dpa *dpa, doca_dpa_dev_uintptr_t dev_ptr)
{
	const struct dc_dpa_mem *m;
	uint64_t off = 0;
	int rc;

	DC_OBJ_ARG(dpa, DC_KIND_DPA);
	pthread_mutex_lock(&dpa->lock);
	m = dc_dpa_mem_find(dpa, dev_ptr, 0, &off);
	if (m == NULL || off != 0) {
		pthread_mutex_unlock(&dpa->lock);
		DC_LOG(ERR, "0x%" PRIx64 " is not DPA memory of this DPA", dev_ptr);
		return DOCA_ERROR_INVALID_VALUE;
	}
	rc = rte_comch_dpa_mem_free(dpa->rdpa, m->h);
	if (rc == 0)
		dpa->mems[m - dpa->mems] = dpa->mems[--dpa->nb_mems];
	pthread_mutex_unlock(&dpa->lock);
	return rte_comch_doca_error_from_errno(rc);
}

/*
 * The buffer handle and offset of [ptr, ptr + size) of dpa, or
 * DOCA_ERROR_INVALID_VALUE (logged).
 */
static doca_error_t
dc_dpa_mem_range(struct doca_dpa *dpa, doca_dpa_dev_uintptr_t ptr, size_t size,
		 rte_comch_dpa_handle_t *h, uint64_t *off, const char *func)
{
	const struct dc_dpa_mem *m;

	pthread_mutex_lock(&dpa->lock);
	m = dc_dpa_mem_find(dpa, ptr, size, off);
	if (m != NULL)
		*h = m->h;
	pthread_mutex_unlock(&dpa->lock);
	if (m != NULL)
		return DOCA_SUCCESS;
	rte_log(RTE_LOG_ERR, doca_compat_logtype,
		"doca: %s(): %zu bytes at 0x%" PRIx64 " are not in one buffer of DPA memory\n",
		func, size, ptr);
	return DOCA_ERROR_INVALID_VALUE;
}

doca_error_t
doca_dpa_h2d_memcpy(struct doca_dpa *dpa, doca_dpa_dev_uintptr_t dst_ptr, void *src_ptr,
		    size_t size)
{
	rte_comch_dpa_handle_t h = 0;
	uint64_t off = 0;
	doca_error_t ret;

	DC_OBJ_ARG(dpa, DC_KIND_DPA);
	DC_NULL_ARG(src_ptr);
	ret = dc_dpa_mem_range(dpa, dst_ptr, size, &h, &off, __func__);
	if (ret != DOCA_SUCCESS)
		return ret;
	return rte_comch_doca_error_from_errno(rte_comch_dpa_h2d_memcpy(dpa->rdpa, h, off, src_ptr,
									size));
}

doca_error_t
doca_dpa_d2h_memcpy(struct doca_dpa *dpa, void *dst_ptr, doca_dpa_dev_uintptr_t src_ptr,
		    size_t size)
{
	rte_comch_dpa_handle_t h = 0;
	uint64_t off = 0;
	doca_error_t ret;

	DC_OBJ_ARG(dpa, DC_KIND_DPA);
	DC_NULL_ARG(dst_ptr);
	ret = dc_dpa_mem_range(dpa, src_ptr, size, &h, &off, __func__);
	if (ret != DOCA_SUCCESS)
		return ret;
	return rte_comch_doca_error_from_errno(rte_comch_dpa_d2h_memcpy(dpa->rdpa, dst_ptr, h, off,
									size));
}

doca_error_t
doca_dpa_memset(struct doca_dpa *dpa, doca_dpa_dev_uintptr_t dev_ptr, int value, size_t size)
{
	rte_comch_dpa_handle_t h = 0;
	uint64_t off = 0;
	doca_error_t ret;

	DC_OBJ_ARG(dpa, DC_KIND_DPA);
	ret = dc_dpa_mem_range(dpa, dev_ptr, size, &h, &off, __func__);
	if (ret != DOCA_SUCCESS)
		return ret;
	return rte_comch_doca_error_from_errno(rte_comch_dpa_memset(dpa->rdpa, h, off, value,
								    size));
}

/* --------------------------------------------------------------------- RPC */

doca_error_t
rte_comch_doca_dpa_rpc_begin(struct doca_dpa *dpa, uint64_t *retval)
{
	DC_OBJ_ARG(dpa, DC_KIND_DPA);
	DC_NULL_ARG(retval);
	return rte_comch_doca_error_from_errno(rte_comch_dpa_rpc_begin(dpa->rdpa));
}

doca_error_t
rte_comch_doca_dpa_rpc_end(struct doca_dpa *dpa)
{
	DC_OBJ_ARG(dpa, DC_KIND_DPA);
	return rte_comch_doca_error_from_errno(rte_comch_dpa_rpc_end(dpa->rdpa));
}

/* ----------------------------------------------------------------- mmaps */

doca_error_t
doca_mmap_dev_get_dpa_handle(struct doca_mmap *mmap, struct doca_dev *dev,
			     doca_dpa_dev_mmap_t *handle)
{
	struct rte_comch_dpa *rdpa = NULL;
	struct dc_dpa_dev *d;
	int rc;

	DC_OBJ_ARG(mmap, DC_KIND_MMAP);
	DC_OBJ_ARG(dev, DC_KIND_DEV);
	DC_NULL_ARG(handle);
	pthread_mutex_lock(&dc_dpa_devs_lock);
	d = dc_dpa_dev_find(dev->info);
	if (d != NULL && d->dpas != NULL)
		rdpa = d->dpas->rdpa;
	pthread_mutex_unlock(&dc_dpa_devs_lock);
	if (rdpa == NULL) {
		DC_LOG(ERR, "no DPA was created on device %s", dev->info->pci);
		return DOCA_ERROR_NOT_FOUND;
	}
	if (!mmap->started || !mmap->dpa_added) {
		DC_LOG(ERR, "the mmap is not started, or was started before a DPA was created on "
		       "device %s", dev->info->pci);
		return DOCA_ERROR_BAD_STATE;
	}
	rc = rte_comch_dpa_mmap_get_dpa_handle(rdpa, mmap->rm, handle);
	return rc == -EINVAL ? DOCA_ERROR_BAD_STATE : rte_comch_doca_error_from_errno(rc);
}

doca_error_t
doca_mmap_set_dpa_memrange(struct doca_mmap *mmap, struct doca_dpa *dpa, uint64_t dpa_addr,
			   size_t len)
{
	rte_comch_dpa_handle_t h = 0;
	uint64_t off = 0;
	doca_error_t ret;

	DC_OBJ_ARG(mmap, DC_KIND_MMAP);
	DC_OBJ_ARG(dpa, DC_KIND_DPA);
	if (len == 0) {
		DC_LOG(ERR, "an empty range");
		return DOCA_ERROR_INVALID_VALUE;
	}
	ret = dc_dpa_mem_range(dpa, dpa_addr, len, &h, &off, __func__);
	/* The device address is the process address of the buffer. */
	return ret != DOCA_SUCCESS ? ret :
	       doca_mmap_set_memrange(mmap, (void *)(uintptr_t)dpa_addr, len);
}
