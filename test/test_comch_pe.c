/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Progress engines: create/destroy, use from any thread but one at a time
 * (-EBUSY for a second one), re-entrance (-EDEADLK from callbacks), context attachment,
 * in-flight counters and the notification fd (also with a connection whose
 * receive is paused).
 */

#include <errno.h>
#include <pthread.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>

#include "comch_test_common.h"

#define WORKER_LCORE 1

static void
test_pe_create_destroy(void **state)
{
	struct rte_comch_pe *pe, *pe1;

	(void)state;
	pe = rte_comch_pe_create(RTE_COMCH_PE_LCORE_SELF);
	assert_non_null(pe);
	assert_int_equal(rte_comch_pe_get_lcore(pe), rte_lcore_id());
	assert_int_equal(rte_comch_pe_get_lcore(pe), rte_get_main_lcore());

	pe1 = rte_comch_pe_create(WORKER_LCORE);
	assert_non_null(pe1);
	assert_int_equal(rte_comch_pe_get_lcore(pe1), WORKER_LCORE);

	/* lcore 2 is not enabled (-l 0-1), RTE_MAX_LCORE does not exist */
	rte_errno = 0;
	assert_null(rte_comch_pe_create(2));
	assert_int_equal(rte_errno, EINVAL);
	rte_errno = 0;
	assert_null(rte_comch_pe_create(RTE_MAX_LCORE));
	assert_int_equal(rte_errno, EINVAL);

	rte_errno = 0;
	assert_int_equal(rte_comch_pe_get_lcore(NULL), LCORE_ID_ANY);
	assert_int_equal(rte_errno, EINVAL);

	assert_int_equal(rte_comch_pe_destroy(NULL), -EINVAL);
	assert_int_equal(rte_comch_pe_destroy(pe1), 0);
	assert_int_equal(rte_comch_pe_destroy(pe), 0);
}

static void *
create_self_thread(void *arg)
{
	int *err = arg;
	struct rte_comch_pe *pe;

	rte_errno = 0;
	pe = rte_comch_pe_create(RTE_COMCH_PE_LCORE_SELF);
	*err = rte_errno;
	if (pe != NULL) {
		rte_comch_pe_destroy(pe);
		*err = -1;
	}
	return NULL;
}

static void
test_pe_create_self_unregistered(void **state)
{
	pthread_t th;
	int err = 0;

	(void)state;
	assert_int_equal(pthread_create(&th, NULL, create_self_thread, &err), 0);
	assert_int_equal(pthread_join(th, NULL), 0);
	assert_int_equal(err, EINVAL);
}

struct remote_call {
	struct rte_comch_pe *pe;
	int progress;
	int request;
	int clear;
	int destroy;      /**< Only if try_destroy. */
	bool try_destroy;
};

static int
remote_calls(void *arg)
{
	struct remote_call *rc = arg;

	rc->progress = rte_comch_pe_progress(rc->pe);
	rc->request = rte_comch_pe_request_notification(rc->pe);
	rc->clear = rte_comch_pe_clear_notification(rc->pe);
	if (rc->try_destroy)
		rc->destroy = rte_comch_pe_destroy(rc->pe);
	return rc->progress;
}

static void *
remote_calls_thread(void *arg)
{
	remote_calls(arg);
	return NULL;
}

