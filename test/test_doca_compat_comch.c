/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * DOCA compatibility layer: the Comch control path, both sides in one process.
 * Mapping (dt_env_setup()): 03:00.0 is the BlueField side (its default
 * representor pf0 carries the servers), 04:00.0 the host side (function pf0),
 * one shm domain of this process. Every case runs on one engine: servers and
 * clients, their state machines, messages both ways, user data, counters, and
 * the errors DOCA programs rely on. The fast path is in test_doca_compat_fast.c.
 */

#include <stdio.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <rte_config.h>
#include <rte_common.h>

#include "test_doca_compat.h"

/* ------------------------------------------------------------- fixture */

struct dt_fix {
	struct dt_pair p;
};

static int
dt_setup(void **state)
{
	struct dt_fix *x = calloc(1, sizeof(*x));

	*state = x;
	return x == NULL ? -1 : 0;
}

static int
dt_teardown(void **state)
{
	struct dt_fix *x = *state;
	bool ok = dt_pair_down(&x->p);

	free(x);
	/* a test that fails is reported as such; one that passed must leave nothing */
	return ok ? 0 : -1;
}

/* ------------------------------------------------------------ server states */

static void
test_server_states(void **state)
{
	struct dt_fix *x = *state;
	struct dt_pair *p = &x->p;
	struct doca_comch_server *other = NULL;
	struct doca_dev_rep *rep = NULL;
	struct doca_dev *dev = NULL;
	struct doca_ctx *ctx;
	char name[64];
	uint32_t size;

	dt_pair_open(p);
	/* configured but on no engine: start refuses */
	dt_unique(name, sizeof(name), "srv");
	DT_OK(doca_comch_server_create(p->dpu, p->rep, name, &other));
	DT_OK(doca_comch_server_task_send_set_conf(other, dt_send_ok_cb, dt_send_err_cb, 4));
	DT_OK(doca_comch_server_event_msg_recv_register(other, dt_recv_cb));
	DT_OK(doca_comch_server_event_connection_status_changed_register(other, dt_connect_cb,
									 dt_disconnect_cb));
	DT_ERR(doca_ctx_start(doca_comch_server_as_ctx(other)), DOCA_ERROR_NOT_CONNECTED);
	DT_OK(doca_comch_server_destroy(other));
	/* on an engine, but without its mandatory send task configuration */
	DT_OK(doca_comch_server_create(p->dpu, p->rep, name, &other));
	DT_OK(doca_comch_server_event_msg_recv_register(other, dt_recv_cb));
	DT_OK(doca_comch_server_event_connection_status_changed_register(other, dt_connect_cb,
									 dt_disconnect_cb));
	DT_OK(doca_pe_connect_ctx(p->pe, doca_comch_server_as_ctx(other)));
	DT_ERR(doca_ctx_start(doca_comch_server_as_ctx(other)), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_pe_connect_ctx(p->pe, doca_comch_server_as_ctx(other)),
	       DOCA_ERROR_ALREADY_EXIST);
	DT_OK(doca_comch_server_destroy(other));
	other = NULL;

	dt_server_create(p, 4);
	ctx = doca_comch_server_as_ctx(p->server);
	/* configuration, while IDLE */
	DT_OK(doca_comch_server_set_max_msg_size(p->server, 1024));
	DT_OK(doca_comch_server_get_max_msg_size(p->server, &size));
	assert_int_equal(size, 1024);
	DT_OK(doca_comch_server_set_recv_queue_size(p->server, 16));
	DT_OK(doca_comch_server_get_recv_queue_size(p->server, &size));
	assert_int_equal(size, 16);
	DT_ERR(doca_comch_server_set_max_msg_size(p->server, 0), DOCA_ERROR_INVALID_VALUE);
	DT_OK(doca_comch_server_get_device(p->server, &dev));
	assert_ptr_equal(dev, p->dpu);
	DT_OK(doca_comch_server_get_device_rep(p->server, &rep));
	assert_ptr_equal(rep, p->rep);
	assert_int_equal(dt_state(ctx), DOCA_CTX_STATE_IDLE);

	/* start: RUNNING at once */
	DT_OK(doca_ctx_start(ctx));
	assert_int_equal(dt_state(ctx), DOCA_CTX_STATE_RUNNING);
	assert_int_equal(p->srec.nb_states, 1);
	assert_int_equal(p->srec.prev[0], DOCA_CTX_STATE_IDLE);
	assert_int_equal(p->srec.next[0], DOCA_CTX_STATE_RUNNING);
	assert_ptr_equal(p->srec.state_ctx, ctx);
	assert_ptr_equal(p->srec.state_ud.ptr, &p->srec);
	/* the name is taken on the representor */
	DT_ERR(doca_comch_server_create(p->dpu, p->rep, p->name, &other),
	       DOCA_ERROR_ALREADY_EXIST);

	/* running: no second start, no configuration, no destroy */
	DT_ERR(doca_ctx_start(ctx), DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_comch_server_task_send_set_conf(p->server, dt_send_ok_cb, dt_send_err_cb, 4),
	       DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_comch_server_event_msg_recv_register(p->server, dt_recv_cb),
	       DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_comch_server_event_connection_status_changed_register(p->server, dt_connect_cb,
									  dt_disconnect_cb),
	       DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_comch_server_event_consumer_register(p->server, dt_new_cons_cb, dt_exp_cons_cb),
	       DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_comch_server_set_max_msg_size(p->server, 2048), DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_comch_server_set_recv_queue_size(p->server, 32), DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_ctx_set_state_changed_cb(ctx, dt_state_cb), DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_comch_server_destroy(p->server), DOCA_ERROR_BAD_STATE);
	/* nothing changed */
	DT_OK(doca_comch_server_get_max_msg_size(p->server, &size));
	assert_int_equal(size, 1024);
	assert_int_equal(dt_state(ctx), DOCA_CTX_STATE_RUNNING);

	/* no connection: stop is immediate */
	DT_OK(doca_ctx_stop(ctx));
	assert_int_equal(dt_state(ctx), DOCA_CTX_STATE_IDLE);
	assert_int_equal(p->srec.nb_states, 2);
	assert_int_equal(p->srec.prev[1], DOCA_CTX_STATE_RUNNING);
	assert_int_equal(p->srec.next[1], DOCA_CTX_STATE_IDLE);
	DT_ERR(doca_ctx_stop(ctx), DOCA_ERROR_BAD_STATE);
	/* and it starts again */
	DT_OK(doca_ctx_start(ctx));
	DT_OK(doca_ctx_stop(ctx));
	assert_int_equal(p->srec.nb_states, 4);
}

