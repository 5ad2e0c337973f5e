/*
 * rules.c -- a rule set as the solver sees it: the point table (and its bit planes),
 * the close limit, what minus ten scores, and the variants of docs/rules.md#rule-variants (deck,
 * jokers, joker points, which closes win) with the masks and planes derived from them.
 */
#include "chinchon.h"

#include "base/bits.h"
#include "base/space.h"

/* Planes of a card-indexed table: plane[k] holds every bit i with (pts[i] >> k) & 1.
 * O(64 * 5). */
static void cc_planes_of(const uint8_t pts[64], uint64_t plane[5])
{
    int k, i;
    for (k = 0; k < 5; k++) {
        uint64_t p = 0;
        for (i = 0; i < 64; i++)
            if ((pts[i] >> k) & 1u)
                p |= UINT64_C(1) << i;
        plane[k] = p;
    }
}

/* The most points 8 cards can leave unmatched under *rules (its deck and jokers set):
 * the jokers of two decks (each joker card and the wild ace twice), up to 8, at
 * joker_points when that is more than the dearest natural card of the deck, the rest at
 * that card's points. Python: SolverRules.max_deadwood. O(12). */
static int cc_max_deadwood(const cc_rules *rules)
{
    int r, most = 0, jokers = 2 * (rules->jokers + rules->wild_ace);
    for (r = 0; r < CC_NRANKS; r++)
        if (cc_space_place(rules->deck, r + 1) >= 0 && rules->points[r] > most)
            most = rules->points[r];
    if (jokers > CC_MAX_HAND)
        jokers = CC_MAX_HAND;
    if (rules->joker_points <= most)
        return CC_MAX_HAND * most;
    return jokers * rules->joker_points + (CC_MAX_HAND - jokers) * most;
}

/* Derive the masks, planes and place points of *rules from its fields.
 * O(64 * 5). */
static void cc_derive(cc_rules *rules)
{
    uint8_t raw[64] = {0}, work[64] = {0};
    int s, r, i;
    uint64_t extra = 0;
    if (rules->jokers >= 1)
        extra |= UINT64_C(1) << CC_JOKER1_BIT;
    if (rules->jokers >= 2)
        extra |= UINT64_C(1) << CC_JOKER2_BIT;
    rules->joker_mask = extra | (rules->wild_ace ? UINT64_C(1) : 0);
    rules->card_mask = (rules->deck == 40 ? CC_LANE_MASK & ~CC_EIGHTS_NINES : CC_LANE_MASK) |
                       extra;
    rules->plain = (uint8_t)(rules->deck == 48 && !rules->wild_ace && rules->jokers == 0 &&
                             rules->seven_run_wins);
    for (s = 0; s < CC_NSUITS; s++)
        for (r = 0; r < CC_NRANKS; r++)
            raw[16 * s + r] = rules->points[r];
    for (i = 0; i < 64; i++) {
        uint64_t bit = UINT64_C(1) << i;
        if (rules->joker_mask & bit)
            raw[i] = rules->joker_points; /* jokers never enter the working space */
        else if (rules->card_mask & bit)
            work[cc_ctz(cc_space_compact(rules->deck, bit))] = rules->points[i & 15];
    }
    cc_planes_of(raw, rules->plane); /* (a joker's 32, bit 5: cc_hand_weight_any) */
    cc_planes_of(work, rules->wplane);
    for (r = 0; r < 16; r++)
        rules->wpoints[r] = 0;
    rules->max_deadwood = (uint16_t)cc_max_deadwood(rules);
    for (r = 0; r < CC_NRANKS; r++) {
        int place = cc_space_place(rules->deck, r + 1);
        if (place >= 0)
            rules->wpoints[place] = rules->points[r];
    }
}

/* Fill *rules with the house rules: points = rank, close limit 5, minus ten 10.
 * O(1). */
void cc_rules_default(cc_rules *rules)
{
    int r;
    uint8_t points[CC_NRANKS];
    if (rules == NULL)
        return;
    for (r = 0; r < CC_NRANKS; r++)
        points[r] = (uint8_t)(r + 1);
    (void)cc_rules_init_variant(rules, points, 5, 10, NULL);
}

/* Fill *rules from a point table (each 0..31), a close limit (0..255) and the minus ten
 * score (0..INT_MAX), with the house variants (joker points 0..CC_MAX_JOKER_POINTS). O(1); CC_ERR_BAD_ARGUMENT (*rules
 * untouched) when out of range. */
cc_status cc_rules_init(cc_rules *rules, const uint8_t points[CC_NRANKS], int close_limit,
                        int minus_ten)
{
    return cc_rules_init_variant(rules, points, close_limit, minus_ten, NULL);
}

/* cc_rules_init with the variants of *variant (NULL: the house ones). O(1);
 * CC_ERR_BAD_ARGUMENT (*rules untouched) when a value is out of range. */
cc_status cc_rules_init_variant(cc_rules *rules, const uint8_t points[CC_NRANKS],
                                int close_limit, int minus_ten, const cc_variant *variant)
{
    static const cc_variant house = {48, 0, 0, 25, 1, 25};
    cc_rules r;
    int i;
    const cc_variant *v = variant != NULL ? variant : &house;
    if (rules == NULL || points == NULL || close_limit < 0 || close_limit > UINT8_MAX ||
        minus_ten < 0)
        return CC_ERR_BAD_ARGUMENT;
    for (i = 0; i < CC_NRANKS; i++)
        if (points[i] > 31)
            return CC_ERR_BAD_ARGUMENT;
    if ((v->deck != 48 && v->deck != 40) || (v->wild_ace_of_coins != 0 &&
                                              v->wild_ace_of_coins != 1) ||
        v->jokers < 0 || v->jokers > 2 || v->joker_points < 0 || v->joker_points > CC_MAX_JOKER_POINTS ||
        (v->seven_run_wins != 0 && v->seven_run_wins != 1) || v->joker_chinchon < -1)
        return CC_ERR_BAD_ARGUMENT;
    for (i = 0; i < CC_NRANKS; i++)
        r.points[i] = points[i];
    r.close_limit = (uint8_t)close_limit;
    r.minus_ten = minus_ten;
    r.deck = (uint8_t)v->deck;
    r.wild_ace = (uint8_t)v->wild_ace_of_coins;
    r.jokers = (uint8_t)v->jokers;
    r.joker_points = (uint8_t)v->joker_points;
    r.seven_run_wins = (uint8_t)v->seven_run_wins;
    r.joker_chinchon = v->joker_chinchon;
    r.decks = 0;
    cc_derive(&r);
    *rules = r;
    return CC_OK;
}
