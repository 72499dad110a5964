/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Command line: application options first, then optionally "--" and extra EAL
 * arguments. The EAL arguments proper are built by each side (bench_side.c), so
 * that the parent never initialises EAL and can fork safely.
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define DEFAULT_ITERATIONS 10000
#define DEFAULT_WARMUP 1000
#define DEFAULT_DURATION 1.0
/* Stream tests of the default suite (no --mode): short, the whole suite takes seconds. */
#define SUITE_DURATION 0.2
#define DEFAULT_BURST 32
#define MAX_BURST 4096
/* The shm driver's max_fast_tasks: the most post-recv tasks of one consumer. */
#define MAX_BUFFERS 65536
/* Same as the library's default (RTE_COMCH_DEFAULT_RECV_QUEUE_SIZE). */
#define DEFAULT_RECV_QUEUE 64
#define MAX_RECV_QUEUE 65536
/* Every round trip is kept (8 bytes) for exact percentiles. */
#define MAX_ITERATIONS 100000000
#define DEFAULT_CLIENTS 8
#define DEFAULT_PRODUCERS 4
#define DEFAULT_CONSUMERS 4
/* Event modes: how long both sides sleep, connected and idle, after the ping-pong. */
#define DEFAULT_IDLE 0.3
/* The default suite's: a tenth of a second still shows an idle engine's CPU use. */
#define SUITE_IDLE 0.1
#define MAX_IDLE 60.0

enum {
	OPT_MODE = 256,
	OPT_SIZE,
	OPT_ITERATIONS,
	OPT_WARMUP,
	OPT_DURATION,
	OPT_RECV_QUEUE,
	OPT_BURST,
	OPT_BUFFERS,
	OPT_TRANSPORT,
	OPT_CSV,
	OPT_SIDE,
	OPT_DIR,
	OPT_DEVARGS,
	OPT_SERVER_LCORE,
	OPT_CLIENT_LCORE,
	OPT_TIMEOUT,
	OPT_REPORT_FD,
	OPT_HELP,
	OPT_CLIENTS,
	OPT_PRODUCERS,
	OPT_CONSUMERS,
	OPT_PROGRESS,
	OPT_NO_PROGRESS,
	OPT_IDLE,
	OPT_DOORBELL,
	OPT_CONSUMER_MEM,
	OPT_TARGETS,
	OPT_BRIEF,
	OPT_REPEAT,
};

static const struct option long_opts[] = {
	{ "mode", required_argument, NULL, OPT_MODE },
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "iterations", required_argument, NULL, OPT_ITERATIONS },
	{ "warmup", required_argument, NULL, OPT_WARMUP },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "recv-queue", required_argument, NULL, OPT_RECV_QUEUE },
	{ "burst", required_argument, NULL, OPT_BURST },
	{ "buffers", required_argument, NULL, OPT_BUFFERS },
	{ "transport", required_argument, NULL, OPT_TRANSPORT },
	{ "csv", required_argument, NULL, OPT_CSV },
	{ "side", required_argument, NULL, OPT_SIDE },
	{ "dir", required_argument, NULL, OPT_DIR },
	{ "devargs", required_argument, NULL, OPT_DEVARGS },
	{ "server-lcore", required_argument, NULL, OPT_SERVER_LCORE },
	{ "client-lcore", required_argument, NULL, OPT_CLIENT_LCORE },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "report-fd", required_argument, NULL, OPT_REPORT_FD },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "clients", required_argument, NULL, OPT_CLIENTS },
	{ "producers", required_argument, NULL, OPT_PRODUCERS },
	{ "consumers", required_argument, NULL, OPT_CONSUMERS },
	{ "progress", no_argument, NULL, OPT_PROGRESS },
	{ "no-progress", no_argument, NULL, OPT_NO_PROGRESS },
	{ "idle", required_argument, NULL, OPT_IDLE },
	{ "doorbell", required_argument, NULL, OPT_DOORBELL },
	{ "consumer-mem", required_argument, NULL, OPT_CONSUMER_MEM },
	{ "targets", no_argument, NULL, OPT_TARGETS },
	{ "brief", no_argument, NULL, OPT_BRIEF },
	{ "repeat", required_argument, NULL, OPT_REPEAT },
	{ NULL, 0, NULL, 0 },
};

