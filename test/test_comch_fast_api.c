/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Fast path API: device capabilities, consumer-event registration, creation
 * and configuration of consumers and producers, with every documented error
 * (NULL arguments, mmap not started or without PCI_READ_WRITE, connection not
 * established, per-connection limits, immediate data length, task pool
 * configuration, not IDLE); a consumer on ordinary process memory is taken.
 */

#include <errno.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>

#include "comch_test_common.h"

static uint8_t user_mem[8192];

static void
dummy_recv_cb(struct rte_comch_consumer_task_post_recv *t, union rte_comch_data tud,
	      union rte_comch_data cud)
{
	(void)t;
	(void)tud;
	(void)cud;
}

static void
dummy_send_cb(struct rte_comch_producer_task_send *t, union rte_comch_data tud,
	      union rte_comch_data cud)
{
	(void)t;
	(void)tud;
	(void)cud;
}

static void
dummy_event_cb(struct rte_comch_connection *conn, uint32_t id)
{
	(void)conn;
	(void)id;
}

/*
 * A started mmap of 8 KiB with the given permissions, from alloc_memrange or
 * user_mem, registered with both devices of p: either end's consumers may use it.
 */
static struct rte_comch_mmap *
mmap_new(const struct ct_pair *p, uint32_t perms, bool alloc, bool start)
{
	struct rte_comch_mmap *m = rte_comch_mmap_create();

	assert_non_null(m);
	assert_int_equal(rte_comch_mmap_add_dev(m, p->dpu), 0);
	assert_int_equal(rte_comch_mmap_add_dev(m, p->host), 0);
	if (alloc)
		assert_int_equal(rte_comch_mmap_alloc_memrange(m, sizeof(user_mem)), 0);
	else
		assert_int_equal(rte_comch_mmap_set_memrange(m, user_mem, sizeof(user_mem)), 0);
	assert_int_equal(rte_comch_mmap_set_permissions(m, perms), 0);
	if (start)
		assert_int_equal(rte_comch_mmap_start(m), 0);
	return m;
}

static void
mmap_free(struct rte_comch_mmap *m, bool started)
{
	if (started)
		assert_int_equal(rte_comch_mmap_stop(m), 0);
	assert_int_equal(rte_comch_mmap_destroy(m), 0);
}

#define PERM_RW (RTE_COMCH_MMAP_PERM_LOCAL_READ_WRITE | RTE_COMCH_MMAP_PERM_PCI_READ_WRITE)

static void
check_caps(struct rte_comch_dev *dev)
{
	struct rte_comch_dev_info info;

	assert_int_equal(rte_comch_dev_info_get(dev, &info), 0);
	assert_true(info.capa & RTE_COMCH_CAPA_PRODUCER);
	assert_true(info.capa & RTE_COMCH_CAPA_CONSUMER);
	if (ct_driver_is("mlx5")) {
		/* Its device's limits, clamped by the driver's (the shm ones). */
		assert_true(info.max_fast_tasks >= 1024 && info.max_fast_tasks <= 65536);
		assert_true(info.max_buf_size >= 4096 && info.max_buf_size <= (uint64_t)1 << 30);
	} else {
		assert_int_equal(info.max_fast_tasks, 65536);
		assert_true(info.max_buf_size == (uint64_t)1 << 30);
	}
	assert_int_equal(info.max_producers, 256);
	assert_int_equal(info.max_consumers, 256);
	assert_int_equal(info.max_imm_data_len, RTE_COMCH_MAX_IMM_DATA_LEN);
}

static void
test_fast_caps(void **state)
{
	struct rte_comch_dev *dpu, *host;
	char d[32];

	(void)state;
	ct_domain(d, sizeof(d));
	dpu = ct_dev_open("domain=%s,role=dpu", d);
	assert_non_null(dpu);
	host = ct_dev_open("domain=%s,role=host", d);
	assert_non_null(host);
	check_caps(dpu);
	check_caps(host);
	assert_int_equal(rte_comch_dev_close(host), 0);
	assert_int_equal(rte_comch_dev_close(dpu), 0);
}

