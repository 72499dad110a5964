/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The drivers the conformance suite runs against, in one table: how each
 * opens a device from the harness's keys (domain, role, fn, rep and the
 * driver's own), what it can do that a test may need, and what a test binary
 * sets up for it first. A driver joins the suite here and in test/meson.build's
 * conformance_drivers.
 */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comch_test_common.h"
#include "comch_test_drivers.h"

#ifdef COMCH_TEST_MLX5
#include "mlx5_fake.h"
#endif

/* shm keeps its sockets in a directory: the test binary's own. */
static int
ct_shm_devargs(char *buf, size_t len, const char *kv)
{
	return snprintf(buf, len, "shm:%s,dir=%s", kv, ct_dir());
}

/* skeleton takes the harness's keys as they are. */
static int
ct_skeleton_devargs(char *buf, size_t len, const char *kv)
{
	return snprintf(buf, len, "skeleton:%s", kv);
}

#ifdef COMCH_TEST_MLX5
/*
 * mlx5 runs on the fake verbs provider (test/mlx5_fake): a BlueField-side
 * device mlx5_0 (10.0.0.1) and a host-side one mlx5_1 (10.0.0.2) in the
 * process. A domain is an rdma_cm port on 10.0.0.1: the BlueField side
 * listens there, its host side connects there.
 */
#define CT_MLX5_DPU_DEV "mlx5_0"
#define CT_MLX5_DPU_IP "10.0.0.1"
#define CT_MLX5_HOST_DEV "mlx5_1"
#define CT_MLX5_HOST_IP "10.0.0.2"
#define CT_MLX5_PORT0 20000
#define CT_MLX5_DOMAINS 4096

static int
ct_mlx5_setup(void)
{
	int rc;

	mlx5_fake_reset();
	rc = mlx5_fake_add_device(CT_MLX5_DPU_DEV, 1);
	if (rc == 0)
		rc = mlx5_fake_add_addr(CT_MLX5_DPU_DEV, 1, CT_MLX5_DPU_IP);
	if (rc == 0)
		rc = mlx5_fake_add_device(CT_MLX5_HOST_DEV, 1);
	if (rc == 0)
		rc = mlx5_fake_add_addr(CT_MLX5_HOST_DEV, 1, CT_MLX5_HOST_IP);
	if (rc == 0)
		rc = rte_comch_mlx5_glue_set(mlx5_fake_glue());
	return rc;
}

/* The rdma_cm port of a domain: one per domain name, in the order they come. */
static unsigned int
ct_mlx5_port(const char *domain)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static char *names[CT_MLX5_DOMAINS];
	static unsigned int nb;
	unsigned int i;

	pthread_mutex_lock(&lock);
	for (i = 0; i < nb && strcmp(names[i], domain) != 0; i++)
		;
	if (i == nb && nb < CT_MLX5_DOMAINS && (names[nb] = strdup(domain)) != NULL)
		nb++;
	pthread_mutex_unlock(&lock);
	return CT_MLX5_PORT0 + i;
}

/* domain=d becomes the device, address and port of its side; the rest stays. */
static int
ct_mlx5_devargs(char *buf, size_t len, const char *kv)
{
	char copy[512], out[600] = "";
	char *tok, *save = NULL;
	const char *domain = NULL;
	bool dpu = strstr(kv, "role=dpu") != NULL;
	size_t off = 0;

	snprintf(copy, sizeof(copy), "%s", kv);
	for (tok = strtok_r(copy, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
		if (strncmp(tok, "domain=", 7) == 0) {
			domain = tok + 7;
			continue;
		}
		off += snprintf(out + off, off < sizeof(out) ? sizeof(out) - off : 0, ",%s", tok);
	}
	if (domain == NULL)
		return snprintf(buf, len, "mlx5:%s", out[0] == ',' ? out + 1 : out);
	return snprintf(buf, len, "mlx5:dev=%s,addr=%s,port=%u%s",
			dpu ? CT_MLX5_DPU_DEV : CT_MLX5_HOST_DEV, CT_MLX5_DPU_IP,
			ct_mlx5_port(domain), out);
}
#endif

static const struct ct_driver_desc ct_drivers[] = {
	{
		.name = "shm",
		.caps = CT_CAP_PROCESSES,
		.devargs = ct_shm_devargs,
	},
	{
		.name = "skeleton",
		.caps = 0,
		.devargs = ct_skeleton_devargs,
	},
#ifdef COMCH_TEST_MLX5
	{
		/* In one process, on the fake verbs provider: no peer in another. */
		.name = "mlx5",
		.caps = CT_CAP_WAKE_AT_SEND,
		.setup = ct_mlx5_setup,
		.devargs = ct_mlx5_devargs,
	},
#endif
};

const struct ct_driver_desc *
ct_driver_desc(void)
{
	const char *name = ct_driver();
	unsigned int i;

	for (i = 0; i < RTE_DIM(ct_drivers); i++)
		if (strcmp(ct_drivers[i].name, name) == 0)
			return &ct_drivers[i];
	return NULL;
}

bool
ct_driver_can(unsigned int caps)
{
	const struct ct_driver_desc *d = ct_driver_desc();

	return d != NULL && (d->caps & caps) == caps;
}
