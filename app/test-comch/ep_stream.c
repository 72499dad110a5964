/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * ep-stream, client side: the DATA flood of ctrl-stream over the endpoint API,
 * sendto() as fast as the queues take the messages (-EAGAIN: call again), for
 * --duration seconds, framed as its Unix-socket baseline is: a SYNC after the
 * warm-up, and an END answered by RESULT once the server has received and
 * checked every message.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include <rte_common.h>
#include <rte_cycles.h>

#include "bench_ep.h"
#include "bench_msg.h"
#include "bench_runners.h"
#include "bench_stats.h"

struct stream_state {
	struct bench_ep e;
	uint8_t *buf;
	uint32_t cap;
	struct bench_tx_window tx;
};

static int
send_msg(struct stream_state *st, uint32_t kind, uint64_t seq, uint32_t len)
{
	uint64_t c0;
	int ret;

	bench_msg_fill(st->buf, len, kind, seq);
	c0 = bench_tx_t0(seq);
	ret = bep_send(&st->e, st->buf, len);
	if (ret == 0)
		bench_tx_sent(&st->tx, c0);
	return ret;
}

/* Send SYNC or END, return the reply's length (in st->buf) or a negative errno. */
static int
round_trip(struct stream_state *st, uint32_t kind, uint64_t seq)
{
	int ret;

	ret = send_msg(st, kind, seq, BENCH_MSG_HDR_LEN);
	if (ret < 0)
		return ret;
	return bep_recv(&st->e, st->buf, st->cap);
}

int
ep_stream_client(struct bench_ctx *bc, const struct bench_test *t, struct bench_result *res)
{
	const struct bench_opts *o = bc->opts;
	const uint32_t size = bench_wire_size(t);
	struct stream_state st = { .cap = RTE_MAX(size, (uint32_t)BENCH_CTRL_MSG_ROOM) };
	uint64_t seq = 0, t_end, eagain = 0;
	struct bench_msg_result result;
	int ret, n = 0;

	st.buf = malloc(st.cap);
	if (st.buf == NULL)
		return bench_fail(res, -ENOMEM, "out of memory");
	ret = bep_connect(&st.e, bc, t, res);
	for (; ret == 0 && seq < o->warmup; seq++)
		ret = send_msg(&st, BENCH_MSG_DATA, seq, size);
	/* Start from empty queues: the warm-up must not count, nor its backlog. */
	if (ret == 0) {
		n = round_trip(&st, BENCH_MSG_SYNC, seq);
		ret = n < 0 ? n : bench_msg_check(st.buf, n, BENCH_MSG_SYNC_ACK, seq,
						  BENCH_MSG_HDR_LEN, res);
	}
	eagain = st.e.eagain;
	bench_tx_start(&st.tx, seq);
	t_end = st.tx.tsc_start + (uint64_t)(o->duration * bc->tsc_hz);
	for (; ret == 0 && rte_rdtsc() < t_end; seq++)
		ret = send_msg(&st, BENCH_MSG_DATA, seq, size);
	if (ret == 0) {
		n = round_trip(&st, BENCH_MSG_END, seq);
		ret = n < 0 ? n : 0;
	}
	bench_tx_stop(&st.tx);
	if (ret == 0 && bench_msg_check_result(st.buf, n, seq, "", &result, res) == 0) {
		if (result.received != seq || result.bytes != seq * size)
			bench_fail(res, -EBADMSG, "sent %" PRIu64 " messages, server received %"
				   PRIu64 " (%" PRIu64 " bytes)", seq, result.received,
				   result.bytes);
		res->verified = result.received;
	}
	bep_close(&st.e);
	if (res->status == 0) {
		bench_tx_result(&st.tx, seq, size, bc->tsc_hz, res);
		res->eagain = st.e.eagain - eagain;
	}
	free(st.buf);
	return res->status;
}
