/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef BENCH_H
#define BENCH_H

/*
 * dpdk-test-comch: shared types.
 *
 * A run is a plan: a list of tests, each one mode (ctrl-lat, fp-stream...) at one
 * message size over one transport (comch, or a baseline). Both sides build the same
 * plan from the same options and walk it in order, one connection per test, so
 * they never need to agree on anything at run time beyond the test number.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#define BENCH_PROG "dpdk-test-comch"

/* Most message sizes in one --size list. */
#define BENCH_MAX_SIZES 16
/* Smallest control-path message: the header (sequence number, kind, length) must fit. */
#define BENCH_MIN_SIZE 16
/* Largest control-path message: the control path's limit on the shm driver. */
#define BENCH_MAX_SIZE (1u << 20)
/*
 * Largest fast-path message. The fast path carries the header as immediate data,
 * so its messages may be of any size from 0 (immediate data only).
 */
#define BENCH_FP_MAX_SIZE (64u << 20)
/*
 * MsgQ messages are immediate data only: the 16-byte header, then up to 16
 * bytes of the pattern (a MsgQ carries at most 32 bytes).
 */
#define BENCH_MSGQ_MIN_SIZE 16
#define BENCH_MSGQ_MAX_SIZE 32
/* Receives each side of a MsgQ test keeps offered (and its ring baseline's depth). */
#define BENCH_MSGQ_DEPTH 64
/* Most default sizes of one mode. */
#define BENCH_MAX_MODE_SIZES 4
/* Control messages (stream results) need this much room whatever --size is. */
#define BENCH_CTRL_MSG_ROOM 64
/* How long a side waits for its peer to show up (connect, accept), in seconds. */
#define BENCH_CONNECT_TIMEOUT_S 30
/* How long a side waits for an answer once connected, in seconds. */
#define BENCH_REPLY_TIMEOUT_S 10
/* Most values in one --burst, --buffers or --recv-queue list (a sweep). */
#define BENCH_MAX_SWEEP 16
/* Most clients of ctrl-many, producers and consumers of fp-many. */
#define BENCH_MAX_CLIENTS 512
#define BENCH_MAX_PRODUCERS 256
#define BENCH_MAX_CONSUMERS 256
/*
 * Event modes: the longest sleep while the peer is expected to answer. A correct
 * run never needs it: it bounds the damage of a lost wake-up, and each expiry is counted.
 */
#define BENCH_EV_SAFETY_MS 100

enum bench_side {
	BENCH_SIDE_BOTH = 0, /* the parent: runs both sides as child processes */
	BENCH_SIDE_SERVER,   /* BlueField side: comch server, socket listener */
	BENCH_SIDE_CLIENT,   /* host side: comch client, measures */
};

/* Transports, in the order they run for each mode and size. */
enum bench_transport {
	BENCH_TR_COMCH = 0, /* rte_comch; on the fast path, the task API */
	BENCH_TR_COMCH_BURST, /* rte_comch fast path, the burst API */
	BENCH_TR_MEMIF,     /* baseline: DPDK's memif PMD, copy mode */
	BENCH_TR_MEMIF_ZC,  /* baseline: memif, the client in zero-copy mode */
	BENCH_TR_UNIX,      /* baseline: Unix SOCK_SEQPACKET, blocking calls */
	BENCH_TR_UNIX_POLL, /* baseline: same socket, non-blocking calls in a busy loop */
	BENCH_TR_MEMCPY,    /* baseline: one thread copying, as the fast path copies */
	BENCH_TR_EVENTFD,   /* baseline of the event modes: eventfd ping-pong, no payload */
	BENCH_TR_CACHELINE, /* baseline of the latency modes: one shared cache line bounced */
	BENCH_TR_RING,      /* baseline of the MsgQ modes: two pthreads, two rte_rings */
	BENCH_TR_MAX,
};

/* How a mode's results read: the output layer prints each kind its own way. */
enum bench_kind {
	BENCH_KIND_LAT = 1, /* round trips: percentiles */
	BENCH_KIND_STREAM,  /* one-way flood: rates */
	BENCH_KIND_BW,      /* one-way flood of large messages: GB/s */
	BENCH_KIND_MANY,    /* one-way flood from many senders to one receiver: rates, fairness */
};

/*
 * The memory a fast-path consumer receives into (--consumer-mem). The shm driver
 * hands the first to the peer, whose producers write straight into it; the
 * second it cannot share, so it stages each message in a memfd of its own and
 * copies it over (those over 80 bytes): the option measures that copy.
 */
