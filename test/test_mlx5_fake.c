/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The fake verbs provider (test/mlx5_fake) keeps to the verbs semantics the
 * mlx5 driver is judged by: rdma_cm connection set-up and its errors,
 * SEND/RECV, WRITE placed before the following SEND, remote access and
 * local protection checks with the QPs going to error and flushing, RNR,
 * CQ depth and overflow, completion channels, the QP state machine, slots
 * freed by polling, SRQs, fault injection, and several threads at once.
 */

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "mlx5_fake.h"

#define G mlx5_fake_glue()
#define SRV_DEV "mlx5_0"
#define CLI_DEV "mlx5_1"
#define SRV_IP "10.0.0.1"
#define CLI_IP "10.0.0.2"
#define PORT 18515
#define BUF 4096
#define RW_ACCESS (IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ)

/* ------------------------------------------------------------ helpers */

static void
nonblock(int fd)
{
	assert_int_equal(fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK), 0);
}

static bool
readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1;
}

static struct mlx5_fake_counters
cnt(void)
{
	struct mlx5_fake_counters c;

	mlx5_fake_get_counters(&c);
	return c;
}

static void
fabric(void)
{
	assert_int_equal(mlx5_fake_reset(), 0);
	assert_int_equal(mlx5_fake_add_device(SRV_DEV, 1), 0);
	assert_int_equal(mlx5_fake_add_addr(SRV_DEV, 1, SRV_IP), 0);
	assert_int_equal(mlx5_fake_add_device(CLI_DEV, 1), 0);
	assert_int_equal(mlx5_fake_add_addr(CLI_DEV, 1, CLI_IP), 0);
}

static struct sockaddr_in
sin_of(const char *ip, uint16_t port)
{
	struct sockaddr_in s = { .sin_family = AF_INET, .sin_port = htons(port) };

	assert_int_equal(inet_pton(AF_INET, ip, &s.sin_addr), 1);
	return s;
}

static struct rdma_cm_event *
ev_get(struct rdma_event_channel *ch, enum rdma_cm_event_type t)
{
	struct rdma_cm_event *ev = NULL;

	if (G->get_cm_event(ch, &ev) != 0)
		fail_msg("no rdma_cm event (errno %d), expected %d", errno, t);
	if (ev->event != t)
		fail_msg("rdma_cm event %d (status %d), expected %d", ev->event, ev->status, t);
	return ev;
}

static void
ev_expect(struct rdma_event_channel *ch, enum rdma_cm_event_type t, int status)
{
	struct rdma_cm_event *ev = ev_get(ch, t);

	assert_int_equal(ev->status, status);
	assert_int_equal(G->ack_cm_event(ev), 0);
}

static void
ev_none(struct rdma_event_channel *ch)
{
	struct rdma_cm_event *ev = NULL;

	assert_false(readable(ch->fd));
	assert_int_equal(G->get_cm_event(ch, &ev), -1);
	assert_int_equal(errno, EAGAIN);
}

static int
post_recv(struct ibv_qp *qp, uint64_t id, void *addr, uint32_t len, uint32_t lkey)
{
	struct ibv_sge sge = { .addr = (uintptr_t)addr, .length = len, .lkey = lkey };
	struct ibv_recv_wr wr = { .wr_id = id, .sg_list = &sge, .num_sge = 1 }, *bad;

	return G->post_recv(qp, &wr, &bad);
}

static int
post_srq(struct ibv_srq *srq, uint64_t id, void *addr, uint32_t len, uint32_t lkey)
{
	struct ibv_sge sge = { .addr = (uintptr_t)addr, .length = len, .lkey = lkey };
	struct ibv_recv_wr wr = { .wr_id = id, .sg_list = &sge, .num_sge = 1 }, *bad;

	return G->post_srq_recv(srq, &wr, &bad);
}

static int
post(struct ibv_qp *qp, enum ibv_wr_opcode op, uint64_t id, const void *addr, uint32_t len,
	uint32_t lkey, unsigned int flags, const void *raddr, uint32_t rkey)
{
	struct ibv_sge sge = { .addr = (uintptr_t)addr, .length = len, .lkey = lkey };
	struct ibv_send_wr wr = {
		.wr_id = id, .sg_list = &sge, .num_sge = 1, .opcode = op, .send_flags = flags,
		.imm_data = htonl(0xc0ffee),
	}, *bad;

	wr.wr.rdma.remote_addr = (uintptr_t)raddr;
	wr.wr.rdma.rkey = rkey;
	return G->post_send(qp, &wr, &bad);
}

/* The next completion of cq: its wr_id and status. */
static struct ibv_wc
wc_next(struct ibv_cq *cq, uint64_t id, enum ibv_wc_status st)
{
	struct ibv_wc wc;

	memset(&wc, 0, sizeof(wc));
	if (G->poll_cq(cq, 1, &wc) != 1)
		fail_msg("no completion, expected wr_id %" PRIu64 " status %d", id, st);
	if (wc.wr_id != id || wc.status != st)
		fail_msg("completion wr_id %" PRIu64 " status %d, expected %" PRIu64 " %d",
			 wc.wr_id, wc.status, id, st);
	return wc;
}

static void
wc_none(struct ibv_cq *cq)
{
	struct ibv_wc wc;

	assert_int_equal(G->poll_cq(cq, 1, &wc), 0);
}

/* ------------------------------------------------------------ a connected pair */

struct side {
	struct rdma_cm_id *id;
	struct ibv_pd *pd;
	struct ibv_comp_channel *ch;
	struct ibv_cq *scq;
	struct ibv_cq *rcq;
	struct ibv_srq *srq;
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	uint8_t *buf;
};

struct cfg {
	int rcq_depth;       /* server's receive CQ */
	uint8_t cli_rnr;     /* the server's accept rnr_retry_count: the client QP's */
	int srv_access;      /* server MR access */
	bool srv_srq;        /* server QP on an SRQ */
	uint32_t sq_wr;      /* client's send queue */
	uint8_t cli_pdata_len;
};

#define CFG { .rcq_depth = 64, .cli_rnr = 7, .srv_access = RW_ACCESS, .sq_wr = 64 }

static struct pair {
	struct rdma_event_channel *sch;
	struct rdma_event_channel *cch;
	struct rdma_cm_id *lid;
	struct side s;
	struct side c;
	uint8_t req_pdata[256];
	uint8_t req_pdata_len;
	uint8_t rep_pdata[256];
	uint8_t rep_pdata_len;
} P;

static void
side_res(struct side *s, struct rdma_cm_id *id, int rcq_depth, bool srq, uint32_t sq_wr,
	 int access)
{
	struct ibv_qp_init_attr qa;

	s->id = id;
	s->pd = G->alloc_pd(id->verbs);
	assert_non_null(s->pd);
	s->ch = G->create_comp_channel(id->verbs);
	assert_non_null(s->ch);
	nonblock(s->ch->fd);
	s->scq = G->create_cq(id->verbs, 64, s, s->ch, 0);
	s->rcq = G->create_cq(id->verbs, rcq_depth, s, s->ch, 0);
	assert_non_null(s->scq);
	assert_non_null(s->rcq);
	if (srq) {
		struct ibv_srq_init_attr sa = { .attr = { .max_wr = 64, .max_sge = 1 } };

		s->srq = G->create_srq(s->pd, &sa);
		assert_non_null(s->srq);
	}
	memset(&qa, 0, sizeof(qa));
	qa.send_cq = s->scq;
	qa.recv_cq = s->rcq;
	qa.srq = s->srq;
	qa.qp_type = IBV_QPT_RC;
	qa.cap.max_send_wr = sq_wr;
	qa.cap.max_recv_wr = 64;
	qa.cap.max_send_sge = 2;
	qa.cap.max_recv_sge = 2;
	qa.cap.max_inline_data = 64;
	assert_int_equal(G->cm_create_qp(id, s->pd, &qa), 0);
	s->qp = id->qp;
	assert_non_null(s->qp);
	assert_int_equal(s->qp->state, IBV_QPS_INIT);
	s->buf = aligned_alloc(64, BUF);
	assert_non_null(s->buf);
	memset(s->buf, 0, BUF);
	s->mr = G->reg_mr(s->pd, s->buf, BUF, access);
	assert_non_null(s->mr);
}

static void
side_free(struct side *s)
{
	if (s->id == NULL)
		return;
	G->cm_destroy_qp(s->id);
	if (s->srq != NULL)
		assert_int_equal(G->destroy_srq(s->srq), 0);
	assert_int_equal(G->destroy_cq(s->scq), 0);
	assert_int_equal(G->destroy_cq(s->rcq), 0);
	assert_int_equal(G->destroy_comp_channel(s->ch), 0);
	assert_int_equal(G->dereg_mr(s->mr), 0);
	assert_int_equal(G->dealloc_pd(s->pd), 0);
	assert_int_equal(G->destroy_id(s->id), 0);
	free(s->buf);
	memset(s, 0, sizeof(*s));
}

/* Channels, a listener on SRV_IP:PORT, a client id with its route resolved. */
static void
pair_prepare(void)
{
	struct sockaddr_in srv = sin_of(SRV_IP, PORT);

	memset(&P, 0, sizeof(P));
	fabric();
	P.sch = G->create_event_channel();
	P.cch = G->create_event_channel();
	assert_non_null(P.sch);
	assert_non_null(P.cch);
	nonblock(P.sch->fd);
	nonblock(P.cch->fd);
	assert_int_equal(G->create_id(P.sch, &P.lid, &P, RDMA_PS_TCP), 0);
	assert_int_equal(G->bind_addr(P.lid, (struct sockaddr *)&srv), 0);
	assert_int_equal(G->listen(P.lid, 8), 0);
	assert_int_equal(G->create_id(P.cch, &P.c.id, &P.c, RDMA_PS_TCP), 0);
	assert_int_equal(G->resolve_addr(P.c.id, NULL, (struct sockaddr *)&srv, 1000), 0);
	ev_expect(P.cch, RDMA_CM_EVENT_ADDR_RESOLVED, 0);
	assert_int_equal(G->resolve_route(P.c.id, 1000), 0);
	ev_expect(P.cch, RDMA_CM_EVENT_ROUTE_RESOLVED, 0);
}

