/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * EAL start-up on first use. DOCA programs never call rte_eal_init(): the first
 * layer call that needs DPDK starts it, with defaults that work on a plain
 * machine (no hugepages, no PCI probing, a file prefix of its own so that the
 * two sides of a channel, or two runs, never share EAL runtime files).
 */

#include <errno.h>
#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bsd/string.h>

#include <rte_eal.h>
#include <rte_lcore.h>
#include <rte_errno.h>

#include "doca_compat_private.h"

/*
 * The Comch mapping's log type: the SDK library registers the same name
 * (doca_obj.c), and DPDK gives both the same one.
 */
RTE_LOG_REGISTER_DEFAULT(doca_compat_logtype, NOTICE);

#define DC_EAL_ENV "RTE_COMCH_DOCA_EAL_ARGS"
#define DC_EAL_MAX_ARGS 64
#define DC_EAL_ARGS_LEN 1024

static pthread_once_t dc_eal_once = PTHREAD_ONCE_INIT;
static doca_error_t dc_eal_result = DOCA_ERROR_INITIALIZATION;
/* EAL keeps pointers into argv: both live as long as the process. */
static char dc_eal_buf[DC_EAL_ARGS_LEN];
static char *dc_eal_argv[DC_EAL_MAX_ARGS + 2];

int
doca_compat_eal_split(char *buf, char **argv, int max)
{
	char *save = NULL;
	char *tok;
	int argc = 0;

	for (tok = strtok_r(buf, " \t\n", &save); tok != NULL; tok = strtok_r(NULL, " \t\n", &save)) {
		if (argc == max)
			return -E2BIG;
		argv[argc++] = tok;
	}
	return argc;
}

/*
 * "--lcores=0@(a,b,...)": the main lcore floats over every CPU the process may
 * use. Pinning it (-l 0) would put both sides of a channel on one CPU.
 */
static void
dc_eal_lcores(char *buf, size_t size)
{
	cpu_set_t set;
	size_t len;
	int cpu;

	if (sched_getaffinity(0, sizeof(set), &set) != 0) {
		strlcpy(buf, "-l 0", size);
		return;
	}
	len = strlcpy(buf, "--lcores=0@(", size);
	for (cpu = 0; cpu < CPU_SETSIZE && len + 8 < size; cpu++)
		if (CPU_ISSET(cpu, &set))
			len += snprintf(buf + len, size - len, "%d,", cpu);
	buf[len - 1] = ')';
}

/*
 * The EAL runtime directory of a process the layer started, removed when the
 * program exits: its prefix is the pid's, so nobody else uses it, and DOCA
 * programs, unaware of EAL, would leave one behind per run.
 */
static void
dc_eal_remove_runtime_dir(void)
{
	const char *dir = rte_eal_get_runtime_dir();
	struct dirent *e;
	DIR *d;

	if (dir == NULL || (d = opendir(dir)) == NULL)
		return;
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			unlinkat(dirfd(d), e->d_name, 0);
	closedir(d);
	rmdir(dir);
}

static void
dc_eal_start(void)
{
	char lcores[256];
	const char *env = getenv(DC_EAL_ENV);
	int argc, ret;

	if (env != NULL) {
		if (strlcpy(dc_eal_buf, env, sizeof(dc_eal_buf)) >= sizeof(dc_eal_buf)) {
			fprintf(stderr, "doca: %s is longer than %d bytes\n", DC_EAL_ENV,
				DC_EAL_ARGS_LEN - 1);
			return;
		}
	} else {
		dc_eal_lcores(lcores, sizeof(lcores));
		snprintf(dc_eal_buf, sizeof(dc_eal_buf),
			"--no-huge -m 512 --no-pci --no-shconf --file-prefix=doca-%d %s --no-telemetry "
			"--log-level=lib.eal:error", (int)getpid(), lcores);
	}
	dc_eal_argv[0] = (char *)(uintptr_t)"doca";
	argc = doca_compat_eal_split(dc_eal_buf, dc_eal_argv + 1, DC_EAL_MAX_ARGS);
	if (argc < 0) {
		fprintf(stderr, "doca: %s has more than %d arguments\n", DC_EAL_ENV,
			DC_EAL_MAX_ARGS);
		return;
	}
	ret = rte_eal_init(argc + 1, dc_eal_argv);
	if (ret < 0 && rte_errno != EALREADY) {
		/* The log may not be up yet: say it on stderr. */
		fprintf(stderr, "doca: cannot start DPDK's EAL (%s) with \"%s\"; set %s to "
			"override the arguments\n", rte_strerror(rte_errno),
			env != NULL ? env : "defaults", DC_EAL_ENV);
		return;
	}
	if (env == NULL && ret >= 0)
		atexit(dc_eal_remove_runtime_dir);
	dc_eal_result = DOCA_SUCCESS;
}

doca_error_t
doca_compat_eal_init(void)
{
	pthread_once(&dc_eal_once, dc_eal_start);
	return dc_eal_result;
}

static pthread_once_t dc_thread_key_once = PTHREAD_ONCE_INIT;
static pthread_key_t dc_thread_key;

/* A thread the layer registered ends: its lcore goes back to DPDK. */
static void
dc_thread_exit(void *arg)
{
	RTE_SET_USED(arg);
	rte_thread_unregister();
}

static void
dc_thread_key_create(void)
{
	pthread_key_create(&dc_thread_key, dc_thread_exit);
}

doca_error_t
doca_compat_thread_init(void)
{
	doca_error_t ret = doca_compat_eal_init();

	if (ret != DOCA_SUCCESS || rte_lcore_id() != LCORE_ID_ANY)
		return ret;
	/* rte_comch engines and endpoints belong to an lcore: give a plain thread one. */
	if (rte_thread_register() != 0) {
		DC_LOG(ERR, "cannot register the thread with DPDK: %s", rte_strerror(rte_errno));
		return rte_errno == ENOMEM ? DOCA_ERROR_FULL : DOCA_ERROR_INITIALIZATION;
	}
	/* ...and takes it back when the thread ends, or short-lived threads would use them up. */
	pthread_once(&dc_thread_key_once, dc_thread_key_create);
	pthread_setspecific(dc_thread_key, dc_thread_exit);
	return DOCA_SUCCESS;
}
