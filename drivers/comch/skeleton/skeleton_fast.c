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
 * freed when both sides let go. The ring of posts is the importer's: the
 * import makes it, as a driver whose sides share no memory makes the post
 * mirror its producers read, and tells the consumer where it is in its reply;
 * the consumer's connect takes it (the template of a two-way set-up). A
 * consumer destroyed on our side is marked dead, under its own lock, so a
 * producer of the peer that has not yet heard of it writes nothing into
 * memory the application may free; so is one whose posted buffers come back
 * (flush), which may be before the peer confirmed that it stopped writing.
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
	struct rte_ring *posts;      /* where posts go: the import's reply (connect) */
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
skel_consumer_start(void *c, const struct rte_comch_drv_consumer_start *st,
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
	sc->nb_posts = st->nb_posts;
	sc->cpls = skel_ring_new(st->nb_posts, sizeof(struct rte_comch_fp_cpl),
				 RING_F_SP_ENQ | RING_F_SC_DEQ | RING_F_EXACT_SZ);
	if (sc->cpls == NULL || skel_bell_init(&sc->bell) < 0 ||
	    rte_comch_drv_pe_wake_fd_add(st->pe, sc->bell.fd) < 0) {
		sc->refs = 1;
		skel_consumer_put(sc);
		return -ENOMEM;
	}
	sc->pe = st->pe;
	skel_consumer_retire(side); /* the last start's, if any */
	side->cur = sc;
	side->posts = NULL; /* until the peer's import says where */
	memcpy(blob->data, &sc, sizeof(sc));
	blob->len = sizeof(sc);
	blob->nb_fds = 0;
	return 0;
}

/* The peer imported our start: its reply is where our posts go. */
static int
skel_consumer_connect(void *c, struct rte_comch_drv_blob *reply)
{
	struct skel_cons_side *side = c;
	struct rte_ring *posts;

	if (reply->len != sizeof(posts) || reply->nb_fds != 0) {
		SKEL_LOG(ERR, "consumer %u: a reply of %u bytes and %u descriptors", side->id,
			 reply->len, reply->nb_fds);
		return -EPROTO;
	}
	memcpy(&posts, reply->data, sizeof(posts));
	/* One process: what the import made is in the state we share; anything else lies. */
	if (side->cur == NULL || posts != side->cur->posts) {
		SKEL_LOG(ERR, "consumer %u: the reply names a ring that is not our import's",
			 side->id);
		return -EPROTO;
	}
	side->posts = posts;
	return 0;
}

static int
skel_consumer_post(void *c, const struct rte_comch_fp_post *posts, unsigned int n)
{
	struct skel_cons_side *side = c;

	/* The library posts at most nb_posts at once: there is room for all. */
	return rte_ring_sp_enqueue_bulk_elem(side->posts, posts, sizeof(*posts), n, NULL) == n ?
	       0 : -ENOSPC;
}

static int
skel_consumer_poll(void *c, struct rte_comch_fp_cpl *cpl, unsigned int max)
{
	struct skel_cons_side *side = c;

	/* The producers wrote the completions whole: they go straight to the caller. */
	return rte_ring_sc_dequeue_burst_elem(side->cur->cpls, cpl, sizeof(*cpl), max, NULL);
}

static int
skel_consumer_flush(void *c, struct rte_comch_fp_cpl *cpl, unsigned int max)
{
	struct skel_cons_side *side = c;
	struct skel_consumer *sc = side->cur;
	struct rte_comch_fp_post post;
	unsigned int n;

	/* Never connected: nothing was posted. */
	if (side->posts == NULL)
		return 0;
	/*
	 * The peer may still be sending (the library gave up waiting for its
	 * confirmation): once its producers see the state dead, under the lock
	 * they send under, none writes again, and the posts are ours to take.
	 */
	rte_spinlock_lock(&sc->lock);
	sc->dead = true;
	rte_spinlock_unlock(&sc->lock);
	for (n = 0; n < max && rte_ring_sc_dequeue_elem(side->posts, &post, sizeof(post)) == 0;
	     n++) {
		cpl[n].cookie = post.cookie;
		cpl[n].len = 0;
		cpl[n].imm_len = 0;
	}
	return n;
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
	.start = skel_consumer_start,
	.connect = skel_consumer_connect,
	.post = skel_consumer_post,
	.poll = skel_consumer_poll,
	.flush = skel_consumer_flush,
	.arm = skel_consumer_arm,
	.disarm = skel_consumer_disarm,
};

