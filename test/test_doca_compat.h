/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef TEST_DOCA_COMPAT_H
#define TEST_DOCA_COMPAT_H

/**
 * @file
 * Helpers of the DOCA compatibility layer's suites (test_doca_compat*.c).
 *
 * The layer loads its PCI mapping and starts EAL once per process, on the first
 * call that needs them, from the environment. So:
 * - an in-process suite sets its mapping (dt_env_setup()) in main(), before
 *   any DOCA call, and every test of it shares that mapping and EAL;
 * - a case that needs a mapping or EAL of its own runs in a forked child
 *   (dt_child_run()) that sets its environment, makes its DOCA calls and
 *   reports through its exit status; the parent asserts it.
 * DT_ASSERT() and friends work in both: in a child they print where they
 * failed and _exit(1), in the cmocka process they fail the test.
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <setjmp.h>
#include <sys/types.h>
#include <cmocka.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_comch.h>
#include <doca_comch_consumer.h>
#include <doca_comch_producer.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_error.h>
#include <doca_mmap.h>
#include <doca_pe.h>

/** Safety bound of every wait: a wait that reaches it fails the test. */
#define DT_TIMEOUT_MS 10000
/** Safety bound of a forked child. */
#define DT_CHILD_TIMEOUT_MS 60000
#define DT_MAX_LOG 16

/* ------------------------------------------------------------- assertions */

/** True in a forked child: assertions _exit(1) instead of failing the cmocka test. */
extern bool dt_in_child;

void dt_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), noreturn));

#define DT_ASSERT(cond) do { \
	if (!(cond)) \
		dt_fail(__FILE__, __LINE__, "%s", #cond); \
} while (0)

/** Assert that a DOCA call returns exp (the names of both are printed otherwise). */
#define DT_ERR(call, exp) do { \
	doca_error_t dt_r_ = (call); \
	doca_error_t dt_e_ = (exp); \
	if (dt_r_ != dt_e_) \
		dt_fail(__FILE__, __LINE__, "%s returned %s, expected %s", #call, \
			doca_error_get_name(dt_r_), doca_error_get_name(dt_e_)); \
} while (0)

#define DT_OK(call) DT_ERR(call, DOCA_SUCCESS)

#define DT_EQ(a, b) do { \
	long long dt_a_ = (long long)(a); \
	long long dt_b_ = (long long)(b); \
	if (dt_a_ != dt_b_) \
		dt_fail(__FILE__, __LINE__, "%s == %s: %lld != %lld", #a, #b, dt_a_, dt_b_); \
} while (0)

#define DT_STREQ(a, b) do { \
	const char *dt_a_ = (a); \
	const char *dt_b_ = (b); \
	if (dt_a_ == NULL || dt_b_ == NULL || strcmp(dt_a_, dt_b_) != 0) \
		dt_fail(__FILE__, __LINE__, "%s == %s: \"%s\" != \"%s\"", #a, #b, \
			dt_a_ ? dt_a_ : "(null)", dt_b_ ? dt_b_ : "(null)"); \
} while (0)

/* ------------------------------------------------------ environment, files */

/** Milliseconds of CLOCK_MONOTONIC. */
uint64_t dt_now_ms(void);
/** Remove a directory tree (or a file); missing is fine. */
void dt_rm_tree(const char *path);
/** The directory where EAL keeps the runtime files of a file prefix. */
void dt_eal_rundir(const char *prefix, char *buf, size_t len);
/** A fresh private directory under /tmp (dt_rm_tree() it). */
void dt_mkdtemp(char *buf, size_t len);

/**
 * In-process suites: make the mapping of this process
 * RTE_COMCH_DOCA_DEVICES="03:00.0=shm:domain=<unique>,role=dpu,dir=<tmp>;
 * 04:00.0=shm:domain=<unique>,role=host,dir=<tmp>", with no other
 * RTE_COMCH_DOCA_* variable (EAL starts with the layer's defaults). Call from
 * main() before any DOCA call.
 */
