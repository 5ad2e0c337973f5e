/*
 * test_outlook.c -- the outlook (cc_prospect_of, cc_outlook, cc_outlook_batch) against
 * its definition, spelled out here with the core's single-hand calls only: for each
 * unseen copy, the 8 cards are tried without each card in turn (cc_deadwood and
 * cc_close_outcome of the 7 kept) and the best kept by the fewest points, then the
 * better close (chinchon, joker chinchon, minus ten, normal, none). No shortcut of
 * outlook.c (the drawn card that melds nothing) is used.
 * Random hands under the house rules, the classic rules (seven_run_wins off), the
 * 40-card deck with the wild ace, and two jokers; one and two decks; hand-built cases
 * (one out against four, a draw completing chinchon); the checks of unseen.
 * CC_TEST_ITERS/100 random hands per rule set (default 2000).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chinchon.h"

#include "testlib.h"

static uint64_t g_rng = 0x9E3779B97F4A7C15u;

/* The next number of this file's seeded generator (testlib.h).
 * O(1). */
static uint64_t next_u64(void) { return th_splitmix64(&g_rng); }

static int rnd(int n) { return (int)(next_u64() % (uint64_t)n); }

static const int g_better[5] = {0, 1, 2, 4, 3};

/* The prospect by the definition (see the top of the file). */
static void brute_prospect(const cc_rules *r, cc_hand h7, cc_hand u, cc_prospect *out)
{
    int i, j, k;
    memset(out, 0, sizeof *out);
    for (i = 0; i < 64; i++) {
        int copies = (int)((u.once >> i) & 1u) + (int)((u.twice >> i) & 1u);
        int best = 1 << 20, code = 0;
        uint8_t cards[8];
        cc_hand h8;
        if (copies == 0)
            continue;
        h8 = th_add(h7, i);
        for (j = 0, k = 0; j < 64; j++) {
            if ((h8.once >> j) & 1u)
                cards[k++] = (uint8_t)j;
            if ((h8.twice >> j) & 1u)
                cards[k++] = (uint8_t)j;
        }
        for (k = 0; k < 8; k++) {
            cc_hand kept = {0, 0};
            int p = -1, m;
            cc_outcome o = CC_CANNOT_CLOSE;
            for (m = 0; m < 8; m++)
                if (m != k)
                    kept = th_add(kept, cards[m]);
            if (cc_deadwood(r, kept, &p) != CC_OK || cc_close_outcome(r, kept, &o) != CC_OK) {
                out->draws = 0xFFFFFFFFu; /* a failure the comparison reports */
                return;
            }
            if (p < best || (p == best && g_better[o] > g_better[code])) {
                best = p;
                code = (int)o;
            }
        }
        out->draws += (uint32_t)copies;
        out->points_sum += (uint32_t)(copies * best);
        out->outcomes[code] += (uint32_t)copies;
    }
}

static int same_prospect(const cc_prospect *a, const cc_prospect *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}

/* A random hand of n cards and its unseen cards (a random part of the rest of the
 * deck(s), at least one), from the bits of card_mask. */
static void random_deal(uint64_t card_mask, int decks, int n, cc_hand *h, cc_hand *u)
{
    int pool[128], np = 0, i, k;
    for (i = 0; i < 64; i++)
        if ((card_mask >> i) & 1u)
            for (k = 0; k < decks; k++)
                pool[np++] = i;
    for (i = np - 1; i > 0; i--) {
        int j = rnd(i + 1), t = pool[i];
        pool[i] = pool[j];
        pool[j] = t;
    }
    h->once = h->twice = u->once = u->twice = 0;
    for (i = 0; i < n; i++)
        *h = th_add(*h, pool[i]);
    k = rnd(2) ? np : n + 1 + rnd(np - n); /* all the rest, or a part */
    for (i = n; i < k; i++)
        *u = th_add(*u, pool[i]);
}

static void random_checks(const cc_rules *r, const char *name, int decks, int iters)
{
    int it, k;
    for (it = 0; it < iters; it++) {
        cc_hand h8, u, h7;
        uint16_t pts[8], hp[8];
        uint8_t outs[8], ho[8];
        cc_prospect got[8], want;
        double rows[8 * CC_OUTLOOK_COLUMNS];
        uint64_t m[2], um[2];
        size_t bad = 0;
        cc_rules rr = *r;
        rr.decks = (uint8_t)decks;
        random_deal(r->card_mask, decks, 8, &h8, &u);
        CHECK_HAND(cc_outlook(&rr, h8, u, pts, outs, got) == CC_OK, "cc_outlook status", name, h8);
        CHECK_HAND(cc_discard_hints(&rr, h8, hp, ho) == CC_OK && memcmp(hp, pts, sizeof hp) == 0 &&
                  memcmp(ho, outs, 8) == 0,
              "outlook points = hints", name, h8);
        for (k = 0; k < 8; k++) {
            /* the k-th card in ascending order, a copy held twice twice */
            int i, seen = 0;
            for (i = 0; i < 64; i++) {
                int c = (int)((h8.once >> i) & 1u) + (int)((h8.twice >> i) & 1u);
                if (seen + c > k)
                    break;
                seen += c;
            }
            h7 = h8;
            if ((h7.twice >> i) & 1u)
                h7.twice ^= UINT64_C(1) << i;
            else
                h7.once ^= UINT64_C(1) << i;
            brute_prospect(&rr, h7, u, &want);
            CHECK_HAND(same_prospect(&got[k], &want), "outlook = definition", name, h8);
        }
        m[0] = h8.once;
        m[1] = h8.twice;
        um[0] = u.once;
        um[1] = u.twice;
        if (decks == 1) {
            m[0] = h8.once;
            um[0] = u.once;
        }
        CHECK_HAND(cc_outlook_batch(r, m, um, 1, decks, rows, &bad) == CC_OK, "batch status", name,
              h8);
        for (k = 0; k < 8; k++) {
            double n = (double)got[k].draws;
            CHECK_HAND(rows[k * CC_OUTLOOK_COLUMNS] == (double)pts[k] &&
                      rows[k * CC_OUTLOOK_COLUMNS + 1] == (double)got[k].points_sum / n &&
                      rows[k * CC_OUTLOOK_COLUMNS + 3] ==
                          (double)got[k].outcomes[CC_MINUS_TEN] / n,
                  "batch row", name, h8);
        }
    }
}

