/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Wake-ups across engines and lcores that a sleeping application relies on
 * (found by review): a consumer on its connection's own engine when a callback
 * changes the engine's contexts as the connection ends; a connection engine
 * asleep while a consumer on another lcore starts; a consumer restarting on
 * another lcore while its engine arms and disarms.
 */
#include <errno.h>
#include <string.h>
#include <sys/epoll.h>
#include <rte_common.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include "comch_test_common.h"

#define WORKER 1

/* A consumer on the connection's own engine; the disconnect callback may change the contexts. */
static struct ct_prod *hook_prod;
static void
destroy_prod_hook(struct ct_side *s, struct rte_comch_connection *conn, int status)
{
	(void)s; (void)conn; (void)status;
	if (hook_prod == NULL)
		return;
	rte_comch_ctx_stop(hook_prod->ctx);
	assert_int_equal(rte_comch_producer_destroy(hook_prod->prod), 0);
	hook_prod->prod = NULL;
}

static void
run_same_engine(bool destroy_in_cb)
{
	struct ct_pair p;
	struct ct_cons c;
	struct ct_prod pr;
	enum rte_comch_ctx_state st;
	struct epoll_event ev;
	int fd, rc, n;

	ct_fast_up(&p, NULL, CT_FAST_SPLIT);
	ct_cons_new(&c, p.sconn, p.pe, 8, 256, 0);
	ct_cons_start(&p, &c, &p.cli);
	ct_cons_post_all(&c);
	ct_prod_new(&pr, p.sconn, p.pe, 8, 4096, true);
	hook_prod = destroy_in_cb ? &pr : NULL;
	p.srv.on_disconnect = destroy_prod_hook;
	/* client leaves; progress only its engine until IDLE */
	rc = rte_comch_ctx_stop(p.cli.ctx);
	assert_true(rc == 0 || rc == -EINPROGRESS);
	assert_int_equal(ct_wait_state(p.cpe, p.cli.ctx, RTE_COMCH_CTX_STATE_IDLE, CT_TIMEOUT_MS), 0);
	/* server engine: progress until the disconnect callback ran, then try to sleep */
	assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_disconnect, 1, CT_TIMEOUT_MS), 0);
	rte_comch_ctx_get_state(c.ctx, &st);
	rc = rte_comch_pe_request_notification(p.pe);
	rte_comch_pe_get_notification_fd(p.pe, &fd);
	n = rc == 0 ? epoll_wait(fd, &ev, 1, 1000) : -1;
	/* The consumer's end is due: the engine must not sleep through it. */
	assert_true(st == RTE_COMCH_CTX_STATE_IDLE || rc == -EAGAIN || n == 1);
	rte_comch_pe_clear_notification(p.pe);
	assert_int_equal(ct_wait_state(p.pe, c.ctx, RTE_COMCH_CTX_STATE_IDLE, CT_TIMEOUT_MS), 0);
	assert_int_equal(c.nb_err, 8);
	ct_cons_free(&c);
	if (pr.prod != NULL) {
		ct_ctx_stop_wait(p.pe, pr.ctx);
		ct_prod_free(&pr);
	} else {
		rte_comch_buf_pool_destroy(pr.pool);
		rte_comch_mmap_stop(pr.mmap);
		rte_comch_mmap_destroy(pr.mmap);
	}
	p.srv.on_disconnect = NULL;
	ct_pair_close(&p);
}

static void test_same_engine_plain(void **s) { (void)s; run_same_engine(false); }
static void test_same_engine_gen(void **s) { (void)s; run_same_engine(true); }

/* A consumer restarting on lcore 1 while its engine arms and disarms. */
struct wk { struct rte_comch_pe *pe; struct ct_cons *c; int rounds, done, line, ok; };

static int
w_restart(void *arg)
{
	struct wk *w = arg;
	enum rte_comch_ctx_state st;
	uint64_t deadline;
	int i, rc;

	for (i = 0; i < w->rounds; i++) {
		rc = rte_comch_ctx_start(w->c->ctx);
		if (rc != -EINPROGRESS) { w->line = __LINE__; goto out; }
		deadline = ct_now_ms() + CT_TIMEOUT_MS;
		do {
			rte_comch_pe_progress(w->pe);
			if (rte_comch_pe_request_notification(w->pe) == 0)
				rte_comch_pe_clear_notification(w->pe);
			rte_comch_ctx_get_state(w->c->ctx, &st);
			if (ct_now_ms() > deadline) { w->line = __LINE__; goto out; }
		} while (st != RTE_COMCH_CTX_STATE_RUNNING);
		rc = rte_comch_ctx_stop(w->c->ctx);
		if (ct_wait_state(w->pe, w->c->ctx, RTE_COMCH_CTX_STATE_IDLE, CT_TIMEOUT_MS) != 0) {
			w->line = __LINE__; goto out;
		}
		w->ok++;
	}
out:
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
	return 0;
}

