/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Sleeping engines on the fast path. A consumer with buffers posted arms its
 * engine and sleeps; a producer on another engine wakes it, once per progress
 * of the producer's engine (not at submit), or at the send itself on a driver
 * that wakes so (CT_CAP_WAKE_AT_SEND). Engines that poll are never rung.
 * A producer keeps its engine polling while completions are due or while it
 * waits for the peer to post a buffer. Producers and consumers live on engines
 * of their own lcore: the server's and the client's (split), or one each (own).
 */

#include <errno.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>

#include "comch_test_common.h"

static const int mode_split = CT_FAST_SPLIT;
static const int mode_own = CT_FAST_OWN;

#define MODE(state) ((enum ct_fast_mode)*(const int *)*(state))
#define QUIET_MS 50
#define WAKE_MS 2000
#define NB_CYCLES 200

/*
 * Whether the driver wakes a sleeping consumer at the send itself (1) rather
 * than at the producer's next progress (0): a verbs driver's consumer is
 * woken by its completion event, raised by the record the send posted.
 */
static int
wake_at_send(void)
{
	return ct_driver_can(CT_CAP_WAKE_AT_SEND) ? 1 : 0;
}

static int
pe_fd(struct rte_comch_pe *pe)
{
	int fd = -1;

	assert_int_equal(rte_comch_pe_get_notification_fd(pe, &fd), 0);
	assert_true(fd >= 0);
	return fd;
}

/* Every engine of the pair disarmed, so that polling them is the norm again. */
static void
clear_all(struct ct_pair *p)
{
	unsigned int i;

	assert_int_equal(rte_comch_pe_clear_notification(p->pe), 0);
	assert_int_equal(rte_comch_pe_clear_notification(p->cpe), 0);
	for (i = 0; i < p->nb_xpe; i++)
		assert_int_equal(rte_comch_pe_clear_notification(p->xpe[i]), 0);
}

/*
 * A pair in mode, a started consumer (nb_slots of slot bytes, imm_len bytes of
 * immediate data, checking every message) on one side with every slot posted
 * unless !post, and a started producer on the other side. Then everything
 * settles, so that only what the test does next is pending.
 */
static void
up(struct ct_pair *p, enum ct_fast_mode mode, bool cons_on_server, struct ct_cons *c,
   struct ct_prod *pr, uint32_t nb_slots, bool post)
{
	ct_fast_up(p, NULL, mode);
	ct_cons_new(c, cons_on_server ? p->sconn : p->cconn, ct_fast_pe(p, cons_on_server),
		    nb_slots, 1024, 8);
	c->check = true;
	ct_cons_start(p, c, cons_on_server ? &p->cli : &p->srv);
	if (post)
		ct_cons_post_all(c);
	ct_prod_new(pr, cons_on_server ? p->cconn : p->sconn, ct_fast_pe(p, !cons_on_server),
		    64, 4096, true);
	/* the point of it all: they sleep on different engines */
	assert_ptr_not_equal(c->pe, pr->pe);
	ct_fast_progress_for(p, 20);
}

static void
down(struct ct_pair *p, struct ct_cons *c, struct ct_prod *pr, bool cons_on_server)
{
	clear_all(p);
	ct_cons_stop(p, c, cons_on_server ? &p->cli : &p->srv);
	ct_cons_free(c);
	ct_prod_stop(p, pr);
	ct_prod_free(pr);
	ct_pair_close(p);
}

/* The last message c completed is message seq of pr: len bytes, imm_len immediate. */
static void
assert_got(const struct ct_cons *c, const struct ct_prod *pr, uint32_t seq, size_t len,
	   uint32_t imm_len)
{
	uint8_t imm[RTE_COMCH_MAX_IMM_DATA_LEN];

	assert_int_equal(c->bad, 0);
	assert_int_equal(c->last_prod_id, pr->id);
	assert_int_equal(c->last_data_len, len);
	if (len > 0) {
		assert_non_null(c->last_data);
		assert_int_equal(ct_fast_check(c->last_data, len, pr->id, seq), 0);
	}
	assert_int_equal(c->last_imm_len, imm_len);
	ct_fast_imm(imm, imm_len, pr->id, seq);
	assert_memory_equal(c->last_imm, imm, imm_len);
	assert_int_equal(ct_cons_next_seq(c, pr->id), seq + 1);
}

/* 1. Buffers posted, nothing filled: the consumer's engine may sleep, and stays quiet. */
static void
test_arm_with_posted_buffers(void **state)
{
	struct ct_prod pr;
	struct ct_cons c;
	struct ct_pair p;
	uint64_t n = 0;
	int fd, side;

	for (side = 0; side < 2; side++) {
		up(&p, MODE(state), side == 0, &c, &pr, 4, true);
		fd = pe_fd(c.pe);
		/* buffers are really posted: the engine has tasks in flight */
		assert_int_equal(rte_comch_pe_get_num_inflight_tasks(c.pe, &n), 0);
		assert_int_equal(n, 4);
		assert_int_equal(rte_comch_pe_request_notification(c.pe), 0);
		assert_int_equal(ct_fd_readable(fd, QUIET_MS), 0);
		/* armed again at once: nothing happened meanwhile */
		assert_int_equal(rte_comch_pe_clear_notification(c.pe), 0);
		assert_int_equal(rte_comch_pe_request_notification(c.pe), 0);
		assert_int_equal(ct_fd_readable(fd, QUIET_MS), 0);
		assert_int_equal(c.nb_ok + c.nb_err, 0);
		down(&p, &c, &pr, side == 0);
	}
}

