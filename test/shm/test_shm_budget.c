/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * What a peer's consumers may make a server hold: descriptors and mapped bytes
 * per connection (shm's max_peer_fds, max_peer_map), descriptors left free in
 * the process (fd_reserve), and the number of consumers (the library's
 * max_peer_consumers). A raw peer announces consumers until one is refused:
 * the refusal says which budget, the connection stays, nothing leaks, and an
 * honest client is still served.
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <bsd/string.h>

#include <rte_cycles.h>
#include <rte_log.h>

#include "comch_test_common.h"
#include "shm_raw_peer.h"

static uint64_t
budget_refusals(void)
{
	struct rte_comch_dev_stats st;

	assert_int_equal(rte_comch_dev_stats_get(dpu, &st), 0);
	return st.budget_refusals;
}

/*
 * On a server opened with dpu_args: nb_ok consumers are taken, the next is
 * refused with status.
 */
static void
budget_case(const char *domain, const char *dpu_args, unsigned int nb_ok, int status)
{
	struct raw_consumer rc[8];
	struct comch_ctl_msg c;
	unsigned int i, nb_fds, fds_before;
	struct raw_peer p;
	int fds[4];

	assert_true(nb_ok < RTE_DIM(rc));
	fds_before = count_fds();
	assert_int_equal(raw_server_open(domain, dpu_args), 0);
	last_disconnect = 1;
	raw_peer_connect(&p);
	for (i = 0; i <= nb_ok; i++) {
		raw_consumer_init(&rc[i], true);
		raw_consumer_announce(&p, &rc[i], i + 1); /* ids start at 1 */
		if (i < nb_ok) {
			assert_int_equal(raw_ctl_reply(p.fd, &c, fds, &nb_fds),
					 COMCH_CTL_CONSUMER_READY);
			continue;
		}
		assert_int_equal(raw_ctl_reply(p.fd, &c, fds, &nb_fds),
				 COMCH_CTL_CONSUMER_REFUSED);
		assert_int_equal(c.id, i + 1);
		assert_int_equal(c.status, status);
	}
	/* The device counts the refusal, whichever budget it was, until a reset. */
	assert_int_equal(budget_refusals(), 1);
	assert_int_equal(rte_comch_dev_stats_reset(dpu), 0);
	assert_int_equal(budget_refusals(), 0);
	/* Refused, not dropped: the connection still carries messages. */
	pump(5);
	assert_int_equal(last_disconnect, 1);
	assert_int_equal(peer_errors(), 0);
	good_client_roundtrip();
	raw_peer_close(&p);
	for (i = 0; i <= nb_ok; i++)
		raw_consumer_fini(&rc[i]);
	pump(20);
	raw_server_close();
	/* The devices' descriptors, the peer's doorbells and sockets: all gone. */
	assert_int_equal(count_fds(), fds_before);
}

/* Each consumer holds a descriptor (its doorbell): two fit in max_peer_fds=2. */
static void
test_budget_descriptors(void **state)
{
	budget_case("bfds", "max_peer_fds=2", 2, EMFILE);
}

/* 64 KiB of memory and a 4 KiB post ring each: two fit in 150 KiB, not three. */
static void
test_budget_mapped_bytes(void **state)
{
	budget_case("bmap", "max_peer_map=150K", 2, ENOSPC);
}

/* A reserve as large as the process's limit: no consumer of the peer fits. */
static void
test_budget_fd_reserve(void **state)
{
	budget_case("bres", "fd_reserve=1048576", 0, EMFILE);
}

/* The library's budget, for every driver: consumers per connection. */
static void
test_budget_consumers(void **state)
{
	budget_case("bcons", "max_peer_consumers=3", 3, ENOSPC);
}

/* ------------------------------------------------------------ descriptors */

#define SPARE_FDS 5000
#define NB_IMPORTS 200

/*
 * With 5,000 descriptors open, 200 consumers are imported with no more scans
 * of /proc/self/fd (2 ms each at that count) than one per 100 ms, and at
 * least one: the driver counts the descriptors it keeps, and logs each scan
 * at DEBUG level, which this test reads.
 */
static void
test_budget_fd_scans_rare(void **state)
{
	unsigned int i, nb_fds, scans = 0, fds_before;
	struct rlimit saved, rl;
	struct raw_consumer rc;
	struct comch_ctl_msg c;
	uint64_t start, elapsed_ms;
	char *log = NULL, *at;
	size_t log_len = 0;
	struct raw_peer p;
	int *spare, fds[4];
	FILE *f;

	assert_int_equal(getrlimit(RLIMIT_NOFILE, &saved), 0);
	if (saved.rlim_max != RLIM_INFINITY && saved.rlim_max < SPARE_FDS + 2000)
		skip(); /* no room for thousands of descriptors */
	rl = saved;
	rl.rlim_cur = saved.rlim_max == RLIM_INFINITY ? SPARE_FDS + 20000 : saved.rlim_max;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &rl), 0);
	fds_before = count_fds();
	spare = calloc(SPARE_FDS, sizeof(*spare));
	assert_non_null(spare);
	for (i = 0; i < SPARE_FDS; i++) {
		spare[i] = open("/dev/null", O_RDONLY | O_CLOEXEC);
		assert_true(spare[i] >= 0);
	}
	assert_int_equal(raw_server_open("bscan", "max_peer_consumers=256,max_peer_fds=256"), 0);
	raw_consumer_init(&rc, true);
	raw_peer_connect(&p);
	f = open_memstream(&log, &log_len);
	assert_non_null(f);
	assert_int_equal(rte_openlog_stream(f), 0);
	assert_int_equal(rte_log_set_level_pattern("pmd.comch.shm", RTE_LOG_DEBUG), 0);
	start = rte_rdtsc();
	for (i = 1; i <= NB_IMPORTS; i++) {
		raw_consumer_announce(&p, &rc, i);
		if (raw_ctl_reply(p.fd, &c, fds, &nb_fds) != COMCH_CTL_CONSUMER_READY)
			break;
	}
	elapsed_ms = (rte_rdtsc() - start) * 1000 / rte_get_tsc_hz();
	rte_log_set_level_pattern("pmd.comch.shm", RTE_LOG_NOTICE);
	rte_openlog_stream(NULL);
	fclose(f);
	for (at = log; (at = strstr(at, "shm_fds_scan()")) != NULL; at++)
		scans++;
	free(log);
	print_message("  %u imports at %u open descriptors in %" PRIu64 " ms: %u scans\n",
		      i - 1, SPARE_FDS + fds_before, elapsed_ms, scans);
	assert_int_equal(i, NB_IMPORTS + 1);
	assert_true(scans >= 1);
	assert_true(scans <= 1 + elapsed_ms / 100);
	raw_peer_close(&p);
	raw_consumer_fini(&rc);
	pump(20);
	raw_server_close();
	for (i = 0; i < SPARE_FDS; i++)
		close(spare[i]);
	free(spare);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &saved), 0);
	assert_int_equal(count_fds(), fds_before);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_budget_descriptors, before_each),
		cmocka_unit_test_setup(test_budget_mapped_bytes, before_each),
		cmocka_unit_test_setup(test_budget_fd_reserve, before_each),
		cmocka_unit_test_setup(test_budget_consumers, before_each),
		cmocka_unit_test_setup(test_budget_fd_scans_rare, before_each),
	};

	if (getenv("COMCH_TEST_FILTER") != NULL)
		cmocka_set_test_filter(getenv("COMCH_TEST_FILTER"));
	return cmocka_run_group_tests_name("shm budgets", tests, ct_group_setup,
					   ct_group_teardown);
}