/* ------------------------------------------------------------ client states */

static void
test_client_states(void **state)
{
	struct dt_fix *x = *state;
	struct dt_pair *p = &x->p;
	struct doca_comch_connection *conn = NULL;
	struct doca_dev *dev = NULL;
	struct doca_ctx *cctx, *sctx;
	doca_error_t r;

	dt_pair_open(p);
	dt_server_create(p, 4);
	dt_client_create(p, 4);
	cctx = doca_comch_client_as_ctx(p->client);
	sctx = doca_comch_server_as_ctx(p->server);
	DT_OK(doca_comch_client_get_device(p->client, &dev));
	assert_ptr_equal(dev, p->host);
	DT_ERR(doca_comch_client_get_connection(p->client, &conn), DOCA_ERROR_BAD_STATE);

	DT_OK(doca_ctx_start(sctx));
	DT_ERR(doca_ctx_start(cctx), DOCA_ERROR_IN_PROGRESS);
	assert_int_equal(dt_state(cctx), DOCA_CTX_STATE_STARTING);
	/* reported before start returned */
	assert_int_equal(p->crec.nb_states, 1);
	assert_int_equal(p->crec.prev[0], DOCA_CTX_STATE_IDLE);
	assert_int_equal(p->crec.next[0], DOCA_CTX_STATE_STARTING);
	assert_ptr_equal(p->crec.state_ctx, cctx);
	assert_ptr_equal(p->crec.state_ud.ptr, &p->crec);
	DT_ERR(doca_comch_client_get_connection(p->client, &conn), DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_ctx_start(cctx), DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_comch_client_set_max_msg_size(p->client, 512), DOCA_ERROR_BAD_STATE);

	/* progress connects it */
	assert_true(dt_wait_state(p->pe, cctx, DOCA_CTX_STATE_RUNNING));
	assert_true(dt_wait_count(p->pe, &p->srec.nb_connect, 1));
	assert_int_equal(p->srec.last_change_ok, 1);
	assert_int_equal(p->crec.nb_states, 2);
	assert_int_equal(p->crec.prev[1], DOCA_CTX_STATE_STARTING);
	assert_int_equal(p->crec.next[1], DOCA_CTX_STATE_RUNNING);
	DT_OK(doca_comch_client_get_connection(p->client, &conn));
	assert_non_null(conn);
	DT_OK(doca_comch_connection_update_info(conn));
	DT_OK(doca_comch_connection_update_info(p->srec.conn));

	/* running */
	DT_ERR(doca_ctx_start(cctx), DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_comch_client_task_send_set_conf(p->client, dt_send_ok_cb, dt_send_err_cb, 4),
	       DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_comch_client_event_msg_recv_register(p->client, dt_recv_cb),
	       DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_comch_client_event_consumer_register(p->client, dt_new_cons_cb, dt_exp_cons_cb),
	       DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_comch_client_set_max_msg_size(p->client, 512), DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_comch_client_set_recv_queue_size(p->client, 8), DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_comch_client_destroy(p->client), DOCA_ERROR_BAD_STATE);

	/* stop: the server learns of the close, then the client is IDLE */
	DT_ERR(doca_ctx_stop(cctx), DOCA_ERROR_IN_PROGRESS);
	assert_int_equal(dt_state(cctx), DOCA_CTX_STATE_STOPPING);
	DT_ERR(doca_ctx_stop(cctx), DOCA_ERROR_IN_PROGRESS);	/* asked again while stopping */
	assert_true(dt_wait_state(p->pe, cctx, DOCA_CTX_STATE_IDLE));
	assert_true(dt_wait_count(p->pe, &p->srec.nb_disconnect, 1));
	assert_int_equal(p->srec.nb_disconnect, 1);
	assert_int_equal(p->crec.nb_states, 4);
	assert_int_equal(p->crec.prev[2], DOCA_CTX_STATE_RUNNING);
	assert_int_equal(p->crec.next[2], DOCA_CTX_STATE_STOPPING);
	assert_int_equal(p->crec.prev[3], DOCA_CTX_STATE_STOPPING);
	assert_int_equal(p->crec.next[3], DOCA_CTX_STATE_IDLE);
	DT_ERR(doca_comch_client_get_connection(p->client, &conn), DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_ctx_stop(cctx), DOCA_ERROR_BAD_STATE);

	/* the server has nothing left to drain */
	r = doca_ctx_stop(sctx);
	assert_true(r == DOCA_SUCCESS || r == DOCA_ERROR_IN_PROGRESS);
	assert_true(dt_wait_state(p->pe, sctx, DOCA_CTX_STATE_IDLE));
}

