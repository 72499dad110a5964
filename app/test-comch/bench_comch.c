/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>

#include "bench_comch.h"

/* The emulated BlueField both sides meet on, and the host function used. */
#define BC_DOMAIN "test-comch"
#define BC_FN "pf0"
/* Send buffers (and tasks) beyond the receive queue size: replies and barriers. */
#define BC_POOL_EXTRA 16
/* Busy-loop rounds between two looks at the clock for a timeout. */
#define BC_SPINS_PER_CHECK 4096

struct bc_env {
	struct rte_comch_dev *dev;
	struct rte_comch_dev_rep *rep; /* server side only */
	struct rte_comch_pe *pe;
	struct rte_comch_pe *fp_pe;    /* fast path, created on first use */
};

int
bc_env_open(struct bench_ctx *bc, struct bench_result *res)
{
	const struct bench_opts *o = bc->opts;
	struct rte_comch_dev_info info;
	struct bc_env *env;
	const char *rep_name = NULL;
	char devargs[512];
	int ret;

	if (bc->comch != NULL)
		return 0;
	env = calloc(1, sizeof(*env));
	if (env == NULL)
		return bench_fail(res, -ENOMEM, "out of memory");
	if (o->devargs != NULL)
		snprintf(devargs, sizeof(devargs), "%s", o->devargs);
	else if (bc->side == BENCH_SIDE_SERVER)
		/* ctrl-many opens all its clients in the one client process. */
		snprintf(devargs, sizeof(devargs),
			 "shm:domain=%s,role=dpu,rep=%s,dir=%s,doorbell=%s,max_proc_conns=%u",
			 BC_DOMAIN, BC_FN, o->dir, o->doorbell, BENCH_MAX_CLIENTS);
	else
		snprintf(devargs, sizeof(devargs), "shm:domain=%s,role=host,fn=%s,dir=%s,doorbell=%s",
			 BC_DOMAIN, BC_FN, o->dir, o->doorbell);

	env->dev = rte_comch_dev_open(devargs);
	if (env->dev == NULL) {
		ret = bench_fail(res, -rte_errno, "rte_comch_dev_open(\"%s\"): %s", devargs,
				 strerror(rte_errno));
		goto fail;
	}
	ret = rte_comch_dev_info_get(env->dev, &info);
	if (ret < 0) {
		bench_fail(res, ret, "rte_comch_dev_info_get: %s", strerror(-ret));
		goto fail;
	}
	if (bc->side == BENCH_SIDE_SERVER) {
		/* The first representor: the one the default devargs name, or the user's. */
		ret = rte_comch_dev_rep_list(env->dev, &rep_name, 1);
		if (ret < 1) {
			bench_fail(res, ret < 0 ? ret : -ENODEV, "%s: no representor (%d)",
				   info.name, ret);
			goto fail;
		}
		env->rep = rte_comch_dev_rep_open(env->dev, rep_name);
		if (env->rep == NULL) {
			ret = bench_fail(res, -rte_errno, "rte_comch_dev_rep_open(%s): %s", rep_name,
					 strerror(rte_errno));
			goto fail;
		}
	}
	env->pe = rte_comch_pe_create(RTE_COMCH_PE_LCORE_SELF);
	if (env->pe == NULL) {
		ret = bench_fail(res, -rte_errno, "rte_comch_pe_create: %s", strerror(rte_errno));
		goto fail;
	}
	bc->comch = env;
	return 0;
fail:
	bc->comch = env;
	bc_env_close(bc);
	return ret < 0 ? ret : -EIO;
}

