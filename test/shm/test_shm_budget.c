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
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <unistd.h>

#include <cmocka.h>

#include "comch_test_common.h"
#include "shm_raw_peer.h"

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
	/* Refused, not dropped: the connection still carries messages. */
	pump(5);
	assert_int_equal(last_disconnect, 1);
	assert_int_equal(peer_errors(), 0);
	good_client_roundtrip();
	close(p.fd);
	shm_ring_release(&p.rx);
	shm_ring_release(&p.tx);
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_budget_descriptors, before_each),
		cmocka_unit_test_setup(test_budget_mapped_bytes, before_each),
		cmocka_unit_test_setup(test_budget_fd_reserve, before_each),
		cmocka_unit_test_setup(test_budget_consumers, before_each),
	};

	return cmocka_run_group_tests_name("shm budgets", tests, ct_group_setup,
					   ct_group_teardown);
}
