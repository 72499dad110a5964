/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * A hostile or broken server against a real shm client: this test listens on
 * the socket the client looks for and speaks the wire protocol by hand. The
 * client must back off between attempts whatever goes wrong, say what went
 * wrong when it gives up, and never keep a descriptor it was sent.
 */

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cmocka.h>

#include <bsd/string.h>

#include "comch_test_common.h"
#include "shm_raw_peer.h"

#define NAME "hostile_server"

static struct rte_comch_dev *cdev;
static struct rte_comch_pe *cpe;
static int lfd = -1;

static int
hs_setup(void **state)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	char fndir[PATH_MAX];

	if (ct_group_setup(state) < 0)
		return -1;
	cdev = ct_dev_open("domain=hserv,role=host");
	cpe = rte_comch_pe_create(RTE_COMCH_PE_LCORE_SELF);
	if (cdev == NULL || cpe == NULL)
		return -1;
	/* Where a server on representor pf0 would listen. */
	snprintf(fndir, sizeof(fndir), "%s/hserv/pf0", ct_dir());
	if (mkdir(fndir, 0700) < 0 ||
	    shm_path(addr.sun_path, sizeof(addr.sun_path), ct_dir(), "hserv/pf0", NAME,
		     "sock") < 0)
		return -1;
	lfd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&addr, sizeof(addr)) < 0 ||
	    listen(lfd, 64) < 0)
		return -1;
	return 0;
}

static int
hs_teardown(void **state)
{
	close(lfd);
	rte_comch_pe_destroy(cpe);
	rte_comch_dev_close(cdev);
	return ct_group_teardown(state);
}

static struct rte_comch_client *
start_client(struct ct_side *side, uint32_t timeout_ms)
{
	struct ct_cfg cfg = { .connect_timeout_ms = timeout_ms };
	struct rte_comch_client *cli;

	memset(side, 0, sizeof(*side));
	cli = ct_client_new(side, cdev, NAME, &cfg);
	assert_non_null(cli);
	assert_int_equal(rte_comch_pe_connect_ctx(cpe, side->ctx), 0);
	assert_int_equal(rte_comch_ctx_start(side->ctx), -EINPROGRESS);
	return cli;
}

/* Accept a waiting client, if any, and read its HELLO: the socket, or -1. */
static int
accept_hello(void)
{
	struct shm_msg m;
	int fds[4], fd;
	unsigned int nb_fds, i;

	fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	if (fd < 0)
		return -1;
	for (i = 0; i < 1000; i++) {
		if (shm_msg_recv(fd, &m, fds, 4, &nb_fds) == 0)
			break;
		ct_progress_for(cpe, 1);
	}
	assert_int_equal(m.type, SHM_MSG_HELLO);
	return fd;
}

/*
 * A server that reads the HELLO and closes, every time. The client used to
 * retry on the next tick (thousands of attempts a second), then give up
 * saying there was no server. It must back off on each failure (1 ms doubling
 * to 100 ms: about ten attempts in 600 ms) and say why it gave up.
 */
static void
test_reconnect_backs_off(void **state)
{
	struct rte_comch_client *cli;
	enum rte_comch_ctx_state st;
	struct ct_side side;
	unsigned int attempts = 0;
	uint64_t end = ct_now_ms() + 5000;
	int fd;

	(void)state;
	cli = start_client(&side, 600);
	do {
		ct_progress_for(cpe, 1);
		fd = accept_hello();
		if (fd >= 0) {
			attempts++;
			close(fd);
		}
		assert_int_equal(rte_comch_ctx_get_state(side.ctx, &st), 0);
	} while (st != RTE_COMCH_CTX_STATE_IDLE && ct_now_ms() < end);
	assert_int_equal(st, RTE_COMCH_CTX_STATE_IDLE);
	print_message("  %u attempts in 600 ms\n", attempts);
	assert_true(attempts >= 3);
	assert_true(attempts <= 20);
	assert_int_equal(rte_comch_ctx_get_last_error(side.ctx), -ECONNRESET);
	assert_int_equal(rte_comch_client_destroy(cli), 0);
}

/* The server's answer is a message of no bytes carrying descriptors. */
static void
test_reply_fds_without_payload(void **state)
{
	struct rte_comch_client *cli;
	enum rte_comch_ctx_state st;
	struct ct_side side;
	unsigned int fds_before, i;
	int fd = -1;

	(void)state;
	ct_progress_for(cpe, 5);
	fds_before = count_fds();
	cli = start_client(&side, 2000);
	for (i = 0; i < 1000 && fd < 0; i++) {
		ct_progress_for(cpe, 1);
		fd = accept_hello();
	}
	assert_true(fd >= 0);
	raw_send_empty_with_fds(fd, 4);
	assert_int_equal(ct_wait_state(cpe, side.ctx, RTE_COMCH_CTX_STATE_IDLE, CT_TIMEOUT_MS), 0);
	assert_int_equal(rte_comch_ctx_get_state(side.ctx, &st), 0);
	assert_int_equal(rte_comch_ctx_get_last_error(side.ctx), -EPROTO);
	close(fd);
	assert_int_equal(rte_comch_client_destroy(cli), 0);
	assert_int_equal(count_fds(), fds_before);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reconnect_backs_off),
		cmocka_unit_test(test_reply_fds_without_payload),
	};

	if (getenv("COMCH_TEST_FILTER") != NULL)
		cmocka_set_test_filter(getenv("COMCH_TEST_FILTER"));
	return cmocka_run_group_tests_name("shm hostile server", tests, hs_setup, hs_teardown);
}
