/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The librdmacm calls, over RoCE: event channels, ids, address and route
 * resolution against the addresses the fake devices own, the IB CM exchange
 * (REQ, REP, RTU, REJ, DREQ) as events, and what librdmacm does to the QP
 * of an id (INIT at creation, INIT/RTR/RTS when the connection is accepted
 * or its response read, ERR at disconnect). Calls return 0 or -1 with errno.
 */

#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

#include "mlx5_fake_priv.h"

#define FK_MAX_BACKLOG 1024

static int
fk_cm_ret(int err)
{
	if (err == 0)
		return 0;
	errno = err;
	return -1;
}

static struct fk_evch *
fk_evch_find(const struct rdma_event_channel *p)
{
	struct fk_evch *o;

	TAILQ_FOREACH(o, &fk.evchs, next)
		if (&o->ch == p)
			return o;
	return NULL;
}

static uint32_t
fk_psn_new(void)
{
	/* A starting PSN that looks random, as the kernel's, but repeats run to run. */
	fk.next_psn = (fk.next_psn * 1103515245u + 12345u) & FK_PSN_MASK;
	return fk.next_psn;
}

static uint8_t
fk_min8(unsigned int a, unsigned int b)
{
	return (uint8_t)(a < b ? a : b);
}

/* Queue an event for fid; private data (len bytes) is padded with zeros to
 * what the IB CM message carries (padded, 0: none). */
static struct fk_cmev *
fk_cm_event(struct fk_id *fid, enum rdma_cm_event_type type, int status,
	    const void *pdata, uint8_t len, uint8_t padded)
{
	struct fk_cmev *ev = calloc(1, sizeof(*ev));

	if (ev == NULL) {
		fk_misuse("out of memory for an rdma_cm event: lost");
		return NULL;
	}
	ev->fid = fid;
	ev->ev.id = &fid->id;
	ev->ev.event = type;
	ev->ev.status = status;
	if (padded > 0) {
		if (pdata != NULL && len > 0)
			memcpy(ev->pdata, pdata, len);
		ev->ev.param.conn.private_data = ev->pdata;
		ev->ev.param.conn.private_data_len = padded;
	}
	TAILQ_INSERT_TAIL(&fid->ch->events, ev, next);
	fk_evfd_push(&fid->ch->efd);
	fk.cnt.cm_events++;
	return ev;
}

/* A REJ from the other end: REJECTED with the reason as status. */
static void
fk_cm_rejected(struct fk_id *f, int reason, const void *pdata, uint8_t len)
{
	f->state = FK_ID_DEAD;
	f->peer = NULL;
	fk_cm_event(f, RDMA_CM_EVENT_REJECTED, reason, pdata, len, FK_REJ_PDATA);
}

static void
fk_cm_unreachable(struct fk_id *f)
{
	f->state = FK_ID_DEAD;
	fk_cm_event(f, RDMA_CM_EVENT_UNREACHABLE, -ETIMEDOUT, NULL, 0, 0);
}

static void
fk_cm_disconnected(struct fk_id *f)
{
	f->state = FK_ID_DISCONNECTED;
	fk_cm_event(f, RDMA_CM_EVENT_DISCONNECTED, 0, NULL, 0, 0);
}

static struct fk_ctx *
fk_cm_ctx(struct fk_dev *d)
{
	if (d->cm_ctx == NULL)
		d->cm_ctx = fk_ctx_new(d, true);
	return d->cm_ctx;
}

/* ------------------------------------------------------------ devices */

/*
 * rdma_get_devices(): librdmacm's own context of every device, the one its
 * ids use (id->verbs), held open until rdma_free_devices(). As librdmacm's
 * ucma_init() does, no device at all is an error (NULL, ENODEV).
 */
struct ibv_context **
fk_rdma_get_devices(int *num)
{
	struct fk_devlist *dl = NULL;
	unsigned int i;
	int err = 0;

	fk_lock();
	if (fk.nb_devs == 0) {
		err = ENODEV;
	} else if ((dl = calloc(1, sizeof(*dl))) == NULL) {
		err = ENOMEM;
	} else {
		for (i = 0; i < fk.nb_devs && err == 0; i++) {
			struct fk_ctx *c = fk_cm_ctx(fk.devs[i]);

			if (c == NULL)
				err = ENOMEM;
			else
				dl->ctx[i] = &c->ctx;
		}
		if (err != 0) {
			free(dl);
			dl = NULL;
		} else {
			TAILQ_INSERT_TAIL(&fk.devlists, dl, next);
		}
	}
	if (num != NULL)
		*num = dl != NULL ? (int)fk.nb_devs : 0;
	fk_unlock();
	if (dl == NULL) {
		errno = err;
		return NULL;
	}
	return dl->ctx;
}

void
fk_rdma_free_devices(struct ibv_context **list)
{
	struct fk_devlist *dl;

	fk_lock();
	TAILQ_FOREACH(dl, &fk.devlists, next)
		if (dl->ctx == list)
			break;
	if (dl == NULL) {
		fk_misuse("rdma_free_devices on a list it did not hand out: %p", (void *)list);
	} else {
		TAILQ_REMOVE(&fk.devlists, dl, next);
		free(dl);
	}
	fk_unlock();
}

