/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Fast path ("high speed data path") server sample (BlueField side).
 *
 * Creates a server under a name on one representor and waits for one client.
 * Once the client is connected, it creates a consumer and a producer on the
 * connection, posts one receive buffer, learns the id of the client's consumer
 * from the new-consumer event and sends its text there with a producer send
 * task. It prints the message the client's producer wrote into its buffer,
 * then stops and destroys its producer and consumer, waits for the client to
 * close the connection, stops the server and exits.
 *
 * Everything runs on the main lcore: one progress engine, polled in a loop,
 * serves the server, the producer and the consumer. Every callback below runs
 * inside rte_comch_pe_progress(), on that lcore, so the sample needs no locks.
 *
 * Usage: dpdk-comch_data_path_high_speed_server [EAL args] -- -p <devargs>
 *        [-r <rep>] [-n <server name>] [-t <text>] [-T <timeout s>]
 */

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>

#include <rte_comch.h>

#include "comch_sample.h"

#define DEFAULT_REP "pf0"
#define DEFAULT_SERVER_NAME "comch_data_path_high_speed_sample"
#define DEFAULT_TEXT "Message from the server"
#define DEFAULT_TIMEOUT_S 30

/* The control path only carries the connection here: small pools and queues. */
#define NB_SEND_TASKS 8
#define RECV_QUEUE_SIZE 16
/*
 * One message each way: the consumer posts one buffer and the producer sends
 * one message, so tiny task pools are enough. Two buffer descriptors: one to
 * receive into, one to send from.
 */
#define NB_FAST_TASKS 4
#define NB_BUFS 2
/*
 * Size of the one receive buffer. A command-line argument is at most 128 KiB
 * on Linux (MAX_ARG_STRLEN), so any text the client is given fits.
 */
#define RECV_BUF_SIZE (128 * 1024)

struct server_app {
	/*
	 * -p, -r, -n, -t: the message sent to the client's consumer, -T: give up
	 * when no client came, or the exchange did not complete, within that time
	 */
	struct comch_sample_args args;
	struct rte_comch_dev *dev;
	struct rte_comch_dev_rep *rep;
	struct rte_comch_server *server;
	struct rte_comch_pe *pe;
	bool started;                      /* the server reached RUNNING */
	uint64_t started_at;               /* TSC when the main loop began */

	/* The one client's connection (NULL before it came and after it left). */
	struct rte_comch_connection *conn;
	bool client_came;
	bool client_gone;
	int disconnect_status;             /* why it left */
	uint64_t connected_at;             /* TSC when it connected */

	/* What the new/expired consumer events told about the client's consumer. */
	bool peer_consumer_known;
	uint32_t peer_consumer_id;

	/* The fast path on the client's connection. */
	struct rte_comch_mmap *recv_mmap;  /* peer-writable memory the consumer receives into */
	struct rte_comch_mmap *send_mmap;  /* local memory the producer sends from */
	struct rte_comch_buf_pool *buf_pool;
	struct rte_comch_buf *recv_buf;
	struct rte_comch_buf *send_buf;
	char *send_mem;                    /* the text, copied into memory the mmap owns... */
	uint32_t text_len;                 /* ...and its length */
	struct rte_comch_consumer *consumer;
	struct rte_comch_producer *producer;
	bool fast_path_set_up;
	bool recv_posted;                  /* our one post-recv task is in flight */
	bool received;                     /* and completed: the client's message is here */
	bool sent;                         /* our send task was submitted */
	bool send_done;                    /* and completed successfully */
	bool fast_path_down;               /* producer and consumer destroyed */
	bool tearing_down;                 /* we are stopping the producer and consumer */
	int fast_error;                    /* first fast-path failure, reported by a callback */
};

static void
usage(const char *prgname)
{
	printf("Usage: %s [EAL args] -- -p <devargs> [options]\n"
	       "  -p, --devargs <devargs>  device to open, e.g. shm:domain=bf0,role=dpu,rep=pf0\n"
	       "                           (alias: --pci-addr)\n"
	       "  -r, --rep <name>         representor the client connects through (default %s)\n"
	       "                           (alias: --rep-pci)\n"
	       "  -n, --name <name>        server name (default \"%s\")\n"
	       "  -t, --text <text>        message sent to the client's consumer (default \"%s\")\n"
	       "  -T, --timeout <seconds>  give up when no client came, or the exchange did not\n"
	       "                           complete, within that time; 0 for never (default %u)\n"
	       "  -h, --help               this text\n",
	       prgname, DEFAULT_REP, DEFAULT_SERVER_NAME, DEFAULT_TEXT, DEFAULT_TIMEOUT_S);
}

