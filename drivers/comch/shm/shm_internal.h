/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef SHM_INTERNAL_H
#define SHM_INTERNAL_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>
#include <sys/types.h>
#include <sys/un.h>
#include <unistd.h>

#include <pthread.h>

#include <rte_common.h>
#include <rte_log.h>

#include <rte_comch_driver.h>
#include <rte_comch_drv_atomic.h>

#include "shm_copy.h"
#include "shm_flush.h"

extern int shm_logtype;
#define SHM_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, shm_logtype, "COMCH_SHM: %s(): " fmt "\n", __func__, \
		##__VA_ARGS__)

/* Capabilities of the driver. */
#define SHM_MAX_NAME_LEN 128          /* server name, including the NUL */
#define SHM_MAX_MSG_SIZE (1u << 20)
#define SHM_MAX_RECV_QUEUE 4096
#define SHM_MAX_CLIENTS 512
#define SHM_MAX_SEND_TASKS 65536
#define SHM_MAX_REPS 64
#define SHM_NAME_MAX 25 /* domain, function and representor names, with the NUL */
#define SHM_MAX_FAST 256              /* producers, and consumers, per connection side */
#define SHM_MAX_FAST_TASKS 65536
#define SHM_MAX_BUF_SIZE (1ull << 30) /* fits a post ring slot's 32-bit data_len */
#define SHM_MAX_MMAP_BYTES (1ull << 40) /* a peer's consumer memory we agree to map */

/* What one connection may make us hold for its peer's consumers (devargs). */
#define SHM_DEFAULT_PEER_FDS 128
#define SHM_DEFAULT_PEER_MAP (64ull << 30)
/* Descriptors a peer's consumer may never take from the process: room for new clients. */
#define SHM_DEFAULT_FD_RESERVE 64
/*
 * Sends of this many bytes and more copy into the peer's buffer with
 * non-temporal stores, or with the faster of those and ordinary ones as
 * measured (devarg nt_min, 0: never; nt_auto). On x86, where measured: from
 * 1 KiB non-temporal copies doubled 4 KiB and 64 KiB streams when the CPUs
 * exchange lines slowly, and cost a third of them when they do fast. At 256 B
 * they halved a stream (doc/guides/comchdevs/shm.rst).
 */
#ifdef RTE_ARCH_X86
#define SHM_DEFAULT_NT_MIN 1024
#else
#define SHM_DEFAULT_NT_MIN 0
#endif
#define SHM_MAX_NT_MIN (1u << 30)
/*
 * Bytes of a consumer's bounce area (devarg bounce, 0: none): a ring of
 * SHM_FP_BOUNCE_MAX-byte chunks in its post ring, where the producer may
 * copy messages of up to that size instead of into the buffer, the consumer
 * copying them on (shm_copy.h picks which). Larger than what the consumer's
 * cache keeps of it by the time a chunk comes round again: at 4 KiB, 512 KiB
 * of it ran slower than the direct copy, 1 MiB about as fast, 2 and 4 MiB
 * 1.6 to 1.8 times as fast, beside the 2 MiB L2 of the x86 machine where it
 * was measured (shm guide). Memory is taken only as chunks are written: a
 * consumer of small messages uses none of it. None by default elsewhere,
 * where nothing measured it (and nt_auto, which picks, is off).
 */
#ifdef RTE_ARCH_X86
#define SHM_DEFAULT_BOUNCE (4u << 20)
#else
#define SHM_DEFAULT_BOUNCE 0
#endif
#define SHM_MAX_BOUNCE (256u << 20)
/*
 * Whether those sends pick, by measuring, non-temporal or ordinary copies
 * (devarg nt_auto; shm_copy.h): on x86, where the two differ.
 */
#ifdef RTE_ARCH_X86
#define SHM_DEFAULT_NT_AUTO 1
#else
#define SHM_DEFAULT_NT_AUTO 0
#endif
/*
 * What one peer process may make us hold over all its connections to a
 * device (devargs), and all peers together: a process opening many
 * connections gets no more than a few connections' worth.
 */
