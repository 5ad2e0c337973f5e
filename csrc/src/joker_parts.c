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

/* Set parts extending the partial part s (size cards) by cards idx[start..n) (a copy
 * listed twice), sizes 2..max. O(parts). */
static void cc_jset_parts(const cc_rules *view, jparts *p, const int *idx, int n, int start,
                          cc_hand s, int size, int max)
{
    int i;
    if (size >= 2)
        cc_jpush(view, p, s.once, s.twice);
    if (size >= max)
        return;
    for (i = start; i < n; i++) {
        if (i > start && idx[i] == idx[i - 1])
            continue;
        cc_jset_parts(view, p, idx, n, i + 1, cc_hand_add(s, idx[i]), size + 1, max);
    }
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
            int idx[2 * CC_NSUITS], n = 0;
            uint64_t y;
            cc_hand e = {0, 0};
            for (y = in; y != 0; y &= y - 1) {
                int c = cc_ctz(y);
                idx[n++] = c;
                if ((b >> c) & 1u)
                    idx[n++] = c;
            }
            cc_jset_parts(view, p, idx, n, 0, e, 0, cap - 1);
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

/* The parts route of cc_jdeadwood (jokers.c) for the hands its fast path leaves: a natural
 * meld in the hand, or two jokers and more. best: the deadwood with no joker melded;
 * runs, sets: the natural cards' masks. Inlined per deck count into the two
 * out-of-line copies below. O(parts) house deadwoods, plus O(parts^2) pair checks with
 * two jokers. */
CC_FORCE_INLINE int cc_jparts_search(const cc_rules *view, int jp, uint64_t a, uint64_t b,
                                     int nj, int cap, int places, int two, int best,
                                     uint64_t runs, uint64_t sets)
{
    jparts p;
    /* natural cards in some natural meld: a rest of the hand without one holds no meld,
       and its deadwood is its points */
    uint64_t meld = a & (runs | sets);
    int i, j, floor, total;
    (void)runs;
    total = cc_wpop(view, a) + (two ? cc_wpop(view, b) : 0);
    cc_jparts_of(view, a, b, cap, places, &p);
    floor = (nj - (nj < 2 ? nj : 2)) * jp; /* no deadwood below the jokers left over */
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
    if (nj >= 2 && best > floor) {
        int most = -1;
        for (i = 0; i < p.n; i++)
            for (j = i; j < p.n; j++)
                if (p.w[i] + p.w[j] > most && cc_jfit(&p, b, i, j))
                    most = p.w[i] + p.w[j];
        if (most >= 0 && total - most + floor < best)
            best = total - most + floor;
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
            if (v < dj[i])
                dj[i] = (uint8_t)v;
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
        if (v < dj[i])
            dj[i] = (uint8_t)v;
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
        v += add;
        if (v < dj[i])
            dj[i] = (uint8_t)v;
    }
    return d;
}

/* The parts route of cc_jhints (jokers.c) for the hands its fast path leaves: a
 * natural meld among the natural cards (a, b) (working space), or two jokers and more.
 * The parts of the natural cards are listed once: discarding a natural card x leaves
 * the parts without x, so each term of cc_jdeadwood becomes a removal pass over
 * nat - N (one house hints pass each); discarding a joker leaves the natural cards
 * whole, with one joker less. meld: the natural cards in a natural meld. Inlined per
 * deck count. O(parts) house hints passes, plus O(parts^2) pairs with two jokers. */
CC_FORCE_INLINE void cc_jhints_route(const cc_rules *view, const cc_rules *rules, cc_hand h,
                                     uint64_t a, uint64_t b, int nj, int cap, uint64_t meld,
                                     uint8_t *points, int two)
{
    uint64_t jm = rules->joker_mask, x;
    int jp = rules->joker_points, places = rules->deck == 40 ? 10 : CC_NRANKS;
    int i, j, k = 0, dnat, best1 = 1 << 20, djoker;
    uint8_t dj[64];
    jparts p;
    for (x = a; x != 0; x &= x - 1)
        dj[cc_ctz(x)] = 0xFF;
    dnat = cc_jremovals(view, a, b, nj * jp, ~UINT64_C(0), dj, two);
    cc_jparts_of(view, a, b, cap, places, &p);
    for (i = 0; i < p.n; i++) {
        uint64_t ra = a, rb = b;
        int d;
        cc_jminus(&ra, &rb, p.o[i], two ? p.t[i] : 0);
        d = cc_jremovals(view, ra, rb, (nj - 1) * jp, meld, dj, two);
        if (d < best1)
            best1 = d;
    }
    /* discarding a joker: nj - 1 jokers with every natural card */
    djoker = dnat + (nj - 1) * jp;
    if (nj >= 2 && best1 + (nj - 2) * jp < djoker)
        djoker = best1 + (nj - 2) * jp;
    if (nj >= 2) {
        int total = cc_wpop(view, a) + (two ? cc_wpop(view, b) : 0), most = -1;
        for (i = 0; i < p.n; i++)
            for (j = i; j < p.n; j++) {
                uint64_t ra = a, rb = b;
                int left;
                if (!cc_jfit(&p, b, i, j))
                    continue;
                if (p.w[i] + p.w[j] > most)
                    most = p.w[i] + p.w[j];
                cc_jminus(&ra, &rb, p.o[i], two ? p.t[i] : 0);
                cc_jminus(&ra, &rb, p.o[j], two ? p.t[j] : 0);
                left = total - p.w[i] - p.w[j] + (nj - 2) * jp; /* <= 2 cards: no meld */
                for (x = ra; x != 0; x &= x - 1) {
                    int c = cc_ctz(x), v = left - view->points[c & 15];
                    if (v < dj[c])
                        dj[c] = (uint8_t)v;
                }
            }
        if (nj >= 3 && most >= 0 && total - most + (nj - 3) * jp < djoker)
            djoker = total - most + (nj - 3) * jp;
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
                         uint64_t b, int nj, int cap, uint64_t meld, uint8_t *points)
{
    (void)b;
    cc_jhints_route(view, rules, h, a, 0, nj, cap, meld, points, 0);
}

void cc_jhints_route_two(const cc_rules *view, const cc_rules *rules, cc_hand h, uint64_t a,
                         uint64_t b, int nj, int cap, uint64_t meld, uint8_t *points)
{
    cc_jhints_route(view, rules, h, a, b, nj, cap, meld, points, 1);
}
