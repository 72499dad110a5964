/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The libibverbs calls: devices, PDs, MRs, completion channels and CQs,
 * SRQs, QPs and their state machine, posting. Return conventions are
 * rdma-core's: constructors return NULL with errno; ibv_modify_qp(),
 * ibv_post_*(), the destroy calls and the queries return an errno value;
 * ibv_get_cq_event(), ibv_query_gid() and ibv_close_device() return -1 with
 * errno; ibv_poll_cq() returns a negative value on error.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mlx5_fake_priv.h"

static uint32_t
fk_pow2(uint32_t v)
{
	uint32_t p = 1;

	while (p < v)
		p <<= 1;
	return p;
}

/* Set errno after the lock is dropped (unlocking may not touch it, but say so). */
static void *
fk_null(int err)
{
	errno = err;
	return NULL;
}

/* ------------------------------------------------------------ devices */

struct ibv_device **
fk_get_device_list(int *num)
{
	struct ibv_device **list;
	unsigned int i;

	fk_lock();
	list = calloc(fk.nb_devs + 1, sizeof(*list));
	if (list != NULL)
		for (i = 0; i < fk.nb_devs; i++)
			list[i] = &fk.devs[i]->dev;
	if (num != NULL)
		*num = list != NULL ? (int)fk.nb_devs : 0;
	fk_unlock();
	return list != NULL ? list : fk_null(ENOMEM);
}

void
fk_free_device_list(struct ibv_device **list)
{
	free(list);
}

const char *
fk_get_device_name(struct ibv_device *device)
{
	return device != NULL ? device->name : NULL;
}

static struct fk_dev *
fk_dev_find(const struct ibv_device *device)
{
	unsigned int i;

	for (i = 0; i < fk.nb_devs; i++)
		if (&fk.devs[i]->dev == device)
			return fk.devs[i];
	return NULL;
}

struct ibv_context *
fk_open_device(struct ibv_device *device)
{
	struct fk_ctx *c = NULL;
	struct fk_dev *d;
	int err = 0;

	fk_lock();
	d = fk_dev_find(device);
	if (d == NULL)
		err = ENODEV;
	else if ((c = fk_ctx_new(d, false)) == NULL)
		err = ENOMEM;
	fk_unlock();
	return c != NULL ? &c->ctx : fk_null(err);
}

static bool
fk_ctx_busy(const struct fk_ctx *c)
{
	const struct fk_chan *ch;
	const struct fk_pd *pd;
	const struct fk_cq *cq;

	TAILQ_FOREACH(pd, &fk.pds, next)
		if (pd->ctx == c)
			return true;
	TAILQ_FOREACH(cq, &fk.cqs, next)
		if (cq->ctx == c)
			return true;
	TAILQ_FOREACH(ch, &fk.chans, next)
		if (ch->ctx == c)
			return true;
	return false;
}

int
fk_close_device(struct ibv_context *context)
{
	struct fk_ctx *c;
	int ret = 0;

	fk_lock();
	c = fk_ctx_find(context);
	if (c == NULL || c->cm_owned) {
		ret = EINVAL;
	} else if (fk_ctx_busy(c)) {
		/* rdma-core closes and the kernel reaps what is left; the
		 * application still holds pointers into it. Keep it. */
		fk_misuse("close_device(%s) with objects still alive", c->dev->dev.name);
	} else {
		TAILQ_REMOVE(&fk.ctxs, c, next);
		pthread_mutex_destroy(&c->ctx.mutex);
		free(c);
	}
	fk_unlock();
	if (ret != 0) {
		errno = ret;
		return -1;
	}
	return 0;
}

int
fk_query_device(struct ibv_context *context, struct ibv_device_attr *a)
{
	struct fk_ctx *c;

	fk_lock();
	c = fk_ctx_find(context);
	if (c == NULL || a == NULL) {
		fk_unlock();
		return EINVAL;
	}
	memset(a, 0, sizeof(*a));
	snprintf(a->fw_ver, sizeof(a->fw_ver), "22.99.%04u (fake)", c->dev->idx);
	a->node_guid = htobe64(c->dev->guid);
	a->sys_image_guid = htobe64(c->dev->guid);
	a->max_mr_size = UINT64_MAX;
	a->page_size_cap = 0xfffffffffffff000ull;
	a->vendor_id = 0x02c9;
	a->vendor_part_id = 4125; /* ConnectX-6 Dx */
	a->max_qp = 1 << 18;
	a->max_qp_wr = FK_MAX_QP_WR;
	a->device_cap_flags = IBV_DEVICE_BAD_PKEY_CNTR | IBV_DEVICE_BAD_QKEY_CNTR |
		IBV_DEVICE_CHANGE_PHY_PORT | IBV_DEVICE_PORT_ACTIVE_EVENT |
		IBV_DEVICE_SYS_IMAGE_GUID | IBV_DEVICE_RC_RNR_NAK_GEN;
	a->max_sge = FK_MAX_SEND_SGE;
	a->max_sge_rd = FK_MAX_SEND_SGE;
	a->max_cq = 1 << 24;
	a->max_cqe = FK_MAX_CQE;
	a->max_mr = 1 << 24;
	a->max_pd = 1 << 24;
	a->max_qp_rd_atom = FK_MAX_RD_ATOM;
	a->max_res_rd_atom = FK_MAX_RD_ATOM << 18;
	a->max_qp_init_rd_atom = FK_MAX_RD_ATOM;
	a->atomic_cap = IBV_ATOMIC_HCA;
	a->max_srq = 1 << 23;
	a->max_srq_wr = FK_MAX_SRQ_WR;
	a->max_srq_sge = FK_MAX_RECV_SGE - 1;
	a->max_pkeys = 1;
	a->local_ca_ack_delay = 16;
	a->phys_port_cnt = (uint8_t)c->dev->nb_ports;
	fk_unlock();
	return 0;
}

