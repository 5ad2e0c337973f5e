/*
 * joker_parts.c -- the parts route of the joker search (SPEC section 9): deadwood and
 * discard hints with jokers for the hands the fast paths of jokers.c leave, a natural
 * meld beside the jokers. Exact; the theory is below ("joker deadwood").
 */
#include "chinchon.h"

#include <string.h>

#include "bits.h"
#include "hand.h"
#include "jokers.h"
#include "melds.h"
#include "variants.h"

/* ------------------------------------------------------------------ joker deadwood */

/*
 * Deadwood with jokers, without listing whole melds. Of <= 8 cards at most two melds
 * are made and each holds at most one joker, so at most two jokers are melded, and a
 * meld with a joker holds >= 2 natural cards (its "part"). With nj jokers held and nat
 * the natural cards:
 *   no joker melded:   D(nat) + nj * jp            (D: the house kernel, exact)
 *   one joker melded:  D(nat - N) + (nj - 1) * jp  for each part N a joker completes
 *                      (the rest is arranged with natural melds only: D is exact)
 *   two melded:        W(nat - N1 - N2) + (nj - 2) * jp  for two parts that fit
 *                      together (<= 2 natural cards are left: no meld, their points)
 * and the deadwood is the least of these. Only the parts matter, not where the joker
 * stands, so each is listed once: a set part is >= 2 natural cards of a rank, at most
 * capacity - 1 of them; a run part is >= 2 natural cards of a suit spanning places
 * lo..hi with at most one place missing (the joker's; none missing: the joker goes
 * past an end, which a run of <= 7 natural cards always has room for).
 */

#define CC_JN_MAX 256 /* > the most parts of 8 cards (81 set parts of 7 copies of a rank) */

typedef struct jparts {
    uint64_t o[CC_JN_MAX], t[CC_JN_MAX]; /* the part: one copy of each card / second copies */
    int w[CC_JN_MAX];                     /* its points */
    int n;
} jparts;

/* Append a part. O(1). */
CC_INLINE void cc_jpush(const cc_rules *view, jparts *p, uint64_t o, uint64_t t)
{
    if (p->n >= CC_JN_MAX)
        return; /* unreachable (see CC_JN_MAX); keeps the bound explicit */
    p->o[p->n] = o;
    p->t[p->n] = t;
    p->w[p->n] = cc_wpop(view, o) + (t != 0 ? cc_wpop(view, t) : 0);
    p->n++;
}

/* The natural melds of natural cards (a, b) (working space), every one: each run of
 * >= 3 consecutive places (the sub-runs of a longer one too; one copy of each card) and
 * each sub-multiset of >= 3 cards of a rank (o: one copy of each card, t: second
 * copies), at most cap. Of 7 cards at most 54 (7 copies of a rank) or 15 (a run of 7).
 * Listed by cc_jparts_w. */
#define CC_JM_MAX 64

typedef struct jmelds {
    uint64_t o[CC_JM_MAX], t[CC_JM_MAX];
    int w[CC_JM_MAX];
    int n;
} jmelds;

/* Append a part (or a natural meld: the same arrays) of points w. O(1). */
CC_INLINE void cc_jpushw(uint64_t *po, uint64_t *pt, int *pw, int *n, int max, uint64_t o,
                         uint64_t t, int w)
{
    if (*n >= max)
        return; /* unreachable (see CC_JN_MAX, CC_JM_MAX); keeps the bound explicit */
    po[*n] = o;
    pt[*n] = t;
    pw[*n] = w;
    (*n)++;
}

/* Every part one joker completes in the natural cards (a, b) (working space), set
 * capacity cap, `places` places per suit, with its points from the points by place (a
 * set part is its size times its rank's, a run part sums its places' on the way), and,
 * when m is not NULL, the natural melds (jmelds) met on the way: the run parts held
 * whole of >= 3 cards, the set parts of >= 3, and a set of cap cards (one deck's four,
 * not a part). O(parts). */
