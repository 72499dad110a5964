/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The connection ops: user and control messages on the carrier of
 * mlx5_carrier.c, waking a sleeping engine, the end.
 *
 * The end of a connection, as ctl_poll reports it: the peer's BYE
 * (-ECONNABORTED, or -EPROTO if it says we broke the protocol), a message
 * that breaks ours (-EPROTO), a failed or flushed work request, or the
 * rdma_cm id disconnected (-ECONNRESET). What the CQ held before the end
 * is still returned first.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_byteorder.h>

#include "mlx5_internal.h"

static int
mlx5_send(void *conn, const void *msg, uint32_t len)
{
	struct mlx5_conn *c = conn;

	if (c->state != MLX5_ST_UP)
		return -ENOTCONN;
	/* msg may be NULL with len 0: mlx5_conn_send() copies only what there is. */
	return mlx5_conn_send(c, MLX5_MSG_USER, 0, msg, len, NULL, 0);
}

static int
mlx5_poll(void *conn, struct rte_comch_drv_msg *msgs, unsigned int max, uint32_t *taken)
{
	struct mlx5_conn *c = conn;
	const uint8_t *buf;
	unsigned int i, n;

	mlx5_conn_drain(c);
	*taken = c->user_back - c->taken;
	c->taken = c->user_back;
	n = RTE_MIN(max, c->uq_tail - c->uq_head);
	for (i = 0; i < n; i++) {
		buf = c->rx.addr + (size_t)c->uq[(c->uq_head + i) & c->uq_mask] * c->slot;
		msgs[i].data = buf + sizeof(struct mlx5_hdr);
		/* Checked against the buffer and the agreed size on arrival. */
		msgs[i].len = rte_le_to_cpu_32(((const struct mlx5_hdr *)buf)->len);
	}
	return (int)n;
}

static void
mlx5_release(void *conn, unsigned int n)
{
	struct mlx5_conn *c = conn;

	mlx5_conn_release_user(c, n);
	mlx5_conn_tell(c);
}

static void
mlx5_close_fds(struct rte_comch_drv_blob *blob)
{
	uint32_t i;

	for (i = 0; i < blob->nb_fds && i < RTE_COMCH_DRV_BLOB_FDS; i++)
		if (blob->fds[i] >= 0)
			close(blob->fds[i]);
	blob->nb_fds = 0;
}

static int
mlx5_ctl_send(void *conn, const void *msg, uint32_t len, struct rte_comch_drv_blob *blob)
{
	struct mlx5_conn *c = conn;
	struct mlx5_ctl_pending *p;
	struct mlx5_ctl_wire w;
	int rc;

	if (blob != NULL && blob->nb_fds != 0) {
		MLX5_LOG(ERR, "%s: a blob with descriptors: verbs carry none", c->dev->name);
		mlx5_close_fds(blob);
		return -EINVAL;
	}
	if (len > RTE_COMCH_DRV_CTL_MAX || (blob != NULL && blob->len > RTE_COMCH_DRV_BLOB_MAX))
		return -EINVAL;
	if (c->state != MLX5_ST_UP || c->end != 0)
		return -ECONNRESET;
	memset(&w, 0, sizeof(w));
	w.msg_len = rte_cpu_to_le_32(len);
	memcpy(w.msg, msg, len);
	if (blob != NULL) {
		w.blob_len = rte_cpu_to_le_32(blob->len);
		memcpy(w.blob, blob->data, blob->len);
	}
	/* In order: behind those already waiting for credits. */
	if (c->pend_head == c->pend_tail) {
		rc = mlx5_conn_send(c, MLX5_MSG_CTL, 0, &w, sizeof(w), NULL, 0);
		if (rc != -EAGAIN)
			return rc;
	}
	if (c->pend_tail - c->pend_head == MLX5_CTL_PENDING) {
		MLX5_LOG(ERR, "%s: %u control messages wait for the peer's credits already",
			 c->dev->name, MLX5_CTL_PENDING);
		return -ENOBUFS;
	}
	p = &c->pend[c->pend_tail++ % MLX5_CTL_PENDING];
	p->len = sizeof(w);
	p->w = w;
	return 0;
}

