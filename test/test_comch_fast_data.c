/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Fast path data, on one engine and on two (split) or more engines of one
 * lcore: data lands byte for byte at the tail of the next posted buffer's data
 * (its head, for an empty buffer) with data_len, immediate data and producer
 * id; immediate-only messages; -EMSGSIZE leaves the posted buffer posted and
 * untouched; order per consumer; several producers and consumers in both
 * directions; sizes 0 to 16 MiB; a consumer never has more than num_tasks
 * buffers posted; only the bytes in use travel; appends; large messages at
 * destinations of any alignment; a consumer on the application's own memory
 * (set_memrange).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>

#include "comch_test_common.h"

static const int mode_one = CT_FAST_ONE;
static const int mode_split = CT_FAST_SPLIT;
static const int mode_own = CT_FAST_OWN;

#define MODE(state) ((enum ct_fast_mode)*(const int *)*(state))
#define MIB ((size_t)1 << 20)

/* One producer to one consumer, server to client then client to server. */
static void
one_way_bytes(struct ct_pair *p, bool from_server)
{
	static const size_t sizes[] = { 1, 15, 16, 17, 100, 4096, 4095, 65536 };
	static const uint32_t imms[] = { 0, 1, 8, 32 };
	struct ct_prod pr;
	struct ct_cons c;
	uint32_t k, n = RTE_DIM(sizes) * 2;

	ct_cons_new(&c, from_server ? p->cconn : p->sconn, ct_fast_pe(p, !from_server), 4,
		    65536, RTE_COMCH_MAX_IMM_DATA_LEN);
	c.check = true;
	c.repost = true;
	ct_cons_start(p, &c, from_server ? &p->srv : &p->cli);
	ct_cons_post_all(&c);
	ct_prod_new(&pr, from_server ? p->sconn : p->cconn, ct_fast_pe(p, from_server), 4,
		    65536, true);
	for (k = 0; k < n; k++) {
		size_t len = sizes[k % RTE_DIM(sizes)];
		uint32_t imm = imms[k % RTE_DIM(imms)];

		assert_int_equal(ct_prod_send_retry(p, &pr, c.id, len, imm, NULL), 0);
		assert_int_equal(ct_fast_wait_count(p, &c.nb_ok, k + 1), 0);
		assert_int_equal(c.bad, 0);
		assert_int_equal(c.last_prod_id, pr.id);
		assert_int_equal(c.last_data_len, len);
		assert_int_equal(c.last_imm_len, imm);
		/* the buffers are used in the order they were posted */
		assert_ptr_equal(c.last_data, c.mem + (k % c.nb_slots) * c.slot);
		assert_int_equal(ct_fast_check(c.last_data, len, pr.id, k), 0);
	}
	assert_int_equal(ct_fast_wait_count(p, &pr.nb_ok, n), 0);
	assert_int_equal(pr.nb_err, 0);
	assert_int_equal(c.nb_err, 0);
	ct_prod_stop(p, &pr);
	ct_prod_free(&pr);
	ct_cons_stop(p, &c, from_server ? &p->srv : &p->cli);
	/* the 4 buffers still posted are flushed */
	assert_int_equal(c.nb_err, c.nb_slots);
	assert_int_equal(c.err_status[0], -ECONNABORTED);
	ct_cons_free(&c);
}

static void
test_bytes_imm_producer_id(void **state)
{
	struct ct_pair p;

	ct_fast_up(&p, NULL, MODE(state));
	one_way_bytes(&p, true);
	one_way_bytes(&p, false);
	ct_pair_close(&p);
}

