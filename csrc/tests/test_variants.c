/*
 * test_variants.c -- the C core under the rule variants of docs/rules.md#rule-variants (40 cards,
 * jokers, point tables, which closes win) against an independent brute force written
 * from the definitions, not from the core's search:
 *   - every sub-multiset of the hand (by positions) is tested against the definition
 *     of a meld (a set: naturals of one rank plus at most one joker, within the set
 *     capacity; a run: naturals of one suit at distinct places plus at most one joker
 *     standing at a free place, consecutive in the deck's run order), each reading of
 *     its joker a meld of its own;
 *   - every collection of position-disjoint melds (no "two melds at most" shortcut) is
 *     scored by docs/rules.md#which-arrangement-is-reported's key (points, more cards, fewer melds, the sorted tuple
 *     of meld keys, a joker meld's key extended by 64 + its bit and, in a run, the bit
 *     of the card it stands for);
 *   - the closing outcome from first principles (docs/rules.md#jokers-in-melds order).
 * Random hands under the presets and random rules (0-2 jokers in hand and more, one and
 * two decks, 0..8 cards): deadwood, best arrangement (joker and rank included),
 * outcome, hints, both batch calls; the row validation order; bad rules values.
 *
 * `test_variants exhaustive` instead checks every 7-card hand of the 40-card deck with
 * the wild ace of coins (conga rules; 40 choose 7 = 18,643,560 hands): deadwood, best
 * arrangement and outcome, each against the brute force.
 *
 * Batches of 4096 rows (the joker search's per-batch tables), row by row against the
 * single-hand calls.
 *
 * CC_TEST_ITERS scales the random part (default 200000 hands in all; a batch of 4096
 * rows per 10000).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chinchon.h"

#include "testlib.h"

static long g_failures = 0;
static long g_checks = 0;

/* Count a failed check and print the first 20. O(1). */
static void fail(const char *what, cc_hand h, const char *rules_name)
{
    g_failures++;
    if (g_failures <= 20)
        fprintf(stderr, "FAIL %s under %s: once=%#llx twice=%#llx\n", what, rules_name,
                (unsigned long long)h.once, (unsigned long long)h.twice);
}

static uint64_t g_rng = 0x2545F4914F6CDD1Du;

/* splitmix64. O(1). */
static uint64_t next_u64(void) { return th_splitmix64(&g_rng); }

/* 0..n-1. O(1). */
static int rnd(int n) { return (int)(next_u64() % (uint64_t)n); }

/* ---------------------------------------------------------------- the rules, plainly */

typedef struct {
    const char *name;
    int points[12];
    int close_limit, deck, wild, jokers, joker_points, seven_run_wins, joker_chinchon;
} trules;

/* Whether bit i is a joker under r. O(1). */
static int t_joker(const trules *r, int i)
{
    return (r->wild && i == 0) || (r->jokers >= 1 && i == 12) || (r->jokers >= 2 && i == 28);
}

/* The run-order place of a rank, -1 when the deck lacks it. O(1). */
static int t_place(const trules *r, int rank)
{
    static const int forty[13] = {-1, 0, 1, 2, 3, 4, 5, 6, -1, -1, 7, 8, 9};
    return r->deck == 40 ? forty[rank] : rank - 1;
}

/* The rank at a place. O(1). */
static int t_rank_at(const trules *r, int place)
{
    static const int forty[10] = {1, 2, 3, 4, 5, 6, 7, 10, 11, 12};
    return r->deck == 40 ? forty[place] : place + 1;
}

/* Points of a card left unmatched. O(1). */
static int t_points(const trules *r, int i)
{
    return t_joker(r, i) ? r->joker_points : r->points[i & 15];
}

/* Build the core's rules. O(1). */
static cc_rules to_core(const trules *r, int decks)
{
    cc_rules c;
    uint8_t pts[12];
    cc_variant v;
    int i;
    for (i = 0; i < 12; i++)
        pts[i] = (uint8_t)r->points[i];
    v.deck = r->deck;
    v.wild_ace_of_coins = r->wild;
    v.jokers = r->jokers;
    v.joker_points = r->joker_points;
    v.seven_run_wins = r->seven_run_wins;
    v.joker_chinchon = r->joker_chinchon;
    if (cc_rules_init_variant(&c, pts, r->close_limit, 10, &v) != CC_OK) {
        fprintf(stderr, "cc_rules_init_variant refused %s\n", r->name);
        exit(2);
    }
    c.decks = (uint8_t)decks;
    return c;
}

