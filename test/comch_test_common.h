/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef COMCH_TEST_COMMON_H
#define COMCH_TEST_COMMON_H

/**
 * @file
 * Helpers shared by the in-process (suite "fast") tests: EAL set-up, a private
 * runtime directory for the shm driver, bounded progress loops, recording
 * callbacks and a ready-made server/client pair on one engine; for the fast
 * path, producers and consumers that record and check what they see.
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <setjmp.h>
#include <cmocka.h>

#include <rte_comch.h>
#include <rte_launch.h>

#include "comch_test_drivers.h"
#include "comch_test_msg.h"

/** Default bound for every wait in the fast tests. */
#define CT_TIMEOUT_MS 5000
#define CT_MAX_LOG 64
#define CT_MAX_CONNS 64
#define CT_MAX_XPE 32

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

/**
 * The driver the library-behaviour tests run against: COMCH_TEST_DRIVER, "shm"
 * by default. The conformance suite runs each of its tests once per driver.
 */
const char *ct_driver(void);
bool ct_driver_is(const char *name);
/**
 * Skip the calling test unless its driver has the capabilities caps
 * (CT_CAP_*, comch_test_drivers.h), saying why it needs them.
 */
#define CT_NEED(caps, why) do { \
	if (!ct_driver_can(caps)) { \
		print_message("  (skipped on %s: %s)\n", ct_driver(), why); \
		skip(); \
	} \
} while (0)
/**
 * Skip the calling test unless it runs against the driver named: it tests
 * what only that driver has, which why says (printed with the skip).
 */
#define CT_ONLY_DRIVER(name, why) do { \
	if (!ct_driver_is(name)) { \
		print_message("  (skipped on %s, %s only: %s)\n", ct_driver(), name, why); \
		skip(); \
	} \
} while (0)

/** The private shm runtime directory of this test binary. */
const char *ct_dir(void);
/** A domain name unique in this process ("t<pid>x<n>"). */
void ct_domain(char *buf, size_t len);
/** Open "<driver>:<kv>" (shm: with ",dir=<ct_dir()>"), with kv formatted like printf. */
struct rte_comch_dev *ct_dev_open(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ------------------------------------------------------------- workers */

/**
 * rte_eal_remote_launch() and rte_eal_wait_lcore(), with the ordering they
 * give made visible to ThreadSanitizer (EAL's own code is not instrumented).
 * The tests use these.
 */
int ct_remote_launch(lcore_function_t *fn, void *arg, unsigned int lcore);
int ct_wait_lcore(unsigned int lcore);
/**
 * ct_remote_launch() for a worker that may still run when its case fails (an
 * assertion leaves the case, not the worker): stop(arg) makes fn return soon,
 * and arg must outlive the case (file scope). Reaped by ct_reap_lcores().
 */
int ct_remote_launch_stoppable(lcore_function_t *fn, void *arg, unsigned int lcore,
			       void (*stop)(void *arg));
/**
 * A cmocka teardown: every worker launched and not waited for yet (its case
 * failed) is stopped, if it can be, and waited for, so that the next cases
 * find their lcores free. Always 0.
 */
int ct_reap_lcores(void **state);

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
/** poll() fd for POLLIN for at most timeout_ms: 1 readable, 0 not, -1 error. */
int ct_fd_readable(int fd, int timeout_ms);
/** The descriptors this process has open (/proc/self/fd). */
int ct_count_fds(void);
/** For progress_until() and ct_fast_until(): ctx has want tasks in flight. */
struct ct_inflight {
	struct rte_comch_ctx *ctx;
	uint32_t want;
};
bool ct_inflight_is(void *arg);

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
	uint32_t nb_connect_failed; /**< Clients that could not connect (status < 0). */
	int connect_failed[CT_MAX_LOG]; /**< Their statuses. */
	uint32_t nb_disconnect;
	int disc_status[CT_MAX_LOG];
	struct rte_comch_connection *conns[CT_MAX_CONNS];
	/* state changes */
	uint32_t nb_states;
	enum rte_comch_ctx_state prev[CT_MAX_LOG];
	enum rte_comch_ctx_state next[CT_MAX_LOG];
	/* consumer events (fast path): consumers on the other side */
	uint32_t nb_new_cons;
	uint32_t nb_exp_cons;
	uint32_t new_cons[CT_MAX_LOG];
	uint32_t exp_cons[CT_MAX_LOG];
	struct rte_comch_connection *new_cons_conn; /**< conn of the last new event. */
	struct rte_comch_connection *exp_cons_conn; /**< conn of the last expired event. */
	/* hooks, called at the end of the recording callbacks (on_connect: for failed
	 * clients too)
	 */
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
void ct_new_consumer_cb(struct rte_comch_connection *conn, uint32_t consumer_id);
void ct_expired_consumer_cb(struct rte_comch_connection *conn, uint32_t consumer_id);
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
	bool fast;              /**< Register the consumer events (fast path). */
	/**
	 * Devargs doorbell= of both devices (shm's); NULL: not given. Given
	 * to every driver: one that does not know it fails the pair's open.
	 */
	const char *doorbell;
	const char *cli_doorbell; /**< The host device's, if not doorbell's. */
	/** More devargs of both devices ("key=value,..."); NULL: none. Given to every driver. */
	const char *devargs;
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
	int fmode;                          /**< Fast path: enum ct_fast_mode. */
	unsigned int nb_xpe;                /**< Fast path: extra engines (same lcore). */
	struct rte_comch_pe *xpe[CT_MAX_XPE];
};

