/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Producers and the peer's consumers (imports).
 *
 * An import is a QP towards the consumer's, with a receive posted for each
 * post message the consumer may have in flight (one per post at most: no
 * RNR), and a post mirror: send() polls the post messages (the library
 * serialises sends to one remote), checks every entry against the memory
 * the consumer announced, and keeps them, in order, in the mirror it places
 * messages from. A message is an RDMA WRITE into the next posted buffer
 * (from the application's registration, inline, or copied into the
 * producer's staging ring) and, on the same QP so after it, the completion
 * record, SENT inline and signaled.
 *
 * Completions: every import's sends complete into the connection's one send
 * CQ, polled under a ticket lock by whichever producer calls completed()
 * (different lcores, at once). A signaled SEND's wr_id is its import; the
 * import's FIFO says whose send it was, and the status lands in that
 * producer's ring, which returns them in the order it sent them. A WRITE is
 * unsignaled (its wr_id, the import with bit 0 set, shows only in an error).
 * A producer destroyed with sends in flight (the burst API allows it) waits
 * in the connection's graveyard for their completions; an import's
 * unimport moves its QP to ERR and takes the flushes, failing whatever a
 * hardware that never flushes would leave (-ECONNRESET): every send ends
 * exactly once.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_pause.h>

#include "mlx5_internal.h"

#define MLX5_POLL_BURST 32
#define MLX5_RECORD_FLAGS (IBV_SEND_SIGNALED | IBV_SEND_SOLICITED | IBV_SEND_INLINE)

void
mlx5_fast_init(struct mlx5_conn *c)
{
	rte_ticketlock_init(&c->fast.lock);
	TAILQ_INIT(&c->fast.imports);
	TAILQ_INIT(&c->fast.graveyard);
}

static void
mlx5_producer_free(struct mlx5_producer *p)
{
	uint32_t i;

	for (i = p->reaped; i != p->head; i++)
		if (p->ring[i & p->mask].mr != NULL)
			p->conn->glue->dereg_mr(p->ring[i & p->mask].mr);
	mlx5_mem_free(p->conn->dev, &p->stage);
	free(p->ring);
	free(p);
}

/* Producers of the graveyard whose every send completed. fast.lock. */
static void
mlx5_graveyard_reap(struct mlx5_conn *c)
{
	struct mlx5_producer *p, *tmp;

	TAILQ_FOREACH_SAFE(p, &c->fast.graveyard, next, tmp)
		if (comch_load_acquire(&p->done) == comch_load_relaxed(&p->head)) {
			TAILQ_REMOVE(&c->fast.graveyard, p, next);
			mlx5_producer_free(p);
		}
}

void
mlx5_fast_fini(struct mlx5_conn *c)
{
	struct mlx5_producer *p;

	/* Every import is gone (unimport comes before free): nothing completes any more. */
	while ((p = TAILQ_FIRST(&c->fast.graveyard)) != NULL) {
		TAILQ_REMOVE(&c->fast.graveyard, p, next);
		mlx5_producer_free(p);
	}
	if (c->fast.scq != NULL)
		c->glue->destroy_cq(c->fast.scq);
	c->fast.scq = NULL;
}

/* A send ended with status: its producer hears of it, its import's room comes back. */
static void
mlx5_fast_complete(struct mlx5_conn *c, struct mlx5_import *r, int status)
{
	struct mlx5_inflight *e = &r->fifo[comch_load_relaxed(&r->f_tail) & r->f_mask];

	if (e->p != NULL) {
		comch_store_release(&e->p->ring[e->seq & e->p->mask].status, status);
		comch_fetch_add_release(&e->p->done, 1);
	}
	comch_store_release(&r->sq_done, r->sq_done + e->wqes);
	comch_fetch_sub_release(&c->fast.scq_used, e->wqes);
	/* Senders read it to see the room in the FIFO. */
	comch_store_release(&r->f_tail, r->f_tail + 1);
}

/* Poll the shared send CQ once. fast.lock. Returns what it polled. */
static int
mlx5_fast_poll_locked(struct mlx5_conn *c)
{
	struct ibv_wc wc[MLX5_POLL_BURST];
	struct mlx5_import *r;
	int i, n, st;

	n = c->glue->poll_cq(c->fast.scq, MLX5_POLL_BURST, wc);
	if (n < 0) {
		/* An overrun CQ (hardware moves its QPs to ERR): nothing will complete. */
		MLX5_LOG(ERR, "%s: the producers' completion queue failed: their sends fail",
			 c->dev->name);
		TAILQ_FOREACH(r, &c->fast.imports, next) {
			comch_store_release(&r->error, -ECONNRESET);
			while (r->f_tail != comch_load_acquire(&r->f_head))
				mlx5_fast_complete(c, r, -ECONNRESET);
		}
		return 0;
	}
	for (i = 0; i < n; i++) {
		r = (struct mlx5_import *)(uintptr_t)(wc[i].wr_id & ~(uint64_t)1);
		st = wc[i].status == IBV_WC_SUCCESS ? 0 : -ECONNRESET;
		if (st != 0 && comch_load_relaxed(&r->error) == 0) {
			MLX5_LOG(NOTICE, "%s: a send to a consumer of the peer: %s",
				 c->dev->name, mlx5_wc_status_str(c, wc[i].status));
			comch_store_release(&r->error, st);
		}
		/* A WRITE (bit 0) shows only when it failed: its SEND reports for both. */
		if ((wc[i].wr_id & 1) == 0)
			mlx5_fast_complete(c, r, st);
	}
	return n;
}

void
mlx5_fast_poll(struct mlx5_conn *c)
{
	struct ibv_cq *scq = comch_load_acquire(&c->fast.scq);

	if (scq == NULL)
		return;
	rte_ticketlock_lock(&c->fast.lock);
	while (mlx5_fast_poll_locked(c) == MLX5_POLL_BURST)
		;
	mlx5_graveyard_reap(c);
	rte_ticketlock_unlock(&c->fast.lock);
}

/* ------------------------------------------------------------------ imports */

static void
mlx5_import_free(struct mlx5_conn *c, struct mlx5_import *r)
{
	if (r->qp != NULL)
		c->glue->destroy_qp(r->qp);
	if (r->rcq != NULL)
		c->glue->destroy_cq(r->rcq);
	mlx5_mem_free(c->dev, &r->rbuf);
	free(r->mirror);
	free(r->fifo);
	free(r);
}

static int
mlx5_import_post_recv(struct mlx5_import *r, uint32_t slot)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)(r->rbuf.addr + (size_t)slot * sizeof(struct mlx5_post_msg)),
		.length = sizeof(struct mlx5_post_msg),
		.lkey = r->rbuf.mr->lkey,
	};
	struct ibv_recv_wr wr = { .wr_id = slot, .sg_list = &sge, .num_sge = 1 }, *bad;

	return r->conn->glue->post_recv(r->qp, &wr, &bad) == 0 ? 0 : -ECONNRESET;
}

