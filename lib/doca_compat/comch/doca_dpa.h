/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef DOCA_COMPAT_DPA_H
#define DOCA_COMPAT_DPA_H

/**
 * @file
 * DOCA compatibility layer: the CPU side of DOCA DPA, over the software DPA of
 * rte_comch (the "dpa" driver, rte_comch_dpa.h).
 *
 * A doca_dpa is an rte_comch_dpa on the DPA device of a DOCA device: the layer
 * opens a "dpa:" rte_comch device next to the device's own the first time a
 * DPA or a MsgQ is created on it, and keeps it open while the process runs.
 * Its execution units are threads of their own (RTE_COMCH_DOCA_DPA_UNITS of
 * them, default 1), which may run on any CPU the process is allowed.
 *
 * DPA programs are C functions of the same program, built with the host
 * compiler (doca_dpa_dev.h): what dpacc would build and embed is linked in,
 * and a doca_dpa_func_t names a function directly. The application object
 * that dpacc generates (the struct doca_dpa_app pointer a program passes to
 * doca_dpa_set_app()) is one variable the build defines, e.g.
 * `struct doca_dpa_app *my_app;`: its value is not used.
 *
 * Threads, completion contexts and notification completions are made on the
 * CPU and named by programs by their handles (doca_dpa_types.h); DPA memory is
 * process memory, and its device addresses are process addresses.
 *
 * Thread safety: as rte_comch_dpa.h: control calls from any CPU thread, one
 * at a time per object, never from a DPA program; the copies from any thread.
 */

#include <stddef.h>
#include <stdint.h>

#include <doca_dpa_types.h>
#include <doca_error.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_ctx;
struct doca_dev;
struct doca_devinfo;
struct doca_mmap;

/** A DPA of a device. */
struct doca_dpa;
/** A DPA thread: an entry function, its argument and local storage. */
struct doca_dpa_thread;
/** A DPA completion context: entries a program takes (a DPA producer's completions). */
struct doca_dpa_completion;
/** What a program names to wake a DPA thread (doca_dpa_dev_thread_notify()). */
struct doca_dpa_notification_completion;
/** The DPA application dpacc builds; here a token the layer does not read. */
struct doca_dpa_app;

/**
 * The type of a DPA function (a thread's entry, an RPC). Programs declare their
 * functions with it on the CPU side (`doca_dpa_func_t my_kernel;`) and define
 * them in their device sources; a thread's entry takes one uint64_t argument.
 */
typedef void(doca_dpa_func_t)(void);

/* --------------------------------------------------------------- the DPA */

/**
 * Whether DPAs can be created on a device: always, the software DPA needs
 * nothing of it.
 * @param devinfo The device.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if devinfo is not a live devinfo.
 */
doca_error_t
doca_dpa_cap_is_supported(const struct doca_devinfo *devinfo);

/**
 * Create a DPA on a device, stopped, with no objects.
 * @param dev An open device; it stays in use (doca_dev_close() says IN_USE) until
 *   the DPA is destroyed.
 * @param dpa Set to the DPA.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (NULL, not a live device,
 *   RTE_COMCH_DOCA_DPA_UNITS not 1 to 64); DOCA_ERROR_NO_MEMORY; the error of
 *   opening the device's DPA device (DOCA_ERROR_INITIALIZATION if EAL cannot start).
 */
doca_error_t
doca_dpa_create(struct doca_dev *dev, struct doca_dpa **dpa);

/**
 * Destroy a DPA, stopping it if it runs. Its threads, completion contexts,
 * memory and the MsgQ contexts whose datapath it is must be gone.
 * @param dpa The DPA.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if dpa is not a live DPA;
 *   DOCA_ERROR_IN_USE while objects of it remain (it is left as it was);
 *   DOCA_ERROR_NOT_PERMITTED from a DPA program.
 */
doca_error_t
doca_dpa_destroy(struct doca_dpa *dpa);

/**
 * Set the DPA application (before the start). The software DPA runs the
 * program's functions directly: any value is accepted, NULL too.
 * @param dpa The DPA.
 * @param app What dpacc would have generated.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if dpa is not a live DPA;
 *   DOCA_ERROR_BAD_STATE if it is started.
 */
