/*
 * hand.h -- internal: the operations on a cc_hand (a multiset of cards as the masks
 * once and twice) that the core's files share, inline. This is the one copy of the hand
 * check, of adding a card, of removing a meld and of a hand's points; hand.c gives the
 * public forms (cc_check_hand, cc_hand_points).
 */
#ifndef CC_SRC_HAND_H
#define CC_SRC_HAND_H

#include <stdint.h>

#include "chinchon.h"

#include "base/bits.h"

/* More cards than any hand holds (every card of two decks): a count limit that never
 * applies. */
#define CC_ANY_COUNT (2 * CC_NSUITS * CC_NRANKS)

/* Status of h as a hand of at most max_cards cards, and of exactly `exact` cards when
 * exact >= 0; *n gets the count once the masks are well formed. O(1): two popcounts. */
CC_INLINE cc_status cc_hand_status(cc_hand h, int max_cards, int exact, int *n)
{
    if (((h.once | h.twice) & ~CC_LANE_MASK) != 0)
        return CC_ERR_LANE_BITS;
    if ((h.twice & ~h.once) != 0)
        return CC_ERR_TWICE_NOT_SUBSET;
    *n = cc_popcount(h.once) + cc_popcount(h.twice);
    if (*n > max_cards)
        return CC_ERR_TOO_MANY_CARDS;
    return (exact >= 0 && *n != exact) ? CC_ERR_CARD_COUNT : CC_OK;
}

/* Number of cards of h, a card held twice counted twice.
 * O(1): two popcounts. */
CC_INLINE int cc_hand_count(cc_hand h) { return cc_popcount(h.once) + cc_popcount(h.twice); }

/* Points of the cards of h under rules, a card held twice counted twice, but for the
 * 32 of a joker worth 32-50 (the five planes of cc_wpop: the natural cards, the
 * working space, and jokers worth up to 31 are whole). O(1): ten popcounts. */
CC_INLINE int cc_hand_weight(const cc_rules *rules, cc_hand h)
{
    return cc_wpop(rules, h.once) + cc_wpop(rules, h.twice);
}

/* Points of the cards of h under rules, every joker whole (a joker worth 32-50 adds the
 * 32 the planes lack), a card held twice counted twice. O(1): ten popcounts, two more
 * under such jokers. */
CC_INLINE int cc_hand_weight_any(const cc_rules *rules, cc_hand h)
{
    int w = cc_hand_weight(rules, h);
    if (rules->joker_points & 32u) /* (a branch: the house rules never take it) */
        w += (cc_popcount(h.once & rules->joker_mask) +
              cc_popcount(h.twice & rules->joker_mask)) << 5;
    return w;
}

/* h with one more copy of card (a bit index): held once, or twice if h holds it already
 * (the caller never adds a third copy). O(1). */
CC_INLINE cc_hand cc_hand_add(cc_hand h, int card)
{
    uint64_t bit = UINT64_C(1) << card;
    if (h.once & bit)
        h.twice |= bit;
    else
        h.once |= bit;
    return h;
}

/* Whether the multiset a lies within the multiset b (both well formed).
 * O(1). */
CC_INLINE int cc_hand_fits(cc_hand a, cc_hand b)
{
    return (a.once & ~b.once) == 0 && (a.twice & ~b.twice) == 0;
}

/* h less one copy of each card of mask x (x within h.once).
 * O(1). */
CC_INLINE cc_hand cc_hand_remove_once(cc_hand h, uint64_t x)
{
    cc_hand r;
    r.twice = h.twice & ~x;
    r.once = h.once & ~(x & ~h.twice); /* a card held twice, taken once, stays held */
    return r;
}

/* h less the multiset m (m within h): every copy m holds.
 * O(1). */
CC_INLINE cc_hand cc_hand_minus(cc_hand h, cc_hand m)
{
    return cc_hand_remove_once(cc_hand_remove_once(h, m.once), m.twice);
}

/* The cards of h as ascending bit indices into out, a copy held twice listed twice;
 * returns the count. O(cards). */
CC_INLINE int cc_hand_indices(cc_hand h, uint8_t *out)
{
    int n = 0;
    uint64_t m;
    for (m = h.once; m != 0; m &= m - 1) {
        int i = cc_ctz(m);
        out[n++] = (uint8_t)i;
        if ((h.twice >> i) & 1u)
            out[n++] = (uint8_t)i;
    }
    return n;
}

#endif /* CC_SRC_HAND_H */
