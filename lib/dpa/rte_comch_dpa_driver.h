/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef RTE_COMCH_DPA_DRIVER_H
#define RTE_COMCH_DPA_DRIVER_H

/**
 * @file
 * The software DPA runtime: calls for the drivers built on it (the dpa
 * driver's MsgQ), not for applications. Internal ABI: build with
 * ALLOW_INTERNAL_API. The runtime knows nothing of MsgQ: a driver names its
 * objects to DPA programs by handles the runtime keeps for it (endpoints),
 * posts to completion contexts, and holds a dpa (a user) while it needs it.
 *
 * Thread safety: rte_comch_dpa_cq_post(), _cq_reserve() and _cq_commit() may
 * be called from any number of CPU threads at once on one completion context
 * (posts are serialised by a lock of the context), while the context exists.
 * The handle calls may be called from any thread.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_compat.h>

#include <rte_comch_dpa.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Handle layout: kind (8 bits) | dpa tag (8) | generation (16, never 0) |
 * slot (32). The tag tells the dpas of a process apart; the generation, the
 * successive objects of one slot. The runtime's kinds are 'T' (threads), 'C'
 * (completion contexts) and 'M' (memory); a driver picks others for its own.
 */

/** A handle of the given kind, dpa tag, generation and slot. */
static inline rte_comch_dpa_handle_t
rte_comch_dpa_handle_make(uint8_t kind, uint8_t tag, uint16_t gen, uint32_t slot)
{
	return ((uint64_t)kind << 56) | ((uint64_t)tag << 48) | ((uint64_t)gen << 32) | slot;
}

/** The kind of a handle. */
static inline uint8_t
rte_comch_dpa_handle_kind(rte_comch_dpa_handle_t h)
{
	return (uint8_t)(h >> 56);
}

/** The tag of the dpa of a handle. */
static inline uint8_t
rte_comch_dpa_handle_tag(rte_comch_dpa_handle_t h)
{
	return (uint8_t)(h >> 48);
}

/** The generation of a handle. */
static inline uint16_t
rte_comch_dpa_handle_gen(rte_comch_dpa_handle_t h)
{
	return (uint16_t)(h >> 32);
}

/** The slot of a handle. */
static inline uint32_t
rte_comch_dpa_handle_slot(rte_comch_dpa_handle_t h)
{
	return (uint32_t)h;
}

/** The generation after gen: never 0, which no live object has. */
static inline uint16_t
rte_comch_dpa_next_gen(uint16_t gen)
{
	gen++;
	return gen == 0 ? 1 : gen;
}

/**
 * The dpa behind an accelerator handle (rte_comch_dpa_as_accel()).
 *
 * @param accel
 *   The handle a driver's conf carries.
 * @param func
 *   The caller's name, for the log line.
 * @return
 *   The dpa; NULL (logged) if accel is not a live dpa's.
 */
__rte_internal
struct rte_comch_dpa *
rte_comch_dpa_from_accel(struct rte_comch_accel *accel, const char *func);

/**
 * The tag of a dpa: the byte its handles carry, for logs and the handles a
 * driver makes.
 *
 * @param dpa
 *   A live dpa.
 * @return
 *   1 to 255.
 */
__rte_internal
uint8_t
rte_comch_dpa_tag(const struct rte_comch_dpa *dpa);

/**
 * Take (one more) use of a dpa: rte_comch_dpa_destroy() is refused (-EBUSY)
 * until every use is given back with rte_comch_dpa_user_put().
 *
 * @param dpa
 *   A live dpa.
 */
__rte_internal
void
rte_comch_dpa_user_get(struct rte_comch_dpa *dpa);

/**
 * Give back a use taken with rte_comch_dpa_user_get().
 *
 * @param dpa
 *   The dpa.
 */
__rte_internal
void
rte_comch_dpa_user_put(struct rte_comch_dpa *dpa);

/**
 * Whether the calling thread runs a DPA program (or an RPC).
 *
 * @return
 *   true inside a program; false on a CPU thread.
 */
__rte_internal
bool
rte_comch_dpa_in_program(void);

/**
 * The dpa of the program that called a device-side entry point.
 *
 * @param func
 *   The entry point's name, for the log line.
 * @return
 *   The dpa; NULL (logged) outside a DPA program.
 */
__rte_internal
struct rte_comch_dpa *
rte_comch_dpa_dev_caller(const char *func);

/**
 * Give a driver's object a handle that DPA programs of dpa name it by, checked
 * like the runtime's own (kind, dpa, slot, generation).
 *
 * @param dpa
 *   The dpa.
 * @param kind
 *   The driver's kind of object: none of the runtime's ('T', 'C', 'M').
 * @param obj
 *   The object; rte_comch_dpa_ep_lookup() returns it.
 * @param h
 *   Where the handle is written.
 * @return
 *   0; -ENOSPC (logged) if the dpa has no slot left.
 */
