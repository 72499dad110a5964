/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef COST_COMMON_H
#define COST_COMMON_H

/*
 * The DOCA layer's cost per message: one fast-path stream, written twice, in
 * DOCA's names over the layer (cost_doca.c) and in rte_comch's task API
 * (cost_rte.c), the same loop call for call. A client's producer streams N
 * messages of S bytes to a server's consumer, at most W in flight; the server
 * posts W receives and posts each again as it completes, and reports the time
 * per message from the warm-up's end (N / 10) to the last one, then tells the
 * client it is done. devtools/doca-layer-cost.sh runs both, pinned, and
 * compares their medians.
 */

#include <stdbool.h>
#include <stdint.h>

#define COST_NAME "comch_cost"
#define COST_DONE_MSG "done"
#define COST_TIMEOUT_NS (30ull * 1000 * 1000 * 1000)

struct cost_args {
	bool server;
	const char *name;	/* the server's name */
	const char *devargs;	/* rte: the device's devargs; DOCA: its PCI address */
	uint64_t count;		/* N */
	uint32_t size;		/* S */
	uint32_t window;	/* W */
};

/*
 * Parse "-r server|client -n name -d devargs|pci -N count -s size -w window";
 * false (said) on a bad one.
 */
bool cost_parse(int argc, char **argv, struct cost_args *a);
/* CLOCK_MONOTONIC, in ns. */
uint64_t cost_now_ns(void);
/* Print the result line the script reads: "cost <api> <size> <ns per message> <messages>". */
void cost_report(const char *api, const struct cost_args *a, uint64_t ns, uint64_t msgs);

#endif /* COST_COMMON_H */
