/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef SHM_COPY_H
#define SHM_COPY_H

#include <stddef.h>
#include <stdint.h>

#include <rte_common.h>
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

#endif /* SHM_COPY_H */
