/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef DOCA_COMPAT_ARGP_H
#define DOCA_COMPAT_ARGP_H

/**
 * @file
 * DOCA compatibility layer: command-line and JSON argument parsing.
 *
 * A program registers its flags (doca_argp_param_*), then doca_argp_start()
 * parses the command line with getopt_long() and calls each flag's callback with
 * its value and the program's configuration. Every program also gets:
 * - `-h`, `--help`: print the usage on stdout and exit(EXIT_SUCCESS) (after
 *   doca_argp_destroy()), as DOCA does;
 * - `-v`, `--version`: call the callback of doca_argp_register_version_callback()
 *   (which usually exits; if it returns DOCA_SUCCESS, parsing goes on), or else
 *   print the layer's version and exit(EXIT_SUCCESS);
 * - `-l`, `--log-level <10..70>`: doca_log_level_set_global_lower_limit();
 * - `--sdk-log-level <10..70>`: doca_log_level_set_global_sdk_limit();
 * - `-j`, `--json <path>`: read flags from a JSON file (below).
 *
 * Short names may be longer than one letter (`-pf`), as DOCA allows; a flag
 * of type BOOLEAN takes no value on the command line. A flag given twice is an
 * error unless doca_argp_param_set_multiplicity() was called (the callback then
 * runs once per occurrence).
 *
 * JSON file: one object, either DOCA's layout
 * `{"doca_general_flags": {"log-level": 60}, "doca_program_flags": {"pci-addr": "03:00.0"}}`
 * or flat `{"pci-addr": "03:00.0", "log-level": 60}`. Keys are long names; values
 * are strings, integers, true/false or (for STRING/INT/DOUBLE) numbers, and
 * arrays of them for flags with multiplicity. JSON values are applied first,
 * so a flag on the command line overrides them. "doca_dpdk_flags" is refused
 * with DOCA_ERROR_NOT_SUPPORTED: DPDK flags go on the command line.
 *
 * DPDK programs (doca_argp_set_dpdk_program()): the command line is
 * `program [DPDK flags] -- [DOCA flags] [program flags]`; the DPDK flags, with
 * argv[0] in front, go to the DPDK callback after the program's flags are parsed
 * and before the validation callback. Without "--" every argument is a program
 * argument and the DPDK callback gets argv[0] alone.
 *
 * Errors (unknown flag, missing value, bad number, flag given twice, missing
 * mandatory flag) are logged through the SDK log (see doca_log.h), followed by
 * the usage on stderr, and doca_argp_start() returns DOCA_ERROR_INVALID_VALUE:
 * unlike DOCA, which exits, the program decides (DOCA's samples check the
 * result and exit anyway).
 *
 * Thread-safety: none; the parser is one per process, used by one thread
 * while the program starts.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <doca_error.h>
#include <doca_log.h>
#include <doca_types.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Callback of a flag: param points to the value (char * for STRING, int * for
 * INT, bool * for BOOLEAN, double * for DOUBLE), valid only during the call;
 * config is the pointer given to doca_argp_init(). A result other than
 * DOCA_SUCCESS makes doca_argp_start() fail with it.
 */
typedef doca_error_t (*doca_argp_param_cb_t)(void *param, void *config);

/** Callback receiving the DPDK flags (argv[0] first). */
typedef doca_error_t (*doca_argp_dpdk_cb_t)(int argc, char **argv);

/** Callback validating the whole configuration once every flag is parsed. */
typedef doca_error_t (*doca_argp_validation_cb_t)(void *config);

/** Type of a flag's value. */
enum doca_argp_type {
	DOCA_ARGP_TYPE_UNKNOWN = 0, /**< Not set: registering the flag fails. */
	DOCA_ARGP_TYPE_STRING,      /**< A string. */
	DOCA_ARGP_TYPE_INT,         /**< A decimal int. */
	DOCA_ARGP_TYPE_BOOLEAN,     /**< No value on the command line; true/false in JSON. */
	DOCA_ARGP_TYPE_DEVICE,      /**< DOCA 3's device flag: not supported (register fails). */
	DOCA_ARGP_TYPE_DEVICE_REP,  /**< DOCA 3's representor flag: not supported. */
	DOCA_ARGP_TYPE_DOUBLE,      /**< A floating-point number. */
	DOCA_ARGP_TYPE_JSON_OBJ,    /**< DOCA 2's json-c object: not supported. */
};