#define SHM_DEFAULT_PROC_CONNS 128
#define SHM_DEFAULT_PROC_FDS 1024
#define SHM_DEFAULT_PROC_MAP (256ull << 30)
#define SHM_DEFAULT_DEV_FDS 8192
#define SHM_DEFAULT_DEV_MAP (4ull << 40)

/* ------------------------------------------------------------------ peer processes */

/* One peer process, as the kernel names it (SO_PEERCRED), and what it holds here. */
struct shm_peer {
	LIST_ENTRY(shm_peer) next;
	pid_t pid;
	uint32_t nb_conns;    /* its connections to this device, handshakes included */
	uint32_t nb_fds;      /* descriptors we keep for its consumers */
	uint64_t bytes;       /* bytes of its consumers we map */
	uint32_t nb_refused;  /* connections refused: logged at 1, 2, 4, 8, ... */
};

/*
 * The peer processes of a device and their sum; connections on any lcore
 * share it, on the control path only. A mutex: ThreadSanitizer cannot see
 * what DPDK 22.11's rte_spinlock (inline assembly on x86) orders.
 */
struct shm_peers {
	pthread_mutex_t lock;
	LIST_HEAD(, shm_peer) list;
	uint32_t nb_fds;
	uint64_t bytes;
};

struct shm_dev {
	char dir[PATH_MAX];   /* <base>/<domain> */
	char fn[SHM_NAME_MAX]; /* host side: our function */
	bool efd_bells;       /* doorbell=eventfd: ours are eventfds, the peer's may be */
	uint32_t peer_fds;    /* descriptors a connection may hold for its peer */
	uint64_t peer_map;    /* bytes of a peer's memory a connection may map */
	uint32_t fd_reserve;  /* descriptors the peer's consumers leave free in the process */
	uint32_t nt_min;      /* devarg nt_min: sends this long copy non-temporally; 0 never */
	uint32_t nt_auto;     /* devarg nt_auto: 1, they measure which copy is faster */
	uint32_t bounce;      /* devarg bounce: bytes of each consumer's bounce area */
	uint32_t proc_conns;  /* connections one peer process may have to our servers */
	uint32_t proc_fds;    /* descriptors one peer process's consumers may make us keep */
	uint64_t proc_map;    /* bytes of one peer process's consumers we may map */
	uint32_t dev_fds;     /* the same, for all peers together */
	uint64_t dev_map;
	struct shm_peers peers;
	const char *reps[SHM_MAX_REPS]; /* probe's representor names, until the library copied them */
};

struct ucred;
/** Who is at the other end of a Unix socket, as the kernel says: 0, or -errno. */
int shm_peer_cred(int sock, struct ucred *cred);
/**
 * A connection of process pid: counted against it, refused with -EUSERS if
 * it has max_conns already (logged), or -ENOMEM. *peer for the calls below.
 */
int shm_peer_join(struct shm_dev *sd, pid_t pid, uint32_t max_conns, struct shm_peer **peer);
/** A connection of peer ended; what it held was refunded before. */
void shm_peer_leave(struct shm_dev *sd, struct shm_peer *peer);
/**
 * One descriptor and bytes of mapping for a consumer of peer, if within its
 * process's budgets and the device's: 0, -EMFILE or -ENOSPC (logged).
 */
int shm_peer_charge(struct shm_dev *sd, struct shm_peer *peer, uint64_t bytes);
void shm_peer_refund(struct shm_dev *sd, struct shm_peer *peer, uint64_t bytes);

/* ------------------------------------------------------------------ doorbells */

/* A doorbell: our end (we drain it) or the peer's (we ring it). */
struct shm_bell {
	int fd;
	bool efd;             /* an eventfd; else a Unix datagram socket */
};

