/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Completion contexts. CPU producers post entries under a lock; the DPA
 * program takes them without one, by the owner (phase) bit of each entry, and
 * gives their places back by acknowledging them. A producer never writes past
 * the last acknowledged entry plus the size: a full context refuses a post
 * (-EAGAIN) instead of overwriting.
 *
 * Notification: the armed flag is set, and the context then looked at for
 * an entry, under the producers' lock; a post reads the flag under that lock,
 * after its entry. The lock orders the two: either the post came first and
 * the arming finds its entry, or it comes after and sees the flag. So no side
 * needs a fence, and the flag's line, read by every post, is written only by
 * arming and by the trigger. A program running on a unit mostly arms nothing:
 * its unit watches the context instead (dpa_watch.c).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>

#include "comch_prefetch.h"
#include "dpa_private.h"

static rte_comch_dpa_handle_t
dpa_cq_handle(const struct rte_comch_dpa_cq *cq)
{
	return rte_comch_dpa_handle_make(DPA_KIND_CQ, cq->dpa->tag, cq->gen, cq->slot);
}

/* The cq pointer the CPU passed, if it names a live cq. */
static int
dpa_cq_check(const struct rte_comch_dpa_cq *cq, const char *func)
{
	return dpa_obj_check(DPA_LIVE(cq), "cq", func);
}

/* Resolve a handle of the running program's dpa; *err is 0, -EPERM or -EINVAL. */
static struct rte_comch_dpa_cq *
dpa_cq_dev_lookup(rte_comch_dpa_handle_t h, int *err, const char *func)
{
	struct rte_comch_dpa *dpa = dpa_dev_caller(func);
	struct rte_comch_dpa_cq *cq;

	if (dpa == NULL) {
		*err = -EPERM;
		return NULL;
	}
	cq = dpa_handle_lookup(dpa, h, DPA_KIND_CQ, func);
	*err = cq != NULL ? 0 : -EINVAL;
	return cq;
}

/* The entry the program takes next, if it was posted; else NULL. */
static struct dpa_cq_slot *
dpa_cq_next(struct rte_comch_dpa_cq *cq)
{
	return dpa_cq_ready(cq) ? &cq->ring[comch_load_relaxed(&cq->rcv) & cq->mask] : NULL;
}

/*
 * Trigger the attached thread of an armed context (and disarm it). A trigger
 * the thread drops (stopped, finished) gives the arming back: else the
 * context would stay disarmed, and posts after the thread runs again would
 * wake nobody. Called under the context's lock, by the two that see it armed:
 * a post, and an arming that finds an entry.
 */
static void
dpa_cq_notify(struct rte_comch_dpa_cq *cq)
{
	if (cq->thread == NULL)
		return;
	comch_store_relaxed(&cq->armed, 0);
	DPA_STAT_INC(&cq->notifications); /* under the lock, like posted */
	if (dpa_thread_trigger(cq->thread) < 0)
		comch_store_relaxed(&cq->armed, 1);
}

/*
 * Arm cq: the next entry triggers its thread, and so does one waiting already.
 * dropped: the thread has just dropped a trigger for what waits (it was not
 * running); trigger it again only if it runs now (run again meanwhile, a post
 * that came after the drop found the context neither armed nor watched).
 */
void
dpa_cq_arm(struct rte_comch_dpa_cq *cq, bool dropped)
{
	comch_spin_lock(&cq->lock);
	comch_store_relaxed(&cq->armed, 1);
	/* An entry posted before the flag was set wakes nobody: do it here. */
	if (dpa_cq_ready(cq) && (!dropped || (cq->thread != NULL &&
		comch_load_seq_cst(&cq->thread->state) == DPA_THREAD_RUNNING)))
		dpa_cq_notify(cq);
	comch_spin_unlock(&cq->lock);
}