/* The server stops first: its connection drains, the client ends by itself. */
static void
test_server_stop_with_client(void **state)
{
	struct dt_fix *x = *state;
	struct dt_pair *p = &x->p;
	struct doca_ctx *sctx, *cctx;

	dt_pair_up(p);
	sctx = p->srec.ctx;
	cctx = p->crec.ctx;
	DT_ERR(doca_ctx_stop(sctx), DOCA_ERROR_IN_PROGRESS);
	assert_int_equal(dt_state(sctx), DOCA_CTX_STATE_STOPPING);
	assert_true(dt_wait_state(p->pe, sctx, DOCA_CTX_STATE_IDLE));
	assert_true(dt_wait_state(p->pe, cctx, DOCA_CTX_STATE_IDLE));
	assert_int_equal(p->srec.nb_disconnect, 1);
	assert_int_equal(p->srec.nb_states, 3);
	assert_int_equal(p->srec.next[0], DOCA_CTX_STATE_RUNNING);
	assert_int_equal(p->srec.prev[1], DOCA_CTX_STATE_RUNNING);
	assert_int_equal(p->srec.next[1], DOCA_CTX_STATE_STOPPING);
	assert_int_equal(p->srec.prev[2], DOCA_CTX_STATE_STOPPING);
	assert_int_equal(p->srec.next[2], DOCA_CTX_STATE_IDLE);
	assert_int_equal(p->crec.nb_states, 4);
	assert_int_equal(p->crec.next[2], DOCA_CTX_STATE_STOPPING);
	assert_int_equal(p->crec.next[3], DOCA_CTX_STATE_IDLE);
}

