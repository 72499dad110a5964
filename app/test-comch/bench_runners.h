/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef BENCH_RUNNERS_H
#define BENCH_RUNNERS_H

/*
 * Every mode's implementation over every transport. One file each, but the
 * event modes run their polling twins' runners, which sleep when idle if the
 * mode's event flag says so. The server side of the control-path modes is one
 * responder per transport, since a control-path server only answers what it
 * is sent, and the server side of the fast-path modes is one consumer (and
 * producer) that does the same. The baselines of fp-lat and fp-stream are the
 * control-path socket runners.
 */

#include "bench.h"

/*
 * comch_ctrl_server.c: server side of ctrl-lat, ctrl-stream and ctrl-ev-lat over
 * comch; in an event mode its engine sleeps when idle.
 */
int comch_ctrl_serve(struct bench_ctx *bc, const struct bench_test *t, struct bench_result *res);
/* comch_ctrl_lat.c: client side of ctrl-lat and ctrl-ev-lat. */
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

/*
 * comch_fp_server.c: server side of fp-lat, fp-stream, fp-bw and fp-ev-lat over
 * comch; in an event mode its engines sleep when idle.
 */
int comch_fp_serve(struct bench_ctx *bc, const struct bench_test *t, struct bench_result *res);
/* comch_fp_lat.c: client side of fp-lat and fp-ev-lat. */
int comch_fp_lat_client(struct bench_ctx *bc, const struct bench_test *t,
			struct bench_result *res);
/* comch_fp_stream.c: client side of fp-stream and fp-bw. */
int comch_fp_stream_client(struct bench_ctx *bc, const struct bench_test *t,
			   struct bench_result *res);

/* memcpy_bw.c: the fp-bw baseline; only the client side copies. */
int memcpy_bw_server(struct bench_ctx *bc, const struct bench_test *t, struct bench_result *res);
int memcpy_bw_client(struct bench_ctx *bc, const struct bench_test *t, struct bench_result *res);

/* comch_ctrl_many_server.c, comch_ctrl_many.c: ctrl-many, many clients of one server. */
int comch_ctrl_many_serve(struct bench_ctx *bc, const struct bench_test *t,
			  struct bench_result *res);
int comch_ctrl_many_client(struct bench_ctx *bc, const struct bench_test *t,
			   struct bench_result *res);
/* unix_ctrl_many_server.c, unix_ctrl_many.c: its baselines, many connections. */
int unix_ctrl_many_serve(struct bench_ctx *bc, const struct bench_test *t,
			 struct bench_result *res);
int unix_ctrl_many_client(struct bench_ctx *bc, const struct bench_test *t,
			  struct bench_result *res);

/* comch_fp_many_server.c, comch_fp_many.c: fp-many, many producers and consumers. */
int comch_fp_many_serve(struct bench_ctx *bc, const struct bench_test *t,
			struct bench_result *res);
int comch_fp_many_client(struct bench_ctx *bc, const struct bench_test *t,
			 struct bench_result *res);

/* eventfd_lat.c: the event modes' baseline, an eventfd ping-pong. */
int eventfd_lat_server(struct bench_ctx *bc, const struct bench_test *t,
		       struct bench_result *res);
int eventfd_lat_client(struct bench_ctx *bc, const struct bench_test *t,
		       struct bench_result *res);

/* cacheline_lat.c: the latency modes' floor, one shared cache line bounced. */
int cacheline_lat_server(struct bench_ctx *bc, const struct bench_test *t,
			 struct bench_result *res);
int cacheline_lat_client(struct bench_ctx *bc, const struct bench_test *t,
			 struct bench_result *res);

/*
 * bench_local.c: the server side of every test of a one-process mode (MsgQ):
 * it only waits, asleep, until the client's process has run both ends.
 */
int bench_local_serve(struct bench_ctx *bc, const struct bench_test *t,
		      struct bench_result *res);
/* msgq_lat.c: msgq-lat, CPU -> DPA -> CPU ping-pong over two MsgQs. */
int msgq_lat_client(struct bench_ctx *bc, const struct bench_test *t, struct bench_result *res);
/* msgq_rate.c: msgq-rate, one-way flood CPU -> DPA or DPA -> CPU (t->dir). */
int msgq_rate_client(struct bench_ctx *bc, const struct bench_test *t,
		     struct bench_result *res);
/* ring_lat.c, ring_rate.c: their baseline, two pthreads of one process, two rte_rings. */
int ring_lat_client(struct bench_ctx *bc, const struct bench_test *t, struct bench_result *res);
int ring_rate_client(struct bench_ctx *bc, const struct bench_test *t, struct bench_result *res);

/*
 * ep_server.c: server side of ep-lat, ep-lat-epoll and ep-stream, over the
 * endpoint API (bench_ep.h); their baselines are the control-path socket runners.
 */
int ep_serve(struct bench_ctx *bc, const struct bench_test *t, struct bench_result *res);
/* ep_lat.c: client side of ep-lat and ep-lat-epoll. */
int ep_lat_client(struct bench_ctx *bc, const struct bench_test *t, struct bench_result *res);
/* ep_stream.c */
int ep_stream_client(struct bench_ctx *bc, const struct bench_test *t, struct bench_result *res);

/*
 * memif_fp_server.c, memif_fp_lat.c, memif_fp_stream.c: the memif baselines of
 * fp-lat, fp-stream and fp-bw (built when DPDK has the memif PMD).
 */
int memif_fp_serve(struct bench_ctx *bc, const struct bench_test *t, struct bench_result *res);
int memif_fp_lat_client(struct bench_ctx *bc, const struct bench_test *t,
			struct bench_result *res);
int memif_fp_stream_client(struct bench_ctx *bc, const struct bench_test *t,
			   struct bench_result *res);

#endif /* BENCH_RUNNERS_H */
