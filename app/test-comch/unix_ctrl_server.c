/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Server side of the control-path baselines: receive, let the responder check,
 * answer when it says so, until the client closes the connection.
 */

#include <errno.h>
#include <stdlib.h>

#include <rte_common.h>

#include "bench_responder.h"
#include "bench_runners.h"
#include "bench_unix.h"

int
unix_ctrl_serve(struct bench_ctx *bc, const struct bench_test *t, struct bench_result *res)
{
	const uint32_t size = bench_wire_size(t);
	uint32_t cap = RTE_MAX(size, (uint32_t)BENCH_CTRL_MSG_ROOM);
	struct bench_responder r;
	uint8_t *buf, *reply;
	struct bu_conn c;
	int n, ret, limit;

	bench_responder_init(&r, t, res);
	buf = malloc(cap);
	reply = malloc(cap);
	if (buf == NULL || reply == NULL) {
		bench_fail(res, -ENOMEM, "out of memory");
		goto out;
	}
	ret = bu_accept(&c, bc, t, res);
	/* Best effort: if PONGs cannot fit, the client found out first and skips. */
	if (ret == 0)
		bu_fit(&c, size, &limit);
	while (ret == 0) {
		n = bu_recv(&c, buf, cap, true);
		if (n <= 0)
			break;
		ret = bench_responder_handle(&r, buf, n);
		if (ret > 0) {
			bench_responder_reply(&r, reply);
			ret = bu_send(&c, reply, ret);
		}
	}
	bu_close(&c);
out:
	free(buf);
	free(reply);
	bench_responder_finish(&r);
	return res->status;
}
