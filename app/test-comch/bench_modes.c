/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The table of modes and the plan built from it. Adding a mode is adding its
 * files, an entry here and its runners in bench_runners.h.
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "bench.h"
#include "bench_runners.h"

static const struct bench_runner comch_ctrl_lat = {
	.server = comch_ctrl_serve,
	.client = comch_ctrl_lat_client,
};

static const struct bench_runner comch_ctrl_stream = {
	.server = comch_ctrl_serve,
	.client = comch_ctrl_stream_client,
};

static const struct bench_runner unix_ctrl_lat = {
	.server = unix_ctrl_serve,
	.client = unix_ctrl_lat_client,
};

static const struct bench_runner unix_ctrl_stream = {
	.server = unix_ctrl_serve,
	.client = unix_ctrl_stream_client,
};

static const struct bench_runner comch_fp_lat = {
	.server = comch_fp_serve,
	.client = comch_fp_lat_client,
};

static const struct bench_runner comch_fp_stream = {
	.server = comch_fp_serve,
	.client = comch_fp_stream_client,
};

static const struct bench_runner memcpy_bw = {
	.server = memcpy_bw_server,
	.client = memcpy_bw_client,
};

static const struct bench_runner comch_ctrl_many = {
	.server = comch_ctrl_many_serve,
	.client = comch_ctrl_many_client,
};

static const struct bench_runner unix_ctrl_many = {
	.server = unix_ctrl_many_serve,
	.client = unix_ctrl_many_client,
};

static const struct bench_runner comch_fp_many = {
	.server = comch_fp_many_serve,
	.client = comch_fp_many_client,
};

static const struct bench_runner eventfd_lat = {
	.server = eventfd_lat_server,
	.client = eventfd_lat_client,
};

static const struct bench_runner cacheline_lat = {
	.server = cacheline_lat_server,
	.client = cacheline_lat_client,
};

/* The MsgQ modes: the client's process runs both ends, the server side waits. */
static const struct bench_runner msgq_lat = {
	.server = bench_local_serve,
	.client = msgq_lat_client,
};

static const struct bench_runner msgq_rate = {
	.server = bench_local_serve,
	.client = msgq_rate_client,
};

static const struct bench_runner ring_lat = {
	.server = bench_local_serve,
	.client = ring_lat_client,
};

static const struct bench_runner ring_rate = {
	.server = bench_local_serve,
	.client = ring_rate_client,
};

static const struct bench_runner ep_lat = {
	.server = ep_serve,
	.client = ep_lat_client,
};

static const struct bench_runner ep_stream = {
	.server = ep_serve,
	.client = ep_stream_client,
};

#ifdef BENCH_HAVE_MEMIF
static const struct bench_runner memif_fp_lat = {
	.server = memif_fp_serve,
	.client = memif_fp_lat_client,
};

static const struct bench_runner memif_fp_stream = {
	.server = memif_fp_serve,
	.client = memif_fp_stream_client,
};
#define MEMIF_RUNNERS(lat_or_stream) \
		[BENCH_TR_MEMIF] = &memif_fp_ ## lat_or_stream, \
		[BENCH_TR_MEMIF_ZC] = &memif_fp_ ## lat_or_stream,
#else
#define MEMIF_RUNNERS(lat_or_stream)
#endif

#define KIB 1024u
#define MIB (1024u * 1024u)

static const struct bench_mode mode_ctrl_lat = {
	.name = "ctrl-lat",
	.help = "control path ping-pong: round-trip latency",
	.kind = BENCH_KIND_LAT,
	.min_size = BENCH_MIN_SIZE,
	.max_size = BENCH_MAX_SIZE,
	.sizes = { 64 },
	.nb_sizes = 1,
	.runners = {
		[BENCH_TR_COMCH] = &comch_ctrl_lat,
		[BENCH_TR_UNIX] = &unix_ctrl_lat,
		[BENCH_TR_UNIX_POLL] = &unix_ctrl_lat,
		[BENCH_TR_CACHELINE] = &cacheline_lat,
	},
};

