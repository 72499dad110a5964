/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * One side's fast path in the comch fast path samples: the memory, the
 * consumer and the producer it creates on its connection, their callbacks,
 * posting the receive buffer, sending the text to the peer's consumer, and
 * the teardown. The server and the client do all of this alike; their main.c
 * keeps what differs: how the connection comes and goes, and when each step
 * is taken.
 *
 * Like comch_sample.h, everything here runs on the main lcore, the one that
 * polls the sample's engine: the callbacks run inside its progress.
 */

#ifndef COMCH_SAMPLE_FAST_H
#define COMCH_SAMPLE_FAST_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_comch.h>

/*
 * One side's fast-path endpoint. The sample sets side and peer (e.g.
 * { .side = "Server", .peer = "client's" }) and zeroes the rest; the functions
 * below fill it in. The sample only reads it, but for clearing
 * peer_consumer_known when its connection ends, so that nothing is sent on it.
 */
struct comch_sample_fast {
	const char *side;                  /* "Server" or "Client": how our lines begin */
	const char *peer;                  /* "client's" or "server's": whose consumer we send to */
	struct rte_comch_pe *pe;           /* the engine the producer and consumer are on */

	/* What the new/expired consumer events told about the peer's consumer. */
	bool peer_consumer_known;
	uint32_t peer_consumer_id;

	struct rte_comch_mmap *recv_mmap;  /* peer-writable memory the consumer receives into */
	struct rte_comch_mmap *send_mmap;  /* local memory the producer sends from */
	struct rte_comch_buf_pool *buf_pool;
	struct rte_comch_buf *recv_buf;
	struct rte_comch_buf *send_buf;
	char *send_mem;                    /* the text, copied into memory the mmap owns... */
	uint32_t text_len;                 /* ...and its length */
	struct rte_comch_consumer *consumer;
	struct rte_comch_producer *producer;
	bool set_up;                       /* creating the consumer and producer was tried */
	bool recv_posted;                  /* our one post-recv task is in flight */
	bool received;                     /* and completed: the peer's message is here */
	bool sent;                         /* our send task was submitted */
	bool send_done;                    /* and completed successfully */
	bool down;                         /* comch_sample_fast_teardown() was called */
	bool tearing_down;                 /* we are stopping the producer and consumer */
	int error;                         /* first fast-path failure, reported by a callback */
};

/*
 * The memory of the fast path, ready before there is a connection: the
 * consumer's receive buffer in memory the peer can map and write, and the
 * producer's send buffer holding a copy of text (not empty). Returns 0 or
 * -errno, printed; comch_sample_fast_release() frees what was made either way.
 */
int
comch_sample_fast_create_buffers(struct comch_sample_fast *fp, struct rte_comch_dev *dev,
				 const char *text);

/*
 * The peer announced a consumer (up) or withdrew one (!up), as the
 * connection's consumer events tell: print it and remember whom to send to.
 * fp may be NULL, for a connection the sample does not serve: nothing is done.
 */
void
comch_sample_fast_peer_consumer(struct comch_sample_fast *fp, uint32_t consumer_id, bool up);

/*
 * Create a consumer and a producer on conn and start them on pe, which must be
 * polled on this lcore. Called once, outside any callback. Returns 0 or
 * -errno, printed.
 */
int
comch_sample_fast_setup(struct comch_sample_fast *fp, struct rte_comch_pe *pe,
			struct rte_comch_connection *conn);

/*
 * After a round of progress: post the receive buffer once the consumer is
 * RUNNING, and send the text once the peer's consumer is known. Returns 0,
 * also when the send must wait for the peer, or -errno, printed.
 */
int
comch_sample_fast_exchange(struct comch_sample_fast *fp);

/* Whether our message was delivered and the peer's has arrived. */
bool
comch_sample_fast_done(const struct comch_sample_fast *fp);

/*
 * Stop and destroy the producer and the consumer, progressing the engine
 * meanwhile, before the connection may close. Returns 0 or the last -errno
 * (printed); the first is also kept in fp->error. What could not be destroyed
 * stays in fp->producer or fp->consumer.
 */
int
comch_sample_fast_teardown(struct comch_sample_fast *fp);

/* Release the buffers, the pool and the mmaps, once the consumer is gone. Returns 0 or -errno. */
int
comch_sample_fast_release(struct comch_sample_fast *fp);

#endif /* COMCH_SAMPLE_FAST_H */