enum bench_consumer_mem {
	BENCH_CMEM_SHARED = 0, /* rte_comch_mmap_alloc_memrange(): the driver's */
	BENCH_CMEM_HEAP,       /* aligned_alloc(), rte_comch_mmap_set_memrange(): the app's */
};

struct bench_opts {
	uint32_t modes;                  /* bit i: bench_modes[i] selected */
	uint32_t transports;             /* bit per enum bench_transport */
	uint32_t sizes[BENCH_MAX_SIZES]; /* --size, in bytes */
	unsigned int nb_sizes;           /* 0: each mode's default sizes */
	uint64_t iterations;             /* measured round trips (latency modes) */
	uint64_t warmup;                 /* unmeasured operations before measuring */
	double duration;                 /* seconds per stream test */
	uint32_t recv_queue;             /* comch receive queue size, both sides (first of list) */
	uint32_t burst;                  /* fast path: sends per progress (first of --burst) */
	uint32_t buffers;                /* fast path: buffers a consumer posts; 0: automatic */
	/* Every value of --burst, --buffers and --recv-queue: the plan sweeps them. */
	uint32_t bursts[BENCH_MAX_SWEEP];
	unsigned int nb_bursts;
	uint32_t buffers_list[BENCH_MAX_SWEEP];
	unsigned int nb_buffers;         /* 0: automatic */
	uint32_t recv_queues[BENCH_MAX_SWEEP];
	unsigned int nb_recv_queues;
	uint32_t clients;                /* ctrl-many: clients of the one server */
	uint32_t producers;              /* fp-many: producers on the client's side */
	uint32_t consumers;              /* fp-many: consumers on the server's side */
	int progress;                    /* progress line: 1 on, 0 off, -1 if stderr is a tty */
	double timeout;                  /* parent watchdog, seconds; 0: derived from the plan */
	double idle;                     /* event modes: seconds both sides sleep idle */
	const char *doorbell;            /* shm doorbell= of both sides: socket, eventfd */
	enum bench_consumer_mem consumer_mem; /* fast-path consumers of both sides */
	const char *csv;                 /* CSV output file, or NULL */
	bool targets;                    /* --targets: the project's targets, met or missed */
	bool brief;                      /* --brief: only the summary table, not every row */
	unsigned int repeat;             /* --repeat: runs of the whole plan (parent) */
	enum bench_side side;
	const char *dir;                 /* runtime directory (shm dir=, sockets) */
	const char *devargs;             /* device devargs override (one side runs) */
	unsigned int server_lcore;
	unsigned int client_lcore;
	int report_fd;                   /* internal: pipe to the parent, or -1 */
	int eal_argc;                    /* extra EAL arguments, after "--" */
	char **eal_argv;
};

/* One entry of the plan. */
/* --repeat: most runs of a plan. */
#define BENCH_MAX_REPEAT 100

/* Descriptors of each memif ring, log2 (memif's default): the most one tx_burst takes. */
#define BENCH_MEMIF_RING_LOG2 10
#define BENCH_MEMIF_RING_SIZE (1u << BENCH_MEMIF_RING_LOG2)

struct bench_test {
	unsigned int id;                 /* position in the plan: names servers and sockets */
	const struct bench_mode *mode;
	enum bench_transport transport;
	uint32_t size;
	uint32_t burst;                  /* fast path: sends per progress; 1 elsewhere */
	uint32_t buffers;                /* fast path: consumer buffers posted; 0 elsewhere */
	uint32_t recv_queue;             /* comch receive queue size of both sides */
	uint8_t swept;                   /* BENCH_SWEPT_*: what the row's label must show */
	uint8_t dir;                     /* MsgQ two-way modes: enum bench_dir */
};

/* Which way a row of a two-way mode (msgq-rate) sends. */
enum bench_dir {
	BENCH_DIR_NONE = 0,   /* a mode with one direction, or a symmetric baseline */
	BENCH_DIR_TO_DPA,     /* CPU producer -> DPA consumer */
	BENCH_DIR_FROM_DPA,   /* DPA producer -> CPU consumer */
};

/* Values a test has from a list of several, shown in its label. */
#define BENCH_SWEPT_BURST 0x1
#define BENCH_SWEPT_BUFFERS 0x2
#define BENCH_SWEPT_RQ 0x4

