/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef DOCA_COMPAT_TYPES_H
#define DOCA_COMPAT_TYPES_H

/**
 * @file
 * DOCA compatibility layer: common types.
 *
 * Part of rte_comch's DOCA source-compatibility layer (librte_comch_doca): the
 * DOCA names a Comch program uses, implemented over rte_comch. See the guide
 * "DOCA compatibility layer" for what is covered and what differs from a BlueField.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
/* DOCA's headers bring these in, and DOCA programs rely on it (strlen, snprintf, malloc). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Which side the program is built for (DOCA_ARCH_DPU), as with DOCA's headers. */
#include <doca_build_config.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Marker DOCA puts on its experimental declarations; nothing here. */
#define DOCA_EXPERIMENTAL
/** Marker DOCA puts on its stable declarations; nothing here. */
#define DOCA_STABLE
/** Marker DOCA puts on its deprecated declarations; nothing here. */
#define DOCA_DEPRECATED

/** User data: a pointer or a 64-bit value, as the application chooses. */
union doca_data {
	void *ptr;    /**< A pointer. */
	uint64_t u64; /**< A 64-bit value. */
};

/** Memory access rights of an mmap (doca_mmap_set_permissions()), OR-ed together. */
enum doca_access_flag {
	DOCA_ACCESS_FLAG_LOCAL_READ_ONLY = 0,            /**< The local process reads. */
	DOCA_ACCESS_FLAG_LOCAL_READ_WRITE = (1 << 0),    /**< The local process reads and writes. */
	DOCA_ACCESS_FLAG_RDMA_READ = (1 << 1),           /**< Not supported by the layer. */
	DOCA_ACCESS_FLAG_RDMA_WRITE = (1 << 2),          /**< Not supported by the layer. */
	DOCA_ACCESS_FLAG_RDMA_ATOMIC = (1 << 3),         /**< Not supported by the layer. */
	DOCA_ACCESS_FLAG_PCI_READ_ONLY = (1 << 4),       /**< The peer reads. */
	DOCA_ACCESS_FLAG_PCI_READ_WRITE = (1 << 5),      /**< The peer reads and writes. */
	DOCA_ACCESS_FLAG_PCI_RELAXED_ORDERING = (1 << 6), /**< Accepted; no effect here. */
};

/** PCI function types (doca_devinfo_get_pci_func_type()). */
enum doca_pci_func_type {
	DOCA_PCI_FUNC_TYPE_PF = 0, /**< Physical function: every device here. */
	DOCA_PCI_FUNC_TYPE_VF = 1, /**< Virtual function. */
	DOCA_PCI_FUNC_TYPE_SF = 2, /**< Sub-function. */
};

/** An event handle: a file descriptor to wait on with epoll or poll. */
typedef int doca_event_handle_t;
/** A progress engine's notification handle: a file descriptor. */
typedef int doca_notification_handle_t;
/** Value of a handle that is not set. */
#define doca_event_invalid_handle (-1)

#ifdef __cplusplus
}
#endif

#endif /* DOCA_COMPAT_TYPES_H */
