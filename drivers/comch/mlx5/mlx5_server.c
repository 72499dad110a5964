/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The BlueField side of a handshake.
 *
 *   client                                   device (dispatcher)   server (its engine)
 *   rdma_cm request (magic, version) ----->  QP, a receive for the HELLO, accept
 *   HELLO (fn, name, sizes) -------------->  route it by (fn, name) ---> OFFER to the library
 *   <------------------------------------------------------------------ ACCEPT or REJECT
 *   (receives posted) READY -------------------------------------------> UP
 *
 * Until its HELLO names a server, a handshake is the device's (dev->pending,
 * MLX5_HELLO_MS at most); then its server's, whose engine offers it, answers
 * it and waits for the READY that says the client's receives are posted (the
 * server's own are posted before its ACCEPT), within handshake_ms. A HELLO
 * for no listening server, or one that has max_pending handshakes already,
 * is refused with a REJECT (ENOENT, ECONNREFUSED); a request or a HELLO that
 * is not ours is dropped.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bsd/string.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>

#include "mlx5_internal.h"

static struct mlx5_server *
mlx5_srv_find(struct mlx5_dev *dev, const char *rep, const char *name)
{
	struct mlx5_server *s;

	TAILQ_FOREACH(s, &dev->servers, next)
		if (strcmp(s->rep, rep) == 0 && strcmp(s->name, name) == 0)
			return s;
	return NULL;
}

/* Refuse a handshake with a REJECT; it lingers until the REJECT went. dev->lock. */
static void
mlx5_srv_reject_locked(struct mlx5_conn *c, int status)
{
	if (c->srv != NULL && c->on == &c->srv->hs)
		c->srv->nb_pending--;
	mlx5_conn_hs_send(c, 2, MLX5_WR(MLX5_WR_FINAL, 0), MLX5_MSG_REJECT, (uint8_t)status,
			  NULL, 0);
	mlx5_conn_linger_locked(c);
}

/* ------------------------------------------------------------------ the device's part */

struct rdma_cm_id *
mlx5_srv_on_request(struct mlx5_dev *dev, struct rdma_cm_event *ev)
{
	struct rdma_conn_param cp;
	struct rdma_cm_id *id = ev->id;
	struct mlx5_conn *c = NULL;
	struct mlx5_req_pdata pd;

	id->context = NULL;
	/* Private data has no alignment: copied, then read. */
	if (ev->param.conn.private_data != NULL &&
	    ev->param.conn.private_data_len >= sizeof(pd))
		memcpy(&pd, ev->param.conn.private_data, sizeof(pd));
	else
		memset(&pd, 0, sizeof(pd));
	if (rte_le_to_cpu_32(pd.magic) != MLX5_MAGIC ||
	    rte_le_to_cpu_32(pd.version) != MLX5_VERSION) {
		MLX5_LOG(NOTICE, "%s: a connection request that is not rte_comch's (or of "
			 "another version): refused", dev->name);
		goto refuse;
	}
	if (dev->nb_pending >= MLX5_MAX_PENDING) {
		MLX5_LOG(NOTICE, "%s: %u clients connected without a HELLO already: refused",
			 dev->name, dev->nb_pending);
		goto refuse;
	}
	if (id->verbs != dev->ctx) {
		MLX5_LOG(ERR, "%s: a request arrived through another RDMA device", dev->name);
		goto refuse;
	}
	c = mlx5_conn_new(dev, true);
	if (c == NULL)
		goto refuse;
	c->id = id;
	/* The ring for user messages comes with the answer; its room is reserved now. */
	if (mlx5_conn_create_qp(c, dev->max_queue + MLX5_OTHER_CREDITS + 1) < 0 ||
	    mlx5_conn_hs_recv(c) < 0)
		goto refuse;
	memset(&cp, 0, sizeof(cp));
	cp.rnr_retry_count = 0; /* credits: a receive is always there for an honest peer */
	cp.retry_count = 7;
	if (dev->glue->accept(id, &cp) != 0) {
		MLX5_LOG(NOTICE, "%s: rdma_accept: %s", dev->name, strerror(errno));
		goto refuse;
	}
	/* Until its HELLO, the dispatcher looks after it: its channel wakes it. */
	if (mlx5_conn_dev_watch_locked(c, true) < 0)
		goto refuse;
	id->context = c;
	dev->glue->req_notify_cq(c->cq, 1);
	c->state = MLX5_ST_WAIT_HELLO;
	c->deadline = rte_rdtsc() + mlx5_ms(dev, MLX5_HELLO_MS);
	TAILQ_INSERT_TAIL(&dev->pending, c, next);
	c->on = &dev->pending;
	dev->nb_pending++;
	return NULL;
refuse:
	if (dev->glue->reject(id, NULL, 0) != 0)
		MLX5_LOG(DEBUG, "%s: rdma_reject: %s", dev->name, strerror(errno));
	if (c != NULL) {
		/* The id is destroyed after its event is acknowledged. */
		if (c->qp != NULL)
			dev->glue->cm_destroy_qp(id);
		c->qp = NULL;
		c->id = NULL;
		mlx5_conn_destroy_locked(c);
	}
	return id;
}

