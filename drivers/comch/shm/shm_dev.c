/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The shm device: one emulated BlueField ("domain") under a private runtime
 * directory, seen from the BlueField side (role=dpu, with representors) or from
 * one host function (role=host, fn=...).
 */

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
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
#define SHM_KEY_PEER_FDS "max_peer_fds"
#define SHM_KEY_PEER_MAP "max_peer_map"
#define SHM_KEY_FD_RESERVE "fd_reserve"
#define SHM_KEY_PROC_CONNS "max_proc_conns"
#define SHM_KEY_PROC_FDS "max_proc_fds"
#define SHM_KEY_PROC_MAP "max_proc_map"
#define SHM_KEY_DEV_FDS "max_dev_fds"
#define SHM_KEY_DEV_MAP "max_dev_map"
#define SHM_KEY_NT_MIN "nt_min"
#define SHM_KEY_NT_AUTO "nt_auto"
#define SHM_KEY_BOUNCE "bounce"
#define SHM_DEFAULT_FN "pf0"

static const char * const shm_valid_keys[] = {
	SHM_KEY_DOMAIN, SHM_KEY_ROLE, SHM_KEY_FN, SHM_KEY_REP, SHM_KEY_DIR, SHM_KEY_DOORBELL,
	SHM_KEY_PEER_FDS, SHM_KEY_PEER_MAP, SHM_KEY_FD_RESERVE, SHM_KEY_PROC_CONNS,
	SHM_KEY_PROC_FDS, SHM_KEY_PROC_MAP, SHM_KEY_DEV_FDS, SHM_KEY_DEV_MAP, SHM_KEY_NT_MIN,
	SHM_KEY_NT_AUTO, SHM_KEY_BOUNCE, NULL,
};

struct shm_args {
	const char *domain;
	const char *role;
	const char *fn;
	const char *dir;
	const char *doorbell;
	const char *peer_fds;
	const char *peer_map;
	const char *fd_reserve;
	const char *proc_conns;
	const char *proc_fds;
	const char *proc_map;
	const char *dev_fds;
	const char *dev_map;
	const char *nt_min;
	const char *nt_auto;
	const char *bounce;
	const char *reps[SHM_MAX_REPS];
	unsigned int nb_reps;
	int err;
};

/* Where each key but rep lands. */
static const struct {
	const char *key;
	size_t off;
} shm_arg_slots[] = {
	{ SHM_KEY_DOMAIN, offsetof(struct shm_args, domain) },
	{ SHM_KEY_ROLE, offsetof(struct shm_args, role) },
	{ SHM_KEY_FN, offsetof(struct shm_args, fn) },
	{ SHM_KEY_DIR, offsetof(struct shm_args, dir) },
	{ SHM_KEY_DOORBELL, offsetof(struct shm_args, doorbell) },
	{ SHM_KEY_PEER_FDS, offsetof(struct shm_args, peer_fds) },
	{ SHM_KEY_PEER_MAP, offsetof(struct shm_args, peer_map) },
	{ SHM_KEY_FD_RESERVE, offsetof(struct shm_args, fd_reserve) },
	{ SHM_KEY_PROC_CONNS, offsetof(struct shm_args, proc_conns) },
	{ SHM_KEY_PROC_FDS, offsetof(struct shm_args, proc_fds) },
	{ SHM_KEY_PROC_MAP, offsetof(struct shm_args, proc_map) },
	{ SHM_KEY_DEV_FDS, offsetof(struct shm_args, dev_fds) },
	{ SHM_KEY_DEV_MAP, offsetof(struct shm_args, dev_map) },
	{ SHM_KEY_NT_MIN, offsetof(struct shm_args, nt_min) },
	{ SHM_KEY_NT_AUTO, offsetof(struct shm_args, nt_auto) },
	{ SHM_KEY_BOUNCE, offsetof(struct shm_args, bounce) },
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
	const char **slot = NULL;
	unsigned int i;

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
	/* kvargs let only shm_valid_keys through: each has its slot. */
	for (i = 0; i < RTE_DIM(shm_arg_slots) && slot == NULL; i++)
		if (strcmp(key, shm_arg_slots[i].key) == 0)
			slot = (const char **)RTE_PTR_ADD(a, shm_arg_slots[i].off);
	if (slot == NULL || *slot != NULL) {
		SHM_LOG(ERR, "devargs: %s given twice", key);
		a->err = -EINVAL;
		return -1;
	}
	*slot = value;
	return 0;
}

