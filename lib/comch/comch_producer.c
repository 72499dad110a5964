/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Producer: sends to consumers on the other side of a connection. The driver
 * copies each message at submit, or refuses it; the completion callback follows
 * in the producer's next progress.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_mempool.h>

#include "comch_private.h"

static struct rte_comch_producer *
comch_producer_of(struct rte_comch_ctx *ctx)
{
	return container_of(ctx, struct rte_comch_producer, ctx);
}

static int
comch_producer_start(struct rte_comch_ctx *ctx)
{
	struct rte_comch_producer *p = comch_producer_of(ctx);
	int rc;

	rc = comch_fast_start(ctx, &p->tasks, sizeof(struct rte_comch_producer_task_send),
			      p->ok_cb != NULL, p->conn, "producer");
	if (rc < 0)
		return rc;
	p->starved = false;
	comch_ctx_set_state(ctx, RTE_COMCH_CTX_STATE_RUNNING);
	return 0;
}

static int
comch_producer_stop(struct rte_comch_ctx *ctx)
{
	struct rte_comch_producer *p = comch_producer_of(ctx);

	comch_ctx_set_state(ctx, RTE_COMCH_CTX_STATE_STOPPING);
	if (comch_fast_tasks_inflight(&p->tasks) != 0)
		return -EINPROGRESS; /* their callbacks come in progress */
	comch_ctx_set_state(ctx, RTE_COMCH_CTX_STATE_IDLE);
	return 0;
}

static int
comch_producer_progress(struct rte_comch_ctx *ctx, bool slow, uint64_t now)
{
	struct rte_comch_producer *p = comch_producer_of(ctx);
	struct rte_comch_producer_task_send *t;
	uint32_t n = comch_fast_tasks_inflight(&p->tasks);
	int did = 0;

	/* Wake the consumers first: the callbacks below are ours, not theirs. */
	if (n != 0 && ctx->dev->ops->producer_flush != NULL)
		ctx->dev->ops->producer_flush(p);
	/* Only what was done before this round: callbacks may submit more. */
	while (n-- > 0) {
		t = comch_fast_tasks_pop(&p->tasks);
		t->base.status = 0;
		ctx->nb_inflight--;
		comch_pe_add_inflight(ctx->pe, -1);
		comch_pe_enter_cb(ctx->pe);
		p->ok_cb(t, t->base.user_data, ctx->user_data);
		comch_pe_leave_cb(ctx->pe);
		did = 1;
	}
	if (ctx->state == RTE_COMCH_CTX_STATE_STOPPING && comch_fast_tasks_inflight(&p->tasks) == 0) {
		comch_ctx_set_state(ctx, RTE_COMCH_CTX_STATE_IDLE);
		did = 1;
	}
	return did;
}

static int
comch_producer_arm(struct rte_comch_ctx *ctx)
{
	struct rte_comch_producer *p = comch_producer_of(ctx);

	/*
	 * Completions are due at the next progress. A starved producer waits for
	 * the peer to post buffers, and posting rings nobody: it keeps polling.
	 */
	return comch_fast_tasks_inflight(&p->tasks) != 0 ||
	       (p->starved && !comch_fast_conn_dead(p->conn)) ? -EAGAIN : 0;
}

static const struct comch_ctx_ops comch_producer_ops = {
	.start = comch_producer_start,
	.stop = comch_producer_stop,
	.progress = comch_producer_progress,
	.arm = comch_producer_arm,
};

int
comch_producer_submit(struct rte_comch_producer_task_send *t)
{
	struct rte_comch_producer *p = comch_producer_of(t->base.ctx);
	const struct rte_comch_buf *buf = t->buf;
	int rc;

	rc = comch_fast_submit_check(&p->ctx, p->conn, p->id, "producer");
	if (unlikely(rc < 0))
		return rc;
	rc = p->ctx.dev->ops->producer_send(p, t->consumer_id, buf != NULL ? buf->data : NULL,
					    buf != NULL ? buf->data_len : 0, t->imm, t->imm_len);
	p->starved = rc == -EAGAIN;
	if (unlikely(rc < 0))
		return rc;
	comch_fast_tasks_push(&p->tasks, t);
	t->base.status = -EINPROGRESS;
	p->ctx.nb_inflight++;
	comch_pe_add_inflight(p->ctx.pe, 1);
	return 0;
}

