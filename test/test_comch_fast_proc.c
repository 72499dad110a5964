/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Fast path across processes (comch_peer --fast, a server and a client
 * process on one connection):
 * - many producers and consumers on both sides, every message checked byte
 *   for byte with its per-producer sequence number, sizes from 0 to 1 MiB;
 * - fewer, larger messages up to 16 MiB, with 32 bytes of immediate data;
 * - consumers on memory of the process's heap (rte_comch_mmap_set_memrange()),
 *   which the peer process cannot map: the same messages arrive intact;
 * - a peer killed with SIGKILL mid-transfer (the client, then the server;
 *   both streaming, or the victim only receiving): the survivor does not
 *   crash, its empty posted buffers fail with -ECONNRESET (filled ones are
 *   delivered), its consumers go IDLE with last error -ECONNRESET, every task
 *   completes once, and it tears everything down and exits 0.
 */

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comch_test_proc.h"

#define WAIT_MS 120000

/* Check a SUMMARY line of a run that completed: n messages each way, all intact. */
static void
check_complete(const char *line, int64_t n, int64_t consumers, int64_t slots)
{
	assert_int_equal(cp_val(line, "bad"), 0);
	assert_int_equal(cp_val(line, "recv"), n);
	assert_int_equal(cp_val(line, "sent"), n);
	assert_int_equal(cp_val(line, "sent_ok"), n);
	assert_int_equal(cp_val(line, "sent_err"), 0);
	assert_int_equal(cp_val(line, "posted_reset"), 0);
	assert_int_equal(cp_val(line, "posted_other"), 0);
	/* the buffers still posted at the end were flushed by stop */
	assert_int_equal(cp_val(line, "posted_aborted"), consumers * slots);
	assert_int_equal(cp_val(line, "new_events"), consumers);
	assert_int_equal(cp_val(line, "teardown_err"), 0);
	assert_int_equal(cp_val(line, "ctrl_bad"), 0);
	assert_int_equal(cp_val(line, "timeout"), 0);
}

static void
run_pair(const char *name, const char *prods, const char *cons, const char *slots,
	 const char *msgs, const char *sizes, const char *imm, int64_t n, bool user_mem)
{
	/* (last: without it, the list ends one argument early) */
	const char *mem = user_mem ? "--user-mem" : NULL;

	struct cp_proc *srv, *cli;
	char d[32], line[CP_LINE];

	cp_domain(d, sizeof(d));
	srv = cp_spawn("server", "--server", "--fast", "--domain", d, "--name", name,
		       "--producers", prods, "--consumers", cons, "--slots", slots, "--msgs", msgs,
		       "--sizes", sizes, "--imm", imm, "--timeout", "100000", mem, NULL);
	assert_int_equal(cp_wait_line(srv, "READY", line, sizeof(line), 10000), 0);
	cli = cp_spawn("client", "--client", "--fast", "--domain", d, "--name", name,
		       "--producers", prods, "--consumers", cons, "--slots", slots, "--msgs", msgs,
		       "--sizes", sizes, "--imm", imm, "--timeout", "100000", mem, NULL);
	assert_int_equal(cp_finish(cli, line, sizeof(line), WAIT_MS), 0);
	check_complete(line, n, atoi(cons), atoi(slots));
	assert_int_equal(cp_finish(srv, line, sizeof(line), WAIT_MS), 0);
	check_complete(line, n, atoi(cons), atoi(slots));
	/* the server saw the client's orderly stop */
	assert_int_equal(cp_val(line, "end_status"), -ECONNABORTED);
}

static void
test_fast_many_both_ways(void **state)
{
	(void)state;
	/* 4 producers x 4 consumers x 50 messages each way */
	run_pair("many", "4", "4", "8", "50", "0,1,17,4096,65536,1048576,100", "16",
		 4 * 4 * 50, false);
}

static void
test_fast_big_messages(void **state)
{
	(void)state;
	run_pair("big", "2", "2", "2", "6", "16777216,1,8388611,0,4096,16777215", "32",
		 2 * 2 * 6, false);
}

/* Heap memory on both sides: every message crosses a staging area and one more copy. */
static void
test_fast_user_memory(void **state)
{
	(void)state;
	run_pair("user", "3", "2", "4", "40", "0,1,80,81,4096,65536,1048576,100", "8",
		 3 * 2 * 40, true);
}

/*
 * Kill one side mid-transfer; the other must survive, clean up and exit 0.
 * With victim_streams, both sides stream until the kill: buffers the victim
 * filled just before are delivered, the empty ones fail. Otherwise the victim
 * sent its --msgs and only receives: every buffer of the survivor is posted
 * and empty at the kill, and all of them fail with -ECONNRESET.
 */
