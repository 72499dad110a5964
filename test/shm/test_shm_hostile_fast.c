/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * A hostile peer on the fast path. As a consumer it announces memory it did
 * not seal, ids out of range, and posts buffers outside its memory or more than
 * its ring holds: the server's producer must refuse to write anything and drop
 * the connection. As a producer it claims buffers that were never posted and
 * writes lengths larger than the buffer: the server's consumer must not trust
 * them, fail, and the connection must drop; on memory it cannot map (staged),
 * the consumer's copy stays inside what it posted. A peer that never confirms
 * a consumer's stop keeps neither the stop nor the connection hanging. A
 * faithful raw peer checks the layout the driver writes, so the hostile cases
 * test what they claim.
 */

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include <rte_common.h>

#include "shm_raw_peer.h"

static void
raw_post(struct raw_consumer *rc, uint64_t off, uint64_t len)
{
	uint32_t i = comch_load_relaxed(rc->posted);

	rc->posts[i % NB_SLOTS].off = off;
	rc->posts[i % NB_SLOTS].len = len;
	comch_store_release(rc->posted, i + 1);
}

static void
prod_done(struct rte_comch_producer_task_send *t, union rte_comch_data a, union rte_comch_data b)
{
	rte_comch_task_free(rte_comch_producer_task_send_as_task(t));
}

static struct rte_comch_producer *
server_producer(void)
{
	struct rte_comch_producer *prod = rte_comch_producer_create(last_conn);

	assert_non_null(prod);
	assert_int_equal(rte_comch_producer_task_send_set_conf(prod, prod_done, prod_done, 8), 0);
	assert_int_equal(rte_comch_pe_connect_ctx(pe, rte_comch_producer_as_ctx(prod)), 0);
	assert_int_equal(rte_comch_ctx_start(rte_comch_producer_as_ctx(prod)), 0);
	return prod;
}

static int
server_send(struct rte_comch_producer *prod, uint32_t id, const char *text)
{
	struct rte_comch_producer_task_send *t;
	int rc;

	assert_int_equal(rte_comch_producer_task_send_alloc_init(prod, NULL, (const uint8_t *)text,
								 strlen(text), id, &t), 0);
	rc = rte_comch_task_submit(rte_comch_producer_task_send_as_task(t));
	if (rc != 0)
		rte_comch_task_free(rte_comch_producer_task_send_as_task(t));
	return rc;
}

static void
server_producer_destroy(struct rte_comch_producer *prod)
{
	rte_comch_ctx_stop(rte_comch_producer_as_ctx(prod));
	pump(2);
	assert_int_equal(rte_comch_producer_destroy(prod), 0);
}

/* A raw consumer of nb_chunks bounce chunks, announced; the server has seen it and said so. */
static void
consumer_peer_chunks(struct raw_peer *p, struct raw_consumer *rc, uint32_t nb_chunks)
{
	struct comch_ctl_msg c;
	unsigned int nb_fds;
	int fds[4];

	raw_peer_connect(p);
	raw_consumer_init_chunks(rc, true, nb_chunks);
	raw_consumer_announce(p, rc, 3);
	assert_int_equal(raw_ctl_reply(p->fd, &c, fds, &nb_fds), COMCH_CTL_CONSUMER_READY);
	assert_int_equal(c.id, 3);
	assert_int_equal(nb_fds, 0);
	assert_int_equal(last_new_consumer, 3);
}

static void
consumer_peer(struct raw_peer *p, struct raw_consumer *rc)
{
	consumer_peer_chunks(p, rc, 0);
}

/* The server's producer, and a started mmap over data[len] with a pool of nb_bufs. */
struct local_src {
	struct rte_comch_producer *prod;
	struct rte_comch_mmap *mmap;
	struct rte_comch_buf_pool *pool;
};

static void
local_src_open(struct local_src *ls, uint8_t *data, size_t len, uint32_t nb_bufs)
{
	ls->prod = server_producer();
	ls->mmap = rte_comch_mmap_create();
	ls->pool = rte_comch_buf_pool_create(nb_bufs);
	assert_non_null(ls->mmap);
	assert_non_null(ls->pool);
	assert_int_equal(rte_comch_mmap_add_dev(ls->mmap, dpu), 0);
	assert_int_equal(rte_comch_mmap_set_memrange(ls->mmap, data, len), 0);
	assert_int_equal(rte_comch_mmap_start(ls->mmap), 0);
}

/* Close ls (its buffers given back), the connection of p, and rc. */
static void
local_src_close(struct local_src *ls, struct raw_peer *p, struct raw_consumer *rc)
{
	server_producer_destroy(ls->prod);
	assert_int_equal(rte_comch_buf_pool_destroy(ls->pool), 0);
	assert_int_equal(rte_comch_mmap_stop(ls->mmap), 0);
	assert_int_equal(rte_comch_mmap_destroy(ls->mmap), 0);
	assert_int_equal(rte_comch_server_disconnect(srv, last_conn), 0);
	pump(10);
	close(p->fd);
	shm_ring_release(&p->rx);
	shm_ring_release(&p->tx);
	raw_consumer_fini(rc);
}

static void
test_faithful_consumer_gets_the_layout(void **state)
{
	static uint8_t data[100];
	struct rte_comch_producer_task_send *t;
	struct rte_comch_buf *buf;
	struct raw_consumer rc;
	struct local_src ls;
	struct raw_peer p;
	uint32_t pid;

	consumer_peer(&p, &rc);
	memset(data, 0x5a, sizeof(data));
	local_src_open(&ls, data, sizeof(data), 1);
	assert_int_equal(rte_comch_buf_pool_get_by_data(ls.pool, ls.mmap, data, sizeof(data),
							&buf), 0);
	assert_int_equal(rte_comch_producer_task_send_alloc_init(ls.prod, buf,
								 (const uint8_t *)"12345678",
								 8, 3, &t), 0);
	assert_int_equal(rte_comch_task_submit(rte_comch_producer_task_send_as_task(t)), -EAGAIN);
	raw_post(&rc, 4096, 200);
	assert_int_equal(rte_comch_task_submit(rte_comch_producer_task_send_as_task(t)), 0);
	assert_int_equal(__atomic_load_n(&rc.slots[0].seq, __ATOMIC_ACQUIRE), 1);
	assert_int_equal(rc.slots[0].data_len, sizeof(data));
	assert_int_equal(rc.slots[0].imm_len, 8);
	assert_int_equal(rc.slots[0].flags, 0);
	assert_memory_equal(rc.slots[0].imm, "12345678", 8);
	assert_int_equal(rte_comch_producer_get_id(ls.prod, &pid), 0);
	assert_int_equal(rc.slots[0].producer_id, pid);
	assert_memory_equal(rc.mem + 4096, data, sizeof(data));
	assert_int_equal(rc.mem[4095], 0);
	assert_int_equal(rc.mem[4096 + sizeof(data)], 0);
	pump(2);
	assert_int_equal(rte_comch_buf_dec_refcount(buf, NULL), 0);
	local_src_close(&ls, &p, &rc);
}

