/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef DOCA_COMPAT_LOG_H
#define DOCA_COMPAT_LOG_H

/**
 * @file
 * DOCA compatibility layer: logging.
 *
 * Two kinds of messages, two kinds of backends:
 * - application messages (DOCA_LOG_ERR() and friends, from the program) go to
 *   application backends, each showing the levels between its upper limit (the
 *   most severe shown) and its lower limit (the most verbose shown);
 * - SDK messages (the layer's, rte_comch's and its drivers': everything they log
 *   through DPDK's rte_log) go to SDK backends, each with one level.
 *
 * Nothing is printed for a kind of message until a backend of that kind exists,
 * as with DOCA; one exception: until the program creates an SDK backend, the
 * SDK's messages stay where DPDK prints them (stderr). Once an SDK backend
 * exists, DPDK's log stream is redirected into the SDK backends.
 *
 * The SDK level also sets the DPDK log level of the "lib.comch", "lib.comch.*"
 * and "pmd.comch.*" log types (the most verbose of the SDK backends' levels),
 * so that messages no backend would show are not even formatted.
 *
 * A line looks like DOCA's:
 * `[HH:MM:SS:usec][pid][DOCA][LVL][file.c:line][function] message` for an
 * application message, `[HH:MM:SS:usec][pid][DOCA][LVL][logtype] message` for
 * an SDK message, with LVL one of CRT, ERR, WRN, INF, DBG, TRC.
 *
 * Backends live until the process ends (DOCA has no call to destroy one).
 *
 * Thread-safety: every function here may be called from any thread; each line
 * reaches a backend in one piece.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
/* DOCA programs use stdio and string functions after including only DOCA's
 * headers: this header brings them, as DOCA's does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <doca_error.h>
#include <doca_types.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Log levels, from the least verbose to the most. */
enum doca_log_level {
	DOCA_LOG_LEVEL_DISABLE = 10, /**< Nothing. As a limit: the backend shows nothing. */
	DOCA_LOG_LEVEL_CRIT = 20,    /**< Critical. */
	DOCA_LOG_LEVEL_ERROR = 30,   /**< Error. */
	DOCA_LOG_LEVEL_WARNING = 40, /**< Warning. */
	DOCA_LOG_LEVEL_INFO = 50,    /**< Information. */
	DOCA_LOG_LEVEL_DEBUG = 60,   /**< Debug. */
	DOCA_LOG_LEVEL_TRACE = 70,   /**< Trace (DOCA_LOG_TRC() needs DOCA_LOGGING_ALLOW_TRACE). */
};

/** Size of a log source name, with its NUL; longer names are cut. */
#define DOCA_LOGGER_NAME_SIZE 256

/** A logging backend, for application or for SDK messages. */
struct doca_log_backend;

/**
 * Handler of a buffer backend: called once per line, with the line (NUL
 * terminated, ending with a newline) in the backend's buffer.
 */
typedef void (*log_flush_callback)(char *buf);

/**
 * Most application backends the process can create.
 *
 * @return The number (doca_log_backend_create_standard() takes two).
 */
uint32_t
doca_log_get_max_num_backends(void);

/**
 * Most SDK backends the process can create.
 *
 * @return The number.
 */
uint32_t
doca_log_get_max_num_backends_sdk(void);

/**
 * Set the lower limit (most verbose level shown) of an application backend.
 *
 * @param backend An application backend.
 * @param level A DOCA_LOG_LEVEL_* value; a strict lower limit is not exceeded.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if backend is NULL or level is
 *   not a level; DOCA_ERROR_NOT_PERMITTED if the backend is an SDK backend.
 */
doca_error_t
doca_log_backend_set_level_lower_limit(struct doca_log_backend *backend, uint32_t level);

/**
 * Set the upper limit (most severe level shown) of an application backend.
 *
 * @param backend An application backend.
 * @param upper_limit A DOCA_LOG_LEVEL_* value; a strict upper limit is not
 *   undercut.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if backend is NULL or the level
 *   is not a level; DOCA_ERROR_NOT_PERMITTED if the backend is an SDK backend.
 */
