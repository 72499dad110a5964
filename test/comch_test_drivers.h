/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef COMCH_TEST_DRIVERS_H
#define COMCH_TEST_DRIVERS_H

#include <stdbool.h>
#include <stddef.h>

/* What a driver can do that some tests need (ct_driver_desc()->caps). */
enum {
	/* The peer may be another process (forked children, deaths, floods). */
	CT_CAP_PROCESSES = 1u << 0,
	/*
	 * A send wakes the peer's sleeping engine by itself, at once, rather
	 * than at the sender's next progress (notify NULL; mlx5: the peer's
	 * completion event, raised by the hardware for the SEND itself).
	 * Cases that check a wake-up waits for the sender's progress check, on
	 * such a driver, only that the wake-up comes.
	 */
	CT_CAP_WAKE_AT_SEND = 1u << 1,
};

/** A driver of the conformance suite. */
struct ct_driver_desc {
	const char *name;
	unsigned int caps;
	/**
	 * Once per test binary, after EAL (NULL: nothing): what the driver needs
	 * in a test (a fake provider in place of hardware). 0 or -errno.
	 */
	int (*setup)(void);
	/** Its devargs from the harness's keys (kv, without the driver's prefix). */
	int (*devargs)(char *buf, size_t len, const char *kv);
};

/** The entry of the driver the tests run against (COMCH_TEST_DRIVER), or NULL. */
const struct ct_driver_desc *ct_driver_desc(void);
/** Whether that driver has every capability of caps. */
bool ct_driver_can(unsigned int caps);

#endif /* COMCH_TEST_DRIVERS_H */
