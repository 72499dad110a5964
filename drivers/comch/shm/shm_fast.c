/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Fast path of the shm driver.
 *
 * A consumer advertises two memfds to the peer: its mmap's memory and a post
 * ring (sealed, ours). It posts buffers as (offset, length) slots; a producer on
 * the peer takes the next slot under a per-consumer lock, copies its message
 * straight into that buffer (the one copy), writes length, immediate data and
 * its id into the slot, and publishes the fill with the slot's sequence number.
 * Each side checks what the other wrote before using it: the producer that the
 * slot lies inside the memory it mapped, the consumer that lengths stay within
 * what it posted (it only ever looks at slots it posted). On expiry the peer
 * unmaps under the lock and acknowledges, so the consumer knows no producer
 * writes into its buffers any more.
 *
 * A consumer that sleeps sets the armed word of its post ring; producers ring
 * its doorbell (see shm_bell.c; its end in the consumer engine's epoll
 * set) from their next progress after filling, behind one fence per burst.
 */

#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_atomic.h>
#include <rte_common.h>
#include <rte_memcpy.h>
#include <rte_prefetch.h>
#include <rte_ticketlock.h>

#include "shm_internal.h"

static size_t
shm_fp_ring_bytes(uint32_t nb_slots)
{
	return RTE_ALIGN_CEIL(SHM_FP_SLOTS_OFF + (size_t)nb_slots * sizeof(struct shm_fp_slot),
			      (size_t)sysconf(_SC_PAGESIZE));
}

static void
shm_consumer_ring_release(struct shm_consumer *sh)
{
	if (sh->base != NULL)
		munmap(sh->base, sh->bytes);
	if (sh->memfd >= 0)
		close(sh->memfd);
	if (sh->bell.fd >= 0) {
		comch_pe_wake_fd_del(sh->bell_pe, sh->bell.fd);
		close(sh->bell.fd);
	}
	if (sh->peer_bell >= 0)
		close(sh->peer_bell);
	free(sh->posted_buf);
	sh->base = NULL;
	sh->armed_p = NULL;
	sh->memfd = -1;
	sh->bell.fd = -1;
	sh->peer_bell = -1;
	sh->posted_buf = NULL;
}

int
shm_consumer_create(struct rte_comch_consumer *c)
{
	struct shm_consumer *sh;

	if (c->mmap->memfd < 0) {
		SHM_LOG(ERR, "consumer: the peer cannot map this mmap's memory: allocate it with "
			"rte_comch_mmap_alloc_memrange()");
		return -ENOTSUP;
	}
	if (c->mmap->len > SHM_MAX_MMAP_BYTES) {
		SHM_LOG(ERR, "consumer: a peer maps at most %llu bytes of a consumer's memory, "
			"this mmap has %zu", SHM_MAX_MMAP_BYTES, c->mmap->len);
		return -ENOTSUP;
	}
	sh = calloc(1, sizeof(*sh));
	if (sh == NULL)
		return -ENOMEM;
	sh->memfd = -1;
	sh->bell.fd = -1;
	sh->peer_bell = -1;
	sh->mem = c->mmap->addr;
	c->priv = sh;
	return 0;
}

void
shm_consumer_destroy(struct rte_comch_consumer *c)
{
	struct shm_consumer *sh = c->priv;

	shm_consumer_ring_release(sh);
	free(sh);
	c->priv = NULL;
}

