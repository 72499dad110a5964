/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef RTE_COMCH_DPA_TYPES_H
#define RTE_COMCH_DPA_TYPES_H

/**
 * @file
 * Types shared by the CPU side (rte_comch_dpa.h), the DPA programs
 * (rte_comch_dpa_dev.h) and the drivers (rte_comch_dpa_driver.h) of the
 * software DPA.
 *
 * Thread safety: plain types; a struct rte_comch_dpa_cqe belongs to whoever
 * holds it.
 */

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * A DPA object as a DPA program sees it: a thread, a completion context or
 * a buffer of DPA memory.
 *
 * An opaque 64-bit value, never a pointer: it carries the object's kind, the
 * dpa it belongs to, its slot and the generation of that slot, so that a
 * handle of a destroyed object (stale), of another kind or dpa, or made up,
 * is refused with -EINVAL rather than followed. 0 is never a valid handle.
 */
typedef uint64_t rte_comch_dpa_handle_t;

/** A handle no object has. */
#define RTE_COMCH_DPA_HANDLE_INVALID ((rte_comch_dpa_handle_t)0)

/** The entry function of a DPA thread: called with the thread's argument on every run. */
typedef void (*rte_comch_dpa_func_t)(uint64_t arg);

/** Most bytes of immediate data in a completion entry. */
#define RTE_COMCH_DPA_IMM_MAX 32

/**
 * A completion entry: what a CPU-side driver posts to a completion context
 * and what a DPA program receives, by copy, from rte_comch_dpa_dev_get_completion().
 * Programs read it with the rte_comch_dpa_dev_get_completion_*() accessors.
 */
struct rte_comch_dpa_cqe {
	uint64_t user_data;    /**< The producer's (or completion's) user data. */
	uint32_t producer_id;  /**< The CPU producer that sent the message. */
	uint32_t imm_len;      /**< Bytes of imm used, 0 to RTE_COMCH_DPA_IMM_MAX. */
	uint8_t imm[RTE_COMCH_DPA_IMM_MAX]; /**< Immediate data. */
};

#ifdef __cplusplus
}
#endif

#endif /* RTE_COMCH_DPA_TYPES_H */