int
fk_query_port(struct ibv_context *context, uint8_t port_num, struct ibv_port_attr *a)
{
	struct fk_ctx *c;
	bool down;

	fk_lock();
	c = fk_ctx_find(context);
	if (c == NULL || a == NULL || port_num == 0 || port_num > c->dev->nb_ports) {
		fk_unlock();
		return EINVAL;
	}
	down = c->dev->down;
	memset(a, 0, sizeof(*a));
	a->state = down ? IBV_PORT_DOWN : IBV_PORT_ACTIVE;
	a->max_mtu = IBV_MTU_4096;
	a->active_mtu = c->dev->port[port_num - 1].mtu;
	a->gid_tbl_len = FK_GID_TBL_LEN;
	a->port_cap_flags = IBV_PORT_CM_SUP | IBV_PORT_IP_BASED_GIDS;
	a->max_msg_sz = FK_MAX_MSG;
	a->pkey_tbl_len = 1;
	a->max_vl_num = 4;
	a->active_width = 2;  /* 4x */
	a->active_speed = 64; /* HDR: 4x 50 Gb/s */
	a->phys_state = down ? 3 : 5; /* Disabled, LinkUp */
	a->link_layer = IBV_LINK_LAYER_ETHERNET;
	fk_unlock();
	return 0;
}

int
fk_query_gid(struct ibv_context *context, uint8_t port_num, int index, union ibv_gid *gid)
{
	struct fk_ctx *c;
	int ret = 0;

	fk_lock();
	c = fk_ctx_find(context);
	if (c == NULL || gid == NULL || port_num == 0 || port_num > c->dev->nb_ports ||
	    index < 0 || index >= FK_GID_TBL_LEN) {
		ret = -1;
	} else if ((unsigned int)index < c->dev->port[port_num - 1].nb_gids) {
		*gid = c->dev->port[port_num - 1].gid[index];
	} else {
		memset(gid, 0, sizeof(*gid)); /* an empty entry */
	}
	fk_unlock();
	if (ret != 0)
		errno = EINVAL;
	return ret;
}

int
fk_gid_index(const struct fk_dev *dev, unsigned int port, const union ibv_gid *gid)
{
	const struct fk_port *p = &dev->port[port - 1];
	unsigned int i;

	for (i = 0; i < p->nb_gids; i++)
		if (memcmp(&p->gid[i], gid, sizeof(*gid)) == 0)
			return (int)i;
	return -1;
}

/* ------------------------------------------------------------ PDs and MRs */

struct ibv_pd *
fk_alloc_pd(struct ibv_context *context)
{
	struct fk_pd *pd = NULL;
	struct fk_ctx *c;
	int err;

	fk_lock();
	c = fk_ctx_find(context);
	err = c == NULL ? EINVAL : fk_fault(MLX5_FAKE_OP_ALLOC_PD);
	if (err == 0 && (pd = fk_pd_new(c)) == NULL)
		err = ENOMEM;
	fk_unlock();
	return pd != NULL ? &pd->pd : fk_null(err);
}

int
fk_dealloc_pd(struct ibv_pd *ibpd)
{
	struct fk_pd *pd;
	int ret = 0;

	fk_lock();
	pd = fk_pd_find(ibpd);
	if (pd == NULL) {
		ret = EINVAL;
	} else if (pd->refs > 0) {
		ret = EBUSY;  /* the kernel refuses while MRs, QPs or SRQs use it */
	} else {
		if (pd->cm_default)
			pd->ctx->dev->cm_pd = NULL;
		TAILQ_REMOVE(&fk.pds, pd, next);
		free(pd);
	}
	fk_unlock();
	return ret;
}

#define FK_ACCESS_KNOWN (IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | \
			 IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC)

struct ibv_mr *
fk_reg_mr(struct ibv_pd *ibpd, void *addr, size_t length, int access)
{
	struct fk_mr *m = NULL;
	struct fk_pd *pd;
	int err = 0;

	fk_lock();
	pd = fk_pd_find(ibpd);
	if (pd == NULL || length == 0 ||
	    (access & ~FK_ACCESS_KNOWN & (IBV_ACCESS_OPTIONAL_FIRST - 1)) != 0)
		err = EINVAL;
	/* Remote write and atomic need local write (the verbs rule). */
	else if ((access & (IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_ATOMIC)) &&
		 !(access & IBV_ACCESS_LOCAL_WRITE))
		err = EINVAL;
	else if (addr == NULL)
		err = EFAULT;
	else
		err = fk_fault(MLX5_FAKE_OP_REG_MR);
	if (err == 0 && (m = calloc(1, sizeof(*m))) == NULL)
		err = ENOMEM;
	if (err == 0) {
		uint32_t k = fk.next_key++ & 0xffffff;

		m->pd = pd;
		m->access = access;
		m->mr.context = pd->pd.context;
		m->mr.pd = &pd->pd;
		m->mr.addr = addr;
		m->mr.length = length;
		m->mr.handle = fk.next_handle++;
		/* mlx5 gives one key for both; the fake gives two, so that
		 * using one for the other fails here as it may on other
		 * hardware. */
		m->mr.lkey = k << 8 | 0x4c;
		m->mr.rkey = k << 8 | 0x52;
		pd->refs++;
		TAILQ_INSERT_TAIL(&fk.mrs, m, next);
	}
	fk_unlock();
	return m != NULL ? &m->mr : fk_null(err);
}

