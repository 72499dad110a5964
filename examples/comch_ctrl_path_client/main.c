/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Control path client sample (host side).
 *
 * Connects to a server by its exact name, sends one message as soon as the
 * connection is up, prints the server's answer, then stops its context and
 * exits. It fails, with the reason the library gives, when the server cannot be
 * reached, refuses it, goes away, or does not answer within the timeout.
 *
 * Everything runs on the main lcore: one progress engine, polled in a loop.
 * Every callback below runs inside rte_comch_pe_progress(), on that lcore, so
 * the sample needs no locks.
 *
 * Usage: dpdk-comch_ctrl_path_client [EAL args] -- -p <devargs> [-n <server name>]
 *        [-t <text>] [-T <timeout s>]
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

#define DEFAULT_SERVER_NAME "comch_ctrl_path_sample"
#define DEFAULT_TEXT "Message from the client"
#define DEFAULT_TIMEOUT_S 30

/* One message in flight at a time: small pools and queues are enough. */
#define NB_SEND_TASKS 8
#define RECV_QUEUE_SIZE 16

struct client_app {
	/* -p, -n: the server to reach, -t, -T: give up after that long, connecting or waiting */
	struct comch_sample_args args;
	struct rte_comch_dev *dev;
	struct rte_comch_client *client;
	struct rte_comch_pe *pe;
	uint32_t text_len;
	bool sent;           /* our message was submitted */
	bool send_done;      /* its task came back, successfully or not */
	int send_status;     /* and with that status */
	uint64_t nb_answers; /* messages received from the server */
	uint64_t started_at; /* TSC when the client started connecting */
	uint64_t running_at; /* TSC when the connection came up */
};

static void
usage(const char *prgname)
{
	printf("Usage: %s [EAL args] -- -p <devargs> [options]\n"
	       "  -p, --devargs <devargs>  device to open, e.g. shm:domain=bf0,role=host,fn=pf0\n"
	       "                           (alias: --pci-addr)\n"
	       "  -n, --name <name>        name of the server to connect to (default \"%s\")\n"
	       "  -t, --text <text>        message to send (default \"%s\")\n"
	       "  -T, --timeout <seconds>  give up when the server cannot be reached, or does\n"
	       "                           not answer, within that time; 0 for never (default %u)\n"
	       "  -h, --help               this text\n",
	       prgname, DEFAULT_SERVER_NAME, DEFAULT_TEXT, DEFAULT_TIMEOUT_S);
}

static const struct comch_sample_opts opts = {
	.optstring = "p:n:t:T:h",
	/* The timeout becomes milliseconds for the library: keep it in range. */
	.timeout_max = UINT32_MAX / 1000,
	.usage = usage,
};

/* ------------------------------------------------------------------ callbacks */

static void
msg_recv_cb(struct rte_comch_connection *conn, const uint8_t *msg, uint32_t len)
{
	struct rte_comch_ctx *ctx = rte_comch_connection_get_ctx(conn);
	char quoted[COMCH_SAMPLE_QUOTE_SIZE];
	union rte_comch_data data;
	struct client_app *app;

	if (ctx == NULL || rte_comch_ctx_get_user_data(ctx, &data) < 0)
		return;
	app = data.ptr;
	app->nb_answers++;
	/* The message is only valid during this callback: use it now, keep nothing. */
	printf("Client received message: %s\n", comch_sample_quote(quoted, msg, len));
}

static void
send_done_cb(struct rte_comch_task_send *task, union rte_comch_data task_user_data,
	     union rte_comch_data ctx_user_data)
{
	struct client_app *app = ctx_user_data.ptr;

	/* Completion means the server's receive callback has returned for our message. */
	app->send_done = true;
	app->send_status = 0;
	rte_comch_task_free(rte_comch_task_send_as_task(task));
}

static void
send_error_cb(struct rte_comch_task_send *task, union rte_comch_data task_user_data,
	      union rte_comch_data ctx_user_data)
{
	struct client_app *app = ctx_user_data.ptr;

	app->send_done = true;
	app->send_status = rte_comch_task_get_status(rte_comch_task_send_as_task(task));
	fprintf(stderr, "Client: the message was not delivered: %s (-%s)\n",
		rte_strerror(-app->send_status), comch_sample_errno_name(app->send_status));
	/* The callback owns the task: free it, or the client could never be destroyed. */
	rte_comch_task_free(rte_comch_task_send_as_task(task));
}

static void
state_changed_cb(union rte_comch_data user_data, struct rte_comch_ctx *ctx,
		 enum rte_comch_ctx_state prev_state, enum rte_comch_ctx_state next_state)
{
	struct client_app *app = user_data.ptr;

