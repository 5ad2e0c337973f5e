/*
 * variants.h -- internal: the meld search under the rule variants (variants.c;
 * docs/rules.md#rule-variants): the 40-card deck, jokers, which closes win. The checks
 * of a hand under such rules, the rules seen in the working space (base/space.h), and
 * the kernels of variants.c, for hands already checked.
 */
#ifndef CC_SRC_VARIANTS_H
#define CC_SRC_VARIANTS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "chinchon.h"

#include "base/bits.h"
#include "base/space.h"

/* Status of a hand under rules that are not plain, in the batch rows' order: a bit that
 * is no card of the rules (the jokers in play are cards): CC_ERR_LANE_BITS; twice not in
 * once; an eight or nine with 40 cards: CC_ERR_NOT_IN_DECK; more than max_cards, or not
 * exact (>= 0). *n gets the count. cards: CC_LANE_MASK | the rules' jokers in play;
 * deck: their card_mask (the batch loops compute both once). O(1). */
CC_INLINE cc_status cc_var_status_masks(uint64_t cards, uint64_t deck, cc_hand h,
                                        int max_cards, int exact, int *n)
{
    if (((h.once | h.twice) & ~cards) != 0)
        return CC_ERR_LANE_BITS;
    if ((h.twice & ~h.once) != 0)
        return CC_ERR_TWICE_NOT_SUBSET;
    if ((h.once & ~deck) != 0)
        return CC_ERR_NOT_IN_DECK;
    *n = cc_popcount(h.once) + cc_popcount(h.twice);
    if (*n > max_cards)
        return CC_ERR_TOO_MANY_CARDS;
    return (exact >= 0 && *n != exact) ? CC_ERR_CARD_COUNT : CC_OK;
}

/* cc_var_status_masks with the masks of the rules. O(1). */
CC_INLINE cc_status cc_var_status(const cc_rules *rules, cc_hand h, int max_cards, int exact,
                                  int *n)
{
    return cc_var_status_masks(CC_LANE_MASK | (rules->joker_mask & rules->card_mask),
                               rules->card_mask, h, max_cards, exact, n);
}

/* The rules with plane and points in the working space: what the house kernels read.
 * O(1): a struct copy. */
CC_INLINE cc_rules cc_view(const cc_rules *rules)
{
    cc_rules v = *rules;
    memcpy(v.plane, rules->wplane, sizeof v.plane);
    memcpy(v.points, rules->wpoints, sizeof v.points);
    return v;
}

/* Deadwood of a valid hand of 0..8 cards under rules that are not plain (the decks of
 * the rules; 0: 2 when a card is held twice). The house kernel on the working space
 * without a joker, else the joker search (jokers.c). O(1) to a few hundred ns. */
CC_INTERNAL int cc_var_deadwood(const cc_rules *rules, cc_hand h);

/* Outcome of closing with the 7 valid cards h under rules that are not plain.
 * One deadwood. */
CC_INTERNAL cc_outcome cc_var_close_outcome(const cc_rules *rules, cc_hand h);

/* Discard hints (points, and outcomes when not NULL) of the 8 valid cards h under rules
 * that are not plain, ascending card order. The house hints on the working space
 * without a joker, else the joker hints (jokers.c). */
CC_INTERNAL void cc_var_hints(const cc_rules *rules, cc_hand h, uint8_t *points,
                              uint8_t *outcomes);

/* The best arrangement of a valid hand under any rules (plain included), for the
 * settlement and cc_best_melds: decks 0 (infer), 1 or 2 (the set capacity). O(1) on the
 * house fast path, else the sorted candidate search. */
CC_INTERNAL void cc_var_arrange(const cc_rules *rules, cc_hand h, int decks,
                                cc_arrangement *out);

/* Outcome of closing with the 7 valid cards h whose deadwood is `deadwood`.
 * O(1). */
CC_INTERNAL cc_outcome cc_var_outcome(const cc_rules *rules, cc_hand h, int deadwood);

#endif /* CC_SRC_VARIANTS_H */
