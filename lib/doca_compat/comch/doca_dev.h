/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef DOCA_COMPAT_DEV_H
#define DOCA_COMPAT_DEV_H

/**
 * @file
 * DOCA compatibility layer: devices, representors and their information.
 *
 * DOCA programs find devices by PCI address. Here a PCI address names an
 * rte_comch device through a mapping (see the guide, "Devices"):
 * - RTE_COMCH_DOCA_DEVICES="<pci>=<devargs>;..." and
 *   RTE_COMCH_DOCA_REPS="<pci>=<function>;..." (environment), or
 * - `RTE_COMCH_DOCA_CONFIG=<file>` with lines "dev <pci> <devargs>" and
 *   "rep <pci> <function>" ('#' starts a comment), or
 * - by default, one device, "shm:domain=doca", that answers to every PCI
 *   address, and whose representors answer to every PCI address too: two
 *   processes on one machine find each other with no set-up.
 * A device whose devargs give no role= opens as the host side and is reopened as
 * the side a call needs (the BlueField side to list representors or create a
 * server, the host side to create a client) while nothing created on it holds it.
 *
 * Thread-safety: every function here may be called from any thread; a device
 * may be used by several threads, a device list by one at a time.
 */

#include <stdint.h>

#include <doca_error.h>
#include <doca_types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_devinfo;
struct doca_devinfo_rep;
struct doca_dev;
struct doca_dev_rep;

/** Size of a PCI address string "dddd:bb:dd.f" with its NUL. */
#define DOCA_DEVINFO_PCI_ADDR_SIZE 13
/** Size of a representor's PCI address string, with its NUL. */
#define DOCA_DEVINFO_REP_PCI_ADDR_SIZE 13
/** Size of an InfiniBand device name buffer, with its NUL. */
#define DOCA_DEVINFO_IBDEV_NAME_SIZE 64
/** Size of a network interface name buffer, with its NUL. */
#define DOCA_DEVINFO_IFACE_NAME_SIZE 256
/** Size of a representor's interface name buffer, with its NUL. */
#define DOCA_DEVINFO_REP_IFACE_NAME_SIZE 256

/** Size of a representor's VUID buffer, with its NUL. */
#define DOCA_DEVINFO_REP_VUID_SIZE 128

/** Which representors doca_devinfo_rep_create_list() lists. */
enum doca_devinfo_rep_filter {
	DOCA_DEVINFO_REP_FILTER_ALL = 0,      /**< Every representor. */
	DOCA_DEVINFO_REP_FILTER_NET = 1 << 1, /**< Network functions: every representor here. */
	DOCA_DEVINFO_REP_FILTER_EMULATED = 1 << 2, /**< Emulated functions: none here. */
};

/**
 * List the devices (one per mapping entry). Starts EAL on first use.
 *
 * @param dev_list Set to a NULL-terminated array of devices, freed with
 *   doca_devinfo_destroy_list().
 * @param nb_devs Set to the number of devices.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (NULL argument, or a mapping
 *   that does not parse: the log says where); DOCA_ERROR_NO_MEMORY;
 *   DOCA_ERROR_INITIALIZATION if EAL cannot start; DOCA_ERROR_NOT_FOUND if the
 *   mapping names no device.
 */
doca_error_t
doca_devinfo_create_list(struct doca_devinfo ***dev_list, uint32_t *nb_devs);

/**
 * Free a list from doca_devinfo_create_list(). Opened devices stay open.
 *
 * @param dev_list The list.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if dev_list is NULL.
 */
doca_error_t
doca_devinfo_destroy_list(struct doca_devinfo **dev_list);

/**
 * A device's PCI address, "dddd:bb:dd.f" (the default device: "0000:03:00.0").
 *
 * @param devinfo The device.
 * @param pci_addr_str Buffer of DOCA_DEVINFO_PCI_ADDR_SIZE bytes.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument.
 */
