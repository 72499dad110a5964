/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef RTE_COMCH_DRIVER_H
#define RTE_COMCH_DRIVER_H

/**
 * @file
 * The comch driver contract: what a driver supplies, and the few library calls
 * it may make. For driver writers only (applications never include it); every
 * symbol here is internal ABI: build drivers with ALLOW_INTERNAL_API.
 *
 * The library owns the protocol: objects, state machines, admission, the
 * announce/expire/ack life of consumers, the table of the peer's consumers and
 * its locks, timers, connection state, every user callback. A driver is a
 * transport. It supplies:
 * - devices (probe from devargs, capabilities, representor names);
 * - servers and clients that set connections up: a server hands the library
 *   each client's offer and carries the library's verdict back;
 * - per connection, a reliable ordered carrier of user messages (received in
 *   place, peek/release) and of the library's own control messages, each with
 *   an optional blob (bytes, and descriptors for a driver that passes them)
 *   for the set-up of fast-path objects;
 * - memory: allocation the peer can share, registration, export of a consumer
 *   and import of a peer's consumer, in two halves (a reply blob goes back to
 *   the consumer's connect);
 * - the fast path: posting receive buffers, placing a producer's data into the
 *   peer consumer's next posted buffer with up to 32 bytes of immediate data,
 *   and completions returned in arrays;
 * - the file descriptors a sleeping engine waits on.
 *
 * Rules:
 * - A driver sees handles and its own private pointers, never the library's
 *   object layouts. Ops get the driver's private pointer of the object first;
 *   configuration comes as op arguments.
 * - Results are returned, never reported by calling up: a driver calls no
 *   library function from inside an op but rte_comch_drv_pe_*() (fd watching
 *   and wake-ups).
 * - Who calls what, from which lcore, is stated per op. "Engine lcore" is the
 *   lcore of the engine the object's context (for a connection: its server or
 *   client) is attached to. Fast-path ops run on the producer's or consumer's
 *   own engine lcore, concurrently with the connection's ops.
 * - What the library checks before an op (states, sizes against the device's
 *   capabilities, NULLs, the peer's consumer ids and immediate data lengths),
 *   the driver need not check again. What the peer wrote or sent, the driver
 *   checks before use (indexes, lengths, offsets, descriptors).
 *
 * Nothing here assumes that the two sides share memory:
 * - Set-up of a fast-path object is a round trip the library carries in order
 *   on the connection and times out: the consumer's start blob goes to the
 *   peer's import, and import's reply blob to the consumer's connect (queue
 *   pair numbers, keys and addresses, or descriptors of shared memory).
 * - A producer learns the remote consumer's posted buffers from memory the
 *   driver keeps on the producer's side, never by reading the peer's through
 *   the contract: shm maps the consumer's post ring; a verbs driver keeps a
 *   post mirror the consumer's posts reach by SEND (or RDMA WRITE) on a
 *   queue pair import and connect set up. The library's producer logic is
 *   the same for every driver.
 * - Blobs are driver-defined bytes; descriptors are optional (a verbs driver
 *   passes none). The library never looks inside.
 * - Concurrency a driver may assume on the fast path: send and notify on one
 *   remote are serialised by the library (one producer without a lock, or
 *   several under the remote's lock); sends to different remotes, and
 *   completed() of different producers, run at the same time on different
 *   lcores. Resources a producer needs of its own (a send queue) are made in
 *   its create; a queue several producers' completions come through is the
 *   driver's to guard.
 *
 * The programmer's guide has a chapter, "Writing a comch driver", that walks
 * through the contract with the skeleton driver (drivers/comch/skeleton).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/queue.h>

#include <rte_common.h>
#include <rte_compat.h>

#include <rte_comch.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rte_kvargs;
struct rte_comch_pe;

/** Longest server name a driver may be asked for, including the NUL. */
#define RTE_COMCH_DRV_NAME_MAX 256
/** Most bytes of a library control message. */
#define RTE_COMCH_DRV_CTL_MAX 64
/** Most bytes of a blob's data. */
#define RTE_COMCH_DRV_BLOB_MAX 64
/** Most descriptors of a blob. */
#define RTE_COMCH_DRV_BLOB_FDS 4

