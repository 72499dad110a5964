/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Post-recv tasks submitted from a consumer's own completion callbacks: the
 * library queues them and gives them to the driver together once the round's
 * callbacks are done. What that must keep: every such submit is accepted as
 * before, more of them in one round than the queue holds too; the buffers are
 * filled in the order they were submitted, before and after the round; and a
 * consumer stopped from a callback, with buffers still queued, gives every
 * buffer back once (-ECONNABORTED), the queued ones last. And a consumer
 * with nothing posted, which its engine skips, is polled again from its post.
 */

#include <errno.h>
#include <string.h>

#include <rte_common.h>

#include "comch_test_common.h"

static const int mode_one = CT_FAST_ONE;
static const int mode_split = CT_FAST_SPLIT;

#define MODE(state) ((enum ct_fast_mode)*(const int *)*(state))

/* Buffers of the consumers below, and the message size that fills one. */
#define SLOT 256
#define FIRST 8      /* posted before any message */
#define MORE 70      /* posted from the first message's callback: over twice the queue */

/* What the hooks below did, for the test to check outside the callbacks. */
struct hook_log {
	uint32_t nb_calls;
	int submit_fail;          /* the first submit that failed, or 0 */
	int stop_ret;
	uint8_t *addr[FIRST + MORE + 1]; /* where each message landed, in completion order */
	struct rte_comch_consumer_task_post_recv *reposted;
	struct rte_comch_consumer_task_post_recv *task[FIRST];
};

static struct hook_log hl;

/* The first message's callback posts MORE buffers more: slots FIRST to FIRST + MORE - 1. */
static void
post_more_hook(struct ct_cons *c, struct rte_comch_consumer_task_post_recv *t, int status)
{
	uint32_t i;
	int ret;

	(void)t;
	if (status != 0)
		return;
	if (hl.nb_calls < RTE_DIM(hl.addr))
		hl.addr[hl.nb_calls] = c->last_data;
	if (hl.nb_calls++ != 0)
		return;
	for (i = FIRST; i < FIRST + MORE; i++) {
		ret = ct_cons_post(c, i, NULL);
		if (ret != 0 && hl.submit_fail == 0)
			hl.submit_fail = ret;
	}
}

/*
 * FIRST buffers posted; the first message's callback posts MORE more (the
 * queue fills and goes to the driver in the middle of the round), then the
 * harness posts the first buffer again. Every submit is accepted and every
 * message lands in the next buffer in submit order: slots 1 to FIRST - 1,
 * then FIRST to FIRST + MORE - 1, then slot 0 again.
 */
static void
test_many_in_one_round(void **state)
{
	const uint32_t n = FIRST + MORE + 1;
	struct ct_prod pr;
	struct ct_cons c;
	struct ct_pair p;
	uint32_t i, k;

	memset(&hl, 0, sizeof(hl));
	ct_fast_up(&p, NULL, MODE(state));
	ct_cons_new(&c, p.cconn, ct_fast_pe(&p, false), FIRST + MORE, SLOT, 8);
	c.check = true;
	c.repost = true;
	c.on_done = post_more_hook;
	ct_cons_start(&p, &c, &p.srv);
	for (i = 0; i < FIRST; i++)
		assert_int_equal(ct_cons_post(&c, i, NULL), 0);
	ct_prod_new(&pr, p.sconn, ct_fast_pe(&p, true), 2 * n, SLOT, true);
	/* The first alone: its callback's posts are in before the rest is sent. */
	assert_int_equal(ct_prod_send_retry(&p, &pr, c.id, SLOT, 8, NULL), 0);
	assert_int_equal(ct_fast_wait_count(&p, &c.nb_ok, 1), 0);
	assert_int_equal(hl.submit_fail, 0);
	for (k = 1; k < n; k++)
		assert_int_equal(ct_prod_send_retry(&p, &pr, c.id, SLOT, 8, NULL), 0);
	assert_int_equal(ct_fast_wait_count(&p, &c.nb_ok, n), 0);
	assert_int_equal(ct_fast_wait_count(&p, &pr.nb_ok, n), 0);
	assert_int_equal(c.bad, 0);
	assert_int_equal(c.nb_repost_fail, 0);
	assert_int_equal(ct_cons_next_seq(&c, pr.id), n);
	assert_ptr_equal(hl.addr[0], c.mem);
	for (k = 1; k < FIRST + MORE; k++)
		if (hl.addr[k] != c.mem + (size_t)k * SLOT)
			fail_msg("message %u landed at slot %td, not %u", k,
				 (hl.addr[k] - c.mem) / SLOT, k);
	assert_ptr_equal(hl.addr[FIRST + MORE], c.mem);
	ct_fast_close_all(&p, &pr, 1, &c, 1);
}

