/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>

#include "comch_sample.h"

/* When a round of progress found nothing to do, nap instead of spinning a whole core. */
#define IDLE_SLEEP_US 10
/* Longest wait for a context to reach IDLE once asked to stop. */
#define STOP_TIMEOUT_S 5

static volatile sig_atomic_t force_quit;

static void
signal_handler(int signum)
{
	/* Only set a flag: the main loop stops the sample outside any callback. */
	force_quit = signum;
}

int
comch_sample_signal(void)
{
	return (int)force_quit;
}

/* ------------------------------------------------------------------ options */

static int
parse_u32(const char *arg, const char *what, uint32_t min, uint32_t max, bool range_hint,
	  uint32_t *val)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno != 0 || end == arg || *end != '\0' || arg[0] == '-' || v > max || v < min) {
		if (range_hint)
			fprintf(stderr, "Invalid %s: \"%s\" (need an integer >= %" PRIu32 ")\n",
				what, arg, min);
		else
			fprintf(stderr, "Invalid %s: \"%s\"\n", what, arg);
		return -EINVAL;
	}
	*val = (uint32_t)v;
	return 0;
}

/* Parse the options that follow EAL's and the "--". 1 means "exit 0". */
static int
parse_args(int argc, char **argv, const struct comch_sample_opts *opts,
	   struct comch_sample_args *args)
{
	/* --pci-addr and --rep-pci are the options' names in DOCA's samples. */
	static const struct option all_lopts[] = {
		{ "devargs", required_argument, NULL, 'p' },
		{ "pci-addr", required_argument, NULL, 'p' },
		{ "rep", required_argument, NULL, 'r' },
		{ "rep-pci", required_argument, NULL, 'r' },
		{ "name", required_argument, NULL, 'n' },
		{ "text", required_argument, NULL, 't' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "clients", required_argument, NULL, 'c' },
		{ "count", required_argument, NULL, 'N' },
		{ "size", required_argument, NULL, 's' },
		{ "window", required_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
	};
	/* getopt_long() takes a long option whatever the short ones: keep only the sample's. */
	struct option lopts[RTE_DIM(all_lopts) + 1];
	unsigned int i, n = 0;
	int opt;

	for (i = 0; i < RTE_DIM(all_lopts); i++)
		if (strchr(opts->optstring, all_lopts[i].val) != NULL)
			lopts[n++] = all_lopts[i];
	memset(&lopts[n], 0, sizeof(lopts[n]));

	optind = 1;
	while ((opt = getopt_long(argc, argv, opts->optstring, lopts, NULL)) != -1) {
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
			if (parse_u32(optarg, "timeout", 0, opts->timeout_max, opts->range_hint,
				      &args->timeout_s) < 0)
				return -EINVAL;
			break;
		case 'c':
			if (parse_u32(optarg, "client count", 1, UINT32_MAX, opts->range_hint,
				      &args->nb_clients) < 0)
				return -EINVAL;
			break;
		case 'N':
			if (parse_u32(optarg, "count", 1, UINT32_MAX, opts->range_hint,
				      &args->count) < 0)
				return -EINVAL;
			break;
		case 's':
			if (parse_u32(optarg, "size", opts->size_min, opts->size_max,
				      opts->range_hint, &args->size) < 0)
				return -EINVAL;
			if (opts->size_align > 1 && args->size % opts->size_align != 0) {
				fprintf(stderr, "Invalid size: %" PRIu32 " (need a multiple of %"
					PRIu32 ")\n", args->size, opts->size_align);
				return -EINVAL;
			}
			break;
		case 'w':
			if (parse_u32(optarg, "window", 1, opts->window_max, opts->range_hint,
				      &args->window) < 0)
				return -EINVAL;
			break;
		case 'h':
			opts->usage(argv[0]);
			return 1;
		default:
			opts->usage(argv[0]);
			return -EINVAL;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "Unexpected argument: \"%s\"\n", argv[optind]);
		return -EINVAL;
	}
	if (args->devargs == NULL) {
		fprintf(stderr, "Missing -p <devargs>: the device to open\n");
		opts->usage(argv[0]);
		return -EINVAL;
	}
	if (opts->text_required && args->text[0] == '\0') {
		fprintf(stderr, "The text (-t) must not be empty\n");
		return -EINVAL;
	}
	return 0;
}

