/*
 * outlook.c -- the outlook: discard hints that look one draw ahead (docs/rules.md#the-outlook-one-draw-ahead
 * outlook"). For 7 cards kept, each unseen copy is one equally likely next draw; the 8
 * cards then lose their best discard (fewest points, then the better close). Exact
 * integer counts: the number of draws, the sum of the best points, the draws by best
 * close.
 *
 * Plain rules (any point table and close limit, 48 cards, no jokers) run on the house
 * kernels: a drawn card that melds with nothing held (no two cards of its rank, no two
 * neighbours of its suit) leaves the 8 cards' best either the 7 kept (throw it back) or
 * the best 6 of the 7 plus the card itself, so only the cards that could meld get a hint
 * search of their own (cc_hints_plain). Other rules run the variants' hints
 * (cc_var_hints) on every 8 cards.
 */
#include "chinchon.h"

#include <string.h>

#include "base/bits.h"
#include "base/hand.h"
#include "jokers/variants.h"
#include "melds/hints.h"
#include "melds/melds.h"
#include "outlook/outlook.h"

/* How good a close is, by cc_outcome code: chinchon, joker chinchon, minus ten, normal,
 * none (docs/rules.md#which-arrangement-is-reported). */
static const uint8_t cc_better_close[5] = {0, 1, 2, 4, 3};

/* The number of decks of a call: the rules' own, else 2 when a card is held twice or
 * unseen twice (a card both held and unseen is then an error of one deck). O(1). */
static int cc_ahead_decks(const cc_rules *rules, cc_hand h, cc_hand unseen)
{
    if (rules->decks == 1 || rules->decks == 2)
        return rules->decks;
    return (h.twice | unseen.twice) != 0 ? 2 : 1;
}

/* Status of a hand of `exact` cards and its unseen cards under rules, for `decks` decks:
 * the hand as the solver checks it, then the unseen masks (cards of the deck, twice in
 * once), a card held and unseen past the decks' copies (CC_ERR_DUPLICATE with one deck,
 * CC_ERR_THREE_COPIES with two), no unseen card (CC_ERR_CARD_COUNT). O(1). */
static cc_status cc_ahead_status(const cc_rules *rules, cc_hand h, int exact, cc_hand u,
                                   int decks)
{
    int n;
    cc_status st;
    uint64_t cards = rules->plain ? CC_LANE_MASK
                                  : CC_LANE_MASK | (rules->joker_mask & rules->card_mask);
    st = rules->plain ? cc_hand_status(h, CC_MAX_HAND, exact, &n)
                      : cc_var_status(rules, h, CC_MAX_HAND, exact, &n);
    if (st != CC_OK)
        return st;
    if (((u.once | u.twice) & ~cards) != 0)
        return CC_ERR_LANE_BITS;
    if ((u.twice & ~u.once) != 0)
        return CC_ERR_TWICE_NOT_SUBSET;
    if ((u.once & ~rules->card_mask) != 0)
        return CC_ERR_NOT_IN_DECK;
    if (decks == 1 && ((h.twice | u.twice) != 0 || (h.once & u.once) != 0))
        return CC_ERR_DUPLICATE;
    if (decks == 2 && ((h.twice & u.once) | (u.twice & h.once)) != 0)
        return CC_ERR_THREE_COPIES;
    return u.once == 0 ? CC_ERR_CARD_COUNT : CC_OK;
}

/* Count one draw of `copies` copies ending with best points p and close code.
 * O(1). */
static void cc_tally(cc_prospect *out, int copies, int p, int code)
{
    out->draws += (uint32_t)copies;
    out->points_sum += (uint32_t)(copies * p);
    out->outcomes[code] += (uint32_t)copies;
}

/* The best discard of 8 cards (a, b) given their hint points (ascending card order, a
 * copy twice listed twice): *points the fewest, the return value the best close among
 * the discards leaving that many. O(8); the closes are computed at 0 points only. */
static int cc_ahead_best_of_hints(const cc_rules *rules, uint64_t a, uint64_t b,
                            const uint8_t *pts, int *points)
{
    int k, best = pts[0], code = 0;
    uint64_t x;
    for (k = 1; k < 8; k++)
        if (pts[k] < best)
            best = pts[k];
    *points = best;
    if (best > rules->close_limit)
        return CC_CANNOT_CLOSE;
    if (best > 0)
        return CC_NORMAL;
    for (x = a, k = 0; x != 0; x &= x - 1) {
        uint64_t bit = x & (~x + 1);
        int twice = (b & bit) != 0;
        if (pts[k] == 0) {
            int c = (int)cc_outcome_of(rules, twice ? a : a ^ bit, twice ? b ^ bit : b, 0);
            if (cc_better_close[c] > cc_better_close[code])
                code = c;
        }
        k += 1 + twice;
    }
    return code;
}

