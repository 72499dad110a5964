/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The skeleton device: devargs, capabilities, memory, and the little helpers
 * the other files share. A device is one side of an emulated BlueField
 * ("domain") in this process:
 *   skeleton:domain=d,role=dpu[,rep=pf0,...]   the BlueField side (servers)
 *   skeleton:domain=d,role=host[,fn=pf0]       one host function (clients)
 */

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <bsd/string.h>

#include <rte_kvargs.h>

#include "skeleton_internal.h"

RTE_LOG_REGISTER_DEFAULT(skel_logtype, NOTICE);

static const char * const skel_keys[] = { "domain", "role", "fn", "rep", NULL };

struct skel_args {
	const char *domain, *role, *fn;
	const char *reps[SKEL_MAX_REPS];
	unsigned int nb_reps;
};

static int
skel_arg(const char *key, const char *value, void *opaque)
{
	struct skel_args *a = opaque;

	const char **slot;

	if (value == NULL || *value == '\0' || strlen(value) >= SKEL_NAME_MAX) {
		SKEL_LOG(ERR, "devargs: %s needs a value of 1 to %d characters", key,
			 SKEL_NAME_MAX - 1);
		return -1;
	}
	if (strcmp(key, "rep") == 0) {
		if (a->nb_reps == SKEL_MAX_REPS) {
			SKEL_LOG(ERR, "devargs: more than %d representors", SKEL_MAX_REPS);
			return -1;
		}
		a->reps[a->nb_reps++] = value;
		return 0;
	}
	slot = strcmp(key, "domain") == 0 ? &a->domain : strcmp(key, "role") == 0 ? &a->role :
	       &a->fn;
	if (*slot != NULL) {
		SKEL_LOG(ERR, "devargs: %s given twice", key);
		return -1;
	}
	*slot = value;
	return 0;
}

/* The devices open in this process: their BlueField sides are what listing shows. */
static TAILQ_HEAD(, skel_dev) skel_devs = TAILQ_HEAD_INITIALIZER(skel_devs);
static pthread_mutex_t skel_devs_lock = PTHREAD_MUTEX_INITIALIZER;

static void
skel_close(void *dev)
{
	pthread_mutex_lock(&skel_devs_lock);
	TAILQ_REMOVE(&skel_devs, (struct skel_dev *)dev, next);
	pthread_mutex_unlock(&skel_devs_lock);
	free(dev);
}

/* Each domain whose BlueField side is open here: its host side can be opened. */
static int
skel_list(struct rte_comch_dev_desc *descs, unsigned int max)
{
	const struct skel_dev *sd;
	unsigned int n = 0;

	pthread_mutex_lock(&skel_devs_lock);
	TAILQ_FOREACH(sd, &skel_devs, next) {
		if (!sd->dpu)
			continue;
		if (n < max) {
			snprintf(descs[n].devargs, sizeof(descs[n].devargs), "skeleton:domain=%s",
				 sd->domain);
			snprintf(descs[n].description, sizeof(descs[n].description),
				 "in-process BlueField \"%s\"", sd->domain);
		}
		n++;
	}
	pthread_mutex_unlock(&skel_devs_lock);
	return (int)n;
}

static const struct rte_comch_drv_dev_ops skel_dev_ops = { .close = skel_close };

static const struct rte_comch_drv_ops skel_ops = {
	.dev = &skel_dev_ops,
	.server = &skel_server_ops,
	.client = &skel_client_ops,
	.conn = &skel_conn_ops,
	.mmap = &skel_mmap_ops,
	.consumer = &skel_consumer_ops,
	.producer = &skel_producer_ops,
};

