/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Contexts, servers and clients: creation and destruction errors, every
 * configuration setter and getter (and -EBUSY once started), start/stop
 * errors, mandatory callbacks, the state-changed sequence, user data.
 */

#include <errno.h>
#include <string.h>

#include <rte_errno.h>

#include "comch_test_common.h"

struct env {
	char domain[32];
	struct rte_comch_dev *dpu;
	struct rte_comch_dev *dpu2;
	struct rte_comch_dev *host;
	struct rte_comch_dev_rep *rep;
	struct rte_comch_dev_rep *rep1;
	struct rte_comch_dev_rep *rep_other; /* representor of dpu2 */
	struct rte_comch_pe *pe;
};

static void
env_open(struct env *e)
{
	memset(e, 0, sizeof(*e));
	ct_domain(e->domain, sizeof(e->domain));
	e->dpu = ct_dev_open("domain=%s,role=dpu,rep=pf0,rep=pf1", e->domain);
	assert_non_null(e->dpu);
	e->dpu2 = ct_dev_open("domain=%sb,role=dpu", e->domain);
	assert_non_null(e->dpu2);
	e->host = ct_dev_open("domain=%s,role=host,fn=pf0", e->domain);
	assert_non_null(e->host);
	e->rep = rte_comch_dev_rep_open(e->dpu, "pf0");
	assert_non_null(e->rep);
	e->rep1 = rte_comch_dev_rep_open(e->dpu, "pf1");
	assert_non_null(e->rep1);
	e->rep_other = rte_comch_dev_rep_open(e->dpu2, "pf0");
	assert_non_null(e->rep_other);
	e->pe = rte_comch_pe_create(RTE_COMCH_PE_LCORE_SELF);
	assert_non_null(e->pe);
}

static void
env_close(struct env *e)
{
	assert_int_equal(rte_comch_pe_destroy(e->pe), 0);
	assert_int_equal(rte_comch_dev_rep_close(e->rep_other), 0);
	assert_int_equal(rte_comch_dev_rep_close(e->rep1), 0);
	assert_int_equal(rte_comch_dev_rep_close(e->rep), 0);
	assert_int_equal(rte_comch_dev_close(e->host), 0);
	assert_int_equal(rte_comch_dev_close(e->dpu2), 0);
	assert_int_equal(rte_comch_dev_close(e->dpu), 0);
}

#define EXPECT_NULL_ERRNO(call, err) do { \
	rte_errno = 0; \
	assert_null(call); \
	assert_int_equal(rte_errno, (err)); \
} while (0)

static void
test_server_create_errors(void **state)
{
	char name[200];
	struct rte_comch_server *s1, *s2, *s3;
	struct env e;

	(void)state;
	env_open(&e);
	EXPECT_NULL_ERRNO(rte_comch_server_create(NULL, e.rep, "a"), EINVAL);
	EXPECT_NULL_ERRNO(rte_comch_server_create(e.dpu, NULL, "a"), EINVAL);
	EXPECT_NULL_ERRNO(rte_comch_server_create(e.dpu, e.rep, NULL), EINVAL);
	EXPECT_NULL_ERRNO(rte_comch_server_create(e.dpu, e.rep, ""), EINVAL);
	/* a representor of another device */
	EXPECT_NULL_ERRNO(rte_comch_server_create(e.dpu, e.rep_other, "a"), EINVAL);
	/* max_name_len (128) includes the NUL: 127 characters fit, 128 do not */
	memset(name, 'n', sizeof(name));
	name[128] = '\0';
	EXPECT_NULL_ERRNO(rte_comch_server_create(e.dpu, e.rep, name), ENAMETOOLONG);
	name[127] = '\0';
	s3 = rte_comch_server_create(e.dpu, e.rep, name);
	assert_non_null(s3);

	/* one name per representor */
	s1 = rte_comch_server_create(e.dpu, e.rep, "dup");
	assert_non_null(s1);
	EXPECT_NULL_ERRNO(rte_comch_server_create(e.dpu, e.rep, "dup"), EEXIST);
	s2 = rte_comch_server_create(e.dpu, e.rep1, "dup");
	assert_non_null(s2);
	assert_int_equal(rte_comch_server_destroy(s1), 0);
	/* the name is free again after destroy */
	s1 = rte_comch_server_create(e.dpu, e.rep, "dup");
	assert_non_null(s1);

	assert_ptr_equal(rte_comch_server_get_device(s1), e.dpu);
	assert_ptr_equal(rte_comch_server_get_device_rep(s1), e.rep);
	assert_ptr_equal(rte_comch_server_get_device_rep(s2), e.rep1);
	EXPECT_NULL_ERRNO(rte_comch_server_get_device(NULL), EINVAL);
	EXPECT_NULL_ERRNO(rte_comch_server_get_device_rep(NULL), EINVAL);
	EXPECT_NULL_ERRNO(rte_comch_server_as_ctx(NULL), EINVAL);

	assert_int_equal(rte_comch_server_destroy(NULL), -EINVAL);
	assert_int_equal(rte_comch_server_destroy(s1), 0);
	assert_int_equal(rte_comch_server_destroy(s2), 0);
	assert_int_equal(rte_comch_server_destroy(s3), 0);
	env_close(&e);
}