/* The consumer lies about a posted buffer: nothing may be written, the link drops. */
static void
hostile_post(uint64_t off, uint64_t len, uint32_t posted_jump)
{
	uint64_t before = peer_errors();
	struct rte_comch_producer *prod;
	struct raw_consumer rc;
	struct raw_peer p;
	size_t i;

	consumer_peer(&p, &rc);
	prod = server_producer();
	if (posted_jump != 0)
		__atomic_store_n(rc.posted, posted_jump, __ATOMIC_RELEASE);
	else
		raw_post(&rc, off, len);
	assert_int_equal(server_send(prod, 3, "x"), -ENOTCONN);
	for (i = 0; i < MEM_LEN; i++)
		assert_int_equal(rc.mem[i], 0);
	assert_int_equal(__atomic_load_n(&rc.slots[0].seq, __ATOMIC_ACQUIRE), 0);
	/* The connection goes; the producer still holds it until destroyed. */
	raw_peer_expect_dropped(&p, before);
	assert_int_equal(server_send(prod, 3, "x"), -ENOTCONN);
	server_producer_destroy(prod);
	raw_consumer_fini(&rc);
}

/*
 * A consumer with a bounce area: a message that fits a chunk goes to the
 * chunk of its fill (not into the buffer), and the slot says so. The pick
 * starts with the bounce, measuring or not (shm_copy.h).
 */
static void
test_faithful_consumer_gets_a_bounce(void **state)
{
	static uint8_t data[300];
	struct rte_comch_producer_task_send *t;
	struct rte_comch_buf *buf;
	struct shm_fp_slot *slot;
	struct raw_consumer rc;
	struct local_src ls;
	struct raw_peer p;
	unsigned int i;
	uint8_t *chunk;
	size_t k, len;

	/* twice as many chunks as slots: the chunk of a fill is not its slot */
	consumer_peer_chunks(&p, &rc, 2 * NB_SLOTS);
	for (k = 0; k < sizeof(data); k++)
		data[k] = (uint8_t)(k * 5 + 1);
	local_src_open(&ls, data, sizeof(data), 2);
	for (i = 0; i < 2 * NB_SLOTS + 2; i++) {
		/* 100 bytes, then 300, and so on: fill i in slot i % 8, chunk i % 16 */
		len = 100 + 200 * (i % 2);
		assert_int_equal(rte_comch_buf_pool_get_by_data(ls.pool, ls.mmap, data, len,
								&buf), 0);
		assert_int_equal(rte_comch_producer_task_send_alloc_init(ls.prod, buf, NULL, 0, 3,
									 &t), 0);
		memset(rc.bounce + (i % (2 * NB_SLOTS)) * SHM_FP_BOUNCE_MAX, 0, SHM_FP_BOUNCE_MAX);
		raw_post(&rc, 4096 * (i % 2 + 1), 4096);
		assert_int_equal(rte_comch_task_submit(rte_comch_producer_task_send_as_task(t)),
				 0);
		slot = &rc.slots[i % NB_SLOTS];
		assert_int_equal(__atomic_load_n(&slot->seq, __ATOMIC_ACQUIRE), i + 1);
		assert_int_equal(slot->data_len, len);
		assert_int_equal(slot->flags, SHM_FP_SLOT_BOUNCED);
		chunk = rc.bounce + (i % (2 * NB_SLOTS)) * SHM_FP_BOUNCE_MAX;
		assert_memory_equal(chunk, data, len);
		assert_int_equal(chunk[len], 0);
		pump(2);
		assert_int_equal(rte_comch_buf_dec_refcount(buf, NULL), 0);
	}
	/* The buffers saw nothing of it. */
	for (k = 0; k < MEM_LEN; k++)
		assert_int_equal(rc.mem[k], 0);
	local_src_close(&ls, &p, &rc);
}

static void
test_post_outside_memory(void **state)
{
	hostile_post(MEM_LEN - 8, 4096, 0);
}

static void
test_post_offset_wraps(void **state)
{
	hostile_post(UINT64_MAX - 10, 100, 0);
}

static void
test_posted_index_past_ring(void **state)
{
	hostile_post(0, 0, NB_SLOTS + 3);
}

/* Announcements the server must refuse outright. */
static void
bad_announce(bool seal_mem, uint32_t id, uint32_t slots, bool pipe_bell)
{
	uint64_t before = peer_errors();
	struct raw_consumer rc;
	struct raw_peer p;
	int fds[3], pfd[2];

	raw_peer_connect(&p);
	raw_consumer_init(&rc, seal_mem);
	assert_int_equal(pipe(pfd), 0);
	fds[0] = rc.memfd;
	fds[1] = rc.ringfd;
	fds[2] = pipe_bell ? pfd[1] : rc.bell[1];
	raw_announce_fds(p.fd, id, slots, fds);
	raw_peer_expect_dropped(&p, before);
	assert_int_equal(last_new_consumer, -1);
	close(pfd[0]);
	close(pfd[1]);
	raw_consumer_fini(&rc);
}

static void
test_announce_unsealed_memory(void **state)
{
	bad_announce(false, 1, NB_SLOTS, false);
}

/* A pipe could be made blocking by its other holder: only a datagram socket is a doorbell. */
static void
test_announce_pipe_doorbell(void **state)
{
	(void)state;
	bad_announce(true, 1, NB_SLOTS, true);
}

/*
 * An id past the consumers the server takes from one peer (max_peer_consumers,
 * 64 by default: ids 1 to 64) is over its budget: refused, and the connection
 * stays.
 */
static void
test_announce_id_out_of_range(void **state)
{
	uint64_t before = peer_errors();
	struct comch_ctl_msg c;
	struct raw_consumer rc;
	struct raw_peer p;
	unsigned int nb_fds, fds_before;
	int fds[4];

	pump(5);
	fds_before = count_fds();
	raw_peer_connect(&p);
	raw_consumer_init(&rc, true);
	raw_consumer_announce(&p, &rc, 65);
	assert_int_equal(raw_ctl_reply(p.fd, &c, fds, &nb_fds), COMCH_CTL_CONSUMER_REFUSED);
	assert_int_equal(c.id, 65);
	assert_int_equal(c.status, ENOSPC);
	assert_int_equal(last_new_consumer, -1);
	assert_int_equal(peer_errors(), before);
	/* still connected: a consumer in range is taken, the last id too */
	raw_consumer_announce(&p, &rc, 64);
	assert_int_equal(raw_ctl_reply(p.fd, &c, fds, &nb_fds), COMCH_CTL_CONSUMER_READY);
	assert_int_equal(last_new_consumer, 64);
	assert_int_equal(rte_comch_server_disconnect(srv, last_conn), 0);
	pump(10);
	close(p.fd);
	shm_ring_release(&p.rx);
	shm_ring_release(&p.tx);
	raw_consumer_fini(&rc);
	pump(5);
	assert_int_equal(count_fds(), fds_before);
}