struct rte_comch_dpa_cq *
rte_comch_dpa_cq_create(struct rte_comch_dpa *dpa, const struct rte_comch_dpa_cq_conf *conf)
{
	struct rte_comch_dpa_cq *cq = NULL;
	uint32_t i;
	int ret;

	if (dpa == NULL || conf == NULL || conf->size < 2 ||
	    conf->size > RTE_COMCH_DPA_CQ_MAX_SIZE || !rte_is_power_of_2(conf->size) ||
	    conf->imm_len > RTE_COMCH_DPA_IMM_MAX) {
		DPA_LOG(ERR, "dpa or conf is NULL, size %u is not a power of two, 2 to %u, or "
			"imm_len %u is above %u", conf != NULL ? conf->size : 0,
			RTE_COMCH_DPA_CQ_MAX_SIZE, conf != NULL ? conf->imm_len : 0,
			RTE_COMCH_DPA_IMM_MAX);
		rte_errno = EINVAL;
		return NULL;
	}
	ret = dpa_ctl_lock(dpa, __func__);
	if (ret < 0) {
		rte_errno = -ret;
		return NULL;
	}
	/* Under the lock: the thread is not destroyed while the context attaches to it. */
	if (conf->thread != NULL && (conf->thread->dpa != dpa ||
				     comch_load_acquire(&conf->thread->live) == 0)) {
		DPA_LOG(ERR, "dpa %u: the thread is not a live thread of this dpa", dpa->tag);
		ret = -EINVAL;
		goto fail;
	}
	for (i = 0; i < dpa->max_cqs; i++) {
		if (dpa->cqs[i].live == 0) {
			cq = &dpa->cqs[i];
			break;
		}
	}
	if (cq == NULL) {
		DPA_LOG(ERR, "dpa %u: %u cqs exist already", dpa->tag, dpa->max_cqs);
		ret = -ENOSPC;
		goto fail;
	}
	cq->ring = comch_zalloc_lines(conf->size, sizeof(*cq->ring));
	if (cq->ring == NULL) {
		DPA_LOG(ERR, "out of memory for %u entries", conf->size);
		ret = -ENOMEM;
		goto fail;
	}
	cq->thread = conf->thread;
	cq->size = conf->size;
	cq->mask = conf->size - 1;
	cq->shift = rte_log2_u32(conf->size);
	cq->max_consumers = conf->max_consumers;
	cq->imm_len = conf->imm_len != 0 ? conf->imm_len : RTE_COMCH_DPA_IMM_MAX;
	comch_store_relaxed(&cq->nb_consumers, 0);
	comch_spinlock_init(&cq->lock);
	cq->pi = 0;
	cq->ack_seen = 0;
	cq->rcv = 0;
	cq->ack = 0;
	cq->posted = 0;
	cq->full = 0;
	cq->notifications = 0;
	cq->received = 0;
	cq->acked = 0;
	comch_store_relaxed(&cq->watched, 0);
	cq->watch_notifications = 0;
	/* Armed from the start: the first entry wakes the program up. */
	comch_store_relaxed(&cq->armed, 1);
	if (cq->thread != NULL)
		cq->thread->nb_cqs++;
	cq->gen = rte_comch_dpa_next_gen(cq->gen);
	comch_store_release(&cq->live, cq->gen);
	dpa->nb_cqs++;
	dpa_ctl_unlock(dpa);
	return cq;
fail:
	dpa_ctl_unlock(dpa);
	rte_errno = -ret;
	return NULL;
}

int
rte_comch_dpa_cq_destroy(struct rte_comch_dpa_cq *cq)
{
	int ret = dpa_cq_check(cq, __func__);

	if (ret == 0)
		ret = dpa_ctl_lock(cq->dpa, __func__);
	if (ret < 0)
		return ret;
	/* Again under the lock: another thread may have destroyed it meanwhile. */
	ret = dpa_cq_check(cq, __func__);
	if (ret == 0 && comch_load_acquire(&cq->nb_consumers) != 0) {
		DPA_LOG(ERR, "dpa %u cq %u: %u MsgQ consumers use it: destroy them first",
			cq->dpa->tag, cq->slot, comch_load_relaxed(&cq->nb_consumers));
		ret = -EBUSY;
	}
	if (ret < 0) {
		dpa_ctl_unlock(cq->dpa);
		return ret;
	}
	/* Under the lock: a post, notification included, either finished or sees the context gone. */
	comch_spin_lock(&cq->lock);
	comch_store_seq_cst(&cq->live, 0);
	comch_spin_unlock(&cq->lock);
	/* Programs in flight may hold the handle: wait until their runs end. */
	dpa_grace_wait(cq->dpa);
	free(cq->ring);
	cq->ring = NULL;
	if (cq->thread != NULL)
		cq->thread->nb_cqs--;
	cq->thread = NULL;
	cq->dpa->nb_cqs--;
	dpa_ctl_unlock(cq->dpa);
	return 0;
}

int
rte_comch_dpa_cq_get_dpa_handle(const struct rte_comch_dpa_cq *cq,
				rte_comch_dpa_handle_t *handle)
{
	int ret = dpa_get_check(DPA_LIVE(cq), "cq", handle, "handle", __func__);

	if (ret < 0)
		return ret;
	*handle = dpa_cq_handle(cq);
	return 0;
}