/* Servers only on the BlueField side: a host device is refused with EPERM. */
static void
test_server_on_host_device(void **state)
{
	struct env e;

	(void)state;
	env_open(&e);
	EXPECT_NULL_ERRNO(rte_comch_server_create(e.host, e.rep, "a"), EPERM);
	env_close(&e);
}

static void
test_client_create_errors(void **state)
{
	char name[200];
	struct rte_comch_client *c1, *c2;
	struct env e;

	(void)state;
	env_open(&e);
	EXPECT_NULL_ERRNO(rte_comch_client_create(NULL, "a"), EINVAL);
	EXPECT_NULL_ERRNO(rte_comch_client_create(e.host, NULL), EINVAL);
	EXPECT_NULL_ERRNO(rte_comch_client_create(e.host, ""), EINVAL);
	EXPECT_NULL_ERRNO(rte_comch_client_create(e.dpu, "a"), EPERM);
	memset(name, 'n', sizeof(name));
	name[128] = '\0';
	EXPECT_NULL_ERRNO(rte_comch_client_create(e.host, name), ENAMETOOLONG);
	name[127] = '\0';
	c1 = rte_comch_client_create(e.host, name);
	assert_non_null(c1);
	/* any number of clients may target the same name */
	c2 = rte_comch_client_create(e.host, name);
	assert_non_null(c2);
	assert_ptr_equal(rte_comch_client_get_device(c1), e.host);
	EXPECT_NULL_ERRNO(rte_comch_client_get_device(NULL), EINVAL);
	EXPECT_NULL_ERRNO(rte_comch_client_as_ctx(NULL), EINVAL);
	assert_int_equal(rte_comch_client_destroy(NULL), -EINVAL);
	assert_int_equal(rte_comch_client_destroy(c1), 0);
	assert_int_equal(rte_comch_client_destroy(c2), 0);
	env_close(&e);
}

static void
dummy_send_cb(struct rte_comch_task_send *t, union rte_comch_data a, union rte_comch_data b)
{
}

static void
dummy_recv_cb(struct rte_comch_connection *c, const uint8_t *m, uint32_t l)
{
}

static void
dummy_conn_cb(struct rte_comch_connection *c, int s)
{
}