doca_error_t
doca_log_backend_set_level_upper_limit(struct doca_log_backend *backend, uint32_t upper_limit);

/**
 * Make the current lower limit of an application backend strict: later global
 * or direct changes may make the backend less verbose, never more verbose than
 * this limit.
 *
 * @param backend An application backend.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if backend is NULL;
 *   DOCA_ERROR_NOT_PERMITTED for an SDK backend.
 */
doca_error_t
doca_log_backend_set_level_lower_limit_strict(struct doca_log_backend *backend);

/**
 * Make the current upper limit of an application backend strict: later changes
 * may stop it from showing the most severe levels, never make it show levels
 * more severe than this limit.
 *
 * @param backend An application backend.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if backend is NULL;
 *   DOCA_ERROR_NOT_PERMITTED for an SDK backend.
 */
doca_error_t
doca_log_backend_set_level_upper_limit_strict(struct doca_log_backend *backend);

/**
 * Set the lower limit of every application backend (within a strict limit), and
 * the one new application backends start with (default: INFO). The -l flag of
 * doca_argp sets it.
 *
 * @param level A DOCA_LOG_LEVEL_* value.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if level is not a level.
 */
doca_error_t
doca_log_level_set_global_lower_limit(uint32_t level);

/**
 * Set the upper limit of every application backend (within a strict limit), and
 * the one new application backends start with (default: CRIT).
 *
 * @param upper_limit A DOCA_LOG_LEVEL_* value.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if the level is not a level.
 */
doca_error_t
doca_log_level_set_global_upper_limit(uint32_t upper_limit);

/**
 * The global lower limit of application backends.
 *
 * @return A DOCA_LOG_LEVEL_* value.
 */
uint32_t
doca_log_level_get_global_lower_limit(void);

/**
 * The global upper limit of application backends.
 *
 * @return A DOCA_LOG_LEVEL_* value.
 */
uint32_t
doca_log_level_get_global_upper_limit(void);

/**
 * Register a log source (a file or module of the program). DOCA_LOG_REGISTER()
 * calls it; programs seldom need to.
 *
 * @param source_name Name of the source, e.g. "COMCH_CLIENT::MAIN". Lines name
 *   their file, line and function, as DOCA's do, so the name is not printed.
 * @param source Set to the source's identifier.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if an argument is NULL;
 *   DOCA_ERROR_NO_MEMORY if no identifier is left (4096 per process).
 */
doca_error_t
doca_log_register_source(const char *source_name, int *source);

/**
 * Unregister a log source. The identifier stays usable (a destructor of another
 * file may still log with it), as with DOCA, where this does nothing.
 *
 * @param source An identifier from doca_log_register_source().
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for an unknown identifier.
 */
doca_error_t
doca_log_unregister_source(int source);

/**
 * The name of DOCA releases before 2.5 for doca_log_register_source().
 *
 * @param source_name Name of the source.
 * @param source Set to the source's identifier.
 * @return As doca_log_register_source().
 */
doca_error_t
doca_log_source_register(const char *source_name, int *source);

/**
 * The name of DOCA releases before 2.5 for doca_log_unregister_source().
 *
 * @param source An identifier from doca_log_register_source().
 * @return As doca_log_unregister_source().
 */
doca_error_t
doca_log_source_destroy(int source);

/**
 * Create an application backend writing to a stream (one fwrite and one fflush
 * per line). Its limits start at the global ones.
 *
 * @param fptr The stream; it must stay open for as long as the process logs.
 * @param backend Set to the backend.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if an argument is NULL;
 *   DOCA_ERROR_NO_MEMORY if the process has doca_log_get_max_num_backends().
 */
doca_error_t
doca_log_backend_create_with_file(FILE *fptr, struct doca_log_backend **backend);

/**
 * Create an application backend writing to a file descriptor (one write() per
 * line).
 *
 * @param fd The descriptor; it must stay open for as long as the process logs.
 * @param backend Set to the backend.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if backend is NULL or fd is
 *   not an open descriptor; DOCA_ERROR_NO_MEMORY if no backend is left.
 */
