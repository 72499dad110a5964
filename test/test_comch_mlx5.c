/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The mlx5 driver's own behaviour, on the fake verbs provider
 * (test/mlx5_fake): devargs and what each bad one says; probe without any
 * device, and with the real rdma-core on a machine without one; the listing;
 * and faults of the fabric: a peer dropped mid-stream (every task ends
 * exactly once, nothing reported delivered is lost), a QP moved to error, a
 * registration that fails, a completion event lost (what bounds the sleep),
 * a CQ overrun, peers that lie in a completion record, a post or a credit
 * (-EPROTO, dropped), and floods that never meet an RNR.
 *
 * Each case ends with the fabric checked (no misuse, nothing leaked) and set
 * up anew by the harness's hook.
 */

#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_log.h>

#include "comch_test_common.h"
#include "mlx5_fake.h"
#include "mlx5_internal.h"

#define DPU_IP "10.0.0.1"
#define WAIT_MS 2000

/* ------------------------------------------------------------------ helpers */

/* The fabric after a case: no misuse, nothing left; then the harness's again. */
static void
fabric_done(void)
{
	struct mlx5_fake_counters c;

	mlx5_fake_get_counters(&c);
	assert_int_equal(c.misuse, 0);
	assert_int_equal(mlx5_fake_reset(), 0);
	assert_int_equal(rte_comch_mlx5_glue_set(mlx5_fake_glue()), 0);
	assert_int_equal(ct_driver_desc()->setup(), 0);
}

/* After any case, passed or failed: a fabric as the harness sets it up. */
static int
fabric_teardown(void **state)
{
	(void)state;
	mlx5_fake_reset();
	rte_comch_mlx5_glue_set(mlx5_fake_glue());
	return ct_driver_desc()->setup();
}

static struct mlx5_fake_counters
counters(void)
{
	struct mlx5_fake_counters c;

	mlx5_fake_get_counters(&c);
	return c;
}

/* What the library and the driver log, while captured. */
static char log_buf[16384];
static FILE *log_file;

static void
log_capture(void)
{
	memset(log_buf, 0, sizeof(log_buf));
	log_file = fmemopen(log_buf, sizeof(log_buf) - 1, "w");
	assert_non_null(log_file);
	setvbuf(log_file, NULL, _IONBF, 0);
	rte_openlog_stream(log_file);
}

static void
log_release(void)
{
	rte_openlog_stream(NULL);
	fclose(log_file);
	log_file = NULL;
}

/* Opening devargs fails with err, and the log says why with word in it. */
static void
refused(const char *devargs, int err, const char *word)
{
	struct rte_comch_dev *dev;

	log_capture();
	dev = rte_comch_dev_open(devargs);
	log_release();
	if (dev != NULL)
		fail_msg("%s: opened", devargs);
	if (rte_errno != err)
		fail_msg("%s: rte_errno %d, expected %d", devargs, rte_errno, err);
	if (strstr(log_buf, word) == NULL)
		fail_msg("%s: the log does not say \"%s\":\n%s", devargs, word, log_buf);
}

/* ------------------------------------------------------------------ a lying glue */

/*
 * The fake's table with a few calls wrapped: CQs made shallower than asked
 * (an overrun), and SENDs changed on their way (a peer that lies). Installed
 * before the devices of a case open: they keep the table they opened with.
 */
static struct rte_comch_mlx5_glue wrap;
static struct {
	int cq_max;          /* > 0: CQs with a completion channel at most that deep */
	bool lie_record;     /* the next completion record claims more than its buffer */
	bool lie_post;       /* the next post names memory outside the consumer's */
	bool lie_credit;     /* the next user message returns credits never taken */
	unsigned int fail_inline_qps; /* QPs asked with inline data (imports') to refuse */
	unsigned int lies;
	bool run_at_host_arm;         /* delay mode: the fabric runs when the host arms a CQ */
	unsigned int host_arm_runs;
	struct ibv_qp *cons_qp[64]; /* QPs made without inline data: consumers' */
	unsigned int nb_cons_qp;
	struct mlx5_record rec;
} W;

static struct ibv_cq *
wrap_create_cq(struct ibv_context *ctx, int cqe, void *cq_ctx, struct ibv_comp_channel *ch,
	       int vec)
{
	if (W.cq_max > 0 && ch != NULL && cqe > W.cq_max)
		cqe = W.cq_max;
	return mlx5_fake_glue()->create_cq(ctx, cqe, cq_ctx, ch, vec);
}

static struct ibv_qp *
wrap_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *attr)
{
	struct ibv_qp *qp;

	if (W.fail_inline_qps > 0 && attr->cap.max_inline_data > 0) {
		W.fail_inline_qps--;
		errno = ENOMEM;
		return NULL;
	}
	qp = mlx5_fake_glue()->create_qp(pd, attr);
	if (qp != NULL && attr->cap.max_inline_data == 0 && W.nb_cons_qp < RTE_DIM(W.cons_qp))
		W.cons_qp[W.nb_cons_qp++] = qp;
	return qp;
}

static bool
is_cons_qp(const struct ibv_qp *qp)
{
	unsigned int i;

	for (i = 0; i < W.nb_cons_qp; i++)
		if (W.cons_qp[i] == qp)
			return true;
	return false;
}

