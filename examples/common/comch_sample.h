/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * What the comch sample applications share: their command line, signal
 * handling, opening the device, the progress engine, the main loop, stopping
 * and releasing, and printing. None of it is what a sample is about; each
 * sample's main.c keeps the API calls it shows, so that it reads on its own.
 *
 * Everything here runs on the main lcore, the one that polls the sample's engine.
 */

#ifndef COMCH_SAMPLE_H
#define COMCH_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_comch.h>

/* Longest part of a message printed; the rest is summarised as "...". */
#define COMCH_SAMPLE_PRINT_MAX 256
/* Room for comch_sample_quote(): 4 characters a byte at most, 2 quotes, "..." and a NUL. */
#define COMCH_SAMPLE_QUOTE_SIZE (COMCH_SAMPLE_PRINT_MAX * 4 + 6)

/* comch_sample_poll() goes on while the step function returns this. */
#define COMCH_SAMPLE_AGAIN 1

/* The options of all the samples; each takes some of them (see struct comch_sample_opts). */
struct comch_sample_args {
	const char *devargs;   /* -p: the device */
	const char *rep;       /* -r: representor (host function) clients come through */
	const char *name;      /* -n: server name */
	const char *text;      /* -t: the message */
	uint32_t timeout_s;    /* -T: give up after that long (0: never), as the sample says */
	uint32_t nb_clients;   /* -c: stop after that many clients have disconnected */
	uint32_t count;        /* -N: how many messages to exchange */
	uint32_t size;         /* -s: bytes of each message's payload */
	uint32_t window;       /* -w: messages in flight at most */
};

/* What tells one sample's command line from another's. */
struct comch_sample_opts {
	/* The options taken, as for getopt(): a subset of "p:r:n:t:T:c:N:s:w:h". */
	const char *optstring;
	/* Largest -T: a client's timeout becomes milliseconds for the library. */
	uint32_t timeout_max;
	/* Range of -s, and a multiple it must be of (0 or 1: any). */
	uint32_t size_min, size_max, size_align;
	/* Largest -w (at least 1). */
	uint32_t window_max;
	/* A refused number is answered with the least value accepted. */
	bool range_hint;
	/* -t may not be empty: the text travels in a buffer, and an mmap cannot be 0 bytes. */
	bool text_required;
	/* Print the sample's usage. */
	void (*usage)(const char *prgname);
};

/*
 * Start a sample: line-buffer stdout, initialise EAL, parse the options that
 * follow EAL's (args comes with the sample's defaults and gets what was given)
 * and catch SIGINT and SIGTERM. Returns 0 to go on, 1 when the sample must
 * exit with 0 (-h), a negative value when it must exit with 1 (EAL is cleaned
 * up first if it came up).
 */
int
comch_sample_init(int argc, char **argv, const struct comch_sample_opts *opts,
		  struct comch_sample_args *args);

/* The signal that asked the sample to stop, 0 while none came. */
int
comch_sample_signal(void);

/* The name of an errno value of either sign ("ENOENT"), for messages. */
const char *
comch_sample_errno_name(int err);

/* What rte_comch_ctx_get_last_error() means for a client, in words. */
const char *
comch_sample_client_error_reason(int err);

/* Why a server's connection ended, as its disconnection callback tells, in words. */
const char *
comch_sample_disconnect_reason(int status);

/* Print a state change as "<who>: <what> <prev> -> <next>". */
void
comch_sample_print_state(const char *who, const char *what, enum rte_comch_ctx_state prev_state,
			 enum rte_comch_ctx_state next_state);

/*
 * Quote a message received from a peer for printing: between double quotes,
 * with unprintable bytes as \xNN, a backslash before " and \, and at most
 * COMCH_SAMPLE_PRINT_MAX bytes then "...". Returns out.
 */
const char *
comch_sample_quote(char out[COMCH_SAMPLE_QUOTE_SIZE], const uint8_t *msg, size_t len);

/* Whether more than timeout_s seconds have passed since TSC value since; never for 0 s. */
bool
comch_sample_timed_out(uint64_t since, uint32_t timeout_s);

/*
 * Open the device and check that it can run the sample: a server, on the
 * representor rep_name, opened into *rep; or a client when rep_name and rep
 * are NULL; with producers and consumers if fast_path. Returns 0 or -errno,
 * printed; what was opened is in *dev and *rep either way, for the teardown.
 */
int
comch_sample_open_device(const char *devargs, const char *rep_name, bool fast_path,
			 struct rte_comch_dev **dev, struct rte_comch_dev_rep **rep);

/* Create the calling lcore's progress engine. NULL with rte_errno set, printed. */
struct rte_comch_pe *
comch_sample_pe_create(void);

/*
 * Attach a context (named what in messages) to the engine and start it.
 * Returns 0, also when the start goes on in progress (-EINPROGRESS), or
 * -errno, printed.
 */
int
comch_sample_start_ctx(struct rte_comch_pe *pe, struct rte_comch_ctx *ctx, const char *what);

/*
 * The main loop: progress the engine, then call step(arg), until step returns
 * 0 (done) or -errno (failed, already printed) instead of COMCH_SAMPLE_AGAIN.
 * Returns that, -errno (printed) when progress fails, or -EINTR when a signal
 * came: the sample says what a signal means to it (comch_sample_signal()).
 */
int
comch_sample_poll(struct rte_comch_pe *pe, int (*step)(void *arg), void *arg);

/*
 * For a client's main loop: its context's state in *state and 0, or -errno
 * (printed) when the context went back to IDLE by itself (the connection
 * failed or ended) or is still STARTING a second after timeout_s since
 * started_at. was_running tells a lost connection from one never made.
 */
int
comch_sample_client_state(struct rte_comch_ctx *ctx, const char *name, uint32_t timeout_s,
			  uint64_t started_at, bool was_running, enum rte_comch_ctx_state *state);

/*
 * Stop a context (named what in messages) and progress the engine until it is
 * IDLE, within a deadline. Returns 0 or -errno, printed.
 */
int
comch_sample_stop_ctx(struct rte_comch_pe *pe, struct rte_comch_ctx *ctx, const char *what);

/* Destroy the engine, once no context uses it any more; NULL is fine. Returns 0 or -errno. */
int
comch_sample_pe_destroy(struct rte_comch_pe *pe);

/* Close the representor, then the device; either may be NULL. Returns 0 or -errno. */
int
comch_sample_close_device(struct rte_comch_dev_rep *rep, struct rte_comch_dev *dev);

#endif /* COMCH_SAMPLE_H */
