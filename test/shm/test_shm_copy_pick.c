/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The shm driver's choice of copy (shm_copy.h, devarg nt_auto), driven with
 * made-up cycle counts: which way each send takes, which sends are timed,
 * when another way takes over and when it does not; for large sends (two
 * ways) and for those that fit a bounce chunk (three).
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

/* Sends of the last turn() by way taken. */
static unsigned int by_way[3];

/*
 * Run n sends, each taking cyc cycles of the made-up clock; count those that
 * copied non-temporally, those that read the clock, and (by_way) each way's.
 */
static void
turn(struct shm_copy_pick *p, unsigned int n, uint64_t cyc, unsigned int *nt, unsigned int *timed)
{
	enum shm_copy_way way;
	uint64_t t0;
	unsigned int i;
	bool ends;

	*nt = 0;
	*timed = 0;
	memset(by_way, 0, sizeof(by_way));
	for (i = 0; i < n; i++) {
		t0 = shm_copy_pick_starts(p) ? clock_now : 0;
		ends = shm_copy_pick_ends(p);
		*timed += t0 != 0 || ends;
		way = shm_copy_pick_way(p);
		by_way[way]++;
		*nt += way == SHM_COPY_NT;
		clock_now += cyc;
		shm_copy_pick_done(p, LEN, t0, ends ? clock_now : 0);
	}
}

/* A new choice of nb_ways, and the made-up clock restarted (never 0: a read of 0 means none). */
static void
pick_new_ways(struct shm_copy_pick *p, bool adaptive, uint8_t nb_ways, enum shm_copy_way first)
{
	clock_now = 1;
	shm_copy_pick_init(p, adaptive, nb_ways, first);
}

/* The large sends' choice: non-temporal first, or ordinary. */
static void
pick_new(struct shm_copy_pick *p, bool adaptive)
{
	pick_new_ways(p, adaptive, 2, SHM_COPY_NT);
}

static void
test_fixed_without_nt_auto(void **state)
{
	struct shm_copy_pick p;
	unsigned int nt, timed;

	(void)state;
	pick_new(&p, false);
	turn(&p, 3 * (SHM_COPY_EPOCH + SHM_COPY_PROBE), 1, &nt, &timed);
	assert_int_equal(nt, 3 * (SHM_COPY_EPOCH + SHM_COPY_PROBE));
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
	/*
	 * Then the other (ordinary): its first sends warm up what the
	 * incumbent left cold, its last SHM_COPY_TIMED timed.
	 */
	turn(&p, SHM_COPY_PROBE - SHM_COPY_TIMED, 1000, &nt, &timed);
	assert_int_equal(nt, 0);
	assert_int_equal(timed, 0);
	turn(&p, SHM_COPY_TIMED, 1000, &nt, &timed);
	assert_int_equal(nt, 0);
	assert_int_equal(timed, 2);
	assert_int_equal(p.cyc[1], 0); /* compared and reset */
	/* As fast: the incumbent stays. */
	assert_int_equal(p.way, SHM_COPY_NT);
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
	turn(&p, SHM_COPY_PROBE, 800, &nt, &timed);
	assert_int_equal(p.way, SHM_COPY_ORDINARY);
	turn(&p, SHM_COPY_EPOCH, 800, &nt, &timed);
	assert_int_equal(nt, 0);
	/* Then non-temporal ones 20% faster than those: back. */
	turn(&p, SHM_COPY_PROBE, 640, &nt, &timed);
	assert_int_equal(nt, SHM_COPY_PROBE);
	assert_int_equal(p.way, SHM_COPY_NT);
	turn(&p, SHM_COPY_EPOCH, 640, &nt, &timed);
	assert_int_equal(nt, SHM_COPY_EPOCH);
}