__rte_internal
int
rte_comch_dpa_ep_alloc(struct rte_comch_dpa *dpa, uint8_t kind, void *obj,
		       rte_comch_dpa_handle_t *h);

/**
 * Make a handle of rte_comch_dpa_ep_alloc() stale, then (on a CPU thread) wait
 * until no run that resolved it before is left: the object may go after.
 *
 * @param dpa
 *   The dpa.
 * @param h
 *   The handle.
 */
__rte_internal
void
rte_comch_dpa_ep_free(struct rte_comch_dpa *dpa, rte_comch_dpa_handle_t h);

/**
 * The object a driver's handle names.
 *
 * @param dpa
 *   The dpa of the program that looks it up.
 * @param h
 *   The handle.
 * @param kind
 *   The kind it must have.
 * @param name
 *   The kind's name, for the log line.
 * @param func
 *   The caller's name, for the log line.
 * @return
 *   The object; NULL (logged) if the handle is of another kind or dpa, out of
 *   range, or stale.
 */
__rte_internal
void *
rte_comch_dpa_ep_lookup(struct rte_comch_dpa *dpa, rte_comch_dpa_handle_t h, uint8_t kind,
			const char *name, const char *func);

/**
 * Check a completion context a caller gives: not NULL, not destroyed.
 *
 * @param cq
 *   The completion context.
 * @param func
 *   The caller's name, for the log line.
 * @return
 *   0; -EINVAL (logged) otherwise.
 */
__rte_internal
int
rte_comch_dpa_cq_check(const struct rte_comch_dpa_cq *cq, const char *func);

/**
 * Whether a completion context exists (was not destroyed).
 *
 * @param cq
 *   A completion context, not NULL.
 * @return
 *   true while it exists.
 */
__rte_internal
bool
rte_comch_dpa_cq_is_live(const struct rte_comch_dpa_cq *cq);

/**
 * The dpa a completion context belongs to.
 *
 * @param cq
 *   A completion context, not NULL.
 * @return
 *   Its dpa.
 */
__rte_internal
struct rte_comch_dpa *
rte_comch_dpa_cq_get_dpa(const struct rte_comch_dpa_cq *cq);

/**
 * The longest immediate data the context's MsgQ consumers accept (its conf).
 *
 * @param cq
 *   A completion context, not NULL.
 * @return
 *   The length, in bytes.
 */
__rte_internal
uint32_t
rte_comch_dpa_cq_imm_len(const struct rte_comch_dpa_cq *cq);

/**
 * Count one more consumer on a completion context, up to its max_consumers
 * (its conf; 0: no limit). The context is not destroyed under one.
 *
 * @param cq
 *   A completion context, not NULL.
 * @return
 *   0; -ENOSPC if it has its max_consumers already (nothing counted).
 */
__rte_internal
int
rte_comch_dpa_cq_consumer_attach(struct rte_comch_dpa_cq *cq);

/**
 * Count one consumer less on a completion context.
 *
 * @param cq
 *   A completion context, not NULL, with a consumer counted.
 */
__rte_internal
void
rte_comch_dpa_cq_consumer_detach(struct rte_comch_dpa_cq *cq);

/**
 * Reserve room for one entry in a completion context, below limit entries
 * not yet acknowledged: the first half of rte_comch_dpa_cq_post(), for a
 * caller that checks more before it commits. On success the context's lock
 * is held until rte_comch_dpa_cq_commit().
 *
 * @param cq
 *   The completion context, not NULL.
 * @param limit
 *   Most entries not yet acknowledged (at most the context's size).
 * @param func
 *   The caller's name, for the log line.
 * @param entry
 *   On success, the entry to fill in place before rte_comch_dpa_cq_commit();
 *   not NULL.
 * @return
 *   0, locked; -EAGAIN (not locked) if there is no room; -EINVAL (not locked,
 *   logged) if the context was destroyed.
 */
__rte_internal
int
rte_comch_dpa_cq_reserve(struct rte_comch_dpa_cq *cq, uint64_t limit, const char *func,
			 struct rte_comch_dpa_cqe **entry);

/**
 * Publish the entry reserved by rte_comch_dpa_cq_reserve() and filled by the
 * caller, unlock, and trigger the attached thread if the context was armed.
 *
 * @param cq
 *   The completion context.
 */
__rte_internal
void
rte_comch_dpa_cq_commit(struct rte_comch_dpa_cq *cq);

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
