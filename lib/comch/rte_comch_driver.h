/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef RTE_COMCH_DRIVER_H
#define RTE_COMCH_DRIVER_H

/**
 * @file
 * Driver interface (internal, not installed).
 *
 * The library owns every object, state machine, task and callback; a driver only
 * moves bytes and reports what happened through the comch_*() upcalls below.
 * Upcalls are made only from driver ops that the library calls inside
 * progress (fd handlers, conn_poll, client_tick), never from other threads.
 */

#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>

#include <rte_common.h>
#include <rte_kvargs.h>
#include <rte_log.h>
#include <rte_spinlock.h>

#include "rte_comch.h"

extern int comch_logtype;
#define COMCH_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, comch_logtype, "COMCH: %s(): " fmt "\n", __func__, ##__VA_ARGS__)

struct rte_comch_dev_ops;
struct rte_comch_pe;
struct rte_mempool;
struct rte_ring;

/** A driver, registered from a constructor with RTE_COMCH_REGISTER_DRIVER(). */
struct rte_comch_driver {
	TAILQ_ENTRY(rte_comch_driver) next;
	const char *name;               /**< Prefix in devargs, e.g. "shm". */
	const char * const *valid_keys; /**< NULL-terminated devargs keys. */
	/** Set up dev->priv, dev->ops, dev->info, dev->role and the representors. */
	int (*probe)(struct rte_comch_dev *dev, const struct rte_kvargs *kvlist);
};

void comch_driver_register(struct rte_comch_driver *drv);