struct rte_comch_producer *
rte_comch_producer_create(struct rte_comch_connection *conn)
{
	struct rte_comch_producer *p;
	uint32_t id = 0, count = 0;
	int rc;

	if (COMCH_BAD_CONN(conn)) {
		rte_errno = EINVAL;
		return NULL;
	}
	id = COMCH_FAST_FREE_ID(&conn->producers, rte_comch_producer, &count);
	rc = comch_fast_attach(conn, count, conn->ctrl->ctx.dev->info.max_producers,
			       "producer_create");
	if (rc < 0) {
		rte_errno = -rc;
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (p == NULL) {
		comch_fast_detach(conn);
		rte_errno = ENOMEM;
		return NULL;
	}
	comch_ctx_init(&p->ctx, &comch_producer_ops, COMCH_CTX_PRODUCER, conn->ctrl->ctx.dev);
	p->conn = conn;
	p->id = id;
	p->tasks.nb = RTE_MIN((uint32_t)RTE_COMCH_DEFAULT_SEND_TASKS,
			      conn->ctrl->ctx.dev->info.max_fast_tasks);
	if (p->ctx.dev->ops->producer_create != NULL) {
		rc = p->ctx.dev->ops->producer_create(p);
		if (rc < 0) {
			free(p);
			comch_fast_detach(conn);
			rte_errno = -rc;
			return NULL;
		}
	}
	TAILQ_INSERT_TAIL(&conn->producers, p, next);
	return p;
}

static void
comch_producer_drv_release(struct rte_comch_ctx *ctx)
{
	if (ctx->dev->ops->producer_destroy != NULL)
		ctx->dev->ops->producer_destroy(comch_producer_of(ctx));
}

int
rte_comch_producer_destroy(struct rte_comch_producer *producer)
{
	int rc;

	if (COMCH_BAD_PRODUCER(producer))
		return -EINVAL;
	rc = comch_fast_destroy(&producer->ctx, &producer->tasks, "producer destroy",
				comch_producer_drv_release);
	if (rc < 0)
		return rc;
	TAILQ_REMOVE(&producer->conn->producers, producer, next);
	comch_fast_detach(producer->conn);
	comch_obj_kill(&producer->ctx.magic);
	free(producer);
	return 0;
}

struct rte_comch_ctx *
rte_comch_producer_as_ctx(struct rte_comch_producer *producer)
{
	if (COMCH_BAD_PRODUCER(producer)) {
		rte_errno = EINVAL;
		return NULL;
	}
	return &producer->ctx;
}

int
rte_comch_producer_get_id(const struct rte_comch_producer *producer, uint32_t *id)
{
	if (COMCH_BAD_PRODUCER(producer) || COMCH_NULL_ARG(id))
		return -EINVAL;
	*id = producer->id;
	return 0;
}

int
rte_comch_producer_task_send_set_conf(struct rte_comch_producer *producer,
				      rte_comch_producer_task_send_cb_t completion_cb,
				      rte_comch_producer_task_send_cb_t error_cb, uint32_t num_tasks)
{
	int rc;

	if (COMCH_BAD_PRODUCER(producer))
		return -EINVAL;
	rc = comch_fast_set_conf(&producer->ctx, &producer->tasks,
				 completion_cb != NULL && error_cb != NULL, num_tasks,
				 "producer task_send_set_conf");
	if (rc < 0)
		return rc;
	producer->ok_cb = completion_cb;
	producer->err_cb = error_cb;
	return 0;
}

/* Checks of what a send carries; shared by alloc_init and the setters. */
static int
comch_producer_check_payload(const struct rte_comch_dev *dev, const struct rte_comch_buf *buf,
			     const uint8_t *imm, uint32_t imm_len)
{
	if (imm == NULL && imm_len > 0) {
		COMCH_LOG(ERR, "immediate data is NULL with a length of %u", imm_len);
		return -EINVAL;
	}
	if (imm_len > dev->info.max_imm_data_len) {
		COMCH_LOG(ERR, "immediate data of %u bytes is above the device's %u",
			  imm_len, dev->info.max_imm_data_len);
		return -EMSGSIZE;
	}
	if (buf != NULL && buf->data_len > dev->info.max_buf_size) {
		COMCH_LOG(ERR, "message of %zu bytes is above the device's %" PRIu64,
			  buf->data_len, dev->info.max_buf_size);
		return -EMSGSIZE;
	}
	return 0;
}

int
rte_comch_producer_task_send_alloc_init(struct rte_comch_producer *producer,
					struct rte_comch_buf *buf, const uint8_t *imm_data,
					uint32_t imm_len, uint32_t consumer_id,
					struct rte_comch_producer_task_send **task)
{
	struct rte_comch_producer_task_send *t;
	int rc;

	if (COMCH_BAD_PRODUCER(producer))
		return -EINVAL;
	if (unlikely(task == NULL)) {
		COMCH_LOG(ERR, "task is NULL");
		return -EINVAL;
	}
	rc = comch_producer_check_payload(producer->ctx.dev, buf, imm_data, imm_len);
	if (unlikely(rc < 0))
		return rc;
	if (unlikely(producer->ctx.state != RTE_COMCH_CTX_STATE_RUNNING)) {
		COMCH_LOG(ERR, "producer %u: not running", producer->id);
		return -EBUSY;
	}
	if (unlikely(comch_task_get(producer->tasks.pool, (void **)&t) < 0))
		return -ENOMEM;
	t->base.ctx = &producer->ctx;
	t->base.user_data.u64 = 0;
	t->base.status = 0;
	t->base.type = COMCH_TASK_PRODUCER_SEND;
	t->base.allocated = true;
	t->buf = buf;
	t->consumer_id = consumer_id;
	t->imm_len = imm_len;
	if (imm_len > 0)
		memcpy(t->imm, imm_data, imm_len);
	*task = t;
	return 0;
}

struct rte_comch_task *
rte_comch_producer_task_send_as_task(struct rte_comch_producer_task_send *task)
{
	if (COMCH_NULL_ARG(task)) {
		rte_errno = EINVAL;
		return NULL;
	}
	return &task->base;
}

struct rte_comch_buf *
rte_comch_producer_task_send_get_buf(const struct rte_comch_producer_task_send *task)
{
	if (COMCH_NULL_ARG(task)) {
		rte_errno = EINVAL;
		return NULL;
	}
	return task->buf;
}

/* Setters refuse a NULL task or one in flight. */
static int
comch_producer_task_check_idle(const struct rte_comch_producer_task_send *task)
{
	if (COMCH_NULL_ARG(task))
		return -EINVAL;
	if (task->base.status == -EINPROGRESS) {
		COMCH_LOG(ERR, "task %p is in flight", (const void *)task);
		return -EBUSY;
	}
	return 0;
}

int
rte_comch_producer_task_send_set_buf(struct rte_comch_producer_task_send *task,
				     struct rte_comch_buf *buf)
{
	int rc = comch_producer_task_check_idle(task);

	if (rc == 0)
		rc = comch_producer_check_payload(task->base.ctx->dev, buf, NULL, 0);
	if (rc == 0)
		task->buf = buf;
	return rc;
}

const uint8_t *
rte_comch_producer_task_send_get_imm_data(const struct rte_comch_producer_task_send *task,
					  uint32_t *len)
{
	if (COMCH_NULL_ARG(task)) {
		rte_errno = EINVAL;
		return NULL;
	}
	if (len != NULL)
		*len = task->imm_len;
	return task->imm;
}

int
rte_comch_producer_task_send_set_imm_data(struct rte_comch_producer_task_send *task,
					  const uint8_t *imm_data, uint32_t len)
{
	int rc = comch_producer_task_check_idle(task);

	if (rc == 0)
		rc = comch_producer_check_payload(task->base.ctx->dev, NULL, imm_data, len);
	if (rc < 0)
		return rc;
	if (len > 0)
		memcpy(task->imm, imm_data, len);
	task->imm_len = len;
	return 0;
}

int
rte_comch_producer_task_send_get_consumer_id(const struct rte_comch_producer_task_send *task,
					     uint32_t *consumer_id)
{
	if (COMCH_NULL_ARG(task, consumer_id))
		return -EINVAL;
	*consumer_id = task->consumer_id;
	return 0;
}

int
rte_comch_producer_task_send_set_consumer_id(struct rte_comch_producer_task_send *task,
					     uint32_t consumer_id)
{
	int rc = comch_producer_task_check_idle(task);

	if (rc == 0)
		task->consumer_id = consumer_id;
	return rc;
}
