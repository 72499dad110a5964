/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * ctrl-stream baseline, client side: the same DATA flood as over comch, for the
 * same duration, ended the same way (END answered by RESULT), so both rates
 * count only messages the server has received and checked. It is also the
 * baseline of fp-stream.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>

#include "bench_msg.h"
#include "bench_runners.h"
#include "bench_stats.h"
#include "bench_unix.h"

struct stream_state {
	struct bu_conn c;
	uint8_t *buf;
	uint32_t cap;
	struct bench_tx_window tx;  /* its refusals are the connection's */
};

static int
send_msg(struct stream_state *st, uint32_t kind, uint64_t seq, uint32_t len)
{
	uint64_t c0;
	int ret;

	bench_msg_fill(st->buf, len, kind, seq);
	c0 = bench_tx_t0(seq);
	ret = bu_send(&st->c, st->buf, len);
	if (ret == 0)
		bench_tx_sent(&st->tx, c0);
	return ret;
}

/* Send SYNC or END, return the reply's length (in st->buf) or a negative errno. */
static int
round_trip(struct stream_state *st, uint32_t kind, uint64_t seq)
{
	int n, ret;

	ret = send_msg(st, kind, seq, BENCH_MSG_HDR_LEN);
	if (ret < 0)
		return ret;
	n = bu_recv(&st->c, st->buf, st->cap, false);
	if (n == 0)
		return bench_fail(st->c.res, -ECONNRESET, "server closed the connection");
	return n;
}

int
unix_ctrl_stream_client(struct bench_ctx *bc, const struct bench_test *t,
			struct bench_result *res)
{
	const struct bench_opts *o = bc->opts;
	const uint32_t size = bench_wire_size(t);
	struct stream_state st = { .cap = RTE_MAX(size, (uint32_t)BENCH_CTRL_MSG_ROOM) };
	uint64_t seq = 0, t_end, eagain = 0;
	struct bench_msg_result result;
	int ret, n = 0, limit = 0;

	st.buf = malloc(st.cap);
	if (st.buf == NULL)
		return bench_fail(res, -ENOMEM, "out of memory");
	ret = bu_connect(&st.c, bc, t, res);
	if (ret == 0 && bu_fit(&st.c, size, &limit) < 0) {
		bench_skip(res, "a %" PRIu32 "-byte datagram does not fit a Unix socket here "
			   "(send buffer %d bytes, see net.core.wmem_max)", size, limit);
		goto out;
	}
	st.c.probe = true;
	for (; ret == 0 && seq < o->warmup; seq++)
		ret = send_msg(&st, BENCH_MSG_DATA, seq, size);
	/* The first DATA (one more, unmeasured, without warm-up) tells whether it fits. */
	if (ret == -ENOBUFS || (ret == 0 && o->warmup == 0 &&
				(ret = send_msg(&st, BENCH_MSG_DATA, seq++, size)) == -ENOBUFS)) {
		bench_skip(res, "a %" PRIu32 "-byte datagram is more than this kernel "
			   "allocates for a Unix socket (ENOBUFS)", size);
		goto out;
	}
	if (ret == 0) {
		n = round_trip(&st, BENCH_MSG_SYNC, seq);
		ret = n < 0 ? n : bench_msg_check(st.buf, n, BENCH_MSG_SYNC_ACK, seq,
						  BENCH_MSG_HDR_LEN, res);
	}
	eagain = st.c.eagain;
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
out:
	bu_close(&st.c);
	if (res->status == 0 && !res->skipped) {
		bench_tx_result(&st.tx, seq, size, bc->tsc_hz, res);
		res->eagain = st.c.eagain - eagain;
	}
	free(st.buf);
	return res->status;
}