doca_error_t
doca_devinfo_get_pci_addr_str(const struct doca_devinfo *devinfo, char *pci_addr_str);

/**
 * Whether a device answers to a PCI address ("bb:dd.f" or "dddd:bb:dd.f").
 *
 * @param devinfo The device.
 * @param pci_addr_str The address.
 * @param is_equal Set to 1 if it does (the default device answers to every
 *   well-formed address), else 0.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument or a
 *   malformed address.
 */
doca_error_t
doca_devinfo_is_equal_pci_addr(const struct doca_devinfo *devinfo, const char *pci_addr_str,
			       uint8_t *is_equal);

/**
 * The device's name, standing in for an InfiniBand device name: the rte_comch
 * device name ("comch<index>" for the default device).
 *
 * @param devinfo The device.
 * @param ibdev_name Buffer.
 * @param size Its size (at least the name's length plus one).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument or a
 *   buffer too small.
 */
doca_error_t
doca_devinfo_get_ibdev_name(const struct doca_devinfo *devinfo, char *ibdev_name, uint32_t size);

/**
 * Same as doca_devinfo_get_ibdev_name(): devices here have no network interface.
 *
 * @param devinfo The device.
 * @param iface_name Buffer.
 * @param size Its size.
 * @return As doca_devinfo_get_ibdev_name().
 */
doca_error_t
doca_devinfo_get_iface_name(const struct doca_devinfo *devinfo, char *iface_name, uint32_t size);

/**
 * Whether the device's name (doca_devinfo_get_ibdev_name()) is ibdev_name.
 *
 * @param devinfo The device.
 * @param ibdev_name A name.
 * @param is_equal Set to 1 or 0.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument.
 */
doca_error_t
doca_devinfo_is_equal_ibdev_name(const struct doca_devinfo *devinfo, const char *ibdev_name,
				 uint8_t *is_equal);

/**
 * A device's PCI function type: every device here is a physical function.
 *
 * @param devinfo The device.
 * @param pci_func_type Set to DOCA_PCI_FUNC_TYPE_PF.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument.
 */
doca_error_t
doca_devinfo_get_pci_func_type(const struct doca_devinfo *devinfo,
			       enum doca_pci_func_type *pci_func_type);

/**
 * A sub-function's index. Devices here are never sub-functions.
 *
 * @param devinfo The device.
 * @param sf_index Not set.
 * @return DOCA_ERROR_NOT_SUPPORTED; DOCA_ERROR_INVALID_VALUE on a NULL argument.
 */
doca_error_t
doca_devinfo_get_sf_index(const struct doca_devinfo *devinfo, uint32_t *sf_index);

/**
 * Open a device. Opening one device twice gives two handles on one rte_comch device.
 *
 * @param devinfo The device.
 * @param dev Set to the handle.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE (NULL argument, devargs the
 *   driver refuses); DOCA_ERROR_NOT_FOUND (no such driver); DOCA_ERROR_NO_MEMORY;
 *   other codes mapped from the driver's errno.
 */
doca_error_t
doca_dev_open(struct doca_devinfo *devinfo, struct doca_dev **dev);

/**
 * Close a device handle.
 *
 * @param dev The handle.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if dev is NULL;
 *   DOCA_ERROR_IN_USE while contexts, mmaps or representors opened through this
 *   device still exist (it stays open).
 */
doca_error_t
doca_dev_close(struct doca_dev *dev);

/**
 * The device information of an open device.
 *
 * @param dev The handle.
 * @return The device information; NULL (with a log line) if dev is not a live device.
 */
struct doca_devinfo *
doca_dev_as_devinfo(const struct doca_dev *dev);

