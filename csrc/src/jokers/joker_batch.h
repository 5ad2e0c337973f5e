/*
 * joker_batch.h -- internal: the batch rows under rules that are not plain
 * (joker_batch.c): cc_deadwood_batch and cc_hints_batch past their argument checks.
 */
#ifndef CC_SRC_JOKER_BATCH_H
#define CC_SRC_JOKER_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "chinchon.h"

#include "base/bits.h"

/* Deadwood (hints == 0) or hints (hints == 1: rows of exactly 8 cards) of n batch rows
 * under rules that are not plain, each row checked (cc_var_status_masks); stops at the
 * first bad row. O(n): the house kernels on joker-free rows, the joker search or the
 * per-lane tables (large batches) on the others. */
CC_INTERNAL cc_status cc_jbatch(const cc_rules *rules, int hints, const uint64_t *masks,
                                size_t n, int decks, uint8_t *out, size_t *bad_row);

/* cc_jbatch into 16-bit results, one row at a time by the single hand's search: the
 * rules whose scores can pass 255 (cc_rules.max_deadwood). O(n) single-hand searches. */
CC_INTERNAL cc_status cc_jbatch_wide(const cc_rules *rules, int hints, const uint64_t *masks,
                                     size_t n, int decks, uint16_t *out, size_t *bad_row);

#endif /* CC_SRC_JOKER_BATCH_H */
