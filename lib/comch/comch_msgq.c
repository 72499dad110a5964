/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * MsgQ: a fast-path link with both sides in this process, one of them on the
 * DPA. Its producers and consumers are the library's ordinary ones; what a
 * connection does with control messages (announce a consumer to the peer,
 * wait for the peer to import it, withdraw it) a MsgQ does at once, under its
 * lock: a consumer's start hands the driver's blob straight to the driver's
 * import, and its stop unimports it a grace period after marking it dead, as
 * an EXPIRED does on a connection.
 */

#include <errno.h>
#include <stdlib.h>

#include <rte_errno.h>

#include "comch_private.h"
#include "rte_comch_msgq.h"

struct rte_comch_msgq {
	uint32_t magic;                   /**< COMCH_MAGIC_MSGQ. */
	struct comch_objreg_entry reg;    /**< In the registry of live objects. */
	struct rte_comch_dev *dev;
	struct rte_comch_accel *accel;    /**< NULL until a direction is set. */
	bool accel_consumer;              /**< The direction, once accel is set. */
	bool started;
	uint32_t max_consumers;
	uint32_t max_producers;
	/** Its producers and consumers; link.drv is the driver's MsgQ while started. */
	struct comch_link link;
};

#define COMCH_BAD_MSGQ(q) COMCH_BAD_OBJ(q, magic, COMCH_MAGIC_MSGQ)
#define COMCH_BAD_MSGQ_FAST(q) COMCH_BAD_OBJ_FAST(q, magic, COMCH_MAGIC_MSGQ)

static uint32_t comch_msgq_next_id;

static const struct comch_link_ops comch_msgq_link_ops;

