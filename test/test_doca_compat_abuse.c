/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * DOCA compatibility layer: handles that are not what a call expects, for
 * every kind of object the layer makes itself (devices, representors, device
 * lists, mmaps, inventories, servers, clients, producers, consumers, legacy
 * endpoints, argp flags, log backends). Each kind is abused four ways:
 * - destroyed twice;
 * - used after its destroy by the calls that configure it or create on it;
 * - kept after its destroy while a new object of its kind was made, which
 *   malloc would place at the same address: the stale handle must be refused
 *   and the new object left whole (and, for mmaps, kept so long that its
 *   memory went back to malloc);
 * - given where another kind is expected (a doca_pe passed as a doca_mmap, a
 *   client as a server, a device as a representor, ...).
 * Every abuse must be answered DOCA_ERROR_INVALID_VALUE (NULL for calls that
 * return a pointer) with a log line naming the call, and leave the objects
 * involved working. Before the layer checked its handles, most of these
 * crashed, so each case runs in a forked child (dt_child_run()): a crash fails
 * the case, not the runner. A child ends with exit(), so that a coverage build
 * writes the counts of what it ran.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <doca_argp.h>
#include <doca_comm_channel.h>
#include <doca_log.h>

#include "test_doca_compat.h"

#define INVAL DOCA_ERROR_INVALID_VALUE
#define AB_MEM_LEN 8192

/* Memory for mmaps; the children are single-threaded and use it one at a time. */
static uint8_t ab_mem[AB_MEM_LEN] __attribute__((aligned(4096)));

/* ------------------------------------------------------------ the runner */

struct ab_case {
	const char *name;
	void (*fn)(void);
	const char *log;	/**< A line the abuse must have logged. */
};

static int
ab_child(void *arg)
{
	const struct ab_case *c = arg;

	c->fn();
	fflush(NULL);
	exit(0);
}

static void
ab_run(void **state)
{
	const struct ab_case *c = *state;
	struct dt_child ch;
	bool logged;
	int st;

	st = dt_child_run(&ch, c->name, ab_child, (void *)(uintptr_t)c);
	logged = dt_child_log_has(&ch, c->log);
	dt_child_done(&ch);
	if (st == 0 && !logged)
		print_error("the child did not log \"%s\"\n", c->log);
	assert_int_equal(st, 0);
	assert_true(logged);
}

/* ----------------------------------------------------------------- helpers */

static void
ab_free_cb(void *addr, size_t len, void *opaque)
{
	(void)addr;
	(void)len;
	(void)opaque;
}

static doca_error_t
ab_param_cb(void *param, void *config)
{
	(void)param;
	(void)config;
	return DOCA_SUCCESS;
}

/* An mmap of ab_mem (on dev, if not NULL), started. */
static struct doca_mmap *
ab_mmap(struct doca_dev *dev)
{
	struct doca_mmap *m = NULL;

	DT_OK(doca_mmap_create(&m));
	DT_OK(doca_mmap_set_memrange(m, ab_mem, sizeof(ab_mem)));
	DT_OK(doca_mmap_set_permissions(m, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE |
					DOCA_ACCESS_FLAG_PCI_READ_WRITE));
	if (dev != NULL)
		DT_OK(doca_mmap_add_dev(m, dev));
	DT_OK(doca_mmap_start(m));
	return m;
}

/* An mmap works: a buffer comes out of it and goes back. */
static void
ab_mmap_works(struct doca_mmap *m)
{
	struct doca_buf_inventory *inv;
	struct doca_buf *buf;

	DT_OK(doca_buf_inventory_create(2, &inv));
	DT_OK(doca_buf_inventory_start(inv));
	DT_OK(doca_buf_inventory_buf_get_by_data(inv, m, ab_mem, 64, &buf));
	DT_OK(doca_buf_dec_refcount(buf, NULL));
	DT_OK(doca_buf_inventory_stop(inv));
	DT_OK(doca_buf_inventory_destroy(inv));
}

/* A server is whole: configurable, and its context answers. */
static void
ab_server_works(struct doca_comch_server *s)
{
	uint32_t v = 0;

	DT_OK(doca_comch_server_set_max_msg_size(s, 1024));
	DT_OK(doca_comch_server_get_max_msg_size(s, &v));
	DT_EQ(v, 1024);
	DT_EQ(dt_state(doca_comch_server_as_ctx(s)), DOCA_CTX_STATE_IDLE);
}

static void
ab_client_works(struct doca_comch_client *c)
{
	uint32_t v = 0;

	DT_OK(doca_comch_client_set_max_msg_size(c, 1024));
	DT_OK(doca_comch_client_get_max_msg_size(c, &v));
	DT_EQ(v, 1024);
	DT_EQ(dt_state(doca_comch_client_as_ctx(c)), DOCA_CTX_STATE_IDLE);
}

static struct doca_comch_server *
ab_server(struct dt_pair *p)
{
	struct doca_comch_server *s = NULL;
	char name[64];

	dt_unique(name, sizeof(name), "ab");
	DT_OK(doca_comch_server_create(p->dpu, p->rep, name, &s));
	return s;
}

static struct doca_comch_client *
ab_client(struct dt_pair *p)
{
	struct doca_comch_client *c = NULL;

	DT_OK(doca_comch_client_create(p->host, "nobody", &c));
	return c;
}

/* The engine of a pair still works after the abuse. */
static void
ab_pe_works(struct doca_pe *pe)
{
	size_t n = 1;

	DT_OK(doca_pe_get_num_inflight_tasks(pe, &n));
	DT_EQ(n, 0);
	doca_pe_progress(pe);
}

/* ------------------------------------------------------------------ mmaps */

static void
mmap_double_destroy(void)
{
	struct doca_mmap *m;

	DT_OK(doca_mmap_create(&m));
	DT_OK(doca_mmap_set_memrange(m, ab_mem, sizeof(ab_mem)));
	DT_OK(doca_mmap_start(m));
	DT_OK(doca_mmap_destroy(m));
	DT_ERR(doca_mmap_destroy(m), INVAL);
}

static void
mmap_after_destroy(void)
{
	struct doca_dev *dev = dt_dev_open("04:00.0");
	struct doca_comch_consumer *c = NULL;
	struct dt_pair p = { 0 };
	struct doca_mmap *m;
	void *addr;
	size_t len;

	DT_OK(doca_mmap_create(&m));
	DT_OK(doca_mmap_destroy(m));
	DT_ERR(doca_mmap_set_memrange(m, ab_mem, sizeof(ab_mem)), INVAL);
	DT_ERR(doca_mmap_set_permissions(m, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE), INVAL);
	DT_ERR(doca_mmap_set_max_num_devices(m, 1), INVAL);
	DT_ERR(doca_mmap_set_free_cb(m, ab_free_cb, NULL), INVAL);
	DT_ERR(doca_mmap_add_dev(m, dev), INVAL);
	DT_ERR(doca_mmap_start(m), INVAL);
	DT_ERR(doca_mmap_stop(m), INVAL);
	DT_ERR(doca_mmap_get_memrange(m, &addr, &len), INVAL);
	/* the dead mmap holds no device */
	DT_OK(doca_dev_close(dev));

	/* a consumer on a destroyed mmap */
	dt_pair_up(&p);
	DT_ERR(doca_comch_consumer_create(p.cconn, m, &c), INVAL);
	DT_ASSERT(c == NULL);
	DT_ASSERT(dt_pair_down(&p));
}

static void
mmap_stale_after_reuse(void)
{
	struct doca_mmap *a, *b;

	DT_OK(doca_mmap_create(&a));
	DT_OK(doca_mmap_destroy(a));
	DT_OK(doca_mmap_create(&b));
	DT_ERR(doca_mmap_destroy(a), INVAL);
	DT_ERR(doca_mmap_set_free_cb(a, ab_free_cb, NULL), INVAL);
	DT_ERR(doca_mmap_start(a), INVAL);
	/* b is whole: configured, started, used, destroyed once */
	DT_OK(doca_mmap_set_memrange(b, ab_mem, sizeof(ab_mem)));
	DT_OK(doca_mmap_start(b));
	ab_mmap_works(b);
	DT_OK(doca_mmap_destroy(b));
	DT_ERR(doca_mmap_destroy(b), INVAL);
}

/*
 * Long after: so many objects were destroyed since that the stale mmap's memory
 * left the quarantine, back to malloc. The calls that ask the registry still
 * refuse it without reading that memory (ASan would report a read).
 */