/**
 * What travels with a library control message: driver-defined bytes (sizes,
 * addresses, keys) and descriptors (shared memory, doorbells). The library
 * never looks inside; it hands a received blob to an import op, or back to
 * blob_discard if it will not.
 */
struct rte_comch_drv_blob {
	uint8_t data[RTE_COMCH_DRV_BLOB_MAX];
	uint32_t len;                        /**< Bytes of data in use. */
	uint32_t nb_fds;                     /**< Descriptors in fds. */
	int fds[RTE_COMCH_DRV_BLOB_FDS];     /**< Owned by whoever holds the blob. */
};

/* ------------------------------------------------------------------ device */

/** What probe fills in. */
struct rte_comch_drv_dev_conf {
	void *priv;                          /**< The driver's device; given to device ops. */
	enum rte_comch_dev_role role;
	struct rte_comch_dev_info info;      /**< name and every limit and capability. */
	/**
	 * BlueField side: representor names, copied by the library before probe's
	 * kvlist is freed (they may point into it).
	 */
	const char * const *rep_names;
	unsigned int nb_reps;
};

/** Device ops; any thread, while no context of the device runs. */
struct rte_comch_drv_dev_ops {
	/** Release the device (after every object of it is gone). */
	void (*close)(void *dev);
};

/* ------------------------------------------------------------------ set-up */

/** What both sides agreed, when a connection is up. */
struct rte_comch_drv_conn_params {
	uint32_t max_msg_size;   /**< Largest user message either way. */
	uint32_t peer_queue_size; /**< Messages that may be in flight towards the peer. */
	uint32_t recv_queue_size; /**< Messages that may be in flight towards us. */
};

/** What a client asks of a server, as its server's driver received it. */
struct rte_comch_drv_offer {
	char name[RTE_COMCH_DRV_NAME_MAX]; /**< Server name asked for, NUL-terminated. */
	uint32_t max_msg_size;   /**< Required max message size, 0: the server's. */
	uint32_t recv_queue_size; /**< The client's receive queue. */
};

/** A server's configuration. */
struct rte_comch_drv_server_conf {
	const char *name;        /**< Server name (valid while the server exists). */
	const char *rep_name;    /**< Representor it serves. */
	uint32_t max_pending;    /**< Handshakes under way at most: drop beyond. */
	uint32_t handshake_ms;   /**< Drop a handshake older than this. */
};

/** What a server's poll returns. */
enum rte_comch_drv_srv_event_type {
	/** A client's offer: answer it with server ops answer(). */
	RTE_COMCH_DRV_SRV_OFFER = 1,
	/** An answered handshake completed: hs is now a connection (conn ops). */
	RTE_COMCH_DRV_SRV_UP,
	/** An answered handshake failed (status says why); hs is gone. */
	RTE_COMCH_DRV_SRV_FAILED,
	/**
	 * A handshake the driver dropped before any offer (counted as refused).
	 * Status -EUSERS: refused because the client's process has its budget
	 * of connections already (the driver logs it; the library counts it in
	 * budget_refusals too).
	 */
	RTE_COMCH_DRV_SRV_DROPPED,
};

struct rte_comch_drv_srv_event {
	enum rte_comch_drv_srv_event_type type;
	void *hs;                                /**< The handshake (the driver's). */
	int status;                              /**< FAILED, DROPPED: -errno why. */
	struct rte_comch_drv_offer offer;        /**< OFFER. */
	struct rte_comch_drv_conn_params params; /**< UP. */
};

