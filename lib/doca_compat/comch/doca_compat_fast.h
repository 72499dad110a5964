/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/**
 * @file
 * Not DOCA's API: what the per-message calls of this layer's DOCA headers
 * stand on. doca_task_submit(), doca_task_free(), doca_pe_progress(), the
 * task casts and a few more are inline in those headers: each is one call
 * into rte_comch, made from the program's own code, where a function of the
 * layer would add a call and a return of its own to every message (counted
 * with devtools/doca-layer-instr.py: the DOCA layer's guide). What they call is
 * declared here: rte_comch's functions, as its headers declare them (so that
 * a DOCA program needs no DPDK header but rte_comch_types.h), and the
 * layer's slow paths, the DOCA errors of what rte_comch refused.
 *
 * A program built with these headers therefore calls librte_comch directly:
 * the layer's pkg-config module links it. The calls stay source compatible
 * with DOCA (a program may take their addresses); only their binary home is
 * rte_comch, whose ABI the program then follows, as a DPDK application
 * follows its inline fast path.
 */

#ifndef DOCA_COMPAT_FAST_H
#define DOCA_COMPAT_FAST_H

#include <stdint.h>

#include <rte_comch_types.h>

#include <doca_error.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_task;
struct doca_comch_producer;
struct doca_comch_producer_task_send;
struct doca_buf;

/** Branch hint of the inline calls (DOCA programs need not define likely()). */
#define DOCA_COMPAT_LIKELY(x) __builtin_expect(!!(x), 1)

/** @cond DOCA_COMPAT_RTE_COMCH */
/* rte_comch's, documented in its headers (experimental there). */
struct rte_comch_pe;
struct rte_comch_task;
struct rte_comch_task_send;
struct rte_comch_producer_task_send;
struct rte_comch_consumer_task_post_recv;
struct rte_comch_buf;

int rte_comch_pe_progress(struct rte_comch_pe *pe);
int rte_comch_task_submit(struct rte_comch_task *task);
int rte_comch_task_free(struct rte_comch_task *task);
int rte_comch_task_get_status(const struct rte_comch_task *task);
int rte_comch_task_set_user_data(struct rte_comch_task *task, union rte_comch_data user_data);
int rte_comch_task_get_user_data(const struct rte_comch_task *task,
				 union rte_comch_data *user_data);
struct rte_comch_task *rte_comch_task_send_as_task(struct rte_comch_task_send *task);
struct rte_comch_task *
rte_comch_producer_task_send_as_task(struct rte_comch_producer_task_send *task);
struct rte_comch_task *
rte_comch_consumer_task_post_recv_as_task(struct rte_comch_consumer_task_post_recv *task);
struct rte_comch_buf *
rte_comch_consumer_task_post_recv_get_buf(const struct rte_comch_consumer_task_post_recv *task);
int rte_comch_buf_reset_data_len(struct rte_comch_buf *buf);
/** @endcond */

/**
 * The DOCA error of a submission rte_comch_task_submit() refused with rc
 * other than 0 and -EAGAIN (doca_task_submit() answers those inline).
 *
 * @param task The task submitted (NULL if it was).
 * @param rc What rte_comch_task_submit() returned: a negative errno.
 * @return DOCA_ERROR_INVALID_VALUE for a NULL task; DOCA_ERROR_BAD_STATE for a
 *   task in flight or a context not running; the mapping of
 *   rte_comch_doca_error_from_errno() otherwise.
 */
doca_error_t
rte_comch_doca_task_submit_err(struct doca_task *task, int rc);

/**
 * The checked half of doca_comch_producer_task_send_alloc_init(): refuse a
 * handle that is not a live producer (a log line, -EINVAL), else answer what
 * rte_comch_producer_task_send_alloc_init() answers for its producer.
 *
 * @param producer The DOCA producer.
 * @param buf The buffer to send (rte_comch never writes through it).
 * @param imm_data The immediate data, or NULL.
 * @param imm_data_len Its length.
 * @param consumer_id The consumer to send to.
 * @param task Where the task goes.
 * @return 0, or a negative errno: rte_comch's, or -EINVAL for a bad handle.
 */
int
rte_comch_doca_producer_task_send_alloc_init(struct doca_comch_producer *producer,
					     const struct doca_buf *buf, const uint8_t *imm_data,
					     uint32_t imm_data_len, uint32_t consumer_id,
					     struct doca_comch_producer_task_send **task);

/**
 * The DOCA error of rte_comch_doca_producer_task_send_alloc_init()'s refusal.
 *
 * @param producer The DOCA producer it was given.
 * @param rc What it returned: a negative errno.
 * @return DOCA_ERROR_INVALID_VALUE for a bad handle or immediate data longer
 *   than the consumer takes; DOCA_ERROR_BAD_STATE if the producer is not
 *   running; the mapping of rte_comch_doca_error_from_errno() otherwise.
 */
doca_error_t
rte_comch_doca_producer_alloc_err(struct doca_comch_producer *producer, int rc);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_COMPAT_FAST_H */