static void
test_consumer_event_register(void **state)
{
	struct rte_comch_dev *dpu, *host;
	struct rte_comch_dev_rep *rep;
	struct rte_comch_server *srv;
	struct rte_comch_client *cli;
	struct ct_pair p;
	char d[32];

	(void)state;
	ct_domain(d, sizeof(d));
	dpu = ct_dev_open("domain=%s,role=dpu", d);
	host = ct_dev_open("domain=%s,role=host", d);
	assert_non_null(dpu);
	assert_non_null(host);
	rep = rte_comch_dev_rep_open(dpu, "pf0");
	assert_non_null(rep);
	srv = rte_comch_server_create(dpu, rep, "reg");
	cli = rte_comch_client_create(host, "reg");
	assert_non_null(srv);
	assert_non_null(cli);

	assert_int_equal(rte_comch_server_event_consumer_register(NULL, dummy_event_cb,
		dummy_event_cb), -EINVAL);
	assert_int_equal(rte_comch_server_event_consumer_register(srv, NULL, dummy_event_cb),
			 -EINVAL);
	assert_int_equal(rte_comch_server_event_consumer_register(srv, dummy_event_cb, NULL),
			 -EINVAL);
	assert_int_equal(rte_comch_server_event_consumer_register(srv, dummy_event_cb,
		dummy_event_cb), 0);
	assert_int_equal(rte_comch_client_event_consumer_register(NULL, dummy_event_cb,
		dummy_event_cb), -EINVAL);
	assert_int_equal(rte_comch_client_event_consumer_register(cli, NULL, dummy_event_cb),
			 -EINVAL);
	assert_int_equal(rte_comch_client_event_consumer_register(cli, dummy_event_cb, NULL),
			 -EINVAL);
	assert_int_equal(rte_comch_client_event_consumer_register(cli, dummy_event_cb,
		dummy_event_cb), 0);
	assert_int_equal(rte_comch_client_destroy(cli), 0);
	assert_int_equal(rte_comch_server_destroy(srv), 0);
	assert_int_equal(rte_comch_dev_rep_close(rep), 0);
	assert_int_equal(rte_comch_dev_close(host), 0);
	assert_int_equal(rte_comch_dev_close(dpu), 0);

	/* only while IDLE */
	ct_fast_up(&p, NULL, CT_FAST_ONE);
	assert_int_equal(rte_comch_server_event_consumer_register(p.srv.server, dummy_event_cb,
		dummy_event_cb), -EBUSY);
	assert_int_equal(rte_comch_client_event_consumer_register(p.cli.client, dummy_event_cb,
		dummy_event_cb), -EBUSY);
	ct_pair_close(&p);
}