/** Server ops. create/destroy: any thread; the rest: the server's engine lcore. */
struct rte_comch_drv_server_ops {
	/** Claim the name on the representor (-EEXIST if a live server has it). */
	int (*create)(void *dev, const struct rte_comch_drv_server_conf *conf, void **srv);
	void (*destroy)(void *srv);
	/** Listen; watch descriptors on pe. */
	int (*start)(void *srv, struct rte_comch_pe *pe);
	/** Stop listening; drop every handshake under way (no events for them). */
	void (*stop)(void *srv);
	/** Up to max events, oldest first; now is the TSC (for handshake timeouts). */
	unsigned int (*poll)(void *srv, struct rte_comch_drv_srv_event *ev, unsigned int max,
			     uint64_t now);
	/**
	 * The library's verdict on an offer: status 0 with what was agreed
	 * (then UP or FAILED follows), or a positive errno to refuse it with
	 * (ENOENT, EMSGSIZE, ECONNREFUSED, EPROTO, ENOMEM); hs is then gone.
	 */
	void (*answer)(void *srv, void *hs, int status,
		       const struct rte_comch_drv_conn_params *agreed);
};

/** A client's connection attempt. */
struct rte_comch_drv_client_conf {
	const char *name;        /**< Server name. */
	uint32_t max_msg_size;   /**< Required, or 0 to take the server's. */
	uint32_t recv_queue_size;
};

/** Client ops: the client's engine lcore. */
struct rte_comch_drv_client_ops {
	/**
	 * Begin one attempt. 0: under way (*hs set); -ENOENT: nobody listens
	 * under that name; other -errno. The library backs off and retries.
	 */
	int (*connect)(void *dev, const struct rte_comch_drv_client_conf *conf,
		       struct rte_comch_pe *pe, void **hs);
	/**
	 * -EINPROGRESS; 0: the server accepted (params filled, hs is now a
	 * connection); -ECONNRESET: the server went away, or -ENOENT: nobody
	 * serves that name (yet), as the peer said (the library retries both,
	 * as a connect that failed); the server's refusal (-EMSGSIZE,
	 * -ECONNREFUSED, -ENOMEM), or -EPROTO: final. Unless 0 or -EINPROGRESS,
	 * hs is gone.
	 */
	int (*poll)(void *hs, struct rte_comch_drv_conn_params *params);
	/** Give up an attempt under way; hs is gone. */
	void (*abort)(void *hs);
};

/* ------------------------------------------------------------------ connection */

/** A received message, in the driver's memory until released. */
struct rte_comch_drv_msg {
	const void *data;
	uint32_t len;
};

/** A library control message received, with its blob. */
struct rte_comch_drv_ctl {
	uint8_t msg[RTE_COMCH_DRV_CTL_MAX];
	uint32_t len;
	struct rte_comch_drv_blob blob;
};

/**
 * Connection ops: the engine lcore of its server or client, unless said
 * otherwise. A connection is up from SRV_UP or a client poll returning 0.
 */
