/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>

#include "comch_test_common.h"

static char ct_tmpdir[256];
static char ct_prefix[128];
static unsigned int ct_domain_seq;

uint64_t
ct_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

int
ct_group_setup(void **state)
{
	char pfx_arg[160];
	char *argv[16];
	int argc = 0;
	const char *log = getenv("COMCH_TEST_LOG");

	(void)state;
	snprintf(ct_prefix, sizeof(ct_prefix), "comch_%s_%d",
		 program_invocation_short_name, (int)getpid());
	snprintf(pfx_arg, sizeof(pfx_arg), "--file-prefix=%s", ct_prefix);
	argv[argc++] = program_invocation_short_name;
	argv[argc++] = (char *)"--no-huge";
	argv[argc++] = (char *)"-m";
	argv[argc++] = (char *)"512";
	argv[argc++] = (char *)"--no-pci";
	argv[argc++] = pfx_arg;
	argv[argc++] = (char *)"-l";
	argv[argc++] = (char *)"0-1";
	argv[argc++] = (char *)(log != NULL ? log : "--log-level=lib.comch:info");
	argv[argc] = NULL;
	if (rte_eal_init(argc, argv) < 0) {
		fprintf(stderr, "rte_eal_init failed: %s\n", rte_strerror(rte_errno));
		return -1;
	}
	snprintf(ct_tmpdir, sizeof(ct_tmpdir), "/tmp/comch-test-XXXXXX");
	if (mkdtemp(ct_tmpdir) == NULL) {
		perror("mkdtemp");
		return -1;
	}
	return 0;
}

static int
ct_rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