static const struct comch_sample_opts opts = {
	.optstring = "p:r:n:t:T:h",
	.timeout_max = UINT32_MAX,
	.text_required = true,
	.usage = usage,
};

/* Keep the first fast-path failure; the main loop reports it and stops. */
static void
set_fast_error(struct server_app *app, int err)
{
	if (app->fast_error == 0)
		app->fast_error = err;
}

/* ------------------------------------------------------------------ callbacks */

/* The control path carries no messages in this sample: anything that comes is shown. */
static void
msg_recv_cb(struct rte_comch_connection *conn, const uint8_t *msg, uint32_t len)
{
	printf("Server: unexpected control-path message of %" PRIu32 " bytes, ignored\n", len);
}

static void
connect_cb(struct rte_comch_connection *conn, int status)
{
	struct rte_comch_ctx *ctx = rte_comch_connection_get_ctx(conn);
	union rte_comch_data data;
	struct server_app *app;
	uint32_t msg_size = 0;

	if (ctx == NULL || rte_comch_ctx_get_user_data(ctx, &data) < 0)
		return;
	app = data.ptr;
	if (status != 0) {
		fprintf(stderr, "Server: failed connection attempt: %s\n", rte_strerror(-status));
		return;
	}
	if (app->client_came) {
		/* This sample serves one client; send any other away (it is told). */
		printf("Server: a second client connected, disconnecting it\n");
		rte_comch_server_disconnect(app->server, conn);
		return;
	}
	app->client_came = true;
	app->conn = conn;
	app->connected_at = rte_get_timer_cycles();
	/* Mark the connection as ours; a refused one keeps NULL user data. */
	rte_comch_connection_set_user_data(conn, (union rte_comch_data){ .ptr = app });
	rte_comch_connection_get_max_msg_size(conn, &msg_size);
	printf("Server: client connected (max message size %" PRIu32 " bytes)\n", msg_size);
	/* The fast path is set up by the main loop, outside this callback. */
}

static void
disconnect_cb(struct rte_comch_connection *conn, int status)
{
	union rte_comch_data data;
	struct server_app *app;

	if (rte_comch_connection_get_user_data(conn, &data) < 0 || data.ptr == NULL)
		return; /* a second client, sent away in connect_cb */
	app = data.ptr;
	printf("Server: client disconnected: %s (-%s)\n", comch_sample_disconnect_reason(status),
	       comch_sample_errno_name(status));
	app->client_gone = true;
	app->disconnect_status = status;
	/*
	 * The connection is freed once we return and its last producer or
	 * consumer is destroyed: do not use the pointer for anything else.
	 */
	app->conn = NULL;
	app->peer_consumer_known = false;
}

static void
new_consumer_cb(struct rte_comch_connection *conn, uint32_t consumer_id)
{
	union rte_comch_data data;
	struct server_app *app;

	if (rte_comch_connection_get_user_data(conn, &data) < 0 || data.ptr == NULL)
		return;
	app = data.ptr;
	printf("Server: the client's consumer %" PRIu32 " is up\n", consumer_id);
	/* This sample sends to the first consumer the client announces. */
	if (!app->peer_consumer_known) {
		app->peer_consumer_known = true;
		app->peer_consumer_id = consumer_id;
	}
}

static void
expired_consumer_cb(struct rte_comch_connection *conn, uint32_t consumer_id)
{
	union rte_comch_data data;
	struct server_app *app;

	if (rte_comch_connection_get_user_data(conn, &data) < 0 || data.ptr == NULL)
		return;
	app = data.ptr;
	printf("Server: the client's consumer %" PRIu32 " expired\n", consumer_id);
	/* No producer may send to it any more (submit would fail with -ENOENT). */
	if (app->peer_consumer_known && app->peer_consumer_id == consumer_id)
		app->peer_consumer_known = false;
}

