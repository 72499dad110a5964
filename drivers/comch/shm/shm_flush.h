/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef SHM_FLUSH_H
#define SHM_FLUSH_H

/*
 * Dropping lines from the caches: a receiver done with a message it read in
 * place (a fast-path buffer posted again, a ring slot released) flushes it,
 * so that the sender's next write there takes the lines from memory instead
 * of waiting for them to come back from the receiver's core.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>

/*
 * Messages of SHM_FLUSH_MIN to SHM_FLUSH_MAX bytes: where fp-bw and the
 * control path's 4 KiB streams gained and fp-lat did not lose, of 1, 2, 4 and
 * 8 KiB and up (shm guide). Below, a ping-pong waits longer for a line from
 * memory than from the peer's core; above, the lines have left our cache by
 * the next lap anyway.
 */
#define SHM_FLUSH_MIN 2048u
#define SHM_FLUSH_MAX 4096u

static inline bool
shm_flush_size_ok(uint32_t len)
{
	return len >= SHM_FLUSH_MIN && len <= SHM_FLUSH_MAX;
}

/** Whether this CPU can flush a line without a fence (x86-64 with CLFLUSHOPT). */
bool shm_can_flush(void);

/*
 * Write back and drop the lines of [p, p + len) from every cache. Weakly
 * ordered: no fence, and none needed, the data stays what it is; a line the
 * peer writes meanwhile is written back with its new contents.
 */
static inline void
shm_flush_lines(const uint8_t *p, uint32_t len)
{
#ifdef RTE_ARCH_X86_64
	const uint8_t *line = RTE_PTR_ALIGN_FLOOR(p, RTE_CACHE_LINE_SIZE);

	for (; line < p + len; line += RTE_CACHE_LINE_SIZE)
		asm volatile("clflushopt %0" : "+m" (*(volatile uint8_t *)(uintptr_t)line));
#else
	RTE_SET_USED(p);
	RTE_SET_USED(len);
#endif
}

#endif /* SHM_FLUSH_H */
