/*
 * rules.c -- a rule set as the solver sees it: the point table (and its bit planes),
 * the close limit and what minus ten scores.
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

/* Fill *rules with the house rules: points = rank, close limit 5, minus ten 10.
 * O(1). */
void cc_rules_default(cc_rules *rules)
{
    int r;
    if (rules == NULL)
        return;
    for (r = 0; r < CC_NRANKS; r++)
        rules->points[r] = (uint8_t)(r + 1);
    rules->close_limit = 5;
    rules->minus_ten = 10;
    cc_fill_planes(rules);
}

/* Fill *rules from a point table (each 0..31), a close limit (0..255) and the minus ten
 * score (0..INT_MAX). O(1); CC_ERR_BAD_ARGUMENT (*rules untouched) when out of range. */
cc_status cc_rules_init(cc_rules *rules, const uint8_t points[CC_NRANKS], int close_limit,
                        int minus_ten)
{
    int r;
    if (rules == NULL || points == NULL || close_limit < 0 || close_limit > UINT8_MAX ||
        minus_ten < 0)
        return CC_ERR_BAD_ARGUMENT;
    for (r = 0; r < CC_NRANKS; r++)
        if (points[r] > 31)
            return CC_ERR_BAD_ARGUMENT;
    for (r = 0; r < CC_NRANKS; r++)
        rules->points[r] = points[r];
    rules->close_limit = (uint8_t)close_limit;
    rules->minus_ten = minus_ten;
    cc_fill_planes(rules);
    return CC_OK;
}
