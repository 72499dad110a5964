/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * DOCA compatibility layer: the PCI-address mapping (doca_devmap.c), EAL
 * start-up (doca_eal.c), and two processes that find each other through the
 * mapping "*" (one device that answers to every PCI address).
 *
 * The layer loads the mapping and starts EAL once per process, so every case
 * runs in a forked child that sets its environment before its first DOCA call
 * and reports through its exit status; this process asserts it and never
 * calls DOCA or EAL itself.
 */

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_lcore.h>

#include "test_doca_compat.h"

/* What a child gets: a private shm directory and domain, and its case's strings. */
struct dt_map_arg {
	char dir[256];
	char domain[32];
	const char *devices;	/* RTE_COMCH_DOCA_DEVICES (NULL: unset) */
	const char *reps;	/* RTE_COMCH_DOCA_REPS (NULL: unset) */
	const char *config;	/* RTE_COMCH_DOCA_CONFIG (NULL: unset) */
	char eal_args[2048];	/* RTE_COMCH_DOCA_EAL_ARGS (empty: unset) */
	char prefix[64];	/* an EAL file prefix of the case's own */
	char name[64];		/* a server name */
	int ready_fd;		/* the server child says it listens */
	doca_error_t expect;
};

static void
dt_arg_init(struct dt_map_arg *a)
{
	memset(a, 0, sizeof(*a));
	dt_mkdtemp(a->dir, sizeof(a->dir));
	dt_unique(a->domain, sizeof(a->domain), "dm");
	dt_unique(a->prefix, sizeof(a->prefix), "dtm");
	a->ready_fd = -1;
}

static void
dt_arg_fini(struct dt_map_arg *a)
{
	char rundir[512];

	dt_rm_tree(a->dir);
	dt_eal_rundir(a->prefix, rundir, sizeof(rundir));
	dt_rm_tree(rundir);
}

/* In the child: its environment, before any DOCA call. */
static void
dt_arg_env(const struct dt_map_arg *a)
{
	dt_env_clear();
	if (a->devices != NULL)
		setenv("RTE_COMCH_DOCA_DEVICES", a->devices, 1);
	if (a->reps != NULL)
		setenv("RTE_COMCH_DOCA_REPS", a->reps, 1);
	if (a->config != NULL)
		setenv("RTE_COMCH_DOCA_CONFIG", a->config, 1);
	if (a->eal_args[0] != '\0')
		setenv("RTE_COMCH_DOCA_EAL_ARGS", a->eal_args, 1);
}

/* Run child(arg), clean up after it (a too, if not NULL), assert it exited 0. */
static void
dt_run_ok(const char *name, dt_child_fn_t fn, struct dt_map_arg *a)
{
	struct dt_child c;
	int st = dt_child_run(&c, name, fn, a);

	dt_child_done(&c);
	if (a != NULL)
		dt_arg_fini(a);
	assert_int_equal(st, 0);
}

/* The first CPU this process may run on: two lcores on it work on any machine. */
static int
dt_first_cpu(void)
{
	cpu_set_t set;
	int cpu;

	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
			if (CPU_ISSET(cpu, &set))
				return cpu;
	return 0;
}

static uint8_t
dt_dev_is(const struct doca_devinfo *di, const char *pci)
{
	uint8_t eq = 0xff;

	DT_OK(doca_devinfo_is_equal_pci_addr(di, pci, &eq));
	DT_ASSERT(eq == 0 || eq == 1);
	return eq;
}

static uint8_t
dt_rep_is(const struct doca_devinfo_rep *ri, const char *pci)
{
	uint8_t eq = 0xff;

	DT_OK(doca_devinfo_rep_is_equal_pci_addr(ri, pci, &eq));
	DT_ASSERT(eq == 0 || eq == 1);
	return eq;
}

/* --------------------------------------------------------------- mapping */

/*
 * No mapping: no device, as DOCA on a machine without a BlueField; every
 * call that lists devices says so, and the log says how to map one.
 */
static int
child_map_none(void *arg)
{
	struct doca_devinfo **list = NULL;
	uint32_t n = 0;

	(void)arg;
	dt_env_clear();
	DT_ERR(doca_devinfo_create_list(&list, &n), DOCA_ERROR_NOT_FOUND);
	DT_ERR(doca_devinfo_create_list(&list, &n), DOCA_ERROR_NOT_FOUND);
	return 0;
}

static void
test_map_none(void **state)
{
	struct dt_child c;
	int st;
	bool hint;

	(void)state;
	st = dt_child_run(&c, "map_none", child_map_none, NULL);
	hint = dt_child_log_has(&c, "RTE_COMCH_DOCA_DEVICES=\"*=shm:domain=doca\"");
	dt_child_done(&c);
	assert_int_equal(st, 0);
	assert_true(hint);
}

