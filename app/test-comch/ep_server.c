/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Server side of the endpoint modes (ep-lat, ep-lat-epoll, ep-stream): a
 * listening endpoint per test, one peer, and every message handed to the
 * responder, which says what to answer; until the client disconnects. In
 * ep-lat-epoll it sleeps on its event channels while waiting.
 */

#include <errno.h>
#include <stdlib.h>

#include <rte_common.h>

#include "bench_ep.h"
#include "bench_responder.h"
#include "bench_runners.h"

int
ep_serve(struct bench_ctx *bc, const struct bench_test *t, struct bench_result *res)
{
	const uint32_t cap = RTE_MAX(bench_wire_size(t), (uint32_t)BENCH_CTRL_MSG_ROOM);
	struct bench_responder r;
	uint8_t *buf, *reply;
	struct bench_ep e;
	int n, ret;

	bench_responder_init(&r, t, res);
	buf = malloc(cap);
	reply = malloc(cap);
	if (buf == NULL || reply == NULL) {
		bench_fail(res, -ENOMEM, "out of memory");
		goto out;
	}
	ret = bep_listen(&e, bc, t, res);
	while (ret == 0) {
		n = bep_recv(&e, buf, cap);
		if (n <= 0)
			break;
		ret = bench_responder_handle(&r, buf, n);
		if (ret > 0) {
			bench_responder_reply(&r, reply);
			ret = bep_send(&e, reply, ret);
		}
	}
	bep_close(&e);
out:
	free(buf);
	free(reply);
	bench_responder_finish(&r);
	return res->status;
}