static void
mmap_stale_after_quarantine(void)
{
	struct doca_argp_param *p;
	struct doca_mmap *a;
	unsigned int i;

	DT_OK(doca_mmap_create(&a));
	DT_OK(doca_mmap_destroy(a));
	/* objects of another kind: one may take a's address, none is an mmap */
	for (i = 0; i < 2 * 1024; i++) {
		DT_OK(doca_argp_param_create(&p));
		DT_OK(doca_argp_param_destroy(p));
	}
	DT_ERR(doca_mmap_destroy(a), INVAL);
	DT_ERR(doca_mmap_start(a), INVAL);
	DT_ERR(doca_mmap_set_memrange(a, ab_mem, sizeof(ab_mem)), INVAL);
}

static void
mmap_foreign(void)
{
	struct doca_dev *dev = dt_dev_open("04:00.0");
	struct doca_buf_inventory *inv;
	struct doca_mmap *m = ab_mmap(NULL);
	struct doca_buf *buf = NULL;
	struct doca_pe *pe;

	DT_OK(doca_pe_create(&pe));
	DT_OK(doca_buf_inventory_create(2, &inv));
	DT_OK(doca_buf_inventory_start(inv));
	/* an engine as an mmap: its magic word must not be read as a pointer */
	DT_ERR(doca_mmap_start((struct doca_mmap *)pe), INVAL);
	DT_ERR(doca_mmap_stop((struct doca_mmap *)pe), INVAL);
	DT_ERR(doca_mmap_set_free_cb((struct doca_mmap *)pe, ab_free_cb, NULL), INVAL);
	DT_ERR(doca_mmap_set_max_num_devices((struct doca_mmap *)pe, 1), INVAL);
	DT_ERR(doca_mmap_add_dev((struct doca_mmap *)pe, dev), INVAL);
	DT_ERR(doca_mmap_destroy((struct doca_mmap *)pe), INVAL);
	/* an inventory, a device as an mmap */
	DT_ERR(doca_mmap_set_memrange((struct doca_mmap *)inv, ab_mem, 64), INVAL);
	DT_ERR(doca_mmap_destroy((struct doca_mmap *)inv), INVAL);
	DT_ERR(doca_mmap_destroy((struct doca_mmap *)dev), INVAL);
	DT_ERR(doca_buf_inventory_buf_get_by_data(inv, (struct doca_mmap *)pe, ab_mem, 64, &buf),
	       INVAL);
	DT_ERR(doca_buf_inventory_buf_get_by_data(inv, (struct doca_mmap *)inv, ab_mem, 64, &buf),
	       INVAL);
	DT_ASSERT(buf == NULL);
	/* a live mmap given an engine as its device */
	DT_ERR(doca_mmap_add_dev(m, (struct doca_dev *)pe), INVAL);
	DT_ERR(doca_mmap_add_dev(m, (struct doca_dev *)m), INVAL);
	/* all of them whole */
	ab_pe_works(pe);
	ab_mmap_works(m);
	DT_OK(doca_mmap_destroy(m));
	DT_OK(doca_buf_inventory_stop(inv));
	DT_OK(doca_buf_inventory_destroy(inv));
	DT_OK(doca_pe_destroy(pe));
	DT_OK(doca_dev_close(dev));
}

/* ------------------------------------------------------------- inventories */

static void
inventory_double_destroy(void)
{
	struct doca_buf_inventory *inv;

	DT_OK(doca_buf_inventory_create(4, &inv));
	DT_OK(doca_buf_inventory_destroy(inv));
	DT_ERR(doca_buf_inventory_destroy(inv), INVAL);
}

static void
inventory_after_destroy(void)
{
	struct doca_buf_inventory *inv;
	struct doca_mmap *m = ab_mmap(NULL);
	struct doca_buf *buf = NULL;
	uint32_t n;

	DT_OK(doca_buf_inventory_create(4, &inv));
	DT_OK(doca_buf_inventory_start(inv));
	DT_OK(doca_buf_inventory_stop(inv));
	DT_OK(doca_buf_inventory_destroy(inv));
	DT_ERR(doca_buf_inventory_start(inv), INVAL);
	DT_ERR(doca_buf_inventory_stop(inv), INVAL);
	DT_ERR(doca_buf_inventory_get_num_elements(inv, &n), INVAL);
	DT_ERR(doca_buf_inventory_get_num_free_elements(inv, &n), INVAL);
	DT_ERR(doca_buf_inventory_buf_get_by_addr(inv, m, ab_mem, 64, &buf), INVAL);
	DT_ERR(doca_buf_inventory_buf_get_by_data(inv, m, ab_mem, 64, &buf), INVAL);
	DT_ASSERT(buf == NULL);
	ab_mmap_works(m);
	DT_OK(doca_mmap_destroy(m));
}

static void
inventory_stale_after_reuse(void)
{
	struct doca_buf_inventory *a, *b;
	struct doca_mmap *m = ab_mmap(NULL);
	struct doca_buf *buf;
	uint32_t n = 0;

	DT_OK(doca_buf_inventory_create(4, &a));
	DT_OK(doca_buf_inventory_destroy(a));
	DT_OK(doca_buf_inventory_create(4, &b));
	DT_ERR(doca_buf_inventory_start(a), INVAL);
	DT_ERR(doca_buf_inventory_destroy(a), INVAL);
	/* b is whole */
	DT_OK(doca_buf_inventory_start(b));
	DT_OK(doca_buf_inventory_buf_get_by_addr(b, m, ab_mem, 64, &buf));
	DT_OK(doca_buf_inventory_get_num_free_elements(b, &n));
	DT_EQ(n, 3);
	DT_OK(doca_buf_dec_refcount(buf, NULL));
	DT_OK(doca_buf_inventory_destroy(b));
	DT_OK(doca_mmap_destroy(m));
}

static void
inventory_foreign(void)
{
	struct doca_buf_inventory *inv;
	struct doca_mmap *m = ab_mmap(NULL);
	struct doca_buf *buf = NULL;
	struct doca_pe *pe;
	uint32_t n = 0;

	DT_OK(doca_pe_create(&pe));
	DT_OK(doca_buf_inventory_create(4, &inv));
	/* an mmap as an inventory */
	DT_ERR(doca_buf_inventory_start((struct doca_buf_inventory *)m), INVAL);
	DT_ERR(doca_buf_inventory_stop((struct doca_buf_inventory *)m), INVAL);
	DT_ERR(doca_buf_inventory_get_num_elements((struct doca_buf_inventory *)m, &n), INVAL);
	DT_ERR(doca_buf_inventory_destroy((struct doca_buf_inventory *)m), INVAL);
	DT_ERR(doca_buf_inventory_buf_get_by_addr((struct doca_buf_inventory *)m, m, ab_mem, 64,
						  &buf), INVAL);
	/* an engine as an inventory */
	DT_ERR(doca_buf_inventory_start((struct doca_buf_inventory *)pe), INVAL);
	DT_ERR(doca_buf_inventory_get_num_free_elements((struct doca_buf_inventory *)pe, &n),
	       INVAL);
	DT_ERR(doca_buf_inventory_destroy((struct doca_buf_inventory *)pe), INVAL);
	DT_ASSERT(buf == NULL);
	/* whole */
	ab_pe_works(pe);
	ab_mmap_works(m);
	DT_OK(doca_buf_inventory_get_num_elements(inv, &n));
	DT_EQ(n, 4);
	DT_OK(doca_buf_inventory_destroy(inv));
	DT_OK(doca_mmap_destroy(m));
	DT_OK(doca_pe_destroy(pe));
}

/* ----------------------------------------------------------------- devices */

static void
dev_double_close(void)
{
	struct doca_dev *d = dt_dev_open("04:00.0");

	DT_OK(doca_dev_close(d));
	DT_ERR(doca_dev_close(d), INVAL);
	/* the device's state is intact: it opens and closes again */
	d = dt_dev_open("04:00.0");
	DT_OK(doca_dev_close(d));
}

