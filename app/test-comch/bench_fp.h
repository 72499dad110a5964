/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef BENCH_FP_H
#define BENCH_FP_H

/*
 * The fast-path plumbing every fp mode shares, on top of a test's control
 * session (bench_comch.h): the process's fast-path engine, a consumer that keeps
 * its buffers posted and hands each message to the mode, a producer that sends
 * straight from the reference pattern, the control-path requests that frame a
 * test (SYNC, END, DONE; both sides, in bench_fp_ctl.c), and an orderly
 * teardown.
 *
 * Threads, as the library wants them: each side has one lcore; producers and
 * consumers are created and destroyed there (the connection's engine's lcore),
 * and run on a second engine of the same lcore, which the measured loops
 * progress. The connection's engine is progressed too, every BF_CTRL_EVERY
 * rounds while measuring and every round otherwise: it announces consumers
 * and carries the control messages.
 *
 * Messages: the 16-byte header (bench_msg.h) is the immediate data; the data,
 * if the size is not 0, is size bytes of the pattern of the sequence number.
 * The sender produces each message as an application produces its data, and
 * as the memif sender builds its mbufs: it writes the payload into the next of
 * its source buffers (a ring of them, cache-line aligned, registered once), then
 * sends from there. The library's copy into the peer's buffer comes on top.
 *
 * APIs: the comch transport uses tasks (alloc, submit, completion callback,
 * free); comch-burst the burst API (send_burst from an array of messages,
 * recv_burst into an array of completions, post_burst to give the buffers
 * back), which bf_progress() polls. Both carry the same messages. The task
 * API's completions come from the fast-path engine, so its loops progress it
 * every round; the burst API's come from the calls themselves, and its loops
 * progress the engine every BF_FP_PE_EVERY rounds, as a DPDK application
 * polls its queues and does its housekeeping now and then.
 */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_comch.h>

#include "bench.h"
#include "bench_comch.h"
#include "bench_msg.h"
#include "bench_stall.h"
#include "bench_stats.h"

struct bench_ev;

/* Fast-path rounds between two rounds of the connection's engine, while measuring. */
#define BF_CTRL_EVERY 256
/* Burst API: completions taken by one recv_burst. */
#define BF_RX_BURST 32
/*
 * Burst API: rounds between two rounds of the fast-path engine (a power of 2,
 * dividing BF_CTRL_EVERY). It has nothing of the burst API's to do but wake a
 * sleeping peer, report the producer's quiescent state (for the rare grace
 * periods) and keep the contexts' state; every round, it cost fp-lat 64 B 8%
 * (per pair) and fp-stream 64 B at burst 1 a fifth of its rate.
 */
#define BF_FP_PE_EVERY 16

struct bf_side;

/* A message arrived at the consumer; data is NULL when the size is 0. */
typedef void (*bf_recv_cb_t)(struct bf_side *f, const uint8_t *imm, uint32_t imm_len,
			     const uint8_t *data, size_t len);

struct bf_side {
	struct bc_sess *s;           /* the test's control session */
	struct bench_result *res;
	struct rte_comch_pe *pe;     /* the fast-path engine */
	uint32_t size;               /* data bytes of each message */
	uint32_t nb_bufs;            /* buffers the consumer keeps posted */
	bool stopping;               /* tearing down: errors of posted tasks are expected */
	unsigned int spins;          /* fast-path rounds since the connection's last */
	bool burst;                  /* the burst API (comch-burst), not tasks */
	/* Consumer. */
	struct rte_comch_mmap *rx_mmap;
	void *rx_heap;               /* --consumer-mem heap: rx_mmap's memory, ours to free */
	struct rte_comch_buf_pool *rx_pool;
	struct rte_comch_consumer *consumer;
	uint32_t rx_tasks;           /* post-recv tasks taken, not freed */
	bf_recv_cb_t on_recv;
	void *priv;                  /* the mode's state */
	/* During on_recv: the completed task, for what else it tells (its producer). */
	const struct rte_comch_consumer_task_post_recv *rx_task;
	/* Burst API: every buffer's post, by index (the cookie), and where they lie. */
	struct rte_comch_fp_post *rx_posts;
	uint8_t *rx_base;
	size_t rx_stride;
	/* Producer. */
	struct rte_comch_mmap *tx_mmap;
	struct rte_comch_buf_pool *tx_pool;
	uint8_t *tx_base;            /* the source buffers: tx_mask + 1 of tx_stride bytes */
	size_t tx_stride;
	uint32_t tx_mask;
	uint32_t tx_burst;           /* the test's burst: sends before a progress */
	struct rte_comch_buf **tx_bufs; /* the task API's buffer object of each */
	struct rte_comch_producer *producer;
	uint32_t peer_id;            /* the peer's consumer the producer sends to */
	uint32_t tx_tasks;           /* send tasks taken, not freed */
	/* A control-path reply awaited by bf_ctrl_request() (client side). */
	uint32_t want_kind;
	uint64_t want_seq;
	bool got_reply;
	struct bench_msg_result result;
};

