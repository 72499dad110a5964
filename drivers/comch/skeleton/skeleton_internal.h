/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef SKELETON_INTERNAL_H
#define SKELETON_INTERNAL_H

/*
 * The skeleton driver: both sides of the channel in one process, connected in
 * memory. It is the template for driver writers (read it with the "Writing a
 * comch driver" chapter) and the second driver of the conformance suite, which
 * runs every library-behaviour test against each driver.
 *
 * Because both sides share an address space, a blob may carry a pointer; a
 * driver whose peer is another process or machine sends offsets, descriptors
 * or keys instead, and checks every one it receives.
 */

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>

#include <rte_common.h>
#include <rte_log.h>
#include <rte_ring.h>
#include <rte_ring_peek_zc.h>
#include <rte_spinlock.h>

#include <rte_comch_driver.h>
#include <rte_comch_drv_atomic.h>

extern int skel_logtype;
#define SKEL_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, skel_logtype, "COMCH_SKELETON: %s(): " fmt "\n", __func__, \
		##__VA_ARGS__)

#define SKEL_NAME_MAX 24      /* domain, function and representor names */
#define SKEL_MAX_REPS 16
/*
 * Limits: what the conformance suite expects of every driver that can; an
 * in-memory transport has no reason for smaller ones.
 */
#define SKEL_MAX_NAME_LEN 128 /* server names, with the NUL */
#define SKEL_MAX_MSG_SIZE (1u << 20)
#define SKEL_MAX_QUEUE 4096
#define SKEL_MAX_CLIENTS 512
#define SKEL_MAX_TASKS 65536
#define SKEL_MAX_FAST 256

/* An open device: which emulated BlueField (domain), and which side of it. */
struct skel_dev {
	char domain[SKEL_NAME_MAX];
	char fn[SKEL_NAME_MAX];      /* host side: the function it is */
	const char *reps[SKEL_MAX_REPS];
	bool dpu;
	TAILQ_ENTRY(skel_dev) next;  /* in the devices open in this process (listing) */
};

/* A ring of heap-allocated things; the library's memory rules do not apply in-process. */
struct rte_ring *skel_ring_new(unsigned int count, unsigned int esize, unsigned int flags);

/* A wake-up descriptor (eventfd) and whether its owner sleeps. */
struct skel_bell {
	int fd;
	uint32_t armed;              /* atomic: set while the owner's engine sleeps */
};

int skel_bell_init(struct skel_bell *b);
void skel_bell_fini(struct skel_bell *b);
/** Ring the bell if its owner sleeps: after a full fence (pairs with arm). */
void skel_bell_ring(struct skel_bell *b);
void skel_bell_drain(struct skel_bell *b);

/* ------------------------------------------------------------------ connections */

/* A user message, copied into the heap: the receiver frees it on release. */
struct skel_msg {
	uint32_t len;
	uint8_t data[];
};

/* A library control message and its blob, copied likewise. */
struct skel_ctl {
	uint32_t len;
	uint8_t msg[RTE_COMCH_DRV_CTL_MAX];
	struct rte_comch_drv_blob blob;
};

/* One direction of a connection, owned by its receiver. */
struct skel_dir {
	struct rte_ring *msgs;       /* struct skel_msg *, SP/SC: peek and release */
	struct rte_ring *ctls;       /* struct skel_ctl *, MP/SC */
	uint32_t taken;              /* atomic: messages the receiver released */
	int end;                     /* atomic: 0, or why the sender ended it */
};

struct skel_link;

/* One side of a connection. */
struct skel_conn {
	struct skel_link *link;
	struct skel_dir *rx;         /* what we receive: ours */
	struct skel_dir *tx;         /* what we send: the peer's rx */
	struct skel_conn *peer;
	struct skel_bell bell;       /* rung by the peer when it sends, takes or ends */
	struct rte_comch_pe *pe;
	uint32_t max_msg;
	uint32_t seen_taken;         /* of tx->taken, what poll reported already */
	struct rte_ring_zc_data zcd; /* what the last poll started to dequeue */
	bool wrote;                  /* sent or took messages this round: the peer may sleep */
	bool closed;
	/* Handshake, server side. */
	TAILQ_ENTRY(skel_conn) next; /* in the server's incoming */
	struct rte_comch_drv_offer offer;
	int hs_status;               /* client: -EINPROGRESS, 0 up, -errno refused */
	struct rte_comch_drv_conn_params params;
};

/* Both sides, freed when both let go. */
struct skel_link {
	struct skel_dir dir[2];      /* [0]: towards the server, [1]: towards the client */
	struct skel_conn side[2];    /* [0]: the server's, [1]: the client's */
	uint32_t refs;
};

struct skel_conn *skel_link_new(uint32_t server_queue, uint32_t client_queue);
void skel_conn_put(struct skel_conn *c);

/** Drop the consumer reference a blob carries (skeleton_fast.c). */
void skel_blob_discard(void *conn, struct rte_comch_drv_blob *blob);

extern const struct rte_comch_drv_server_ops skel_server_ops;
extern const struct rte_comch_drv_client_ops skel_client_ops;
extern const struct rte_comch_drv_conn_ops skel_conn_ops;

/* ------------------------------------------------------------------ fast path */

/*
 * One of our consumers, as the peer's producers write into it. Shared between
 * the two sides: freed when both let go (the peer may still hold it a while
 * after we destroyed ours), and dead once ours is destroyed.
 */
struct skel_consumer {
	rte_spinlock_t lock;         /* producers of the peer against our destroy */
	bool dead;
	uint32_t refs;               /* ours + the peer's import */
	uint32_t id;
	uint32_t imm_len;
	uint32_t nb_posts;
	/* struct rte_comch_fp_post: SP (us), SC (the peer, locked); made by the import */
	struct rte_ring *posts;
	struct rte_ring *cpls;       /* struct rte_comch_fp_cpl: SP (the peer), SC (us) */
	struct skel_bell bell;
	struct rte_comch_pe *pe;
};

extern const struct rte_comch_drv_consumer_ops skel_consumer_ops;
extern const struct rte_comch_drv_producer_ops skel_producer_ops;
extern const struct rte_comch_drv_mmap_ops skel_mmap_ops;

#endif /* SKELETON_INTERNAL_H */