static void
recv_done_cb(struct rte_comch_consumer_task_post_recv *task, union rte_comch_data task_user_data,
	     union rte_comch_data ctx_user_data)
{
	struct server_app *app = ctx_user_data.ptr;
	struct rte_comch_buf *buf = rte_comch_consumer_task_post_recv_get_buf(task);
	uint32_t producer_id = UINT32_MAX;
	char quoted[COMCH_SAMPLE_QUOTE_SIZE];

	/* The producer wrote straight into our buffer: data is at head, data_len long. */
	rte_comch_consumer_task_post_recv_get_producer_id(task, &producer_id);
	if (buf != NULL)
		printf("Server received: %s (%zu bytes) from producer %" PRIu32 "\n",
		       comch_sample_quote(quoted, buf->data, buf->data_len), buf->data_len,
		       producer_id);
	else
		printf("Server received an empty message from producer %" PRIu32 "\n",
		       producer_id);
	app->received = true;
	app->recv_posted = false;
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
	struct server_app *app = ctx_user_data.ptr;
	int status = rte_comch_task_get_status(rte_comch_consumer_task_post_recv_as_task(task));

	app->recv_posted = false;
	rte_comch_task_free(rte_comch_consumer_task_post_recv_as_task(task));
	/* -ECONNABORTED: we stopped the consumer before a message came; expected then. */
	if (app->tearing_down && status == -ECONNABORTED) {
		printf("Server: the posted receive buffer was returned unused\n");
		return;
	}
	/* -ECONNRESET: the connection ended under the consumer. */
	fprintf(stderr, "Server: the posted receive buffer came back empty: %s (-%s)\n",
		rte_strerror(-status), comch_sample_errno_name(status));
	set_fast_error(app, status);
}

static void
send_done_cb(struct rte_comch_producer_task_send *task, union rte_comch_data task_user_data,
	     union rte_comch_data ctx_user_data)
{
	struct server_app *app = ctx_user_data.ptr;

	/* Completion means the text is in the client's buffer and its consumer was told. */
	app->send_done = true;
	printf("Server: message delivered to the client's consumer\n");
	rte_comch_task_free(rte_comch_producer_task_send_as_task(task));
}

static void
send_error_cb(struct rte_comch_producer_task_send *task, union rte_comch_data task_user_data,
	      union rte_comch_data ctx_user_data)
{
	struct server_app *app = ctx_user_data.ptr;
	int status = rte_comch_task_get_status(rte_comch_producer_task_send_as_task(task));

	fprintf(stderr, "Server: the message was not delivered: %s (-%s)\n",
		rte_strerror(-status), comch_sample_errno_name(status));
	set_fast_error(app, status);
	rte_comch_task_free(rte_comch_producer_task_send_as_task(task));
}

/* Control-path send tasks are configured because a server needs them; none is sent. */
static void
ctrl_send_cb(struct rte_comch_task_send *task, union rte_comch_data task_user_data,
	     union rte_comch_data ctx_user_data)
{
	rte_comch_task_free(rte_comch_task_send_as_task(task));
}

static const char *
ctx_label(const struct server_app *app, const struct rte_comch_ctx *ctx)
{
	if (app->producer != NULL && ctx == rte_comch_producer_as_ctx(app->producer))
		return "producer";
	if (app->consumer != NULL && ctx == rte_comch_consumer_as_ctx(app->consumer))
		return "consumer";
	return "context";
}

/* One callback for the server, the producer and the consumer: their user data is the app. */
static void
state_changed_cb(union rte_comch_data user_data, struct rte_comch_ctx *ctx,
		 enum rte_comch_ctx_state prev_state, enum rte_comch_ctx_state next_state)
{
	comch_sample_print_state("Server", ctx_label(user_data.ptr, ctx), prev_state, next_state);
}

/* ------------------------------------------------------------------ set-up */

/*
 * The memory of the fast path, ready before any client comes: the consumer's
 * receive buffer in memory the peer can map and write (PCI_READ_WRITE), and the
 * producer's send buffer in ordinary memory, which only we read.
 */