/** A new doorbell: ours to watch and drain, and the fd to give the peer. */
int shm_bell_create(bool use_efd, struct shm_bell *ours, int *peers);
/** Take a doorbell the peer gave: -EPROTO unless of a kind we accept. */
int shm_bell_adopt(int fd, bool allow_efd, struct shm_bell *bell);
/** Ring, never blocking (an eventfd: unless the trusted peer made it block). */
void shm_bell_ring(const struct shm_bell *bell);
/** Consume wake-ups, never blocking. */
void shm_bell_drain(const struct shm_bell *bell);

/* ------------------------------------------------------------------ shared memory */

/**
 * A new memfd of len bytes with seals, mapped read-write: *fd and *addr, or
 * -errno (nothing left behind).
 */
int shm_memfd_new(const char *name, size_t len, unsigned int seals, int *fd, void **addr);
/**
 * Map a descriptor the peer gave: it must be a memfd sealed against resizing, of
 * exactly len bytes. NULL (logged, what names it) if not.
 */
void *shm_memfd_map_peer(int fd, size_t len, const char *what);

/* ------------------------------------------------------------------ wire */

#define SHM_MAGIC 0x48434d43u /* "CMCH" */
/*
 * 3: the library's control messages (CTL) instead of the driver's consumer
 * messages; 4: posts apart from fills; 5: a consumer's bounce area.
 */
#define SHM_PROTO_VERSION 5

enum shm_msg_type {
	SHM_MSG_HELLO = 1,   /* client -> server: name and limits */
	SHM_MSG_ACCEPT = 2,  /* server -> client: agreed limits + server's ring (2 fds) */
	SHM_MSG_READY = 3,   /* client -> server: client's ring (2 fds) */
	SHM_MSG_REJECT = 4,  /* server -> client: status says why */
	SHM_MSG_BYE = 5,     /* either way: orderly close, status says why */
	SHM_MSG_CTL = 6,     /* either way, once up: a library control message + blob */
};

#define SHM_CTL_MAX 64
#define SHM_BLOB_MAX 64
#define SHM_MAX_FDS 4

/* Every control message has this exact size; anything else is a protocol error. */
struct shm_msg {
	uint32_t magic;
	uint16_t version;
	uint16_t type;
	int32_t status;          /* positive errno for REJECT and BYE */
	uint32_t max_msg_size;   /* HELLO: required or 0; ACCEPT: agreed */
	uint32_t recv_queue_size; /* the sender's receive queue (its ring's capacity) */
	uint32_t ctl_len;        /* CTL: bytes of the library's message */
	uint32_t blob_len;       /* CTL: bytes of the blob's data */
	uint32_t reserved;
	union {
		char name[SHM_MAX_NAME_LEN]; /* HELLO: exact server name */
		struct {
			uint8_t msg[SHM_CTL_MAX];
			uint8_t blob[SHM_BLOB_MAX];
		} ctl;                       /* CTL */
	};
};

/* ------------------------------------------------------------------ ring */

#define SHM_RING_MAGIC 0x474e4952u /* "RING" */
#define SHM_LINE 128 /* two cache lines: no false sharing through adjacent prefetch */

/*
 * Shared layout: [hdr][sender's line][cons line][armed line][slots]. There is no
 * producer index: a message is published by the sequence number in its slot.
 */
struct shm_ring_hdr {
	uint32_t magic;
	uint32_t version;
	uint32_t capacity;
	uint32_t nb_slots;
	uint32_t slot_size;
	uint32_t max_msg;
	uint32_t flags;      /* SHM_RING_F_*, written by the receiver at create */
};

/*
 * The ring's receiver issues membarrier(GLOBAL_EXPEDITED) before it sleeps,
 * as a receiver or as a sender (shm_ring_pair_arm()): its peer skips the
 * fence of its doorbell checks if its own process is registered too
 * (shm_barrier.c). A peer that leaves the word at 0 gets the fence.
 */
#define SHM_RING_F_MEMBARRIER 0x1u

/*
 * Written by the sender only, and only when it arms or disarms: set while it
 * sleeps with messages in flight, so the receiver rings it when it takes them.
 */
