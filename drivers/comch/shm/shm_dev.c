/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The shm device: one emulated BlueField ("domain") under a private runtime
 * directory, seen from the BlueField side (role=dpu, with representors) or from
 * one host function (role=host, fn=...).
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bsd/string.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <rte_kvargs.h>

#include "shm_internal.h"

RTE_LOG_REGISTER_DEFAULT(shm_logtype, NOTICE);

#define SHM_KEY_DOMAIN "domain"
#define SHM_KEY_ROLE "role"
#define SHM_KEY_FN "fn"
#define SHM_KEY_REP "rep"
#define SHM_KEY_DIR "dir"
#define SHM_KEY_DOORBELL "doorbell"
#define SHM_DEFAULT_FN "pf0"

static const char * const shm_valid_keys[] = {
	SHM_KEY_DOMAIN, SHM_KEY_ROLE, SHM_KEY_FN, SHM_KEY_REP, SHM_KEY_DIR, SHM_KEY_DOORBELL,
	NULL,
};

struct shm_args {
	const char *domain;
	const char *role;
	const char *fn;
	const char *dir;
	const char *doorbell;
	const char *reps[SHM_MAX_REPS];
	unsigned int nb_reps;
	int err;
};

/* Names become path components: a plain, short charset, never "." or "..". */
static bool
shm_name_valid(const char *s)
{
	size_t i, n = strlen(s);

	if (n == 0 || n >= SHM_NAME_MAX || strcmp(s, ".") == 0 || strcmp(s, "..") == 0)
		return false;
	for (i = 0; i < n; i++)
		if (strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-",
			   s[i]) == NULL)
			return false;
	return true;
}

static int
shm_arg_one(const char *key, const char *value, void *opaque)
{
	struct shm_args *a = opaque;
	const char **slot;

	if (value == NULL || *value == '\0') {
		SHM_LOG(ERR, "devargs: %s needs a value", key);
		a->err = -EINVAL;
		return -1;
	}
	if (strcmp(key, SHM_KEY_REP) == 0) {
		if (a->nb_reps == SHM_MAX_REPS) {
			SHM_LOG(ERR, "devargs: more than %d representors", SHM_MAX_REPS);
			a->err = -EINVAL;
			return -1;
		}
		a->reps[a->nb_reps++] = value;
		return 0;
	}
	slot = strcmp(key, SHM_KEY_DOMAIN) == 0 ? &a->domain :
	       strcmp(key, SHM_KEY_ROLE) == 0 ? &a->role :
	       strcmp(key, SHM_KEY_FN) == 0 ? &a->fn :
	       strcmp(key, SHM_KEY_DOORBELL) == 0 ? &a->doorbell : &a->dir;
	if (*slot != NULL) {
		SHM_LOG(ERR, "devargs: %s given twice", key);
		a->err = -EINVAL;
		return -1;
	}
	*slot = value;
	return 0;
}

