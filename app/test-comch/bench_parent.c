/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The parent of a two-sided run. It never initialises EAL: it makes a private
 * runtime directory, forks and executes this same program twice (a server side
 * and a client side, each a fresh process with its own EAL), collects their
 * results from one pipe each, and prints. A watchdog ends a run that hangs.
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "bench_output.h"
#include "bench_progress.h"
#include "bench_report.h"

#define BENCH_MAX_TESTS 256
/* After one side failed, how long the other gets to finish before it is killed. */
#define GRACE_S 3.0

struct child {
	enum bench_side side;
	bool started;
	pid_t started_pid;
	pid_t pid;          /* 0 once reaped */
	int status;         /* wait status */
	struct bench_report_reader rd;
};

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Generous: a hang should be caught, a slow baseline should not. */
static double
default_timeout(const struct bench_opts *o, const struct bench_test *plan, unsigned int nb)
{
	double t = 30;
	unsigned int i;

	/* Per message: 200 us a round trip, 20 us a streamed one, and 1 s per GB of data. */
	for (i = 0; i < nb; i++) {
		if (plan[i].mode->kind == BENCH_KIND_LAT)
			t += 5 + (o->warmup + o->iterations) * (200e-6 + plan[i].size * 2e-9);
		/* The event modes' idle window. */
		if (plan[i].mode->event)
			t += o->idle;
		else
			t += 5 + o->duration + o->warmup * (20e-6 + plan[i].size * 1e-9);
	}
	return t;
}

static int
spawn(struct child *c, const struct bench_opts *o, const char *exe)
{
	pid_t parent = getpid();
	char **argv;
	int p[2], i;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	argv = bench_opts_child_argv(o, exe, c->side, p[1]);
	if (argv == NULL) {
		close(p[0]);
		close(p[1]);
		return -ENOMEM;
	}
	fflush(stdout);
	fflush(stderr);
	c->pid = fork();
	if (c->pid == 0) {
		/* A child must not outlive a parent that was killed. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(127);
		/* Only the write end crosses exec; the other child's read end does not. */
		fcntl(p[1], F_SETFD, 0);
		/* Children speak on stderr; stdout is for the parent's table. */
		dup2(STDERR_FILENO, STDOUT_FILENO);
		execv(exe, argv);
		fprintf(stderr, "%s: exec %s: %s\n", BENCH_PROG, exe, strerror(errno));
		_exit(127);
	}
	for (i = 0; argv[i] != NULL; i++)
		free(argv[i]);
	free(argv);
	close(p[1]);
	if (c->pid < 0) {
		close(p[0]);
		return -errno;
	}
	c->rd.fd = p[0];
	c->started_pid = c->pid;
	return 0;
}

static void
reap(struct child *c, int flags)
{
	pid_t r;

	if (c->pid <= 0)
		return;
	r = waitpid(c->pid, &c->status, flags);
	if (r == c->pid)
		c->pid = 0;
}

static bool
child_failed(const struct child *c)
{
	return c->pid == 0 && !(WIFEXITED(c->status) && WEXITSTATUS(c->status) == 0);
}

/* Tests the client has reported: they end in plan order, so the next one is running. */
static unsigned int
tests_done(const struct bench_results *rs)
{
	unsigned int i = 0;

	while (i < rs->nb_tests && rs->client[i].magic == BENCH_RESULT_MAGIC)
		i++;
	return i;
}

/* Read results until both children closed their pipes and exited. */
static int
collect(struct child *ch, struct bench_results *rs, double timeout, struct bench_progress *pg)
{
	double deadline = now_s() + timeout, grace = 0;
	struct pollfd pfd[2];
	struct child *who[2];
	int i, n, ret = 0;

	for (;;) {
		n = 0;
		for (i = 0; i < 2; i++) {
			if (ch[i].rd.eof)
				continue;
			pfd[n].fd = ch[i].rd.fd;
			pfd[n].events = POLLIN;
			pfd[n].revents = 0;
			who[n] = &ch[i];
			n++;
		}
		for (i = 0; i < 2; i++)
			reap(&ch[i], WNOHANG);
		if (n == 0 && ch[0].pid == 0 && ch[1].pid == 0)
			break;
		bench_progress_update(pg, tests_done(rs));
		if (now_s() > deadline) {
			bench_progress_clear(pg);
			fprintf(stderr, "%s: timeout after %.0f s: stopping both sides\n",
				BENCH_PROG, timeout);
			ret = -ETIMEDOUT;
			break;
		}
		/* One side failed: the other is likely waiting for it. */
		if (grace == 0 && (child_failed(&ch[0]) || child_failed(&ch[1])))
			grace = now_s() + GRACE_S;
		if (grace != 0 && now_s() > grace)
			break;
		if (n == 0) {
			usleep(10000);
			continue;
		}
		if (poll(pfd, n, 100) < 0 && errno != EINTR)
			return -errno;
		for (i = 0; i < n; i++) {
			/* Only what poll found ready: a read must never block the watchdog. */
			if (pfd[i].revents == 0)
				continue;
			ret = bench_report_read(&who[i]->rd);
			if (ret == 1) {
				bench_results_add(rs, &who[i]->rd.rec);
			} else if (ret < 0) {
				bench_progress_clear(pg);
				fprintf(stderr, "%s: bad report from the %s side: %s\n", BENCH_PROG,
					who[i]->side == BENCH_SIDE_SERVER ? "server" : "client",
					strerror(-ret));
			}
			ret = 0;
		}
	}
	for (i = 0; i < 2; i++) {
		if (ch[i].pid > 0) {
			kill(ch[i].pid, SIGKILL);
			reap(&ch[i], 0);
		}
	}
	return ret;
}

