/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef RTE_COMCH_H
#define RTE_COMCH_H

/**
 * @file
 * rte_comch: a poll-mode communication channel between a host and a BlueField.
 *
 * This is the umbrella header: include it to get the whole API.
 *
 * Object model (see the programmer's guide for the full picture):
 * - rte_comch_dev / rte_comch_dev_rep: a device opened from devargs, and on the
 *   BlueField (DPU) side, a representor of one host function.
 * - rte_comch_pe: a progress engine, owned by one lcore. Every context is attached
 *   to one engine; callbacks only run inside rte_comch_pe_progress() on that lcore.
 * - rte_comch_ctx: the state machine (idle, starting, running, stopping) shared by
 *   servers and clients.
 * - rte_comch_task: an asynchronous operation taken from a context's pool.
 * - rte_comch_server, rte_comch_client, rte_comch_connection: the control path.
 * - rte_comch_mmap, rte_comch_buf, rte_comch_buf_pool: registered memory and
 *   buffers, for the fast path.
 * - rte_comch_producer, rte_comch_consumer: the fast path on a connection or a MsgQ.
 * - rte_comch_msgq: producers and consumers between CPU code and DPA programs.
 * The legacy endpoint API (sockets-like, over servers and clients) is a library
 * of its own, librte_comch_ep: rte_comch_ep.h, not included here.
 *
 * Error model:
 * - Functions returning int return 0 on success or a negative errno value.
 * - Constructors return NULL on failure and set rte_errno to a positive errno value.
 * - Every refusal also logs its reason on the "lib.comch" (or driver) log type.
 *
 * Mapping from DOCA error names, for readers coming from DOCA Comch:
 *   AGAIN -> -EAGAIN, BAD_STATE -> -EBUSY, NOT_PERMITTED -> -EPERM, IN_USE -> -EBUSY,
 *   NO_MEMORY -> -ENOMEM, TOO_BIG -> -EMSGSIZE, INVALID_VALUE -> -EINVAL,
 *   NOT_CONNECTED -> -ENOTCONN, CONNECTION_RESET -> -ECONNRESET,
 *   CONNECTION_ABORTED -> -ECONNABORTED, IN_PROGRESS -> -EINPROGRESS,
 *   NOT_FOUND -> -ENOENT, ALREADY_EXIST -> -EEXIST, NOT_SUPPORTED -> -ENOTSUP,
 *   TIME_OUT -> -ETIMEDOUT, UNSUPPORTED_VERSION -> -EPROTO, FULL -> -ENOSPC.
 *
 * Object lifetimes: handles are pointers, and a handle must not be used after
 * its object was destroyed (or, for a connection, after it ended and was
 * freed). The library still refuses such a stale handle with -EINVAL (NULL and
 * rte_errno EINVAL for constructors) and a log line, without touching any
 * other object: destroy, create, start, stop and configuration calls look the
 * handle up in a registry of live objects; per-message calls check the
 * object's magic word. A destroyed object's memory is kept back (up to 1024
 * objects and 4 MiB, the oldest freed first), so that a new object does not
 * get the address of one destroyed just before and the magic word stays
 * readable. rte_comch_obj_stats_get() tells what is live and kept back.
 *
 * Thread safety:
 * | object                 | rule                                                       |
 * |------------------------|------------------------------------------------------------|
 * | driver registry        | registration happens in constructors, before main()        |
 * | rte_comch_dev, dev_rep | open/close from one thread; info and stats from any thread |
 * | rte_comch_pe           | any thread, one at a time (a second one at the same time:  |
 * |                        | -EBUSY); handed over with the program's synchronisation    |
 * | contexts, connections, | used by the thread using the engine they are attached to   |
 * | tasks                  | (no locks: the engine is the unit of parallelism)          |
 * | producers, consumers   | created and destroyed by the thread using their            |
 * |                        | connection's engine; started, stopped, submitted,          |
 * |                        | progressed by the one using their own                      |
 * | rte_comch_mmap         | configure, start, stop, destroy from one thread            |
 * | rte_comch_msgq         | configure, start, stop, destroy from one thread; its       |
 * |                        | producers and consumers are created on any lcore           |
 * | buffer pools, refcounts| any lcore                                                  |
 * | telemetry              | reads counters from the telemetry thread, lock-free        |
 */

#include <stdint.h>

#include <rte_comch_version.h>

#include <rte_comch_types.h>
#include <rte_comch_dev.h>
#include <rte_comch_pe.h>
#include <rte_comch_ctx.h>
#include <rte_comch_task.h>
#include <rte_comch_ctrl.h>
#include <rte_comch_mmap.h>
#include <rte_comch_producer.h>
#include <rte_comch_consumer.h>
#include <rte_comch_msgq.h>

#ifdef __cplusplus
extern "C" {
#endif

#include <rte_compat.h>

/** What the library holds for its objects (rte_comch_obj_stats_get()). */
struct rte_comch_obj_stats {
	uint32_t live;              /**< Objects created and not destroyed (any kind). */
	uint32_t quarantined;       /**< Destroyed objects' memory blocks kept back. */
	uint64_t quarantined_bytes; /**< Bytes of those blocks. */
};

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * What the library holds for its objects: how many are live (devices,
 * representors, engines, servers, clients, connections, producers, consumers,
 * mmaps, buffer pools, MsgQs), and the memory of destroyed ones it keeps back
 * so that stale handles are refused (see "Object lifetimes" above). An
 * application that destroyed everything it made sees live == 0: a way to find
 * leaked objects. Thread-safe. Also in telemetry: /comch/objects.
 *
 * @param stats
 *   Filled in.
 * @return
 *   0, or -EINVAL if stats is NULL.
 */
__rte_experimental
int
rte_comch_obj_stats_get(struct rte_comch_obj_stats *stats);

#ifdef __cplusplus
}
#endif

#endif /* RTE_COMCH_H */
