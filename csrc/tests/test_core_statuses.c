/*
 * test_core_statuses.c -- every error status of every entry point of the core under the
 * house rules, the rules' checks, the first bad row of a batch, the status names and
 * texts. Exit status: 0 when everything is as chinchon.h says.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "chinchon.h"

#include "testlib.h"

/* Check that a call returned the status wanted; the failure names both.
 * O(1). */
static void expect_status(const char *what, cc_status got, cc_status want)
{
    char msg[256];
    th_checks++;
    if (got != want) {
        snprintf(msg, sizeof msg, "%s: status %s (%s), want %s (%s)", what,
                 cc_status_name(got), cc_status_message(got), cc_status_name(want),
                 cc_status_message(want));
        FAIL("status: %s", msg);
    }
}

/* Every error status of every entry point, the rules checks, the first bad batch row,
 * and the status names and texts. O(1). */
static void error_statuses(const cc_rules *rules)
{
    cc_hand lane = {UINT64_C(1) << 12, 0}, lane_hi = {UINT64_C(1) << 63, 0};
    cc_hand notsub = {1, 2}, nine = th_parse("1o 2o 3o 4o 5o 6o 7o 8o 9o");
    cc_hand six = th_parse("1o 2o 3o 4o 5o 6o"), seven = th_parse("1o 2o 3o 4o 5o 6o 7o");
    cc_hand eight = th_parse("1o 2o 3o 4o 5o 6o 7o 8o");
    cc_hand nine2 = th_parse("1o 1o 2o 2o 3o 3o 4o 4o 5o");
    cc_arrangement a;
    cc_outcome oc;
    uint16_t pts[8];
    int dw, n;
    cc_rules r2;
    uint8_t table[CC_NRANKS];
    uint64_t rows[6];
    uint8_t out[64];
    size_t bad = 999;
    int s;

    expect_status("deadwood lane", cc_deadwood(rules, lane, &dw), CC_ERR_LANE_BITS);
    expect_status("deadwood lane 63", cc_deadwood(rules, lane_hi, &dw), CC_ERR_LANE_BITS);
    expect_status("deadwood twice lane", cc_deadwood(rules, (cc_hand){1, UINT64_C(1) << 13}, &dw),
                  CC_ERR_LANE_BITS);
    expect_status("deadwood subset", cc_deadwood(rules, notsub, &dw), CC_ERR_TWICE_NOT_SUBSET);
    expect_status("deadwood 9", cc_deadwood(rules, nine, &dw), CC_ERR_TOO_MANY_CARDS);
    expect_status("deadwood 9 (2 decks)", cc_deadwood(rules, nine2, &dw), CC_ERR_TOO_MANY_CARDS);
    expect_status("deadwood 0 cards", cc_deadwood(rules, (cc_hand){0, 0}, &dw), CC_OK);
    expect_status("deadwood NULL", cc_deadwood(rules, six, NULL), CC_ERR_BAD_ARGUMENT);
    expect_status("deadwood NULL rules", cc_deadwood(NULL, six, &dw), CC_ERR_BAD_ARGUMENT);
    expect_status("best lane", cc_best_melds(rules, lane, &a), CC_ERR_LANE_BITS);
    expect_status("best subset", cc_best_melds(rules, notsub, &a), CC_ERR_TWICE_NOT_SUBSET);
    expect_status("best 9", cc_best_melds(rules, nine, &a), CC_ERR_TOO_MANY_CARDS);
    expect_status("close 6", cc_close_outcome(rules, six, &oc), CC_ERR_CARD_COUNT);
    expect_status("close 8", cc_close_outcome(rules, eight, &oc), CC_ERR_CARD_COUNT);
    expect_status("close 9", cc_close_outcome(rules, nine, &oc), CC_ERR_TOO_MANY_CARDS);
    expect_status("close lane", cc_close_outcome(rules, lane, &oc), CC_ERR_LANE_BITS);
    expect_status("close 7", cc_close_outcome(rules, seven, &oc), CC_OK);
    expect_status("hints 7", cc_discard_hints(rules, seven, pts, NULL), CC_ERR_CARD_COUNT);
    expect_status("hints 9", cc_discard_hints(rules, nine, pts, NULL), CC_ERR_TOO_MANY_CARDS);
    expect_status("hints subset", cc_discard_hints(rules, notsub, pts, NULL),
                  CC_ERR_TWICE_NOT_SUBSET);
    expect_status("hints 8", cc_discard_hints(rules, eight, pts, NULL), CC_OK);
    expect_status("check lane", cc_check_hand(lane, 8, &n), CC_ERR_LANE_BITS);
    expect_status("check subset", cc_check_hand(notsub, 8, &n), CC_ERR_TWICE_NOT_SUBSET);
    expect_status("check 9", cc_check_hand(nine, 8, &n), CC_ERR_TOO_MANY_CARDS);
    expect_status("check 9 in 48", cc_check_hand(nine, 48, &n), CC_OK);
    th_checks++;
    if (n != 9)
        FAIL("check_hand: count of 9 cards");
    expect_status("check NULL count", cc_check_hand(seven, 8, NULL), CC_OK);
    th_checks++;
    if (cc_enumerate_melds(notsub, NULL, 0) != -1 || cc_enumerate_melds(lane, NULL, 0) != -1)
        FAIL("enumerate: invalid hand not rejected");
    th_checks++;
    if (cc_enumerate_melds(th_parse("1o 2o 3o 4o"), NULL, 0) != 3)
        FAIL("enumerate: count with cap 0");

    /* rules */
    for (s = 0; s < CC_NRANKS; s++)
        table[s] = 31;
    expect_status("rules 31", cc_rules_init(&r2, table, 5, 10), CC_OK);
    table[3] = 32;
    expect_status("rules 32", cc_rules_init(&r2, table, 5, 10), CC_ERR_BAD_ARGUMENT);
    table[3] = 0;
    expect_status("rules limit -1", cc_rules_init(&r2, table, -1, 10), CC_ERR_BAD_ARGUMENT);
    expect_status("rules limit 256", cc_rules_init(&r2, table, 256, 10), CC_ERR_BAD_ARGUMENT);
    expect_status("rules minus ten -1", cc_rules_init(&r2, table, 5, -1), CC_ERR_BAD_ARGUMENT);
    expect_status("rules NULL", cc_rules_init(NULL, table, 5, 10), CC_ERR_BAD_ARGUMENT);
    expect_status("rules NULL table", cc_rules_init(&r2, NULL, 5, 10), CC_ERR_BAD_ARGUMENT);
    expect_status("rules limit 255, minus ten 0", cc_rules_init(&r2, table, 255, 0), CC_OK);
    expect_status("rules minus ten 25", cc_rules_init(&r2, table, 7, 25), CC_OK);
    th_checks++;
    if (r2.minus_ten != 25 || r2.close_limit != 7 || r2.points[3] != 0 || r2.points[4] != 31)
        FAIL("rules: cc_rules_init did not store its arguments");
    expect_status("rules minus ten 26 limit 256", cc_rules_init(&r2, table, 256, 26),
                  CC_ERR_BAD_ARGUMENT);
    th_checks++;
    if (r2.minus_ten != 25)
        FAIL("rules: a rejected cc_rules_init changed *rules");
    cc_rules_default(&r2);
    th_checks++;
    if (r2.minus_ten != 10 || r2.close_limit != 5 || r2.points[11] != 12)
        FAIL("rules: cc_rules_default is not the house rules");

    /* status names and texts: one of each per code, the sentinel and others unknown */
    for (s = CC_OK; s <= CC_STATUS_END + 1; s++) {
        const char *name = cc_status_name((cc_status)s), *text = cc_status_message((cc_status)s);
        int known = s < CC_STATUS_END;
        th_checks++;
        if (name == NULL || text == NULL ||
            (strcmp(name, "CC_STATUS_UNKNOWN") != 0) != known ||
            (strcmp(text, "unknown status") != 0) != known ||
            (known && strncmp(name, s == CC_OK ? "CC_OK" : "CC_ERR_", s == CC_OK ? 6 : 7) != 0))
            FAIL("status names: %s", name == NULL ? "NULL" : name);
    }
    th_checks++;
    if (strcmp(cc_status_name(CC_ERR_DUPLICATE), "CC_ERR_DUPLICATE") != 0 ||
        strcmp(cc_status_name(CC_ERR_BAD_ARGUMENT), "CC_ERR_BAD_ARGUMENT") != 0 ||
        strcmp(cc_status_name((cc_status)-1), "CC_STATUS_UNKNOWN") != 0 ||
        strcmp(cc_status_message(CC_ERR_CANNOT_CLOSE),
               "the closer's deadwood is over the close limit") != 0)
        FAIL("status names: a name or text");

    /* batches: the first bad row is reported */
    rows[0] = seven.once;
    rows[1] = six.once;
    rows[2] = UINT64_C(1) << 14;
    rows[3] = nine.once;
    expect_status("batch decks 3", cc_deadwood_batch(rules, rows, 2, 3, out, &bad),
                  CC_ERR_BAD_ARGUMENT);
    expect_status("batch NULL", cc_deadwood_batch(rules, NULL, 2, 1, out, &bad),
                  CC_ERR_BAD_ARGUMENT);
    expect_status("batch empty", cc_deadwood_batch(rules, NULL, 0, 1, NULL, &bad), CC_OK);
    expect_status("batch lane row", cc_deadwood_batch(rules, rows, 4, 1, out, &bad),
                  CC_ERR_LANE_BITS);
    th_checks++;
    if (bad != 2)
        FAIL("batch: bad row index (lane)");
    rows[2] = 0;
    expect_status("batch 9 row", cc_deadwood_batch(rules, rows, 4, 1, out, &bad),
                  CC_ERR_TOO_MANY_CARDS);
    th_checks++;
    if (bad != 3)
        FAIL("batch: bad row index (9 cards)");
    expect_status("batch NULL bad_row", cc_deadwood_batch(rules, rows, 4, 1, out, NULL),
                  CC_ERR_TOO_MANY_CARDS);
    rows[0] = seven.once; /* (once, twice) rows */
    rows[1] = 0;
    rows[2] = 1;
    rows[3] = 2;
    expect_status("batch2 subset row", cc_deadwood_batch(rules, rows, 2, 2, out, &bad),
                  CC_ERR_TWICE_NOT_SUBSET);
    th_checks++;
    if (bad != 1)
        FAIL("batch: bad row index (subset)");
    rows[0] = eight.once;
    rows[1] = seven.once;
    expect_status("hints batch 7", cc_hints_batch(rules, rows, 2, 1, out, &bad),
                  CC_ERR_CARD_COUNT);
    th_checks++;
    if (bad != 1)
        FAIL("batch: bad row index (hints 7)");
    expect_status("hints batch decks 0", cc_hints_batch(rules, rows, 1, 0, out, &bad),
                  CC_ERR_BAD_ARGUMENT);

    /* every status has its own message */
    for (s = 0; s <= CC_STATUS_END; s++) {
        int t;
        const char *m = cc_status_message((cc_status)s);
        th_checks++;
        if (m == NULL || m[0] == 0)
            FAIL("status_message: empty");
        for (t = 0; t < s; t++)
            if (strcmp(m, cc_status_message((cc_status)t)) == 0)
                FAIL("status_message: duplicate");
    }
}

/* Run every check. Exit status 0 when all pass. O(1). */
int main(void)
{
    cc_rules house;
    cc_rules_default(&house);
    error_statuses(&house);
    return th_report("test_core_statuses");
}
