/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Fast path ("high speed data path") client sample (host side).
 *
 * Connects to a server by its exact name. Once connected, it creates a consumer
 * and a producer on the connection, posts one receive buffer, learns the id of
 * the server's consumer from the new-consumer event and sends its text there
 * with a producer send task. It prints the message the server's producer wrote
 * into its buffer, then stops and destroys its producer and consumer, stops its
 * context (which closes the connection) and exits. It fails, with the reason
 * the library gives, when the server cannot be reached, goes away, or the
 * exchange does not complete within the timeout.
 *
 * Everything runs on the main lcore: one progress engine, polled in a loop,
 * serves the client, the producer and the consumer. Every callback below runs
 * inside rte_comch_pe_progress(), on that lcore, so the sample needs no locks.
 *
 * The fast path itself, alike on both sides, is in comch_sample_fast.c; this
 * file keeps the client's control path and the order of the steps.
 *
 * Usage: dpdk-comch_data_path_high_speed_client [EAL args] -- -p <devargs>
 *        [-n <server name>] [-t <text>] [-T <timeout s>]
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

#define DEFAULT_SERVER_NAME "comch_data_path_high_speed_sample"
#define DEFAULT_TEXT "Message from the client"
#define DEFAULT_TIMEOUT_S 30

/* The control path only carries the connection here: small pools and queues. */
#define NB_SEND_TASKS 8
#define RECV_QUEUE_SIZE 16

struct client_app {
	/*
	 * -p, -n: the server to reach, -t: the message sent to the server's
	 * consumer, -T: give up after that long, connecting or exchanging
	 */
	struct comch_sample_args args;
	struct rte_comch_dev *dev;
	struct rte_comch_client *client;
	struct rte_comch_pe *pe;
	uint64_t started_at;               /* TSC when the client started connecting */
	uint64_t running_at;               /* TSC when the connection came up */

	/* The fast path on the connection. */
	struct comch_sample_fast fast;
};

static void
usage(const char *prgname)
{
	printf("Usage: %s [EAL args] -- -p <devargs> [options]\n"
	       "  -p, --devargs <devargs>  device to open, e.g. shm:domain=bf0,role=host,fn=pf0\n"
	       "                           (alias: --pci-addr)\n"
	       "  -n, --name <name>        name of the server to connect to (default \"%s\")\n"
	       "  -t, --text <text>        message sent to the server's consumer (default \"%s\")\n"
	       "  -T, --timeout <seconds>  give up when the server cannot be reached, or the\n"
	       "                           exchange does not complete, within that time; 0 for\n"
	       "                           never (default %u)\n"
	       "  -h, --help               this text\n",
	       prgname, DEFAULT_SERVER_NAME, DEFAULT_TEXT, DEFAULT_TIMEOUT_S);
}

static const struct comch_sample_opts opts = {
	.optstring = "p:n:t:T:h",
	/* The timeout becomes milliseconds for the library: keep it in range. */
	.timeout_max = UINT32_MAX / 1000,
	.text_required = true,
	.usage = usage,
};

/* ------------------------------------------------------------------ callbacks */

/* The control path carries no messages in this sample: anything that comes is shown. */
static void
msg_recv_cb(struct rte_comch_connection *conn, const uint8_t *msg, uint32_t len)
{
	printf("Client: unexpected control-path message of %" PRIu32 " bytes, ignored\n", len);
}

static struct client_app *
conn_app(struct rte_comch_connection *conn)
{
	struct rte_comch_ctx *ctx = rte_comch_connection_get_ctx(conn);
	union rte_comch_data data;

	if (ctx == NULL || rte_comch_ctx_get_user_data(ctx, &data) < 0)
		return NULL;
	return data.ptr;
}

/* The consumer events tell the fast path which of the server's consumers to send to. */
static void
new_consumer_cb(struct rte_comch_connection *conn, uint32_t consumer_id)
{
	struct client_app *app = conn_app(conn);

	comch_sample_fast_peer_consumer(app == NULL ? NULL : &app->fast, consumer_id, true);
}