static void
dev_after_close(void)
{
	struct doca_comm_channel_ep_t *ep;
	struct doca_devinfo_rep **reps = NULL;
	struct doca_dev *dpu = dt_dev_open("03:00.0");
	struct doca_dev *d = dt_dev_open("04:00.0");
	struct doca_dev_rep *rep = dt_rep_open(dpu);
	struct doca_comch_server *s = NULL;
	struct doca_comch_client *c = NULL;
	struct doca_comm_channel_addr_t *peer = NULL;
	struct doca_mmap *m;
	uint32_t n;

	DT_OK(doca_comm_channel_ep_create(&ep));
	DT_OK(doca_comm_channel_ep_set_device(ep, d));
	DT_OK(doca_dev_close(d));
	DT_ASSERT(doca_dev_as_devinfo(d) == NULL);
	DT_ERR(doca_devinfo_rep_create_list(d, DOCA_DEVINFO_REP_FILTER_NET, &reps, &n), INVAL);
	DT_ERR(doca_comch_client_create(d, "nobody", &c), INVAL);
	DT_ASSERT(c == NULL);
	DT_OK(doca_mmap_create(&m));
	DT_ERR(doca_mmap_add_dev(m, d), INVAL);
	DT_OK(doca_mmap_destroy(m));
	/* an endpoint given the device before it was closed */
	DT_ERR(doca_comm_channel_ep_connect(ep, "nobody", &peer), INVAL);
	DT_ERR(doca_comm_channel_ep_set_device(ep, d), INVAL);
	DT_OK(doca_comm_channel_ep_destroy(ep));
	/* the representor's own device handle is not the closed one */
	DT_OK(doca_dev_close(dpu));
	DT_ERR(doca_comch_server_create(dpu, rep, "x", &s), INVAL);
	DT_ASSERT(s == NULL);
	DT_OK(doca_dev_rep_close(rep));
}

static void
dev_stale_after_reuse(void)
{
	struct doca_comch_client *c;
	struct doca_dev *a, *b;

	a = dt_dev_open("04:00.0");
	DT_OK(doca_dev_close(a));
	b = dt_dev_open("04:00.0");
	DT_ERR(doca_dev_close(a), INVAL);
	DT_ASSERT(doca_dev_as_devinfo(a) == NULL);
	/* b is whole: it serves a client, then closes once */
	DT_OK(doca_comch_client_create(b, "nobody", &c));
	DT_ERR(doca_dev_close(b), DOCA_ERROR_IN_USE);
	DT_OK(doca_comch_client_destroy(c));
	DT_OK(doca_dev_close(b));
	DT_ERR(doca_dev_close(b), INVAL);
}

static void
dev_foreign(void)
{
	struct doca_dev *dpu = dt_dev_open("03:00.0");
	struct doca_dev_rep *rep = dt_rep_open(dpu);
	struct doca_devinfo_rep **reps = NULL;
	struct doca_comch_client *c = NULL;
	struct doca_mmap *m = ab_mmap(NULL);
	struct doca_pe *pe;
	uint32_t n;

	DT_OK(doca_pe_create(&pe));
	/* a representor, an mmap, an engine, a devinfo as a device */
	DT_ERR(doca_dev_close((struct doca_dev *)rep), INVAL);
	DT_ERR(doca_dev_close((struct doca_dev *)m), INVAL);
	DT_ERR(doca_dev_close((struct doca_dev *)pe), INVAL);
	DT_ERR(doca_dev_close((struct doca_dev *)doca_dev_as_devinfo(dpu)), INVAL);
	DT_ASSERT(doca_dev_as_devinfo((struct doca_dev *)rep) == NULL);
	DT_ASSERT(doca_dev_as_devinfo((struct doca_dev *)pe) == NULL);
	DT_ERR(doca_comch_client_create((struct doca_dev *)rep, "nobody", &c), INVAL);
	DT_ERR(doca_comch_client_create((struct doca_dev *)pe, "nobody", &c), INVAL);
	DT_ASSERT(c == NULL);
	DT_ERR(doca_devinfo_rep_create_list((struct doca_dev *)m, DOCA_DEVINFO_REP_FILTER_NET,
					    &reps, &n), INVAL);
	DT_ASSERT(reps == NULL);
	/* whole */
	ab_pe_works(pe);
	ab_mmap_works(m);
	DT_OK(doca_mmap_destroy(m));
	DT_OK(doca_pe_destroy(pe));
	DT_OK(doca_dev_rep_close(rep));
	DT_OK(doca_dev_close(dpu));
}

/* ------------------------------------------------------------ representors */

static void
rep_double_close(void)
{
	struct doca_dev *dpu = dt_dev_open("03:00.0");
	struct doca_dev_rep *rep = dt_rep_open(dpu);

	DT_OK(doca_dev_rep_close(rep));
	DT_ERR(doca_dev_rep_close(rep), INVAL);
	DT_OK(doca_dev_close(dpu));
}

static void
rep_after_close(void)
{
	struct doca_dev *dpu = dt_dev_open("03:00.0");
	struct doca_dev_rep *rep = dt_rep_open(dpu);
	struct doca_comm_channel_ep_t *ep;
	struct doca_devinfo_rep *info = doca_dev_rep_as_devinfo(rep);
	struct doca_comch_server *s = NULL;
	char pci[DOCA_DEVINFO_REP_PCI_ADDR_SIZE];

	DT_ASSERT(info != NULL);
	DT_OK(doca_comm_channel_ep_create(&ep));
	DT_OK(doca_comm_channel_ep_set_device(ep, dpu));
	DT_OK(doca_comm_channel_ep_set_device_rep(ep, rep));
	DT_OK(doca_dev_rep_close(rep));
	DT_ASSERT(doca_dev_rep_as_devinfo(rep) == NULL);
	DT_ERR(doca_comch_server_create(dpu, rep, "x", &s), INVAL);
	DT_ASSERT(s == NULL);
	/* the representor's devinfo went with it */
	DT_ERR(doca_devinfo_rep_get_pci_addr_str(info, pci), INVAL);
	DT_ERR(doca_dev_rep_open(info, &rep), INVAL);
	/* an endpoint given the representor before it was closed */
	DT_ERR(doca_comm_channel_ep_listen(ep, "x"), INVAL);
	DT_ERR(doca_comm_channel_ep_set_device_rep(ep, rep), INVAL);
	DT_OK(doca_comm_channel_ep_destroy(ep));
	DT_OK(doca_dev_close(dpu));
}

static void
rep_stale_after_reuse(void)
{
	struct doca_dev *dpu = dt_dev_open("03:00.0");
	struct doca_dev_rep *a = dt_rep_open(dpu), *b;
	struct doca_comch_server *s;
	char name[64];

	DT_OK(doca_dev_rep_close(a));
	b = dt_rep_open(dpu);
	DT_ERR(doca_dev_rep_close(a), INVAL);
	DT_ASSERT(doca_dev_rep_as_devinfo(a) == NULL);
	/* b is whole: a server runs on it, then it closes once */
	dt_unique(name, sizeof(name), "ab");
	DT_OK(doca_comch_server_create(dpu, b, name, &s));
	DT_OK(doca_comch_server_destroy(s));
	DT_OK(doca_dev_rep_close(b));
	DT_ERR(doca_dev_rep_close(b), INVAL);
	DT_OK(doca_dev_close(dpu));
}

static void
rep_foreign(void)
{
	struct doca_dev *dpu = dt_dev_open("03:00.0");
	struct doca_dev_rep *rep = dt_rep_open(dpu);
	struct doca_comm_channel_ep_t *ep;
	struct doca_comch_server *s = NULL;
	struct doca_mmap *m = ab_mmap(NULL);
	char name[64];

	DT_OK(doca_comm_channel_ep_create(&ep));
	/* a device, an mmap as a representor */
	DT_ERR(doca_dev_rep_close((struct doca_dev_rep *)dpu), INVAL);
	DT_ERR(doca_dev_rep_close((struct doca_dev_rep *)m), INVAL);
	DT_ASSERT(doca_dev_rep_as_devinfo((struct doca_dev_rep *)dpu) == NULL);
	DT_ERR(doca_comch_server_create(dpu, (struct doca_dev_rep *)dpu, "x", &s), INVAL);
	DT_ERR(doca_comch_server_create((struct doca_dev *)rep, rep, "x", &s), INVAL);
	DT_ASSERT(s == NULL);
	DT_ERR(doca_comm_channel_ep_set_device_rep(ep, (struct doca_dev_rep *)dpu), INVAL);
	DT_ERR(doca_comm_channel_ep_set_device(ep, (struct doca_dev *)rep), INVAL);
	/* whole */
	dt_unique(name, sizeof(name), "ab");
	DT_OK(doca_comch_server_create(dpu, rep, name, &s));
	DT_OK(doca_comch_server_destroy(s));
	DT_OK(doca_comm_channel_ep_destroy(ep));
	ab_mmap_works(m);
	DT_OK(doca_mmap_destroy(m));
	DT_OK(doca_dev_rep_close(rep));
	DT_OK(doca_dev_close(dpu));
}

/* ------------------------------------------------------------ device lists */

