/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The DPA program of the MsgQ modes, run by the software DPA's unit each time
 * its thread is triggered: by a CPU message landing on rx_cq (armed before
 * each run ends), or by itself while it has sending to do (a flood, or an
 * answer the CPU had no receive posted for). Each run takes the messages
 * waiting, checks each (header and pattern, in order), answers what needs an
 * answer, gives the receives back to the CPU producer and, for the SOURCE
 * program, sends DATA until the CPU consumer has no receive posted.
 *
 * It names everything by DPA handle, from its argument (struct
 * bench_msgq_args, in DPA memory), and keeps its state in the thread's local
 * storage, as a program on a BlueField-3's DPA would. A failure is written to
 * the argument (status, error), where the CPU looks, and ends the thread.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <rte_comch_dpa_dev.h>

#include "bench_msg.h"
#include "bench_msgq.h"
#include "bench_stats.h"

/* DATA sent by one run of SOURCE before it looks at its messages again. */
#define SOURCE_BURST 64

static void __attribute__((noreturn))
prog_fail(struct bench_msgq_args *a, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Say what went wrong where the CPU looks, and stop being triggered. */
static void __attribute__((noreturn))
prog_fail(struct bench_msgq_args *a, int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(a->error, sizeof(a->error), fmt, ap);
	va_end(ap);
	__atomic_store_n(&a->status, status < 0 ? status : -EIO, __ATOMIC_RELEASE);
	rte_comch_dpa_dev_thread_finish();
	/* Only outside a DPA program, which this is not. */
	for (;;)
		;
}

/* Send one answer, or keep it for the next run if the CPU has no receive posted. */
static void
answer(struct bench_msgq_args *a, struct bench_msgq_tls *tls, const uint8_t *msg)
{
	int ret;

	ret = rte_comch_dpa_dev_producer_post_send_imm_only(a->producer, a->cpu_consumer, msg,
							   a->size, 0);
	if (ret == 0) {
		a->sent++;
		return;
	}
	if (ret != -EAGAIN)
		prog_fail(a, ret, "send to the CPU: %s", strerror(-ret));
	a->eagain++;
	memcpy(tls->pending_msg, msg, a->size);
	tls->pending = true;
}

/* Check one message from the CPU against what it must be. */
static void
check(struct bench_msgq_args *a, struct bench_msgq_tls *tls, const uint8_t *imm, uint32_t len,
	uint32_t kind, uint64_t seq)
{
	/* The thread's, zeroed once: the ring baseline zeroes nothing per message either. */
	struct bench_result *r = &tls->check;

	if (bench_msg_check(imm, len, kind, seq, a->size, r) < 0)
		prog_fail(a, r->status, "%s", r->error);
}

/* The END of a stream: seq is the number the other end sent. */
static void
on_end(struct bench_msgq_args *a, struct bench_msgq_tls *tls, uint64_t count, uint64_t seq)
{
	uint8_t msg[BENCH_MSGQ_MAX_SIZE];

	if (count > a->warmup) {
		a->cpu_s = bench_cpu_seconds() - tls->cpu0;
		a->cpu_msgs = count - a->warmup;
	}
	bench_msg_fill(msg, a->size, BENCH_MSG_RESULT, seq);
	answer(a, tls, msg);
}

/* One message from the CPU. */
static void
take(struct bench_msgq_args *a, struct bench_msgq_tls *tls, const uint8_t *imm, uint32_t len)
{
	uint8_t msg[BENCH_MSGQ_MAX_SIZE];
	struct bench_msg_hdr hdr;

	if (bench_msg_peek(imm, len, &hdr) < 0)
		prog_fail(a, -EBADMSG, "a message of %" PRIu32 " bytes", len);
	a->received++;
	switch (a->prog) {
	case BENCH_MSGQ_ECHO:
		check(a, tls, imm, len, BENCH_MSG_PING, tls->rx_seq++);
		memcpy(msg, imm, a->size);
		hdr.kind = BENCH_MSG_PONG;
		memcpy(msg, &hdr, sizeof(hdr));
		answer(a, tls, msg);
		return;
	case BENCH_MSGQ_SINK:
		if (hdr.kind == BENCH_MSG_END) {
			if (hdr.seq != tls->rx_seq)
				prog_fail(a, -EBADMSG, "%" PRIu64 " DATA sent, %" PRIu64
					  " received", hdr.seq, tls->rx_seq);
			on_end(a, tls, tls->rx_seq, tls->rx_seq);
			return;
		}
		if (tls->rx_seq == a->warmup)
			tls->cpu0 = bench_cpu_seconds();
		check(a, tls, imm, len, BENCH_MSG_DATA, tls->rx_seq++);
		return;
	case BENCH_MSGQ_SOURCE:
		if (hdr.kind == BENCH_MSG_SYNC) {
			tls->flooding = true;
			return;
		}
		if (hdr.kind != BENCH_MSG_END)
			prog_fail(a, -EBADMSG, "a %s from the CPU, SYNC or END expected",
				  bench_msg_kind_name(hdr.kind));
		tls->flooding = false;
		on_end(a, tls, tls->tx_seq, tls->tx_seq);
		return;
	default:
		prog_fail(a, -EINVAL, "unknown program %" PRIu32, a->prog);
	}
}

/* SOURCE: DATA to the CPU until a burst is sent or it has no receive posted. */
static void
flood(struct bench_msgq_args *a, struct bench_msgq_tls *tls)
{
	uint8_t msg[BENCH_MSGQ_MAX_SIZE];
	unsigned int i;
	int ret;

	for (i = 0; i < SOURCE_BURST; i++) {
		if (tls->tx_seq == a->warmup)
			tls->cpu0 = bench_cpu_seconds();
		bench_msg_fill(msg, a->size, BENCH_MSG_DATA, tls->tx_seq);
		ret = rte_comch_dpa_dev_producer_post_send_imm_only(a->producer, a->cpu_consumer,
								   msg, a->size, 0);
		if (ret == -EAGAIN) {
			a->eagain++;
			return;
		}
		if (ret < 0)
			prog_fail(a, ret, "DATA %" PRIu64 " to the CPU: %s", tls->tx_seq,
				  strerror(-ret));
		tls->tx_seq++;
		a->sent++;
	}
}

void
bench_msgq_prog(uint64_t arg)
{
	struct bench_msgq_args *a = rte_comch_dpa_dev_mem_ptr(arg, 0, sizeof(*a));
	struct bench_msgq_tls *tls = rte_comch_dpa_dev_thread_get_local_storage();
	struct rte_comch_dpa_cqe cqe;
	const uint8_t *imm;
	uint32_t len, taken = 0;
	int ret = 0;

	if (a == NULL || tls == NULL)
		rte_comch_dpa_dev_thread_finish();
	if (!tls->init) {
		tls->init = true;
		ret = rte_comch_dpa_dev_consumer_ack(a->consumer, a->depth);
		if (ret < 0)
			prog_fail(a, ret, "offer %" PRIu32 " receives: %s", a->depth,
				  strerror(-ret));
	}
	if (tls->pending) {
		tls->pending = false;
		answer(a, tls, tls->pending_msg);
	}
	/* An answer still refused holds the next ones back: they go in order. */
	while (!tls->pending && (ret = rte_comch_dpa_dev_get_completion(a->rx_cq, &cqe)) == 1) {
		imm = rte_comch_dpa_dev_get_completion_imm(&cqe, &len);
		take(a, tls, imm, len);
		taken++;
	}
	if (ret < 0)
		prog_fail(a, ret, "take a message: %s", strerror(-ret));
	if (taken != 0) {
		ret = rte_comch_dpa_dev_completion_ack(a->rx_cq, taken);
		if (ret == 0)
			ret = rte_comch_dpa_dev_consumer_ack(a->consumer, taken);
		if (ret < 0)
			prog_fail(a, ret, "give %" PRIu32 " receives back: %s", taken,
				  strerror(-ret));
	}
	if (tls->flooding && !tls->pending)
		flood(a, tls);
	/* Work left: run again at once; otherwise wake on the next message. */
	if (tls->pending || tls->flooding)
		ret = rte_comch_dpa_dev_thread_notify(a->self);
	else
		ret = rte_comch_dpa_dev_completion_request_notification(a->rx_cq);
	if (ret < 0)
		prog_fail(a, ret, "rearm: %s", strerror(-ret));
	rte_comch_dpa_dev_thread_reschedule();
}