/* An engine is not bound to a thread: any lcore, or a plain thread, may use it. */
static void
test_pe_any_thread(void **state)
{
	struct remote_call rc;
	struct rte_comch_pe *pe, *pe1;
	pthread_t th;

	(void)state;
	assert_int_equal(rte_comch_pe_progress(NULL), -EINVAL);
	assert_int_equal(rte_comch_pe_request_notification(NULL), -EINVAL);
	assert_int_equal(rte_comch_pe_clear_notification(NULL), -EINVAL);
	pe = rte_comch_pe_create(RTE_COMCH_PE_LCORE_SELF);
	assert_non_null(pe);
	pe1 = rte_comch_pe_create(WORKER_LCORE);
	assert_non_null(pe1);

	/* the main lcore uses the worker's engine */
	assert_int_equal(rte_comch_pe_progress(pe1), 0);
	assert_int_equal(rte_comch_pe_request_notification(pe1), 0);
	assert_int_equal(rte_comch_pe_clear_notification(pe1), 0);

	/* the worker lcore uses the main lcore's */
	memset(&rc, 0, sizeof(rc));
	rc.pe = pe;
	assert_int_equal(ct_remote_launch(remote_calls, &rc, WORKER_LCORE), 0);
	assert_int_equal(ct_wait_lcore(WORKER_LCORE), 0);
	assert_int_equal(rc.request, 0);
	assert_int_equal(rc.clear, 0);

	/* and so does a thread that is no lcore at all, down to the destroy */
	memset(&rc, 0, sizeof(rc));
	rc.pe = pe1;
	rc.try_destroy = true;
	rc.destroy = 1;
	assert_int_equal(pthread_create(&th, NULL, remote_calls_thread, &rc), 0);
	assert_int_equal(pthread_join(th, NULL), 0);
	assert_int_equal(rc.progress, 0);
	assert_int_equal(rc.request, 0);
	assert_int_equal(rc.clear, 0);
	assert_int_equal(rc.destroy, 0);
	/* the label stays: the lcore it was created for */
	assert_int_equal(rte_comch_pe_get_lcore(pe), rte_get_main_lcore());
	assert_int_equal(rte_comch_pe_destroy(pe), 0);
}

/*
 * While one thread progresses an engine (here: inside one of its callbacks),
 * another thread's calls are refused with -EBUSY, and change nothing.
 */
struct concurrent {
	struct remote_call rc;
	uint32_t calls;
};

static void
concurrent_recv(struct ct_side *s, struct rte_comch_connection *conn, const uint8_t *msg,
		uint32_t len)
{
	struct concurrent *c = s->arg;

	(void)conn;
	(void)msg;
	(void)len;
	if (c->calls++ != 0)
		return;
	/* This thread is inside progress for as long as the worker runs. */
	if (ct_remote_launch(remote_calls, &c->rc, WORKER_LCORE) == 0)
		ct_wait_lcore(WORKER_LCORE);
}

static void
test_pe_concurrent_refused(void **state)
{
	struct concurrent c = {
		.rc = { .progress = 1, .request = 1, .clear = 1, .destroy = 1,
			.try_destroy = true },
	};
	struct ct_pair p;
	uint8_t msg[32];

	(void)state;
	ct_pair_up(&p, NULL);
	c.rc.pe = p.pe;
	p.srv.arg = &c;
	p.srv.on_recv = concurrent_recv;
	ct_msg_fill(msg, sizeof(msg), 0, 0);
	assert_int_equal(ct_send(&p.cli, p.cconn, msg, sizeof(msg), NULL), 0);
	assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_recv, 1, CT_TIMEOUT_MS), 0);
	assert_int_equal(c.calls, 1);
	assert_int_equal(c.rc.progress, -EBUSY);
	assert_int_equal(c.rc.request, -EBUSY);
	assert_int_equal(c.rc.clear, -EBUSY);
	assert_int_equal(c.rc.destroy, -EBUSY);
	/* the engine lives on, and works as before */
	assert_int_equal(ct_wait_count(p.pe, &p.cli.nb_send_ok, 1, CT_TIMEOUT_MS), 0);
	ct_msg_fill(msg, sizeof(msg), 0, 1);
	assert_int_equal(ct_send(&p.cli, p.cconn, msg, sizeof(msg), NULL), 0);
	assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_recv, 2, CT_TIMEOUT_MS), 0);
	assert_int_equal(p.srv.bad_msgs, 0);
	ct_pair_close(&p);
}

/* A server and client set up on one thread, then run to completion by another. */
struct handoff {
	struct ct_pair *p;
	int rc;
};