#define RTE_COMCH_REGISTER_DRIVER(nm, drv) \
	RTE_INIT(comch_driver_init_ ## nm) { comch_driver_register(&(drv)); }

/* ------------------------------------------------------------------ objects */

/** Counters that only grow; summed from live connections plus closed ones. */
struct comch_counters {
	uint64_t msgs_sent, bytes_sent, msgs_recv, bytes_recv;
};

struct rte_comch_dev {
	uint32_t magic;                   /**< COMCH_MAGIC_*, checked by public calls. */
	uint16_t id;
	enum rte_comch_dev_role role;
	const struct rte_comch_driver *drv;
	const struct rte_comch_dev_ops *ops;
	void *priv;                       /**< Driver private data. */
	struct rte_comch_dev_info info;   /**< Filled by probe (ids and names by the lib). */
	char **rep_names;                 /**< Representors (DPU side), set by probe. */
	unsigned int nb_reps;
	uint32_t nb_users;                /**< Open reps + servers + clients. */
	rte_spinlock_t lock;              /**< Guards conns and closed, for stats readers. */
	TAILQ_HEAD(, rte_comch_connection) conns;
	struct comch_counters closed;     /**< Totals of connections that ended. */
	uint32_t next_conn_id;            /**< Telemetry names connections by these. */
	uint64_t conns_opened, conns_closed, conns_rejected, peer_errors, send_errors;
	struct rte_comch_dev_stats base;  /**< Subtracted on read, set by stats_reset. */
};

struct rte_comch_dev_rep {
	uint32_t magic;                   /**< COMCH_MAGIC_*, checked by public calls. */
	struct rte_comch_dev *dev;
	const char *name;                 /**< Points into dev->rep_names. */
	uint32_t nb_servers;
};

enum comch_ctx_type {
	COMCH_CTX_SERVER,
	COMCH_CTX_CLIENT,
	COMCH_CTX_PRODUCER,
	COMCH_CTX_CONSUMER,
};

/** What differs between context types; the library's own, not a driver's. */
struct comch_ctx_ops {
	int (*start)(struct rte_comch_ctx *ctx);
	int (*stop)(struct rte_comch_ctx *ctx);
	/** One round of progress; slow is true on the engine's slow tick. */
	int (*progress)(struct rte_comch_ctx *ctx, bool slow, uint64_t now);
	/** Whether the context has work that must not wait for a wake-up. */
	int (*arm)(struct rte_comch_ctx *ctx);
	/** Undo arm; NULL if arm leaves nothing to undo. */
	void (*disarm)(struct rte_comch_ctx *ctx);
};

struct rte_comch_ctx {
	uint32_t magic;                   /**< COMCH_MAGIC_*, checked by public calls. */
	const struct comch_ctx_ops *ops;
	enum comch_ctx_type type;
	enum rte_comch_ctx_state state;
	struct rte_comch_dev *dev;
	struct rte_comch_pe *pe;
	TAILQ_ENTRY(rte_comch_ctx) pe_next;
	rte_comch_ctx_state_changed_cb_t state_cb;
	union rte_comch_data user_data;
	uint32_t nb_inflight;
	int last_error;
};

enum comch_task_type {
	COMCH_TASK_SEND,
	COMCH_TASK_POST_RECV,
	COMCH_TASK_PRODUCER_SEND,
};

struct comch_task_pool;

struct rte_comch_task {
	struct rte_comch_ctx *ctx;
	struct comch_task_pool *pool;  /**< Where it returns when freed. */
	union rte_comch_data user_data;
	int status;
	uint8_t type;
	bool allocated;   /**< Taken from the pool and not yet freed. */
};

struct rte_comch_task_send {
	struct rte_comch_task base;
	struct rte_comch_connection *conn;
	const void *msg;
	uint32_t len;
};

/** What server and client have in common: the control-path endpoint. */
struct comch_ctrl {
	struct rte_comch_ctx ctx;         /**< First: a ctrl is a ctx. */
	uint32_t max_msg_size;
	bool max_msg_size_set;
	uint32_t recv_queue_size;
	rte_comch_task_send_cb_t send_ok_cb;
	rte_comch_task_send_cb_t send_err_cb;
	uint32_t nb_send_tasks;
	struct comch_task_pool *task_pool;
	rte_comch_event_msg_recv_cb_t recv_cb;
	rte_comch_event_consumer_cb_t new_consumer_cb;
	rte_comch_event_consumer_cb_t expired_consumer_cb;
	TAILQ_HEAD(, rte_comch_connection) conns;
	uint32_t nb_conns;
	uint32_t nb_fast;                 /**< Producers and consumers on its connections. */
	char name[];                      /**< Server name. */
};

struct rte_comch_server {
	struct rte_comch_dev_rep *rep;
	rte_comch_event_conn_status_cb_t connect_cb;
	rte_comch_event_conn_status_cb_t disconnect_cb;
	void *priv;                       /**< Driver private data. */
	struct comch_ctrl ctrl;           /**< Last: ends with the name. */
};

struct rte_comch_client {
	struct rte_comch_connection *conn; /**< Set while connected. */
	uint32_t connect_timeout_ms;
	uint64_t connect_deadline;         /**< TSC; 0 means no deadline. */
	uint64_t next_try;                 /**< TSC of the next connection attempt. */
	uint32_t retry_ms;                 /**< Back-off between attempts, 1 to 100 ms. */
	int last_try;                      /**< What the last failed attempt said. */
	uint32_t nb_failed;                /**< Failed attempts since start. */
	void *priv;
	struct comch_ctrl ctrl;
};

enum comch_conn_state {
	COMCH_CONN_ESTABLISHED,
	COMCH_CONN_DRAINING,  /**< Closed locally; waiting for the peer to take what we sent. */
	COMCH_CONN_DEAD,      /**< Over; the library tears it down at the end of progress. */
};

struct rte_comch_connection {
	uint32_t magic;                   /**< COMCH_MAGIC_*, checked by public calls. */
	struct comch_ctrl *ctrl;
	TAILQ_ENTRY(rte_comch_connection) next;     /**< In ctrl->conns. */
	TAILQ_ENTRY(rte_comch_connection) dev_next; /**< In dev->conns. */
	enum comch_conn_state state;
	uint32_t id;                    /**< Unique on its device, for telemetry. */
	int close_reason;               /**< Reason given to callbacks and tasks. */
	uint32_t max_msg_size;
	union rte_comch_data user_data;
	struct comch_counters cnt;      /**< Single writer: the engine's lcore. */
	uint64_t drain_deadline;        /**< TSC, while DRAINING. */
	int task_err;                   /**< Status for tasks still in flight at the end. */
	/** Send tasks handed to the driver, oldest first, until the peer takes them. */
	struct rte_comch_task_send **txq;
	uint32_t txq_mask, txq_head, txq_tail;
	void *priv;                     /**< Driver private data. */
	/* Fast path: lists and counts change on this connection's lcore only. */
	TAILQ_HEAD(, rte_comch_producer) producers;
	TAILQ_HEAD(, rte_comch_consumer) consumers;
	uint32_t nb_fast;               /**< Producers + consumers; the struct outlives the link. */
	uint32_t nb_tasks;              /**< Send tasks allocated for it; they hold it too. */
	struct rte_ring *fp_req;        /**< Consumers' (un)registration, from their lcores. */
	int fp_dead;                    /**< Atomic: set once the connection has ended. */
	int fp_abort;                   /**< Atomic: a consumer's peer broke the protocol. */
	bool zombie;                    /**< Torn down; freed with its last producer/consumer. */
};

/* ------------------------------------------------------------------ fast path */

/** A fast-path context's tasks: its pool, and those in flight, oldest first. */
struct comch_fast_tasks {
	struct comch_task_pool *pool;
	void **q;
	uint32_t mask, head, tail;
	uint32_t nb;                    /**< Pool size (num_tasks). */
};

struct rte_comch_producer {
	struct rte_comch_ctx ctx;       /**< First: a producer is a ctx. */
	struct rte_comch_connection *conn;
	TAILQ_ENTRY(rte_comch_producer) next;
	uint32_t id;
	rte_comch_producer_task_send_cb_t ok_cb;
	rte_comch_producer_task_send_cb_t err_cb;
	/** Sends done at submit, their callbacks due in the next progress. */
	struct comch_fast_tasks tasks;
	/** The last submit was refused for want of a posted buffer (-EAGAIN). */
	bool starved;
	void *priv;                     /**< Driver private data. */
};

struct rte_comch_producer_task_send {
	struct rte_comch_task base;
	struct rte_comch_buf *buf;
	uint32_t consumer_id;
	uint32_t imm_len;
	uint8_t imm[RTE_COMCH_MAX_IMM_DATA_LEN];
};

struct rte_comch_consumer {
	struct rte_comch_ctx ctx;       /**< First: a consumer is a ctx. */
	struct rte_comch_connection *conn;
	struct rte_comch_mmap *mmap;
	TAILQ_ENTRY(rte_comch_consumer) next;
	uint32_t id;
	uint32_t imm_len;
	rte_comch_consumer_task_post_recv_cb_t ok_cb;
	rte_comch_consumer_task_post_recv_cb_t err_cb;
	/** Posted tasks, oldest first: the driver fills them in this order. */
	struct comch_fast_tasks tasks;
	int reg;            /**< Atomic, from the connection's lcore: 1 advertised, < 0 failed. */
	int expired;        /**< Atomic, from the connection's lcore: the peer will not write. */
	bool expire_asked;
	uint64_t expire_deadline; /**< TSC: the peer must confirm the expiry by then. */
	void *priv;         /**< Driver private data. */
};

struct rte_comch_consumer_task_post_recv {
	struct rte_comch_task base;
	struct rte_comch_buf *buf;
	uint32_t imm_len;
	uint32_t producer_id;
	uint8_t imm[RTE_COMCH_MAX_IMM_DATA_LEN];
};

/** Registered memory; drivers share memfd-backed ranges with the peer. */
struct rte_comch_mmap {
	uint32_t magic;                   /**< COMCH_MAGIC_*, checked by public calls. */
	void *addr;
	size_t len;
	uint32_t perms;
	bool has_range;
	int memfd;        /**< >= 0 if the mmap allocated the memory: a peer can map it. */
	/**
	 * COMCH_MMAP_STARTED | number of buffers and consumers holding it, in one
	 * atomic word: a hold and a stop on two lcores cannot both succeed.
	 */
	uint32_t refs;
};

#define COMCH_MMAP_STARTED (1u << 31)

/* ------------------------------------------------------------------ driver ops */

/** Handshake parameters, what the driver negotiated for a new connection. */
struct comch_conn_params {
	uint32_t max_msg_size;      /**< Agreed by both sides. */
	uint32_t peer_queue_size;   /**< How many messages may be in flight towards the peer. */
};

struct rte_comch_dev_ops {
	/** Release dev->priv and the representor names. */
	void (*dev_close)(struct rte_comch_dev *dev);
	/** Claim the server's name (EEXIST if taken); set server->priv. Returns -errno. */
	int (*server_create)(struct rte_comch_server *srv);
	void (*server_destroy)(struct rte_comch_server *srv);
	/** Start accepting connections; the engine is srv->ctrl.ctx.pe. */
	int (*server_start)(struct rte_comch_server *srv);
	/** Stop accepting connections (existing ones are closed one by one). */
	void (*server_stop)(struct rte_comch_server *srv);
	/** Slow tick while RUNNING: expire handshakes that take too long. */
	void (*server_tick)(struct rte_comch_server *srv, uint64_t now);
	/** Begin connecting, asynchronously. Returns -errno on immediate failure. */
	int (*client_start)(struct rte_comch_client *cli);
	/**
	 * Called on the engine's slow tick while the client is STARTING, when
	 * its back-off allows. Returns -EINPROGRESS if an attempt is running or
	 * was just started, or the -errno of an attempt that failed since the
	 * last call (-ENOENT when no server listens under that name, -ECONNRESET
	 * when one dropped the handshake): the library then backs off.
	 */
	int (*client_tick)(struct rte_comch_client *cli);
	/**
	 * Give up connecting, or release what connecting needed: called whenever the
	 * client leaves STARTING, whatever the outcome. Must be idempotent.
	 */
	void (*client_stop)(struct rte_comch_client *cli);
	/**
	 * Queue one message to the peer. 0, or -EAGAIN if peer_queue_size messages
	 * are already in flight. Called for established connections only.
	 */
	int (*conn_send)(struct rte_comch_connection *conn, const void *msg, uint32_t len);
	/**
	 * Deliver up to max received messages with comch_conn_recv() (max is 0 on a
	 * connection closed locally), report taken messages with comch_conn_tx_done()
	 * and failures with comch_conn_lost(). Returns the number of things that happened.
	 * Before reporting a connection lost, a driver reports what the peer had taken.
	 */
	unsigned int (*conn_poll)(struct rte_comch_connection *conn, unsigned int max);
	/**
	 * Whether the peer has taken everything sent so far (ring empty).
	 */
	bool (*conn_tx_idle)(struct rte_comch_connection *conn);
	/**
	 * End the connection: tell the peer (if alive) and release conn->priv.
	 */
	void (*conn_close)(struct rte_comch_connection *conn);
	/**
	 * Arm wake-ups for conn; return -EAGAIN if a message is already waiting.
	 */
	int (*conn_arm)(struct rte_comch_connection *conn);
	/** Disarm wake-ups for conn. */
	void (*conn_disarm)(struct rte_comch_connection *conn);
	/** Free what conn_close kept for producers and consumers still holding conn. */
	void (*conn_free)(struct rte_comch_connection *conn);

	/* Fast path. Connection lcore: consumer_create/destroy/advertise/expire. */
	/** Check the consumer's mmap can be shared; set consumer->priv. -ENOTSUP if not. */
	int (*consumer_create)(struct rte_comch_consumer *c);
	void (*consumer_destroy)(struct rte_comch_consumer *c);
	/** Tell the peer (new-consumer): after this, producers there may write. */
	int (*consumer_advertise)(struct rte_comch_consumer *c);
	/** Tell the peer it expired; it answers with comch_conn_consumer_acked(). */
	int (*consumer_expire)(struct rte_comch_consumer *c);
	/* Consumer's own lcore. */
	/**
	 * Before its engine sleeps: have producers ring it when they fill a buffer.
	 * -EAGAIN if filled buffers already wait. NULL: a consumer with buffers
	 * posted keeps its engine polling.
	 */
	int (*consumer_arm)(struct rte_comch_consumer *c);
	void (*consumer_disarm)(struct rte_comch_consumer *c);
	/** Post a buffer (addr NULL, len 0: immediate data only). */
	int (*consumer_post)(struct rte_comch_consumer *c, void *addr, size_t len);
	/**
	 * Report up to max filled buffers, oldest first, with comch_consumer_recv().
	 * Returns how many, or -EPROTO if the peer corrupted them.
	 */
	int (*consumer_poll)(struct rte_comch_consumer *c, unsigned int max);
	/** Set producer->priv (connection lcore); NULL if the driver needs none. */
	int (*producer_create)(struct rte_comch_producer *p);
	void (*producer_destroy)(struct rte_comch_producer *p);
	/* Producer's own lcore. */
	/**
	 * Copy one message into the consumer's next posted buffer: see
	 * rte_comch_task_submit(). imm points to RTE_COMCH_MAX_IMM_DATA_LEN bytes.
	 */
	int (*producer_send)(struct rte_comch_producer *p, uint32_t consumer_id, const void *data,
			     size_t len, const uint8_t *imm, uint32_t imm_len);
	/**
	 * Wake the consumers this producer filled buffers of since the last call,
	 * if they sleep. Called once per progress that completed sends, so the cost
	 * of waking is paid per burst, not per message. NULL if sends wake by themselves.
	 */
	void (*producer_flush)(struct rte_comch_producer *p);
};

/* ------------------------------------------------------------------ upcalls */

/** A client completed its handshake with srv. Returns the connection, NULL to refuse. */
struct rte_comch_connection *
comch_server_conn_new(struct rte_comch_server *srv, void *priv, const struct comch_conn_params *p);
/** The client is connected. Returns the connection, or NULL (then the driver closes). */
struct rte_comch_connection *
comch_client_connected(struct rte_comch_client *cli, void *priv, const struct comch_conn_params *p);
/** The server refused the client, or the handshake failed: reason is -errno. */
void comch_client_connect_failed(struct rte_comch_client *cli, int reason);
/** A message arrived (valid during the call only). */
void comch_conn_recv(struct rte_comch_connection *conn, const void *msg, uint32_t len);
/** The peer took the n oldest messages in flight. */
void comch_conn_tx_done(struct rte_comch_connection *conn, uint32_t n);
/**
 * The connection is over: -ECONNABORTED (peer closed), -ECONNRESET (peer died),
 * -EPROTO (peer broke the protocol). The driver stops using the peer's memory.
 */
void comch_conn_lost(struct rte_comch_connection *conn, int reason);
/** The peer started a consumer (connection lcore). */
void comch_conn_consumer_new(struct rte_comch_connection *conn, uint32_t id);
/** The peer stopped a consumer (connection lcore). */
void comch_conn_consumer_expired(struct rte_comch_connection *conn, uint32_t id);
/** The peer confirmed it will not write into our consumer id (connection lcore). */
void comch_conn_consumer_acked(struct rte_comch_connection *conn, uint32_t id);
/**
 * A posted buffer was filled (consumer lcore, inside consumer_poll). imm must
 * point to RTE_COMCH_MAX_IMM_DATA_LEN readable bytes, of which imm_len count.
 */
void comch_consumer_recv(struct rte_comch_consumer *c, size_t data_len, const uint8_t *imm,
			 uint32_t imm_len, uint32_t producer_id);
/** Count a refused handshake or a protocol violation on the device. */
void comch_dev_count_rejected(struct rte_comch_dev *dev);

/* ------------------------------------------------------------------ engine fds */

/** A file descriptor the engine watches for a driver, on its slow tick and for sleeping. */
struct comch_pe_fd {
	int fd;
	void (*handler)(struct comch_pe_fd *pfd, uint32_t events);
	void *arg;
};

/** Wake the engine if it sleeps; from any thread of the process. */
void comch_pe_wake_up(struct rte_comch_pe *pe);
int comch_pe_fd_add(struct rte_comch_pe *pe, struct comch_pe_fd *pfd);
void comch_pe_fd_del(struct rte_comch_pe *pe, struct comch_pe_fd *pfd);
/**
 * Watch a wake-up fd (a doorbell) that needs no handler: it only wakes a
 * sleeping engine, and its owner empties it on disarm. Callable from any lcore.
 */
int comch_pe_wake_fd_add(struct rte_comch_pe *pe, int fd);
void comch_pe_wake_fd_del(struct rte_comch_pe *pe, int fd);

#endif /* RTE_COMCH_DRIVER_H */
