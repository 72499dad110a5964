/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Fast path across lcores: the server and the client (the connection engines)
 * progress on lcore 0 while producers and consumers run on an engine of lcore
 * 1 (rte_eal_remote_launch): a producer on lcore 1, a consumer on lcore 1, both
 * on lcore 1, and two producers on two lcores sending to one consumer (order
 * kept per producer, every byte checked); producers and consumers created and
 * destroyed on lcore 1 while lcore 0 progresses their connection.
 */

#include <errno.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_pause.h>

#include "comch_test_common.h"

#define WORKER 1
#define N 500

struct wk {
	struct rte_comch_pe *pe;   /* lcore 1's engine */
	struct ct_prod *pr;        /* run on lcore 1, if not NULL */
	struct ct_cons *c;         /* run on lcore 1, if not NULL */
	uint32_t cons_id;          /* where pr sends */
	uint32_t n;
	int go;                    /* main -> worker: the peer knows c */
	int done;                  /* worker -> main */
	int line;                  /* first failed check on lcore 1 */
	int ret;
};

/* No cmocka assertion off the main lcore: record the line and stop. */
#define WCHECK(w, cond) do { \
	if (!(cond)) { \
		(w)->line = __LINE__; \
		goto out; \
	} \
} while (0)

static size_t
msg_len(uint32_t k)
{
	return (k * 97u) % 4097;
}

static uint32_t
msg_imm(uint32_t k)
{
	return k % 17;
}

static int
w_state_wait(struct wk *w, struct rte_comch_ctx *ctx, enum rte_comch_ctx_state want)
{
	return ct_wait_state(w->pe, ctx, want, CT_TIMEOUT_MS);
}

/* Send w->n messages from w->pr (started here), wait for their completions, stop. */
static int
w_produce(struct wk *w)
{
	uint64_t deadline = ct_now_ms() + 2 * CT_TIMEOUT_MS;
	uint32_t k = 0;
	int ret;

	WCHECK(w, rte_comch_ctx_start(w->pr->ctx) == 0);
	while (k < w->n) {
		ret = ct_prod_send(w->pr, w->cons_id, msg_len(k), msg_imm(k), NULL);
		if (ret == 0)
			k++;
		else
			WCHECK(w, ret == -EAGAIN);
		WCHECK(w, rte_comch_pe_progress(w->pe) >= 0);
		WCHECK(w, ct_now_ms() < deadline);
	}
	WCHECK(w, ct_wait_count(w->pe, &w->pr->nb_ok, w->n, CT_TIMEOUT_MS) == 0);
	WCHECK(w, w->pr->nb_err == 0);
	ret = rte_comch_ctx_stop(w->pr->ctx);
	WCHECK(w, ret == 0 || ret == -EINPROGRESS);
	WCHECK(w, w_state_wait(w, w->pr->ctx, RTE_COMCH_CTX_STATE_IDLE) == 0);
	return 0;
out:
	return -1;
}

static int
w_main(void *arg)
{
	struct wk *w = arg;
	uint64_t deadline = ct_now_ms() + CT_TIMEOUT_MS;
	uint32_t i;
	int ret;

	w->ret = -1;
	if (w->c != NULL) {
		WCHECK(w, rte_comch_ctx_start(w->c->ctx) == -EINPROGRESS);
		WCHECK(w, w_state_wait(w, w->c->ctx, RTE_COMCH_CTX_STATE_RUNNING) == 0);
		for (i = 0; i < w->c->nb_slots; i++)
			WCHECK(w, ct_cons_post(w->c, i, NULL) == 0);
	}
	if (w->pr != NULL) {
		/* wait until the connection's engine heard of the consumer */
		while (!__atomic_load_n(&w->go, __ATOMIC_ACQUIRE)) {
			WCHECK(w, rte_comch_pe_progress(w->pe) >= 0);
			WCHECK(w, ct_now_ms() < deadline);
		}
		WCHECK(w, w_produce(w) == 0);
	}
	if (w->c != NULL) {
		WCHECK(w, ct_wait_count(w->pe, &w->c->nb_ok, w->n, 2 * CT_TIMEOUT_MS) == 0);
		ret = rte_comch_ctx_stop(w->c->ctx);
		WCHECK(w, ret == 0 || ret == -EINPROGRESS);
		WCHECK(w, w_state_wait(w, w->c->ctx, RTE_COMCH_CTX_STATE_IDLE) == 0);
	}
	w->ret = 0;
out:
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
	return w->ret;
}