/*
 * 2. The producer's progress, not its submit, wakes the sleeping consumer;
 * clear consumes the wake-up; the consumer's progress delivers the message.
 */
static void
test_wake_on_producer_progress(void **state)
{
	struct ct_prod pr;
	struct ct_cons c;
	struct ct_pair p;
	int fd, side;

	for (side = 0; side < 2; side++) {
		up(&p, MODE(state), side == 0, &c, &pr, 4, true);
		fd = pe_fd(c.pe);

		/* data and immediate data */
		assert_int_equal(rte_comch_pe_request_notification(c.pe), 0);
		assert_int_equal(ct_prod_send(&pr, c.id, 300, 8, NULL), 0);
		assert_int_equal(ct_fd_readable(fd, QUIET_MS), wake_at_send());
		assert_int_equal(pr.nb_ok, 0);
		assert_true(rte_comch_pe_progress(pr.pe) >= 0);
		assert_int_equal(pr.nb_ok, 1);
		assert_int_equal(ct_fd_readable(fd, WAKE_MS), 1);
		assert_int_equal(rte_comch_pe_clear_notification(c.pe), 0);
		assert_int_equal(ct_fd_readable(fd, 0), 0);
		assert_int_equal(c.nb_ok, 0);
		assert_int_equal(ct_wait_count(c.pe, &c.nb_ok, 1, CT_TIMEOUT_MS), 0);
		assert_got(&c, &pr, 0, 300, 8);

		/* immediate data only wakes it just the same */
		assert_int_equal(rte_comch_pe_request_notification(c.pe), 0);
		assert_int_equal(ct_fd_readable(fd, 0), 0);
		assert_int_equal(ct_prod_send(&pr, c.id, CT_NOBUF, 5, NULL), 0);
		assert_int_equal(ct_fd_readable(fd, QUIET_MS), wake_at_send());
		assert_true(rte_comch_pe_progress(pr.pe) >= 0);
		assert_int_equal(pr.nb_ok, 2);
		assert_int_equal(ct_fd_readable(fd, WAKE_MS), 1);
		assert_int_equal(rte_comch_pe_clear_notification(c.pe), 0);
		assert_int_equal(ct_fd_readable(fd, 0), 0);
		assert_int_equal(ct_wait_count(c.pe, &c.nb_ok, 2, CT_TIMEOUT_MS), 0);
		assert_got(&c, &pr, 1, 0, 5);
		assert_int_equal(pr.nb_err, 0);
		down(&p, &c, &pr, side == 0);
	}
}

/* 3. A consumer whose engine is not armed is never rung; polling still delivers. */
static void
test_unarmed_never_rung(void **state)
{
	struct ct_prod pr;
	struct ct_cons c;
	struct ct_pair p;
	int fd, i;

	up(&p, MODE(state), true, &c, &pr, 8, true);
	fd = pe_fd(c.pe);

	/* never armed: a polling engine */
	for (i = 0; i < 2; i++) {
		assert_int_equal(ct_prod_send(&pr, c.id, 100 + i, 8, NULL), 0);
		assert_true(rte_comch_pe_progress(pr.pe) >= 0);
		assert_int_equal(pr.nb_ok, (uint32_t)i + 1);
		assert_int_equal(ct_fd_readable(fd, QUIET_MS), 0);
	}
	assert_int_equal(ct_wait_count(c.pe, &c.nb_ok, 2, CT_TIMEOUT_MS), 0);
	assert_got(&c, &pr, 1, 101, 8);

	/* armed, then cleared: polling again */
	assert_int_equal(rte_comch_pe_request_notification(c.pe), 0);
	assert_int_equal(rte_comch_pe_clear_notification(c.pe), 0);
	assert_int_equal(ct_prod_send(&pr, c.id, 200, 8, NULL), 0);
	assert_true(rte_comch_pe_progress(pr.pe) >= 0);
	assert_int_equal(pr.nb_ok, 3);
	assert_int_equal(ct_fd_readable(fd, QUIET_MS), 0);
	assert_int_equal(ct_wait_count(c.pe, &c.nb_ok, 3, CT_TIMEOUT_MS), 0);
	assert_got(&c, &pr, 2, 200, 8);

	/* after a wake-up and its clear, the next sends ring nobody either */
	assert_int_equal(rte_comch_pe_request_notification(c.pe), 0);
	assert_int_equal(ct_prod_send(&pr, c.id, 50, 8, NULL), 0);
	assert_true(rte_comch_pe_progress(pr.pe) >= 0);
	assert_int_equal(ct_fd_readable(fd, WAKE_MS), 1);
	assert_int_equal(rte_comch_pe_clear_notification(c.pe), 0);
	assert_int_equal(ct_prod_send(&pr, c.id, 60, 8, NULL), 0);
	assert_true(rte_comch_pe_progress(pr.pe) >= 0);
	assert_int_equal(pr.nb_ok, 5);
	assert_int_equal(ct_fd_readable(fd, QUIET_MS), 0);
	assert_int_equal(ct_wait_count(c.pe, &c.nb_ok, 5, CT_TIMEOUT_MS), 0);
	assert_got(&c, &pr, 4, 60, 8);
	down(&p, &c, &pr, true);
}

