/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef SHM_RAW_PEER_H
#define SHM_RAW_PEER_H

/*
 * A real shm server on one engine, and a raw peer that speaks the wire protocol
 * by hand: the stage of the hostile-peer tests. Setup and teardown are cmocka
 * group fixtures; the counters are reset by before_each.
 */

#include <stdint.h>

#include <rte_comch.h>

#include "shm_internal.h"
#include "comch_proto.h"

#define SERVER_NAME "victim"

extern struct rte_comch_dev *dpu, *host;
extern struct rte_comch_dev_rep *rep;
extern struct rte_comch_server *srv;
extern struct rte_comch_pe *pe;
/** Status of the server's last disconnection callback (1: none yet). */
extern int last_disconnect;
extern unsigned int nb_connects, nb_server_msgs, nb_client_msgs;
/** The server's newest connection. */
extern struct rte_comch_connection *last_conn;
/** Ids of the server's last new/expired consumer events (-1: none). */
extern int last_new_consumer, last_expired_consumer;

void task_free_cb(struct rte_comch_task_send *t, union rte_comch_data a, union rte_comch_data b);
/** Progress the server's engine for ms milliseconds. */
void pump(unsigned int ms);
uint64_t rejected(void);
uint64_t peer_errors(void);
void assert_server_running(void);
/** A socket connected to the server, nothing said yet. */
int raw_connect(void);
/** The same without cmocka's asserts (for a forked child): the socket, or -errno. */
int raw_connect_try(void);
/** What the server sent back: a message type, or 0 once it closed the socket. */
int raw_reply(int fd, struct shm_msg *m, int *fds, unsigned int *nb_fds);
void raw_hello(int fd, uint32_t queue);
/** HELLO, then the server's ACCEPT: returns its ring's fds. */
void raw_hello_accept(int fd, int *fds, struct shm_msg *accept);
/** A well-behaved client: connect, send, get the echo back, stop. */
void good_client_roundtrip(void);
/** A client of host on the server's engine, started, progressed until in state until. */
struct rte_comch_client *raw_client_start(enum rte_comch_ctx_state until);

/** A peer that completes the handshake properly, then may lie through shared memory. */
struct raw_peer {
	int fd;
	struct shm_ring rx;  /* ours: the server writes */
	struct shm_ring tx;  /* the server's: we write */
};

void raw_peer_connect(struct raw_peer *p);
/** Close p's socket and unmap its rings. */
void raw_peer_close(struct raw_peer *p);
/** The server must drop p with -EPROTO, count it, and still serve a good client. */
void raw_peer_expect_dropped(struct raw_peer *p, uint64_t errors_before);

/** Send a library control message (and descriptors) as the peer's library would. */
void raw_ctl_send(int fd, enum comch_ctl_type type, uint32_t id, const struct comch_ctl_msg *tmpl,
		  const int *fds, unsigned int nb_fds);
/** The same without cmocka's asserts (for a forked child): 0 or -errno. */
int raw_ctl_send_try(int fd, enum comch_ctl_type type, uint32_t id,
		     const struct comch_ctl_msg *tmpl, const int *fds, unsigned int nb_fds);
/** The same with a blob of blob_len bytes of data (0: none). */
int raw_ctl_send_blob_try(int fd, enum comch_ctl_type type, uint32_t id,
			  const struct comch_ctl_msg *tmpl, const void *blob, uint32_t blob_len,
			  const int *fds, unsigned int nb_fds);
/**
 * The server's next library control message: its type, with *c and the
 * descriptors filled; 0 if the server closed or sent something else.
 */
int raw_ctl_reply(int fd, struct comch_ctl_msg *c, int *fds, unsigned int *nb_fds);
/** The same, with the blob's data too: into blob (SHM_BLOB_MAX bytes), its length at blob_len. */
int raw_ctl_reply_blob(int fd, struct comch_ctl_msg *c, uint8_t *blob, uint32_t *blob_len,
		       int *fds, unsigned int *nb_fds);

/* Bytes of the bounce area of the server's consumers (devarg bounce). */
#define RAW_SERVER_BOUNCE 4194304

/* The raw peer's consumers: MEM_LEN bytes of memory, NB_SLOTS posts, 8 bytes of imm. */
#define MEM_LEN (64u << 10)
#define NB_SLOTS 8

/** A consumer played by the test: its memory and post ring, as the peer sees them. */
struct raw_consumer {
	int memfd, ringfd;
	int bell[2];          /* [1] goes to the peer as the consumer's doorbell */
	uint8_t *mem, *ring;
	size_t ring_bytes;
	struct shm_fp_post *posts;
	struct shm_fp_slot *slots;
	uint32_t *posted;
	uint32_t nb_chunks;   /* of its bounce area (0: none), announced in the blob */
	uint8_t *bounce;
};

/** A memfd of len bytes, sealed against resizing or not. */
int sealed_memfd(size_t len, bool seal);
void *map_fd(int fd, size_t len);
/** Memory (sealed or not), post ring and doorbell of a raw consumer. */
void raw_consumer_init(struct raw_consumer *rc, bool seal_mem);
/** The same with a bounce area of nb_chunks chunks in the post ring, announced as such. */
void raw_consumer_init_chunks(struct raw_consumer *rc, bool seal_mem, uint32_t nb_chunks);
void raw_consumer_fini(struct raw_consumer *rc);
/** NEW for a consumer of nb_posts buffers, with the three descriptors given. */
void raw_announce_fds(int fd, uint32_t id, uint32_t nb_posts, const int *fds);
/** NEW for rc, as id. */
void raw_consumer_announce(struct raw_peer *p, struct raw_consumer *rc, uint32_t id);
/** The same on socket fd, without cmocka's asserts (for a forked child): 0 or -errno. */
int raw_consumer_announce_try(int fd, const struct raw_consumer *rc, uint32_t id);

/** Descriptors open in this process right now. */
unsigned int count_fds(void);
/** Send a message of no bytes that carries nb_fds new descriptors (memfds). */
void raw_send_empty_with_fds(int fd, unsigned int nb_fds);

/**
 * Open the stage: devices of domain (the BlueField side's with dpu_args as
 * extra devargs), a server SERVER_NAME started on an engine, the globals above
 * set. 0, or -1 if something failed.
 */
int raw_server_open(const char *domain, const char *dpu_args);
void raw_server_close(void);

/** The stage's objects, as raw_server_open() sets the globals above. */
struct raw_server {
	struct rte_comch_dev *dpu, *host;
	struct rte_comch_dev_rep *rep;
	struct rte_comch_server *srv;
	struct rte_comch_pe *pe;
	char domain[32];
};

/**
 * Set the stage in use aside in *s, to open another for a while (which then
 * has the globals); raw_server_restore() closes that one and puts *s back,
 * whatever the tests did on it. The stage set aside is not progressed meanwhile.
 */
void raw_server_save(struct raw_server *s);
void raw_server_restore(const struct raw_server *s);
/** cmocka group fixtures: EAL, and raw_server_open("hostile") with RAW_SERVER_BOUNCE. */
int setup(void **state);
int teardown(void **state);
int before_each(void **state);

#endif /* SHM_RAW_PEER_H */