/*
 * Run w on lcore 1 while lcore 0 progresses the pair; main_pr (on lcore 0, may
 * be NULL) sends n messages to main_to once the client knows it.
 */
static void
run(struct ct_pair *p, struct wk *w, struct ct_side *knows, uint32_t id,
    struct ct_prod *main_pr, uint32_t main_to)
{
	uint64_t deadline = ct_now_ms() + 4 * CT_TIMEOUT_MS;
	uint32_t sent = 0;
	int ret;

	assert_int_equal(ct_remote_launch(w_main, w, WORKER), 0);
	while (!__atomic_load_n(&w->done, __ATOMIC_ACQUIRE)) {
		assert_true(ct_fast_progress(p) >= 0);
		if (ct_side_knows(knows, id) > 0)
			__atomic_store_n(&w->go, 1, __ATOMIC_RELEASE);
		if (main_pr != NULL && sent < w->n && ct_side_knows(knows, main_to) > 0) {
			ret = ct_prod_send(main_pr, main_to, msg_len(sent), msg_imm(sent), NULL);
			if (ret == 0)
				sent++;
			else if (ret != -EAGAIN)
				fail_msg("send from lcore 0: %d", ret);
		}
		if (ct_now_ms() > deadline) {
			/* let the worker give up on its own bounds first */
			ct_wait_lcore(WORKER);
			fail_msg("lcore 1 did not finish (line %d)", w->line);
		}
	}
	assert_int_equal(ct_wait_lcore(WORKER), 0);
	assert_int_equal(w->line, 0);
	/* lcore 0's producer may still have sends to finish */
	while (main_pr != NULL && sent < w->n) {
		ret = ct_prod_send_retry(p, main_pr, main_to, msg_len(sent), msg_imm(sent), NULL);
		assert_int_equal(ret, 0);
		sent++;
	}
}

static struct rte_comch_pe *
worker_pe(void)
{
	struct rte_comch_pe *pe = rte_comch_pe_create(WORKER);

	assert_non_null(pe);
	assert_int_equal(rte_comch_pe_get_lcore(pe), WORKER);
	return pe;
}

static void
test_producer_on_lcore1(void **state)
{
	struct wk w = { .n = N };
	struct ct_prod pr;
	struct ct_cons c;
	struct ct_pair p;

	(void)state;
	ct_fast_up(&p, NULL, CT_FAST_SPLIT);
	w.pe = worker_pe();
	ct_cons_new(&c, p.sconn, p.pe, 8, 4096, 16);
	c.check = true;
	c.repost = true;
	ct_cons_start(&p, &c, &p.cli);
	ct_cons_post_all(&c);
	ct_prod_new(&pr, p.cconn, w.pe, 32, 4096, false);
	w.pr = &pr;
	w.cons_id = c.id;

	run(&p, &w, &p.cli, c.id, NULL, 0);
	assert_int_equal(ct_fast_wait_count(&p, &c.nb_ok, N), 0);
	assert_int_equal(c.bad, 0);
	assert_int_equal(ct_cons_next_seq(&c, pr.id), N);
	assert_int_equal(pr.nb_ok, N);
	assert_int_equal(pr.nb_err, 0);

	ct_prod_free(&pr);
	ct_cons_stop(&p, &c, &p.cli);
	ct_cons_free(&c);
	assert_int_equal(rte_comch_pe_destroy(w.pe), 0);
	ct_pair_close(&p);
}

static void
test_consumer_on_lcore1(void **state)
{
	struct wk w = { .n = N };
	struct ct_prod pr;
	struct ct_cons c;
	struct ct_pair p;

	(void)state;
	ct_fast_up(&p, NULL, CT_FAST_SPLIT);
	w.pe = worker_pe();
	ct_cons_new(&c, p.sconn, w.pe, 8, 4096, 16);
	c.check = true;
	c.repost = true;
	w.c = &c;
	ct_prod_new(&pr, p.cconn, p.cpe, 32, 4096, true);

	run(&p, &w, &p.cli, c.id, &pr, c.id);
	assert_int_equal(c.nb_ok, N);
	assert_int_equal(c.bad, 0);
	assert_int_equal(ct_cons_next_seq(&c, pr.id), N);
	/* stopped on lcore 1: its posted buffers were flushed there */
	assert_int_equal(c.nb_err + c.nb_repost_fail, c.nb_slots);
	assert_int_equal(ct_fast_wait_known(&p, &p.cli, c.id, false), 0);
	assert_int_equal(ct_fast_wait_count(&p, &pr.nb_ok, N), 0);
	assert_int_equal(pr.nb_err, 0);

	ct_prod_stop(&p, &pr);
	ct_prod_free(&pr);
	ct_cons_free(&c);
	assert_int_equal(rte_comch_pe_destroy(w.pe), 0);
	ct_pair_close(&p);
}