int
fk_dereg_mr(struct ibv_mr *mr)
{
	struct fk_mr *m;
	int ret = EINVAL;

	fk_lock();
	TAILQ_FOREACH(m, &fk.mrs, next)
		if (&m->mr == mr)
			break;
	if (m != NULL) {
		/* Allowed with work requests outstanding: they fail later. */
		TAILQ_REMOVE(&fk.mrs, m, next);
		m->pd->refs--;
		free(m);
		ret = 0;
	}
	fk_unlock();
	return ret;
}

/* ------------------------------------------------------------ CQs and channels */

struct ibv_comp_channel *
fk_create_comp_channel(struct ibv_context *context)
{
	struct fk_chan *ch = NULL;
	struct fk_ctx *c;
	int err;

	fk_lock();
	c = fk_ctx_find(context);
	err = c == NULL ? EINVAL : fk_fault(MLX5_FAKE_OP_CREATE_COMP_CHANNEL);
	if (err == 0 && (ch = calloc(1, sizeof(*ch))) == NULL)
		err = ENOMEM;
	if (err == 0 && (err = fk_evfd_init(&ch->efd)) != 0) {
		free(ch);
		ch = NULL;
	}
	if (err == 0) {
		ch->ctx = c;
		ch->ch.context = context;
		ch->ch.fd = ch->efd.fd;
		TAILQ_INIT(&ch->events);
		TAILQ_INSERT_TAIL(&fk.chans, ch, next);
	}
	fk_unlock();
	return ch != NULL ? &ch->ch : fk_null(err);
}

static struct fk_chan *
fk_chan_find(const struct ibv_comp_channel *p)
{
	struct fk_chan *o;

	TAILQ_FOREACH(o, &fk.chans, next)
		if (&o->ch == p)
			return o;
	return NULL;
}

int
fk_destroy_comp_channel(struct ibv_comp_channel *channel)
{
	struct fk_chan *ch;
	int ret = 0;

	fk_lock();
	ch = fk_chan_find(channel);
	if (ch == NULL) {
		ret = EINVAL;
	} else if (ch->ch.refcnt > 0) {
		ret = EBUSY;  /* rdma-core: CQs still use it */
	} else {
		/* Its CQs are gone and took their events with them. */
		TAILQ_REMOVE(&fk.chans, ch, next);
		fk_evfd_close(&ch->efd);
		free(ch);
	}
	fk_unlock();
	return ret;
}

struct ibv_cq *
fk_create_cq(struct ibv_context *context, int cqe, void *cq_context,
	     struct ibv_comp_channel *channel, int comp_vector)
{
	struct fk_chan *ch = NULL;
	struct fk_cq *cq = NULL;
	struct fk_ctx *c;
	uint32_t depth;
	int err = 0;

	fk_lock();
	c = fk_ctx_find(context);
	if (channel != NULL)
		ch = fk_chan_find(channel);
	if (c == NULL || cqe < 1 || cqe > FK_MAX_CQE || (channel != NULL && ch == NULL) ||
	    (ch != NULL && ch->ctx != c) || comp_vector < 0 ||
	    comp_vector >= FK_NUM_COMP_VECTORS)
		err = EINVAL;
	else
		err = fk_fault(MLX5_FAKE_OP_CREATE_CQ);
	if (err == 0 && (cq = calloc(1, sizeof(*cq))) == NULL)
		err = ENOMEM;
	if (err != 0)
		goto out;
	/* Like mlx5: room for cqe + 1 rounded up to a power of two, less one. */
	depth = fk_pow2((uint32_t)cqe + 1) - 1;
	if (depth > FK_MAX_CQE)
		depth = FK_MAX_CQE;
	cq->ring = calloc(depth, sizeof(*cq->ring));
	if (cq->ring == NULL) {
		free(cq);
		cq = NULL;
		err = ENOMEM;
		goto out;
	}
	cq->ctx = c;
	cq->chan = ch;
	cq->cq.context = context;
	cq->cq.channel = channel;
	cq->cq.cq_context = cq_context;
	cq->cq.handle = fk.next_handle++;
	cq->cq.cqe = (int)depth;
	pthread_mutex_init(&cq->cq.mutex, NULL);
	pthread_cond_init(&cq->cq.cond, NULL);
	if (ch != NULL)
		ch->ch.refcnt++;
	TAILQ_INSERT_TAIL(&fk.cqs, cq, next);
out:
	fk_unlock();
	return cq != NULL ? &cq->cq : fk_null(err);
}