/* Latency percentiles reported, in this order. */
enum bench_pct {
	BENCH_PCT_MIN = 0,
	BENCH_PCT_P50,
	BENCH_PCT_P90,
	BENCH_PCT_P99,
	BENCH_PCT_P999,
	BENCH_PCT_MAX,
	BENCH_PCT_NB,
};

/*
 * What one side reports about one test. Fixed size and well under PIPE_BUF, so a
 * child's write to the report pipe is atomic and the parent reads whole records.
 */
struct bench_result {
	uint32_t magic;
	uint16_t test_id;                /* BENCH_TEST_NONE: a failure outside any test */
	uint8_t side;                    /* enum bench_side */
	uint8_t kind;                    /* enum bench_kind */
	uint8_t skipped;                 /* not measured, for the reason in error; not a failure */
	char mode[24];
	char transport[16];
	uint32_t size;
	int32_t status;                  /* 0, or a negative errno value */
	char error[192];                 /* why status is not 0 */
	uint64_t ops;                    /* measured round trips or messages */
	uint64_t verified;               /* messages checked by the receiving side */
	uint64_t eagain;                 /* sends refused because the peer was full */
	double lat_ns[BENCH_PCT_NB];
	double mean_ns;
	double seconds;
	double msgs_per_s;
	double mb_per_s;
	double cyc_per_msg;              /* sender's cycles per message, all included */
	double send_cyc;                 /* cycles of one successful send call */
	uint64_t tsc_hz;                 /* the side's TSC frequency */
	uint32_t burst;                  /* the test's, for the output */
	uint32_t buffers;
	uint32_t recv_queue;
	/*
	 * The receiving side's CPU cycles per message: its thread's CPU time from the
	 * first to the last measured message, over those messages (a polling receiver
	 * spends all of it on them). Reported by the server side of stream tests.
	 */
	double rx_cyc_per_msg;
	/* Many-to-one modes (client side): senders, receivers, and each receiver's share. */
	uint32_t senders;                /* ctrl-many: clients; fp-many: producers */
	uint32_t receivers;              /* fp-many: consumers; ctrl-many: 1 server */
	uint64_t share_min;              /* messages of the least served client (consumer) */
	uint64_t share_max;              /* messages of the best served one */
	/* Event modes (sleeping engines, bench_event.h); the idle window is counted apart. */
	uint8_t event;                   /* the fields below are set */
	uint64_t wakeups;                /* sleeps ended by the notification fd */
	uint64_t ev_eagain;              /* notification requests answered -EAGAIN */
	uint64_t ev_timeouts;            /* sleeps ended by the safety timeout */
	uint64_t idle_wakeups;           /* wake-ups during the idle window */
	double idle_s;                   /* length of the idle window */
	double idle_cpu_pct;             /* thread CPU time over the idle window, % of it */
	/*
	 * Many-to-one modes, each side: its resident memory in KiB (VmRSS), before
	 * its first connection (EAL and device set up), with every connection up
	 * and idle, and at the end of the measured part, before teardown; 0 if not
	 * measured. mem_units connections (fp-many: producers, consumers) share
	 * the growth.
	 */
	uint64_t rss_base_kb;
	uint64_t rss_conn_kb;
	uint64_t rss_end_kb;
	uint64_t hwm_kb;                 /* VmHWM at the end: the process's peak so far */
	uint32_t mem_units;
};

#define BENCH_RESULT_MAGIC 0x43484d42u /* "BMHC" */
#define BENCH_TEST_NONE 0xffff

/* Per-process state of one side. */
struct bench_ctx {
	const struct bench_opts *opts;
	enum bench_side side;
	uint64_t tsc_hz;
	void *comch;                     /* bench_comch.c: device, representor, engine */
};

/*
 * How one side of one mode runs over one transport. Returns 0 or a negative errno
 * value; on failure res->error says why.
 */
typedef int (*bench_run_t)(struct bench_ctx *bc, const struct bench_test *t,
			   struct bench_result *res);

struct bench_runner {
	bench_run_t server;
	bench_run_t client;
};