doca_error_t
doca_dpa_set_app(struct doca_dpa *dpa, struct doca_dpa_app *app);

/**
 * The application set with doca_dpa_set_app().
 * @param dpa The DPA.
 * @param app Set to it (NULL if none was set).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument or a dpa
 *   that is not live.
 */
doca_error_t
doca_dpa_get_app(struct doca_dpa *dpa, struct doca_dpa_app **app);

/**
 * Start the DPA: its execution units run the threads that are triggered.
 * @param dpa The DPA.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if dpa is not a live DPA;
 *   DOCA_ERROR_BAD_STATE if started already; DOCA_ERROR_NOT_PERMITTED from a
 *   DPA program; another error if a unit's thread cannot start.
 */
doca_error_t
doca_dpa_start(struct doca_dpa *dpa);

/**
 * Stop the DPA, waiting for the runs in progress. Triggers that arrive while
 * it is stopped run after the next start.
 * @param dpa The DPA.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if dpa is not a live DPA;
 *   DOCA_ERROR_BAD_STATE if not started; DOCA_ERROR_NOT_PERMITTED from a DPA program.
 */
doca_error_t
doca_dpa_stop(struct doca_dpa *dpa);

/* --------------------------------------------------------------- threads */

/**
 * Create a DPA thread: set its function (and storage) before its start.
 * @param dpa The DPA.
 * @param dpa_thread Set to the thread.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument or a dpa
 *   that is not live; DOCA_ERROR_NO_MEMORY.
 */
doca_error_t
doca_dpa_thread_create(struct doca_dpa *dpa, struct doca_dpa_thread **dpa_thread);

/**
 * Set the thread's entry function and the argument it is called with on every
 * run (before the start; required).
 * @param dpa_thread The thread.
 * @param func A function `void f(uint64_t arg)` of the program, declared as a
 *   doca_dpa_func_t.
 * @param arg Its argument (typically a device address of DPA memory).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (NULL, not a live thread);
 *   DOCA_ERROR_BAD_STATE if the thread is started.
 */
doca_error_t
doca_dpa_thread_set_func_arg(struct doca_dpa_thread *dpa_thread, doca_dpa_func_t *func,
			     uint64_t arg);

/**
 * Give the thread local storage: DPA memory the program finds with
 * doca_dpa_dev_thread_get_local_storage() on every run (before the start).
 * @param dpa_thread The thread.
 * @param dev_ptr A device address of DPA memory of the thread's DPA.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (NULL, not a live thread,
 *   dev_ptr not in a buffer of the DPA); DOCA_ERROR_BAD_STATE if started.
 */
doca_error_t
doca_dpa_thread_set_local_storage(struct doca_dpa_thread *dpa_thread,
				  doca_dpa_dev_uintptr_t dev_ptr);

/**
 * Start the thread: completion contexts can be attached to it, it cannot be
 * triggered yet (doca_dpa_thread_run()).
 * @param dpa_thread The thread.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (not a live thread, no
 *   function set); DOCA_ERROR_BAD_STATE if started already; DOCA_ERROR_FULL if
 *   the DPA has as many threads as it can; DOCA_ERROR_NOT_PERMITTED from a program.
 */
doca_error_t
doca_dpa_thread_start(struct doca_dpa_thread *dpa_thread);

/**
 * Let the started thread be triggered: by an entry on an armed completion
 * context attached to it, or a notification. Running it does not trigger it.
 * @param dpa_thread The thread.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if not a live thread;
 *   DOCA_ERROR_BAD_STATE if it is not started or already running.
 */
doca_error_t
doca_dpa_thread_run(struct doca_dpa_thread *dpa_thread);

/**
 * Stop a started thread: it is no longer triggered, a run in progress is
 * waited for, and it may be run again.
 * @param dpa_thread The thread.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if not a live thread;
 *   DOCA_ERROR_BAD_STATE if it is not running; DOCA_ERROR_NOT_PERMITTED from a program.
 */
doca_error_t
doca_dpa_thread_stop(struct doca_dpa_thread *dpa_thread);

/**
 * Destroy a thread, stopping it first if needed.
 * @param dpa_thread The thread.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if not a live thread;
 *   DOCA_ERROR_IN_USE while completion contexts or notification completions
 *   of it remain; DOCA_ERROR_NOT_PERMITTED from a program.
 */