static int
create_buffers(struct server_app *app)
{
	void *addr;
	size_t len;
	int ret;

	app->recv_mmap = rte_comch_mmap_create();
	app->send_mmap = rte_comch_mmap_create();
	app->buf_pool = rte_comch_buf_pool_create(NB_BUFS);
	app->send_mem = malloc(app->text_len);
	if (app->recv_mmap == NULL || app->send_mmap == NULL || app->buf_pool == NULL ||
	    app->send_mem == NULL) {
		fprintf(stderr, "Cannot create the fast-path memory: out of memory\n");
		return -ENOMEM;
	}
	memcpy(app->send_mem, app->args.text, app->text_len);

	/* A consumer's memory must be memory the peer can map: let the library allocate it. */
	ret = rte_comch_mmap_alloc_memrange(app->recv_mmap, RECV_BUF_SIZE);
	if (ret == 0)
		ret = rte_comch_mmap_set_permissions(app->recv_mmap,
						     RTE_COMCH_MMAP_PERM_LOCAL_READ_WRITE |
						     RTE_COMCH_MMAP_PERM_PCI_READ_WRITE);
	if (ret == 0)
		ret = rte_comch_mmap_start(app->recv_mmap);
	if (ret == 0)
		ret = rte_comch_mmap_get_memrange(app->recv_mmap, &addr, &len);
	if (ret == 0)
		ret = rte_comch_buf_pool_get_by_addr(app->buf_pool, app->recv_mmap, addr, len,
						     &app->recv_buf);
	if (ret < 0) {
		fprintf(stderr, "Cannot set up the receive buffer: %s (-%s)\n",
			rte_strerror(-ret), comch_sample_errno_name(ret));
		return ret;
	}

	/* A producer sends from any started mmap, even over ordinary process memory. */
	ret = rte_comch_mmap_set_memrange(app->send_mmap, app->send_mem, app->text_len);
	if (ret == 0)
		ret = rte_comch_mmap_start(app->send_mmap);
	if (ret == 0)
		ret = rte_comch_buf_pool_get_by_data(app->buf_pool, app->send_mmap, app->send_mem,
						     app->text_len, &app->send_buf);
	if (ret < 0) {
		fprintf(stderr, "Cannot set up the send buffer: %s (-%s)\n", rte_strerror(-ret),
			comch_sample_errno_name(ret));
		return ret;
	}
	return 0;
}

/* Create the server and register everything it needs before it may start. */
static int
create_server(struct server_app *app)
{
	struct rte_comch_ctx *ctx;
	int ret;

	app->server = rte_comch_server_create(app->dev, app->rep, app->args.name);
	if (app->server == NULL) {
		fprintf(stderr, "Cannot create server \"%s\" on representor %s: %s (-%s)\n",
			app->args.name, app->args.rep, rte_strerror(rte_errno),
			comch_sample_errno_name(rte_errno));
		return -rte_errno;
	}
	ctx = rte_comch_server_as_ctx(app->server);
	ret = rte_comch_server_task_send_set_conf(app->server, ctrl_send_cb, ctrl_send_cb,
						  NB_SEND_TASKS);
	if (ret == 0)
		ret = rte_comch_server_event_msg_recv_register(app->server, msg_recv_cb);
	if (ret == 0)
		ret = rte_comch_server_event_connection_status_changed_register(app->server,
										 connect_cb,
										 disconnect_cb);
	/* How the server learns the ids of the client's consumers. */
	if (ret == 0)
		ret = rte_comch_server_event_consumer_register(app->server, new_consumer_cb,
							       expired_consumer_cb);
	if (ret == 0)
		ret = rte_comch_server_set_recv_queue_size(app->server, RECV_QUEUE_SIZE);
	if (ret == 0)
		ret = rte_comch_ctx_set_user_data(ctx, (union rte_comch_data){ .ptr = app });
	if (ret == 0)
		ret = rte_comch_ctx_set_state_changed_cb(ctx, state_changed_cb);
	if (ret < 0) {
		fprintf(stderr, "Cannot configure the server: %s (-%s)\n", rte_strerror(-ret),
			comch_sample_errno_name(ret));
		return ret;
	}
	return 0;
}

static int
start_server(struct server_app *app)
{
	int ret;

	/* The server, and later the producer and the consumer, all use this engine. */
	app->pe = comch_sample_pe_create();
	if (app->pe == NULL)
		return -rte_errno;
	ret = comch_sample_start_ctx(app->pe, rte_comch_server_as_ctx(app->server), "server");
	if (ret < 0)
		return ret;
	app->started = true;
	printf("Server \"%s\" listening on representor %s\n", app->args.name, app->args.rep);
	return 0;
}

