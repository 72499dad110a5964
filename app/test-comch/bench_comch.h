/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef BENCH_COMCH_H
#define BENCH_COMCH_H

/*
 * The comch plumbing every comch mode shares: one device (and representor) and
 * one progress engine per process, and a session per test: a server or a client
 * with its single connection, a pool of send buffers, and the send, progress and
 * wait helpers. Modes only decide what to send and what to do with what arrives.
 * The fast path adds a second engine per process (bench_fp.h); the session
 * records the peer's consumers, which the connection's engine announces.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_comch.h>
#include <rte_cycles.h>

#include "bench.h"

struct bc_sess;

/* Called from inside progress for each message received on the session. */
typedef void (*bc_msg_cb_t)(struct bc_sess *s, const uint8_t *msg, uint32_t len);

struct bc_sess {
	struct bench_ctx *bc;
	struct bench_result *res;
	struct rte_comch_pe *pe;
	struct rte_comch_server *server; /* exactly one of server and client is set */
	struct rte_comch_client *client;
	struct rte_comch_ctx *ctx;
	struct rte_comch_connection *conn;
	uint32_t max_msg;
	bool closed;          /* the connection ended (peer, error, or us) */
	int close_status;     /* why, as the library said */
	bool stopping;        /* we are stopping: task errors are expected */
	uint64_t inflight;    /* send tasks submitted, not completed */
	bc_msg_cb_t on_msg;
	void *priv;           /* the mode's state */
	/* Send buffers: a message must stay unchanged until its task completes. */
	uint8_t *pool_mem;
	uint8_t **pool_free;
	uint32_t pool_nfree;
	uint32_t pool_n;
	/* Sends refused with -EAGAIN inside a callback, where progress is not allowed. */
	struct rte_comch_task_send **deferred;
	uint32_t nb_deferred;
	/* Fast path: the peer's consumers, from the connection's events. */
	uint32_t peer_consumer;      /* id of the last one announced */
	uint32_t nb_peer_consumers;  /* announced and not expired */
	uint32_t nb_peer_announced;  /* ever announced on this connection */
	/* The first BENCH_MAX_CONSUMERS of them, in the order announced (fp-many). */
	uint32_t peer_ids[BENCH_MAX_CONSUMERS];
};

/* Open the process's device, representor and engine on first use. */
int bc_env_open(struct bench_ctx *bc, struct bench_result *res);
/* Release them at the end of the side. */
void bc_env_close(struct bench_ctx *bc);
/*
 * The process's fast-path engine, on the same lcore as the connections' one
 * (each side has one lcore), created on first use: producers and consumers run
 * on it, apart from the control path.
 */
struct rte_comch_pe *bc_env_fp_pe(struct bench_ctx *bc, struct bench_result *res);

/*
 * For a mode that runs its own contexts (ctrl-many's server): the process's
 * device, representor (server side; NULL on the client's) and engine.
 */
int bc_env_get(struct bench_ctx *bc, struct bench_result *res, struct rte_comch_dev **dev,
	       struct rte_comch_dev_rep **rep, struct rte_comch_pe **pe);
/* The name of test t's server: what bc_client_open() connects to. */
void bc_server_name(const struct bench_test *t, char *buf, size_t len);

/* Server side of one test: create, configure and start. */
int bc_server_open(struct bc_sess *s, struct bench_ctx *bc, const struct bench_test *t,
		   struct bench_result *res, bc_msg_cb_t on_msg, void *priv);
/* Wait for the test's client. */
int bc_server_accept(struct bc_sess *s);
/* Progress until the client disconnects. */
int bc_server_serve(struct bc_sess *s);

/* Client side of one test: create, configure, start and wait until connected. */
int bc_client_open(struct bc_sess *s, struct bench_ctx *bc, const struct bench_test *t,
		   struct bench_result *res, bc_msg_cb_t on_msg, void *priv);

/* Wait for every send to complete, stop, and destroy (server or client). */
int bc_close(struct bc_sess *s);

/* Progress until no send is in flight. */
int bc_drain(struct bc_sess *s);

/*
 * Send buf (len bytes, from bc_buf_get()). 0: submitted. -EAGAIN: the peer's
 * receive queue is full and *pending holds the task: progress, then
 * bc_resubmit(). Other negative values: failed, res->error says why.
 */
int bc_send(struct bc_sess *s, uint8_t *buf, uint32_t len, struct rte_comch_task_send **pending);
int bc_resubmit(struct bc_sess *s, struct rte_comch_task_send *task);

/*
 * After bc_send() returned -EAGAIN: progress and resubmit until the peer takes
 * the task, counting each refusal in *eagain. Gives up (and frees the task) if
 * the connection ends or stays full for BENCH_REPLY_TIMEOUT_S.
 */
int bc_send_wait(struct bc_sess *s, struct rte_comch_task_send *task, uint64_t *eagain);

/* Reply from inside a receive callback: never fails on a full queue. */
int bc_reply(struct bc_sess *s, uint8_t *buf, uint32_t len);

/* The rare part of bc_progress(): errors and deferred replies. */
int bc_progress_after(struct bc_sess *s, int progress_ret);

/* One round of progress. Returns the test's status: 0, or negative on failure. */
static inline int
bc_progress(struct bc_sess *s)
{
	int ret = rte_comch_pe_progress(s->pe);

	if (unlikely(ret < 0 || s->nb_deferred != 0 || s->res->status != 0))
		return bc_progress_after(s, ret);
	return 0;
}

/* A free send buffer, or NULL when all are in flight. */
static inline uint8_t *
bc_buf_get(struct bc_sess *s)
{
	if (unlikely(s->pool_nfree == 0))
		return NULL;
	return s->pool_free[--s->pool_nfree];
}

static inline void
bc_buf_put(struct bc_sess *s, uint8_t *buf)
{
	s->pool_free[s->pool_nfree++] = buf;
}

/* Fail unless the connection is still up. */
int bc_check_open(struct bc_sess *s, const char *waiting_for);

/*
 * The rare part of a wait for the reply to request seq, every so many rounds:
 * fail if the connection ended, or if BENCH_REPLY_TIMEOUT_S passed since the
 * first call (*deadline is 0 before it).
 */
int bc_wait_check(struct bc_sess *s, uint64_t *deadline, const char *reply, const char *request,
		  uint64_t seq);

/* Deadline n seconds from now, in TSC cycles. */
static inline uint64_t
bc_deadline(const struct bc_sess *s, double seconds)
{
	return rte_rdtsc() + (uint64_t)(seconds * s->bc->tsc_hz);
}

#endif /* BENCH_COMCH_H */
