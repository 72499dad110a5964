/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Control path server sample (BlueField side).
 *
 * Creates a server under a name on one representor, waits for clients, prints
 * every message they send and answers each one with its own text on the same
 * connection. It stops when the requested number of clients have come and gone,
 * on SIGINT/SIGTERM, or when no client shows up within the timeout.
 *
 * Everything runs on the main lcore: one progress engine, polled in a loop.
 * Every callback below runs inside rte_comch_pe_progress(), on that lcore, so
 * the sample needs no locks.
 *
 * Usage: dpdk-comch_ctrl_path_server [EAL args] -- -p <devargs> [-r <rep>]
 *        [-n <server name>] [-t <text>] [-T <timeout s>] [-c <clients>]
 */

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>

#include <rte_comch.h>

#include "comch_sample.h"

#define DEFAULT_REP "pf0"
#define DEFAULT_SERVER_NAME "comch_ctrl_path_sample"
#define DEFAULT_TEXT "Message from the server"
#define DEFAULT_TIMEOUT_S 30
#define DEFAULT_NB_CLIENTS 1

/* Only a few answers are ever in flight here: small pools and queues are enough. */
#define NB_SEND_TASKS 32
#define RECV_QUEUE_SIZE 16

struct server_app;

/* One per connected client, reached through the connection's user data. */
struct client_state {
	TAILQ_ENTRY(client_state) next;
	struct server_app *app;
	struct rte_comch_connection *conn;
	unsigned int id;        /* 1 for the first client, 2 for the next... */
	uint32_t answers_owed;  /* messages received but not yet answered */
};

struct server_app {
	/* -p, -r, -n, -t: the answer, -T: give up when no client came for that long, -c */
	struct comch_sample_args args;
	struct rte_comch_dev *dev;
	struct rte_comch_dev_rep *rep;
	struct rte_comch_server *server;
	struct rte_comch_pe *pe;
	uint32_t text_len;
	bool started;                 /* the server reached RUNNING */
	TAILQ_HEAD(, client_state) clients;
	unsigned int nb_connected;    /* clients that have connected so far */
	unsigned int nb_disconnected; /* clients that have gone */
	uint64_t nb_received;         /* messages received */
	uint64_t nb_answered;         /* answers the clients took: completed exchanges */
	uint64_t nb_errors;           /* answers that failed or could not be sent */
	uint64_t idle_since;          /* TSC when the last client left (or start) */
};

static void
usage(const char *prgname)
{
	printf("Usage: %s [EAL args] -- -p <devargs> [options]\n"
	       "  -p, --devargs <devargs>  device to open, e.g. shm:domain=bf0,role=dpu,rep=pf0\n"
	       "                           (alias: --pci-addr)\n"
	       "  -r, --rep <name>         representor clients connect through (default %s)\n"
	       "                           (alias: --rep-pci)\n"
	       "  -n, --name <name>        server name (default \"%s\")\n"
	       "  -t, --text <text>        answer sent for every message (default \"%s\")\n"
	       "  -T, --timeout <seconds>  give up when no client came for that long, 0 for\n"
	       "                           never (default %u)\n"
	       "  -c, --clients <count>    stop after that many clients have left (default %u)\n"
	       "  -h, --help               this text\n",
	       prgname, DEFAULT_REP, DEFAULT_SERVER_NAME, DEFAULT_TEXT, DEFAULT_TIMEOUT_S,
	       DEFAULT_NB_CLIENTS);
}

static const struct comch_sample_opts opts = {
	.optstring = "p:r:n:t:T:c:h",
	.timeout_max = UINT32_MAX,
	/* -c 0 is an integer too: say what is accepted. */
	.range_hint = true,
	.usage = usage,
};

/*
 * Answer every message a client is owed an answer for, as far as the library
 * lets us now. The text is the same for every answer and lives as long as the
 * application, so it stays unchanged while the tasks are in flight, as send
 * tasks require.
 */
static void
send_owed_answers(struct client_state *cs)
{
	struct server_app *app = cs->app;
	struct rte_comch_task_send *task;
	int ret;

	while (cs->answers_owed > 0) {
		ret = rte_comch_server_task_send_alloc_init(app->server, cs->conn, app->args.text,
							    app->text_len, &task);
		if (ret == 0) {
			ret = rte_comch_task_submit(rte_comch_task_send_as_task(task));
			/* A task whose submit failed is still ours: give it back. */
			if (ret < 0)
				rte_comch_task_free(rte_comch_task_send_as_task(task));
		}
		/*
		 * -EAGAIN: the client's receive queue is full; -ENOMEM: every task is in
		 * flight. Both clear up as the client takes messages, so keep the debt
		 * and retry after the next round of progress.
		 */
		if (ret == -EAGAIN || ret == -ENOMEM)
			return;
		/* -ENOTCONN: the connection is ending; its disconnect event settles the debt. */
		if (ret == -ENOTCONN)
			return;
		if (ret < 0) {
			fprintf(stderr, "Server: cannot answer client #%u: %s (-%s)\n", cs->id,
				rte_strerror(-ret), comch_sample_errno_name(ret));
			app->nb_errors += cs->answers_owed;
			cs->answers_owed = 0;
			return;
		}
		cs->answers_owed--;
	}
}

