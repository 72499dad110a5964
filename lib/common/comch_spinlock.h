/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef COMCH_SPINLOCK_H
#define COMCH_SPINLOCK_H

/*
 * A spinlock that ThreadSanitizer sees: DPDK 22.11's rte_spinlock is inline
 * assembly on x86, which orders nothing in TSan's eyes. Used by the software
 * DPA runtime and the dpa driver, whose locks guard what CPU threads and DPA
 * units share.
 */

#include <rte_pause.h>

#include <rte_comch_drv_atomic.h>

typedef struct {
	int locked;          /* atomic */
} comch_spinlock_t;

static inline void
comch_spinlock_init(comch_spinlock_t *l)
{
	comch_store_relaxed(&l->locked, 0);
}

static inline void
comch_spin_lock(comch_spinlock_t *l)
{
	while (comch_exchange_acq_rel(&l->locked, 1) != 0) {
		/* Wait reading, not writing, so the holder's cache line stays put. */
		while (comch_load_relaxed(&l->locked) != 0)
			rte_pause();
	}
}

static inline void
comch_spin_unlock(comch_spinlock_t *l)
{
	comch_store_release(&l->locked, 0);
}

#endif /* COMCH_SPINLOCK_H */
