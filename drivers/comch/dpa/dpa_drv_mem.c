/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Memory of the "dpa" driver: allocation and registration of mmaps, and the
 * DPA handles of registrations that dma_copy takes. The software DPA shares the
 * process's memory, so an allocation is plain zeroed pages; a registration
 * records the range and its permissions in a slot of the device's table, whose
 * generation makes every handle of it stale at dereg.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_pause.h>

#include <rte_comch_mmap.h>

#include "rte_comch_dpa_msgq.h"
#include "dpa_drv_private.h"

static int
dpa_mmap_alloc(void *dev, size_t len, void **addr, void **mem)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	size_t bytes = RTE_ALIGN_CEIL(len, pg);
	void *p;

	if (bytes < len) {
		DPA_LOG(ERR, "%zu bytes: too many", len);
		return -ENOMEM;
	}
	p = aligned_alloc(pg, bytes);
	if (p == NULL) {
		DPA_LOG(ERR, "out of memory for %zu bytes", len);
		return -ENOMEM;
	}
	memset(p, 0, bytes);
	*addr = p;
	*mem = p;
	return 0;
}

static void
dpa_mmap_free(void *dev, void *mem)
{
	free(mem);
}

static int
dpa_mmap_reg(void *dev, void *addr, size_t len, uint32_t perms, void *mem, void **reg)
{
	struct dpa_drv_dev *d = dev;
	struct dpa_reg *r = NULL;
	uint32_t i;

	comch_spin_lock(&d->regs_lock);
	for (i = 0; i < DPA_DRV_MAX_REGS; i++) {
		if (!d->regs[i].busy) {
			r = &d->regs[i];
			break;
		}
	}
	if (r == NULL) {
		comch_spin_unlock(&d->regs_lock);
		DPA_LOG(ERR, "device dpa_%s: %u mmaps are registered already", d->name,
			DPA_DRV_MAX_REGS);
		return -ENOSPC;
	}
	r->busy = true;
	r->addr = addr;
	r->len = len;
	r->perms = perms;
	r->gen = rte_comch_dpa_next_gen(r->gen);
	/* Release: a copy that sees the generation sees the range. */
	comch_store_release(&r->live, r->gen);
	d->nb_regs++;
	comch_spin_unlock(&d->regs_lock);
	*reg = r;
	return 0;
}

static void
dpa_mmap_dereg(void *dev, void *reg)
{
	struct dpa_drv_dev *d = dev;
	struct dpa_reg *r = reg;

	/*
	 * Stale first, then wait for the copies that resolved it before: a copy
	 * counts itself in users before it checks live (both sequentially
	 * consistent), so either it sees the stale generation or it is waited
	 * for here. After this the application may free the memory.
	 */
	comch_store_seq_cst(&r->live, 0);
	while (comch_load_seq_cst(&r->users) != 0)
		rte_pause();
	comch_spin_lock(&d->regs_lock);
	r->busy = false;
	d->nb_regs--;
	comch_spin_unlock(&d->regs_lock);
}

const struct rte_comch_drv_mmap_ops dpa_mmap_ops = {
	.alloc = dpa_mmap_alloc,
	.free = dpa_mmap_free,
	.reg = dpa_mmap_reg,
	.dereg = dpa_mmap_dereg,
};

static rte_comch_dpa_handle_t
dpa_reg_handle(const struct rte_comch_dpa *dpa, const struct dpa_drv_dev *d,
	       const struct dpa_reg *r)
{
	return rte_comch_dpa_handle_make(DPA_KIND_REG, rte_comch_dpa_tag(dpa),
					 comch_load_relaxed(&r->live), (uint32_t)(r - d->regs));
}

struct dpa_reg *
dpa_reg_get(const struct dpa_msgq *q, rte_comch_dpa_handle_t h, const char *func)
{
	/* The MsgQ's dpa runs on its device (dpa_msgq_create()): its registrations. */
	struct dpa_drv_dev *d = q->dev;
	uint8_t tag = rte_comch_dpa_tag(q->dpa);
	uint32_t slot = rte_comch_dpa_handle_slot(h);
	struct dpa_reg *r;

	/* Generation 0 is no registration's: a free slot's live is 0, and must not match it. */
	if (rte_comch_dpa_handle_kind(h) != DPA_KIND_REG || rte_comch_dpa_handle_tag(h) != tag ||
	    slot >= DPA_DRV_MAX_REGS || rte_comch_dpa_handle_gen(h) == 0) {
		DPA_LOG_FN(ERR, func, "0x%" PRIx64 " is not an mmap handle of dpa %u", h, tag);
		return NULL;
	}
	r = &d->regs[slot];
	comch_fetch_add_seq_cst(&r->users, 1);
	if (comch_load_seq_cst(&r->live) != rte_comch_dpa_handle_gen(h)) {
		comch_fetch_sub_release(&r->users, 1);
		DPA_LOG_FN(ERR, func, "dpa %u: stale mmap handle 0x%" PRIx64 " (deregistered)",
			   tag, h);
		return NULL;
	}
	return r;
}

void
dpa_reg_put(struct dpa_reg *r)
{
	/* Release: the copy's reads and writes of the range come before a dereg's return. */
	comch_fetch_sub_release(&r->users, 1);
}

int
rte_comch_dpa_mmap_get_dpa_handle(struct rte_comch_dpa *dpa, const struct rte_comch_mmap *mmap,
				  rte_comch_dpa_handle_t *handle)
{
	struct dpa_drv_dev *d;
	struct dpa_reg *r;
	int ret = 0;

	if (dpa == NULL) {
		DPA_LOG(ERR, "dpa is NULL");
		ret = -EINVAL;
	} else if (rte_comch_dpa_in_program()) {
		DPA_LOG(ERR, "called from a DPA program");
		ret = -EPERM;
	}
	if (ret == 0)
		ret = dpa_out_check(mmap, "mmap", __func__);
	if (ret == 0)
		ret = dpa_out_check(handle, "handle", __func__);
	if (ret < 0)
		return ret;
	d = dpa_drv_dev_of(rte_comch_dpa_get_device(dpa));
	if (d == NULL) {
		DPA_LOG(ERR, "dpa %u is not on a \"dpa:\" device: it reaches no mmap",
			rte_comch_dpa_tag(dpa));
		return -EINVAL;
	}
	r = rte_comch_drv_mmap_reg(mmap, rte_comch_dpa_get_device(dpa));
	if (r == NULL) {
		DPA_LOG(ERR, "dpa %u: the mmap is not started, or its devices do not include "
			"device dpa_%s (rte_comch_mmap_add_dev() before start)",
			rte_comch_dpa_tag(dpa), d->name);
		return -EINVAL;
	}
	*handle = dpa_reg_handle(dpa, d, r);
	return 0;
}
