/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Fast path of the skeleton driver. A consumer's receive state is a ring of
 * posted buffers (it posts, the peer's producers take) and a ring of
 * completions (the producers write them, it polls them). The library
 * serialises the producers that write into one consumer with that consumer's
 * lock, so both rings have one writer and one reader at a time.
 *
 * The state is shared by both sides: each start makes a fresh one, exported
 * in the blob as a pointer (one process) with a reference for the peer. It is
 * freed when both sides let go. A consumer destroyed on our side is marked
 * dead, under its own lock, so a producer of the peer that has not yet heard
 * of it writes nothing into memory the application may free.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_memcpy.h>

#include "skeleton_internal.h"

/* Our side of a consumer: the state of its current start. */
struct skel_cons_side {
	uint32_t id;
	struct skel_consumer *cur;
};

static void
skel_consumer_put(struct skel_consumer *sc)
{
	if (comch_fetch_sub_release(&sc->refs, 1) != 1)
		return;
	comch_fence_seq_cst();
	free(sc->posts);
	free(sc->cpls);
	skel_bell_fini(&sc->bell);
	free(sc);
}

/* Ours is gone (destroyed, or restarted): the peer's producers write no more. */
static void
skel_consumer_retire(struct skel_cons_side *side)
{
	struct skel_consumer *sc = side->cur;

	if (sc == NULL)
		return;
	rte_spinlock_lock(&sc->lock);
	sc->dead = true;
	rte_spinlock_unlock(&sc->lock);
	if (sc->pe != NULL)
		rte_comch_drv_pe_wake_fd_del(sc->pe, sc->bell.fd);
	skel_consumer_put(sc);
	side->cur = NULL;
}

void
skel_blob_discard(void *conn, struct rte_comch_drv_blob *blob)
{
	struct skel_consumer *sc;

	if (blob->len != sizeof(sc))
		return;
	memcpy(&sc, blob->data, sizeof(sc));
	skel_consumer_put(sc);
	blob->len = 0;
}

static int
skel_consumer_create(void *conn, const struct rte_comch_drv_consumer_conf *conf, void **c)
{
	struct skel_cons_side *side = calloc(1, sizeof(*side));

	/* Any memory will do: the producers write into it from this very process. */
	if (side == NULL)
		return -ENOMEM;
	side->id = conf->id;
	*c = side;
	return 0;
}

static void
skel_consumer_destroy(void *c)
{
	skel_consumer_retire(c);
	free(c);
}

static int
skel_consumer_export(void *c, const struct rte_comch_drv_consumer_start *st,
		     struct rte_comch_drv_blob *blob)
{
	struct skel_cons_side *side = c;
	struct skel_consumer *sc = calloc(1, sizeof(*sc));

	if (sc == NULL)
		return -ENOMEM;
	rte_spinlock_init(&sc->lock);
	sc->refs = 2; /* ours, and the one the blob carries to the peer */
	sc->id = side->id;
	sc->imm_len = st->imm_len;
	sc->posts = skel_ring_new(st->nb_posts, sizeof(struct skel_post),
				  RING_F_SP_ENQ | RING_F_SC_DEQ | RING_F_EXACT_SZ);
	sc->cpls = skel_ring_new(st->nb_posts, sizeof(struct rte_comch_drv_fp_cpl),
				 RING_F_SP_ENQ | RING_F_SC_DEQ | RING_F_EXACT_SZ);
	if (sc->posts == NULL || sc->cpls == NULL || skel_bell_init(&sc->bell) < 0 ||
	    rte_comch_drv_pe_wake_fd_add(st->pe, sc->bell.fd) < 0) {
		sc->refs = 1;
		skel_consumer_put(sc);
		return -ENOMEM;
	}
	sc->pe = st->pe;
	skel_consumer_retire(side); /* the last start's, if any */
	side->cur = sc;
	memcpy(blob->data, &sc, sizeof(sc));
	blob->len = sizeof(sc);
	blob->nb_fds = 0;
	return 0;
}

static int
skel_consumer_post(void *c, uint64_t cookie, void *addr, size_t len)
{
	struct skel_cons_side *side = c;
	struct skel_post p = { .cookie = cookie, .addr = addr, .len = len };

	/* The library posts at most nb_posts at once: there is room. */
	return rte_ring_sp_enqueue_elem(side->cur->posts, &p, sizeof(p)) == 0 ? 0 : -ENOSPC;
}

static int
skel_consumer_poll(void *c, struct rte_comch_drv_fp_cpl *cpl, unsigned int max)
{
	struct skel_cons_side *side = c;

	return rte_ring_sc_dequeue_burst_elem(side->cur->cpls, cpl, sizeof(*cpl), max, NULL);
}

static int
skel_consumer_arm(void *c)
{
	struct skel_consumer *sc = ((struct skel_cons_side *)c)->cur;

	comch_store_relaxed(&sc->bell.armed, 1);
	comch_fence_seq_cst(); /* pairs with skel_bell_ring() in notify */
	return rte_ring_empty(sc->cpls) ? 0 : -EAGAIN;
}

static void
skel_consumer_disarm(void *c)
{
	skel_bell_drain(&((struct skel_cons_side *)c)->cur->bell);
}

const struct rte_comch_drv_consumer_ops skel_consumer_ops = {
	.create = skel_consumer_create,
	.destroy = skel_consumer_destroy,
	.export = skel_consumer_export,
	.post = skel_consumer_post,
	.poll = skel_consumer_poll,
	.arm = skel_consumer_arm,
	.disarm = skel_consumer_disarm,
};

/* ------------------------------------------------------------------ producer */

static int
skel_import(void *conn, const struct rte_comch_drv_remote_conf *conf,
	    struct rte_comch_drv_blob *blob, void **remote)
{
	struct skel_consumer *sc;

	if (blob->len != sizeof(sc) || blob->nb_fds != 0) {
		SKEL_LOG(ERR, "a consumer's blob of %u bytes and %u descriptors", blob->len,
			 blob->nb_fds);
		return -EPROTO;
	}
	memcpy(&sc, blob->data, sizeof(sc));
	*remote = sc; /* the blob's reference is the import's now */
	return 0;
}

static void
skel_unimport(void *conn, void *remote)
{
	skel_consumer_put(remote);
}

static int
skel_producer_send(void *p, void *remote, uint32_t producer_id, const void *data, size_t len,
		   const uint8_t *imm, uint32_t imm_len)
{
	struct skel_consumer *sc = remote;
	struct rte_comch_drv_fp_cpl cpl;
	struct rte_ring_zc_data zcd;
	struct skel_post *post;
	int rc = 0;

	rte_spinlock_lock(&sc->lock);
	/* Peek at the next posted buffer: it is taken only if the message fits. */
	if (sc->dead ||
	    rte_ring_dequeue_zc_burst_elem_start(sc->posts, sizeof(*post), 1, &zcd, NULL) == 0) {
		rte_spinlock_unlock(&sc->lock);
		return -EAGAIN;
	}
	post = zcd.ptr1;
	if (len > post->len) {
		rc = -EMSGSIZE;
		rte_ring_dequeue_zc_elem_finish(sc->posts, 0);
	} else {
		if (len != 0)
			rte_memcpy(post->addr, data, len);
		cpl.cookie = post->cookie;
		cpl.len = len;
		cpl.producer_id = producer_id;
		cpl.imm_len = imm_len;
		rte_mov32(cpl.imm, imm);
		rte_ring_dequeue_zc_elem_finish(sc->posts, 1);
		rte_ring_sp_enqueue_elem(sc->cpls, &cpl, sizeof(cpl));
	}
	rte_spinlock_unlock(&sc->lock);
	return rc;
}

static void
skel_producer_notify(void *p, void *remote)
{
	skel_bell_ring(&((struct skel_consumer *)remote)->bell);
}

const struct rte_comch_drv_producer_ops skel_producer_ops = {
	.import = skel_import,
	.unimport = skel_unimport,
	.create = NULL, /* a producer needs no state: its id comes with each send */
	.send = skel_producer_send,
	.notify = skel_producer_notify,
	.completed = NULL, /* the copy is made when send returns */
};