/* "*": one device, listed as "0000:03:00.0", that answers to any address. */
static int
child_map_any(void *arg)
{
	static const char * const bad[] = {
		"03:00", "zz:00.0", "0000:03:00.0x", "", "03:00.0 ", "3:0.0", "0000:03:00.0.1",
	};
	struct doca_devinfo **list = NULL;
	struct doca_devinfo_rep **rlist = NULL;
	struct doca_dev *dev = NULL;
	char pci[DOCA_DEVINFO_PCI_ADDR_SIZE], name[DOCA_DEVINFO_IBDEV_NAME_SIZE];
	enum doca_pci_func_type ft;
	uint32_t n = 0, i;
	uint8_t eq;

	dt_arg_env(arg);
	DT_OK(doca_devinfo_create_list(&list, &n));
	DT_EQ(n, 1);
	DT_ASSERT(list[1] == NULL);
	DT_OK(doca_devinfo_get_pci_addr_str(list[0], pci));
	DT_STREQ(pci, "0000:03:00.0");
	DT_EQ(dt_dev_is(list[0], "03:00.0"), 1);
	DT_EQ(dt_dev_is(list[0], "0000:03:00.0"), 1);
	DT_EQ(dt_dev_is(list[0], "0000:b1:00.0"), 1);
	DT_EQ(dt_dev_is(list[0], "b1:00.1"), 1);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		DT_ERR(doca_devinfo_is_equal_pci_addr(list[0], bad[i], &eq),
		       DOCA_ERROR_INVALID_VALUE);
	DT_OK(doca_devinfo_get_ibdev_name(list[0], name, sizeof(name)));
	DT_STREQ(name, "comch0");
	DT_OK(doca_devinfo_is_equal_ibdev_name(list[0], "comch0", &eq));
	DT_EQ(eq, 1);
	DT_OK(doca_devinfo_is_equal_ibdev_name(list[0], "comch1", &eq));
	DT_EQ(eq, 0);
	DT_OK(doca_devinfo_get_pci_func_type(list[0], &ft));
	DT_EQ(ft, DOCA_PCI_FUNC_TYPE_PF);
	DT_ERR(doca_devinfo_get_sf_index(list[0], &i), DOCA_ERROR_NOT_SUPPORTED);
	/* not pinned: either side */
	DT_OK(doca_comch_cap_server_is_supported(list[0]));
	DT_OK(doca_comch_cap_client_is_supported(list[0]));
	DT_OK(doca_comch_producer_cap_is_supported(list[0]));
	DT_OK(doca_comch_consumer_cap_is_supported(list[0]));
	/* its representors answer to any address too */
	DT_OK(doca_dev_open(list[0], &dev));
	DT_OK(doca_devinfo_destroy_list(list));
	DT_OK(doca_devinfo_rep_create_list(dev, DOCA_DEVINFO_REP_FILTER_ALL, &rlist, &n));
	DT_EQ(n, 1);
	DT_OK(doca_devinfo_rep_get_pci_addr_str(rlist[0], pci));
	DT_STREQ(pci, "0000:3b:00.0");
	DT_EQ(dt_rep_is(rlist[0], "3b:00.0"), 1);
	DT_EQ(dt_rep_is(rlist[0], "0000:11:22.3"), 1);
	DT_OK(doca_devinfo_rep_get_vuid(rlist[0], name, sizeof(name)));
	DT_STREQ(name, "pf0");
	DT_OK(doca_devinfo_rep_destroy_list(rlist));
	DT_OK(doca_dev_close(dev));
	return 0;
}

static void
test_map_any(void **state)
{
	struct dt_map_arg a;
	char devs[1024];

	(void)state;
	dt_arg_init(&a);
	snprintf(devs, sizeof(devs), "*=shm:domain=%s,dir=%s", a.domain, a.dir);
	a.devices = devs;
	dt_run_ok("map_any", child_map_any, &a);
}

/* Two entries, short and long forms, blanks around them; each answers to its own address. */
static int
child_map_two(void *arg)
{
	struct dt_map_arg *a = arg;
	struct doca_devinfo **list = NULL;
	struct doca_devinfo_rep **rlist = NULL;
	struct doca_comch_client *cli = NULL;
	struct doca_comch_server *srv = NULL;
	struct doca_dev *dpu = NULL, *host = NULL;
	struct doca_dev_rep *rep = NULL;
	char pci[DOCA_DEVINFO_PCI_ADDR_SIZE], name[DOCA_DEVINFO_IBDEV_NAME_SIZE];
	uint32_t n = 0;

	dt_arg_env(a);
	DT_OK(doca_devinfo_create_list(&list, &n));
	DT_EQ(n, 2);
	DT_OK(doca_devinfo_get_pci_addr_str(list[0], pci));
	DT_STREQ(pci, "0000:03:00.0");
	DT_OK(doca_devinfo_get_pci_addr_str(list[1], pci));
	DT_STREQ(pci, "0000:b1:00.1");
	DT_EQ(dt_dev_is(list[0], "03:00.0"), 1);
	DT_EQ(dt_dev_is(list[0], "0000:03:00.0"), 1);
	DT_EQ(dt_dev_is(list[0], "03:00.1"), 0);
	DT_EQ(dt_dev_is(list[0], "0001:03:00.0"), 0);
	DT_EQ(dt_dev_is(list[0], "b1:00.1"), 0);
	DT_EQ(dt_dev_is(list[1], "b1:00.1"), 1);
	DT_EQ(dt_dev_is(list[1], "0000:b1:00.1"), 1);
	DT_EQ(dt_dev_is(list[1], "b1:00.0"), 0);
	DT_EQ(dt_dev_is(list[1], "03:00.0"), 0);
	DT_OK(doca_devinfo_get_ibdev_name(list[1], name, sizeof(name)));
	DT_STREQ(name, "comch1");
	/* pinned: one side each */
	DT_OK(doca_comch_cap_server_is_supported(list[0]));
	DT_ERR(doca_comch_cap_client_is_supported(list[0]), DOCA_ERROR_NOT_SUPPORTED);
	DT_ERR(doca_comch_cap_server_is_supported(list[1]), DOCA_ERROR_NOT_SUPPORTED);
	DT_OK(doca_comch_cap_client_is_supported(list[1]));
	DT_OK(doca_dev_open(list[0], &dpu));
	DT_OK(doca_dev_open(list[1], &host));
	DT_OK(doca_devinfo_destroy_list(list));
	/* role=dpu: no client; role=host: no representors */
	DT_ERR(doca_comch_client_create(dpu, "x", &cli), DOCA_ERROR_NOT_PERMITTED);
	DT_ERR(doca_devinfo_rep_create_list(host, DOCA_DEVINFO_REP_FILTER_ALL, &rlist, &n),
	       DOCA_ERROR_NOT_PERMITTED);
	/* the BlueField side serves; not through another device's representor */
	DT_OK(doca_devinfo_rep_create_list(dpu, DOCA_DEVINFO_REP_FILTER_ALL, &rlist, &n));
	DT_EQ(n, 1);
	DT_OK(doca_dev_rep_open(rlist[0], &rep));
	DT_OK(doca_devinfo_rep_destroy_list(rlist));
	DT_ERR(doca_comch_server_create(host, rep, a->name, &srv), DOCA_ERROR_INVALID_VALUE);
	DT_OK(doca_comch_server_create(dpu, rep, a->name, &srv));
	DT_OK(doca_comch_client_create(host, a->name, &cli));
	DT_OK(doca_comch_client_destroy(cli));
	DT_OK(doca_comch_server_destroy(srv));
	DT_OK(doca_dev_rep_close(rep));
	DT_OK(doca_dev_close(host));
	DT_OK(doca_dev_close(dpu));
	return 0;
}