/* Check and take the blob of NEW: -EPROTO if it is not what conf says. */
static int
mlx5_import_blob(const struct rte_comch_drv_remote_conf *conf,
		 const struct rte_comch_drv_blob *blob, struct mlx5_import *r, uint32_t *qpn,
		 uint32_t *psn)
{
	struct mlx5_cons_blob b;

	if (blob->len != sizeof(b) || blob->nb_fds != 0)
		return -EPROTO;
	memcpy(&b, blob->data, sizeof(b));
	*qpn = rte_le_to_cpu_32(b.qpn);
	*psn = rte_le_to_cpu_32(b.psn);
	r->rkey = rte_le_to_cpu_32(b.rkey);
	r->base = rte_le_to_cpu_64(b.base);
	r->mem_len = conf->mem_len;
	if (rte_le_to_cpu_32(b.magic) != MLX5_MAGIC || *qpn > 0xffffff || *psn > 0xffffff ||
	    r->base + r->mem_len < r->base)
		return -EPROTO;
	return 0;
}

/* The shared send CQ, at the first import. */
static int
mlx5_fast_scq(struct mlx5_conn *c)
{
	struct ibv_cq *cq;

	if (c->fast.scq != NULL)
		return 0;
	errno = 0;
	cq = c->glue->create_cq(c->dev->ctx, MLX5_FAST_CQ_DEPTH, c, NULL, 0);
	if (cq == NULL) {
		MLX5_LOG(ERR, "%s: create_cq: %s", c->dev->name, strerror(errno));
		return -ENOMEM;
	}
	c->fast.scq_depth = MLX5_FAST_CQ_DEPTH;
	comch_store_release(&c->fast.scq, cq);
	return 0;
}

