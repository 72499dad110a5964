/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Multi-process traffic: one server process and several client processes
 * (comch_peer), every message checked byte for byte and counted at both ends.
 * - 64 clients (4 processes x 16 clients) on one server, echo traffic.
 * - A receive queue of 4 and a slow server: senders see -EAGAIN and nothing
 *   is lost.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "comch_test_proc.h"

#define LONG_MS 120000

static void
test_64_clients(void **state)
{
	static const char * const sizes[] = { "16", "256", "1000", "4080" };
	static const uint64_t size_v[] = { 16, 256, 1000, 4080 };
	struct cp_proc *srv, *cli[4];
	char d[32], line[CP_LINE], base[4][16];
	uint64_t bytes = 0;
	unsigned int i;

	(void)state;
	cp_domain(d, sizeof(d));
	srv = cp_spawn("server", "--server", "--domain", d, "--name", "hub",
		       "--expect-conns", "64", "--msgs", "200", "--timeout", "120000", NULL);
	assert_int_equal(cp_wait_line(srv, "READY", line, sizeof(line), 10000), 0);
	for (i = 0; i < 4; i++) {
		snprintf(base[i], sizeof(base[i]), "%u", i * 16);
		cli[i] = cp_spawn("clients", "--client", "--domain", d, "--name", "hub",
				  "--clients", "16", "--id-base", base[i], "--msgs", "200",
				  "--size", sizes[i], "--window", "8", "--timeout", "120000", NULL);
		bytes += 16 * 200 * size_v[i];
	}
	for (i = 0; i < 4; i++) {
		assert_int_equal(cp_finish(cli[i], line, sizeof(line), LONG_MS), 0);
		assert_int_equal(cp_val(line, "connected"), 16);
		assert_int_equal(cp_val(line, "done"), 16);
		assert_int_equal(cp_val(line, "dropped"), 0);
		assert_int_equal(cp_val(line, "bad"), 0);
		assert_int_equal(cp_val(line, "sent"), 16 * 200);
		assert_int_equal(cp_val(line, "recv"), 16 * 200);
		assert_int_equal(cp_val(line, "task_other"), 0);
		assert_int_equal(cp_val(line, "task_reset"), 0);
	}
	assert_int_equal(cp_finish(srv, line, sizeof(line), 20000), 0);
	assert_int_equal(cp_val(line, "conns"), 64);
	assert_int_equal(cp_val(line, "aborted"), 64);
	assert_int_equal(cp_val(line, "reset"), 0);
	assert_int_equal(cp_val(line, "other"), 0);
	assert_int_equal(cp_val(line, "msgs"), 64 * 200);
	assert_int_equal(cp_val(line, "bytes"), bytes);
	assert_int_equal(cp_val(line, "bad"), 0);
	assert_int_equal(cp_val(line, "short"), 0);
	/* every echo was received, so every echo task succeeded */
	assert_int_equal(cp_val(line, "task_err"), 0);
	assert_int_equal(cp_count_lines(srv, "DISCONNECT"), 64);
}

static void
test_send_queue_full(void **state)
{
	struct cp_proc *srv, *cli;
	char d[32], line[CP_LINE];

	(void)state;
	cp_domain(d, sizeof(d));
	/* the server takes a message every 100 us, through a queue of 4 */
	srv = cp_spawn("server", "--server", "--domain", d, "--name", "slow", "--no-echo",
		       "--recv-queue", "4", "--slow-us", "100", "--expect-conns", "2",
		       "--msgs", "2000", "--timeout", "60000", "--busy", NULL);
	assert_int_equal(cp_wait_line(srv, "READY", line, sizeof(line), 10000), 0);
	cli = cp_spawn("client", "--client", "--domain", d, "--name", "slow", "--no-echo",
		       "--clients", "2", "--msgs", "2000", "--size", "512", "--window", "64",
		       "--timeout", "60000", "--busy", NULL);
	assert_int_equal(cp_finish(cli, line, sizeof(line), 70000), 0);
	assert_int_equal(cp_val(line, "done"), 2);
	assert_int_equal(cp_val(line, "sent"), 4000);
	assert_int_equal(cp_val(line, "bad"), 0);
	/* the window (64) is larger than the queue (4): the sender was held back */
	assert_true(cp_val(line, "again") > 0);
	assert_int_equal(cp_finish(srv, line, sizeof(line), 20000), 0);
	assert_int_equal(cp_val(line, "msgs"), 4000);
	assert_int_equal(cp_val(line, "bytes"), 4000 * 512);
	assert_int_equal(cp_val(line, "bad"), 0);
	assert_int_equal(cp_val(line, "short"), 0);
	assert_int_equal(cp_val(line, "aborted"), 2);
}

/* Clients on other functions of the same domain only reach servers on their rep. */
static void
test_functions_isolated(void **state)
{
	struct cp_proc *srv, *good, *bad;
	char d[32], line[CP_LINE];

	(void)state;
	cp_domain(d, sizeof(d));
	srv = cp_spawn("server", "--server", "--domain", d, "--name", "fnsrv", "--rep",
		       "pf0vf3", "--expect-conns", "1", "--msgs", "50", "--timeout", "30000",
		       NULL);
	assert_int_equal(cp_wait_line(srv, "READY", line, sizeof(line), 10000), 0);
	bad = cp_spawn("wrongfn", "--client", "--domain", d, "--name", "fnsrv", "--fn", "pf0",
		       "--connect-timeout", "300", "--msgs", "50", "--timeout", "30000", NULL);
	good = cp_spawn("rightfn", "--client", "--domain", d, "--name", "fnsrv", "--fn",
			"pf0vf3", "--msgs", "50", "--timeout", "30000", NULL);
	assert_int_equal(cp_finish(bad, line, sizeof(line), 35000), 1);
	assert_int_equal(cp_val(line, "connected"), 0);
	assert_int_equal(cp_val(line, "dropped"), 1);
	assert_int_equal(cp_val(line, "last_error"), -ENOENT);
	assert_int_equal(cp_finish(good, line, sizeof(line), 35000), 0);
	assert_int_equal(cp_val(line, "recv"), 50);
	assert_int_equal(cp_finish(srv, line, sizeof(line), 20000), 0);
	assert_int_equal(cp_val(line, "conns"), 1);
	assert_int_equal(cp_val(line, "msgs"), 50);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_64_clients, cp_test_teardown),
		cmocka_unit_test_teardown(test_send_queue_full, cp_test_teardown),
		cmocka_unit_test_teardown(test_functions_isolated, cp_test_teardown),
	};

	return CP_RUN("comch_multiproc", tests, argc, argv);
}
