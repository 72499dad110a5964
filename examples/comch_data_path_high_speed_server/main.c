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
 * The fast path itself, alike on both sides, is in comch_sample_fast.c; this
 * file keeps the server's control path and the order of the steps.
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

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>

#include <rte_comch.h>

#include "comch_sample.h"
#include "comch_sample_fast.h"

#define DEFAULT_REP "pf0"
#define DEFAULT_SERVER_NAME "comch_data_path_high_speed_sample"
#define DEFAULT_TEXT "Message from the server"
#define DEFAULT_TIMEOUT_S 30

/* The control path only carries the connection here: small pools and queues. */
#define NB_SEND_TASKS 8
#define RECV_QUEUE_SIZE 16

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

	/* The fast path on the client's connection. */
	struct comch_sample_fast fast;
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

/* The app, for our client's connection; NULL for a second client, sent away in connect_cb. */
static struct server_app *
conn_app(struct rte_comch_connection *conn)
{
	union rte_comch_data data;

	if (rte_comch_connection_get_user_data(conn, &data) < 0)
		return NULL;
	return data.ptr;
}

static void
disconnect_cb(struct rte_comch_connection *conn, int status)
{
	struct server_app *app = conn_app(conn);

	if (app == NULL)
		return;
	printf("Server: client disconnected: %s (-%s)\n", comch_sample_disconnect_reason(status),
	       comch_sample_errno_name(status));
	app->client_gone = true;
	app->disconnect_status = status;
	/*
	 * The connection is freed once we return and its last producer or
	 * consumer is destroyed: do not use the pointer for anything else.
	 */
	app->conn = NULL;
	app->fast.peer_consumer_known = false;
}

/* The consumer events tell the fast path which of the client's consumers to send to. */
static void
new_consumer_cb(struct rte_comch_connection *conn, uint32_t consumer_id)
{
	struct server_app *app = conn_app(conn);

	comch_sample_fast_peer_consumer(app == NULL ? NULL : &app->fast, consumer_id, true);
}

static void
expired_consumer_cb(struct rte_comch_connection *conn, uint32_t consumer_id)
{
	struct server_app *app = conn_app(conn);

	comch_sample_fast_peer_consumer(app == NULL ? NULL : &app->fast, consumer_id, false);
}

/* Control-path send tasks are configured because a server needs them; none is sent. */
static void
ctrl_send_cb(struct rte_comch_task_send *task, union rte_comch_data task_user_data,
	     union rte_comch_data ctx_user_data)
{
	rte_comch_task_free(rte_comch_task_send_as_task(task));
}

/* The server's own state; the producer's and consumer's are printed by comch_sample_fast.c. */
static void
state_changed_cb(union rte_comch_data user_data, struct rte_comch_ctx *ctx,
		 enum rte_comch_ctx_state prev_state, enum rte_comch_ctx_state next_state)
{
	comch_sample_print_state("Server", "context", prev_state, next_state);
}

/* ------------------------------------------------------------------ set-up */

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

/* ------------------------------------------------------------------ run */

/*
 * One step of the main loop, after a round of progress. COMCH_SAMPLE_AGAIN
 * until the exchange is over and the client has gone; then 0 when both
 * messages went through and the client left in order, -errno otherwise.
 */
static int
server_step(void *arg)
{
	struct server_app *app = arg;
	int ret;

	if (app->client_gone) {
		if (!comch_sample_fast_done(&app->fast)) {
			fprintf(stderr, "Server: the client left before the exchange was "
				"complete\n");
			return app->disconnect_status < 0 ? app->disconnect_status :
							    -ECONNABORTED;
		}
		/* The client closes the connection once it is done: we are too. */
		return 0;
	}
	if (app->fast.error != 0)
		return app->fast.error;
	/*
	 * The consumer and producer are created here, outside connect_cb, on the
	 * lcore of the server's engine, as creating and destroying them must.
	 */
	if (app->conn != NULL && !app->fast.set_up) {
		ret = comch_sample_fast_setup(&app->fast, app->pe, app->conn);
		if (ret < 0)
			return ret;
	}
	ret = comch_sample_fast_exchange(&app->fast);
	if (ret < 0)
		return ret;
	/* Both messages went through: the fast path is no longer needed. */
	if (comch_sample_fast_done(&app->fast) && !app->fast.down) {
		comch_sample_fast_teardown(&app->fast);
		if (app->fast.error != 0)
			return app->fast.error;
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
			app->fast.down ? "the client did not leave" :
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
 * Tear down in the documented order: producer and consumer, then the server
 * (which closes the connection if the client is still there), then the engine,
 * the memory, the representor and the device.
 */
static int
cleanup(struct server_app *app)
{
	int ret, rc = 0;

	/*
	 * The producer and consumer first: the server cannot stop (nor
	 * disconnect the client) while they exist on its connection.
	 */
	if (!app->fast.down)
		comch_sample_fast_teardown(&app->fast);
	if (app->fast.producer != NULL || app->fast.consumer != NULL)
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
	ret = comch_sample_fast_release(&app->fast);
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
		.fast = { .side = "Server", .peer = "client's" },
	};
	int ret, rc;

	ret = comch_sample_init(argc, argv, &opts, &app.args);
	if (ret != 0)
		return ret > 0 ? EXIT_SUCCESS : EXIT_FAILURE;

	ret = comch_sample_open_device(app.args.devargs, app.args.rep, true, &app.dev, &app.rep);
	if (ret == 0)
		ret = comch_sample_fast_create_buffers(&app.fast, app.dev, app.args.text);
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
