/*
 * jokers.h -- internal: the joker search of one hand (jokers.c): the deadwood and the
 * discard hints of a hand holding jokers, natural cards in the working space. The parts
 * route it falls back on: joker_parts.h (parts, two-joker candidates) and
 * joker_route.h (the one-joker hints route); the batch rows: joker_batch.h.
 */
#ifndef CC_SRC_JOKERS_H
#define CC_SRC_JOKERS_H

#include <stdint.h>

#include "chinchon.h"

#include "base/bits.h"

/* Deadwood of natural cards (a, b) in the working space (b == 0 with one deck) with
 * nj >= 1 jokers, set capacity cap; view: cc_view(rules). The fast paths, else the
 * parts route. O(1) to a few hundred ns. */
CC_INTERNAL int cc_joker_deadwood(const cc_rules *view, const cc_rules *rules, uint64_t a,
                                  uint64_t b, int nj, int cap);

/* The hint points of the 8 valid cards h holding a joker, raw card order, set capacity
 * cap: one copy for single-deck hands (b == 0 folded), one for hands holding a card
 * twice. <= 9 joker deadwoods, fewer on the fast paths. */
CC_INTERNAL void cc_joker_hints_one(const cc_rules *view, const cc_rules *rules, cc_hand h,
                                    int cap, uint16_t *points);
CC_INTERNAL void cc_joker_hints_two(const cc_rules *view, const cc_rules *rules, cc_hand h,
                                    int cap, uint16_t *points);

#endif /* CC_SRC_JOKERS_H */