/* The HELLO: which server. dev->lock (from the dispatcher's drain). */
void
mlx5_srv_on_hello(struct mlx5_conn *c, const void *payload, uint32_t len)
{
	struct mlx5_dev *dev = c->dev;
	const struct mlx5_hello *h = payload;
	struct mlx5_server *s;

	if (len != sizeof(*h) || rte_le_to_cpu_32(h->magic) != MLX5_MAGIC ||
	    rte_le_to_cpu_32(h->version) != MLX5_VERSION ||
	    strnlen(h->fn, sizeof(h->fn)) == sizeof(h->fn) ||
	    strnlen(h->name, sizeof(h->name)) == sizeof(h->name)) {
		mlx5_conn_fail(c, -EPROTO, "a garbled HELLO");
		return;
	}
	s = mlx5_srv_find(dev, h->fn, h->name);
	c->srv = s;
	if (s == NULL || !s->listening) {
		MLX5_LOG(INFO, "%s: a client of %s asks for \"%s\": no such server listens",
			 dev->name, h->fn, h->name);
		mlx5_srv_reject_locked(c, ENOENT);
		return;
	}
	if (s->nb_pending >= s->max_pending) {
		MLX5_LOG(NOTICE, "%s: server \"%s\": %u handshakes under way already: refused",
			 dev->name, s->name, s->nb_pending);
		s->nb_drops++;
		s->drop_status = -ECONNREFUSED;
		rte_comch_drv_pe_wake(s->pe);
		mlx5_srv_reject_locked(c, ECONNREFUSED);
		return;
	}
	mlx5_conn_dev_watch_locked(c, false);
	strlcpy(c->offer.name, h->name, sizeof(c->offer.name));
	c->offer.max_msg_size = rte_le_to_cpu_32(h->max_msg_size);
	c->offer.recv_queue_size = rte_le_to_cpu_32(h->recv_queue_size);
	TAILQ_REMOVE(&dev->pending, c, next);
	dev->nb_pending--;
	TAILQ_INSERT_TAIL(&s->hs, c, next);
	c->on = &s->hs;
	s->nb_pending++;
	c->state = MLX5_ST_OFFER;
	c->deadline = rte_rdtsc() + mlx5_ms(dev, s->handshake_ms);
	rte_comch_drv_pe_wake(s->pe);
}

void
mlx5_srv_on_ready(struct mlx5_conn *c)
{
	c->state = MLX5_ST_UP;
}

/* Handshakes waiting for their HELLO: what came, who stayed silent too long. */
void
mlx5_srv_pump_pending(struct mlx5_dev *dev, uint64_t now)
{
	struct mlx5_conn *c, *tmp;

	TAILQ_FOREACH_SAFE(c, &dev->pending, next, tmp) {
		mlx5_conn_drain(c);
		if (c->state != MLX5_ST_WAIT_HELLO)
			continue; /* routed, or refused */
		if (c->end != 0 || comch_load_acquire(&c->cm_end) != 0) {
			mlx5_conn_destroy_locked(c);
		} else if (now >= c->deadline) {
			MLX5_LOG(NOTICE, "%s: a client said nothing for %u ms: dropped", dev->name,
				 MLX5_HELLO_MS);
			mlx5_conn_destroy_locked(c);
		} else {
			/* Arm, then look again: a HELLO in between raises the event anyway. */
			dev->glue->req_notify_cq(c->cq, 1);
			mlx5_conn_drain(c);
			if (c->state == MLX5_ST_WAIT_HELLO && c->end != 0)
				mlx5_conn_destroy_locked(c);
		}
	}
}

/* ------------------------------------------------------------------ server ops */

