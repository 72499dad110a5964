/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The PCI-address mapping: which rte_comch device a DOCA program's PCI address
 * names. From RTE_COMCH_DOCA_DEVICES / RTE_COMCH_DOCA_REPS, else from the file
 * RTE_COMCH_DOCA_CONFIG; with neither, no device, as on a machine without a
 * BlueField. The address "*" asks for one device that answers to every
 * address (RTE_COMCH_DOCA_DEVICES="*=shm:domain=doca").
 */

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bsd/string.h>

#include <rte_common.h>

#include "doca_dev_private.h"

#define DC_MAP_MAX_DEVS 16
#define DC_MAP_MAX_REPS 64
#define DC_MAP_LINE_MAX 512
/* The address a "*" device lists (doca_devinfo_get_pci_addr_str()). */
#define DC_ANY_DEV_PCI "0000:03:00.0"
#define DC_ANY_HINT "RTE_COMCH_DOCA_DEVICES=\"*=shm:domain=doca\""

static pthread_once_t dc_map_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t dc_map_mutex = PTHREAD_MUTEX_INITIALIZER;
static doca_error_t dc_map_result;
static struct doca_devinfo dc_devs[DC_MAP_MAX_DEVS];
static unsigned int dc_nb_devs;
static struct dc_rep_map dc_reps[DC_MAP_MAX_REPS];
static unsigned int dc_nb_reps;

bool
dc_pci_parse(const char *str, struct rte_pci_addr *addr)
{
	char full[DOCA_DEVINFO_PCI_ADDR_SIZE + 8];

	if (str == NULL)
		return false;
	/* rte_pci_addr_parse() takes both forms; refuse trailing junk it may skip. */
	if (strlen(str) != 7 && strlen(str) != 12)
		return false;
	strlcpy(full, str, sizeof(full));
	return rte_pci_addr_parse(full, addr) == 0;
}

static void
dc_pci_format(const struct rte_pci_addr *addr, char *buf, size_t size)
{
	snprintf(buf, size, "%04x:%02x:%02x.%x", addr->domain & 0xffff, addr->bus,
		 addr->devid & 0x1f, addr->function & 0x7);
}

static char *
dc_trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

/* Whether devargs pin a role; refuse a role= value the driver would refuse anyway. */
static enum doca_compat_role
dc_devargs_role(const char *devargs)
{
	const char *r = strstr(devargs, "role=");

	if (r == NULL || (r != devargs && r[-1] != ',' && r[-1] != ':'))
		return DOCA_COMPAT_ROLE_ANY;
	r += strlen("role=");
	if (strncmp(r, "dpu", 3) == 0 && (r[3] == '\0' || r[3] == ','))
		return DOCA_COMPAT_ROLE_DPU;
	return DOCA_COMPAT_ROLE_HOST;
}