void
bc_env_close(struct bench_ctx *bc)
{
	struct bc_env *env = bc->comch;
	int ret;

	if (env == NULL)
		return;
	if (env->fp_pe != NULL && (ret = rte_comch_pe_destroy(env->fp_pe)) < 0)
		fprintf(stderr, "%s: rte_comch_pe_destroy (fast path): %s\n", BENCH_PROG,
			strerror(-ret));
	if (env->pe != NULL && (ret = rte_comch_pe_destroy(env->pe)) < 0)
		fprintf(stderr, "%s: rte_comch_pe_destroy: %s\n", BENCH_PROG, strerror(-ret));
	if (env->rep != NULL && (ret = rte_comch_dev_rep_close(env->rep)) < 0)
		fprintf(stderr, "%s: rte_comch_dev_rep_close: %s\n", BENCH_PROG, strerror(-ret));
	if (env->dev != NULL && (ret = rte_comch_dev_close(env->dev)) < 0)
		fprintf(stderr, "%s: rte_comch_dev_close: %s\n", BENCH_PROG, strerror(-ret));
	free(env);
	bc->comch = NULL;
}

int
bc_env_get(struct bench_ctx *bc, struct bench_result *res, struct rte_comch_dev **dev,
	   struct rte_comch_dev_rep **rep, struct rte_comch_pe **pe)
{
	struct bc_env *env;
	int ret;

	ret = bc_env_open(bc, res);
	if (ret < 0)
		return ret;
	env = bc->comch;
	*dev = env->dev;
	*rep = env->rep;
	*pe = env->pe;
	return 0;
}

struct rte_comch_pe *
bc_env_fp_pe(struct bench_ctx *bc, struct bench_result *res)
{
	struct bc_env *env;

	if (bc_env_open(bc, res) < 0)
		return NULL;
	env = bc->comch;
	if (env->fp_pe == NULL) {
		env->fp_pe = rte_comch_pe_create(RTE_COMCH_PE_LCORE_SELF);
		if (env->fp_pe == NULL)
			bench_fail(res, -rte_errno, "rte_comch_pe_create (fast path): %s",
				   strerror(rte_errno));
	}
	return env->fp_pe;
}

/* ------------------------------------------------------------ callbacks */

static struct bc_sess *
sess_of_conn(struct rte_comch_connection *conn)
{
	union rte_comch_data ud = { .ptr = NULL };

	if (likely(rte_comch_connection_get_user_data(conn, &ud) == 0 && ud.ptr != NULL))
		return ud.ptr;
	/* Before we tagged the connection: go through its context. */
	rte_comch_ctx_get_user_data(rte_comch_connection_get_ctx(conn), &ud);
	return ud.ptr;
}

static void
bc_msg_recv(struct rte_comch_connection *conn, const uint8_t *msg, uint32_t len)
{
	struct bc_sess *s = sess_of_conn(conn);

	if (unlikely(s == NULL || conn != s->conn)) {
		fprintf(stderr, "%s: message on an unknown connection\n", BENCH_PROG);
		return;
	}
	s->on_msg(s, msg, len);
}

/* The peer started a consumer: producers may send to it. */
static void
bc_new_consumer(struct rte_comch_connection *conn, uint32_t id)
{
	struct bc_sess *s = sess_of_conn(conn);

	/* A client's only connection may announce one before bc_client_open() took it. */
	if (unlikely(s == NULL || (conn != s->conn && (s->conn != NULL || s->client == NULL))))
		return;
	s->peer_consumer = id;
	if (s->nb_peer_announced < BENCH_MAX_CONSUMERS)
		s->peer_ids[s->nb_peer_announced] = id;
	s->nb_peer_consumers++;
	s->nb_peer_announced++;
}

static void
bc_expired_consumer(struct rte_comch_connection *conn, uint32_t id)
{
	struct bc_sess *s = sess_of_conn(conn);

	if (unlikely(s == NULL || (conn != s->conn && (s->conn != NULL || s->client == NULL))))
		return;
	if (s->nb_peer_consumers == 0)
		bench_fail(s->res, -EPROTO, "consumer %" PRIu32 " expired, never announced", id);
	else
		s->nb_peer_consumers--;
}