static void
test_both_on_lcore1(void **state)
{
	struct wk w = { .n = N };
	struct ct_prod pr;
	struct ct_cons c;
	struct ct_pair p;

	(void)state;
	ct_fast_up(&p, NULL, CT_FAST_SPLIT);
	w.pe = worker_pe();
	ct_cons_new(&c, p.sconn, w.pe, 8, 4096, 16);
	c.check = true;
	c.repost = true;
	ct_prod_new(&pr, p.cconn, w.pe, 32, 4096, false);
	w.c = &c;
	w.pr = &pr;
	w.cons_id = c.id;

	run(&p, &w, &p.cli, c.id, NULL, 0);
	assert_int_equal(c.nb_ok, N);
	assert_int_equal(c.bad, 0);
	assert_int_equal(ct_cons_next_seq(&c, pr.id), N);
	assert_int_equal(pr.nb_ok, N);
	assert_int_equal(pr.nb_err, 0);

	ct_prod_free(&pr);
	ct_cons_free(&c);
	assert_int_equal(rte_comch_pe_destroy(w.pe), 0);
	ct_pair_close(&p);
}

/* Producers on lcores 0 and 1 to one consumer: each producer's order is kept. */
static void
test_two_lcores_one_consumer(void **state)
{
	struct ct_prod pr0, pr1;
	struct wk w = { .n = N };
	struct ct_cons c;
	struct ct_pair p;

	(void)state;
	ct_fast_up(&p, NULL, CT_FAST_SPLIT);
	w.pe = worker_pe();
	ct_cons_new(&c, p.sconn, p.pe, 16, 4096, 16);
	c.check = true;
	c.repost = true;
	ct_cons_start(&p, &c, &p.cli);
	ct_cons_post_all(&c);
	ct_prod_new(&pr0, p.cconn, p.cpe, 32, 4096, true);
	ct_prod_new(&pr1, p.cconn, w.pe, 32, 4096, false);
	assert_int_not_equal(pr0.id, pr1.id);
	w.pr = &pr1;
	w.cons_id = c.id;

	run(&p, &w, &p.cli, c.id, &pr0, c.id);
	assert_int_equal(ct_fast_wait_count(&p, &c.nb_ok, 2 * N), 0);
	assert_int_equal(ct_fast_wait_count(&p, &pr0.nb_ok, N), 0);
	assert_int_equal(c.bad, 0);
	assert_int_equal(c.nb_prods, 2);
	assert_int_equal(ct_cons_next_seq(&c, pr0.id), N);
	assert_int_equal(ct_cons_next_seq(&c, pr1.id), N);
	assert_int_equal(pr0.nb_err, 0);
	assert_int_equal(pr1.nb_ok, N);

	ct_prod_stop(&p, &pr0);
	ct_prod_free(&pr0);
	ct_prod_free(&pr1);
	ct_cons_stop(&p, &c, &p.cli);
	ct_cons_free(&c);
	assert_int_equal(rte_comch_pe_destroy(w.pe), 0);
	ct_pair_close(&p);
}

/*
 * Producers and consumers created and destroyed from another thread than the
 * one progressing the connection's engine, as DOCA programs do (one thread
 * per producer and consumer): each call takes the connection's engine for
 * itself, after the round in progress. First, a create waits for a round
 * that is inside a callback; then creates and destroys in a loop on lcore 1
 * while lcore 0 keeps progressing the connection.
 */
struct aside {
	struct ct_pair *p;
	struct rte_comch_mmap *mmap;
	struct rte_comch_producer *prod;
	int inside;          /* lcore 0 is inside a callback of the connection's engine */
	int created_inside;  /* lcore 1's create returned while it was */
	int loop;            /* lcore 1: create and destroy in a loop */
	int done;
	int line;
};