/* Record how a child ended, if it did not end well. */
static void
check_exit(const struct child *c, struct bench_results *rs)
{
	struct bench_result res;

	char dir[PATH_MAX];

	if (WIFEXITED(c->status) && WEXITSTATUS(c->status) == 0)
		return;
	/* A side that died could not clean up after its EAL. */
	bench_eal_dir(dir, sizeof(dir), c->side, c->started_pid);
	bench_rm_tree(dir);
	bench_result_init(&res, NULL, c->side);
	res.status = -EIO;
	if (WIFEXITED(c->status))
		snprintf(res.error, sizeof(res.error), "%s side exited with status %d",
			 c->side == BENCH_SIDE_SERVER ? "server" : "client",
			 WEXITSTATUS(c->status));
	else
		snprintf(res.error, sizeof(res.error), "%s side killed by signal %d (%s)",
			 c->side == BENCH_SIDE_SERVER ? "server" : "client",
			 WTERMSIG(c->status), strsignal(WTERMSIG(c->status)));
	bench_results_add(rs, &res);
}

/* One run of the plan: both sides started, their results collected into rs. */
static void
run_once(const struct bench_opts *o, const char *exe, const struct bench_test *plan,
	 unsigned int nb, struct bench_results *rs)
{
	struct child ch[2] = {
		{ .side = BENCH_SIDE_SERVER, .rd = { .fd = -1, .eof = true } },
		{ .side = BENCH_SIDE_CLIENT, .rd = { .fd = -1, .eof = true } },
	};
	struct bench_progress pg;
	unsigned int i;
	int ret = 0;

	for (i = 0; i < 2 && ret == 0; i++) {
		ret = spawn(&ch[i], o, exe);
		if (ret < 0)
			fprintf(stderr, "%s: cannot start the %s side: %s\n", BENCH_PROG,
				i == 0 ? "server" : "client", strerror(-ret));
		else
			ch[i].started = true;
		ch[i].rd.eof = !ch[i].started;
	}
	bench_progress_init(&pg, o, plan, nb);
	if (collect(ch, rs, o->timeout, &pg) < 0 || ret < 0) {
		struct bench_result res;

		bench_result_init(&res, NULL, BENCH_SIDE_BOTH);
		res.status = ret < 0 ? ret : -ETIMEDOUT;
		snprintf(res.error, sizeof(res.error), ret < 0 ? "a side could not be started" :
			 "run stopped by the watchdog after %.0f s (--timeout)", o->timeout);
		bench_results_add(rs, &res);
	}
	bench_progress_clear(&pg);
	for (i = 0; i < 2; i++) {
		if (ch[i].rd.fd >= 0)
			close(ch[i].rd.fd);
		if (ch[i].started)
			check_exit(&ch[i], rs);
	}
}

int
bench_parent_run(const struct bench_opts *o_in)
{
	struct bench_opts o = *o_in;
	struct bench_test plan[BENCH_MAX_TESTS];
	char exe[PATH_MAX], tmpl[PATH_MAX];
	const char *tmp = getenv("TMPDIR");
	struct bench_results *rs;
	unsigned int nb, r, runs = 0;
	bool own_dir = false;
	ssize_t len;
	int ret = 0;

	nb = bench_plan_build(&o, plan, BENCH_MAX_TESTS);
	if (nb == 0 || nb > BENCH_MAX_TESTS) {
		fprintf(stderr, "%s: %u tests planned (1 to %u possible)\n", BENCH_PROG, nb,
			BENCH_MAX_TESTS);
		return -EINVAL;
	}
	if (o.timeout == 0)
		o.timeout = default_timeout(&o, plan, nb);
	/* Exec this very binary, wherever it was started from. */
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len < 0) {
		fprintf(stderr, "%s: readlink /proc/self/exe: %s\n", BENCH_PROG, strerror(errno));
		return -errno;
	}
	exe[len] = '\0';
	if (o.dir == NULL) {
		/* Private to this run: no other run's servers or sockets can meet ours. */
		snprintf(tmpl, sizeof(tmpl), "%s/%s.XXXXXX",
			 tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp", BENCH_PROG);
		if (mkdtemp(tmpl) == NULL) {
			fprintf(stderr, "%s: mkdtemp %s: %s\n", BENCH_PROG, tmpl, strerror(errno));
			return -errno;
		}
		o.dir = tmpl;
		own_dir = true;
	}
	rs = calloc(o.repeat, sizeof(*rs));
	if (rs == NULL) {
		ret = -ENOMEM;
		goto out_dir;
	}
	/* Each run whole, with new processes; a failed run ends the repetition. */
	for (r = 0; r < o.repeat && ret == 0; r++) {
		ret = bench_results_init(&rs[r], nb);
		if (ret < 0)
			break;
		runs++;
		if (o.repeat > 1)
			printf("%sRun %u of %u\n", r != 0 ? "\n" : "", r + 1, o.repeat);
		run_once(&o, exe, plan, nb, &rs[r]);
		ret = bench_output_print(stdout, &o, plan, nb, &rs[r], BENCH_SIDE_BOTH) != 0 ?
		      -EIO : 0;
	}
	if (o.repeat > 1 && runs > 1)
		bench_output_repeated(stdout, plan, nb, rs, runs, o.targets);
	if (runs != 0 && o.csv != NULL &&
	    bench_output_csv(o.csv, &o, plan, nb, &rs[runs - 1], BENCH_SIDE_BOTH) < 0)
		ret = -EIO;
	for (r = 0; r < runs; r++)
		bench_results_free(&rs[r]);
	free(rs);
out_dir:
	if (own_dir)
		bench_rm_tree(tmpl);
	return ret;
}
