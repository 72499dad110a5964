/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * A connection's queue pair as a carrier of messages: the object from its
 * first handshake step to its teardown, its buffers, what its completions
 * mean, and the credits.
 *
 * Every receive buffer is one size (a header and the largest payload). The
 * receiver posts its receive queue of them for user messages, and
 * MLX5_OTHER_CREDITS more for the rest; the sender keeps count of both
 * classes and learns, from the cumulative counts in each header the other
 * side sends, how many buffers it reposted: it never SENDs without a credit,
 * so an honest peer never meets a queue without a receive (no RNR; an RNR
 * error is the peer's protocol error). User messages stay in their buffer
 * until the library releases them; control messages until ctl_poll takes
 * them; CREDIT messages are reposted at once. Counts come back with every
 * message, and in a CREDIT of their own when the round released user
 * messages, or when MLX5_CREDIT_BATCH other buffers wait to be told.
 *
 * Why no side waits for the other forever: control messages never take the
 * last MLX5_OTHER_RESERVE credits; a CREDIT may take all but the last (the
 * BYE's) and is sent only with something to tell. Were both sides out of
 * credits with a CREDIT to send, the last message either sent before the
 * standstill returned credits the other side had not yet heard of (CREDITs
 * are sent only then), and it arrived: a contradiction.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>

#include "mlx5_internal.h"

#define MLX5_HDR ((uint32_t)sizeof(struct mlx5_hdr))
#define MLX5_DRAIN_BURST 32
#define MLX5_TX_BYTES (16u << 20)     /* send buffers of a connection side at most */

const char *
mlx5_wc_status_str(const struct mlx5_conn *c, int status)
{
	RTE_SET_USED(c);
	switch (status) {
	case IBV_WC_SUCCESS: return "success";
	case IBV_WC_LOC_LEN_ERR: return "local length error";
	case IBV_WC_LOC_QP_OP_ERR: return "local QP operation error";
	case IBV_WC_LOC_PROT_ERR: return "local protection error";
	case IBV_WC_WR_FLUSH_ERR: return "flushed";
	case IBV_WC_REM_INV_REQ_ERR: return "remote invalid request";
	case IBV_WC_REM_ACCESS_ERR: return "remote access error";
	case IBV_WC_REM_OP_ERR: return "remote operation error";
	case IBV_WC_RETRY_EXC_ERR: return "transport retries exceeded (no answer)";
	case IBV_WC_RNR_RETRY_EXC_ERR: return "receiver not ready";
	default: return "error";
	}
}

struct mlx5_conn *
mlx5_conn_new(struct mlx5_dev *dev, bool server)
{
	struct mlx5_conn *c = calloc(1, sizeof(*c));

	if (c == NULL)
		return NULL;
	c->dev = dev;
	c->glue = dev->glue;
	c->server = server;
	c->deadline = UINT64_MAX;
	mlx5_fast_init(c);
	if (mlx5_mem_alloc(dev, &c->hs, 3 * MLX5_HS_SLOT, IBV_ACCESS_LOCAL_WRITE) < 0) {
		free(c);
		return NULL;
	}
	return c;
}

/* The end of the carrier, once: the first reason stays. */
void
mlx5_conn_fail(struct mlx5_conn *c, int reason, const char *why)
{
	if (c->end != 0)
		return;
	c->end = reason;
	if (reason == -EPROTO)
		MLX5_LOG(ERR, "%s: connection to the peer: %s: dropping it", c->dev->name, why);
	else
		MLX5_LOG(INFO, "%s: connection to the peer ends: %s", c->dev->name, why);
}

/* The CQ (with a completion channel of its own) and the QP of c->id. */
int
mlx5_conn_create_qp(struct mlx5_conn *c, uint32_t recv_wr)
{
	struct mlx5_dev *dev = c->dev;
	uint32_t send_wr = MLX5_CONN_TX + 4; /* the handshake's sends too */
	struct ibv_qp_init_attr qa;

	if (mlx5_cq_with_channel(dev, send_wr + recv_wr + 2, c, &c->ch, &c->cq) < 0)
		return -ENOMEM;
	memset(&qa, 0, sizeof(qa));
	qa.qp_context = c;
	qa.send_cq = c->cq;
	qa.recv_cq = c->cq;
	qa.qp_type = IBV_QPT_RC;
	qa.cap.max_send_wr = send_wr;
	qa.cap.max_recv_wr = recv_wr;
	qa.cap.max_send_sge = 1;
	qa.cap.max_recv_sge = 1;
	if (c->glue->cm_create_qp(c->id, dev->pd, &qa) != 0) {
		MLX5_LOG(ERR, "%s: rdma_create_qp: %s", dev->name, strerror(errno));
		return -ENOMEM;
	}
	c->qp = c->id->qp;
	return 0;
}

static int
mlx5_conn_post_recv(struct mlx5_conn *c, struct ibv_sge *sge, uint64_t *ids, unsigned int n)
{
	struct ibv_recv_wr wr[MLX5_DRAIN_BURST], *bad;
	unsigned int i;
	int rc;

	for (i = 0; i < n; i++) {
		wr[i].wr_id = ids[i];
		wr[i].sg_list = &sge[i];
		wr[i].num_sge = 1;
		wr[i].next = i + 1 < n ? &wr[i + 1] : NULL;
	}
	rc = n == 0 ? 0 : c->glue->post_recv(c->qp, wr, &bad);
	if (rc != 0) {
		mlx5_conn_fail(c, -ECONNRESET, "post_recv failed");
		return -ECONNRESET;
	}
	return 0;
}

/* Post receive buffers idx[0..n) of the ring again. */
static int
mlx5_conn_repost(struct mlx5_conn *c, const uint32_t *idx, unsigned int n)
{
	struct ibv_sge sge[MLX5_DRAIN_BURST];
	uint64_t ids[MLX5_DRAIN_BURST];
	unsigned int i, k;

	for (k = 0; k < n; k += i) {
		for (i = 0; i < MLX5_DRAIN_BURST && k + i < n; i++) {
			sge[i].addr = (uintptr_t)(c->rx.addr + (size_t)idx[k + i] * c->slot);
			sge[i].length = c->slot;
			sge[i].lkey = c->rx.mr->lkey;
			ids[i] = MLX5_WR(MLX5_WR_RX, idx[k + i]);
		}
		if (mlx5_conn_post_recv(c, sge, ids, i) < 0)
			return -ECONNRESET;
	}
	return 0;
}

int
mlx5_conn_hs_recv(struct mlx5_conn *c)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)c->hs.addr, .length = MLX5_HS_SLOT, .lkey = c->hs.mr->lkey,
	};
	uint64_t id = MLX5_WR(MLX5_WR_HS_RECV, 0);

	return mlx5_conn_post_recv(c, &sge, &id, 1);
}

