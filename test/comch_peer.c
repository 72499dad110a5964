/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * comch_peer: one side of the multi-process tests, in its own process with its
 * own EAL. As a server it checks every message byte for byte (per connection:
 * one sender id, sequence numbers without gap or duplicate) and, unless told
 * otherwise, echoes it back. As a client process it runs N clients on one host
 * device, each sending K messages of S bytes and checking every echo.
 * It prints "READY", "CONNECTED n", "DISCONNECT ..." and finally one
 * "SUMMARY key=value ..." line; the exit code is 0 only if nothing was lost
 * or corrupted (see usage()). The server side is in comch_peer_server.c.
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>

#include <rte_comch.h>

#include "comch_peer.h"
#include "comch_test_msg.h"

struct peer_opts opt = {
	.rep = "pf0", .fn = "pf0", .clients = 1, .msgs = 100, .size = 64, .window = 16,
	.timeout_ms = 60000, .connect_timeout_ms = 5000, .log = "lib.comch:notice",
	.producers = 2, .consumers = 2, .slots = 4, .sizes = "64",
};

volatile sig_atomic_t stop_signal;
struct rte_comch_pe *pe;
uint64_t t_end;

uint64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void
on_signal(int sig)
{
	stop_signal = sig;
}

/* One round of progress; sleep on the notification fd when idle. */
void
poll_once(bool idle)
{
	static unsigned int quiet;
	struct pollfd pfd = { .events = POLLIN };
	int ret = rte_comch_pe_progress(pe);

	if (ret < 0) {
		printf("ERROR progress %d\n", ret);
		exit(EXIT_CHECK);
	}
	quiet = (ret == 0 && idle) ? quiet + 1 : 0;
	if (opt.busy || quiet < 64)
		return;
	if (rte_comch_pe_get_notification_fd(pe, &pfd.fd) != 0)
		return;
	if (rte_comch_pe_request_notification(pe) == 0) {
		poll(&pfd, 1, 1);
		rte_comch_pe_clear_notification(pe);
	}
	quiet = 0;
}

/* ------------------------------------------------------------------ client */

struct cli {
	struct rte_comch_client *client;
	struct rte_comch_ctx *ctx;
	struct rte_comch_connection *conn;
	uint32_t id;
	uint32_t sent, acked, echoed;
	bool connected, stopping, done, dropped;
	int last_error;
	uint8_t *bufs; /* window slots of size opt.size */
};

static struct {
	struct cli *c;
	uint32_t nb_connected, nb_done, nb_dropped, bad, task_reset, task_other;
	uint64_t again, sent, recv, acked;
} C;

static void
cli_task_cb(struct rte_comch_task_send *task, union rte_comch_data tud, union rte_comch_data cud)
{
	struct cli *c = cud.ptr;
	int st = rte_comch_task_get_status(rte_comch_task_send_as_task(task));

	if (st == 0) {
		c->acked++;
		C.acked++;
	}
	else if (st == -ECONNRESET)
		C.task_reset++;
	else
		C.task_other++;
	rte_comch_task_free(rte_comch_task_send_as_task(task));
}

static void
cli_recv(struct rte_comch_connection *conn, const uint8_t *msg, uint32_t len)
{
	union rte_comch_data ud;
	struct cli *c;
	uint32_t id, seq;

	rte_comch_ctx_get_user_data(rte_comch_connection_get_ctx(conn), &ud);
	c = ud.ptr;
	C.recv++;
	if (opt.no_echo || ct_msg_check(msg, len, &id, &seq) != 0 || id != c->id ||
	    seq != c->echoed || len != opt.size) {
		if (C.bad++ < 10)
			printf("BAD echo on client %u len=%u\n", c->id, len);
		return;
	}
	c->echoed++;
}

static void
cli_state(union rte_comch_data ud, struct rte_comch_ctx *ctx, enum rte_comch_ctx_state prev,
	  enum rte_comch_ctx_state next)
{
	struct cli *c = ud.ptr;

	if (next == RTE_COMCH_CTX_STATE_RUNNING) {
		c->connected = true;
		rte_comch_client_get_connection(c->client, &c->conn);
		if (++C.nb_connected == opt.clients)
			printf("CONNECTED %u\n", C.nb_connected);
	} else if (next == RTE_COMCH_CTX_STATE_IDLE && !c->done) {
		c->done = true;
		C.nb_done++;
		c->last_error = rte_comch_ctx_get_last_error(ctx);
		if (!c->stopping) {
			c->dropped = true;
			C.nb_dropped++;
			printf("DROPPED id=%u last_error=%d connected=%d\n", c->id,
			       c->last_error, c->connected);
		}
	}
}