int
fk_destroy_cq(struct ibv_cq *ibcq)
{
	struct fk_cqev *e, *tmp;
	struct fk_cq *cq;
	int ret = 0;

	fk_lock();
	cq = fk_cq_find(ibcq);
	if (cq == NULL) {
		ret = EINVAL;
	} else if (cq->refs > 0) {
		ret = EBUSY;  /* the kernel refuses while QPs use it */
	} else if (cq->ev_reported != cq->cq.comp_events_completed) {
		/* rdma-core waits for the acknowledgements forever: say it. */
		fk.cnt.busy++;
		fk_misuse("destroy_cq with %u events not acknowledged (rdma-core hangs)",
			  cq->ev_reported - cq->cq.comp_events_completed);
		ret = EBUSY;
	} else {
		if (cq->chan != NULL) {
			/* Events not read yet go with the CQ, as in the kernel. */
			TAILQ_FOREACH_SAFE(e, &cq->chan->events, next, tmp)
				if (e->cq == cq) {
					TAILQ_REMOVE(&cq->chan->events, e, next);
					fk_evfd_pop(&cq->chan->efd);
					free(e);
				}
			cq->chan->ch.refcnt--;
		}
		TAILQ_REMOVE(&fk.cqs, cq, next);
		pthread_mutex_destroy(&cq->cq.mutex);
		pthread_cond_destroy(&cq->cq.cond);
		free(cq->ring);
		free(cq);
	}
	fk_unlock();
	return ret;
}

int
fk_req_notify_cq(struct ibv_cq *ibcq, int solicited_only)
{
	struct fk_cq *cq;

	fk_lock();
	cq = fk_cq_find(ibcq);
	if (cq == NULL) {
		fk_unlock();
		return EINVAL;
	}
	/* The next completion (solicited or in error, if solicited_only)
	 * written after this call raises one event; those already in the CQ
	 * do not, hence "arm, then poll again". */
	if (!solicited_only)
		cq->armed = FK_ARM_ANY;
	else if (cq->armed == FK_ARM_NONE)
		cq->armed = FK_ARM_SOLICITED;
	fk_sync_tick(cq);
	fk_unlock();
	return 0;
}

int
fk_get_cq_event(struct ibv_comp_channel *channel, struct ibv_cq **cqp, void **ctxp)
{
	struct fk_cqev *e;
	struct fk_chan *ch;
	int fd;

	for (;;) {
		fk_lock();
		ch = fk_chan_find(channel);
		if (ch == NULL) {
			fk_unlock();
			errno = EINVAL;
			return -1;
		}
		e = TAILQ_FIRST(&ch->events);
		if (e != NULL) {
			TAILQ_REMOVE(&ch->events, e, next);
			fk_evfd_pop(&ch->efd);
			e->cq->ev_reported++;
			*cqp = &e->cq->cq;
			*ctxp = e->cq->cq.cq_context;
			fk_unlock();
			free(e);
			return 0;
		}
		fd = ch->efd.fd;
		fk_unlock();
		/* Nothing queued: EAGAIN on a non-blocking fd, else wait. */
		if (fk_evfd_wait(fd) != 0)
			return -1;
	}
}

void
fk_ack_cq_events(struct ibv_cq *ibcq, unsigned int nevents)
{
	struct fk_cq *cq;

	fk_lock();
	cq = fk_cq_find(ibcq);
	if (cq == NULL) {
		fk_misuse("ack_cq_events on an unknown CQ %p", (void *)ibcq);
	} else {
		cq->cq.comp_events_completed += nevents;
		if ((int32_t)(cq->ev_reported - cq->cq.comp_events_completed) < 0)
			fk_misuse("ack_cq_events: %u acknowledged, %u reported",
				  cq->cq.comp_events_completed, cq->ev_reported);
	}
	fk_unlock();
}

int
fk_poll_cq(struct ibv_cq *ibcq, int num_entries, struct ibv_wc *wc)
{
	struct fk_cq *cq;
	int n;

	fk_lock();
	cq = fk_cq_find(ibcq);
	if (cq == NULL || num_entries < 0 || (num_entries > 0 && wc == NULL)) {
		fk_unlock();
		return -EINVAL;
	}
	fk_sync_tick(cq);
	n = fk_cq_poll(cq, num_entries, wc);
	fk_unlock();
	return n;
}

/* ------------------------------------------------------------ SRQs */

static int
fk_rwqes_alloc(struct fk_rwqe **ring, uint32_t n, uint32_t max_sge)
{
	uint32_t i;

	*ring = calloc(n > 0 ? n : 1, sizeof(**ring));
	if (*ring == NULL)
		return ENOMEM;
	for (i = 0; i < n; i++) {
		(*ring)[i].sge = calloc(max_sge > 0 ? max_sge : 1, sizeof(struct ibv_sge));
		if ((*ring)[i].sge == NULL)
			return ENOMEM;
	}
	return 0;
}

static void
fk_rwqes_free(struct fk_rwqe *ring, uint32_t n)
{
	uint32_t i;

	if (ring == NULL)
		return;
	for (i = 0; i < n; i++)
		free(ring[i].sge);
	free(ring);
}