/* The same consumer announced twice breaks the protocol. */
static void
test_announce_twice(void **state)
{
	uint64_t before = peer_errors();
	struct raw_consumer rc;
	struct raw_peer p;

	consumer_peer(&p, &rc);
	raw_consumer_announce(&p, &rc, 3);
	raw_peer_expect_dropped(&p, before);
	raw_consumer_fini(&rc);
}

static void
test_announce_ring_size_lies(void **state)
{
	bad_announce(true, 1, NB_SLOTS * 4, false);
}

/*
 * Bounce chunks no consumer of ours announces: not a power of 2, fewer than
 * its slots, more than SHM_MAX_BOUNCE bytes of them. The post ring is as
 * large as they say, so that only their number is wrong.
 */
static void
bad_chunks(uint32_t nb_chunks)
{
	uint64_t before = peer_errors();
	struct raw_consumer rc;
	struct raw_peer p;

	raw_peer_connect(&p);
	raw_consumer_init_chunks(&rc, true, nb_chunks);
	raw_consumer_announce(&p, &rc, 1);
	raw_peer_expect_dropped(&p, before);
	assert_int_equal(last_new_consumer, -1);
	raw_consumer_fini(&rc);
}

static void
test_announce_bounce_chunks_wrong(void **state)
{
	(void)state;
	bad_chunks(NB_SLOTS + 3);
	bad_chunks(NB_SLOTS / 2);
	bad_chunks(2 * SHM_MAX_BOUNCE / SHM_FP_BOUNCE_MAX);
}

/* The chunk count is 4 bytes or nothing: a blob of 2 or 8 bytes is a lie. */
static void
test_announce_blob_length_wrong(void **state)
{
	static const uint32_t lens[] = { 2, 8 };
	uint64_t before = peer_errors();
	struct comch_ctl_msg c = { .nb_posts = NB_SLOTS, .imm_len = 8, .mem_len = MEM_LEN };
	uint32_t blob[2] = { 0, 0 };
	struct raw_consumer rc;
	struct raw_peer p;
	unsigned int i;

	(void)state;
	for (i = 0; i < RTE_DIM(lens); i++) {
		int fds[3];

		raw_peer_connect(&p);
		raw_consumer_init(&rc, true);
		fds[0] = rc.memfd;
		fds[1] = rc.ringfd;
		fds[2] = rc.bell[1];
		assert_int_equal(raw_ctl_send_blob_try(p.fd, COMCH_CTL_CONSUMER_NEW, 1, &c, blob,
						       lens[i], fds, 3), 0);
		raw_peer_expect_dropped(&p, before + i);
		assert_int_equal(last_new_consumer, -1);
		raw_consumer_fini(&rc);
	}
}

/*
 * Consumer ids start at 1: a library never announces a consumer 0 (DOCA
 * programs take 0 for "no consumer"), so a peer that does breaks the protocol,
 * however sound the rest of its announcement.
 */
static void
test_announce_id_zero(void **state)
{
	bad_announce(true, 0, NB_SLOTS, false);
}

static void
test_expire_unknown_consumer(void **state)
{
	uint64_t before = peer_errors();
	struct raw_peer p;

	raw_peer_connect(&p);
	raw_ctl_send(p.fd, COMCH_CTL_CONSUMER_EXPIRED, 7, NULL, NULL, 0);
	raw_peer_expect_dropped(&p, before);
}

/* --- the test as a producer, writing into a consumer of the server --- */

static unsigned int cons_ok, cons_err;

static void
cons_done(struct rte_comch_consumer_task_post_recv *t, union rte_comch_data a,
	  union rte_comch_data b)
{
	struct rte_comch_buf *buf = rte_comch_consumer_task_post_recv_get_buf(t);

	if (rte_comch_task_get_status(rte_comch_consumer_task_post_recv_as_task(t)) == 0)
		cons_ok++;
	else
		cons_err++;
	rte_comch_buf_dec_refcount(buf, NULL);
	rte_comch_task_free(rte_comch_consumer_task_post_recv_as_task(t));
}

struct server_consumer {
	struct rte_comch_mmap *mmap;
	struct rte_comch_buf_pool *pool;
	struct rte_comch_consumer *c;
	uint32_t id;
	/* The server's consumer, as the test (its peer) maps it. */
	uint8_t *mem, *ring;
	size_t ring_bytes;
	struct shm_fp_post *posts;
	struct shm_fp_slot *slots;
	uint32_t *posted;
	uint8_t *bounce;      /* its bounce area */
	uint32_t nb_chunks;
};

/* The chunks of the server's consumers' bounce areas: its device's bounce devarg. */
static uint32_t server_chunks = RAW_SERVER_BOUNCE / SHM_FP_BOUNCE_MAX;

/* Longest wait for a state the raw peer's message brings: far below the 5 s expiry. */
#define SC_WAIT_MS 1000

/* The state of the server's consumer. */
static enum rte_comch_ctx_state
sc_state(const struct server_consumer *sc)
{
	enum rte_comch_ctx_state st;

	assert_int_equal(rte_comch_ctx_get_state(rte_comch_consumer_as_ctx(sc->c), &st), 0);
	return st;
}

/*
 * Progress until the server's consumer is in state want or ms have passed,
 * then its state: a control message from the raw peer takes a slow tick or
 * two, longer when the machine is busy. ms stays well below the expiry.
 */
static enum rte_comch_ctx_state
sc_wait_state(const struct server_consumer *sc, enum rte_comch_ctx_state want, unsigned int ms)
{
	uint64_t end = rte_rdtsc() + rte_get_tsc_hz() / 1000 * ms;
	enum rte_comch_ctx_state st;

	while ((st = sc_state(sc)) != want && rte_rdtsc() < end)
		rte_comch_pe_progress(pe);
	return st;
}

/*
 * A consumer on the server, started: announced to the raw peer, which maps it;
 * STARTING until the peer answers. On MEM_LEN bytes of the application's at
 * user (set_memrange: the peer maps a staging area), or allocated (user NULL).
 */
