/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * DOCA compatibility layer: error codes (names, descriptions, errno mapping)
 * and bad inputs (NULL for every pointer parameter of a representative set of
 * calls). The mapping of this process (test_doca_compat.h, dt_env_setup()) gives
 * the NULL checks real objects for their other parameters. The capability
 * getters against the rte_comch device the layer opened for each side.
 */

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_comch.h>

#include "test_doca_compat.h"

/* Every code, with the name of its identifier. */
#define DT_ERRORS(X) \
	X(DOCA_SUCCESS) X(DOCA_ERROR_UNKNOWN) X(DOCA_ERROR_NOT_PERMITTED) X(DOCA_ERROR_IN_USE) \
	X(DOCA_ERROR_NOT_SUPPORTED) X(DOCA_ERROR_AGAIN) X(DOCA_ERROR_INVALID_VALUE) \
	X(DOCA_ERROR_NO_MEMORY) X(DOCA_ERROR_INITIALIZATION) X(DOCA_ERROR_TIME_OUT) \
	X(DOCA_ERROR_SHUTDOWN) X(DOCA_ERROR_CONNECTION_RESET) X(DOCA_ERROR_CONNECTION_ABORTED) \
	X(DOCA_ERROR_CONNECTION_INPROGRESS) X(DOCA_ERROR_NOT_CONNECTED) X(DOCA_ERROR_NO_LOCK) \
	X(DOCA_ERROR_NOT_FOUND) X(DOCA_ERROR_IO_FAILED) X(DOCA_ERROR_BAD_STATE) \
	X(DOCA_ERROR_UNSUPPORTED_VERSION) X(DOCA_ERROR_OPERATING_SYSTEM) X(DOCA_ERROR_DRIVER) \
	X(DOCA_ERROR_UNEXPECTED) X(DOCA_ERROR_ALREADY_EXIST) X(DOCA_ERROR_FULL) \
	X(DOCA_ERROR_EMPTY) X(DOCA_ERROR_IN_PROGRESS) X(DOCA_ERROR_TOO_BIG)

#define DT_ERROR_ENTRY(e) { e, #e },
static const struct {
	doca_error_t code;
	const char *name;
} dt_errors[] = { DT_ERRORS(DT_ERROR_ENTRY) };

#define DT_NB_ERRORS (sizeof(dt_errors) / sizeof(dt_errors[0]))

/* ------------------------------------------------------------------ errors */

/* Codes 0..27, each with its identifier as name and a description. */
static void
test_error_names(void **state)
{
	const doca_error_t unknown[] = { 28, 29, 1000, INT_MAX, -1, INT_MIN };
	unsigned int i, j;

	(void)state;
	assert_int_equal(DT_NB_ERRORS, 28);
	for (i = 0; i < DT_NB_ERRORS; i++) {
		const char *name = doca_error_get_name(dt_errors[i].code);
		const char *descr = doca_error_get_descr(dt_errors[i].code);

		assert_int_equal(dt_errors[i].code, i);
		assert_non_null(name);
		assert_string_equal(name, dt_errors[i].name);
		assert_int_equal(strncmp(name, "DOCA_", 5), 0);
		assert_non_null(descr);
		assert_true(strlen(descr) > 0);
		for (j = 0; j < i; j++)
			assert_string_not_equal(name, doca_error_get_name(dt_errors[j].code));
	}
	for (i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++) {
		assert_string_equal(doca_error_get_name(unknown[i]), "DOCA_ERROR_UNKNOWN_CODE");
		assert_string_equal(doca_error_get_descr(unknown[i]), "Unknown error code");
	}
}

