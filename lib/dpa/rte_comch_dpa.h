/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef RTE_COMCH_DPA_H
#define RTE_COMCH_DPA_H

/**
 * @file
 * The software DPA runtime (librte_comch_dpa_rt): the CPU side.
 *
 * A BlueField-3 has a Data Path Accelerator, a set of small cores that run
 * event-driven programs next to the NIC. This library runs such programs in
 * software, on "execution units" that are DPDK service cores (or, for tests,
 * threads the library starts itself), so that MsgQ code can be written and
 * tested without the hardware.
 *
 * The objects follow DOCA's DPA objects:
 *   - rte_comch_dpa: one DPA instance on a device, with its execution units;
 *   - rte_comch_dpa_thread: a DPA thread, an entry function plus an argument
 *     and thread-local storage, run from its entry each time it is triggered;
 *   - rte_comch_dpa_cq: a completion context, a ring of completion entries
 *     that a CPU-side driver posts to and a DPA program reads; an armed
 *     completion context attached to a thread triggers it when an entry lands;
 *   - DPA memory: buffers the CPU fills and reads with copies, and that a
 *     program reaches through rte_comch_dpa_dev_mem_ptr();
 * The dpa driver (librte_comch_dpa), built on this runtime, adds on a device
 * opened with "dpa:" devargs the DPA side of MsgQs (rte_comch_msgq.h): DPA
 * consumers and producers, configured with rte_comch_dpa_msgq.h, and the
 * handles of mmaps for dma_copy.
 * The program itself uses rte_comch_dpa_prog.h (rte_comch_dpa_dev.h with
 * MsgQ's calls), and names the objects by
 * rte_comch_dpa_handle_t handles only; a thread's argument is typically the
 * handle of a DPA memory buffer that holds the handles the program needs.
 *
 * Thread safety:
 *   - rte_comch_dpa_start(), _stop(), every create/start/run/stop/destroy
 *     of threads and completion contexts, rte_comch_dpa_mem_alloc() and
 *     _free(): from any CPU thread, never from inside a DPA program (-EPERM),
 *     since stop and destroy wait for programs in flight. A lock of the dpa
 *     makes them one at a time, so that its counts and limits stay exact when
 *     several threads call at once. A call on an object another thread
 *     destroyed fails with -EINVAL (its slot lives as long as the dpa).
 *   - rte_comch_dpa_create(): any thread. rte_comch_dpa_destroy(): once the
 *     dpa is empty and no other thread uses it any more.
 *   - rte_comch_dpa_thread_notify(), the stats and handle getters, and the
 *     copies to and from DPA memory: from any thread, at any time while the
 *     object exists. Copies are not ordered against a program that reads or
 *     writes the same bytes at the same time: the application orders them
 *     (for example with a notification after the copy).
 */

#include <stdint.h>

#include <rte_compat.h>

#include <rte_comch_dpa_types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rte_comch_dev;
struct rte_comch_dpa;
struct rte_comch_dpa_thread;
struct rte_comch_dpa_cq;

/** Most execution units of one dpa. */
#define RTE_COMCH_DPA_MAX_UNITS 64
/** Most DPA threads (and, separately, completion contexts) of one dpa. */
#define RTE_COMCH_DPA_MAX_OBJECTS 65536
/** Default number of DPA threads (and of completion contexts) of a dpa. */
#define RTE_COMCH_DPA_DEFAULT_OBJECTS 64
/** Largest completion context, in entries. */
#define RTE_COMCH_DPA_CQ_MAX_SIZE (1u << 20)
/** Largest thread-local storage of a DPA thread, in bytes. */
#define RTE_COMCH_DPA_TLS_MAX (1u << 20)
/** Largest DPA memory buffer, in bytes. */
#define RTE_COMCH_DPA_MEM_MAX (1ull << 30)
/** rte_comch_dpa_thread_conf.unit: let the library pick the unit (round robin). */
#define RTE_COMCH_DPA_UNIT_ANY UINT32_MAX

