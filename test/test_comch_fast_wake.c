/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Wake-ups across engines and lcores that a sleeping application relies on
 * (each found by review): a consumer on its connection's own engine when a
 * callback changes the engine's contexts as the connection ends; a connection
 * engine asleep while a consumer on another lcore starts; a consumer
 * restarting on another lcore while its engine arms and disarms.
 */

#include <errno.h>
#include <poll.h>
#include <string.h>

#include <rte_common.h>
#include <rte_launch.h>
#include <rte_lcore.h>

#include "comch_test_common.h"

#define WORKER 1
#define NB_BUFS 8
#define RESTARTS 300

/* Sleep on an engine's notification fd: 1 if woken within timeout_ms. */
static int
sleep_on(struct rte_comch_pe *pe, int timeout_ms)
{
	struct pollfd pfd = { .events = POLLIN };

	assert_int_equal(rte_comch_pe_get_notification_fd(pe, &pfd.fd), 0);
	return poll(&pfd, 1, timeout_ms);
}

/* A job for the worker lcore, and how it went. */
struct job {
	struct rte_comch_pe *pe;  /* the consumer's engine, on the worker */
	struct ct_cons *c;
	int go;                   /* atomic: the worker may begin */
	int done;                 /* atomic: the worker has finished */
	int failed_line;          /* 0, or where the worker gave up */
	int rounds;               /* restarts completed */
	uint64_t ms;              /* how long the start took */
};

/* Run fn on the worker lcore, progressing the main lcore's engines meanwhile. */
static void
run_on_worker(struct ct_pair *p, lcore_function_t *fn, struct job *j)
{
	__atomic_store_n(&j->done, 0, __ATOMIC_RELAXED);
	assert_int_equal(ct_remote_launch(fn, j, WORKER), 0);
	while (!__atomic_load_n(&j->done, __ATOMIC_ACQUIRE))
		ct_fast_progress(p);
	ct_wait_lcore(WORKER);
}

static int
job_end(struct job *j, int line)
{
	j->failed_line = line;
	__atomic_store_n(&j->done, 1, __ATOMIC_RELEASE);
	return 0;
}

/* Worker: stop the consumer on its own lcore. */
static int
w_stop(void *arg)
{
	struct job *j = arg;

	rte_comch_ctx_stop(j->c->ctx);
	if (ct_wait_state(j->pe, j->c->ctx, RTE_COMCH_CTX_STATE_IDLE, CT_TIMEOUT_MS) != 0)
		return job_end(j, __LINE__);
	return job_end(j, 0);
}

/* ------------------------------------------------------------------ same engine */

static struct ct_prod *hook_prod;

/* Disconnect callback that changes the engine's contexts: a round ends early. */
static void
destroy_prod_hook(struct ct_side *s, struct rte_comch_connection *conn, int status)
{
	RTE_SET_USED(s);
	RTE_SET_USED(conn);
	RTE_SET_USED(status);
	if (hook_prod == NULL)
		return;
	rte_comch_ctx_stop(hook_prod->ctx);
	assert_int_equal(rte_comch_producer_destroy(hook_prod->prod), 0);
	hook_prod->prod = NULL;
}

/*
 * The client leaves while the server's consumer (on the connection's engine)
 * has buffers posted: that engine must not sleep through the consumer's end,
 * even when the disconnect callback destroys a producer of the same engine.
 */
static void
consumer_outlives_connection(bool destroy_in_cb)
{
	enum rte_comch_ctx_state st;
	struct ct_prod pr;
	struct ct_cons c;
	struct ct_pair p;
	int rc, woken = 0;

	ct_fast_up(&p, NULL, CT_FAST_SPLIT);
	ct_cons_new(&c, p.sconn, p.pe, NB_BUFS, 256, 0);
	ct_cons_start(&p, &c, &p.cli);
	ct_cons_post_all(&c);
	ct_prod_new(&pr, p.sconn, p.pe, NB_BUFS, 4096, true);
	hook_prod = destroy_in_cb ? &pr : NULL;
	p.srv.on_disconnect = destroy_prod_hook;
	rc = rte_comch_ctx_stop(p.cli.ctx);
	assert_true(rc == 0 || rc == -EINPROGRESS);
	assert_int_equal(ct_wait_state(p.cpe, p.cli.ctx, RTE_COMCH_CTX_STATE_IDLE, CT_TIMEOUT_MS),
			 0);
	assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_disconnect, 1, CT_TIMEOUT_MS), 0);

	/* Ended already, or work pending, or woken at once: never asleep for it. */
	assert_int_equal(rte_comch_ctx_get_state(c.ctx, &st), 0);
	rc = rte_comch_pe_request_notification(p.pe);
	if (rc == 0)
		woken = sleep_on(p.pe, 1000);
	assert_true(st == RTE_COMCH_CTX_STATE_IDLE || rc == -EAGAIN || woken == 1);
	rte_comch_pe_clear_notification(p.pe);
	assert_int_equal(ct_wait_state(p.pe, c.ctx, RTE_COMCH_CTX_STATE_IDLE, CT_TIMEOUT_MS), 0);
	assert_int_equal(c.nb_err, NB_BUFS);
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
	hook_prod = NULL;
	ct_pair_close(&p);
}

