/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>

#include "comch_sample.h"
#include "comch_sample_fast.h"

/*
 * One message each way: the consumer posts one buffer and the producer sends
 * one message, so tiny task pools are enough. Two buffer descriptors: one to
 * receive into, one to send from.
 */
#define NB_FAST_TASKS 4
#define NB_BUFS 2
/*
 * Size of the one receive buffer. A command-line argument is at most 128 KiB
 * on Linux (MAX_ARG_STRLEN), so any text the peer is given fits.
 */
#define RECV_BUF_SIZE (128 * 1024)

/* Keep the first fast-path failure; the main loop reports it and stops. */
static void
set_error(struct comch_sample_fast *fp, int err)
{
	if (fp->error == 0)
		fp->error = err;
}

/* ------------------------------------------------------------------ callbacks */

/*
 * The producer and the consumer carry fp as their context's user data, which
 * every callback below gets as ctx_user_data.
 */

static void
recv_done_cb(struct rte_comch_consumer_task_post_recv *task, union rte_comch_data task_user_data,
	     union rte_comch_data ctx_user_data)
{
	struct comch_sample_fast *fp = ctx_user_data.ptr;
	struct rte_comch_buf *buf = rte_comch_consumer_task_post_recv_get_buf(task);
	uint32_t producer_id = UINT32_MAX;
	char quoted[COMCH_SAMPLE_QUOTE_SIZE];

	/* The producer wrote straight into our buffer: data is at head, data_len long. */
	rte_comch_consumer_task_post_recv_get_producer_id(task, &producer_id);
	if (buf != NULL)
		printf("%s received: %s (%zu bytes) from producer %" PRIu32 "\n", fp->side,
		       comch_sample_quote(quoted, buf->data, buf->data_len), buf->data_len,
		       producer_id);
	else
		printf("%s received an empty message from producer %" PRIu32 "\n", fp->side,
		       producer_id);
	fp->received = true;
	fp->recv_posted = false;
	/*
	 * The callback owns the task: free it (the buffer stays ours, and is
	 * released at teardown), or the consumer could never be destroyed.
	 */
	rte_comch_task_free(rte_comch_consumer_task_post_recv_as_task(task));
}

static void
recv_error_cb(struct rte_comch_consumer_task_post_recv *task, union rte_comch_data task_user_data,
	      union rte_comch_data ctx_user_data)
{
	struct comch_sample_fast *fp = ctx_user_data.ptr;
	int status = rte_comch_task_get_status(rte_comch_consumer_task_post_recv_as_task(task));

	fp->recv_posted = false;
	rte_comch_task_free(rte_comch_consumer_task_post_recv_as_task(task));
	/* -ECONNABORTED: we stopped the consumer before a message came; expected then. */
	if (fp->tearing_down && status == -ECONNABORTED) {
		printf("%s: the posted receive buffer was returned unused\n", fp->side);
		return;
	}
	/* -ECONNRESET: the connection ended under the consumer. */
	fprintf(stderr, "%s: the posted receive buffer came back empty: %s (-%s)\n", fp->side,
		rte_strerror(-status), comch_sample_errno_name(status));
	set_error(fp, status);
}

static void
send_done_cb(struct rte_comch_producer_task_send *task, union rte_comch_data task_user_data,
	     union rte_comch_data ctx_user_data)
{
	struct comch_sample_fast *fp = ctx_user_data.ptr;

	/* Completion means the text is in the peer's buffer and its consumer was told. */
	fp->send_done = true;
	printf("%s: message delivered to the %s consumer\n", fp->side, fp->peer);
	rte_comch_task_free(rte_comch_producer_task_send_as_task(task));
}

static void
send_error_cb(struct rte_comch_producer_task_send *task, union rte_comch_data task_user_data,
	      union rte_comch_data ctx_user_data)
{
	struct comch_sample_fast *fp = ctx_user_data.ptr;
	int status = rte_comch_task_get_status(rte_comch_producer_task_send_as_task(task));

	fprintf(stderr, "%s: the message was not delivered: %s (-%s)\n", fp->side,
		rte_strerror(-status), comch_sample_errno_name(status));
	set_error(fp, status);
	rte_comch_task_free(rte_comch_producer_task_send_as_task(task));
}

static const char *
ctx_label(const struct comch_sample_fast *fp, const struct rte_comch_ctx *ctx)
{
	if (fp->producer != NULL && ctx == rte_comch_producer_as_ctx(fp->producer))
		return "producer";
	if (fp->consumer != NULL && ctx == rte_comch_consumer_as_ctx(fp->consumer))
		return "consumer";
	return "context";
}

