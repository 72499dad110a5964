/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Fast path life cycle, on one engine and on two (split) or more engines of one
 * lcore: consumer ids, new and expired consumer events on the other side,
 * -ENOENT before the new event and after expiry, -EAGAIN until a buffer is
 * posted (nothing dropped), a consumer stopped and destroyed while a producer
 * sends, the teardown order (-EBUSY), connections that end under live
 * producers and consumers (-ECONNRESET, -ENOTCONN), and a peer slow to confirm
 * a consumer's stop (the stop completes, the connection stays, the id and the
 * mmap stay quarantined until the confirmation or the end).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>

#include "comch_test_common.h"

static const int mode_one = CT_FAST_ONE;
static const int mode_split = CT_FAST_SPLIT;
static const int mode_own = CT_FAST_OWN;

#define MODE(state) ((enum ct_fast_mode)*(const int *)*(state))
#define NB 4

static bool
has_id(const uint32_t *ids, uint32_t n, uint32_t id)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (ids[i] == id)
			return true;
	return false;
}

static void
test_ids_and_events(void **state)
{
	struct ct_cons sc[NB], cc[NB];
	struct ct_pair p;
	int i, j;

	ct_fast_up(&p, NULL, MODE(state));
	for (i = 0; i < NB; i++) {
		ct_cons_new(&sc[i], p.sconn, ct_fast_pe(&p, true), 2, 64, 0);
		ct_cons_new(&cc[i], p.cconn, ct_fast_pe(&p, false), 2, 64, 0);
		for (j = 0; j < i; j++) {
			assert_int_not_equal(sc[i].id, sc[j].id);
			assert_int_not_equal(cc[i].id, cc[j].id);
		}
	}
	/* nothing is announced before start */
	ct_fast_progress_for(&p, 20);
	assert_int_equal(p.cli.nb_new_cons, 0);
	assert_int_equal(p.srv.nb_new_cons, 0);

	for (i = 0; i < NB; i++) {
		ct_cons_start(&p, &sc[i], &p.cli);
		ct_cons_start(&p, &cc[i], &p.srv);
	}
	ct_fast_progress_for(&p, 20);
	/* each event fired once, on the side opposite the consumer, on its connection */
	assert_int_equal(p.cli.nb_new_cons, NB);
	assert_int_equal(p.srv.nb_new_cons, NB);
	assert_ptr_equal(p.cli.new_cons_conn, p.cconn);
	assert_ptr_equal(p.srv.new_cons_conn, p.sconn);
	for (i = 0; i < NB; i++) {
		assert_true(has_id(p.cli.new_cons, NB, sc[i].id));
		assert_true(has_id(p.srv.new_cons, NB, cc[i].id));
	}
	assert_int_equal(p.cli.nb_exp_cons, 0);
	assert_int_equal(p.srv.nb_exp_cons, 0);

	/* expired: on the other side only, with the right id */
	ct_cons_stop(&p, &sc[1], &p.cli);
	assert_int_equal(p.cli.nb_exp_cons, 1);
	assert_int_equal(p.cli.exp_cons[0], sc[1].id);
	assert_ptr_equal(p.cli.exp_cons_conn, p.cconn);
	assert_int_equal(p.srv.nb_exp_cons, 0);
	ct_cons_stop(&p, &cc[2], &p.srv);
	assert_int_equal(p.srv.nb_exp_cons, 1);
	assert_int_equal(p.srv.exp_cons[0], cc[2].id);
	assert_ptr_equal(p.srv.exp_cons_conn, p.sconn);
	assert_int_equal(p.cli.nb_exp_cons, 1);

	for (i = 0; i < NB; i++) {
		ct_cons_stop(&p, &sc[i], &p.cli);
		ct_cons_stop(&p, &cc[i], &p.srv);
		ct_cons_free(&sc[i]);
		ct_cons_free(&cc[i]);
	}
	ct_fast_progress_for(&p, 20);
	assert_int_equal(p.cli.nb_exp_cons, NB);
	assert_int_equal(p.srv.nb_exp_cons, NB);
	for (i = 0; i < NB; i++) {
		assert_true(has_id(p.cli.exp_cons, NB, sc[i].id));
		assert_true(has_id(p.srv.exp_cons, NB, cc[i].id));
	}
	ct_pair_close(&p);
}