struct rte_comch_drv_conn_ops {
	/**
	 * Queue a user message (copied or placed; the buffer is the caller's
	 * again on return). An empty message (len 0) may come with msg NULL,
	 * which must not reach memcpy() (undefined behaviour, even for 0
	 * bytes). 0, or -EAGAIN. The library never has more than the peer's
	 * queue size (rounded up to a power of two) not yet reported taken by
	 * poll: a driver whose carrier holds exactly the queue size refuses
	 * the rest with -EAGAIN.
	 */
	int (*send)(void *conn, const void *msg, uint32_t len);
	/**
	 * Called once per progress round. Up to max received messages, oldest
	 * first, left in place: valid until release. *taken: how many more of
	 * our messages the peer took, not reported before. A driver may report
	 * them at a later poll (a stream's sender need not read the peer's
	 * index every round), but not later than the first poll with nothing
	 * sent since the one before, and every poll after the end reports all
	 * (the library drains the ended connection until a poll does nothing).
	 * Returns how many messages, or -EPROTO if the peer corrupted them or
	 * lied about what it took (the library then drops it).
	 */
	int (*poll)(void *conn, struct rte_comch_drv_msg *msgs, unsigned int max, uint32_t *taken);
	/**
	 * Called after each poll, once the library is done with the n oldest
	 * messages it returned (n may be 0): release them, and tell a sleeping
	 * peer what this round did (messages sent or taken).
	 */
	void (*release)(void *conn, unsigned int n);
	/**
	 * Send a library control message and a blob (NULL: none), in order with
	 * the other control messages. The blob's descriptors are the driver's
	 * from the call on, sent or not. 0, or -errno if the carrier cannot
	 * take it: the library then ends the connection (-ECONNRESET). The
	 * library sends a few control messages per consumer started or stopped:
	 * a carrier that can hold a few hundred never refuses an honest peer.
	 */
	int (*ctl_send)(void *conn, const void *msg, uint32_t len, struct rte_comch_drv_blob *blob);
	/**
	 * Called on the engine's slow tick (~100 us). The next control message
	 * received, if any: 1 (ctl filled, its blob's descriptors now the
	 * library's), 0 (none); or the end of the connection: -ECONNABORTED
	 * (the peer closed it), -ECONNRESET (the peer died), -EPROTO (the peer
	 * broke the protocol). After an end, poll still returns what the peer
	 * finished before it.
	 */
	int (*ctl_poll)(void *conn, struct rte_comch_drv_ctl *ctl);
	/** Close the descriptors of a blob the library will not import. */
	void (*blob_discard)(void *conn, struct rte_comch_drv_blob *blob);
	/**
	 * Before the engine sleeps: make a message arriving (only if recv),
	 * one of ours taken, a control message or the end wake it. -EAGAIN if
	 * any of those already happened. recv is false while the library does
	 * not take the connection's messages (the application paused it):
	 * messages waiting in the ring then neither make arm fail nor, arriving,
	 * need to wake the engine.
	 */
	int (*arm)(void *conn, bool recv);
	void (*disarm)(void *conn);
	/**
	 * End it: tell the peer (reason 0: an orderly close; -EPROTO: it broke
	 * the protocol; otherwise say nothing), stop watching descriptors and
	 * stop touching the peer's memory. The library unimported every remote
	 * consumer before.
	 */
	void (*close)(void *conn, int reason);
	/** Free it, once no producer or consumer of it exists. */
	void (*free)(void *conn);
};

/* ------------------------------------------------------------------ memory */

/** Memory ops; the thread that configures the mmap. */
struct rte_comch_drv_mmap_ops {
	/**
	 * Allocate len bytes the device can hand its peers, zeroed.
	 * *mem is the driver's handle of the allocation.
	 */
	int (*alloc)(void *dev, size_t len, void **addr, void **mem);
	void (*free)(void *dev, void *mem);
	/**
	 * Register [addr, addr + len) with permissions (RTE_COMCH_MMAP_PERM_*);
	 * mem: the allocation's handle if it came from this driver's alloc (on
	 * any of its devices), else NULL: the application's own memory, which a
	 * consumer may receive into all the same (a driver whose peer cannot
	 * reach it stages the data: shm).
	 */
	int (*reg)(void *dev, void *addr, size_t len, uint32_t perms, void *mem, void **reg);
	void (*dereg)(void *dev, void *reg);
};

/* ------------------------------------------------------------------ fast path */

/** A consumer's configuration, at its creation. */
struct rte_comch_drv_consumer_conf {
	uint32_t id;             /**< As the peer will know it: 1 or more, never 0. */
	void *reg;               /**< The registration of its mmap on this device. */
	void *mem_addr;          /**< Its mmap's memory. */
	size_t mem_len;
};

/** What a consumer start sets (they may change between starts). */
struct rte_comch_drv_consumer_start {
	uint32_t nb_posts;       /**< Buffers posted at once at most. */
	uint32_t imm_len;        /**< Immediate data it accepts. */
	struct rte_comch_pe *pe; /**< Its engine, for wake-up descriptors. */
};

/** What the library announces to the peer with a consumer's blob. */
struct rte_comch_drv_remote_conf {
	uint32_t nb_posts;
	uint32_t imm_len;
	uint64_t mem_len;
};

