/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The fake fabric: its lock, devices and addresses, faults, counters, the
 * event fds of the channels, lookups, reset, and the glue table.
 */

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "mlx5_fake_priv.h"

struct fk_fabric fk = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.ctxs = TAILQ_HEAD_INITIALIZER(fk.ctxs),
	.pds = TAILQ_HEAD_INITIALIZER(fk.pds),
	.mrs = TAILQ_HEAD_INITIALIZER(fk.mrs),
	.chans = TAILQ_HEAD_INITIALIZER(fk.chans),
	.cqs = TAILQ_HEAD_INITIALIZER(fk.cqs),
	.srqs = TAILQ_HEAD_INITIALIZER(fk.srqs),
	.qps = TAILQ_HEAD_INITIALIZER(fk.qps),
	.evchs = TAILQ_HEAD_INITIALIZER(fk.evchs),
	.ids = TAILQ_HEAD_INITIALIZER(fk.ids),
	.retrieved = TAILQ_HEAD_INITIALIZER(fk.retrieved),
	.devlists = TAILQ_HEAD_INITIALIZER(fk.devlists),
	.next_key = 0x1000,
	.next_qpn = 0x11b,
	.next_handle = 1,
	.next_psn = 0x5a5a5a,
	.next_port = 40000,
};

void
fk_lock(void)
{
	pthread_mutex_lock(&fk.lock);
}

void
fk_unlock(void)
{
	pthread_mutex_unlock(&fk.lock);
}

int
fk_fault(enum mlx5_fake_op op)
{
	if (fk.fail_n[op] == 0)
		return 0;
	fk.fail_n[op]--;
	fk.cnt.faults++;
	return fk.fail_err[op] != 0 ? fk.fail_err[op] : ENOMEM;
}

void
fk_misuse(const char *fmt, ...)
{
	va_list ap;

	fk.cnt.misuse++;
	fprintf(stderr, "mlx5_fake: misuse: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* ------------------------------------------------------------ event fds */

int
fk_evfd_init(struct fk_evfd *e)
{
	/* Blocking, like the uverbs and rdma_cm fds: the application sets
	 * O_NONBLOCK itself if it wants to. */
	e->fd = eventfd(0, EFD_CLOEXEC);
	e->count = 0;
	return e->fd < 0 ? errno : 0;
}

void
fk_evfd_push(struct fk_evfd *e)
{
	uint64_t one = 1;

	if (e->count++ == 0 && write(e->fd, &one, sizeof(one)) != sizeof(one))
		fk_misuse("eventfd write failed: %s", strerror(errno));
}

void
fk_evfd_pop(struct fk_evfd *e)
{
	uint64_t v;

	/* The counter is non-zero (count was), so the read cannot block. */
	if (--e->count == 0 && read(e->fd, &v, sizeof(v)) != sizeof(v))
		fk_misuse("eventfd read failed: %s", strerror(errno));
}

void
fk_evfd_close(struct fk_evfd *e)
{
	if (e->fd >= 0)
		close(e->fd);
	e->fd = -1;
	e->count = 0;
}

int
fk_evfd_wait(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0)
		return -1;
	if (fl & O_NONBLOCK) {
		errno = EAGAIN;
		return -1;
	}
	while (poll(&p, 1, -1) < 0)
		if (errno != EINTR)
			return -1;
	return 0;
}

/* ------------------------------------------------------------ lookups */

static bool
fk_sa_ip_equal(const struct sockaddr *a, const struct sockaddr_storage *b)
{
	if (a->sa_family != b->ss_family)
		return false;
	if (a->sa_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
			((const struct sockaddr_in *)b)->sin_addr.s_addr;
	if (a->sa_family == AF_INET6)
		return memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
			      &((const struct sockaddr_in6 *)b)->sin6_addr,
			      sizeof(struct in6_addr)) == 0;
	return false;
}

const struct fk_addr *
fk_addr_find(const struct sockaddr *sa)
{
	unsigned int i;

	for (i = 0; i < fk.nb_addrs; i++)
		if (fk_sa_ip_equal(sa, &fk.addrs[i].ss))
			return &fk.addrs[i];
	return NULL;
}

struct fk_dev *
fk_dev_by_gid(const union ibv_gid *gid, unsigned int *port)
{
	unsigned int d, p;

	for (d = 0; d < fk.nb_devs; d++)
		for (p = 0; p < fk.devs[d]->nb_ports; p++)
			if (fk_gid_index(fk.devs[d], p + 1, gid) >= 0) {
				*port = p + 1;
				return fk.devs[d];
			}
	return NULL;
}

static struct fk_dev *
fk_dev_by_name(const char *name)
{
	unsigned int i;

	for (i = 0; i < fk.nb_devs; i++)
		if (strcmp(fk.devs[i]->dev.name, name) == 0)
			return fk.devs[i];
	return NULL;
}

/* The fabric's object whose public part is p, or NULL: a pointer the
 * application passes is trusted only once found. */
#define FK_FIND(type, field, list) do { \
	struct type *o_; \
	TAILQ_FOREACH(o_, &fk.list, next) \
		if (&o_->field == p) \
			return o_; \
	return NULL; \
} while (0)