static void
test_map_env_two(void **state)
{
	struct dt_map_arg a;
	char devs[1024];

	(void)state;
	dt_arg_init(&a);
	dt_unique(a.name, sizeof(a.name), "srv");
	snprintf(devs, sizeof(devs),
		 " 03:00.0 = shm:domain=%s,role=dpu,dir=%s ;0000:b1:00.1=shm:domain=%s,role=host,"
		 "dir=%s;", a.domain, a.dir, a.domain, a.dir);
	a.devices = devs;
	/* the environment wins over a configuration file */
	a.config = "/nonexistent/rte_comch_doca.conf";
	dt_run_ok("map_env_two", child_map_two, &a);
}

/* A mapping that does not parse: every call that lists devices says so. */
static int
child_map_bad(void *arg)
{
	struct dt_map_arg *a = arg;
	struct doca_devinfo **list = NULL;
	struct doca_pe *pe = NULL;
	uint32_t n = 0;

	dt_arg_env(a);
	DT_ERR(doca_devinfo_create_list(&list, &n), a->expect);
	DT_ERR(doca_devinfo_create_list(&list, &n), a->expect);	/* loaded once */
	/* EAL is not the mapping's business */
	DT_OK(doca_pe_create(&pe));
	DT_OK(doca_pe_destroy(pe));
	return 0;
}

static void
dt_map_bad(const char *devices, const char *reps, doca_error_t expect)
{
	struct dt_map_arg a;
	struct dt_child c;
	int st;

	dt_arg_init(&a);
	a.devices = devices;
	a.reps = reps;
	a.expect = expect;
	st = dt_child_run(&c, "map_bad", child_map_bad, &a);
	if (st != 0)
		print_error("mapping DEVICES=\"%s\" REPS=\"%s\"\n", devices ? devices : "(unset)",
			    reps ? reps : "(unset)");
	dt_child_done(&c);
	dt_arg_fini(&a);
	assert_int_equal(st, 0);
}

static void
test_map_bad_entries(void **state)
{
	const doca_error_t inval = DOCA_ERROR_INVALID_VALUE;

	(void)state;
	/* no '=' */
	dt_map_bad("03:00.0", NULL, inval);
	dt_map_bad("04:00.0=shm:domain=x,role=host;03:00.0", NULL, inval);
	/* not a PCI address */
	dt_map_bad("zz:00.0=shm:domain=x,role=dpu", NULL, inval);
	dt_map_bad("03:00=shm:domain=x,role=dpu", NULL, inval);
	dt_map_bad("0000:03:00.0.1=shm:domain=x,role=dpu", NULL, inval);
	/* devargs without ':' (or none) */
	dt_map_bad("03:00.0=shm", NULL, inval);
	dt_map_bad("03:00.0=", NULL, inval);
	/* one address twice, in its two forms */
	dt_map_bad("03:00.0=shm:domain=a,role=dpu;0000:03:00.0=shm:domain=b,role=dpu", NULL,
		   inval);
	/* representor entries */
	dt_map_bad("03:00.0=shm:domain=x,role=dpu", "3b:00.0", inval);
	dt_map_bad("03:00.0=shm:domain=x,role=dpu", "3b:00.0=", inval);
	dt_map_bad("03:00.0=shm:domain=x,role=dpu", "xx=pf0", inval);
	dt_map_bad("03:00.0=shm:domain=x,role=dpu", "3b:00.0=pf0;3b:00.1=pf0", inval);
	/* "*" answers to every address: no other device beside it */
	dt_map_bad("*=shm:domain=x;04:00.0=shm:domain=y", NULL, inval);
	dt_map_bad("04:00.0=shm:domain=y;*=shm:domain=x", NULL, inval);
	dt_map_bad("*=shm:domain=x;*=shm:domain=y", NULL, inval);
	/* parses, but names no device */
	dt_map_bad("", NULL, DOCA_ERROR_NOT_FOUND);
	dt_map_bad(NULL, "3b:00.0=pf0", DOCA_ERROR_NOT_FOUND);
}