static void
test_server_config(void **state)
{
	struct rte_comch_server *srv;
	struct rte_comch_ctx *ctx;
	uint32_t v = 0;
	struct env e;

	(void)state;
	env_open(&e);
	srv = rte_comch_server_create(e.dpu, e.rep, "cfg");
	assert_non_null(srv);
	ctx = rte_comch_server_as_ctx(srv);
	assert_non_null(ctx);

	/* defaults */
	assert_int_equal(rte_comch_server_get_max_msg_size(srv, &v), 0);
	assert_int_equal(v, RTE_COMCH_DEFAULT_MSG_SIZE);
	assert_int_equal(rte_comch_server_get_recv_queue_size(srv, &v), 0);
	assert_int_equal(v, RTE_COMCH_DEFAULT_RECV_QUEUE_SIZE);
	assert_int_equal(rte_comch_server_get_max_msg_size(NULL, &v), -EINVAL);
	assert_int_equal(rte_comch_server_get_max_msg_size(srv, NULL), -EINVAL);
	assert_int_equal(rte_comch_server_get_recv_queue_size(NULL, &v), -EINVAL);
	assert_int_equal(rte_comch_server_get_recv_queue_size(srv, NULL), -EINVAL);

	assert_int_equal(rte_comch_server_set_max_msg_size(NULL, 64), -EINVAL);
	assert_int_equal(rte_comch_server_set_max_msg_size(srv, 0), -EINVAL);
	assert_int_equal(rte_comch_server_set_max_msg_size(srv, 1024 * 1024 + 1), -EMSGSIZE);
	assert_int_equal(rte_comch_server_set_max_msg_size(srv, 1024 * 1024), 0);
	assert_int_equal(rte_comch_server_set_max_msg_size(srv, 100), 0);
	assert_int_equal(rte_comch_server_get_max_msg_size(srv, &v), 0);
	assert_int_equal(v, 100);

	assert_int_equal(rte_comch_server_set_recv_queue_size(NULL, 8), -EINVAL);
	assert_int_equal(rte_comch_server_set_recv_queue_size(srv, 0), -EINVAL);
	assert_int_equal(rte_comch_server_set_recv_queue_size(srv, 4097), -EINVAL);
	assert_int_equal(rte_comch_server_set_recv_queue_size(srv, 4096), 0);
	assert_int_equal(rte_comch_server_set_recv_queue_size(srv, 8), 0);
	assert_int_equal(rte_comch_server_get_recv_queue_size(srv, &v), 0);
	assert_int_equal(v, 8);

	assert_int_equal(rte_comch_server_task_send_set_conf(NULL, dummy_send_cb,
		dummy_send_cb, 4), -EINVAL);
	assert_int_equal(rte_comch_server_task_send_set_conf(srv, NULL, dummy_send_cb, 4),
			 -EINVAL);
	assert_int_equal(rte_comch_server_task_send_set_conf(srv, dummy_send_cb, NULL, 4),
			 -EINVAL);
	assert_int_equal(rte_comch_server_task_send_set_conf(srv, dummy_send_cb,
		dummy_send_cb, 0), -EINVAL);
	assert_int_equal(rte_comch_server_task_send_set_conf(srv, dummy_send_cb,
		dummy_send_cb, 65537), -EINVAL);
	assert_int_equal(rte_comch_server_event_msg_recv_register(NULL, dummy_recv_cb),
			 -EINVAL);
	assert_int_equal(rte_comch_server_event_msg_recv_register(srv, NULL), -EINVAL);
	assert_int_equal(rte_comch_server_event_connection_status_changed_register(NULL,
		dummy_conn_cb, dummy_conn_cb), -EINVAL);
	assert_int_equal(rte_comch_server_event_connection_status_changed_register(srv,
		NULL, dummy_conn_cb), -EINVAL);
	assert_int_equal(rte_comch_server_event_connection_status_changed_register(srv,
		dummy_conn_cb, NULL), -EINVAL);

	/* start needs an engine, then every mandatory callback */
	assert_int_equal(rte_comch_ctx_start(NULL), -EINVAL);
	assert_int_equal(rte_comch_ctx_start(ctx), -ENOTCONN);
	assert_int_equal(rte_comch_pe_connect_ctx(e.pe, ctx), 0);
	assert_int_equal(rte_comch_ctx_start(ctx), -EINVAL);
	assert_int_equal(rte_comch_server_task_send_set_conf(srv, dummy_send_cb,
		dummy_send_cb, 65536), 0);
	assert_int_equal(rte_comch_ctx_start(ctx), -EINVAL);
	assert_int_equal(rte_comch_server_event_msg_recv_register(srv, dummy_recv_cb), 0);
	assert_int_equal(rte_comch_ctx_start(ctx), -EINVAL);
	assert_int_equal(rte_comch_server_event_connection_status_changed_register(srv,
		dummy_conn_cb, dummy_conn_cb), 0);
	assert_int_equal(rte_comch_ctx_start(ctx), 0);
	assert_int_equal(rte_comch_ctx_start(ctx), -EBUSY);

	/* no configuration while running */
	assert_int_equal(rte_comch_server_set_max_msg_size(srv, 64), -EBUSY);
	assert_int_equal(rte_comch_server_set_recv_queue_size(srv, 4), -EBUSY);
	assert_int_equal(rte_comch_server_task_send_set_conf(srv, dummy_send_cb,
		dummy_send_cb, 4), -EBUSY);
	assert_int_equal(rte_comch_server_event_msg_recv_register(srv, dummy_recv_cb), -EBUSY);
	assert_int_equal(rte_comch_server_event_connection_status_changed_register(srv,
		dummy_conn_cb, dummy_conn_cb), -EBUSY);
	assert_int_equal(rte_comch_ctx_set_state_changed_cb(ctx, ct_state_cb), -EBUSY);
	assert_int_equal(rte_comch_server_get_max_msg_size(srv, &v), 0);
	assert_int_equal(v, 100);
	assert_int_equal(rte_comch_server_destroy(srv), -EBUSY);
	assert_int_equal(rte_comch_pe_destroy(e.pe), -EBUSY);

	ct_ctx_stop_wait(e.pe, ctx);
	assert_int_equal(rte_comch_ctx_stop(ctx), -EBUSY);
	/* idle again: configurable again */
	assert_int_equal(rte_comch_server_set_max_msg_size(srv, 64), 0);
	assert_int_equal(rte_comch_server_destroy(srv), 0);
	env_close(&e);
}

