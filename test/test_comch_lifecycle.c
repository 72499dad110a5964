/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Object lifetimes: destroying an object twice, using a connection after it
 * ended, or a handle whose address a new object took, is refused with -EINVAL
 * (the registry of live objects and the quarantine of destroyed ones), and a
 * process can hold more contexts than DPDK has memzones.
 *
 * These cases run under AddressSanitizer too: a stale handle must never make
 * the library read freed memory, which ASan would report.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_memzone.h>

#include "comch_test_common.h"

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
 * A handle kept after its destroy, when a new object of the same kind was
 * made right after (malloc gives the freed address straight back): the stale
 * handle is refused and the new object is left alone. Before the quarantine,
 * destroying the stale engine destroyed the new one.
 */
static void
test_stale_handle_after_reuse(void **state)
{
	struct rte_comch_buf_pool *pool, *pool2;
	struct rte_comch_mmap *mmap, *mmap2;
	struct rte_comch_pe *pe, *pe2;
	struct rte_comch_dev *dev, *dev2;
	struct rte_comch_client *cli, *cli2;
	char d[32];

	(void)state;
	pe = rte_comch_pe_create(RTE_COMCH_PE_LCORE_SELF);
	assert_non_null(pe);
	assert_int_equal(rte_comch_pe_destroy(pe), 0);
	pe2 = rte_comch_pe_create(RTE_COMCH_PE_LCORE_SELF);
	assert_non_null(pe2);
	assert_ptr_not_equal(pe2, pe);
	assert_int_equal(rte_comch_pe_destroy(pe), -EINVAL);
	assert_int_equal(rte_comch_pe_progress(pe2), 0); /* still alive */

	mmap = rte_comch_mmap_create();
	assert_non_null(mmap);
	assert_int_equal(rte_comch_mmap_destroy(mmap), 0);
	mmap2 = rte_comch_mmap_create();
	assert_non_null(mmap2);
	assert_ptr_not_equal(mmap2, mmap);
	assert_int_equal(rte_comch_mmap_destroy(mmap), -EINVAL);

	pool = rte_comch_buf_pool_create(4);
	assert_non_null(pool);
	assert_int_equal(rte_comch_buf_pool_destroy(pool), 0);
	pool2 = rte_comch_buf_pool_create(4);
	assert_non_null(pool2);
	assert_ptr_not_equal(pool2, pool);
	assert_int_equal(rte_comch_buf_pool_destroy(pool), -EINVAL);

	ct_domain(d, sizeof(d));
	dev = ct_dev_open("domain=%s,role=host", d);
	assert_non_null(dev);
	cli = rte_comch_client_create(dev, "nobody");
	assert_non_null(cli);
	assert_int_equal(rte_comch_client_destroy(cli), 0);
	cli2 = rte_comch_client_create(dev, "nobody");
	assert_non_null(cli2);
	assert_ptr_not_equal(cli2, cli);
	assert_int_equal(rte_comch_client_destroy(cli), -EINVAL);
	assert_int_equal(rte_comch_client_set_connect_timeout(cli, 5), -EINVAL);
	assert_int_equal(rte_comch_client_set_connect_timeout(cli2, 5), 0);
	assert_int_equal(rte_comch_client_destroy(cli2), 0);
	assert_int_equal(rte_comch_dev_close(dev), 0);
	ct_domain(d, sizeof(d));
	dev2 = ct_dev_open("domain=%s,role=host", d);
	assert_non_null(dev2);
	assert_ptr_not_equal(dev2, dev);
	assert_int_equal(rte_comch_dev_close(dev), -EINVAL);

	/* The new ones are whole: each goes exactly once. */
	assert_int_equal(rte_comch_dev_close(dev2), 0);
	assert_int_equal(rte_comch_buf_pool_destroy(pool2), 0);
	assert_int_equal(rte_comch_mmap_destroy(mmap2), 0);
	assert_int_equal(rte_comch_pe_destroy(pe2), 0);
}

/* A handle of one kind given where another is expected: refused, nothing touched. */
static void
test_handle_of_another_kind(void **state)
{
	struct rte_comch_mmap *mmap;
	struct rte_comch_pe *pe;

	(void)state;
	pe = rte_comch_pe_create(RTE_COMCH_PE_LCORE_SELF);
	assert_non_null(pe);
	mmap = rte_comch_mmap_create();
	assert_non_null(mmap);
	assert_int_equal(rte_comch_mmap_start((struct rte_comch_mmap *)pe), -EINVAL);
	assert_int_equal(rte_comch_mmap_destroy((struct rte_comch_mmap *)pe), -EINVAL);
	assert_int_equal(rte_comch_pe_destroy((struct rte_comch_pe *)mmap), -EINVAL);
	assert_int_equal(rte_comch_buf_pool_destroy((struct rte_comch_buf_pool *)pe), -EINVAL);
	assert_int_equal(rte_comch_ctx_start((struct rte_comch_ctx *)mmap), -EINVAL);
	assert_int_equal(rte_comch_dev_close((struct rte_comch_dev *)mmap), -EINVAL);
	/* Memory that is no object at all. */
	assert_int_equal(rte_comch_pe_destroy((struct rte_comch_pe *)(void *)&pe), -EINVAL);
	assert_int_equal(rte_comch_pe_progress(pe), 0);
	assert_int_equal(rte_comch_mmap_destroy(mmap), 0);
	assert_int_equal(rte_comch_pe_destroy(pe), 0);
}

/*
 * Long after: the destroyed object's memory left the quarantine and went back
 * to malloc. The registry still refuses its handle without reading it (under
 * ASan, a read would be reported), and the quarantine stays within its bounds.
 */
static void
test_stale_handle_after_quarantine(void **state)
{
	struct rte_comch_obj_stats st0, st;
	struct rte_comch_mmap *old, *m;
	unsigned int i;

	(void)state;
	assert_int_equal(rte_comch_obj_stats_get(NULL), -EINVAL);
	assert_int_equal(rte_comch_obj_stats_get(&st0), 0);
	old = rte_comch_mmap_create();
	assert_non_null(old);
	assert_int_equal(rte_comch_obj_stats_get(&st), 0);
	assert_int_equal(st.live, st0.live + 1);
	assert_int_equal(rte_comch_mmap_destroy(old), 0);
	for (i = 0; i < 3000; i++) {
		m = rte_comch_mmap_create();
		assert_non_null(m);
		assert_int_equal(rte_comch_mmap_destroy(m), 0);
	}
	assert_int_equal(rte_comch_obj_stats_get(&st), 0);
	assert_int_equal(st.live, st0.live);
	assert_true(st.quarantined < 1024);
	assert_true(st.quarantined_bytes <= 4u << 20);
	assert_int_equal(rte_comch_mmap_destroy(old), -EINVAL);
	assert_int_equal(rte_comch_mmap_start(old), -EINVAL);
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
		cmocka_unit_test(test_stale_handle_after_reuse),
		cmocka_unit_test(test_handle_of_another_kind),
		cmocka_unit_test(test_stale_handle_after_quarantine),
		cmocka_unit_test(test_more_contexts_than_memzones),
	};

	return CT_RUN("comch_lifecycle", tests);
}
