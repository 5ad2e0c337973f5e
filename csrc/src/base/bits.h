/*
 * bits.h -- internal bit helpers of the chinchon C core (not installed).
 *
 * popcount / count-trailing-zeros / highest set bit with portable fallbacks, the
 * weighted popcount that turns a card mask into points through the bit planes of a
 * cc_rules, and the inline / internal-linkage macros the core's files share.
 */
#ifndef CC_SRC_BITS_H
#define CC_SRC_BITS_H

#include <stdint.h>

#include "chinchon.h"

#if defined(_MSC_VER) && !defined(__cplusplus)
#define CC_INLINE static __inline
#else
#define CC_INLINE static inline
#endif

/* Inline even when the body is large: for the copies specialised on a constant
 * argument (single deck: no card held twice). */
#if defined(_MSC_VER) && !defined(__cplusplus)
#define CC_FORCE_INLINE static __forceinline
#elif defined(__GNUC__) || defined(__clang__)
#define CC_FORCE_INLINE static inline __attribute__((always_inline))
#else
#define CC_FORCE_INLINE static inline
#endif

/* Functions one file of the core defines for another, not part of chinchon.h: hidden
 * from the shared object the core is linked into (not exported, called directly). */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(_WIN32) && !defined(__CYGWIN__)
#define CC_INTERNAL __attribute__((visibility("hidden")))
#else
#define CC_INTERNAL
#endif

#define CC_LANES UINT64_C(0x0001000100010001) /* one bit per lane: rank 1 of each suit */

/* The larger / the smaller of two, for stores taken every time (no branch on the data).
 * O(1). */
CC_INLINE int cc_max(int x, int y) { return x > y ? x : y; }
CC_INLINE int cc_min(int x, int y) { return x < y ? x : y; }

/* Portable popcount (SWAR), used when no hardware instruction is known to exist.
 * About 12 integer operations. */
CC_INLINE int cc_popcount_portable(uint64_t x)
{
    x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
    x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
    x = (x + (x >> 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
    return (int)((x * UINT64_C(0x0101010101010101)) >> 56);
}

#if defined(_MSC_VER) && !defined(__clang__) && (defined(_M_X64) || defined(_M_AMD64))
#include <intrin.h>
/* MSVC x64: POPCNT is part of x86-64-v2, the baseline we build for.
 * Set bits of x; index of the lowest set bit (x != 0). One instruction each. */
CC_INLINE int cc_popcount(uint64_t x) { return (int)__popcnt64(x); }
CC_INLINE int cc_ctz(uint64_t x)
{
    unsigned long i;
    _BitScanForward64(&i, x);
    return (int)i;
}
#elif defined(__GNUC__) || defined(__clang__)
#if defined(__POPCNT__) || !(defined(__x86_64__) || defined(__i386__))
/* Set bits of x. The builtin is one instruction here (x86 with -mpopcnt /
 * -march=x86-64-v2, or ARM). */
CC_INLINE int cc_popcount(uint64_t x) { return __builtin_popcountll(x); }
#else
/* Set bits of x. x86 without POPCNT enabled: gcc would call libgcc; the inline SWAR
 * (about 12 operations) is faster. */
CC_INLINE int cc_popcount(uint64_t x) { return cc_popcount_portable(x); }
#endif
/* Index of the lowest set bit of x (x != 0).
 * One instruction. */
CC_INLINE int cc_ctz(uint64_t x) { return __builtin_ctzll(x); }
#else
/* Set bits of x; index of the lowest set bit (x != 0).
 * Portable: ~12 operations each. */
CC_INLINE int cc_popcount(uint64_t x) { return cc_popcount_portable(x); }
CC_INLINE int cc_ctz(uint64_t x) { return cc_popcount_portable((x & (~x + 1)) - 1); }
#endif

/* Index of the highest set bit of x (x != 0).
 * One instruction with a builtin or intrinsic; six shifts and a popcount otherwise. */
#if defined(_MSC_VER) && !defined(__clang__) && (defined(_M_X64) || defined(_M_AMD64))
CC_INLINE int cc_highest_bit(uint64_t x)
{
    unsigned long i;
    _BitScanReverse64(&i, x);
    return (int)i;
}
#elif defined(__GNUC__) || defined(__clang__)
CC_INLINE int cc_highest_bit(uint64_t x) { return 63 - __builtin_clzll(x); }
#else
CC_INLINE int cc_highest_bit(uint64_t x)
{
    x |= x >> 1; /* smear the highest bit down, then count */
    x |= x >> 2;
    x |= x >> 4;
    x |= x >> 8;
    x |= x >> 16;
    x |= x >> 32;
    return cc_popcount(x) - 1;
}
#endif

/* Points of the cards in mask x (each counted once): sum_k popcount(x & plane[k]) << k.
 * Five popcounts. */
CC_INLINE int cc_wpop(const cc_rules *rules, uint64_t x)
{
    return cc_popcount(x & rules->plane[0]) + (cc_popcount(x & rules->plane[1]) << 1) +
           (cc_popcount(x & rules->plane[2]) << 2) + (cc_popcount(x & rules->plane[3]) << 3) +
           (cc_popcount(x & rules->plane[4]) << 4);
}

#endif /* CC_SRC_BITS_H */