/* ------------------------------------------------------------ channels */

struct rdma_event_channel *
fk_create_event_channel(void)
{
	struct fk_evch *ch;
	int err;

	ch = calloc(1, sizeof(*ch));
	if (ch == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	err = fk_evfd_init(&ch->efd);
	if (err != 0) {
		free(ch);
		errno = err;
		return NULL;
	}
	ch->ch.fd = ch->efd.fd;
	TAILQ_INIT(&ch->events);
	fk_lock();
	TAILQ_INSERT_TAIL(&fk.evchs, ch, next);
	fk_unlock();
	return &ch->ch;
}

void
fk_destroy_event_channel(struct rdma_event_channel *channel)
{
	struct fk_evch *ch;

	fk_lock();
	ch = fk_evch_find(channel);
	if (ch == NULL) {
		fk_misuse("destroy_event_channel on an unknown channel %p", (void *)channel);
	} else if (ch->ids > 0) {
		/* librdmacm closes the fd under ids still using it. Keep it. */
		fk_misuse("destroy_event_channel with %u ids on it", ch->ids);
	} else {
		TAILQ_REMOVE(&fk.evchs, ch, next);
		fk_evfd_close(&ch->efd);
		free(ch);
	}
	fk_unlock();
}

/* ------------------------------------------------------------ ids */

int
fk_create_id(struct rdma_event_channel *channel, struct rdma_cm_id **id, void *context,
	     enum rdma_port_space ps)
{
	struct fk_evch *ch;
	struct fk_id *f;
	int err;

	fk_lock();
	ch = fk_evch_find(channel);
	if (ch == NULL || id == NULL)
		err = EINVAL;  /* synchronous ids (no channel): not modelled */
	else if (ps != RDMA_PS_TCP && ps != RDMA_PS_IB)
		err = EOPNOTSUPP;  /* UD port spaces: not modelled */
	else
		err = fk_fault(MLX5_FAKE_OP_CREATE_ID);
	if (err == 0) {
		f = calloc(1, sizeof(*f));
		if (f == NULL) {
			err = ENOMEM;
		} else {
			f->ch = ch;
			f->id.channel = channel;
			f->id.context = context;
			f->id.ps = ps;
			f->id.qp_type = IBV_QPT_RC;
			ch->ids++;
			TAILQ_INSERT_TAIL(&fk.ids, f, next);
			*id = &f->id;
		}
	}
	fk_unlock();
	return fk_cm_ret(err);
}

static uint16_t
fk_sa_port(const struct sockaddr *sa)
{
	return sa->sa_family == AF_INET ? ((const struct sockaddr_in *)sa)->sin_port :
		((const struct sockaddr_in6 *)sa)->sin6_port;
}

static void
fk_sa_set_port(struct sockaddr *sa, uint16_t port)
{
	if (sa->sa_family == AF_INET)
		((struct sockaddr_in *)sa)->sin_port = port;
	else
		((struct sockaddr_in6 *)sa)->sin6_port = port;
}

static socklen_t
fk_sa_len(const struct sockaddr *sa)
{
	return sa->sa_family == AF_INET ? sizeof(struct sockaddr_in) :
		sizeof(struct sockaddr_in6);
}

static bool
fk_sa_wildcard(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET)
		return ((const struct sockaddr_in *)sa)->sin_addr.s_addr == htonl(INADDR_ANY);
	return memcmp(&((const struct sockaddr_in6 *)sa)->sin6_addr, &in6addr_any,
		      sizeof(in6addr_any)) == 0;
}

static bool
fk_sa_same_ip(const struct sockaddr *a, const struct sockaddr *b)
{
	if (a->sa_family != b->sa_family)
		return false;
	if (a->sa_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
			((const struct sockaddr_in *)b)->sin_addr.s_addr;
	return memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
		      &((const struct sockaddr_in6 *)b)->sin6_addr, sizeof(struct in6_addr)) == 0;
}

/* Whether (ps, ip, port) collides with a bound id's. */
static bool
fk_port_in_use(enum rdma_port_space ps, const struct sockaddr *sa, uint16_t port)
{
	const struct fk_id *o;

	TAILQ_FOREACH(o, &fk.ids, next) {
		const struct sockaddr *b = &o->id.route.addr.src_addr;

		if (!o->bound || o->id.ps != ps || b->sa_family != sa->sa_family ||
		    fk_sa_port(b) != port)
			continue;
		if (fk_sa_wildcard(b) || fk_sa_wildcard(sa) || fk_sa_same_ip(b, sa))
			return true;
	}
	return false;
}

