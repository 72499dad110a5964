/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef RTE_COMCH_MMAP_H
#define RTE_COMCH_MMAP_H

/**
 * @file
 * Memory registration (rte_comch_mmap) and buffers (rte_comch_buf) for the fast path.
 *
 * An mmap registers one range of memory, set once, with permissions saying who
 * may touch it: the local process, or the peer across the channel ("PCI",
 * after the PCIe link a BlueField uses), read-only or read/write. A buffer
 * describes a piece of a started mmap: the whole piece (head, len) and the bytes
 * in use (data, data_len). Buffers come from a pool and are reference counted; an
 * mmap cannot be stopped or destroyed while buffers refer to it (destroy stops
 * a started mmap that nothing refers to).
 *
 * An mmap is registered with the devices added to it (rte_comch_mmap_add_dev())
 * when it starts: a consumer's mmap must have its connection's device added.
 * Memory the peer writes into (a consumer's receive buffers) must be memory the
 * device can hand to the peer: rte_comch_mmap_alloc_memrange(), after a device
 * was added, allocates such memory from that device's driver. A range set with
 * rte_comch_mmap_set_memrange() is ordinary process memory; drivers that cannot
 * share it refuse it where sharing is needed (see each driver's page).
 * Buffers cannot be chained: a buffer is always one contiguous range.
 *
 * Thread safety: configure, start, stop and destroy an mmap from one thread.
 * Buffer pools and buffer reference counts are safe from any lcore; a buffer's
 * data pointer and length belong to whoever holds it.
 */

#include <stddef.h>
#include <stdint.h>

#include <rte_compat.h>

#include <rte_bitops.h>

#include <rte_comch_types.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The local process may read and write the memory. */
#define RTE_COMCH_MMAP_PERM_LOCAL_READ_WRITE RTE_BIT32(0)
/** The peer may read the memory. */
#define RTE_COMCH_MMAP_PERM_PCI_READ_ONLY RTE_BIT32(1)
/** The peer may read and write the memory (a consumer's receive buffers). */
#define RTE_COMCH_MMAP_PERM_PCI_READ_WRITE RTE_BIT32(2)

struct rte_comch_mmap;
struct rte_comch_buf_pool;

/**
 * A buffer: a piece of a started mmap. Read the fields freely; change them only
 * with the functions below.
 */
struct rte_comch_buf {
	void *head;                      /**< Start of the piece. */
	size_t len;                      /**< Length of the piece. */
	void *data;                      /**< Start of the bytes in use, within the piece. */
	size_t data_len;                 /**< Number of bytes in use. */
	struct rte_comch_mmap *mmap;     /**< The mmap the piece belongs to. */
	struct rte_comch_buf_pool *pool; /**< The pool the buffer returns to. */
	uint16_t refcnt;                 /**< References; at 0 the buffer is back in its pool. */
};

/**
 * Create an mmap, with no memory and LOCAL_READ_WRITE permission.
 *
 * @return
 *   The mmap, or NULL with rte_errno set to ENOMEM.
 */
__rte_experimental
struct rte_comch_mmap *
rte_comch_mmap_create(void);

/**
 * Add a device: at start, the mmap is registered with the device's driver, so
 * that the device's connections can use it (a consumer's memory, a producer's
 * buffers). At most 4 devices; before start. The device cannot be closed while
 * the mmap exists.
 *
 * @param mmap The mmap, not started.
 * @param dev  The device to register it with.
 * @return
 *   0 on success; -EINVAL if mmap or dev is NULL or not live; -EBUSY if the mmap
 *   is started; -EEXIST if dev was added already; -ENOSPC if 4 devices were.
 */
__rte_experimental
int
rte_comch_mmap_add_dev(struct rte_comch_mmap *mmap, struct rte_comch_dev *dev);