static void
devlist_double_destroy(void)
{
	struct doca_dev *dpu = dt_dev_open("03:00.0");
	struct doca_devinfo_rep **reps;
	struct doca_devinfo **list;
	uint32_t n;

	DT_OK(doca_devinfo_create_list(&list, &n));
	DT_OK(doca_devinfo_destroy_list(list));
	DT_ERR(doca_devinfo_destroy_list(list), INVAL);
	DT_OK(doca_devinfo_rep_create_list(dpu, DOCA_DEVINFO_REP_FILTER_NET, &reps, &n));
	DT_OK(doca_devinfo_rep_destroy_list(reps));
	DT_ERR(doca_devinfo_rep_destroy_list(reps), INVAL);
	DT_OK(doca_dev_close(dpu));
}

static void
devlist_after_destroy(void)
{
	struct doca_dev *dpu = dt_dev_open("03:00.0");
	char pci[DOCA_DEVINFO_REP_PCI_ADDR_SIZE], vuid[64];
	struct doca_devinfo_rep **reps, *stale;
	struct doca_dev_rep *rep = NULL;
	uint8_t eq;
	uint32_t n;

	/* a representor's devinfo lives in its list, and goes with it */
	DT_OK(doca_devinfo_rep_create_list(dpu, DOCA_DEVINFO_REP_FILTER_NET, &reps, &n));
	DT_ASSERT(n >= 1);
	stale = reps[0];
	DT_OK(doca_devinfo_rep_destroy_list(reps));
	DT_ERR(doca_dev_rep_open(stale, &rep), INVAL);
	DT_ASSERT(rep == NULL);
	DT_ERR(doca_devinfo_rep_get_pci_addr_str(stale, pci), INVAL);
	DT_ERR(doca_devinfo_rep_get_vuid(stale, vuid, sizeof(vuid)), INVAL);
	DT_ERR(doca_devinfo_rep_is_equal_pci_addr(stale, "03:00.0", &eq), INVAL);
	DT_OK(doca_dev_close(dpu));
}

static void
devlist_stale_after_reuse(void)
{
	struct doca_dev *dpu = dt_dev_open("03:00.0");
	struct doca_devinfo_rep **ra, **rb;
	struct doca_devinfo **a, **b;
	struct doca_dev *d;
	uint32_t n;

	DT_OK(doca_devinfo_create_list(&a, &n));
	DT_OK(doca_devinfo_destroy_list(a));
	DT_OK(doca_devinfo_create_list(&b, &n));
	DT_ERR(doca_devinfo_destroy_list(a), INVAL);
	/* b is whole */
	DT_OK(doca_dev_open(b[0], &d));
	DT_OK(doca_dev_close(d));
	DT_OK(doca_devinfo_destroy_list(b));

	DT_OK(doca_devinfo_rep_create_list(dpu, DOCA_DEVINFO_REP_FILTER_NET, &ra, &n));
	DT_OK(doca_devinfo_rep_destroy_list(ra));
	DT_OK(doca_devinfo_rep_create_list(dpu, DOCA_DEVINFO_REP_FILTER_NET, &rb, &n));
	DT_ERR(doca_devinfo_rep_destroy_list(ra), INVAL);
	{
		struct doca_dev_rep *rep;

		DT_OK(doca_dev_rep_open(rb[0], &rep));
		DT_OK(doca_dev_rep_close(rep));
	}
	DT_OK(doca_devinfo_rep_destroy_list(rb));
	DT_OK(doca_dev_close(dpu));
}

static void
devlist_foreign(void)
{
	struct doca_dev *dpu = dt_dev_open("03:00.0");
	struct doca_devinfo_rep **reps;
	struct doca_devinfo **list;
	struct doca_dev *d = NULL;
	struct doca_dev_rep *rep = NULL;
	struct doca_pe *pe;
	char pci[DOCA_DEVINFO_PCI_ADDR_SIZE];
	uint32_t n, nreps, v;

	DT_OK(doca_pe_create(&pe));
	DT_OK(doca_devinfo_create_list(&list, &n));
	DT_ASSERT(n >= 2);
	DT_OK(doca_devinfo_rep_create_list(dpu, DOCA_DEVINFO_REP_FILTER_NET, &reps, &nreps));
	DT_ASSERT(nreps >= 1);
	/* one kind of list for the other, the inside of a list, memory that is none */
	DT_ERR(doca_devinfo_destroy_list((struct doca_devinfo **)reps), INVAL);
	DT_ERR(doca_devinfo_rep_destroy_list((struct doca_devinfo_rep **)list), INVAL);
	DT_ERR(doca_devinfo_destroy_list(&list[1]), INVAL);
	DT_ERR(doca_devinfo_destroy_list((struct doca_devinfo **)&n), INVAL);
	DT_ERR(doca_devinfo_rep_destroy_list((struct doca_devinfo_rep **)reps[0]), INVAL);
	/* a device, an engine, a representor's devinfo as a devinfo */
	DT_ERR(doca_dev_open((struct doca_devinfo *)dpu, &d), INVAL);
	DT_ERR(doca_dev_open((struct doca_devinfo *)reps[0], &d), INVAL);
	DT_ASSERT(d == NULL);
	DT_ERR(doca_devinfo_get_pci_addr_str((struct doca_devinfo *)pe, pci), INVAL);
	DT_ERR(doca_comch_cap_get_max_msg_size((struct doca_devinfo *)pe, &v), INVAL);
	DT_ERR(doca_comch_cap_server_is_supported((struct doca_devinfo *)dpu), INVAL);
	/* a devinfo, a device as a representor's devinfo */
	DT_ERR(doca_dev_rep_open((struct doca_devinfo_rep *)list[0], &rep), INVAL);
	DT_ERR(doca_dev_rep_open((struct doca_devinfo_rep *)dpu, &rep), INVAL);
	DT_ERR(doca_devinfo_rep_get_pci_addr_str((struct doca_devinfo_rep *)pe, pci), INVAL);
	DT_ASSERT(rep == NULL);
	/* whole */
	DT_OK(doca_devinfo_get_pci_addr_str(list[0], pci));
	DT_OK(doca_dev_rep_open(reps[0], &rep));
	DT_OK(doca_dev_rep_close(rep));
	DT_OK(doca_devinfo_rep_destroy_list(reps));
	DT_OK(doca_devinfo_destroy_list(list));
	ab_pe_works(pe);
	DT_OK(doca_pe_destroy(pe));
	DT_OK(doca_dev_close(dpu));
}

/* ----------------------------------------------------------------- servers */

static void
server_double_destroy(void)
{
	struct dt_pair p = { 0 };
	struct doca_comch_server *s;

	dt_pair_open(&p);
	s = ab_server(&p);
	DT_OK(doca_comch_server_destroy(s));
	DT_ERR(doca_comch_server_destroy(s), INVAL);
	DT_ASSERT(dt_pair_down(&p));
}

static void
server_after_destroy(void)
{
	struct dt_pair p = { 0 };
	struct doca_comch_task_send *task = NULL;
	struct doca_comch_server *s;
	enum doca_ctx_states st;
	struct doca_dev_rep *rep;
	union doca_data ud;
	struct doca_dev *dev;
	struct doca_ctx *ctx;
	uint32_t v;

	dt_pair_open(&p);
	s = ab_server(&p);
	ctx = doca_comch_server_as_ctx(s);
	DT_OK(doca_comch_server_destroy(s));
	DT_ERR(doca_comch_server_set_max_msg_size(s, 1024), INVAL);
	DT_ERR(doca_comch_server_get_max_msg_size(s, &v), INVAL);
	DT_ERR(doca_comch_server_set_recv_queue_size(s, 16), INVAL);
	DT_ERR(doca_comch_server_get_device(s, &dev), INVAL);
	DT_ERR(doca_comch_server_get_device_rep(s, &rep), INVAL);
	DT_ERR(doca_comch_server_task_send_set_conf(s, dt_send_ok_cb, dt_send_err_cb, 4), INVAL);
	DT_ERR(doca_comch_server_event_msg_recv_register(s, dt_recv_cb), INVAL);
	DT_ERR(doca_comch_server_event_connection_status_changed_register(s, dt_connect_cb,
									 dt_disconnect_cb), INVAL);
	DT_ERR(doca_comch_server_task_send_alloc_init(s, NULL, "x", 1, &task), INVAL);
	DT_ASSERT(task == NULL);
	DT_ASSERT(doca_comch_server_as_ctx(s) == NULL);
	/* its context went with it */
	DT_ERR(doca_ctx_start(ctx), INVAL);
	DT_ERR(doca_ctx_stop(ctx), INVAL);
	DT_ERR(doca_ctx_get_state(ctx, &st), INVAL);
	DT_ERR(doca_ctx_set_user_data(ctx, (union doca_data){ .u64 = 1 }), INVAL);
	DT_ERR(doca_ctx_get_user_data(ctx, &ud), INVAL);
	DT_ERR(doca_ctx_set_state_changed_cb(ctx, dt_dummy_state_cb), INVAL);
	DT_ERR(doca_pe_connect_ctx(p.pe, ctx), INVAL);
	/* its device and representor are free again */
	DT_ASSERT(dt_pair_down(&p));
}

