/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * DPA memory. On a BlueField-3 it is memory the DPA reaches by device
 * address, which the CPU fills and reads with copies. Here it is process
 * memory named by a handle, so that programs and the CPU use it the same way
 * and a stale or made-up handle is refused, not followed.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "dpa_private.h"

static rte_comch_dpa_handle_t
dpa_mem_handle(const struct rte_comch_dpa *dpa, const struct dpa_mem *m)
{
	return rte_comch_dpa_handle_make(DPA_KIND_MEM, dpa->tag, m->gen, (uint32_t)(m - dpa->mems));
}

/* The buffer h names, if [offset, offset + len) is inside it. */
static struct dpa_mem *
dpa_mem_lookup(struct rte_comch_dpa *dpa, rte_comch_dpa_handle_t h, uint64_t offset,
	       uint64_t len, const char *func)
{
	struct dpa_mem *m = dpa_handle_lookup(dpa, h, DPA_KIND_MEM, func);

	if (m == NULL)
		return NULL;
	if (offset > m->size || len > m->size - offset) {
		DPA_LOG_FN(ERR, func, "%" PRIu64 " bytes at %" PRIu64 " are outside the %" PRIu64
			   "-byte buffer", len, offset, m->size);
		return NULL;
	}
	return m;
}

/* The CPU's address of [offset, offset + len) of buffer h, or NULL (logged). */
static uint8_t *
dpa_mem_addr(struct rte_comch_dpa *dpa, rte_comch_dpa_handle_t h, uint64_t offset,
	     uint64_t len, const char *func)
{
	struct dpa_mem *m;

	if (dpa == NULL) {
		DPA_LOG_FN(ERR, func, "dpa is NULL");
		return NULL;
	}
	m = dpa_mem_lookup(dpa, h, offset, len, func);
	return m != NULL ? (uint8_t *)m->base + offset : NULL;
}

int
rte_comch_dpa_mem_alloc(struct rte_comch_dpa *dpa, uint64_t size, rte_comch_dpa_handle_t *mem)
{
	struct dpa_mem *m = NULL;
	uint32_t i;
	int ret;

	if (dpa == NULL || mem == NULL || size == 0 || size > RTE_COMCH_DPA_MEM_MAX) {
		DPA_LOG(ERR, "dpa or mem is NULL, or size %" PRIu64 " is not 1 to %" PRIu64,
			size, (uint64_t)RTE_COMCH_DPA_MEM_MAX);
		return -EINVAL;
	}
	ret = dpa_ctl_lock(dpa, __func__);
	if (ret < 0)
		return ret;
	for (i = 0; i < dpa->max_mems; i++) {
		if (dpa->mems[i].live == 0) {
			m = &dpa->mems[i];
			break;
		}
	}
	if (m == NULL) {
		DPA_LOG(ERR, "dpa %u: %u buffers exist already", dpa->tag, dpa->max_mems);
		ret = -ENOSPC;
		goto out;
	}
	m->base = comch_zalloc_lines(1, size);
	if (m->base == NULL) {
		DPA_LOG(ERR, "out of memory for %" PRIu64 " bytes", size);
		ret = -ENOMEM;
		goto out;
	}
	m->size = size;
	m->gen = rte_comch_dpa_next_gen(m->gen);
	comch_store_release(&m->live, m->gen);
	dpa->nb_mems++;
	*mem = dpa_mem_handle(dpa, m);
out:
	dpa_ctl_unlock(dpa);
	return ret;
}

int
rte_comch_dpa_mem_free(struct rte_comch_dpa *dpa, rte_comch_dpa_handle_t mem)
{
	struct dpa_mem *m;
	int ret = dpa_ctl_lock(dpa, __func__);

	if (ret < 0)
		return ret;
	m = dpa_mem_lookup(dpa, mem, 0, 0, __func__);
	if (m == NULL) {
		dpa_ctl_unlock(dpa);
		return -EINVAL;
	}
	comch_store_seq_cst(&m->live, 0);
	/* Runs in progress may have its address: wait until they end. */
	dpa_grace_wait(dpa);
	free(m->base);
	m->base = NULL;
	m->size = 0;
	dpa->nb_mems--;
	dpa_ctl_unlock(dpa);
	return 0;
}

int
rte_comch_dpa_h2d_memcpy(struct rte_comch_dpa *dpa, rte_comch_dpa_handle_t mem, uint64_t offset,
			 const void *src, uint64_t len)
{
	uint8_t *p;

	if (src == NULL) {
		DPA_LOG(ERR, "src is NULL");
		return -EINVAL;
	}
	p = dpa_mem_addr(dpa, mem, offset, len, __func__);
	if (p == NULL)
		return -EINVAL;
	memcpy(p, src, len);
	return 0;
}

int
rte_comch_dpa_d2h_memcpy(struct rte_comch_dpa *dpa, void *dst, rte_comch_dpa_handle_t mem,
			 uint64_t offset, uint64_t len)
{
	const uint8_t *p;

	if (dst == NULL) {
		DPA_LOG(ERR, "dst is NULL");
		return -EINVAL;
	}
	p = dpa_mem_addr(dpa, mem, offset, len, __func__);
	if (p == NULL)
		return -EINVAL;
	memcpy(dst, p, len);
	return 0;
}

int
rte_comch_dpa_memset(struct rte_comch_dpa *dpa, rte_comch_dpa_handle_t mem, uint64_t offset,
		     int value, uint64_t len)
{
	uint8_t *p = dpa_mem_addr(dpa, mem, offset, len, __func__);

	if (p == NULL)
		return -EINVAL;
	memset(p, value, len);
	return 0;
}

int
rte_comch_dpa_mem_get_addr(struct rte_comch_dpa *dpa, rte_comch_dpa_handle_t mem, void **addr)
{
	uint8_t *p;

	if (addr == NULL) {
		DPA_LOG(ERR, "addr is NULL");
		return -EINVAL;
	}
	p = dpa_mem_addr(dpa, mem, 0, 0, __func__);
	if (p == NULL)
		return -EINVAL;
	*addr = p;
	return 0;
}

void *
rte_comch_dpa_dev_mem_ptr(rte_comch_dpa_handle_t mem, uint64_t offset, uint64_t len)
{
	struct rte_comch_dpa *dpa = dpa_dev_caller(__func__);

	return dpa != NULL ? dpa_mem_addr(dpa, mem, offset, len, __func__) : NULL;
}