int
comch_sample_init(int argc, char **argv, const struct comch_sample_opts *opts,
		  struct comch_sample_args *args)
{
	int ret;

	/* Line-buffered, so that output redirected to a file or pipe shows up at once. */
	setvbuf(stdout, NULL, _IOLBF, 0);

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "Cannot initialise EAL: %s\n", rte_strerror(rte_errno));
		return -1;
	}
	argc -= ret;
	argv += ret;

	ret = parse_args(argc, argv, opts, args);
	if (ret != 0) {
		rte_eal_cleanup();
		return ret;
	}

	signal(SIGINT, signal_handler);
	signal(SIGTERM, signal_handler);
	return 0;
}

/* ------------------------------------------------------------------ words */

const char *
comch_sample_errno_name(int err)
{
	switch (err < 0 ? -err : err) {
	case 0: return "0";
	case EAGAIN: return "EAGAIN";
	case EALREADY: return "EALREADY";
	case EBUSY: return "EBUSY";
	case ECONNABORTED: return "ECONNABORTED";
	case ECONNREFUSED: return "ECONNREFUSED";
	case ECONNRESET: return "ECONNRESET";
	case EDEADLK: return "EDEADLK";
	case EEXIST: return "EEXIST";
	case EINPROGRESS: return "EINPROGRESS";
	case EINTR: return "EINTR";
	case EINVAL: return "EINVAL";
	case EMSGSIZE: return "EMSGSIZE";
	case ENAMETOOLONG: return "ENAMETOOLONG";
	case ENODEV: return "ENODEV";
	case ENOENT: return "ENOENT";
	case ENOMEM: return "ENOMEM";
	case ENOSPC: return "ENOSPC";
	case ENOTCONN: return "ENOTCONN";
	case ENOTSUP: return "ENOTSUP";
	case EPERM: return "EPERM";
	case EPROTO: return "EPROTO";
	case ETIMEDOUT: return "ETIMEDOUT";
	default: return "errno";
	}
}

const char *
comch_sample_client_error_reason(int err)
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

const char *
comch_sample_disconnect_reason(int status)
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

void
comch_sample_print_state(const char *who, const char *what, enum rte_comch_ctx_state prev_state,
			 enum rte_comch_ctx_state next_state)
{
	printf("%s: %s %s -> %s\n", who, what, state_name(prev_state), state_name(next_state));
}

/*
 * A message is raw bytes, not a C string: it may lack a NUL and hold anything,
 * so escape what is not printable. Each byte is read once: the message lives in
 * memory the peer can write to (for the fast path, at any time), so the bytes
 * may change under us.
 */
const char *
comch_sample_quote(char out[COMCH_SAMPLE_QUOTE_SIZE], const uint8_t *msg, size_t len)
{
	size_t i, n = RTE_MIN(len, (size_t)COMCH_SAMPLE_PRINT_MAX);
	size_t pos = 0;
	uint8_t c;

	out[pos++] = '"';
	for (i = 0; i < n; i++) {
		c = msg[i];
		if (c == '"' || c == '\\') {
			out[pos++] = '\\';
			out[pos++] = (char)c;
		} else if (isprint(c)) {
			out[pos++] = (char)c;
		} else {
			pos += snprintf(out + pos, COMCH_SAMPLE_QUOTE_SIZE - pos, "\\x%02x", c);
		}
	}
	snprintf(out + pos, COMCH_SAMPLE_QUOTE_SIZE - pos, "%s\"", len > n ? "..." : "");
	return out;
}

bool
comch_sample_timed_out(uint64_t since, uint32_t timeout_s)
{
	return timeout_s > 0 && rte_get_timer_cycles() - since > timeout_s * rte_get_timer_hz();
}

/* ------------------------------------------------------------------ set-up */