/* A number in [min, max], with an optional K, M or G suffix (powers of 1024). */
static int
shm_arg_number(const char *key, const char *value, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	unsigned int shift = 0;
	char *end;

	errno = 0;
	v = strtoull(value, &end, 0);
	if (end != value && (*end == 'K' || *end == 'M' || *end == 'G')) {
		shift = *end == 'K' ? 10 : *end == 'M' ? 20 : 30;
		end++;
	}
	if (end == value || *end != '\0' || errno != 0 || v > (max >> shift) ||
	    (v << shift) < min) {
		SHM_LOG(ERR, "devargs: %s=%s: give a number in %" PRIu64 "..%" PRIu64, key, value,
			min, max);
		return -EINVAL;
	}
	*out = (uint64_t)v << shift;
	return 0;
}

/* A count in [min, max] of key, if given: *out keeps its default otherwise. */
static int
shm_arg_count(const char *key, const char *value, uint64_t min, uint64_t max, uint32_t *out)
{
	uint64_t v;

	if (value == NULL)
		return 0;
	if (shm_arg_number(key, value, min, max, &v) < 0)
		return -EINVAL;
	*out = (uint32_t)v;
	return 0;
}

/* Bytes in [4 KiB, what SHM_MAX_FAST consumers of the largest size map] of key, if given. */
static int
shm_arg_bytes(const char *key, const char *value, uint64_t *out)
{
	if (value == NULL)
		return 0;
	return shm_arg_number(key, value, 4096, SHM_MAX_MMAP_BYTES * SHM_MAX_FAST, out);
}

/*
 * The budgets of what peers may make us hold, with their defaults: per
 * connection, per peer process, for all peers of the device; and the size
 * from which sends copy non-temporally.
 */