/* One callback for the producer and the consumer, printed as the sample's own context's is. */
static void
state_changed_cb(union rte_comch_data user_data, struct rte_comch_ctx *ctx,
		 enum rte_comch_ctx_state prev_state, enum rte_comch_ctx_state next_state)
{
	struct comch_sample_fast *fp = user_data.ptr;

	comch_sample_print_state(fp->side, ctx_label(fp, ctx), prev_state, next_state);
}

void
comch_sample_fast_peer_consumer(struct comch_sample_fast *fp, uint32_t consumer_id, bool up)
{
	if (fp == NULL)
		return;
	printf("%s: the %s consumer %" PRIu32 " %s\n", fp->side, fp->peer, consumer_id,
	       up ? "is up" : "expired");
	if (up) {
		/* This sample sends to the first consumer the peer announces. */
		if (!fp->peer_consumer_known) {
			fp->peer_consumer_known = true;
			fp->peer_consumer_id = consumer_id;
		}
	} else if (fp->peer_consumer_known && fp->peer_consumer_id == consumer_id) {
		/* No producer may send to it any more (submit would fail with -ENOENT). */
		fp->peer_consumer_known = false;
	}
}

/* ------------------------------------------------------------------ set-up */

/*
 * The consumer's receive buffer goes in memory the peer can map and write
 * (PCI_READ_WRITE); the producer's send buffer in ordinary memory, which only
 * we read.
 */
int
comch_sample_fast_create_buffers(struct comch_sample_fast *fp, struct rte_comch_dev *dev,
				 const char *text)
{
	void *addr;
	size_t len;
	int ret;

	fp->text_len = (uint32_t)strlen(text);
	fp->recv_mmap = rte_comch_mmap_create();
	fp->send_mmap = rte_comch_mmap_create();
	fp->buf_pool = rte_comch_buf_pool_create(NB_BUFS);
	fp->send_mem = malloc(fp->text_len);
	if (fp->recv_mmap == NULL || fp->send_mmap == NULL || fp->buf_pool == NULL ||
	    fp->send_mem == NULL) {
		fprintf(stderr, "Cannot create the fast-path memory: out of memory\n");
		return -ENOMEM;
	}
	memcpy(fp->send_mem, text, fp->text_len);

	/*
	 * Both mmaps are registered with the device at start. A consumer's memory
	 * must be memory the peer can map: the device's driver allocates it.
	 */
	ret = rte_comch_mmap_add_dev(fp->recv_mmap, dev);
	if (ret == 0)
		ret = rte_comch_mmap_add_dev(fp->send_mmap, dev);
	if (ret == 0)
		ret = rte_comch_mmap_alloc_memrange(fp->recv_mmap, RECV_BUF_SIZE);
	if (ret == 0)
		ret = rte_comch_mmap_set_permissions(fp->recv_mmap,
						     RTE_COMCH_MMAP_PERM_LOCAL_READ_WRITE |
						     RTE_COMCH_MMAP_PERM_PCI_READ_WRITE);
	if (ret == 0)
		ret = rte_comch_mmap_start(fp->recv_mmap);
	if (ret == 0)
		ret = rte_comch_mmap_get_memrange(fp->recv_mmap, &addr, &len);
	if (ret == 0)
		ret = rte_comch_buf_pool_get_by_addr(fp->buf_pool, fp->recv_mmap, addr, len,
						     &fp->recv_buf);
	if (ret < 0) {
		fprintf(stderr, "Cannot set up the receive buffer: %s (-%s)\n",
			rte_strerror(-ret), comch_sample_errno_name(ret));
		return ret;
	}

	/* A producer sends from any started mmap, even over ordinary process memory. */
	ret = rte_comch_mmap_set_memrange(fp->send_mmap, fp->send_mem, fp->text_len);
	if (ret == 0)
		ret = rte_comch_mmap_start(fp->send_mmap);
	if (ret == 0)
		ret = rte_comch_buf_pool_get_by_data(fp->buf_pool, fp->send_mmap, fp->send_mem,
						     fp->text_len, &fp->send_buf);
	if (ret < 0) {
		fprintf(stderr, "Cannot set up the send buffer: %s (-%s)\n", rte_strerror(-ret),
			comch_sample_errno_name(ret));
		return ret;
	}
	return 0;
}

/* Give a producer or consumer fp as user data and our state callback, and start it. */
static int
start_fast_ctx(struct comch_sample_fast *fp, struct rte_comch_ctx *ctx, const char *what)
{
	int ret;

	ret = rte_comch_ctx_set_user_data(ctx, (union rte_comch_data){ .ptr = fp });
	if (ret == 0)
		ret = rte_comch_ctx_set_state_changed_cb(ctx, state_changed_cb);
	if (ret < 0) {
		fprintf(stderr, "Cannot attach the %s to the engine: %s (-%s)\n", what,
			rte_strerror(-ret), comch_sample_errno_name(ret));
		return ret;
	}
	/* A producer is RUNNING at once; a consumer is STARTING until the peer was told. */
	return comch_sample_start_ctx(fp->pe, ctx, what);
}

