/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef COMCH_PRIVATE_H
#define COMCH_PRIVATE_H

/*
 * The library's private header: the layouts of its objects and the glue
 * between its files. Drivers never include it: they see rte_comch_driver.h.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/queue.h>

#include <rte_common.h>
#include <rte_log.h>
#include <rte_spinlock.h>
#include <rte_rcu_qsbr.h>
#include <rte_ticketlock.h>

#include "comch_alloc.h"
#include "comch_args.h"
#include "comch_objreg.h"
#include "rte_comch_driver.h"
#include "rte_comch_drv_atomic.h"

extern int comch_logtype;
#define COMCH_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, comch_logtype, "COMCH: %s(): " fmt "\n", __func__, ##__VA_ARGS__)

/** Store to a counter read by other threads (stats, telemetry); one writer only. */
#define COMCH_CNT_ADD(field, v) comch_store_relaxed(&(field), (field) + (v))
#define COMCH_CNT_READ(field) comch_load_relaxed(&(field))

struct rte_comch_pe;
struct comch_task_pool;

enum comch_ctx_type {
	COMCH_CTX_SERVER,
	COMCH_CTX_CLIENT,
	COMCH_CTX_PRODUCER,
	COMCH_CTX_CONSUMER,
};

/* comch_check.c: argument checks of the public calls */

/*
 * Every public object carries a magic word and an entry in the registry of
 * live objects (lib/common/comch_objreg.h), both keyed by the magic word's
 * address, so that every way of naming an object (a server, or the context it
 * is) meets the same entry.
 *  - Calls off the hot path (create on a parent, destroy, start, stop,
 *    configuration) check handles against the registry (COMCH_BAD_OBJ and the
 *    COMCH_BAD_<KIND> macros): a handle of a destroyed object, or of another
 *    kind of object, is refused with -EINVAL and a log line, and the memory it
 *    points to is never read.
 *  - Per-message calls (task calls, progress, getters used in callbacks)
 *    check the magic word inline (COMCH_BAD_OBJ_FAST), which the quarantine of
 *    destroyed objects' memory keeps readable and dead for a while.
 * A destroyed object's memory goes to the quarantine (comch_obj_retire()),
 * never straight back to malloc: a new object does not take the address of
 * one destroyed just before, so that a stale handle never names a new object.
 */
enum {
	COMCH_MAGIC_DEAD = COMCH_OBJREG_DEAD,
	COMCH_MAGIC_DEV = 0xc0c40001u,
	COMCH_MAGIC_REP = 0xc0c40002u,
	COMCH_MAGIC_PE = 0xc0c40003u,
	COMCH_MAGIC_CONN = 0xc0c40004u,
	COMCH_MAGIC_MMAP = 0xc0c40005u,
	COMCH_MAGIC_BUF_POOL = 0xc0c40006u,
	COMCH_MAGIC_MSGQ = 0xc0c40007u,
	/* Contexts: COMCH_MAGIC_CTX | enum comch_ctx_type. */
	COMCH_MAGIC_CTX = 0xc0c41000u,
	COMCH_MAGIC_CTX_TYPES = 0xffu,
	/* Not a magic: asks comch_obj_bad() for a context of any type. */
	COMCH_MAGIC_CTX_ANY = 0xc0c410ffu,
};

/**
 * Log why, and return true, unless the object whose magic word is at magic is
 * a live want (NULL: the object is NULL); registry: ask the registry, else
 * read the magic word.
 */
bool comch_obj_bad(const char *func, const char *name, const uint32_t *magic, uint32_t want,
		   bool registry);

/** True, after a log line naming it, if one of the (pointer) arguments is NULL. */
#define COMCH_NULL_ARG(...) COMCH_NULL_ARG_LOG(comch_logtype, __VA_ARGS__)
static inline bool
comch_magic_ok(uint32_t magic, uint32_t want)
{
	return magic == want || (want == COMCH_MAGIC_CTX_ANY &&
				 (magic & ~(uint32_t)COMCH_MAGIC_CTX_TYPES) == COMCH_MAGIC_CTX);
}

/**
 * True, after a log line, if obj is NULL or not a live object of its kind
 * (field: its magic word) in the registry. Reads nothing of *obj.
 */
