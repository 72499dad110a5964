/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef DPA_PRIVATE_H
#define DPA_PRIVATE_H

/*
 * The software DPA runtime's objects, shared by its files:
 *   dpa_core.c    the dpa, its object tables, handles and grace periods
 *   dpa_unit.c    execution units: run queues, the dispatch loop, services, pthreads
 *   dpa_thread.c  DPA threads and triggers
 *   dpa_cq.c      completion contexts, CPU side and device side
 *   dpa_watch.c   units watching completion contexts for their programs
 *   dpa_mem.c     DPA memory: buffers, copies, and their addresses for programs
 *   dpa_dev.c     the rest of the device side: ending a run, local storage
 *   dpa_ep.c      the handles of the objects of drivers built on the runtime
 *                 (the dpa driver's DPA consumers and producers)
 *   dpa_rpc.c     RPCs: a CPU thread calling device-side code
 * The drivers built on it see only rte_comch_dpa_driver.h.
 *
 * Memory: the thread, completion-context and buffer slots are arrays owned by the
 * dpa and never freed before it, so that a stale handle or pointer always
 * points at a slot whose generation says it is stale, never at freed memory.
 */

#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_log.h>
#include <rte_pause.h>
#include <rte_ring.h>

#include <rte_comch_drv_atomic.h>

#include "comch_alloc.h"
#include "comch_objreg.h"
#include "comch_spinlock.h"

#include "rte_comch_dpa.h"
#include "rte_comch_dpa_prog.h"
#include "rte_comch_dpa_driver.h"