/* Prospect of 7 valid cards (a, b) under plain rules, drawing from unseen (valid).
 * One 7-card deadwood, seven 6-card ones, and a hint search per distinct unseen card
 * that could meld with the 7. */
static void cc_ahead_prospect_plain(const cc_rules *rules, uint64_t a, uint64_t b, cc_hand u,
                              cc_prospect *out)
{
    int dw7 = cc_melds_deadwood_core(rules, a, b);
    int out7 = (int)cc_outcome_of(rules, a, b, dw7);
    int m6 = 1 << 20;
    uint64_t x, useful, pairs;
    uint64_t l0 = a & CC_RANK_MASK, l1 = (a >> 16) & CC_RANK_MASK;
    uint64_t l2 = (a >> 32) & CC_RANK_MASK, l3 = a >> 48;
    for (x = a; x != 0; x &= x - 1) {
        uint64_t bit = x & (~x + 1);
        int d = (b & bit) ? cc_melds_deadwood_core(rules, a, b ^ bit)
                          : cc_melds_deadwood_core(rules, a ^ bit, b);
        if (d < m6)
            m6 = d;
    }
    /* a card melds with the 7 when two cards of its rank are held (copies counted), or
     * two of its suit's neighbours on one side or around it */
    pairs = (l0 & l1) | (l2 & l3) | ((l0 | l1) & (l2 | l3)) |
            ((b | (b >> 16) | (b >> 32) | (b >> 48)) & CC_RANK_MASK);
    useful = ((a >> 1 & a >> 2) | (a << 1 & a >> 1) | (a << 1 & a << 2) |
              pairs * CC_LANES) & CC_LANE_MASK;
    memset(out, 0, sizeof *out);
    for (x = u.once; x != 0; x &= x - 1) {
        int i = cc_ctz(x);
        uint64_t bit = x & (~x + 1);
        int copies = 1 + (int)((u.twice >> i) & 1u);
        if (useful & bit) {
            uint8_t pts[8];
            cc_hand h8;
            int p, code;
            h8.once = a | bit;
            h8.twice = b | (a & bit);
            cc_hints_plain(rules, h8, pts);
            code = cc_ahead_best_of_hints(rules, h8.once, h8.twice, pts, &p);
            cc_tally(out, copies, p, code);
        } else {
            int p = m6 + rules->points[i & 15];
            if (dw7 <= p) {
                cc_tally(out, copies, dw7, out7);
            } else {
                int code = p == 0 ? CC_MINUS_TEN
                                  : p <= rules->close_limit ? CC_NORMAL : CC_CANNOT_CLOSE;
                cc_tally(out, copies, p, code);
            }
        }
    }
}

/* Prospect of 7 valid cards under rules that are not plain (r: the call's rules with its
 * decks set): the variants' hints of every 8 cards, one per distinct unseen card.
 * One hint search per distinct unseen card. */
static void cc_ahead_prospect_any(const cc_rules *r, cc_hand h7, cc_hand u, cc_prospect *out)
{
    uint64_t x;
    memset(out, 0, sizeof *out);
    for (x = u.once; x != 0; x &= x - 1) {
        int i = cc_ctz(x), k, best = 0, code = 0;
        int copies = 1 + (int)((u.twice >> i) & 1u);
        uint16_t pts[8];
        uint8_t outs[8];
        cc_hand h8 = cc_hand_add(h7, i);
        cc_var_hints(r, h8, pts, outs);
        for (k = 0; k < 8; k++) {
            if (k == 0 || pts[k] < best ||
                (pts[k] == best && cc_better_close[outs[k]] > cc_better_close[code])) {
                best = pts[k];
                code = outs[k];
            }
        }
        cc_tally(out, copies, best, code);
    }
}

/* Prospect of 7 valid cards with the rules of the call.
 * The plain or the variants' route. */
static void cc_ahead_prospect_run(const cc_rules *r, cc_hand h7, cc_hand u, cc_prospect *out)
{
    if (r->plain)
        cc_ahead_prospect_plain(r, h7.once, h7.twice, u, out);
    else
        cc_ahead_prospect_any(r, h7, u, out);
}

/* The prospect of 7 cards drawing from unseen, both checked here (cc_prospect_of past
 * its pointer checks). One prospect. */