int
rte_comch_dpa_cq_stats_get(const struct rte_comch_dpa_cq *cq,
			   struct rte_comch_dpa_cq_stats *stats)
{
	int ret = dpa_get_check(DPA_LIVE(cq), "cq", stats, "stats", __func__);

	if (ret < 0)
		return ret;
	stats->posted = DPA_STAT_GET(&cq->posted);
	stats->full = DPA_STAT_GET(&cq->full);
	stats->received = DPA_STAT_GET(&cq->received);
	stats->acked = DPA_STAT_GET(&cq->acked);
	stats->notifications = DPA_STAT_GET(&cq->notifications) +
			       DPA_STAT_GET(&cq->watch_notifications);
	return 0;
}

/*
 * Lock cq for one entry if fewer than limit entries (and fewer than its size)
 * are posted and not yet acknowledged. 0: room, cq locked, *entry the entry to
 * fill in place, rte_comch_dpa_cq_commit() follows; -EAGAIN (full) or -EINVAL
 * (destroyed, logged naming func): unlocked.
 * The limit is a DPA producer's dev_max_num_send: checked under the context's
 * lock, so producers sharing the context cannot overshoot it together, and
 * held while the producer delivers, so its completion cannot fail after.
 */
int
rte_comch_dpa_cq_reserve(struct rte_comch_dpa_cq *cq, uint64_t limit, const char *func,
			 struct rte_comch_dpa_cqe **entry)
{
	uint64_t room;

	comch_spin_lock(&cq->lock);
	if (comch_load_relaxed(&cq->live) == 0) {
		comch_spin_unlock(&cq->lock);
		DPA_LOG_FN(ERR, func, "cq was destroyed");
		return -EINVAL;
	}
	room = RTE_MIN((uint64_t)cq->size, limit);
	/*
	 * The program writes ack as it takes entries: read its line only when
	 * what we saw is used up (an older ack only ever says less room).
	 */
	if (cq->pi - cq->ack_seen >= room)
		cq->ack_seen = comch_load_acquire(&cq->ack);
	if (cq->pi - cq->ack_seen >= room) {
		comch_spin_unlock(&cq->lock);
		/* Back-pressure, not an error: the program has not acknowledged yet. */
		DPA_STAT_INC_MT(&cq->full);
		return -EAGAIN;
	}
	/* Filled in place: a copy through the stack would wait on its own stores. */
	*entry = &cq->ring[cq->pi & cq->mask].cqe;
	return 0;
}

/* Publish the entry reserved by rte_comch_dpa_cq_reserve(), trigger the thread, unlock. */
void
rte_comch_dpa_cq_commit(struct rte_comch_dpa_cq *cq)
{
	uint64_t pi = cq->pi;
	struct dpa_cq_slot *slot = &cq->ring[pi & cq->mask];

	comch_store_release(&slot->owner, dpa_cq_phase(cq, pi));
	cq->pi = pi + 1;
	DPA_STAT_INC(&cq->posted);
	/*
	 * The flag after the entry, both under the lock (see the top of the
	 * file). Still under it, so that a destroy that returned has no post
	 * left touching the context (nor a reused one): the trigger never
	 * blocks.
	 */
	if (comch_load_relaxed(&cq->armed) != 0)
		dpa_cq_notify(cq);
	/*
	 * The next post's line, last read by the program a lap ago: taken for
	 * writing now, the next commit does not wait for it.
	 */
	comch_prefetch_for_write(&cq->ring[(pi + 1) & cq->mask]);
	comch_spin_unlock(&cq->lock);
}

int
rte_comch_dpa_cq_post(struct rte_comch_dpa_cq *cq, const struct rte_comch_dpa_cqe *cqe)
{
	struct rte_comch_dpa_cqe *entry;
	int ret;

	if (cq == NULL || cqe == NULL || cqe->imm_len > RTE_COMCH_DPA_IMM_MAX) {
		DPA_LOG(ERR, "cq or cqe is NULL, or imm_len %u above %u",
			cqe != NULL ? cqe->imm_len : 0, RTE_COMCH_DPA_IMM_MAX);
		return -EINVAL;
	}
	ret = rte_comch_dpa_cq_reserve(cq, UINT64_MAX, __func__, &entry);
	if (ret < 0)
		return ret;
	*entry = *cqe;
	rte_comch_dpa_cq_commit(cq);
	return 0;
}

/*
 * Take the next entry of the context h names, for func: 1 and *slot, 0 if
 * there is none, or a negative errno (logged). The entry keeps its place
 * until acknowledged.
 */