/*
 * 4. A filled buffer already waiting: arming is refused, and the refused engine
 * is left polling (not rung by later sends); progress delivers everything.
 */
static void
test_arm_refused_when_filled(void **state)
{
	struct ct_prod pr;
	struct ct_cons c;
	struct ct_pair p;
	int fd;

	up(&p, MODE(state), true, &c, &pr, 4, true);
	fd = pe_fd(c.pe);

	/* filled before arming, the producer not even progressed */
	assert_int_equal(ct_prod_send(&pr, c.id, 128, 8, NULL), 0);
	assert_int_equal(rte_comch_pe_request_notification(c.pe), -EAGAIN);
	assert_int_equal(rte_comch_pe_request_notification(c.pe), -EAGAIN);
	assert_true(rte_comch_pe_progress(pr.pe) >= 0);
	assert_int_equal(pr.nb_ok, 1);
	assert_int_equal(rte_comch_pe_request_notification(c.pe), -EAGAIN);
	/* refused: not armed, so the next send does not ring it */
	assert_int_equal(ct_prod_send(&pr, c.id, 129, 8, NULL), 0);
	assert_true(rte_comch_pe_progress(pr.pe) >= 0);
	assert_int_equal(pr.nb_ok, 2);
	assert_int_equal(ct_fd_readable(fd, QUIET_MS), 0);
	assert_int_equal(ct_wait_count(c.pe, &c.nb_ok, 2, CT_TIMEOUT_MS), 0);
	assert_got(&c, &pr, 1, 129, 8);
	/* all taken: it may sleep again */
	assert_int_equal(rte_comch_pe_request_notification(c.pe), 0);
	assert_int_equal(ct_fd_readable(fd, QUIET_MS), 0);

	/* woken, cleared but not progressed: the filled buffer refuses arming */
	assert_int_equal(ct_prod_send(&pr, c.id, 130, 8, NULL), 0);
	assert_true(rte_comch_pe_progress(pr.pe) >= 0);
	assert_int_equal(ct_fd_readable(fd, WAKE_MS), 1);
	assert_int_equal(rte_comch_pe_clear_notification(c.pe), 0);
	assert_int_equal(rte_comch_pe_request_notification(c.pe), -EAGAIN);
	assert_int_equal(ct_fd_readable(fd, 0), 0);
	assert_int_equal(ct_wait_count(c.pe, &c.nb_ok, 3, CT_TIMEOUT_MS), 0);
	assert_got(&c, &pr, 2, 130, 8);
	assert_int_equal(rte_comch_pe_request_notification(c.pe), 0);
	down(&p, &c, &pr, true);
}

/*
 * 5. A producer refused with -EAGAIN (nothing posted) keeps its engine polling,
 * even once the peer posts, until one of its sends succeeds and completes.
 */
static void
test_starved_producer_keeps_polling(void **state)
{
	struct ct_prod pr;
	struct ct_cons c;
	struct ct_pair p;
	int i;

	up(&p, MODE(state), true, &c, &pr, 2, false);
	/* a fresh producer lets its engine sleep */
	assert_int_equal(rte_comch_pe_request_notification(pr.pe), 0);
	assert_int_equal(rte_comch_pe_clear_notification(pr.pe), 0);

	assert_int_equal(ct_prod_send(&pr, c.id, 64, 8, NULL), -EAGAIN);
	assert_int_equal(rte_comch_pe_request_notification(pr.pe), -EAGAIN);
	for (i = 0; i < 10; i++) {
		assert_true(ct_fast_progress(&p) >= 0);
		assert_int_equal(rte_comch_pe_request_notification(pr.pe), -EAGAIN);
	}
	assert_int_equal(ct_prod_send(&pr, c.id, 64, 8, NULL), -EAGAIN);
	assert_int_equal(rte_comch_pe_request_notification(pr.pe), -EAGAIN);

	/* the peer posts: that rings nobody, so the producer must still poll */
	assert_int_equal(ct_cons_post(&c, 0, NULL), 0);
	for (i = 0; i < 10; i++) {
		assert_true(ct_fast_progress(&p) >= 0);
		assert_int_equal(rte_comch_pe_request_notification(pr.pe), -EAGAIN);
	}
	assert_int_equal(pr.nb_sent, 0);

	/* sent: the completion is due, then it may sleep */
	assert_int_equal(ct_prod_send(&pr, c.id, 64, 8, NULL), 0);
	assert_int_equal(rte_comch_pe_request_notification(pr.pe), -EAGAIN);
	assert_true(rte_comch_pe_progress(pr.pe) >= 0);
	assert_int_equal(pr.nb_ok, 1);
	assert_int_equal(rte_comch_pe_request_notification(pr.pe), 0);
	assert_int_equal(rte_comch_pe_clear_notification(pr.pe), 0);

	/* starved again on the next one (the only buffer is used up) */
	assert_int_equal(ct_prod_send(&pr, c.id, 64, 8, NULL), -EAGAIN);
	assert_int_equal(rte_comch_pe_request_notification(pr.pe), -EAGAIN);
	assert_int_equal(ct_wait_count(c.pe, &c.nb_ok, 1, CT_TIMEOUT_MS), 0);
	assert_got(&c, &pr, 0, 64, 8);
	assert_int_equal(ct_cons_post(&c, 1, NULL), 0);
	assert_int_equal(ct_prod_send_retry(&p, &pr, c.id, 65, 8, NULL), 0);
	assert_int_equal(ct_fast_wait_count(&p, &pr.nb_ok, 2), 0);
	assert_int_equal(rte_comch_pe_request_notification(pr.pe), 0);
	assert_int_equal(ct_wait_count(c.pe, &c.nb_ok, 2, CT_TIMEOUT_MS), 0);
	assert_got(&c, &pr, 1, 65, 8);
	assert_int_equal(pr.nb_err, 0);
	down(&p, &c, &pr, true);
}