static int
shm_args_parse(const struct rte_kvargs *kvlist, struct shm_args *a, enum rte_comch_dev_role *role)
{
	unsigned int i, j;

	if (rte_kvargs_process(kvlist, NULL, shm_arg_one, a) < 0)
		return a->err != 0 ? a->err : -EINVAL;
	if (a->domain == NULL || !shm_name_valid(a->domain)) {
		SHM_LOG(ERR, "devargs: domain=<name> is required: [A-Za-z0-9_.-], 1 to %d chars",
			SHM_NAME_MAX - 1);
		return -EINVAL;
	}
	if (a->role == NULL || (strcmp(a->role, "host") != 0 && strcmp(a->role, "dpu") != 0)) {
		SHM_LOG(ERR, "devargs: role=host or role=dpu is required");
		return -EINVAL;
	}
	*role = strcmp(a->role, "dpu") == 0 ? RTE_COMCH_ROLE_DPU : RTE_COMCH_ROLE_HOST;
	if (a->doorbell != NULL && strcmp(a->doorbell, "socket") != 0 &&
	    strcmp(a->doorbell, "eventfd") != 0) {
		SHM_LOG(ERR, "devargs: doorbell=%s: socket (default) or eventfd", a->doorbell);
		return -EINVAL;
	}
	if (*role == RTE_COMCH_ROLE_DPU && a->fn != NULL) {
		SHM_LOG(ERR, "devargs: fn= is for host-side devices; the BlueField side uses rep=");
		return -EINVAL;
	}
	if (*role == RTE_COMCH_ROLE_HOST && a->nb_reps != 0) {
		SHM_LOG(ERR, "devargs: rep= is for BlueField-side devices; the host side uses fn=");
		return -EINVAL;
	}
	if (a->fn == NULL)
		a->fn = SHM_DEFAULT_FN;
	if (a->nb_reps == 0 && *role == RTE_COMCH_ROLE_DPU)
		a->reps[a->nb_reps++] = SHM_DEFAULT_FN;
	if (!shm_name_valid(a->fn)) {
		SHM_LOG(ERR, "devargs: fn=%s is not a valid function name", a->fn);
		return -EINVAL;
	}
	for (i = 0; i < a->nb_reps; i++) {
		if (!shm_name_valid(a->reps[i])) {
			SHM_LOG(ERR, "devargs: rep=%s is not a valid function name", a->reps[i]);
			return -EINVAL;
		}
		for (j = 0; j < i; j++)
			if (strcmp(a->reps[i], a->reps[j]) == 0) {
				SHM_LOG(ERR, "devargs: rep=%s given twice", a->reps[i]);
				return -EINVAL;
			}
	}
	return 0;
}

/*
 * /run/user/<uid>, if the system made it for us (systemd-logind does): no other
 * user can create anything there, unlike in /tmp.
 */
static int
shm_user_run_dir(char *buf, size_t len)
{
	struct stat st;

	snprintf(buf, len, "/run/user/%u", (unsigned int)geteuid());
	if (lstat(buf, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 077) != 0)
		return -ENOENT;
	return 0;
}

/* <dir>/<domain>, made private; the socket paths below it must fit in sun_path. */
static int
shm_dev_dir(struct shm_dev *sd, const char *dir, const char *domain)
{
	char base[PATH_MAX], run[64];
	const char *xdg;
	int rc;

	if (dir != NULL)
		strlcpy(base, dir, sizeof(base));
	else if ((xdg = getenv("XDG_RUNTIME_DIR")) != NULL && *xdg != '\0')
		snprintf(base, sizeof(base), "%s/rte_comch", xdg);
	else if (shm_user_run_dir(run, sizeof(run)) == 0)
		snprintf(base, sizeof(base), "%s/rte_comch", run);
	else
		snprintf(base, sizeof(base), "/tmp/rte_comch-%u", (unsigned int)geteuid());
	/* "/<fn>/s-<16 hex>.sock" follows the domain directory. */
	if (strlen(base) + 1 + strlen(domain) + 1 + (SHM_NAME_MAX - 1) + 24 >=
	    sizeof(((struct sockaddr_un *)0)->sun_path)) {
		SHM_LOG(ERR, "runtime directory %s is too long for socket paths", base);
		return -ENAMETOOLONG;
	}
	rc = shm_mkdir_private(base);
	if (rc < 0)
		return rc;
	snprintf(sd->dir, sizeof(sd->dir), "%s/%s", base, domain);
	return shm_mkdir_private(sd->dir);
}

static void
shm_dev_close(struct rte_comch_dev *dev)
{
	unsigned int i;

	for (i = 0; i < dev->nb_reps; i++)
		free(dev->rep_names[i]);
	free(dev->rep_names);
	free(dev->priv);
	dev->rep_names = NULL;
	dev->priv = NULL;
}

