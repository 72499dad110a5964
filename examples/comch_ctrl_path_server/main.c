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

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>

#include <rte_comch.h>

#define DEFAULT_REP "pf0"
#define DEFAULT_SERVER_NAME "comch_ctrl_path_sample"
#define DEFAULT_TEXT "Message from the server"
#define DEFAULT_TIMEOUT_S 30
#define DEFAULT_NB_CLIENTS 1

/* Only a few answers are ever in flight here: small pools and queues are enough. */
#define NB_SEND_TASKS 32
#define RECV_QUEUE_SIZE 16
/* When a round of progress found nothing to do, nap instead of spinning a whole core. */
#define IDLE_SLEEP_US 10
/* Longest wait for the server to drain and reach IDLE once asked to stop. */
#define STOP_TIMEOUT_S 5
/* Longest part of a message printed; the rest is summarised as "...". */
#define PRINT_MAX 256

struct app_args {
	const char *devargs;   /* -p: the device */
	const char *rep;       /* -r: representor (host function) clients come through */
	const char *name;      /* -n: server name */
	const char *text;      /* -t: the answer */
	uint32_t timeout_s;    /* -T: give up when no client came for that long (0: never) */
	uint32_t nb_clients;   /* -c: stop after that many clients have disconnected */
};

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
	struct app_args args;
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

static volatile sig_atomic_t force_quit;

static void
signal_handler(int signum)
{
	/* Only set a flag: the main loop stops the server outside any callback. */
	force_quit = signum;
}

static const char *
errno_name(int err)
{
	switch (err < 0 ? -err : err) {
	case 0: return "0";
	case EAGAIN: return "EAGAIN";
	case EBUSY: return "EBUSY";
	case ECONNABORTED: return "ECONNABORTED";
	case ECONNREFUSED: return "ECONNREFUSED";
	case ECONNRESET: return "ECONNRESET";
	case EEXIST: return "EEXIST";
	case EINPROGRESS: return "EINPROGRESS";
	case EINVAL: return "EINVAL";
	case EMSGSIZE: return "EMSGSIZE";
	case ENAMETOOLONG: return "ENAMETOOLONG";
	case ENODEV: return "ENODEV";
	case ENOENT: return "ENOENT";
	case ENOMEM: return "ENOMEM";
	case ENOTCONN: return "ENOTCONN";
	case EPERM: return "EPERM";
	case EPROTO: return "EPROTO";
	case ETIMEDOUT: return "ETIMEDOUT";
	default: return "errno";
	}
}

/* Why a connection ended, as told by the disconnection callback. */
static const char *
disconnect_reason(int status)
{
	switch (status) {
	case -ECONNABORTED: return "closed in order";
	case -ECONNRESET: return "the client died";
	case -EPROTO: return "the client broke the protocol and was dropped";
	default: return rte_strerror(-status);
	}
}

static const char *
state_name(enum rte_comch_ctx_state state)
{
	switch (state) {
	case RTE_COMCH_CTX_STATE_IDLE: return "idle";
	case RTE_COMCH_CTX_STATE_STARTING: return "starting";
	case RTE_COMCH_CTX_STATE_RUNNING: return "running";
	case RTE_COMCH_CTX_STATE_STOPPING: return "stopping";
	}
	return "unknown";
}

/*
 * Print a message received from a peer. It is raw bytes, not a C string: it may
 * lack a NUL and hold anything, so escape what is not printable. Each byte is
 * read once: the message lives in memory the peer can write to.
 */
static void
print_message(const char *prefix, const uint8_t *msg, uint32_t len)
{
	char out[PRINT_MAX * 4 + 4];
	uint32_t i, n = RTE_MIN(len, (uint32_t)PRINT_MAX);
	size_t pos = 0;
	uint8_t c;

	for (i = 0; i < n; i++) {
		c = msg[i];
		if (c == '"' || c == '\\') {
			out[pos++] = '\\';
			out[pos++] = (char)c;
		} else if (isprint(c)) {
			out[pos++] = (char)c;
		} else {
			pos += snprintf(out + pos, sizeof(out) - pos, "\\x%02x", c);
		}
	}
	out[pos] = '\0';
	printf("%s: \"%s%s\" (%" PRIu32 " bytes)\n", prefix, out, len > n ? "..." : "", len);
}

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

static int
parse_u32(const char *arg, const char *what, uint32_t min, uint32_t *val)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno != 0 || end == arg || *end != '\0' || arg[0] == '-' || v > UINT32_MAX ||
	    v < min) {
		fprintf(stderr, "Invalid %s: \"%s\" (need an integer >= %" PRIu32 ")\n", what, arg,
			min);
		return -EINVAL;
	}
	*val = (uint32_t)v;
	return 0;
}