/* ---------------------------------------------------------------- messages */

static bool
dt_msg_exchanged(void *arg)
{
	struct dt_pair *p = arg;

	return p->crec.nb_send_ok == 1 && p->srec.nb_recv == 1;
}

static void
test_messages(void **state)
{
	struct dt_fix *x = *state;
	struct dt_pair *p = &x->p;
	struct doca_comch_task_send *task = NULL;
	struct doca_task *t;
	uint8_t up[100], down[200];
	union doca_data ud;
	uint64_t v;
	size_t n;
	unsigned int i;

	for (i = 0; i < sizeof(up); i++)
		up[i] = (uint8_t)(i * 7 + 1);
	for (i = 0; i < sizeof(down); i++)
		down[i] = (uint8_t)(255 - i);
	dt_pair_up(p);

	/* each end knows its own side */
	assert_ptr_equal(doca_comch_server_get_server_ctx(p->sconn), p->server);
	assert_null(doca_comch_client_get_client_ctx(p->sconn));
	assert_ptr_equal(doca_comch_client_get_client_ctx(p->cconn), p->client);
	assert_null(doca_comch_server_get_server_ctx(p->cconn));
	/* connection user data */
	assert_int_equal(doca_comch_connection_get_user_data(p->sconn).u64, 0);
	DT_OK(doca_comch_connection_set_user_data(p->sconn, (union doca_data){ .u64 = 0x5e1 }));
	DT_OK(doca_comch_connection_set_user_data(p->cconn, (union doca_data){ .u64 = 0xc1 }));
	assert_int_equal(doca_comch_connection_get_user_data(p->sconn).u64, 0x5e1);
	assert_int_equal(doca_comch_connection_get_user_data(p->cconn).u64, 0xc1);
	DT_OK(doca_comch_connection_update_info(p->sconn));
	DT_OK(doca_comch_connection_update_info(p->cconn));
	DT_OK(doca_ctx_get_user_data(p->crec.ctx, &ud));
	assert_ptr_equal(ud.ptr, &p->crec);

	/* client -> server, by hand: in flight until progress completes it */
	DT_OK(doca_comch_client_task_send_alloc_init(p->client, p->cconn, up, sizeof(up), &task));
	t = doca_comch_task_send_as_task(task);
	assert_non_null(t);
	assert_ptr_equal(doca_task_get_ctx(t), p->crec.ctx);
	doca_task_set_user_data(t, (union doca_data){ .u64 = 0x1111 });
	assert_int_equal(doca_task_get_user_data(t).u64, 0x1111);
	DT_OK(doca_task_submit(t));
	DT_OK(doca_ctx_get_num_inflight_tasks(p->crec.ctx, &n));
	assert_int_equal(n, 1);
	DT_OK(doca_pe_get_num_inflight_tasks(p->pe, &n));
	assert_int_equal(n, 1);
	assert_true(dt_progress_until(p->pe, dt_msg_exchanged, p));
	DT_OK(doca_ctx_get_num_inflight_tasks(p->crec.ctx, &n));
	assert_int_equal(n, 0);
	DT_OK(doca_pe_get_num_inflight_tasks(p->pe, &n));
	assert_int_equal(n, 0);
	assert_int_equal(p->crec.nb_send_err, 0);
	DT_ERR(p->crec.last_status, DOCA_SUCCESS);
	assert_ptr_equal(p->crec.last_task, task);
	assert_int_equal(p->crec.last_task_ud.u64, 0x1111);
	assert_ptr_equal(p->crec.last_ctx_ud.ptr, &p->crec);
	assert_ptr_equal(p->crec.last_task_ctx, p->crec.ctx);
	assert_int_equal(p->srec.last_len, sizeof(up));
	assert_memory_equal(p->srec.last_msg, up, sizeof(up));
	assert_ptr_equal(p->srec.last_recv_conn, p->sconn);
	assert_int_equal(p->srec.last_recv_conn_ud.u64, 0x5e1);

	/* server -> client */
	dt_send(p, false, down, sizeof(down), (union doca_data){ .u64 = 0x2222 });
	DT_ERR(p->srec.last_status, DOCA_SUCCESS);
	assert_int_equal(p->srec.last_task_ud.u64, 0x2222);
	assert_ptr_equal(p->srec.last_ctx_ud.ptr, &p->srec);
	assert_ptr_equal(p->srec.last_task_ctx, p->srec.ctx);
	assert_int_equal(p->crec.nb_recv, 1);
	assert_int_equal(p->crec.last_len, sizeof(down));
	assert_memory_equal(p->crec.last_msg, down, sizeof(down));
	assert_ptr_equal(p->crec.last_recv_conn, p->cconn);
	assert_int_equal(p->crec.last_recv_conn_ud.u64, 0xc1);

	/* counters, on both ends */
	DT_OK(doca_comch_connection_get_counter(p->cconn, DOCA_COMCH_COUNTER_SENT_MESSAGES, &v));
	assert_int_equal(v, 1);
	DT_OK(doca_comch_connection_get_counter(p->cconn, DOCA_COMCH_COUNTER_SENT_BYTES, &v));
	assert_int_equal(v, sizeof(up));
	DT_OK(doca_comch_connection_get_counter(p->cconn, DOCA_COMCH_COUNTER_RECV_MESSAGES, &v));
	assert_int_equal(v, 1);
	DT_OK(doca_comch_connection_get_counter(p->cconn, DOCA_COMCH_COUNTER_RECV_BYTES, &v));
	assert_int_equal(v, sizeof(down));
	DT_OK(doca_comch_connection_get_counter(p->sconn, DOCA_COMCH_COUNTER_SENT_MESSAGES, &v));
	assert_int_equal(v, 1);
	DT_OK(doca_comch_connection_get_counter(p->sconn, DOCA_COMCH_COUNTER_SENT_BYTES, &v));
	assert_int_equal(v, sizeof(down));
	DT_OK(doca_comch_connection_get_counter(p->sconn, DOCA_COMCH_COUNTER_RECV_MESSAGES, &v));
	assert_int_equal(v, 1);
	DT_OK(doca_comch_connection_get_counter(p->sconn, DOCA_COMCH_COUNTER_RECV_BYTES, &v));
	assert_int_equal(v, sizeof(up));
	DT_OK(doca_comch_connection_update_info(p->cconn));
}