static void
test_consumer_create_errors(void **state)
{
	struct rte_comch_mmap *rw, *idle, *local, *ro, *user;
	struct rte_comch_consumer *c, *c2;
	enum rte_comch_ctx_state st;
	struct ct_pair p;
	uint32_t id, id2;

	(void)state;
	ct_fast_up(&p, NULL, CT_FAST_ONE);
	rw = mmap_new(&p, PERM_RW, true, true);
	idle = mmap_new(&p, PERM_RW, true, false);
	local = mmap_new(&p, RTE_COMCH_MMAP_PERM_LOCAL_READ_WRITE, true, true);
	ro = mmap_new(&p, RTE_COMCH_MMAP_PERM_LOCAL_READ_WRITE | RTE_COMCH_MMAP_PERM_PCI_READ_ONLY,
		      true, true);
	user = mmap_new(&p, PERM_RW, false, true);

	rte_errno = 0;
	assert_null(rte_comch_consumer_create(NULL, rw));
	assert_int_equal(rte_errno, EINVAL);
	rte_errno = 0;
	assert_null(rte_comch_consumer_create(p.sconn, NULL));
	assert_int_equal(rte_errno, EINVAL);
	rte_errno = 0;
	assert_null(rte_comch_consumer_create(p.sconn, idle));
	assert_int_equal(rte_errno, EPERM);
	rte_errno = 0;
	assert_null(rte_comch_consumer_create(p.sconn, local));
	assert_int_equal(rte_errno, EPERM);
	rte_errno = 0;
	assert_null(rte_comch_consumer_create(p.cconn, ro));
	assert_int_equal(rte_errno, EPERM);
	/*
	 * Ordinary process memory (set_memrange): taken on both ends by every
	 * driver (shm, whose peer cannot map it, stages it: see test_comch_fast_data)
	 */
	c = rte_comch_consumer_create(p.sconn, user);
	assert_non_null(c);
	c2 = rte_comch_consumer_create(p.cconn, user);
	assert_non_null(c2);
	assert_int_equal(rte_comch_mmap_stop(user), -EBUSY);
	assert_int_equal(rte_comch_consumer_destroy(c), 0);
	assert_int_equal(rte_comch_consumer_destroy(c2), 0);

	/* two consumers, one on each end, may share an mmap */
	c = rte_comch_consumer_create(p.sconn, rw);
	assert_non_null(c);
	c2 = rte_comch_consumer_create(p.cconn, rw);
	assert_non_null(c2);
	assert_int_equal(rte_comch_ctx_get_state(rte_comch_consumer_as_ctx(c), &st), 0);
	assert_int_equal(st, RTE_COMCH_CTX_STATE_IDLE);
	/* consumers hold their mmap */
	assert_int_equal(rte_comch_mmap_stop(rw), -EBUSY);

	rte_errno = 0;
	assert_null(rte_comch_consumer_as_ctx(NULL));
	assert_int_equal(rte_errno, EINVAL);
	assert_int_equal(rte_comch_consumer_get_id(NULL, &id), -EINVAL);
	assert_int_equal(rte_comch_consumer_get_id(c, NULL), -EINVAL);
	assert_int_equal(rte_comch_consumer_get_id(c, &id), 0);
	assert_int_equal(rte_comch_consumer_get_id(c2, &id2), 0);
	assert_int_equal(rte_comch_consumer_destroy(NULL), -EINVAL);

	/* not IDLE: STARTING, then RUNNING */
	assert_int_equal(rte_comch_consumer_task_post_recv_set_conf(c, dummy_recv_cb,
		dummy_recv_cb, 4), 0);
	assert_int_equal(rte_comch_pe_connect_ctx(p.pe, rte_comch_consumer_as_ctx(c)), 0);
	assert_int_equal(rte_comch_ctx_start(rte_comch_consumer_as_ctx(c)), -EINPROGRESS);
	assert_int_equal(rte_comch_consumer_destroy(c), -EBUSY);
	assert_int_equal(ct_fast_wait_state(&p, rte_comch_consumer_as_ctx(c),
					    RTE_COMCH_CTX_STATE_RUNNING), 0);
	assert_int_equal(ct_fast_wait_known(&p, &p.cli, id, true), 0);
	assert_int_equal(rte_comch_consumer_destroy(c), -EBUSY);
	assert_int_equal(rte_comch_ctx_stop(rte_comch_consumer_as_ctx(c)), -EINPROGRESS);
	assert_int_equal(ct_fast_wait_state(&p, rte_comch_consumer_as_ctx(c),
					    RTE_COMCH_CTX_STATE_IDLE), 0);
	assert_int_equal(rte_comch_consumer_destroy(c), 0);
	assert_int_equal(rte_comch_mmap_stop(rw), -EBUSY);
	assert_int_equal(rte_comch_consumer_destroy(c2), 0);

	mmap_free(rw, true);
	mmap_free(idle, false);
	mmap_free(local, true);
	mmap_free(ro, true);
	mmap_free(user, true);
	ct_pair_close(&p);
}

/* Whether obj starts a cache line. */
static bool
on_a_line(const void *obj)
{
	return ((uintptr_t)obj & (RTE_CACHE_LINE_SIZE - 1)) == 0;
}

/*
 * The objects lcores write as they run start a cache line (and, allocated in
 * whole lines, end one): calloc() would pack a neighbour of the heap into
 * their first or last line, and another lcore writing that neighbour would
 * take the line from them at every write (a MsgQ producer's progress spent a
 * fifth of its time on one such load of its link).
 */
static void
test_objects_on_cache_lines(void **state)
{
	struct rte_comch_producer *prod;
	struct rte_comch_consumer *c;
	struct rte_comch_mmap *rw;
	struct ct_pair p;

	(void)state;
	ct_fast_up(&p, NULL, CT_FAST_ONE);
	rw = mmap_new(&p, PERM_RW, true, true);
	assert_true(on_a_line(p.pe));
	assert_true(on_a_line(p.sconn));
	assert_true(on_a_line(p.cconn));
	prod = rte_comch_producer_create(p.sconn);
	c = rte_comch_consumer_create(p.cconn, rw);
	assert_non_null(prod);
	assert_non_null(c);
	assert_true(on_a_line(prod));
	assert_true(on_a_line(c));
	assert_int_equal(rte_comch_producer_destroy(prod), 0);
	assert_int_equal(rte_comch_consumer_destroy(c), 0);
	mmap_free(rw, true);
	ct_pair_close(&p);
}

