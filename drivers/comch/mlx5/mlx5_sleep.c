/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Completion channels and sleeping engines.
 *
 * Every CQ that may have to wake an engine has a completion channel of its
 * own (non-blocking). arm asks the CQ for an event (req_notify_cq with
 * solicited_only: every message and every completion record is SENT
 * solicited, so send completions raise nothing, errors do), then polls once
 * more. Nothing has to run on the sending side to wake a consumer: notify is
 * NULL, and a send wakes a sleeping peer at once, not at the sender's next
 * progress.
 *
 * Verbs cannot take an arm back: a CQ armed and not woken stays armed past
 * the engine's disarm, and its next solicited completion raises an event
 * all the same, for an engine that polls now. So a channel is a wake-up
 * descriptor of its engine (rte_comch_drv_pe_wake_fd_add()) only while
 * armed: arm adds it, disarm removes it and reads and acknowledges its
 * events (the doorbell emptied); an event of an earlier arm, read at the
 * next arm, wakes nobody. A handshake step that waits for the peer arms it
 * likewise, until the connection is up.
 *
 * A device has two descriptors every engine with a server, a client or a
 * connection of it watches (a "watch", counted per engine): its rdma_cm
 * event channel (a client arrives, an id changes state) and an epoll set of
 * the channels of the connections the device owns itself (handshakes
 * waiting for their HELLO, connections lingering until their last SEND).
 * Their handler dispatches under the device's mutex (mlx5_cm.c), waking the
 * engine an rdma_cm event is for when it is another.
 *
 * A lost completion event (hardware does not lose them; the fake can) leaves
 * an armed CQ silent until the application's own wait times out, or until
 * anything else wakes the engine: the driver keeps no timer of its own. The
 * next progress finds the completion by polling.
 */

#include <errno.h>
#include <fcntl.h>
#include <sys/epoll.h>
#include <stdlib.h>
#include <string.h>

#include "mlx5_internal.h"

int
mlx5_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0)
		return -errno;
	return 0;
}

static void
mlx5_watch_handler(struct rte_comch_drv_fd *pfd, uint32_t events)
{
	struct mlx5_watch *w = pfd->arg;

	RTE_SET_USED(events);
	mlx5_dispatch(w->dev, w->pe);
}

/*
 * Watch the device's descriptors on pe (pe's lcore), counted. It goes when
 * its count drops to 0, on pe's lcore too (a server's stop, a connection's
 * close or an attempt's end), where no handler of it can be running.
 */
int
mlx5_watch_get_locked(struct mlx5_dev *dev, struct rte_comch_pe *pe)
{
	struct mlx5_watch *w;
	int rc;

	TAILQ_FOREACH(w, &dev->watches, next)
		if (w->pe == pe)
			break;
	if (w == NULL) {
		w = calloc(1, sizeof(*w));
		if (w == NULL)
			return -ENOMEM;
		w->dev = dev;
		w->pe = pe;
		w->cm.fd = dev->cm_ch->fd;
		w->cm.handler = mlx5_watch_handler;
		w->cm.arg = w;
		w->ep.fd = dev->epfd;
		w->ep.handler = mlx5_watch_handler;
		w->ep.arg = w;
		TAILQ_INSERT_TAIL(&dev->watches, w, next);
	}
	if (w->refs == 0) {
		rc = rte_comch_drv_pe_fd_add(pe, &w->cm);
		if (rc < 0)
			return rc;
		rc = rte_comch_drv_pe_fd_add(pe, &w->ep);
		if (rc < 0) {
			rte_comch_drv_pe_fd_del(pe, &w->cm);
			return rc;
		}
	}
	w->refs++;
	return 0;
}

void
mlx5_watch_put_locked(struct mlx5_dev *dev, struct rte_comch_pe *pe)
{
	struct mlx5_watch *w;

	TAILQ_FOREACH(w, &dev->watches, next)
		if (w->pe == pe)
			break;
	if (w == NULL || w->refs == 0) {
		MLX5_LOG(ERR, "%s: no watch on this engine to drop", dev->name);
		return;
	}
	if (--w->refs == 0) {
		rte_comch_drv_pe_fd_del(pe, &w->ep);
		rte_comch_drv_pe_fd_del(pe, &w->cm);
		TAILQ_REMOVE(&dev->watches, w, next);
		free(w);
	}
}

int
mlx5_watch_get(struct mlx5_dev *dev, struct rte_comch_pe *pe)
{
	int rc;

	pthread_mutex_lock(&dev->lock);
	rc = mlx5_watch_get_locked(dev, pe);
	pthread_mutex_unlock(&dev->lock);
	return rc;
}

