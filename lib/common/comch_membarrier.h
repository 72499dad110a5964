/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef COMCH_MEMBARRIER_H
#define COMCH_MEMBARRIER_H

/*
 * membarrier(2), for asymmetric barriers: a side that passes often skips its
 * full barrier (keeping only the compiler's), and the side that passes rarely
 * pays for both, making every CPU that runs a covered thread execute one.
 * Internal: compiled into each library that uses it; never installed.
 */

#include <stdbool.h>

struct comch_membarrier {
	int cmd;           /* MEMBARRIER_CMD_GLOBAL_EXPEDITED or _PRIVATE_EXPEDITED */
	int register_cmd;  /* its MEMBARRIER_CMD_REGISTER_* */
	int state;         /* atomic: 0 not asked yet, 1 registered, -1 not available */
};

/*
 * Whether mb's barrier covers this process: asks the kernel and registers the
 * first time (thread-safe), answers from memory after.
 */
bool comch_membarrier_registered(struct comch_membarrier *mb);

/* Run mb's barrier (registered): 0, or -errno. */
int comch_membarrier_run(const struct comch_membarrier *mb);

#endif /* COMCH_MEMBARRIER_H */
