/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/* DOCA error codes: names, descriptions, and the errno each one stands for. */

#include <errno.h>

#include <rte_common.h>

#include "doca_obj_private.h"

struct dc_error_desc {
	const char *name;
	const char *descr;
	int neg_errno;	/* what rte_comch returns for it; unique per code */
};

static const struct dc_error_desc dc_errors[] = {
	[DOCA_SUCCESS] = { "DOCA_SUCCESS", "Success", 0 },
	[DOCA_ERROR_UNKNOWN] = { "DOCA_ERROR_UNKNOWN", "Unknown error", -ENOTRECOVERABLE },
	[DOCA_ERROR_NOT_PERMITTED] = { "DOCA_ERROR_NOT_PERMITTED", "Operation not permitted",
		-EPERM },
	[DOCA_ERROR_IN_USE] = { "DOCA_ERROR_IN_USE", "Resource in use", -EBUSY },
	[DOCA_ERROR_NOT_SUPPORTED] = { "DOCA_ERROR_NOT_SUPPORTED", "Operation not supported",
		-ENOTSUP },
	[DOCA_ERROR_AGAIN] = { "DOCA_ERROR_AGAIN", "Resource temporarily unavailable, try again",
		-EAGAIN },
	[DOCA_ERROR_INVALID_VALUE] = { "DOCA_ERROR_INVALID_VALUE", "Invalid input", -EINVAL },
	[DOCA_ERROR_NO_MEMORY] = { "DOCA_ERROR_NO_MEMORY", "Memory allocation failure", -ENOMEM },
	[DOCA_ERROR_INITIALIZATION] = { "DOCA_ERROR_INITIALIZATION", "Resource initialization failure",
		-ENODEV },
	[DOCA_ERROR_TIME_OUT] = { "DOCA_ERROR_TIME_OUT", "Timer expired waiting for resource",
		-ETIMEDOUT },
	[DOCA_ERROR_SHUTDOWN] = { "DOCA_ERROR_SHUTDOWN", "Shut down in process or completed",
		-ESHUTDOWN },
	[DOCA_ERROR_CONNECTION_RESET] = { "DOCA_ERROR_CONNECTION_RESET", "Connection reset by peer",
		-ECONNRESET },
	[DOCA_ERROR_CONNECTION_ABORTED] = { "DOCA_ERROR_CONNECTION_ABORTED", "Connection aborted",
		-ECONNABORTED },
	[DOCA_ERROR_CONNECTION_INPROGRESS] = { "DOCA_ERROR_CONNECTION_INPROGRESS",
		"Connection in progress", -EALREADY },
	[DOCA_ERROR_NOT_CONNECTED] = { "DOCA_ERROR_NOT_CONNECTED", "Not connected", -ENOTCONN },
	[DOCA_ERROR_NO_LOCK] = { "DOCA_ERROR_NO_LOCK", "Unable to acquire required lock",
		-ENOLCK },
	[DOCA_ERROR_NOT_FOUND] = { "DOCA_ERROR_NOT_FOUND", "Resource not found", -ENOENT },
	[DOCA_ERROR_IO_FAILED] = { "DOCA_ERROR_IO_FAILED", "Input/output operation failed", -EIO },
	[DOCA_ERROR_BAD_STATE] = { "DOCA_ERROR_BAD_STATE", "Bad state", -EBADFD },
	[DOCA_ERROR_UNSUPPORTED_VERSION] = { "DOCA_ERROR_UNSUPPORTED_VERSION",
		"Unsupported version", -EPROTONOSUPPORT },
	[DOCA_ERROR_OPERATING_SYSTEM] = { "DOCA_ERROR_OPERATING_SYSTEM",
		"Operating system call failure", -ENOSYS },
	[DOCA_ERROR_DRIVER] = { "DOCA_ERROR_DRIVER", "Driver error", -EPROTO },
	[DOCA_ERROR_UNEXPECTED] = { "DOCA_ERROR_UNEXPECTED", "Unexpected result", -EFAULT },
	[DOCA_ERROR_ALREADY_EXIST] = { "DOCA_ERROR_ALREADY_EXIST", "Resource already exists",
		-EEXIST },
	[DOCA_ERROR_FULL] = { "DOCA_ERROR_FULL", "No more space in resource", -ENOSPC },
	[DOCA_ERROR_EMPTY] = { "DOCA_ERROR_EMPTY", "No entry is available in resource", -ENODATA },
	[DOCA_ERROR_IN_PROGRESS] = { "DOCA_ERROR_IN_PROGRESS", "Operation in progress",
		-EINPROGRESS },
	[DOCA_ERROR_TOO_BIG] = { "DOCA_ERROR_TOO_BIG", "Requested size is too big", -EMSGSIZE },
};

/* errno values rte_comch returns that share a DOCA code with another errno. */
static const struct {
	int neg_errno;
	doca_error_t error;
} dc_errno_aliases[] = {
	{ -E2BIG, DOCA_ERROR_TOO_BIG },
	{ -ERANGE, DOCA_ERROR_INVALID_VALUE },
	{ -ENAMETOOLONG, DOCA_ERROR_INVALID_VALUE },
	{ -EOVERFLOW, DOCA_ERROR_TOO_BIG },
	{ -ENOBUFS, DOCA_ERROR_NO_MEMORY },
	{ -ECANCELED, DOCA_ERROR_CONNECTION_ABORTED },
	{ -EPIPE, DOCA_ERROR_CONNECTION_RESET },
	{ -ENOEXEC, DOCA_ERROR_DRIVER },
	{ -ESRCH, DOCA_ERROR_NOT_FOUND },
	{ -ENXIO, DOCA_ERROR_NOT_FOUND },
	{ -EACCES, DOCA_ERROR_NOT_PERMITTED },
};

static bool
dc_error_known(doca_error_t error)
{
	return (unsigned int)error < RTE_DIM(dc_errors) && dc_errors[error].name != NULL;
}

const char *
doca_error_get_name(doca_error_t error)
{
	return dc_error_known(error) ? dc_errors[error].name : "DOCA_ERROR_UNKNOWN_CODE";
}

const char *
doca_error_get_descr(doca_error_t error)
{
	return dc_error_known(error) ? dc_errors[error].descr : "Unknown error code";
}

doca_error_t
rte_comch_doca_error_from_errno(int neg_errno)
{
	unsigned int i;

	/* Success first: per-message calls ask for it. */
	if (likely(neg_errno == 0))
		return DOCA_SUCCESS;
	if (neg_errno > 0)
		neg_errno = -neg_errno;
	for (i = 0; i < RTE_DIM(dc_errors); i++)
		if (dc_errors[i].neg_errno == neg_errno)
			return (doca_error_t)i;
	for (i = 0; i < RTE_DIM(dc_errno_aliases); i++)
		if (dc_errno_aliases[i].neg_errno == neg_errno)
			return dc_errno_aliases[i].error;
	return DOCA_ERROR_UNKNOWN;
}

int
rte_comch_doca_error_to_errno(doca_error_t error)
{
	if (!dc_error_known(error))
		return -EINVAL;
	return dc_errors[error].neg_errno;
}