struct fk_ctx *
fk_ctx_find(const struct ibv_context *p)
{
	FK_FIND(fk_ctx, ctx, ctxs);
}

struct fk_pd *
fk_pd_find(const struct ibv_pd *p)
{
	FK_FIND(fk_pd, pd, pds);
}

struct fk_cq *
fk_cq_find(const struct ibv_cq *p)
{
	FK_FIND(fk_cq, cq, cqs);
}

struct fk_qp *
fk_qp_find(const struct ibv_qp *p)
{
	FK_FIND(fk_qp, qp, qps);
}

struct fk_srq *
fk_srq_find(const struct ibv_srq *p)
{
	FK_FIND(fk_srq, srq, srqs);
}

struct fk_id *
fk_id_find(const struct rdma_cm_id *p)
{
	FK_FIND(fk_id, id, ids);
}

struct fk_ctx *
fk_ctx_new(struct fk_dev *dev, bool cm_owned)
{
	struct fk_ctx *c = calloc(1, sizeof(*c));

	if (c == NULL)
		return NULL;
	c->dev = dev;
	c->cm_owned = cm_owned;
	c->ctx.device = &dev->dev;
	c->ctx.cmd_fd = -1;
	c->ctx.async_fd = -1;
	c->ctx.num_comp_vectors = FK_NUM_COMP_VECTORS;
	pthread_mutex_init(&c->ctx.mutex, NULL);
	TAILQ_INSERT_TAIL(&fk.ctxs, c, next);
	return c;
}

struct fk_pd *
fk_pd_new(struct fk_ctx *ctx)
{
	struct fk_pd *pd = calloc(1, sizeof(*pd));

	if (pd == NULL)
		return NULL;
	pd->ctx = ctx;
	pd->pd.context = &ctx->ctx;
	pd->pd.handle = fk.next_handle++;
	TAILQ_INSERT_TAIL(&fk.pds, pd, next);
	return pd;
}

/* ------------------------------------------------------------ configuration */