/* ---------------------------------------------------------------- brute force */

typedef struct {
    int kind, n;      /* n: key length */
    int key[12];
    unsigned pos;     /* positions of the hand it takes */
    int joker, joker_rank; /* -1 / 0 without a joker */
    int pts, cards;
} tmeld;

typedef struct {
    int points, melded, n;
    tmeld m[4];
} tarr;

/* Python tuple comparison. O(length). */
static int tcmp(const int *x, int nx, const int *y, int ny)
{
    int i;
    for (i = 0; i < nx && i < ny; i++)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    return (nx > ny) - (nx < ny);
}

#define TMAX 4096

/* Every meld of the cards c[0..n) (ascending) by the definitions: each sub-multiset by
 * positions, each reading of its joker. O(2^n * n). */
static int t_melds(const trules *r, int decks, const int *c, int n, tmeld *out)
{
    int k = 0;
    unsigned sub;
    for (sub = 0; sub < (1u << n); sub++) {
        int nat[8], nn = 0, jok = -1, nj = 0, i, size = 0;
        for (i = 0; i < n; i++) {
            if (!((sub >> i) & 1u))
                continue;
            size++;
            if (t_joker(r, c[i])) {
                jok = c[i];
                nj++;
            } else {
                nat[nn++] = c[i];
            }
        }
        if (size < 3 || nj > 1 || nn < 2)
            continue;
        {
            /* a set */
            int same = 1, pts = 0;
            for (i = 1; i < nn; i++)
                same &= (nat[i] & 15) == (nat[0] & 15);
            for (i = 0; i < n; i++)
                if ((sub >> i) & 1u)
                    pts += t_points(r, c[i]);
            if (same && size <= 4 * decks) {
                tmeld m;
                m.kind = CC_SET;
                m.n = 0;
                for (i = 0; i < nn; i++)
                    m.key[m.n++] = nat[i];
                m.joker = -1;
                m.joker_rank = 0;
                if (nj) {
                    m.key[m.n++] = 64 + jok;
                    m.joker = jok;
                    m.joker_rank = (nat[0] & 15) + 1;
                }
                m.pos = sub;
                m.pts = pts;
                m.cards = size;
                out[k++] = m;
            }
            /* a run */
            {
                int suit = nat[0] >> 4, ok = 1, held[12] = {0}, lo = 99, hi = -1, p, L;
                L = r->deck == 40 ? 10 : 12;
                for (i = 0; i < nn && ok; i++) {
                    int pl = t_place(r, (nat[i] & 15) + 1);
                    if ((nat[i] >> 4) != suit || pl < 0 || held[pl])
                        ok = 0;
                    else {
                        held[pl] = 1;
                        lo = pl < lo ? pl : lo;
                        hi = pl > hi ? pl : hi;
                    }
                }
                if (!ok)
                    continue;
                if (!nj) {
                    if (hi - lo + 1 == nn) {
                        tmeld m;
                        m.kind = CC_RUN;
                        m.n = 0;
                        for (i = 0; i < nn; i++)
                            m.key[m.n++] = nat[i];
                        m.joker = -1;
                        m.joker_rank = 0;
                        m.pos = sub;
                        m.pts = pts;
                        m.cards = size;
                        out[k++] = m;
                    }
                    continue;
                }
                for (p = 0; p < L; p++) {
                    int a = p < lo ? p : lo, b = p > hi ? p : hi;
                    tmeld m;
                    if (held[p] || b - a + 1 != nn + 1)
                        continue;
                    m.kind = CC_RUN;
                    m.n = 0;
                    for (i = 0; i < nn; i++)
                        m.key[m.n++] = nat[i];
                    m.key[m.n++] = 64 + jok;
                    m.key[m.n++] = 16 * suit + t_rank_at(r, p) - 1;
                    m.joker = jok;
                    m.joker_rank = t_rank_at(r, p);
                    m.pos = sub;
                    m.pts = pts;
                    m.cards = size;
                    out[k++] = m;
                }
            }
        }
    }
    return k;
}

/* -1 when x is better than y (docs/rules.md#which-arrangement-is-reported). O(melds * key). */
static int tarr_cmp(const tarr *x, const tarr *y)
{
    int i;
    if (x->points != y->points)
        return x->points < y->points ? -1 : 1;
    if (x->melded != y->melded)
        return x->melded > y->melded ? -1 : 1;
    if (x->n != y->n)
        return x->n < y->n ? -1 : 1;
    for (i = 0; i < x->n; i++) {
        int c = tcmp(x->m[i].key, x->m[i].n, y->m[i].key, y->m[i].n);
        if (c)
            return c;
    }
    return 0;
}