/* A handshake message from handshake buffer slot (1 or 2). */
int
mlx5_conn_hs_send(struct mlx5_conn *c, unsigned int slot, uint64_t wr_id, uint8_t type,
		  uint8_t status, const void *payload, uint32_t len)
{
	uint8_t *buf = c->hs.addr + (size_t)slot * MLX5_HS_SLOT;
	struct mlx5_hdr *h = (struct mlx5_hdr *)buf;
	struct ibv_sge sge = {
		.addr = (uintptr_t)buf, .length = MLX5_HDR + len, .lkey = c->hs.mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = wr_id, .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND,
		.send_flags = IBV_SEND_SIGNALED | IBV_SEND_SOLICITED,
	}, *bad;

	memset(h, 0, sizeof(*h));
	h->type = type;
	h->status = status;
	h->len = rte_cpu_to_le_32(len);
	if (len != 0)
		memcpy(buf + MLX5_HDR, payload, len);
	if (c->glue->post_send(c->qp, &wr, &bad) != 0) {
		mlx5_conn_fail(c, -ECONNRESET, "post_send failed");
		return -ECONNRESET;
	}
	if (MLX5_WR_KIND(wr_id) == MLX5_WR_FINAL)
		c->final_posted = true;
	return 0;
}

/* ------------------------------------------------------------------ carrier set-up */