/* Bind f to sa (an address a device owns, or a wildcard): errno value. */
static int
fk_bind(struct fk_id *f, const struct sockaddr *sa)
{
	const struct fk_addr *a = NULL;
	struct sockaddr_storage ss;
	uint16_t port;

	if (sa->sa_family != AF_INET && sa->sa_family != AF_INET6)
		return EAFNOSUPPORT;
	if (!fk_sa_wildcard(sa) && (a = fk_addr_find(sa)) == NULL)
		return EADDRNOTAVAIL;
	memset(&ss, 0, sizeof(ss));
	memcpy(&ss, sa, fk_sa_len(sa));
	port = fk_sa_port(sa);
	if (port == 0) {
		unsigned int tries;

		for (tries = 0; tries < 20000; tries++) {
			port = htons(fk.next_port);
			fk.next_port = fk.next_port >= 60999 ? 40000 : fk.next_port + 1;
			if (!fk_port_in_use(f->id.ps, sa, port))
				break;
		}
		if (tries == 20000)
			return EADDRINUSE;
	} else if (fk_port_in_use(f->id.ps, sa, port)) {
		return EADDRINUSE;
	}
	fk_sa_set_port((struct sockaddr *)&ss, port);
	memcpy(&f->id.route.addr.src_storage, &ss, sizeof(ss));
	f->bound = true;
	if (a != NULL) {
		struct fk_ctx *c = fk_cm_ctx(a->dev);

		if (c == NULL)
			return ENOMEM;
		f->dev = a->dev;
		f->gid_index = a->gid_index;
		f->id.verbs = &c->ctx;
		f->id.port_num = (uint8_t)a->port;
		f->id.route.addr.addr.ibaddr.sgid = a->dev->port[a->port - 1].gid[a->gid_index];
		f->id.route.addr.addr.ibaddr.pkey = htobe16(0xffff);
	}
	f->state = FK_ID_BOUND;
	return 0;
}

int
fk_bind_addr(struct rdma_cm_id *id, struct sockaddr *addr)
{
	struct fk_id *f;
	int err;

	fk_lock();
	f = fk_id_find(id);
	if (f == NULL || addr == NULL || f->state != FK_ID_IDLE)
		err = EINVAL;
	else
		err = fk_bind(f, addr);
	fk_unlock();
	return fk_cm_ret(err);
}

int
fk_listen(struct rdma_cm_id *id, int backlog)
{
	struct sockaddr_in any = { .sin_family = AF_INET };
	struct fk_id *f;
	int err = 0;

	fk_lock();
	f = fk_id_find(id);
	if (f == NULL)
		err = EINVAL;
	else if (f->state == FK_ID_IDLE)
		err = fk_bind(f, (struct sockaddr *)&any);  /* the kernel binds a wildcard */
	else if (f->state != FK_ID_BOUND)
		err = EINVAL;
	if (err == 0) {
		f->backlog = backlog > 0 && backlog < FK_MAX_BACKLOG ? (unsigned int)backlog :
			FK_MAX_BACKLOG;
		f->state = FK_ID_LISTEN;
	}
	fk_unlock();
	return fk_cm_ret(err);
}

/* A source for an unbound active id: no routing table here, so the first
 * address (in configuration order) of another device, as if the
 * destination were another host; the owner's own address if it is alone. */
static const struct fk_addr *
fk_route_source(const struct sockaddr *dst, const struct fk_addr *owner)
{
	const struct fk_addr *own = NULL;
	unsigned int i;

	for (i = 0; i < fk.nb_addrs; i++) {
		const struct fk_addr *a = &fk.addrs[i];

		if (a->ss.ss_family != dst->sa_family || a->dev->down)
			continue;
		if (owner == NULL || a->dev != owner->dev)
			return a;
		if (own == NULL)
			own = a;
	}
	return own;
}

int
fk_resolve_addr(struct rdma_cm_id *id, struct sockaddr *src_addr, struct sockaddr *dst_addr,
		int timeout_ms)
{
	const struct fk_addr *owner, *src;
	struct sockaddr_storage ss;
	struct fk_id *f;
	bool was_bound;
	int err = 0;

	fk_lock();
	f = fk_id_find(id);
	if (f == NULL || dst_addr == NULL ||
	    (f->state != FK_ID_IDLE && f->state != FK_ID_BOUND)) {
		err = EINVAL;
		goto out;
	}
	if (dst_addr->sa_family != AF_INET && dst_addr->sa_family != AF_INET6) {
		err = EAFNOSUPPORT;
		goto out;
	}
	owner = fk_addr_find(dst_addr);
	if (f->state == FK_ID_IDLE && src_addr != NULL) {
		err = fk_bind(f, src_addr);
	} else if (f->dev == NULL) {
		/* Unbound, or bound to a wildcard: the route picks the device. */
		src = fk_route_source(dst_addr, owner);
		if (src == NULL) {
			err = ENETUNREACH;
			goto out;
		}
		memset(&ss, 0, sizeof(ss));
		memcpy(&ss, &src->ss, sizeof(ss));
		fk_sa_set_port((struct sockaddr *)&ss,
			       f->bound ? fk_sa_port(&f->id.route.addr.src_addr) : 0);
		was_bound = f->bound;
		f->bound = false;  /* rebinding below, to the device's address */
		err = fk_bind(f, (struct sockaddr *)&ss);
		if (err != 0)
			f->bound = was_bound;
	}
	if (err != 0)
		goto out;
	if (f->id.route.addr.src_addr.sa_family != dst_addr->sa_family) {
		err = EINVAL;
		goto out;
	}
	memset(&f->id.route.addr.dst_storage, 0, sizeof(f->id.route.addr.dst_storage));
	memcpy(&f->id.route.addr.dst_storage, dst_addr, fk_sa_len(dst_addr));
	if (owner == NULL || owner->dev->down || f->dev->down) {
		/* Nobody answers the ARP. */
		fk_cm_event(f, RDMA_CM_EVENT_ADDR_ERROR, -ETIMEDOUT, NULL, 0, 0);
		goto out;
	}
	f->peer_dev = owner->dev;
	f->peer_gid = owner->dev->port[owner->port - 1].gid[owner->gid_index];
	f->id.route.addr.addr.ibaddr.dgid = f->peer_gid;
	f->state = FK_ID_ADDR_RESOLVED;
	fk_cm_event(f, RDMA_CM_EVENT_ADDR_RESOLVED, 0, NULL, 0, 0);
out:
	fk_unlock();
	return fk_cm_ret(err);
}

