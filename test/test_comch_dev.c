/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Devices and representors: open/close, devargs parsing, capabilities,
 * lookup by id, representor list/open/close/name and their errors.
 */

#include <errno.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_log.h>

#include "comch_test_common.h"

static void
expect_open_fails(const char *devargs, int err)
{
	struct rte_comch_dev *dev;

	rte_errno = 0;
	dev = rte_comch_dev_open(devargs);
	if (dev != NULL) {
		rte_comch_dev_close(dev);
		fail_msg("open \"%s\" succeeded, expected errno %d", devargs, err);
	}
	if (rte_errno != err)
		fail_msg("open \"%s\": rte_errno %d, expected %d", devargs, rte_errno, err);
}

static void
test_dev_open_bad_devargs(void **state)
{
	char d[32], buf[512];

	(void)state;
	ct_domain(d, sizeof(d));
	expect_open_fails(NULL, EINVAL);
	/* empty driver part */
	snprintf(buf, sizeof(buf), ":domain=%s,role=host,dir=%s", d, ct_dir());
	expect_open_fails(buf, EINVAL);
	/* unknown driver */
	snprintf(buf, sizeof(buf), "nosuchdrv:domain=%s,role=host,dir=%s", d, ct_dir());
	expect_open_fails(buf, ENODEV);
	/* unknown key */
	snprintf(buf, sizeof(buf), "shm:domain=%s,role=host,colour=blue,dir=%s", d, ct_dir());
	expect_open_fails(buf, EINVAL);
	/* bad role, missing role */
	snprintf(buf, sizeof(buf), "shm:domain=%s,role=nic,dir=%s", d, ct_dir());
	expect_open_fails(buf, EINVAL);
	snprintf(buf, sizeof(buf), "shm:domain=%s,dir=%s", d, ct_dir());
	expect_open_fails(buf, EINVAL);
	/* missing, bad or too long domain */
	snprintf(buf, sizeof(buf), "shm:role=host,dir=%s", ct_dir());
	expect_open_fails(buf, EINVAL);
	snprintf(buf, sizeof(buf), "shm:domain=a/b,role=host,dir=%s", ct_dir());
	expect_open_fails(buf, EINVAL);
	snprintf(buf, sizeof(buf), "shm:domain=%s,role=host,dir=%s",
		 "d0123456789012345678901234567890", ct_dir()); /* 32 chars */
	expect_open_fails(buf, EINVAL);
	/* fn is for hosts only, rep for DPUs only */
	snprintf(buf, sizeof(buf), "shm:domain=%s,role=dpu,fn=pf0,dir=%s", d, ct_dir());
	expect_open_fails(buf, EINVAL);
	snprintf(buf, sizeof(buf), "shm:domain=%s,role=host,rep=pf0,dir=%s", d, ct_dir());
	expect_open_fails(buf, EINVAL);
	/* unknown doorbell kind, and a doorbell given twice */
	snprintf(buf, sizeof(buf), "shm:domain=%s,role=host,doorbell=pipe,dir=%s", d, ct_dir());
	expect_open_fails(buf, EINVAL);
	snprintf(buf, sizeof(buf), "shm:domain=%s,role=host,doorbell=socket,doorbell=eventfd,"
		 "dir=%s", d, ct_dir());
	expect_open_fails(buf, EINVAL);
}

/* No "<driver>:" prefix at all: malformed devargs (the driver part is required). */
static void
test_dev_open_missing_driver(void **state)
{
	char d[32], buf[512];

	(void)state;
	ct_domain(d, sizeof(d));
	snprintf(buf, sizeof(buf), "domain=%s,role=host,dir=%s", d, ct_dir());
	expect_open_fails(buf, EINVAL);
}

