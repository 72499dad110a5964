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

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>

#include <rte_comch.h>

#define DEFAULT_SERVER_NAME "comch_ctrl_path_sample"
#define DEFAULT_TEXT "Message from the client"
#define DEFAULT_TIMEOUT_S 30

/* One message in flight at a time: small pools and queues are enough. */
#define NB_SEND_TASKS 8
#define RECV_QUEUE_SIZE 16
/* When a round of progress found nothing to do, nap instead of spinning a whole core. */
#define IDLE_SLEEP_US 10
/* Longest wait for the client to drain and reach IDLE once asked to stop. */
#define STOP_TIMEOUT_S 5
/* Longest part of a message printed; the rest is summarised as "...". */
#define PRINT_MAX 256

struct app_args {
	const char *devargs;   /* -p: the device */
	const char *name;      /* -n: name of the server to reach */
	const char *text;      /* -t: the message */
	uint32_t timeout_s;    /* -T: give up after that long, connecting or waiting (0: never) */
};

struct client_app {
	struct app_args args;
	struct rte_comch_dev *dev;
	struct rte_comch_client *client;
	struct rte_comch_pe *pe;
	uint32_t text_len;
	bool sent;           /* our message was submitted */
	bool send_done;      /* its task came back, successfully or not */
	int send_status;     /* and with that status */
	uint64_t nb_answers; /* messages received from the server */
	uint64_t running_at; /* TSC when the connection came up */
};

static volatile sig_atomic_t force_quit;

static void
signal_handler(int signum)
{
	/* Only set a flag: the main loop stops the client outside any callback. */
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

/* What rte_comch_ctx_get_last_error() means for a client, in words. */
static const char *
last_error_reason(int err)
{
	switch (err) {
	case 0: return "stopped by the application";
	case -ENOENT: return "no server of that name on this host function";
	case -ETIMEDOUT: return "the connect timeout expired";
	case -EMSGSIZE: return "the client's and the server's max message sizes differ";
	case -ECONNREFUSED: return "the server refused the connection (client limit reached)";
	case -ECONNRESET: return "the server died";
	case -ECONNABORTED: return "the server closed the connection";
	case -EPROTO: return "the server broke the protocol";
	default: return rte_strerror(-err);
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
	printf("%s: \"%s%s\"\n", prefix, out, len > n ? "..." : "");
}

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

static int
parse_u32(const char *arg, const char *what, uint32_t *val)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(arg, &end, 10);
	/* The timeout becomes milliseconds for the library: keep it in range. */
	if (errno != 0 || end == arg || *end != '\0' || arg[0] == '-' || v > UINT32_MAX / 1000) {
		fprintf(stderr, "Invalid %s: \"%s\"\n", what, arg);
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
		{ "name", required_argument, NULL, 'n' },
		{ "text", required_argument, NULL, 't' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	args->devargs = NULL;
	args->name = DEFAULT_SERVER_NAME;
	args->text = DEFAULT_TEXT;
	args->timeout_s = DEFAULT_TIMEOUT_S;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "p:n:t:T:h", lopts, NULL)) != -1) {
		switch (opt) {
		case 'p':
			args->devargs = optarg;
			break;
		case 'n':
			args->name = optarg;
			break;
		case 't':
			args->text = optarg;
			break;
		case 'T':
			if (parse_u32(optarg, "timeout", &args->timeout_s) < 0)
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

/* ------------------------------------------------------------------ callbacks */

static void
msg_recv_cb(struct rte_comch_connection *conn, const uint8_t *msg, uint32_t len)
{
	struct rte_comch_ctx *ctx = rte_comch_connection_get_ctx(conn);
	union rte_comch_data data;
	struct client_app *app;

	if (ctx == NULL || rte_comch_ctx_get_user_data(ctx, &data) < 0)
		return;
	app = data.ptr;
	app->nb_answers++;
	/* The message is only valid during this callback: use it now, keep nothing. */
	print_message("Client received message", msg, len);
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
		rte_strerror(-app->send_status), errno_name(app->send_status));
	/* The callback owns the task: free it, or the client could never be destroyed. */
	rte_comch_task_free(rte_comch_task_send_as_task(task));
}

static void
state_changed_cb(union rte_comch_data user_data, struct rte_comch_ctx *ctx,
		 enum rte_comch_ctx_state prev_state, enum rte_comch_ctx_state next_state)
{
	struct client_app *app = user_data.ptr;

	printf("Client: context %s -> %s\n", state_name(prev_state), state_name(next_state));
	/* RUNNING is how a client learns that its connection is up. */
	if (next_state == RTE_COMCH_CTX_STATE_RUNNING)
		app->running_at = rte_get_timer_cycles();
}

/* ------------------------------------------------------------------ set-up */

static int
open_device(struct client_app *app)
{
	struct rte_comch_dev_info info;

	app->dev = rte_comch_dev_open(app->args.devargs);
	if (app->dev == NULL) {
		fprintf(stderr, "Cannot open device \"%s\": %s (-%s)\n", app->args.devargs,
			rte_strerror(rte_errno), errno_name(rte_errno));
		return -rte_errno;
	}
	if (rte_comch_dev_info_get(app->dev, &info) == 0 && !info.client_supported) {
		fprintf(stderr, "Device %s cannot run clients: clients run on the host side "
			"(role=host)\n", info.name);
		return -EPERM;
	}
	return 0;
}

/* Create the client and register everything it needs before it may start. */
static int
create_client(struct client_app *app)
{
	struct rte_comch_ctx *ctx;
	int ret;

	app->client = rte_comch_client_create(app->dev, app->args.name);
	if (app->client == NULL) {
		fprintf(stderr, "Cannot create a client for server \"%s\": %s (-%s)\n",
			app->args.name, rte_strerror(rte_errno), errno_name(rte_errno));
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
			errno_name(ret));
		return ret;
	}
	return 0;
}

static int
start_client(struct client_app *app)
{
	struct rte_comch_ctx *ctx = rte_comch_client_as_ctx(app->client);
	int ret;

	/* The engine belongs to the lcore that creates it: this one, which polls it. */
	app->pe = rte_comch_pe_create(RTE_COMCH_PE_LCORE_SELF);
	if (app->pe == NULL) {
		fprintf(stderr, "Cannot create the progress engine: %s\n", rte_strerror(rte_errno));
		return -rte_errno;
	}
	ret = rte_comch_pe_connect_ctx(app->pe, ctx);
	if (ret < 0) {
		fprintf(stderr, "Cannot attach the client to the engine: %s\n", rte_strerror(-ret));
		return ret;
	}
	/* A client only starts connecting here; progress brings it to RUNNING. */
	ret = rte_comch_ctx_start(ctx);
	if (ret < 0 && ret != -EINPROGRESS) {
		fprintf(stderr, "Cannot start the client: %s (-%s)\n", rte_strerror(-ret),
			errno_name(ret));
		return ret;
	}
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
			errno_name(ret));
		return ret;
	}
	app->sent = true;
	return 0;
}

