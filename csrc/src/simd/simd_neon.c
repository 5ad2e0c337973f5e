/*
 * simd_neon.c -- the batch kernels of simd_kernel.h on AArch64 NEON: two hands a
 * 128-bit vector. NEON is part of every AArch64 CPU; elsewhere the file holds stubs
 * and simd.c never picks the path.
 */
#include "chinchon.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/bits.h"
#include "melds/hints.h"
#include "melds/melds.h"
#include "simd/simd.h"

#if defined(__aarch64__) && defined(__ARM_NEON)
#include <arm_neon.h>

#define CC_V uint64x2_t
#define CC_VLANES 2
#define CC_K(name) cc_neon_##name

CC_INLINE CC_V v_set1(uint64_t x) { return vdupq_n_u64(x); }
CC_INLINE CC_V v_and(CC_V x, CC_V y) { return vandq_u64(x, y); }
CC_INLINE CC_V v_or(CC_V x, CC_V y) { return vorrq_u64(x, y); }
CC_INLINE CC_V v_xor(CC_V x, CC_V y) { return veorq_u64(x, y); }
CC_INLINE CC_V v_andn(CC_V x, CC_V y) { return vbicq_u64(x, y); }
#define v_srl(x, k) vshrq_n_u64((x), (k))
#define v_sll(x, k) vshlq_n_u64((x), (k))
#define v_srl16(x, k) vreinterpretq_u64_u16(vshrq_n_u16(vreinterpretq_u16_u64(x), (k)))
CC_INLINE CC_V v_sllv(CC_V x, CC_V k) { return vshlq_u64(x, vreinterpretq_s64_u64(k)); }
CC_INLINE CC_V v_add64(CC_V x, CC_V y) { return vaddq_u64(x, y); }
CC_INLINE CC_V v_sub64(CC_V x, CC_V y) { return vsubq_u64(x, y); }
CC_INLINE CC_V v_add8(CC_V x, CC_V y)
{
    return vreinterpretq_u64_u8(vaddq_u8(vreinterpretq_u8_u64(x), vreinterpretq_u8_u64(y)));
}
CC_INLINE CC_V v_lookup(CC_V t, CC_V x)
{
    return vreinterpretq_u64_u8(vqtbl1q_u8(vreinterpretq_u8_u64(t), vreinterpretq_u8_u64(x)));
}
CC_INLINE CC_V v_table(const uint8_t t[16]) { return vreinterpretq_u64_u8(vld1q_u8(t)); }
CC_INLINE CC_V v_sum8(CC_V x)
{
    return vpaddlq_u32(vpaddlq_u16(vpaddlq_u8(vreinterpretq_u8_u64(x))));
}
CC_INLINE int v_nonzero(CC_V x)
{
    return (vgetq_lane_u64(x, 0) != 0) | ((vgetq_lane_u64(x, 1) != 0) << 1);
}
CC_INLINE int v_any(CC_V x) { return (vgetq_lane_u64(x, 0) | vgetq_lane_u64(x, 1)) != 0; }
CC_INLINE CC_V v_load1(const uint64_t *p) { return vld1q_u64(p); }
CC_INLINE void v_load2(const uint64_t *p, CC_V *a, CC_V *b)
{
    uint64x2x2_t r = vld2q_u64(p);
    *a = r.val[0];
    *b = r.val[1];
}
CC_INLINE void v_store_rows(uint8_t *out, CC_V x) { vst1q_u8(out, vreinterpretq_u8_u64(x)); }
CC_INLINE void v_store_low(uint8_t *out, CC_V x)
{
    out[0] = (uint8_t)vgetq_lane_u64(x, 0);
    out[1] = (uint8_t)vgetq_lane_u64(x, 1);
}

#include "simd/simd_kernel.h"

/* This build holds the NEON kernels. O(1). */
int cc_neon_built(void) { return 1; }

#else

/* This build holds no NEON kernels (simd.c never calls the stubs below). O(1). */
int cc_neon_built(void) { return 0; }

/* Stub: the scalar rows. O(n) rows. */
cc_status cc_neon_deadwood_rows(const cc_rules *rules, const uint64_t *masks, size_t n,
                                int decks, uint8_t *out, size_t *bad_row)
{
    return cc_melds_deadwood_rows(rules, masks, n, decks, out, bad_row);
}

/* Stub: the scalar rows. O(n) rows. */
cc_status cc_neon_hints_rows(const cc_rules *rules, const uint64_t *masks, size_t n, int decks,
                             uint8_t *out, size_t *bad_row)
{
    return cc_hints_rows(rules, masks, n, decks, out, bad_row);
}

#endif
