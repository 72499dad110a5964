/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The device side that is not about completion contexts: ending a run, the
 * thread's local storage, triggering another thread, and the accessors of a
 * completion entry.
 */

#include <errno.h>
#include <stddef.h>

#include "dpa_private.h"

/*
 * Jump back to the unit's dispatch loop (dpa_unit_run_one()), which called
 * the entry function after a setjmp(): the program's frames are abandoned, as
 * a DPA thread's are when it yields. Programs must not hold locks or memory
 * across these calls that they expect to get back.
 */
static void
dpa_dev_end_run(enum dpa_run_end end, const char *fn)
{
	struct dpa_exec *ex = dpa_cur_exec;

	if (ex == NULL) {
		DPA_LOG(ERR, "%s: not called from a DPA program, ignored", fn);
		return;
	}
	ex->end = end;
	longjmp(ex->jb, end);
}

void
rte_comch_dpa_dev_thread_reschedule(void)
{
	dpa_dev_end_run(DPA_END_RESCHEDULE, __func__);
}

void
rte_comch_dpa_dev_thread_finish(void)
{
	dpa_dev_end_run(DPA_END_FINISH, __func__);
}

void *
rte_comch_dpa_dev_thread_get_local_storage(void)
{
	if (!dpa_in_program()) {
		DPA_LOG(ERR, "not called from a DPA program");
		return NULL;
	}
	return dpa_cur_exec->thread->tls;
}

int
rte_comch_dpa_dev_thread_notify(rte_comch_dpa_handle_t h)
{
	struct rte_comch_dpa_thread *t;
	int ret;

	if (!dpa_in_program()) {
		DPA_LOG(ERR, "not called from a DPA program");
		return -EPERM;
	}
	t = dpa_thread_lookup(dpa_cur_exec->dpa, h);
	if (t == NULL)
		return -EINVAL;
	ret = dpa_thread_trigger(t);
	if (ret < 0)
		DPA_LOG(ERR, "dpa %u thread %u: not running, trigger dropped", t->dpa->tag,
			t->slot);
	return ret;
}

const uint8_t *
rte_comch_dpa_dev_get_completion_imm(const struct rte_comch_dpa_cqe *cqe, uint32_t *len)
{
	if (cqe == NULL) {
		DPA_LOG(ERR, "cqe is NULL");
		if (len != NULL)
			*len = 0;
		return NULL;
	}
	if (len != NULL)
		*len = cqe->imm_len;
	return cqe->imm;
}

uint32_t
rte_comch_dpa_dev_get_completion_producer_id(const struct rte_comch_dpa_cqe *cqe)
{
	if (cqe == NULL) {
		DPA_LOG(ERR, "cqe is NULL");
		return 0;
	}
	return cqe->producer_id;
}

uint64_t
rte_comch_dpa_dev_get_completion_user_data(const struct rte_comch_dpa_cqe *cqe)
{
	if (cqe == NULL) {
		DPA_LOG(ERR, "cqe is NULL");
		return 0;
	}
	return cqe->user_data;
}
