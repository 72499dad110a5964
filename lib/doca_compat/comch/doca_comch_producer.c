/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/* DOCA Comch producers over rte_comch producers; send tasks are rte_comch's, cast. */

#include <errno.h>
#include <stdlib.h>

#include <rte_errno.h>

#include "doca_comch_private.h"
#include "doca_comch_producer.h"

#define DC_PTASK(t) ((struct rte_comch_producer_task_send *)(t))
#define DC_CPTASK(t) ((const struct rte_comch_producer_task_send *)(t))

struct doca_comch_producer {
	struct doca_ctx ctx;	/* first */
	struct rte_comch_producer *rp;
	doca_comch_producer_task_send_completion_cb_t send_ok;
	doca_comch_producer_task_send_completion_cb_t send_err;
};
DC_OBJ_FIRST(struct doca_comch_producer, ctx.obj);

#define DC_PROD_CTX(p) rte_comch_producer_as_ctx((p)->rp)

doca_error_t
doca_comch_producer_create(struct doca_comch_connection *comch_connection,
			   struct doca_comch_producer **producer)
{
	struct doca_comch_producer *p;
	doca_error_t ret;

	DC_NULL_ARG(comch_connection);
	DC_NULL_ARG(producer);
	p = calloc(1, sizeof(*p));
	if (p == NULL)
		return DOCA_ERROR_NO_MEMORY;
	p->rp = rte_comch_producer_create(DC_CONN(comch_connection));
	if (p->rp == NULL) {
		ret = rte_errno == ENOTCONN ? DOCA_ERROR_BAD_STATE :
		      rte_errno == ENOSPC ? DOCA_ERROR_FULL :
		      rte_comch_doca_error_from_errno(-rte_errno);
		free(p);
		return ret;
	}
	dc_ctx_init(&p->ctx, DC_CTX_PRODUCER, DC_PROD_CTX(p), NULL);
	*producer = p;
	return DOCA_SUCCESS;
}

doca_error_t
doca_comch_producer_destroy(struct doca_comch_producer *producer)
{
	int rc;

	DC_OBJ_ARG(producer, DC_KIND_PRODUCER);
	rc = rte_comch_producer_destroy(producer->rp);
	if (rc != 0)
		return dc_ctx_err(DC_PROD_CTX(producer), rc, RTE_COMCH_CTX_STATE_IDLE);
	dc_ctx_fini(&producer->ctx, producer);
	return DOCA_SUCCESS;
}

struct doca_ctx *
doca_comch_producer_as_ctx(struct doca_comch_producer *producer)
{
	return DC_BAD_OBJ(producer, DC_KIND_PRODUCER) ? NULL : &producer->ctx;
}

doca_error_t
doca_comch_producer_get_id(const struct doca_comch_producer *producer, uint32_t *id)
{
	DC_OBJ_ARG(producer, DC_KIND_PRODUCER);
	return rte_comch_doca_error_from_errno(rte_comch_producer_get_id(producer->rp, id));
}

static void
dc_producer_send_ok(struct rte_comch_producer_task_send *task, union rte_comch_data task_ud,
		    union rte_comch_data ctx_ud)
{
	struct doca_comch_producer *p = ctx_ud.ptr;

	p->send_ok((struct doca_comch_producer_task_send *)task, dc_data_from(task_ud),
		   p->ctx.user_data);
}

static void
dc_producer_send_err(struct rte_comch_producer_task_send *task, union rte_comch_data task_ud,
		     union rte_comch_data ctx_ud)
{
	struct doca_comch_producer *p = ctx_ud.ptr;

	p->send_err((struct doca_comch_producer_task_send *)task, dc_data_from(task_ud),
		    p->ctx.user_data);
}

doca_error_t
doca_comch_producer_task_send_set_conf(struct doca_comch_producer *producer,
				       doca_comch_producer_task_send_completion_cb_t task_completion_cb,
				       doca_comch_producer_task_send_completion_cb_t task_error_cb,
				       uint32_t num_send_tasks)
{
	int rc;

	DC_OBJ_ARG(producer, DC_KIND_PRODUCER);
	DC_NULL_ARG(task_completion_cb);
	DC_NULL_ARG(task_error_cb);
	rc = rte_comch_producer_task_send_set_conf(producer->rp, dc_producer_send_ok,
						   dc_producer_send_err, num_send_tasks);
	if (rc == 0) {
		producer->send_ok = task_completion_cb;
		producer->send_err = task_error_cb;
	}
	return dc_ctx_err(DC_PROD_CTX(producer), rc, RTE_COMCH_CTX_STATE_IDLE);
}

