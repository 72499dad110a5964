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

	if (ex == NULL || ex->thread == NULL) {
		DPA_LOG_FN(ERR, fn, "not called from a DPA thread's run (%s), ignored",
			   ex == NULL ? "no DPA program" : "an RPC");
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
	/* An RPC has no thread, so no local storage. */
	return dpa_dev_caller(__func__) != NULL && dpa_cur_exec->thread != NULL ?
	       dpa_cur_exec->thread->tls : NULL;
}

int
rte_comch_dpa_dev_thread_notify(rte_comch_dpa_handle_t h)
{
	struct rte_comch_dpa *dpa = dpa_dev_caller(__func__);
	struct rte_comch_dpa_thread *t;
	int ret;

	if (dpa == NULL)
		return -EPERM;
	t = dpa_handle_lookup(dpa, h, DPA_KIND_THREAD, __func__);
	if (t == NULL)
		return -EINVAL;
	ret = dpa_thread_trigger(t);
	if (ret < 0)
		DPA_LOG(ERR, "dpa %u thread %u: not running, trigger dropped", t->dpa->tag,
			t->slot);
	return ret;
}

/* Whether the entry an accessor below was given is not NULL (logged, naming func). */
static bool
dpa_cqe_check(const struct rte_comch_dpa_cqe *cqe, const char *func)
{
	return dpa_out_check(cqe, "cqe", func) == 0;
}

const uint8_t *
rte_comch_dpa_dev_get_completion_imm(const struct rte_comch_dpa_cqe *cqe, uint32_t *len)
{
	bool ok = dpa_cqe_check(cqe, __func__);

	if (len != NULL)
		*len = ok ? cqe->imm_len : 0;
	return ok ? cqe->imm : NULL;
}

uint32_t
rte_comch_dpa_dev_get_completion_producer_id(const struct rte_comch_dpa_cqe *cqe)
{
	return dpa_cqe_check(cqe, __func__) ? cqe->producer_id : 0;
}

uint64_t
rte_comch_dpa_dev_get_completion_user_data(const struct rte_comch_dpa_cqe *cqe)
{
	return dpa_cqe_check(cqe, __func__) ? cqe->user_data : 0;
}
