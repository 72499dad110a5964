/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef DOCA_COMPAT_VERSION_H
#define DOCA_COMPAT_VERSION_H

/**
 * @file
 * DOCA compatibility layer: the DOCA version a program builds against.
 *
 * The layer follows DOCA's Comch API of the version below: a program that
 * prints it (doca_version()) or compares against it (DOCA_VERSION_LTE_CURRENT())
 * sees the DOCA release whose API it gets. rte_comch's own version is
 * rte_comch_version() (rte_comch_version.h).
 */

#include <stddef.h>

#include <doca_types.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Major number of the DOCA version the layer's API follows. */
#define DOCA_VERSION_MAJOR 3
/** Minor number of that version. */
#define DOCA_VERSION_MINOR 3
/** Patch number of that version. */
#define DOCA_VERSION_PATCH 0
/** That version as a string, "major.minor.patch". */
#define DOCA_VERSION_STRING "3.3.0"

/**
 * A version as one number that orders as versions do, patch exact. No cast:
 * usable in \c \#if as well as in C expressions.
 */
#define DOCA_VERSION_CALC_EXACT(major, minor, patch) \
	(((major) << 24) | ((minor) << 16) | (patch))
/** The layer's version, DOCA_VERSION_CALC_EXACT() of it. */
#define DOCA_VERSION_EXACT \
	DOCA_VERSION_CALC_EXACT(DOCA_VERSION_MAJOR, DOCA_VERSION_MINOR, DOCA_VERSION_PATCH)
/** A release version as one number, DOCA's way (the patch scaled by 1000). */
#define DOCA_VERSION_CALC(major, minor, patch) \
	(((major) << 24) | ((minor) << 16) | ((patch) * 1000))
/** The layer's version, DOCA_VERSION_CALC() of it. */
#define DOCA_VERSION_OFFICIAL \
	DOCA_VERSION_CALC(DOCA_VERSION_MAJOR, DOCA_VERSION_MINOR, DOCA_VERSION_PATCH)
/** 1 if major.minor.patch is the layer's version, else 0. */
#define DOCA_VERSION_EQ_CURRENT(major, minor, patch) \
	(DOCA_VERSION_CALC(major, minor, patch) == DOCA_VERSION_OFFICIAL)
/** 1 if major.minor.patch is the layer's version or older, else 0. */
#define DOCA_VERSION_LTE_CURRENT(major, minor, patch) \
	(DOCA_VERSION_CALC(major, minor, patch) <= DOCA_VERSION_OFFICIAL)

/**
 * The DOCA version the program was built against.
 *
 * @return DOCA_VERSION_STRING of the headers the program included.
 */
static inline const char *
doca_version(void)
{
	return DOCA_VERSION_STRING;
}

/**
 * The DOCA version of the layer the program runs with (the installed
 * librte_comch_doca), which may be newer than the headers it was built with.
 *
 * @return "major.minor.patch"; never NULL.
 */
DOCA_EXPERIMENTAL
const char *
doca_version_runtime(void);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_COMPAT_VERSION_H */
