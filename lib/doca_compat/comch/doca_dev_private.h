/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef DOCA_DEV_PRIVATE_H
#define DOCA_DEV_PRIVATE_H

/* Devices of the DOCA layer: the PCI-address mapping and what a device handle is. */

#include <stdbool.h>

#include <rte_pci.h>

#include "doca_compat_private.h"
#include "doca_dev.h"

#define DC_DEVARGS_MAX 256
#define DC_FN_MAX 32

/*
 * One mapping entry: a DOCA device. Lives as long as the process, so a devinfo
 * pointer stays valid after its list is freed (programs keep it, via their dev).
 */
struct doca_devinfo {
	struct dc_obj obj;		/* first: DC_KIND_DEVINFO, from the load on */
	bool any_pci;			/* the default device: answers to every address */
	struct rte_pci_addr addr;
	char pci[DOCA_DEVINFO_PCI_ADDR_SIZE];
	char devargs[DC_DEVARGS_MAX];	/* without role= unless pinned */
	enum doca_compat_role pinned;
	unsigned int index;
	/* Runtime, under the mapping lock. */
	struct rte_comch_dev *rdev;	/* open while opens > 0 */
	enum doca_compat_role role;	/* what rdev was opened as */
	unsigned int opens;		/* doca_dev handles */
	unsigned int holds;		/* objects created on rdev: the role is fixed */
};

/* A device handle. */
struct doca_dev {
	struct dc_obj obj;		/* first: DC_KIND_DEV */
	struct doca_devinfo *info;
	unsigned int holds;		/* objects created through this handle */
	unsigned int mmap_holds;	/* of which mmaps (doca_compat_dev_hold_memory()) */
	bool closed;			/* closed by the program: ends with its last mmap */
};

/* One representor mapping entry: "rep <pci> <function>". */
struct dc_rep_map {
	struct rte_pci_addr addr;
	char pci[DOCA_DEVINFO_REP_PCI_ADDR_SIZE];
	char fn[DC_FN_MAX];
};

/* A representor's devinfo: an entry of a list, or a representor's copy. */
struct doca_devinfo_rep {
	struct dc_obj obj;		/* first: DC_KIND_DEVINFO_REP */
	struct doca_devinfo *dev;
	bool any_pci;
	struct rte_pci_addr addr;
	char pci[DOCA_DEVINFO_REP_PCI_ADDR_SIZE];
	char fn[DC_FN_MAX];
};

struct doca_dev_rep {
	struct dc_obj obj;		/* first: DC_KIND_DEV_REP */
	struct doca_devinfo_rep info;	/* a copy: the list it came from may be gone */
	struct doca_dev *dev;
	struct rte_comch_dev_rep *rrep;
};
DC_OBJ_FIRST(struct doca_devinfo, obj);
DC_OBJ_FIRST(struct doca_dev, obj);
DC_OBJ_FIRST(struct doca_devinfo_rep, obj);
DC_OBJ_FIRST(struct doca_dev_rep, obj);

/* Load the mapping (once; thread-safe). DOCA_SUCCESS or INVALID_VALUE / NOT_FOUND. */
DC_INTERNAL doca_error_t
dc_map_load(void);
/* Number of devices, and one of them (after a successful load). */
DC_INTERNAL unsigned int
dc_map_nb_devs(void);
DC_INTERNAL struct doca_devinfo *
dc_map_dev(unsigned int i);
/* The representor mapping entry of a function name, or NULL. */
DC_INTERNAL const struct dc_rep_map *
dc_map_rep(const char *fn);
/* Parse "bb:dd.f" or "dddd:bb:dd.f". */
DC_INTERNAL bool
dc_pci_parse(const char *str, struct rte_pci_addr *addr);
/* Lock around the devices' runtime fields. */
DC_INTERNAL void
dc_map_lock(void);
DC_INTERNAL void
dc_map_unlock(void);
/* rte_comch's information about a device, opening it for a moment if it is not open. */
DC_INTERNAL doca_error_t
dc_devinfo_query(const struct doca_devinfo *devinfo, struct rte_comch_dev_info *info);

#endif /* DOCA_DEV_PRIVATE_H */