static int
mlx5_import(void *conn, const struct rte_comch_drv_remote_conf *conf,
	    struct rte_comch_drv_blob *blob, struct rte_comch_drv_blob *reply, void **remote)
{
	struct mlx5_conn *c = conn;
	struct mlx5_import_reply rep;
	struct mlx5_import *r;
	uint32_t qpn, psn, own_psn, i;
	int rc;

	r = calloc(1, sizeof(*r));
	if (r == NULL)
		return -ENOMEM;
	r->conn = c;
	if (mlx5_import_blob(conf, blob, r, &qpn, &psn) < 0) {
		MLX5_LOG(ERR, "%s: a consumer's start blob that is not what it announced",
			 c->dev->name);
		free(r);
		return -EPROTO;
	}
	r->nb_posts = conf->nb_posts;
	r->sq_depth = RTE_MIN(2 * conf->nb_posts + 2, c->dev->max_qp_wr);
	r->m_mask = mlx5_pow2(conf->nb_posts) - 1;
	r->f_mask = mlx5_pow2(r->sq_depth) - 1;
	r->mirror = calloc(r->m_mask + 1, sizeof(*r->mirror));
	r->fifo = calloc(r->f_mask + 1, sizeof(*r->fifo));
	rc = r->mirror == NULL || r->fifo == NULL ? -ENOMEM : mlx5_fast_scq(c);
	if (rc == 0) {
		errno = 0;
		r->rcq = c->glue->create_cq(c->dev->ctx, (int)conf->nb_posts + 1, r, NULL, 0);
		rc = r->rcq == NULL ? -ENOMEM : 0;
	}
	if (rc == 0) {
		/* Records go inline: no buffer of ours to hold until they complete. */
		r->inline_max = MLX5_IMPORT_INLINE;
		r->qp = mlx5_qp_new(c, c->fast.scq, r->rcq, r->sq_depth, conf->nb_posts,
				    r->inline_max, 0);
		if (r->qp == NULL) {
			r->inline_max = sizeof(struct mlx5_record);
			r->qp = mlx5_qp_new(c, c->fast.scq, r->rcq, r->sq_depth, conf->nb_posts,
					    r->inline_max, 0);
		}
		rc = r->qp == NULL ? -ENOMEM : 0;
	}
	if (rc == 0)
		rc = mlx5_mem_alloc(c->dev, &r->rbuf,
				    (size_t)conf->nb_posts * sizeof(struct mlx5_post_msg),
				    IBV_ACCESS_LOCAL_WRITE);
	for (i = 0; rc == 0 && i < conf->nb_posts; i++)
		rc = mlx5_import_post_recv(r, i);
	own_psn = mlx5_psn();
	if (rc == 0)
		rc = mlx5_qp_connect(c, r->qp, qpn, psn, own_psn);
	if (rc < 0) {
		mlx5_import_free(c, r);
		return -ENOMEM;
	}
	rep.magic = rte_cpu_to_le_32(MLX5_MAGIC);
	rep.qpn = rte_cpu_to_le_32(r->qp->qp_num);
	rep.psn = rte_cpu_to_le_32(own_psn);
	memcpy(reply->data, &rep, sizeof(rep));
	reply->len = sizeof(rep);
	reply->nb_fds = 0;
	TAILQ_INSERT_TAIL(&c->fast.imports, r, next);
	*remote = r;
	return 0;
}

static void
mlx5_unimport(void *conn, void *remote)
{
	struct mlx5_conn *c = conn;
	struct mlx5_import *r = remote;
	unsigned int spin;

	rte_ticketlock_lock(&c->fast.lock);
	/* No send runs on it (a grace period passed): what is in flight is flushed. */
	if (r->f_tail != comch_load_acquire(&r->f_head)) {
		mlx5_qp_to_err(c->glue, r->qp);
		for (spin = 0; spin < MLX5_FLUSH_SPIN &&
		     r->f_tail != comch_load_acquire(&r->f_head); spin++) {
			if (mlx5_fast_poll_locked(c) == 0)
				rte_pause();
		}
		while (r->f_tail != comch_load_acquire(&r->f_head))
			mlx5_fast_complete(c, r, -ECONNRESET);
	}
	/* Destroying the QP takes its completions left in the shared CQ with it. */
	c->glue->destroy_qp(r->qp);
	r->qp = NULL;
	rte_ticketlock_unlock(&c->fast.lock);
	TAILQ_REMOVE(&c->fast.imports, r, next);
	mlx5_import_free(c, r);
}

/*
 * The consumer's post messages, into the mirror: 0, or -EPROTO if one is not
 * what an honest consumer sends (an index out of turn, more posts than it
 * may have, a buffer outside the memory it announced).
 */