/* -ENOENT for unknown ids, before the new-consumer event and after expiry; -EAGAIN. */
static void
test_enoent_eagain(void **state)
{
	struct ct_prod pr;
	struct ct_cons c;
	struct ct_pair p;
	int i;

	ct_fast_up(&p, NULL, MODE(state));
	ct_cons_new(&c, p.sconn, ct_fast_pe(&p, true), 2, 64, 4);
	c.check = true;
	ct_prod_new(&pr, p.cconn, ct_fast_pe(&p, false), 4, 4096, true);

	assert_int_equal(ct_prod_send(&pr, c.id, 16, 4, NULL), -ENOENT);
	assert_int_equal(ct_prod_send(&pr, c.id + 1000, 16, 4, NULL), -ENOENT);
	/* started, but the client has not been told yet */
	assert_int_equal(rte_comch_ctx_start(c.ctx), -EINPROGRESS);
	assert_int_equal(p.cli.nb_new_cons, 0);
	assert_int_equal(ct_prod_send(&pr, c.id, 16, 4, NULL), -ENOENT);
	assert_int_equal(ct_fast_wait_state(&p, c.ctx, RTE_COMCH_CTX_STATE_RUNNING), 0);
	assert_int_equal(ct_fast_wait_known(&p, &p.cli, c.id, true), 0);

	/* known, nothing posted: -EAGAIN, whatever the progress */
	for (i = 0; i < 10; i++) {
		assert_int_equal(ct_prod_send(&pr, c.id, 16, 4, NULL), -EAGAIN);
		assert_int_equal(ct_prod_send(&pr, c.id, 0, 0, NULL), -EAGAIN);
		assert_int_equal(ct_prod_send(&pr, c.id, CT_NOBUF, 4, NULL), -EAGAIN);
		assert_true(ct_fast_progress(&p) >= 0);
	}
	assert_int_equal(c.nb_ok, 0);
	assert_int_equal(pr.nb_sent, 0);
	/* one buffer posted: exactly one message, the one sent now */
	assert_int_equal(ct_cons_post(&c, 0, NULL), 0);
	assert_int_equal(ct_prod_send_retry(&p, &pr, c.id, 40, 4, NULL), 0);
	assert_int_equal(ct_prod_send(&pr, c.id, 16, 4, NULL), -EAGAIN);
	assert_int_equal(ct_fast_wait_count(&p, &c.nb_ok, 1), 0);
	assert_int_equal(ct_fast_wait_count(&p, &pr.nb_ok, 1), 0);
	ct_fast_progress_for(&p, 20);
	assert_int_equal(c.nb_ok, 1);
	assert_int_equal(c.bad, 0);
	assert_int_equal(c.last_data_len, 40);
	assert_int_equal(ct_cons_next_seq(&c, pr.id), 1);
	assert_int_equal(pr.nb_err, 0);

	/* expired: -ENOENT again, also once the consumer is gone */
	assert_int_equal(ct_cons_post(&c, 1, NULL), 0);
	ct_cons_stop(&p, &c, &p.cli);
	assert_int_equal(ct_prod_send(&pr, c.id, 16, 4, NULL), -ENOENT);
	assert_int_equal(c.nb_err, 1);
	assert_int_equal(c.err_status[0], -ECONNABORTED);
	ct_cons_free(&c);
	ct_fast_progress_for(&p, 20);
	assert_int_equal(ct_prod_send(&pr, c.id, 16, 4, NULL), -ENOENT);
	assert_int_equal(ct_prod_send(&pr, c.id, CT_NOBUF, 0, NULL), -ENOENT);
	ct_prod_stop(&p, &pr);
	ct_prod_free(&pr);
	ct_pair_close(&p);
}

