/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Server side of ctrl-ev-lat over comch: the control-path server of ctrl-lat
 * (the responder checks, replies go out from the receive callback), but its
 * engine sleeps whenever a round of progress does nothing. The client's SYNC
 * after the ping-pong begins the idle window, its END ends it.
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "bench_comch.h"
#include "bench_event.h"
#include "bench_responder.h"
#include "bench_runners.h"

struct ev_server {
	struct bench_responder r;
	struct bench_ev ev;
};

static void
on_msg(struct bc_sess *s, const uint8_t *msg, uint32_t len)
{
	struct ev_server *sv = s->priv;
	struct bench_msg_hdr hdr;
	uint8_t *buf;
	int n;

	if (unlikely(s->res->status != 0))
		return;
	if (bench_msg_peek(msg, len, &hdr) == 0)
		bench_ev_on_request(&sv->ev, hdr.kind, hdr.seq);
	n = bench_responder_handle(&sv->r, msg, len);
	if (n <= 0)
		return;
	buf = bc_buf_get(s);
	if (unlikely(buf == NULL)) {
		bench_fail(s->res, -ENOBUFS, "all %" PRIu32 " reply buffers in flight: the client "
			   "does not take its replies", s->pool_n);
		return;
	}
	bench_responder_reply(&sv->r, buf);
	bc_reply(s, buf, n);
}

int
comch_ctrl_ev_serve(struct bench_ctx *bc, const struct bench_test *t, struct bench_result *res)
{
	struct ev_server sv;
	struct bc_sess s;
	int ret;

	/* Zeroed: a message before bench_ev_init() would find an engine-less, harmless ev. */
	memset(&sv, 0, sizeof(sv));
	bench_responder_init(&sv.r, t, res);
	ret = bc_server_open(&s, bc, t, res, on_msg, &sv);
	/* Waiting for the client is not measured: it polls, as ctrl-lat's server does. */
	if (ret == 0)
		ret = bc_server_accept(&s);
	if (ret == 0)
		ret = bench_ev_init(&sv.ev, res, bc->tsc_hz, s.pe, NULL);
	/* No deadline: the client paces the test, and its death ends the connection. */
	while (ret == 0 && !s.closed)
		ret = bc_progress_ev(&s, &sv.ev);
	if (ret == 0 && s.close_status != -ECONNABORTED)
		bench_fail(res, s.close_status < 0 ? s.close_status : -EIO,
			   "client connection ended: %s (%d)", strerror(-s.close_status),
			   s.close_status);
	bc_close(&s);
	bench_responder_finish(&sv.r);
	if (sv.ev.res != NULL)
		bench_ev_report(&sv.ev, res);
	return res->status;
}