static int
mlx5_import_pump(struct mlx5_import *r)
{
	const struct mlx5_post_msg *m;
	struct ibv_wc wc[MLX5_POLL_BURST];
	uint32_t j, cnt, len, slot;
	uint64_t addr;
	int i, n;

	do {
		n = r->conn->glue->poll_cq(r->rcq, MLX5_POLL_BURST, wc);
		if (n < 0) {
			comch_store_release(&r->error, -ECONNRESET);
			return 0;
		}
		for (i = 0; i < n; i++) {
			if (wc[i].status != IBV_WC_SUCCESS) {
				comch_store_release(&r->error, -ECONNRESET);
				continue;
			}
			slot = (uint32_t)wc[i].wr_id;
			m = (const struct mlx5_post_msg *)(r->rbuf.addr +
							   (size_t)slot * sizeof(*m));
			cnt = rte_le_to_cpu_32(m->count);
			if (wc[i].byte_len < offsetof(struct mlx5_post_msg, e) || cnt == 0 ||
			    cnt > MLX5_POSTS_PER_MSG ||
			    wc[i].byte_len != offsetof(struct mlx5_post_msg, e) +
					      cnt * sizeof(m->e[0]) ||
			    rte_le_to_cpu_32(m->first) != r->next_index ||
			    r->m_head - r->m_tail + cnt > r->nb_posts) {
				MLX5_LOG(ERR, "%s: a consumer of the peer sent posts out of turn "
					 "or past its %u", r->conn->dev->name, r->nb_posts);
				return -EPROTO;
			}
			for (j = 0; j < cnt; j++) {
				addr = rte_le_to_cpu_64(m->e[j].addr);
				len = rte_le_to_cpu_32(m->e[j].len);
				if (!(addr == 0 && len == 0) &&
				    (addr < r->base || addr - r->base > r->mem_len ||
				     len > r->mem_len - (addr - r->base))) {
					MLX5_LOG(ERR, "%s: a consumer of the peer posted a buffer "
						 "outside its memory", r->conn->dev->name);
					return -EPROTO;
				}
				r->mirror[r->m_head & r->m_mask].addr = addr;
				r->mirror[r->m_head & r->m_mask].len = len;
				r->m_head++;
			}
			r->next_index += cnt;
			if (mlx5_import_post_recv(r, slot) < 0)
				comch_store_release(&r->error, -ECONNRESET);
		}
	} while (n == MLX5_POLL_BURST);
	return 0;
}

/* ------------------------------------------------------------------ producers */

static int
mlx5_producer_create(void *conn, uint32_t id, void **pp)
{
	struct mlx5_producer *p = calloc(1, sizeof(*p));

	if (p == NULL)
		return -ENOMEM;
	p->ring = calloc(MLX5_PROD_RING, sizeof(*p->ring));
	if (p->ring == NULL) {
		free(p);
		return -ENOMEM;
	}
	p->conn = conn;
	p->id = id;
	p->mask = MLX5_PROD_RING - 1;
	*pp = p;
	return 0;
}

static void
mlx5_producer_destroy(void *pp)
{
	struct mlx5_producer *p = pp;
	struct mlx5_conn *c = p->conn;

	rte_ticketlock_lock(&c->fast.lock);
	if (comch_load_acquire(&p->done) == comch_load_relaxed(&p->head)) {
		mlx5_producer_free(p);
	} else {
		/* Sends of the burst API in flight: their completions still come here. */
		TAILQ_INSERT_TAIL(&c->fast.graveyard, p, next);
	}
	mlx5_graveyard_reap(c);
	rte_ticketlock_unlock(&c->fast.lock);
}

/* Free what the completed sends held, in order (staging, registrations). */
static void
mlx5_producer_reap(struct mlx5_producer *p)
{
	struct mlx5_psend *s;

	while (p->reaped != p->head) {
		s = &p->ring[p->reaped & p->mask];
		if (comch_load_acquire(&s->status) == -EINPROGRESS)
			break;
		p->st_tail = s->stage_end;
		if (s->mr != NULL)
			p->conn->glue->dereg_mr(s->mr);
		s->mr = NULL;
		p->reaped++;
	}
}