static int
mlx5_ctl_poll(void *conn, struct rte_comch_drv_ctl *ctl)
{
	struct mlx5_conn *c = conn;
	int end;

	mlx5_conn_drain(c);
	if (mlx5_conn_take_ctl(c, ctl) != 0) {
		mlx5_conn_tell(c);
		return 1;
	}
	mlx5_conn_tell(c);
	if (c->end != 0)
		return c->end;
	end = comch_load_acquire(&c->cm_end);
	if (end != 0)
		mlx5_conn_fail(c, end, "the peer disconnected");
	return c->end;
}

static void
mlx5_blob_discard(void *conn, struct rte_comch_drv_blob *blob)
{
	mlx5_close_fds(blob);
	blob->len = 0;
}

static int
mlx5_arm(void *conn, bool recv)
{
	struct mlx5_conn *c = conn;

	if (c->state != MLX5_ST_UP)
		return 0;
	/*
	 * An event of an earlier arm is stale (mlx5_sleep.c): read it, watch the
	 * channel, arm, and look: a completion between the two raises the event
	 * anyway.
	 */
	mlx5_channel_drain(c->glue, c->ch);
	if (mlx5_wake_on(c->pe, c->ch, &c->wake_on) < 0 ||
	    c->glue->req_notify_cq(c->cq, 1) != 0)
		return -EAGAIN;
	mlx5_conn_drain(c);
	mlx5_conn_tell(c);
	if ((recv && c->uq_head != c->uq_tail) || c->ctl_head != c->ctl_tail ||
	    c->user_back != c->taken || c->end != 0 || comch_load_acquire(&c->cm_end) != 0)
		return -EAGAIN;
	return 0;
}

static void
mlx5_disarm(void *conn)
{
	struct mlx5_conn *c = conn;

	/* Unwatched, and the doorbell emptied: the channel's events, acknowledged. */
	if (c->pe != NULL)
		mlx5_wake_off(c->pe, c->ch, &c->wake_on);
	mlx5_channel_drain(c->glue, c->ch);
}

static void
mlx5_close(void *conn, int reason)
{
	struct mlx5_conn *c = conn;
	struct mlx5_dev *dev = c->dev;

	if (c->state == MLX5_ST_UP && c->end == 0 && comch_load_acquire(&c->cm_end) == 0 &&
	    (reason == 0 || reason == -EPROTO)) {
		mlx5_conn_drain(c);
		if (mlx5_conn_send(c, MLX5_MSG_BYE, reason == 0 ? 0 : EPROTO, NULL, 0, NULL,
				   0) < 0)
			MLX5_LOG(NOTICE, "%s: no credit left for the BYE: the peer sees a reset",
				 dev->name);
	}
	/* Without a BYE on its way, the peer learns it from rdma_cm now. */
	if (!c->final_posted)
		mlx5_conn_disconnect(c);
	pthread_mutex_lock(&dev->lock);
	c->state = MLX5_ST_CLOSED;
	mlx5_conn_detach_locked(c);
	pthread_mutex_unlock(&dev->lock);
}

static void
mlx5_free(void *conn)
{
	struct mlx5_conn *c = conn;
	struct mlx5_dev *dev = c->dev;

	mlx5_fast_fini(c);
	pthread_mutex_lock(&dev->lock);
	c->state = MLX5_ST_CLOSED;
	if (c->final_posted && !c->final_done)
		mlx5_conn_drain(c);
	if (c->final_posted && !c->final_done && c->end == 0)
		mlx5_conn_linger_locked(c);
	else
		mlx5_conn_destroy_locked(c);
	pthread_mutex_unlock(&dev->lock);
}

const struct rte_comch_drv_conn_ops mlx5_conn_ops = {
	.send = mlx5_send,
	.poll = mlx5_poll,
	.release = mlx5_release,
	.ctl_send = mlx5_ctl_send,
	.ctl_poll = mlx5_ctl_poll,
	.blob_discard = mlx5_blob_discard,
	.arm = mlx5_arm,
	.disarm = mlx5_disarm,
	.close = mlx5_close,
	.free = mlx5_free,
};