static void
bc_task_release(struct bc_sess *s, struct rte_comch_task_send *task)
{
	uint8_t *buf = (uint8_t *)(uintptr_t)rte_comch_task_send_get_msg(task, NULL);
	int ret;

	s->inflight--;
	bc_buf_put(s, buf);
	ret = rte_comch_task_free(rte_comch_task_send_as_task(task));
	if (unlikely(ret < 0))
		bench_fail(s->res, ret, "rte_comch_task_free in completion: %s", strerror(-ret));
}

static void
bc_send_done(struct rte_comch_task_send *task, union rte_comch_data task_ud,
	     union rte_comch_data ctx_ud)
{
	bc_task_release(ctx_ud.ptr, task);
}

static void
bc_send_failed(struct rte_comch_task_send *task, union rte_comch_data task_ud,
	       union rte_comch_data ctx_ud)
{
	struct bc_sess *s = ctx_ud.ptr;
	int status = rte_comch_task_get_status(rte_comch_task_send_as_task(task));

	/*
	 * Both sides drain before they stop, so even then a failed send means a
	 * message the peer never took.
	 */
	bench_fail(s->res, status < 0 ? status : -EIO, "send task failed%s: %s (%d)",
		   s->stopping ? " while stopping" : "", strerror(-status), status);
	bc_task_release(s, task);
}

static void
bc_state_changed(union rte_comch_data ud, struct rte_comch_ctx *ctx,
		 enum rte_comch_ctx_state prev, enum rte_comch_ctx_state next)
{
	struct bc_sess *s = ud.ptr;

	/* A client's connection is its RUNNING state: leaving it is the end. */
	if (s->client != NULL && prev == RTE_COMCH_CTX_STATE_RUNNING && !s->closed) {
		s->closed = true;
		s->close_status = rte_comch_ctx_get_last_error(ctx);
	}
}

static void
bc_server_connected(struct rte_comch_connection *conn, int status)
{
	union rte_comch_data ud = { .ptr = NULL };
	struct bc_sess *s;
	int ret;

	rte_comch_ctx_get_user_data(rte_comch_connection_get_ctx(conn), &ud);
	s = ud.ptr;
	if (status != 0) {
		bench_fail(s->res, status, "connection failed: %s", strerror(-status));
		return;
	}
	if (s->conn != NULL) {
		/* One client per test: a second one is someone else's run. */
		fprintf(stderr, "%s: refusing a second client on test %u\n", BENCH_PROG,
			s->res->test_id);
		rte_comch_server_disconnect(s->server, conn);
		return;
	}
	s->conn = conn;
	ret = rte_comch_connection_set_user_data(conn, (union rte_comch_data){ .ptr = s });
	if (ret < 0)
		bench_fail(s->res, ret, "rte_comch_connection_set_user_data: %s", strerror(-ret));
}

static void
bc_server_disconnected(struct rte_comch_connection *conn, int status)
{
	union rte_comch_data ud = { .ptr = NULL };
	struct bc_sess *s;

	rte_comch_ctx_get_user_data(rte_comch_connection_get_ctx(conn), &ud);
	s = ud.ptr;
	if (conn != s->conn)
		return;
	s->conn = NULL;
	s->closed = true;
	s->close_status = status;
}

/* ------------------------------------------------------------ sessions */

static int
pool_create(struct bc_sess *s, uint32_t n, uint32_t size)
{
	uint32_t i;

	s->pool_n = n;
	s->pool_mem = malloc((size_t)n * size);
	s->pool_free = calloc(n, sizeof(*s->pool_free));
	s->deferred = calloc(n, sizeof(*s->deferred));
	if (s->pool_mem == NULL || s->pool_free == NULL || s->deferred == NULL)
		return bench_fail(s->res, -ENOMEM, "no memory for %" PRIu32 " buffers of %"
				  PRIu32 " bytes", n, size);
	/* Touch every buffer now, not while measuring. */
	memset(s->pool_mem, 0, (size_t)n * size);
	for (i = 0; i < n; i++)
		s->pool_free[i] = s->pool_mem + (size_t)(n - 1 - i) * size;
	s->pool_nfree = n;
	return 0;
}