/* "64", "0,64", "4096,65536,1048576": a mode's default sizes. */
static void
mode_sizes(const struct bench_mode *m, char *buf, size_t len)
{
	unsigned int i;
	size_t n = 0;

	buf[0] = '\0';
	for (i = 0; i < m->nb_sizes && n < len; i++)
		n += snprintf(buf + n, len - n, "%s%" PRIu32, i ? "," : "", m->sizes[i]);
}

void
bench_opts_usage(void)
{
	char sizes[64];
	unsigned int i;

	printf("Usage: %s [options] [-- extra EAL arguments]\n\n", BENCH_PROG);
	printf("Measures rte_comch, control path and fast path, against baselines measured\n"
	       "in the same run: a Unix socket, for fp-bw a plain memcpy, and the floors of\n"
	       "a ping-pong: a shared cache line (polling) and an eventfd (sleeping).\n"
	       "The MsgQ modes run CPU code and a software DPA program in one process,\n"
	       "against two threads exchanging the same messages through rte_rings.\n"
	       "Without --side, runs both sides itself: a server (BlueField side) and a\n"
	       "client (host side) process, and prints the results of both.\n"
	       "Without --mode, runs a short suite of a few seconds: every mode at its\n"
	       "default sizes, stream tests of %.1f s, with baselines.\n\n", SUITE_DURATION);
	printf("Options:\n"
	       "  --mode LIST         modes to run, comma separated, or \"all\":\n");
	for (i = 0; i < bench_nb_modes; i++) {
		mode_sizes(bench_modes[i], sizes, sizeof(sizes));
		printf("                        %-12s %s\n"
		       "                                     (default sizes: %s)\n",
		       bench_modes[i]->name, bench_modes[i]->help, sizes);
	}
	printf("  --size LIST         message sizes in bytes, comma separated, for every mode\n"
	       "                      instead of its defaults: %u to %u for the control\n"
	       "                      path, 0 (immediate data only) to %u for fp-lat,\n"
	       "                      fp-stream and fp-many, 1 to %u for fp-bw, %u to %u\n"
	       "                      (immediate data) for msgq-lat and msgq-rate; a mode\n"
	       "                      skips the sizes it cannot carry\n"
	       "  --iterations N      measured round trips per latency test (default %u)\n"
	       "  --warmup N          unmeasured round trips (latency) or messages (stream)\n"
	       "                      before measuring (default %u)\n"
	       "  --duration SEC      length of each stream test, in seconds (default %.1f;\n"
	       "                      %.1f in the default suite)\n"
	       "  --recv-queue LIST   comch receive queue size of both sides, in messages\n"
	       "                      (control path; default %u); a list: ctrl-stream and\n"
	       "                      ctrl-many run comch at each, the others at the first\n"
	       "  --burst LIST        fast path: sends submitted before each progress, for\n"
	       "                      fp-stream (which also runs one per progress), fp-bw\n"
	       "                      and fp-many (default %u); a list: comch runs at each\n"
	       "  --buffers LIST      fast path: buffers each consumer keeps posted (default:\n"
	       "                      max(2 x burst, 64); fp-lat and fp-bw: at most 8 MiB of\n"
	       "                      them, at least 4); a list: comch (and memcpy) run at\n"
	       "                      each, times each burst and each size; the MsgQ modes\n"
	       "                      take the first as the receives offered each way and\n"
	       "                      the ring baseline's depth (default %u)\n"
	       "  --clients N         ctrl-many: clients opened on the host side, all on one\n"
	       "                      engine, streaming to one server (default %u, 1 to %u)\n"
	       "  --producers N       fp-many: producers on the client's side of the one\n"
	       "                      connection, one engine (default %u, 1 to %u)\n"
	       "  --consumers N       fp-many: consumers on the server's side; producer i\n"
	       "                      sends to consumer i %% N (default %u, 1 to %u)\n"
	       "  --idle SEC          event modes: how long both sides sleep, connected and\n"
	       "                      idle, after the ping-pong; each measures the CPU time\n"
	       "                      its thread uses meanwhile (default %.1f; %.1f in the\n"
	       "                      default suite)\n"
	       "  --doorbell KIND     how a side wakes its sleeping peer (shm devargs doorbell=):\n"
	       "                      socket (default; a peer can never make it block) or\n"
	       "                      eventfd (cheaper wake-ups, for peers trusted not to)\n"
	       "  --consumer-mem KIND fast path: the memory consumers receive into: shared\n"
	       "                      (default; rte_comch_mmap_alloc_memrange(), the peer\n"
	       "                      writes into it) or heap (aligned_alloc() registered\n"
	       "                      with rte_comch_mmap_set_memrange(); shm stages each\n"
	       "                      message and copies it once more if over 80 bytes)\n"
	       "  --transport LIST    transports, comma separated, or \"all\" (default: all\n"
	       "                      but unix-poll):\n"
	       "                        comch        rte_comch (shm driver); on the fast\n"
	       "                                     path, the task API\n"
	       "                        comch-burst  rte_comch fast path, the burst API\n"
	       "                        memif        baseline of fp-lat, fp-stream, fp-bw:\n"
	       "                                     DPDK's memif PMD, copy mode%s\n"
	       "                        memif-zc     the same, the client in zero-copy mode\n"
	       "                        unix         baseline: Unix SOCK_SEQPACKET, blocking\n"
	       "                                     calls\n"
	       "                        unix-poll    baseline: same socket, non-blocking\n"
	       "                                     calls in a busy loop, as comch polls\n"
	       "                        memcpy       baseline of fp-bw: one thread copying\n"
	       "                                     the same bytes into as many buffers\n"
	       "                        eventfd      baseline of the event modes: each side\n"
	       "                                     blocks in read() on its eventfd, the\n"
	       "                                     other writes it; no payload: the\n"
	       "                                     wake-up floor\n"
	       "                        cacheline    baseline of ctrl-lat and fp-lat: the\n"
	       "                                     two sides bounce one shared cache\n"
	       "                                     line; no payload: the shared-memory\n"
	       "                                     floor\n"
	       "                        ring         baseline of the MsgQ modes: the same\n"
	       "                                     messages between two threads of the\n"
	       "                                     client's process, one rte_ring each way\n"
	       "  --csv FILE          also write one CSV row per result to FILE\n"
	       "  --brief             print one summary table (each rte_comch result against\n"
	       "                      its mode's main baseline), not every row and ratio\n"
	       "  --repeat N          run the whole plan N times (1 to %u), each time with new\n"
	       "                      processes, and end with the median over the runs of\n"
	       "                      each per-run ratio to the baseline, with its spread\n"
	       "                      (default 1; --csv records the last run)\n"
	       "  --targets           also print the project's performance targets, each\n"
	       "                      met or missed\n"
	       "  --side server|client\n"
	       "                      run one side only, in this process (two terminals);\n"
	       "                      give both sides the same options\n"
	       "  --dir DIR           runtime directory for the shm driver and the sockets\n"
	       "                      (default: a private temporary directory; with --side,\n"
	       "                      $XDG_RUNTIME_DIR/dpdk-test-comch or /tmp/dpdk-test-comch-UID)\n"
	       "  --devargs STR       comch device of this side, instead of the shm device built\n"
	       "                      from --dir (only with --side)\n"
	       "  --server-lcore N    lcore (CPU) of the server side (default 0)\n"
	       "  --client-lcore N    lcore (CPU) of the client side (default 1)\n"
	       "  --timeout SEC       stop everything and fail after SEC seconds\n"
	       "                      (default: derived from the plan)\n"
	       "  --progress          show a progress line on stderr (default: only when\n"
	       "                      stderr is a terminal); --no-progress: never\n"
	       "  --report-fd FD      internal: the pipe a child side reports to its parent on\n"
	       "  -h, --help          this text\n\n",
	       BENCH_MIN_SIZE, BENCH_MAX_SIZE, BENCH_FP_MAX_SIZE, BENCH_FP_MAX_SIZE,
	       BENCH_MSGQ_MIN_SIZE, BENCH_MSGQ_MAX_SIZE,
	       DEFAULT_ITERATIONS, DEFAULT_WARMUP, DEFAULT_DURATION, SUITE_DURATION,
	       DEFAULT_RECV_QUEUE, DEFAULT_BURST, BENCH_MSGQ_DEPTH, DEFAULT_CLIENTS,
	       BENCH_MAX_CLIENTS,
	       DEFAULT_PRODUCERS, BENCH_MAX_PRODUCERS, DEFAULT_CONSUMERS, BENCH_MAX_CONSUMERS,
	       DEFAULT_IDLE, SUITE_IDLE, bench_transport_built(BENCH_TR_MEMIF) ? "" :
	       "\n                                     (not built: no memif PMD)",
	       BENCH_MAX_REPEAT);
	printf("Each side initialises EAL with: -l LCORE --no-huge -m 512 --no-pci\n"
	       "--single-file-segments --file-prefix=test-comch-SIDE-PID\n"
	       "--log-level=lib.eal:critical "
	       "--log-level=lib.telemetry:error, then the extra EAL arguments\n"
	       "(e.g. -- --log-level=lib.comch:debug, or -- --log-level=lib.eal:info for\n"
	       "EAL's own messages).\n");
}