/* 6. Sends completed but not reported yet keep the producer's engine polling. */
static void
test_unreported_completions_keep_polling(void **state)
{
	struct ct_prod pr;
	struct ct_cons c;
	struct ct_pair p;
	int i;

	up(&p, MODE(state), false, &c, &pr, 4, true);
	assert_int_equal(rte_comch_pe_request_notification(pr.pe), 0);
	assert_int_equal(rte_comch_pe_clear_notification(pr.pe), 0);

	assert_int_equal(ct_prod_send(&pr, c.id, 10, 8, NULL), 0);
	assert_int_equal(rte_comch_pe_request_notification(pr.pe), -EAGAIN);
	assert_int_equal(rte_comch_pe_request_notification(pr.pe), -EAGAIN);
	assert_true(rte_comch_pe_progress(pr.pe) >= 0);
	assert_int_equal(pr.nb_ok, 1);
	assert_int_equal(rte_comch_pe_request_notification(pr.pe), 0);
	assert_int_equal(rte_comch_pe_clear_notification(pr.pe), 0);

	/* several: one progress reports them all */
	for (i = 0; i < 3; i++) {
		assert_int_equal(ct_prod_send(&pr, c.id, 20 + i, 8, NULL), 0);
		assert_int_equal(rte_comch_pe_request_notification(pr.pe), -EAGAIN);
	}
	assert_true(rte_comch_pe_progress(pr.pe) >= 0);
	assert_int_equal(pr.nb_ok, 4);
	assert_int_equal(rte_comch_pe_request_notification(pr.pe), 0);
	assert_int_equal(rte_comch_pe_clear_notification(pr.pe), 0);
	assert_int_equal(ct_wait_count(c.pe, &c.nb_ok, 4, CT_TIMEOUT_MS), 0);
	assert_got(&c, &pr, 3, 22, 8);
	assert_int_equal(pr.nb_err, 0);
	down(&p, &c, &pr, false);
}

