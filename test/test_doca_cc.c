/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * DOCA compatibility layer: DOCA 2.5's names of Comch (doca_cc.h,
 * doca_cc_consumer.h, doca_cc_producer.h). A server and a client written only
 * in those names (and DOCA's core names: devices, engine, contexts, memory),
 * in one process (dt_env_setup()'s mapping): the client connects, each side
 * sends a message on the control path, the counters count them, the client's
 * consumer is announced to the server, whose producer writes a buffer into
 * it; both sides stop and go. The calls whose signature changed (a send task
 * without immediate data, a task's buffer, capabilities as powers of two) are
 * checked against their doca_comch counterparts.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_cc.h>
#include <doca_cc_consumer.h>
#include <doca_cc_producer.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_mmap.h>
#include <doca_pe.h>

#include "test_doca_compat.h"

#define CC_MEM 4096

/* What both sides saw, through their callbacks. */
struct cc_side {
	struct doca_cc_connection *conn;
	uint32_t connected, disconnected, recv, sent, send_err;
	char msg[64];
	uint32_t new_consumer;		/* the peer consumer's id */
	uint32_t expired_consumer;
	uint32_t recv_ok, recv_err, prod_ok, prod_err;
	uint32_t recv_producer_id;
	size_t recv_len;
};

static struct cc_side srv, cli;

static struct cc_side *
cc_side_of(struct doca_cc_connection *conn)
{
	return doca_cc_server_get_server_ctx(conn) != NULL ? &srv : &cli;
}

static void
cc_send_ok(struct doca_cc_task_send *task, union doca_data task_user_data,
	   union doca_data ctx_user_data)
{
	(void)task_user_data;
	((struct cc_side *)ctx_user_data.ptr)->sent++;
	doca_task_free(doca_cc_task_send_as_task(task));
}

static void
cc_send_err(struct doca_cc_task_send *task, union doca_data task_user_data,
	    union doca_data ctx_user_data)
{
	(void)task_user_data;
	((struct cc_side *)ctx_user_data.ptr)->send_err++;
	doca_task_free(doca_cc_task_send_as_task(task));
}

static void
cc_recv(struct doca_cc_event_msg_recv *event, uint8_t *buf, uint32_t len,
	struct doca_cc_connection *conn)
{
	struct cc_side *s = cc_side_of(conn);

	(void)event;
	s->conn = conn;
	s->recv++;
	memcpy(s->msg, buf, len < sizeof(s->msg) ? len : sizeof(s->msg) - 1);
}

static void
cc_connect(struct doca_cc_event_connection_status_changed *event, struct doca_cc_connection *conn,
	   uint8_t ok)
{
	(void)event;
	srv.conn = conn;
	srv.connected += ok;
}

static void
cc_disconnect(struct doca_cc_event_connection_status_changed *event,
	      struct doca_cc_connection *conn, uint8_t ok)
{
	(void)event;
	(void)conn;
	(void)ok;
	srv.disconnected++;
}

static void
cc_new_consumer(struct doca_cc_event_consumer *event, struct doca_cc_connection *conn, uint32_t id)
{
	(void)event;
	cc_side_of(conn)->new_consumer = id;
}

static void
cc_expired_consumer(struct doca_cc_event_consumer *event, struct doca_cc_connection *conn,
		    uint32_t id)
{
	(void)event;
	cc_side_of(conn)->expired_consumer = id;
}

static void
cc_post_recv_ok(struct doca_cc_consumer_task_post_recv *task, union doca_data task_user_data,
		union doca_data ctx_user_data)
{
	struct cc_side *s = ctx_user_data.ptr;

	(void)task_user_data;
	s->recv_ok++;
	s->recv_producer_id = doca_cc_consumer_task_post_recv_get_producer_id(task);
	doca_buf_get_data_len(doca_cc_consumer_task_post_recv_get_buf(task), &s->recv_len);
	doca_task_free(doca_cc_consumer_task_post_recv_as_task(task));
}

static void
cc_post_recv_err(struct doca_cc_consumer_task_post_recv *task, union doca_data task_user_data,
		 union doca_data ctx_user_data)
{
	(void)task_user_data;
	((struct cc_side *)ctx_user_data.ptr)->recv_err++;
	doca_task_free(doca_cc_consumer_task_post_recv_as_task(task));
}

static void
cc_prod_ok(struct doca_cc_producer_task_send *task, union doca_data task_user_data,
	   union doca_data ctx_user_data)
{
	(void)task_user_data;
	((struct cc_side *)ctx_user_data.ptr)->prod_ok++;
	doca_task_free(doca_cc_producer_task_send_as_task(task));
}

static void
cc_prod_err(struct doca_cc_producer_task_send *task, union doca_data task_user_data,
	    union doca_data ctx_user_data)
{
	(void)task_user_data;
	((struct cc_side *)ctx_user_data.ptr)->prod_err++;
	doca_task_free(doca_cc_producer_task_send_as_task(task));
}

static bool
cc_connected(void *arg)
{
	(void)arg;
	return srv.connected == 1 && dt_state(doca_cc_client_as_ctx(arg)) ==
	       DOCA_CTX_STATE_RUNNING;
}

/* Send a message on the control path from a side, and wait for it to be taken. */
static void
cc_send(struct doca_pe *pe, struct doca_cc_server *server, struct doca_cc_client *client,
	struct doca_cc_connection *conn, const char *msg)
{
	struct cc_side *s = server != NULL ? &srv : &cli;
	struct doca_cc_task_send *task;
	uint32_t before = s->sent;

	if (server != NULL)
		DT_OK(doca_cc_server_task_send_alloc_init(server, conn, msg, strlen(msg), &task));
	else
		DT_OK(doca_cc_client_task_send_alloc_init(client, conn, msg, strlen(msg), &task));
	DT_OK(doca_task_submit(doca_cc_task_send_as_task(task)));
	DT_ASSERT(dt_wait_count(pe, &s->sent, before + 1));
}

/* Stop a context, progressing the engine until it is idle. */
static void
cc_stop(struct doca_pe *pe, struct doca_ctx *ctx)
{
	doca_error_t r = doca_ctx_stop(ctx);

	DT_ASSERT(r == DOCA_SUCCESS || r == DOCA_ERROR_IN_PROGRESS);
	DT_ASSERT(dt_wait_state(pe, ctx, DOCA_CTX_STATE_IDLE));
}

static void
test_cc_server_client(void **state)
{
	struct doca_dev *dpu = dt_dev_open("03:00.0"), *host = dt_dev_open("04:00.0"), *d = NULL;
	struct doca_dev_rep *rep = dt_rep_open(dpu), *r = NULL;
	struct doca_cc_producer_task_send *ptask;
	struct doca_cc_consumer_task_post_recv *rtask;
	struct doca_cc_connection *cconn = NULL;
	struct doca_cc_server *server = NULL;
	struct doca_cc_client *client = NULL;
	struct doca_cc_consumer *cons = NULL;
	struct doca_cc_producer *prod = NULL;
	struct doca_buf_inventory *cinv, *pinv;
	struct doca_mmap *cmm, *pmm;
	struct doca_buf *cbuf, *pbuf;
	struct doca_pe *pe = NULL;
	uint8_t *cmem = aligned_alloc(4096, CC_MEM), *pmem = aligned_alloc(4096, CC_MEM);
	uint32_t v = 0, prod_id = 0, cons_id = 0;
	uint64_t n = 0;
	char name[64];

	(void)state;
	assert_non_null(cmem);
	assert_non_null(pmem);
	memset(&srv, 0, sizeof(srv));
	memset(&cli, 0, sizeof(cli));
	DT_OK(doca_pe_create(&pe));
	DT_OK(doca_cc_cap_server_is_supported(doca_dev_as_devinfo(dpu)));
	DT_OK(doca_cc_cap_client_is_supported(doca_dev_as_devinfo(host)));
	DT_OK(doca_cc_cap_get_max_name_len(doca_dev_as_devinfo(dpu), &v));
	DT_ASSERT(v > 8);

	/* the server, in 2.5's names, its task configuration in its guide's spelling */
	dt_unique(name, sizeof(name), "cc");
	DT_OK(doca_cc_server_create(dpu, rep, name, &server));
	DT_OK(doca_cc_server_set_max_msg_size(server, 1024));
	DT_OK(doca_cc_server_get_max_msg_size(server, &v));
	assert_int_equal(v, 1024);
	DT_OK(doca_cc_server_set_recv_queue_size(server, 16));
	DT_OK(doca_cc_server_get_recv_queue_size(server, &v));
	assert_int_equal(v, 16);
	DT_OK(doca_cc_server_get_device(server, &d));
	assert_ptr_equal(d, dpu);
	DT_OK(doca_cc_server_get_device_repr(server, &r));
	assert_ptr_equal(r, rep);
	DT_OK(doca_cc_server_send_task_set_conf(server, cc_send_ok, cc_send_err, 8));
	DT_OK(doca_cc_server_event_msg_recv_register(server, cc_recv));
	DT_OK(doca_cc_server_event_connection_register(server, cc_connect, cc_disconnect));
	DT_OK(doca_cc_server_event_consumer_register(server, cc_new_consumer, cc_expired_consumer));
	DT_OK(doca_ctx_set_user_data(doca_cc_server_as_ctx(server),
				     (union doca_data){ .ptr = &srv }));
	DT_OK(doca_pe_connect_ctx(pe, doca_cc_server_as_ctx(server)));
	DT_OK(doca_ctx_start(doca_cc_server_as_ctx(server)));

	/* the client, its task configuration in the headers' spelling */
	DT_OK(doca_cc_client_create(host, name, &client));
	DT_OK(doca_cc_client_set_max_msg_size(client, 1024));
	DT_OK(doca_cc_client_get_max_msg_size(client, &v));
	assert_int_equal(v, 1024);
	DT_OK(doca_cc_client_set_recv_queue_size(client, 16));
	DT_OK(doca_cc_client_get_recv_queue_size(client, &v));
	assert_int_equal(v, 16);
	DT_OK(doca_cc_client_get_device(client, &d));
	assert_ptr_equal(d, host);
	DT_OK(doca_cc_client_task_send_set_conf(client, cc_send_ok, cc_send_err, 8));
	DT_OK(doca_cc_client_event_msg_recv_register(client, cc_recv));
	DT_OK(doca_cc_client_event_consumer_register(client, cc_new_consumer, cc_expired_consumer));
	DT_OK(doca_ctx_set_user_data(doca_cc_client_as_ctx(client),
				     (union doca_data){ .ptr = &cli }));
	DT_OK(doca_pe_connect_ctx(pe, doca_cc_client_as_ctx(client)));
	DT_ERR(doca_cc_client_get_connection(client, &cconn), DOCA_ERROR_BAD_STATE);
	DT_ERR(doca_ctx_start(doca_cc_client_as_ctx(client)), DOCA_ERROR_IN_PROGRESS);
	DT_ASSERT(dt_progress_until(pe, cc_connected, client));
	DT_OK(doca_cc_client_get_connection(client, &cconn));
	assert_ptr_equal(doca_cc_client_get_client_ctx(cconn), client);
	assert_null(doca_cc_server_get_server_ctx(cconn));
	assert_ptr_equal(doca_cc_server_get_server_ctx(srv.conn), server);

	/* the control path both ways, the connection's user data and counters */
	DT_OK(doca_cc_connection_set_user_data(cconn, (union doca_data){ .u64 = 25 }));
	assert_int_equal(doca_cc_connection_get_user_data(cconn).u64, 25);
	cc_send(pe, NULL, client, cconn, "hello from 2.5's client");
	DT_ASSERT(dt_wait_count(pe, &srv.recv, 1));
	assert_string_equal(srv.msg, "hello from 2.5's client");
	cc_send(pe, server, NULL, srv.conn, "hello from 2.5's server");
	DT_ASSERT(dt_wait_count(pe, &cli.recv, 1));
	assert_string_equal(cli.msg, "hello from 2.5's server");
	DT_OK(doca_cc_connection_update_info(cconn));
	DT_OK(doca_cc_connection_get_counter(cconn, DOCA_CC_COUNTER_SENT_MESSAGES, &n));
	assert_int_equal(n, 1);
	DT_OK(doca_cc_connection_get_counter(cconn, DOCA_CC_COUNTER_SENT_BYTES, &n));
	assert_int_equal(n, strlen("hello from 2.5's client"));
	DT_OK(doca_cc_connection_get_counter(cconn, DOCA_CC_COUNTER_RECV_MESSAGES, &n));
	assert_int_equal(n, 1);
	DT_OK(doca_cc_connection_get_counter(cconn, DOCA_CC_COUNTER_RECV_BYTES, &n));
	assert_int_equal(n, strlen("hello from 2.5's server"));

	/* the fast path: the client's consumer, announced to the server, whose producer fills it */
	DT_OK(doca_cc_cap_is_consumer_supported(doca_dev_as_devinfo(host)));
	DT_OK(doca_cc_consumer_cap_is_supported(doca_dev_as_devinfo(host)));
	DT_OK(doca_cc_cap_is_producer_supported(doca_dev_as_devinfo(dpu)));
	DT_OK(doca_cc_producer_cap_is_supported(doca_dev_as_devinfo(dpu)));
	DT_OK(doca_cc_consumer_cap_get_max_buf_size(doca_dev_as_devinfo(host), &v));
	DT_ASSERT(v >= CC_MEM);
	DT_OK(doca_cc_producer_cap_get_max_buf_size(doca_dev_as_devinfo(dpu), &v));
	DT_ASSERT(v >= CC_MEM);
	DT_OK(doca_mmap_create(&cmm));
	DT_OK(doca_mmap_add_dev(cmm, host));
	DT_OK(doca_mmap_set_permissions(cmm, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE |
					DOCA_ACCESS_FLAG_PCI_READ_WRITE));
	DT_OK(doca_mmap_set_memrange(cmm, cmem, CC_MEM));
	DT_OK(doca_mmap_start(cmm));
	DT_OK(doca_buf_inventory_create(2, &cinv));
	DT_OK(doca_buf_inventory_start(cinv));
	DT_OK(doca_buf_inventory_buf_get_by_addr(cinv, cmm, cmem, CC_MEM, &cbuf));
	DT_OK(doca_cc_consumer_create(cconn, cmm, &cons));
	DT_OK(doca_cc_consumer_post_recv_task_set_conf(cons, cc_post_recv_ok, cc_post_recv_err, 4));
	DT_OK(doca_ctx_set_user_data(doca_cc_consumer_as_ctx(cons),
				     (union doca_data){ .ptr = &cli }));
	DT_OK(doca_pe_connect_ctx(pe, doca_cc_consumer_as_ctx(cons)));
	(void)doca_ctx_start(doca_cc_consumer_as_ctx(cons));
	DT_ASSERT(dt_wait_state(pe, doca_cc_consumer_as_ctx(cons), DOCA_CTX_STATE_RUNNING));
	DT_OK(doca_cc_consumer_get_id(cons, &cons_id));
	DT_ASSERT(dt_wait_count(pe, &srv.new_consumer, cons_id));
	assert_int_equal(srv.new_consumer, cons_id);
	DT_OK(doca_cc_consumer_task_post_recv_alloc_init(cons, cbuf, &rtask));
	assert_ptr_equal(doca_cc_consumer_task_post_recv_get_buf(rtask), cbuf);
	doca_cc_consumer_task_post_recv_set_buf(rtask, cbuf);
	DT_OK(doca_task_submit(doca_cc_consumer_task_post_recv_as_task(rtask)));

	DT_OK(doca_mmap_create(&pmm));
	DT_OK(doca_mmap_add_dev(pmm, dpu));
	DT_OK(doca_mmap_set_memrange(pmm, pmem, CC_MEM));
	DT_OK(doca_mmap_start(pmm));
	DT_OK(doca_buf_inventory_create(2, &pinv));
	DT_OK(doca_buf_inventory_start(pinv));
	memset(pmem, 0x5a, 100);
	DT_OK(doca_buf_inventory_buf_get_by_data(pinv, pmm, pmem, 100, &pbuf));
	DT_OK(doca_cc_producer_create(srv.conn, &prod));
	DT_OK(doca_cc_producer_send_task_set_conf(prod, cc_prod_ok, cc_prod_err, 4));
	DT_OK(doca_ctx_set_user_data(doca_cc_producer_as_ctx(prod),
				     (union doca_data){ .ptr = &srv }));
	DT_OK(doca_pe_connect_ctx(pe, doca_cc_producer_as_ctx(prod)));
	DT_OK(doca_ctx_start(doca_cc_producer_as_ctx(prod)));
	DT_OK(doca_cc_producer_get_id(prod, &prod_id));
	/* a send task without immediate data; its buffer, writable; its consumer, changed back */
	DT_OK(doca_cc_producer_task_send_alloc_init(prod, pbuf, cons_id + 1, &ptask));
	assert_ptr_equal(doca_cc_producer_task_send_get_buf(ptask), pbuf);
	assert_int_equal(doca_comch_producer_task_send_get_imm_data_len(ptask), 0);
	assert_int_equal(doca_cc_producer_task_send_get_consumer_id(ptask), cons_id + 1);
	doca_cc_producer_task_send_set_consumer_id(ptask, cons_id);
	doca_cc_producer_task_send_set_buf(ptask, pbuf);
	DT_OK(doca_task_submit(doca_cc_producer_task_send_as_task(ptask)));
	DT_ASSERT(dt_wait_count(pe, &cli.recv_ok, 1));
	DT_ASSERT(dt_wait_count(pe, &srv.prod_ok, 1));
	assert_int_equal(cli.recv_producer_id, prod_id);
	assert_int_equal(cli.recv_len, 100);
	assert_int_equal(cmem[0], 0x5a);
	assert_int_equal(cmem[99], 0x5a);
	assert_null(doca_cc_producer_task_send_get_buf(NULL));

	/* both sides stop and go, in DOCA's order */
	cc_stop(pe, doca_cc_producer_as_ctx(prod));
	DT_OK(doca_cc_producer_destroy(prod));
	cc_stop(pe, doca_cc_consumer_as_ctx(cons));
	DT_ASSERT(dt_wait_count(pe, &srv.expired_consumer, cons_id));
	DT_OK(doca_cc_consumer_destroy(cons));
	cc_stop(pe, doca_cc_client_as_ctx(client));
	DT_ASSERT(dt_wait_count(pe, &srv.disconnected, 1));
	DT_OK(doca_cc_client_destroy(client));
	cc_stop(pe, doca_cc_server_as_ctx(server));
	DT_OK(doca_cc_server_destroy(server));
	assert_int_equal(srv.send_err + cli.send_err + cli.recv_err + srv.prod_err, 0);
	DT_OK(doca_buf_dec_refcount(cbuf, NULL));
	DT_OK(doca_buf_dec_refcount(pbuf, NULL));
	DT_OK(doca_buf_inventory_destroy(cinv));
	DT_OK(doca_buf_inventory_destroy(pinv));
	DT_OK(doca_mmap_destroy(cmm));
	DT_OK(doca_mmap_destroy(pmm));
	DT_OK(doca_pe_destroy(pe));
	DT_OK(doca_dev_rep_close(rep));
	DT_OK(doca_dev_close(dpu));
	DT_OK(doca_dev_close(host));
	free(cmem);
	free(pmem);
}

/* The capabilities 2.5 had apart: the doca_comch limits, as powers of two and per connection. */
static void
test_cc_caps(void **state)
{
	struct doca_dev *dev = dt_dev_open("04:00.0");
	const struct doca_devinfo *info = doca_dev_as_devinfo(dev);
	uint32_t max = 0, lg = 99, v = 0;

	(void)state;
	DT_OK(doca_cc_consumer_cap_get_max_num_tasks(info, &max));
	DT_OK(doca_cc_consumer_cap_get_max_log_num_tasks(info, &lg));
	DT_ASSERT(max >= 1);
	DT_ASSERT((1ull << lg) <= max && (2ull << lg) > max);
	DT_OK(doca_cc_producer_cap_get_max_num_tasks(info, &max));
	DT_OK(doca_cc_producer_cap_get_max_log_num_tasks(info, &lg));
	DT_ASSERT((1ull << lg) <= max && (2ull << lg) > max);
	DT_OK(doca_cc_consumer_cap_get_max_consumers(info, &v));
	DT_ASSERT(v >= 1);
	DT_OK(doca_cc_producer_cap_get_max_producers(info, &v));
	DT_ASSERT(v >= 1);
	DT_OK(doca_cc_cap_get_max_msg_size(info, &v));
	DT_OK(doca_cc_cap_get_max_recv_queue_size(info, &v));
	DT_OK(doca_cc_cap_get_max_clients(info, &v));
	DT_OK(doca_cc_cap_get_max_send_tasks(info, &v));
	/* refused as their doca_comch counterparts are */
	DT_ERR(doca_cc_consumer_cap_get_max_log_num_tasks(info, NULL), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_cc_producer_cap_get_max_log_num_tasks(NULL, &lg), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_cc_consumer_cap_get_max_consumers(info, NULL), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_cc_producer_cap_get_max_producers((const struct doca_devinfo *)dev, &v),
	       DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_cc_producer_task_send_alloc_init(NULL, NULL, 1, NULL),
	       DOCA_ERROR_INVALID_VALUE);
	DT_OK(doca_dev_close(dev));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cc_server_client),
		cmocka_unit_test(test_cc_caps),
	};
	int ret;

	/* the mapping before any DOCA call: the layer reads it once */
	dt_env_setup();
	ret = cmocka_run_group_tests_name("doca_cc", tests, NULL, NULL);
	dt_env_teardown();
	return ret;
}