/** Consumer ops. */
struct rte_comch_drv_consumer_ops {
	/**
	 * Connection's engine lcore. -ENOTSUP if the driver cannot let the peer
	 * write into this memory, not even through a staging area of its own.
	 */
	int (*create)(void *conn, const struct rte_comch_drv_consumer_conf *conf, void **c);
	void (*destroy)(void *c);
	/**
	 * Connection's engine lcore, at each start: a fresh receive state, and
	 * the blob that lets the peer write into it (ownership of its
	 * descriptors passes to the caller). The library carries the blob to
	 * the peer's import, whose reply comes back to connect.
	 */
	int (*start)(void *c, const struct rte_comch_drv_consumer_start *st,
		     struct rte_comch_drv_blob *blob);
	/**
	 * Optional (NULL: a driver whose import replies nothing). Connection's
	 * engine lcore, once per start, when the peer's import answered with
	 * its reply blob (its descriptors are the driver's from the call on):
	 * finish the set-up the start began (a queue pair's second half, where
	 * to write posts). Called before the consumer counts as started, so
	 * before any post; the consumer's lcore sees what it did. -EPROTO if
	 * the reply is not what the start expects (the library drops the
	 * connection). A start whose reply never comes is given up by the
	 * library after a timeout; the driver is told nothing then but the
	 * next start or the destroy.
	 */
	int (*connect)(void *c, struct rte_comch_drv_blob *reply);
	/**
	 * Consumer's lcore: post n buffers, in order (addr NULL, len 0:
	 * immediate data only). A post is where a message lands and the room
	 * there, inside the consumer's mmap (checked): the library decides it
	 * (a post-recv task's buffer posts the tail of its data). The library
	 * never has more posted than the start's nb_posts. 0, or -errno
	 * (nothing posted).
	 */
	int (*post)(void *c, const struct rte_comch_fp_post *posts, unsigned int n);
	/**
	 * Consumer's lcore: up to max completions, in post order, with status 0
	 * and all 32 bytes of imm written; -EPROTO if the peer lied. cpl may be
	 * the application's array (the burst API): write nothing past max.
	 */
	int (*poll)(void *c, struct rte_comch_fp_cpl *cpl, unsigned int max);
	/**
	 * Consumer's lcore, once the consumer stops taking fills (the peer
	 * confirmed the expiry, the connection ended, or the library gave up
	 * waiting for the confirmation) and poll returned every filled one: up
	 * to max of the buffers still posted, in post order, as completions with
	 * their cookie and len 0 (the library sets their status). They are no
	 * longer posted, and go back to the application: as far as the
	 * transport allows, keep a peer that has not confirmed yet from writing
	 * into them from now on (skeleton: its producers see the state dead;
	 * shm: posts of no room). Poll may still return fills that completed
	 * before that.
	 */
	int (*flush)(void *c, struct rte_comch_fp_cpl *cpl, unsigned int max);
	/** Consumer's lcore: before sleeping with buffers posted; -EAGAIN if one is filled. */
	int (*arm)(void *c);
	void (*disarm)(void *c);
};

/** Producer and remote consumer ops. */
struct rte_comch_drv_producer_ops {
	/**
	 * Connection's engine lcore: map what the peer exported for one of its
	 * consumers. -EPROTO if the blob is not what conf says; -ENOSPC
	 * (mappings) or -EMFILE (descriptors) if it does not fit a budget (the
	 * connection's, its peer process's, the device's: the driver logs which;
	 * the library counts it in budget_refusals); -ENOMEM if out of memory.
	 * reply (empty on entry) is what the consumer's connect receives, for
	 * a set-up that needs a second half (a queue pair number, where the
	 * consumer writes its posts for our producers to read): filled only on
	 * success. This side's producers may send to the remote from the
	 * library's READY on, before the consumer side has applied the reply:
	 * a send finds no buffer posted until the consumer posts.
	 */
	int (*import)(void *conn, const struct rte_comch_drv_remote_conf *conf,
		      struct rte_comch_drv_blob *blob, struct rte_comch_drv_blob *reply,
		      void **remote);
	/**
	 * Connection's engine lcore: unmap it. The library calls it a grace
	 * period after the last send could start: no producer is in send or
	 * notify on this remote, nor will be again.
	 */
	void (*unimport)(void *conn, void *remote);
	/** Connection's engine lcore; NULL if a producer needs no state. id: 1 or more. */
	int (*create)(void *conn, uint32_t id, void **p);
	void (*destroy)(void *p);
	/**
	 * Producer's lcore, never concurrently with another send or notify on
	 * the same remote (the library serialises producers: one sends to a
	 * remote without a lock, several take its lock): place n messages, in order,
	 * each into the remote consumer's next posted buffer, as written by
	 * producer_id. p is what create made (NULL without create); src_reg is
	 * the registration, on this device, of the memory the data lies in
	 * (NULL if the application gave none). The library checked each
	 * immediate data length against what the consumer accepts.
	 * Returns how many were placed (from the first; fewer than n when no
	 * buffer is posted or the next is too short), or with none placed:
	 * -EAGAIN (no buffer posted), -EMSGSIZE (the first is longer than its
	 * buffer), -EPROTO (the peer corrupted what it shares: the library
	 * aborts the connection).
	 */
	int (*send)(void *p, void *remote, uint32_t producer_id, const void *src_reg,
		    const struct rte_comch_fp_msg *msgs, unsigned int n);
	/**
	 * Producer's lcore, once per round that sent, possibly while another
	 * producer sends to the same remote: wake the remote consumer if it
	 * sleeps. NULL if send does.
	 */
	void (*notify)(void *p, void *remote);
	/**
	 * Producer's lcore: sends finished since the last call, oldest first;
	 * status[i] is 0 or the -errno of a transfer that failed. NULL for a
	 * driver whose accepted sends are done when send returns.
	 */
	int (*completed)(void *p, int *status, unsigned int max);
};