static const struct bench_mode mode_ctrl_stream = {
	.name = "ctrl-stream",
	.help = "control path one-way flood: msgs/s, MB/s",
	.kind = BENCH_KIND_STREAM,
	.rq_sweep = true,
	.min_size = BENCH_MIN_SIZE,
	.max_size = BENCH_MAX_SIZE,
	.sizes = { 64 },
	.nb_sizes = 1,
	.runners = {
		[BENCH_TR_COMCH] = &comch_ctrl_stream,
		[BENCH_TR_UNIX] = &unix_ctrl_stream,
		[BENCH_TR_UNIX_POLL] = &unix_ctrl_stream,
	},
};

/*
 * The fast-path modes run over both of comch's APIs (the runners pick theirs
 * from the transport) and memif; their socket baselines are the control-path
 * ones: same socket, same messages.
 */
static const struct bench_mode mode_fp_lat = {
	.name = "fp-lat",
	.help = "fast path ping-pong: round-trip latency",
	.kind = BENCH_KIND_LAT,
	.fast = true,
	.min_size = 0,
	.max_size = BENCH_FP_MAX_SIZE,
	.sizes = { 0, 64 },
	.nb_sizes = 2,
	.runners = {
		[BENCH_TR_COMCH] = &comch_fp_lat,
		[BENCH_TR_COMCH_BURST] = &comch_fp_lat,
		MEMIF_RUNNERS(lat)
		[BENCH_TR_UNIX] = &unix_ctrl_lat,
		[BENCH_TR_UNIX_POLL] = &unix_ctrl_lat,
		[BENCH_TR_CACHELINE] = &cacheline_lat,
	},
};

static const struct bench_mode mode_fp_stream = {
	.name = "fp-stream",
	.help = "fast path one-way flood, burst 1 and N",
	.kind = BENCH_KIND_STREAM,
	.fast = true,
	.burst_variants = true,
	.min_size = 0,
	.max_size = BENCH_FP_MAX_SIZE,
	.sizes = { 64 },
	.nb_sizes = 1,
	.runners = {
		[BENCH_TR_COMCH] = &comch_fp_stream,
		[BENCH_TR_COMCH_BURST] = &comch_fp_stream,
		MEMIF_RUNNERS(stream)
		[BENCH_TR_UNIX] = &unix_ctrl_stream,
		[BENCH_TR_UNIX_POLL] = &unix_ctrl_stream,
	},
};

static const struct bench_mode mode_fp_bw = {
	.name = "fp-bw",
	.help = "fast path bandwidth, GB/s, next to memcpy",
	.kind = BENCH_KIND_BW,
	.fast = true,
	.min_size = 1,
	.max_size = BENCH_FP_MAX_SIZE,
	.sizes = { 4 * KIB, 64 * KIB, 1 * MIB },
	.nb_sizes = 3,
	.runners = {
		[BENCH_TR_COMCH] = &comch_fp_stream,
		[BENCH_TR_COMCH_BURST] = &comch_fp_stream,
		MEMIF_RUNNERS(stream)
		[BENCH_TR_MEMCPY] = &memcpy_bw,
	},
};

static const struct bench_mode mode_ctrl_many = {
	.name = "ctrl-many",
	.help = "control path, many clients to one server",
	.kind = BENCH_KIND_MANY,
	.rq_sweep = true,
	.min_size = BENCH_MIN_SIZE,
	.max_size = BENCH_MAX_SIZE,
	.sizes = { 64 },
	.nb_sizes = 1,
	.runners = {
		[BENCH_TR_COMCH] = &comch_ctrl_many,
		[BENCH_TR_UNIX] = &unix_ctrl_many,
		[BENCH_TR_UNIX_POLL] = &unix_ctrl_many,
	},
};

/* Its baselines: one Unix stream, as fp-stream's. */
static const struct bench_mode mode_fp_many = {
	.name = "fp-many",
	.help = "fast path, many producers to many consumers",
	.kind = BENCH_KIND_MANY,
	.fast = true,
	.burst_sweep = true,
	.min_size = 0,
	.max_size = BENCH_FP_MAX_SIZE,
	.sizes = { 64 },
	.nb_sizes = 1,
	.runners = {
		[BENCH_TR_COMCH] = &comch_fp_many,
		[BENCH_TR_UNIX] = &unix_ctrl_stream,
		[BENCH_TR_UNIX_POLL] = &unix_ctrl_stream,
	},
};

/*
 * The event modes: the latency modes with both sides sleeping when idle. Their
 * baselines sleep too: a blocking socket, and the bare eventfd wake-up.
 */