/**
 * List the representors of a device: the device becomes the BlueField side.
 *
 * @param dev An open device.
 * @param filter DOCA_DEVINFO_REP_FILTER_ALL or _NET: all representors;
 *   _EMULATED: none.
 * @param dev_list_rep Set to a NULL-terminated array, freed with
 *   doca_devinfo_rep_destroy_list().
 * @param nb_devs_rep Set to the number of representors.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument;
 *   DOCA_ERROR_NOT_PERMITTED if the device is pinned to the host side, or is
 *   in use as the host side; DOCA_ERROR_NO_MEMORY.
 */
doca_error_t
doca_devinfo_rep_create_list(struct doca_dev *dev, int filter,
			     struct doca_devinfo_rep ***dev_list_rep, uint32_t *nb_devs_rep);

/**
 * Whether doca_devinfo_rep_create_list() can list the device's network
 * representors (DOCA_DEVINFO_REP_FILTER_NET): representors are the BlueField
 * side's, so 1 if the device is that side or may still become it (not pinned
 * to the host side by its mapping, nor in use as the host side), else 0. Every
 * representor here is a network function.
 *
 * @param devinfo The device.
 * @param filter_net_supported Set to 1 or 0.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument or a
 *   devinfo not live; the error of opening the device to query it.
 */
doca_error_t
doca_devinfo_rep_cap_is_filter_net_supported(const struct doca_devinfo *devinfo,
					      uint8_t *filter_net_supported);

/**
 * Free a list from doca_devinfo_rep_create_list(). Opened representors stay open.
 *
 * @param dev_list_rep The list.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if it is NULL.
 */
doca_error_t
doca_devinfo_rep_destroy_list(struct doca_devinfo_rep **dev_list_rep);

/**
 * A representor's PCI address (from RTE_COMCH_DOCA_REPS or the config file;
 * "0000:3b:00.0" for an unmapped one).
 *
 * @param devinfo_rep The representor.
 * @param pci_addr_str Buffer of DOCA_DEVINFO_REP_PCI_ADDR_SIZE bytes.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument.
 */
doca_error_t
doca_devinfo_rep_get_pci_addr_str(const struct doca_devinfo_rep *devinfo_rep,
				  char *pci_addr_str);

/**
 * Whether a representor answers to a PCI address. A representor with no
 * mapping entry answers to every well-formed address.
 *
 * @param devinfo_rep The representor.
 * @param pci_addr_str The address.
 * @param is_equal Set to 1 or 0.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument or a
 *   malformed address.
 */
doca_error_t
doca_devinfo_rep_is_equal_pci_addr(const struct doca_devinfo_rep *devinfo_rep,
				   const char *pci_addr_str, uint8_t *is_equal);

/**
 * A representor's unique id: here, its host function name ("pf0", ...).
 *
 * @param devinfo_rep The representor.
 * @param rep_vuid Buffer.
 * @param size Its size.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument or a
 *   buffer too small.
 */
doca_error_t
doca_devinfo_rep_get_vuid(const struct doca_devinfo_rep *devinfo_rep, char *rep_vuid,
			  uint32_t size);

/**
 * Open a representor.
 *
 * @param devinfo_rep The representor.
 * @param dev_rep Set to the handle.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE on a NULL argument;
 *   DOCA_ERROR_NO_MEMORY; DOCA_ERROR_NOT_FOUND if the device no longer has it.
 */
doca_error_t
doca_dev_rep_open(struct doca_devinfo_rep *devinfo_rep, struct doca_dev_rep **dev_rep);

/**
 * Close a representor.
 *
 * @param dev_rep The handle.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE if it is NULL; DOCA_ERROR_IN_USE
 *   while a server uses it.
 */
doca_error_t
doca_dev_rep_close(struct doca_dev_rep *dev_rep);

/**
 * The representor information of an open representor.
 *
 * @param dev_rep The handle.
 * @return Its information; NULL (with a log line) if dev_rep is not a live representor.
 */
struct doca_devinfo_rep *
doca_dev_rep_as_devinfo(struct doca_dev_rep *dev_rep);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_COMPAT_DEV_H */
