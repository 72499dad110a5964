/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef COMCH_ARGS_H
#define COMCH_ARGS_H

/*
 * NULL checks of the public calls' arguments, for the libraries that compile
 * lib/common in (librte_comch, librte_comch_ep): each logs on its own log type.
 */

#include <stdbool.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>

/**
 * Log "<func>(): <name> is NULL" on logtype for the first NULL of args (names:
 * their stringified list, "a, b"); true if there was one.
 */
bool comch_null_args(int logtype, const char *func, const char *names,
		     const void * const *args, unsigned int n);

/* Whether one of n pointers is NULL: inline, so that accessors pay no call for it. */
static inline bool
comch_any_null(const void * const *args, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (args[i] == NULL)
			return true;
	return false;
}

/**
 * True, after a log line naming it on logtype, if one of the (pointer)
 * arguments is NULL.
 */
#define COMCH_NULL_ARG_LOG(logtype, ...) \
	(unlikely(comch_any_null((const void * const []){ __VA_ARGS__ }, \
				 RTE_DIM(((const void * const []){ __VA_ARGS__ })))) && \
	 comch_null_args((logtype), __func__, #__VA_ARGS__, \
			 (const void * const []){ __VA_ARGS__ }, \
			 RTE_DIM(((const void * const []){ __VA_ARGS__ }))))

#endif /* COMCH_ARGS_H */