/* DESIGN.md: domain, fn and rep names are [A-Za-z0-9_.-], at most 24 characters. */
static void
test_dev_name_lengths(void **state)
{
	static const char n24[] = "d01234567890123456789012";
	static const char n25[] = "d012345678901234567890123";
	struct rte_comch_dev_info info;
	struct rte_comch_dev *dpu, *host;
	char buf[512], name[80];
	const char *reps[1];

	(void)state;
	assert_int_equal(strlen(n24), 24);
	assert_int_equal(strlen(n25), 25);
	dpu = ct_dev_open("domain=%s,role=dpu,rep=%s", n24, n24);
	assert_non_null(dpu);
	assert_int_equal(rte_comch_dev_rep_list(dpu, reps, 1), 1);
	assert_string_equal(reps[0], n24);
	host = ct_dev_open("domain=%s,role=host,fn=%s", n24, n24);
	assert_non_null(host);
	assert_int_equal(rte_comch_dev_info_get(host, &info), 0);
	snprintf(name, sizeof(name), "shm_%s_host_%s", n24, n24);
	assert_string_equal(info.name, name);
	assert_int_equal(rte_comch_dev_close(host), 0);
	assert_int_equal(rte_comch_dev_close(dpu), 0);

	snprintf(buf, sizeof(buf), "shm:domain=%s,role=dpu,dir=%s", n25, ct_dir());
	expect_open_fails(buf, EINVAL);
	snprintf(buf, sizeof(buf), "shm:domain=x,role=host,fn=%s,dir=%s", n25, ct_dir());
	expect_open_fails(buf, EINVAL);
	snprintf(buf, sizeof(buf), "shm:domain=x,role=dpu,rep=%s,dir=%s", n25, ct_dir());
	expect_open_fails(buf, EINVAL);
	snprintf(buf, sizeof(buf), "shm:domain=x,role=host,fn=a/b,dir=%s", ct_dir());
	expect_open_fails(buf, EINVAL);
	snprintf(buf, sizeof(buf), "shm:domain=x,role=host,fn=,dir=%s", ct_dir());
	expect_open_fails(buf, EINVAL);
}

static void
test_dev_open_close_info(void **state)
{
	struct rte_comch_dev_info hi, di;
	struct rte_comch_dev *host, *dpu;
	char d[32], name[64];

	(void)state;
	ct_domain(d, sizeof(d));
	host = ct_dev_open("domain=%s,role=host", d); /* fn defaults to pf0 */
	assert_non_null(host);
	dpu = ct_dev_open("domain=%s,role=dpu", d); /* rep defaults to pf0 */
	assert_non_null(dpu);

	assert_int_equal(rte_comch_dev_info_get(NULL, &hi), -EINVAL);
	assert_int_equal(rte_comch_dev_info_get(host, NULL), -EINVAL);
	assert_int_equal(rte_comch_dev_info_get(host, &hi), 0);
	assert_int_equal(rte_comch_dev_info_get(dpu, &di), 0);

	assert_string_equal(hi.driver_name, "shm");
	snprintf(name, sizeof(name), "shm_%s_host_pf0", d);
	assert_string_equal(hi.name, name);
	assert_int_equal(hi.role, RTE_COMCH_ROLE_HOST);
	assert_int_equal(hi.max_name_len, 128);
	assert_int_equal(hi.max_msg_size, 1024 * 1024);
	assert_int_equal(hi.default_msg_size, 4080);
	assert_int_equal(hi.default_msg_size, RTE_COMCH_DEFAULT_MSG_SIZE);
	assert_int_equal(hi.max_recv_queue_size, 4096);
	assert_int_equal(hi.max_clients, 512);
	assert_int_equal(hi.max_send_tasks, 65536);
	assert_int_equal(hi.capa & (RTE_COMCH_CAPA_SERVER | RTE_COMCH_CAPA_CLIENT),
			 RTE_COMCH_CAPA_CLIENT);
	assert_true(hi.capa & RTE_COMCH_CAPA_SLEEP);
	assert_true(hi.capa & RTE_COMCH_CAPA_MULTI_PROCESS);
	assert_false(hi.capa & RTE_COMCH_CAPA_MSGQ);
	assert_int_equal(hi.max_peer_consumers, 64);

	assert_string_equal(di.driver_name, "shm");
	snprintf(name, sizeof(name), "shm_%s_dpu", d);
	assert_string_equal(di.name, name);
	assert_int_equal(di.role, RTE_COMCH_ROLE_DPU);
	assert_int_equal(di.capa & (RTE_COMCH_CAPA_SERVER | RTE_COMCH_CAPA_CLIENT),
			 RTE_COMCH_CAPA_SERVER);
	assert_int_not_equal(di.dev_id, hi.dev_id);

	/* lookup by id */
	assert_ptr_equal(rte_comch_dev_get_by_id(hi.dev_id), host);
	assert_ptr_equal(rte_comch_dev_get_by_id(di.dev_id), dpu);
	rte_errno = 0;
	assert_null(rte_comch_dev_get_by_id(UINT16_MAX));
	assert_int_equal(rte_errno, ENODEV);

	assert_int_equal(rte_comch_dev_close(NULL), -EINVAL);
	assert_int_equal(rte_comch_dev_close(host), 0);
	/* a closed device's id no longer resolves */
	rte_errno = 0;
	assert_null(rte_comch_dev_get_by_id(hi.dev_id));
	assert_int_equal(rte_errno, ENODEV);
	assert_int_equal(rte_comch_dev_close(dpu), 0);
}

