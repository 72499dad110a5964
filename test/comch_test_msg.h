/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef COMCH_TEST_MSG_H
#define COMCH_TEST_MSG_H

/**
 * @file
 * Test message format shared by the in-process tests and the comch_peer
 * program: a small header (magic, sender id, sequence number, length) followed
 * by bytes derived from (sender id, sequence number, offset), so that a
 * receiver can check every byte, the order and the origin of every message.
 */

#include <stdint.h>
#include <string.h>

#define CT_MSG_MAGIC 0xC0C4AB1Eu

struct ct_msg_hdr {
	uint32_t magic;
	uint32_t id;  /**< Sender id. */
	uint32_t seq; /**< Per-sender sequence number, from 0. */
	uint32_t len; /**< Whole message length, header included. */
};

#define CT_MSG_MIN_LEN ((uint32_t)sizeof(struct ct_msg_hdr))

static inline uint8_t
ct_msg_byte(uint32_t id, uint32_t seq, uint32_t off)
{
	return (uint8_t)(id * 131u + seq * 7u + off * 13u + (off >> 8));
}

/** Fill buf (len >= CT_MSG_MIN_LEN) with message seq of sender id. */
static inline void
ct_msg_fill(uint8_t *buf, uint32_t len, uint32_t id, uint32_t seq)
{
	struct ct_msg_hdr hdr = {
		.magic = CT_MSG_MAGIC, .id = id, .seq = seq, .len = len,
	};
	uint32_t i;

	memcpy(buf, &hdr, sizeof(hdr));
	for (i = sizeof(hdr); i < len; i++)
		buf[i] = ct_msg_byte(id, seq, i);
}

/**
 * Check a received message.
 * @return 0 if it is whole and intact (id and seq are then set),
 *   -1 if the header is bad, -2 if the length differs, -3 if a byte differs.
 */
static inline int
ct_msg_check(const uint8_t *buf, uint32_t len, uint32_t *id, uint32_t *seq)
{
	struct ct_msg_hdr hdr;
	uint32_t i;

	if (len < sizeof(hdr))
		return -1;
	memcpy(&hdr, buf, sizeof(hdr));
	if (hdr.magic != CT_MSG_MAGIC)
		return -1;
	if (hdr.len != len)
		return -2;
	for (i = sizeof(hdr); i < len; i++)
		if (buf[i] != ct_msg_byte(hdr.id, hdr.seq, i))
			return -3;
	*id = hdr.id;
	*seq = hdr.seq;
	return 0;
}

#endif /* COMCH_TEST_MSG_H */
