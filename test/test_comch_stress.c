/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Longer multi-process runs:
 * - 128 clients (4 processes x 32) x 10000 echoed messages, checked byte for byte;
 * - the server's client limit (512): the 513th client is refused
 *   (-ECONNREFUSED) while the 512 others keep working;
 * - repeated server crash and restart under the same name.
 */

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "comch_test_proc.h"

#define WAIT_MS 300000

static void
test_128_clients_long(void **state)
{
	struct cp_proc *srv, *cli[4];
	char d[32], line[CP_LINE], base[4][16];
	unsigned int i;

	(void)state;
	cp_domain(d, sizeof(d));
	srv = cp_spawn("server", "--server", "--domain", d, "--name", "big",
		       "--expect-conns", "128", "--msgs", "10000", "--timeout", "300000", NULL);
	assert_int_equal(cp_wait_line(srv, "READY", line, sizeof(line), 10000), 0);
	for (i = 0; i < 4; i++) {
		snprintf(base[i], sizeof(base[i]), "%u", i * 32);
		cli[i] = cp_spawn("clients", "--client", "--domain", d, "--name", "big",
				  "--clients", "32", "--id-base", base[i], "--msgs", "10000",
				  "--size", i % 2 ? "64" : "3000", "--window", "8",
				  "--timeout", "300000", NULL);
	}
	for (i = 0; i < 4; i++) {
		assert_int_equal(cp_finish(cli[i], line, sizeof(line), WAIT_MS), 0);
		assert_int_equal(cp_val(line, "done"), 32);
		assert_int_equal(cp_val(line, "recv"), 32 * 10000);
		assert_int_equal(cp_val(line, "acked"), 32 * 10000);
		assert_int_equal(cp_val(line, "bad"), 0);
	}
	assert_int_equal(cp_finish(srv, line, sizeof(line), 30000), 0);
	assert_int_equal(cp_val(line, "msgs"), 128 * 10000);
	assert_int_equal(cp_val(line, "aborted"), 128);
	assert_int_equal(cp_val(line, "short"), 0);
	assert_int_equal(cp_val(line, "task_err"), 0);
	assert_int_equal(cp_val(line, "bad"), 0);
}

static void
test_client_limit(void **state)
{
	struct cp_proc *srv, *cli[4], *extra;
	char d[32], line[CP_LINE], base[4][16];
	unsigned int i;

	(void)state;
	cp_domain(d, sizeof(d));
	srv = cp_spawn("server", "--server", "--domain", d, "--name", "full", "--msg-size",
		       "64", "--recv-queue", "4", "--timeout", "200000", NULL);
	assert_int_equal(cp_wait_line(srv, "READY", line, sizeof(line), 10000), 0);
	for (i = 0; i < 4; i++) {
		snprintf(base[i], sizeof(base[i]), "%u", i * 128);
		cli[i] = cp_spawn("clients", "--client", "--domain", d, "--name", "full",
				  "--clients", "128", "--id-base", base[i], "--forever",
				  "--size", "64", "--window", "1", "--recv-queue", "2",
				  "--connect-timeout", "60000", "--timeout", "200000", NULL);
	}
	for (i = 0; i < 4; i++)
		assert_int_equal(cp_wait_line(cli[i], "CONNECTED 128", line, sizeof(line),
					      120000), 0);
	extra = cp_spawn("extra", "--client", "--domain", d, "--name", "full", "--size", "64",
			 "--timeout", "30000", NULL);
	assert_int_equal(cp_finish(extra, line, sizeof(line), 40000), 1);
	assert_int_equal(cp_val(line, "connected"), 0);
	assert_int_equal(cp_val(line, "last_error"), -ECONNREFUSED);
	for (i = 0; i < 4; i++) {
		cp_signal(cli[i], SIGTERM);
		assert_int_equal(cp_finish(cli[i], line, sizeof(line), 60000), 0);
		assert_int_equal(cp_val(line, "dropped"), 0);
		assert_int_equal(cp_val(line, "bad"), 0);
	}
	cp_signal(srv, SIGTERM);
	assert_int_equal(cp_finish(srv, line, sizeof(line), 30000), 0);
	assert_int_equal(cp_val(line, "conns"), 512);
	assert_int_equal(cp_val(line, "aborted"), 512);
	assert_int_equal(cp_val(line, "bad"), 0);
}

static void
test_server_restart_cycles(void **state)
{
	struct cp_proc *srv, *cli;
	char d[32], line[CP_LINE];
	unsigned int i;

	(void)state;
	cp_domain(d, sizeof(d));
	for (i = 0; i < 10; i++) {
		srv = cp_spawn("server", "--server", "--domain", d, "--name", "cycle",
			       "--timeout", "60000", NULL);
		assert_int_equal(cp_wait_line(srv, "READY", line, sizeof(line), 10000), 0);
		cli = cp_spawn("clients", "--client", "--domain", d, "--name", "cycle",
			       "--clients", "4", "--forever", "--expect-drop", "--size", "512",
			       "--timeout", "60000", NULL);
		assert_int_equal(cp_wait_line(cli, "CONNECTED 4", line, sizeof(line), 30000), 0);
		cp_sleep_ms(200);
		cp_signal(srv, SIGKILL);
		assert_int_equal(cp_wait_exit(srv, 5000), 128 + SIGKILL);
		assert_int_equal(cp_finish(cli, line, sizeof(line), 30000), 0);
		assert_int_equal(cp_val(line, "dropped"), 4);
		assert_int_equal(cp_val(line, "last_error"), -ECONNRESET);
		assert_int_equal(cp_val(line, "bad"), 0);
		assert_int_equal(cp_val(line, "sent"),
				 cp_val(line, "acked") + cp_val(line, "task_reset"));
		cp_test_teardown(NULL);
	}
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_128_clients_long, cp_test_teardown),
		cmocka_unit_test_teardown(test_client_limit, cp_test_teardown),
		cmocka_unit_test_teardown(test_server_restart_cycles, cp_test_teardown),
	};

	return CP_RUN("comch_stress", tests, argc, argv);
}
