/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef SHM_COPY_H
#define SHM_COPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_memcpy.h>
#ifdef RTE_ARCH_X86
#include <emmintrin.h>
#endif

/*
 * Copy len bytes into the peer's memory with non-temporal stores, then fence:
 * the peer reads them after a sequence number, a release store that does not
 * order non-temporal stores by itself. The lines go to memory instead
 * of the producer's cache, and taking them needs no read for ownership of
 * lines the receiver's cache still holds from their last lap (what an ordinary
 * copy of a few KiB into recently reused buffers or ring slots waits for).
 */
static inline void
shm_copy_nt(uint8_t *dst, const uint8_t *src, size_t len)
{
#ifdef RTE_ARCH_X86
	size_t head = RTE_MIN((16 - ((uintptr_t)dst & 15)) & 15, len), i;

	rte_memcpy(dst, src, head);
	for (i = head; i + 64 <= len; i += 64) {
		__m128i a = _mm_loadu_si128((const __m128i *)(const void *)(src + i));
		__m128i b = _mm_loadu_si128((const __m128i *)(const void *)(src + i + 16));
		__m128i c = _mm_loadu_si128((const __m128i *)(const void *)(src + i + 32));
		__m128i d = _mm_loadu_si128((const __m128i *)(const void *)(src + i + 48));

		_mm_stream_si128((__m128i *)(void *)(dst + i), a);
		_mm_stream_si128((__m128i *)(void *)(dst + i + 16), b);
		_mm_stream_si128((__m128i *)(void *)(dst + i + 32), c);
		_mm_stream_si128((__m128i *)(void *)(dst + i + 48), d);
	}
	rte_memcpy(dst + i, src + i, len - i);
	_mm_sfence();
#else
	rte_memcpy(dst, src, len);
#endif
}

/*
 * Which copy a send of nt_min bytes or more uses, per consumer of the peer
 * (devarg nt_auto): measured, since neither wins everywhere. Non-temporal
 * stores go at the memory's pace whatever the CPUs do; an ordinary copy is
 * faster while the two CPUs hand lines to each other quickly and far slower
 * when they do not (measured on one virtual machine, whose two vCPUs did
 * both by turns, shm guide). So the incumbent copies SHM_COPY_EPOCH sends,
 * then the other copies SHM_COPY_TIMED; the last SHM_COPY_TIMED of the
 * incumbent's and the other's are timed from the first send's start to the
 * last one's end, and the other takes over if it took a tenth fewer cycles a
 * byte. What is timed is the producer's whole round between sends, so what
 * the consumer pays shows too, as the producer waits for its buffers; a
 * producer that sends slower than either copy sees no difference and keeps
 * the incumbent.
 */
#define SHM_COPY_EPOCH 1024
#define SHM_COPY_TIMED 64

struct shm_copy_pick {
	bool adaptive;      /* nt_auto: measure; else non-temporal always */
	bool nt;            /* the incumbent: non-temporal (else ordinary) */
	bool probing;       /* the other copy's turn */
	uint32_t left;      /* sends left in this turn */
	uint64_t t0;        /* TSC at the start of the timed sends of this turn */
	uint64_t cyc[2];    /* cycles of the timed sends: [0] the incumbent's, [1] the other's */
	uint64_t bytes[2];  /* and their bytes */
};

static inline void
shm_copy_pick_init(struct shm_copy_pick *p, bool adaptive)
{
	memset(p, 0, sizeof(*p));
	p->adaptive = adaptive;
	p->nt = true;
	p->left = SHM_COPY_EPOCH;
}

/* Whether the next large send copies non-temporally. */
static inline bool
shm_copy_pick_nt(const struct shm_copy_pick *p)
{
	return !p->adaptive || (p->nt != p->probing);
}

/* Whether the next large send starts the timed sends of a turn (read the TSC before it). */
static inline bool
shm_copy_pick_starts(const struct shm_copy_pick *p)
{
	return p->adaptive && p->left == SHM_COPY_TIMED;
}

/* Whether the next large send ends them (read the TSC after it). */
static inline bool
shm_copy_pick_ends(const struct shm_copy_pick *p)
{
	return p->adaptive && p->left == 1;
}

/* Whether the other copy was faster by a tenth, in cycles a byte. */
static inline bool
shm_copy_pick_better(uint64_t cyc_inc, uint64_t bytes_inc, uint64_t cyc_other,
		     uint64_t bytes_other)
{
	/* cyc_other / bytes_other < 0.9 cyc_inc / bytes_inc; far from overflowing. */
	return bytes_inc != 0 && bytes_other != 0 &&
	       cyc_other * bytes_inc * 10 < cyc_inc * bytes_other * 9;
}

/*
 * A large send of len bytes is done; now is the TSC if it ended the timed
 * sends (shm_copy_pick_ends() before it), t0 the TSC before the first of
 * them. Count it, and at the end of the other copy's turn keep the faster.
 */
static inline void
shm_copy_pick_done(struct shm_copy_pick *p, size_t len, uint64_t t0, uint64_t now)
{
	if (!p->adaptive)
		return;
	if (p->left == SHM_COPY_TIMED)
		p->t0 = t0;
	if (p->left <= SHM_COPY_TIMED)
		p->bytes[p->probing] += len;
	if (p->left == 1)
		p->cyc[p->probing] = now - p->t0;
	if (--p->left != 0)
		return;
	if (p->probing) {
		if (shm_copy_pick_better(p->cyc[0], p->bytes[0], p->cyc[1], p->bytes[1]))
			p->nt = !p->nt;
		p->cyc[0] = p->cyc[1] = 0;
		p->bytes[0] = p->bytes[1] = 0;
	}
	p->probing = !p->probing;
	p->left = p->probing ? SHM_COPY_TIMED : SHM_COPY_EPOCH;
}

/* Copy a send of nt_min bytes or more into the peer's buffer, the way p picks. */
static inline void
shm_copy_large(struct shm_copy_pick *p, uint8_t *dst, const uint8_t *src, size_t len)
{
	uint64_t t0 = shm_copy_pick_starts(p) ? rte_rdtsc() : 0;
	bool ends = shm_copy_pick_ends(p);

	if (shm_copy_pick_nt(p))
		shm_copy_nt(dst, src, len);
	else
		rte_memcpy(dst, src, len);
	shm_copy_pick_done(p, len, t0, ends ? rte_rdtsc() : 0);
}

#endif /* SHM_COPY_H */
