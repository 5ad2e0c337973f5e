/*
 * melds.h -- internal: the house meld search (melds.c): its two masks and deadwood
 * kernel, inline for the files that run them on their hot paths, the out-of-line
 * kernels of melds.c, and the row reader every batch shares. How the search works:
 * melds.c.
 */
#ifndef CC_SRC_MELDS_H
#define CC_SRC_MELDS_H

#include <stddef.h>
#include <stdint.h>

#include "chinchon.h"

#include "base/bits.h"
#include "base/hand.h"

#define CC_RANK_MASK UINT64_C(0xFFF)

/* Cards of a that lie in some run (a segment of >= 3 in one suit).
 * Six shifts/ands, all suits at once. */
CC_INLINE uint64_t cc_run_cards(uint64_t a)
{
    uint64_t s = a & (a >> 1) & (a >> 2);
    return s | (s << 1) | (s << 2);
}

/* Ranks (lane 0's places) held >= 2 times, copies counted (a rank held twice in one
 * lane is a card held twice: in b). About 15 operations. */
CC_INLINE uint64_t cc_ranks_twice(uint64_t a, uint64_t b)
{
    uint64_t l0 = a & CC_RANK_MASK, l1 = (a >> 16) & CC_RANK_MASK;
    uint64_t l2 = (a >> 32) & CC_RANK_MASK, l3 = (a >> 48) & CC_RANK_MASK;
    uint64_t t1 = (b | (b >> 16) | (b >> 32) | (b >> 48)) & CC_RANK_MASK;
    return (l0 & l1) | (l2 & l3) | ((l0 | l1) & (l2 | l3)) | t1;
}

/* Columns (ranks, broadcast to all four lanes) of ranks held >= 3 times, copies counted.
 * About 20 operations; a must be a valid hand (bits 60-63 clear). */
CC_INLINE uint64_t cc_set_columns(uint64_t a, uint64_t b)
{
    uint64_t l0 = a & CC_RANK_MASK, l1 = (a >> 16) & CC_RANK_MASK;
    uint64_t l2 = (a >> 32) & CC_RANK_MASK, l3 = a >> 48;
    uint64_t ge3 = (l0 & l1 & (l2 | l3)) | (l2 & l3 & (l0 | l1));
    /* once + twice >= 3 <=> once >= 3, or once >= 2 with a copy (twice within once);
     * branch-free: with two decks b is zero in most hands, but not predictably */
    uint64_t ge2 = (l0 & l1) | (l2 & l3) | ((l0 | l1) & (l2 | l3));
    uint64_t t1 = (b | (b >> 16) | (b >> 32) | (b >> 48)) & CC_RANK_MASK;
    return (ge3 | (ge2 & t1)) * CC_LANES;
}

/* Whether the sets and runs of hand (a, b) compete for a card: a set card or a card
 * held twice lies in a run. If not, melding every card of both is the only optimal
 * arrangement (the fast path; see melds.c). O(1): three operations. */
CC_INLINE int cc_sets_runs_compete(uint64_t a, uint64_t b, uint64_t runs, uint64_t sets)
{
    return (((a & sets) | b) & runs) != 0;
}

/* Exact deadwood of a valid hand (a, b) of <= 8 cards whose sets and runs compete, given
 * its masks runs and sets. Out of line (melds.c); ~10-15 weighted popcounts. */
CC_INTERNAL int cc_melds_conflict(const cc_rules *rules, uint64_t a, uint64_t b,
                                     uint64_t runs, uint64_t sets);

/* cc_melds_conflict, and *av gets the cards (one copy) some best collection leaves
 * unmatched. Out of line (melds.c); the same cost. */
CC_INTERNAL int cc_melds_unmatched(const cc_rules *rules, uint64_t a, uint64_t b,
                                      uint64_t runs, uint64_t sets, uint64_t *av);

/* Best arrangement of a valid hand of <= 8 cards under plain rules (or a view of the
 * rules on the working space, no joker): the fast path, else cc_melds_exhaustive.
 * O(1) on the fast path. */
CC_INTERNAL void cc_melds_best(const cc_rules *rules, cc_hand h, cc_arrangement *out);

/* Best arrangement of a valid hand by the exhaustive search over candidate pairs.
 * O(k^2), k <= 66 candidates. */
CC_INTERNAL void cc_melds_exhaustive(const cc_rules *rules, cc_hand h, cc_arrangement *out);

/* Deadwood of n batch rows under plain rules (see cc_batch_row) into out[]; stops at
 * the first bad row. O(n): a few ns a row on the fast path. */
CC_INTERNAL cc_status cc_melds_deadwood_rows(const cc_rules *rules, const uint64_t *masks,
                                             size_t n, int decks, uint8_t *out,
                                             size_t *bad_row);

/* Exact deadwood of a valid hand of <= 8 cards given its two masks runs and sets:
 * the fast path, else the conflict search. ~10 operations and 5-10 popcounts fast. */
CC_INLINE int cc_melds_deadwood_masks(const cc_rules *rules, uint64_t a, uint64_t b, uint64_t runs,
                                uint64_t sets)
{
    uint64_t keep;
    if (cc_sets_runs_compete(a, b, runs, sets))
        return cc_melds_conflict(rules, a, b, runs, sets);
    keep = ~(runs | sets);
    return cc_wpop(rules, a & keep) + cc_wpop(rules, b & keep);
}

/* Exact deadwood of a valid hand of <= 8 cards: the two masks, else the conflict search.
 * ~25 operations and 5-10 popcounts on the fast path. */
CC_INLINE int cc_melds_deadwood_core(const cc_rules *rules, uint64_t a, uint64_t b)
{
    return cc_melds_deadwood_masks(rules, a, b, cc_run_cards(a), cc_set_columns(a, b));
}

/* Outcome of closing with the 7 cards (a, b) whose deadwood is d.
 * O(1). */
CC_INLINE cc_outcome cc_outcome_of(const cc_rules *rules, uint64_t a, uint64_t b, int d)
{
    if (b == 0 && a != 0 && (a >> cc_ctz(a)) == UINT64_C(0x7F))
        return CC_CHINCHON; /* seven consecutive bits can only sit in one lane */
    if (d == 0)
        return CC_MINUS_TEN;
    return d <= rules->close_limit ? CC_NORMAL : CC_CANNOT_CLOSE;
}

/* Row i of a batch into *h -- (masks[i], 0) with one deck, (masks[2i], masks[2i+1])
 * with two -- and its status as a hand of 0..8 cards, exactly `exact` when exact >= 0;
 * on a bad row its index goes to *bad_row (when not NULL). O(1): two popcounts. */
CC_INLINE cc_status cc_batch_row(const uint64_t *masks, size_t i, int decks, int exact,
                                 cc_hand *h, size_t *bad_row)
{
    int cards;
    cc_status st;
    h->once = decks == 1 ? masks[i] : masks[2 * i];
    h->twice = decks == 1 ? 0 : masks[2 * i + 1];
    st = cc_hand_status(*h, CC_MAX_HAND, exact, &cards);
    if (st != CC_OK && bad_row != NULL)
        *bad_row = i;
    return st;
}

#endif /* CC_SRC_MELDS_H */
