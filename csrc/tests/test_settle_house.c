/*
 * test_settle_house.c -- tests of cc_settle (csrc/src/settle/settle.c) under the house
 * rules: hand-built cases for each rule, bad deals, and invariants on random deals
 * (every card accounted for, lay-offs legal when applied, the table consistent). Run by
 * ctest (csrc/tests/run.sh: plain and under -fsanitize=address,undefined). Random deals:
 * argv[1], else SETTLE_TEST_DEALS, else 20000; a second argument adds a timing line. The
 * exhaustive optimality checks live in the Python tests (tests/settle/), which compare
 * against an independent verifier. The rule variants: test_settle_variants.c.
 */
#include "chinchon.h"

#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Every card of each seat is in its melds, lay-offs or unmatched; every lay-off was
 * legal onto the table as it stood; the final table is what the plays make. */
static void check_invariants(const cc_settlement *s, cc_hand closer, const cc_hand *opps)
{
    cc_table_meld table[CC_MAX_TABLE];
    int n_table = 0, k, i, j;
    cc_hand got = s->closer.unmatched;
    for (i = 0; i < s->closer.n_melds; i++) {
        for (j = 0; j < 64; j++) {
            if ((s->closer.melds[i].cards.once >> j) & 1u)
                got = th_add(got, j);
            if ((s->closer.melds[i].cards.twice >> j) & 1u)
                got = th_add(got, j);
        }
        table[n_table].cards = s->closer.melds[i].cards;
        table[n_table].kind = s->closer.melds[i].kind;
        table[n_table].owner = 0;
        table[n_table].open = s->outcome != CC_MINUS_TEN;
        n_table++;
    }
    EXPECT(th_same(got, closer));
    for (k = 0; k < s->n_opponents; k++) {
        const cc_seat_result *r = &s->opponents[k];
        got = r->unmatched;
        for (i = 0; i < r->n_melds; i++)
            for (j = 0; j < 64; j++) {
                if ((r->melds[i].cards.once >> j) & 1u)
                    got = th_add(got, j);
                if ((r->melds[i].cards.twice >> j) & 1u)
                    got = th_add(got, j);
            }
        for (i = 0; i < r->n_layoffs; i++) {
            int c = r->layoffs[i].card, t = r->layoffs[i].meld;
            EXPECT(t < n_table);
            if (t >= n_table)
                return;
            EXPECT(table[t].open);
            if (table[t].kind == CC_SET) {
                int rank = 0;
                while (!((table[t].cards.once >> rank) & 1u))
                    rank++;
                EXPECT(c % 16 == rank % 16);
            } else {
                uint64_t b = UINT64_C(1) << c;
                EXPECT(!(table[t].cards.once & b));
                EXPECT(((table[t].cards.once << 1) & b) || ((table[t].cards.once >> 1) & b));
            }
            table[t].cards = th_add(table[t].cards, c);
            got = th_add(got, c);
        }
        EXPECT(th_same(got, opps[k]));
        for (i = 0; i < r->n_melds; i++) {
            table[n_table].cards = r->melds[i].cards;
            table[n_table].kind = r->melds[i].kind;
            table[n_table].owner = (uint8_t)(k + 1);
            table[n_table].open = 1;
            n_table++;
        }
    }
    EXPECT(n_table == s->n_table);
    for (i = 0; i < n_table && i < s->n_table; i++) {
        EXPECT(th_same(table[i].cards, s->table[i].cards));
        EXPECT(table[i].owner == s->table[i].owner && table[i].open == s->table[i].open);
    }
}

/* cc_settle on hands given as text; on success the invariants are checked too.
 * Returns the status. One settlement. */
static int settle_text(const cc_rules *r, const char *closer, const char **opps, int n,
                       int decks, cc_settlement *out)
{
    cc_hand o[CC_MAX_OPPONENTS];
    int i;
    cc_status st;
    for (i = 0; i < n; i++)
        o[i] = th_parse(opps[i]);
    st = cc_settle(r, th_parse(closer), o, n, decks, out);
    if (st == CC_OK)
        check_invariants(out, th_parse(closer), o);
    return (int)st;
}

