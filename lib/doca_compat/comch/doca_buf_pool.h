/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef DOCA_COMPAT_BUF_POOL_H
#define DOCA_COMPAT_BUF_POOL_H

/**
 * @file
 * DOCA compatibility layer: buffer pools, over rte_comch pools of an mmap's
 * elements (rte_comch_buf_pool_create_in_mmap()).
 *
 * A pool cuts the memory range of a started mmap into a fixed number of
 * elements of one size; a buffer of the pool is always one whole element,
 * taken free with doca_buf_pool_buf_alloc() and returned by its last
 * doca_buf_dec_refcount(). Unlike an inventory, the program never names the
 * memory of a buffer.
 *
 * Thread-safety: configure, start, stop and destroy a pool from one thread.
 * doca_buf_pool_buf_alloc() and the release of its buffers are safe from
 * several threads at once.
 */

#include <stddef.h>
#include <stdint.h>

#include <doca_error.h>
#include <doca_types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_buf;
struct doca_buf_pool;
struct doca_mmap;

/**
 * Create a pool of num_elements buffers of element_size bytes each, from the
 * memory range of mmap. Nothing is cut until doca_buf_pool_start(): the
 * alignment may still be set.
 *
 * @param num_elements Number of elements, 1 to UINT32_MAX.
 * @param element_size Bytes of an element, not 0.
 * @param mmap The mmap whose range the elements cut; it must be started by
 *   the time the pool starts, and outlive the pool.
 * @param buf_pool Set to the pool.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on NULL, a number or size of 0
 *   or too large, or mmap not a live mmap; DOCA_ERROR_NO_MEMORY.
 */
doca_error_t
doca_buf_pool_create(size_t num_elements, size_t element_size, const struct doca_mmap *mmap,
		     struct doca_buf_pool **buf_pool);

/**
 * Destroy a pool, stopping it first if it is started.
 *
 * @param buf_pool The pool.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if buf_pool is NULL or not a
 *   live pool; DOCA_ERROR_IN_USE while buffers of it are out (it stays as it was).
 */
doca_error_t
doca_buf_pool_destroy(struct doca_buf_pool *buf_pool);

/**
 * Cut the mmap's range into the elements and allow buffers to be taken. The
 * pool holds the mmap: it cannot be stopped or destroyed until the pool stops.
 *
 * @param buf_pool The pool.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if buf_pool is NULL, its mmap
 *   is gone, or the elements do not fit in the mmap's range (aligned);
 *   DOCA_ERROR_BAD_STATE if the pool is started or its mmap is not;
 *   DOCA_ERROR_NO_MEMORY.
 */
doca_error_t
doca_buf_pool_start(struct doca_buf_pool *buf_pool);

/**
 * Stop handing out buffers and let go of the mmap.
 *
 * @param buf_pool The pool.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if buf_pool is NULL;
 *   DOCA_ERROR_BAD_STATE if it is not started; DOCA_ERROR_IN_USE while
 *   buffers of it are out.
 */
doca_error_t
doca_buf_pool_stop(struct doca_buf_pool *buf_pool);

/**
 * Align the start of every element to element_alignment bytes (an address
 * that is a multiple of it); the distance between elements becomes the
 * element size rounded up to it. Default 1: elements follow each other.
 *
 * @param buf_pool The pool, not started.
 * @param element_alignment A power of two.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if buf_pool is NULL or the
 *   alignment is not a power of two; DOCA_ERROR_BAD_STATE if the pool is started.
 */
doca_error_t
doca_buf_pool_set_element_alignment(struct doca_buf_pool *buf_pool, size_t element_alignment);

/**
 * Attach user data to the pool.
 *
 * @param buf_pool The pool.
 * @param user_data The data.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if buf_pool is NULL.
 */
doca_error_t
doca_buf_pool_set_user_data(struct doca_buf_pool *buf_pool, union doca_data user_data);

/**
 * The user data of the pool (zero until set).
 *
 * @param buf_pool The pool.
 * @param user_data Set to the data.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument.
 */
doca_error_t
doca_buf_pool_get_user_data(const struct doca_buf_pool *buf_pool, union doca_data *user_data);

/**
 * Number of elements of the pool.
 *
 * @param buf_pool The pool.
 * @param num_of_elements Set to the number.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument.
 */
doca_error_t
doca_buf_pool_get_num_elements(const struct doca_buf_pool *buf_pool, uint32_t *num_of_elements);

/**
 * Number of elements not taken (all of them while the pool is not started).
 *
 * @param buf_pool The pool.
 * @param num_of_free_elements Set to the number.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument.
 */
doca_error_t
doca_buf_pool_get_num_free_elements(const struct doca_buf_pool *buf_pool,
				    uint32_t *num_of_free_elements);

/**
 * Take a free element: a buffer of the whole element (head, len) with no bytes
 * in use (data at head, data_len 0) and one reference; its last
 * doca_buf_dec_refcount() returns it.
 *
 * @param buf_pool A started pool.
 * @param buf Set to the buffer.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument;
 *   DOCA_ERROR_BAD_STATE if the pool is not started; DOCA_ERROR_NO_MEMORY if
 *   every element is taken.
 */
doca_error_t
doca_buf_pool_buf_alloc(struct doca_buf_pool *buf_pool, struct doca_buf **buf);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_COMPAT_BUF_POOL_H */