#define SHM_RING_TX_ARMED_OFF SHM_LINE
#define SHM_RING_CONS_OFF (2 * SHM_LINE)
/* Its own line: the sender reads it once per round it sent in, the receiver writes it to sleep. */
#define SHM_RING_ARMED_OFF (3 * SHM_LINE)
#define SHM_RING_SLOTS_OFF (4 * SHM_LINE)
/* Slot: u32 length, u32 sequence number (the message's index + 1, stored last), data. */
#define SHM_SLOT_SEQ 4
#define SHM_SLOT_HDR 8

enum { SHM_ACK_NONE = 0, SHM_ACK_FRESH, SHM_ACK_DUE };

/* Our view of a ring; geometry is our own copy, never re-read from shared memory. */
struct shm_ring {
	uint8_t *base;
	size_t bytes;
	uint32_t capacity;   /* messages in flight at most */
	uint32_t mask;
	uint32_t slot_size;
	uint32_t max_msg;
	uint32_t *cons;      /* written by the receiver */
	uint32_t *armed;     /* written by the receiver: ring me when you write */
	uint32_t *tx_armed;  /* written by the sender: ring me when you take */
	uint32_t head;       /* sender: next to write; receiver: next to read */
	uint32_t seen;       /* sender: latest validated consumer index */
	uint32_t done;       /* sender: consumer index already reported as taken */
	uint32_t polled;     /* sender: head at the last poll */
	int memfd;           /* ours until sent to the peer, the peer's until mapped: then -1 */
	struct shm_bell bell; /* doorbell: receiver's end (ours) or sender's end (peer's) */
	int peer_bell;       /* our ring: the sending end, until given to the peer */
	/*
	 * Doorbell checks owed, done once per round rather than per message: the
	 * fence they need would otherwise cost a cache miss on every send.
	 */
	bool kick;           /* sender: wrote messages since the last check */
	/*
	 * Receiver: took messages since the last check. Fresh (1) in the round
	 * that took them, due (2) from the next: an answer sent meanwhile rings
	 * the peer anyway, and one ring tells it both.
	 */
	uint8_t ack_kick;
	/* Receiver: we said SHM_RING_F_MEMBARRIER. Sender: the peer did not (or we cannot). */
	bool membarrier;
	bool fence;
	/* Receiver: we flush 2-4 KiB messages at release (slots that size, shm_can_flush()). */
	bool flush;
	/* Sender: our messages of nt_min bytes and more take the way pick says (SIZE_MAX: none). */
	size_t nt_min;
	struct shm_copy_pick pick;
};

/*
 * Our messages into the peer's ring above SHM_FLUSH_MAX bytes (and from nt_min)
 * go through the copy pick (shm_copy.h), the ordinary copy first: its slots come
 * round again as fast-path buffers do, and meet the same two modes of the
 * machine. At and below SHM_FLUSH_MAX the receiver's flush at release serves.
 * nt_min 0: every copy ordinary.
 */
void shm_ring_set_copy(struct shm_ring *r, uint32_t nt_min, bool nt_auto);
int shm_ring_create(struct shm_ring *r, uint32_t capacity, uint32_t max_msg, bool efd_bell);
int shm_ring_attach(struct shm_ring *r, int memfd, int bell, uint32_t capacity, uint32_t max_msg,
		    bool allow_efd_bell);
void shm_ring_release(struct shm_ring *r);
/** Our ring was given to the peer: close the descriptors only it needed. */
void shm_ring_handed_over(struct shm_ring *r);
int shm_ring_send(struct shm_ring *r, const void *msg, uint32_t len);
int shm_ring_tx_reap(struct shm_ring *r, uint32_t *n);
/**
 * shm_ring_tx_reap() at a poll: a stream's polls read the peer's index only
 * now and then, unless all (the peer ended: everything it took counts now).
 */
int shm_ring_tx_poll(struct shm_ring *r, bool all, uint32_t *n);
/** Ring the peer if it sleeps and we wrote to it (tx) or took from it (rx) since the last call. */
void shm_ring_pair_kick(struct shm_ring *rx, struct shm_ring *tx);
/**
 * Arm our wake-ups: for messages on rx (if recv), and for tx's messages being
 * taken. -EAGAIN if due.
 */
