/*
 * test_core.c -- differential tests of the chinchon C core against an independent,
 * obviously-correct brute force.
 *
 * The brute force works on plain lists of card indices, not masks: it lists every meld
 * (every subset of the cards of a rank of size >= 3, every segment of >= 3 of a suit),
 * then every multiset of those melds that fits in the hand (no "two melds at most"
 * shortcut), and keeps the best under docs/rules.md#which-arrangement-is-reported's order, comparing meld keys the
 * way Python compares tuples. Exit status: 0 when everything agrees.
 *
 * Iterations scale with CC_TEST_ITERS (default 200000); CC_TEST_SEED sets the seed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chinchon.h"

#include "testlib.h"

static long g_failures = 0;
static long g_checks = 0;

#define FAIL_LIMIT 20

/* Count a failed check and print the first FAIL_LIMIT of them.
 * O(1). */
static void fail(const char *what, const char *detail)
{
    g_failures++;
    if (g_failures <= FAIL_LIMIT)
        fprintf(stderr, "FAIL %s: %s\n", what, detail);
}

/* ---------------------------------------------------------------- random numbers */

static uint64_t g_rng = 0x9E3779B97F4A7C15u;

/* The next number of the seeded splitmix64 generator (CC_TEST_SEED).
 * O(1). */
static uint64_t next_u64(void) { return th_splitmix64(&g_rng); }

/* A random int in 0..n-1 (n > 0; the modulo bias is irrelevant here).
 * O(1). */
static int rnd(int n) { return (int)(next_u64() % (uint64_t)n); }

/* ---------------------------------------------------------------- card lists */

typedef struct {
    int n;
    int c[16]; /* card indices ascending, a copy repeated */
} cardlist;

/* Bit index of a card (suit 0..3, rank 1..12).
 * O(1). */
static int card_index(int suit, int rank) { return 16 * suit + rank - 1; }
/* Rank (1..12) of a bit index.
 * O(1). */
static int card_rank(int idx) { return (idx & 15) + 1; }
/* Suit (0..3) of a bit index.
 * O(1). */
static int card_suit(int idx) { return idx >> 4; }

/* The cards of h as text ("7o 7o 3c [masks]") into buf, for failure messages.
 * O(64). */
static void format_hand(cc_hand h, char *buf, size_t size)
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
static cardlist to_list(cc_hand h)
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
static cc_hand to_hand(const int *c, int n)
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
static int tuple_cmp(const int *x, int nx, const int *y, int ny)
{
    int i;
    for (i = 0; i < nx && i < ny; i++)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    return nx < ny ? -1 : nx > ny ? 1 : 0;
}

/* Compare the keys of two brute-force melds as Python tuples.
 * O(cards). */
static int bmeld_cmp(const bmeld *x, const bmeld *y) { return tuple_cmp(x->c, x->n, y->c, y->n); }

#define BMAX 1024

/* Every meld of the hand, deduplicated, sorted by key, into out; returns how many.
 * O(2^(cards of a rank) per rank + segments per suit). */
static int brute_melds(const cardlist *h, bmeld *out)
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
static int barr_cmp(const barr *x, const barr *y)
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
static int card_points(const cc_rules *r, int idx) { return r->points[idx & 15]; }

/* Sort melds by key (insertion sort, n <= 4).
 * O(n^2). */
static void sort_melds(bmeld *m, int n)
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
static void brute_rec(brute_state *s, int i)
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
static barr brute_best(const cc_rules *rules, const cardlist *h)
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
static int brute_outcome(const cc_rules *rules, const cardlist *h7, int dw)
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
static cc_hand bmeld_hand(const bmeld *m) { return to_hand(m->c, m->n); }

/* Check every core call on h against the brute force: deadwood, best and exhaustive
 * arrangements, closing outcome (7 cards), hints (8 cards). O(brute force). */
static void check_hand(const cc_rules *rules, cc_hand h, const char *label)
{
    cardlist l = to_list(h);
    barr want = brute_best(rules, &l);
    cc_arrangement got, slow;
    cc_hand unmatched;
    int dw = -1, i, ok;
    char buf[256], msg[2048];
    cc_status st;
    int used[64];

    g_checks++;
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
        fail("deadwood", msg);
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
            fail("best_melds", msg);
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
            fail("enumerate", msg);
        }
    }

    /* closing outcome of 7 cards */
    if (l.n == 7) {
        cc_outcome oc;
        st = cc_close_outcome(rules, h, &oc);
        if (st != CC_OK || (int)oc != brute_outcome(rules, &l, want.points)) {
            format_hand(h, buf, sizeof buf);
            snprintf(msg, sizeof msg, "%s close_outcome %s: got %d", label, buf, (int)oc);
            fail("close_outcome", msg);
        }
    }

    /* discard hints of 8 cards */
    if (l.n == 8) {
        uint8_t pts[8], oc[8];
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
                fail("hints", msg);
            }
        }
        if (st != CC_OK)
            fail("hints", "status");
    }
}

