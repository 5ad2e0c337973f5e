/*
 * simd.h -- internal: the batch kernels of the house rules by SIMD path, and the
 * choice of the path (simd.c). Each vector file (simd_avx2.c, simd_avx512.c,
 * simd_neon.c) is compiled for its instruction set on its own and holds only kernels:
 * simd.c calls one of them only once the CPU is known to run it.
 *
 * Every kernel has the contract of cc_melds_deadwood_rows / cc_hints_rows (melds.h):
 * rows validated one by one, stop at the first bad row (its index to *bad_row), the
 * same bytes out. They evaluate several hands at once (one hand a 64-bit lane) on the
 * fast path of the meld search and leave the hands whose sets and runs compete, and
 * every group holding a bad row, to the scalar kernels.
 */
#ifndef CC_SRC_SIMD_H
#define CC_SRC_SIMD_H

#include <stddef.h>
#include <stdint.h>

#include "chinchon.h"

#include "base/bits.h"

/* Whether this build holds the kernels of each vector path (the file was compiled for
 * its instruction set). O(1). */
CC_INTERNAL int cc_avx2_built(void);
CC_INTERNAL int cc_avx512_built(void);
CC_INTERNAL int cc_neon_built(void);

/* The kernels of each path (contract above). Called only where built and supported. */
CC_INTERNAL cc_status cc_avx2_deadwood_rows(const cc_rules *rules, const uint64_t *masks,
                                            size_t n, int decks, uint8_t *out,
                                            size_t *bad_row);
CC_INTERNAL cc_status cc_avx2_hints_rows(const cc_rules *rules, const uint64_t *masks,
                                         size_t n, int decks, uint8_t *out, size_t *bad_row);
CC_INTERNAL cc_status cc_avx512_deadwood_rows(const cc_rules *rules, const uint64_t *masks,
                                              size_t n, int decks, uint8_t *out,
                                              size_t *bad_row);
CC_INTERNAL cc_status cc_avx512_hints_rows(const cc_rules *rules, const uint64_t *masks,
                                           size_t n, int decks, uint8_t *out,
                                           size_t *bad_row);
CC_INTERNAL cc_status cc_neon_deadwood_rows(const cc_rules *rules, const uint64_t *masks,
                                            size_t n, int decks, uint8_t *out,
                                            size_t *bad_row);
CC_INTERNAL cc_status cc_neon_hints_rows(const cc_rules *rules, const uint64_t *masks,
                                         size_t n, int decks, uint8_t *out, size_t *bad_row);

/* Deadwood / hints rows of a batch under plain rules, or of house hands on a variant's
 * working space (its view: cc_view; jokers/joker_batch.c), by the active path (see
 * cc_simd_use). O(n) rows. */
CC_INTERNAL cc_status cc_simd_deadwood_rows(const cc_rules *rules, const uint64_t *masks,
                                            size_t n, int decks, uint8_t *out,
                                            size_t *bad_row);
CC_INTERNAL cc_status cc_simd_hints_rows(const cc_rules *rules, const uint64_t *masks,
                                         size_t n, int decks, uint8_t *out, size_t *bad_row);

#endif /* CC_SRC_SIMD_H */