static void
pair_up(const struct cfg *cfg)
{
	struct rdma_conn_param cp = {
		.responder_resources = RDMA_MAX_RESP_RES, .initiator_depth = RDMA_MAX_INIT_DEPTH,
		.retry_count = 7, .rnr_retry_count = 7,
		.private_data = "hello", .private_data_len = 5,
	};
	struct rdma_conn_param ap = {
		.responder_resources = RDMA_MAX_RESP_RES, .initiator_depth = RDMA_MAX_INIT_DEPTH,
		.rnr_retry_count = cfg->cli_rnr, .private_data = "ok", .private_data_len = 2,
	};
	struct rdma_cm_event *ev;
	struct rdma_cm_id *sid;

	pair_prepare();
	side_res(&P.c, P.c.id, 64, false, cfg->sq_wr, RW_ACCESS);
	assert_int_equal(G->connect(P.c.id, &cp), 0);
	ev = ev_get(P.sch, RDMA_CM_EVENT_CONNECT_REQUEST);
	sid = ev->id;
	assert_ptr_equal(ev->listen_id, P.lid);
	P.req_pdata_len = ev->param.conn.private_data_len;
	memcpy(P.req_pdata, ev->param.conn.private_data, P.req_pdata_len);
	assert_int_equal(G->ack_cm_event(ev), 0);
	side_res(&P.s, sid, cfg->rcq_depth, cfg->srv_srq, 64, cfg->srv_access);
	assert_int_equal(G->accept(sid, &ap), 0);
	ev = ev_get(P.cch, RDMA_CM_EVENT_ESTABLISHED);
	P.rep_pdata_len = ev->param.conn.private_data_len;
	memcpy(P.rep_pdata, ev->param.conn.private_data, P.rep_pdata_len);
	assert_int_equal(G->ack_cm_event(ev), 0);
	ev_expect(P.sch, RDMA_CM_EVENT_ESTABLISHED, 0);
}

/* Free everything; the fabric must have seen no misuse and find no leak. */
static void
pair_down(void)
{
	side_free(&P.s);
	side_free(&P.c);
	if (P.lid != NULL)
		assert_int_equal(G->destroy_id(P.lid), 0);
	G->destroy_event_channel(P.sch);
	G->destroy_event_channel(P.cch);
	assert_int_equal(cnt().misuse, 0);
	assert_int_equal(mlx5_fake_reset(), 0);
}

/* A QP made by hand on a side's PD and CQs (and SRQ), every send signaled or not. */
static struct ibv_qp *
hand_qp_sig(struct side *s, bool sig_all)
{
	struct ibv_qp_init_attr qa = {
		.send_cq = s->scq, .recv_cq = s->rcq, .srq = s->srq, .qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 16, .max_recv_wr = 16, .max_send_sge = 1,
			 .max_recv_sge = 1 },
		.sq_sig_all = sig_all,
	};
	struct ibv_qp *qp = G->create_qp(s->pd, &qa);

	assert_non_null(qp);
	return qp;
}

static struct ibv_qp *
hand_qp(struct side *s)
{
	return hand_qp_sig(s, false);
}

/* Bring qp up towards dest with the attributes rdma_cm gives for id's connection. */
static void
hand_connect(struct rdma_cm_id *id, struct ibv_qp *qp, uint32_t dest, uint32_t rq_psn,
	     uint32_t sq_psn)
{
	struct ibv_qp_attr a;
	int mask;

	a.qp_state = IBV_QPS_INIT;
	assert_int_equal(G->init_qp_attr(id, &a, &mask), 0);
	assert_int_equal(G->modify_qp(qp, &a, mask), 0);
	a.qp_state = IBV_QPS_RTR;
	assert_int_equal(G->init_qp_attr(id, &a, &mask), 0);
	a.dest_qp_num = dest;
	a.rq_psn = rq_psn;
	assert_int_equal(G->modify_qp(qp, &a, mask), 0);
	a.qp_state = IBV_QPS_RTS;
	assert_int_equal(G->init_qp_attr(id, &a, &mask), 0);
	a.sq_psn = sq_psn;
	assert_int_equal(G->modify_qp(qp, &a, mask), 0);
}

/* ------------------------------------------------------------ devices */

/*
 * rdma_get_devices(): librdmacm's contexts, the ones its ids use, so that a
 * PD allocated on one serves cm_create_qp(); none at all is ENODEV; a list
 * not freed is a leak.
 */
static void
test_cm_devices(void **state)
{
	struct ibv_context **list;
	int n = -1;

	(void)state;
	assert_int_equal(mlx5_fake_reset(), 0);
	errno = 0;
	assert_null(G->rdma_get_devices(&n));
	assert_int_equal(errno, ENODEV);
	assert_int_equal(n, 0);

	pair_prepare();
	list = G->rdma_get_devices(&n);
	assert_non_null(list);
	assert_int_equal(n, 2);
	assert_null(list[2]);
	assert_string_equal(G->get_device_name(list[0]->device), SRV_DEV);
	assert_string_equal(G->get_device_name(list[1]->device), CLI_DEV);
	/* the client id resolved through CLI_DEV: its context is the list's */
	assert_ptr_equal(P.c.id->verbs, list[1]);
	/* a PD of the list's context serves the id's QP (side_res allocates one) */
	side_res(&P.c, P.c.id, 64, false, 16, RW_ACCESS);
	G->rdma_free_devices(list);
	/* the QPs, oldest first, and which are rdma_cm ids' */
	{
		struct ibv_qp *qps[2], *hand = hand_qp(&P.c);
		bool cm[2];

		assert_int_equal(mlx5_fake_qps(qps, cm, 1), 2);
		assert_ptr_equal(qps[0], P.c.qp);
		assert_int_equal(mlx5_fake_qps(qps, cm, 2), 2);
		assert_true(cm[0]);
		assert_ptr_equal(qps[1], hand);
		assert_false(cm[1]);
		assert_int_equal(G->destroy_qp(hand), 0);
		assert_int_equal(mlx5_fake_qps(NULL, NULL, 0), 1);
	}
	pair_down();

	/* a list not freed is counted as a leak */
	fabric();
	assert_non_null(G->rdma_get_devices(NULL));
	assert_int_equal(mlx5_fake_reset(), 1);
}

static void
test_devices(void **state)
{
	struct ibv_device_attr da;
	struct ibv_port_attr pa;
	struct ibv_device **list;
	struct ibv_context *ctx;
	union ibv_gid gid;
	int n = -1;

	(void)state;
	/* every entry of the table is set (rte_comch_mlx5_glue_set() checks it too) */
	{
		const struct rte_comch_mlx5_glue *g = G;
		size_t off;

		assert_string_equal(g->name, "mlx5_fake");
		for (off = offsetof(struct rte_comch_mlx5_glue, get_device_list);
		     off < sizeof(*g); off += sizeof(void (*)(void))) {
			void (*fn)(void);

			memcpy(&fn, (const char *)g + off, sizeof(fn));
			assert_non_null(fn);
		}
	}
	assert_int_equal(mlx5_fake_reset(), 0);
	/* none configured: none listed, like a machine without RDMA */
	list = G->get_device_list(&n);
	assert_non_null(list);
	assert_int_equal(n, 0);
	assert_null(list[0]);
	G->free_device_list(list);

	fabric();
	assert_int_equal(mlx5_fake_add_device(SRV_DEV, 1), -EEXIST);
	assert_int_equal(mlx5_fake_add_device("x", 3), -EINVAL);
	assert_int_equal(mlx5_fake_add_addr(SRV_DEV, 1, CLI_IP), -EEXIST);
	assert_int_equal(mlx5_fake_add_addr("nope", 1, "10.9.9.9"), -ENODEV);
	assert_int_equal(mlx5_fake_add_addr(SRV_DEV, 2, "10.9.9.9"), -EINVAL);
	assert_int_equal(mlx5_fake_add_addr(SRV_DEV, 1, "not-an-ip"), -EINVAL);
	list = G->get_device_list(&n);
	assert_int_equal(n, 2);
	assert_string_equal(G->get_device_name(list[0]), SRV_DEV);
	assert_string_equal(G->get_device_name(list[1]), CLI_DEV);
	ctx = G->open_device(list[0]);
	G->free_device_list(list);
	assert_non_null(ctx);
	assert_int_equal(G->query_device(ctx, &da), 0);
	assert_int_equal(da.phys_port_cnt, 1);
	assert_true(da.max_qp_wr >= 1024);
	assert_true(da.max_cqe >= 65535);
	assert_true(da.max_sge >= 2);
	assert_int_equal(G->query_port(ctx, 1, &pa), 0);
	assert_int_equal(pa.state, IBV_PORT_ACTIVE);
	assert_int_equal(pa.link_layer, IBV_LINK_LAYER_ETHERNET);
	assert_int_equal(pa.active_mtu, IBV_MTU_1024);
	assert_int_equal(G->query_port(ctx, 2, &pa), EINVAL);
	/* GID 0 link-local, GID 1 the RoCE v2 GID of 10.0.0.1 */
	assert_int_equal(G->query_gid(ctx, 1, 0, &gid), 0);
	assert_int_equal(gid.raw[0], 0xfe);
	assert_int_equal(gid.raw[1], 0x80);
	assert_int_equal(G->query_gid(ctx, 1, 1, &gid), 0);
	assert_int_equal(gid.raw[10], 0xff);
	assert_int_equal(gid.raw[11], 0xff);
	assert_int_equal(gid.raw[12], 10);
	assert_int_equal(gid.raw[15], 1);
	assert_int_equal(G->query_gid(ctx, 1, 7, &gid), 0);
	assert_int_equal(gid.global.interface_id, 0);  /* an empty entry */
	assert_int_equal(G->query_gid(ctx, 1, 1000, &gid), -1);
	assert_int_equal(errno, EINVAL);
	/* port MTU, and a dropped device's port */
	assert_int_equal(mlx5_fake_set_port_mtu(SRV_DEV, 1, IBV_MTU_4096), 0);
	assert_int_equal(mlx5_fake_drop_device(SRV_DEV, false), 0);
	assert_int_equal(G->query_port(ctx, 1, &pa), 0);
	assert_int_equal(pa.state, IBV_PORT_DOWN);
	assert_int_equal(pa.active_mtu, IBV_MTU_4096);
	assert_int_equal(G->close_device(ctx), 0);
	assert_int_equal(mlx5_fake_reset(), 0);
}