/* A connection that ended but stays allocated: no new producer or consumer on it. */
static void
test_conn_not_established(void **state)
{
	struct rte_comch_mmap *rw;
	struct ct_prod pr;
	struct ct_pair p;

	(void)state;
	/* the server's end, held by a server-side producer, after the client stopped */
	ct_fast_up(&p, NULL, CT_FAST_ONE);
	rw = mmap_new(&p, PERM_RW, true, true);
	ct_prod_new(&pr, p.sconn, p.pe, 4, 4096, true);
	ct_ctx_stop_wait(p.cpe, p.cli.ctx);
	assert_int_equal(ct_fast_wait_count(&p, &p.srv.nb_disconnect, 1), 0);
	rte_errno = 0;
	assert_null(rte_comch_consumer_create(p.sconn, rw));
	assert_int_equal(rte_errno, ENOTCONN);
	rte_errno = 0;
	assert_null(rte_comch_producer_create(p.sconn));
	assert_int_equal(rte_errno, ENOTCONN);
	assert_int_equal(ct_prod_send(&pr, 0, 16, 0, NULL), -ENOTCONN);
	/*
	 * The producer holds the ended connection's memory, not the server's stop
	 * (no connection is left to close: IDLE at once); the destroy waits for it.
	 */
	assert_int_equal(rte_comch_ctx_stop(p.srv.ctx), 0);
	assert_int_equal(rte_comch_server_destroy(p.srv.server), -EBUSY);
	ct_prod_stop(&p, &pr);
	ct_prod_free(&pr);
	mmap_free(rw, true);
	ct_pair_close(&p);

	/* the client's end, held by a client-side producer, after server_disconnect */
	ct_fast_up(&p, NULL, CT_FAST_SPLIT);
	rw = mmap_new(&p, PERM_RW, true, true);
	ct_prod_new(&pr, p.cconn, p.cpe, 4, 4096, true);
	assert_int_equal(rte_comch_server_disconnect(p.srv.server, p.sconn), 0);
	assert_int_equal(ct_fast_wait_state(&p, p.cli.ctx, RTE_COMCH_CTX_STATE_IDLE), 0);
	rte_errno = 0;
	assert_null(rte_comch_consumer_create(p.cconn, rw));
	assert_int_equal(rte_errno, ENOTCONN);
	rte_errno = 0;
	assert_null(rte_comch_producer_create(p.cconn));
	assert_int_equal(rte_errno, ENOTCONN);
	assert_int_equal(ct_prod_send(&pr, 0, 16, 0, NULL), -ENOTCONN);
	ct_prod_stop(&p, &pr);
	ct_prod_free(&pr);
	mmap_free(rw, true);
	ct_pair_close(&p);
}