CC_FORCE_INLINE void cc_jparts_w(const cc_rules *view, uint64_t a, uint64_t b, int cap,
                                 int places, jparts *p, jmelds *m)
{
    const uint8_t *pt = view->points;
    uint64_t cols, x;
    p->n = 0;
    if (m != NULL)
        m->n = 0;
    cols = cc_ranks_twice(a, b);
    for (x = cols; x != 0; x &= x - 1) {
        uint64_t col = (x & (~x + 1)) * CC_LANES, in = a & col, tw = b & col, o, t;
        int pr = pt[cc_ctz(x)];
        if (tw == 0 && cc_popcount(in) == 2) {
            cc_jpushw(p->o, p->t, p->w, &p->n, CC_JN_MAX, in, 0, 2 * pr); /* a pair */
            continue;
        }
        for (o = in; o != 0; o = (o - 1) & in)
            for (t = o & tw;; t = (t - 1) & o & tw) {
                int size = cc_popcount(o) + cc_popcount(t);
                if (size >= 2 && size < cap)
                    cc_jpushw(p->o, p->t, p->w, &p->n, CC_JN_MAX, o, t, size * pr);
                if (m != NULL && size >= 3 && size <= cap)
                    cc_jpushw(m->o, m->t, m->w, &m->n, CC_JM_MAX, o, t, size * pr);
                if (t == 0)
                    break;
            }
    }
    /* runs: a span's lowest card needs a second within two places above (one loop for
       the four lanes: bits 12-15 of a lane are never cards, so no shift crosses one) */
    for (x = a & ((a >> 1) | (a >> 2)); x != 0; x &= x - 1) {
        int g = cc_ctz(x), s = g >> 4, lo = g & 15, w = pt[lo];
        unsigned lane = (unsigned)(a >> (16 * s)) & 0xFFFu, his;
        /* the empty places above lo, two past the last as ends: a span ends before the
           second, and is held whole before the first */
        unsigned above = (~lane & ((1u << places) - 1u)) | (3u << places);
        int h1, h2;
        above &= ~((2u << lo) - 1u);
        h1 = cc_ctz(above);
        h2 = cc_ctz(above & (above - 1u));
        for (his = lane & ((1u << h2) - (2u << lo)); his != 0; his &= his - 1u) {
            int hi = cc_ctz(his);
            unsigned span = lane & ((2u << hi) - (1u << lo)), in;
            w += pt[hi];
            cc_jpushw(p->o, p->t, p->w, &p->n, CC_JN_MAX, (uint64_t)span << (16 * s), 0, w);
            if (hi > h1)
                continue; /* a place missing: the joker's */
            if (m != NULL && hi - lo >= 2)
                cc_jpushw(m->o, m->t, m->w, &m->n, CC_JM_MAX, (uint64_t)span << (16 * s), 0, w);
            for (in = span & ~(1u << lo) & ~(1u << hi); in != 0; in &= in - 1)
                cc_jpushw(p->o, p->t, p->w, &p->n, CC_JN_MAX,
                          (uint64_t)(span & ~(in & (~in + 1))) << (16 * s), 0,
                          w - pt[cc_ctz(in)]);
        }
    }
}

/* The largest of three. O(1). */
CC_INLINE int cc_max3(int x, int y, int z)
{
    int m = x > y ? x : y;
    return m > z ? m : z;
}

/* The smaller of two, for stores taken every time (no branch on the data). O(1). */
CC_INLINE int cc_jmin(int x, int y)
{
    return x < y ? x : y;
}

/* (a, b) less the multiset part (o, t) it holds. O(1). */
CC_INLINE void cc_jminus(uint64_t *a, uint64_t *b, uint64_t o, uint64_t t)
{
    uint64_t a1 = *a & ~(o & ~*b);
    *b &= ~o;
    *a = a1 & ~t;
}

/* Whether parts i and j fit in the hand together. O(1). */
CC_INLINE int cc_jfit(const jparts *p, uint64_t b, int i, int j)
{
    return ((p->t[i] & p->o[j]) | (p->o[i] & p->t[j]) | (p->o[i] & p->o[j] & ~b)) == 0;
}