/* 7. Several consumers, each on its engine: only armed engines that were sent to wake. */
static void
test_only_armed_consumer_woken(void **state)
{
	struct ct_cons c[3];
	struct ct_prod pr;
	struct ct_pair p;
	int fd[3], i;

	(void)state;
	ct_fast_up(&p, NULL, CT_FAST_OWN);
	for (i = 0; i < 3; i++) {
		ct_cons_new(&c[i], p.sconn, ct_fast_pe(&p, true), 4, 1024, 8);
		c[i].check = true;
		ct_cons_start(&p, &c[i], &p.cli);
		ct_cons_post_all(&c[i]);
		fd[i] = pe_fd(c[i].pe);
	}
	assert_ptr_not_equal(c[0].pe, c[1].pe);
	assert_ptr_not_equal(c[1].pe, c[2].pe);
	ct_prod_new(&pr, p.cconn, ct_fast_pe(&p, false), 64, 4096, true);
	ct_fast_progress_for(&p, 20);

	/* only c[0] armed; a message to each */
	assert_int_equal(rte_comch_pe_request_notification(c[0].pe), 0);
	for (i = 0; i < 3; i++)
		assert_int_equal(ct_prod_send(&pr, c[i].id, 100 + i, 8, NULL), 0);
	assert_true(rte_comch_pe_progress(pr.pe) >= 0);
	assert_int_equal(pr.nb_ok, 3);
	assert_int_equal(ct_fd_readable(fd[0], WAKE_MS), 1);
	assert_int_equal(ct_fd_readable(fd[1], QUIET_MS), 0);
	assert_int_equal(ct_fd_readable(fd[2], QUIET_MS), 0);
	assert_int_equal(rte_comch_pe_clear_notification(c[0].pe), 0);
	assert_int_equal(ct_fd_readable(fd[0], 0), 0);
	for (i = 0; i < 3; i++) {
		assert_int_equal(ct_wait_count(c[i].pe, &c[i].nb_ok, 1, CT_TIMEOUT_MS), 0);
		assert_got(&c[i], &pr, 0, 100 + i, 8);
	}

	/* all armed, a message to c[1] only */
	for (i = 0; i < 3; i++)
		assert_int_equal(rte_comch_pe_request_notification(c[i].pe), 0);
	assert_int_equal(ct_prod_send(&pr, c[1].id, 200, 8, NULL), 0);
	assert_true(rte_comch_pe_progress(pr.pe) >= 0);
	assert_int_equal(ct_fd_readable(fd[1], WAKE_MS), 1);
	assert_int_equal(ct_fd_readable(fd[0], QUIET_MS), 0);
	assert_int_equal(ct_fd_readable(fd[2], QUIET_MS), 0);
	assert_int_equal(rte_comch_pe_clear_notification(c[1].pe), 0);
	assert_int_equal(ct_wait_count(c[1].pe, &c[1].nb_ok, 2, CT_TIMEOUT_MS), 0);
	assert_got(&c[1], &pr, 1, 200, 8);

	/* c[0] and c[2] still armed: one burst to both wakes both */
	assert_int_equal(ct_prod_send(&pr, c[2].id, 300, 8, NULL), 0);
	assert_int_equal(ct_prod_send(&pr, c[0].id, 301, 8, NULL), 0);
	assert_true(rte_comch_pe_progress(pr.pe) >= 0);
	assert_int_equal(ct_fd_readable(fd[0], WAKE_MS), 1);
	assert_int_equal(ct_fd_readable(fd[2], WAKE_MS), 1);
	assert_int_equal(ct_fd_readable(fd[1], QUIET_MS), 0);
	for (i = 0; i < 3; i++)
		assert_int_equal(rte_comch_pe_clear_notification(c[i].pe), 0);
	assert_int_equal(ct_wait_count(c[0].pe, &c[0].nb_ok, 2, CT_TIMEOUT_MS), 0);
	assert_int_equal(ct_wait_count(c[2].pe, &c[2].nb_ok, 2, CT_TIMEOUT_MS), 0);
	assert_got(&c[0], &pr, 1, 301, 8);
	assert_got(&c[2], &pr, 1, 300, 8);
	assert_int_equal(c[1].nb_ok, 2);

	clear_all(&p);
	for (i = 0; i < 3; i++) {
		ct_cons_stop(&p, &c[i], &p.cli);
		ct_cons_free(&c[i]);
	}
	ct_prod_stop(&p, &pr);
	ct_prod_free(&pr);
	ct_pair_close(&p);
}

/*
 * One sleep of the consumer: armed with nothing left over, woken by the
 * producer's progress, cleared, the message delivered and its buffer reposted.
 * The producer's engine sleeps meanwhile and nothing rings it.
 */
static void
sleep_cycle(struct ct_cons *c, struct ct_prod *pr, uint32_t seq)
{
	int cfd = pe_fd(c->pe), pfd = pe_fd(pr->pe);
	size_t len = 1 + (seq * 37) % 1000;
	uint32_t imm_len = seq % 9;

	assert_int_equal(rte_comch_pe_request_notification(c->pe), 0);
	assert_int_equal(ct_fd_readable(cfd, 0), 0);
	assert_int_equal(ct_prod_send(pr, c->id, len, imm_len, NULL), 0);
	if (!wake_at_send())
		assert_int_equal(ct_fd_readable(cfd, 0), 0);
	assert_true(rte_comch_pe_progress(pr->pe) >= 0);
	assert_int_equal(pr->nb_ok, pr->nb_sent);
	assert_int_equal(rte_comch_pe_request_notification(pr->pe), 0);
	assert_int_equal(ct_fd_readable(cfd, WAKE_MS), 1);
	assert_int_equal(rte_comch_pe_clear_notification(c->pe), 0);
	assert_int_equal(ct_fd_readable(cfd, 0), 0);
	assert_int_equal(ct_wait_count(c->pe, &c->nb_ok, c->nb_ok + 1, CT_TIMEOUT_MS), 0);
	assert_got(c, pr, seq, len, imm_len);
	assert_int_equal(c->nb_repost_fail, 0);
	assert_int_equal(ct_fd_readable(cfd, 0), 0);
	/* taking and reposting rang nobody */
	assert_int_equal(ct_fd_readable(pfd, 0), 0);
	assert_int_equal(rte_comch_pe_clear_notification(pr->pe), 0);
}

/* 8. Many sleeps in a row: no wake-up lost, none left over. */
static void
test_repeat_cycles(void **state)
{
	struct ct_prod pr;
	struct ct_cons c;
	struct ct_pair p;
	uint32_t i;

	up(&p, MODE(state), true, &c, &pr, 2, true);
	c.repost = true;
	for (i = 0; i < NB_CYCLES; i++)
		sleep_cycle(&c, &pr, i);
	assert_int_equal(c.nb_ok, NB_CYCLES);
	assert_int_equal(pr.nb_ok, NB_CYCLES);
	assert_int_equal(c.nb_err + pr.nb_err, 0);
	down(&p, &c, &pr, true);
}