/** A program flag. */
struct doca_argp_param;

/**
 * Print the usage (program name, DOCA flags, program flags) on stdout.
 */
void
doca_argp_usage(void);

/**
 * Start the parser.
 *
 * @param program_name Name shown in the usage; NULL: the base name of argv[0]
 *   given to doca_argp_start().
 * @param program_config Passed to every callback.
 * @return DOCA_SUCCESS; DOCA_ERROR_BAD_STATE if the parser is already started;
 *   DOCA_ERROR_NO_MEMORY.
 */
doca_error_t
doca_argp_init(const char *program_name, void *program_config);

/**
 * Create a flag, to be described with the setters and registered.
 *
 * @param param Set to the flag.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if param is NULL;
 *   DOCA_ERROR_NO_MEMORY.
 */
doca_error_t
doca_argp_param_create(struct doca_argp_param **param);

/**
 * Destroy a flag that was not registered (a registered one belongs to the parser).
 *
 * @param param The flag.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if param is NULL;
 *   DOCA_ERROR_BAD_STATE if it is registered.
 */
doca_error_t
doca_argp_param_destroy(struct doca_argp_param *param);

/**
 * Set the short name, without its dash ("p" for -p; "pf" for -pf). The string
 * is copied, as by every setter here.
 *
 * @param param The flag (not NULL).
 * @param name The name.
 */
void
doca_argp_param_set_short_name(struct doca_argp_param *param, const char *name);

/**
 * Set the long name, without its dashes ("pci-addr" for --pci-addr); also the
 * flag's JSON key.
 *
 * @param param The flag (not NULL).
 * @param name The name.
 */
void
doca_argp_param_set_long_name(struct doca_argp_param *param, const char *name);

/**
 * Set how the value is shown in the usage, e.g. "<path>".
 *
 * @param param The flag (not NULL).
 * @param arguments The text.
 */
void
doca_argp_param_set_arguments(struct doca_argp_param *param, const char *arguments);

/**
 * Set the description shown in the usage (required).
 *
 * @param param The flag (not NULL).
 * @param description The text.
 */
void
doca_argp_param_set_description(struct doca_argp_param *param, const char *description);

/**
 * Set the callback (required).
 *
 * @param param The flag (not NULL).
 * @param callback Called with the value and the program's configuration.
 */
void
doca_argp_param_set_callback(struct doca_argp_param *param, doca_argp_param_cb_t callback);

/**
 * Set the type of the value (required).
 *
 * @param param The flag (not NULL).
 * @param type The type.
 */
void
doca_argp_param_set_type(struct doca_argp_param *param, enum doca_argp_type type);

/**
 * Make the flag mandatory: doca_argp_start() fails without it (on the command
 * line or in the JSON file).
 *
 * @param param The flag (not NULL).
 */
void
doca_argp_param_set_mandatory(struct doca_argp_param *param);

/**
 * Refuse the flag in a JSON file.
 *
 * @param param The flag (not NULL).
 */
void
doca_argp_param_set_cli_only(struct doca_argp_param *param);

/**
 * Accept the flag more than once; the callback runs once per occurrence (a JSON
 * array gives one occurrence per element).
 *
 * @param param The flag (not NULL).
 */
void
doca_argp_param_set_multiplicity(struct doca_argp_param *param);

/**
 * Make the flag singular: it must be the only program flag given.
 *
 * @param param The flag (not NULL).
 */
void
doca_argp_param_set_singular(struct doca_argp_param *param);

/**
 * Leave the flag out of the usage (it is still accepted).
 *
 * @param param The flag (not NULL).
 */
