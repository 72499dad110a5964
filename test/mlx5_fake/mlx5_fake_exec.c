/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The engine: executes send work requests, in order per QP, against the
 * peer QP found by the address vector and destination QP number set at RTR,
 * with the checks an RC responder makes; completions, CQ overflow, flushes.
 * Everything here runs under the fabric lock.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "mlx5_fake_priv.h"

/* fk_exec() result when the responder has no receive: an RNR NAK. */
#define FK_RNR (-1)

static bool
fk_solicits(const struct fk_cq *cq, const struct ibv_wc *wc, bool solicited)
{
	if (cq->armed == FK_ARM_ANY)
		return true;
	return cq->armed == FK_ARM_SOLICITED && (solicited || wc->status != IBV_WC_SUCCESS);
}

static void
fk_cq_overflow(struct fk_cq *cq)
{
	struct fk_qp *q;

	/* Hardware: CQ error (an affiliated asynchronous event), and every
	 * work queue that completes into the CQ moves to the error state. */
	cq->error = true;
	fk.cnt.cq_overflows++;
	TAILQ_FOREACH(q, &fk.qps, next)
		if (q->scq == cq || q->rcq == cq)
			fk_qp_err(q, true);
}

static void
fk_cq_push(struct fk_cq *cq, const struct fk_cqe *e, bool solicited)
{
	struct fk_cqev *ev;

	if (cq->error) {
		fk.cnt.cqes_dropped++;
		return;
	}
	if (cq->count == (uint32_t)cq->cq.cqe) {
		fk.cnt.cqes_dropped++;
		fk_cq_overflow(cq);
		return;
	}
	cq->ring[(cq->head + cq->count) % (uint32_t)cq->cq.cqe] = *e;
	cq->count++;
	if (!fk_solicits(cq, &e->wc, solicited))
		return;
	/* One event per arm. */
	cq->armed = FK_ARM_NONE;
	if (cq->chan == NULL)
		return;
	if (fk.lose_events > 0) {
		fk.lose_events--;
		fk.cnt.cq_events_lost++;
		fk.cnt.faults++;
		return;
	}
	ev = calloc(1, sizeof(*ev));
	if (ev == NULL) {
		fk_misuse("out of memory for a CQ event: lost");
		return;
	}
	ev->cq = cq;
	TAILQ_INSERT_TAIL(&cq->chan->events, ev, next);
	fk_evfd_push(&cq->chan->efd);
	fk.cnt.cq_events++;
}

static void
fk_count(enum ibv_wc_status st)
{
	switch (st) {
	case IBV_WC_WR_FLUSH_ERR:
		fk.cnt.flushed++;
		break;
	case IBV_WC_RNR_RETRY_EXC_ERR:
		fk.cnt.rnr_retry_exceeded++;
		break;
	case IBV_WC_RETRY_EXC_ERR:
		fk.cnt.retry_exceeded++;
		break;
	case IBV_WC_REM_ACCESS_ERR:
		fk.cnt.rem_access_errors++;
		break;
	case IBV_WC_LOC_PROT_ERR:
	case IBV_WC_LOC_LEN_ERR:
		fk.cnt.local_errors++;
		break;
	default:
		break;
	}
}

static enum ibv_wc_opcode
fk_wc_opcode(enum ibv_wr_opcode op)
{
	switch (op) {
	case IBV_WR_RDMA_WRITE:
	case IBV_WR_RDMA_WRITE_WITH_IMM:
		return IBV_WC_RDMA_WRITE;
	case IBV_WR_RDMA_READ:
		return IBV_WC_RDMA_READ;
	default:
		return IBV_WC_SEND;
	}
}

/* The completion of the send WQE seq of q: always for errors, else if signaled. */
static void
fk_complete_send(struct fk_qp *q, uint32_t seq, enum ibv_wc_status st, uint32_t len)
{
	const struct fk_swqe *w = &q->sq[seq % q->sq_size];
	struct fk_cqe e;

	if (st == IBV_WC_SUCCESS && !q->sig_all && !(w->flags & IBV_SEND_SIGNALED))
		return;
	memset(&e, 0, sizeof(e));
	e.wc.wr_id = w->wr_id;
	e.wc.status = st;
	e.wc.opcode = fk_wc_opcode(w->opcode);
	e.wc.byte_len = w->opcode == IBV_WR_RDMA_READ ? len : 0;
	e.wc.qp_num = q->qp.qp_num;
	e.wc.vendor_err = st == IBV_WC_SUCCESS ? 0 : 0x80 + st;
	e.qp = q;
	e.seq = seq;
	e.is_send = true;
	fk_count(st);
	fk_cq_push(q->scq, &e, false);
}

