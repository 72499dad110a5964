/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * A raw server accepts a real client and answers its HELLO with the input: a
 * sequence of messages with descriptors (fuzz_common.h), ACCEPT with a ring of
 * the geometry it states, REJECT, BYE, CTL, or anything else. The client must
 * never crash, and once stopped and destroyed leave no descriptor behind.
 */

#include <errno.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "comch_test_common.h"
#include "fuzz_common.h"

#define PEER_NAME "fzpeer"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned int iter;
static int listener = -1;
static unsigned int nb_cli_msgs;

static void
cli_recv(struct rte_comch_connection *conn, const uint8_t *msg, uint32_t len)
{
	RTE_SET_USED(conn);
	RTE_SET_USED(msg);
	RTE_SET_USED(len);
	nb_cli_msgs++;
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	char sockdir[PATH_MAX];

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	fz_init("fzcli");
	/* Where the host device's clients look for a server of pf0 named PEER_NAME. */
	snprintf(sockdir, sizeof(sockdir), "%s/%s", ct_dir(), "fzcli");
	if (shm_path(addr.sun_path, sizeof(addr.sun_path), sockdir, "pf0", PEER_NAME,
		     "sock") < 0)
		abort();
	listener = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (listener < 0 || bind(listener, (struct sockaddr *)&addr, sizeof(addr)) < 0 ||
	    listen(listener, 64) < 0) {
		perror("fuzz: raw server socket");
		abort();
	}
	return 0;
}

/* Connections the client made and we did not take (it retries after a refusal). */
static void
drop_backlog(void)
{
	int fd;

	while ((fd = accept4(listener, NULL, NULL, SOCK_CLOEXEC)) >= 0)
		close(fd);
}

static struct rte_comch_client *
client_start(void)
{
	struct rte_comch_client *cli = rte_comch_client_create(host, PEER_NAME);
	int rc;

	if (cli == NULL ||
	    rte_comch_client_task_send_set_conf(cli, task_free_cb, task_free_cb, 4) != 0 ||
	    rte_comch_client_event_msg_recv_register(cli, cli_recv) != 0 ||
	    rte_comch_pe_connect_ctx(pe, rte_comch_client_as_ctx(cli)) != 0)
		abort();
	rc = rte_comch_ctx_start(rte_comch_client_as_ctx(cli));
	if (rc != 0 && rc != -EINPROGRESS)
		abort();
	return cli;
}

static void
client_destroy(struct rte_comch_client *cli)
{
	struct rte_comch_ctx *ctx = rte_comch_client_as_ctx(cli);
	enum rte_comch_ctx_state st = RTE_COMCH_CTX_STATE_RUNNING;
	unsigned int i;

	rte_comch_ctx_stop(ctx);
	for (i = 0; i < 20000; i++) {
		fz_pump(1);
		if (rte_comch_ctx_get_state(ctx, &st) == 0 && st == RTE_COMCH_CTX_STATE_IDLE)
			break;
		if (i >= 1000)
			usleep(100);
	}
	if (st != RTE_COMCH_CTX_STATE_IDLE || rte_comch_client_destroy(cli) != 0) {
		fprintf(stderr, "fuzz: the client did not stop (state %d)\n", (int)st);
		abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_record recs[FZ_MAX_RECORDS];
	unsigned int n = fz_split(data, size, recs, FZ_MAX_RECORDS), i;
	unsigned int before = count_fds();
	struct rte_comch_client *cli;
	struct fz_session s;
	int fd = -1;

	cli = client_start();
	for (i = 0; i < 5000 && fd < 0; i++) {
		fz_pump(1);
		fd = accept4(listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	}
	if (fd < 0) {
		fprintf(stderr, "fuzz: the client never connected\n");
		abort();
	}
	fz_session_init(&s, fd);
	/* Its HELLO: the limits it asked for size the ring we give in ACCEPT. */
	fz_settle(2);
	fz_drain(&s);
	for (i = 0; i < n; i++)
		if (!fz_send_record(&s, &recs[i], fz_fix_common, NULL))
			break;
	fz_session_fini(&s);
	client_destroy(cli);
	drop_backlog();
	fz_check_fds(before, "client");
	fz_check_server(&iter);
	return 0;
}