static void
expired_consumer_cb(struct rte_comch_connection *conn, uint32_t consumer_id)
{
	struct client_app *app = conn_app(conn);

	comch_sample_fast_peer_consumer(app == NULL ? NULL : &app->fast, consumer_id, false);
}

/* Control-path send tasks are configured because a client needs them; none is sent. */
static void
ctrl_send_cb(struct rte_comch_task_send *task, union rte_comch_data task_user_data,
	     union rte_comch_data ctx_user_data)
{
	rte_comch_task_free(rte_comch_task_send_as_task(task));
}

/* The client's own state; the producer's and consumer's are printed by comch_sample_fast.c. */
static void
state_changed_cb(union rte_comch_data user_data, struct rte_comch_ctx *ctx,
		 enum rte_comch_ctx_state prev_state, enum rte_comch_ctx_state next_state)
{
	struct client_app *app = user_data.ptr;

	comch_sample_print_state("Client", "context", prev_state, next_state);
	/* RUNNING is how the client learns that its connection is up. */
	if (next_state == RTE_COMCH_CTX_STATE_RUNNING)
		app->running_at = rte_get_timer_cycles();
}

/* ------------------------------------------------------------------ set-up */

/* Create the client and register everything it needs before it may start. */
static int
create_client(struct client_app *app)
{
	struct rte_comch_ctx *ctx;
	int ret;

	app->client = rte_comch_client_create(app->dev, app->args.name);
	if (app->client == NULL) {
		fprintf(stderr, "Cannot create a client for server \"%s\": %s (-%s)\n",
			app->args.name, rte_strerror(rte_errno),
			comch_sample_errno_name(rte_errno));
		return -rte_errno;
	}
	ctx = rte_comch_client_as_ctx(app->client);
	ret = rte_comch_client_task_send_set_conf(app->client, ctrl_send_cb, ctrl_send_cb,
						  NB_SEND_TASKS);
	if (ret == 0)
		ret = rte_comch_client_event_msg_recv_register(app->client, msg_recv_cb);
	/* How the client learns the ids of the server's consumers. */
	if (ret == 0)
		ret = rte_comch_client_event_consumer_register(app->client, new_consumer_cb,
							       expired_consumer_cb);
	if (ret == 0)
		ret = rte_comch_client_set_recv_queue_size(app->client, RECV_QUEUE_SIZE);
	/*
	 * The library keeps retrying while the server is not there yet, for this
	 * long; then the client goes back to IDLE and says why.
	 */
	if (ret == 0)
		ret = rte_comch_client_set_connect_timeout(app->client,
							   app->args.timeout_s * 1000);
	if (ret == 0)
		ret = rte_comch_ctx_set_user_data(ctx, (union rte_comch_data){ .ptr = app });
	if (ret == 0)
		ret = rte_comch_ctx_set_state_changed_cb(ctx, state_changed_cb);
	if (ret < 0) {
		fprintf(stderr, "Cannot configure the client: %s (-%s)\n", rte_strerror(-ret),
			comch_sample_errno_name(ret));
		return ret;
	}
	return 0;
}

static int
start_client(struct client_app *app)
{
	int ret;

	/* The client, and later the producer and the consumer, all use this engine. */
	app->pe = comch_sample_pe_create();
	if (app->pe == NULL)
		return -rte_errno;
	/* A client only starts connecting here; progress brings it to RUNNING. */
	ret = comch_sample_start_ctx(app->pe, rte_comch_client_as_ctx(app->client), "client");
	if (ret < 0)
		return ret;
	app->started_at = rte_get_timer_cycles();
	printf("Client connecting to server \"%s\"\n", app->args.name);
	return 0;
}

/*
 * The consumer and producer go on the connection, which the client has once
 * RUNNING. The main loop creates them, outside any callback, on the lcore of
 * the client's engine, as creating and destroying them must.
 */
static int
setup_fast_path(struct client_app *app)
{
	struct rte_comch_connection *conn;
	int ret;

	ret = rte_comch_client_get_connection(app->client, &conn);
	if (ret < 0) {
		fprintf(stderr, "Cannot get the connection: %s (-%s)\n", rte_strerror(-ret),
			comch_sample_errno_name(ret));
		return ret;
	}
	return comch_sample_fast_setup(&app->fast, app->pe, conn);
}

