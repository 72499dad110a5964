/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * DOCA buffer pools: the configuration a DOCA program sets (number, size,
 * alignment), turned at start into an rte_comch pool of the mmap's elements.
 */

#include <errno.h>
#include <stdlib.h>

#include <rte_common.h>
#include <rte_errno.h>

#include "doca_buf_pool.h"
#include "doca_compat_private.h"
#include "doca_mmap_private.h"

struct doca_buf_pool {
	struct dc_obj obj;		/* first: DC_KIND_BUF_POOL */
	struct doca_mmap *mmap;
	uint32_t num;
	size_t elt_size;
	size_t align;
	union doca_data user_data;
	struct rte_comch_buf_pool *rpool; /* while started */
};
DC_OBJ_FIRST(struct doca_buf_pool, obj);

doca_error_t
doca_buf_pool_create(size_t num_elements, size_t element_size, const struct doca_mmap *mmap,
		     struct doca_buf_pool **buf_pool)
{
	struct doca_buf_pool *pool;

	DC_OBJ_ARG(mmap, DC_KIND_MMAP);
	DC_NULL_ARG(buf_pool);
	if (num_elements == 0 || num_elements > UINT32_MAX || element_size == 0) {
		DC_LOG(ERR, "a buffer pool holds 1 to %u elements of at least 1 byte, not %zu "
		       "of %zu", UINT32_MAX, num_elements, element_size);
		return DOCA_ERROR_INVALID_VALUE;
	}
	pool = calloc(1, sizeof(*pool));
	if (pool == NULL)
		return DOCA_ERROR_NO_MEMORY;
	/* DOCA takes the mmap const; the pool holds it started, which changes it. */
	pool->mmap = (struct doca_mmap *)(uintptr_t)mmap;
	pool->num = (uint32_t)num_elements;
	pool->elt_size = element_size;
	pool->align = 1;
	dc_obj_publish(&pool->obj, pool, DC_KIND_BUF_POOL);
	*buf_pool = pool;
	return DOCA_SUCCESS;
}

doca_error_t
doca_buf_pool_destroy(struct doca_buf_pool *buf_pool)
{
	DC_OBJ_ARG(buf_pool, DC_KIND_BUF_POOL);
	if (buf_pool->rpool != NULL) {
		doca_error_t ret = doca_buf_pool_stop(buf_pool);

		if (ret != DOCA_SUCCESS)
			return ret;
	}
	dc_obj_retire(&buf_pool->obj, buf_pool);
	return DOCA_SUCCESS;
}

doca_error_t
doca_buf_pool_start(struct doca_buf_pool *buf_pool)
{
	DC_OBJ_ARG(buf_pool, DC_KIND_BUF_POOL);
	if (buf_pool->rpool != NULL) {
		DC_LOG(ERR, "buffer pool %p is started already", (void *)buf_pool);
		return DOCA_ERROR_BAD_STATE;
	}
	/* The mmap may have been destroyed since the pool was created. */
	DC_OBJ_ARG(buf_pool->mmap, DC_KIND_MMAP);
	buf_pool->rpool = rte_comch_buf_pool_create_in_mmap(buf_pool->mmap->rm, buf_pool->num,
							    buf_pool->elt_size, buf_pool->align);
	if (buf_pool->rpool != NULL)
		return DOCA_SUCCESS;
	if (rte_errno == EPERM) {
		DC_LOG(ERR, "buffer pool %p: its mmap is not started", (void *)buf_pool);
		return DOCA_ERROR_BAD_STATE;
	}
	return rte_comch_doca_error_from_errno(-rte_errno);
}

doca_error_t
doca_buf_pool_stop(struct doca_buf_pool *buf_pool)
{
	int rc;

	DC_OBJ_ARG(buf_pool, DC_KIND_BUF_POOL);
	if (buf_pool->rpool == NULL) {
		DC_LOG(ERR, "buffer pool %p is not started", (void *)buf_pool);
		return DOCA_ERROR_BAD_STATE;
	}
	rc = rte_comch_buf_pool_destroy(buf_pool->rpool);
	if (rc == -EBUSY) {
		DC_LOG(ERR, "buffer pool %p: buffers are still out of it", (void *)buf_pool);
		return DOCA_ERROR_IN_USE;
	}
	if (rc == 0)
		buf_pool->rpool = NULL;
	return rte_comch_doca_error_from_errno(rc);
}

doca_error_t
doca_buf_pool_set_element_alignment(struct doca_buf_pool *buf_pool, size_t element_alignment)
{
	DC_OBJ_ARG(buf_pool, DC_KIND_BUF_POOL);
	if (element_alignment == 0 || !rte_is_power_of_2(element_alignment)) {
		DC_LOG(ERR, "an element alignment is a power of two, not %zu", element_alignment);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (buf_pool->rpool != NULL) {
		DC_LOG(ERR, "buffer pool %p is started: its elements are cut", (void *)buf_pool);
		return DOCA_ERROR_BAD_STATE;
	}
	buf_pool->align = element_alignment;
	return DOCA_SUCCESS;
}

doca_error_t
doca_buf_pool_set_user_data(struct doca_buf_pool *buf_pool, union doca_data user_data)
{
	DC_OBJ_ARG(buf_pool, DC_KIND_BUF_POOL);
	buf_pool->user_data = user_data;
	return DOCA_SUCCESS;
}

doca_error_t
doca_buf_pool_get_user_data(const struct doca_buf_pool *buf_pool, union doca_data *user_data)
{
	DC_OBJ_ARG(buf_pool, DC_KIND_BUF_POOL);
	DC_NULL_ARG(user_data);
	*user_data = buf_pool->user_data;
	return DOCA_SUCCESS;
}

doca_error_t
doca_buf_pool_get_num_elements(const struct doca_buf_pool *buf_pool, uint32_t *num_of_elements)
{
	DC_OBJ_ARG_FAST(buf_pool, DC_KIND_BUF_POOL);
	DC_NULL_ARG(num_of_elements);
	*num_of_elements = buf_pool->num;
	return DOCA_SUCCESS;
}

doca_error_t
doca_buf_pool_get_num_free_elements(const struct doca_buf_pool *buf_pool,
				    uint32_t *num_of_free_elements)
{
	DC_OBJ_ARG_FAST(buf_pool, DC_KIND_BUF_POOL);
	DC_NULL_ARG(num_of_free_elements);
	if (buf_pool->rpool == NULL) {
		*num_of_free_elements = buf_pool->num;
		return DOCA_SUCCESS;
	}
	return rte_comch_doca_error_from_errno(
		rte_comch_buf_pool_get_num_free(buf_pool->rpool, num_of_free_elements));
}

doca_error_t
doca_buf_pool_buf_alloc(struct doca_buf_pool *buf_pool, struct doca_buf **buf)
{
	DC_OBJ_ARG_FAST(buf_pool, DC_KIND_BUF_POOL);
	DC_NULL_ARG(buf);
	if (unlikely(buf_pool->rpool == NULL)) {
		DC_LOG(ERR, "buffer pool %p is not started", (void *)buf_pool);
		return DOCA_ERROR_BAD_STATE;
	}
	return rte_comch_doca_error_from_errno(
		rte_comch_buf_pool_alloc(buf_pool->rpool, (struct rte_comch_buf **)buf));
}
