/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef COMCH_TEST_COMMON_H
#define COMCH_TEST_COMMON_H

/**
 * @file
 * Helpers shared by the in-process (suite "fast") tests: EAL set-up, a private
 * runtime directory for the shm driver, bounded progress loops, recording
 * callbacks and a ready-made server/client pair on one engine.
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <setjmp.h>
#include <cmocka.h>

#include <rte_comch.h>

#include "comch_test_msg.h"

/** Default bound for every wait in the fast tests. */
#define CT_TIMEOUT_MS 5000
#define CT_MAX_LOG 64
#define CT_MAX_CONNS 64

/* ------------------------------------------------------------ EAL and dirs */

/** cmocka group set-up: rte_eal_init() with unique file prefix, mkdtemp dir. */
int ct_group_setup(void **state);
/** cmocka group tear-down: rte_eal_cleanup(), removes the directory. */
int ct_group_teardown(void **state);
/** Run a group of tests with ct_group_setup()/ct_group_teardown(). */
#define CT_RUN(name, tests) ({ \
	if (getenv("COMCH_TEST_FILTER") != NULL) \
		cmocka_set_test_filter(getenv("COMCH_TEST_FILTER")); \
	cmocka_run_group_tests_name(name, tests, ct_group_setup, ct_group_teardown); \
})