static void
server_stale_after_reuse(void)
{
	struct dt_pair p = { 0 };
	struct doca_comch_server *a, *b;

	dt_pair_open(&p);
	a = ab_server(&p);
	DT_OK(doca_comch_server_destroy(a));
	b = ab_server(&p);
	DT_ERR(doca_comch_server_destroy(a), INVAL);
	DT_ERR(doca_comch_server_set_max_msg_size(a, 64), INVAL);
	DT_ERR(doca_ctx_set_user_data((struct doca_ctx *)a, (union doca_data){ .u64 = 1 }), INVAL);
	ab_server_works(b);
	DT_OK(doca_comch_server_destroy(b));
	DT_ASSERT(dt_pair_down(&p));
}

static void
server_foreign(void)
{
	struct dt_pair p = { 0 };
	struct doca_comch_server *s;
	struct doca_comch_client *c;
	struct doca_mmap *m = ab_mmap(NULL);
	struct doca_dev_rep *rep = NULL;
	struct doca_dev *dev = NULL;
	uint32_t v;

	dt_pair_open(&p);
	s = ab_server(&p);
	c = ab_client(&p);
	/* a client, an mmap, an engine as a server */
	DT_ERR(doca_comch_server_get_device((struct doca_comch_server *)c, &dev), INVAL);
	DT_ERR(doca_comch_server_get_device_rep((struct doca_comch_server *)c, &rep), INVAL);
	DT_ASSERT(dev == NULL && rep == NULL);
	DT_ERR(doca_comch_server_set_max_msg_size((struct doca_comch_server *)c, 64), INVAL);
	DT_ERR(doca_comch_server_event_connection_status_changed_register(
		(struct doca_comch_server *)c, dt_connect_cb, dt_disconnect_cb), INVAL);
	DT_ASSERT(doca_comch_server_as_ctx((struct doca_comch_server *)c) == NULL);
	DT_ERR(doca_comch_server_destroy((struct doca_comch_server *)c), INVAL);
	DT_ERR(doca_comch_server_get_max_msg_size((struct doca_comch_server *)m, &v), INVAL);
	DT_ERR(doca_comch_server_destroy((struct doca_comch_server *)m), INVAL);
	DT_ERR(doca_comch_server_destroy((struct doca_comch_server *)p.pe), INVAL);
	/* an mmap, an engine as a context */
	DT_ERR(doca_ctx_start((struct doca_ctx *)m), INVAL);
	DT_ERR(doca_pe_connect_ctx(p.pe, (struct doca_ctx *)p.pe), INVAL);
	/* whole */
	ab_server_works(s);
	ab_client_works(c);
	ab_mmap_works(m);
	ab_pe_works(p.pe);
	DT_OK(doca_comch_client_destroy(c));
	DT_OK(doca_comch_server_destroy(s));
	DT_OK(doca_mmap_destroy(m));
	DT_ASSERT(dt_pair_down(&p));
}

/* ----------------------------------------------------------------- clients */

static void
client_double_destroy(void)
{
	struct dt_pair p = { 0 };
	struct doca_comch_client *c;

	dt_pair_open(&p);
	c = ab_client(&p);
	DT_OK(doca_comch_client_destroy(c));
	DT_ERR(doca_comch_client_destroy(c), INVAL);
	DT_ASSERT(dt_pair_down(&p));
}

static void
client_after_destroy(void)
{
	struct dt_pair p = { 0 };
	struct doca_comch_connection *conn;
	struct doca_comch_task_send *task = NULL;
	struct doca_comch_client *c;
	struct doca_dev *dev;
	struct doca_ctx *ctx;
	size_t n;
	uint32_t v;

	dt_pair_open(&p);
	c = ab_client(&p);
	ctx = doca_comch_client_as_ctx(c);
	DT_OK(doca_comch_client_destroy(c));
	DT_ERR(doca_comch_client_set_max_msg_size(c, 1024), INVAL);
	DT_ERR(doca_comch_client_get_recv_queue_size(c, &v), INVAL);
	DT_ERR(doca_comch_client_get_device(c, &dev), INVAL);
	DT_ERR(doca_comch_client_get_connection(c, &conn), INVAL);
	DT_ERR(doca_comch_client_task_send_set_conf(c, dt_send_ok_cb, dt_send_err_cb, 4), INVAL);
	DT_ERR(doca_comch_client_event_msg_recv_register(c, dt_recv_cb), INVAL);
	DT_ERR(doca_comch_client_event_consumer_register(c, dt_new_cons_cb, dt_exp_cons_cb),
	       INVAL);
	DT_ERR(doca_comch_client_task_send_alloc_init(c, NULL, "x", 1, &task), INVAL);
	DT_ASSERT(task == NULL);
	DT_ASSERT(doca_comch_client_as_ctx(c) == NULL);
	DT_ERR(doca_ctx_start(ctx), INVAL);
	DT_ERR(doca_ctx_get_num_inflight_tasks(ctx, &n), INVAL);
	DT_ERR(doca_pe_connect_ctx(p.pe, ctx), INVAL);
	DT_ASSERT(dt_pair_down(&p));
}

static void
client_stale_after_reuse(void)
{
	struct dt_pair p = { 0 };
	struct doca_comch_client *a, *b;

	dt_pair_open(&p);
	a = ab_client(&p);
	DT_OK(doca_comch_client_destroy(a));
	b = ab_client(&p);
	DT_ERR(doca_comch_client_destroy(a), INVAL);
	DT_ERR(doca_comch_client_set_max_msg_size(a, 64), INVAL);
	DT_ERR(doca_ctx_set_user_data((struct doca_ctx *)a, (union doca_data){ .u64 = 1 }), INVAL);
	ab_client_works(b);
	DT_OK(doca_comch_client_destroy(b));
	DT_ASSERT(dt_pair_down(&p));
}

static void
client_foreign(void)
{
	struct dt_pair p = { 0 };
	struct doca_comch_connection *conn = NULL;
	struct doca_comch_server *s;
	struct doca_comch_client *c;
	struct doca_dev *dev = NULL;
	struct doca_mmap *m = ab_mmap(NULL);

	dt_pair_open(&p);
	s = ab_server(&p);
	c = ab_client(&p);
	/* a server, an mmap as a client */
	DT_ERR(doca_comch_client_get_device((struct doca_comch_client *)s, &dev), INVAL);
	DT_ASSERT(dev == NULL);
	DT_ERR(doca_comch_client_get_connection((struct doca_comch_client *)s, &conn), INVAL);
	DT_ERR(doca_comch_client_set_max_msg_size((struct doca_comch_client *)s, 64), INVAL);
	DT_ASSERT(doca_comch_client_as_ctx((struct doca_comch_client *)s) == NULL);
	DT_ERR(doca_comch_client_destroy((struct doca_comch_client *)s), INVAL);
	DT_ERR(doca_comch_client_get_device((struct doca_comch_client *)m, &dev), INVAL);
	DT_ERR(doca_comch_client_destroy((struct doca_comch_client *)m), INVAL);
	/* a client on a representor, on an mmap */
	DT_ERR(doca_comch_client_create((struct doca_dev *)p.rep, "x", &c), INVAL);
	DT_ERR(doca_comch_client_create((struct doca_dev *)m, "x", &c), INVAL);
	/* whole */
	ab_server_works(s);
	ab_client_works(c);
	ab_mmap_works(m);
	DT_OK(doca_comch_client_destroy(c));
	DT_OK(doca_comch_server_destroy(s));
	DT_OK(doca_mmap_destroy(m));
	DT_ASSERT(dt_pair_down(&p));
}

/* --------------------------------------------------------------- producers */

static struct doca_comch_producer *
ab_producer(struct dt_pair *p)
{
	struct doca_comch_producer *pr = NULL;

	DT_OK(doca_comch_producer_create(p->sconn, &pr));
	return pr;
}

static struct doca_comch_consumer *
ab_consumer(struct dt_pair *p, struct doca_mmap *m)
{
	struct doca_comch_consumer *c = NULL;

	DT_OK(doca_comch_consumer_create(p->cconn, m, &c));
	return c;
}

