/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef BENCH_MEM_H
#define BENCH_MEM_H

/*
 * The calling process's resident memory, as the kernel accounts it in
 * /proc/self/status: what a connection really costs, pages never touched
 * left out (a ring's slots are mapped at once but resident only once written).
 */

#include <stdint.h>

struct bench_mem {
	uint64_t rss_kb;  /* VmRSS: resident now, shared memory (rings) included */
	uint64_t hwm_kb;  /* VmHWM: the highest VmRSS of the process so far */
};

/* Read both, in KiB. 0, or a negative errno value (m untouched then). */
int bench_mem_read(struct bench_mem *m);

#endif /* BENCH_MEM_H */
