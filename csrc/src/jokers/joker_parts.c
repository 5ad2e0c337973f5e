/*
 * joker_parts.c -- the parts route of the joker search (docs/rules.md#rule-variants): deadwood with
 * jokers for the hands the fast paths of jokers.c leave, a natural meld beside the
 * jokers, and the two-joker candidates (deadwood and hints). Exact; the theory is below
 * ("joker deadwood"). The one-joker hints route: joker_route.c.
 */
#include "chinchon.h"

#include <string.h>

#include "base/bits.h"
#include "base/hand.h"
#include "base/space.h"
#include "jokers/joker_parts.h"
#include "melds/melds.h"

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
CC_FORCE_INLINE void cc_jcands_hints(const cc_rules *view, const cc_rules *rules, cc_hand h,
                                     uint64_t a, uint64_t b, int nj, int cap, uint16_t *points,
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
            int wc = cc_space_wbit(rules->deck, c);
            d = total + nj * jp - view->points[wc & 15] - gain[wc];
        }
        points[k++] = (uint16_t)d;
        if (copies == 2)
            points[k++] = (uint16_t)d;
    }
}

void cc_jcands_hints_one(const cc_rules *view, const cc_rules *rules, cc_hand h, uint64_t a,
                         int nj, int cap, uint16_t *points)
{
    cc_jcands_hints(view, rules, h, a, 0, nj, cap, points, 0);
}

void cc_jcands_hints_two(const cc_rules *view, const cc_rules *rules, cc_hand h, uint64_t a,
                         uint64_t b, int nj, int cap, uint16_t *points)
{
    cc_jcands_hints(view, rules, h, a, b, nj, cap, points, 1);
}