static const struct bench_mode mode_ctrl_ev_lat = {
	.name = "ctrl-ev-lat",
	.help = "ctrl-lat, both sides sleeping: wake-ups, idle CPU",
	.kind = BENCH_KIND_LAT,
	.event = true,
	.min_size = BENCH_MIN_SIZE,
	.max_size = BENCH_MAX_SIZE,
	.sizes = { 64 },
	.nb_sizes = 1,
	.runners = {
		[BENCH_TR_COMCH] = &comch_ctrl_lat,
		[BENCH_TR_UNIX] = &unix_ctrl_lat,
		[BENCH_TR_EVENTFD] = &eventfd_lat,
	},
};

static const struct bench_mode mode_fp_ev_lat = {
	.name = "fp-ev-lat",
	.help = "fp-lat, both sides sleeping: wake-ups, idle CPU",
	.kind = BENCH_KIND_LAT,
	.fast = true,
	.event = true,
	.min_size = 0,
	.max_size = BENCH_FP_MAX_SIZE,
	.sizes = { 0, 64 },
	.nb_sizes = 2,
	.runners = {
		[BENCH_TR_COMCH] = &comch_fp_lat,
		[BENCH_TR_UNIX] = &unix_ctrl_lat,
		[BENCH_TR_EVENTFD] = &eventfd_lat,
	},
};

/*
 * The MsgQ modes: CPU code and a program on the software DPA, in the client's
 * process, with immediate data only. Their fair baseline is the same in-process
 * exchange between two pthreads over two rte_rings, on the same two CPUs
 * (ring); msgq-lat also has the two-process cache-line floor.
 */
static const struct bench_mode mode_msgq_lat = {
	.name = "msgq-lat",
	.help = "MsgQ CPU -> DPA -> CPU round trip, imm data",
	.kind = BENCH_KIND_LAT,
	.one_process = true,
	.min_size = BENCH_MSGQ_MIN_SIZE,
	.max_size = BENCH_MSGQ_MAX_SIZE,
	.sizes = { 16 },
	.nb_sizes = 1,
	.runners = {
		[BENCH_TR_COMCH] = &msgq_lat,
		[BENCH_TR_RING] = &ring_lat,
		[BENCH_TR_CACHELINE] = &cacheline_lat,
	},
};

static const struct bench_mode mode_msgq_rate = {
	.name = "msgq-rate",
	.help = "MsgQ one-way msgs/s, CPU -> DPA and DPA -> CPU",
	.kind = BENCH_KIND_STREAM,
	.one_process = true,
	.two_way = true,
	.min_size = BENCH_MSGQ_MIN_SIZE,
	.max_size = BENCH_MSGQ_MAX_SIZE,
	.sizes = { 16 },
	.nb_sizes = 1,
	.runners = {
		[BENCH_TR_COMCH] = &msgq_rate,
		[BENCH_TR_COMCH_BURST] = &msgq_rate,
		[BENCH_TR_RING] = &ring_rate,
	},
};

/*
 * The endpoint modes: ctrl-lat and ctrl-stream over the legacy endpoint API
 * (sendto/recvfrom, each call running progress), over a sweep of sizes, next
 * to the same socket baselines. ep-lat-epoll sleeps on the event channels, as
 * the blocking socket and the eventfd sleep.
 */
static const struct bench_mode mode_ep_lat = {
	.name = "ep-lat",
	.help = "endpoint API ping-pong, polling: round-trip latency",
	.kind = BENCH_KIND_LAT,
	.endpoint = true,
	.min_size = BENCH_MIN_SIZE,
	.max_size = BENCH_MAX_SIZE,
	.sizes = { 64, 4 * KIB, 64 * KIB },
	.nb_sizes = 3,
	.runners = {
		[BENCH_TR_COMCH] = &ep_lat,
		[BENCH_TR_UNIX] = &unix_ctrl_lat,
		[BENCH_TR_UNIX_POLL] = &unix_ctrl_lat,
	},
};

static const struct bench_mode mode_ep_lat_epoll = {
	.name = "ep-lat-epoll",
	.help = "ep-lat, both sides asleep in epoll_wait()",
	.kind = BENCH_KIND_LAT,
	.endpoint = true,
	.epoll = true,
	.min_size = BENCH_MIN_SIZE,
	.max_size = BENCH_MAX_SIZE,
	.sizes = { 64, 4 * KIB, 64 * KIB },
	.nb_sizes = 3,
	.runners = {
		[BENCH_TR_COMCH] = &ep_lat,
		[BENCH_TR_UNIX] = &unix_ctrl_lat,
		[BENCH_TR_EVENTFD] = &eventfd_lat,
	},
};

