/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Producer ops of the "dpa" driver: import and unimport of a MsgQ's consumers,
 * producers' life, and the sends of CPU producers to DPA consumers.
 *
 * The library imports every consumer it starts, whatever the direction. For
 * CPU consumers that makes them reachable by id for DPA producers (the
 * imported flag, under the consumer's lock); for DPA consumers it gives the
 * library the remote that CPU producers' sends name.
 *
 * A CPU producer's send to a DPA consumer is a completion entry posted to the
 * consumer's completion context, within the consumer's credits: the receives
 * its program offered with consumer_ack and that no send filled yet: offered
 * minus taken, two counters on lines of their own, without the consumer's
 * lock (which would bounce between the CPU and the DPA on every message). The
 * program's consumer_ack only adds to offered, and the library lets one
 * producer at a time send to a consumer, so only that send adds to taken; it
 * reads offered only when the credits it saw are used up (a credit seen is
 * still there at the debit). The debit comes before the entry is published
 * (its owner bit, with release), so a program that takes the entry and acks
 * at once finds the credit gone, and the bound of consumer_ack holds exactly.
 */

#include <errno.h>
#include <string.h>

#include "dpa_drv_private.h"

static int
dpa_import(void *conn, const struct rte_comch_drv_remote_conf *conf,
	   struct rte_comch_drv_blob *blob, struct rte_comch_drv_blob *reply, void **remote)
{
	struct dpa_msgq *q = conn;
	struct dpa_cons *c;
	uintptr_t off;

	if (blob->len != sizeof(c) || blob->nb_fds != 0) {
		DPA_LOG(ERR, "a consumer's blob of %u bytes and %u descriptors", blob->len,
			blob->nb_fds);
		return -EPROTO;
	}
	memcpy(&c, blob->data, sizeof(c));
	/* One of this MsgQ's consumers, in use: checked before anything is read through it. */
	off = (uintptr_t)c - (uintptr_t)q->cons;
	if ((uintptr_t)c < (uintptr_t)q->cons || off % sizeof(*c) != 0 ||
	    off / sizeof(*c) > q->max_consumers ||
	    !dpa_msgq_id_valid(off / sizeof(*c), q->max_consumers) ||
	    !q->cons[off / sizeof(*c)].in_use) {
		DPA_LOG(ERR, "the blob names no consumer of this MsgQ");
		return -EPROTO;
	}
	comch_spin_lock(&c->lock);
	c->imported = true;
	c->imm_len = conf->imm_len;
	comch_spin_unlock(&c->lock);
	*remote = c;
	return 0;
}

static void
dpa_unimport(void *conn, void *remote)
{
	struct dpa_cons *c = remote;

	/*
	 * Under the lock: a DPA producer filling it has finished, and none starts
	 * again (it checks imported under the same lock). A DPA consumer stops
	 * taking credits: consumer_ack is refused until its next start.
	 */
	comch_spin_lock(&c->lock);
	c->imported = false;
	c->started = 0;
	comch_spin_unlock(&c->lock);
}

static int
dpa_producer_create(void *conn, uint32_t id, void **out)
{
	struct dpa_msgq *q = conn;
	struct dpa_prod *p;
	int ret;

	if (!dpa_msgq_id_valid(id, q->max_producers)) {
		DPA_LOG(ERR, "producer id %u: the MsgQ has ids 1 to %u", id, q->max_producers);
		return -EINVAL;
	}
	p = &q->prods[id];
	if (p->in_use) {
		DPA_LOG(ERR, "producer id %u is taken", id);
		return -EEXIST;
	}
	if (rte_comch_dpa_in_program()) {
		DPA_LOG(ERR, "called from a DPA program");
		return -EPERM;
	}
	comch_spin_lock(&p->lock);
	p->cq = NULL;
	p->user_data = 0;
	p->max_send = DPA_MSGQ_DEFAULT_DEV_MAX;
	comch_spin_unlock(&p->lock);
	p->handle = RTE_COMCH_DPA_HANDLE_INVALID;
	/* A MsgQ with DPA consumers has CPU producers: they need no handle. */
	if (!q->dpa_consumer) {
		ret = rte_comch_dpa_ep_alloc(q->dpa, DPA_KIND_PRODUCER, p, &p->handle);
		if (ret < 0)
			return ret;
	}
	p->in_use = true;
	*out = p;
	return 0;
}

static void
dpa_producer_destroy(void *obj)
{
	struct dpa_prod *p = obj;

	if (!p->q->dpa_consumer) {
		/* Waits for the runs that may hold its handle. */
		rte_comch_dpa_ep_free(p->q->dpa, p->handle);
		p->handle = RTE_COMCH_DPA_HANDLE_INVALID;
	}
	p->in_use = false;
}

/*
 * A CPU producer's send: each message is a completion entry on the DPA
 * consumer's completion context, if the consumer has a credit and the context
 * room. Returns how many were posted, or with none: -EAGAIN (no credit, or the
 * context is full), -EMSGSIZE (data: a MsgQ carries immediate data only),
 * -EPROTO (the completion context was destroyed under the started consumer).
 */
static int
dpa_producer_send(void *obj, void *remote, uint32_t producer_id, const void *src_reg,
		  const struct rte_comch_fp_msg *msgs, unsigned int n)
{
	struct dpa_cons *c = remote;
	struct rte_comch_dpa_cqe *cqe;
	unsigned int i;
	int rc = -EAGAIN;

	for (i = 0; i < n; i++) {
		if (msgs[i].len != 0) {
			DPA_LOG(ERR, "consumer %u: %u bytes of data: a MsgQ carries immediate "
				"data only", c->id, msgs[i].len);
			rc = -EMSGSIZE;
			break;
		}
		/* The program's line only when the credits seen are used up. */
		if (c->taken == c->offered_seen) {
			c->offered_seen = comch_load_acquire(&c->offered);
			if (c->taken == c->offered_seen) {
				rc = -EAGAIN;
				break;
			}
		}
		/* Room first: a credit is taken only for an entry that will be posted. */
		rc = rte_comch_dpa_cq_reserve(c->cq, UINT64_MAX, __func__, &cqe);
		if (rc < 0) {
			if (rc != -EAGAIN) {
				DPA_LOG(ERR, "consumer %u: its completion context refused a "
					"post: %s", c->id, strerror(-rc));
				rc = -EPROTO;
			}
			break;
		}
		/* Ordered before the entry by the release of its owner bit. */
		comch_store_relaxed(&c->taken, comch_load_relaxed(&c->taken) + 1);
		cqe->user_data = c->user_data;
		cqe->producer_id = producer_id;
		cqe->imm_len = msgs[i].imm_len;
		memcpy(cqe->imm, msgs[i].imm, sizeof(cqe->imm));
		rte_comch_dpa_cq_commit(c->cq);
	}
	return i > 0 ? (int)i : rc;
}

const struct rte_comch_drv_producer_ops dpa_producer_ops = {
	.import = dpa_import,
	.unimport = dpa_unimport,
	.create = dpa_producer_create,
	.destroy = dpa_producer_destroy,
	.send = dpa_producer_send,
	.notify = NULL,    /* a post triggers the consumer's thread itself */
	.completed = NULL, /* a post is done when send returns */
};
