/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The CPU-side configuration of DPA consumers and DPA producers
 * (rte_comch_dpa_msgq.h). They take the library's objects and reach the
 * driver's through the contract's accessors, which also say whether the object
 * belongs to a "dpa:" device at all. The fields they set are read by the
 * DPA side under the object's lock, so they are written under it too.
 */

#include <errno.h>

#include <rte_comch_consumer.h>
#include <rte_comch_ctx.h>
#include <rte_comch_producer.h>

#include "rte_comch_dpa_msgq.h"
#include "dpa_drv_private.h"

/* The DPA consumer behind consumer, or NULL (logged, naming func). */
static struct dpa_cons *
dpa_conf_consumer(const struct rte_comch_consumer *consumer, const char *func)
{
	struct dpa_cons *c;

	if (consumer == NULL) {
		DPA_LOG_FN(ERR, func, "consumer is NULL");
		return NULL;
	}
	c = rte_comch_drv_consumer_priv(consumer, &dpa_driver);
	if (c == NULL) {
		DPA_LOG_FN(ERR, func, "not a DPA consumer: a consumer of another driver's device");
		return NULL;
	}
	if (!c->q->dpa_consumer) {
		DPA_LOG_FN(ERR, func, "not a DPA consumer: consumer %u of its MsgQ is on the CPU",
			   c->id);
		return NULL;
	}
	return c;
}

/* The DPA producer behind producer, or NULL (logged, naming func). */
static struct dpa_prod *
dpa_conf_producer(const struct rte_comch_producer *producer, const char *func)
{
	struct dpa_prod *p;

	if (producer == NULL) {
		DPA_LOG_FN(ERR, func, "producer is NULL");
		return NULL;
	}
	p = rte_comch_drv_producer_priv(producer, &dpa_driver);
	if (p == NULL) {
		DPA_LOG_FN(ERR, func, "not a DPA producer: a producer of another driver's device");
		return NULL;
	}
	if (p->q->dpa_consumer) {
		DPA_LOG_FN(ERR, func, "not a DPA producer: producer %u of its MsgQ is on the CPU",
			   p->id);
		return NULL;
	}
	return p;
}

/* The context is idle (0), or -EBUSY; and the caller no DPA program (-EPERM). */
static int
dpa_conf_idle(struct rte_comch_ctx *ctx, const char *what, uint32_t id, const char *func)
{
	enum rte_comch_ctx_state st;
	int ret;

	if (rte_comch_dpa_in_program()) {
		DPA_LOG_FN(ERR, func, "called from a DPA program");
		return -EPERM;
	}
	ret = rte_comch_ctx_get_state(ctx, &st);
	if (ret < 0) {
		DPA_LOG_FN(ERR, func, "%s %u: no state: %d", what, id, ret);
		return ret;
	}
	if (st != RTE_COMCH_CTX_STATE_IDLE) {
		DPA_LOG_FN(ERR, func, "%s %u is not idle (state %d)", what, id, (int)st);
		return -EBUSY;
	}
	return 0;
}

/*
 * The checks of a completion setter: cq is a live completion context of dpa
 * (-EINVAL), then those of dpa_conf_idle(). Logged, naming func.
 */
static int
dpa_conf_cq_idle(const struct rte_comch_dpa_cq *cq, const struct rte_comch_dpa *dpa,
		 struct rte_comch_ctx *ctx, const char *what, uint32_t id, const char *func)
{
	int ret = rte_comch_dpa_cq_check(cq, func);

	if (ret < 0)
		return ret;
	if (rte_comch_dpa_cq_get_dpa(cq) != dpa) {
		DPA_LOG_FN(ERR, func, "cq belongs to dpa %u, the MsgQ uses dpa %u",
			   rte_comch_dpa_tag(rte_comch_dpa_cq_get_dpa(cq)), rte_comch_dpa_tag(dpa));
		return -EINVAL;
	}
	return dpa_conf_idle(ctx, what, id, func);
}

/*
 * The checks of a dev_max_num_recv or _send setter: max is 1 to the largest
 * completion context (-EINVAL), then those of dpa_conf_idle(). Logged, naming func.
 */