struct rte_comch_msgq *
rte_comch_msgq_create(struct rte_comch_dev *dev)
{
	struct rte_comch_msgq *q;

	if (COMCH_BAD_OBJ(dev, magic, COMCH_MAGIC_DEV)) {
		rte_errno = EINVAL;
		return NULL;
	}
	if ((dev->info.capa & RTE_COMCH_CAPA_MSGQ) == 0 || dev->ops->msgq == NULL) {
		COMCH_LOG(ERR, "device %s (driver %s) has no MsgQ: open a \"dpa:\" device",
			  dev->info.name, dev->drv->name);
		rte_errno = ENOTSUP;
		return NULL;
	}
	q = comch_zalloc_lines(1, sizeof(*q));
	if (q == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	q->magic = COMCH_MAGIC_MSGQ;
	q->dev = dev;
	q->max_consumers = RTE_COMCH_MSGQ_DEFAULT_MAX;
	q->max_producers = RTE_COMCH_MSGQ_DEFAULT_MAX;
	comch_link_init(&q->link, &comch_msgq_link_ops, dev,
			comch_fetch_add_relaxed(&comch_msgq_next_id, 1), NULL, 0);
	/* The device stays open while the MsgQ exists (rte_comch_dev_close() says -EBUSY). */
	dev->nb_users++;
	comch_obj_publish(&q->reg, &q->magic);
	return q;
}

int
rte_comch_msgq_destroy(struct rte_comch_msgq *msgq)
{
	if (COMCH_BAD_MSGQ(msgq))
		return -EINVAL;
	if (msgq->started) {
		COMCH_LOG(ERR, "MsgQ %u: started: stop it first", msgq->link.id);
		return -EBUSY;
	}
	msgq->dev->nb_users--;
	comch_obj_retire(&msgq->reg, &msgq->magic, msgq);
	return 0;
}

/* What every setter checks: a live MsgQ, stopped. */
static int
comch_msgq_check_stopped(const struct rte_comch_msgq *q, const char *what)
{
	if (q->started) {
		COMCH_LOG(ERR, "MsgQ %u: %s: only while stopped", q->link.id, what);
		return -EBUSY;
	}
	return 0;
}

static int
comch_msgq_set_accel(struct rte_comch_msgq *q, struct rte_comch_accel *accel,
		     bool accel_consumer, const char *what)
{
	int rc;

	if (COMCH_BAD_MSGQ(q) || COMCH_NULL_ARG(accel))
		return -EINVAL;
	rc = comch_msgq_check_stopped(q, what);
	if (rc < 0)
		return rc;
	q->accel = accel;
	q->accel_consumer = accel_consumer;
	return 0;
}

int
rte_comch_msgq_set_dpa_consumer(struct rte_comch_msgq *msgq, struct rte_comch_accel *accel)
{
	return comch_msgq_set_accel(msgq, accel, true, "set_dpa_consumer");
}

int
rte_comch_msgq_set_dpa_producer(struct rte_comch_msgq *msgq, struct rte_comch_accel *accel)
{
	return comch_msgq_set_accel(msgq, accel, false, "set_dpa_producer");
}

static int
comch_msgq_set_max(struct rte_comch_msgq *q, uint32_t *field, uint32_t max, const char *what)
{
	int rc;

	if (COMCH_BAD_MSGQ(q))
		return -EINVAL;
	if (max == 0 || max > RTE_COMCH_MSGQ_MAX) {
		COMCH_LOG(ERR, "MsgQ %u: %s %u is not in 1..%u", q->link.id, what, max,
			  RTE_COMCH_MSGQ_MAX);
		return -EINVAL;
	}
	rc = comch_msgq_check_stopped(q, what);
	if (rc == 0)
		*field = max;
	return rc;
}

int
rte_comch_msgq_set_max_num_consumers(struct rte_comch_msgq *msgq, uint32_t max)
{
	return comch_msgq_set_max(msgq, msgq == NULL ? NULL : &msgq->max_consumers, max,
				  "max_num_consumers");
}

int
rte_comch_msgq_set_max_num_producers(struct rte_comch_msgq *msgq, uint32_t max)
{
	return comch_msgq_set_max(msgq, msgq == NULL ? NULL : &msgq->max_producers, max,
				  "max_num_producers");
}

int
rte_comch_msgq_start(struct rte_comch_msgq *msgq)
{
	struct rte_comch_drv_msgq_conf conf;
	void *drv = NULL;
	int rc;

	if (COMCH_BAD_MSGQ(msgq))
		return -EINVAL;
	if (msgq->started) {
		COMCH_LOG(ERR, "MsgQ %u: started already", msgq->link.id);
		return -EBUSY;
	}
	if (msgq->accel == NULL) {
		COMCH_LOG(ERR, "MsgQ %u: no direction: rte_comch_msgq_set_dpa_consumer() or "
			  "rte_comch_msgq_set_dpa_producer() first", msgq->link.id);
		return -ENOENT;
	}
	conf.accel_consumer = msgq->accel_consumer;
	conf.accel = msgq->accel;
	conf.max_consumers = msgq->max_consumers;
	conf.max_producers = msgq->max_producers;
	rc = msgq->dev->ops->msgq->create(msgq->dev->priv, &conf, &drv);
	if (rc < 0) {
		COMCH_LOG(ERR, "MsgQ %u: the driver refused it: %s", msgq->link.id, strerror(-rc));
		return rc;
	}
	msgq->link.drv = drv;
	comch_link_set_max_remotes(&msgq->link, msgq->max_consumers);
	comch_store_relaxed(&msgq->link.fp_dead, 0);
	comch_store_relaxed(&msgq->link.abort_reason, 0);
	rc = comch_link_remotes_alloc(&msgq->link);
	if (rc < 0) {
		COMCH_LOG(ERR, "MsgQ %u: out of memory for %u consumers", msgq->link.id,
			  msgq->max_consumers);
		msgq->dev->ops->msgq->destroy(drv);
		msgq->link.drv = NULL;
		return rc;
	}
	msgq->started = true;
	return 0;
}

int
rte_comch_msgq_stop(struct rte_comch_msgq *msgq)
{
	if (COMCH_BAD_MSGQ(msgq))
		return -EINVAL;
	if (!msgq->started) {
		COMCH_LOG(ERR, "MsgQ %u: not started", msgq->link.id);
		return -EBUSY;
	}
	if (msgq->link.nb_fast != 0) {
		COMCH_LOG(ERR, "MsgQ %u: %u producers or consumers still exist: destroy them first",
			  msgq->link.id, msgq->link.nb_fast);
		return -EBUSY;
	}
	/* Every consumer was stopped, so unimported, before its destroy. */
	comch_link_release_remotes(&msgq->link);
	comch_link_remotes_free(&msgq->link);
	comch_grace_free(&msgq->link);
	msgq->dev->ops->msgq->destroy(msgq->link.drv);
	msgq->link.drv = NULL;
	msgq->started = false;
	return 0;
}

int
rte_comch_msgq_get_direction(const struct rte_comch_msgq *msgq, int *dpa_consumer)
{
	if (COMCH_BAD_MSGQ_FAST(msgq) || COMCH_NULL_ARG(dpa_consumer))
		return -EINVAL;
	if (msgq->accel == NULL)
		return -ENOENT;
	*dpa_consumer = msgq->accel_consumer;
	return 0;
}

struct rte_comch_dev *
rte_comch_msgq_get_device(const struct rte_comch_msgq *msgq)
{
	if (COMCH_BAD_MSGQ_FAST(msgq)) {
		rte_errno = EINVAL;
		return NULL;
	}
	return msgq->dev;
}

/* What both creates check; the link locked on success. */
static int
comch_msgq_create_begin(struct rte_comch_msgq *q, const char *what)
{
	if (COMCH_BAD_MSGQ(q))
		return -EINVAL;
	if (!q->started) {
		COMCH_LOG(ERR, "MsgQ %u: %s: start the MsgQ first", q->link.id, what);
		return -EBUSY;
	}
	comch_link_lock(&q->link);
	return 0;
}

struct rte_comch_consumer *
rte_comch_msgq_consumer_create(struct rte_comch_msgq *msgq)
{
	struct rte_comch_consumer *c;
	enum comch_fast_api api;
	int rc = comch_msgq_create_begin(msgq, "consumer_create");

	if (rc < 0) {
		rte_errno = -rc;
		return NULL;
	}
	/* The accelerator's side: its program posts, the CPU none. */
	api = msgq->accel_consumer ? COMCH_FAST_API_NONE : COMCH_FAST_API_TASKS;
	c = comch_consumer_create(&msgq->link, NULL, msgq->max_consumers, api);
	comch_link_unlock(&msgq->link);
	return c;
}

struct rte_comch_producer *
rte_comch_msgq_producer_create(struct rte_comch_msgq *msgq)
{
	struct rte_comch_producer *p;
	enum comch_fast_api api;
	int rc = comch_msgq_create_begin(msgq, "producer_create");

	if (rc < 0) {
		rte_errno = -rc;
		return NULL;
	}
	/* The accelerator's side: its program sends, the CPU none. */
	api = msgq->accel_consumer ? COMCH_FAST_API_TASKS : COMCH_FAST_API_NONE;
	p = comch_producer_create(&msgq->link, msgq->max_producers, api);
	comch_link_unlock(&msgq->link);
	return p;
}

/* ------------------------------------------------------------------ consumers' life */

/* Start: a fresh receive state from the driver, imported at once by the other side. */
static int
comch_msgq_import(struct comch_link *link, struct rte_comch_consumer *c)
{
	const struct rte_comch_drv_ops *ops = link->dev->ops;
	struct rte_comch_drv_consumer_start st = {
		.nb_posts = c->tasks.nb,
		.imm_len = c->imm_len,
		.pe = c->ctx.pe,
	};
	struct rte_comch_drv_remote_conf rconf = {
		.nb_posts = c->tasks.nb,
		.imm_len = c->imm_len,
		.mem_len = 0,
	};
	struct rte_comch_drv_blob blob = { .nb_fds = 0 };
	struct rte_comch_drv_blob reply = { .len = 0, .nb_fds = 0 };
	void *drv = NULL;
	int rc;

	if (comch_link_remote_busy(link, c->id)) {
		COMCH_LOG(ERR, "MsgQ %u: consumer %u is still being withdrawn", link->id, c->id);
		return -EBUSY;
	}
	rc = ops->consumer->start(c->drv, &st, &blob);
	if (rc < 0)
		return rc;
	rc = ops->producer->import(link->drv, &rconf, &blob, &reply, &drv);
	if (rc < 0)
		return rc;
	rc = comch_consumer_connect(c, &reply);
	if (rc < 0) {
		ops->producer->unimport(link->drv, drv);
		return rc;
	}
	comch_link_import(link, c->id, c->imm_len, drv);
	comch_store_release(&c->reg, 1);
	return 0;
}

/* A stopping consumer: unimported once its grace period is over (sets expired). */
static void
comch_msgq_expire_poll(struct rte_comch_consumer *c)
{
	struct comch_link *link = c->link;
	struct comch_remote *r;

	comch_link_lock(link);
	r = comch_remote_lookup(link, c->id);
	/* No producer can be sending to it any more: the driver forgets it. */
	if (r != NULL && r->unimporting && comch_grace_done(link, r->grace))
		comch_link_unimport(link, r);
	if (r == NULL || !r->imported)
		comch_store_release(&c->expired, 1);
	comch_link_unlock(link);
}

/* A consumer's start (expire false) or stop, done at once in this process. */
static int
comch_msgq_request(struct rte_comch_consumer *c, bool expire)
{
	struct comch_link *link = c->link;
	struct comch_remote *r;
	int rc = 0;

	comch_link_lock(link);
	if (!expire) {
		rc = comch_msgq_import(link, c);
	} else {
		r = comch_remote_lookup(link, c->id);
		if (r != NULL && r->imported && !r->unimporting)
			comch_link_expire(link, r);
	}
	comch_link_unlock(link);
	if (expire)
		comch_msgq_expire_poll(c);
	return rc;
}

/* The driver broke its word: nothing more goes through the MsgQ. */
static void
comch_msgq_link_abort(struct comch_link *link, int reason)
{
	struct rte_comch_consumer *c;

	COMCH_LOG(ERR, "MsgQ %u: the driver failed (%d): its producers and consumers stop",
		  link->id, reason);
	comch_store_release(&link->fp_dead, 1);
	/* Its consumers' engines may sleep: their posted tasks end now (as a connection's do). */
	comch_link_lock(link);
	TAILQ_FOREACH(c, &link->consumers, next)
		if (c->ctx.pe != NULL)
			rte_comch_drv_pe_wake(c->ctx.pe);
	comch_link_unlock(link);
}

/* Immediate data only; both sides here, under the lock; nothing waits for a peer. */
static const struct comch_link_ops comch_msgq_link_ops = {
	.kind = "MsgQ",
	.locked = true,
	.buffers = false,
	.peer = false,
	.request = comch_msgq_request,
	.abort = comch_msgq_link_abort,
	.expire_poll = comch_msgq_expire_poll,
};
