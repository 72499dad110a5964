/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef DOCA_COMCH_MSGQ_COMMON_H
#define DOCA_COMCH_MSGQ_COMMON_H

/*
 * A DOCA MsgQ program of our own, in DOCA's names only: what its CPU part
 * (doca_comch_msgq_main.c) and its DPA part (doca_comch_msgq_dev.c) share.
 * Built for a BlueField-3, the DPA part would go through dpacc; here both
 * build with the host compiler against the compatibility layer, and the DPA
 * part runs on the software DPA.
 *
 * The flow: the CPU sends requests {seq, operand} on MsgQ A (a CPU producer
 * to a DPA consumer); the DPA thread answers each on MsgQ B (a DPA producer to
 * a CPU consumer) with {seq, square, slot}, after copying a payload record it
 * built in DPA memory into the CPU's answer slot of that number
 * (doca_dpa_dev_comch_producer_dma_copy()), or with the answer alone
 * (doca_dpa_dev_comch_producer_post_send_imm_only()) when there is no
 * payload. The CPU keeps at most one request in flight per slot.
 */

#include <stdint.h>

#include <doca_dpa_types.h>

/* A request, CPU -> DPA, as immediate data (16 bytes). */
struct msgq_request {
	uint64_t seq;
	uint64_t operand;
};

/* An answer, DPA -> CPU, as immediate data (24 bytes). */
struct msgq_answer {
	uint64_t seq;
	uint64_t square;
	uint32_t slot;		/* the answer slot the payload was copied to */
	uint32_t len;		/* payload bytes there, 0 for none */
};

/* The user data of the DPA consumer's messages and of the DPA producer's completions. */
#define MSGQ_CONSUMER_USER_DATA 0xa11ceu
#define MSGQ_PRODUCER_USER_DATA 0xb0bu

/* Word i of the payload of answer seq: a stale, shifted or torn record fails the check. */
static inline uint64_t
msgq_payload_word(uint64_t seq, uint32_t i)
{
	return (seq << 16) ^ (0x9e3779b97f4a7c15ull * (i + 1));
}

/* The operand of request seq. */
static inline uint64_t
msgq_operand(uint64_t seq)
{
	return (seq * 2654435761ull) & 0xffffffffu;
}

/*
 * The DPA thread's argument, in DPA memory: the handles the CPU made for it,
 * and counters it writes (the CPU reads them once the thread is stopped).
 */
struct msgq_dev_args {
	doca_dpa_dev_comch_consumer_completion_t requests;	/* where requests land */
	doca_dpa_dev_comch_consumer_t consumer;			/* MsgQ A's DPA consumer */
	doca_dpa_dev_comch_producer_t producer;			/* MsgQ B's DPA producer */
	doca_dpa_dev_completion_t sent;				/* its send completions */
	doca_dpa_dev_notification_completion_t self;		/* to run again */
	doca_dpa_dev_mmap_t answers_mmap;			/* the CPU's answer slots */
	doca_dpa_dev_mmap_t staging_mmap;			/* DPA memory, the payloads */
	doca_dpa_dev_uintptr_t answers;				/* their addresses */
	doca_dpa_dev_uintptr_t staging;
	uint32_t cpu_consumer_id;				/* MsgQ B's CPU consumer */
	uint32_t nb_slots;
	uint32_t slot_size;
	uint32_t payload_len;
	/* Written by the program. */
	uint64_t answered;
	uint64_t completions;
	uint64_t retries;
	int32_t status;						/* 0, or why it finished */
	uint32_t pad;
};

/* What the thread keeps from one run to the next: its local storage. */
struct msgq_dev_tls {
	uint32_t pending;		/* an answer waits for a receive */
	uint32_t pad;
	struct msgq_answer answer;
};

#endif /* DOCA_COMCH_MSGQ_COMMON_H */
