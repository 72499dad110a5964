/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef COMCH_EP_PRIVATE_H
#define COMCH_EP_PRIVATE_H

/*
 * Endpoints (rte_comch_ep.h): internals shared by the comch_ep*.c files of
 * librte_comch_ep. They use only the public API of librte_comch, and the
 * registry of live objects of lib/common, of which this library has its own.
 */

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>

#include <rte_common.h>
#include <rte_log.h>

#include <rte_comch_ctrl.h>
#include <rte_comch_pe.h>
#include <rte_comch_ep.h>

#include "comch_args.h"
#include "comch_objreg.h"

extern int comch_ep_logtype;
/* The "COMCH: " prefix of the lines the endpoints logged inside librte_comch. */
#define COMCH_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, comch_ep_logtype, "COMCH: %s(): " fmt "\n", __func__, \
		##__VA_ARGS__)
/** True, after a log line naming it, if one of the (pointer) arguments is NULL. */
#define COMCH_NULL_ARG(...) COMCH_NULL_ARG_LOG(comch_ep_logtype, __VA_ARGS__)

#define COMCH_EP_MAGIC 0x45506570u      /* "EPep" */
#define COMCH_EP_PEER_MAGIC 0x50656572u /* "Peer" */

/** A message received, waiting for recvfrom. */
struct comch_ep_msg {
	TAILQ_ENTRY(comch_ep_msg) next;
	struct rte_comch_ep_peer *peer;
	uint32_t len;
	uint8_t data[];
};
TAILQ_HEAD(comch_ep_msg_list, comch_ep_msg);

/**
 * A message sent, in flight: whom to count it for when it is taken. Its bytes
 * are not kept: the submit copied them.
 */
struct comch_ep_sendbuf {
	struct rte_comch_ep_peer *peer;
	uint32_t len;
};

/**
 * A peer address. Freed when nothing refers to it any more: the application
 * (until disconnect), its connection (until it ends), its messages in flight.
 */
struct rte_comch_ep_peer {
	uint32_t magic;
	struct comch_objreg_entry reg; /**< In the registry until released. */
	TAILQ_ENTRY(rte_comch_ep_peer) next;
	struct rte_comch_ep *ep;
	struct rte_comch_connection *conn; /**< NULL before (host side) or after it. */
	bool connecting;   /**< Host side: the client is STARTING. */
	bool released;     /**< The application disconnected it. */
	/**
	 * Server side: the application may hold it (a message from it was
	 * queued, or it was in a service state snapshot). One never seen is
	 * released by the endpoint when its connection ends.
	 */
	bool seen;
	int status;        /**< Why the connection ended (negative), 0 while fine. */
	uint32_t inflight; /**< Sent messages not completed yet. */
	uint64_t user_data;
	struct rte_comch_ep_peer_stats cnt;  /**< Live counters. */
	struct rte_comch_ep_peer_stats snap; /**< Those of the last update_info. */
};
TAILQ_HEAD(comch_ep_peer_list, rte_comch_ep_peer);

struct rte_comch_ep {
	uint32_t magic;
	struct comch_objreg_entry reg; /**< In the registry of live objects. */
	/** The thread inside a call on it (comch_ep_enter()), or 0. */
	_Atomic uintptr_t user;
	struct rte_comch_pe *pe;
	struct rte_comch_dev *dev;
	struct rte_comch_dev_rep *rep;
	uint32_t max_msg_size;    /**< 0: not set. */
	uint32_t send_queue_size; /**< 0: not set. */
	uint32_t recv_queue_size; /**< 0: not set. */
	struct rte_comch_server *server;  /**< After listen. */
	struct rte_comch_client *client;  /**< After connect. */
	struct rte_comch_ep_peer *cpeer;  /**< The client's peer, until released. */
	struct comch_ep_peer_list peers;  /**< Every peer not freed yet. */
	struct comch_ep_msg_list rxq;     /**< Messages for recvfrom (comch_ep_rxq.c). */
	uint32_t rxq_nb;          /**< Messages in rxq. */
	uint32_t rxq_cap;         /**< Most messages in rxq: the receive queue size. */
	bool rxq_paused;          /**< rxq is full: its connections are paused. */
	/**
	 * A recvfrom waiting on an empty rxq: the receive callback copies the
	 * first message straight into its buffer (comch_ep_rxq.c).
	 */
	struct comch_ep_direct {
		bool armed;                        /**< Waiting for a message. */
		bool done;                         /**< A message is in buf. */
		void *buf;
		size_t cap;                        /**< buf's size. */
		uint32_t len;                      /**< The message's length. */
		struct rte_comch_ep_peer *peer;    /**< Whose it is. */
		/**
		 * Its connection paused after the message, so that the rest waits in
		 * its ring: resumed before recvfrom returns (through the peer, which
		 * outlives the call: the connection may end meanwhile).
		 */
		bool paused;
	} direct;
	uint32_t inflight;        /**< Messages in flight, over all peers. */
	uint64_t rx_dropped;      /**< Messages lost: no memory for their copy. */
	bool send_blocked;        /**< A connection's window was full at the last sendto. */
	bool send_armed;          /**< Write send_fd when room appears. */
	bool pe_armed;            /**< Engine notifications armed: clear before progress. */
	int send_fd;
	int block_epfd;           /**< epoll of send_fd and recv_fd (blocking sends); -1 before. */
	int svc_fd;               /**< Service events (listening endpoints); -1 before. */
	struct rte_comch_ep_peer **svc_peers; /**< Snapshot of the connected peers. */
	uint32_t svc_nb;
	uint32_t svc_cap;
};

