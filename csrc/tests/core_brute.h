/*
 * core_brute.h -- what the house-rule tests of the core (test_core_hands.c,
 * test_core_random.c) share: an independent, obviously-correct brute force and the
 * check of every core call on a hand against it, the seeded generator and the random
 * hands, the point tables.
 *
 * The brute force works on plain lists of card indices, not masks: it lists every meld
 * (every subset of the cards of a rank of size >= 3, every segment of >= 3 of a suit),
 * then every multiset of those melds that fits in the hand (no "two melds at most"
 * shortcut), and keeps the best under docs/rules.md#which-arrangement-is-reported's
 * order, comparing meld keys the way Python compares tuples.
 *
 * static inline, each program one translation unit: the checks' tally of testlib.h is
 * the program's own.
 */
#ifndef CC_TESTS_CORE_BRUTE_H
#define CC_TESTS_CORE_BRUTE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chinchon.h"

#include "testlib.h"

/* ---------------------------------------------------------------- random numbers */

/* The seeded splitmix64 state of the program (CC_TEST_SEED sets it, core_seed).
 * O(1). */
static inline uint64_t *core_rng(void)
{
    static uint64_t state = 0x9E3779B97F4A7C15u;
    return &state;
}

/* The next number of the seeded splitmix64 generator (CC_TEST_SEED).
 * O(1). */
static inline uint64_t next_u64(void) { return th_splitmix64(core_rng()); }

/* A random int in 0..n-1 (n > 0; the modulo bias is irrelevant here).
 * O(1). */
static inline int rnd(int n) { return (int)(next_u64() % (uint64_t)n); }

/* ---------------------------------------------------------------- card lists */

typedef struct {
    int n;
    int c[16]; /* card indices ascending, a copy repeated */
} cardlist;

/* Bit index of a card (suit 0..3, rank 1..12).
 * O(1). */
static inline int card_index(int suit, int rank) { return 16 * suit + rank - 1; }
/* Rank (1..12) of a bit index.
 * O(1). */
static inline int card_rank(int idx) { return (idx & 15) + 1; }
/* Suit (0..3) of a bit index.
 * O(1). */
static inline int card_suit(int idx) { return idx >> 4; }

/* The cards of h as text ("7o 7o 3c [masks]") into buf, for failure messages.
 * O(64). */
static inline void format_hand(cc_hand h, char *buf, size_t size)
{
    static const char suits[] = "oceb";
    size_t used = 0;
    int i;
    buf[0] = 0;
    for (i = 0; i < 64; i++) {
        int copies = (int)((h.once >> i) & 1u) + (int)((h.twice >> i) & 1u), k;
        for (k = 0; k < copies && used + 8 < size; k++)
            used += (size_t)snprintf(buf + used, size - used, "%d%c ", card_rank(i),
                                     suits[card_suit(i) & 3]);
    }
    if (used + 48 < size)
        snprintf(buf + used, size - used, "[%#llx %#llx]", (unsigned long long)h.once,
                 (unsigned long long)h.twice);
}

/* The cards of h as an ascending list of bit indices, a copy listed twice.
 * O(64). */
static inline cardlist to_list(cc_hand h)
{
    cardlist l;
    int i;
    l.n = 0;
    for (i = 0; i < 64; i++) {
        if ((h.once >> i) & 1u)
            l.c[l.n++] = i;
        if ((h.twice >> i) & 1u)
            l.c[l.n++] = i;
    }
    return l;
}

/* The hand (once, twice) holding the n cards of c (copies add to twice).
 * O(n). */
static inline cc_hand to_hand(const int *c, int n)
{
    cc_hand h = {0, 0};
    int i;
    for (i = 0; i < n; i++)
        h = th_add(h, c[i]);
    return h;
}

/* ---------------------------------------------------------------- brute force */

typedef struct {
    int kind;
    int n;
    int c[12];
} bmeld;

/* Compare two int sequences as Python tuples (a proper prefix is smaller).
 * O(length). */
static inline int tuple_cmp(const int *x, int nx, const int *y, int ny)
{
    int i;
    for (i = 0; i < nx && i < ny; i++)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    return nx < ny ? -1 : nx > ny ? 1 : 0;
}

/* Compare the keys of two brute-force melds as Python tuples.
 * O(cards). */
static inline int bmeld_cmp(const bmeld *x, const bmeld *y) { return tuple_cmp(x->c, x->n, y->c, y->n); }

#define BMAX 1024

/* Every meld of the hand, deduplicated, sorted by key, into out; returns how many.
 * O(2^(cards of a rank) per rank + segments per suit). */