static enum ibv_mtu
fk_path_mtu(const struct fk_id *f, const struct fk_dev *peer, const union ibv_gid *gid)
{
	enum ibv_mtu a = f->dev->port[f->id.port_num - 1].mtu, b = a;
	unsigned int port;

	if (peer != NULL && fk_dev_by_gid(gid, &port) == peer)
		b = peer->port[port - 1].mtu;
	return a < b ? a : b;
}

int
fk_resolve_route(struct rdma_cm_id *id, int timeout_ms)
{
	struct ibv_sa_path_rec *p;
	struct fk_id *f;
	int err = 0;

	fk_lock();
	f = fk_id_find(id);
	if (f == NULL || f->state != FK_ID_ADDR_RESOLVED) {
		err = EINVAL;
	} else {
		/* RoCE: the route is computed locally and always resolves. */
		f->mtu = fk_path_mtu(f, f->peer_dev, &f->peer_gid);
		p = &f->path;
		memset(p, 0, sizeof(*p));
		p->dgid = f->peer_gid;
		p->sgid = f->id.route.addr.addr.ibaddr.sgid;
		p->hop_limit = 64;
		p->reversible = 1;
		p->numb_path = 1;
		p->pkey = htobe16(0xffff);
		p->mtu_selector = 2;
		p->mtu = (uint8_t)f->mtu;
		p->rate_selector = 2;
		p->packet_life_time_selector = 2;
		p->packet_life_time = 16;
		f->id.route.path_rec = p;
		f->id.route.num_paths = 1;
		f->state = FK_ID_ROUTE_RESOLVED;
		fk_cm_event(f, RDMA_CM_EVENT_ROUTE_RESOLVED, 0, NULL, 0, 0);
	}
	fk_unlock();
	return fk_cm_ret(err);
}

/* ------------------------------------------------------------ QP attributes */

static bool
fk_cm_started(const struct fk_id *f)
{
	switch (f->state) {
	case FK_ID_CONNECT:
	case FK_ID_RESPONSE:
	case FK_ID_REQ:
	case FK_ID_ACCEPTED:
	case FK_ID_CONNECTED:
		return true;
	default:
		return false;
	}
}

/* Whether the other end's QP number and PSN are known (REQ or REP seen). */
static bool
fk_cm_knows_peer(const struct fk_id *f)
{
	return f->state == FK_ID_RESPONSE || f->state == FK_ID_REQ ||
		f->state == FK_ID_ACCEPTED || f->state == FK_ID_CONNECTED;
}

/* rdma_init_qp_attr(): what the kernel's rdma_cm and IB CM give for a state. */
static int
fk_cm_qp_attr(const struct fk_id *f, enum ibv_qp_state st, struct ibv_qp_attr *a, int *mask)
{
	if (f->dev == NULL)
		return EINVAL;
	memset(a, 0, sizeof(*a));
	a->qp_state = st;
	switch (st) {
	case IBV_QPS_INIT:
		*mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS;
		a->port_num = f->id.port_num;
		/* Before the CM exchange, no remote access; then remote write,
		 * and read and atomic if responder resources were given. */
		if (fk_cm_started(f))
			a->qp_access_flags = IBV_ACCESS_REMOTE_WRITE |
				(f->resp_res > 0 ? IBV_ACCESS_REMOTE_READ |
				 IBV_ACCESS_REMOTE_ATOMIC : 0);
		return 0;
	case IBV_QPS_RTR:
		if (!fk_cm_knows_peer(f))
			return EINVAL;
		*mask = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
			IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
		a->ah_attr.is_global = 1;
		a->ah_attr.grh.dgid = f->peer_gid;
		a->ah_attr.grh.sgid_index = (uint8_t)f->gid_index;
		a->ah_attr.grh.hop_limit = 64;
		a->ah_attr.port_num = f->id.port_num;
		a->path_mtu = f->mtu;
		a->dest_qp_num = f->peer_qpn;
		a->rq_psn = f->peer_psn;
		a->max_dest_rd_atomic = f->resp_res;
		a->min_rnr_timer = 0;  /* what the IB CM sets */
		return 0;
	case IBV_QPS_RTS:
		if (!fk_cm_knows_peer(f))
			return EINVAL;
		*mask = IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC;
		a->timeout = 18;
		a->retry_cnt = f->retry_count;
		a->rnr_retry = f->rnr_retry;
		a->sq_psn = f->psn;
		a->max_rd_atomic = f->init_depth;
		return 0;
	default:
		return EINVAL;
	}
}