int
mlx5_fake_add_device(const char *name, unsigned int nb_ports)
{
	struct fk_dev *d;
	unsigned int p;
	int ret = 0;

	if (name == NULL || name[0] == '\0' || strlen(name) >= IBV_SYSFS_NAME_MAX ||
	    nb_ports == 0 || nb_ports > FK_MAX_PORTS)
		return -EINVAL;
	fk_lock();
	if (fk_dev_by_name(name) != NULL) {
		ret = -EEXIST;
		goto out;
	}
	if (fk.nb_devs == FK_MAX_DEVS) {
		ret = -ENOSPC;
		goto out;
	}
	d = calloc(1, sizeof(*d));
	if (d == NULL) {
		ret = -ENOMEM;
		goto out;
	}
	d->idx = fk.nb_devs;
	d->nb_ports = nb_ports;
	d->guid = 0x0c42a1030000f000ull + d->idx;
	d->dev.node_type = IBV_NODE_CA;
	d->dev.transport_type = IBV_TRANSPORT_IB;
	snprintf(d->dev.name, sizeof(d->dev.name), "%s", name);
	snprintf(d->dev.dev_name, sizeof(d->dev.dev_name), "uverbs%u", d->idx);
	snprintf(d->dev.dev_path, sizeof(d->dev.dev_path),
		 "/sys/class/infiniband_verbs/uverbs%u", d->idx);
	snprintf(d->dev.ibdev_path, sizeof(d->dev.ibdev_path), "/sys/class/infiniband/%s",
		 name);
	for (p = 0; p < nb_ports; p++) {
		union ibv_gid *g = &d->port[p].gid[0];
		uint64_t iid = d->guid + ((uint64_t)p << 32);
		unsigned int i;

		/* GID 0: the link-local address of the port's interface. */
		g->raw[0] = 0xfe;
		g->raw[1] = 0x80;
		for (i = 0; i < 8; i++)
			g->raw[8 + i] = (uint8_t)(iid >> (56 - 8 * i));
		d->port[p].nb_gids = 1;
		d->port[p].mtu = IBV_MTU_1024;
	}
	fk.devs[fk.nb_devs++] = d;
out:
	fk_unlock();
	return ret;
}

int
mlx5_fake_add_addr(const char *dev, unsigned int port, const char *ip)
{
	struct sockaddr_storage ss;
	struct fk_port *fp;
	struct fk_dev *d;
	union ibv_gid gid;
	int ret = 0;

	memset(&ss, 0, sizeof(ss));
	memset(&gid, 0, sizeof(gid));
	if (ip == NULL)
		return -EINVAL;
	if (inet_pton(AF_INET, ip, &((struct sockaddr_in *)&ss)->sin_addr) == 1) {
		ss.ss_family = AF_INET;
		/* RoCE v2 GID of an IPv4 address: ::ffff:a.b.c.d */
		gid.raw[10] = 0xff;
		gid.raw[11] = 0xff;
		memcpy(&gid.raw[12], &((struct sockaddr_in *)&ss)->sin_addr, 4);
	} else if (inet_pton(AF_INET6, ip, &((struct sockaddr_in6 *)&ss)->sin6_addr) == 1) {
		ss.ss_family = AF_INET6;
		memcpy(gid.raw, &((struct sockaddr_in6 *)&ss)->sin6_addr, 16);
	} else {
		return -EINVAL;
	}
	fk_lock();
	d = dev != NULL ? fk_dev_by_name(dev) : NULL;
	if (d == NULL) {
		ret = -ENODEV;
		goto out;
	}
	if (port == 0 || port > d->nb_ports) {
		ret = -EINVAL;
		goto out;
	}
	if (fk_addr_find((struct sockaddr *)&ss) != NULL) {
		ret = -EEXIST;
		goto out;
	}
	fp = &d->port[port - 1];
	if (fk.nb_addrs == FK_MAX_ADDRS || fp->nb_gids == FK_MAX_GIDS) {
		ret = -ENOSPC;
		goto out;
	}
	fp->gid[fp->nb_gids] = gid;
	fk.addrs[fk.nb_addrs].ss = ss;
	fk.addrs[fk.nb_addrs].dev = d;
	fk.addrs[fk.nb_addrs].port = port;
	fk.addrs[fk.nb_addrs].gid_index = fp->nb_gids++;
	fk.nb_addrs++;
out:
	fk_unlock();
	return ret;
}