/* ------------------------------------------------------------------ MsgQ */

/**
 * What a MsgQ's start tells the driver. A MsgQ links producers and consumers
 * of one process without a connection: one side runs on the CPU, the other on
 * an accelerator the driver runs (the DPA), in one direction per MsgQ.
 */
struct rte_comch_drv_msgq_conf {
	/**
	 * true: CPU producers send to accelerator consumers; false: accelerator
	 * producers send to CPU consumers.
	 */
	bool accel_consumer;
	/**
	 * The accelerator the application named (rte_comch_msgq_set_dpa_*()),
	 * opaque to the library: the driver resolves it, and refuses one that
	 * is not an accelerator of its device.
	 */
	struct rte_comch_accel *accel;
	uint32_t max_consumers;  /**< Consumers of the MsgQ at once (ids 1 to it). */
	uint32_t max_producers;  /**< Producers of the MsgQ at once (ids 1 to it). */
};

/**
 * MsgQ ops. While a MsgQ is started, the library calls the fast-path ops of
 * its producers and consumers as for a connection's, with the driver's MsgQ
 * (q) as their conn argument: consumer create, producer create, import and
 * unimport. The connection's engine lcore of those ops is, for a MsgQ, the
 * lcore that starts or stops the consumer (or creates the producer), one at a
 * time per MsgQ (under its lock). The destroy of a consumer or producer is
 * not serialised with them: it may run on another lcore at the same time,
 * and must touch nothing but the object destroyed (which no other op uses by
 * then). A consumer's start blob goes to the same MsgQ's import, in the same
 * process: the driver may put pointers in it. Which side of the MsgQ runs on
 * the accelerator is for the driver to serve: the library never calls send,
 * post or poll on those.
 */
struct rte_comch_drv_msgq_ops {
	/**
	 * Any thread, at the MsgQ's start. -EINVAL if conf.accel is not an
	 * accelerator of this device (logged).
	 */
	int (*create)(void *dev, const struct rte_comch_drv_msgq_conf *conf, void **q);
	/** At the MsgQ's stop, once it has no producer or consumer left. */
	void (*destroy)(void *q);
};

/* ------------------------------------------------------------------ registration */

/** Everything a driver supplies. Groups it does not support are NULL. */
struct rte_comch_drv_ops {
	const struct rte_comch_drv_dev_ops *dev;
	const struct rte_comch_drv_server_ops *server;
	const struct rte_comch_drv_client_ops *client;
	const struct rte_comch_drv_conn_ops *conn;
	const struct rte_comch_drv_mmap_ops *mmap;
	const struct rte_comch_drv_consumer_ops *consumer;
	const struct rte_comch_drv_producer_ops *producer;
	const struct rte_comch_drv_msgq_ops *msgq;
};