int
fk_init_qp_attr(struct rdma_cm_id *id, struct ibv_qp_attr *qp_attr, int *qp_attr_mask)
{
	struct fk_id *f;
	int err;

	fk_lock();
	f = fk_id_find(id);
	if (f == NULL || qp_attr == NULL || qp_attr_mask == NULL)
		err = EINVAL;
	else
		err = fk_cm_qp_attr(f, qp_attr->qp_state, qp_attr, qp_attr_mask);
	fk_unlock();
	return fk_cm_ret(err);
}

/* Move f's QP through the states, as librdmacm does: errno value. */
static int
fk_cm_qp_to(struct fk_id *f, enum ibv_qp_state st)
{
	struct ibv_qp_attr a;
	int mask, err;

	err = fk_cm_qp_attr(f, st, &a, &mask);
	return err != 0 ? err : fk_qp_modify(f->qp, &a, mask);
}

/* ucma_modify_qp_rtr() and _rts(): INIT again (remote access now), RTR, RTS. */
static int
fk_cm_qp_up(struct fk_id *f)
{
	int err = fk_cm_qp_to(f, IBV_QPS_INIT);

	if (err == 0)
		err = fk_cm_qp_to(f, IBV_QPS_RTR);
	if (err == 0)
		err = fk_cm_qp_to(f, IBV_QPS_RTS);
	if (err == 0)
		fk_sync_tick(NULL);
	return err;
}

int
fk_cm_create_qp(struct rdma_cm_id *id, struct ibv_pd *ibpd, struct ibv_qp_init_attr *attr)
{
	struct fk_pd *pd = NULL;
	struct fk_qp *q = NULL;
	struct fk_id *f;
	int err = 0;

	fk_lock();
	f = fk_id_find(id);
	if (f == NULL || f->dev == NULL || f->qp != NULL || attr == NULL ||
	    attr->send_cq == NULL || attr->recv_cq == NULL || attr->qp_type != IBV_QPT_RC) {
		/* CQs made by librdmacm itself: not modelled. */
		err = EINVAL;
		goto out;
	}
	if (ibpd == NULL) {
		/* librdmacm's default PD of the device. */
		if (f->dev->cm_pd == NULL) {
			f->dev->cm_pd = fk_pd_new(fk_cm_ctx(f->dev));
			if (f->dev->cm_pd == NULL) {
				err = ENOMEM;
				goto out;
			}
			f->dev->cm_pd->cm_default = true;
		}
		pd = f->dev->cm_pd;
	} else {
		pd = fk_pd_find(ibpd);
	}
	/* The PD must be on the id's device context (id->verbs). */
	if (pd == NULL || &pd->ctx->ctx != f->id.verbs) {
		err = EINVAL;
		goto out;
	}
	q = fk_qp_create(pd, attr, &err);
	if (q == NULL)
		goto out;
	f->qp = q;
	err = fk_cm_qp_to(f, IBV_QPS_INIT);
	if (err != 0) {
		fk_qp_destroy(q);
		f->qp = NULL;
		goto out;
	}
	q->id = f;
	f->id.qp = &q->qp;
	f->id.pd = &pd->pd;
out:
	fk_unlock();
	return fk_cm_ret(err);
}

void
fk_cm_destroy_qp(struct rdma_cm_id *id)
{
	struct fk_id *f;

	fk_lock();
	f = fk_id_find(id);
	if (f != NULL && f->qp != NULL)
		fk_qp_destroy(f->qp);
	if (f != NULL)
		f->id.qp = NULL;
	fk_unlock();
}

/* ------------------------------------------------------------ connection */

static struct fk_id *
fk_listener_find(enum rdma_port_space ps, const struct sockaddr *dst)
{
	struct fk_id *o, *wild = NULL;

	TAILQ_FOREACH(o, &fk.ids, next) {
		const struct sockaddr *b = &o->id.route.addr.src_addr;

		if (o->state != FK_ID_LISTEN || o->id.ps != ps ||
		    b->sa_family != dst->sa_family || fk_sa_port(b) != fk_sa_port(dst))
			continue;
		if (fk_sa_same_ip(b, dst))
			return o;
		if (fk_sa_wildcard(b) && wild == NULL)
			wild = o;
	}
	return wild;
}