void dt_env_setup(void);
/** Undo dt_env_setup(): stop EAL if the layer started it, remove the files. */
void dt_env_teardown(void);
/** The runtime directory of dt_env_setup(). */
const char *dt_env_dir(void);
/** Clear every RTE_COMCH_DOCA_* variable (a child's first step). */
void dt_env_clear(void);

/* --------------------------------------------------------- forked children */

typedef int (*dt_child_fn_t)(void *arg);

struct dt_child {
	pid_t pid;		/**< 0 once reaped. */
	int status;		/**< Exit code, 128 + signal, or -1 if killed at the bound. */
	char log[256];		/**< Its stdout and stderr. */
};

/** Fork a child that runs fn(arg) (dt_in_child set, output to c->log) and exits with its result. */
void dt_child_start(struct dt_child *c, const char *name, dt_child_fn_t fn, void *arg);
/**
 * Wait for a child, at most timeout_ms (then SIGKILL: status -1). Prints its
 * log if it did not exit 0, removes the EAL runtime directory of the layer's
 * default file prefix (doca-<pid>). Returns its status.
 */
int dt_child_wait(struct dt_child *c, unsigned int timeout_ms);
/** Start and wait; the log stays for dt_child_log_has(), then dt_child_done() removes it. */
int dt_child_run(struct dt_child *c, const char *name, dt_child_fn_t fn, void *arg);
/** Whether the child's log has a line containing s. */
bool dt_child_log_has(const struct dt_child *c, const char *s);
/** Remove the child's log. */
void dt_child_done(struct dt_child *c);

/* ------------------------------------------------------------- progress */

typedef bool (*dt_pred_t)(void *arg);

/** Progress pe until pred(arg), at most DT_TIMEOUT_MS; false at the bound. */
bool dt_progress_until(struct doca_pe *pe, dt_pred_t pred, void *arg);
/** Progress pe until ctx is in state st (false at the bound). */
bool dt_wait_state(struct doca_pe *pe, struct doca_ctx *ctx, enum doca_ctx_states st);
/** Progress pe until *counter >= target (false at the bound). */
bool dt_wait_count(struct doca_pe *pe, const uint32_t *counter, uint32_t target);
/** A context's state (DT_ASSERTs the call). */
enum doca_ctx_states dt_state(const struct doca_ctx *ctx);

/* ------------------------------------------------ recording callbacks */

/** What a server or client saw; its ctx user data points to it. */
struct dt_rec {
	struct doca_ctx *ctx;		/**< The context it records. */
	/* state changes */
	uint32_t nb_states;
	enum doca_ctx_states prev[DT_MAX_LOG];
	enum doca_ctx_states next[DT_MAX_LOG];
	struct doca_ctx *state_ctx;	/**< ctx argument of the last state callback. */
	union doca_data state_ud;	/**< user_data argument of the last state callback. */
	/* messages */
	uint32_t nb_recv;
	uint32_t last_len;
	uint8_t last_msg[512];
	struct doca_comch_connection *last_recv_conn;
	union doca_data last_recv_conn_ud;	/**< The connection's user data, in the callback. */
	/* send tasks */
	bool keep_tasks;		/**< Do not free tasks in the callbacks. */
	uint32_t nb_send_ok;
	uint32_t nb_send_err;
	doca_error_t last_status;
	union doca_data last_task_ud;
	union doca_data last_ctx_ud;
	struct doca_ctx *last_task_ctx;	/**< doca_task_get_ctx() in the callback. */
	struct doca_comch_task_send *last_task;
	/* connections (server) */
	uint32_t nb_connect;
	uint32_t nb_connect_failed;	/**< Connection callbacks with change_successful 0. */
	uint32_t nb_disconnect;
	struct doca_comch_connection *conn;	/**< Last connected. */
	uint8_t last_change_ok;
	/* consumers of the other side */
	uint32_t nb_new_cons;
	uint32_t nb_exp_cons;
	uint32_t new_cons_id;
	uint32_t exp_cons_id;
	struct doca_comch_connection *new_cons_conn;
	struct doca_comch_connection *exp_cons_conn;
};