int
mlx5_conn_carrier(struct mlx5_conn *c, uint32_t max_msg, uint32_t recv_queue,
		  uint32_t peer_queue)
{
	uint32_t i, *idx;
	int rc;

	c->max_msg = max_msg;
	c->slot = RTE_ALIGN_CEIL(MLX5_HDR + RTE_MAX(max_msg,
						    (uint32_t)sizeof(struct mlx5_ctl_wire)), 64);
	c->nb_rx = recv_queue + MLX5_OTHER_CREDITS;
	c->nb_tx = RTE_MIN(RTE_MIN(peer_queue + MLX5_OTHER_CREDITS + 1, (uint32_t)MLX5_CONN_TX),
			   RTE_MAX(16u, MLX5_TX_BYTES / c->slot));
	c->user_cap = peer_queue;
	c->uq_cap = recv_queue;
	c->uq_mask = mlx5_pow2(recv_queue) - 1;
	c->ctl_mask = mlx5_pow2(MLX5_OTHER_CREDITS) - 1;
	c->uq = calloc(c->uq_mask + 1, sizeof(*c->uq));
	c->cq_ctl = calloc(c->ctl_mask + 1, sizeof(*c->cq_ctl));
	c->pend = calloc(MLX5_CTL_PENDING, sizeof(*c->pend));
	idx = calloc(c->nb_rx, sizeof(*idx));
	if (c->uq == NULL || c->cq_ctl == NULL || c->pend == NULL || idx == NULL) {
		free(idx);
		return -ENOMEM;
	}
	rc = mlx5_mem_alloc(c->dev, &c->rx, (size_t)c->nb_rx * c->slot, IBV_ACCESS_LOCAL_WRITE);
	if (rc == 0)
		rc = mlx5_mem_alloc(c->dev, &c->tx, (size_t)c->nb_tx * c->slot, 0);
	for (i = 0; rc == 0 && i < c->nb_rx; i++)
		idx[i] = i;
	if (rc == 0)
		rc = mlx5_conn_repost(c, idx, c->nb_rx);
	free(idx);
	return rc;
}

/* What the connection's id gives a QP made by hand towards the same peer. */
int
mlx5_conn_fast_attrs(struct mlx5_conn *c)
{
	struct mlx5_fast *f = &c->fast;

	f->init.qp_state = IBV_QPS_INIT;
	f->rtr.qp_state = IBV_QPS_RTR;
	f->rts.qp_state = IBV_QPS_RTS;
	if (c->glue->init_qp_attr(c->id, &f->init, &f->init_mask) != 0 ||
	    c->glue->init_qp_attr(c->id, &f->rtr, &f->rtr_mask) != 0 ||
	    c->glue->init_qp_attr(c->id, &f->rts, &f->rts_mask) != 0) {
		MLX5_LOG(ERR, "%s: rdma_init_qp_attr: %s", c->dev->name, strerror(errno));
		return -ENOMEM;
	}
	return 0;
}

/* ------------------------------------------------------------------ sending */

/* Whether a message of type may go now, as far as credits go. */
static bool
mlx5_conn_credit(const struct mlx5_conn *c, uint8_t type)
{
	uint32_t other = MLX5_OTHER_CREDITS - (c->other_sent - c->other_back);

	switch (type) {
	case MLX5_MSG_USER:
		return c->user_sent - c->user_back < c->user_cap;
	case MLX5_MSG_CREDIT:
		return other >= 2;
	case MLX5_MSG_BYE:
		return other >= 1;
	default: /* CTL, READY */
		return other > MLX5_OTHER_RESERVE;
	}
}