doca_error_t
doca_dpa_thread_destroy(struct doca_dpa_thread *dpa_thread);

/* ---------------------------------------------------- completion contexts */

/**
 * Create a completion context: a ring of entries a program takes
 * (doca_dpa_dev_get_completion()); a DPA producer posts its completions there
 * (doca_comch_producer_dpa_completion_attach()).
 * @param dpa The DPA.
 * @param queue_size Entries, rounded up to a power of two (2 at least,
 *   1048576 at most).
 * @param dpa_comp Set to the context, stopped.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (NULL, dpa not live,
 *   queue_size 0 or above 1048576); DOCA_ERROR_NO_MEMORY.
 */
doca_error_t
doca_dpa_completion_create(struct doca_dpa *dpa, unsigned int queue_size,
			   struct doca_dpa_completion **dpa_comp);

/**
 * Attach the thread an entry wakes while the context is armed (before the
 * start; optional: without one, programs poll the context).
 * @param dpa_comp The context.
 * @param dpa_thread A thread of the same DPA, started before the context starts.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (NULL, not live, another
 *   DPA's thread); DOCA_ERROR_BAD_STATE if the context is started.
 */
doca_error_t
doca_dpa_completion_set_thread(struct doca_dpa_completion *dpa_comp,
			       struct doca_dpa_thread *dpa_thread);

/**
 * Start the context, armed: its first entry wakes its thread.
 * @param dpa_comp The context.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if not live;
 *   DOCA_ERROR_BAD_STATE if started already, or its thread is not started;
 *   DOCA_ERROR_FULL if the DPA has as many contexts as it can;
 *   DOCA_ERROR_NO_MEMORY; DOCA_ERROR_NOT_PERMITTED from a program.
 */
doca_error_t
doca_dpa_completion_start(struct doca_dpa_completion *dpa_comp);

/**
 * Stop the context: its handle goes stale, entries not taken are dropped.
 * @param dpa_comp The context.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if not live;
 *   DOCA_ERROR_BAD_STATE if not started; DOCA_ERROR_NOT_PERMITTED from a program.
 */
doca_error_t
doca_dpa_completion_stop(struct doca_dpa_completion *dpa_comp);

/**
 * Destroy the context, stopping it first if needed.
 * @param dpa_comp The context.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if not live;
 *   DOCA_ERROR_NOT_PERMITTED from a program.
 */
doca_error_t
doca_dpa_completion_destroy(struct doca_dpa_completion *dpa_comp);

/**
 * The handle programs name the started context by.
 * @param dpa_comp The context.
 * @param handle Set to the handle.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on NULL or a context that is
 *   not live; DOCA_ERROR_BAD_STATE if it is not started.
 */
doca_error_t
doca_dpa_completion_get_dpa_handle(struct doca_dpa_completion *dpa_comp,
				   doca_dpa_dev_completion_t *handle);

/* ------------------------------------------------ notification completions */

/**
 * Create what a program names to wake a thread (doca_dpa_dev_thread_notify()).
 * @param dpa The DPA.
 * @param dpa_thread The thread it wakes, of the same DPA.
 * @param notify_comp Set to the notification completion, stopped.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (NULL, not live, another
 *   DPA's thread); DOCA_ERROR_NO_MEMORY.
 */
doca_error_t
doca_dpa_notification_completion_create(struct doca_dpa *dpa, struct doca_dpa_thread *dpa_thread,
					struct doca_dpa_notification_completion **notify_comp);

/**
 * Start it: its handle can be had once its thread is started.
 * @param notify_comp The notification completion.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if not live;
 *   DOCA_ERROR_BAD_STATE if started already or its thread is not started.
 */
doca_error_t
doca_dpa_notification_completion_start(struct doca_dpa_notification_completion *notify_comp);

/**
 * Stop it.
 * @param notify_comp The notification completion.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if not live;
 *   DOCA_ERROR_BAD_STATE if not started.
 */
doca_error_t
doca_dpa_notification_completion_stop(struct doca_dpa_notification_completion *notify_comp);

/**
 * Destroy it, stopping it first if needed.
 * @param notify_comp The notification completion.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if not live.
 */
