/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Back-pressure accounting: the sender's engine is held still while the
 * receiver's engine drains, so the peer has taken messages the sender has not
 * yet been told about. Submits must keep refusing with -EAGAIN until progress
 * reports those, and every task must complete exactly once.
 * (Regression: the ring once admitted on the peer's index and overran the
 * library's queue of tasks in flight, completing some twice.)
 */

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <rte_cycles.h>

#include <rte_comch.h>

#include "comch_test_common.h"

#define QUEUE 16
#define ROUNDS 8

static struct rte_comch_dev *dpu, *host;
static struct rte_comch_dev_rep *rep;
static struct rte_comch_server *srv;
static struct rte_comch_client *cli;
static struct rte_comch_pe *srv_pe, *cli_pe;
static unsigned int received, completed[QUEUE * ROUNDS * 2];
static unsigned int nb_completed, nb_failed;

static void
on_done(struct rte_comch_task_send *t, union rte_comch_data tud, union rte_comch_data cud)
{
	completed[tud.u64]++;
	nb_completed++;
	assert_int_equal(rte_comch_task_free(rte_comch_task_send_as_task(t)), 0);
}

static void
on_fail(struct rte_comch_task_send *t, union rte_comch_data tud, union rte_comch_data cud)
{
	nb_failed++;
	rte_comch_task_free(rte_comch_task_send_as_task(t));
}

static void
srv_recv(struct rte_comch_connection *conn, const uint8_t *msg, uint32_t len)
{
	uint32_t seq;

	assert_int_equal(len, sizeof(seq));
	memcpy(&seq, msg, sizeof(seq));
	assert_int_equal(seq, received);
	received++;
}

static void
ignore_recv(struct rte_comch_connection *conn, const uint8_t *msg, uint32_t len)
{
}

static void
ignore_conn(struct rte_comch_connection *conn, int status)
{
}

static void
pump(struct rte_comch_pe *pe, unsigned int ms)
{
	uint64_t end = rte_rdtsc() + rte_get_tsc_hz() / 1000 * ms;

	while (rte_rdtsc() < end)
		rte_comch_pe_progress(pe);
}

static void
pump_both(unsigned int ms)
{
	uint64_t end = rte_rdtsc() + rte_get_tsc_hz() / 1000 * ms;

	while (rte_rdtsc() < end) {
		rte_comch_pe_progress(srv_pe);
		rte_comch_pe_progress(cli_pe);
	}
}

static void
test_queue_bound_holds_until_reaped(void **state)
{
	static uint32_t seqs[QUEUE * ROUNDS * 2];
	struct rte_comch_connection *conn;
	struct rte_comch_task_send *t;
	unsigned int sent = 0, round, i;
	uint32_t inflight;
	int rc;

	assert_int_equal(rte_comch_client_get_connection(cli, &conn), 0);
	for (round = 0; round < ROUNDS; round++) {
		/* Fill the peer's queue: exactly QUEUE submits succeed. */
		for (i = 0; ; i++) {
			seqs[sent] = sent;
			assert_int_equal(rte_comch_client_task_send_alloc_init(cli, conn,
				&seqs[sent], sizeof(seqs[sent]), &t), 0);
			rte_comch_task_set_user_data(rte_comch_task_send_as_task(t),
						     (union rte_comch_data){ .u64 = sent });
			rc = rte_comch_task_submit(rte_comch_task_send_as_task(t));
			if (rc != 0) {
				assert_int_equal(rc, -EAGAIN);
				rte_comch_task_free(rte_comch_task_send_as_task(t));
				break;
			}
			sent++;
		}
		assert_int_equal(i, QUEUE);
		/* The server takes them all; the client is not told yet. */
		pump(srv_pe, 5);
		assert_int_equal(received, sent);
		seqs[sent] = sent;
		assert_int_equal(rte_comch_client_task_send_alloc_init(cli, conn, &seqs[sent],
								       sizeof(seqs[sent]), &t), 0);
		assert_int_equal(rte_comch_task_submit(rte_comch_task_send_as_task(t)), -EAGAIN);
		rte_comch_task_free(rte_comch_task_send_as_task(t));
		assert_int_equal(rte_comch_ctx_get_num_inflight_tasks(rte_comch_client_as_ctx(cli),
								      &inflight), 0);
		assert_int_equal(inflight, QUEUE);
		/* Now the client learns: every task completes, once. */
		pump(cli_pe, 2);
		assert_int_equal(nb_completed, sent);
	}
	for (i = 0; i < sent; i++)
		assert_int_equal(completed[i], 1);
	assert_int_equal(nb_failed, 0);
}

static int
setup(void **state)
{
	enum rte_comch_ctx_state st = RTE_COMCH_CTX_STATE_IDLE;
	int i;

	if (ct_group_setup(state) < 0)
		return -1;
	dpu = ct_dev_open("domain=bp,role=dpu");
	host = ct_dev_open("domain=bp,role=host");
	rep = dpu != NULL ? rte_comch_dev_rep_open(dpu, "pf0") : NULL;
	srv = rep != NULL ? rte_comch_server_create(dpu, rep, "bp") : NULL;
	cli = host != NULL ? rte_comch_client_create(host, "bp") : NULL;
	/* Two engines on one lcore: each is progressed only when the test says so. */
	srv_pe = rte_comch_pe_create(RTE_COMCH_PE_LCORE_SELF);
	cli_pe = rte_comch_pe_create(RTE_COMCH_PE_LCORE_SELF);
	if (srv == NULL || cli == NULL || srv_pe == NULL || cli_pe == NULL ||
	    rte_comch_server_set_recv_queue_size(srv, QUEUE) != 0 ||
	    rte_comch_server_task_send_set_conf(srv, on_done, on_fail, 4) != 0 ||
	    rte_comch_server_event_msg_recv_register(srv, srv_recv) != 0 ||
	    rte_comch_server_event_connection_status_changed_register(srv, ignore_conn,
								      ignore_conn) != 0 ||
	    rte_comch_client_task_send_set_conf(cli, on_done, on_fail, 256) != 0 ||
	    rte_comch_client_event_msg_recv_register(cli, ignore_recv) != 0 ||
	    rte_comch_pe_connect_ctx(srv_pe, rte_comch_server_as_ctx(srv)) != 0 ||
	    rte_comch_pe_connect_ctx(cli_pe, rte_comch_client_as_ctx(cli)) != 0 ||
	    rte_comch_ctx_start(rte_comch_server_as_ctx(srv)) != 0 ||
	    rte_comch_ctx_start(rte_comch_client_as_ctx(cli)) != -EINPROGRESS)
		return -1;
	for (i = 0; i < 2000 && st != RTE_COMCH_CTX_STATE_RUNNING; i++) {
		pump_both(1);
		rte_comch_ctx_get_state(rte_comch_client_as_ctx(cli), &st);
	}
	return st == RTE_COMCH_CTX_STATE_RUNNING ? 0 : -1;
}

static int
teardown(void **state)
{
	rte_comch_ctx_stop(rte_comch_client_as_ctx(cli));
	pump_both(20);
	rte_comch_ctx_stop(rte_comch_server_as_ctx(srv));
	pump_both(5);
	rte_comch_client_destroy(cli);
	rte_comch_server_destroy(srv);
	rte_comch_pe_destroy(srv_pe);
	rte_comch_pe_destroy(cli_pe);
	rte_comch_dev_rep_close(rep);
	rte_comch_dev_close(dpu);
	rte_comch_dev_close(host);
	return ct_group_teardown(state);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_queue_bound_holds_until_reaped),
	};

	return cmocka_run_group_tests_name("shm back-pressure", tests, setup, teardown);
}