static inline int brute_melds(const cardlist *h, bmeld *out)
{
    int k = 0, rank, suit, i, j;
    for (rank = 1; rank <= 12; rank++) {
        int pos[16], np = 0;
        unsigned sub;
        for (i = 0; i < h->n; i++)
            if (card_rank(h->c[i]) == rank)
                pos[np++] = i;
        for (sub = 0; sub < (1u << np); sub++) {
            bmeld m;
            int dup = 0;
            m.kind = CC_SET;
            m.n = 0;
            for (i = 0; i < np; i++)
                if ((sub >> i) & 1u)
                    m.c[m.n++] = h->c[pos[i]];
            if (m.n < 3)
                continue;
            for (j = 0; j < k && !dup; j++)
                dup = bmeld_cmp(&out[j], &m) == 0;
            if (!dup)
                out[k++] = m;
        }
    }
    for (suit = 0; suit < 4; suit++) {
        int lo, len;
        for (lo = 1; lo <= 10; lo++) {
            for (len = 3; lo + len - 1 <= 12; len++) {
                bmeld m;
                int ok = 1;
                m.kind = CC_RUN;
                m.n = 0;
                for (i = 0; i < len && ok; i++) {
                    int card = card_index(suit, lo + i), found = 0;
                    for (j = 0; j < h->n; j++)
                        found |= h->c[j] == card;
                    ok = found;
                    m.c[m.n++] = card;
                }
                if (ok)
                    out[k++] = m;
            }
        }
    }
    /* insertion sort by key */
    for (i = 1; i < k; i++) {
        bmeld t = out[i];
        for (j = i - 1; j >= 0 && bmeld_cmp(&out[j], &t) > 0; j--)
            out[j + 1] = out[j];
        out[j + 1] = t;
    }
    return k;
}

typedef struct {
    int points, melded, n_melds;
    bmeld melds[4];
} barr;

/* -1 if x is better (smaller) than y under docs/rules.md#which-arrangement-is-reported, 1 if worse, 0 if equal.
 * O(melds * cards). */
static inline int barr_cmp(const barr *x, const barr *y)
{
    int i;
    if (x->points != y->points)
        return x->points < y->points ? -1 : 1;
    if (x->melded != y->melded)
        return x->melded > y->melded ? -1 : 1;
    if (x->n_melds != y->n_melds)
        return x->n_melds < y->n_melds ? -1 : 1;
    for (i = 0; i < x->n_melds; i++) {
        int c = bmeld_cmp(&x->melds[i], &y->melds[i]);
        if (c != 0)
            return c;
    }
    return 0;
}

typedef struct {
    const cc_rules *rules;
    const bmeld *cand;
    int k;
    int count[64];
    int total;
    barr cur, best;
    int have_best;
} brute_state;

/* Points of the card at bit index idx under r.
 * O(1). */
static inline int card_points(const cc_rules *r, int idx) { return r->points[idx & 15]; }

/* Sort melds by key (insertion sort, n <= 4).
 * O(n^2). */
static inline void sort_melds(bmeld *m, int n)
{
    int i, j;
    for (i = 1; i < n; i++) {
        bmeld t = m[i];
        for (j = i - 1; j >= 0 && bmeld_cmp(&m[j], &t) > 0; j--)
            m[j + 1] = m[j];
        m[j + 1] = t;
    }
}

/* Every multiset of candidates i.. that fits in the cards left, keeping the best
 * arrangement in s. O(exponential in candidates): small hands only. */
static inline void brute_rec(brute_state *s, int i)
{
    int j, fits;
    if (i == s->k) {
        barr a = s->cur;
        a.points = s->total - a.points; /* cur.points holds the melded points */
        sort_melds(a.melds, a.n_melds);
        if (!s->have_best || barr_cmp(&a, &s->best) < 0) {
            s->best = a;
            s->have_best = 1;
        }
        return;
    }
    brute_rec(s, i + 1); /* candidate i not (or no more) used */
    if (s->cur.n_melds >= 4)
        return;
    fits = 1;
    for (j = 0; j < s->cand[i].n; j++)
        if (--s->count[s->cand[i].c[j]] < 0)
            fits = 0;
    if (fits) {
        int pts = 0;
        for (j = 0; j < s->cand[i].n; j++)
            pts += card_points(s->rules, s->cand[i].c[j]);
        s->cur.melds[s->cur.n_melds++] = s->cand[i];
        s->cur.points += pts;
        s->cur.melded += s->cand[i].n;
        brute_rec(s, i); /* the same meld may be used again (two decks) */
        s->cur.n_melds--;
        s->cur.points -= pts;
        s->cur.melded -= s->cand[i].n;
    }
    for (j = 0; j < s->cand[i].n; j++)
        s->count[s->cand[i].c[j]]++;
}

/* The best arrangement of h by brute force over every multiset of its melds.
 * Exponential; fine for <= 8 cards. */
