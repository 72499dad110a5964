/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Producer: sends to consumers on the other side of its link, a connection or
 * a MsgQ. The driver copies each message at submit, or refuses it; the
 * completion callback follows in the producer's next progress.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_memcpy.h>
#include <rte_mempool.h>

#include "comch_private.h"

/* Completions taken from the driver per call. */
#define COMCH_PRODUCER_BURST 32

static struct rte_comch_producer *
comch_producer_of(struct rte_comch_ctx *ctx)
{
	return container_of(ctx, struct rte_comch_producer, ctx);
}

static int
comch_producer_start(struct rte_comch_ctx *ctx)
{
	struct rte_comch_producer *p = comch_producer_of(ctx);
	const struct rte_comch_drv_producer_ops *ops = ctx->dev->ops->producer;
	int rc;

	/* Tasks only if the CPU sends with them; the other ways need no configuration. */
	rc = comch_fast_start(ctx, &p->tasks, sizeof(struct rte_comch_producer_task_send),
			      p->ok_cb != NULL || p->api != COMCH_FAST_API_TASKS,
			      p->api == COMCH_FAST_API_TASKS, p->link, "producer");
	if (rc < 0)
		return rc;
	/* The hot path's driver calls, in the producer itself. */
	p->fp.send = ops->send;
	p->fp.notify = ops->notify;
	p->fp.completed = ops->completed;
	p->fp.priv = p->drv;
	p->starved = false;
	/* Its sends hold the remotes from now on: grace periods wait for it. */
	p->asleep = false;
	comch_grace_online(p);
	comch_ctx_set_state(ctx, RTE_COMCH_CTX_STATE_RUNNING);
	return 0;
}

/*
 * It sends no more: grace periods stop waiting for it, and a remote it owned
 * goes to whichever producer sends to it next.
 */
static void
comch_producer_idle(struct rte_comch_producer *p)
{
	struct comch_remote *r = comch_load_acquire(&p->link->remotes);
	struct rte_comch_producer *me;
	uint32_t i;

	for (i = 0; r != NULL && i < p->link->nb_remote_slots; i++) {
		me = p;
		comch_cas_acq_rel(&r[i].owner, &me, NULL);
	}
	comch_grace_offline(p);
	p->asleep = false;
	comch_ctx_set_state(&p->ctx, RTE_COMCH_CTX_STATE_IDLE);
}

static int
comch_producer_stop(struct rte_comch_ctx *ctx)
{
	struct rte_comch_producer *p = comch_producer_of(ctx);

	/* Nothing in flight: IDLE at once, without a STOPPING in between (as DOCA's). */
	if (comch_fast_tasks_inflight(&p->tasks) == 0) {
		comch_producer_idle(p);
		return 0;
	}
	comch_ctx_set_state(ctx, RTE_COMCH_CTX_STATE_STOPPING);
	return -EINPROGRESS; /* their callbacks come in progress */
}

/* Wake the remote consumers this producer filled buffers of, if they sleep. */
static void
comch_producer_notify(struct rte_comch_producer *p)
{
	struct comch_remote *r;
	unsigned int w, id;
	uint64_t bits;

	p->any_filled = false;
	for (w = 0; w < RTE_DIM(p->filled); w++) {
		bits = p->filled[w];
		p->filled[w] = 0;
		while (bits != 0) {
			id = w * 64 + rte_bsf64(bits);
			bits &= bits - 1;
			r = comch_remote_lookup(p->link, id);
			/* Before our quiescent state: an unimport waits for it. */
			if (comch_load_acquire(&r->alive))
				p->fp.notify(p->fp.priv, r->drv);
		}
	}
}

/* Complete the n oldest sends in flight; status NULL: all succeeded. */
static void
comch_producer_complete(struct rte_comch_producer *p, uint32_t n, const int *status)
{
	struct rte_comch_ctx *ctx = &p->ctx;
	struct rte_comch_producer_task_send *t;
	uint32_t i;

	for (i = 0; i < n; i++) {
		t = comch_fast_tasks_pop(&p->tasks);
		t->base.status = status != NULL ? status[i] : 0;
		ctx->nb_inflight--;
		comch_pe_add_inflight(ctx->pe, -1);
		if (comch_task_done_freed(&t->base))
			continue;
		comch_pe_enter_cb(ctx->pe);
		(t->base.status == 0 ? p->ok_cb : p->err_cb)(t, t->base.user_data, ctx->user_data);
		comch_pe_leave_cb(ctx->pe);
	}
}

