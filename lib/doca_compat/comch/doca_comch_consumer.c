/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/* DOCA Comch consumers over rte_comch consumers; post-recv tasks are rte_comch's, cast. */

#include <errno.h>
#include <stdlib.h>

#include <rte_errno.h>

#include "doca_comch_consumer.h"
#include "doca_comch_private.h"
#include "doca_mmap_private.h"

#define DC_RTASK(t) ((struct rte_comch_consumer_task_post_recv *)(t))
#define DC_CRTASK(t) ((const struct rte_comch_consumer_task_post_recv *)(t))

struct doca_comch_consumer {
	struct doca_ctx ctx;	/* first */
	struct rte_comch_consumer *rc;
	doca_comch_consumer_task_post_recv_completion_cb_t recv_ok;
	doca_comch_consumer_task_post_recv_completion_cb_t recv_err;
};
DC_OBJ_FIRST(struct doca_comch_consumer, ctx.obj);

#define DC_CONS_CTX(c) rte_comch_consumer_as_ctx((c)->rc)
#define DC_CONS_IDLE(c, rc) dc_ctx_err(DC_CONS_CTX(c), (rc), RTE_COMCH_CTX_STATE_IDLE)

doca_error_t
doca_comch_consumer_create(struct doca_comch_connection *comch_connection,
			   struct doca_mmap *buf_mmap, struct doca_comch_consumer **consumer)
{
	struct doca_comch_consumer *c;
	doca_error_t ret;

	DC_NULL_ARG(comch_connection);
	DC_OBJ_ARG(buf_mmap, DC_KIND_MMAP);
	DC_NULL_ARG(consumer);
	c = calloc(1, sizeof(*c));
	if (c == NULL)
		return DOCA_ERROR_NO_MEMORY;
	c->rc = rte_comch_consumer_create(DC_CONN(comch_connection), buf_mmap->rm);
	if (c->rc == NULL) {
		ret = rte_errno == ENOTCONN ? DOCA_ERROR_BAD_STATE :
		      rte_errno == ENOSPC ? DOCA_ERROR_FULL :
		      rte_comch_doca_error_from_errno(-rte_errno);
		free(c);
		return ret;
	}
	dc_ctx_init(&c->ctx, DC_CTX_CONSUMER, DC_CONS_CTX(c), NULL);
	*consumer = c;
	return DOCA_SUCCESS;
}

doca_error_t
doca_comch_consumer_destroy(struct doca_comch_consumer *consumer)
{
	int rc;

	DC_OBJ_ARG(consumer, DC_KIND_CONSUMER);
	rc = rte_comch_consumer_destroy(consumer->rc);
	if (rc != 0)
		return DC_CONS_IDLE(consumer, rc);
	dc_ctx_fini(&consumer->ctx, consumer);
	return DOCA_SUCCESS;
}

struct doca_ctx *
doca_comch_consumer_as_ctx(struct doca_comch_consumer *consumer)
{
	return DC_BAD_OBJ(consumer, DC_KIND_CONSUMER) ? NULL : &consumer->ctx;
}

doca_error_t
doca_comch_consumer_get_id(const struct doca_comch_consumer *consumer, uint32_t *id)
{
	DC_OBJ_ARG(consumer, DC_KIND_CONSUMER);
	return rte_comch_doca_error_from_errno(rte_comch_consumer_get_id(consumer->rc, id));
}

doca_error_t
doca_comch_consumer_set_imm_data_len(struct doca_comch_consumer *consumer, uint32_t imm_data_len)
{
	DC_OBJ_ARG(consumer, DC_KIND_CONSUMER);
	return DC_CONS_IDLE(consumer, rte_comch_consumer_set_imm_data_len(consumer->rc,
									  imm_data_len));
}

doca_error_t
doca_comch_consumer_get_imm_data_len(const struct doca_comch_consumer *consumer,
				     uint32_t *imm_data_len)
{
	DC_OBJ_ARG(consumer, DC_KIND_CONSUMER);
	return rte_comch_doca_error_from_errno(
		rte_comch_consumer_get_imm_data_len(consumer->rc, imm_data_len));
}

static void
dc_consumer_recv_ok(struct rte_comch_consumer_task_post_recv *task,
		    union rte_comch_data task_ud, union rte_comch_data ctx_ud)
{
	struct doca_comch_consumer *c = ctx_ud.ptr;

