/*
 * test_settle.c -- tests of cc_settle (csrc/src/settle/settle.c): hand-built cases for each rule,
 * bad deals, and invariants on random deals (every card accounted for, lay-offs legal
 * when applied, the table consistent). Run by ctest (csrc/tests/run.sh: plain and under
 * -fsanitize=address,undefined). Random deals: argv[1], else SETTLE_TEST_DEALS, else 20000;
 * a second argument adds a timing line. The exhaustive optimality checks live in the Python
 * tests (tests/settle/), which compare against an independent verifier.
 *
 * Under the rule variants (docs/rules.md#laying-off-with-jokers): hand-built joker
 * lay-offs with their answers worked out by hand; random deals under several variant
 * rules with the invariants checked against the variant lay-off rules (a joker onto a set
 * or run with none, set capacity, the places of a run, the stand-in card refused); and
 * deals without a joker settled under rules with jokers in play and under the house
 * rules: the two must agree field by field (one search serves both; this keeps it so).
 */
#include "chinchon.h"

#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int failures = 0;

#define CHECK(cond)                                                              \
    do {                                                                         \
        if (!(cond)) {                                                           \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                          \
        }                                                                        \
    } while (0)

/* The house rules (points = rank, close limit 5), built as chinchon.h asks: cc_settle
 * counts points through the derived bit planes. */
static void house(cc_rules *r)
{
    cc_rules_default(r);
}

/* Number of cards of h (a copy counted twice), bit by bit.
 * O(64). */
