/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef RTE_COMCH_DPA_DRIVER_H
#define RTE_COMCH_DPA_DRIVER_H

/**
 * @file
 * The software DPA: calls for the drivers built on it (the MsgQ driver),
 * not for applications. Internal ABI: build with ALLOW_INTERNAL_API.
 *
 * Thread safety: rte_comch_dpa_cq_post() may be called from any number of
 * CPU threads at once on one completion context (posts are serialised by a
 * lock of the context), while the context exists.
 */

#include <rte_compat.h>

#include <rte_comch_dpa.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Post one completion entry to a completion context (the CPU producer's side
 * of a DPA consumer).
 *
 * The entry is copied into the context. If the context is armed and attached
 * to a running thread, it is disarmed and the thread is triggered.
 *
 * @param cq
 *   The completion context.
 * @param cqe
 *   The entry; imm_len at most RTE_COMCH_DPA_IMM_MAX.
 * @return
 *   0; -EINVAL if cq or cqe is NULL or imm_len is too long; -EAGAIN if the
 *   context is full, that is, the program has not yet acknowledged enough
 *   entries (rte_comch_dpa_dev_completion_ack()): nothing was posted, post
 *   again later. Entries are never dropped or overwritten.
 */
__rte_internal
int
rte_comch_dpa_cq_post(struct rte_comch_dpa_cq *cq, const struct rte_comch_dpa_cqe *cqe);

#ifdef __cplusplus
}
#endif

#endif /* RTE_COMCH_DPA_DRIVER_H */