static void
test_imm_only(void **state)
{
	struct ct_cons c, d;
	struct ct_prod pr;
	struct ct_pair p;
	uint32_t seq;

	ct_fast_up(&p, NULL, MODE(state));
	/* c posts no buffers at all; d posts 64-byte buffers */
	ct_cons_new(&c, p.cconn, ct_fast_pe(&p, false), 4, 0, RTE_COMCH_MAX_IMM_DATA_LEN);
	ct_cons_new(&d, p.cconn, ct_fast_pe(&p, false), 2, 64, 4);
	c.check = d.check = true;
	c.repost = true;
	ct_cons_start(&p, &c, &p.srv);
	ct_cons_start(&p, &d, &p.srv);
	ct_cons_post_all(&c);
	ct_cons_post_all(&d);
	ct_prod_new(&pr, p.sconn, ct_fast_pe(&p, true), 8, 4096, true);

	assert_int_equal(ct_prod_send_retry(&p, &pr, c.id, CT_NOBUF, 32, NULL), 0);
	assert_int_equal(ct_fast_wait_count(&p, &c.nb_ok, 1), 0);
	assert_null(c.last_data);
	assert_int_equal(c.last_imm_len, 32);
	assert_int_equal(c.last_prod_id, pr.id);
	assert_int_equal(ct_prod_send_retry(&p, &pr, c.id, CT_NOBUF, 1, NULL), 0);
	assert_int_equal(ct_prod_send_retry(&p, &pr, c.id, CT_NOBUF, 0, NULL), 0);
	assert_int_equal(ct_fast_wait_count(&p, &c.nb_ok, 3), 0);
	assert_int_equal(c.last_imm_len, 0);
	/* data does not fit in no buffer; an empty buffer does */
	assert_int_equal(ct_prod_send(&pr, c.id, 1, 4, NULL), -EMSGSIZE);
	assert_int_equal(ct_prod_send(&pr, c.id, 10, 4, NULL), -EMSGSIZE);
	assert_int_equal(ct_prod_send_retry(&p, &pr, c.id, 0, 4, NULL), 0);
	assert_int_equal(ct_fast_wait_count(&p, &c.nb_ok, 4), 0);
	assert_int_equal(c.last_imm_len, 4);
	assert_int_equal(c.bad, 0);

	/* no buffer sent into a posted buffer: data_len 0 at its head */
	seq = ct_cons_next_seq(&d, pr.id);
	assert_int_equal(seq, 0);
	assert_int_equal(ct_prod_send_retry(&p, &pr, d.id, CT_NOBUF, 4, NULL), 0);
	assert_int_equal(ct_fast_wait_count(&p, &d.nb_ok, 1), 0);
	assert_ptr_equal(d.last_data, d.mem);
	assert_int_equal(d.last_data_len, 0);
	assert_int_equal(d.last_imm_len, 4);
	assert_int_equal(d.bad, 0);
	assert_int_equal(ct_fast_wait_count(&p, &pr.nb_ok, 5), 0);
	assert_int_equal(pr.nb_err, 0);
	ct_cons_stop(&p, &d, &p.srv);
	ct_cons_free(&d);
	ct_fast_close_all(&p, &pr, 1, &c, 1);
}

/* -EMSGSIZE: nothing written, the buffer stays posted and takes the next message. */
static void
test_emsgsize_keeps_buffer(void **state)
{
	struct rte_comch_consumer_task_post_recv *t;
	struct rte_comch_buf *small = NULL;
	struct ct_prod pr;
	struct ct_cons c;
	struct ct_pair p;
	size_t i;

	ct_fast_up(&p, NULL, MODE(state));
	ct_cons_new(&c, p.sconn, ct_fast_pe(&p, true), 3, 4096, 8);
	c.check = true;
	ct_cons_start(&p, &c, &p.cli);
	ct_prod_new(&pr, p.cconn, ct_fast_pe(&p, false), 8, 8192, true);
	memset(c.mem, 0xcc, c.mem_len);
	/* first posted: 64 bytes at slot 0; then the whole slot 1 */
	assert_int_equal(rte_comch_buf_pool_get_by_addr(c.pool, c.mmap, c.mem, 64, &small), 0);
	assert_int_equal(rte_comch_consumer_task_post_recv_alloc_init(c.cons, small, &t), 0);
	assert_int_equal(rte_comch_task_submit(rte_comch_consumer_task_post_recv_as_task(t)), 0);
	assert_int_equal(ct_cons_post(&c, 1, NULL), 0);

	/* (retried until the posted buffers are seen: -EAGAIN until then) */
	assert_int_equal(ct_prod_send_retry(&p, &pr, c.id, 65, 8, NULL), -EMSGSIZE);
	assert_int_equal(ct_prod_send(&pr, c.id, 4096, 8, NULL), -EMSGSIZE);
	/* immediate data above the consumer's 8 bytes */
	assert_int_equal(ct_prod_send(&pr, c.id, 10, 9, NULL), -EMSGSIZE);
	assert_int_equal(ct_prod_send(&pr, c.id, CT_NOBUF, RTE_COMCH_MAX_IMM_DATA_LEN, NULL),
			 -EMSGSIZE);
	ct_fast_progress_for(&p, 20);
	assert_int_equal(c.nb_ok, 0);
	assert_int_equal(c.nb_err, 0);
	for (i = 0; i < c.mem_len; i++)
		if (c.mem[i] != 0xcc)
			fail_msg("byte %zu written by a refused send", i);
	assert_int_equal(pr.nb_sent, 0);

	/* the same buffer takes the next message that fits, then the next buffer */
	assert_int_equal(ct_prod_send(&pr, c.id, 64, 8, NULL), 0);
	assert_int_equal(ct_prod_send_retry(&p, &pr, c.id, 65, 0, NULL), 0);
	assert_int_equal(ct_fast_wait_count(&p, &c.nb_ok, 2), 0);
	assert_int_equal(c.bad, 0);
	assert_int_equal(c.last_data_len, 65);
	assert_ptr_equal(c.last_data, c.mem + 4096);
	assert_int_equal(ct_fast_check(c.mem, 64, pr.id, 0), 0);
	assert_int_equal(c.mem[64], 0xcc);
	assert_int_equal(c.mem[4096 + 65], 0xcc);
	assert_int_equal(ct_fast_wait_count(&p, &pr.nb_ok, 2), 0);
	assert_int_equal(pr.nb_err, 0);
	/* nothing posted any more */
	assert_int_equal(ct_prod_send(&pr, c.id, 1, 0, NULL), -EAGAIN);
	ct_fast_close_all(&p, &pr, 1, &c, 1);
}