static void
server_consumer_announced_on(struct raw_peer *p, struct server_consumer *sc, uint8_t *user)
{
	const uint32_t perms = RTE_COMCH_MMAP_PERM_LOCAL_READ_WRITE |
			       RTE_COMCH_MMAP_PERM_PCI_READ_WRITE;
	uint8_t blob[SHM_BLOB_MAX];
	unsigned int nb_fds;
	struct comch_ctl_msg c;
	uint32_t blob_len;
	int fds[4];

	cons_ok = cons_err = 0;
	raw_peer_connect(p);
	sc->mmap = rte_comch_mmap_create();
	assert_int_equal(rte_comch_mmap_add_dev(sc->mmap, dpu), 0);
	if (user != NULL)
		assert_int_equal(rte_comch_mmap_set_memrange(sc->mmap, user, MEM_LEN), 0);
	else
		assert_int_equal(rte_comch_mmap_alloc_memrange(sc->mmap, MEM_LEN), 0);
	assert_int_equal(rte_comch_mmap_set_permissions(sc->mmap, perms), 0);
	assert_int_equal(rte_comch_mmap_start(sc->mmap), 0);
	sc->pool = rte_comch_buf_pool_create(4);
	sc->c = rte_comch_consumer_create(last_conn, sc->mmap);
	assert_non_null(sc->c);
	assert_int_equal(rte_comch_consumer_get_id(sc->c, &sc->id), 0);
	assert_int_equal(rte_comch_consumer_task_post_recv_set_conf(sc->c, cons_done, cons_done,
								    NB_SLOTS), 0);
	assert_int_equal(rte_comch_pe_connect_ctx(pe, rte_comch_consumer_as_ctx(sc->c)), 0);
	assert_int_equal(rte_comch_ctx_start(rte_comch_consumer_as_ctx(sc->c)), -EINPROGRESS);
	assert_int_equal(raw_ctl_reply_blob(p->fd, &c, blob, &blob_len, fds, &nb_fds),
			 COMCH_CTL_CONSUMER_NEW);
	assert_int_equal(blob_len, sizeof(sc->nb_chunks));
	memcpy(&sc->nb_chunks, blob, sizeof(sc->nb_chunks));
	/* The server's bounce area: its device's bounce devarg in chunks, maybe 0. */
	assert_int_equal(sc->nb_chunks, server_chunks);
	assert_int_equal(nb_fds, 3);
	assert_int_equal(c.id, sc->id);
	assert_int_equal(c.mem_len, MEM_LEN);
	assert_int_equal(c.nb_posts, NB_SLOTS);
	sc->ring_bytes = shm_fp_ring_bytes(rte_align32pow2(c.nb_posts), sc->nb_chunks);
	sc->mem = map_fd(fds[0], MEM_LEN);
	sc->ring = map_fd(fds[1], sc->ring_bytes);
	close(fds[0]);
	close(fds[1]);
	close(fds[2]);
	sc->posted = (uint32_t *)(sc->ring + SHM_FP_POSTED_OFF);
	sc->posts = (struct shm_fp_post *)(sc->ring + SHM_FP_POSTS_OFF);
	sc->slots = (struct shm_fp_slot *)(sc->ring + shm_fp_slots_off(rte_align32pow2(c.nb_posts)));
	sc->bounce = sc->ring + shm_fp_bounce_off(rte_align32pow2(c.nb_posts));
	/* Not running until the peer says it took it. */
	pump(2);
	assert_int_equal(sc_state(sc), RTE_COMCH_CTX_STATE_STARTING);
}

static void
server_consumer_announced(struct raw_peer *p, struct server_consumer *sc)
{
	server_consumer_announced_on(p, sc, NULL);
}

/* A consumer on the server with two 4 KiB buffers posted, mapped by the raw peer. */
static void
server_consumer_on(struct raw_peer *p, struct server_consumer *sc, uint8_t *user)
{
	struct rte_comch_consumer_task_post_recv *t;
	struct rte_comch_buf *buf;
	unsigned int i;
	uint8_t *base;

	server_consumer_announced_on(p, sc, user);
	raw_ctl_send(p->fd, COMCH_CTL_CONSUMER_READY, sc->id, NULL, NULL, 0);
	assert_int_equal(sc_wait_state(sc, RTE_COMCH_CTX_STATE_RUNNING, SC_WAIT_MS),
			 RTE_COMCH_CTX_STATE_RUNNING);
	base = rte_comch_mmap_get_memrange(sc->mmap, (void **)&base, &(size_t){0}) == 0 ? base : NULL;
	for (i = 0; i < 2; i++) {
		assert_int_equal(rte_comch_buf_pool_get_by_addr(sc->pool, sc->mmap,
								base + i * 4096, 4096, &buf), 0);
		assert_int_equal(rte_comch_consumer_task_post_recv_alloc_init(sc->c, buf, &t), 0);
		assert_int_equal(rte_comch_task_submit(
			rte_comch_consumer_task_post_recv_as_task(t)), 0);
	}
	assert_int_equal(__atomic_load_n(sc->posted, __ATOMIC_ACQUIRE), 2);
}

static void
server_consumer(struct raw_peer *p, struct server_consumer *sc)
{
	server_consumer_on(p, sc, NULL);
}

/* Stop the server's consumer; a faithful peer confirms the expiry, a silent one does not. */
static void
server_consumer_stop(struct raw_peer *p, struct server_consumer *sc, bool confirm)
{
	enum rte_comch_ctx_state st;
	struct comch_ctl_msg c;
	unsigned int nb_fds, i;
	int fds[4];

	assert_int_equal(rte_comch_ctx_stop(rte_comch_consumer_as_ctx(sc->c)), -EINPROGRESS);
	assert_int_equal(raw_ctl_reply(p->fd, &c, fds, &nb_fds), COMCH_CTL_CONSUMER_EXPIRED);
	assert_int_equal(c.id, sc->id);
	pump(20);
	assert_int_equal(rte_comch_ctx_get_state(rte_comch_consumer_as_ctx(sc->c), &st), 0);
	assert_int_equal(st, RTE_COMCH_CTX_STATE_STOPPING);
	if (confirm) {
		raw_ctl_send(p->fd, COMCH_CTL_CONSUMER_ACK, sc->id, NULL, NULL, 0);
		pump(5);
	} else {
		/* (the library's wait for the confirmation, 1 s, and a margin) */
		for (i = 0; i < 5000 && sc_state(sc) != RTE_COMCH_CTX_STATE_IDLE; i++)
			pump(1);
	}
	assert_int_equal(rte_comch_ctx_get_state(rte_comch_consumer_as_ctx(sc->c), &st), 0);
	assert_int_equal(st, RTE_COMCH_CTX_STATE_IDLE);
}