int
mlx5_fake_set_port_mtu(const char *dev, unsigned int port, enum ibv_mtu mtu)
{
	struct fk_dev *d;
	int ret = 0;

	if (mtu < IBV_MTU_256 || mtu > IBV_MTU_4096)
		return -EINVAL;
	fk_lock();
	d = dev != NULL ? fk_dev_by_name(dev) : NULL;
	if (d == NULL)
		ret = -ENODEV;
	else if (port == 0 || port > d->nb_ports)
		ret = -EINVAL;
	else
		d->port[port - 1].mtu = mtu;
	fk_unlock();
	return ret;
}

/* ------------------------------------------------------------ execution */

void
mlx5_fake_set_delay(bool on)
{
	fk_lock();
	fk.delay = on;
	fk_unlock();
}

unsigned int
mlx5_fake_progress(unsigned int max)
{
	unsigned int n;

	fk_lock();
	n = fk_run(max, NULL, true);
	fk_unlock();
	return n;
}

void
mlx5_fake_set_write_reorder(bool on)
{
	fk_lock();
	fk.reorder = on;
	fk_sync_tick(NULL);  /* WRITEs held run now, unless in delay mode */
	fk_unlock();
}

/* ------------------------------------------------------------ faults */

void
mlx5_fake_fail_next(enum mlx5_fake_op op, unsigned int n, int err)
{
	if ((unsigned int)op >= MLX5_FAKE_OP_MAX)
		return;
	fk_lock();
	fk.fail_n[op] = n;
	fk.fail_err[op] = err;
	fk_unlock();
}

void
mlx5_fake_lose_cq_events(unsigned int n)
{
	fk_lock();
	fk.lose_events = n;
	fk_unlock();
}

int
mlx5_fake_qp_to_err(struct ibv_qp *qp)
{
	struct fk_qp *q;
	int ret = 0;

	fk_lock();
	q = fk_qp_find(qp);
	if (q == NULL) {
		ret = -EINVAL;
	} else {
		fk.cnt.faults++;
		fk_qp_err(q, true);
	}
	fk_unlock();
	return ret;
}

static bool
fk_match_id(const struct fk_id *a, const struct fk_id *b, const void *arg)
{
	return a == arg || b == arg;
}

int
mlx5_fake_drop_conn(struct rdma_cm_id *id)
{
	struct fk_id *f;
	int ret = -EINVAL;

	fk_lock();
	f = fk_id_find(id);
	if (f != NULL && f->state == FK_ID_CONNECTED && f->peer != NULL &&
	    f->peer->state == FK_ID_CONNECTED) {
		fk.cnt.faults++;
		fk_cm_drop(fk_match_id, f);
		ret = 0;
	}
	fk_unlock();
	return ret;
}

/* Whether a QP runs between devices a and b (b NULL: a and anyone). */
static bool
fk_qp_between(const struct fk_qp *q, const struct fk_dev *a, const struct fk_dev *b)
{
	if (q->rdev == NULL)
		return b == NULL && q->dev == a;
	if (b == NULL)
		return q->dev == a || q->rdev == a;
	return (q->dev == a && q->rdev == b) || (q->dev == b && q->rdev == a);
}

static bool
fk_match_devs(const struct fk_id *a, const struct fk_id *b, const void *arg)
{
	const struct fk_dev *const *d = arg;

	if (d[1] == NULL)
		return a->dev == d[0] || b->dev == d[0];
	return (a->dev == d[0] && b->dev == d[1]) || (a->dev == d[1] && b->dev == d[0]);
}

/* Every QP between the devices to ERR, every connection between them ends. */
static int
fk_drop_between(struct fk_dev *a, struct fk_dev *b)
{
	const struct fk_dev *devs[2] = { a, b };
	struct fk_qp *q;
	int n = 0;

	TAILQ_FOREACH(q, &fk.qps, next)
		if (q->st != IBV_QPS_RESET && q->st != IBV_QPS_ERR && fk_qp_between(q, a, b)) {
			fk_qp_err(q, true);
			n++;
		}
	fk_cm_drop(fk_match_devs, devs);
	fk.cnt.faults++;
	return n;
}

