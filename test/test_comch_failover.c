/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Peer death across processes:
 * - a client process killed with SIGKILL mid-stream: the server sees
 *   -ECONNRESET for each of its clients, keeps serving the others, accepts
 *   new clients afterwards and never crashes;
 * - a server killed with SIGKILL: its clients drop with -ECONNRESET, a new
 *   server takes the same name at once and new clients reach it;
 * - a server name is unique per representor across processes (-EEXIST).
 */

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "comch_test_proc.h"

#define WAIT_MS 60000

static void
test_client_killed(void **state)
{
	struct cp_proc *srv, *keep, *victim, *late;
	char d[32], line[CP_LINE];

	(void)state;
	cp_domain(d, sizeof(d));
	srv = cp_spawn("server", "--server", "--domain", d, "--name", "svc",
		       "--timeout", "90000", NULL);
	assert_int_equal(cp_wait_line(srv, "READY", line, sizeof(line), 10000), 0);
	keep = cp_spawn("keep", "--client", "--domain", d, "--name", "svc", "--clients", "8",
			"--id-base", "0", "--forever", "--size", "300", "--timeout", "90000",
			NULL);
	victim = cp_spawn("victim", "--client", "--domain", d, "--name", "svc", "--clients",
			  "8", "--id-base", "100", "--forever", "--size", "2000", "--window",
			  "32", "--timeout", "90000", NULL);
	assert_int_equal(cp_wait_line(keep, "CONNECTED 8", line, sizeof(line), WAIT_MS), 0);
	assert_int_equal(cp_wait_line(victim, "CONNECTED 8", line, sizeof(line), WAIT_MS), 0);
	cp_sleep_ms(300);
	cp_signal(victim, SIGKILL);
	assert_int_equal(cp_wait_exit(victim, 5000), 128 + SIGKILL);

	/* the server saw 8 resets, and is still alive */
	for (int i = 0; i < 500 && cp_count_lines(srv, "DISCONNECT id=1") < 8; i++)
		cp_sleep_ms(10);
	assert_int_equal(cp_count_lines(srv, "DISCONNECT"), 8);
	assert_int_equal(cp_count_lines(srv, "DISCONNECT id=1"), 8);
	assert_int_equal(cp_count_lines(srv, "DISCONNECT id=10"), 8);

	/* new clients are served after the crash, while the first ones go on */
	late = cp_spawn("late", "--client", "--domain", d, "--name", "svc", "--clients", "4",
			"--id-base", "200", "--msgs", "300", "--size", "100", "--timeout",
			"60000", NULL);
	assert_int_equal(cp_finish(late, line, sizeof(line), WAIT_MS), 0);
	assert_int_equal(cp_val(line, "done"), 4);
	assert_int_equal(cp_val(line, "recv"), 4 * 300);
	assert_int_equal(cp_val(line, "bad"), 0);

	/* the survivors never lost their connection */
	cp_signal(keep, SIGTERM);
	assert_int_equal(cp_finish(keep, line, sizeof(line), 20000), 0);
	assert_int_equal(cp_val(line, "dropped"), 0);
	assert_int_equal(cp_val(line, "bad"), 0);
	assert_int_equal(cp_val(line, "task_reset"), 0);
	assert_int_equal(cp_val(line, "sent"), cp_val(line, "acked"));
	assert_true(cp_val(line, "recv") > 0);

	cp_signal(srv, SIGTERM);
	assert_int_equal(cp_finish(srv, line, sizeof(line), 20000), 0);
	assert_int_equal(cp_val(line, "conns"), 20);
	assert_int_equal(cp_val(line, "reset"), 8);
	assert_int_equal(cp_val(line, "aborted"), 12);
	assert_int_equal(cp_val(line, "other"), 0);
	assert_int_equal(cp_val(line, "bad"), 0);
}