static cc_rules make(int close_limit, int deck, int wild, int jokers, int seven)
{
    static const uint8_t pts[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    cc_variant v;
    cc_rules r;
    v.deck = deck;
    v.wild_ace_of_coins = wild;
    v.jokers = jokers;
    v.joker_points = 25;
    v.seven_run_wins = seven;
    v.joker_chinchon = jokers || wild ? 50 : -1;
    if (cc_rules_init_variant(&r, pts, close_limit, 10, &v) != CC_OK) {
        fprintf(stderr, "bad rules\n");
        exit(2);
    }
    return r;
}

static void hand_built(void)
{
    cc_rules r;
    cc_prospect p;
    cc_hand h, u;
    uint16_t pts[8];
    cc_prospect lines[8];
    cc_rules_default(&r);
    /* one out: 1o 2o 3o / 4c 4e 4b / 12o waits on the 4o alone (40 unseen) */
    h = th_parse("1o 2o 3o 4c 4e 4b 12o");
    u.once = CC_LANE_MASK & ~h.once & ~(UINT64_C(1) << (16 + 10)); /* not the 11c */
    u.twice = 0;
    CHECK_HAND(cc_prospect_of(&r, h, u, &p) == CC_OK && p.draws == 40 &&
              p.outcomes[CC_MINUS_TEN] == 1,
          "one out", "house", h);
    /* four outs: 4o 5o 6o / 4c 5c 6c / 1b: 3o 7o 3c 7c; 36 draws leave the 1b */
    h = th_parse("4o 5o 6o 4c 5c 6c 1b");
    u.once = CC_LANE_MASK & ~h.once & ~(UINT64_C(1) << (32 + 11)); /* not the 12e */
    CHECK_HAND(cc_prospect_of(&r, h, u, &p) == CC_OK && p.outcomes[CC_MINUS_TEN] == 4 &&
              p.points_sum == 36 && p.outcomes[CC_CANNOT_CLOSE] == 0,
          "four outs", "house", h);
    /* a draw completing chinchon: 1o-6o and the 12b wait on the 7o */
    h = th_parse("1o 2o 3o 4o 5o 6o 12b");
    u = th_parse("7o 7c 12c");
    CHECK_HAND(cc_prospect_of(&r, h, u, &p) == CC_OK && p.outcomes[CC_CHINCHON] == 1 &&
              p.outcomes[CC_MINUS_TEN] == 0 && p.points_sum == 0 + 7 + 12,
          "chinchon draw", "house", h);
    /* the checks of unseen */
    h = th_parse("1o 2o 3o 4c 4e 4b 12o 11c");
    CHECK_HAND(cc_outlook(&r, h, th_parse("4c 5o"), pts, NULL, lines) == CC_ERR_DUPLICATE,
          "held and unseen", "house", h);
    u.once = 0;
    u.twice = 0;
    CHECK_HAND(cc_outlook(&r, h, u, pts, NULL, lines) == CC_ERR_CARD_COUNT, "no unseen", "house",
          h);
    u.once = UINT64_C(1) << 12;
    CHECK_HAND(cc_outlook(&r, h, u, pts, NULL, lines) == CC_ERR_LANE_BITS, "joker not in play",
          "house", h);
    r = make(7, 40, 1, 0, 1);
    h = th_parse("1o 2o 3o 4c 4e 4b 12o 11c");
    CHECK_HAND(cc_outlook(&r, h, th_parse("8o"), pts, NULL, lines) == CC_ERR_NOT_IN_DECK,
          "eight with 40 cards", "conga", h);
    CHECK_HAND(cc_outlook(&r, th_parse("1o 1o 3o 4c 4e 4b 12o 11c"), th_parse("1o"), pts, NULL,
                     lines) == CC_ERR_THREE_COPIES,
          "three copies", "conga", h);
    CHECK_HAND(cc_prospect_of(&r, th_parse("1o 2o 3o"), th_parse("5o"), &p) == CC_ERR_CARD_COUNT,
          "seven cards", "conga", h);
}

int main(void)
{
    int iters = 2000;
    const char *env = getenv("CC_TEST_ITERS");
    cc_rules house, classic, conga, fifty;
    if (env != NULL)
        iters = atoi(env) / 100 + 1;
    cc_rules_default(&house);
    classic = make(5, 48, 0, 0, 0);
    conga = make(7, 40, 1, 0, 1);
    fifty = make(5, 48, 0, 2, 1);
    hand_built();
    random_checks(&house, "house", 1, iters);
    random_checks(&house, "house", 2, iters / 2 + 1);
    random_checks(&classic, "classic", 1, iters / 4 + 1);
    random_checks(&conga, "conga", 1, iters / 4 + 1);
    random_checks(&fifty, "fifty", 1, iters / 8 + 1);
    random_checks(&fifty, "fifty", 2, iters / 8 + 1);
    return th_report("test_outlook");
}
