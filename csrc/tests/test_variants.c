/*
 * test_variants.c -- the C core under the rule variants of docs/rules.md#rule-variants
 * (40 cards, jokers, point tables, which closes win) against the independent brute
 * force of variants_brute.h. Random hands under the presets and random rules (0-2
 * jokers in hand and more, one and two decks, 0..8 cards): deadwood, best arrangement
 * (joker and rank included), outcome, hints, both batch calls; the row validation order;
 * bad rules values. Every 7-card hand of the 40-card deck: test_variants_exhaustive.c.
 *
 * Batches of 4096 rows (the joker search's per-batch tables), row by row against the
 * single-hand calls.
 *
 * CC_TEST_ITERS scales the random part (default 200000 hands in all; a batch of 4096
 * rows per 10000).
 */
#include "variants_brute.h"

static uint64_t g_rng = 0x2545F4914F6CDD1Du;

/* splitmix64. O(1). */
static uint64_t next_u64(void) { return th_splitmix64(&g_rng); }

/* 0..n-1. O(1). */
static int rnd(int n) { return (int)(next_u64() % (uint64_t)n); }

/* Check deadwood, best melds, outcome (7 cards), hints (8 cards) and the batch calls
 * (one row: the byte batches where the rules' scores fit a byte, refused otherwise, and
 * the _wide ones always) of a valid hand against the brute force. */
static void check(const trules *tr, cc_rules *cr, int decks, cc_hand h)
{
    int c[16], n = t_list(h, c), d = -1, i;
    tarr best = t_best(tr, decks, c, n);
    cc_arrangement a;
    uint8_t out8[8], dwb = 0;
    uint16_t out16[8], dww = 0;
    size_t bad = 0;
    const int bytes = cr->max_deadwood <= 255;
    uint64_t rows[2];
    cr->decks = (uint8_t)decks;
    th_checks++;
    if (cc_deadwood(cr, h, &d) != CC_OK || d != best.points || d > cr->max_deadwood)
        FAIL_HAND("deadwood", tr->name, h);
    if (cc_best_melds(cr, h, &a) != CC_OK || !same_arrangement(&a, &best, h, c))
        FAIL_HAND("best_melds", tr->name, h);
    rows[0] = h.once;
    rows[1] = h.twice;
    if (decks == 2 || h.twice == 0) {
        cc_status st = cc_deadwood_batch(cr, rows, 1, decks, &dwb, &bad);
        if (bytes ? st != CC_OK || dwb != best.points : st != CC_ERR_BAD_ARGUMENT)
            FAIL_HAND("deadwood_batch", tr->name, h);
        if (cc_deadwood_batch_wide(cr, rows, 1, decks, &dww, &bad) != CC_OK ||
            dww != best.points)
            FAIL_HAND("deadwood_batch_wide", tr->name, h);
    }
    if (n == 7) {
        cc_outcome o;
        if (cc_close_outcome(cr, h, &o) != CC_OK || (int)o != t_outcome(tr, c, n, best.points))
            FAIL_HAND("close_outcome", tr->name, h);
    }
    if (n == 8) {
        uint16_t pts[8];
        uint8_t outs[8];
        if (cc_discard_hints(cr, h, pts, outs) != CC_OK) {
            FAIL_HAND("discard_hints status", tr->name, h);
            return;
        }
        if (decks == 2 || h.twice == 0) {
            cc_status st = cc_hints_batch(cr, rows, 1, decks, out8, &bad);
            if (bytes ? st != CC_OK || !th_same_points(pts, out8, 8) : st != CC_ERR_BAD_ARGUMENT)
                FAIL_HAND("hints_batch", tr->name, h);
            if (cc_hints_batch_wide(cr, rows, 1, decks, out16, &bad) != CC_OK ||
                memcmp(out16, pts, sizeof pts) != 0)
                FAIL_HAND("hints_batch_wide", tr->name, h);
        }
        for (i = 0; i < 8; i++) {
            int rest[8], m = 0, j;
            tarr b7;
            for (j = 0; j < 8; j++)
                if (j != i)
                    rest[m++] = c[j];
            b7 = t_best(tr, decks, rest, 7);
            if (pts[i] != b7.points || outs[i] != t_outcome(tr, rest, 7, b7.points)) {
                FAIL_HAND("discard_hints", tr->name, h);
                break;
            }
        }
    }
}