/** A driver, registered from a constructor with RTE_COMCH_REGISTER_DRIVER(). */
struct rte_comch_driver {
	TAILQ_ENTRY(rte_comch_driver) next; /**< The library's. */
	const char *name;               /**< Prefix in devargs, e.g. "shm". */
	const char * const *valid_keys; /**< NULL-terminated devargs keys. */
	/** Open a device from its devargs: fill conf. Returns 0 or -errno (logged). */
	int (*probe)(const struct rte_kvargs *kvlist, struct rte_comch_drv_dev_conf *conf);
	const struct rte_comch_drv_ops *ops;
	/**
	 * Optional (NULL: the driver cannot enumerate): the devices it could
	 * open on this machine, up to max of them in descs (devargs with the
	 * driver's prefix, and a description; the library fills driver).
	 * Returns how many there are (it may be more than max), or -errno.
	 * Any thread.
	 */
	int (*list)(struct rte_comch_dev_desc *descs, unsigned int max);
};

/** Register a driver (from a constructor). */
__rte_internal
void
rte_comch_drv_register(struct rte_comch_driver *drv);

#define RTE_COMCH_REGISTER_DRIVER(nm, drv) \
	RTE_INIT(comch_driver_init_ ## nm) { rte_comch_drv_register(&(drv)); }

/* ------------------------------------------------------------------ accessors */

/*
 * For a driver's own API (the DPA's configuration calls of MsgQ producers and
 * consumers): the driver's object behind a library object, if that object
 * belongs to a device of drv. Any thread; the object must exist.
 */

/** The driver's consumer of a consumer of one of drv's devices; else NULL (rte_errno EINVAL). */
__rte_internal
void *
rte_comch_drv_consumer_priv(const struct rte_comch_consumer *consumer,
			    const struct rte_comch_driver *drv);

/** The driver's producer of a producer of one of drv's devices; else NULL (rte_errno EINVAL). */
__rte_internal
void *
rte_comch_drv_producer_priv(const struct rte_comch_producer *producer,
			    const struct rte_comch_driver *drv);

/** The driver's registration of a started mmap on dev; NULL if none (rte_errno EINVAL). */
__rte_internal
void *
rte_comch_drv_mmap_reg(const struct rte_comch_mmap *mmap, const struct rte_comch_dev *dev);

/** The driver's device of a device of drv; else NULL (rte_errno EINVAL). */
__rte_internal
void *
rte_comch_drv_dev_priv(const struct rte_comch_dev *dev, const struct rte_comch_driver *drv);

/* ------------------------------------------------------------------ engine */

/**
 * A descriptor the engine watches on its slow tick (~100 us) and while it
 * sleeps. The engine calls handler on its lcore, inside progress, when it is
 * readable (events: EPOLLIN and friends). A handler does driver work only.
 */
struct rte_comch_drv_fd {
	int fd;
	void (*handler)(struct rte_comch_drv_fd *pfd, uint32_t events);
	void *arg;
};

/** Watch pfd (engine lcore). 0 or -errno. */
__rte_internal
int
rte_comch_drv_pe_fd_add(struct rte_comch_pe *pe, struct rte_comch_drv_fd *pfd);

/** Stop watching pfd (engine lcore). */
__rte_internal
void
rte_comch_drv_pe_fd_del(struct rte_comch_pe *pe, struct rte_comch_drv_fd *pfd);

/**
 * Watch a wake-up descriptor (a doorbell): it only wakes a sleeping engine;
 * its owner empties it on disarm. Any lcore.
 */
__rte_internal
int
rte_comch_drv_pe_wake_fd_add(struct rte_comch_pe *pe, int fd);

/** Stop watching a wake-up descriptor. Any lcore. */
__rte_internal
void
rte_comch_drv_pe_wake_fd_del(struct rte_comch_pe *pe, int fd);

/** Wake the engine if it sleeps. Any thread of the process. */
__rte_internal
void
rte_comch_drv_pe_wake(struct rte_comch_pe *pe);

#ifdef __cplusplus
}
#endif

#endif /* RTE_COMCH_DRIVER_H */