/* Message size and task pool limits. */
static void
test_send_limits(void **state)
{
	struct dt_fix *x = *state;
	struct dt_pair *p = &x->p;
	struct doca_comch_task_send *t1 = NULL, *t2 = NULL, *t3 = NULL;
	uint32_t smax, cmax;
	uint8_t *msg;

	dt_pair_open(p);
	dt_server_create(p, 4);
	dt_client_create(p, 2);
	dt_pair_connect(p);
	DT_OK(doca_comch_server_get_max_msg_size(p->server, &smax));
	DT_OK(doca_comch_client_get_max_msg_size(p->client, &cmax));
	assert_true(smax > 0 && cmax > 0);
	msg = calloc(1, (smax > cmax ? smax : cmax) + 1);
	assert_non_null(msg);

	/* one byte over the maximum */
	DT_ERR(doca_comch_client_task_send_alloc_init(p->client, p->cconn, msg, cmax + 1, &t1),
	       DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_comch_server_task_send_alloc_init(p->server, p->sconn, msg, smax + 1, &t1),
	       DOCA_ERROR_INVALID_VALUE);
	/* the pool: two tasks, then none */
	DT_OK(doca_comch_client_task_send_alloc_init(p->client, p->cconn, msg, cmax, &t1));
	DT_OK(doca_comch_client_task_send_alloc_init(p->client, p->cconn, msg, 1, &t2));
	DT_ERR(doca_comch_client_task_send_alloc_init(p->client, p->cconn, msg, 1, &t3),
	       DOCA_ERROR_NO_MEMORY);
	doca_task_free(doca_comch_task_send_as_task(t2));
	DT_OK(doca_comch_client_task_send_alloc_init(p->client, p->cconn, msg, 1, &t3));
	doca_task_free(doca_comch_task_send_as_task(t3));
	/* a task in flight is not submitted again; the largest message goes through */
	DT_OK(doca_task_submit(doca_comch_task_send_as_task(t1)));
	DT_ERR(doca_task_submit(doca_comch_task_send_as_task(t1)), DOCA_ERROR_BAD_STATE);
	assert_true(dt_wait_count(p->pe, &p->crec.nb_send_ok, 1));
	assert_true(dt_wait_count(p->pe, &p->srec.nb_recv, 1));
	assert_int_equal(p->srec.last_len, cmax);
	assert_int_equal(p->crec.nb_send_err, 0);
	free(msg);
}