/* ---------------------------------------------------------------- hand generators */

/* k random cards from the cards allowed by (suits, lo..hi ranks), up to `decks` copies.
 * O(k) expected. */
static cc_hand gen_hand(int k, int decks, unsigned suits, int lo, int hi)
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
static int gen_count(void)
{
    /* 0..8 cards, with 7 and 8 (the sizes that matter) over-represented */
    int r = rnd(16);
    return r < 9 ? r : (r < 12 ? 7 : 8);
}

/* check_hand on iters random hands: mode 0 uniform, 1 meld-rich (3-4 ranks), 2
 * run-rich (2-3 suits, 4-7 ranks). O(iters * brute force). */
static void run_random(const cc_rules *rules, long iters, int decks, int mode, const char *label)
{
    long i;
    for (i = 0; i < iters; i++) {
        cc_hand h;
        int k = gen_count();
        if (mode == 0) {
            h = gen_hand(k, decks, 15u, 1, 12);
        } else if (mode == 1) { /* meld-rich: all suits, a window of 3-4 ranks */
            int w = 3 + rnd(2), lo = 1 + rnd(13 - w);
            h = gen_hand(k, decks, 15u, lo, lo + w - 1);
        } else { /* run-rich: 2-3 suits, a window of 4-7 ranks */
            unsigned suits = 0;
            int w = 4 + rnd(4), lo = 1 + rnd(13 - w), ns = 2 + rnd(2);
            while (ns > 0) {
                unsigned bit = 1u << rnd(4);
                if (!(suits & bit)) {
                    suits |= bit;
                    ns--;
                }
            }
            h = gen_hand(k, decks, suits, lo, lo + w - 1);
        }
        check_hand(rules, h, label);
    }
}

/* ---------------------------------------------------------------- fixed checks */

/* Check that a call returned the status wanted; the failure names both.
 * O(1). */