static int
skel_probe(const struct rte_kvargs *kvlist, struct rte_comch_drv_dev_conf *conf)
{
	struct rte_comch_dev_info *info = &conf->info;
	struct skel_args a = { .fn = NULL };
	struct skel_dev *sd;
	bool dpu;

	if (rte_kvargs_process(kvlist, NULL, skel_arg, &a) < 0 || a.domain == NULL ||
	    a.role == NULL || (strcmp(a.role, "dpu") != 0 && strcmp(a.role, "host") != 0)) {
		SKEL_LOG(ERR, "devargs: domain=<name> and role=dpu|host are required");
		return -EINVAL;
	}
	dpu = strcmp(a.role, "dpu") == 0;
	if (a.fn == NULL)
		a.fn = "pf0";
	if (!dpu && a.nb_reps != 0) {
		SKEL_LOG(ERR, "devargs: rep= is for the BlueField side");
		return -EINVAL;
	}
	sd = calloc(1, sizeof(*sd));
	if (sd == NULL)
		return -ENOMEM;
	strlcpy(sd->domain, a.domain, sizeof(sd->domain));
	strlcpy(sd->fn, a.fn, sizeof(sd->fn));
	if (dpu && a.nb_reps == 0)
		a.reps[a.nb_reps++] = "pf0";
	memcpy(sd->reps, a.reps, sizeof(sd->reps));
	sd->dpu = dpu;
	pthread_mutex_lock(&skel_devs_lock);
	TAILQ_INSERT_TAIL(&skel_devs, sd, next);
	pthread_mutex_unlock(&skel_devs_lock);
	conf->priv = sd;
	conf->role = dpu ? RTE_COMCH_ROLE_DPU : RTE_COMCH_ROLE_HOST;
	conf->rep_names = dpu ? sd->reps : NULL;
	conf->nb_reps = dpu ? a.nb_reps : 0;
	snprintf(info->name, sizeof(info->name), "skeleton_%s_%s", sd->domain,
		 dpu ? "dpu" : sd->fn);
	info->max_name_len = SKEL_MAX_NAME_LEN;
	info->max_msg_size = SKEL_MAX_MSG_SIZE;
	info->default_msg_size = RTE_COMCH_DEFAULT_MSG_SIZE;
	info->max_recv_queue_size = SKEL_MAX_QUEUE;
	info->max_clients = SKEL_MAX_CLIENTS;
	info->max_send_tasks = SKEL_MAX_TASKS;
	info->capa = (dpu ? RTE_COMCH_CAPA_SERVER : RTE_COMCH_CAPA_CLIENT) |
		     RTE_COMCH_CAPA_PRODUCER | RTE_COMCH_CAPA_CONSUMER | RTE_COMCH_CAPA_SLEEP;
	info->max_fast_tasks = SKEL_MAX_TASKS;
	info->max_buf_size = 1u << 30;
	info->max_producers = SKEL_MAX_FAST;
	info->max_consumers = SKEL_MAX_FAST;
	info->max_imm_data_len = RTE_COMCH_MAX_IMM_DATA_LEN;
	return 0;
}

static struct rte_comch_driver skel_driver = {
	.name = "skeleton",
	.valid_keys = skel_keys,
	.probe = skel_probe,
	.ops = &skel_ops,
	.list = skel_list,
};

RTE_COMCH_REGISTER_DRIVER(skeleton, skel_driver);

/* ------------------------------------------------------------------ memory */

/* In one process any memory can be written by the peer: nothing to share or pin. */
static int
skel_mmap_alloc(void *dev, size_t len, void **addr, void **mem)
{
	*addr = calloc(1, len);
	*mem = *addr;
	return *addr != NULL ? 0 : -ENOMEM;
}

static void
skel_mmap_free(void *dev, void *mem)
{
	free(mem);
}

static int
skel_mmap_reg(void *dev, void *addr, size_t len, uint32_t perms, void *mem, void **reg)
{
	*reg = addr; /* never NULL: a registration of no memory does not happen */
	return 0;
}

static void
skel_mmap_dereg(void *dev, void *reg)
{
}

const struct rte_comch_drv_mmap_ops skel_mmap_ops = {
	.alloc = skel_mmap_alloc,
	.free = skel_mmap_free,
	.reg = skel_mmap_reg,
	.dereg = skel_mmap_dereg,
};

/* ------------------------------------------------------------------ helpers */

struct rte_ring *
skel_ring_new(unsigned int count, unsigned int esize, unsigned int flags)
{
	static uint32_t seq;
	char name[RTE_RING_NAMESIZE];
	struct rte_ring *r;
	/* An exact-size ring holds count in the next power of two above it. */
	ssize_t bytes = rte_ring_get_memsize_elem(esize, (flags & RING_F_EXACT_SZ) != 0 ?
						  rte_align32pow2(count + 1) : count);

	/* From the heap, not a memzone (a process has few), with rte_ring_init(). */
	if (bytes < 0)
		return NULL;
	r = aligned_alloc(RTE_CACHE_LINE_SIZE, bytes);
	snprintf(name, sizeof(name), "skel_%u", comch_fetch_add_relaxed(&seq, 1));
	if (r != NULL && rte_ring_init(r, name, count, flags) < 0) {
		free(r);
		r = NULL;
	}
	return r;
}

int
skel_bell_init(struct skel_bell *b)
{
	b->armed = 0;
	b->fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	return b->fd >= 0 ? 0 : -errno;
}

void
skel_bell_fini(struct skel_bell *b)
{
	if (b->fd >= 0)
		close(b->fd);
	b->fd = -1;
}

void
skel_bell_ring(struct skel_bell *b)
{
	uint64_t one = 1;

	/* Our stores before its armed word: the sleeper checks for work after setting it. */
	comch_fence_seq_cst();
	if (comch_load_relaxed(&b->armed) != 0)
		(void)!write(b->fd, &one, sizeof(one));
}

void
skel_bell_drain(struct skel_bell *b)
{
	uint64_t n;

	comch_store_relaxed(&b->armed, 0);
	(void)!read(b->fd, &n, sizeof(n));
}