/* A task that will not be submitted again: give back its buffer and free it. */
static void
abandon(struct bc_sess *s, struct rte_comch_task_send *task)
{
	bc_buf_put(s, (uint8_t *)(uintptr_t)rte_comch_task_send_get_msg(task, NULL));
	rte_comch_task_free(rte_comch_task_send_as_task(task));
}

static void
pool_destroy(struct bc_sess *s)
{
	free(s->pool_mem);
	free(s->pool_free);
	free(s->deferred);
	s->pool_mem = NULL;
	s->pool_free = NULL;
	s->deferred = NULL;
}

static void
server_name(const struct bench_test *t, char *buf, size_t len)
{
	snprintf(buf, len, "%s.%u", BENCH_PROG, t->id);
}

void
bc_server_name(const struct bench_test *t, char *buf, size_t len)
{
	server_name(t, buf, len);
}

static int
sess_init(struct bc_sess *s, struct bench_ctx *bc, const struct bench_test *t,
	  struct bench_result *res, bc_msg_cb_t on_msg, void *priv)
{
	int ret;

	memset(s, 0, sizeof(*s));
	s->bc = bc;
	s->res = res;
	s->on_msg = on_msg;
	s->priv = priv;
	ret = bc_env_open(bc, res);
	if (ret < 0)
		return ret;
	s->pe = ((struct bc_env *)bc->comch)->pe;
	/* The fast path's data does not travel here: only its control messages do. */
	s->max_msg = t->mode->fast ? (uint32_t)BENCH_CTRL_MSG_ROOM :
				     RTE_MAX(t->size, (uint32_t)BENCH_CTRL_MSG_ROOM);
	return pool_create(s, t->recv_queue + BC_POOL_EXTRA, s->max_msg);
}

/* Attach the context to the engine, with the callbacks' way back to s. */
static int
sess_attach(struct bc_sess *s)
{
	int ret;

	ret = rte_comch_ctx_set_user_data(s->ctx, (union rte_comch_data){ .ptr = s });
	if (ret < 0)
		return bench_fail(s->res, ret, "rte_comch_ctx_set_user_data: %s", strerror(-ret));
	ret = rte_comch_ctx_set_state_changed_cb(s->ctx, bc_state_changed);
	if (ret < 0)
		return bench_fail(s->res, ret, "rte_comch_ctx_set_state_changed_cb: %s",
				  strerror(-ret));
	ret = rte_comch_pe_connect_ctx(s->pe, s->ctx);
	if (ret < 0)
		return bench_fail(s->res, ret, "rte_comch_pe_connect_ctx: %s", strerror(-ret));
	return 0;
}

int
bc_server_open(struct bc_sess *s, struct bench_ctx *bc, const struct bench_test *t,
	       struct bench_result *res, bc_msg_cb_t on_msg, void *priv)
{
	struct bc_env *env;
	char name[64];
	int ret;

