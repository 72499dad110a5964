/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The fast path's shared memory, written by a hostile peer between polls.
 *
 * The first byte of the input picks the side (its value modulo 3):
 *   0: a real producer of the server sends to a consumer the raw peer
 *      announced (with a bounce area of 2 * NB_SLOTS chunks if the byte
 *      divided by 3 is odd); the input writes the consumer's post ring
 *      (header, posted index, posts {off, len}, slots, chunks) and posts
 *      buffers. Every byte the producer changes in the consumer's memory must
 *      lie inside a post that was in the ring at some point and fits the
 *      memory: nothing else; in the post ring, it writes slots and chunks
 *      only.
 *   1: the raw peer is the producer of a real consumer of the server, whose
 *      buffers are posted (and posted again as they complete); the input writes
 *      its post ring (slots: seq, data_len, imm_len, flags, inline data;
 *      chunks) and fills slots, directly or through the bounce area. A
 *      completion must never claim more bytes than its buffer holds.
 *   2: the message rings of the connection itself: the raw peer writes the
 *      server's receive ring (slot lengths and sequence numbers) and, with
 *      R_MEM, the ring the server sends its echoes in (the consumer index, the
 *      armed flags), sends good messages and takes the echoes.
 * The rest is records (fuzz_common.h) with their own meaning here: flags are
 * R_*, the 16-bit kinds field an offset or a length, the payload bytes to write.
 */

#include <errno.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz_common.h"

#define R_WRITE 0x01   /* payload into the post ring at offset kinds */
/* side 0: post {kinds[7:0] * 256, kinds[15:8] * 16}; 1: fill a slot; 2: send the payload */
#define R_POST 0x02
/* side 0: the producer sends (payload: u16 length, imm length); 2: take the echoes */
#define R_SEND 0x04
#define R_WAIT 0x08    /* progress longer */
#define R_MEM 0x10     /* side 1: into the consumer's memory instead; 2: into the echo ring */
#define R_BOUNCE 0x20  /* side 1: the fill is marked bounced, its payload in the fill's chunk */

#define SEND_MEM 8192
#define MAX_RANGES 512
#define BUF_LEN (MEM_LEN / NB_SLOTS)

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned int iter;
/* The producer's send memory: registered once. */
static uint8_t send_mem[SEND_MEM] __rte_aligned(4096);
static struct rte_comch_mmap *send_mmap;
static struct rte_comch_buf_pool *send_pool;

/* Side 0: what the consumer memory held, and every post the producer could have seen. */
static uint8_t shadow[MEM_LEN];
/* Side 0: the post ring before its slots (header, indexes, posts), as the input left it. */
static uint8_t ring_head[4096];
static struct shm_fp_post ranges[MAX_RANGES];
static unsigned int nb_ranges;

/* Side 1: the server's consumer and its buffers. */
static struct rte_comch_consumer *cons;
static bool repost;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	fz_init("fzring");
	if (shm_fp_slots_off(NB_SLOTS) > sizeof(ring_head))
		abort();
	memset(send_mem, 0xa5, sizeof(send_mem));
	send_mmap = rte_comch_mmap_create();
	send_pool = rte_comch_buf_pool_create(16);
	if (send_mmap == NULL || send_pool == NULL ||
	    rte_comch_mmap_add_dev(send_mmap, dpu) != 0 ||
	    rte_comch_mmap_set_memrange(send_mmap, send_mem, sizeof(send_mem)) != 0 ||
	    rte_comch_mmap_start(send_mmap) != 0)
		abort();
	return 0;
}

static void
ring_write(uint8_t *ring, size_t bytes, const struct fz_record *r)
{
	size_t off = r->kinds % bytes;

	memcpy(ring + off, r->payload, RTE_MIN(r->len, bytes - off));
}

/* ------------------------------------------------ side 0: the server produces */