/* What DOCA programs get back when objects still depend on each other. */
static void
test_busy_objects(void **state)
{
	struct dt_fix *x = *state;
	struct dt_pair *p = &x->p;
	struct doca_mmap *mm = NULL;
	void *mem = malloc(4096);

	assert_non_null(mem);
	dt_pair_open(p);
	dt_server_create(p, 4);
	DT_ERR(doca_ctx_stop(p->srec.ctx), DOCA_ERROR_BAD_STATE);	/* IDLE */
	DT_ERR(doca_pe_destroy(p->pe), DOCA_ERROR_IN_USE);
	DT_ERR(doca_dev_close(p->dpu), DOCA_ERROR_IN_USE);
	DT_ERR(doca_dev_rep_close(p->rep), DOCA_ERROR_IN_USE);
	/* an mmap holds its device too, but lets it close: it closes with the mmap */
	DT_OK(doca_mmap_create(&mm));
	DT_OK(doca_mmap_set_memrange(mm, mem, 4096));
	DT_OK(doca_mmap_add_dev(mm, p->host));
	DT_OK(doca_dev_close(p->host));
	DT_OK(doca_mmap_destroy(mm));
	free(mem);
	p->host = dt_dev_open("04:00.0");
	/* all still usable, and released in order */
	dt_client_create(p, 4);
	dt_pair_connect(p);
	dt_send(p, true, "ok", 2, (union doca_data){ .u64 = 1 });
	assert_true(dt_pair_down(p));
}

/* Progress engine notifications: the handle is a file descriptor of the engine. */
static void
test_pe_notification(void **state)
{
	struct dt_fix *x = *state;
	struct dt_pair *p = &x->p;
	doca_notification_handle_t h = -1;

	dt_pair_up(p);
	DT_OK(doca_pe_get_notification_handle(p->pe, &h));
	assert_true(h >= 0);
	DT_ERR(doca_pe_clear_notification(p->pe, h + 1), DOCA_ERROR_INVALID_VALUE);
	DT_OK(doca_pe_request_notification(p->pe));
	DT_OK(doca_pe_clear_notification(p->pe, h));
	dt_send(p, true, "n", 1, (union doca_data){ .u64 = 3 });
}

/*
 * A message the client never takes ends in the server's error callback: the
 * client runs on an engine of its own that nobody progresses; the server
 * disconnects, its drain gives up (1 s) and the send fails with TIME_OUT.
 */
static void
test_send_error(void **state)
{
	struct dt_fix *x = *state;
	struct dt_pair *p = &x->p;
	struct doca_comch_task_send *task = NULL;
	struct doca_pe *spe, *cpe = NULL;
	enum doca_ctx_states st = DOCA_CTX_STATE_IDLE;
	int i;

	dt_pair_open(p);
	dt_server_create(p, 8);
	spe = p->pe;
	DT_OK(doca_pe_create(&cpe));
	p->pe = cpe;
	dt_client_create(p, 8);
	p->pe = spe;
	DT_OK(doca_ctx_start(p->srec.ctx));
	DT_ERR(doca_ctx_start(p->crec.ctx), DOCA_ERROR_IN_PROGRESS);
	for (i = 0; i < 1000000 && (p->srec.nb_connect == 0 || st != DOCA_CTX_STATE_RUNNING);
	     i++) {
		doca_pe_progress(spe);
		doca_pe_progress(cpe);
		DT_OK(doca_ctx_get_state(p->crec.ctx, &st));
	}
	DT_EQ(st, DOCA_CTX_STATE_RUNNING);
	DT_ASSERT(p->srec.conn != NULL);

	DT_OK(doca_comch_server_task_send_alloc_init(p->server, p->srec.conn, "lost", 4, &task));
	doca_task_set_user_data(doca_comch_task_send_as_task(task),
				(union doca_data){ .u64 = 0xdead });
	DT_OK(doca_task_submit(doca_comch_task_send_as_task(task)));
	DT_OK(doca_comch_server_disconnect(p->server, p->srec.conn));
	DT_ASSERT(dt_wait_count(spe, &p->srec.nb_send_err, 1));
	DT_EQ(p->srec.nb_send_ok, 0);
	DT_ERR(p->srec.last_status, DOCA_ERROR_TIME_OUT);
	DT_EQ(p->srec.last_task_ud.u64, 0xdead);
	DT_EQ(p->crec.nb_recv, 0);

	/* The client learns of the end on its own engine, then goes the usual way. */
	DT_ASSERT(dt_wait_state(cpe, p->crec.ctx, DOCA_CTX_STATE_IDLE));
	DT_OK(doca_comch_client_destroy(p->client));
	p->client = NULL;
	DT_OK(doca_pe_destroy(cpe));
}