/* ---------------------------------------------------------------- hands and rules */

/* A random hand of n cards of the rules' deck(s): jokers often, naturals often from a
 * narrow window of places. */
static cc_hand gen_hand(const trules *r, int decks, int n, int jokers_wanted)
{
    int pool[64] = {0}, i, got = 0, lo, width;
    cc_hand h = {0, 0};
    for (i = 0; i < 64; i++) {
        int rank = (i & 15) + 1, nat = (i & 15) < 12 && t_place(r, rank) >= 0;
        if ((nat && !(r->wild && i == 0)) || t_joker(r, i))
            pool[i] = decks;
    }
    for (i = 0; i < 200 && got < jokers_wanted && got < n; i++) {
        int j = rnd(3) == 0 ? 0 : rnd(2) ? 12 : 28;
        if (t_joker(r, j) && pool[j] > 0) {
            pool[j]--;
            h = th_add(h, j);
            got++;
        }
    }
    if (decks == 2 && rnd(5) == 0) { /* a run held twice: two melds of the same cards */
        int s = rnd(4), p = rnd(12), k = 0, c;
        for (; p < 12 && k < 3 && got + 2 <= n; p++) {
            int idx = 16 * s + p;
            if (pool[idx] < 2 || t_joker(r, idx))
                continue;
            for (c = 0; c < 2; c++) {
                pool[idx]--;
                h = th_add(h, idx);
                got++;
            }
            k++;
        }
    }
    if (rnd(6) == 0) { /* a rank's every copy first: sets at the capacity */
        int rank = rnd(12), s;
        for (s = 0; s < 4 && got < n; s++) {
            int idx = 16 * s + rank;
            while (pool[idx] > 0 && !t_joker(r, idx) && got < n) {
                pool[idx]--;
                h = th_add(h, idx);
                got++;
            }
        }
    }
    width = rnd(3) ? 4 + rnd(3) : 12;
    lo = rnd(12 - (width > 10 ? 10 : width) + 1);
    for (i = 0; i < 4000 && got < n; i++) {
        int s = rnd(4), p = rnd(12), idx = 16 * s + p;
        if (width < 12 && (p < lo || p >= lo + width) && i < 2000)
            continue;
        if (pool[idx] > 0 && !t_joker(r, idx)) {
            pool[idx]--;
            h = th_add(h, idx);
            got++;
        }
    }
    return h;
}
/* Random rules: every field drawn. */
static trules gen_rules(void)
{
    trules r;
    int i;
    r.name = "random";
    for (i = 0; i < 12; i++)
        r.points[i] = rnd(4) ? i + 1 : rnd(32);
    r.close_limit = rnd(3) ? 5 : rnd(40);
    r.deck = rnd(2) ? 40 : 48;
    r.wild = rnd(2);
    r.jokers = rnd(3);
    r.joker_points = rnd(2) ? 25 : rnd(2) ? CC_MAX_JOKER_POINTS : rnd(CC_MAX_JOKER_POINTS + 1);
    r.seven_run_wins = rnd(2);
    r.joker_chinchon = rnd(3) ? 25 : -1;
    return r;
}

/* A bad row inside a long run of rows without a joker (the house row kernels, the
 * 40-card deck's in chunks of 256 rows, from row 6 on) is reported at its own index,
 * with the status the row check gives it; a joker or an eight after the run ends it. */
