/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The DPA side of the comch_msgq sample: the program of its one DPA thread.
 *
 * The software DPA calls msgq_prog() each time the thread is triggered: when a
 * request lands on req_cq (the completion context attached to the thread,
 * armed again at the end of every run), or when the program triggers itself
 * because an answer could not go yet. ans_cq, where the answers' send
 * completions land, triggers nothing: the program polls it. Each run:
 *   1. on the first run, offers the CPU producer as many receives as there
 *      are answer slots (rte_comch_dpa_dev_consumer_ack());
 *   2. takes the send completions of earlier answers from ans_cq and
 *      acknowledges them: each gives back a send credit;
 *   3. takes each request waiting: writes the answer's payload into the
 *      request's staging slot and copies it into the CPU's slot of the same
 *      number with rte_comch_dpa_dev_producer_dma_copy(), whose immediate data
 *      tells the CPU which slot and which request;
 *   4. acknowledges the requests taken and offers as many receives again;
 *   5. arms both completion contexts (or triggers itself if an answer waits)
 *      and ends the run with rte_comch_dpa_dev_thread_reschedule().
 *
 * It names every object by the DPA handle in its argument block and keeps
 * what must survive a run in the thread's local storage, as a program on a
 * BlueField-3's DPA does. It writes the payload straight into a staging mmap
 * the CPU registered with the device: on the hardware it would build it in
 * DPA memory exported as an mmap instead; the copy call is the same.
 */

#include <errno.h>
#include <string.h>

#include <rte_comch_dpa_dev.h>

#include "msgq_prog.h"

/* Stop being triggered, saying why where the CPU will look. */
static void
prog_fail(struct msgq_prog_args *a, int status, uint64_t seq)
{
	a->failed_seq = (uint32_t)seq;
	__atomic_store_n(&a->status, status, __ATOMIC_RELEASE);
	rte_comch_dpa_dev_thread_finish();
}

/*
 * Copy the answer's payload into the CPU's slot and send the answer. 0,
 * -EAGAIN if the CPU has no receive posted (nothing was sent: try again
 * later), or another -errno.
 */
static int
send_answer(struct msgq_prog_args *a, const struct msgq_answer *ans)
{
	uint64_t off = (uint64_t)ans->slot * a->slot_size;

	return rte_comch_dpa_dev_producer_dma_copy(a->ans_producer, a->cpu_consumer_id,
						   a->dst_mmap, a->dst_base + off,
						   a->src_mmap, a->src_base + off, ans->len,
						   ans, sizeof(*ans),
						   RTE_COMCH_DPA_DEV_SUBMIT_FLAG_COMPLETION);
}

/* Serve one request: build the payload in the staging slot, then send. */
static int
serve(struct msgq_prog_args *a, struct msgq_prog_tls *tls, const struct msgq_request *req)
{
	struct msgq_answer ans = {
		.seq = req->seq,
		.slot = (uint32_t)(req->seq % a->nb_slots),
		.len = a->payload_len,
		.square = req->operand * req->operand,
	};
	uint64_t *words = (uint64_t *)(uintptr_t)(a->src_base +
						  (uint64_t)ans.slot * a->slot_size);
	uint32_t i;
	int ret;

	/*
	 * The slot is free: the CPU keeps at most nb_slots requests in flight,
	 * so the answer that last used it has been delivered and read.
	 */
	for (i = 0; i < ans.len / sizeof(uint64_t); i++)
		words[i] = msgq_payload_word(ans.seq, ans.square, i);
	ret = send_answer(a, &ans);
	if (ret == 0) {
		a->answered++;
	} else if (ret == -EAGAIN) {
		/* The payload is in place: only the copy and the message wait. */
		tls->pending_ans = ans;
		tls->pending = 1;
		a->retries++;
	}
	return ret == -EAGAIN ? 0 : ret;
}

/* Take the completions of the answers sent so far; each frees a send credit. */
static void
take_completions(struct msgq_prog_args *a)
{
	struct rte_comch_dpa_cqe cqe;
	uint32_t n = 0;
	int ret;

	while ((ret = rte_comch_dpa_dev_get_completion(a->ans_cq, &cqe)) == 1)
		n++;
	if (ret == 0 && n != 0)
		ret = rte_comch_dpa_dev_completion_ack(a->ans_cq, n);
	if (ret < 0)
		prog_fail(a, ret, 0);
	a->completions += n;
}

void
msgq_prog(uint64_t arg)
{
	struct msgq_prog_args *a = rte_comch_dpa_dev_mem_ptr(arg, 0, sizeof(*a));
	struct msgq_prog_tls *tls = rte_comch_dpa_dev_thread_get_local_storage();
	struct msgq_request req;
	struct rte_comch_dpa_cqe cqe;
	const uint8_t *imm;
	uint32_t len, taken = 0;
	int ret = 0;

	if (a == NULL || tls == NULL)
		rte_comch_dpa_dev_thread_finish();
	if (!tls->offered) {
		ret = rte_comch_dpa_dev_consumer_ack(a->req_consumer, a->nb_slots);
		if (ret < 0)
			prog_fail(a, ret, 0);
		tls->offered = 1;
	}
	take_completions(a);
	if (tls->pending) {
		ret = send_answer(a, &tls->pending_ans);
		if (ret == 0) {
			tls->pending = 0;
			a->answered++;
		} else if (ret != -EAGAIN) {
			prog_fail(a, ret, tls->pending_ans.seq);
		}
	}
	/* Answers go in request order: none is taken while one waits. */
	while (!tls->pending && (ret = rte_comch_dpa_dev_get_completion(a->req_cq, &cqe)) == 1) {
		imm = rte_comch_dpa_dev_get_completion_imm(&cqe, &len);
		if (len != sizeof(req))
			prog_fail(a, -EBADMSG, 0);
		memcpy(&req, imm, sizeof(req));
		ret = serve(a, tls, &req);
		if (ret < 0)
			prog_fail(a, ret, req.seq);
		taken++;
	}
	if (ret < 0)
		prog_fail(a, ret, 0);
	/* The requests' places back to the context, their receives back to the CPU. */
	if (taken != 0) {
		ret = rte_comch_dpa_dev_completion_ack(a->req_cq, taken);
		if (ret == 0)
			ret = rte_comch_dpa_dev_consumer_ack(a->req_consumer, taken);
		if (ret < 0)
			prog_fail(a, ret, 0);
	}
	/* Woken by the next request; or at once, to retry an answer. */
	if (tls->pending)
		ret = rte_comch_dpa_dev_thread_notify(a->self);
	else
		ret = rte_comch_dpa_dev_completion_request_notification(a->req_cq);
	if (ret < 0)
		prog_fail(a, ret, 0);
	rte_comch_dpa_dev_thread_reschedule();
}