static int
handoff_worker(void *arg)
{
	struct handoff *h = arg;
	struct ct_pair *p = h->p;
	uint8_t msg[32];
	uint32_t i;

	for (i = 0; i < 64; i++) {
		ct_msg_fill(msg, sizeof(msg), 0, i);
		h->rc = ct_send_retry(p->pe, &p->cli, p->cconn, msg, sizeof(msg), NULL);
		if (h->rc != 0)
			return h->rc;
	}
	h->rc = ct_wait_count(p->pe, &p->srv.nb_recv, 64, CT_TIMEOUT_MS);
	if (h->rc == 0)
		h->rc = ct_wait_count(p->pe, &p->cli.nb_send_ok, 64, CT_TIMEOUT_MS);
	return h->rc;
}

static void
test_pe_handoff(void **state)
{
	struct ct_pair p;
	struct handoff h = { .p = &p, .rc = 1 };

	(void)state;
	ct_pair_up(&p, NULL);
	assert_int_equal(ct_remote_launch(handoff_worker, &h, WORKER_LCORE), 0);
	assert_int_equal(ct_wait_lcore(WORKER_LCORE), 0);
	assert_int_equal(h.rc, 0);
	assert_int_equal(p.srv.nb_recv, 64);
	assert_int_equal(p.srv.bad_msgs, 0);
	/* and back on this thread for the teardown */
	ct_pair_close(&p);
}

/*
 * Two threads taking turns on one engine, many more times than the engine
 * keeps its bias to the first through (the other thread takes it back from
 * that thread each turn, then the engine drops the bias): every call of each
 * succeeds and every message arrives, in order, on both sides.
 */
#define TURNS 100

struct turn {
	struct ct_pair *p;
	uint32_t i;
	int rc;
};

/* One turn: a message sent and seen received, and its send seen completed. */
static int
turn_one(struct ct_pair *p, uint32_t i)
{
	uint8_t msg[32];
	int rc;

	ct_msg_fill(msg, sizeof(msg), 0, i);
	rc = ct_send_retry(p->pe, &p->cli, p->cconn, msg, sizeof(msg), NULL);
	if (rc == 0)
		rc = ct_wait_count(p->pe, &p->srv.nb_recv, i + 1, CT_TIMEOUT_MS);
	if (rc == 0)
		rc = ct_wait_count(p->pe, &p->cli.nb_send_ok, i + 1, CT_TIMEOUT_MS);
	return rc;
}

static int
turn_worker(void *arg)
{
	struct turn *t = arg;

	t->rc = turn_one(t->p, t->i);
	return t->rc;
}

static void
test_pe_turns(void **state)
{
	struct ct_pair p;
	struct turn t = { .p = &p };
	uint32_t i;

	(void)state;
	ct_pair_up(&p, NULL);
	for (i = 0; i < TURNS; i += 2) {
		assert_int_equal(turn_one(&p, i), 0);
		t.i = i + 1;
		t.rc = 1;
		assert_int_equal(ct_remote_launch(turn_worker, &t, WORKER_LCORE), 0);
		assert_int_equal(ct_wait_lcore(WORKER_LCORE), 0);
		assert_int_equal(t.rc, 0);
	}
	assert_int_equal(p.srv.nb_recv, TURNS);
	assert_int_equal(p.cli.nb_send_ok, TURNS);
	assert_int_equal(p.srv.bad_msgs, 0);
	ct_pair_close(&p);
}