static void
ab_producer_works(struct doca_comch_producer *pr)
{
	DT_OK(doca_comch_producer_task_send_set_conf(pr, dt_dummy_prod_cb, dt_dummy_prod_cb, 4));
	DT_EQ(dt_state(doca_comch_producer_as_ctx(pr)), DOCA_CTX_STATE_IDLE);
}

static void
ab_consumer_works(struct doca_comch_consumer *c)
{
	uint32_t v = 0;

	DT_OK(doca_comch_consumer_set_imm_data_len(c, 8));
	DT_OK(doca_comch_consumer_get_imm_data_len(c, &v));
	DT_EQ(v, 8);
	DT_EQ(dt_state(doca_comch_consumer_as_ctx(c)), DOCA_CTX_STATE_IDLE);
}

static void
producer_double_destroy(void)
{
	struct dt_pair p = { 0 };
	struct doca_comch_producer *pr;

	dt_pair_up(&p);
	pr = ab_producer(&p);
	DT_OK(doca_comch_producer_destroy(pr));
	DT_ERR(doca_comch_producer_destroy(pr), INVAL);
	DT_ASSERT(dt_pair_down(&p));
}

static void
producer_after_destroy(void)
{
	struct dt_pair p = { 0 };
	struct doca_comch_producer_task_send *task = NULL;
	struct doca_comch_producer *pr;
	struct doca_ctx *ctx;
	uint32_t id;

	dt_pair_up(&p);
	pr = ab_producer(&p);
	ctx = doca_comch_producer_as_ctx(pr);
	DT_OK(doca_comch_producer_destroy(pr));
	DT_ERR(doca_comch_producer_get_id(pr, &id), INVAL);
	DT_ERR(doca_comch_producer_task_send_set_conf(pr, dt_dummy_prod_cb, dt_dummy_prod_cb, 4),
	       INVAL);
	DT_ERR(doca_comch_producer_task_send_alloc_init(pr, NULL, (const uint8_t *)"x", 1, 1,
							&task), INVAL);
	DT_ASSERT(task == NULL);
	DT_ASSERT(doca_comch_producer_as_ctx(pr) == NULL);
	DT_ERR(doca_ctx_start(ctx), INVAL);
	DT_ERR(doca_pe_connect_ctx(p.pe, ctx), INVAL);
	DT_ASSERT(dt_pair_down(&p));
}

static void
producer_stale_after_reuse(void)
{
	struct dt_pair p = { 0 };
	struct doca_comch_producer *a, *b;

	dt_pair_up(&p);
	a = ab_producer(&p);
	DT_OK(doca_comch_producer_destroy(a));
	b = ab_producer(&p);
	DT_ERR(doca_comch_producer_destroy(a), INVAL);
	DT_ERR(doca_comch_producer_task_send_set_conf(a, dt_dummy_prod_cb, dt_dummy_prod_cb, 2),
	       INVAL);
	ab_producer_works(b);
	DT_OK(doca_comch_producer_destroy(b));
	DT_ASSERT(dt_pair_down(&p));
}

static void
producer_foreign(void)
{
	struct dt_pair p = { 0 };
	struct doca_mmap *m;
	struct doca_comch_producer *pr;
	struct doca_comch_consumer *c;
	uint32_t id;

	dt_pair_up(&p);
	m = ab_mmap(p.host);
	pr = ab_producer(&p);
	c = ab_consumer(&p, m);
	/* a consumer, a server, an mmap as a producer */
	DT_ERR(doca_comch_producer_get_id((struct doca_comch_producer *)c, &id), INVAL);
	DT_ERR(doca_comch_producer_task_send_set_conf((struct doca_comch_producer *)c,
						      dt_dummy_prod_cb, dt_dummy_prod_cb, 4),
	       INVAL);
	DT_ASSERT(doca_comch_producer_as_ctx((struct doca_comch_producer *)c) == NULL);
	DT_ERR(doca_comch_producer_destroy((struct doca_comch_producer *)c), INVAL);
	DT_ERR(doca_comch_producer_destroy((struct doca_comch_producer *)p.server), INVAL);
	DT_ERR(doca_comch_producer_destroy((struct doca_comch_producer *)m), INVAL);
	/* whole */
	ab_producer_works(pr);
	ab_consumer_works(c);
	DT_OK(doca_comch_consumer_destroy(c));
	DT_OK(doca_comch_producer_destroy(pr));
	DT_OK(doca_mmap_destroy(m));
	DT_ASSERT(dt_pair_down(&p));
}

/* --------------------------------------------------------------- consumers */

static void
consumer_double_destroy(void)
{
	struct dt_pair p = { 0 };
	struct doca_comch_consumer *c;
	struct doca_mmap *m;

	dt_pair_up(&p);
	m = ab_mmap(p.host);
	c = ab_consumer(&p, m);
	DT_OK(doca_comch_consumer_destroy(c));
	DT_ERR(doca_comch_consumer_destroy(c), INVAL);
	DT_OK(doca_mmap_destroy(m));
	DT_ASSERT(dt_pair_down(&p));
}

static void
consumer_after_destroy(void)
{
	struct dt_pair p = { 0 };
	struct doca_comch_consumer_task_post_recv *task = NULL;
	struct doca_comch_consumer *c;
	struct doca_mmap *m;
	struct doca_ctx *ctx;
	uint32_t v;

	dt_pair_up(&p);
	m = ab_mmap(p.host);
	c = ab_consumer(&p, m);
	ctx = doca_comch_consumer_as_ctx(c);
	DT_OK(doca_comch_consumer_destroy(c));
	DT_ERR(doca_comch_consumer_get_id(c, &v), INVAL);
	DT_ERR(doca_comch_consumer_set_imm_data_len(c, 8), INVAL);
	DT_ERR(doca_comch_consumer_get_imm_data_len(c, &v), INVAL);
	DT_ERR(doca_comch_consumer_task_post_recv_set_conf(c, dt_dummy_cons_cb, dt_dummy_cons_cb,
							   4), INVAL);
	DT_ERR(doca_comch_consumer_task_post_recv_alloc_init(c, NULL, &task), INVAL);
	DT_ASSERT(task == NULL);
	DT_ASSERT(doca_comch_consumer_as_ctx(c) == NULL);
	DT_ERR(doca_ctx_start(ctx), INVAL);
	DT_ERR(doca_pe_connect_ctx(p.pe, ctx), INVAL);
	/* the mmap is free again */
	DT_OK(doca_mmap_destroy(m));
	DT_ASSERT(dt_pair_down(&p));
}

static void
consumer_stale_after_reuse(void)
{
	struct dt_pair p = { 0 };
	struct doca_comch_consumer *a, *b;
	struct doca_mmap *m;

	dt_pair_up(&p);
	m = ab_mmap(p.host);
	a = ab_consumer(&p, m);
	DT_OK(doca_comch_consumer_destroy(a));
	b = ab_consumer(&p, m);
	DT_ERR(doca_comch_consumer_destroy(a), INVAL);
	DT_ERR(doca_comch_consumer_set_imm_data_len(a, 4), INVAL);
	ab_consumer_works(b);
	DT_OK(doca_comch_consumer_destroy(b));
	DT_OK(doca_mmap_destroy(m));
	DT_ASSERT(dt_pair_down(&p));
}

static void
consumer_foreign(void)
{
	struct dt_pair p = { 0 };
	struct doca_comch_consumer *c, *c2 = NULL;
	struct doca_comch_producer *pr;
	struct doca_buf_inventory *inv;
	struct doca_mmap *m;
	struct doca_pe *pe2;
	uint32_t v;

	dt_pair_up(&p);
	m = ab_mmap(p.host);
	pr = ab_producer(&p);
	c = ab_consumer(&p, m);
	DT_OK(doca_pe_create(&pe2));
	DT_OK(doca_buf_inventory_create(2, &inv));
	/* a producer, a client, an mmap as a consumer */
	DT_ERR(doca_comch_consumer_get_id((struct doca_comch_consumer *)pr, &v), INVAL);
	DT_ERR(doca_comch_consumer_set_imm_data_len((struct doca_comch_consumer *)pr, 8), INVAL);
	DT_ASSERT(doca_comch_consumer_as_ctx((struct doca_comch_consumer *)pr) == NULL);
	DT_ERR(doca_comch_consumer_destroy((struct doca_comch_consumer *)pr), INVAL);
	DT_ERR(doca_comch_consumer_destroy((struct doca_comch_consumer *)p.client), INVAL);
	DT_ERR(doca_comch_consumer_destroy((struct doca_comch_consumer *)m), INVAL);
	/* a consumer on an engine, an inventory as its mmap */
	DT_ERR(doca_comch_consumer_create(p.cconn, (struct doca_mmap *)pe2, &c2), INVAL);
	DT_ERR(doca_comch_consumer_create(p.cconn, (struct doca_mmap *)inv, &c2), INVAL);
	DT_ASSERT(c2 == NULL);
	/* whole */
	ab_producer_works(pr);
	ab_consumer_works(c);
	ab_pe_works(pe2);
	DT_OK(doca_comch_consumer_destroy(c));
	DT_OK(doca_comch_producer_destroy(pr));
	DT_OK(doca_buf_inventory_destroy(inv));
	DT_OK(doca_pe_destroy(pe2));
	DT_OK(doca_mmap_destroy(m));
	DT_ASSERT(dt_pair_down(&p));
}