/**
 * True, after a log line, if ep is not a live endpoint (its user is checked
 * apart, comch_ep_enter()); registry: ask the registry of live objects (destroy, configuration
 * calls) rather than read the magic word (per-message calls), as for the
 * library's objects (comch_private.h).
 */
bool comch_ep_bad(const struct rte_comch_ep *ep, const char *func, bool registry);
/** True, after a log line, if peer is not a live (not released) peer address. */
bool comch_ep_peer_bad(const struct rte_comch_ep_peer *peer, const char *func, bool registry);
#define COMCH_EP_BAD(ep) comch_ep_bad((ep), __func__, true)
#define COMCH_EP_BAD_FAST(ep) comch_ep_bad((ep), __func__, false)
#define COMCH_EP_PEER_BAD(p) comch_ep_peer_bad((p), __func__, true)
#define COMCH_EP_PEER_BAD_FAST(p) comch_ep_peer_bad((p), __func__, false)

/**
 * Take the endpoint for the calling thread, for one call (any thread, one at a
 * time, as the program's own lock serialises them): 0, or -EBUSY after a log
 * line naming func while another thread is inside a call on it.
 */
int comch_ep_enter(struct rte_comch_ep *ep, const char *func);
/** Give it back, at the end of the call. */
void comch_ep_leave(struct rte_comch_ep *ep);
/** rte_comch_ep_event_handle_arm_send() for a caller that holds the endpoint. */
int comch_ep_arm_send(struct rte_comch_ep *ep);
/** One round of progress (disarming the engine first if armed); 1, 0 or negative. */
int comch_ep_progress(struct rte_comch_ep *ep);
/** The effective sizes, applying defaults and the device's limits. */
uint32_t comch_ep_send_queue_size(const struct rte_comch_ep *ep);
uint32_t comch_ep_recv_queue_size(const struct rte_comch_ep *ep);
/** Check the sizes set against the device's limits; 0 or negative, logged. */
int comch_ep_check_limits(const struct rte_comch_ep *ep);

/** A new peer on ep, connection conn (may be NULL); NULL if out of memory. */
struct rte_comch_ep_peer *comch_ep_peer_new(struct rte_comch_ep *ep,
					    struct rte_comch_connection *conn);
/** peer's connection is conn from now on (it is established). */
void comch_ep_peer_attach(struct rte_comch_ep_peer *peer, struct rte_comch_connection *conn);
/** Free peer if nothing refers to it any more. */
void comch_ep_peer_put(struct rte_comch_ep_peer *peer);
/** The application let go of peer (or never saw it): out of the registry, freed once unused. */
void comch_ep_peer_release(struct rte_comch_ep_peer *peer);
/** Free a released peer nothing refers to (its memory to the quarantine). */
void comch_ep_peer_free(struct rte_comch_ep_peer *peer);
/** Its connection is over (status: why, negative). */
void comch_ep_peer_conn_gone(struct rte_comch_ep_peer *peer, int status);
/* The receive queue (comch_ep_rxq.c): at most rxq_cap messages, then the connections wait. */
void comch_ep_rxq_init(struct rte_comch_ep *ep);
/** Queue m (the receive callback); pause the connections if the queue is now full. */
void comch_ep_rxq_push(struct rte_comch_ep *ep, struct comch_ep_msg *m);
/** The oldest message, dequeued (NULL if none); resume the connections if room is back. */
struct comch_ep_msg *comch_ep_rxq_pop(struct rte_comch_ep *ep);
/** A connection of ep starts delivering: paused at once if the queue is full. */
void comch_ep_rxq_conn_added(struct rte_comch_ep *ep, struct rte_comch_connection *conn);
/** Drop the messages queued from peer (every message if NULL). */
void comch_ep_rxq_purge(struct rte_comch_ep *ep, struct rte_comch_ep_peer *peer);
/** Let the next message go straight into buf, if the queue is empty (recvfrom). */
void comch_ep_direct_arm(struct rte_comch_ep *ep, void *buf, size_t cap);
/** The receive callback: true if the message went straight to recvfrom's buffer. */
bool comch_ep_direct_take(struct rte_comch_ep *ep, struct rte_comch_ep_peer *peer,
			  struct rte_comch_connection *conn, const uint8_t *msg, uint32_t len);
/** After recvfrom's progress: disarm, resume what was paused; true if a message came. */
bool comch_ep_direct_end(struct rte_comch_ep *ep, size_t *len,
			 struct rte_comch_ep_peer **peer);

/** A service event happened: make svc_fd readable. */
void comch_ep_service_event(struct rte_comch_ep *ep);

/** Send room appeared: write send_fd if armed. */
void comch_ep_send_room(struct rte_comch_ep *ep);

/* Callbacks given to servers and clients (comch_ep_msg.c, comch_ep_conn.c). */
void comch_ep_send_done_cb(struct rte_comch_task_send *task, union rte_comch_data task_ud,
			   union rte_comch_data ctx_ud);
void comch_ep_recv_cb(struct rte_comch_connection *conn, const uint8_t *msg, uint32_t len);

#endif /* COMCH_EP_PRIVATE_H */