static bool
timed_out(uint64_t since, uint32_t timeout_s)
{
	return timeout_s > 0 && rte_get_timer_cycles() - since > timeout_s * rte_get_timer_hz();
}

/*
 * Poll until the exchange is over. Returns 0 once the message was delivered and
 * an answer arrived, -errno otherwise (the context may then be in any state).
 */
static int
run_client(struct client_app *app)
{
	struct rte_comch_ctx *ctx = rte_comch_client_as_ctx(app->client);
	uint64_t started_at = rte_get_timer_cycles();
	enum rte_comch_ctx_state state;
	int ret, err;

	while (!force_quit) {
		ret = rte_comch_pe_progress(app->pe);
		if (ret < 0) {
			fprintf(stderr, "Progress failed: %s (-%s)\n", rte_strerror(-ret),
				errno_name(ret));
			return ret;
		}
		rte_comch_ctx_get_state(ctx, &state);
		if (state == RTE_COMCH_CTX_STATE_IDLE) {
			/* We did not stop it: the connection failed or ended. Say why. */
			err = rte_comch_ctx_get_last_error(ctx);
			fprintf(stderr, "Client: %s server \"%s\": %s (-%s)\n",
				app->running_at != 0 ? "lost the connection to" : "cannot reach",
				app->args.name, last_error_reason(err), errno_name(err));
			return err < 0 ? err : -ENOTCONN;
		}
		if (state == RTE_COMCH_CTX_STATE_RUNNING && !app->sent) {
			ret = send_message(app);
			if (ret < 0)
				return ret;
		}
		if (app->send_done && app->send_status != 0)
			return app->send_status;
		if (app->send_done && app->nb_answers > 0)
			return 0;
		/*
		 * The library gives up connecting by itself after the same timeout and
		 * tells us why (IDLE above); allow it a second to do so before we do.
		 */
		if (state == RTE_COMCH_CTX_STATE_STARTING && app->args.timeout_s > 0 &&
		    timed_out(started_at, app->args.timeout_s + 1)) {
			fprintf(stderr, "Client: cannot reach server \"%s\" within %" PRIu32 " s\n",
				app->args.name, app->args.timeout_s);
			return -ETIMEDOUT;
		}
		if (app->running_at != 0 && timed_out(app->running_at, app->args.timeout_s)) {
			fprintf(stderr, "Client: no answer from server \"%s\" within %" PRIu32
				" s\n", app->args.name, app->args.timeout_s);
			return -ETIMEDOUT;
		}
		if (ret == 0)
			rte_delay_us_sleep(IDLE_SLEEP_US);
	}
	fprintf(stderr, "Client: signal %d received, stopping\n", (int)force_quit);
	return -EINTR;
}

/*
 * Stop a context and keep progressing until it is IDLE: stopping closes the
 * connection, lets what we sent drain and flushes tasks still in flight to
 * their error callback, all from inside progress.
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
static int
cleanup(struct client_app *app)
{
	int ret, rc = 0;

	if (app->client != NULL) {
		if (app->pe != NULL)
			rc = stop_ctx(app->pe, rte_comch_client_as_ctx(app->client));
		ret = rte_comch_client_destroy(app->client);
		if (ret < 0) {
			fprintf(stderr, "Cannot destroy the client: %s\n", rte_strerror(-ret));
			rc = ret;
		}
	}
	if (app->pe != NULL) {
		ret = rte_comch_pe_destroy(app->pe);
		if (ret < 0) {
			fprintf(stderr, "Cannot destroy the engine: %s\n", rte_strerror(-ret));
			rc = ret;
		}
	}
	if (app->dev != NULL) {
		ret = rte_comch_dev_close(app->dev);
		if (ret < 0) {
			fprintf(stderr, "Cannot close the device: %s\n", rte_strerror(-ret));
			rc = ret;
		}
	}
	return rc;
}

int
main(int argc, char **argv)
{
	struct client_app app = { 0 };
	int ret, rc;

	/* Line-buffered, so that output redirected to a file or pipe shows up at once. */
	setvbuf(stdout, NULL, _IOLBF, 0);

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