static int
dpa_cq_take(rte_comch_dpa_handle_t h, const void *out, struct dpa_cq_slot **slot,
	    const char *func)
{
	struct rte_comch_dpa_cq *cq;
	int ret;

	cq = dpa_cq_dev_lookup(h, &ret, func);
	if (cq == NULL)
		return ret;
	ret = dpa_out_check(out, "cqe", func);
	if (ret < 0)
		return ret;
	*slot = dpa_cq_next(cq);
	if (*slot == NULL)
		return 0;
	/* Only the program (one at a time) writes rcv. */
	comch_store_relaxed(&cq->rcv, comch_load_relaxed(&cq->rcv) + 1);
	DPA_STAT_INC(&cq->received);
	return 1;
}

int
rte_comch_dpa_dev_get_completion(rte_comch_dpa_handle_t h, struct rte_comch_dpa_cqe *cqe)
{
	struct dpa_cq_slot *slot = NULL;
	int ret = dpa_cq_take(h, cqe, &slot, __func__);

	if (ret == 1)
		*cqe = slot->cqe;
	return ret;
}

int
rte_comch_dpa_dev_get_completion_ref(rte_comch_dpa_handle_t h,
				     const struct rte_comch_dpa_cqe **cqe)
{
	struct dpa_cq_slot *slot = NULL;
	int ret = dpa_cq_take(h, cqe, &slot, __func__);

	/* In place: producers do not write it again before it is acknowledged. */
	if (ret == 1)
		*cqe = &slot->cqe;
	return ret;
}

int
rte_comch_dpa_dev_completion_ack(rte_comch_dpa_handle_t h, uint32_t n)
{
	struct rte_comch_dpa_cq *cq;
	uint64_t ack;
	int ret;

	cq = dpa_cq_dev_lookup(h, &ret, __func__);
	if (cq == NULL)
		return ret;
	ack = comch_load_relaxed(&cq->ack);
	if (n > comch_load_relaxed(&cq->rcv) - ack) {
		DPA_LOG(ERR, "dpa %u cq %u: ack of %u entries, only %" PRIu64
			" taken and not acked", cq->dpa->tag, cq->slot, n, cq->rcv - ack);
		return -EINVAL;
	}
	/* Release: the entries were read before producers may write them again. */
	comch_store_release(&cq->ack, ack + n);
	DPA_STAT_ADD(&cq->acked, n);
	return 0;
}

int
rte_comch_dpa_dev_completion_request_notification(rte_comch_dpa_handle_t h)
{
	struct rte_comch_dpa_cq *cq;
	int ret;

	cq = dpa_cq_dev_lookup(h, &ret, __func__);
	if (cq == NULL)
		return ret;
	/* Armed still: nothing came since it was. */
	if (comch_load_relaxed(&cq->armed) != 0)
		return 0;
	/* In a run, its unit watches the context; in an RPC, or if it cannot, arm it. */
	if (dpa_cur_exec->unit == NULL || dpa_watch_add(dpa_cur_exec->unit, cq) < 0)
		dpa_cq_arm(cq, false);
	return 0;
}

int
rte_comch_dpa_cq_check(const struct rte_comch_dpa_cq *cq, const char *func)
{
	return dpa_obj_check(DPA_LIVE(cq), "cq", func);
}

bool
rte_comch_dpa_cq_is_live(const struct rte_comch_dpa_cq *cq)
{
	return comch_load_acquire(&cq->live) != 0;
}

struct rte_comch_dpa *
rte_comch_dpa_cq_get_dpa(const struct rte_comch_dpa_cq *cq)
{
	return cq->dpa;
}

uint32_t
rte_comch_dpa_cq_imm_len(const struct rte_comch_dpa_cq *cq)
{
	return cq->imm_len;
}

/*
 * One compare-and-swap, so that consumers configured on two threads at once
 * cannot both take the context's last place.
 */
int
rte_comch_dpa_cq_consumer_attach(struct rte_comch_dpa_cq *cq)
{
	uint32_t n = comch_load_relaxed(&cq->nb_consumers);

	do {
		if (cq->max_consumers != 0 && n >= cq->max_consumers)
			return -ENOSPC;
	} while (!comch_cas_acq_rel(&cq->nb_consumers, &n, n + 1));
	return 0;
}

void
rte_comch_dpa_cq_consumer_detach(struct rte_comch_dpa_cq *cq)
{
	comch_fetch_add_relaxed(&cq->nb_consumers, -1);
}
