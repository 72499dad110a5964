/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The DPA part of the DOCA MsgQ program: one thread, woken by the requests
 * that land on its consumer completion context, and an RPC that offers the
 * first receives. DOCA's device API only (doca_dpa_dev.h,
 * doca_dpa_dev_comch_msgq.h): the same source a BlueField-3 build gives dpacc.
 *
 * Each run: take the send completions of earlier answers (each frees a send
 * credit); send an answer that had to wait; take each request, build its
 * payload in the staging slot of its number (DPA memory) and send the answer
 * with the payload copied into the CPU's slot; acknowledge the requests taken
 * and offer as many receives again; arm for the next request, or, if an
 * answer waits for a receive, notify itself to run again.
 */

#include <errno.h>
#include <string.h>

#include <doca_dpa_dev.h>
#include <doca_dpa_dev_comch_msgq.h>

#include "doca_comch_msgq_common.h"

/* Stop, saying why where the CPU reads it. */
static void
msgq_dev_fail(struct msgq_dev_args *a, int status)
{
	__atomic_store_n(&a->status, status, __ATOMIC_RELEASE);
	DOCA_DPA_DEV_LOG_ERR("MsgQ program stops: %d", status);
	doca_dpa_dev_thread_finish();
}

/* Send an answer: 0, 1 if the CPU has no receive posted (try later), <0 on failure. */
static int
msgq_dev_send(struct msgq_dev_args *a, const struct msgq_answer *ans)
{
	uint64_t off = (uint64_t)ans->slot * a->slot_size;
	int ret;

	if (doca_dpa_dev_comch_producer_is_consumer_empty(a->producer, a->cpu_consumer_id) == 1)
		return 1;
	if (ans->len != 0)
		ret = doca_dpa_dev_comch_producer_dma_copy(a->producer, a->cpu_consumer_id,
							   a->answers_mmap, a->answers + off,
							   a->staging_mmap, a->staging + off,
							   ans->len, (const uint8_t *)ans,
							   sizeof(*ans),
							   DOCA_DPA_DEV_SUBMIT_FLAG_FLUSH);
	else
		ret = doca_dpa_dev_comch_producer_post_send_imm_only(
			a->producer, a->cpu_consumer_id, (const uint8_t *)ans, sizeof(*ans),
			DOCA_DPA_DEV_SUBMIT_FLAG_FLUSH);
	/* -EAGAIN: a receive, or the room of a completion, is missing: later. */
	if (ret == -EAGAIN)
		return 1;
	if (ret == 0)
		a->answered++;
	return ret;
}

/* The send completions of the answers so far: their places back. */
static void
msgq_dev_completions(struct msgq_dev_args *a)
{
	doca_dpa_dev_completion_element_t e;
	uint32_t n = 0;

	while (doca_dpa_dev_get_completion(a->sent, &e) == 1) {
		if (doca_dpa_dev_get_completion_user_data(e) != MSGQ_PRODUCER_USER_DATA)
			msgq_dev_fail(a, -EBADMSG);
		n++;
	}
	if (n != 0 && doca_dpa_dev_completion_ack(a->sent, n) != 0)
		msgq_dev_fail(a, -EINVAL);
	a->completions += n;
}

__dpa_global__ void
msgq_dev_thread(uint64_t arg)
{
	struct msgq_dev_args *a = (struct msgq_dev_args *)arg;
	struct msgq_dev_tls *tls = (struct msgq_dev_tls *)doca_dpa_dev_thread_get_local_storage();
	doca_dpa_dev_comch_consumer_completion_element_t e;
	struct msgq_request req;
	const uint8_t *imm;
	uint64_t *words;
	uint32_t len, i, taken = 0;
	int ret;

	msgq_dev_completions(a);
	if (tls->pending) {
		ret = msgq_dev_send(a, &tls->answer);
		if (ret < 0)
			msgq_dev_fail(a, ret);
		tls->pending = ret == 1;
		a->retries += ret == 1;
	}
	/* Answers go in request order: none is taken while one waits. */
	while (!tls->pending && doca_dpa_dev_comch_consumer_get_completion(a->requests, &e) == 1) {
		imm = doca_dpa_dev_comch_consumer_get_completion_imm(e, &len);
		if (len != sizeof(req) ||
		    doca_dpa_dev_comch_consumer_get_completion_producer_id(e) == 0 ||
		    doca_dpa_dev_comch_consumer_get_completion_user_data(e) !=
		    MSGQ_CONSUMER_USER_DATA)
			msgq_dev_fail(a, -EBADMSG);
		memcpy(&req, imm, sizeof(req));
		tls->answer.seq = req.seq;
		tls->answer.square = req.operand * req.operand;
		tls->answer.slot = (uint32_t)(req.seq % a->nb_slots);
		tls->answer.len = a->payload_len;
		words = (uint64_t *)(a->staging + (uint64_t)tls->answer.slot * a->slot_size);
		for (i = 0; i < a->payload_len / sizeof(uint64_t); i++)
			words[i] = msgq_payload_word(req.seq, i);
		ret = msgq_dev_send(a, &tls->answer);
		if (ret < 0)
			msgq_dev_fail(a, ret);
		tls->pending = ret == 1;
		taken++;
	}
	/* The requests' places back to the context, their receives back to the CPU. */
	if (taken != 0 && (doca_dpa_dev_comch_consumer_completion_ack(a->requests, taken) != 0 ||
			   doca_dpa_dev_comch_consumer_ack(a->consumer, taken) != 0))
		msgq_dev_fail(a, -EINVAL);
	if (tls->pending)
		doca_dpa_dev_thread_notify(a->self);
	else
		doca_dpa_dev_comch_consumer_completion_request_notification(a->requests);
	doca_dpa_dev_thread_reschedule();
}

/* Called once by the CPU (doca_dpa_rpc()): the first receives of the DPA consumer. */
__dpa_rpc__ uint64_t
msgq_dev_init_rpc(doca_dpa_dev_comch_consumer_t consumer, uint32_t receives)
{
	return doca_dpa_dev_comch_consumer_ack(consumer, receives) == 0 ? 0 : 1;
}
