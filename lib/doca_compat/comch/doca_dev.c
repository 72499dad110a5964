/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * DOCA devices and representors over rte_comch devices. A DOCA device is a
 * mapping entry (doca_devmap.c); its rte_comch device is open while a handle is.
 * DOCA programs choose their side by what they do, not by how they open the
 * device: an unpinned device opens as the host side and is reopened as the
 * BlueField side when the program first needs representors or a server.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bsd/string.h>

#include <rte_errno.h>

#include "doca_dev_private.h"

/*
 * The lists handed out: the application holds the array, so the head (in the
 * registry at the array's address) sits before it. A representor list is one
 * allocation: head, array, entries, then the names rte_comch gives.
 */
struct dc_devinfo_list {
	struct dc_obj obj;		/* DC_KIND_DEVINFO_LIST, at the address of items */
	struct doca_devinfo *items[];	/* NULL-terminated */
};

struct dc_devinfo_rep_list {
	struct dc_obj obj;		/* DC_KIND_DEVINFO_REP_LIST, at the address of items */
	struct doca_devinfo_rep *items[];	/* NULL-terminated */
};

/* Open e->rdev as role (the mapping lock is held). */
static doca_error_t
dc_rdev_open(struct doca_devinfo *e, enum doca_compat_role role)
{
	char devargs[DC_DEVARGS_MAX + 16];

	if (e->pinned != DOCA_COMPAT_ROLE_ANY)
		strlcpy(devargs, e->devargs, sizeof(devargs));
	else
		snprintf(devargs, sizeof(devargs), "%s,role=%s", e->devargs,
			 role == DOCA_COMPAT_ROLE_DPU ? "dpu" : "host");
	e->rdev = rte_comch_dev_open(devargs);
	if (e->rdev == NULL) {
		DC_LOG(ERR, "cannot open %s (PCI %s): %s", devargs, e->pci, rte_strerror(rte_errno));
		return rte_comch_doca_error_from_errno(-rte_errno);
	}
	e->role = role;
	return DOCA_SUCCESS;
}

static enum doca_compat_role
dc_default_role(const struct doca_devinfo *e)
{
	return e->pinned != DOCA_COMPAT_ROLE_ANY ? e->pinned : DOCA_COMPAT_ROLE_HOST;
}

doca_error_t
dc_devinfo_query(const struct doca_devinfo *devinfo, struct rte_comch_dev_info *info)
{
	struct doca_devinfo *e = (struct doca_devinfo *)(uintptr_t)devinfo;
	doca_error_t ret = DOCA_SUCCESS;
	int rc;

	dc_map_lock();
	if (e->rdev == NULL) {
		/* Capabilities before doca_dev_open(): open it for the question. */
		ret = dc_rdev_open(e, dc_default_role(e));
		if (ret == DOCA_SUCCESS) {
			rc = rte_comch_dev_info_get(e->rdev, info);
			rte_comch_dev_close(e->rdev);
			e->rdev = NULL;
			e->role = e->pinned;
			ret = rte_comch_doca_error_from_errno(rc);
		}
	} else {
		ret = rte_comch_doca_error_from_errno(rte_comch_dev_info_get(e->rdev, info));
	}
	dc_map_unlock();
	return ret;
}

doca_error_t
doca_devinfo_create_list(struct doca_devinfo ***dev_list, uint32_t *nb_devs)
{
	struct dc_devinfo_list *list;
	doca_error_t ret;
	unsigned int i;

	DC_NULL_ARG(dev_list);
	DC_NULL_ARG(nb_devs);
	ret = doca_compat_eal_init();
	if (ret != DOCA_SUCCESS)
		return ret;
	ret = dc_map_load();
	if (ret != DOCA_SUCCESS)
		return ret;
	list = calloc(1, sizeof(*list) + (dc_map_nb_devs() + 1) * sizeof(list->items[0]));
	if (list == NULL)
		return DOCA_ERROR_NO_MEMORY;
	for (i = 0; i < dc_map_nb_devs(); i++)
		list->items[i] = dc_map_dev(i);
	dc_obj_publish(&list->obj, list->items, DC_KIND_DEVINFO_LIST);
	*dev_list = list->items;
	*nb_devs = dc_map_nb_devs();
	return DOCA_SUCCESS;
}

doca_error_t
doca_devinfo_destroy_list(struct doca_devinfo **dev_list)
{
	struct dc_devinfo_list *list;

	DC_OBJ_ARG(dev_list, DC_KIND_DEVINFO_LIST);
	list = container_of(dev_list, struct dc_devinfo_list, items[0]);
	dc_obj_retire(&list->obj, list);
	return DOCA_SUCCESS;
}

