/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/* Generic task calls; each task type does its own submit. */

#include <errno.h>

#include <rte_errno.h>
#include <rte_mempool.h>

#include "comch_private.h"

int
rte_comch_task_submit(struct rte_comch_task *task)
{
	if (unlikely(task == NULL)) {
		COMCH_LOG(ERR, "task is NULL");
		return -EINVAL;
	}
	if (unlikely(task->status == -EINPROGRESS)) {
		COMCH_LOG(ERR, "task %p is already in flight", (void *)task);
		return -EALREADY;
	}
	if (unlikely(!task->allocated)) {
		COMCH_LOG(ERR, "task %p was freed", (void *)task);
		return -EINVAL;
	}
	switch (task->type) {
	case COMCH_TASK_SEND:
		return comch_conn_task_send_submit((struct rte_comch_task_send *)task);
	case COMCH_TASK_PRODUCER_SEND:
		return comch_producer_submit((struct rte_comch_producer_task_send *)task);
	case COMCH_TASK_POST_RECV:
		return comch_consumer_submit((struct rte_comch_consumer_task_post_recv *)task);
	default:
		COMCH_LOG(ERR, "task %p has unknown type %u", (void *)task, task->type);
		return -EINVAL;
	}
}

int
rte_comch_task_free(struct rte_comch_task *task)
{
	if (COMCH_NULL_ARG(task))
		return -EINVAL;
	if (!task->allocated) {
		COMCH_LOG(ERR, "task %p is not allocated (freed twice?)", (void *)task);
		return -EINVAL;
	}
	task->allocated = false;
	/* In flight: it returns to the pool when it comes back (comch_task_done_freed()). */
	if (task->status == -EINPROGRESS)
		return 0;
	/* A send task held its connection. */
	if (task->type == COMCH_TASK_SEND)
		comch_conn_task_released(((struct rte_comch_task_send *)task)->conn);
	comch_task_put(task);
	return 0;
}

int
rte_comch_task_get_status(const struct rte_comch_task *task)
{
	if (COMCH_NULL_ARG(task))
		return -EINVAL;
	return task->status;
}

int
rte_comch_task_set_user_data(struct rte_comch_task *task, union rte_comch_data user_data)
{
	if (COMCH_NULL_ARG(task))
		return -EINVAL;
	task->user_data = user_data;
	return 0;
}

int
rte_comch_task_get_user_data(const struct rte_comch_task *task, union rte_comch_data *user_data)
{
	if (COMCH_NULL_ARG(task, user_data))
		return -EINVAL;
	*user_data = task->user_data;
	return 0;
}

struct rte_comch_ctx *
rte_comch_task_get_ctx(const struct rte_comch_task *task)
{
	if (COMCH_NULL_ARG(task)) {
		rte_errno = EINVAL;
		return NULL;
	}
	return task->ctx;
}