/* Send what the window allows; stop the client once everything came back. */
static bool
cli_work(struct cli *c)
{
	struct rte_comch_task_send *t;
	uint32_t goal = opt.forever ? UINT32_MAX : opt.msgs;
	uint32_t back = opt.no_echo ? c->acked : c->echoed;
	bool work = false;
	uint8_t *buf;
	int ret;

	if (!c->connected || c->done || c->stopping)
		return false;
	if ((back == goal && c->acked == c->sent) || (stop_signal != 0 && c->acked == c->sent)) {
		c->stopping = true;
		ret = rte_comch_ctx_stop(c->ctx);
		if (ret != 0 && ret != -EINPROGRESS)
			printf("ERROR stop %d\n", ret);
		return true;
	}
	while (stop_signal == 0 && c->sent < goal && c->sent - back < opt.window &&
	       c->sent - c->acked < opt.window) {
		buf = c->bufs + (size_t)(c->sent % opt.window) * opt.size;
		ct_msg_fill(buf, opt.size, c->id, c->sent);
		ret = rte_comch_client_task_send_alloc_init(c->client, c->conn, buf, opt.size, &t);
		if (ret != 0)
			break;
		ret = rte_comch_task_submit(rte_comch_task_send_as_task(t));
		if (ret != 0) {
			rte_comch_task_free(rte_comch_task_send_as_task(t));
			if (ret == -EAGAIN)
				C.again++;
			break;
		}
		c->sent++;
		C.sent++;
		work = true;
	}
	return work;
}

/* Stop (bounded) and destroy every client, so that nothing is left behind. */
static void
clients_release(void)
{
	enum rte_comch_ctx_state st;
	uint64_t end = now_ms() + 3000;
	uint32_t i, busy;

	for (i = 0; i < opt.clients; i++) {
		if (C.c[i].ctx != NULL && rte_comch_ctx_get_state(C.c[i].ctx, &st) == 0 &&
		    (st == RTE_COMCH_CTX_STATE_RUNNING || st == RTE_COMCH_CTX_STATE_STARTING))
			rte_comch_ctx_stop(C.c[i].ctx);
	}
	do {
		busy = 0;
		rte_comch_pe_progress(pe);
		for (i = 0; i < opt.clients; i++)
			if (C.c[i].ctx != NULL && rte_comch_ctx_get_state(C.c[i].ctx, &st) == 0 &&
			    st != RTE_COMCH_CTX_STATE_IDLE)
				busy++;
	} while (busy != 0 && now_ms() < end);
	for (i = 0; i < opt.clients; i++) {
		if (C.c[i].client != NULL)
			rte_comch_client_destroy(C.c[i].client);
		free(C.c[i].bufs);
	}
	free(C.c);
}