static int
aside_worker(void *arg)
{
	struct aside *a = arg;
	struct rte_comch_consumer *c;
	struct rte_comch_producer *pr;
	int i;

	if (!a->loop) {
		a->prod = rte_comch_producer_create(a->p->sconn);
		a->created_inside = __atomic_load_n(&a->inside, __ATOMIC_ACQUIRE);
		__atomic_store_n(&a->done, 1, __ATOMIC_RELEASE);
		return 0;
	}
	for (i = 0; i < 200; i++) {
		pr = rte_comch_producer_create(a->p->sconn);
		c = rte_comch_consumer_create(a->p->cconn, a->mmap);
		if (pr == NULL || c == NULL) {
			a->line = __LINE__;
			break;
		}
		if (rte_comch_producer_destroy(pr) != 0 || rte_comch_consumer_destroy(c) != 0) {
			a->line = __LINE__;
			break;
		}
	}
	__atomic_store_n(&a->done, 1, __ATOMIC_RELEASE);
	return 0;
}

static void
aside_recv(struct ct_side *s, struct rte_comch_connection *conn, const uint8_t *msg,
	   uint32_t len)
{
	struct aside *a = s->arg;
	uint64_t t0 = ct_now_ms();

	(void)conn;
	(void)msg;
	(void)len;
	__atomic_store_n(&a->inside, 1, __ATOMIC_RELEASE);
	if (ct_remote_launch(aside_worker, a, WORKER) != 0)
		return;
	/* Long enough for lcore 1 to run into the engine, held by this round. */
	while (!__atomic_load_n(&a->done, __ATOMIC_ACQUIRE) && ct_now_ms() - t0 < 100)
		rte_pause();
	__atomic_store_n(&a->inside, 0, __ATOMIC_RELEASE);
}

static void
test_create_from_another_thread(void **state)
{
	struct aside a = { .line = 0 };
	struct ct_pair p;
	uint8_t msg[16];
	uint64_t deadline;
	uint32_t sent = 0;

	(void)state;
	ct_fast_up(&p, NULL, CT_FAST_ONE);
	a.p = &p;
	p.srv.arg = &a;
	p.srv.on_recv = aside_recv;
	ct_msg_fill(msg, sizeof(msg), 0, 0);
	assert_int_equal(ct_send(&p.cli, p.cconn, msg, sizeof(msg), NULL), 0);
	assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_recv, 1, CT_TIMEOUT_MS), 0);
	assert_int_equal(ct_wait_lcore(WORKER), 0);
	assert_non_null(a.prod);
	assert_int_equal(a.created_inside, 0);
	assert_int_equal(rte_comch_producer_destroy(a.prod), 0);

	/* a loop on lcore 1 against a busy connection on lcore 0 */
	p.srv.on_recv = NULL;
	a.loop = 1;
	a.done = 0;
	a.mmap = rte_comch_mmap_create();
	assert_non_null(a.mmap);
	assert_int_equal(rte_comch_mmap_add_dev(a.mmap, p.host), 0);
	assert_int_equal(rte_comch_mmap_alloc_memrange(a.mmap, 4096), 0);
	assert_int_equal(rte_comch_mmap_set_permissions(a.mmap,
		RTE_COMCH_MMAP_PERM_LOCAL_READ_WRITE | RTE_COMCH_MMAP_PERM_PCI_READ_WRITE), 0);
	assert_int_equal(rte_comch_mmap_start(a.mmap), 0);
	assert_int_equal(ct_remote_launch(aside_worker, &a, WORKER), 0);
	deadline = ct_now_ms() + 4 * CT_TIMEOUT_MS;
	while (!__atomic_load_n(&a.done, __ATOMIC_ACQUIRE) && ct_now_ms() < deadline) {
		ct_msg_fill(msg, sizeof(msg), 0, 1 + sent);
		if (ct_send(&p.cli, p.cconn, msg, sizeof(msg), NULL) == 0)
			sent++;
		assert_true(ct_fast_progress(&p) >= 0);
	}
	assert_int_equal(ct_wait_lcore(WORKER), 0);
	assert_int_equal(a.line, 0);
	assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_recv, 1 + sent, CT_TIMEOUT_MS), 0);
	assert_int_equal(p.srv.bad_msgs, 0);
	assert_int_equal(rte_comch_mmap_stop(a.mmap), 0);
	assert_int_equal(rte_comch_mmap_destroy(a.mmap), 0);
	ct_pair_close(&p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_producer_on_lcore1),
		cmocka_unit_test(test_consumer_on_lcore1),
		cmocka_unit_test(test_both_on_lcore1),
		cmocka_unit_test(test_two_lcores_one_consumer),
		cmocka_unit_test(test_create_from_another_thread),
	};

	return CT_RUN("comch_fast_lcore", tests);
}
