/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef BENCH_MSGQ_H
#define BENCH_MSGQ_H

/*
 * The MsgQ modes' plumbing, in the client's process: a "dpa:" device, a
 * software DPA with one execution unit (a pthread, on the server's CPU: see
 * bench_local.h), one DPA thread running the test's program, and two MsgQs:
 *   - to_dpa: the CPU producer sends to the DPA consumer, whose messages are
 *     entries of rx_cq, which triggers the thread;
 *   - from_dpa: the DPA producer sends to the CPU consumer, which keeps depth
 *     receive tasks posted.
 * The DPA consumer offers depth receives too. The CPU's four contexts are on
 * one engine of the client's lcore, which the mode progresses.
 *
 * Messages are immediate data only: the 16-byte header of bench_msg.h, then
 * the pattern up to the test's size (16 to 32 bytes). Every message is
 * checked by the end that receives it, the program included.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_comch.h>
#include <rte_comch_dpa.h>
#include <rte_comch_dpa_msgq.h>

#include "bench_fp.h"

#include "bench.h"
#include "bench_local.h"

/* What the DPA program does. */
enum bench_msgq_prog {
	BENCH_MSGQ_ECHO = 1, /* msgq-lat: each PING back as a PONG */
	BENCH_MSGQ_SINK,     /* msgq-rate to the DPA: check DATA; END answered by RESULT */
	BENCH_MSGQ_SOURCE,   /* msgq-rate from the DPA: SYNC starts a flood of DATA, END
			      * stops it, RESULT says how many were sent */
};

/*
 * The program's argument: a buffer of DPA memory the CPU fills before the
 * thread first runs, and reads back once it is stopped.
 */
struct bench_msgq_args {
	uint32_t prog;                /* enum bench_msgq_prog */
	uint32_t size;                /* message bytes */
	uint32_t depth;               /* receives to offer */
	uint32_t cpu_consumer;        /* the CPU consumer's id on from_dpa */
	uint64_t warmup;              /* messages before the measured window */
	rte_comch_dpa_handle_t consumer;
	rte_comch_dpa_handle_t rx_cq;
	rte_comch_dpa_handle_t producer;
	rte_comch_dpa_handle_t self;  /* the thread, to trigger itself */
	/* Written by the program. */
	uint64_t received;            /* messages taken and checked */
	uint64_t sent;                /* messages it sent */
	uint64_t eagain;              /* its sends refused: no receive posted */
	double cpu_s;                 /* its unit's CPU time over the measured messages */
	uint64_t cpu_msgs;            /* those messages */
	int32_t status;               /* 0, or its first failure (error says what) */
	char error[160];
};

/* The program's state across runs: the thread's local storage. */
struct bench_msgq_tls {
	bool init;                    /* the first receives were offered */
	bool flooding;                /* SOURCE: between SYNC and END */
	bool pending;                 /* an answer refused (-EAGAIN), sent first next run */
	uint32_t pending_len;
	uint8_t pending_msg[BENCH_MSGQ_MAX_SIZE];
	uint64_t rx_seq;              /* the next DATA or PING expected */
	uint64_t tx_seq;              /* SOURCE: the next DATA to send */
	double cpu0;                  /* the unit's CPU time at the measured window's start */
	struct bench_result check;    /* what a failed check says (prog_fail() ends the run) */
};

/* The DPA thread's entry (bench_msgq_dpa.c). */
void bench_msgq_prog(uint64_t arg);

struct bench_msgq;

/* A message from the DPA reached the CPU consumer. */
typedef void (*bench_msgq_recv_cb_t)(struct bench_msgq *m, const uint8_t *imm, uint32_t len);