/* ------------------------------------------------------------------ producer */

static int
skel_import(void *conn, const struct rte_comch_drv_remote_conf *conf,
	    struct rte_comch_drv_blob *blob, struct rte_comch_drv_blob *reply, void **remote)
{
	struct skel_consumer *sc;

	if (blob->len != sizeof(sc) || blob->nb_fds != 0) {
		SKEL_LOG(ERR, "a consumer's blob of %u bytes and %u descriptors", blob->len,
			 blob->nb_fds);
		return -EPROTO;
	}
	memcpy(&sc, blob->data, sizeof(sc));
	if (conf->nb_posts != sc->nb_posts) {
		SKEL_LOG(ERR, "consumer %u: announced with %u posts, started with %u", sc->id,
			 conf->nb_posts, sc->nb_posts);
		skel_consumer_put(sc);
		return -EPROTO;
	}
	/* Our producers' view of its posts: made here, where it is read. */
	sc->posts = skel_ring_new(sc->nb_posts, sizeof(struct rte_comch_fp_post),
				  RING_F_SP_ENQ | RING_F_SC_DEQ | RING_F_EXACT_SZ);
	if (sc->posts == NULL) {
		skel_consumer_put(sc);
		return -ENOMEM;
	}
	memcpy(reply->data, &sc->posts, sizeof(sc->posts));
	reply->len = sizeof(sc->posts);
	*remote = sc; /* the blob's reference is the import's now */
	return 0;
}

static void
skel_unimport(void *conn, void *remote)
{
	skel_consumer_put(remote);
}

/* One message into the next posted buffer: 0, or -EAGAIN, -EMSGSIZE. Under sc->lock. */
static int
skel_send_one(struct skel_consumer *sc, uint32_t producer_id, const struct rte_comch_fp_msg *msg)
{
	struct rte_comch_fp_cpl cpl;
	struct rte_ring_zc_data zcd;
	struct rte_comch_fp_post *post;

	/* Peek at the next posted buffer: it is taken only if the message fits. */
	if (rte_ring_dequeue_zc_burst_elem_start(sc->posts, sizeof(*post), 1, &zcd, NULL) == 0)
		return -EAGAIN;
	post = zcd.ptr1;
	if (msg->len > post->len) {
		rte_ring_dequeue_zc_elem_finish(sc->posts, 0);
		return -EMSGSIZE;
	}
	if (msg->len != 0)
		rte_memcpy(post->addr, msg->data, msg->len);
	cpl.cookie = post->cookie;
	cpl.len = msg->len;
	cpl.producer_id = producer_id;
	cpl.status = 0;
	cpl.imm_len = msg->imm_len;
	rte_mov32(cpl.imm, msg->imm);
	rte_ring_dequeue_zc_elem_finish(sc->posts, 1);
	rte_ring_sp_enqueue_elem(sc->cpls, &cpl, sizeof(cpl));
	return 0;
}

static int
skel_producer_send(void *p, void *remote, uint32_t producer_id, const void *src_reg,
		   const struct rte_comch_fp_msg *msgs, unsigned int n)
{
	struct skel_consumer *sc = remote;
	unsigned int i = 0;
	int rc = -EAGAIN;

	rte_spinlock_lock(&sc->lock);
	/* A consumer its owner destroyed takes nothing: its memory may be gone. */
	for (; !sc->dead && i < n; i++) {
		rc = skel_send_one(sc, producer_id, &msgs[i]);
		if (rc < 0)
			break;
	}
	rte_spinlock_unlock(&sc->lock);
	return i > 0 ? (int)i : rc;
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