/* A consumer stopped, then destroyed, while a producer keeps sending to it. */
static void
test_consumer_gone_while_sending(void **state)
{
	struct ct_prod pr;
	struct ct_cons c;
	struct ct_pair p;
	uint64_t deadline;
	int ret, i, nb_after = 0;

	ct_fast_up(&p, NULL, MODE(state));
	ct_cons_new(&c, p.cconn, ct_fast_pe(&p, false), 4, 512, 8);
	c.check = true;
	c.repost = true;
	ct_cons_start(&p, &c, &p.srv);
	ct_cons_post_all(&c);
	ct_prod_new(&pr, p.sconn, ct_fast_pe(&p, true), 16, 4096, true);
	for (i = 0; i < 20; i++)
		assert_int_equal(ct_prod_send_retry(&p, &pr, c.id, 100 + i, 8, NULL), 0);

	assert_int_equal(rte_comch_ctx_stop(c.ctx), -EINPROGRESS);
	deadline = ct_now_ms() + CT_TIMEOUT_MS;
	for (;;) {
		bool gone = ct_side_knows(&p.srv, c.id) <= 0;

		ret = ct_prod_send(&pr, c.id, 300, 8, NULL);
		if (gone) {
			/* once the expired event is in, never anything but -ENOENT */
			assert_int_equal(ret, -ENOENT);
			if (++nb_after == 20)
				break;
		} else {
			assert_true(ret == 0 || ret == -EAGAIN || ret == -ENOENT);
		}
		assert_true(ct_fast_progress(&p) >= 0);
		assert_true(ct_now_ms() < deadline);
	}
	assert_int_equal(ct_fast_wait_state(&p, c.ctx, RTE_COMCH_CTX_STATE_IDLE), 0);
	ct_cons_free(&c);
	for (i = 0; i < 20; i++) {
		assert_int_equal(ct_prod_send(&pr, c.id, 300, 8, NULL), -ENOENT);
		assert_true(ct_fast_progress(&p) >= 0);
	}
	/* every message the producer got in was delivered, in order, intact */
	assert_int_equal(ct_fast_wait_count(&p, &pr.nb_ok, pr.nb_sent), 0);
	assert_int_equal(pr.nb_err, 0);
	assert_int_equal(c.nb_ok, pr.nb_sent);
	assert_int_equal(c.bad, 0);
	assert_int_equal(c.nb_err + c.nb_repost_fail, c.nb_slots);
	ct_prod_stop(&p, &pr);
	ct_prod_free(&pr);
	ct_pair_close(&p);
}

/* Stopped while STARTING, then started again: the events stay paired; data flows. */
static void
test_stop_starting_restart(void **state)
{
	struct ct_prod pr;
	struct ct_cons c;
	struct ct_pair p;
	int ret;

	ct_fast_up(&p, NULL, MODE(state));
	ct_cons_new(&c, p.sconn, ct_fast_pe(&p, true), 2, 64, 0);
	c.check = true;
	ct_prod_new(&pr, p.cconn, ct_fast_pe(&p, false), 4, 4096, true);

	assert_int_equal(rte_comch_ctx_start(c.ctx), -EINPROGRESS);
	ret = rte_comch_ctx_stop(c.ctx);
	assert_true(ret == 0 || ret == -EINPROGRESS);
	assert_int_equal(ct_fast_wait_state(&p, c.ctx, RTE_COMCH_CTX_STATE_IDLE), 0);
	ct_fast_progress_for(&p, 50);
	/* the client heard of it either not at all, or born and expired */
	assert_int_equal(ct_side_knows(&p.cli, c.id), 0);
	assert_int_equal(p.cli.nb_new_cons, p.cli.nb_exp_cons);
	assert_int_equal(ct_prod_send(&pr, c.id, 8, 0, NULL), -ENOENT);

	/* IDLE again: it starts again, with the same id, and receives */
	ct_cons_start(&p, &c, &p.cli);
	ct_cons_post_all(&c);
	assert_int_equal(ct_prod_send_retry(&p, &pr, c.id, 30, 0, NULL), 0);
	assert_int_equal(ct_fast_wait_count(&p, &c.nb_ok, 1), 0);
	assert_int_equal(c.bad, 0);
	ct_cons_stop(&p, &c, &p.cli);
	assert_int_equal(ct_prod_send(&pr, c.id, 8, 0, NULL), -ENOENT);
	/* and once more: a second life after a full one */
	ct_cons_start(&p, &c, &p.cli);
	ct_cons_post_all(&c);
	assert_int_equal(ct_prod_send_retry(&p, &pr, c.id, 31, 0, NULL), 0);
	assert_int_equal(ct_fast_wait_count(&p, &c.nb_ok, 2), 0);
	assert_int_equal(c.bad, 0);
	assert_int_equal(ct_cons_next_seq(&c, pr.id), 2);
	ct_cons_stop(&p, &c, &p.cli);
	assert_int_equal(p.cli.nb_new_cons, p.cli.nb_exp_cons);
	ct_cons_free(&c);
	ct_prod_stop(&p, &pr);
	ct_prod_free(&pr);
	ct_pair_close(&p);
}