/*
 * SEND one message of the carrier (payload a then b). 0; -EAGAIN when its
 * class has no credit or every send buffer waits for its completion;
 * -ECONNRESET when the queue pair is gone.
 */
int
mlx5_conn_send(struct mlx5_conn *c, uint8_t type, uint8_t status, const void *a, uint32_t alen,
	       const void *b, uint32_t blen)
{
	struct ibv_send_wr wr, *bad;
	struct ibv_sge sge;
	struct mlx5_hdr *h;
	uint8_t *buf;

	if (c->end != 0)
		return -ECONNRESET;
	if (!mlx5_conn_credit(c, type))
		return -EAGAIN;
	if (c->tx_head - c->tx_tail == c->nb_tx) {
		mlx5_conn_drain(c); /* completions free send buffers */
		if (c->end != 0)
			return -ECONNRESET;
		if (c->tx_head - c->tx_tail == c->nb_tx)
			return -EAGAIN;
	}
	buf = c->tx.addr + (size_t)(c->tx_head % c->nb_tx) * c->slot;
	h = (struct mlx5_hdr *)buf;
	h->type = type;
	h->status = status;
	h->rsvd = 0;
	h->len = rte_cpu_to_le_32(alen + blen);
	h->user_back = rte_cpu_to_le_32(c->user_freed);
	h->other_back = rte_cpu_to_le_32(c->other_freed);
	/* An empty message may come with no buffer at all: nothing to copy then. */
	if (alen != 0)
		memcpy(buf + MLX5_HDR, a, alen);
	if (blen != 0)
		memcpy(buf + MLX5_HDR + alen, b, blen);
	sge.addr = (uintptr_t)buf;
	sge.length = MLX5_HDR + alen + blen;
	sge.lkey = c->tx.mr->lkey;
	memset(&wr, 0, sizeof(wr));
	wr.wr_id = MLX5_WR(type == MLX5_MSG_BYE ? MLX5_WR_FINAL : MLX5_WR_TX, c->tx_head);
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = IBV_WR_SEND;
	/* Solicited: the peer's CQ raises an event for it (send completions do not). */
	wr.send_flags = IBV_SEND_SIGNALED | IBV_SEND_SOLICITED;
	if (c->glue->post_send(c->qp, &wr, &bad) != 0) {
		mlx5_conn_fail(c, -ECONNRESET, "post_send failed");
		return -ECONNRESET;
	}
	c->tx_head++;
	if (type == MLX5_MSG_USER)
		c->user_sent++;
	else
		c->other_sent++;
	if (type == MLX5_MSG_BYE)
		c->final_posted = true;
	c->user_told = c->user_freed;
	c->other_told = c->other_freed;
	return 0;
}

/* ------------------------------------------------------------------ receiving */

static void
mlx5_conn_proto(struct mlx5_conn *c, const char *why)
{
	mlx5_conn_fail(c, -EPROTO, why);
}