/* Parse the application arguments (after EAL's and the "--"). 1 means "exit 0". */
static int
parse_args(int argc, char **argv, struct app_args *args)
{
	static const struct option lopts[] = {
		{ "devargs", required_argument, NULL, 'p' },
		{ "pci-addr", required_argument, NULL, 'p' },
		{ "rep", required_argument, NULL, 'r' },
		{ "rep-pci", required_argument, NULL, 'r' },
		{ "name", required_argument, NULL, 'n' },
		{ "text", required_argument, NULL, 't' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "clients", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	args->devargs = NULL;
	args->rep = DEFAULT_REP;
	args->name = DEFAULT_SERVER_NAME;
	args->text = DEFAULT_TEXT;
	args->timeout_s = DEFAULT_TIMEOUT_S;
	args->nb_clients = DEFAULT_NB_CLIENTS;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "p:r:n:t:T:c:h", lopts, NULL)) != -1) {
		switch (opt) {
		case 'p':
			args->devargs = optarg;
			break;
		case 'r':
			args->rep = optarg;
			break;
		case 'n':
			args->name = optarg;
			break;
		case 't':
			args->text = optarg;
			break;
		case 'T':
			if (parse_u32(optarg, "timeout", 0, &args->timeout_s) < 0)
				return -EINVAL;
			break;
		case 'c':
			if (parse_u32(optarg, "client count", 1, &args->nb_clients) < 0)
				return -EINVAL;
			break;
		case 'h':
			usage(argv[0]);
			return 1;
		default:
			usage(argv[0]);
			return -EINVAL;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "Unexpected argument: \"%s\"\n", argv[optind]);
		return -EINVAL;
	}
	if (args->devargs == NULL) {
		fprintf(stderr, "Missing -p <devargs>: the device to open\n");
		usage(argv[0]);
		return -EINVAL;
	}
	return 0;
}

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
				rte_strerror(-ret), errno_name(ret));
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
	union rte_comch_data data;
	struct client_state *cs;

	if (rte_comch_connection_get_user_data(conn, &data) < 0 || data.ptr == NULL)
		return;
	cs = data.ptr;
	cs->app->nb_received++;
	/* The message is only valid during this callback: use it now, keep nothing. */
	print_message("Server received message", msg, len);
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
	       PRIu64 " answer(s) taken\n", cs->id, disconnect_reason(status), errno_name(status),
	       st.recv_messages, st.sent_messages);
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
		errno_name(status));
	/* The callback owns the task: free it, or the server could never be destroyed. */
	rte_comch_task_free(rte_comch_task_send_as_task(task));
}

static void
state_changed_cb(union rte_comch_data user_data, struct rte_comch_ctx *ctx,
		 enum rte_comch_ctx_state prev_state, enum rte_comch_ctx_state next_state)
{
	printf("Server: context %s -> %s\n", state_name(prev_state), state_name(next_state));
}

/* ------------------------------------------------------------------ set-up */

static int
open_device(struct server_app *app)
{
	struct rte_comch_dev_info info;

	app->dev = rte_comch_dev_open(app->args.devargs);
	if (app->dev == NULL) {
		fprintf(stderr, "Cannot open device \"%s\": %s (-%s)\n", app->args.devargs,
			rte_strerror(rte_errno), errno_name(rte_errno));
		return -rte_errno;
	}
	if (rte_comch_dev_info_get(app->dev, &info) == 0 && !info.server_supported) {
		fprintf(stderr, "Device %s cannot run servers: servers run on the BlueField side "
			"(role=dpu)\n", info.name);
		return -EPERM;
	}
	app->rep = rte_comch_dev_rep_open(app->dev, app->args.rep);
	if (app->rep == NULL) {
		fprintf(stderr, "Cannot open representor \"%s\": %s (-%s)\n", app->args.rep,
			rte_strerror(rte_errno), errno_name(rte_errno));
		return -rte_errno;
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
			errno_name(rte_errno));
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
			errno_name(ret));
		return ret;
	}
	return 0;
}

