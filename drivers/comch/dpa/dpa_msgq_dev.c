/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The device-side MsgQ calls (rte_comch_dpa_dev.h): a DPA consumer's
 * consumer_ack, and a DPA producer's sends to CPU consumers.
 *
 * A send is one critical section under the target consumer's lock, because
 * many DPA threads may send to one consumer: the consumer is started and has a
 * posted receive; the completion, if asked for, has room (the completion
 * context stays locked from that check to its post, so it cannot fail after);
 * then the copy, the fill and the wake-up. A refused send changes nothing.
 * Locks are taken in one order: consumer, then completion context.
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <rte_comch_mmap.h>

#include "dpa_drv_private.h"

/* The copy of a dma_copy, checked already; len 0 for a plain send. */
struct dpa_copy {
	uint8_t *dst;
	const uint8_t *src;
	uint64_t len;
};

/* A producer's completion configuration, read once per send; cq NULL: no completion asked. */
struct dpa_send_cq {
	struct rte_comch_dpa_cq *cq;
	uint64_t user_data;
	uint32_t max_send;
};

int
rte_comch_dpa_dev_consumer_ack(rte_comch_dpa_handle_t h, uint32_t n)
{
	struct rte_comch_dpa *dpa = rte_comch_dpa_dev_caller(__func__);
	struct dpa_cons *c;
	uint64_t credits;
	int ret = 0;

	if (dpa == NULL)
		return -EPERM;
	c = rte_comch_dpa_ep_lookup(dpa, h, DPA_KIND_CONSUMER, "consumer", __func__);
	if (c == NULL)
		return -EINVAL;
	/*
	 * The lock orders acks against the consumer's start and stop, and one
	 * program's acks against another's. The CPU producer counts what it takes
	 * apart (taken), before it publishes the entry: what is read here can only
	 * be less than what it took since, never less than what the program has
	 * seen taken, so the credits are never fewer than left: the bound holds.
	 */
	comch_spin_lock(&c->lock);
	credits = comch_load_relaxed(&c->offered) - comch_load_acquire(&c->taken);
	if (!c->started) {
		DPA_LOG(ERR, "consumer %u is not started", c->id);
		ret = -ENOTCONN;
	} else if (n > c->max_recv - credits) {
		DPA_LOG(ERR, "consumer %u: %u more receives on %" PRIu64 " offered exceed "
			"dev_max_num_recv %u", c->id, n, credits, c->max_recv);
		ret = -EINVAL;
	} else {
		/* Release: with the receives it offers, as the producer will see them. */
		comch_store_release(&c->offered, comch_load_relaxed(&c->offered) + n);
	}
	comch_spin_unlock(&c->lock);
	return ret;
}

/* The DPA producer h names in the calling program's dpa; *err is 0, -EPERM or -EINVAL. */
static struct dpa_prod *
dpa_dev_producer(rte_comch_dpa_handle_t h, int *err, const char *func)
{
	struct rte_comch_dpa *dpa = rte_comch_dpa_dev_caller(func);
	struct dpa_prod *p;

	if (dpa == NULL) {
		*err = -EPERM;
		return NULL;
	}
	p = rte_comch_dpa_ep_lookup(dpa, h, DPA_KIND_PRODUCER, "producer", func);
	*err = p != NULL ? 0 : -EINVAL;
	return p;
}

/*
 * The checks of a send's own arguments: 0, -EINVAL or -EMSGSIZE (logged,
 * naming func). On 0, *sc is the completion configuration the send uses, read
 * under the producer's lock once: its cq is NULL if no completion is asked for.
 */
static int
dpa_dev_send_check(struct dpa_prod *p, const void *imm, uint32_t imm_len, uint32_t flags,
		   struct dpa_send_cq *sc, const char *func)
{
	sc->cq = NULL;
	if ((flags & ~RTE_COMCH_DPA_DEV_SUBMIT_FLAG_COMPLETION) != 0) {
		DPA_LOG_FN(ERR, func, "producer %u: unknown flags %#x", p->id, flags);
		return -EINVAL;
	}
	if (imm == NULL && imm_len != 0) {
		DPA_LOG_FN(ERR, func, "producer %u: imm is NULL, imm_len %u", p->id, imm_len);
		return -EINVAL;
	}
	if (imm_len > RTE_COMCH_DPA_IMM_MAX) {
		DPA_LOG_FN(ERR, func, "producer %u: imm_len %u above %u", p->id, imm_len,
			   RTE_COMCH_DPA_IMM_MAX);
		return -EMSGSIZE;
	}
	if ((flags & RTE_COMCH_DPA_DEV_SUBMIT_FLAG_COMPLETION) == 0)
		return 0;
	comch_spin_lock(&p->lock);
	sc->cq = p->cq;
	sc->user_data = p->user_data;
	sc->max_send = p->max_send;
	comch_spin_unlock(&p->lock);
	if (sc->cq == NULL) {
		DPA_LOG_FN(ERR, func, "producer %u: a completion asked for, none attached: "
			   "rte_comch_dpa_producer_completion_attach()", p->id);
		return -EINVAL;
	}
	return 0;
}

