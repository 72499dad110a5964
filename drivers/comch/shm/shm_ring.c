/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Single-producer single-consumer message ring in a sealed memfd.
 *
 * The receiver creates its ring and hands the memfd to the sender, who writes
 * messages straight into the slots (the only copy), publishing each with the
 * sequence number in its slot. The receiver trusts nothing it reads back:
 * geometry comes from its own copy, a sequence number must be the next one or
 * the last lap's, and each length at most the max message size. The sender
 * likewise checks that the consumer index only moves forward, up to what it wrote.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_atomic.h>
#include <rte_common.h>
#include <rte_memcpy.h>

#include "shm_internal.h"

static inline uint8_t *
shm_ring_slot(const struct shm_ring *r, uint32_t index)
{
	return r->base + SHM_RING_SLOTS_OFF + (size_t)(index & r->mask) * r->slot_size;
}

static int
shm_ring_geometry(struct shm_ring *r, uint32_t capacity, uint32_t max_msg)
{
	uint32_t nb_slots = rte_align32pow2(capacity);

	if (capacity == 0 || capacity > SHM_MAX_RECV_QUEUE || max_msg > SHM_MAX_MSG_SIZE)
		return -EINVAL;
	r->capacity = capacity;
	r->mask = nb_slots - 1;
	r->max_msg = max_msg;
	r->slot_size = RTE_ALIGN_CEIL(SHM_SLOT_HDR + max_msg, RTE_CACHE_LINE_SIZE);
	r->bytes = RTE_ALIGN_CEIL(SHM_RING_SLOTS_OFF + (size_t)nb_slots * r->slot_size,
				  (size_t)sysconf(_SC_PAGESIZE));
	return 0;
}

/* Our pointers into a mapped ring, and a fresh start of the indexes. */
static void
shm_ring_set_base(struct shm_ring *r, uint8_t *base)
{
	r->base = base;
	r->cons = (uint32_t *)RTE_PTR_ADD(r->base, SHM_RING_CONS_OFF);
	r->armed = (uint32_t *)RTE_PTR_ADD(r->base, SHM_RING_ARMED_OFF);
	r->tx_armed = (uint32_t *)RTE_PTR_ADD(r->base, SHM_RING_TX_ARMED_OFF);
	r->head = 0;
	r->seen = 0;
	r->done = 0;
	r->polled = 0;
}

int
shm_ring_create(struct shm_ring *r, uint32_t capacity, uint32_t max_msg, bool efd_bell)
{
	struct shm_ring_hdr *hdr;
	void *base;
	int rc;

	memset(r, 0, sizeof(*r));
	r->memfd = -1;
	r->bell.fd = -1;
	r->peer_bell = -1;
	shm_ring_set_copy(r, 0, false); /* we receive on it: it never sends */
	rc = shm_ring_geometry(r, capacity, max_msg);
	if (rc < 0)
		return rc;
	/* The peer maps this too: sealed, it cannot shrink it under us (SIGBUS). */
	rc = shm_memfd_new("comch-ring", r->bytes, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL,
			   &r->memfd, &base);
	if (rc == 0)
		rc = shm_bell_create(efd_bell, &r->bell, &r->peer_bell);
	if (rc == 0)
		shm_fds_keep(1); /* our doorbell; the rest goes to the peer */
	if (rc < 0) {
		SHM_LOG(ERR, "cannot create a ring of %u x %u bytes: %s", capacity, max_msg,
			strerror(-rc));
		if (r->memfd >= 0)
			munmap(base, r->bytes);
		shm_ring_release(r);
		return rc;
	}
	shm_ring_set_base(r, base);
	/*
	 * The slots are left as the memfd made them, zero: a slot's pages become
	 * resident only when a message is first written there (see
	 * shm_ring_rx_state() for how a zero reads).
	 */
	hdr = (struct shm_ring_hdr *)(void *)r->base;
	hdr->magic = SHM_RING_MAGIC;
	hdr->version = SHM_PROTO_VERSION;
	hdr->capacity = capacity;
	hdr->nb_slots = r->mask + 1;
	hdr->slot_size = r->slot_size;
	hdr->max_msg = max_msg;
	/* Our membarrier covers the sender's side only if its process can register too. */
	r->membarrier = shm_barrier_asymmetric();
	hdr->flags = r->membarrier ? SHM_RING_F_MEMBARRIER : 0;
	r->flush = max_msg >= SHM_FLUSH_MIN && shm_can_flush();
	return 0;
}