static void
test_consumer_outlives_connection(void **state)
{
	RTE_SET_USED(state);
	consumer_outlives_connection(false);
}

static void
test_consumer_outlives_connection_callback_reshuffles(void **state)
{
	RTE_SET_USED(state);
	consumer_outlives_connection(true);
}

/* ------------------------------------------------------------------ start, asleep */

/* Worker: start the consumer once told to, and time how long it takes. */
static int
w_start(void *arg)
{
	struct job *j = arg;
	enum rte_comch_ctx_state st;
	uint64_t t0, deadline;

	while (!__atomic_load_n(&j->go, __ATOMIC_ACQUIRE))
		;
	t0 = ct_now_ms();
	deadline = t0 + 2 * CT_TIMEOUT_MS;
	rte_comch_ctx_start(j->c->ctx);
	do {
		rte_comch_pe_progress(j->pe);
		rte_comch_ctx_get_state(j->c->ctx, &st);
	} while (st != RTE_COMCH_CTX_STATE_RUNNING && ct_now_ms() < deadline);
	j->ms = ct_now_ms() - t0;
	return job_end(j, st == RTE_COMCH_CTX_STATE_RUNNING ? 0 : __LINE__);
}

/* A consumer's start is served by the connection's engine: it wakes it. */
static void
test_start_wakes_connection_engine(void **state)
{
	struct job j = { 0 };
	struct ct_cons c;
	struct ct_pair p;
	int rc, woken;

	RTE_SET_USED(state);
	ct_fast_up(&p, NULL, CT_FAST_SPLIT);
	j.pe = rte_comch_pe_create(WORKER);
	assert_non_null(j.pe);
	ct_cons_new(&c, p.sconn, j.pe, NB_BUFS, 256, 0);
	j.c = &c;
	ct_fast_progress_for(&p, 50);
	assert_int_equal(ct_remote_launch(w_start, &j, WORKER), 0);
	rc = rte_comch_pe_request_notification(p.pe);
	__atomic_store_n(&j.go, 1, __ATOMIC_RELEASE);
	woken = rc == 0 ? sleep_on(p.pe, 2000) : -1;
	rte_comch_pe_clear_notification(p.pe);
	while (!__atomic_load_n(&j.done, __ATOMIC_ACQUIRE))
		ct_fast_progress(&p);
	ct_wait_lcore(WORKER);
	assert_int_equal(rc, 0);
	assert_int_equal(woken, 1);
	assert_int_equal(j.failed_line, 0);
	assert_true(j.ms < 1000);

	/* And its stop, on its own lcore, is served the same way. */
	run_on_worker(&p, w_stop, &j);
	assert_int_equal(j.failed_line, 0);
	ct_cons_free(&c);
	assert_int_equal(rte_comch_pe_destroy(j.pe), 0);
	ct_pair_close(&p);
}

/* ------------------------------------------------------------------ restarts */

/* Worker: start and stop the consumer, arming and disarming its engine meanwhile. */
static int
w_restart(void *arg)
{
	struct job *j = arg;
	enum rte_comch_ctx_state st;
	uint64_t deadline;
	int i;

	for (i = 0; i < RESTARTS; i++) {
		if (rte_comch_ctx_start(j->c->ctx) != -EINPROGRESS)
			return job_end(j, __LINE__);
		deadline = ct_now_ms() + CT_TIMEOUT_MS;
		do {
			rte_comch_pe_progress(j->pe);
			/* Disarms a STARTING consumer while its post ring is being remade. */
			if (rte_comch_pe_request_notification(j->pe) == 0)
				rte_comch_pe_clear_notification(j->pe);
			rte_comch_ctx_get_state(j->c->ctx, &st);
			if (ct_now_ms() > deadline)
				return job_end(j, __LINE__);
		} while (st != RTE_COMCH_CTX_STATE_RUNNING);
		rte_comch_ctx_stop(j->c->ctx);
		if (ct_wait_state(j->pe, j->c->ctx, RTE_COMCH_CTX_STATE_IDLE, CT_TIMEOUT_MS) != 0)
			return job_end(j, __LINE__);
		j->rounds++;
	}
	return job_end(j, 0);
}

static void
test_restart_while_arming(void **state)
{
	struct job j = { 0 };
	struct ct_cons c;
	struct ct_pair p;

	RTE_SET_USED(state);
	ct_fast_up(&p, NULL, CT_FAST_SPLIT);
	j.pe = rte_comch_pe_create(WORKER);
	assert_non_null(j.pe);
	ct_cons_new(&c, p.sconn, j.pe, NB_BUFS, 256, 0);
	j.c = &c;
	run_on_worker(&p, w_restart, &j);
	assert_int_equal(j.failed_line, 0);
	assert_int_equal(j.rounds, RESTARTS);
	ct_cons_free(&c);
	assert_int_equal(rte_comch_pe_destroy(j.pe), 0);
	ct_pair_close(&p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_consumer_outlives_connection),
		cmocka_unit_test(test_consumer_outlives_connection_callback_reshuffles),
		cmocka_unit_test(test_start_wakes_connection_engine),
		cmocka_unit_test(test_restart_while_arming),
	};

	return CT_RUN("comch_fast_wake", tests);
}
