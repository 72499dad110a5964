/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The registry of live objects (a red-black tree of entries that live in the
 * objects themselves, from libbsd: no allocation, no capacity to size) and the
 * quarantine of destroyed objects' memory (a FIFO of blocks). See the header
 * for why.
 */

#include <malloc.h>
#include <pthread.h>
#include <stdlib.h>

#include <rte_common.h>

#include "comch_objreg.h"

struct comch_objreg_block {
	void *addr;
	size_t len;
};

RB_HEAD(comch_objreg_tree, comch_objreg_entry);

static int
comch_objreg_cmp(const struct comch_objreg_entry *a, const struct comch_objreg_entry *b)
{
	return a->key < b->key ? -1 : a->key > b->key;
}

/* RB_GENERATE_STATIC() wants a __unused that glibc and libbsd leave undefined. */
RB_GENERATE_INTERNAL(comch_objreg_tree, comch_objreg_entry, node, comch_objreg_cmp,
		     __rte_unused static)

/*
 * A mutex rather than rte_spinlock: DPDK 22.11's x86 spinlock is inline
 * assembly that ThreadSanitizer cannot see, and nothing here is hot.
 */
static struct {
	pthread_mutex_t lock;
	struct comch_objreg_tree live;
	unsigned int nb_live;
	/* The quarantine: a ring of blocks, oldest at head. */
	struct comch_objreg_block q[COMCH_OBJREG_QUARANTINE];
	unsigned int q_head, q_len;
	size_t q_bytes;
} reg = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.live = RB_INITIALIZER(&reg.live),
};

void
comch_objreg_add(struct comch_objreg_entry *e, const void *key, uint32_t kind)
{
	e->key = (uintptr_t)key;
	e->kind = kind;
	pthread_mutex_lock(&reg.lock);
	RB_INSERT(comch_objreg_tree, &reg.live, e);
	reg.nb_live++;
	pthread_mutex_unlock(&reg.lock);
}

uint32_t
comch_objreg_kind(const void *key)
{
	struct comch_objreg_entry find = { .key = (uintptr_t)key };
	struct comch_objreg_entry *e;
	uint32_t kind;

	pthread_mutex_lock(&reg.lock);
	e = RB_FIND(comch_objreg_tree, &reg.live, &find);
	kind = e == NULL ? 0 : e->kind;
	pthread_mutex_unlock(&reg.lock);
	return kind;
}

bool
comch_objreg_retired(const void *key)
{
	uintptr_t k = (uintptr_t)key;
	const struct comch_objreg_block *b;
	bool found = false;
	unsigned int i;

	pthread_mutex_lock(&reg.lock);
	for (i = 0; i < reg.q_len && !found; i++) {
		b = &reg.q[(reg.q_head + i) % COMCH_OBJREG_QUARANTINE];
		found = k >= (uintptr_t)b->addr && k < (uintptr_t)b->addr + b->len;
	}
	pthread_mutex_unlock(&reg.lock);
	return found;
}

/*
 * Under the lock: block in, and the oldest blocks out while over the bounds
 * (a block larger than the byte bound goes out at once). Freeing under the
 * lock is fine: free() never calls back, and nothing here is on a hot path.
 */
static void
comch_objreg_push_locked(void *block)
{
	size_t len = malloc_usable_size(block);
	struct comch_objreg_block *b;

	reg.q[(reg.q_head + reg.q_len) % COMCH_OBJREG_QUARANTINE] =
		(struct comch_objreg_block){ .addr = block, .len = len };
	reg.q_len++;
	reg.q_bytes += len;
	while (reg.q_len == COMCH_OBJREG_QUARANTINE ||
	       (reg.q_len != 0 && reg.q_bytes > COMCH_OBJREG_QUARANTINE_BYTES)) {
		b = &reg.q[reg.q_head];
		reg.q_head = (reg.q_head + 1) % COMCH_OBJREG_QUARANTINE;
		reg.q_len--;
		reg.q_bytes -= b->len;
		free(b->addr);
	}
}

void
comch_objreg_retire(struct comch_objreg_entry *e, void *block)
{
	pthread_mutex_lock(&reg.lock);
	RB_REMOVE(comch_objreg_tree, &reg.live, e);
	reg.nb_live--;
	comch_objreg_push_locked(block);
	pthread_mutex_unlock(&reg.lock);
}

void
comch_objreg_remove(struct comch_objreg_entry *e)
{
	pthread_mutex_lock(&reg.lock);
	RB_REMOVE(comch_objreg_tree, &reg.live, e);
	reg.nb_live--;
	pthread_mutex_unlock(&reg.lock);
}

void
comch_objreg_quarantine(void *block)
{
	if (block == NULL)
		return;
	pthread_mutex_lock(&reg.lock);
	comch_objreg_push_locked(block);
	pthread_mutex_unlock(&reg.lock);
}

void
comch_objreg_stats(uint32_t *live, uint32_t *quarantined, uint64_t *bytes)
{
	pthread_mutex_lock(&reg.lock);
	*live = reg.nb_live;
	*quarantined = reg.q_len;
	*bytes = reg.q_bytes;
	pthread_mutex_unlock(&reg.lock);
}
