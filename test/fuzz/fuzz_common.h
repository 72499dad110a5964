/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

/*
 * What the libFuzzer targets share: EAL and the stage of the hostile-peer tests
 * (a real server on one engine, test/shm/shm_raw_peer.c), set up once; a fuzz
 * input cut into records, each one SEQPACKET message with descriptors sent by a
 * raw peer; and the checks every target makes after each input (no descriptor
 * left behind, the server still serves).
 *
 * A record in the input:
 *   u8 flags   FZ_F_*: bits 0-2 the number of descriptors attached
 *   u8 kinds   2 bytes, little endian: 3 bits per descriptor, enum fz_fd_kind
 *   u8 kinds
 *   u8 len     payload bytes that follow (fewer if the input ends)
 *   payload
 * Unless FZ_F_RAW, the payload is laid over a zeroed struct shm_msg whose magic
 * and version are then set, and the target may fix more (its fix callback): a
 * message of the wrong size or magic is refused before anything else is looked
 * at, so without this most inputs would test one branch.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shm_raw_peer.h"

#define FZ_HDR 4
#define FZ_MAX_FDS 7     /* more than SHM_MAX_FDS: the receiver must close the excess */
#define FZ_MAX_RECORDS 32
#define FZ_MAX_RINGS 8
#define FZ_PAYLOAD_MAX 255

#define FZ_F_NB_FDS 0x07
#define FZ_F_RAW 0x08     /* send the payload as it is: any size, any magic */
#define FZ_F_ID 0x10      /* ctl: the id is the target's real consumer id */
#define FZ_F_WAIT 0x20    /* progress longer after this one */
#define FZ_F_ALT 0x40     /* target-defined */

enum fz_fd_kind {
	FZ_FD_RING = 0,   /* a message ring of the message's queue size (shm_ring_create) */
	FZ_FD_BELL,       /* that ring's doorbell, else a Unix datagram socket */
	FZ_FD_MEM,        /* sealed memfd of the control message's mem_len (bounded) */
	FZ_FD_FPRING,     /* sealed post ring of the control message's nb_posts (bounded) */
	FZ_FD_EVENTFD,
	FZ_FD_UNSEALED,   /* memfd of a page, resizable */
	FZ_FD_PIPE,
	FZ_FD_STREAM,     /* one end of a stream socket pair */
};

struct fz_record {
	uint8_t flags;
	uint16_t kinds;
	const uint8_t *payload;
	size_t len;
};

/** Split data into records; returns how many (at most max). */
unsigned int fz_split(const uint8_t *data, size_t size, struct fz_record *recs,
		      unsigned int max);

/** What a raw peer learnt and holds during one input. */
struct fz_session {
	int fd;
	uint32_t peer_max_msg;     /* from ACCEPT (or HELLO, on the client side) */
	uint32_t peer_queue;
	unsigned int nb_rings;
	struct shm_ring rings[FZ_MAX_RINGS]; /* rings we made to send: released at the end */
	unsigned int nb_replies;
	int last_reply;            /* type of the last message received, 0 once closed */
	bool closed;
};

void fz_session_init(struct fz_session *s, int fd);
/** Close the socket and release what the session made. */
void fz_session_fini(struct fz_session *s);

typedef void (*fz_fix_t)(struct shm_msg *m, const struct fz_record *r, void *arg);

/**
 * Send one record (fixed by fix unless FZ_F_RAW), with its descriptors, then
 * progress the engine and drain what the other side answered. false once the
 * socket is dead.
 */
bool fz_send_record(struct fz_session *s, const struct fz_record *r, fz_fix_t fix, void *arg);
/** The fixes every target wants: the server's name in HELLO, a CTL's exact size and version. */
void fz_fix_common(struct shm_msg *m, const struct fz_record *r, void *arg);
/** Read every message waiting on the socket, closing the descriptors they carry. */
void fz_drain(struct fz_session *s);

/** Progress the engine for a number of rounds. */
void fz_pump(unsigned int rounds);
/* Stop ctx, progressing until it is IDLE; abort() if it never gets there. */
void fz_stop_wait(struct rte_comch_ctx *ctx, const char *what);
/**
 * Progress until ticks of the engine's slow ticks (where it reads sockets) in a
 * row did nothing; 10 ms at most.
 */
void fz_settle(unsigned int idle);
/** Quiet EAL, the devices of the domain, the real server and its engine: once per process. */
void fz_init(const char *domain);
/**
 * Progress until the descriptors open are back to before (opened descriptors
 * may take a few rounds to go: the peer's hangup is noticed by the engine);
 * abort() if they are not.
 */
void fz_check_fds(unsigned int before, const char *what);

/** The real side's next message (progressing meanwhile): its type, or 0 once it closed. */
int fz_reply(int fd, struct shm_msg *m, int *fds, unsigned int *nb_fds);
/**
 * raw_peer_connect() in rounds of progress rather than milliseconds: a correct
 * handshake, the connection up on the server (last_conn).
 */
void fz_peer_connect(struct raw_peer *p);
/** Close the peer's socket, unmap its rings. */
void fz_peer_close(struct raw_peer *p);
/** The server must still run; every 256th call, a good client must get its echo. */
void fz_check_server(unsigned int *iter);

#endif /* FUZZ_COMMON_H */