/*
 * A producer stopped right after a submit: the message is already in the
 * consumer's buffer, so it is delivered and its send succeeds (a message is
 * either taken or not, never both).
 */
static void
test_producer_stop_inflight(void **state)
{
	struct ct_prod pr;
	struct ct_cons c;
	struct ct_pair p;
	int ret;

	ct_fast_up(&p, NULL, MODE(state));
	ct_cons_new(&c, p.sconn, ct_fast_pe(&p, true), 4, 64, 0);
	c.check = true;
	ct_cons_start(&p, &c, &p.cli);
	ct_cons_post_all(&c);
	ct_prod_new(&pr, p.cconn, ct_fast_pe(&p, false), 4, 4096, true);
	assert_int_equal(ct_prod_send_retry(&p, &pr, c.id, 20, 0, NULL), 0);
	assert_int_equal(ct_prod_send(&pr, c.id, 21, 0, NULL), 0);
	assert_int_equal(ct_prod_send(&pr, c.id, 22, 0, NULL), 0);
	ret = rte_comch_ctx_stop(pr.ctx);
	assert_true(ret == 0 || ret == -EINPROGRESS);
	assert_int_equal(ct_fast_wait_state(&p, pr.ctx, RTE_COMCH_CTX_STATE_IDLE), 0);
	assert_int_equal(ct_fast_wait_count(&p, &c.nb_ok, 3), 0);
	assert_int_equal(c.bad, 0);
	assert_int_equal(pr.nb_ok + pr.nb_err, 3);
	assert_int_equal(pr.nb_err, 0);
	ct_prod_free(&pr);
	ct_cons_stop(&p, &c, &p.cli);
	ct_cons_free(&c);
	ct_pair_close(&p);
}

/*
 * A consumer stopped with messages already in two of its four buffers (not
 * yet reported): those two complete with their data, the two empty ones are
 * flushed with -ECONNABORTED; the producer's sends all succeed.
 */
static void
test_consumer_stop_landed(void **state)
{
	struct ct_prod pr;
	struct ct_cons c;
	struct ct_pair p;
	uint32_t i;

	ct_fast_up(&p, NULL, MODE(state));
	ct_cons_new(&c, p.sconn, ct_fast_pe(&p, true), 4, 64, 0);
	c.check = true;
	ct_cons_start(&p, &c, &p.cli);
	ct_cons_post_all(&c);
	ct_prod_new(&pr, p.cconn, ct_fast_pe(&p, false), 4, 4096, true);
	/* the first one waits for the posted buffers to be seen; then no progress */
	assert_int_equal(ct_prod_send_retry(&p, &pr, c.id, 40, 0, NULL), 0);
	assert_int_equal(ct_prod_send(&pr, c.id, 41, 0, NULL), 0);
	assert_int_equal(rte_comch_ctx_stop(c.ctx), -EINPROGRESS);
	assert_int_equal(ct_fast_wait_state(&p, c.ctx, RTE_COMCH_CTX_STATE_IDLE), 0);
	assert_int_equal(c.nb_ok, 2);
	assert_int_equal(c.bad, 0);
	assert_int_equal(c.nb_err, 2);
	for (i = 0; i < c.nb_err; i++)
		assert_int_equal(c.err_status[i], -ECONNABORTED);
	assert_int_equal(ct_fast_wait_count(&p, &pr.nb_ok, 2), 0);
	assert_int_equal(pr.nb_err, 0);
	ct_cons_free(&c);
	ct_prod_stop(&p, &pr);
	ct_prod_free(&pr);
	ct_pair_close(&p);
}