/* Each code has an errno of its own, and comes back from it. */
static void
test_error_errno_roundtrip(void **state)
{
	int errnos[DT_NB_ERRORS];
	unsigned int i, j;

	(void)state;
	for (i = 0; i < DT_NB_ERRORS; i++) {
		doca_error_t code = dt_errors[i].code;
		int e = rte_comch_doca_error_to_errno(code);

		if (code == DOCA_SUCCESS)
			assert_int_equal(e, 0);
		else
			assert_true(e < 0);
		assert_int_equal(rte_comch_doca_error_from_errno(e), code);
		/* a positive errno is taken as its negative */
		assert_int_equal(rte_comch_doca_error_from_errno(-e), code);
		for (j = 0; j < i; j++)
			assert_int_not_equal(e, errnos[j]);
		errnos[i] = e;
	}
	/* the two that rte_comch's -EBUSY stands for stay apart both ways */
	assert_int_equal(rte_comch_doca_error_to_errno(DOCA_ERROR_IN_USE), -EBUSY);
	assert_int_equal(rte_comch_doca_error_to_errno(DOCA_ERROR_BAD_STATE), -EBADFD);
	assert_int_equal(rte_comch_doca_error_from_errno(-EBUSY), DOCA_ERROR_IN_USE);
	assert_int_equal(rte_comch_doca_error_from_errno(-EBADFD), DOCA_ERROR_BAD_STATE);
	/* what rte_comch's calls return */
	assert_int_equal(rte_comch_doca_error_from_errno(0), DOCA_SUCCESS);
	assert_int_equal(rte_comch_doca_error_from_errno(-EINVAL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(rte_comch_doca_error_from_errno(-ENOMEM), DOCA_ERROR_NO_MEMORY);
	assert_int_equal(rte_comch_doca_error_from_errno(-EAGAIN), DOCA_ERROR_AGAIN);
	assert_int_equal(rte_comch_doca_error_from_errno(-ENOTCONN), DOCA_ERROR_NOT_CONNECTED);
	assert_int_equal(rte_comch_doca_error_from_errno(-EINPROGRESS), DOCA_ERROR_IN_PROGRESS);
	assert_int_equal(rte_comch_doca_error_from_errno(-ENOENT), DOCA_ERROR_NOT_FOUND);
	assert_int_equal(rte_comch_doca_error_from_errno(-EEXIST), DOCA_ERROR_ALREADY_EXIST);
	assert_int_equal(rte_comch_doca_error_from_errno(-ENOTSUP), DOCA_ERROR_NOT_SUPPORTED);
	assert_int_equal(rte_comch_doca_error_from_errno(-EPERM), DOCA_ERROR_NOT_PERMITTED);
	assert_int_equal(rte_comch_doca_error_from_errno(-ETIMEDOUT), DOCA_ERROR_TIME_OUT);
	assert_int_equal(rte_comch_doca_error_from_errno(-EMSGSIZE), DOCA_ERROR_TOO_BIG);
	assert_int_equal(rte_comch_doca_error_from_errno(-ENOSPC), DOCA_ERROR_FULL);
	assert_int_equal(rte_comch_doca_error_from_errno(-ECONNRESET),
			 DOCA_ERROR_CONNECTION_RESET);
	assert_int_equal(rte_comch_doca_error_from_errno(-ECONNABORTED),
			 DOCA_ERROR_CONNECTION_ABORTED);
	assert_int_equal(rte_comch_doca_error_from_errno(-EIO), DOCA_ERROR_IO_FAILED);
	/* outside the enum: -EINVAL */
	assert_int_equal(rte_comch_doca_error_to_errno(28), -EINVAL);
	assert_int_equal(rte_comch_doca_error_to_errno(-1), -EINVAL);
	assert_int_equal(rte_comch_doca_error_to_errno(INT_MAX), -EINVAL);
}

/* errno values that share a code with another: one way only. */
static void
test_error_aliases(void **state)
{
	static const struct {
		int neg_errno;
		doca_error_t code;
	} aliases[] = {
		{ -E2BIG, DOCA_ERROR_TOO_BIG },
		{ -EOVERFLOW, DOCA_ERROR_TOO_BIG },
		{ -ERANGE, DOCA_ERROR_INVALID_VALUE },
		{ -ENAMETOOLONG, DOCA_ERROR_INVALID_VALUE },
		{ -ENOBUFS, DOCA_ERROR_NO_MEMORY },
		{ -ECANCELED, DOCA_ERROR_CONNECTION_ABORTED },
		{ -EPIPE, DOCA_ERROR_CONNECTION_RESET },
		{ -ENOEXEC, DOCA_ERROR_DRIVER },
		{ -ESRCH, DOCA_ERROR_NOT_FOUND },
		{ -ENXIO, DOCA_ERROR_NOT_FOUND },
		{ -EACCES, DOCA_ERROR_NOT_PERMITTED },
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++) {
		doca_error_t code = aliases[i].code;

		assert_int_equal(rte_comch_doca_error_from_errno(aliases[i].neg_errno), code);
		assert_int_equal(rte_comch_doca_error_from_errno(-aliases[i].neg_errno), code);
		/* the code still maps to its own errno */
		assert_int_not_equal(rte_comch_doca_error_to_errno(code), aliases[i].neg_errno);
	}
	assert_int_equal(rte_comch_doca_error_to_errno(DOCA_ERROR_TOO_BIG), -EMSGSIZE);
	/* an errno with no mapping */
	assert_int_equal(rte_comch_doca_error_from_errno(-EXDEV), DOCA_ERROR_UNKNOWN);
	assert_int_equal(rte_comch_doca_error_from_errno(-ENOTTY), DOCA_ERROR_UNKNOWN);
	assert_int_equal(rte_comch_doca_error_from_errno(-100000), DOCA_ERROR_UNKNOWN);
}

static void
test_error_macros(void **state)
{
	doca_error_t r = DOCA_SUCCESS;

	(void)state;
	assert_false(DOCA_IS_ERROR(DOCA_SUCCESS));
	assert_true(DOCA_IS_ERROR(DOCA_ERROR_AGAIN));
	DOCA_ERROR_PROPAGATE(r, DOCA_SUCCESS);
	assert_int_equal(r, DOCA_SUCCESS);
	DOCA_ERROR_PROPAGATE(r, DOCA_ERROR_BAD_STATE);
	assert_int_equal(r, DOCA_ERROR_BAD_STATE);
	DOCA_ERROR_PROPAGATE(r, DOCA_ERROR_IN_USE);	/* the first error stays */
	assert_int_equal(r, DOCA_ERROR_BAD_STATE);
}

/* -------------------------------------------------------------- bad inputs */

static const union doca_data dt_zero;

/* Devices, representors, capabilities. */
static void
test_null_devices(void **state)
{
	const doca_error_t inval = DOCA_ERROR_INVALID_VALUE;
	struct doca_devinfo **list = NULL;
	struct doca_devinfo_rep **rlist = NULL;
	struct doca_devinfo *di;
	struct doca_devinfo_rep *ri;
	struct doca_dev *dev = NULL;
	struct doca_dev_rep *rep = NULL;
	enum doca_pci_func_type ft;
	char buf[DOCA_DEVINFO_IFACE_NAME_SIZE];
	uint32_t n, u32;
	uint8_t eq;

	(void)state;
	DT_ERR(doca_devinfo_create_list(NULL, &n), inval);
	DT_ERR(doca_devinfo_create_list(&list, NULL), inval);
	DT_ERR(doca_devinfo_destroy_list(NULL), inval);
	DT_OK(doca_devinfo_create_list(&list, &n));
	assert_int_equal(n, 2);
	assert_null(list[n]);
	di = list[0];

	DT_ERR(doca_devinfo_get_pci_addr_str(NULL, buf), inval);
	DT_ERR(doca_devinfo_get_pci_addr_str(di, NULL), inval);
	DT_ERR(doca_devinfo_is_equal_pci_addr(NULL, "03:00.0", &eq), inval);
	DT_ERR(doca_devinfo_is_equal_pci_addr(di, NULL, &eq), inval);
	DT_ERR(doca_devinfo_is_equal_pci_addr(di, "03:00.0", NULL), inval);
	DT_ERR(doca_devinfo_get_ibdev_name(NULL, buf, sizeof(buf)), inval);
	DT_ERR(doca_devinfo_get_ibdev_name(di, NULL, sizeof(buf)), inval);
	DT_ERR(doca_devinfo_get_ibdev_name(di, buf, 3), inval);	/* "comch0" needs 7 */
	DT_ERR(doca_devinfo_get_iface_name(NULL, buf, sizeof(buf)), inval);
	DT_ERR(doca_devinfo_get_iface_name(di, NULL, sizeof(buf)), inval);
	DT_ERR(doca_devinfo_is_equal_ibdev_name(NULL, "comch0", &eq), inval);
	DT_ERR(doca_devinfo_is_equal_ibdev_name(di, NULL, &eq), inval);
	DT_ERR(doca_devinfo_is_equal_ibdev_name(di, "comch0", NULL), inval);
	DT_ERR(doca_devinfo_get_pci_func_type(NULL, &ft), inval);
	DT_ERR(doca_devinfo_get_pci_func_type(di, NULL), inval);
	DT_ERR(doca_devinfo_get_sf_index(NULL, &u32), inval);
	DT_ERR(doca_devinfo_get_sf_index(di, NULL), inval);
	DT_ERR(doca_dev_open(NULL, &dev), inval);
	DT_ERR(doca_dev_open(di, NULL), inval);
	DT_ERR(doca_dev_close(NULL), inval);
	assert_null(doca_dev_as_devinfo(NULL));

	/* capabilities */
	DT_ERR(doca_comch_cap_get_max_name_len(NULL, &u32), inval);
	DT_ERR(doca_comch_cap_get_max_name_len(di, NULL), inval);
	DT_ERR(doca_comch_cap_get_max_msg_size(NULL, &u32), inval);
	DT_ERR(doca_comch_cap_get_max_msg_size(di, NULL), inval);
	DT_ERR(doca_comch_cap_get_max_recv_queue_size(NULL, &u32), inval);
	DT_ERR(doca_comch_cap_get_max_recv_queue_size(di, NULL), inval);
	DT_ERR(doca_comch_cap_get_max_clients(NULL, &u32), inval);
	DT_ERR(doca_comch_cap_get_max_clients(di, NULL), inval);
	DT_ERR(doca_comch_cap_get_max_send_tasks(NULL, &u32), inval);
	DT_ERR(doca_comch_cap_get_max_send_tasks(di, NULL), inval);
	DT_ERR(doca_comch_cap_server_is_supported(NULL), inval);
	DT_ERR(doca_comch_cap_client_is_supported(NULL), inval);
	DT_ERR(doca_comch_producer_cap_is_supported(NULL), inval);
	DT_ERR(doca_comch_consumer_cap_is_supported(NULL), inval);
	DT_ERR(doca_comch_producer_cap_get_max_num_tasks(NULL, &u32), inval);
	DT_ERR(doca_comch_producer_cap_get_max_num_tasks(di, NULL), inval);
	DT_ERR(doca_comch_producer_cap_get_max_buf_size(NULL, &u32), inval);
	DT_ERR(doca_comch_producer_cap_get_max_buf_size(di, NULL), inval);
	DT_ERR(doca_comch_producer_cap_get_max_buf_list_len(NULL, &u32), inval);
	DT_ERR(doca_comch_producer_cap_get_max_buf_list_len(di, NULL), inval);
	DT_ERR(doca_comch_consumer_cap_get_max_num_tasks(NULL, &u32), inval);
	DT_ERR(doca_comch_consumer_cap_get_max_num_tasks(di, NULL), inval);
	DT_ERR(doca_comch_consumer_cap_get_max_buf_size(NULL, &u32), inval);
	DT_ERR(doca_comch_consumer_cap_get_max_buf_size(di, NULL), inval);
	DT_ERR(doca_comch_consumer_cap_get_max_buf_list_len(NULL, &u32), inval);
	DT_ERR(doca_comch_consumer_cap_get_max_buf_list_len(di, NULL), inval);
	DT_ERR(doca_comch_consumer_cap_get_max_imm_data_len(NULL, &u32), inval);
	DT_ERR(doca_comch_consumer_cap_get_max_imm_data_len(di, NULL), inval);

	/* representors (the dpu device, "03:00.0", is the first) */
	DT_OK(doca_dev_open(di, &dev));
	assert_ptr_equal(doca_dev_as_devinfo(dev), di);
	DT_ERR(doca_devinfo_rep_create_list(NULL, DOCA_DEVINFO_REP_FILTER_ALL, &rlist, &n), inval);
	DT_ERR(doca_devinfo_rep_create_list(dev, DOCA_DEVINFO_REP_FILTER_ALL, NULL, &n), inval);
	DT_ERR(doca_devinfo_rep_create_list(dev, DOCA_DEVINFO_REP_FILTER_ALL, &rlist, NULL), inval);
	DT_ERR(doca_devinfo_rep_destroy_list(NULL), inval);
	DT_OK(doca_devinfo_rep_create_list(dev, DOCA_DEVINFO_REP_FILTER_ALL, &rlist, &n));
	assert_int_equal(n, 1);
	ri = rlist[0];
	DT_ERR(doca_devinfo_rep_get_pci_addr_str(NULL, buf), inval);
	DT_ERR(doca_devinfo_rep_get_pci_addr_str(ri, NULL), inval);
	DT_ERR(doca_devinfo_rep_is_equal_pci_addr(NULL, "3b:00.0", &eq), inval);
	DT_ERR(doca_devinfo_rep_is_equal_pci_addr(ri, NULL, &eq), inval);
	DT_ERR(doca_devinfo_rep_is_equal_pci_addr(ri, "3b:00.0", NULL), inval);
	DT_ERR(doca_devinfo_rep_is_equal_pci_addr(ri, "3b:00", &eq), inval);
	DT_ERR(doca_devinfo_rep_get_vuid(NULL, buf, sizeof(buf)), inval);
	DT_ERR(doca_devinfo_rep_get_vuid(ri, NULL, sizeof(buf)), inval);
	DT_ERR(doca_devinfo_rep_get_vuid(ri, buf, 2), inval);	/* "pf0" needs 4 */
	DT_ERR(doca_dev_rep_open(NULL, &rep), inval);
	DT_ERR(doca_dev_rep_open(ri, NULL), inval);
	DT_ERR(doca_dev_rep_close(NULL), inval);
	assert_null(doca_dev_rep_as_devinfo(NULL));
	DT_OK(doca_devinfo_rep_destroy_list(rlist));
	DT_OK(doca_dev_close(dev));
	DT_OK(doca_devinfo_destroy_list(list));
}

/* Engines, contexts and tasks, with no context to speak of. */
static void
test_null_pe_ctx(void **state)
{
	const doca_error_t inval = DOCA_ERROR_INVALID_VALUE;
	uint64_t not_a_ctx[32];
	struct doca_pe *pe = NULL;
	struct doca_ctx *fake = (struct doca_ctx *)not_a_ctx;
	enum doca_ctx_states st;
	union doca_data ud;
	size_t n;
	int fd;

	(void)state;
	DT_ERR(doca_pe_create(NULL), inval);
	DT_ERR(doca_pe_destroy(NULL), inval);
	assert_int_equal(doca_pe_progress(NULL), 0);
	DT_OK(doca_pe_create(&pe));
	DT_ERR(doca_pe_connect_ctx(NULL, fake), inval);
	DT_ERR(doca_pe_connect_ctx(pe, NULL), inval);
	DT_ERR(doca_pe_get_num_inflight_tasks(NULL, &n), inval);
	DT_ERR(doca_pe_get_num_inflight_tasks(pe, NULL), inval);
	DT_ERR(doca_pe_get_notification_handle(NULL, &fd), inval);
	DT_ERR(doca_pe_get_notification_handle(pe, NULL), inval);
	DT_ERR(doca_pe_request_notification(NULL), inval);
	DT_ERR(doca_pe_clear_notification(NULL, 0), inval);
	DT_OK(doca_pe_get_num_inflight_tasks(pe, &n));
	assert_int_equal(n, 0);
	assert_int_equal(doca_pe_progress(pe), 0);	/* nothing to do */

	/* NULL, and memory that is not a context, are refused alike */
	memset(not_a_ctx, 0, sizeof(not_a_ctx));
	DT_ERR(doca_ctx_start(NULL), inval);
	DT_ERR(doca_ctx_start(fake), inval);
	DT_ERR(doca_ctx_stop(NULL), inval);
	DT_ERR(doca_ctx_stop(fake), inval);
	DT_ERR(doca_ctx_get_state(NULL, &st), inval);
	DT_ERR(doca_ctx_get_state(fake, &st), inval);
	DT_ERR(doca_ctx_set_state_changed_cb(NULL, dt_dummy_state_cb), inval);
	DT_ERR(doca_ctx_set_user_data(NULL, dt_zero), inval);
	DT_ERR(doca_ctx_set_user_data(fake, dt_zero), inval);
	DT_ERR(doca_ctx_get_user_data(NULL, &ud), inval);
	DT_ERR(doca_ctx_get_num_inflight_tasks(NULL, &n), inval);

	/* tasks */
	DT_ERR(doca_task_submit(NULL), inval);
	DT_ERR(doca_task_try_submit(NULL), inval);
	DT_ERR(doca_task_get_status(NULL), inval);
	doca_task_free(NULL);
	doca_task_set_user_data(NULL, (union doca_data){ .u64 = 7 });
	assert_int_equal(doca_task_get_user_data(NULL).u64, 0);
	assert_null(doca_task_get_ctx(NULL));
	assert_null(doca_comch_task_send_as_task(NULL));
	assert_null(doca_comch_producer_task_send_as_task(NULL));
	assert_null(doca_comch_consumer_task_post_recv_as_task(NULL));
	DT_OK(doca_pe_destroy(pe));
}

/* Memory maps, inventories, buffers. */
static void
test_null_memory(void **state)
{
	const doca_error_t inval = DOCA_ERROR_INVALID_VALUE;
	struct doca_buf_inventory *inv = NULL;
	struct doca_mmap *mm = NULL;
	struct doca_buf *b = NULL, *bp;
	struct doca_dev *dev;
	char *mem = malloc(4096);
	uint16_t rc16;
	uint32_t u32;
	size_t len;
	void *p;

	(void)state;
	assert_non_null(mem);
	dev = dt_dev_open("04:00.0");
	DT_ERR(doca_mmap_create(NULL), inval);
	DT_ERR(doca_mmap_destroy(NULL), inval);
	DT_ERR(doca_mmap_start(NULL), inval);
	DT_ERR(doca_mmap_stop(NULL), inval);
	DT_OK(doca_mmap_create(&mm));
	DT_ERR(doca_mmap_add_dev(NULL, dev), inval);
	DT_ERR(doca_mmap_add_dev(mm, NULL), inval);
	DT_ERR(doca_mmap_set_max_num_devices(NULL, 1), inval);
	DT_ERR(doca_mmap_set_max_num_devices(mm, 0), inval);
	DT_ERR(doca_mmap_set_memrange(NULL, mem, 4096), inval);
	DT_ERR(doca_mmap_set_memrange(mm, NULL, 4096), inval);
	DT_ERR(doca_mmap_set_memrange(mm, mem, 0), inval);
	DT_ERR(doca_mmap_get_memrange(NULL, &p, &len), inval);
	DT_ERR(doca_mmap_get_memrange(mm, NULL, &len), inval);
	DT_ERR(doca_mmap_get_memrange(mm, &p, NULL), inval);
	DT_ERR(doca_mmap_set_permissions(NULL, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE), inval);
	DT_ERR(doca_mmap_set_free_cb(NULL, NULL, NULL), inval);
	DT_ERR(doca_mmap_start(mm), inval);	/* no memory range */
	DT_OK(doca_mmap_set_memrange(mm, mem, 4096));
	DT_OK(doca_mmap_add_dev(mm, dev));
	DT_OK(doca_mmap_start(mm));

	DT_ERR(doca_buf_inventory_create(4, NULL), inval);
	DT_ERR(doca_buf_inventory_create(0, &inv), inval);
	DT_ERR(doca_buf_inventory_destroy(NULL), inval);
	DT_ERR(doca_buf_inventory_start(NULL), inval);
	DT_ERR(doca_buf_inventory_stop(NULL), inval);
	DT_OK(doca_buf_inventory_create(4, &inv));
	DT_OK(doca_buf_inventory_start(inv));
	DT_ERR(doca_buf_inventory_get_num_elements(NULL, &u32), inval);
	DT_ERR(doca_buf_inventory_get_num_elements(inv, NULL), inval);
	DT_ERR(doca_buf_inventory_get_num_free_elements(NULL, &u32), inval);
	DT_ERR(doca_buf_inventory_get_num_free_elements(inv, NULL), inval);
	DT_ERR(doca_buf_inventory_buf_get_by_addr(NULL, mm, mem, 64, &b), inval);
	DT_ERR(doca_buf_inventory_buf_get_by_addr(inv, NULL, mem, 64, &b), inval);
	DT_ERR(doca_buf_inventory_buf_get_by_addr(inv, mm, NULL, 64, &b), inval);
	DT_ERR(doca_buf_inventory_buf_get_by_addr(inv, mm, mem, 64, NULL), inval);
	DT_ERR(doca_buf_inventory_buf_get_by_data(NULL, mm, mem, 64, &b), inval);
	DT_ERR(doca_buf_inventory_buf_get_by_data(inv, NULL, mem, 64, &b), inval);
	DT_ERR(doca_buf_inventory_buf_get_by_data(inv, mm, NULL, 64, &b), inval);
	DT_ERR(doca_buf_inventory_buf_get_by_data(inv, mm, mem, 64, NULL), inval);
	DT_OK(doca_buf_inventory_buf_get_by_data(inv, mm, mem, 64, &b));

	DT_ERR(doca_buf_get_head(NULL, &p), inval);
	DT_ERR(doca_buf_get_head(b, NULL), inval);
	DT_ERR(doca_buf_get_len(NULL, &len), inval);
	DT_ERR(doca_buf_get_len(b, NULL), inval);
	DT_ERR(doca_buf_get_data(NULL, &p), inval);
	DT_ERR(doca_buf_get_data(b, NULL), inval);
	DT_ERR(doca_buf_get_data_len(NULL, &len), inval);
	DT_ERR(doca_buf_get_data_len(b, NULL), inval);
	DT_ERR(doca_buf_set_data(NULL, mem, 1), inval);
	DT_ERR(doca_buf_set_data(b, NULL, 1), inval);
	DT_ERR(doca_buf_set_data_len(NULL, 1), inval);
	DT_ERR(doca_buf_reset_data_len(NULL), inval);
	DT_ERR(doca_buf_inc_refcount(NULL, &rc16), inval);
	DT_ERR(doca_buf_dec_refcount(NULL, &rc16), inval);
	DT_ERR(doca_buf_get_refcount(NULL, &rc16), inval);
	DT_ERR(doca_buf_get_refcount(b, NULL), inval);
	DT_ERR(doca_buf_get_next_in_list(NULL, &bp), inval);
	DT_ERR(doca_buf_get_next_in_list(b, NULL), inval);
	DT_ERR(doca_buf_get_last_in_list(NULL, &bp), inval);
	DT_ERR(doca_buf_get_last_in_list(b, NULL), inval);
	DT_ERR(doca_buf_get_list_len(NULL, &u32), inval);
	DT_ERR(doca_buf_get_list_len(b, NULL), inval);
	/* the buffer is as it was */
	DT_OK(doca_buf_get_data(b, &p));
	DT_OK(doca_buf_get_data_len(b, &len));
	assert_ptr_equal(p, mem);
	assert_int_equal(len, 64);

	DT_OK(doca_buf_dec_refcount(b, NULL));
	DT_OK(doca_buf_inventory_stop(inv));
	DT_OK(doca_buf_inventory_destroy(inv));
	DT_OK(doca_mmap_destroy(mm));
	DT_OK(doca_dev_close(dev));
	free(mem);
}

/* Servers, clients, connections, send tasks: idle ones and a connected pair. */
static void
test_null_comch(void **state)
{
	const doca_error_t inval = DOCA_ERROR_INVALID_VALUE;
	struct dt_pair *p = *state;
	struct doca_comch_server *srv = NULL;
	struct doca_comch_client *cli = NULL;
	struct doca_comch_task_send *task = NULL;
	struct doca_dev_rep *rep;
	struct doca_dev *dev;
	uint64_t v;
	uint32_t u32;

	dt_pair_open(p);
	DT_ERR(doca_comch_server_create(NULL, p->rep, "x", &srv), inval);
	DT_ERR(doca_comch_server_create(p->dpu, NULL, "x", &srv), inval);
	DT_ERR(doca_comch_server_create(p->dpu, p->rep, NULL, &srv), inval);
	DT_ERR(doca_comch_server_create(p->dpu, p->rep, "x", NULL), inval);
	DT_ERR(doca_comch_server_create(p->dpu, p->rep, "", &srv), inval);
	DT_ERR(doca_comch_server_destroy(NULL), inval);
	DT_ERR(doca_comch_server_set_max_msg_size(NULL, 64), inval);
	DT_ERR(doca_comch_server_get_max_msg_size(NULL, &u32), inval);
	DT_ERR(doca_comch_server_set_recv_queue_size(NULL, 16), inval);
	DT_ERR(doca_comch_server_get_recv_queue_size(NULL, &u32), inval);
	DT_ERR(doca_comch_server_get_device(NULL, &dev), inval);
	DT_ERR(doca_comch_server_get_device_rep(NULL, &rep), inval);
	assert_null(doca_comch_server_as_ctx(NULL));
	DT_ERR(doca_comch_server_disconnect(NULL, NULL), inval);
	DT_ERR(doca_comch_server_task_send_set_conf(NULL, dt_send_ok_cb, dt_send_err_cb, 4), inval);
	DT_ERR(doca_comch_server_task_send_alloc_init(NULL, NULL, "x", 1, &task), inval);
	DT_ERR(doca_comch_server_event_msg_recv_register(NULL, dt_recv_cb), inval);
	DT_ERR(doca_comch_server_event_connection_status_changed_register(NULL, dt_connect_cb,
									  dt_disconnect_cb), inval);
	DT_ERR(doca_comch_server_event_consumer_register(NULL, dt_new_cons_cb, dt_exp_cons_cb),
	       inval);

	DT_ERR(doca_comch_client_create(NULL, "x", &cli), inval);
	DT_ERR(doca_comch_client_create(p->host, NULL, &cli), inval);
	DT_ERR(doca_comch_client_create(p->host, "x", NULL), inval);
	DT_ERR(doca_comch_client_create(p->host, "", &cli), inval);
	DT_ERR(doca_comch_client_destroy(NULL), inval);
	DT_ERR(doca_comch_client_set_max_msg_size(NULL, 64), inval);
	DT_ERR(doca_comch_client_get_max_msg_size(NULL, &u32), inval);
	DT_ERR(doca_comch_client_set_recv_queue_size(NULL, 16), inval);
	DT_ERR(doca_comch_client_get_recv_queue_size(NULL, &u32), inval);
	DT_ERR(doca_comch_client_get_device(NULL, &dev), inval);
	assert_null(doca_comch_client_as_ctx(NULL));
	DT_ERR(doca_comch_client_get_connection(NULL, NULL), inval);
	DT_ERR(doca_comch_client_task_send_set_conf(NULL, dt_send_ok_cb, dt_send_err_cb, 4), inval);
	DT_ERR(doca_comch_client_task_send_alloc_init(NULL, NULL, "x", 1, &task), inval);
	DT_ERR(doca_comch_client_event_msg_recv_register(NULL, dt_recv_cb), inval);
	DT_ERR(doca_comch_client_event_consumer_register(NULL, dt_new_cons_cb, dt_exp_cons_cb),
	       inval);

	/* the objects' other pointer parameters */
	dt_server_create(p, 4);
	dt_client_create(p, 4);
	DT_ERR(doca_comch_server_get_max_msg_size(p->server, NULL), inval);
	DT_ERR(doca_comch_server_get_recv_queue_size(p->server, NULL), inval);
	DT_ERR(doca_comch_server_get_device(p->server, NULL), inval);
	DT_ERR(doca_comch_server_get_device_rep(p->server, NULL), inval);
	DT_ERR(doca_comch_server_task_send_set_conf(p->server, NULL, dt_send_err_cb, 4), inval);
	DT_ERR(doca_comch_server_task_send_set_conf(p->server, dt_send_ok_cb, NULL, 4), inval);
	DT_ERR(doca_comch_server_event_msg_recv_register(p->server, NULL), inval);
	DT_ERR(doca_comch_server_event_connection_status_changed_register(p->server, NULL,
									  dt_disconnect_cb), inval);
	DT_ERR(doca_comch_server_event_connection_status_changed_register(p->server, dt_connect_cb,
									  NULL), inval);
	DT_ERR(doca_comch_server_event_consumer_register(p->server, NULL, dt_exp_cons_cb), inval);
	DT_ERR(doca_comch_server_event_consumer_register(p->server, dt_new_cons_cb, NULL), inval);
	DT_ERR(doca_comch_client_get_max_msg_size(p->client, NULL), inval);
	DT_ERR(doca_comch_client_get_recv_queue_size(p->client, NULL), inval);
	DT_ERR(doca_comch_client_get_device(p->client, NULL), inval);
	DT_ERR(doca_comch_client_get_connection(p->client, NULL), inval);
	DT_ERR(doca_comch_client_task_send_set_conf(p->client, NULL, dt_send_err_cb, 4), inval);
	DT_ERR(doca_comch_client_task_send_set_conf(p->client, dt_send_ok_cb, NULL, 4), inval);
	DT_ERR(doca_comch_client_event_msg_recv_register(p->client, NULL), inval);
	DT_ERR(doca_comch_client_event_consumer_register(p->client, NULL, dt_exp_cons_cb), inval);
	DT_ERR(doca_comch_client_event_consumer_register(p->client, dt_new_cons_cb, NULL), inval);
	DT_ERR(doca_ctx_get_state(p->srec.ctx, NULL), inval);
	DT_ERR(doca_ctx_get_user_data(p->srec.ctx, NULL), inval);
	DT_ERR(doca_ctx_get_num_inflight_tasks(p->srec.ctx, NULL), inval);

	/* connected: connections and send tasks */
	dt_pair_connect(p);
	DT_ERR(doca_comch_server_disconnect(p->server, NULL), inval);
	DT_ERR(doca_comch_server_task_send_alloc_init(p->server, NULL, "x", 1, &task), inval);
	DT_ERR(doca_comch_server_task_send_alloc_init(p->server, p->sconn, NULL, 1, &task), inval);
	DT_ERR(doca_comch_server_task_send_alloc_init(p->server, p->sconn, "x", 1, NULL), inval);
	DT_ERR(doca_comch_client_task_send_alloc_init(p->client, NULL, "x", 1, &task), inval);
	DT_ERR(doca_comch_client_task_send_alloc_init(p->client, p->cconn, NULL, 1, &task), inval);
	DT_ERR(doca_comch_client_task_send_alloc_init(p->client, p->cconn, "x", 1, NULL), inval);
	/* a connection that is not the server's (the client's end) */
	DT_ERR(doca_comch_server_task_send_alloc_init(p->server, p->cconn, "x", 1, &task), inval);
	DT_ERR(doca_comch_connection_set_user_data(NULL, dt_zero), inval);
	assert_int_equal(doca_comch_connection_get_user_data(NULL).u64, 0);
	assert_null(doca_comch_server_get_server_ctx(NULL));
	assert_null(doca_comch_client_get_client_ctx(NULL));
	DT_ERR(doca_comch_connection_update_info(NULL), inval);
	DT_ERR(doca_comch_connection_get_counter(NULL, DOCA_COMCH_COUNTER_SENT_MESSAGES, &v),
	       inval);
	DT_ERR(doca_comch_connection_get_counter(p->cconn, DOCA_COMCH_COUNTER_SENT_MESSAGES, NULL),
	       inval);
	DT_ERR(doca_comch_connection_get_counter(p->cconn, (enum doca_comch_counter)99, &v), inval);
	/* nothing broke: the pair still talks */
	dt_send(p, true, "still", 5, dt_zero);
	assert_true(dt_pair_down(p));
}

/* Producers and consumers: their creation and every call on them. */
static void
test_null_fast(void **state)
{
	const doca_error_t inval = DOCA_ERROR_INVALID_VALUE;
	struct dt_pair *p = *state;
	struct doca_comch_producer *prod = NULL;
	struct doca_comch_consumer *cons = NULL;
	struct doca_comch_producer_task_send *ptask = NULL;
	struct doca_comch_consumer_task_post_recv *ctask = NULL;
	struct doca_mmap *mm = NULL;
	size_t len = 1 << 16;
	void *mem = aligned_alloc(4096, len);
	uint8_t imm[4] = { 1, 2, 3, 4 };
	uint32_t u32;

	assert_non_null(mem);
	dt_pair_up(p);
	DT_ERR(doca_comch_producer_create(NULL, &prod), inval);
	DT_ERR(doca_comch_producer_create(p->sconn, NULL), inval);
	DT_ERR(doca_comch_producer_destroy(NULL), inval);
	assert_null(doca_comch_producer_as_ctx(NULL));
	DT_ERR(doca_comch_producer_get_id(NULL, &u32), inval);
	DT_ERR(doca_comch_producer_task_send_set_conf(NULL, dt_dummy_prod_cb, dt_dummy_prod_cb, 4),
	       inval);
	DT_ERR(doca_comch_producer_task_send_alloc_init(NULL, NULL, imm, 4, 1, &ptask), inval);
	assert_null(doca_comch_producer_task_send_get_buf(NULL));
	assert_null(doca_comch_producer_task_send_get_imm_data(NULL));
	assert_int_equal(doca_comch_producer_task_send_get_imm_data_len(NULL), 0);
	assert_int_equal(doca_comch_producer_task_send_get_consumer_id(NULL), 0);
	doca_comch_producer_task_send_set_buf(NULL, NULL);
	doca_comch_producer_task_send_set_imm_data(NULL, imm, 4);
	doca_comch_producer_task_send_set_consumer_id(NULL, 1);

	DT_OK(doca_comch_producer_create(p->sconn, &prod));
	DT_ERR(doca_comch_producer_get_id(prod, NULL), inval);
	DT_ERR(doca_comch_producer_task_send_set_conf(prod, NULL, dt_dummy_prod_cb, 4), inval);
	DT_ERR(doca_comch_producer_task_send_set_conf(prod, dt_dummy_prod_cb, NULL, 4), inval);
	DT_OK(doca_comch_producer_task_send_set_conf(prod, dt_dummy_prod_cb, dt_dummy_prod_cb, 4));
	DT_OK(doca_pe_connect_ctx(p->pe, doca_comch_producer_as_ctx(prod)));
	DT_OK(doca_ctx_start(doca_comch_producer_as_ctx(prod)));
	DT_ERR(doca_comch_producer_task_send_alloc_init(prod, NULL, imm, 4, 1, NULL), inval);
	DT_OK(doca_ctx_stop(doca_comch_producer_as_ctx(prod)));
	DT_OK(doca_comch_producer_destroy(prod));

	/* consumer: the mmap of the client's side, the peer may write into it */
	DT_OK(doca_mmap_create(&mm));
	DT_OK(doca_mmap_set_memrange(mm, mem, len));
	DT_OK(doca_mmap_set_permissions(mm, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE |
					DOCA_ACCESS_FLAG_PCI_READ_WRITE));
	DT_OK(doca_mmap_add_dev(mm, p->host));
	DT_OK(doca_mmap_start(mm));
	DT_ERR(doca_comch_consumer_create(NULL, mm, &cons), inval);
	DT_ERR(doca_comch_consumer_create(p->cconn, NULL, &cons), inval);
	DT_ERR(doca_comch_consumer_create(p->cconn, mm, NULL), inval);
	DT_ERR(doca_comch_consumer_destroy(NULL), inval);
	assert_null(doca_comch_consumer_as_ctx(NULL));
	DT_ERR(doca_comch_consumer_get_id(NULL, &u32), inval);
	DT_ERR(doca_comch_consumer_set_imm_data_len(NULL, 4), inval);
	DT_ERR(doca_comch_consumer_get_imm_data_len(NULL, &u32), inval);
	DT_ERR(doca_comch_consumer_task_post_recv_set_conf(NULL, dt_dummy_cons_cb, dt_dummy_cons_cb,
							   4), inval);
	DT_ERR(doca_comch_consumer_task_post_recv_alloc_init(NULL, NULL, &ctask), inval);
	assert_null(doca_comch_consumer_task_post_recv_get_buf(NULL));
	doca_comch_consumer_task_post_recv_set_buf(NULL, NULL);
	assert_null(doca_comch_consumer_task_post_recv_get_imm_data(NULL));
	assert_int_equal(doca_comch_consumer_task_post_recv_get_imm_data_len(NULL), 0);
	assert_int_equal(doca_comch_consumer_task_post_recv_get_producer_id(NULL), 0);

	DT_OK(doca_comch_consumer_create(p->cconn, mm, &cons));
	DT_ERR(doca_comch_consumer_get_id(cons, NULL), inval);
	DT_ERR(doca_comch_consumer_get_imm_data_len(cons, NULL), inval);
	DT_ERR(doca_comch_consumer_task_post_recv_set_conf(cons, NULL, dt_dummy_cons_cb, 4), inval);
	DT_ERR(doca_comch_consumer_task_post_recv_set_conf(cons, dt_dummy_cons_cb, NULL, 4), inval);
	DT_ERR(doca_comch_consumer_task_post_recv_alloc_init(cons, NULL, NULL), inval);
	DT_OK(doca_comch_consumer_destroy(cons));
	DT_OK(doca_mmap_destroy(mm));
	free(mem);
	assert_true(dt_pair_down(p));
}

static int
dt_setup(void **state)
{
	struct dt_pair *p = calloc(1, sizeof(*p));

	*state = p;
	return p == NULL ? -1 : 0;
}

static int
dt_teardown(void **state)
{
	struct dt_pair *p = *state;

	dt_pair_down(p);
	free(p);
	return 0;
}

/* The rte_comch device the layer opened for this process's mapping, on side role. */
static struct rte_comch_dev *
dt_rdev_of(enum rte_comch_dev_role role)
{
	struct rte_comch_dev_info info;
	struct rte_comch_dev *d;
	char tag[32];
	unsigned int id;

	/* dt_env_setup()'s domain: "dc<pid>x<n>" */
	snprintf(tag, sizeof(tag), "dc%dx", (int)getpid());
	for (id = 0; id < UINT16_MAX; id++) {
		d = rte_comch_dev_get_by_id(id);
		if (d != NULL && rte_comch_dev_info_get(d, &info) == 0 && info.role == role &&
		    strstr(info.name, tag) != NULL)
			return d;
		if (d == NULL && id > 64)
			break;
	}
	return NULL;
}

/* Every capability getter gives the device's own limit (rte_comch_dev_info). */
static void
dt_check_caps(const char *pci, enum rte_comch_dev_role role)
{
	struct rte_comch_dev_info info;
	struct rte_comch_dev *rdev;
	struct doca_devinfo *di;
	struct doca_dev *dev;
	uint32_t v;

	dev = dt_dev_open(pci);
	di = doca_dev_as_devinfo(dev);
	rdev = dt_rdev_of(role);
	assert_non_null(rdev);
	assert_int_equal(rte_comch_dev_info_get(rdev, &info), 0);
	DT_OK(doca_comch_cap_get_max_name_len(di, &v));
	assert_int_equal(v, info.max_name_len);
	DT_OK(doca_comch_cap_get_max_msg_size(di, &v));
	assert_int_equal(v, info.max_msg_size);
	DT_OK(doca_comch_cap_get_max_recv_queue_size(di, &v));
	assert_int_equal(v, info.max_recv_queue_size);
	DT_OK(doca_comch_cap_get_max_clients(di, &v));
	assert_int_equal(v, info.max_clients);
	DT_OK(doca_comch_cap_get_max_send_tasks(di, &v));
	assert_int_equal(v, info.max_send_tasks);
	DT_OK(doca_comch_producer_cap_get_max_num_tasks(di, &v));
	assert_int_equal(v, info.max_fast_tasks);
	DT_OK(doca_comch_consumer_cap_get_max_num_tasks(di, &v));
	assert_int_equal(v, info.max_fast_tasks);
	DT_OK(doca_comch_producer_cap_get_max_buf_size(di, &v));
	assert_int_equal(v, info.max_buf_size > UINT32_MAX ? UINT32_MAX : info.max_buf_size);
	DT_OK(doca_comch_consumer_cap_get_max_buf_size(di, &v));
	assert_int_equal(v, info.max_buf_size > UINT32_MAX ? UINT32_MAX : info.max_buf_size);
	DT_OK(doca_comch_producer_cap_get_max_buf_list_len(di, &v));
	assert_int_equal(v, 1);
	DT_OK(doca_comch_consumer_cap_get_max_buf_list_len(di, &v));
	assert_int_equal(v, 1);
	DT_OK(doca_comch_consumer_cap_get_max_imm_data_len(di, &v));
	assert_int_equal(v, info.max_imm_data_len);
	/* the sides: each device is pinned to one by its mapping */
	DT_ERR(doca_comch_cap_server_is_supported(di),
	       (info.capa & RTE_COMCH_CAPA_SERVER) ? DOCA_SUCCESS : DOCA_ERROR_NOT_SUPPORTED);
	DT_ERR(doca_comch_cap_client_is_supported(di),
	       (info.capa & RTE_COMCH_CAPA_CLIENT) ? DOCA_SUCCESS : DOCA_ERROR_NOT_SUPPORTED);
	DT_ERR(doca_comch_producer_cap_is_supported(di),
	       (info.capa & RTE_COMCH_CAPA_PRODUCER) ? DOCA_SUCCESS : DOCA_ERROR_NOT_SUPPORTED);
	DT_ERR(doca_comch_consumer_cap_is_supported(di),
	       (info.capa & RTE_COMCH_CAPA_CONSUMER) ? DOCA_SUCCESS : DOCA_ERROR_NOT_SUPPORTED);
	DT_OK(doca_dev_close(dev));
}

static void
test_caps_values(void **state)
{
	(void)state;
	dt_check_caps("03:00.0", RTE_COMCH_ROLE_DPU);
	dt_check_caps("04:00.0", RTE_COMCH_ROLE_HOST);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_error_names),
		cmocka_unit_test(test_error_errno_roundtrip),
		cmocka_unit_test(test_error_aliases),
		cmocka_unit_test(test_error_macros),
		cmocka_unit_test(test_null_devices),
		cmocka_unit_test(test_caps_values),
		cmocka_unit_test(test_null_pe_ctx),
		cmocka_unit_test(test_null_memory),
		cmocka_unit_test_setup_teardown(test_null_comch, dt_setup, dt_teardown),
		cmocka_unit_test_setup_teardown(test_null_fast, dt_setup, dt_teardown),
	};
	int ret;

	/* the mapping before any DOCA call: the layer reads it once */
	dt_env_setup();
	ret = cmocka_run_group_tests_name("doca_compat", tests, NULL, NULL);
	dt_env_teardown();
	return ret;
}