/* Attach a fast-path context to the engine, with our user data and state callback, and start it. */
static int
start_fast_ctx(struct server_app *app, struct rte_comch_ctx *ctx, const char *what)
{
	int ret;

	ret = rte_comch_ctx_set_user_data(ctx, (union rte_comch_data){ .ptr = app });
	if (ret == 0)
		ret = rte_comch_ctx_set_state_changed_cb(ctx, state_changed_cb);
	if (ret < 0) {
		fprintf(stderr, "Cannot attach the %s to the engine: %s (-%s)\n", what,
			rte_strerror(-ret), comch_sample_errno_name(ret));
		return ret;
	}
	/* A producer is RUNNING at once; a consumer is STARTING until the client was told. */
	return comch_sample_start_ctx(app->pe, ctx, what);
}

/*
 * Create a consumer and a producer on the client's connection. This runs on the
 * lcore of the server's engine, as creating and destroying them must; they are
 * attached to the same engine (they could have one of their own, on another
 * lcore).
 */
static int
setup_fast_path(struct server_app *app)
{
	uint32_t id;
	int ret;

	app->fast_path_set_up = true;
	app->consumer = rte_comch_consumer_create(app->conn, app->recv_mmap);
	if (app->consumer == NULL) {
		fprintf(stderr, "Cannot create the consumer: %s (-%s)\n", rte_strerror(rte_errno),
			comch_sample_errno_name(rte_errno));
		return -rte_errno;
	}
	ret = rte_comch_consumer_task_post_recv_set_conf(app->consumer, recv_done_cb,
							 recv_error_cb, NB_FAST_TASKS);
	if (ret < 0) {
		fprintf(stderr, "Cannot configure the consumer: %s (-%s)\n", rte_strerror(-ret),
			comch_sample_errno_name(ret));
		return ret;
	}
	ret = start_fast_ctx(app, rte_comch_consumer_as_ctx(app->consumer), "consumer");
	if (ret < 0)
		return ret;
	rte_comch_consumer_get_id(app->consumer, &id);
	printf("Server: consumer %" PRIu32 " created\n", id);

	app->producer = rte_comch_producer_create(app->conn);
	if (app->producer == NULL) {
		fprintf(stderr, "Cannot create the producer: %s (-%s)\n", rte_strerror(rte_errno),
			comch_sample_errno_name(rte_errno));
		return -rte_errno;
	}
	ret = rte_comch_producer_task_send_set_conf(app->producer, send_done_cb, send_error_cb,
						    NB_FAST_TASKS);
	if (ret < 0) {
		fprintf(stderr, "Cannot configure the producer: %s (-%s)\n", rte_strerror(-ret),
			comch_sample_errno_name(ret));
		return ret;
	}
	ret = start_fast_ctx(app, rte_comch_producer_as_ctx(app->producer), "producer");
	if (ret < 0)
		return ret;
	rte_comch_producer_get_id(app->producer, &id);
	printf("Server: producer %" PRIu32 " created\n", id);
	return 0;
}

/* ------------------------------------------------------------------ run */

/* Offer our buffer to the client's producers. Only a RUNNING consumer takes posts. */
static int
post_recv(struct server_app *app)
{
	struct rte_comch_consumer_task_post_recv *task;
	int ret;

	ret = rte_comch_consumer_task_post_recv_alloc_init(app->consumer, app->recv_buf, &task);
	if (ret == 0) {
		ret = rte_comch_task_submit(rte_comch_consumer_task_post_recv_as_task(task));
		/* A task whose submit failed is still ours: give it back. */
		if (ret < 0)
			rte_comch_task_free(rte_comch_consumer_task_post_recv_as_task(task));
	}
	if (ret < 0) {
		fprintf(stderr, "Server: cannot post the receive buffer: %s (-%s)\n",
			rte_strerror(-ret), comch_sample_errno_name(ret));
		return ret;
	}
	app->recv_posted = true;
	printf("Server: posted a receive buffer of %zu bytes\n", app->recv_buf->len);
	return 0;
}

/* Send our text to the client's consumer. 0 when submitted or worth retrying later. */
static int
send_message(struct server_app *app)
{
	struct rte_comch_producer_task_send *task;
	int ret;

	ret = rte_comch_producer_task_send_alloc_init(app->producer, app->send_buf, NULL, 0,
						      app->peer_consumer_id, &task);
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
		fprintf(stderr, "Server: the text (%" PRIu32 " bytes) does not fit in the buffer "
			"the client's consumer posted\n", app->text_len);
		return ret;
	}
	if (ret < 0) {
		fprintf(stderr, "Server: cannot send: %s (-%s)\n", rte_strerror(-ret),
			comch_sample_errno_name(ret));
		return ret;
	}
	app->sent = true;
	printf("Server: sent %" PRIu32 " bytes to the client's consumer %" PRIu32 "\n",
	       app->text_len, app->peer_consumer_id);
	return 0;
}