/* Whether lay-off i of a seat puts `card` onto table meld `meld`.
 * O(1). */
static int layoff_is(const cc_seat_result *r, int i, const char *card, int meld)
{
    const char *end;
    return i < r->n_layoffs && r->layoffs[i].card == th_card(card, &end) &&
           r->layoffs[i].meld == meld;
}

/* Hand-built deals, one per rule of docs/rules.md#laying-off and docs/rules.md#which-plan-is-reported, with the
 * answers worked out by hand. A few settlements. */
static void hand_built(const cc_rules *r)
{
    cc_settlement s;
    const char *spec[] = {"7e 12e 1c 3o 5b 8c 2o"};
    const char *chain[] = {"2o 6o 7o 12c 11e 10b 8c"};
    const char *earlier[] = {"6c 7c 8c 6o 10e 11b 12b", "5c 4c 7o 1e 2e 10b 12e"};
    const char *locked[] = {"11o 6o 2o 1c 4e 5e 6e", "7e 3e 12o 1b 5b 9b 12b"};
    const char *two_runs[] = {"9o 10o 11o 3e 5e 7e 9e", "8o 7o 12c 12e 10b 11b 4c"};
    const char *broken[] = {"6o 6c 6e 6b 7o 12c 11e"};
    const char *closer = "3o 4o 5o 9c 9e 9b 1b";

    EXPECT(settle_text(r, "7o 7c 7b 9e 10e 11e 4o", spec, 1, 0, &s) == CC_OK);
    EXPECT(s.outcome == CC_NORMAL && s.points[0] == 4 && s.points[1] == 19);
    EXPECT(layoff_is(&s.opponents[0], 0, "7e", 0) && layoff_is(&s.opponents[0], 1, "12e", 1));

    EXPECT(settle_text(r, closer, chain, 1, 0, &s) == CC_OK);
    EXPECT(s.opponents[0].n_layoffs == 3 && layoff_is(&s.opponents[0], 0, "2o", 0) &&
          layoff_is(&s.opponents[0], 1, "6o", 0) && layoff_is(&s.opponents[0], 2, "7o", 0));

    EXPECT(settle_text(r, closer, earlier, 2, 0, &s) == CC_OK);
    EXPECT(s.opponents[1].n_layoffs == 3 && layoff_is(&s.opponents[1], 0, "7o", 0) &&
          layoff_is(&s.opponents[1], 1, "5c", 2) && layoff_is(&s.opponents[1], 2, "4c", 2));

    EXPECT(settle_text(r, "7o 8o 9o 10o 2c 2e 2b", locked, 2, 0, &s) == CC_OK);
    EXPECT(s.outcome == CC_MINUS_TEN && s.points[0] == -10 && s.opponents[0].n_layoffs == 0);
    {
        /* minus ten scores what the rules say; the rest of the settlement is the same */
        cc_rules r25 = *r;
        cc_settlement s25;
        r25.minus_ten = 25;
        EXPECT(settle_text(&r25, "7o 8o 9o 10o 2c 2e 2b", locked, 2, 0, &s25) == CC_OK);
        EXPECT(s25.outcome == CC_MINUS_TEN && s25.points[0] == -25 &&
              s25.closer.points == -25 && s25.points[2] == s.points[2] &&
              s25.opponents[1].n_layoffs == s.opponents[1].n_layoffs);
    }
    EXPECT(!s.table[0].open && !s.table[1].open && s.table[2].open);
    EXPECT(layoff_is(&s.opponents[1], 0, "3e", 2) && layoff_is(&s.opponents[1], 1, "7e", 2));

    EXPECT(settle_text(r, "5o 6o 7o 1c 1e 1b 2c", two_runs, 2, 0, &s) == CC_OK);
    EXPECT(s.decks == 2 && layoff_is(&s.opponents[1], 0, "8o", 2) &&
          layoff_is(&s.opponents[1], 1, "7o", 2));

    EXPECT(settle_text(r, closer, broken, 1, 0, &s) == CC_OK);
    EXPECT(s.opponents[0].n_melds == 1 && s.opponents[0].points == 23);

    EXPECT(settle_text(r, "3e 4e 5e 6e 7e 8e 9e", spec, 1, 0, &s) == CC_OK);
    EXPECT(s.outcome == CC_CHINCHON && s.points[0] == 0 && s.points[1] == 0 &&
          s.opponents[0].n_layoffs == 0);
}