/* Set f up for test t on control session s (opened, connected). */
int bf_open(struct bf_side *f, struct bc_sess *s, const struct bench_test *t,
	    struct bench_result *res);

/*
 * Create and start a consumer, wait until the peer has been told, and post
 * nb_bufs buffers. Each message goes to on_recv, then its buffer is posted again.
 */
int bf_consumer_open(struct bf_side *f, bf_recv_cb_t on_recv, void *priv);

/* Wait for the peer's consumer, then create and start a producer sending to it. */
int bf_producer_open(struct bf_side *f);

/*
 * Send message kind/seq (header as immediate data, pattern of seq as data).
 * 0: submitted. -EAGAIN: the peer has no buffer posted; *pending holds the task:
 * progress, then bf_resubmit(). -ENOBUFS: every send task is in flight, or
 * with the burst API the peer has no buffer posted: progress and call again.
 * Other negative values: failed, res->error says why.
 */
int bf_send(struct bf_side *f, uint32_t kind, uint64_t seq,
	    struct rte_comch_producer_task_send **pending);
int bf_resubmit(struct bf_side *f, struct rte_comch_producer_task_send *task);

/*
 * Produce the payload of message seq in its source buffer (size bytes of the
 * pattern of seq); returns the buffer's index. Buffers are reused in turn:
 * there are more of them than sends that can be in flight (bf_producer_open()).
 */
static inline uint32_t
bf_produce(const struct bf_side *f, uint64_t seq)
{
	uint32_t k = (uint32_t)seq & f->tx_mask;

	memcpy(f->tx_base + k * f->tx_stride, bench_msg_pattern(seq), f->size);
	return k;
}

/* The message kind/seq as the burst API sends it, its payload produced. */
static inline void
bf_msg(const struct bf_side *f, struct rte_comch_fp_msg *m, uint32_t kind, uint64_t seq)
{
	const struct bench_msg_hdr hdr = { .seq = seq, .kind = kind, .len = f->size };

	m->data = f->size != 0 ? f->tx_base + bf_produce(f, seq) * f->tx_stride : NULL;
	m->len = f->size;
	m->imm_len = BENCH_MSG_HDR_LEN;
	memcpy(m->imm, &hdr, sizeof(hdr));
}

/*
 * Burst API: whatever a send_burst() that sent nothing returned (n <= 0),
 * as bf_send() says it: -ENOBUFS (no buffer posted: progress and send again),
 * or a failure, with res->error set.
 */
int bf_send_refused(struct bf_side *f, int n);
/* Give back a task that will not be submitted again. */
void bf_abandon(struct bf_side *f, struct rte_comch_producer_task_send *task);

/* The rare part of bf_progress(). */
int bf_progress_ctrl(struct bf_side *f, int fp_ret);

/*
 * Burst API: take the consumer's completions, hand each to on_recv and post
 * the buffers again; reap the producer's send completions. Returns the
 * test's status.
 */
int bf_burst_poll(struct bf_side *f);

