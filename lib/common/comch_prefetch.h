/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef COMCH_PREFETCH_H
#define COMCH_PREFETCH_H

/*
 * Prefetch a line for writing: ask for it exclusive ahead of a store, so that
 * a later fence or locked instruction does not wait for the line to come back
 * from the peer's core. rte_prefetch0_write() is __builtin_prefetch(p, 1),
 * which the compiler emits as a read prefetch (prefetcht0, the line shared)
 * unless the target has PREFETCHW: DPDK's default -march does not say so,
 * though every x86-64 core since Broadwell and every AMD64 core has it (older
 * ones decode it as a no-op).
 */

#include <rte_prefetch.h>

static inline void
comch_prefetch_for_write(const void *p)
{
#if defined(RTE_ARCH_X86_64)
	asm volatile("prefetchw %0" : : "m" (*(const volatile char *)p));
#else
	rte_prefetch0_write(p);
#endif
}

#endif /* COMCH_PREFETCH_H */
