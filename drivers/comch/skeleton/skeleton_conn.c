/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Servers, clients and connections of the skeleton driver.
 *
 * Set-up: a client finds the server in a process-wide registry and queues its
 * handshake there; the server's poll hands it to the library as an offer, and
 * the library's answer connects both sides at once. Everything about a
 * handshake changes under the registry's mutex: the server and the client may
 * run on two lcores. That is the slow path.
 *
 * The data path has no lock: each direction of a connection is a ring of
 * messages (single producer, single consumer: one sender, one receiver) that
 * the receiver reads in place with DPDK's zero-copy dequeue, and a counter of
 * messages it released, which the sender reads to complete its sends.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bsd/string.h>

#include "skeleton_internal.h"

/* Control messages that may wait in one direction. */
#define SKEL_CTL_QUEUE 64

enum skel_hs_state { SKEL_HS_PENDING, SKEL_HS_UP, SKEL_HS_GONE };

struct skel_server {
	TAILQ_ENTRY(skel_server) next;
	const struct skel_dev *sd;
	char rep[SKEL_NAME_MAX];
	const char *name;
	bool listening;
	struct rte_comch_pe *pe;
	uint32_t max_pending, nb_pending;
	TAILQ_HEAD(, skel_conn) incoming;  /* handshakes to offer */
	TAILQ_HEAD(, skel_conn) up;        /* answered, to report as up */
};

static pthread_mutex_t skel_registry_lock = PTHREAD_MUTEX_INITIALIZER;
static TAILQ_HEAD(, skel_server) skel_servers = TAILQ_HEAD_INITIALIZER(skel_servers);

static struct skel_server *
skel_server_lookup(const char *domain, const char *rep, const char *name)
{
	struct skel_server *s;

	TAILQ_FOREACH(s, &skel_servers, next)
		if (strcmp(s->sd->domain, domain) == 0 && strcmp(s->rep, rep) == 0 &&
		    strcmp(s->name, name) == 0)
			return s;
	return NULL;
}

/* ------------------------------------------------------------------ links */

static int
skel_dir_init(struct skel_dir *d, uint32_t queue)
{
	d->msgs = skel_ring_new(queue, sizeof(void *), RING_F_SP_ENQ | RING_F_SC_DEQ |
				RING_F_EXACT_SZ);
	d->ctls = skel_ring_new(SKEL_CTL_QUEUE, sizeof(void *), RING_F_SC_DEQ);
	return d->msgs != NULL && d->ctls != NULL ? 0 : -ENOMEM;
}

static void
skel_dir_fini(struct skel_dir *d)
{
	struct skel_ctl *ctl;
	void *m;

	while (d->msgs != NULL && rte_ring_dequeue(d->msgs, &m) == 0)
		free(m);
	while (d->ctls != NULL && rte_ring_dequeue(d->ctls, (void **)&ctl) == 0) {
		skel_conn_ops.blob_discard(NULL, &ctl->blob);
		free(ctl);
	}
	free(d->msgs);
	free(d->ctls);
}

/* A link with the client's direction ready; the server's comes with the answer. */
struct skel_conn *
skel_link_new(uint32_t server_queue, uint32_t client_queue)
{
	struct skel_link *l = calloc(1, sizeof(*l));
	int i;

	if (l == NULL)
		return NULL;
	l->refs = 2;
	for (i = 0; i < 2; i++) {
		l->side[i].link = l;
		l->side[i].rx = &l->dir[i];
		l->side[i].tx = &l->dir[1 - i];
		l->side[i].peer = &l->side[1 - i];
		l->side[i].bell.fd = -1;
	}
	if ((server_queue != 0 && skel_dir_init(&l->dir[0], server_queue) < 0) ||
	    skel_dir_init(&l->dir[1], client_queue) < 0 || skel_bell_init(&l->side[0].bell) < 0 ||
	    skel_bell_init(&l->side[1].bell) < 0) {
		skel_conn_put(&l->side[0]);
		skel_conn_put(&l->side[1]);
		return NULL;
	}
	return &l->side[1];
}

/* Let go of one side; the link goes with the second. */
void
skel_conn_put(struct skel_conn *c)
{
	struct skel_link *l = c->link;
	int i;

	if (comch_fetch_sub_release(&l->refs, 1) != 1)
		return;
	comch_fence_seq_cst(); /* see everything the other side did before its put */
	for (i = 0; i < 2; i++) {
		skel_dir_fini(&l->dir[i]);
		skel_bell_fini(&l->side[i].bell);
	}
	free(l);
}

/* A side is up: its engine may sleep, and the peer's activity must wake it. */
static int
skel_conn_up(struct skel_conn *c, struct rte_comch_pe *pe)
{
	c->pe = pe;
	return rte_comch_drv_pe_wake_fd_add(pe, c->bell.fd);
}