int
shm_ring_attach(struct shm_ring *r, int memfd, int bell, uint32_t capacity, uint32_t max_msg,
		bool allow_efd_bell)
{
	const struct shm_ring_hdr *hdr;
	void *base;

	memset(r, 0, sizeof(*r));
	r->memfd = memfd;
	r->bell.fd = bell;
	r->peer_bell = -1;
	shm_ring_set_copy(r, 0, false); /* ordinary copies, until the connection says */
	shm_fds_keep(1); /* the doorbell is ours to keep or close now */
	if (shm_ring_geometry(r, capacity, max_msg) < 0) {
		SHM_LOG(ERR, "peer ring: capacity %u or message size %u out of range",
			capacity, max_msg);
		return -EPROTO;
	}
	if (shm_bell_adopt(bell, allow_efd_bell, &r->bell) < 0) {
		SHM_LOG(ERR, "peer ring: doorbell is not a Unix datagram socket%s",
			allow_efd_bell ? " nor an eventfd" : "");
		return -EPROTO;
	}
	base = shm_memfd_map_peer(memfd, r->bytes, "ring");
	if (base == NULL)
		return -EPROTO;
	shm_ring_set_base(r, base);
	/* Mapped: the mapping outlives the descriptor. */
	close(r->memfd);
	r->memfd = -1;
	hdr = (const struct shm_ring_hdr *)(void *)r->base;
	if (hdr->magic != SHM_RING_MAGIC || hdr->version != SHM_PROTO_VERSION ||
	    hdr->capacity != capacity || hdr->nb_slots != r->mask + 1 ||
	    hdr->slot_size != r->slot_size || hdr->max_msg != max_msg ||
	    comch_load_acquire(r->cons) != 0) {
		/* A ring starts empty, at 0: that is where its receiver reads first. */
		SHM_LOG(ERR, "peer ring: header does not match the agreed geometry, or not empty");
		munmap(r->base, r->bytes);
		r->base = NULL;
		return -EPROTO;
	}
	/* Read once: the peer's word counts as it was when we attached. */
	r->fence = !((comch_load_relaxed(&hdr->flags) & SHM_RING_F_MEMBARRIER) &&
		     shm_barrier_asymmetric());
	return 0;
}

void
shm_ring_handed_over(struct shm_ring *r)
{
	if (r->memfd >= 0)
		close(r->memfd);
	if (r->peer_bell >= 0)
		close(r->peer_bell);
	r->memfd = -1;
	r->peer_bell = -1;
}

void
shm_ring_release(struct shm_ring *r)
{
	if (r->base != NULL)
		munmap(r->base, r->bytes);
	shm_ring_handed_over(r);
	if (r->bell.fd >= 0) {
		close(r->bell.fd);
		shm_fds_keep(-1);
	}
	r->base = NULL;
	r->bell.fd = -1;
}

/* Refresh the consumer index, refusing one that moves back or past what we wrote. */
static inline int
shm_ring_refresh_seen(struct shm_ring *r)
{
	uint32_t c = comch_load_acquire(r->cons);

	if (unlikely((uint32_t)(c - r->seen) > (uint32_t)(r->head - r->seen))) {
		SHM_LOG(ERR, "peer moved its consumer index to %u (taken %u, written %u)",
			c, r->seen, r->head);
		return -EPROTO;
	}
	r->seen = c;
	return 0;
}

void
shm_ring_set_copy(struct shm_ring *r, uint32_t nt_min, bool nt_auto)
{
	r->nt_min = nt_min != 0 ? RTE_MAX((size_t)nt_min, (size_t)SHM_FLUSH_MAX + 1) : SIZE_MAX;
	shm_copy_pick_init(&r->pick, nt_auto, 2, SHM_COPY_ORDINARY);
}