/* The parts route of cc_jdeadwood (jokers.c) for the one-joker hands its fast paths
 * leave: a natural meld in the hand. best: the deadwood with no joker melded; runs,
 * sets: the natural cards' masks (unused). With the joker completing a part N, the rest
 * nat - N holds <= 5 cards, so at most one natural meld: its deadwood is its points
 * less the heaviest natural meld of the hand it holds, found among the natural melds
 * listed with the parts (cc_jparts_w); with one natural meld (most hands) by one mask
 * test. Inlined per deck count into the two out-of-line copies below. O(parts *
 * melds), by masks. */
CC_FORCE_INLINE int cc_jparts_search(const cc_rules *view, int jp, uint64_t a, uint64_t b,
                                     int nj, int cap, int places, int two, int best,
                                     uint64_t runs, uint64_t sets)
{
    jparts p;
    jmelds m;
    int i, j, total, gain = -1; /* the most points a part and a meld beside it hold */
    (void)runs;
    (void)sets;
    if (!two)
        b = 0;
    total = cc_wpop(view, a) + (two ? cc_wpop(view, b) : 0);
    cc_jparts_w(view, a, b, cap, places, &p, &m);
    for (i = 0; i < p.n; i++) {
        int w = 0, g;
        if (!two && m.n == 1) {
            w = (m.o[0] & p.o[i]) == 0 ? m.w[0] : 0; /* the common case: one natural meld */
        } else {
            uint64_t ra = a, rb = b;
            cc_jminus(&ra, &rb, p.o[i], two ? p.t[i] : 0);
            for (j = 0; j < m.n; j++) {
                int in = ((m.o[j] & ~ra) | (two ? m.t[j] & ~rb : 0)) == 0;
                int wj = in ? m.w[j] : 0;
                w = wj > w ? wj : w;
            }
        }
        g = p.w[i] + w;
        gain = g > gain ? g : gain;
    }
    if (gain >= 0 && total - gain + (nj - 1) * jp < best)
        best = total - gain + (nj - 1) * jp;
    return best;
}

/* cc_jparts_search out of line, one copy per deck count (b == 0 folded in the first). */
int cc_jparts_one(const cc_rules *view, int jp, uint64_t a, int nj, int cap, int places,
                         int best, uint64_t runs, uint64_t sets)
{
    return cc_jparts_search(view, jp, a, 0, nj, cap, places, 0, best, runs, sets);
}

int cc_jparts_two(const cc_rules *view, int jp, uint64_t a, uint64_t b, int nj, int cap,
                         int places, int best, uint64_t runs, uint64_t sets)
{
    return cc_jparts_search(view, jp, a, b, nj, cap, places, 1, best, runs, sets);
}

/* ------------------------------------------------------------------ two jokers or more */

/*
 * With nj >= 2 jokers no meld is ever short of one: of <= 8 cards at most two melds are
 * made, each with at most one joker. So each meld is a "candidate": a part with its
 * joker (value: the part's points plus jp, the joker's points saved too), or a natural
 * meld no joker can join (one deck's full set of four; value: its points); a natural
 * meld a joker can join is a part, and worth more with it (jp >= 0). The deadwood is the
 * natural cards' points plus nj * jp, less the most value of at most two candidates that
 * fit together in the hand. Every candidate of a hand with a card less is one of the
 * hand's (a part of fewer cards is listed as well), so the hints list them once and
 * search again per discard, skipping the candidates the discard breaks.
 */

/* p's parts as candidates: their values in w, one deck's full sets appended. O(parts). */
static void cc_jcands(const cc_rules *view, int jp, uint64_t a, int cap, jparts *p)
{
    int i;
    for (i = 0; i < p->n; i++)
        p->w[i] += jp;
    if (cap == 4) {
        uint64_t x;
        for (x = a & (a >> 16) & (a >> 32) & (a >> 48) & CC_RANK_MASK; x != 0; x &= x - 1)
            cc_jpush(view, p, (x & (~x + 1)) * CC_LANES, 0);
    }
}

