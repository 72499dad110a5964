/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Fast path of the shm driver.
 *
 * A consumer exports three descriptors to the peer (they travel as the blob of
 * the library's announcement): its mmap's memory, a post ring (a sealed memfd
 * of ours) and the producers' end of its doorbell. It posts buffers as
 * (offset, length) slots; a producer on the peer takes the next slot (under
 * the library's lock of that consumer), copies its message straight into that
 * buffer (the one copy), writes length, immediate data and its id into the
 * slot, and publishes the fill with the slot's sequence number. Each side
 * checks what the other wrote before using it: the producer that the slot
 * lies inside the memory it mapped, the consumer that lengths stay within
 * what it posted (it only ever looks at slots it posted).
 *
 * A consumer whose memory the peer cannot map (registered with
 * rte_comch_mmap_set_memrange(), or allocated by another driver) exports a
 * staging area instead: a memfd of its own, as large as the mmap, made at each
 * start. Posts carry the same offsets; the peer writes into the staging area,
 * and poll copies each message into the application's buffer: one more copy,
 * from a source and of a length that are ours (the posted offset, and a data
 * length checked against what we posted).
 *
 * A consumer that sleeps sets the armed word of its post ring; producers ring
 * its doorbell (see shm_bell.c; its end in the consumer engine's epoll
 * set) from their next progress after filling, behind one fence.
 *
 * What the peer's consumers make us hold is budgeted per connection (devargs
 * max_peer_fds, max_peer_map), per peer process and for all peers of the
 * device (max_proc_*, max_dev_*: shm_peer.c), and for the process (fd_reserve,
 * and half of the kernel's mapping limit): an announcement past a budget is
 * refused, and the connection stays.
 */

#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_memcpy.h>
#include <rte_prefetch.h>

#include "comch_prefetch.h"

#include "shm_copy.h"
#include "shm_internal.h"

/* Mappings of peers' memory the whole process holds, against half the kernel's limit. */
static uint32_t shm_peer_maps;
static uint32_t shm_max_peer_maps;

/* ------------------------------------------------------------------ our consumers */

static void
shm_consumer_ring_release(struct shm_consumer *sh)
{
	if (sh->base != NULL)
		munmap(sh->base, sh->bytes);
	/* The peer's mapping of it, if any, is the peer's: only ours goes. */
	if (sh->stage != NULL)
		munmap(sh->stage, sh->reg->len);
	if (sh->bell.fd >= 0) {
		rte_comch_drv_pe_wake_fd_del(sh->bell_pe, sh->bell.fd);
		close(sh->bell.fd);
		shm_fds_keep(-1);
	}
	free(sh->posted_buf);
	sh->base = NULL;
	sh->stage = NULL;
	sh->armed_p = NULL;
	sh->bell.fd = -1;
	sh->posted_buf = NULL;
}

static int
shm_consumer_create(void *conn, const struct rte_comch_drv_consumer_conf *conf, void **priv)
{
	const struct shm_reg *reg = conf->reg;
	struct shm_consumer *sh;

	if (reg->memfd < 0)
		SHM_LOG(INFO, "consumer %u: the peer cannot map its memory (not allocated by "
			"rte_comch_mmap_alloc_memrange() on an shm device): it receives through a "
			"staging area, one more copy per message", conf->id);
	if (conf->mem_len > SHM_MAX_MMAP_BYTES) {
		SHM_LOG(ERR, "consumer: a peer maps at most %llu bytes of a consumer's memory, "
			"this mmap has %zu", SHM_MAX_MMAP_BYTES, conf->mem_len);
		return -ENOTSUP;
	}
	sh = calloc(1, sizeof(*sh));
	if (sh == NULL)
		return -ENOMEM;
	sh->sc = conn;
	sh->id = conf->id;
	sh->reg = reg;
	sh->bell.fd = -1;
	*priv = sh;
	return 0;
}

static void
shm_consumer_destroy(void *c)
{
	shm_consumer_ring_release(c);
	free(c);
}

/*
 * A fresh post ring for each start (nothing of an earlier run is left in it),
 * and the blob: the mmap's memfd, the post ring's, the producers' doorbell;
 * its data, the number of bounce chunks in the post ring.
 */
static int
shm_consumer_start(void *c, const struct rte_comch_drv_consumer_start *st,
		    struct rte_comch_drv_blob *blob)
{
	struct shm_consumer *sh = c;
	uint32_t nb_slots = rte_align32pow2(st->nb_posts);
	uint32_t nb_chunks = shm_fp_bounce_chunks(nb_slots, sh->sc->sd->bounce);
	struct shm_fp_hdr *hdr;
	int ring_fd = -1, peer_bell = -1, mem_fd;
	void *base;
	int rc;

	shm_consumer_ring_release(sh);
	sh->bytes = shm_fp_ring_bytes(nb_slots, nb_chunks);
	sh->posted_buf = calloc(nb_slots, sizeof(*sh->posted_buf));
	if (sh->posted_buf == NULL)
		return -ENOMEM;
	rc = shm_memfd_new("comch-post", sh->bytes, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL,
			   &ring_fd, &base);
	if (rc < 0)
		goto fail;
	sh->base = base;
	/* Of the same kind as the connections' (see shm_bell.c). */
	rc = shm_bell_create(sh->sc->sd->efd_bells, &sh->bell, &peer_bell);
	if (rc < 0)
		goto fail;
	shm_fds_keep(1);
	sh->bell_pe = st->pe;
	rc = rte_comch_drv_pe_wake_fd_add(sh->bell_pe, sh->bell.fd);
	if (rc < 0) {
		close(sh->bell.fd);
		shm_fds_keep(-1);
		sh->bell.fd = -1;
		goto fail;
	}
	if (sh->reg->memfd >= 0) {
		mem_fd = dup(sh->reg->memfd);
		rc = mem_fd < 0 ? -errno : 0;
	} else {
		/* Fresh each start: a peer late to let go of the last one writes there. */
		rc = shm_memfd_new("comch-stage", sh->reg->len,
				   F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL, &mem_fd, &base);
		sh->stage = rc == 0 ? base : NULL;
	}
	if (rc < 0)
		goto fail;
	hdr = (struct shm_fp_hdr *)(void *)sh->base;
	hdr->magic = SHM_FP_MAGIC;
	hdr->version = SHM_PROTO_VERSION;
	hdr->nb_slots = nb_slots;
	hdr->imm_len = st->imm_len;
	/* Our membarrier covers the producers' side only if our process could register too. */
	sh->membarrier = shm_barrier_asymmetric();
	sh->flush = shm_can_flush();
	hdr->flags = sh->membarrier ? SHM_FP_F_MEMBARRIER : 0;
	sh->posted_p = (uint32_t *)RTE_PTR_ADD(sh->base, SHM_FP_POSTED_OFF);
	sh->armed_p = (uint32_t *)RTE_PTR_ADD(sh->base, SHM_FP_ARMED_OFF);
	sh->posts = (struct shm_fp_post *)RTE_PTR_ADD(sh->base, SHM_FP_POSTS_OFF);
	sh->slots = (struct shm_fp_slot *)RTE_PTR_ADD(sh->base, shm_fp_slots_off(nb_slots));
	sh->mask = nb_slots - 1;
	sh->bounce = nb_chunks != 0 ? sh->base + shm_fp_bounce_off(nb_slots) : NULL;
	sh->bounce_mask = nb_chunks - 1;
	sh->posted = 0;
	sh->done = 0;
	sh->imm_len = st->imm_len;
	memcpy(blob->data, &nb_chunks, sizeof(nb_chunks));
	blob->len = sizeof(nb_chunks);
	blob->fds[0] = mem_fd;
	blob->fds[1] = ring_fd;
	blob->fds[2] = peer_bell;
	blob->nb_fds = 3;
	return 0;
fail:
	SHM_LOG(ERR, "consumer %u: cannot create its post ring: %s", sh->id, strerror(-rc));
	if (ring_fd >= 0)
		close(ring_fd);
	if (peer_bell >= 0)
		close(peer_bell);
	shm_consumer_ring_release(sh);
	return rc;
}

/*
 * A field of a post, stored only if it changes. The producer read the post's
 * line when it last filled it: a store takes the line back from its core, and
 * every store after it (in a ping-pong, the next message's slot) waits for
 * that round trip. A program that posts its buffers again in the order it got
 * them finds each post as it left it, lap after lap: the line stays in both
 * caches. The peer can write the ring too, before our comparison or after our
 * store alike: it only misdirects its own sends, which it checks against our
 * memory's bounds. Nothing of ours is read back from the ring.
 */
static inline void
shm_post_store(uint64_t *field, uint64_t v)
{
	if (comch_load_relaxed(field) != v)
		comch_store_relaxed(field, v);
}

/*
 * A buffer posted again (the program is done with it) still has the message
 * it held in our cache, where we read it: the producer's next copy into it
 * would wait for each of those lines to be taken back from our core, one
 * cross-core transfer per line. Dropped now, at our pace, they come from
 * memory instead, which the producer's core prefetches. Worth it while the
 * buffers posted fit in our cache, where that waiting happens, and for sizes
 * where a ping-pong does not wait longer for memory than for the peer's core
 * (SHM_FLUSH_MIN, SHM_FLUSH_MAX; measurements in the shm guide).
 */
static int
shm_consumer_post(void *c, const struct rte_comch_fp_post *posts, unsigned int n)
{
	struct shm_consumer *sh = c;
	struct shm_posted *pb;
	unsigned int k;
	uint64_t off;
	uint32_t i, flush;

	for (k = 0; k < n; k++) {
		i = (sh->posted + k) & sh->mask;
		pb = &sh->posted_buf[i];
		flush = sh->flush ? shm_flush_len(pb, &posts[k]) : 0;
		if (flush != 0)
			shm_flush_lines(pb->stage != NULL ? pb->stage : pb->addr, flush);
		pb->filled = 0;
		pb->addr = posts[k].addr;
		pb->len = posts[k].len;
		pb->cookie = posts[k].cookie;
		/*
		 * Where, as an offset into the memory the peer maps; how much. The
		 * library checked that it lies in the mmap: so does its staged copy.
		 */
		off = pb->addr != NULL ? (uint64_t)(pb->addr - sh->reg->addr) : 0;
		shm_post_store(&sh->posts[i].off, off);
		shm_post_store(&sh->posts[i].len, pb->len);
		pb->stage = sh->stage != NULL && pb->addr != NULL ? sh->stage + off : NULL;
	}
	/* One publication for the whole burst. */
	sh->posted += n;
	comch_store_release(sh->posted_p, sh->posted);
	return 0;
}

/* The slot the consumer expects next, if the producer published it. */
static inline const struct shm_fp_slot *
shm_consumer_next_filled(const struct shm_consumer *sh)
{
	const struct shm_fp_slot *slot = &sh->slots[sh->done & sh->mask];

	if (sh->done == sh->posted)
		return NULL;
	if (comch_load_acquire(&slot->seq) != sh->done + 1) {
		/*
		 * Not yet: keep the slot's second line too, so that when the
		 * producer writes both, both come over at once rather than the
		 * second only after the sequence number said the first is there.
		 */
		rte_prefetch0((const uint8_t *)slot + RTE_CACHE_LINE_SIZE);
		return NULL;
	}
	return slot;
}

static int
shm_consumer_poll(void *c, struct rte_comch_fp_cpl *cpl, unsigned int max)
{
	struct shm_consumer *sh = c;
	const struct shm_fp_slot *slot;
	const struct shm_posted *next;
	struct shm_posted *cur;
	uint32_t n, data_len, imm_len, flags;
	const uint8_t *bounced;

	for (n = 0; n < max; n++) {
		slot = shm_consumer_next_filled(sh);
		if (slot == NULL)
			break;
		/* Read once: the peer may change them under us. */
		data_len = comch_load_relaxed(&slot->data_len);
		imm_len = comch_load_relaxed(&slot->imm_len);
		flags = comch_load_relaxed(&slot->flags);
		cur = &sh->posted_buf[sh->done & sh->mask];
		bounced = NULL;
		if ((flags & SHM_FP_SLOT_BOUNCED) && sh->bounce != NULL &&
		    data_len <= SHM_FP_BOUNCE_MAX)
			bounced = shm_fp_chunk(sh->bounce, sh->bounce_mask, sh->done);
		if (data_len > cur->len || imm_len > sh->imm_len ||
		    (flags & ~SHM_FP_SLOT_BOUNCED) != 0 ||
		    ((flags & SHM_FP_SLOT_BOUNCED) && bounced == NULL)) {
			/*
			 * The fills before it are good and taken (done moved past
			 * them): they go first, the lie is reported at the next call.
			 */
			if (n > 0)
				break;
			SHM_LOG(ERR, "consumer %u: peer wrote more than the buffer holds, more "
				"than a bounce chunk, or flags we do not know", sh->id);
			return -EPROTO;
		}
		if (data_len > 0 && data_len <= SHM_FP_INLINE_MAX)
			rte_memcpy(cur->addr, slot->inline_data, data_len);
		else if (data_len > 0 && bounced != NULL)
			rte_memcpy(cur->addr, bounced, data_len);
		else if (data_len > 0 && cur->stage != NULL)
			rte_memcpy(cur->addr, cur->stage, data_len); /* staged: one more copy */
		/* What the peer wrote in the buffer: a bounce it did not touch. */
		cur->filled = data_len > SHM_FP_INLINE_MAX && bounced == NULL ? data_len : 0;
		cpl[n].cookie = cur->cookie;
		cpl[n].len = data_len;
		cpl[n].status = 0;
		cpl[n].imm_len = imm_len;
		cpl[n].producer_id = comch_load_relaxed(&slot->producer_id);
		rte_mov32(cpl[n].imm, slot->imm);
		sh->done++;
		/* Both lines come from the producer's core: start fetching the next ones now. */
		if (sh->done != sh->posted) {
			next = &sh->posted_buf[sh->done & sh->mask];
			rte_prefetch0(&sh->slots[sh->done & sh->mask]);
			/* A bounce is likely followed by another: its chunk, not the buffer. */
			if (bounced != NULL)
				rte_prefetch0(shm_fp_chunk(sh->bounce, sh->bounce_mask, sh->done));
			else if (next->addr != NULL)
				rte_prefetch0(next->stage != NULL ? next->stage : next->addr);
		}
	}
	return n;
}

static int
shm_consumer_flush(void *c, struct rte_comch_fp_cpl *cpl, unsigned int max)
{
	struct shm_consumer *sh = c;
	unsigned int n;
	uint32_t i;

	/*
	 * The peer may still write (the library gave up waiting for its
	 * confirmation): a post of no room takes no more data from a send that
	 * reads it from now on. A copy already under way in the peer cannot be
	 * stopped: the memory is mapped there. A staged consumer is safe either
	 * way: nothing is copied from its staging area after this.
	 */
	for (i = sh->done; i != sh->posted; i++)
		comch_store_relaxed(&sh->posts[i & sh->mask].len, 0);
	for (n = 0; n < max && sh->done != sh->posted; n++, sh->done++) {
		sh->posted_buf[sh->done & sh->mask].filled = 0;
		cpl[n].cookie = sh->posted_buf[sh->done & sh->mask].cookie;
		cpl[n].len = 0;
		cpl[n].imm_len = 0;
	}
	return n;
}

static int
shm_consumer_arm(void *c)
{
	struct shm_consumer *sh = c;

	if (sh->armed_p == NULL)
		return -EAGAIN;
	comch_store_relaxed(sh->armed_p, 1);
	/*
	 * Pairs with shm_producer_notify(): one of us sees the other. Our
	 * membarrier is the producers' barrier too (shm_barrier.c).
	 */
	if (sh->membarrier) {
		if (shm_barrier_consumer() < 0)
			return -EAGAIN;
	} else {
		comch_fence_seq_cst();
	}
	return shm_consumer_next_filled(sh) != NULL ? -EAGAIN : 0;
}

static void
shm_consumer_disarm(void *c)
{
	struct shm_consumer *sh = c;

	if (sh->armed_p == NULL)
		return;
	if (comch_load_relaxed(sh->armed_p) != 0)
		comch_store_relaxed(sh->armed_p, 0);
	shm_bell_drain(&sh->bell);
}

const struct rte_comch_drv_consumer_ops shm_consumer_ops = {
	.create = shm_consumer_create,
	.destroy = shm_consumer_destroy,
	.start = shm_consumer_start,
	.post = shm_consumer_post,
	.poll = shm_consumer_poll,
	.flush = shm_consumer_flush,
	.arm = shm_consumer_arm,
	.disarm = shm_consumer_disarm,
};

/* ------------------------------------------------------------------ peer's consumers */

/*
 * Refuse what would go past a budget: -EMFILE (descriptors) or -ENOSPC
 * (mappings). Else the peer process is charged for it: refund it when the
 * consumer is unmapped, or if the import fails after all.
 */
static int
shm_import_budget(struct shm_conn *sc, uint64_t bytes)
{
	const struct shm_dev *sd = sc->sd;

	if (sc->nb_peer_fds + 1 > sd->peer_fds) {
		SHM_LOG(NOTICE, "peer consumer refused: the connection holds %u of its %u "
			"descriptors", sc->nb_peer_fds, sd->peer_fds);
		return -EMFILE;
	}
	if (sc->peer_bytes + bytes > sd->peer_map) {
		SHM_LOG(NOTICE, "peer consumer refused: the connection maps %" PRIu64 " of its %"
			PRIu64 " bytes, it asks %" PRIu64, sc->peer_bytes, sd->peer_map, bytes);
		return -ENOSPC;
	}
	if (comch_load_relaxed(&shm_peer_maps) + 2 > shm_max_peer_maps) {
		SHM_LOG(NOTICE, "peer consumer refused: the process maps %u peers' memories, "
			"half of the kernel's limit", shm_peer_maps);
		return -ENOSPC;
	}
	if (shm_fds_free() < sd->fd_reserve + 1) {
		SHM_LOG(NOTICE, "peer consumer refused: fewer than %u descriptors would be left "
			"free in the process", sd->fd_reserve);
		return -EMFILE;
	}
	return shm_peer_charge(sc->sd, sc->peer, bytes);
}

static void
shm_remote_unmap(struct shm_conn *sc, struct shm_remote *rc)
{
	munmap(rc->mem, rc->mem_len);
	munmap(rc->ring, rc->ring_bytes);
	close(rc->bell.fd);
	shm_fds_keep(-1);
	sc->nb_peer_fds--;
	sc->peer_bytes -= rc->mem_len + rc->ring_bytes;
	shm_peer_refund(sc->sd, sc->peer, rc->mem_len + rc->ring_bytes);
	comch_fetch_sub_release(&shm_peer_maps, 2);
}

static int
shm_producer_import(void *conn, const struct rte_comch_drv_remote_conf *conf,
		    struct rte_comch_drv_blob *blob, struct rte_comch_drv_blob *reply,
		    void **remote)
{
	struct shm_conn *sc = conn;
	uint32_t nb_slots = rte_align32pow2(conf->nb_posts);
	const struct shm_fp_hdr *hdr;
	uint32_t nb_chunks = 0;
	size_t ring_bytes = 0;
	struct shm_remote *rc;
	bool charged = false;
	int ret = -EPROTO;

	rc = calloc(1, sizeof(*rc));
	if (rc == NULL) {
		shm_close_fds(blob->fds, blob->nb_fds);
		return -ENOMEM;
	}
	rc->bell.fd = -1;
	/* No data: a consumer without a bounce area. */
	if (blob->len == sizeof(nb_chunks))
		memcpy(&nb_chunks, blob->data, sizeof(nb_chunks));
	if (blob->nb_fds != 3 || (blob->len != 0 && blob->len != sizeof(nb_chunks)) ||
	    conf->mem_len > SHM_MAX_MMAP_BYTES || !shm_fp_bounce_chunks_ok(nb_slots, nb_chunks)) {
		SHM_LOG(ERR, "peer consumer: %u descriptors, %u bytes of blob, %" PRIu64
			" bytes of memory, %u bounce chunks for %u slots", blob->nb_fds, blob->len,
			conf->mem_len, nb_chunks, nb_slots);
		goto fail;
	}
	/* Sized from the chunk count only once it is one of ours. */
	ring_bytes = shm_fp_ring_bytes(nb_slots, nb_chunks);
	ret = shm_import_budget(sc, conf->mem_len + ring_bytes);
	if (ret < 0)
		goto fail;
	charged = true;
	ret = -EPROTO;
	if (shm_bell_adopt(blob->fds[2], sc->sd->efd_bells, &rc->bell) < 0) {
		SHM_LOG(ERR, "peer consumer: its doorbell is not a Unix datagram socket%s",
			sc->sd->efd_bells ? " nor an eventfd" : "");
		goto fail;
	}
	blob->fds[2] = -1; /* ours now: closed when the consumer is unmapped */
	shm_fds_keep(1);
	rc->mem = shm_memfd_map_peer(blob->fds[0], conf->mem_len, "consumer memory");
	rc->ring = rc->mem != NULL ? shm_memfd_map_peer(blob->fds[1], ring_bytes, "post ring") :
				      NULL;
	if (rc->ring == NULL)
		goto fail;
	hdr = (const struct shm_fp_hdr *)(void *)rc->ring;
	if (hdr->magic != SHM_FP_MAGIC || hdr->version != SHM_PROTO_VERSION ||
	    hdr->nb_slots != nb_slots) {
		SHM_LOG(ERR, "peer consumer: its post ring does not match what it announced");
		goto fail;
	}
	shm_close_fds(blob->fds, 2); /* mapped: the mappings outlive them */
	rc->mem_len = conf->mem_len;
	rc->ring_bytes = ring_bytes;
	rc->posts = (const struct shm_fp_post *)RTE_PTR_ADD(rc->ring, SHM_FP_POSTS_OFF);
	rc->slots = (struct shm_fp_slot *)RTE_PTR_ADD(rc->ring, shm_fp_slots_off(nb_slots));
	rc->posted_p = (uint32_t *)RTE_PTR_ADD(rc->ring, SHM_FP_POSTED_OFF);
	rc->armed_p = (uint32_t *)RTE_PTR_ADD(rc->ring, SHM_FP_ARMED_OFF);
	rc->nb_slots = nb_slots;
	rc->mask = nb_slots - 1;
	rc->nt_min = sc->sd->nt_min != 0 ? sc->sd->nt_min : SIZE_MAX;
	shm_copy_pick_init(&rc->pick, sc->sd->nt_auto != 0, 2, SHM_COPY_NT);
	rc->bounce = nb_chunks != 0 ? rc->ring + shm_fp_bounce_off(nb_slots) : NULL;
	rc->bounce_mask = nb_chunks - 1;
	shm_copy_pick_init(&rc->pick_bounce, sc->sd->nt_auto != 0, 3, SHM_COPY_BOUNCE);
	/* Read once: a consumer that lies about it only misses its own wake-ups. */
	rc->fence = !((comch_load_relaxed(&hdr->flags) & SHM_FP_F_MEMBARRIER) &&
		      shm_barrier_asymmetric());
	sc->nb_peer_fds++;
	sc->peer_bytes += rc->mem_len + rc->ring_bytes;
	comch_fetch_add_relaxed(&shm_peer_maps, 2);
	*remote = rc;
	return 0;
fail:
	if (rc->ring != NULL)
		munmap(rc->ring, ring_bytes);
	if (rc->mem != NULL)
		munmap(rc->mem, conf->mem_len);
	if (rc->bell.fd >= 0) {
		close(rc->bell.fd);
		shm_fds_keep(-1);
	}
	if (charged)
		shm_peer_refund(sc->sd, sc->peer, conf->mem_len + ring_bytes);
	shm_close_fds(blob->fds, blob->nb_fds);
	free(rc);
	return ret;
}

static void
shm_producer_unimport(void *conn, void *remote)
{
	shm_remote_unmap(conn, remote);
	free(remote);
}

/* ------------------------------------------------------------------ producer */

/*
 * Copy a message of more than SHM_FP_INLINE_MAX bytes into the buffer at off,
 * or into the bounce chunk of the fill: the way the picks say. Returns the
 * slot's flags. Out of line: the small messages' path stays short.
 */
static __rte_noinline uint32_t
shm_producer_copy_data(struct shm_remote *rc, uint64_t off, const struct rte_comch_fp_msg *msg)
{
	uint8_t *chunk;

	if (msg->len <= SHM_FP_BOUNCE_MAX && rc->bounce != NULL) {
		chunk = shm_fp_chunk(rc->bounce, rc->bounce_mask, rc->taken);
		if (shm_copy_picked(&rc->pick_bounce, rc->mem + off, chunk, msg->data, msg->len,
				    rc->nt_min) == SHM_COPY_BOUNCE)
			return SHM_FP_SLOT_BOUNCED;
	} else if (msg->len >= rc->nt_min) {
		shm_copy_picked(&rc->pick, rc->mem + off, NULL, msg->data, msg->len, rc->nt_min);
	} else {
		rte_memcpy(rc->mem + off, msg->data, msg->len);
	}
	return 0;
}

/* One message into the consumer's next posted buffer: 0, or -EAGAIN, -EMSGSIZE, -EPROTO. */
static inline int
shm_producer_send_one(struct shm_remote *rc, uint32_t producer_id,
		      const struct rte_comch_fp_msg *msg)
{
	struct shm_fp_slot *slot;
	uint64_t off, blen;
	uint32_t posted, flags = 0;

	/* The consumer's line is a miss each time: read it only when what we saw is used up. */
	if (rc->posted == rc->taken) {
		posted = comch_load_acquire(rc->posted_p);
		if (unlikely((uint32_t)(posted - rc->taken) > rc->nb_slots)) {
			SHM_LOG(ERR, "peer consumer: posted index out of range");
			return -EPROTO;
		}
		if (posted == rc->taken)
			return -EAGAIN;
		rc->posted = posted;
		rc->most_ahead = RTE_MAX(rc->most_ahead, posted - rc->taken);
		rc->stream = posted - rc->taken < rc->most_ahead;
	}
	slot = &rc->slots[rc->taken & rc->mask];
	/* Read once and check: the consumer may change them under us. */
	off = comch_load_relaxed(&rc->posts[rc->taken & rc->mask].off);
	blen = comch_load_relaxed(&rc->posts[rc->taken & rc->mask].len);
	if (unlikely(off > rc->mem_len || blen > rc->mem_len - off)) {
		SHM_LOG(ERR, "peer consumer: buffer outside its memory");
		return -EPROTO;
	}
	if (msg->len > blen)
		return -EMSGSIZE;
	if (msg->len <= SHM_FP_INLINE_MAX)
		rte_memcpy(slot->inline_data, msg->data, msg->len);
	else
		flags = shm_producer_copy_data(rc, off, msg);
	slot->flags = flags;
	slot->data_len = msg->len;
	slot->imm_len = msg->imm_len;
	slot->producer_id = producer_id;
	/*
	 * Fixed-size copies, the slot's line being written anyway: 16 bytes, and the
	 * other 16 only when they count. Not one 32-byte load: the application
	 * stored the immediate data just before, 16 bytes or less at a time, and a
	 * load wider than that store cannot be forwarded from it (a stall).
	 */
	rte_mov16(slot->imm, msg->imm);
	if (msg->imm_len > 16)
		rte_mov16(slot->imm + 16, msg->imm + 16);
	rc->taken++;
	comch_store_release(&slot->seq, rc->taken);
	/*
	 * The next slot sits in the consumer's cache, where it read it a lap ago:
	 * ask for it now, so the next send does not stall on it. Only when we
	 * know it is posted. In a stream (the consumer lags: fewer buffers
	 * posted ahead at the last re-read than it once had), for writing
	 * (rte_prefetch0_write() is a read prefetch with DPDK's default -march:
	 * the store would wait for a second transfer to own the line, and the
	 * next locked instruction for the store): fp-stream 64 B task API, 10
	 * pairs, 1.55x at burst 32 and 1.34x at burst 1; burst API unchanged.
	 * Otherwise (a ping-pong: every buffer posted again by the time we look)
	 * for reading: there the consumer reads the next slot as soon as it took
	 * this one, and owning the line then costs the consumer a transfer
	 * (fp-lat 64 B 5-10% longer, 12 pairs). Not at all in a ping-pong with a
	 * single buffer: the consumer polls that slot's sequence number, and
	 * taking the line from under it costs a transfer each way (+40 ns a round
	 * trip). The post is worth reading early in any case: its line holds no
	 * other post, so nothing the consumer does short of posting that very
	 * buffer takes the line back.
	 */
	if (rc->taken != rc->posted) {
		struct shm_fp_slot *next = &rc->slots[rc->taken & rc->mask];

		if (rc->stream) {
			comch_prefetch_for_write(next);
			comch_prefetch_for_write(next->inline_data + SHM_FP_INLINE_MAX - 1);
		} else {
			rte_prefetch0_write(next);
			rte_prefetch0_write(next->inline_data + SHM_FP_INLINE_MAX - 1);
		}
	}
	rte_prefetch0(&rc->posts[rc->taken & rc->mask]);
	return 0;
}

static int
shm_producer_send(void *p, void *remote, uint32_t producer_id, const void *src_reg,
		  const struct rte_comch_fp_msg *msgs, unsigned int n)
{
	unsigned int i;
	int rc = 0;

	for (i = 0; i < n; i++) {
		rc = shm_producer_send_one(remote, producer_id, &msgs[i]);
		if (unlikely(rc < 0))
			break;
	}
	/* What went is reported; an error stops the burst and comes back with the next one. */
	return i > 0 ? (int)i : rc;
}

static void
shm_producer_notify(void *p, void *remote)
{
	struct shm_remote *rc = remote;

	/*
	 * Our slot stores before its armed word: pairs with shm_consumer_arm().
	 * Without the fence (the consumer's membarrier stands for it), the
	 * compiler must still keep the load after the stores.
	 */
	if (rc->fence)
		comch_fence_seq_cst();
	else
		rte_compiler_barrier();
	if (comch_load_relaxed(rc->armed_p) != 0)
		shm_bell_ring(&rc->bell);
}

const struct rte_comch_drv_producer_ops shm_producer_ops = {
	.import = shm_producer_import,
	.unimport = shm_producer_unimport,
	.create = NULL, /* a producer needs no state: its id comes with each send */
	.send = shm_producer_send,
	.notify = shm_producer_notify,
	.completed = NULL, /* a send is done when it returns: the copy is made */
};

RTE_INIT(shm_fast_init)
{
	unsigned long max_maps = 65530; /* the kernel's default */
	FILE *f = fopen("/proc/sys/vm/max_map_count", "r");

	if (f != NULL) {
		if (fscanf(f, "%lu", &max_maps) != 1)
			max_maps = 65530;
		fclose(f);
	}
	shm_max_peer_maps = (uint32_t)RTE_MIN(max_maps / 2, (unsigned long)UINT32_MAX);
}