/* A message in buffer idx of the ring (the handshake is over on this side). */
static void
mlx5_conn_rx(struct mlx5_conn *c, uint32_t idx, uint32_t byte_len)
{
	const uint8_t *buf = c->rx.addr + (size_t)idx * c->slot;
	const struct mlx5_hdr *h = (const struct mlx5_hdr *)buf;
	const struct mlx5_ctl_wire *w;
	uint32_t len, ub, ob;

	/* After the end, and after our close, nothing more is taken: the buffers go with it. */
	if (c->end != 0 || c->state == MLX5_ST_CLOSED)
		return;
	if (byte_len < MLX5_HDR || rte_le_to_cpu_32(h->len) != byte_len - MLX5_HDR) {
		mlx5_conn_proto(c, "a message whose length is not what its header says");
		return;
	}
	len = byte_len - MLX5_HDR;
	/* Read once, check, use the checked copy: credits back may not exceed what we sent. */
	ub = rte_le_to_cpu_32(h->user_back);
	ob = rte_le_to_cpu_32(h->other_back);
	if (ub - c->user_back > c->user_sent - c->user_back ||
	    ob - c->other_back > c->other_sent - c->other_back) {
		mlx5_conn_proto(c, "it returned credits for messages never sent");
		return;
	}
	c->user_back = ub;
	c->other_back = ob;
	switch (h->type) {
	case MLX5_MSG_READY:
		if (c->state != MLX5_ST_WAIT_READY || len != 0) {
			mlx5_conn_proto(c, "READY out of turn");
			return;
		}
		c->other_freed++;
		if (mlx5_conn_repost(c, &idx, 1) == 0)
			mlx5_srv_on_ready(c);
		return;
	case MLX5_MSG_USER:
		if (c->state != MLX5_ST_UP || len > c->max_msg ||
		    c->uq_tail - c->uq_head >= c->uq_cap) {
			mlx5_conn_proto(c, len > c->max_msg ? "a message above the agreed size" :
					"more messages than its credits");
			return;
		}
		c->uq[c->uq_tail++ & c->uq_mask] = idx;
		return;
	case MLX5_MSG_CTL:
		w = (const struct mlx5_ctl_wire *)(buf + MLX5_HDR);
		if (c->state != MLX5_ST_UP || len != sizeof(*w) ||
		    rte_le_to_cpu_32(w->msg_len) > RTE_COMCH_DRV_CTL_MAX ||
		    rte_le_to_cpu_32(w->blob_len) > RTE_COMCH_DRV_BLOB_MAX ||
		    c->ctl_tail - c->ctl_head >= MLX5_OTHER_CREDITS) {
			mlx5_conn_proto(c, "a garbled control message, or more than its credits");
			return;
		}
		c->cq_ctl[c->ctl_tail++ & c->ctl_mask] = idx;
		return;
	case MLX5_MSG_CREDIT:
		if (len != 0) {
			mlx5_conn_proto(c, "a CREDIT with a payload");
			return;
		}
		c->other_freed++;
		mlx5_conn_repost(c, &idx, 1);
		return;
	case MLX5_MSG_BYE:
		if (h->status != 0 && h->status != EPROTO) {
			mlx5_conn_proto(c, "a BYE with an unknown status");
			return;
		}
		mlx5_conn_fail(c, h->status == 0 ? -ECONNABORTED : -EPROTO,
			       h->status == 0 ? "the peer closed it" :
			       "the peer says we broke the protocol");
		return;
	default:
		mlx5_conn_proto(c, "a message of an unknown type");
		return;
	}
}

/* The handshake buffer received something: HELLO (server), ACCEPT or REJECT (client). */
static void
mlx5_conn_hs_rx(struct mlx5_conn *c, uint32_t byte_len)
{
	const struct mlx5_hdr *h = (const struct mlx5_hdr *)c->hs.addr;
	uint32_t len;

	if (byte_len < MLX5_HDR || byte_len > MLX5_HS_SLOT ||
	    rte_le_to_cpu_32(h->len) != byte_len - MLX5_HDR) {
		mlx5_conn_proto(c, "a garbled handshake message");
		return;
	}
	len = byte_len - MLX5_HDR;
	if (c->server && c->state == MLX5_ST_WAIT_HELLO && h->type == MLX5_MSG_HELLO)
		mlx5_srv_on_hello(c, c->hs.addr + MLX5_HDR, len);
	else if (!c->server && c->state == MLX5_ST_WAIT_ACCEPT &&
		 (h->type == MLX5_MSG_ACCEPT || h->type == MLX5_MSG_REJECT))
		mlx5_cli_on_answer(c, h, c->hs.addr + MLX5_HDR, len);
	else
		mlx5_conn_proto(c, "a handshake message out of turn");
}