static int
wrap_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad)
{
	struct ibv_send_wr *w;

	for (w = wr; w != NULL; w = w->next) {
		if (w->opcode != IBV_WR_SEND || w->num_sge != 1)
			continue;
		if (W.lie_record && (w->send_flags & IBV_SEND_INLINE) &&
		    w->sg_list[0].length == sizeof(W.rec)) {
			/* A record saying the message is longer than the buffer it filled. */
			memcpy(&W.rec, (void *)(uintptr_t)w->sg_list[0].addr, sizeof(W.rec));
			W.rec.len = 0x7fffffff;
			w->sg_list[0].addr = (uintptr_t)&W.rec;
			W.lie_record = false;
			W.lies++;
		} else if (W.lie_post && is_cons_qp(qp)) {
			/* A post of a buffer below the consumer's memory. */
			struct mlx5_post_msg *m = (void *)(uintptr_t)w->sg_list[0].addr;

			m->e[0].addr = 4096;
			W.lie_post = false;
			W.lies++;
		} else if (W.lie_credit && !is_cons_qp(qp) &&
			   w->sg_list[0].length >= sizeof(struct mlx5_hdr) &&
			   ((struct mlx5_hdr *)(uintptr_t)w->sg_list[0].addr)->type ==
			   MLX5_MSG_USER) {
			/*
			 * Credits back for a thousand control messages more than
			 * were sent (the library knows nothing of those: only the
			 * driver can tell the lie).
			 */
			((struct mlx5_hdr *)(uintptr_t)w->sg_list[0].addr)->other_back += 1000;
			W.lie_credit = false;
			W.lies++;
		}
	}
	return mlx5_fake_glue()->post_send(qp, wr, bad);
}

static int
wrap_req_notify_cq(struct ibv_cq *cq, int solicited_only)
{
	const struct rte_comch_mlx5_glue *g = mlx5_fake_glue();
	int rc = g->req_notify_cq(cq, solicited_only);

	if (W.run_at_host_arm && strcmp(g->get_device_name(cq->context->device), "mlx5_1") == 0)
		W.host_arm_runs += mlx5_fake_progress(0) != 0;
	return rc;
}

static void
wrap_install(void)
{
	memset(&W, 0, sizeof(W));
	wrap = *mlx5_fake_glue();
	wrap.name = "mlx5_fake (lying)";
	wrap.create_cq = wrap_create_cq;
	wrap.create_qp = wrap_create_qp;
	wrap.post_send = wrap_post_send;
	wrap.req_notify_cq = wrap_req_notify_cq;
	assert_int_equal(rte_comch_mlx5_glue_set(&wrap), 0);
}

/* ------------------------------------------------------------------ devices */

