/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * dpdk-test-comch: latency and throughput of rte_comch, next to a Unix-socket
 * baseline measured in the same run, by the same processes.
 *
 * Without --side this process is only the parent: it starts both sides as
 * fresh processes (fork, then exec of this binary, before any EAL init) and
 * prints what they report. With --side it is one of the sides.
 */

#include <stdlib.h>

#include "bench.h"

int
main(int argc, char **argv)
{
	struct bench_opts o;
	int ret;

	ret = bench_opts_parse(&o, argc, argv);
	if (ret != 0)
		return ret > 0 ? EXIT_SUCCESS : EXIT_FAILURE;
	if (o.side == BENCH_SIDE_BOTH)
		ret = bench_parent_run(&o);
	else
		ret = bench_side_run(&o);
	return ret == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