/* ------------------------------------------------------------ rdma_cm */

static void
test_cm_connect(void **state)
{
	struct cfg cfg = CFG;
	unsigned int i;

	(void)state;
	pair_up(&cfg);
	/* private data: the REQ's and REP's sizes, zero padded */
	assert_int_equal(P.req_pdata_len, 56);
	assert_memory_equal(P.req_pdata, "hello", 5);
	for (i = 5; i < P.req_pdata_len; i++)
		assert_int_equal(P.req_pdata[i], 0);
	assert_int_equal(P.rep_pdata_len, 196);
	assert_memory_equal(P.rep_pdata, "ok", 2);
	/* the passive id: the listener's context and channel, the server device */
	assert_ptr_equal(P.s.id->context, &P);
	assert_ptr_equal(P.s.id->channel, P.sch);
	assert_string_equal(P.s.id->verbs->device->name, SRV_DEV);
	assert_string_equal(P.c.id->verbs->device->name, CLI_DEV);
	assert_int_equal(P.c.id->port_num, 1);
	assert_int_equal(P.c.id->route.num_paths, 1);
	/* librdmacm took both QPs to RTS */
	assert_int_equal(P.c.qp->state, IBV_QPS_RTS);
	assert_int_equal(P.s.qp->state, IBV_QPS_RTS);
	assert_int_equal(mlx5_fake_qp_state(P.s.qp), IBV_QPS_RTS);
	/* drained: not readable, EAGAIN on the non-blocking fd */
	ev_none(P.cch);
	ev_none(P.sch);
	pair_down();
}