static void
send_all_owed_answers(struct server_app *app)
{
	struct client_state *cs;

	TAILQ_FOREACH(cs, &app->clients, next)
		send_owed_answers(cs);
}

/* ------------------------------------------------------------------ callbacks */

static void
msg_recv_cb(struct rte_comch_connection *conn, const uint8_t *msg, uint32_t len)
{
	char quoted[COMCH_SAMPLE_QUOTE_SIZE];
	union rte_comch_data data;
	struct client_state *cs;

	if (rte_comch_connection_get_user_data(conn, &data) < 0 || data.ptr == NULL)
		return;
	cs = data.ptr;
	cs->app->nb_received++;
	/* The message is only valid during this callback: use it now, keep nothing. */
	printf("Server received message: %s (%" PRIu32 " bytes)\n",
	       comch_sample_quote(quoted, msg, len), len);
	cs->answers_owed++;
	send_owed_answers(cs);
}

static void
connect_cb(struct rte_comch_connection *conn, int status)
{
	struct rte_comch_ctx *ctx = rte_comch_connection_get_ctx(conn);
	union rte_comch_data data;
	struct server_app *app;
	struct client_state *cs;
	uint32_t msg_size = 0;

	if (ctx == NULL || rte_comch_ctx_get_user_data(ctx, &data) < 0)
		return;
	app = data.ptr;
	if (status != 0) {
		fprintf(stderr, "Server: failed connection attempt: %s\n", rte_strerror(-status));
		return;
	}
	cs = calloc(1, sizeof(*cs));
	if (cs == NULL) {
		/* Refuse a client we cannot keep track of rather than serve it half-way. */
		fprintf(stderr, "Server: out of memory, refusing a client\n");
		rte_comch_server_disconnect(app->server, conn);
		return;
	}
	cs->app = app;
	cs->conn = conn;
	cs->id = ++app->nb_connected;
	rte_comch_connection_set_user_data(conn, (union rte_comch_data){ .ptr = cs });
	TAILQ_INSERT_TAIL(&app->clients, cs, next);
	rte_comch_connection_get_max_msg_size(conn, &msg_size);
	printf("Server: client #%u connected (max message size %" PRIu32 " bytes)\n", cs->id,
	       msg_size);
}

static void
disconnect_cb(struct rte_comch_connection *conn, int status)
{
	struct rte_comch_conn_stats st = { 0 };
	union rte_comch_data data;
	struct server_app *app;
	struct client_state *cs;

	if (rte_comch_connection_get_user_data(conn, &data) < 0 || data.ptr == NULL)
		return; /* a client refused in connect_cb: nothing was set up for it */
	cs = data.ptr;
	app = cs->app;
	rte_comch_connection_get_stats(conn, &st);
	printf("Server: client #%u disconnected: %s (-%s); %" PRIu64 " message(s) received, %"
	       PRIu64 " answer(s) taken\n", cs->id, comch_sample_disconnect_reason(status),
	       comch_sample_errno_name(status), st.recv_messages, st.sent_messages);
	/* Answers that could not be queued in time are lost with the connection. */
	app->nb_errors += cs->answers_owed;
	app->nb_disconnected++;
	TAILQ_REMOVE(&app->clients, cs, next);
	free(cs);
	/* The connection is freed once we return: nothing may point at it any more. */
	rte_comch_connection_set_user_data(conn, (union rte_comch_data){ .ptr = NULL });
	if (TAILQ_EMPTY(&app->clients))
		app->idle_since = rte_get_timer_cycles();
}

static void
send_done_cb(struct rte_comch_task_send *task, union rte_comch_data task_user_data,
	     union rte_comch_data ctx_user_data)
{
	struct server_app *app = ctx_user_data.ptr;

	/* Completion means the client's receive callback has returned for our answer. */
	app->nb_answered++;
	rte_comch_task_free(rte_comch_task_send_as_task(task));
}

static void
send_error_cb(struct rte_comch_task_send *task, union rte_comch_data task_user_data,
	      union rte_comch_data ctx_user_data)
{
	struct server_app *app = ctx_user_data.ptr;
	int status = rte_comch_task_get_status(rte_comch_task_send_as_task(task));