/* RTE_COMCH_DOCA_CONFIG: dev and rep lines, comments, blank lines. */
static int
child_map_config(void *arg)
{
	struct dt_map_arg *a = arg;
	struct doca_devinfo **list = NULL;
	struct doca_devinfo_rep **rlist = NULL;
	struct doca_dev_rep *rep = NULL;
	struct doca_dev *dev = NULL;
	char pci[DOCA_DEVINFO_PCI_ADDR_SIZE], vuid[DOCA_DEVINFO_REP_VUID_SIZE];
	uint32_t n = 0;

	dt_arg_env(a);
	DT_OK(doca_devinfo_create_list(&list, &n));
	DT_EQ(n, 2);
	DT_OK(doca_devinfo_get_pci_addr_str(list[0], pci));
	DT_STREQ(pci, "0000:03:00.0");
	DT_OK(doca_devinfo_get_pci_addr_str(list[1], pci));
	DT_STREQ(pci, "0000:04:00.0");
	DT_EQ(dt_dev_is(list[0], "03:00.0"), 1);
	DT_EQ(dt_dev_is(list[0], "04:00.0"), 0);
	DT_EQ(dt_dev_is(list[1], "04:00.0"), 1);
	DT_EQ(dt_dev_is(list[1], "0000:03:00.0"), 0);
	DT_ERR(doca_comch_cap_client_is_supported(list[0]), DOCA_ERROR_NOT_SUPPORTED);
	DT_OK(doca_comch_cap_client_is_supported(list[1]));
	DT_OK(doca_dev_open(list[0], &dev));
	DT_OK(doca_devinfo_destroy_list(list));
	DT_OK(doca_devinfo_rep_create_list(dev, DOCA_DEVINFO_REP_FILTER_ALL, &rlist, &n));
	DT_EQ(n, 1);
	DT_OK(doca_devinfo_rep_get_pci_addr_str(rlist[0], pci));
	DT_STREQ(pci, "0000:3b:00.2");
	DT_EQ(dt_rep_is(rlist[0], "3b:00.2"), 1);
	DT_EQ(dt_rep_is(rlist[0], "0000:3b:00.2"), 1);
	DT_EQ(dt_rep_is(rlist[0], "3b:00.3"), 0);
	DT_OK(doca_devinfo_rep_get_vuid(rlist[0], vuid, sizeof(vuid)));
	DT_STREQ(vuid, "pf0");
	DT_OK(doca_dev_rep_open(rlist[0], &rep));
	DT_OK(doca_devinfo_rep_destroy_list(rlist));
	/* an open representor keeps its information */
	DT_OK(doca_devinfo_rep_get_pci_addr_str(doca_dev_rep_as_devinfo(rep), pci));
	DT_STREQ(pci, "0000:3b:00.2");
	DT_OK(doca_dev_rep_close(rep));
	DT_OK(doca_dev_close(dev));
	return 0;
}

static void
test_map_config_file(void **state)
{
	struct dt_map_arg a;
	char path[512];
	FILE *f;

	(void)state;
	dt_arg_init(&a);
	snprintf(path, sizeof(path), "%s/rte_comch_doca.conf", a.dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "# the DOCA layer's devices\n"
		"dev 03:00.0 shm:domain=%s,role=dpu,dir=%s   # the BlueField side\n"
		"\n"
		"   \t\n"
		"\tdev 0000:04:00.0\tshm:domain=%s,role=host,dir=%s\n"
		"# rep 3b:00.9 pf9\n"
		"rep 3b:00.2 pf0 # the host's function\n", a.domain, a.dir, a.domain, a.dir);
	fclose(f);
	a.config = path;
	dt_run_ok("map_config", child_map_config, &a);
}

static void
dt_map_bad_file(const char *content, const char *path_override, doca_error_t expect)
{
	struct dt_map_arg a;
	struct dt_child c;
	char path[512];
	FILE *f;
	int st;

	dt_arg_init(&a);
	snprintf(path, sizeof(path), "%s/bad.conf", a.dir);
	if (content != NULL) {
		f = fopen(path, "w");
		assert_non_null(f);
		fputs(content, f);
		fclose(f);
	}
	a.config = path_override != NULL ? path_override : path;
	a.expect = expect;
	st = dt_child_run(&c, "map_bad_file", child_map_bad, &a);
	dt_child_done(&c);
	dt_arg_fini(&a);
	assert_int_equal(st, 0);
}

static void
test_map_config_bad(void **state)
{
	const doca_error_t inval = DOCA_ERROR_INVALID_VALUE;

	(void)state;
	dt_map_bad_file("dev 03:00.0\n", NULL, inval);
	dt_map_bad_file("device 03:00.0 shm:domain=x,role=dpu\n", NULL, inval);
	dt_map_bad_file("dev 03:00.0 shm:domain=x,role=dpu\nrep 3b:00.0\n", NULL, inval);
	dt_map_bad_file("dev zz:00.0 shm:domain=x,role=dpu\n", NULL, inval);
	dt_map_bad_file("# nothing but comments\n\n", NULL, DOCA_ERROR_NOT_FOUND);
	dt_map_bad_file(NULL, "/nonexistent/rte_comch_doca.conf", inval);
}