/* A completion for a receive WQE taken from q's RQ (seq) or its SRQ. */
static void
fk_complete_recv(struct fk_qp *q, const struct fk_rwqe *r, uint32_t seq,
		 const struct ibv_wc *tmpl, bool solicited)
{
	struct fk_cqe e;

	memset(&e, 0, sizeof(e));
	e.wc = *tmpl;
	e.wc.wr_id = r->wr_id;
	e.wc.qp_num = q->qp.qp_num;
	if (e.wc.status != IBV_WC_SUCCESS)
		e.wc.vendor_err = 0x80 + e.wc.status;
	e.qp = q;
	e.srq = q->srq;
	e.seq = seq;
	fk_count(e.wc.status);
	fk_cq_push(q->rcq, &e, solicited);
}

void
fk_qp_flush(struct fk_qp *q)
{
	struct ibv_wc wc = { .status = IBV_WC_WR_FLUSH_ERR, .opcode = IBV_WC_RECV };

	if (q->st != IBV_QPS_ERR)
		return;
	/* Every outstanding WQE completes, signaled or not. */
	while (q->sq_exec != q->sq_head)
		fk_complete_send(q, q->sq_exec++, IBV_WC_WR_FLUSH_ERR, 0);
	while (q->rq_next != q->rq_head) {
		uint32_t seq = q->rq_next++;

		fk_complete_recv(q, &q->rq[seq % q->rq_size], seq, &wc, false);
	}
}

void
fk_qp_err(struct fk_qp *q, bool async)
{
	if (q->st == IBV_QPS_ERR || (async && q->st == IBV_QPS_RESET))
		return;
	if (async)
		fk.cnt.qp_async_errors++;
	q->st = IBV_QPS_ERR;
	fk_qp_flush(q);
}

void
fk_cq_clean(struct fk_cq *cq, const struct fk_qp *q)
{
	uint32_t i, kept = 0, depth = (uint32_t)cq->cq.cqe;

	for (i = 0; i < cq->count; i++) {
		struct fk_cqe *e = &cq->ring[(cq->head + i) % depth];

		if (e->qp == q) {
			if (e->srq != NULL)
				e->srq->inuse--;
			continue;
		}
		cq->ring[(cq->head + kept++) % depth] = *e;
	}
	cq->count = kept;
}

int
fk_cq_poll(struct fk_cq *cq, int n, struct ibv_wc *wc)
{
	int i;

	if (cq->error)
		return -EIO;
	for (i = 0; i < n && cq->count > 0; i++) {
		struct fk_cqe *e = &cq->ring[cq->head];

		wc[i] = e->wc;
		/* Polling frees the queue slots, as the provider's tail moves
		 * only here: up to and including this WQE for a send (the
		 * unsignaled ones before it too). */
		if (e->is_send) {
			if ((int32_t)(e->seq + 1 - e->qp->sq_tail) > 0)
				e->qp->sq_tail = e->seq + 1;
		} else if (e->srq != NULL) {
			e->srq->inuse--;
		} else if ((int32_t)(e->seq + 1 - e->qp->rq_tail) > 0) {
			e->qp->rq_tail = e->seq + 1;
		}
		cq->head = (cq->head + 1) % (uint32_t)cq->cq.cqe;
		cq->count--;
	}
	return i;
}

/* ------------------------------------------------------------ memory checks */

static bool
fk_in_mr(const struct fk_mr *m, uint64_t addr, uint64_t len)
{
	uint64_t start = (uintptr_t)m->mr.addr;

	return addr >= start && len <= m->mr.length && addr - start <= m->mr.length - len;
}

/* The MR a local SGE may use: its lkey, in the QP's PD, covering it. */
static const struct fk_mr *
fk_mr_local(const struct fk_pd *pd, const struct ibv_sge *s, bool write)
{
	const struct fk_mr *m;

	TAILQ_FOREACH(m, &fk.mrs, next)
		if (m->mr.lkey == s->lkey)
			break;
	if (m == NULL || m->pd != pd || !fk_in_mr(m, s->addr, s->length))
		return NULL;
	if (write && !(m->access & IBV_ACCESS_LOCAL_WRITE))
		return NULL;
	return m;
}

