/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/* Whether the CPU has CLFLUSHOPT: asked once (see shm_flush.h). */

#include <stdbool.h>
#ifdef RTE_ARCH_X86_64
#include <cpuid.h>
#endif

#include <rte_branch_prediction.h>

#include <rte_comch_drv_atomic.h>

#include "shm_flush.h"

/* CPUID leaf 7, EBX bit 23: 1 if the CPU has it, 0 if not, -1 not asked yet. */
static int shm_has_clflushopt = -1;

bool
shm_can_flush(void)
{
	int has = comch_load_relaxed(&shm_has_clflushopt);
#ifdef RTE_ARCH_X86_64
	unsigned int a, b, c, d;

	if (unlikely(has < 0)) {
		has = __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 23)) != 0;
		comch_store_relaxed(&shm_has_clflushopt, has);
	}
#else
	has = 0;
#endif
	return has > 0;
}