/* Each bad-deal status, with the seat and card it reports, and bad arguments.
 * A few settlements. */
static void bad_deals(const cc_rules *r)
{
    cc_settlement s;
    cc_hand o[6];
    const char *ok[] = {"1o 2o 12c 11e 10b 8b 4e"};
    const char *dup[] = {"1o 2o 12c 11e 10b 8b 3o"};
    const char *dup2[] = {"1o 2o 12c 11e 10b 8b 7o", "5o 2o 12c 11e 10b 8b 4e"};
    const char *three[] = {"1o 1o 12c 11e 10b 8b 4e", "1o 2o 12c 11e 10b 8b 4e"};
    const char *six[] = {"1o 2o 12c 11e 10b 8b"};
    EXPECT(settle_text(r, "5o 5c 5e 1b 2b 3b 10o", ok, 1, 0, &s) == CC_ERR_CANNOT_CLOSE);
    EXPECT(s.deadwood == 10);
    EXPECT(settle_text(r, "3o 4o 5o 9c 9e 9b 1b", dup, 1, 1, &s) == CC_ERR_DUPLICATE);
    EXPECT(s.bad_card == 2 && s.bad_seat == 1);
    /* the lowest card held twice; its second copy with the second opponent */
    EXPECT(settle_text(r, "3o 4o 5o 9c 9e 9b 1b", dup2, 2, 1, &s) == CC_ERR_DUPLICATE);
    EXPECT(s.bad_card == 1 && s.bad_seat == 2);
    EXPECT(settle_text(r, "3o 4o 5o 9c 9e 9b 1b", dup2, 2, 0, &s) == CC_OK && s.decks == 2);
    EXPECT(settle_text(r, "3o 4o 5o 9c 9e 9b 1b", three, 2, 0, &s) == CC_ERR_THREE_COPIES);
    EXPECT(s.bad_seat == 2 && s.bad_card == 0);
    EXPECT(settle_text(r, "3o 4o 5o 9c 9e 9b 1b", six, 1, 0, &s) == CC_ERR_CARD_COUNT);
    EXPECT(s.bad_seat == 1 && s.bad_card == -1);
    EXPECT(settle_text(r, "3o 4o 5o 9c 9e 9b 1b 2b", ok, 1, 0, &s) == CC_ERR_CARD_COUNT);
    EXPECT(s.bad_seat == 0);
    o[0] = th_parse("1o 2o 12c 11e 10b 8b 4e");
    o[0].once |= UINT64_C(1) << 13;
    EXPECT(cc_settle(r, th_parse("3o 4o 5o 9c 9e 9b 1b"), o, 1, 0, &s) == CC_ERR_LANE_BITS);
    EXPECT(s.bad_seat == 1 && s.bad_card == -1);
    o[0] = th_parse("1o 2o 12c 11e 10b 8b 4e");
    o[0].twice = UINT64_C(1) << 5; /* 6o twice but not once */
    EXPECT(cc_settle(r, th_parse("3o 4o 5o 9c 9e 9b 1b"), o, 1, 0, &s) ==
          CC_ERR_TWICE_NOT_SUBSET);
    EXPECT(s.bad_seat == 1);
    EXPECT(cc_settle(r, th_parse("3o 4o 5o 9c 9e 9b 1b"), o, 0, 0, &s) == CC_ERR_BAD_ARGUMENT);
    EXPECT(cc_settle(r, th_parse("3o 4o 5o 9c 9e 9b 1b"), o, 6, 0, &s) == CC_ERR_BAD_ARGUMENT);
    EXPECT(cc_settle(r, th_parse("3o 4o 5o 9c 9e 9b 1b"), NULL, 1, 0, &s) ==
          CC_ERR_BAD_ARGUMENT);
    EXPECT(cc_settle(r, th_parse("3o 4o 5o 9c 9e 9b 1b"), o, 1, 3, &s) == CC_ERR_BAD_ARGUMENT);
}