/* RTE_COMCH_DOCA_REPS: a representor with an address answers to it alone. */
static int
child_map_reps(void *arg)
{
	struct dt_map_arg *a = arg;
	struct doca_devinfo_rep **rlist = NULL;
	struct doca_devinfo_rep *pf0 = NULL, *pf1 = NULL;
	struct doca_dev *dev;
	char pci[DOCA_DEVINFO_PCI_ADDR_SIZE], vuid[DOCA_DEVINFO_REP_VUID_SIZE];
	uint32_t n = 0, i;

	dt_arg_env(a);
	dev = dt_dev_open("03:00.0");
	DT_OK(doca_devinfo_rep_create_list(dev, DOCA_DEVINFO_REP_FILTER_NET, &rlist, &n));
	DT_EQ(n, 2);
	DT_ASSERT(rlist[2] == NULL);
	for (i = 0; i < n; i++) {
		DT_OK(doca_devinfo_rep_get_vuid(rlist[i], vuid, sizeof(vuid)));
		if (strcmp(vuid, "pf0") == 0)
			pf0 = rlist[i];
		else if (strcmp(vuid, "pf1") == 0)
			pf1 = rlist[i];
	}
	DT_ASSERT(pf0 != NULL && pf1 != NULL);
	DT_OK(doca_devinfo_rep_get_pci_addr_str(pf0, pci));
	DT_STREQ(pci, "0000:3b:00.2");
	DT_EQ(dt_rep_is(pf0, "3b:00.2"), 1);
	DT_EQ(dt_rep_is(pf0, "0000:3b:00.2"), 1);
	DT_EQ(dt_rep_is(pf0, "3b:00.3"), 0);
	DT_EQ(dt_rep_is(pf0, "3b:00.0"), 0);
	/* pf1 has no entry: the placeholder address, and any address */
	DT_OK(doca_devinfo_rep_get_pci_addr_str(pf1, pci));
	DT_STREQ(pci, "0000:3b:00.0");
	DT_EQ(dt_rep_is(pf1, "3b:00.3"), 1);
	DT_OK(doca_devinfo_rep_destroy_list(rlist));
	/* no emulated functions here */
	DT_OK(doca_devinfo_rep_create_list(dev, DOCA_DEVINFO_REP_FILTER_EMULATED, &rlist, &n));
	DT_EQ(n, 0);
	DT_ASSERT(rlist[0] == NULL);
	DT_OK(doca_devinfo_rep_destroy_list(rlist));
	DT_OK(doca_dev_close(dev));
	return 0;
}

static void
test_map_reps_env(void **state)
{
	struct dt_map_arg a;
	char devs[1024];

	(void)state;
	dt_arg_init(&a);
	snprintf(devs, sizeof(devs), "03:00.0=shm:domain=%s,role=dpu,rep=pf0,rep=pf1,dir=%s",
		 a.domain, a.dir);
	a.devices = devs;
	a.reps = "3b:00.2=pf0";
	dt_run_ok("map_reps", child_map_reps, &a);
}

/* An unpinned device becomes the side the program uses, while nothing holds the other. */
static int
child_map_unpinned(void *arg)
{
	struct dt_map_arg *a = arg;
	struct doca_devinfo_rep **rlist = NULL;
	struct doca_comch_server *srv = NULL;
	struct doca_comch_client *cli = NULL;
	struct doca_dev_rep *rep = NULL;
	struct doca_devinfo *di;
	struct doca_dev *dev;
	uint8_t net = 0;
	uint32_t n = 0;

	dt_arg_env(a);
	dev = dt_dev_open("03:00.0");
	di = doca_dev_as_devinfo(dev);
	DT_OK(doca_comch_cap_server_is_supported(di));
	DT_OK(doca_comch_cap_client_is_supported(di));
	/* it may still become the BlueField side: representors can be listed */
	DT_ERR(doca_devinfo_rep_cap_is_filter_net_supported(NULL, &net), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_devinfo_rep_cap_is_filter_net_supported(di, NULL), DOCA_ERROR_INVALID_VALUE);
	DT_OK(doca_devinfo_rep_cap_is_filter_net_supported(di, &net));
	DT_EQ(net, 1);
	/* listing representors turns it to the BlueField side */
	DT_OK(doca_devinfo_rep_create_list(dev, DOCA_DEVINFO_REP_FILTER_ALL, &rlist, &n));
	DT_EQ(n, 1);
	DT_OK(doca_dev_rep_open(rlist[0], &rep));
	DT_OK(doca_devinfo_rep_destroy_list(rlist));
	DT_OK(doca_comch_cap_server_is_supported(di));
	DT_ERR(doca_comch_cap_client_is_supported(di), DOCA_ERROR_NOT_SUPPORTED);
	DT_ERR(doca_comch_client_create(dev, a->name, &cli), DOCA_ERROR_NOT_PERMITTED);
	DT_OK(doca_comch_server_create(dev, rep, a->name, &srv));
	DT_OK(doca_comch_server_destroy(srv));
	DT_OK(doca_dev_rep_close(rep));
	/* released: a client turns it to the host side, which refuses representors */
	DT_OK(doca_comch_cap_client_is_supported(di));
	DT_OK(doca_comch_client_create(dev, a->name, &cli));
	DT_ERR(doca_comch_cap_server_is_supported(di), DOCA_ERROR_NOT_SUPPORTED);
	DT_ERR(doca_devinfo_rep_create_list(dev, DOCA_DEVINFO_REP_FILTER_ALL, &rlist, &n),
	       DOCA_ERROR_NOT_PERMITTED);
	/* in use as the host side: the filter says so, as the list does */
	DT_OK(doca_devinfo_rep_cap_is_filter_net_supported(di, &net));
	DT_EQ(net, 0);
	DT_OK(doca_comch_client_destroy(cli));
	DT_OK(doca_dev_close(dev));
	return 0;
}

