/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Object lifetimes: destroying an object twice, or using a connection after it
 * ended, is refused with -EINVAL (the objects' magic words), and a process can
 * hold more contexts than DPDK has memzones.
 *
 * The use-after-destroy cases read freed memory on purpose, which is exactly
 * what AddressSanitizer (and ThreadSanitizer) report: under a sanitizer they are
 * skipped (ASan catches the same mistakes, and more).
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_memzone.h>

#include "comch_test_common.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define CT_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define CT_SANITIZED 1
#endif
#endif

static void
skip_under_asan(void)
{
#ifdef CT_SANITIZED
	print_message("  (reads freed memory on purpose: skipped under a sanitizer)\n");
	skip();
#endif
}

static void
noop_fp_send_cb(struct rte_comch_producer_task_send *t, union rte_comch_data a,
		union rte_comch_data b)
{
	(void)t; (void)a; (void)b;
}

static void
noop_fp_recv_cb(struct rte_comch_consumer_task_post_recv *t, union rte_comch_data a,
		union rte_comch_data b)
{
	(void)t; (void)a; (void)b;
}

/* Every kind of object, destroyed twice: the second time is -EINVAL, not a crash. */
static void
test_destroy_twice(void **state)
{
	struct rte_comch_buf_pool *pool;
	struct rte_comch_mmap *mmap;
	struct rte_comch_pe *pe;
	struct rte_comch_dev *dev;
	struct ct_pair p;
	struct ct_cons c;
	struct ct_prod pr;
	char d[32];

	(void)state;
	skip_under_asan();

	ct_domain(d, sizeof(d));
	dev = ct_dev_open("domain=%s,role=host", d);
	assert_non_null(dev);
	assert_int_equal(rte_comch_dev_close(dev), 0);
	assert_int_equal(rte_comch_dev_close(dev), -EINVAL);

	pe = rte_comch_pe_create(RTE_COMCH_PE_LCORE_SELF);
	assert_non_null(pe);
	assert_int_equal(rte_comch_pe_destroy(pe), 0);
	assert_int_equal(rte_comch_pe_destroy(pe), -EINVAL);
	assert_int_equal(rte_comch_pe_progress(pe), -EINVAL);

	mmap = rte_comch_mmap_create();
	assert_non_null(mmap);
	assert_int_equal(rte_comch_mmap_destroy(mmap), 0);
	assert_int_equal(rte_comch_mmap_destroy(mmap), -EINVAL);
	assert_int_equal(rte_comch_mmap_start(mmap), -EINVAL);

	pool = rte_comch_buf_pool_create(4);
	assert_non_null(pool);
	assert_int_equal(rte_comch_buf_pool_destroy(pool), 0);
	assert_int_equal(rte_comch_buf_pool_destroy(pool), -EINVAL);

	/* Producer and consumer, then representor, server and client. */
	ct_fast_up(&p, &(struct ct_cfg){ 0 }, CT_FAST_ONE);
	ct_prod_new(&pr, p.cconn, p.pe, 4, 4096, false);
	assert_int_equal(rte_comch_producer_task_send_set_conf(pr.prod, noop_fp_send_cb,
							       noop_fp_send_cb, 4), 0);
	ct_cons_new(&c, p.sconn, p.pe, 4, 64, 0);
	assert_int_equal(rte_comch_producer_destroy(pr.prod), 0);
	assert_int_equal(rte_comch_producer_destroy(pr.prod), -EINVAL);
	assert_int_equal(rte_comch_producer_task_send_set_conf(pr.prod, noop_fp_send_cb,
							       noop_fp_send_cb, 4), -EINVAL);
	assert_int_equal(rte_comch_consumer_destroy(c.cons), 0);
	assert_int_equal(rte_comch_consumer_destroy(c.cons), -EINVAL);
	assert_int_equal(rte_comch_consumer_task_post_recv_set_conf(c.cons, noop_fp_recv_cb,
								    noop_fp_recv_cb, 4), -EINVAL);
	assert_int_equal(rte_comch_buf_pool_destroy(c.pool), 0);
	assert_int_equal(rte_comch_mmap_stop(c.mmap), 0);
	assert_int_equal(rte_comch_mmap_destroy(c.mmap), 0);
	assert_int_equal(rte_comch_buf_pool_destroy(pr.pool), 0);
	assert_int_equal(rte_comch_mmap_stop(pr.mmap), 0);
	assert_int_equal(rte_comch_mmap_destroy(pr.mmap), 0);

	ct_ctx_stop_wait(p.cpe, p.cli.ctx);
	ct_ctx_stop_wait(p.pe, p.srv.ctx);
	assert_int_equal(rte_comch_client_destroy(p.cli.client), 0);
	assert_int_equal(rte_comch_client_destroy(p.cli.client), -EINVAL);
	assert_int_equal(rte_comch_client_set_connect_timeout(p.cli.client, 5), -EINVAL);
	assert_int_equal(rte_comch_ctx_start(p.cli.ctx), -EINVAL);
	assert_int_equal(rte_comch_server_destroy(p.srv.server), 0);
	assert_int_equal(rte_comch_server_destroy(p.srv.server), -EINVAL);
	assert_int_equal(rte_comch_server_set_max_msg_size(p.srv.server, 64), -EINVAL);
	assert_int_equal(rte_comch_dev_rep_close(p.rep), 0);
	assert_int_equal(rte_comch_dev_rep_close(p.rep), -EINVAL);
	assert_int_equal(rte_comch_pe_destroy(p.pe), 0);
	assert_int_equal(rte_comch_dev_close(p.dpu), 0);
	assert_int_equal(rte_comch_dev_close(p.host), 0);
}

/* A connection the application kept after it ended and was freed. */
static void
test_connection_after_end(void **state)
{
	struct rte_comch_connection *conn;
	struct rte_comch_task_send *t;
	struct ct_pair p;

	(void)state;
	skip_under_asan();
	ct_pair_up(&p, &(struct ct_cfg){ 0 });
	conn = p.sconn;
	ct_ctx_stop_wait(p.cpe, p.cli.ctx);
	/* The server saw it end; nothing holds it: it is freed. */
	assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_disconnect, 1, CT_TIMEOUT_MS), 0);
	assert_int_equal(rte_comch_server_disconnect(p.srv.server, conn), -EINVAL);
	assert_int_equal(rte_comch_server_task_send_alloc_init(p.srv.server, conn, "x", 1, &t),
			 -EINVAL);
	assert_int_equal(rte_comch_connection_set_user_data(conn, (union rte_comch_data){ 0 }),
			 -EINVAL);
	assert_null(rte_comch_producer_create(conn));
	assert_int_equal(rte_errno, EINVAL);
	ct_pair_close(&p);
}