static void expect_status(const char *what, cc_status got, cc_status want)
{
    char msg[256];
    g_checks++;
    if (got != want) {
        snprintf(msg, sizeof msg, "%s: status %s (%s), want %s (%s)", what,
                 cc_status_name(got), cc_status_message(got), cc_status_name(want),
                 cc_status_message(want));
        fail("status", msg);
    }
}

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
        g_checks++;
        if (st != CC_OK || st2 != CC_OK || dw != ex[i].deadwood || (int)oc != ex[i].outcome) {
            snprintf(msg, sizeof msg, "%s: deadwood %d outcome %d, want %d %d", ex[i].hand, dw,
                     (int)oc, ex[i].deadwood, ex[i].outcome);
            fail("worked example", msg);
        }
        check_hand(rules, h, "example");
    }
    /* the 6c goes with the sixes: 6o 6c 6e set + 3c 4c 5c run */
    {
        cc_arrangement a;
        cc_best_melds(rules, th_parse("3c 4c 5c 6c 6o 6e 1b"), &a);
        g_checks++;
        if (a.n_melds != 2 || !th_same(a.melds[0].cards, th_parse("6o 6c 6e")) ||
            !th_same(a.melds[1].cards, th_parse("3c 4c 5c")) ||
            !th_same(a.unmatched, th_parse("1b")))
            fail("worked example", "3c 4c 5c 6c 6o 6e 1b arrangement");
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
    uint8_t pts[8];
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
    g_checks++;
    if (n != 9)
        fail("check_hand", "count of 9 cards");
    expect_status("check NULL count", cc_check_hand(seven, 8, NULL), CC_OK);
    g_checks++;
    if (cc_enumerate_melds(notsub, NULL, 0) != -1 || cc_enumerate_melds(lane, NULL, 0) != -1)
        fail("enumerate", "invalid hand not rejected");
    g_checks++;
    if (cc_enumerate_melds(th_parse("1o 2o 3o 4o"), NULL, 0) != 3)
        fail("enumerate", "count with cap 0");

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
    g_checks++;
    if (r2.minus_ten != 25 || r2.close_limit != 7 || r2.points[3] != 0 || r2.points[4] != 31)
        fail("rules", "cc_rules_init did not store its arguments");
    expect_status("rules minus ten 26 limit 256", cc_rules_init(&r2, table, 256, 26),
                  CC_ERR_BAD_ARGUMENT);
    g_checks++;
    if (r2.minus_ten != 25)
        fail("rules", "a rejected cc_rules_init changed *rules");
    cc_rules_default(&r2);
    g_checks++;
    if (r2.minus_ten != 10 || r2.close_limit != 5 || r2.points[11] != 12)
        fail("rules", "cc_rules_default is not the house rules");

    /* status names and texts: one of each per code, the sentinel and others unknown */
    for (s = CC_OK; s <= CC_STATUS_END + 1; s++) {
        const char *name = cc_status_name((cc_status)s), *text = cc_status_message((cc_status)s);
        int known = s < CC_STATUS_END;
        g_checks++;
        if (name == NULL || text == NULL ||
            (strcmp(name, "CC_STATUS_UNKNOWN") != 0) != known ||
            (strcmp(text, "unknown status") != 0) != known ||
            (known && strncmp(name, s == CC_OK ? "CC_OK" : "CC_ERR_", s == CC_OK ? 6 : 7) != 0))
            fail("status names", name == NULL ? "NULL" : name);
    }
    g_checks++;
    if (strcmp(cc_status_name(CC_ERR_DUPLICATE), "CC_ERR_DUPLICATE") != 0 ||
        strcmp(cc_status_name(CC_ERR_BAD_ARGUMENT), "CC_ERR_BAD_ARGUMENT") != 0 ||
        strcmp(cc_status_name((cc_status)-1), "CC_STATUS_UNKNOWN") != 0 ||
        strcmp(cc_status_message(CC_ERR_CANNOT_CLOSE),
               "the closer's deadwood is over the close limit") != 0)
        fail("status names", "a name or text");

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
    g_checks++;
    if (bad != 2)
        fail("batch", "bad row index (lane)");
    rows[2] = 0;
    expect_status("batch 9 row", cc_deadwood_batch(rules, rows, 4, 1, out, &bad),
                  CC_ERR_TOO_MANY_CARDS);
    g_checks++;
    if (bad != 3)
        fail("batch", "bad row index (9 cards)");
    expect_status("batch NULL bad_row", cc_deadwood_batch(rules, rows, 4, 1, out, NULL),
                  CC_ERR_TOO_MANY_CARDS);
    rows[0] = seven.once; /* (once, twice) rows */
    rows[1] = 0;
    rows[2] = 1;
    rows[3] = 2;
    expect_status("batch2 subset row", cc_deadwood_batch(rules, rows, 2, 2, out, &bad),
                  CC_ERR_TWICE_NOT_SUBSET);
    g_checks++;
    if (bad != 1)
        fail("batch", "bad row index (subset)");
    rows[0] = eight.once;
    rows[1] = seven.once;
    expect_status("hints batch 7", cc_hints_batch(rules, rows, 2, 1, out, &bad),
                  CC_ERR_CARD_COUNT);
    g_checks++;
    if (bad != 1)
        fail("batch", "bad row index (hints 7)");
    expect_status("hints batch decks 0", cc_hints_batch(rules, rows, 1, 0, out, &bad),
                  CC_ERR_BAD_ARGUMENT);

    /* every status has its own message */
    for (s = 0; s <= CC_STATUS_END; s++) {
        int t;
        const char *m = cc_status_message((cc_status)s);
        g_checks++;
        if (m == NULL || m[0] == 0)
            fail("status_message", "empty");
        for (t = 0; t < s; t++)
            if (strcmp(m, cc_status_message((cc_status)t)) == 0)
                fail("status_message", "duplicate");
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
        uint8_t p[8], o[8];
        char msg[256];
        cc_status st = cc_discard_hints(rules, th_parse(ex[i].hand), p, o);
        g_checks++;
        if (st != CC_OK || memcmp(p, ex[i].points, 8) != 0 || memcmp(o, ex[i].outcomes, 8) != 0) {
            snprintf(msg, sizeof msg, "%s: %d %d %d %d %d %d %d %d / %d %d %d %d %d %d %d %d",
                     ex[i].hand, p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], o[0], o[1],
                     o[2], o[3], o[4], o[5], o[6], o[7]);
            fail("hint edges", msg);
        }
        check_hand(rules, th_parse(ex[i].hand), "hint edges");
    }
}

/* The batch calls agree with the one-hand calls on random rows, both deck counts.
 * O(iters). */