int
comch_sample_open_device(const char *devargs, const char *rep_name, bool fast_path,
			 struct rte_comch_dev **dev, struct rte_comch_dev_rep **rep)
{
	struct rte_comch_dev_info info;

	*dev = rte_comch_dev_open(devargs);
	if (*dev == NULL) {
		fprintf(stderr, "Cannot open device \"%s\": %s (-%s)\n", devargs,
			rte_strerror(rte_errno), comch_sample_errno_name(rte_errno));
		return -rte_errno;
	}
	/* Refuse the wrong side at once, with a hint, rather than fail at create. */
	if (rte_comch_dev_info_get(*dev, &info) == 0) {
		if (rep_name != NULL && (info.capa & RTE_COMCH_CAPA_SERVER) == 0) {
			fprintf(stderr, "Device %s cannot run servers: servers run on the "
				"BlueField side (role=dpu)\n", info.name);
			return -EPERM;
		}
		if (rep_name == NULL && (info.capa & RTE_COMCH_CAPA_CLIENT) == 0) {
			fprintf(stderr, "Device %s cannot run clients: clients run on the host "
				"side (role=host)\n", info.name);
			return -EPERM;
		}
		if (fast_path && (info.capa & (RTE_COMCH_CAPA_PRODUCER | RTE_COMCH_CAPA_CONSUMER)) !=
				 (RTE_COMCH_CAPA_PRODUCER | RTE_COMCH_CAPA_CONSUMER)) {
			fprintf(stderr, "Device %s has no fast path (producers and consumers)\n",
				info.name);
			return -ENOTSUP;
		}
	}
	if (rep_name == NULL)
		return 0;
	*rep = rte_comch_dev_rep_open(*dev, rep_name);
	if (*rep == NULL) {
		fprintf(stderr, "Cannot open representor \"%s\": %s (-%s)\n", rep_name,
			rte_strerror(rte_errno), comch_sample_errno_name(rte_errno));
		return -rte_errno;
	}
	return 0;
}

struct rte_comch_pe *
comch_sample_pe_create(void)
{
	struct rte_comch_pe *pe;

	/* The engine belongs to the lcore that creates it: this one, which polls it. */
	pe = rte_comch_pe_create(RTE_COMCH_PE_LCORE_SELF);
	if (pe == NULL)
		fprintf(stderr, "Cannot create the progress engine: %s\n", rte_strerror(rte_errno));
	return pe;
}

int
comch_sample_start_ctx(struct rte_comch_pe *pe, struct rte_comch_ctx *ctx, const char *what)
{
	int ret;

	ret = rte_comch_pe_connect_ctx(pe, ctx);
	if (ret < 0) {
		fprintf(stderr, "Cannot attach the %s to the engine: %s (-%s)\n", what,
			rte_strerror(-ret), comch_sample_errno_name(ret));
		return ret;
	}
	/*
	 * A server or a producer is RUNNING as soon as start returns. A client
	 * only starts connecting, and a consumer waits until the peer was told:
	 * progress brings them to RUNNING.
	 */
	ret = rte_comch_ctx_start(ctx);
	if (ret < 0 && ret != -EINPROGRESS) {
		fprintf(stderr, "Cannot start the %s: %s (-%s)\n", what, rte_strerror(-ret),
			comch_sample_errno_name(ret));
		return ret;
	}
	return 0;
}

/* ------------------------------------------------------------------ run */

int
comch_sample_poll(struct rte_comch_pe *pe, int (*step)(void *arg), void *arg)
{
	int busy, ret;

	while (!force_quit) {
		busy = rte_comch_pe_progress(pe);
		if (busy < 0) {
			fprintf(stderr, "Progress failed: %s (-%s)\n", rte_strerror(-busy),
				comch_sample_errno_name(busy));
			return busy;
		}
		/* Every callback of this round has run: the step sees what they recorded. */
		ret = step(arg);
		if (ret != COMCH_SAMPLE_AGAIN)
			return ret;
		if (busy == 0)
			rte_delay_us_sleep(IDLE_SLEEP_US);
	}
	return -EINTR;
}