/* n messages of varying size through 8 buffers, on a pair of cfg: in order, intact. */
static void
order(void **state, struct ct_cfg *cfg, uint32_t n)
{
	struct ct_prod pr;
	struct ct_cons c;
	struct ct_pair p;
	uint32_t k, again = 0;

	ct_fast_up(&p, cfg, MODE(state));
	ct_cons_new(&c, p.cconn, ct_fast_pe(&p, false), 8, 2048, 16);
	c.check = true;
	c.repost = true;
	ct_cons_start(&p, &c, &p.srv);
	ct_cons_post_all(&c);
	ct_prod_new(&pr, p.sconn, ct_fast_pe(&p, true), 64, 2048, true);
	for (k = 0; k < n; k++)
		assert_int_equal(ct_prod_send_retry(&p, &pr, c.id, (k * 37) % 2049,
						    k % 17, &again), 0);
	assert_int_equal(ct_fast_wait_count(&p, &c.nb_ok, n), 0);
	assert_int_equal(ct_fast_wait_count(&p, &pr.nb_ok, n), 0);
	assert_int_equal(c.bad, 0);
	assert_int_equal(ct_cons_next_seq(&c, pr.id), n);
	assert_int_equal(pr.nb_err, 0);
	assert_int_equal(c.nb_repost_fail, 0);
	/* 8 buffers for 1000 messages: the producer had to wait */
	assert_true(again > 0);
	ct_fast_close_all(&p, &pr, 1, &c, 1);
}

static void
test_order(void **state)
{
	order(state, NULL, 1000);
}

/*
 * Long enough for shm's choice of copy (shm_copy.h) to try each way in turn
 * and change ways (sizes up to 2 KiB: the bounce, ordinary and non-temporal
 * copies), with every message checked.
 */
static void
test_order_long(void **state)
{
	order(state, NULL, 12000);
}

/* order() on shm devices with more devargs (skipped on other drivers, which lack them). */
static void
order_shm(void **state, const char *devargs, uint32_t n)
{
	struct ct_cfg cfg = { .devargs = devargs };

	if (strcmp(ct_driver(), "shm") != 0)
		skip();
	order(state, &cfg, n);
}

/*
 * shm with bounce areas of one chunk per slot: each chunk is written again as
 * soon as the library lets the producer have its slot.
 */
static void
test_order_tight_bounce(void **state)
{
	order_shm(state, "bounce=4K", 3000);
}

/* shm without bounce areas: messages up to 4 KiB straight into the buffers. */
static void
test_order_no_bounce(void **state)
{
	order_shm(state, "bounce=0", 1000);
}

#define NP 3
#define NC 3
#define M 40

