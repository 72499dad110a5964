/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * DOCA Comch MsgQ over rte_comch's MsgQ, on the DPA device of the DOCA device
 * (doca_dpa.c). Its consumers and producers are the layer's consumer and
 * producer wrappers; the DPA-side ones run on an engine of their DPA that the
 * layer progresses itself (DOCA gives them none), which is why their stop is
 * done here. A consumer completion context is a completion context of the
 * software DPA, made at DOCA's start from the settings collected before.
 */

#include <errno.h>
#include <stdlib.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_pause.h>

#include <rte_comch_dpa_msgq.h>
#include <rte_comch_msgq.h>

#include "doca_comch_consumer.h"
#include "doca_comch_msgq.h"
#include "doca_comch_private.h"
#include "doca_comch_producer.h"
#include "doca_dev_private.h"
#include "doca_dpa_private.h"

/* How long a DPA-side context's stop waits for the CPU producers of its MsgQ to let go. */
#define DC_DPA_STOP_MS 5000
/* Defaults of a consumer completion context. */
#define DC_CC_DEFAULT_RECV 16

struct doca_comch_msgq {
	struct dc_obj obj;		/* first: DC_KIND_MSGQ */
	struct doca_dev *dev;		/* held while the MsgQ exists */
	struct rte_comch_msgq *rq;
	bool started;
};
DC_OBJ_FIRST(struct doca_comch_msgq, obj);

struct doca_comch_consumer_completion {
	struct dc_obj obj;		/* first: DC_KIND_CONSUMER_COMPLETION */
	struct doca_dpa_thread *thread;
	uint32_t max_num_recv;		/* a power of two */
	uint32_t max_num_consumers;	/* a power of two; 0: no limit */
	uint32_t imm_len;
	struct rte_comch_dpa_cq *cq;	/* while started */
};
DC_OBJ_FIRST(struct doca_comch_consumer_completion, obj);

/* -------------------------------------------------------------------- MsgQ */

doca_error_t
doca_comch_msgq_cap_is_supported(const struct doca_devinfo *devinfo)
{
	DC_OBJ_ARG(devinfo, DC_KIND_DEVINFO);
	return DOCA_SUCCESS;
}

doca_error_t
doca_comch_msgq_create(struct doca_dev *dev, struct doca_comch_msgq **msgq)
{
	struct rte_comch_dev *rdev;
	struct doca_comch_msgq *q;

	DC_OBJ_ARG(dev, DC_KIND_DEV);
	DC_NULL_ARG(msgq);
	rdev = dc_dpa_rdev_get(dev);
	if (rdev == NULL)
		return DOCA_ERROR_DRIVER;
	q = calloc(1, sizeof(*q));
	if (q == NULL)
		return DOCA_ERROR_NO_MEMORY;
	q->rq = rte_comch_msgq_create(rdev);
	if (q->rq == NULL) {
		free(q);
		return rte_comch_doca_error_from_errno(-rte_errno);
	}
	q->dev = dev;
	dc_dpa_dev_hold(dev, 1);
	dc_obj_publish(&q->obj, q, DC_KIND_MSGQ);
	*msgq = q;
	return DOCA_SUCCESS;
}

doca_error_t
doca_comch_msgq_destroy(struct doca_comch_msgq *msgq)
{
	int rc;

	DC_OBJ_ARG(msgq, DC_KIND_MSGQ);
	rc = rte_comch_msgq_destroy(msgq->rq);
	if (rc < 0)
		return rc == -EBUSY ? DOCA_ERROR_BAD_STATE : rte_comch_doca_error_from_errno(rc);
	dc_dpa_dev_hold(msgq->dev, -1);
	dc_obj_retire(&msgq->obj, msgq);
	return DOCA_SUCCESS;
}

/* A setter's error: -EBUSY is a started MsgQ. */
static doca_error_t
dc_msgq_set_err(int rc)
{
	return rc == -EBUSY ? DOCA_ERROR_BAD_STATE : rte_comch_doca_error_from_errno(rc);
}

