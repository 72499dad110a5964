/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <poll.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_pause.h>

#include "comch_test_common.h"
#include "comch_test_drivers.h"

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
ct_fd_readable(int fd, int timeout_ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	return poll(&pfd, 1, timeout_ms);
}

int
ct_count_fds(void)
{
	struct dirent *de;
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d)) != NULL)
		n += de->d_name[0] != '.';
	closedir(d);
	return n;
}

int
ct_group_setup(void **state)
{
	const struct ct_driver_desc *drv;
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
	drv = ct_driver_desc();
	if (drv == NULL) {
		fprintf(stderr, "COMCH_TEST_DRIVER=%s: not in test/comch_test_drivers.c\n",
			ct_driver());
		return -1;
	}
	if (drv->setup != NULL && drv->setup() < 0) {
		fprintf(stderr, "driver %s: its test set-up failed\n", drv->name);
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

const char *
ct_driver(void)
{
	const char *drv = getenv("COMCH_TEST_DRIVER");

	return drv != NULL && *drv != '\0' ? drv : "shm";
}

bool
ct_driver_is(const char *name)
{
	return strcmp(ct_driver(), name) == 0;
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
	if (ct_driver_desc()->devargs(devargs, sizeof(devargs), kv) >= (int)sizeof(devargs)) {
		rte_errno = E2BIG;
		return NULL;
	}
	return rte_comch_dev_open(devargs);
}

/* ------------------------------------------------------------- workers */

/*
 * EAL hands a function to a worker lcore and waits for it through its own
 * (uninstrumented) code, so a ThreadSanitizer build cannot see that the
 * launch orders what the main lcore wrote before it, nor that the wait
 * orders what the worker wrote. These two atomic words say it.
 */
struct ct_launch {
	lcore_function_t *fn;
	void *arg;
	void (*stop)(void *arg); /* makes fn return soon, for ct_reap_lcores() */
	int go;
	int done;
};
static struct ct_launch ct_launches[RTE_MAX_LCORE];

static int
ct_trampoline(void *arg)
{
	struct ct_launch *l = arg;
	int rc;

	while (__atomic_load_n(&l->go, __ATOMIC_ACQUIRE) == 0)
		rte_pause();
	rc = l->fn(l->arg);
	__atomic_store_n(&l->done, 1, __ATOMIC_RELEASE);
	return rc;
}

int
ct_remote_launch_stoppable(lcore_function_t *fn, void *arg, unsigned int lcore,
			   void (*stop)(void *arg))
{
	struct ct_launch *l = &ct_launches[lcore];
	int rc;

	l->fn = fn;
	l->arg = arg;
	l->stop = stop;
	l->done = 0;
	__atomic_store_n(&l->go, 1, __ATOMIC_RELEASE);
	rc = rte_eal_remote_launch(ct_trampoline, l, lcore);
	/* Nothing runs: a wait (ct_reap_lcores()'s) must not wait for it. */
	if (rc != 0)
		__atomic_store_n(&l->done, 1, __ATOMIC_RELEASE);
	return rc;
}

int
ct_remote_launch(lcore_function_t *fn, void *arg, unsigned int lcore)
{
	return ct_remote_launch_stoppable(fn, arg, lcore, NULL);
}

int
ct_reap_lcores(void **state)
{
	unsigned int lcore;

	(void)state;
	RTE_LCORE_FOREACH_WORKER(lcore) {
		struct ct_launch *l = &ct_launches[lcore];

		if (__atomic_load_n(&l->go, __ATOMIC_RELAXED) == 0)
			continue;
		if (l->stop != NULL)
			l->stop(l->arg);
		ct_wait_lcore(lcore);
	}
	return 0;
}

int
ct_wait_lcore(unsigned int lcore)
{
	struct ct_launch *l = &ct_launches[lcore];
	int rc = rte_eal_wait_lcore(lcore);

	while (__atomic_load_n(&l->done, __ATOMIC_ACQUIRE) == 0)
		rte_pause();
	__atomic_store_n(&l->go, 0, __ATOMIC_RELAXED);
	return rc;
}

/* -------------------------------------------------------------- progress */

bool
ct_inflight_is(void *arg)
{
	const struct ct_inflight *a = arg;
	uint32_t n = UINT32_MAX;

	return rte_comch_ctx_get_num_inflight_tasks(a->ctx, &n) == 0 && n == a->want;
}

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
	if (status != 0) {
		/* A client that could not connect: its connection lives for this call only. */
		if (rte_comch_connection_update_info(conn) == 0)
			s->bad_msgs++;
		if (s->nb_connect_failed < CT_MAX_LOG)
			s->connect_failed[s->nb_connect_failed] = status;
		s->nb_connect_failed++;
		if (s->on_connect != NULL)
			s->on_connect(s, conn, status);
		return;
	}
	if (s->nb_connect < CT_MAX_CONNS)
		s->conns[s->nb_connect] = conn;
	s->nb_connect++;
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

void
ct_new_consumer_cb(struct rte_comch_connection *conn, uint32_t consumer_id)
{
	struct ct_side *s = ct_side_of_conn(conn);

	if (s == NULL)
		return;
	if (s->nb_new_cons < CT_MAX_LOG)
		s->new_cons[s->nb_new_cons] = consumer_id;
	s->nb_new_cons++;
	s->new_cons_conn = conn;
}

void
ct_expired_consumer_cb(struct rte_comch_connection *conn, uint32_t consumer_id)
{
	struct ct_side *s = ct_side_of_conn(conn);

	if (s == NULL)
		return;
	if (s->nb_exp_cons < CT_MAX_LOG)
		s->exp_cons[s->nb_exp_cons] = consumer_id;
	s->nb_exp_cons++;
	s->exp_cons_conn = conn;
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
	if (cfg->fast)
		assert_int_equal(rte_comch_server_event_consumer_register(srv, ct_new_consumer_cb,
			ct_expired_consumer_cb), 0);
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
	if (cfg->fast)
		assert_int_equal(rte_comch_client_event_consumer_register(cli, ct_new_consumer_cb,
			ct_expired_consumer_cb), 0);
	if (cfg->cli_msg_size != 0)
		assert_int_equal(rte_comch_client_set_max_msg_size(cli, cfg->cli_msg_size), 0);
	if (cfg->cli_rq != 0)
		assert_int_equal(rte_comch_client_set_recv_queue_size(cli, cfg->cli_rq), 0);
	assert_int_equal(rte_comch_client_set_connect_timeout(cli,
		cfg->connect_timeout_ms != 0 ? cfg->connect_timeout_ms : CT_TIMEOUT_MS), 0);
	return cli;
}

/*
 * Open one device of a pair: kv, doorbell=bell and more devargs if a test
 * asked for them. They are given whatever the driver: a driver that does not
 * know one refuses the open, and the test fails saying so, rather than
 * running without what it asked for.
 */
static struct rte_comch_dev *
ct_pair_dev_open(const char *kv, const char *bell, const char *more)
{
	struct rte_comch_dev *dev;
	char args[200];

	if (snprintf(args, sizeof(args), "%s%s%s%s%s", kv, bell != NULL ? ",doorbell=" : "",
		     bell != NULL ? bell : "", more != NULL ? "," : "",
		     more != NULL ? more : "") >= (int)sizeof(args))
		fail_msg("devargs \"%s\" and what the test adds do not fit %zu bytes", kv,
			 sizeof(args));
	dev = ct_dev_open("%s", args);
	if (dev == NULL)
		fail_msg("the %s driver did not open \"%s\" (%s): a devarg it does not know?",
			 ct_driver(), args, rte_strerror(rte_errno));
	return dev;
}

static void
ct_pair_open_common(struct ct_pair *p, const struct ct_cfg *cfg, bool split)
{
	const char *bell = cfg != NULL ? cfg->doorbell : NULL;
	const char *more = cfg != NULL ? cfg->devargs : NULL;
	char kv[96];

	memset(p, 0, sizeof(*p));
	ct_domain(p->domain, sizeof(p->domain));
	snprintf(p->name, sizeof(p->name), "srv-%s", p->domain);
	snprintf(kv, sizeof(kv), "domain=%s,role=dpu,rep=pf0,rep=pf1", p->domain);
	p->dpu = ct_pair_dev_open(kv, bell, more);
	if (cfg != NULL && cfg->cli_doorbell != NULL)
		bell = cfg->cli_doorbell;
	snprintf(kv, sizeof(kv), "domain=%s,role=host,fn=pf0", p->domain);
	p->host = ct_pair_dev_open(kv, bell, more);
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
	while (p->nb_xpe > 0)
		assert_int_equal(rte_comch_pe_destroy(p->xpe[--p->nb_xpe]), 0);
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

/* -------------------------------------------------------------- fast path */

void
ct_fast_up(struct ct_pair *p, struct ct_cfg *cfg, enum ct_fast_mode mode)
{
	struct ct_cfg def = { .fast = true };

	if (cfg == NULL)
		cfg = &def;
	cfg->fast = true;
	if (mode == CT_FAST_ONE)
		ct_pair_open(p, cfg);
	else
		ct_pair_open_split(p, cfg);
	p->fmode = mode;
	ct_pair_connect(p);
}

struct rte_comch_pe *
ct_fast_pe(struct ct_pair *p, bool server_side)
{
	struct rte_comch_pe *pe;

	if (p->fmode != CT_FAST_OWN)
		return server_side ? p->pe : p->cpe;
	assert_true(p->nb_xpe < CT_MAX_XPE);
	pe = rte_comch_pe_create(RTE_COMCH_PE_LCORE_SELF);
	assert_non_null(pe);
	p->xpe[p->nb_xpe++] = pe;
	return pe;
}

int
ct_fast_progress(struct ct_pair *p)
{
	unsigned int i;
	int ret, n = 0;

	ret = rte_comch_pe_progress(p->pe);
	if (ret < 0)
		return ret;
	n += ret;
	if (p->cpe != p->pe) {
		ret = rte_comch_pe_progress(p->cpe);
		if (ret < 0)
			return ret;
		n += ret;
	}
	for (i = 0; i < p->nb_xpe; i++) {
		ret = rte_comch_pe_progress(p->xpe[i]);
		if (ret < 0)
			return ret;
		n += ret;
	}
	return n;
}

int
ct_fast_until(struct ct_pair *p, ct_pred_t pred, void *arg, unsigned int timeout_ms)
{
	uint64_t deadline = ct_now_ms() + timeout_ms;
	int ret;

	for (;;) {
		if (pred(arg))
			return 0;
		ret = ct_fast_progress(p);
		if (ret < 0)
			return ret;
		if (pred(arg))
			return 0;
		if (ct_now_ms() > deadline)
			return -ETIMEDOUT;
	}
}

int
ct_fast_wait_state(struct ct_pair *p, struct rte_comch_ctx *ctx, enum rte_comch_ctx_state st)
{
	struct ct_state_arg a = { .ctx = ctx, .st = st };

	return ct_fast_until(p, ct_state_pred, &a, CT_TIMEOUT_MS);
}

int
ct_fast_wait_count(struct ct_pair *p, const uint32_t *counter, uint32_t target)
{
	struct ct_count_arg a = { .counter = counter, .target = target };

	return ct_fast_until(p, ct_count_pred, &a, CT_TIMEOUT_MS);
}

void
ct_fast_progress_for(struct ct_pair *p, unsigned int ms)
{
	uint64_t deadline = ct_now_ms() + ms;

	while (ct_now_ms() < deadline)
		if (ct_fast_progress(p) < 0)
			return;
}

int
ct_side_knows(const struct ct_side *s, uint32_t id)
{
	int n = 0;
	uint32_t i;

	for (i = 0; i < RTE_MIN(s->nb_new_cons, (uint32_t)CT_MAX_LOG); i++)
		n += s->new_cons[i] == id;
	for (i = 0; i < RTE_MIN(s->nb_exp_cons, (uint32_t)CT_MAX_LOG); i++)
		n -= s->exp_cons[i] == id;
	return n;
}

struct ct_known_arg {
	const struct ct_side *s;
	uint32_t id;
	bool known;
};

static bool
ct_known_pred(void *arg)
{
	struct ct_known_arg *a = arg;

	return (ct_side_knows(a->s, a->id) > 0) == a->known;
}

int
ct_fast_wait_known(struct ct_pair *p, struct ct_side *s, uint32_t id, bool known)
{
	struct ct_known_arg a = { .s = s, .id = id, .known = known };

	return ct_fast_until(p, ct_known_pred, &a, CT_TIMEOUT_MS);
}

void
ct_fast_fill(uint8_t *buf, size_t len, uint32_t pid, uint32_t seq)
{
	size_t i;

	if (len >= CT_MSG_MIN_LEN) {
		ct_msg_fill(buf, (uint32_t)len, pid, seq);
		return;
	}
	for (i = 0; i < len; i++)
		buf[i] = ct_msg_byte(pid, seq, (uint32_t)i);
}

int
ct_fast_check(const uint8_t *buf, size_t len, uint32_t pid, uint32_t seq)
{
	uint32_t id, s;
	size_t i;

	if (len >= CT_MSG_MIN_LEN) {
		if (ct_msg_check(buf, (uint32_t)len, &id, &s) != 0)
			return -1;
		return (id == pid && s == seq) ? 0 : -1;
	}
	for (i = 0; i < len; i++)
		if (buf[i] != ct_msg_byte(pid, seq, (uint32_t)i))
			return -1;
	return 0;
}

void
ct_fast_imm(uint8_t *imm, uint32_t len, uint32_t pid, uint32_t seq)
{
	uint32_t i;

	for (i = 0; i < len; i++)
		imm[i] = ct_msg_byte(pid ^ 0x5a5aa5a5u, seq, i);
}

/* ---------------------------------------------------------- consumers */

uint32_t
ct_cons_next_seq(const struct ct_cons *c, uint32_t pid)
{
	uint32_t i;

	for (i = 0; i < c->nb_prods; i++)
		if (c->prod_id[i] == pid)
			return c->prod_next[i];
	return 0;
}

/* Check a completed message against the next one expected from its producer. */
static void
ct_cons_check(struct ct_cons *c, uint32_t pid, const void *data, size_t len,
	      const uint8_t *imm, uint32_t imm_len)
{
	uint8_t want[RTE_COMCH_MAX_IMM_DATA_LEN];
	uint32_t i;

	for (i = 0; i < c->nb_prods; i++)
		if (c->prod_id[i] == pid)
			break;
	if (i == c->nb_prods) {
		if (i == CT_MAX_PEERS) {
			c->bad++;
			return;
		}
		c->prod_id[i] = pid;
		c->prod_next[i] = 0;
		c->nb_prods++;
	}
	if (len > 0 && ct_fast_check(data, len, pid, c->prod_next[i]) != 0)
		c->bad++;
	ct_fast_imm(want, RTE_MIN(imm_len, (uint32_t)sizeof(want)), pid, c->prod_next[i]);
	if (imm_len > sizeof(want) || (imm_len > 0 && memcmp(want, imm, imm_len) != 0))
		c->bad++;
	c->prod_next[i]++;
}

void
ct_cons_task_release(struct rte_comch_consumer_task_post_recv *t)
{
	struct rte_comch_buf *buf = rte_comch_consumer_task_post_recv_get_buf(t);

	rte_comch_task_free(rte_comch_consumer_task_post_recv_as_task(t));
	if (buf != NULL)
		rte_comch_buf_dec_refcount(buf, NULL);
}

static void
ct_cons_ok_cb(struct rte_comch_consumer_task_post_recv *t, union rte_comch_data task_ud,
	      union rte_comch_data ctx_ud)
{
	struct ct_cons *c = ctx_ud.ptr;
	struct rte_comch_buf *buf = rte_comch_consumer_task_post_recv_get_buf(t);
	const uint8_t *imm;
	uint32_t imm_len = 0, pid = UINT32_MAX;

	(void)task_ud;
	c->nb_ok++;
	c->last_task = t;
	c->last_status = rte_comch_task_get_status(rte_comch_consumer_task_post_recv_as_task(t));
	if (c->last_status != 0)
		c->bad++;
	if (rte_comch_consumer_task_post_recv_get_producer_id(t, &pid) != 0)
		c->bad++;
	imm = rte_comch_consumer_task_post_recv_get_imm_data(t, &imm_len);
	if (imm == NULL && imm_len > 0)
		c->bad++;
	c->last_prod_id = pid;
	c->last_imm_len = imm_len;
	if (imm != NULL)
		memcpy(c->last_imm, imm, RTE_MIN(imm_len, (uint32_t)sizeof(c->last_imm)));
	c->last_data = buf != NULL ? buf->data : NULL;
	c->last_data_len = buf != NULL ? buf->data_len : 0;
	if (buf != NULL) {
		/* the data starts at the head of the posted piece, and fits in it */
		if (buf->data != buf->head || buf->data_len > buf->len)
			c->bad++;
		c->bytes += buf->data_len;
	}
	if (c->check)
		ct_cons_check(c, pid, c->last_data, c->last_data_len, imm, imm_len);
	if (c->on_done != NULL)
		c->on_done(c, t, 0);
	if (c->keep_tasks)
		return;
	if (c->repost) {
		if (ct_cons_repost(t) == 0)
			return;
		c->nb_repost_fail++;
	}
	ct_cons_task_release(t);
}

static void
ct_cons_err_cb(struct rte_comch_consumer_task_post_recv *t, union rte_comch_data task_ud,
	       union rte_comch_data ctx_ud)
{
	struct ct_cons *c = ctx_ud.ptr;
	int st = rte_comch_task_get_status(rte_comch_consumer_task_post_recv_as_task(t));

	(void)task_ud;
	if (c->nb_err < CT_MAX_LOG)
		c->err_status[c->nb_err] = st;
	c->nb_err++;
	c->last_task = t;
	c->last_status = st;
	if (st == 0)
		c->bad++; /* an error callback must carry an error */
	if (c->on_done != NULL)
		c->on_done(c, t, st);
	if (!c->keep_tasks)
		ct_cons_task_release(t);
}

void
ct_cons_new(struct ct_cons *c, struct rte_comch_connection *conn, struct rte_comch_pe *pe,
	    uint32_t nb_slots, size_t slot, uint32_t imm_len)
{
	ct_cons_new_user(c, conn, pe, nb_slots, slot, imm_len, NULL);
}

void
ct_cons_new_user(struct ct_cons *c, struct rte_comch_connection *conn, struct rte_comch_pe *pe,
		 uint32_t nb_slots, size_t slot, uint32_t imm_len, void *user_mem)
{
	union rte_comch_data ud = { .ptr = c };
	void *addr;

	memset(c, 0, sizeof(*c));
	c->pe = pe;
	c->slot = slot;
	c->nb_slots = nb_slots;
	c->mem_len = RTE_MAX((size_t)nb_slots * slot, (size_t)4096);
	c->mmap = rte_comch_mmap_create();
	assert_non_null(c->mmap);
	assert_int_equal(rte_comch_mmap_add_dev(c->mmap, rte_comch_connection_get_device(conn)), 0);
	if (user_mem != NULL)
		assert_int_equal(rte_comch_mmap_set_memrange(c->mmap, user_mem, c->mem_len), 0);
	else
		assert_int_equal(rte_comch_mmap_alloc_memrange(c->mmap, c->mem_len), 0);
	assert_int_equal(rte_comch_mmap_set_permissions(c->mmap,
		RTE_COMCH_MMAP_PERM_LOCAL_READ_WRITE | RTE_COMCH_MMAP_PERM_PCI_READ_WRITE), 0);
	assert_int_equal(rte_comch_mmap_get_memrange(c->mmap, &addr, &c->mem_len), 0);
	c->mem = addr;
	assert_int_equal(rte_comch_mmap_start(c->mmap), 0);
	c->pool = rte_comch_buf_pool_create(nb_slots + 2);
	assert_non_null(c->pool);
	c->cons = rte_comch_consumer_create(conn, c->mmap);
	assert_non_null(c->cons);
	c->ctx = rte_comch_consumer_as_ctx(c->cons);
	assert_non_null(c->ctx);
	assert_int_equal(rte_comch_consumer_get_id(c->cons, &c->id), 0);
	assert_int_equal(rte_comch_ctx_set_user_data(c->ctx, ud), 0);
	assert_int_equal(rte_comch_consumer_set_imm_data_len(c->cons, imm_len), 0);
	assert_int_equal(rte_comch_consumer_task_post_recv_set_conf(c->cons, ct_cons_ok_cb,
		ct_cons_err_cb, nb_slots), 0);
	assert_int_equal(rte_comch_pe_connect_ctx(pe, c->ctx), 0);
}

void
ct_cons_start(struct ct_pair *p, struct ct_cons *c, struct ct_side *peer)
{
	assert_int_equal(rte_comch_ctx_start(c->ctx), -EINPROGRESS);
	assert_int_equal(ct_fast_wait_state(p, c->ctx, RTE_COMCH_CTX_STATE_RUNNING), 0);
	if (peer != NULL)
		assert_int_equal(ct_fast_wait_known(p, peer, c->id, true), 0);
}

int
ct_cons_post(struct ct_cons *c, uint32_t i, struct rte_comch_consumer_task_post_recv **taskp)
{
	struct rte_comch_consumer_task_post_recv *t = NULL;
	struct rte_comch_buf *buf = NULL;
	int ret;

	if (c->slot != 0) {
		ret = rte_comch_buf_pool_get_by_addr(c->pool, c->mmap, c->mem + (size_t)i * c->slot,
						     c->slot, &buf);
		if (ret != 0)
			return ret;
	}
	ret = rte_comch_consumer_task_post_recv_alloc_init(c->cons, buf, &t);
	if (ret != 0) {
		if (buf != NULL)
			rte_comch_buf_dec_refcount(buf, NULL);
		return ret;
	}
	ret = rte_comch_task_submit(rte_comch_consumer_task_post_recv_as_task(t));
	if (ret != 0 && taskp == NULL)
		ct_cons_task_release(t);
	if (taskp != NULL)
		*taskp = t;
	return ret;
}

int
ct_cons_repost(struct rte_comch_consumer_task_post_recv *t)
{
	struct rte_comch_buf *buf = rte_comch_consumer_task_post_recv_get_buf(t);

	if (buf != NULL)
		rte_comch_buf_reset_data_len(buf);
	return rte_comch_task_submit(rte_comch_consumer_task_post_recv_as_task(t));
}

void
ct_cons_post_all(struct ct_cons *c)
{
	uint32_t i;

	for (i = 0; i < c->nb_slots; i++)
		assert_int_equal(ct_cons_post(c, i, NULL), 0);
}

void
ct_cons_stop(struct ct_pair *p, struct ct_cons *c, struct ct_side *peer)
{
	enum rte_comch_ctx_state st;
	int ret;

	assert_int_equal(rte_comch_ctx_get_state(c->ctx, &st), 0);
	if (st != RTE_COMCH_CTX_STATE_IDLE && st != RTE_COMCH_CTX_STATE_STOPPING) {
		ret = rte_comch_ctx_stop(c->ctx);
		assert_true(ret == 0 || ret == -EINPROGRESS);
	}
	assert_int_equal(ct_fast_wait_state(p, c->ctx, RTE_COMCH_CTX_STATE_IDLE), 0);
	if (peer != NULL)
		assert_int_equal(ct_fast_wait_known(p, peer, c->id, false), 0);
}

void
ct_fast_close_all(struct ct_pair *p, struct ct_prod *pr, uint32_t nb_pr, struct ct_cons *c,
		  uint32_t nb_c)
{
	uint32_t i;

	for (i = 0; i < nb_pr; i++) {
		ct_prod_stop(p, &pr[i]);
		ct_prod_free(&pr[i]);
	}
	for (i = 0; i < nb_c; i++) {
		ct_cons_stop(p, &c[i], NULL);
		ct_cons_free(&c[i]);
	}
	ct_pair_close(p);
}

void
ct_cons_free(struct ct_cons *c)
{
	assert_int_equal(rte_comch_consumer_destroy(c->cons), 0);
	assert_int_equal(rte_comch_buf_pool_destroy(c->pool), 0);
	assert_int_equal(rte_comch_mmap_stop(c->mmap), 0);
	assert_int_equal(rte_comch_mmap_destroy(c->mmap), 0);
	c->cons = NULL;
	c->ctx = NULL;
}

/* ---------------------------------------------------------- producers */

void
ct_prod_task_release(struct rte_comch_producer_task_send *t)
{
	struct rte_comch_buf *buf = rte_comch_producer_task_send_get_buf(t);

	rte_comch_task_free(rte_comch_producer_task_send_as_task(t));
	if (buf != NULL)
		rte_comch_buf_dec_refcount(buf, NULL);
}

static void
ct_prod_ok_cb(struct rte_comch_producer_task_send *t, union rte_comch_data task_ud,
	      union rte_comch_data ctx_ud)
{
	struct ct_prod *pr = ctx_ud.ptr;

	pr->nb_ok++;
	pr->last_task = t;
	pr->last_task_ud = task_ud;
	if (!pr->keep_tasks)
		ct_prod_task_release(t);
}

static void
ct_prod_err_cb(struct rte_comch_producer_task_send *t, union rte_comch_data task_ud,
	       union rte_comch_data ctx_ud)
{
	struct ct_prod *pr = ctx_ud.ptr;

	if (pr->nb_err < CT_MAX_LOG)
		pr->err_status[pr->nb_err] =
			rte_comch_task_get_status(rte_comch_producer_task_send_as_task(t));
	pr->nb_err++;
	pr->last_task = t;
	pr->last_task_ud = task_ud;
	if (!pr->keep_tasks)
		ct_prod_task_release(t);
}

void
ct_prod_new(struct ct_prod *pr, struct rte_comch_connection *conn, struct rte_comch_pe *pe,
	    uint32_t num_tasks, size_t mem_len, bool start)
{
	union rte_comch_data ud = { .ptr = pr };
	enum rte_comch_ctx_state st;
	void *addr;

	memset(pr, 0, sizeof(*pr));
	pr->pe = pe;
	pr->mmap = rte_comch_mmap_create();
	assert_non_null(pr->mmap);
	assert_int_equal(rte_comch_mmap_add_dev(pr->mmap, rte_comch_connection_get_device(conn)),
			 0);
	assert_int_equal(rte_comch_mmap_alloc_memrange(pr->mmap, RTE_MAX(mem_len,
		(size_t)4096)), 0);
	assert_int_equal(rte_comch_mmap_get_memrange(pr->mmap, &addr, &pr->mem_len), 0);
	pr->mem = addr;
	assert_int_equal(rte_comch_mmap_start(pr->mmap), 0);
	pr->pool = rte_comch_buf_pool_create(num_tasks + 2);
	assert_non_null(pr->pool);
	pr->prod = rte_comch_producer_create(conn);
	assert_non_null(pr->prod);
	pr->ctx = rte_comch_producer_as_ctx(pr->prod);
	assert_non_null(pr->ctx);
	assert_int_equal(rte_comch_producer_get_id(pr->prod, &pr->id), 0);
	assert_int_equal(rte_comch_ctx_set_user_data(pr->ctx, ud), 0);
	assert_int_equal(rte_comch_producer_task_send_set_conf(pr->prod, ct_prod_ok_cb,
		ct_prod_err_cb, num_tasks), 0);
	assert_int_equal(rte_comch_pe_connect_ctx(pe, pr->ctx), 0);
	if (!start)
		return;
	assert_int_equal(rte_comch_ctx_start(pr->ctx), 0);
	assert_int_equal(rte_comch_ctx_get_state(pr->ctx, &st), 0);
	assert_int_equal(st, RTE_COMCH_CTX_STATE_RUNNING);
}

static uint32_t *
ct_prod_seq(struct ct_prod *pr, uint32_t cons_id)
{
	uint32_t i;

	for (i = 0; i < pr->nb_cons; i++)
		if (pr->cons_id[i] == cons_id)
			return &pr->cons_next[i];
	if (i == CT_MAX_PEERS)
		return NULL;
	pr->cons_id[i] = cons_id;
	pr->cons_next[i] = 0;
	pr->nb_cons++;
	return &pr->cons_next[i];
}

int
ct_prod_send(struct ct_prod *pr, uint32_t cons_id, size_t len, uint32_t imm_len,
	     struct rte_comch_producer_task_send **taskp)
{
	uint8_t imm[RTE_COMCH_MAX_IMM_DATA_LEN + 8];
	struct rte_comch_producer_task_send *t = NULL;
	struct rte_comch_buf *buf = NULL;
	uint32_t *seq = ct_prod_seq(pr, cons_id);
	int ret;

	if (seq == NULL || (len != CT_NOBUF && len > pr->mem_len) || imm_len > sizeof(imm))
		return -E2BIG; /* a test bug, not a library answer */
	if (len != CT_NOBUF) {
		ct_fast_fill(pr->mem, len, pr->id, *seq);
		if (len == 0)
			ret = rte_comch_buf_pool_get_by_addr(pr->pool, pr->mmap, pr->mem, 1, &buf);
		else
			ret = rte_comch_buf_pool_get_by_data(pr->pool, pr->mmap, pr->mem, len,
							     &buf);
		if (ret != 0)
			return ret;
	}
	ct_fast_imm(imm, imm_len, pr->id, *seq);
	ret = rte_comch_producer_task_send_alloc_init(pr->prod, buf, imm_len > 0 ? imm : NULL,
						      imm_len, cons_id, &t);
	if (ret != 0) {
		if (buf != NULL)
			rte_comch_buf_dec_refcount(buf, NULL);
		return ret;
	}
	ret = rte_comch_task_submit(rte_comch_producer_task_send_as_task(t));
	if (ret == 0) {
		(*seq)++;
		pr->nb_sent++;
	} else if (taskp == NULL) {
		ct_prod_task_release(t);
	}
	if (taskp != NULL)
		*taskp = t;
	return ret;
}

int
ct_prod_send_retry(struct ct_pair *p, struct ct_prod *pr, uint32_t cons_id, size_t len,
		   uint32_t imm_len, uint32_t *nb_again)
{
	uint64_t deadline = ct_now_ms() + CT_TIMEOUT_MS;
	int ret;

	for (;;) {
		ret = ct_prod_send(pr, cons_id, len, imm_len, NULL);
		if (ret != -EAGAIN || ct_now_ms() > deadline)
			return ret;
		if (nb_again != NULL)
			(*nb_again)++;
		ret = ct_fast_progress(p);
		if (ret < 0)
			return ret;
	}
}

void
ct_prod_stop(struct ct_pair *p, struct ct_prod *pr)
{
	enum rte_comch_ctx_state st;
	int ret;

	assert_int_equal(rte_comch_ctx_get_state(pr->ctx, &st), 0);
	if (st != RTE_COMCH_CTX_STATE_IDLE && st != RTE_COMCH_CTX_STATE_STOPPING) {
		ret = rte_comch_ctx_stop(pr->ctx);
		assert_true(ret == 0 || ret == -EINPROGRESS);
	}
	assert_int_equal(ct_fast_wait_state(p, pr->ctx, RTE_COMCH_CTX_STATE_IDLE), 0);
}

void
ct_prod_free(struct ct_prod *pr)
{
	assert_int_equal(rte_comch_producer_destroy(pr->prod), 0);
	assert_int_equal(rte_comch_buf_pool_destroy(pr->pool), 0);
	assert_int_equal(rte_comch_mmap_stop(pr->mmap), 0);
	assert_int_equal(rte_comch_mmap_destroy(pr->mmap), 0);
	pr->prod = NULL;
	pr->ctx = NULL;
}
