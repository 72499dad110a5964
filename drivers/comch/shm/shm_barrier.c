/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * A sleeping consumer and the producers that wake it must not both miss the
 * other: the consumer stores "armed", then looks for fills; a producer stores
 * a fill, then looks at "armed". Each side needs a full barrier between its
 * store and its load. The producer's would be paid on every round that filled
 * a buffer; the consumer's only when it goes to sleep. So, where the kernel
 * allows, the consumer pays for both: membarrier(GLOBAL_EXPEDITED) makes every
 * CPU running a process that registered for it execute a full barrier, and a
 * producer whose process registered skips its own (asymmetric Dekker, as
 * userspace RCU does it). Each consumer says in its post ring whether it does
 * so; a producer skips its barrier only then and only if its process is
 * registered. Without membarrier, both sides fence as before.
 */

#include <errno.h>
#include <string.h>
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <rte_common.h>

#include "shm_internal.h"

/* 0: not asked yet; 1: registered, the consumer's barrier covers this process; -1: no. */
static int shm_mb_state;

static int
shm_membarrier(int cmd)
{
	return (int)syscall(__NR_membarrier, cmd, 0, 0);
}

bool
shm_barrier_asymmetric(void)
{
	int state = comch_load_acquire(&shm_mb_state), q;

	if (state != 0)
		return state > 0;
	q = shm_membarrier(MEMBARRIER_CMD_QUERY);
	state = q >= 0 && (q & MEMBARRIER_CMD_GLOBAL_EXPEDITED) &&
		(q & MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED) &&
		shm_membarrier(MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED) == 0 ? 1 : -1;
	if (state < 0)
		SHM_LOG(INFO, "no membarrier(GLOBAL_EXPEDITED): producers fence before waking");
	comch_store_release(&shm_mb_state, state);
	return state > 0;
}

int
shm_barrier_consumer(void)
{
	if (shm_membarrier(MEMBARRIER_CMD_GLOBAL_EXPEDITED) == 0)
		return 0;
	/* Producers skipped their barrier on our word: do not sleep on a lost fill. */
	SHM_LOG(ERR, "membarrier: %s: the consumer keeps polling", strerror(errno));
	return -EAGAIN;
}