	comch_sample_print_state("Client", "context", prev_state, next_state);
	/* RUNNING is how a client learns that its connection is up. */
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
	ret = rte_comch_client_task_send_set_conf(app->client, send_done_cb, send_error_cb,
						  NB_SEND_TASKS);
	if (ret == 0)
		ret = rte_comch_client_event_msg_recv_register(app->client, msg_recv_cb);
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

/* ------------------------------------------------------------------ run and stop */

/* Send our message. 0 when submitted or worth retrying later, -errno when hopeless. */
static int
send_message(struct client_app *app)
{
	struct rte_comch_connection *conn;
	struct rte_comch_task_send *task;
	uint32_t msg_size = 0;
	int ret;

	ret = rte_comch_client_get_connection(app->client, &conn);
	if (ret < 0)
		return ret == -ENOTCONN ? 0 : ret;
	ret = rte_comch_client_task_send_alloc_init(app->client, conn, app->args.text,
						    app->text_len, &task);
	if (ret == -EMSGSIZE) {
		rte_comch_connection_get_max_msg_size(conn, &msg_size);
		fprintf(stderr, "Client: the message (%" PRIu32 " bytes) is longer than the "
			"connection's max message size (%" PRIu32 " bytes)\n", app->text_len,
			msg_size);
		return ret;
	}
	if (ret == 0) {
		ret = rte_comch_task_submit(rte_comch_task_send_as_task(task));
		/* A task whose submit failed is still ours: give it back. */
		if (ret < 0)
			rte_comch_task_free(rte_comch_task_send_as_task(task));
	}
	/* -EAGAIN: the server's receive queue is full; progress, then try again. */
	if (ret == -EAGAIN || ret == -ENOMEM)
		return 0;
	if (ret < 0) {
		fprintf(stderr, "Client: cannot send: %s (-%s)\n", rte_strerror(-ret),
			comch_sample_errno_name(ret));
		return ret;
	}
	app->sent = true;
	return 0;
}

/*
 * One step of the main loop, after a round of progress. COMCH_SAMPLE_AGAIN
 * until the exchange is over; then 0 once the message was delivered and an
 * answer arrived, -errno otherwise (the context may then be in any state).
 */
static int
client_step(void *arg)
{
	struct client_app *app = arg;
	enum rte_comch_ctx_state state;
	int ret;

	ret = comch_sample_client_state(rte_comch_client_as_ctx(app->client), app->args.name,
					app->args.timeout_s, app->started_at,
					app->running_at != 0, &state);
	if (ret < 0)
		return ret;
	if (state == RTE_COMCH_CTX_STATE_RUNNING && !app->sent) {
		ret = send_message(app);
		if (ret < 0)
			return ret;
	}
	if (app->send_done && app->send_status != 0)
		return app->send_status;
	if (app->send_done && app->nb_answers > 0)
		return 0;
	if (app->running_at != 0 && comch_sample_timed_out(app->running_at, app->args.timeout_s)) {
		fprintf(stderr, "Client: no answer from server \"%s\" within %" PRIu32 " s\n",
			app->args.name, app->args.timeout_s);
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

/*
 * Tear down in the reverse order of set-up; each step needs the previous one
 * done. Stopping closes the connection and lets what we sent drain.
 */
static int
cleanup(struct client_app *app)
{
	int ret, rc = 0;

	if (app->client != NULL) {
		if (app->pe != NULL)
			rc = comch_sample_stop_ctx(app->pe, rte_comch_client_as_ctx(app->client),
						   "client");
		ret = rte_comch_client_destroy(app->client);
		if (ret < 0) {
			fprintf(stderr, "Cannot destroy the client: %s\n", rte_strerror(-ret));
			rc = ret;
		}
	}
	ret = comch_sample_pe_destroy(app->pe);
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
	};
	int ret, rc;

	ret = comch_sample_init(argc, argv, &opts, &app.args);
	if (ret != 0)
		return ret > 0 ? EXIT_SUCCESS : EXIT_FAILURE;
	app.text_len = (uint32_t)strlen(app.args.text);

	ret = comch_sample_open_device(app.args.devargs, NULL, false, &app.dev, NULL);
	if (ret == 0)
		ret = create_client(&app);
	if (ret == 0)
		ret = start_client(&app);
	if (ret == 0)
		ret = run_client(&app);

	rc = cleanup(&app);
	if (ret == 0 && rc == 0)
		printf("Client done: message delivered, answer received\n");
	rte_eal_cleanup();
	return ret == 0 && rc == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
