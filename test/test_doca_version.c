/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * DOCA compatibility layer: doca_version.h and doca_build_config.h. The
 * version a program is built against and runs with, the comparison macros (in
 * C and in #if), and DOCA_ARCH_DPU: defined for a BlueField-side build (the
 * header of <includedir>/rte_comch_doca/dpu first on the include path, as
 * rte-comch-doca-dpu gives it; this file is built that way as
 * test_doca_version_dpu, with DT_WANT_DPU), undefined for a host-side one, in
 * any file that includes a DOCA header.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <doca_comch.h>
#include <doca_version.h>

#include "test_doca_compat.h"

#if defined(DT_WANT_DPU) && !defined(DOCA_ARCH_DPU)
#error "a BlueField-side build gets no DOCA_ARCH_DPU from doca_build_config.h"
#endif
#if !defined(DT_WANT_DPU) && defined(DOCA_ARCH_DPU)
#error "a host-side build gets DOCA_ARCH_DPU"
#endif
/* The comparisons work in the preprocessor too. */
#if !DOCA_VERSION_LTE_CURRENT(3, 3, 0) || DOCA_VERSION_LTE_CURRENT(3, 4, 0)
#error "DOCA_VERSION_LTE_CURRENT() in #if"
#endif

static void
test_version_strings(void **state)
{
	char s[32];

	(void)state;
	snprintf(s, sizeof(s), "%d.%d.%d", DOCA_VERSION_MAJOR, DOCA_VERSION_MINOR,
		 DOCA_VERSION_PATCH);
	assert_string_equal(doca_version(), DOCA_VERSION_STRING);
	assert_string_equal(doca_version(), s);
	/* the library this program runs with is the one it was built against */
	assert_non_null(doca_version_runtime());
	assert_string_equal(doca_version_runtime(), doca_version());
}

static void
test_version_compare(void **state)
{
	(void)state;
	assert_true(DOCA_VERSION_EQ_CURRENT(DOCA_VERSION_MAJOR, DOCA_VERSION_MINOR,
					    DOCA_VERSION_PATCH));
	assert_false(DOCA_VERSION_EQ_CURRENT(DOCA_VERSION_MAJOR, DOCA_VERSION_MINOR,
					     DOCA_VERSION_PATCH + 1));
	assert_true(DOCA_VERSION_LTE_CURRENT(2, 7, 0));
	assert_true(DOCA_VERSION_LTE_CURRENT(3, 3, 0));
	assert_false(DOCA_VERSION_LTE_CURRENT(3, 3, 1));
	assert_false(DOCA_VERSION_LTE_CURRENT(4, 0, 0));
	/* the exact number orders as versions do */
	assert_true(DOCA_VERSION_CALC_EXACT(3, 3, 0) == DOCA_VERSION_EXACT);
	assert_true(DOCA_VERSION_CALC_EXACT(3, 2, 9999) < DOCA_VERSION_EXACT);
	assert_true(DOCA_VERSION_CALC(3, 3, 0) == DOCA_VERSION_OFFICIAL);
}

static void
test_build_side(void **state)
{
	(void)state;
#ifdef DT_WANT_DPU
	assert_int_equal(DOCA_ARCH_DPU, 1);
#else
	print_message("  host side: DOCA_ARCH_DPU undefined\n");
#endif
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_version_strings),
		cmocka_unit_test(test_version_compare),
		cmocka_unit_test(test_build_side),
	};

	return cmocka_run_group_tests_name("doca_version", tests, NULL, NULL);
}