doca_error_t
doca_log_backend_create_with_fd(int fd, struct doca_log_backend **backend);

/**
 * Create an application backend writing each line at the start of a buffer and
 * then calling a handler. A line longer than capacity - 1 is cut to fit.
 *
 * @param buf The buffer.
 * @param capacity Its size.
 * @param handler Called after each line, with buf.
 * @param backend Set to the backend.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if a pointer is NULL or
 *   capacity is 0; DOCA_ERROR_NO_MEMORY if no backend is left.
 */
doca_error_t
doca_log_backend_create_with_buf(char *buf, size_t capacity, log_flush_callback handler,
				 struct doca_log_backend **backend);

/**
 * Create an application backend sending lines to syslog. The process has one
 * syslog identity: the first syslog backend's name sets it.
 *
 * @param name Identity for openlog(); the string must stay valid.
 * @param backend Set to the backend.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if an argument is NULL;
 *   DOCA_ERROR_NO_MEMORY if no backend is left.
 */
doca_error_t
doca_log_backend_create_with_syslog(const char *name, struct doca_log_backend **backend);

/**
 * Set the level of an SDK backend, and from it the DPDK level of the SDK log
 * types (see the file description).
 *
 * @param backend An SDK backend.
 * @param level A DOCA_LOG_LEVEL_* value.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if backend is NULL or level is
 *   not a level; DOCA_ERROR_NOT_PERMITTED for an application backend.
 */
doca_error_t
doca_log_backend_set_sdk_level(struct doca_log_backend *backend, uint32_t level);

/**
 * Create an SDK backend writing to a stream. Its level starts at the global SDK
 * level. The first SDK backend redirects DPDK's log stream into the SDK backends.
 *
 * @param fptr The stream; it must stay open for as long as the process logs.
 * @param backend Set to the backend.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if an argument is NULL;
 *   DOCA_ERROR_NO_MEMORY if no SDK backend is left or the redirection cannot be set up.
 */
doca_error_t
doca_log_backend_create_with_file_sdk(FILE *fptr, struct doca_log_backend **backend);

/**
 * Create an SDK backend writing to a file descriptor.
 *
 * @param fd The descriptor.
 * @param backend Set to the backend.
 * @return As doca_log_backend_create_with_fd(), for SDK backends.
 */
doca_error_t
doca_log_backend_create_with_fd_sdk(int fd, struct doca_log_backend **backend);

/**
 * Create an SDK backend writing to a buffer and calling a handler per line.
 *
 * @param buf The buffer.
 * @param capacity Its size.
 * @param handler Called after each line.
 * @param backend Set to the backend.
 * @return As doca_log_backend_create_with_buf(), for SDK backends.
 */
doca_error_t
doca_log_backend_create_with_buf_sdk(char *buf, size_t capacity, log_flush_callback handler,
				     struct doca_log_backend **backend);

/**
 * Create an SDK backend sending lines to syslog.
 *
 * @param name Identity for openlog() (see doca_log_backend_create_with_syslog()).
 * @param backend Set to the backend.
 * @return As doca_log_backend_create_with_syslog(), for SDK backends.
 */
doca_error_t
doca_log_backend_create_with_syslog_sdk(const char *name, struct doca_log_backend **backend);

/**
 * Set the level of every SDK backend, the one new SDK backends start with
 * (default: INFO), and from it the DPDK level of the SDK log types. The
 * --sdk-log-level flag of doca_argp sets it.
 *
 * @param level A DOCA_LOG_LEVEL_* value.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if level is not a level.
 */
doca_error_t
doca_log_level_set_global_sdk_limit(uint32_t level);

/**
 * The global SDK level.
 *
 * @return A DOCA_LOG_LEVEL_* value.
 */
uint32_t
doca_log_level_get_global_sdk_limit(void);

