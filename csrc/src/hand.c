/*
 * cards.c -- rule tables, hand validation, status messages and meld keys.
 */
#include "chinchon.h"

#include "bits.h"

/* Build the bit planes of a point table: plane[k] holds every card whose points have
 * bit k set. O(12 * 5). */
static void cc_fill_planes(cc_rules *rules)
{
    int k, r;
    for (k = 0; k < 5; k++) {
        uint64_t plane = 0;
        for (r = 0; r < CC_NRANKS; r++)
            if ((rules->points[r] >> k) & 1u)
                plane |= CC_LANES << r;
        rules->plane[k] = plane;
    }
}

/* Fill *rules with the house rules: points = rank, close limit 5.
 * O(1). */
void cc_rules_default(cc_rules *rules)
{
    int r;
    if (rules == NULL)
        return;
    for (r = 0; r < CC_NRANKS; r++)
        rules->points[r] = (uint8_t)(r + 1);
    rules->close_limit = 5;
    cc_fill_planes(rules);
}

/* Fill *rules from a point table (each 0..31) and a close limit (0..255).
 * O(1); CC_ERR_BAD_ARGUMENT (and *rules untouched) when a value is out of range. */
cc_status cc_rules_init(cc_rules *rules, const uint8_t points[CC_NRANKS], int close_limit)
{
    int r;
    if (rules == NULL || points == NULL || close_limit < 0 || close_limit > 255)
        return CC_ERR_BAD_ARGUMENT;
    for (r = 0; r < CC_NRANKS; r++)
        if (points[r] > 31)
            return CC_ERR_BAD_ARGUMENT;
    for (r = 0; r < CC_NRANKS; r++)
        rules->points[r] = points[r];
    rules->close_limit = (uint8_t)close_limit;
    cc_fill_planes(rules);
    return CC_OK;
}

/* Validate a hand (lane bits, twice within once, at most max_cards cards) and count it.
 * O(1): two popcounts. n_cards may be NULL. */
cc_status cc_check_hand(cc_hand h, int max_cards, int *n_cards)
{
    int n;
    if (((h.once | h.twice) & ~CC_LANE_MASK) != 0)
        return CC_ERR_LANE_BITS;
    if ((h.twice & ~h.once) != 0)
        return CC_ERR_TWICE_NOT_SUBSET;
    n = cc_popcount(h.once) + cc_popcount(h.twice);
    if (n_cards != NULL)
        *n_cards = n;
    if (n > max_cards)
        return CC_ERR_TOO_MANY_CARDS;
    return CC_OK;
}

/* Points of the cards of h, a card held twice counted twice.
 * O(1): ten popcounts. */
int cc_hand_points(const cc_rules *rules, cc_hand h)
{
    return cc_wpop(rules, h.once) + cc_wpop(rules, h.twice);
}

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

/* A short English description of a status code (a static string).
 * O(1). */
const char *cc_status_message(cc_status status)
{
    switch (status) {
    case CC_OK:
        return "ok";
    case CC_ERR_LANE_BITS:
        return "a bit outside the 12 rank bits of a suit lane is set";
    case CC_ERR_TWICE_NOT_SUBSET:
        return "a card is marked as held twice but not as held";
    case CC_ERR_TOO_MANY_CARDS:
        return "too many cards (the meld search takes at most 8)";
    case CC_ERR_CARD_COUNT:
        return "wrong number of cards for this call";
    case CC_ERR_DUPLICATE:
        return "a card is held twice in single-deck play";
    case CC_ERR_THREE_COPIES:
        return "a card is in play more than twice";
    case CC_ERR_CANNOT_CLOSE:
        return "the closer's deadwood is over the close limit";
    case CC_ERR_BAD_ARGUMENT:
        return "bad argument (rules table, deck count or pointer out of range)";
    case CC_STATUS_END:
        break;
    }
    return "unknown status";
}