static void
assert_running(struct rte_comch_ctx *ctx)
{
	enum rte_comch_ctx_state st;

	assert_int_equal(rte_comch_ctx_get_state(ctx, &st), 0);
	assert_int_equal(st, RTE_COMCH_CTX_STATE_RUNNING);
}

/* Producers and consumers first, then connections, then servers and clients. */
static void
test_teardown_order(void **state)
{
	struct ct_prod sp, cp;
	struct ct_cons sc, cc;
	struct ct_pair p;

	ct_fast_up(&p, NULL, MODE(state));
	ct_cons_new(&sc, p.sconn, ct_fast_pe(&p, true), 2, 64, 0);
	ct_cons_new(&cc, p.cconn, ct_fast_pe(&p, false), 2, 64, 0);
	ct_prod_new(&sp, p.sconn, ct_fast_pe(&p, true), 4, 4096, true);
	ct_prod_new(&cp, p.cconn, ct_fast_pe(&p, false), 4, 4096, true);
	ct_cons_start(&p, &sc, &p.cli);
	ct_cons_start(&p, &cc, &p.srv);
	ct_cons_post_all(&sc);
	ct_cons_post_all(&cc);
	assert_int_equal(ct_prod_send_retry(&p, &sp, cc.id, 10, 0, NULL), 0);
	assert_int_equal(ct_prod_send_retry(&p, &cp, sc.id, 10, 0, NULL), 0);

	assert_int_equal(rte_comch_server_disconnect(p.srv.server, p.sconn), -EBUSY);
	assert_int_equal(rte_comch_ctx_stop(p.cli.ctx), -EBUSY);
	assert_int_equal(rte_comch_ctx_stop(p.srv.ctx), -EBUSY);
	assert_running(p.cli.ctx);
	assert_running(p.srv.ctx);

	/* the server's producer gone: its consumer still holds the connection */
	ct_prod_stop(&p, &sp);
	ct_prod_free(&sp);
	assert_int_equal(rte_comch_server_disconnect(p.srv.server, p.sconn), -EBUSY);
	assert_int_equal(rte_comch_ctx_stop(p.srv.ctx), -EBUSY);
	/* the client's consumer gone: its producer still holds the connection */
	ct_cons_stop(&p, &cc, &p.srv);
	ct_cons_free(&cc);
	assert_int_equal(rte_comch_ctx_stop(p.cli.ctx), -EBUSY);
	assert_running(p.cli.ctx);
	assert_running(p.srv.ctx);
	/* the connection still works */
	assert_int_equal(ct_prod_send_retry(&p, &cp, sc.id, 10, 0, NULL), 0);
	assert_int_equal(ct_fast_wait_count(&p, &sc.nb_ok, 2), 0);

	ct_cons_stop(&p, &sc, &p.cli);
	ct_cons_free(&sc);
	ct_prod_stop(&p, &cp);
	ct_prod_free(&cp);
	/* in order, everything ends cleanly */
	assert_int_equal(rte_comch_server_disconnect(p.srv.server, p.sconn), 0);
	assert_int_equal(ct_fast_wait_state(&p, p.cli.ctx, RTE_COMCH_CTX_STATE_IDLE), 0);
	assert_int_equal(rte_comch_ctx_get_last_error(p.cli.ctx), -ECONNABORTED);
	assert_int_equal(ct_fast_wait_count(&p, &p.srv.nb_disconnect, 1), 0);
	ct_pair_close(&p);
}