static void
test_dev_duplicate_name(void **state)
{
	struct rte_comch_dev *a, *b, *c;
	char d[32], buf[512];

	(void)state;
	ct_domain(d, sizeof(d));
	a = ct_dev_open("domain=%s,role=host,fn=pf0vf1", d);
	assert_non_null(a);
	snprintf(buf, sizeof(buf), "shm:domain=%s,role=host,fn=pf0vf1,dir=%s", d, ct_dir());
	expect_open_fails(buf, EEXIST);
	/* another function on the same domain is another device */
	b = ct_dev_open("domain=%s,role=host,fn=pf0vf2", d);
	assert_non_null(b);
	c = ct_dev_open("domain=%s,role=dpu,rep=pf0vf1,rep=pf0vf2", d);
	assert_non_null(c);
	snprintf(buf, sizeof(buf), "shm:domain=%s,role=dpu,dir=%s", d, ct_dir());
	expect_open_fails(buf, EEXIST);
	assert_int_equal(rte_comch_dev_close(a), 0);
	/* the name is free again once closed */
	a = ct_dev_open("domain=%s,role=host,fn=pf0vf1", d);
	assert_non_null(a);
	assert_int_equal(rte_comch_dev_close(a), 0);
	assert_int_equal(rte_comch_dev_close(b), 0);
	assert_int_equal(rte_comch_dev_close(c), 0);
}

static void
test_dev_max_devs(void **state)
{
	struct rte_comch_dev *devs[RTE_COMCH_MAX_DEVS];
	char d[32], buf[512];
	unsigned int i;

	(void)state;
	ct_domain(d, sizeof(d));
	for (i = 0; i < RTE_COMCH_MAX_DEVS; i++) {
		devs[i] = ct_dev_open("domain=%s,role=host,fn=f%u", d, i);
		if (devs[i] == NULL)
			fail_msg("open device %u of %u: rte_errno %d", i,
				 RTE_COMCH_MAX_DEVS, rte_errno);
	}
	snprintf(buf, sizeof(buf), "shm:domain=%s,role=host,fn=extra,dir=%s", d, ct_dir());
	expect_open_fails(buf, ENOSPC);
	assert_int_equal(rte_comch_dev_close(devs[7]), 0);
	devs[7] = ct_dev_open("domain=%s,role=host,fn=extra", d);
	assert_non_null(devs[7]);
	for (i = 0; i < RTE_COMCH_MAX_DEVS; i++)
		assert_int_equal(rte_comch_dev_close(devs[i]), 0);
}

static void
test_dev_rep_list(void **state)
{
	struct rte_comch_dev *dpu, *dpu1, *host;
	const char *names[4] = { NULL, NULL, NULL, NULL };
	char d[32];

	(void)state;
	ct_domain(d, sizeof(d));
	dpu = ct_dev_open("domain=%s,role=dpu,rep=pf0,rep=pf0vf1,rep=sf3", d);
	assert_non_null(dpu);
	dpu1 = ct_dev_open("domain=%sb,role=dpu", d);
	assert_non_null(dpu1);
	host = ct_dev_open("domain=%s,role=host", d);
	assert_non_null(host);

	assert_int_equal(rte_comch_dev_rep_list(NULL, names, 4), -EINVAL);
	assert_int_equal(rte_comch_dev_rep_list(dpu, NULL, 4), -EINVAL);
	assert_int_equal(rte_comch_dev_rep_list(host, names, 4), -EPERM);
	assert_int_equal(rte_comch_dev_rep_list(dpu, NULL, 0), 3);
	assert_int_equal(rte_comch_dev_rep_list(dpu, names, 4), 3);
	assert_string_equal(names[0], "pf0");
	assert_string_equal(names[1], "pf0vf1");
	assert_string_equal(names[2], "sf3");
	assert_null(names[3]);
	/* a short array gets the first names and the full count */
	memset(names, 0, sizeof(names));
	assert_int_equal(rte_comch_dev_rep_list(dpu, names, 1), 3);
	assert_string_equal(names[0], "pf0");
	assert_null(names[1]);
	/* default: one representor, pf0 */
	assert_int_equal(rte_comch_dev_rep_list(dpu1, names, 4), 1);
	assert_string_equal(names[0], "pf0");

	assert_int_equal(rte_comch_dev_close(host), 0);
	assert_int_equal(rte_comch_dev_close(dpu1), 0);
	assert_int_equal(rte_comch_dev_close(dpu), 0);
}