/*
 * Per message, under the inline doca_comch_producer_task_send_alloc_init():
 * the handle checked inline, then a tail call (the arguments stay where they
 * are). rte_comch checks the buffer, the immediate data and the task pointer.
 */
int
rte_comch_doca_producer_task_send_alloc_init(struct doca_comch_producer *producer,
					     const struct doca_buf *buf, const uint8_t *imm_data,
					     uint32_t imm_data_len, uint32_t consumer_id,
					     struct doca_comch_producer_task_send **task)
{
	if (DC_BAD_OBJ_FAST(producer, DC_KIND_PRODUCER))
		return -EINVAL;
	/* rte_comch never writes through the buffer of a send task. */
	return rte_comch_producer_task_send_alloc_init(producer->rp,
		(struct rte_comch_buf *)(uintptr_t)buf, imm_data, imm_data_len, consumer_id,
		(struct rte_comch_producer_task_send **)task);
}

doca_error_t
rte_comch_doca_producer_alloc_err(struct doca_comch_producer *producer, int rc)
{
	/* Logged by the call that refused it; not read through if it is no producer. */
	if (producer == NULL || !dc_kind_ok(producer->ctx.obj.magic, DC_KIND_PRODUCER))
		return DOCA_ERROR_INVALID_VALUE;
	if (rc == -EMSGSIZE)
		return DOCA_ERROR_INVALID_VALUE; /* immediate data too long, as DOCA says */
	return dc_ctx_err_slow(DC_PROD_CTX(producer), rc, RTE_COMCH_CTX_STATE_RUNNING);
}

const struct doca_buf *
doca_comch_producer_task_send_get_buf(const struct doca_comch_producer_task_send *task)
{
	return task == NULL ? NULL :
		(const struct doca_buf *)rte_comch_producer_task_send_get_buf(DC_CPTASK(task));
}

void
doca_comch_producer_task_send_set_buf(struct doca_comch_producer_task_send *task,
				      const struct doca_buf *buf)
{
	int rc;

	if (task == NULL)
		return;
	rc = rte_comch_producer_task_send_set_buf(DC_PTASK(task),
						  (struct rte_comch_buf *)(uintptr_t)buf);
	if (rc != 0)
		DC_LOG(ERR, "task %p: buffer not set: %s", (void *)task, strerror(-rc));
}

const uint8_t *
doca_comch_producer_task_send_get_imm_data(const struct doca_comch_producer_task_send *task)
{
	uint32_t len = 0;
	const uint8_t *imm = task == NULL ? NULL :
		rte_comch_producer_task_send_get_imm_data(DC_CPTASK(task), &len);

	return len == 0 ? NULL : imm; /* NULL if none */
}

uint32_t
doca_comch_producer_task_send_get_imm_data_len(const struct doca_comch_producer_task_send *task)
{
	uint32_t len = 0;

	if (task != NULL && rte_comch_producer_task_send_get_imm_data(DC_CPTASK(task), &len) == NULL)
		len = 0;
	return len;
}

void
doca_comch_producer_task_send_set_imm_data(struct doca_comch_producer_task_send *task,
					   const uint8_t *imm_data, uint32_t imm_data_len)
{
	int rc;

	if (task == NULL)
		return;
	rc = rte_comch_producer_task_send_set_imm_data(DC_PTASK(task), imm_data, imm_data_len);
	if (rc != 0)
		DC_LOG(ERR, "task %p: immediate data not set: %s", (void *)task, strerror(-rc));
}

uint32_t
doca_comch_producer_task_send_get_consumer_id(const struct doca_comch_producer_task_send *task)
{
	uint32_t id = 0;

	if (task != NULL)
		rte_comch_producer_task_send_get_consumer_id(DC_CPTASK(task), &id);
	return id;
}

void
doca_comch_producer_task_send_set_consumer_id(struct doca_comch_producer_task_send *task,
					      const uint32_t consumer_id)
{
	if (task != NULL && rte_comch_producer_task_send_set_consumer_id(DC_PTASK(task),
									 consumer_id) != 0)
		DC_LOG(ERR, "task %p: consumer id not set", (void *)task);
}

doca_error_t
dc_producer_wrap(struct rte_comch_producer *rp, struct doca_comch_producer **producer)
{
	struct doca_comch_producer *p = calloc(1, sizeof(*p));

	if (p == NULL) {
		rte_comch_producer_destroy(rp);
		return DOCA_ERROR_NO_MEMORY;
	}
	p->rp = rp;
	dc_ctx_init(&p->ctx, DC_CTX_PRODUCER, DC_PROD_CTX(p), NULL);
	*producer = p;
	return DOCA_SUCCESS;
}

struct rte_comch_producer *
dc_producer_rte(const struct doca_comch_producer *producer)
{
	return producer->rp;
}
