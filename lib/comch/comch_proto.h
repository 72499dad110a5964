/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef COMCH_PROTO_H
#define COMCH_PROTO_H

/*
 * The library's control messages, as they travel between two libraries inside
 * a driver's control carrier (see comch_proto.c for the protocol). Not
 * installed: the hostile-peer tests include it to speak the protocol by hand.
 */

#include <stdint.h>

#define COMCH_CTL_VERSION 1

enum comch_ctl_type {
	COMCH_CTL_CONSUMER_NEW = 1,   /* a consumer of the sender's, with the blob of its memory */
	COMCH_CTL_CONSUMER_READY,     /* the receiver of NEW imported it */
	COMCH_CTL_CONSUMER_REFUSED,   /* the receiver of NEW will not: over its budget */
	COMCH_CTL_CONSUMER_EXPIRED,   /* a consumer of the sender's stops: write no more */
	COMCH_CTL_CONSUMER_ACK,       /* the receiver of EXPIRED will not write again */
};

/* Every control message has this exact layout; anything else breaks the protocol. */
struct comch_ctl_msg {
	uint8_t version;
	uint8_t type;
	uint16_t reserved;
	uint32_t id;          /* the consumer's, as its owner numbers it */
	int32_t status;       /* REFUSED: positive errno (ENOSPC, EMFILE, ENOMEM, ENOTSUP) */
	uint32_t nb_posts;    /* NEW: buffers posted at once at most */
	uint32_t imm_len;     /* NEW: immediate data it accepts */
	uint32_t reserved2;
	uint64_t mem_len;     /* NEW: bytes of its memory */
};

#endif /* COMCH_PROTO_H */
