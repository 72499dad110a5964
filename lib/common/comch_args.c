/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The NULL checks of the public calls' arguments: one log line that names the
 * call and the argument, instead of a hand-written copy in each function.
 */

#include <string.h>

#include <rte_log.h>

#include "comch_args.h"

/* The index-th name of "a, b, c" (the stringified argument list), as a length and start. */
static const char *
comch_arg_name(const char *names, unsigned int index, int *len)
{
	const char *p = names, *comma;

	while (index-- > 0 && (comma = strchr(p, ',')) != NULL)
		p = comma + 1 + strspn(comma + 1, " ");
	*len = (int)strcspn(p, ",");
	return p;
}

bool
comch_null_args(int logtype, const char *func, const char *names, const void * const *args,
		unsigned int n)
{
	unsigned int i;
	const char *name;
	int len;

	for (i = 0; i < n; i++) {
		if (args[i] != NULL)
			continue;
		name = comch_arg_name(names, i, &len);
		rte_log(RTE_LOG_ERR, logtype, "COMCH: %s(): %.*s is NULL\n", func, len, name);
		return true;
	}
	return false;
}
