/*
 * simd_avx2.c -- the batch kernels of simd_kernel.h on AVX2: four hands a 256-bit
 * vector. Compiled with the AVX2 flag of the compiler (CMake sets it for this file
 * alone); without it (another architecture, or a compiler that lacks it) the file
 * holds stubs and simd.c never picks the path.
 */
#include "chinchon.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/bits.h"
#include "melds/hints.h"
#include "melds/melds.h"
#include "simd/simd.h"

#if defined(__AVX2__)
#include <immintrin.h>

#define CC_V __m256i
#define CC_VLANES 4
#define CC_K(name) cc_avx2_##name

CC_INLINE CC_V v_set1(uint64_t x) { return _mm256_set1_epi64x((long long)x); }
CC_INLINE CC_V v_and(CC_V x, CC_V y) { return _mm256_and_si256(x, y); }
CC_INLINE CC_V v_or(CC_V x, CC_V y) { return _mm256_or_si256(x, y); }
CC_INLINE CC_V v_xor(CC_V x, CC_V y) { return _mm256_xor_si256(x, y); }
CC_INLINE CC_V v_andn(CC_V x, CC_V y) { return _mm256_andnot_si256(y, x); }
#define v_srl(x, k) _mm256_srli_epi64((x), (k))
#define v_sll(x, k) _mm256_slli_epi64((x), (k))
#define v_srl16(x, k) _mm256_srli_epi16((x), (k))
CC_INLINE CC_V v_sllv(CC_V x, CC_V k) { return _mm256_sllv_epi64(x, k); }
CC_INLINE CC_V v_add64(CC_V x, CC_V y) { return _mm256_add_epi64(x, y); }
CC_INLINE CC_V v_sub64(CC_V x, CC_V y) { return _mm256_sub_epi64(x, y); }
CC_INLINE CC_V v_add8(CC_V x, CC_V y) { return _mm256_add_epi8(x, y); }
CC_INLINE CC_V v_lookup(CC_V t, CC_V x) { return _mm256_shuffle_epi8(t, x); }
CC_INLINE CC_V v_table(const uint8_t t[16])
{
    return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)t));
}
CC_INLINE CC_V v_sum8(CC_V x) { return _mm256_sad_epu8(x, _mm256_setzero_si256()); }
CC_INLINE int v_any(CC_V x) { return !_mm256_testz_si256(x, x); }
CC_INLINE int v_nonzero(CC_V x)
{
    CC_V zero = _mm256_cmpeq_epi64(x, _mm256_setzero_si256());
    return ~_mm256_movemask_pd(_mm256_castsi256_pd(zero)) & 0xF;
}
CC_INLINE CC_V v_load1(const uint64_t *p)
{
    return _mm256_loadu_si256((const __m256i *)(const void *)p);
}
CC_INLINE void v_load2(const uint64_t *p, CC_V *a, CC_V *b)
{
    CC_V r0 = _mm256_loadu_si256((const __m256i *)(const void *)p);
    CC_V r1 = _mm256_loadu_si256((const __m256i *)(const void *)(p + 4));
    /* unpack gives rows 0, 2, 1, 3: back in order */
    *a = _mm256_permute4x64_epi64(_mm256_unpacklo_epi64(r0, r1), 0xD8);
    *b = _mm256_permute4x64_epi64(_mm256_unpackhi_epi64(r0, r1), 0xD8);
}
CC_INLINE void v_store_rows(uint8_t *out, CC_V x) { _mm256_storeu_si256((__m256i *)(void *)out, x); }
CC_INLINE void v_store_low(uint8_t *out, CC_V x)
{
    /* each 128-bit half: lane 1's byte next to lane 0's */
    CC_V y = _mm256_or_si256(x, _mm256_srli_si256(x, 7));
    uint32_t w = (uint32_t)(_mm256_extract_epi16(y, 0) & 0xFFFF) |
                 ((uint32_t)(_mm256_extract_epi16(y, 8) & 0xFFFF) << 16);
    memcpy(out, &w, 4);
}

#include "simd/simd_kernel.h"

/* This build holds the AVX2 kernels. O(1). */
int cc_avx2_built(void) { return 1; }

#else

/* This build holds no AVX2 kernels (simd.c never calls the stubs below). O(1). */
int cc_avx2_built(void) { return 0; }

/* Stub: the scalar rows. O(n) rows. */
cc_status cc_avx2_deadwood_rows(const cc_rules *rules, const uint64_t *masks, size_t n,
                                int decks, uint8_t *out, size_t *bad_row)
{
    return cc_melds_deadwood_rows(rules, masks, n, decks, out, bad_row);
}

/* Stub: the scalar rows. O(n) rows. */
cc_status cc_avx2_hints_rows(const cc_rules *rules, const uint64_t *masks, size_t n, int decks,
                             uint8_t *out, size_t *bad_row)
{
    return cc_hints_rows(rules, masks, n, decks, out, bad_row);
}

#endif