/* ------------------------------------------------------------------ run */

/*
 * One step of the main loop, after a round of progress. COMCH_SAMPLE_AGAIN
 * until the exchange is over; then 0 once our message was delivered and the
 * server's arrived, -errno otherwise (the contexts may then be in any state).
 */
static int
client_step(void *arg)
{
	struct client_app *app = arg;
	enum rte_comch_ctx_state state;
	int ret;

	if (app->fast.error != 0)
		return app->fast.error;
	ret = comch_sample_client_state(rte_comch_client_as_ctx(app->client), app->args.name,
					app->args.timeout_s, app->started_at,
					app->running_at != 0, &state);
	if (ret < 0)
		return ret;
	if (state == RTE_COMCH_CTX_STATE_RUNNING && !app->fast.set_up) {
		ret = setup_fast_path(app);
		if (ret < 0)
			return ret;
	}
	/* While STOPPING by itself (the connection ended), wait for IDLE and its reason. */
	if (state == RTE_COMCH_CTX_STATE_RUNNING) {
		ret = comch_sample_fast_exchange(&app->fast);
		if (ret < 0)
			return ret;
	}
	if (comch_sample_fast_done(&app->fast))
		return 0;
	if (app->running_at != 0 && comch_sample_timed_out(app->running_at, app->args.timeout_s)) {
		fprintf(stderr, "Client: the exchange with server \"%s\" did not complete "
			"within %" PRIu32 " s\n", app->args.name, app->args.timeout_s);
		return -ETIMEDOUT;
	}
	return COMCH_SAMPLE_AGAIN;
}

static int
run_client(struct client_app *app)
{
	int ret = comch_sample_poll(app->pe, client_step, app);

	if (ret == -EINTR)
		fprintf(stderr, "Client: signal %d received, stopping\n", comch_sample_signal());
	return ret;
}

/* ------------------------------------------------------------------ stop */

/*
 * Tear down in the documented order: producer and consumer, then the client
 * (its stop closes the connection), then the engine, the memory and the device.
 */
static int
cleanup(struct client_app *app)
{
	int ret, rc;

	/* The producer and consumer first: the client cannot stop while they exist. */
	rc = comch_sample_fast_teardown(&app->fast);
	if (app->client != NULL) {
		if (app->pe != NULL) {
			ret = comch_sample_stop_ctx(app->pe, rte_comch_client_as_ctx(app->client),
						    "client");
			if (ret < 0)
				rc = ret;
		}
		ret = rte_comch_client_destroy(app->client);
		if (ret < 0) {
			fprintf(stderr, "Cannot destroy the client: %s\n", rte_strerror(-ret));
			rc = ret;
		}
	}
	ret = comch_sample_pe_destroy(app->pe);
	if (ret < 0)
		rc = ret;
	ret = comch_sample_fast_release(&app->fast);
	if (ret < 0)
		rc = ret;
	ret = comch_sample_close_device(NULL, app->dev);
	if (ret < 0)
		rc = ret;
	return rc;
}

int
main(int argc, char **argv)
{
	struct client_app app = {
		.args = {
			.name = DEFAULT_SERVER_NAME,
			.text = DEFAULT_TEXT,
			.timeout_s = DEFAULT_TIMEOUT_S,
		},
		.fast = { .side = "Client", .peer = "server's" },
	};
	int ret, rc;

	ret = comch_sample_init(argc, argv, &opts, &app.args);
	if (ret != 0)
		return ret > 0 ? EXIT_SUCCESS : EXIT_FAILURE;

	ret = comch_sample_open_device(app.args.devargs, NULL, true, &app.dev, NULL);
	if (ret == 0)
		ret = comch_sample_fast_create_buffers(&app.fast, app.dev, app.args.text);
	if (ret == 0)
		ret = create_client(&app);
	if (ret == 0)
		ret = start_client(&app);
	if (ret == 0)
		ret = run_client(&app);

	rc = cleanup(&app);
	if (ret == 0 && rc == 0)
		printf("Client done: one message sent and one received over the fast path\n");
	rte_eal_cleanup();
	return ret == 0 && rc == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