static uint64_t rng_state = 0x9E3779B97F4A7C15u;
/* The next number of this program's fixed-seed xorshift64 generator (testlib.h).
 * O(1). */
static uint64_t next_random(void) { return th_xorshift64(&rng_state); }

/* Random deals dealt from a deck whose ranks are squeezed into a window, so that melds
 * and lay-offs are frequent; the closer's hand is redealt until it can close. */
static int random_deals(const cc_rules *r, long n)
{
    long done = 0, tries = 0;
    while (done < n && tries < 200 * n) {
        int deck[96], nd = 0, decks = (int)(next_random() % 2) + 1, s, k, i;
        int n_opp = decks == 1 ? 2 + (int)(next_random() % 2) : 4 + (int)(next_random() % 2);
        int lo = (int)(next_random() % 6), width = 6 + (int)(next_random() % 5);
        cc_hand hands[6];
        cc_settlement out;
        cc_status st;
        tries++;
        for (k = 0; k < decks; k++)
            for (s = 0; s < 4; s++)
                for (i = lo; i < lo + width && i < 12; i++)
                    deck[nd++] = 16 * s + i;
        if (nd < 7 * (n_opp + 1))
            continue;
        th_shuffle_deal(deck, nd, &rng_state, hands, n_opp + 1);
        st = cc_settle(r, hands[0], &hands[1], n_opp, decks, &out);
        if (st == CC_ERR_CANNOT_CLOSE)
            continue;
        EXPECT(st == CC_OK);
        if (st != CC_OK)
            return 0;
        check_invariants(&out, hands[0], &hands[1]);
        for (k = 0; k <= n_opp; k++)
            EXPECT(th_count(hands[k]) == 7);
        done++;
    }
    return (int)done;
}

/* Time cc_settle on one fixed 6-seat double-deck deal (with a second argument).
 * 200000 settlements. */
static void bench(const cc_rules *r)
{
    const char *opps[] = {"6o 6c 6e 6b 7o 12c 11e", "10o 11o 12o 2e 4e 6e 8b",
                          "9o 8o 1c 2c 4b 6b 8e", "9c 10c 11c 12b 2o 5c 5e",
                          "8c 7c 3e 3c 3b 10e 1e"};
    cc_hand o[5], c = th_parse("3o 4o 5o 9c 9e 9b 1b");
    cc_settlement out;
    long i, n = 200000;
    int sink = 0;
    clock_t t0;
    for (i = 0; i < 5; i++)
        o[i] = th_parse(opps[i]);
    t0 = clock();
    for (i = 0; i < n; i++) {
        cc_settle(r, c, o, 5, 2, &out);
        sink += out.points[5];
    }
    printf("cc_settle, double deck, 5 opponents: %.2f us per call (%d)\n",
           1e6 * (double)(clock() - t0) / CLOCKS_PER_SEC / (double)n, sink);
}

/* Run every check; deals from argv[1], else SETTLE_TEST_DEALS, else 20000.
 * Exit status 0 when all pass. */
int main(int argc, char **argv)
{
    cc_rules r;
    const char *env = getenv("SETTLE_TEST_DEALS");
    long n = argc > 1 ? atol(argv[1]) : env != NULL && atol(env) > 0 ? atol(env) : 20000;
    cc_rules_default(&r); /* the house rules: points = rank, close limit 5 */
    hand_built(&r);
    bad_deals(&r);
    printf("%d random deals checked\n", random_deals(&r, n));
    if (argc > 2)
        bench(&r);
    return th_report("test_settle_house");
}
