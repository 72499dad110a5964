/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The table of modes and the plan built from it. Adding a mode is adding its
 * files, an entry here and its runners in bench_runners.h.
 */

#include <string.h>

#include "bench.h"
#include "bench_runners.h"

static const struct bench_runner comch_ctrl_lat = {
	.server = comch_ctrl_serve,
	.client = comch_ctrl_lat_client,
};

static const struct bench_runner comch_ctrl_stream = {
	.server = comch_ctrl_serve,
	.client = comch_ctrl_stream_client,
};

static const struct bench_runner unix_ctrl_lat = {
	.server = unix_ctrl_serve,
	.client = unix_ctrl_lat_client,
};

static const struct bench_runner unix_ctrl_stream = {
	.server = unix_ctrl_serve,
	.client = unix_ctrl_stream_client,
};

static const struct bench_mode mode_ctrl_lat = {
	.name = "ctrl-lat",
	.help = "control path ping-pong: round-trip latency",
	.kind = BENCH_KIND_LAT,
	.runners = {
		[BENCH_TR_COMCH] = &comch_ctrl_lat,
		[BENCH_TR_UNIX] = &unix_ctrl_lat,
		[BENCH_TR_UNIX_POLL] = &unix_ctrl_lat,
	},
};

static const struct bench_mode mode_ctrl_stream = {
	.name = "ctrl-stream",
	.help = "control path one-way flood: msgs/s, MB/s, sender cycles",
	.kind = BENCH_KIND_STREAM,
	.runners = {
		[BENCH_TR_COMCH] = &comch_ctrl_stream,
		[BENCH_TR_UNIX] = &unix_ctrl_stream,
		[BENCH_TR_UNIX_POLL] = &unix_ctrl_stream,
	},
};

const struct bench_mode *const bench_modes[] = {
	&mode_ctrl_lat,
	&mode_ctrl_stream,
};

const unsigned int bench_nb_modes = sizeof(bench_modes) / sizeof(bench_modes[0]);

static const char *const transport_names[BENCH_TR_MAX] = {
	[BENCH_TR_COMCH] = "comch",
	[BENCH_TR_UNIX] = "unix",
	[BENCH_TR_UNIX_POLL] = "unix-poll",
};

const char *
bench_transport_name(enum bench_transport tr)
{
	if ((unsigned int)tr >= BENCH_TR_MAX)
		return "?";
	return transport_names[tr];
}

int
bench_transport_parse(const char *name)
{
	int i;

	for (i = 0; i < BENCH_TR_MAX; i++)
		if (strcmp(name, transport_names[i]) == 0)
			return i;
	return -1;
}

/*
 * For each selected mode, each size, each selected transport: comch first, so
 * that each baseline result lands right under the comch one it is compared with.
 */
unsigned int
bench_plan_build(const struct bench_opts *o, struct bench_test *plan, unsigned int max)
{
	unsigned int m, s, n = 0;
	int tr;

	for (m = 0; m < bench_nb_modes; m++) {
		if ((o->modes & (1u << m)) == 0)
			continue;
		for (s = 0; s < o->nb_sizes; s++) {
			for (tr = 0; tr < BENCH_TR_MAX; tr++) {
				if ((o->transports & (1u << tr)) == 0 ||
				    bench_modes[m]->runners[tr] == NULL)
					continue;
				if (n < max) {
					plan[n].id = n;
					plan[n].mode = bench_modes[m];
					plan[n].transport = tr;
					plan[n].size = o->sizes[s];
				}
				n++;
			}
		}
	}
	return n;
}