static void
test_map_unpinned(void **state)
{
	struct dt_map_arg a;
	char devs[1024];

	(void)state;
	dt_arg_init(&a);
	dt_unique(a.name, sizeof(a.name), "srv");
	snprintf(devs, sizeof(devs), "03:00.0=shm:domain=%s,dir=%s", a.domain, a.dir);
	a.devices = devs;
	dt_run_ok("map_unpinned", child_map_unpinned, &a);
}

/* A device pinned to the host side never lists representors. */
static int
child_map_pinned_host(void *arg)
{
	struct dt_map_arg *a = arg;
	struct doca_devinfo_rep **rlist = NULL;
	struct doca_dev *dev;
	uint8_t net = 1;
	uint32_t n = 0;

	dt_arg_env(a);
	dev = dt_dev_open("04:00.0");
	DT_ERR(doca_comch_cap_server_is_supported(doca_dev_as_devinfo(dev)),
	       DOCA_ERROR_NOT_SUPPORTED);
	DT_OK(doca_devinfo_rep_cap_is_filter_net_supported(doca_dev_as_devinfo(dev), &net));
	DT_EQ(net, 0);
	DT_ERR(doca_devinfo_rep_create_list(dev, DOCA_DEVINFO_REP_FILTER_ALL, &rlist, &n),
	       DOCA_ERROR_NOT_PERMITTED);
	DT_OK(doca_comch_cap_client_is_supported(doca_dev_as_devinfo(dev)));
	DT_OK(doca_dev_close(dev));
	return 0;
}

static void
test_map_pinned_host(void **state)
{
	struct dt_map_arg a;
	char devs[1024];

	(void)state;
	dt_arg_init(&a);
	snprintf(devs, sizeof(devs), "04:00.0=shm:domain=%s,role=host,dir=%s", a.domain, a.dir);
	a.devices = devs;
	dt_run_ok("map_pinned_host", child_map_pinned_host, &a);
}

/* ------------------------------------------------------------------- EAL */

static void *
dt_thread_pe(void *arg)
{
	struct doca_pe *pe = NULL;
	doca_error_t *r = arg;

	*r = doca_pe_create(&pe);
	if (*r == DOCA_SUCCESS) {
		if (rte_lcore_id() == LCORE_ID_ANY)
			*r = DOCA_ERROR_UNEXPECTED;
		doca_pe_progress(pe);
		if (doca_pe_destroy(pe) != DOCA_SUCCESS)
			*r = DOCA_ERROR_UNEXPECTED;
	}
	return NULL;
}

/* The defaults: no hugepages, no PCI, one lcore, the layer's own file prefix. */
static int
child_eal_default(void *arg)
{
	char prefix[64];
	struct doca_pe *pe = NULL;
	doca_error_t tr = DOCA_ERROR_UNKNOWN;
	pthread_t th;

	(void)arg;
	dt_env_clear();
	DT_OK(doca_pe_create(&pe));
	DT_EQ(rte_lcore_count(), 1);
	DT_EQ(rte_eal_has_hugepages(), 0);
	DT_EQ(rte_eal_has_pci(), 0);
	snprintf(prefix, sizeof(prefix), "/doca-%d", (int)getpid());
	DT_ASSERT(strstr(rte_eal_get_runtime_dir(), prefix) != NULL);
	/* a thread that is not an lcore gets an engine too */
	DT_EQ(pthread_create(&th, NULL, dt_thread_pe, &tr), 0);
	DT_EQ(pthread_join(th, NULL), 0);
	DT_ERR(tr, DOCA_SUCCESS);
	DT_OK(doca_pe_destroy(pe));
	return 0;
}

static void
test_eal_default(void **state)
{
	(void)state;
	dt_run_ok("eal_default", child_eal_default, NULL);
}

/* RTE_COMCH_DOCA_EAL_ARGS replaces the defaults. */
static int
child_eal_override(void *arg)
{
	struct dt_map_arg *a = arg;
	struct doca_pe *pe = NULL;

	dt_arg_env(a);
	DT_OK(doca_pe_create(&pe));
	DT_EQ(rte_lcore_count(), 2);
	DT_EQ(rte_eal_has_hugepages(), 0);
	DT_EQ(rte_eal_has_pci(), 0);
	DT_ASSERT(strstr(rte_eal_get_runtime_dir(), a->prefix) != NULL);
	DT_OK(doca_pe_destroy(pe));
	return 0;
}

static void
test_eal_override(void **state)
{
	struct dt_map_arg a;
	int cpu = dt_first_cpu();

	(void)state;
	dt_arg_init(&a);
	snprintf(a.eal_args, sizeof(a.eal_args),
		 "--lcores=0@%d,1@%d --no-huge -m 256 --no-pci --file-prefix=%s --no-telemetry",
		 cpu, cpu, a.prefix);
	dt_run_ok("eal_override", child_eal_override, &a);
}