static void plain_run_statuses(const cc_rules *conga, const cc_rules *fifty)
{
    enum { ROWS = 600 };
    static uint64_t rows[2 * ROWS];
    static uint8_t out[8 * ROWS];
    int i, k;
    size_t bad = 0;
    for (k = 0; k < 4; k++) {
        const cc_rules *r = k % 2 ? conga : fifty;
        int hints = k / 2, cards = hints ? 8 : 7;
        cc_hand h = th_parse(hints ? "1c 2c 3c 5e 7b 10b 11o 12e" : "1c 2c 3c 5e 7b 10b 11o");
        for (i = 0; i < ROWS; i++) {
            rows[2 * i] = h.once;
            rows[2 * i + 1] = 0;
        }
        /* row 5 holds a joker for the 11o (the wild ace, *1): the run starts at row 6 */
        rows[2 * 5] = (h.once & ~(UINT64_C(1) << 10)) | (UINT64_C(1) << (k % 2 ? 0 : 12));
        CHECK(cc_deadwood_batch(r, rows, ROWS, 2, out, &bad) == CC_OK, "a plain run");
        rows[2 * 290 + 1] = UINT64_C(1) << 40; /* twice not in once */
        CHECK((hints ? cc_hints_batch(r, rows, ROWS, 2, out, &bad)
                     : cc_deadwood_batch(r, rows, ROWS, 2, out, &bad)) ==
                      CC_ERR_TWICE_NOT_SUBSET && bad == 290, "a bad row in a plain run");
        rows[2 * 290 + 1] = 0;
        rows[2 * 20] |= UINT64_C(1) << 38; /* one card more (7e) */
        CHECK((hints ? cc_hints_batch(r, rows, ROWS, 2, out, &bad)
                     : cc_deadwood_batch(r, rows, ROWS, 2, out, &bad)) ==
                      (hints ? CC_ERR_TOO_MANY_CARDS : (cards + 1 > 8 ? CC_ERR_TOO_MANY_CARDS
                                                                      : CC_OK)) &&
                  (!hints || bad == 20), "a long row in a plain run");
        rows[2 * 20] = h.once;
        rows[2 * 400] |= UINT64_C(1) << 23; /* 8c: not in the 40-card deck */
        CHECK((hints ? cc_hints_batch(r, rows, ROWS, 2, out, &bad)
                     : cc_deadwood_batch(r, rows, ROWS, 2, out, &bad)) ==
                      (k % 2 ? CC_ERR_NOT_IN_DECK : hints ? CC_ERR_TOO_MANY_CARDS : CC_OK) &&
                  (!(k % 2 || hints) || bad == 400), "an eight after a plain run");
    }
}