static void teardown_fast_path(struct server_app *app);

/*
 * One step of the main loop, after a round of progress. COMCH_SAMPLE_AGAIN
 * until the exchange is over and the client has gone; then 0 when both
 * messages went through and the client left in order, -errno otherwise.
 */
static int
server_step(void *arg)
{
	struct server_app *app = arg;
	struct rte_comch_ctx *cctx;
	enum rte_comch_ctx_state state;
	int ret;

	if (app->client_gone) {
		if (!app->received || !app->send_done) {
			fprintf(stderr, "Server: the client left before the exchange was "
				"complete\n");
			return app->disconnect_status < 0 ? app->disconnect_status :
							    -ECONNABORTED;
		}
		/* The client closes the connection once it is done: we are too. */
		return 0;
	}
	if (app->fast_error != 0)
		return app->fast_error;
	if (app->conn != NULL && !app->fast_path_set_up) {
		ret = setup_fast_path(app);
		if (ret < 0)
			return ret;
	}
	if (app->consumer != NULL && !app->recv_posted && !app->received) {
		cctx = rte_comch_consumer_as_ctx(app->consumer);
		if (rte_comch_ctx_get_state(cctx, &state) == 0 &&
		    state == RTE_COMCH_CTX_STATE_RUNNING) {
			ret = post_recv(app);
			if (ret < 0)
				return ret;
		}
	}
	if (app->producer != NULL && app->peer_consumer_known && !app->sent) {
		ret = send_message(app);
		if (ret < 0)
			return ret;
	}
	/* Both messages went through: the fast path is no longer needed. */
	if (app->received && app->send_done && !app->fast_path_down) {
		teardown_fast_path(app);
		if (app->fast_error != 0)
			return app->fast_error;
		printf("Server: exchange complete, waiting for the client to leave\n");
	}
	if (!app->client_came &&
	    comch_sample_timed_out(app->started_at, app->args.timeout_s)) {
		fprintf(stderr, "Server: no client came within %" PRIu32 " s\n",
			app->args.timeout_s);
		return -ETIMEDOUT;
	}
	if (app->client_came &&
	    comch_sample_timed_out(app->connected_at, app->args.timeout_s)) {
		fprintf(stderr, "Server: %s within %" PRIu32 " s of connecting\n",
			app->fast_path_down ? "the client did not leave" :
					      "the exchange did not complete",
			app->args.timeout_s);
		return -ETIMEDOUT;
	}
	return COMCH_SAMPLE_AGAIN;
}

static int
run_server(struct server_app *app)
{
	int ret;

	app->started_at = rte_get_timer_cycles();
	ret = comch_sample_poll(app->pe, server_step, app);
	if (ret == -EINTR)
		fprintf(stderr, "Server: signal %d received, stopping\n", comch_sample_signal());
	return ret;
}

/* ------------------------------------------------------------------ stop */

/*
 * Producers and consumers go first: the server cannot stop (nor disconnect a
 * client) while they exist on its connection. Stop each, progress until IDLE
 * (tasks still in flight come back through their error callback and are freed
 * there), then destroy it, on this lcore: the connection's engine's.
 */
static void
teardown_fast_path(struct server_app *app)
{
	int ret;

	app->fast_path_down = true;
	app->tearing_down = true;
	if (app->producer != NULL && app->pe != NULL) {
		ret = comch_sample_stop_ctx(app->pe, rte_comch_producer_as_ctx(app->producer),
					    "producer");
		if (ret == 0)
			ret = rte_comch_producer_destroy(app->producer);
		if (ret < 0) {
			fprintf(stderr, "Cannot destroy the producer: %s (-%s)\n",
				rte_strerror(-ret), comch_sample_errno_name(ret));
			set_fast_error(app, ret);
		} else {
			app->producer = NULL;
		}
	}
	if (app->consumer != NULL && app->pe != NULL) {
		ret = comch_sample_stop_ctx(app->pe, rte_comch_consumer_as_ctx(app->consumer),
					    "consumer");
		if (ret == 0)
			ret = rte_comch_consumer_destroy(app->consumer);
		if (ret < 0) {
			fprintf(stderr, "Cannot destroy the consumer: %s (-%s)\n",
				rte_strerror(-ret), comch_sample_errno_name(ret));
			set_fast_error(app, ret);
		} else {
			app->consumer = NULL;
		}
	}
}