int shm_ring_pair_arm(struct shm_ring *rx, struct shm_ring *tx, bool recv);
void shm_ring_pair_disarm(struct shm_ring *rx, struct shm_ring *tx);
bool shm_ring_rx_pending(const struct shm_ring *r);
/** Up to max messages waiting, left in place (head does not move); -EPROTO if one is bad. */
int shm_ring_rx_peek(const struct shm_ring *r, struct rte_comch_drv_msg *msgs, unsigned int max);
/** The n oldest peeked messages are taken: tell the sender. */
void shm_ring_rx_release(struct shm_ring *r, unsigned int n);

/* ------------------------------------------------------------------ sockets */

int shm_path(char *buf, size_t size, const char *dir, const char *fn, const char *name,
	     const char *suffix);
/** Make or check a directory of ours, mode 0700: 0, or -EPERM (logged, with fix: advice). */
int shm_mkdir_private(const char *path, const char *fix);
int shm_msg_send(int fd, const struct shm_msg *m, const int *fds, unsigned int nb_fds);
/*
 * One sendmsg() of len bytes with nb_fds descriptors (SCM_RIGHTS), without
 * blocking: bytes sent or -errno. Up to SHM_SEND_MAX_FDS, more than a
 * message may carry, so that tests can play a peer that sends too many.
 */
#define SHM_SEND_MAX_FDS 8
ssize_t shm_sendmsg_fds(int fd, const void *buf, size_t len, const int *fds,
			unsigned int nb_fds);
int shm_msg_recv(int fd, struct shm_msg *m, int *fds, unsigned int max_fds,
		 unsigned int *nb_fds);
void shm_msg_init(struct shm_msg *m, enum shm_msg_type type);
void shm_close_fds(int *fds, unsigned int n);

/* ------------------------------------------------------------------ fast path */

#define SHM_FP_MAGIC 0x50545346u /* "FSTP" */
#define SHM_FP_POSTED_OFF SHM_LINE
/* Written by the consumer while it sleeps: producers ring its doorbell after filling. */
#define SHM_FP_ARMED_OFF (2 * SHM_LINE)
#define SHM_FP_POSTS_OFF (3 * SHM_LINE)

struct shm_fp_hdr {
	uint32_t magic;
	uint32_t version;
	uint32_t nb_slots;
	uint32_t imm_len;
	uint32_t flags;       /* SHM_FP_F_* */
};

/* The consumer issues membarrier(GLOBAL_EXPEDITED) before it sleeps (shm_barrier.c). */
#define SHM_FP_F_MEMBARRIER 0x1u

/*
 * shm_barrier.c: whether this process is covered by consumers' membarriers
 * (registered once, on first use); a consumer's barrier before it sleeps
 * (0, or -EAGAIN: keep polling).
 */
bool shm_barrier_asymmetric(void);
int shm_barrier_consumer(void);

/*
 * A posted buffer, written by the consumer only: where in its memory, how
 * long. Apart from the slots, so that posting writes no line the producer
 * fills; one per line pair, so that re-posting buffer i (which a ping-pong
 * does just before the peer sends into buffer i + 1) leaves the line of post
 * i + 1 alone: four to a line cost a round trip 30-40 ns.
 */
struct shm_fp_post {
	uint64_t off;
	uint64_t len;
} __rte_aligned(SHM_LINE);

/* Messages up to this size travel in the slot itself, not in the buffer. */
#define SHM_FP_INLINE_MAX 80
/* Messages up to this size may travel through the consumer's bounce area. */
#define SHM_FP_BOUNCE_MAX 4096u
/* A slot's flags: the message is in the bounce chunk of its fill, not in the buffer. */
#define SHM_FP_SLOT_BOUNCED 0x1u