/** Open everything, start the server; the client is configured and attached. */
void ct_pair_open(struct ct_pair *p, const struct ct_cfg *cfg);
/** Same, with the client on an engine of its own (p->cpe) on the same lcore. */
void ct_pair_open_split(struct ct_pair *p, const struct ct_cfg *cfg);
/** Start the client and progress until both ends are connected. */
void ct_pair_connect(struct ct_pair *p);
/** ct_pair_open() + ct_pair_connect(). */
void ct_pair_up(struct ct_pair *p, const struct ct_cfg *cfg);
/**
 * Stop whatever runs, destroy everything (the extra engines p->xpe too) and
 * check each step succeeded. Producers and consumers must be gone already.
 */
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

/* -------------------------------------------------------------- fast path */

/** Where ct_fast_pe() puts producers and consumers. */
enum ct_fast_mode {
	CT_FAST_ONE = 0,   /**< Server, client and every producer/consumer on one engine. */
	CT_FAST_SPLIT = 1, /**< Server and client on two engines; each side's objects on its own. */
	CT_FAST_OWN = 2,   /**< Split, and every producer/consumer on an engine of its own. */
};

/** Length passed to ct_prod_send() to send no buffer at all (immediate data only). */
#define CT_NOBUF SIZE_MAX
/** Most producers (consumers) whose sequence numbers a consumer (producer) tracks. */
#define CT_MAX_PEERS 64

/** Open a pair (cfg->fast forced on) in the given mode, connect it. */
void ct_fast_up(struct ct_pair *p, struct ct_cfg *cfg, enum ct_fast_mode mode);
/** The engine for a new producer/consumer of one side, following p->fmode. */
struct rte_comch_pe *ct_fast_pe(struct ct_pair *p, bool server_side);
/** One round of progress of every engine of the pair; negative on error. */
int ct_fast_progress(struct ct_pair *p);
/** Progress every engine of p until pred(arg), at most timeout_ms; 0 or -ETIMEDOUT. */
int ct_fast_until(struct ct_pair *p, ct_pred_t pred, void *arg, unsigned int timeout_ms);
int ct_fast_wait_state(struct ct_pair *p, struct rte_comch_ctx *ctx,
		       enum rte_comch_ctx_state st);
