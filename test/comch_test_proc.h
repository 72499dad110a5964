/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef COMCH_TEST_PROC_H
#define COMCH_TEST_PROC_H

/**
 * @file
 * Helpers of the multi-process suites: fork+exec comch_peer processes (this
 * process never initialises EAL), capture their output in log files, wait for
 * a line or an exit with a bound, parse "SUMMARY key=value" lines, and kill
 * whatever is left in the tear-down.
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <setjmp.h>
#include <sys/types.h>
#include <cmocka.h>

#define CP_MAX_PROCS 64
#define CP_LINE 1024

struct cp_proc {
	pid_t pid;          /**< 0 once reaped. */
	int status;         /**< Exit code, or 128 + signal. */
	char name[32];
	char prefix[64];    /**< EAL file prefix. */
	char log[512];      /**< stdout + stderr of the process. */
};

/** Group set-up: argv[1] is the comch_peer path, set by main(). */
int cp_group_setup(void **state);
/** Group tear-down: SIGKILL and reap every child left, remove the directories. */
int cp_group_teardown(void **state);
/** Per-test tear-down: kill the children of the test that just ran. */
int cp_test_teardown(void **state);
void cp_set_peer(const char *path);
/** Directory for dir= (shm) and the logs. */
const char *cp_dir(void);
/** A domain name unique in this process. */
void cp_domain(char *buf, size_t len);

/**
 * Start "comch_peer --prefix <unique> --dir <cp_dir()> <args...>" with args a
 * NULL-terminated list. Returns the process (never NULL: fails the test).
 */
struct cp_proc *cp_spawn(const char *name, ...);
/** Wait for a line starting with prefix; 0 (line copied) or -ETIMEDOUT / -ECHILD. */
int cp_wait_line(struct cp_proc *p, const char *prefix, char *line, size_t len,
		 unsigned int timeout_ms);
/** Wait for exit; returns the exit code, 128 + signal, or -ETIMEDOUT (then kills it). */
int cp_wait_exit(struct cp_proc *p, unsigned int timeout_ms);
/** Send a signal to a running child. */
void cp_signal(struct cp_proc *p, int sig);
/** Count lines starting with prefix in the log. */
int cp_count_lines(struct cp_proc *p, const char *prefix);
/** Print the log of a process to stderr. */
void cp_dump(struct cp_proc *p);
/** Value of key=<int> in a line; fails the test if absent. */
int64_t cp_val(const char *line, const char *key);
/** Wait for the SUMMARY line and the exit; returns the exit code, line in buf. */
int cp_finish(struct cp_proc *p, char *buf, size_t len, unsigned int timeout_ms);
void cp_sleep_ms(unsigned int ms);

#define CP_RUN(name, tests, argc, argv) ({ \
	if ((argc) < 2) { \
		fprintf(stderr, "usage: %s <path to comch_peer>\n", (argv)[0]); \
		return 2; \
	} \
	cp_set_peer((argv)[1]); \
	cmocka_run_group_tests_name(name, tests, cp_group_setup, cp_group_teardown); \
})

#endif /* COMCH_TEST_PROC_H */
