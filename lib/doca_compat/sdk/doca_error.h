/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef DOCA_COMPAT_ERROR_H
#define DOCA_COMPAT_ERROR_H

/**
 * @file
 * DOCA compatibility layer: error codes, their names and descriptions, and the
 * mapping to and from the negative errno values rte_comch returns.
 *
 * Handles: every call answers DOCA_ERROR_INVALID_VALUE, with a log line, where
 * a handle it takes is not a live object of the kind it expects: NULL (as each
 * call's documentation says), but also one destroyed already (a double
 * destroy), or an object of another kind (a doca_pe passed as a doca_mmap).
 * The calls that return a pointer return NULL instead, those that return
 * nothing do nothing. Such a handle is never used, and the objects involved
 * are left as they were (see the guide, "Stale and foreign handles").
 * Buffers (doca_buf) are not checked.
 *
 * Thread-safety: every function here is safe to call from any thread.
 */

#include <doca_types.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Result of a DOCA call. */
typedef enum doca_error {
	DOCA_SUCCESS = 0,                  /**< Success. */
	DOCA_ERROR_UNKNOWN = 1,            /**< Unknown error. */
	DOCA_ERROR_NOT_PERMITTED = 2,      /**< Operation not permitted. */
	DOCA_ERROR_IN_USE = 3,             /**< The object is in use by another. */
	DOCA_ERROR_NOT_SUPPORTED = 4,      /**< Not supported. */
	DOCA_ERROR_AGAIN = 5,              /**< Try again later. */
	DOCA_ERROR_INVALID_VALUE = 6,      /**< An argument is not valid. */
	DOCA_ERROR_NO_MEMORY = 7,          /**< Out of memory or resources. */
	DOCA_ERROR_INITIALIZATION = 8,     /**< Initialisation failed. */
	DOCA_ERROR_TIME_OUT = 9,           /**< Timed out. */
	DOCA_ERROR_SHUTDOWN = 10,          /**< Shut down. */
	DOCA_ERROR_CONNECTION_RESET = 11,  /**< The connection was reset. */
	DOCA_ERROR_CONNECTION_ABORTED = 12, /**< The connection was closed. */
	DOCA_ERROR_CONNECTION_INPROGRESS = 13, /**< The connection is being set up. */
	DOCA_ERROR_NOT_CONNECTED = 14,     /**< Not connected. */
	DOCA_ERROR_NO_LOCK = 15,           /**< A lock could not be taken. */
	DOCA_ERROR_NOT_FOUND = 16,         /**< Not found. */
	DOCA_ERROR_IO_FAILED = 17,         /**< Input/output failed. */
	DOCA_ERROR_BAD_STATE = 18,         /**< The object is not in a state that allows it. */
	DOCA_ERROR_UNSUPPORTED_VERSION = 19, /**< Unsupported version. */
	DOCA_ERROR_OPERATING_SYSTEM = 20,  /**< An operating-system call failed. */
	DOCA_ERROR_DRIVER = 21,            /**< The driver failed. */
	DOCA_ERROR_UNEXPECTED = 22,        /**< Unexpected result. */
	DOCA_ERROR_ALREADY_EXIST = 23,     /**< Already exists. */
	DOCA_ERROR_FULL = 24,              /**< Full. */
	DOCA_ERROR_EMPTY = 25,             /**< Empty. */
	DOCA_ERROR_IN_PROGRESS = 26,       /**< Started; completes through progress. */
	DOCA_ERROR_TOO_BIG = 27,           /**< Too big. */
} doca_error_t;

/** True if r is an error. */
#define DOCA_IS_ERROR(r) ((r) != DOCA_SUCCESS)

/** Keep the first error: set r to t only while r is still DOCA_SUCCESS. */
#define DOCA_ERROR_PROPAGATE(r, t) \
	do { \
		if ((r) == DOCA_SUCCESS) \
			(r) = (t); \
	} while (0)

/**
 * Name of an error code, e.g. "DOCA_ERROR_BAD_STATE".
 *
 * @param error An error code.
 * @return The name; "DOCA_ERROR_UNKNOWN_CODE" for a value outside the enum (never NULL).
 */
const char *
doca_error_get_name(doca_error_t error);

/**
 * One-line description of an error code, e.g. "Bad state".
 *
 * @param error An error code.
 * @return The description; "Unknown error code" for a value outside the enum (never NULL).
 */
const char *
doca_error_get_descr(doca_error_t error);

/**
 * The DOCA error for a 0 or negative errno value, as rte_comch returns them.
 * rte_comch answers -EBUSY both for an object in use and for an object in the
 * wrong state: the layer tells the two apart per call, from the object's state,
 * and this function answers DOCA_ERROR_IN_USE for -EBUSY and
 * DOCA_ERROR_BAD_STATE for -EBADFD.
 *
 * @param neg_errno 0 or a negative errno value (a positive one is negated).
 * @return The error code; DOCA_ERROR_UNKNOWN for an errno with no mapping.
 */
doca_error_t
rte_comch_doca_error_from_errno(int neg_errno);

/**
 * The negative errno value rte_comch uses for a DOCA error.
 *
 * @param error An error code.
 * @return 0 for DOCA_SUCCESS; the negative errno otherwise, one per error code
 *   (DOCA_ERROR_IN_USE is -EBUSY, DOCA_ERROR_BAD_STATE is -EBADFD, so the two
 *   stay apart both ways); -EINVAL for a value outside the enum.
 */
int
rte_comch_doca_error_to_errno(doca_error_t error);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_COMPAT_ERROR_H */
