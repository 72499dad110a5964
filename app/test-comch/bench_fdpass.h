/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef BENCH_FDPASS_H
#define BENCH_FDPASS_H

/*
 * File descriptors between the two sides, over a test's Unix socket
 * (SCM_RIGHTS): the sides may be started by hand (--side), so nothing can be
 * inherited. The eventfd and cache-line baselines share their eventfds and
 * memory this way.
 */

#include "bench.h"

/* Send fd (a copy of it: the caller still owns fd). 0 or a negative errno value. */
int bench_fd_send(int sock, int fd, struct bench_result *res);

/* Receive one fd into *fd (close-on-exec). 0 or a negative errno value. */
int bench_fd_recv(int sock, int *fd, struct bench_result *res);

#endif /* BENCH_FDPASS_H */