static int
run_clients(struct rte_comch_dev *dev)
{
	union rte_comch_data ud;
	bool timeout = false, work;
	uint32_t i;
	int ret;

	C.c = calloc(opt.clients, sizeof(*C.c));
	if (C.c == NULL)
		return EXIT_SETUP;
	for (i = 0; i < opt.clients; i++) {
		struct cli *c = &C.c[i];

		c->id = opt.id_base + i;
		c->bufs = malloc((size_t)opt.window * opt.size);
		c->client = rte_comch_client_create(dev, opt.name);
		if (c->bufs == NULL || c->client == NULL)
			return EXIT_SETUP;
		c->ctx = rte_comch_client_as_ctx(c->client);
		ud.ptr = c;
		if (rte_comch_ctx_set_user_data(c->ctx, ud) != 0 ||
		    rte_comch_ctx_set_state_changed_cb(c->ctx, cli_state) != 0 ||
		    rte_comch_client_task_send_set_conf(c->client, cli_task_cb, cli_task_cb,
							opt.window + 1) != 0 ||
		    rte_comch_client_event_msg_recv_register(c->client, cli_recv) != 0 ||
		    rte_comch_client_set_connect_timeout(c->client, opt.connect_timeout_ms) != 0 ||
		    (opt.msg_size != 0 &&
		     rte_comch_client_set_max_msg_size(c->client, opt.msg_size) != 0) ||
		    (opt.rq != 0 && rte_comch_client_set_recv_queue_size(c->client, opt.rq) != 0) ||
		    rte_comch_pe_connect_ctx(pe, c->ctx) != 0) {
			printf("ERROR client setup\n");
			return EXIT_SETUP;
		}
		ret = rte_comch_ctx_start(c->ctx);
		if (ret != -EINPROGRESS) {
			printf("ERROR client start %d\n", ret);
			return EXIT_SETUP;
		}
	}
	while (C.nb_done < opt.clients) {
		work = false;
		for (i = 0; i < opt.clients; i++)
			work |= cli_work(&C.c[i]);
		poll_once(!work);
		if (now_ms() > t_end) {
			timeout = true;
			break;
		}
	}
	printf("SUMMARY role=client clients=%u connected=%u done=%u dropped=%u sent=%" PRIu64
	       " acked=%" PRIu64 " recv=%" PRIu64 " bad=%u again=%" PRIu64 " task_reset=%u"
	       " task_other=%u last_error=%d timeout=%d\n", opt.clients, C.nb_connected,
	       C.nb_done, C.nb_dropped, C.sent, C.acked, C.recv, C.bad, C.again, C.task_reset,
	       C.task_other,
	       opt.clients > 0 ? C.c[0].last_error : 0, timeout);
	ret = EXIT_OK;
	for (i = 0; i < opt.clients; i++) {
		struct cli *c = &C.c[i];

		if (opt.expect_drop) {
			if (!c->dropped || c->last_error != -ECONNRESET)
				ret = EXIT_CHECK;
		} else if (c->dropped || c->last_error != 0 ||
			   (!opt.forever && (opt.no_echo ? c->acked : c->echoed) != opt.msgs)) {
			ret = EXIT_CHECK;
		}
	}
	if (C.bad != 0 || C.task_other != 0)
		ret = EXIT_CHECK;
	if (timeout)
		ret = EXIT_TIMEOUT;
	clients_release();
	return ret;
}

/* ------------------------------------------------------------------ main */

static void
usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s --prefix P --domain D --dir DIR --name N (--server | --client)\n"
		"  server: [--rep R] [--expect-conns C] [--slow-us U]\n"
		"  client: [--fn F] [--clients N] [--id-base B] [--msgs K] [--size S]\n"
		"          [--window W] [--forever] [--expect-drop] [--connect-timeout MS]\n"
		"  both:   [--recv-queue Q] [--msg-size M] [--msgs K] [--no-echo]\n"
		"          [--timeout MS] [--busy] [--log TYPE:LEVEL]\n"
		"  fast path (one connection, both sides): --fast [--producers P]\n"
		"          [--consumers C] [--slots S] [--sizes a,b,..] [--imm L] [--msgs K]\n"
		"          [--window W] [--forever] [--expect-drop] [--user-mem]\n"
		"exit: 0 ok, 1 lost/corrupt/unexpected, 2 usage, 3 timeout, 4 setup failed\n",
		prog);
	exit(EXIT_USAGE);
}