	app->nb_errors++;
	fprintf(stderr, "Server: an answer was not delivered: %s (-%s)\n", rte_strerror(-status),
		comch_sample_errno_name(status));
	/* The callback owns the task: free it, or the server could never be destroyed. */
	rte_comch_task_free(rte_comch_task_send_as_task(task));
}

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
	ret = rte_comch_server_task_send_set_conf(app->server, send_done_cb, send_error_cb,
						  NB_SEND_TASKS);
	if (ret == 0)
		ret = rte_comch_server_event_msg_recv_register(app->server, msg_recv_cb);
	if (ret == 0)
		ret = rte_comch_server_event_connection_status_changed_register(app->server,
										 connect_cb,
										 disconnect_cb);
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
	uint32_t msg_size = 0;
	int ret;

	app->pe = comch_sample_pe_create();
	if (app->pe == NULL)
		return -rte_errno;
	/* A server is RUNNING as soon as start returns: it listens from then on. */
	ret = comch_sample_start_ctx(app->pe, rte_comch_server_as_ctx(app->server), "server");
	if (ret < 0)
		return ret;
	app->started = true;
	rte_comch_server_get_max_msg_size(app->server, &msg_size);
	if (app->text_len > msg_size)
		fprintf(stderr, "Warning: the answer (%" PRIu32 " bytes) is longer than the max "
			"message size (%" PRIu32 " bytes) and cannot be sent\n", app->text_len,
			msg_size);
	printf("Server \"%s\" listening on representor %s, waiting for %" PRIu32 " client(s)\n",
	       app->args.name, app->args.rep, app->args.nb_clients);
	return 0;
}

/* ------------------------------------------------------------------ run and stop */

/*
 * One step of the main loop, after a round of progress: COMCH_SAMPLE_AGAIN
 * until enough clients have come and gone (0), or none came in time.
 */
static int
server_step(void *arg)
{
	struct server_app *app = arg;

	/* Answers refused earlier for lack of room may fit now. */
	send_all_owed_answers(app);
	if (app->nb_disconnected >= app->args.nb_clients)
		return 0;
	if (TAILQ_EMPTY(&app->clients) &&
	    comch_sample_timed_out(app->idle_since, app->args.timeout_s)) {
		fprintf(stderr, "Server: no client came within %" PRIu32 " s, giving up\n",
			app->args.timeout_s);
		return -ETIMEDOUT;
	}
	return COMCH_SAMPLE_AGAIN;
}

static int
run_server(struct server_app *app)
{
	int ret;

	app->idle_since = rte_get_timer_cycles();
	ret = comch_sample_poll(app->pe, server_step, app);
	/* A signal is how this server is told to stop: no failure. */
	if (ret == -EINTR) {
		printf("Server: signal %d received, stopping\n", comch_sample_signal());
		ret = 0;
	}
	return ret;
}

/*
 * Tear down in the reverse order of set-up; each step needs the previous one
 * done. Stopping disconnects the clients still connected.
 */
static void
cleanup(struct server_app *app)
{
	struct client_state *cs;
	int ret;

	if (app->server != NULL) {
		if (app->pe != NULL)
			comch_sample_stop_ctx(app->pe, rte_comch_server_as_ctx(app->server),
					      "server");
		ret = rte_comch_server_destroy(app->server);
		if (ret < 0)
			fprintf(stderr, "Cannot destroy the server: %s\n", rte_strerror(-ret));
	}
	/* Normally emptied by disconnect_cb while stopping; free what a failure left. */
	while ((cs = TAILQ_FIRST(&app->clients)) != NULL) {
		TAILQ_REMOVE(&app->clients, cs, next);
		free(cs);
	}
	/* Failures are printed; the exit status is the run's. */
	comch_sample_pe_destroy(app->pe);
	comch_sample_close_device(app->rep, app->dev);
}

static void
print_summary(const struct server_app *app)
{
	printf("Server \"%s\" done: %u client(s) served, %" PRIu64 " exchange(s) (%" PRIu64
	       " message(s) received, %" PRIu64 " answered), %" PRIu64 " error(s)\n",
	       app->args.name, app->nb_disconnected, app->nb_answered, app->nb_received,
	       app->nb_answered, app->nb_errors);
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
			.nb_clients = DEFAULT_NB_CLIENTS,
		},
	};
	int ret;

	TAILQ_INIT(&app.clients);
	ret = comch_sample_init(argc, argv, &opts, &app.args);
	if (ret != 0)
		return ret > 0 ? EXIT_SUCCESS : EXIT_FAILURE;
	app.text_len = (uint32_t)strlen(app.args.text);

	ret = comch_sample_open_device(app.args.devargs, app.args.rep, false, &app.dev, &app.rep);
	if (ret == 0)
		ret = create_server(&app);
	if (ret == 0)
		ret = start_server(&app);
	if (ret == 0)
		ret = run_server(&app);

	cleanup(&app);
	if (app.started)
		print_summary(&app);
	rte_eal_cleanup();
	return ret == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
