/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef DOCA_COMPAT_PRIVATE_H
#define DOCA_COMPAT_PRIVATE_H

/*
 * What the files of the DOCA compatibility layer share. Not installed.
 *
 * The layer is thin: a DOCA object is either the rte_comch object itself, cast
 * (connection, tasks, progress engine, buffers), which rte_comch checks, or a
 * small object of the layer (see "objects" below): a device handle, a
 * representor, a device list, an mmap or inventory wrapper, a legacy endpoint,
 * or, for contexts, a wrapper that holds the DOCA callbacks (whose signatures
 * differ from rte_comch's) and the DOCA user data. A wrapped context's
 * rte_comch user data points at its wrapper, which is how a callback or
 * doca_task_get_ctx() finds its way back.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_log.h>

#include <rte_comch.h>

#include "comch_objreg.h"

#include "doca_ctx.h"
#include "doca_error.h"
#include "doca_types.h"

/* Internal: never exported, whatever the version script's doca_* pattern says. */
#define DC_INTERNAL __attribute__((visibility("hidden")))

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
	/* Contexts: DC_KIND_CTX | enum dc_ctx_kind. */
	DC_KIND_CTX = 0x444f4400u,
	DC_KIND_CTX_KINDS = 0xffu,
	/* Not a kind: asks for a context of any kind. */
	DC_KIND_CTX_ANY = 0x444f44ffu,
};

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
DC_INTERNAL void
dc_obj_publish(struct dc_obj *obj, const void *handle, uint32_t kind);
/*
 * The end of a published object: dead, out of the registry, and block (the
 * allocation that holds it) in the quarantine instead of freed.
 */
DC_INTERNAL void
dc_obj_retire(struct dc_obj *obj, void *block);
/* Out of the registry and dead, memory left to the caller (that quarantines its block). */
DC_INTERNAL void
dc_obj_remove(struct dc_obj *obj);
/*
 * Log why (for func, the argument's name), and return true, unless handle is
 * a live object of the kind wanted: registry, ask the registry (reads nothing
 * at handle); else read the magic word.
 */
DC_INTERNAL bool
dc_obj_bad(const char *func, const char *name, const void *handle, uint32_t want, bool registry);