doca_error_t
doca_comch_msgq_set_dpa_consumer(struct doca_comch_msgq *msgq, struct doca_dpa *dpa)
{
	DC_OBJ_ARG(msgq, DC_KIND_MSGQ);
	DC_OBJ_ARG(dpa, DC_KIND_DPA);
	return dc_msgq_set_err(rte_comch_msgq_set_dpa_consumer(msgq->rq,
							       rte_comch_dpa_as_accel(dpa->rdpa)));
}

doca_error_t
doca_comch_msgq_set_dpa_producer(struct doca_comch_msgq *msgq, struct doca_dpa *dpa)
{
	DC_OBJ_ARG(msgq, DC_KIND_MSGQ);
	DC_OBJ_ARG(dpa, DC_KIND_DPA);
	return dc_msgq_set_err(rte_comch_msgq_set_dpa_producer(msgq->rq,
							       rte_comch_dpa_as_accel(dpa->rdpa)));
}

doca_error_t
doca_comch_msgq_set_max_num_consumers(struct doca_comch_msgq *msgq, uint32_t max_num_consumers)
{
	DC_OBJ_ARG(msgq, DC_KIND_MSGQ);
	return dc_msgq_set_err(rte_comch_msgq_set_max_num_consumers(msgq->rq, max_num_consumers));
}

doca_error_t
doca_comch_msgq_set_max_num_producers(struct doca_comch_msgq *msgq, uint32_t max_num_producers)
{
	DC_OBJ_ARG(msgq, DC_KIND_MSGQ);
	return dc_msgq_set_err(rte_comch_msgq_set_max_num_producers(msgq->rq, max_num_producers));
}

doca_error_t
doca_comch_msgq_start(struct doca_comch_msgq *msgq)
{
	int rc;

	DC_OBJ_ARG(msgq, DC_KIND_MSGQ);
	rc = rte_comch_msgq_start(msgq->rq);
	if (rc == 0)
		msgq->started = true;
	/* -ENOENT: no direction set. */
	return rc == -EBUSY || rc == -ENOENT ? DOCA_ERROR_BAD_STATE :
	       rte_comch_doca_error_from_errno(rc);
}

doca_error_t
doca_comch_msgq_stop(struct doca_comch_msgq *msgq)
{
	int rc;

	DC_OBJ_ARG(msgq, DC_KIND_MSGQ);
	rc = rte_comch_msgq_stop(msgq->rq);
	if (rc == 0)
		msgq->started = false;
	if (rc == -EBUSY)
		return msgq->started ? DOCA_ERROR_IN_USE : DOCA_ERROR_BAD_STATE;
	return rte_comch_doca_error_from_errno(rc);
}

/* A creator's error (rte_errno): EBUSY is a MsgQ not started, ENOSPC one full. */
static doca_error_t
dc_msgq_create_err(void)
{
	return rte_errno == EBUSY ? DOCA_ERROR_BAD_STATE :
	       rte_comch_doca_error_from_errno(-rte_errno);
}

doca_error_t
doca_comch_msgq_consumer_create(struct doca_comch_msgq *msgq,
				struct doca_comch_consumer **consumer)
{
	struct rte_comch_consumer *rc;

	DC_OBJ_ARG(msgq, DC_KIND_MSGQ);
	DC_NULL_ARG(consumer);
	rc = rte_comch_msgq_consumer_create(msgq->rq);
	return rc != NULL ? dc_consumer_wrap(rc, consumer) : dc_msgq_create_err();
}

doca_error_t
doca_comch_msgq_producer_create(struct doca_comch_msgq *msgq,
				struct doca_comch_producer **producer)
{
	struct rte_comch_producer *rp;

	DC_OBJ_ARG(msgq, DC_KIND_MSGQ);
	DC_NULL_ARG(producer);
	rp = rte_comch_msgq_producer_create(msgq->rq);
	return rp != NULL ? dc_producer_wrap(rp, producer) : dc_msgq_create_err();
}