static int
mlx5_server_create(void *dev, const struct rte_comch_drv_server_conf *conf, void **srv)
{
	struct mlx5_dev *d = dev;
	struct mlx5_server *s = calloc(1, sizeof(*s));
	int rc = 0;

	if (s == NULL)
		return -ENOMEM;
	s->dev = d;
	strlcpy(s->rep, conf->rep_name, sizeof(s->rep));
	s->name = conf->name;
	s->max_pending = conf->max_pending;
	s->handshake_ms = conf->handshake_ms;
	TAILQ_INIT(&s->hs);
	pthread_mutex_lock(&d->lock);
	if (mlx5_srv_find(d, s->rep, s->name) != NULL)
		rc = -EEXIST;
	else
		TAILQ_INSERT_TAIL(&d->servers, s, next);
	pthread_mutex_unlock(&d->lock);
	if (rc < 0) {
		MLX5_LOG(ERR, "%s: server name \"%s\" on %s is taken", d->name, conf->name,
			 conf->rep_name);
		free(s);
		return rc;
	}
	*srv = s;
	return 0;
}

/* Every handshake under way goes, without a word (its client retries). dev->lock. */
static void
mlx5_server_drop_all_locked(struct mlx5_server *s)
{
	struct mlx5_conn *c;

	while ((c = TAILQ_FIRST(&s->hs)) != NULL)
		mlx5_conn_destroy_locked(c);
	s->nb_pending = 0;
	s->nb_drops = 0;
}

static void
mlx5_server_destroy(void *srv)
{
	struct mlx5_server *s = srv;

	pthread_mutex_lock(&s->dev->lock);
	mlx5_server_drop_all_locked(s);
	TAILQ_REMOVE(&s->dev->servers, s, next);
	pthread_mutex_unlock(&s->dev->lock);
	free(s);
}

static int
mlx5_server_start(void *srv, struct rte_comch_pe *pe)
{
	struct mlx5_server *s = srv;
	int rc;

	pthread_mutex_lock(&s->dev->lock);
	rc = mlx5_watch_get_locked(s->dev, pe);
	if (rc == 0) {
		s->pe = pe;
		s->listening = true;
	}
	pthread_mutex_unlock(&s->dev->lock);
	return rc;
}

static void
mlx5_server_stop(void *srv)
{
	struct mlx5_server *s = srv;

	pthread_mutex_lock(&s->dev->lock);
	mlx5_server_drop_all_locked(s);
	if (s->listening)
		mlx5_watch_put_locked(s->dev, s->pe);
	s->listening = false;
	pthread_mutex_unlock(&s->dev->lock);
}

/* Drop c from s for status: an event DROPPED (never offered) or FAILED. dev->lock. */
static void
mlx5_server_lost(struct mlx5_server *s, struct mlx5_conn *c, struct rte_comch_drv_srv_event *ev,
		 int status)
{
	ev->type = c->state == MLX5_ST_OFFER ? RTE_COMCH_DRV_SRV_DROPPED :
		   RTE_COMCH_DRV_SRV_FAILED;
	ev->hs = c;
	ev->status = status;
	s->nb_pending--;
	mlx5_conn_destroy_locked(c);
}

/* A handshake answered: its READY, or why not. 1 if ev was filled. dev->lock. */
static int
mlx5_server_wait_ready(struct mlx5_server *s, struct mlx5_conn *c,
		       struct rte_comch_drv_srv_event *ev, uint64_t now)
{
	mlx5_channel_drain(s->dev->glue, c->ch);
	mlx5_conn_drain(c);
	if (c->state == MLX5_ST_WAIT_READY && c->end == 0 &&
	    comch_load_acquire(&c->cm_end) == 0 && now < c->deadline) {
		s->dev->glue->req_notify_cq(c->cq, 1);
		mlx5_conn_drain(c);
	}
	if (c->state == MLX5_ST_UP) {
		/* From now on the library arms it, or polls it. */
		mlx5_wake_off(c->pe, c->ch, &c->wake_on);
		mlx5_channel_drain(s->dev->glue, c->ch);
		TAILQ_REMOVE(&s->hs, c, next);
		c->on = NULL;
		s->nb_pending--;
		ev->type = RTE_COMCH_DRV_SRV_UP;
		ev->hs = c;
		ev->params = c->params;
		return 1;
	}
	if (c->end != 0 || comch_load_acquire(&c->cm_end) != 0) {
		mlx5_server_lost(s, c, ev, c->end == -EPROTO ? -EPROTO : -ECONNRESET);
		return 1;
	}
	if (now >= c->deadline) {
		mlx5_server_lost(s, c, ev, -ETIMEDOUT);
		return 1;
	}
	return 0;
}

