/*
 * hand.c -- the public hand operations: the hand check, a hand's points, meld keys, and
 * the name and text of each status code (the inline forms the core's files share are
 * in hand.h).
 */
#include "chinchon.h"

#include "base/bits.h"
#include "base/hand.h"

/* Validate a hand (lane bits, twice within once, at most max_cards cards) and count it.
 * O(1): two popcounts. n_cards may be NULL. */
cc_status cc_check_hand(cc_hand h, int max_cards, int *n_cards)
{
    int n = 0;
    cc_status st = cc_hand_status(h, max_cards, -1, &n);
    if (n_cards != NULL && (st == CC_OK || st == CC_ERR_TOO_MANY_CARDS))
        *n_cards = n;
    return st;
}

/* Points of the cards of h, jokers included, a card held twice counted twice.
 * O(1): ten popcounts (twelve under jokers worth over 31). */
int cc_hand_points(const cc_rules *rules, cc_hand h) { return cc_hand_weight_any(rules, h); }

/* Next element of a meld key walked in ascending order, consuming it from (*o, *t);
 * -1 at the end. O(1). */
static int cc_key_next(uint64_t *o, uint64_t *t)
{
    uint64_t bit;
    if (*o == 0)
        return -1;
    bit = *o & (~*o + 1);
    if (*t & bit)
        *t &= ~bit; /* first of two copies: the second is still to come */
    else
        *o &= ~bit;
    return cc_ctz(bit);
}

/* Compare two meld keys as Python tuples (a proper prefix is smaller): <0, 0, >0.
 * O(cards). */
int cc_meld_key_compare(cc_hand x, cc_hand y)
{
    uint64_t xo = x.once, xt = x.twice & x.once, yo = y.once, yt = y.twice & y.once;
    for (;;) {
        int ex = cc_key_next(&xo, &xt), ey = cc_key_next(&yo, &yt);
        if (ex != ey)
            return ex < ey ? -1 : 1; /* -1 (the end) sorts first: prefix rule */
        if (ex < 0)
            return 0;
    }
}

/* The name (spelled as in chinchon.h, by the preprocessor) and the text of each status
 * code, indexed by the code. */
#define CC_STATUS_ROW(code, text) [code] = {#code, text}
static const struct {
    const char *name;
    const char *message;
} cc_statuses[CC_STATUS_END] = {
    CC_STATUS_ROW(CC_OK, "ok"),
    CC_STATUS_ROW(CC_ERR_LANE_BITS,
                  "bits set outside the card lanes (bits 12-15 of a 16-bit lane)"),
    CC_STATUS_ROW(CC_ERR_TWICE_NOT_SUBSET,
                  "the twice mask holds a card that the once mask does not"),
    CC_STATUS_ROW(CC_ERR_TOO_MANY_CARDS, "too many cards (at most 8)"),
    CC_STATUS_ROW(CC_ERR_CARD_COUNT, "wrong number of cards"),
    CC_STATUS_ROW(CC_ERR_DUPLICATE, "a card held twice in single-deck play"),
    CC_STATUS_ROW(CC_ERR_THREE_COPIES, "a card in play more than twice"),
    CC_STATUS_ROW(CC_ERR_CANNOT_CLOSE, "the closer's deadwood is over the close limit"),
    CC_STATUS_ROW(CC_ERR_BAD_ARGUMENT, "an argument out of range"),
    CC_STATUS_ROW(CC_ERR_NOT_IN_DECK, "a card that the rules' deck does not have"),
    CC_STATUS_ROW(CC_ERR_INTERRUPTED, "the game was stopped by its caller"),
};

/* Whether status is one of the codes of cc_status (not the sentinel) with a table row.
 * O(1). */
static int cc_status_known(cc_status status)
{
    unsigned s = (unsigned)status;
    return s < (unsigned)CC_STATUS_END && cc_statuses[s].name != NULL;
}

/* A short English description of a status code (a static string).
 * O(1). */
const char *cc_status_message(cc_status status)
{
    return cc_status_known(status) ? cc_statuses[(unsigned)status].message : "unknown status";
}

/* The name of a status code as in chinchon.h, e.g. "CC_ERR_DUPLICATE" (a static string;
 * "CC_STATUS_UNKNOWN" for a value that is no status code). O(1). */
const char *cc_status_name(cc_status status)
{
    return cc_status_known(status) ? cc_statuses[(unsigned)status].name : "CC_STATUS_UNKNOWN";
}