int
comch_sample_client_state(struct rte_comch_ctx *ctx, const char *name, uint32_t timeout_s,
			  uint64_t started_at, bool was_running, enum rte_comch_ctx_state *state)
{
	int err;

	rte_comch_ctx_get_state(ctx, state);
	if (*state == RTE_COMCH_CTX_STATE_IDLE) {
		/* We did not stop it: the connection failed or ended. Say why. */
		err = rte_comch_ctx_get_last_error(ctx);
		fprintf(stderr, "Client: %s server \"%s\": %s (-%s)\n",
			was_running ? "lost the connection to" : "cannot reach", name,
			comch_sample_client_error_reason(err), comch_sample_errno_name(err));
		return err < 0 ? err : -ENOTCONN;
	}
	/*
	 * The library gives up connecting by itself after the same timeout and
	 * tells us why (IDLE above); allow it a second to do so before we do.
	 */
	if (*state == RTE_COMCH_CTX_STATE_STARTING && timeout_s > 0 &&
	    comch_sample_timed_out(started_at, timeout_s + 1)) {
		fprintf(stderr, "Client: cannot reach server \"%s\" within %" PRIu32 " s\n", name,
			timeout_s);
		return -ETIMEDOUT;
	}
	return 0;
}

/* ------------------------------------------------------------------ stop */

/*
 * Stopping happens inside progress: a server disconnects its clients, a
 * client closes its connection and lets what it sent drain, a consumer waits
 * for the peer to confirm, and tasks in flight come back through their error
 * callback. Hence the polling until IDLE.
 */
int
comch_sample_stop_ctx(struct rte_comch_pe *pe, struct rte_comch_ctx *ctx, const char *what)
{
	uint64_t deadline = rte_get_timer_cycles() + STOP_TIMEOUT_S * rte_get_timer_hz();
	enum rte_comch_ctx_state state;
	int ret;

	/* Already IDLE: never started, or its connection ended. */
	if (rte_comch_ctx_get_state(ctx, &state) < 0 || state == RTE_COMCH_CTX_STATE_IDLE)
		return 0;
	if (state != RTE_COMCH_CTX_STATE_STOPPING) {
		ret = rte_comch_ctx_stop(ctx);
		if (ret == 0)
			return 0;
		if (ret != -EINPROGRESS) {
			fprintf(stderr, "Cannot stop the %s: %s (-%s)\n", what, rte_strerror(-ret),
				comch_sample_errno_name(ret));
			return ret;
		}
	}
	while (rte_comch_ctx_get_state(ctx, &state) == 0 && state != RTE_COMCH_CTX_STATE_IDLE) {
		if (rte_get_timer_cycles() > deadline) {
			fprintf(stderr, "The %s is still %s after %d s\n", what, state_name(state),
				STOP_TIMEOUT_S);
			return -ETIMEDOUT;
		}
		if (rte_comch_pe_progress(pe) == 0)
			rte_delay_us_sleep(IDLE_SLEEP_US);
	}
	return 0;
}

int
comch_sample_pe_destroy(struct rte_comch_pe *pe)
{
	int ret;

	if (pe == NULL)
		return 0;
	ret = rte_comch_pe_destroy(pe);
	if (ret < 0)
		fprintf(stderr, "Cannot destroy the engine: %s\n", rte_strerror(-ret));
	return ret;
}

int
comch_sample_close_device(struct rte_comch_dev_rep *rep, struct rte_comch_dev *dev)
{
	int ret, rc = 0;

	if (rep != NULL) {
		ret = rte_comch_dev_rep_close(rep);
		if (ret < 0) {
			fprintf(stderr, "Cannot close the representor: %s\n", rte_strerror(-ret));
			rc = ret;
		}
	}
	if (dev != NULL) {
		ret = rte_comch_dev_close(dev);
		if (ret < 0) {
			fprintf(stderr, "Cannot close the device: %s\n", rte_strerror(-ret));
			rc = ret;
		}
	}
	return rc;
}