/*
 * Both ways at once: each side's engine holds a consumer and a producer, and
 * sleeps between messages; each message wakes the other side, which answers.
 */
static void
test_ping_pong_both_sleep(void **state)
{
	struct rte_comch_pe *spe, *cpe;
	struct ct_cons sc, cc;
	struct ct_prod sp, cp;
	struct ct_pair p;
	int sfd, cfd;
	uint32_t i;

	(void)state;
	ct_fast_up(&p, NULL, CT_FAST_SPLIT);
	spe = ct_fast_pe(&p, true);
	cpe = ct_fast_pe(&p, false);
	ct_cons_new(&sc, p.sconn, spe, 2, 256, 8);
	ct_cons_new(&cc, p.cconn, cpe, 2, 256, 8);
	sc.check = cc.check = true;
	sc.repost = cc.repost = true;
	ct_cons_start(&p, &sc, &p.cli);
	ct_cons_start(&p, &cc, &p.srv);
	ct_cons_post_all(&sc);
	ct_cons_post_all(&cc);
	ct_prod_new(&sp, p.sconn, spe, 8, 4096, true);
	ct_prod_new(&cp, p.cconn, cpe, 8, 4096, true);
	ct_fast_progress_for(&p, 20);
	sfd = pe_fd(spe);
	cfd = pe_fd(cpe);

	assert_int_equal(rte_comch_pe_request_notification(spe), 0);
	for (i = 0; i < NB_CYCLES; i++) {
		/* client -> server; the client's progress wakes the server, then it sleeps */
		assert_int_equal(ct_prod_send(&cp, sc.id, 16 + i, 8, NULL), 0);
		assert_true(rte_comch_pe_progress(cpe) >= 0);
		assert_int_equal(cp.nb_ok, i + 1);
		assert_int_equal(rte_comch_pe_request_notification(cpe), 0);
		assert_int_equal(ct_fd_readable(sfd, WAKE_MS), 1);
		assert_int_equal(rte_comch_pe_clear_notification(spe), 0);
		assert_int_equal(ct_wait_count(spe, &sc.nb_ok, i + 1, CT_TIMEOUT_MS), 0);
		assert_got(&sc, &cp, i, 16 + i, 8);
		/* server -> client, the answer */
		assert_int_equal(ct_prod_send(&sp, cc.id, 32 + i, 8, NULL), 0);
		assert_true(rte_comch_pe_progress(spe) >= 0);
		assert_int_equal(sp.nb_ok, i + 1);
		assert_int_equal(rte_comch_pe_request_notification(spe), 0);
		assert_int_equal(ct_fd_readable(cfd, WAKE_MS), 1);
		assert_int_equal(rte_comch_pe_clear_notification(cpe), 0);
		assert_int_equal(ct_wait_count(cpe, &cc.nb_ok, i + 1, CT_TIMEOUT_MS), 0);
		assert_got(&cc, &sp, i, 32 + i, 8);
		/* nothing rang the server meanwhile */
		assert_int_equal(ct_fd_readable(sfd, 0), 0);
	}
	assert_int_equal(sc.nb_repost_fail + cc.nb_repost_fail, 0);
	assert_int_equal(sc.nb_err + cc.nb_err + sp.nb_err + cp.nb_err, 0);

	clear_all(&p);
	ct_prod_stop(&p, &sp);
	ct_prod_stop(&p, &cp);
	ct_prod_free(&sp);
	ct_prod_free(&cp);
	ct_cons_stop(&p, &sc, &p.cli);
	ct_cons_stop(&p, &cc, &p.srv);
	ct_cons_free(&sc);
	ct_cons_free(&cc);
	ct_pair_close(&p);
}

/*
 * 9. Teardown after sleeping: a consumer stopped while armed and restarted
 * (a new doorbell that works), then stopped with a message waiting, and
 * everything destroyed: no descriptor left open.
 */
