/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "comch_test_proc.h"

static const char *cp_peer;
static char cp_tmp[256];
static struct cp_proc cp_procs[CP_MAX_PROCS];
static unsigned int cp_nb_procs;      /* spawned so far */
static unsigned int cp_test_first;    /* first proc of the running test */
static unsigned int cp_domain_seq;

static uint64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

void
cp_sleep_ms(unsigned int ms)
{
	usleep(ms * 1000);
}

void
cp_set_peer(const char *path)
{
	cp_peer = path;
}

const char *
cp_dir(void)
{
	return cp_tmp;
}

void
cp_domain(char *buf, size_t len)
{
	snprintf(buf, len, "p%dx%u", (int)getpid(), cp_domain_seq++);
}

int
cp_group_setup(void **state)
{
	(void)state;
	if (cp_peer == NULL || access(cp_peer, X_OK) != 0) {
		fprintf(stderr, "comch_peer not executable: %s\n", cp_peer ? cp_peer : "(null)");
		return -1;
	}
	snprintf(cp_tmp, sizeof(cp_tmp), "/tmp/comch-mp-XXXXXX");
	if (mkdtemp(cp_tmp) == NULL)
		return -1;
	return 0;
}

static int
rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static void
reap(struct cp_proc *p, bool block)
{
	int st;
	pid_t r;

	if (p->pid == 0)
		return;
	r = waitpid(p->pid, &st, block ? 0 : WNOHANG);
	if (r != p->pid)
		return;
	p->pid = 0;
	p->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Kill what is left of procs [first, cp_nb_procs), print and remove their traces. */
static void
cp_cleanup_from(unsigned int first)
{
	char rundir[512];
	const char *base;
	unsigned int i;

	for (i = first; i < cp_nb_procs; i++) {
		struct cp_proc *p = &cp_procs[i];

		if (p->pid != 0) {
			kill(p->pid, SIGKILL);
			reap(p, true);
		}
		cp_dump(p);
		/* the EAL runtime directory of the peer */
		if (geteuid() == 0)
			base = "/var/run/dpdk";
		else
			base = getenv("XDG_RUNTIME_DIR");
		if (base == NULL)
			base = "/tmp";
		snprintf(rundir, sizeof(rundir), "%s%s/%s", base,
			 geteuid() == 0 ? "" : "/dpdk", p->prefix);
		nftw(rundir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
	}
}

int
cp_test_teardown(void **state)
{
	(void)state;
	cp_cleanup_from(cp_test_first);
	cp_test_first = cp_nb_procs;
	return 0;
}

int
cp_group_teardown(void **state)
{
	(void)state;
	cp_cleanup_from(cp_test_first);
	if (cp_tmp[0] != '\0')
		nftw(cp_tmp, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}

struct cp_proc *
cp_spawn(const char *name, ...)
{
	char *argv[64];
	struct cp_proc *p;
	const char *a;
	va_list ap;
	pid_t parent = getpid();
	int argc = 0, fd;

	if (cp_nb_procs == CP_MAX_PROCS)
		fail_msg("too many processes");
	p = &cp_procs[cp_nb_procs++];
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(p->prefix, sizeof(p->prefix), "comch_mp%d_%u", (int)parent, cp_nb_procs);
	snprintf(p->log, sizeof(p->log), "%s/%02u-%s.log", cp_tmp, cp_nb_procs, name);
	argv[argc++] = (char *)cp_peer;
	argv[argc++] = (char *)"--prefix";
	argv[argc++] = p->prefix;
	argv[argc++] = (char *)"--dir";
	argv[argc++] = cp_tmp;
	va_start(ap, name);
	while ((a = va_arg(ap, const char *)) != NULL && argc < 62)
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;

	fflush(NULL);
	p->pid = fork();
	if (p->pid < 0)
		fail_msg("fork: %s", strerror(errno));
	if (p->pid == 0) {
		/* die with the test, whatever happens to it */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(127);
		fd = open(p->log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0)
			_exit(127);
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		close(fd);
		execv(cp_peer, argv);
		_exit(127);
	}
	return p;
}

/* Find the first line of the log starting with prefix. */
static bool
find_line(struct cp_proc *p, const char *prefix, char *line, size_t len, int *count)
{
	char buf[CP_LINE];
	bool found = false;
	FILE *f = fopen(p->log, "r");

	if (count != NULL)
		*count = 0;
	if (f == NULL)
		return false;
	while (fgets(buf, sizeof(buf), f) != NULL) {
		if (strncmp(buf, prefix, strlen(prefix)) != 0)
			continue;
		/* only complete lines */
		if (strchr(buf, '\n') == NULL)
			break;
		if (!found && line != NULL)
			snprintf(line, len, "%s", buf);
		found = true;
		if (count == NULL)
			break;
		(*count)++;
	}
	fclose(f);
	return found;
}

int
cp_wait_line(struct cp_proc *p, const char *prefix, char *line, size_t len,
	     unsigned int timeout_ms)
{
	uint64_t deadline = now_ms() + timeout_ms;

	for (;;) {
		if (find_line(p, prefix, line, len, NULL))
			return 0;
		if (p->pid == 0)
			return find_line(p, prefix, line, len, NULL) ? 0 : -ECHILD;
		reap(p, false);
		if (now_ms() > deadline)
			return -ETIMEDOUT;
		cp_sleep_ms(10);
	}
}

int
cp_count_lines(struct cp_proc *p, const char *prefix)
{
	int n = 0;

	find_line(p, prefix, NULL, 0, &n);
	return n;
}

int
cp_wait_exit(struct cp_proc *p, unsigned int timeout_ms)
{
	uint64_t deadline = now_ms() + timeout_ms;

	while (p->pid != 0) {
		reap(p, false);
		if (p->pid == 0)
			break;
		if (now_ms() > deadline) {
			fprintf(stderr, "%s (pid %d) did not exit in %u ms: killed\n",
				p->name, (int)p->pid, timeout_ms);
			kill(p->pid, SIGKILL);
			reap(p, true);
			return -ETIMEDOUT;
		}
		cp_sleep_ms(10);
	}
	return p->status;
}

void
cp_signal(struct cp_proc *p, int sig)
{
	if (p->pid == 0)
		fail_msg("%s already exited (status %d)", p->name, p->status);
	kill(p->pid, sig);
}

void
cp_dump(struct cp_proc *p)
{
	char buf[CP_LINE];
	FILE *f = fopen(p->log, "r");

	fprintf(stderr, "----- %s (%s), status %d -----\n", p->name, p->log, p->status);
	if (f == NULL)
		return;
	while (fgets(buf, sizeof(buf), f) != NULL)
		fprintf(stderr, "  %s", buf);
	fclose(f);
}

int64_t
cp_val(const char *line, const char *key)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(line, pat);
	if (p == NULL)
		fail_msg("no %s= in \"%s\"", key, line);
	return strtoll(p + strlen(pat), NULL, 10);
}

int
cp_finish(struct cp_proc *p, char *buf, size_t len, unsigned int timeout_ms)
{
	int ret = cp_wait_exit(p, timeout_ms);

	if (cp_wait_line(p, "SUMMARY", buf, len, 0) != 0)
		fail_msg("%s: no SUMMARY line (exit %d)", p->name, ret);
	return ret;
}