/* EAL does not start: every call that needs it says DOCA_ERROR_INITIALIZATION. */
static int
child_eal_bad(void *arg)
{
	struct dt_map_arg *a = arg;
	struct doca_buf_inventory *inv = NULL;
	struct doca_devinfo **list = NULL;
	struct doca_mmap *mm = NULL;
	struct doca_pe *pe = NULL;
	uint32_t n;

	dt_arg_env(a);
	DT_ERR(doca_pe_create(&pe), DOCA_ERROR_INITIALIZATION);
	DT_ERR(doca_pe_create(&pe), DOCA_ERROR_INITIALIZATION);
	DT_ERR(doca_mmap_create(&mm), DOCA_ERROR_INITIALIZATION);
	DT_ERR(doca_buf_inventory_create(4, &inv), DOCA_ERROR_INITIALIZATION);
	DT_ERR(doca_devinfo_create_list(&list, &n), DOCA_ERROR_INITIALIZATION);
	return 0;
}

static void
dt_eal_bad(const char *args, const char *log_says)
{
	struct dt_map_arg a;
	struct dt_child c;
	bool says, names_var;
	int st;

	dt_arg_init(&a);
	snprintf(a.eal_args, sizeof(a.eal_args), "%s", args);
	st = dt_child_run(&c, "eal_bad", child_eal_bad, &a);
	says = dt_child_log_has(&c, log_says);
	names_var = dt_child_log_has(&c, "RTE_COMCH_DOCA_EAL_ARGS");
	dt_child_done(&c);
	dt_arg_fini(&a);
	assert_int_equal(st, 0);
	if (!says)
		fail_msg("the child's log does not say \"%s\"", log_says);
	assert_true(names_var);
}

static void
test_eal_bad_override(void **state)
{
	char many[1024] = "";
	char lng[1500];
	int i;

	(void)state;
	dt_eal_bad("--no-huge --no-pci --this-is-not-an-eal-option", "cannot start DPDK's EAL");
	for (i = 0; i < 70; i++)
		strcat(many, "--no-pci ");
	dt_eal_bad(many, "more than 64 arguments");
	memset(lng, 'x', sizeof(lng) - 1);
	lng[sizeof(lng) - 1] = '\0';
	memcpy(lng, "--no-huge ", 10);
	dt_eal_bad(lng, "is longer than");
}

/* The program started EAL itself: the layer uses that EAL. */
static int
child_eal_app(void *arg)
{
	struct dt_map_arg *a = arg;
	char lcores[64], prefix[128];
	char *argv[] = {
		(char *)"app", lcores, (char *)"--no-huge", (char *)"-m", (char *)"256",
		(char *)"--no-pci", prefix, (char *)"--no-telemetry", NULL,
	};
	struct doca_devinfo **list = NULL;
	struct doca_pe *pe = NULL;
	uint32_t n = 0;
	int cpu = dt_first_cpu();

	dt_arg_env(a);
	snprintf(lcores, sizeof(lcores), "--lcores=0@%d,1@%d", cpu, cpu);
	snprintf(prefix, sizeof(prefix), "--file-prefix=%s", a->prefix);
	DT_ASSERT(rte_eal_init(8, argv) >= 0);
	DT_OK(doca_pe_create(&pe));
	/* the program's EAL: two lcores, its prefix (the layer's would be one, doca-<pid>) */
	DT_EQ(rte_lcore_count(), 2);
	DT_ASSERT(strstr(rte_eal_get_runtime_dir(), a->prefix) != NULL);
	DT_OK(doca_devinfo_create_list(&list, &n));
	DT_EQ(n, 1);
	DT_OK(doca_devinfo_destroy_list(list));
	DT_OK(doca_pe_destroy(pe));
	rte_eal_cleanup();
	return 0;
}

static void
test_eal_app_started(void **state)
{
	struct dt_map_arg a;
	char devs[512];

	(void)state;
	dt_arg_init(&a);
	snprintf(devs, sizeof(devs), "03:00.0=shm:domain=%s,dir=%s", a.domain, a.dir);
	a.devices = devs;
	dt_run_ok("eal_app", child_eal_app, &a);
}

/* ------------------------------------------- two processes, mapping "*" */

#define DT_SERVER_ENV "DOCA_COMPAT_TEST_SERVER"
static const char dt_ping[] = "ping from the host";
static const char dt_pong[] = "pong from the BlueField";

