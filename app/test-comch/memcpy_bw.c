/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The fp-bw baseline: what one thread copies on the client's lcore, with plain
 * memcpy(), in the same run. It copies what fp-bw sends, the way the shm
 * driver does: message seq is size bytes from the pattern at offset seq % 251,
 * into the next of as many destination buffers as the comch consumer posts, laid
 * out the same way. Only the copy: no check, no other side (the server side of
 * this test does nothing). A compiler barrier after each copy, and a check of the
 * last buffers afterwards, keep the compiler from dropping copies nobody reads.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>

#include "bench_msg.h"
#include "bench_runners.h"
#include "bench_stats.h"

/* Copies between two looks at the clock. */
#define COPIES_PER_CHECK 16

int
memcpy_bw_server(struct bench_ctx *bc, const struct bench_test *t, struct bench_result *res)
{
	return 0;
}

static inline void
copy_one(uint8_t *dst, size_t stride, uint32_t nb, uint32_t size, uint64_t seq)
{
	uint8_t *d = dst + (seq % nb) * stride;

	memcpy(d, bench_msg_pattern(seq), size);
	/* The copy may be read by anyone: it must happen, here. */
	__asm__ volatile("" : : "r"(d) : "memory");
}

int
memcpy_bw_client(struct bench_ctx *bc, const struct bench_test *t, struct bench_result *res)
{
	const struct bench_opts *o = bc->opts;
	size_t stride = RTE_ALIGN_CEIL((size_t)RTE_MAX(t->size, 1u), RTE_CACHE_LINE_SIZE);
	uint32_t nb = RTE_MAX(t->buffers, 1u), i;
	uint64_t seq, t_start, t_end, t_stop;
	double cpu_start, cpu_stop;
	uint8_t *dst;

	dst = aligned_alloc(4096, RTE_ALIGN_CEIL(nb * stride, 4096));
	if (dst == NULL)
		return bench_fail(res, -ENOMEM, "no memory for %" PRIu32 " buffers of %" PRIu32
				  " bytes", nb, t->size);
	/* Fault the pages in, then warm up as comch does. */
	memset(dst, 0, nb * stride);
	for (seq = 0; seq < o->warmup; seq++)
		copy_one(dst, stride, nb, t->size, seq);
	cpu_start = bench_cpu_seconds();
	t_start = rte_rdtsc();
	t_end = t_start + (uint64_t)(o->duration * bc->tsc_hz);
	do {
		for (i = 0; i < COPIES_PER_CHECK; i++, seq++)
			copy_one(dst, stride, nb, t->size, seq);
		t_stop = rte_rdtsc();
	} while (t_stop < t_end);
	cpu_stop = bench_cpu_seconds();
	/* Read back what the last copies wrote. */
	for (i = 0; i < nb && i < seq; i++) {
		uint64_t s = seq - 1 - i;

		if (memcmp(dst + (s % nb) * stride, bench_msg_pattern(s), t->size) != 0) {
			bench_fail(res, -EIO, "memcpy of message %" PRIu64 " did not land", s);
			break;
		}
	}
	free(dst);
	if (res->status == 0) {
		bench_stats_stream(res, seq - o->warmup, t->size, t_stop - t_start,
				   cpu_stop - cpu_start, 0, 0, bc->tsc_hz);
		res->verified = i;
	}
	return res->status;
}