/* NP producers and NC consumers on each side; every producer to every consumer opposite. */
static void
test_many_both_ways(void **state)
{
	struct ct_prod pr[2 * NP];
	struct ct_cons c[2 * NC];
	struct ct_pair p;
	uint32_t m, i, j;

	ct_fast_up(&p, NULL, MODE(state));
	for (i = 0; i < 2 * NC; i++) {
		bool srv = i < NC;

		ct_cons_new(&c[i], srv ? p.sconn : p.cconn, ct_fast_pe(&p, srv), 4, 2048, 16);
		c[i].check = true;
		c[i].repost = true;
		ct_cons_start(&p, &c[i], srv ? &p.cli : &p.srv);
		ct_cons_post_all(&c[i]);
	}
	for (i = 0; i < 2 * NP; i++) {
		bool srv = i < NP;

		ct_prod_new(&pr[i], srv ? p.sconn : p.cconn, ct_fast_pe(&p, srv), 16, 2048, true);
	}
	for (m = 0; m < M; m++)
		for (i = 0; i < 2 * NP; i++)
			for (j = 0; j < NC; j++) {
				/* server producers to client consumers and back */
				struct ct_cons *to = &c[i < NP ? NC + j : j];

				assert_int_equal(ct_prod_send_retry(&p, &pr[i], to->id,
					(m * 131 + i * 7 + j) % 2049, (m + i) % 17, NULL), 0);
			}
	for (i = 0; i < 2 * NC; i++) {
		assert_int_equal(ct_fast_wait_count(&p, &c[i].nb_ok, NP * M), 0);
		assert_int_equal(c[i].bad, 0);
		assert_int_equal(c[i].nb_prods, NP);
		for (j = 0; j < NP; j++)
			assert_int_equal(ct_cons_next_seq(&c[i],
				pr[i < NC ? NP + j : j].id), M);
	}
	for (i = 0; i < 2 * NP; i++) {
		assert_int_equal(ct_fast_wait_count(&p, &pr[i].nb_ok, NC * M), 0);
		assert_int_equal(pr[i].nb_err, 0);
	}
	ct_fast_close_all(&p, pr, 2 * NP, c, 2 * NC);
}

/* 0, 1, 4 KiB, 1 MiB and 16 MiB, both ways; 16 MiB + 1 does not fit. */
static void
sizes_one_way(struct ct_pair *p, bool from_server)
{
	static const size_t sizes[] = { 0, 1, 4096, MIB, 16 * MIB, 16 * MIB - 1, 7 };
	struct ct_prod pr;
	struct ct_cons c;
	uint32_t k;

	ct_cons_new(&c, from_server ? p->cconn : p->sconn, ct_fast_pe(p, !from_server), 1,
		    16 * MIB, 0);
	c.check = true;
	c.repost = true;
	ct_cons_start(p, &c, from_server ? &p->srv : &p->cli);
	ct_cons_post_all(&c);
	ct_prod_new(&pr, from_server ? p->sconn : p->cconn, ct_fast_pe(p, from_server), 2,
		    16 * MIB + 1, true);
	for (k = 0; k < RTE_DIM(sizes); k++) {
		assert_int_equal(ct_prod_send_retry(p, &pr, c.id, sizes[k], 0, NULL), 0);
		assert_int_equal(ct_fast_wait_count(p, &c.nb_ok, k + 1), 0);
		assert_int_equal(c.bad, 0);
		assert_int_equal(c.last_data_len, sizes[k]);
		assert_ptr_equal(c.last_data, c.mem);
		assert_int_equal(ct_fast_check(c.mem, sizes[k], pr.id, k), 0);
	}
	assert_int_equal(ct_prod_send_retry(p, &pr, c.id, 16 * MIB + 1, 0, NULL), -EMSGSIZE);
	assert_int_equal(ct_fast_wait_count(p, &pr.nb_ok, RTE_DIM(sizes)), 0);
	assert_int_equal(pr.nb_err, 0);
	ct_prod_stop(p, &pr);
	ct_prod_free(&pr);
	ct_cons_stop(p, &c, NULL);
	ct_cons_free(&c);
}

static void
test_sizes(void **state)
{
	struct ct_pair p;

	ct_fast_up(&p, NULL, MODE(state));
	sizes_one_way(&p, true);
	sizes_one_way(&p, false);
	ct_pair_close(&p);
}

/*
 * At most num_tasks buffers posted: the pool holds num_tasks tasks, and a
 * consumer reposting from its callback always has room again.
 */
static void
test_posted_limit(void **state)
{
	struct rte_comch_consumer_task_post_recv *t = NULL;
	struct ct_prod pr;
	struct ct_cons c;
	struct ct_pair p;
	uint32_t k;

	ct_fast_up(&p, NULL, MODE(state));
	ct_cons_new(&c, p.sconn, ct_fast_pe(&p, true), 4, 128, 0);
	c.check = true;
	c.repost = true;
	ct_cons_start(&p, &c, &p.cli);
	ct_cons_post_all(&c);
	assert_int_equal(rte_comch_consumer_task_post_recv_alloc_init(c.cons, NULL, &t),
			 -ENOMEM);
	ct_prod_new(&pr, p.cconn, ct_fast_pe(&p, false), 8, 128, true);
	/* rounds of exactly num_tasks messages, reposted from the callbacks */
	for (k = 0; k < 10 * c.nb_slots; k++) {
		assert_int_equal(ct_prod_send_retry(&p, &pr, c.id, 128, 0, NULL), 0);
		if (k % c.nb_slots == c.nb_slots - 1)
			assert_int_equal(ct_fast_wait_count(&p, &c.nb_ok, k + 1), 0);
	}
	assert_int_equal(c.nb_repost_fail, 0);
	assert_int_equal(c.bad, 0);
	/* still exactly num_tasks posted: four more fit at once, the fifth waits */
	ct_fast_progress_for(&p, 50);
	for (k = 0; k < c.nb_slots; k++)
		assert_int_equal(ct_prod_send(&pr, c.id, 100, 0, NULL), 0);
	assert_int_equal(ct_prod_send(&pr, c.id, 100, 0, NULL), -EAGAIN);
	assert_int_equal(ct_fast_wait_count(&p, &c.nb_ok, 11 * c.nb_slots), 0);
	assert_int_equal(ct_fast_wait_count(&p, &pr.nb_ok, 11 * c.nb_slots), 0);
	ct_fast_close_all(&p, &pr, 1, &c, 1);
}

