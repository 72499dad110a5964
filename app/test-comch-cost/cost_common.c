/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/* What both versions of the cost benchmark share: arguments, clock, report. */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cost_common.h"

static bool
cost_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);

	if (end == s || *end != '\0' || v < min || v > max)
		return false;
	*out = v;
	return true;
}

bool
cost_parse(int argc, char **argv, struct cost_args *a)
{
	uint64_t v;
	int opt;

	*a = (struct cost_args){ .name = COST_NAME, .count = 1000000, .size = 64, .window = 64 };
	optind = 1;
	while ((opt = getopt(argc, argv, "r:n:d:N:s:w:")) != -1) {
		switch (opt) {
		case 'r':
			a->server = strcmp(optarg, "server") == 0;
			if (!a->server && strcmp(optarg, "client") != 0)
				goto bad;
			break;
		case 'n':
			a->name = optarg;
			break;
		case 'd':
			a->devargs = optarg;
			break;
		case 'N':
			if (!cost_u64(optarg, 100, UINT64_C(1) << 40, &a->count))
				goto bad;
			break;
		case 's':
			if (!cost_u64(optarg, 1, 1 << 20, &v))
				goto bad;
			a->size = (uint32_t)v;
			break;
		case 'w':
			if (!cost_u64(optarg, 1, 1024, &v))
				goto bad;
			a->window = (uint32_t)v;
			break;
		default:
			goto bad;
		}
	}
	if (a->devargs != NULL)
		return true;
bad:
	fprintf(stderr, "usage: %s -r server|client -d <device> [-n name] [-N count] [-s size] "
		"[-w window]\n", argv[0]);
	return false;
}

uint64_t
cost_now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

void
cost_report(const char *api, const struct cost_args *a, uint64_t ns, uint64_t msgs)
{
	printf("cost %s %" PRIu32 " %.1f %" PRIu64 "\n", api, a->size, (double)ns / msgs, msgs);
	fflush(stdout);
}