/* The server ends the connection under the client's consumer and producer. */
static void
test_dropped_by_server(void **state)
{
	struct ct_prod cp;
	struct ct_cons cc;
	struct ct_pair p;
	uint32_t i;

	ct_fast_up(&p, NULL, MODE(state));
	ct_cons_new(&cc, p.cconn, ct_fast_pe(&p, false), 4, 64, 0);
	ct_cons_start(&p, &cc, &p.srv);
	ct_cons_post_all(&cc);
	ct_prod_new(&cp, p.cconn, ct_fast_pe(&p, false), 4, 4096, true);

	assert_int_equal(rte_comch_server_disconnect(p.srv.server, p.sconn), 0);
	assert_int_equal(ct_fast_wait_state(&p, p.cli.ctx, RTE_COMCH_CTX_STATE_IDLE), 0);
	assert_int_equal(ct_fast_wait_state(&p, cc.ctx, RTE_COMCH_CTX_STATE_IDLE), 0);
	assert_int_equal(ct_fast_wait_count(&p, &cc.nb_err, cc.nb_slots), 0);
	for (i = 0; i < cc.nb_slots; i++)
		assert_int_equal(cc.err_status[i], -ECONNRESET);
	assert_int_equal(cc.nb_ok, 0);
	assert_int_equal(rte_comch_ctx_get_last_error(cc.ctx), -ECONNRESET);
	assert_int_equal(ct_prod_send(&cp, 0, 16, 0, NULL), -ENOTCONN);
	ct_cons_free(&cc);
	ct_prod_stop(&p, &cp);
	ct_prod_free(&cp);
	ct_pair_close(&p);
}

/* The client stops while the server has a consumer and a producer on the connection. */
static void
test_dropped_by_client(void **state)
{
	struct ct_prod sp;
	struct ct_cons sc;
	struct ct_pair p;
	uint32_t i;

	ct_fast_up(&p, NULL, MODE(state));
	ct_cons_new(&sc, p.sconn, ct_fast_pe(&p, true), 4, 64, 0);
	ct_cons_start(&p, &sc, &p.cli);
	ct_cons_post_all(&sc);
	ct_prod_new(&sp, p.sconn, ct_fast_pe(&p, true), 4, 4096, true);

	ct_ctx_stop_wait(p.cpe, p.cli.ctx);
	assert_int_equal(ct_fast_wait_count(&p, &p.srv.nb_disconnect, 1), 0);
	assert_int_equal(p.srv.disc_status[0], -ECONNABORTED);
	assert_int_equal(ct_fast_wait_state(&p, sc.ctx, RTE_COMCH_CTX_STATE_IDLE), 0);
	assert_int_equal(ct_fast_wait_count(&p, &sc.nb_err, sc.nb_slots), 0);
	for (i = 0; i < sc.nb_slots; i++)
		assert_int_equal(sc.err_status[i], -ECONNRESET);
	assert_int_equal(rte_comch_ctx_get_last_error(sc.ctx), -ECONNRESET);
	assert_int_equal(ct_prod_send(&sp, 0, 16, 0, NULL), -ENOTCONN);
	/*
	 * The ended connection stays allocated for them until they are destroyed,
	 * but holds no stop back: the server has no connection left to close (IDLE
	 * at once); its destroy waits for them.
	 */
	assert_int_equal(rte_comch_ctx_stop(p.srv.ctx), 0);
	assert_int_equal(rte_comch_server_destroy(p.srv.server), -EBUSY);
	ct_cons_free(&sc);
	ct_prod_stop(&p, &sp);
	ct_prod_free(&sp);
	ct_pair_close(&p);
}

/* Whether a consumer created on conn now gets id (it is free again); none stays. */
struct id_free_arg {
	struct rte_comch_connection *conn;
	struct rte_comch_mmap *mmap;
	uint32_t id;
};

static bool
id_free(void *arg)
{
	const struct id_free_arg *a = arg;
	struct rte_comch_consumer *x = rte_comch_consumer_create(a->conn, a->mmap);
	uint32_t id = UINT32_MAX;

	assert_non_null(x);
	assert_int_equal(rte_comch_consumer_get_id(x, &id), 0);
	assert_int_equal(rte_comch_consumer_destroy(x), 0);
	return id == a->id;
}

/* Consumers that can still be created on conn (all destroyed again). */
static uint32_t
room_for_consumers(struct rte_comch_connection *conn, struct rte_comch_mmap *mmap)
{
	struct rte_comch_consumer **x;
	struct rte_comch_dev_info info;
	uint32_t n = 0, i;

	assert_int_equal(rte_comch_dev_info_get(rte_comch_connection_get_device(conn), &info), 0);
	x = calloc(info.max_consumers + 1, sizeof(*x));
	assert_non_null(x);
	while (n <= info.max_consumers && (x[n] = rte_comch_consumer_create(conn, mmap)) != NULL)
		n++;
	assert_int_equal(rte_errno, ENOSPC);
	for (i = 0; i < n; i++)
		assert_int_equal(rte_comch_consumer_destroy(x[i]), 0);
	free(x);
	return n;
}

