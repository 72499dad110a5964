/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef RTE_COMCH_DEV_H
#define RTE_COMCH_DEV_H

/**
 * @file
 * Devices, representors, capabilities and device statistics.
 *
 * A device is opened from a devargs string "<driver>:<key>=<value>,...", for
 * example "shm:domain=bf0,role=dpu,rep=pf0,rep=pf0vf1" on the BlueField side and
 * "shm:domain=bf0,role=host,fn=pf0vf1" on the host side. Each driver documents its
 * keys in its guide page.
 *
 * Thread safety: open and close from one thread, while no context uses the
 * device; the query functions may be called from any thread.
 */

#include <stdint.h>

#include <rte_compat.h>

#include <rte_bitops.h>

#include <rte_comch_types.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Maximum length of a driver name, including the terminating NUL. */
#define RTE_COMCH_DRIVER_NAME_MAX 32
/** Maximum length of a device name, including the terminating NUL. */
#define RTE_COMCH_DEV_NAME_MAX 64
/** Maximum length of a representor (host function) name, including the NUL. */
#define RTE_COMCH_REP_NAME_MAX 32
/** Maximum number of devices open at once in one process. */
#define RTE_COMCH_MAX_DEVS 32
/** Longest devargs string, including the NUL. */
#define RTE_COMCH_DEVARGS_MAX 1024

struct rte_comch_dev;
struct rte_comch_dev_rep;

/** Which side of the channel a device is on. */
enum rte_comch_dev_role {
	RTE_COMCH_ROLE_HOST = 0, /**< Host side: runs clients. */
	RTE_COMCH_ROLE_DPU = 1,  /**< BlueField Arm side: runs servers, has representors. */
};

/** @name Device capabilities (rte_comch_dev_info.capa)
 * @{
 */
/** Servers can be created on the device (BlueField side). */
#define RTE_COMCH_CAPA_SERVER RTE_BIT64(0)
/** Clients can be created on the device (host side). */
#define RTE_COMCH_CAPA_CLIENT RTE_BIT64(1)
/** Fast-path producers. */
#define RTE_COMCH_CAPA_PRODUCER RTE_BIT64(2)
/** Fast-path consumers. */
#define RTE_COMCH_CAPA_CONSUMER RTE_BIT64(3)
/** MsgQ (channels to the DPA, no server or client). */
#define RTE_COMCH_CAPA_MSGQ RTE_BIT64(4)
/** Engines can sleep on the notification fd with this device's contexts attached. */
#define RTE_COMCH_CAPA_SLEEP RTE_BIT64(5)
/** The peer runs in another process (a crash or exit of one side is survived). */
#define RTE_COMCH_CAPA_MULTI_PROCESS RTE_BIT64(6)
/** @} */

/**
 * Device capabilities, filled by rte_comch_dev_info_get().
 */
struct rte_comch_dev_info {
	char driver_name[RTE_COMCH_DRIVER_NAME_MAX]; /**< Driver that runs the device. */
	char name[RTE_COMCH_DEV_NAME_MAX];          /**< Device name (from the devargs). */
	enum rte_comch_dev_role role;               /**< Host or BlueField side. */
	uint16_t dev_id;                            /**< Index, as used by telemetry. */
	uint32_t max_name_len;       /**< Longest server name, including the NUL. */
	uint32_t max_msg_size;       /**< Largest control-path message the driver allows. */
	uint32_t default_msg_size;   /**< Control-path message size used when none is set. */
	uint32_t max_recv_queue_size; /**< Largest receive queue, in messages. */
	uint32_t max_clients;        /**< Most clients connected to one server. */
	uint32_t max_send_tasks;     /**< Most send tasks in one context's pool. */
	uint64_t capa;               /**< RTE_COMCH_CAPA_* bits; more may be added. */
	uint32_t max_fast_tasks;     /**< Most tasks in one producer's or consumer's pool. */
	uint64_t max_buf_size;       /**< Largest fast-path message (buffer data). */
	uint32_t max_producers;      /**< Most producers on one connection (one side). */
	uint32_t max_consumers;      /**< Most consumers on one connection (one side). */
	uint32_t max_imm_data_len;   /**< Longest immediate data of a fast-path message. */
	/**
	 * Most consumers the peer may announce on one connection (the devargs
	 * key max_peer_consumers; more are refused, the connection stays).
	 */
	uint32_t max_peer_consumers;
};

/**
 * Device-wide counters. Every field only grows, until rte_comch_dev_stats_reset().
 */
struct rte_comch_dev_stats {
	uint64_t connections_opened; /**< Connections established (both sides). */
	uint64_t connections_closed; /**< Connections that ended, for any reason. */
	uint64_t connections_rejected; /**< Handshakes refused (limits, names, versions). */
	uint64_t peer_errors;        /**< Peers disconnected for breaking the protocol. */
	uint64_t msgs_sent;          /**< Control-path messages consumed by peers. */
	uint64_t bytes_sent;         /**< Bytes of those messages. */
	uint64_t msgs_received;      /**< Control-path messages delivered to callbacks. */
	uint64_t bytes_received;     /**< Bytes of those messages. */
	uint64_t send_errors;        /**< Send tasks that completed with an error. */
	/**
	 * Requests of peers refused because they would go past a budget, the
	 * connection (or the server) staying up: consumers announced past
	 * max_peer_consumers or a driver's budget of descriptors or mapped memory
	 * (refused with ENOSPC or EMFILE), and connections a driver refused for
	 * a peer's budget (also in connections_rejected). See the driver's guide
	 * for its budgets.
	 */
	uint64_t budget_refusals;
};