/* ------------------------------------------------------------------ server */

static int
skel_server_create(void *dev, const struct rte_comch_drv_server_conf *conf, void **priv)
{
	struct skel_server *s = calloc(1, sizeof(*s));
	int rc = 0;

	if (s == NULL)
		return -ENOMEM;
	s->sd = dev;
	strlcpy(s->rep, conf->rep_name, sizeof(s->rep));
	s->name = conf->name;
	s->max_pending = conf->max_pending;
	TAILQ_INIT(&s->incoming);
	TAILQ_INIT(&s->up);
	pthread_mutex_lock(&skel_registry_lock);
	if (skel_server_lookup(s->sd->domain, s->rep, s->name) != NULL)
		rc = -EEXIST;
	else
		TAILQ_INSERT_TAIL(&skel_servers, s, next);
	pthread_mutex_unlock(&skel_registry_lock);
	if (rc < 0) {
		SKEL_LOG(ERR, "server name \"%s\" on %s is taken", conf->name, conf->rep_name);
		free(s);
		return rc;
	}
	*priv = s;
	return 0;
}

static void
skel_server_destroy(void *srv)
{
	struct skel_server *s = srv;

	pthread_mutex_lock(&skel_registry_lock);
	TAILQ_REMOVE(&skel_servers, s, next);
	pthread_mutex_unlock(&skel_registry_lock);
	free(s);
}

static int
skel_server_start(void *srv, struct rte_comch_pe *pe)
{
	struct skel_server *s = srv;

	pthread_mutex_lock(&skel_registry_lock);
	s->pe = pe;
	s->listening = true;
	pthread_mutex_unlock(&skel_registry_lock);
	return 0;
}

/* Refuse a handshake the library never accepted; the client hears why. */
static void
skel_hs_refuse(struct skel_conn *server_side, int status)
{
	struct skel_conn *cli = server_side->peer;

	comch_store_release(&cli->hs_status, -status);
	skel_conn_put(server_side);
}

static void
skel_server_stop(void *srv)
{
	struct skel_server *s = srv;
	struct skel_conn *c;

	pthread_mutex_lock(&skel_registry_lock);
	s->listening = false;
	while ((c = TAILQ_FIRST(&s->incoming)) != NULL) {
		TAILQ_REMOVE(&s->incoming, c, next);
		skel_hs_refuse(c, ECONNRESET);
	}
	while ((c = TAILQ_FIRST(&s->up)) != NULL) {
		TAILQ_REMOVE(&s->up, c, next);
		comch_store_release(&c->tx->end, -ECONNRESET);
		skel_conn_put(c);
	}
	s->nb_pending = 0;
	pthread_mutex_unlock(&skel_registry_lock);
}

static unsigned int
skel_server_poll(void *srv, struct rte_comch_drv_srv_event *ev, unsigned int max, uint64_t now)
{
	struct skel_server *s = srv;
	struct skel_conn *c;
	unsigned int n = 0;

	pthread_mutex_lock(&skel_registry_lock);
	while (n < max && (c = TAILQ_FIRST(&s->up)) != NULL) {
		TAILQ_REMOVE(&s->up, c, next);
		s->nb_pending--;
		ev[n].type = RTE_COMCH_DRV_SRV_UP;
		ev[n].hs = c;
		ev[n].params = c->params;
		n++;
	}
	while (n < max && (c = TAILQ_FIRST(&s->incoming)) != NULL) {
		TAILQ_REMOVE(&s->incoming, c, next);
		ev[n].type = RTE_COMCH_DRV_SRV_OFFER;
		ev[n].hs = c;
		ev[n].offer = c->offer;
		n++;
	}
	pthread_mutex_unlock(&skel_registry_lock);
	return n;
}

static void
skel_server_answer(void *srv, void *hs, int status,
		   const struct rte_comch_drv_conn_params *agreed)
{
	struct skel_server *s = srv;
	struct skel_conn *c = hs, *cli = c->peer;

	pthread_mutex_lock(&skel_registry_lock);
	if (comch_load_acquire(&cli->hs_status) != -EINPROGRESS) {
		/* The client gave up meanwhile. */
		s->nb_pending--;
		skel_conn_put(c);
	} else if (status != 0) {
		s->nb_pending--;
		skel_hs_refuse(c, status);
	} else if (skel_dir_init(c->rx, agreed->recv_queue_size) < 0 ||
		   skel_conn_up(c, s->pe) < 0) {
		s->nb_pending--;
		skel_hs_refuse(c, ENOMEM);
	} else {
		/* Both sides up: the server reports it at its next poll. */
		c->max_msg = cli->max_msg = agreed->max_msg_size;
		c->params = *agreed;
		cli->params.max_msg_size = agreed->max_msg_size;
		cli->params.peer_queue_size = agreed->recv_queue_size;
		cli->params.recv_queue_size = agreed->peer_queue_size;
		TAILQ_INSERT_TAIL(&s->up, c, next);
		comch_store_release(&cli->hs_status, 0);
		rte_comch_drv_pe_wake(s->pe); /* its next poll reports the connection */
	}
	pthread_mutex_unlock(&skel_registry_lock);
}