/* The started CPU consumer id of p's MsgQ, locked; or NULL (logged, naming func). */
static struct dpa_cons *
dpa_dev_consumer_lock(struct dpa_prod *p, uint32_t id, const char *func)
{
	struct dpa_msgq *q = p->q;
	struct dpa_cons *c;

	if (!dpa_msgq_id_valid(id, q->max_consumers)) {
		DPA_LOG_FN(ERR, func, "producer %u: no consumer %u (ids 1 to %u)", p->id, id,
			   q->max_consumers);
		return NULL;
	}
	/* The slot is the MsgQ's, alive as long as the producer: its lock is safe to take. */
	c = &q->cons[id];
	comch_spin_lock(&c->lock);
	if (!c->imported) {
		comch_spin_unlock(&c->lock);
		/*
		 * What every send meets while a consumer stops or restarts: the
		 * -ENOENT says it, as on the CPU fast path; at DEBUG, so that a
		 * normal stop does not flood the log.
		 */
		DPA_LOG_FN(DEBUG, func, "producer %u: consumer %u is not started", p->id, id);
		return NULL;
	}
	return c;
}

/*
 * Whether the CPU consumer c (locked) has a receive posted and not filled. Its
 * lcore writes pi as it posts: read that line only when the receives seen are
 * used up. Acquire: the receive was posted whole, and its last fill read,
 * before.
 */
static bool
dpa_cons_posted(struct dpa_cons *c)
{
	uint64_t fi = comch_load_relaxed(&c->fi);

	if (c->pi_seen == fi)
		c->pi_seen = comch_load_acquire(&c->pi);
	return c->pi_seen != fi;
}

/*
 * Deliver a message (and the copy before it) to consumer id, and post the
 * producer's completion on sc->cq if not NULL. 0 or -ENOENT, -EMSGSIZE,
 * -EAGAIN, -EINVAL.
 */
static int
dpa_dev_deliver(struct dpa_prod *p, uint32_t id, const void *imm, uint32_t imm_len,
		const struct dpa_send_cq *sc, const struct dpa_copy *copy, const char *func)
{
	struct rte_comch_dpa_cqe *cqe = NULL;
	struct dpa_cons *c;
	int ret;

	c = dpa_dev_consumer_lock(p, id, func);
	if (c == NULL)
		return -ENOENT;
	if (imm_len > c->imm_len) {
		comch_spin_unlock(&c->lock);
		DPA_LOG_FN(ERR, func, "producer %u: imm_len %u, consumer %u accepts %u", p->id,
			   imm_len, id, c->imm_len);
		return -EMSGSIZE;
	}
	if (!dpa_cons_posted(c)) {
		comch_spin_unlock(&c->lock);
		return -EAGAIN;
	}
	if (sc->cq != NULL) {
		ret = rte_comch_dpa_cq_reserve(sc->cq, sc->max_send, func, &cqe);
		if (ret < 0) {
			comch_spin_unlock(&c->lock);
			if (ret == -EINVAL)
				DPA_LOG_FN(ERR, func, "producer %u: its completion context is gone",
					   p->id);
			return ret;
		}
	}
	if (copy != NULL && copy->len != 0)
		memcpy(copy->dst, copy->src, copy->len);
	dpa_cons_fill(c, p->id, imm, imm_len);
	/* After the copy: a completion tells the program its source may be reused. */
	if (sc->cq != NULL) {
		cqe->user_data = sc->user_data;
		cqe->producer_id = p->id;
		cqe->imm_len = 0;
		memset(cqe->imm, 0, sizeof(cqe->imm));
		rte_comch_dpa_cq_commit(sc->cq);
	}
	comch_spin_unlock(&c->lock);
	return 0;
}

int
rte_comch_dpa_dev_producer_post_send_imm_only(rte_comch_dpa_handle_t producer,
					      uint32_t consumer_id, const void *imm,
					      uint32_t imm_len, uint32_t flags)
{
	struct dpa_send_cq sc;
	struct dpa_prod *p;
	int ret;

	p = dpa_dev_producer(producer, &ret, __func__);
	if (p == NULL)
		return ret;
	ret = dpa_dev_send_check(p, imm, imm_len, flags, &sc, __func__);
	if (ret < 0)
		return ret;
	return dpa_dev_deliver(p, consumer_id, imm, imm_len, &sc, NULL, __func__);
}