static void
test_teardown_after_sleep(void **state)
{
	struct ct_prod pr;
	struct ct_cons c;
	struct ct_pair p;
	uint32_t i, seq = 0;
	int fds, fd;

	fds = ct_count_fds();
	up(&p, MODE(state), true, &c, &pr, 4, true);
	c.repost = true;
	fd = pe_fd(c.pe);
	for (i = 0; i < 3; i++)
		sleep_cycle(&c, &pr, seq++);

	/* stopped from an armed engine: the posted buffers come back */
	assert_int_equal(rte_comch_pe_request_notification(c.pe), 0);
	assert_int_equal(rte_comch_ctx_stop(c.ctx), -EINPROGRESS);
	assert_int_equal(rte_comch_pe_clear_notification(c.pe), 0);
	ct_cons_stop(&p, &c, &p.cli);
	assert_int_equal(c.nb_err, 4);
	for (i = 0; i < 4; i++)
		assert_int_equal(c.err_status[i], -ECONNABORTED);
	/* restarted: a fresh post ring and doorbell, sleeping works again */
	c.nb_err = 0;
	ct_cons_start(&p, &c, &p.cli);
	ct_cons_post_all(&c);
	ct_fast_progress_for(&p, 20);
	for (i = 0; i < 3; i++)
		sleep_cycle(&c, &pr, seq++);

	/* woken, not progressed, then stopped: the waiting message is still delivered */
	c.repost = false;
	assert_int_equal(rte_comch_pe_request_notification(c.pe), 0);
	assert_int_equal(ct_prod_send(&pr, c.id, 77, 8, NULL), 0);
	assert_true(rte_comch_pe_progress(pr.pe) >= 0);
	assert_int_equal(ct_fd_readable(fd, WAKE_MS), 1);
	assert_int_equal(rte_comch_pe_clear_notification(c.pe), 0);
	ct_cons_stop(&p, &c, &p.cli);
	assert_got(&c, &pr, seq, 77, 8);
	assert_int_equal(c.nb_ok, 7);
	assert_int_equal(c.nb_err, 3);
	ct_cons_free(&c);
	ct_prod_stop(&p, &pr);
	ct_prod_free(&pr);
	assert_int_equal(pr.nb_err, 0);
	ct_pair_close(&p);
	assert_int_equal(ct_count_fds(), fds);
}

/*
 * 9b. The connection ends (the client, its producer gone, disconnects) while
 * the consumer's engine sleeps: that engine is woken, and its progress ends the
 * consumer (posted buffers back with -ECONNRESET, IDLE). With own engines, the
 * server's engine handles the end first; the consumer's is woken all the same.
 */
static void
test_disconnect_wakes_sleeping_consumer(void **state)
{
	struct ct_prod pr;
	struct ct_cons c;
	struct ct_pair p;
	uint32_t i;
	int fd;

	up(&p, MODE(state), true, &c, &pr, 4, true);
	c.repost = true;
	fd = pe_fd(c.pe);
	sleep_cycle(&c, &pr, 0);
	ct_prod_stop(&p, &pr);
	ct_prod_free(&pr);
	ct_fast_progress_for(&p, 20);

	assert_int_equal(rte_comch_pe_request_notification(c.pe), 0);
	assert_int_equal(ct_fd_readable(fd, QUIET_MS), 0);
	ct_ctx_stop_wait(p.cpe, p.cli.ctx);
	if (c.pe != p.pe) {
		/* the server's engine sees the end; the consumer's still sleeps */
		assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_disconnect, 1, CT_TIMEOUT_MS), 0);
	}
	assert_int_equal(ct_fd_readable(fd, WAKE_MS), 1);
	assert_int_equal(rte_comch_pe_clear_notification(c.pe), 0);
	assert_int_equal(ct_wait_state(c.pe, c.ctx, RTE_COMCH_CTX_STATE_IDLE, CT_TIMEOUT_MS), 0);
	assert_int_equal(c.nb_err, 4);
	for (i = 0; i < 4; i++)
		assert_int_equal(c.err_status[i], -ECONNRESET);
	assert_int_equal(rte_comch_ctx_get_last_error(c.ctx), -ECONNRESET);
	assert_int_equal(ct_fast_wait_count(&p, &p.srv.nb_disconnect, 1), 0);
	clear_all(&p);
	ct_cons_free(&c);
	ct_pair_close(&p);
}

/*
 * Progress the connections' engines and the consumer's (not a producer's own)
 * until the consumer is IDLE and the client side forgot it, within ms.
 */
static void
until_cons_gone(struct ct_pair *p, struct ct_cons *c, unsigned int ms)
{
	uint64_t deadline = ct_now_ms() + ms;
	enum rte_comch_ctx_state st;

	for (;;) {
		assert_int_equal(rte_comch_ctx_get_state(c->ctx, &st), 0);
		if (st == RTE_COMCH_CTX_STATE_IDLE && ct_side_knows(&p->cli, c->id) <= 0)
			break;
		assert_true(ct_now_ms() < deadline);
		assert_true(rte_comch_pe_progress(p->pe) >= 0);
		assert_true(rte_comch_pe_progress(p->cpe) >= 0);
		assert_true(rte_comch_pe_progress(c->pe) >= 0);
	}
}

/*
 * A producer's wake-up still owed when the consumer it filled expires: the
 * withdrawal waits for the producer's engine (a grace period: the producer
 * may be copying into it), whose next round skips the dead consumer and lets
 * it go (own engines, so the connections progress while the producer's
 * engine does not).
 */
