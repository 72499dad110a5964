/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The handles of the objects of the drivers built on the runtime (the dpa
 * driver's DPA consumers and producers), which DPA programs name. They live
 * in a table of the dpa,
 * like its threads and completion contexts, so that a handle is checked the
 * same way (kind, dpa, slot, generation) and never followed blindly.
 *
 * A slot stays taken (busy) from its endpoint's creation until a grace period
 * after its handle went stale: a run that resolved the handle just before may
 * still use the object, and its memory must not be reused under it.
 */

#include <errno.h>
#include <inttypes.h>

#include "dpa_private.h"

int
rte_comch_dpa_ep_alloc(struct rte_comch_dpa *dpa, uint8_t kind, void *obj,
		       rte_comch_dpa_handle_t *h)
{
	struct dpa_ep *e = NULL;
	uint32_t i;

	comch_spin_lock(&dpa->eps_lock);
	for (i = 0; i < dpa->max_eps; i++) {
		if (!dpa->eps[i].busy) {
			e = &dpa->eps[i];
			break;
		}
	}
	if (e == NULL) {
		comch_spin_unlock(&dpa->eps_lock);
		DPA_LOG(ERR, "dpa %u: %u MsgQ consumers and producers exist already", dpa->tag,
			dpa->max_eps);
		return -ENOSPC;
	}
	e->busy = true;
	e->kind = kind;
	e->obj = obj;
	e->gen = rte_comch_dpa_next_gen(e->gen);
	/* Release: a program that sees the generation sees kind and obj. */
	comch_store_release(&e->live, e->gen);
	dpa->nb_eps++;
	comch_spin_unlock(&dpa->eps_lock);
	*h = rte_comch_dpa_handle_make(kind, dpa->tag, e->gen, i);
	return 0;
}

void
rte_comch_dpa_ep_free(struct rte_comch_dpa *dpa, rte_comch_dpa_handle_t h)
{
	struct dpa_ep *e = &dpa->eps[rte_comch_dpa_handle_slot(h)];

	/* Stale at once: no run resolves the handle from now on. */
	comch_store_seq_cst(&e->live, 0);
	/* Runs that resolved it before may hold obj: wait until they end. */
	if (dpa_in_program())
		DPA_LOG(ERR, "dpa %u: endpoint destroyed from a DPA program: no grace period",
			dpa->tag);
	else
		dpa_grace_wait(dpa);
	comch_spin_lock(&dpa->eps_lock);
	e->busy = false;
	dpa->nb_eps--;
	comch_spin_unlock(&dpa->eps_lock);
}

void *
rte_comch_dpa_ep_lookup(struct rte_comch_dpa *dpa, rte_comch_dpa_handle_t h, uint8_t kind,
			const char *name, const char *func)
{
	uint32_t slot = rte_comch_dpa_handle_slot(h);
	struct dpa_ep *e;

	if (rte_comch_dpa_handle_kind(h) != kind || rte_comch_dpa_handle_tag(h) != dpa->tag ||
	    slot >= dpa->max_eps) {
		DPA_LOG_FN(ERR, func, "0x%" PRIx64 " is not a %s handle of dpa %u", h, name,
			   dpa->tag);
		return NULL;
	}
	e = &dpa->eps[slot];
	/* Generation 0 is no object's: a free slot's live is 0, and must not match it. */
	if (rte_comch_dpa_handle_gen(h) == 0 ||
	    comch_load_acquire(&e->live) != rte_comch_dpa_handle_gen(h)) {
		DPA_LOG_FN(ERR, func, "dpa %u: stale %s handle 0x%" PRIx64, dpa->tag, name, h);
		return NULL;
	}
	/* kind and obj were written before live was published. */
	if (e->kind != kind) {
		DPA_LOG_FN(ERR, func, "dpa %u: 0x%" PRIx64 " is not a %s", dpa->tag, h, name);
		return NULL;
	}
	return e->obj;
}