/* A round with something to do: wake-ups, completions, the end of a stop. */
static __rte_noinline int
comch_producer_progress_work(struct rte_comch_producer *p)
{
	struct rte_comch_ctx *ctx = &p->ctx;
	uint32_t n = comch_fast_tasks_inflight(&p->tasks);
	int status[COMCH_PRODUCER_BURST];
	int got;

	/* Wake the consumers first: the callbacks below are ours, not theirs. */
	if (p->any_filled && p->fp.notify != NULL)
		comch_producer_notify(p);
	if (n != 0 && p->fp.completed == NULL) {
		/* Done at submit: only what was done before this round, callbacks may send more. */
		comch_producer_complete(p, n, NULL);
	} else if (n != 0) {
		got = p->fp.completed(p->fp.priv, status, RTE_MIN(n, RTE_DIM(status)));
		if (got > 0)
			comch_producer_complete(p, RTE_MIN((uint32_t)got, n), status);
		n = got > 0 ? (uint32_t)got : 0;
	}
	/* Between two sends: nothing of the remotes is in use. */
	comch_grace_quiescent(p);
	if (ctx->state == RTE_COMCH_CTX_STATE_STOPPING && comch_fast_tasks_inflight(&p->tasks) == 0) {
		comch_producer_idle(p);
		return 1;
	}
	return n != 0;
}

static int
comch_producer_progress(struct rte_comch_ctx *ctx, bool slow __rte_unused,
			uint64_t now __rte_unused)
{
	struct rte_comch_producer *p = comch_producer_of(ctx);

	comch_grace_awake(p);
	/* The common idle round (and every one of the burst API's): nothing to do. */
	if (likely(comch_fast_tasks_inflight(&p->tasks) == 0 && !p->any_filled &&
		   ctx->state == RTE_COMCH_CTX_STATE_RUNNING)) {
		comch_grace_quiescent(p);
		/* A program's producer: the CPU sends nothing, and reads no remote. */
		if (p->api == COMCH_FAST_API_NONE)
			ctx->quiet = true;
		return 0;
	}
	return comch_producer_progress_work(p);
}

static int
comch_producer_arm(struct rte_comch_ctx *ctx)
{
	struct rte_comch_producer *p = comch_producer_of(ctx);

	/*
	 * Completions are due at the next progress, and so are the wake-ups of
	 * the consumers filled since the last one (sends of the burst API leave
	 * nothing in flight). A starved producer waits for the peer to post
	 * buffers, and posting rings nobody: it keeps polling.
	 */
	if (comch_fast_tasks_inflight(&p->tasks) != 0 || p->any_filled ||
	    (p->starved && !comch_link_dead(p->link)))
		return -EAGAIN;
	/*
	 * Its engine may sleep now: a sleeping reader would hold up every grace
	 * period of the connection (the peer's consumer stops, a second producer
	 * sharing a consumer). Offline until its next progress or send.
	 */
	if (p->ctx.state == RTE_COMCH_CTX_STATE_RUNNING && !p->asleep) {
		comch_grace_offline(p);
		p->asleep = true;
	}
	return 0;
}

static const struct comch_ctx_ops comch_producer_ops = {
	.start = comch_producer_start,
	.stop = comch_producer_stop,
	.progress = comch_producer_progress,
	.arm = comch_producer_arm,
};

/*
 * Whether p may send to r now, and how: 0 without the lock (it owns r, alone),
 * 1 with it, -EAGAIN not yet (r's owner has not yet seen that r is shared).
 */
