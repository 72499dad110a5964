/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef RTE_COMCH_FP_H
#define RTE_COMCH_FP_H

/**
 * @file
 * The fast path's burst API: types, and the fast-path objects its inline calls
 * go through.
 *
 * Beside the task API (post-recv and send tasks, a callback each), a producer
 * and a consumer can move messages in bursts, as DPDK's ethdev and dmadev do:
 * an array of messages in, a count out, no per-message allocation, callback or
 * free. See rte_comch_producer_send_burst() and rte_comch_consumer_recv_burst().
 *
 * Which to use: the burst API for message rate (one call moves many
 * messages, nothing is allocated, the application keeps its own buffers and
 * cookies); the task API for DOCA-style code, per-message user data and
 * callbacks, and rte_comch_buf reference counting. A producer or consumer uses
 * one of them at a time, chosen while it is IDLE.
 */

#include <stdint.h>

#include <rte_comch_types.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Longest immediate data of a fast-path message, in bytes. */
#define RTE_COMCH_MAX_IMM_DATA_LEN 32

/** A message of a burst send. */
struct rte_comch_fp_msg {
	const void *data;     /**< Bytes to copy into the consumer's buffer; NULL if len is 0. */
	uint32_t len;         /**< Their length; 0: immediate data only. */
	uint32_t imm_len;     /**< Bytes of imm that count, at most RTE_COMCH_MAX_IMM_DATA_LEN. */
	uint8_t imm[RTE_COMCH_MAX_IMM_DATA_LEN]; /**< Immediate data. */
};

/**
 * A receive buffer of a burst post: where a message lands, and the room there.
 * (A post-recv task derives the same from its buffer: the tail of its data,
 * and the room to the end of its piece.)
 */
struct rte_comch_fp_post {
	void *addr;           /**< In the consumer's mmap; NULL with len 0: immediate data only. */
	uint64_t len;         /**< Bytes a producer may write there (longer: -EMSGSIZE). */
	uint64_t cookie;      /**< The application's; returned with the buffer's completion. */
};

/** A completed receive: a buffer filled (status 0), or given back unfilled. */
struct rte_comch_fp_cpl {
	uint64_t cookie;      /**< As posted. */
	uint32_t len;         /**< Bytes written, from the address posted. */
	uint32_t producer_id; /**< The producer that wrote it (if status is 0). */
	int32_t status;       /**< 0, or why the buffer comes back unfilled (see recv_burst). */
	uint32_t imm_len;     /**< Bytes of imm that count. */
	uint8_t imm[RTE_COMCH_MAX_IMM_DATA_LEN]; /**< Immediate data. */
	uint64_t reserved;    /**< A completion fills one cache line. */
};

struct rte_comch_mmap;

/**
 * What a producer's inline burst calls go through; applications call
 * rte_comch_producer_send_burst() and rte_comch_producer_completed_burst()
 * instead.
 *
 * @internal The first thing in a producer, set by the library at each state
 * change.
 */
struct rte_comch_producer_fp {
	/**
	 * rte_comch_producer_send_burst() of obj: the library's send, or, outside
	 * burst mode, a call that refuses with -EBUSY.
	 */
	int (*send_burst)(void *obj, uint32_t consumer_id, const struct rte_comch_mmap *mmap,
			  const struct rte_comch_fp_msg *msgs, uint16_t nb);
	/** rte_comch_producer_completed_burst() of obj. */
	int (*completed_burst)(void *obj, int *status, uint16_t max);
	/** The producer itself, passed to both calls. */
	void *obj;
};

/**
 * What a consumer's inline burst calls go through; applications call
 * rte_comch_consumer_post_burst() and rte_comch_consumer_recv_burst() instead.
 *
 * @internal The first thing in a consumer, set by the library at each state
 * change.
 */
struct rte_comch_consumer_fp {
	/**
	 * rte_comch_consumer_post_burst() of obj: the library's post, or, outside
	 * burst mode, a call that refuses with -EBUSY.
	 */
	int (*post_burst)(void *obj, const struct rte_comch_fp_post *posts, uint16_t nb);
	/** rte_comch_consumer_recv_burst() of obj; outside burst mode, -EBUSY. */
	int (*recv_burst)(void *obj, struct rte_comch_fp_cpl *cpl, uint16_t max);
	/** The consumer itself, passed to both calls. */
	void *obj;
};

#ifdef __cplusplus
}
#endif

#endif /* RTE_COMCH_FP_H */