/*
 * A fill, written by the producer only. It publishes it by storing seq last:
 * the slot's index + 1. The consumer waits on the seq of the one slot it
 * expects next, a line it must read anyway, so no shared "taken" index
 * bounces between the cores.
 *
 * A message of at most SHM_FP_INLINE_MAX bytes goes in the slot, after the
 * immediate data: the slot is two cache lines, which the CPU fetches together
 * (adjacent-line prefetch), and the consumer copies the data into its buffer:
 * one line pair crosses the cores instead of the slot and the buffer one after
 * the other.
 */
struct shm_fp_slot {
	uint32_t seq;         /* last: index of the fill + 1 */
	uint32_t data_len;    /* bytes written (a buffer holds at most 1 GiB) */
	uint16_t imm_len;
	uint16_t producer_id;
	uint32_t flags;       /* SHM_FP_SLOT_* */
	uint8_t imm[32];
	uint8_t inline_data[SHM_FP_INLINE_MAX]; /* data_len <= SHM_FP_INLINE_MAX */
} __rte_aligned(SHM_LINE);

/* Where the slots start in a post ring of nb_slots (a power of 2). */
static inline size_t
shm_fp_slots_off(uint32_t nb_slots)
{
	return RTE_ALIGN_CEIL(SHM_FP_POSTS_OFF + (size_t)nb_slots * sizeof(struct shm_fp_post),
			      (size_t)SHM_LINE);
}

/* Where the bounce area starts in a post ring of nb_slots: after the slots, on a page. */
static inline size_t
shm_fp_bounce_off(uint32_t nb_slots)
{
	return RTE_ALIGN_CEIL(shm_fp_slots_off(nb_slots) +
			      (size_t)nb_slots * sizeof(struct shm_fp_slot),
			      (size_t)sysconf(_SC_PAGESIZE));
}

/*
 * Bytes of a post ring of nb_slots with nb_chunks bounce chunks: header,
 * indices, posts, slots, bounce area; whole pages.
 */
static inline size_t
shm_fp_ring_bytes(uint32_t nb_slots, uint32_t nb_chunks)
{
	return shm_fp_bounce_off(nb_slots) + (size_t)nb_chunks * SHM_FP_BOUNCE_MAX;
}

/*
 * Bounce chunks of a post ring of nb_slots, for a bounce area of at least
 * bytes: none, or a power of 2 and at least one per slot. A producer fills
 * the chunk of its fill index, fill f in chunk f % nb_chunks (shm_fp_chunk()):
 * it fills f only once the consumer posted f, and the library never lets a
 * consumer have more than nb_slots posts outstanding, so the consumer had
 * taken fill f - nb_slots and every fill before, and copied them out of their
 * chunks.
 */
static inline uint32_t
shm_fp_bounce_chunks(uint32_t nb_slots, uint32_t bytes)
{
	if (bytes == 0)
		return 0;
	return RTE_MAX(nb_slots, rte_align32pow2((uint32_t)(((uint64_t)bytes +
							     SHM_FP_BOUNCE_MAX - 1) /
							    SHM_FP_BOUNCE_MAX)));
}

/* The chunk of fill f in a bounce area of bounce_mask + 1 chunks. */
static inline uint8_t *
shm_fp_chunk(const uint8_t *bounce, uint32_t bounce_mask, uint32_t f)
{
	return (uint8_t *)(uintptr_t)bounce + (size_t)(f & bounce_mask) * SHM_FP_BOUNCE_MAX;
}

/* Whether a peer's consumer's nb_chunks is one shm_fp_bounce_chunks() can give. */
static inline bool
shm_fp_bounce_chunks_ok(uint32_t nb_slots, uint32_t nb_chunks)
{
	return nb_chunks == 0 ||
	       (rte_is_power_of_2(nb_chunks) && nb_chunks >= nb_slots &&
		nb_chunks <= RTE_MAX(nb_slots, SHM_MAX_BOUNCE / SHM_FP_BOUNCE_MAX));
}