/* [addr, addr + len) inside r's range: 0 or -ERANGE (logged, naming func). */
static int
dpa_dev_range(const struct dpa_reg *r, uint64_t addr, uint64_t len, const char *what,
	      const char *func)
{
	uint64_t base = (uintptr_t)r->addr;

	if (addr < base || addr - base > r->len || len > r->len - (addr - base)) {
		DPA_LOG_FN(ERR, func, "%s: %" PRIu64 " bytes at %#" PRIx64 " are outside the "
			   "mmap's %zu bytes at %p", what, len, addr, r->len, (void *)r->addr);
		return -ERANGE;
	}
	return 0;
}

/* The checks of a dma_copy's memory: 0, -ERANGE, -EPERM or -EINVAL (logged, naming func). */
static int
dpa_dev_copy_check(const struct dpa_reg *dst, uint64_t dst_addr, const struct dpa_reg *src,
		   uint64_t src_addr, uint64_t len, const char *func)
{
	int ret = dpa_dev_range(dst, dst_addr, len, "destination", func);

	if (ret == 0)
		ret = dpa_dev_range(src, src_addr, len, "source", func);
	if (ret < 0)
		return ret;
	if ((dst->perms & RTE_COMCH_MMAP_PERM_PCI_READ_WRITE) == 0) {
		DPA_LOG_FN(ERR, func, "the destination mmap: the peer may not write it");
		return -EPERM;
	}
	if ((src->perms & (RTE_COMCH_MMAP_PERM_PCI_READ_ONLY |
			   RTE_COMCH_MMAP_PERM_PCI_READ_WRITE)) == 0) {
		DPA_LOG_FN(ERR, func, "the source mmap: the peer may not read it");
		return -EPERM;
	}
	/* Both ranges are inside registered memory: the sums cannot wrap. */
	if (len != 0 && dst_addr < src_addr + len && src_addr < dst_addr + len) {
		DPA_LOG_FN(ERR, func, "%" PRIu64 " bytes from %#" PRIx64 " to %#" PRIx64 " overlap",
			   len, src_addr, dst_addr);
		return -EINVAL;
	}
	return 0;
}

int
rte_comch_dpa_dev_producer_dma_copy(rte_comch_dpa_handle_t producer, uint32_t consumer_id,
				    rte_comch_dpa_handle_t dst_mmap, uint64_t dst_addr,
				    rte_comch_dpa_handle_t src_mmap, uint64_t src_addr,
				    uint64_t len, const void *imm, uint32_t imm_len,
				    uint32_t flags)
{
	struct dpa_reg *dst = NULL, *src = NULL;
	struct dpa_send_cq sc;
	struct dpa_copy copy;
	struct dpa_prod *p;
	int ret;

	p = dpa_dev_producer(producer, &ret, __func__);
	if (p == NULL)
		return ret;
	ret = dpa_dev_send_check(p, imm, imm_len, flags, &sc, __func__);
	if (ret < 0)
		return ret;
	/* Held until the copy is done: the mmaps cannot stop under it. */
	dst = dpa_reg_get(p->q, dst_mmap, __func__);
	if (dst != NULL)
		src = dpa_reg_get(p->q, src_mmap, __func__);
	if (dst == NULL || src == NULL) {
		ret = -EINVAL;
		goto out;
	}
	ret = dpa_dev_copy_check(dst, dst_addr, src, src_addr, len, __func__);
	if (ret < 0)
		goto out;
	copy.dst = (uint8_t *)(uintptr_t)dst_addr;
	copy.src = (const uint8_t *)(uintptr_t)src_addr;
	copy.len = len;
	ret = dpa_dev_deliver(p, consumer_id, imm, imm_len, &sc, &copy, __func__);
out:
	if (src != NULL)
		dpa_reg_put(src);
	if (dst != NULL)
		dpa_reg_put(dst);
	return ret;
}

int
rte_comch_dpa_dev_producer_is_consumer_empty(rte_comch_dpa_handle_t producer,
					     uint32_t consumer_id)
{
	struct dpa_cons *c;
	struct dpa_prod *p;
	int ret;

	p = dpa_dev_producer(producer, &ret, __func__);
	if (p == NULL)
		return ret;
	c = dpa_dev_consumer_lock(p, consumer_id, __func__);
	if (c == NULL)
		return -ENOENT;
	ret = !dpa_cons_posted(c);
	comch_spin_unlock(&c->lock);
	return ret;
}