static unsigned int
mlx5_server_poll(void *srv, struct rte_comch_drv_srv_event *ev, unsigned int max, uint64_t now)
{
	struct mlx5_server *s = srv;
	struct mlx5_conn *c, *tmp;
	unsigned int n = 0;

	mlx5_dispatch(s->dev, s->pe);
	now = rte_rdtsc();
	pthread_mutex_lock(&s->dev->lock);
	for (; n < max && s->nb_drops != 0; s->nb_drops--, n++) {
		ev[n].type = RTE_COMCH_DRV_SRV_DROPPED;
		ev[n].hs = NULL;
		ev[n].status = s->drop_status;
	}
	TAILQ_FOREACH_SAFE(c, &s->hs, next, tmp) {
		if (n == max)
			break;
		switch (c->state) {
		case MLX5_ST_OFFER:
			if (now >= c->deadline || comch_load_acquire(&c->cm_end) != 0) {
				mlx5_server_lost(s, c, &ev[n++], now >= c->deadline ?
						 -ETIMEDOUT : -ECONNRESET);
				break;
			}
			/* From now on its events wake this engine. */
			if (mlx5_conn_attach_locked(c, s->pe) < 0) {
				mlx5_server_lost(s, c, &ev[n++], -ENOMEM);
				break;
			}
			c->state = MLX5_ST_OFFERED;
			ev[n].type = RTE_COMCH_DRV_SRV_OFFER;
			ev[n].hs = c;
			ev[n].offer = c->offer;
			n++;
			break;
		case MLX5_ST_WAIT_READY:
			n += mlx5_server_wait_ready(s, c, &ev[n], now);
			break;
		case MLX5_ST_FAILED:
			mlx5_server_lost(s, c, &ev[n++], c->hs_result);
			break;
		default:
			break; /* OFFERED: the library answers it in this very burst */
		}
	}
	pthread_mutex_unlock(&s->dev->lock);
	return n;
}

/* Accepted: the ring posted, the ACCEPT sent; the client's READY makes it UP. */
static int
mlx5_server_accept(struct mlx5_conn *c, const struct rte_comch_drv_conn_params *agreed)
{
	struct mlx5_accept a;
	int rc;

	c->params = *agreed;
	rc = mlx5_conn_carrier(c, agreed->max_msg_size, agreed->recv_queue_size,
			       agreed->peer_queue_size);
	if (rc == 0)
		rc = mlx5_conn_fast_attrs(c);
	if (rc < 0)
		return rc;
	a.magic = rte_cpu_to_le_32(MLX5_MAGIC);
	a.version = rte_cpu_to_le_32(MLX5_VERSION);
	a.max_msg_size = rte_cpu_to_le_32(agreed->max_msg_size);
	a.server_queue = rte_cpu_to_le_32(agreed->recv_queue_size);
	a.client_queue = rte_cpu_to_le_32(agreed->peer_queue_size);
	return mlx5_conn_hs_send(c, 1, MLX5_WR(MLX5_WR_HS_SEND, 0), MLX5_MSG_ACCEPT, 0, &a,
				 sizeof(a));
}

static void
mlx5_server_answer(void *srv, void *hs, int status, const struct rte_comch_drv_conn_params *agreed)
{
	struct mlx5_server *s = srv;
	struct mlx5_conn *c = hs;
	int rc;

	pthread_mutex_lock(&s->dev->lock);
	if (status != 0) {
		mlx5_srv_reject_locked(c, status);
	} else {
		rc = mlx5_server_accept(c, agreed);
		if (rc < 0) {
			/* Reported FAILED at the next poll, as the contract wants. */
			c->hs_result = rc;
			c->state = MLX5_ST_FAILED;
		} else {
			/* The READY wakes this engine: its channel watched, its CQ armed. */
			c->state = MLX5_ST_WAIT_READY;
			if (mlx5_wake_on(c->pe, c->ch, &c->wake_on) == 0)
				s->dev->glue->req_notify_cq(c->cq, 1);
		}
	}
	pthread_mutex_unlock(&s->dev->lock);
}

const struct rte_comch_drv_server_ops mlx5_server_ops = {
	.create = mlx5_server_create,
	.destroy = mlx5_server_destroy,
	.start = mlx5_server_start,
	.stop = mlx5_server_stop,
	.poll = mlx5_server_poll,
	.answer = mlx5_server_answer,
};