/* What the responder p checks for a remote access: the rkey names an MR of
 * p's PD that covers [addr, addr + len) and allows it, and p allows it. */
static bool
fk_remote_ok(const struct fk_qp *p, uint32_t rkey, uint64_t addr, uint64_t len, int need)
{
	const struct fk_mr *m;

	if (!(p->access & need))
		return false;
	if (len == 0)
		return true;  /* A zero-length RDMA operation checks no R_Key. */
	TAILQ_FOREACH(m, &fk.mrs, next)
		if (m->mr.rkey == rkey)
			break;
	return m != NULL && m->pd == p->pd && (m->access & need) && fk_in_mr(m, addr, len);
}

static bool
fk_sges_ok(const struct fk_pd *pd, const struct ibv_sge *sge, uint32_t n, bool write,
	   uint64_t *total)
{
	uint32_t i;

	*total = 0;
	for (i = 0; i < n; i++) {
		if (fk_mr_local(pd, &sge[i], write) == NULL)
			return false;
		*total += sge[i].length;
	}
	return true;
}

static void
fk_gather(const struct ibv_sge *sge, uint32_t n, uint8_t *dst)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		if (sge[i].length == 0)
			continue;
		memmove(dst, (void *)(uintptr_t)sge[i].addr, sge[i].length);
		dst += sge[i].length;
	}
}

static void
fk_scatter(const struct ibv_sge *sge, uint32_t n, const uint8_t *src, uint64_t len)
{
	uint32_t i;

	for (i = 0; i < n && len > 0; i++) {
		uint64_t l = sge[i].length < len ? sge[i].length : len;

		memmove((void *)(uintptr_t)sge[i].addr, src, l);
		src += l;
		len -= l;
	}
}

/* ------------------------------------------------------------ execution */

/* The live responder of q, or NULL: the requester's retries would run out. */
static struct fk_qp *
fk_peer(const struct fk_qp *q)
{
	const union ibv_gid *sgid;
	struct fk_qp *p;

	if (q->dev->down || q->rdev == NULL || q->rdev->down)
		return NULL;
	TAILQ_FOREACH(p, &fk.qps, next)
		if (p->dev == q->rdev && p->qp.qp_num == q->dest_qpn)
			break;
	if (p == NULL || (p->st != IBV_QPS_RTR && p->st != IBV_QPS_RTS))
		return NULL;
	/* The responder acknowledges to the QP and GID it was connected to:
	 * anyone else never sees an ACK. */
	sgid = &q->dev->port[q->port - 1].gid[q->sgid_index];
	if (p->dest_qpn != q->qp.qp_num || p->rdev != q->dev ||
	    memcmp(&p->dgid, sgid, sizeof(*sgid)) != 0)
		return NULL;
	/* A responder expecting another PSN drops or NAKs every packet. */
	if (p->rq_psn != q->sq_psn)
		return NULL;
	return p;
}

/* The next receive of p (its SRQ's or its RQ's), without taking it. */
static struct fk_rwqe *
fk_recv_peek(struct fk_qp *p)
{
	if (p->srq != NULL)
		return p->srq->count > 0 ? &p->srq->ring[p->srq->head] : NULL;
	return p->rq_next != p->rq_head ? &p->rq[p->rq_next % p->rq_size] : NULL;
}

/* Take the receive fk_recv_peek() returned; its sequence number. The
 * SRQ's entry is copied to r, as its slot is reused at the next post. */
static uint32_t
fk_recv_take(struct fk_qp *p, struct fk_rwqe *r, struct ibv_sge *sge)
{
	struct fk_srq *s = p->srq;
	struct fk_rwqe *src = fk_recv_peek(p);

	*r = *src;
	r->sge = sge;
	memcpy(sge, src->sge, src->num_sge * sizeof(*sge));
	if (s == NULL)
		return p->rq_next++;
	s->head = (s->head + 1) % s->max_wr;
	s->count--;
	return 0;
}

static void
fk_responder_error(struct fk_qp *p, const struct fk_rwqe *r, uint32_t seq,
		   enum ibv_wc_status st)
{
	struct ibv_wc wc = { .status = st, .opcode = IBV_WC_RECV };

	fk_complete_recv(p, r, seq, &wc, false);
	fk_qp_err(p, true);
}