static void
test_pe_connect_ctx(void **state)
{
	struct rte_comch_pe *pe, *pe2;
	struct rte_comch_dev *host;
	struct rte_comch_client *cli;
	struct rte_comch_ctx *ctx;
	char d[32];

	(void)state;
	ct_domain(d, sizeof(d));
	host = ct_dev_open("domain=%s,role=host", d);
	assert_non_null(host);
	cli = rte_comch_client_create(host, "nobody");
	assert_non_null(cli);
	ctx = rte_comch_client_as_ctx(cli);
	assert_non_null(ctx);
	pe = rte_comch_pe_create(RTE_COMCH_PE_LCORE_SELF);
	assert_non_null(pe);
	pe2 = rte_comch_pe_create(RTE_COMCH_PE_LCORE_SELF);
	assert_non_null(pe2);

	assert_int_equal(rte_comch_pe_connect_ctx(NULL, ctx), -EINVAL);
	assert_int_equal(rte_comch_pe_connect_ctx(pe, NULL), -EINVAL);
	assert_int_equal(rte_comch_pe_connect_ctx(pe, ctx), 0);
	assert_int_equal(rte_comch_pe_connect_ctx(pe, ctx), -EEXIST);
	assert_int_equal(rte_comch_pe_connect_ctx(pe2, ctx), -EEXIST);

	/* an engine with an attached context cannot go */
	assert_int_equal(rte_comch_pe_destroy(pe), -EBUSY);
	assert_int_equal(rte_comch_pe_destroy(pe2), 0);
	assert_int_equal(rte_comch_client_destroy(cli), 0);
	assert_int_equal(rte_comch_pe_destroy(pe), 0);
	assert_int_equal(rte_comch_dev_close(host), 0);
}

static void
test_pe_inflight(void **state)
{
	struct ct_pair p;
	uint8_t msg[3][64];
	uint64_t pe_n = 99;
	uint32_t ctx_n = 99;
	unsigned int i;

	(void)state;
	ct_pair_up(&p, NULL);
	assert_int_equal(rte_comch_pe_get_num_inflight_tasks(NULL, &pe_n), -EINVAL);
	assert_int_equal(rte_comch_pe_get_num_inflight_tasks(p.pe, NULL), -EINVAL);
	assert_int_equal(rte_comch_ctx_get_num_inflight_tasks(NULL, &ctx_n), -EINVAL);
	assert_int_equal(rte_comch_ctx_get_num_inflight_tasks(p.cli.ctx, NULL), -EINVAL);
	assert_int_equal(rte_comch_pe_get_num_inflight_tasks(p.pe, &pe_n), 0);
	assert_int_equal(pe_n, 0);

	for (i = 0; i < 3; i++) {
		ct_msg_fill(msg[i], sizeof(msg[i]), 1, i);
		assert_int_equal(ct_send(&p.cli, p.cconn, msg[i], sizeof(msg[i]), NULL), 0);
	}
	assert_int_equal(ct_send(&p.srv, p.sconn, msg[0], sizeof(msg[0]), NULL), 0);
	assert_int_equal(rte_comch_pe_get_num_inflight_tasks(p.pe, &pe_n), 0);
	assert_int_equal(pe_n, 4);
	assert_int_equal(rte_comch_ctx_get_num_inflight_tasks(p.cli.ctx, &ctx_n), 0);
	assert_int_equal(ctx_n, 3);
	assert_int_equal(rte_comch_ctx_get_num_inflight_tasks(p.srv.ctx, &ctx_n), 0);
	assert_int_equal(ctx_n, 1);

	/* progress says 1 when it delivered or completed something */
	assert_int_equal(rte_comch_pe_progress(p.pe), 1);
	assert_int_equal(ct_wait_count(p.pe, &p.cli.nb_send_ok, 3, CT_TIMEOUT_MS), 0);
	assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_send_ok, 1, CT_TIMEOUT_MS), 0);
	/* and 0 once there is nothing left to do */
	ct_progress_for(p.pe, 5);
	assert_int_equal(rte_comch_pe_progress(p.pe), 0);
	assert_int_equal(rte_comch_pe_get_num_inflight_tasks(p.pe, &pe_n), 0);
	assert_int_equal(pe_n, 0);
	assert_int_equal(rte_comch_ctx_get_num_inflight_tasks(p.cli.ctx, &ctx_n), 0);
	assert_int_equal(ctx_n, 0);
	assert_int_equal(p.srv.nb_recv, 3);
	assert_int_equal(p.cli.nb_recv, 1);
	ct_pair_close(&p);
}

