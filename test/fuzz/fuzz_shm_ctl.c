/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * A raw client completes a correct handshake, then sends the input as control
 * messages of the library (SHM_MSG_CTL carrying a struct comch_ctl_msg, with
 * descriptors): consumers announced with memory and rings of any shape, READY,
 * REFUSED, EXPIRED and ACK for ids that exist or not, in any order.
 *
 * The first byte of the input sets the stage on the server's side:
 *   bit 0: the server has a consumer of its own, announced to the peer (its id
 *          is what FZ_F_ID records name);
 *   bit 1: the server has a producer, which tries to send to the id of every
 *          record, so consumers the peer announces are imported and used.
 * Unless FZ_F_ALT, a record's payload is the library's message and blob (the
 * 128 bytes after the driver's header); with it, the whole driver message.
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

#define STAGE_CONSUMER 0x1
#define STAGE_PRODUCER 0x2

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned int iter;

struct stage {
	struct rte_comch_mmap *mmap;
	struct rte_comch_buf_pool *pool;
	struct rte_comch_consumer *cons;
	struct rte_comch_producer *prod;
	uint32_t cons_id;
};

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	fz_init("fzctl");
	return 0;
}

static void
cons_done(struct rte_comch_consumer_task_post_recv *t, union rte_comch_data a,
	  union rte_comch_data b)
{
	RTE_SET_USED(a);
	RTE_SET_USED(b);
	rte_comch_buf_dec_refcount(rte_comch_consumer_task_post_recv_get_buf(t), NULL);
	rte_comch_task_free(rte_comch_consumer_task_post_recv_as_task(t));
}

static void
prod_done(struct rte_comch_producer_task_send *t, union rte_comch_data a, union rte_comch_data b)
{
	RTE_SET_USED(a);
	RTE_SET_USED(b);
	rte_comch_task_free(rte_comch_producer_task_send_as_task(t));
}

static void
fix_ctl(struct shm_msg *m, const struct fz_record *r, void *arg)
{
	const struct stage *st = arg;
	struct comch_ctl_msg c;

	if ((r->flags & FZ_F_ALT) != 0)
		return;
	shm_msg_init(m, SHM_MSG_CTL);
	memcpy(m->ctl.msg, r->payload, RTE_MIN(r->len, sizeof(m->ctl)));
	m->ctl_len = sizeof(c);
	memcpy(&c, m->ctl.msg, sizeof(c));
	c.version = COMCH_CTL_VERSION;
	if ((r->flags & FZ_F_ID) != 0 && st->cons != NULL)
		c.id = st->cons_id;
	memcpy(m->ctl.msg, &c, sizeof(c));
}

/* A consumer of the server's, started: the peer gets its NEW (whose descriptors we close). */
static void
stage_consumer(struct raw_peer *p, struct stage *st)
{
	const uint32_t perms = RTE_COMCH_MMAP_PERM_LOCAL_READ_WRITE |
			       RTE_COMCH_MMAP_PERM_PCI_READ_WRITE;
	unsigned int nb_fds;
	struct shm_msg m;
	int fds[SHM_MAX_FDS];

	st->mmap = rte_comch_mmap_create();
	st->pool = rte_comch_buf_pool_create(4);
	if (st->mmap == NULL || st->pool == NULL ||
	    rte_comch_mmap_add_dev(st->mmap, dpu) != 0 ||
	    rte_comch_mmap_alloc_memrange(st->mmap, MEM_LEN) != 0 ||
	    rte_comch_mmap_set_permissions(st->mmap, perms) != 0 ||
	    rte_comch_mmap_start(st->mmap) != 0)
		abort();
	st->cons = rte_comch_consumer_create(last_conn, st->mmap);
	if (st->cons == NULL || rte_comch_consumer_get_id(st->cons, &st->cons_id) != 0 ||
	    rte_comch_consumer_task_post_recv_set_conf(st->cons, cons_done, cons_done,
						       NB_SLOTS) != 0 ||
	    rte_comch_pe_connect_ctx(pe, rte_comch_consumer_as_ctx(st->cons)) != 0 ||
	    rte_comch_ctx_start(rte_comch_consumer_as_ctx(st->cons)) != -EINPROGRESS ||
	    fz_reply(p->fd, &m, fds, &nb_fds) != SHM_MSG_CTL || nb_fds != 3) {
		fprintf(stderr, "fuzz: cannot stage the server's consumer\n");
		abort();
	}
	shm_close_fds(fds, nb_fds);
}

