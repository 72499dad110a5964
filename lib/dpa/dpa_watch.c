/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Watching: how a unit stands in for the armed flag of the completion
 * contexts its programs ask to be notified of.
 *
 * A program that drains its context and asks for a notification at the end
 * of every run makes every post trigger its thread: the post disarms the
 * context, queues the thread on its unit, and looks whether the unit sleeps.
 * Each of those moves a line between the CPU and the unit, per message, on
 * the producer's side. But the unit of a running program polls anyway. So a
 * request from a run adds the context to its unit's watch list instead: the
 * unit reads the context's next entry as it polls, and triggers the thread
 * itself when one lands. A post then only reads the armed flag, which stays
 * clear and in its cache.
 *
 * A unit arms what it watches when it has found nothing to do for a while:
 * before a pthread unit sleeps, after as many empty polls of a service, and
 * when the dpa stops. Arming takes the context's lock (dpa_cq_arm()), so it
 * catches an entry that landed meanwhile.
 *
 * The list is the unit's alone: only its thread (or, once it stopped, the
 * thread that stopped it) reads or writes it. A context is on at most one
 * list at a time (its watched flag); an entry whose context was destroyed,
 * or destroyed and made again, is dropped by its generation. The unit reads
 * the contexts' entries inside an odd seq, like a run: a destroy waits for it
 * before it frees them.
 */

#include "dpa_private.h"

/*
 * Watch cq for the program running on u: 0, or -ENOSPC if u's list is full
 * (of entries of destroyed contexts not yet dropped), or -EINVAL if cq has
 * no thread to trigger: the caller arms cq.
 */
int
dpa_watch_add(struct dpa_unit *u, struct rte_comch_dpa_cq *cq)
{
	int expected = 0;

	if (cq->thread == NULL)
		return -EINVAL;
	if (u->nb_watch == u->dpa->max_cqs)
		return -ENOSPC;
	/* Watched already (by this unit or another): the entry will be seen. */
	if (!comch_cas_acq_rel(&cq->watched, &expected, 1))
		return 0;
	u->watch[u->nb_watch].cq = cq;
	u->watch[u->nb_watch].gen = cq->gen;
	u->nb_watch++;
	return 0;
}

/* Remove entry i of u's list: the last one takes its place. */
static void
dpa_watch_drop(struct dpa_unit *u, uint32_t i)
{
	u->watch[i] = u->watch[--u->nb_watch];
}

/* Open and close a pass over the contexts: see dpa_grace_wait(). */
static void
dpa_watch_enter(struct dpa_unit *u)
{
	comch_fetch_add_seq_cst(&u->seq, 1);
}

static void
dpa_watch_leave(struct dpa_unit *u)
{
	comch_fetch_add_release(&u->seq, 1);
}

/* Whether entry w still names the context it was made for. */
static bool
dpa_watch_live(const struct dpa_watch *w)
{
	return comch_load_acquire(&w->cq->live) == w->gen;
}

/*
 * Trigger the thread of cq (a context with a thread: see dpa_watch_add()),
 * which got an entry, from the unit u that watched it. A thread of u to run
 * is not queued: its slot goes to run (at most max of them, counted in
 * *nb_run), for u to run once the pass is over. Returns false if run is
 * full, and nothing was done.
 */
static bool
dpa_watch_trigger(struct dpa_unit *u, struct rte_comch_dpa_cq *cq, uint32_t *run,
		  unsigned int max_run, unsigned int *nb_run)
{
	struct rte_comch_dpa_thread *t = cq->thread;
	uint32_t unit = comch_load_relaxed(&t->unit);
	int ret;

	if (unit == u->id && *nb_run == max_run)
		return false;
	DPA_STAT_INC(&cq->watch_notifications);
	/* Let go first: the run this triggers may ask to be notified again. */
	comch_store_release(&cq->watched, 0);
	ret = dpa_thread_trigger_begin(t);
	if (ret < 0)
		dpa_cq_arm(cq, true); /* dropped: armed, as a post leaves it */
	else if (ret == 1 && unit == u->id)
		run[(*nb_run)++] = t->slot;
	else if (ret == 1)
		dpa_unit_kick(&u->dpa->units[unit], t->slot);
	return true;
}

/*
 * One look at each context u watches: trigger the thread of each that got an
 * entry, and stop watching it. The threads of u to run go to run (at most
 * max_run; *nb_run says how many), the others are queued on their units.
 * Returns the number of threads triggered.
 */
unsigned int
dpa_watch_poll(struct dpa_unit *u, uint32_t *run, unsigned int max_run, unsigned int *nb_run)
{
	unsigned int n = 0;
	uint32_t i = 0;

	*nb_run = 0;
	if (u->nb_watch == 0)
		return 0;
	dpa_watch_enter(u);
	while (i < u->nb_watch) {
		struct rte_comch_dpa_cq *cq = u->watch[i].cq;

		if (!dpa_watch_live(&u->watch[i])) {
			dpa_watch_drop(u, i);
			continue;
		}
		if (!dpa_cq_ready(cq)) {
			i++;
			continue;
		}
		/* No room to run one more here: the rest waits for the next poll. */
		if (!dpa_watch_trigger(u, cq, run, max_run, nb_run))
			break;
		dpa_watch_drop(u, i);
		n++;
	}
	dpa_watch_leave(u);
	return n;
}

/* Arm every context u watches, and empty its list. */
void
dpa_watch_arm_all(struct dpa_unit *u)
{
	struct rte_comch_dpa_cq *cq;
	uint32_t i;

	if (u->nb_watch == 0)
		return;
	dpa_watch_enter(u);
	for (i = 0; i < u->nb_watch; i++) {
		cq = u->watch[i].cq;
		if (!dpa_watch_live(&u->watch[i]))
			continue;
		/* Armed before it is let go: a request seeing it unwatched finds it armed. */
		dpa_cq_arm(cq, false);
		comch_store_release(&cq->watched, 0);
	}
	u->nb_watch = 0;
	dpa_watch_leave(u);
}
