/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * What a fast-path message costs the mlx5 driver's own code, on the fake
 * verbs provider: CPU cycles per message of a send (post_burst excluded) and
 * of a completion (the producer's completed_burst and the consumer's
 * recv_burst), with the cycles spent inside the fake's calls taken out and
 * shown apart, so that a run on hardware (where the provider's post and poll
 * cost a few tens of cycles) can be compared. The library's burst calls are
 * included: they add a few tens of cycles of checks. Five runs; medians.
 *
 * Usage: bench_mlx5_fake [messages per run, default 200000]
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>

#include <rte_comch.h>

#include "mlx5_fake.h"

#define RUNS 5
#define BURST 32
#define SIZES 2

/* ------------------------------------------------------------------ the fake, timed */

static struct rte_comch_mlx5_glue timed;
static uint64_t fake_cycles;

#define TIMED(ret, call) do { \
	uint64_t t0_ = rte_rdtsc(); \
	ret = call; \
	fake_cycles += rte_rdtsc() - t0_; \
} while (0)

static int
t_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad)
{
	int r;

	TIMED(r, mlx5_fake_glue()->post_send(qp, wr, bad));
	return r;
}

static int
t_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad)
{
	int r;

	TIMED(r, mlx5_fake_glue()->post_recv(qp, wr, bad));
	return r;
}

static int
t_poll_cq(struct ibv_cq *cq, int n, struct ibv_wc *wc)
{
	int r;

	TIMED(r, mlx5_fake_glue()->poll_cq(cq, n, wc));
	return r;
}

/* ------------------------------------------------------------------ set-up */

static struct rte_comch_connection *srv_conn;
static uint32_t peer_consumer;

static void
die(const char *what, int err)
{
	fprintf(stderr, "bench_mlx5_fake: %s: %s\n", what, strerror(err < 0 ? -err : err));
	exit(1);
}

static void
send_cb(struct rte_comch_task_send *t, union rte_comch_data a, union rte_comch_data b)
{
	(void)a; (void)b;
	rte_comch_task_free(rte_comch_task_send_as_task(t));
}

static void
recv_cb(struct rte_comch_connection *conn, const uint8_t *msg, uint32_t len)
{
	(void)conn; (void)msg; (void)len;
}

static void
conn_cb(struct rte_comch_connection *conn, int status)
{
	if (status == 0)
		srv_conn = conn;
}

static void
new_cons_cb(struct rte_comch_connection *conn, uint32_t id)
{
	(void)conn;
	peer_consumer = id;
}

static void
no_cons_cb(struct rte_comch_connection *conn, uint32_t id)
{
	(void)conn; (void)id;
}

static bool
ctx_is(struct rte_comch_ctx *ctx, enum rte_comch_ctx_state want)
{
	enum rte_comch_ctx_state st;

	return rte_comch_ctx_get_state(ctx, &st) == 0 && st == want;
}

static struct rte_comch_mmap *
mmap_new(struct rte_comch_dev *dev, size_t len, void **addr)
{
	struct rte_comch_mmap *m = rte_comch_mmap_create();
	size_t got;

	if (m == NULL || rte_comch_mmap_add_dev(m, dev) < 0 ||
	    rte_comch_mmap_alloc_memrange(m, len) < 0 ||
	    rte_comch_mmap_set_permissions(m, RTE_COMCH_MMAP_PERM_LOCAL_READ_WRITE |
					   RTE_COMCH_MMAP_PERM_PCI_READ_WRITE) < 0 ||
	    rte_comch_mmap_get_memrange(m, addr, &got) < 0 || rte_comch_mmap_start(m) < 0)
		die("mmap", rte_errno != 0 ? rte_errno : EINVAL);
	return m;
}

struct run {
	uint64_t send, send_fake;       /* cycles per message */
	uint64_t cpl, cpl_fake;
};

