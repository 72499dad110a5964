/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef COMCH_SAMPLE_EP_H
#define COMCH_SAMPLE_EP_H

#include <stdbool.h>
#include <stdint.h>

struct epoll_event;
struct rte_comch_ep;

/*
 * The endpoint samples' sleep: until the endpoint ep may have something new.
 * Watch its send_fd in the epoll set epfd only if for_send (it stays readable
 * once signalled), arm its receive event (and its send event if for_send), then
 * wait in epoll_wait() for at most max events: 1 ms if arming says -EAGAIN
 * (work on timers is pending: nap, not spin), else until deadline (a TSC value;
 * 0 for none). Returns the number of events in events (0 on a signal or a
 * timeout of the wait), -ETIMEDOUT past the deadline, or -errno, printed after
 * "who: ".
 */
int
comch_sample_ep_wait(struct rte_comch_ep *ep, int epfd, int send_fd, bool for_send,
		     uint64_t deadline, struct epoll_event *events, int max, const char *who);

#endif /* COMCH_SAMPLE_EP_H */
