/*
 * test_settle_variants.c -- tests of cc_settle (csrc/src/settle/settle.c) under the rule
 * variants (docs/rules.md#laying-off-with-jokers): hand-built joker lay-offs with their
 * answers worked out by hand; random deals under several variant rules with the
 * invariants checked against the variant lay-off rules (a joker onto a set or run with
 * none, set capacity, the places of a run, the stand-in card refused); and deals without
 * a joker settled under rules with jokers in play and under the house rules: the two
 * must agree field by field (one search serves both; this keeps it so). Run by ctest
 * (csrc/tests/run.sh: plain and under -fsanitize=address,undefined). Random deals: a
 * quarter of argv[1], else of SETTLE_TEST_DEALS, else of 20000.
 */
#include "chinchon.h"

#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state = 0x9E3779B97F4A7C15u;
/* The next number of this program's fixed-seed xorshift64 generator (testlib.h).
 * O(1). */
static uint64_t next_random(void) { return th_xorshift64(&rng_state); }

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
    EXPECT(cc_rules_init_variant(&r, points, close_limit, 10, &v) == CC_OK);
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
    EXPECT(ok);
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
    EXPECT(th_same(got, closer));
    if (s->outcome == CC_NORMAL)
        EXPECT(s->points[0] == vweight(r, s->closer.unmatched) && s->points[0] == s->deadwood);
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
        EXPECT(s->outcome != CC_CHINCHON || res->n_layoffs == 0);
        for (i = 0; i < res->n_layoffs; i++) {
            int c = res->layoffs[i].card, t = res->layoffs[i].meld;
            int joker = (int)((r->joker_mask >> c) & 1u);
            vmeld *m;
            EXPECT(t < n_table);
            if (t >= n_table)
                return;
            m = &table[t];
            EXPECT(m->open);
            EXPECT(i == 0 || res->layoffs[i - 1].meld <= t); /* grouped by meld */
            g_joker_layoffs += joker;
            g_layoffs_past_jokers += !joker && m->joker >= 0;
            if (m->kind == CC_SET) {
                EXPECT(joker ? m->joker < 0 : c % 16 + 1 == m->rank);
                if (joker) {
                    m->joker = c;
                    m->joker_rank = m->rank;
                }
            } else {
                int p;
                if (joker) {
                    int rank = s->table[t].joker_rank;
                    EXPECT(m->joker < 0 && s->table[t].joker == c);
                    p = r->deck == 40 && rank >= 10 ? rank - 3 : rank - 1;
                    m->joker = c;
                    m->joker_rank = rank;
                } else {
                    EXPECT(c / 16 == m->suit);
                    p = vplace(r, c);
                }
                EXPECT(p == m->lo - 1 || p == m->hi + 1);
                if (p == m->lo - 1)
                    m->lo = p;
                else
                    m->hi = p;
            }
            m->cards = th_add(m->cards, c);
            got = th_add(got, c);
        }
        EXPECT(th_same(got, opps[k]));
        if (s->outcome == CC_CHINCHON)
            EXPECT(res->points == 0);
        else
            EXPECT(res->points == vweight(r, res->unmatched));
        EXPECT(s->points[k + 1] == res->points);
        for (i = 0; i < res->n_melds; i++)
            table[n_table++] = vmeld_of(r, &res->melds[i], k + 1, 1, cap);
    }
    for (i = 0; i < n_table; i++)
        if (table[i].kind == CC_SET)
            EXPECT(th_count(table[i].cards) <= cap);
    EXPECT(n_table == s->n_table);
    for (i = 0; i < n_table && i < s->n_table; i++) {
        EXPECT(th_same(table[i].cards, s->table[i].cards));
        EXPECT(table[i].owner == s->table[i].owner && table[i].open == s->table[i].open);
        EXPECT(table[i].joker < 0 ? s->table[i].joker_rank == 0
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
    EXPECT(vsettle(&fifty, "4o *1 6o 9c 9e 9b 1b", past, 1, 0, &s) == CC_OK);
    EXPECT(s.outcome == CC_NORMAL && s.points[0] == 1 && s.points[1] == 5 + 12 + 11 + 10 + 2);
    EXPECT(s.opponents[0].n_layoffs == 2 && vlayoff_is(&s.opponents[0], 0, "3o", 0) &&
          vlayoff_is(&s.opponents[0], 1, "7o", 0));
    EXPECT(s.table[0].joker == CC_JOKER1_BIT && s.table[0].joker_rank == 5);

    /* a joker onto a set: one deck has room for one card, two decks for both */
    EXPECT(vsettle(&loose, "7o 7c 7b 1b 2c 1c 3e", cap1, 1, 0, &s) == CC_OK);
    EXPECT(s.opponents[0].n_layoffs == 1 && vlayoff_is(&s.opponents[0], 0, "*1", 0));
    EXPECT(s.table[0].joker_rank == 7 && s.points[1] == 7 + 12 + 11 + 10 + 2 + 5);
    EXPECT(vsettle(&loose, "7o 7c 7b 1b 2c 1c 3e", cap1, 1, 2, &s) == CC_OK);
    EXPECT(s.opponents[0].n_layoffs == 2 && vlayoff_is(&s.opponents[0], 0, "7e", 0) &&
          vlayoff_is(&s.opponents[0], 1, "*1", 0));
    /* a full set takes nothing, the joker included */
    EXPECT(vsettle(&loose, "7o 7c 7b 7e 3e 4e 1b", full, 1, 0, &s) == CC_OK);
    EXPECT(s.opponents[0].n_layoffs == 0 && s.points[1] == 25 + 12 + 11 + 10 + 2 + 5 + 9);
    /* a set holding a joker refuses another */
    {
        cc_rules fifty10 = variant(48, 0, 2, 25, 1, 25, 10, 0);
        EXPECT(vsettle(&fifty10, "7o 7c *1 1b 2c 1c 3e", refuse, 1, 2, &s) == CC_OK);
        EXPECT(s.opponents[0].n_layoffs == 0);
    }
    /* a joker alone at either end of a run stands at the lower end */
    EXPECT(vsettle(&one, "7o 7c 7b 4o 5o 6o 1b", alone, 1, 0, &s) == CC_OK);
    EXPECT(s.opponents[0].n_layoffs == 1 && vlayoff_is(&s.opponents[0], 0, "*1", 0) &&
          s.table[0].joker_rank == 3);
    /* the joker as the 7o, then the chain past it */
    EXPECT(vsettle(&one, "7o 7c 7b 4o 5o 6o 1b", chain, 1, 0, &s) == CC_OK);
    EXPECT(vlayoff_is(&s.opponents[0], 0, "*1", 0) && vlayoff_is(&s.opponents[0], 1, "8o", 0) &&
          s.table[0].joker_rank == 7);
    /* a run holding a joker refuses a second one: it goes onto the set */
    EXPECT(vsettle(&fifty, "4o *1 6o 9c 9e 9b 1b", second, 1, 0, &s) == CC_OK);
    EXPECT(s.opponents[0].n_layoffs == 1 && vlayoff_is(&s.opponents[0], 0, "*2", 1) &&
          s.table[1].joker == CC_JOKER2_BIT && s.table[1].joker_rank == 9);
    /* later opponents lay past an earlier opponent's joker */
    EXPECT(vsettle(&one, "7o 7c 7b 2e 3e 4e 1b", later, 2, 0, &s) == CC_OK);
    EXPECT(s.opponents[0].n_melds == 1 && s.opponents[0].melds[0].joker_rank == 10);
    EXPECT(s.opponents[1].n_layoffs == 2 && vlayoff_is(&s.opponents[1], 0, "8e", 2) &&
          vlayoff_is(&s.opponents[1], 1, "12e", 2));
    /* joker chinchon locks the closer; without it, minus ten does */
    EXPECT(vsettle(&fifty, "2c 3c 4c 5c *1 7c 8c", jc, 1, 0, &s) == CC_OK);
    EXPECT(s.outcome == CC_JOKER_CHINCHON && s.points[0] == -25 && !s.table[0].open &&
          s.opponents[0].n_layoffs == 0 && s.table[0].joker_rank == 6);
    EXPECT(vsettle(&nojc, "2c 3c 4c 5c *1 7c 8c", jc, 1, 0, &s) == CC_OK);
    EXPECT(s.outcome == CC_MINUS_TEN && s.points[0] == -10 && !s.table[0].open);
    {
        const char *jc40[] = {"10o 1c 12c 11e 10b 2b 3b"};
        EXPECT(vsettle(&conga, "1o 2o 3o 4o 5o 6o 7o", jc40, 1, 0, &s) == CC_OK);
        EXPECT(s.outcome == CC_JOKER_CHINCHON && s.points[0] == -25 &&
              s.points[1] == 1 + 12 + 11 + 10 + 2 + 3 + 10);
    }
    /* seven_run_wins: chinchon, best own melds and no points; off: minus ten */
    EXPECT(vsettle(&one, "2c 3c 4c 5c 6c 7c 8c", seven, 1, 0, &s) == CC_OK);
    EXPECT(s.outcome == CC_CHINCHON && s.points[1] == 0 && s.opponents[0].n_melds == 1 &&
          s.opponents[0].melds[0].kind == CC_RUN && s.opponents[0].melds[0].joker_rank == 10);
    EXPECT(vsettle(&classic1, "2c 3c 4c 5c 6c 7c 8c", seven, 1, 0, &s) == CC_OK);
    EXPECT(s.outcome == CC_MINUS_TEN && !s.table[0].open && s.opponents[0].n_layoffs == 0);
    /* 40 cards: the wild ace as the jack after the seven, the knight past it (the
     * closer's set of threes comes first: its key is smaller) */
    EXPECT(vsettle(&conga, "5c 6c 7c 3e 3b 3o 1b", jack, 1, 0, &s) == CC_OK);
    EXPECT(s.opponents[0].n_layoffs == 2 && vlayoff_is(&s.opponents[0], 0, "1o", 1) &&
          vlayoff_is(&s.opponents[0], 1, "11c", 1) && s.table[1].joker == 0 &&
          s.table[1].joker_rank == 10 && s.points[1] == 4 + 12 + 2 + 6 + 2);
    /* the wild ace onto a coins run from the two stands for its own rank */
    EXPECT(vsettle(&wild, "2o 3o 4o 7c 7e 7b 1b", own, 1, 0, &s) == CC_OK);
    EXPECT(s.opponents[0].n_layoffs == 1 && vlayoff_is(&s.opponents[0], 0, "1o", 0) &&
          s.table[0].joker == 0 && s.table[0].joker_rank == 1);
    /* one joker card held twice (two decks): one onto the run, one onto the set */
    EXPECT(vsettle(&one, "4o 5o 6o 9c 9e 9b 1b", twice, 1, 2, &s) == CC_OK);
    EXPECT(s.opponents[0].n_layoffs == 2 && vlayoff_is(&s.opponents[0], 0, "*1", 0) &&
          vlayoff_is(&s.opponents[0], 1, "*1", 1) && s.table[0].joker_rank == 3 &&
          s.table[1].joker_rank == 9 && s.points[1] == 12 + 11 + 10 + 2 + 8);
    /* a joker worth nothing is not laid off for nothing (the shorter plan wins) */
    EXPECT(vsettle(&zero, "4o 5o 6o 9c 9e 9b 1b", nothing, 1, 0, &s) == CC_OK);
    EXPECT(s.opponents[0].n_layoffs == 0 && s.points[1] == 12 + 11 + 10 + 2 + 3 + 5);
    EXPECT(vsettle(&zero, "4o 5o 6o 9c 9e 9b 1b", chain, 1, 0, &s) == CC_OK);
    EXPECT(vlayoff_is(&s.opponents[0], 0, "*1", 0) && vlayoff_is(&s.opponents[0], 1, "8o", 0));

    /* the rules' deck: a joker not in play, an eight with 40 cards */
    EXPECT(vsettle(&wild, "2o 3o 4o 7c 7e 7b 1b", twice, 1, 2, &s) == CC_ERR_LANE_BITS);
    EXPECT(s.bad_seat == 1);
    EXPECT(vsettle(&conga, "5c 6c 7c 3e 3b 3o 1b", chain, 1, 0, &s) == CC_ERR_LANE_BITS);
    {
        const char *eight[] = {"1o 11c 12e 4b 2e 6e 8o"};
        EXPECT(vsettle(&conga, "5c 6c 7c 3e 3b 3o 1b", eight, 1, 0, &s) == CC_ERR_NOT_IN_DECK);
        EXPECT(s.bad_seat == 1);
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
        th_shuffle_deal(deck, nd, &rng_state, hands, n_opp + 1);
        st = cc_settle(r, hands[0], &hands[1], n_opp, decks, &out);
        if (st == CC_ERR_CANNOT_CLOSE)
            continue;
        EXPECT(st == CC_OK);
        if (st != CC_OK)
            return 0;
        check_variant(r, &out, hands[0], &hands[1]);
        for (k = 1; k <= n_opp; k++) {
            /* never more than the plain deadwood of the hand */
            cc_rules rd = *r;
            int d;
            rd.decks = (uint8_t)decks;
            EXPECT(cc_deadwood(&rd, hands[k], &d) == CC_OK);
            EXPECT(out.outcome == CC_CHINCHON ? out.points[k] == 0 : out.points[k] <= d);
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
    EXPECT(done == n);
    /* the deals do exercise the joker rules */
    EXPECT(g_joker_layoffs > n / 100 && g_layoffs_past_jokers > n / 20);
    printf("variant deals: %ld jokers laid off, %ld natural cards onto melds holding one\n",
           g_joker_layoffs, g_layoffs_past_jokers);
    cc_rules_default(&house_r);
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
        EXPECT(sa == sb);
        if (sa == CC_OK && sb == CC_OK) {
            EXPECT(same_settlement(&a, &b));
            check_variant(&one, &b, hands[0], &hands[1]);
        }
    }
    return done;
}

/* Run every check; deals from a quarter of argv[1], else of SETTLE_TEST_DEALS, else of
 * 20000. Exit status 0 when all pass. */
int main(int argc, char **argv)
{
    const char *env = getenv("SETTLE_TEST_DEALS");
    long n = argc > 1 ? atol(argv[1]) : env != NULL && atol(env) > 0 ? atol(env) : 20000;
    variant_hand_built();
    printf("%ld random deals under the variants checked\n", variant_random(n / 4 + 1));
    return th_report("test_settle_variants");
}