	ret = sess_init(s, bc, t, res, on_msg, priv);
	if (ret < 0)
		return ret;
	env = bc->comch;
	server_name(t, name, sizeof(name));
	s->server = rte_comch_server_create(env->dev, env->rep, name);
	if (s->server == NULL)
		return bench_fail(res, -rte_errno, "rte_comch_server_create(%s): %s", name,
				  strerror(rte_errno));
	s->ctx = rte_comch_server_as_ctx(s->server);
	ret = rte_comch_server_set_max_msg_size(s->server, s->max_msg);
	if (ret < 0)
		return bench_fail(res, ret, "rte_comch_server_set_max_msg_size(%" PRIu32 "): %s",
				  s->max_msg, strerror(-ret));
	ret = rte_comch_server_set_recv_queue_size(s->server, t->recv_queue);
	if (ret < 0)
		return bench_fail(res, ret, "rte_comch_server_set_recv_queue_size(%" PRIu32
				  "): %s", t->recv_queue, strerror(-ret));
	ret = rte_comch_server_task_send_set_conf(s->server, bc_send_done, bc_send_failed,
						  s->pool_n);
	if (ret < 0)
		return bench_fail(res, ret, "rte_comch_server_task_send_set_conf(%" PRIu32
				  "): %s", s->pool_n, strerror(-ret));
	ret = rte_comch_server_event_msg_recv_register(s->server, bc_msg_recv);
	if (ret < 0)
		return bench_fail(res, ret, "rte_comch_server_event_msg_recv_register: %s",
				  strerror(-ret));
	ret = rte_comch_server_event_connection_status_changed_register(s->server,
			bc_server_connected, bc_server_disconnected);
	if (ret < 0)
		return bench_fail(res, ret, "rte_comch_server_event_connection_status_changed"
				  "_register: %s", strerror(-ret));
	if (t->mode->fast) {
		ret = rte_comch_server_event_consumer_register(s->server, bc_new_consumer,
							       bc_expired_consumer);
		if (ret < 0)
			return bench_fail(res, ret, "rte_comch_server_event_consumer_register: %s",
					  strerror(-ret));
	}
	ret = sess_attach(s);
	if (ret < 0)
		return ret;
	ret = rte_comch_ctx_start(s->ctx);
	if (ret < 0)
		return bench_fail(res, ret, "server %s: rte_comch_ctx_start: %s", name,
				  strerror(-ret));
	return 0;
}

int
bc_server_accept(struct bc_sess *s)
{
	uint64_t deadline = bc_deadline(s, BENCH_CONNECT_TIMEOUT_S);
	int ret;

	while (s->conn == NULL && !s->closed) {
		ret = bc_progress(s);
		if (ret < 0)
			return ret;
		if (rte_rdtsc() > deadline)
			return bench_fail(s->res, -ETIMEDOUT, "no client connected within %d s",
					  BENCH_CONNECT_TIMEOUT_S);
	}
	return 0;
}

int
bc_server_serve(struct bc_sess *s)
{
	int ret;

	/* No deadline: the client paces the test, and its death ends the connection. */
	while (!s->closed) {
		ret = bc_progress(s);
		if (ret < 0)
			return ret;
	}
	if (s->close_status == -ECONNABORTED)
		return 0;
	return bench_fail(s->res, s->close_status < 0 ? s->close_status : -EIO,
			  "client connection ended: %s (%d)", strerror(-s->close_status),
			  s->close_status);
}

int
bc_client_open(struct bc_sess *s, struct bench_ctx *bc, const struct bench_test *t,
	       struct bench_result *res, bc_msg_cb_t on_msg, void *priv)
{
	enum rte_comch_ctx_state state = RTE_COMCH_CTX_STATE_IDLE;
	struct bc_env *env;
	uint64_t deadline;
	char name[64];
	int ret;