struct ibv_srq *
fk_create_srq(struct ibv_pd *ibpd, struct ibv_srq_init_attr *attr)
{
	struct fk_srq *s = NULL;
	struct fk_pd *pd;
	int err;

	fk_lock();
	pd = fk_pd_find(ibpd);
	if (pd == NULL || attr == NULL || attr->attr.max_wr == 0 ||
	    attr->attr.max_wr > FK_MAX_SRQ_WR || attr->attr.max_sge > FK_MAX_RECV_SGE - 1 ||
	    attr->attr.srq_limit > attr->attr.max_wr)
		err = EINVAL;
	else
		err = fk_fault(MLX5_FAKE_OP_CREATE_SRQ);
	if (err == 0 && (s = calloc(1, sizeof(*s))) == NULL)
		err = ENOMEM;
	if (err != 0)
		goto out;
	s->max_wr = fk_pow2(attr->attr.max_wr);
	s->max_sge = attr->attr.max_sge > 0 ? attr->attr.max_sge : 1;
	if (fk_rwqes_alloc(&s->ring, s->max_wr, s->max_sge) != 0) {
		fk_rwqes_free(s->ring, s->max_wr);
		free(s);
		s = NULL;
		err = ENOMEM;
		goto out;
	}
	s->pd = pd;
	s->srq.context = pd->pd.context;
	s->srq.srq_context = attr->srq_context;
	s->srq.pd = ibpd;
	s->srq.handle = fk.next_handle++;
	pthread_mutex_init(&s->srq.mutex, NULL);
	pthread_cond_init(&s->srq.cond, NULL);
	attr->attr.max_wr = s->max_wr;
	attr->attr.max_sge = s->max_sge;
	pd->refs++;
	TAILQ_INSERT_TAIL(&fk.srqs, s, next);
out:
	fk_unlock();
	return s != NULL ? &s->srq : fk_null(err);
}

int
fk_destroy_srq(struct ibv_srq *srq)
{
	struct fk_srq *s;
	int ret = 0;

	fk_lock();
	s = fk_srq_find(srq);
	if (s == NULL) {
		ret = EINVAL;
	} else if (s->refs > 0) {
		ret = EBUSY;
	} else {
		TAILQ_REMOVE(&fk.srqs, s, next);
		s->pd->refs--;
		pthread_mutex_destroy(&s->srq.mutex);
		pthread_cond_destroy(&s->srq.cond);
		fk_rwqes_free(s->ring, s->max_wr);
		free(s);
	}
	fk_unlock();
	return ret;
}

static void
fk_rwqe_set(struct fk_rwqe *r, const struct ibv_recv_wr *wr)
{
	r->wr_id = wr->wr_id;
	r->num_sge = (uint32_t)wr->num_sge;
	if (wr->num_sge > 0)
		memcpy(r->sge, wr->sg_list, wr->num_sge * sizeof(*r->sge));
}

int
fk_post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr)
{
	struct fk_srq *s;
	int ret = 0;

	fk_lock();
	s = fk_srq_find(srq);
	if (s == NULL)
		ret = EINVAL;
	for (; ret == 0 && wr != NULL; wr = ret == 0 ? wr->next : wr) {
		if (wr->num_sge < 0 || (uint32_t)wr->num_sge > s->max_sge ||
		    (wr->num_sge > 0 && wr->sg_list == NULL))
			ret = EINVAL;
		else if (s->inuse >= s->max_wr)
			ret = ENOMEM;
		else {
			fk_rwqe_set(&s->ring[(s->head + s->count) % s->max_wr], wr);
			s->count++;
			s->inuse++;
		}
	}
	if (ret != 0 && bad_wr != NULL)
		*bad_wr = wr;
	fk_sync_tick(NULL);
	fk_unlock();
	return ret;
}

/* ------------------------------------------------------------ QPs */

static void
fk_qp_free(struct fk_qp *q)
{
	uint32_t i;

	if (q->sq != NULL)
		for (i = 0; i < q->sq_size; i++) {
			free(q->sq[i].sge);
			free(q->sq[i].inl);
		}
	free(q->sq);
	fk_rwqes_free(q->rq, q->rq_size);
	free(q);
}

