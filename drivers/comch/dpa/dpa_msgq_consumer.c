/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Consumer ops of the "dpa" driver. Which kind a consumer is follows its
 * MsgQ's direction:
 *   - a DPA consumer (q->dpa_consumer): its datapath is a DPA program, which
 *     takes what CPU producers posted from the consumer's completion context
 *     and offers receives with consumer_ack. The library calls only create,
 *     start and destroy on it; start checks the configuration and resets the
 *     credits, and the handle lets programs name it.
 *   - a CPU consumer: a ring of receives the library posts (cookies only: a
 *     MsgQ carries immediate data) and DPA producers fill. The consumer's lcore
 *     posts and polls without a lock; DPA producers, on any unit, fill under
 *     the consumer's lock; the indexes are published with release and read
 *     with acquire. A fill wakes the consumer's engine through an eventfd
 *     when it is armed.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "dpa_drv_private.h"

static bool
dpa_cons_on_dpa(const struct dpa_cons *c)
{
	return c->q->dpa_consumer;
}

/* No receive offered by a DPA consumer's program: at creation, and at each start (under lock). */
static void
dpa_cons_credits_reset(struct dpa_cons *c)
{
	comch_store_relaxed(&c->offered, 0);
	comch_store_relaxed(&c->taken, 0);
	c->offered_seen = 0;
}

static int
dpa_consumer_create(void *conn, const struct rte_comch_drv_consumer_conf *conf, void **out)
{
	struct dpa_msgq *q = conn;
	struct dpa_cons *c;
	int ret;

	if (!dpa_msgq_id_valid(conf->id, q->max_consumers)) {
		DPA_LOG(ERR, "consumer id %u: the MsgQ has ids 1 to %u", conf->id,
			q->max_consumers);
		return -EINVAL;
	}
	c = &q->cons[conf->id];
	if (c->in_use) {
		DPA_LOG(ERR, "consumer id %u is taken", conf->id);
		return -EEXIST;
	}
	if (rte_comch_dpa_in_program()) {
		DPA_LOG(ERR, "called from a DPA program");
		return -EPERM;
	}
	/* The producers' view under the lock: a DPA producer may look at the slot by id. */
	comch_spin_lock(&c->lock);
	c->imported = false;
	c->imm_len = 0;
	c->cq = NULL;
	c->user_data = 0;
	c->max_recv = DPA_MSGQ_DEFAULT_DEV_MAX;
	dpa_cons_credits_reset(c);
	c->started = 0;
	comch_spin_unlock(&c->lock);
	c->ring = NULL;
	c->mask = 0;
	comch_store_relaxed(&c->pi, 0);
	comch_store_relaxed(&c->fi, 0);
	c->pi_seen = 0;
	c->ci = 0;
	c->efd = -1;
	c->pe = NULL;
	comch_store_relaxed(&c->armed, 0);
	c->handle = RTE_COMCH_DPA_HANDLE_INVALID;
	if (dpa_cons_on_dpa(c)) {
		ret = rte_comch_dpa_ep_alloc(q->dpa, DPA_KIND_CONSUMER, c, &c->handle);
		if (ret < 0)
			return ret;
	}
	c->in_use = true;
	*out = c;
	return 0;
}

/* Stop watching and close the eventfd of a CPU consumer. */
static void
dpa_cons_efd_close(struct dpa_cons *c)
{
	if (c->pe != NULL)
		rte_comch_drv_pe_wake_fd_del(c->pe, c->efd);
	c->pe = NULL;
	if (c->efd >= 0)
		close(c->efd);
	c->efd = -1;
}

static void
dpa_consumer_destroy(void *obj)
{
	struct dpa_cons *c = obj;

	/* The library unimported it before; this only makes sure no producer fills it. */
	comch_spin_lock(&c->lock);
	c->imported = false;
	c->started = 0;
	comch_spin_unlock(&c->lock);
	if (dpa_cons_on_dpa(c)) {
		/* Waits for the runs that may hold the handle (consumer_ack). */
		rte_comch_dpa_ep_free(c->q->dpa, c->handle);
		c->handle = RTE_COMCH_DPA_HANDLE_INVALID;
		if (c->cq != NULL)
			rte_comch_dpa_cq_consumer_detach(c->cq);
		c->cq = NULL;
	} else {
		dpa_cons_efd_close(c);
		free(c->ring);
		c->ring = NULL;
	}
	c->in_use = false;
}