/* -------------------------------------------------------- legacy endpoints */

static void
ep_double_destroy(void)
{
	struct doca_comm_channel_ep_t *ep;

	DT_OK(doca_comm_channel_ep_create(&ep));
	DT_OK(doca_comm_channel_ep_destroy(ep));
	DT_ERR(doca_comm_channel_ep_destroy(ep), INVAL);
}

static void
ep_after_destroy(void)
{
	struct doca_dev *d = dt_dev_open("04:00.0");
	struct doca_comm_channel_addr_t *peer = NULL;
	struct doca_comm_channel_ep_t *ep;
	doca_event_channel_t sch, rch;
	struct doca_dev *got;
	uint16_t v;
	size_t len = 8;
	char buf[8];

	DT_OK(doca_comm_channel_ep_create(&ep));
	DT_OK(doca_comm_channel_ep_destroy(ep));
	DT_ERR(doca_comm_channel_ep_set_device(ep, d), INVAL);
	DT_ERR(doca_comm_channel_ep_get_device(ep, &got), INVAL);
	DT_ERR(doca_comm_channel_ep_set_max_msg_size(ep, 64), INVAL);
	DT_ERR(doca_comm_channel_ep_get_send_queue_size(ep, &v), INVAL);
	DT_ERR(doca_comm_channel_ep_connect(ep, "x", &peer), INVAL);
	DT_ERR(doca_comm_channel_ep_listen(ep, "x"), INVAL);
	DT_ERR(doca_comm_channel_ep_get_event_channel(ep, &sch, &rch), INVAL);
	DT_ERR(doca_comm_channel_ep_sendto(ep, "x", 1, DOCA_CC_MSG_FLAG_NONE,
					   (struct doca_comm_channel_addr_t *)buf), INVAL);
	DT_ERR(doca_comm_channel_ep_recvfrom(ep, buf, &len, DOCA_CC_MSG_FLAG_NONE, &peer), INVAL);
	DT_ERR(doca_comm_channel_ep_event_handle_arm_recv(ep), INVAL);
	DT_ASSERT(peer == NULL);
	DT_OK(doca_dev_close(d));
}

static void
ep_stale_after_reuse(void)
{
	struct doca_dev *d = dt_dev_open("04:00.0");
	struct doca_comm_channel_ep_t *a, *b;
	struct doca_dev *got = NULL;
	uint16_t v = 0;

	DT_OK(doca_comm_channel_ep_create(&a));
	DT_OK(doca_comm_channel_ep_destroy(a));
	DT_OK(doca_comm_channel_ep_create(&b));
	DT_ERR(doca_comm_channel_ep_destroy(a), INVAL);
	DT_ERR(doca_comm_channel_ep_set_max_msg_size(a, 64), INVAL);
	/* b is whole: not given a's size, configurable, destroyed once */
	DT_OK(doca_comm_channel_ep_set_device(b, d));
	DT_OK(doca_comm_channel_ep_get_device(b, &got));
	DT_ASSERT(got == d);
	DT_OK(doca_comm_channel_ep_set_max_msg_size(b, 128));
	DT_OK(doca_comm_channel_ep_get_max_msg_size(b, &v));
	DT_EQ(v, 128);
	DT_OK(doca_comm_channel_ep_destroy(b));
	DT_ERR(doca_comm_channel_ep_destroy(b), INVAL);
	DT_OK(doca_dev_close(d));
}

static void
ep_foreign(void)
{
	struct doca_dev *d = dt_dev_open("04:00.0");
	struct doca_comm_channel_addr_t *peer = NULL;
	struct doca_comm_channel_ep_t *ep;
	struct doca_mmap *m = ab_mmap(NULL);
	struct doca_pe *pe;
	uint16_t v;

	DT_OK(doca_pe_create(&pe));
	DT_OK(doca_comm_channel_ep_create(&ep));
	/* an mmap, an engine, a device as an endpoint */
	DT_ERR(doca_comm_channel_ep_destroy((struct doca_comm_channel_ep_t *)m), INVAL);
	DT_ERR(doca_comm_channel_ep_set_device((struct doca_comm_channel_ep_t *)pe, d), INVAL);
	DT_ERR(doca_comm_channel_ep_get_max_msg_size((struct doca_comm_channel_ep_t *)d, &v),
	       INVAL);
	/* an engine, an endpoint as the endpoint's device, an mmap as its representor */
	DT_ERR(doca_comm_channel_ep_set_device(ep, (struct doca_dev *)pe), INVAL);
	DT_ERR(doca_comm_channel_ep_set_device(ep, (struct doca_dev *)ep), INVAL);
	DT_ERR(doca_comm_channel_ep_set_device_rep(ep, (struct doca_dev_rep *)m), INVAL);
	/* so it has no device to connect with */
	DT_ERR(doca_comm_channel_ep_connect(ep, "x", &peer), DOCA_ERROR_BAD_STATE);
	/* whole */
	DT_OK(doca_comm_channel_ep_set_device(ep, d));
	DT_OK(doca_comm_channel_ep_destroy(ep));
	ab_mmap_works(m);
	ab_pe_works(pe);
	DT_OK(doca_mmap_destroy(m));
	DT_OK(doca_pe_destroy(pe));
	DT_OK(doca_dev_close(d));
}

/* ------------------------------------------------------------- argp flags */

static struct doca_argp_param *
ab_param(const char *long_name)
{
	struct doca_argp_param *p = NULL;

	DT_OK(doca_argp_param_create(&p));
	doca_argp_param_set_long_name(p, long_name);
	doca_argp_param_set_description(p, "a flag");
	doca_argp_param_set_callback(p, ab_param_cb);
	doca_argp_param_set_type(p, DOCA_ARGP_TYPE_INT);
	return p;
}

static void
param_double_destroy(void)
{
	struct doca_argp_param *p;

	DT_OK(doca_argp_param_create(&p));
	doca_argp_param_set_long_name(p, "flag");
	DT_OK(doca_argp_param_destroy(p));
	DT_ERR(doca_argp_param_destroy(p), INVAL);
}

static void
param_after_destroy(void)
{
	struct doca_argp_param *p, *q;

	DT_OK(doca_argp_init("abuse", NULL));
	p = ab_param("flag");
	DT_OK(doca_argp_param_destroy(p));
	DT_ERR(doca_argp_register_param(p), INVAL);
	doca_argp_param_set_short_name(p, "f");
	doca_argp_param_set_mandatory(p);
	/* a flag the parser refused is the parser's, freed: a destroy after is a second one */
	DT_OK(doca_argp_param_create(&q));
	DT_ERR(doca_argp_register_param(q), DOCA_ERROR_INITIALIZATION);
	DT_ERR(doca_argp_param_destroy(q), INVAL);
	DT_ERR(doca_argp_register_param(q), INVAL);
	/* the parser is whole */
	DT_OK(doca_argp_register_param(ab_param("flag")));
	DT_OK(doca_argp_destroy());
}

static void
param_stale_after_reuse(void)
{
	struct doca_argp_param *a, *b;

	DT_OK(doca_argp_init("abuse", NULL));
	a = ab_param("aaa");
	DT_OK(doca_argp_param_destroy(a));
	b = ab_param("bbb");
	DT_ERR(doca_argp_param_destroy(a), INVAL);
	/* setters through the stale handle change nothing: b keeps its name */
	doca_argp_param_set_long_name(a, "ccc");
	DT_OK(doca_argp_register_param(b));
	DT_OK(doca_argp_register_param(ab_param("ccc")));
	DT_ERR(doca_argp_register_param(ab_param("bbb")), INVAL);
	DT_OK(doca_argp_destroy());
}