static void
test_dev_rep_open_close(void **state)
{
	struct rte_comch_dev *dpu, *host;
	struct rte_comch_dev_rep *rep, *rep2;
	struct rte_comch_client *cli;
	char d[32];

	(void)state;
	ct_domain(d, sizeof(d));
	dpu = ct_dev_open("domain=%s,role=dpu,rep=pf0,rep=pf0vf1", d);
	assert_non_null(dpu);
	host = ct_dev_open("domain=%s,role=host", d);
	assert_non_null(host);

	rte_errno = 0;
	assert_null(rte_comch_dev_rep_open(NULL, "pf0"));
	assert_int_equal(rte_errno, EINVAL);
	rte_errno = 0;
	assert_null(rte_comch_dev_rep_open(dpu, NULL));
	assert_int_equal(rte_errno, EINVAL);
	rte_errno = 0;
	assert_null(rte_comch_dev_rep_open(host, "pf0"));
	assert_int_equal(rte_errno, EPERM);
	rte_errno = 0;
	assert_null(rte_comch_dev_rep_open(dpu, "pf1"));
	assert_int_equal(rte_errno, ENOENT);

	rep = rte_comch_dev_rep_open(dpu, "pf0vf1");
	assert_non_null(rep);
	assert_string_equal(rte_comch_dev_rep_name(rep), "pf0vf1");
	rte_errno = 0;
	assert_null(rte_comch_dev_rep_name(NULL));
	assert_int_equal(rte_errno, EINVAL);
	rep2 = rte_comch_dev_rep_open(dpu, "pf0");
	assert_non_null(rep2);
	assert_string_equal(rte_comch_dev_rep_name(rep2), "pf0");

	/* a device with open representors cannot close */
	assert_int_equal(rte_comch_dev_close(dpu), -EBUSY);
	assert_int_equal(rte_comch_dev_rep_close(NULL), -EINVAL);
	assert_int_equal(rte_comch_dev_rep_close(rep), 0);
	assert_int_equal(rte_comch_dev_close(dpu), -EBUSY);
	assert_int_equal(rte_comch_dev_rep_close(rep2), 0);

	/* a host device with a client cannot close */
	cli = rte_comch_client_create(host, "x");
	assert_non_null(cli);
	assert_int_equal(rte_comch_dev_close(host), -EBUSY);
	assert_int_equal(rte_comch_client_destroy(cli), 0);

	assert_int_equal(rte_comch_dev_close(host), 0);
	assert_int_equal(rte_comch_dev_close(dpu), 0);
}

static void
test_dev_rep_busy_with_server(void **state)
{
	struct rte_comch_dev *dpu;
	struct rte_comch_dev_rep *rep;
	struct rte_comch_server *srv;
	char d[32];

	(void)state;
	ct_domain(d, sizeof(d));
	dpu = ct_dev_open("domain=%s,role=dpu", d);
	assert_non_null(dpu);
	rep = rte_comch_dev_rep_open(dpu, "pf0");
	assert_non_null(rep);
	srv = rte_comch_server_create(dpu, rep, "busy");
	assert_non_null(srv);
	assert_int_equal(rte_comch_dev_rep_close(rep), -EBUSY);
	assert_int_equal(rte_comch_dev_close(dpu), -EBUSY);
	assert_int_equal(rte_comch_server_destroy(srv), 0);
	assert_int_equal(rte_comch_dev_rep_close(rep), 0);
	assert_int_equal(rte_comch_dev_close(dpu), 0);
}