static void
prod_done(struct rte_comch_producer_task_send *t, union rte_comch_data a, union rte_comch_data b)
{
	struct rte_comch_buf *buf = rte_comch_producer_task_send_get_buf(t);

	RTE_SET_USED(a);
	RTE_SET_USED(b);
	if (buf != NULL)
		rte_comch_buf_dec_refcount(buf, NULL);
	rte_comch_task_free(rte_comch_producer_task_send_as_task(t));
}

/* Remember the posts in the ring now: the producer may have read any of them. */
static void
note_posts(const struct raw_consumer *rc)
{
	unsigned int i, j;

	for (i = 0; i < NB_SLOTS; i++) {
		for (j = 0; j < nb_ranges; j++)
			if (ranges[j].off == rc->posts[i].off && ranges[j].len == rc->posts[i].len)
				break;
		if (j == nb_ranges && nb_ranges < MAX_RANGES)
			ranges[nb_ranges++] = rc->posts[i];
	}
}

static bool
in_a_post(size_t i)
{
	unsigned int j;

	for (j = 0; j < nb_ranges; j++)
		if (ranges[j].off <= MEM_LEN && ranges[j].len <= MEM_LEN - ranges[j].off &&
		    i >= ranges[j].off && i < ranges[j].off + ranges[j].len)
			return true;
	return false;
}

/* Every byte the producer wrote in the consumer's memory went into a post that fits it. */
static void
check_memory(const struct raw_consumer *rc)
{
	size_t i;

	for (i = 0; i < MEM_LEN; i++) {
		if (rc->mem[i] == shadow[i])
			continue;
		if (!in_a_post(i)) {
			fprintf(stderr, "fuzz: the producer wrote byte %zu of the consumer's memory, "
				"in no post it was given\n", i);
			abort();
		}
		shadow[i] = rc->mem[i];
	}
}

/* The producer writes the consumer's slots and chunks, never what comes before them. */
static void
check_ring_head(const struct raw_consumer *rc)
{
	if (memcmp(rc->ring, ring_head, shm_fp_slots_off(NB_SLOTS)) != 0) {
		fprintf(stderr, "fuzz: the producer wrote the consumer's post ring before its "
			"slots\n");
		abort();
	}
}

static void
producer_send(struct rte_comch_producer *prod, const struct fz_record *r)
{
	static const uint8_t imm[8] = "12345678";
	struct rte_comch_producer_task_send *t;
	struct rte_comch_buf *buf = NULL;
	uint32_t len = 0, imm_len = 0;

	if (r->len >= 2)
		len = (r->payload[0] | r->payload[1] << 8) % (SEND_MEM + 1);
	if (r->len >= 3)
		imm_len = r->payload[2] % 9;
	if (len > 0 && rte_comch_buf_pool_get_by_data(send_pool, send_mmap, send_mem, len,
						      &buf) != 0)
		return;
	if (rte_comch_producer_task_send_alloc_init(prod, buf, imm, imm_len, 3, &t) != 0) {
		if (buf != NULL)
			rte_comch_buf_dec_refcount(buf, NULL);
		return;
	}
	if (rte_comch_task_submit(rte_comch_producer_task_send_as_task(t)) != 0)
		prod_done(t, (union rte_comch_data){ 0 }, (union rte_comch_data){ 0 });
}