struct fk_qp *
fk_qp_create(struct fk_pd *pd, struct ibv_qp_init_attr *attr, int *err)
{
	struct fk_srq *srq = NULL;
	struct fk_cq *scq, *rcq;
	struct ibv_qp_cap *cap;
	struct fk_qp *q;
	uint32_t i;

	*err = EINVAL;
	if (attr == NULL)
		return NULL;
	cap = &attr->cap;
	scq = fk_cq_find(attr->send_cq);
	rcq = fk_cq_find(attr->recv_cq);
	if (attr->srq != NULL && (srq = fk_srq_find(attr->srq)) == NULL)
		return NULL;
	if (scq == NULL || rcq == NULL || scq->ctx != pd->ctx || rcq->ctx != pd->ctx ||
	    (srq != NULL && srq->pd->ctx != pd->ctx))
		return NULL;
	if (attr->qp_type != IBV_QPT_RC) {
		*err = EOPNOTSUPP;  /* the fake models RC only */
		return NULL;
	}
	if (cap->max_send_wr > FK_MAX_QP_WR || cap->max_send_sge > FK_MAX_SEND_SGE ||
	    cap->max_inline_data > FK_MAX_INLINE ||
	    (srq == NULL && (cap->max_recv_wr > FK_MAX_QP_WR ||
			     cap->max_recv_sge > FK_MAX_RECV_SGE)))
		return NULL;
	*err = fk_fault(MLX5_FAKE_OP_CREATE_QP);
	if (*err != 0)
		return NULL;
	*err = ENOMEM;
	q = calloc(1, sizeof(*q));
	if (q == NULL)
		return NULL;
	q->sq_size = cap->max_send_wr > 0 ? fk_pow2(cap->max_send_wr) : 0;
	q->rq_size = srq == NULL && cap->max_recv_wr > 0 ? fk_pow2(cap->max_recv_wr) : 0;
	q->cap.max_send_wr = q->sq_size;
	q->cap.max_recv_wr = q->rq_size;
	q->cap.max_send_sge = cap->max_send_sge;
	q->cap.max_recv_sge = srq == NULL ? cap->max_recv_sge : 0;
	q->cap.max_inline_data = cap->max_inline_data;
	q->sq = calloc(q->sq_size > 0 ? q->sq_size : 1, sizeof(*q->sq));
	if (q->sq == NULL || fk_rwqes_alloc(&q->rq, q->rq_size, q->cap.max_recv_sge) != 0)
		goto nomem;
	for (i = 0; i < q->sq_size; i++) {
		q->sq[i].sge = calloc(cap->max_send_sge > 0 ? cap->max_send_sge : 1,
				      sizeof(struct ibv_sge));
		if (q->sq[i].sge == NULL)
			goto nomem;
		if (cap->max_inline_data > 0) {
			q->sq[i].inl = malloc(cap->max_inline_data);
			if (q->sq[i].inl == NULL)
				goto nomem;
		}
	}
	*cap = q->cap;
	q->pd = pd;
	q->dev = pd->ctx->dev;
	q->scq = scq;
	q->rcq = rcq;
	q->srq = srq;
	q->sig_all = attr->sq_sig_all != 0;
	q->st = IBV_QPS_RESET;
	q->qp.context = pd->pd.context;
	q->qp.qp_context = attr->qp_context;
	q->qp.pd = &pd->pd;
	q->qp.send_cq = attr->send_cq;
	q->qp.recv_cq = attr->recv_cq;
	q->qp.srq = attr->srq;
	q->qp.handle = fk.next_handle++;
	q->qp.qp_num = fk.next_qpn++ & FK_PSN_MASK;
	q->qp.state = IBV_QPS_RESET;
	q->qp.qp_type = IBV_QPT_RC;
	pthread_mutex_init(&q->qp.mutex, NULL);
	pthread_cond_init(&q->qp.cond, NULL);
	pd->refs++;
	scq->refs++;
	rcq->refs++;
	if (srq != NULL)
		srq->refs++;
	TAILQ_INSERT_TAIL(&fk.qps, q, next);
	*err = 0;
	return q;
nomem:
	fk_qp_free(q);
	return NULL;
}

struct ibv_qp *
fk_create_qp(struct ibv_pd *ibpd, struct ibv_qp_init_attr *attr)
{
	struct fk_qp *q = NULL;
	struct fk_pd *pd;
	int err = EINVAL;

	fk_lock();
	pd = fk_pd_find(ibpd);
	if (pd != NULL)
		q = fk_qp_create(pd, attr, &err);
	fk_unlock();
	return q != NULL ? &q->qp : fk_null(err);
}

/* Back to RESET: queues emptied, their completions cleaned from the CQs
 * (mlx5 does so), connection forgotten. */
static void
fk_qp_reset(struct fk_qp *q)
{
	fk_cq_clean(q->scq, q);
	if (q->rcq != q->scq)
		fk_cq_clean(q->rcq, q);
	q->sq_head = q->sq_exec = q->sq_tail = 0;
	q->rq_head = q->rq_next = q->rq_tail = 0;
	q->access = 0;
	q->port = 0;
	q->rdev = NULL;
	q->dest_qpn = 0;
	memset(&q->dgid, 0, sizeof(q->dgid));
}

int
fk_qp_destroy(struct fk_qp *q)
{
	fk_qp_reset(q);
	q->pd->refs--;
	q->scq->refs--;
	q->rcq->refs--;
	if (q->srq != NULL)
		q->srq->refs--;
	if (q->id != NULL)
		q->id->qp = NULL;
	TAILQ_REMOVE(&fk.qps, q, next);
	pthread_mutex_destroy(&q->qp.mutex);
	pthread_cond_destroy(&q->qp.cond);
	fk_qp_free(q);
	return 0;
}

int
fk_destroy_qp(struct ibv_qp *qp)
{
	struct fk_qp *q;
	int ret;

	fk_lock();
	q = fk_qp_find(qp);
	ret = q == NULL ? EINVAL : fk_qp_destroy(q);
	fk_unlock();
	return ret;
}

/* The attribute masks the kernel requires and allows for each RC transition
 * (ib_modify_qp_is_ok()), besides IBV_QP_STATE. */
struct fk_trans {
	int req;
	int opt;
};