typedef struct {
    const tmeld *cand;
    int k, total;
    tarr cur, best;
    int have;
} tstate;

/* Every collection of position-disjoint melds from cand[i..]. Exponential. */
static void t_rec(tstate *s, int i, unsigned used)
{
    int j;
    if (i == s->k) {
        tarr a = s->cur;
        int x, y;
        a.points = s->total - a.points;
        for (x = 1; x < a.n; x++) /* melds in ascending key order */
            for (y = x; y > 0 && tcmp(a.m[y - 1].key, a.m[y - 1].n, a.m[y].key, a.m[y].n) > 0; y--) {
                tmeld t = a.m[y];
                a.m[y] = a.m[y - 1];
                a.m[y - 1] = t;
            }
        if (!s->have || tarr_cmp(&a, &s->best) < 0) {
            s->best = a;
            s->have = 1;
        }
        return;
    }
    t_rec(s, i + 1, used);
    j = i;
    if ((s->cand[j].pos & used) == 0 && s->cur.n < 4) {
        s->cur.m[s->cur.n++] = s->cand[j];
        s->cur.points += s->cand[j].pts;
        s->cur.melded += s->cand[j].cards;
        t_rec(s, i + 1, used | s->cand[j].pos);
        s->cur.n--;
        s->cur.points -= s->cand[j].pts;
        s->cur.melded -= s->cand[j].cards;
    }
}

/* The best arrangement of the cards c[0..n) by brute force. */
static tarr t_best(const trules *r, int decks, const int *c, int n)
{
    static tmeld cand[TMAX];
    tstate s;
    int i;
    memset(&s, 0, sizeof s);
    s.cand = cand;
    s.k = t_melds(r, decks, c, n, cand);
    for (i = 0; i < n; i++)
        s.total += t_points(r, c[i]);
    t_rec(&s, 0, 0);
    return s.best;
}

/* The closing outcome of 7 cards with deadwood d, from docs/rules.md#jokers-in-melds. */
static int t_outcome(const trules *r, const int *c, int n, int d)
{
    int nat[8], nn = 0, nj = 0, i, places[12] = {0}, lo = 99, hi = -1, ok = 1;
    if (d > r->close_limit)
        return CC_CANNOT_CLOSE;
    if (d != 0 || n != 7)
        return d == 0 ? CC_MINUS_TEN : CC_NORMAL;
    for (i = 0; i < n; i++) {
        if (t_joker(r, c[i]))
            nj++;
        else
            nat[nn++] = c[i];
    }
    for (i = 0; i < nn; i++) {
        int pl = t_place(r, (nat[i] & 15) + 1);
        if ((nat[i] >> 4) != (nat[0] >> 4) || places[pl])
            ok = 0;
        else {
            places[pl] = 1;
            lo = pl < lo ? pl : lo;
            hi = pl > hi ? pl : hi;
        }
    }
    if (ok && nj == 0 && hi - lo == 6 && r->seven_run_wins)
        return CC_CHINCHON;
    if (ok && nj == 1 && hi - lo <= 6 && r->joker_chinchon >= 0)
        return CC_JOKER_CHINCHON;
    return CC_MINUS_TEN;
}

/* ---------------------------------------------------------------- comparisons */

/* The cards of a hand, ascending, copies twice. */
static int t_list(cc_hand h, int *c)
{
    int n = 0, i;
    for (i = 0; i < 64; i++) {
        if ((h.once >> i) & 1u)
            c[n++] = i;
        if ((h.twice >> i) & 1u)
            c[n++] = i;
    }
    return n;
}

/* The core meld's key by the definition (its natural cards, then the joker). */
static int core_key(const cc_meld *m, int *key)
{
    int c[16], n = t_list(m->cards, c), k = 0, i, skipped = 0;
    for (i = 0; i < n; i++) {
        if (m->joker_rank && !skipped && c[i] == m->joker) {
            skipped = 1;
            continue;
        }
        key[k++] = c[i];
    }
    if (m->joker_rank) {
        key[k++] = 64 + m->joker;
        if (m->kind == CC_RUN)
            key[k++] = 16 * (key[0] >> 4) + m->joker_rank - 1;
    }
    return k;
}