static void
side_producer(const struct fz_record *recs, unsigned int n, bool bounce)
{
	struct rte_comch_producer *prod;
	struct comch_ctl_msg c;
	struct raw_consumer rc;
	struct raw_peer p;
	unsigned int i, nb_fds;
	struct shm_msg m;
	int fds[SHM_MAX_FDS];
	uint32_t posted;

	fz_peer_connect(&p);
	raw_consumer_init_chunks(&rc, true, bounce ? 2 * NB_SLOTS : 0);
	raw_consumer_announce(&p, &rc, 3);
	if (fz_reply(p.fd, &m, fds, &nb_fds) != SHM_MSG_CTL)
		abort();
	shm_close_fds(fds, nb_fds);
	memcpy(&c, m.ctl.msg, sizeof(c));
	if (c.type != COMCH_CTL_CONSUMER_READY)
		abort();
	prod = rte_comch_producer_create(last_conn);
	if (prod == NULL ||
	    rte_comch_producer_task_send_set_conf(prod, prod_done, prod_done, 8) != 0 ||
	    rte_comch_pe_connect_ctx(pe, rte_comch_producer_as_ctx(prod)) != 0 ||
	    rte_comch_ctx_start(rte_comch_producer_as_ctx(prod)) != 0)
		abort();
	memset(shadow, 0, sizeof(shadow));
	memcpy(ring_head, rc.ring, shm_fp_slots_off(NB_SLOTS));
	nb_ranges = 0;
	for (i = 0; i < n; i++) {
		if ((recs[i].flags & R_WRITE) != 0)
			ring_write(rc.ring, rc.ring_bytes, &recs[i]);
		if ((recs[i].flags & R_POST) != 0) {
			posted = *rc.posted;
			rc.posts[posted % NB_SLOTS].off = (uint64_t)(recs[i].kinds & 0xff) << 8;
			rc.posts[posted % NB_SLOTS].len = (uint64_t)(recs[i].kinds >> 8) << 4;
			__atomic_store_n(rc.posted, posted + 1, __ATOMIC_RELEASE);
		}
		note_posts(&rc);
		memcpy(ring_head, rc.ring, shm_fp_slots_off(NB_SLOTS));
		if ((recs[i].flags & R_SEND) != 0)
			producer_send(prod, &recs[i]);
		fz_settle((recs[i].flags & R_WAIT) != 0 ? 8 : 1);
		check_memory(&rc);
		check_ring_head(&rc);
	}
	fz_stop_wait(rte_comch_producer_as_ctx(prod), "producer");
	if (rte_comch_producer_destroy(prod) != 0)
		abort();
	check_memory(&rc);
	fz_peer_close(&p);
	raw_consumer_fini(&rc);
}

/* ------------------------------------------------ side 1: the server consumes */

static void
post(struct rte_comch_buf *buf)
{
	struct rte_comch_consumer_task_post_recv *t;

	rte_comch_buf_reset_data_len(buf);
	if (rte_comch_consumer_task_post_recv_alloc_init(cons, buf, &t) != 0) {
		rte_comch_buf_dec_refcount(buf, NULL);
		return;
	}
	if (rte_comch_task_submit(rte_comch_consumer_task_post_recv_as_task(t)) != 0) {
		rte_comch_task_free(rte_comch_consumer_task_post_recv_as_task(t));
		rte_comch_buf_dec_refcount(buf, NULL);
	}
}

static void
cons_done(struct rte_comch_consumer_task_post_recv *t, union rte_comch_data a,
	  union rte_comch_data b)
{
	struct rte_comch_buf *buf = rte_comch_consumer_task_post_recv_get_buf(t);
	int status = rte_comch_task_get_status(rte_comch_consumer_task_post_recv_as_task(t));
	uint32_t imm_len = 0;

	RTE_SET_USED(a);
	RTE_SET_USED(b);
	if (status == 0) {
		rte_comch_consumer_task_post_recv_get_imm_data(t, &imm_len);
		if (buf->data != buf->head || buf->data_len > buf->len || imm_len > 8) {
			fprintf(stderr, "fuzz: delivered %zu bytes at +%td into a buffer of %zu, "
				"%u bytes of immediate data\n", buf->data_len,
				(uint8_t *)buf->data - (uint8_t *)buf->head, buf->len, imm_len);
			abort();
		}
	}
	rte_comch_task_free(rte_comch_consumer_task_post_recv_as_task(t));
	if (status == 0 && repost)
		post(buf);
	else
		rte_comch_buf_dec_refcount(buf, NULL);
}