/*
 * Only the bytes in use travel: a send buffer whose data starts inside its
 * piece; a post-recv task moved to another buffer receives there.
 */
static void
test_buf_offsets(void **state)
{
	struct rte_comch_consumer_task_post_recv *rt = NULL;
	struct rte_comch_producer_task_send *st = NULL;
	struct rte_comch_buf *sb = NULL, *rb = NULL, *rb2 = NULL;
	struct ct_prod pr;
	struct ct_cons c;
	struct ct_pair p;

	ct_fast_up(&p, NULL, MODE(state));
	ct_cons_new(&c, p.cconn, ct_fast_pe(&p, false), 2, 1024, 0);
	c.keep_tasks = true;
	ct_cons_start(&p, &c, &p.srv);
	ct_prod_new(&pr, p.sconn, ct_fast_pe(&p, true), 4, 4096, true);
	pr.keep_tasks = true;
	memset(c.mem, 0xcc, c.mem_len);

	assert_int_equal(rte_comch_buf_pool_get_by_addr(c.pool, c.mmap, c.mem, 1024, &rb), 0);
	assert_int_equal(rte_comch_buf_pool_get_by_addr(c.pool, c.mmap, c.mem + 1024, 1024,
		&rb2), 0);
	assert_int_equal(rte_comch_consumer_task_post_recv_alloc_init(c.cons, rb, &rt), 0);
	assert_int_equal(rte_comch_task_submit(rte_comch_consumer_task_post_recv_as_task(rt)), 0);

	/* 50 bytes in use at offset 100 of a 4 KiB piece */
	memset(pr.mem, 0x11, 4096);
	ct_fast_fill(pr.mem + 100, 50, pr.id, 0);
	assert_int_equal(rte_comch_buf_pool_get_by_addr(pr.pool, pr.mmap, pr.mem, 4096, &sb), 0);
	assert_int_equal(rte_comch_buf_set_data(sb, pr.mem + 100, 50), 0);
	assert_int_equal(rte_comch_producer_task_send_alloc_init(pr.prod, sb, NULL, 0, c.id, &st),
			 0);
	assert_int_equal(rte_comch_task_submit(rte_comch_producer_task_send_as_task(st)), 0);
	assert_int_equal(ct_fast_wait_count(&p, &c.nb_ok, 1), 0);
	assert_ptr_equal(c.last_data, c.mem);
	assert_int_equal(c.last_data_len, 50);
	assert_int_equal(ct_fast_check(c.mem, 50, pr.id, 0), 0);
	assert_int_equal(c.mem[50], 0xcc);

	/* the same post-recv task, moved to the second buffer */
	assert_int_equal(ct_fast_wait_count(&p, &pr.nb_ok, 1), 0);
	assert_int_equal(rte_comch_consumer_task_post_recv_set_buf(rt, rb2), 0);
	assert_int_equal(rte_comch_task_submit(rte_comch_consumer_task_post_recv_as_task(rt)), 0);
	ct_fast_fill(pr.mem + 3000, 1000, pr.id, 1);
	assert_int_equal(rte_comch_buf_set_data(sb, pr.mem + 3000, 1000), 0);
	assert_int_equal(rte_comch_task_submit(rte_comch_producer_task_send_as_task(st)), 0);
	assert_int_equal(ct_fast_wait_count(&p, &c.nb_ok, 2), 0);
	assert_ptr_equal(c.last_data, c.mem + 1024);
	assert_ptr_equal(rb2->data, rb2->head);
	assert_int_equal(rb2->data_len, 1000);
	assert_int_equal(ct_fast_check(c.mem + 1024, 1000, pr.id, 1), 0);
	/* the first buffer was left alone */
	assert_int_equal(ct_fast_check(c.mem, 50, pr.id, 0), 0);
	assert_int_equal(c.mem[1024 + 1000], 0xcc);
	assert_int_equal(c.bad, 0);
	assert_int_equal(ct_fast_wait_count(&p, &pr.nb_ok, 2), 0);
	assert_int_equal(pr.nb_err, 0);

	assert_int_equal(rte_comch_task_free(rte_comch_consumer_task_post_recv_as_task(rt)), 0);
	assert_int_equal(rte_comch_buf_dec_refcount(rb, NULL), 0);
	assert_int_equal(rte_comch_buf_dec_refcount(rb2, NULL), 0);
	ct_prod_task_release(st);
	ct_fast_close_all(&p, &pr, 1, &c, 1);
}