/* A message of nt_min bytes or more. Out of line: the small messages' send stays short. */
static __rte_noinline void
shm_ring_copy_picked(struct shm_ring *r, uint8_t *dst, const void *msg, uint32_t len)
{
	shm_copy_picked(&r->pick, dst, NULL, msg, len, r->nt_min);
}

int
shm_ring_send(struct shm_ring *r, const void *msg, uint32_t len)
{
	uint8_t *slot;

	/*
	 * In flight is what the library has not been told is taken (done), not what
	 * the peer has taken (seen): the library's queue of tasks holds exactly that.
	 */
	if (unlikely(r->head - r->done >= r->capacity))
		return -EAGAIN;
	slot = shm_ring_slot(r, r->head);
	*(uint32_t *)(void *)slot = len;
	if (len >= r->nt_min)
		shm_ring_copy_picked(r, slot + SHM_SLOT_HDR, msg, len);
	else
		rte_memcpy(slot + SHM_SLOT_HDR, msg, len);
	r->head++;
	/* Published last: the receiver polls this word, in a line it reads anyway. */
	comch_store_release((uint32_t *)RTE_PTR_ADD(slot, SHM_SLOT_SEQ), r->head);
	r->kick = true;
	return 0;
}

int
shm_ring_tx_reap(struct shm_ring *r, uint32_t *n)
{
	int rc;

	*n = 0;
	if (r->done == r->head)
		return 0;
	rc = shm_ring_refresh_seen(r);
	if (rc < 0)
		return rc;
	*n = r->seen - r->done;
	r->done = r->seen;
	return 0;
}

int
shm_ring_tx_poll(struct shm_ring *r, bool all, uint32_t *n)
{
	bool sent = r->head != r->polled;

	r->polled = r->head;
	/*
	 * The consumer index is on the peer's line, a miss each time it moved.
	 * A stream reads it when half the ring is in flight, not after every
	 * send; a poll with nothing sent since the last one reads it, so a
	 * sender that pauses learns what was taken one round later.
	 */
	if (!all && sent && r->head - r->done < (r->capacity + 1) / 2) {
		*n = 0;
		return 0;
	}
	return shm_ring_tx_reap(r, n);
}

/*
 * The state of slot idx, the receiver's next or a later one: 1 if a message waits in it, 0
 * if the sender has not written it yet, -EPROTO for any other sequence number.
 * A slot not written yet holds the sequence number of the lap before, head + 1
 * - nb_slots (across the wrap of the 32-bit index too), or, in the ring's first
 * lap, the zero it was created with. A written slot never holds zero in the
 * first lap (its number is head + 1 <= nb_slots), so there is no ambiguity.
 */
static inline int
shm_ring_rx_state(const struct shm_ring *r, uint32_t idx)
{
	const uint8_t *slot = shm_ring_slot(r, idx);
	uint32_t seq = comch_load_acquire((const uint32_t *)RTE_PTR_ADD(slot, SHM_SLOT_SEQ));

	if (seq == idx + 1)
		return 1;
	if (seq == idx - r->mask || (seq == 0 && idx <= r->mask))
		return 0;
	SHM_LOG(ERR, "peer wrote sequence number %u in slot %u, expected %u or the one before",
		seq, idx & r->mask, idx + 1);
	return -EPROTO;
}

bool
shm_ring_rx_pending(const struct shm_ring *r)
{
	return shm_ring_rx_state(r, r->head) != 0;
}

int
shm_ring_rx_peek(const struct shm_ring *r, struct rte_comch_drv_msg *msgs, unsigned int max)
{
	const uint8_t *slot;
	uint32_t idx = r->head, len;
	unsigned int n;
	int rc;

	for (n = 0; n < max; n++, idx++) {
		rc = shm_ring_rx_state(r, idx);
		if (rc < 0)
			return n > 0 ? (int)n : rc; /* deliver the good ones first */
		if (rc == 0)
			break;
		slot = shm_ring_slot(r, idx);
		/* Read once: the peer can change it under us. */
		len = comch_load_relaxed((const uint32_t *)(const void *)slot);
		if (unlikely(len > r->max_msg)) {
			SHM_LOG(ERR, "peer wrote a %u-byte message, max is %u", len, r->max_msg);
			return n > 0 ? (int)n : -EPROTO;
		}
		msgs[n].data = slot + SHM_SLOT_HDR;
		msgs[n].len = len;
	}
	return n;
}