/* The other way's first sends warm up: slow as they are, they do not count. */
static void
test_probe_warm_up_not_counted(void **state)
{
	struct shm_copy_pick p;
	unsigned int nt, timed;

	(void)state;
	pick_new(&p, true);
	turn(&p, SHM_COPY_EPOCH, 1000, &nt, &timed);
	turn(&p, SHM_COPY_PROBE - SHM_COPY_TIMED, 5000, &nt, &timed);
	turn(&p, SHM_COPY_TIMED, 800, &nt, &timed);
	assert_int_equal(p.way, SHM_COPY_ORDINARY);
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
	turn(&p, SHM_COPY_PROBE, 950, &nt, &timed);
	assert_int_equal(p.way, SHM_COPY_NT);
	/* The sums restart with each turn: an old slow epoch does not count. */
	turn(&p, p.left, 700, &nt, &timed);
	turn(&p, SHM_COPY_PROBE, 800, &nt, &timed);
	assert_int_equal(p.way, SHM_COPY_NT);
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
	/* 64 sends of 1 GiB taking seconds: no overflow of the products. */
	assert_true(shm_copy_pick_better(2000000000ull, 64ull << 30, 1600000000ull, 64ull << 30));
	assert_false(shm_copy_pick_better(3000000000ull, 64ull << 30, 2850000000ull, 64ull << 30));
	assert_false(shm_copy_pick_better(10000000000ull, 64ull << 30, 12000000000ull,
					  64ull << 30));
	/* Nothing measured: no change. */
	assert_false(shm_copy_pick_better(0, 0, 10, 4096));
	assert_false(shm_copy_pick_better(1000, 4096, 0, 0));
}

/*
 * The sends that fit a bounce chunk: three ways, the bounce first; the
 * others probed in turn, one per epoch, and the faster taking over.
 */
static void
test_three_ways_in_turn(void **state)
{
	struct shm_copy_pick p;
	unsigned int nt, timed;

	(void)state;
	pick_new_ways(&p, true, 3, SHM_COPY_BOUNCE);
	turn(&p, SHM_COPY_EPOCH, 1000, &nt, &timed);
	assert_int_equal(by_way[SHM_COPY_BOUNCE], SHM_COPY_EPOCH);
	/* The first probe: ordinary copies, as fast: the bounce stays. */
	turn(&p, SHM_COPY_PROBE, 1000, &nt, &timed);
	assert_int_equal(by_way[SHM_COPY_ORDINARY], SHM_COPY_PROBE);
	assert_int_equal(p.way, SHM_COPY_BOUNCE);
	/* a win: the incumbent's next turn is twice as long */
	assert_int_equal(p.left, 2 * SHM_COPY_EPOCH);
	turn(&p, 2 * SHM_COPY_EPOCH, 1000, &nt, &timed);
	assert_int_equal(by_way[SHM_COPY_BOUNCE], 2 * SHM_COPY_EPOCH);
	/* The second: non-temporal copies, 20% faster: they take over. */
	turn(&p, SHM_COPY_PROBE, 800, &nt, &timed);
	assert_int_equal(nt, SHM_COPY_PROBE);
	assert_int_equal(p.way, SHM_COPY_NT);
	turn(&p, SHM_COPY_EPOCH, 800, &nt, &timed);
	assert_int_equal(nt, SHM_COPY_EPOCH);
	/* Then the two others in turn, never the incumbent: the bounce, then ordinary. */
	turn(&p, SHM_COPY_PROBE, 800, &nt, &timed);
	assert_int_equal(by_way[SHM_COPY_BOUNCE], SHM_COPY_PROBE);
	turn(&p, p.left, 800, &nt, &timed);
	turn(&p, SHM_COPY_PROBE, 800, &nt, &timed);
	assert_int_equal(by_way[SHM_COPY_ORDINARY], SHM_COPY_PROBE);
	assert_int_equal(p.way, SHM_COPY_NT);
}

/*
 * Each win of the incumbent doubles its next turn, up to SHM_COPY_EPOCH_MAX;
 * a change of way starts again from SHM_COPY_EPOCH.
 */
