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

/* The parts route of the deadwood with one joker: natural cards (a, b) (working space;
 * b == 0 in the first), set capacity cap, `places` places a lane; best: the deadwood
 * with no joker melded; runs, sets: the natural cards' masks. joker_parts.c. */
CC_INTERNAL int cc_jparts_one(const cc_rules *view, int jp, uint64_t a, int nj, int cap,
                              int places, int best, uint64_t runs, uint64_t sets);
CC_INTERNAL int cc_jparts_two(const cc_rules *view, int jp, uint64_t a, uint64_t b, int nj,
                              int cap, int places, int best, uint64_t runs, uint64_t sets);

/* The deadwood with nj >= 2 jokers: the candidates' search (joker_parts.c, "two jokers
 * or more"). */
CC_INTERNAL int cc_jcands_one(const cc_rules *view, int jp, uint64_t a, int nj, int cap,
                              int places);
CC_INTERNAL int cc_jcands_two(const cc_rules *view, int jp, uint64_t a, uint64_t b, int nj,
                              int cap, int places);

/* The hints of the 8 valid cards h: with one joker and a natural meld (the parts route;
 * meld: the natural cards in a natural meld), and with nj >= 2 jokers (the candidates'
 * search); natural cards (a, b) (working space; b == 0 in the first), set capacity cap;
 * points in h's raw card order. joker_parts.c. */
CC_INTERNAL void cc_jhints_route_one(const cc_rules *view, const cc_rules *rules, cc_hand h,
                                     uint64_t a, int cap, uint64_t meld, uint8_t *points);
CC_INTERNAL void cc_jhints_route_two(const cc_rules *view, const cc_rules *rules, cc_hand h,
                                     uint64_t a, uint64_t b, int cap, uint64_t meld,
                                     uint8_t *points);
CC_INTERNAL void cc_jhints_cands_one(const cc_rules *view, const cc_rules *rules, cc_hand h,
                                     uint64_t a, int nj, int cap, uint8_t *points);
CC_INTERNAL void cc_jhints_cands_two(const cc_rules *view, const cc_rules *rules, cc_hand h,
                                     uint64_t a, uint64_t b, int nj, int cap,
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