static int
comch_producer_share(struct rte_comch_producer *p, struct comch_remote *r)
{
	struct rte_comch_producer *none = NULL;
	uint8_t share = comch_load_acquire(&r->share);
	uint64_t grace;

	if (share == COMCH_SHARE_LOCKED)
		return 1;
	/* Unowned: ours, unless sharing was asked for already. */
	if (comch_load_relaxed(&r->owner) == p ||
	    comch_cas_acq_rel(&r->owner, &none, p))
		return share == COMCH_SHARE_OWNER ? 0 : 1;
	/*
	 * Another producer's: it must see the lock is needed before we take it.
	 * The first to ask starts the grace period (the owner sends unlocked,
	 * so the lock only orders the askers).
	 */
	rte_ticketlock_lock(&r->lock);
	if (r->share == COMCH_SHARE_OWNER) {
		/*
		 * Asked before the grace period starts: an owner whose quiescent
		 * state comes after the start sees ASKED and locks (QSBR orders
		 * only what was changed before rte_rcu_qsbr_start()).
		 */
		comch_store_release(&r->share, (uint8_t)COMCH_SHARE_ASKED);
		r->share_grace = comch_grace_start(p->link);
	}
	grace = r->share_grace;
	rte_ticketlock_unlock(&r->lock);
	if (!comch_grace_done(p->link, grace)) {
		/*
		 * We hold nothing of the remotes until our next send: say so, or
		 * a caller that retries without progressing would wait on itself.
		 */
		comch_grace_quiescent(p);
		return -EAGAIN;
	}
	comch_store_release(&r->share, (uint8_t)COMCH_SHARE_LOCKED);
	return 1;
}

/*
 * Up to n sends through the driver to one remote consumer: without a lock by
 * the producer that owns it, under its lock once several send to it. Returns
 * how many went (from the first), or with none: -EAGAIN (no buffer posted, or
 * sharing not ready yet), -EMSGSIZE, -ENOENT if the peer has no such consumer
 * (any more), -ENOTCONN if the peer broke the protocol (the connection is
 * aborted).
 */
static __rte_always_inline int
comch_producer_send(struct rte_comch_producer *p, uint32_t consumer_id, const void *src_reg,
		    const struct rte_comch_fp_msg *msgs, unsigned int n)
{
	struct comch_remote *r = comch_remote_lookup(p->link, consumer_id);
	unsigned int i;
	int locked, rc;

	comch_grace_awake(p);
	if (unlikely(r == NULL || !comch_load_acquire(&r->alive)))
		return -ENOENT;
	/* The consumer's immediate data length, checked here for every driver. */
	for (i = 0; i < n && msgs[i].imm_len <= r->imm_len; i++)
		;
	if (unlikely(i == 0))
		return -EMSGSIZE;
	locked = likely(comch_load_relaxed(&r->owner) == p &&
			comch_load_relaxed(&r->share) == COMCH_SHARE_OWNER) ? 0 :
		 comch_producer_share(p, r);
	if (likely(locked == 0)) {
		rc = p->fp.send(p->fp.priv, r->drv, p->id, src_reg, msgs, i);
	} else if (locked > 0) {
		rte_ticketlock_lock(&r->lock);
		rc = p->fp.send(p->fp.priv, r->drv, p->id, src_reg, msgs, i);
		rte_ticketlock_unlock(&r->lock);
	} else {
		rc = locked;
	}
	if (likely(rc > 0)) {
		/* Whom to wake at the next progress; a driver whose send wakes has no notify. */
		if (p->fp.notify != NULL) {
			p->filled[consumer_id / 64] |= RTE_BIT64(consumer_id % 64);
			p->any_filled = true;
		}
	} else if (rc == -EPROTO) {
		COMCH_LOG(ERR, "producer %u: consumer %u of the other side broke the protocol: "
			  "ending the %s", p->id, consumer_id, p->link->ops->kind);
		comch_link_abort(p->link, -EPROTO);
		rc = -ENOTCONN;
	}
	return rc;
}

/* The registration on the producer's device of the memory a message is sent from. */
static inline int
comch_producer_src_reg(const struct rte_comch_producer *p, const struct rte_comch_mmap *mmap,
		       const void **reg)
{
	*reg = NULL;
	if (mmap == NULL)
		return 0;
	*reg = comch_mmap_reg(mmap, p->ctx.dev);
	if (unlikely(*reg == NULL)) {
		COMCH_LOG(ERR, "producer %u: the mmap is not registered with device %s: add it "
			  "(rte_comch_mmap_add_dev()) before starting the mmap", p->id,
			  p->ctx.dev->info.name);
		return -EINVAL;
	}
	return 0;
}

int
comch_producer_submit(struct rte_comch_producer_task_send *t)
{
	struct rte_comch_producer *p = comch_producer_of(t->base.ctx);
	const struct rte_comch_buf *buf = t->buf;
	const void *reg;
	int rc;

	rc = comch_fast_submit_check(&p->ctx, p->link, p->id, "producer");
	if (unlikely(rc < 0))
		return rc;
	rc = comch_producer_src_reg(p, buf != NULL ? buf->mmap : NULL, &reg);
	if (unlikely(rc < 0))
		return rc;
	/* The buffer is read at submit. */
	t->msg.data = buf != NULL ? buf->data : NULL;
	t->msg.len = buf != NULL ? buf->data_len : 0;
	rc = comch_producer_send(p, t->consumer_id, reg, &t->msg, 1);
	p->starved = rc == -EAGAIN;
	if (unlikely(rc < 0))
		return rc;
	comch_fast_tasks_push(&p->tasks, t);
	t->base.status = -EINPROGRESS;
	p->ctx.nb_inflight++;
	comch_pe_add_inflight(p->ctx.pe, 1);
	return 0;
}

