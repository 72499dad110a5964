/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef MLX5_FAKE_H
#define MLX5_FAKE_H

/**
 * @file
 * A fake verbs provider: a whole RoCE fabric inside the process, behind the
 * mlx5 driver's glue table (struct rte_comch_mlx5_glue).
 *
 * Tests configure devices (by name, with ports and the IP addresses each
 * one owns for rdma_cm), install mlx5_fake_glue() with
 * rte_comch_mlx5_glue_set(), inject faults and read counters. Every call of
 * the glue and of this API takes one fabric lock: any thread may call.
 *
 * What the fake models faithfully, what it simplifies and what it leaves
 * out is in test/mlx5_fake/README.md.
 *
 * For tests only; not installed.
 */

#include <stdbool.h>
#include <stdint.h>

#include "mlx5_glue.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The glue table of the fake fabric (name "mlx5_fake"). */
const struct rte_comch_mlx5_glue *mlx5_fake_glue(void);

/**
 * Destroy every object of the fabric (contexts, PDs, MRs, CQs, channels and
 * their fds, SRQs, QPs, rdma_cm ids, events), the devices, the faults and
 * the counters; back to synchronous execution. Pointers handed out before
 * are dangling afterwards.
 *
 * @return
 *   The number of objects the application had left alive (leaks: anything
 *   created through the glue and not destroyed, retrieved rdma_cm events
 *   not acknowledged, CQ events not acknowledged).
 */
unsigned int mlx5_fake_reset(void);

/* ---------------------------------------------------------- configuration */

/**
 * Add a device ("mlx5_0"...), RoCE (Ethernet link layer), ports ACTIVE,
 * active MTU 1024, GID 0 of each port a link-local address.
 *
 * @param name
 *   The device name (ibv_get_device_name()), unique, shorter than 64.
 * @param nb_ports
 *   1 or 2.
 * @return
 *   0, -EINVAL (bad name or port count), -EEXIST, -ENOSPC (too many devices).
 */
int mlx5_fake_add_device(const char *name, unsigned int nb_ports);

/**
 * Give a port of a device an IP address: rdma_cm binds, resolves and
 * connects through it, and the port gets its RoCE v2 GID (IPv4-mapped for
 * IPv4) at the next free GID index.
 *
 * @param dev
 *   The device name.
 * @param port
 *   The port number, from 1.
 * @param ip
 *   An IPv4 or IPv6 address in text form, unique in the fabric.
 * @return
 *   0, -ENODEV, -EINVAL (bad port or address), -EEXIST, -ENOSPC.
 */
int mlx5_fake_add_addr(const char *dev, unsigned int port, const char *ip);

/**
 * Set the active MTU of a port (rdma_cm's path MTU is the smaller of the
 * two ends').
 *
 * @return
 *   0, -ENODEV, -EINVAL.
 */
int mlx5_fake_set_port_mtu(const char *dev, unsigned int port, enum ibv_mtu mtu);

/* ---------------------------------------------------------- execution */

/**
 * Delay mode. Off (the default, synchronous mode): a posted work request is
 * executed before post returns, when it can be (the responder has a receive
 * posted...), and every post, poll_cq, req_notify_cq and modify_qp of the
 * fabric is a "tick" that retries what waits (RNR). On: posts only queue;
 * nothing executes until mlx5_fake_progress().
 */
void mlx5_fake_set_delay(bool on);

/**
 * Execute queued work requests, in order per QP, round robin between QPs;
 * one tick (see mlx5_fake_set_delay()).
 *
 * @param max
 *   At most this many work requests executed (0: as many as can run).
 * @return
 *   The number executed (completed, in success or error).
 */
unsigned int mlx5_fake_progress(unsigned int max);

/**
 * WRITE reordering. On: the data of an RDMA WRITE (without immediate) is
 * placed, and its completion generated, only when the next work request of
 * the same QP executes, at mlx5_fake_progress(), or when the requester
 * polls or arms its send CQ: a peer that polls memory instead of waiting for
 * the SEND that follows the WRITE sees stale data, as the verbs semantics
 * allow.
 */
void mlx5_fake_set_write_reorder(bool on);

/* ---------------------------------------------------------- faults */

/** The calls mlx5_fake_fail_next() can fail. */
enum mlx5_fake_op {
	MLX5_FAKE_OP_REG_MR,
	MLX5_FAKE_OP_ALLOC_PD,
	MLX5_FAKE_OP_CREATE_CQ,
	MLX5_FAKE_OP_CREATE_QP,   /**< cm_create_qp too. */
	MLX5_FAKE_OP_CREATE_SRQ,
	MLX5_FAKE_OP_CREATE_COMP_CHANNEL,
	MLX5_FAKE_OP_CREATE_ID,
	/** ibv_post_recv(): nothing posted, *bad_wr the first request (a QP in trouble). */
	MLX5_FAKE_OP_POST_RECV,
	MLX5_FAKE_OP_MAX
};

