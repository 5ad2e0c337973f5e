/*
 * batch.c -- the batch forms of cc_deadwood and cc_discard_hints: n rows of masks, each
 * checked then computed, in one loop shared by both.
 */
#include "chinchon.h"

#include <stddef.h>
#include <stdint.h>

#include "hand.h"
#include "melds.h"

/* Check the arguments both batch calls share (rows themselves are checked one by one).
 * O(1). */
static cc_status cc_batch_args(const cc_rules *rules, const uint64_t *masks, size_t n,
                               int decks, const uint8_t *out)
{
    if (rules == NULL || (decks != 1 && decks != 2))
        return CC_ERR_BAD_ARGUMENT;
    if (n > 0 && (masks == NULL || out == NULL))
        return CC_ERR_BAD_ARGUMENT;
    return CC_OK;
}

/* Rows 0..n-1 in order: row i is (masks[i], 0) with one deck, (masks[2i], masks[2i+1])
 * with two; each is checked (0..8 cards; exactly 8 for hints), then its deadwood goes to
 * out[i], or its hints to out[8i..8i+7]. Stops at the first bad row (its index in
 * *bad_row when bad_row != NULL). Inlined once per (decks, hints), constants there, so
 * the single-deck copies drop every twice term. O(n) deadwoods or hint rows. */
CC_FORCE_INLINE cc_status cc_batch_rows(const cc_rules *rules, const uint64_t *masks,
                                        size_t n, int decks, int hints, uint8_t *out,
                                        size_t *bad_row)
{
    size_t i;
    for (i = 0; i < n; i++) {
        cc_hand h;
        int cards;
        cc_status st;
        h.once = decks == 1 ? masks[i] : masks[2 * i];
        h.twice = decks == 1 ? 0 : masks[2 * i + 1];
        st = cc_hand_status(h, CC_MAX_HAND, hints ? CC_MAX_HAND : -1, &cards);
        if (st != CC_OK) {
            if (bad_row != NULL)
                *bad_row = i;
            return st;
        }
        if (hints)
            cc_hint_points(rules, h, out + 8 * i);
        else
            out[i] = (uint8_t)cc_deadwood_core(rules, h.once, h.twice);
    }
    return CC_OK;
}

/* Deadwood of n rows (0..8 cards each), validated row by row; stops at the first bad
 * row. O(n) deadwoods: a few ns a row on the fast path. */
cc_status cc_deadwood_batch(const cc_rules *rules, const uint64_t *masks, size_t n,
                            int decks, uint8_t *out, size_t *bad_row)
{
    cc_status st = cc_batch_args(rules, masks, n, decks, out);
    if (st != CC_OK)
        return st;
    return decks == 1 ? cc_batch_rows(rules, masks, n, 1, 0, out, bad_row)
                      : cc_batch_rows(rules, masks, n, 2, 0, out, bad_row);
}

/* Hints of n rows of exactly 8 cards into 8n bytes (row-major, ascending card order);
 * stops at the first bad row. O(n) hint rows. */
cc_status cc_hints_batch(const cc_rules *rules, const uint64_t *masks, size_t n, int decks,
                         uint8_t *out, size_t *bad_row)
{
    cc_status st = cc_batch_args(rules, masks, n, decks, out);
    if (st != CC_OK)
        return st;
    return decks == 1 ? cc_batch_rows(rules, masks, n, 1, 1, out, bad_row)
                      : cc_batch_rows(rules, masks, n, 2, 1, out, bad_row);
}