static void
test_client_config(void **state)
{
	struct rte_comch_connection *conn = NULL;
	struct rte_comch_client *cli;
	struct rte_comch_ctx *ctx;
	uint32_t v = 0;
	struct env e;

	(void)state;
	env_open(&e);
	cli = rte_comch_client_create(e.host, "cfg");
	assert_non_null(cli);
	ctx = rte_comch_client_as_ctx(cli);
	assert_non_null(ctx);

	assert_int_equal(rte_comch_client_get_recv_queue_size(cli, &v), 0);
	assert_int_equal(v, RTE_COMCH_DEFAULT_RECV_QUEUE_SIZE);
	assert_int_equal(rte_comch_client_get_recv_queue_size(NULL, &v), -EINVAL);
	assert_int_equal(rte_comch_client_get_recv_queue_size(cli, NULL), -EINVAL);
	assert_int_equal(rte_comch_client_get_max_msg_size(NULL, &v), -EINVAL);
	assert_int_equal(rte_comch_client_get_max_msg_size(cli, NULL), -EINVAL);

	assert_int_equal(rte_comch_client_set_max_msg_size(NULL, 64), -EINVAL);
	assert_int_equal(rte_comch_client_set_max_msg_size(cli, 0), -EINVAL);
	assert_int_equal(rte_comch_client_set_max_msg_size(cli, 1024 * 1024 + 1), -EMSGSIZE);
	assert_int_equal(rte_comch_client_set_max_msg_size(cli, 200), 0);
	assert_int_equal(rte_comch_client_get_max_msg_size(cli, &v), 0);
	assert_int_equal(v, 200);
	assert_int_equal(rte_comch_client_set_recv_queue_size(NULL, 8), -EINVAL);
	assert_int_equal(rte_comch_client_set_recv_queue_size(cli, 0), -EINVAL);
	assert_int_equal(rte_comch_client_set_recv_queue_size(cli, 4097), -EINVAL);
	assert_int_equal(rte_comch_client_set_recv_queue_size(cli, 16), 0);
	assert_int_equal(rte_comch_client_get_recv_queue_size(cli, &v), 0);
	assert_int_equal(v, 16);
	assert_int_equal(rte_comch_client_set_connect_timeout(NULL, 10), -EINVAL);
	assert_int_equal(rte_comch_client_set_connect_timeout(cli, 0), 0);
	assert_int_equal(rte_comch_client_set_connect_timeout(cli, 60000), 0);

	assert_int_equal(rte_comch_client_task_send_set_conf(NULL, dummy_send_cb,
		dummy_send_cb, 4), -EINVAL);
	assert_int_equal(rte_comch_client_task_send_set_conf(cli, NULL, dummy_send_cb, 4),
			 -EINVAL);
	assert_int_equal(rte_comch_client_task_send_set_conf(cli, dummy_send_cb, NULL, 4),
			 -EINVAL);
	assert_int_equal(rte_comch_client_task_send_set_conf(cli, dummy_send_cb,
		dummy_send_cb, 0), -EINVAL);
	assert_int_equal(rte_comch_client_task_send_set_conf(cli, dummy_send_cb,
		dummy_send_cb, 65537), -EINVAL);
	assert_int_equal(rte_comch_client_event_msg_recv_register(NULL, dummy_recv_cb),
			 -EINVAL);
	assert_int_equal(rte_comch_client_event_msg_recv_register(cli, NULL), -EINVAL);

	assert_int_equal(rte_comch_client_get_connection(NULL, &conn), -EINVAL);
	assert_int_equal(rte_comch_client_get_connection(cli, NULL), -EINVAL);
	assert_int_equal(rte_comch_client_get_connection(cli, &conn), -ENOTCONN);

	assert_int_equal(rte_comch_ctx_start(ctx), -ENOTCONN);
	assert_int_equal(rte_comch_pe_connect_ctx(e.pe, ctx), 0);
	assert_int_equal(rte_comch_ctx_start(ctx), -EINVAL);
	assert_int_equal(rte_comch_client_task_send_set_conf(cli, dummy_send_cb,
		dummy_send_cb, 1), 0);
	assert_int_equal(rte_comch_ctx_start(ctx), -EINVAL);
	assert_int_equal(rte_comch_client_event_msg_recv_register(cli, dummy_recv_cb), 0);
	/* no server of that name: the client keeps trying (timeout 60 s) */
	assert_int_equal(rte_comch_ctx_start(ctx), -EINPROGRESS);
	assert_int_equal(rte_comch_ctx_start(ctx), -EBUSY);
	ct_progress_for(e.pe, 10);
	assert_int_equal(rte_comch_client_get_connection(cli, &conn), -ENOTCONN);

	assert_int_equal(rte_comch_client_set_max_msg_size(cli, 64), -EBUSY);
	assert_int_equal(rte_comch_client_set_recv_queue_size(cli, 4), -EBUSY);
	assert_int_equal(rte_comch_client_set_connect_timeout(cli, 10), -EBUSY);
	assert_int_equal(rte_comch_client_task_send_set_conf(cli, dummy_send_cb,
		dummy_send_cb, 4), -EBUSY);
	assert_int_equal(rte_comch_client_event_msg_recv_register(cli, dummy_recv_cb), -EBUSY);
	assert_int_equal(rte_comch_ctx_set_state_changed_cb(ctx, NULL), -EBUSY);
	assert_int_equal(rte_comch_client_destroy(cli), -EBUSY);

	/* stopping a STARTING client gives up and returns to IDLE */
	ct_ctx_stop_wait(e.pe, ctx);
	assert_int_equal(rte_comch_ctx_stop(ctx), -EBUSY);
	assert_int_equal(rte_comch_ctx_get_last_error(ctx), 0);
	assert_int_equal(rte_comch_client_destroy(cli), 0);
	env_close(&e);
}