/* The passive id a REQ creates: on the listener's channel, with its context. */
static struct fk_id *
fk_cm_child(struct fk_id *l, const struct fk_id *c, const struct fk_addr *a)
{
	struct fk_ctx *ctx = fk_cm_ctx(a->dev);
	struct fk_id *s;

	s = calloc(1, sizeof(*s));
	if (s == NULL || ctx == NULL) {
		free(s);
		return NULL;
	}
	s->ch = l->ch;
	s->id.channel = l->id.channel;
	s->id.context = l->id.context;
	s->id.ps = l->id.ps;
	s->id.qp_type = IBV_QPT_RC;
	s->id.verbs = &ctx->ctx;
	s->id.port_num = (uint8_t)a->port;
	s->dev = a->dev;
	s->gid_index = a->gid_index;
	memcpy(&s->id.route.addr.src_storage, &c->id.route.addr.dst_storage,
	       sizeof(s->id.route.addr.src_storage));
	memcpy(&s->id.route.addr.dst_storage, &c->id.route.addr.src_storage,
	       sizeof(s->id.route.addr.dst_storage));
	s->id.route.addr.addr.ibaddr.sgid = c->peer_gid;
	s->id.route.addr.addr.ibaddr.dgid = c->id.route.addr.addr.ibaddr.sgid;
	s->id.route.addr.addr.ibaddr.pkey = htobe16(0xffff);
	s->peer_gid = c->id.route.addr.addr.ibaddr.sgid;
	s->peer_dev = c->dev;
	s->mtu = c->mtu;
	s->listener = l;
	l->ch->ids++;
	TAILQ_INSERT_TAIL(&fk.ids, s, next);
	return s;
}

/* librdmacm's check of responder resources / initiator depth, and its
 * default: RDMA_MAX_RESP_RES (RDMA_MAX_INIT_DEPTH) for the device's maximum. */
static int
fk_cm_depth(uint8_t v, uint8_t dflt, uint8_t *out)
{
	if (v == RDMA_MAX_RESP_RES) {
		*out = dflt;
		return 0;
	}
	if (v > FK_MAX_RD_ATOM)
		return EINVAL;
	*out = v;
	return 0;
}

int
fk_connect(struct rdma_cm_id *id, struct rdma_conn_param *param)
{
	const struct fk_addr *a;
	struct fk_cmev *ev;
	struct fk_id *f, *l, *s;
	uint8_t rnr;
	int err = 0;

	fk_lock();
	f = fk_id_find(id);
	if (f == NULL || f->state != FK_ID_ROUTE_RESOLVED || f->qp == NULL ||
	    (param != NULL && param->private_data_len > FK_REQ_PDATA) ||
	    (param != NULL && param->private_data_len > 0 && param->private_data == NULL)) {
		/* an id without a QP (qp_num in param): not modelled */
		err = EINVAL;
		goto out;
	}
	f->resp_res = FK_MAX_RD_ATOM;
	f->init_depth = FK_MAX_RD_ATOM;
	f->retry_count = 7;
	rnr = 7;
	if (param != NULL) {
		err = fk_cm_depth(param->responder_resources, FK_MAX_RD_ATOM, &f->resp_res);
		if (err == 0)
			err = fk_cm_depth(param->initiator_depth, FK_MAX_RD_ATOM, &f->init_depth);
		if (err != 0)
			goto out;
		f->retry_count = fk_min8(param->retry_count, 7);
		rnr = fk_min8(param->rnr_retry_count, 7);
	}
	f->psn = fk_psn_new();
	f->active = true;
	f->state = FK_ID_CONNECT;
	a = fk_addr_find(&f->id.route.addr.dst_addr);
	if (a == NULL || a->dev->down || f->dev->down) {
		fk_cm_unreachable(f);  /* the REQ times out */
		goto out;
	}
	l = fk_listener_find(f->id.ps, &f->id.route.addr.dst_addr);
	if (l == NULL || (l->dev != NULL && l->dev != a->dev)) {
		fk_cm_rejected(f, FK_REJ_INVALID_SERVICE_ID, NULL, 0);
		goto out;
	}
	if (l->pending_req >= l->backlog) {
		fk_cm_rejected(f, FK_REJ_CONSUMER_DEFINED, NULL, 0);
		goto out;
	}
	s = fk_cm_child(l, f, a);
	if (s == NULL) {
		fk_cm_rejected(f, FK_REJ_CONSUMER_DEFINED, NULL, 0);
		goto out;
	}
	s->state = FK_ID_REQ;
	s->peer = f;
	f->peer = s;
	s->peer_qpn = f->qp->qp.qp_num;
	s->peer_psn = f->psn;
	s->retry_count = f->retry_count;
	s->rnr_retry = rnr;  /* the REQ's RNR retry count is for the passive QP */
	/* librdmacm's defaults for the passive side, from the REQ (swapped). */
	s->resp_res = f->init_depth;
	s->init_depth = f->resp_res;
	l->pending_req++;
	ev = fk_cm_event(s, RDMA_CM_EVENT_CONNECT_REQUEST, 0,
			 param != NULL ? param->private_data : NULL,
			 param != NULL ? param->private_data_len : 0, FK_REQ_PDATA);
	if (ev != NULL) {
		ev->ev.listen_id = &l->id;
		ev->ev.param.conn.responder_resources = f->init_depth;
		ev->ev.param.conn.initiator_depth = f->resp_res;
		ev->ev.param.conn.retry_count = f->retry_count;
		ev->ev.param.conn.rnr_retry_count = rnr;
		ev->ev.param.conn.qp_num = f->qp->qp.qp_num;
	}
out:
	fk_unlock();
	return fk_cm_ret(err);
}