/**
 * Register a range of process memory. Once per mmap, before start.
 *
 * @param mmap The mmap, not started.
 * @param addr Start of the range.
 * @param len  Its length in bytes.
 * @return
 *   0 on success; -EINVAL if mmap or addr is NULL or len is 0; -EEXIST if the mmap
 *   already has memory; -EBUSY if it is started.
 */
__rte_experimental
int
rte_comch_mmap_set_memrange(struct rte_comch_mmap *mmap, void *addr, size_t len);

/**
 * Allocate len bytes of zeroed memory, owned by the mmap and freed with it, and
 * register it. Once per mmap, before start. With a device added, the first
 * device's driver allocates it, as memory it can hand to its peers (shm: a
 * sealed memfd); with none, it is ordinary process memory.
 *
 * @param mmap The mmap, not started.
 * @param len  Bytes to allocate.
 * @return
 *   0 on success; -EINVAL if mmap is NULL or len is 0; -EEXIST if the mmap already
 *   has memory; -EBUSY if it is started; -ENOMEM (or the driver's error) if the
 *   memory cannot be had.
 */
__rte_experimental
int
rte_comch_mmap_alloc_memrange(struct rte_comch_mmap *mmap, size_t len);

/**
 * Read the registered range.
 *
 * @param mmap The mmap.
 * @param addr Set to the start of the range.
 * @param len  Set to its length in bytes.
 * @return
 *   0 on success; -EINVAL if an argument is NULL; -ENOENT if no memory is registered.
 */
__rte_experimental
int
rte_comch_mmap_get_memrange(const struct rte_comch_mmap *mmap, void **addr, size_t *len);

/**
 * Set the permissions, a mask of RTE_COMCH_MMAP_PERM_*. Only before start.
 *
 * @param mmap  The mmap, not started.
 * @param perms A mask of RTE_COMCH_MMAP_PERM_*.
 * @return
 *   0 on success; -EINVAL if mmap is NULL, perms is 0, has unknown bits, or
 *   asks for both PCI_READ_ONLY and PCI_READ_WRITE; -EBUSY if the mmap is started.
 */
__rte_experimental
int
rte_comch_mmap_set_permissions(struct rte_comch_mmap *mmap, uint32_t perms);

/**
 * Read the permissions.
 *
 * @param mmap  The mmap.
 * @param perms Set to its mask of RTE_COMCH_MMAP_PERM_*.
 * @return
 *   0 on success; -EINVAL if an argument is NULL.
 */
__rte_experimental
int
rte_comch_mmap_get_permissions(const struct rte_comch_mmap *mmap, uint32_t *perms);

/**
 * Start an mmap: it is registered with each device added, buffers can now be
 * taken from it and it can be given to a consumer. Its memory, permissions and
 * devices can no longer change.
 *
 * @param mmap The mmap, with its memory.
 * @return
 *   0 on success; -EINVAL if mmap is NULL; -ENOENT if no memory is registered;
 *   -EBUSY if it is already started; a driver's error if a device cannot
 *   register it (then it is registered with none).
 */
__rte_experimental
int
rte_comch_mmap_start(struct rte_comch_mmap *mmap);

/**
 * Stop an mmap.
 *
 * @param mmap The mmap, started.
 * @return
 *   0 on success; -EINVAL if mmap is NULL; -EALREADY if it is not started;
 *   -EBUSY while buffers or consumers refer to it.
 */
__rte_experimental
int
rte_comch_mmap_stop(struct rte_comch_mmap *mmap);

/**
 * Destroy an mmap, freeing the memory it allocated (not memory it was given).
 * A started mmap is stopped first, as rte_comch_mmap_stop() does (DOCA
 * programs destroy their mmaps without stopping them); one that cannot stop
 * is left as it was, started.
 *
 * @param mmap The mmap.
 * @return
 *   0 on success (stopped first if it was started); -EINVAL if mmap is NULL;
 *   -EBUSY while buffers or consumers refer to it (it stays started and
 *   usable: release them, then destroy again).
 */