static const struct bench_mode mode_ep_stream = {
	.name = "ep-stream",
	.help = "endpoint API one-way flood: msgs/s, MB/s",
	.kind = BENCH_KIND_STREAM,
	.endpoint = true,
	.min_size = BENCH_MIN_SIZE,
	.max_size = BENCH_MAX_SIZE,
	.sizes = { 64, 4 * KIB, 64 * KIB },
	.nb_sizes = 3,
	.runners = {
		[BENCH_TR_COMCH] = &ep_stream,
		[BENCH_TR_UNIX] = &unix_ctrl_stream,
		[BENCH_TR_UNIX_POLL] = &unix_ctrl_stream,
	},
};

const struct bench_mode *const bench_modes[] = {
	&mode_ctrl_lat,
	&mode_ctrl_stream,
	&mode_fp_lat,
	&mode_fp_stream,
	&mode_fp_bw,
	&mode_ctrl_many,
	&mode_fp_many,
	&mode_ctrl_ev_lat,
	&mode_fp_ev_lat,
	&mode_msgq_lat,
	&mode_msgq_rate,
	&mode_ep_lat,
	&mode_ep_lat_epoll,
	&mode_ep_stream,
};

const unsigned int bench_nb_modes = sizeof(bench_modes) / sizeof(bench_modes[0]);

static const char *const transport_names[BENCH_TR_MAX] = {
	[BENCH_TR_COMCH] = "comch",
	[BENCH_TR_COMCH_BURST] = "comch-burst",
	[BENCH_TR_MEMIF] = "memif",
	[BENCH_TR_MEMIF_ZC] = "memif-zc",
	[BENCH_TR_UNIX] = "unix",
	[BENCH_TR_UNIX_POLL] = "unix-poll",
	[BENCH_TR_MEMCPY] = "memcpy",
	[BENCH_TR_EVENTFD] = "eventfd",
	[BENCH_TR_CACHELINE] = "cacheline",
	[BENCH_TR_RING] = "ring",
};

const char *
bench_transport_name(enum bench_transport tr)
{
	if ((unsigned int)tr >= BENCH_TR_MAX)
		return "?";
	return transport_names[tr];
}

int
bench_transport_parse(const char *name)
{
	int i;

	for (i = 0; i < BENCH_TR_MAX; i++)
		if (strcmp(name, transport_names[i]) == 0)
			return i;
	return -1;
}

/* Consumer buffers (and the memcpy baseline's destinations) of a fast-path test. */
#define FP_MIN_BUFFERS 64
/* fp-bw and fp-lat keep their buffers within this, so that they stay in the last-level cache... */
#define FP_BW_BYTES (8u * MIB)
/* ...with at least this many, so that producer and consumer still overlap. */
#define FP_BW_MIN_BUFFERS 4

/* Bytes one consumer buffer takes: whole cache lines, so buffers share none. */
static uint64_t
fp_buf_bytes(uint32_t size)
{
	return RTE_ALIGN_CEIL((uint64_t)RTE_MAX(size, 1u), RTE_CACHE_LINE_SIZE);
}

/*
 * How many buffers a consumer keeps posted: buffers (one of --buffers), or at
 * least twice the burst and FP_MIN_BUFFERS; for fp-bw and fp-lat, no more than
 * fit in FP_BW_BYTES (fp-stream measures batching: it keeps twice the burst
 * posted, whatever the size).
 */
static uint32_t
fp_buffers(uint32_t buffers, const struct bench_mode *m, uint32_t size, uint32_t burst)
{
	uint64_t n, fit;

	if (buffers != 0)
		return buffers;
	n = RTE_MAX(2 * (uint64_t)burst, (uint64_t)FP_MIN_BUFFERS);
	if (m->kind == BENCH_KIND_LAT || m->kind == BENCH_KIND_BW) {
		fit = FP_BW_BYTES / fp_buf_bytes(size);
		n = RTE_MIN(n, RTE_MAX(fit, (uint64_t)FP_BW_MIN_BUFFERS));
	}
	return n;
}

