/*
 * joker_parts.h -- internal: the parts of the joker search (docs/rules.md#rule-variants), listed by
 * joker_parts.c (deadwood, two jokers' candidates) and joker_route.c (the one-joker
 * hints route): the parts a joker completes, the natural melds beside them, and the
 * small mask helpers both files use. The theory: joker_parts.c, "joker deadwood".
 */
#ifndef CC_SRC_JOKER_PARTS_H
#define CC_SRC_JOKER_PARTS_H

#include <stdint.h>

#include "chinchon.h"

#include "base/bits.h"
#include "melds/melds.h"

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

/* The parts route of the deadwood with one joker: natural cards (a, b) (working space;
 * b == 0 in the first), set capacity cap, `places` places a lane; best: the deadwood
 * with no joker melded; runs, sets: the natural cards' masks. joker_parts.c. */
CC_INTERNAL int cc_jparts_one(const cc_rules *view, int jp, uint64_t a, int nj, int cap,
                              int places, int best, uint64_t runs, uint64_t sets);
CC_INTERNAL int cc_jparts_two(const cc_rules *view, int jp, uint64_t a, uint64_t b, int nj,
                              int cap, int places, int best, uint64_t runs, uint64_t sets);

/* The deadwood with nj >= 2 jokers: the candidates' search (joker_parts.c, "two jokers
 * or more"). */
CC_INTERNAL int cc_jcands_one(const cc_rules *view, int jp, uint64_t a, int nj, int cap,
                              int places);
CC_INTERNAL int cc_jcands_two(const cc_rules *view, int jp, uint64_t a, uint64_t b, int nj,
                              int cap, int places);

/* The hints of the 8 valid cards h with nj >= 2 jokers (the candidates' search);
 * natural cards (a, b) (working space; b == 0 in the first), set capacity cap; points in
 * h's raw card order. O(parts^2) per discard. */
CC_INTERNAL void cc_jcands_hints_one(const cc_rules *view, const cc_rules *rules, cc_hand h,
                                     uint64_t a, int nj, int cap, uint16_t *points);
CC_INTERNAL void cc_jcands_hints_two(const cc_rules *view, const cc_rules *rules, cc_hand h,
                                     uint64_t a, uint64_t b, int nj, int cap,
                                     uint16_t *points);

#endif /* CC_SRC_JOKER_PARTS_H */