static void
test_dev_stats_args(void **state)
{
	struct rte_comch_dev_stats st;
	struct rte_comch_dev *dev;
	char d[32];

	(void)state;
	ct_domain(d, sizeof(d));
	dev = ct_dev_open("domain=%s,role=host", d);
	assert_non_null(dev);
	assert_int_equal(rte_comch_dev_stats_get(NULL, &st), -EINVAL);
	assert_int_equal(rte_comch_dev_stats_get(dev, NULL), -EINVAL);
	assert_int_equal(rte_comch_dev_stats_reset(NULL), -EINVAL);
	memset(&st, 0xff, sizeof(st));
	assert_int_equal(rte_comch_dev_stats_get(dev, &st), 0);
	/* a fresh device has all counters at zero */
	assert_int_equal(st.connections_opened, 0);
	assert_int_equal(st.connections_closed, 0);
	assert_int_equal(st.connections_rejected, 0);
	assert_int_equal(st.peer_errors, 0);
	assert_int_equal(st.msgs_sent, 0);
	assert_int_equal(st.bytes_sent, 0);
	assert_int_equal(st.msgs_received, 0);
	assert_int_equal(st.bytes_received, 0);
	assert_int_equal(st.send_errors, 0);
	assert_int_equal(st.budget_refusals, 0);
	assert_int_equal(rte_comch_dev_stats_reset(dev), 0);
	assert_int_equal(rte_comch_dev_close(dev), 0);
}

/* The budgets' devargs: the library's max_peer_consumers and shm's own. */
static void
test_dev_budget_devargs(void **state)
{
	static const char * const bad[] = {
		"max_peer_consumers=0", "max_peer_consumers=257", "max_peer_consumers=x",
		"max_peer_consumers=4,max_peer_consumers=5", "max_peer_fds=0",
		"max_peer_fds=2G", "max_peer_map=1K", "max_peer_map=12Q", "fd_reserve=-1",
		"fd_reserve=", "max_peer_map=2000000G", "max_proc_conns=0",
		"max_proc_conns=65537", "max_proc_fds=0", "max_proc_fds=1x", "max_proc_map=4095",
		"max_proc_map=300T", "max_dev_fds=0", "max_dev_fds=2M", "max_dev_map=0",
		"max_dev_map=2000000G", "max_proc_fds=8,max_proc_fds=9", "nt_min=-1",
		"nt_min=2G", "nt_min=1x", "nt_min=", "nt_min=1,nt_min=2", "nt_auto=2",
		"nt_auto=-1", "nt_auto=yes", "nt_auto=", "nt_auto=0,nt_auto=1", "bounce=-1",
		"bounce=257M", "bounce=1G", "bounce=4x", "bounce=", "bounce=0,bounce=4K",
	};
	struct rte_comch_dev_info info;
	struct rte_comch_dev *dev;
	char d[32], buf[256];
	unsigned int i;

	(void)state;
	ct_domain(d, sizeof(d));
	for (i = 0; i < RTE_DIM(bad); i++) {
		snprintf(buf, sizeof(buf), "shm:domain=%s,role=dpu,%s,dir=%s", d, bad[i], ct_dir());
		expect_open_fails(buf, EINVAL);
	}
	/* Connections per peer process: a server's limit, refused on the host side. */
	snprintf(buf, sizeof(buf), "shm:domain=%s,role=host,max_proc_conns=4,dir=%s", d,
		 ct_dir());
	expect_open_fails(buf, EINVAL);
	dev = ct_dev_open("domain=%s,role=dpu,max_peer_consumers=8,max_peer_fds=16,"
			  "max_peer_map=1G,fd_reserve=0,max_proc_conns=65536,max_proc_fds=1,"
			  "max_proc_map=4K,max_dev_fds=1M,max_dev_map=256G,nt_min=0,nt_auto=0",
			  d);
	assert_non_null(dev);
	assert_int_equal(rte_comch_dev_info_get(dev, &info), 0);
	assert_int_equal(info.max_peer_consumers, 8);
	assert_int_equal(rte_comch_dev_close(dev), 0);
	dev = ct_dev_open("domain=%s,role=host,max_proc_fds=1M,max_proc_map=1G,max_dev_fds=1,"
			  "max_dev_map=4096,nt_min=1G,nt_auto=1,bounce=256M", d);
	assert_non_null(dev);
	assert_int_equal(rte_comch_dev_close(dev), 0);
	dev = ct_dev_open("domain=%s,role=dpu,bounce=0", d);
	assert_non_null(dev);
	assert_int_equal(rte_comch_dev_close(dev), 0);
}

