/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The cost benchmark's stream in DOCA's names, over the DOCA layer (see
 * cost_common.h; cost_rte.c is the same loop in rte_comch's names). EAL is the
 * layer's: RTE_COMCH_DOCA_EAL_ARGS sets it; the device is a PCI address of the
 * layer's mapping.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_comch.h>
#include <doca_comch_consumer.h>
#include <doca_comch_producer.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_mmap.h>
#include <doca_pe.h>

#include "cost_common.h"

struct cost {
	struct cost_args a;
	struct doca_dev *dev;
	struct doca_dev_rep *rep;
	struct doca_pe *pe;
	struct doca_comch_server *server;
	struct doca_comch_client *client;
	struct doca_ctx *ctrl;
	struct doca_comch_connection *conn;
	struct doca_mmap *mmap;
	struct doca_buf_inventory *inv;
	uint8_t *mem;
	struct doca_buf **free_bufs;	/* client: the buffers no send holds */
	uint32_t nb_free;
	struct doca_comch_consumer *consumer;
	struct doca_comch_producer *producer;
	uint32_t peer_consumer;		/* client: the server's consumer */
	uint64_t done_count;		/* sends (client) or receives (server) completed */
	uint64_t t0, t1;		/* server: the warm-up's end, the last message */
	bool connected, peer_ready, done, disconnected;
	int failed;
};

static struct cost c;

static void
fail(const char *what, doca_error_t ret)
{
	fprintf(stderr, "cost_doca: %s: %s\n", what, doca_error_get_descr(ret));
	c.failed = 1;
}

/* ------------------------------------------------------------ callbacks */

static void
ctrl_sent(struct doca_comch_task_send *task, union doca_data tud, union doca_data cud)
{
	(void)tud;
	(void)cud;
	doca_task_free(doca_comch_task_send_as_task(task));
}

static void
ctrl_recv(struct doca_comch_event_msg_recv *event, uint8_t *msg, uint32_t len,
	  struct doca_comch_connection *conn)
{
	(void)event;
	(void)conn;
	if (len == sizeof(COST_DONE_MSG) && memcmp(msg, COST_DONE_MSG, len) == 0)
		c.done = true;
}

static void
connected(struct doca_comch_event_connection_status_changed *event,
	  struct doca_comch_connection *conn, uint8_t ok)
{
	(void)event;
	if (ok) {
		c.conn = conn;
		c.connected = true;
	}
}

static void
disconnected(struct doca_comch_event_connection_status_changed *event,
	     struct doca_comch_connection *conn, uint8_t ok)
{
	(void)event;
	(void)conn;
	(void)ok;
	c.disconnected = true;
}

static void
new_consumer(struct doca_comch_event_consumer *event, struct doca_comch_connection *conn,
	     uint32_t id)
{
	(void)event;
	(void)conn;
	c.peer_consumer = id;
	c.peer_ready = true;
}

static void
expired_consumer(struct doca_comch_event_consumer *event, struct doca_comch_connection *conn,
		 uint32_t id)
{
	(void)event;
	(void)conn;
	(void)id;
}

/* A message arrived: count it, post the buffer again until the last one. */
static void
recv_ok(struct doca_comch_consumer_task_post_recv *task, union doca_data tud,
	union doca_data cud)
{
	struct doca_task *t = doca_comch_consumer_task_post_recv_as_task(task);
	uint64_t n = ++c.done_count;

	(void)tud;
	(void)cud;
	if (n == c.a.count / 10)
		c.t0 = cost_now_ns();
	if (n == c.a.count)
		c.t1 = cost_now_ns();
	if (n + c.a.window > c.a.count) {
		c.free_bufs[c.nb_free++] = doca_comch_consumer_task_post_recv_get_buf(task);
		doca_task_free(t);
		return;
	}
	doca_buf_reset_data_len(doca_comch_consumer_task_post_recv_get_buf(task));
	if (doca_task_submit(t) != DOCA_SUCCESS) {
		doca_task_free(t);
		fail("post a receive again", DOCA_ERROR_UNEXPECTED);
	}
}

static void
recv_err(struct doca_comch_consumer_task_post_recv *task, union doca_data tud,
	 union doca_data cud)
{
	(void)tud;
	(void)cud;
	/* Given back unfilled when the consumer stops. */
	c.free_bufs[c.nb_free++] = doca_comch_consumer_task_post_recv_get_buf(task);
	doca_task_free(doca_comch_consumer_task_post_recv_as_task(task));
}

/* A send completed: its buffer is free again. */
static void
send_done(struct doca_comch_producer_task_send *task, union doca_data tud, union doca_data cud)
{
	struct doca_task *t = doca_comch_producer_task_send_as_task(task);

	(void)cud;
	if (doca_task_get_status(t) != DOCA_SUCCESS)
		fail("a send", doca_task_get_status(t));
	c.free_bufs[c.nb_free++] = tud.ptr;
	c.done_count++;
	doca_task_free(t);
}

/* ------------------------------------------------------------ steps */

/* Progress until *flag, or the timeout. */
static bool
wait_for(const bool *flag)
{
	uint64_t end = cost_now_ns() + COST_TIMEOUT_NS;

	while (!*flag && !c.failed && cost_now_ns() < end)
		doca_pe_progress(c.pe);
	return *flag;
}

static bool
ctx_is(struct doca_ctx *ctx, enum doca_ctx_states st)
{
	enum doca_ctx_states s;

	return doca_ctx_get_state(ctx, &s) == DOCA_SUCCESS && s == st;
}

/* Progress until ctx is in state st, or the timeout. */
static bool
wait_state(struct doca_ctx *ctx, enum doca_ctx_states st)
{
	uint64_t end = cost_now_ns() + COST_TIMEOUT_NS;

	while (!ctx_is(ctx, st) && cost_now_ns() < end)
		doca_pe_progress(c.pe);
	return ctx_is(ctx, st);
}

static void
stop(struct doca_ctx *ctx)
{
	doca_error_t ret = doca_ctx_stop(ctx);

	if ((ret != DOCA_SUCCESS && ret != DOCA_ERROR_IN_PROGRESS) ||
	    !wait_state(ctx, DOCA_CTX_STATE_IDLE))
		fail("stop", ret);
}

static doca_error_t
open_device(void)
{
	struct doca_devinfo_rep **reps;
	struct doca_devinfo **list;
	uint32_t nb, i;
	uint8_t eq = 0;
	doca_error_t ret = doca_devinfo_create_list(&list, &nb);

	if (ret != DOCA_SUCCESS)
		return ret;
	ret = DOCA_ERROR_NOT_FOUND;
	for (i = 0; i < nb && c.dev == NULL; i++)
		if (doca_devinfo_is_equal_pci_addr(list[i], c.a.devargs, &eq) == DOCA_SUCCESS && eq)
			ret = doca_dev_open(list[i], &c.dev);
	doca_devinfo_destroy_list(list);
	if (ret != DOCA_SUCCESS || !c.a.server)
		return ret;
	ret = doca_devinfo_rep_create_list(c.dev, DOCA_DEVINFO_REP_FILTER_NET, &reps, &nb);
	if (ret == DOCA_SUCCESS)
		ret = nb > 0 ? doca_dev_rep_open(reps[0], &c.rep) : DOCA_ERROR_NOT_FOUND;
	doca_devinfo_rep_destroy_list(reps);
	return ret;
}

/* The side's memory: W slots of S bytes; a buffer over each. */
static doca_error_t
create_memory(void)
{
	size_t len = (size_t)c.a.size * c.a.window;
	doca_error_t ret;
	uint32_t i;

	c.mem = aligned_alloc(4096, (len + 4095) & ~(size_t)4095);
	c.free_bufs = calloc(c.a.window, sizeof(*c.free_bufs));
	if (c.mem == NULL || c.free_bufs == NULL)
		return DOCA_ERROR_NO_MEMORY;
	memset(c.mem, 0xa5, len);
	ret = doca_mmap_create(&c.mmap);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_add_dev(c.mmap, c.dev);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_set_permissions(c.mmap, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE |
						DOCA_ACCESS_FLAG_PCI_READ_WRITE);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_set_memrange(c.mmap, c.mem, len);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_start(c.mmap);
	if (ret == DOCA_SUCCESS)
		ret = doca_buf_inventory_create(c.a.window, &c.inv);
	if (ret == DOCA_SUCCESS)
		ret = doca_buf_inventory_start(c.inv);
	for (i = 0; ret == DOCA_SUCCESS && i < c.a.window; i++) {
		uint8_t *slot = c.mem + (size_t)i * c.a.size;

		/* Receives fill empty buffers; sends take full ones. */
		ret = c.a.server ?
		      doca_buf_inventory_buf_get_by_addr(c.inv, c.mmap, slot, c.a.size,
							 &c.free_bufs[i]) :
		      doca_buf_inventory_buf_get_by_data(c.inv, c.mmap, slot, c.a.size,
							 &c.free_bufs[i]);
		c.nb_free += ret == DOCA_SUCCESS;
	}
	return ret;
}

static doca_error_t
start_ctrl(void)
{
	doca_error_t ret;

	if (c.a.server) {
		ret = doca_comch_server_create(c.dev, c.rep, c.a.name, &c.server);
		if (ret != DOCA_SUCCESS)
			return ret;
		c.ctrl = doca_comch_server_as_ctx(c.server);
		ret = doca_comch_server_task_send_set_conf(c.server, ctrl_sent, ctrl_sent, 4);
		if (ret == DOCA_SUCCESS)
			ret = doca_comch_server_event_msg_recv_register(c.server, ctrl_recv);
		if (ret == DOCA_SUCCESS)
			ret = doca_comch_server_event_connection_status_changed_register(
				c.server, connected, disconnected);
		if (ret == DOCA_SUCCESS)
			ret = doca_comch_server_event_consumer_register(c.server, new_consumer,
									expired_consumer);
	} else {
		ret = doca_comch_client_create(c.dev, c.a.name, &c.client);
		if (ret != DOCA_SUCCESS)
			return ret;
		c.ctrl = doca_comch_client_as_ctx(c.client);
		ret = doca_comch_client_task_send_set_conf(c.client, ctrl_sent, ctrl_sent, 4);
		if (ret == DOCA_SUCCESS)
			ret = doca_comch_client_event_msg_recv_register(c.client, ctrl_recv);
		if (ret == DOCA_SUCCESS)
			ret = doca_comch_client_event_consumer_register(c.client, new_consumer,
									expired_consumer);
	}
	if (ret == DOCA_SUCCESS)
		ret = doca_pe_connect_ctx(c.pe, c.ctrl);
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_start(c.ctrl);
	return ret == DOCA_ERROR_IN_PROGRESS ? DOCA_SUCCESS : ret;
}

/* Server: a consumer on the connection, W receives posted. */
static doca_error_t
start_consumer(void)
{
	struct doca_comch_consumer_task_post_recv *task;
	struct doca_ctx *ctx;
	doca_error_t ret = doca_comch_consumer_create(c.conn, c.mmap, &c.consumer);

	if (ret != DOCA_SUCCESS)
		return ret;
	ctx = doca_comch_consumer_as_ctx(c.consumer);
	ret = doca_comch_consumer_task_post_recv_set_conf(c.consumer, recv_ok, recv_err,
							  c.a.window);
	if (ret == DOCA_SUCCESS)
		ret = doca_pe_connect_ctx(c.pe, ctx);
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_start(ctx);
	if (ret == DOCA_ERROR_IN_PROGRESS)
		ret = wait_state(ctx, DOCA_CTX_STATE_RUNNING) ? DOCA_SUCCESS : DOCA_ERROR_TIME_OUT;
	while (ret == DOCA_SUCCESS && c.nb_free > 0) {
		ret = doca_comch_consumer_task_post_recv_alloc_init(c.consumer,
								    c.free_bufs[--c.nb_free],
								    &task);
		if (ret == DOCA_SUCCESS)
			ret = doca_task_submit(doca_comch_consumer_task_post_recv_as_task(task));
	}
	return ret;
}

/* Client: a producer on the connection. */
static doca_error_t
start_producer(void)
{
	doca_error_t ret = doca_comch_producer_create(c.conn, &c.producer);

	if (ret == DOCA_SUCCESS)
		ret = doca_comch_producer_task_send_set_conf(c.producer, send_done, send_done,
							     c.a.window);
	if (ret == DOCA_SUCCESS)
		ret = doca_pe_connect_ctx(c.pe, doca_comch_producer_as_ctx(c.producer));
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_start(doca_comch_producer_as_ctx(c.producer));
	return ret;
}

/* Client: send N messages, at most W in flight; a refused one is sent again. */
static void
stream(void)
{
	struct doca_comch_producer_task_send *task = NULL;
	uint64_t sent = 0, end = cost_now_ns() + COST_TIMEOUT_NS;
	doca_error_t ret;

	while (c.done_count < c.a.count && !c.failed) {
		while (sent < c.a.count && (task != NULL || c.nb_free > 0)) {
			if (task == NULL) {
				struct doca_buf *buf = c.free_bufs[--c.nb_free];

				ret = doca_comch_producer_task_send_alloc_init(
					c.producer, buf, NULL, 0, c.peer_consumer, &task);
				if (ret != DOCA_SUCCESS) {
					fail("take a send task", ret);
					return;
				}
				doca_task_set_user_data(doca_comch_producer_task_send_as_task(task),
							(union doca_data){ .ptr = buf });
			}
			ret = doca_task_submit(doca_comch_producer_task_send_as_task(task));
			if (ret == DOCA_ERROR_AGAIN)
				break; /* no receive posted: progress, then again */
			if (ret != DOCA_SUCCESS) {
				fail("send", ret);
				return;
			}
			task = NULL;
			sent++;
		}
		doca_pe_progress(c.pe);
		if ((sent & 0xfff) == 0 && cost_now_ns() > end) {
			fail("stream", DOCA_ERROR_TIME_OUT);
			return;
		}
	}
}

static void
teardown(void)
{
	if (c.consumer != NULL) {
		if (!ctx_is(doca_comch_consumer_as_ctx(c.consumer), DOCA_CTX_STATE_IDLE))
			stop(doca_comch_consumer_as_ctx(c.consumer));
		doca_comch_consumer_destroy(c.consumer);
	}
	if (c.producer != NULL) {
		if (!ctx_is(doca_comch_producer_as_ctx(c.producer), DOCA_CTX_STATE_IDLE))
			stop(doca_comch_producer_as_ctx(c.producer));
		doca_comch_producer_destroy(c.producer);
	}
	if (c.ctrl != NULL && !ctx_is(c.ctrl, DOCA_CTX_STATE_IDLE))
		stop(c.ctrl);
	if (c.server != NULL)
		doca_comch_server_destroy(c.server);
	if (c.client != NULL)
		doca_comch_client_destroy(c.client);
	while (c.nb_free > 0)
		doca_buf_dec_refcount(c.free_bufs[--c.nb_free], NULL);
	if (c.inv != NULL)
		doca_buf_inventory_destroy(c.inv);
	if (c.mmap != NULL)
		doca_mmap_destroy(c.mmap);
	if (c.pe != NULL)
		doca_pe_destroy(c.pe);
	if (c.rep != NULL)
		doca_dev_rep_close(c.rep);
	if (c.dev != NULL)
		doca_dev_close(c.dev);
	free(c.mem);
	free(c.free_bufs);
}

int
main(int argc, char **argv)
{
	struct doca_comch_task_send *task;
	doca_error_t ret;

	if (!cost_parse(argc, argv, &c.a))
		return EXIT_FAILURE;
	ret = open_device();
	if (ret == DOCA_SUCCESS)
		ret = doca_pe_create(&c.pe);
	if (ret == DOCA_SUCCESS)
		ret = create_memory();
	if (ret == DOCA_SUCCESS)
		ret = start_ctrl();
	if (ret != DOCA_SUCCESS)
		fail("set up", ret);
	if (!c.failed && c.a.server) {
		ret = wait_for(&c.connected) ? start_consumer() : DOCA_ERROR_TIME_OUT;
		if (ret != DOCA_SUCCESS)
			fail("consumer", ret);
		while (c.done_count < c.a.count && !c.failed && !c.disconnected)
			doca_pe_progress(c.pe);
		if (c.done_count == c.a.count)
			cost_report("doca", &c.a, c.t1 - c.t0, c.a.count - c.a.count / 10);
		else
			fail("receive", DOCA_ERROR_CONNECTION_ABORTED);
		ret = doca_comch_server_task_send_alloc_init(c.server, c.conn, COST_DONE_MSG,
							     sizeof(COST_DONE_MSG), &task);
		if (ret == DOCA_SUCCESS)
			ret = doca_task_submit(doca_comch_task_send_as_task(task));
		if (ret == DOCA_SUCCESS)
			wait_for(&c.disconnected);
	} else if (!c.failed) {
		if (!wait_state(c.ctrl, DOCA_CTX_STATE_RUNNING))
			fail("connect", DOCA_ERROR_TIME_OUT);
		ret = doca_comch_client_get_connection(c.client, &c.conn);
		if (ret == DOCA_SUCCESS)
			ret = start_producer();
		if (ret != DOCA_SUCCESS)
			fail("producer", ret);
		if (!c.failed && !wait_for(&c.peer_ready))
			fail("the server's consumer", DOCA_ERROR_TIME_OUT);
		if (!c.failed)
			stream();
		if (!c.failed && !wait_for(&c.done))
			fail("the server's end", DOCA_ERROR_TIME_OUT);
	}
	teardown();
	return c.failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