static void
side_consumer(const struct fz_record *recs, unsigned int n)
{
	const uint32_t perms = RTE_COMCH_MMAP_PERM_LOCAL_READ_WRITE |
			       RTE_COMCH_MMAP_PERM_PCI_READ_WRITE;
	struct rte_comch_buf_pool *pool = rte_comch_buf_pool_create(NB_SLOTS);
	struct rte_comch_mmap *mmap = rte_comch_mmap_create();
	struct rte_comch_buf *buf;
	struct shm_fp_slot *slots, *sl;
	enum rte_comch_ctx_state st;
	struct comch_ctl_msg c;
	unsigned int i, nb_fds;
	size_t ring_bytes, len;
	uint8_t *mem, *ring, *base, *bounce;
	struct raw_peer p;
	struct shm_msg m;
	int fds[SHM_MAX_FDS];
	uint32_t id, fill = 0, nb_slots, nb_chunks;

	fz_peer_connect(&p);
	if (pool == NULL || mmap == NULL || rte_comch_mmap_add_dev(mmap, dpu) != 0 ||
	    rte_comch_mmap_alloc_memrange(mmap, MEM_LEN) != 0 ||
	    rte_comch_mmap_set_permissions(mmap, perms) != 0 || rte_comch_mmap_start(mmap) != 0)
		abort();
	cons = rte_comch_consumer_create(last_conn, mmap);
	if (cons == NULL || rte_comch_consumer_get_id(cons, &id) != 0 ||
	    rte_comch_consumer_set_imm_data_len(cons, 8) != 0 ||
	    rte_comch_consumer_task_post_recv_set_conf(cons, cons_done, cons_done, NB_SLOTS) != 0 ||
	    rte_comch_pe_connect_ctx(pe, rte_comch_consumer_as_ctx(cons)) != 0 ||
	    rte_comch_ctx_start(rte_comch_consumer_as_ctx(cons)) != -EINPROGRESS ||
	    fz_reply(p.fd, &m, fds, &nb_fds) != SHM_MSG_CTL || nb_fds != 3)
		abort();
	memcpy(&c, m.ctl.msg, sizeof(c));
	nb_slots = rte_align32pow2(c.nb_posts);
	nb_chunks = 0;
	if (m.blob_len == sizeof(nb_chunks))
		memcpy(&nb_chunks, m.ctl.blob, sizeof(nb_chunks));
	ring_bytes = shm_fp_ring_bytes(nb_slots, nb_chunks);
	mem = map_fd(fds[0], MEM_LEN);
	ring = map_fd(fds[1], ring_bytes);
	shm_close_fds(fds, nb_fds);
	slots = (struct shm_fp_slot *)(void *)(ring + shm_fp_slots_off(nb_slots));
	bounce = nb_chunks != 0 ? ring + shm_fp_bounce_off(nb_slots) : NULL;
	raw_ctl_send(p.fd, COMCH_CTL_CONSUMER_READY, id, NULL, NULL, 0);
	for (i = 0; i < 100000; i++) {
		fz_pump(1);
		if (rte_comch_ctx_get_state(rte_comch_consumer_as_ctx(cons), &st) == 0 &&
		    st == RTE_COMCH_CTX_STATE_RUNNING)
			break;
	}
	if (st != RTE_COMCH_CTX_STATE_RUNNING)
		abort();
	rte_comch_mmap_get_memrange(mmap, (void **)&base, &len);
	repost = true;
	for (i = 0; i < NB_SLOTS; i++) {
		if (rte_comch_buf_pool_get_by_addr(pool, mmap, base + i * BUF_LEN, BUF_LEN,
						   &buf) != 0)
			abort();
		post(buf);
	}
	for (i = 0; i < n; i++) {
		if ((recs[i].flags & R_WRITE) != 0)
			ring_write((recs[i].flags & R_MEM) != 0 ? mem : ring,
				   (recs[i].flags & R_MEM) != 0 ? MEM_LEN : ring_bytes, &recs[i]);
		if ((recs[i].flags & R_POST) != 0) {
			/*
			 * The next fill, well-formed but for the length the fuzzer gives and
			 * the flags it wrote there, marked bounced with R_BOUNCE.
			 */
			sl = &slots[fill & (nb_slots - 1)];
			sl->data_len = recs[i].kinds;
			sl->imm_len = recs[i].len > 0 ? recs[i].payload[0] % 9 : 0;
			sl->producer_id = recs[i].len > 1 ? recs[i].payload[1] : 0;
			memcpy(sl->inline_data, recs[i].payload,
			       RTE_MIN(recs[i].len, sizeof(sl->inline_data)));
			if ((recs[i].flags & R_BOUNCE) != 0) {
				sl->flags = SHM_FP_SLOT_BOUNCED;
				if (bounce != NULL)
					memcpy(shm_fp_chunk(bounce, nb_chunks - 1, fill),
					       recs[i].payload, recs[i].len);
			}
			__atomic_store_n(&sl->seq, ++fill, __ATOMIC_RELEASE);
		}
		fz_settle((recs[i].flags & R_WAIT) != 0 ? 8 : 1);
	}
	/* The peer goes first: the consumer must stop without its ACK, and give every buffer back. */
	repost = false;
	fz_peer_close(&p);
	fz_stop_wait(rte_comch_consumer_as_ctx(cons), "consumer");
	if (rte_comch_consumer_destroy(cons) != 0 || rte_comch_buf_pool_destroy(pool) != 0 ||
	    rte_comch_mmap_stop(mmap) != 0 || rte_comch_mmap_destroy(mmap) != 0) {
		fprintf(stderr, "fuzz: the consumer's objects would not go\n");
		abort();
	}
	cons = NULL;
	munmap(mem, MEM_LEN);
	munmap(ring, ring_bytes);
}