/* Re-entrance: progress and destroy from inside callbacks are refused. */
struct reenter {
	struct rte_comch_pe *pe;
	int progress_ret;
	int destroy_ret;
	int state_progress_ret;
	uint32_t calls;
};

static void
reenter_recv(struct ct_side *s, struct rte_comch_connection *conn, const uint8_t *msg,
	     uint32_t len)
{
	struct reenter *r = s->arg;

	r->calls++;
	r->progress_ret = rte_comch_pe_progress(r->pe);
	r->destroy_ret = rte_comch_pe_destroy(r->pe);
}

static void
reenter_state(struct ct_side *s, enum rte_comch_ctx_state prev, enum rte_comch_ctx_state next)
{
	struct reenter *r = s->arg;

	/* STARTING -> RUNNING is reported from inside progress */
	if (next == RTE_COMCH_CTX_STATE_RUNNING && r->pe != NULL)
		r->state_progress_ret = rte_comch_pe_progress(r->pe);
}

static void
test_pe_deadlock(void **state)
{
	struct reenter r = { .progress_ret = 1, .destroy_ret = 1, .state_progress_ret = 1 };
	struct ct_pair p;
	uint8_t msg[32];

	(void)state;
	ct_pair_open(&p, NULL);
	r.pe = p.pe;
	p.srv.arg = &r;
	p.srv.on_recv = reenter_recv;
	p.cli.arg = &r;
	p.cli.on_state = reenter_state;
	ct_pair_connect(&p);
	assert_int_equal(r.state_progress_ret, -EDEADLK);

	ct_msg_fill(msg, sizeof(msg), 0, 0);
	assert_int_equal(ct_send(&p.cli, p.cconn, msg, sizeof(msg), NULL), 0);
	assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_recv, 1, CT_TIMEOUT_MS), 0);
	assert_int_equal(r.calls, 1);
	assert_int_equal(r.progress_ret, -EDEADLK);
	assert_int_equal(r.destroy_ret, -EDEADLK);
	/* the engine still works after the refused calls */
	assert_int_equal(ct_wait_count(p.pe, &p.cli.nb_send_ok, 1, CT_TIMEOUT_MS), 0);
	assert_int_equal(p.srv.bad_msgs, 0);
	ct_pair_close(&p);
}

/* Progress until the engine accepts to be armed. */
static int
arm(struct rte_comch_pe *pe)
{
	uint64_t deadline = ct_now_ms() + CT_TIMEOUT_MS;
	int ret;

	while ((ret = rte_comch_pe_request_notification(pe)) == -EAGAIN) {
		if (ct_now_ms() > deadline)
			return -ETIMEDOUT;
		rte_comch_pe_progress(pe);
	}
	return ret;
}