/*
 * Every started context has its own task pool. Pools used to be rte_mempools,
 * three memzones each, and a process ran out of memzones at about 850 clients:
 * start more than DPDK has memzones for, all at once.
 */
#define NB_MANY (RTE_MAX_MEMZONE / 2)

static void
test_more_contexts_than_memzones(void **state)
{
	static struct ct_side sides[NB_MANY];
	static struct rte_comch_client *cli[NB_MANY];
	struct rte_comch_pe *pe;
	struct rte_comch_dev *dev;
	struct ct_cfg cfg = { .connect_timeout_ms = 60000, .cli_tasks = 4 };
	enum rte_comch_ctx_state st;
	char d[32];
	unsigned int i;

	(void)state;
	ct_domain(d, sizeof(d));
	dev = ct_dev_open("domain=%s,role=host", d);
	assert_non_null(dev);
	pe = rte_comch_pe_create(RTE_COMCH_PE_LCORE_SELF);
	assert_non_null(pe);
	for (i = 0; i < NB_MANY; i++) {
		cli[i] = ct_client_new(&sides[i], dev, "nobody_listens", &cfg);
		assert_non_null(cli[i]);
		assert_int_equal(rte_comch_pe_connect_ctx(pe, sides[i].ctx), 0);
		/* Start makes the pool: the start fails with -ENOMEM if it cannot. */
		if (rte_comch_ctx_start(sides[i].ctx) != -EINPROGRESS)
			fail_msg("client %u of %u could not start", i, NB_MANY);
	}
	ct_progress_for(pe, 20);
	for (i = 0; i < NB_MANY; i++) {
		assert_int_equal(rte_comch_ctx_get_state(sides[i].ctx, &st), 0);
		assert_int_equal(st, RTE_COMCH_CTX_STATE_STARTING);
		assert_int_equal(rte_comch_ctx_stop(sides[i].ctx), 0);
		assert_int_equal(rte_comch_client_destroy(cli[i]), 0);
	}
	assert_int_equal(rte_comch_pe_destroy(pe), 0);
	assert_int_equal(rte_comch_dev_close(dev), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_destroy_twice),
		cmocka_unit_test(test_connection_after_end),
		cmocka_unit_test(test_more_contexts_than_memzones),
	};

	return CT_RUN("comch_lifecycle", tests);
}