static bool
fk_trans_of(enum ibv_qp_state cur, enum ibv_qp_state next, struct fk_trans *t)
{
	t->req = 0;
	t->opt = 0;
	if (next == IBV_QPS_RESET || next == IBV_QPS_ERR)
		return true;
	switch (cur) {
	case IBV_QPS_RESET:
		t->req = IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS;
		return next == IBV_QPS_INIT;
	case IBV_QPS_INIT:
		if (next == IBV_QPS_INIT) {
			t->opt = IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS;
			return true;
		}
		t->req = IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
		t->opt = IBV_QP_ALT_PATH | IBV_QP_ACCESS_FLAGS | IBV_QP_PKEY_INDEX;
		return next == IBV_QPS_RTR;
	case IBV_QPS_RTR:
		t->req = IBV_QP_SQ_PSN | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			IBV_QP_MAX_QP_RD_ATOMIC;
		t->opt = IBV_QP_CUR_STATE | IBV_QP_ALT_PATH | IBV_QP_ACCESS_FLAGS |
			IBV_QP_MIN_RNR_TIMER | IBV_QP_PATH_MIG_STATE;
		return next == IBV_QPS_RTS;
	case IBV_QPS_RTS:
		t->opt = IBV_QP_CUR_STATE | IBV_QP_ACCESS_FLAGS | IBV_QP_ALT_PATH |
			IBV_QP_PATH_MIG_STATE | IBV_QP_MIN_RNR_TIMER;
		return next == IBV_QPS_RTS;
	default:
		return false;  /* SQD, SQE: not modelled */
	}
}

/* The values of the attributes in mask, for q. */
static bool
fk_qp_attr_ok(const struct fk_qp *q, const struct ibv_qp_attr *a, int mask)
{
	unsigned int port = (mask & IBV_QP_PORT) ? a->port_num : q->port;

	if ((mask & IBV_QP_PORT) && (a->port_num == 0 || a->port_num > q->dev->nb_ports))
		return false;
	if ((mask & IBV_QP_PKEY_INDEX) && a->pkey_index != 0)
		return false;
	if ((mask & IBV_QP_ACCESS_FLAGS) &&
	    (a->qp_access_flags & ~(unsigned int)FK_ACCESS_KNOWN) != 0)
		return false;
	/* RoCE: the address vector is global, from a GID of the port. */
	if ((mask & IBV_QP_AV) &&
	    (!a->ah_attr.is_global || port == 0 ||
	     a->ah_attr.grh.sgid_index >= q->dev->port[port - 1].nb_gids))
		return false;
	if ((mask & IBV_QP_PATH_MTU) &&
	    (a->path_mtu < IBV_MTU_256 || a->path_mtu > IBV_MTU_4096))
		return false;
	if ((mask & IBV_QP_DEST_QPN) && a->dest_qp_num > FK_PSN_MASK)
		return false;
	if ((mask & IBV_QP_MAX_DEST_RD_ATOMIC) && a->max_dest_rd_atomic > FK_MAX_RD_ATOM)
		return false;
	if ((mask & IBV_QP_MAX_QP_RD_ATOMIC) && a->max_rd_atomic > FK_MAX_RD_ATOM)
		return false;
	if ((mask & IBV_QP_MIN_RNR_TIMER) && a->min_rnr_timer > 31)
		return false;
	if ((mask & IBV_QP_TIMEOUT) && a->timeout > 31)
		return false;
	if ((mask & IBV_QP_RETRY_CNT) && a->retry_cnt > 7)
		return false;
	if ((mask & IBV_QP_RNR_RETRY) && a->rnr_retry > 7)
		return false;
	return true;
}

static void
fk_qp_attr_apply(struct fk_qp *q, const struct ibv_qp_attr *a, int mask)
{
	if (mask & IBV_QP_PORT)
		q->port = a->port_num;
	if (mask & IBV_QP_ACCESS_FLAGS)
		q->access = a->qp_access_flags;
	if (mask & IBV_QP_AV) {
		unsigned int port;

		q->dgid = a->ah_attr.grh.dgid;
		q->sgid_index = a->ah_attr.grh.sgid_index;
		q->rdev = fk_dev_by_gid(&q->dgid, &port);
	}
	if (mask & IBV_QP_PATH_MTU)
		q->mtu = a->path_mtu;
	if (mask & IBV_QP_DEST_QPN)
		q->dest_qpn = a->dest_qp_num;
	if (mask & IBV_QP_RQ_PSN)
		q->rq_psn = a->rq_psn & FK_PSN_MASK;
	if (mask & IBV_QP_SQ_PSN)
		q->sq_psn = a->sq_psn & FK_PSN_MASK;
	if (mask & IBV_QP_MAX_DEST_RD_ATOMIC)
		q->max_dest_rd_atomic = a->max_dest_rd_atomic;
	if (mask & IBV_QP_MAX_QP_RD_ATOMIC)
		q->max_rd_atomic = a->max_rd_atomic;
	if (mask & IBV_QP_MIN_RNR_TIMER)
		q->min_rnr_timer = a->min_rnr_timer;
	if (mask & IBV_QP_TIMEOUT)
		q->timeout = a->timeout;
	if (mask & IBV_QP_RETRY_CNT)
		q->retry_cnt = a->retry_cnt;
	if (mask & IBV_QP_RNR_RETRY)
		q->rnr_retry = a->rnr_retry;
}

int
fk_qp_modify(struct fk_qp *q, struct ibv_qp_attr *a, int mask)
{
	enum ibv_qp_state cur = q->st, next;
	struct fk_trans t;

	if (a == NULL)
		return EINVAL;
	if ((mask & IBV_QP_CUR_STATE) && a->cur_qp_state != cur)
		return EINVAL;
	next = (mask & IBV_QP_STATE) ? a->qp_state : cur;
	if (!fk_trans_of(cur, next, &t))
		return EINVAL;
	if ((mask & t.req) != t.req ||
	    (mask & ~(t.req | t.opt | IBV_QP_STATE | IBV_QP_CUR_STATE)) != 0)
		return EINVAL;
	if (!fk_qp_attr_ok(q, a, mask))
		return EINVAL;
	if (next == IBV_QPS_RESET) {
		q->st = IBV_QPS_RESET;
		fk_qp_reset(q);
	} else if (next == IBV_QPS_ERR) {
		fk_qp_err(q, false);
	} else {
		fk_qp_attr_apply(q, a, mask);
		q->st = next;
	}
	/* rdma-core updates the public state on a successful modify only. */
	if (mask & IBV_QP_STATE)
		q->qp.state = next;
	return 0;
}