static void
test_pe_notification(void **state)
{
	struct ct_pair p;
	uint8_t msg[48];
	int fd = -1, fd2 = -1;

	(void)state;
	ct_pair_up(&p, NULL);
	assert_int_equal(rte_comch_pe_get_notification_fd(NULL, &fd), -EINVAL);
	assert_int_equal(rte_comch_pe_get_notification_fd(p.pe, NULL), -EINVAL);
	assert_int_equal(rte_comch_pe_request_notification(NULL), -EINVAL);
	assert_int_equal(rte_comch_pe_clear_notification(NULL), -EINVAL);
	assert_int_equal(rte_comch_pe_get_notification_fd(p.pe, &fd), 0);
	assert_true(fd >= 0);
	assert_int_equal(rte_comch_pe_get_notification_fd(p.pe, &fd2), 0);
	assert_int_equal(fd, fd2);

	/* armed, idle engine: the fd stays quiet */
	ct_progress_for(p.pe, 20);
	assert_int_equal(arm(p.pe), 0);
	assert_int_equal(ct_fd_readable(fd, 50), 0);
	assert_int_equal(rte_comch_pe_clear_notification(p.pe), 0);

	/*
	 * Both ends on this engine: what one sends is work for the engine itself,
	 * so arming is refused until progress has delivered it, both ways.
	 */
	ct_msg_fill(msg, sizeof(msg), 0, 0);
	assert_int_equal(ct_send(&p.cli, p.cconn, msg, sizeof(msg), NULL), 0);
	assert_int_equal(rte_comch_pe_request_notification(p.pe), -EAGAIN);
	assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_recv, 1, CT_TIMEOUT_MS), 0);
	assert_int_equal(ct_wait_count(p.pe, &p.cli.nb_send_ok, 1, CT_TIMEOUT_MS), 0);
	assert_int_equal(ct_send(&p.srv, p.sconn, msg, sizeof(msg), NULL), 0);
	assert_int_equal(rte_comch_pe_request_notification(p.pe), -EAGAIN);
	assert_int_equal(ct_wait_count(p.pe, &p.cli.nb_recv, 1, CT_TIMEOUT_MS), 0);
	assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_send_ok, 1, CT_TIMEOUT_MS), 0);

	/* all delivered and taken: it arms again and stays quiet */
	assert_int_equal(arm(p.pe), 0);
	assert_int_equal(ct_fd_readable(fd, 50), 0);
	assert_int_equal(rte_comch_pe_clear_notification(p.pe), 0);
	ct_msg_fill(msg, sizeof(msg), 0, 1);
	assert_int_equal(ct_send(&p.cli, p.cconn, msg, sizeof(msg), NULL), 0);
	assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_recv, 2, CT_TIMEOUT_MS), 0);
	assert_int_equal(p.srv.bad_msgs, 0);
	assert_int_equal(p.cli.bad_msgs, 0);
	ct_pair_close(&p);
}

/*
 * Server and client on two engines of the same lcore. A sender rings a sleeping
 * receiver from its next progress (one fence per round, not per message); a
 * sender that sleeps with messages in flight is rung when they are taken.
 */
