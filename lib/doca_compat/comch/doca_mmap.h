/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef DOCA_COMPAT_MMAP_H
#define DOCA_COMPAT_MMAP_H

/**
 * @file
 * DOCA compatibility layer: memory maps, over rte_comch mmaps.
 *
 * Thread-safety: configure and start an mmap from one thread; a started mmap
 * may then be used from any thread (see doca_mmap_enable_thread_safety()).
 */

#include <stddef.h>
#include <stdint.h>

#include <doca_error.h>
#include <doca_types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_mmap;
struct doca_dev;

/**
 * Called when a destroyed mmap lets go of its memory (doca_mmap_set_free_cb()).
 *
 * @param addr The memory range's start.
 * @param len Its length.
 * @param opaque The pointer given with the callback.
 */
typedef void (*doca_mmap_memrange_free_cb_t)(void *addr, size_t len, void *opaque);

/**
 * Create an mmap, with no memory and local read/write permission.
 *
 * @param mmap Set to the mmap.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if mmap is NULL;
 *   DOCA_ERROR_NO_MEMORY; DOCA_ERROR_INITIALIZATION if EAL cannot start.
 */
doca_error_t
doca_mmap_create(struct doca_mmap **mmap);

/**
 * Destroy an mmap, stopping it first if it is started.
 *
 * @param mmap The mmap.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if mmap is NULL;
 *   DOCA_ERROR_IN_USE while buffers or consumers use it (it stays as it was).
 */
doca_error_t
doca_mmap_destroy(struct doca_mmap *mmap);

/**
 * Make a configured mmap usable (buffers, consumers).
 *
 * @param mmap The mmap.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if mmap is NULL or has no
 *   memory range; DOCA_ERROR_BAD_STATE if it is started already; otherwise the
 *   error of the device's driver that cannot register it, mapped from
 *   rte_comch_mmap_start().
 */
doca_error_t
doca_mmap_start(struct doca_mmap *mmap);

/**
 * Stop a started mmap.
 *
 * @param mmap The mmap.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if mmap is NULL;
 *   DOCA_ERROR_IN_USE while buffers or consumers use it;
 *   DOCA_ERROR_BAD_STATE if it is not started.
 */
doca_error_t
doca_mmap_stop(struct doca_mmap *mmap);

/**
 * Register a device with the mmap (before start; one device here).
 *
 * @param mmap The mmap.
 * @param dev The device; it stays held until the mmap is destroyed.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument;
 *   DOCA_ERROR_BAD_STATE if the mmap is started; DOCA_ERROR_FULL if it has a
 *   device already.
 */
doca_error_t
doca_mmap_add_dev(struct doca_mmap *mmap, struct doca_dev *dev);

/**
 * Accepted for source compatibility: an mmap has at most one device here.
 *
 * @param mmap The mmap.
 * @param max_num_devices 1 or more.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if mmap is NULL or the number is 0.
 */
doca_error_t
doca_mmap_set_max_num_devices(struct doca_mmap *mmap, uint32_t max_num_devices);

/**
 * Set the memory the mmap covers (once, before start). Any memory of the
 * process will do; with the shm driver, a consumer receiving into memory the
 * peer cannot map costs one copy more (see the shm driver guide).
 *
 * @param mmap The mmap.
 * @param addr Start of the memory.
 * @param len Its length, not 0.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL or empty range;
 *   DOCA_ERROR_BAD_STATE if the mmap is started or has a range already.
 */
doca_error_t
doca_mmap_set_memrange(struct doca_mmap *mmap, void *addr, size_t len);

/**
 * The memory the mmap covers.
 *
 * @param mmap The mmap.
 * @param addr Set to its start.
 * @param len Set to its length.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument;
 *   DOCA_ERROR_BAD_STATE if no range is set.
 */
doca_error_t
doca_mmap_get_memrange(const struct doca_mmap *mmap, void **addr, size_t *len);

/**
 * Set who may access the memory: DOCA_ACCESS_FLAG_* OR-ed together (before
 * start). LOCAL_READ_ONLY counts as local read/write (local access is not
 * enforced); RELAXED_ORDERING is accepted and has no effect.
 *
 * @param mmap The mmap.
 * @param access_mask The flags.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if mmap is NULL or a flag is
 *   unknown; DOCA_ERROR_NOT_SUPPORTED for RDMA flags; DOCA_ERROR_BAD_STATE if
 *   the mmap is started.
 */
doca_error_t
doca_mmap_set_permissions(struct doca_mmap *mmap, uint32_t access_mask);

/**
 * Have doca_mmap_destroy() hand the memory range to free_cb.
 *
 * @param mmap The mmap.
 * @param free_cb The callback, or NULL for none.
 * @param opaque Passed to it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if mmap is NULL.
 */
doca_error_t
doca_mmap_set_free_cb(struct doca_mmap *mmap, doca_mmap_memrange_free_cb_t free_cb, void *opaque);

/**
 * Ask for an mmap whose buffers may be used from several threads at once
 * (before start). What the layer guarantees for every mmap, this call or not:
 * once it is started, buffers of it may be taken from inventories and buffer
 * pools, referenced, released, reused and handed to tasks from any number of
 * threads at the same time (rte_comch's buffer pools and reference counts are
 * atomic). The mmap's own calls (configure, start, stop, destroy) stay one
 * thread's, as in DOCA. So the call only checks the state: a program that
 * asks too late hears of it.
 *
 * @param mmap The mmap, not started.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if mmap is NULL or not live;
 *   DOCA_ERROR_BAD_STATE if it is started.
 */
doca_error_t
doca_mmap_enable_thread_safety(struct doca_mmap *mmap);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_COMPAT_MMAP_H */
