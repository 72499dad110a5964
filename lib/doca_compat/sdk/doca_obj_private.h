/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef DOCA_OBJ_PRIVATE_H
#define DOCA_OBJ_PRIVATE_H

/*
 * What both libraries of the DOCA layer share: the SDK utilities
 * (librte_comch_doca_sdk: doca_log, doca_argp, doca_error) and the Comch
 * mapping (librte_comch_doca). The log type, the argument checks and the
 * objects' registry; doca_obj.c is compiled into each library, which so has
 * its own registry (as lib/common is compiled into each). Not installed.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_log.h>

#include "comch_objreg.h"

#include "doca_error.h"
#include "doca_types.h"

/* Internal: never exported, whatever the version script's doca_* pattern says. */
#define DC_INTERNAL __attribute__((visibility("hidden")))
/*
 * The registry calls, exported by librte_comch_doca_sdk (the INTERNAL node of
 * its version.map) for librte_comch_doca: the layer's two libraries keep one
 * registry, so that a handle of one's kind passed to the other's calls is
 * named for what it is.
 */
#define DC_SHARED __attribute__((visibility("default")))

extern int doca_compat_logtype DC_INTERNAL;
#define DC_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, doca_compat_logtype, "doca: %s(): " fmt "\n", __func__, \
		##__VA_ARGS__)