static void
test_devargs(void **state)
{
	char name[128], args[512];
	struct rte_comch_dev *dev, *dev2;
	size_t i;

	(void)state;
	refused("mlx5:role=dpu,addr=" DPU_IP, EINVAL, "dev is required");
	refused("mlx5:dev=mlx5_0,addr=" DPU_IP, EINVAL, "role is required");
	refused("mlx5:dev=mlx5_0,role=dpu", EINVAL, "addr is required");
	refused("mlx5:dev=mlx5_0,role=bf,addr=" DPU_IP, EINVAL, "role=bf");
	refused("mlx5:dev=mlx5_0,role=dpu,addr=10.0.0", EINVAL, "addr=10.0.0");
	refused("mlx5:dev=mlx5_0,role=dpu,addr=bluefield", EINVAL, "addr=bluefield");
	refused("mlx5:dev=mlx5_0,role=dpu,addr=" DPU_IP ",port=0", EINVAL, "port=0");
	refused("mlx5:dev=mlx5_0,role=dpu,addr=" DPU_IP ",port=65536", EINVAL, "port=65536");
	refused("mlx5:dev=mlx5_0,role=dpu,addr=" DPU_IP ",port=18a", EINVAL, "port=18a");
	refused("mlx5:dev=mlx5_0,role=dpu,addr=" DPU_IP ",port=-1", EINVAL, "port=-1");
	refused("mlx5:dev=mlx5_0,role=dpu,addr=" DPU_IP ",ib_port=0", EINVAL, "ib_port=0");
	refused("mlx5:dev=mlx5_0,role=dpu,addr=" DPU_IP ",ib_port=256", EINVAL, "ib_port=256");
	refused("mlx5:dev=mlx5_1,role=host,addr=" DPU_IP ",rep=pf0", EINVAL, "rep=");
	refused("mlx5:dev=mlx5_0,role=dpu,addr=" DPU_IP ",fn=pf0", EINVAL, "fn=");
	refused("mlx5:dev=mlx5_0,role=dpu,addr=" DPU_IP ",port=1,port=2", EINVAL,
		"port given twice");
	refused("mlx5:dev=mlx5_0,role=dpu,addr=" DPU_IP ",colour=blue", EINVAL, "colour");
	memset(name, 'x', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	snprintf(args, sizeof(args), "mlx5:dev=%s,role=dpu,addr=" DPU_IP, name);
	refused(args, EINVAL, "dev=");
	snprintf(args, sizeof(args), "mlx5:dev=mlx5_0,role=dpu,addr=" DPU_IP ",rep=%.40s", name);
	refused(args, EINVAL, "rep=");
	snprintf(args, sizeof(args), "mlx5:dev=mlx5_0,role=dpu,addr=" DPU_IP);
	for (i = 0; i < 17; i++)
		strcat(args, ",rep=r");
	refused(args, EINVAL, "more than 16 representors");
	/* rdma-core's side: no such device (and which there are), port, address */
	refused("mlx5:dev=mlx5_7,role=dpu,addr=" DPU_IP, ENODEV, "mlx5_0, mlx5_1");
	refused("mlx5:dev=mlx5_0,role=dpu,addr=" DPU_IP ",ib_port=2", EINVAL, "has 1 port");
	refused("mlx5:dev=mlx5_0,role=dpu,addr=10.0.0.2", EINVAL, "belongs to RDMA device mlx5_1");
	refused("mlx5:dev=mlx5_0,role=dpu,addr=10.9.9.9", EADDRNOTAVAIL, "no RDMA device has");
	assert_int_equal(mlx5_fake_drop_device("mlx5_0", true), 0);
	refused("mlx5:dev=mlx5_0,role=dpu,addr=" DPU_IP, ENETDOWN, "port 1 is DOWN");
	assert_int_equal(mlx5_fake_restore_device("mlx5_0"), 0);

	/* What works: IPv4, IPv6; a port taken by a live device is refused. */
	dev = rte_comch_dev_open("mlx5:dev=mlx5_0,role=dpu,addr=" DPU_IP ",port=4791,rep=pf1");
	assert_non_null(dev);
	refused("mlx5:dev=mlx5_0,role=dpu,addr=" DPU_IP ",port=4791", EADDRINUSE, "port=");
	assert_int_equal(mlx5_fake_add_addr("mlx5_0", 1, "fd00::1"), 0);
	dev2 = rte_comch_dev_open("mlx5:dev=mlx5_0,role=dpu,addr=fd00::1,port=4791");
	assert_non_null(dev2);
	assert_int_equal(rte_comch_dev_close(dev2), 0);
	assert_int_equal(rte_comch_dev_close(dev), 0);
	dev = rte_comch_dev_open("mlx5:dev=mlx5_1,role=host,addr=fd00::1,fn=pf3,ib_port=1");
	assert_non_null(dev);
	assert_int_equal(rte_comch_dev_close(dev), 0);
	fabric_done();
}

/* No device at all: -ENODEV, saying what to do, and nothing left behind. */
static void
test_probe_no_device(void **state)
{
	int fds;

	(void)state;
	assert_int_equal(mlx5_fake_reset(), 0);
	fds = ct_count_fds();
	refused("mlx5:dev=mlx5_0,role=host,addr=" DPU_IP, ENODEV, "no RDMA device");
	refused("mlx5:dev=mlx5_0,role=dpu,addr=" DPU_IP, ENODEV,
		"rdma link add rxe0 type rxe netdev");
	assert_int_equal(ct_count_fds(), fds);
	fabric_done();
}

/*
 * The real rdma-core, on a machine without an RDMA device (this one): probe
 * fails cleanly, says so, and keeps no descriptor nor memory. (With a device,
 * the name asked for does not exist: -ENODEV all the same.)
 */
static void
test_probe_real_rdma_core(void **state)
{
	const char *devargs = "mlx5:dev=comch_no_such_dev,role=host,addr=192.0.2.1";
	struct mallinfo2 m0, m1;
	int fds;

	(void)state;
	assert_int_equal(rte_comch_mlx5_glue_set(NULL), 0);
	/* The first call lets rdma-core set up what it keeps for the process. */
	refused(devargs, ENODEV, "no RDMA device");
	fds = ct_count_fds();
	m0 = mallinfo2();
	refused(devargs, ENODEV, "no RDMA device");
	refused(devargs, ENODEV, "no RDMA device");
	m1 = mallinfo2();
	assert_int_equal(ct_count_fds(), fds);
	/* the log lines the capture allocated are the only difference */
	assert_true(m1.uordblks < m0.uordblks + 4096);
	fabric_done();
}

/* Every port of every verbs device, with the devargs that open it. */
static void
test_list(void **state)
{
	struct rte_comch_dev_desc descs[16];
	bool found[2] = { false, false };
	int i, n;

	(void)state;
	n = rte_comch_dev_list(descs, RTE_DIM(descs));
	assert_true(n >= 2 && n <= (int)RTE_DIM(descs));
	for (i = 0; i < n; i++) {
		if (strcmp(descs[i].driver, "mlx5") != 0)
			continue;
		if (strcmp(descs[i].devargs, "mlx5:dev=mlx5_0,ib_port=1") == 0)
			found[0] = true;
		if (strcmp(descs[i].devargs, "mlx5:dev=mlx5_1,ib_port=1") == 0)
			found[1] = true;
		assert_non_null(strstr(descs[i].description, "RoCE, ACTIVE, MTU 1024"));
	}
	assert_true(found[0] && found[1]);
	fabric_done();
}

/* ------------------------------------------------------------------ faults */

/*
 * Send message seq of pr from a slot of its own (slot size bytes, seq modulo
 * the slots): with a driver that writes from the application's memory when
 * the work request runs (the fabric held it), a message's memory is not
 * reused before its send completed, which ct_prod_send() (one buffer for
 * every message) does not promise.
 */
static int
prod_send_slot(struct ct_prod *pr, uint32_t cons_id, uint32_t *seq, size_t slot, size_t len)
{
	uint8_t *data = pr->mem + (*seq % (pr->mem_len / slot)) * slot;
	struct rte_comch_producer_task_send *t = NULL;
	uint8_t imm[RTE_COMCH_MAX_IMM_DATA_LEN];
	struct rte_comch_buf *buf = NULL;
	int ret;

	ct_fast_fill(data, len, pr->id, *seq);
	ct_fast_imm(imm, 8, pr->id, *seq);
	ret = rte_comch_buf_pool_get_by_data(pr->pool, pr->mmap, data, len, &buf);
	if (ret != 0)
		return ret;
	ret = rte_comch_producer_task_send_alloc_init(pr->prod, buf, imm, 8, cons_id, &t);
	if (ret != 0) {
		rte_comch_buf_dec_refcount(buf, NULL);
		return ret;
	}
	ret = rte_comch_task_submit(rte_comch_producer_task_send_as_task(t));
	if (ret != 0) {
		ct_prod_task_release(t);
		return ret;
	}
	(*seq)++;
	pr->nb_sent++;
	return 0;
}

/* One round: the fabric runs up to max work requests held (delay mode), then each engine. */
static void
step(struct ct_pair *p, unsigned int max)
{
	mlx5_fake_progress(max);
	assert_true(ct_fast_progress(p) >= 0);
}

static bool
pair_ended(struct ct_pair *p)
{
	enum rte_comch_ctx_state st;

	return p->srv.nb_disconnect > 0 && rte_comch_ctx_get_state(p->cli.ctx, &st) == 0 &&
	       st != RTE_COMCH_CTX_STATE_RUNNING;
}

/* Step until both ends saw the connection end. */
static void
wait_ended(struct ct_pair *p)
{
	uint64_t end = ct_now_ms() + WAIT_MS;

	while (!pair_ended(p)) {
		assert_true(ct_now_ms() < end);
		step(p, 0);
	}
}

/*
 * A stream on both paths, the link dropped in the middle of it with work
 * requests still held by the fabric: every task ends exactly once, and what
 * a sender was told was delivered, was (in order, intact).
 */
static void
test_drop_peer_mid_stream(void **state)
{
	uint32_t i, sent = 0, cli_sent = 0, seq = 0;
	struct ct_prod pr;
	struct ct_cons c;
	struct ct_pair p;
	uint8_t msg[64];
	int rc;

	(void)state;
	ct_fast_up(&p, NULL, CT_FAST_SPLIT);
	ct_cons_new(&c, p.sconn, ct_fast_pe(&p, true), 8, 512, 8);
	c.check = true;
	c.repost = true;
	ct_cons_start(&p, &c, &p.cli);
	ct_cons_post_all(&c);
	ct_prod_new(&pr, p.cconn, ct_fast_pe(&p, false), 64, 64 * 512, true);
	mlx5_fake_set_delay(true);
	for (i = 0; i < 300; i++) {
		rc = prod_send_slot(&pr, c.id, &seq, 512, 1 + (i * 7) % 500);
		assert_true(rc == 0 || rc == -EAGAIN || rc == -ENOMEM);
		sent += rc == 0;
		ct_msg_fill(msg, sizeof(msg), 0, cli_sent);
		rc = ct_send(&p.cli, p.cconn, msg, sizeof(msg), NULL);
		assert_true(rc == 0 || rc == -EAGAIN);
		cli_sent += rc == 0;
		step(&p, 3);
	}
	assert_true(pr.nb_ok > 10 && pr.nb_ok < sent);
	/* Mid-stream: everything between the two devices goes to error, both ends hear it. */
	assert_true(mlx5_fake_drop_link("mlx5_0", "mlx5_1") > 0);
	mlx5_fake_set_delay(false);
	wait_ended(&p);
	ct_prod_stop(&p, &pr);
	ct_cons_stop(&p, &c, NULL);
	/* Each task ended once: none twice, none never. */
	assert_int_equal(pr.nb_ok + pr.nb_err, sent);
	assert_true(pr.nb_err > 0);
	assert_int_equal(p.cli.nb_send_ok + p.cli.nb_send_err, cli_sent);
	/* Delivered as reported: every send the producer saw complete was received, intact. */
	assert_int_equal(c.bad, 0);
	assert_true(ct_cons_next_seq(&c, pr.id) >= pr.nb_ok);
	assert_true(p.srv.nb_recv >= p.cli.nb_send_ok);
	assert_int_equal(p.srv.bad_msgs, 0);
	ct_cons_free(&c);
	ct_prod_free(&pr);
	ct_pair_close(&p);
	fabric_done();
}

/* The first QP of the fabric made on dev by hand (hand) or by rdma_cm (!hand). */
static struct ibv_qp *
find_qp(const char *dev, bool hand)
{
	struct ibv_qp *qps[64];
	bool cm[64];
	unsigned int i, n = mlx5_fake_qps(qps, cm, RTE_DIM(qps));

	for (i = 0; i < n && i < RTE_DIM(qps); i++)
		if (cm[i] != hand && mlx5_fake_qp_state(qps[i]) != IBV_QPS_ERR &&
		    strcmp(mlx5_fake_glue()->get_device_name(qps[i]->context->device), dev) == 0)
			return qps[i];
	return NULL;
}

/*
 * A QP moved to error as hardware does on a fatal error. The connection's:
 * both ends end (-ECONNRESET), send tasks in flight fail once. A producer's
 * (an import's): its sends in flight fail once (-ECONNRESET), its later sends
 * find no buffer.
 */
static void
test_qp_to_error(void **state)
{
	uint32_t i, sent = 0;
	struct ct_prod pr;
	struct ct_cons c;
	struct ct_pair p;
	uint8_t msg[32];

	(void)state;
	/* The producer's QP towards the consumer (made by hand, on the host side). */
	ct_fast_up(&p, NULL, CT_FAST_SPLIT);
	ct_cons_new(&c, p.sconn, ct_fast_pe(&p, true), 8, 256, 4);
	ct_cons_start(&p, &c, &p.cli);
	ct_cons_post_all(&c);
	ct_prod_new(&pr, p.cconn, ct_fast_pe(&p, false), 16, 16 * 256, true);
	mlx5_fake_set_delay(true);
	for (i = 0; i < 5; i++)
		sent += ct_prod_send(&pr, c.id, 100, 4, NULL) == 0;
	assert_int_equal(sent, 5);
	assert_int_equal(mlx5_fake_qp_to_err(find_qp("mlx5_1", true)), 0);
	mlx5_fake_set_delay(false);
	assert_int_equal(ct_fast_wait_count(&p, &pr.nb_err, 5), 0);
	assert_int_equal(pr.nb_ok, 0);
	for (i = 0; i < 5; i++)
		assert_int_equal(pr.err_status[i], -ECONNRESET);
	assert_int_equal(ct_prod_send(&pr, c.id, 100, 4, NULL), -EAGAIN);
	ct_prod_stop(&p, &pr);
	ct_prod_free(&pr);
	ct_cons_stop(&p, &c, NULL);
	ct_cons_free(&c);

	/* The connection's QP, on the BlueField side, with messages held in flight. */
	mlx5_fake_set_delay(true);
	for (i = 0, sent = 0; i < 4; i++) {
		ct_msg_fill(msg, sizeof(msg), 0, i);
		sent += ct_send(&p.cli, p.cconn, msg, sizeof(msg), NULL) == 0;
	}
	assert_int_equal(mlx5_fake_qp_to_err(find_qp("mlx5_0", false)), 0);
	mlx5_fake_set_delay(false);
	wait_ended(&p);
	assert_int_equal(p.srv.disc_status[0], -ECONNRESET);
	assert_int_equal(rte_comch_ctx_get_last_error(p.cli.ctx), -ECONNRESET);
	assert_int_equal(p.cli.nb_send_ok + p.cli.nb_send_err, sent);
	ct_pair_close(&p);
	fabric_done();
}

/*
 * Registrations that fail: an mmap's start (-ENOMEM, then it starts), a
 * handshake's buffers (the attempt fails, the client's next one connects), an
 * import's (the consumer's start is refused, the connection stays).
 */
static void
test_failed_registration(void **state)
{
	struct ct_cfg cfg = { .fast = true };
	struct rte_comch_dev_stats st;
	struct rte_comch_mmap *m;
	struct ct_cons c;
	struct ct_pair p;

	(void)state;
	wrap_install();
	ct_pair_open(&p, &cfg);
	m = rte_comch_mmap_create();
	assert_non_null(m);
	assert_int_equal(rte_comch_mmap_add_dev(m, p.host), 0);
	assert_int_equal(rte_comch_mmap_alloc_memrange(m, 8192), 0);
	mlx5_fake_fail_next(MLX5_FAKE_OP_REG_MR, 1, ENOMEM);
	assert_int_equal(rte_comch_mmap_start(m), -ENOMEM);
	assert_int_equal(rte_comch_mmap_start(m), 0);
	assert_int_equal(rte_comch_mmap_stop(m), 0);
	assert_int_equal(rte_comch_mmap_destroy(m), 0);

	/* The client's handshake buffers: that attempt fails, the next one is up. */
	mlx5_fake_fail_next(MLX5_FAKE_OP_REG_MR, 1, ENOMEM);
	ct_pair_connect(&p);
	assert_int_equal(counters().faults, 2);

	/* The peer's import of a consumer (its QP, asked inline and then less): refused. */
	p.fmode = CT_FAST_ONE;
	ct_cons_new(&c, p.sconn, p.pe, 4, 256, 0);
	W.fail_inline_qps = 2;
	assert_int_equal(rte_comch_ctx_start(c.ctx), -EINPROGRESS);
	assert_int_equal(ct_fast_wait_state(&p, c.ctx, RTE_COMCH_CTX_STATE_IDLE), 0);
	assert_int_equal(rte_comch_ctx_get_last_error(c.ctx), -ENOMEM);
	assert_int_equal(rte_comch_connection_update_info(p.sconn), 0);
	ct_cons_start(&p, &c, &p.cli);
	ct_cons_stop(&p, &c, &p.cli);
	ct_cons_free(&c);
	assert_int_equal(rte_comch_dev_stats_get(p.dpu, &st), 0);
	assert_int_equal(st.connections_closed, 0);
	ct_pair_close(&p);
	fabric_done();
}

/*
 * A completion event lost (the fake can; hardware does not): the consumer's
 * engine sleeps on through the record. What bounds it is the application's
 * own wait: once that times out, the next progress polls the record in.
 */
static void
test_lost_cq_event(void **state)
{
	struct ct_prod pr;
	struct ct_cons c;
	struct ct_pair p;
	int fd;

	(void)state;
	ct_fast_up(&p, NULL, CT_FAST_OWN);
	ct_cons_new(&c, p.sconn, ct_fast_pe(&p, true), 4, 256, 4);
	c.check = true;
	ct_cons_start(&p, &c, &p.cli);
	ct_cons_post_all(&c);
	ct_prod_new(&pr, p.cconn, ct_fast_pe(&p, false), 4, 4 * 256, true);
	ct_fast_progress_for(&p, 10);
	assert_int_equal(rte_comch_pe_get_notification_fd(c.pe, &fd), 0);

	/* an event that comes: the sleeper wakes */
	assert_int_equal(rte_comch_pe_request_notification(c.pe), 0);
	assert_int_equal(ct_prod_send(&pr, c.id, 100, 4, NULL), 0);
	assert_int_equal(ct_wait_count(pr.pe, &pr.nb_ok, 1, WAIT_MS), 0);
	assert_true(ct_fd_readable(fd, WAIT_MS) == 1);
	assert_int_equal(rte_comch_pe_clear_notification(c.pe), 0);
	assert_int_equal(ct_wait_count(c.pe, &c.nb_ok, 1, WAIT_MS), 0);

	/* an event lost: the sleeper's wait times out, and its next progress delivers */
	mlx5_fake_lose_cq_events(1);
	assert_int_equal(rte_comch_pe_request_notification(c.pe), 0);
	assert_int_equal(ct_prod_send(&pr, c.id, 101, 4, NULL), 0);
	assert_int_equal(ct_wait_count(pr.pe, &pr.nb_ok, 2, WAIT_MS), 0);
	assert_int_equal(ct_fd_readable(fd, 100), 0);
	assert_int_equal(counters().cq_events_lost, 1);
	assert_int_equal(rte_comch_pe_clear_notification(c.pe), 0);
	assert_int_equal(ct_wait_count(c.pe, &c.nb_ok, 2, WAIT_MS), 0);
	assert_int_equal(c.bad, 0);
	ct_prod_stop(&p, &pr);
	ct_prod_free(&pr);
	ct_cons_stop(&p, &c, &p.cli);
	ct_cons_free(&c);
	ct_pair_close(&p);
	fabric_done();
}

/*
 * The server's ACCEPT arriving while the client waits for it, between the
 * arm of its CQ and its look after the arm: the client connects. Made
 * certain with the fabric in delay mode, run only when the host side arms
 * a CQ: the client's HELLO goes at one of its arms, the ACCEPT at the next.
 */
static void
test_accept_after_arm(void **state)
{
	enum rte_comch_ctx_state st = RTE_COMCH_CTX_STATE_STARTING;
	uint64_t t0;
	struct ct_pair p;

	(void)state;
	wrap_install();
	ct_pair_open(&p, NULL);
	W.run_at_host_arm = true;
	mlx5_fake_set_delay(true);
	assert_int_equal(rte_comch_ctx_start(p.cli.ctx), -EINPROGRESS);
	t0 = ct_now_ms();
	while (st == RTE_COMCH_CTX_STATE_STARTING && ct_now_ms() - t0 < WAIT_MS) {
		assert_true(rte_comch_pe_progress(p.pe) >= 0);
		assert_int_equal(rte_comch_ctx_get_state(p.cli.ctx, &st), 0);
	}
	W.run_at_host_arm = false;
	mlx5_fake_set_delay(false);
	mlx5_fake_progress(0);
	/* the HELLO, then the ACCEPT: two arms that ran the fabric */
	assert_int_equal(W.host_arm_runs, 2);
	assert_int_equal(st, RTE_COMCH_CTX_STATE_RUNNING);
	assert_int_equal(p.cli.nb_connect_failed, 0);
	/* and the server has it too, once the client's READY is there */
	assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_connect, 1, WAIT_MS), 0);
	ct_pair_close(&p);
	fabric_done();
}