/** Where the execution units of a dpa run. */
enum rte_comch_dpa_exec_mode {
	/**
	 * One rte_service per unit. The application maps each service to an
	 * lcore (rte_service_map_lcore_set()) and sets its run state
	 * (rte_service_runstate_set()), as with any DPDK service; the library
	 * sets the component run state in rte_comch_dpa_start().
	 */
	RTE_COMCH_DPA_EXEC_SERVICE = 0,
	/** One pthread per unit, started by rte_comch_dpa_start(): for tests and tools. */
	RTE_COMCH_DPA_EXEC_PTHREAD = 1,
};

/** Configuration of a dpa. */
struct rte_comch_dpa_conf {
	uint32_t nb_units;            /**< Execution units, 1 to RTE_COMCH_DPA_MAX_UNITS. */
	enum rte_comch_dpa_exec_mode mode; /**< Where the units run. */
	/** Most DPA threads alive at once; 0: RTE_COMCH_DPA_DEFAULT_OBJECTS. */
	uint32_t max_threads;
	/** Most completion contexts alive at once; 0: RTE_COMCH_DPA_DEFAULT_OBJECTS. */
	uint32_t max_cqs;
	/** Most DPA memory buffers alive at once; 0: RTE_COMCH_DPA_DEFAULT_OBJECTS. */
	uint32_t max_mems;
};

/** Configuration of a DPA thread. */
struct rte_comch_dpa_thread_conf {
	rte_comch_dpa_func_t func;    /**< Entry function; required. */
	uint64_t arg;                 /**< Passed to func on every run. */
	/** Bytes of thread-local storage, zeroed at start; 0 to RTE_COMCH_DPA_TLS_MAX. */
	uint32_t local_storage_size;
	/** The unit that runs the thread, or RTE_COMCH_DPA_UNIT_ANY. */
	uint32_t unit;
};

/** Configuration of a completion context. */
struct rte_comch_dpa_cq_conf {
	/** Entries: a power of two, 2 to RTE_COMCH_DPA_CQ_MAX_SIZE. */
	uint32_t size;
	/**
	 * The thread an entry triggers while the context is armed, or NULL
	 * (then nothing is triggered and some program polls the context).
	 * The thread must belong to the same dpa and exist until the context
	 * is destroyed.
	 */
	struct rte_comch_dpa_thread *thread;
	/**
	 * As the completion context of MsgQ DPA consumers (DOCA's consumer
	 * completion, rte_comch_dpa_consumer_set_completion()): the most
	 * consumers attached at once, 0 for no limit.
	 */
	uint32_t max_consumers;
	/**
	 * The same: the longest immediate data its consumers may accept
	 * (rte_comch_consumer_set_imm_data_len()), checked at their start;
	 * 0 for RTE_COMCH_DPA_IMM_MAX.
	 */
	uint32_t imm_len;
};

/** Counters of a DPA thread, since its creation. */
struct rte_comch_dpa_thread_stats {
	uint64_t triggers;     /**< Triggers accepted (notify, completions). */
	uint64_t coalesced;    /**< Of those, triggers that found a run already pending. */
	uint64_t ignored;      /**< Triggers dropped because the thread was not running. */
	uint64_t runs;         /**< Times the entry function was called. */
	uint64_t reschedules;  /**< Runs ended by rte_comch_dpa_dev_thread_reschedule(). */
	uint64_t returns;      /**< Runs ended by returning from the entry function. */
	uint64_t finishes;     /**< Runs ended by rte_comch_dpa_dev_thread_finish(). */
};

/** Counters of a completion context, since its creation. */
struct rte_comch_dpa_cq_stats {
	uint64_t posted;       /**< Entries posted. */
	uint64_t full;         /**< Posts refused with -EAGAIN (context full). */
	uint64_t received;     /**< Entries a program took (get_completion). */
	uint64_t acked;        /**< Entries a program acknowledged. */
	uint64_t notifications; /**< Triggers of the attached thread. */
};