static int
fk_exec_send(struct fk_qp *q, const struct fk_swqe *w, struct fk_qp *p, uint64_t len)
{
	struct ibv_sge sge[FK_MAX_RECV_SGE];
	struct ibv_wc wc;
	struct fk_rwqe r;
	uint64_t room;
	uint32_t seq;
	uint8_t *buf;

	if (fk_recv_peek(p) == NULL)
		return FK_RNR;
	seq = fk_recv_take(p, &r, sge);
	if (!fk_sges_ok(p->pd, r.sge, r.num_sge, true, &room)) {
		/* Responder: local protection error; requester: remote operation error. */
		fk_responder_error(p, &r, seq, IBV_WC_LOC_PROT_ERR);
		return IBV_WC_REM_OP_ERR;
	}
	if (len > room) {
		fk_responder_error(p, &r, seq, IBV_WC_LOC_LEN_ERR);
		return IBV_WC_REM_INV_REQ_ERR;
	}
	if (len > 0 && (w->flags & IBV_SEND_INLINE)) {
		fk_scatter(r.sge, r.num_sge, w->inl, len);
	} else if (len > 0) {
		buf = malloc(len);
		if (buf == NULL) {
			fk_misuse("out of memory for a %" PRIu64 "-byte SEND", len);
			fk_responder_error(p, &r, seq, IBV_WC_LOC_LEN_ERR);
			return IBV_WC_REM_INV_REQ_ERR;
		}
		fk_gather(w->sge, w->num_sge, buf);
		fk_scatter(r.sge, r.num_sge, buf, len);
		free(buf);
	}
	memset(&wc, 0, sizeof(wc));
	wc.status = IBV_WC_SUCCESS;
	wc.opcode = IBV_WC_RECV;
	wc.byte_len = (uint32_t)len;
	wc.src_qp = q->qp.qp_num;
	if (w->opcode == IBV_WR_SEND_WITH_IMM) {
		wc.wc_flags = IBV_WC_WITH_IMM;
		wc.imm_data = w->imm;
	}
	fk_complete_recv(p, &r, seq, &wc, (w->flags & IBV_SEND_SOLICITED) != 0);
	return IBV_WC_SUCCESS;
}

static int
fk_exec_write(struct fk_qp *q, const struct fk_swqe *w, struct fk_qp *p, uint64_t len)
{
	struct ibv_sge sge[FK_MAX_RECV_SGE];
	struct fk_rwqe r;
	struct ibv_wc wc;
	uint32_t seq;

	if (!fk_remote_ok(p, w->rkey, w->raddr, len, IBV_ACCESS_REMOTE_WRITE)) {
		fk_qp_err(p, true);
		return IBV_WC_REM_ACCESS_ERR;
	}
	if (w->opcode == IBV_WR_RDMA_WRITE_WITH_IMM && fk_recv_peek(p) == NULL)
		return FK_RNR;
	if (len > 0 && (w->flags & IBV_SEND_INLINE))
		memmove((void *)(uintptr_t)w->raddr, w->inl, len);
	else
		fk_gather(w->sge, w->num_sge, (uint8_t *)(uintptr_t)w->raddr);
	if (w->opcode != IBV_WR_RDMA_WRITE_WITH_IMM)
		return IBV_WC_SUCCESS;
	/* The immediate consumes a receive; its buffers are not touched. */
	seq = fk_recv_take(p, &r, sge);
	memset(&wc, 0, sizeof(wc));
	wc.status = IBV_WC_SUCCESS;
	wc.opcode = IBV_WC_RECV_RDMA_WITH_IMM;
	wc.byte_len = (uint32_t)len;
	wc.src_qp = q->qp.qp_num;
	wc.wc_flags = IBV_WC_WITH_IMM;
	wc.imm_data = w->imm;
	fk_complete_recv(p, &r, seq, &wc, (w->flags & IBV_SEND_SOLICITED) != 0);
	return IBV_WC_SUCCESS;
}

