/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The "dpa" driver: registration, devargs, the device, and MsgQ create and
 * destroy. A device here stands for a BlueField-3 whose DPA the software DPA
 * plays: it has no servers, clients or connections, only MsgQs.
 *   dpa:[name=<name>][,role=host|dpu]
 * name (default: the role) makes the device's name "dpa_<name>", unique in the
 * process; role (default host) is what rte_comch_dev_info reports.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_kvargs.h>

#include "dpa_drv_private.h"

RTE_LOG_REGISTER_DEFAULT(dpa_drv_logtype, NOTICE);

static const char * const dpa_drv_keys[] = { "name", "role", NULL };

struct dpa_drv_args {
	const char *name;
	const char *role;
};

static int
dpa_drv_arg(const char *key, const char *value, void *opaque)
{
	struct dpa_drv_args *a = opaque;
	const char **slot = strcmp(key, "name") == 0 ? &a->name : &a->role;

	if (value == NULL || *value == '\0' || strlen(value) > DPA_DRV_NAME_MAX) {
		DPA_LOG(ERR, "devargs: %s needs a value of 1 to %d characters", key,
			DPA_DRV_NAME_MAX);
		return -1;
	}
	if (*slot != NULL) {
		DPA_LOG(ERR, "devargs: %s given twice", key);
		return -1;
	}
	*slot = value;
	return 0;
}

static void
dpa_drv_close(void *dev)
{
	struct dpa_drv_dev *d = dev;

	if (d->nb_regs != 0)
		DPA_LOG(ERR, "device dpa_%s: %u registrations left at close", d->name,
			d->nb_regs);
	free(d);
}

static const struct rte_comch_drv_dev_ops dpa_dev_ops = { .close = dpa_drv_close };

/* ------------------------------------------------------------------ MsgQ */

static void
dpa_msgq_free(struct dpa_msgq *q)
{
	free(q->cons);
	free(q->prods);
	free(q);
}

static int
dpa_msgq_create(void *dev, const struct rte_comch_drv_msgq_conf *conf, void **out)
{
	struct rte_comch_dpa *dpa = rte_comch_dpa_from_accel(conf->accel, "MsgQ start");
	struct dpa_msgq *q;
	uint32_t i;

	if (dpa == NULL)
		return -EINVAL;
	/* The dpa must run on this very device: its programs reach this device's memory. */
	if (rte_comch_drv_dev_priv(rte_comch_dpa_get_device(dpa), &dpa_driver) != dev) {
		DPA_LOG(ERR, "dpa %u was not created on device dpa_%s", rte_comch_dpa_tag(dpa),
			((struct dpa_drv_dev *)dev)->name);
		return -EINVAL;
	}
	if (conf->max_consumers == 0 || conf->max_consumers > RTE_COMCH_MSGQ_MAX ||
	    conf->max_producers == 0 || conf->max_producers > RTE_COMCH_MSGQ_MAX) {
		DPA_LOG(ERR, "%u consumers and %u producers: each must be 1 to %u",
			conf->max_consumers, conf->max_producers, RTE_COMCH_MSGQ_MAX);
		return -EINVAL;
	}
	if (rte_comch_dpa_in_program()) {
		DPA_LOG(ERR, "called from a DPA program");
		return -EPERM;
	}
	q = comch_zalloc_lines(1, sizeof(*q));
	if (q == NULL)
		goto nomem;
	/* Indexed by id, from 1: slot 0 stays unused. */
	q->cons = comch_zalloc_lines(conf->max_consumers + 1, sizeof(*q->cons));
	q->prods = comch_zalloc_lines(conf->max_producers + 1, sizeof(*q->prods));
	if (q->cons == NULL || q->prods == NULL) {
		dpa_msgq_free(q);
		goto nomem;
	}
	q->dev = dev;
	q->dpa = dpa;
	q->dpa_consumer = conf->accel_consumer;
	q->max_consumers = conf->max_consumers;
	q->max_producers = conf->max_producers;
	for (i = 0; i <= q->max_consumers; i++) {
		q->cons[i].q = q;
		q->cons[i].id = i;
		q->cons[i].efd = -1;
		comch_spinlock_init(&q->cons[i].lock);
	}
	for (i = 0; i <= q->max_producers; i++) {
		q->prods[i].q = q;
		q->prods[i].id = i;
		comch_spinlock_init(&q->prods[i].lock);
	}
	/* The dpa cannot be destroyed under a started MsgQ. */
	rte_comch_dpa_user_get(dpa);
	DPA_LOG(DEBUG, "dpa %u: MsgQ of %s consumers, %u consumers, %u producers",
		rte_comch_dpa_tag(dpa), q->dpa_consumer ? "DPA" : "CPU", q->max_consumers,
		q->max_producers);
	*out = q;
	return 0;
nomem:
	DPA_LOG(ERR, "out of memory");
	return -ENOMEM;
}