/* ------------------------------------------------ side 2: the message rings */

static void
side_messages(const struct fz_record *recs, unsigned int n)
{
	struct rte_comch_drv_msg msgs[8];
	struct shm_ring *r;
	struct raw_peer p;
	unsigned int i;
	int got;

	fz_peer_connect(&p);
	for (i = 0; i < n; i++) {
		r = (recs[i].flags & R_MEM) != 0 ? &p.rx : &p.tx;
		if ((recs[i].flags & R_WRITE) != 0)
			ring_write(r->base, r->bytes, &recs[i]);
		if ((recs[i].flags & R_POST) != 0 && recs[i].len <= p.tx.max_msg &&
		    shm_ring_send(&p.tx, recs[i].payload, recs[i].len) == 0)
			shm_ring_pair_kick(&p.rx, &p.tx);
		if ((recs[i].flags & R_SEND) != 0) {
			/* Our own reading may fail on what we wrote there ourselves: no matter. */
			got = shm_ring_rx_peek(&p.rx, msgs, RTE_DIM(msgs));
			if (got > 0)
				shm_ring_rx_release(&p.rx, got);
			shm_ring_pair_kick(&p.rx, &p.tx);
		}
		fz_settle((recs[i].flags & R_WAIT) != 0 ? 8 : 1);
	}
	fz_peer_close(&p);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_record recs[FZ_MAX_RECORDS];
	unsigned int before = count_fds(), n;
	uint8_t side = 0;

	if (size > 0) {
		side = data[0];
		data++;
		size--;
	}
	n = fz_split(data, size, recs, FZ_MAX_RECORDS);
	if (side % 3 == 0)
		side_producer(recs, n, (side / 3) % 2 != 0);
	else if (side % 3 == 1)
		side_consumer(recs, n);
	else
		side_messages(recs, n);
	fz_check_fds(before, "ring");
	fz_check_server(&iter);
	return 0;
}