static void
test_turns_lengthen_while_the_incumbent_wins(void **state)
{
	struct shm_copy_pick p;
	unsigned int nt, timed, i;
	uint32_t epoch = SHM_COPY_EPOCH;

	(void)state;
	pick_new(&p, true);
	for (i = 0; i < 8; i++) {
		assert_int_equal(p.left, epoch);
		turn(&p, epoch, 1000, &nt, &timed);
		assert_int_equal(nt, epoch);
		turn(&p, SHM_COPY_PROBE, 1000, &nt, &timed);
		assert_int_equal(nt, 0);
		epoch = RTE_MIN(2 * epoch, (uint32_t)SHM_COPY_EPOCH_MAX);
	}
	assert_int_equal(p.left, SHM_COPY_EPOCH_MAX);
	turn(&p, SHM_COPY_EPOCH_MAX, 1000, &nt, &timed);
	/* ordinary copies 20% faster: they take over, on turns of SHM_COPY_EPOCH again */
	turn(&p, SHM_COPY_PROBE, 800, &nt, &timed);
	assert_int_equal(p.way, SHM_COPY_ORDINARY);
	assert_int_equal(p.left, SHM_COPY_EPOCH);
}

/* Without nt_auto, sends that fit a bounce chunk always bounce. */
static void
test_three_ways_fixed(void **state)
{
	struct shm_copy_pick p;
	unsigned int nt, timed;

	(void)state;
	pick_new_ways(&p, false, 3, SHM_COPY_BOUNCE);
	turn(&p, 3 * (SHM_COPY_EPOCH + SHM_COPY_PROBE), 1, &nt, &timed);
	assert_int_equal(by_way[SHM_COPY_BOUNCE], 3 * (SHM_COPY_EPOCH + SHM_COPY_PROBE));
	assert_int_equal(timed, 0);
}

/*
 * Each way puts the same bytes where it should, at every destination
 * alignment and a few lengths, and touches nothing else; a non-temporal way
 * below nt_min copies as an ordinary one.
 */
static void
test_copy_picked_bytes(void **state)
{
	static const size_t lens[] = { 81, 1024, 1031, 4096, 4099, 65536 + 17 };
	struct shm_copy_pick p;
	uint8_t *src = malloc(70000), *dst = malloc(70000 + 64), *bounce = malloc(70000 + 64);
	uint8_t *to;
	size_t i, l, a;
	unsigned int mode;

	(void)state;
	assert_non_null(src);
	assert_non_null(dst);
	assert_non_null(bounce);
	for (i = 0; i < 70000; i++)
		src[i] = (uint8_t)(i * 7 + 3);
	for (mode = 0; mode < 3; mode++) {
		shm_copy_pick_init(&p, true, 3, (enum shm_copy_way)mode);
		for (l = 0; l < RTE_DIM(lens); l++) {
			for (a = 0; a < 64; a++) {
				memset(dst, 0, 70000 + 64);
				memset(bounce, 0, 70000 + 64);
				assert_int_equal(shm_copy_picked(&p, dst + a, bounce + a, src,
								 lens[l], 1024), mode);
				to = mode == SHM_COPY_BOUNCE ? bounce : dst;
				assert_memory_equal(to + a, src, lens[l]);
				for (i = 0; i < a; i++)
					assert_int_equal(to[i], 0);
				assert_int_equal(to[a + lens[l]], 0);
				to = mode == SHM_COPY_BOUNCE ? dst : bounce;
				for (i = 0; i < 70000 + 64; i++)
					assert_int_equal(to[i], 0);
			}
		}
	}
	free(src);
	free(dst);
	free(bounce);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixed_without_nt_auto),
		cmocka_unit_test(test_turns_and_timing),
		cmocka_unit_test(test_faster_takes_over_and_back),
		cmocka_unit_test(test_probe_warm_up_not_counted),
		cmocka_unit_test(test_hysteresis),
		cmocka_unit_test(test_better),
		cmocka_unit_test(test_three_ways_in_turn),
		cmocka_unit_test(test_three_ways_fixed),
		cmocka_unit_test(test_turns_lengthen_while_the_incumbent_wins),
		cmocka_unit_test(test_copy_picked_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
