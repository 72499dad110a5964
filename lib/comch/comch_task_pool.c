/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Task pools. Every context has its own, and only the lcore of its engine
 * takes and returns tasks, so a pool is a plain array of tasks and a stack of
 * the free ones: no lock, no atomic, no ring.
 *
 * Why not rte_mempool: each rte_mempool costs three DPDK memzones (its header,
 * its ring, its memory) and a process has RTE_MAX_MEMZONE of them (2560 in
 * Debian's DPDK), which capped a process at about 850 clients. These pools
 * come from the C heap and cost no memzone.
 */

#include <stdlib.h>

#include "comch_private.h"

struct comch_task_pool *
comch_task_pool_create(uint32_t num, size_t elt_size)
{
	struct comch_task_pool *tp;
	uint32_t i;

	elt_size = RTE_ALIGN_CEIL(elt_size, RTE_CACHE_LINE_SIZE);
	tp = calloc(1, sizeof(*tp) + (size_t)num * sizeof(tp->free[0]));
	if (tp == NULL)
		return NULL;
	/* Tasks on cache lines of their own: two never share a line. */
	tp->elts = comch_zalloc_lines(num, elt_size);
	if (tp->elts == NULL) {
		COMCH_LOG(ERR, "cannot allocate a pool of %u tasks", num);
		free(tp);
		return NULL;
	}
	tp->size = num;
	/* The stack pops the first task first: low addresses stay warm. */
	for (i = 0; i < num; i++) {
		tp->free[num - 1 - i] = tp->elts + (size_t)i * elt_size;
		((struct rte_comch_task *)tp->free[num - 1 - i])->pool = tp;
	}
	tp->nb_free = num;
	return tp;
}

unsigned int
comch_task_pool_in_use(const struct comch_task_pool *tp)
{
	if (tp == NULL)
		return 0;
	/* May run on another lcore than the owner's (a destroy): one relaxed load. */
	return tp->size - COMCH_CNT_READ(tp->nb_free);
}

/*
 * The tasks go to the quarantine of destroyed objects' memory: a task kept
 * after its context was destroyed still reads as freed (not allocated) there.
 */
void
comch_task_pool_free(struct comch_task_pool *tp)
{
	if (tp == NULL)
		return;
	comch_objreg_quarantine(tp->elts);
	free(tp);
}