/* The most value of at most two candidates of p that fit together in the natural cards
 * (a, b) they were listed from (no card used more often than held; b == 0 folded in the
 * first): every pair j >= i (j == i: a part held twice, in two decks), the best kept by
 * a conditional move, so only the loops' ends branch, on the count alone -- no order
 * to sort nor pruning to predict. O(candidates^2): about 15 pairs in most hands (<= 40
 * candidates: <= 6 natural cards with two jokers). */
CC_FORCE_INLINE int cc_jbest2(const jparts *p, uint64_t b, int two)
{
    int best = 0, i, j, n = p->n;
    uint64_t nb = ~b;
    for (i = 0; i < n; i++) {
        uint64_t oi = p->o[i], ti = two ? p->t[i] : 0;
        int vi = p->w[i];
        best = vi > best ? vi : best;
        for (j = i; j < n; j++) {
            uint64_t clash = two ? (ti & p->o[j]) | (oi & p->t[j]) | (oi & p->o[j] & nb)
                                 : oi & p->o[j];
            int v = (vi + p->w[j]) & -(int)(clash == 0); /* values are >= 0 */
            best = v > best ? v : best;
        }
    }
    return best;
}

/* Deadwood of natural cards (a, b) (working space; b == 0 in the first) with nj >= 2
 * jokers, set capacity cap. O(candidates^2). */
CC_FORCE_INLINE int cc_jcands_dead(const cc_rules *view, int jp, uint64_t a, uint64_t b,
                                   int nj, int cap, int places, int two)
{
    jparts p;
    int total = cc_wpop(view, a) + (two ? cc_wpop(view, b) : 0);
    cc_jparts_w(view, a, two ? b : 0, cap, places, &p, NULL);
    cc_jcands(view, jp, a, cap, &p);
    return total + nj * jp - cc_jbest2(&p, two ? b : 0, two);
}

int cc_jcands_one(const cc_rules *view, int jp, uint64_t a, int nj, int cap, int places)
{
    return cc_jcands_dead(view, jp, a, 0, nj, cap, places, 0);
}

int cc_jcands_two(const cc_rules *view, int jp, uint64_t a, uint64_t b, int nj, int cap,
                  int places)
{
    return cc_jcands_dead(view, jp, a, b, nj, cap, places, 1);
}

/* Whether a candidate (o, t) is a natural meld: three cards or more of one rank, or of
 * one suit at consecutive places. O(1). */
CC_INLINE int cc_jnatural(uint64_t o, uint64_t t)
{
    uint64_t cols = (o | (o >> 16) | (o >> 32) | (o >> 48)) & CC_RANK_MASK;
    uint64_t low = o >> cc_ctz(o);
    if (cc_popcount(o) + cc_popcount(t) < 3)
        return 0;
    return (cols & (cols - 1)) == 0 || (t == 0 && (low & (low + 1)) == 0);
}

/* Hint points of the 8 valid cards h with nj >= 2 jokers, natural cards (a, b) (working
 * space; b == 0 in the first), in h's raw card order. Every candidate and every two
 * that fit together are weighed once, and each gives its value to the discards that
 * leave it whole (a card held once and unused, or held twice and used once at most).
 * Discarding a joker leaves nj - 1: with one, the best of a candidate with the joker
 * and a natural meld beside it. O(candidates^2). */