static void
test_cm_errors(void **state)
{
	struct sockaddr_in srv = sin_of(SRV_IP, PORT), other = sin_of(SRV_IP, PORT + 1);
	struct sockaddr_in foreign = sin_of("192.168.7.7", PORT), nobody = sin_of("10.0.0.99", 1);
	struct rdma_cm_id *id, *id2;
	struct rdma_cm_event *ev;
	struct ibv_context *ctx;
	struct ibv_device **list;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp_init_attr qa;

	(void)state;
	pair_prepare();
	/* bind: an address no device owns, a port taken */
	assert_int_equal(G->create_id(P.sch, &id, NULL, RDMA_PS_TCP), 0);
	assert_int_equal(G->bind_addr(id, (struct sockaddr *)&foreign), -1);
	assert_int_equal(errno, EADDRNOTAVAIL);
	assert_int_equal(G->bind_addr(id, (struct sockaddr *)&srv), -1);
	assert_int_equal(errno, EADDRINUSE);
	/* resolve to an address nobody owns: ADDR_ERROR */
	assert_int_equal(G->resolve_addr(id, NULL, (struct sockaddr *)&nobody, 100), 0);
	ev_expect(P.sch, RDMA_CM_EVENT_ADDR_ERROR, -ETIMEDOUT);
	/* connect before the route is resolved */
	assert_int_equal(G->connect(id, NULL), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(G->destroy_id(id), 0);

	/* a QP on a PD of another context than id->verbs */
	list = G->get_device_list(NULL);
	ctx = G->open_device(list[1]);
	G->free_device_list(list);
	pd = G->alloc_pd(ctx);
	cq = G->create_cq(ctx, 4, NULL, NULL, 0);
	memset(&qa, 0, sizeof(qa));
	qa.send_cq = cq;
	qa.recv_cq = cq;
	qa.qp_type = IBV_QPT_RC;
	qa.cap.max_send_wr = 1;
	qa.cap.max_recv_wr = 1;
	assert_int_equal(G->cm_create_qp(P.c.id, pd, &qa), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(G->destroy_cq(cq), 0);
	assert_int_equal(G->dealloc_pd(pd), 0);
	assert_int_equal(G->close_device(ctx), 0);

	/* a port nobody listens on: REJECTED, invalid service ID */
	side_res(&P.c, P.c.id, 64, false, 64, RW_ACCESS);
	assert_int_equal(G->destroy_id(P.lid), 0);
	P.lid = NULL;
	assert_int_equal(G->create_id(P.sch, &P.lid, NULL, RDMA_PS_TCP), 0);
	assert_int_equal(G->bind_addr(P.lid, (struct sockaddr *)&other), 0);
	assert_int_equal(G->listen(P.lid, 1), 0);
	assert_int_equal(G->connect(P.c.id, NULL), 0);
	ev = ev_get(P.cch, RDMA_CM_EVENT_REJECTED);
	assert_int_equal(ev->status, 8);
	/* an id with an event not acknowledged cannot be destroyed */
	assert_int_equal(G->destroy_id(P.c.id), -1);
	assert_int_equal(errno, EBUSY);
	assert_int_equal(G->ack_cm_event(ev), 0);
	assert_int_equal(G->ack_cm_event(ev), -1);
	ev_none(P.sch);
	side_free(&P.c);
	assert_int_equal(cnt().busy, 1);
	assert_int_equal(cnt().misuse, 1);
	assert_int_equal(G->destroy_id(P.lid), 0);
	P.lid = NULL;
	G->destroy_event_channel(P.sch);
	G->destroy_event_channel(P.cch);
	assert_int_equal(mlx5_fake_reset(), 0);

	/* reject: REJECTED, consumer defined, with the private data */
	pair_prepare();
	side_res(&P.c, P.c.id, 64, false, 64, RW_ACCESS);
	assert_int_equal(G->connect(P.c.id, NULL), 0);
	ev = ev_get(P.sch, RDMA_CM_EVENT_CONNECT_REQUEST);
	id2 = ev->id;
	assert_int_equal(G->ack_cm_event(ev), 0);
	assert_int_equal(G->reject(id2, "busy", 4), 0);
	ev = ev_get(P.cch, RDMA_CM_EVENT_REJECTED);
	assert_int_equal(ev->status, 28);
	assert_int_equal(ev->param.conn.private_data_len, 148);
	assert_memory_equal(ev->param.conn.private_data, "busy", 4);
	assert_int_equal(G->ack_cm_event(ev), 0);
	assert_int_equal(G->destroy_id(id2), 0);
	pair_down();

	/* a backlog of one: the second request waiting is refused */
	pair_prepare();
	assert_int_equal(G->destroy_id(P.lid), 0);
	assert_int_equal(G->create_id(P.sch, &P.lid, NULL, RDMA_PS_TCP), 0);
	assert_int_equal(G->bind_addr(P.lid, (struct sockaddr *)&srv), 0);
	assert_int_equal(G->listen(P.lid, 1), 0);
	side_res(&P.c, P.c.id, 64, false, 64, RW_ACCESS);
	assert_int_equal(G->connect(P.c.id, NULL), 0);
	assert_int_equal(G->create_id(P.cch, &id, NULL, RDMA_PS_TCP), 0);
	assert_int_equal(G->resolve_addr(id, NULL, (struct sockaddr *)&srv, 100), 0);
	ev_expect(P.cch, RDMA_CM_EVENT_ADDR_RESOLVED, 0);
	assert_int_equal(G->resolve_route(id, 100), 0);
	ev_expect(P.cch, RDMA_CM_EVENT_ROUTE_RESOLVED, 0);
	memset(&qa, 0, sizeof(qa));
	qa.send_cq = P.c.scq;
	qa.recv_cq = P.c.rcq;
	qa.qp_type = IBV_QPT_RC;
	qa.cap.max_send_wr = 1;
	assert_int_equal(G->cm_create_qp(id, P.c.pd, &qa), 0);
	assert_int_equal(G->connect(id, NULL), 0);
	ev_expect(P.cch, RDMA_CM_EVENT_REJECTED, 28);
	/* destroying the listener refuses the request it did not hand out */
	assert_int_equal(G->destroy_id(P.lid), 0);
	P.lid = NULL;
	ev_expect(P.cch, RDMA_CM_EVENT_REJECTED, 28);
	ev_none(P.sch);
	G->cm_destroy_qp(id);
	assert_int_equal(G->destroy_id(id), 0);
	pair_down();
}

static void
test_disconnect(void **state)
{
	struct cfg cfg = CFG;

	(void)state;
	pair_up(&cfg);
	assert_int_equal(post_recv(P.c.qp, 1, P.c.buf, 64, P.c.mr->lkey), 0);
	assert_int_equal(G->disconnect(P.c.id), 0);
	ev_expect(P.cch, RDMA_CM_EVENT_DISCONNECTED, 0);
	ev_expect(P.sch, RDMA_CM_EVENT_DISCONNECTED, 0);
	/* librdmacm moved the client's QP to ERR: its receive flushed */
	assert_int_equal(P.c.qp->state, IBV_QPS_ERR);
	wc_next(P.c.rcq, 1, IBV_WC_WR_FLUSH_ERR);
	/* the server's QP is its own: still RTS, and its requests time out */
	assert_int_equal(mlx5_fake_qp_state(P.s.qp), IBV_QPS_RTS);
	assert_int_equal(post(P.s.qp, IBV_WR_SEND, 2, P.s.buf, 8, P.s.mr->lkey, 0, NULL, 0), 0);
	wc_next(P.s.scq, 2, IBV_WC_RETRY_EXC_ERR);
	assert_int_equal(mlx5_fake_qp_state(P.s.qp), IBV_QPS_ERR);
	/* its own disconnect: no second event */
	assert_int_equal(G->disconnect(P.s.id), 0);
	ev_none(P.sch);
	ev_none(P.cch);
	assert_int_equal(cnt().retry_exceeded, 1);
	pair_down();
}

/* ------------------------------------------------------------ data */

static void
test_send_recv(void **state)
{
	struct cfg cfg = CFG;
	struct ibv_wc wc;
	uint8_t *src;

	(void)state;
	pair_up(&cfg);
	src = P.c.buf;
	memcpy(src, "first", 5);
	assert_int_equal(post_recv(P.s.qp, 10, P.s.buf, 64, P.s.mr->lkey), 0);
	assert_int_equal(post_recv(P.s.qp, 11, P.s.buf + 64, 64, P.s.mr->lkey), 0);
	assert_int_equal(post_recv(P.s.qp, 12, P.s.buf + 128, 64, P.s.mr->lkey), 0);
	/* unsignaled: no completion; signaled with immediate: one */
	assert_int_equal(post(P.c.qp, IBV_WR_SEND, 1, src, 5, P.c.mr->lkey, 0, NULL, 0), 0);
	assert_int_equal(post(P.c.qp, IBV_WR_SEND_WITH_IMM, 2, src, 5, P.c.mr->lkey,
			      IBV_SEND_SIGNALED, NULL, 0), 0);
	/* inline: the data is taken at post */
	memcpy(src + 8, "inline", 6);
	assert_int_equal(post(P.c.qp, IBV_WR_SEND, 3, src + 8, 6, 0xdead,
			      IBV_SEND_SIGNALED | IBV_SEND_INLINE, NULL, 0), 0);
	memcpy(src + 8, "XXXXXX", 6);
	wc = wc_next(P.c.scq, 2, IBV_WC_SUCCESS);
	assert_int_equal(wc.opcode, IBV_WC_SEND);
	assert_int_equal(wc.qp_num, P.c.qp->qp_num);
	wc_next(P.c.scq, 3, IBV_WC_SUCCESS);
	wc_none(P.c.scq);

	wc = wc_next(P.s.rcq, 10, IBV_WC_SUCCESS);
	assert_int_equal(wc.opcode, IBV_WC_RECV);
	assert_int_equal(wc.byte_len, 5);
	assert_int_equal(wc.wc_flags & IBV_WC_WITH_IMM, 0);
	assert_int_equal(wc.src_qp, P.c.qp->qp_num);
	assert_int_equal(wc.qp_num, P.s.qp->qp_num);
	wc = wc_next(P.s.rcq, 11, IBV_WC_SUCCESS);
	assert_int_equal(wc.wc_flags & IBV_WC_WITH_IMM, IBV_WC_WITH_IMM);
	assert_int_equal(ntohl(wc.imm_data), 0xc0ffee);
	wc_next(P.s.rcq, 12, IBV_WC_SUCCESS);
	assert_memory_equal(P.s.buf, "first", 5);
	assert_memory_equal(P.s.buf + 64, "first", 5);
	assert_memory_equal(P.s.buf + 128, "inline", 6);
	/* inline larger than max_inline_data, too many SGEs, bad opcode */
	assert_int_equal(post(P.c.qp, IBV_WR_SEND, 4, src, 65, 0, IBV_SEND_INLINE, NULL, 0),
			 EINVAL);
	{
		struct ibv_sge sge[3] = { { 0 } };
		struct ibv_send_wr wr = { .sg_list = sge, .num_sge = 3, .opcode = IBV_WR_SEND },
			*bad = NULL;

		assert_int_equal(G->post_send(P.c.qp, &wr, &bad), EINVAL);
		assert_ptr_equal(bad, &wr);
		wr.num_sge = 1;
		wr.opcode = IBV_WR_ATOMIC_CMP_AND_SWP;
		assert_int_equal(G->post_send(P.c.qp, &wr, &bad), EINVAL);
	}
	assert_int_equal(cnt().rnr_naks, 0);
	pair_down();
}

static void
test_write_then_send(void **state)
{
	struct cfg cfg = CFG;
	uint8_t *dst;

	(void)state;
	pair_up(&cfg);
	dst = P.s.buf + 1024;
	memcpy(P.c.buf, "payload!", 8);
	assert_int_equal(post_recv(P.s.qp, 1, P.s.buf, 64, P.s.mr->lkey), 0);
	assert_int_equal(post_recv(P.s.qp, 2, P.s.buf, 64, P.s.mr->lkey), 0);

	/* delay mode: nothing until progress; the WRITE lands first, in order */
	mlx5_fake_set_delay(true);
	assert_int_equal(post(P.c.qp, IBV_WR_RDMA_WRITE, 10, P.c.buf, 8, P.c.mr->lkey, 0, dst,
			      P.s.mr->rkey), 0);
	assert_int_equal(post(P.c.qp, IBV_WR_SEND, 11, P.c.buf, 4, P.c.mr->lkey,
			      IBV_SEND_SIGNALED, NULL, 0), 0);
	wc_none(P.s.rcq);
	assert_int_equal(dst[0], 0);
	assert_int_equal(mlx5_fake_progress(1), 1);
	assert_memory_equal(dst, "payload!", 8);
	wc_none(P.s.rcq);
	wc_none(P.c.scq);
	assert_int_equal(mlx5_fake_progress(0), 1);
	wc_next(P.s.rcq, 1, IBV_WC_SUCCESS);
	wc_next(P.c.scq, 11, IBV_WC_SUCCESS);
	mlx5_fake_set_delay(false);

	/* reordering: the WRITE's data shows with the SEND that follows it */
	mlx5_fake_set_write_reorder(true);
	memcpy(P.c.buf, "second!!", 8);
	assert_int_equal(post(P.c.qp, IBV_WR_RDMA_WRITE, 12, P.c.buf, 8, P.c.mr->lkey, 0, dst,
			      P.s.mr->rkey), 0);
	wc_none(P.s.rcq);  /* the responder polling is no reason to place it */
	assert_memory_equal(dst, "payload!", 8);
	assert_int_equal(post(P.c.qp, IBV_WR_SEND, 13, P.c.buf, 4, P.c.mr->lkey,
			      IBV_SEND_SIGNALED, NULL, 0), 0);
	wc_next(P.s.rcq, 2, IBV_WC_SUCCESS);
	assert_memory_equal(dst, "second!!", 8);
	/* a WRITE alone lands when its requester polls its send CQ */
	memcpy(P.c.buf, "third!!!", 8);
	assert_int_equal(post(P.c.qp, IBV_WR_RDMA_WRITE, 14, P.c.buf, 8, P.c.mr->lkey,
			      IBV_SEND_SIGNALED, dst, P.s.mr->rkey), 0);
	assert_memory_equal(dst, "second!!", 8);
	wc_next(P.c.scq, 13, IBV_WC_SUCCESS);
	wc_next(P.c.scq, 14, IBV_WC_SUCCESS);
	assert_memory_equal(dst, "third!!!", 8);
	mlx5_fake_set_write_reorder(false);

	/* WRITE with immediate: consumes a receive, byte_len the length written */
	assert_int_equal(post_recv(P.s.qp, 3, P.s.buf, 64, P.s.mr->lkey), 0);
	assert_int_equal(post(P.c.qp, IBV_WR_RDMA_WRITE_WITH_IMM, 15, P.c.buf, 8, P.c.mr->lkey,
			      0, dst + 8, P.s.mr->rkey), 0);
	{
		struct ibv_wc wc = wc_next(P.s.rcq, 3, IBV_WC_SUCCESS);

		assert_int_equal(wc.opcode, IBV_WC_RECV_RDMA_WITH_IMM);
		assert_int_equal(wc.byte_len, 8);
		assert_int_equal(ntohl(wc.imm_data), 0xc0ffee);
	}
	assert_memory_equal(dst + 8, "third!!!", 8);
	pair_down();
}

static void
test_read(void **state)
{
	struct cfg cfg = CFG;

	(void)state;
	pair_up(&cfg);
	memcpy(P.s.buf + 100, "remote", 6);
	assert_int_equal(post(P.c.qp, IBV_WR_RDMA_READ, 1, P.c.buf, 6, P.c.mr->lkey,
			      IBV_SEND_SIGNALED, P.s.buf + 100, P.s.mr->rkey), 0);
	assert_int_equal(wc_next(P.c.scq, 1, IBV_WC_SUCCESS).byte_len, 6);
	assert_memory_equal(P.c.buf, "remote", 6);
	pair_down();

	/* from an MR without remote read */
	cfg.srv_access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE;
	pair_up(&cfg);
	assert_int_equal(post(P.c.qp, IBV_WR_RDMA_READ, 1, P.c.buf, 6, P.c.mr->lkey, 0,
			      P.s.buf, P.s.mr->rkey), 0);
	wc_next(P.c.scq, 1, IBV_WC_REM_ACCESS_ERR);
	assert_int_equal(mlx5_fake_qp_state(P.s.qp), IBV_QPS_ERR);
	pair_down();
}

/* A WRITE the responder must refuse: REM_ACCESS_ERR, both QPs in ERR, every
 * outstanding work request flushed, unsignaled ones too. */
static void
expect_write_refused(const void *raddr, uint32_t rkey)
{
	struct mlx5_fake_counters c;

	assert_int_equal(post_recv(P.s.qp, 100, P.s.buf, 64, P.s.mr->lkey), 0);
	assert_int_equal(post_recv(P.s.qp, 101, P.s.buf, 64, P.s.mr->lkey), 0);
	mlx5_fake_set_delay(true);
	assert_int_equal(post(P.c.qp, IBV_WR_RDMA_WRITE, 1, P.c.buf, 16, P.c.mr->lkey, 0, raddr,
			      rkey), 0);
	assert_int_equal(post(P.c.qp, IBV_WR_SEND, 2, P.c.buf, 4, P.c.mr->lkey, 0, NULL, 0), 0);
	assert_int_equal(post(P.c.qp, IBV_WR_SEND, 3, P.c.buf, 4, P.c.mr->lkey,
			      IBV_SEND_SIGNALED, NULL, 0), 0);
	assert_int_equal(mlx5_fake_progress(0), 1);
	mlx5_fake_set_delay(false);
	wc_next(P.c.scq, 1, IBV_WC_REM_ACCESS_ERR);
	wc_next(P.c.scq, 2, IBV_WC_WR_FLUSH_ERR);
	wc_next(P.c.scq, 3, IBV_WC_WR_FLUSH_ERR);
	wc_none(P.c.scq);
	assert_int_equal(mlx5_fake_qp_state(P.c.qp), IBV_QPS_ERR);
	assert_int_equal(P.c.qp->state, IBV_QPS_RTS);  /* updated by modify_qp only */
	assert_int_equal(mlx5_fake_qp_state(P.s.qp), IBV_QPS_ERR);
	wc_next(P.s.rcq, 100, IBV_WC_WR_FLUSH_ERR);
	wc_next(P.s.rcq, 101, IBV_WC_WR_FLUSH_ERR);
	assert_int_equal(((uint8_t *)P.s.buf)[BUF - 1], 0);
	/* posted in ERR: flushed at once */
	assert_int_equal(post(P.c.qp, IBV_WR_SEND, 4, P.c.buf, 4, P.c.mr->lkey, 0, NULL, 0), 0);
	wc_next(P.c.scq, 4, IBV_WC_WR_FLUSH_ERR);
	c = cnt();
	assert_int_equal(c.rem_access_errors, 1);
	assert_int_equal(c.flushed, 5);
}

static void
test_write_refused(void **state)
{
	struct cfg cfg = CFG;

	(void)state;
	/* past the end of the MR */
	pair_up(&cfg);
	memset(P.c.buf, 0xab, 16);
	expect_write_refused(P.s.buf + BUF - 8, P.s.mr->rkey);
	pair_down();
	/* an lkey is not an rkey */
	pair_up(&cfg);
	expect_write_refused(P.s.buf, P.s.mr->lkey);
	pair_down();
	/* an MR without remote write */
	cfg.srv_access = IBV_ACCESS_LOCAL_WRITE;
	pair_up(&cfg);
	expect_write_refused(P.s.buf, P.s.mr->rkey);
	pair_down();
	/* the rkey of an MR deregistered */
	cfg.srv_access = RW_ACCESS;
	pair_up(&cfg);
	assert_int_equal(G->dereg_mr(P.s.mr), 0);
	P.s.mr = G->reg_mr(P.s.pd, P.s.buf, 64, IBV_ACCESS_LOCAL_WRITE);
	expect_write_refused(P.s.buf, 0x1052);
	pair_down();
}

static void
test_local_errors(void **state)
{
	struct cfg cfg = CFG;

	(void)state;
	/* a local SGE outside its MR: LOC_PROT_ERR, the QP in ERR */
	pair_up(&cfg);
	assert_int_equal(post(P.c.qp, IBV_WR_SEND, 1, P.c.buf + BUF - 4, 8, P.c.mr->lkey, 0,
			      NULL, 0), 0);
	wc_next(P.c.scq, 1, IBV_WC_LOC_PROT_ERR);
	assert_int_equal(mlx5_fake_qp_state(P.c.qp), IBV_QPS_ERR);
	assert_int_equal(mlx5_fake_qp_state(P.s.qp), IBV_QPS_RTS);
	pair_down();
	/* a wrong lkey (the MR's rkey) */
	pair_up(&cfg);
	assert_int_equal(post(P.c.qp, IBV_WR_SEND, 1, P.c.buf, 8, P.c.mr->rkey, 0, NULL, 0), 0);
	wc_next(P.c.scq, 1, IBV_WC_LOC_PROT_ERR);
	pair_down();
	/* a message longer than the receive: LOC_LEN_ERR at the responder */
	pair_up(&cfg);
	assert_int_equal(post_recv(P.s.qp, 7, P.s.buf, 8, P.s.mr->lkey), 0);
	assert_int_equal(post(P.c.qp, IBV_WR_SEND, 1, P.c.buf, 16, P.c.mr->lkey, 0, NULL, 0), 0);
	wc_next(P.s.rcq, 7, IBV_WC_LOC_LEN_ERR);
	wc_next(P.c.scq, 1, IBV_WC_REM_INV_REQ_ERR);
	assert_int_equal(mlx5_fake_qp_state(P.c.qp), IBV_QPS_ERR);
	assert_int_equal(mlx5_fake_qp_state(P.s.qp), IBV_QPS_ERR);
	assert_int_equal(cnt().local_errors, 1);
	pair_down();
	/* a receive buffer outside its MR */
	pair_up(&cfg);
	assert_int_equal(post_recv(P.s.qp, 7, P.s.buf + BUF - 2, 8, P.s.mr->lkey), 0);
	assert_int_equal(post(P.c.qp, IBV_WR_SEND, 1, P.c.buf, 4, P.c.mr->lkey, 0, NULL, 0), 0);
	wc_next(P.s.rcq, 7, IBV_WC_LOC_PROT_ERR);
	wc_next(P.c.scq, 1, IBV_WC_REM_OP_ERR);
	pair_down();
}

static void
test_rnr(void **state)
{
	struct cfg cfg = CFG;
	struct ibv_wc wc;
	int i;

	(void)state;
	/* rnr_retry 2 (the server's accept sets the client's): 3 NAKs, then the error */
	cfg.cli_rnr = 2;
	pair_up(&cfg);
	assert_int_equal(post(P.c.qp, IBV_WR_SEND, 1, P.c.buf, 4, P.c.mr->lkey, 0, NULL, 0), 0);
	for (i = 0; i < 10 && G->poll_cq(P.c.scq, 1, &wc) == 0; i++)
		;
	assert_int_equal(wc.wr_id, 1);
	assert_int_equal(wc.status, IBV_WC_RNR_RETRY_EXC_ERR);
	assert_int_equal(cnt().rnr_naks, 3);
	assert_int_equal(cnt().rnr_retry_exceeded, 1);
	assert_int_equal(mlx5_fake_qp_state(P.c.qp), IBV_QPS_ERR);
	pair_down();

	/* a receive posted between two retries saves it */
	pair_up(&cfg);
	assert_int_equal(post(P.c.qp, IBV_WR_SEND, 1, P.c.buf, 4, P.c.mr->lkey,
			      IBV_SEND_SIGNALED, NULL, 0), 0);
	wc_none(P.c.scq);
	assert_int_equal(post_recv(P.s.qp, 5, P.s.buf, 64, P.s.mr->lkey), 0);
	wc_next(P.c.scq, 1, IBV_WC_SUCCESS);
	wc_next(P.s.rcq, 5, IBV_WC_SUCCESS);
	assert_int_equal(cnt().rnr_naks, 2);
	pair_down();

	/* rnr_retry 7: retried for ever, until a receive comes */
	cfg.cli_rnr = 7;
	pair_up(&cfg);
	assert_int_equal(post(P.c.qp, IBV_WR_SEND, 1, P.c.buf, 4, P.c.mr->lkey,
			      IBV_SEND_SIGNALED, NULL, 0), 0);
	for (i = 0; i < 100; i++)
		wc_none(P.c.scq);
	assert_true(cnt().rnr_naks > 100);
	assert_int_equal(mlx5_fake_qp_state(P.c.qp), IBV_QPS_RTS);
	assert_int_equal(post_recv(P.s.qp, 5, P.s.buf, 64, P.s.mr->lkey), 0);
	wc_next(P.c.scq, 1, IBV_WC_SUCCESS);
	wc_next(P.s.rcq, 5, IBV_WC_SUCCESS);
	pair_down();
}

static void
test_cq_overflow(void **state)
{
	struct cfg cfg = CFG;
	struct ibv_cq *cq;
	struct ibv_wc wc;
	int i;

	(void)state;
	/* cqe is rounded up like mlx5: room for cqe + 1, a power of two, less one */
	fabric();
	{
		struct ibv_device **list = G->get_device_list(NULL);
		struct ibv_context *ctx = G->open_device(list[0]);

		G->free_device_list(list);
		cq = G->create_cq(ctx, 100, NULL, NULL, 0);
		assert_int_equal(cq->cqe, 127);
		assert_int_equal(G->destroy_cq(cq), 0);
		assert_null(G->create_cq(ctx, 0, NULL, NULL, 0));
		assert_int_equal(errno, EINVAL);
		assert_int_equal(G->close_device(ctx), 0);
	}
	assert_int_equal(mlx5_fake_reset(), 0);

	/* a receive CQ of 3: the 4th completion overflows it */
	cfg.rcq_depth = 3;
	pair_up(&cfg);
	assert_int_equal(P.s.rcq->cqe, 3);
	for (i = 0; i < 5; i++)
		assert_int_equal(post_recv(P.s.qp, i, P.s.buf, 64, P.s.mr->lkey), 0);
	for (i = 0; i < 4; i++)
		assert_int_equal(post(P.c.qp, IBV_WR_SEND, i, P.c.buf, 4, P.c.mr->lkey, 0, NULL,
				      0), 0);
	assert_int_equal(cnt().cq_overflows, 1);
	/* the CQ is in error: polls fail; the QPs completing into it are in ERR */
	assert_true(G->poll_cq(P.s.rcq, 1, &wc) < 0);
	assert_int_equal(mlx5_fake_qp_state(P.s.qp), IBV_QPS_ERR);
	/* so the next request finds no one */
	assert_int_equal(post(P.c.qp, IBV_WR_SEND, 9, P.c.buf, 4, P.c.mr->lkey, 0, NULL, 0), 0);
	wc_next(P.c.scq, 9, IBV_WC_RETRY_EXC_ERR);
	assert_true(cnt().cqes_dropped >= 1);
	pair_down();
}

static void
test_comp_channel(void **state)
{
	struct cfg cfg = CFG;
	struct ibv_cq *cq;
	void *ctx;
	int i;

	(void)state;
	pair_up(&cfg);
	for (i = 0; i < 8; i++)
		assert_int_equal(post_recv(P.s.qp, i, P.s.buf, 64, P.s.mr->lkey), 0);
	/* nothing armed: a completion raises no event */
	assert_int_equal(G->get_cq_event(P.s.ch, &cq, &ctx), -1);
	assert_int_equal(errno, EAGAIN);
	assert_int_equal(post(P.c.qp, IBV_WR_SEND, 1, P.c.buf, 4, P.c.mr->lkey, 0, NULL, 0), 0);
	assert_false(readable(P.s.ch->fd));
	/* arming with a completion already in the CQ raises none either */
	assert_int_equal(G->req_notify_cq(P.s.rcq, 0), 0);
	assert_false(readable(P.s.ch->fd));
	wc_next(P.s.rcq, 0, IBV_WC_SUCCESS);
	/* the next one does, once */
	assert_int_equal(post(P.c.qp, IBV_WR_SEND, 2, P.c.buf, 4, P.c.mr->lkey, 0, NULL, 0), 0);
	assert_true(readable(P.s.ch->fd));
	assert_int_equal(post(P.c.qp, IBV_WR_SEND, 3, P.c.buf, 4, P.c.mr->lkey, 0, NULL, 0), 0);
	assert_int_equal(G->get_cq_event(P.s.ch, &cq, &ctx), 0);
	assert_ptr_equal(cq, P.s.rcq);
	assert_ptr_equal(ctx, &P.s);
	assert_false(readable(P.s.ch->fd));
	assert_int_equal(G->get_cq_event(P.s.ch, &cq, &ctx), -1);
	assert_int_equal(errno, EAGAIN);
	G->ack_cq_events(P.s.rcq, 1);
	/* a lost event: the arm is consumed, nothing written */
	mlx5_fake_lose_cq_events(1);
	assert_int_equal(G->req_notify_cq(P.s.rcq, 0), 0);
	assert_int_equal(post(P.c.qp, IBV_WR_SEND, 4, P.c.buf, 4, P.c.mr->lkey, 0, NULL, 0), 0);
	assert_false(readable(P.s.ch->fd));
	assert_int_equal(post(P.c.qp, IBV_WR_SEND, 5, P.c.buf, 4, P.c.mr->lkey, 0, NULL, 0), 0);
	assert_false(readable(P.s.ch->fd));
	assert_int_equal(cnt().cq_events_lost, 1);
	/* solicited only: an unsolicited completion does not raise it, a solicited one does */
	assert_int_equal(G->req_notify_cq(P.s.rcq, 1), 0);
	assert_int_equal(post(P.c.qp, IBV_WR_SEND, 6, P.c.buf, 4, P.c.mr->lkey, 0, NULL, 0), 0);
	assert_false(readable(P.s.ch->fd));
	assert_int_equal(post(P.c.qp, IBV_WR_SEND, 7, P.c.buf, 4, P.c.mr->lkey,
			      IBV_SEND_SOLICITED, NULL, 0), 0);
	assert_true(readable(P.s.ch->fd));
	assert_int_equal(G->get_cq_event(P.s.ch, &cq, &ctx), 0);
	assert_int_equal(cnt().cq_events, 2);
	/* a channel in use cannot go */
	assert_int_equal(G->destroy_comp_channel(P.s.ch), EBUSY);
	/* destroying the CQ with the event not acknowledged: EBUSY where rdma-core hangs */
	G->cm_destroy_qp(P.s.id);
	assert_int_equal(G->destroy_cq(P.s.rcq), EBUSY);
	assert_int_equal(cnt().busy, 1);
	G->ack_cq_events(P.s.rcq, 1);
	assert_int_equal(cnt().misuse, 1);  /* the EBUSY destroy */
	side_free(&P.s);
	side_free(&P.c);
	assert_int_equal(G->destroy_id(P.lid), 0);
	G->destroy_event_channel(P.sch);
	G->destroy_event_channel(P.cch);
	assert_int_equal(mlx5_fake_reset(), 0);
}

/* ------------------------------------------------------------ QPs */

static void
test_qp_states(void **state)
{
	struct cfg cfg = CFG;
	struct ibv_qp *a, *b;
	struct ibv_qp_attr at;
	int mask;

	(void)state;
	pair_up(&cfg);
	a = hand_qp(&P.c);
	b = hand_qp(&P.s);
	assert_int_equal(a->state, IBV_QPS_RESET);
	/* RESET: no receive, no send, no jump to RTR */
	assert_int_equal(post_recv(a, 1, P.c.buf, 8, P.c.mr->lkey), EINVAL);
	memset(&at, 0, sizeof(at));
	at.qp_state = IBV_QPS_RTR;
	assert_int_equal(G->modify_qp(a, &at, IBV_QP_STATE), EINVAL);
	/* RESET to INIT: a required attribute missing, one not allowed */
	at.qp_state = IBV_QPS_INIT;
	at.port_num = 1;
	assert_int_equal(G->modify_qp(a, &at, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT),
			 EINVAL);
	assert_int_equal(G->modify_qp(a, &at, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
				      IBV_QP_ACCESS_FLAGS | IBV_QP_AV), EINVAL);
	at.port_num = 2;
	assert_int_equal(G->modify_qp(a, &at, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
				      IBV_QP_ACCESS_FLAGS), EINVAL);
	assert_int_equal(a->state, IBV_QPS_RESET);
	at.qp_state = IBV_QPS_INIT;
	assert_int_equal(G->init_qp_attr(P.c.id, &at, &mask), 0);
	assert_int_equal(G->modify_qp(a, &at, mask), 0);
	assert_int_equal(a->state, IBV_QPS_INIT);
	/* INIT: receives yes, sends no, no jump to RTS */
	assert_int_equal(post_recv(a, 1, P.c.buf, 8, P.c.mr->lkey), 0);
	assert_int_equal(post(a, IBV_WR_SEND, 1, P.c.buf, 4, P.c.mr->lkey, 0, NULL, 0), EINVAL);
	at.qp_state = IBV_QPS_RTS;
	assert_int_equal(G->init_qp_attr(P.c.id, &at, &mask), 0);
	assert_int_equal(G->modify_qp(a, &at, mask), EINVAL);
	/* RTR without the destination QP number */
	at.qp_state = IBV_QPS_RTR;
	assert_int_equal(G->init_qp_attr(P.c.id, &at, &mask), 0);
	assert_int_equal(G->modify_qp(a, &at, mask & ~IBV_QP_DEST_QPN), EINVAL);
	/* to ERR from anywhere: the receive flushes */
	at.qp_state = IBV_QPS_ERR;
	assert_int_equal(G->modify_qp(a, &at, IBV_QP_STATE), 0);
	assert_int_equal(a->state, IBV_QPS_ERR);
	wc_next(P.c.rcq, 1, IBV_WC_WR_FLUSH_ERR);
	/* and back to RESET, then up by hand towards b with rdma_cm's attributes */
	at.qp_state = IBV_QPS_RESET;
	assert_int_equal(G->modify_qp(a, &at, IBV_QP_STATE), 0);
	hand_connect(P.c.id, a, b->qp_num, 0x200, 0x100);
	hand_connect(P.s.id, b, a->qp_num, 0x100, 0x200);
	assert_int_equal(a->state, IBV_QPS_RTS);
	assert_int_equal(post_recv(b, 3, P.s.buf, 64, P.s.mr->lkey), 0);
	assert_int_equal(post(a, IBV_WR_SEND, 4, P.c.buf, 4, P.c.mr->lkey, IBV_SEND_SIGNALED,
			      NULL, 0), 0);
	wc_next(P.c.scq, 4, IBV_WC_SUCCESS);
	wc_next(P.s.rcq, 3, IBV_WC_SUCCESS);
	assert_int_equal(G->destroy_qp(a), 0);
	assert_int_equal(G->destroy_qp(b), 0);
	/* sq_sig_all: an unsignaled send completes too */
	a = hand_qp_sig(&P.c, true);
	b = hand_qp(&P.s);
	hand_connect(P.c.id, a, b->qp_num, 0x200, 0x100);
	hand_connect(P.s.id, b, a->qp_num, 0x100, 0x200);
	assert_int_equal(post_recv(b, 3, P.s.buf, 64, P.s.mr->lkey), 0);
	assert_int_equal(post(a, IBV_WR_SEND, 5, P.c.buf, 4, P.c.mr->lkey, 0, NULL, 0), 0);
	wc_next(P.c.scq, 5, IBV_WC_SUCCESS);
	wc_next(P.s.rcq, 3, IBV_WC_SUCCESS);
	/* the rdma_cm QPs are not disturbed */
	assert_int_equal(mlx5_fake_qp_state(P.c.qp), IBV_QPS_RTS);
	/* a QP in use keeps its CQ */
	assert_int_equal(G->destroy_cq(P.c.scq), EBUSY);
	assert_int_equal(G->destroy_qp(a), 0);
	assert_int_equal(G->destroy_qp(b), 0);

	/* PSNs that do not match: the responder drops everything */
	a = hand_qp(&P.c);
	b = hand_qp(&P.s);
	hand_connect(P.c.id, a, b->qp_num, 0x200, 0x100);
	hand_connect(P.s.id, b, a->qp_num, 0x101, 0x200);
	assert_int_equal(post_recv(b, 3, P.s.buf, 64, P.s.mr->lkey), 0);
	assert_int_equal(post(a, IBV_WR_SEND, 4, P.c.buf, 4, P.c.mr->lkey, 0, NULL, 0), 0);
	wc_next(P.c.scq, 4, IBV_WC_RETRY_EXC_ERR);
	wc_none(P.s.rcq);
	assert_int_equal(G->destroy_qp(a), 0);
	assert_int_equal(G->destroy_qp(b), 0);
	/* a responder QP that does not allow remote write (its access flags) */
	a = hand_qp(&P.c);
	b = hand_qp(&P.s);
	hand_connect(P.c.id, a, b->qp_num, 0x200, 0x100);
	hand_connect(P.s.id, b, a->qp_num, 0x100, 0x200);
	memset(&at, 0, sizeof(at));
	at.qp_state = IBV_QPS_RTS;
	at.qp_access_flags = IBV_ACCESS_REMOTE_READ;
	assert_int_equal(G->modify_qp(b, &at, IBV_QP_STATE | IBV_QP_ACCESS_FLAGS), 0);
	assert_int_equal(post(a, IBV_WR_RDMA_WRITE, 5, P.c.buf, 4, P.c.mr->lkey, 0, P.s.buf,
			      P.s.mr->rkey), 0);
	wc_next(P.c.scq, 5, IBV_WC_REM_ACCESS_ERR);
	assert_int_equal(mlx5_fake_qp_state(b), IBV_QPS_ERR);
	assert_int_equal(G->destroy_qp(a), 0);
	assert_int_equal(G->destroy_qp(b), 0);
	/* a QP number nobody has */
	a = hand_qp(&P.c);
	hand_connect(P.c.id, a, 0xabcde, 0x200, 0x100);
	assert_int_equal(post(a, IBV_WR_SEND, 4, P.c.buf, 4, P.c.mr->lkey, 0, NULL, 0), 0);
	wc_next(P.c.scq, 4, IBV_WC_RETRY_EXC_ERR);
	assert_int_equal(G->destroy_qp(a), 0);
	pair_down();
}

static void
test_queue_slots(void **state)
{
	struct cfg cfg = CFG;
	int i;

	(void)state;
	cfg.sq_wr = 4;
	pair_up(&cfg);
	for (i = 0; i < 16; i++)
		assert_int_equal(post_recv(P.s.qp, i, P.s.buf, 64, P.s.mr->lkey), 0);
	/* executed is not free: slots come back when a later completion is polled */
	for (i = 0; i < 3; i++)
		assert_int_equal(post(P.c.qp, IBV_WR_SEND, i, P.c.buf, 4, P.c.mr->lkey, 0, NULL,
				      0), 0);
	assert_int_equal(post(P.c.qp, IBV_WR_SEND, 3, P.c.buf, 4, P.c.mr->lkey,
			      IBV_SEND_SIGNALED, NULL, 0), 0);
	assert_int_equal(post(P.c.qp, IBV_WR_SEND, 4, P.c.buf, 4, P.c.mr->lkey, 0, NULL, 0),
			 ENOMEM);
	wc_next(P.c.scq, 3, IBV_WC_SUCCESS);
	for (i = 4; i < 8; i++)
		assert_int_equal(post(P.c.qp, IBV_WR_SEND, i, P.c.buf, 4, P.c.mr->lkey, 0, NULL,
				      0), 0);
	assert_int_equal(post(P.c.qp, IBV_WR_SEND, 8, P.c.buf, 4, P.c.mr->lkey, 0, NULL, 0),
			 ENOMEM);
	pair_down();
	/* receive slots: consumed is not free either; a bad WR stops the list there */
	pair_up(&cfg);
	{
		struct ibv_sge sge[3] = { { .addr = (uintptr_t)P.s.buf, .length = 8,
					    .lkey = P.s.mr->lkey } };
		struct ibv_recv_wr w2 = { .wr_id = 101, .sg_list = sge, .num_sge = 3 };
		struct ibv_recv_wr w1 = { .wr_id = 100, .sg_list = sge, .num_sge = 1,
					  .next = &w2 }, *bad = NULL;

		assert_int_equal(G->post_recv(P.s.qp, &w1, &bad), EINVAL);
		assert_ptr_equal(bad, &w2);
		assert_int_equal(G->modify_qp(P.s.qp, &(struct ibv_qp_attr){
			.qp_state = IBV_QPS_ERR }, IBV_QP_STATE), 0);
		wc_next(P.s.rcq, 100, IBV_WC_WR_FLUSH_ERR);
		wc_none(P.s.rcq);
	}
	pair_down();
	pair_up(&cfg);
	for (i = 0; i < 64; i++)
		assert_int_equal(post_recv(P.s.qp, i, P.s.buf, 64, P.s.mr->lkey), 0);
	assert_int_equal(post_recv(P.s.qp, 64, P.s.buf, 64, P.s.mr->lkey), ENOMEM);
	assert_int_equal(post(P.c.qp, IBV_WR_SEND, 1, P.c.buf, 4, P.c.mr->lkey, 0, NULL, 0), 0);
	assert_int_equal(post_recv(P.s.qp, 64, P.s.buf, 64, P.s.mr->lkey), ENOMEM);
	wc_next(P.s.rcq, 0, IBV_WC_SUCCESS);
	assert_int_equal(post_recv(P.s.qp, 64, P.s.buf, 64, P.s.mr->lkey), 0);
	pair_down();
}

static void
test_srq(void **state)
{
	struct cfg cfg = CFG;
	struct ibv_qp *a, *b;

	(void)state;
	cfg.srv_srq = true;
	pair_up(&cfg);
	assert_int_equal(post_recv(P.s.qp, 1, P.s.buf, 64, P.s.mr->lkey), EINVAL);
	/* a second QP pair whose server end shares the SRQ */
	a = hand_qp(&P.c);
	b = hand_qp(&P.s);
	hand_connect(P.c.id, a, b->qp_num, 7, 9);
	hand_connect(P.s.id, b, a->qp_num, 9, 7);
	assert_int_equal(post_srq(P.s.srq, 1, P.s.buf, 64, P.s.mr->lkey), 0);
	assert_int_equal(post_srq(P.s.srq, 2, P.s.buf + 64, 64, P.s.mr->lkey), 0);
	memcpy(P.c.buf, "AB", 2);
	assert_int_equal(post(a, IBV_WR_SEND, 1, P.c.buf + 1, 1, P.c.mr->lkey, 0, NULL, 0), 0);
	assert_int_equal(post(P.c.qp, IBV_WR_SEND, 2, P.c.buf, 1, P.c.mr->lkey, 0, NULL, 0), 0);
	assert_int_equal(wc_next(P.s.rcq, 1, IBV_WC_SUCCESS).qp_num, b->qp_num);
	assert_int_equal(wc_next(P.s.rcq, 2, IBV_WC_SUCCESS).qp_num, P.s.qp->qp_num);
	assert_int_equal(P.s.buf[0], 'B');
	assert_int_equal(P.s.buf[64], 'A');
	/* an SRQ in use stays; an SRQ's receives survive a QP's error */
	assert_int_equal(G->destroy_srq(P.s.srq), EBUSY);
	assert_int_equal(post_srq(P.s.srq, 3, P.s.buf, 64, P.s.mr->lkey), 0);
	assert_int_equal(mlx5_fake_qp_to_err(b), 0);
	wc_none(P.s.rcq);
	assert_int_equal(post(P.c.qp, IBV_WR_SEND, 4, P.c.buf, 1, P.c.mr->lkey, 0, NULL, 0), 0);
	wc_next(P.s.rcq, 3, IBV_WC_SUCCESS);
	assert_int_equal(G->destroy_qp(a), 0);
	assert_int_equal(G->destroy_qp(b), 0);
	pair_down();
}

/* ------------------------------------------------------------ faults */

static void
test_faults(void **state)
{
	struct sockaddr_in srv = sin_of(SRV_IP, PORT);
	struct cfg cfg = CFG;
	struct rdma_cm_id *id;
	struct ibv_mr *mr;
	int i;

	(void)state;
	pair_up(&cfg);
	/* failed creations: NULL and errno, then back to normal */
	mlx5_fake_fail_next(MLX5_FAKE_OP_REG_MR, 2, 0);
	for (i = 0; i < 2; i++) {
		assert_null(G->reg_mr(P.c.pd, P.c.buf, 64, IBV_ACCESS_LOCAL_WRITE));
		assert_int_equal(errno, ENOMEM);
	}
	mr = G->reg_mr(P.c.pd, P.c.buf, 64, IBV_ACCESS_LOCAL_WRITE);
	assert_non_null(mr);
	assert_int_equal(G->dereg_mr(mr), 0);
	mlx5_fake_fail_next(MLX5_FAKE_OP_ALLOC_PD, 1, EAGAIN);
	assert_null(G->alloc_pd(P.c.id->verbs));
	assert_int_equal(errno, EAGAIN);
	mlx5_fake_fail_next(MLX5_FAKE_OP_CREATE_CQ, 1, 0);
	assert_null(G->create_cq(P.c.id->verbs, 4, NULL, NULL, 0));
	mlx5_fake_fail_next(MLX5_FAKE_OP_CREATE_QP, 1, 0);
	{
		struct ibv_qp_init_attr qa = { .send_cq = P.c.scq, .recv_cq = P.c.rcq,
			.qp_type = IBV_QPT_RC, .cap = { .max_send_wr = 1 } };

		assert_null(G->create_qp(P.c.pd, &qa));
		assert_int_equal(errno, ENOMEM);
	}
	mlx5_fake_fail_next(MLX5_FAKE_OP_CREATE_ID, 1, 0);
	assert_int_equal(G->create_id(P.cch, &id, NULL, RDMA_PS_TCP), -1);
	assert_int_equal(errno, ENOMEM);
	/* a registration that is not allowed: remote write without local write */
	assert_null(G->reg_mr(P.c.pd, P.c.buf, 64, IBV_ACCESS_REMOTE_WRITE));
	assert_int_equal(errno, EINVAL);
	assert_int_equal(cnt().faults, 6);

	/* a connection dropped: both QPs to ERR (flushing), DISCONNECTED at both ends */
	assert_int_equal(post_recv(P.s.qp, 1, P.s.buf, 64, P.s.mr->lkey), 0);
	assert_int_equal(post_recv(P.c.qp, 2, P.c.buf, 64, P.c.mr->lkey), 0);
	assert_int_equal(mlx5_fake_drop_conn(P.c.id), 0);
	ev_expect(P.cch, RDMA_CM_EVENT_DISCONNECTED, 0);
	ev_expect(P.sch, RDMA_CM_EVENT_DISCONNECTED, 0);
	wc_next(P.s.rcq, 1, IBV_WC_WR_FLUSH_ERR);
	wc_next(P.c.rcq, 2, IBV_WC_WR_FLUSH_ERR);
	assert_int_equal(mlx5_fake_drop_conn(P.c.id), -EINVAL);
	pair_down();

	/* a device taken down silently: requests to it time out, no event */
	pair_up(&cfg);
	assert_int_equal(mlx5_fake_drop_device(SRV_DEV, true), 0);
	assert_int_equal(post(P.c.qp, IBV_WR_SEND, 1, P.c.buf, 4, P.c.mr->lkey, 0, NULL, 0), 0);
	wc_next(P.c.scq, 1, IBV_WC_RETRY_EXC_ERR);
	ev_none(P.cch);
	ev_none(P.sch);
	/* while it is down its addresses do not resolve */
	assert_int_equal(G->create_id(P.cch, &id, NULL, RDMA_PS_TCP), 0);
	assert_int_equal(G->resolve_addr(id, NULL, (struct sockaddr *)&srv, 100), 0);
	ev_expect(P.cch, RDMA_CM_EVENT_ADDR_ERROR, -ETIMEDOUT);
	assert_int_equal(G->destroy_id(id), 0);
	assert_int_equal(mlx5_fake_restore_device(SRV_DEV), 0);
	pair_down();

	/* a device dropped: every QP with it to ERR, its connections end */
	pair_up(&cfg);
	assert_int_equal(mlx5_fake_drop_device(CLI_DEV, false), 0);
	assert_int_equal(mlx5_fake_qp_state(P.c.qp), IBV_QPS_ERR);
	assert_int_equal(mlx5_fake_qp_state(P.s.qp), IBV_QPS_ERR);
	ev_expect(P.cch, RDMA_CM_EVENT_DISCONNECTED, 0);
	ev_expect(P.sch, RDMA_CM_EVENT_DISCONNECTED, 0);
	assert_int_equal(cnt().qp_async_errors, 2);
	pair_down();

	/* a link dropped: the same between two devices; a QP moved to ERR alone */
	pair_up(&cfg);
	assert_int_equal(mlx5_fake_drop_link(SRV_DEV, "nope"), -ENODEV);
	assert_int_equal(mlx5_fake_drop_link(SRV_DEV, CLI_DEV), 2);
	ev_expect(P.cch, RDMA_CM_EVENT_DISCONNECTED, 0);
	ev_expect(P.sch, RDMA_CM_EVENT_DISCONNECTED, 0);
	pair_down();
	pair_up(&cfg);
	assert_int_equal(mlx5_fake_qp_to_err(P.s.qp), 0);
	assert_int_equal(P.s.qp->state, IBV_QPS_RTS);
	assert_int_equal(mlx5_fake_qp_state(P.s.qp), IBV_QPS_ERR);
	assert_int_equal(mlx5_fake_qp_state(P.c.qp), IBV_QPS_RTS);
	ev_none(P.cch);
	pair_down();
}

static void
test_reset_counts_leaks(void **state)
{
	struct ibv_device **list;
	struct ibv_context *ctx;

	(void)state;
	fabric();
	list = G->get_device_list(NULL);
	ctx = G->open_device(list[0]);
	G->free_device_list(list);
	assert_non_null(G->alloc_pd(ctx));
	assert_non_null(G->create_comp_channel(ctx));
	/* context, PD, channel */
	assert_int_equal(mlx5_fake_reset(), 3);
	assert_int_equal(mlx5_fake_reset(), 0);
}

/* ------------------------------------------------------------ threads */

#define NB_MSGS 3000
#define WINDOW 16

static void *
server_thread(void *arg)
{
	uint32_t expect = 0;
	struct ibv_wc wc[8];
	int n, i, bad = 0;

	(void)arg;
	while (expect < NB_MSGS) {
		n = G->poll_cq(P.s.rcq, 8, wc);
		if (n < 0)
			return (void *)1;
		for (i = 0; i < n; i++) {
			uint32_t v;

			if (wc[i].status != IBV_WC_SUCCESS)
				return (void *)2;
			memcpy(&v, P.s.buf + wc[i].wr_id * 8, 4);
			bad += v != expect++;
			if (post_recv(P.s.qp, wc[i].wr_id, P.s.buf + wc[i].wr_id * 8, 8,
				      P.s.mr->lkey) != 0)
				return (void *)3;
		}
	}
	return bad != 0 ? (void *)4 : NULL;
}

/* Poll the client's send CQ once: the completions counted in *done. */
static void
reap_sends(uint32_t *done)
{
	struct ibv_wc wc;
	int n = G->poll_cq(P.c.scq, 1, &wc);

	assert_true(n >= 0);
	if (n == 1) {
		assert_int_equal(wc.status, IBV_WC_SUCCESS);
		(*done)++;
	}
}

static void
test_threads(void **state)
{
	struct cfg cfg = CFG;
	uint32_t i, done = 0;
	pthread_t t;
	void *ret;

	(void)state;
	pair_up(&cfg);
	for (i = 0; i < WINDOW; i++)
		assert_int_equal(post_recv(P.s.qp, i, P.s.buf + i * 8, 8, P.s.mr->lkey), 0);
	assert_int_equal(pthread_create(&t, NULL, server_thread, NULL), 0);
	/* more sends than receives: RNR retries (7: for ever) until reposted */
	for (i = 0; i < NB_MSGS; i++) {
		while (i - done >= 32)
			reap_sends(&done);
		assert_int_equal(post(P.c.qp, IBV_WR_SEND, i, &i, 4, 0,
				      IBV_SEND_SIGNALED | IBV_SEND_INLINE, NULL, 0), 0);
	}
	while (done < NB_MSGS)
		reap_sends(&done);
	assert_int_equal(pthread_join(t, &ret), 0);
	assert_null(ret);
	pair_down();
}

/* Blocking fds: get_cq_event() and get_cm_event() wait for the event. */
static void *
cq_waiter(void *arg)
{
	struct ibv_cq *cq = NULL;
	void *ctx;

	(void)arg;
	if (G->get_cq_event(P.s.ch, &cq, &ctx) != 0)
		return (void *)1;
	return cq;
}

static void *
cm_waiter(void *arg)
{
	struct rdma_cm_event *ev = NULL;
	int type;

	(void)arg;
	if (G->get_cm_event(P.sch, &ev) != 0)
		return (void *)1;
	type = ev->event;
	G->ack_cm_event(ev);
	return type == RDMA_CM_EVENT_DISCONNECTED ? NULL : (void *)2;
}

static void
test_blocking_waits(void **state)
{
	struct cfg cfg = CFG;
	pthread_t t;
	void *ret;

	(void)state;
	pair_up(&cfg);
	assert_int_equal(fcntl(P.s.ch->fd, F_SETFL, 0), 0);
	assert_int_equal(fcntl(P.sch->fd, F_SETFL, 0), 0);
	assert_int_equal(G->req_notify_cq(P.s.rcq, 0), 0);
	assert_int_equal(pthread_create(&t, NULL, cq_waiter, NULL), 0);
	assert_int_equal(post_recv(P.s.qp, 1, P.s.buf, 64, P.s.mr->lkey), 0);
	assert_int_equal(post(P.c.qp, IBV_WR_SEND, 1, P.c.buf, 4, P.c.mr->lkey, 0, NULL, 0), 0);
	assert_int_equal(pthread_join(t, &ret), 0);
	assert_ptr_equal(ret, P.s.rcq);
	G->ack_cq_events(P.s.rcq, 1);
	wc_next(P.s.rcq, 1, IBV_WC_SUCCESS);
	assert_int_equal(pthread_create(&t, NULL, cm_waiter, NULL), 0);
	assert_int_equal(G->disconnect(P.c.id), 0);
	assert_int_equal(pthread_join(t, &ret), 0);
	assert_null(ret);
	ev_expect(P.cch, RDMA_CM_EVENT_DISCONNECTED, 0);
	pair_down();
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_devices),
		cmocka_unit_test(test_cm_devices),
		cmocka_unit_test(test_cm_connect),
		cmocka_unit_test(test_cm_errors),
		cmocka_unit_test(test_disconnect),
		cmocka_unit_test(test_send_recv),
		cmocka_unit_test(test_write_then_send),
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_write_refused),
		cmocka_unit_test(test_local_errors),
		cmocka_unit_test(test_rnr),
		cmocka_unit_test(test_cq_overflow),
		cmocka_unit_test(test_comp_channel),
		cmocka_unit_test(test_qp_states),
		cmocka_unit_test(test_queue_slots),
		cmocka_unit_test(test_srq),
		cmocka_unit_test(test_faults),
		cmocka_unit_test(test_reset_counts_leaks),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_blocking_waits),
	};

	if (getenv("COMCH_TEST_FILTER") != NULL)
		cmocka_set_test_filter(getenv("COMCH_TEST_FILTER"));
	return cmocka_run_group_tests_name("mlx5_fake", tests, NULL, NULL);
}