/* ------------------------------------------------------------------ burst API */

/* What every burst send checks first: an error, 0 if there is nothing to send, 1 to go on. */
static __rte_always_inline int
comch_producer_burst_ready(struct rte_comch_producer *p, const struct rte_comch_fp_msg *msgs,
			   uint16_t nb)
{
	if (unlikely(p->api != COMCH_FAST_API_BURST ||
		     p->ctx.state != RTE_COMCH_CTX_STATE_RUNNING)) {
		COMCH_LOG(ERR, "producer %u: not running in burst mode", p->id);
		return -EBUSY;
	}
	if (unlikely(comch_link_dead(p->link)))
		return -ENOTCONN;
	if (unlikely(msgs == NULL || nb == 0))
		return msgs == NULL && nb != 0 ? -EINVAL : 0;
	return 1;
}

/* A burst send past comch_producer_burst_ready(). */
static __rte_always_inline int
comch_producer_burst_send(struct rte_comch_producer *p, uint32_t consumer_id,
			  const struct rte_comch_mmap *mmap, const struct rte_comch_fp_msg *msgs,
			  uint16_t nb)
{
	const void *reg;
	int rc;

	rc = comch_producer_src_reg(p, mmap, &reg);
	if (unlikely(rc < 0))
		return rc;
	rc = comch_producer_send(p, consumer_id, reg, msgs, nb);
	p->starved = rc == -EAGAIN;
	if (rc == -EAGAIN)
		return 0;
	if (rc > 0 && p->fp.completed == NULL)
		p->burst_done += rc;
	return rc;
}

static int
comch_producer_send_burst(void *obj, uint32_t consumer_id, const struct rte_comch_mmap *mmap,
			  const struct rte_comch_fp_msg *msgs, uint16_t nb)
{
	struct rte_comch_producer *p = obj;
	int rc = comch_producer_burst_ready(p, msgs, nb);

	if (rc <= 0)
		return rc;
	return comch_producer_burst_send(p, consumer_id, mmap, msgs, nb);
}

static int
comch_producer_completed_burst(void *obj, int *status, uint16_t max)
{
	struct rte_comch_producer *p = obj;
	uint32_t n;

	if (unlikely(p->api != COMCH_FAST_API_BURST))
		return -EBUSY;
	if (p->fp.completed != NULL && p->ctx.state != RTE_COMCH_CTX_STATE_IDLE)
		return p->fp.completed(p->fp.priv, status, max);
	/* Done at send: each was complete when send_burst returned. */
	n = RTE_MIN(p->burst_done, (uint32_t)max);
	p->burst_done -= n;
	if (status != NULL)
		memset(status, 0, n * sizeof(*status));
	return n;
}

/*
 * A MsgQ producer's burst send: immediate data only, checked here for every
 * driver (a driver may check it too), so that a connection's sends pay nothing
 * for it. A message with data ends the burst before it, as one that does not
 * fit does.
 */
static int
comch_producer_send_burst_imm(void *obj, uint32_t consumer_id, const struct rte_comch_mmap *mmap,
			      const struct rte_comch_fp_msg *msgs, uint16_t nb)
{
	struct rte_comch_producer *p = obj;
	uint16_t i;
	int rc = comch_producer_burst_ready(p, msgs, nb);

	if (rc <= 0)
		return rc;
	if (unlikely(mmap != NULL)) {
		COMCH_LOG(ERR, "producer %u: a %s carries immediate data only: no mmap", p->id,
			  p->link->ops->kind);
		return -EINVAL;
	}
	for (i = 0; i < nb && msgs[i].len == 0; i++)
		;
	if (unlikely(i == 0)) {
		COMCH_LOG(ERR, "producer %u: a message of %u bytes of data: a %s carries "
			  "immediate data only", p->id, msgs[0].len, p->link->ops->kind);
		return -EMSGSIZE;
	}
	return comch_producer_burst_send(p, consumer_id, NULL, msgs, i);
}