/**
 * Create a dpa on a device.
 *
 * Programs run on a dpa of any device. MsgQs (rte_comch_msgq.h) and the DPA
 * handles of mmaps (rte_comch_dpa_msgq.h) need a dpa of a device opened with
 * "dpa:" devargs, the device of the "dpa" driver: the MsgQ's device must be
 * the dpa's (rte_comch_dpa_get_device()).
 * The units are created but do not run until rte_comch_dpa_start().
 *
 * @param dev
 *   Any open device; it must stay open until the dpa is destroyed.
 * @param conf
 *   The configuration.
 * @return
 *   The dpa, or NULL with rte_errno set:
 *   - EINVAL: dev or conf is NULL, nb_units is 0 or above
 *     RTE_COMCH_DPA_MAX_UNITS, max_threads, max_cqs or max_mems above
 *     RTE_COMCH_DPA_MAX_OBJECTS, or an unknown mode.
 *   - ENOSPC: 255 dpas already exist in this process.
 *   - ENOMEM: out of memory.
 *   - other: the error of rte_ring_init() for a unit's run queue, or of
 *     rte_service_component_register() (service mode).
 */
__rte_experimental
struct rte_comch_dpa *
rte_comch_dpa_create(struct rte_comch_dev *dev, const struct rte_comch_dpa_conf *conf);

/**
 * Destroy a stopped dpa that has no threads, completion contexts or DPA
 * memory left.
 *
 * @param dpa
 *   A stopped dpa.
 * @return
 *   0; -EINVAL if dpa is NULL; -EBUSY if it is started or still has threads,
 *   completion contexts or memory, or a started MsgQ uses it; -EPERM from
 *   inside a DPA program.
 */
__rte_experimental
int
rte_comch_dpa_destroy(struct rte_comch_dpa *dpa);

/**
 * Start the execution units: threads that are triggered run from now on.
 *
 * In pthread mode the units' threads start here; in service mode the
 * services' component run state is set, and the units run when the
 * application has mapped their services to running service lcores.
 *
 * @param dpa
 *   A stopped dpa.
 * @return
 *   0; -EINVAL if dpa is NULL; -EBUSY if already started; -EPERM from inside
 *   a DPA program; or the negative error of pthread_create().
 */
__rte_experimental
int
rte_comch_dpa_start(struct rte_comch_dpa *dpa);

/**
 * Stop the execution units, waiting for the runs in progress to end.
 *
 * Triggers that arrive while stopped are kept and run after the next start.
 * A program that never ends its run makes this wait forever: programs are
 * trusted code (see the driver guide).
 *
 * @param dpa
 *   A started dpa.
 * @return
 *   0; -EINVAL if dpa is NULL; -EBUSY if not started; -EPERM from inside a
 *   DPA program.
 */
__rte_experimental
int
rte_comch_dpa_stop(struct rte_comch_dpa *dpa);

struct rte_comch_accel;

/**
 * The dpa as an accelerator of the MsgQ API (rte_comch_msgq_set_dpa_consumer()
 * and _producer()), which sees accelerators as opaque handles.
 *
 * @param dpa
 *   A live dpa.
 * @return
 *   The handle, or NULL with rte_errno EINVAL if dpa is NULL or not a live dpa.
 */
__rte_experimental
struct rte_comch_accel *
rte_comch_dpa_as_accel(struct rte_comch_dpa *dpa);

/**
 * The device the dpa was created on.
 *
 * @param dpa
 *   The dpa.
 * @return
 *   The device, or NULL if dpa is NULL.
 */
__rte_experimental
struct rte_comch_dev *
rte_comch_dpa_get_device(const struct rte_comch_dpa *dpa);

/**
 * The service of one execution unit (service mode), to map it to an lcore.
 *
 * @param dpa
 *   The dpa.
 * @param unit
 *   The unit, below conf.nb_units.
 * @param[out] service_id
 *   The rte_service id.
 * @return
 *   0; -EINVAL if dpa or service_id is NULL or unit is out of range;
 *   -ENOTSUP in pthread mode.
 */
__rte_experimental
int
rte_comch_dpa_unit_service_id(const struct rte_comch_dpa *dpa, uint32_t unit,
			      uint32_t *service_id);

/**
 * Create a DPA thread (idle: not attached to a unit, not triggerable).
 *
 * @param dpa
 *   The dpa.
 * @param conf
 *   The thread's entry function, argument, local storage size and unit.
 * @return
 *   The thread, or NULL with rte_errno set:
 *   - EINVAL: dpa or conf is NULL, no func, local_storage_size above
 *     RTE_COMCH_DPA_TLS_MAX, or unit out of range.
 *   - ENOSPC: conf.max_threads threads already exist.
 *   - EPERM: called from inside a DPA program.
 */