static void *
dt_thread_pe(void *arg)
{
	struct doca_pe *pe = NULL;
	doca_error_t *r = arg;

	*r = doca_pe_create(&pe);
	if (*r == DOCA_SUCCESS)
		*r = doca_pe_destroy(pe);
	return NULL;
}

/*
 * Engines on short-lived plain threads, more threads than DPDK has lcores:
 * each thread's lcore goes back when it ends, so none is refused.
 */
static void
test_pe_threads(void **state)
{
	doca_error_t r;
	pthread_t t;
	int i;

	RTE_SET_USED(state);
	for (i = 0; i < RTE_MAX_LCORE + 16; i++) {
		r = DOCA_ERROR_UNKNOWN;
		assert_int_equal(pthread_create(&t, NULL, dt_thread_pe, &r), 0);
		assert_int_equal(pthread_join(t, NULL), 0);
		DT_OK(r);
	}
}

/*
 * The connection-status callbacks' change_successful: 0 for a client that
 * could not connect (its max message size differs), 1 for one that did, and
 * 1 for a disconnection in order.
 */
static void
test_connection_status(void **state)
{
	struct dt_fix *x = *state;
	struct dt_pair *p = &x->p;

	dt_pair_open(p);
	dt_server_create(p, 4);
	dt_client_create(p, 4);
	DT_OK(doca_comch_server_set_max_msg_size(p->server, 1024));
	DT_OK(doca_comch_client_set_max_msg_size(p->client, 512));
	DT_OK(doca_ctx_start(p->srec.ctx));
	DT_ERR(doca_ctx_start(p->crec.ctx), DOCA_ERROR_IN_PROGRESS);
	assert_true(dt_wait_state(p->pe, p->crec.ctx, DOCA_CTX_STATE_IDLE));
	assert_true(dt_wait_count(p->pe, &p->srec.nb_connect_failed, 1));
	assert_int_equal(p->srec.nb_connect, 0);
	assert_int_equal(p->srec.last_change_ok, 0);

	DT_OK(doca_comch_client_set_max_msg_size(p->client, 1024));
	DT_ERR(doca_ctx_start(p->crec.ctx), DOCA_ERROR_IN_PROGRESS);
	assert_true(dt_wait_state(p->pe, p->crec.ctx, DOCA_CTX_STATE_RUNNING));
	assert_true(dt_wait_count(p->pe, &p->srec.nb_connect, 1));
	assert_int_equal(p->srec.last_change_ok, 1);
	DT_ERR(doca_ctx_stop(p->crec.ctx), DOCA_ERROR_IN_PROGRESS);
	assert_true(dt_wait_state(p->pe, p->crec.ctx, DOCA_CTX_STATE_IDLE));
	assert_true(dt_wait_count(p->pe, &p->srec.nb_disconnect, 1));
	assert_int_equal(p->srec.last_change_ok, 1);
	assert_int_equal(p->srec.nb_connect_failed, 1);
}

#define DT_TEST(t) cmocka_unit_test_setup_teardown(t, dt_setup, dt_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		DT_TEST(test_server_states),
		DT_TEST(test_client_states),
		DT_TEST(test_server_stop_with_client),
		DT_TEST(test_messages),
		DT_TEST(test_send_limits),
		DT_TEST(test_busy_objects),
		DT_TEST(test_pe_notification),
		DT_TEST(test_send_error),
		DT_TEST(test_pe_threads),
		DT_TEST(test_connection_status),
	};
	int ret;

	/* the mapping before any DOCA call: the layer reads it once */
	dt_env_setup();
	ret = cmocka_run_group_tests_name("doca_compat_comch", tests, NULL, NULL);
	dt_env_teardown();
	return ret;
}