__rte_experimental
int
rte_comch_mmap_destroy(struct rte_comch_mmap *mmap);

/**
 * Create a pool of buffer descriptors (the memory comes from mmaps).
 *
 * @param num Number of buffers, at least 1.
 * @return
 *   The pool, or NULL with rte_errno set: EINVAL if num is 0; ENOMEM.
 */
__rte_experimental
struct rte_comch_buf_pool *
rte_comch_buf_pool_create(uint32_t num);

/**
 * Create a pool of buffers that are the elements of a started mmap: its range
 * cut into num pieces of elt_size bytes, the first at the first address of the
 * range that is a multiple of align, each next one elt_size rounded up to align
 * further. A buffer of the pool is always the same element (head and len never
 * change); rte_comch_buf_pool_alloc() takes a free one. The pool holds the mmap
 * started until it is destroyed.
 *
 * @param mmap     A started mmap.
 * @param num      Number of elements, at least 1.
 * @param elt_size Bytes of an element, not 0.
 * @param align    Alignment of each element's address: a power of two (1: none).
 * @return
 *   The pool, or NULL with rte_errno set: EINVAL if mmap is not a live mmap, num
 *   or elt_size is 0, align is not a power of two, or num elements do not fit in
 *   the mmap's range; EPERM if the mmap is not started; ENOMEM.
 */
__rte_experimental
struct rte_comch_buf_pool *
rte_comch_buf_pool_create_in_mmap(struct rte_comch_mmap *mmap, uint32_t num, size_t elt_size,
				  size_t align);

/**
 * Take a free element of a pool of rte_comch_buf_pool_create_in_mmap(): a
 * buffer of the whole element, with no bytes in use (data = head, data_len =
 * 0) and one reference. The last reference returns it to the pool. Safe from
 * any lcore.
 *
 * @param pool A pool of elements.
 * @param buf  Set to the buffer.
 * @return
 *   0 on success; -EINVAL if an argument is NULL or the pool is one of
 *   descriptors (rte_comch_buf_pool_create()); -ENOMEM if every element is taken.
 */
__rte_experimental
int
rte_comch_buf_pool_alloc(struct rte_comch_buf_pool *pool, struct rte_comch_buf **buf);

/**
 * Destroy a pool.
 *
 * @param pool The pool, all its buffers back.
 * @return
 *   0 on success; -EINVAL if pool is NULL; -EBUSY while buffers are out of it.
 */
__rte_experimental
int
rte_comch_buf_pool_destroy(struct rte_comch_buf_pool *pool);

/**
 * Number of the pool's buffers not taken. Exact when no other lcore takes or
 * returns buffers at the same time.
 *
 * @param pool The pool.
 * @param num Set to the number.
 * @return
 *   0 on success; -EINVAL if pool or num is NULL.
 */
__rte_experimental
int
rte_comch_buf_pool_get_num_free(const struct rte_comch_buf_pool *pool, uint32_t *num);

/**
 * Take a buffer for the piece [addr, addr + len) of a started mmap, with no
 * data in use (data = addr, data_len = 0): a buffer to receive into. Only from
 * a pool of descriptors (rte_comch_buf_pool_create()).
 *
 * @param pool The pool to take the buffer from.
 * @param mmap A started mmap.
 * @param addr Start of the piece, inside the mmap.
 * @param len  Length of the piece.
 * @param buf  Set to the buffer, with one reference.
 * @return
 *   0 on success; -EINVAL for a NULL argument, a piece not inside the mmap or
 *   a pool of elements; -EPERM if the mmap is not started; -ENOMEM if the pool
 *   is empty.
 */
__rte_experimental
int
rte_comch_buf_pool_get_by_addr(struct rte_comch_buf_pool *pool, struct rte_comch_mmap *mmap,
			       void *addr, size_t len, struct rte_comch_buf **buf);