static int
fk_exec_read(const struct fk_swqe *w, struct fk_qp *p, uint64_t len)
{
	uint8_t *buf;

	if (p->max_dest_rd_atomic == 0) {
		/* No responder resources for reads: invalid request. */
		fk_qp_err(p, true);
		return IBV_WC_REM_INV_REQ_ERR;
	}
	if (!fk_remote_ok(p, w->rkey, w->raddr, len, IBV_ACCESS_REMOTE_READ)) {
		fk_qp_err(p, true);
		return IBV_WC_REM_ACCESS_ERR;
	}
	if (len == 0)
		return IBV_WC_SUCCESS;
	buf = malloc(len);
	if (buf == NULL) {
		fk_misuse("out of memory for a %" PRIu64 "-byte READ", len);
		return IBV_WC_LOC_LEN_ERR;
	}
	memcpy(buf, (void *)(uintptr_t)w->raddr, len);
	fk_scatter(w->sge, w->num_sge, buf, len);
	free(buf);
	return IBV_WC_SUCCESS;
}

/* Execute w on q: a work completion status, or FK_RNR. */
static int
fk_exec(struct fk_qp *q, const struct fk_swqe *w, uint32_t *byte_len)
{
	bool local_write = w->opcode == IBV_WR_RDMA_READ;
	struct fk_qp *p;
	uint64_t len;
	int st;

	/* The requester reads (or, for a READ, will write) its local buffers. */
	if (w->flags & IBV_SEND_INLINE)
		len = w->inl_len;
	else if (!fk_sges_ok(q->pd, w->sge, w->num_sge, local_write, &len))
		return IBV_WC_LOC_PROT_ERR;
	if (len > FK_MAX_MSG)
		return IBV_WC_LOC_LEN_ERR;
	p = fk_peer(q);
	if (p == NULL)
		return IBV_WC_RETRY_EXC_ERR;
	switch (w->opcode) {
	case IBV_WR_SEND:
	case IBV_WR_SEND_WITH_IMM:
		st = fk_exec_send(q, w, p, len);
		break;
	case IBV_WR_RDMA_WRITE:
	case IBV_WR_RDMA_WRITE_WITH_IMM:
		st = fk_exec_write(q, w, p, len);
		break;
	default:
		st = fk_exec_read(w, p, len);
		break;
	}
	if (st == IBV_WC_SUCCESS) {
		q->sq_psn = (q->sq_psn + 1) & FK_PSN_MASK;
		p->rq_psn = (p->rq_psn + 1) & FK_PSN_MASK;
	}
	*byte_len = (uint32_t)len;
	return st;
}

/* Try the next WQE of q: true if it completed (in success or error). */
static bool
fk_qp_step(struct fk_qp *q, bool kick)
{
	struct fk_swqe *w;
	uint32_t seq, len = 0;
	int st;

	if (q->st != IBV_QPS_RTS || q->sq_exec == q->sq_head)
		return false;
	seq = q->sq_exec;
	w = &q->sq[seq % q->sq_size];
	/* Reordering holds a WRITE until something follows it or time passes. */
	if (fk.reorder && w->opcode == IBV_WR_RDMA_WRITE && seq + 1 == q->sq_head && !kick)
		return false;
	/* An RNR NAKed request is retried once per tick. */
	if (w->rnr_started && w->rnr_tick == fk.tick)
		return false;
	st = fk_exec(q, w, &len);
	if (st == FK_RNR) {
		fk.cnt.rnr_naks++;
		w->rnr_tick = fk.tick;
		if (!w->rnr_started) {
			w->rnr_started = true;
			w->rnr_left = q->rnr_retry;
		}
		if (q->rnr_retry == 7)
			return false;  /* 7: retry forever */
		if (w->rnr_left > 0) {
			w->rnr_left--;
			return false;
		}
		st = IBV_WC_RNR_RETRY_EXC_ERR;
	}
	q->sq_exec++;
	fk.cnt.wqe_executed++;
	fk_complete_send(q, seq, st, len);
	if (st != IBV_WC_SUCCESS)
		fk_qp_err(q, true);
	return true;
}

unsigned int
fk_run(unsigned int max, const struct fk_cq *kick_cq, bool kick_all)
{
	unsigned int n = 0;
	struct fk_qp *q;
	bool progress;

	fk.tick++;
	do {
		progress = false;
		TAILQ_FOREACH(q, &fk.qps, next) {
			if (max != 0 && n >= max)
				break;
			if (fk_qp_step(q, kick_all || (kick_cq != NULL && q->scq == kick_cq))) {
				n++;
				progress = true;
			}
		}
	} while (progress && (max == 0 || n < max));
	return n;
}

void
fk_sync_tick(const struct fk_cq *kick_cq)
{
	if (!fk.delay)
		fk_run(0, kick_cq, false);
}
