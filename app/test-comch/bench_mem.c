/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "bench_mem.h"

int
bench_mem_read(struct bench_mem *m)
{
	bool have_rss = false, have_hwm = false;
	uint64_t rss = 0, hwm = 0;
	char line[128];
	FILE *f;

	f = fopen("/proc/self/status", "re");
	if (f == NULL)
		return -errno;
	while (fgets(line, sizeof(line), f) != NULL && !(have_rss && have_hwm)) {
		/* The kernel writes both in kB, which are KiB. */
		if (strncmp(line, "VmRSS:", 6) == 0)
			have_rss = sscanf(line + 6, "%" SCNu64, &rss) == 1;
		else if (strncmp(line, "VmHWM:", 6) == 0)
			have_hwm = sscanf(line + 6, "%" SCNu64, &hwm) == 1;
	}
	fclose(f);
	/* No such lines: not Linux, or a kernel thread's status. */
	if (!have_rss || !have_hwm)
		return -ENODATA;
	m->rss_kb = rss;
	m->hwm_kb = hwm;
	return 0;
}
