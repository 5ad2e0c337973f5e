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

/* Every part one joker completes in the natural cards (a, b) (working space), set
 * capacity cap, `places` places per suit. O(parts). */
CC_FORCE_INLINE void cc_jparts_of(const cc_rules *view, uint64_t a, uint64_t b, int cap,
                                  int places, jparts *p)
{
    uint64_t cols = 0, x;
    int s;
    p->n = 0;
    /* sets: ranks held >= 2 times (copies counted) */
    {
        uint64_t l0 = a & CC_RANK_MASK, l1 = (a >> 16) & CC_RANK_MASK;
        uint64_t l2 = (a >> 32) & CC_RANK_MASK, l3 = (a >> 48) & CC_RANK_MASK;
        uint64_t t1 = (b | (b >> 16) | (b >> 32) | (b >> 48)) & CC_RANK_MASK;
        cols = (l0 & l1) | (l2 & l3) | ((l0 | l1) & (l2 | l3)) | t1;
    }
    for (x = cols; x != 0; x &= x - 1) {
        uint64_t col = (x & (~x + 1)) * CC_LANES, in = a & col;
        if ((b & col) == 0 && cc_popcount(in) == 2) {
            cc_jpush(view, p, in, 0); /* the common case: a pair */
        } else {
            /* every sub-multiset of 2..cap-1 cards: one copy of each card of o, a
               second of each of t (<= 16 * 16 masks) */
            uint64_t o, t, tw = b & col;
            for (o = in; o != 0; o = (o - 1) & in)
                for (t = o & tw;; t = (t - 1) & o & tw) {
                    int size = cc_popcount(o) + cc_popcount(t);
                    if (size >= 2 && size < cap)
                        cc_jpush(view, p, o, t);
                    if (t == 0)
                        break;
                }
        }
    }
    /* runs: per suit, spans lo..hi of held cards with at most one place missing */
    for (s = 0; s < CC_NSUITS; s++) {
        unsigned lane = (unsigned)(a >> (16 * s)) & 0xFFFu, lows;
        /* a part needs a second card within two places above its lowest */
        for (lows = lane & ((lane >> 1) | (lane >> 2)); lows != 0; lows &= lows - 1) {
            int lo = cc_ctz(lows), hi, missing = 0;
            for (hi = lo + 1; hi < places; hi++) {
                unsigned span;
                if (!((lane >> hi) & 1u)) {
                    if (++missing > 1)
                        break;
                    continue;
                }
                span = lane & ((2u << hi) - (1u << lo));
                cc_jpush(view, p, (uint64_t)span << (16 * s), 0);
                if (missing == 0) {
                    /* whole span held: the joker may stand inside for a card held,
                       which then melds elsewhere */
                    unsigned in;
                    for (in = span & ~(1u << lo) & ~(1u << hi); in != 0; in &= in - 1)
                        cc_jpush(view, p, (uint64_t)(span & ~(in & (~in + 1))) << (16 * s), 0);
                }
            }
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
 * sets: the natural cards' masks. Inlined per deck count into the two out-of-line
 * copies below. O(parts) house deadwoods. */
CC_FORCE_INLINE int cc_jparts_search(const cc_rules *view, int jp, uint64_t a, uint64_t b,
                                     int nj, int cap, int places, int two, int best,
                                     uint64_t runs, uint64_t sets)
{
    jparts p;
    /* natural cards in some natural meld: a rest of the hand without one holds no meld,
       and its deadwood is its points */
    uint64_t meld = a & (runs | sets);
    int i, floor = (nj - 1) * jp, total; /* no deadwood below the jokers left over */
    (void)runs;
    total = cc_wpop(view, a) + (two ? cc_wpop(view, b) : 0);
    cc_jparts_of(view, a, b, cap, places, &p);
    for (i = 0; i < p.n && best > floor; i++) {
        uint64_t ra = a, rb = b;
        int d;
        cc_jminus(&ra, &rb, p.o[i], two ? p.t[i] : 0);
        if ((ra & meld) == 0) {
            d = total - p.w[i];
        } else if (!two && sets == 0) {
            /* runs only, one deck: nothing competes, the rest's run cards meld */
            uint64_t rr = cc_run_cards(ra);
            d = total - p.w[i] - (rr != 0 ? cc_wpop(view, rr) : 0);
        } else {
            d = cc_deadwood_core(view, ra, two ? rb : 0);
        }
        d += (nj - 1) * jp;
        if (d < best)
            best = d;
    }
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
    cc_jparts_of(view, a, two ? b : 0, cap, places, &p);
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
    cc_jparts_of(view, a, b, cap, places, &p);
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
 * a natural meld among the natural cards (a, b) (working space). The parts of the
 * natural cards are listed once: discarding a natural card x leaves the parts without
 * x, so each term of cc_jdeadwood becomes a removal pass over nat - N (one house hints
 * pass each); discarding the joker leaves the natural cards whole. meld: the natural
 * cards in a natural meld. Inlined per deck count. O(parts) house hints passes. */
CC_FORCE_INLINE void cc_jhints_route(const cc_rules *view, const cc_rules *rules, cc_hand h,
                                     uint64_t a, uint64_t b, int cap, uint64_t meld,
                                     uint8_t *points, int two)
{
    uint64_t jm = rules->joker_mask, x;
    int jp = rules->joker_points, places = rules->deck == 40 ? 10 : CC_NRANKS;
    int i, k = 0, djoker;
    uint8_t dj[64];
    jparts p;
    for (x = a; x != 0; x &= x - 1)
        dj[cc_ctz(x)] = 0xFF;
    /* discarding the joker: the natural cards alone */
    djoker = cc_jremovals(view, a, b, jp, ~UINT64_C(0), dj, two);
    cc_jparts_of(view, a, b, cap, places, &p);
    for (i = 0; i < p.n; i++) {
        uint64_t ra = a, rb = b;
        cc_jminus(&ra, &rb, p.o[i], two ? p.t[i] : 0);
        cc_jremovals(view, ra, rb, 0, meld, dj, two);
    }
    for (x = h.once; x != 0; x &= x - 1) {
        int c = cc_ctz(x), d, copies = 1 + (int)((h.twice >> c) & 1u);
        if ((jm >> c) & 1u) {
            d = djoker;
        } else {
            d = dj[cc_var_wbit(rules->deck, c)];
        }
        points[k++] = (uint8_t)d;
        if (copies == 2)
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