void dt_state_cb(const union doca_data user_data, struct doca_ctx *ctx,
		 enum doca_ctx_states prev_state, enum doca_ctx_states next_state);
void dt_send_ok_cb(struct doca_comch_task_send *task, union doca_data task_user_data,
		   union doca_data ctx_user_data);
void dt_send_err_cb(struct doca_comch_task_send *task, union doca_data task_user_data,
		    union doca_data ctx_user_data);
void dt_recv_cb(struct doca_comch_event_msg_recv *event, uint8_t *recv_buffer, uint32_t msg_len,
		struct doca_comch_connection *conn);
void dt_connect_cb(struct doca_comch_event_connection_status_changed *event,
		   struct doca_comch_connection *conn, uint8_t change_successful);
void dt_disconnect_cb(struct doca_comch_event_connection_status_changed *event,
		      struct doca_comch_connection *conn, uint8_t change_successful);
void dt_new_cons_cb(struct doca_comch_event_consumer *event, struct doca_comch_connection *conn,
		    uint32_t id);
void dt_exp_cons_cb(struct doca_comch_event_consumer *event, struct doca_comch_connection *conn,
		    uint32_t id);

/** Callbacks that do nothing, for configuration calls that want one. */
void dt_dummy_state_cb(const union doca_data user_data, struct doca_ctx *ctx,
		       enum doca_ctx_states prev_state, enum doca_ctx_states next_state);
void dt_dummy_prod_cb(struct doca_comch_producer_task_send *task, union doca_data task_user_data,
		      union doca_data ctx_user_data);
void dt_dummy_cons_cb(struct doca_comch_consumer_task_post_recv *task,
		      union doca_data task_user_data, union doca_data ctx_user_data);

/* ------------------------------------------------------- server and client */

/** A server and a client on one engine (in one process or in two). */
struct dt_pair {
	struct doca_dev *dpu;		/**< The device the server runs on. */
	struct doca_dev *host;		/**< The device the client runs on. */
	struct doca_dev_rep *rep;
	struct doca_pe *pe;
	struct doca_comch_server *server;
	struct doca_comch_client *client;
	struct doca_comch_connection *sconn;	/**< The server's end. */
	struct doca_comch_connection *cconn;	/**< The client's end. */
	struct dt_rec srec;
	struct dt_rec crec;
	char name[64];			/**< The server's name. */
};

/** Open the device answering to pci (the first one, if pci is NULL). */
struct doca_dev *dt_dev_open(const char *pci);
/** Open the first representor of dev. */
struct doca_dev_rep *dt_rep_open(struct doca_dev *dev);

/** Open the dpu ("03:00.0") and host ("04:00.0") devices, the representor and the engine. */
void dt_pair_open(struct dt_pair *p);
/** Create the server (named p->name, unique if empty), configured, on the engine, IDLE. */
void dt_server_create(struct dt_pair *p, uint32_t num_send_tasks);
/** Create the client, configured, on the engine, IDLE. */
void dt_client_create(struct dt_pair *p, uint32_t num_send_tasks);
/** Start the server and the client and wait until they are connected. */
void dt_pair_connect(struct dt_pair *p);
/** Both ends of p set up and connected: dt_pair_open, create both, connect. */
void dt_pair_up(struct dt_pair *p);
/**
 * Stop what runs, destroy and close everything of p, best effort (for
 * tear-downs after a failure too). Returns true if all went well.
 */
bool dt_pair_down(struct dt_pair *p);
/** Send msg from the client (to_server) or the server and wait for its completion. */
void dt_send(struct dt_pair *p, bool to_server, const void *msg, uint32_t len,
	     union doca_data task_ud);
/** A unique name (server names, domains): "<tag><pid>x<n>". */
void dt_unique(char *buf, size_t len, const char *tag);

#endif /* TEST_DOCA_COMPAT_H */