/* len bytes of the staging ring (made at first use): their offset, or -EAGAIN. */
static int64_t
mlx5_stage(struct mlx5_producer *p, uint32_t len)
{
	uint32_t need = RTE_ALIGN_CEIL(len, 64), pos, skip;

	if (p->stage.addr == NULL &&
	    mlx5_mem_alloc(p->conn->dev, &p->stage, MLX5_STAGE_BYTES, 0) < 0)
		return -EAGAIN;
	pos = p->st_head & (MLX5_STAGE_BYTES - 1);
	skip = pos + need > MLX5_STAGE_BYTES ? MLX5_STAGE_BYTES - pos : 0;
	if (p->st_head + skip + need - p->st_tail > MLX5_STAGE_BYTES) {
		mlx5_fast_poll(p->conn);
		mlx5_producer_reap(p);
		if (p->st_head + skip + need - p->st_tail > MLX5_STAGE_BYTES)
			return -EAGAIN;
	}
	p->st_head += skip;
	pos = p->st_head & (MLX5_STAGE_BYTES - 1);
	p->st_head += need;
	return pos;
}

/* Room for one more send of wqes work requests, or -EAGAIN. */
static int
mlx5_send_room(struct mlx5_producer *p, struct mlx5_import *r, uint32_t wqes)
{
	struct mlx5_conn *c = p->conn;
	unsigned int tries;

	for (tries = 0; tries < 2; tries++) {
		if (r->sq_posted - comch_load_acquire(&r->sq_done) + wqes <= r->sq_depth &&
		    comch_load_relaxed(&p->head) - p->tail < MLX5_PROD_RING &&
		    comch_load_relaxed(&r->f_head) - comch_load_acquire(&r->f_tail) <=
		    r->f_mask) {
			if (comch_fetch_add_relaxed(&c->fast.scq_used, wqes) + wqes <=
			    c->fast.scq_depth)
				return 0;
			comch_fetch_sub_release(&c->fast.scq_used, wqes);
		}
		/* Completions give room back: take them, once. */
		mlx5_fast_poll(c);
		mlx5_producer_reap(p);
	}
	return -EAGAIN;
}

/*
 * Whether [data, data + len) lies in the registration the application named:
 * then it is written from there. Data elsewhere (the mmap given is not the
 * one the data is in) is copied as if none had been named, rather than make
 * the hardware fail the send with a protection error.
 */
static inline bool
mlx5_in_mr(const struct mlx5_reg *src, const void *data, uint32_t len)
{
	uintptr_t lo, a = (uintptr_t)data;

	if (src == NULL)
		return false;
	lo = (uintptr_t)src->mr->addr;
	return a >= lo && a - lo <= src->mr->length && len <= src->mr->length - (a - lo);
}