static void
test_server_killed_restart(void **state)
{
	struct cp_proc *srv, *srv2, *old, *fresh;
	char d[32], line[CP_LINE];

	(void)state;
	cp_domain(d, sizeof(d));
	srv = cp_spawn("server", "--server", "--domain", d, "--name", "phoenix",
		       "--timeout", "60000", NULL);
	assert_int_equal(cp_wait_line(srv, "READY", line, sizeof(line), 10000), 0);
	old = cp_spawn("old", "--client", "--domain", d, "--name", "phoenix", "--clients", "8",
		       "--forever", "--expect-drop", "--size", "1000", "--timeout", "60000",
		       NULL);
	assert_int_equal(cp_wait_line(old, "CONNECTED 8", line, sizeof(line), WAIT_MS), 0);
	cp_sleep_ms(300);
	cp_signal(srv, SIGKILL);
	assert_int_equal(cp_wait_exit(srv, 5000), 128 + SIGKILL);

	/* the name is free at once: the new server starts right away */
	srv2 = cp_spawn("server2", "--server", "--domain", d, "--name", "phoenix",
			"--expect-conns", "8", "--msgs", "100", "--timeout", "60000", NULL);
	assert_int_equal(cp_wait_line(srv2, "READY", line, sizeof(line), 10000), 0);

	/* every old client dropped with -ECONNRESET, its tasks in flight too */
	assert_int_equal(cp_finish(old, line, sizeof(line), WAIT_MS), 0);
	assert_int_equal(cp_val(line, "dropped"), 8);
	assert_int_equal(cp_val(line, "last_error"), -ECONNRESET);
	assert_int_equal(cp_val(line, "bad"), 0);
	assert_int_equal(cp_val(line, "task_other"), 0);
	/* every task completed once: taken by the dead server, or -ECONNRESET */
	assert_int_equal(cp_val(line, "sent"), cp_val(line, "acked") + cp_val(line, "task_reset"));
	assert_int_equal(cp_count_lines(old, "DROPPED"), 8);

	fresh = cp_spawn("fresh", "--client", "--domain", d, "--name", "phoenix", "--clients",
			 "8", "--msgs", "100", "--size", "700", "--timeout", "60000", NULL);
	assert_int_equal(cp_finish(fresh, line, sizeof(line), WAIT_MS), 0);
	assert_int_equal(cp_val(line, "done"), 8);
	assert_int_equal(cp_val(line, "recv"), 800);
	assert_int_equal(cp_finish(srv2, line, sizeof(line), 20000), 0);
	assert_int_equal(cp_val(line, "conns"), 8);
	assert_int_equal(cp_val(line, "aborted"), 8);
	assert_int_equal(cp_val(line, "msgs"), 800);
	assert_int_equal(cp_val(line, "bad"), 0);
}

static void
test_duplicate_name_across_processes(void **state)
{
	struct cp_proc *a, *b, *c;
	char d[32], line[CP_LINE];

	(void)state;
	cp_domain(d, sizeof(d));
	a = cp_spawn("first", "--server", "--domain", d, "--name", "only", "--timeout",
		     "30000", NULL);
	assert_int_equal(cp_wait_line(a, "READY", line, sizeof(line), 10000), 0);
	b = cp_spawn("second", "--server", "--domain", d, "--name", "only", "--timeout",
		     "30000", NULL);
	assert_int_equal(cp_wait_exit(b, 20000), 4);
	assert_int_equal(cp_wait_line(b, "ERROR server_create", line, sizeof(line), 0), 0);
	assert_int_equal(cp_val(line, "rte_errno"), EEXIST);
	/* another representor of the same domain is another namespace */
	c = cp_spawn("otherrep", "--server", "--domain", d, "--name", "only", "--rep", "pf1",
		     "--timeout", "30000", NULL);
	assert_int_equal(cp_wait_line(c, "READY", line, sizeof(line), 10000), 0);
	cp_signal(c, SIGTERM);
	assert_int_equal(cp_finish(c, line, sizeof(line), 10000), 0);
	/* an orderly exit frees the name as well */
	cp_signal(a, SIGTERM);
	assert_int_equal(cp_finish(a, line, sizeof(line), 10000), 0);
	b = cp_spawn("third", "--server", "--domain", d, "--name", "only", "--timeout",
		     "30000", NULL);
	assert_int_equal(cp_wait_line(b, "READY", line, sizeof(line), 10000), 0);
	cp_signal(b, SIGTERM);
	assert_int_equal(cp_finish(b, line, sizeof(line), 10000), 0);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_client_killed, cp_test_teardown),
		cmocka_unit_test_teardown(test_server_killed_restart, cp_test_teardown),
		cmocka_unit_test_teardown(test_duplicate_name_across_processes,
					  cp_test_teardown),
	};

	return CP_RUN("comch_failover", tests, argc, argv);
}