doca_error_t
doca_devinfo_get_pci_addr_str(const struct doca_devinfo *devinfo, char *pci_addr_str)
{
	DC_OBJ_ARG(devinfo, DC_KIND_DEVINFO);
	DC_NULL_ARG(pci_addr_str);
	strlcpy(pci_addr_str, devinfo->pci, DOCA_DEVINFO_PCI_ADDR_SIZE);
	return DOCA_SUCCESS;
}

/* Shared by devices and representors: both answer to one address, or to any. */
static doca_error_t
dc_pci_match(bool any, const struct rte_pci_addr *mine, const char *pci_addr_str,
	     uint8_t *is_equal)
{
	struct rte_pci_addr addr;

	DC_NULL_ARG(pci_addr_str);
	DC_NULL_ARG(is_equal);
	if (!dc_pci_parse(pci_addr_str, &addr)) {
		DC_LOG(ERR, "\"%s\" is not a PCI address (bb:dd.f or dddd:bb:dd.f)", pci_addr_str);
		return DOCA_ERROR_INVALID_VALUE;
	}
	*is_equal = any || rte_pci_addr_cmp(mine, &addr) == 0;
	return DOCA_SUCCESS;
}

doca_error_t
doca_devinfo_is_equal_pci_addr(const struct doca_devinfo *devinfo, const char *pci_addr_str,
			       uint8_t *is_equal)
{
	DC_OBJ_ARG(devinfo, DC_KIND_DEVINFO);
	return dc_pci_match(devinfo->any_pci, &devinfo->addr, pci_addr_str, is_equal);
}