const struct rte_comch_drv_server_ops skel_server_ops = {
	.create = skel_server_create,
	.destroy = skel_server_destroy,
	.start = skel_server_start,
	.stop = skel_server_stop,
	.poll = skel_server_poll,
	.answer = skel_server_answer,
};

/* ------------------------------------------------------------------ client */

static int
skel_client_connect(void *dev, const struct rte_comch_drv_client_conf *conf,
		    struct rte_comch_pe *pe, void **hs)
{
	const struct skel_dev *sd = dev;
	struct skel_server *s;
	struct skel_conn *cli;
	int rc = 0;

	/* Each attempt is new: its link is made before the lock, freed if in vain. */
	cli = skel_link_new(0, conf->recv_queue_size);
	if (cli == NULL)
		return -ENOMEM;
	cli->hs_status = -EINPROGRESS;
	cli->peer->offer.max_msg_size = conf->max_msg_size;
	cli->peer->offer.recv_queue_size = conf->recv_queue_size;
	strlcpy(cli->peer->offer.name, conf->name, sizeof(cli->peer->offer.name));
	pthread_mutex_lock(&skel_registry_lock);
	s = skel_server_lookup(sd->domain, sd->fn, conf->name);
	if (s == NULL || !s->listening)
		rc = -ENOENT; /* nobody of that name is there yet */
	else if (s->nb_pending >= s->max_pending)
		rc = -ECONNREFUSED;
	if (rc == 0) {
		s->nb_pending++;
		TAILQ_INSERT_TAIL(&s->incoming, cli->peer, next);
		/* A server's engine may sleep: there is no descriptor to wake it, but this. */
		rte_comch_drv_pe_wake(s->pe);
	}
	pthread_mutex_unlock(&skel_registry_lock);
	if (rc < 0) {
		skel_conn_put(cli->peer);
		skel_conn_put(cli);
		return rc;
	}
	cli->pe = pe;
	*hs = cli;
	return 0;
}

static int
skel_client_poll(void *hs, struct rte_comch_drv_conn_params *params)
{
	struct skel_conn *cli = hs;
	int rc = comch_load_acquire(&cli->hs_status);

	if (rc == 0) {
		if (skel_conn_up(cli, cli->pe) < 0) {
			comch_store_release(&cli->tx->end, -ECONNRESET);
			skel_conn_put(cli);
			return -ENOMEM;
		}
		*params = cli->params;
	} else if (rc != -EINPROGRESS) {
		skel_conn_put(cli);
	}
	return rc;
}

static void
skel_client_abort(void *hs)
{
	struct skel_conn *cli = hs;

	pthread_mutex_lock(&skel_registry_lock);
	/* Up already: the server's side ends; pending: the server's answer frees it. */
	if (comch_load_acquire(&cli->hs_status) == 0)
		comch_store_release(&cli->tx->end, -ECONNRESET);
	comch_store_release(&cli->hs_status, -ECONNRESET);
	pthread_mutex_unlock(&skel_registry_lock);
	skel_conn_put(cli);
}

const struct rte_comch_drv_client_ops skel_client_ops = {
	.connect = skel_client_connect,
	.poll = skel_client_poll,
	.abort = skel_client_abort,
};

/* ------------------------------------------------------------------ connection */

static int
skel_send(void *conn, const void *msg, uint32_t len)
{
	struct skel_conn *c = conn;
	struct skel_msg *m = malloc(sizeof(*m) + len);

	if (m == NULL)
		return -ENOMEM;
	m->len = len;
	/* An empty message may come without a buffer (msg NULL): nothing to copy. */
	if (len != 0)
		memcpy(m->data, msg, len);
	/* The library keeps at most the peer's queue in flight: the ring has room. */
	if (rte_ring_sp_enqueue(c->tx->msgs, m) != 0) {
		free(m);
		return -EAGAIN;
	}
	c->wrote = true;
	return 0;
}

/* The i-th object of a zero-copy dequeue (the ring may wrap in the middle). */
static inline void *
skel_zc_obj(const struct rte_ring_zc_data *zcd, unsigned int i)
{
	return i < zcd->n1 ? ((void **)zcd->ptr1)[i] : ((void **)zcd->ptr2)[i - zcd->n1];
}

