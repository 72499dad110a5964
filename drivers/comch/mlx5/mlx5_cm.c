/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The device's rdma_cm events, and what belongs to no engine yet or any
 * more: requests from clients and their handshakes until a HELLO names a
 * server, connections lingering until their BYE or REJECT completed.
 *
 * One dispatcher per device, under its mutex, run by whichever engine
 * watches the device when its descriptors are readable, and by the slow
 * ticks of servers and clients. It only records what an id went through
 * (in the connection, for its owner's lcore to act on) and wakes the
 * owner's engine; requests it answers itself (mlx5_server.c). Each event is
 * acknowledged as soon as it was read: a connection can then be destroyed
 * at any time under the mutex, and the kernel drops its unread events.
 */

#include <errno.h>
#include <sys/epoll.h>

#include <rte_cycles.h>

#include "mlx5_internal.h"

static const char *
mlx5_cm_event_str(enum rdma_cm_event_type t)
{
	switch (t) {
	case RDMA_CM_EVENT_ADDR_RESOLVED: return "ADDR_RESOLVED";
	case RDMA_CM_EVENT_ADDR_ERROR: return "ADDR_ERROR";
	case RDMA_CM_EVENT_ROUTE_RESOLVED: return "ROUTE_RESOLVED";
	case RDMA_CM_EVENT_ROUTE_ERROR: return "ROUTE_ERROR";
	case RDMA_CM_EVENT_CONNECT_REQUEST: return "CONNECT_REQUEST";
	case RDMA_CM_EVENT_CONNECT_ERROR: return "CONNECT_ERROR";
	case RDMA_CM_EVENT_UNREACHABLE: return "UNREACHABLE";
	case RDMA_CM_EVENT_REJECTED: return "REJECTED";
	case RDMA_CM_EVENT_ESTABLISHED: return "ESTABLISHED";
	case RDMA_CM_EVENT_DISCONNECTED: return "DISCONNECTED";
	case RDMA_CM_EVENT_DEVICE_REMOVAL: return "DEVICE_REMOVAL";
	case RDMA_CM_EVENT_TIMEWAIT_EXIT: return "TIMEWAIT_EXIT";
	default: return "other";
	}
}

/*
 * An event of an id: a request is answered, the rest recorded for its
 * owner. Returns an id to destroy once the event is acknowledged (a request
 * refused), or NULL.
 */
static struct rdma_cm_id *
mlx5_cm_event(struct mlx5_dev *dev, struct rdma_cm_event *ev, const struct rte_comch_pe *self)
{
	struct mlx5_conn *c;

	if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST)
		return mlx5_srv_on_request(dev, ev);
	c = ev->id->context;
	if (c == NULL) {
		/* The listener's own: the device went away, or nothing of ours. */
		if (ev->event == RDMA_CM_EVENT_DEVICE_REMOVAL)
			MLX5_LOG(ERR, "%s: the RDMA device went away", dev->name);
		else
			MLX5_LOG(DEBUG, "%s: listener: %s", dev->name,
				 mlx5_cm_event_str(ev->event));
		return NULL;
	}
	MLX5_LOG(DEBUG, "%s: %s (status %d)", dev->name, mlx5_cm_event_str(ev->event),
		 ev->status);
	if ((unsigned int)ev->event < 32)
		c->cm_events |= MLX5_CM_BIT(ev->event);
	switch (ev->event) {
	case RDMA_CM_EVENT_ADDR_ERROR:
	case RDMA_CM_EVENT_ROUTE_ERROR:
	case RDMA_CM_EVENT_CONNECT_ERROR:
	case RDMA_CM_EVENT_UNREACHABLE:
	case RDMA_CM_EVENT_REJECTED:
		c->cm_status = ev->status;
		break;
	case RDMA_CM_EVENT_DISCONNECTED:
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		comch_store_release(&c->cm_end, -ECONNRESET);
		break;
	default:
		break;
	}
	/* Its engine acts on it; the one dispatching will at once. */
	if (c->pe != NULL && c->pe != self)
		rte_comch_drv_pe_wake(c->pe);
	return NULL;
}

/*
 * Everything the device has to do, under its mutex; self is the engine that
 * runs it (NULL: none), which need not be woken for what it is doing.
 */
void
mlx5_dispatch(struct mlx5_dev *dev, const struct rte_comch_pe *self)
{
	const struct rte_comch_mlx5_glue *g = dev->glue;
	struct epoll_event eev[16];
	struct rdma_cm_id *drop;
	struct rdma_cm_event *ev;
	struct mlx5_conn *c, *tmp;
	uint64_t now;
	int i, n;

	pthread_mutex_lock(&dev->lock);
	while (g->get_cm_event(dev->cm_ch, &ev) == 0) {
		drop = mlx5_cm_event(dev, ev, self);
		g->ack_cm_event(ev);
		/* rdma-core destroys no id with an event unacknowledged. */
		if (drop != NULL)
			g->destroy_id(drop);
	}
	/* The device's own connections: their events read, and all of them looked at below. */
	do {
		n = epoll_wait(dev->epfd, eev, RTE_DIM(eev), 0);
		for (i = 0; i < n; i++) {
			c = eev[i].data.ptr;
			mlx5_channel_drain(g, c->ch);
		}
	} while (n == (int)RTE_DIM(eev));
	now = rte_rdtsc();
	if (dev->dpu)
		mlx5_srv_pump_pending(dev, now);
	TAILQ_FOREACH_SAFE(c, &dev->linger, next, tmp)
		if (mlx5_conn_linger_done_locked(c, now))
			mlx5_conn_destroy_locked(c);
	pthread_mutex_unlock(&dev->lock);
}