static void
notification_two_engines(const struct ct_cfg *cfg)
{
	struct rte_comch_pe *pe2;
	struct ct_pair p;
	uint8_t msg[48];
	int fd = -1, fd2 = -1;

	ct_pair_open_split(&p, cfg);
	ct_pair_connect(&p);
	pe2 = p.cpe;
	assert_int_equal(rte_comch_pe_get_notification_fd(p.pe, &fd), 0);
	assert_int_equal(rte_comch_pe_get_notification_fd(pe2, &fd2), 0);
	assert_int_not_equal(fd, fd2);

	/* server engine armed; the client (other engine) sends: it wakes up */
	ct_progress_for(p.pe, 20);
	assert_int_equal(arm(p.pe), 0);
	assert_int_equal(ct_fd_readable(fd, 50), 0);
	ct_msg_fill(msg, sizeof(msg), 0, 0);
	assert_int_equal(ct_send(&p.cli, p.cconn, msg, sizeof(msg), NULL), 0);
	rte_comch_pe_progress(pe2);
	assert_int_equal(ct_fd_readable(fd, 2000), 1);
	assert_int_equal(rte_comch_pe_clear_notification(p.pe), 0);
	assert_int_equal(ct_fd_readable(fd, 0), 0);
	assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_recv, 1, CT_TIMEOUT_MS), 0);
	assert_int_equal(ct_wait_count(pe2, &p.cli.nb_send_ok, 1, CT_TIMEOUT_MS), 0);

	/* a sender sleeping with a message in flight is woken when it is taken */
	ct_progress_for(pe2, 20);
	ct_msg_fill(msg, sizeof(msg), 0, 1);
	assert_int_equal(ct_send(&p.cli, p.cconn, msg, sizeof(msg), NULL), 0);
	assert_int_equal(rte_comch_pe_request_notification(pe2), 0);
	assert_int_equal(ct_fd_readable(fd2, 50), 0);
	assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_recv, 2, CT_TIMEOUT_MS), 0);
	assert_int_equal(ct_fd_readable(fd2, 2000), 1);
	assert_int_equal(rte_comch_pe_clear_notification(pe2), 0);
	assert_int_equal(ct_fd_readable(fd2, 0), 0);
	assert_int_equal(p.cli.nb_send_ok, 1);
	assert_int_equal(ct_wait_count(pe2, &p.cli.nb_send_ok, 2, CT_TIMEOUT_MS), 0);

	/* a message already waiting on the server engine: arming it is refused */
	ct_progress_for(p.pe, 20);
	ct_msg_fill(msg, sizeof(msg), 0, 2);
	assert_int_equal(ct_send(&p.cli, p.cconn, msg, sizeof(msg), NULL), 0);
	assert_int_equal(rte_comch_pe_request_notification(p.pe), -EAGAIN);
	assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_recv, 3, CT_TIMEOUT_MS), 0);
	assert_int_equal(ct_wait_count(pe2, &p.cli.nb_send_ok, 3, CT_TIMEOUT_MS), 0);
	/* nothing waiting any more: armed again */
	assert_int_equal(arm(p.pe), 0);
	assert_int_equal(rte_comch_pe_clear_notification(p.pe), 0);

	/* client engine armed; the server sends */
	assert_int_equal(arm(pe2), 0);
	assert_int_equal(ct_fd_readable(fd2, 50), 0);
	assert_int_equal(ct_send(&p.srv, p.sconn, msg, sizeof(msg), NULL), 0);
	/*
	 * Not before the sender's next round: wake-ups go out once per progress;
	 * or at the send itself, on a driver that wakes so (mlx5: the SEND
	 * raises the receiver's completion event).
	 */
	if (!ct_driver_can(CT_CAP_WAKE_AT_SEND))
		assert_int_equal(ct_fd_readable(fd2, 50), 0);
	rte_comch_pe_progress(p.pe);
	assert_int_equal(ct_fd_readable(fd2, 2000), 1);
	assert_int_equal(rte_comch_pe_clear_notification(pe2), 0);
	assert_int_equal(ct_fd_readable(fd2, 0), 0);
	assert_int_equal(ct_wait_count(pe2, &p.cli.nb_recv, 1, CT_TIMEOUT_MS), 0);
	assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_send_ok, 1, CT_TIMEOUT_MS), 0);
	assert_int_equal(p.srv.bad_msgs, 0);

	ct_pair_close(&p);
}

static void
test_pe_notification_two_engines(void **state)
{
	(void)state;
	notification_two_engines(NULL);
}

/* The same with shm's eventfd doorbells (devargs doorbell=eventfd, for trusted peers). */
static void
test_pe_notification_shm_eventfd_doorbells(void **state)
{
	const struct ct_cfg cfg = { .doorbell = "eventfd" };

	(void)state;
	CT_ONLY_DRIVER("shm", "doorbell=eventfd is a devarg of shm's");
	notification_two_engines(&cfg);
}

/* Progress pe until fd is readable, at most CT_TIMEOUT_MS; 1 or 0. */
static int
progress_until_readable(struct rte_comch_pe *pe, int fd)
{
	uint64_t deadline = ct_now_ms() + CT_TIMEOUT_MS;

	while (ct_now_ms() < deadline) {
		rte_comch_pe_progress(pe);
		if (ct_fd_readable(fd, 1) == 1)
			return 1;
	}
	return 0;
}

/*
 * An engine whose connection is paused sleeps although its messages wait; what
 * the peer takes of ours still wakes it; a resume makes them work again:
 * arming is refused, and the next round delivers them.
 */