int
fk_accept(struct rdma_cm_id *id, struct rdma_conn_param *param)
{
	struct fk_id *s, *c;
	struct fk_cmev *ev;
	uint8_t rnr = 7;
	int err = 0;

	fk_lock();
	s = fk_id_find(id);
	if (s == NULL || s->state != FK_ID_REQ || s->qp == NULL ||
	    (param != NULL && param->private_data_len > FK_REP_PDATA) ||
	    (param != NULL && param->private_data_len > 0 && param->private_data == NULL)) {
		err = EINVAL;
		goto out;
	}
	if (param != NULL) {
		uint8_t rr = s->resp_res, id_ = s->init_depth;

		err = fk_cm_depth(param->responder_resources, rr, &s->resp_res);
		if (err == 0)
			err = fk_cm_depth(param->initiator_depth, id_, &s->init_depth);
		if (err != 0)
			goto out;
		rnr = fk_min8(param->rnr_retry_count, 7);
	}
	s->psn = fk_psn_new();
	err = fk_cm_qp_up(s);
	if (err != 0)
		goto out;
	s->state = FK_ID_ACCEPTED;
	c = s->peer;
	if (c == NULL)
		goto out;  /* the client is gone: its REJ is already queued */
	if (c->dev->down || s->dev->down) {
		fk_cm_unreachable(s);  /* no RTU ever comes */
		goto out;
	}
	c->peer_qpn = s->qp->qp.qp_num;
	c->peer_psn = s->psn;
	c->rnr_retry = rnr;  /* the REP's RNR retry count is for the active QP */
	c->state = FK_ID_RESPONSE;
	ev = fk_cm_event(c, RDMA_CM_EVENT_CONNECT_RESPONSE, 0,
			 param != NULL ? param->private_data : NULL,
			 param != NULL ? param->private_data_len : 0, FK_REP_PDATA);
	if (ev != NULL) {
		ev->conn_response = true;
		ev->ev.param.conn.responder_resources = s->init_depth;
		ev->ev.param.conn.initiator_depth = s->resp_res;
		ev->ev.param.conn.rnr_retry_count = rnr;
		ev->ev.param.conn.qp_num = s->qp->qp.qp_num;
	}
out:
	fk_unlock();
	return fk_cm_ret(err);
}

int
fk_reject(struct rdma_cm_id *id, const void *private_data, uint8_t len)
{
	struct fk_id *s;
	int err = 0;

	fk_lock();
	s = fk_id_find(id);
	if (s == NULL || s->state != FK_ID_REQ || len > FK_REJ_PDATA ||
	    (len > 0 && private_data == NULL)) {
		err = EINVAL;
	} else {
		if (s->peer != NULL)
			fk_cm_rejected(s->peer, FK_REJ_CONSUMER_DEFINED, private_data, len);
		s->peer = NULL;
		s->state = FK_ID_DEAD;
	}
	fk_unlock();
	return fk_cm_ret(err);
}

int
fk_disconnect(struct rdma_cm_id *id)
{
	struct fk_id *f;
	int err = 0;

	fk_lock();
	f = fk_id_find(id);
	if (f == NULL || (f->state != FK_ID_CONNECTED && f->state != FK_ID_DISCONNECTED)) {
		err = EINVAL;
		goto out;
	}
	/* librdmacm moves the QP to ERR (through ibv_modify_qp) before the DREQ. */
	if (f->qp != NULL) {
		struct ibv_qp_attr a = { .qp_state = IBV_QPS_ERR };

		fk_qp_modify(f->qp, &a, IBV_QP_STATE);
	}
	if (f->state == FK_ID_CONNECTED) {
		/* DREQ, DREP: an event at each end; the other end's QP is its
		 * own business (its requests will time out). */
		fk_cm_disconnected(f);
		if (f->peer != NULL && f->peer->state == FK_ID_CONNECTED)
			fk_cm_disconnected(f->peer);
	}
out:
	fk_unlock();
	return fk_cm_ret(err);
}

unsigned int
fk_cm_drop(bool (*match)(const struct fk_id *a, const struct fk_id *b, const void *arg),
	   const void *arg)
{
	unsigned int n = 0;
	struct fk_id *f;

	TAILQ_FOREACH(f, &fk.ids, next) {
		struct fk_id *p = f->peer;

		if (f->state != FK_ID_CONNECTED || p == NULL || p->state != FK_ID_CONNECTED ||
		    !match(f, p, arg))
			continue;
		if (f->qp != NULL)
			fk_qp_err(f->qp, true);
		if (p->qp != NULL)
			fk_qp_err(p->qp, true);
		fk_cm_disconnected(f);
		fk_cm_disconnected(p);
		n++;
	}
	return n;
}

/* Remove f's queued events (the kernel drops them with the id). */
static void
fk_cm_drop_events(struct fk_id *f)
{
	struct fk_cmev *ev, *tmp;

	TAILQ_FOREACH_SAFE(ev, &f->ch->events, next, tmp)
		if (ev->fid == f) {
			TAILQ_REMOVE(&f->ch->events, ev, next);
			fk_evfd_pop(&f->ch->efd);
			free(ev);
		}
}