static void
test_consumer_imm_len(void **state)
{
	struct rte_comch_consumer *c;
	struct rte_comch_mmap *rw;
	struct rte_comch_ctx *ctx;
	struct ct_pair p;
	uint32_t len = 99;

	(void)state;
	ct_fast_up(&p, NULL, CT_FAST_ONE);
	rw = mmap_new(&p, PERM_RW, true, true);
	c = rte_comch_consumer_create(p.cconn, rw);
	assert_non_null(c);
	ctx = rte_comch_consumer_as_ctx(c);
	assert_int_equal(rte_comch_consumer_get_imm_data_len(c, &len), 0);
	assert_int_equal(len, 0);
	assert_int_equal(rte_comch_consumer_get_imm_data_len(NULL, &len), -EINVAL);
	assert_int_equal(rte_comch_consumer_get_imm_data_len(c, NULL), -EINVAL);
	assert_int_equal(rte_comch_consumer_set_imm_data_len(NULL, 1), -EINVAL);
	assert_int_equal(rte_comch_consumer_set_imm_data_len(c, RTE_COMCH_MAX_IMM_DATA_LEN + 1),
			 -EINVAL);
	assert_int_equal(rte_comch_consumer_set_imm_data_len(c, UINT32_MAX), -EINVAL);
	assert_int_equal(rte_comch_consumer_get_imm_data_len(c, &len), 0);
	assert_int_equal(len, 0);
	assert_int_equal(rte_comch_consumer_set_imm_data_len(c, RTE_COMCH_MAX_IMM_DATA_LEN), 0);
	assert_int_equal(rte_comch_consumer_get_imm_data_len(c, &len), 0);
	assert_int_equal(len, RTE_COMCH_MAX_IMM_DATA_LEN);
	assert_int_equal(rte_comch_consumer_set_imm_data_len(c, 5), 0);

	/* not IDLE: STARTING, RUNNING */
	assert_int_equal(rte_comch_consumer_task_post_recv_set_conf(c, dummy_recv_cb,
		dummy_recv_cb, 2), 0);
	assert_int_equal(rte_comch_pe_connect_ctx(p.pe, ctx), 0);
	assert_int_equal(rte_comch_ctx_start(ctx), -EINPROGRESS);
	assert_int_equal(rte_comch_consumer_set_imm_data_len(c, 8), -EBUSY);
	assert_int_equal(ct_fast_wait_state(&p, ctx, RTE_COMCH_CTX_STATE_RUNNING), 0);
	assert_int_equal(rte_comch_consumer_set_imm_data_len(c, 8), -EBUSY);
	assert_int_equal(rte_comch_consumer_get_imm_data_len(c, &len), 0);
	assert_int_equal(len, 5);
	assert_int_equal(rte_comch_ctx_stop(ctx), -EINPROGRESS);
	assert_int_equal(ct_fast_wait_state(&p, ctx, RTE_COMCH_CTX_STATE_IDLE), 0);
	/* IDLE again: configurable */
	assert_int_equal(rte_comch_consumer_set_imm_data_len(c, 8), 0);
	assert_int_equal(rte_comch_consumer_get_imm_data_len(c, &len), 0);
	assert_int_equal(len, 8);
	assert_int_equal(rte_comch_consumer_destroy(c), 0);
	mmap_free(rw, true);
	ct_pair_close(&p);
}

static void
test_post_recv_conf_errors(void **state)
{
	struct rte_comch_dev_info info;
	struct rte_comch_consumer *c, *noconf;
	struct rte_comch_mmap *rw;
	struct rte_comch_ctx *ctx;
	struct ct_pair p;

	(void)state;
	ct_fast_up(&p, NULL, CT_FAST_SPLIT);
	assert_int_equal(rte_comch_dev_info_get(p.host, &info), 0);
	rw = mmap_new(&p, PERM_RW, true, true);
	c = rte_comch_consumer_create(p.cconn, rw);
	noconf = rte_comch_consumer_create(p.cconn, rw);
	assert_non_null(c);
	assert_non_null(noconf);
	ctx = rte_comch_consumer_as_ctx(c);

	assert_int_equal(rte_comch_consumer_task_post_recv_set_conf(NULL, dummy_recv_cb,
		dummy_recv_cb, 4), -EINVAL);
	assert_int_equal(rte_comch_consumer_task_post_recv_set_conf(c, NULL, dummy_recv_cb, 4),
			 -EINVAL);
	assert_int_equal(rte_comch_consumer_task_post_recv_set_conf(c, dummy_recv_cb, NULL, 4),
			 -EINVAL);
	assert_int_equal(rte_comch_consumer_task_post_recv_set_conf(c, dummy_recv_cb,
		dummy_recv_cb, 0), -EINVAL);
	assert_int_equal(rte_comch_consumer_task_post_recv_set_conf(c, dummy_recv_cb,
		dummy_recv_cb, info.max_fast_tasks + 1), -EINVAL);
	assert_int_equal(rte_comch_consumer_task_post_recv_set_conf(c, dummy_recv_cb,
		dummy_recv_cb, info.max_fast_tasks), 0);
	assert_int_equal(rte_comch_consumer_task_post_recv_set_conf(c, dummy_recv_cb,
		dummy_recv_cb, 4), 0);

	/* start needs an engine, then the mandatory configuration */
	assert_int_equal(rte_comch_ctx_start(ctx), -ENOTCONN);
	assert_int_equal(rte_comch_pe_connect_ctx(p.cpe, rte_comch_consumer_as_ctx(noconf)), 0);
	assert_int_equal(rte_comch_ctx_start(rte_comch_consumer_as_ctx(noconf)), -EINVAL);
	assert_int_equal(rte_comch_pe_connect_ctx(p.cpe, ctx), 0);
	assert_int_equal(rte_comch_ctx_start(ctx), -EINPROGRESS);
	assert_int_equal(rte_comch_ctx_start(ctx), -EBUSY);
	assert_int_equal(rte_comch_consumer_task_post_recv_set_conf(c, dummy_recv_cb,
		dummy_recv_cb, 8), -EBUSY);
	assert_int_equal(ct_fast_wait_state(&p, ctx, RTE_COMCH_CTX_STATE_RUNNING), 0);
	assert_int_equal(rte_comch_consumer_task_post_recv_set_conf(c, dummy_recv_cb,
		dummy_recv_cb, 8), -EBUSY);
	assert_int_equal(rte_comch_ctx_stop(ctx), -EINPROGRESS);
	assert_int_equal(ct_fast_wait_state(&p, ctx, RTE_COMCH_CTX_STATE_IDLE), 0);
	assert_int_equal(rte_comch_consumer_destroy(c), 0);
	assert_int_equal(rte_comch_consumer_destroy(noconf), 0);
	mmap_free(rw, true);
	ct_pair_close(&p);
}