/* What the inline calls reach while the producer is not in burst mode. */
static int
comch_producer_send_not_burst(void *obj, uint32_t consumer_id, const struct rte_comch_mmap *mmap,
			      const struct rte_comch_fp_msg *msgs, uint16_t nb)
{
	COMCH_LOG(ERR, "producer %u: not in burst mode (rte_comch_producer_burst_enable())",
		  ((struct rte_comch_producer *)obj)->id);
	return -EBUSY;
}

int
rte_comch_producer_burst_enable(struct rte_comch_producer *producer)
{
	int rc;

	if (COMCH_BAD_PRODUCER(producer))
		return -EINVAL;
	if (producer->api == COMCH_FAST_API_NONE) {
		COMCH_LOG(ERR, "producer %u: a DPA program sends on it, not the CPU", producer->id);
		return -ENOTSUP;
	}
	rc = comch_ctx_check_idle(&producer->ctx, "producer burst_enable");
	if (rc == 0)
		rc = comch_fast_tasks_release(&producer->tasks, "producer burst_enable");
	if (rc < 0)
		return rc;
	producer->api = COMCH_FAST_API_BURST;
	producer->burst_done = 0;
	producer->ok_cb = NULL;
	producer->err_cb = NULL;
	producer->pub.send_burst = producer->link->ops->buffers ? comch_producer_send_burst :
				   comch_producer_send_burst_imm;
	return 0;
}

/*
 * A producer on a link (a connection's, or a MsgQ's under its lock), with id
 * the smallest free one below max.
 */
struct rte_comch_producer *
comch_producer_create(struct comch_link *link, uint32_t max, enum comch_fast_api api)
{
	const struct rte_comch_drv_producer_ops *ops = link->dev->ops->producer;
	struct rte_comch_producer *p;
	uint32_t id = 0, count = 0;
	int rc;

	if ((link->dev->info.capa & RTE_COMCH_CAPA_PRODUCER) == 0 || ops == NULL) {
		COMCH_LOG(ERR, "device %s has no fast-path producers", link->dev->info.name);
		rte_errno = ENOTSUP;
		return NULL;
	}
	id = COMCH_FAST_FREE_ID(&link->producers, rte_comch_producer, &count);
	rc = comch_fast_attach(link, count, max, "producer_create");
	if (rc < 0) {
		rte_errno = -rc;
		return NULL;
	}
	p = comch_zalloc_lines(1, sizeof(*p));
	rc = p == NULL ? -ENOMEM : comch_grace_attach(link, max);
	if (rc < 0) {
		free(p);
		comch_fast_detach(link);
		rte_errno = -rc;
		return NULL;
	}
	comch_ctx_init(&p->ctx, &comch_producer_ops, COMCH_CTX_PRODUCER, link->dev);
	p->pub.send_burst = comch_producer_send_not_burst;
	p->pub.completed_burst = comch_producer_completed_burst;
	p->pub.obj = p;
	p->link = link;
	p->id = id;
	p->api = api;
	p->tasks.nb = RTE_MIN((uint32_t)RTE_COMCH_DEFAULT_SEND_TASKS,
			      link->dev->info.max_fast_tasks);
	rc = comch_grace_register(p);
	if (rc == 0 && ops->create != NULL) {
		rc = ops->create(link->drv, id, &p->drv);
		if (rc < 0)
			comch_grace_unregister(p);
	}
	if (rc < 0) {
		free(p);
		comch_fast_detach(link);
		rte_errno = -rc;
		return NULL;
	}
	TAILQ_INSERT_TAIL(&link->producers, p, next);
	comch_ctx_publish(&p->ctx);
	return p;
}

struct rte_comch_producer *
rte_comch_producer_create(struct rte_comch_connection *conn)
{
	struct rte_comch_producer *p;
	bool borrowed;
	int err;

	if (COMCH_BAD_CONN(conn)) {
		rte_errno = EINVAL;
		return NULL;
	}
	/* From any thread: the connection's engine, meanwhile, is this call's. */
	borrowed = comch_pe_borrow(conn->ctrl->ctx.pe);
	p = comch_producer_create(&conn->link, conn->link.dev->info.max_producers,
				  COMCH_FAST_API_TASKS);
	err = rte_errno;
	if (borrowed)
		comch_pe_leave_slow(conn->ctrl->ctx.pe);
	rte_errno = err;
	return p;
}