static void
kill_one(bool kill_client, bool victim_streams)
{
	const char *v_mode = victim_streams ? "--forever" : "--busy";
	struct cp_proc *srv, *cli, *victim, *survivor;
	char d[32], line[CP_LINE];

	cp_domain(d, sizeof(d));
	srv = cp_spawn("server", "--server", "--fast", "--domain", d, "--name", "kill",
		       "--producers", "3", "--consumers", "3", "--slots", "8", "--msgs", "20",
		       "--sizes", "100,4096,65536,0", "--imm", "8",
		       kill_client ? "--forever" : v_mode,
		       kill_client ? "--expect-drop" : "--busy", "--timeout", "60000", NULL);
	assert_int_equal(cp_wait_line(srv, "READY", line, sizeof(line), 10000), 0);
	cli = cp_spawn("client", "--client", "--fast", "--domain", d, "--name", "kill",
		       "--producers", "3", "--consumers", "3", "--slots", "8", "--msgs", "20",
		       "--sizes", "100,4096,65536,0", "--imm", "8",
		       kill_client ? v_mode : "--forever",
		       kill_client ? "--busy" : "--expect-drop", "--timeout", "60000", NULL);
	victim = kill_client ? cli : srv;
	survivor = kill_client ? srv : cli;
	assert_int_equal(cp_wait_line(srv, "STREAMING", line, sizeof(line), WAIT_MS), 0);
	assert_int_equal(cp_wait_line(cli, "STREAMING", line, sizeof(line), WAIT_MS), 0);
	if (!victim_streams)
		assert_int_equal(cp_wait_line(survivor, "RECEIVED", line, sizeof(line), WAIT_MS),
				 0);
	cp_sleep_ms(300);
	/* the survivor is still sending: this is mid-transfer */
	assert_int_equal(cp_count_lines(survivor, "SUMMARY"), 0);
	cp_signal(victim, SIGKILL);
	assert_int_equal(cp_wait_exit(victim, 5000), 128 + SIGKILL);

	assert_int_equal(cp_finish(survivor, line, sizeof(line), 30000), 0);
	assert_int_equal(cp_count_lines(survivor, "DROPPED status=-104"), 1);
	assert_int_equal(cp_val(line, "end_status"), -ECONNRESET);
	assert_int_equal(cp_val(line, "cons_last_error"), -ECONNRESET);
	/* every one of the 3 x 8 post-recv tasks ended exactly once */
	assert_int_equal(cp_val(line, "posted_reset") + cp_val(line, "repost_fail"), 3 * 8);
	if (!victim_streams) {
		/* nothing in flight towards the survivor: all its buffers were empty */
		assert_int_equal(cp_val(line, "posted_reset"), 3 * 8);
		assert_int_equal(cp_val(line, "recv"), 3 * 3 * 20);
	}
	assert_int_equal(cp_val(line, "posted_other"), 0);
	assert_int_equal(cp_val(line, "posted_aborted"), 0);
	/* data really flowed, intact, and every send completed exactly once */
	assert_true(cp_val(line, "recv") > 0);
	assert_true(cp_val(line, "sent") > 0);
	assert_int_equal(cp_val(line, "bad"), 0);
	assert_int_equal(cp_val(line, "sent"), cp_val(line, "sent_ok") +
			 cp_val(line, "sent_err"));
	assert_int_equal(cp_val(line, "teardown_err"), 0);
	assert_int_equal(cp_val(line, "timeout"), 0);
	assert_int_equal(cp_count_lines(survivor, "ERROR"), 0);
}

static void
test_fast_client_killed(void **state)
{
	(void)state;
	kill_one(true, true);
}

static void
test_fast_server_killed(void **state)
{
	(void)state;
	kill_one(false, true);
}

static void
test_fast_client_killed_buffers_empty(void **state)
{
	(void)state;
	kill_one(true, false);
}

static void
test_fast_server_killed_buffers_empty(void **state)
{
	(void)state;
	kill_one(false, false);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_fast_many_both_ways, cp_test_teardown),
		cmocka_unit_test_teardown(test_fast_big_messages, cp_test_teardown),
		cmocka_unit_test_teardown(test_fast_user_memory, cp_test_teardown),
		cmocka_unit_test_teardown(test_fast_client_killed, cp_test_teardown),
		cmocka_unit_test_teardown(test_fast_server_killed, cp_test_teardown),
		cmocka_unit_test_teardown(test_fast_client_killed_buffers_empty,
					  cp_test_teardown),
		cmocka_unit_test_teardown(test_fast_server_killed_buffers_empty,
					  cp_test_teardown),
	};

	return CP_RUN("comch_fast_proc", tests, argc, argv);
}
