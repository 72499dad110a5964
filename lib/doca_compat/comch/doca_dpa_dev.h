/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef DOCA_COMPAT_DPA_DEV_H
#define DOCA_COMPAT_DPA_DEV_H

/**
 * @file
 * DOCA compatibility layer: the device side of DOCA DPA, for DPA programs,
 * over the software DPA's device side (rte_comch_dpa_dev.h).
 *
 * A program's sources build unchanged with the host C compiler: the DPA
 * function attributes expand to nothing, device addresses are process
 * addresses (a program casts them to pointers, as on a BlueField-3), and each
 * call below is the software DPA's call of the same meaning. A program runs
 * on an execution unit of the layer's DPA (doca_dpa.h), in the process that
 * made it, and is trusted code (see the driver guide, comchdevs/dpa).
 *
 * Thread safety: these calls are made by the running program (a DPA thread's
 * run, or an RPC), as with rte_comch_dpa_dev.h; outside one, the calls that
 * need one fail (negative return, NULL, 0) with a log line. The accessors of a
 * completion element work anywhere while the element is valid.
 */

#include <stdint.h>

#include <doca_dpa_types.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Marks a DPA thread's entry function (nothing on the software DPA). */
#define __dpa_global__
/** Marks a function the CPU calls with doca_dpa_rpc() (nothing on the software DPA). */
#define __dpa_rpc__
/** Marks a device function (nothing on the software DPA). */
#define __dpa_device__

/** A completion element taken from a DPA completion context: valid until acknowledged. */
typedef const struct doca_dpa_dev_completion_element *doca_dpa_dev_completion_element_t;

/** Flags of the device-side sends (doca_dpa_dev_comch_producer_post_send_imm_only()). */
enum doca_dpa_dev_submit_flag {
	/** Nothing special: the send asks for a completion. */
	DOCA_DPA_DEV_SUBMIT_FLAG_NONE = 0,
	/** Hand the send over at once (the software DPA always does). */
	DOCA_DPA_DEV_SUBMIT_FLAG_FLUSH = 1u << 0,
	/** No completion for this send on the producer's completion context. */
	DOCA_DPA_DEV_SUBMIT_FLAG_OPTIMIZE_REPORTS = 1u << 1,
};

/** Levels of doca_dpa_dev_log(). */
enum doca_dpa_dev_log_level {
	DOCA_DPA_DEV_LOG_LEVEL_DISABLE = 10, /**< Nothing. */
	DOCA_DPA_DEV_LOG_LEVEL_CRIT = 20,    /**< Critical. */
	DOCA_DPA_DEV_LOG_LEVEL_ERROR = 30,   /**< Error. */
	DOCA_DPA_DEV_LOG_LEVEL_WARNING = 40, /**< Warning. */
	DOCA_DPA_DEV_LOG_LEVEL_INFO = 50,    /**< Information. */
	DOCA_DPA_DEV_LOG_LEVEL_DEBUG = 60,   /**< Debug. */
};

/**
 * Log a line from a program, through the layer's log (doca_log.h's SDK
 * level decides what is printed).
 * @param level A DOCA_DPA_DEV_LOG_LEVEL_*.
 * @param format printf() format, and its arguments.
 */
void
doca_dpa_dev_log(enum doca_dpa_dev_log_level level, const char *format, ...)
	__attribute__((format(printf, 2, 3)));

/** Log a critical line from a program. */
#define DOCA_DPA_DEV_LOG_CRIT(...) doca_dpa_dev_log(DOCA_DPA_DEV_LOG_LEVEL_CRIT, __VA_ARGS__)
/** Log an error from a program. */
#define DOCA_DPA_DEV_LOG_ERR(...) doca_dpa_dev_log(DOCA_DPA_DEV_LOG_LEVEL_ERROR, __VA_ARGS__)
/** Log a warning from a program. */
#define DOCA_DPA_DEV_LOG_WARN(...) doca_dpa_dev_log(DOCA_DPA_DEV_LOG_LEVEL_WARNING, __VA_ARGS__)
/** Log information from a program. */
#define DOCA_DPA_DEV_LOG_INFO(...) doca_dpa_dev_log(DOCA_DPA_DEV_LOG_LEVEL_INFO, __VA_ARGS__)
/** Log a debug line from a program. */
#define DOCA_DPA_DEV_LOG_DBG(...) doca_dpa_dev_log(DOCA_DPA_DEV_LOG_LEVEL_DEBUG, __VA_ARGS__)

/**
 * End this run: the thread runs again from its entry at its next trigger.
 * Inside a thread's run it does not return; elsewhere it logs and returns.
 */
void
doca_dpa_dev_thread_reschedule(void);

/**
 * End this run and stop being triggered until the CPU runs the thread again
 * (doca_dpa_thread_run()). Inside a thread's run it does not return;
 * elsewhere it logs and returns.
 */
void
doca_dpa_dev_thread_finish(void);

/**
 * The running thread's local storage (doca_dpa_thread_set_local_storage()).
 * @return Its device address; 0 if the thread has none, or outside a thread's run.
 */
doca_dpa_dev_uintptr_t
doca_dpa_dev_thread_get_local_storage(void);

/**
 * Wake the thread of a notification completion; it runs once more, after this
 * run if it is the caller itself.
 * @param notify_comp_handle doca_dpa_notification_completion_get_dpa_handle().
 * @return 0; -EINVAL if the handle names no live thread of this DPA; -EPERM
 *   if the thread is not running (dropped), or outside a program.
 */
int
doca_dpa_dev_thread_notify(doca_dpa_dev_notification_completion_t notify_comp_handle);

/**
 * Take the next element of a DPA completion context (a DPA producer's
 * completions). It keeps its place until acknowledged.
 * @param dpa_comp_handle doca_dpa_completion_get_dpa_handle().
 * @param comp_element Set to the element.
 * @return 1 if one was taken; 0 if there is none; a negative errno (bad
 *   handle, NULL, outside a program).
 */
int
doca_dpa_dev_get_completion(doca_dpa_dev_completion_t dpa_comp_handle,
			    doca_dpa_dev_completion_element_t *comp_element);

/**
 * The user data of an element: for a DPA producer's completion, the
 * producer's context user data when its completion context was attached
 * (low 32 bits).
 * @param comp_element The element.
 * @return The user data; 0 if comp_element is NULL.
 */
uint32_t
doca_dpa_dev_get_completion_user_data(doca_dpa_dev_completion_element_t comp_element);

/**
 * Acknowledge the oldest elements taken, giving their places back.
 * @param dpa_comp_handle The completion context.
 * @param num_comp How many, at most what was taken and not acknowledged.
 * @return 0; -EINVAL (bad handle, num_comp too big: nothing acknowledged);
 *   -EPERM outside a program.
 */
int
doca_dpa_dev_completion_ack(doca_dpa_dev_completion_t dpa_comp_handle, uint64_t num_comp);

/**
 * Arm the completion context: the next element, or one already waiting,
 * wakes its thread once.
 * @param dpa_comp_handle The completion context.
 * @return 0; -EINVAL on a bad handle; -EPERM outside a program.
 */
int
doca_dpa_dev_completion_request_notification(doca_dpa_dev_completion_t dpa_comp_handle);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_COMPAT_DPA_DEV_H */