static void
comch_producer_drv_release(struct rte_comch_ctx *ctx)
{
	struct rte_comch_producer *p = comch_producer_of(ctx);

	if (ctx->dev->ops->producer->destroy != NULL && p->drv != NULL)
		ctx->dev->ops->producer->destroy(p->drv);
	p->drv = NULL;
}

static int
comch_producer_destroy(void *obj)
{
	struct rte_comch_producer *producer = obj;
	int rc;

	rc = comch_fast_destroy(&producer->ctx, &producer->tasks, "producer destroy",
				comch_producer_drv_release);
	if (rc < 0)
		return rc;
	comch_grace_unregister(producer);
	comch_link_lock(producer->link);
	TAILQ_REMOVE(&producer->link->producers, producer, next);
	/* An ended connection's remotes wait for its last producer to go. */
	if (TAILQ_EMPTY(&producer->link->producers) && comch_link_dead(producer->link))
		comch_link_release_remotes(producer->link);
	/* (A connection may be freed here: a MsgQ's link, never.) */
	comch_fast_detach_unlock(producer->link);
	comch_ctx_retire(&producer->ctx, producer);
	return 0;
}

int
rte_comch_producer_destroy(struct rte_comch_producer *producer)
{
	if (COMCH_BAD_PRODUCER(producer))
		return -EINVAL;
	return comch_fast_conn_destroy(producer->link, comch_producer_destroy, producer);
}

struct rte_comch_ctx *
rte_comch_producer_as_ctx(struct rte_comch_producer *producer)
{
	if (COMCH_BAD_PRODUCER_FAST(producer)) {
		rte_errno = EINVAL;
		return NULL;
	}
	return &producer->ctx;
}

int
rte_comch_producer_get_id(const struct rte_comch_producer *producer, uint32_t *id)
{
	if (COMCH_BAD_PRODUCER_FAST(producer) || COMCH_NULL_ARG(id))
		return -EINVAL;
	*id = producer->id;
	return 0;
}

int
rte_comch_producer_task_send_set_conf(struct rte_comch_producer *producer,
				      rte_comch_producer_task_send_cb_t completion_cb,
				      rte_comch_producer_task_send_cb_t error_cb, uint32_t num_tasks)
{
	int rc;

	if (COMCH_BAD_PRODUCER(producer))
		return -EINVAL;
	rc = comch_fast_set_conf(&producer->ctx, &producer->tasks,
				 completion_cb != NULL && error_cb != NULL, num_tasks,
				 "producer task_send_set_conf");
	if (rc < 0)
		return rc;
	/* Back from the burst API; a producer the CPU does not send on stays so. */
	if (producer->api == COMCH_FAST_API_BURST)
		producer->api = COMCH_FAST_API_TASKS;
	producer->pub.send_burst = comch_producer_send_not_burst;
	producer->ok_cb = completion_cb;
	producer->err_cb = error_cb;
	return 0;
}

/* Checks of what a send carries; shared by alloc_init and the setters. */
static inline int
comch_producer_check_payload(const struct rte_comch_producer *p, const struct rte_comch_buf *buf,
			     const uint8_t *imm, uint32_t imm_len)
{
	const struct rte_comch_dev *dev = p->ctx.dev;

	if (buf != NULL && !p->link->ops->buffers) {
		COMCH_LOG(ERR, "producer %u: a %s carries immediate data only: no buffer", p->id,
			  p->link->ops->kind);
		return -EINVAL;
	}
	if (imm == NULL && imm_len > 0) {
		COMCH_LOG(ERR, "immediate data is NULL with a length of %u", imm_len);
		return -EINVAL;
	}
	if (imm_len > dev->info.max_imm_data_len) {
		COMCH_LOG(ERR, "immediate data of %u bytes is above the device's %u",
			  imm_len, dev->info.max_imm_data_len);
		return -EMSGSIZE;
	}
	if (buf != NULL && buf->data_len > dev->info.max_buf_size) {
		COMCH_LOG(ERR, "message of %zu bytes is above the device's %" PRIu64,
			  buf->data_len, dev->info.max_buf_size);
		return -EMSGSIZE;
	}
	return 0;
}

int
rte_comch_producer_task_send_alloc_init(struct rte_comch_producer *producer,
					struct rte_comch_buf *buf, const uint8_t *imm_data,
					uint32_t imm_len, uint32_t consumer_id,
					struct rte_comch_producer_task_send **task)
{
	struct rte_comch_producer_task_send *t;
	int rc;