static void
mlx5_conn_wc(struct mlx5_conn *c, const struct ibv_wc *wc)
{
	unsigned int kind = MLX5_WR_KIND(wc->wr_id);

	if (kind == MLX5_WR_TX || kind == MLX5_WR_FINAL)
		c->tx_tail++; /* every send is signaled: completions free buffers in order */
	if (kind == MLX5_WR_FINAL)
		c->final_done = true;
	if (wc->status != IBV_WC_SUCCESS) {
		if (wc->status == IBV_WC_RNR_RETRY_EXC_ERR)
			mlx5_conn_proto(c, "it had no receive posted for our message (credits)");
		else
			mlx5_conn_fail(c, -ECONNRESET, mlx5_wc_status_str(c, wc->status));
		return;
	}
	if (kind == MLX5_WR_RX && MLX5_WR_IDX(wc->wr_id) < c->nb_rx)
		mlx5_conn_rx(c, MLX5_WR_IDX(wc->wr_id), wc->byte_len);
	else if (kind == MLX5_WR_HS_RECV && c->state != MLX5_ST_CLOSED)
		mlx5_conn_hs_rx(c, wc->byte_len);
}

/* Everything the CQ has, in order. */
void
mlx5_conn_drain(struct mlx5_conn *c)
{
	struct ibv_wc wc[MLX5_DRAIN_BURST];
	int i, n;

	if (c->cq == NULL)
		return;
	do {
		n = c->glue->poll_cq(c->cq, MLX5_DRAIN_BURST, wc);
		if (n < 0) {
			mlx5_conn_fail(c, -ECONNRESET, "its completion queue failed (overrun?)");
			return;
		}
		for (i = 0; i < n; i++)
			mlx5_conn_wc(c, &wc[i]);
	} while (n == MLX5_DRAIN_BURST);
}

/* Release the n oldest user messages: their buffers go back, their credits are owed. */
void
mlx5_conn_release_user(struct mlx5_conn *c, unsigned int n)
{
	uint32_t idx[MLX5_DRAIN_BURST];
	unsigned int i, k;

	for (k = 0; k < n; k += i) {
		for (i = 0; i < MLX5_DRAIN_BURST && k + i < n; i++)
			idx[i] = c->uq[(c->uq_head + k + i) & c->uq_mask];
		if (c->end == 0 && c->state == MLX5_ST_UP)
			mlx5_conn_repost(c, idx, i);
	}
	c->uq_head += n;
	c->user_freed += n;
}

/* The oldest control message, into ctl; its buffer goes back. 1, or 0 if none. */
int
mlx5_conn_take_ctl(struct mlx5_conn *c, struct rte_comch_drv_ctl *ctl)
{
	const struct mlx5_ctl_wire *w;
	uint32_t idx;

	if (c->ctl_head == c->ctl_tail)
		return 0;
	idx = c->cq_ctl[c->ctl_head++ & c->ctl_mask];
	w = (const struct mlx5_ctl_wire *)(c->rx.addr + (size_t)idx * c->slot + MLX5_HDR);
	/* Checked on arrival; read into our copy once more, bounded by the check. */
	ctl->len = RTE_MIN(rte_le_to_cpu_32(w->msg_len), (uint32_t)RTE_COMCH_DRV_CTL_MAX);
	memcpy(ctl->msg, w->msg, ctl->len);
	ctl->blob.len = RTE_MIN(rte_le_to_cpu_32(w->blob_len), (uint32_t)RTE_COMCH_DRV_BLOB_MAX);
	memcpy(ctl->blob.data, w->blob, ctl->blob.len);
	ctl->blob.nb_fds = 0;
	c->other_freed++;
	if (c->end == 0)
		mlx5_conn_repost(c, &idx, 1);
	return 1;
}

/*
 * The end of a round: control messages that waited for credits go, and the
 * peer hears of the buffers we reposted if it may be waiting for them.
 */
