/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Task pools. Every context has its own, used by the one lcore of its engine,
 * so each pool carries its own mempool cache in the pool's private area: gets
 * and puts then never look up the calling lcore's default cache (a TLS access
 * through the dynamic linker from a shared library) nor touch the ring.
 */

#include <stdio.h>

#include <rte_errno.h>
#include <rte_mempool.h>

#include "comch_private.h"

/* Enough to absorb a burst of gets or puts without going to the ring. */
#define COMCH_TASK_CACHE_MAX 64

struct rte_mempool *
comch_task_pool_create(uint32_t num, size_t elt_size)
{
	static uint32_t pool_seq;
	char name[RTE_MEMPOOL_NAMESIZE];
	struct comch_task_pool_priv *priv;
	struct rte_mempool *mp;
	uint32_t cache_size = RTE_MIN(num / 2, (uint32_t)COMCH_TASK_CACHE_MAX);

	snprintf(name, sizeof(name), "comch_task_%u",
		 __atomic_fetch_add(&pool_seq, 1, __ATOMIC_RELAXED));
	mp = rte_mempool_create(name, num, elt_size, 0, sizeof(*priv), NULL, NULL, NULL, NULL,
				SOCKET_ID_ANY, RTE_MEMPOOL_F_SP_PUT | RTE_MEMPOOL_F_SC_GET);
	if (mp == NULL) {
		COMCH_LOG(ERR, "cannot create a pool of %u tasks: %s", num,
			  rte_strerror(rte_errno));
		return NULL;
	}
	priv = rte_mempool_get_priv(mp);
	/* A pool too small to cache goes to its ring each time (cache NULL). */
	priv->cache = NULL;
	if (cache_size > 0) {
		priv->cache = rte_mempool_cache_create(cache_size, SOCKET_ID_ANY);
		if (priv->cache == NULL) {
			COMCH_LOG(ERR, "cannot create a cache of %u tasks", cache_size);
			rte_mempool_free(mp);
			return NULL;
		}
	}
	return mp;
}

/*
 * Tasks in the cache are free, though the mempool counts them in use. Counted,
 * not flushed: this may run on another lcore than the pool's (a destroy on the
 * connection's lcore), which must not touch the cache.
 */
unsigned int
comch_task_pool_in_use(struct rte_mempool *mp)
{
	const struct comch_task_pool_priv *priv;
	unsigned int used, cached;

	if (mp == NULL)
		return 0;
	priv = rte_mempool_get_priv(mp);
	used = rte_mempool_in_use_count(mp);
	cached = priv->cache != NULL ? __atomic_load_n(&priv->cache->len, __ATOMIC_RELAXED) : 0;
	return used > cached ? used - cached : 0;
}

void
comch_task_pool_free(struct rte_mempool *mp)
{
	struct comch_task_pool_priv *priv;

	if (mp == NULL)
		return;
	priv = rte_mempool_get_priv(mp);
	/* Nothing is taken any more: the cache's tasks go back to the pool's ring. */
	if (priv->cache != NULL)
		rte_mempool_cache_flush(priv->cache, mp);
	rte_mempool_cache_free(priv->cache);
	rte_mempool_free(mp);
}