__rte_experimental
struct rte_comch_dpa_thread *
rte_comch_dpa_thread_create(struct rte_comch_dpa *dpa,
			    const struct rte_comch_dpa_thread_conf *conf);

/**
 * Attach an idle thread to its execution unit and allocate its (zeroed)
 * thread-local storage. It is not triggered until rte_comch_dpa_thread_run().
 *
 * @param thread
 *   An idle thread.
 * @return
 *   0; -EINVAL if thread is NULL; -EBUSY if not idle; -ENOMEM; -EPERM from
 *   inside a DPA program.
 */
__rte_experimental
int
rte_comch_dpa_thread_start(struct rte_comch_dpa_thread *thread);

/**
 * Let a started (or finished) thread be triggered. Running it does not
 * trigger it: a notification or a completion does.
 *
 * @param thread
 *   A started or finished thread.
 * @return
 *   0; -EINVAL if thread is NULL; -EBUSY if it is idle or already running;
 *   -EPERM from inside a DPA program.
 */
__rte_experimental
int
rte_comch_dpa_thread_run(struct rte_comch_dpa_thread *thread);

/**
 * Stop triggering a running or finished thread, and wait until a run in
 * progress has ended; the thread is started again (not triggerable) and keeps
 * its local storage. A trigger still queued is dropped when its unit takes
 * it; if the dpa is stopped, the unit takes it only after the next start, and
 * then runs the thread if it has been run again meanwhile. Programs must
 * accept a run that finds no new work, as on the hardware.
 *
 * @param thread
 *   A running or finished thread.
 * @return
 *   0; -EINVAL if thread is NULL; -EBUSY if it is idle or only started;
 *   -EPERM from inside a DPA program.
 */
__rte_experimental
int
rte_comch_dpa_thread_stop(struct rte_comch_dpa_thread *thread);

/**
 * Destroy a thread that is idle or started (not running or finished), and
 * that no completion context is attached to. Its handle becomes stale.
 *
 * @param thread
 *   An idle or started thread.
 * @return
 *   0; -EINVAL if thread is NULL; -EBUSY if it is running or finished, or a
 *   completion context is attached; -EPERM from inside a DPA program.
 */
__rte_experimental
int
rte_comch_dpa_thread_destroy(struct rte_comch_dpa_thread *thread);

/**
 * Trigger a thread from the CPU (on DOCA, an RPC that calls
 * doca_dpa_dev_thread_notify()).
 *
 * The thread runs once, after this call, on its unit. Triggers that arrive
 * before that run starts are merged into it; a trigger that arrives during a
 * run makes the thread run again after it: a trigger is never lost.
 *
 * @param thread
 *   A running thread.
 * @return
 *   0; -EINVAL if thread is NULL; -EPERM if the thread is not running (idle,
 *   only started, stopped or finished): the trigger is dropped and counted.
 */
__rte_experimental
int
rte_comch_dpa_thread_notify(struct rte_comch_dpa_thread *thread);

/**
 * The handle a DPA program names the thread by.
 *
 * @param thread
 *   The thread.
 * @param[out] handle
 *   Its handle, to give to programs.
 * @return
 *   0; -EINVAL if thread or handle is NULL.
 */
__rte_experimental
int
rte_comch_dpa_thread_get_dpa_handle(const struct rte_comch_dpa_thread *thread,
				    rte_comch_dpa_handle_t *handle);

/**
 * Read the counters of a thread.
 *
 * @param thread
 *   The thread.
 * @param[out] stats
 *   Its counters.
 * @return
 *   0; -EINVAL if thread or stats is NULL.
 */
__rte_experimental
int
rte_comch_dpa_thread_stats_get(const struct rte_comch_dpa_thread *thread,
			       struct rte_comch_dpa_thread_stats *stats);