static void
test_flush_after_consumer_gone(void **state)
{
	enum rte_comch_ctx_state st;
	struct rte_comch_pe *ppe;
	struct ct_prod pr;
	struct ct_cons c;
	struct ct_pair p;
	uint64_t deadline;
	int fds;

	(void)state;
	fds = ct_count_fds();
	up(&p, CT_FAST_OWN, true, &c, &pr, 4, true);
	ppe = pr.pe;
	assert_ptr_not_equal(ppe, p.pe);
	assert_ptr_not_equal(ppe, p.cpe);
	assert_int_equal(rte_comch_pe_request_notification(c.pe), 0);
	assert_int_equal(ct_prod_send(&pr, c.id, 90, 8, NULL), 0);
	assert_int_equal(rte_comch_ctx_stop(c.ctx), -EINPROGRESS);
	assert_int_equal(rte_comch_pe_clear_notification(c.pe), 0);
	/* every engine but the producer's: the withdrawal is not confirmed without it */
	deadline = ct_now_ms() + 200;
	while (ct_now_ms() < deadline) {
		assert_true(rte_comch_pe_progress(p.pe) >= 0);
		assert_true(rte_comch_pe_progress(p.cpe) >= 0);
		assert_true(rte_comch_pe_progress(c.pe) >= 0);
	}
	assert_int_equal(rte_comch_ctx_get_state(c.ctx, &st), 0);
	assert_int_equal(st, RTE_COMCH_CTX_STATE_STOPPING);
	/* the connection's engine must poll for the end of the grace period, not sleep */
	assert_int_equal(rte_comch_pe_request_notification(p.cpe), -EAGAIN);
	/* one round of the producer's: its owed wake-up goes to nobody, the grace period ends */
	assert_true(rte_comch_pe_progress(ppe) >= 0);
	until_cons_gone(&p, &c, CT_TIMEOUT_MS);
	assert_int_equal(c.nb_ok, 1);
	assert_got(&c, &pr, 0, 90, 8);
	assert_int_equal(c.nb_err, 3);
	ct_cons_free(&c);
	/* that round completed the send too; another, with the consumer destroyed */
	assert_int_equal(pr.nb_ok, 1);
	assert_true(rte_comch_pe_progress(ppe) >= 0);
	assert_int_equal(pr.nb_ok, 1);
	assert_int_equal(pr.nb_err, 0);
	assert_int_equal(rte_comch_pe_request_notification(ppe), 0);
	clear_all(&p);
	ct_prod_stop(&p, &pr);
	ct_prod_free(&pr);
	ct_pair_close(&p);
	assert_int_equal(ct_count_fds(), fds);
}

/*
 * A producer whose engine sleeps holds nothing of the peer's consumers: their
 * withdrawal goes through without waiting for it (nor for the peer's 1 s
 * expiry timeout, which would drop the connection), and the producer, woken,
 * finds the consumer gone.
 */
static void
test_sleeping_producer_lets_consumer_go(void **state)
{
	struct rte_comch_pe *ppe;
	struct ct_prod pr;
	struct ct_cons c;
	struct ct_pair p;
	uint32_t id;

	(void)state;
	up(&p, CT_FAST_OWN, true, &c, &pr, 4, true);
	ppe = pr.pe;
	id = c.id;
	assert_ptr_not_equal(ppe, p.cpe);
	/* one message: the producer owns the consumer; its round wakes it; then it sleeps */
	assert_int_equal(ct_prod_send(&pr, c.id, 90, 8, NULL), 0);
	assert_true(rte_comch_pe_progress(ppe) >= 0);
	assert_int_equal(pr.nb_ok, 1);
	assert_int_equal(rte_comch_pe_request_notification(ppe), 0);
	assert_int_equal(rte_comch_ctx_stop(c.ctx), -EINPROGRESS);
	/* every engine but the sleeping producer's, well within the 1 s expiry timeout */
	until_cons_gone(&p, &c, 700);
	/* an orderly withdrawal: the connection stays, the rest of the posts come back aborted */
	assert_int_equal(p.srv.nb_disconnect, 0);
	assert_int_equal(p.cli.nb_disconnect, 0);
	assert_int_equal(c.nb_ok, 1);
	assert_int_equal(c.nb_err, 3);
	assert_int_equal(c.err_status[0], -ECONNABORTED);
	ct_cons_free(&c);
	/* the producer wakes up and finds it gone */
	assert_int_equal(rte_comch_pe_clear_notification(ppe), 0);
	assert_int_equal(ct_prod_send(&pr, id, 90, 8, NULL), -ENOENT);
	assert_true(rte_comch_pe_progress(ppe) >= 0);
	clear_all(&p);
	ct_prod_stop(&p, &pr);
	ct_prod_free(&pr);
	ct_pair_close(&p);
}

#define BOTH(t) \
	cmocka_unit_test_prestate(t, (void *)&mode_split), \
	cmocka_unit_test_prestate(t, (void *)&mode_own)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		BOTH(test_arm_with_posted_buffers),
		BOTH(test_wake_on_producer_progress),
		BOTH(test_unarmed_never_rung),
		BOTH(test_arm_refused_when_filled),
		BOTH(test_starved_producer_keeps_polling),
		BOTH(test_unreported_completions_keep_polling),
		cmocka_unit_test(test_only_armed_consumer_woken),
		BOTH(test_repeat_cycles),
		cmocka_unit_test(test_ping_pong_both_sleep),
		BOTH(test_teardown_after_sleep),
		BOTH(test_disconnect_wakes_sleeping_consumer),
		cmocka_unit_test(test_flush_after_consumer_gone),
		cmocka_unit_test(test_sleeping_producer_lets_consumer_go),
	};

	return CT_RUN("comch_fast_notify", tests);
}