/* The core's arrangement equals the brute force's: points, melds (keys, kinds, jokers,
 * the ranks they stand for, cards), unmatched. */
static int same_arrangement(const cc_arrangement *a, const tarr *b, cc_hand h, const int *c)
{
    int i, key[16], k;
    cc_hand left = h;
    if (a->points != b->points || a->n_melds != b->n)
        return 0;
    for (i = 0; i < b->n; i++) {
        cc_hand mh = {0, 0};
        int j;
        k = core_key(&a->melds[i], key);
        if (tcmp(key, k, b->m[i].key, b->m[i].n) != 0 || a->melds[i].kind != b->m[i].kind)
            return 0;
        if ((b->m[i].joker < 0) != (a->melds[i].joker_rank == 0))
            return 0;
        if (b->m[i].joker >= 0 && (a->melds[i].joker != b->m[i].joker ||
                                   a->melds[i].joker_rank != b->m[i].joker_rank))
            return 0;
        for (j = 0; j < 8; j++)
            if ((b->m[i].pos >> j) & 1u)
                mh = th_add(mh, c[j]);
        if (!th_same(mh, a->melds[i].cards))
            return 0;
        left.once = left.once; /* unmatched below */
    }
    {
        cc_hand un = {0, 0};
        unsigned used = 0;
        int n = t_list(h, key), j;
        for (i = 0; i < b->n; i++)
            used |= b->m[i].pos;
        for (j = 0; j < n; j++)
            if (!((used >> j) & 1u))
                un = th_add(un, c[j]);
        (void)left;
        return th_same(un, a->unmatched);
    }
}

/* Check deadwood, best melds, outcome (7 cards), hints (8 cards) and both batch calls
 * (one row) of a valid hand against the brute force. */