doca_error_t
doca_devinfo_get_ibdev_name(const struct doca_devinfo *devinfo, char *ibdev_name, uint32_t size)
{
	DC_OBJ_ARG(devinfo, DC_KIND_DEVINFO);
	DC_NULL_ARG(ibdev_name);
	if ((uint32_t)snprintf(ibdev_name, size, "comch%u", devinfo->index) >= size) {
		DC_LOG(ERR, "a buffer of %u bytes is too small for the device name", size);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

doca_error_t
doca_devinfo_get_iface_name(const struct doca_devinfo *devinfo, char *iface_name, uint32_t size)
{
	DC_OBJ_ARG(devinfo, DC_KIND_DEVINFO);
	return doca_devinfo_get_ibdev_name(devinfo, iface_name, size);
}

doca_error_t
doca_devinfo_is_equal_ibdev_name(const struct doca_devinfo *devinfo, const char *ibdev_name,
				 uint8_t *is_equal)
{
	char mine[DOCA_DEVINFO_IBDEV_NAME_SIZE];
	doca_error_t ret;

	DC_OBJ_ARG(devinfo, DC_KIND_DEVINFO);
	DC_NULL_ARG(ibdev_name);
	DC_NULL_ARG(is_equal);
	ret = doca_devinfo_get_ibdev_name(devinfo, mine, sizeof(mine));
	if (ret == DOCA_SUCCESS)
		*is_equal = strcmp(mine, ibdev_name) == 0;
	return ret;
}

doca_error_t
doca_devinfo_get_pci_func_type(const struct doca_devinfo *devinfo,
			       enum doca_pci_func_type *pci_func_type)
{
	DC_OBJ_ARG(devinfo, DC_KIND_DEVINFO);
	DC_NULL_ARG(pci_func_type);
	*pci_func_type = DOCA_PCI_FUNC_TYPE_PF;
	return DOCA_SUCCESS;
}

doca_error_t
doca_devinfo_get_sf_index(const struct doca_devinfo *devinfo, uint32_t *sf_index)
{
	DC_OBJ_ARG(devinfo, DC_KIND_DEVINFO);
	DC_NULL_ARG(sf_index);
	DC_LOG(ERR, "device %s is not a sub-function", devinfo->pci);
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t
doca_dev_open(struct doca_devinfo *devinfo, struct doca_dev **dev)
{
	struct doca_dev *d;
	doca_error_t ret = DOCA_SUCCESS;

	DC_OBJ_ARG(devinfo, DC_KIND_DEVINFO);
	DC_NULL_ARG(dev);
	d = calloc(1, sizeof(*d));
	if (d == NULL)
		return DOCA_ERROR_NO_MEMORY;
	d->info = devinfo;
	dc_map_lock();
	if (devinfo->rdev == NULL)
		ret = dc_rdev_open(devinfo, dc_default_role(devinfo));
	if (ret == DOCA_SUCCESS)
		devinfo->opens++;
	dc_map_unlock();
	if (ret != DOCA_SUCCESS) {
		free(d);
		return ret;
	}
	dc_obj_publish(&d->obj, d, DC_KIND_DEV);
	*dev = d;
	return DOCA_SUCCESS;
}

/* The end of a handle's open (the mapping lock is held): 0 or the rte_comch close's error. */
static int
dc_dev_close_locked(struct doca_dev *dev)
{
	struct doca_devinfo *e = dev->info;
	int rc = 0;

	if (--e->opens == 0) {
		rc = e->rdev == NULL ? 0 : rte_comch_dev_close(e->rdev);
		if (rc == 0) {
			e->rdev = NULL;
			e->role = e->pinned;
		} else {
			e->opens++;
		}
	}
	return rc;
}

doca_error_t
doca_dev_close(struct doca_dev *dev)
{
	struct doca_devinfo *e;
	int rc = 0;

	DC_OBJ_ARG(dev, DC_KIND_DEV);
	e = dev->info;
	dc_map_lock();
	if (dev->holds > dev->mmap_holds) {
		dc_map_unlock();
		DC_LOG(ERR, "device %s: %u objects still use it (a server, client, representor "
		       "or endpoint: destroy them first)", e->pci, dev->holds - dev->mmap_holds);
		return DOCA_ERROR_IN_USE;
	}
	if (dev->holds > 0) {
		/* Only mmaps: closed for the program now, for good with the last of them. */
		dev->closed = true;
		dc_map_unlock();
		dc_obj_remove(&dev->obj);
		return DOCA_SUCCESS;
	}
	rc = dc_dev_close_locked(dev);
	dc_map_unlock();
	if (rc != 0) {
		DC_LOG(ERR, "device %s: %s", e->pci, strerror(-rc));
		return rte_comch_doca_error_from_errno(rc);
	}
	dc_obj_retire(&dev->obj, dev);
	return DOCA_SUCCESS;
}

struct doca_devinfo *
doca_dev_as_devinfo(const struct doca_dev *dev)
{
	return DC_BAD_OBJ(dev, DC_KIND_DEV) ? NULL : dev->info;
}

/* The rte_comch device of e in role want (the mapping lock is held). */
static struct rte_comch_dev *
dc_dev_get_locked(struct doca_devinfo *e, enum doca_compat_role want)
{
	enum doca_compat_role old = e->role;

	if (want == DOCA_COMPAT_ROLE_ANY || e->role == want)
		return e->rdev;
	if (e->pinned != DOCA_COMPAT_ROLE_ANY) {
		DC_LOG(ERR, "device %s is mapped to the %s side (%s)", e->pci,
		       e->pinned == DOCA_COMPAT_ROLE_DPU ? "BlueField" : "host", e->devargs);
		return NULL;
	}
	if (e->holds > 0) {
		DC_LOG(ERR, "device %s is in use as the %s side", e->pci,
		       e->role == DOCA_COMPAT_ROLE_DPU ? "BlueField" : "host");
		return NULL;
	}
	if (rte_comch_dev_close(e->rdev) != 0)
		return NULL;
	/* Unused: reopen it as the side the program turns out to be, or as it was. */
	e->rdev = NULL;
	if (dc_rdev_open(e, want) == DOCA_SUCCESS)
		return e->rdev;
	if (dc_rdev_open(e, old) != DOCA_SUCCESS)
		e->role = e->pinned;
	return NULL;
}

struct rte_comch_dev *
doca_compat_dev_get_held(struct doca_dev *dev, enum doca_compat_role want)
{
	struct rte_comch_dev *rdev;

	if (dev == NULL)
		return NULL;
	dc_map_lock();
	rdev = dc_dev_get_locked(dev->info, want);
	if (rdev != NULL) {
		/* In the same locked section: no other thread can switch it now. */
		dev->holds++;
		dev->info->holds++;
	}
	dc_map_unlock();
	return rdev;
}

void
doca_compat_dev_release(struct doca_dev *dev)
{
	dc_map_lock();
	dev->holds--;
	dev->info->holds--;
	dc_map_unlock();
}

struct rte_comch_dev *
doca_compat_dev_hold_memory(struct doca_dev *dev)
{
	struct rte_comch_dev *rdev = doca_compat_dev_get_held(dev, DOCA_COMPAT_ROLE_ANY);

	if (rdev != NULL) {
		dc_map_lock();
		dev->mmap_holds++;
		dc_map_unlock();
	}
	return rdev;
}

void
doca_compat_dev_release_memory(struct doca_dev *dev)
{
	bool last;
	int rc = 0;

	dc_map_lock();
	dev->mmap_holds--;
	dev->holds--;
	dev->info->holds--;
	last = dev->closed && dev->holds == 0;
	if (last)
		rc = dc_dev_close_locked(dev);
	dc_map_unlock();
	if (!last)
		return;
	/* Its mmaps are gone, so is the rte_comch device's reason to refuse. */
	if (rc != 0)
		DC_LOG(ERR, "device %s: closing after its last mmap: %s", dev->info->pci,
		       strerror(-rc));
	comch_objreg_quarantine(dev);
}

/* ------------------------------------------------------------ representors */

doca_error_t
doca_devinfo_rep_create_list(struct doca_dev *dev, int filter,
			     struct doca_devinfo_rep ***dev_list_rep, uint32_t *nb_devs_rep)
{
	struct dc_devinfo_rep_list *list;
	struct doca_devinfo_rep *reps;
	struct rte_comch_dev *rdev;
	const char **names;
	int n, i;

	DC_OBJ_ARG(dev, DC_KIND_DEV);
	DC_NULL_ARG(dev_list_rep);
	DC_NULL_ARG(nb_devs_rep);
	/* Under the lock: the names are the device's, and no other thread may switch it. */
	dc_map_lock();
	rdev = dc_dev_get_locked(dev->info, DOCA_COMPAT_ROLE_DPU);
	n = rdev == NULL ? -EPERM : rte_comch_dev_rep_list(rdev, NULL, 0);
	if (n >= 0 && (filter & DOCA_DEVINFO_REP_FILTER_EMULATED))
		n = 0;	/* no emulated functions here */
	/* One allocation: the head, the pointer array, the entries, the names. */
	list = n < 0 ? NULL :
		calloc(1, sizeof(*list) + (n + 1) * sizeof(list->items[0]) + n * sizeof(*reps) +
			  n * sizeof(*names));
	if (list == NULL) {
		dc_map_unlock();
		return n == -EPERM ? DOCA_ERROR_NOT_PERMITTED :
		       n < 0 ? rte_comch_doca_error_from_errno(n) : DOCA_ERROR_NO_MEMORY;
	}
	reps = (struct doca_devinfo_rep *)&list->items[n + 1];
	names = (const char **)(reps + n);
	if (n > 0)
		rte_comch_dev_rep_list(rdev, names, n);
	for (i = 0; i < n; i++) {
		const struct dc_rep_map *m = dc_map_rep(names[i]);

		reps[i].dev = dev->info;
		strlcpy(reps[i].fn, names[i], sizeof(reps[i].fn));
		if (m != NULL) {
			reps[i].addr = m->addr;
			strlcpy(reps[i].pci, m->pci, sizeof(reps[i].pci));
		} else {
			reps[i].any_pci = true;
			strlcpy(reps[i].pci, "0000:3b:00.0", sizeof(reps[i].pci));
		}
		dc_obj_publish(&reps[i].obj, &reps[i], DC_KIND_DEVINFO_REP);
		list->items[i] = &reps[i];
	}
	dc_map_unlock();
	dc_obj_publish(&list->obj, list->items, DC_KIND_DEVINFO_REP_LIST);
	*dev_list_rep = list->items;
	*nb_devs_rep = n;
	return DOCA_SUCCESS;
}

doca_error_t
doca_devinfo_rep_destroy_list(struct doca_devinfo_rep **dev_list_rep)
{
	struct dc_devinfo_rep_list *list;
	unsigned int i;

	DC_OBJ_ARG(dev_list_rep, DC_KIND_DEVINFO_REP_LIST);
	list = container_of(dev_list_rep, struct dc_devinfo_rep_list, items[0]);
	/* The entries die with the list; a representor opened from one has its own copy. */
	for (i = 0; list->items[i] != NULL; i++)
		dc_obj_remove(&list->items[i]->obj);
	dc_obj_retire(&list->obj, list);
	return DOCA_SUCCESS;
}

doca_error_t
doca_devinfo_rep_get_pci_addr_str(const struct doca_devinfo_rep *devinfo_rep,
				  char *pci_addr_str)
{
	DC_OBJ_ARG(devinfo_rep, DC_KIND_DEVINFO_REP);
	DC_NULL_ARG(pci_addr_str);
	strlcpy(pci_addr_str, devinfo_rep->pci, DOCA_DEVINFO_REP_PCI_ADDR_SIZE);
	return DOCA_SUCCESS;
}

doca_error_t
doca_devinfo_rep_is_equal_pci_addr(const struct doca_devinfo_rep *devinfo_rep,
				   const char *pci_addr_str, uint8_t *is_equal)
{
	DC_OBJ_ARG(devinfo_rep, DC_KIND_DEVINFO_REP);
	return dc_pci_match(devinfo_rep->any_pci, &devinfo_rep->addr, pci_addr_str, is_equal);
}

doca_error_t
doca_devinfo_rep_get_vuid(const struct doca_devinfo_rep *devinfo_rep, char *rep_vuid,
			  uint32_t size)
{
	DC_OBJ_ARG(devinfo_rep, DC_KIND_DEVINFO_REP);
	DC_NULL_ARG(rep_vuid);
	if (strlcpy(rep_vuid, devinfo_rep->fn, size) >= size) {
		DC_LOG(ERR, "a buffer of %u bytes is too small for \"%s\"", size, devinfo_rep->fn);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

doca_error_t
doca_dev_rep_open(struct doca_devinfo_rep *devinfo_rep, struct doca_dev_rep **dev_rep)
{
	struct doca_dev_rep *r;
	struct rte_comch_dev *rdev;
	struct doca_dev *dev;
	doca_error_t ret;

	DC_OBJ_ARG(devinfo_rep, DC_KIND_DEVINFO_REP);
	DC_NULL_ARG(dev_rep);
	/* The list came from an open handle; the representor keeps one of its own. */
	ret = doca_dev_open(devinfo_rep->dev, &dev);
	if (ret != DOCA_SUCCESS)
		return ret;
	rdev = doca_compat_dev_get_held(dev, DOCA_COMPAT_ROLE_DPU);
	r = calloc(1, sizeof(*r));
	if (rdev == NULL || r == NULL) {
		free(r);
		if (rdev != NULL)
			doca_compat_dev_release(dev);
		doca_dev_close(dev);
		return rdev == NULL ? DOCA_ERROR_NOT_PERMITTED : DOCA_ERROR_NO_MEMORY;
	}
	r->info = *devinfo_rep;
	r->dev = dev;
	r->rrep = rte_comch_dev_rep_open(rdev, devinfo_rep->fn);
	if (r->rrep == NULL) {
		ret = rte_comch_doca_error_from_errno(-rte_errno);
		DC_LOG(ERR, "representor %s: %s", devinfo_rep->fn, rte_strerror(rte_errno));
		free(r);
		doca_compat_dev_release(dev);
		doca_dev_close(dev);
		return ret;
	}
	dc_obj_publish(&r->info.obj, &r->info, DC_KIND_DEVINFO_REP);
	dc_obj_publish(&r->obj, r, DC_KIND_DEV_REP);
	*dev_rep = r;
	return DOCA_SUCCESS;
}

doca_error_t
doca_dev_rep_close(struct doca_dev_rep *dev_rep)
{
	int rc;

	DC_OBJ_ARG(dev_rep, DC_KIND_DEV_REP);
	rc = rte_comch_dev_rep_close(dev_rep->rrep);
	if (rc != 0) {
		DC_LOG(ERR, "representor %s: %s", dev_rep->info.fn, strerror(-rc));
		return rc == -EBUSY ? DOCA_ERROR_IN_USE : rte_comch_doca_error_from_errno(rc);
	}
	doca_compat_dev_release(dev_rep->dev);
	doca_dev_close(dev_rep->dev);
	dc_obj_remove(&dev_rep->info.obj);
	dc_obj_retire(&dev_rep->obj, dev_rep);
	return DOCA_SUCCESS;
}

struct doca_devinfo_rep *
doca_dev_rep_as_devinfo(struct doca_dev_rep *dev_rep)
{
	return DC_BAD_OBJ(dev_rep, DC_KIND_DEV_REP) ? NULL : &dev_rep->info;
}

struct rte_comch_dev_rep *
doca_compat_rep_get(struct doca_dev_rep *rep)
{
	return rep == NULL ? NULL : rep->rrep;
}

struct doca_dev *
doca_compat_rep_dev(struct doca_dev_rep *rep)
{
	return rep == NULL ? NULL : rep->dev;
}