static int
parse_u64(const char *s, const char *what, uint64_t min, uint64_t max, uint64_t *v)
{
	char *end;
	unsigned long long x;

	errno = 0;
	x = strtoull(s, &end, 0);
	if (errno != 0 || end == s || *end != '\0' || s[0] == '-' || x < min || x > max) {
		fprintf(stderr, "%s: bad %s '%s' (expected %" PRIu64 " to %" PRIu64 ")\n",
			BENCH_PROG, what, s, min, max);
		return -EINVAL;
	}
	*v = x;
	return 0;
}

static int
parse_seconds(const char *s, const char *what, double *v)
{
	char *end;
	double x;

	errno = 0;
	x = strtod(s, &end);
	if (errno != 0 || end == s || *end != '\0' || !isfinite(x) || x <= 0 || x > 1e6) {
		fprintf(stderr, "%s: bad %s '%s' (expected seconds > 0)\n", BENCH_PROG, what, s);
		return -EINVAL;
	}
	*v = x;
	return 0;
}

/* Split a comma separated list; calls fn on each item. */
static int
parse_list(const char *list, int (*fn)(struct bench_opts *o, const char *item),
	   struct bench_opts *o)
{
	char buf[256];
	char *item, *save = NULL;
	int ret;

	if (strlen(list) >= sizeof(buf) || list[0] == '\0') {
		fprintf(stderr, "%s: bad list '%s'\n", BENCH_PROG, list);
		return -EINVAL;
	}
	strcpy(buf, list);
	for (item = strtok_r(buf, ",", &save); item != NULL; item = strtok_r(NULL, ",", &save)) {
		ret = fn(o, item);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int
add_mode(struct bench_opts *o, const char *name)
{
	unsigned int i;

	if (strcmp(name, "all") == 0) {
		o->modes = (1u << bench_nb_modes) - 1;
		return 0;
	}
	for (i = 0; i < bench_nb_modes; i++) {
		if (strcmp(name, bench_modes[i]->name) == 0) {
			o->modes |= 1u << i;
			return 0;
		}
	}
	fprintf(stderr, "%s: unknown mode '%s' (see --help)\n", BENCH_PROG, name);
	return -EINVAL;
}

static int
add_transport(struct bench_opts *o, const char *name)
{
	int tr;

	if (strcmp(name, "all") == 0) {
		for (tr = 0; tr < BENCH_TR_MAX; tr++)
			if (bench_transport_built(tr))
				o->transports |= 1u << tr;
		return 0;
	}
	tr = bench_transport_parse(name);
	if (tr < 0) {
		fprintf(stderr, "%s: unknown transport '%s' (see --help)\n", BENCH_PROG, name);
		return -EINVAL;
	}
	if (!bench_transport_built(tr)) {
		fprintf(stderr, "%s: transport '%s' is not built in (DPDK had no memif PMD)\n",
			BENCH_PROG, name);
		return -ENOTSUP;
	}
	o->transports |= 1u << tr;
	return 0;
}

static int
add_size(struct bench_opts *o, const char *s)
{
	uint64_t v;

	if (o->nb_sizes == BENCH_MAX_SIZES) {
		fprintf(stderr, "%s: at most %u sizes\n", BENCH_PROG, BENCH_MAX_SIZES);
		return -EINVAL;
	}
	if (parse_u64(s, "size", 0, BENCH_FP_MAX_SIZE, &v) < 0)
		return -EINVAL;
	o->sizes[o->nb_sizes++] = v;
	return 0;
}

/* One value of a sweep list; what and max say which. */
static int
add_sweep(uint32_t *list, unsigned int *nb, const char *s, const char *what, uint64_t max)
{
	uint64_t v;

	if (*nb == BENCH_MAX_SWEEP) {
		fprintf(stderr, "%s: at most %u values of %s\n", BENCH_PROG, BENCH_MAX_SWEEP, what);
		return -EINVAL;
	}
	if (parse_u64(s, what, 1, max, &v) < 0)
		return -EINVAL;
	list[(*nb)++] = v;
	return 0;
}

static int
add_burst(struct bench_opts *o, const char *s)
{
	return add_sweep(o->bursts, &o->nb_bursts, s, "burst", MAX_BURST);
}

static int
add_buffers(struct bench_opts *o, const char *s)
{
	return add_sweep(o->buffers_list, &o->nb_buffers, s, "buffers", MAX_BUFFERS);
}

static int
add_recv_queue(struct bench_opts *o, const char *s)
{
	return add_sweep(o->recv_queues, &o->nb_recv_queues, s, "recv-queue", MAX_RECV_QUEUE);
}

const char *
bench_consumer_mem_name(enum bench_consumer_mem m)
{
	return m == BENCH_CMEM_HEAP ? "heap" : "shared";
}

static int
parse_consumer_mem(const char *s, enum bench_consumer_mem *m)
{
	if (strcmp(s, "shared") == 0)
		*m = BENCH_CMEM_SHARED;
	else if (strcmp(s, "heap") == 0)
		*m = BENCH_CMEM_HEAP;
	else {
		fprintf(stderr, "%s: bad consumer-mem '%s' (shared or heap)\n", BENCH_PROG, s);
		return -EINVAL;
	}
	return 0;
}

static int
parse_side(const char *s, enum bench_side *side)
{
	if (strcmp(s, "server") == 0)
		*side = BENCH_SIDE_SERVER;
	else if (strcmp(s, "client") == 0)
		*side = BENCH_SIDE_CLIENT;
	else {
		fprintf(stderr, "%s: bad --side '%s' (server or client)\n", BENCH_PROG, s);
		return -EINVAL;
	}
	return 0;
}

int
bench_opts_parse(struct bench_opts *o, int argc, char **argv)
{
	bool duration_given = false, idle_given = false;
	unsigned int i, m, fits;
	uint64_t v;
	int opt, ret = 0;

	memset(o, 0, sizeof(*o));
	o->iterations = DEFAULT_ITERATIONS;
	o->warmup = DEFAULT_WARMUP;
	o->duration = DEFAULT_DURATION;
	o->recv_queue = DEFAULT_RECV_QUEUE;
	o->burst = DEFAULT_BURST;
	o->repeat = 1;
	o->recv_queues[0] = DEFAULT_RECV_QUEUE;
	o->nb_recv_queues = 1;
	o->bursts[0] = DEFAULT_BURST;
	o->nb_bursts = 1;
	o->clients = DEFAULT_CLIENTS;
	o->producers = DEFAULT_PRODUCERS;
	o->consumers = DEFAULT_CONSUMERS;
	o->progress = -1;
	o->side = BENCH_SIDE_BOTH;
	o->server_lcore = 0;
	o->client_lcore = 1;
	o->report_fd = -1;
	o->idle = DEFAULT_IDLE;
	o->doorbell = "socket";
	o->consumer_mem = BENCH_CMEM_SHARED;

	/* "+": stop at the first non-option, so that nothing after "--" is touched. */
	while (ret == 0 && (opt = getopt_long(argc, argv, "+h", long_opts, NULL)) != -1) {
		switch (opt) {
		case OPT_MODE:
			ret = parse_list(optarg, add_mode, o);
			break;
		case OPT_SIZE:
			ret = parse_list(optarg, add_size, o);
			break;
		case OPT_ITERATIONS:
			ret = parse_u64(optarg, "iterations", 1, MAX_ITERATIONS,
					&o->iterations);
			break;
		case OPT_WARMUP:
			ret = parse_u64(optarg, "warmup", 0, UINT64_C(1) << 32, &o->warmup);
			break;
		case OPT_DURATION:
			ret = parse_seconds(optarg, "duration", &o->duration);
			duration_given = true;
			break;
		/* A list option given again replaces the list, as a single value would. */
		case OPT_RECV_QUEUE:
			o->nb_recv_queues = 0;
			ret = parse_list(optarg, add_recv_queue, o);
			o->recv_queue = o->recv_queues[0];
			break;
		case OPT_BURST:
			o->nb_bursts = 0;
			ret = parse_list(optarg, add_burst, o);
			o->burst = o->bursts[0];
			break;
		case OPT_BUFFERS:
			o->nb_buffers = 0;
			ret = parse_list(optarg, add_buffers, o);
			o->buffers = o->buffers_list[0];
			break;
		case OPT_CLIENTS:
			ret = parse_u64(optarg, "clients", 1, BENCH_MAX_CLIENTS, &v);
			o->clients = v;
			break;
		case OPT_PRODUCERS:
			ret = parse_u64(optarg, "producers", 1, BENCH_MAX_PRODUCERS, &v);
			o->producers = v;
			break;
		case OPT_CONSUMERS:
			ret = parse_u64(optarg, "consumers", 1, BENCH_MAX_CONSUMERS, &v);
			o->consumers = v;
			break;
		case OPT_PROGRESS:
			o->progress = 1;
			break;
		case OPT_NO_PROGRESS:
			o->progress = 0;
			break;
		case OPT_TRANSPORT:
			ret = parse_list(optarg, add_transport, o);
			break;
		case OPT_CSV:
			o->csv = optarg;
			break;
		case OPT_TARGETS:
			o->targets = true;
			break;
		case OPT_BRIEF:
			o->brief = true;
			break;
		case OPT_REPEAT:
			ret = parse_u64(optarg, "repeat", 1, BENCH_MAX_REPEAT, &v);
			o->repeat = v;
			break;
		case OPT_SIDE:
			ret = parse_side(optarg, &o->side);
			break;
		case OPT_DIR:
			o->dir = optarg;
			break;
		case OPT_DEVARGS:
			o->devargs = optarg;
			break;
		case OPT_SERVER_LCORE:
			ret = parse_u64(optarg, "server-lcore", 0, 1023, &v);
			o->server_lcore = v;
			break;
		case OPT_CLIENT_LCORE:
			ret = parse_u64(optarg, "client-lcore", 0, 1023, &v);
			o->client_lcore = v;
			break;
		case OPT_TIMEOUT:
			ret = parse_seconds(optarg, "timeout", &o->timeout);
			break;
		case OPT_REPORT_FD:
			ret = parse_u64(optarg, "report-fd", 3, 1023, &v);
			o->report_fd = v;
			break;
		case OPT_DOORBELL:
			if (strcmp(optarg, "socket") != 0 && strcmp(optarg, "eventfd") != 0) {
				fprintf(stderr, "%s: bad doorbell '%s' (socket or eventfd)\n",
					BENCH_PROG, optarg);
				ret = -EINVAL;
			}
			o->doorbell = optarg;
			break;
		case OPT_CONSUMER_MEM:
			ret = parse_consumer_mem(optarg, &o->consumer_mem);
			break;
		case OPT_IDLE:
			ret = parse_seconds(optarg, "idle", &o->idle);
			idle_given = true;
			if (ret == 0 && o->idle > MAX_IDLE) {
				fprintf(stderr, "%s: bad idle '%s' (at most %.0f s)\n", BENCH_PROG,
					optarg, MAX_IDLE);
				ret = -EINVAL;
			}
			break;
		case 'h':
		case OPT_HELP:
			bench_opts_usage();
			return 1;
		default:
			fprintf(stderr, "Try '%s --help'.\n", BENCH_PROG);
			return -EINVAL;
		}
	}
	if (ret < 0)
		return ret;

	if (optind < argc) {
		if (strcmp(argv[optind - 1], "--") != 0) {
			fprintf(stderr, "%s: unexpected argument '%s' (EAL arguments go after --)\n",
				BENCH_PROG, argv[optind]);
			return -EINVAL;
		}
		o->eal_argc = argc - optind;
		o->eal_argv = &argv[optind];
	}
	if (o->modes == 0) {
		/* The default suite: everything, briefly. */
		o->modes = (1u << bench_nb_modes) - 1;
		if (!duration_given)
			o->duration = SUITE_DURATION;
		if (!idle_given)
			o->idle = SUITE_IDLE;
	}
	/* Every comparison a user would make; unix-poll only tells how unix spends its time. */
	if (o->transports == 0)
		for (i = 0; i < BENCH_TR_MAX; i++)
			if (bench_transport_built(i) && i != BENCH_TR_UNIX_POLL)
				o->transports |= 1u << i;
	/* Said once, by whoever prints the table (not by the children of a run). */
	for (i = 0; i < o->nb_sizes && o->report_fd < 0; i++) {
		fits = 0;
		for (m = 0; m < bench_nb_modes; m++) {
			if ((o->modes & (1u << m)) == 0)
				continue;
			if (o->sizes[i] >= bench_modes[m]->min_size &&
			    o->sizes[i] <= bench_modes[m]->max_size)
				fits++;
			else
				fprintf(stderr, "%s: note: %s does not run at %" PRIu32 " bytes "
					"(%" PRIu32 " to %" PRIu32 ")\n", BENCH_PROG,
					bench_modes[m]->name, o->sizes[i],
					bench_modes[m]->min_size, bench_modes[m]->max_size);
		}
		if (fits == 0) {
			fprintf(stderr, "%s: no selected mode runs at %" PRIu32 " bytes\n",
				BENCH_PROG, o->sizes[i]);
			return -EINVAL;
		}
	}
	if (o->repeat > 1 && o->side != BENCH_SIDE_BOTH) {
		fprintf(stderr, "%s: --repeat runs both sides itself: not with --side\n",
			BENCH_PROG);
		return -EINVAL;
	}
	if (o->devargs != NULL && o->side == BENCH_SIDE_BOTH) {
		fprintf(stderr, "%s: --devargs needs --side (each side has its own device)\n",
			BENCH_PROG);
		return -EINVAL;
	}
	if (o->report_fd >= 0 && o->side == BENCH_SIDE_BOTH) {
		fprintf(stderr, "%s: --report-fd needs --side\n", BENCH_PROG);
		return -EINVAL;
	}
	if (o->side == BENCH_SIDE_BOTH && o->server_lcore == o->client_lcore)
		fprintf(stderr, "%s: warning: both sides on lcore %u: polling sides will "
			"share one CPU\n", BENCH_PROG, o->server_lcore);
	return 0;
}

/* Append a copy of "name" and of a formatted value to the argument vector. */
static int
push(char **argv, int *argc, int max, const char *s)
{
	if (*argc >= max - 1)
		return -ENOSPC;
	argv[*argc] = strdup(s);
	if (argv[*argc] == NULL)
		return -ENOMEM;
	(*argc)++;
	argv[*argc] = NULL;
	return 0;
}

static int
pushf(char **argv, int *argc, int max, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int
pushf(char **argv, int *argc, int max, const char *name, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int ret;

	ret = push(argv, argc, max, name);
	if (ret < 0)
		return ret;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return push(argv, argc, max, buf);
}

/* "8,32,128": a list option written back. */
static void
join_u32(char *buf, size_t len, const uint32_t *v, unsigned int nb)
{
	unsigned int i;
	size_t n = 0;

	buf[0] = '\0';
	for (i = 0; i < nb && n < len; i++)
		n += snprintf(buf + n, len - n, "%s%" PRIu32, i ? "," : "", v[i]);
}

/*
 * The argument vector a child side is executed with: the parsed options written
 * back canonically, so both children see exactly what the parent understood.
 * The CSV file and the watchdog stay with the parent.
 */
char **
bench_opts_child_argv(const struct bench_opts *o, const char *exe, enum bench_side side,
		      int report_fd)
{
	char modes[256] = "", transports[256] = "", sizes[256] = "";
	char bursts[256], buffers[256], rqs[256];
	int max = 56 + o->eal_argc, argc = 0, ret = 0, i;
	unsigned int m;
	char **argv;
	size_t len;

	argv = calloc(max, sizeof(*argv));
	if (argv == NULL)
		return NULL;
	for (m = 0; m < bench_nb_modes; m++)
		if (o->modes & (1u << m)) {
			len = strlen(modes);
			snprintf(modes + len, sizeof(modes) - len, "%s%s", len ? "," : "",
				 bench_modes[m]->name);
		}
	for (i = 0; i < BENCH_TR_MAX; i++)
		if (o->transports & (1u << i)) {
			len = strlen(transports);
			snprintf(transports + len, sizeof(transports) - len, "%s%s",
				 len ? "," : "", bench_transport_name(i));
		}
	for (m = 0; m < o->nb_sizes; m++) {
		len = strlen(sizes);
		snprintf(sizes + len, sizeof(sizes) - len, "%s%" PRIu32, len ? "," : "",
			 o->sizes[m]);
	}

	ret |= push(argv, &argc, max, exe);
	ret |= pushf(argv, &argc, max, "--side", "%s",
		     side == BENCH_SIDE_SERVER ? "server" : "client");
	ret |= pushf(argv, &argc, max, "--report-fd", "%d", report_fd);
	ret |= pushf(argv, &argc, max, "--dir", "%s", o->dir);
	ret |= pushf(argv, &argc, max, "--mode", "%s", modes);
	ret |= pushf(argv, &argc, max, "--transport", "%s", transports);
	/* Without --size, each mode runs at its own sizes: the children too. */
	if (o->nb_sizes != 0)
		ret |= pushf(argv, &argc, max, "--size", "%s", sizes);
	ret |= pushf(argv, &argc, max, "--iterations", "%" PRIu64, o->iterations);
	ret |= pushf(argv, &argc, max, "--warmup", "%" PRIu64, o->warmup);
	ret |= pushf(argv, &argc, max, "--duration", "%.17g", o->duration);
	join_u32(rqs, sizeof(rqs), o->recv_queues, o->nb_recv_queues);
	join_u32(bursts, sizeof(bursts), o->bursts, o->nb_bursts);
	join_u32(buffers, sizeof(buffers), o->buffers_list, o->nb_buffers);
	ret |= pushf(argv, &argc, max, "--recv-queue", "%s", rqs);
	ret |= pushf(argv, &argc, max, "--burst", "%s", bursts);
	if (o->nb_buffers != 0)
		ret |= pushf(argv, &argc, max, "--buffers", "%s", buffers);
	ret |= pushf(argv, &argc, max, "--clients", "%" PRIu32, o->clients);
	ret |= pushf(argv, &argc, max, "--producers", "%" PRIu32, o->producers);
	ret |= pushf(argv, &argc, max, "--consumers", "%" PRIu32, o->consumers);
	ret |= pushf(argv, &argc, max, "--idle", "%.17g", o->idle);
	ret |= pushf(argv, &argc, max, "--doorbell", "%s", o->doorbell);
	ret |= pushf(argv, &argc, max, "--consumer-mem", "%s",
		     bench_consumer_mem_name(o->consumer_mem));
	ret |= pushf(argv, &argc, max, "--server-lcore", "%u", o->server_lcore);
	ret |= pushf(argv, &argc, max, "--client-lcore", "%u", o->client_lcore);
	if (o->eal_argc > 0) {
		ret |= push(argv, &argc, max, "--");
		for (i = 0; i < o->eal_argc; i++)
			ret |= push(argv, &argc, max, o->eal_argv[i]);
	}
	if (ret != 0) {
		for (i = 0; i < argc; i++)
			free(argv[i]);
		free(argv);
		return NULL;
	}
	return argv;
}
