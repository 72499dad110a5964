/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Grace periods of a link's producers (DPDK's QSBR, rte_rcu_qsbr): what
 * lets a producer send with no lock and no atomic instruction. Each producer
 * is a reader, by its id, online while it runs; every round of its progress,
 * between two of its sends, is a quiescent state. The peer's consumers (the
 * remotes) are read by sends, and changed in two ways that wait for a grace
 * period, so that no send still uses what changed:
 *
 * - unimport (the peer withdrew a consumer, or a MsgQ's consumer stops): the
 *   connection's lcore (the stopping consumer's, for a MsgQ) marks it dead,
 *   then unmaps it once every producer has passed a quiescent state;
 * - sharing (a second producer sends to a consumer, which so far only its
 *   first producer, its owner, wrote to without a lock): the newcomer asks for
 *   the lock to be used, and takes it itself once the owner has passed a
 *   quiescent state, after which the owner takes it too.
 *
 * Reporting costs a producer a load and a store per round; starting and
 * checking a grace period are for the rare paths. A producer whose sends the
 * CPU does not make (api NONE: an accelerator's program sends, and its driver
 * guards those sends) is no reader: the calls below do nothing for it, so
 * that no grace period waits for an engine that never runs its sends.
 */

#include <errno.h>
#include <stdlib.h>

#include <rte_common.h>
#include <rte_rcu_qsbr.h>

#include "comch_private.h"

/*
 * Readers one QSBR variable may hold: rte_rcu_qsbr sizes its memory in 32-bit
 * arithmetic, and a driver that reports "any number" of producers must not
 * make every connection allocate for billions.
 */
#define COMCH_GRACE_MAX_READERS 65536

int
comch_grace_attach(struct comch_link *link, uint32_t max_producers)
{
	uint32_t readers;
	size_t sz;

	if (link->qs != NULL)
		return 0;
	if (max_producers == 0 || max_producers > COMCH_GRACE_MAX_READERS) {
		COMCH_LOG(ERR, "link %u: the device's max_producers (%u) is not 1 to %u",
			  link->id, max_producers, COMCH_GRACE_MAX_READERS);
		return -EINVAL;
	}
	/* A reader per producer id, and ids start at 1: reader 0 is never used. */
	readers = max_producers + COMCH_FAST_FIRST_ID;
	sz = rte_rcu_qsbr_get_memsize(readers);
	/* From the heap, as the other per-connection state. */
	link->qs = aligned_alloc(RTE_CACHE_LINE_SIZE, RTE_ALIGN_CEIL(sz, RTE_CACHE_LINE_SIZE));
	if (link->qs == NULL)
		return -ENOMEM;
	if (rte_rcu_qsbr_init(link->qs, readers) != 0) {
		free(link->qs);
		link->qs = NULL;
		return -ENOMEM;
	}
	return 0;
}

void
comch_grace_free(struct comch_link *link)
{
	free(link->qs);
	link->qs = NULL;
}

uint64_t
comch_grace_start(struct comch_link *link)
{
	return link->qs != NULL ? rte_rcu_qsbr_start(link->qs) : 0;
}

bool
comch_grace_done(struct comch_link *link, uint64_t token)
{
	return link->qs == NULL || rte_rcu_qsbr_check(link->qs, token, false) == 1;
}

int
comch_grace_register(struct rte_comch_producer *p)
{
	if (p->api == COMCH_FAST_API_NONE)
		return 0;
	if (rte_rcu_qsbr_thread_register(p->link->qs, p->id) != 0)
		return -EINVAL;
	p->reader = true;
	return 0;
}

void
comch_grace_unregister(struct rte_comch_producer *p)
{
	if (p->reader)
		rte_rcu_qsbr_thread_unregister(p->link->qs, p->id);
	p->reader = false;
}

void
comch_grace_online(struct rte_comch_producer *p)
{
	if (p->reader)
		rte_rcu_qsbr_thread_online(p->link->qs, p->id);
}

void
comch_grace_offline(struct rte_comch_producer *p)
{
	if (p->reader)
		rte_rcu_qsbr_thread_offline(p->link->qs, p->id);
}