/*
 * A CQ overrun (a provider that gave less than asked): the CQ fails, its QPs
 * go to error; the connection ends (-ECONNRESET) at both ends, every send
 * task ends once, nothing crashes or leaks.
 */
static void
test_cq_overflow(void **state)
{
	uint32_t i, sent = 0;
	struct ct_pair p;
	uint8_t msg[32];

	(void)state;
	wrap_install();
	/* 15 entries (mlx5 rounds 8 + 1 up to 16, less one): enough for the handshake */
	W.cq_max = 8;
	ct_pair_up(&p, NULL);
	/* 40 sends and not one poll: the client's CQ overruns with their completions */
	for (i = 0; i < 40; i++) {
		ct_msg_fill(msg, sizeof(msg), 0, i);
		sent += ct_send(&p.cli, p.cconn, msg, sizeof(msg), NULL) == 0;
	}
	assert_true(sent >= 16);
	wait_ended(&p);
	assert_true(counters().cq_overflows >= 1);
	assert_int_equal(p.cli.nb_send_ok + p.cli.nb_send_err, sent);
	assert_int_equal(p.srv.bad_msgs, 0);
	ct_pair_close(&p);
	fabric_done();
}

/* A lie of the peer ends the connection as a protocol error, at the lied-to end. */
static void
expect_dropped_for_lying(struct ct_pair *p, struct rte_comch_dev *victim)
{
	struct rte_comch_dev_stats st;

	assert_int_equal(W.lies, 1);
	wait_ended(p);
	assert_int_equal(rte_comch_dev_stats_get(victim, &st), 0);
	assert_int_equal(st.peer_errors, 1);
}

