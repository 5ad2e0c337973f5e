/*
 * joker_route.c -- the parts route of the one-joker discard hints (docs/rules.md#rule-variants) for
 * the hands the fast path of jokers.c leaves: a natural meld among the natural cards.
 * Exact; the theory of parts: joker_parts.c ("joker deadwood").
 */
#include "chinchon.h"

#include <string.h>

#include "base/bits.h"
#include "base/hand.h"
#include "base/space.h"
#include "jokers/joker_parts.h"
#include "jokers/joker_route.h"
#include "melds/melds.h"

/* dj[] below holds, in a byte, the deadwood a natural card's discard leaves with one
 * joker (7 cards: the joker and 6 natural ones at most), 0xFF for none yet: the most
 * such a deadwood can be stays under 0xFF at every joker_points the rules take. */
typedef char cc_jroute_dj_fits[CC_MAX_JOKER_POINTS + 6 * CC_MAX_CARD_POINTS < 0xFF ? 1 : -1];

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
            dj[i] = (uint8_t)cc_min(dj[i], v);
        }
        return d;
    }
    runs = cc_run_cards(a);
    sets = cc_set_columns(a, b);
    if (cc_sets_runs_compete(a, b, runs, sets)) {
        d = cc_melds_unmatched(view, a, b, runs, sets, &avoid);
    } else {
        uint64_t keep = ~(runs | sets);
        d = cc_wpop(view, a & keep) + (two ? cc_wpop(view, b & keep) : 0);
    }
    hard = a & (runs | (a & sets)) & ~avoid;
    for (x = a & ~hard; x != 0; x &= x - 1) {
        int i = cc_ctz(x), v = d - view->points[i & 15] + add;
        dj[i] = (uint8_t)cc_min(dj[i], v);
    }
    for (x = hard; x != 0; x &= x - 1) {
        uint64_t bit = x & (~x + 1);
        int i = cc_ctz(x), v;
        uint64_t col = (UINT64_C(1) << (i & 15)) * CC_LANES;
        uint64_t sets7 = cc_popcount(a & col) + cc_popcount(b & col) > 3 ? sets : sets & ~col;
        if (two && (b & bit))
            v = cc_melds_deadwood_masks(view, a, b ^ bit, runs, sets7);
        else
            v = cc_melds_deadwood_masks(view, a ^ bit, b, cc_run_cards(a ^ bit), sets7);
        dj[i] = (uint8_t)cc_min(dj[i], v + add);
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
CC_FORCE_INLINE void cc_jroute_hints(const cc_rules *view, const cc_rules *rules, cc_hand h,
                                     uint64_t a, uint64_t b, int cap, uint64_t meld,
                                     uint16_t *points, int two)
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
            dj[c] = (uint8_t)cc_min(0xFF, total - view->points[c & 15] - w);
        }
        for (x = a & ~m0 & ~t1; x != 0; x &= x - 1) {
            int c = cc_ctz(x), w = w1 > m.w[0] - jp ? w1 : m.w[0] - jp;
            dj[c] = (uint8_t)cc_min(0xFF, total - view->points[c & 15] - w);
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
            dj[c] = (uint8_t)cc_min(0xFF, total - view->points[c & 15] - w);
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
                dj[c] = (uint8_t)cc_min(dj[c], total - view->points[c & 15] - tw);
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
                dj[c] = (uint8_t)cc_min(dj[c], w);
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
                    dj[c] = (uint8_t)cc_min(dj[c], v - view->points[c & 15]);
                }
                u &= kill;
            }
            for (x = u; x != 0; x &= x - 1) {
                int c = cc_ctz(x);
                dj[c] = (uint8_t)cc_min(dj[c], base - view->points[c & 15]);
            }
        }
    }
    if (!two) {
        /* one deck: the joker's place is the count of cards below it, and the natural
           cards keep their order in the working space, one place each */
        uint64_t jb = h.once & jm;
        int js = cc_popcount(h.once & ((jb & (~jb + 1)) - 1));
        points[js] = (uint16_t)djoker;
        for (x = a, k = 0; x != 0; x &= x - 1, k++)
            points[k + (k >= js)] = dj[cc_ctz(x)];
        return;
    }
    k = 0;
    for (x = h.once; x != 0; x &= x - 1) {
        int c = cc_ctz(x), d = (jm >> c) & 1u ? djoker : dj[cc_space_wbit(rules->deck, c)];
        points[k++] = (uint16_t)d;
        if ((h.twice >> c) & 1u)
            points[k++] = (uint16_t)d;
    }
}

void cc_jroute_hints_one(const cc_rules *view, const cc_rules *rules, cc_hand h, uint64_t a,
                         int cap, uint64_t meld, uint16_t *points)
{
    cc_jroute_hints(view, rules, h, a, 0, cap, meld, points, 0);
}

void cc_jroute_hints_two(const cc_rules *view, const cc_rules *rules, cc_hand h, uint64_t a,
                         uint64_t b, int cap, uint64_t meld, uint16_t *points)
{
    cc_jroute_hints(view, rules, h, a, b, cap, meld, points, 1);
}