#define COMCH_BAD_OBJ(obj, field, want) \
	(((obj) == NULL || \
	  !comch_magic_ok(comch_objreg_kind(&(obj)->field), (want))) && \
	 comch_obj_bad(__func__, #obj, (obj) == NULL ? NULL : &(obj)->field, (want), true))
/**
 * The same check from the magic word, inline: for the per-message calls. A
 * stale handle reads memory the quarantine keeps.
 */
#define COMCH_BAD_OBJ_FAST(obj, field, want) \
	(unlikely((obj) == NULL || !comch_magic_ok((obj)->field, (want))) && \
	 comch_obj_bad(__func__, #obj, (obj) == NULL ? NULL : &(obj)->field, (want), false))
#define COMCH_SERVER_KIND (COMCH_MAGIC_CTX | COMCH_CTX_SERVER)
#define COMCH_CLIENT_KIND (COMCH_MAGIC_CTX | COMCH_CTX_CLIENT)
#define COMCH_PRODUCER_KIND (COMCH_MAGIC_CTX | COMCH_CTX_PRODUCER)
#define COMCH_CONSUMER_KIND (COMCH_MAGIC_CTX | COMCH_CTX_CONSUMER)
#define COMCH_BAD_SERVER(s) COMCH_BAD_OBJ(s, ctrl.ctx.magic, COMCH_SERVER_KIND)
#define COMCH_BAD_CLIENT(c) COMCH_BAD_OBJ(c, ctrl.ctx.magic, COMCH_CLIENT_KIND)
#define COMCH_BAD_PRODUCER(p) COMCH_BAD_OBJ(p, ctx.magic, COMCH_PRODUCER_KIND)
#define COMCH_BAD_CONSUMER(c) COMCH_BAD_OBJ(c, ctx.magic, COMCH_CONSUMER_KIND)
#define COMCH_BAD_CTX(c) COMCH_BAD_OBJ(c, magic, COMCH_MAGIC_CTX_ANY)
#define COMCH_BAD_CONN(c) COMCH_BAD_OBJ(c, magic, COMCH_MAGIC_CONN)
#define COMCH_BAD_SERVER_FAST(s) COMCH_BAD_OBJ_FAST(s, ctrl.ctx.magic, COMCH_SERVER_KIND)
#define COMCH_BAD_CLIENT_FAST(c) COMCH_BAD_OBJ_FAST(c, ctrl.ctx.magic, COMCH_CLIENT_KIND)
#define COMCH_BAD_PRODUCER_FAST(p) COMCH_BAD_OBJ_FAST(p, ctx.magic, COMCH_PRODUCER_KIND)
#define COMCH_BAD_CONSUMER_FAST(c) COMCH_BAD_OBJ_FAST(c, ctx.magic, COMCH_CONSUMER_KIND)
#define COMCH_BAD_CTX_FAST(c) COMCH_BAD_OBJ_FAST(c, magic, COMCH_MAGIC_CTX_ANY)
#define COMCH_BAD_CONN_FAST(c) COMCH_BAD_OBJ_FAST(c, magic, COMCH_MAGIC_CONN)


/* ================================================================== objects */

/** Counters that only grow; summed from live connections plus closed ones. */
struct comch_counters {
	uint64_t msgs_sent, bytes_sent, msgs_recv, bytes_recv;
};

struct rte_comch_dev {
	uint32_t magic;                   /**< COMCH_MAGIC_DEV. */
	struct comch_objreg_entry reg;    /**< In the registry of live objects. */
	uint16_t id;
	enum rte_comch_dev_role role;
	const struct rte_comch_driver *drv;
	const struct rte_comch_drv_ops *ops;
	void *priv;                       /**< The driver's device. */
	struct rte_comch_dev_info info;
	char **rep_names;                 /**< Representors (DPU side). */
	unsigned int nb_reps;
	uint32_t nb_users;                /**< Reps, servers, clients, mmaps, MsgQs using it. */
	rte_spinlock_t lock;              /**< Guards conns and closed, for stats readers. */
	TAILQ_HEAD(, rte_comch_connection) conns;
	struct comch_counters closed;     /**< Totals of connections that ended. */
	uint32_t next_conn_id;            /**< Telemetry names connections by these. */
	uint64_t conns_opened, conns_closed, conns_rejected, peer_errors, send_errors;
	uint64_t budget_refusals;         /**< Atomic: peers' requests refused for a budget. */
	struct rte_comch_dev_stats base;  /**< Subtracted on read, set by stats_reset. */
};

struct rte_comch_dev_rep {
	uint32_t magic;                   /**< COMCH_MAGIC_REP. */
	struct comch_objreg_entry reg;    /**< In the registry of live objects. */
	struct rte_comch_dev *dev;
	const char *name;                 /**< Points into dev->rep_names. */
	uint32_t nb_servers;
};

/** What differs between context types. */
struct comch_ctx_ops {
	int (*start)(struct rte_comch_ctx *ctx);
	int (*stop)(struct rte_comch_ctx *ctx);
	/** One round of progress; slow is true on the engine's slow tick. */
	int (*progress)(struct rte_comch_ctx *ctx, bool slow, uint64_t now);
	/** Whether the context can sleep: 0, or -EAGAIN if work must not wait. */
	int (*arm)(struct rte_comch_ctx *ctx);
	/** Undo arm; NULL if arm leaves nothing to undo. */
	void (*disarm)(struct rte_comch_ctx *ctx);
};

struct rte_comch_ctx {
	uint32_t magic;                   /**< COMCH_MAGIC_CTX | type. */
	struct comch_objreg_entry reg;    /**< In the registry of live objects. */
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
	/**
	 * RUNNING with nothing for its rounds to look at: the engine runs its
	 * progress on the slow tick only. Set by its progress, cleared by what
	 * gives it work (a state change, a post); its engine's lcore only.
	 */
	bool quiet;
};

enum comch_task_type {
	COMCH_TASK_SEND,
	COMCH_TASK_POST_RECV,
	COMCH_TASK_PRODUCER_SEND,
};

struct rte_comch_task {
	struct rte_comch_ctx *ctx;
	struct comch_task_pool *pool;     /**< Where it returns when freed. */
	union rte_comch_data user_data;
	int status;
	uint8_t type;
	/**
	 * Taken from the pool and not freed. A task freed in flight is no longer
	 * allocated but still in flight (status -EINPROGRESS) until it comes back.
	 */
	bool allocated;
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
	void *drv;                        /**< The driver's server. */
	uint32_t nb_answered;             /**< Offers accepted, not yet up nor failed. */
	struct comch_ctrl ctrl;           /**< Last: ends with the name. */
};

struct rte_comch_client {
	struct rte_comch_connection *conn; /**< Set while connected. */
	void *hs;                          /**< The driver's attempt under way, or NULL. */
	uint32_t connect_timeout_ms;
	uint64_t connect_deadline;         /**< TSC; 0 means no deadline. */
	uint64_t next_try;                 /**< TSC of the next connection attempt. */
	uint32_t retry_ms;                 /**< Back-off between attempts, 1 to 100 ms. */
	int last_try;                      /**< What the last failed attempt said. */
	uint32_t nb_failed;                /**< Failed attempts since start. */
	struct comch_ctrl ctrl;
};

enum comch_conn_state {
	COMCH_CONN_ESTABLISHED,
	COMCH_CONN_DRAINING,  /**< Closed locally; waiting for the peer to take what we sent. */
	COMCH_CONN_DEAD,      /**< Over; the library tears it down at the end of progress. */
};

/** How producers write to a remote consumer (comch_grace.c). */
enum comch_remote_share {
	COMCH_SHARE_OWNER = 0, /**< Only its owner sends, without the lock. */
	COMCH_SHARE_ASKED,     /**< Another asked to: the owner locks, others wait. */
	COMCH_SHARE_LOCKED,    /**< Every producer takes the lock. */
};

/**
 * A consumer of the peer, as our producers see it. The connection's lcore
 * imports it, and unimports it a grace period after marking it dead. The first
 * producer that sends to it owns it and sends without the lock; once another
 * producer sends to it too, every send takes the lock (a ticket lock: fair
 * between lcores, released with a plain store).
 */
struct comch_remote {
	rte_ticketlock_t lock;
	bool alive;                       /**< Atomic: producers may send to it. */
	bool imported;                    /**< The driver holds it (drv valid). */
	bool unimporting;                 /**< Dead, unmapped after the grace period. */
	uint8_t share;                    /**< Atomic: enum comch_remote_share. */
	uint32_t imm_len;                 /**< Immediate data it accepts. */
	struct rte_comch_producer *owner; /**< Atomic: the producer that sends unlocked. */
	uint64_t share_grace;             /**< Sharing asked: its grace period (under lock). */
	uint64_t grace;                   /**< The unimport's grace period (token). */
	void *drv;                        /**< The driver's remote consumer. */
} __rte_cache_aligned;

struct comch_link;

/**
 * What the owner of a link, a connection (comch_conn.c) or a MsgQ
 * (comch_msgq.c), does for the producers and consumers on it. The fast-path
 * files go through it and know neither owner.
 */
struct comch_link_ops {
	const char *kind;  /**< "connection" or "MsgQ": for log lines. */
	/**
	 * Its producers and consumers come and go on any lcore, under the link's
	 * lock, and the link outlives them (a MsgQ). Otherwise on the owner's
	 * engine's lcore, and the owner may go with its last one (a connection).
	 */
	bool locked;
	/** Its messages carry buffers (not immediate data only: a MsgQ's). */
	bool buffers;
	/**
	 * A consumer's start and stop are answered by a peer, later (a
	 * connection); otherwise done when asked.
	 */
	bool peer;
	/** One more producer or consumer (optional): what the owner needs for it. */
	int (*attach)(struct comch_link *link, const char *what);
	/** One fewer (optional): the owner may go with its last. */
	void (*detach)(struct comch_link *link);
	/** The engine whose lcore changes the link, or NULL (optional: locked links). */
	struct rte_comch_pe *(*pe)(struct comch_link *link);
	/** Make a consumer a remote of the other side (expire false) or withdraw it. */
	int (*request)(struct rte_comch_consumer *c, bool expire);
	/** End the link for reason, from any lcore. */
	void (*abort)(struct comch_link *link, int reason);
	/** A stopping consumer whose withdrawal was asked (optional): is it done? */
	void (*expire_poll)(struct rte_comch_consumer *c);
	/** Requests queued for the owner (optional): served before a consumer goes. */
	void (*serve)(struct comch_link *link);
	/** A reply to a consumer's start that nobody takes (optional): its resources back. */
	void (*blob_discard)(struct comch_link *link, struct rte_comch_drv_blob *blob);
};

/**
 * What producers and consumers hang off: a connection or a MsgQ. It holds
 * their lists and ids, the table of the consumers the producers send to (the
 * peer's, or a MsgQ's DPA consumers) and the producers' grace periods.
 * A connection changes it on its engine's lcore; a MsgQ under its lock.
 */
struct comch_link {
	const struct comch_link_ops *ops; /**< Its owner's. */
	struct rte_comch_dev *dev;
	uint32_t id;                      /**< For log lines: the connection's or MsgQ's. */
	void *drv;                        /**< The driver's connection or MsgQ, for fast-path ops. */
	TAILQ_HEAD(, rte_comch_producer) producers;
	TAILQ_HEAD(, rte_comch_consumer) consumers;
	uint32_t nb_fast;                 /**< Producers + consumers. */
	/**
	 * A MsgQ's: its lists and table change under it. A ticket lock: fair
	 * between lcores, and made of C11 atomics ThreadSanitizer sees.
	 */
	rte_ticketlock_t lock;
	int fp_dead;                      /**< Atomic: the connection ended (MsgQ: failed). */
	int abort_reason;                 /**< Atomic: set by comch_link_abort(), any lcore. */
	/*
	 * The consumers producers send to, indexed by id: allocated at the first
	 * one. Ids start at COMCH_FAST_FIRST_ID: slot 0 is never used.
	 */
	struct comch_remote *remotes;
	uint32_t nb_remote_slots;         /**< Highest id + 1 (comch_link_set_max_remotes()). */
	uint32_t nb_remotes;              /**< Imported now. */
	uint32_t nb_unimporting;          /**< Dead, waiting for their grace period. */
	/** The producers' grace periods (comch_grace.c), made with the first producer. */
	struct rte_rcu_qsbr *qs;
};

struct rte_comch_connection {
	uint32_t magic;                   /**< COMCH_MAGIC_CONN. */
	struct comch_objreg_entry reg;    /**< In the registry of live objects. */
	struct comch_ctrl *ctrl;
	TAILQ_ENTRY(rte_comch_connection) next;     /**< In ctrl->conns. */
	TAILQ_ENTRY(rte_comch_connection) dev_next; /**< In dev->conns. */
	enum comch_conn_state state;
	uint32_t id;                      /**< Unique on its device, for telemetry. */
	int close_reason;                 /**< Reason given to callbacks and tasks. */
	uint32_t max_msg_size;
	union rte_comch_data user_data;
	struct comch_counters cnt;        /**< Single writer: the engine's lcore. */
	uint64_t drain_deadline;          /**< TSC, while DRAINING. */
	int task_err;                     /**< Status for tasks still in flight at the end. */
	/** Send tasks handed to the driver, oldest first, until the peer takes them. */
	struct rte_comch_task_send **txq;
	uint32_t txq_mask, txq_head, txq_tail;
	void *drv;                        /**< The driver's connection. */
	const struct rte_comch_drv_conn_ops *ops;
	bool closed_locally;              /**< We closed it (not the peer, not an error). */
	/** rte_comch_connection_recv_pause(): its messages wait in the driver's ring. */
	bool recv_paused;
	uint32_t nb_tasks;                /**< Send tasks allocated for it; they hold it too. */
	bool zombie;                      /**< Torn down; freed with its last producer/consumer. */
	struct rte_ring *fp_req;          /**< Consumers' start and stop, from their lcores. */
	/** Its producers and consumers: the struct outlives the connection while they exist. */
	struct comch_link link;
};

/* ------------------------------------------------------------------ fast path */

/** A fast-path context's tasks: its pool, and those in flight, oldest first. */
struct comch_fast_tasks {
	struct comch_task_pool *pool;
	void **q;
	uint32_t mask, head, tail;
	uint32_t nb;                      /**< Pool size (num_tasks). */
};

/** A producer's driver calls, cached at start: the hot path's only indirection. */
struct comch_fp_producer {
	int (*send)(void *p, void *remote, uint32_t producer_id, const void *src_reg,
		    const struct rte_comch_fp_msg *msgs, unsigned int n);
	void (*notify)(void *p, void *remote);
	int (*completed)(void *p, int *status, unsigned int max);
	void *priv;
};

/**
 * Who makes a producer's sends or a consumer's posts. The library's producer
 * and consumer know only whether the CPU makes them with tasks or with the
 * burst API; a program elsewhere (a MsgQ's side that an accelerator runs)
 * makes them with no call of the CPU's.
 */
enum comch_fast_api {
	COMCH_FAST_API_TASKS = 0, /**< The CPU, with tasks: the default. */
	COMCH_FAST_API_BURST,     /**< The CPU, with the burst API. */
	COMCH_FAST_API_NONE,      /**< Not the CPU: no task, no burst call. */
};

/** Most consumers a producer's link can have on the other side (max_peer_consumers, MsgQ). */
#define COMCH_MAX_PEER_CONSUMERS 256
/** The first producer and consumer id of a link: 0 is never handed out. */
#define COMCH_FAST_FIRST_ID 1u

struct rte_comch_producer {
	/** First: what the inline burst calls of rte_comch_producer.h go through. */
	struct rte_comch_producer_fp pub;
	struct rte_comch_ctx ctx;         /**< A producer is a ctx (container_of). */
	struct comch_fp_producer fp;
	struct comch_link *link;          /**< Its connection's or MsgQ's. */
	TAILQ_ENTRY(rte_comch_producer) next;
	uint32_t id;
	rte_comch_producer_task_send_cb_t ok_cb;
	rte_comch_producer_task_send_cb_t err_cb;
	/** Sends accepted, their callbacks due when the driver says they are done. */
	struct comch_fast_tasks tasks;
	/** The last submit was refused for want of a posted buffer (-EAGAIN). */
	bool starved;
	bool any_filled;
	enum comch_fast_api api;          /**< Who sends (set while IDLE). */
	/** A reader of the link's grace periods: the CPU sends (api not NONE). */
	bool reader;
	/** Offline for grace periods: its engine went to sleep (comch_producer_arm). */
	bool asleep;
	/** Burst sends done, not yet reported by completed_burst (drivers done at send). */
	uint32_t burst_done;
	/** Remote consumers filled since the last notify round, by id (1 to the max). */
	uint64_t filled[COMCH_MAX_PEER_CONSUMERS / 64 + 1];
	void *drv;                        /**< The driver's producer (may be NULL). */
};

struct rte_comch_producer_task_send {
	struct rte_comch_task base;
	struct rte_comch_buf *buf;
	uint32_t consumer_id;
	/** What the driver sends: imm set by the application, data and len at submit. */
	struct rte_comch_fp_msg msg;
};

/** A consumer's driver calls, cached at start. */
struct comch_fp_consumer {
	int (*post)(void *c, const struct rte_comch_fp_post *posts, unsigned int n);
	int (*poll)(void *c, struct rte_comch_fp_cpl *cpl, unsigned int max);
	int (*flush)(void *c, struct rte_comch_fp_cpl *cpl, unsigned int max);
	void *priv;
};

/**
 * A consumer as the peer knows it (comch_proto.c): what it may answer next.
 * Answers in any other state break the protocol.
 */
enum comch_proto_state {
	COMCH_PROTO_IDLE = 0,  /**< Not announced, or withdrawn and confirmed. */
	COMCH_PROTO_ANNOUNCED, /**< NEW sent: READY or REFUSED is due. */
	COMCH_PROTO_WITHDRAW,  /**< Stopped before that answer: EXPIRED follows READY. */
	COMCH_PROTO_READY,     /**< The peer imported it. */
	COMCH_PROTO_EXPIRING,  /**< EXPIRED sent: ACK is due. */
};

/** Posts a consumer's completion callbacks can queue before the driver must take them. */
#define COMCH_CONSUMER_QUEUE 32

struct rte_comch_consumer {
	/** First: what the inline burst calls of rte_comch_consumer.h go through. */
	struct rte_comch_consumer_fp pub;
	struct rte_comch_ctx ctx;         /**< A consumer is a ctx (container_of). */
	struct comch_fp_consumer fp;
	struct comch_link *link;          /**< Its connection's or MsgQ's. */
	struct rte_comch_mmap *mmap;
	TAILQ_ENTRY(rte_comch_consumer) next;
	uint32_t id;
	uint32_t imm_len;
	rte_comch_consumer_task_post_recv_cb_t ok_cb;
	rte_comch_consumer_task_post_recv_cb_t err_cb;
	/** The post-recv task pool (tasks.q is not used: a task is its post's cookie). */
	struct comch_fast_tasks tasks;
	uint32_t nb_posted;               /**< Buffers posted, not yet back. */
	uint32_t max_posts;               /**< tasks.nb, or the burst API's max_posts. */
	enum comch_fast_api api;          /**< Who posts (set while IDLE). */
	/** The peer writes no more: what is still posted comes back with flush_status. */
	bool flushing;
	int flush_status;
	/** Atomic, from the connection's lcore: 1 the peer took it, < 0 refused or failed. */
	int reg;
	int expired;        /**< Atomic, from the connection's lcore: the peer will not write. */
	bool expire_asked;
	uint64_t expire_deadline; /**< TSC: a stop waits for the confirmation until then. */
	uint64_t start_deadline;  /**< TSC: a start is given up then (connection). */
	/** Its last stop completed without the peer's confirmation (the consumer's lcore). */
	bool quarantined;
	/** Destroyed while quarantined: freed when the peer confirms (connection's lcore). */
	bool zombie;
	/** Where the protocol with the peer stands; the connection's lcore's only. */
	enum comch_proto_state proto;
	void *drv;          /**< The driver's consumer. */
	/**
	 * Posts of post-recv tasks submitted while this consumer's completion
	 * callbacks run (reposts, mostly), not yet given to the driver: they go
	 * together when the round's callbacks are done, one publication to the
	 * peer a round instead of one a message. Left for the next round if the
	 * driver has no room yet. Counted in nb_posted.
	 */
	struct rte_comch_fp_post queued[COMCH_CONSUMER_QUEUE];
	uint32_t nb_queued;
	bool in_round;                    /**< Its completion callbacks are running. */
};

struct rte_comch_consumer_task_post_recv {
	struct rte_comch_task base;
	struct rte_comch_buf *buf;
	uint32_t imm_len;
	uint32_t producer_id;
	uint8_t imm[RTE_COMCH_MAX_IMM_DATA_LEN];
};

/** Devices an mmap can be registered with. */
#define COMCH_MMAP_MAX_DEVS 4

/** Registered memory. */
struct rte_comch_mmap {
	uint32_t magic;                   /**< COMCH_MAGIC_MMAP. */
	struct comch_objreg_entry reg;    /**< In the registry of live objects. */
	void *addr;
	size_t len;
	uint32_t perms;
	bool has_range;
	bool anon;                        /**< The library mapped it (no device to allocate). */
	struct rte_comch_dev *alloc_dev;  /**< The device whose driver allocated it, or NULL. */
	void *alloc_mem;                  /**< That driver's handle of the allocation. */
	unsigned int nb_devs;
	struct {
		struct rte_comch_dev *dev;
		void *reg;                /**< Its driver's registration, while started. */
	} devs[COMCH_MMAP_MAX_DEVS];
	/**
	 * COMCH_MMAP_STARTED | number of buffers and consumers holding it, in one
	 * atomic word: a hold and a stop on two lcores cannot both succeed.
	 */
	uint32_t refs;
};

#define COMCH_MMAP_STARTED (1u << 31)

/* ================================================================== glue */

/* comch_mmap.c */
/** Hold a started mmap (a buffer or consumer uses it): -EPERM if it is not started. */
int comch_mmap_hold(struct rte_comch_mmap *mmap);
void comch_mmap_release(struct rte_comch_mmap *mmap);
bool comch_mmap_started(const struct rte_comch_mmap *mmap);
/**
 * The registration of a started mmap with dev's driver, or NULL if dev was not
 * added. Inline: every send of a buffer asks it (a call cost more than the walk).
 */
static inline void *
comch_mmap_reg(const struct rte_comch_mmap *mmap, const struct rte_comch_dev *dev)
{
	unsigned int i;

	for (i = 0; i < mmap->nb_devs; i++)
		if (likely(mmap->devs[i].dev == dev))
			return mmap->devs[i].reg;
	return NULL;
}

/* comch_driver.c */
const struct rte_comch_driver *comch_driver_find(const char *name, size_t len);

/* comch_dev.c */
struct rte_comch_dev *comch_dev_lookup_locked(uint16_t id);
void comch_devs_lock(void);
void comch_devs_unlock(void);
/** Count a refused handshake, or a peer dropped for breaking the protocol. */
void comch_dev_count_rejected(struct rte_comch_dev *dev);
/** Count a peer's request (a consumer, a connection) refused for a budget. */
void comch_dev_count_budget_refusal(struct rte_comch_dev *dev);

/*
 * One thread at a time, any thread: what an engine and a legacy endpoint
 * allow. Their user word holds the calling thread's id (comch_thread_id())
 * while it uses them, 0 otherwise: taking it is one compare-and-swap, which
 * also makes what the last user wrote visible (acquire), giving it back one
 * release store. A second thread is refused instead of racing, unless the
 * holder only borrowed the engine for a short call (COMCH_USER_BORROWED,
 * comch_pe_borrow()): then the second thread waits for it.
 */
extern __thread uint64_t comch_thread_token;

/** Marks a user word taken by comch_pe_borrow(). */
#define COMCH_USER_BORROWED ((uintptr_t)1)

/** The calling thread, as a non-zero even number: the address of its token. */
static inline uintptr_t
comch_thread_id(void)
{
	return (uintptr_t)&comch_thread_token;
}

/** 0 if the calling thread took *user; -EDEADLK if it has it already; -EBUSY if another has. */
static inline int
comch_user_enter(uintptr_t *user)
{
	uintptr_t seen;

	for (;;) {
		seen = 0;
		if (likely(comch_cas_acq_rel(user, &seen, comch_thread_id())))
			return 0;
		if ((seen & ~COMCH_USER_BORROWED) == comch_thread_id())
			return -EDEADLK;
		if ((seen & COMCH_USER_BORROWED) == 0)
			return -EBUSY;
		/* Borrowed for a create or a destroy: over in a moment. */
		rte_pause();
	}
}

static inline void
comch_user_leave(uintptr_t *user)
{
	comch_store_release(user, 0);
}

/* comch_pe.c; the engine's fields are here so that the per-task helpers inline. */
struct rte_comch_pe {
	uint32_t magic;          /**< COMCH_MAGIC_PE. */
	struct comch_objreg_entry reg;    /**< In the registry of live objects. */
	/*
	 * Who uses it (comch_pe_owner.c): the thread in user, taken by
	 * compare-and-swap, or the thread the engine is biased to, which says
	 * so in bias_in with plain stores.
	 */
	uintptr_t user;          /**< The thread using it (comch_user_enter()), or 0. */
	uintptr_t bias;          /**< atomic: that thread, 0 (none yet) or COMCH_PE_UNBIASED. */
	int bias_in;             /**< atomic, written by bias only: 1 while it uses the engine. */
	int revoke;              /**< atomic: threads keeping bias off meanwhile. */
	bool revoked;            /**< Under user: its holder counts in revoke. */
	uint32_t nb_revokes;     /**< Under user: how often bias was kept off. */
	unsigned int lcore_id;   /**< The lcore it was created for: a label, no binding. */
	int epfd;
	uint32_t cb_depth;       /**< > 0 while a user callback runs. */
	uint32_t gen;            /**< Bumped when the context list changes. */
	uint64_t nb_inflight;
	uint64_t next_slow;      /**< TSC of the next slow tick. */
	uint64_t slow_interval;
	/* Another lcore of this process wakes a sleeping engine with it. */
	struct rte_comch_drv_fd kick;
	TAILQ_HEAD(, rte_comch_ctx) ctxs;
};

void comch_pe_detach(struct rte_comch_ctx *ctx);

/** An engine's bias once other threads took it too often: none, for good. Odd: no thread. */
#define COMCH_PE_UNBIASED ((uintptr_t)1)

/** Whether this process may bias engines (membarrier registered); asks once. */
bool comch_pe_bias_available(void);
/** comch_pe_enter() without the bias: the user word, the bias kept off, the refusals. */
int comch_pe_enter_slow(struct rte_comch_pe *pe, const char *func);
/** Give back an engine taken through its user word (comch_pe_enter_slow(), borrow). */
void comch_pe_leave_slow(struct rte_comch_pe *pe);

/**
 * Take the engine for the calling thread (give it back with comch_pe_leave()):
 * 0, or -EBUSY (another thread has it) or -EDEADLK (inside one of its
 * callbacks), after a log line naming func. Inline: every progress call takes
 * it. The thread the engine is biased to (the first that took it) does so
 * without a locked instruction: it stores bias_in, then reads revoke and bias
 * again with only the compiler's barrier between, and the threads that keep
 * the bias off pay for the full barrier with membarrier(2) (comch_pe_owner.c).
 */
static inline int
comch_pe_enter(struct rte_comch_pe *pe, const char *func)
{
	uintptr_t me = comch_thread_id();

	if (likely(comch_load_relaxed(&pe->bias) == me && comch_load_relaxed(&pe->bias_in) == 0)) {
		comch_store_relaxed(&pe->bias_in, 1);
		rte_compiler_barrier();
		/* cb_depth last: read only once no other thread may be writing it. */
		if (likely(comch_load_acquire(&pe->revoke) == 0 &&
			   comch_load_relaxed(&pe->bias) == me && pe->cb_depth == 0))
			return 0;
		comch_store_release(&pe->bias_in, 0);
	}
	return comch_pe_enter_slow(pe, func);
}

/** Give back the engine comch_pe_enter() took. */
static inline void
comch_pe_leave(struct rte_comch_pe *pe)
{
	/* bias_in is set only by the bias thread, which no one unbiases while it is in. */
	if (likely(comch_load_relaxed(&pe->bias) == comch_thread_id() &&
		   comch_load_relaxed(&pe->bias_in) != 0))
		comch_store_release(&pe->bias_in, 0);
	else
		comch_pe_leave_slow(pe);
}

/**
 * Take the engine for a short call of a thread that does not use it (a
 * producer or consumer created or destroyed on one of its connections),
 * waiting for the round in progress, if any, to end. True if taken: give it
 * back with comch_pe_leave_slow(); false if the calling thread has it already
 * (inside one of its callbacks), or pe is NULL.
 */
bool comch_pe_borrow(struct rte_comch_pe *pe);
uint64_t comch_ms_to_tsc(uint64_t ms);

static inline void
comch_pe_add_inflight(struct rte_comch_pe *pe, int64_t n)
{
	pe->nb_inflight += n;
}

/** Run a user callback: progress is refused while it runs. */
static inline void
comch_pe_enter_cb(struct rte_comch_pe *pe)
{
	if (pe != NULL)
		pe->cb_depth++;
}

static inline void
comch_pe_leave_cb(struct rte_comch_pe *pe)
{
	if (pe != NULL)
		pe->cb_depth--;
}

static inline bool
comch_pe_in_cb(const struct rte_comch_pe *pe)
{
	return pe != NULL && pe->cb_depth != 0;
}

/* comch_ctx.c */
void comch_ctx_init(struct rte_comch_ctx *ctx, const struct comch_ctx_ops *ops,
		    enum comch_ctx_type type, struct rte_comch_dev *dev);
void comch_ctx_set_state(struct rte_comch_ctx *ctx, enum rte_comch_ctx_state next);
int comch_ctx_check_idle(const struct rte_comch_ctx *ctx, const char *what);

/** A new context is the application's (comch_obj_publish()). */
static inline void
comch_ctx_publish(struct rte_comch_ctx *ctx)
{
	comch_obj_publish(&ctx->reg, &ctx->magic);
}

/** The end of a context, block the allocation that holds it (comch_obj_retire()). */
static inline void
comch_ctx_retire(struct rte_comch_ctx *ctx, void *block)
{
	comch_obj_retire(&ctx->reg, &ctx->magic, block);
}

/* comch_task_pool.c: a context's tasks, a stack of free ones only its lcore touches. */
struct comch_task_pool {
	uint32_t size;     /**< Tasks in the pool. */
	uint32_t nb_free;  /**< Written by the owner; read by others through COMCH_CNT_READ. */
	uint8_t *elts;     /**< The tasks, cache-line aligned. */
	void *free[];      /**< Free tasks, nb_free of them, the next one on top. */
};
struct comch_task_pool *comch_task_pool_create(uint32_t num, size_t elt_size);
/** Tasks taken and not returned. */
unsigned int comch_task_pool_in_use(const struct comch_task_pool *tp);
void comch_task_pool_free(struct comch_task_pool *tp);

static inline int
comch_task_get(struct comch_task_pool *tp, void **obj)
{
	if (unlikely(tp->nb_free == 0))
		return -ENOMEM;
	*obj = tp->free[tp->nb_free - 1];
	COMCH_CNT_ADD(tp->nb_free, -1);
	return 0;
}

static inline void
comch_task_put(struct rte_comch_task *task)
{
	struct comch_task_pool *tp = task->pool;

	tp->free[tp->nb_free] = task;
	COMCH_CNT_ADD(tp->nb_free, 1);
}

/*
 * A task back from flight (completed or flushed) that the application freed
 * while it flew: to its pool, with no callback. True if so; the caller, which
 * set its status and counted it out of flight, calls no callback then (and
 * drops what else the task held: a send task, its connection).
 */
static inline bool
comch_task_done_freed(struct rte_comch_task *task)
{
	if (likely(task->allocated))
		return false;
	comch_task_put(task);
	return true;
}

/* comch_ctrl.c: what server and client share */
struct comch_ctrl *comch_ctrl_alloc(size_t outer_size, size_t ctrl_offset,
				    struct rte_comch_dev *dev, enum comch_ctx_type type,
				    const struct comch_ctx_ops *ops, const char *name);
int comch_ctrl_release(struct comch_ctrl *ctrl);
int comch_ctrl_check_no_fast(const struct comch_ctrl *ctrl, const char *what);
int comch_ctrl_event_consumer_register(struct comch_ctrl *ctrl,
				       rte_comch_event_consumer_cb_t new_cb,
				       rte_comch_event_consumer_cb_t expired_cb);
int comch_ctrl_set_max_msg_size(struct comch_ctrl *ctrl, uint32_t size);
int comch_ctrl_set_recv_queue_size(struct comch_ctrl *ctrl, uint32_t size);
int comch_ctrl_task_send_set_conf(struct comch_ctrl *ctrl, rte_comch_task_send_cb_t ok_cb,
				  rte_comch_task_send_cb_t err_cb, uint32_t num);
int comch_ctrl_task_send_alloc_init(struct comch_ctrl *ctrl, struct rte_comch_connection *conn,
				    const void *msg, uint32_t len,
				    struct rte_comch_task_send **task);
int comch_ctrl_event_msg_recv_register(struct comch_ctrl *ctrl, rte_comch_event_msg_recv_cb_t cb);
int comch_ctrl_prepare_start(struct comch_ctrl *ctrl);
/**
 * What the owner (server or client) of a connection does when it ends: called
 * by comch_ctrl_progress_conns() once the connection is torn down, before its
 * memory may go. The owner passes it: a connection never calls its owner.
 */
typedef void (*comch_ctrl_conn_ended_t)(struct comch_ctrl *ctrl,
					struct rte_comch_connection *conn);
/** Tear down ctrl's dead connections, telling ended of each: how many. */
int comch_ctrl_reap_conns(struct comch_ctrl *ctrl, comch_ctrl_conn_ended_t ended);
int comch_ctrl_arm(struct rte_comch_ctx *ctx);
void comch_ctrl_disarm(struct rte_comch_ctx *ctx);
void comch_ctrl_close_all(struct comch_ctrl *ctrl, int reason);

static inline struct rte_comch_server *
comch_ctrl_server(struct comch_ctrl *ctrl)
{
	return container_of(ctrl, struct rte_comch_server, ctrl);
}

static inline struct rte_comch_client *
comch_ctrl_client(struct comch_ctrl *ctrl)
{
	return container_of(ctrl, struct rte_comch_client, ctrl);
}

/* comch_conn.c */
struct rte_comch_connection *comch_conn_create(struct comch_ctrl *ctrl, void *drv,
					       const struct rte_comch_drv_conn_params *p);
/**
 * Tell the server's connection callback (cb) that a client could not connect
 * (status, negative): with a connection of its own, ended from the start,
 * live only during the callback.
 */
void comch_conn_report_failed(struct comch_ctrl *ctrl, int status,
			      rte_comch_event_conn_status_cb_t cb);
/** One round of a connection: messages in, messages taken, control messages. */
int comch_conn_progress(struct rte_comch_connection *conn, bool slow, uint64_t now);
/** One round of ctrl's connections, then the end of those that died. */
static inline int
comch_ctrl_progress_conns(struct comch_ctrl *ctrl, bool slow, uint64_t now,
			  comch_ctrl_conn_ended_t ended)
{
	struct rte_comch_connection *conn;
	bool dead = false;
	int did = 0;

	/* Inline: every round of a server or client, most of them with nothing to do. */
	TAILQ_FOREACH(conn, &ctrl->conns, next) {
		did += comch_conn_progress(conn, slow, now);
		dead |= conn->state == COMCH_CONN_DEAD;
	}
	if (unlikely(dead))
		did += comch_ctrl_reap_conns(ctrl, ended);
	return did;
}
/** -EBUSY (logged) unless every producer and consumer on conn is IDLE: a close may go. */
int comch_conn_check_fast_idle(const struct rte_comch_connection *conn, const char *what);
void comch_conn_close_local(struct rte_comch_connection *conn, int reason);
/**
 * End of a dead or drained connection: tasks, events, counters. Its owner
 * learns of it next, then comch_conn_retire() lets its memory go.
 */
void comch_conn_teardown(struct rte_comch_connection *conn);
/** After teardown and the owner: free the connection once nothing points at it. */
void comch_conn_retire(struct rte_comch_connection *conn);
int comch_conn_task_send_submit(struct rte_comch_task_send *task);
/** Release a connection's memory (after teardown, once no producer/consumer holds it). */
void comch_conn_free(struct rte_comch_connection *conn);
/** Free a torn-down connection if no task, producer or consumer points at it. */
void comch_conn_release_check(struct rte_comch_connection *conn);
/** A send task that pointed at conn was freed. */
void comch_conn_task_released(struct rte_comch_connection *conn);

/* comch_proto.c: the library's control protocol on a connection (consumers' life) */
/** Handle a control message received from the peer; -EPROTO if it breaks the protocol. */
int comch_proto_on_ctl(struct rte_comch_connection *conn, struct rte_comch_drv_ctl *ctl);
/** Connection lcore: serve the consumers' start and stop requests. */
int comch_proto_serve(struct rte_comch_connection *conn);
/** Unimport the peer's consumers whose grace period is over: 1 if any, < 0 if lost. */
int comch_proto_unimports(struct rte_comch_connection *conn);
/** Unimport every one of the peer's consumers: no producer may be sending. */
/** The connection ended: answer pending requests, forget the peer's consumers. */
void comch_proto_conn_ended(struct rte_comch_connection *conn);
/** Ask the connection's lcore to announce (expire false) or withdraw a consumer. */
int comch_proto_request(struct rte_comch_consumer *c, bool expire);

/* comch_link.c: what connections and MsgQs share for their producers and consumers */
void comch_link_init(struct comch_link *link, const struct comch_link_ops *ops,
		     struct rte_comch_dev *dev, uint32_t id, void *drv, uint32_t max_remotes);
/** Size the table of remotes (before it is allocated) for ids 1 to max_remotes. */
void comch_link_set_max_remotes(struct comch_link *link, uint32_t max_remotes);
/** The table of remotes, made at the first one (connection) or at the start (MsgQ). */
int comch_link_remotes_alloc(struct comch_link *link);
void comch_link_remotes_free(struct comch_link *link);
/** Whether remote id is imported or waiting for its unimport. */
bool comch_link_remote_busy(const struct comch_link *link, uint32_t id);
/** Enter what the driver imported as remote id (checked: 1 to nb_remote_slots - 1). */
void comch_link_import(struct comch_link *link, uint32_t id, uint32_t imm_len, void *drv);
/** A remote is withdrawn: dead now, unimported once its grace period is over. */
void comch_link_expire(struct comch_link *link, struct comch_remote *r);
/** Forget a remote, which no producer can be sending to any more. */
void comch_link_unimport(struct comch_link *link, struct comch_remote *r);
/** Unimport every remote: no producer may be sending. */
void comch_link_release_remotes(struct comch_link *link);
/**
 * Its producers and consumers that are not IDLE (STARTING, RUNNING or
 * STOPPING), on the lcore that changes its lists (a connection's engine's).
 */
uint32_t comch_link_nb_active(const struct comch_link *link);

/** The one abort path of the fast path: end the link for reason (any lcore). */
static inline void
comch_link_abort(struct comch_link *link, int reason)
{
	link->ops->abort(link, reason);
}

/** Ask for a consumer to be made a remote of the other side (expire false) or withdrawn. */
static inline int
comch_link_request(struct rte_comch_consumer *c, bool expire)
{
	return c->link->ops->request(c, expire);
}

/** The connection a connection's link is in (its owner's ops are comch_conn_link_ops). */
static inline struct rte_comch_connection *
comch_link_conn(struct comch_link *link)
{
	return container_of(link, struct rte_comch_connection, link);
}

/* A locked link's producers and consumers come and go on any lcore: under its lock. */
static inline void
comch_link_lock(struct comch_link *link)
{
	if (link->ops->locked)
		rte_ticketlock_lock(&link->lock);
}

static inline void
comch_link_unlock(struct comch_link *link)
{
	if (link->ops->locked)
		rte_ticketlock_unlock(&link->lock);
}

/* Hot path (every submit, every consumer round): inline. */
static inline bool
comch_link_dead(const struct comch_link *link)
{
	return comch_load_acquire(&link->fp_dead) != 0;
}

/** The consumer id producers send to, if the link has a slot for it (else NULL). */
static inline struct comch_remote *
comch_remote_lookup(const struct comch_link *link, uint32_t id)
{
	struct comch_remote *r = comch_load_acquire(&link->remotes);

	/* Id 0 is never a consumer's: id - 1 wraps, one compare refuses it with the too big. */
	if (unlikely(r == NULL || id - COMCH_FAST_FIRST_ID >= link->nb_remote_slots -
		     COMCH_FAST_FIRST_ID))
		return NULL;
	return &r[id];
}


/* comch_grace.c: the producers' grace periods */
int comch_grace_attach(struct comch_link *link, uint32_t max_producers);
void comch_grace_free(struct comch_link *link);
uint64_t comch_grace_start(struct comch_link *link);
bool comch_grace_done(struct comch_link *link, uint64_t token);
/** Make p a reader, unless the CPU makes none of its sends (api NONE): no-op then. */
int comch_grace_register(struct rte_comch_producer *p);
void comch_grace_unregister(struct rte_comch_producer *p);
void comch_grace_online(struct rte_comch_producer *p);
void comch_grace_offline(struct rte_comch_producer *p);

/* A producer is between two sends: what it read of the remotes may change. */
static inline void
comch_grace_quiescent(struct rte_comch_producer *p)
{
	if (likely(p->reader))
		rte_rcu_qsbr_quiescent(p->link->qs, p->id);
}

/*
 * A producer whose engine slept is offline for grace periods (a reader that
 * blocks must not hold them up): online again before it reads a remote.
 */
static inline void
comch_grace_awake(struct rte_comch_producer *p)
{
	if (unlikely(p->asleep)) {
		p->asleep = false;
		comch_grace_online(p);
	}
}

/* comch_fast.c: what producers and consumers share */
int comch_fast_attach(struct comch_link *link, uint32_t count, uint32_t max,
		      const char *what);
void comch_fast_detach(struct comch_link *link);
/**
 * destroy(obj), a producer's or consumer's on link, from any thread: with the
 * connection's engine borrowed (comch_pe_borrow()) for the call; a MsgQ's
 * link locks instead. Returns what destroy returns.
 */
int comch_fast_conn_destroy(struct comch_link *link, int (*destroy)(void *obj), void *obj);
/** comch_fast_detach() at a destroy, under the link's lock, which it releases. */
void comch_fast_detach_unlock(struct comch_link *link);
int comch_fast_tasks_setup(struct comch_fast_tasks *ft, size_t elt_size);
int comch_fast_tasks_release(struct comch_fast_tasks *ft, const char *what);
int comch_fast_tasks_resize(struct comch_fast_tasks *ft, uint32_t num, const char *what);
int comch_fast_set_conf(struct rte_comch_ctx *ctx, struct comch_fast_tasks *ft, bool cbs_given,
			uint32_t num, const char *what);
/** Checks of a start; the task pool if tasks (not the burst API). */
int comch_fast_start(const struct rte_comch_ctx *ctx, struct comch_fast_tasks *ft,
		     size_t elt_size, bool configured, bool tasks,
		     const struct comch_link *link, const char *what);
int comch_fast_destroy(struct rte_comch_ctx *ctx, struct comch_fast_tasks *ft, const char *what,
		       void (*drv_release)(struct rte_comch_ctx *ctx));
int comch_producer_submit(struct rte_comch_producer_task_send *t);
struct rte_comch_producer *comch_producer_create(struct comch_link *link, uint32_t max,
						 enum comch_fast_api api);
struct rte_comch_consumer *comch_consumer_create(struct comch_link *link,
						 struct rte_comch_mmap *mmap, uint32_t max,
						 enum comch_fast_api api);
int comch_consumer_submit(struct rte_comch_consumer_task_post_recv *t);
/** Connection lcore: the peer will not write into c any more; frees c if it was destroyed. */
void comch_consumer_withdrawn(struct rte_comch_consumer *c);
/**
 * The second half of a consumer's set-up: the peer's reply to its start blob,
 * to the driver's connect (owned from here). -EPROTO, logged, if the driver
 * refuses it or takes no reply but got one.
 */
int comch_consumer_connect(struct rte_comch_consumer *c, struct rte_comch_drv_blob *reply);
/** Connection lcore, at its end: free the destroyed consumers that waited for the peer. */
void comch_consumer_free_zombies(struct comch_link *link);

/**
 * In a list of producers or consumers (both have id and next): how many there
 * are, and the smallest id none of them has, so ids are reused after a destroy.
 * Ids start at COMCH_FAST_FIRST_ID: DOCA programs take a consumer id of 0 for
 * "none yet", so no consumer (nor, alike, producer) ever has it.
 */
#define COMCH_FAST_FREE_ID(head, type, count) __extension__ ({ \
	const struct type *_o; \
	uint32_t _id = COMCH_FAST_FIRST_ID; \
	bool _used; \
	*(count) = 0; \
	TAILQ_FOREACH(_o, head, next) \
		(*(count))++; \
	do { \
		_used = false; \
		TAILQ_FOREACH(_o, head, next) \
			_used |= _o->id == _id; \
	} while (_used && ++_id != 0); \
	_id; \
})

static inline void
comch_fast_tasks_push(struct comch_fast_tasks *ft, void *t)
{
	ft->q[ft->tail++ & ft->mask] = t;
}

static inline void *
comch_fast_tasks_pop(struct comch_fast_tasks *ft)
{
	return ft->q[ft->head++ & ft->mask];
}

static inline uint32_t
comch_fast_tasks_inflight(const struct comch_fast_tasks *ft)
{
	return ft->tail - ft->head;
}

/* What submit checks for producers and consumers alike, before the driver. */
static inline int
comch_fast_submit_check(const struct rte_comch_ctx *ctx, const struct comch_link *link,
			uint32_t id, const char *what)
{
	if (unlikely(ctx->state != RTE_COMCH_CTX_STATE_RUNNING)) {
		COMCH_LOG(ERR, "%s %u: not running", what, id);
		return -EBUSY;
	}
	if (unlikely(comch_link_dead(link)))
		return -ENOTCONN;
	return 0;
}

#endif /* COMCH_PRIVATE_H */
