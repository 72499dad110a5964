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
 * The ways a send can reach the consumer's buffer, of which a pick measures
 * its first nb_ways: ordinary stores into the buffer, non-temporal ones, or
 * an ordinary copy into the consumer's bounce area, from which the consumer
 * copies it into the buffer as it takes the message (shm_internal.h).
 */
enum shm_copy_way {
	SHM_COPY_ORDINARY,
	SHM_COPY_NT,
	SHM_COPY_BOUNCE,
};

/*
 * Which way a class of sends takes, per consumer of the peer (devarg
 * nt_auto): measured, since none wins everywhere. Non-temporal stores go at
 * the memory's pace whatever the CPUs do; an ordinary copy is faster while
 * the two CPUs hand lines to each other quickly and far slower when they do
 * not (measured on one virtual machine, whose two vCPUs did both by turns,
 * shm guide); a bounce costs the consumer a second copy, but the producer's
 * stores land on lines the consumer's cache no longer holds. So the incumbent
 * copies SHM_COPY_EPOCH sends, then one other way copies SHM_COPY_PROBE, the
 * others in turn at the following turns; the last SHM_COPY_TIMED of the
 * incumbent's and the other's are timed from the first send's start to the
 * last one's end (the other's first ones warm up what the incumbent left
 * cold), and the other takes over if it took a tenth fewer cycles a byte.
 * What is timed is the producer's whole round between sends, so what the
 * consumer pays shows too, as the producer waits for its buffers; a producer
 * that sends slower than any way sees no difference and keeps the incumbent.
 */
#define SHM_COPY_EPOCH 4096
#define SHM_COPY_PROBE 128
#define SHM_COPY_TIMED 64
/*
 * Each probe the incumbent wins doubles its next turn, up to this; a change
 * of way starts again from SHM_COPY_EPOCH. In a steady machine the probes'
 * slower sends then cost a few per thousand instead of 3% (64 KiB turns); a
 * change of mode is still seen within one turn: milliseconds at 4 KiB.
 */
#define SHM_COPY_EPOCH_MAX 65536

struct shm_copy_pick {
	bool adaptive;      /* nt_auto: measure; else the first incumbent always */
	bool probing;       /* the other way's turn */
	uint8_t nb_ways;    /* the ways measured: the first nb_ways of enum shm_copy_way */
	uint8_t way;        /* the incumbent */
	uint8_t other;      /* the way the next probe tries */
	uint32_t left;      /* sends left in this turn */
	uint32_t epoch;     /* sends of the incumbent's turns: SHM_COPY_EPOCH, doubled per win */
	uint64_t t0;        /* TSC at the start of the timed sends of this turn */
	uint64_t cyc[2];    /* cycles of the timed sends: [0] the incumbent's, [1] the other's */
	uint64_t bytes[2];  /* and their bytes */
};

/* The way after w, of nb_ways, that is not the incumbent's. */
static inline uint8_t
shm_copy_pick_next(const struct shm_copy_pick *p, uint8_t w)
{
	w = (uint8_t)((w + 1) % p->nb_ways);
	return w == p->way ? (uint8_t)((w + 1) % p->nb_ways) : w;
}

/* A pick among the first nb_ways (2 or 3) ways, first the incumbent. */
static inline void
shm_copy_pick_init(struct shm_copy_pick *p, bool adaptive, uint8_t nb_ways,
		   enum shm_copy_way first)
{
	memset(p, 0, sizeof(*p));
	p->adaptive = adaptive;
	p->nb_ways = nb_ways;
	p->way = (uint8_t)first;
	p->other = shm_copy_pick_next(p, p->way);
	p->epoch = SHM_COPY_EPOCH;
	p->left = SHM_COPY_EPOCH;
}

/* The way of the next send. */
static inline enum shm_copy_way
shm_copy_pick_way(const struct shm_copy_pick *p)
{
	return (enum shm_copy_way)(p->adaptive && p->probing ? p->other : p->way);
}

/* Whether the next send starts the timed sends of a turn (read the TSC before it). */
static inline bool
shm_copy_pick_starts(const struct shm_copy_pick *p)
{
	return p->adaptive && p->left == SHM_COPY_TIMED;
}

/* Whether the next send ends them (read the TSC after it). */
static inline bool
shm_copy_pick_ends(const struct shm_copy_pick *p)
{
	return p->adaptive && p->left == 1;
}

/* Whether the other way was faster by a tenth, in cycles a byte. */
static inline bool
shm_copy_pick_better(uint64_t cyc_inc, uint64_t bytes_inc, uint64_t cyc_other,
		     uint64_t bytes_other)
{
	/*
	 * cyc_other / bytes_other < 0.9 cyc_inc / bytes_inc, in doubles: 64
	 * sends of 1 GiB hold 2^36 bytes, and their cycles times that would
	 * overflow 64 bits once they took a few milliseconds.
	 */
	return bytes_inc != 0 && bytes_other != 0 &&
	       (double)cyc_other * (double)bytes_inc * 10.0 <
	       (double)cyc_inc * (double)bytes_other * 9.0;
}

/*
 * A send of len bytes is done; now is the TSC if it ended the timed sends
 * (shm_copy_pick_ends() before it), t0 the TSC before the first of them.
 * Count it, and at the end of the other way's turn keep the faster.
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
		if (shm_copy_pick_better(p->cyc[0], p->bytes[0], p->cyc[1], p->bytes[1])) {
			p->way = p->other;
			p->epoch = SHM_COPY_EPOCH;
		} else {
			p->epoch = RTE_MIN(2 * p->epoch, (uint32_t)SHM_COPY_EPOCH_MAX);
		}
		p->other = shm_copy_pick_next(p, p->other);
		p->cyc[0] = p->cyc[1] = 0;
		p->bytes[0] = p->bytes[1] = 0;
	}
	p->probing = !p->probing;
	p->left = p->probing ? SHM_COPY_PROBE : p->epoch;
}

/*
 * Copy a send into the peer, the way p picks: into its buffer at dst, or
 * into its bounce area at bounce (NULL when p does not pick among three
 * ways, and so never picks a bounce). Non-temporally only from nt_min bytes.
 * Returns the way it took.
 */
static inline enum shm_copy_way
shm_copy_picked(struct shm_copy_pick *p, uint8_t *dst, uint8_t *bounce, const uint8_t *src,
		size_t len, size_t nt_min)
{
	uint64_t t0 = shm_copy_pick_starts(p) ? rte_rdtsc() : 0;
	bool ends = shm_copy_pick_ends(p);
	enum shm_copy_way way = shm_copy_pick_way(p);

	if (way == SHM_COPY_BOUNCE && bounce == NULL)
		way = SHM_COPY_ORDINARY; /* no area: a pick of two ways never picks it */
	if (way == SHM_COPY_BOUNCE)
		rte_memcpy(bounce, src, len);
	else if (way == SHM_COPY_NT && len >= nt_min)
		shm_copy_nt(dst, src, len);
	else
		rte_memcpy(dst, src, len);
	shm_copy_pick_done(p, len, t0, ends ? rte_rdtsc() : 0);
	return way;
}

#endif /* SHM_COPY_H */