/*
 * On the lying glue: a consumer of 4 buffers on the server's side (posted,
 * with lie_post set if asked: the post entries go with the posts) and a
 * producer on the client's, all on one engine.
 */
static void
lying_fast_up(struct ct_pair *p, struct ct_cons *c, struct ct_prod *pr, bool lie_post)
{
	wrap_install();
	ct_fast_up(p, NULL, CT_FAST_ONE);
	ct_cons_new(c, p->sconn, p->pe, 4, 256, 4);
	ct_cons_start(p, c, &p->cli);
	W.lie_post = lie_post;
	ct_cons_post_all(c);
	ct_prod_new(pr, p->cconn, p->pe, 4, 4 * 256, true);
}

/* The lied-to connection is gone: stop and free everything, check the fabric. */
static void
lying_fast_down(struct ct_pair *p, struct ct_cons *c, struct ct_prod *pr, uint32_t cons_err)
{
	ct_prod_stop(p, pr);
	ct_prod_free(pr);
	ct_cons_stop(p, c, NULL);
	assert_int_equal(c->nb_err, cons_err);
	ct_cons_free(c);
	ct_pair_close(p);
	fabric_done();
}

/* A completion record claiming more bytes than the posted buffer holds. */
static void
test_lying_record(void **state)
{
	struct ct_prod pr;
	struct ct_cons c;
	struct ct_pair p;

	(void)state;
	lying_fast_up(&p, &c, &pr, false);
	assert_int_equal(ct_prod_send(&pr, c.id, 10, 4, NULL), 0);
	assert_int_equal(ct_fast_wait_count(&p, &c.nb_ok, 1), 0);
	W.lie_record = true;
	assert_int_equal(ct_prod_send(&pr, c.id, 10, 4, NULL), 0);
	expect_dropped_for_lying(&p, p.dpu);
	assert_int_equal(c.nb_ok, 1);
	/* the buffer lied about and the two never filled come back, failed */
	lying_fast_down(&p, &c, &pr, 3);
}

