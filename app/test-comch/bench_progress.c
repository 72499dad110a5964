/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#include <inttypes.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "bench_progress.h"

/* Redraw at most this often: a terminal need not be flooded. */
#define REDRAW_S 0.25

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void
bench_progress_init(struct bench_progress *p, const struct bench_opts *o,
		    const struct bench_test *plan, unsigned int nb)
{
	p->on = o->progress > 0 || (o->progress < 0 && isatty(STDERR_FILENO));
	p->o = o;
	p->plan = plan;
	p->nb = nb;
	p->cur = 0;
	p->t_run = now_s();
	p->t_test = p->t_run;
	p->t_drawn = 0;
	p->width = 0;
}

/*
 * What a test should take: its duration for a stream; for a latency test, its
 * round trips at a rough microsecond each over comch and 20 over a socket.
 */
static double
expected_s(const struct bench_opts *o, const struct bench_test *t)
{
	double rtt = bench_transport_is_comch(t->transport) ? 1e-6 : 20e-6;

	if (t->mode->kind == BENCH_KIND_LAT)
		return (o->warmup + o->iterations) * rtt;
	return o->duration;
}

void
bench_progress_update(struct bench_progress *p, unsigned int done)
{
	const struct bench_test *t;
	char label[64], size[24];
	double now;
	int n;

	if (!p->on || done >= p->nb)
		return;
	now = now_s();
	if (done != p->cur) {
		p->cur = done;
		p->t_test = now;
	} else if (now - p->t_drawn < REDRAW_S) {
		return;
	}
	p->t_drawn = now;
	t = &p->plan[done];
	bench_test_label(t, label, sizeof(label));
	bench_size_str(t->size, size, sizeof(size));
	n = fprintf(stderr, "\r[%u/%u] %s %s %s: %.1f/%s%.1f s (run %.1f s)", done + 1, p->nb,
		    t->mode->name, size, label, now - p->t_test,
		    t->mode->kind == BENCH_KIND_LAT ? "~" : "", expected_s(p->o, t),
		    now - p->t_run);
	/* Over whatever was longer in the previous line. */
	if (n > 0 && n - 1 < p->width)
		fprintf(stderr, "%*s", p->width - (n - 1), "");
	if (n > 0 && n - 1 > p->width)
		p->width = n - 1;
	fflush(stderr);
}

void
bench_progress_clear(struct bench_progress *p)
{
	if (!p->on || p->width == 0)
		return;
	fprintf(stderr, "\r%*s\r", p->width, "");
	fflush(stderr);
	p->width = 0;
}
