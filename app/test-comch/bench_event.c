/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <rte_cycles.h>

#include "bench_event.h"
#include "bench_msg.h"
#include "bench_stats.h"

int
bench_ev_init(struct bench_ev *ev, struct bench_result *res, uint64_t tsc_hz,
	      struct rte_comch_pe *pe, struct rte_comch_pe *pe2)
{
	struct rte_comch_pe *pes[BENCH_EV_MAX_PE] = { pe, pe2 };
	unsigned int i;
	int ret, fd;

	memset(ev, 0, sizeof(*ev));
	ev->res = res;
	ev->tsc_hz = tsc_hz;
	ev->cnt = &ev->busy;
	for (i = 0; i < BENCH_EV_MAX_PE && pes[i] != NULL; i++) {
		ret = rte_comch_pe_get_notification_fd(pes[i], &fd);
		if (ret < 0)
			return bench_fail(res, ret, "rte_comch_pe_get_notification_fd: %s",
					  strerror(-ret));
		ev->pe[i] = pes[i];
		ev->pfd[i].fd = fd;
		ev->pfd[i].events = POLLIN;
	}
	ev->nb_pe = i;
	return 0;
}

/* Disarm the first n engines. */
static int
clear(struct bench_ev *ev, unsigned int n)
{
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = rte_comch_pe_clear_notification(ev->pe[i]);
		if (ret < 0)
			return bench_fail(ev->res, ret, "rte_comch_pe_clear_notification: %s",
					  strerror(-ret));
	}
	return 0;
}

/* Milliseconds to sleep at most: to the deadline, rounded up, or the safety timeout. */
static int
sleep_ms(const struct bench_ev *ev, uint64_t deadline)
{
	uint64_t now, ms;

	if (deadline == 0)
		return BENCH_EV_SAFETY_MS;
	now = rte_rdtsc();
	if (now >= deadline)
		return 0;
	ms = ((deadline - now) * 1000 + ev->tsc_hz - 1) / ev->tsc_hz;
	return ms > INT32_MAX ? INT32_MAX : (int)ms;
}

int
bench_ev_wait(struct bench_ev *ev, uint64_t deadline)
{
	unsigned int i;
	int ret, rc, n;

	for (i = 0; i < ev->nb_pe; i++) {
		ret = rte_comch_pe_request_notification(ev->pe[i]);
		if (ret == -EAGAIN) {
			/* Work pending: no sleep, and no engine left armed for nothing. */
			ev->cnt->eagain++;
			return clear(ev, i);
		}
		if (ret < 0) {
			clear(ev, i);
			return bench_fail(ev->res, ret, "rte_comch_pe_request_notification: %s",
					  strerror(-ret));
		}
	}
	/*
	 * poll(), not epoll_wait(), on the engines' epoll fds: it only looks at
	 * whether they are ready and consumes none of their events, which each
	 * engine's next round of progress handles.
	 */
	n = poll(ev->pfd, ev->nb_pe, sleep_ms(ev, deadline));
	if (n > 0)
		ev->cnt->wakeups++;
	else if (n == 0 && deadline == 0)
		ev->cnt->timeouts++;
	else if (n < 0 && errno != EINTR)
		ret = bench_fail(ev->res, -errno, "poll on the notification fds: %s",
				 strerror(errno));
	rc = clear(ev, ev->nb_pe);
	return ret < 0 ? ret : rc;
}

/* One round of every engine: 1 if any did something, 0 if none, negative on failure. */
static int
progress_all(struct bench_ev *ev)
{
	unsigned int i;
	int ret, did = 0;

	for (i = 0; i < ev->nb_pe; i++) {
		ret = rte_comch_pe_progress(ev->pe[i]);
		if (unlikely(ret < 0))
			return bench_fail(ev->res, ret, "rte_comch_pe_progress: %s",
					  strerror(-ret));
		did |= ret;
	}
	return did;
}

int
bench_ev_round(struct bench_ev *ev)
{
	int ret = progress_all(ev);

	if (ret == 0 && ev->res->status == 0)
		ret = bench_ev_wait(ev, 0);
	return ret < 0 ? ret : ev->res->status;
}

void
bench_ev_idle_begin(struct bench_ev *ev)
{
	if (ev->in_idle)
		return;
	ev->in_idle = true;
	ev->cnt = &ev->idle;
	ev->idle_cpu = bench_cpu_seconds();
	ev->idle_tsc = rte_rdtsc();
}

void
bench_ev_idle_end(struct bench_ev *ev)
{
	if (!ev->in_idle || ev->cnt != &ev->idle)
		return;
	ev->idle_tsc = rte_rdtsc() - ev->idle_tsc;
	ev->idle_cpu = bench_cpu_seconds() - ev->idle_cpu;
	ev->cnt = &ev->busy;
}

int
bench_ev_idle(struct bench_ev *ev, double seconds)
{
	uint64_t deadline = rte_rdtsc() + (uint64_t)(seconds * ev->tsc_hz);
	int ret = 0;

	bench_ev_idle_begin(ev);
	while (ret == 0 && rte_rdtsc() < deadline) {
		ret = bench_ev_wait(ev, deadline);
		/* Whatever woke us is handled; an unexpected message fails the test there. */
		if (ret == 0)
			ret = progress_all(ev);
		ret = ret < 0 ? ret : ev->res->status;
	}
	bench_ev_idle_end(ev);
	return ret;
}

void
bench_ev_on_request(struct bench_ev *ev, uint32_t kind, uint64_t seq)
{
	if (kind == BENCH_MSG_SYNC && seq != 0)
		bench_ev_idle_begin(ev);
	else if (kind == BENCH_MSG_END)
		bench_ev_idle_end(ev);
}

void
bench_ev_report(const struct bench_ev *ev, struct bench_result *res)
{
	res->event = 1;
	res->wakeups = ev->busy.wakeups;
	res->ev_eagain = ev->busy.eagain;
	res->ev_timeouts = ev->busy.timeouts;
	/* An idle window that never ended (a failure) has no length to report. */
	if (!ev->in_idle || ev->cnt == &ev->idle)
		return;
	res->idle_wakeups = ev->idle.wakeups;
	res->idle_s = (double)ev->idle_tsc / ev->tsc_hz;
	if (res->idle_s > 0)
		res->idle_cpu_pct = 100.0 * ev->idle_cpu / res->idle_s;
}