	ret = sess_init(s, bc, t, res, on_msg, priv);
	if (ret < 0)
		return ret;
	env = bc->comch;
	server_name(t, name, sizeof(name));
	s->client = rte_comch_client_create(env->dev, name);
	if (s->client == NULL)
		return bench_fail(res, -rte_errno, "rte_comch_client_create(%s): %s", name,
				  strerror(rte_errno));
	s->ctx = rte_comch_client_as_ctx(s->client);
	ret = rte_comch_client_set_max_msg_size(s->client, s->max_msg);
	if (ret < 0)
		return bench_fail(res, ret, "rte_comch_client_set_max_msg_size(%" PRIu32 "): %s",
				  s->max_msg, strerror(-ret));
	ret = rte_comch_client_set_recv_queue_size(s->client, t->recv_queue);
	if (ret < 0)
		return bench_fail(res, ret, "rte_comch_client_set_recv_queue_size(%" PRIu32
				  "): %s", t->recv_queue, strerror(-ret));
	/* The server side may still be starting, or finishing the previous test. */
	ret = rte_comch_client_set_connect_timeout(s->client, BENCH_CONNECT_TIMEOUT_S * 1000);
	if (ret < 0)
		return bench_fail(res, ret, "rte_comch_client_set_connect_timeout: %s",
				  strerror(-ret));
	ret = rte_comch_client_task_send_set_conf(s->client, bc_send_done, bc_send_failed,
						  s->pool_n);
	if (ret < 0)
		return bench_fail(res, ret, "rte_comch_client_task_send_set_conf(%" PRIu32
				  "): %s", s->pool_n, strerror(-ret));
	ret = rte_comch_client_event_msg_recv_register(s->client, bc_msg_recv);
	if (ret < 0)
		return bench_fail(res, ret, "rte_comch_client_event_msg_recv_register: %s",
				  strerror(-ret));
	if (t->mode->fast) {
		ret = rte_comch_client_event_consumer_register(s->client, bc_new_consumer,
							       bc_expired_consumer);
		if (ret < 0)
			return bench_fail(res, ret, "rte_comch_client_event_consumer_register: %s",
					  strerror(-ret));
	}
	ret = sess_attach(s);
	if (ret < 0)
		return ret;

	ret = rte_comch_ctx_start(s->ctx);
	if (ret < 0 && ret != -EINPROGRESS)
		return bench_fail(res, ret, "client of %s: rte_comch_ctx_start: %s", name,
				  strerror(-ret));
	/* A little longer than the library's own timeout, which should fire first. */
	deadline = bc_deadline(s, BENCH_CONNECT_TIMEOUT_S + 5);
	for (;;) {
		ret = rte_comch_ctx_get_state(s->ctx, &state);
		if (ret < 0)
			return bench_fail(res, ret, "rte_comch_ctx_get_state: %s", strerror(-ret));
		if (state == RTE_COMCH_CTX_STATE_RUNNING)
			break;
		if (state == RTE_COMCH_CTX_STATE_IDLE) {
			ret = rte_comch_ctx_get_last_error(s->ctx);
			return bench_fail(res, ret < 0 ? ret : -ECONNREFUSED,
					  "client could not connect to server %s: %s (%d)", name,
					  strerror(-ret), ret);
		}
		ret = bc_progress(s);
		if (ret < 0)
			return ret;
		if (rte_rdtsc() > deadline)
			return bench_fail(res, -ETIMEDOUT, "client still not connected to %s "
					  "after %d s", name, BENCH_CONNECT_TIMEOUT_S + 5);
	}
	ret = rte_comch_client_get_connection(s->client, &s->conn);
	if (ret < 0)
		return bench_fail(res, ret, "rte_comch_client_get_connection: %s",
				  strerror(-ret));
	ret = rte_comch_connection_set_user_data(s->conn, (union rte_comch_data){ .ptr = s });
	if (ret < 0)
		return bench_fail(res, ret, "rte_comch_connection_set_user_data: %s",
				  strerror(-ret));
	return 0;
}

int
bc_drain(struct bc_sess *s)
{
	uint64_t deadline = bc_deadline(s, BENCH_REPLY_TIMEOUT_S);
	int ret;

	while (s->inflight != 0 || s->nb_deferred != 0) {
		ret = bc_progress(s);
		if (ret < 0)
			return ret;
		if (s->closed && s->inflight != 0)
			return bench_fail(s->res, -ECONNABORTED, "connection ended with %" PRIu64
					  " message(s) not taken by the peer", s->inflight);
		if (rte_rdtsc() > deadline)
			return bench_fail(s->res, -ETIMEDOUT, "%" PRIu64 " message(s) still not "
					  "taken by the peer after %d s", s->inflight,
					  BENCH_REPLY_TIMEOUT_S);
	}
	return 0;
}

