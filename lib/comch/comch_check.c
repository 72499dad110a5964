/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Argument checks shared by every public call: what the registry of live
 * objects tells the application (the NULL checks are lib/common's, comch_args.h).
 * The library's log type is here too: every other file logs, this one first.
 */

#include <string.h>

#include <rte_log.h>

#include "comch_private.h"

RTE_LOG_REGISTER_DEFAULT(comch_logtype, NOTICE);

static const char *
comch_magic_name(uint32_t magic)
{
	switch (magic) {
	case COMCH_MAGIC_DEV: return "device";
	case COMCH_MAGIC_REP: return "representor";
	case COMCH_MAGIC_PE: return "progress engine";
	case COMCH_MAGIC_CONN: return "connection";
	case COMCH_MAGIC_MMAP: return "mmap";
	case COMCH_MAGIC_BUF_POOL: return "buffer pool";
	case COMCH_MAGIC_MSGQ: return "MsgQ";
	case COMCH_MAGIC_CTX | COMCH_CTX_SERVER: return "server";
	case COMCH_MAGIC_CTX | COMCH_CTX_CLIENT: return "client";
	case COMCH_MAGIC_CTX | COMCH_CTX_PRODUCER: return "producer";
	case COMCH_MAGIC_CTX | COMCH_CTX_CONSUMER: return "consumer";
	case COMCH_MAGIC_CTX_ANY: return "context";
	default: return "object";
	}
}

bool
comch_obj_bad(const char *func, const char *name, const uint32_t *magic, uint32_t want,
	      bool registry)
{
	uint32_t m;
	bool dead;

	if (magic == NULL) {
		rte_log(RTE_LOG_ERR, comch_logtype, "COMCH: %s(): %s is NULL\n", func, name);
		return true;
	}
	m = registry ? comch_objreg_kind(magic) : *magic;
	if (comch_magic_ok(m, want))
		return false;
	dead = registry ? comch_objreg_retired(magic) : m == COMCH_MAGIC_DEAD;
	if (m != 0 && m != COMCH_MAGIC_DEAD && strcmp(comch_magic_name(m), "object") != 0)
		rte_log(RTE_LOG_ERR, comch_logtype, "COMCH: %s(): %s is a %s, not a %s\n", func,
			name, comch_magic_name(m), comch_magic_name(want));
	else
		rte_log(RTE_LOG_ERR, comch_logtype, "COMCH: %s(): %s is not a live %s%s\n", func,
			name, comch_magic_name(want), dead ?
			": it was destroyed (or, for a connection, it ended and was freed)" :
			" (destroyed, or never created)");
	return true;
}

int
rte_comch_obj_stats_get(struct rte_comch_obj_stats *stats)
{
	if (COMCH_NULL_ARG(stats))
		return -EINVAL;
	comch_objreg_stats(&stats->live, &stats->quarantined, &stats->quarantined_bytes);
	return 0;
}