static void check(const trules *tr, cc_rules *cr, int decks, cc_hand h)
{
    int c[16], n = t_list(h, c), d = -1, i;
    tarr best = t_best(tr, decks, c, n);
    cc_arrangement a;
    uint8_t out8[8], dwb = 0;
    size_t bad = 0;
    uint64_t rows[2];
    cr->decks = (uint8_t)decks;
    g_checks++;
    if (cc_deadwood(cr, h, &d) != CC_OK || d != best.points)
        fail("deadwood", h, tr->name);
    if (cc_best_melds(cr, h, &a) != CC_OK || !same_arrangement(&a, &best, h, c))
        fail("best_melds", h, tr->name);
    rows[0] = h.once;
    rows[1] = h.twice;
    if (decks == 2 || h.twice == 0) {
        if (cc_deadwood_batch(cr, decks == 2 ? rows : rows, 1, decks, &dwb, &bad) != CC_OK ||
            dwb != best.points)
            fail("deadwood_batch", h, tr->name);
    }
    if (n == 7) {
        cc_outcome o;
        if (cc_close_outcome(cr, h, &o) != CC_OK || (int)o != t_outcome(tr, c, n, best.points))
            fail("close_outcome", h, tr->name);
    }
    if (n == 8) {
        uint8_t pts[8], outs[8];
        if (cc_discard_hints(cr, h, pts, outs) != CC_OK) {
            fail("discard_hints status", h, tr->name);
            return;
        }
        if ((decks == 2 || h.twice == 0) &&
            (cc_hints_batch(cr, rows, 1, decks, out8, &bad) != CC_OK ||
             memcmp(out8, pts, 8) != 0))
            fail("hints_batch", h, tr->name);
        for (i = 0; i < 8; i++) {
            int rest[8], m = 0, j;
            tarr b7;
            for (j = 0; j < 8; j++)
                if (j != i)
                    rest[m++] = c[j];
            b7 = t_best(tr, decks, rest, 7);
            if (pts[i] != b7.points || outs[i] != t_outcome(tr, rest, 7, b7.points)) {
                fail("discard_hints", h, tr->name);
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

static const trules presets[] = {
    {"house", {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, 5, 48, 0, 0, 25, 1, 25},
    {"classic", {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, 5, 48, 0, 0, 25, 0, 25},
    {"conga", {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, 7, 40, 1, 0, 25, 1, 25},
    {"fifty", {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, 5, 48, 0, 2, 25, 1, 25},
};

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
    r.joker_points = rnd(2) ? 25 : rnd(32);
    r.seven_run_wins = rnd(2);
    r.joker_chinchon = rnd(3) ? 25 : -1;
    return r;
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
#define EXPECT(cond, what)                                                                  \
    do {                                                                                    \
        g_checks++;                                                                         \
        if (!(cond)) {                                                                      \
            g_failures++;                                                                   \
            fprintf(stderr, "FAIL %s\n", what);                                           \
        }                                                                                   \
    } while (0)
    h = th_parse("8o 1c");
    EXPECT(cc_deadwood(&conga, h, &d) == CC_ERR_NOT_IN_DECK, "8o under conga");
    h.once = UINT64_C(1) << 12;
    h.twice = 0;
    EXPECT(cc_deadwood(&house, h, &d) == CC_ERR_LANE_BITS, "*1 under the house rules");
    EXPECT(cc_deadwood(&conga, h, &d) == CC_ERR_LANE_BITS, "*1 under conga");
    EXPECT(cc_deadwood(&fifty, h, &d) == CC_OK && d == 25, "*1 under fifty");
    h.once = UINT64_C(1) << 13;
    EXPECT(cc_deadwood(&fifty, h, &d) == CC_ERR_LANE_BITS, "bit 13 under fifty");
    rows[0] = (UINT64_C(1) << 12) | (UINT64_C(1) << 7);
    rows[1] = UINT64_C(1) << 7;
    EXPECT(cc_deadwood_batch(&conga, rows, 2, 1, out, &bad) == CC_ERR_LANE_BITS && bad == 0,
           "lane bits before not-in-deck");
    rows[0] = UINT64_C(1) << 7;
    rows[1] = UINT64_C(1) << 8; /* twice not in once comes before the deck */
    EXPECT(cc_deadwood_batch(&conga, rows, 1, 2, out, &bad) == CC_ERR_TWICE_NOT_SUBSET,
           "twice before not-in-deck");
    rows[0] = 0xFF | (UINT64_C(1) << 16);
    EXPECT(cc_deadwood_batch(&conga, rows, 1, 1, out, &bad) == CC_ERR_NOT_IN_DECK,
           "not-in-deck before the count");
    EXPECT(cc_hints_batch(&conga, rows, 1, 1, out, &bad) == CC_ERR_NOT_IN_DECK,
           "hints: not-in-deck before the count");
    v.deck = 44;
    EXPECT(cc_rules_init_variant(&house, pts, 5, 10, &v) == CC_ERR_BAD_ARGUMENT, "deck 44");
    v.deck = 40;
    v.jokers = 3;
    EXPECT(cc_rules_init_variant(&house, pts, 5, 10, &v) == CC_ERR_BAD_ARGUMENT, "jokers 3");
    v.jokers = 0;
    v.joker_points = 32;
    EXPECT(cc_rules_init_variant(&house, pts, 5, 10, &v) == CC_ERR_BAD_ARGUMENT,
           "joker points 32");
    v.joker_points = 0;
    v.joker_chinchon = -2;
    EXPECT(cc_rules_init_variant(&house, pts, 5, 10, &v) == CC_ERR_BAD_ARGUMENT,
           "joker chinchon -2");
    v.joker_chinchon = -1;
    v.wild_ace_of_coins = 2;
    EXPECT(cc_rules_init_variant(&house, pts, 5, 10, &v) == CC_ERR_BAD_ARGUMENT, "wild 2");
    v.wild_ace_of_coins = 0;
    v.seven_run_wins = 5;
    EXPECT(cc_rules_init_variant(&house, pts, 5, 10, &v) == CC_ERR_BAD_ARGUMENT, "seven 5");
    EXPECT(cc_status_name(CC_ERR_NOT_IN_DECK) != NULL &&
               strcmp(cc_status_name(CC_ERR_NOT_IN_DECK), "CC_ERR_NOT_IN_DECK") == 0,
           "status name");
}

/* Every 7-card hand of the 40-card deck under conga (the wild ace of coins). */
static void exhaustive(void)
{
    const trules *tr = &presets[2];
    cc_rules cr = to_core(tr, 1);
    int cards[40], n = 0, i, idx[7];
    long count = 0;
    for (i = 0; i < 64; i++)
        if ((i & 15) < 12 && t_place(tr, (i & 15) + 1) >= 0)
            cards[n++] = i;
    for (i = 0; i < 7; i++)
        idx[i] = i;
    for (;;) {
        cc_hand h = {0, 0};
        int c[7], d, k;
        cc_arrangement a;
        cc_outcome o;
        tarr best;
        for (i = 0; i < 7; i++) {
            c[i] = cards[idx[i]];
            h.once |= UINT64_C(1) << c[i];
        }
        best = t_best(tr, 1, c, 7);
        if (cc_deadwood(&cr, h, &d) != CC_OK || d != best.points)
            fail("exhaustive deadwood", h, tr->name);
        if (cc_best_melds(&cr, h, &a) != CC_OK || !same_arrangement(&a, &best, h, c))
            fail("exhaustive best_melds", h, tr->name);
        if (cc_close_outcome(&cr, h, &o) != CC_OK || (int)o != t_outcome(tr, c, 7, best.points))
            fail("exhaustive close_outcome", h, tr->name);
        count++;
        /* next combination */
        for (k = 6; k >= 0 && idx[k] == 40 - 7 + k; k--)
            ;
        if (k < 0)
            break;
        idx[k]++;
        for (i = k + 1; i < 7; i++)
            idx[i] = idx[i - 1] + 1;
    }
    g_checks += count;
    printf("exhaustive: %ld hands of 7 of the 40-card deck (conga)\n", count);
    if (count != 18643560L) {
        g_failures++;
        fprintf(stderr, "FAIL exhaustive count %ld\n", count);
    }
}

/* Batches large enough for the per-batch tables of the joker search (joker_batch.c
 * builds them from 512 rows of hints, 4096 of deadwood): every row of a 4096-row batch,
 * deadwood and hints, equals the single-hand call (checked against the brute force above), and one row in 64 is
 * checked against the brute force itself. Rules random or presets, one or two decks,
 * 0-3 jokers wanted a row (the hints' 8 cards, the deadwood's 0-8). */
static void big_batches(long rounds)
{
    enum { ROWS = 4096 };
    static uint64_t masks[2 * ROWS];
    static cc_hand hands[ROWS];
    static uint8_t out[8 * ROWS];
    long r;
    for (r = 0; r < rounds; r++) {
        trules tr = r % 2 == 0 ? gen_rules() : presets[rnd(4)];
        int decks = 1 + rnd(2), hints = (int)(r / 2 % 2), i;
        cc_rules cr = to_core(&tr, decks);
        size_t bad = 0;
        for (i = 0; i < ROWS; i++) {
            cc_hand h = gen_hand(&tr, decks, hints ? 8 : 7 - rnd(2) * rnd(8), rnd(4));
            hands[i] = h;
            if (decks == 1) {
                masks[i] = h.once;
            } else {
                masks[2 * i] = h.once;
                masks[2 * i + 1] = h.twice;
            }
        }
        if ((hints ? cc_hints_batch(&cr, masks, ROWS, decks, out, &bad)
                   : cc_deadwood_batch(&cr, masks, ROWS, decks, out, &bad)) != CC_OK) {
            fail(hints ? "big hints_batch status" : "big deadwood_batch status", hands[bad],
                 tr.name);
            continue;
        }
        for (i = 0; i < ROWS; i++) {
            g_checks++;
            if (hints) {
                uint8_t p[8];
                if (cc_discard_hints(&cr, hands[i], p, NULL) != CC_OK ||
                    memcmp(p, out + 8 * i, 8) != 0)
                    fail("big hints_batch row", hands[i], tr.name);
            } else {
                int d = -1;
                if (cc_deadwood(&cr, hands[i], &d) != CC_OK || d != out[i])
                    fail("big deadwood_batch row", hands[i], tr.name);
            }
            if (i % 64 == 0)
                check(&tr, &cr, decks, hands[i]);
        }
    }
}

int main(int argc, char **argv)
{
    long iters = 200000, it;
    const char *env = getenv("CC_TEST_ITERS");
    if (env != NULL && atol(env) > 0)
        iters = atol(env);
    if (argc > 1 && strcmp(argv[1], "exhaustive") == 0) {
        exhaustive();
    } else {
        statuses();
        for (it = 0; it < iters; it++) {
            trules tr = it % 3 == 0 ? gen_rules() : presets[rnd(4)];
            int decks = 1 + rnd(2), n = rnd(9);
            int jw = rnd(4);
            cc_hand h;
            cc_rules cr;
            if (rnd(4) == 0)
                n = 7 + rnd(2);
            cr = to_core(&tr, decks);
            h = gen_hand(&tr, decks, n, jw);
            check(&tr, &cr, decks, h);
        }
        big_batches(iters / 10000 > 4 ? iters / 10000 : 4);
    }
    printf("test_variants: %ld checks, %ld failures\n", g_checks, g_failures);
    return g_failures != 0;
}