CC_FORCE_INLINE void cc_jhints_cands(const cc_rules *view, const cc_rules *rules, cc_hand h,
                                     uint64_t a, uint64_t b, int nj, int cap, uint8_t *points,
                                     int two)
{
    uint64_t jm = rules->joker_mask, once, x;
    int jp = rules->joker_points, places = rules->deck == 40 ? 10 : CC_NRANKS, k = 0;
    int total = cc_wpop(view, a) + (two ? cc_wpop(view, b) : 0), i, j, all = 0, one = 0;
    int nat[CC_JN_MAX], gain[64];
    jparts p;
    if (!two)
        b = 0;
    once = a & ~b;
    cc_jparts_w(view, a, b, cap, places, &p, NULL);
    cc_jcands(view, jp, a, cap, &p);
    for (x = a; x != 0; x &= x - 1)
        gain[cc_ctz(x)] = 0;
    for (i = 0; i < p.n; i++) /* a natural meld's value without a joker; -inf: none */
        nat[i] = cc_jnatural(p.o[i], p.t[i]) ? cc_wpop(view, p.o[i]) + cc_wpop(view, p.t[i])
                                              : -(1 << 20);
    for (i = 0; i < p.n; i++) {
        int vi = p.w[i];
        all = vi > all ? vi : all;
        one = cc_max3(one, vi, nat[i]);
        for (x = (once & ~p.o[i]) | (b & ~p.t[i]); x != 0; x &= x - 1)
            gain[cc_ctz(x)] = vi > gain[cc_ctz(x)] ? vi : gain[cc_ctz(x)];
        for (j = i; j < p.n; j++) {
            int v = vi + p.w[j];
            uint64_t used2 = p.t[i] | p.t[j] | (p.o[i] & p.o[j]); /* both copies used */
            if (!cc_jfit(&p, b, i, j))
                continue;
            all = v > all ? v : all;
            one = cc_max3(one, cc_max3(vi + nat[j], nat[i] + p.w[j], nat[i] + nat[j]), 0);
            for (x = (once & ~(p.o[i] | p.o[j])) | (b & ~used2); x != 0; x &= x - 1)
                gain[cc_ctz(x)] = v > gain[cc_ctz(x)] ? v : gain[cc_ctz(x)];
        }
    }
    for (x = h.once; x != 0; x &= x - 1) {
        int c = cc_ctz(x), d, copies = 1 + (int)((h.twice >> c) & 1u);
        if ((jm >> c) & 1u) {
            d = total + (nj - 1) * jp - (nj >= 3 ? all : one);
        } else {
            int wc = cc_var_wbit(rules->deck, c);
            d = total + nj * jp - view->points[wc & 15] - gain[wc];
        }
        points[k++] = (uint8_t)d;
        if (copies == 2)
            points[k++] = (uint8_t)d;
    }
}

void cc_jhints_cands_one(const cc_rules *view, const cc_rules *rules, cc_hand h, uint64_t a,
                         int nj, int cap, uint8_t *points)
{
    cc_jhints_cands(view, rules, h, a, 0, nj, cap, points, 0);
}

void cc_jhints_cands_two(const cc_rules *view, const cc_rules *rules, cc_hand h, uint64_t a,
                         uint64_t b, int nj, int cap, uint8_t *points)
{
    cc_jhints_cands(view, rules, h, a, b, nj, cap, points, 1);
}

/* For each natural card x of (a, b) (working space): dj[x] = min(dj[x], D(a, b less one
 * copy of x) + add), D the house deadwood; returns D(a, b). A card that some best
 * collection leaves unmatched (or that is in no candidate meld) loses its points from
 * D; only the others get a deadwood of their own (as cc_hints_core). Inlined per deck
 * count. meld: cards outside it are in no natural meld (~0: unknown). O(1) plus <= 8
 * deadwoods. */
CC_FORCE_INLINE int cc_jremovals(const cc_rules *view, uint64_t a, uint64_t b, int add,
                                 uint64_t meld, uint8_t *dj, int two)
{
    uint64_t runs = 0, sets = 0, avoid = 0, hard = 0, x;
    int d;
    if (!two)
        b = 0;
    if ((a & meld) == 0) {
        /* no natural meld: every card's hint is the points less its own */
        d = cc_wpop(view, a) + (two ? cc_wpop(view, b) : 0);
        for (x = a; x != 0; x &= x - 1) {
            int i = cc_ctz(x), v = d - view->points[i & 15] + add;
            dj[i] = (uint8_t)cc_jmin(dj[i], v);
        }
        return d;
    }
    runs = cc_run_cards(a);
    sets = cc_set_columns(a, b);
    if (cc_sets_runs_compete(a, b, runs, sets)) {
        d = cc_conflict_unmatched(view, a, b, runs, sets, &avoid);
    } else {
        uint64_t keep = ~(runs | sets);
        d = cc_wpop(view, a & keep) + (two ? cc_wpop(view, b & keep) : 0);
    }
    hard = a & (runs | (a & sets)) & ~avoid;
    for (x = a & ~hard; x != 0; x &= x - 1) {
        int i = cc_ctz(x), v = d - view->points[i & 15] + add;
        dj[i] = (uint8_t)cc_jmin(dj[i], v);
    }
    for (x = hard; x != 0; x &= x - 1) {
        uint64_t bit = x & (~x + 1);
        int i = cc_ctz(x), v;
        uint64_t col = (UINT64_C(1) << (i & 15)) * CC_LANES;
        uint64_t sets7 = cc_popcount(a & col) + cc_popcount(b & col) > 3 ? sets : sets & ~col;
        if (two && (b & bit))
            v = cc_deadwood_masks(view, a, b ^ bit, runs, sets7);
        else
            v = cc_deadwood_masks(view, a ^ bit, b, cc_run_cards(a ^ bit), sets7);
        dj[i] = (uint8_t)cc_jmin(dj[i], v + add);
    }
    return d;
}