int ct_fast_wait_count(struct ct_pair *p, const uint32_t *counter, uint32_t target);
/** Progress for ms milliseconds. */
void ct_fast_progress_for(struct ct_pair *p, unsigned int ms);
/** Number of live new-consumer events seen by s for id (new minus expired). */
int ct_side_knows(const struct ct_side *s, uint32_t id);
/** Wait until side s saw the new-consumer (known = true) or expired event of id. */
int ct_fast_wait_known(struct ct_pair *p, struct ct_side *s, uint32_t id, bool known);

/* Payload of fast-path messages: derived from (producer id, sequence number). */
void ct_fast_fill(uint8_t *buf, size_t len, uint32_t pid, uint32_t seq);
/** 0 if buf holds exactly message seq of producer pid. */
int ct_fast_check(const uint8_t *buf, size_t len, uint32_t pid, uint32_t seq);
void ct_fast_imm(uint8_t *imm, uint32_t len, uint32_t pid, uint32_t seq);

struct ct_cons;
typedef void (*ct_cons_hook_t)(struct ct_cons *c,
			       struct rte_comch_consumer_task_post_recv *task, int status);

/** A consumer, its mmap (slots of the receive memory), a buffer pool and what it saw. */
struct ct_cons {
	struct rte_comch_consumer *cons;
	struct rte_comch_ctx *ctx;
	struct rte_comch_pe *pe;
	struct rte_comch_mmap *mmap;
	struct rte_comch_buf_pool *pool;
	uint8_t *mem;
	size_t mem_len;
	size_t slot;          /**< Bytes per posted buffer; 0: immediate data only. */
	uint32_t nb_slots;
	uint32_t id;
	/* options */
	bool check;           /**< Check the payload and order of every message. */
	bool repost;          /**< Post the buffer again after each message. */
	bool keep_tasks;      /**< Neither free nor post again: the test does. */
	/* what completed */
	uint32_t nb_ok;
	uint32_t nb_err;
	uint32_t nb_repost_fail;
	uint32_t bad;         /**< Corrupt, out of order, bad producer id or buffer fields. */
	uint64_t bytes;
	int err_status[CT_MAX_LOG];
	uint32_t nb_prods;    /**< Producers seen, with the next sequence number of each. */
	uint32_t prod_id[CT_MAX_PEERS];
	uint32_t prod_next[CT_MAX_PEERS];
	struct rte_comch_consumer_task_post_recv *last_task;
	int last_status;
	uint32_t last_prod_id;
	void *last_data;
	size_t last_data_len;
	uint32_t last_imm_len;
	uint8_t last_imm[RTE_COMCH_MAX_IMM_DATA_LEN];
	ct_cons_hook_t on_done; /**< Called at the end of both callbacks. */
	void *arg;
};

/**
 * Create a consumer on conn with an mmap of nb_slots * slot bytes (from
 * alloc_memrange, PCI_READ_WRITE), a pool of nb_slots + 2 buffers, imm_len, the
 * recording callbacks with nb_slots tasks, attached to pe. Not started.
 */
void ct_cons_new(struct ct_cons *c, struct rte_comch_connection *conn, struct rte_comch_pe *pe,
		 uint32_t nb_slots, size_t slot, uint32_t imm_len);
/**
 * ct_cons_new() on the application's memory (set_memrange) instead: user_mem
 * holds at least max(nb_slots * slot, 4096) bytes, and outlives the consumer.
 */
void ct_cons_new_user(struct ct_cons *c, struct rte_comch_connection *conn,
		      struct rte_comch_pe *pe, uint32_t nb_slots, size_t slot, uint32_t imm_len,
		      void *user_mem);
/** Start c and progress until it is RUNNING and peer (if not NULL) knows its id. */
void ct_cons_start(struct ct_pair *p, struct ct_cons *c, struct ct_side *peer);
/**
 * Post slot i (a NULL buffer if c->slot is 0). Returns the error of
 * get_by_addr, alloc_init or submit (then everything is released, unless
 * taskp, where the task is returned).
 */