static void
test_ctx_args_user_data(void **state)
{
	union rte_comch_data ud = { .u64 = 0 };
	enum rte_comch_ctx_state st = RTE_COMCH_CTX_STATE_RUNNING;
	struct rte_comch_client *cli;
	struct rte_comch_ctx *ctx;
	struct env e;

	(void)state;
	env_open(&e);
	cli = rte_comch_client_create(e.host, "ud");
	assert_non_null(cli);
	ctx = rte_comch_client_as_ctx(cli);
	assert_non_null(ctx);

	assert_int_equal(rte_comch_ctx_stop(NULL), -EINVAL);
	assert_int_equal(rte_comch_ctx_stop(ctx), -EBUSY);
	assert_int_equal(rte_comch_ctx_get_state(NULL, &st), -EINVAL);
	assert_int_equal(rte_comch_ctx_get_state(ctx, NULL), -EINVAL);
	assert_int_equal(rte_comch_ctx_get_state(ctx, &st), 0);
	assert_int_equal(st, RTE_COMCH_CTX_STATE_IDLE);
	assert_int_equal(rte_comch_ctx_get_last_error(NULL), -EINVAL);
	assert_int_equal(rte_comch_ctx_get_last_error(ctx), 0);
	assert_int_equal(rte_comch_ctx_set_state_changed_cb(NULL, ct_state_cb), -EINVAL);
	assert_int_equal(rte_comch_ctx_set_state_changed_cb(ctx, ct_state_cb), 0);
	assert_int_equal(rte_comch_ctx_set_state_changed_cb(ctx, NULL), 0);

	assert_int_equal(rte_comch_ctx_get_user_data(ctx, &ud), 0);
	assert_int_equal(ud.u64, 0);
	ud.u64 = 0x1122334455667788ULL;
	assert_int_equal(rte_comch_ctx_set_user_data(NULL, ud), -EINVAL);
	assert_int_equal(rte_comch_ctx_set_user_data(ctx, ud), 0);
	ud.u64 = 0;
	assert_int_equal(rte_comch_ctx_get_user_data(NULL, &ud), -EINVAL);
	assert_int_equal(rte_comch_ctx_get_user_data(ctx, NULL), -EINVAL);
	assert_int_equal(rte_comch_ctx_get_user_data(ctx, &ud), 0);
	assert_true(ud.u64 == 0x1122334455667788ULL);
	ud.ptr = &e;
	assert_int_equal(rte_comch_ctx_set_user_data(ctx, ud), 0);
	ud.ptr = NULL;
	assert_int_equal(rte_comch_ctx_get_user_data(ctx, &ud), 0);
	assert_ptr_equal(ud.ptr, &e);
	assert_int_equal(rte_comch_client_destroy(cli), 0);
	env_close(&e);
}

