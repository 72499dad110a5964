/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/* DOCA buffers (rte_comch buffers, cast) and inventories (rte_comch buffer pools). */

#include <errno.h>
#include <stdlib.h>

#include "doca_buf.h"
#include "doca_buf_inventory.h"
#include "doca_compat_private.h"
#include "doca_mmap_private.h"

#define DC_BUF(b) ((struct rte_comch_buf *)(b))
#define DC_CBUF(b) ((const struct rte_comch_buf *)(b))

struct doca_buf_inventory {
	struct dc_obj obj;	/* first: DC_KIND_INVENTORY */
	struct rte_comch_buf_pool *pool;
	uint32_t num;
	bool started;
};
DC_OBJ_FIRST(struct doca_buf_inventory, obj);

doca_error_t
doca_buf_get_head(const struct doca_buf *buf, void **head)
{
	DC_NULL_ARG(buf);
	DC_NULL_ARG(head);
	*head = DC_CBUF(buf)->head;
	return DOCA_SUCCESS;
}

doca_error_t
doca_buf_get_len(const struct doca_buf *buf, size_t *len)
{
	DC_NULL_ARG(buf);
	DC_NULL_ARG(len);
	*len = DC_CBUF(buf)->len;
	return DOCA_SUCCESS;
}

doca_error_t
doca_buf_get_data(const struct doca_buf *buf, void **data)
{
	DC_NULL_ARG(buf);
	DC_NULL_ARG(data);
	*data = DC_CBUF(buf)->data;
	return DOCA_SUCCESS;
}

doca_error_t
doca_buf_get_data_len(const struct doca_buf *buf, size_t *data_len)
{
	DC_NULL_ARG(buf);
	DC_NULL_ARG(data_len);
	*data_len = DC_CBUF(buf)->data_len;
	return DOCA_SUCCESS;
}

doca_error_t
doca_buf_set_data(struct doca_buf *buf, void *data, size_t data_len)
{
	DC_NULL_ARG(buf);
	return rte_comch_doca_error_from_errno(rte_comch_buf_set_data(DC_BUF(buf), data, data_len));
}

doca_error_t
doca_buf_set_data_len(struct doca_buf *buf, size_t data_len)
{
	DC_NULL_ARG(buf);
	return doca_buf_set_data(buf, DC_BUF(buf)->data, data_len);
}

/* Per message (a receive posted again): rte_comch checks buf (NULL: -EINVAL, a log line). */
doca_error_t
doca_buf_inc_refcount(struct doca_buf *buf, uint16_t *refcount)
{
	DC_NULL_ARG(buf);
	return rte_comch_doca_error_from_errno(rte_comch_buf_inc_refcount(DC_BUF(buf), refcount));
}

doca_error_t
doca_buf_dec_refcount(struct doca_buf *buf, uint16_t *refcount)
{
	DC_NULL_ARG(buf);
	return rte_comch_doca_error_from_errno(rte_comch_buf_dec_refcount(DC_BUF(buf), refcount));
}

doca_error_t
doca_buf_get_refcount(const struct doca_buf *buf, uint16_t *refcount)
{
	DC_NULL_ARG(buf);
	DC_NULL_ARG(refcount);
	*refcount = DC_CBUF(buf)->refcnt;
	return DOCA_SUCCESS;
}

doca_error_t
doca_buf_get_next_in_list(struct doca_buf *buf, struct doca_buf **next_buf)
{
	DC_NULL_ARG(buf);
	DC_NULL_ARG(next_buf);
	*next_buf = NULL;
	return DOCA_SUCCESS;
}

doca_error_t
doca_buf_get_last_in_list(struct doca_buf *buf, struct doca_buf **last_buf)
{
	DC_NULL_ARG(buf);
	DC_NULL_ARG(last_buf);
	*last_buf = buf;
	return DOCA_SUCCESS;
}

doca_error_t
doca_buf_get_list_len(const struct doca_buf *buf, uint32_t *num_elements)
{
	DC_NULL_ARG(buf);
	DC_NULL_ARG(num_elements);
	*num_elements = 1;
	return DOCA_SUCCESS;
}

doca_error_t
doca_buf_chain_list(struct doca_buf *list1, struct doca_buf *list2)
{
	DC_LOG(ERR, "buffer lists are not supported: one buffer per message");
	return DOCA_ERROR_NOT_SUPPORTED;
}

/* ------------------------------------------------------------- inventories */

doca_error_t
doca_buf_inventory_create(size_t num_elements, struct doca_buf_inventory **buf_inventory)
{
	struct doca_buf_inventory *inv;
	doca_error_t ret;

	DC_NULL_ARG(buf_inventory);
	if (num_elements == 0 || num_elements > UINT32_MAX) {
		DC_LOG(ERR, "an inventory holds 1 to %u buffers, not %zu", UINT32_MAX, num_elements);
		return DOCA_ERROR_INVALID_VALUE;
	}
	ret = doca_compat_eal_init();
	if (ret != DOCA_SUCCESS)
		return ret;
	inv = calloc(1, sizeof(*inv));
	if (inv == NULL)
		return DOCA_ERROR_NO_MEMORY;
	inv->pool = rte_comch_buf_pool_create((uint32_t)num_elements);
	if (inv->pool == NULL) {
		free(inv);
		return DOCA_ERROR_NO_MEMORY;
	}
	inv->num = (uint32_t)num_elements;
	dc_obj_publish(&inv->obj, inv, DC_KIND_INVENTORY);
	*buf_inventory = inv;
	return DOCA_SUCCESS;
}