/* What one plan row is; the plan builder fills it field by field. */
static void
plan_add(struct bench_test *plan, unsigned int *n, unsigned int max, const struct bench_test *t)
{
	unsigned int i;

	/* fp-bw clips each burst to the buffers posted: two bursts may give one test. */
	for (i = *n; i > 0 && i <= max && plan[i - 1].mode == t->mode &&
	     plan[i - 1].size == t->size; i--)
		if (plan[i - 1].transport == t->transport && plan[i - 1].burst == t->burst &&
		    plan[i - 1].buffers == t->buffers && plan[i - 1].recv_queue == t->recv_queue &&
		    plan[i - 1].dir == t->dir)
			return;
	if (*n < max) {
		plan[*n] = *t;
		plan[*n].id = *n;
	}
	(*n)++;
}

static bool
list_has(const uint32_t *list, unsigned int nb, uint32_t v)
{
	unsigned int i;

	for (i = 0; i < nb; i++)
		if (list[i] == v)
			return true;
	return false;
}

/*
 * The rows of one mode and size over a channel that sends in bursts (comch,
 * memif): each --recv-queue (comch control-path streams), each --buffers
 * (comch fast path), each --burst (fast-path streams), in that nesting.
 * fp-stream runs one message per call first, unless a burst of 1 is in the
 * list anyway; fp-bw streams at each burst, at most one per buffer.
 */
static void
plan_channel(const struct bench_opts *o, const struct bench_mode *m, uint32_t size,
	     enum bench_transport tr, struct bench_test *plan, unsigned int *n, unsigned int max)
{
	bool comch_fp = m->fast && bench_transport_is_comch(tr);
	unsigned int nb_rq = m->rq_sweep && tr == BENCH_TR_COMCH ? o->nb_recv_queues : 1;
	unsigned int nb_buf = comch_fp && o->nb_buffers != 0 ? o->nb_buffers : 1;
	unsigned int nb_burst = m->burst_variants || m->burst_sweep ||
				m->kind == BENCH_KIND_BW ? o->nb_bursts : 1;
	struct bench_test t = { .mode = m, .transport = tr, .size = size };
	unsigned int q, b, k;
	uint32_t bufv;

	/* A two-way mode (msgq-rate): one row each way, nothing swept. */
	if (m->two_way) {
		t.burst = 1;
		t.recv_queue = o->recv_queue;
		for (t.dir = BENCH_DIR_TO_DPA; t.dir <= BENCH_DIR_FROM_DPA; t.dir++)
			plan_add(plan, n, max, &t);
		return;
	}

	if ((m->burst_variants || m->burst_sweep || m->kind == BENCH_KIND_BW) && o->nb_bursts > 1)
		t.swept |= BENCH_SWEPT_BURST;
	if (comch_fp && o->nb_buffers > 1)
		t.swept |= BENCH_SWEPT_BUFFERS;
	if (m->rq_sweep && tr == BENCH_TR_COMCH && o->nb_recv_queues > 1)
		t.swept |= BENCH_SWEPT_RQ;
	for (q = 0; q < nb_rq; q++) {
		t.recv_queue = o->recv_queues[q];
		for (b = 0; b < nb_buf; b++) {
			bufv = o->nb_buffers != 0 ? o->buffers_list[b] : 0;
			if (m->burst_variants && !list_has(o->bursts, o->nb_bursts, 1)) {
				t.burst = 1;
				t.buffers = fp_buffers(bufv, m, size, 1);
				plan_add(plan, n, max, &t);
			}
			for (k = 0; k < nb_burst; k++) {
				t.burst = 1;
				if (m->kind == BENCH_KIND_BW)
					t.burst = RTE_MIN(o->bursts[k],
							  fp_buffers(bufv, m, size, o->bursts[k]));
				else if (m->burst_variants || m->burst_sweep)
					t.burst = o->bursts[k];
				t.buffers = m->fast ? fp_buffers(bufv, m, size, t.burst) : 0;
				plan_add(plan, n, max, &t);
			}
		}
	}
}