int ct_cons_post(struct ct_cons *c, uint32_t i,
		 struct rte_comch_consumer_task_post_recv **taskp);
/** Post every slot (asserts success). */
void ct_cons_post_all(struct ct_cons *c);
/** Post a completed task's buffer again, whole (its data_len reset): the submit's return. */
int ct_cons_repost(struct rte_comch_consumer_task_post_recv *t);
/** Release a post-recv task and its buffer. */
void ct_cons_task_release(struct rte_comch_consumer_task_post_recv *t);
/** Stop c and progress until it is IDLE (and peer, if not NULL, saw it expire). */
void ct_cons_stop(struct ct_pair *p, struct ct_cons *c, struct ct_side *peer);
/** Destroy the consumer, its pool and its mmap, asserting each step. */
void ct_cons_free(struct ct_cons *c);
/** Next expected sequence number of producer pid (0 if never seen). */
uint32_t ct_cons_next_seq(const struct ct_cons *c, uint32_t pid);

/** A producer, send memory (an mmap of mem_len bytes, a pool) and what completed. */
struct ct_prod {
	struct rte_comch_producer *prod;
	struct rte_comch_ctx *ctx;
	struct rte_comch_pe *pe;
	struct rte_comch_mmap *mmap;
	struct rte_comch_buf_pool *pool;
	uint8_t *mem;
	size_t mem_len;
	uint32_t id;
	bool keep_tasks;      /**< Do not free tasks in the callbacks. */
	uint32_t nb_sent;     /**< Successful submits. */
	uint32_t nb_ok;
	uint32_t nb_err;
	int err_status[CT_MAX_LOG];
	struct rte_comch_producer_task_send *last_task;
	union rte_comch_data last_task_ud;
	uint32_t nb_cons;     /**< Consumers sent to, with the next sequence number of each. */
	uint32_t cons_id[CT_MAX_PEERS];
	uint32_t cons_next[CT_MAX_PEERS];
};

/**
 * Create a producer on conn with num_tasks tasks and mem_len bytes of send memory
 * (alloc_memrange), attached to pe. Started when start is true (asserting 0 and
 * RUNNING; it must then be called on pe's lcore).
 */
void ct_prod_new(struct ct_prod *pr, struct rte_comch_connection *conn,
		 struct rte_comch_pe *pe, uint32_t num_tasks, size_t mem_len, bool start);
/**
 * Send message (next sequence number for cons_id) of len bytes (CT_NOBUF: no
 * buffer) with imm_len bytes of immediate data.
 * @return 0, or the error of alloc_init or submit (the task and buffer are then
 *   released, unless taskp, where the task is returned).
 */
int ct_prod_send(struct ct_prod *pr, uint32_t cons_id, size_t len, uint32_t imm_len,
		 struct rte_comch_producer_task_send **taskp);
/** ct_prod_send(), retrying with progress on -EAGAIN for at most CT_TIMEOUT_MS. */
int ct_prod_send_retry(struct ct_pair *p, struct ct_prod *pr, uint32_t cons_id, size_t len,
		       uint32_t imm_len, uint32_t *nb_again);
/** Release a send task and its buffer. */
void ct_prod_task_release(struct rte_comch_producer_task_send *t);
/** Stop (if not IDLE) and progress until IDLE. */
void ct_prod_stop(struct ct_pair *p, struct ct_prod *pr);
/** Destroy the producer, its pool and its mmap, asserting each step. */
void ct_prod_free(struct ct_prod *pr);
/** Stop and free nb_pr producers, then nb_c consumers, then close the pair. */
void ct_fast_close_all(struct ct_pair *p, struct ct_prod *pr, uint32_t nb_pr, struct ct_cons *c,
		       uint32_t nb_c);

#endif /* COMCH_TEST_COMMON_H */