/**
 * Take a buffer for the piece [data, data + len) of a started mmap, all of it
 * in use (data_len = len): a buffer to send from.
 *
 * @param pool The pool to take the buffer from.
 * @param mmap A started mmap.
 * @param data Start of the piece, inside the mmap.
 * @param len  Length of the piece, all of it in use.
 * @param buf  Set to the buffer, with one reference.
 * @return
 *   0 on success; -EINVAL for a NULL argument or a piece not inside the mmap;
 *   -EPERM if the mmap is not started; -ENOMEM if the pool is empty (as
 *   rte_comch_buf_pool_get_by_addr()).
 */
__rte_experimental
int
rte_comch_buf_pool_get_by_data(struct rte_comch_buf_pool *pool, struct rte_comch_mmap *mmap,
			       void *data, size_t len, struct rte_comch_buf **buf);

/**
 * Set the bytes in use.
 *
 * @param buf      The buffer.
 * @param data     Start of the bytes in use.
 * @param data_len Their number.
 * @return
 *   0 on success; -EINVAL if buf is NULL or [data, data + data_len) is not
 *   inside [head, head + len).
 */
__rte_experimental
int
rte_comch_buf_set_data(struct rte_comch_buf *buf, void *data, size_t data_len);

/**
 * Point a buffer at another piece [addr, addr + len) of its mmap, with no
 * bytes in use, as rte_comch_buf_pool_get_by_addr() would give, without
 * returning it to its pool and taking another. Only its only holder (one
 * reference) may; the buffer keeps its mmap and pool.
 *
 * @param buf  A buffer of a pool of descriptors, with one reference.
 * @param addr Start of the new piece, inside the buffer's mmap.
 * @param len  Its length.
 * @return
 *   0 on success; -EINVAL if buf or addr is NULL, buf is not taken from a pool
 *   or the piece is not inside the mmap; -EPERM if buf is an element of a pool
 *   of rte_comch_buf_pool_create_in_mmap() (its piece is fixed); -EBUSY if buf
 *   has more than one reference. On an error the buffer is unchanged.
 */
__rte_experimental
int
rte_comch_buf_reuse_by_addr(struct rte_comch_buf *buf, void *addr, size_t len);

/**
 * The same as rte_comch_buf_reuse_by_addr(), all of the new piece in use
 * (data_len = len), as rte_comch_buf_pool_get_by_data() would give.
 *
 * @param buf  A buffer of a pool of descriptors, with one reference.
 * @param data Start of the new piece, inside the buffer's mmap.
 * @param len  Its length, all of it in use.
 * @return
 *   As rte_comch_buf_reuse_by_addr().
 */
__rte_experimental
int
rte_comch_buf_reuse_by_data(struct rte_comch_buf *buf, void *data, size_t len);

/**
 * Mark no bytes in use (data_len = 0), keeping the data pointer.
 *
 * @param buf The buffer.
 * @return
 *   0 on success; -EINVAL if buf is NULL.
 */
__rte_experimental
int
rte_comch_buf_reset_data_len(struct rte_comch_buf *buf);

/**
 * Take one more reference.
 *
 * @param buf    The buffer.
 * @param refcnt Set to the new count; may be NULL.
 * @return
 *   0 on success; -EINVAL if buf is NULL, not taken from a pool, or already
 *   back in its pool; -EOVERFLOW at UINT16_MAX references.
 */
__rte_experimental
int
rte_comch_buf_inc_refcount(struct rte_comch_buf *buf, uint16_t *refcnt);

/**
 * Drop one reference; at zero the buffer goes back to its pool and no longer
 * holds its mmap.
 *
 * @param buf    The buffer.
 * @param refcnt Set to the new count; may be NULL.
 * @return
 *   0 on success; -EINVAL if buf is NULL or has no reference left (freed twice).
 */
__rte_experimental
int
rte_comch_buf_dec_refcount(struct rte_comch_buf *buf, uint16_t *refcnt);

#ifdef __cplusplus
}
#endif

#endif /* RTE_COMCH_MMAP_H */