static inline barr brute_best(const cc_rules *rules, const cardlist *h)
{
    static bmeld cand[BMAX];
    brute_state s;
    int i;
    memset(&s, 0, sizeof s);
    s.rules = rules;
    s.cand = cand;
    s.k = brute_melds(h, cand);
    for (i = 0; i < h->n; i++) {
        s.count[h->c[i]]++;
        s.total += card_points(rules, h->c[i]);
    }
    brute_rec(&s, 0);
    return s.best;
}

/* Outcome of closing with the 7 cards h7 of deadwood dw, from first principles.
 * O(cards). */
static inline int brute_outcome(const cc_rules *rules, const cardlist *h7, int dw)
{
    int i, run = h7->n == 7;
    for (i = 1; i < h7->n && run; i++)
        run = h7->c[i] == h7->c[i - 1] + 1 && card_suit(h7->c[i]) == card_suit(h7->c[0]);
    if (run)
        return CC_CHINCHON;
    if (dw == 0)
        return CC_MINUS_TEN;
    return dw <= rules->close_limit ? CC_NORMAL : CC_CANNOT_CLOSE;
}

/* ---------------------------------------------------------------- comparisons */

/* The cards of a brute-force meld as a hand.
 * O(cards). */
static inline cc_hand bmeld_hand(const bmeld *m) { return to_hand(m->c, m->n); }

/* Check every core call on h against the brute force: deadwood, best and exhaustive
 * arrangements, closing outcome (7 cards), hints (8 cards). O(brute force). */
static inline void check_hand(const cc_rules *rules, cc_hand h, const char *label)
{
    cardlist l = to_list(h);
    barr want = brute_best(rules, &l);
    cc_arrangement got, slow;
    cc_hand unmatched;
    int dw = -1, i, ok;
    char buf[256], msg[2048];
    cc_status st;
    int used[64];

    th_checks++;
    /* the expected unmatched cards */
    memset(used, 0, sizeof used);
    for (i = 0; i < l.n; i++)
        used[l.c[i]]++;
    for (i = 0; i < want.n_melds; i++) {
        int j;
        for (j = 0; j < want.melds[i].n; j++)
            used[want.melds[i].c[j]]--;
    }
    unmatched.once = unmatched.twice = 0;
    for (i = 0; i < 64; i++) {
        if (used[i] >= 1)
            unmatched.once |= UINT64_C(1) << i;
        if (used[i] >= 2)
            unmatched.twice |= UINT64_C(1) << i;
    }

    st = cc_deadwood(rules, h, &dw);
    if (st != CC_OK || dw != want.points) {
        format_hand(h, buf, sizeof buf);
        snprintf(msg, sizeof msg, "%s deadwood %s: got %d (status %d), want %d", label, buf, dw,
                 (int)st, want.points);
        FAIL("deadwood: %s", msg);
    }
    for (i = 0; i < 2; i++) {
        cc_arrangement *a = i == 0 ? &got : &slow;
        int j;
        st = i == 0 ? cc_best_melds(rules, h, a) : cc_best_melds_exhaustive(rules, h, a);
        ok = st == CC_OK && a->points == want.points && a->n_melds == want.n_melds &&
             th_same(a->unmatched, unmatched);
        for (j = 0; ok && j < want.n_melds; j++)
            ok = a->melds[j].kind == want.melds[j].kind &&
                 th_same(a->melds[j].cards, bmeld_hand(&want.melds[j]));
        if (!ok) {
            char mb[4][256];
            format_hand(h, buf, sizeof buf);
            for (j = 0; j < 2; j++) {
                format_hand(j < a->n_melds ? a->melds[j].cards : (cc_hand){0, 0}, mb[j], 256);
                format_hand(j < want.n_melds ? bmeld_hand(&want.melds[j]) : (cc_hand){0, 0},
                            mb[2 + j], 256);
            }
            snprintf(msg, sizeof msg,
                     "%s %s %s: got %d pts %d melds {%s | %s}, want %d pts %d melds {%s | %s}",
                     label, i == 0 ? "best_melds" : "exhaustive", buf, a->points, a->n_melds,
                     mb[0], mb[1], want.points, want.n_melds, mb[2], mb[3]);
            FAIL("best_melds: %s", msg);
        }
    }

    /* candidate enumeration, canonical order */
    {
        static bmeld bm[BMAX];
        cc_meld cm[BMAX];
        int kb = brute_melds(&l, bm);
        int kc = cc_enumerate_melds(h, cm, BMAX);
        ok = kb == kc && (l.n > 8 || kc <= CC_MAX_CANDIDATES);
        for (i = 0; ok && i < kb; i++)
            ok = cm[i].kind == bm[i].kind && th_same(cm[i].cards, bmeld_hand(&bm[i]));
        for (i = 0; ok && i + 1 < kc; i++)
            ok = cc_meld_key_compare(cm[i].cards, cm[i + 1].cards) < 0 &&
                 cc_meld_key_compare(cm[i + 1].cards, cm[i].cards) > 0;
        if (!ok) {
            format_hand(h, buf, sizeof buf);
            snprintf(msg, sizeof msg, "%s enumerate %s: got %d melds, want %d", label, buf, kc,
                     kb);
            FAIL("enumerate: %s", msg);
        }
    }

    /* closing outcome of 7 cards */
    if (l.n == 7) {
        cc_outcome oc;
        st = cc_close_outcome(rules, h, &oc);
        if (st != CC_OK || (int)oc != brute_outcome(rules, &l, want.points)) {
            format_hand(h, buf, sizeof buf);
            snprintf(msg, sizeof msg, "%s close_outcome %s: got %d", label, buf, (int)oc);
            FAIL("close_outcome: %s", msg);
        }
    }

    /* discard hints of 8 cards */
    if (l.n == 8) {
        uint16_t pts[8];
        uint8_t oc[8];
        memset(pts, 0xEE, sizeof pts);
        st = cc_discard_hints(rules, h, pts, oc);
        ok = st == CC_OK;
        for (i = 0; ok && i < 8; i++) {
            cardlist l7;
            int j;
            barr w;
            l7.n = 0;
            for (j = 0; j < 8; j++)
                if (j != i)
                    l7.c[l7.n++] = l.c[j];
            w = brute_best(rules, &l7);
            ok = pts[i] == w.points && oc[i] == brute_outcome(rules, &l7, w.points);
            if (!ok) {
                format_hand(h, buf, sizeof buf);
                snprintf(msg, sizeof msg, "%s hints %s: discard #%d got %d/%d want %d/%d", label,
                         buf, i, pts[i], oc[i], w.points, brute_outcome(rules, &l7, w.points));
                FAIL("hints: %s", msg);
            }
        }
        if (st != CC_OK)
            FAIL("hints: status");
    }
}