/* What the other end sees when f goes away, then f is freed. */
static void
fk_id_free(struct fk_id *f)
{
	struct fk_id *p = f->peer;

	fk_cm_drop_events(f);
	if (p != NULL) {
		switch (f->state) {
		case FK_ID_CONNECTED:
			if (p->state == FK_ID_CONNECTED)
				fk_cm_disconnected(p);  /* destroying sends a DREQ */
			break;
		case FK_ID_REQ:
			fk_cm_rejected(p, FK_REJ_CONSUMER_DEFINED, NULL, 0);
			break;
		case FK_ID_ACCEPTED:
		case FK_ID_CONNECT:
		case FK_ID_RESPONSE:
			if (p->state == FK_ID_REQ || p->state == FK_ID_ACCEPTED ||
			    p->state == FK_ID_RESPONSE || p->state == FK_ID_CONNECT)
				fk_cm_rejected(p, FK_REJ_TIMEOUT, NULL, 0);
			break;
		default:
			break;
		}
		p->peer = NULL;
	}
	if (f->qp != NULL)
		f->qp->id = NULL;  /* the QP outlives the id */
	if (f->listener != NULL)
		f->listener->pending_req--;
	f->ch->ids--;
	TAILQ_REMOVE(&fk.ids, f, next);
	free(f);
}

int
fk_destroy_id(struct rdma_cm_id *id)
{
	struct fk_id *f, *c, *tmp;
	int err = 0;

	fk_lock();
	f = fk_id_find(id);
	if (f == NULL) {
		err = EINVAL;
	} else if (f->unacked > 0) {
		/* librdmacm waits for the acknowledgements forever: say it. */
		fk.cnt.busy++;
		fk_misuse("destroy_id with %u events not acknowledged (librdmacm hangs)",
			  f->unacked);
		err = EBUSY;
	} else {
		/* Requests not retrieved yet die with their listener. */
		TAILQ_FOREACH_SAFE(c, &fk.ids, next, tmp)
			if (c->listener == f)
				fk_id_free(c);
		fk_id_free(f);
	}
	fk_unlock();
	return fk_cm_ret(err);
}

/* ------------------------------------------------------------ events */

/* librdmacm's processing of a REP in rdma_get_cm_event(): the QP to RTR and
 * RTS, the RTU sent; ESTABLISHED for the application, or CONNECT_ERROR. */
static void
fk_cm_response(struct fk_cmev *ev)
{
	struct fk_id *c = ev->fid, *s = c->peer;
	int err;

	err = c->qp != NULL ? fk_cm_qp_up(c) : EINVAL;
	if (err != 0) {
		ev->ev.event = RDMA_CM_EVENT_CONNECT_ERROR;
		ev->ev.status = -err;
		c->state = FK_ID_DEAD;
		if (s != NULL)
			fk_cm_rejected(s, FK_REJ_CONSUMER_DEFINED, NULL, 0);
		c->peer = NULL;
		return;
	}
	ev->ev.event = RDMA_CM_EVENT_ESTABLISHED;
	c->state = FK_ID_CONNECTED;
	if (s != NULL && s->state == FK_ID_ACCEPTED) {
		s->state = FK_ID_CONNECTED;
		fk_cm_event(s, RDMA_CM_EVENT_ESTABLISHED, 0, NULL, 0, 0);
	}
}

int
fk_get_cm_event(struct rdma_event_channel *channel, struct rdma_cm_event **event)
{
	struct fk_cmev *ev;
	struct fk_evch *ch;
	int fd;

	for (;;) {
		fk_lock();
		ch = fk_evch_find(channel);
		if (ch == NULL || event == NULL) {
			fk_unlock();
			errno = EINVAL;
			return -1;
		}
		ev = TAILQ_FIRST(&ch->events);
		if (ev != NULL) {
			TAILQ_REMOVE(&ch->events, ev, next);
			fk_evfd_pop(&ch->efd);
			if (ev->conn_response) {
				if (ev->fid->state != FK_ID_RESPONSE) {
					/* A REP overtaken by a REJ: dropped. */
					fk_unlock();
					free(ev);
					continue;
				}
				fk_cm_response(ev);
			}
			if (ev->fid->listener != NULL) {
				/* A request retrieved frees its backlog slot. */
				ev->fid->listener->pending_req--;
				ev->fid->listener = NULL;
			}
			ev->fid->unacked++;
			TAILQ_INSERT_TAIL(&fk.retrieved, ev, next);
			*event = &ev->ev;
			fk_unlock();
			return 0;
		}
		fd = ch->efd.fd;
		fk_unlock();
		if (fk_evfd_wait(fd) != 0)
			return -1;
	}
}

int
fk_ack_cm_event(struct rdma_cm_event *event)
{
	struct fk_cmev *ev;
	int err = EINVAL;

	fk_lock();
	TAILQ_FOREACH(ev, &fk.retrieved, next)
		if (&ev->ev == event)
			break;
	if (ev != NULL) {
		TAILQ_REMOVE(&fk.retrieved, ev, next);
		ev->fid->unacked--;
		free(ev);
		err = 0;
	}
	fk_unlock();
	return fk_cm_ret(err);
}

void
fk_cm_reset(void)
{
	struct fk_evch *ch;
	struct fk_cmev *ev;

	TAILQ_FOREACH(ch, &fk.evchs, next)
		while ((ev = TAILQ_FIRST(&ch->events)) != NULL) {
			TAILQ_REMOVE(&ch->events, ev, next);
			free(ev);
		}
}
