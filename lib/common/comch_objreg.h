/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef COMCH_OBJREG_H
#define COMCH_OBJREG_H

/**
 * @file
 * A registry of the live objects a library hands out, and a quarantine of the
 * memory of those it destroyed. Internal: compiled into each library that
 * uses it (librte_comch, the DOCA layer), each with its own registry; never
 * installed.
 *
 * Handles are pointers, so a handle kept after its object was destroyed
 * (a "stale" handle) is a pointer to freed memory. The registry makes the
 * calls that are not on the hot path (destroy, create on a parent, start, stop,
 * configuration) refuse such a handle without reading the memory it points to:
 * they look the handle up among the live objects. The quarantine keeps a
 * destroyed object's memory out of malloc's hands for a while, so that:
 *  - a new object does not get the address of one destroyed just before, which
 *    would turn a stale handle into a handle of the new object (a double
 *    destroy would then destroy the new one);
 *  - the per-message calls, which check a magic word inline instead of asking
 *    the registry, read memory that is still the library's.
 * The quarantine is bounded (COMCH_OBJREG_QUARANTINE objects and
 * COMCH_OBJREG_QUARANTINE_BYTES bytes, the oldest freed first): a stale handle
 * is refused reliably until that many objects were destroyed after it; the
 * registry check stays reliable after that unless its address went to a new
 * object of the same kind.
 *
 * Thread-safe: one lock per registry; nothing here is on a hot path.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <bsd/sys/tree.h>

/** Destroyed objects whose memory is kept back. */
#define COMCH_OBJREG_QUARANTINE 1024
/** Bytes kept back at most; a larger block is freed at once. */
#define COMCH_OBJREG_QUARANTINE_BYTES (4u << 20)

/** A live object's entry in the registry: a member of the object. */
struct comch_objreg_entry {
	RB_ENTRY(comch_objreg_entry) node;
	uintptr_t key;   /**< The address handles are checked at. */
	uint32_t kind;   /**< What the object is, in the caller's numbering (never 0). */
};

/**
 * Enter a new object: handles whose check address is key are of kind (not 0)
 * from now on. An entry with the same key must not be live.
 */
void comch_objreg_add(struct comch_objreg_entry *e, const void *key, uint32_t kind);

/** The kind of the live object entered at key, or 0: reads no memory at key. */
uint32_t comch_objreg_kind(const void *key);

/**
 * Whether key points into memory the quarantine holds: an object destroyed
 * not long ago. For error messages only.
 */
bool comch_objreg_retired(const void *key);

/**
 * Take an object out of the registry and hand its memory (block, from
 * malloc/calloc/aligned_alloc; e lies in it or not) to the quarantine, which
 * frees it later. Its handles are refused from now on.
 */
void comch_objreg_retire(struct comch_objreg_entry *e, void *block);

/**
 * Take an object out of the registry, its memory to be handed to the
 * quarantine later (comch_objreg_quarantine()): an object the application
 * destroyed that the library still needs for a while.
 */
void comch_objreg_remove(struct comch_objreg_entry *e);

/**
 * Hand memory that stale handles may point into (a pool of tasks, an object
 * taken out with comch_objreg_remove()) to the quarantine, which frees it
 * later. NULL is ignored.
 */
void comch_objreg_quarantine(void *block);

/**
 * What the registry holds now: live objects, and blocks and bytes in quarantine
 * (the fields of the libraries' rte_*_obj_stats_get()).
 */
void comch_objreg_stats(uint32_t *live, uint32_t *quarantined, uint64_t *bytes);

/*
 * The objects of the libraries carry a magic word (their kind while live) at the
 * address they are entered at; the helpers below keep the word and the registry
 * in step.
 */

/** The magic word of a destroyed object. */
#define COMCH_OBJREG_DEAD 0xdeadc0deu

/*
 * Mark an object dead. Volatile: a plain store to memory about to be handed
 * away is one the compiler may leave out.
 */
static inline void
comch_obj_kill(uint32_t *magic)
{
	*(volatile uint32_t *)magic = COMCH_OBJREG_DEAD;
}

/** A new object is the application's: enter it (its magic word set) in the registry. */
static inline void
comch_obj_publish(struct comch_objreg_entry *reg, const uint32_t *magic)
{
	comch_objreg_add(reg, magic, *magic);
}

/**
 * The end of a published object: dead, out of the registry, and its memory
 * (block: the allocation that holds it) in the quarantine instead of freed.
 */
static inline void
comch_obj_retire(struct comch_objreg_entry *reg, uint32_t *magic, void *block)
{
	comch_obj_kill(magic);
	comch_objreg_retire(reg, block);
}

#endif /* COMCH_OBJREG_H */