static void
server_consumer_fini(struct server_consumer *sc)
{
	assert_int_equal(rte_comch_consumer_destroy(sc->c), 0);
	assert_int_equal(rte_comch_buf_pool_destroy(sc->pool), 0);
	assert_int_equal(rte_comch_mmap_stop(sc->mmap), 0);
	assert_int_equal(rte_comch_mmap_destroy(sc->mmap), 0);
	munmap(sc->mem, MEM_LEN);
	munmap(sc->ring, sc->ring_bytes);
}

static void
test_faithful_producer_is_delivered(void **state)
{
	struct server_consumer sc;
	struct raw_peer p;

	server_consumer(&p, &sc);
	/* Short: it travels in the slot, and the consumer copies it to its buffer. */
	memcpy(sc.slots[0].inline_data, "hello", 5);
	sc.slots[0].data_len = 5;
	sc.slots[0].imm_len = 0;
	sc.slots[0].producer_id = 9;
	__atomic_store_n(&sc.slots[0].seq, 1, __ATOMIC_RELEASE);
	pump(2);
	assert_int_equal(cons_ok, 1);
	assert_int_equal(cons_err, 0);
	assert_memory_equal(sc.mem + sc.posts[0].off, "hello", 5);
	assert_int_equal(rte_comch_server_disconnect(srv, last_conn), -EBUSY);
	server_consumer_stop(&p, &sc, true);
	server_consumer_fini(&sc);
	/* Stopped in order: the last posted buffer came back with -ECONNABORTED. */
	assert_int_equal(cons_err, 1);
	assert_int_equal(last_expired_consumer, -1); /* the server's own consumer */
	assert_int_equal(rte_comch_server_disconnect(srv, last_conn), 0);
	pump(10);
	close(p.fd);
	shm_ring_release(&p.rx);
	shm_ring_release(&p.tx);
}

/*
 * The peer does not confirm the stop (slow, or hostile): after the library's
 * wait the consumer is IDLE anyway, its buffers back, and the connection
 * stays. Its posts are emptied, so that a send of the peer that reads them
 * from then on places no data. Destroyed, the consumer's mmap stays held until
 * the peer confirms (late or never: until the connection ends), and a late
 * confirmation is no protocol error.
 */
static void
expiry_unconfirmed(bool confirm_late)
{
	uint64_t before = peer_errors();
	struct server_consumer sc;
	struct raw_peer p;

	server_consumer(&p, &sc);
	last_disconnect = 1;
	server_consumer_stop(&p, &sc, false);
	assert_int_equal(cons_ok, 0);
	assert_int_equal(cons_err, 2);
	assert_int_equal(rte_comch_ctx_get_last_error(rte_comch_consumer_as_ctx(sc.c)),
			 -ETIMEDOUT);
	assert_int_equal(sc.posts[0].len, 0);
	assert_int_equal(sc.posts[1].len, 0);
	assert_int_equal(rte_comch_consumer_destroy(sc.c), 0);
	assert_int_equal(rte_comch_buf_pool_destroy(sc.pool), 0);
	assert_int_equal(rte_comch_mmap_stop(sc.mmap), -EBUSY);
	pump(5);
	assert_int_equal(last_disconnect, 1);
	assert_int_equal(peer_errors(), before);
	if (confirm_late) {
		raw_ctl_send(p.fd, COMCH_CTL_CONSUMER_ACK, sc.id, NULL, NULL, 0);
		pump(5);
		assert_int_equal(peer_errors(), before);
		assert_int_equal(last_disconnect, 1);
		assert_int_equal(rte_comch_mmap_stop(sc.mmap), 0);
		assert_int_equal(rte_comch_server_disconnect(srv, last_conn), 0);
		pump(10);
	} else {
		assert_int_equal(rte_comch_server_disconnect(srv, last_conn), 0);
		pump(10);
		assert_int_equal(rte_comch_mmap_stop(sc.mmap), 0);
	}
	/* ended by us, not dropped as broken */
	assert_int_not_equal(last_disconnect, -EPROTO);
	assert_int_equal(peer_errors(), before);
	assert_int_equal(rte_comch_mmap_destroy(sc.mmap), 0);
	munmap(sc.mem, MEM_LEN);
	munmap(sc.ring, sc.ring_bytes);
	close(p.fd);
	shm_ring_release(&p.rx);
	shm_ring_release(&p.tx);
	good_client_roundtrip();
}

static void
test_expiry_never_confirmed(void **state)
{
	expiry_unconfirmed(false);
}

static void
test_expiry_confirmed_late(void **state)
{
	expiry_unconfirmed(true);
}

/*
 * A consumer on memory the peer cannot map (set_memrange): the peer writes
 * into a staging area, and the consumer copies each message to the posted
 * buffer, from the offset it posted and for a length checked against what it
 * posted: a faithful fill lands exactly in place (up to the end of the mmap,
 * which ASan watches: the memory is the heap's), a lying one copies nothing
 * and drops the peer.
 */
static void
staged(uint32_t lie)
{
	uint64_t before = peer_errors();
	uint8_t *user = malloc(MEM_LEN);
	struct rte_comch_consumer_task_post_recv *t;
	struct rte_comch_buf *buf;
	struct server_consumer sc;
	struct raw_peer p;
	size_t i;

	assert_non_null(user);
	memset(user, 0xcc, MEM_LEN);
	server_consumer_on(&p, &sc, user);
	/* a third buffer: the last 4 KiB of the mmap */
	assert_int_equal(rte_comch_buf_pool_get_by_addr(sc.pool, sc.mmap, user + MEM_LEN - 4096,
							4096, &buf), 0);
	assert_int_equal(rte_comch_consumer_task_post_recv_alloc_init(sc.c, buf, &t), 0);
	assert_int_equal(rte_comch_task_submit(rte_comch_consumer_task_post_recv_as_task(t)), 0);
	assert_int_equal(sc.posts[0].off, 0);
	assert_int_equal(sc.posts[1].off, 4096);
	assert_int_equal(sc.posts[2].off, MEM_LEN - 4096);
	assert_int_equal(sc.posts[2].len, 4096);
	/* the peer's writes go to the staging area, not to the application's memory */
	for (i = 0; i < MEM_LEN; i++)
		sc.mem[i] = (uint8_t)(i * 7 + 1);
	for (i = 0; i < MEM_LEN; i++)
		assert_int_equal(user[i], 0xcc);
	sc.slots[0].data_len = 200;
	__atomic_store_n(&sc.slots[0].seq, 1, __ATOMIC_RELEASE);
	sc.slots[1].data_len = lie != 0 ? lie : 81;
	__atomic_store_n(&sc.slots[1].seq, 2, __ATOMIC_RELEASE);
	sc.slots[2].data_len = 4096;
	__atomic_store_n(&sc.slots[2].seq, 3, __ATOMIC_RELEASE);
	if (lie != 0) {
		/* the first is delivered; the lie stops it all, and nothing more is copied */
		raw_peer_expect_dropped(&p, before);
		assert_int_equal(cons_ok, 1);
		assert_int_equal(cons_err, 2);
		assert_int_equal(rte_comch_ctx_get_last_error(rte_comch_consumer_as_ctx(sc.c)),
				 -EPROTO);
		assert_memory_equal(user, sc.mem, 200);
		for (i = 200; i < MEM_LEN; i++)
			assert_int_equal(user[i], 0xcc);
		server_consumer_fini(&sc);
		free(user);
		return;
	}
	pump(5);
	assert_int_equal(cons_ok, 3);
	assert_int_equal(cons_err, 0);
	assert_int_equal(peer_errors(), before);
	assert_memory_equal(user, sc.mem, 200);
	assert_memory_equal(user + 4096, sc.mem + 4096, 81);
	assert_memory_equal(user + MEM_LEN - 4096, sc.mem + MEM_LEN - 4096, 4096);
	for (i = 0; i < MEM_LEN - 4096; i++)
		if ((i >= 200 && i < 4096) || i >= 4096 + 81)
			assert_int_equal(user[i], 0xcc);
	server_consumer_stop(&p, &sc, true);
	server_consumer_fini(&sc);
	free(user);
	assert_int_equal(rte_comch_server_disconnect(srv, last_conn), 0);
	pump(10);
	close(p.fd);
	shm_ring_release(&p.rx);
	shm_ring_release(&p.tx);
}

