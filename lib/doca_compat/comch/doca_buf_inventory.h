/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef DOCA_COMPAT_BUF_INVENTORY_H
#define DOCA_COMPAT_BUF_INVENTORY_H

/**
 * @file
 * DOCA compatibility layer: buffer inventories (rte_comch buffer pools).
 *
 * Thread-safety: create, start, stop and destroy an inventory from one thread;
 * buffers may be taken from a started one by several threads at once (its
 * descriptors are an rte_mempool; see doca_mmap_enable_thread_safety()).
 */

#include <stddef.h>
#include <stdint.h>

#include <doca_error.h>
#include <doca_types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_buf;
struct doca_buf_inventory;
struct doca_mmap;

/**
 * Create an inventory of num_elements buffer descriptors.
 * @param num_elements At least 1.
 * @param buf_inventory Set to the inventory.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on NULL or 0;
 *   DOCA_ERROR_NO_MEMORY; DOCA_ERROR_INITIALIZATION if EAL cannot start.
 */
doca_error_t
doca_buf_inventory_create(size_t num_elements, struct doca_buf_inventory **buf_inventory);

/**
 * Destroy an inventory.
 * @param inventory The inventory.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if NULL; DOCA_ERROR_IN_USE
 *   while buffers are out of it.
 */
doca_error_t
doca_buf_inventory_destroy(struct doca_buf_inventory *inventory);

/**
 * Allow buffers to be taken (an inventory can be used once started).
 * @param inventory The inventory.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if NULL; DOCA_ERROR_BAD_STATE if started.
 */
doca_error_t
doca_buf_inventory_start(struct doca_buf_inventory *inventory);

/**
 * Stop handing out buffers.
 * @param inventory The inventory.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if NULL; DOCA_ERROR_BAD_STATE
 *   if not started; DOCA_ERROR_IN_USE while buffers are out of it.
 */
doca_error_t
doca_buf_inventory_stop(struct doca_buf_inventory *inventory);

/**
 * Take a buffer for [addr, addr + len) of a started mmap, with no data in use.
 * @param inventory A started inventory.
 * @param mmap A started mmap.
 * @param addr Start of the piece.
 * @param len Its length.
 * @param buf Set to the buffer.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on NULL or a piece outside the
 *   mmap; DOCA_ERROR_BAD_STATE if the inventory or the mmap is not started;
 *   DOCA_ERROR_NO_MEMORY if the inventory is empty.
 */
doca_error_t
doca_buf_inventory_buf_get_by_addr(struct doca_buf_inventory *inventory, struct doca_mmap *mmap,
				   void *addr, size_t len, struct doca_buf **buf);

/**
 * Take a buffer for [data, data + data_len) of a started mmap, all of it in use.
 * @param inventory A started inventory.
 * @param mmap A started mmap.
 * @param data Start of the piece.
 * @param data_len Its length.
 * @param buf Set to the buffer.
 * @return As doca_buf_inventory_buf_get_by_addr().
 */
doca_error_t
doca_buf_inventory_buf_get_by_data(struct doca_buf_inventory *inventory, struct doca_mmap *mmap,
				   void *data, size_t data_len, struct doca_buf **buf);

/**
 * Point a buffer of an inventory at another piece [addr, addr + len) of its
 * mmap, with no data in use, in place: the buffer handle stays the same and
 * no descriptor goes back to the inventory. Only its only holder may (one
 * reference): another would see the buffer move under it.
 * @param buf A buffer of an inventory, with one reference.
 * @param addr Start of the new piece, inside the buffer's mmap.
 * @param len Its length.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on NULL, a buffer not taken
 *   or a piece outside the mmap; DOCA_ERROR_IN_USE if the buffer has more than
 *   one reference; DOCA_ERROR_NOT_PERMITTED for a buffer of a doca_buf_pool
 *   (its element is fixed). On an error the buffer is unchanged.
 */
doca_error_t
doca_buf_inventory_buf_reuse_by_addr(struct doca_buf *buf, void *addr, size_t len);

/**
 * As doca_buf_inventory_buf_reuse_by_addr(), all of the new piece in use.
 * @param buf A buffer of an inventory, with one reference.
 * @param data Start of the new piece, inside the buffer's mmap.
 * @param data_len Its length, all of it in use.
 * @return As doca_buf_inventory_buf_reuse_by_addr().
 */
doca_error_t
doca_buf_inventory_buf_reuse_by_data(struct doca_buf *buf, void *data, size_t data_len);

/**
 * Number of buffer descriptors in the inventory.
 * @param inventory The inventory.
 * @param num_of_elements Set to the number.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument.
 */
doca_error_t
doca_buf_inventory_get_num_elements(const struct doca_buf_inventory *inventory,
				    uint32_t *num_of_elements);

/**
 * Number of buffer descriptors not taken.
 * @param inventory The inventory.
 * @param num_of_free_elements Set to the number.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument.
 */
doca_error_t
doca_buf_inventory_get_num_free_elements(const struct doca_buf_inventory *inventory,
					 uint32_t *num_of_free_elements);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_COMPAT_BUF_INVENTORY_H */