void
mlx5_conn_tell(struct mlx5_conn *c)
{
	struct mlx5_ctl_pending *p;

	if (c->state != MLX5_ST_UP || c->end != 0)
		return;
	while (c->pend_head != c->pend_tail) {
		p = &c->pend[c->pend_head % MLX5_CTL_PENDING];
		if (mlx5_conn_send(c, MLX5_MSG_CTL, 0, &p->w, p->len, NULL, 0) < 0)
			break;
		c->pend_head++;
	}
	if (c->user_freed != c->user_told ||
	    c->other_freed - c->other_told >= MLX5_CREDIT_BATCH) {
		mlx5_conn_send(c, MLX5_MSG_CREDIT, 0, NULL, 0, NULL, 0);
	}
}

/* ------------------------------------------------------------------ teardown */

void
mlx5_conn_disconnect(struct mlx5_conn *c)
{
	if (c->id == NULL || c->disconnected)
		return;
	c->disconnected = true;
	/* librdmacm moves the QP to ERR first: what is queued is flushed. */
	if (c->glue->disconnect(c->id) != 0 && errno != EINVAL)
		MLX5_LOG(DEBUG, "%s: rdma_disconnect: %s", c->dev->name, strerror(errno));
}

/* Free everything of c. dev->lock held: its id's events are the dispatcher's. */
void
mlx5_conn_destroy_locked(struct mlx5_conn *c)
{
	const struct rte_comch_mlx5_glue *g = c->glue;

	if (c->on != NULL)
		TAILQ_REMOVE(c->on, c, next);
	if (c->on == &c->dev->pending)
		c->dev->nb_pending--;
	c->on = NULL;
	mlx5_conn_detach_locked(c);
	mlx5_conn_dev_watch_locked(c, false);
	if (c->qp != NULL) {
		if (c->id != NULL)
			g->cm_destroy_qp(c->id);
		else
			g->destroy_qp(c->qp);
	}
	/* The channel's events acknowledged, then the CQ, then the channel. */
	mlx5_cq_with_channel_free(c->dev, &c->ch, &c->cq);
	mlx5_mem_free(c->dev, &c->hs);
	mlx5_mem_free(c->dev, &c->rx);
	mlx5_mem_free(c->dev, &c->tx);
	free(c->uq);
	free(c->cq_ctl);
	free(c->pend);
	if (c->id != NULL && g->destroy_id(c->id) != 0)
		MLX5_LOG(ERR, "%s: rdma_destroy_id: %s", c->dev->name, strerror(errno));
	free(c);
}

/*
 * c is the device's now: a BYE or REJECT it sent may still be on its way,
 * and destroying the queue pair would flush it. The dispatcher destroys it
 * once that completed, or after MLX5_LINGER_MS.
 */
void
mlx5_conn_linger_locked(struct mlx5_conn *c)
{
	if (c->on != NULL)
		TAILQ_REMOVE(c->on, c, next);
	if (c->on == &c->dev->pending)
		c->dev->nb_pending--;
	mlx5_conn_detach_locked(c);
	c->state = MLX5_ST_CLOSED;
	c->deadline = c->final_posted && !c->final_done ?
		      rte_rdtsc() + mlx5_ms(c->dev, MLX5_LINGER_MS) : 0;
	TAILQ_INSERT_TAIL(&c->dev->linger, c, next);
	c->on = &c->dev->linger;
	/* Its last send's completion wakes the dispatcher (any completion: arm for all). */
	if (c->cq != NULL && !c->final_done && mlx5_conn_dev_watch_locked(c, true) == 0)
		c->glue->req_notify_cq(c->cq, 0);
}

bool
mlx5_conn_linger_done_locked(struct mlx5_conn *c, uint64_t now)
{
	mlx5_channel_drain(c->glue, c->ch);
	if (!c->final_done)
		mlx5_conn_drain(c);
	return c->final_done || c->end != 0 || now >= c->deadline;
}