void
doca_argp_param_set_hidden(struct doca_argp_param *param);

/**
 * Register a flag. The parser owns it from now on, even when this fails.
 *
 * @param input_param The flag.
 * @return DOCA_SUCCESS; DOCA_ERROR_BAD_STATE if the parser is not initialised
 *   or the flag is already registered; DOCA_ERROR_INITIALIZATION if it lacks a
 *   name, description, callback or type; DOCA_ERROR_INVALID_VALUE if a name is
 *   malformed or taken (the DOCA flags' names included);
 *   DOCA_ERROR_NOT_SUPPORTED for the DEVICE, DEVICE_REP and JSON_OBJ types.
 */
doca_error_t
doca_argp_register_param(struct doca_argp_param *input_param);

/**
 * Replace what -v/--version does.
 *
 * @param callback Called with (NULL, program config); if it exits the program,
 *   it should call doca_argp_destroy() first; if it returns an error,
 *   doca_argp_start() fails with it, else parsing goes on.
 * @return DOCA_SUCCESS; DOCA_ERROR_BAD_STATE if the parser is not initialised;
 *   DOCA_ERROR_INVALID_VALUE if callback is NULL.
 */
doca_error_t
doca_argp_register_version_callback(doca_argp_param_cb_t callback);

/**
 * Register a callback that checks the configuration once every flag is parsed.
 *
 * @param callback Called with the program config; its error fails doca_argp_start().
 * @return DOCA_SUCCESS; DOCA_ERROR_BAD_STATE if the parser is not initialised;
 *   DOCA_ERROR_INVALID_VALUE if callback is NULL.
 */
doca_error_t
doca_argp_register_validation_callback(doca_argp_validation_cb_t callback);

/**
 * Mark the program as a DPDK program: the arguments before "--" go to callback
 * (see the file description).
 *
 * @param callback Receives the DPDK flags; the array lives until
 *   doca_argp_destroy(). Ignored (with a log line) before doca_argp_init().
 */
void
doca_argp_set_dpdk_program(doca_argp_dpdk_cb_t callback);

/**
 * Parse the command line (and a JSON file if -j is given), calling the
 * callbacks. Once per doca_argp_init().
 *
 * @param argc Argument count, as main() got it.
 * @param argv Arguments; not modified.
 * @return DOCA_SUCCESS; DOCA_ERROR_BAD_STATE if not initialised or already
 *   started; DOCA_ERROR_INVALID_VALUE for bad input (logged, usage printed);
 *   DOCA_ERROR_NOT_FOUND / DOCA_ERROR_IO_FAILED if the JSON file cannot be
 *   read; DOCA_ERROR_NOT_SUPPORTED for DPDK flags in it; DOCA_ERROR_NO_MEMORY;
 *   or the error a callback returned.
 */
doca_error_t
doca_argp_start(int argc, char **argv);

/**
 * Release the parser, its flags and the DPDK argument array; doca_argp_init()
 * may be called again.
 *
 * @return DOCA_SUCCESS; DOCA_ERROR_BAD_STATE if the parser is not initialised.
 */
doca_error_t
doca_argp_destroy(void);

/**
 * The application log level: the one -l gave, else the global lower limit.
 *
 * @param log_level Set to a DOCA_LOG_LEVEL_* value.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if log_level is NULL.
 */
doca_error_t
doca_argp_get_log_level(int *log_level);

/**
 * The SDK log level: the one --sdk-log-level gave, else the global SDK level.
 *
 * @param log_level Set to a DOCA_LOG_LEVEL_* value.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if log_level is NULL.
 */
doca_error_t
doca_argp_get_sdk_log_level(int *log_level);

/**
 * Ignore unknown keys in the JSON file (logged as warnings) instead of failing.
 *
 * @return DOCA_SUCCESS; DOCA_ERROR_BAD_STATE if the parser is not initialised.
 */
doca_error_t
doca_argp_disable_pedantic_config_parsing(void);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_COMPAT_ARGP_H */