int
bc_close(struct bc_sess *s)
{
	enum rte_comch_ctx_state state = RTE_COMCH_CTX_STATE_IDLE;
	uint64_t deadline;
	int ret, status = s->res->status;

	if (s->ctx == NULL)
		goto out;
	/* Both sides let their last messages be taken before the connection goes. */
	if (status == 0 && !s->closed)
		bc_drain(s);
	s->stopping = true;
	/* Idle already if it never started, or if a client's connection ended by itself. */
	ret = rte_comch_ctx_get_state(s->ctx, &state);
	if (ret == 0 && state != RTE_COMCH_CTX_STATE_IDLE) {
		ret = rte_comch_ctx_stop(s->ctx);
		if (ret < 0 && ret != -EINPROGRESS)
			bench_fail(s->res, ret, "rte_comch_ctx_stop: %s", strerror(-ret));
	}
	deadline = bc_deadline(s, BENCH_REPLY_TIMEOUT_S);
	for (;;) {
		ret = rte_comch_ctx_get_state(s->ctx, &state);
		if (ret < 0 || state == RTE_COMCH_CTX_STATE_IDLE)
			break;
		ret = rte_comch_pe_progress(s->pe);
		if (ret < 0) {
			bench_fail(s->res, ret, "rte_comch_pe_progress while stopping: %s",
				   strerror(-ret));
			break;
		}
		if (rte_rdtsc() > deadline) {
			bench_fail(s->res, -ETIMEDOUT, "context not idle %d s after stop (state %d)",
				   BENCH_REPLY_TIMEOUT_S, state);
			break;
		}
	}
	/* Sends deferred and never submitted are still ours to free. */
	while (s->nb_deferred != 0)
		abandon(s, s->deferred[--s->nb_deferred]);
	if (s->server != NULL) {
		ret = rte_comch_server_destroy(s->server);
		if (ret < 0)
			bench_fail(s->res, ret, "rte_comch_server_destroy: %s", strerror(-ret));
	} else if (s->client != NULL) {
		ret = rte_comch_client_destroy(s->client);
		if (ret < 0)
			bench_fail(s->res, ret, "rte_comch_client_destroy: %s", strerror(-ret));
	}
	s->server = NULL;
	s->client = NULL;
	s->ctx = NULL;
out:
	pool_destroy(s);
	return s->res->status;
}

/* ------------------------------------------------------------ sending */

static int
submit(struct bc_sess *s, struct rte_comch_task_send *task, struct rte_comch_task_send **pending)
{
	int ret = rte_comch_task_submit(rte_comch_task_send_as_task(task));

	if (likely(ret == 0)) {
		s->inflight++;
		return 0;
	}
	if (ret == -EAGAIN && pending != NULL) {
		*pending = task;
		return -EAGAIN;
	}
	abandon(s, task);
	if (ret == -ENOTCONN || ret == -EBUSY)
		return bench_fail(s->res, ret, "send refused: connection ended (%s; last error "
				  "%d)", strerror(-ret), rte_comch_ctx_get_last_error(s->ctx));
	return bench_fail(s->res, ret, "rte_comch_task_submit: %s", strerror(-ret));
}

static int
alloc_task(struct bc_sess *s, uint8_t *buf, uint32_t len, struct rte_comch_task_send **task)
{
	int ret;

	if (s->server != NULL)
		ret = rte_comch_server_task_send_alloc_init(s->server, s->conn, buf, len, task);
	else
		ret = rte_comch_client_task_send_alloc_init(s->client, s->conn, buf, len, task);
	if (unlikely(ret < 0)) {
		bc_buf_put(s, buf);
		return bench_fail(s->res, ret, "task_send_alloc_init(%" PRIu32 " bytes): %s", len,
				  strerror(-ret));
	}
	return 0;
}