/* Memory of an mmap, as the driver registered it. */
struct shm_reg {
	int memfd;            /* the memfd behind it, or -1: memory a peer cannot map */
	uint8_t *addr;
	size_t len;
};

/* An mmap's allocation: a memfd the peer can map. */
struct shm_alloc {
	int memfd;
	void *addr;
	size_t len;
};

/* Our copy of a posted buffer. */
struct shm_posted {
	uint8_t *addr;
	uint64_t len;
	uint64_t cookie;
	/* Staged consumer: where the peer writes it, in our staging area (else NULL). */
	const uint8_t *stage;
	uint32_t filled;      /* data the peer wrote there (not inline), once delivered */
};

/*
 * How much of the buffer old held to flush from our cache, as post p takes
 * its place: what the peer wrote there, if p posts the same buffer again (the
 * program is done with it) and that is SHM_FLUSH_MIN to SHM_FLUSH_MAX bytes;
 * else 0.
 */
static inline uint32_t
shm_flush_len(const struct shm_posted *old, const struct rte_comch_fp_post *p)
{
	if (old->addr == NULL || old->addr != p->addr || !shm_flush_size_ok(old->filled))
		return 0;
	return old->filled;
}

/* One of our consumers: its post ring, and our copies of what we posted. */
struct shm_consumer {
	struct shm_conn *sc;
	uint32_t id;
	const struct shm_reg *reg;
	struct shm_bell bell; /* our end of the doorbell, in bell_pe's epoll set */
	struct rte_comch_pe *bell_pe;
	uint32_t *armed_p;
	uint8_t *base;
	size_t bytes;
	struct shm_fp_post *posts;
	struct shm_fp_slot *slots;
	uint32_t *posted_p;
	uint32_t mask, posted, done, imm_len;
	bool membarrier;      /* we barrier for our producers before sleeping */
	bool flush;           /* we flush 2-4 KiB messages at repost (shm_can_flush()) */
	struct shm_posted *posted_buf; /* by slot: what we posted, never re-read from the ring */
	/*
	 * Memory the peer cannot map (reg->memfd < 0): the peer writes into this
	 * staging area instead, a memfd of this start as large as the mmap, at the
	 * same offsets, and poll copies each message to the application's buffer.
	 */
	uint8_t *stage;
	const uint8_t *bounce; /* the bounce area in our post ring, or NULL: none */
	uint32_t bounce_mask;  /* its chunks - 1 */
};

/* A consumer of the peer, as our producers see it (the library holds its lock). */
struct shm_remote {
	uint8_t *mem;
	size_t mem_len;
	uint8_t *ring;
	size_t ring_bytes;
	const struct shm_fp_post *posts;
	struct shm_fp_slot *slots;
	uint32_t *posted_p, *armed_p;
	struct shm_bell bell; /* the consumer's doorbell: rung when it sleeps */
	uint32_t mask, nb_slots, taken;
	uint32_t posted;      /* last posted index read (and checked): re-read only when used up */
	/*
	 * The most buffers found posted ahead at a re-read. Fewer than that at
	 * the last one: the consumer lags, a stream (see shm_producer_send_one()).
	 */
	uint32_t most_ahead;
	bool stream;
	bool fence;           /* fence before looking at armed: the consumer will not */
	size_t nt_min;        /* copy non-temporally from this many bytes (SIZE_MAX: never) */
	struct shm_copy_pick pick; /* which copy messages over SHM_FP_BOUNCE_MAX take */
	/* The consumer's bounce area (or NULL), and how messages that fit a chunk go. */
	uint8_t *bounce;
	uint32_t bounce_mask;
	struct shm_copy_pick pick_bounce;
};

extern const struct rte_comch_drv_consumer_ops shm_consumer_ops;
extern const struct rte_comch_drv_producer_ops shm_producer_ops;
extern const struct rte_comch_drv_mmap_ops shm_mmap_ops;

/* ------------------------------------------------------------------ connections */

