/*
 * test_core_hands.c -- the house-rule calls of the core on hands written out (the worked
 * examples, the largest candidate count, the hints around a long run) and on every hand
 * of <= 8 cards of small universes, each against the brute force of core_brute.h.
 * Exit status: 0 when everything agrees.
 */
#include "core_brute.h"

/* Hands with known deadwood, outcome and arrangement (the README and docs/rules.md#worked-examples).
 * O(examples). */
static void worked_examples(const cc_rules *rules)
{
    static const struct {
        const char *hand;
        int deadwood;
        int outcome;
    } ex[] = {
        {"7o 7c 7b 9e 10e 11e 4o", 4, CC_NORMAL},
        {"5o 5c 5e 1b 2b 3b 10o", 10, CC_CANNOT_CLOSE},
        {"3c 4c 5c 6c 6o 6e 1b", 1, CC_NORMAL},
        {"11o 12o 1o 5c 5e 5b 2c", 26, CC_CANNOT_CLOSE},
        {"7o 8o 9o 10o 2c 2e 2b", 0, CC_MINUS_TEN},
        {"3e 4e 5e 6e 7e 8e 9e", 0, CC_CHINCHON},
        /* two decks */
        {"5o 5o 5c 1e 2e 3e 9b", 9, CC_CANNOT_CLOSE},
        {"3o 4o 5o 3o 4o 5o 9b", 9, CC_CANNOT_CLOSE},
        {"3o 4o 5o 5o 6o 7o 1b", 1, CC_NORMAL},
        {"7o 7o 7c 7c 7e 7e 7b", 0, CC_MINUS_TEN},
    };
    size_t i;
    char msg[256];
    for (i = 0; i < sizeof ex / sizeof ex[0]; i++) {
        cc_hand h = th_parse(ex[i].hand);
        int dw = -1;
        cc_outcome oc = CC_CANNOT_CLOSE;
        cc_status st = cc_deadwood(rules, h, &dw);
        cc_status st2 = cc_close_outcome(rules, h, &oc);
        th_checks++;
        if (st != CC_OK || st2 != CC_OK || dw != ex[i].deadwood || (int)oc != ex[i].outcome) {
            snprintf(msg, sizeof msg, "%s: deadwood %d outcome %d, want %d %d", ex[i].hand, dw,
                     (int)oc, ex[i].deadwood, ex[i].outcome);
            FAIL("worked example: %s", msg);
        }
        check_hand(rules, h, "example");
    }
    /* the 6c goes with the sixes: 6o 6c 6e set + 3c 4c 5c run */
    {
        cc_arrangement a;
        cc_best_melds(rules, th_parse("3c 4c 5c 6c 6o 6e 1b"), &a);
        th_checks++;
        if (a.n_melds != 2 || !th_same(a.melds[0].cards, th_parse("6o 6c 6e")) ||
            !th_same(a.melds[1].cards, th_parse("3c 4c 5c")) ||
            !th_same(a.unmatched, th_parse("1b")))
            FAIL("worked example: 3c 4c 5c 6c 6o 6e 1b arrangement");
    }
}

/* Every hand of <= 8 cards drawn from the cards (suits, lo..hi), each up to `decks`
 * times: an odometer over the per-card copy counts. */
static void exhaustive_universe(const cc_rules *rules, unsigned suits, int lo, int hi,
                                int decks, const char *label)
{
    int cell[48], count[48], n_cells = 0, s, r, i;
    for (s = 0; s < 4; s++)
        if ((suits >> s) & 1u)
            for (r = lo; r <= hi; r++)
                cell[n_cells++] = card_index(s, r);
    memset(count, 0, sizeof count);
    for (;;) {
        int c[16], n = 0, k;
        for (i = 0; i < n_cells; i++)
            n += count[i];
        if (n <= 8) {
            n = 0;
            for (i = 0; i < n_cells; i++)
                for (k = 0; k < count[i]; k++)
                    c[n++] = cell[i];
            check_hand(rules, to_hand(c, n), label);
        }
        for (i = 0; i < n_cells && count[i] == decks; i++)
            count[i] = 0;
        if (i == n_cells)
            break;
        count[i]++;
    }
}