static int
skel_poll(void *conn, struct rte_comch_drv_msg *msgs, unsigned int max, uint32_t *taken)
{
	struct skel_conn *c = conn;
	struct skel_msg *m;
	unsigned int i, n;
	uint32_t t;

	t = comch_load_acquire(&c->tx->taken);
	*taken = t - c->seen_taken;
	c->seen_taken = t;
	/* In place: the messages stay in the ring until release finishes the dequeue. */
	n = rte_ring_dequeue_zc_burst_start(c->rx->msgs, max, &c->zcd, NULL);
	for (i = 0; i < n; i++) {
		m = skel_zc_obj(&c->zcd, i);
		msgs[i].data = m->data;
		msgs[i].len = m->len;
	}
	return n;
}

static void
skel_release(void *conn, unsigned int n)
{
	struct skel_conn *c = conn;
	unsigned int i;

	for (i = 0; i < n; i++)
		free(skel_zc_obj(&c->zcd, i));
	rte_ring_dequeue_zc_finish(c->rx->msgs, n);
	if (n != 0) {
		comch_store_release(&c->rx->taken, c->rx->taken + n);
		c->wrote = true;
	}
	/* The end of the round: a sleeping peer learns what we sent or took. */
	if (c->wrote) {
		c->wrote = false;
		skel_bell_ring(&c->peer->bell);
	}
}

static int
skel_ctl_send(void *conn, const void *msg, uint32_t len, struct rte_comch_drv_blob *blob)
{
	struct skel_conn *c = conn;
	struct skel_ctl *ctl = calloc(1, sizeof(*ctl));

	if (ctl == NULL || len > sizeof(ctl->msg)) {
		free(ctl);
		if (blob != NULL)
			skel_conn_ops.blob_discard(conn, blob);
		return -ENOMEM;
	}
	memcpy(ctl->msg, msg, len);
	ctl->len = len;
	if (blob != NULL)
		ctl->blob = *blob; /* the blob's reference moves with it */
	if (rte_ring_mp_enqueue(c->tx->ctls, ctl) != 0) {
		skel_conn_ops.blob_discard(conn, &ctl->blob);
		free(ctl);
		return -ENOBUFS;
	}
	skel_bell_ring(&c->peer->bell);
	return 0;
}

static int
skel_ctl_poll(void *conn, struct rte_comch_drv_ctl *out)
{
	struct skel_conn *c = conn;
	struct skel_ctl *ctl;

	if (rte_ring_sc_dequeue(c->rx->ctls, (void **)&ctl) == 0) {
		memcpy(out->msg, ctl->msg, ctl->len);
		out->len = ctl->len;
		out->blob = ctl->blob;
		free(ctl);
		return 1;
	}
	return comch_load_acquire(&c->rx->end);
}

static int
skel_arm(void *conn, bool recv)
{
	struct skel_conn *c = conn;

	/*
	 * One bell for everything: not receiving, a message the peer writes
	 * still rings it, once per peer round and at most a receive queue's
	 * worth before the peer must wait: a few wake-ups, never a spin.
	 */
	comch_store_relaxed(&c->bell.armed, 1);
	comch_fence_seq_cst(); /* pairs with skel_bell_ring(): one of us sees the other */
	if ((recv && !rte_ring_empty(c->rx->msgs)) || !rte_ring_empty(c->rx->ctls) ||
	    comch_load_acquire(&c->tx->taken) != c->seen_taken ||
	    comch_load_acquire(&c->rx->end) != 0)
		return -EAGAIN;
	return 0;
}

static void
skel_disarm(void *conn)
{
	skel_bell_drain(&((struct skel_conn *)conn)->bell);
}

static void
skel_close(void *conn, int reason)
{
	struct skel_conn *c = conn;

	/* The peer sees our end as its end: closed, broke the protocol, or gone. */
	comch_store_release(&c->tx->end, reason == 0 ? -ECONNABORTED :
			    reason == -EPROTO ? -EPROTO : -ECONNRESET);
	skel_bell_ring(&c->peer->bell);
	if (c->pe != NULL)
		rte_comch_drv_pe_wake_fd_del(c->pe, c->bell.fd);
	c->closed = true;
}

static void
skel_free(void *conn)
{
	skel_conn_put(conn);
}

const struct rte_comch_drv_conn_ops skel_conn_ops = {
	.send = skel_send,
	.poll = skel_poll,
	.release = skel_release,
	.ctl_send = skel_ctl_send,
	.ctl_poll = skel_ctl_poll,
	.blob_discard = skel_blob_discard,
	.arm = skel_arm,
	.disarm = skel_disarm,
	.close = skel_close,
	.free = skel_free,
};