enum shm_conn_state {
	SHM_CONN_WAIT_HELLO,   /* server: accepted, no HELLO yet */
	SHM_CONN_WAIT_ANSWER,  /* server: HELLO offered to the library */
	SHM_CONN_WAIT_READY,   /* server: ACCEPT sent */
	SHM_CONN_WAIT_ACCEPT,  /* client: HELLO sent */
	SHM_CONN_UP,
	SHM_CONN_DOWN,         /* peer gone or misbehaved: socket and peer memory unused */
};

/* Control messages received and not yet taken by the library. */
#define SHM_CTL_QUEUE 8

struct shm_server;

struct shm_conn {
	struct rte_comch_drv_fd sock;
	struct rte_comch_drv_fd bell;  /* our receive ring's doorbell */
	struct rte_comch_pe *pe;
	struct shm_dev *sd;
	struct shm_peer *peer;         /* its process, until freed; NULL if over_budget */
	enum shm_conn_state state;
	uint32_t peer_queue;           /* capacity of the peer's receive ring */
	uint32_t max_msg;
	uint64_t deadline;             /* TSC: handshake must end by then */
	struct shm_ring rx;            /* ours: the peer writes, we read */
	struct shm_ring tx;            /* the peer's: we write */
	/* Handshake, server side. */
	struct shm_server *srv;
	/*
	 * Its process has its budget of connections: refused (REJECT) at its
	 * HELLO, read first so that our close does not reset the socket under
	 * the REJECT, or when its time is up.
	 */
	bool over_budget;
	LIST_ENTRY(shm_conn) next;     /* in the server's handshakes */
	TAILQ_ENTRY(shm_conn) ev_next; /* in the server's events, while one is due */
	enum rte_comch_drv_srv_event_type ev;
	int ev_status;
	struct rte_comch_drv_offer offer;
	/* Handshake, client side: -EINPROGRESS, 0 up, or why it failed. */
	int hs_result;
	uint32_t want_msg;             /* client: the max message size required, or 0 */
	uint32_t recv_queue;           /* our receive queue */
	/* Once up: control messages received, then the end (0 while none). */
	struct rte_comch_drv_ctl ctlq[SHM_CTL_QUEUE];
	uint32_t ctl_head, ctl_tail;
	int end;
	/* What the peer's consumers hold in this process (the budget). */
	uint32_t nb_peer_fds;
	uint64_t peer_bytes;
};

/** A connection on sock, of the peer process peer (whose count it takes over; or NULL). */
struct shm_conn *shm_conn_new(struct shm_dev *sd, struct rte_comch_pe *pe, int sock,
			      struct shm_peer *peer);
void shm_conn_free(struct shm_conn *sc);
/** Release everything that touches the peer: fds, rings. */
void shm_conn_release(struct shm_conn *sc);
int shm_conn_up(struct shm_conn *sc);
int shm_conn_create_rx(struct shm_conn *sc, uint32_t capacity);
int shm_conn_attach_tx(struct shm_conn *sc, int *fds, unsigned int nb_fds);
int shm_conn_send_msg(struct shm_conn *sc, enum shm_msg_type type, int status);

/* ------------------------------------------------------------------ descriptors */

/**
 * The driver keeps n more descriptors open (n < 0: it closed -n of them).
 * Every descriptor it keeps beyond a call is counted: shm_fds_free() relies
 * on it between its scans of the process's descriptors.
 */
void shm_fds_keep(int n);
/** Descriptors the process may still open, or a large number if it cannot tell. */
unsigned int shm_fds_free(void);

/* The handshake steps, by side; the socket handler calls them. */
void shm_server_on_msg(struct shm_conn *sc, int rc, const struct shm_msg *m, int *fds,
		       unsigned int nb_fds);
void shm_client_on_msg(struct shm_conn *sc, int rc, const struct shm_msg *m, int *fds,
		       unsigned int nb_fds);

extern const struct rte_comch_drv_server_ops shm_server_ops;
extern const struct rte_comch_drv_client_ops shm_client_ops;
extern const struct rte_comch_drv_conn_ops shm_conn_ops;

#endif /* SHM_INTERNAL_H */