extern int dpa_logtype;
/* A log line that names func, for helpers that check on behalf of their caller. */
#define DPA_LOG_FN(level, func, fmt, ...) \
	rte_log(RTE_LOG_ ## level, dpa_logtype, "COMCH_DPA: %s(): " fmt "\n", (func), \
		##__VA_ARGS__)
#define DPA_LOG(level, fmt, ...) DPA_LOG_FN(level, __func__, fmt, ##__VA_ARGS__)

/* Counters written by one thread at a time, read by any: no locked instruction. */
#define DPA_STAT_INC(p) comch_store_relaxed((p), comch_load_relaxed(p) + 1)
#define DPA_STAT_ADD(p, n) comch_store_relaxed((p), comch_load_relaxed(p) + (n))
/* Counters written by many threads. */
#define DPA_STAT_INC_MT(p) comch_fetch_add_relaxed((p), 1)
#define DPA_STAT_GET(p) comch_load_relaxed(p)

/* The runtime's kinds of handles (the layout: rte_comch_dpa_driver.h). */
#define DPA_KIND_THREAD 0x54 /* 'T' */
#define DPA_KIND_CQ 0x43     /* 'C' */
#define DPA_KIND_MEM 0x4d    /* 'M' */

/* Most objects of the drivers built on a dpa (endpoints) at once. */
#define DPA_MAX_EPS 4096

enum dpa_thread_state {
	DPA_THREAD_FREE = 0,
	DPA_THREAD_IDLE,     /* created */
	DPA_THREAD_STARTED,  /* attached to its unit, local storage allocated */
	DPA_THREAD_RUNNING,  /* triggerable */
	DPA_THREAD_FINISHED, /* ended a run with finish: not triggerable until run again */
};

/* How a run ended (the value passed to longjmp(), never 0). */
enum dpa_run_end {
	DPA_END_RETURN = 1,
	DPA_END_RESCHEDULE = 2,
	DPA_END_FINISH = 3,
};

/*
 * A thread, on four lines: what is set up at create and start (read by every
 * trigger and run), the pending flag (the trigger sets it, the unit clears
 * it: the one line a trigger and a run both write), and the counters of each
 * side. A trigger so moves one line of the thread to the unit, and a run one
 * back, where counters beside the flag made them two.
 */
struct rte_comch_dpa_thread {
	struct rte_comch_dpa *dpa;
	uint32_t slot;
	uint16_t gen;        /* of the current (or last) object of this slot */
	uint16_t live;       /* gen while the object exists, 0 when the slot is free */
	int state;           /* enum dpa_thread_state, atomic */
	uint32_t unit;
	uint32_t nb_cqs;     /* completion contexts attached */
	rte_comch_dpa_func_t func;
	uint64_t arg;
	uint32_t tls_size;
	void *tls;
	/*
	 * 1 while the slot's index waits in its unit's run queue. Set by the
	 * trigger that queues it, cleared by the unit when it takes it: a slot is
	 * in a queue at most once, so a queue of max_threads entries never
	 * overflows, and a slot is not reused while queued.
	 */
	int pending __rte_cache_aligned;
	/* Counters of the triggers (any thread, atomic adds). */
	struct {
		uint64_t triggers;
		uint64_t coalesced;
		uint64_t ignored;
	} trig __rte_cache_aligned;
	/* Counters of the runs (the unit, one at a time). */
	struct {
		uint64_t runs;
		uint64_t ignored;
		uint64_t reschedules;
		uint64_t returns;
		uint64_t finishes;
	} run __rte_cache_aligned;
};

/*
 * One entry of a completion context: the entry and its owner (phase) bit, on
 * a line of its own, so that a post takes one line from the program and a
 * take one line from the producer (56-byte entries straddled two lines in
 * six of every eight).
 */
struct dpa_cq_slot {
	struct rte_comch_dpa_cqe cqe;
	uint32_t owner;      /* phase of the pass that wrote it: 1 on the first pass */
} __rte_cache_aligned;

struct rte_comch_dpa_cq {
	struct rte_comch_dpa *dpa;
	uint32_t slot;
	uint16_t gen;
	uint16_t live;
	struct rte_comch_dpa_thread *thread; /* NULL: nothing to trigger */
	uint32_t size;
	uint32_t mask;
	uint32_t shift;      /* log2(size): pass number = index >> shift */
	struct dpa_cq_slot *ring;
	/* As a MsgQ consumer completion: its limits, and the consumers attached (atomic). */
	uint32_t max_consumers;
	uint32_t imm_len;
	uint32_t nb_consumers;
	/*
	 * What CPU producers write and what the program writes, on lines of
	 * their own: a post and a take then move one line each way, not the
	 * whole context back and forth.
	 */
	/* CPU producers */
	comch_spinlock_t lock __rte_cache_aligned;
	uint64_t pi;         /* next entry to write, under lock */
	uint64_t ack_seen;   /* the program's ack when last read, under lock: its line is a miss */
	uint64_t posted;     /* counters: the producers' */
	uint64_t full;
	uint64_t notifications;
	/* the DPA program (one at a time), and the unit that watches for it */
	uint64_t rcv __rte_cache_aligned; /* next entry to take */
	uint64_t ack;        /* entries acknowledged: producers may write below ack + size */
	uint64_t received;   /* counters: the program's */
	uint64_t acked;
	int watched;         /* atomic: a unit watches for the next entry (dpa_watch.c) */
	uint64_t watch_notifications; /* triggers by the watching unit */
	/*
	 * Set under lock (by whoever arms), cleared by the trigger: producers
	 * read it under lock, after their entry, and never write its line
	 * unless it is set.
	 */
	int armed __rte_cache_aligned; /* the next entry triggers the thread */
};

/* A buffer of DPA memory. */
struct dpa_mem {
	uint16_t gen;
	uint16_t live;
	void *base;
	uint64_t size;
};

/*
 * An object of a driver built on the runtime that programs name by handle
 * (the dpa driver's DPA consumers and producers). obj is the driver's; it
 * stays valid
 * until the slot is freed, a grace period after its handle went stale.
 */
struct dpa_ep {
	uint16_t gen;
	uint16_t live;       /* atomic: gen while the endpoint exists, 0 otherwise */
	uint8_t kind;        /* the driver's kind of object */
	bool busy;           /* under eps_lock: taken, or stale with runs maybe holding obj */
	void *obj;
};

/* A completion context a unit watches, and its generation then (dpa_watch.c). */
struct dpa_watch {
	struct rte_comch_dpa_cq *cq;
	uint16_t gen;
};

/*
 * A unit, on four lines: what a trigger reads (set up at start), the lock of
 * the triggers that queue a thread, what the unit writes as it runs threads,
 * and the flags written only when the dpa starts or stops or a pthread unit
 * naps, which every trigger and every poll read. A trigger so moves no line
 * the unit writes but the run queue's.
 */
struct dpa_unit {
	struct rte_comch_dpa *dpa;
	uint32_t id;
	/* Slots of triggered threads: one producer at a time (kick_lock), one consumer. */
	struct rte_ring *runq;
	/* service mode */
	uint32_t service_id;
	bool service_registered;
	/* pthread mode */
	pthread_t tid;
	bool tid_valid;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	/* Taken by every trigger that queues a thread (dpa_unit_kick()). */
	comch_spinlock_t kick_lock __rte_cache_aligned;
	/* Runs started plus runs ended: odd while a run is in progress (grace periods). */
	uint64_t seq __rte_cache_aligned;
	int in_service;            /* atomic: a service core is in the callback */
	uint32_t idle;             /* polls in a row that found nothing to do */
	/* The contexts it watches, max_cqs places: the unit's alone (dpa_watch.c). */
	uint32_t nb_watch;
	struct dpa_watch *watch;
	int running __rte_cache_aligned; /* atomic: the unit may poll (the dpa is started) */
	int sleeping;              /* atomic: the pthread waits on cond */
} __rte_cache_aligned;

/* What the registry of live objects knows dpas as (their accelerator handles). */
#define DPA_ACCEL_KIND 0x44504131u /* "DPA1" */


struct rte_comch_dpa {
	struct rte_comch_dev *dev;
	struct comch_objreg_entry reg; /* in the registry while it lives: accel handles */
	uint8_t tag;
	enum rte_comch_dpa_exec_mode mode;
	/*
	 * The control calls (dpa_ctl_lock()) one at a time: what they change
	 * below, and the slots they take and give back, stay exact when
	 * several CPU threads call at once.
	 */
	pthread_mutex_t ctl_lock;
	bool started;              /* under ctl_lock, like the fields up to nb_mems */
	uint32_t nb_units;
	uint32_t next_unit;        /* round robin for RTE_COMCH_DPA_UNIT_ANY */
	uint32_t max_threads;
	uint32_t max_cqs;
	uint32_t max_mems;
	uint32_t nb_threads;
	uint32_t nb_cqs;
	uint32_t nb_mems;
	struct rte_comch_dpa_thread *threads;
	struct rte_comch_dpa_cq *cqs;
	struct dpa_mem *mems;
	struct dpa_unit *units;
	uint32_t nb_users;         /* atomic: uses drivers took (rte_comch_dpa_user_get()) */
	/* Drivers' objects created on several threads at once: eps_lock. */
	comch_spinlock_t eps_lock;
	uint32_t max_eps;
	uint32_t nb_eps;           /* under eps_lock */
	struct dpa_ep *eps;
	uint32_t nb_rpcs;          /* atomic: RPCs in progress (dpa_rpc.c) */
};

/*
 * The run in progress on the calling thread: a unit inside a program, or a
 * CPU thread inside an RPC (thread NULL: no local storage, no end of run).
 */
struct dpa_exec {
	struct rte_comch_dpa *dpa;
	struct rte_comch_dpa_thread *thread;
	struct dpa_unit *unit;     /* the unit of the run, NULL in an RPC */
	volatile int end;          /* enum dpa_run_end, set before longjmp() */
	jmp_buf jb;
};
/*
 * The run (or RPC) the calling thread is in, NULL outside one. Read by every
 * device-side call: initial-exec, so that reading it is one load rather than a
 * call to __tls_get_addr() (8 bytes of the static TLS a library loaded with
 * the program, or by a dlopen() of a driver, may take).
 */
extern __thread struct dpa_exec *dpa_cur_exec __attribute__((tls_model("initial-exec")));

static inline bool
dpa_in_program(void)
{
	return dpa_cur_exec != NULL;
}

/*
 * The checks that open a CPU-side entry point: the dpa is not NULL (-EINVAL)
 * and the caller is not a DPA program (-EPERM). The log names func.
 */
static inline int
dpa_cpu_call_check(const struct rte_comch_dpa *dpa, const char *func)
{
	if (dpa == NULL) {
		DPA_LOG_FN(ERR, func, "dpa is NULL");
		return -EINVAL;
	}
	if (dpa_in_program()) {
		DPA_LOG_FN(ERR, func, "called from a DPA program");
		return -EPERM;
	}
	return 0;
}

/*
 * Open a control call of dpa (its start, stop and destroy; a create, start,
 * run, stop or destroy of one of its threads, cqs or buffers): the checks of
 * dpa_cpu_call_check(), then dpa's control lock, held until dpa_ctl_unlock().
 * A DPA program is refused before the lock: stop and destroy wait for the
 * runs in progress while they hold it, so no unit may ever wait for it.
 */
static inline int
dpa_ctl_lock(struct rte_comch_dpa *dpa, const char *func)
{
	int ret = dpa_cpu_call_check(dpa, func);

	if (ret == 0)
		pthread_mutex_lock(&dpa->ctl_lock);
	return ret;
}

static inline void
dpa_ctl_unlock(struct rte_comch_dpa *dpa)
{
	pthread_mutex_unlock(&dpa->ctl_lock);
}

/* The live generation of obj (a thread, a cq) for dpa_obj_check(): NULL if obj is. */
#define DPA_LIVE(obj) ((obj) != NULL ? &(obj)->live : NULL)

/*
 * The checks of a CPU call on an object it holds a pointer to (a thread, a
 * cq): live is the object's live generation, NULL when the pointer is NULL,
 * 0 once the object was destroyed. Returns 0 or -EINVAL; the log names func.
 */
static inline int
dpa_obj_check(const uint16_t *live, const char *name, const char *func)
{
	if (live == NULL) {
		DPA_LOG_FN(ERR, func, "%s is NULL", name);
		return -EINVAL;
	}
	if (comch_load_acquire(live) == 0) {
		DPA_LOG_FN(ERR, func, "%s was destroyed", name);
		return -EINVAL;
	}
	return 0;
}

/* out, where a call writes its result, is not NULL: 0 or -EINVAL (logged, naming func). */
static inline int
dpa_out_check(const void *out, const char *name, const char *func)
{
	if (out == NULL) {
		DPA_LOG_FN(ERR, func, "%s is NULL", name);
		return -EINVAL;
	}
	return 0;
}

/*
 * The checks of a CPU getter on an object it holds a pointer to: the object
 * is live (dpa_obj_check()) and out, where the result goes, is not NULL.
 * Returns 0 or -EINVAL; the log names func.
 */
static inline int
dpa_get_check(const uint16_t *live, const char *name, const void *out, const char *out_name,
	      const char *func)
{
	int ret = dpa_obj_check(live, name, func);

	return ret < 0 ? ret : dpa_out_check(out, out_name, func);
}

/*
 * The dpa of the program that called a device-side entry point, or NULL
 * (logged, naming func) when no DPA program called it.
 */
static inline struct rte_comch_dpa *
dpa_dev_caller(const char *func)
{
	if (!dpa_in_program()) {
		DPA_LOG_FN(ERR, func, "not called from a DPA program");
		return NULL;
	}
	return dpa_cur_exec->dpa;
}

/* dpa_core.c */
void dpa_grace_wait(struct rte_comch_dpa *dpa);
void *dpa_handle_lookup(struct rte_comch_dpa *dpa, rte_comch_dpa_handle_t h, uint8_t kind,
			const char *func);


/* dpa_unit.c */
int dpa_units_init(struct rte_comch_dpa *dpa);
void dpa_units_fini(struct rte_comch_dpa *dpa);
int dpa_units_start(struct rte_comch_dpa *dpa);
void dpa_units_stop(struct rte_comch_dpa *dpa);
void dpa_unit_kick(struct dpa_unit *u, uint32_t slot);

/* dpa_cq.c */

/* Owner bit of the entry at index idx when written in its pass: 1 on the first pass. */
static inline uint32_t
dpa_cq_phase(const struct rte_comch_dpa_cq *cq, uint64_t idx)
{
	return (uint32_t)((idx >> cq->shift) & 1) ^ 1;
}

/* Whether the entry the program takes next was posted. */
static inline bool
dpa_cq_ready(const struct rte_comch_dpa_cq *cq)
{
	uint64_t rcv = comch_load_relaxed(&cq->rcv);

	return comch_load_acquire(&cq->ring[rcv & cq->mask].owner) == dpa_cq_phase(cq, rcv);
}

void dpa_cq_arm(struct rte_comch_dpa_cq *cq, bool dropped);

/* dpa_watch.c */
int dpa_watch_add(struct dpa_unit *u, struct rte_comch_dpa_cq *cq);
unsigned int dpa_watch_poll(struct dpa_unit *u, uint32_t *run, unsigned int max_run,
			    unsigned int *nb_run);
void dpa_watch_arm_all(struct dpa_unit *u);

/* dpa_thread.c */
/*
 * Trigger t: -EPERM if it drops the trigger (not running), 0 if it is queued
 * already (coalesced), 1 if the caller must queue it (its pending flag set):
 * dpa_unit_kick(), or run it at once on its own unit.
 */
int dpa_thread_trigger_begin(struct rte_comch_dpa_thread *t);
/* Trigger t, queueing it on its unit: 0, or -EPERM (dropped). */
int dpa_thread_trigger(struct rte_comch_dpa_thread *t);
rte_comch_dpa_handle_t dpa_thread_handle(const struct rte_comch_dpa_thread *t);

#endif /* DPA_PRIVATE_H */