static int
dpa_cons_start_dpa(struct dpa_cons *c, uint32_t imm_len)
{
	int ret = 0;

	comch_spin_lock(&c->lock);
	if (c->cq == NULL) {
		DPA_LOG(ERR, "consumer %u: no completion context: "
			"rte_comch_dpa_consumer_set_completion()", c->id);
		ret = -EINVAL;
	} else if (!rte_comch_dpa_cq_is_live(c->cq)) {
		DPA_LOG(ERR, "consumer %u: its completion context was destroyed", c->id);
		ret = -EINVAL;
	} else if (imm_len > rte_comch_dpa_cq_imm_len(c->cq)) {
		DPA_LOG(ERR, "consumer %u: %u bytes of immediate data, its completion context "
			"takes %u", c->id, imm_len, rte_comch_dpa_cq_imm_len(c->cq));
		ret = -EINVAL;
	} else {
		/* A fresh start: the program offers receives again with consumer_ack. */
		dpa_cons_credits_reset(c);
		c->started = 1;
	}
	comch_spin_unlock(&c->lock);
	return ret;
}

static int
dpa_cons_start_cpu(struct dpa_cons *c, const struct rte_comch_drv_consumer_start *st)
{
	uint32_t size = rte_align32pow2(RTE_MAX(st->nb_posts, 1u));
	struct dpa_recv *ring;
	bool imported;
	uint64_t n;
	int ret;

	comch_spin_lock(&c->lock);
	imported = c->imported;
	comch_spin_unlock(&c->lock);
	if (imported) {
		/* DPA producers could be filling the ring this start would replace. */
		DPA_LOG(ERR, "consumer %u: still imported (not unimported since its last start)",
			c->id);
		return -EBUSY;
	}
	if (st->pe == NULL) {
		DPA_LOG(ERR, "consumer %u: no engine to wake", c->id);
		return -EINVAL;
	}
	ring = calloc(size, sizeof(*ring));
	if (ring == NULL) {
		DPA_LOG(ERR, "consumer %u: out of memory for %u receives", c->id, size);
		return -ENOMEM;
	}
	if (c->efd < 0) {
		c->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
		if (c->efd < 0) {
			ret = -errno;
			DPA_LOG(ERR, "consumer %u: eventfd: %s", c->id, strerror(-ret));
			free(ring);
			return ret;
		}
	}
	/* The engine may differ from the last start's. */
	if (c->pe != NULL)
		rte_comch_drv_pe_wake_fd_del(c->pe, c->efd);
	c->pe = NULL;
	ret = rte_comch_drv_pe_wake_fd_add(st->pe, c->efd);
	if (ret < 0) {
		DPA_LOG(ERR, "consumer %u: the engine cannot watch its eventfd: %s", c->id,
			strerror(-ret));
		free(ring);
		return ret;
	}
	c->pe = st->pe;
	(void)!read(c->efd, &n, sizeof(n)); /* a wake-up of the last start is no news */
	free(c->ring);
	c->ring = ring;
	c->mask = size - 1;
	comch_store_relaxed(&c->pi, 0);
	comch_store_relaxed(&c->fi, 0);
	c->pi_seen = 0;
	c->ci = 0;
	comch_store_relaxed(&c->armed, 0);
	return 0;
}

static int
dpa_consumer_start(void *obj, const struct rte_comch_drv_consumer_start *st,
		   struct rte_comch_drv_blob *blob)
{
	struct dpa_cons *c = obj;
	int ret = dpa_cons_on_dpa(c) ? dpa_cons_start_dpa(c, st->imm_len) :
				       dpa_cons_start_cpu(c, st);

	if (ret < 0)
		return ret;
	/* The MsgQ's import runs in this process: the blob is the consumer itself. */
	memcpy(blob->data, &c, sizeof(c));
	blob->len = sizeof(c);
	blob->nb_fds = 0;
	return 0;
}

/* CPU consumers only, from here on: the library never calls these for DPA consumers. */