/* A post of a buffer outside the memory the consumer announced. */
static void
test_lying_post(void **state)
{
	struct ct_prod pr;
	struct ct_cons c;
	struct ct_pair p;

	(void)state;
	lying_fast_up(&p, &c, &pr, true);
	assert_int_equal(ct_prod_send(&pr, c.id, 10, 4, NULL), -ENOTCONN);
	expect_dropped_for_lying(&p, p.host);
	assert_int_equal(c.nb_ok, 0);
	lying_fast_down(&p, &c, &pr, 4);
}

/* Credits returned for control messages never sent (the control path's). */
static void
test_lying_credit(void **state)
{
	struct ct_pair p;
	uint8_t msg[32];

	(void)state;
	wrap_install();
	ct_pair_up(&p, NULL);
	W.lie_credit = true;
	ct_msg_fill(msg, sizeof(msg), 0, 0);
	assert_int_equal(ct_send(&p.cli, p.cconn, msg, sizeof(msg), NULL), 0);
	expect_dropped_for_lying(&p, p.dpu);
	ct_pair_close(&p);
	fabric_done();
}

/* The consumer's callback posts its buffer again: what that submit returned. */
static int repost_ret;

static void
repost_hook(struct ct_cons *c, struct rte_comch_consumer_task_post_recv *t, int status)
{
	(void)c;
	if (status != 0)
		return;
	repost_ret = ct_cons_repost(t);
}