static int
start_server(struct server_app *app)
{
	struct rte_comch_ctx *ctx = rte_comch_server_as_ctx(app->server);
	uint32_t msg_size = 0;
	int ret;

	/* The engine belongs to the lcore that creates it: this one, which polls it. */
	app->pe = rte_comch_pe_create(RTE_COMCH_PE_LCORE_SELF);
	if (app->pe == NULL) {
		fprintf(stderr, "Cannot create the progress engine: %s\n", rte_strerror(rte_errno));
		return -rte_errno;
	}
	ret = rte_comch_pe_connect_ctx(app->pe, ctx);
	if (ret < 0) {
		fprintf(stderr, "Cannot attach the server to the engine: %s\n", rte_strerror(-ret));
		return ret;
	}
	/* A server is RUNNING as soon as start returns: it listens from then on. */
	ret = rte_comch_ctx_start(ctx);
	if (ret < 0) {
		fprintf(stderr, "Cannot start the server: %s (-%s)\n", rte_strerror(-ret),
			errno_name(ret));
		return ret;
	}
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

static int
run_server(struct server_app *app)
{
	uint64_t hz = rte_get_timer_hz();
	int ret;

	app->idle_since = rte_get_timer_cycles();
	while (!force_quit) {
		ret = rte_comch_pe_progress(app->pe);
		if (ret < 0) {
			fprintf(stderr, "Progress failed: %s (-%s)\n", rte_strerror(-ret),
				errno_name(ret));
			return ret;
		}
		/* Answers refused earlier for lack of room may fit now. */
		send_all_owed_answers(app);
		if (app->nb_disconnected >= app->args.nb_clients)
			return 0;
		if (app->args.timeout_s > 0 && TAILQ_EMPTY(&app->clients) &&
		    rte_get_timer_cycles() - app->idle_since > app->args.timeout_s * hz) {
			fprintf(stderr, "Server: no client came within %" PRIu32 " s, giving up\n",
				app->args.timeout_s);
			return -ETIMEDOUT;
		}
		if (ret == 0)
			rte_delay_us_sleep(IDLE_SLEEP_US);
	}
	printf("Server: signal %d received, stopping\n", (int)force_quit);
	return 0;
}

/*
 * Stop a context and keep progressing until it is IDLE: stopping disconnects the
 * clients still connected and flushes tasks in flight to their error callback,
 * all from inside progress.
 */
static int
stop_ctx(struct rte_comch_pe *pe, struct rte_comch_ctx *ctx)
{
	uint64_t deadline = rte_get_timer_cycles() + STOP_TIMEOUT_S * rte_get_timer_hz();
	enum rte_comch_ctx_state state;
	int ret;

	if (rte_comch_ctx_get_state(ctx, &state) < 0 || state == RTE_COMCH_CTX_STATE_IDLE)
		return 0;
	if (state != RTE_COMCH_CTX_STATE_STOPPING) {
		ret = rte_comch_ctx_stop(ctx);
		if (ret == 0)
			return 0;
		if (ret != -EINPROGRESS) {
			fprintf(stderr, "Cannot stop: %s (-%s)\n", rte_strerror(-ret),
				errno_name(ret));
			return ret;
		}
	}
	while (rte_comch_ctx_get_state(ctx, &state) == 0 && state != RTE_COMCH_CTX_STATE_IDLE) {
		if (rte_get_timer_cycles() > deadline) {
			fprintf(stderr, "Context still %s after %d s\n", state_name(state),
				STOP_TIMEOUT_S);
			return -ETIMEDOUT;
		}
		if (rte_comch_pe_progress(pe) == 0)
			rte_delay_us_sleep(IDLE_SLEEP_US);
	}
	return 0;
}

/* Tear down in the reverse order of set-up; each step needs the previous one done. */
static void
cleanup(struct server_app *app)
{
	struct client_state *cs;
	int ret;

	if (app->server != NULL) {
		if (app->pe != NULL)
			stop_ctx(app->pe, rte_comch_server_as_ctx(app->server));
		ret = rte_comch_server_destroy(app->server);
		if (ret < 0)
			fprintf(stderr, "Cannot destroy the server: %s\n", rte_strerror(-ret));
	}
	/* Normally emptied by disconnect_cb while stopping; free what a failure left. */
	while ((cs = TAILQ_FIRST(&app->clients)) != NULL) {
		TAILQ_REMOVE(&app->clients, cs, next);
		free(cs);
	}
	if (app->pe != NULL) {
		ret = rte_comch_pe_destroy(app->pe);
		if (ret < 0)
			fprintf(stderr, "Cannot destroy the engine: %s\n", rte_strerror(-ret));
	}
	if (app->rep != NULL) {
		ret = rte_comch_dev_rep_close(app->rep);
		if (ret < 0)
			fprintf(stderr, "Cannot close the representor: %s\n", rte_strerror(-ret));
	}
	if (app->dev != NULL) {
		ret = rte_comch_dev_close(app->dev);
		if (ret < 0)
			fprintf(stderr, "Cannot close the device: %s\n", rte_strerror(-ret));
	}
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
	struct server_app app = { 0 };
	int ret;

	/* Line-buffered, so that output redirected to a file or pipe shows up at once. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	TAILQ_INIT(&app.clients);

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "Cannot initialise EAL: %s\n", rte_strerror(rte_errno));
		return EXIT_FAILURE;
	}
	argc -= ret;
	argv += ret;

	ret = parse_args(argc, argv, &app.args);
	if (ret != 0) {
		rte_eal_cleanup();
		return ret > 0 ? EXIT_SUCCESS : EXIT_FAILURE;
	}
	app.text_len = (uint32_t)strlen(app.args.text);

	signal(SIGINT, signal_handler);
	signal(SIGTERM, signal_handler);

	ret = open_device(&app);
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
