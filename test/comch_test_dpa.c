/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#include <stdio.h>
#include <unistd.h>

#include "comch_test_common.h"
#include "comch_test_dpa.h"

int
ct_dpa_devs_open(struct rte_comch_dev **dpa, struct rte_comch_dev **other)
{
	char d[32], devargs[96];

	ct_domain(d, sizeof(d));
	snprintf(devargs, sizeof(devargs), "dpa:name=%s", d);
	*dpa = rte_comch_dev_open(devargs);
	snprintf(devargs, sizeof(devargs), "skeleton:domain=%s,role=dpu", d);
	*other = rte_comch_dev_open(devargs);
	return *dpa != NULL && *other != NULL ? 0 : -1;
}

void
ct_dpa_devs_close(struct rte_comch_dev *dpa, struct rte_comch_dev *other)
{
	if (dpa != NULL)
		rte_comch_dev_close(dpa);
	if (other != NULL)
		rte_comch_dev_close(other);
}

bool
ct_dpa_wait_ge(const uint64_t *p, uint64_t want)
{
	uint64_t deadline = ct_now_ms() + CT_TIMEOUT_MS;

	while (__atomic_load_n(p, __ATOMIC_ACQUIRE) < want) {
		if (ct_now_ms() > deadline)
			return false;
		usleep(50);
	}
	return true;
}

struct rte_comch_dpa *
ct_dpa_new(struct rte_comch_dev *dev, enum rte_comch_dpa_exec_mode mode, uint32_t units,
	   uint32_t max_threads, uint32_t max_cqs)
{
	struct rte_comch_dpa_conf conf = {
		.nb_units = units, .mode = mode, .max_threads = max_threads, .max_cqs = max_cqs,
	};
	struct rte_comch_dpa *dpa = rte_comch_dpa_create(dev, &conf);

	assert_non_null(dpa);
	return dpa;
}

struct rte_comch_dpa_thread *
ct_dpa_thread_new(struct rte_comch_dpa *dpa, rte_comch_dpa_func_t fn, void *arg, uint32_t tls,
		  bool run)
{
	struct rte_comch_dpa_thread_conf conf = {
		.func = fn, .arg = (uint64_t)(uintptr_t)arg, .local_storage_size = tls,
		.unit = RTE_COMCH_DPA_UNIT_ANY,
	};
	struct rte_comch_dpa_thread *t = rte_comch_dpa_thread_create(dpa, &conf);

	assert_non_null(t);
	assert_int_equal(rte_comch_dpa_thread_start(t), 0);
	if (run)
		assert_int_equal(rte_comch_dpa_thread_run(t), 0);
	return t;
}

void
ct_dpa_thread_rm(struct rte_comch_dpa_thread *t)
{
	rte_comch_dpa_thread_stop(t); /* -EBUSY if only started: fine */
	assert_int_equal(rte_comch_dpa_thread_destroy(t), 0);
}

struct rte_comch_dpa_cq *
ct_dpa_cq_new(struct rte_comch_dpa *dpa, uint32_t size, struct rte_comch_dpa_thread *t,
	      rte_comch_dpa_handle_t *h)
{
	struct rte_comch_dpa_cq_conf conf = { .size = size, .thread = t };
	struct rte_comch_dpa_cq *cq = rte_comch_dpa_cq_create(dpa, &conf);

	assert_non_null(cq);
	if (h != NULL)
		assert_int_equal(rte_comch_dpa_cq_get_dpa_handle(cq, h), 0);
	return cq;
}