doca_error_t
doca_buf_inventory_destroy(struct doca_buf_inventory *inventory)
{
	int rc;

	DC_OBJ_ARG(inventory, DC_KIND_INVENTORY);
	rc = rte_comch_buf_pool_destroy(inventory->pool);
	if (rc != 0) {
		DC_LOG(ERR, "inventory %p: buffers are still out of it", (void *)inventory);
		return DOCA_ERROR_IN_USE;
	}
	dc_obj_retire(&inventory->obj, inventory);
	return DOCA_SUCCESS;
}

doca_error_t
doca_buf_inventory_start(struct doca_buf_inventory *inventory)
{
	DC_OBJ_ARG(inventory, DC_KIND_INVENTORY);
	if (inventory->started) {
		DC_LOG(ERR, "inventory %p is started already", (void *)inventory);
		return DOCA_ERROR_BAD_STATE;
	}
	inventory->started = true;
	return DOCA_SUCCESS;
}

doca_error_t
doca_buf_inventory_stop(struct doca_buf_inventory *inventory)
{
	DC_OBJ_ARG(inventory, DC_KIND_INVENTORY);
	if (!inventory->started) {
		DC_LOG(ERR, "inventory %p is not started", (void *)inventory);
		return DOCA_ERROR_BAD_STATE;
	}
	inventory->started = false;
	return DOCA_SUCCESS;
}

typedef int (*dc_pool_get_t)(struct rte_comch_buf_pool *, struct rte_comch_mmap *, void *,
			     size_t, struct rte_comch_buf **);

/* A buffer of an inventory and an mmap the caller checked (per message: inline). */
static doca_error_t
dc_inventory_get(struct doca_buf_inventory *inventory, struct doca_mmap *mmap, void *addr,
		 size_t len, struct doca_buf **buf, dc_pool_get_t get)
{
	int rc;

	if (!inventory->started) {
		DC_LOG(ERR, "inventory %p is not started", (void *)inventory);
		return DOCA_ERROR_BAD_STATE;
	}
	rc = get(inventory->pool, mmap->rm, addr, len, (struct rte_comch_buf **)buf);
	if (rc == -EPERM)
		return DOCA_ERROR_BAD_STATE; /* the mmap is not started */
	return rte_comch_doca_error_from_errno(rc);
}

doca_error_t
doca_buf_inventory_buf_get_by_addr(struct doca_buf_inventory *inventory, struct doca_mmap *mmap,
				   void *addr, size_t len, struct doca_buf **buf)
{
	DC_OBJ_ARG_FAST(inventory, DC_KIND_INVENTORY);
	DC_OBJ_ARG_FAST(mmap, DC_KIND_MMAP);
	DC_NULL_ARG(buf);
	return dc_inventory_get(inventory, mmap, addr, len, buf, rte_comch_buf_pool_get_by_addr);
}

doca_error_t
doca_buf_inventory_buf_get_by_data(struct doca_buf_inventory *inventory, struct doca_mmap *mmap,
				   void *data, size_t data_len, struct doca_buf **buf)
{
	DC_OBJ_ARG_FAST(inventory, DC_KIND_INVENTORY);
	DC_OBJ_ARG_FAST(mmap, DC_KIND_MMAP);
	DC_NULL_ARG(buf);
	return dc_inventory_get(inventory, mmap, data, data_len, buf,
				rte_comch_buf_pool_get_by_data);
}

doca_error_t
doca_buf_inventory_get_num_elements(const struct doca_buf_inventory *inventory,
				    uint32_t *num_of_elements)
{
	DC_OBJ_ARG_FAST(inventory, DC_KIND_INVENTORY);
	DC_NULL_ARG(num_of_elements);
	*num_of_elements = inventory->num;
	return DOCA_SUCCESS;
}

doca_error_t
doca_buf_inventory_get_num_free_elements(const struct doca_buf_inventory *inventory,
					 uint32_t *num_of_free_elements)
{
	DC_OBJ_ARG_FAST(inventory, DC_KIND_INVENTORY);
	DC_NULL_ARG(num_of_free_elements);
	return rte_comch_doca_error_from_errno(
		rte_comch_buf_pool_get_num_free(inventory->pool, num_of_free_elements));
}

doca_error_t
doca_buf_inventory_buf_reuse_by_addr(struct doca_buf *buf, void *addr, size_t len)
{
	DC_NULL_ARG(buf);
	return rte_comch_doca_error_from_errno(rte_comch_buf_reuse_by_addr(DC_BUF(buf), addr, len));
}

doca_error_t
doca_buf_inventory_buf_reuse_by_data(struct doca_buf *buf, void *data, size_t data_len)
{
	DC_NULL_ARG(buf);
	return rte_comch_doca_error_from_errno(
		rte_comch_buf_reuse_by_data(DC_BUF(buf), data, data_len));
}