doca_error_t
doca_dpa_notification_completion_destroy(struct doca_dpa_notification_completion *notify_comp);

/**
 * The handle a program passes to doca_dpa_dev_thread_notify() (the thread's).
 * @param notify_comp A started notification completion.
 * @param handle Set to the handle.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on NULL or not live;
 *   DOCA_ERROR_BAD_STATE if it is not started.
 */
doca_error_t
doca_dpa_notification_completion_get_dpa_handle(
	struct doca_dpa_notification_completion *notify_comp,
	doca_dpa_dev_notification_completion_t *handle);

/* ------------------------------------------------------------ DPA memory */

/**
 * Allocate zeroed DPA memory. Its device address is a process address: the
 * CPU writes it with the copies below, programs use it directly.
 * @param dpa The DPA.
 * @param size Bytes, 1 to 1 GiB.
 * @param dev_ptr Set to the device address of its first byte.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (NULL, not live, size out of
 *   range); DOCA_ERROR_FULL if the DPA has as many buffers as it can
 *   (RTE_COMCH_DOCA_DPA_MAX_MEMS, default 1024); DOCA_ERROR_NO_MEMORY.
 */
doca_error_t
doca_dpa_mem_alloc(struct doca_dpa *dpa, size_t size, doca_dpa_dev_uintptr_t *dev_ptr);

/**
 * Free DPA memory; programs must not use it any more (runs in progress are
 * waited for).
 * @param dpa The DPA.
 * @param dev_ptr The address doca_dpa_mem_alloc() gave.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (not live, or dev_ptr is not
 *   the start of a buffer of dpa); DOCA_ERROR_NOT_PERMITTED from a program.
 */
doca_error_t
doca_dpa_mem_free(struct doca_dpa *dpa, doca_dpa_dev_uintptr_t dev_ptr);

/**
 * Copy from the CPU into DPA memory.
 * @param dpa The DPA.
 * @param dst_ptr Device address, with size bytes inside one buffer of dpa.
 * @param src_ptr What to copy.
 * @param size Bytes.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (NULL, not live, range not
 *   inside one buffer of dpa).
 */
doca_error_t
doca_dpa_h2d_memcpy(struct doca_dpa *dpa, doca_dpa_dev_uintptr_t dst_ptr, void *src_ptr,
		    size_t size);

/**
 * Copy from DPA memory to the CPU.
 * @param dpa The DPA.
 * @param dst_ptr Where to copy.
 * @param src_ptr Device address, with size bytes inside one buffer of dpa.
 * @param size Bytes.
 * @return As doca_dpa_h2d_memcpy().
 */
doca_error_t
doca_dpa_d2h_memcpy(struct doca_dpa *dpa, void *dst_ptr, doca_dpa_dev_uintptr_t src_ptr,
		    size_t size);

/**
 * Set bytes of DPA memory.
 * @param dpa The DPA.
 * @param dev_ptr Device address, with size bytes inside one buffer of dpa.
 * @param value The byte value.
 * @param size Bytes.
 * @return As doca_dpa_h2d_memcpy().
 */
doca_error_t
doca_dpa_memset(struct doca_dpa *dpa, doca_dpa_dev_uintptr_t dev_ptr, int value, size_t size);

/* ------------------------------------------------------------------- RPC */

/**
 * Begin an RPC of dpa on the calling thread (what doca_dpa_rpc() expands to;
 * programs do not call it themselves).
 * @param dpa The DPA.
 * @param retval Where the RPC's return value goes.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (NULL retval, dpa not live);
 *   DOCA_ERROR_NOT_PERMITTED from a program or inside another RPC.
 */
doca_error_t
rte_comch_doca_dpa_rpc_begin(struct doca_dpa *dpa, uint64_t *retval);

/**
 * End the RPC rte_comch_doca_dpa_rpc_begin() began.
 * @param dpa The DPA.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if no RPC of dpa runs on the thread.
 */
doca_error_t
rte_comch_doca_dpa_rpc_end(struct doca_dpa *dpa);

