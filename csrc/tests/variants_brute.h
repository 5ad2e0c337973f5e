/*
 * variants_brute.h -- what the tests of the C core under the rule variants of
 * docs/rules.md#rule-variants (test_variants.c, test_variants_exhaustive.c) share: the
 * rules written plainly, and an independent brute force written from the definitions,
 * not from the core's search:
 *   - every sub-multiset of the hand (by positions) is tested against the definition
 *     of a meld (a set: naturals of one rank plus at most one joker, within the set
 *     capacity; a run: naturals of one suit at distinct places plus at most one joker
 *     standing at a free place, consecutive in the deck's run order), each reading of
 *     its joker a meld of its own;
 *   - every collection of position-disjoint melds (no "two melds at most" shortcut) is
 *     scored by docs/rules.md#which-arrangement-is-reported's key (points, more cards,
 *     fewer melds, the sorted tuple of meld keys, a joker meld's key extended by 64 +
 *     its bit and, in a run, the bit of the card it stands for);
 *   - the closing outcome from first principles (docs/rules.md#jokers-in-melds order);
 * and the comparison of the core's arrangement with the brute force's.
 * Every function here serves both programs (plain static); each program is one
 * translation unit, the tally of testlib.h its own.
 */
#ifndef CC_TESTS_VARIANTS_BRUTE_H
#define CC_TESTS_VARIANTS_BRUTE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chinchon.h"

#include "testlib.h"

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
    int i, key[16], k, n_cards = th_count(h);
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
        for (j = 0; j < n_cards; j++) /* the positions of the hand's cards */
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


/* The presets the random hands and the exhaustive run take (presets[2]: conga). */
static const trules presets[] = {
    {"house", {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, 5, 48, 0, 0, 25, 1, 25},
    {"classic", {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, 5, 48, 0, 0, 25, 0, 25},
    {"conga", {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, 7, 40, 1, 0, 25, 1, 25},
    {"fifty", {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, 5, 48, 0, 2, 25, 1, 25},
};

#endif /* CC_TESTS_VARIANTS_BRUTE_H */
