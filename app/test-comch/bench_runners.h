/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef BENCH_RUNNERS_H
#define BENCH_RUNNERS_H

/*
 * Every mode's implementation over every transport. One file each; the
 * server side of the control-path modes is one responder per transport, since a
 * control-path server only answers what it is sent.
 */

#include "bench.h"

/* comch_ctrl_server.c: server side of ctrl-lat and ctrl-stream over comch. */
int comch_ctrl_serve(struct bench_ctx *bc, const struct bench_test *t, struct bench_result *res);
/* comch_ctrl_lat.c */
int comch_ctrl_lat_client(struct bench_ctx *bc, const struct bench_test *t,
			  struct bench_result *res);
/* comch_ctrl_stream.c */
int comch_ctrl_stream_client(struct bench_ctx *bc, const struct bench_test *t,
			     struct bench_result *res);

/* unix_ctrl_server.c: server side of both baselines. */
int unix_ctrl_serve(struct bench_ctx *bc, const struct bench_test *t, struct bench_result *res);
/* unix_ctrl_lat.c */
int unix_ctrl_lat_client(struct bench_ctx *bc, const struct bench_test *t,
			 struct bench_result *res);
/* unix_ctrl_stream.c */
int unix_ctrl_stream_client(struct bench_ctx *bc, const struct bench_test *t,
			    struct bench_result *res);

#endif /* BENCH_RUNNERS_H */