/*
 * Creating and destroying a consumer or producer must happen on the lcore of
 * its connection's engine: the sample's, which they are attached to as well
 * (they could have one of their own, on another lcore).
 */
int
comch_sample_fast_setup(struct comch_sample_fast *fp, struct rte_comch_pe *pe,
			struct rte_comch_connection *conn)
{
	uint32_t id;
	int ret;

	fp->set_up = true;
	fp->pe = pe;
	fp->consumer = rte_comch_consumer_create(conn, fp->recv_mmap);
	if (fp->consumer == NULL) {
		fprintf(stderr, "Cannot create the consumer: %s (-%s)\n", rte_strerror(rte_errno),
			comch_sample_errno_name(rte_errno));
		return -rte_errno;
	}
	ret = rte_comch_consumer_task_post_recv_set_conf(fp->consumer, recv_done_cb,
							 recv_error_cb, NB_FAST_TASKS);
	if (ret < 0) {
		fprintf(stderr, "Cannot configure the consumer: %s (-%s)\n", rte_strerror(-ret),
			comch_sample_errno_name(ret));
		return ret;
	}
	ret = start_fast_ctx(fp, rte_comch_consumer_as_ctx(fp->consumer), "consumer");
	if (ret < 0)
		return ret;
	rte_comch_consumer_get_id(fp->consumer, &id);
	printf("%s: consumer %" PRIu32 " created\n", fp->side, id);

	fp->producer = rte_comch_producer_create(conn);
	if (fp->producer == NULL) {
		fprintf(stderr, "Cannot create the producer: %s (-%s)\n", rte_strerror(rte_errno),
			comch_sample_errno_name(rte_errno));
		return -rte_errno;
	}
	ret = rte_comch_producer_task_send_set_conf(fp->producer, send_done_cb, send_error_cb,
						    NB_FAST_TASKS);
	if (ret < 0) {
		fprintf(stderr, "Cannot configure the producer: %s (-%s)\n", rte_strerror(-ret),
			comch_sample_errno_name(ret));
		return ret;
	}
	ret = start_fast_ctx(fp, rte_comch_producer_as_ctx(fp->producer), "producer");
	if (ret < 0)
		return ret;
	rte_comch_producer_get_id(fp->producer, &id);
	printf("%s: producer %" PRIu32 " created\n", fp->side, id);
	return 0;
}

/* ------------------------------------------------------------------ run */

/* Offer our buffer to the peer's producers. */
static int
post_recv(struct comch_sample_fast *fp)
{
	struct rte_comch_consumer_task_post_recv *task;
	int ret;

	ret = rte_comch_consumer_task_post_recv_alloc_init(fp->consumer, fp->recv_buf, &task);
	if (ret == 0) {
		ret = rte_comch_task_submit(rte_comch_consumer_task_post_recv_as_task(task));
		/* A task whose submit failed is still ours: give it back. */
		if (ret < 0)
			rte_comch_task_free(rte_comch_consumer_task_post_recv_as_task(task));
	}
	if (ret < 0) {
		fprintf(stderr, "%s: cannot post the receive buffer: %s (-%s)\n", fp->side,
			rte_strerror(-ret), comch_sample_errno_name(ret));
		return ret;
	}
	fp->recv_posted = true;
	printf("%s: posted a receive buffer of %zu bytes\n", fp->side, fp->recv_buf->len);
	return 0;
}

/* Send our text to the peer's consumer. 0 when submitted or worth retrying later. */
static int
send_message(struct comch_sample_fast *fp)
{
	struct rte_comch_producer_task_send *task;
	int ret;

	ret = rte_comch_producer_task_send_alloc_init(fp->producer, fp->send_buf, NULL, 0,
						      fp->peer_consumer_id, &task);
	if (ret == 0) {
		ret = rte_comch_task_submit(rte_comch_producer_task_send_as_task(task));
		if (ret < 0)
			rte_comch_task_free(rte_comch_producer_task_send_as_task(task));
	}
	/*
	 * -EAGAIN: the consumer has no buffer posted yet; -ENOENT: the library does
	 * not know that consumer (yet, or any more: the expired event says which);
	 * -ENOMEM: every task is in flight. Progress, then try again.
	 */
	if (ret == -EAGAIN || ret == -ENOENT || ret == -ENOMEM)
		return 0;
	if (ret == -EMSGSIZE) {
		fprintf(stderr, "%s: the text (%" PRIu32 " bytes) does not fit in the buffer "
			"the %s consumer posted\n", fp->side, fp->text_len, fp->peer);
		return ret;
	}
	if (ret < 0) {
		fprintf(stderr, "%s: cannot send: %s (-%s)\n", fp->side, rte_strerror(-ret),
			comch_sample_errno_name(ret));
		return ret;
	}
	fp->sent = true;
	printf("%s: sent %" PRIu32 " bytes to the %s consumer %" PRIu32 "\n", fp->side,
	       fp->text_len, fp->peer, fp->peer_consumer_id);
	return 0;
}