static void batches(const cc_rules *rules, long iters)
{
    enum { N = 512 };
    static uint64_t rows[2 * N];
    static uint8_t out[8 * N];
    long it;
    int decks;
    for (it = 0; it < iters; it += N) {
        for (decks = 1; decks <= 2; decks++) {
            int i;
            size_t bad;
            cc_status st;
            for (i = 0; i < N; i++) {
                cc_hand h = gen_hand(gen_count(), decks, 15u, 1, 12);
                if (decks == 1)
                    rows[i] = h.once;
                else {
                    rows[2 * i] = h.once;
                    rows[2 * i + 1] = h.twice;
                }
            }
            st = cc_deadwood_batch(rules, rows, N, decks, out, &bad);
            expect_status("deadwood_batch", st, CC_OK);
            for (i = 0; i < N; i++) {
                cc_hand h;
                int dw;
                h.once = decks == 1 ? rows[i] : rows[2 * i];
                h.twice = decks == 1 ? 0 : rows[2 * i + 1];
                cc_deadwood(rules, h, &dw);
                g_checks++;
                if (out[i] != dw)
                    fail("deadwood_batch", "differs from cc_deadwood");
            }
            for (i = 0; i < N; i++) {
                int lo = 1 + rnd(6);
                cc_hand h = gen_hand(8, decks, 15u, lo, lo + 6); /* meld-richer */
                if (decks == 1)
                    rows[i] = h.once;
                else {
                    rows[2 * i] = h.once;
                    rows[2 * i + 1] = h.twice;
                }
            }
            st = cc_hints_batch(rules, rows, N, decks, out, &bad);
            expect_status("hints_batch", st, CC_OK);
            for (i = 0; i < N; i++) {
                cc_hand h;
                uint8_t p[8];
                h.once = decks == 1 ? rows[i] : rows[2 * i];
                h.twice = decks == 1 ? 0 : rows[2 * i + 1];
                cc_discard_hints(rules, h, p, NULL);
                g_checks++;
                if (memcmp(p, out + 8 * i, 8) != 0)
                    fail("hints_batch", "differs from cc_discard_hints");
            }
        }
    }
}

/* Run every check; CC_TEST_ITERS scales the random ones. Exit status 0 when all pass.
 * About 5-10 s at the default 200000. */
int main(void)
{
    long iters = 200000;
    const char *env = getenv("CC_TEST_ITERS");
    cc_rules house, tables[4];
    int t, r;
    cc_meld big[CC_MAX_CANDIDATES + 1];

    if (env != NULL && atol(env) > 0)
        iters = atol(env);
    env = getenv("CC_TEST_SEED");
    if (env != NULL)
        g_rng = (uint64_t)strtoull(env, NULL, 0);

    cc_rules_default(&house);
    /* other point tables: all zero (the melded-cards tie-break decides), random 0..31
     * with some zeros, all 31 */
    for (t = 0; t < 4; t++) {
        uint8_t p[CC_NRANKS];
        for (r = 0; r < CC_NRANKS; r++)
            p[r] = (uint8_t)(t == 0 ? 0 : t == 3 ? 31 : (rnd(3) == 0 ? 0 : rnd(32)));
        if (cc_rules_init(&tables[t], p, t == 0 ? 0 : 5 + t, 10) != CC_OK)
            fail("rules", "init");
    }

    worked_examples(&house);
    error_statuses(&house);

    /* the largest candidate count of a hand of <= 8 cards */
    g_checks++;
    if (cc_enumerate_melds(th_parse("7o 7o 7c 7c 7e 7e 7b 7b"), big, CC_MAX_CANDIDATES + 1) !=
        CC_MAX_CANDIDATES)
        fail("enumerate", "eight sevens should give CC_MAX_CANDIDATES");
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

    run_random(&house, iters, 1, 0, "single");
    run_random(&house, iters, 2, 0, "double");
    run_random(&house, iters / 2, 1, 1, "single-rich");
    run_random(&house, iters / 2, 2, 1, "double-rich");
    run_random(&house, iters / 4, 1, 2, "single-runs");
    run_random(&house, iters / 4, 2, 2, "double-runs");
    for (t = 0; t < 4; t++) {
        run_random(&tables[t], iters / 16, 1, 1, "table-single-rich");
        run_random(&tables[t], iters / 16, 2, 1, "table-double-rich");
        run_random(&tables[t], iters / 16, 2, 2, "table-double-runs");
    }
    /* enumeration and key order on bigger hands (up to 12 cards) */
    {
        long i;
        for (i = 0; i < iters / 20; i++) {
            int lo = 1 + rnd(9);
            cc_hand h = gen_hand(9 + rnd(4), 1 + rnd(2), 15u, lo, lo + 3);
            cardlist l = to_list(h);
            static bmeld bm[BMAX];
            static cc_meld cm[BMAX];
            int kb = brute_melds(&l, bm), kc = cc_enumerate_melds(h, cm, BMAX), j, ok;
            ok = kb == kc;
            for (j = 0; ok && j < kb; j++)
                ok = cm[j].kind == bm[j].kind && th_same(cm[j].cards, bmeld_hand(&bm[j]));
            g_checks++;
            if (!ok)
                fail("enumerate", "hand of 9-12 cards");
        }
    }
    batches(&house, iters / 4);

    printf("test_core: %ld checks, %ld failures (iters=%ld)\n", g_checks, g_failures, iters);
    return g_failures == 0 ? 0 : 1;
}