/* Return DOCA_ERROR_INVALID_VALUE, with a log line, when a mandatory argument is NULL. */
#define DC_NULL_ARG(arg) \
	do { \
		if ((arg) == NULL) { \
			DC_LOG(ERR, "%s is NULL", #arg); \
			return DOCA_ERROR_INVALID_VALUE; \
		} \
	} while (0)

/* ------------------------------------------------------------------ objects */

/*
 * Every object the layer allocates itself starts with a struct dc_obj: a magic
 * word that names its kind, and its entry in the layer's registry of live
 * objects (lib/common/comch_objreg.h: the layer's own registry, apart from
 * rte_comch's), keyed by the handle. As in rte_comch (comch_private.h):
 *  - calls off the hot path (create on a parent, destroy, start, stop,
 *    configuration and their getters) check handles against the registry
 *    (DC_OBJ_ARG, DC_BAD_OBJ): a destroyed object's handle, a handle of
 *    another kind (a doca_pe, which is an rte_comch object, passed as a
 *    doca_mmap) or a pointer to anything else is refused with
 *    DOCA_ERROR_INVALID_VALUE and a log line, and the memory it points to is
 *    never read;
 *  - per-message calls (task allocation, buffer allocation, the endpoint's
 *    send and receive, getters used in callbacks or polled) check the magic
 *    word inline (DC_OBJ_ARG_FAST, DC_BAD_OBJ_FAST);
 *  - a destroyed object's memory goes to the registry's quarantine
 *    (dc_obj_retire()) instead of back to malloc: a new object never takes the
 *    address of one destroyed just before (a stale handle would name it), and
 *    the inline check of a stale handle reads memory still the layer's.
 * Objects that live as long as the process (devinfos, log backends) are in
 * the registry too, so that a handle of another kind is refused the same way.
 */
enum {
	DC_KIND_DEAD = 0xdeadd0cau,
	DC_KIND_DEVINFO = 0x444f4301u,	/* "DOC" and a number */
	DC_KIND_DEVINFO_LIST,
	DC_KIND_DEV,
	DC_KIND_DEVINFO_REP,
	DC_KIND_DEVINFO_REP_LIST,
	DC_KIND_DEV_REP,
	DC_KIND_MMAP,
	DC_KIND_INVENTORY,
	DC_KIND_CC_EP,
	DC_KIND_ARGP_PARAM,
	DC_KIND_LOG_BACKEND,
	/* The DPA and MsgQ objects (doca_dpa.c, doca_comch_msgq.c). */
	DC_KIND_DPA,
	DC_KIND_DPA_THREAD,
	DC_KIND_DPA_COMPLETION,
	DC_KIND_DPA_NOTIFICATION,
	DC_KIND_MSGQ,
	DC_KIND_CONSUMER_COMPLETION,
	DC_KIND_BUF_POOL,
	/* Contexts: DC_KIND_CTX | enum dc_ctx_kind. */
	DC_KIND_CTX = 0x444f4400u,
	DC_KIND_CTX_KINDS = 0xffu,
	/* Not a kind: asks for a context of any kind. */
	DC_KIND_CTX_ANY = 0x444f44ffu,
};

/* The kinds of contexts (DC_KIND_CTX | kind). */
enum dc_ctx_kind {
	DC_CTX_SERVER,
	DC_CTX_CLIENT,
	DC_CTX_PRODUCER,
	DC_CTX_CONSUMER,
};

#define DC_KIND_SERVER (DC_KIND_CTX | DC_CTX_SERVER)
#define DC_KIND_CLIENT (DC_KIND_CTX | DC_CTX_CLIENT)
#define DC_KIND_PRODUCER (DC_KIND_CTX | DC_CTX_PRODUCER)
#define DC_KIND_CONSUMER (DC_KIND_CTX | DC_CTX_CONSUMER)

/*
 * The head of every object of the layer, at its handle's address (the magic
 * word is read there), but for the lists, whose handle is the array after it.
 */
struct dc_obj {
	uint32_t magic;			/* a DC_KIND_*, DC_KIND_DEAD once destroyed */
	struct comch_objreg_entry reg;	/* in the registry while live */
};

/* Whether the kind of an object is the one wanted. */
static inline bool
dc_kind_ok(uint32_t kind, uint32_t want)
{
	return kind == want || (want == DC_KIND_CTX_ANY &&
				(kind & ~(uint32_t)DC_KIND_CTX_KINDS) == DC_KIND_CTX);
}

/*
 * A new object is the application's: live, of kind, in the registry at handle
 * (the address the application gets: obj itself, or a list's array).
 */
DC_SHARED void
dc_obj_publish(struct dc_obj *obj, const void *handle, uint32_t kind);
/*
 * The end of a published object: dead, out of the registry, and block (the
 * allocation that holds it) in the quarantine instead of freed.
 */
DC_SHARED void
dc_obj_retire(struct dc_obj *obj, void *block);
/* Out of the registry and dead, memory left to the caller (that quarantines its block). */
DC_SHARED void
dc_obj_remove(struct dc_obj *obj);
/*
 * Log why (for func, the argument's name), and return true, unless handle is
 * a live object of the kind wanted: registry, ask the registry (reads nothing
 * at handle); else read the magic word.
 */
DC_SHARED bool
dc_obj_bad(const char *func, const char *name, const void *handle, uint32_t want, bool registry);

/* True, with a log line, if h is not a live object of kind want: from the registry. */
#define DC_BAD_OBJ(h, want) \
	(((h) == NULL || !dc_kind_ok(comch_objreg_kind(h), (want))) && \
	 dc_obj_bad(__func__, #h, (h), (want), true))
/*
 * The same from the magic word, inline: for the per-message calls. dc_obj_bad()
 * only logs here (it reads the same word, so it finds the handle bad too): its
 * answer is not waited for, which lets the compiler keep the per-message call
 * free of the registers the logging call would need saved.
 */
#define DC_BAD_OBJ_FAST(h, want) \
	(unlikely((h) == NULL || \
		  !dc_kind_ok(((const struct dc_obj *)(const void *)(h))->magic, (want))) && \
	 (dc_obj_bad(__func__, #h, (h), (want), false), true))
/* Return DOCA_ERROR_INVALID_VALUE, with a log line, unless h is a live want. */
#define DC_OBJ_ARG(h, want) \
	do { \
		if (DC_BAD_OBJ(h, want)) \
			return DOCA_ERROR_INVALID_VALUE; \
	} while (0)
#define DC_OBJ_ARG_FAST(h, want) \
	do { \
		if (DC_BAD_OBJ_FAST(h, want)) \
			return DOCA_ERROR_INVALID_VALUE; \
	} while (0)
/* Assert that a struct starts with its struct dc_obj: the inline check reads it there. */
#define DC_OBJ_FIRST(type, member) \
	_Static_assert(offsetof(type, member) == 0, #type " starts with its struct dc_obj")

#endif /* DOCA_OBJ_PRIVATE_H */
