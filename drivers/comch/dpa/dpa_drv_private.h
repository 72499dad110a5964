/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef DPA_DRV_PRIVATE_H
#define DPA_DRV_PRIVATE_H

/*
 * The "dpa" comch driver: MsgQ on the software DPA runtime (lib/dpa), so that
 * the library reaches MsgQ producers and consumers through the driver
 * contract. It calls the runtime through its internal API
 * (rte_comch_dpa_driver.h) only; the runtime never calls it. Its files:
 *   dpa_drv.c           registration, probe, the device, MsgQ create and destroy
 *   dpa_drv_mem.c       mmap ops: memory, registrations and their DPA handles
 *   dpa_msgq_consumer.c consumer ops: DPA consumers and CPU consumers
 *   dpa_msgq_producer.c producer ops: import, unimport, CPU producers' sends
 *   dpa_msgq_conf.c     the CPU-side configuration calls (rte_comch_dpa_msgq.h)
 *   dpa_msgq_dev.c      the device-side MsgQ calls (rte_comch_dpa_dev.h)
 *
 * A MsgQ carries one direction. With DPA consumers (conf.dpa_consumer), CPU
 * producers post completion entries to each consumer's completion context,
 * within the receive credits its program gave with consumer_ack. With CPU
 * consumers, DPA producers fill the receives the CPU posted, under the
 * consumer's lock, and wake its engine through an eventfd.
 *
 * Memory: a MsgQ's consumers and producers are arrays indexed by id, owned by
 * the MsgQ and freed with it, so that a DPA producer that looks a consumer up
 * by id never reaches freed memory: the consumer's lock and imported flag say
 * whether it may be written.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_log.h>

#include <rte_comch_driver.h>
#include <rte_comch_msgq.h>

#include "comch_alloc.h"
#include "comch_spinlock.h"

#include "rte_comch_dpa.h"
#include "rte_comch_dpa_dev.h"
#include "rte_comch_dpa_driver.h"

extern int dpa_drv_logtype;
/* A log line that names func, for helpers that check on behalf of their caller. */
#define DPA_LOG_FN(level, func, fmt, ...) \
	rte_log(RTE_LOG_ ## level, dpa_drv_logtype, "COMCH_DPA: %s(): " fmt "\n", (func), \
		##__VA_ARGS__)
#define DPA_LOG(level, fmt, ...) DPA_LOG_FN(level, __func__, fmt, ##__VA_ARGS__)

/* The driver's kinds of DPA handles (none of the runtime's: T, C, M). */
#define DPA_KIND_CONSUMER 0x63 /* 'c': a DPA consumer of a MsgQ */
#define DPA_KIND_PRODUCER 0x70 /* 'p': a DPA producer of a MsgQ */
#define DPA_KIND_REG 0x52    /* 'R': an mmap's registration on the dpa's device */

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

/* Registrations (mmaps started) of one device at once. */
#define DPA_DRV_MAX_REGS 1024
/* Longest name= of the devargs, without the NUL. */
#define DPA_DRV_NAME_MAX 32
/* Most tasks in one producer's or consumer's pool. */
#define DPA_DRV_MAX_FAST_TASKS 4096
/* Default of set_dev_max_num_recv() and set_dev_max_num_send() (DOCA's too). */
#define DPA_MSGQ_DEFAULT_DEV_MAX 16

extern struct rte_comch_driver dpa_driver;

/*
 * An mmap's registration on a device. Programs reach it by handle (kind REG,
 * the tag of the dpa they asked for it, slot, generation) in dma_copy; a copy
 * holds users while it reads the range, and dereg waits for it.
 */
struct dpa_reg {
	uint16_t gen;
	uint16_t live;       /* atomic: gen while registered, 0 otherwise */
	uint32_t users;      /* atomic: copies in progress that use it */
	bool busy;           /* under regs_lock: the slot is taken */
	uint8_t *addr;       /* written before live is published, then fixed */
	size_t len;
	uint32_t perms;      /* RTE_COMCH_MMAP_PERM_* */
};

/* A device opened with "dpa:" devargs. */
struct dpa_drv_dev {
	char name[DPA_DRV_NAME_MAX + 1];
	comch_spinlock_t regs_lock; /* mmaps may start on several threads */
	uint32_t nb_regs;
	struct dpa_reg regs[DPA_DRV_MAX_REGS];
};

/* One receive of a CPU consumer: its cookie, then what a DPA producer put in it. */
struct dpa_recv {
	uint64_t cookie;
	uint32_t producer_id;
	uint32_t imm_len;
	uint8_t imm[RTE_COMCH_DPA_IMM_MAX];
};

struct dpa_msgq;

/* A consumer of a MsgQ: on the DPA or on the CPU, as its MsgQ's direction says. */
struct dpa_cons {
	struct dpa_msgq *q;
	uint32_t id;
	bool in_use;                 /* between create and destroy (the MsgQ's lock) */
	/* A DPA consumer. */
	rte_comch_dpa_handle_t handle;
	struct rte_comch_dpa_cq *cq; /* set while idle: read by CPU producers after start */
	uint64_t user_data;
	uint32_t max_recv;           /* atomic: set while idle, read by consumer_ack */
	int started;                 /* atomic: consumer_ack is refused before the first start */
	/* A CPU consumer: a ring of receives, posted at pi, filled at fi, polled at ci. */
	struct dpa_recv *ring;
	uint32_t mask;
	int efd;                     /* eventfd that wakes its engine; -1 before the first start */
	struct rte_comch_pe *pe;     /* the engine watching efd */
	/*
	 * What the side taking the lock writes, on a line of its own: DPA
	 * producers filling a CPU consumer, the program offering receives of a
	 * DPA consumer. The producers' view, under lock: imported between import
	 * and unimport (a DPA producer fills only then), and the longest imm
	 * accepted.
	 */
	comch_spinlock_t lock __rte_cache_aligned;
	bool imported;
	uint32_t imm_len;
	uint64_t fi;                 /* atomic: producers write under lock (release), it reads */
	uint64_t pi_seen;            /* pi when a producer last read it, under lock */
	uint64_t offered;            /* DPA consumer, atomic: receives offered, under lock */
	/*
	 * What the other side writes: the CPU consumer's lcore, or the one CPU
	 * producer sending to a DPA consumer (credits are offered - taken).
	 */
	uint64_t pi __rte_cache_aligned; /* atomic: its lcore writes (release), producers read */
	uint64_t ci;                 /* its lcore only */
	uint64_t taken;              /* DPA consumer, atomic: receives filled by CPU sends */
	uint64_t offered_seen;       /* offered when the sending producer last read it */
	int armed __rte_cache_aligned; /* atomic: its engine sleeps on efd */
} __rte_cache_aligned;

/* A producer of a MsgQ: on the DPA or on the CPU. */
struct dpa_prod {
	struct dpa_msgq *q;
	uint32_t id;
	bool in_use;
	/* A DPA producer. */
	rte_comch_dpa_handle_t handle;
	/* Its completion configuration, and the room check and post of a completion. */
	comch_spinlock_t lock;
	struct rte_comch_dpa_cq *cq; /* NULL: no completion context attached */
	uint64_t user_data;
	uint32_t max_send;
} __rte_cache_aligned;

/* A started MsgQ. */
struct dpa_msgq {
	struct dpa_drv_dev *dev;
	struct rte_comch_dpa *dpa;
	bool dpa_consumer;           /* consumers on the DPA, producers on the CPU */
	uint32_t max_consumers;
	uint32_t max_producers;
	struct dpa_cons *cons;       /* by id: 1 to max_consumers, slot 0 unused */
	struct dpa_prod *prods;      /* by id: 1 to max_producers, slot 0 unused */
};

/* The library numbers a MsgQ's consumers and producers from 1 (0 is never an id). */
static inline bool
dpa_msgq_id_valid(uint32_t id, uint32_t max)
{
	return id >= 1 && id <= max;
}

/* dpa_drv.c: the driver's device behind a device, or NULL if it is another driver's. */
struct dpa_drv_dev *dpa_drv_dev_of(const struct rte_comch_dev *dev);

/* dpa_drv_mem.c */
extern const struct rte_comch_drv_mmap_ops dpa_mmap_ops;
struct dpa_reg *dpa_reg_get(const struct dpa_msgq *q, rte_comch_dpa_handle_t h,
			    const char *func);
void dpa_reg_put(struct dpa_reg *r);

/* dpa_msgq_consumer.c */
extern const struct rte_comch_drv_consumer_ops dpa_consumer_ops;
/* Deliver imm into a CPU consumer's next posted receive and wake it: under c->lock. */
void dpa_cons_fill(struct dpa_cons *c, uint32_t producer_id, const void *imm, uint32_t imm_len);

/* dpa_msgq_producer.c */
extern const struct rte_comch_drv_producer_ops dpa_producer_ops;

#endif /* DPA_DRV_PRIVATE_H */
