/*
 * simd_avx512.c -- the batch kernels of simd_kernel.h on AVX-512 (F, BW, VL): eight
 * hands a 512-bit vector. Compiled with the compiler's AVX-512 flags (CMake sets them
 * for this file alone); without them the file holds stubs and simd.c never picks the
 * path.
 */
#include "chinchon.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/bits.h"
#include "melds/hints.h"
#include "melds/melds.h"
#include "simd/simd.h"

#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__)
#include <immintrin.h>

#define CC_V __m512i
#define CC_VLANES 8
#define CC_K(name) cc_avx512_##name

CC_INLINE CC_V v_set1(uint64_t x) { return _mm512_set1_epi64((long long)x); }
CC_INLINE CC_V v_and(CC_V x, CC_V y) { return _mm512_and_si512(x, y); }
CC_INLINE CC_V v_or(CC_V x, CC_V y) { return _mm512_or_si512(x, y); }
CC_INLINE CC_V v_xor(CC_V x, CC_V y) { return _mm512_xor_si512(x, y); }
CC_INLINE CC_V v_andn(CC_V x, CC_V y) { return _mm512_andnot_si512(y, x); }
#define v_srl(x, k) _mm512_srli_epi64((x), (k))
#define v_sll(x, k) _mm512_slli_epi64((x), (k))
#define v_srl16(x, k) _mm512_srli_epi16((x), (k))
CC_INLINE CC_V v_sllv(CC_V x, CC_V k) { return _mm512_sllv_epi64(x, k); }
CC_INLINE CC_V v_add64(CC_V x, CC_V y) { return _mm512_add_epi64(x, y); }
CC_INLINE CC_V v_sub64(CC_V x, CC_V y) { return _mm512_sub_epi64(x, y); }
CC_INLINE CC_V v_add8(CC_V x, CC_V y) { return _mm512_add_epi8(x, y); }
CC_INLINE CC_V v_lookup(CC_V t, CC_V x) { return _mm512_shuffle_epi8(t, x); }
CC_INLINE CC_V v_table(const uint8_t t[16])
{
    return _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(const void *)t));
}
CC_INLINE CC_V v_sum8(CC_V x) { return _mm512_sad_epu8(x, _mm512_setzero_si512()); }
CC_INLINE int v_nonzero(CC_V x) { return (int)_mm512_test_epi64_mask(x, x); }
CC_INLINE int v_any(CC_V x) { return v_nonzero(x) != 0; }
CC_INLINE CC_V v_load1(const uint64_t *p) { return _mm512_loadu_si512((const void *)p); }
CC_INLINE void v_load2(const uint64_t *p, CC_V *a, CC_V *b)
{
    CC_V r0 = _mm512_loadu_si512((const void *)p);
    CC_V r1 = _mm512_loadu_si512((const void *)(p + 8));
    CC_V even = _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0);
    CC_V odd = _mm512_set_epi64(15, 13, 11, 9, 7, 5, 3, 1);
    *a = _mm512_permutex2var_epi64(r0, even, r1);
    *b = _mm512_permutex2var_epi64(r0, odd, r1);
}
CC_INLINE void v_store_rows(uint8_t *out, CC_V x) { _mm512_storeu_si512((void *)out, x); }
CC_INLINE void v_store_low(uint8_t *out, CC_V x)
{
    _mm_storel_epi64((__m128i *)(void *)out, _mm512_cvtepi64_epi8(x));
}

#include "simd/simd_kernel.h"

/* This build holds the AVX-512 kernels. O(1). */
int cc_avx512_built(void) { return 1; }

#else

/* This build holds no AVX-512 kernels (simd.c never calls the stubs below). O(1). */
int cc_avx512_built(void) { return 0; }

/* Stub: the scalar rows. O(n) rows. */
cc_status cc_avx512_deadwood_rows(const cc_rules *rules, const uint64_t *masks, size_t n,
                                  int decks, uint8_t *out, size_t *bad_row)
{
    return cc_melds_deadwood_rows(rules, masks, n, decks, out, bad_row);
}

/* Stub: the scalar rows. O(n) rows. */
cc_status cc_avx512_hints_rows(const cc_rules *rules, const uint64_t *masks, size_t n,
                               int decks, uint8_t *out, size_t *bad_row)
{
    return cc_hints_rows(rules, masks, n, decks, out, bad_row);
}

#endif
