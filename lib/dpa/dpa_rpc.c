/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * RPC: a CPU thread runs code of its own as a program of a dpa, for the length
 * of a call. On a BlueField-3 an RPC is a function the CPU has the DPA run
 * once, waiting for its return; here the calling thread runs it, marked as a
 * program of the dpa (dpa_cur_exec) so that the device-side calls act on the
 * dpa's objects, and counted in the dpa so that destroys wait for it as they
 * wait for the units' runs. The caller runs any function it likes between
 * begin and end: the DOCA layer's doca_dpa_rpc() calls the RPC with its own
 * arguments there.
 */

#include <errno.h>

#include "dpa_private.h"

/* The RPC in progress on this thread (one at a time: RPCs do not nest). */
static __thread struct dpa_exec dpa_rpc_exec;

int
rte_comch_dpa_rpc_begin(struct rte_comch_dpa *dpa)
{
	if (dpa == NULL ||
	    rte_comch_dpa_from_accel((struct rte_comch_accel *)dpa, __func__) == NULL)
		return -EINVAL;
	if (dpa_in_program()) {
		DPA_LOG(ERR, "dpa %u: called from a DPA program or an RPC: RPCs do not nest",
			dpa->tag);
		return -EPERM;
	}
	/* Counted before any handle is looked up: see dpa_grace_wait(). */
	comch_fetch_add_seq_cst(&dpa->nb_rpcs, 1);
	dpa_rpc_exec.dpa = dpa;
	dpa_rpc_exec.thread = NULL;
	dpa_rpc_exec.end = 0;
	dpa_cur_exec = &dpa_rpc_exec;
	return 0;
}

int
rte_comch_dpa_rpc_end(struct rte_comch_dpa *dpa)
{
	if (dpa_cur_exec != &dpa_rpc_exec || dpa_rpc_exec.dpa != dpa || dpa == NULL) {
		DPA_LOG(ERR, "no RPC of this dpa is in progress on this thread");
		return -EINVAL;
	}
	dpa_cur_exec = NULL;
	dpa_rpc_exec.dpa = NULL;
	/* Release: what the RPC did is seen by a destroy that waited for it. */
	comch_fetch_add_release(&dpa->nb_rpcs, (uint32_t)-1);
	return 0;
}