static int
dpa_conf_max_idle(uint32_t max, struct rte_comch_ctx *ctx, const char *what, uint32_t id,
		  const char *func)
{
	if (max == 0 || max > RTE_COMCH_DPA_CQ_MAX_SIZE) {
		DPA_LOG_FN(ERR, func, "%u is not 1 to %u", max, RTE_COMCH_DPA_CQ_MAX_SIZE);
		return -EINVAL;
	}
	return dpa_conf_idle(ctx, what, id, func);
}

int
rte_comch_dpa_consumer_set_completion(struct rte_comch_consumer *consumer,
				      struct rte_comch_dpa_cq *cq, uint64_t user_data)
{
	struct dpa_cons *c = dpa_conf_consumer(consumer, __func__);
	int ret;

	if (c == NULL)
		return -EINVAL;
	ret = dpa_conf_cq_idle(cq, c->q->dpa, rte_comch_consumer_as_ctx(consumer), "consumer",
			       c->id, __func__);
	if (ret < 0)
		return ret;
	/* The context counts its consumers (it is not destroyed under one), up to its max. */
	if (cq != c->cq) {
		if (rte_comch_dpa_cq_consumer_attach(cq) < 0) {
			DPA_LOG(ERR, "consumer %u: its completion context has its max_consumers "
				"already", c->id);
			return -ENOSPC;
		}
		if (c->cq != NULL)
			rte_comch_dpa_cq_consumer_detach(c->cq);
	}
	comch_spin_lock(&c->lock);
	c->cq = cq;
	c->user_data = user_data;
	comch_spin_unlock(&c->lock);
	return 0;
}

int
rte_comch_dpa_consumer_set_dev_max_num_recv(struct rte_comch_consumer *consumer, uint32_t max)
{
	struct dpa_cons *c = dpa_conf_consumer(consumer, __func__);
	int ret;

	if (c == NULL)
		return -EINVAL;
	ret = dpa_conf_max_idle(max, rte_comch_consumer_as_ctx(consumer), "consumer", c->id,
				__func__);
	if (ret < 0)
		return ret;
	comch_spin_lock(&c->lock);
	c->max_recv = max;
	comch_spin_unlock(&c->lock);
	return 0;
}

int
rte_comch_dpa_consumer_get_dpa_handle(const struct rte_comch_consumer *consumer,
				      rte_comch_dpa_handle_t *handle)
{
	struct dpa_cons *c = dpa_conf_consumer(consumer, __func__);
	int ret;

	if (c == NULL)
		return -EINVAL;
	ret = dpa_out_check(handle, "handle", __func__);
	if (ret < 0)
		return ret;
	*handle = c->handle;
	return 0;
}

int
rte_comch_dpa_producer_set_dev_max_num_send(struct rte_comch_producer *producer, uint32_t max)
{
	struct dpa_prod *p = dpa_conf_producer(producer, __func__);
	int ret;

	if (p == NULL)
		return -EINVAL;
	ret = dpa_conf_max_idle(max, rte_comch_producer_as_ctx(producer), "producer", p->id,
				__func__);
	if (ret < 0)
		return ret;
	comch_spin_lock(&p->lock);
	p->max_send = max;
	comch_spin_unlock(&p->lock);
	return 0;
}

int
rte_comch_dpa_producer_completion_attach(struct rte_comch_producer *producer,
					 struct rte_comch_dpa_cq *cq, uint64_t user_data)
{
	struct dpa_prod *p = dpa_conf_producer(producer, __func__);
	int ret;

	if (p == NULL)
		return -EINVAL;
	ret = dpa_conf_cq_idle(cq, p->q->dpa, rte_comch_producer_as_ctx(producer), "producer",
			       p->id, __func__);
	if (ret < 0)
		return ret;
	comch_spin_lock(&p->lock);
	p->cq = cq;
	p->user_data = user_data;
	comch_spin_unlock(&p->lock);
	return 0;
}

int
rte_comch_dpa_producer_get_dpa_handle(const struct rte_comch_producer *producer,
				      rte_comch_dpa_handle_t *handle)
{
	struct dpa_prod *p = dpa_conf_producer(producer, __func__);
	int ret;

	if (p == NULL)
		return -EINVAL;
	ret = dpa_out_check(handle, "handle", __func__);
	if (ret < 0)
		return ret;
	*handle = p->handle;
	return 0;
}