/**
 * Create a completion context, empty and armed: the first entry posted
 * triggers the attached thread.
 *
 * @param dpa
 *   The dpa.
 * @param conf
 *   Its size, the thread it triggers, and the limits of the MsgQ consumers
 *   it may serve.
 * @return
 *   The completion context, or NULL with rte_errno set:
 *   - EINVAL: dpa or conf is NULL, size is not a power of two in range,
 *     imm_len is above RTE_COMCH_DPA_IMM_MAX, or the thread is not a live
 *     thread of this dpa.
 *   - ENOSPC: conf.max_cqs completion contexts already exist.
 *   - ENOMEM: out of memory.
 *   - EPERM: called from inside a DPA program.
 */
__rte_experimental
struct rte_comch_dpa_cq *
rte_comch_dpa_cq_create(struct rte_comch_dpa *dpa, const struct rte_comch_dpa_cq_conf *conf);

/**
 * Destroy a completion context. Its handle becomes stale at once; the call
 * then waits for the runs in progress, which may still be using it, to end.
 * Entries not yet taken are dropped. Refused while MsgQ DPA consumers are
 * attached to it (rte_comch_dpa_consumer_set_completion()): destroy them, or
 * attach them elsewhere, first. A DPA producer's send that asks for a
 * completion on it fails afterwards (-EINVAL): see rte_comch_dpa_msgq.h.
 *
 * @param cq
 *   The completion context.
 * @return
 *   0; -EINVAL if cq is NULL; -EBUSY if DPA consumers are attached to it;
 *   -EPERM from inside a DPA program.
 */
__rte_experimental
int
rte_comch_dpa_cq_destroy(struct rte_comch_dpa_cq *cq);

/**
 * The handle a DPA program names the completion context by.
 *
 * @param cq
 *   The completion context.
 * @param[out] handle
 *   Its handle, to give to programs.
 * @return
 *   0; -EINVAL if cq or handle is NULL.
 */
__rte_experimental
int
rte_comch_dpa_cq_get_dpa_handle(const struct rte_comch_dpa_cq *cq,
				rte_comch_dpa_handle_t *handle);

/**
 * Read the counters of a completion context.
 *
 * @param cq
 *   The completion context.
 * @param[out] stats
 *   Its counters.
 * @return
 *   0; -EINVAL if cq or stats is NULL.
 */
__rte_experimental
int
rte_comch_dpa_cq_stats_get(const struct rte_comch_dpa_cq *cq,
			   struct rte_comch_dpa_cq_stats *stats);

/**
 * Allocate a buffer of DPA memory, zeroed (doca_dpa_mem_alloc()).
 *
 * @param dpa
 *   The dpa.
 * @param size
 *   Bytes, 1 to RTE_COMCH_DPA_MEM_MAX.
 * @param[out] mem
 *   Its handle, for the copies below and for programs.
 * @return
 *   0; -EINVAL if dpa or mem is NULL or size is out of range; -ENOSPC if
 *   conf.max_mems buffers exist; -ENOMEM; -EPERM from inside a DPA program.
 */
__rte_experimental
int
rte_comch_dpa_mem_alloc(struct rte_comch_dpa *dpa, uint64_t size, rte_comch_dpa_handle_t *mem);

/**
 * Free a buffer of DPA memory (doca_dpa_mem_free()). The handle becomes stale
 * at once; the call then waits for the runs in progress to end. A program
 * must not keep an address from rte_comch_dpa_dev_mem_ptr() from one run to
 * the next if the buffer may be freed in between.
 *
 * @param dpa
 *   The dpa.
 * @param mem
 *   The buffer's handle.
 * @return
 *   0; -EINVAL if dpa is NULL or mem is not a live buffer of dpa; -EPERM
 *   from inside a DPA program.
 */
__rte_experimental
int
rte_comch_dpa_mem_free(struct rte_comch_dpa *dpa, rte_comch_dpa_handle_t mem);

/**
 * Copy from the CPU into DPA memory (doca_dpa_h2d_memcpy()).
 *
 * @param dpa
 *   The dpa.
 * @param mem
 *   The buffer's handle.
 * @param offset
 *   Where in the buffer to copy to.
 * @param src
 *   The bytes to copy.
 * @param len
 *   How many.
 * @return
 *   0; -EINVAL if dpa or src is NULL, mem is not a live buffer of dpa, or
 *   [offset, offset + len) is not inside it.
 */
