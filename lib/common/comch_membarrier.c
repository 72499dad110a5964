/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#include <errno.h>
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "comch_membarrier.h"

/* The atomics are GCC's: lib/common builds before lib/comch and its header of them. */

static int
comch_membarrier_call(int cmd)
{
	return (int)syscall(__NR_membarrier, cmd, 0, 0);
}

bool
comch_membarrier_registered(struct comch_membarrier *mb)
{
	int state = __atomic_load_n(&mb->state, __ATOMIC_ACQUIRE), q;

	if (state != 0)
		return state > 0;
	/* Two threads may both ask: they get the same answer, and registering twice is harmless. */
	q = comch_membarrier_call(MEMBARRIER_CMD_QUERY);
	state = q >= 0 && (q & mb->cmd) && (q & mb->register_cmd) &&
		comch_membarrier_call(mb->register_cmd) == 0 ? 1 : -1;
	__atomic_store_n(&mb->state, state, __ATOMIC_RELEASE);
	return state > 0;
}

int
comch_membarrier_run(const struct comch_membarrier *mb)
{
	return comch_membarrier_call(mb->cmd) == 0 ? 0 : -errno;
}