#define ASSERT_TRANSITION(s, i, from, to) do { \
	assert_int_equal((s)->prev[i], (from)); \
	assert_int_equal((s)->next[i], (to)); \
} while (0)

static void
test_ctx_state_sequence(void **state)
{
	struct ct_pair p;
	int ret;

	(void)state;
	ct_pair_open(&p, NULL);
	/* server: IDLE -> RUNNING, reported before start returned */
	assert_int_equal(p.srv.nb_states, 1);
	ASSERT_TRANSITION(&p.srv, 0, RTE_COMCH_CTX_STATE_IDLE, RTE_COMCH_CTX_STATE_RUNNING);

	assert_int_equal(rte_comch_ctx_start(p.cli.ctx), -EINPROGRESS);
	assert_int_equal(p.cli.nb_states, 1);
	ASSERT_TRANSITION(&p.cli, 0, RTE_COMCH_CTX_STATE_IDLE, RTE_COMCH_CTX_STATE_STARTING);
	assert_int_equal(ct_wait_state(p.pe, p.cli.ctx, RTE_COMCH_CTX_STATE_RUNNING,
				       CT_TIMEOUT_MS), 0);
	assert_int_equal(p.cli.nb_states, 2);
	ASSERT_TRANSITION(&p.cli, 1, RTE_COMCH_CTX_STATE_STARTING,
			  RTE_COMCH_CTX_STATE_RUNNING);

	ret = rte_comch_ctx_stop(p.cli.ctx);
	assert_true(ret == 0 || ret == -EINPROGRESS);
	assert_int_equal(ct_wait_state(p.pe, p.cli.ctx, RTE_COMCH_CTX_STATE_IDLE,
				       CT_TIMEOUT_MS), 0);
	/* exactly IDLE->STARTING->RUNNING->STOPPING->IDLE */
	assert_int_equal(p.cli.nb_states, 4);
	ASSERT_TRANSITION(&p.cli, 2, RTE_COMCH_CTX_STATE_RUNNING,
			  RTE_COMCH_CTX_STATE_STOPPING);
	ASSERT_TRANSITION(&p.cli, 3, RTE_COMCH_CTX_STATE_STOPPING, RTE_COMCH_CTX_STATE_IDLE);
	assert_int_equal(rte_comch_ctx_get_last_error(p.cli.ctx), 0);
	/* the server saw the orderly close */
	assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_disconnect, 1, CT_TIMEOUT_MS), 0);
	assert_int_equal(p.srv.disc_status[0], -ECONNABORTED);

	/* a client can start again after it stopped */
	p.cli.nb_states = 0;
	ct_pair_connect(&p);
	assert_int_equal(p.cli.nb_states, 2);
	assert_int_equal(p.srv.nb_connect, 2);

	/* server: RUNNING -> STOPPING -> IDLE; its client is dropped */
	ret = rte_comch_ctx_stop(p.srv.ctx);
	assert_true(ret == 0 || ret == -EINPROGRESS);
	assert_int_equal(ct_wait_state(p.pe, p.srv.ctx, RTE_COMCH_CTX_STATE_IDLE,
				       CT_TIMEOUT_MS), 0);
	assert_int_equal(p.srv.nb_states, 3);
	ASSERT_TRANSITION(&p.srv, 1, RTE_COMCH_CTX_STATE_RUNNING,
			  RTE_COMCH_CTX_STATE_STOPPING);
	ASSERT_TRANSITION(&p.srv, 2, RTE_COMCH_CTX_STATE_STOPPING, RTE_COMCH_CTX_STATE_IDLE);
	assert_int_equal(rte_comch_ctx_get_last_error(p.srv.ctx), 0);
	assert_int_equal(ct_wait_state(p.pe, p.cli.ctx, RTE_COMCH_CTX_STATE_IDLE,
				       CT_TIMEOUT_MS), 0);
	assert_int_equal(rte_comch_ctx_get_last_error(p.cli.ctx), -ECONNABORTED);
	assert_int_equal(p.cli.nb_states, 4);
	ASSERT_TRANSITION(&p.cli, 2, RTE_COMCH_CTX_STATE_RUNNING,
			  RTE_COMCH_CTX_STATE_STOPPING);
	ASSERT_TRANSITION(&p.cli, 3, RTE_COMCH_CTX_STATE_STOPPING, RTE_COMCH_CTX_STATE_IDLE);
	/* the server's disconnect callback ran for its connection */
	assert_int_equal(p.srv.nb_disconnect, 2);
	assert_int_equal(p.srv.disc_status[1], -ECONNABORTED);
	ct_pair_close(&p);
}

