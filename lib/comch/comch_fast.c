/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * What producers and consumers share: their attachment to a link (a
 * connection's or a MsgQ's, comch_link.c), and their tasks. Producers and
 * consumers run on their own lcores; a connection that ends while some exist
 * is torn down but stays allocated until the last of them is destroyed. What
 * the link's owner does for them goes through its ops (struct comch_link_ops).
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <rte_errno.h>
#include <rte_mempool.h>
#include <rte_ring.h>

#include "comch_private.h"

/*
 * Checks common to producer_create and consumer_create, whose callers checked
 * the link is live (a connection's, or a started MsgQ's).
 */
int
comch_fast_attach(struct comch_link *link, uint32_t count, uint32_t max, const char *what)
{
	int rc;

	if (count >= max) {
		COMCH_LOG(ERR, "%s: the %s has %u already, the most it can", what,
			  link->ops->kind, max);
		return -ENOSPC;
	}
	if (link->ops->attach != NULL) {
		rc = link->ops->attach(link, what);
		if (rc < 0)
			return rc;
	}
	link->nb_fast++;
	return 0;
}

/* The engine whose lcore changes a producer's or consumer's link, or NULL (it locks). */
static struct rte_comch_pe *
comch_fast_link_pe(struct comch_link *link)
{
	return link->ops->pe != NULL ? link->ops->pe(link) : NULL;
}

int
comch_fast_conn_destroy(struct comch_link *link, int (*destroy)(void *obj), void *obj)
{
	/* The connection may go with obj, its engine stays: read it before. */
	struct rte_comch_pe *pe = comch_fast_link_pe(link);
	bool borrowed = comch_pe_borrow(pe);
	int rc = destroy(obj);

	if (borrowed)
		comch_pe_leave_slow(pe);
	return rc;
}

/* A producer or consumer is gone: an owner may go with its last one (a connection that ended). */
void
comch_fast_detach(struct comch_link *link)
{
	link->nb_fast--;
	if (link->ops->detach != NULL)
		link->ops->detach(link);
}

/*
 * The same at a destroy, with the link locked (comch_link_lock()): unlocked on
 * return. An unlocked link's owner, and the link in it, may be freed by the
 * detach, so nothing of the link is read after it: only a locked one, which
 * outlives its producers and consumers, is unlocked.
 */
void
comch_fast_detach_unlock(struct comch_link *link)
{
	bool locked = link->ops->locked;

	comch_fast_detach(link);
	if (locked)
		comch_link_unlock(link);
}

/* What set_conf checks for producers and consumers alike; resizes their tasks. */
int
comch_fast_set_conf(struct rte_comch_ctx *ctx, struct comch_fast_tasks *ft, bool cbs_given,
		    uint32_t num, const char *what)
{
	int rc;

	if (!cbs_given) {
		COMCH_LOG(ERR, "%s: a callback is NULL", what);
		return -EINVAL;
	}
	rc = comch_ctx_check_idle(ctx, what);
	if (rc < 0)
		return rc;
	if (num == 0 || num > ctx->dev->info.max_fast_tasks) {
		COMCH_LOG(ERR, "%s: number of tasks %u is not in 1..%u", what, num,
			  ctx->dev->info.max_fast_tasks);
		return -EINVAL;
	}
	return comch_fast_tasks_resize(ft, num, what);
}

/* What start checks for producers and consumers alike; sets up their tasks. */
int
comch_fast_start(const struct rte_comch_ctx *ctx, struct comch_fast_tasks *ft, size_t elt_size,
		 bool configured, bool tasks, const struct comch_link *link, const char *what)
{
	if (!configured) {
		COMCH_LOG(ERR, "%s start: configure its tasks first", what);
		return -EINVAL;
	}
	if (comch_link_dead(link)) {
		COMCH_LOG(ERR, "%s start: its %s has ended", what, link->ops->kind);
		return -ENOTCONN;
	}
	return tasks ? comch_fast_tasks_setup(ft, elt_size) : 0;
}

/*
 * Destroy's checks and release, for producers and consumers alike: then only
 * lists remain. The driver's state goes before the engine is left, since the
 * engine may still watch it (a consumer's doorbell).
 */
int
comch_fast_destroy(struct rte_comch_ctx *ctx, struct comch_fast_tasks *ft, const char *what,
		   void (*drv_release)(struct rte_comch_ctx *ctx))
{
	int rc = comch_ctx_check_idle(ctx, what);

	if (rc == 0)
		rc = comch_fast_tasks_release(ft, what);
	if (rc < 0)
		return rc;
	drv_release(ctx);
	comch_pe_detach(ctx);
	return 0;
}

/* Pool and queue, made at first start for the configured number of tasks. */
int
comch_fast_tasks_setup(struct comch_fast_tasks *ft, size_t elt_size)
{
	uint32_t qsize = rte_align32pow2(ft->nb);

	if (ft->pool != NULL)
		return 0;
	ft->q = calloc(qsize, sizeof(*ft->q));
	ft->pool = comch_task_pool_create(ft->nb, elt_size);
	if (ft->q == NULL || ft->pool == NULL) {
		free(ft->q);
		ft->q = NULL;
		comch_task_pool_free(ft->pool);
		ft->pool = NULL;
		return -ENOMEM;
	}
	ft->mask = qsize - 1;
	ft->head = ft->tail = 0;
	return 0;
}

/* Free pool and queue; refused while tasks are taken from the pool. */
int
comch_fast_tasks_release(struct comch_fast_tasks *ft, const char *what)
{
	unsigned int used = comch_task_pool_in_use(ft->pool);

	if (used != 0) {
		COMCH_LOG(ERR, "%s: %u tasks were not freed", what, used);
		return -EBUSY;
	}
	comch_task_pool_free(ft->pool);
	free(ft->q);
	ft->pool = NULL;
	ft->q = NULL;
	return 0;
}

/* A new pool size: the old pool goes (made again at start), if no task is out. */
int
comch_fast_tasks_resize(struct comch_fast_tasks *ft, uint32_t num, const char *what)
{
	int rc = 0;

	if (ft->pool != NULL && num != ft->nb)
		rc = comch_fast_tasks_release(ft, what);
	if (rc == 0)
		ft->nb = num;
	return rc;
}
