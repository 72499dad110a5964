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

#include <rte_common.h>

#include "comch_membarrier.h"
#include "shm_internal.h"

static struct comch_membarrier shm_mb = {
	.cmd = MEMBARRIER_CMD_GLOBAL_EXPEDITED,
	.register_cmd = MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED,
};

bool
shm_barrier_asymmetric(void)
{
	static int logged;

	if (comch_membarrier_registered(&shm_mb))
		return true;
	if (comch_exchange_acq_rel(&logged, 1) == 0)
		SHM_LOG(INFO, "no membarrier(GLOBAL_EXPEDITED): producers fence before waking");
	return false;
}

int
shm_barrier_consumer(void)
{
	int rc = comch_membarrier_run(&shm_mb);

	if (rc == 0)
		return 0;
	/* Producers skipped their barrier on our word: do not sleep on a lost fill. */
	SHM_LOG(ERR, "membarrier: %s: the consumer keeps polling", strerror(-rc));
	return -EAGAIN;
}