/*
 * What rte_comch_ctx_stop() returns: 0 and straight to IDLE when nothing is to
 * wait for, -EINPROGRESS while STOPPING, again as often as it is asked,
 * -EBUSY once IDLE.
 */
static void
test_ctx_stop_returns(void **state)
{
	enum rte_comch_ctx_state st;
	struct ct_pair p;

	(void)state;
	ct_pair_open(&p, NULL);
	assert_int_equal(p.srv.nb_states, 1);

	/* a client still STARTING (no progress yet): IDLE at once, no STOPPING */
	assert_int_equal(rte_comch_ctx_start(p.cli.ctx), -EINPROGRESS);
	assert_int_equal(rte_comch_ctx_stop(p.cli.ctx), 0);
	assert_int_equal(rte_comch_ctx_get_state(p.cli.ctx, &st), 0);
	assert_int_equal(st, RTE_COMCH_CTX_STATE_IDLE);
	assert_int_equal(p.cli.nb_states, 2);
	ASSERT_TRANSITION(&p.cli, 0, RTE_COMCH_CTX_STATE_IDLE, RTE_COMCH_CTX_STATE_STARTING);
	ASSERT_TRANSITION(&p.cli, 1, RTE_COMCH_CTX_STATE_STARTING, RTE_COMCH_CTX_STATE_IDLE);
	assert_int_equal(rte_comch_ctx_stop(p.cli.ctx), -EBUSY);
	assert_int_equal(rte_comch_ctx_get_last_error(p.cli.ctx), 0);

	/* a connected client must tell the server: STOPPING, and asking again is fine */
	p.cli.nb_states = 0;
	ct_pair_connect(&p);
	assert_int_equal(rte_comch_ctx_stop(p.cli.ctx), -EINPROGRESS);
	assert_int_equal(rte_comch_ctx_stop(p.cli.ctx), -EINPROGRESS);
	assert_int_equal(rte_comch_ctx_get_state(p.cli.ctx, &st), 0);
	assert_int_equal(st, RTE_COMCH_CTX_STATE_STOPPING);
	assert_int_equal(ct_wait_state(p.pe, p.cli.ctx, RTE_COMCH_CTX_STATE_IDLE,
				       CT_TIMEOUT_MS), 0);
	/* the repeated stop changed nothing: one RUNNING -> STOPPING -> IDLE */
	assert_int_equal(p.cli.nb_states, 4);
	ASSERT_TRANSITION(&p.cli, 2, RTE_COMCH_CTX_STATE_RUNNING, RTE_COMCH_CTX_STATE_STOPPING);
	ASSERT_TRANSITION(&p.cli, 3, RTE_COMCH_CTX_STATE_STOPPING, RTE_COMCH_CTX_STATE_IDLE);
	assert_int_equal(rte_comch_ctx_get_last_error(p.cli.ctx), 0);
	assert_int_equal(rte_comch_ctx_stop(p.cli.ctx), -EBUSY);
	assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_disconnect, 1, CT_TIMEOUT_MS), 0);

	/* a server without connections: IDLE at once, no STOPPING */
	assert_int_equal(rte_comch_ctx_stop(p.srv.ctx), 0);
	assert_int_equal(p.srv.nb_states, 2);
	ASSERT_TRANSITION(&p.srv, 1, RTE_COMCH_CTX_STATE_RUNNING, RTE_COMCH_CTX_STATE_IDLE);
	assert_int_equal(rte_comch_ctx_stop(p.srv.ctx), -EBUSY);

	/* a server with a connection drains it: STOPPING, and asking again is fine */
	assert_int_equal(rte_comch_ctx_start(p.srv.ctx), 0);
	ct_pair_connect(&p);
	p.srv.nb_states = 0;
	assert_int_equal(rte_comch_ctx_stop(p.srv.ctx), -EINPROGRESS);
	assert_int_equal(rte_comch_ctx_stop(p.srv.ctx), -EINPROGRESS);
	assert_int_equal(ct_wait_state(p.pe, p.srv.ctx, RTE_COMCH_CTX_STATE_IDLE,
				       CT_TIMEOUT_MS), 0);
	assert_int_equal(p.srv.nb_states, 2);
	ASSERT_TRANSITION(&p.srv, 0, RTE_COMCH_CTX_STATE_RUNNING, RTE_COMCH_CTX_STATE_STOPPING);
	ASSERT_TRANSITION(&p.srv, 1, RTE_COMCH_CTX_STATE_STOPPING, RTE_COMCH_CTX_STATE_IDLE);
	assert_int_equal(ct_wait_state(p.pe, p.cli.ctx, RTE_COMCH_CTX_STATE_IDLE,
				       CT_TIMEOUT_MS), 0);
	assert_int_equal(rte_comch_ctx_get_last_error(p.cli.ctx), -ECONNABORTED);
	ct_pair_close(&p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_server_create_errors),
		cmocka_unit_test(test_server_on_host_device),
		cmocka_unit_test(test_client_create_errors),
		cmocka_unit_test(test_server_config),
		cmocka_unit_test(test_client_config),
		cmocka_unit_test(test_ctx_args_user_data),
		cmocka_unit_test(test_ctx_state_sequence),
		cmocka_unit_test(test_ctx_stop_returns),
	};

	return CT_RUN("comch_ctx", tests);
}
