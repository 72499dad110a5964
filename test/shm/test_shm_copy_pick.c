/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The shm driver's choice of copy for large sends (shm_copy.h, devarg
 * nt_auto), driven with made-up cycle counts: which copy each send uses,
 * which sends are timed, when the other copy takes over and when it does not.
 */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "shm_copy.h"

#define LEN 4096

/* The TSC of the made-up clock. */
static uint64_t clock_now;

/*
 * Run n sends, each taking cyc cycles of the made-up clock; count those that
 * copied non-temporally and those that read the clock.
 */
static void
turn(struct shm_copy_pick *p, unsigned int n, uint64_t cyc, unsigned int *nt, unsigned int *timed)
{
	uint64_t t0;
	unsigned int i;
	bool ends;

	*nt = 0;
	*timed = 0;
	for (i = 0; i < n; i++) {
		t0 = shm_copy_pick_starts(p) ? clock_now : 0;
		ends = shm_copy_pick_ends(p);
		*timed += t0 != 0 || ends;
		*nt += shm_copy_pick_nt(p);
		clock_now += cyc;
		shm_copy_pick_done(p, LEN, t0, ends ? clock_now : 0);
	}
}

/* A new choice, and the made-up clock restarted (never 0: a read of 0 means none). */
static void
pick_new(struct shm_copy_pick *p, bool adaptive)
{
	clock_now = 1;
	shm_copy_pick_init(p, adaptive);
}

static void
test_fixed_without_nt_auto(void **state)
{
	struct shm_copy_pick p;
	unsigned int nt, timed;

	(void)state;
	pick_new(&p, false);
	turn(&p, 3 * (SHM_COPY_EPOCH + SHM_COPY_TIMED), 1, &nt, &timed);
	assert_int_equal(nt, 3 * (SHM_COPY_EPOCH + SHM_COPY_TIMED));
	assert_int_equal(timed, 0);
}

static void
test_turns_and_timing(void **state)
{
	struct shm_copy_pick p;
	unsigned int nt, timed;

	(void)state;
	pick_new(&p, true);
	/* The incumbent (non-temporal) first, its last SHM_COPY_TIMED timed. */
	turn(&p, SHM_COPY_EPOCH - SHM_COPY_TIMED, 1000, &nt, &timed);
	assert_int_equal(nt, SHM_COPY_EPOCH - SHM_COPY_TIMED);
	assert_int_equal(timed, 0);
	turn(&p, SHM_COPY_TIMED, 1000, &nt, &timed);
	assert_int_equal(nt, SHM_COPY_TIMED);
	assert_int_equal(timed, 2); /* the clock read before the first, after the last */
	assert_int_equal(p.cyc[0], SHM_COPY_TIMED * 1000);
	assert_int_equal(p.bytes[0], SHM_COPY_TIMED * LEN);
	/* Then the other (ordinary), all of its sends timed. */
	turn(&p, SHM_COPY_TIMED, 1000, &nt, &timed);
	assert_int_equal(nt, 0);
	assert_int_equal(timed, 2);
	/* As fast: the incumbent stays. */
	assert_true(p.nt);
	assert_false(p.probing);
}

static void
test_faster_takes_over_and_back(void **state)
{
	struct shm_copy_pick p;
	unsigned int nt, timed;

	(void)state;
	pick_new(&p, true);
	turn(&p, SHM_COPY_EPOCH, 1000, &nt, &timed);
	/* Ordinary copies 20% faster: they take over. */
	turn(&p, SHM_COPY_TIMED, 800, &nt, &timed);
	assert_false(p.nt);
	turn(&p, SHM_COPY_EPOCH, 800, &nt, &timed);
	assert_int_equal(nt, 0);
	/* Then non-temporal ones 20% faster than those: back. */
	turn(&p, SHM_COPY_TIMED, 640, &nt, &timed);
	assert_int_equal(nt, SHM_COPY_TIMED);
	assert_true(p.nt);
	turn(&p, SHM_COPY_EPOCH, 640, &nt, &timed);
	assert_int_equal(nt, SHM_COPY_EPOCH);
}

static void
test_hysteresis(void **state)
{
	struct shm_copy_pick p;
	unsigned int nt, timed;

	(void)state;
	pick_new(&p, true);
	turn(&p, SHM_COPY_EPOCH, 1000, &nt, &timed);
	/* 5% faster is not enough. */
	turn(&p, SHM_COPY_TIMED, 950, &nt, &timed);
	assert_true(p.nt);
	/* The sums restart with each turn: an old slow epoch does not count. */
	turn(&p, SHM_COPY_EPOCH, 700, &nt, &timed);
	turn(&p, SHM_COPY_TIMED, 800, &nt, &timed);
	assert_true(p.nt);
}

static void
test_better(void **state)
{
	(void)state;
	assert_true(shm_copy_pick_better(1000, 4096, 899, 4096));
	assert_false(shm_copy_pick_better(1000, 4096, 900, 4096));
	/* Per byte: half the bytes in 60% of the cycles is slower. */
	assert_false(shm_copy_pick_better(1000, 4096, 600, 2048));
	assert_true(shm_copy_pick_better(1000, 2048, 1700, 4096));
	/* Nothing measured: no change. */
	assert_false(shm_copy_pick_better(0, 0, 10, 4096));
	assert_false(shm_copy_pick_better(1000, 4096, 0, 0));
}

/* Both copies put the same bytes, at every destination alignment and a few lengths. */
static void
test_copy_large_bytes(void **state)
{
	static const size_t lens[] = { 1024, 1031, 4096, 4099, 65536 + 17 };
	struct shm_copy_pick p;
	uint8_t *src = malloc(70000), *dst = malloc(70000 + 64);
	size_t i, l, a;
	unsigned int mode;

	(void)state;
	assert_non_null(src);
	assert_non_null(dst);
	for (i = 0; i < 70000; i++)
		src[i] = (uint8_t)(i * 7 + 3);
	for (mode = 0; mode < 2; mode++) {
		shm_copy_pick_init(&p, true);
		p.nt = mode != 0;
		for (l = 0; l < RTE_DIM(lens); l++) {
			for (a = 0; a < 64; a++) {
				memset(dst, 0, 70000 + 64);
				shm_copy_large(&p, dst + a, src, lens[l]);
				assert_memory_equal(dst + a, src, lens[l]);
				for (i = 0; i < a; i++)
					assert_int_equal(dst[i], 0);
				assert_int_equal(dst[a + lens[l]], 0);
			}
		}
	}
	free(src);
	free(dst);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixed_without_nt_auto),
		cmocka_unit_test(test_turns_and_timing),
		cmocka_unit_test(test_faster_takes_over_and_back),
		cmocka_unit_test(test_hysteresis),
		cmocka_unit_test(test_better),
		cmocka_unit_test(test_copy_large_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
