/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Server side of the control-path modes over comch: a server per test, one
 * client, and every message handed to the responder, which says what to answer.
 * Replies are sent from inside the receive callback, as a DOCA-style server does.
 *
 * In an event mode (ctrl-ev-lat) the engine sleeps whenever a round of progress
 * does nothing; the client's SYNC after the ping-pong begins the idle window,
 * its END ends it.
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "bench_comch.h"
#include "bench_event.h"
#include "bench_responder.h"
#include "bench_runners.h"

struct ctrl_server {
	struct bench_responder r;
	struct bench_ev *ev;  /* event modes: the engine sleeps when idle; NULL otherwise */
};

static void
on_msg(struct bc_sess *s, const uint8_t *msg, uint32_t len)
{
	struct ctrl_server *sv = s->priv;
	struct bench_msg_hdr hdr;
	uint8_t *buf;
	int n;

	/* After a failure, nothing more is checked: the first error is the story. */
	if (unlikely(s->res->status != 0))
		return;
	if (sv->ev != NULL && bench_msg_peek(msg, len, &hdr) == 0)
		bench_ev_on_request(sv->ev, hdr.kind, hdr.seq);
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
comch_ctrl_serve(struct bench_ctx *bc, const struct bench_test *t, struct bench_result *res)
{
	struct ctrl_server sv = { .ev = NULL };
	struct bench_ev ev;
	struct bc_sess s;
	int ret;

	bench_responder_init(&sv.r, t, res);
	ret = bc_server_open(&s, bc, t, res, on_msg, &sv);
	/* Waiting for the client is not measured: it polls in every mode. */
	if (ret == 0)
		ret = bc_server_accept(&s);
	if (ret == 0 && t->mode->event) {
		ret = bench_ev_init(&ev, res, bc->tsc_hz, s.pe, NULL);
		sv.ev = ret == 0 ? &ev : NULL;
	}
	/* No deadline: the client paces the test, and its death ends the connection. */
	while (ret == 0 && sv.ev != NULL && !s.closed)
		ret = bc_progress_ev(&s, sv.ev);
	if (ret == 0)
		ret = bc_server_serve(&s);
	bc_close(&s);
	bench_responder_finish(&sv.r);
	if (sv.ev != NULL)
		bench_ev_report(sv.ev, res);
	return res->status;
}