/* Stop c, the peer holding its confirmation back: IDLE after the library's wait. */
static void
stop_unconfirmed(struct ct_pair *p, struct ct_cons *c, uint32_t nb_posted)
{
	uint32_t i, err = c->nb_err;

	assert_int_equal(rte_comch_ctx_stop(c->ctx), -EINPROGRESS);
	assert_int_equal(ct_fast_wait_state(p, c->ctx, RTE_COMCH_CTX_STATE_IDLE), 0);
	assert_int_equal(rte_comch_ctx_get_last_error(c->ctx), -ETIMEDOUT);
	/* what was posted came back, as from any stop */
	assert_int_equal(c->nb_err, err + nb_posted);
	for (i = err; i < c->nb_err; i++)
		assert_int_equal(c->err_status[i], -ECONNABORTED);
}

/*
 * The client is slow to confirm the stops of the server's consumers: a
 * RUNNING producer of its side, on an engine nobody progresses, holds the
 * confirmation back (the withdrawal waits for a grace period of its producers).
 * The stops complete anyway, after the library's wait, and the connection
 * stays; each consumer's id stays taken, counted against max_consumers, and a
 * quarantined consumer cannot start again, until the confirmation comes. One
 * destroyed meanwhile keeps its mmap held until then, or until the connection
 * ends.
 */