cc_status cc_ahead_prospect(const cc_rules *rules, cc_hand h7, cc_hand unseen,
                            cc_prospect *out)
{
    cc_rules r;
    cc_status st;
    r = *rules;
    r.decks = (uint8_t)cc_ahead_decks(rules, h7, unseen);
    st = cc_ahead_status(&r, h7, 7, unseen, r.decks);
    if (st != CC_OK)
        return st;
    cc_ahead_prospect_run(&r, h7, unseen, out);
    return CC_OK;
}

/* The outlook of a checked 8-card hand (r: the call's rules, decks set).
 * The hints, then one prospect per distinct card. */
static void cc_ahead_outlook_run(const cc_rules *r, cc_hand h, cc_hand u, uint16_t points[8],
                           uint8_t *outcomes, cc_prospect out[8])
{
    uint64_t x;
    int k = 0;
    if (r->plain) {
        uint8_t p8[8]; /* (plain rules: every hint fits a byte) */
        cc_hints_of(r, h, p8, outcomes);
        for (k = 0; k < 8; k++)
            points[k] = p8[k];
        k = 0;
    } else {
        cc_var_hints(r, h, points, outcomes);
    }
    for (x = h.once; x != 0; x &= x - 1) {
        uint64_t bit = x & (~x + 1);
        cc_hand h7;
        if (h.twice & bit) {
            h7.once = h.once;
            h7.twice = h.twice ^ bit;
        } else {
            h7.once = h.once ^ bit;
            h7.twice = h.twice;
        }
        cc_ahead_prospect_run(r, h7, u, &out[k]);
        if (h.twice & bit) {
            out[k + 1] = out[k];
            k++;
        }
        k++;
    }
}

/* The outlook of 8 cards drawing from unseen, both checked here (cc_outlook past its
 * pointer checks). The hints and eight prospects. */
cc_status cc_ahead_hand(const cc_rules *rules, cc_hand h8, cc_hand unseen,
                        uint16_t points[8], uint8_t *outcomes, cc_prospect out[8])
{
    cc_rules r;
    cc_status st;
    r = *rules;
    r.decks = (uint8_t)cc_ahead_decks(rules, h8, unseen);
    st = cc_ahead_status(&r, h8, CC_MAX_HAND, unseen, r.decks);
    if (st != CC_OK)
        return st;
    cc_ahead_outlook_run(&r, h8, unseen, points, outcomes, out);
    return CC_OK;
}

/* One row of the batch's output: the columns of OUTLOOK_COLUMNS for each held card.
 * O(8). */
static void cc_ahead_outlook_row(const uint16_t *points, const cc_prospect *p, double *row)
{
    int k;
    for (k = 0; k < 8; k++, row += CC_OUTLOOK_COLUMNS) {
        double n = (double)p[k].draws;
        row[0] = (double)points[k];
        row[1] = (double)p[k].points_sum / n;
        row[2] = (double)(p[k].draws - p[k].outcomes[CC_CANNOT_CLOSE]) / n;
        row[3] = (double)p[k].outcomes[CC_MINUS_TEN] / n;
        row[4] = (double)(p[k].outcomes[CC_CHINCHON] + p[k].outcomes[CC_JOKER_CHINCHON]) / n;
        row[5] = (double)p[k].outcomes[CC_JOKER_CHINCHON] / n;
    }
}

/* The outlook of n batch rows (cc_outlook_batch past its argument checks), each row
 * checked; stops at the first bad row. O(n) outlooks. */
cc_status cc_ahead_rows(const cc_rules *rules, const uint64_t *masks,
                        const uint64_t *unseen, size_t n, int decks, double *out,
                        size_t *bad_row)
{
    size_t i;
    cc_rules r;
    r = *rules;
    r.decks = (uint8_t)decks;
    for (i = 0; i < n; i++) {
        cc_hand h, u;
        uint16_t points[8];
        cc_prospect p[8];
        cc_status st;
        h.once = decks == 1 ? masks[i] : masks[2 * i];
        h.twice = decks == 1 ? 0 : masks[2 * i + 1];
        u.once = decks == 1 ? unseen[i] : unseen[2 * i];
        u.twice = decks == 1 ? 0 : unseen[2 * i + 1];
        st = cc_ahead_status(&r, h, CC_MAX_HAND, u, decks);
        if (st == CC_OK)
            cc_ahead_outlook_run(&r, h, u, points, NULL, p);
        if (st != CC_OK) {
            if (bad_row != NULL)
                *bad_row = i;
            return st;
        }
        cc_ahead_outlook_row(points, p, out + (size_t)8 * CC_OUTLOOK_COLUMNS * i);
    }
    return CC_OK;
}
