/*
 * jokers.h -- internal: what the joker search's files share: jokers.c (the single-hand
 * fast paths and entry points), joker_batch.c (the batch rows and their tables) and
 * joker_parts.c (the parts route for the hands the fast paths leave).
 */
#ifndef CC_SRC_JOKERS_H
#define CC_SRC_JOKERS_H

#include <stdint.h>

#include "chinchon.h"

#include "base/bits.h"
#include "melds/melds.h"

/* The places of every lane (a mask of the working space). O(1). */
CC_INLINE uint64_t places_mask(int places)
{
    return places == 10 ? UINT64_C(0x03FF03FF03FF03FF) : CC_LANE_MASK;
}

/* The heaviest part (its points; *part: its cards, one copy each) of natural cards
 * (a, b) that hold no natural meld; -1 when there is none. Without a natural meld a
 * rank is held at most twice and a suit's blocks of consecutive places are at most two
 * long, so the heaviest parts are: a rank held twice, or the blocks on both sides of
 * one empty place g (the joker's), >= 2 cards in all. Points are >= 0, so a part's
 * subsets weigh no more and only these need weighing. places: the lanes' places.
 * O(ranks held twice + such places), a few each. */
CC_INLINE int cc_jbest_part(const cc_rules *view, uint64_t a, uint64_t b, uint64_t places,
                            uint64_t *part)
{
    uint64_t pairs = cc_ranks_twice(a, b);
    uint64_t left1 = a << 1, left2 = a << 2, right1 = a >> 1, right2 = a >> 2, g;
    const uint8_t *pw = view->wpoints;
    int best = -1;
    for (; pairs != 0; pairs &= pairs - 1) {
        int r = cc_ctz(pairs), w = 2 * view->points[r]; /* a rank held exactly twice */
        if (w > best) {
            best = w;
            *part = a & ((UINT64_C(1) << r) * CC_LANES);
        }
    }
    /* empty places with >= 2 cards in the blocks beside them (a block is <= 2 long);
       lane edges need no care: bits 12-15 of a lane are never cards */
    for (g = ~a & places & ((left1 & left2) | (right1 & right2) | (left1 & right1)); g != 0;
         g &= g - 1) {
        /* branch-free: bit i +- 1, 2 held (i <= 59, so i + 2 < 64; below bit 0 the shift
           wraps to bits 62-63, never cards), and the points of their places (wpoints
           has a lane's 16 places, the ones past 11 zero: in bounds either way) */
        int i = cc_ctz(g);
        unsigned l1 = (unsigned)(a >> ((i - 1) & 63)) & 1u, r1 = (unsigned)(a >> (i + 1)) & 1u;
        unsigned l2 = l1 & (unsigned)(a >> ((i - 2) & 63)), r2 = r1 & (unsigned)(a >> (i + 2));
        int w = (int)(l1 * pw[(i - 1) & 15] + (l2 & 1u) * pw[(i - 2) & 15] +
                      r1 * pw[(i + 1) & 15] + (r2 & 1u) * pw[(i + 2) & 15]);
        uint64_t bit = UINT64_C(1) << i;
        uint64_t m = ((uint64_t)l1 * (bit >> 1)) | ((uint64_t)(l2 & 1u) * (bit >> 2)) |
                     ((uint64_t)r1 * (bit << 1)) | ((uint64_t)(r2 & 1u) * (bit << 2));
        *part = w > best ? m : *part;
        best = w > best ? w : best;
    }
    return best;
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