/*
 * A buffer posted again from the consumer's callback goes to the driver
 * when the round's callbacks are done; if the driver refuses it then (its
 * receive queue fails, as a QP in trouble does), the submit that was accepted
 * ends through the error callback with the driver's error, once, and the
 * consumer still stops with every other buffer back.
 */
static void
test_repost_refused(void **state)
{
	struct rte_comch_consumer_task_post_recv *t[4];
	struct ct_prod pr;
	struct ct_cons c;
	struct ct_pair p;
	uint32_t i;

	(void)state;
	repost_ret = 1;
	ct_fast_up(&p, NULL, CT_FAST_SPLIT);
	ct_cons_new(&c, p.sconn, ct_fast_pe(&p, true), RTE_DIM(t), 256, 4);
	c.keep_tasks = true;
	c.on_done = repost_hook;
	ct_cons_start(&p, &c, &p.cli);
	for (i = 0; i < RTE_DIM(t); i++)
		assert_int_equal(ct_cons_post(&c, i, &t[i]), 0);
	ct_prod_new(&pr, p.cconn, ct_fast_pe(&p, false), 16, 16 * 256, true);
	ct_fast_progress_for(&p, 10);
	assert_int_equal(ct_prod_send(&pr, c.id, 100, 4, NULL), 0);
	/* The consumer's engine alone from here: the next receive posted is its. */
	mlx5_fake_fail_next(MLX5_FAKE_OP_POST_RECV, 1, EIO);
	assert_int_equal(ct_wait_count(ct_fast_pe(&p, true), &c.nb_err, 1, WAIT_MS), 0);
	assert_int_equal(c.nb_ok, 1);
	assert_int_equal(repost_ret, 0);
	assert_int_equal(c.err_status[0], -ECONNRESET);
	assert_int_equal(counters().faults, 1);
	assert_ptr_equal(c.last_task, t[0]);
	ct_cons_stop(&p, &c, NULL);
	assert_int_equal(c.nb_err, RTE_DIM(t));
	assert_int_equal(c.bad, 0);
	for (i = 0; i < RTE_DIM(t); i++)
		ct_cons_task_release(t[i]);
	ct_fast_close_all(&p, &pr, 1, &c, 1);
	fabric_done();
}