int
mlx5_fake_drop_link(const char *a, const char *b)
{
	struct fk_dev *da, *db;
	int ret;

	fk_lock();
	da = a != NULL ? fk_dev_by_name(a) : NULL;
	db = b != NULL ? fk_dev_by_name(b) : NULL;
	ret = da == NULL || db == NULL ? -ENODEV : fk_drop_between(da, db);
	fk_unlock();
	return ret;
}

int
mlx5_fake_drop_device(const char *name, bool silent)
{
	struct fk_dev *d;
	int ret = 0;

	fk_lock();
	d = name != NULL ? fk_dev_by_name(name) : NULL;
	if (d == NULL) {
		ret = -ENODEV;
	} else {
		d->down = true;
		if (silent)
			fk.cnt.faults++;
		else
			fk_drop_between(d, NULL);
	}
	fk_unlock();
	return ret;
}

int
mlx5_fake_restore_device(const char *name)
{
	struct fk_dev *d;

	fk_lock();
	d = name != NULL ? fk_dev_by_name(name) : NULL;
	if (d != NULL)
		d->down = false;
	fk_unlock();
	return d == NULL ? -ENODEV : 0;
}

/* ------------------------------------------------------------ inspection */

int
mlx5_fake_qp_state(const struct ibv_qp *qp)
{
	struct fk_qp *q;
	int st;

	fk_lock();
	q = fk_qp_find(qp);
	st = q == NULL ? -EINVAL : (int)q->st;
	fk_unlock();
	return st;
}

unsigned int
mlx5_fake_qps(struct ibv_qp **qps, bool *cm, unsigned int max)
{
	struct fk_qp *q;
	unsigned int n = 0;

	fk_lock();
	TAILQ_FOREACH(q, &fk.qps, next) {
		if (n < max) {
			qps[n] = &q->qp;
			if (cm != NULL)
				cm[n] = q->id != NULL;
		}
		n++;
	}
	fk_unlock();
	return n;
}

void
mlx5_fake_get_counters(struct mlx5_fake_counters *c)
{
	fk_lock();
	*c = fk.cnt;
	fk_unlock();
}

/* ------------------------------------------------------------ reset */

#define FK_FREE_ALL(list, type, leak_if, fin) do { \
	struct type *o_; \
	while ((o_ = TAILQ_FIRST(&fk.list)) != NULL) { \
		TAILQ_REMOVE(&fk.list, o_, next); \
		if (leak_if) \
			leaks++; \
		fin; \
		free(o_); \
	} \
} while (0)