int
ct_group_teardown(void **state)
{
	char rundir[PATH_MAX];

	(void)state;
	snprintf(rundir, sizeof(rundir), "%s", rte_eal_get_runtime_dir());
	rte_eal_cleanup();
	/* the runtime directory of our unique file prefix */
	if (strstr(rundir, ct_prefix) != NULL)
		nftw(rundir, ct_rm_one, 8, FTW_DEPTH | FTW_PHYS);
	if (ct_tmpdir[0] != '\0')
		nftw(ct_tmpdir, ct_rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}

const char *
ct_dir(void)
{
	return ct_tmpdir;
}

void
ct_domain(char *buf, size_t len)
{
	snprintf(buf, len, "t%dx%u", (int)getpid(), ct_domain_seq++);
}

struct rte_comch_dev *
ct_dev_open(const char *fmt, ...)
{
	char kv[200];
	char devargs[600];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(kv, sizeof(kv), fmt, ap);
	va_end(ap);
	snprintf(devargs, sizeof(devargs), "shm:%s,dir=%s", kv, ct_tmpdir);
	return rte_comch_dev_open(devargs);
}

/* -------------------------------------------------------------- progress */

int
progress_until(struct rte_comch_pe *pe, ct_pred_t pred, void *arg, unsigned int timeout_ms)
{
	uint64_t deadline = ct_now_ms() + timeout_ms;
	int ret;

	for (;;) {
		if (pred(arg))
			return 0;
		ret = rte_comch_pe_progress(pe);
		if (ret < 0)
			return ret;
		if (pred(arg))
			return 0;
		if (ct_now_ms() > deadline)
			return -ETIMEDOUT;
	}
}

unsigned int
ct_progress_for(struct rte_comch_pe *pe, unsigned int ms)
{
	uint64_t deadline = ct_now_ms() + ms;
	unsigned int n = 0;

	while (ct_now_ms() < deadline)
		if (rte_comch_pe_progress(pe) > 0)
			n++;
	return n;
}

struct ct_state_arg {
	struct rte_comch_ctx *ctx;
	enum rte_comch_ctx_state st;
};

static bool
ct_state_pred(void *arg)
{
	struct ct_state_arg *a = arg;
	enum rte_comch_ctx_state st;

	return rte_comch_ctx_get_state(a->ctx, &st) == 0 && st == a->st;
}

int
ct_wait_state(struct rte_comch_pe *pe, struct rte_comch_ctx *ctx,
	      enum rte_comch_ctx_state st, unsigned int timeout_ms)
{
	struct ct_state_arg a = { .ctx = ctx, .st = st };

	return progress_until(pe, ct_state_pred, &a, timeout_ms);
}

struct ct_count_arg {
	const uint32_t *counter;
	uint32_t target;
};

static bool
ct_count_pred(void *arg)
{
	struct ct_count_arg *a = arg;

	return *a->counter >= a->target;
}

int
ct_wait_count(struct rte_comch_pe *pe, const uint32_t *counter, uint32_t target,
	      unsigned int timeout_ms)
{
	struct ct_count_arg a = { .counter = counter, .target = target };

	return progress_until(pe, ct_count_pred, &a, timeout_ms);
}

/* --------------------------------------------------- recording callbacks */

static struct ct_side *
ct_side_of_ctx(struct rte_comch_ctx *ctx)
{
	union rte_comch_data ud = { .ptr = NULL };

	if (ctx == NULL || rte_comch_ctx_get_user_data(ctx, &ud) != 0)
		return NULL;
	return ud.ptr;
}

struct ct_side *
ct_side_of_conn(struct rte_comch_connection *conn)
{
	return ct_side_of_ctx(rte_comch_connection_get_ctx(conn));
}

static void
ct_task_done(struct rte_comch_task_send *task, struct ct_side *s, bool ok,
	     union rte_comch_data task_ud, union rte_comch_data ctx_ud)
{
	s->last_task = task;
	s->last_task_ud = task_ud;
	s->last_ctx_ud = ctx_ud;
	if (s->on_task != NULL)
		s->on_task(s, task, ok);
	else if (!s->keep_tasks)
		rte_comch_task_free(rte_comch_task_send_as_task(task));
}

void
ct_send_ok_cb(struct rte_comch_task_send *task, union rte_comch_data task_ud,
	      union rte_comch_data ctx_ud)
{
	struct ct_side *s = ctx_ud.ptr;

	s->nb_send_ok++;
	ct_task_done(task, s, true, task_ud, ctx_ud);
}

void
ct_send_err_cb(struct rte_comch_task_send *task, union rte_comch_data task_ud,
	       union rte_comch_data ctx_ud)
{
	struct ct_side *s = ctx_ud.ptr;

	if (s->nb_send_err < CT_MAX_LOG)
		s->err_status[s->nb_send_err] =
			rte_comch_task_get_status(rte_comch_task_send_as_task(task));
	s->nb_send_err++;
	ct_task_done(task, s, false, task_ud, ctx_ud);
}

void
ct_recv_cb(struct rte_comch_connection *conn, const uint8_t *msg, uint32_t len)
{
	struct ct_side *s = ct_side_of_conn(conn);
	uint32_t id, seq;

	if (s == NULL)
		return;
	s->nb_recv++;
	s->recv_bytes += len;
	s->last_recv_conn = conn;
	s->last_len = len;
	memcpy(s->last_msg, msg, RTE_MIN(len, (uint32_t)sizeof(s->last_msg)));
	if (len >= CT_MSG_MIN_LEN) {
		if (ct_msg_check(msg, len, &id, &seq) != 0 || seq != s->next_seq)
			s->bad_msgs++;
		else
			s->next_seq = seq + 1;
	}
	if (s->on_recv != NULL)
		s->on_recv(s, conn, msg, len);
}

void
ct_connect_cb(struct rte_comch_connection *conn, int status)
{
	struct ct_side *s = ct_side_of_conn(conn);

	if (s == NULL)
		return;
	if (s->nb_connect < CT_MAX_CONNS)
		s->conns[s->nb_connect] = conn;
	s->nb_connect++;
	if (status != 0)
		s->bad_msgs++; /* a connection event must carry status 0 */
	if (s->on_connect != NULL)
		s->on_connect(s, conn, status);
}

void
ct_disconnect_cb(struct rte_comch_connection *conn, int status)
{
	struct ct_side *s = ct_side_of_conn(conn);
	uint32_t i;

	if (s == NULL)
		return;
	if (s->nb_disconnect < CT_MAX_LOG)
		s->disc_status[s->nb_disconnect] = status;
	s->nb_disconnect++;
	for (i = 0; i < RTE_MIN(s->nb_connect, (uint32_t)CT_MAX_CONNS); i++)
		if (s->conns[i] == conn)
			s->conns[i] = NULL;
	if (s->on_disconnect != NULL)
		s->on_disconnect(s, conn, status);
}

void
ct_state_cb(union rte_comch_data ud, struct rte_comch_ctx *ctx,
	    enum rte_comch_ctx_state prev, enum rte_comch_ctx_state next)
{
	struct ct_side *s = ud.ptr;

	(void)ctx;
	if (s->nb_states < CT_MAX_LOG) {
		s->prev[s->nb_states] = prev;
		s->next[s->nb_states] = next;
	}
	s->nb_states++;
	if (s->on_state != NULL)
		s->on_state(s, prev, next);
}

/* -------------------------------------------------------- server / client */

struct rte_comch_server *
ct_server_new(struct ct_side *s, struct rte_comch_dev *dev, struct rte_comch_dev_rep *rep,
	      const char *name, const struct ct_cfg *cfg)
{
	static const struct ct_cfg def;
	struct rte_comch_server *srv;
	union rte_comch_data ud = { .ptr = s };

	if (cfg == NULL)
		cfg = &def;
	srv = rte_comch_server_create(dev, rep, name);
	if (srv == NULL)
		return NULL;
	s->server = srv;
	s->ctx = rte_comch_server_as_ctx(srv);
	assert_non_null(s->ctx);
	assert_int_equal(rte_comch_ctx_set_user_data(s->ctx, ud), 0);
	assert_int_equal(rte_comch_ctx_set_state_changed_cb(s->ctx, ct_state_cb), 0);
	assert_int_equal(rte_comch_server_task_send_set_conf(srv, ct_send_ok_cb, ct_send_err_cb,
		cfg->srv_tasks != 0 ? cfg->srv_tasks : 64), 0);
	assert_int_equal(rte_comch_server_event_msg_recv_register(srv, ct_recv_cb), 0);
	assert_int_equal(rte_comch_server_event_connection_status_changed_register(srv,
		ct_connect_cb, ct_disconnect_cb), 0);
	if (cfg->srv_msg_size != 0)
		assert_int_equal(rte_comch_server_set_max_msg_size(srv, cfg->srv_msg_size), 0);
	if (cfg->srv_rq != 0)
		assert_int_equal(rte_comch_server_set_recv_queue_size(srv, cfg->srv_rq), 0);
	return srv;
}

struct rte_comch_client *
ct_client_new(struct ct_side *s, struct rte_comch_dev *dev, const char *name,
	      const struct ct_cfg *cfg)
{
	static const struct ct_cfg def;
	struct rte_comch_client *cli;
	union rte_comch_data ud = { .ptr = s };

	if (cfg == NULL)
		cfg = &def;
	cli = rte_comch_client_create(dev, name);
	if (cli == NULL)
		return NULL;
	s->client = cli;
	s->ctx = rte_comch_client_as_ctx(cli);
	assert_non_null(s->ctx);
	assert_int_equal(rte_comch_ctx_set_user_data(s->ctx, ud), 0);
	assert_int_equal(rte_comch_ctx_set_state_changed_cb(s->ctx, ct_state_cb), 0);
	assert_int_equal(rte_comch_client_task_send_set_conf(cli, ct_send_ok_cb, ct_send_err_cb,
		cfg->cli_tasks != 0 ? cfg->cli_tasks : 64), 0);
	assert_int_equal(rte_comch_client_event_msg_recv_register(cli, ct_recv_cb), 0);
	if (cfg->cli_msg_size != 0)
		assert_int_equal(rte_comch_client_set_max_msg_size(cli, cfg->cli_msg_size), 0);
	if (cfg->cli_rq != 0)
		assert_int_equal(rte_comch_client_set_recv_queue_size(cli, cfg->cli_rq), 0);
	assert_int_equal(rte_comch_client_set_connect_timeout(cli,
		cfg->connect_timeout_ms != 0 ? cfg->connect_timeout_ms : CT_TIMEOUT_MS), 0);
	return cli;
}

static void
ct_pair_open_common(struct ct_pair *p, const struct ct_cfg *cfg, bool split)
{
	memset(p, 0, sizeof(*p));
	ct_domain(p->domain, sizeof(p->domain));
	snprintf(p->name, sizeof(p->name), "srv-%s", p->domain);
	p->dpu = ct_dev_open("domain=%s,role=dpu,rep=pf0,rep=pf1", p->domain);
	assert_non_null(p->dpu);
	p->host = ct_dev_open("domain=%s,role=host,fn=pf0", p->domain);
	assert_non_null(p->host);
	p->rep = rte_comch_dev_rep_open(p->dpu, "pf0");
	assert_non_null(p->rep);
	p->pe = rte_comch_pe_create(RTE_COMCH_PE_LCORE_SELF);
	assert_non_null(p->pe);
	p->cpe = p->pe;
	if (split) {
		p->cpe = rte_comch_pe_create(RTE_COMCH_PE_LCORE_SELF);
		assert_non_null(p->cpe);
	}
	assert_non_null(ct_server_new(&p->srv, p->dpu, p->rep, p->name, cfg));
	assert_non_null(ct_client_new(&p->cli, p->host, p->name, cfg));
	assert_int_equal(rte_comch_pe_connect_ctx(p->pe, p->srv.ctx), 0);
	assert_int_equal(rte_comch_pe_connect_ctx(p->cpe, p->cli.ctx), 0);
	assert_int_equal(rte_comch_ctx_start(p->srv.ctx), 0);
}

void
ct_pair_open(struct ct_pair *p, const struct ct_cfg *cfg)
{
	ct_pair_open_common(p, cfg, false);
}

void
ct_pair_open_split(struct ct_pair *p, const struct ct_cfg *cfg)
{
	ct_pair_open_common(p, cfg, true);
}

struct ct_pair_wait {
	struct ct_pair *p;
	uint32_t nb_connect;
};

static bool
ct_pair_connected(void *arg)
{
	struct ct_pair_wait *w = arg;
	enum rte_comch_ctx_state st;

	if (w->p->cpe != w->p->pe && rte_comch_pe_progress(w->p->cpe) < 0)
		return false;
	return rte_comch_ctx_get_state(w->p->cli.ctx, &st) == 0 &&
		st == RTE_COMCH_CTX_STATE_RUNNING && w->p->srv.nb_connect > w->nb_connect;
}

void
ct_pair_connect(struct ct_pair *p)
{
	struct ct_pair_wait w = { .p = p, .nb_connect = p->srv.nb_connect };

	assert_int_equal(rte_comch_ctx_start(p->cli.ctx), -EINPROGRESS);
	assert_int_equal(progress_until(p->pe, ct_pair_connected, &w, CT_TIMEOUT_MS), 0);
	p->sconn = p->srv.conns[w.nb_connect];
	assert_non_null(p->sconn);
	assert_int_equal(rte_comch_client_get_connection(p->cli.client, &p->cconn), 0);
	assert_non_null(p->cconn);
}

void
ct_pair_up(struct ct_pair *p, const struct ct_cfg *cfg)
{
	ct_pair_open(p, cfg);
	ct_pair_connect(p);
}

void
ct_ctx_stop_wait(struct rte_comch_pe *pe, struct rte_comch_ctx *ctx)
{
	enum rte_comch_ctx_state st;
	int ret;

	assert_int_equal(rte_comch_ctx_get_state(ctx, &st), 0);
	if (st == RTE_COMCH_CTX_STATE_IDLE)
		return;
	if (st != RTE_COMCH_CTX_STATE_STOPPING) {
		ret = rte_comch_ctx_stop(ctx);
		assert_true(ret == 0 || ret == -EINPROGRESS);
	}
	assert_int_equal(ct_wait_state(pe, ctx, RTE_COMCH_CTX_STATE_IDLE, CT_TIMEOUT_MS), 0);
}

void
ct_pair_close(struct ct_pair *p)
{
	if (p->cli.ctx != NULL)
		ct_ctx_stop_wait(p->cpe, p->cli.ctx);
	if (p->srv.ctx != NULL)
		ct_ctx_stop_wait(p->pe, p->srv.ctx);
	if (p->cli.client != NULL)
		assert_int_equal(rte_comch_client_destroy(p->cli.client), 0);
	if (p->srv.server != NULL)
		assert_int_equal(rte_comch_server_destroy(p->srv.server), 0);
	if (p->cpe != p->pe)
		assert_int_equal(rte_comch_pe_destroy(p->cpe), 0);
	assert_int_equal(rte_comch_pe_destroy(p->pe), 0);
	assert_int_equal(rte_comch_dev_rep_close(p->rep), 0);
	assert_int_equal(rte_comch_dev_close(p->host), 0);
	assert_int_equal(rte_comch_dev_close(p->dpu), 0);
	memset(p, 0, sizeof(*p));
}

int
ct_send(struct ct_side *s, struct rte_comch_connection *conn, const void *msg,
	uint32_t len, struct rte_comch_task_send **taskp)
{
	struct rte_comch_task_send *t = NULL;
	int ret;

	if (s->server != NULL)
		ret = rte_comch_server_task_send_alloc_init(s->server, conn, msg, len, &t);
	else
		ret = rte_comch_client_task_send_alloc_init(s->client, conn, msg, len, &t);
	if (ret != 0)
		return ret;
	ret = rte_comch_task_submit(rte_comch_task_send_as_task(t));
	if (ret != 0) {
		if (taskp != NULL)
			*taskp = t;
		else
			rte_comch_task_free(rte_comch_task_send_as_task(t));
		return ret;
	}
	if (taskp != NULL)
		*taskp = t;
	return 0;
}

int
ct_send_retry(struct rte_comch_pe *pe, struct ct_side *s, struct rte_comch_connection *conn,
	      const void *msg, uint32_t len, uint32_t *nb_again)
{
	uint64_t deadline = ct_now_ms() + CT_TIMEOUT_MS;
	int ret;

	for (;;) {
		ret = ct_send(s, conn, msg, len, NULL);
		if (ret != -EAGAIN || ct_now_ms() > deadline)
			return ret;
		if (nb_again != NULL)
			(*nb_again)++;
		ret = rte_comch_pe_progress(pe);
		if (ret < 0)
			return ret;
	}
}