static void
stage_producer(struct stage *st)
{
	st->prod = rte_comch_producer_create(last_conn);
	if (st->prod == NULL ||
	    rte_comch_producer_task_send_set_conf(st->prod, prod_done, prod_done, 8) != 0 ||
	    rte_comch_pe_connect_ctx(pe, rte_comch_producer_as_ctx(st->prod)) != 0 ||
	    rte_comch_ctx_start(rte_comch_producer_as_ctx(st->prod)) != 0)
		abort();
}

/* Immediate data only, to the consumer a record named: most of the time -EAGAIN or -ENOENT. */
static void
producer_try(struct stage *st, const struct fz_record *r)
{
	static const uint8_t imm[8] = "fuzzfuzz";
	struct rte_comch_producer_task_send *t;
	struct comch_ctl_msg c = { 0 };

	memcpy(&c, r->payload, RTE_MIN(r->len, sizeof(c)));
	if (rte_comch_producer_task_send_alloc_init(st->prod, NULL, imm, c.imm_len & 7, c.id,
						    &t) != 0)
		return;
	if (rte_comch_task_submit(rte_comch_producer_task_send_as_task(t)) != 0)
		rte_comch_task_free(rte_comch_producer_task_send_as_task(t));
}

static void
stage_fini(struct stage *st)
{
	if (st->prod != NULL) {
		fz_stop_wait(rte_comch_producer_as_ctx(st->prod), "producer");
		if (rte_comch_producer_destroy(st->prod) != 0)
			abort();
	}
	if (st->cons != NULL) {
		fz_stop_wait(rte_comch_consumer_as_ctx(st->cons), "consumer");
		if (rte_comch_consumer_destroy(st->cons) != 0)
			abort();
	}
	if (st->pool != NULL && rte_comch_buf_pool_destroy(st->pool) != 0)
		abort();
	if (st->mmap != NULL &&
	    (rte_comch_mmap_stop(st->mmap) != 0 || rte_comch_mmap_destroy(st->mmap) != 0))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_record recs[FZ_MAX_RECORDS];
	unsigned int before = count_fds(), n, i;
	struct stage st = { 0 };
	struct fz_session s;
	struct raw_peer p;
	uint8_t stage = 0;

	if (size > 0) {
		stage = data[0];
		data++;
		size--;
	}
	n = fz_split(data, size, recs, FZ_MAX_RECORDS);
	fz_peer_connect(&p);
	if ((stage & STAGE_CONSUMER) != 0)
		stage_consumer(&p, &st);
	if ((stage & STAGE_PRODUCER) != 0)
		stage_producer(&st);
	fz_session_init(&s, p.fd);
	/* What we learnt in the handshake sizes the rings of the records. */
	s.peer_max_msg = p.tx.max_msg;
	for (i = 0; i < n; i++) {
		if (!fz_send_record(&s, &recs[i], fix_ctl, &st))
			break;
		if (st.prod != NULL)
			producer_try(&st, &recs[i]);
	}
	/* The socket is the session's: closed there, the rings here. */
	fz_session_fini(&s);
	p.fd = -1;
	shm_ring_release(&p.rx);
	shm_ring_release(&p.tx);
	/* The peer is gone: whatever it left half-done, our objects must stop and go. */
	stage_fini(&st);
	fz_check_fds(before, "ctl");
	fz_check_server(&iter);
	return 0;
}