static void
repost(struct rte_comch_consumer_task_post_recv *t)
{
	assert_int_equal(rte_comch_task_submit(rte_comch_consumer_task_post_recv_as_task(t)), 0);
}

/*
 * On a consumer with keep_tasks and nothing posted, that no message was sent
 * to yet: a post-recv task appends at the tail of its buffer's data, as DOCA
 * describes it. The data lands at data + data_len, data_len grows by the
 * message and data stays; only the room left to the end of the piece is
 * offered (-EMSGSIZE beyond it, and the buffer stays posted, untouched); a
 * buffer with no data in use receives at its data pointer; a buffer whose
 * fields do not describe data inside its piece is refused at submit.
 */
static void
appends(struct ct_pair *p, struct ct_cons *c, struct ct_prod *pr)
{
	struct rte_comch_consumer_task_post_recv *t = NULL;
	struct rte_comch_buf *b = NULL;
	uint32_t ok = c->nb_ok;
	size_t i;

	memset(c->mem, 0xcc, 1100);
	memset(c->mem, 0x5a, 10);
	/* a piece of 1000 bytes, the first 10 in use */
	assert_int_equal(rte_comch_buf_pool_get_by_addr(c->pool, c->mmap, c->mem, 1000, &b), 0);
	assert_int_equal(rte_comch_buf_set_data(b, c->mem, 10), 0);
	assert_int_equal(rte_comch_consumer_task_post_recv_alloc_init(c->cons, b, &t), 0);

	/* 50 bytes (with shm, in the slot), then 200 (straight into the buffer) */
	repost(t);
	assert_int_equal(ct_prod_send_retry(p, pr, c->id, 50, 0, NULL), 0);
	assert_int_equal(ct_fast_wait_count(p, &c->nb_ok, ++ok), 0);
	assert_ptr_equal(b->data, c->mem);
	assert_int_equal(b->data_len, 60);
	for (i = 0; i < 10; i++)
		assert_int_equal(c->mem[i], 0x5a);
	assert_int_equal(ct_fast_check(c->mem + 10, 50, pr->id, 0), 0);
	assert_int_equal(c->mem[60], 0xcc);
	repost(t);
	assert_int_equal(ct_prod_send_retry(p, pr, c->id, 200, 0, NULL), 0);
	assert_int_equal(ct_fast_wait_count(p, &c->nb_ok, ++ok), 0);
	assert_ptr_equal(b->data, c->mem);
	assert_int_equal(b->data_len, 260);
	assert_int_equal(ct_fast_check(c->mem + 10, 50, pr->id, 0), 0);
	assert_int_equal(ct_fast_check(c->mem + 60, 200, pr->id, 1), 0);
	assert_int_equal(c->mem[260], 0xcc);

	/* 740 bytes of room left: 741 do not fit, and the buffer stays posted */
	repost(t);
	assert_int_equal(ct_prod_send_retry(p, pr, c->id, 741, 0, NULL), -EMSGSIZE);
	ct_fast_progress_for(p, 10);
	assert_int_equal(c->nb_ok, ok);
	for (i = 260; i < 1100; i++)
		if (c->mem[i] != 0xcc)
			fail_msg("byte %zu written by a refused send", i);
	assert_int_equal(ct_prod_send(pr, c->id, 740, 0, NULL), 0);
	assert_int_equal(ct_fast_wait_count(p, &c->nb_ok, ++ok), 0);
	assert_int_equal(b->data_len, 1000);
	assert_int_equal(ct_fast_check(c->mem + 260, 740, pr->id, 2), 0);
	assert_int_equal(c->mem[1000], 0xcc);

	/* full: no room, immediate data only still fits */
	repost(t);
	assert_int_equal(ct_prod_send_retry(p, pr, c->id, 1, 0, NULL), -EMSGSIZE);
	assert_int_equal(ct_prod_send(pr, c->id, CT_NOBUF, 0, NULL), 0);
	assert_int_equal(ct_fast_wait_count(p, &c->nb_ok, ++ok), 0);
	assert_ptr_equal(b->data, c->mem);
	assert_int_equal(b->data_len, 1000);

	/* no data in use: the message lands at the data pointer, wherever it is */
	assert_int_equal(rte_comch_buf_set_data(b, c->mem + 100, 0), 0);
	repost(t);
	assert_int_equal(ct_prod_send_retry(p, pr, c->id, 30, 0, NULL), 0);
	assert_int_equal(ct_fast_wait_count(p, &c->nb_ok, ++ok), 0);
	assert_ptr_equal(b->data, c->mem + 100);
	assert_int_equal(b->data_len, 30);
	assert_int_equal(ct_fast_check(c->mem + 100, 30, pr->id, 4), 0);
	assert_int_equal(ct_fast_check(c->mem + 10, 50, pr->id, 0), 0);

	/* fields changed by hand into something outside the piece: refused */
	b->data_len = 901;
	assert_int_equal(rte_comch_task_submit(rte_comch_consumer_task_post_recv_as_task(t)),
			 -EINVAL);
	b->data = c->mem + 1001;
	b->data_len = 0;
	assert_int_equal(rte_comch_task_submit(rte_comch_consumer_task_post_recv_as_task(t)),
			 -EINVAL);
	assert_int_equal(rte_comch_task_free(rte_comch_consumer_task_post_recv_as_task(t)), 0);
	assert_int_equal(rte_comch_buf_dec_refcount(b, NULL), 0);
}

