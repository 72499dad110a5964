/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Which thread uses an engine. Any thread may, one at a time: a second one
 * is refused (-EBUSY), or waits if the first only borrowed the engine for a
 * create or a destroy. Taking the engine's user word is a compare-and-swap,
 * and a locked instruction waits for every store before it to leave the
 * core: on each progress call, that is every store of the round before
 * (a fast-path send's slot lines, still on their way from the peer's core).
 *
 * So an engine is biased to the first thread that takes it (the bias): that
 * thread takes it by storing 1 in bias_in, then reading revoke (and bias
 * again), with no barrier but the compiler's between the two. Any other
 * thread takes the user word as before, then, before it touches the engine,
 * keeps the bias off: it adds itself to revoke, runs membarrier(2) (every CPU
 * running a thread of this process executes a full barrier), then reads
 * bias_in. That is Dekker's pattern with one side's barrier paid by the other
 * side (as userspace RCU does it): either the bias thread sees revoke and
 * backs off to the user word, or the other thread sees bias_in and waits for
 * the round to end (a borrower) or is refused (progress). It leaves revoke
 * only after it gave the user word back, so the bias thread, backing off,
 * finds the user word taken and is refused or waits in turn, as any thread.
 *
 * A thread keeping the bias off costs a system call; an engine that other
 * threads take often (COMCH_PE_MAX_REVOKES times) loses its bias for good
 * and every thread takes the user word. Without membarrier (old kernels,
 * seccomp) no engine is biased. ThreadSanitizer does not see membarrier:
 * the acquire and release of bias_in and revoke are what order the rounds in
 * its eyes, as they do in fact.
 */

#include <linux/membarrier.h>

#include <rte_pause.h>

#include "comch_membarrier.h"
#include "comch_private.h"

/* Times other threads may keep an engine's bias off before it is dropped. */
#define COMCH_PE_MAX_REVOKES 64

static struct comch_membarrier comch_pe_mb = {
	.cmd = MEMBARRIER_CMD_PRIVATE_EXPEDITED,
	.register_cmd = MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED,
};

bool
comch_pe_bias_available(void)
{
	return comch_membarrier_registered(&comch_pe_mb);
}

/*
 * With pe's user word: keep another thread's bias off. 0 if there is none to
 * keep off; 1 if kept off (pe->revoked: comch_pe_leave_slow() lets it go);
 * -EBUSY if the bias thread is in a round and wait is false.
 */
static int
comch_pe_revoke(struct rte_comch_pe *pe, bool wait)
{
	uintptr_t bias = comch_load_relaxed(&pe->bias);
	int rc;

	if (bias == 0 || bias == COMCH_PE_UNBIASED || bias == comch_thread_id())
		return 0;
	comch_fetch_add_seq_cst(&pe->revoke, 1);
	/* Registered when the bias was given: it cannot fail but for a kernel bug. */
	while ((rc = comch_membarrier_run(&comch_pe_mb)) < 0) {
		COMCH_LOG(ERR, "membarrier: %s: retrying", strerror(-rc));
		rte_pause();
	}
	while (comch_load_acquire(&pe->bias_in) != 0) {
		if (!wait) {
			comch_fetch_sub_release(&pe->revoke, 1);
			return -EBUSY;
		}
		rte_pause();
	}
	/* Out, and cannot come back in while we count in revoke: drop the bias if due. */
	if (++pe->nb_revokes >= COMCH_PE_MAX_REVOKES)
		comch_store_relaxed(&pe->bias, COMCH_PE_UNBIASED);
	return 1;
}

/*
 * Why an engine was refused to the calling thread: it is in use by another
 * thread, or this one is inside one of its callbacks (rc 0: the engine was
 * taken through its user word, and is given back).
 */
static int __rte_cold
comch_pe_refuse(struct rte_comch_pe *pe, int rc, const char *func)
{
	if (rc == 0) {
		/* A callback run outside progress (a stop's): the engine is the thread's already */
		comch_pe_leave_slow(pe);
		rc = -EDEADLK;
	}
	if (rc == -EBUSY)
		COMCH_LOG(ERR, "%s: the engine is in use by another thread at the same time: "
			  "one thread at a time may use it", func);
	else
		COMCH_LOG(ERR, "%s: called from inside one of the engine's callbacks", func);
	return rc;
}

int
comch_pe_enter_slow(struct rte_comch_pe *pe, const char *func)
{
	int rc = comch_user_enter(&pe->user);

	if (rc < 0)
		return comch_pe_refuse(pe, rc, func);
	rc = comch_pe_revoke(pe, false);
	if (rc < 0) {
		comch_user_leave(&pe->user);
		return comch_pe_refuse(pe, rc, func);
	}
	pe->revoked = rc > 0;
	if (pe->cb_depth != 0)
		return comch_pe_refuse(pe, 0, func);
	/* The first thread to take it: the bias is its, if the kernel can back it. */
	if (comch_load_relaxed(&pe->bias) == 0 && comch_pe_bias_available())
		comch_store_relaxed(&pe->bias, comch_thread_id());
	return 0;
}

void
comch_pe_leave_slow(struct rte_comch_pe *pe)
{
	bool revoked = pe->revoked;

	pe->revoked = false;
	comch_user_leave(&pe->user);
	/* After the user word: the bias thread coming back in finds it free. */
	if (revoked)
		comch_fetch_sub_release(&pe->revoke, 1);
}

bool
comch_pe_borrow(struct rte_comch_pe *pe)
{
	uintptr_t me = comch_thread_id();
	uintptr_t seen;

	if (pe == NULL)
		return false;
	/* Inside one of its callbacks, on the thread it is biased to. */
	if (comch_load_relaxed(&pe->bias) == me && comch_load_relaxed(&pe->bias_in) != 0)
		return false;
	for (;;) {
		seen = 0;
		if (comch_cas_acq_rel(&pe->user, &seen, me | COMCH_USER_BORROWED))
			break;
		if ((seen & ~COMCH_USER_BORROWED) == me)
			return false;
		/* A round, or another borrower's call: both end soon. */
		rte_pause();
	}
	/* Waits for the bias thread's round, if one runs: it ends soon too. */
	pe->revoked = comch_pe_revoke(pe, true) > 0;
	return true;
}