unsigned int
mlx5_fake_reset(void)
{
	unsigned int leaks = 0, i;
	struct fk_devlist *dl;
	struct fk_cmev *ev;

	fk_lock();
	/* Device lists not freed hold librdmacm's contexts open: a leak. */
	while ((dl = TAILQ_FIRST(&fk.devlists)) != NULL) {
		TAILQ_REMOVE(&fk.devlists, dl, next);
		free(dl);
		leaks++;
	}
	/* Events retrieved and not acknowledged are the application's leak. */
	while ((ev = TAILQ_FIRST(&fk.retrieved)) != NULL) {
		TAILQ_REMOVE(&fk.retrieved, ev, next);
		free(ev);
		leaks++;
	}
	fk_cm_reset();
	FK_FREE_ALL(ids, fk_id, true, (void)0);
	FK_FREE_ALL(evchs, fk_evch, true, fk_evfd_close(&o_->efd));
	FK_FREE_ALL(qps, fk_qp, true, {
		for (i = 0; i < o_->sq_size; i++) {
			free(o_->sq[i].sge);
			free(o_->sq[i].inl);
		}
		for (i = 0; i < o_->rq_size; i++)
			free(o_->rq[i].sge);
		free(o_->sq);
		free(o_->rq);
	});
	FK_FREE_ALL(srqs, fk_srq, true, {
		for (i = 0; i < o_->max_wr; i++)
			free(o_->ring[i].sge);
		free(o_->ring);
	});
	FK_FREE_ALL(cqs, fk_cq, true, {
		leaks += o_->ev_reported - o_->cq.comp_events_completed;
		free(o_->ring);
	});
	FK_FREE_ALL(chans, fk_chan, true, {
		struct fk_cqev *e;

		while ((e = TAILQ_FIRST(&o_->events)) != NULL) {
			TAILQ_REMOVE(&o_->events, e, next);
			free(e);
		}
		fk_evfd_close(&o_->efd);
	});
	FK_FREE_ALL(mrs, fk_mr, true, (void)0);
	FK_FREE_ALL(pds, fk_pd, !o_->cm_default, (void)0);
	FK_FREE_ALL(ctxs, fk_ctx, !o_->cm_owned, pthread_mutex_destroy(&o_->ctx.mutex));
	for (i = 0; i < fk.nb_devs; i++)
		free(fk.devs[i]);
	fk.nb_devs = 0;
	fk.nb_addrs = 0;
	fk.next_key = 0x1000;
	fk.next_qpn = 0x11b;
	fk.next_psn = 0x5a5a5a;
	fk.tick = 0;
	fk.delay = false;
	fk.reorder = false;
	memset(fk.fail_n, 0, sizeof(fk.fail_n));
	memset(fk.fail_err, 0, sizeof(fk.fail_err));
	fk.lose_events = 0;
	memset(&fk.cnt, 0, sizeof(fk.cnt));
	fk_unlock();
	return leaks;
}

/* ------------------------------------------------------------ the table */

const struct rte_comch_mlx5_glue fk_glue = {
	.name = "mlx5_fake",
	.get_device_list = fk_get_device_list,
	.free_device_list = fk_free_device_list,
	.get_device_name = fk_get_device_name,
	.open_device = fk_open_device,
	.close_device = fk_close_device,
	.query_device = fk_query_device,
	.query_port = fk_query_port,
	.query_gid = fk_query_gid,
	.alloc_pd = fk_alloc_pd,
	.dealloc_pd = fk_dealloc_pd,
	.reg_mr = fk_reg_mr,
	.dereg_mr = fk_dereg_mr,
	.create_comp_channel = fk_create_comp_channel,
	.destroy_comp_channel = fk_destroy_comp_channel,
	.create_cq = fk_create_cq,
	.destroy_cq = fk_destroy_cq,
	.req_notify_cq = fk_req_notify_cq,
	.get_cq_event = fk_get_cq_event,
	.ack_cq_events = fk_ack_cq_events,
	.poll_cq = fk_poll_cq,
	.create_srq = fk_create_srq,
	.destroy_srq = fk_destroy_srq,
	.post_srq_recv = fk_post_srq_recv,
	.create_qp = fk_create_qp,
	.modify_qp = fk_modify_qp,
	.destroy_qp = fk_destroy_qp,
	.post_send = fk_post_send,
	.post_recv = fk_post_recv,
	.create_event_channel = fk_create_event_channel,
	.destroy_event_channel = fk_destroy_event_channel,
	.create_id = fk_create_id,
	.destroy_id = fk_destroy_id,
	.bind_addr = fk_bind_addr,
	.listen = fk_listen,
	.resolve_addr = fk_resolve_addr,
	.resolve_route = fk_resolve_route,
	.cm_create_qp = fk_cm_create_qp,
	.cm_destroy_qp = fk_cm_destroy_qp,
	.init_qp_attr = fk_init_qp_attr,
	.connect = fk_connect,
	.accept = fk_accept,
	.reject = fk_reject,
	.disconnect = fk_disconnect,
	.get_cm_event = fk_get_cm_event,
	.ack_cm_event = fk_ack_cm_event,
	.rdma_get_devices = fk_rdma_get_devices,
	.rdma_free_devices = fk_rdma_free_devices,
};

const struct rte_comch_mlx5_glue *
mlx5_fake_glue(void)
{
	return &fk_glue;
}
