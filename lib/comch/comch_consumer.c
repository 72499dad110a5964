/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Consumer: posts buffers of its mmap for producers on the other side to fill.
 * On a connection, starting and stopping need the peer (told by the
 * connection's engine): a consumer is RUNNING once advertised, and IDLE again
 * once the peer confirmed it will not write into its buffers any more, or once
 * it waited COMCH_EXPIRE_TIMEOUT_MS for that confirmation. In the latter case
 * it is quarantined: its id stays taken (and, once it is destroyed, its mmap
 * held) until the peer confirms or the connection ends, so that a slow peer
 * costs neither the connection nor a consumer id it still knows. On a MsgQ,
 * its start imports it at once, and its stop ends a grace period of the
 * MsgQ's producers later (comch_msgq.c).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_memcpy.h>
#include <rte_mempool.h>

#include "comch_private.h"

#define COMCH_CONSUMER_BURST 32
/*
 * A stop waits this long for the peer's confirmation of the expiry, then
 * completes without it; the consumer stays quarantined until it comes.
 */
#define COMCH_EXPIRE_TIMEOUT_MS 1000
/*
 * A start waits this long for the peer's answer to the announcement (its
 * import, and the driver's second half of the set-up), then stops: a peer
 * that never answers costs a consumer the time of a start and a stop. Long
 * enough for a live peer whose engine is busy elsewhere for a while (a
 * stream of large messages, a sanitizer build on a loaded machine): one
 * second was seen to expire on such a peer.
 */
#define COMCH_START_TIMEOUT_MS 5000

static struct rte_comch_consumer *
comch_consumer_of(struct rte_comch_ctx *ctx)
{
	return container_of(ctx, struct rte_comch_consumer, ctx);
}

static int
comch_consumer_start(struct rte_comch_ctx *ctx)
{
	struct rte_comch_consumer *c = comch_consumer_of(ctx);
	const struct rte_comch_drv_consumer_ops *ops = ctx->dev->ops->consumer;
	int rc;

	/*
	 * The peer may still hold the last run's receive state under this id:
	 * announcing the id again before it confirms would break the protocol.
	 */
	if (c->quarantined && comch_load_acquire(&c->expired) == 0 &&
	    !comch_link_dead(c->link)) {
		COMCH_LOG(ERR, "consumer %u: the peer has not confirmed its last stop yet: start "
			  "it again once it has", c->id);
		ctx->last_error = -ETIMEDOUT; /* still what the last stop ended with */
		return -EBUSY;
	}
	c->quarantined = false;
	/* Tasks only if the CPU posts with them; the other ways need no configuration. */
	rc = comch_fast_start(ctx, &c->tasks, sizeof(struct rte_comch_consumer_task_post_recv),
			      c->ok_cb != NULL || c->api != COMCH_FAST_API_TASKS,
			      c->api == COMCH_FAST_API_TASKS, c->link, "consumer");
	if (rc < 0)
		return rc;
	/* The hot path's driver calls, in the consumer itself. */
	c->fp.post = ops->post;
	c->fp.poll = ops->poll;
	c->fp.flush = ops->flush;
	c->fp.priv = c->drv;
	c->nb_posted = 0;
	c->flushing = false;
	if (c->api != COMCH_FAST_API_BURST)
		c->max_posts = c->tasks.nb;
	comch_store_relaxed(&c->reg, 0);
	comch_store_relaxed(&c->expired, 0);
	c->expire_asked = false;
	rc = comch_link_request(c, false);
	if (rc < 0) {
		COMCH_LOG(ERR, "consumer %u: cannot start: %s", c->id, strerror(-rc));
		return rc;
	}
	/* No peer to answer (a MsgQ's): the other side has it already. */
	if (!c->link->ops->peer) {
		comch_ctx_set_state(ctx, RTE_COMCH_CTX_STATE_RUNNING);
		return 0;
	}
	c->start_deadline = rte_get_tsc_cycles() + comch_ms_to_tsc(COMCH_START_TIMEOUT_MS);
	comch_ctx_set_state(ctx, RTE_COMCH_CTX_STATE_STARTING);
	return -EINPROGRESS;
}

static int
comch_consumer_stop(struct rte_comch_ctx *ctx)
{
	comch_ctx_set_state(ctx, RTE_COMCH_CTX_STATE_STOPPING);
	return -EINPROGRESS; /* the peer must confirm; progress does the rest */
}

/* A posted task is back: its callback, with what it got or why not. */
static inline void
comch_consumer_task_done(struct rte_comch_consumer *c, const struct rte_comch_fp_cpl *cpl)
{
	struct rte_comch_consumer_task_post_recv *t = (void *)(uintptr_t)cpl->cookie;

	t->base.status = cpl->status;
	c->ctx.nb_inflight--;
	comch_pe_add_inflight(c->ctx.pe, -1);
	/* Freed in flight: its buffer may be gone too, so nothing of it is touched. */
	if (comch_task_done_freed(&t->base))
		return;
	if (cpl->status == 0) {
		/* Appended at the tail of what the buffer held (see comch_consumer_buf_tail()). */
		if (t->buf != NULL)
			t->buf->data_len += cpl->len;
		/* All of it, whatever imm_len: a fixed-size copy inlines. */
		rte_mov32(t->imm, cpl->imm);
		t->imm_len = cpl->imm_len;
		t->producer_id = cpl->producer_id;
	}
	comch_pe_enter_cb(c->ctx.pe);
	(cpl->status == 0 ? c->ok_cb : c->err_cb)(t, t->base.user_data, c->ctx.user_data);
	comch_pe_leave_cb(c->ctx.pe);
}

/* The queued posts (some) to the driver, all or none: 0, or its -errno (still queued). */
static int
comch_consumer_post_queued(struct rte_comch_consumer *c)
{
	int rc;

	rc = c->fp.post(c->fp.priv, c->queued, c->nb_queued);
	if (likely(rc == 0))
		c->nb_queued = 0;
	return rc;
}

/*
 * A round of callbacks is over: what they posted goes to the driver now, in
 * one call. If the driver has no room yet (-EAGAIN), the posts wait for the
 * next round; if it refuses them for good, their tasks come back through the
 * error callback with its error, as a submit would have returned it. Not
 * once the consumer stops: a stop returns what is posted anyway, and what is
 * queued comes back with the driver's flush (comch_consumer_take()).
 */
static void
comch_consumer_round_end(struct rte_comch_consumer *c)
{
	struct rte_comch_fp_cpl cpl[COMCH_CONSUMER_QUEUE];
	uint32_t i, n = c->nb_queued;
	int rc;

	if (c->ctx.state != RTE_COMCH_CTX_STATE_RUNNING || c->flushing)
		return;
	rc = comch_consumer_post_queued(c);
	if (likely(rc == 0) || rc == -EAGAIN)
		return;
	COMCH_LOG(ERR, "consumer %u: the driver refused %u buffers posted from callbacks: %s",
		  c->id, n, strerror(-rc));
	/* Taken out first: their callbacks may submit again. */
	for (i = 0; i < n; i++)
		cpl[i] = (struct rte_comch_fp_cpl){ .cookie = c->queued[i].cookie, .status = rc };
	c->nb_queued = 0;
	c->nb_posted -= n;
	for (i = 0; i < n; i++)
		comch_consumer_task_done(c, &cpl[i]);
}

/*
 * One post-recv task's post. Inside a round of this consumer's callbacks, or
 * behind posts still queued, it joins the queue (which goes to the driver
 * first if full); otherwise straight to the driver. 0, or the driver's -errno.
 */
static inline int
comch_consumer_post_one(struct rte_comch_consumer *c, const struct rte_comch_fp_post *post)
{
	int rc;

	if (likely(!c->in_round && c->nb_queued == 0))
		return c->fp.post(c->fp.priv, post, 1);
	if (c->nb_queued == RTE_DIM(c->queued)) {
		rc = comch_consumer_post_queued(c);
		if (rc < 0)
			return rc;
	}
	c->queued[c->nb_queued++] = *post;
	return 0;
}

/* Flushing: posts that never reached the driver come back last, as they were made last. */
static unsigned int
comch_consumer_unqueue(struct rte_comch_consumer *c, struct rte_comch_fp_cpl *cpl,
		       unsigned int max)
{
	unsigned int i, n = RTE_MIN(max, c->nb_queued);

	for (i = 0; i < n; i++)
		cpl[i] = (struct rte_comch_fp_cpl){ .cookie = c->queued[i].cookie };
	c->nb_queued -= n;
	memmove(c->queued, c->queued + n, c->nb_queued * sizeof(c->queued[0]));
	return n;
}

/*
 * The peer writes no more (it confirmed the expiry, or the connection
 * ended): what is still posted comes back with status, after what was filled.
 */
static void
comch_consumer_start_flush(struct rte_comch_consumer *c, int status)
{
	c->flushing = true;
	c->flush_status = status;
}

/*
 * Completions from the driver, into cpl: filled buffers, then, once flushing,
 * those that come back unfilled. A peer that corrupted what it wrote is
 * dropped, and what was posted comes back with -ECONNRESET.
 */
static __rte_always_inline int
comch_consumer_take(struct rte_comch_consumer *c, struct rte_comch_fp_cpl *cpl,
		    unsigned int max)
{
	int i, n;

	max = RTE_MIN(max, c->nb_posted);
	if (max == 0)
		return 0;
	n = c->fp.poll(c->fp.priv, cpl, max);
	if (unlikely(n < 0)) {
		COMCH_LOG(ERR, "consumer %u: the peer corrupted what it wrote: dropping it", c->id);
		comch_link_abort(c->link, -EPROTO);
		c->ctx.last_error = -EPROTO;
		comch_consumer_start_flush(c, -ECONNRESET);
		n = 0;
	}
	if (n == 0 && unlikely(c->flushing)) {
		n = c->fp.flush(c->fp.priv, cpl, max);
		if (n == 0)
			n = comch_consumer_unqueue(c, cpl, max);
		for (i = 0; i < n; i++)
			cpl[i].status = c->flush_status;
	}
	c->nb_posted -= n;
	return n;
}

/* Task mode: completions to callbacks. Inline: every round of a running consumer. */
static __rte_always_inline int
comch_consumer_poll_tasks(struct rte_comch_consumer *c)
{
	struct rte_comch_fp_cpl cpl[COMCH_CONSUMER_BURST];
	int i, n = comch_consumer_take(c, cpl, RTE_DIM(cpl));

	/* What the callbacks post again goes to the driver together, after them. */
	c->in_round = true;
	for (i = 0; i < n; i++)
		comch_consumer_task_done(c, &cpl[i]);
	c->in_round = false;
	if (c->nb_queued != 0)
		comch_consumer_round_end(c);
	return n;
}

/* Back to IDLE once the last posted buffer came back from a flush. */
static int
comch_consumer_flushed(struct rte_comch_consumer *c)
{
	if (c->api == COMCH_FAST_API_TASKS)
		while (comch_consumer_poll_tasks(c) > 0)
			;
	if (c->nb_posted != 0)
		return 0; /* the application takes them with recv_burst */
	if (c->ctx.state == RTE_COMCH_CTX_STATE_RUNNING)
		comch_ctx_set_state(&c->ctx, RTE_COMCH_CTX_STATE_STOPPING);
	comch_ctx_set_state(&c->ctx, RTE_COMCH_CTX_STATE_IDLE);
	return 1;
}

/*
 * The peer did not confirm the expiry in time (slow, hung or hostile): the
 * stop completes without it, and the connection stays. What the peer finished
 * writing is delivered, the rest comes back with -ECONNABORTED, after the
 * driver's flush has kept the peer's later writes out of those buffers as far
 * as its transport can. The id stays taken until the confirmation comes or the
 * connection ends (quarantined; a destroy keeps the mmap held until then too):
 * the peer may still have the id imported, so it is neither announced again
 * nor given to another consumer.
 */
static int
comch_consumer_quarantine(struct rte_comch_consumer *c)
{
	COMCH_LOG(WARNING, "consumer %u: the peer did not confirm its expiry within %u ms: "
		  "stopping without it; the id stays taken until it does", c->id,
		  COMCH_EXPIRE_TIMEOUT_MS);
	c->quarantined = true;
	c->ctx.last_error = -ETIMEDOUT;
	comch_consumer_start_flush(c, -ECONNABORTED);
	return comch_consumer_flushed(c) | 1;
}

static int
comch_consumer_progress(struct rte_comch_ctx *ctx, bool slow, uint64_t now)
{
	struct rte_comch_consumer *c = comch_consumer_of(ctx);
	int reg;

	switch (ctx->state) {
	case RTE_COMCH_CTX_STATE_STARTING:
		reg = comch_load_acquire(&c->reg);
		if (reg == 1) {
			comch_ctx_set_state(ctx, RTE_COMCH_CTX_STATE_RUNNING);
			return 1;
		}
		if (reg < 0 || comch_link_dead(c->link)) {
			c->ctx.last_error = reg < 0 ? reg : -ECONNRESET;
			comch_ctx_set_state(ctx, RTE_COMCH_CTX_STATE_IDLE);
			return 1;
		}
		if (now > c->start_deadline) {
			/* Withdrawn as a stop withdraws it: the peer may still answer. */
			COMCH_LOG(WARNING, "consumer %u: the peer did not answer its start within "
				  "%u ms: stopping it", c->id, COMCH_START_TIMEOUT_MS);
			c->ctx.last_error = -ETIMEDOUT;
			comch_ctx_set_state(ctx, RTE_COMCH_CTX_STATE_STOPPING);
			return 1;
		}
		return 0;
	case RTE_COMCH_CTX_STATE_RUNNING:
		/*
		 * The common round: a poll of posted tasks, or nothing (the burst
		 * API's). A program's consumer, or one with no task posted yet,
		 * has nothing to look at until a post or the slow tick.
		 */
		if (likely(!c->flushing && !comch_link_dead(c->link))) {
			if (c->api == COMCH_FAST_API_TASKS && c->nb_posted != 0)
				return comch_consumer_poll_tasks(c) > 0;
			if (c->api != COMCH_FAST_API_BURST)
				ctx->quiet = true;
			return 0;
		}
		if (!c->flushing) {
			/* The link died: what the peer finished is still ours, then the rest. */
			c->ctx.last_error = -ECONNRESET;
			comch_consumer_start_flush(c, -ECONNRESET);
		}
		return comch_consumer_flushed(c);
	case RTE_COMCH_CTX_STATE_STOPPING:
		if (c->flushing)
			return comch_consumer_flushed(c);
		if (!c->expire_asked && !comch_link_dead(c->link)) {
			c->expire_asked = comch_link_request(c, true) == 0;
			c->expire_deadline = now + comch_ms_to_tsc(COMCH_EXPIRE_TIMEOUT_MS);
		}
		/* No peer (a MsgQ's): the producers' grace period says when. */
		if (c->expire_asked && c->link->ops->expire_poll != NULL)
			c->link->ops->expire_poll(c);
		if (comch_load_acquire(&c->expired) == 0 && !comch_link_dead(c->link)) {
			if (c->link->ops->peer && c->expire_asked && now > c->expire_deadline)
				return comch_consumer_quarantine(c);
			return c->api == COMCH_FAST_API_TASKS && comch_consumer_poll_tasks(c) > 0;
		}
		/* The peer will not write again: take what it wrote, return the rest. */
		comch_consumer_start_flush(c, comch_link_dead(c->link) ? -ECONNRESET :
					   -ECONNABORTED);
		return comch_consumer_flushed(c) | 1;
	default:
		return 0;
	}
}

static int
comch_consumer_arm(struct rte_comch_ctx *ctx)
{
	struct rte_comch_consumer *c = comch_consumer_of(ctx);
	const struct rte_comch_drv_consumer_ops *ops = ctx->dev->ops->consumer;

	/*
	 * Starting and stopping run on timers and on the connection's engine; a
	 * dead connection's end is for our next progress to report.
	 */
	if (ctx->state != RTE_COMCH_CTX_STATE_RUNNING || comch_link_dead(c->link) ||
	    c->flushing)
		return -EAGAIN;
	if (c->nb_posted == 0)
		return 0;
	/* Posts the driver had no room for yet: the next round tries again. */
	if (c->nb_queued != 0)
		return -EAGAIN;
	/* Buffers posted: sleep only if the driver can have producers wake us. */
	return ops->arm != NULL ? ops->arm(c->drv) : -EAGAIN;
}

static void
comch_consumer_disarm(struct rte_comch_ctx *ctx)
{
	struct rte_comch_consumer *c = comch_consumer_of(ctx);
	const struct rte_comch_drv_consumer_ops *ops = ctx->dev->ops->consumer;

	/*
	 * Only a consumer that was RUNNING can have been armed. A STARTING one's
	 * receive state is being (re)made on the connection's lcore: hands off.
	 */
	if (ctx->state != RTE_COMCH_CTX_STATE_RUNNING &&
	    ctx->state != RTE_COMCH_CTX_STATE_STOPPING)
		return;
	if (ops->disarm != NULL)
		ops->disarm(c->drv);
}

static const struct comch_ctx_ops comch_consumer_ops = {
	.start = comch_consumer_start,
	.stop = comch_consumer_stop,
	.progress = comch_consumer_progress,
	.arm = comch_consumer_arm,
	.disarm = comch_consumer_disarm,
};

/* Whether a buffer to post lies in the consumer's mmap, without overflowing. */
static inline bool
comch_consumer_post_ok(const struct rte_comch_consumer *c, const struct rte_comch_fp_post *p)
{
	uintptr_t lo, a = (uintptr_t)p->addr;

	if (p->addr == NULL)
		return p->len == 0;
	/* A MsgQ's consumer has no mmap: immediate data only. */
	if (c->mmap == NULL)
		return false;
	lo = (uintptr_t)c->mmap->addr;
	return a >= lo && a - lo <= c->mmap->len && p->len <= c->mmap->len - (a - lo);
}

/*
 * Where a post-recv task's buffer receives: as DOCA describes it, a message is
 * appended at the tail of the buffer's data (data + data_len), into the room
 * left from there to the end of its piece (head + len). A buffer with no data
 * in use receives at its data pointer (its head, unless set_data moved it).
 * The buffer's fields are the application's: -EINVAL (logged) if they do not
 * describe data inside the piece, and the piece inside the consumer's mmap.
 */
static inline int
comch_consumer_buf_tail(const struct rte_comch_consumer *c, const struct rte_comch_buf *buf,
			struct rte_comch_fp_post *post)
{
	uintptr_t head = (uintptr_t)buf->head, data = (uintptr_t)buf->data;

	if (unlikely(buf->head == NULL || data < head || data - head > buf->len ||
		     buf->data_len > buf->len - (data - head))) {
		COMCH_LOG(ERR, "consumer %u: the buffer's data %p+%zu is not inside its piece "
			  "%p+%zu", c->id, buf->data, buf->data_len, buf->head, buf->len);
		return -EINVAL;
	}
	post->addr = (uint8_t *)buf->data + buf->data_len;
	post->len = buf->len - (data - head) - buf->data_len;
	if (unlikely(!comch_consumer_post_ok(c, post))) {
		COMCH_LOG(ERR, "consumer %u: the buffer %p+%zu is not in the consumer's mmap",
			  c->id, buf->head, buf->len);
		return -EINVAL;
	}
	return 0;
}

int
comch_consumer_submit(struct rte_comch_consumer_task_post_recv *t)
{
	struct rte_comch_consumer *c = comch_consumer_of(t->base.ctx);
	const struct rte_comch_buf *buf = t->buf;
	struct rte_comch_fp_post post = { .addr = NULL, .len = 0 };
	int rc;

	rc = comch_fast_submit_check(&c->ctx, c->link, c->id, "consumer");
	if (unlikely(rc < 0))
		return rc;
	if (unlikely(c->nb_posted >= c->max_posts || c->flushing)) {
		COMCH_LOG(ERR, "consumer %u: %u buffers are posted already", c->id, c->max_posts);
		return -ENOSPC;
	}
	if (buf != NULL) {
		rc = comch_consumer_buf_tail(c, buf, &post);
		if (unlikely(rc < 0))
			return rc;
	}
	post.cookie = (uintptr_t)t;
	rc = comch_consumer_post_one(c, &post);
	if (unlikely(rc < 0))
		return rc;
	c->nb_posted++;
	c->ctx.quiet = false;
	t->base.status = -EINPROGRESS;
	t->imm_len = 0;
	c->ctx.nb_inflight++;
	comch_pe_add_inflight(c->ctx.pe, 1);
	return 0;
}

/* ------------------------------------------------------------------ burst API */

static int
comch_consumer_post_burst(void *obj, const struct rte_comch_fp_post *posts, uint16_t nb)
{
	struct rte_comch_consumer *c = obj;
	unsigned int i, n;
	int rc;

	if (unlikely(c->ctx.state != RTE_COMCH_CTX_STATE_RUNNING || c->flushing)) {
		COMCH_LOG(ERR, "consumer %u: not running", c->id);
		return -EBUSY;
	}
	if (unlikely(comch_link_dead(c->link)))
		return -ENOTCONN;
	if (unlikely(posts == NULL))
		return nb == 0 ? 0 : -EINVAL;
	n = RTE_MIN((unsigned int)nb, c->max_posts - c->nb_posted);
	for (i = 0; i < n && comch_consumer_post_ok(c, &posts[i]); i++)
		;
	if (unlikely(i < n)) {
		COMCH_LOG(ERR, "consumer %u: buffer %p+%" PRIu64 " is not in the consumer's %s",
			  c->id, posts[i].addr, posts[i].len,
			  c->mmap != NULL ? "mmap" : "MsgQ: it takes immediate data only");
		if (i == 0)
			return -EINVAL;
		n = i;
	}
	if (n == 0)
		return 0;
	rc = c->fp.post(c->fp.priv, posts, n);
	if (unlikely(rc < 0))
		return rc;
	c->nb_posted += n;
	return n;
}

static int
comch_consumer_recv_burst(void *obj, struct rte_comch_fp_cpl *cpl, uint16_t max)
{
	struct rte_comch_consumer *c = obj;

	if (unlikely(c->ctx.state == RTE_COMCH_CTX_STATE_IDLE ||
		     c->ctx.state == RTE_COMCH_CTX_STATE_STARTING))
		return c->ctx.state == RTE_COMCH_CTX_STATE_IDLE ? -EBUSY : 0;
	if (unlikely(cpl == NULL))
		return max == 0 ? 0 : -EINVAL;
	return comch_consumer_take(c, cpl, max);
}

/* What the inline calls reach while the consumer is not in burst mode. */
static int
comch_consumer_post_not_burst(void *obj, const struct rte_comch_fp_post *posts, uint16_t nb)
{
	COMCH_LOG(ERR, "consumer %u: not in burst mode (rte_comch_consumer_burst_enable())",
		  ((struct rte_comch_consumer *)obj)->id);
	return -EBUSY;
}

static int
comch_consumer_recv_not_burst(void *obj, struct rte_comch_fp_cpl *cpl, uint16_t max)
{
	return comch_consumer_post_not_burst(obj, NULL, 0);
}

/* The consumer's inline calls: the burst API's, or those that say it is not on. */
static void
comch_consumer_set_api(struct rte_comch_consumer *c, enum comch_fast_api api)
{
	bool burst = api == COMCH_FAST_API_BURST;

	c->api = api;
	c->pub.post_burst = burst ? comch_consumer_post_burst : comch_consumer_post_not_burst;
	c->pub.recv_burst = burst ? comch_consumer_recv_burst : comch_consumer_recv_not_burst;
	c->pub.obj = c;
}

int
rte_comch_consumer_burst_enable(struct rte_comch_consumer *consumer, uint32_t max_posts)
{
	int rc;

	if (COMCH_BAD_CONSUMER(consumer))
		return -EINVAL;
	if (consumer->api == COMCH_FAST_API_NONE) {
		COMCH_LOG(ERR, "consumer %u: a DPA program receives on it, not the CPU",
			  consumer->id);
		return -ENOTSUP;
	}
	rc = comch_ctx_check_idle(&consumer->ctx, "consumer burst_enable");
	if (rc < 0)
		return rc;
	if (max_posts == 0 || max_posts > consumer->ctx.dev->info.max_fast_tasks) {
		COMCH_LOG(ERR, "consumer %u: max_posts %u is not in 1..%u", consumer->id,
			  max_posts, consumer->ctx.dev->info.max_fast_tasks);
		return -EINVAL;
	}
	rc = comch_fast_tasks_release(&consumer->tasks, "consumer burst_enable");
	if (rc < 0)
		return rc;
	comch_consumer_set_api(consumer, COMCH_FAST_API_BURST);
	consumer->max_posts = max_posts;
	consumer->tasks.nb = max_posts; /* what the driver is told at start */
	consumer->ok_cb = NULL;
	consumer->err_cb = NULL;
	return 0;
}

/*
 * A consumer on a link (a connection's, or a MsgQ's under its lock) with id the
 * smallest free one below max; mmap NULL for a MsgQ's (immediate data only).
 */
struct rte_comch_consumer *
comch_consumer_create(struct comch_link *link, struct rte_comch_mmap *mmap, uint32_t max,
		      enum comch_fast_api api)
{
	struct rte_comch_dev *dev = link->dev;
	const struct rte_comch_drv_consumer_ops *ops = dev->ops->consumer;
	struct rte_comch_drv_consumer_conf conf = { .reg = NULL };
	struct rte_comch_consumer *c;
	uint32_t id = 0, count = 0;
	int rc;

	if ((dev->info.capa & RTE_COMCH_CAPA_CONSUMER) == 0 || ops == NULL) {
		COMCH_LOG(ERR, "device %s has no fast-path consumers", dev->info.name);
		rte_errno = ENOTSUP;
		return NULL;
	}
	if (mmap != NULL) {
		if ((mmap->perms & RTE_COMCH_MMAP_PERM_PCI_READ_WRITE) == 0 ||
		    comch_mmap_hold(mmap) < 0) {
			COMCH_LOG(ERR, "consumer_create: the mmap must be started, with "
				  "PCI_READ_WRITE");
			rte_errno = EPERM;
			return NULL;
		}
		conf.reg = comch_mmap_reg(mmap, dev);
		if (conf.reg == NULL) {
			COMCH_LOG(ERR, "consumer_create: the mmap is not registered with device "
				  "%s: add it with rte_comch_mmap_add_dev() before starting the "
				  "mmap", dev->info.name);
			comch_mmap_release(mmap);
			rte_errno = EINVAL;
			return NULL;
		}
		conf.mem_addr = mmap->addr;
		conf.mem_len = mmap->len;
	}
	id = COMCH_FAST_FREE_ID(&link->consumers, rte_comch_consumer, &count);
	rc = comch_fast_attach(link, count, max, "consumer_create");
	c = rc < 0 ? NULL : comch_zalloc_lines(1, sizeof(*c));
	if (c == NULL) {
		if (rc == 0)
			comch_fast_detach(link);
		if (mmap != NULL)
			comch_mmap_release(mmap);
		rte_errno = rc < 0 ? -rc : ENOMEM;
		return NULL;
	}
	comch_ctx_init(&c->ctx, &comch_consumer_ops, COMCH_CTX_CONSUMER, dev);
	comch_consumer_set_api(c, api);
	c->link = link;
	c->mmap = mmap;
	c->id = id;
	c->tasks.nb = RTE_MIN((uint32_t)RTE_COMCH_DEFAULT_SEND_TASKS, dev->info.max_fast_tasks);
	conf.id = id;
	rc = ops->create(link->drv, &conf, &c->drv);
	if (rc < 0) {
		free(c);
		comch_fast_detach(link);
		if (mmap != NULL)
			comch_mmap_release(mmap);
		rte_errno = -rc;
		return NULL;
	}
	TAILQ_INSERT_TAIL(&link->consumers, c, next);
	comch_ctx_publish(&c->ctx);
	return c;
}

struct rte_comch_consumer *
rte_comch_consumer_create(struct rte_comch_connection *conn, struct rte_comch_mmap *mmap)
{
	struct rte_comch_consumer *c;
	bool borrowed;
	int err;

	if (COMCH_BAD_CONN(conn) || COMCH_BAD_OBJ(mmap, magic, COMCH_MAGIC_MMAP)) {
		rte_errno = EINVAL;
		return NULL;
	}
	/* From any thread: the connection's engine, meanwhile, is this call's. */
	borrowed = comch_pe_borrow(conn->ctrl->ctx.pe);
	c = comch_consumer_create(&conn->link, mmap, conn->link.dev->info.max_consumers,
				  COMCH_FAST_API_TASKS);
	err = rte_errno;
	if (borrowed)
		comch_pe_leave_slow(conn->ctrl->ctx.pe);
	rte_errno = err;
	return c;
}

static void
comch_consumer_drv_release(struct rte_comch_ctx *ctx)
{
	struct rte_comch_consumer *c = comch_consumer_of(ctx);

	ctx->dev->ops->consumer->destroy(c->drv);
	c->drv = NULL;
}

/*
 * A destroyed consumer's last remains: its mmap, its place in the list, its
 * memory (to the quarantine: it left the registry at its destroy).
 */
static void
comch_consumer_free(struct rte_comch_consumer *c)
{
	if (c->mmap != NULL)
		comch_mmap_release(c->mmap);
	TAILQ_REMOVE(&c->link->consumers, c, next);
	comch_objreg_quarantine(c);
}

int
comch_consumer_connect(struct rte_comch_consumer *c, struct rte_comch_drv_blob *reply)
{
	const struct rte_comch_drv_ops *ops = c->ctx.dev->ops;
	bool empty = reply->len == 0 && reply->nb_fds == 0;
	int rc;

	if (ops->consumer->connect == NULL) {
		if (empty)
			return 0;
		COMCH_LOG(ERR, "consumer %u: the peer answered its start with a reply this "
			  "driver does not take", c->id);
		if (c->link->ops->blob_discard != NULL)
			c->link->ops->blob_discard(c->link, reply);
		return -EPROTO;
	}
	rc = ops->consumer->connect(c->drv, reply);
	if (rc < 0) {
		COMCH_LOG(ERR, "consumer %u: the driver refused the peer's reply to its start: %s",
			  c->id, strerror(-rc));
		return -EPROTO;
	}
	return 0;
}

void
comch_consumer_withdrawn(struct rte_comch_consumer *c)
{
	if (c->zombie)
		comch_consumer_free(c);
}

void
comch_consumer_free_zombies(struct comch_link *link)
{
	struct rte_comch_consumer *c, *next;

	for (c = TAILQ_FIRST(&link->consumers); c != NULL; c = next) {
		next = TAILQ_NEXT(c, next);
		comch_consumer_withdrawn(c);
	}
}

static int
comch_consumer_destroy(void *obj)
{
	struct rte_comch_consumer *consumer = obj;
	struct comch_link *link;
	int rc;

	/*
	 * A request of its own may still be queued (a stop that ended with the
	 * connection): served now, on the connection's lcore, where it would be,
	 * while the consumer is whole.
	 */
	if (consumer->link->ops->serve != NULL)
		consumer->link->ops->serve(consumer->link);
	rc = comch_fast_destroy(&consumer->ctx, &consumer->tasks, "consumer destroy",
				comch_consumer_drv_release);
	if (rc < 0)
		return rc;
	comch_obj_kill(&consumer->ctx.magic);
	comch_objreg_remove(&consumer->ctx.reg);
	/*
	 * Quarantined (its stop did not wait for the peer's confirmation, which is
	 * still due): gone for the application, which may disconnect now, but its
	 * id stays taken and its mmap held in the connection's list until the
	 * confirmation or the end of the connection frees it
	 * (comch_consumer_withdrawn(), comch_consumer_free_zombies()). Both run
	 * on this lcore, as the protocol state read here is this lcore's.
	 */
	if (consumer->link->ops->peer && !comch_link_dead(consumer->link) &&
	    (consumer->proto == COMCH_PROTO_EXPIRING || consumer->proto == COMCH_PROTO_WITHDRAW)) {
		consumer->zombie = true;
		comch_fast_detach(consumer->link); /* a live connection: not freed here */
		return 0;
	}
	link = consumer->link;
	comch_link_lock(link);
	comch_consumer_free(consumer);
	/* (A connection may be freed here: a MsgQ's link, never.) */
	comch_fast_detach_unlock(link);
	return 0;
}

int
rte_comch_consumer_destroy(struct rte_comch_consumer *consumer)
{
	if (COMCH_BAD_CONSUMER(consumer))
		return -EINVAL;
	return comch_fast_conn_destroy(consumer->link, comch_consumer_destroy, consumer);
}

struct rte_comch_ctx *
rte_comch_consumer_as_ctx(struct rte_comch_consumer *consumer)
{
	if (COMCH_BAD_CONSUMER_FAST(consumer)) {
		rte_errno = EINVAL;
		return NULL;
	}
	return &consumer->ctx;
}

int
rte_comch_consumer_get_id(const struct rte_comch_consumer *consumer, uint32_t *id)
{
	if (COMCH_BAD_CONSUMER_FAST(consumer) || COMCH_NULL_ARG(id))
		return -EINVAL;
	*id = consumer->id;
	return 0;
}

int
rte_comch_consumer_set_imm_data_len(struct rte_comch_consumer *consumer, uint32_t len)
{
	int rc;

	if (COMCH_BAD_CONSUMER(consumer))
		return -EINVAL;
	if (len > consumer->ctx.dev->info.max_imm_data_len) {
		COMCH_LOG(ERR, "immediate data length %u is above the device's %u", len,
			  consumer->ctx.dev->info.max_imm_data_len);
		return -EINVAL;
	}
	rc = comch_ctx_check_idle(&consumer->ctx, "consumer set_imm_data_len");
	if (rc == 0)
		consumer->imm_len = len;
	return rc;
}

int
rte_comch_consumer_get_imm_data_len(const struct rte_comch_consumer *consumer, uint32_t *len)
{
	if (COMCH_BAD_CONSUMER_FAST(consumer) || COMCH_NULL_ARG(len))
		return -EINVAL;
	*len = consumer->imm_len;
	return 0;
}

int
rte_comch_consumer_task_post_recv_set_conf(struct rte_comch_consumer *consumer,
					   rte_comch_consumer_task_post_recv_cb_t completion_cb,
					   rte_comch_consumer_task_post_recv_cb_t error_cb,
					   uint32_t num_tasks)
{
	int rc;

	if (COMCH_BAD_CONSUMER(consumer))
		return -EINVAL;
	rc = comch_fast_set_conf(&consumer->ctx, &consumer->tasks,
				 completion_cb != NULL && error_cb != NULL, num_tasks,
				 "consumer task_post_recv_set_conf");
	if (rc < 0)
		return rc;
	/* Back from the burst API; a consumer the CPU does not post on stays so. */
	if (consumer->api == COMCH_FAST_API_BURST)
		comch_consumer_set_api(consumer, COMCH_FAST_API_TASKS);
	consumer->ok_cb = completion_cb;
	consumer->err_cb = error_cb;
	return 0;
}

static int
comch_consumer_check_buf(const struct rte_comch_consumer *c, const struct rte_comch_buf *buf)
{
	if (buf != NULL && c->mmap == NULL) {
		COMCH_LOG(ERR, "consumer %u: a MsgQ carries immediate data only: no buffer", c->id);
		return -EINVAL;
	}
	if (buf != NULL && buf->mmap != c->mmap) {
		COMCH_LOG(ERR, "consumer %u: the buffer is not of the consumer's mmap", c->id);
		return -EINVAL;
	}
	return 0;
}

int
rte_comch_consumer_task_post_recv_alloc_init(struct rte_comch_consumer *consumer,
					     struct rte_comch_buf *buf,
					     struct rte_comch_consumer_task_post_recv **task)
{
	struct rte_comch_consumer_task_post_recv *t;
	int rc;

	if (COMCH_BAD_CONSUMER_FAST(consumer))
		return -EINVAL;
	if (unlikely(task == NULL)) {
		COMCH_LOG(ERR, "task is NULL");
		return -EINVAL;
	}
	if (unlikely(consumer->api != COMCH_FAST_API_TASKS)) {
		COMCH_LOG(ERR, "consumer %u makes no post-recv tasks: %s", consumer->id,
			  consumer->api == COMCH_FAST_API_BURST ? "it is in burst mode" :
			  "the CPU does not post on it");
		return -ENOTSUP;
	}
	rc = comch_consumer_check_buf(consumer, buf);
	if (unlikely(rc < 0))
		return rc;
	if (unlikely(consumer->ctx.state != RTE_COMCH_CTX_STATE_RUNNING)) {
		COMCH_LOG(ERR, "consumer %u: not running", consumer->id);
		return -EBUSY;
	}
	if (unlikely(comch_task_get(consumer->tasks.pool, (void **)&t) < 0))
		return -ENOMEM;
	t->base.ctx = &consumer->ctx;
	t->base.user_data.u64 = 0;
	t->base.status = 0;
	t->base.type = COMCH_TASK_POST_RECV;
	t->base.allocated = true;
	t->buf = buf;
	t->imm_len = 0;
	t->producer_id = UINT32_MAX;
	*task = t;
	return 0;
}

struct rte_comch_task *
rte_comch_consumer_task_post_recv_as_task(struct rte_comch_consumer_task_post_recv *task)
{
	if (COMCH_NULL_ARG(task)) {
		rte_errno = EINVAL;
		return NULL;
	}
	return &task->base;
}

struct rte_comch_buf *
rte_comch_consumer_task_post_recv_get_buf(const struct rte_comch_consumer_task_post_recv *task)
{
	if (COMCH_NULL_ARG(task)) {
		rte_errno = EINVAL;
		return NULL;
	}
	return task->buf;
}

int
rte_comch_consumer_task_post_recv_set_buf(struct rte_comch_consumer_task_post_recv *task,
					  struct rte_comch_buf *buf)
{
	int rc;

	if (COMCH_NULL_ARG(task))
		return -EINVAL;
	if (task->base.status == -EINPROGRESS) {
		COMCH_LOG(ERR, "task %p is in flight", (void *)task);
		return -EBUSY;
	}
	rc = comch_consumer_check_buf(comch_consumer_of(task->base.ctx), buf);
	if (rc == 0)
		task->buf = buf;
	return rc;
}

const uint8_t *
rte_comch_consumer_task_post_recv_get_imm_data(
	const struct rte_comch_consumer_task_post_recv *task, uint32_t *len)
{
	if (COMCH_NULL_ARG(task)) {
		rte_errno = EINVAL;
		return NULL;
	}
	if (len != NULL)
		*len = task->imm_len;
	return task->imm;
}

int
rte_comch_consumer_task_post_recv_get_producer_id(
	const struct rte_comch_consumer_task_post_recv *task, uint32_t *id)
{
	if (COMCH_NULL_ARG(task, id))
		return -EINVAL;
	if (task->base.status != 0 || task->producer_id == UINT32_MAX)
		return -ENOENT;
	*id = task->producer_id;
	return 0;
}