__rte_experimental
int
rte_comch_dpa_h2d_memcpy(struct rte_comch_dpa *dpa, rte_comch_dpa_handle_t mem, uint64_t offset,
			 const void *src, uint64_t len);

/**
 * Copy from DPA memory to the CPU (doca_dpa_d2h_memcpy()).
 *
 * @param dpa
 *   The dpa.
 * @param dst
 *   Where to copy to.
 * @param mem
 *   The buffer's handle.
 * @param offset
 *   Where in the buffer to copy from.
 * @param len
 *   How many bytes.
 * @return
 *   0; -EINVAL if dpa or dst is NULL, mem is not a live buffer of dpa, or
 *   [offset, offset + len) is not inside it.
 */
__rte_experimental
int
rte_comch_dpa_d2h_memcpy(struct rte_comch_dpa *dpa, void *dst, rte_comch_dpa_handle_t mem,
			 uint64_t offset, uint64_t len);

/**
 * Set bytes of DPA memory (doca_dpa_memset()).
 *
 * @param dpa
 *   The dpa.
 * @param mem
 *   The buffer's handle.
 * @param offset
 *   Where in the buffer to start.
 * @param value
 *   The byte to set (converted to unsigned char, as memset() does).
 * @param len
 *   How many bytes.
 * @return
 *   0; -EINVAL if dpa is NULL, mem is not a live buffer of dpa, or
 *   [offset, offset + len) is not inside it.
 */
__rte_experimental
int
rte_comch_dpa_memset(struct rte_comch_dpa *dpa, rte_comch_dpa_handle_t mem, uint64_t offset,
		     int value, uint64_t len);

/**
 * The address of a buffer of DPA memory in this process.
 *
 * The software DPA shares the process's memory: a program may use this
 * address directly, as device code on a BlueField-3 uses the device address
 * doca_dpa_mem_alloc() gives (the DOCA layer hands it out so). The address is
 * valid until rte_comch_dpa_mem_free(); the copies above stay the way to write
 * the buffer from the CPU in order with a program that reads it.
 *
 * @param dpa
 *   The dpa.
 * @param mem
 *   A buffer of dpa (rte_comch_dpa_mem_alloc()).
 * @param[out] addr
 *   Its first byte.
 * @return
 *   0; -EINVAL if dpa or addr is NULL, or mem is not a live buffer of dpa.
 */
__rte_experimental
int
rte_comch_dpa_mem_get_addr(struct rte_comch_dpa *dpa, rte_comch_dpa_handle_t mem, void **addr);

/**
 * Run the calling CPU thread as an RPC of dpa until rte_comch_dpa_rpc_end():
 * on a BlueField-3, a function the CPU has the DPA run once while it waits
 * (doca_dpa_rpc()). Between the two calls the thread may make the device-side
 * calls of rte_comch_dpa_dev.h on dpa's objects, as a program of dpa does,
 * but for those of a thread's run (local storage: NULL; reschedule and finish:
 * logged and ignored); the CPU-side calls are refused (-EPERM), as in a
 * program. The dpa's stops and destroys, and those of its objects, wait for
 * the RPCs in progress as they wait for the programs' runs. The dpa need not
 * be started: an RPC runs on the caller, not on a unit.
 *
 * @param dpa
 *   A live dpa.
 * @return
 *   0; -EINVAL if dpa is NULL or not a live dpa; -EPERM if the caller is a
 *   DPA program or already in an RPC (RPCs do not nest).
 */
__rte_experimental
int
rte_comch_dpa_rpc_begin(struct rte_comch_dpa *dpa);

/**
 * End the RPC of rte_comch_dpa_rpc_begin() on the calling thread.
 *
 * @param dpa
 *   The dpa given to rte_comch_dpa_rpc_begin().
 * @return
 *   0; -EINVAL if no RPC of dpa is in progress on the calling thread.
 */
__rte_experimental
int
rte_comch_dpa_rpc_end(struct rte_comch_dpa *dpa);

#ifdef __cplusplus
}
#endif

#endif /* RTE_COMCH_DPA_H */