/* ---------------------------------------------------------------- hand generators */

/* k random cards from the cards allowed by (suits, lo..hi ranks), up to `decks` copies.
 * O(k) expected. */
static inline cc_hand gen_hand(int k, int decks, unsigned suits, int lo, int hi)
{
    int count[64], c[16], n = 0, pool = 0, s;
    memset(count, 0, sizeof count);
    for (s = 0; s < 4; s++)
        if ((suits >> s) & 1u)
            pool += (hi - lo + 1) * decks;
    if (k > pool)
        k = pool;
    while (n < k) {
        int suit = rnd(4), rank = lo + rnd(hi - lo + 1), idx = card_index(suit, rank);
        if (!((suits >> suit) & 1u) || count[idx] >= decks)
            continue;
        count[idx]++;
        c[n++] = idx;
    }
    return to_hand(c, n);
}

/* A random hand size 0..8, with 7 and 8 (the sizes that matter) over-represented.
 * O(1). */
static inline int gen_count(void)
{
    /* 0..8 cards, with 7 and 8 (the sizes that matter) over-represented */
    int r = rnd(16);
    return r < 9 ? r : (r < 12 ? 7 : 8);
}

/* ---------------------------------------------------------------- the programs' setup */

/* The random cases' scale (CC_TEST_ITERS, default 200000) and the generator's seed
 * (CC_TEST_SEED): read from the environment. O(1). */
static inline long core_iters(void)
{
    long iters = 200000;
    const char *env = getenv("CC_TEST_ITERS");
    if (env != NULL && atol(env) > 0)
        iters = atol(env);
    env = getenv("CC_TEST_SEED");
    if (env != NULL)
        *core_rng() = (uint64_t)strtoull(env, NULL, 0);
    return iters;
}

/* Other point tables than the house's: all zero (the melded-cards tie-break decides),
 * random 0..31 with some zeros (two of them), all 31; the first draws of the generator,
 * so every program that takes them sees the same tables. O(1). */
static inline void core_point_tables(cc_rules tables[4])
{
    int t, r;
    for (t = 0; t < 4; t++) {
        uint8_t p[CC_NRANKS];
        for (r = 0; r < CC_NRANKS; r++)
            p[r] = (uint8_t)(t == 0 ? 0 : t == 3 ? 31 : (rnd(3) == 0 ? 0 : rnd(32)));
        if (cc_rules_init(&tables[t], p, t == 0 ? 0 : 5 + t, 10) != CC_OK)
            FAIL("rules: init");
    }
}

#endif /* CC_TESTS_CORE_BRUTE_H */