	if (COMCH_BAD_PRODUCER_FAST(producer))
		return -EINVAL;
	if (unlikely(task == NULL)) {
		COMCH_LOG(ERR, "task is NULL");
		return -EINVAL;
	}
	if (unlikely(producer->api != COMCH_FAST_API_TASKS)) {
		COMCH_LOG(ERR, "producer %u makes no send tasks: %s", producer->id,
			  producer->api == COMCH_FAST_API_BURST ? "it is in burst mode" :
			  "the CPU does not send on it");
		return -ENOTSUP;
	}
	rc = comch_producer_check_payload(producer, buf, imm_data, imm_len);
	if (unlikely(rc < 0))
		return rc;
	if (unlikely(producer->ctx.state != RTE_COMCH_CTX_STATE_RUNNING)) {
		COMCH_LOG(ERR, "producer %u: not running", producer->id);
		return -EBUSY;
	}
	if (unlikely(comch_task_get(producer->tasks.pool, (void **)&t) < 0))
		return -ENOMEM;
	t->base.ctx = &producer->ctx;
	t->base.user_data.u64 = 0;
	t->base.status = 0;
	t->base.type = COMCH_TASK_PRODUCER_SEND;
	t->base.allocated = true;
	t->buf = buf;
	t->consumer_id = consumer_id;
	t->msg.imm_len = imm_len;
	if (imm_len > 0)
		rte_memcpy(t->msg.imm, imm_data, imm_len);
	*task = t;
	return 0;
}

struct rte_comch_task *
rte_comch_producer_task_send_as_task(struct rte_comch_producer_task_send *task)
{
	if (COMCH_NULL_ARG(task)) {
		rte_errno = EINVAL;
		return NULL;
	}
	return &task->base;
}

struct rte_comch_buf *
rte_comch_producer_task_send_get_buf(const struct rte_comch_producer_task_send *task)
{
	if (COMCH_NULL_ARG(task)) {
		rte_errno = EINVAL;
		return NULL;
	}
	return task->buf;
}

/* Setters refuse a NULL task or one in flight. */
static int
comch_producer_task_check_idle(const struct rte_comch_producer_task_send *task)
{
	if (COMCH_NULL_ARG(task))
		return -EINVAL;
	if (task->base.status == -EINPROGRESS) {
		COMCH_LOG(ERR, "task %p is in flight", (const void *)task);
		return -EBUSY;
	}
	return 0;
}

int
rte_comch_producer_task_send_set_buf(struct rte_comch_producer_task_send *task,
				     struct rte_comch_buf *buf)
{
	int rc = comch_producer_task_check_idle(task);

	if (rc == 0)
		rc = comch_producer_check_payload(comch_producer_of(task->base.ctx), buf, NULL, 0);
	if (rc == 0)
		task->buf = buf;
	return rc;
}

const uint8_t *
rte_comch_producer_task_send_get_imm_data(const struct rte_comch_producer_task_send *task,
					  uint32_t *len)
{
	if (COMCH_NULL_ARG(task)) {
		rte_errno = EINVAL;
		return NULL;
	}
	if (len != NULL)
		*len = task->msg.imm_len;
	return task->msg.imm;
}

int
rte_comch_producer_task_send_set_imm_data(struct rte_comch_producer_task_send *task,
					  const uint8_t *imm_data, uint32_t len)
{
	int rc = comch_producer_task_check_idle(task);

	if (rc == 0)
		rc = comch_producer_check_payload(comch_producer_of(task->base.ctx), NULL, imm_data,
						  len);
	if (rc < 0)
		return rc;
	if (len > 0)
		rte_memcpy(task->msg.imm, imm_data, len);
	task->msg.imm_len = len;
	return 0;
}

int
rte_comch_producer_task_send_get_consumer_id(const struct rte_comch_producer_task_send *task,
					     uint32_t *consumer_id)
{
	if (COMCH_NULL_ARG(task, consumer_id))
		return -EINVAL;
	*consumer_id = task->consumer_id;
	return 0;
}

int
rte_comch_producer_task_send_set_consumer_id(struct rte_comch_producer_task_send *task,
					     uint32_t consumer_id)
{
	int rc = comch_producer_task_check_idle(task);

	if (rc == 0)
		task->consumer_id = consumer_id;
	return rc;
}