static void
dpa_msgq_destroy(void *obj)
{
	struct dpa_msgq *q = obj;

	rte_comch_dpa_user_put(q->dpa);
	dpa_msgq_free(q);
}

static const struct rte_comch_drv_msgq_ops dpa_msgq_ops = {
	.create = dpa_msgq_create,
	.destroy = dpa_msgq_destroy,
};

/* ------------------------------------------------------------------ registration */

static const struct rte_comch_drv_ops dpa_drv_ops = {
	.dev = &dpa_dev_ops,
	.server = NULL,   /* MsgQ only: no servers, clients or connections */
	.client = NULL,
	.conn = NULL,
	.mmap = &dpa_mmap_ops,
	.consumer = &dpa_consumer_ops,
	.producer = &dpa_producer_ops,
	.msgq = &dpa_msgq_ops,
};

static int
dpa_drv_probe(const struct rte_kvargs *kvlist, struct rte_comch_drv_dev_conf *conf)
{
	struct rte_comch_dev_info *info = &conf->info;
	struct dpa_drv_args a = { .name = NULL, .role = NULL };
	struct dpa_drv_dev *d;
	bool dpu;

	if (rte_kvargs_process(kvlist, NULL, dpa_drv_arg, &a) < 0)
		return -EINVAL;
	if (a.role == NULL)
		a.role = "host";
	if (strcmp(a.role, "host") != 0 && strcmp(a.role, "dpu") != 0) {
		DPA_LOG(ERR, "devargs: role=%s: give host or dpu", a.role);
		return -EINVAL;
	}
	dpu = strcmp(a.role, "dpu") == 0;
	d = calloc(1, sizeof(*d));
	if (d == NULL) {
		DPA_LOG(ERR, "out of memory");
		return -ENOMEM;
	}
	snprintf(d->name, sizeof(d->name), "%s", a.name != NULL ? a.name : a.role);
	comch_spinlock_init(&d->regs_lock);
	conf->priv = d;
	conf->role = dpu ? RTE_COMCH_ROLE_DPU : RTE_COMCH_ROLE_HOST;
	conf->rep_names = NULL;
	conf->nb_reps = 0;
	snprintf(info->name, sizeof(info->name), "dpa_%s", d->name);
	/* No control path: its limits stay 0. */
	info->capa = RTE_COMCH_CAPA_PRODUCER | RTE_COMCH_CAPA_CONSUMER | RTE_COMCH_CAPA_MSGQ |
		     RTE_COMCH_CAPA_SLEEP;
	info->max_fast_tasks = DPA_DRV_MAX_FAST_TASKS;
	info->max_buf_size = 0; /* MsgQ messages are immediate data only */
	info->max_producers = RTE_COMCH_MSGQ_MAX;
	info->max_consumers = RTE_COMCH_MSGQ_MAX;
	info->max_imm_data_len = RTE_COMCH_DPA_IMM_MAX;
	return 0;
}

struct rte_comch_driver dpa_driver = {
	.name = "dpa",
	.valid_keys = dpa_drv_keys,
	.probe = dpa_drv_probe,
	.ops = &dpa_drv_ops,
};

/* Applications that use MsgQ link this library: loading it registers the driver. */
RTE_COMCH_REGISTER_DRIVER(dpa, dpa_driver);

struct dpa_drv_dev *
dpa_drv_dev_of(const struct rte_comch_dev *dev)
{
	int saved = rte_errno;
	void *d = rte_comch_drv_dev_priv(dev, &dpa_driver);

	/* Not a "dpa:" device is an answer here, not an error. */
	rte_errno = saved;
	return d;
}
