/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef DOCA_DPA_PRIVATE_H
#define DOCA_DPA_PRIVATE_H

/*
 * What the DPA files of the layer share (doca_dpa.c, doca_dpa_dev.c,
 * doca_comch_msgq.c). Not installed.
 *
 * A DOCA DPA object is a small wrapper over the software DPA's: the layer
 * collects DOCA's configuration calls (the rte_comch objects take theirs at
 * creation) and makes the rte_comch object at DOCA's start. Programs name
 * objects by rte_comch_dpa_handle_t, which the DOCA handle types are.
 */

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_comch_dpa.h>

#include "doca_compat_private.h"
#include "doca_dpa.h"

/* One buffer of DPA memory: a device address is its process address. */
struct dc_dpa_mem {
	doca_dpa_dev_uintptr_t addr;
	uint64_t size;
	rte_comch_dpa_handle_t h;
};

struct doca_dpa {
	struct dc_obj obj;		/* first: DC_KIND_DPA */
	struct doca_dev *dev;		/* held while the DPA exists */
	struct rte_comch_dev *rdev;	/* the device's DPA device (never closed) */
	struct rte_comch_dpa *rdpa;
	struct doca_dpa_app *app;
	bool started;
	struct doca_dpa *next;		/* the DPAs of the same device (doca_dpa.c) */
	pthread_mutex_t lock;		/* what follows */
	struct rte_comch_pe *pe;	/* engine of its DPA-side contexts, from the first */
	struct dc_dpa_mem *mems;	/* its buffers, in no order */
	uint32_t nb_mems;
	uint32_t max_mems;
};
DC_OBJ_FIRST(struct doca_dpa, obj);

struct doca_dpa_thread {
	struct dc_obj obj;		/* first: DC_KIND_DPA_THREAD */
	struct doca_dpa *dpa;
	void (*entry)(uint64_t arg);	/* the program's function, as it is defined */
	uint64_t arg;
	doca_dpa_dev_uintptr_t tls;	/* 0: none */
	struct rte_comch_dpa_thread *rt; /* from its start */
	bool running;			/* run, not stopped since (finished, maybe) */
	uint32_t users;			/* completion contexts and notifications on it */
};
DC_OBJ_FIRST(struct doca_dpa_thread, obj);

struct doca_dpa_completion {
	struct dc_obj obj;		/* first: DC_KIND_DPA_COMPLETION */
	struct doca_dpa *dpa;
	uint32_t size;			/* a power of two */
	struct doca_dpa_thread *thread;	/* NULL: polled */
	struct rte_comch_dpa_cq *cq;	/* while started */
};
DC_OBJ_FIRST(struct doca_dpa_completion, obj);

/* The rte_comch DPA device of a DOCA device, opened on first use: NULL (logged) if it cannot be. */
DC_INTERNAL struct rte_comch_dev *
dc_dpa_rdev_get(struct doca_dev *dev);

/* Hold a DOCA device (doca_dev_close() says IN_USE) without fixing its side, or release it. */
DC_INTERNAL void
dc_dpa_dev_hold(struct doca_dev *dev, int n);

/*
 * A started completion context of t's DPA (or dpa's, polled, if t is NULL) of
 * at least size entries: what DOCA's DPA completions and consumer completions
 * start as. *cq set; DOCA's error otherwise (logged).
 */
DC_INTERNAL doca_error_t
dc_dpa_cq_start(struct doca_dpa *dpa, struct doca_dpa_thread *t, uint32_t size,
		uint32_t max_consumers, uint32_t imm_len, struct rte_comch_dpa_cq **cq);

/* The engine of dpa's DPA-side contexts, made on first use on the calling thread. */
DC_INTERNAL struct rte_comch_pe *
dc_dpa_pe(struct doca_dpa *dpa);

/* A size rounded up to a power of two, 2 at least (completion contexts). */
DC_INTERNAL uint32_t
dc_dpa_pow2(uint32_t size);

#endif /* DOCA_DPA_PRIVATE_H */