/* Chinchon and minus-ten among the hints of hands built around a long run.
 * O(examples). */
static void hint_edges(const cc_rules *rules)
{
    static const struct {
        const char *hand;
        uint8_t points[8], outcomes[8];
    } ex[] = {
        {"3e 4e 5e 6e 7e 8e 9e 9e", {9, 12, 16, 9, 26, 18, 0, 0}, {0, 0, 0, 0, 0, 0, 3, 3}},
        {"2e 3e 4e 5e 6e 7e 8e 9e", {0, 2, 5, 0, 0, 17, 9, 0}, {3, 1, 1, 2, 2, 0, 0, 3}},
        /* ascending card order: 1o 2o 3o 4o 5o 1c 1e 1b */
        {"1o 1c 1e 1b 2o 3o 4o 5o", {0, 0, 11, 5, 0, 0, 0, 0}, {2, 2, 0, 1, 2, 2, 2, 2}},
    };
    size_t i;
    for (i = 0; i < sizeof ex / sizeof ex[0]; i++) {
        uint16_t p[8];
        uint8_t o[8];
        char msg[256];
        cc_status st = cc_discard_hints(rules, th_parse(ex[i].hand), p, o);
        th_checks++;
        if (st != CC_OK || !th_same_points(p, ex[i].points, 8) || memcmp(o, ex[i].outcomes, 8) != 0) {
            snprintf(msg, sizeof msg, "%s: %d %d %d %d %d %d %d %d / %d %d %d %d %d %d %d %d",
                     ex[i].hand, p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], o[0], o[1],
                     o[2], o[3], o[4], o[5], o[6], o[7]);
            FAIL("hint edges: %s", msg);
        }
        check_hand(rules, th_parse(ex[i].hand), "hint edges");
    }
}

/* Run every check. Exit status 0 when all pass. About 2 s. */
int main(void)
{
    cc_rules house, tables[4];
    cc_meld big[CC_MAX_CANDIDATES + 1];

    core_iters(); /* the seed, as the random program takes it */
    cc_rules_default(&house);
    core_point_tables(tables);

    worked_examples(&house);

    /* the largest candidate count of a hand of <= 8 cards */
    th_checks++;
    if (cc_enumerate_melds(th_parse("7o 7o 7c 7c 7e 7e 7b 7b"), big, CC_MAX_CANDIDATES + 1) !=
        CC_MAX_CANDIDATES)
        FAIL("enumerate: eight sevens should give CC_MAX_CANDIDATES");
    check_hand(&house, th_parse("7o 7o 7c 7c 7e 7e 7b 7b"), "eight sevens");

    hint_edges(&house);
    exhaustive_universe(&house, 15u, 4, 7, 1, "all: 4 suits x 4-7");
    exhaustive_universe(&house, 15u, 5, 7, 2, "all: 4 suits x 5-7 x2");
    exhaustive_universe(&house, 3u, 1, 6, 1, "all: 2 suits x 1-6");
    exhaustive_universe(&house, 7u, 5, 7, 2, "all: 3 suits x 5-7 x2");
    exhaustive_universe(&house, 6u, 2, 6, 2, "all: 2 suits x 2-6 x2");
    exhaustive_universe(&house, 15u, 11, 12, 2, "all: 4 suits x 11-12 x2");
    exhaustive_universe(&house, 8u, 1, 9, 2, "all: 1 suit x 1-9 x2");
    exhaustive_universe(&tables[1], 7u, 5, 7, 2, "all: table 1, 3 suits x 5-7 x2");
    exhaustive_universe(&tables[0], 6u, 2, 6, 2, "all: zero table, 2 suits x 2-6 x2");
    /* meld-rich conflicts under uneven points (ties between shapes, avoidable discards) */
    exhaustive_universe(&tables[1], 15u, 4, 7, 1, "all: table 1, 4 suits x 4-7");
    exhaustive_universe(&tables[2], 3u, 3, 8, 2, "all: table 2, 2 suits x 3-8 x2");

    return th_report("test_core_hands");
}
