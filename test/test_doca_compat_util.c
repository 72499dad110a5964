/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/* Helpers of the DOCA compatibility layer's suites: see test_doca_compat.h. */

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <rte_eal.h>

#include "test_doca_compat.h"

bool dt_in_child;
static unsigned int dt_seq;
static char dt_dir[256];

/* ------------------------------------------------------------- assertions */

void
dt_fail(const char *file, int line, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (dt_in_child) {
		fprintf(stderr, "%s:%d: check failed: %s\n", file, line, msg);
		fflush(NULL);
		_exit(1);
	}
	print_error("%s:%d: %s\n", file, line, msg);
	_fail(file, line);
	abort(); /* not reached: _fail() leaves the test */
}

/* ------------------------------------------------------ environment, files */

uint64_t
dt_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static int
dt_rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

void
dt_rm_tree(const char *path)
{
	if (path != NULL && path[0] != '\0')
		nftw(path, dt_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

void
dt_eal_rundir(const char *prefix, char *buf, size_t len)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");

	if (geteuid() == 0)
		snprintf(buf, len, "/var/run/dpdk/%s", prefix);
	else if (xdg != NULL && xdg[0] != '\0')
		snprintf(buf, len, "%s/dpdk/%s", xdg, prefix);
	else
		snprintf(buf, len, "/tmp/dpdk/%s", prefix);
}

void
dt_mkdtemp(char *buf, size_t len)
{
	snprintf(buf, len, "/tmp/doca-test-XXXXXX");
	if (mkdtemp(buf) == NULL) {
		fprintf(stderr, "mkdtemp: %s\n", strerror(errno));
		abort();
	}
}

void
dt_unique(char *buf, size_t len, const char *tag)
{
	snprintf(buf, len, "%s%dx%u", tag, (int)getpid(), dt_seq++);
}

void
dt_env_clear(void)
{
	unsetenv("RTE_COMCH_DOCA_DEVICES");
	unsetenv("RTE_COMCH_DOCA_REPS");
	unsetenv("RTE_COMCH_DOCA_CONFIG");
	unsetenv("RTE_COMCH_DOCA_EAL_ARGS");
}

void
dt_env_setup(void)
{
	char domain[32], devs[1024];

	dt_env_clear();
	dt_mkdtemp(dt_dir, sizeof(dt_dir));
	dt_unique(domain, sizeof(domain), "dc");
	snprintf(devs, sizeof(devs),
		 "03:00.0=shm:domain=%s,role=dpu,dir=%s;04:00.0=shm:domain=%s,role=host,dir=%s",
		 domain, dt_dir, domain, dt_dir);
	setenv("RTE_COMCH_DOCA_DEVICES", devs, 1);
}

void
dt_env_teardown(void)
{
	char rundir[1024];
	const char *r = rte_eal_get_runtime_dir();

	/* An EAL that never started has no runtime directory. */
	if (r != NULL && r[0] != '\0') {
		snprintf(rundir, sizeof(rundir), "%s", r);
		rte_eal_cleanup();
		if (strstr(rundir, "/doca-") != NULL)
			dt_rm_tree(rundir);
	}
	dt_rm_tree(dt_dir);
}

const char *
dt_env_dir(void)
{
	return dt_dir;
}

/* --------------------------------------------------------- forked children */

void
dt_child_start(struct dt_child *c, const char *name, dt_child_fn_t fn, void *arg)
{
	pid_t parent = getpid();
	int fd, rc;

	memset(c, 0, sizeof(*c));
	snprintf(c->log, sizeof(c->log), "/tmp/doca-test-%d-%u-%s.log", (int)parent, dt_seq++,
		 name);
	fflush(NULL);
	c->pid = fork();
	if (c->pid < 0)
		fail_msg("fork: %s", strerror(errno));
	if (c->pid > 0)
		return;
	/* die with the test, whatever happens to it */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	/*
	 * A crash ends the child with its signal: cmocka's handlers, inherited,
	 * would jump back into the parent's copy of the test runner instead.
	 */
	signal(SIGSEGV, SIG_DFL);
	signal(SIGBUS, SIG_DFL);
	signal(SIGILL, SIG_DFL);
	signal(SIGFPE, SIG_DFL);
	signal(SIGSYS, SIG_DFL);
	signal(SIGABRT, SIG_DFL);
	fd = open(c->log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		_exit(127);
	dup2(fd, STDOUT_FILENO);
	dup2(fd, STDERR_FILENO);
	close(fd);
	dt_in_child = true;
	rc = fn(arg);
	fflush(NULL);
	_exit(rc & 0xff);
}

static void
dt_child_dump(const struct dt_child *c)
{
	char line[1024];
	FILE *f = fopen(c->log, "r");

	fprintf(stderr, "---- child %d (%s), status %d:\n", (int)c->pid, c->log, c->status);
	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL)
		fprintf(stderr, "  | %s", line);
	fclose(f);
	fprintf(stderr, "----\n");
}

int
dt_child_wait(struct dt_child *c, unsigned int timeout_ms)
{
	uint64_t deadline = dt_now_ms() + timeout_ms;
	char prefix[64], rundir[512];
	pid_t pid = c->pid;
	int st;

	if (pid == 0)
		return c->status;
	for (;;) {
		pid_t r = waitpid(pid, &st, WNOHANG);

		if (r == pid) {
			c->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
			break;
		}
		if (dt_now_ms() > deadline) {
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			c->status = -1;
			break;
		}
		usleep(10 * 1000);
	}
	if (c->status != 0)
		dt_child_dump(c);
	/* EAL's runtime files of the layer's default file prefix */
	snprintf(prefix, sizeof(prefix), "doca-%d", (int)pid);
	dt_eal_rundir(prefix, rundir, sizeof(rundir));
	dt_rm_tree(rundir);
	c->pid = 0;
	return c->status;
}

int
dt_child_run(struct dt_child *c, const char *name, dt_child_fn_t fn, void *arg)
{
	dt_child_start(c, name, fn, arg);
	return dt_child_wait(c, DT_CHILD_TIMEOUT_MS);
}

bool
dt_child_log_has(const struct dt_child *c, const char *s)
{
	char line[2048];
	bool found = false;
	FILE *f = fopen(c->log, "r");

	if (f == NULL)
		return false;
	while (!found && fgets(line, sizeof(line), f) != NULL)
		found = strstr(line, s) != NULL;
	fclose(f);
	return found;
}

void
dt_child_done(struct dt_child *c)
{
	if (c->log[0] != '\0')
		unlink(c->log);
}

/* ------------------------------------------------------------- progress */

bool
dt_progress_until(struct doca_pe *pe, dt_pred_t pred, void *arg)
{
	uint64_t deadline = dt_now_ms() + DT_TIMEOUT_MS;

	for (;;) {
		if (pred(arg))
			return true;
		if (doca_pe_progress(pe) == 0)
			sched_yield();
		if (pred(arg))
			return true;
		if (dt_now_ms() > deadline)
			return false;
	}
}

struct dt_state_arg {
	struct doca_ctx *ctx;
	enum doca_ctx_states st;
};

static bool
dt_state_is(void *arg)
{
	struct dt_state_arg *a = arg;
	enum doca_ctx_states st;

	return doca_ctx_get_state(a->ctx, &st) == DOCA_SUCCESS && st == a->st;
}

bool
dt_wait_state(struct doca_pe *pe, struct doca_ctx *ctx, enum doca_ctx_states st)
{
	struct dt_state_arg a = { .ctx = ctx, .st = st };

	return dt_progress_until(pe, dt_state_is, &a);
}

struct dt_count_arg {
	const uint32_t *counter;
	uint32_t target;
};

static bool
dt_count_reached(void *arg)
{
	struct dt_count_arg *a = arg;

	return *(volatile const uint32_t *)a->counter >= a->target;
}

bool
dt_wait_count(struct doca_pe *pe, const uint32_t *counter, uint32_t target)
{
	struct dt_count_arg a = { .counter = counter, .target = target };

	return dt_progress_until(pe, dt_count_reached, &a);
}

enum doca_ctx_states
dt_state(const struct doca_ctx *ctx)
{
	enum doca_ctx_states st = DOCA_CTX_STATE_IDLE;

	DT_OK(doca_ctx_get_state(ctx, &st));
	return st;
}

/* ------------------------------------------------ recording callbacks */

/* The recorder of the server or client a connection belongs to, through its ctx user data. */
static struct dt_rec *
dt_rec_of_conn(struct doca_comch_connection *conn)
{
	struct doca_comch_server *s = doca_comch_server_get_server_ctx(conn);
	struct doca_comch_client *c = doca_comch_client_get_client_ctx(conn);
	union doca_data ud = { .ptr = NULL };
	struct doca_ctx *ctx;

	ctx = s != NULL ? doca_comch_server_as_ctx(s) : doca_comch_client_as_ctx(c);
	if (ctx == NULL || doca_ctx_get_user_data(ctx, &ud) != DOCA_SUCCESS || ud.ptr == NULL) {
		/* Never longjmp out of a callback: say it and stop the process. */
		fprintf(stderr, "doca test: a connection with no recorder (server %p client %p)\n",
			(void *)s, (void *)c);
		abort();
	}
	return ud.ptr;
}

void
dt_state_cb(const union doca_data user_data, struct doca_ctx *ctx,
	    enum doca_ctx_states prev_state, enum doca_ctx_states next_state)
{
	struct dt_rec *r = user_data.ptr;

	if (r->nb_states < DT_MAX_LOG) {
		r->prev[r->nb_states] = prev_state;
		r->next[r->nb_states] = next_state;
	}
	r->nb_states++;
	r->state_ctx = ctx;
	r->state_ud = user_data;
}

static void
dt_send_done(struct doca_comch_task_send *task, union doca_data task_user_data,
	     union doca_data ctx_user_data, bool ok)
{
	struct dt_rec *r = ctx_user_data.ptr;
	struct doca_task *t = doca_comch_task_send_as_task(task);

	if (ok)
		r->nb_send_ok++;
	else
		r->nb_send_err++;
	r->last_status = doca_task_get_status(t);
	r->last_task_ud = task_user_data;
	r->last_ctx_ud = ctx_user_data;
	r->last_task_ctx = doca_task_get_ctx(t);
	r->last_task = task;
	if (!r->keep_tasks)
		doca_task_free(t);
}

void
dt_send_ok_cb(struct doca_comch_task_send *task, union doca_data task_user_data,
	      union doca_data ctx_user_data)
{
	dt_send_done(task, task_user_data, ctx_user_data, true);
}

void
dt_send_err_cb(struct doca_comch_task_send *task, union doca_data task_user_data,
	       union doca_data ctx_user_data)
{
	dt_send_done(task, task_user_data, ctx_user_data, false);
}

void
dt_recv_cb(struct doca_comch_event_msg_recv *event, uint8_t *recv_buffer, uint32_t msg_len,
	   struct doca_comch_connection *conn)
{
	struct dt_rec *r = dt_rec_of_conn(conn);

	(void)event;
	r->nb_recv++;
	r->last_len = msg_len;
	memcpy(r->last_msg, recv_buffer,
	       msg_len < sizeof(r->last_msg) ? msg_len : sizeof(r->last_msg));
	r->last_recv_conn = conn;
	r->last_recv_conn_ud = doca_comch_connection_get_user_data(conn);
}

void
dt_connect_cb(struct doca_comch_event_connection_status_changed *event,
	      struct doca_comch_connection *conn, uint8_t change_successful)
{
	struct dt_rec *r = dt_rec_of_conn(conn);

	(void)event;
	r->last_change_ok = change_successful;
	/* A client that could not connect: its connection lives for this call only. */
	if (!change_successful) {
		r->nb_connect_failed++;
		return;
	}
	r->nb_connect++;
	r->conn = conn;
}

void
dt_disconnect_cb(struct doca_comch_event_connection_status_changed *event,
		 struct doca_comch_connection *conn, uint8_t change_successful)
{
	struct dt_rec *r = dt_rec_of_conn(conn);

	(void)event;
	r->nb_disconnect++;
	r->last_change_ok = change_successful;
}

void
dt_new_cons_cb(struct doca_comch_event_consumer *event, struct doca_comch_connection *conn,
	       uint32_t id)
{
	struct dt_rec *r = dt_rec_of_conn(conn);

	(void)event;
	r->nb_new_cons++;
	r->new_cons_id = id;
	r->new_cons_conn = conn;
}

void
dt_exp_cons_cb(struct doca_comch_event_consumer *event, struct doca_comch_connection *conn,
	       uint32_t id)
{
	struct dt_rec *r = dt_rec_of_conn(conn);

	(void)event;
	r->nb_exp_cons++;
	r->exp_cons_id = id;
	r->exp_cons_conn = conn;
}

void
dt_dummy_state_cb(const union doca_data user_data, struct doca_ctx *ctx,
		  enum doca_ctx_states prev_state, enum doca_ctx_states next_state)
{
	(void)user_data;
	(void)ctx;
	(void)prev_state;
	(void)next_state;
}

void
dt_dummy_prod_cb(struct doca_comch_producer_task_send *task, union doca_data task_user_data,
		 union doca_data ctx_user_data)
{
	(void)task;
	(void)task_user_data;
	(void)ctx_user_data;
}

void
dt_dummy_cons_cb(struct doca_comch_consumer_task_post_recv *task, union doca_data task_user_data,
		 union doca_data ctx_user_data)
{
	(void)task;
	(void)task_user_data;
	(void)ctx_user_data;
}

/* ------------------------------------------------------- server and client */

struct doca_dev *
dt_dev_open(const char *pci)
{
	struct doca_devinfo **list = NULL;
	struct doca_dev *dev = NULL;
	uint32_t n = 0, i;
	uint8_t eq;

	DT_OK(doca_devinfo_create_list(&list, &n));
	for (i = 0; i < n && dev == NULL; i++) {
		eq = 1;
		if (pci != NULL)
			DT_OK(doca_devinfo_is_equal_pci_addr(list[i], pci, &eq));
		if (eq)
			DT_OK(doca_dev_open(list[i], &dev));
	}
	DT_OK(doca_devinfo_destroy_list(list));
	DT_ASSERT(dev != NULL);
	return dev;
}

struct doca_dev_rep *
dt_rep_open(struct doca_dev *dev)
{
	struct doca_devinfo_rep **list = NULL;
	struct doca_dev_rep *rep = NULL;
	uint32_t n = 0;

	DT_OK(doca_devinfo_rep_create_list(dev, DOCA_DEVINFO_REP_FILTER_NET, &list, &n));
	DT_ASSERT(n >= 1);
	DT_OK(doca_dev_rep_open(list[0], &rep));
	DT_OK(doca_devinfo_rep_destroy_list(list));
	return rep;
}

void
dt_pair_open(struct dt_pair *p)
{
	p->dpu = dt_dev_open("03:00.0");
	p->host = dt_dev_open("04:00.0");
	p->rep = dt_rep_open(p->dpu);
	DT_OK(doca_pe_create(&p->pe));
}

void
dt_server_create(struct dt_pair *p, uint32_t num_send_tasks)
{
	struct doca_ctx *ctx;

	if (p->name[0] == '\0')
		dt_unique(p->name, sizeof(p->name), "srv");
	DT_OK(doca_comch_server_create(p->dpu, p->rep, p->name, &p->server));
	ctx = doca_comch_server_as_ctx(p->server);
	DT_ASSERT(ctx != NULL);
	p->srec.ctx = ctx;
	DT_OK(doca_ctx_set_user_data(ctx, (union doca_data){ .ptr = &p->srec }));
	DT_OK(doca_ctx_set_state_changed_cb(ctx, dt_state_cb));
	DT_OK(doca_comch_server_task_send_set_conf(p->server, dt_send_ok_cb, dt_send_err_cb,
						   num_send_tasks));
	DT_OK(doca_comch_server_event_msg_recv_register(p->server, dt_recv_cb));
	DT_OK(doca_comch_server_event_connection_status_changed_register(p->server, dt_connect_cb,
									 dt_disconnect_cb));
	DT_OK(doca_comch_server_event_consumer_register(p->server, dt_new_cons_cb, dt_exp_cons_cb));
	DT_OK(doca_pe_connect_ctx(p->pe, ctx));
}

void
dt_client_create(struct dt_pair *p, uint32_t num_send_tasks)
{
	struct doca_ctx *ctx;

	DT_OK(doca_comch_client_create(p->host, p->name, &p->client));
	ctx = doca_comch_client_as_ctx(p->client);
	DT_ASSERT(ctx != NULL);
	p->crec.ctx = ctx;
	DT_OK(doca_ctx_set_user_data(ctx, (union doca_data){ .ptr = &p->crec }));
	DT_OK(doca_ctx_set_state_changed_cb(ctx, dt_state_cb));
	DT_OK(doca_comch_client_task_send_set_conf(p->client, dt_send_ok_cb, dt_send_err_cb,
						   num_send_tasks));
	DT_OK(doca_comch_client_event_msg_recv_register(p->client, dt_recv_cb));
	DT_OK(doca_comch_client_event_consumer_register(p->client, dt_new_cons_cb, dt_exp_cons_cb));
	DT_OK(doca_pe_connect_ctx(p->pe, ctx));
}

static bool
dt_pair_connected(void *arg)
{
	struct dt_pair *p = arg;
	enum doca_ctx_states st;

	return p->srec.nb_connect >= 1 &&
	       doca_ctx_get_state(p->crec.ctx, &st) == DOCA_SUCCESS && st == DOCA_CTX_STATE_RUNNING;
}

void
dt_pair_connect(struct dt_pair *p)
{
	DT_OK(doca_ctx_start(p->srec.ctx));
	DT_ERR(doca_ctx_start(p->crec.ctx), DOCA_ERROR_IN_PROGRESS);
	DT_ASSERT(dt_progress_until(p->pe, dt_pair_connected, p));
	DT_OK(doca_comch_client_get_connection(p->client, &p->cconn));
	DT_ASSERT(p->cconn != NULL);
	p->sconn = p->srec.conn;
	DT_ASSERT(p->sconn != NULL);
}

void
dt_pair_up(struct dt_pair *p)
{
	dt_pair_open(p);
	dt_server_create(p, 8);
	dt_client_create(p, 8);
	dt_pair_connect(p);
}

/* Stop a context if it runs and wait until it is IDLE; false if it would not. */
static bool
dt_ctx_down(struct doca_pe *pe, struct doca_ctx *ctx)
{
	enum doca_ctx_states st;
	doca_error_t r;

	if (doca_ctx_get_state(ctx, &st) != DOCA_SUCCESS)
		return false;
	if (st == DOCA_CTX_STATE_IDLE)
		return true;
	r = doca_ctx_stop(ctx);
	if (r != DOCA_SUCCESS && r != DOCA_ERROR_IN_PROGRESS) {
		fprintf(stderr, "doca test: stop: %s\n", doca_error_get_name(r));
		return false;
	}
	return dt_wait_state(pe, ctx, DOCA_CTX_STATE_IDLE);
}

static bool
dt_check(doca_error_t r, const char *what)
{
	if (r == DOCA_SUCCESS)
		return true;
	fprintf(stderr, "doca test: tear-down: %s: %s\n", what, doca_error_get_name(r));
	return false;
}

bool
dt_pair_down(struct dt_pair *p)
{
	bool ok = true;

	/* the client first: the server then has no connection to drain */
	if (p->client != NULL)
		ok &= dt_ctx_down(p->pe, p->crec.ctx);
	if (p->server != NULL)
		ok &= dt_ctx_down(p->pe, p->srec.ctx);
	if (p->client != NULL && dt_check(doca_comch_client_destroy(p->client), "client"))
		p->client = NULL;
	if (p->server != NULL && dt_check(doca_comch_server_destroy(p->server), "server"))
		p->server = NULL;
	if (p->pe != NULL && dt_check(doca_pe_destroy(p->pe), "pe"))
		p->pe = NULL;
	if (p->rep != NULL && dt_check(doca_dev_rep_close(p->rep), "rep"))
		p->rep = NULL;
	if (p->host != NULL && dt_check(doca_dev_close(p->host), "host dev"))
		p->host = NULL;
	if (p->dpu != NULL && dt_check(doca_dev_close(p->dpu), "dpu dev"))
		p->dpu = NULL;
	return ok && p->client == NULL && p->server == NULL && p->pe == NULL && p->rep == NULL &&
	       p->host == NULL && p->dpu == NULL;
}

struct dt_send_arg {
	const uint32_t *sent;
	uint32_t sent_target;
	const uint32_t *recv;
	uint32_t recv_target;
};

static bool
dt_sent_and_received(void *arg)
{
	struct dt_send_arg *a = arg;

	return *(volatile const uint32_t *)a->sent >= a->sent_target &&
	       *(volatile const uint32_t *)a->recv >= a->recv_target;
}

void
dt_send(struct dt_pair *p, bool to_server, const void *msg, uint32_t len, union doca_data task_ud)
{
	struct dt_rec *me = to_server ? &p->crec : &p->srec;
	struct dt_rec *peer = to_server ? &p->srec : &p->crec;
	struct dt_send_arg a = {
		.sent = &me->nb_send_ok, .sent_target = me->nb_send_ok + 1,
		.recv = &peer->nb_recv, .recv_target = peer->nb_recv + 1,
	};
	struct doca_comch_task_send *task = NULL;
	struct doca_task *t;

	if (to_server)
		DT_OK(doca_comch_client_task_send_alloc_init(p->client, p->cconn, msg, len, &task));
	else
		DT_OK(doca_comch_server_task_send_alloc_init(p->server, p->sconn, msg, len, &task));
	t = doca_comch_task_send_as_task(task);
	DT_ASSERT(t != NULL);
	doca_task_set_user_data(t, task_ud);
	DT_OK(doca_task_submit(t));
	DT_ASSERT(dt_progress_until(p->pe, dt_sent_and_received, &a));
	DT_EQ(me->nb_send_err, 0);
}
