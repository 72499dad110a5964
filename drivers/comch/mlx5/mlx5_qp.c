/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Queue pairs made by hand for the fast path, towards the same peer as the
 * connection: the path (GID, MTU, port, timeouts) is the connection's, as
 * rdma_init_qp_attr() gave it for the connection's id when it came up; the
 * QP numbers and starting PSNs are their own, exchanged in the consumer's
 * start blob and the import's reply.
 */

#include <errno.h>
#include <string.h>

#include <rte_random.h>

#include "mlx5_internal.h"

uint32_t
mlx5_psn(void)
{
	return (uint32_t)rte_rand() & 0xffffff;
}

/* An RC QP on the device's PD, in INIT with access (remote write or nothing). */
struct ibv_qp *
mlx5_qp_new(struct mlx5_conn *c, struct ibv_cq *scq, struct ibv_cq *rcq, uint32_t send_wr,
	    uint32_t recv_wr, uint32_t inline_len, int access)
{
	struct ibv_qp_init_attr qa;
	struct ibv_qp_attr a;
	struct ibv_qp *qp;
	int rc;

	memset(&qa, 0, sizeof(qa));
	qa.send_cq = scq;
	qa.recv_cq = rcq;
	qa.qp_type = IBV_QPT_RC;
	qa.cap.max_send_wr = send_wr;
	qa.cap.max_recv_wr = recv_wr;
	qa.cap.max_send_sge = 1;
	qa.cap.max_recv_sge = 1;
	qa.cap.max_inline_data = inline_len;
	errno = 0;
	qp = c->glue->create_qp(c->dev->pd, &qa);
	if (qp == NULL) {
		MLX5_LOG(ERR, "%s: create_qp (%u sends, %u receives, %u inline): %s",
			 c->dev->name, send_wr, recv_wr, inline_len, strerror(errno));
		return NULL;
	}
	a = c->fast.init;
	a.qp_state = IBV_QPS_INIT;
	a.qp_access_flags = access;
	rc = c->glue->modify_qp(qp, &a, c->fast.init_mask | IBV_QP_ACCESS_FLAGS);
	if (rc != 0) {
		MLX5_LOG(ERR, "%s: QP %u to INIT: %s", c->dev->name, qp->qp_num, strerror(rc));
		c->glue->destroy_qp(qp);
		return NULL;
	}
	return qp;
}

/* RTR towards dest_qpn (its first PSN rq_psn), then RTS from sq_psn. */
int
mlx5_qp_connect(struct mlx5_conn *c, struct ibv_qp *qp, uint32_t dest_qpn, uint32_t rq_psn,
		uint32_t sq_psn)
{
	struct ibv_qp_attr a;
	int rc;

	a = c->fast.rtr;
	a.qp_state = IBV_QPS_RTR;
	a.dest_qp_num = dest_qpn;
	a.rq_psn = rq_psn;
	a.max_dest_rd_atomic = 0;   /* no READ or atomic ever comes */
	a.min_rnr_timer = 12;       /* 0.64 ms, should a NAK be needed (it is not) */
	rc = c->glue->modify_qp(qp, &a, c->fast.rtr_mask);
	if (rc == 0) {
		a = c->fast.rts;
		a.qp_state = IBV_QPS_RTS;
		a.sq_psn = sq_psn;
		a.max_rd_atomic = 0;
		/* Credits: a receive is always posted for an honest peer; an RNR is its error. */
		a.rnr_retry = 0;
		rc = c->glue->modify_qp(qp, &a, c->fast.rts_mask);
	}
	if (rc != 0)
		MLX5_LOG(ERR, "%s: QP %u to RTR/RTS towards QP %u: %s", c->dev->name, qp->qp_num,
			 dest_qpn, strerror(rc));
	return rc != 0 ? -rc : 0;
}

int
mlx5_qp_to_err(const struct rte_comch_mlx5_glue *glue, struct ibv_qp *qp)
{
	struct ibv_qp_attr a;

	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_ERR;
	return glue->modify_qp(qp, &a, IBV_QP_STATE);
}