static void
test_pe_notification_paused(void **state)
{
	struct ct_pair p;
	uint8_t msg[48];
	int fd = -1;
	uint32_t i;

	(void)state;
	ct_pair_open_split(&p, NULL);
	ct_pair_connect(&p);
	assert_int_equal(rte_comch_pe_get_notification_fd(p.pe, &fd), 0);
	assert_int_equal(rte_comch_connection_recv_pause(p.sconn), 0);
	for (i = 0; i < 3; i++) {
		ct_msg_fill(msg, sizeof(msg), 0, i);
		assert_int_equal(ct_send(&p.cli, p.cconn, msg, sizeof(msg), NULL), 0);
	}
	ct_progress_for(p.cpe, 10);
	ct_progress_for(p.pe, 20);
	assert_int_equal(p.srv.nb_recv, 0);
	/* the 3 waiting do not keep it up, nor wake it */
	assert_int_equal(arm(p.pe), 0);
	assert_int_equal(ct_fd_readable(fd, 50), 0);
	assert_int_equal(rte_comch_pe_clear_notification(p.pe), 0);

	/* one of ours in flight: the client taking it wakes the paused engine */
	ct_msg_fill(msg, sizeof(msg), 0, 0);
	assert_int_equal(ct_send(&p.srv, p.sconn, msg, sizeof(msg), NULL), 0);
	assert_int_equal(arm(p.pe), 0);
	assert_int_equal(progress_until_readable(p.cpe, fd), 1);
	assert_int_equal(p.cli.nb_recv, 1);
	assert_int_equal(rte_comch_pe_clear_notification(p.pe), 0);
	assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_send_ok, 1, CT_TIMEOUT_MS), 0);
	assert_int_equal(p.srv.nb_recv, 0);

	/* resumed: they are work again, delivered by the next round */
	ct_progress_for(p.pe, 20);
	assert_int_equal(rte_comch_connection_recv_resume(p.sconn), 0);
	assert_int_equal(rte_comch_pe_request_notification(p.pe), -EAGAIN);
	assert_int_equal(rte_comch_pe_progress(p.pe), 1);
	assert_int_equal(p.srv.nb_recv, 3);
	assert_int_equal(p.srv.bad_msgs, 0);
	assert_int_equal(ct_wait_count(p.cpe, &p.cli.nb_send_ok, 3, CT_TIMEOUT_MS), 0);
	ct_pair_close(&p);
}

/*
 * A device with default doorbells refuses a peer's eventfd: that peer could make
 * its rings block. Either way round, the client does not connect and says why.
 */
static void
eventfd_doorbell_refused(const char *srv_bell, const char *cli_bell)
{
	const struct ct_cfg cfg = {
		.doorbell = srv_bell, .cli_doorbell = cli_bell, .connect_timeout_ms = 500,
	};
	struct ct_pair p;

	ct_pair_open(&p, &cfg);
	assert_int_equal(rte_comch_ctx_start(p.cli.ctx), -EINPROGRESS);
	assert_int_equal(ct_wait_state(p.pe, p.cli.ctx, RTE_COMCH_CTX_STATE_IDLE, CT_TIMEOUT_MS),
			 0);
	assert_int_not_equal(rte_comch_ctx_get_last_error(p.cli.ctx), 0);
	assert_int_equal(p.srv.nb_connect, 0);
	ct_pair_close(&p);
}

static void
test_pe_shm_eventfd_doorbell_refused(void **state)
{
	(void)state;
	CT_ONLY_DRIVER("shm", "doorbell= (socket, eventfd) is a devarg of shm's");
	eventfd_doorbell_refused("eventfd", "socket");
	eventfd_doorbell_refused("socket", "eventfd");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pe_create_destroy),
		cmocka_unit_test(test_pe_create_self_unregistered),
		cmocka_unit_test(test_pe_any_thread),
		cmocka_unit_test(test_pe_concurrent_refused),
		cmocka_unit_test(test_pe_handoff),
		cmocka_unit_test(test_pe_turns),
		cmocka_unit_test(test_pe_connect_ctx),
		cmocka_unit_test(test_pe_inflight),
		cmocka_unit_test(test_pe_deadlock),
		cmocka_unit_test(test_pe_notification),
		cmocka_unit_test(test_pe_notification_two_engines),
		cmocka_unit_test(test_pe_notification_shm_eventfd_doorbells),
		cmocka_unit_test(test_pe_notification_paused),
		cmocka_unit_test(test_pe_shm_eventfd_doorbell_refused),
	};

	return CT_RUN("comch_pe", tests);
}