struct bench_mode {
	const char *name;
	const char *help;
	enum bench_kind kind;
	bool fast;                       /* fast path: producers and consumers */
	bool burst_variants;             /* comch runs at burst 1 and at --burst */
	bool burst_sweep;                /* comch runs at each --burst */
	bool rq_sweep;                   /* comch runs at each --recv-queue */
	bool event;                      /* both sides sleep when idle (event modes) */
	/*
	 * Both ends in the client's process (the MsgQ modes: CPU code and the
	 * software DPA): the server side only waits for the client to finish.
	 */
	bool one_process;
	bool two_way;                    /* comch runs once per enum bench_dir */
	/*
	 * The endpoint API (ep-*): comch's rows are rte_comch_ep_*, whose targets
	 * are not the issues' (no target lines); epoll: both sides sleep in
	 * epoll_wait() on the endpoint's event channels when idle.
	 */
	bool endpoint;
	bool epoll;
	uint32_t min_size, max_size;     /* sizes the mode runs at; others are left out */
	uint32_t sizes[BENCH_MAX_MODE_SIZES]; /* default sizes, without --size */
	unsigned int nb_sizes;
	/* NULL where the mode has no implementation over that transport. */
	const struct bench_runner *runners[BENCH_TR_MAX];
};

/* rte_comch itself, whichever API: the rows the baselines are compared with. */
static inline bool
bench_transport_is_comch(enum bench_transport tr)
{
	return tr == BENCH_TR_COMCH || tr == BENCH_TR_COMCH_BURST;
}

/*
 * A channel that sends in bursts, as comch does: it runs at each burst of the
 * plan (rte_comch, memif); the other baselines send one message per call.
 */
static inline bool
bench_transport_bursts(enum bench_transport tr)
{
	return bench_transport_is_comch(tr) || tr == BENCH_TR_MEMIF || tr == BENCH_TR_MEMIF_ZC;
}

/* Whether this build has the transport (memif needs DPDK's memif PMD). */
static inline bool
bench_transport_built(enum bench_transport tr)
{
#ifndef BENCH_HAVE_MEMIF
	if (tr == BENCH_TR_MEMIF || tr == BENCH_TR_MEMIF_ZC)
		return false;
#endif
	return tr < BENCH_TR_MAX;
}

/* bench_modes.c */
extern const struct bench_mode *const bench_modes[];
extern const unsigned int bench_nb_modes;
const char *bench_transport_name(enum bench_transport tr);
int bench_transport_parse(const char *name);
unsigned int bench_plan_build(const struct bench_opts *o, struct bench_test *plan,
			      unsigned int max);
/* The largest message size of a plan. */
uint32_t bench_plan_max_size(const struct bench_test *plan, unsigned int nb);
/* How a test's row is named: "comch", "comch burst 32", "unix (16 B)"... */
void bench_test_label(const struct bench_test *t, char *buf, size_t len);
/* "64 B", "4 KiB", "1 MiB". */
void bench_size_str(uint32_t size, char *buf, size_t len);

/*
 * The size a control-path message of test t really has: at least a header. Only
 * the fast path, which carries its header as immediate data, goes below.
 */
static inline uint32_t
bench_wire_size(const struct bench_test *t)
{
	return t->size < BENCH_MIN_SIZE ? BENCH_MIN_SIZE : t->size;
}

/* The depth of the MsgQ modes and their ring baseline: --buffers, or BENCH_MSGQ_DEPTH. */
static inline uint32_t
bench_msgq_depth(const struct bench_opts *o)
{
	return o->buffers != 0 ? o->buffers : BENCH_MSGQ_DEPTH;
}

/* bench_opts.c */
int bench_opts_parse(struct bench_opts *o, int argc, char **argv);
/* "shared", "heap": as --consumer-mem takes it. */
const char *bench_consumer_mem_name(enum bench_consumer_mem m);
void bench_opts_usage(void);
char **bench_opts_child_argv(const struct bench_opts *o, const char *exe, enum bench_side side,
			     int report_fd);

/* bench_side.c */
int bench_side_run(const struct bench_opts *o);
/* Fill res's identity fields for test t, as seen by side. */
void bench_result_init(struct bench_result *res, const struct bench_test *t,
		       enum bench_side side);
/* Mark res as skipped, for a reason outside the program (a system limit). */
void bench_skip(struct bench_result *res, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Record a failure in res (the first one wins) and return status. */
int bench_fail(struct bench_result *res, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Remove a directory tree (a run's own files only). */
void bench_rm_tree(const char *path);
/* The EAL runtime directory of the side started as process pid. */
void bench_eal_dir(char *buf, size_t len, enum bench_side side, int pid);

/* bench_parent.c */
int bench_parent_run(const struct bench_opts *o);

#endif /* BENCH_H */
