/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef DOCA_COMPAT_DPA_TYPES_H
#define DOCA_COMPAT_DPA_TYPES_H

/**
 * @file
 * DOCA compatibility layer: what the CPU side (doca_dpa.h, doca_comch_msgq.h)
 * and the DPA programs (doca_dpa_dev.h, doca_dpa_dev_comch_msgq.h) share: the
 * 64-bit handles by which a program names the objects the CPU made for it,
 * and device addresses.
 *
 * On the software DPA of rte_comch (the "dpa" driver), programs run in the
 * process that created them: a device address (doca_dpa_dev_uintptr_t) is a
 * process address, which a program casts to a pointer as DOCA device code
 * does; the other handles are rte_comch_dpa_handle_t values, checked by the
 * driver at every use (a stale or made-up one is refused, with a log line).
 *
 * Thread safety: plain types.
 */

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A device address: DPA memory (doca_dpa_mem_alloc()); here a process address. */
typedef uint64_t doca_dpa_dev_uintptr_t;
/** A DPA as its programs name it (doca_dpa_get_dpa_handle()). */
typedef uint64_t doca_dpa_dev_t;
/** A DPA completion context (doca_dpa_completion_get_dpa_handle()). */
typedef uint64_t doca_dpa_dev_completion_t;
/**
 * A notification completion: the thread it wakes
 * (doca_dpa_notification_completion_get_dpa_handle()).
 */
typedef uint64_t doca_dpa_dev_notification_completion_t;
/** An mmap a program copies to or from (doca_mmap_dev_get_dpa_handle()). */
typedef uint64_t doca_dpa_dev_mmap_t;
/** A MsgQ consumer on the DPA (doca_comch_consumer_get_dpa_handle()). */
typedef uint64_t doca_dpa_dev_comch_consumer_t;
/** A MsgQ producer on the DPA (doca_comch_producer_get_dpa_handle()). */
typedef uint64_t doca_dpa_dev_comch_producer_t;
/** A consumer completion context (doca_comch_consumer_completion_get_dpa_handle()). */
typedef uint64_t doca_dpa_dev_comch_consumer_completion_t;

#ifdef __cplusplus
}
#endif

#endif /* DOCA_COMPAT_DPA_TYPES_H */