/* The BlueField side, as a DOCA program: mapping "*", server named by DT_SERVER_ENV. */
static int
child_two_server(void *arg)
{
	struct dt_map_arg *a = arg;
	struct dt_pair p;
	struct doca_comch_task_send *task = NULL;
	struct doca_comch_connection *conn;
	doca_error_t r;

	memset(&p, 0, sizeof(p));
	dt_arg_env(a);
	setenv(DT_SERVER_ENV, a->name, 1);
	snprintf(p.name, sizeof(p.name), "%s", getenv(DT_SERVER_ENV));
	p.dpu = dt_dev_open("03:00.0");
	p.rep = dt_rep_open(p.dpu);
	DT_OK(doca_pe_create(&p.pe));
	dt_server_create(&p, 4);
	DT_OK(doca_ctx_start(p.srec.ctx));
	DT_EQ(write(a->ready_fd, "R", 1), 1);
	close(a->ready_fd);

	DT_ASSERT(dt_wait_count(p.pe, &p.srec.nb_recv, 1));
	DT_EQ(p.srec.nb_connect, 1);
	DT_EQ(p.srec.last_len, sizeof(dt_ping));
	DT_ASSERT(memcmp(p.srec.last_msg, dt_ping, sizeof(dt_ping)) == 0);
	conn = p.srec.last_recv_conn;
	DT_ASSERT(conn == p.srec.conn);
	DT_OK(doca_comch_server_task_send_alloc_init(p.server, conn, dt_pong, sizeof(dt_pong),
						     &task));
	DT_OK(doca_task_submit(doca_comch_task_send_as_task(task)));
	DT_ASSERT(dt_wait_count(p.pe, &p.srec.nb_send_ok, 1));
	DT_EQ(p.srec.nb_send_err, 0);
	/* the client leaves once it has the answer */
	DT_ASSERT(dt_wait_count(p.pe, &p.srec.nb_disconnect, 1));
	r = doca_ctx_stop(p.srec.ctx);
	DT_ASSERT(r == DOCA_SUCCESS || r == DOCA_ERROR_IN_PROGRESS);
	DT_ASSERT(dt_wait_state(p.pe, p.srec.ctx, DOCA_CTX_STATE_IDLE));
	DT_ASSERT(dt_pair_down(&p));
	return 0;
}

/* The host side, as a DOCA program: mapping "*", the server named by DT_SERVER_ENV. */
static int
child_two_client(void *arg)
{
	struct dt_map_arg *a = arg;
	struct dt_pair p;
	struct doca_comch_task_send *task = NULL;

	memset(&p, 0, sizeof(p));
	dt_arg_env(a);
	setenv(DT_SERVER_ENV, a->name, 1);
	snprintf(p.name, sizeof(p.name), "%s", getenv(DT_SERVER_ENV));
	p.host = dt_dev_open("b1:00.0");	/* any address names the "*" device */
	DT_OK(doca_pe_create(&p.pe));
	dt_client_create(&p, 4);
	DT_ERR(doca_ctx_start(p.crec.ctx), DOCA_ERROR_IN_PROGRESS);
	DT_ASSERT(dt_wait_state(p.pe, p.crec.ctx, DOCA_CTX_STATE_RUNNING));
	DT_OK(doca_comch_client_get_connection(p.client, &p.cconn));
	DT_OK(doca_comch_client_task_send_alloc_init(p.client, p.cconn, dt_ping, sizeof(dt_ping),
						     &task));
	DT_OK(doca_task_submit(doca_comch_task_send_as_task(task)));
	DT_ASSERT(dt_wait_count(p.pe, &p.crec.nb_send_ok, 1));
	DT_ASSERT(dt_wait_count(p.pe, &p.crec.nb_recv, 1));
	DT_EQ(p.crec.last_len, sizeof(dt_pong));
	DT_ASSERT(memcmp(p.crec.last_msg, dt_pong, sizeof(dt_pong)) == 0);
	DT_EQ(p.crec.nb_send_err, 0);
	DT_ASSERT(dt_pair_down(&p));
	return 0;
}

static void
test_two_processes_any(void **state)
{
	struct dt_child srv, cli;
	struct dt_map_arg a;
	struct pollfd pfd;
	char c = 0, devs[1024];
	int fds[2], sst, cst;

	(void)state;
	dt_arg_init(&a);
	snprintf(devs, sizeof(devs), "*=shm:domain=%s,dir=%s", a.domain, a.dir);
	a.devices = devs;
	dt_unique(a.name, sizeof(a.name), "doca-two-");
	assert_int_equal(pipe(fds), 0);
	a.ready_fd = fds[1];
	dt_child_start(&srv, "two_server", child_two_server, &a);
	close(fds[1]);
	pfd.fd = fds[0];
	pfd.events = POLLIN;
	if (poll(&pfd, 1, DT_CHILD_TIMEOUT_MS) != 1 || read(fds[0], &c, 1) != 1 || c != 'R') {
		close(fds[0]);
		dt_child_wait(&srv, 0);
		dt_child_done(&srv);
		dt_arg_fini(&a);
		fail_msg("the server process did not start");
	}
	close(fds[0]);
	dt_child_start(&cli, "two_client", child_two_client, &a);
	cst = dt_child_wait(&cli, DT_CHILD_TIMEOUT_MS);
	sst = dt_child_wait(&srv, DT_CHILD_TIMEOUT_MS);
	dt_child_done(&cli);
	dt_child_done(&srv);
	dt_arg_fini(&a);
	assert_int_equal(cst, 0);
	assert_int_equal(sst, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_map_none),
		cmocka_unit_test(test_map_any),
		cmocka_unit_test(test_map_env_two),
		cmocka_unit_test(test_map_bad_entries),
		cmocka_unit_test(test_map_config_file),
		cmocka_unit_test(test_map_config_bad),
		cmocka_unit_test(test_map_reps_env),
		cmocka_unit_test(test_map_unpinned),
		cmocka_unit_test(test_map_pinned_host),
		cmocka_unit_test(test_eal_default),
		cmocka_unit_test(test_eal_override),
		cmocka_unit_test(test_eal_bad_override),
		cmocka_unit_test(test_eal_app_started),
		cmocka_unit_test(test_two_processes_any),
	};

	return cmocka_run_group_tests_name("doca_compat_map", tests, NULL, NULL);
}