static void
test_staged_copies_in_place(void **state)
{
	staged(0);
}

static void
test_staged_fill_longer_than_buffer(void **state)
{
	staged(4097);
}

/* The raw peer fills slot i of the server's consumer (its fill i), and publishes it. */
static void
fill_slot(struct server_consumer *sc, uint32_t i, uint32_t data_len, uint16_t imm_len,
	  uint32_t flags)
{
	sc->slots[i].data_len = data_len;
	sc->slots[i].imm_len = imm_len;
	sc->slots[i].flags = flags;
	__atomic_store_n(&sc->slots[i].seq, i + 1, __ATOMIC_RELEASE);
}

/*
 * A fill lied: the peer is dropped (errors counted from before), ok tasks
 * were delivered, err failed, and the consumer's last error is -EPROTO.
 */
static void
expect_fill_dropped(struct raw_peer *p, struct server_consumer *sc, uint64_t before,
		    unsigned int ok, unsigned int err)
{
	raw_peer_expect_dropped(p, before);
	assert_int_equal(cons_ok, ok);
	assert_int_equal(cons_err, err);
	assert_int_equal(rte_comch_ctx_get_last_error(rte_comch_consumer_as_ctx(sc->c)), -EPROTO);
}

/*
 * Fills through the bounce area and not: the consumer copies a bounced one
 * from its fill's chunk into the buffer, takes a direct one as written, and
 * drops the link at a bounced one longer than a chunk, even into a buffer
 * that would hold it, after delivering those before it.
 */
static void
test_bounced_fills(void **state)
{
	uint64_t before = peer_errors();
	struct rte_comch_consumer_task_post_recv *t;
	struct rte_comch_buf *buf;
	struct server_consumer sc;
	struct raw_peer p;
	uint8_t *base;
	size_t i;

	server_consumer(&p, &sc);
	/* a third buffer, of 8 KiB: slots 0 and 1 hold 4 KiB at 0 and 4096, slot 2 this */
	assert_int_equal(rte_comch_mmap_get_memrange(sc.mmap, (void **)&base, &(size_t){0}), 0);
	assert_int_equal(rte_comch_buf_pool_get_by_addr(sc.pool, sc.mmap, base + 8192, 8192,
							&buf), 0);
	assert_int_equal(rte_comch_consumer_task_post_recv_alloc_init(sc.c, buf, &t), 0);
	assert_int_equal(rte_comch_task_submit(rte_comch_consumer_task_post_recv_as_task(t)), 0);
	for (i = 0; i < 3 * SHM_FP_BOUNCE_MAX; i++)
		sc.bounce[i] = (uint8_t)(i * 3 + 1);
	for (i = 0; i < 3 * 4096; i++)
		sc.mem[i] = (uint8_t)(i * 11 + 7);
	/* 0: bounced, 200 bytes; 1: direct, 300; 2: bounced, longer than a chunk */
	fill_slot(&sc, 0, 200, 0, SHM_FP_SLOT_BOUNCED);
	fill_slot(&sc, 1, 300, 0, 0);
	fill_slot(&sc, 2, SHM_FP_BOUNCE_MAX + 1, 0, SHM_FP_SLOT_BOUNCED);
	expect_fill_dropped(&p, &sc, before, 2, 1);
	/* chunk 0 copied over what the buffer held; the rest as the peer wrote it */
	assert_memory_equal(base, sc.bounce, 200);
	for (i = 200; i < 3 * 4096; i++)
		assert_int_equal(base[i], (uint8_t)(i * 11 + 7));
	server_consumer_fini(&sc);
}

/* The producer lies: the consumer must not deliver, and the link drops. */
static void
hostile_fill(uint32_t data_len, uint16_t imm_len, uint32_t flags)
{
	uint64_t before = peer_errors();
	struct server_consumer sc;
	struct raw_peer p;

	server_consumer(&p, &sc);
	fill_slot(&sc, 0, data_len, imm_len, flags);
	expect_fill_dropped(&p, &sc, before, 0, 2);
	server_consumer_fini(&sc);
}

/*
 * Fills of slots never posted, or out of order, or with a stale sequence: the
 * consumer only looks at the next slot it posted, so it sees none of them.
 */