/**
 * Fail the next n calls of op with err (ENOMEM when 0), as rdma-core does:
 * NULL with errno, -1 with errno for the rdma_cm calls, the error itself
 * for a post.
 */
void mlx5_fake_fail_next(enum mlx5_fake_op op, unsigned int n, int err);

/**
 * Lose the next n completion-channel events: the CQ's arm is consumed by
 * the completion and nothing is written to the channel.
 */
void mlx5_fake_lose_cq_events(unsigned int n);

/**
 * Move a QP to the error state as hardware does on a fatal error: every
 * outstanding work request completes with IBV_WC_WR_FLUSH_ERR. qp->state
 * is not updated (rdma-core updates it only in ibv_modify_qp()): read the
 * true state with mlx5_fake_qp_state().
 *
 * @return
 *   0, -EINVAL (not a QP of the fabric).
 */
int mlx5_fake_qp_to_err(struct ibv_qp *qp);

/**
 * Drop the connection of an rdma_cm id: the QPs of both ends go to the
 * error state (flushes) and both ids get RDMA_CM_EVENT_DISCONNECTED.
 *
 * @return
 *   0, -EINVAL (not a connected id of the fabric).
 */
int mlx5_fake_drop_conn(struct rdma_cm_id *id);

/**
 * Drop everything between two devices: every QP of one connected to the
 * other goes to the error state, and every rdma_cm connection between them
 * gets RDMA_CM_EVENT_DISCONNECTED at both ends. New connections work.
 *
 * @return
 *   The number of QPs moved to error, or -ENODEV.
 */
int mlx5_fake_drop_link(const char *a, const char *b);

/**
 * Take a device down: its ports report IBV_PORT_DOWN, its QPs and every QP
 * connected to it go to the error state, its rdma_cm connections get
 * DISCONNECTED at both ends; until mlx5_fake_restore_device() its addresses
 * do not resolve and nothing reaches it. With silent, nothing is moved and
 * no event is raised: the device just stops answering (a crashed host); the
 * peers learn it from IBV_WC_RETRY_EXC_ERR on their next request.
 *
 * @return
 *   0, -ENODEV.
 */
int mlx5_fake_drop_device(const char *name, bool silent);

/** Bring a dropped device back (ports ACTIVE). @return 0, -ENODEV. */
int mlx5_fake_restore_device(const char *name);

/* ---------------------------------------------------------- inspection */

/**
 * The QPs of the fabric, oldest first: for a test to find the one to fault
 * (a driver's QPs are not the test's to see otherwise).
 *
 * @param qps
 *   Filled with up to max of them.
 * @param cm
 *   If not NULL, cm[i] says whether qps[i] is an rdma_cm id's (made by
 *   rdma_create_qp()) rather than made by hand (ibv_create_qp()).
 * @param max
 *   Room in qps (and cm).
 * @return
 *   How many there are (more than max if qps was too short).
 */
unsigned int mlx5_fake_qps(struct ibv_qp **qps, bool *cm, unsigned int max);

/** The true state of a QP (qp->state is what the last ibv_modify_qp() set), or -EINVAL. */
int mlx5_fake_qp_state(const struct ibv_qp *qp);

/** What the fabric did, for tests to assert on; reset by mlx5_fake_reset(). */
struct mlx5_fake_counters {
	uint64_t wqe_executed;     /**< Work requests executed (success or error). */
	uint64_t rnr_naks;         /**< RNR NAKs: a SEND found no receive (each retry counts). */
	uint64_t rnr_retry_exceeded; /**< IBV_WC_RNR_RETRY_EXC_ERR completions. */
	uint64_t retry_exceeded;   /**< IBV_WC_RETRY_EXC_ERR completions (no live peer). */
	uint64_t rem_access_errors; /**< IBV_WC_REM_ACCESS_ERR completions. */
	uint64_t local_errors;     /**< LOC_PROT_ERR and LOC_LEN_ERR completions. */
	uint64_t flushed;          /**< IBV_WC_WR_FLUSH_ERR completions. */
	uint64_t qp_async_errors;  /**< QPs moved to error not by modify_qp. */
	uint64_t cq_overflows;     /**< CQs that overflowed (now in error). */
	uint64_t cqes_dropped;     /**< Completions lost to a CQ in error. */
	uint64_t cq_events;        /**< Events written to completion channels. */
	uint64_t cq_events_lost;   /**< Events lost by mlx5_fake_lose_cq_events(). */
	uint64_t cm_events;        /**< rdma_cm events queued. */
	uint64_t busy;             /**< EBUSY returned where rdma-core blocks forever. */
	uint64_t misuse;           /**< Calls with undefined behaviour in rdma-core (logged). */
	uint64_t faults;           /**< Faults injected that took effect. */
};

/** Copy the counters. */
void mlx5_fake_get_counters(struct mlx5_fake_counters *c);

#ifdef __cplusplus
}
#endif

#endif /* MLX5_FAKE_H */