/*
 * Floods on small queues, both paths, both ways: credits keep every SEND to
 * a posted receive: the fabric never NAKs one (no RNR, ever).
 */
static void
test_no_rnr_under_flood(void **state)
{
	/* 3: the library has up to 4 in flight (a power of two), the driver's credits 3 */
	struct ct_cfg cfg = { .srv_rq = 3, .cli_rq = 3, .srv_tasks = 64, .cli_tasks = 64,
			      .fast = true };
	uint32_t i, srv_sent = 0, cli_sent = 0, fp_sent = 0;
	struct mlx5_fake_counters k;
	struct ct_prod pr;
	struct ct_cons c;
	struct ct_pair p;
	uint8_t msg[64];
	uint64_t end;

	(void)state;
	ct_fast_up(&p, &cfg, CT_FAST_SPLIT);
	ct_cons_new(&c, p.sconn, ct_fast_pe(&p, true), 2, 128, 8);
	c.check = true;
	c.repost = true;
	ct_cons_start(&p, &c, &p.cli);
	ct_cons_post_all(&c);
	ct_prod_new(&pr, p.cconn, ct_fast_pe(&p, false), 64, 64 * 128, true);
	/*
	 * The receiver paused: the sender may have 3 messages in flight, which
	 * is less than the library's own window (4): the driver refuses the 4th.
	 */
	assert_int_equal(rte_comch_connection_recv_pause(p.sconn), 0);
	ct_fast_progress_for(&p, 10);
	for (i = 0; i < 3; i++) {
		ct_msg_fill(msg, sizeof(msg), 0, cli_sent++);
		assert_int_equal(ct_send(&p.cli, p.cconn, msg, sizeof(msg), NULL), 0);
	}
	ct_fast_progress_for(&p, 10);
	ct_msg_fill(msg, sizeof(msg), 0, cli_sent);
	assert_int_equal(ct_send(&p.cli, p.cconn, msg, sizeof(msg), NULL), -EAGAIN);
	assert_int_equal(rte_comch_connection_recv_resume(p.sconn), 0);
	end = ct_now_ms() + 4 * CT_TIMEOUT_MS;
	for (i = 0; srv_sent < 2000 || cli_sent < 2000 || fp_sent < 2000; i++) {
		assert_true(ct_now_ms() < end);
		ct_msg_fill(msg, sizeof(msg), 0, cli_sent);
		if (cli_sent < 2000 && ct_send(&p.cli, p.cconn, msg, sizeof(msg), NULL) == 0)
			cli_sent++;
		ct_msg_fill(msg, sizeof(msg), 0, srv_sent);
		if (srv_sent < 2000 && ct_send(&p.srv, p.sconn, msg, sizeof(msg), NULL) == 0)
			srv_sent++;
		if (fp_sent < 2000 && ct_prod_send(&pr, c.id, 1 + i % 128, 8, NULL) == 0)
			fp_sent++;
		if (i % 3 == 0)
			assert_true(ct_fast_progress(&p) >= 0);
	}
	assert_int_equal(ct_fast_wait_count(&p, &p.srv.nb_recv, 2000), 0);
	assert_int_equal(ct_fast_wait_count(&p, &p.cli.nb_recv, 2000), 0);
	assert_int_equal(ct_fast_wait_count(&p, &c.nb_ok, 2000), 0);
	assert_int_equal(p.srv.bad_msgs + p.cli.bad_msgs + c.bad, 0);
	k = counters();
	assert_int_equal(k.rnr_naks, 0);
	assert_int_equal(k.rnr_retry_exceeded, 0);
	assert_int_equal(k.retry_exceeded, 0);
	ct_prod_stop(&p, &pr);
	ct_prod_free(&pr);
	ct_cons_stop(&p, &c, &p.cli);
	ct_cons_free(&c);
	ct_pair_close(&p);
	fabric_done();
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_devargs, fabric_teardown),
		cmocka_unit_test_teardown(test_probe_no_device, fabric_teardown),
		cmocka_unit_test_teardown(test_probe_real_rdma_core, fabric_teardown),
		cmocka_unit_test_teardown(test_list, fabric_teardown),
		cmocka_unit_test_teardown(test_drop_peer_mid_stream, fabric_teardown),
		cmocka_unit_test_teardown(test_qp_to_error, fabric_teardown),
		cmocka_unit_test_teardown(test_failed_registration, fabric_teardown),
		cmocka_unit_test_teardown(test_lost_cq_event, fabric_teardown),
		cmocka_unit_test_teardown(test_accept_after_arm, fabric_teardown),
		cmocka_unit_test_teardown(test_cq_overflow, fabric_teardown),
		cmocka_unit_test_teardown(test_lying_record, fabric_teardown),
		cmocka_unit_test_teardown(test_lying_post, fabric_teardown),
		cmocka_unit_test_teardown(test_lying_credit, fabric_teardown),
		cmocka_unit_test_teardown(test_no_rnr_under_flood, fabric_teardown),
		cmocka_unit_test_teardown(test_repost_refused, fabric_teardown),
	};

	setenv("COMCH_TEST_DRIVER", "mlx5", 1);
	return CT_RUN("mlx5", tests);
}
