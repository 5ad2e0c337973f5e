/*
 * simd.c -- the SIMD path of the batch kernels: what the CPU runs, which path is
 * active, and the rows of a batch under plain rules by that path.
 *
 * The vector files are compiled for their instruction sets on their own (CMake sets
 * the flags per file; a compiler or target without them builds them empty), so one
 * build runs on every CPU of its architecture: the path is chosen here at run time,
 * from the CPU's features, once (cc_simd_use, or the first batch), never per row.
 */
#include "chinchon.h"

#include <stddef.h>
#include <stdint.h>

#include "base/bits.h"
#include "melds/hints.h"
#include "melds/melds.h"
#include "simd/simd.h"

#if defined(_MSC_VER) && !defined(__clang__) && (defined(_M_X64) || defined(_M_AMD64))
#include <intrin.h>
#define CC_X86_MSVC 1
#elif (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#define CC_X86_GNU 1
#endif

/* The active path; -1 until chosen. Written by cc_simd_use (documented: before batches
 * run on other threads) or by the first batch. */
static int g_simd_active = -1;

/* Whether the CPU (and the operating system, which must save the wider registers) runs
 * the instructions of a path. O(1) after the first cpuid. */
static int cc_cpu_runs(cc_simd path)
{
    switch (path) {
    case CC_SIMD_SCALAR:
        return 1;
#if defined(CC_X86_GNU)
    case CC_SIMD_AVX2:
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2");
    case CC_SIMD_AVX512:
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
               __builtin_cpu_supports("avx512vl");
#elif defined(CC_X86_MSVC)
    case CC_SIMD_AVX2:
    case CC_SIMD_AVX512: {
        int r1[4], r7[4];
        unsigned long long xcr0;
        __cpuid(r1, 1);
        if (((r1[2] >> 27) & 1) == 0 || ((r1[2] >> 28) & 1) == 0)
            return 0; /* no OSXSAVE or no AVX */
        xcr0 = _xgetbv(0);
        __cpuidex(r7, 7, 0);
        if (path == CC_SIMD_AVX2)
            return (xcr0 & 6) == 6 && ((r7[1] >> 5) & 1);
        /* F (ebx 16), BW (ebx 30), VL (ebx 31); opmask and ZMM state saved */
        return (xcr0 & 0xE6) == 0xE6 && ((r7[1] >> 16) & 1) && ((r7[1] >> 30) & 1) &&
               ((r7[1] >> 31) & 1);
    }
#endif
#if defined(__aarch64__) || defined(_M_ARM64)
    case CC_SIMD_NEON:
        return 1; /* part of every AArch64 CPU */
#endif
    default:
        return 0;
    }
}

/* Whether this build holds a path's kernels and the CPU runs them.
 * O(1). */
int cc_simd_supported(cc_simd path)
{
    switch (path) {
    case CC_SIMD_SCALAR:
        return 1;
    case CC_SIMD_AVX2:
        return cc_avx2_built() && cc_cpu_runs(path);
    case CC_SIMD_AVX512:
        return cc_avx512_built() && cc_cpu_runs(path);
    case CC_SIMD_NEON:
        return cc_neon_built() && cc_cpu_runs(path);
    default:
        return 0;
    }
}

/* The fastest supported path: AVX-512, AVX2, NEON, else scalar.
 * O(1). */
cc_simd cc_simd_best(void)
{
    if (cc_simd_supported(CC_SIMD_AVX512))
        return CC_SIMD_AVX512;
    if (cc_simd_supported(CC_SIMD_AVX2))
        return CC_SIMD_AVX2;
    if (cc_simd_supported(CC_SIMD_NEON))
        return CC_SIMD_NEON;
    return CC_SIMD_SCALAR;
}

/* Make `path` the active one; CC_ERR_BAD_ARGUMENT (nothing changed) when it is not
 * supported. O(1). */
cc_status cc_simd_use(cc_simd path)
{
    if (!cc_simd_supported(path))
        return CC_ERR_BAD_ARGUMENT;
    g_simd_active = (int)path;
    return CC_OK;
}

/* The active path (the best supported one until cc_simd_use chooses).
 * O(1). */
cc_simd cc_simd_active(void)
{
    if (g_simd_active < 0)
        g_simd_active = (int)cc_simd_best();
    return (cc_simd)g_simd_active;
}

/* The name of a path: "scalar", "avx2", "avx512", "neon"; NULL out of range.
 * O(1). */
const char *cc_simd_name(cc_simd path)
{
    static const char *const names[CC_SIMD_END] = {"scalar", "avx2", "avx512", "neon"};
    return (int)path >= 0 && path < CC_SIMD_END ? names[path] : NULL;
}

/* Deadwood rows under plain rules by the active path.
 * O(n) rows. */
cc_status cc_simd_deadwood_rows(const cc_rules *rules, const uint64_t *masks, size_t n,
                                int decks, uint8_t *out, size_t *bad_row)
{
    switch (cc_simd_active()) {
    case CC_SIMD_AVX512:
        return cc_avx512_deadwood_rows(rules, masks, n, decks, out, bad_row);
    case CC_SIMD_AVX2:
        return cc_avx2_deadwood_rows(rules, masks, n, decks, out, bad_row);
    case CC_SIMD_NEON:
        return cc_neon_deadwood_rows(rules, masks, n, decks, out, bad_row);
    default:
        return cc_melds_deadwood_rows(rules, masks, n, decks, out, bad_row);
    }
}

/* Hints rows under plain rules by the active path.
 * O(n) rows. */
cc_status cc_simd_hints_rows(const cc_rules *rules, const uint64_t *masks, size_t n,
                             int decks, uint8_t *out, size_t *bad_row)
{
    switch (cc_simd_active()) {
    case CC_SIMD_AVX512:
        return cc_avx512_hints_rows(rules, masks, n, decks, out, bad_row);
    case CC_SIMD_AVX2:
        return cc_avx2_hints_rows(rules, masks, n, decks, out, bad_row);
    case CC_SIMD_NEON:
        return cc_neon_hints_rows(rules, masks, n, decks, out, bad_row);
    default:
        return cc_hints_rows(rules, masks, n, decks, out, bad_row);
    }
}

