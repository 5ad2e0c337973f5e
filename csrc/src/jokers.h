/*
 * jokers.h -- internal: what the joker search's files share: jokers.c (the single-hand
 * fast paths and entry points), joker_batch.c (the batch rows and their tables) and
 * joker_parts.c (the parts route for the hands the fast paths leave).
 */
#ifndef CC_SRC_JOKERS_H
#define CC_SRC_JOKERS_H

#include <stdint.h>

#include "chinchon.h"

#include "bits.h"

/* The places of every lane (a mask of the working space). O(1). */
CC_INLINE uint64_t places_mask(int places)
{
    return places == 10 ? UINT64_C(0x03FF03FF03FF03FF) : CC_LANE_MASK;
}

/* The parts route of the deadwood: natural cards (a, b) (working space; b == 0 in the
 * first) with nj >= 1 jokers, set capacity cap, `places` places a lane; best: the
 * deadwood with no joker melded; runs, sets: the natural cards' masks. joker_parts.c. */
CC_INTERNAL int cc_jparts_one(const cc_rules *view, int jp, uint64_t a, int nj, int cap,
                              int places, int best, uint64_t runs, uint64_t sets);
CC_INTERNAL int cc_jparts_two(const cc_rules *view, int jp, uint64_t a, uint64_t b, int nj,
                              int cap, int places, int best, uint64_t runs, uint64_t sets);

/* The parts route of the hints: the 8 valid cards h holding nj >= 1 jokers, their
 * natural cards (a, b) (working space; b == 0 in the first), set capacity cap, meld:
 * the natural cards in a natural meld; points in h's raw card order. joker_parts.c. */
CC_INTERNAL void cc_jhints_route_one(const cc_rules *view, const cc_rules *rules, cc_hand h,
                                     uint64_t a, uint64_t b, int nj, int cap, uint64_t meld,
                                     uint8_t *points);
CC_INTERNAL void cc_jhints_route_two(const cc_rules *view, const cc_rules *rules, cc_hand h,
                                     uint64_t a, uint64_t b, int nj, int cap, uint64_t meld,
                                     uint8_t *points);

/* Deadwood of natural cards (a, b) (working space; b == 0 with one deck) with nj >= 1
 * jokers (cc_joker_deadwood, variants.h), and the hint points of the 8 valid cards h
 * holding a joker, raw card order, set capacity cap (b == 0 folded in the first):
 * the single-hand search. jokers.c. */
CC_INTERNAL void cc_joker_hints_one(const cc_rules *view, const cc_rules *rules, cc_hand h,
                                    int cap, uint8_t *points);
CC_INTERNAL void cc_joker_hints_two(const cc_rules *view, const cc_rules *rules, cc_hand h,
                                    int cap, uint8_t *points);

#endif /* CC_SRC_JOKERS_H */
