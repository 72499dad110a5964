/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The cost benchmark's stream in rte_comch's task API (see cost_common.h;
 * cost_doca.c is the same loop in DOCA's names, over the DOCA layer). EAL
 * arguments come first, then "--" and the benchmark's; the device is an
 * rte_comch devargs string (the server's names its representor "pf0").
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>

#include <rte_comch.h>

#include "cost_common.h"

struct cost {
	struct cost_args a;
	struct rte_comch_dev *dev;
	struct rte_comch_dev_rep *rep;
	struct rte_comch_pe *pe;
	struct rte_comch_server *server;
	struct rte_comch_client *client;
	struct rte_comch_ctx *ctrl;
	struct rte_comch_connection *conn;
	struct rte_comch_mmap *mmap;
	struct rte_comch_buf_pool *inv;
	uint8_t *mem;
	struct rte_comch_buf **free_bufs;	/* client: the buffers no send holds */
	uint32_t nb_free;
	struct rte_comch_consumer *consumer;
	struct rte_comch_producer *producer;
	uint32_t peer_consumer;		/* client: the server's consumer */
	uint64_t done_count;		/* sends (client) or receives (server) completed */
	uint64_t t0, t1;		/* server: the warm-up's end, the last message */
	bool connected, peer_ready, done, disconnected;
	int failed;
};

static struct cost c;

static void
fail(const char *what, int ret)
{
	fprintf(stderr, "cost_rte: %s: %s\n", what, strerror(ret < 0 ? -ret : ret));
	c.failed = 1;
}

/* ------------------------------------------------------------ callbacks */

static void
ctrl_sent(struct rte_comch_task_send *task, union rte_comch_data tud, union rte_comch_data cud)
{
	(void)tud;
	(void)cud;
	rte_comch_task_free(rte_comch_task_send_as_task(task));
}

static void
ctrl_recv(struct rte_comch_connection *conn, const uint8_t *msg, uint32_t len)
{
	(void)conn;
	if (len == sizeof(COST_DONE_MSG) && memcmp(msg, COST_DONE_MSG, len) == 0)
		c.done = true;
}

static void
connected(struct rte_comch_connection *conn, int status)
{
	if (status == 0) {
		c.conn = conn;
		c.connected = true;
	}
}

static void
disconnected(struct rte_comch_connection *conn, int status)
{
	(void)conn;
	(void)status;
	c.disconnected = true;
}

static void
new_consumer(struct rte_comch_connection *conn, uint32_t id)
{
	(void)conn;
	c.peer_consumer = id;
	c.peer_ready = true;
}

static void
expired_consumer(struct rte_comch_connection *conn, uint32_t id)
{
	(void)conn;
	(void)id;
}

/* A message arrived: count it, post the buffer again until the last one. */
static void
recv_ok(struct rte_comch_consumer_task_post_recv *task, union rte_comch_data tud,
	union rte_comch_data cud)
{
	struct rte_comch_task *t = rte_comch_consumer_task_post_recv_as_task(task);
	uint64_t n = ++c.done_count;

	(void)tud;
	(void)cud;
	if (n == c.a.count / 10)
		c.t0 = cost_now_ns();
	if (n == c.a.count)
		c.t1 = cost_now_ns();
	if (n + c.a.window > c.a.count) {
		c.free_bufs[c.nb_free++] = rte_comch_consumer_task_post_recv_get_buf(task);
		rte_comch_task_free(t);
		return;
	}
	rte_comch_buf_reset_data_len(rte_comch_consumer_task_post_recv_get_buf(task));
	if (rte_comch_task_submit(t) != 0) {
		rte_comch_task_free(t);
		fail("post a receive again", -EIO);
	}
}

static void
recv_err(struct rte_comch_consumer_task_post_recv *task, union rte_comch_data tud,
	 union rte_comch_data cud)
{
	(void)tud;
	(void)cud;
	/* Given back unfilled when the consumer stops. */
	c.free_bufs[c.nb_free++] = rte_comch_consumer_task_post_recv_get_buf(task);
	rte_comch_task_free(rte_comch_consumer_task_post_recv_as_task(task));
}

/* A send completed: its buffer is free again. */
static void
send_done(struct rte_comch_producer_task_send *task, union rte_comch_data tud,
	  union rte_comch_data cud)
{
	struct rte_comch_task *t = rte_comch_producer_task_send_as_task(task);

	(void)cud;
	if (rte_comch_task_get_status(t) != 0)
		fail("a send", rte_comch_task_get_status(t));
	c.free_bufs[c.nb_free++] = tud.ptr;
	c.done_count++;
	rte_comch_task_free(t);
}

/* ------------------------------------------------------------ steps */

/* Progress until *flag, or the timeout. */
static bool
wait_for(const bool *flag)
{
	uint64_t end = cost_now_ns() + COST_TIMEOUT_NS;

	while (!*flag && !c.failed && cost_now_ns() < end)
		rte_comch_pe_progress(c.pe);
	return *flag;
}

static bool
ctx_is(struct rte_comch_ctx *ctx, enum rte_comch_ctx_state st)
{
	enum rte_comch_ctx_state s;

	return rte_comch_ctx_get_state(ctx, &s) == 0 && s == st;
}

/* Progress until ctx is in state st, or the timeout. */
static bool
wait_state(struct rte_comch_ctx *ctx, enum rte_comch_ctx_state st)
{
	uint64_t end = cost_now_ns() + COST_TIMEOUT_NS;

	while (!ctx_is(ctx, st) && cost_now_ns() < end)
		rte_comch_pe_progress(c.pe);
	return ctx_is(ctx, st);
}

static void
stop(struct rte_comch_ctx *ctx)
{
	int ret = rte_comch_ctx_stop(ctx);

	if ((ret != 0 && ret != -EINPROGRESS) ||
	    !wait_state(ctx, RTE_COMCH_CTX_STATE_IDLE))
		fail("stop", ret);
}

static int
open_device(void)
{
	c.dev = rte_comch_dev_open(c.a.devargs);
	if (c.dev == NULL)
		return -rte_errno;
	if (!c.a.server)
		return 0;
	c.rep = rte_comch_dev_rep_open(c.dev, "pf0");
	return c.rep != NULL ? 0 : -rte_errno;
}

/* The side's memory: W slots of S bytes; a buffer over each. */
static int
create_memory(void)
{
	size_t len = (size_t)c.a.size * c.a.window;
	int ret;
	uint32_t i;

	c.mem = aligned_alloc(4096, (len + 4095) & ~(size_t)4095);
	c.free_bufs = calloc(c.a.window, sizeof(*c.free_bufs));
	if (c.mem == NULL || c.free_bufs == NULL)
		return -ENOMEM;
	memset(c.mem, 0xa5, len);
	c.mmap = rte_comch_mmap_create();
	ret = c.mmap != NULL ? 0 : -rte_errno;
	if (ret == 0)
		ret = rte_comch_mmap_add_dev(c.mmap, c.dev);
	if (ret == 0)
		ret = rte_comch_mmap_set_permissions(c.mmap, RTE_COMCH_MMAP_PERM_LOCAL_READ_WRITE |
						     RTE_COMCH_MMAP_PERM_PCI_READ_WRITE);
	if (ret == 0)
		ret = rte_comch_mmap_set_memrange(c.mmap, c.mem, len);
	if (ret == 0)
		ret = rte_comch_mmap_start(c.mmap);
	if (ret == 0) {
		c.inv = rte_comch_buf_pool_create(c.a.window);
		ret = c.inv != NULL ? 0 : -rte_errno;
	}
	for (i = 0; ret == 0 && i < c.a.window; i++) {
		uint8_t *slot = c.mem + (size_t)i * c.a.size;

		/* Receives fill empty buffers; sends take full ones. */
		ret = c.a.server ?
		      rte_comch_buf_pool_get_by_addr(c.inv, c.mmap, slot, c.a.size,
							 &c.free_bufs[i]) :
		      rte_comch_buf_pool_get_by_data(c.inv, c.mmap, slot, c.a.size,
							 &c.free_bufs[i]);
		c.nb_free += ret == 0;
	}
	return ret;
}

static int
start_ctrl(void)
{
	int ret;

	if (c.a.server) {
		c.server = rte_comch_server_create(c.dev, c.rep, c.a.name);
		if (c.server == NULL)
			return -rte_errno;
		c.ctrl = rte_comch_server_as_ctx(c.server);
		ret = rte_comch_server_task_send_set_conf(c.server, ctrl_sent, ctrl_sent, 4);
		if (ret == 0)
			ret = rte_comch_server_event_msg_recv_register(c.server, ctrl_recv);
		if (ret == 0)
			ret = rte_comch_server_event_connection_status_changed_register(
				c.server, connected, disconnected);
		if (ret == 0)
			ret = rte_comch_server_event_consumer_register(c.server, new_consumer,
									expired_consumer);
	} else {
		c.client = rte_comch_client_create(c.dev, c.a.name);
		if (c.client == NULL)
			return -rte_errno;
		c.ctrl = rte_comch_client_as_ctx(c.client);
		ret = rte_comch_client_task_send_set_conf(c.client, ctrl_sent, ctrl_sent, 4);
		if (ret == 0)
			ret = rte_comch_client_event_msg_recv_register(c.client, ctrl_recv);
		if (ret == 0)
			ret = rte_comch_client_event_consumer_register(c.client, new_consumer,
									expired_consumer);
	}
	if (ret == 0)
		ret = rte_comch_pe_connect_ctx(c.pe, c.ctrl);
	if (ret == 0)
		ret = rte_comch_ctx_start(c.ctrl);
	return ret == -EINPROGRESS ? 0 : ret;
}

/* Server: a consumer on the connection, W receives posted. */
static int
start_consumer(void)
{
	struct rte_comch_consumer_task_post_recv *task;
	struct rte_comch_ctx *ctx;
	int ret;

	c.consumer = rte_comch_consumer_create(c.conn, c.mmap);
	if (c.consumer == NULL)
		return -rte_errno;
	ctx = rte_comch_consumer_as_ctx(c.consumer);
	ret = rte_comch_consumer_task_post_recv_set_conf(c.consumer, recv_ok, recv_err,
							  c.a.window);
	if (ret == 0)
		ret = rte_comch_pe_connect_ctx(c.pe, ctx);
	if (ret == 0)
		ret = rte_comch_ctx_start(ctx);
	if (ret == -EINPROGRESS)
		ret = wait_state(ctx, RTE_COMCH_CTX_STATE_RUNNING) ? 0 : -ETIMEDOUT;
	while (ret == 0 && c.nb_free > 0) {
		ret = rte_comch_consumer_task_post_recv_alloc_init(c.consumer,
								    c.free_bufs[--c.nb_free],
								    &task);
		if (ret == 0)
			ret = rte_comch_task_submit(
				rte_comch_consumer_task_post_recv_as_task(task));
	}
	return ret;
}

/* Client: a producer on the connection. */
static int
start_producer(void)
{
	int ret;

	c.producer = rte_comch_producer_create(c.conn);
	ret = c.producer != NULL ? 0 : -rte_errno;
	if (ret == 0)
		ret = rte_comch_producer_task_send_set_conf(c.producer, send_done, send_done,
							     c.a.window);
	if (ret == 0)
		ret = rte_comch_pe_connect_ctx(c.pe, rte_comch_producer_as_ctx(c.producer));
	if (ret == 0)
		ret = rte_comch_ctx_start(rte_comch_producer_as_ctx(c.producer));
	return ret;
}

/* Client: send N messages, at most W in flight; a refused one is sent again. */
static void
stream(void)
{
	struct rte_comch_producer_task_send *task = NULL;
	uint64_t sent = 0, end = cost_now_ns() + COST_TIMEOUT_NS;
	int ret;

	while (c.done_count < c.a.count && !c.failed) {
		while (sent < c.a.count && (task != NULL || c.nb_free > 0)) {
			if (task == NULL) {
				struct rte_comch_buf *buf = c.free_bufs[--c.nb_free];

				ret = rte_comch_producer_task_send_alloc_init(
					c.producer, buf, NULL, 0, c.peer_consumer, &task);
				if (ret != 0) {
					fail("take a send task", ret);
					return;
				}
				rte_comch_task_set_user_data(
					rte_comch_producer_task_send_as_task(task),
					(union rte_comch_data){ .ptr = buf });
			}
			ret = rte_comch_task_submit(rte_comch_producer_task_send_as_task(task));
			if (ret == -EAGAIN)
				break; /* no receive posted: progress, then again */
			if (ret != 0) {
				fail("send", ret);
				return;
			}
			task = NULL;
			sent++;
		}
		rte_comch_pe_progress(c.pe);
		if ((sent & 0xfff) == 0 && cost_now_ns() > end) {
			fail("stream", -ETIMEDOUT);
			return;
		}
	}
}

static void
teardown(void)
{
	if (c.consumer != NULL) {
		if (!ctx_is(rte_comch_consumer_as_ctx(c.consumer), RTE_COMCH_CTX_STATE_IDLE))
			stop(rte_comch_consumer_as_ctx(c.consumer));
		rte_comch_consumer_destroy(c.consumer);
	}
	if (c.producer != NULL) {
		if (!ctx_is(rte_comch_producer_as_ctx(c.producer), RTE_COMCH_CTX_STATE_IDLE))
			stop(rte_comch_producer_as_ctx(c.producer));
		rte_comch_producer_destroy(c.producer);
	}
	if (c.ctrl != NULL && !ctx_is(c.ctrl, RTE_COMCH_CTX_STATE_IDLE))
		stop(c.ctrl);
	if (c.server != NULL)
		rte_comch_server_destroy(c.server);
	if (c.client != NULL)
		rte_comch_client_destroy(c.client);
	while (c.nb_free > 0)
		rte_comch_buf_dec_refcount(c.free_bufs[--c.nb_free], NULL);
	if (c.inv != NULL)
		rte_comch_buf_pool_destroy(c.inv);
	if (c.mmap != NULL)
		rte_comch_mmap_destroy(c.mmap);
	if (c.pe != NULL)
		rte_comch_pe_destroy(c.pe);
	if (c.rep != NULL)
		rte_comch_dev_rep_close(c.rep);
	if (c.dev != NULL)
		rte_comch_dev_close(c.dev);
	free(c.mem);
	free(c.free_bufs);
}

int
main(int argc, char **argv)
{
	struct rte_comch_task_send *task;
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0)
		return EXIT_FAILURE;
	if (!cost_parse(argc - ret, argv + ret, &c.a))
		return EXIT_FAILURE;
	ret = open_device();
	if (ret == 0) {
		c.pe = rte_comch_pe_create(rte_lcore_id());
		ret = c.pe != NULL ? 0 : -rte_errno;
	}
	if (ret == 0)
		ret = create_memory();
	if (ret == 0)
		ret = start_ctrl();
	if (ret != 0)
		fail("set up", ret);
	if (!c.failed && c.a.server) {
		ret = wait_for(&c.connected) ? start_consumer() : -ETIMEDOUT;
		if (ret != 0)
			fail("consumer", ret);
		while (c.done_count < c.a.count && !c.failed && !c.disconnected)
			rte_comch_pe_progress(c.pe);
		if (c.done_count == c.a.count)
			cost_report("rte", &c.a, c.t1 - c.t0, c.a.count - c.a.count / 10);
		else
			fail("receive", -ECONNABORTED);
		ret = rte_comch_server_task_send_alloc_init(c.server, c.conn, COST_DONE_MSG,
							     sizeof(COST_DONE_MSG), &task);
		if (ret == 0)
			ret = rte_comch_task_submit(rte_comch_task_send_as_task(task));
		if (ret == 0)
			wait_for(&c.disconnected);
	} else if (!c.failed) {
		if (!wait_state(c.ctrl, RTE_COMCH_CTX_STATE_RUNNING))
			fail("connect", -ETIMEDOUT);
		ret = rte_comch_client_get_connection(c.client, &c.conn);
		if (ret == 0)
			ret = start_producer();
		if (ret != 0)
			fail("producer", ret);
		if (!c.failed && !wait_for(&c.peer_ready))
			fail("the server's consumer", -ETIMEDOUT);
		if (!c.failed)
			stream();
		if (!c.failed && !wait_for(&c.done))
			fail("the server's end", -ETIMEDOUT);
	}
	teardown();
	rte_eal_cleanup();
	return c.failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