static doca_error_t
dc_map_add_dev(const char *pci, const char *devargs, const char *where)
{
	struct doca_devinfo *d;
	unsigned int i;

	if (dc_nb_devs == DC_MAP_MAX_DEVS) {
		DC_LOG(ERR, "%s: more than %d devices", where, DC_MAP_MAX_DEVS);
		return DOCA_ERROR_INVALID_VALUE;
	}
	d = &dc_devs[dc_nb_devs];
	memset(d, 0, sizeof(*d));
	/* "*": the one device of the mapping, whatever address a program gives. */
	if (strcmp(pci, "*") == 0) {
		d->any_pci = true;
		pci = DC_ANY_DEV_PCI;
	}
	if (!dc_pci_parse(pci, &d->addr)) {
		DC_LOG(ERR, "%s: \"%s\" is not a PCI address (bb:dd.f or dddd:bb:dd.f) nor \"*\"",
		       where, pci);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (*devargs == '\0' || strchr(devargs, ':') == NULL) {
		DC_LOG(ERR, "%s: \"%s\" is not rte_comch devargs (<driver>:<key>=<value>,...)",
		       where, devargs);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (strlcpy(d->devargs, devargs, sizeof(d->devargs)) >= sizeof(d->devargs)) {
		DC_LOG(ERR, "%s: devargs longer than %d bytes", where, DC_DEVARGS_MAX - 1);
		return DOCA_ERROR_INVALID_VALUE;
	}
	for (i = 0; i < dc_nb_devs; i++)
		if (rte_pci_addr_cmp(&dc_devs[i].addr, &d->addr) == 0) {
			DC_LOG(ERR, "%s: PCI address %s mapped twice", where, pci);
			return DOCA_ERROR_INVALID_VALUE;
		}
	dc_pci_format(&d->addr, d->pci, sizeof(d->pci));
	d->pinned = dc_devargs_role(devargs);
	d->role = d->pinned;
	d->index = dc_nb_devs++;
	return DOCA_SUCCESS;
}

static doca_error_t
dc_map_add_rep(const char *pci, const char *fn, const char *where)
{
	struct dc_rep_map *r;

	if (dc_nb_reps == DC_MAP_MAX_REPS) {
		DC_LOG(ERR, "%s: more than %d representors", where, DC_MAP_MAX_REPS);
		return DOCA_ERROR_INVALID_VALUE;
	}
	r = &dc_reps[dc_nb_reps];
	if (!dc_pci_parse(pci, &r->addr)) {
		DC_LOG(ERR, "%s: \"%s\" is not a PCI address (bb:dd.f or dddd:bb:dd.f)", where, pci);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (*fn == '\0' || strlcpy(r->fn, fn, sizeof(r->fn)) >= sizeof(r->fn)) {
		DC_LOG(ERR, "%s: bad function name \"%s\"", where, fn);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (dc_map_rep(fn) != NULL) {
		DC_LOG(ERR, "%s: function %s mapped twice", where, fn);
		return DOCA_ERROR_INVALID_VALUE;
	}
	dc_pci_format(&r->addr, r->pci, sizeof(r->pci));
	dc_nb_reps++;
	return DOCA_SUCCESS;
}

/* "<pci>=<value>;<pci>=<value>..." */
static doca_error_t
dc_map_parse_env(const char *var, bool reps)
{
	const char *env = getenv(var);
	char *copy, *entry, *save = NULL;
	doca_error_t ret = DOCA_SUCCESS;

	if (env == NULL)
		return DOCA_SUCCESS;
	copy = strdup(env);
	if (copy == NULL)
		return DOCA_ERROR_NO_MEMORY;
	for (entry = strtok_r(copy, ";", &save); entry != NULL && ret == DOCA_SUCCESS;
	     entry = strtok_r(NULL, ";", &save)) {
		char *eq = strchr(entry, '=');

		entry = dc_trim(entry);
		if (*entry == '\0')
			continue;
		if (eq == NULL) {
			DC_LOG(ERR, "%s: entry \"%s\" is not <pci>=<value>", var, entry);
			ret = DOCA_ERROR_INVALID_VALUE;
			break;
		}
		*eq = '\0';
		ret = reps ? dc_map_add_rep(dc_trim(entry), dc_trim(eq + 1), var) :
			     dc_map_add_dev(dc_trim(entry), dc_trim(eq + 1), var);
	}
	free(copy);
	return ret;
}

/* Lines "dev <pci> <devargs>" and "rep <pci> <function>"; '#' comments. */
static doca_error_t
dc_map_parse_file(const char *path)
{
	char line[DC_MAP_LINE_MAX], where[DC_MAP_LINE_MAX];
	doca_error_t ret = DOCA_SUCCESS;
	unsigned int lineno = 0;
	FILE *f = fopen(path, "r");

	if (f == NULL) {
		DC_LOG(ERR, "cannot open RTE_COMCH_DOCA_CONFIG=%s: %s", path, strerror(errno));
		return DOCA_ERROR_INVALID_VALUE;
	}
	while (ret == DOCA_SUCCESS && fgets(line, sizeof(line), f) != NULL) {
		char kind[8], pci[32], value[DC_MAP_LINE_MAX];
		char *hash = strchr(line, '#');
		int n;

		lineno++;
		snprintf(where, sizeof(where), "%s:%u", path, lineno);
		if (hash != NULL)
			*hash = '\0';
		if (*dc_trim(line) == '\0')
			continue;
		n = sscanf(line, "%7s %31s %511s", kind, pci, value);
		if (n != 3 || (strcmp(kind, "dev") != 0 && strcmp(kind, "rep") != 0)) {
			DC_LOG(ERR, "%s: expected \"dev <pci> <devargs>\" or \"rep <pci> <function>\"",
			       where);
			ret = DOCA_ERROR_INVALID_VALUE;
			break;
		}
		ret = kind[0] == 'd' ? dc_map_add_dev(pci, value, where) :
				       dc_map_add_rep(pci, value, where);
	}
	fclose(f);
	return ret;
}

/* A "*" device answers to every address: no other device could be named. */
static doca_error_t
dc_map_check_any(void)
{
	unsigned int i;

	for (i = 0; i < dc_nb_devs; i++)
		if (dc_devs[i].any_pci && dc_nb_devs > 1) {
			DC_LOG(ERR, "the device \"*\" answers to every PCI address: it must be "
			       "the only device of the mapping");
			return DOCA_ERROR_INVALID_VALUE;
		}
	return DOCA_SUCCESS;
}

static void
dc_map_do_load(void)
{
	const char *file = getenv("RTE_COMCH_DOCA_CONFIG");
	doca_error_t ret;
	unsigned int i;

	if (getenv("RTE_COMCH_DOCA_DEVICES") != NULL || getenv("RTE_COMCH_DOCA_REPS") != NULL) {
		ret = dc_map_parse_env("RTE_COMCH_DOCA_DEVICES", false);
		if (ret == DOCA_SUCCESS)
			ret = dc_map_parse_env("RTE_COMCH_DOCA_REPS", true);
	} else if (file != NULL) {
		ret = dc_map_parse_file(file);
	} else {
		/* As DOCA on a machine without a BlueField: no address names a device. */
		DC_LOG(ERR, "no device: no PCI address is mapped to an rte_comch device. Set "
		       "RTE_COMCH_DOCA_DEVICES=\"<pci>=<devargs>;...\" (or RTE_COMCH_DOCA_CONFIG="
		       "<file>), or %s for one shm device that answers to every PCI address",
		       DC_ANY_HINT);
		ret = DOCA_ERROR_NOT_FOUND;
	}
	if (ret == DOCA_SUCCESS && dc_nb_devs == 0) {
		DC_LOG(ERR, "the device mapping names no device (RTE_COMCH_DOCA_DEVICES or "
		       "\"dev\" lines of RTE_COMCH_DOCA_CONFIG; %s maps every address)",
		       DC_ANY_HINT);
		ret = DOCA_ERROR_NOT_FOUND;
	}
	if (ret == DOCA_SUCCESS)
		ret = dc_map_check_any();
	if (ret != DOCA_SUCCESS)
		dc_nb_devs = 0;
	/* Devices live as long as the process; in the registry, their handles are checked. */
	for (i = 0; i < dc_nb_devs; i++)
		dc_obj_publish(&dc_devs[i].obj, &dc_devs[i], DC_KIND_DEVINFO);
	dc_map_result = ret;
}

doca_error_t
dc_map_load(void)
{
	pthread_once(&dc_map_once, dc_map_do_load);
	return dc_map_result;
}

unsigned int
dc_map_nb_devs(void)
{
	return dc_nb_devs;
}

struct doca_devinfo *
dc_map_dev(unsigned int i)
{
	return i < dc_nb_devs ? &dc_devs[i] : NULL;
}

const struct dc_rep_map *
dc_map_rep(const char *fn)
{
	unsigned int i;

	for (i = 0; i < dc_nb_reps; i++)
		if (strcmp(dc_reps[i].fn, fn) == 0)
			return &dc_reps[i];
	return NULL;
}

void
dc_map_lock(void)
{
	pthread_mutex_lock(&dc_map_mutex);
}

void
dc_map_unlock(void)
{
	pthread_mutex_unlock(&dc_map_mutex);
}
