/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef COMCH_ALLOC_H
#define COMCH_ALLOC_H

/*
 * Heap memory on cache lines of its own, for the objects lcores write as they
 * run (producers, consumers, engines, connections, MsgQs and their parts).
 * calloc() packs objects 16 bytes apart: the end of one and the start of the
 * next then share a line, and when two lcores each write their own object the
 * line moves between their cores at every write, while a core that only reads
 * its object (a producer reading its link) misses each time the other writes.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

/* n zeroed objects of size bytes, starting and ending on a line boundary; freed with free(). */
static inline void *
comch_zalloc_lines(size_t n, size_t size)
{
	size_t len;
	void *p;

	if (size != 0 && n > (SIZE_MAX - RTE_CACHE_LINE_SIZE) / size)
		return NULL;
	len = RTE_ALIGN_CEIL(RTE_MAX(n * size, (size_t)1), RTE_CACHE_LINE_SIZE);
	p = aligned_alloc(RTE_CACHE_LINE_SIZE, len);
	if (p != NULL)
		memset(p, 0, len);
	return p;
}

#endif /* COMCH_ALLOC_H */
