/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/* The DOCA version of the installed layer. */

#include "doca_version.h"

const char *
doca_version_runtime(void)
{
	/* This library's headers, whatever the program's were. */
	return DOCA_VERSION_STRING;
}
