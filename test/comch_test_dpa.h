/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef COMCH_TEST_DPA_H
#define COMCH_TEST_DPA_H

/*
 * What the tests of the software DPA share: making its objects (a failure
 * fails the calling test) and waiting for what a DPA program counts.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_comch_dpa.h>

struct rte_comch_dev;

/**
 * Open a "dpa:" device and, for what MsgQ refuses, a device of another driver
 * (skeleton), both named after this process; 0, or -1 if one did not open.
 */
int ct_dpa_devs_open(struct rte_comch_dev **dpa, struct rte_comch_dev **other);
/** Close what ct_dpa_devs_open() opened (NULLs are skipped). */
void ct_dpa_devs_close(struct rte_comch_dev *dpa, struct rte_comch_dev *other);
/** Wait (sleeping a little) until *p >= want, read with acquire; false after CT_TIMEOUT_MS. */
bool ct_dpa_wait_ge(const uint64_t *p, uint64_t want);
/** A dpa on dev (max_threads, max_cqs 0: the defaults), not started. */
struct rte_comch_dpa *ct_dpa_new(struct rte_comch_dev *dev, enum rte_comch_dpa_exec_mode mode,
				 uint32_t units, uint32_t max_threads, uint32_t max_cqs);
/** A started thread of fn(arg) with tls bytes of local storage, on any unit; run if run. */
struct rte_comch_dpa_thread *ct_dpa_thread_new(struct rte_comch_dpa *dpa,
					       rte_comch_dpa_func_t fn, void *arg,
					       uint32_t tls, bool run);
/** Stop (if running or finished) and destroy a thread. */
void ct_dpa_thread_rm(struct rte_comch_dpa_thread *t);
/** A completion context of size entries attached to t (or none); its handle in *h if h. */
struct rte_comch_dpa_cq *ct_dpa_cq_new(struct rte_comch_dpa *dpa, uint32_t size,
				       struct rte_comch_dpa_thread *t, rte_comch_dpa_handle_t *h);

#endif /* COMCH_TEST_DPA_H */