static void
test_producer_create_and_conf(void **state)
{
	struct rte_comch_producer *pr, *noconf, *many[16];
	struct rte_comch_dev_info info;
	enum rte_comch_ctx_state st;
	struct rte_comch_ctx *ctx;
	uint32_t id, ids[16];
	struct ct_pair p;
	int i, j, ret;

	(void)state;
	ct_fast_up(&p, NULL, CT_FAST_SPLIT);
	assert_int_equal(rte_comch_dev_info_get(p.dpu, &info), 0);
	rte_errno = 0;
	assert_null(rte_comch_producer_create(NULL));
	assert_int_equal(rte_errno, EINVAL);
	pr = rte_comch_producer_create(p.sconn);
	noconf = rte_comch_producer_create(p.sconn);
	assert_non_null(pr);
	assert_non_null(noconf);
	rte_errno = 0;
	assert_null(rte_comch_producer_as_ctx(NULL));
	assert_int_equal(rte_errno, EINVAL);
	ctx = rte_comch_producer_as_ctx(pr);
	assert_non_null(ctx);
	assert_int_equal(rte_comch_producer_get_id(NULL, &id), -EINVAL);
	assert_int_equal(rte_comch_producer_get_id(pr, NULL), -EINVAL);
	assert_int_equal(rte_comch_producer_get_id(pr, &id), 0);

	assert_int_equal(rte_comch_producer_task_send_set_conf(NULL, dummy_send_cb,
		dummy_send_cb, 4), -EINVAL);
	assert_int_equal(rte_comch_producer_task_send_set_conf(pr, NULL, dummy_send_cb, 4),
			 -EINVAL);
	assert_int_equal(rte_comch_producer_task_send_set_conf(pr, dummy_send_cb, NULL, 4),
			 -EINVAL);
	assert_int_equal(rte_comch_producer_task_send_set_conf(pr, dummy_send_cb,
		dummy_send_cb, 0), -EINVAL);
	assert_int_equal(rte_comch_producer_task_send_set_conf(pr, dummy_send_cb,
		dummy_send_cb, info.max_fast_tasks + 1), -EINVAL);
	assert_int_equal(rte_comch_producer_task_send_set_conf(pr, dummy_send_cb,
		dummy_send_cb, info.max_fast_tasks), 0);
	assert_int_equal(rte_comch_producer_task_send_set_conf(pr, dummy_send_cb,
		dummy_send_cb, 4), 0);

	assert_int_equal(rte_comch_ctx_start(ctx), -ENOTCONN);
	assert_int_equal(rte_comch_pe_connect_ctx(p.pe, rte_comch_producer_as_ctx(noconf)), 0);
	assert_int_equal(rte_comch_ctx_start(rte_comch_producer_as_ctx(noconf)), -EINVAL);
	assert_int_equal(rte_comch_pe_connect_ctx(p.pe, ctx), 0);
	/* a producer is RUNNING at once */
	assert_int_equal(rte_comch_ctx_start(ctx), 0);
	assert_int_equal(rte_comch_ctx_get_state(ctx, &st), 0);
	assert_int_equal(st, RTE_COMCH_CTX_STATE_RUNNING);
	assert_int_equal(rte_comch_producer_task_send_set_conf(pr, dummy_send_cb,
		dummy_send_cb, 8), -EBUSY);
	assert_int_equal(rte_comch_producer_destroy(NULL), -EINVAL);
	assert_int_equal(rte_comch_producer_destroy(pr), -EBUSY);
	ret = rte_comch_ctx_stop(ctx);
	assert_true(ret == 0 || ret == -EINPROGRESS);
	assert_int_equal(ct_fast_wait_state(&p, ctx, RTE_COMCH_CTX_STATE_IDLE), 0);
	assert_int_equal(rte_comch_producer_destroy(pr), 0);
	assert_int_equal(rte_comch_producer_destroy(noconf), 0);

	/* ids are unique on each end of the connection */
	for (i = 0; i < 16; i++) {
		many[i] = rte_comch_producer_create(i % 2 ? p.sconn : p.cconn);
		assert_non_null(many[i]);
		assert_int_equal(rte_comch_producer_get_id(many[i], &ids[i]), 0);
		for (j = i % 2; j < i; j += 2)
			assert_int_not_equal(ids[i], ids[j]);
	}
	for (i = 0; i < 16; i++)
		assert_int_equal(rte_comch_producer_destroy(many[i]), 0);
	ct_pair_close(&p);
}