/**
 * Create the standard pair of application backends: stdout shows the levels
 * from INFO down to the global lower limit, stderr shows WARNING up to the
 * global upper limit (so errors and warnings go to stderr, the rest to stdout).
 * The INFO and WARNING ends are strict: -l 30 silences warnings and -l 60 adds
 * debug lines to stdout only. Calling it again does nothing.
 *
 * @return DOCA_SUCCESS; DOCA_ERROR_NO_MEMORY if no backend is left.
 */
doca_error_t
doca_log_backend_create_standard(void);

/**
 * Log an application message; use the DOCA_LOG*() macros instead.
 *
 * @param level DOCA_LOG_LEVEL_CRIT to DOCA_LOG_LEVEL_TRACE.
 * @param source Identifier from doca_log_register_source().
 * @param fname File of the call (its directories are not printed).
 * @param line Line of the call.
 * @param func Function of the call.
 * @param format printf() format, then its arguments.
 * @return DOCA_SUCCESS (also when no backend shows the level);
 *   DOCA_ERROR_INVALID_VALUE for a bad level, source or NULL format;
 *   DOCA_ERROR_NO_MEMORY if a long line cannot be formatted.
 */
doca_error_t
doca_log(uint32_t level, int source, const char *fname, int line, const char *func,
	 const char *format, ...) __attribute__((format(printf, 6, 7)));

/**
 * Register a rate-limit bucket for a call site; DOCA_LOG_RATE_LIMIT() calls it
 * the first time the call site runs.
 *
 * @param source Identifier from doca_log_register_source().
 * @param bucket Set to the bucket's identifier.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for a bad source or NULL
 *   bucket; DOCA_ERROR_NO_MEMORY when every bucket is taken (the call site then
 *   logs without a limit).
 */
doca_error_t
doca_log_rate_bucket_register(int source, int *bucket);

/**
 * The bucket of a rate-limited call site, registered the first time (with
 * doca_log_rate_bucket_register()); what DOCA_LOG_RATE_LIMIT() passes to
 * doca_log_rate_limit(). Not a DOCA function: it keeps the atomic accesses to
 * the call site's bucket inside the library. Thread-safe: call sites reached
 * by several threads at once keep one bucket.
 *
 * @param source Identifier from doca_log_register_source().
 * @param bucket The call site's bucket identifier, -1 until registered.
 * @return The bucket's identifier, or -1 (no limit) when no bucket could be
 *   registered (bad source, NULL bucket, every bucket taken).
 */
int
rte_comch_doca_log_rate_bucket(int source, int *bucket);

/**
 * Log an application message unless its bucket already let
 * DOCA_LOG_RATE_LIMIT_BURST messages through in the current
 * DOCA_LOG_RATE_LIMIT_PERIOD_MS window; use DOCA_LOG_RATE_LIMIT*() instead.
 *
 * @param level Level, as for doca_log().
 * @param source Identifier from doca_log_register_source().
 * @param fname File of the call.
 * @param line Line of the call.
 * @param func Function of the call.
 * @param bucket Identifier from doca_log_rate_bucket_register(); a negative one
 *   means no limit.
 * @param format printf() format, then its arguments.
 * @return As doca_log(); DOCA_SUCCESS also when the message is dropped.
 */
doca_error_t
doca_log_rate_limit(uint32_t level, int source, const char *fname, int line, const char *func,
		    int bucket, const char *format, ...) __attribute__((format(printf, 7, 8)));

/** Messages a rate-limited call site prints per window. */
#define DOCA_LOG_RATE_LIMIT_BURST 10
/** Length of a rate-limit window, in milliseconds. */
#define DOCA_LOG_RATE_LIMIT_PERIOD_MS 1000

/**
 * Log an application message at a level (a DOCA_LOG_LEVEL_* value) from a file
 * that used DOCA_LOG_REGISTER().
 */