	c->recv_ok((struct doca_comch_consumer_task_post_recv *)task, dc_data_from(task_ud),
		   c->ctx.user_data);
}

static void
dc_consumer_recv_err(struct rte_comch_consumer_task_post_recv *task,
		     union rte_comch_data task_ud, union rte_comch_data ctx_ud)
{
	struct doca_comch_consumer *c = ctx_ud.ptr;

	c->recv_err((struct doca_comch_consumer_task_post_recv *)task, dc_data_from(task_ud),
		    c->ctx.user_data);
}

doca_error_t
doca_comch_consumer_task_post_recv_set_conf(
	struct doca_comch_consumer *consumer,
	doca_comch_consumer_task_post_recv_completion_cb_t task_completion_cb,
	doca_comch_consumer_task_post_recv_completion_cb_t task_error_cb,
	uint32_t num_post_recv_tasks)
{
	int rc;

	DC_OBJ_ARG(consumer, DC_KIND_CONSUMER);
	DC_NULL_ARG(task_completion_cb);
	DC_NULL_ARG(task_error_cb);
	rc = rte_comch_consumer_task_post_recv_set_conf(consumer->rc, dc_consumer_recv_ok,
							dc_consumer_recv_err, num_post_recv_tasks);
	if (rc == 0) {
		consumer->recv_ok = task_completion_cb;
		consumer->recv_err = task_error_cb;
	}
	return DC_CONS_IDLE(consumer, rc);
}

doca_error_t
doca_comch_consumer_task_post_recv_alloc_init(struct doca_comch_consumer *consumer,
					      struct doca_buf *buf,
					      struct doca_comch_consumer_task_post_recv **task)
{
	int rc;

	DC_OBJ_ARG_FAST(consumer, DC_KIND_CONSUMER);
	rc = rte_comch_consumer_task_post_recv_alloc_init(consumer->rc, (struct rte_comch_buf *)buf,
		(struct rte_comch_consumer_task_post_recv **)task);
	return dc_ctx_err(DC_CONS_CTX(consumer), rc, RTE_COMCH_CTX_STATE_RUNNING);
}

void
doca_comch_consumer_task_post_recv_set_buf(struct doca_comch_consumer_task_post_recv *task,
					   struct doca_buf *buf)
{
	int rc;

	if (task == NULL)
		return;
	rc = rte_comch_consumer_task_post_recv_set_buf(DC_RTASK(task), (struct rte_comch_buf *)buf);
	if (rc != 0)
		DC_LOG(ERR, "task %p: buffer not set: %s", (void *)task, strerror(-rc));
}

const uint8_t *
doca_comch_consumer_task_post_recv_get_imm_data(
	const struct doca_comch_consumer_task_post_recv *task)
{
	uint32_t len = 0;
	const uint8_t *imm = task == NULL ? NULL :
		rte_comch_consumer_task_post_recv_get_imm_data(DC_CRTASK(task), &len);

	return len == 0 ? NULL : imm; /* NULL if none */
}

uint32_t
doca_comch_consumer_task_post_recv_get_imm_data_len(
	const struct doca_comch_consumer_task_post_recv *task)
{
	uint32_t len = 0;

	if (task != NULL &&
	    rte_comch_consumer_task_post_recv_get_imm_data(DC_CRTASK(task), &len) == NULL)
		len = 0;
	return len;
}

uint32_t
doca_comch_consumer_task_post_recv_get_producer_id(
	const struct doca_comch_consumer_task_post_recv *task)
{
	uint32_t id = 0;

	if (task != NULL)
		rte_comch_consumer_task_post_recv_get_producer_id(DC_CRTASK(task), &id);
	return id;
}

doca_error_t
dc_consumer_wrap(struct rte_comch_consumer *rc, struct doca_comch_consumer **consumer)
{
	struct doca_comch_consumer *c = calloc(1, sizeof(*c));

	if (c == NULL) {
		rte_comch_consumer_destroy(rc);
		return DOCA_ERROR_NO_MEMORY;
	}
	c->rc = rc;
	dc_ctx_init(&c->ctx, DC_CTX_CONSUMER, DC_CONS_CTX(c), NULL);
	*consumer = c;
	return DOCA_SUCCESS;
}

struct rte_comch_consumer *
dc_consumer_rte(const struct doca_comch_consumer *consumer)
{
	return consumer->rc;
}