int
fk_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask)
{
	struct fk_qp *q;
	int ret;

	fk_lock();
	q = fk_qp_find(qp);
	ret = q == NULL ? EINVAL : fk_qp_modify(q, attr, attr_mask);
	/* Work posted while in INIT may run now (receives for a waiting SEND). */
	if (ret == 0)
		fk_sync_tick(NULL);
	fk_unlock();
	return ret;
}

#define FK_SEND_FLAGS (IBV_SEND_FENCE | IBV_SEND_SIGNALED | IBV_SEND_SOLICITED | \
		       IBV_SEND_INLINE)

/* Check one send WR for q and queue it. */
static int
fk_post_one(struct fk_qp *q, const struct ibv_send_wr *wr)
{
	struct fk_swqe *w;
	uint64_t len = 0;
	int i;

	if (q->st != IBV_QPS_RTS && q->st != IBV_QPS_ERR)
		return EINVAL;
	if (wr->num_sge < 0 || (uint32_t)wr->num_sge > q->cap.max_send_sge ||
	    (wr->num_sge > 0 && wr->sg_list == NULL) || (wr->send_flags & ~FK_SEND_FLAGS))
		return EINVAL;
	switch (wr->opcode) {
	case IBV_WR_SEND:
	case IBV_WR_SEND_WITH_IMM:
	case IBV_WR_RDMA_WRITE:
	case IBV_WR_RDMA_WRITE_WITH_IMM:
	case IBV_WR_RDMA_READ:
		break;
	default:
		return EINVAL;  /* atomics, invalidate, bind: not modelled */
	}
	if (q->sq_head - q->sq_tail >= q->sq_size)
		return ENOMEM;  /* full until completions are polled */
	for (i = 0; i < wr->num_sge; i++)
		len += wr->sg_list[i].length;
	if ((wr->send_flags & IBV_SEND_INLINE) &&
	    (wr->opcode == IBV_WR_RDMA_READ || len > q->cap.max_inline_data))
		return EINVAL;
	w = &q->sq[q->sq_head % q->sq_size];
	w->wr_id = wr->wr_id;
	w->opcode = wr->opcode;
	w->flags = wr->send_flags;
	w->num_sge = (uint32_t)wr->num_sge;
	if (wr->num_sge > 0)
		memcpy(w->sge, wr->sg_list, wr->num_sge * sizeof(*w->sge));
	w->raddr = wr->wr.rdma.remote_addr;
	w->rkey = wr->wr.rdma.rkey;
	w->imm = wr->imm_data;
	w->rnr_started = false;
	w->rnr_left = 0;
	w->rnr_tick = 0;
	w->inl_len = 0;
	if (wr->send_flags & IBV_SEND_INLINE) {
		/* Inline data is copied now: the buffer is free when post returns. */
		for (i = 0; i < wr->num_sge; i++) {
			if (wr->sg_list[i].length == 0)
				continue;
			memcpy(w->inl + w->inl_len, (void *)(uintptr_t)wr->sg_list[i].addr,
			       wr->sg_list[i].length);
			w->inl_len += wr->sg_list[i].length;
		}
	}
	q->sq_head++;
	return 0;
}

int
fk_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr)
{
	struct fk_qp *q;
	int ret = 0;

	fk_lock();
	q = fk_qp_find(qp);
	if (q == NULL)
		ret = EINVAL;
	for (; ret == 0 && wr != NULL; wr = ret == 0 ? wr->next : wr)
		ret = fk_post_one(q, wr);
	if (ret != 0 && bad_wr != NULL)
		*bad_wr = wr;
	if (q != NULL) {
		fk_qp_flush(q);  /* in ERR, new work is flushed */
		fk_sync_tick(NULL);
	}
	fk_unlock();
	return ret;
}

int
fk_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr)
{
	struct fk_qp *q;
	int ret = 0;

	fk_lock();
	q = fk_qp_find(qp);
	if (q == NULL || q->srq != NULL || q->st == IBV_QPS_RESET)
		ret = EINVAL;
	else
		ret = fk_fault(MLX5_FAKE_OP_POST_RECV);
	for (; ret == 0 && wr != NULL; wr = ret == 0 ? wr->next : wr) {
		if (wr->num_sge < 0 || (uint32_t)wr->num_sge > q->cap.max_recv_sge ||
		    (wr->num_sge > 0 && wr->sg_list == NULL))
			ret = EINVAL;
		else if (q->rq_head - q->rq_tail >= q->rq_size)
			ret = ENOMEM;
		else
			fk_rwqe_set(&q->rq[q->rq_head++ % q->rq_size], wr);
	}
	if (ret != 0 && bad_wr != NULL)
		*bad_wr = wr;
	if (q != NULL) {
		fk_qp_flush(q);
		fk_sync_tick(NULL);
	}
	fk_unlock();
	return ret;
}