static int
shm_args_budgets(const struct shm_args *a, enum rte_comch_dev_role role, struct shm_dev *sd)
{
	sd->peer_fds = SHM_DEFAULT_PEER_FDS;
	sd->peer_map = SHM_DEFAULT_PEER_MAP;
	sd->proc_conns = SHM_DEFAULT_PROC_CONNS;
	sd->proc_fds = SHM_DEFAULT_PROC_FDS;
	sd->proc_map = SHM_DEFAULT_PROC_MAP;
	sd->dev_fds = SHM_DEFAULT_DEV_FDS;
	sd->dev_map = SHM_DEFAULT_DEV_MAP;
	sd->fd_reserve = SHM_DEFAULT_FD_RESERVE;
	sd->nt_min = SHM_DEFAULT_NT_MIN;
	sd->nt_auto = SHM_DEFAULT_NT_AUTO;
	sd->bounce = SHM_DEFAULT_BOUNCE;
	if (a->proc_conns != NULL && role == RTE_COMCH_ROLE_HOST) {
		SHM_LOG(ERR, "devargs: %s is for BlueField-side devices, whose servers accept "
			"connections", SHM_KEY_PROC_CONNS);
		return -EINVAL;
	}
	if (shm_arg_count(SHM_KEY_PEER_FDS, a->peer_fds, 1, 1u << 20, &sd->peer_fds) < 0 ||
	    shm_arg_count(SHM_KEY_PROC_CONNS, a->proc_conns, 1, 1u << 16, &sd->proc_conns) < 0 ||
	    shm_arg_count(SHM_KEY_PROC_FDS, a->proc_fds, 1, 1u << 20, &sd->proc_fds) < 0 ||
	    shm_arg_count(SHM_KEY_DEV_FDS, a->dev_fds, 1, 1u << 20, &sd->dev_fds) < 0 ||
	    shm_arg_count(SHM_KEY_FD_RESERVE, a->fd_reserve, 0, 1u << 20, &sd->fd_reserve) < 0 ||
	    shm_arg_count(SHM_KEY_NT_MIN, a->nt_min, 0, SHM_MAX_NT_MIN, &sd->nt_min) < 0 ||
	    shm_arg_count(SHM_KEY_NT_AUTO, a->nt_auto, 0, 1, &sd->nt_auto) < 0 ||
	    shm_arg_count(SHM_KEY_BOUNCE, a->bounce, 0, SHM_MAX_BOUNCE, &sd->bounce) < 0 ||
	    shm_arg_bytes(SHM_KEY_PEER_MAP, a->peer_map, &sd->peer_map) < 0 ||
	    shm_arg_bytes(SHM_KEY_PROC_MAP, a->proc_map, &sd->proc_map) < 0 ||
	    shm_arg_bytes(SHM_KEY_DEV_MAP, a->dev_map, &sd->dev_map) < 0)
		return -EINVAL;
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

/*
 * XDG_RUNTIME_DIR must be a directory of ours closed to others, as the XDG
 * Base Directory specification says (systemd-logind makes /run/user/<uid> so).
 * Another user's, inherited through su for one, is refused rather than used:
 * what we made in it would be ours, and that user's own processes would then
 * refuse it, or we could not make it at all.
 */
static int
shm_xdg_dir_check(const char *xdg)
{
	unsigned int uid = geteuid();
	const char *what = NULL;
	char owner[48] = "";
	struct stat st;

	if (xdg[0] != '/') {
		what = "is not an absolute path";
	} else if (stat(xdg, &st) < 0) {
		what = strerror(errno);
	} else {
		snprintf(owner, sizeof(owner), " (uid %u, mode %04o)", (unsigned int)st.st_uid,
			 (unsigned int)(st.st_mode & 07777));
		if (!S_ISDIR(st.st_mode))
			what = "is not a directory";
		else if (st.st_uid != uid)
			what = "belongs to another user";
		else if ((st.st_mode & 077) != 0)
			what = "is open to group or others";
	}
	if (what == NULL)
		return 0;
	SHM_LOG(ERR, "XDG_RUNTIME_DIR=%s%s: %s. It must be a directory of uid %u with mode "
		"0700, as systemd-logind makes /run/user/%u: set XDG_RUNTIME_DIR to such a "
		"directory, or unset it, or pass devargs dir=<such a directory>; the same in "
		"every process of the domain", xdg, owner, what, uid, uid);
	return -EPERM;
}

/*
 * The base directory: devargs dir=, else $XDG_RUNTIME_DIR/rte_comch, else
 * /run/user/<uid>/rte_comch, else /tmp/rte_comch-<uid>. fix: what to do if it
 * cannot be used, which depends on where it came from.
 */
static int
shm_base_dir(const char *dir, char *base, size_t len, char *fix, size_t fix_len)
{
	unsigned int uid = geteuid();
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	char run[64];

	if (dir != NULL) {
		strlcpy(base, dir, len);
		snprintf(fix, fix_len, "It is devargs dir=: give dir= a directory of uid %u with "
			 "mode 0700, the same in every process of the domain, or remove this one "
			 "if it is not yours.", uid);
	} else if (xdg != NULL && *xdg != '\0') {
		if (shm_xdg_dir_check(xdg) < 0)
			return -EPERM;
		snprintf(base, len, "%s/rte_comch", xdg);
		snprintf(fix, fix_len, "It is $XDG_RUNTIME_DIR/rte_comch: remove it if it is not "
			 "yours, or set XDG_RUNTIME_DIR, or pass devargs dir=, to another "
			 "directory of uid %u with mode 0700.", uid);
	} else if (shm_user_run_dir(run, sizeof(run)) == 0) {
		snprintf(base, len, "%s/rte_comch", run);
		snprintf(fix, fix_len, "It is the default under %s: remove it if it is not yours, "
			 "or set XDG_RUNTIME_DIR, or pass devargs dir=, to another directory of "
			 "uid %u with mode 0700.", run, uid);
	} else {
		snprintf(base, len, "/tmp/rte_comch-%u", uid);
		snprintf(fix, fix_len, "It is the default, used since neither devargs dir= "
			 "nor XDG_RUNTIME_DIR is set and the system made no /run/user/%u: in "
			 "/tmp, another user can make it first. Set XDG_RUNTIME_DIR to a "
			 "directory of uid %u with mode 0700, or pass devargs dir=<such a "
			 "directory>, the same in every process of the domain; or have it "
			 "removed if it is not yours.", uid, uid);
	}
	return 0;
}

/* <base>/<domain>, made private; the socket paths below it must fit in sun_path. */
static int
shm_dev_dir(struct shm_dev *sd, const char *dir, const char *domain)
{
	char base[PATH_MAX], fix[512];
	int rc;

	rc = shm_base_dir(dir, base, sizeof(base), fix, sizeof(fix));
	if (rc < 0)
		return rc;
	/* "/<fn>/s-<16 hex>.sock" follows the domain directory. */
	if (strlen(base) + 1 + strlen(domain) + 1 + (SHM_NAME_MAX - 1) + 24 >=
	    sizeof(((struct sockaddr_un *)0)->sun_path)) {
		SHM_LOG(ERR, "runtime directory %s is too long for socket paths", base);
		return -ENAMETOOLONG;
	}
	rc = shm_mkdir_private(base, fix);
	if (rc < 0)
		return rc;
	snprintf(sd->dir, sizeof(sd->dir), "%s/%s", base, domain);
	return shm_mkdir_private(sd->dir, NULL);
}

static void
shm_dev_close(void *dev)
{
	struct shm_dev *sd = dev;

	/* Every connection is gone, and with the last of each process, its entry. */
	pthread_mutex_destroy(&sd->peers.lock);
	free(sd);
}

static const struct rte_comch_drv_dev_ops shm_dev_ops = {
	.close = shm_dev_close,
};

static const struct rte_comch_drv_ops shm_ops = {
	.dev = &shm_dev_ops,
	.server = &shm_server_ops,
	.client = &shm_client_ops,
	.conn = &shm_conn_ops,
	.mmap = &shm_mmap_ops,
	.consumer = &shm_consumer_ops,
	.producer = &shm_producer_ops,
};

static void
shm_dev_fill_info(struct rte_comch_drv_dev_conf *conf, const struct shm_args *a)
{
	struct rte_comch_dev_info *info = &conf->info;

	if (conf->role == RTE_COMCH_ROLE_DPU)
		snprintf(info->name, sizeof(info->name), "shm_%s_dpu", a->domain);
	else
		snprintf(info->name, sizeof(info->name), "shm_%s_host_%s", a->domain, a->fn);
	info->max_name_len = SHM_MAX_NAME_LEN;
	info->max_msg_size = SHM_MAX_MSG_SIZE;
	info->default_msg_size = RTE_COMCH_DEFAULT_MSG_SIZE;
	info->max_recv_queue_size = SHM_MAX_RECV_QUEUE;
	info->max_clients = SHM_MAX_CLIENTS;
	info->max_send_tasks = SHM_MAX_SEND_TASKS;
	info->capa = (conf->role == RTE_COMCH_ROLE_DPU ? RTE_COMCH_CAPA_SERVER :
		      RTE_COMCH_CAPA_CLIENT) | RTE_COMCH_CAPA_PRODUCER | RTE_COMCH_CAPA_CONSUMER |
		     RTE_COMCH_CAPA_SLEEP | RTE_COMCH_CAPA_MULTI_PROCESS;
	info->max_fast_tasks = SHM_MAX_FAST_TASKS;
	info->max_buf_size = SHM_MAX_BUF_SIZE;
	info->max_producers = SHM_MAX_FAST;
	info->max_consumers = SHM_MAX_FAST;
	info->max_imm_data_len = RTE_COMCH_MAX_IMM_DATA_LEN;
}

static int
shm_probe(const struct rte_kvargs *kvlist, struct rte_comch_drv_dev_conf *conf)
{
	struct shm_args a = { 0 };
	struct shm_dev *sd;
	int rc;

	rc = shm_args_parse(kvlist, &a, &conf->role);
	if (rc < 0)
		return rc;
	sd = calloc(1, sizeof(*sd));
	if (sd == NULL)
		return -ENOMEM;
	pthread_mutex_init(&sd->peers.lock, NULL);
	LIST_INIT(&sd->peers.list);
	rc = shm_args_budgets(&a, conf->role, sd);
	if (rc == 0)
		rc = shm_dev_dir(sd, a.dir, a.domain);
	if (rc < 0) {
		pthread_mutex_destroy(&sd->peers.lock);
		free(sd);
		return rc;
	}
	strlcpy(sd->fn, a.fn, sizeof(sd->fn));
	sd->efd_bells = a.doorbell != NULL && strcmp(a.doorbell, "eventfd") == 0;
	conf->priv = sd;
	/* The names point into kvlist: the library copies them before it goes. */
	if (conf->role == RTE_COMCH_ROLE_DPU) {
		memcpy(sd->reps, a.reps, a.nb_reps * sizeof(a.reps[0]));
		conf->rep_names = sd->reps;
		conf->nb_reps = a.nb_reps;
	}
	shm_dev_fill_info(conf, &a);
	return 0;
}

static struct rte_comch_driver shm_driver = {
	.name = "shm",
	.valid_keys = shm_valid_keys,
	.probe = shm_probe,
	.ops = &shm_ops,
};

RTE_COMCH_REGISTER_DRIVER(shm, shm_driver);