static int
dpa_consumer_post(void *obj, const struct rte_comch_fp_post *posts, unsigned int n)
{
	struct dpa_cons *c = obj;
	uint64_t pi = comch_load_relaxed(&c->pi);
	unsigned int i;

	if (pi + n - c->ci > (uint64_t)c->mask + 1) {
		DPA_LOG(ERR, "consumer %u: %u more receives do not fit its %u", c->id, n,
			c->mask + 1);
		return -ENOSPC;
	}
	for (i = 0; i < n; i++)
		c->ring[(pi + i) & c->mask].cookie = posts[i].cookie;
	/* Release: a producer that sees the index sees the slots free to fill. */
	comch_store_release(&c->pi, pi + n);
	return 0;
}

static int
dpa_consumer_poll(void *obj, struct rte_comch_fp_cpl *cpl, unsigned int max)
{
	struct dpa_cons *c = obj;
	/* Acquire: the slots below fi were written whole by the producers. */
	uint64_t fi = comch_load_acquire(&c->fi);
	unsigned int n = (unsigned int)RTE_MIN(fi - c->ci, (uint64_t)max);
	const struct dpa_recv *r;
	unsigned int i;

	for (i = 0; i < n; i++) {
		r = &c->ring[(c->ci + i) & c->mask];
		cpl[i].cookie = r->cookie;
		cpl[i].len = 0;
		cpl[i].producer_id = r->producer_id;
		cpl[i].status = 0;
		cpl[i].imm_len = r->imm_len;
		memcpy(cpl[i].imm, r->imm, sizeof(cpl[i].imm));
		cpl[i].reserved = 0;
	}
	c->ci += n;
	return (int)n;
}

static int
dpa_consumer_flush(void *obj, struct rte_comch_fp_cpl *cpl, unsigned int max)
{
	struct dpa_cons *c = obj;
	/* No producer fills any more (unimported): what is posted and unfilled is ours. */
	uint64_t fi = comch_load_acquire(&c->fi);
	uint64_t pi = comch_load_relaxed(&c->pi);
	unsigned int n = (unsigned int)RTE_MIN(pi - fi, (uint64_t)max);
	unsigned int i;

	for (i = 0; i < n; i++) {
		memset(&cpl[i], 0, sizeof(cpl[i]));
		cpl[i].cookie = c->ring[(fi + i) & c->mask].cookie;
	}
	comch_store_release(&c->fi, fi + n);
	c->ci = fi + n;
	return (int)n;
}

static int
dpa_consumer_arm(void *obj)
{
	struct dpa_cons *c = obj;
	int ret = 0;

	/*
	 * Under the lock fills take: either a fill came first and is seen here,
	 * or it comes after and sees the flag. A fill then needs no fence of its
	 * own (it ran one per message, waiting for its stores to leave the core).
	 */
	comch_spin_lock(&c->lock);
	if (comch_load_relaxed(&c->fi) != c->ci)
		ret = -EAGAIN;
	else
		comch_store_relaxed(&c->armed, 1);
	comch_spin_unlock(&c->lock);
	return ret;
}

static void
dpa_consumer_disarm(void *obj)
{
	struct dpa_cons *c = obj;
	uint64_t n;

	comch_store_relaxed(&c->armed, 0);
	(void)!read(c->efd, &n, sizeof(n));
}

void
dpa_cons_fill(struct dpa_cons *c, uint32_t producer_id, const void *imm, uint32_t imm_len)
{
	/* Under c->lock: the only writer of fi. */
	uint64_t fi = comch_load_relaxed(&c->fi);
	struct dpa_recv *r = &c->ring[fi & c->mask];
	uint64_t one = 1;

	r->producer_id = producer_id;
	r->imm_len = imm_len;
	if (imm_len != 0)
		memcpy(r->imm, imm, imm_len);
	memset(r->imm + imm_len, 0, sizeof(r->imm) - imm_len);
	comch_store_release(&c->fi, fi + 1);
	/* Under the lock, as dpa_consumer_arm() sets it: no fence between. */
	if (comch_load_relaxed(&c->armed) != 0)
		(void)!write(c->efd, &one, sizeof(one));
}

const struct rte_comch_drv_consumer_ops dpa_consumer_ops = {
	.create = dpa_consumer_create,
	.destroy = dpa_consumer_destroy,
	.start = dpa_consumer_start,
	.post = dpa_consumer_post,
	.poll = dpa_consumer_poll,
	.flush = dpa_consumer_flush,
	.arm = dpa_consumer_arm,
	.disarm = dpa_consumer_disarm,
};