static const struct rte_comch_dev_ops shm_dev_ops = {
	.dev_close = shm_dev_close,
	.server_create = shm_server_create,
	.server_destroy = shm_server_destroy,
	.server_start = shm_server_start,
	.server_stop = shm_server_stop,
	.server_tick = shm_server_tick,
	.client_start = shm_client_start,
	.client_tick = shm_client_tick,
	.client_stop = shm_client_stop,
	.conn_send = shm_conn_send,
	.conn_poll = shm_conn_poll,
	.conn_tx_idle = shm_conn_tx_idle,
	.conn_close = shm_conn_close,
	.conn_arm = shm_conn_arm,
	.conn_disarm = shm_conn_disarm,
	.conn_free = shm_conn_free_op,
	.consumer_create = shm_consumer_create,
	.consumer_destroy = shm_consumer_destroy,
	.consumer_advertise = shm_consumer_advertise,
	.consumer_expire = shm_consumer_expire,
	.consumer_arm = shm_consumer_arm,
	.consumer_disarm = shm_consumer_disarm,
	.consumer_post = shm_consumer_post,
	.consumer_poll = shm_consumer_poll,
	.producer_create = shm_producer_create,
	.producer_destroy = shm_producer_destroy,
	.producer_send = shm_producer_send,
	.producer_flush = shm_producer_flush,
};

static void
shm_dev_fill_info(struct rte_comch_dev *dev, const struct shm_args *a)
{
	struct rte_comch_dev_info *info = &dev->info;

	if (dev->role == RTE_COMCH_ROLE_DPU)
		snprintf(info->name, sizeof(info->name), "shm_%s_dpu", a->domain);
	else
		snprintf(info->name, sizeof(info->name), "shm_%s_host_%s", a->domain, a->fn);
	info->max_name_len = SHM_MAX_NAME_LEN;
	info->max_msg_size = SHM_MAX_MSG_SIZE;
	info->default_msg_size = RTE_COMCH_DEFAULT_MSG_SIZE;
	info->max_recv_queue_size = SHM_MAX_RECV_QUEUE;
	info->max_clients = SHM_MAX_CLIENTS;
	info->max_send_tasks = SHM_MAX_SEND_TASKS;
	info->server_supported = dev->role == RTE_COMCH_ROLE_DPU;
	info->client_supported = dev->role == RTE_COMCH_ROLE_HOST;
	info->producer_supported = 1;
	info->consumer_supported = 1;
	info->max_fast_tasks = SHM_MAX_FAST_TASKS;
	info->max_buf_size = SHM_MAX_BUF_SIZE;
	info->max_producers = SHM_MAX_FAST;
	info->max_consumers = SHM_MAX_FAST;
	info->max_imm_data_len = RTE_COMCH_MAX_IMM_DATA_LEN;
}

static int
shm_probe(struct rte_comch_dev *dev, const struct rte_kvargs *kvlist)
{
	struct shm_args a = { 0 };
	struct shm_dev *sd;
	unsigned int i;
	int rc;

	rc = shm_args_parse(kvlist, &a, &dev->role);
	if (rc < 0)
		return rc;
	sd = calloc(1, sizeof(*sd));
	if (sd == NULL)
		return -ENOMEM;
	dev->priv = sd;
	rc = shm_dev_dir(sd, a.dir, a.domain);
	if (rc < 0)
		goto fail;
	strlcpy(sd->fn, a.fn, sizeof(sd->fn));
	sd->efd_bells = a.doorbell != NULL && strcmp(a.doorbell, "eventfd") == 0;
	if (dev->role == RTE_COMCH_ROLE_DPU) {
		dev->rep_names = calloc(a.nb_reps, sizeof(*dev->rep_names));
		if (dev->rep_names == NULL) {
			rc = -ENOMEM;
			goto fail;
		}
		for (i = 0; i < a.nb_reps; i++) {
			dev->rep_names[i] = strdup(a.reps[i]);
			if (dev->rep_names[i] == NULL) {
				rc = -ENOMEM;
				goto fail;
			}
			dev->nb_reps++;
		}
	}
	dev->ops = &shm_dev_ops;
	shm_dev_fill_info(dev, &a);
	return 0;
fail:
	shm_dev_close(dev);
	return rc;
}

static struct rte_comch_driver shm_driver = {
	.name = "shm",
	.valid_keys = shm_valid_keys,
	.probe = shm_probe,
};

RTE_COMCH_REGISTER_DRIVER(shm, shm_driver);