/* The first message's callback posts its buffer again, then stops the consumer. */
static void
repost_then_stop_hook(struct ct_cons *c, struct rte_comch_consumer_task_post_recv *t,
		      int status)
{
	if (status != 0 || hl.reposted != NULL)
		return;
	hl.reposted = t;
	hl.submit_fail = ct_cons_repost(t);
	hl.stop_ret = rte_comch_ctx_stop(c->ctx);
}

/*
 * A consumer stopped from the callback that just posted its buffer again:
 * the submit is accepted, the stop completes, and every buffer comes back
 * once with -ECONNABORTED: the FIRST - 1 the driver held, then the one
 * posted in the callback, last.
 */
static void
test_stop_from_callback(void **state)
{
	struct ct_prod pr;
	struct ct_cons c;
	struct ct_pair p;
	uint32_t i;

	memset(&hl, 0, sizeof(hl));
	ct_fast_up(&p, NULL, MODE(state));
	ct_cons_new(&c, p.cconn, ct_fast_pe(&p, false), FIRST, SLOT, 8);
	c.keep_tasks = true;
	c.on_done = repost_then_stop_hook;
	ct_cons_start(&p, &c, &p.srv);
	for (i = 0; i < FIRST; i++)
		assert_int_equal(ct_cons_post(&c, i, &hl.task[i]), 0);
	ct_prod_new(&pr, p.sconn, ct_fast_pe(&p, true), 16, SLOT, true);
	assert_int_equal(ct_prod_send_retry(&p, &pr, c.id, SLOT, 8, NULL), 0);
	assert_int_equal(ct_fast_wait_state(&p, c.ctx, RTE_COMCH_CTX_STATE_IDLE), 0);
	assert_int_equal(c.nb_ok, 1);
	assert_ptr_equal(hl.reposted, hl.task[0]);
	assert_int_equal(hl.submit_fail, 0);
	assert_true(hl.stop_ret == 0 || hl.stop_ret == -EINPROGRESS);
	assert_int_equal(c.nb_err, FIRST);
	for (i = 0; i < FIRST; i++)
		assert_int_equal(c.err_status[i], -ECONNABORTED);
	assert_ptr_equal(c.last_task, hl.task[0]);
	assert_int_equal(c.bad, 0);
	for (i = 0; i < FIRST; i++)
		ct_cons_task_release(hl.task[i]);
	ct_fast_close_all(&p, &pr, 1, &c, 1);
}

#define QUIET_TRIALS 20
#define QUIET_ROUNDS 16

/*
 * A consumer with no receive posted is quiet (its engine skips it until the
 * slow tick); its post ends that. QUIET_TRIALS times: rounds with nothing
 * posted, then one post, one message on it, and one round of the consumer's
 * engine, which must deliver it. A post that left the consumer quiet would
 * leave the message to the next slow tick (100 us), which a round that
 * follows at once meets only now and then.
 */
static void
test_first_post_polled_at_once(void **state)
{
	struct rte_comch_pe *pe;
	uint32_t i, k, at_once = 0;
	struct ct_prod pr;
	struct ct_cons c;
	struct ct_pair p;

	ct_fast_up(&p, NULL, MODE(state));
	pe = ct_fast_pe(&p, false);
	ct_cons_new(&c, p.cconn, pe, 1, SLOT, 8);
	c.check = true;
	ct_cons_start(&p, &c, &p.srv);
	ct_prod_new(&pr, p.sconn, ct_fast_pe(&p, true), 2 * QUIET_TRIALS, SLOT, true);
	for (i = 0; i < QUIET_TRIALS; i++) {
		for (k = 0; k < QUIET_ROUNDS; k++)
			assert_true(ct_fast_progress(&p) >= 0);
		assert_int_equal(ct_cons_post(&c, 0, NULL), 0);
		assert_int_equal(ct_prod_send(&pr, c.id, SLOT, 8, NULL), 0);
		assert_true(rte_comch_pe_progress(pe) >= 0);
		at_once += c.nb_ok == i + 1;
		assert_int_equal(ct_fast_wait_count(&p, &c.nb_ok, i + 1), 0);
	}
	if (at_once < QUIET_TRIALS - 2)
		fail_msg("%u of %u first posts delivered in the next round", at_once,
			 QUIET_TRIALS);
	assert_int_equal(ct_fast_wait_count(&p, &pr.nb_ok, QUIET_TRIALS), 0);
	assert_int_equal(c.bad, 0);
	ct_fast_close_all(&p, &pr, 1, &c, 1);
}

#define BOTH(t) \
	cmocka_unit_test_prestate(t, (void *)&mode_one), \
	cmocka_unit_test_prestate(t, (void *)&mode_split)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		BOTH(test_many_in_one_round),
		BOTH(test_stop_from_callback),
		BOTH(test_first_post_polled_at_once),
	};

	return CT_RUN("comch_fast_repost", tests);
}