/* max_producers and max_consumers per connection side; the next one is ENOSPC. */
static void
test_max_producers_consumers(void **state)
{
	struct rte_comch_producer **prods, *extra;
	struct rte_comch_consumer **cons, *cextra;
	struct rte_comch_dev_info info;
	struct rte_comch_mmap *rw;
	struct ct_pair p;
	uint32_t i;

	(void)state;
	ct_fast_up(&p, NULL, CT_FAST_ONE);
	assert_int_equal(rte_comch_dev_info_get(p.dpu, &info), 0);
	rw = mmap_new(&p, PERM_RW, true, true);
	prods = calloc(info.max_producers, sizeof(*prods));
	cons = calloc(info.max_consumers, sizeof(*cons));
	assert_non_null(prods);
	assert_non_null(cons);

	for (i = 0; i < info.max_producers; i++) {
		prods[i] = rte_comch_producer_create(p.sconn);
		assert_non_null(prods[i]);
	}
	rte_errno = 0;
	assert_null(rte_comch_producer_create(p.sconn));
	assert_int_equal(rte_errno, ENOSPC);
	/* per side: the client's end still has room */
	extra = rte_comch_producer_create(p.cconn);
	assert_non_null(extra);
	/* room again once one is gone */
	assert_int_equal(rte_comch_producer_destroy(prods[7]), 0);
	prods[7] = rte_comch_producer_create(p.sconn);
	assert_non_null(prods[7]);

	for (i = 0; i < info.max_consumers; i++) {
		cons[i] = rte_comch_consumer_create(p.cconn, rw);
		assert_non_null(cons[i]);
	}
	rte_errno = 0;
	assert_null(rte_comch_consumer_create(p.cconn, rw));
	assert_int_equal(rte_errno, ENOSPC);
	cextra = rte_comch_consumer_create(p.sconn, rw);
	assert_non_null(cextra);
	assert_int_equal(rte_comch_consumer_destroy(cons[3]), 0);
	cons[3] = rte_comch_consumer_create(p.cconn, rw);
	assert_non_null(cons[3]);

	for (i = 0; i < info.max_producers; i++)
		assert_int_equal(rte_comch_producer_destroy(prods[i]), 0);
	for (i = 0; i < info.max_consumers; i++)
		assert_int_equal(rte_comch_consumer_destroy(cons[i]), 0);
	assert_int_equal(rte_comch_producer_destroy(extra), 0);
	assert_int_equal(rte_comch_consumer_destroy(cextra), 0);
	free(prods);
	free(cons);
	mmap_free(rw, true);
	ct_pair_close(&p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fast_caps),
		cmocka_unit_test(test_consumer_event_register),
		cmocka_unit_test(test_consumer_create_errors),
		cmocka_unit_test(test_objects_on_cache_lines),
		cmocka_unit_test(test_conn_not_established),
		cmocka_unit_test(test_consumer_imm_len),
		cmocka_unit_test(test_post_recv_conf_errors),
		cmocka_unit_test(test_producer_create_and_conf),
		cmocka_unit_test(test_max_producers_consumers),
	};

	return CT_RUN("comch_fast_api", tests);
}
