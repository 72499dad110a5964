/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef RTE_COMCH_DRV_ATOMIC_H
#define RTE_COMCH_DRV_ATOMIC_H

/**
 * @file
 * Atomic accesses for the library and its drivers (internal).
 *
 * DPDK's checkpatch wants no raw compiler atomic builtins in the code, and
 * DPDK 22.11 (the one we build against) has no rte_atomic_*_explicit() yet
 * (they came in 23.11). These wrappers keep the builtins in this one file;
 * moving to DPDK's own later is a rename. Each name says its memory order.
 */

#include <stdbool.h>

#include <rte_atomic.h>

/** Load with acquire order. */
#define comch_load_acquire(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
/** Load with no ordering (a value another thread may write). */
#define comch_load_relaxed(p) __atomic_load_n((p), __ATOMIC_RELAXED)
/** Load with sequentially consistent order (one total order with the seq_cst stores). */
#define comch_load_seq_cst(p) __atomic_load_n((p), __ATOMIC_SEQ_CST)
/** Store with release order. */
#define comch_store_release(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
/** Store with no ordering (a value another thread may read). */
#define comch_store_relaxed(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
/** Store with sequentially consistent order (one total order with the seq_cst loads). */
#define comch_store_seq_cst(p, v) __atomic_store_n((p), (v), __ATOMIC_SEQ_CST)
/** Add and return the old value, no ordering (counters, sequence numbers). */
#define comch_fetch_add_relaxed(p, v) __atomic_fetch_add((p), (v), __ATOMIC_RELAXED)
/** Add with release order (publishing what was written before); returns the old value. */
#define comch_fetch_add_release(p, v) __atomic_fetch_add((p), (v), __ATOMIC_RELEASE)
/** Add with sequentially consistent order; returns the old value. */
#define comch_fetch_add_seq_cst(p, v) __atomic_fetch_add((p), (v), __ATOMIC_SEQ_CST)
/** Subtract with release order (dropping a reference). */
#define comch_fetch_sub_release(p, v) __atomic_fetch_sub((p), (v), __ATOMIC_RELEASE)
/** Exchange with acquire-release order; returns the old value. */
#define comch_exchange_acq_rel(p, v) __atomic_exchange_n((p), (v), __ATOMIC_ACQ_REL)
/** Exchange with sequentially consistent order; returns the old value. */
#define comch_exchange_seq_cst(p, v) __atomic_exchange_n((p), (v), __ATOMIC_SEQ_CST)
/**
 * Compare and swap, strong, acquire-release on success and acquire on
 * failure; *expected gets the value seen. True if it swapped.
 */
#define comch_cas_acq_rel(p, expected, desired) \
	__atomic_compare_exchange_n((p), (expected), (desired), false, __ATOMIC_ACQ_REL, \
				    __ATOMIC_ACQUIRE)
/**
 * Compare and swap, strong, sequentially consistent on success and relaxed
 * on failure; *expected gets the value seen. True if it swapped.
 */
#define comch_cas_seq_cst_relaxed(p, expected, desired) \
	__atomic_compare_exchange_n((p), (expected), (desired), false, __ATOMIC_SEQ_CST, \
				    __ATOMIC_RELAXED)
/** A full fence: stores before it are seen before loads after it. */
#define comch_fence_seq_cst() rte_atomic_thread_fence(__ATOMIC_SEQ_CST)

#endif /* RTE_COMCH_DRV_ATOMIC_H */