/* A baseline's rows: one, or one per --buffers for memcpy, which copies into as many. */
static void
plan_baseline(const struct bench_opts *o, const struct bench_mode *m, uint32_t size,
	      enum bench_transport tr, struct bench_test *plan, unsigned int *n,
	      unsigned int max)
{
	bool per_buf = m->fast && tr == BENCH_TR_MEMCPY;
	unsigned int nb_buf = per_buf && o->nb_buffers != 0 ? o->nb_buffers : 1;
	struct bench_test t = {
		.mode = m, .transport = tr, .size = size, .recv_queue = o->recv_queue,
	};
	unsigned int b;
	uint32_t bufv;

	if (per_buf && o->nb_buffers > 1)
		t.swept |= BENCH_SWEPT_BUFFERS;
	for (b = 0; b < nb_buf; b++) {
		bufv = o->nb_buffers != 0 ? o->buffers_list[b] : 0;
		t.burst = 1;
		if (m->kind == BENCH_KIND_BW)
			t.burst = RTE_MIN(o->burst, fp_buffers(bufv, m, size, o->burst));
		t.buffers = per_buf ? fp_buffers(bufv, m, size, t.burst) : 0;
		plan_add(plan, n, max, &t);
	}
}

/*
 * For each selected mode, each size (--size, or the mode's own), each selected
 * transport: comch first, so that each baseline result lands right under the
 * comch ones it is compared with; a channel once per swept value (plan_channel()).
 */
unsigned int
bench_plan_build(const struct bench_opts *o, struct bench_test *plan, unsigned int max)
{
	const struct bench_mode *m;
	const uint32_t *sizes;
	unsigned int i, s, n = 0, nb_sizes;
	uint32_t size;
	int tr;

	for (i = 0; i < bench_nb_modes; i++) {
		if ((o->modes & (1u << i)) == 0)
			continue;
		m = bench_modes[i];
		sizes = o->nb_sizes != 0 ? o->sizes : m->sizes;
		nb_sizes = o->nb_sizes != 0 ? o->nb_sizes : m->nb_sizes;
		for (s = 0; s < nb_sizes; s++) {
			size = sizes[s];
			if (size < m->min_size || size > m->max_size)
				continue;
			for (tr = 0; tr < BENCH_TR_MAX; tr++) {
				if ((o->transports & (1u << tr)) == 0 || m->runners[tr] == NULL)
					continue;
				if (bench_transport_bursts(tr))
					plan_channel(o, m, size, tr, plan, &n, max);
				else
					plan_baseline(o, m, size, tr, plan, &n, max);
			}
		}
	}
	return n;
}

uint32_t
bench_plan_max_size(const struct bench_test *plan, unsigned int nb)
{
	uint32_t max = 0;
	unsigned int i;

	for (i = 0; i < nb; i++)
		max = RTE_MAX(max, plan[i].size);
	return max;
}

void
bench_size_str(uint32_t size, char *buf, size_t len)
{
	if (size >= MIB && size % MIB == 0)
		snprintf(buf, len, "%" PRIu32 " MiB", size / MIB);
	else if (size >= KIB && size % KIB == 0)
		snprintf(buf, len, "%" PRIu32 " KiB", size / KIB);
	else
		snprintf(buf, len, "%" PRIu32 " B", size);
}

void
bench_test_label(const struct bench_test *t, char *buf, size_t len)
{
	const char *tr = bench_transport_name(t->transport);
	size_t n;

	if ((t->transport == BENCH_TR_UNIX || t->transport == BENCH_TR_UNIX_POLL) &&
	    bench_wire_size(t) != t->size) {
		snprintf(buf, len, "%s (%" PRIu32 " B)", tr, bench_wire_size(t));
		return;
	}
	n = snprintf(buf, len, "%s", tr);
	if (n < len && t->dir != BENCH_DIR_NONE)
		n += snprintf(buf + n, len - n, "%s",
			      t->dir == BENCH_DIR_TO_DPA ? " cpu->dpa" : " dpa->cpu");
	/* The values this row has from a sweep, in the order the plan nests them. */
	if (n < len && ((bench_transport_bursts(t->transport) && t->mode->burst_variants) ||
			(t->swept & BENCH_SWEPT_BURST)))
		n += snprintf(buf + n, len - n, " burst %" PRIu32, t->burst);
	if (n < len && (t->swept & BENCH_SWEPT_BUFFERS))
		n += snprintf(buf + n, len - n, " buf %" PRIu32, t->buffers);
	if (n < len && (t->swept & BENCH_SWEPT_RQ))
		snprintf(buf + n, len - n, " rq %" PRIu32, t->recv_queue);
}