static int count(cc_hand h)
{
    int n = 0, i;
    for (i = 0; i < 64; i++)
        n += (int)((h.once >> i) & 1u) + (int)((h.twice >> i) & 1u);
    return n;
}

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
    CHECK(th_same(got, closer));
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
            CHECK(t < n_table);
            if (t >= n_table)
                return;
            CHECK(table[t].open);
            if (table[t].kind == CC_SET) {
                int rank = 0;
                while (!((table[t].cards.once >> rank) & 1u))
                    rank++;
                CHECK(c % 16 == rank % 16);
            } else {
                uint64_t b = UINT64_C(1) << c;
                CHECK(!(table[t].cards.once & b));
                CHECK(((table[t].cards.once << 1) & b) || ((table[t].cards.once >> 1) & b));
            }
            table[t].cards = th_add(table[t].cards, c);
            got = th_add(got, c);
        }
        CHECK(th_same(got, opps[k]));
        for (i = 0; i < r->n_melds; i++) {
            table[n_table].cards = r->melds[i].cards;
            table[n_table].kind = r->melds[i].kind;
            table[n_table].owner = (uint8_t)(k + 1);
            table[n_table].open = 1;
            n_table++;
        }
    }
    CHECK(n_table == s->n_table);
    for (i = 0; i < n_table && i < s->n_table; i++) {
        CHECK(th_same(table[i].cards, s->table[i].cards));
        CHECK(table[i].owner == s->table[i].owner && table[i].open == s->table[i].open);
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

    CHECK(settle_text(r, "7o 7c 7b 9e 10e 11e 4o", spec, 1, 0, &s) == CC_OK);
    CHECK(s.outcome == CC_NORMAL && s.points[0] == 4 && s.points[1] == 19);
    CHECK(layoff_is(&s.opponents[0], 0, "7e", 0) && layoff_is(&s.opponents[0], 1, "12e", 1));

    CHECK(settle_text(r, closer, chain, 1, 0, &s) == CC_OK);
    CHECK(s.opponents[0].n_layoffs == 3 && layoff_is(&s.opponents[0], 0, "2o", 0) &&
          layoff_is(&s.opponents[0], 1, "6o", 0) && layoff_is(&s.opponents[0], 2, "7o", 0));

    CHECK(settle_text(r, closer, earlier, 2, 0, &s) == CC_OK);
    CHECK(s.opponents[1].n_layoffs == 3 && layoff_is(&s.opponents[1], 0, "7o", 0) &&
          layoff_is(&s.opponents[1], 1, "5c", 2) && layoff_is(&s.opponents[1], 2, "4c", 2));

    CHECK(settle_text(r, "7o 8o 9o 10o 2c 2e 2b", locked, 2, 0, &s) == CC_OK);
    CHECK(s.outcome == CC_MINUS_TEN && s.points[0] == -10 && s.opponents[0].n_layoffs == 0);
    {
        /* minus ten scores what the rules say; the rest of the settlement is the same */
        cc_rules r25 = *r;
        cc_settlement s25;
        r25.minus_ten = 25;
        CHECK(settle_text(&r25, "7o 8o 9o 10o 2c 2e 2b", locked, 2, 0, &s25) == CC_OK);
        CHECK(s25.outcome == CC_MINUS_TEN && s25.points[0] == -25 &&
              s25.closer.points == -25 && s25.points[2] == s.points[2] &&
              s25.opponents[1].n_layoffs == s.opponents[1].n_layoffs);
    }
    CHECK(!s.table[0].open && !s.table[1].open && s.table[2].open);
    CHECK(layoff_is(&s.opponents[1], 0, "3e", 2) && layoff_is(&s.opponents[1], 1, "7e", 2));

    CHECK(settle_text(r, "5o 6o 7o 1c 1e 1b 2c", two_runs, 2, 0, &s) == CC_OK);
    CHECK(s.decks == 2 && layoff_is(&s.opponents[1], 0, "8o", 2) &&
          layoff_is(&s.opponents[1], 1, "7o", 2));

    CHECK(settle_text(r, closer, broken, 1, 0, &s) == CC_OK);
    CHECK(s.opponents[0].n_melds == 1 && s.opponents[0].points == 23);

    CHECK(settle_text(r, "3e 4e 5e 6e 7e 8e 9e", spec, 1, 0, &s) == CC_OK);
    CHECK(s.outcome == CC_CHINCHON && s.points[0] == 0 && s.points[1] == 0 &&
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
    CHECK(settle_text(r, "5o 5c 5e 1b 2b 3b 10o", ok, 1, 0, &s) == CC_ERR_CANNOT_CLOSE);
    CHECK(s.deadwood == 10);
    CHECK(settle_text(r, "3o 4o 5o 9c 9e 9b 1b", dup, 1, 1, &s) == CC_ERR_DUPLICATE);
    CHECK(s.bad_card == 2 && s.bad_seat == 1);
    /* the lowest card held twice; its second copy with the second opponent */
    CHECK(settle_text(r, "3o 4o 5o 9c 9e 9b 1b", dup2, 2, 1, &s) == CC_ERR_DUPLICATE);
    CHECK(s.bad_card == 1 && s.bad_seat == 2);
    CHECK(settle_text(r, "3o 4o 5o 9c 9e 9b 1b", dup2, 2, 0, &s) == CC_OK && s.decks == 2);
    CHECK(settle_text(r, "3o 4o 5o 9c 9e 9b 1b", three, 2, 0, &s) == CC_ERR_THREE_COPIES);
    CHECK(s.bad_seat == 2 && s.bad_card == 0);
    CHECK(settle_text(r, "3o 4o 5o 9c 9e 9b 1b", six, 1, 0, &s) == CC_ERR_CARD_COUNT);
    CHECK(s.bad_seat == 1 && s.bad_card == -1);
    CHECK(settle_text(r, "3o 4o 5o 9c 9e 9b 1b 2b", ok, 1, 0, &s) == CC_ERR_CARD_COUNT);
    CHECK(s.bad_seat == 0);
    o[0] = th_parse("1o 2o 12c 11e 10b 8b 4e");
    o[0].once |= UINT64_C(1) << 13;
    CHECK(cc_settle(r, th_parse("3o 4o 5o 9c 9e 9b 1b"), o, 1, 0, &s) == CC_ERR_LANE_BITS);
    CHECK(s.bad_seat == 1 && s.bad_card == -1);
    o[0] = th_parse("1o 2o 12c 11e 10b 8b 4e");
    o[0].twice = UINT64_C(1) << 5; /* 6o twice but not once */
    CHECK(cc_settle(r, th_parse("3o 4o 5o 9c 9e 9b 1b"), o, 1, 0, &s) ==
          CC_ERR_TWICE_NOT_SUBSET);
    CHECK(s.bad_seat == 1);
    CHECK(cc_settle(r, th_parse("3o 4o 5o 9c 9e 9b 1b"), o, 0, 0, &s) == CC_ERR_BAD_ARGUMENT);
    CHECK(cc_settle(r, th_parse("3o 4o 5o 9c 9e 9b 1b"), o, 6, 0, &s) == CC_ERR_BAD_ARGUMENT);
    CHECK(cc_settle(r, th_parse("3o 4o 5o 9c 9e 9b 1b"), NULL, 1, 0, &s) ==
          CC_ERR_BAD_ARGUMENT);
    CHECK(cc_settle(r, th_parse("3o 4o 5o 9c 9e 9b 1b"), o, 1, 3, &s) == CC_ERR_BAD_ARGUMENT);
}

static uint64_t rng_state = 0x9E3779B97F4A7C15u;
/* The next number of a fixed-seed xorshift64 generator.
 * O(1). */
static uint64_t next_random(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

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
        for (i = nd - 1; i > 0; i--) {
            int j = (int)(next_random() % (uint64_t)(i + 1)), t = deck[i];
            deck[i] = deck[j];
            deck[j] = t;
        }
        for (k = 0; k <= n_opp; k++) {
            hands[k].once = hands[k].twice = 0;
            for (i = 0; i < 7; i++)
                hands[k] = th_add(hands[k], deck[7 * k + i]);
        }
        st = cc_settle(r, hands[0], &hands[1], n_opp, decks, &out);
        if (st == CC_ERR_CANNOT_CLOSE)
            continue;
        CHECK(st == CC_OK);
        if (st != CC_OK)
            return 0;
        check_invariants(&out, hands[0], &hands[1]);
        for (k = 0; k <= n_opp; k++)
            CHECK(count(hands[k]) == 7);
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

/* ------------------------------------------------------------------ rule variants */

/* Rules from the fields of chinchon.h's cc_variant (points = rank unless court: jack,
 * knight, king worth 10). Fails the test on a bad value. O(1). */
static cc_rules variant(int deck, int wild, int jokers, int joker_points, int seven_run_wins,
                        int joker_chinchon, int close_limit, int court)
{
    cc_rules r;
    cc_variant v;
    uint8_t points[CC_NRANKS];
    int i;
    for (i = 0; i < CC_NRANKS; i++)
        points[i] = (uint8_t)(court && i >= 9 ? 10 : i + 1);
    v.deck = deck;
    v.wild_ace_of_coins = wild;
    v.jokers = jokers;
    v.joker_points = joker_points;
    v.seven_run_wins = seven_run_wins;
    v.joker_chinchon = joker_chinchon;
    CHECK(cc_rules_init_variant(&r, points, close_limit, 10, &v) == CC_OK);
    return r;
}

/* Points of one card under r (a joker: joker_points). O(1). */
static int vpoints(const cc_rules *r, int card)
{
    return ((r->joker_mask >> card) & 1u) ? r->joker_points : r->points[card % 16];
}

/* Points of the cards of h under r, card by card. O(64). */
static int vweight(const cc_rules *r, cc_hand h)
{
    int i, n = 0;
    for (i = 0; i < 64; i++)
        if ((h.once >> i) & 1u)
            n += (int)(1u + ((h.twice >> i) & 1u)) * vpoints(r, i);
    return n;
}

/* Place of a natural card in the run order of r's deck. O(1). */
static int vplace(const cc_rules *r, int card)
{
    int rank = card % 16 + 1;
    return r->deck == 40 && rank >= 10 ? rank - 3 : rank - 1;
}

/* A table meld as the checker tracks it: its cards, kind, joker (stand: a run's place
 * of it, or -1) and for a run the places lo..hi it covers. */
typedef struct vmeld {
    cc_hand cards;
    int kind, open, owner, joker, joker_rank, lo, hi, suit, rank;
} vmeld;

/* The checker's view of a meld laid down (a cc_meld), and whether it is a legal meld
 * under r: >= 3 cards, >= 2 natural, one joker at most, a run's places consecutive.
 * O(64). */
static vmeld vmeld_of(const cc_rules *r, const cc_meld *m, int owner, int open, int cap)
{
    vmeld v;
    int i, n = 0, naturals = 0, jokers = 0, places = 0, suit = -1, rank = -1, ok = 1;
    v.cards = m->cards;
    v.kind = m->kind;
    v.open = open;
    v.owner = owner;
    v.joker = m->joker_rank ? m->joker : -1;
    v.joker_rank = m->joker_rank;
    for (i = 0; i < 64; i++) {
        int c = (int)(((m->cards.once >> i) & 1u) + ((m->cards.twice >> i) & 1u));
        if (!c)
            continue;
        n += c;
        if ((r->joker_mask >> i) & 1u) {
            jokers += c;
            ok &= i == v.joker;
            continue;
        }
        naturals += c;
        if (m->kind == CC_SET) {
            ok &= rank < 0 || rank == i % 16 + 1;
            rank = i % 16 + 1;
        } else {
            ok &= c == 1 && (suit < 0 || suit == i / 16);
            suit = i / 16;
            places |= 1 << vplace(r, i);
        }
    }
    ok &= n >= 3 && naturals >= 2 && jokers <= 1 && (jokers == 1) == (v.joker >= 0);
    v.suit = suit;
    v.rank = m->kind == CC_SET ? rank : -1;
    if (m->kind == CC_SET) {
        ok &= n <= cap && (v.joker < 0 || v.joker_rank == rank);
    } else {
        if (v.joker >= 0) {
            int p = r->deck == 40 && v.joker_rank >= 10 ? v.joker_rank - 3 : v.joker_rank - 1;
            ok &= !((places >> p) & 1);
            places |= 1 << p;
        }
        v.lo = 0;
        while (!((places >> v.lo) & 1))
            v.lo++;
        v.hi = v.lo;
        while ((places >> (v.hi + 1)) & 1)
            v.hi++;
        ok &= (places >> v.lo) == (1 << (v.hi - v.lo + 1)) - 1;
    }
    CHECK(ok);
    return v;
}

/* Every card of each seat accounted for; each meld legal; each lay-off legal under r when
 * applied in the order given (a natural card of a set's rank, or a joker onto a set
 * without one, under the capacity; a run's natural card just past either end, a joker
 * there when the run holds none, at the place the final table gives it); points the
 * unmatched cards' (0 on chinchon); the final table what the plays make. */
static long g_joker_layoffs = 0, g_layoffs_past_jokers = 0;

static void check_variant(const cc_rules *r, const cc_settlement *s, cc_hand closer,
                          const cc_hand *opps)
{
    vmeld table[CC_MAX_TABLE];
    int n_table = 0, k, i, j, cap = 4 * s->decks;
    int locked = s->outcome == CC_MINUS_TEN || s->outcome == CC_JOKER_CHINCHON;
    cc_hand got = s->closer.unmatched;
    for (i = 0; i < s->closer.n_melds; i++) {
        for (j = 0; j < 64; j++) {
            if ((s->closer.melds[i].cards.once >> j) & 1u)
                got = th_add(got, j);
            if ((s->closer.melds[i].cards.twice >> j) & 1u)
                got = th_add(got, j);
        }
        table[n_table++] = vmeld_of(r, &s->closer.melds[i], 0, !locked, cap);
    }
    CHECK(th_same(got, closer));
    if (s->outcome == CC_NORMAL)
        CHECK(s->points[0] == vweight(r, s->closer.unmatched) && s->points[0] == s->deadwood);
    for (k = 0; k < s->n_opponents; k++) {
        const cc_seat_result *res = &s->opponents[k];
        got = res->unmatched;
        for (i = 0; i < res->n_melds; i++)
            for (j = 0; j < 64; j++) {
                if ((res->melds[i].cards.once >> j) & 1u)
                    got = th_add(got, j);
                if ((res->melds[i].cards.twice >> j) & 1u)
                    got = th_add(got, j);
            }
        CHECK(s->outcome != CC_CHINCHON || res->n_layoffs == 0);
        for (i = 0; i < res->n_layoffs; i++) {
            int c = res->layoffs[i].card, t = res->layoffs[i].meld;
            int joker = (int)((r->joker_mask >> c) & 1u);
            vmeld *m;
            CHECK(t < n_table);
            if (t >= n_table)
                return;
            m = &table[t];
            CHECK(m->open);
            CHECK(i == 0 || res->layoffs[i - 1].meld <= t); /* grouped by meld */
            g_joker_layoffs += joker;
            g_layoffs_past_jokers += !joker && m->joker >= 0;
            if (m->kind == CC_SET) {
                CHECK(joker ? m->joker < 0 : c % 16 + 1 == m->rank);
                if (joker) {
                    m->joker = c;
                    m->joker_rank = m->rank;
                }
            } else {
                int p;
                if (joker) {
                    int rank = s->table[t].joker_rank;
                    CHECK(m->joker < 0 && s->table[t].joker == c);
                    p = r->deck == 40 && rank >= 10 ? rank - 3 : rank - 1;
                    m->joker = c;
                    m->joker_rank = rank;
                } else {
                    CHECK(c / 16 == m->suit);
                    p = vplace(r, c);
                }
                CHECK(p == m->lo - 1 || p == m->hi + 1);
                if (p == m->lo - 1)
                    m->lo = p;
                else
                    m->hi = p;
            }
            m->cards = th_add(m->cards, c);
            got = th_add(got, c);
        }
        CHECK(th_same(got, opps[k]));
        if (s->outcome == CC_CHINCHON)
            CHECK(res->points == 0);
        else
            CHECK(res->points == vweight(r, res->unmatched));
        CHECK(s->points[k + 1] == res->points);
        for (i = 0; i < res->n_melds; i++)
            table[n_table++] = vmeld_of(r, &res->melds[i], k + 1, 1, cap);
    }
    for (i = 0; i < n_table; i++)
        if (table[i].kind == CC_SET)
            CHECK(count(table[i].cards) <= cap);
    CHECK(n_table == s->n_table);
    for (i = 0; i < n_table && i < s->n_table; i++) {
        CHECK(th_same(table[i].cards, s->table[i].cards));
        CHECK(table[i].owner == s->table[i].owner && table[i].open == s->table[i].open);
        CHECK(table[i].joker < 0 ? s->table[i].joker_rank == 0
                                 : s->table[i].joker == table[i].joker &&
                                       s->table[i].joker_rank == table[i].joker_rank);
    }
}

/* cc_settle under variant rules on hands given as text (jokers "*1", "*2"); on success
 * the variant invariants are checked too. Returns the status. */
static int vsettle(const cc_rules *r, const char *closer, const char **opps, int n, int decks,
                   cc_settlement *out)
{
    cc_hand o[CC_MAX_OPPONENTS];
    int i;
    cc_status st;
    for (i = 0; i < n; i++)
        o[i] = th_parse(opps[i]);
    st = cc_settle(r, th_parse(closer), o, n, decks, out);
    if (st == CC_OK)
        check_variant(r, out, th_parse(closer), o);
    return (int)st;
}

/* Whether lay-off i of a seat puts `card` ("*1", "7o") onto table meld `meld`. O(1). */
static int vlayoff_is(const cc_seat_result *r, int i, const char *card, int meld)
{
    cc_hand h = th_parse(card);
    int c = 0;
    while (!((h.once >> c) & 1u))
        c++;
    return i < r->n_layoffs && r->layoffs[i].card == c && r->layoffs[i].meld == meld;
}

/* Hand-built joker settlements (the cases of tests/settle/test_variants_settle.py and a
 * few more), each answer worked out by hand. */
static void variant_hand_built(void)
{
    cc_settlement s;
    cc_rules one = variant(48, 0, 1, 25, 1, 25, 5, 0), fifty = variant(48, 0, 2, 25, 1, 25, 5, 0);
    cc_rules loose = variant(48, 0, 1, 25, 1, 25, 10, 0), conga = variant(40, 1, 0, 25, 1, 25, 7, 0);
    cc_rules wild = variant(48, 1, 0, 25, 1, 25, 5, 0), zero = variant(48, 0, 1, 0, 1, 25, 5, 0);
    cc_rules classic1 = variant(48, 0, 1, 25, 0, 25, 5, 0);
    cc_rules nojc = variant(48, 0, 2, 25, 1, -1, 5, 0);
    const char *past[] = {"7o 3o 5o 12c 11e 10b 2b"};
    const char *cap1[] = {"*1 7e 12c 11e 10b 2b 5b"};
    const char *full[] = {"*1 12c 11e 10b 2b 5b 9o"};
    const char *refuse[] = {"*2 12c 11e 10b 2b 5b 9o"};
    const char *alone[] = {"*1 12c 11e 10b 2b 5b 9o"};
    const char *chain[] = {"*1 8o 12c 11e 10b 2b 3b"};
    const char *second[] = {"*2 12c 11e 10b 2b 5b 1c"};
    const char *later[] = {"*1 9e 11e 12c 10b 2b 5b", "10e 12e 8e 1c 3b 6b 5c"};
    const char *jc[] = {"9c 1c 12c 11e 10b 2b 3b"};
    const char *seven[] = {"*1 9c 9e 11e 1b 1e 10b"};
    const char *jack[] = {"1o 11c 12e 4b 2e 6e 2o"};
    const char *own[] = {"1o 12c 11e 10b 6b 4c 2e"};
    const char *twice[] = {"*1 *1 12c 11e 10b 2b 8e"};
    const char *nothing[] = {"*1 12c 11e 10b 2b 3e 5c"};

    /* natural cards past a table joker; the card it stands for is refused */
    CHECK(vsettle(&fifty, "4o *1 6o 9c 9e 9b 1b", past, 1, 0, &s) == CC_OK);
    CHECK(s.outcome == CC_NORMAL && s.points[0] == 1 && s.points[1] == 5 + 12 + 11 + 10 + 2);
    CHECK(s.opponents[0].n_layoffs == 2 && vlayoff_is(&s.opponents[0], 0, "3o", 0) &&
          vlayoff_is(&s.opponents[0], 1, "7o", 0));
    CHECK(s.table[0].joker == CC_JOKER1_BIT && s.table[0].joker_rank == 5);

    /* a joker onto a set: one deck has room for one card, two decks for both */
    CHECK(vsettle(&loose, "7o 7c 7b 1b 2c 1c 3e", cap1, 1, 0, &s) == CC_OK);
    CHECK(s.opponents[0].n_layoffs == 1 && vlayoff_is(&s.opponents[0], 0, "*1", 0));
    CHECK(s.table[0].joker_rank == 7 && s.points[1] == 7 + 12 + 11 + 10 + 2 + 5);
    CHECK(vsettle(&loose, "7o 7c 7b 1b 2c 1c 3e", cap1, 1, 2, &s) == CC_OK);
    CHECK(s.opponents[0].n_layoffs == 2 && vlayoff_is(&s.opponents[0], 0, "7e", 0) &&
          vlayoff_is(&s.opponents[0], 1, "*1", 0));
    /* a full set takes nothing, the joker included */
    CHECK(vsettle(&loose, "7o 7c 7b 7e 3e 4e 1b", full, 1, 0, &s) == CC_OK);
    CHECK(s.opponents[0].n_layoffs == 0 && s.points[1] == 25 + 12 + 11 + 10 + 2 + 5 + 9);
    /* a set holding a joker refuses another */
    {
        cc_rules fifty10 = variant(48, 0, 2, 25, 1, 25, 10, 0);
        CHECK(vsettle(&fifty10, "7o 7c *1 1b 2c 1c 3e", refuse, 1, 2, &s) == CC_OK);
        CHECK(s.opponents[0].n_layoffs == 0);
    }
    /* a joker alone at either end of a run stands at the lower end */
    CHECK(vsettle(&one, "7o 7c 7b 4o 5o 6o 1b", alone, 1, 0, &s) == CC_OK);
    CHECK(s.opponents[0].n_layoffs == 1 && vlayoff_is(&s.opponents[0], 0, "*1", 0) &&
          s.table[0].joker_rank == 3);
    /* the joker as the 7o, then the chain past it */
    CHECK(vsettle(&one, "7o 7c 7b 4o 5o 6o 1b", chain, 1, 0, &s) == CC_OK);
    CHECK(vlayoff_is(&s.opponents[0], 0, "*1", 0) && vlayoff_is(&s.opponents[0], 1, "8o", 0) &&
          s.table[0].joker_rank == 7);
    /* a run holding a joker refuses a second one: it goes onto the set */
    CHECK(vsettle(&fifty, "4o *1 6o 9c 9e 9b 1b", second, 1, 0, &s) == CC_OK);
    CHECK(s.opponents[0].n_layoffs == 1 && vlayoff_is(&s.opponents[0], 0, "*2", 1) &&
          s.table[1].joker == CC_JOKER2_BIT && s.table[1].joker_rank == 9);
    /* later opponents lay past an earlier opponent's joker */
    CHECK(vsettle(&one, "7o 7c 7b 2e 3e 4e 1b", later, 2, 0, &s) == CC_OK);
    CHECK(s.opponents[0].n_melds == 1 && s.opponents[0].melds[0].joker_rank == 10);
    CHECK(s.opponents[1].n_layoffs == 2 && vlayoff_is(&s.opponents[1], 0, "8e", 2) &&
          vlayoff_is(&s.opponents[1], 1, "12e", 2));
    /* joker chinchon locks the closer; without it, minus ten does */
    CHECK(vsettle(&fifty, "2c 3c 4c 5c *1 7c 8c", jc, 1, 0, &s) == CC_OK);
    CHECK(s.outcome == CC_JOKER_CHINCHON && s.points[0] == -25 && !s.table[0].open &&
          s.opponents[0].n_layoffs == 0 && s.table[0].joker_rank == 6);
    CHECK(vsettle(&nojc, "2c 3c 4c 5c *1 7c 8c", jc, 1, 0, &s) == CC_OK);
    CHECK(s.outcome == CC_MINUS_TEN && s.points[0] == -10 && !s.table[0].open);
    {
        const char *jc40[] = {"10o 1c 12c 11e 10b 2b 3b"};
        CHECK(vsettle(&conga, "1o 2o 3o 4o 5o 6o 7o", jc40, 1, 0, &s) == CC_OK);
        CHECK(s.outcome == CC_JOKER_CHINCHON && s.points[0] == -25 &&
              s.points[1] == 1 + 12 + 11 + 10 + 2 + 3 + 10);
    }
    /* seven_run_wins: chinchon, best own melds and no points; off: minus ten */
    CHECK(vsettle(&one, "2c 3c 4c 5c 6c 7c 8c", seven, 1, 0, &s) == CC_OK);
    CHECK(s.outcome == CC_CHINCHON && s.points[1] == 0 && s.opponents[0].n_melds == 1 &&
          s.opponents[0].melds[0].kind == CC_RUN && s.opponents[0].melds[0].joker_rank == 10);
    CHECK(vsettle(&classic1, "2c 3c 4c 5c 6c 7c 8c", seven, 1, 0, &s) == CC_OK);
    CHECK(s.outcome == CC_MINUS_TEN && !s.table[0].open && s.opponents[0].n_layoffs == 0);
    /* 40 cards: the wild ace as the jack after the seven, the knight past it (the
     * closer's set of threes comes first: its key is smaller) */
    CHECK(vsettle(&conga, "5c 6c 7c 3e 3b 3o 1b", jack, 1, 0, &s) == CC_OK);
    CHECK(s.opponents[0].n_layoffs == 2 && vlayoff_is(&s.opponents[0], 0, "1o", 1) &&
          vlayoff_is(&s.opponents[0], 1, "11c", 1) && s.table[1].joker == 0 &&
          s.table[1].joker_rank == 10 && s.points[1] == 4 + 12 + 2 + 6 + 2);
    /* the wild ace onto a coins run from the two stands for its own rank */
    CHECK(vsettle(&wild, "2o 3o 4o 7c 7e 7b 1b", own, 1, 0, &s) == CC_OK);
    CHECK(s.opponents[0].n_layoffs == 1 && vlayoff_is(&s.opponents[0], 0, "1o", 0) &&
          s.table[0].joker == 0 && s.table[0].joker_rank == 1);
    /* one joker card held twice (two decks): one onto the run, one onto the set */
    CHECK(vsettle(&one, "4o 5o 6o 9c 9e 9b 1b", twice, 1, 2, &s) == CC_OK);
    CHECK(s.opponents[0].n_layoffs == 2 && vlayoff_is(&s.opponents[0], 0, "*1", 0) &&
          vlayoff_is(&s.opponents[0], 1, "*1", 1) && s.table[0].joker_rank == 3 &&
          s.table[1].joker_rank == 9 && s.points[1] == 12 + 11 + 10 + 2 + 8);
    /* a joker worth nothing is not laid off for nothing (the shorter plan wins) */
    CHECK(vsettle(&zero, "4o 5o 6o 9c 9e 9b 1b", nothing, 1, 0, &s) == CC_OK);
    CHECK(s.opponents[0].n_layoffs == 0 && s.points[1] == 12 + 11 + 10 + 2 + 3 + 5);
    CHECK(vsettle(&zero, "4o 5o 6o 9c 9e 9b 1b", chain, 1, 0, &s) == CC_OK);
    CHECK(vlayoff_is(&s.opponents[0], 0, "*1", 0) && vlayoff_is(&s.opponents[0], 1, "8o", 0));

    /* the rules' deck: a joker not in play, an eight with 40 cards */
    CHECK(vsettle(&wild, "2o 3o 4o 7c 7e 7b 1b", twice, 1, 2, &s) == CC_ERR_LANE_BITS);
    CHECK(s.bad_seat == 1);
    CHECK(vsettle(&conga, "5c 6c 7c 3e 3b 3o 1b", chain, 1, 0, &s) == CC_ERR_LANE_BITS);
    {
        const char *eight[] = {"1o 11c 12e 4b 2e 6e 8o"};
        CHECK(vsettle(&conga, "5c 6c 7c 3e 3b 3o 1b", eight, 1, 0, &s) == CC_ERR_NOT_IN_DECK);
        CHECK(s.bad_seat == 1);
    }
}

/* A random deal under r: the rules' cards (jokers and all, `decks` times) squeezed into a
 * window of places (jokers always in), the closer redealt until they can close. Settles
 * it and checks the invariants; returns 1 when a deal was settled. */
static int variant_deal(const cc_rules *r, int decks, int n_opp)
{
    int deck[104], nd = 0, places = r->deck == 40 ? 10 : 12, k, s, p, i, tries;
    int lo = (int)(next_random() % (uint64_t)(places - 5)), width = 5 + (int)(next_random() % 4);
    for (k = 0; k < decks; k++) {
        for (s = 0; s < 4; s++)
            for (p = lo; p < lo + width && p < places; p++) {
                int rank = r->deck == 40 && p >= 7 ? p + 3 : p + 1;
                deck[nd++] = 16 * s + rank - 1;
            }
        if (r->wild_ace && lo > 0)
            deck[nd++] = 0; /* the wild ace is in play whatever the window */
        for (i = 0; i < r->jokers; i++)
            deck[nd++] = i == 0 ? CC_JOKER1_BIT : CC_JOKER2_BIT;
    }
    if (nd < 7 * (n_opp + 1))
        return 0;
    for (tries = 0; tries < 50; tries++) {
        cc_hand hands[6];
        cc_settlement out;
        cc_status st;
        for (i = nd - 1; i > 0; i--) {
            int j = (int)(next_random() % (uint64_t)(i + 1)), t = deck[i];
            deck[i] = deck[j];
            deck[j] = t;
        }
        for (k = 0; k <= n_opp; k++) {
            hands[k].once = hands[k].twice = 0;
            for (i = 0; i < 7; i++)
                hands[k] = th_add(hands[k], deck[7 * k + i]);
        }
        st = cc_settle(r, hands[0], &hands[1], n_opp, decks, &out);
        if (st == CC_ERR_CANNOT_CLOSE)
            continue;
        CHECK(st == CC_OK);
        if (st != CC_OK)
            return 0;
        check_variant(r, &out, hands[0], &hands[1]);
        for (k = 1; k <= n_opp; k++) {
            /* never more than the plain deadwood of the hand */
            cc_rules rd = *r;
            int d;
            rd.decks = (uint8_t)decks;
            CHECK(cc_deadwood(&rd, hands[k], &d) == CC_OK);
            CHECK(out.outcome == CC_CHINCHON ? out.points[k] == 0 : out.points[k] <= d);
        }
        return 1;
    }
    return 0;
}

/* Whether two settlements are the same, field by field. O(table). */
static int same_settlement(const cc_settlement *a, const cc_settlement *b)
{
    int k, i;
    if (a->outcome != b->outcome || a->decks != b->decks || a->deadwood != b->deadwood ||
        a->n_opponents != b->n_opponents || a->n_table != b->n_table)
        return 0;
    for (k = 0; k <= a->n_opponents; k++) {
        const cc_seat_result *x = k ? &a->opponents[k - 1] : &a->closer;
        const cc_seat_result *y = k ? &b->opponents[k - 1] : &b->closer;
        if (a->points[k] != b->points[k] || x->points != y->points ||
            x->n_melds != y->n_melds || x->n_layoffs != y->n_layoffs ||
            !th_same(x->unmatched, y->unmatched))
            return 0;
        for (i = 0; i < x->n_melds; i++)
            if (!th_same(x->melds[i].cards, y->melds[i].cards) ||
                x->melds[i].kind != y->melds[i].kind ||
                x->melds[i].joker_rank != y->melds[i].joker_rank)
                return 0;
        for (i = 0; i < x->n_layoffs; i++)
            if (x->layoffs[i].card != y->layoffs[i].card ||
                x->layoffs[i].meld != y->layoffs[i].meld)
                return 0;
    }
    for (i = 0; i < a->n_table; i++)
        if (!th_same(a->table[i].cards, b->table[i].cards) ||
            a->table[i].kind != b->table[i].kind || a->table[i].owner != b->table[i].owner ||
            a->table[i].open != b->table[i].open ||
            a->table[i].joker_rank != b->table[i].joker_rank)
            return 0;
    return 1;
}

/* Random deals under variant rules (invariants), and house deals settled by both searches
 * (rules with a joker in play but none dealt, against the house rules). Returns the deals
 * settled. */
static long variant_random(long n)
{
    cc_rules rules[8];
    cc_rules house_r, one;
    long done = 0, i, tries = 0;
    rules[0] = variant(48, 0, 2, 25, 1, 25, 5, 0);   /* fifty */
    rules[1] = variant(40, 1, 0, 25, 1, 25, 7, 0);   /* conga */
    rules[2] = variant(40, 1, 2, 25, 1, 25, 7, 0);   /* conga with two jokers */
    rules[3] = variant(48, 0, 1, 25, 1, 25, 5, 0);   /* one joker */
    rules[4] = variant(40, 0, 1, 12, 1, 25, 12, 1);  /* 40 cards, court cards 10 */
    rules[5] = variant(48, 1, 0, 25, 1, 25, 9, 0);   /* the wild ace, 48 cards */
    rules[6] = variant(48, 0, 1, 25, 0, 3, 30, 0);   /* classic with a joker */
    rules[7] = variant(48, 0, 2, 0, 1, -1, 8, 1);    /* free jokers, no joker chinchon */
    while (done < n && tries < 20 * n) {
        int decks = (int)(next_random() % 2) + 1;
        int n_opp = decks == 1 ? 1 + (int)(next_random() % 3) : 1 + (int)(next_random() % 5);
        tries++;
        done += variant_deal(&rules[next_random() % 8], decks, n_opp);
    }
    CHECK(done == n);
    /* the deals do exercise the joker rules */
    CHECK(g_joker_layoffs > n / 100 && g_layoffs_past_jokers > n / 20);
    printf("variant deals: %ld jokers laid off, %ld natural cards onto melds holding one\n",
           g_joker_layoffs, g_layoffs_past_jokers);
    house(&house_r);
    one = variant(48, 0, 1, 25, 1, 25, 5, 0);
    for (i = 0; i < n; i++) {
        int deck[96], nd = 0, decks = (int)(next_random() % 2) + 1, s, k, j;
        int n_opp = decks == 1 ? 1 + (int)(next_random() % 3) : 1 + (int)(next_random() % 5);
        int lo = (int)(next_random() % 6), width = 6 + (int)(next_random() % 5);
        cc_hand hands[6];
        cc_settlement a, b;
        cc_status sa, sb;
        for (k = 0; k < decks; k++)
            for (s = 0; s < 4; s++)
                for (j = lo; j < lo + width && j < 12; j++)
                    deck[nd++] = 16 * s + j;
        for (j = nd - 1; j > 0; j--) {
            int m = (int)(next_random() % (uint64_t)(j + 1)), t = deck[j];
            deck[j] = deck[m];
            deck[m] = t;
        }
        if (nd < 7 * (n_opp + 1))
            continue;
        for (k = 0; k <= n_opp; k++) {
            hands[k].once = hands[k].twice = 0;
            for (j = 0; j < 7; j++)
                hands[k] = th_add(hands[k], deck[7 * k + j]);
        }
        sa = cc_settle(&house_r, hands[0], &hands[1], n_opp, decks, &a);
        sb = cc_settle(&one, hands[0], &hands[1], n_opp, decks, &b);
        CHECK(sa == sb);
        if (sa == CC_OK && sb == CC_OK) {
            CHECK(same_settlement(&a, &b));
            check_variant(&one, &b, hands[0], &hands[1]);
        }
    }
    return done;
}

/* Run every check; deals from argv[1], else SETTLE_TEST_DEALS, else 20000.
 * Exit status 0 when all pass. */
int main(int argc, char **argv)
{
    cc_rules r;
    const char *env = getenv("SETTLE_TEST_DEALS");
    long n = argc > 1 ? atol(argv[1]) : env != NULL && atol(env) > 0 ? atol(env) : 20000;
    int done;
    house(&r);
    hand_built(&r);
    bad_deals(&r);
    done = random_deals(&r, n);
    printf("%d random deals checked\n", done);
    variant_hand_built();
    printf("%ld random deals under the variants checked\n", variant_random(n / 4 + 1));
    if (argc > 2)
        bench(&r);
    if (failures) {
        fprintf(stderr, "%d checks failed\n", failures);
        return 1;
    }
    printf("ok\n");
    return 0;
}
