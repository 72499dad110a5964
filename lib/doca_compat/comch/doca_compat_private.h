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
 * small object of the layer (see "objects" in doca_obj_private.h): a device handle, a
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

#include "doca_ctx.h"
#include "doca_error.h"
#include "doca_types.h"

#include "doca_obj_private.h"

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
/*
 * Convert between the two user-data unions (same layout, different names):
 * inline, as every completion passes one.
 */
static inline union doca_data
dc_data_from(union rte_comch_data d)
{
	return (union doca_data){ .u64 = d.u64 };
}

static inline union rte_comch_data
dc_data_to(union doca_data d)
{
	return (union rte_comch_data){ .u64 = d.u64 };
}

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

/*
 * rte_comch_doca_error_from_errno() with success answered inline (it searches
 * a table otherwise): per-message calls go through it.
 */
static inline doca_error_t
dc_err(int rc)
{
	return likely(rc == 0) ? DOCA_SUCCESS : rte_comch_doca_error_from_errno(rc);
}

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