void
mlx5_watch_put(struct mlx5_dev *dev, struct rte_comch_pe *pe)
{
	pthread_mutex_lock(&dev->lock);
	mlx5_watch_put_locked(dev, pe);
	pthread_mutex_unlock(&dev->lock);
}

void
mlx5_watch_free_all(struct mlx5_dev *dev)
{
	struct mlx5_watch *w;

	while ((w = TAILQ_FIRST(&dev->watches)) != NULL) {
		TAILQ_REMOVE(&dev->watches, w, next);
		if (w->refs != 0) {
			MLX5_LOG(ERR, "%s: closed while an engine still watches it", dev->name);
			rte_comch_drv_pe_fd_del(w->pe, &w->ep);
			rte_comch_drv_pe_fd_del(w->pe, &w->cm);
		}
		free(w);
	}
}

/* ch wakes pe from now on (*on says it does); any lcore. */
int
mlx5_wake_on(struct rte_comch_pe *pe, struct ibv_comp_channel *ch, bool *on)
{
	int rc;

	if (*on)
		return 0;
	rc = rte_comch_drv_pe_wake_fd_add(pe, ch->fd);
	if (rc == 0)
		*on = true;
	return rc;
}

/* ch wakes pe no more, and what it has is read (the doorbell emptied). */
void
mlx5_wake_off(struct rte_comch_pe *pe, struct ibv_comp_channel *ch, bool *on)
{
	if (*on)
		rte_comch_drv_pe_wake_fd_del(pe, ch->fd);
	*on = false;
}

/* c's engine is pe from now on: a watch of the device there. dev->lock. */
int
mlx5_conn_attach_locked(struct mlx5_conn *c, struct rte_comch_pe *pe)
{
	int rc = mlx5_watch_get_locked(c->dev, pe);

	if (rc == 0)
		c->pe = pe;
	return rc;
}

/* c has no engine any more (dev->lock; any lcore). */
void
mlx5_conn_detach_locked(struct mlx5_conn *c)
{
	if (c->pe == NULL)
		return;
	if (c->ch != NULL)
		mlx5_wake_off(c->pe, c->ch, &c->wake_on);
	mlx5_watch_put_locked(c->dev, c->pe);
	c->pe = NULL;
}

/* c's channel in the device's epoll set (on) or out of it. dev->lock. */
int
mlx5_conn_dev_watch_locked(struct mlx5_conn *c, bool on)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = c };

	if (c->ch == NULL || c->in_dev_ep == on)
		return 0;
	if (epoll_ctl(c->dev->epfd, on ? EPOLL_CTL_ADD : EPOLL_CTL_DEL, c->ch->fd, &ev) < 0) {
		MLX5_LOG(ERR, "%s: epoll_ctl: %s", c->dev->name, strerror(errno));
		return -errno;
	}
	c->in_dev_ep = on;
	return 0;
}

/* The events a channel has, each acknowledged at once. */
void
mlx5_channel_drain(const struct rte_comch_mlx5_glue *glue, struct ibv_comp_channel *ch)
{
	struct ibv_cq *cq;
	void *ctx;

	while (ch != NULL && glue->get_cq_event(ch, &cq, &ctx) == 0)
		glue->ack_cq_events(cq, 1);
}

/* A CQ of depth entries with a completion channel of its own, non-blocking. */
int
mlx5_cq_with_channel(struct mlx5_dev *dev, uint32_t depth, void *cq_ctx,
		     struct ibv_comp_channel **ch, struct ibv_cq **cq)
{
	errno = 0;
	*cq = NULL;
	*ch = dev->glue->create_comp_channel(dev->ctx);
	if (*ch == NULL || mlx5_nonblock((*ch)->fd) < 0) {
		MLX5_LOG(ERR, "%s: create_comp_channel: %s", dev->name, strerror(errno));
		goto fail;
	}
	*cq = dev->glue->create_cq(dev->ctx, (int)depth, cq_ctx, *ch, 0);
	if (*cq == NULL) {
		MLX5_LOG(ERR, "%s: create_cq of %u: %s", dev->name, depth, strerror(errno));
		goto fail;
	}
	return 0;
fail:
	if (*ch != NULL)
		dev->glue->destroy_comp_channel(*ch);
	*ch = NULL;
	return -ENOMEM;
}

/* Undo mlx5_cq_with_channel(): the channel's events first, then the CQ, then it. */
void
mlx5_cq_with_channel_free(struct mlx5_dev *dev, struct ibv_comp_channel **ch,
			  struct ibv_cq **cq)
{
	mlx5_channel_drain(dev->glue, *ch);
	if (*cq != NULL)
		dev->glue->destroy_cq(*cq);
	if (*ch != NULL)
		dev->glue->destroy_comp_channel(*ch);
	*cq = NULL;
	*ch = NULL;
}