/* The parts route of cc_jhints (jokers.c) for the one-joker hands its fast path leaves:
 * a natural meld among the 7 natural cards (a, b) (working space). The parts and the
 * natural melds are listed once (cc_jparts_w). With the joker completing a part N, the
 * rest nat - N - x of a discard x holds <= 4 cards, so at most one natural meld, and
 * its deadwood is its points less the heaviest natural meld of the hand it holds.
 * With one natural meld M (most hands) each part has two worths, and each discard
 * takes the most worth of the parts it leaves whole: the top part's, or a scan by masks
 * for the few discards breaking it (see below); the joker left unmatched keeps M or
 * not, and discarding the joker leaves M. Otherwise one house hints pass gives the
 * joker discard and the joker left unmatched (cc_jremovals); the parts that break
 * every natural meld ("open") weigh each discard the same way, so only the heaviest
 * open part matters, and a scan for the discards breaking it; the other parts walk the
 * natural melds, heaviest first. meld: unused (the natural cards in a natural meld).
 * Inlined per deck count. O(parts) plus O(parts) a discard breaking a top part, and
 * with more melds O(melds + cards) a part that is not open. */
CC_FORCE_INLINE void cc_jhints_route(const cc_rules *view, const cc_rules *rules, cc_hand h,
                                     uint64_t a, uint64_t b, int cap, uint64_t meld,
                                     uint8_t *points, int two)
{
    uint64_t jm = rules->joker_mask, x;
    int jp = rules->joker_points, places = rules->deck == 40 ? 10 : CC_NRANKS;
    uint64_t oo[CC_JN_MAX], ot[CC_JN_MAX];
    int i, j, k, djoker, total, tw = -1, ti = -1, no = 0, nw = 0, idx[CC_JN_MAX];
    int v1[CC_JN_MAX], fw[CC_JN_MAX];
    uint64_t kl[CC_JN_MAX];
    int ow[CC_JN_MAX];
    uint8_t dj[64];
    jparts p;
    jmelds m;
    (void)meld;
    if (!two)
        b = 0;
    cc_jparts_w(view, a, b, cap, places, &p, &m);
    total = cc_wpop(view, a) + (two ? cc_wpop(view, b) : 0);
    for (i = 1; i < m.n; i++) { /* heaviest first (insertion: a few) */
        uint64_t o = m.o[i], t = m.t[i];
        int w = m.w[i];
        for (j = i; j > 0 && m.w[j - 1] < w; j--) {
            m.o[j] = m.o[j - 1];
            m.t[j] = m.t[j - 1];
            m.w[j] = m.w[j - 1];
        }
        m.o[j] = o;
        m.t[j] = t;
        m.w[j] = w;
    }
    if (m.n == 1 && p.n > 0) {
        /* one natural meld M (most hands): a part N is worth its points, and M's
           beside it when nat - N - x holds M, then the only meld. A discard x outside
           M does not change that (fw: M's points or 0), so those discards take the
           most worth of the parts they leave whole: the most worth's unless they break
           it, else a scan by masks. A discard in M leaves M when N and x leave a copy
           of each of M's cards (kl: the cards breaking it beside N); with one deck
           never, so those take the heaviest part they leave whole the same way. */
        uint64_t m0 = m.o[0] & a, t0, t1, mk;
        int w0 = -1, i0 = 0, w1 = -1, i1 = 0;
        for (i = 0; i < p.n; i++) {
            int in, v, b0, b1;
            if (two) {
                uint64_t ra = a, rb = b;
                cc_jminus(&ra, &rb, p.o[i], p.t[i]);
                in = ((m.o[0] & ~ra) | (m.t[0] & ~rb)) == 0;
                kl[i] = m.t[0] | (m.o[0] & ~rb);
                fw[i] = in ? m.w[0] : 0;
            } else {
                in = (p.o[i] & m0) == 0;
            }
            v = p.w[i] + (in ? m.w[0] : 0);
            v1[i] = v;
            b0 = p.w[i] > w0;
            b1 = v > w1;
            w0 = b0 ? p.w[i] : w0;
            i0 = b0 ? i : i0;
            w1 = b1 ? v : w1;
            i1 = b1 ? i : i1;
        }
        /* the discards of M breaking the heaviest part (two decks: all of M's), and
           the others breaking the most worth (a card it uses every copy of) */
        t0 = two ? m0 : m0 & p.o[i0];
        t1 = (two ? p.t[i1] | (p.o[i1] & ~b) : p.o[i1]) & a & ~m0;
        /* the joker left unmatched: M, the natural cards' only meld, unless the discard
           uses its every copy; discarding the joker leaves it */
        mk = two ? m.t[0] | (m.o[0] & ~b) : m.o[0];
        /* (two decks: a run M with every card held twice is two melds, the 7 natural
           cards' only ones: discarding the joker melds both) */
        djoker = total - m.w[0] - (two && m.t[0] == 0 && (m.o[0] & ~b) == 0 ? m.w[0] : 0);
        for (x = m0 & ~t0; x != 0; x &= x - 1) {
            int c = cc_ctz(x), g = ((mk >> c) & 1u ? 0 : m.w[0]) - jp, w = w0 > g ? w0 : g;
            dj[c] = (uint8_t)cc_jmin(0xFF, total - view->points[c & 15] - w);
        }
        for (x = a & ~m0 & ~t1; x != 0; x &= x - 1) {
            int c = cc_ctz(x), w = w1 > m.w[0] - jp ? w1 : m.w[0] - jp;
            dj[c] = (uint8_t)cc_jmin(0xFF, total - view->points[c & 15] - w);
        }
        for (x = t0 | t1; x != 0; x &= x - 1) {
            uint64_t bit = x & (~x + 1);
            const uint64_t *use = two && (b & bit) ? p.t : p.o; /* held twice: 2nd copy */
            const int *wt = (m0 & bit) ? p.w : v1; /* one deck: the weight it takes */
            int c = cc_ctz(x), w = ((mk & bit) != 0 ? 0 : m.w[0]) - jp;
            for (k = 0; k < p.n; k++) { /* masks, not branches: no pattern to predict */
                int wq = two ? p.w[k] + ((kl[k] & bit) != 0 ? 0 : fw[k]) : wt[k];
                wq |= -(int)((use[k] & bit) != 0); /* -1: it breaks the part */
                w = wq > w ? wq : w;
            }
            dj[c] = (uint8_t)cc_jmin(0xFF, total - view->points[c & 15] - w);
        }
    } else {
        /* discarding the joker, and the joker left unmatched: the natural cards alone,
           one house hints pass */
        for (x = a; x != 0; x &= x - 1)
            dj[cc_ctz(x)] = 0xFF;
        djoker = cc_jremovals(view, a, b, jp, ~UINT64_C(0), dj, two);
        /* Parts whose rest nat - N holds no natural meld ("open": most of them, the parts
           that break the hand's melds) weigh each discard x the same way, the points of
           nat - x less N's: only the heaviest open part matters, and for a discard that
           breaks it, the heaviest open part left. The others walk the natural melds. */
        for (i = 0; i < p.n; i++) {
            uint64_t ra = a, rb = b;
            int open = 1, better;
            cc_jminus(&ra, &rb, p.o[i], two ? p.t[i] : 0);
            for (j = 0; j < m.n; j++)
                open &= ((m.o[j] & ~ra) | (two ? m.t[j] & ~rb : 0)) != 0;
            better = open & (p.w[i] > tw);
            tw = better ? p.w[i] : tw;
            ti = better ? i : ti;
            oo[no] = p.o[i];
            ot[no] = p.t[i];
            ow[no] = p.w[i];
            no += open;
            idx[nw] = i;
            nw += !open;
        }
        if (ti >= 0) {
            /* the discards that break it (a card it uses every copy of) and the others */
            uint64_t tk = (two ? p.t[ti] | (p.o[ti] & ~b) : p.o[ti]) & a;
            for (x = a & ~tk; x != 0; x &= x - 1) {
                int c = cc_ctz(x);
                dj[c] = (uint8_t)cc_jmin(dj[c], total - view->points[c & 15] - tw);
            }
            for (x = tk; x != 0; x &= x - 1) {
                uint64_t bit = x & (~x + 1);
                const uint64_t *use = two && (b & bit) ? ot : oo; /* held twice: 2nd copy */
                int c = cc_ctz(x), w = -1;
                for (k = 0; k < no; k++) { /* masks, not branches: no pattern to predict */
                    int wq = ow[k] | -(int)((use[k] & bit) != 0); /* -1: uses the card */
                    w = wq > w ? wq : w;
                }
                w = w < 0 ? 0xFF : total - view->points[c & 15] - w;
                dj[c] = (uint8_t)cc_jmin(dj[c], w);
            }
        }
        for (k = 0; k < nw; k++) {
            uint64_t ra = a, rb = b, u;
            int base; /* the points of nat - N */
            i = idx[k];
            base = total - p.w[i];
            cc_jminus(&ra, &rb, p.o[i], two ? p.t[i] : 0);
            u = ra; /* the discards whose best meld is not found yet */
            for (j = 0; j < m.n && u != 0; j++) {
                uint64_t kill;
                int v;
                if (((m.o[j] & ~ra) | (two ? m.t[j] & ~rb : 0)) != 0)
                    continue; /* not within nat - N */
                /* the discards that break it: a card it uses every copy of */
                kill = two ? m.t[j] | (m.o[j] & ~rb) : m.o[j];
                v = base - m.w[j];
                for (x = u & ~kill; x != 0; x &= x - 1) {
                    int c = cc_ctz(x);
                    dj[c] = (uint8_t)cc_jmin(dj[c], v - view->points[c & 15]);
                }
                u &= kill;
            }
            for (x = u; x != 0; x &= x - 1) {
                int c = cc_ctz(x);
                dj[c] = (uint8_t)cc_jmin(dj[c], base - view->points[c & 15]);
            }
        }
    }
    if (!two) {
        /* one deck: the joker's place is the count of cards below it, and the natural
           cards keep their order in the working space, one place each */
        uint64_t jb = h.once & jm;
        int js = cc_popcount(h.once & ((jb & (~jb + 1)) - 1));
        points[js] = (uint8_t)djoker;
        for (x = a, k = 0; x != 0; x &= x - 1, k++)
            points[k + (k >= js)] = dj[cc_ctz(x)];
        return;
    }
    k = 0;
    for (x = h.once; x != 0; x &= x - 1) {
        int c = cc_ctz(x), d = (jm >> c) & 1u ? djoker : dj[cc_var_wbit(rules->deck, c)];
        points[k++] = (uint8_t)d;
        if ((h.twice >> c) & 1u)
            points[k++] = (uint8_t)d;
    }
}

void cc_jhints_route_one(const cc_rules *view, const cc_rules *rules, cc_hand h, uint64_t a,
                         int cap, uint64_t meld, uint8_t *points)
{
    cc_jhints_route(view, rules, h, a, 0, cap, meld, points, 0);
}

void cc_jhints_route_two(const cc_rules *view, const cc_rules *rules, cc_hand h, uint64_t a,
                         uint64_t b, int cap, uint64_t meld, uint8_t *points)
{
    cc_jhints_route(view, rules, h, a, b, cap, meld, points, 1);
}