/* True, with a log line, if h is not a live object of kind want: from the registry. */
#define DC_BAD_OBJ(h, want) \
	(((h) == NULL || !dc_kind_ok(comch_objreg_kind(h), (want))) && \
	 dc_obj_bad(__func__, #h, (h), (want), true))
/* The same from the magic word, inline: for the per-message calls. */
#define DC_BAD_OBJ_FAST(h, want) \
	(unlikely((h) == NULL || \
		  !dc_kind_ok(((const struct dc_obj *)(const void *)(h))->magic, (want))) && \
	 dc_obj_bad(__func__, #h, (h), (want), false))
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

/*
 * Start EAL once per process, on the first call that needs it (DOCA programs
 * never call rte_eal_init()). Arguments: RTE_COMCH_DOCA_EAL_ARGS if set, else
 * "--no-huge -m 512 --no-pci --no-shconf --file-prefix=doca-<pid> --lcores=0@(<allowed cpus>)
 * --no-telemetry --log-level=lib.eal:error".
 * If the application already started EAL, that EAL is used. With the default
 * arguments, the runtime directory is removed at exit. Thread-safe.
 * Returns DOCA_SUCCESS or DOCA_ERROR_INITIALIZATION (with a log line).
 */
DC_INTERNAL doca_error_t
doca_compat_eal_init(void);

/*
 * doca_compat_eal_init(), then make the calling thread an lcore if it is not
 * one (rte_thread_register()), for the objects that belong to an lcore; the
 * lcore is unregistered when the thread ends. DOCA_ERROR_FULL if no lcore is left.
 */
DC_INTERNAL doca_error_t
doca_compat_thread_init(void);

/* Split an EAL argument string on blanks into argv (at most max entries; the
 * strings point into buf, which is modified). Returns argc or -E2BIG. */
DC_INTERNAL int
doca_compat_eal_split(char *buf, char **argv, int max);

/* Which role a device is bound to, or may still be bound to. */
enum doca_compat_role {
	DOCA_COMPAT_ROLE_ANY = -1,	/* not pinned: host until something needs the BlueField side */
	DOCA_COMPAT_ROLE_HOST = RTE_COMCH_ROLE_HOST,
	DOCA_COMPAT_ROLE_DPU = RTE_COMCH_ROLE_DPU,
};

struct doca_dev;
struct doca_dev_rep;

/*
 * The rte_comch device behind a DOCA device, opened in the wanted role
 * (DOCA_COMPAT_ROLE_ANY: whatever it is bound to), with a hold on the device
 * taken in the same locked section, for a caller about to create an object on
 * it: its side can no longer change. A device not pinned to a role by its
 * mapping opens as the host side and is reopened as the side a call needs
 * (a representor or a server: the BlueField side) while nothing holds it.
 * Returns NULL with a log line if the role cannot be had. dev is a live device
 * (the caller checked it). The caller releases the hold
 * (doca_compat_dev_release()) when its object goes, or if it fails.
 */
DC_INTERNAL struct rte_comch_dev *
doca_compat_dev_get_held(struct doca_dev *dev, enum doca_compat_role want);

/* Release a hold of doca_compat_dev_get_held(). */
DC_INTERNAL void
doca_compat_dev_release(struct doca_dev *dev);

/*
 * The same for an mmap: a hold that does not keep doca_dev_close() from
 * succeeding. A device closed while mmaps hold it is closed for the program
 * at once, and for good when the last of them releases it (DOCA programs
 * close the device before they destroy its mmap).
 */
DC_INTERNAL struct rte_comch_dev *
doca_compat_dev_hold_memory(struct doca_dev *dev);
DC_INTERNAL void
doca_compat_dev_release_memory(struct doca_dev *dev);

/* The rte_comch representor behind a DOCA representor, and its DOCA device. */
DC_INTERNAL struct rte_comch_dev_rep *
doca_compat_rep_get(struct doca_dev_rep *rep);
DC_INTERNAL struct doca_dev *
doca_compat_rep_dev(struct doca_dev_rep *rep);

/* ----------------------------------------------------------------- contexts */

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
 * The DOCA side of a context: the first member of every context wrapper, so
 * that a server's handle and its context's are one address, one registry entry.
 */
struct doca_ctx {
	struct dc_obj obj;		/* first: DC_KIND_CTX | its kind */
	struct rte_comch_ctx *rctx;
	union doca_data user_data;
	doca_ctx_state_changed_callback_t state_cb;
	struct doca_dev *dev;		/* held while the context exists */
	struct doca_dpa *dpa;		/* its datapath is on this DPA (doca_comch_msgq.c) */
};
DC_OBJ_FIRST(struct doca_ctx, obj);

/*
 * Tie a wrapper to its rte_comch context (the context's user data points back)
 * and publish it. dev, if not NULL, is held by the caller
 * (doca_compat_dev_get_held()) and released by dc_ctx_fini().
 */
DC_INTERNAL void
dc_ctx_init(struct doca_ctx *ctx, enum dc_ctx_kind kind, struct rte_comch_ctx *rctx,
	    struct doca_dev *dev);
/* Undo dc_ctx_init(), the wrapper's end: its memory (wrapper) to the quarantine. */
DC_INTERNAL void
dc_ctx_fini(struct doca_ctx *ctx, void *wrapper);
/* The wrapper of an rte_comch context, or NULL if it has none. */
DC_INTERNAL struct doca_ctx *
dc_ctx_of(const struct rte_comch_ctx *rctx);
/* Convert between the two user-data unions (same layout, different names). */
DC_INTERNAL union doca_data
dc_data_from(union rte_comch_data d);
DC_INTERNAL union rte_comch_data
dc_data_to(union doca_data d);

/*
 * The DOCA error of rc, from a call on rctx that needs the context in state
 * 'needed': rte_comch's -EBUSY means DOCA_ERROR_BAD_STATE when the context is
 * not in that state, DOCA_ERROR_IN_USE otherwise.
 */
DC_INTERNAL doca_error_t
dc_ctx_err_slow(const struct rte_comch_ctx *rctx, int rc, enum rte_comch_ctx_state needed);
/*
 * The same, with success answered inline and rctx (often a call) evaluated
 * only on an error: per-message calls go through it.
 */
#define dc_ctx_err(rctx, rc, needed) \
	__extension__({ \
		int dc_rc_ = (rc); \
		likely(dc_rc_ == 0) ? DOCA_SUCCESS : dc_ctx_err_slow((rctx), dc_rc_, (needed)); \
	})

/* ------------------------------------------------------------------ the DPA */

struct doca_mmap;

/*
 * Stop a context whose datapath is on a DPA (ctx->dpa, doca_comch_msgq.c): at
 * once, as DOCA stops one, the layer progressing the engine it runs on.
 */
DC_INTERNAL doca_error_t
dc_dpa_ctx_stop(struct doca_ctx *ctx);

/*
 * Before an mmap starts: add to it the DPA device of its device, if a DPA was
 * created on that device (doca_dpa.c), so that DPA programs can copy to and
 * from it. 0 or a negative errno of rte_comch_mmap_add_dev().
 */
DC_INTERNAL int
dc_dpa_mmap_add_dpa_dev(struct doca_mmap *mmap);

#endif /* DOCA_COMPAT_PRIVATE_H */