/**
 * Run func once as a program of dpa and wait for it: doca_dpa_rpc(dpa, func,
 * &retval, args...). func is a `uint64_t f(...)` of the device sources,
 * declared as a doca_dpa_func_t; it runs on the calling thread, between
 * rte_comch_doca_dpa_rpc_begin() and _end(), with the arguments as given
 * (integers, pointers and structures; not floating point, which a DPA
 * function does not take either), and may make the device-side calls on the
 * dpa's objects but for those of a thread's run (local storage,
 * reschedule, finish). Evaluates to a doca_error_t, and sets *retval to
 * func's value.
 */
#define doca_dpa_rpc(dpa, func, retval, ...) \
	__extension__({ \
		struct doca_dpa *dc_rpc_dpa_ = (dpa); \
		uint64_t *dc_rpc_ret_ = (retval); \
		doca_error_t dc_rpc_err_ = rte_comch_doca_dpa_rpc_begin(dc_rpc_dpa_, dc_rpc_ret_); \
		if (dc_rpc_err_ == DOCA_SUCCESS) { \
			void (*dc_rpc_fn_)(void) = (void (*)(void))(func); \
			/* Declared without parameters, defined with them: */ \
			/* the call is the definition's. */ \
			__asm__("" : "+r"(dc_rpc_fn_)); \
			_Pragma("GCC diagnostic push") \
			_Pragma("GCC diagnostic ignored \"-Wstrict-prototypes\"") \
			*dc_rpc_ret_ = ((uint64_t(*)())dc_rpc_fn_)(__VA_ARGS__); \
			_Pragma("GCC diagnostic pop") \
			dc_rpc_err_ = rte_comch_doca_dpa_rpc_end(dc_rpc_dpa_); \
		} \
		dc_rpc_err_; \
	})

/* ---------------------------------------------- contexts and mmaps on the DPA */

/**
 * Run a context's datapath on a DPA: a MsgQ consumer or producer on the DPA
 * side (doca_comch_msgq.h), before it is configured and started. It needs no
 * progress engine then: the layer drives it, and doca_ctx_stop() stops it at once.
 * @param ctx The context, IDLE, not attached to an engine.
 * @param dpa_dev The DPA of its MsgQ.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (NULL, not live);
 *   DOCA_ERROR_NOT_SUPPORTED if ctx is not a DPA-side MsgQ consumer or producer;
 *   DOCA_ERROR_BAD_STATE if it is not IDLE; DOCA_ERROR_ALREADY_EXIST if it
 *   is attached to an engine already.
 */
doca_error_t
doca_ctx_set_datapath_on_dpa(struct doca_ctx *ctx, struct doca_dpa *dpa_dev);

/**
 * The handle programs of the DPA of dev name an mmap by
 * (doca_dpa_dev_comch_producer_dma_copy()). The mmap must have been started
 * with dev added (doca_mmap_add_dev()) after a DPA was created on dev; the
 * handle is stale once the mmap stops. Addresses given with it are the mmap's
 * own (process) addresses. Declared here rather than in doca_mmap.h.
 * @param mmap A started mmap.
 * @param dev The device of the DPA.
 * @param handle Set to the handle.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (NULL, not live);
 *   DOCA_ERROR_NOT_FOUND if no DPA was created on dev; DOCA_ERROR_BAD_STATE if
 *   the mmap is not started or was started before the DPA was created.
 */
doca_error_t
doca_mmap_dev_get_dpa_handle(struct doca_mmap *mmap, struct doca_dev *dev,
			     doca_dpa_dev_mmap_t *handle);

/**
 * Make DPA memory the range of an mmap (before its start), so that programs
 * copy from or to it (doca_dpa_dev_comch_producer_dma_copy()). Device
 * addresses are process addresses here: the range is the buffer's own.
 * Declared here rather than in doca_mmap.h.
 * @param mmap An mmap with no range yet.
 * @param dpa The DPA the memory belongs to.
 * @param dpa_addr Device address, with len bytes inside one buffer of dpa.
 * @param len Bytes.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (NULL, not live, range not in
 *   one buffer of dpa, len 0); DOCA_ERROR_BAD_STATE if the mmap has a range
 *   already or is started.
 */
doca_error_t
doca_mmap_set_dpa_memrange(struct doca_mmap *mmap, struct doca_dpa *dpa, uint64_t dpa_addr,
			   size_t len);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_COMPAT_DPA_H */
