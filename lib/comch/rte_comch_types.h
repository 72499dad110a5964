/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef RTE_COMCH_TYPES_H
#define RTE_COMCH_TYPES_H

/**
 * @file
 * rte_comch types every part of the API names: the opaque objects and the
 * user data union. Each header includes this one rather than the umbrella
 * rte_comch.h, so that any header compiles on its own, in any order.
 */

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rte_comch_dev;
struct rte_comch_dev_rep;
struct rte_comch_pe;
struct rte_comch_ctx;
struct rte_comch_task;
struct rte_comch_server;
struct rte_comch_client;
struct rte_comch_connection;
struct rte_comch_task_send;
struct rte_comch_mmap;
struct rte_comch_buf;
struct rte_comch_buf_pool;
struct rte_comch_producer;
struct rte_comch_producer_task_send;
struct rte_comch_consumer;
struct rte_comch_consumer_task_post_recv;

/**
 * User data attached to contexts, tasks and connections.
 */
union rte_comch_data {
	void *ptr;    /**< A pointer. */
	uint64_t u64; /**< A 64-bit value. */
};

#ifdef __cplusplus
}
#endif

#endif /* RTE_COMCH_TYPES_H */