static void
test_recv_appends(void **state)
{
	uint8_t *user = aligned_alloc(4096, 4096);
	struct ct_cons c, u;
	struct ct_prod pr;
	struct ct_pair p;

	assert_non_null(user);
	ct_fast_up(&p, NULL, MODE(state));
	/* on memory of the driver's, and on the application's (shm: staged) */
	ct_cons_new(&c, p.cconn, ct_fast_pe(&p, false), 2, 2048, 0);
	ct_cons_new_user(&u, p.cconn, ct_fast_pe(&p, false), 2, 2048, 0, user);
	c.keep_tasks = u.keep_tasks = true;
	ct_cons_start(&p, &c, &p.srv);
	ct_cons_start(&p, &u, &p.srv);
	ct_prod_new(&pr, p.sconn, ct_fast_pe(&p, true), 8, 4096, true);
	appends(&p, &c, &pr);
	appends(&p, &u, &pr);
	assert_int_equal(ct_fast_wait_count(&p, &pr.nb_ok, 10), 0);
	assert_int_equal(pr.nb_err, 0);
	ct_prod_stop(&p, &pr);
	ct_prod_free(&pr);
	ct_cons_stop(&p, &c, &p.srv);
	ct_cons_free(&c);
	ct_cons_stop(&p, &u, &p.srv);
	ct_cons_free(&u);
	ct_pair_close(&p);
	free(user);
}

/*
 * Large messages at the tail of data already in use, so at destinations of any
 * alignment, and of lengths that are no multiple of a cache line or of 16
 * (shm copies from 1 KiB on with non-temporal stores, whole 64-byte blocks and
 * the rest apart): every byte lands, nothing before or after is written.
 */
static void
test_large_unaligned(void **state)
{
	static const uint32_t used[] = { 1, 7, 15, 16, 33, 63, 64 };
	static const uint32_t lens[] = { 1024, 1025, 1087, 3001, 4095 };
	struct rte_comch_consumer_task_post_recv *t = NULL;
	struct rte_comch_buf *b = NULL;
	uint32_t k, i, ok, seq = 0;
	struct ct_prod pr;
	struct ct_cons c;
	struct ct_pair p;

	ct_fast_up(&p, NULL, MODE(state));
	ct_cons_new(&c, p.cconn, ct_fast_pe(&p, false), 2, 8192, 0);
	c.keep_tasks = true;
	ct_cons_start(&p, &c, &p.srv);
	ct_prod_new(&pr, p.sconn, ct_fast_pe(&p, true), 8, 8192, true);
	assert_int_equal(rte_comch_buf_pool_get_by_addr(c.pool, c.mmap, c.mem, 8192, &b), 0);
	assert_int_equal(rte_comch_consumer_task_post_recv_alloc_init(c.cons, b, &t), 0);
	ok = c.nb_ok;
	for (k = 0; k < RTE_DIM(used) * RTE_DIM(lens); k++) {
		uint32_t u = used[k % RTE_DIM(used)], len = lens[k % RTE_DIM(lens)];

		memset(c.mem, 0xcc, 8192);
		memset(c.mem, 0x5a, u);
		assert_int_equal(rte_comch_buf_set_data(b, c.mem, u), 0);
		repost(t);
		assert_int_equal(ct_prod_send_retry(&p, &pr, c.id, len, 0, NULL), 0);
		assert_int_equal(ct_fast_wait_count(&p, &c.nb_ok, ++ok), 0);
		assert_int_equal(b->data_len, u + len);
		for (i = 0; i < u; i++)
			assert_int_equal(c.mem[i], 0x5a);
		assert_int_equal(ct_fast_check(c.mem + u, len, pr.id, seq++), 0);
		for (i = u + len; i < 8192; i++)
			if (c.mem[i] != 0xcc)
				fail_msg("byte %u after %u + %u written", i, u, len);
	}
	assert_int_equal(rte_comch_task_free(rte_comch_consumer_task_post_recv_as_task(t)), 0);
	assert_int_equal(rte_comch_buf_dec_refcount(b, NULL), 0);
	assert_int_equal(ct_fast_wait_count(&p, &pr.nb_ok, seq), 0);
	assert_int_equal(pr.nb_err, 0);
	ct_prod_stop(&p, &pr);
	ct_prod_free(&pr);
	ct_cons_stop(&p, &c, &p.srv);
	ct_cons_free(&c);
	ct_pair_close(&p);
}