/* n messages of len bytes, in bursts; cycles of each phase, and the fake's part. */
static void
run_once(struct rte_comch_pe *pe, struct rte_comch_producer *prod,
	 struct rte_comch_consumer *cons, struct rte_comch_mmap *tx, uint8_t *tx_mem,
	 uint8_t *rx_mem, uint32_t len, uint32_t n, struct run *r)
{
	struct rte_comch_fp_post posts[BURST];
	struct rte_comch_fp_cpl cpl[BURST];
	struct rte_comch_fp_msg msgs[BURST];
	uint64_t t, f, send = 0, send_f = 0, done = 0, done_f = 0;
	uint32_t i, k, sent = 0;
	int rc;

	for (i = 0; i < BURST; i++) {
		posts[i].addr = rx_mem + (size_t)i * 4096;
		posts[i].len = 4096;
		posts[i].cookie = i;
		msgs[i].data = tx_mem + (size_t)i * 4096;
		msgs[i].len = len;
		msgs[i].imm_len = 8;
		memset(msgs[i].imm, 0x5a, sizeof(msgs[i].imm));
	}
	while (sent < n) {
		if (rte_comch_consumer_post_burst(cons, posts, BURST) != BURST)
			die("post_burst", EIO);
		f = fake_cycles;
		t = rte_rdtsc();
		rc = rte_comch_producer_send_burst(prod, peer_consumer, tx, msgs, BURST);
		send += rte_rdtsc() - t;
		send_f += fake_cycles - f;
		if (rc != BURST)
			die("send_burst", rc < 0 ? rc : EIO);
		/* The consumer's completions, then the producer's: BURST of each. */
		for (i = 0, k = 0; i < 2; i++, k = 0) {
			while (k < BURST) {
				f = fake_cycles;
				t = rte_rdtsc();
				rc = i == 0 ? rte_comch_consumer_recv_burst(cons, cpl, BURST - k) :
				     rte_comch_producer_completed_burst(prod, NULL, BURST - k);
				done += rte_rdtsc() - t;
				done_f += fake_cycles - f;
				if (rc < 0)
					die(i == 0 ? "recv_burst" : "completed_burst", rc);
				k += rc;
			}
		}
		sent += BURST;
		if ((sent / BURST) % 64 == 0)
			rte_comch_pe_progress(pe); /* the connection's rounds, now and then */
	}
	r->send = send / n;
	r->send_fake = send_f / n;
	r->cpl = done / n;
	r->cpl_fake = done_f / n;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t
median(uint64_t *v)
{
	qsort(v, RUNS, sizeof(*v), cmp_u64);
	return v[RUNS / 2];
}

int
main(int argc, char **argv)
{
	char *eal[] = { argv[0], "--no-huge", "-m", "256", "--no-pci", "--no-telemetry",
			"-l", "0", "--file-prefix=bench_mlx5_fake", "--log-level=lib.eal:error",
			NULL };
	uint32_t n = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 0) : 200000;
	static const uint32_t lens[SIZES] = { 64, 4096 };
	uint64_t v[6][RUNS];
	struct rte_comch_consumer *cons;
	struct rte_comch_producer *prod;
	struct rte_comch_mmap *rxm, *txm;
	struct rte_comch_connection *cli_conn;
	struct rte_comch_dev *dpu, *host;
	struct rte_comch_dev_rep *rep;
	struct rte_comch_server *srv;
	struct rte_comch_client *cli;
	struct rte_comch_pe *pe;
	void *rx_mem, *tx_mem;
	struct run r;
	bool up = false;
	unsigned int s, i;

	if (n < BURST)
		n = BURST;
	n -= n % BURST;
	if (rte_eal_init(RTE_DIM(eal) - 1, eal) < 0)
		die("rte_eal_init", rte_errno);
	if (mlx5_fake_add_device("mlx5_0", 1) < 0 || mlx5_fake_add_addr("mlx5_0", 1, "10.0.0.1") ||
	    mlx5_fake_add_device("mlx5_1", 1) < 0 || mlx5_fake_add_addr("mlx5_1", 1, "10.0.0.2"))
		die("the fake's devices", EINVAL);
	timed = *mlx5_fake_glue();
	timed.name = "mlx5_fake (timed)";
	timed.post_send = t_post_send;
	timed.post_recv = t_post_recv;
	timed.poll_cq = t_poll_cq;
	if (rte_comch_mlx5_glue_set(&timed) < 0)
		die("glue", EINVAL);
	dpu = rte_comch_dev_open("mlx5:dev=mlx5_0,role=dpu,addr=10.0.0.1");
	host = rte_comch_dev_open("mlx5:dev=mlx5_1,role=host,addr=10.0.0.1");
	if (dpu == NULL || host == NULL)
		die("dev_open", rte_errno);
	rep = rte_comch_dev_rep_open(dpu, "pf0");
	pe = rte_comch_pe_create(RTE_COMCH_PE_LCORE_SELF);
	srv = rte_comch_server_create(dpu, rep, "bench");
	cli = rte_comch_client_create(host, "bench");
	if (rep == NULL || pe == NULL || srv == NULL || cli == NULL ||
	    rte_comch_server_task_send_set_conf(srv, send_cb, send_cb, 64) < 0 ||
	    rte_comch_client_task_send_set_conf(cli, send_cb, send_cb, 64) < 0 ||
	    rte_comch_server_event_msg_recv_register(srv, recv_cb) < 0 ||
	    rte_comch_client_event_msg_recv_register(cli, recv_cb) < 0 ||
	    rte_comch_server_event_connection_status_changed_register(srv, conn_cb, conn_cb) < 0 ||
	    rte_comch_client_event_consumer_register(cli, new_cons_cb, no_cons_cb) < 0 ||
	    rte_comch_pe_connect_ctx(pe, rte_comch_server_as_ctx(srv)) < 0 ||
	    rte_comch_pe_connect_ctx(pe, rte_comch_client_as_ctx(cli)) < 0 ||
	    rte_comch_ctx_start(rte_comch_server_as_ctx(srv)) < 0)
		die("server and client", rte_errno);
	rte_comch_ctx_start(rte_comch_client_as_ctx(cli));
	while (!up) {
		rte_comch_pe_progress(pe);
		up = srv_conn != NULL && ctx_is(rte_comch_client_as_ctx(cli),
						 RTE_COMCH_CTX_STATE_RUNNING);
	}
	if (rte_comch_client_get_connection(cli, &cli_conn) < 0)
		die("client connection", EINVAL);
	rxm = mmap_new(dpu, BURST * 4096, &rx_mem);
	txm = mmap_new(host, BURST * 4096, &tx_mem);
	cons = rte_comch_consumer_create(srv_conn, rxm);
	prod = rte_comch_producer_create(cli_conn);
	if (cons == NULL || prod == NULL || rte_comch_consumer_set_imm_data_len(cons, 8) < 0 ||
	    rte_comch_consumer_burst_enable(cons, BURST) < 0 ||
	    rte_comch_producer_burst_enable(prod) < 0 ||
	    rte_comch_pe_connect_ctx(pe, rte_comch_consumer_as_ctx(cons)) < 0 ||
	    rte_comch_pe_connect_ctx(pe, rte_comch_producer_as_ctx(prod)) < 0 ||
	    rte_comch_ctx_start(rte_comch_producer_as_ctx(prod)) < 0)
		die("consumer and producer", rte_errno);
	rte_comch_ctx_start(rte_comch_consumer_as_ctx(cons));
	up = false;
	while (!up) {
		rte_comch_pe_progress(pe);
		up = peer_consumer != 0 && ctx_is(rte_comch_consumer_as_ctx(cons),
						   RTE_COMCH_CTX_STATE_RUNNING);
	}
	printf("# mlx5 driver on the fake verbs provider: %" PRIu32 " messages a run, bursts of "
	       "%d, median of %d runs, CPU cycles per message (TSC %" PRIu64 " Hz)\n", n, BURST,
	       RUNS, rte_get_tsc_hz());
	printf("%-6s %12s %12s %12s %12s %12s %12s\n", "bytes", "send", "send:fake",
	       "send:driver", "cpl", "cpl:fake", "cpl:driver");
	for (s = 0; s < SIZES; s++) {
		run_once(pe, prod, cons, txm, tx_mem, rx_mem, lens[s], n / 10, &r); /* warm-up */
		for (i = 0; i < RUNS; i++) {
			run_once(pe, prod, cons, txm, tx_mem, rx_mem, lens[s], n, &r);
			v[0][i] = r.send;
			v[1][i] = r.send_fake;
			v[2][i] = r.send - r.send_fake;
			v[3][i] = r.cpl;
			v[4][i] = r.cpl_fake;
			v[5][i] = r.cpl - r.cpl_fake;
		}
		/* Each column's own median (the driver's: of its differences, run by run). */
		printf("%-6" PRIu32, lens[s]);
		for (i = 0; i < 6; i++)
			printf(" %12" PRIu64, median(v[i]));
		printf("\n");
	}
	return 0;
}