struct bench_msgq {
	struct bench_local local;
	struct bench_result *res;
	uint64_t tsc_hz;
	uint32_t size;
	uint32_t depth;
	bool stopping;                /* tearing down: posted receives come back */
	bench_msgq_recv_cb_t on_recv;
	void *priv;                   /* the mode's */
	struct bench_msgq_args args;  /* the CPU's copy */
	struct rte_comch_dev *dev;
	struct rte_comch_pe *pe;
	struct rte_comch_dpa *dpa;
	bool dpa_started;
	struct rte_comch_dpa_thread *thread;
	bool thread_started;
	struct rte_comch_dpa_cq *rx_cq;
	rte_comch_dpa_handle_t args_mem;
	struct rte_comch_msgq *to_dpa;
	struct rte_comch_msgq *from_dpa;
	struct rte_comch_producer *cpu_prod;
	struct rte_comch_consumer *dpa_cons;
	struct rte_comch_producer *dpa_prod;
	struct rte_comch_consumer *cpu_cons;
	uint32_t dpa_cons_id;
	bool burst;                   /* comch-burst: the CPU ends use the burst API */
	uint32_t rounds;              /* burst API: polls, one in BF_FP_PE_EVERY progresses */
};

/*
 * Meet the server side, set everything up for test t running prog, and start
 * the DPA. on_recv gets what the DPA sends. 0 or a failure in res; close
 * either way.
 */
int bench_msgq_open(struct bench_msgq *m, struct bench_ctx *bc, const struct bench_test *t,
		    enum bench_msgq_prog prog, bench_msgq_recv_cb_t on_recv, void *priv,
		    struct bench_result *res);

/*
 * Send message kind/seq to the DPA consumer. 0: submitted. -EAGAIN: the
 * program offers no receive now, or every send task is in flight: progress
 * and send again. Other negative values: failed, in res.
 */
int bench_msgq_send(struct bench_msgq *m, uint32_t kind, uint64_t seq);

/* Send, progressing while refused, for at most BENCH_REPLY_TIMEOUT_S. */
int bench_msgq_send_wait(struct bench_msgq *m, uint32_t kind, uint64_t seq);

/* The rare part of bench_msgq_progress(). */
int bench_msgq_progress_fail(struct bench_msgq *m, int ret);

/*
 * Burst API: take what the CPU consumer received (each to on_recv, its receive
 * posted again) and reap the producer's sends; with pe, one round of the
 * engine first. While stopping, unfilled receives come back and stay back.
 * The test's status.
 */
int bench_msgq_burst_poll(struct bench_msgq *m, bool pe);

/*
 * One round of the engine (burst API: a poll of the CPU ends, and a round of
 * the engine every BF_FP_PE_EVERY); the test's status.
 */
static inline int
bench_msgq_progress(struct bench_msgq *m)
{
	int ret;

	if (m->burst)
		return bench_msgq_burst_poll(m, (++m->rounds & (BF_FP_PE_EVERY - 1)) == 0);
	ret = rte_comch_pe_progress(m->pe);

	if (unlikely(ret < 0 || m->res->status != 0))
		return bench_msgq_progress_fail(m, ret);
	return 0;
}

/*
 * The sender's round after a send. The task API's completions come from the
 * engine: it progresses at every round. The burst API reaps its own and
 * progresses every BF_FP_PE_EVERY rounds, as the fast path's burst loops do.
 */
static inline int
bench_msgq_round(struct bench_msgq *m)
{
	if (!m->burst)
		return bench_msgq_progress(m);
	if ((++m->rounds & (BF_FP_PE_EVERY - 1)) != 0)
		return 0;
	return bench_msgq_burst_poll(m, true);
}

/*
 * A look, every so many rounds of a waiting loop: fail if the program failed,
 * or once BENCH_REPLY_TIMEOUT_S passed since the first look (*deadline 0).
 */
int bench_msgq_look(struct bench_msgq *m, uint64_t *deadline, const char *what);

/*
 * Stop the program and read back what it wrote (m->args), then stop and
 * destroy everything. Returns the test's status; a failure of the program
 * comes first.
 */
int bench_msgq_close(struct bench_msgq *m);

#endif /* BENCH_MSGQ_H */