/* ------------------------------------------------------- contexts on the DPA */

/* Whether ctx is a MsgQ consumer or producer on the DPA side (it has a DPA handle). */
static bool
dc_ctx_on_dpa_side(struct doca_ctx *ctx)
{
	rte_comch_dpa_handle_t h;

	if (ctx->obj.magic == DC_KIND_CONSUMER)
		return rte_comch_dpa_consumer_get_dpa_handle(
			dc_consumer_rte((struct doca_comch_consumer *)ctx), &h) == 0;
	if (ctx->obj.magic == DC_KIND_PRODUCER)
		return rte_comch_dpa_producer_get_dpa_handle(
			dc_producer_rte((struct doca_comch_producer *)ctx), &h) == 0;
	return false;
}

doca_error_t
doca_ctx_set_datapath_on_dpa(struct doca_ctx *ctx, struct doca_dpa *dpa_dev)
{
	struct rte_comch_pe *pe;
	int rc;

	DC_OBJ_ARG(ctx, DC_KIND_CTX_ANY);
	DC_OBJ_ARG(dpa_dev, DC_KIND_DPA);
	if (!dc_ctx_on_dpa_side(ctx)) {
		DC_LOG(ERR, "ctx is not a MsgQ consumer or producer on the DPA side");
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	pe = dc_dpa_pe(dpa_dev);
	if (pe == NULL)
		return DOCA_ERROR_NO_MEMORY;
	/* The layer's engine of the DPA, which DOCA programs do not see, drives it. */
	rc = rte_comch_pe_connect_ctx(pe, ctx->rctx);
	if (rc == -EEXIST || rc == -EALREADY)
		return DOCA_ERROR_ALREADY_EXIST;
	if (rc == 0)
		ctx->dpa = dpa_dev;
	return dc_ctx_err(ctx->rctx, rc, RTE_COMCH_CTX_STATE_IDLE);
}

doca_error_t
dc_dpa_ctx_stop(struct doca_ctx *ctx)
{
	enum rte_comch_ctx_state state = RTE_COMCH_CTX_STATE_IDLE;
	uint64_t deadline;
	int rc;

	rte_comch_ctx_get_state(ctx->rctx, &state);
	if (state == RTE_COMCH_CTX_STATE_IDLE) {
		DC_LOG(ERR, "the context is idle already");
		return DOCA_ERROR_BAD_STATE;
	}
	rc = rte_comch_ctx_stop(ctx->rctx);
	if (rc < 0 && rc != -EINPROGRESS)
		return rte_comch_doca_error_from_errno(rc);
	/*
	 * A DPA consumer's stop ends once the CPU producers of its MsgQ let go of
	 * it (they progressed, slept or stopped): drive its engine until then.
	 */
	deadline = rte_get_timer_cycles() + rte_get_timer_hz() * DC_DPA_STOP_MS / 1000;
	while (rte_comch_ctx_get_state(ctx->rctx, &state) == 0 &&
	       state != RTE_COMCH_CTX_STATE_IDLE && rte_get_timer_cycles() < deadline) {
		if (rte_comch_pe_progress(ctx->dpa->pe) == 0)
			rte_pause();
	}
	if (state == RTE_COMCH_CTX_STATE_IDLE)
		return DOCA_SUCCESS;
	DC_LOG(WARNING, "the DPA-side context is still stopping after %u ms: the CPU producers "
	       "of its MsgQ are not progressed; doca_ctx_stop() again later", DC_DPA_STOP_MS);
	return DOCA_ERROR_IN_PROGRESS;
}

/* ---------------------------------------------- consumer completion contexts */

doca_error_t
doca_comch_consumer_completion_create(struct doca_comch_consumer_completion **consumer_comp)
{
	struct doca_comch_consumer_completion *c;

	DC_NULL_ARG(consumer_comp);
	c = calloc(1, sizeof(*c));
	if (c == NULL)
		return DOCA_ERROR_NO_MEMORY;
	c->max_num_recv = DC_CC_DEFAULT_RECV;
	c->imm_len = RTE_COMCH_DPA_IMM_MAX;
	dc_obj_publish(&c->obj, c, DC_KIND_CONSUMER_COMPLETION);
	*consumer_comp = c;
	return DOCA_SUCCESS;
}

doca_error_t
doca_comch_consumer_completion_stop(struct doca_comch_consumer_completion *consumer_comp)
{
	int rc;

	DC_OBJ_ARG(consumer_comp, DC_KIND_CONSUMER_COMPLETION);
	if (consumer_comp->cq == NULL) {
		DC_LOG(ERR, "the consumer completion context is not started");
		return DOCA_ERROR_BAD_STATE;
	}
	rc = rte_comch_dpa_cq_destroy(consumer_comp->cq);
	if (rc == 0)
		consumer_comp->cq = NULL;
	return rte_comch_doca_error_from_errno(rc); /* -EBUSY: consumers attached, IN_USE */
}

doca_error_t
doca_comch_consumer_completion_destroy(struct doca_comch_consumer_completion *consumer_comp)
{
	doca_error_t ret;

	DC_OBJ_ARG(consumer_comp, DC_KIND_CONSUMER_COMPLETION);
	if (consumer_comp->cq != NULL) {
		ret = doca_comch_consumer_completion_stop(consumer_comp);
		if (ret != DOCA_SUCCESS)
			return ret;
	}
	if (consumer_comp->thread != NULL)
		consumer_comp->thread->users--;
	dc_obj_retire(&consumer_comp->obj, consumer_comp);
	return DOCA_SUCCESS;
}

/* DOCA_ERROR_BAD_STATE, logged, if c is started: its settings are the driver's then. */
static doca_error_t
dc_cc_idle(const struct doca_comch_consumer_completion *c, const char *func)
{
	if (c->cq == NULL)
		return DOCA_SUCCESS;
	rte_log(RTE_LOG_ERR, doca_compat_logtype,
		"doca: %s(): the consumer completion context is started\n", func);
	return DOCA_ERROR_BAD_STATE;
}

/* Check a setting's range: DOCA_ERROR_INVALID_VALUE (logged) outside [1, max]. */
static doca_error_t
dc_cc_range(uint32_t v, uint32_t max, const char *what, const char *func)
{
	if (v >= 1 && v <= max)
		return DOCA_SUCCESS;
	rte_log(RTE_LOG_ERR, doca_compat_logtype, "doca: %s(): %s %u is not 1 to %u\n", func,
		what, v, max);
	return DOCA_ERROR_INVALID_VALUE;
}

doca_error_t
doca_comch_consumer_completion_set_dpa_thread(struct doca_comch_consumer_completion *consumer_comp,
					      struct doca_dpa_thread *dpa_thread)
{
	doca_error_t ret;

	DC_OBJ_ARG(consumer_comp, DC_KIND_CONSUMER_COMPLETION);
	DC_OBJ_ARG(dpa_thread, DC_KIND_DPA_THREAD);
	ret = dc_cc_idle(consumer_comp, __func__);
	if (ret != DOCA_SUCCESS)
		return ret;
	if (consumer_comp->thread != NULL)
		consumer_comp->thread->users--;
	consumer_comp->thread = dpa_thread;
	dpa_thread->users++;
	return DOCA_SUCCESS;
}

doca_error_t
doca_comch_consumer_completion_set_max_num_recv(
	struct doca_comch_consumer_completion *consumer_comp, uint32_t max_num_recv)
{
	doca_error_t ret;

	DC_OBJ_ARG(consumer_comp, DC_KIND_CONSUMER_COMPLETION);
	ret = dc_cc_range(max_num_recv, RTE_COMCH_DPA_CQ_MAX_SIZE, "max_num_recv", __func__);
	if (ret == DOCA_SUCCESS)
		ret = dc_cc_idle(consumer_comp, __func__);
	if (ret == DOCA_SUCCESS)
		consumer_comp->max_num_recv = dc_dpa_pow2(max_num_recv);
	return ret;
}

doca_error_t
doca_comch_consumer_completion_get_max_num_recv(
	struct doca_comch_consumer_completion *consumer_comp, uint32_t *max_num_recv)
{
	DC_OBJ_ARG(consumer_comp, DC_KIND_CONSUMER_COMPLETION);
	DC_NULL_ARG(max_num_recv);
	*max_num_recv = consumer_comp->max_num_recv;
	return DOCA_SUCCESS;
}

doca_error_t
doca_comch_consumer_completion_set_max_num_consumers(
	struct doca_comch_consumer_completion *consumer_comp, uint32_t max_num_consumers)
{
	doca_error_t ret;

	DC_OBJ_ARG(consumer_comp, DC_KIND_CONSUMER_COMPLETION);
	ret = dc_cc_range(max_num_consumers, RTE_COMCH_DPA_MAX_OBJECTS, "max_num_consumers",
			  __func__);
	if (ret == DOCA_SUCCESS)
		ret = dc_cc_idle(consumer_comp, __func__);
	if (ret == DOCA_SUCCESS)
		consumer_comp->max_num_consumers = rte_align32pow2(max_num_consumers);
	return ret;
}

doca_error_t
doca_comch_consumer_completion_get_max_num_consumers(
	struct doca_comch_consumer_completion *consumer_comp, uint32_t *max_num_consumers)
{
	DC_OBJ_ARG(consumer_comp, DC_KIND_CONSUMER_COMPLETION);
	DC_NULL_ARG(max_num_consumers);
	*max_num_consumers = consumer_comp->max_num_consumers;
	return DOCA_SUCCESS;
}

doca_error_t
doca_comch_consumer_completion_set_imm_data_len(
	struct doca_comch_consumer_completion *consumer_comp, uint32_t imm_data_len)
{
	doca_error_t ret;

	DC_OBJ_ARG(consumer_comp, DC_KIND_CONSUMER_COMPLETION);
	ret = dc_cc_range(imm_data_len, RTE_COMCH_DPA_IMM_MAX, "imm_data_len", __func__);
	if (ret == DOCA_SUCCESS)
		ret = dc_cc_idle(consumer_comp, __func__);
	if (ret == DOCA_SUCCESS)
		consumer_comp->imm_len = imm_data_len;
	return ret;
}

doca_error_t
doca_comch_consumer_completion_get_imm_data_len(
	struct doca_comch_consumer_completion *consumer_comp, uint32_t *imm_data_len)
{
	DC_OBJ_ARG(consumer_comp, DC_KIND_CONSUMER_COMPLETION);
	DC_NULL_ARG(imm_data_len);
	*imm_data_len = consumer_comp->imm_len;
	return DOCA_SUCCESS;
}

doca_error_t
doca_comch_consumer_completion_start(struct doca_comch_consumer_completion *consumer_comp)
{
	doca_error_t ret;

	DC_OBJ_ARG(consumer_comp, DC_KIND_CONSUMER_COMPLETION);
	ret = dc_cc_idle(consumer_comp, __func__);
	if (ret != DOCA_SUCCESS)
		return ret;
	if (consumer_comp->thread == NULL) {
		DC_LOG(ERR, "no DPA thread (doca_comch_consumer_completion_set_dpa_thread())");
		return DOCA_ERROR_BAD_STATE;
	}
	return dc_dpa_cq_start(consumer_comp->thread->dpa, consumer_comp->thread,
			       consumer_comp->max_num_recv, consumer_comp->max_num_consumers,
			       consumer_comp->imm_len, &consumer_comp->cq);
}

doca_error_t
doca_comch_consumer_completion_get_dpa_handle(struct doca_comch_consumer_completion *consumer_comp,
					      doca_dpa_dev_comch_consumer_completion_t *handle)
{
	DC_OBJ_ARG(consumer_comp, DC_KIND_CONSUMER_COMPLETION);
	DC_NULL_ARG(handle);
	if (consumer_comp->cq == NULL) {
		DC_LOG(ERR, "the consumer completion context is not started");
		return DOCA_ERROR_BAD_STATE;
	}
	return rte_comch_doca_error_from_errno(rte_comch_dpa_cq_get_dpa_handle(consumer_comp->cq,
									       handle));
}

/* ------------------------------------------------ DPA consumers, DPA producers */

/* A DPA setter's error: -EBUSY is a context that is not IDLE. */
static doca_error_t
dc_dpa_set_err(int rc)
{
	return rc == -EBUSY ? DOCA_ERROR_BAD_STATE : rte_comch_doca_error_from_errno(rc);
}

doca_error_t
doca_comch_consumer_set_completion(struct doca_comch_consumer *consumer,
				   struct doca_comch_consumer_completion *consumer_comp,
				   uint32_t user_data)
{
	DC_OBJ_ARG(consumer, DC_KIND_CONSUMER);
	DC_OBJ_ARG(consumer_comp, DC_KIND_CONSUMER_COMPLETION);
	if (consumer_comp->cq == NULL) {
		DC_LOG(ERR, "the consumer completion context is not started");
		return DOCA_ERROR_BAD_STATE;
	}
	return dc_dpa_set_err(rte_comch_dpa_consumer_set_completion(dc_consumer_rte(consumer),
								    consumer_comp->cq, user_data));
}

doca_error_t
doca_comch_consumer_set_dev_max_num_recv(struct doca_comch_consumer *consumer,
					 uint32_t dev_max_num_recv)
{
	DC_OBJ_ARG(consumer, DC_KIND_CONSUMER);
	return dc_dpa_set_err(rte_comch_dpa_consumer_set_dev_max_num_recv(
		dc_consumer_rte(consumer), dev_max_num_recv));
}

doca_error_t
doca_comch_consumer_get_dpa_handle(struct doca_comch_consumer *consumer,
				   doca_dpa_dev_comch_consumer_t *dpa_consumer)
{
	DC_OBJ_ARG(consumer, DC_KIND_CONSUMER);
	DC_NULL_ARG(dpa_consumer);
	return rte_comch_doca_error_from_errno(
		rte_comch_dpa_consumer_get_dpa_handle(dc_consumer_rte(consumer), dpa_consumer));
}

doca_error_t
doca_comch_producer_set_dev_max_num_send(struct doca_comch_producer *producer,
					 uint32_t dev_max_num_send)
{
	DC_OBJ_ARG(producer, DC_KIND_PRODUCER);
	return dc_dpa_set_err(rte_comch_dpa_producer_set_dev_max_num_send(
		dc_producer_rte(producer), dev_max_num_send));
}

doca_error_t
doca_comch_producer_dpa_completion_attach(struct doca_comch_producer *producer,
					  struct doca_dpa_completion *dpa_comp)
{
	const struct doca_ctx *ctx;

	DC_OBJ_ARG(producer, DC_KIND_PRODUCER);
	DC_OBJ_ARG(dpa_comp, DC_KIND_DPA_COMPLETION);
	if (dpa_comp->cq == NULL) {
		DC_LOG(ERR, "the DPA completion context is not started");
		return DOCA_ERROR_BAD_STATE;
	}
	/* DOCA's completions carry the producer's user data. */
	ctx = (const struct doca_ctx *)producer;
	return dc_dpa_set_err(rte_comch_dpa_producer_completion_attach(dc_producer_rte(producer),
								       dpa_comp->cq,
								       ctx->user_data.u64));
}

doca_error_t
doca_comch_producer_get_dpa_handle(struct doca_comch_producer *producer,
				   doca_dpa_dev_comch_producer_t *dpa_producer)
{
	DC_OBJ_ARG(producer, DC_KIND_PRODUCER);
	DC_NULL_ARG(dpa_producer);
	return rte_comch_doca_error_from_errno(
		rte_comch_dpa_producer_get_dpa_handle(dc_producer_rte(producer), dpa_producer));
}
