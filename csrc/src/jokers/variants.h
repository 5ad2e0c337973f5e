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
 * that are not plain, ascending card order; points in 16 bits (with jokers worth up to
 * CC_MAX_JOKER_POINTS a hint may pass 255). The house hints on the working space
 * without a joker, else the joker hints (jokers.c). */
CC_INTERNAL void cc_var_hints(const cc_rules *rules, cc_hand h, uint16_t *points,
                              uint8_t *outcomes);

/* The best arrangement of a valid hand under any rules (plain included), for the
 * settlement and cc_best_melds: decks 0 (infer), 1 or 2 (the set capacity). O(1) on the
 * house fast path, else the sorted candidate search. */
CC_INTERNAL void cc_var_arrange(const cc_rules *rules, cc_hand h, int decks,
                                cc_arrangement *out);

/* Outcome of closing with the 7 valid cards h whose deadwood is `deadwood`.
 * O(1). */
CC_INTERNAL cc_outcome cc_var_outcome(const cc_rules *rules, cc_hand h, int deadwood);

/* ---- the candidate melds: the one lister of the arrangement and the settlement ---- */

#define CC_VAR_MAX_CAND 384 /* > the most candidates of 8 cards with jokers (~150) */

/* A hand split for the candidate lister: natural cards in the working space, jokers by
 * slot (0: bit 0 under the wild ace, 1: *1, 2: *2). */
typedef struct cc_vhand {
    uint64_t a, b;  /* natural cards held once / twice (working space) */
    uint8_t jn[3];  /* copies held of each joker */
    int nj;         /* jokers held, copies counted */
    int n;          /* cards held */
    int cap;        /* set capacity: 4 per deck */
} cc_vhand;

/* A candidate meld. Its key (docs/rules.md#jokers-in-melds: the natural cards
 * ascending, a copy twice, then 64 + the joker's bit, then a run joker's stand-in card)
 * is packed: element i + 1 in byte 7 - i % 8 of key[i / 8], zero bytes after the last,
 * so that the pair of words compares as the tuple does. */
typedef struct cc_vcand {
    uint64_t o, t;  /* its natural cards (working space) */
    uint64_t key[2];
    int8_t js;      /* joker slot, -1 none */
    uint8_t kind;   /* CC_SET / CC_RUN */
    uint8_t stand;  /* a run's joker: working bit of the card it stands for */
    uint8_t place;  /* a set's place (its rank in the run order) */
    int16_t pts;    /* points it melds (set by the arrangement, not the lister) */
    uint8_t cnt;    /* cards it melds, the joker counted */
} cc_vcand;

/* Compare two packed meld keys (cc_vcand.key) as Python tuples (a proper prefix
 * first). O(1). */
CC_INLINE int cc_var_key_cmp(const uint64_t *x, const uint64_t *y)
{
    if (x[0] != y[0])
        return x[0] < y[0] ? -1 : 1;
    return (x[1] > y[1]) - (x[1] < y[1]);
}

/* Split a valid hand: natural cards to the working space, jokers counted by slot.
 * decks: 1 or 2 (the set capacity), 0 to infer (2 when a card is held twice). O(1). */
CC_INTERNAL void cc_var_split(const cc_rules *rules, cc_hand h, int decks, cc_vhand *v);

/* Every candidate meld of a split hand, unsorted, into out (CC_VAR_MAX_CAND): the
 * natural sets and runs, the sets of >= 2 natural cards and a joker, the runs of natural
 * cards but for one place a joker stands for. Returns how many. O(candidates). */
CC_INTERNAL int cc_var_candidates(const cc_rules *rules, const cc_vhand *v, cc_vcand *out);

/* A candidate as a cc_meld with raw card bits. O(1). */
CC_INTERNAL cc_meld cc_var_raw_meld(const cc_rules *rules, const cc_vcand *c);

#endif /* CC_SRC_VARIANTS_H */
