/*
 * hints.c -- discard hints under plain rules: for each card of an 8-card hand, the
 * deadwood of the 7 left and the outcome of closing with them; one hand or a batch.
 */
#include "chinchon.h"

#include <string.h>

#include "base/bits.h"
#include "base/hand.h"
#include "melds/hints.h"
#include "melds/melds.h"

/* Hints of a valid 8-card hand: the deadwood after each discard, ascending card order,
 * a copy held twice listed twice. A card that some best 8-card collection leaves
 * unmatched (or that lies in no candidate meld) changes no meld choice, so its hint is
 * the 8-card deadwood minus its points: one pass writes that for every card, then only
 * the other candidate cards get a 7-card deadwood of their own (<= 8 deadwoods).
 * Force-inlined into its two out-of-line copies below. */
CC_FORCE_INLINE void cc_hints_core(const cc_rules *rules, uint64_t a, uint64_t b,
                                   uint8_t *points)
{
    uint64_t runs = cc_run_cards(a);
    uint64_t sets = cc_set_columns(a, b);
    uint64_t x, avoid = 0;
    uint8_t tmp[CC_MAX_HAND + 2];
    int dw8, k = 0;
    if (cc_sets_runs_compete(a, b, runs, sets)) {
        dw8 = cc_melds_unmatched(rules, a, b, runs, sets, &avoid);
    } else {
        uint64_t keep = ~(runs | sets);
        dw8 = cc_wpop(rules, a & keep) + cc_wpop(rules, b & keep);
    }
    for (x = a; x != 0; x &= x - 1) {
        int i = cc_ctz(x);
        uint8_t d = (uint8_t)(dw8 - rules->points[i & 15]);
        tmp[k] = d;
        tmp[k + 1] = d; /* overwritten next unless the card is held twice */
        k += 1 + (int)((b >> i) & 1u);
    }
    for (x = a & (runs | (a & sets)) & ~avoid; x != 0; x &= x - 1) {
        uint64_t bit = x & (~x + 1), below = bit - 1;
        uint64_t col = (UINT64_C(1) << (cc_ctz(x) & 15)) * CC_LANES;
        int pos = cc_popcount(a & below) + cc_popcount(b & below);
        uint8_t d;
        /* the 7 cards' sets: the same, less this rank when it falls to 2 copies */
        uint64_t sets7 = cc_popcount(a & col) + cc_popcount(b & col) > 3 ? sets : sets & ~col;
        if (b & bit) {
            d = (uint8_t)cc_melds_deadwood_masks(rules, a, b ^ bit, runs, sets7);
            tmp[pos + 1] = d;
        } else {
            d = (uint8_t)cc_melds_deadwood_masks(rules, a ^ bit, b, cc_run_cards(a ^ bit), sets7);
        }
        tmp[pos] = d;
    }
    memcpy(points, tmp, 8);
}

/* cc_hints_core out of line for a single-deck hand (every twice term folded away).
 * One 8-card deadwood plus <= 8 seven-card ones. */
static void cc_hints_one_deck(const cc_rules *rules, uint64_t a, uint8_t *points)
{
    cc_hints_core(rules, a, 0, points);
}

/* cc_hints_core out of line for a hand holding some card twice.
 * One 8-card deadwood plus <= 8 seven-card ones. */
static void cc_hints_two_decks(const cc_rules *rules, uint64_t a, uint64_t b, uint8_t *points)
{
    cc_hints_core(rules, a, b, points);
}

/* Hints of a valid 8-card hand into points[8], by the copy that fits it. The choice
 * is made at the caller, not inside one function holding both copies: that measured
 * ~7% slower in the two-deck batch. O(1) plus the hints. */
CC_INLINE void cc_hint_points(const cc_rules *rules, cc_hand h, uint8_t *points)
{
    if (h.twice == 0)
        cc_hints_one_deck(rules, h.once, points);
    else
        cc_hints_two_decks(rules, h.once, h.twice, points);
}

/* cc_hint_points out of line, for the outlook and the variants' hands without jokers
 * (on the working space). One 8-card deadwood plus <= 8 seven-card ones. */
void cc_hints_plain(const cc_rules *rules, cc_hand h, uint8_t *points)
{
    cc_hint_points(rules, h, points);
}

/* Closing outcomes matching the hints of an 8-card hand, from its hint points.
 * O(8). */
static void cc_hint_outcomes(const cc_rules *rules, uint64_t a, uint64_t b,
                             const uint8_t *points, uint8_t *outcomes)
{
    uint64_t x;
    int k = 0;
    if (!cc_hints_may_close(rules, points)) {
        memset(outcomes, CC_CANNOT_CLOSE, 8); /* most turns: no discard closes */
        return;
    }
    for (x = a; x != 0; x &= x - 1) {
        uint64_t bit = x & (~x + 1);
        int held_twice = (b & bit) != 0;
        uint64_t a7 = held_twice ? a : a ^ bit, b7 = held_twice ? b ^ bit : b;
        outcomes[k] = (uint8_t)cc_outcome_of(rules, a7, b7, points[k]);
        k++;
        if (held_twice) {
            outcomes[k] = outcomes[k - 1];
            k++;
        }
    }
}

/* Discard hints (points, and outcomes when not NULL) of a valid 8-card hand under plain
 * rules, ascending card order, a copy held twice listed twice. One 8-card deadwood plus
 * one 7-card deadwood per card in a candidate meld. */
void cc_hints_of(const cc_rules *rules, cc_hand h, uint8_t *points, uint8_t *outcomes)
{
    cc_hint_points(rules, h, points);
    if (outcomes != NULL)
        cc_hint_outcomes(rules, h.once, h.twice, points, outcomes);
}

/* Hints of n batch rows of exactly 8 cards under plain rules into 8n bytes (row-major,
 * ascending card order); stops at the first bad row (see cc_batch_row). O(n) hint
 * rows. */
cc_status cc_hints_rows(const cc_rules *rules, const uint64_t *masks, size_t n, int decks,
                        uint8_t *out, size_t *bad_row)
{
    size_t i;
    cc_status st = CC_OK;
    for (i = 0; st == CC_OK && i < n; i++) {
        cc_hand h;
        st = cc_batch_row(masks, i, decks, CC_MAX_HAND, &h, bad_row);
        if (st == CC_OK)
            cc_hint_points(rules, h, out + 8 * i);
    }
    return st;
}