static void
param_foreign(void)
{
	struct doca_mmap *m = ab_mmap(NULL);

	DT_OK(doca_argp_init("abuse", NULL));
	/* an mmap as a flag: refused, and never written */
	doca_argp_param_set_type((struct doca_argp_param *)m, DOCA_ARGP_TYPE_INT);
	doca_argp_param_set_long_name((struct doca_argp_param *)m, "flag");
	doca_argp_param_set_hidden((struct doca_argp_param *)m);
	DT_ERR(doca_argp_register_param((struct doca_argp_param *)m), INVAL);
	DT_ERR(doca_argp_param_destroy((struct doca_argp_param *)m), INVAL);
	ab_mmap_works(m);
	DT_OK(doca_mmap_destroy(m));
	DT_OK(doca_argp_register_param(ab_param("flag")));
	DT_OK(doca_argp_destroy());
}

/* -------------------------------------------------------------- log backends */

static void
backend_foreign(void)
{
	struct doca_log_backend *be = NULL;
	struct doca_mmap *m = ab_mmap(NULL);
	struct doca_log_backend *fake = (struct doca_log_backend *)m;

	/* log backends are never destroyed: only a handle of another kind can be wrong */
	DT_ERR(doca_log_backend_set_level_lower_limit(fake, DOCA_LOG_LEVEL_DEBUG), INVAL);
	DT_ERR(doca_log_backend_set_level_upper_limit(fake, DOCA_LOG_LEVEL_ERROR), INVAL);
	DT_ERR(doca_log_backend_set_level_lower_limit_strict(fake), INVAL);
	DT_ERR(doca_log_backend_set_level_upper_limit_strict(fake), INVAL);
	DT_ERR(doca_log_backend_set_sdk_level(fake, DOCA_LOG_LEVEL_DEBUG), INVAL);
	ab_mmap_works(m);
	DT_OK(doca_mmap_destroy(m));
	/* a real one */
	DT_OK(doca_log_backend_create_with_file(stderr, &be));
	DT_OK(doca_log_backend_set_level_lower_limit(be, DOCA_LOG_LEVEL_DEBUG));
	DT_ERR(doca_log_backend_set_sdk_level(be, DOCA_LOG_LEVEL_DEBUG), DOCA_ERROR_NOT_PERMITTED);
}

/* ------------------------------------------------------------------- main */

#define AB(fn, log) { #fn, fn, log }

static const struct ab_case ab_cases[] = {
	AB(mmap_double_destroy, "doca_mmap_destroy(): mmap is not a live doca_mmap"),
	AB(mmap_after_destroy, "doca_mmap_add_dev(): mmap is not a live doca_mmap"),
	AB(mmap_stale_after_reuse, "doca_mmap_destroy(): mmap is not a live doca_mmap"),
	AB(mmap_stale_after_quarantine, "doca_mmap_set_memrange(): mmap is "),
	AB(mmap_foreign, "doca_mmap_start(): mmap is not a live doca_mmap"),
	AB(inventory_double_destroy,
	   "doca_buf_inventory_destroy(): inventory is not a live doca_buf_inventory"),
	AB(inventory_after_destroy,
	   "doca_buf_inventory_start(): inventory is not a live doca_buf_inventory"),
	AB(inventory_stale_after_reuse,
	   "doca_buf_inventory_destroy(): inventory is not a live doca_buf_inventory"),
	AB(inventory_foreign,
	   "doca_buf_inventory_start(): inventory is a doca_mmap, not a doca_buf_inventory"),
	AB(dev_double_close, "doca_dev_close(): dev is not a live doca_dev"),
	AB(dev_after_close, "doca_comm_channel_ep_connect(): local_ep->dev is not a live doca_dev"),
	AB(dev_stale_after_reuse, "doca_dev_close(): dev is not a live doca_dev"),
	AB(dev_foreign, "doca_dev_close(): dev is a doca_dev_rep, not a doca_dev"),
	AB(rep_double_close, "doca_dev_rep_close(): dev_rep is not a live doca_dev_rep"),
	AB(rep_after_close,
	   "doca_comm_channel_ep_listen(): local_ep->dev_rep is not a live doca_dev_rep"),
	AB(rep_stale_after_reuse, "doca_dev_rep_close(): dev_rep is not a live doca_dev_rep"),
	AB(rep_foreign, "doca_dev_rep_close(): dev_rep is a doca_dev, not a doca_dev_rep"),
	AB(devlist_double_destroy,
	   "doca_devinfo_rep_destroy_list(): dev_list_rep is not a live doca_devinfo_rep list"),
	AB(devlist_after_destroy,
	   "doca_dev_rep_open(): devinfo_rep is not a live doca_devinfo_rep"),
	AB(devlist_stale_after_reuse,
	   "doca_devinfo_destroy_list(): dev_list is not a live doca_devinfo list"),
	AB(devlist_foreign,
	   "doca_devinfo_destroy_list(): dev_list is a doca_devinfo_rep list, "
	   "not a doca_devinfo list"),
	AB(server_double_destroy,
	   "doca_comch_server_destroy(): server is not a live doca_comch_server"),
	AB(server_after_destroy, "doca_ctx_start(): ctx is not a live doca_ctx"),
	AB(server_stale_after_reuse,
	   "doca_comch_server_destroy(): server is not a live doca_comch_server"),
	AB(server_foreign,
	   "doca_comch_server_get_device(): server is a doca_comch_client, "
	   "not a doca_comch_server"),
	AB(client_double_destroy,
	   "doca_comch_client_destroy(): client is not a live doca_comch_client"),
	AB(client_after_destroy, "doca_pe_connect_ctx(): ctx is not a live doca_ctx"),
	AB(client_stale_after_reuse,
	   "doca_comch_client_destroy(): client is not a live doca_comch_client"),
	AB(client_foreign,
	   "doca_comch_client_get_device(): client is a doca_comch_server, "
	   "not a doca_comch_client"),
	AB(producer_double_destroy,
	   "doca_comch_producer_destroy(): producer is not a live doca_comch_producer"),
	AB(producer_after_destroy,
	   "doca_comch_producer_get_id(): producer is not a live doca_comch_producer"),
	AB(producer_stale_after_reuse,
	   "doca_comch_producer_destroy(): producer is not a live doca_comch_producer"),
	AB(producer_foreign, "doca_comch_producer_get_id(): producer is a doca_comch_consumer, "
	   "not a doca_comch_producer"),
	AB(consumer_double_destroy,
	   "doca_comch_consumer_destroy(): consumer is not a live doca_comch_consumer"),
	AB(consumer_after_destroy,
	   "doca_comch_consumer_get_id(): consumer is not a live doca_comch_consumer"),
	AB(consumer_stale_after_reuse,
	   "doca_comch_consumer_destroy(): consumer is not a live doca_comch_consumer"),
	AB(consumer_foreign, "doca_comch_consumer_create(): buf_mmap is not a live doca_mmap"),
	AB(ep_double_destroy, "doca_comm_channel_ep_destroy(): local_ep is not a live "
	   "doca_comm_channel_ep_t"),
	AB(ep_after_destroy,
	   "doca_comm_channel_ep_sendto(): local_ep is not a live doca_comm_channel_ep_t"),
	AB(ep_stale_after_reuse, "doca_comm_channel_ep_destroy(): local_ep is not a live "
	   "doca_comm_channel_ep_t"),
	AB(ep_foreign, "doca_comm_channel_ep_set_device(): device is a doca_comm_channel_ep_t, "
	   "not a doca_dev"),
	AB(param_double_destroy,
	   "doca_argp_param_destroy(): param is not a live doca_argp_param"),
	AB(param_after_destroy,
	   "doca_argp_register_param(): input_param is not a live doca_argp_param"),
	AB(param_stale_after_reuse,
	   "doca_argp_param_set_long_name(): param is not a live doca_argp_param"),
	AB(param_foreign, "doca_argp_param_set_type(): param is a doca_mmap, "
	   "not a doca_argp_param"),
	AB(backend_foreign, "doca_log_backend_set_sdk_level(): backend is a doca_mmap, "
	   "not a doca_log_backend"),
};

#define AB_NB_CASES (sizeof(ab_cases) / sizeof(ab_cases[0]))

int
main(void)
{
	struct CMUnitTest tests[AB_NB_CASES];
	unsigned int i;
	int ret;

	for (i = 0; i < AB_NB_CASES; i++)
		tests[i] = (struct CMUnitTest){ .name = ab_cases[i].name, .test_func = ab_run,
						.initial_state = (void *)(uintptr_t)&ab_cases[i] };
	if (getenv("COMCH_TEST_FILTER") != NULL)
		cmocka_set_test_filter(getenv("COMCH_TEST_FILTER"));
	/* the mapping the children inherit; this process never calls DOCA itself */
	dt_env_setup();
	ret = _cmocka_run_group_tests("doca_compat_abuse", tests, AB_NB_CASES, NULL, NULL);
	dt_env_teardown();
	return ret;
}