void
shm_ring_rx_release(struct shm_ring *r, unsigned int n)
{
	const uint8_t *slot;
	uint32_t i, len;

	if (n == 0)
		return;
	/*
	 * Taken: a message of 2 to 4 KiB leaves our cache before the sender
	 * may write its slot again (see shm_flush.h). Its length is the peer's
	 * word: bounded by the slot, it can only make us flush our own ring.
	 */
	if (r->flush) {
		for (i = 0; i < n; i++) {
			slot = shm_ring_slot(r, r->head + i);
			len = comch_load_relaxed((const uint32_t *)(const void *)slot);
			if (shm_flush_size_ok(len) && len <= r->max_msg)
				shm_flush_lines(slot, SHM_SLOT_HDR + len);
		}
	}
	r->head += n;
	/* Once per burst: the sender polls this line, it need not bounce per message. */
	comch_store_release(r->cons, r->head);
	if (r->ack_kick == SHM_ACK_NONE)
		r->ack_kick = SHM_ACK_FRESH;
}

/*
 * The wake-up protocol, both ways. A side about to sleep sets its flags, then a
 * full fence, then looks for work; a side that wrote (or took) messages does a
 * full fence, then looks at the flags. Of two such sides, at least one sees the
 * other: either the sleeper finds the work, or the worker rings.
 */
static inline bool
shm_ring_pair_owes_bell(const struct shm_ring *rx, const struct shm_ring *tx)
{
	return (tx->kick && comch_load_relaxed(tx->armed) != 0) ||
	       (rx->ack_kick != SHM_ACK_NONE &&
		comch_load_relaxed(rx->tx_armed) != 0);
}

void
shm_ring_pair_kick(struct shm_ring *rx, struct shm_ring *tx)
{
	bool ring;

	if (likely(!tx->kick && rx->ack_kick != SHM_ACK_DUE)) {
		/*
		 * Taken this round, nothing sent: wait a round before telling the
		 * peer, in case an answer follows; arming checks it before sleeping.
		 */
		if (rx->ack_kick == SHM_ACK_FRESH)
			rx->ack_kick = SHM_ACK_DUE;
		return;
	}
	/*
	 * Both flags are the peer's, set before its barrier: with membarrier,
	 * its barrier is ours too, and only the compiler must keep the order.
	 */
	if (tx->fence)
		comch_fence_seq_cst();
	else
		rte_compiler_barrier();
	ring = shm_ring_pair_owes_bell(rx, tx);
	tx->kick = false;
	rx->ack_kick = SHM_ACK_NONE;
	if (unlikely(ring))
		shm_bell_ring(&tx->bell);
}

int
shm_ring_pair_arm(struct shm_ring *rx, struct shm_ring *tx, bool recv)
{
	bool in_flight = tx->done != tx->head;

	/* Not receiving: the peer's messages wait in rx without ringing us. */
	if (recv)
		comch_store_relaxed(rx->armed, 1);
	if (in_flight)
		comch_store_relaxed(tx->tx_armed, 1);
	/*
	 * The peer skips its fence on our word (rx's flags): then our
	 * membarrier is its barrier, and a full one for us.
	 */
	if (!rx->membarrier)
		comch_fence_seq_cst();
	else if (shm_barrier_consumer() < 0)
		return -EAGAIN;
	/* What we owe the peer before we sleep: the barrier above serves both. */
	if (shm_ring_pair_owes_bell(rx, tx))
		shm_bell_ring(&tx->bell);
	tx->kick = false;
	rx->ack_kick = SHM_ACK_NONE;
	if (recv && shm_ring_rx_pending(rx))
		return -EAGAIN;
	if (in_flight && comch_load_acquire(tx->cons) != tx->done)
		return -EAGAIN;
	return 0;
}

void
shm_ring_pair_disarm(struct shm_ring *rx, struct shm_ring *tx)
{
	comch_store_relaxed(rx->armed, 0);
	if (comch_load_relaxed(tx->tx_armed) != 0)
		comch_store_relaxed(tx->tx_armed, 0);
	shm_bell_drain(&rx->bell); /* the wake-up, if any: consumed */
}