static void
test_stop_peer_slow_to_confirm(void **state)
{
	struct rte_comch_pe *slow_pe = rte_comch_pe_create(RTE_COMCH_PE_LCORE_SELF);
	struct ct_cons kept, gone, d;
	struct id_free_arg a;
	struct ct_prod pr, slow;
	struct ct_pair p;
	uint32_t room;

	assert_non_null(slow_pe);
	ct_fast_up(&p, NULL, MODE(state));
	/* kept has the lower id: confirmations come in id order */
	ct_cons_new(&kept, p.sconn, ct_fast_pe(&p, true), 4, 64, 0);
	ct_cons_new(&gone, p.sconn, ct_fast_pe(&p, true), 4, 64, 0);
	kept.check = gone.check = true;
	ct_cons_start(&p, &kept, &p.cli);
	ct_cons_start(&p, &gone, &p.cli);
	ct_cons_post_all(&kept);
	ct_cons_post_all(&gone);
	ct_prod_new(&pr, p.cconn, ct_fast_pe(&p, false), 8, 4096, true);
	assert_int_equal(ct_prod_send_retry(&p, &pr, gone.id, 40, 0, NULL), 0);
	assert_int_equal(ct_fast_wait_count(&p, &gone.nb_ok, 1), 0);
	ct_prod_new(&slow, p.cconn, slow_pe, 4, 4096, true);

	/* both stop without the confirmation; the connection stays up */
	stop_unconfirmed(&p, &kept, 4);
	stop_unconfirmed(&p, &gone, 3);
	assert_int_equal(gone.nb_ok, 1);
	assert_int_equal(rte_comch_connection_update_info(p.sconn), 0);
	assert_int_equal(rte_comch_connection_update_info(p.cconn), 0);
	assert_int_equal(p.srv.nb_disconnect, 0);
	assert_int_equal(ct_side_knows(&p.cli, kept.id), 1);
	assert_int_equal(ct_side_knows(&p.cli, gone.id), 1);
	assert_int_equal(rte_comch_ctx_start(kept.ctx), -EBUSY);
	assert_int_equal(rte_comch_ctx_get_last_error(kept.ctx), -ETIMEDOUT);
	/* gone is destroyed before the confirmation: its mmap stays held */
	assert_int_equal(rte_comch_consumer_destroy(gone.cons), 0);
	assert_int_equal(rte_comch_buf_pool_destroy(gone.pool), 0);
	assert_int_equal(rte_comch_mmap_stop(gone.mmap), -EBUSY);
	/* the quarantined ids stay taken: another consumer gets none of them */
	ct_cons_new(&d, p.sconn, ct_fast_pe(&p, true), 2, 64, 0);
	assert_int_not_equal(d.id, kept.id);
	assert_int_not_equal(d.id, gone.id);
	room = room_for_consumers(p.sconn, d.mmap);
	/* and the connection carries on: d receives */
	d.check = true;
	ct_cons_start(&p, &d, &p.cli);
	ct_cons_post_all(&d);
	assert_int_equal(ct_prod_send_retry(&p, &pr, d.id, 50, 0, NULL), 0);
	assert_int_equal(ct_fast_wait_count(&p, &d.nb_ok, 1), 0);
	assert_int_equal(d.bad, 0);

	/* the slow side catches up (its producer stops): both are confirmed */
	ct_prod_stop(&p, &slow);
	assert_int_equal(ct_fast_wait_known(&p, &p.cli, kept.id, false), 0);
	assert_int_equal(ct_fast_wait_known(&p, &p.cli, gone.id, false), 0);
	a = (struct id_free_arg){ .conn = p.sconn, .mmap = d.mmap, .id = gone.id };
	assert_int_equal(ct_fast_until(&p, id_free, &a, CT_TIMEOUT_MS), 0);
	/* gone's id and mmap are free; one more consumer fits */
	assert_int_equal(room_for_consumers(p.sconn, d.mmap), room + 1);
	assert_int_equal(rte_comch_mmap_stop(gone.mmap), 0);
	assert_int_equal(rte_comch_mmap_destroy(gone.mmap), 0);
	/* kept starts again, and receives */
	ct_cons_start(&p, &kept, &p.cli);
	ct_cons_post_all(&kept);
	assert_int_equal(ct_prod_send_retry(&p, &pr, kept.id, 60, 0, NULL), 0);
	assert_int_equal(ct_fast_wait_count(&p, &kept.nb_ok, 1), 0);
	assert_int_equal(kept.bad, 0);
	ct_cons_stop(&p, &d, &p.cli);
	ct_cons_free(&d);

	/* slow again, and this time the connection ends before the confirmation */
	assert_int_equal(rte_comch_ctx_start(slow.ctx), 0);
	stop_unconfirmed(&p, &kept, 3);
	assert_int_equal(rte_comch_consumer_destroy(kept.cons), 0);
	assert_int_equal(rte_comch_buf_pool_destroy(kept.pool), 0);
	assert_int_equal(rte_comch_mmap_stop(kept.mmap), -EBUSY);
	/* a quarantined consumer does not hold the connection: it may end */
	assert_int_equal(rte_comch_server_disconnect(p.srv.server, p.sconn), 0);
	assert_int_equal(ct_fast_wait_count(&p, &p.srv.nb_disconnect, 1), 0);
	assert_int_equal(rte_comch_mmap_stop(kept.mmap), 0);
	assert_int_equal(rte_comch_mmap_destroy(kept.mmap), 0);
	assert_int_equal(ct_fast_wait_state(&p, p.cli.ctx, RTE_COMCH_CTX_STATE_IDLE), 0);
	ct_prod_stop(&p, &slow);
	ct_prod_free(&slow);
	assert_int_equal(rte_comch_pe_destroy(slow_pe), 0);
	ct_prod_stop(&p, &pr);
	ct_prod_free(&pr);
	ct_pair_close(&p);
}

#define BOTH(t) \
	cmocka_unit_test_prestate(t, (void *)&mode_one), \
	cmocka_unit_test_prestate(t, (void *)&mode_split)
#define ALL(t) BOTH(t), cmocka_unit_test_prestate(t, (void *)&mode_own)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		ALL(test_ids_and_events),
		ALL(test_enoent_eagain),
		BOTH(test_stop_starting_restart),
		BOTH(test_producer_stop_inflight),
		BOTH(test_consumer_stop_landed),
		ALL(test_consumer_gone_while_sending),
		ALL(test_teardown_order),
		BOTH(test_dropped_by_server),
		BOTH(test_dropped_by_client),
		BOTH(test_stop_peer_slow_to_confirm),
	};

	return CT_RUN("comch_fast_events", tests);
}