int
bc_send(struct bc_sess *s, uint8_t *buf, uint32_t len, struct rte_comch_task_send **pending)
{
	struct rte_comch_task_send *task;
	int ret;

	ret = alloc_task(s, buf, len, &task);
	if (unlikely(ret < 0))
		return ret;
	return submit(s, task, pending);
}

int
bc_resubmit(struct bc_sess *s, struct rte_comch_task_send *task)
{
	struct rte_comch_task_send *again = NULL;

	return submit(s, task, &again);
}

int
bc_send_wait(struct bc_sess *s, struct rte_comch_task_send *task, uint64_t *eagain)
{
	uint64_t deadline = 0;
	unsigned int spins = 0;
	int ret;

	do {
		(*eagain)++;
		ret = bc_progress(s);
		if (likely(ret == 0) && unlikely(++spins % BC_SPINS_PER_CHECK == 0)) {
			ret = bc_check_open(s, "room in the peer's receive queue");
			if (ret == 0 && deadline == 0)
				deadline = bc_deadline(s, BENCH_REPLY_TIMEOUT_S);
			else if (ret == 0 && rte_rdtsc() > deadline)
				ret = bench_fail(s->res, -ETIMEDOUT, "peer's receive queue still full "
						 "after %d s", BENCH_REPLY_TIMEOUT_S);
		}
		if (unlikely(ret < 0)) {
			abandon(s, task);
			return ret;
		}
		ret = bc_resubmit(s, task);
	} while (ret == -EAGAIN);
	return ret;
}

int
bc_reply(struct bc_sess *s, uint8_t *buf, uint32_t len)
{
	struct rte_comch_task_send *task, *pending = NULL;
	int ret;

	ret = alloc_task(s, buf, len, &task);
	if (unlikely(ret < 0))
		return ret;
	/* Behind earlier deferred replies, to keep the order. */
	if (s->nb_deferred != 0) {
		s->deferred[s->nb_deferred++] = task;
		return 0;
	}
	ret = submit(s, task, &pending);
	if (ret == -EAGAIN) {
		s->deferred[s->nb_deferred++] = pending;
		return 0;
	}
	return ret;
}

int
bc_progress_after(struct bc_sess *s, int progress_ret)
{
	struct rte_comch_task_send *pending = NULL;
	uint32_t i, done = 0;
	int ret;

	if (progress_ret < 0)
		return bench_fail(s->res, progress_ret, "rte_comch_pe_progress: %s",
				  strerror(-progress_ret));
	for (i = 0; i < s->nb_deferred && s->res->status == 0; i++) {
		ret = submit(s, s->deferred[i], &pending);
		if (ret == -EAGAIN)
			break;
		done++;
	}
	if (done != 0) {
		memmove(s->deferred, s->deferred + done, (s->nb_deferred - done) *
			sizeof(*s->deferred));
		s->nb_deferred -= done;
	}
	return s->res->status;
}

int
bc_check_open(struct bc_sess *s, const char *waiting_for)
{
	if (likely(!s->closed))
		return 0;
	return bench_fail(s->res, s->close_status < 0 ? s->close_status : -ECONNABORTED,
			  "connection ended while waiting for %s: %s (%d)", waiting_for,
			  strerror(-s->close_status), s->close_status);
}

int
bc_wait_check(struct bc_sess *s, uint64_t *deadline, const char *reply, const char *request,
	      uint64_t seq)
{
	int ret = bc_check_open(s, reply);

	if (ret < 0)
		return ret;
	if (*deadline == 0)
		*deadline = bc_deadline(s, BENCH_REPLY_TIMEOUT_S);
	else if (rte_rdtsc() > *deadline)
		return bench_fail(s->res, -ETIMEDOUT, "no %s for %s %" PRIu64 " after %d s", reply,
				  request, seq, BENCH_REPLY_TIMEOUT_S);
	return 0;
}