/* Statuses: the row order (lanes, twice, deck, count), bad rules values. */
static void statuses(void)
{
    cc_rules conga = to_core(&presets[2], 1), fifty = to_core(&presets[3], 1), house;
    uint8_t pts[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, out[8];
    uint64_t rows[2];
    size_t bad = 99;
    int d;
    cc_hand h;
    cc_variant v = {40, 1, 0, 25, 1, 25};
    cc_rules_default(&house);
    h = th_parse("8o 1c");
    CHECK(cc_deadwood(&conga, h, &d) == CC_ERR_NOT_IN_DECK, "8o under conga");
    h.once = UINT64_C(1) << 12;
    h.twice = 0;
    CHECK(cc_deadwood(&house, h, &d) == CC_ERR_LANE_BITS, "*1 under the house rules");
    CHECK(cc_deadwood(&conga, h, &d) == CC_ERR_LANE_BITS, "*1 under conga");
    CHECK(cc_deadwood(&fifty, h, &d) == CC_OK && d == 25, "*1 under fifty");
    h.once = UINT64_C(1) << 13;
    CHECK(cc_deadwood(&fifty, h, &d) == CC_ERR_LANE_BITS, "bit 13 under fifty");
    rows[0] = (UINT64_C(1) << 12) | (UINT64_C(1) << 7);
    rows[1] = UINT64_C(1) << 7;
    CHECK(cc_deadwood_batch(&conga, rows, 2, 1, out, &bad) == CC_ERR_LANE_BITS && bad == 0,
           "lane bits before not-in-deck");
    rows[0] = UINT64_C(1) << 7;
    rows[1] = UINT64_C(1) << 8; /* twice not in once comes before the deck */
    CHECK(cc_deadwood_batch(&conga, rows, 1, 2, out, &bad) == CC_ERR_TWICE_NOT_SUBSET,
           "twice before not-in-deck");
    rows[0] = 0xFF | (UINT64_C(1) << 16);
    CHECK(cc_deadwood_batch(&conga, rows, 1, 1, out, &bad) == CC_ERR_NOT_IN_DECK,
           "not-in-deck before the count");
    CHECK(cc_hints_batch(&conga, rows, 1, 1, out, &bad) == CC_ERR_NOT_IN_DECK,
           "hints: not-in-deck before the count");
    plain_run_statuses(&conga, &fifty);
    v.deck = 44;
    CHECK(cc_rules_init_variant(&house, pts, 5, 10, &v) == CC_ERR_BAD_ARGUMENT, "deck 44");
    v.deck = 40;
    v.jokers = 3;
    CHECK(cc_rules_init_variant(&house, pts, 5, 10, &v) == CC_ERR_BAD_ARGUMENT, "jokers 3");
    v.jokers = 0;
    v.joker_points = CC_MAX_JOKER_POINTS + 1;
    CHECK(cc_rules_init_variant(&house, pts, 5, 10, &v) == CC_ERR_BAD_ARGUMENT,
           "joker points 51");
    v.joker_points = -1;
    CHECK(cc_rules_init_variant(&house, pts, 5, 10, &v) == CC_ERR_BAD_ARGUMENT,
           "joker points -1");
    v.joker_points = CC_MAX_JOKER_POINTS;
    CHECK(cc_rules_init_variant(&house, pts, 5, 10, &v) == CC_OK, "joker points 50");
    {
        /* the wild ace and both jokers at 50: a hand's points with every joker whole (the
           planes hold a joker's low five bits, cc_hand_points adds its 32), and the bound
           past a byte that sends the batches to the _wide ones */
        cc_variant w = v;
        uint64_t row[2];
        uint16_t wide = 0;
        w.deck = 48;
        w.wild_ace_of_coins = 1;
        w.jokers = 2;
        row[0] = UINT64_C(1) | (UINT64_C(1) << CC_JOKER1_BIT) | (UINT64_C(1) << CC_JOKER2_BIT) |
                 (UINT64_C(1) << 27); /* 1o *1 *2 12c */
        row[1] = UINT64_C(1) << CC_JOKER1_BIT;
        CHECK(cc_rules_init_variant(&house, pts, 5, 10, &w) == CC_OK &&
                  house.max_deadwood == 6 * 50 + 2 * 12, "max_deadwood past a byte");
        CHECK(cc_hand_points(&house, (cc_hand){row[0], row[1]}) == 4 * 50 + 12,
              "hand points, jokers of 50");
        CHECK(cc_deadwood_batch(&house, row, 1, 2, out, &bad) == CC_ERR_BAD_ARGUMENT &&
                  cc_deadwood_batch_wide(&house, row, 1, 2, &wide, &bad) == CC_OK &&
                  wide == 4 * 50 + 12, "a byte batch refused, the wide one exact");
    }
    v.joker_points = 0;
    v.joker_chinchon = -2;
    CHECK(cc_rules_init_variant(&house, pts, 5, 10, &v) == CC_ERR_BAD_ARGUMENT,
           "joker chinchon -2");
    v.joker_chinchon = -1;
    v.wild_ace_of_coins = 2;
    CHECK(cc_rules_init_variant(&house, pts, 5, 10, &v) == CC_ERR_BAD_ARGUMENT, "wild 2");
    v.wild_ace_of_coins = 0;
    v.seven_run_wins = 5;
    CHECK(cc_rules_init_variant(&house, pts, 5, 10, &v) == CC_ERR_BAD_ARGUMENT, "seven 5");
    CHECK(cc_status_name(CC_ERR_NOT_IN_DECK) != NULL &&
               strcmp(cc_status_name(CC_ERR_NOT_IN_DECK), "CC_ERR_NOT_IN_DECK") == 0,
           "status name");
}

/* Batches large enough for the per-batch tables of the joker search (joker_batch.c
 * builds them from 512 rows of hints, 4096 of deadwood): every row of a 4096-row batch,
 * deadwood and hints, equals the single-hand call (checked against the brute force
 * above), and one row in 64 is checked against the brute force itself. Rules random or presets, one or two decks,
 * 0-3 jokers wanted a row (the hints' 8 cards, the deadwood's 0-8), in stretches of up
 * to 48 rows with none or drawn freely. */
static void big_batches(long rounds)
{
    enum { ROWS = 4096 };
    static uint64_t masks[2 * ROWS];
    static cc_hand hands[ROWS];
    static uint8_t out[8 * ROWS];
    static uint16_t wide[8 * ROWS];
    long r;
    for (r = 0; r < rounds; r++) {
        trules tr = r % 2 == 0 ? gen_rules() : presets[rnd(4)];
        int decks = 1 + rnd(2), hints = (int)(r / 2 % 2), i, stretch = 0, plain = 0;
        cc_rules cr = to_core(&tr, decks);
        size_t bad = 0;
        cc_status st;
        for (i = 0; i < ROWS; i++) {
            cc_hand h;
            if (stretch-- == 0) { /* stretches of rows without a joker (the house kernels
                                     from 16 rows on) between rows drawn freely */
                stretch = rnd(48);
                plain = rnd(2);
            }
            h = gen_hand(&tr, decks, hints ? 8 : 7 - rnd(2) * rnd(8), plain ? 0 : rnd(7));
            hands[i] = h;
            if (decks == 1) {
                masks[i] = h.once;
            } else {
                masks[2 * i] = h.once;
                masks[2 * i + 1] = h.twice;
            }
        }
        st = hints ? cc_hints_batch_wide(&cr, masks, ROWS, decks, wide, &bad)
                   : cc_deadwood_batch_wide(&cr, masks, ROWS, decks, wide, &bad);
        if (st == CC_OK && cr.max_deadwood <= 255) /* the byte batch too, same rows */
            st = hints ? cc_hints_batch(&cr, masks, ROWS, decks, out, &bad)
                       : cc_deadwood_batch(&cr, masks, ROWS, decks, out, &bad);
        if (st != CC_OK) {
            FAIL_HAND(hints ? "big hints_batch status" : "big deadwood_batch status", tr.name,
                      hands[bad]);
            continue;
        }
        for (i = 0; i < ROWS; i++) {
            th_checks++;
            if (hints) {
                uint16_t p[8];
                if (cc_discard_hints(&cr, hands[i], p, NULL) != CC_OK ||
                    memcmp(p, wide + 8 * i, sizeof p) != 0 ||
                    (cr.max_deadwood <= 255 && !th_same_points(p, out + 8 * i, 8)))
                    FAIL_HAND("big hints_batch row", tr.name, hands[i]);
            } else {
                int d = -1;
                if (cc_deadwood(&cr, hands[i], &d) != CC_OK || d != wide[i] ||
                    (cr.max_deadwood <= 255 && d != out[i]))
                    FAIL_HAND("big deadwood_batch row", tr.name, hands[i]);
            }
            if (i % 64 == 0)
                check(&tr, &cr, decks, hands[i]);
        }
    }
}

/* Run every check; CC_TEST_ITERS scales the random ones. Exit status 0 when all pass. */
int main(void)
{
    long iters = 200000, it;
    const char *env = getenv("CC_TEST_ITERS");
    if (env != NULL && atol(env) > 0)
        iters = atol(env);
    statuses();
    for (it = 0; it < iters; it++) {
        trules tr = it % 3 == 0 ? gen_rules() : presets[rnd(4)];
        int decks = 1 + rnd(2), n = rnd(9);
        int jw = rnd(7); /* up to 6: two decks' wild aces and jokers */
        cc_hand h;
        cc_rules cr;
        if (rnd(4) == 0)
            n = 7 + rnd(2);
        cr = to_core(&tr, decks);
        h = gen_hand(&tr, decks, n, jw);
        check(&tr, &cr, decks, h);
    }
    big_batches(iters / 10000 > 4 ? iters / 10000 : 4);
    return th_report("test_variants");
}