/* One message into the next posted buffer: 0, or -EAGAIN (nothing placed). */
static int
mlx5_send_one(struct mlx5_producer *p, struct mlx5_import *r, uint32_t producer_id,
	      const struct mlx5_reg *src, const struct rte_comch_fp_msg *m,
	      const struct mlx5_post_entry *e)
{
	struct mlx5_conn *c = p->conn;
	uint32_t wqes = m->len > 0 ? 2 : 1, seq, st_head = p->st_head, f;
	struct ibv_send_wr wr[2], *bad;
	struct ibv_sge sge[2];
	struct ibv_mr *mr = NULL;
	struct mlx5_record rec;
	struct mlx5_psend *s;
	int64_t off;

	if (mlx5_send_room(p, r, wqes) < 0)
		return -EAGAIN;
	memset(wr, 0, sizeof(wr));
	if (m->len > 0) {
		sge[0].addr = (uintptr_t)m->data;
		sge[0].length = m->len;
		sge[0].lkey = 0;
		if (mlx5_in_mr(src, m->data, m->len)) {
			sge[0].lkey = src->mr->lkey;
		} else if (m->len <= r->inline_max) {
			wr[0].send_flags = IBV_SEND_INLINE;
		} else if (m->len <= MLX5_STAGE_MAX) {
			off = mlx5_stage(p, m->len);
			if (off < 0)
				goto again;
			memcpy(p->stage.addr + off, m->data, m->len);
			sge[0].addr = (uintptr_t)(p->stage.addr + off);
			sge[0].lkey = p->stage.mr->lkey;
		} else {
			/* Large and unregistered: registered for this send alone. */
			mr = c->glue->reg_mr(c->dev->pd, (void *)(uintptr_t)m->data, m->len, 0);
			if (mr == NULL) {
				MLX5_LOG(NOTICE, "%s: registering a message of %u bytes: %s",
					 c->dev->name, m->len, strerror(errno));
				goto again;
			}
			sge[0].lkey = mr->lkey;
		}
		wr[0].wr_id = (uintptr_t)r | 1;
		wr[0].sg_list = &sge[0];
		wr[0].num_sge = 1;
		wr[0].opcode = IBV_WR_RDMA_WRITE;
		wr[0].wr.rdma.remote_addr = e->addr;
		wr[0].wr.rdma.rkey = r->rkey;
		wr[0].next = &wr[1];
	}
	rec.index = rte_cpu_to_le_32(r->m_tail);
	rec.len = rte_cpu_to_le_32(m->len);
	rec.producer_id = rte_cpu_to_le_32(producer_id);
	rec.imm_len = rte_cpu_to_le_32(m->imm_len);
	memcpy(rec.imm, m->imm, sizeof(rec.imm));
	sge[1].addr = (uintptr_t)&rec;
	sge[1].length = sizeof(rec);
	sge[1].lkey = 0;
	wr[1].wr_id = (uintptr_t)r;
	wr[1].sg_list = &sge[1];
	wr[1].num_sge = 1;
	wr[1].opcode = IBV_WR_SEND;
	wr[1].send_flags = MLX5_RECORD_FLAGS;
	/* Ours and the FIFO's before the post: its completion may be polled at once. */
	seq = p->head;
	s = &p->ring[seq & p->mask];
	s->stage_end = p->st_head;
	s->mr = mr;
	comch_store_relaxed(&s->status, -EINPROGRESS);
	f = r->f_head;
	r->fifo[f & r->f_mask].p = p;
	r->fifo[f & r->f_mask].seq = seq;
	r->fifo[f & r->f_mask].wqes = wqes;
	comch_store_release(&r->f_head, f + 1);
	if (c->glue->post_send(r->qp, m->len > 0 ? &wr[0] : &wr[1], &bad) != 0) {
		/* A full or failing QP: nothing went (its completion never comes). */
		comch_store_release(&r->f_head, f);
		comch_store_relaxed(&s->status, 0);
		s->mr = NULL;
		goto again;
	}
	comch_store_release(&p->head, seq + 1);
	r->sq_posted += wqes;
	return 0;
again:
	if (mr != NULL)
		c->glue->dereg_mr(mr);
	p->st_head = st_head;
	comch_fetch_sub_release(&c->fast.scq_used, wqes);
	return -EAGAIN;
}

static int
mlx5_producer_send(void *pp, void *remote, uint32_t producer_id, const void *src_reg,
		   const struct rte_comch_fp_msg *msgs, unsigned int n)
{
	struct mlx5_producer *p = pp;
	struct mlx5_import *r = remote;
	const struct mlx5_post_entry *e;
	unsigned int i;
	int rc = -EAGAIN;

	if (r->broken)
		return -EPROTO;
	if (mlx5_import_pump(r) < 0) {
		r->broken = true;
		return -EPROTO;
	}
	/* Its QP failed: nothing goes; the connection's end follows. */
	if (comch_load_acquire(&r->error) != 0)
		return -EAGAIN;
	for (i = 0; i < n; i++) {
		if (r->m_head == r->m_tail) {
			rc = -EAGAIN;
			break;
		}
		e = &r->mirror[r->m_tail & r->m_mask];
		if (msgs[i].len > e->len) {
			rc = -EMSGSIZE;
			break;
		}
		rc = mlx5_send_one(p, r, producer_id, src_reg, &msgs[i], e);
		if (rc < 0)
			break;
		r->m_tail++;
	}
	return i > 0 ? (int)i : rc;
}

static int
mlx5_producer_completed(void *pp, int *status, unsigned int max)
{
	struct mlx5_producer *p = pp;
	unsigned int i, n;

	mlx5_fast_poll(p->conn);
	mlx5_producer_reap(p);
	n = RTE_MIN(max, p->reaped - p->tail);
	for (i = 0; status != NULL && i < n; i++)
		status[i] = comch_load_relaxed(&p->ring[(p->tail + i) & p->mask].status);
	p->tail += n;
	return (int)n;
}

const struct rte_comch_drv_producer_ops mlx5_producer_ops = {
	.import = mlx5_import,
	.unimport = mlx5_unimport,
	.create = mlx5_producer_create,
	.destroy = mlx5_producer_destroy,
	.send = mlx5_producer_send,
	.notify = NULL, /* the record, SENT solicited, wakes a sleeping consumer */
	.completed = mlx5_producer_completed,
};