/** The private shm runtime directory of this test binary. */
const char *ct_dir(void);
/** A domain name unique in this process ("t<pid>x<n>"). */
void ct_domain(char *buf, size_t len);
/** Open "shm:<kv>,dir=<ct_dir()>", with kv formatted like printf. */
struct rte_comch_dev *ct_dev_open(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* -------------------------------------------------------------- progress */

typedef bool (*ct_pred_t)(void *arg);

/**
 * Call rte_comch_pe_progress() until pred(arg) is true, at most timeout_ms.
 * @return 0 when pred became true, -ETIMEDOUT, or progress's negative error.
 */
int progress_until(struct rte_comch_pe *pe, ct_pred_t pred, void *arg, unsigned int timeout_ms);
/** Progress for ms milliseconds; returns the number of rounds that did work. */
unsigned int ct_progress_for(struct rte_comch_pe *pe, unsigned int ms);
/** Progress until ctx is in state st; 0 or -ETIMEDOUT. */
int ct_wait_state(struct rte_comch_pe *pe, struct rte_comch_ctx *ctx,
		  enum rte_comch_ctx_state st, unsigned int timeout_ms);
/** Progress until *counter >= target; 0 or -ETIMEDOUT. */
int ct_wait_count(struct rte_comch_pe *pe, const uint32_t *counter, uint32_t target,
		  unsigned int timeout_ms);
uint64_t ct_now_ms(void);

/* --------------------------------------------------- recording callbacks */

struct ct_side;
typedef void (*ct_recv_hook_t)(struct ct_side *s, struct rte_comch_connection *conn,
			       const uint8_t *msg, uint32_t len);
typedef void (*ct_conn_hook_t)(struct ct_side *s, struct rte_comch_connection *conn, int status);
typedef void (*ct_state_hook_t)(struct ct_side *s, enum rte_comch_ctx_state prev,
				enum rte_comch_ctx_state next);

/** Everything a server or client saw; its ctx user data points to it. */
struct ct_side {
	struct rte_comch_server *server; /**< One of server and client is set. */
	struct rte_comch_client *client;
	struct rte_comch_ctx *ctx;
	/* receive */
	uint32_t nb_recv;
	uint64_t recv_bytes;
	uint32_t next_seq;    /**< Next expected seq of messages in ct_msg format. */
	uint32_t bad_msgs;    /**< Corrupt, duplicated or out-of-order messages. */
	uint32_t last_len;
	uint8_t last_msg[256];
	struct rte_comch_connection *last_recv_conn;
	/* send tasks */
	bool keep_tasks;      /**< Do not free tasks in the callbacks. */
	uint32_t nb_send_ok;
	uint32_t nb_send_err;
	int err_status[CT_MAX_LOG];
	struct rte_comch_task_send *last_task;
	union rte_comch_data last_task_ud; /**< task_user_data of the last callback. */
	union rte_comch_data last_ctx_ud;  /**< ctx_user_data of the last callback. */
	void (*on_task)(struct ct_side *s, struct rte_comch_task_send *task, bool ok);
	/* connection events (server) */
	uint32_t nb_connect;
	uint32_t nb_disconnect;
	int disc_status[CT_MAX_LOG];
	struct rte_comch_connection *conns[CT_MAX_CONNS];
	/* state changes */
	uint32_t nb_states;
	enum rte_comch_ctx_state prev[CT_MAX_LOG];
	enum rte_comch_ctx_state next[CT_MAX_LOG];
	/* hooks, called at the end of the recording callbacks */
	ct_recv_hook_t on_recv;
	ct_conn_hook_t on_connect;
	ct_conn_hook_t on_disconnect;
	ct_state_hook_t on_state;
	void *arg;            /**< For the hooks. */
};

void ct_send_ok_cb(struct rte_comch_task_send *task, union rte_comch_data task_ud,
		   union rte_comch_data ctx_ud);
void ct_send_err_cb(struct rte_comch_task_send *task, union rte_comch_data task_ud,
		    union rte_comch_data ctx_ud);
void ct_recv_cb(struct rte_comch_connection *conn, const uint8_t *msg, uint32_t len);
void ct_connect_cb(struct rte_comch_connection *conn, int status);
void ct_disconnect_cb(struct rte_comch_connection *conn, int status);
void ct_state_cb(union rte_comch_data ud, struct rte_comch_ctx *ctx,
		 enum rte_comch_ctx_state prev, enum rte_comch_ctx_state next);
/** The ct_side behind a connection (through its context's user data). */
struct ct_side *ct_side_of_conn(struct rte_comch_connection *conn);

/* -------------------------------------------------------- server / client */

struct ct_cfg {
	uint32_t srv_msg_size;  /**< 0: default. */
	uint32_t cli_msg_size;  /**< 0: not set (take the server's). */
	uint32_t srv_rq;        /**< Server receive queue size, 0: default. */
	uint32_t cli_rq;
	uint32_t srv_tasks;     /**< 0: 64. */
	uint32_t cli_tasks;
	uint32_t connect_timeout_ms; /**< 0: CT_TIMEOUT_MS. */
};

/** Create and fully configure a server (not attached, not started). */
struct rte_comch_server *ct_server_new(struct ct_side *s, struct rte_comch_dev *dev,
				       struct rte_comch_dev_rep *rep, const char *name,
				       const struct ct_cfg *cfg);
/** Create and fully configure a client (not attached, not started). */
struct rte_comch_client *ct_client_new(struct ct_side *s, struct rte_comch_dev *dev,
				       const char *name, const struct ct_cfg *cfg);

/** A DPU device (reps pf0, pf1), a host device (fn pf0), one engine, a server and a client. */
struct ct_pair {
	char domain[32];
	char name[64];
	struct rte_comch_dev *dpu;
	struct rte_comch_dev *host;
	struct rte_comch_dev_rep *rep;
	struct rte_comch_pe *pe;  /**< The server's engine. */
	struct rte_comch_pe *cpe; /**< The client's engine: pe, or its own (split). */
	struct ct_side srv;
	struct ct_side cli;
	struct rte_comch_connection *sconn; /**< Server's end, once connected. */
	struct rte_comch_connection *cconn; /**< Client's end, once connected. */
};

/** Open everything, start the server; the client is configured and attached. */
void ct_pair_open(struct ct_pair *p, const struct ct_cfg *cfg);
/** Same, with the client on an engine of its own (p->cpe) on the same lcore. */
void ct_pair_open_split(struct ct_pair *p, const struct ct_cfg *cfg);
/** Start the client and progress until both ends are connected. */
void ct_pair_connect(struct ct_pair *p);
/** ct_pair_open() + ct_pair_connect(). */
void ct_pair_up(struct ct_pair *p, const struct ct_cfg *cfg);
/** Stop whatever runs, destroy everything and check each step succeeded. */
void ct_pair_close(struct ct_pair *p);

/** Stop a context (if not idle) and progress until it is IDLE. */
void ct_ctx_stop_wait(struct rte_comch_pe *pe, struct rte_comch_ctx *ctx);

/**
 * Allocate a send task on side s (server or client) for conn and submit it.
 * @return 0, or the negative error of alloc_init or submit (the task is then
 *   freed, unless taskp is not NULL, where it is returned to the caller).
 */
int ct_send(struct ct_side *s, struct rte_comch_connection *conn, const void *msg,
	    uint32_t len, struct rte_comch_task_send **taskp);
/** ct_send(), retrying with progress on -EAGAIN, at most CT_TIMEOUT_MS. *nb_again counts. */
int ct_send_retry(struct rte_comch_pe *pe, struct ct_side *s, struct rte_comch_connection *conn,
		  const void *msg, uint32_t len, uint32_t *nb_again);

#endif /* COMCH_TEST_COMMON_H */