/**
 * Open a device.
 *
 * @param devargs
 *   "<driver>:<key>=<value>,..." as described above. The driver part is required.
 *   Besides its driver's keys, every device takes the library's:
 *   - max_peer_consumers=<1..256>: consumers the peer may announce on one
 *     connection (default 64). An announcement beyond it is refused: the
 *     peer's consumer fails to start with -ENOSPC, the connection stays.
 * @return
 *   The device, or NULL with rte_errno set:
 *   - EINVAL: devargs is NULL, malformed (no "<driver>" before the first '=' or
 *     ','), or has an unknown or bad key/value.
 *   - ENODEV: no driver of that name is registered.
 *   - ENOSPC: RTE_COMCH_MAX_DEVS devices are already open.
 *   - EEXIST: a device with the same name is already open in this process.
 *   - ENOMEM: out of memory.
 *   - other: the driver's own errors, documented in its guide page.
 */
__rte_experimental
struct rte_comch_dev *
rte_comch_dev_open(const char *devargs);

/** A device a driver can open (rte_comch_dev_list()). */
struct rte_comch_dev_desc {
	/** The driver's name, the devargs prefix. */
	char driver[RTE_COMCH_DEV_NAME_MAX];
	/**
	 * What rte_comch_dev_open() takes to open it, without the side: add
	 * ",role=host" (and the function) or ",role=dpu" (and representors) as
	 * the driver's guide page says.
	 */
	char devargs[RTE_COMCH_DEVARGS_MAX];
	/** What it is, for people (the driver's words: port, link, address). */
	char description[128];
};

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * List the devices the registered drivers can open on this machine: each
 * driver that can enumerate its devices (the mlx5 driver lists rdma-core's
 * devices and ports; the shm driver, the domains whose BlueField side runs in
 * its runtime directory) adds its own, in the order drivers registered. Any
 * thread.
 *
 * @param descs
 *   Filled with up to n devices; may be NULL if n is 0 (to count them).
 * @param n
 *   Room in descs.
 * @return
 *   How many devices there are (more than n if descs was too short: the
 *   first n are filled), or -EINVAL if descs is NULL and n is not 0.
 */
__rte_experimental
int
rte_comch_dev_list(struct rte_comch_dev_desc *descs, unsigned int n);

/**
 * Close a device.
 *
 * @param dev
 *   The device.
 * @return
 *   0 on success; -EINVAL if dev is NULL or not a live device; -EBUSY while
 *   representors, servers, clients, mmaps (rte_comch_mmap_add_dev()) or MsgQs
 *   of it still exist.
 */
__rte_experimental
int
rte_comch_dev_close(struct rte_comch_dev *dev);

/**
 * Query a device's capabilities.
 *
 * @param dev
 *   The device.
 * @param info
 *   Filled in with its capabilities.
 * @return
 *   0 on success; -EINVAL if dev or info is NULL.
 */
__rte_experimental
int
rte_comch_dev_info_get(const struct rte_comch_dev *dev, struct rte_comch_dev_info *info);

/**
 * Find an open device by its index.
 *
 * @param dev_id
 *   The device's index (rte_comch_dev_info.dev_id).
 * @return
 *   The device, or NULL with rte_errno set to ENODEV if none has that index.
 */
__rte_experimental
struct rte_comch_dev *
rte_comch_dev_get_by_id(uint16_t dev_id);

/**
 * Read device-wide counters.
 *
 * @param dev
 *   The device.
 * @param stats
 *   Filled in with the counters since open or the last reset.
 * @return
 *   0 on success; -EINVAL if dev or stats is NULL.
 */
__rte_experimental
int
rte_comch_dev_stats_get(const struct rte_comch_dev *dev, struct rte_comch_dev_stats *stats);

/**
 * Zero device-wide counters.
 *
 * @param dev
 *   The device.
 * @return
 *   0 on success; -EINVAL if dev is NULL.
 */
__rte_experimental
int
rte_comch_dev_stats_reset(struct rte_comch_dev *dev);

/**
 * List the representors (host functions) a BlueField-side device offers.
 *
 * @param dev
 *   A device opened with the DPU role.
 * @param names
 *   Array filled with up to n names (pointers owned by the device), or NULL to
 *   only count.
 * @param n
 *   Size of the names array.
 * @return
 *   The number of representors (which may exceed n); -EINVAL if dev is NULL or
 *   names is NULL with n > 0; -EPERM if dev is a host-side device.
 */
__rte_experimental
int
rte_comch_dev_rep_list(const struct rte_comch_dev *dev, const char **names, unsigned int n);

/**
 * Open a representor of a BlueField-side device.
 *
 * @param dev
 *   A device opened with the DPU role.
 * @param name
 *   Host function name, one of those rte_comch_dev_rep_list() returns.
 * @return
 *   The representor, or NULL with rte_errno set:
 *   - EINVAL: dev or name is NULL.
 *   - EPERM: dev is a host-side device.
 *   - ENOENT: the device has no representor of that name.
 *   - ENOMEM: out of memory.
 */
__rte_experimental
struct rte_comch_dev_rep *
rte_comch_dev_rep_open(struct rte_comch_dev *dev, const char *name);

/**
 * Close a representor.
 *
 * @param rep
 *   The representor.
 * @return
 *   0 on success; -EINVAL if rep is NULL; -EBUSY while servers use it.
 */
__rte_experimental
int
rte_comch_dev_rep_close(struct rte_comch_dev_rep *rep);

/**
 * Name of a representor.
 *
 * @param rep
 *   The representor.
 * @return
 *   The name, or NULL with rte_errno set to EINVAL if rep is NULL.
 */
__rte_experimental
const char *
rte_comch_dev_rep_name(const struct rte_comch_dev_rep *rep);

#ifdef __cplusplus
}
#endif

#endif /* RTE_COMCH_DEV_H */
