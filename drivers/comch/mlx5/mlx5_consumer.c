/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Consumers. Each start makes a CQ (with a completion channel, the wake-up
 * descriptor of the consumer's engine) and an RC QP with remote write, and
 * announces {QP number, PSN, rkey and address of its mmap}; the peer's import
 * answers with its QP number and PSN, and connect brings the QP up towards it.
 *
 * A post is a receive for its completion record (posted first), then an
 * entry in a SEND of up to MLX5_POSTS_PER_MSG entries to the import, whose
 * producers RDMA WRITE the message into the buffer and SEND the record: the
 * records arrive in post order on one QP, each checked against its post
 * (index, length, immediate data; a lie is -EPROTO). A flush moves the QP to
 * ERR, so the peer writes nothing more through it, and gives back what is
 * still posted once the records that came before are polled.
 *
 * What a flush cannot stop: the rkey is the mmap's, shared by the consumers
 * on it, so a peer that keeps writing through another consumer's QP of the
 * same mmap still reaches the memory (the rkey is revoked when the mmap stops).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>

#include "mlx5_internal.h"

#define MLX5_CONS_BURST 16
#define MLX5_REC_SLOT 64

/* wr_id kinds of a consumer's QP. */
enum { MLX5_WR_RECORD = 1, MLX5_WR_POSTS };

struct mlx5_consumer {
	struct mlx5_conn *conn;
	struct mlx5_dev *dev;
	const struct rte_comch_mlx5_glue *glue;
	uint32_t id;
	const struct mlx5_reg *reg;
	uint64_t mem_addr;
	/* The current start. */
	struct rte_comch_pe *pe;
	struct ibv_comp_channel *ch;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	uint32_t psn;
	uint32_t nb_posts;
	uint32_t imm_len;
	uint32_t sq_depth;
	struct mlx5_mem mem;         /* records (mask + 1 slots), then post messages */
	struct rte_comch_fp_post *posted; /* what is posted, by index */
	struct rte_comch_fp_cpl *cpl;     /* what its record said, by index */
	uint32_t mask;
	uint32_t head;               /* posts made: the index of the next */
	uint32_t filled;             /* records received, in order */
	uint32_t tail;               /* given back by poll or flush */
	uint32_t msg_sent, msg_done; /* post messages */
	bool wake_on;                /* ch is a wake-up descriptor of pe (armed) */
	bool dead;                   /* the QP failed */
	bool flushing;
	bool lied;                   /* a record was a lie: -EPROTO once the good ones are out */
};

static void
mlx5_cons_release(struct mlx5_consumer *c)
{
	if (c->qp != NULL)
		c->glue->destroy_qp(c->qp);
	c->qp = NULL;
	if (c->ch != NULL && c->pe != NULL)
		mlx5_wake_off(c->pe, c->ch, &c->wake_on);
	mlx5_cq_with_channel_free(c->dev, &c->ch, &c->cq);
	mlx5_mem_free(c->dev, &c->mem);
	free(c->posted);
	free(c->cpl);
	c->posted = NULL;
	c->cpl = NULL;
	c->pe = NULL;
}

static int
mlx5_cons_create(void *conn, const struct rte_comch_drv_consumer_conf *conf, void **cp)
{
	struct mlx5_conn *cn = conn;
	struct mlx5_consumer *c = calloc(1, sizeof(*c));

	/* Any memory the process has: its registration gives the peer an rkey. */
	if (c == NULL)
		return -ENOMEM;
	c->conn = cn;
	c->dev = cn->dev;
	c->glue = cn->glue;
	c->id = conf->id;
	c->reg = conf->reg;
	c->mem_addr = (uintptr_t)conf->mem_addr;
	*cp = c;
	return 0;
}

static void
mlx5_cons_destroy(void *cp)
{
	mlx5_cons_release(cp);
	free(cp);
}

static uint8_t *
mlx5_cons_msg(struct mlx5_consumer *c, uint32_t n)
{
	return c->mem.addr + (size_t)(c->mask + 1) * MLX5_REC_SLOT +
	       (size_t)(n % c->sq_depth) * sizeof(struct mlx5_post_msg);
}

static int
mlx5_cons_start(void *cp, const struct rte_comch_drv_consumer_start *st,
		struct rte_comch_drv_blob *blob)
{
	struct mlx5_consumer *c = cp;
	struct mlx5_cons_blob b;
	uint32_t depth;
	int rc;

	/* Nothing of the last start is reused: the peer imports this one afresh. */
	mlx5_cons_release(c);
	c->nb_posts = st->nb_posts;
	c->imm_len = st->imm_len;
	c->mask = mlx5_pow2(st->nb_posts) - 1;
	c->sq_depth = RTE_MIN(2 * st->nb_posts + 2, c->dev->max_qp_wr);
	c->head = c->filled = c->tail = 0;
	c->msg_sent = c->msg_done = 0;
	c->dead = c->flushing = c->lied = false;
	depth = c->nb_posts + c->sq_depth + 2;
	rc = mlx5_cq_with_channel(c->dev, depth, c, &c->ch, &c->cq);
	if (rc < 0)
		goto fail;
	c->qp = mlx5_qp_new(c->conn, c->cq, c->cq, c->sq_depth, c->nb_posts, 0,
			    IBV_ACCESS_REMOTE_WRITE);
	c->posted = calloc(c->mask + 1, sizeof(*c->posted));
	c->cpl = calloc(c->mask + 1, sizeof(*c->cpl));
	if (c->qp == NULL || c->posted == NULL || c->cpl == NULL) {
		rc = -ENOMEM;
		goto fail;
	}
	rc = mlx5_mem_alloc(c->dev, &c->mem, (size_t)(c->mask + 1) * MLX5_REC_SLOT +
			    (size_t)c->sq_depth * sizeof(struct mlx5_post_msg),
			    IBV_ACCESS_LOCAL_WRITE);
	if (rc < 0)
		goto fail;
	/* Its channel wakes st->pe while the consumer is armed (mlx5_sleep.c). */
	c->pe = st->pe;
	c->psn = mlx5_psn();
	b.magic = rte_cpu_to_le_32(MLX5_MAGIC);
	b.qpn = rte_cpu_to_le_32(c->qp->qp_num);
	b.psn = rte_cpu_to_le_32(c->psn);
	b.rkey = rte_cpu_to_le_32(c->reg->mr->rkey);
	b.base = rte_cpu_to_le_64(c->mem_addr);
	memcpy(blob->data, &b, sizeof(b));
	blob->len = sizeof(b);
	blob->nb_fds = 0;
	return 0;
fail:
	mlx5_cons_release(c);
	return rc;
}

static int
mlx5_cons_connect(void *cp, struct rte_comch_drv_blob *reply)
{
	struct mlx5_consumer *c = cp;
	struct mlx5_import_reply r;
	uint32_t qpn, psn;

	if (reply->len != sizeof(r) || reply->nb_fds != 0 || c->qp == NULL) {
		MLX5_LOG(ERR, "consumer %u: a reply of %u bytes and %u descriptors", c->id,
			 reply->len, reply->nb_fds);
		return -EPROTO;
	}
	memcpy(&r, reply->data, sizeof(r));
	qpn = rte_le_to_cpu_32(r.qpn);
	psn = rte_le_to_cpu_32(r.psn);
	if (rte_le_to_cpu_32(r.magic) != MLX5_MAGIC || qpn > 0xffffff || psn > 0xffffff) {
		MLX5_LOG(ERR, "consumer %u: a garbled reply to its start", c->id);
		return -EPROTO;
	}
	return mlx5_qp_connect(c->conn, c->qp, qpn, psn, c->psn) < 0 ? -EPROTO : 0;
}

/* A record, received into slot idx: check it against its post. */
static void
mlx5_cons_record(struct mlx5_consumer *c, uint32_t idx, uint32_t byte_len)
{
	const struct mlx5_record *r =
		(const struct mlx5_record *)(c->mem.addr + (size_t)(idx & c->mask) * MLX5_REC_SLOT);
	const struct rte_comch_fp_post *p = &c->posted[idx & c->mask];
	struct rte_comch_fp_cpl *o = &c->cpl[idx & c->mask];
	uint32_t len, imm_len, pid;

	if (c->lied)
		return;
	len = rte_le_to_cpu_32(r->len);
	imm_len = rte_le_to_cpu_32(r->imm_len);
	pid = rte_le_to_cpu_32(r->producer_id);
	if (byte_len != sizeof(*r) || idx != c->filled || rte_le_to_cpu_32(r->index) != idx ||
	    len > p->len || imm_len > c->imm_len || pid == 0) {
		MLX5_LOG(ERR, "consumer %u: the peer's completion of post %u lies (index %u, "
			 "%u bytes into %" PRIu64 ", %u of immediate data, producer %u)", c->id,
			 idx, rte_le_to_cpu_32(r->index), len, p->len, imm_len, pid);
		c->lied = true;
		return;
	}
	o->cookie = p->cookie;
	o->len = len;
	o->producer_id = pid;
	o->status = 0;
	o->imm_len = imm_len;
	/* All 32 bytes are readable: what lies past imm_len is zero, not the peer's. */
	memcpy(o->imm, r->imm, imm_len);
	memset(o->imm + imm_len, 0, sizeof(o->imm) - imm_len);
	c->filled++;
}

static void
mlx5_cons_drain(struct mlx5_consumer *c)
{
	struct ibv_wc wc[MLX5_CONS_BURST];
	int i, n;

	if (c->cq == NULL)
		return;
	do {
		n = c->glue->poll_cq(c->cq, MLX5_CONS_BURST, wc);
		if (n < 0) {
			MLX5_LOG(ERR, "consumer %u: its completion queue failed (overrun?)", c->id);
			c->dead = true;
			return;
		}
		for (i = 0; i < n; i++) {
			if (MLX5_WR_KIND(wc[i].wr_id) == MLX5_WR_POSTS)
				c->msg_done++;
			if (wc[i].status != IBV_WC_SUCCESS) {
				if (!c->dead && !c->flushing)
					MLX5_LOG(NOTICE, "consumer %u: %s", c->id,
						 mlx5_wc_status_str(c->conn, wc[i].status));
				c->dead = true;
			} else if (MLX5_WR_KIND(wc[i].wr_id) == MLX5_WR_RECORD) {
				mlx5_cons_record(c, MLX5_WR_IDX(wc[i].wr_id), wc[i].byte_len);
			}
		}
	} while (n == MLX5_CONS_BURST);
}

static int
mlx5_cons_post_recvs(struct mlx5_consumer *c, unsigned int n)
{
	struct ibv_recv_wr wr[MLX5_CONS_BURST], *bad;
	struct ibv_sge sge[MLX5_CONS_BURST];
	unsigned int i, k;
	uint32_t idx;

	for (k = 0; k < n; k += i) {
		for (i = 0; i < MLX5_CONS_BURST && k + i < n; i++) {
			idx = c->head + k + i;
			sge[i].addr = (uintptr_t)(c->mem.addr + (size_t)(idx & c->mask) *
						   MLX5_REC_SLOT);
			sge[i].length = MLX5_REC_SLOT;
			sge[i].lkey = c->mem.mr->lkey;
			wr[i].wr_id = MLX5_WR(MLX5_WR_RECORD, idx);
			wr[i].sg_list = &sge[i];
			wr[i].num_sge = 1;
			wr[i].next = i + 1 < MLX5_CONS_BURST && k + i + 1 < n ? &wr[i + 1] : NULL;
		}
		if (c->glue->post_recv(c->qp, wr, &bad) != 0)
			return -ECONNRESET;
	}
	return 0;
}

static int
mlx5_cons_post(void *cp, const struct rte_comch_fp_post *posts, unsigned int n)
{
	struct mlx5_consumer *c = cp;
	struct ibv_send_wr wr, *bad;
	struct mlx5_post_msg *m;
	struct ibv_sge sge;
	unsigned int i, k, cnt;
	uint32_t nb_msgs = (n + MLX5_POSTS_PER_MSG - 1) / MLX5_POSTS_PER_MSG;

	if (c->dead || c->flushing)
		return -ECONNRESET;
	if (c->msg_sent - c->msg_done + nb_msgs > c->sq_depth) {
		mlx5_cons_drain(c); /* post messages the peer acknowledged free their slots */
		if (c->msg_sent - c->msg_done + nb_msgs > c->sq_depth)
			return -EAGAIN;
	}
	/* The receives for the records first: a record never finds none (no RNR). */
	if (mlx5_cons_post_recvs(c, n) < 0) {
		c->dead = true;
		return -ECONNRESET;
	}
	for (k = 0; k < n; k += cnt) {
		cnt = RTE_MIN(n - k, (unsigned int)MLX5_POSTS_PER_MSG);
		m = (struct mlx5_post_msg *)mlx5_cons_msg(c, c->msg_sent);
		m->first = rte_cpu_to_le_32(c->head + k);
		m->count = rte_cpu_to_le_32(cnt);
		for (i = 0; i < cnt; i++) {
			m->e[i].addr = rte_cpu_to_le_64((uintptr_t)posts[k + i].addr);
			m->e[i].len = rte_cpu_to_le_32((uint32_t)RTE_MIN(posts[k + i].len,
									  (uint64_t)UINT32_MAX));
			m->e[i].rsvd = 0;
			c->posted[(c->head + k + i) & c->mask] = posts[k + i];
		}
		sge.addr = (uintptr_t)m;
		sge.length = offsetof(struct mlx5_post_msg, e) + cnt * sizeof(m->e[0]);
		sge.lkey = c->mem.mr->lkey;
		memset(&wr, 0, sizeof(wr));
		wr.wr_id = MLX5_WR(MLX5_WR_POSTS, c->msg_sent);
		wr.sg_list = &sge;
		wr.num_sge = 1;
		wr.opcode = IBV_WR_SEND;
		wr.send_flags = IBV_SEND_SIGNALED;
		if (c->glue->post_send(c->qp, &wr, &bad) != 0) {
			/*
			 * Only a QP in trouble refuses: it is gone with what it
			 * held. Posted in part: all of them are, for the flush to
			 * give back (none will be filled).
			 */
			c->dead = true;
			if (k == 0)
				return -ECONNRESET;
			for (i = k; i < n; i++)
				c->posted[(c->head + i) & c->mask] = posts[i];
			break;
		}
		c->msg_sent++;
	}
	c->head += n;
	return 0;
}

static int
mlx5_cons_poll(void *cp, struct rte_comch_fp_cpl *cpl, unsigned int max)
{
	struct mlx5_consumer *c = cp;
	unsigned int i, n;

	mlx5_cons_drain(c);
	n = RTE_MIN(max, c->filled - c->tail);
	for (i = 0; i < n; i++)
		cpl[i] = c->cpl[(c->tail + i) & c->mask];
	c->tail += n;
	if (n == 0 && c->lied)
		return -EPROTO;
	return (int)n;
}

static int
mlx5_cons_flush(void *cp, struct rte_comch_fp_cpl *cpl, unsigned int max)
{
	struct mlx5_consumer *c = cp;
	unsigned int i, n;

	if (c->qp == NULL)
		return 0;
	if (!c->flushing) {
		/* From now on the peer's writes through this QP fail: the buffers are ours. */
		c->flushing = true;
		mlx5_qp_to_err(c->glue, c->qp);
	}
	mlx5_cons_drain(c);
	/* Records that came before the QP stopped: poll gives them first. */
	if (c->filled != c->tail && !c->lied)
		return 0;
	n = RTE_MIN(max, c->head - c->tail);
	for (i = 0; i < n; i++) {
		cpl[i].cookie = c->posted[(c->tail + i) & c->mask].cookie;
		cpl[i].len = 0;
		cpl[i].producer_id = 0;
		cpl[i].imm_len = 0;
	}
	c->tail += n;
	c->filled = c->tail;
	return (int)n;
}

static int
mlx5_cons_arm(void *cp)
{
	struct mlx5_consumer *c = cp;

	if (c->cq == NULL)
		return -EAGAIN;
	/* An event of an earlier arm is stale (mlx5_sleep.c): read it, watch, arm, look. */
	mlx5_channel_drain(c->glue, c->ch);
	if (mlx5_wake_on(c->pe, c->ch, &c->wake_on) < 0 ||
	    c->glue->req_notify_cq(c->cq, 1) != 0)
		return -EAGAIN;
	mlx5_cons_drain(c);
	return c->filled != c->tail || c->lied ? -EAGAIN : 0;
}

static void
mlx5_cons_disarm(void *cp)
{
	struct mlx5_consumer *c = cp;

	if (c->ch == NULL)
		return;
	mlx5_wake_off(c->pe, c->ch, &c->wake_on);
	mlx5_channel_drain(c->glue, c->ch);
}

const struct rte_comch_drv_consumer_ops mlx5_consumer_ops = {
	.create = mlx5_cons_create,
	.destroy = mlx5_cons_destroy,
	.start = mlx5_cons_start,
	.connect = mlx5_cons_connect,
	.post = mlx5_cons_post,
	.poll = mlx5_cons_poll,
	.flush = mlx5_cons_flush,
	.arm = mlx5_cons_arm,
	.disarm = mlx5_cons_disarm,
};