/*
 * One round of the fast-path engine (with the burst API: of the consumer and
 * producer, and every BF_FP_PE_EVERY rounds of the engine), and every
 * BF_CTRL_EVERY rounds one of the connection's. Returns the test's status.
 */
static inline int
bf_progress(struct bf_side *f)
{
	int ret = f->burst ? bf_burst_poll(f) : 0;

	/* bf_progress_both() sets spins to BF_CTRL_EVERY - 1: a round of both engines. */
	RTE_BUILD_BUG_ON((BF_FP_PE_EVERY & (BF_FP_PE_EVERY - 1)) != 0 ||
			 BF_CTRL_EVERY % BF_FP_PE_EVERY != 0);
	if (likely(ret == 0) && (!f->burst || (f->spins & (BF_FP_PE_EVERY - 1)) ==
				 BF_FP_PE_EVERY - 1))
		ret = rte_comch_pe_progress(f->pe);
	if (unlikely(ret < 0 || ++f->spins >= BF_CTRL_EVERY || f->res->status != 0))
		return bf_progress_ctrl(f, ret);
	return 0;
}

/* One round of both engines. */
int bf_progress_both(struct bf_side *f);

/* The rare part of bf_check_stall(). */
int bf_stall_look(struct bf_side *f, struct bench_stall *w, uint64_t sent);

/*
 * A round of a stream's loop, sent messages sent so far: every so many, fail if
 * the connection ended or if none was taken for BENCH_REPLY_TIMEOUT_S.
 */
static inline int
bf_check_stall(struct bf_side *f, struct bench_stall *w, uint64_t sent)
{
	if (likely(!bench_stall_due(w)))
		return 0;
	return bf_stall_look(f, w, sent);
}

/*
 * Client: send a control message (SYNC, END, DONE) with seq, and progress both
 * engines until the reply (SYNC_ACK, RESULT in f->result, DONE_ACK) arrives.
 */
int bf_ctrl_request(struct bf_side *f, uint32_t kind, uint64_t seq);
/* Client: the control session's receive callback, for bf_ctrl_request(). */
void bf_client_on_msg(struct bc_sess *s, const uint8_t *msg, uint32_t len);
/* Client: fail unless the END's RESULT counts sent messages of the test's size. */
int bf_ctrl_check_result(struct bf_side *f, uint64_t sent);

/*
 * Server: the client's request being served. The control session's receive
 * callback takes it (bf_ctrl_take()); the main loop answers it once the fast
 * path has caught up with it (bf_ctrl_answer(), or bf_ctrl_done() after DONE's
 * teardown).
 */
struct bf_ctrl_req {
	uint32_t kind;               /* SYNC, END or DONE; 0 if none */
	uint64_t seq;
	uint64_t deadline;           /* TSC: the fast path must have caught up by then */
	struct bench_rx_window rx;   /* from the SYNC after the warm-up to the END */
	struct bench_ev *ev;         /* event modes: told of SYNC and END; NULL otherwise */
};

/* Server: a control message from the client, to be served; anything else fails. */
void bf_ctrl_take(struct bf_ctrl_req *c, struct bc_sess *s, const uint8_t *msg, uint32_t len);

/*
 * Server: answer the SYNC or END of c->seq messages once they all arrived (got
 * of them, bytes in all) and the side is ready: SYNC_ACK, which starts the
 * measured window, or RESULT, which ends it. 0 while waiting; fails if more
 * arrived than were sent, or if the rest do not within BENCH_REPLY_TIMEOUT_S.
 */
int bf_ctrl_answer(struct bf_ctrl_req *c, struct bc_sess *s, uint64_t got, uint64_t bytes,
		   bool ready);

/* Server: answer DONE, once the side's fast path is torn down. */
int bf_ctrl_done(struct bf_ctrl_req *c, struct bc_sess *s);

/*
 * Stop and destroy the producer and the consumer (the consumer's stop waits for
 * the peer's acknowledgement, through both connection engines), and free their
 * memory. Idempotent; returns the test's status.
 */
int bf_close(struct bf_side *f);

#endif /* BENCH_FP_H */