static void
parse_args(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "server", no_argument, NULL, 'S' }, { "client", no_argument, NULL, 'C' },
		{ "prefix", required_argument, NULL, 'p' }, { "domain", required_argument, NULL, 'd' },
		{ "dir", required_argument, NULL, 'D' }, { "name", required_argument, NULL, 'n' },
		{ "rep", required_argument, NULL, 'r' }, { "fn", required_argument, NULL, 'f' },
		{ "clients", required_argument, NULL, 'c' }, { "id-base", required_argument, NULL, 'b' },
		{ "msgs", required_argument, NULL, 'k' }, { "size", required_argument, NULL, 's' },
		{ "window", required_argument, NULL, 'w' }, { "recv-queue", required_argument, NULL, 'q' },
		{ "msg-size", required_argument, NULL, 'm' }, { "slow-us", required_argument, NULL, 'u' },
		{ "expect-conns", required_argument, NULL, 'e' }, { "timeout", required_argument, NULL, 't' },
		{ "connect-timeout", required_argument, NULL, 'T' }, { "no-echo", no_argument, NULL, 'N' },
		{ "forever", no_argument, NULL, 'F' }, { "expect-drop", no_argument, NULL, 'X' },
		{ "busy", no_argument, NULL, 'B' }, { "log", required_argument, NULL, 'l' },
		{ "fast", no_argument, NULL, 'Z' }, { "producers", required_argument, NULL, 'P' },
		{ "consumers", required_argument, NULL, 'U' }, { "slots", required_argument, NULL, 'L' },
		{ "imm", required_argument, NULL, 'I' }, { "sizes", required_argument, NULL, 'z' },
		{ "user-mem", no_argument, NULL, 'M' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (c) {
		case 'S': opt.server = true; break;
		case 'C': opt.server = false; break;
		case 'p': opt.prefix = optarg; break;
		case 'd': opt.domain = optarg; break;
		case 'D': opt.dir = optarg; break;
		case 'n': opt.name = optarg; break;
		case 'r': opt.rep = optarg; break;
		case 'f': opt.fn = optarg; break;
		case 'c': opt.clients = atoi(optarg); break;
		case 'b': opt.id_base = atoi(optarg); break;
		case 'k': opt.msgs = atoi(optarg); opt.msgs_set = true; break;
		case 's': opt.size = atoi(optarg); break;
		case 'w': opt.window = atoi(optarg); break;
		case 'q': opt.rq = atoi(optarg); break;
		case 'm': opt.msg_size = atoi(optarg); break;
		case 'u': opt.slow_us = atoi(optarg); break;
		case 'e': opt.expect_conns = atoi(optarg); break;
		case 't': opt.timeout_ms = atoi(optarg); break;
		case 'T': opt.connect_timeout_ms = atoi(optarg); break;
		case 'N': opt.no_echo = true; break;
		case 'F': opt.forever = true; break;
		case 'X': opt.expect_drop = true; break;
		case 'B': opt.busy = true; break;
		case 'l': opt.log = optarg; break;
		case 'Z': opt.fast = true; break;
		case 'P': opt.producers = atoi(optarg); break;
		case 'U': opt.consumers = atoi(optarg); break;
		case 'L': opt.slots = atoi(optarg); break;
		case 'I': opt.imm = atoi(optarg); break;
		case 'z': opt.sizes = optarg; break;
		case 'M': opt.user_mem = true; break;
		default: usage(argv[0]);
		}
	}
	if (opt.prefix == NULL || opt.domain == NULL || opt.dir == NULL || opt.name == NULL ||
	    opt.size < CT_MSG_MIN_LEN || opt.window == 0)
		usage(argv[0]);
}

int
main(int argc, char **argv)
{
	char pfx[128], logl[128], devargs[512];
	char *eal[] = { argv[0], (char *)"--no-huge", (char *)"-m", (char *)"256",
			(char *)"--no-pci", (char *)"--no-telemetry", pfx,
			(char *)"--lcores=0@(0,1)", logl, NULL };
	struct rte_comch_dev *dev;
	int ret;

	setvbuf(stdout, NULL, _IOLBF, 0);
	parse_args(argc, argv);
	snprintf(pfx, sizeof(pfx), "--file-prefix=%s", opt.prefix);
	snprintf(logl, sizeof(logl), "--log-level=%s", opt.log);
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	if (rte_eal_init(RTE_DIM(eal) - 1, eal) < 0) {
		printf("ERROR rte_eal_init: %s\n", rte_strerror(rte_errno));
		return EXIT_SETUP;
	}
	if (opt.server)
		snprintf(devargs, sizeof(devargs), "shm:domain=%s,role=dpu,rep=%s,dir=%s",
			 opt.domain, opt.rep, opt.dir);
	else
		snprintf(devargs, sizeof(devargs), "shm:domain=%s,role=host,fn=%s,dir=%s",
			 opt.domain, opt.fn, opt.dir);
	dev = rte_comch_dev_open(devargs);
	pe = rte_comch_pe_create(RTE_COMCH_PE_LCORE_SELF);
	if (dev == NULL || pe == NULL) {
		printf("ERROR open %s: rte_errno=%d\n", devargs, rte_errno);
		return EXIT_SETUP;
	}
	t_end = now_ms() + opt.timeout_ms;
	if (opt.fast)
		ret = run_fast(dev);
	else
		ret = opt.server ? run_server(dev) : run_clients(dev);
	if (rte_comch_pe_destroy(pe) != 0 || rte_comch_dev_close(dev) != 0) {
		printf("ERROR teardown\n");
		if (ret == EXIT_OK)
			ret = EXIT_CHECK;
	}
	rte_eal_cleanup();
	printf("EXIT %d\n", ret);
	return ret;
}
