/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * What the CPU code and the DPA program of the comch_msgq sample share: the
 * layout of the two kinds of message, of an answer's payload, and of the
 * program's argument block, which lives in DPA memory.
 */

#ifndef MSGQ_PROG_H
#define MSGQ_PROG_H

#include <stdint.h>

#include <rte_comch_dpa_types.h>

/* A request, CPU -> DPA, as the immediate data of MsgQ A (16 bytes). */
struct msgq_request {
	uint64_t seq;          /* 0, 1, 2...: the program answers in this order */
	uint64_t operand;      /* what the program squares */
};

/* An answer, DPA -> CPU, as the immediate data of MsgQ B (24 bytes). */
struct msgq_answer {
	uint64_t seq;          /* the request's */
	uint32_t slot;         /* the CPU buffer slot the payload was copied into */
	uint32_t len;          /* payload bytes in that slot */
	uint64_t square;       /* operand * operand */
};

/*
 * The payload of an answer: len / 8 words, word 0 the sequence number and
 * word i (i >= 1) square + i, so that a stale, shifted or torn record fails
 * the CPU's check.
 */
static inline uint64_t
msgq_payload_word(uint64_t seq, uint64_t square, uint32_t i)
{
	return i == 0 ? seq : square + i;
}

/* The operand of request seq: any value would do; this one varies. */
static inline uint64_t
msgq_operand(uint64_t seq)
{
	return (seq * UINT64_C(2654435761)) & 0xffffffff;
}

/*
 * The program's argument: the CPU fills it (rte_comch_dpa_h2d_memcpy()) before
 * the thread first runs, and reads the counters back once it is stopped.
 */
struct msgq_prog_args {
	rte_comch_dpa_handle_t req_consumer;  /* DPA consumer of MsgQ A */
	rte_comch_dpa_handle_t req_cq;        /* where its requests land */
	rte_comch_dpa_handle_t ans_producer;  /* DPA producer of MsgQ B */
	rte_comch_dpa_handle_t ans_cq;        /* where its send completions land */
	rte_comch_dpa_handle_t self;          /* the thread, to trigger itself */
	rte_comch_dpa_handle_t dst_mmap;      /* the CPU's answer slots */
	rte_comch_dpa_handle_t src_mmap;      /* the program's staging slots */
	uint64_t dst_base;                    /* their addresses, as the mmaps give them */
	uint64_t src_base;
	uint32_t slot_size;                   /* bytes between two slots */
	uint32_t nb_slots;                    /* one per request in flight */
	uint32_t payload_len;                 /* bytes of each payload */
	uint32_t cpu_consumer_id;             /* whom the answers go to on MsgQ B */
	/* Written by the program. */
	uint64_t answered;                    /* answers sent */
	uint64_t completions;                 /* their send completions taken */
	uint64_t retries;                     /* answers refused (no receive posted), sent later */
	int32_t status;                       /* 0, or the -errno that stopped it */
	uint32_t failed_seq;                  /* the request it was serving then */
};

/* What the program keeps from one run to the next: its thread's local storage. */
struct msgq_prog_tls {
	uint32_t offered;                     /* the first receives were offered */
	uint32_t pending;                     /* an answer refused, to send first */
	struct msgq_answer pending_ans;
};

/* The program: the DPA thread's entry function (msgq_prog.c). */
void msgq_prog(uint64_t arg);

#endif /* MSGQ_PROG_H */