/*
 * The base directory must be ours alone: one another user made first (mode
 * 0777) or a symbolic link (to a place of theirs) is refused with EPERM.
 */
static void
test_dev_dir_not_private(void **state)
{
	char d[32], base[PATH_MAX], target[512], buf[PATH_MAX + 64];

	(void)state;
	ct_domain(d, sizeof(d));
	snprintf(base, sizeof(base), "%s/open_to_all", ct_dir());
	assert_int_equal(mkdir(base, 0700), 0);
	assert_int_equal(chmod(base, 0777), 0);
	snprintf(buf, sizeof(buf), "shm:domain=%s,role=host,dir=%s", d, base);
	expect_open_fails(buf, EPERM);
	assert_int_equal(chmod(base, 0700), 0);

	snprintf(target, sizeof(target), "%s/elsewhere", ct_dir());
	assert_int_equal(mkdir(target, 0700), 0);
	snprintf(base, sizeof(base), "%s/a_link", ct_dir());
	assert_int_equal(symlink(target, base), 0);
	snprintf(buf, sizeof(buf), "shm:domain=%s,role=host,dir=%s", d, base);
	expect_open_fails(buf, EPERM);
	/* A domain directory made by someone else is refused the same way. */
	snprintf(base, sizeof(base), "%s/%s", target, d);
	assert_int_equal(mkdir(base, 0755), 0);
	snprintf(buf, sizeof(buf), "shm:domain=%s,role=host,dir=%s", d, target);
	expect_open_fails(buf, EPERM);
}

/*
 * Without dir= nor XDG_RUNTIME_DIR, the device lives under /run/user/<uid>
 * when the system made that directory for us, else /tmp/rte_comch-<uid>.
 */
