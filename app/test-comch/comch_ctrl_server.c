/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Server side of the control-path modes over comch: a server per test, one
 * client, and every message handed to the responder, which says what to answer.
 * Replies are sent from inside the receive callback, as a DOCA-style server does.
 */

#include <errno.h>
#include <inttypes.h>

#include "bench_comch.h"
#include "bench_responder.h"
#include "bench_runners.h"

static void
on_msg(struct bc_sess *s, const uint8_t *msg, uint32_t len)
{
	struct bench_responder *r = s->priv;
	uint8_t *buf;
	int n;

	/* After a failure, nothing more is checked: the first error is the story. */
	if (unlikely(s->res->status != 0))
		return;
	n = bench_responder_handle(r, msg, len);
	if (n <= 0)
		return;
	buf = bc_buf_get(s);
	if (unlikely(buf == NULL)) {
		bench_fail(s->res, -ENOBUFS, "all %" PRIu32 " reply buffers in flight: the client "
			   "does not take its replies", s->pool_n);
		return;
	}
	bench_responder_reply(r, buf);
	bc_reply(s, buf, n);
}

int
comch_ctrl_serve(struct bench_ctx *bc, const struct bench_test *t, struct bench_result *res)
{
	struct bench_responder r;
	struct bc_sess s;
	int ret;

	bench_responder_init(&r, t, res);
	ret = bc_server_open(&s, bc, t, res, on_msg, &r);
	if (ret == 0)
		ret = bc_server_accept(&s);
	if (ret == 0)
		ret = bc_server_serve(&s);
	bc_close(&s);
	bench_responder_finish(&r);
	return res->status;
}