/* A fresh post ring for each start: nothing of an earlier run is left in it. */
static int
shm_consumer_ring_create(struct rte_comch_consumer *c, struct shm_consumer *sh)
{
	uint32_t nb_slots = rte_align32pow2(c->tasks.nb);
	const struct shm_dev *sd = c->ctx.dev->priv;
	struct shm_fp_hdr *hdr;
	int rc;

	shm_consumer_ring_release(sh);
	sh->bytes = shm_fp_ring_bytes(nb_slots);
	sh->posted_buf = calloc(nb_slots, sizeof(*sh->posted_buf));
	sh->memfd = memfd_create("comch-post", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (sh->posted_buf == NULL || sh->memfd < 0 || ftruncate(sh->memfd, sh->bytes) < 0 ||
	    fcntl(sh->memfd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) < 0)
		goto fail;
	sh->base = mmap(NULL, sh->bytes, PROT_READ | PROT_WRITE, MAP_SHARED, sh->memfd, 0);
	if (sh->base == MAP_FAILED) {
		sh->base = NULL;
		goto fail;
	}
	/* Of the same kind as the connections' (see shm_bell.c). */
	rc = shm_bell_create(sd->efd_bells, &sh->bell, &sh->peer_bell);
	if (rc < 0) {
		errno = -rc;
		goto fail;
	}
	sh->bell_pe = c->ctx.pe;
	if (comch_pe_wake_fd_add(sh->bell_pe, sh->bell.fd) < 0) {
		close(sh->bell.fd);
		sh->bell.fd = -1;
		goto fail;
	}
	hdr = (struct shm_fp_hdr *)sh->base;
	hdr->magic = SHM_FP_MAGIC;
	hdr->version = SHM_PROTO_VERSION;
	hdr->nb_slots = nb_slots;
	hdr->imm_len = c->imm_len;
	sh->posted_p = (uint32_t *)(sh->base + SHM_FP_POSTED_OFF);
	sh->armed_p = (uint32_t *)(sh->base + SHM_FP_ARMED_OFF);
	sh->slots = (struct shm_fp_slot *)(sh->base + SHM_FP_SLOTS_OFF);
	sh->mask = nb_slots - 1;
	sh->posted = 0;
	sh->done = 0;
	return 0;
fail:
	SHM_LOG(ERR, "consumer %u: cannot create its post ring: %s", c->id, strerror(errno));
	shm_consumer_ring_release(sh);
	return -ENOMEM;
}

int
shm_consumer_advertise(struct rte_comch_consumer *c)
{
	struct shm_conn *sc = c->conn->priv;
	struct shm_consumer *sh = c->priv;
	struct shm_msg m;
	int fds[3], rc;

	if (sc->state != SHM_CONN_UP)
		return -ENOTCONN;
	rc = shm_consumer_ring_create(c, sh);
	if (rc < 0)
		return rc;
	shm_msg_init(&m, SHM_MSG_CONSUMER_NEW);
	m.id = c->id;
	m.recv_queue_size = sh->mask + 1;
	m.imm_len = c->imm_len;
	m.len = c->mmap->len;
	fds[0] = c->mmap->memfd;
	fds[1] = sh->memfd;
	fds[2] = sh->peer_bell;
	rc = shm_msg_send(sc->sock.fd, &m, fds, 3);
	if (rc < 0)
		SHM_LOG(ERR, "consumer %u: cannot tell the peer: %s", c->id, strerror(-rc));
	/* The peer has them now (or never will): the mapping and our bell are all we need. */
	close(sh->memfd);
	close(sh->peer_bell);
	sh->memfd = -1;
	sh->peer_bell = -1;
	return rc;
}

int
shm_consumer_expire(struct rte_comch_consumer *c)
{
	struct shm_conn *sc = c->conn->priv;
	struct shm_msg m;

	if (sc->state != SHM_CONN_UP)
		return -ENOTCONN;
	shm_msg_init(&m, SHM_MSG_CONSUMER_EXPIRED);
	m.id = c->id;
	return shm_msg_send(sc->sock.fd, &m, NULL, 0);
}

int
shm_consumer_post(struct rte_comch_consumer *c, void *addr, size_t len)
{
	struct shm_consumer *sh = c->priv;
	uint32_t i = sh->posted & sh->mask;

	sh->slots[i].off = addr != NULL ? (uint64_t)((uint8_t *)addr - sh->mem) : 0;
	sh->slots[i].len = len;
	sh->posted_buf[i].addr = addr;
	sh->posted_buf[i].len = len;
	sh->posted++;
	__atomic_store_n(sh->posted_p, sh->posted, __ATOMIC_RELEASE);
	return 0;
}

static int
shm_consumer_violation(struct rte_comch_consumer *c, const char *why)
{
	struct shm_conn *sc = c->conn->priv;

	SHM_LOG(ERR, "consumer %u: %s", c->id, why);
	__atomic_store_n(&sc->fp_violation, 1, __ATOMIC_RELEASE);
	/* The connection's engine drops the peer, and may be asleep. */
	comch_pe_wake_up(sc->pe);
	return -EPROTO;
}

/* The slot the consumer expects next, if the producer published it. */
static inline const struct shm_fp_slot *
shm_consumer_next_filled(const struct shm_consumer *sh)
{
	const struct shm_fp_slot *slot = &sh->slots[sh->done & sh->mask];

	if (sh->done == sh->posted ||
	    __atomic_load_n(&slot->seq, __ATOMIC_ACQUIRE) != sh->done + 1)
		return NULL;
	return slot;
}

int
shm_consumer_poll(struct rte_comch_consumer *c, unsigned int max)
{
	struct shm_consumer *sh = c->priv;
	const struct shm_fp_slot *slot;
	const struct shm_posted *cur, *next;
	uint32_t n, data_len, imm_len, pid;

	for (n = 0; n < max; n++) {
		slot = shm_consumer_next_filled(sh);
		if (slot == NULL)
			break;
		/* Read once: the peer may change them under us. */
		data_len = __atomic_load_n(&slot->data_len, __ATOMIC_RELAXED);
		imm_len = __atomic_load_n(&slot->imm_len, __ATOMIC_RELAXED);
		pid = __atomic_load_n(&slot->producer_id, __ATOMIC_RELAXED);
		cur = &sh->posted_buf[sh->done & sh->mask];
		if (data_len > cur->len || imm_len > c->imm_len)
			return shm_consumer_violation(c, "peer wrote more than the buffer holds");
		if (data_len > 0 && data_len <= SHM_FP_INLINE_MAX)
			rte_memcpy(cur->addr, slot->inline_data, data_len);
		sh->done++;
		/* Both lines come from the producer's core: start fetching the next ones now. */
		if (sh->done != sh->posted) {
			next = &sh->posted_buf[sh->done & sh->mask];
			rte_prefetch0(&sh->slots[sh->done & sh->mask]);
			if (next->addr != NULL)
				rte_prefetch0(next->addr);
		}
		comch_consumer_recv(c, data_len, slot->imm, imm_len, pid);
	}
	return n;
}

int
shm_consumer_arm(struct rte_comch_consumer *c)
{
	struct shm_consumer *sh = c->priv;

	if (sh->armed_p == NULL)
		return -EAGAIN;
	__atomic_store_n(sh->armed_p, 1, __ATOMIC_RELAXED);
	/* Pairs with the fence in shm_producer_flush(): one of us sees the other. */
	rte_atomic_thread_fence(__ATOMIC_SEQ_CST);
	return shm_consumer_next_filled(sh) != NULL ? -EAGAIN : 0;
}

void
shm_consumer_disarm(struct rte_comch_consumer *c)
{
	struct shm_consumer *sh = c->priv;

	if (sh->armed_p == NULL)
		return;
	if (__atomic_load_n(sh->armed_p, __ATOMIC_RELAXED) != 0)
		__atomic_store_n(sh->armed_p, 0, __ATOMIC_RELAXED);
	shm_bell_drain(&sh->bell);
}

/* ------------------------------------------------------------------ peer's consumers */

static void
shm_remote_unmap(struct shm_remote_consumer *rc)
{
	if (rc->mem != NULL)
		munmap(rc->mem, rc->mem_len);
	if (rc->ring != NULL)
		munmap(rc->ring, rc->ring_bytes);
	if (rc->bell.fd >= 0)
		close(rc->bell.fd);
	rc->mem = NULL;
	rc->ring = NULL;
	rc->bell.fd = -1;
	rc->alive = false;
}

/* Map one of the peer's memfds, sealed against shrinking and of exactly len bytes. */
static void *
shm_fast_map_peer(int fd, size_t len, const char *what)
{
	struct stat st;
	void *p;
	int seals = fcntl(fd, F_GET_SEALS);

	if (seals < 0 || (seals & (F_SEAL_SHRINK | F_SEAL_GROW)) != (F_SEAL_SHRINK | F_SEAL_GROW) ||
	    fstat(fd, &st) < 0 || (size_t)st.st_size != len) {
		SHM_LOG(ERR, "peer consumer: its %s is not a sealed memfd of %zu bytes", what, len);
		return NULL;
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	return p == MAP_FAILED ? NULL : p;
}

static int
shm_fast_on_new(struct shm_conn *sc, const struct shm_msg *m, int *fds, unsigned int nb_fds)
{
	const struct shm_dev *sd = sc->dev->priv;
	struct shm_remote_consumer *rc;
	const struct shm_fp_hdr *hdr;
	uint32_t nb_slots = m->recv_queue_size;
	struct shm_bell bell;
	size_t ring_bytes;
	uint8_t *mem, *ring;

	if (nb_fds != 3 || m->id >= SHM_MAX_FAST || sc->remote[m->id].alive ||
	    nb_slots == 0 || nb_slots > rte_align32pow2(SHM_MAX_FAST_TASKS) ||
	    !rte_is_power_of_2(nb_slots) || m->imm_len > RTE_COMCH_MAX_IMM_DATA_LEN ||
	    m->len == 0 || m->len > SHM_MAX_MMAP_BYTES) {
		SHM_LOG(ERR, "peer announced a consumer out of range (id %u, %u slots, %u bytes "
			"of immediate data, %" PRIu64 " bytes of memory, %u fds)",
			m->id, nb_slots, m->imm_len, m->len, nb_fds);
		return -EPROTO;
	}
	ring_bytes = shm_fp_ring_bytes(nb_slots);
	mem = shm_fast_map_peer(fds[0], m->len, "memory");
	ring = mem != NULL ? shm_fast_map_peer(fds[1], ring_bytes, "post ring") : NULL;
	if (ring != NULL && shm_bell_adopt(fds[2], sd->efd_bells, &bell) < 0) {
		SHM_LOG(ERR, "peer consumer %u: its doorbell is not a Unix datagram socket%s",
			m->id, sd->efd_bells ? " nor an eventfd" : "");
		munmap(ring, ring_bytes);
		ring = NULL;
	}
	if (ring == NULL) {
		if (mem != NULL)
			munmap(mem, m->len);
		return -EPROTO;
	}
	hdr = (const struct shm_fp_hdr *)ring;
	rc = &sc->remote[m->id];
	rte_ticketlock_lock(&rc->lock);
	rc->mem = mem;
	rc->mem_len = m->len;
	rc->ring = ring;
	rc->ring_bytes = ring_bytes;
	rc->slots = (struct shm_fp_slot *)(ring + SHM_FP_SLOTS_OFF);
	rc->posted_p = (uint32_t *)(ring + SHM_FP_POSTED_OFF);
	rc->armed_p = (uint32_t *)(ring + SHM_FP_ARMED_OFF);
	rc->bell = bell;
	fds[2] = -1; /* ours now: closed when the consumer is unmapped */
	rc->nb_slots = nb_slots;
	rc->mask = nb_slots - 1;
	rc->imm_len = m->imm_len;
	rc->taken = 0;
	rc->posted = 0;
	rc->alive = hdr->magic == SHM_FP_MAGIC && hdr->version == SHM_PROTO_VERSION &&
		    hdr->nb_slots == nb_slots;
	if (!rc->alive)
		shm_remote_unmap(rc);
	rte_ticketlock_unlock(&rc->lock);
	if (!rc->alive) {
		SHM_LOG(ERR, "peer consumer %u: its post ring does not match what it announced",
			m->id);
		return -EPROTO;
	}
	comch_conn_consumer_new(sc->conn, m->id);
	return 0;
}

static int
shm_fast_on_expired(struct shm_conn *sc, uint32_t id)
{
	struct shm_remote_consumer *rc;
	struct shm_msg ack;

	if (id >= SHM_MAX_FAST || !sc->remote[id].alive) {
		SHM_LOG(ERR, "peer expired consumer %u, which it never announced", id);
		return -EPROTO;
	}
	rc = &sc->remote[id];
	/* Taking the lock waits out a producer in the middle of a copy. */
	rte_ticketlock_lock(&rc->lock);
	shm_remote_unmap(rc);
	rte_ticketlock_unlock(&rc->lock);
	comch_conn_consumer_expired(sc->conn, id);
	shm_msg_init(&ack, SHM_MSG_CONSUMER_ACK);
	ack.id = id;
	return shm_msg_send(sc->sock.fd, &ack, NULL, 0) < 0 ? -ECONNRESET : 0;
}

/* A fast-path message on an open connection: 0, or -EPROTO/-ECONNRESET to drop it. */
int
shm_fast_on_msg(struct shm_conn *sc, const struct shm_msg *m, int *fds, unsigned int nb_fds)
{
	int rc;

	switch (m->type) {
	case SHM_MSG_CONSUMER_NEW:
		rc = shm_fast_on_new(sc, m, fds, nb_fds);
		break;
	case SHM_MSG_CONSUMER_EXPIRED:
		rc = nb_fds == 0 ? shm_fast_on_expired(sc, m->id) : -EPROTO;
		break;
	case SHM_MSG_CONSUMER_ACK:
		rc = nb_fds == 0 ? 0 : -EPROTO;
		if (rc == 0)
			comch_conn_consumer_acked(sc->conn, m->id);
		break;
	default:
		rc = -EPROTO;
	}
	shm_close_fds(fds, nb_fds);
	return rc;
}

/* The connection is down: no producer of ours may touch the peer's memory again. */
void
shm_fast_conn_down(struct shm_conn *sc)
{
	unsigned int i;

	if (sc->remote == NULL)
		return;
	for (i = 0; i < SHM_MAX_FAST; i++) {
		rte_ticketlock_lock(&sc->remote[i].lock);
		shm_remote_unmap(&sc->remote[i]);
		rte_ticketlock_unlock(&sc->remote[i].lock);
	}
}

/* ------------------------------------------------------------------ producer */

static int
shm_producer_violation(struct shm_conn *sc, struct shm_remote_consumer *rc, uint32_t id,
		       const char *why)
{
	SHM_LOG(ERR, "peer consumer %u: %s", id, why);
	shm_remote_unmap(rc);
	__atomic_store_n(&sc->fp_violation, 1, __ATOMIC_RELEASE);
	comch_pe_wake_up(sc->pe);
	return -ENOTCONN;
}

int
shm_producer_send(struct rte_comch_producer *p, uint32_t consumer_id, const void *data,
		  size_t len, const uint8_t *imm, uint32_t imm_len)
{
	struct shm_conn *sc = p->conn->priv;
	struct shm_producer *sp = p->priv;
	struct shm_remote_consumer *rc;
	struct shm_fp_slot *slot;
	uint64_t off, blen;
	uint32_t posted;
	int ret = 0;

	if (unlikely(consumer_id >= SHM_MAX_FAST || sc->remote == NULL))
		return -ENOENT;
	rc = &sc->remote[consumer_id];
	rte_ticketlock_lock(&rc->lock);
	if (unlikely(!rc->alive)) {
		ret = -ENOENT;
		goto out;
	}
	/* The consumer's line is a miss each time: read it only when what we saw is used up. */
	if (rc->posted == rc->taken) {
		posted = __atomic_load_n(rc->posted_p, __ATOMIC_ACQUIRE);
		if (unlikely((uint32_t)(posted - rc->taken) > rc->nb_slots)) {
			ret = shm_producer_violation(sc, rc, consumer_id,
						     "posted index out of range");
			goto out;
		}
		if (posted == rc->taken) {
			ret = -EAGAIN;
			goto out;
		}
		rc->posted = posted;
	}
	slot = &rc->slots[rc->taken & rc->mask];
	/* Read once and check: the consumer may change them under us. */
	off = __atomic_load_n(&slot->off, __ATOMIC_RELAXED);
	blen = __atomic_load_n(&slot->len, __ATOMIC_RELAXED);
	if (unlikely(off > rc->mem_len || blen > rc->mem_len - off)) {
		ret = shm_producer_violation(sc, rc, consumer_id, "buffer outside its memory");
		goto out;
	}
	if (len > blen || imm_len > rc->imm_len) {
		ret = -EMSGSIZE;
		goto out;
	}
	if (len <= SHM_FP_INLINE_MAX)
		rte_memcpy(slot->inline_data, data, len);
	else
		rte_memcpy(rc->mem + off, data, len);
	slot->data_len = len;
	slot->imm_len = imm_len;
	slot->producer_id = p->id;
	/* All 32 bytes, a fixed-size copy: the slot's line is being written anyway. */
	rte_mov32(slot->imm, imm);
	rc->taken++;
	__atomic_store_n(&slot->seq, rc->taken, __ATOMIC_RELEASE);
	sp->filled[consumer_id / 64] |= RTE_BIT64(consumer_id % 64);
	sp->any = true;
	/*
	 * The next slot, if already posted, sits in the consumer's cache: fetch
	 * it now for writing, so the next send does not stall on it. A slot not
	 * posted yet is left alone: the consumer is about to write it.
	 */
	if (rc->taken != rc->posted) {
		rte_prefetch0_write(&rc->slots[rc->taken & rc->mask]);
		rte_prefetch0_write(rc->slots[rc->taken & rc->mask].inline_data);
	}
out:
	rte_ticketlock_unlock(&rc->lock);
	return ret;
}

void
shm_producer_flush(struct rte_comch_producer *p)
{
	struct shm_conn *sc = p->conn->priv;
	struct shm_producer *sp = p->priv;
	struct shm_remote_consumer *rc;
	unsigned int w, id;
	uint64_t bits;

	if (!sp->any)
		return;
	sp->any = false;
	/* Our index stores before their armed words: pairs with shm_consumer_arm(). */
	rte_atomic_thread_fence(__ATOMIC_SEQ_CST);
	for (w = 0; w < RTE_DIM(sp->filled); w++) {
		bits = sp->filled[w];
		sp->filled[w] = 0;
		while (bits != 0) {
			id = w * 64 + rte_bsf64(bits);
			bits &= bits - 1;
			rc = &sc->remote[id];
			/* Under the lock: an expiry may unmap the ring meanwhile. */
			rte_ticketlock_lock(&rc->lock);
			if (rc->alive && __atomic_load_n(rc->armed_p, __ATOMIC_RELAXED) != 0)
				shm_bell_ring(&rc->bell);
			rte_ticketlock_unlock(&rc->lock);
		}
	}
}

int
shm_producer_create(struct rte_comch_producer *p)
{
	p->priv = calloc(1, sizeof(struct shm_producer));
	return p->priv != NULL ? 0 : -ENOMEM;
}

void
shm_producer_destroy(struct rte_comch_producer *p)
{
	free(p->priv);
	p->priv = NULL;
}