static void
test_dev_default_dir(void **state)
{
	char d[32], run[64], expect[PATH_MAX], buf[PATH_MAX + 64];
	char *xdg = getenv("XDG_RUNTIME_DIR") != NULL ? strdup(getenv("XDG_RUNTIME_DIR")) : NULL;
	struct rte_comch_dev *dev;
	struct stat st;

	(void)state;
	ct_domain(d, sizeof(d));
	unsetenv("XDG_RUNTIME_DIR");
	snprintf(run, sizeof(run), "/run/user/%u", (unsigned int)geteuid());
	if (lstat(run, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid() &&
	    (st.st_mode & 077) == 0)
		snprintf(expect, sizeof(expect), "%s/rte_comch/%s", run, d);
	else
		snprintf(expect, sizeof(expect), "/tmp/rte_comch-%u/%s", (unsigned int)geteuid(), d);
	snprintf(buf, sizeof(buf), "shm:domain=%s,role=host", d);
	dev = rte_comch_dev_open(buf);
	if (xdg != NULL)
		setenv("XDG_RUNTIME_DIR", xdg, 1);
	free(xdg);
	assert_non_null(dev);
	assert_int_equal(lstat(expect, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(st.st_mode & 0777, 0700);
	assert_int_equal(rte_comch_dev_close(dev), 0);
	assert_int_equal(rmdir(expect), 0);
}

/* Listing: what a driver can open shows up while it can be opened, and goes after. */
static bool
dev_listed(const char *devargs)
{
	struct rte_comch_dev_desc descs[64];
	int n, i;

	n = rte_comch_dev_list(descs, RTE_DIM(descs));
	assert_true(n >= 0);
	for (i = 0; i < n && i < (int)RTE_DIM(descs); i++)
		if (strcmp(descs[i].devargs, devargs) == 0) {
			assert_string_equal(descs[i].driver, "skeleton");
			assert_true(descs[i].description[0] != '\0');
			return true;
		}
	return false;
}

static void
test_dev_list(void **state)
{
	struct rte_comch_dev_desc one;
	struct rte_comch_dev *dpu, *host;
	char d[32], devargs[64];
	int before, n;

	(void)state;
	assert_int_equal(rte_comch_dev_list(NULL, 1), -EINVAL);
	before = rte_comch_dev_list(NULL, 0);
	assert_true(before >= 0);
	ct_domain(d, sizeof(d));
	snprintf(devargs, sizeof(devargs), "skeleton:domain=%s", d);
	assert_false(dev_listed(devargs));
	snprintf(devargs, sizeof(devargs), "skeleton:domain=%s,role=dpu", d);
	dpu = rte_comch_dev_open(devargs);
	assert_non_null(dpu);
	snprintf(devargs, sizeof(devargs), "skeleton:domain=%s", d);
	assert_true(dev_listed(devargs));
	/* Counting, and a list too short for all: the first are filled, all are counted. */
	n = rte_comch_dev_list(NULL, 0);
	assert_int_equal(n, before + 1);
	assert_int_equal(rte_comch_dev_list(&one, 1), n);
	assert_true(one.devargs[0] != '\0');
	/* The listed devargs open the host side, with the side added. */
	snprintf(devargs, sizeof(devargs), "skeleton:domain=%s,role=host", d);
	host = rte_comch_dev_open(devargs);
	assert_non_null(host);
	assert_int_equal(rte_comch_dev_list(NULL, 0), before + 1); /* host sides are not listed */
	assert_int_equal(rte_comch_dev_close(host), 0);
	assert_int_equal(rte_comch_dev_close(dpu), 0);
	snprintf(devargs, sizeof(devargs), "skeleton:domain=%s", d);
	assert_false(dev_listed(devargs));
	assert_int_equal(rte_comch_dev_list(NULL, 0), before);
}

/*
 * Run fn in a child process as user uid (root stays root), with
 * XDG_RUNTIME_DIR set to xdg (NULL: unset) and the log captured: the child's
 * exit status (what fn returned), and what it logged in log.
 */
static int
dev_dir_child(uid_t uid, const char *xdg, int (*fn)(const char *arg), const char *arg,
	      char *log, size_t log_len)
{
	int status, pfd[2];
	ssize_t n, got = 0;
	FILE *f;
	pid_t pid;

	assert_int_equal(pipe(pfd), 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(pfd[0]);
		f = fdopen(pfd[1], "w");
		if (f == NULL || rte_openlog_stream(f) < 0 || (uid != 0 && setuid(uid) < 0))
			_exit(100);
		setvbuf(f, NULL, _IONBF, 0);
		if (xdg != NULL)
			setenv("XDG_RUNTIME_DIR", xdg, 1);
		else
			unsetenv("XDG_RUNTIME_DIR");
		_exit(fn(arg));
	}
	close(pfd[1]);
	while (got < (ssize_t)log_len - 1 &&
	       (n = read(pfd[0], log + got, log_len - 1 - got)) > 0)
		got += n;
	log[got] = '\0';
	close(pfd[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

/* In the child: the default device of domain arg opens (0) or fails with EPERM (1). */
static int
dev_dir_open_default(const char *domain)
{
	struct rte_comch_dev *dev;
	char buf[64];

	snprintf(buf, sizeof(buf), "shm:domain=%s,role=host", domain);
	dev = rte_comch_dev_open(buf);
	if (dev != NULL)
		return rte_comch_dev_close(dev) == 0 ? 0 : 2;
	return rte_errno == EPERM ? 1 : 3;
}

/* A directory of owner uid with mode, made by root. */
static void
dev_dir_make(const char *path, uid_t uid, mode_t mode)
{
	assert_int_equal(mkdir(path, 0700), 0);
	assert_int_equal(chown(path, uid, uid), 0);
	assert_int_equal(chmod(path, mode), 0);
}

/*
 * XDG_RUNTIME_DIR is preferred when it is ours; another user's (inherited
 * through su, say) is refused rather than filled with directories that user
 * could not use, and the log says what to do.
 */
static void
test_dev_dir_xdg(void **state)
{
	char d[32], xdg[PATH_MAX], expect[PATH_MAX + 64], log[4096];
	struct stat st;

	(void)state;
	if (geteuid() != 0)
		skip(); /* making another user's directory takes root */
	ct_domain(d, sizeof(d));
	snprintf(xdg, sizeof(xdg), "%s/xdg_ours", ct_dir());
	dev_dir_make(xdg, 0, 0700);
	assert_int_equal(dev_dir_child(0, xdg, dev_dir_open_default, d, log, sizeof(log)), 0);
	snprintf(expect, sizeof(expect), "%s/rte_comch/%s", xdg, d);
	assert_int_equal(lstat(expect, &st), 0);
	assert_true(S_ISDIR(st.st_mode));

	snprintf(xdg, sizeof(xdg), "%s/xdg_theirs", ct_dir());
	dev_dir_make(xdg, 65534, 0700);
	assert_int_equal(dev_dir_child(0, xdg, dev_dir_open_default, d, log, sizeof(log)), 1);
	snprintf(expect, sizeof(expect), "%s/rte_comch", xdg);
	assert_int_equal(lstat(expect, &st), -1); /* nothing made in it */
	assert_non_null(strstr(log, "belongs to another user"));
	assert_non_null(strstr(log, "set XDG_RUNTIME_DIR to such a directory, or unset it, or "
				    "pass devargs dir="));
	/* One that does not exist, or is open to others, is refused the same way. */
	snprintf(xdg, sizeof(xdg), "%s/xdg_missing", ct_dir());
	assert_int_equal(dev_dir_child(0, xdg, dev_dir_open_default, d, log, sizeof(log)), 1);
	assert_non_null(strstr(log, "No such file or directory"));
	snprintf(xdg, sizeof(xdg), "%s/xdg_open", ct_dir());
	dev_dir_make(xdg, 0, 0777);
	assert_int_equal(dev_dir_child(0, xdg, dev_dir_open_default, d, log, sizeof(log)), 1);
	assert_non_null(strstr(log, "is open to group or others"));
}

/*
 * Without dir= nor XDG_RUNTIME_DIR, nor /run/user/<uid>, the default is
 * /tmp/rte_comch-<uid>, which another user can make first: then the open
 * fails, and the log says what to do; setting XDG_RUNTIME_DIR does it. A
 * child of a uid of its own plays the user, so that the real default
 * directories are left alone.
 */
static void
test_dev_dir_default_taken(void **state)
{
	char d[32], tmp[64], run[64], xdg[PATH_MAX], log[4096];
	uid_t uid = 3000000 + (getpid() % 100000);
	struct stat st;

	(void)state;
	if (geteuid() != 0)
		skip(); /* playing two users takes root */
	ct_domain(d, sizeof(d));
	snprintf(run, sizeof(run), "/run/user/%u", (unsigned int)uid);
	assert_int_equal(lstat(run, &st), -1);
	snprintf(tmp, sizeof(tmp), "/tmp/rte_comch-%u", (unsigned int)uid);
	rmdir(tmp); /* left by an earlier run that failed, if any */
	dev_dir_make(tmp, 65534, 0700);
	assert_int_equal(dev_dir_child(uid, NULL, dev_dir_open_default, d, log, sizeof(log)), 1);
	assert_non_null(strstr(log, tmp));
	assert_non_null(strstr(log, "belongs to another user"));
	assert_non_null(strstr(log, "neither devargs dir= nor XDG_RUNTIME_DIR is set"));
	assert_non_null(strstr(log, "Set XDG_RUNTIME_DIR to a directory of uid"));
	/* The way out the log gives. */
	snprintf(xdg, sizeof(xdg), "%s/xdg_%u", ct_dir(), (unsigned int)uid);
	dev_dir_make(xdg, uid, 0700);
	assert_int_equal(chmod(ct_dir(), 0711), 0); /* the child must reach it */
	assert_int_equal(dev_dir_child(uid, xdg, dev_dir_open_default, d, log, sizeof(log)), 0);
	assert_int_equal(chmod(ct_dir(), 0700), 0);
	assert_int_equal(rmdir(tmp), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dev_open_bad_devargs),
		cmocka_unit_test(test_dev_open_missing_driver),
		cmocka_unit_test(test_dev_name_lengths),
		cmocka_unit_test(test_dev_open_close_info),
		cmocka_unit_test(test_dev_duplicate_name),
		cmocka_unit_test(test_dev_max_devs),
		cmocka_unit_test(test_dev_rep_list),
		cmocka_unit_test(test_dev_rep_open_close),
		cmocka_unit_test(test_dev_rep_busy_with_server),
		cmocka_unit_test(test_dev_stats_args),
		cmocka_unit_test(test_dev_budget_devargs),
		cmocka_unit_test(test_dev_dir_not_private),
		cmocka_unit_test(test_dev_default_dir),
		cmocka_unit_test(test_dev_list),
		cmocka_unit_test(test_dev_dir_xdg),
		cmocka_unit_test(test_dev_dir_default_taken),
	};

	return CT_RUN("comch_dev", tests);
}