/*
 * A consumer on the application's own memory (set_memrange on aligned_alloc):
 * every size lands intact where it was posted, in order (shm, whose peer cannot
 * map that memory, stages it and copies each message over once more), and
 * nothing around the mmap is written.
 */
static void
test_user_memory(void **state)
{
	static const size_t sizes[] = { 0, 1, 80, 81, 100, 4095, 4096, 65536, 7 };
	const size_t guard = 4096, slot = 65536, nb = 4;
	const size_t total = nb * slot + 2 * guard;
	uint8_t *raw = aligned_alloc(4096, total);
	struct ct_prod pr;
	struct ct_cons c;
	struct ct_pair p;
	uint32_t k, n = 2 * RTE_DIM(sizes);
	size_t i;

	assert_non_null(raw);
	memset(raw, 0xee, total);
	ct_fast_up(&p, NULL, MODE(state));
	ct_cons_new_user(&c, p.sconn, ct_fast_pe(&p, true), nb, slot, RTE_COMCH_MAX_IMM_DATA_LEN,
			 raw + guard);
	assert_ptr_equal(c.mem, raw + guard);
	c.check = true;
	c.repost = true;
	ct_cons_start(&p, &c, &p.cli);
	ct_cons_post_all(&c);
	ct_prod_new(&pr, p.cconn, ct_fast_pe(&p, false), 4, slot, true);
	for (k = 0; k < n; k++) {
		size_t len = sizes[k % RTE_DIM(sizes)];

		assert_int_equal(ct_prod_send_retry(&p, &pr, c.id, len, k % 33, NULL), 0);
		assert_int_equal(ct_fast_wait_count(&p, &c.nb_ok, k + 1), 0);
		assert_int_equal(c.bad, 0);
		assert_int_equal(c.last_data_len, len);
		assert_int_equal(c.last_imm_len, k % 33);
		assert_ptr_equal(c.last_data, c.mem + (k % nb) * slot);
	}
	assert_int_equal(ct_fast_wait_count(&p, &pr.nb_ok, n), 0);
	assert_int_equal(pr.nb_err, 0);
	ct_prod_stop(&p, &pr);
	ct_prod_free(&pr);
	ct_cons_stop(&p, &c, &p.cli);
	assert_int_equal(c.err_status[0], -ECONNABORTED);
	ct_cons_free(&c);
	for (i = 0; i < guard; i++)
		if (raw[i] != 0xee || raw[total - 1 - i] != 0xee)
			fail_msg("byte %zu around the mmap was written", i);
	ct_pair_close(&p);
	free(raw);
}

#define BOTH(t) \
	cmocka_unit_test_prestate(t, (void *)&mode_one), \
	cmocka_unit_test_prestate(t, (void *)&mode_split)
#define ALL(t) BOTH(t), cmocka_unit_test_prestate(t, (void *)&mode_own)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		ALL(test_bytes_imm_producer_id),
		ALL(test_imm_only),
		ALL(test_emsgsize_keeps_buffer),
		ALL(test_order),
		BOTH(test_order_long),
		BOTH(test_order_no_bounce),
		BOTH(test_order_tight_bounce),
		ALL(test_many_both_ways),
		BOTH(test_sizes),
		ALL(test_posted_limit),
		BOTH(test_buf_offsets),
		BOTH(test_recv_appends),
		BOTH(test_large_unaligned),
		ALL(test_user_memory),
	};

	return CT_RUN("comch_fast_data", tests);
}