static void
test_fill_unposted_is_ignored(void **state)
{
	uint64_t before = peer_errors();
	struct server_consumer sc;
	struct raw_peer p;
	unsigned int i;

	server_consumer(&p, &sc);
	/* two posted (slots 0 and 1): fill 1, 2 and 3 but not 0, and 0 with last lap's number */
	for (i = 1; i < 4; i++) {
		sc.slots[i].data_len = 1;
		__atomic_store_n(&sc.slots[i].seq, i + 1, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&sc.slots[0].seq, 1 - NB_SLOTS, __ATOMIC_RELEASE);
	pump(5);
	assert_int_equal(cons_ok, 0);
	assert_int_equal(peer_errors(), before);
	/* slot 0 filled for real: it and slot 1 arrive, in order; 2 and 3 never */
	sc.slots[0].data_len = 1;
	__atomic_store_n(&sc.slots[0].seq, 1, __ATOMIC_RELEASE);
	pump(5);
	assert_int_equal(cons_ok, 2);
	assert_int_equal(cons_err, 0);
	assert_int_equal(peer_errors(), before);
	server_consumer_stop(&p, &sc, true);
	server_consumer_fini(&sc);
	assert_int_equal(rte_comch_server_disconnect(srv, last_conn), 0);
	pump(10);
	close(p.fd);
	shm_ring_release(&p.rx);
	shm_ring_release(&p.tx);
}

static void
test_fill_longer_than_buffer(void **state)
{
	hostile_fill(4097, 0, 0);
}

static void
test_fill_immediate_too_long(void **state)
{
	hostile_fill(1, 33, 0);
}

/* Flags no version of the driver writes: kept for later versions, refused now. */
static void
test_fill_unknown_flags(void **state)
{
	hostile_fill(100, 0, SHM_FP_SLOT_BOUNCED | 0x2);
	hostile_fill(1, 0, 0x80000000u);
}

/* The group's server, set aside while a test runs on another. */
static struct raw_server group_server;

/*
 * A second server, on a device of its own domain without a bounce area
 * (bounce=0), for one test: the group's stays as it is, whatever state an
 * earlier test left it in, and comes back after.
 */
static int
before_no_bounce(void **state)
{
	raw_server_save(&group_server);
	server_chunks = 0;
	if (raw_server_open("hostile-nobounce", "bounce=0") < 0) {
		raw_server_restore(&group_server);
		server_chunks = RAW_SERVER_BOUNCE / SHM_FP_BOUNCE_MAX;
		return -1;
	}
	return before_each(state);
}

static int
after_no_bounce(void **state)
{
	RTE_SET_USED(state);
	raw_server_restore(&group_server);
	server_chunks = RAW_SERVER_BOUNCE / SHM_FP_BOUNCE_MAX;
	return 0;
}

/*
 * A consumer without a bounce area: a fill marked bounced is a lie, however
 * short; the link drops and nothing is delivered.
 */
static void
test_bounced_fill_without_area(void **state)
{
	hostile_fill(100, 0, SHM_FP_SLOT_BOUNCED);
}

/* Answers out of turn break the protocol: the link drops, the consumer ends cleanly. */
static void
answer_out_of_turn(enum comch_ctl_type type, bool running)
{
	uint64_t before = peer_errors();
	struct server_consumer sc;
	struct raw_peer p;

	if (running)
		server_consumer(&p, &sc);
	else
		server_consumer_announced(&p, &sc);
	/*
	 * Running: READY or REFUSED a second time, or an ACK for a withdrawal
	 * never asked. Starting: an ACK before even the READY.
	 */
	raw_ctl_send(p.fd, type, sc.id, &(struct comch_ctl_msg){ .status = ENOSPC }, NULL, 0);
	raw_peer_expect_dropped(&p, before);
	/* Its buffers back, by its error callback: then IDLE, and destroyed like any other. */
	assert_int_equal(sc_wait_state(&sc, RTE_COMCH_CTX_STATE_IDLE, SC_WAIT_MS),
			 RTE_COMCH_CTX_STATE_IDLE);
	assert_int_equal(cons_ok, 0);
	assert_int_equal(cons_err, running ? 2 : 0);
	server_consumer_fini(&sc);
}

static void
test_ack_before_expired(void **state)
{
	answer_out_of_turn(COMCH_CTL_CONSUMER_ACK, true);
}

static void
test_ready_twice(void **state)
{
	answer_out_of_turn(COMCH_CTL_CONSUMER_READY, true);
}

static void
test_refused_after_ready(void **state)
{
	answer_out_of_turn(COMCH_CTL_CONSUMER_REFUSED, true);
}

static void
test_ack_while_starting(void **state)
{
	answer_out_of_turn(COMCH_CTL_CONSUMER_ACK, false);
}

/*
 * Stopped before the peer answered its announcement: it is withdrawn once the
 * peer imported it (READY, then EXPIRED and ACK), or at once if the peer
 * refused it (nothing to withdraw).
 */
static void
stop_while_starting(bool refuse)
{
	uint64_t before = peer_errors();
	struct server_consumer sc;
	struct comch_ctl_msg c;
	unsigned int nb_fds;
	struct raw_peer p;
	struct shm_msg m;
	int fds[4];

	server_consumer_announced(&p, &sc);
	assert_int_equal(rte_comch_ctx_stop(rte_comch_consumer_as_ctx(sc.c)), -EINPROGRESS);
	pump(5);
	/* Nothing withdrawn before the answer: the peer may not have imported it yet. */
	assert_int_equal(shm_msg_recv(p.fd, &m, fds, 4, &nb_fds), -EAGAIN);
	assert_int_equal(sc_state(&sc), RTE_COMCH_CTX_STATE_STOPPING);
	if (refuse) {
		raw_ctl_send(p.fd, COMCH_CTL_CONSUMER_REFUSED, sc.id,
			     &(struct comch_ctl_msg){ .status = ENOSPC }, NULL, 0);
	} else {
		raw_ctl_send(p.fd, COMCH_CTL_CONSUMER_READY, sc.id, NULL, NULL, 0);
		pump(5);
		assert_int_equal(raw_ctl_reply(p.fd, &c, fds, &nb_fds),
				 COMCH_CTL_CONSUMER_EXPIRED);
		assert_int_equal(c.id, sc.id);
		assert_int_equal(sc_state(&sc), RTE_COMCH_CTX_STATE_STOPPING);
		raw_ctl_send(p.fd, COMCH_CTL_CONSUMER_ACK, sc.id, NULL, NULL, 0);
	}
	assert_int_equal(sc_wait_state(&sc, RTE_COMCH_CTX_STATE_IDLE, SC_WAIT_MS),
			 RTE_COMCH_CTX_STATE_IDLE);
	assert_int_equal(peer_errors(), before);
	server_consumer_fini(&sc);
	assert_int_equal(rte_comch_server_disconnect(srv, last_conn), 0);
	pump(10);
	close(p.fd);
	shm_ring_release(&p.rx);
	shm_ring_release(&p.tx);
	good_client_roundtrip();
}

static void
test_stop_while_starting_ready(void **state)
{
	stop_while_starting(false);
}

static void
test_stop_while_starting_refused(void **state)
{
	stop_while_starting(true);
}

/*
 * A peer that never answers an announcement: the start gives up after its
 * timeout (-ETIMEDOUT) and stops; the stop in turn gives up waiting, the
 * consumer ends IDLE, and the connection stays. An answer that comes late is
 * taken as the withdrawal it now is.
 */
static void
start_unanswered(bool answer_late)
{
	uint64_t before = peer_errors();
	struct server_consumer sc;
	struct comch_ctl_msg c;
	unsigned int nb_fds;
	struct raw_peer p;
	int fds[4];

	server_consumer_announced(&p, &sc);
	/* (the library's wait for an answer is 5 s) */
	pump(4800);
	assert_int_equal(sc_state(&sc), RTE_COMCH_CTX_STATE_STARTING);
	pump(500);
	assert_int_equal(sc_state(&sc), RTE_COMCH_CTX_STATE_STOPPING);
	assert_int_equal(rte_comch_ctx_get_last_error(rte_comch_consumer_as_ctx(sc.c)),
			 -ETIMEDOUT);
	if (answer_late) {
		raw_ctl_send(p.fd, COMCH_CTL_CONSUMER_READY, sc.id, NULL, NULL, 0);
		pump(5);
		assert_int_equal(raw_ctl_reply(p.fd, &c, fds, &nb_fds),
				 COMCH_CTL_CONSUMER_EXPIRED);
		raw_ctl_send(p.fd, COMCH_CTL_CONSUMER_ACK, sc.id, NULL, NULL, 0);
		pump(5);
	} else {
		pump(1200);
	}
	assert_int_equal(sc_state(&sc), RTE_COMCH_CTX_STATE_IDLE);
	assert_int_equal(rte_comch_ctx_get_last_error(rte_comch_consumer_as_ctx(sc.c)),
			 -ETIMEDOUT);
	assert_int_equal(peer_errors(), before);
	/* Unconfirmed, its id (and, destroyed, its mmap) stays taken until the end. */
	assert_int_equal(rte_comch_server_disconnect(srv, last_conn), 0);
	pump(10);
	server_consumer_fini(&sc);
	close(p.fd);
	shm_ring_release(&p.rx);
	shm_ring_release(&p.tx);
	good_client_roundtrip();
}

static void
test_start_never_answered(void **state)
{
	start_unanswered(false);
}

static void
test_start_answered_late(void **state)
{
	start_unanswered(true);
}

/* A reply to the announcement that the driver (shm: none) does not take breaks the protocol. */
static void
test_ready_with_a_reply_not_taken(void **state)
{
	uint64_t before = peer_errors();
	struct server_consumer sc;
	struct raw_peer p;
	int fd = memfd_create("reply", MFD_CLOEXEC);

	assert_true(fd >= 0);
	server_consumer_announced(&p, &sc);
	raw_ctl_send(p.fd, COMCH_CTL_CONSUMER_READY, sc.id, NULL, &fd, 1);
	close(fd);
	raw_peer_expect_dropped(&p, before);
	assert_int_equal(sc_wait_state(&sc, RTE_COMCH_CTX_STATE_IDLE, SC_WAIT_MS),
			 RTE_COMCH_CTX_STATE_IDLE);
	server_consumer_fini(&sc);
}

/*
 * Stopped in the same round as the peer's fill lies: the withdrawal is queued
 * as the connection drops. The consumer may be destroyed at once; nothing of
 * it is touched afterwards (AddressSanitizer watches).
 */
static void
test_stop_as_fill_lies(void **state)
{
	uint64_t before = peer_errors();
	struct server_consumer sc;
	struct raw_peer p;

	server_consumer(&p, &sc);
	sc.slots[0].data_len = 4097;
	__atomic_store_n(&sc.slots[0].seq, 1, __ATOMIC_RELEASE);
	assert_int_equal(rte_comch_ctx_stop(rte_comch_consumer_as_ctx(sc.c)), -EINPROGRESS);
	raw_peer_expect_dropped(&p, before);
	assert_int_equal(sc_state(&sc), RTE_COMCH_CTX_STATE_IDLE);
	assert_int_equal(cons_ok, 0);
	assert_int_equal(cons_err, 2);
	server_consumer_fini(&sc);
	pump(10);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_faithful_consumer_gets_the_layout, before_each),
		cmocka_unit_test_setup(test_faithful_consumer_gets_a_bounce, before_each),
		cmocka_unit_test_setup(test_post_outside_memory, before_each),
		cmocka_unit_test_setup(test_post_offset_wraps, before_each),
		cmocka_unit_test_setup(test_posted_index_past_ring, before_each),
		cmocka_unit_test_setup(test_announce_unsealed_memory, before_each),
		cmocka_unit_test_setup(test_announce_pipe_doorbell, before_each),
		cmocka_unit_test_setup(test_announce_id_out_of_range, before_each),
		cmocka_unit_test_setup(test_announce_twice, before_each),
		cmocka_unit_test_setup(test_announce_ring_size_lies, before_each),
		cmocka_unit_test_setup(test_announce_id_zero, before_each),
		cmocka_unit_test_setup(test_announce_bounce_chunks_wrong, before_each),
		cmocka_unit_test_setup(test_announce_blob_length_wrong, before_each),
		cmocka_unit_test_setup(test_expire_unknown_consumer, before_each),
		cmocka_unit_test_setup(test_faithful_producer_is_delivered, before_each),
		cmocka_unit_test_setup(test_expiry_never_confirmed, before_each),
		cmocka_unit_test_setup(test_expiry_confirmed_late, before_each),
		cmocka_unit_test_setup(test_staged_copies_in_place, before_each),
		cmocka_unit_test_setup(test_staged_fill_longer_than_buffer, before_each),
		cmocka_unit_test_setup(test_fill_unposted_is_ignored, before_each),
		cmocka_unit_test_setup(test_bounced_fills, before_each),
		cmocka_unit_test_setup(test_fill_longer_than_buffer, before_each),
		cmocka_unit_test_setup(test_fill_immediate_too_long, before_each),
		cmocka_unit_test_setup(test_fill_unknown_flags, before_each),
		cmocka_unit_test_setup_teardown(test_bounced_fill_without_area, before_no_bounce,
						after_no_bounce),
		cmocka_unit_test_setup(test_ack_before_expired, before_each),
		cmocka_unit_test_setup(test_ready_twice, before_each),
		cmocka_unit_test_setup(test_refused_after_ready, before_each),
		cmocka_unit_test_setup(test_ack_while_starting, before_each),
		cmocka_unit_test_setup(test_stop_while_starting_ready, before_each),
		cmocka_unit_test_setup(test_stop_while_starting_refused, before_each),
		cmocka_unit_test_setup(test_start_never_answered, before_each),
		cmocka_unit_test_setup(test_start_answered_late, before_each),
		cmocka_unit_test_setup(test_ready_with_a_reply_not_taken, before_each),
		cmocka_unit_test_setup(test_stop_as_fill_lies, before_each),
	};

	return cmocka_run_group_tests_name("shm hostile fast-path peer", tests, setup, teardown);
}