/* Buffers hold their mmap: give them back before stopping and destroying the mmaps. */
static int
release_buffers(struct server_app *app)
{
	int ret, rc = 0;

	if (app->recv_buf != NULL && rte_comch_buf_dec_refcount(app->recv_buf, NULL) == 0)
		app->recv_buf = NULL;
	if (app->send_buf != NULL && rte_comch_buf_dec_refcount(app->send_buf, NULL) == 0)
		app->send_buf = NULL;
	if (app->buf_pool != NULL) {
		ret = rte_comch_buf_pool_destroy(app->buf_pool);
		if (ret < 0) {
			fprintf(stderr, "Cannot destroy the buffer pool: %s\n", rte_strerror(-ret));
			rc = ret;
		}
	}
	if (app->recv_mmap != NULL) {
		rte_comch_mmap_stop(app->recv_mmap); /* -EALREADY if it never started */
		ret = rte_comch_mmap_destroy(app->recv_mmap);
		if (ret < 0) {
			fprintf(stderr, "Cannot destroy the receive mmap: %s\n",
				rte_strerror(-ret));
			rc = ret;
		}
	}
	if (app->send_mmap != NULL) {
		rte_comch_mmap_stop(app->send_mmap);
		ret = rte_comch_mmap_destroy(app->send_mmap);
		if (ret < 0) {
			fprintf(stderr, "Cannot destroy the send mmap: %s\n", rte_strerror(-ret));
			rc = ret;
		}
	}
	/* The mmap was given this memory, it did not allocate it: it is ours to free. */
	free(app->send_mem);
	return rc;
}

/*
 * Tear down in the documented order: producer and consumer, then the server
 * (which closes the connection if the client is still there), then the engine,
 * the memory, the representor and the device.
 */
static int
cleanup(struct server_app *app)
{
	int ret, rc = 0;

	if (!app->fast_path_down)
		teardown_fast_path(app);
	if (app->producer != NULL || app->consumer != NULL)
		rc = -EBUSY;
	if (app->server != NULL) {
		if (app->pe != NULL) {
			ret = comch_sample_stop_ctx(app->pe, rte_comch_server_as_ctx(app->server),
						    "server");
			if (ret < 0)
				rc = ret;
		}
		ret = rte_comch_server_destroy(app->server);
		if (ret < 0) {
			fprintf(stderr, "Cannot destroy the server: %s\n", rte_strerror(-ret));
			rc = ret;
		}
	}
	ret = comch_sample_pe_destroy(app->pe);
	if (ret < 0)
		rc = ret;
	ret = release_buffers(app);
	if (ret < 0)
		rc = ret;
	ret = comch_sample_close_device(app->rep, app->dev);
	if (ret < 0)
		rc = ret;
	return rc;
}

int
main(int argc, char **argv)
{
	struct server_app app = {
		.args = {
			.rep = DEFAULT_REP,
			.name = DEFAULT_SERVER_NAME,
			.text = DEFAULT_TEXT,
			.timeout_s = DEFAULT_TIMEOUT_S,
		},
	};
	int ret, rc;

	ret = comch_sample_init(argc, argv, &opts, &app.args);
	if (ret != 0)
		return ret > 0 ? EXIT_SUCCESS : EXIT_FAILURE;
	app.text_len = (uint32_t)strlen(app.args.text);

	ret = comch_sample_open_device(app.args.devargs, app.args.rep, true, &app.dev, &app.rep);
	if (ret == 0)
		ret = create_buffers(&app);
	if (ret == 0)
		ret = create_server(&app);
	if (ret == 0)
		ret = start_server(&app);
	if (ret == 0)
		ret = run_server(&app);

	rc = cleanup(&app);
	if (ret == 0 && rc == 0)
		printf("Server \"%s\" done: one message sent and one received over the fast path\n",
		       app.args.name);
	rte_eal_cleanup();
	return ret == 0 && rc == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
