/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef COMCH_PEER_H
#define COMCH_PEER_H

/* Shared by comch_peer.c (main, options, clients) and comch_peer_server.c. */

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_comch.h>

enum { EXIT_OK = 0, EXIT_CHECK = 1, EXIT_USAGE = 2, EXIT_TIMEOUT = 3, EXIT_SETUP = 4 };

struct peer_opts {
	bool server;
	const char *prefix, *domain, *dir, *name, *rep, *fn, *log;
	uint32_t clients, id_base, msgs, size, window, rq, msg_size, slow_us;
	uint32_t expect_conns, timeout_ms, connect_timeout_ms;
	bool no_echo, forever, expect_drop, busy, msgs_set;
	/* fast path mode (comch_peer_fast.c) */
	bool fast;
	uint32_t producers, consumers, slots, imm;
	const char *sizes;
	bool user_mem;         /* consumers receive into the heap (set_memrange) */
};

extern struct peer_opts opt;
extern volatile sig_atomic_t stop_signal;
extern struct rte_comch_pe *pe;
extern uint64_t t_end;

uint64_t now_ms(void);
/** One round of progress; sleeps on the notification fd when idle for a while. */
void poll_once(bool idle);
int run_server(struct rte_comch_dev *dev);
int run_fast(struct rte_comch_dev *dev);

#endif /* COMCH_PEER_H */