int
comch_sample_fast_exchange(struct comch_sample_fast *fp)
{
	enum rte_comch_ctx_state state;
	int ret;

	/* Only a RUNNING consumer takes posts: the peer must know it first. */
	if (fp->consumer != NULL && !fp->recv_posted && !fp->received &&
	    rte_comch_ctx_get_state(rte_comch_consumer_as_ctx(fp->consumer), &state) == 0 &&
	    state == RTE_COMCH_CTX_STATE_RUNNING) {
		ret = post_recv(fp);
		if (ret < 0)
			return ret;
	}
	if (fp->producer != NULL && fp->peer_consumer_known && !fp->sent) {
		ret = send_message(fp);
		if (ret < 0)
			return ret;
	}
	return 0;
}

bool
comch_sample_fast_done(const struct comch_sample_fast *fp)
{
	return fp->received && fp->send_done;
}

/* ------------------------------------------------------------------ stop */

/*
 * Producers and consumers go first: a server or client cannot stop (nor a
 * server disconnect a client) while they exist on its connection. Stop each,
 * progress until IDLE (tasks still in flight come back through their error
 * callback and are freed there), then destroy it, on this lcore: the
 * connection's engine's.
 */
int
comch_sample_fast_teardown(struct comch_sample_fast *fp)
{
	int ret, rc = 0;

	fp->down = true;
	fp->tearing_down = true;
	if (fp->producer != NULL && fp->pe != NULL) {
		ret = comch_sample_stop_ctx(fp->pe, rte_comch_producer_as_ctx(fp->producer),
					    "producer");
		if (ret == 0)
			ret = rte_comch_producer_destroy(fp->producer);
		if (ret < 0) {
			fprintf(stderr, "Cannot destroy the producer: %s (-%s)\n",
				rte_strerror(-ret), comch_sample_errno_name(ret));
			set_error(fp, ret);
			rc = ret;
		} else {
			fp->producer = NULL;
		}
	}
	if (fp->consumer != NULL && fp->pe != NULL) {
		ret = comch_sample_stop_ctx(fp->pe, rte_comch_consumer_as_ctx(fp->consumer),
					    "consumer");
		if (ret == 0)
			ret = rte_comch_consumer_destroy(fp->consumer);
		if (ret < 0) {
			fprintf(stderr, "Cannot destroy the consumer: %s (-%s)\n",
				rte_strerror(-ret), comch_sample_errno_name(ret));
			set_error(fp, ret);
			rc = ret;
		} else {
			fp->consumer = NULL;
		}
	}
	return rc;
}

/* Buffers hold their mmap: give them back before stopping and destroying the mmaps. */
int
comch_sample_fast_release(struct comch_sample_fast *fp)
{
	int ret, rc = 0;

	if (fp->recv_buf != NULL && rte_comch_buf_dec_refcount(fp->recv_buf, NULL) == 0)
		fp->recv_buf = NULL;
	if (fp->send_buf != NULL && rte_comch_buf_dec_refcount(fp->send_buf, NULL) == 0)
		fp->send_buf = NULL;
	if (fp->buf_pool != NULL) {
		ret = rte_comch_buf_pool_destroy(fp->buf_pool);
		if (ret < 0) {
			fprintf(stderr, "Cannot destroy the buffer pool: %s\n", rte_strerror(-ret));
			rc = ret;
		}
	}
	if (fp->recv_mmap != NULL) {
		rte_comch_mmap_stop(fp->recv_mmap); /* -EALREADY if it never started */
		ret = rte_comch_mmap_destroy(fp->recv_mmap);
		if (ret < 0) {
			fprintf(stderr, "Cannot destroy the receive mmap: %s\n",
				rte_strerror(-ret));
			rc = ret;
		}
	}
	if (fp->send_mmap != NULL) {
		rte_comch_mmap_stop(fp->send_mmap);
		ret = rte_comch_mmap_destroy(fp->send_mmap);
		if (ret < 0) {
			fprintf(stderr, "Cannot destroy the send mmap: %s\n", rte_strerror(-ret));
			rc = ret;
		}
	}
	/* The mmap was given this memory, it did not allocate it: it is ours to free. */
	free(fp->send_mem);
	return rc;
}