#define DOCA_LOG(level, format, ...) \
	doca_log((level), log_source, __FILE__, __LINE__, __func__, format, ##__VA_ARGS__)

/** Log a critical application message. */
#define DOCA_LOG_CRIT(format, ...) DOCA_LOG(DOCA_LOG_LEVEL_CRIT, format, ##__VA_ARGS__)
/** Log an error. */
#define DOCA_LOG_ERR(format, ...) DOCA_LOG(DOCA_LOG_LEVEL_ERROR, format, ##__VA_ARGS__)
/** Log a warning. */
#define DOCA_LOG_WARN(format, ...) DOCA_LOG(DOCA_LOG_LEVEL_WARNING, format, ##__VA_ARGS__)
/** Log an information message. */
#define DOCA_LOG_INFO(format, ...) DOCA_LOG(DOCA_LOG_LEVEL_INFO, format, ##__VA_ARGS__)
/** Log a debug message. */
#define DOCA_LOG_DBG(format, ...) DOCA_LOG(DOCA_LOG_LEVEL_DEBUG, format, ##__VA_ARGS__)

#ifdef DOCA_LOGGING_ALLOW_TRACE
/** Log a trace message (compiled in because DOCA_LOGGING_ALLOW_TRACE is defined). */
#define DOCA_LOG_TRC(format, ...) DOCA_LOG(DOCA_LOG_LEVEL_TRACE, format, ##__VA_ARGS__)
#else
/**
 * Log a trace message: compiled out, as with DOCA, without
 * DOCA_LOGGING_ALLOW_TRACE. The dead call keeps the format checked and the
 * arguments "used", so a variable only traced raises no warning.
 */
#define DOCA_LOG_TRC(format, ...) \
	do { \
		if (0) \
			DOCA_LOG(DOCA_LOG_LEVEL_TRACE, format, ##__VA_ARGS__); \
	} while (0)
#endif

/**
 * Log with a rate limit per call site (see doca_log_rate_limit()); level is the
 * level's suffix: CRIT, ERROR, WARNING, INFO, DEBUG.
 */
#define DOCA_LOG_RATE_LIMIT(level, format, ...) \
	do { \
		static int doca_log_bucket_ = -1; \
		doca_log_rate_limit(DOCA_LOG_LEVEL_##level, log_source, __FILE__, __LINE__, \
			__func__, rte_comch_doca_log_rate_bucket(log_source, &doca_log_bucket_), \
			format, ##__VA_ARGS__); \
	} while (0)

/** Rate-limited critical message. */
#define DOCA_LOG_RATE_LIMIT_CRIT(format, ...) DOCA_LOG_RATE_LIMIT(CRIT, format, ##__VA_ARGS__)
/** Rate-limited error. */
#define DOCA_LOG_RATE_LIMIT_ERR(format, ...) DOCA_LOG_RATE_LIMIT(ERROR, format, ##__VA_ARGS__)
/** Rate-limited warning. */
#define DOCA_LOG_RATE_LIMIT_WARN(format, ...) DOCA_LOG_RATE_LIMIT(WARNING, format, ##__VA_ARGS__)
/** Rate-limited information message. */
#define DOCA_LOG_RATE_LIMIT_INFO(format, ...) DOCA_LOG_RATE_LIMIT(INFO, format, ##__VA_ARGS__)
/** Rate-limited debug message. */
#define DOCA_LOG_RATE_LIMIT_DBG(format, ...) DOCA_LOG_RATE_LIMIT(DEBUG, format, ##__VA_ARGS__)

/**
 * Register the file's log source, at file scope: `DOCA_LOG_REGISTER(NAME);`.
 * NAME is any token sequence (e.g. COMCH_CLIENT::MAIN); it is turned into a
 * string. Defines the file's static `log_source` that the DOCA_LOG*() macros use,
 * and a constructor that registers it before the program's ordinary constructors
 * run (priority 101), so that those may log.
 */
#define DOCA_LOG_REGISTER(source) \
	static int log_source = -1; \
	static void __attribute__((constructor(101), used)) \
	doca_log_register_source_ctor_(void) \
	{ \
		doca_log_register_source(#source, &log_source); \
	}

#ifdef __cplusplus
}
#endif

#endif /* DOCA_COMPAT_LOG_H */