static void
test_restart_race(void **s)
{
	struct ct_pair p;
	struct ct_cons c;
	struct wk w = { .rounds = 300 };

	(void)s;
	ct_fast_up(&p, NULL, CT_FAST_SPLIT);
	w.pe = rte_comch_pe_create(WORKER);
	assert_non_null(w.pe);
	ct_cons_new(&c, p.sconn, w.pe, 8, 256, 0);
	w.c = &c;
	assert_int_equal(rte_eal_remote_launch(w_restart, &w, WORKER), 0);
	while (!__atomic_load_n(&w.done, __ATOMIC_ACQUIRE))
		ct_fast_progress(&p);
	rte_eal_wait_lcore(WORKER);
	assert_int_equal(w.line, 0);
	assert_int_equal(w.ok, w.rounds);
	ct_cons_free(&c);
	assert_int_equal(rte_comch_pe_destroy(w.pe), 0);
	ct_pair_close(&p);
}

/* A consumer starting on lcore 1 while its connection's engine sleeps. */
struct wk2 { struct rte_comch_pe *pe; struct ct_cons *c; int go, done; uint64_t ms; };

static int
w_start(void *arg)
{
	struct wk2 *w = arg;
	enum rte_comch_ctx_state st;
	uint64_t t0, deadline;

	while (!__atomic_load_n(&w->go, __ATOMIC_ACQUIRE))
		;
	t0 = ct_now_ms();
	deadline = t0 + 4000;
	rte_comch_ctx_start(w->c->ctx);
	do {
		rte_comch_pe_progress(w->pe);
		rte_comch_ctx_get_state(w->c->ctx, &st);
	} while (st != RTE_COMCH_CTX_STATE_RUNNING && ct_now_ms() < deadline);
	w->ms = ct_now_ms() - t0;
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
	return 0;
}

static int
w_stop(void *arg)
{
	struct wk2 *w = arg;

	rte_comch_ctx_stop(w->c->ctx);
	w->ms = ct_wait_state(w->pe, w->c->ctx, RTE_COMCH_CTX_STATE_IDLE, CT_TIMEOUT_MS);
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
	return 0;
}

static void
test_start_while_conn_engine_sleeps(void **s)
{
	struct ct_pair p;
	struct ct_cons c;
	struct wk2 w = { 0 };
	struct epoll_event ev;
	int fd, n, rc;

	(void)s;
	ct_fast_up(&p, NULL, CT_FAST_SPLIT);
	w.pe = rte_comch_pe_create(WORKER);
	ct_cons_new(&c, p.sconn, w.pe, 8, 256, 0);
	w.c = &c;
	ct_fast_progress_for(&p, 50);
	assert_int_equal(rte_eal_remote_launch(w_start, &w, WORKER), 0);
	rc = rte_comch_pe_request_notification(p.pe);
	rte_comch_pe_get_notification_fd(p.pe, &fd);
	__atomic_store_n(&w.go, 1, __ATOMIC_RELEASE);
	n = rc == 0 ? epoll_wait(fd, &ev, 1, 2000) : -2;
	rte_comch_pe_clear_notification(p.pe);
	while (!__atomic_load_n(&w.done, __ATOMIC_ACQUIRE))
		ct_fast_progress(&p);
	rte_eal_wait_lcore(WORKER);
	/* The start's request woke the sleeping connection engine, well before 2 s. */
	assert_int_equal(rc, 0);
	assert_int_equal(n, 1);
	assert_true(w.ms < 1000);
	/* Stopped on its own lcore, while the connection's engine answers for it. */
	w.done = 0;
	assert_int_equal(rte_eal_remote_launch(w_stop, &w, WORKER), 0);
	while (!__atomic_load_n(&w.done, __ATOMIC_ACQUIRE))
		ct_fast_progress(&p);
	rte_eal_wait_lcore(WORKER);
	assert_int_equal(w.ms, 0);
	ct_cons_free(&c);
	assert_int_equal(rte_comch_pe_destroy(w.pe), 0);
	ct_pair_close(&p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_engine_plain),
		cmocka_unit_test(test_same_engine_gen),
		cmocka_unit_test(test_start_while_conn_engine_sleeps),
		cmocka_unit_test(test_restart_race),
	};
	return CT_RUN("comch_fast_wake", tests);
}
