/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef DOCA_COMPAT_BUF_H
#define DOCA_COMPAT_BUF_H

/**
 * @file
 * DOCA compatibility layer: buffers (rte_comch buffers): a piece of an mmap
 * (head, len) and the bytes in use within it (data, data_len).
 *
 * Thread-safety: a buffer is used by one thread at a time.
 */

#include <stddef.h>
#include <stdint.h>

#include <doca_error.h>
#include <doca_types.h>
#include <doca_compat_fast.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_buf;

/**
 * Start of the buffer's piece of memory.
 * @param buf The buffer.
 * @param head Set to the start.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument.
 */
doca_error_t
doca_buf_get_head(const struct doca_buf *buf, void **head);

/**
 * Length of the buffer's piece of memory.
 * @param buf The buffer.
 * @param len Set to the length.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument.
 */
doca_error_t
doca_buf_get_len(const struct doca_buf *buf, size_t *len);

/**
 * Start of the bytes in use.
 * @param buf The buffer.
 * @param data Set to the start.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument.
 */
doca_error_t
doca_buf_get_data(const struct doca_buf *buf, void **data);

/**
 * Number of bytes in use.
 * @param buf The buffer.
 * @param data_len Set to the number.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument.
 */
doca_error_t
doca_buf_get_data_len(const struct doca_buf *buf, size_t *data_len);

/**
 * Set the bytes in use.
 * @param buf The buffer.
 * @param data Their start.
 * @param data_len Their number.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument or a range
 *   outside the buffer.
 */
doca_error_t
doca_buf_set_data(struct doca_buf *buf, void *data, size_t data_len);

/**
 * Set the number of bytes in use, keeping their start.
 * @param buf The buffer.
 * @param data_len The number.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on NULL or a length past the buffer's end.
 */
doca_error_t
doca_buf_set_data_len(struct doca_buf *buf, size_t data_len);

/**
 * Mark no bytes in use (data_len 0), keeping data's position.
 * @param buf The buffer.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if buf is NULL.
 */
static inline doca_error_t
doca_buf_reset_data_len(struct doca_buf *buf)
{
	/* A doca_buf is an rte_comch buffer; rte_comch refuses NULL with a log line. */
	int rc = rte_comch_buf_reset_data_len((struct rte_comch_buf *)buf);

	return DOCA_COMPAT_LIKELY(rc == 0) ? DOCA_SUCCESS : rte_comch_doca_error_from_errno(rc);
}

/**
 * Take one more reference.
 * @param buf The buffer.
 * @param refcount Set to the new count; may be NULL.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if buf is NULL or free;
 *   DOCA_ERROR_TOO_BIG at 65535 references.
 */
doca_error_t
doca_buf_inc_refcount(struct doca_buf *buf, uint16_t *refcount);

/**
 * Drop a reference; at zero the buffer goes back to its inventory.
 * @param buf The buffer.
 * @param refcount Set to the new count; may be NULL.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if buf is NULL or free already.
 */
doca_error_t
doca_buf_dec_refcount(struct doca_buf *buf, uint16_t *refcount);

/**
 * Current number of references.
 * @param buf The buffer.
 * @param refcount Set to the count.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument.
 */
doca_error_t
doca_buf_get_refcount(const struct doca_buf *buf, uint16_t *refcount);

/**
 * Buffers here are never chained: the next one in a list is always NULL.
 * @param buf The buffer.
 * @param next_buf Set to NULL.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument.
 */
doca_error_t
doca_buf_get_next_in_list(struct doca_buf *buf, struct doca_buf **next_buf);

/**
 * Buffers here are never chained: a buffer is the last of its list.
 * @param buf The buffer.
 * @param last_buf Set to buf.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument.
 */
doca_error_t
doca_buf_get_last_in_list(struct doca_buf *buf, struct doca_buf **last_buf);

/**
 * Number of buffers in the list buf starts: always 1 here.
 * @param buf The buffer.
 * @param num_elements Set to 1.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument.
 */
doca_error_t
doca_buf_get_list_len(const struct doca_buf *buf, uint32_t *num_elements);

/**
 * Not supported: rte_comch sends one buffer per message (maximum list length 1).
 * @param list1 A buffer.
 * @param list2 A buffer.
 * @return DOCA_ERROR_NOT_SUPPORTED.
 */
doca_error_t
doca_buf_chain_list(struct doca_buf *list1, struct doca_buf *list2);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_COMPAT_BUF_H */
