/*
 * melds.c -- the meld search: deadwood, best arrangement, closing outcome, discard
 * hints, their batch forms, and the candidate-meld enumeration.
 *
 * How it works. A hand of <= 8 cards holds at most two disjoint melds. Two masks decide
 * almost every hand at once:
 *   runs = every card in a segment of >= 3 consecutive ranks of its suit (all four
 *          suits at once: s = a & a>>1 & a>>2, runs = s | s<<1 | s<<2; the zero bits
 *          12-15 of each lane stop segments at the lane edge);
 *   sets = every card of a rank held >= 3 times (copies included).
 * When no card of `sets` lies in `runs` and no card held twice lies in `runs`, the two
 * never compete: melding every card of both is optimal, and it is the only optimal
 * arrangement (same points, most cards, fewest melds), so the tie-break has nothing to
 * choose. The deadwood is then the weighted popcount of the rest. Otherwise (about 1
 * uniform hand in 100, most meld-rich ones) the deadwood alone -- no tie-break -- comes
 * from a few masks per set rank (cc_conflict_dw), and the arrangement from an
 * exhaustive search over the candidate melds and all their pairs, scanning candidates
 * in ascending key order so the first best is the one the tie-break wants.
 */
#include "chinchon.h"

#include <string.h>

#include "bits.h"

#define CC_RANK_MASK UINT64_C(0xFFF)

/* ------------------------------------------------------------------------------ */
/* Masks                                                                          */

/* Cards of a that lie in some run (a segment of >= 3 in one suit).
 * Six shifts/ands, all suits at once. */
CC_INLINE uint64_t cc_run_cards(uint64_t a)
{
    uint64_t s = a & (a >> 1) & (a >> 2);
    return s | (s << 1) | (s << 2);
}

/* Columns (ranks, broadcast to all four lanes) of ranks held >= 3 times, copies counted.
 * About 20 operations; a must be a valid hand (bits 60-63 clear). */
CC_INLINE uint64_t cc_set_columns(uint64_t a, uint64_t b)
{
    uint64_t l0 = a & CC_RANK_MASK, l1 = (a >> 16) & CC_RANK_MASK;
    uint64_t l2 = (a >> 32) & CC_RANK_MASK, l3 = a >> 48;
    uint64_t ge3 = (l0 & l1 & (l2 | l3)) | (l2 & l3 & (l0 | l1));
    /* once + twice >= 3 <=> once >= 3, or once >= 2 with a copy (twice within once);
     * branch-free: with two decks b is zero in most hands, but not predictably */
    uint64_t ge2 = (l0 & l1) | (l2 & l3) | ((l0 | l1) & (l2 | l3));
    uint64_t t1 = (b | (b >> 16) | (b >> 32) | (b >> 48)) & CC_RANK_MASK;
    return (ge3 | (ge2 & t1)) * CC_LANES;
}

/* Validate a hand for the meld search without the count pointer: lanes, subset, <= max.
 * O(1). */
CC_INLINE cc_status cc_validate(uint64_t a, uint64_t b, int max_cards, int *n)
{
    if (((a | b) & ~CC_LANE_MASK) != 0)
        return CC_ERR_LANE_BITS;
    if ((b & ~a) != 0)
        return CC_ERR_TWICE_NOT_SUBSET;
    *n = cc_popcount(a) + cc_popcount(b);
    return *n > max_cards ? CC_ERR_TOO_MANY_CARDS : CC_OK;
}

/* ------------------------------------------------------------------------------ */
/* Candidate enumeration (ascending key order)                                    */

typedef struct cc_emit_ctx {
    cc_meld *out;
    int cap;
    int n;
} cc_emit_ctx;

/* Record one candidate (stored only while it fits in the caller's buffer).
 * O(1). */
static void cc_emit(cc_emit_ctx *c, uint64_t once, uint64_t twice, int kind)
{
    if (c->n < c->cap) {
        c->out[c->n].cards.once = once;
        c->out[c->n].cards.twice = twice;
        c->out[c->n].kind = (uint8_t)kind;
    }
    c->n++;
}

/* Sets that extend (once, twice) of `size` cards by cards idx[start..n) (ascending, a
 * copy listed twice): depth-first, each set emitted before its extensions and choices
 * in ascending card order, which is ascending key order. O(sets emitted). */
static void cc_sets_dfs(cc_emit_ctx *c, const int *idx, int n, int start, uint64_t once,
                        uint64_t twice, int size)
{
    int i;
    if (size >= 3)
        cc_emit(c, once, twice, CC_SET);
    for (i = start; i < n; i++) {
        uint64_t bit;
        if (i > start && idx[i] == idx[i - 1])
            continue; /* the same card again at this depth: same sets as before */
        bit = UINT64_C(1) << idx[i];
        if (once & bit)
            cc_sets_dfs(c, idx, n, i + 1, once, twice | bit, size + 1);
        else
            cc_sets_dfs(c, idx, n, i + 1, once | bit, twice, size + 1);
    }
}

/* Every candidate meld of a valid hand in ascending key order (see chinchon.h).
 * O(candidates): for each lowest card f, sets holding f twice, runs from f, sets
 * holding f once -- their keys start (f,f..), (f,f+1..), (f,f+16s..) respectively. */
int cc_enumerate_melds(cc_hand h, cc_meld *out, int cap)
{
    uint64_t a = h.once, b = h.twice;
    uint64_t setcols, starts, x;
    cc_emit_ctx c;
    if (((a | b) & ~CC_LANE_MASK) != 0 || (b & ~a) != 0)
        return -1;
    c.out = out;
    c.cap = (out == NULL || cap < 0) ? 0 : cap;
    c.n = 0;
    setcols = cc_set_columns(a, b);
    starts = a & (a >> 1) & (a >> 2);
    /* only cards that can start a meld: a set card or a run start, ascending */
    for (x = a & (setcols | starts); x != 0; x &= x - 1) {
        int f = cc_ctz(x), r = f & 15, s = f >> 4, n_idx = 0, u;
        uint64_t fbit = x & (~x + 1);
        int idx[8];
        if (setcols & fbit) {
            for (u = s + 1; u < CC_NSUITS; u++) {
                uint64_t g = UINT64_C(1) << (16 * u + r);
                if (a & g)
                    idx[n_idx++] = 16 * u + r;
                if (b & g)
                    idx[n_idx++] = 16 * u + r;
            }
            if (b & fbit)
                cc_sets_dfs(&c, idx, n_idx, 0, fbit, fbit, 2);
        }
        if (starts & fbit) {
            int len;
            for (len = 3; r + len <= CC_NRANKS && ((a >> (f + len - 1)) & 1u); len++)
                cc_emit(&c, ((UINT64_C(1) << len) - 1) << f, 0, CC_RUN);
        }
        if (setcols & fbit)
            cc_sets_dfs(&c, idx, n_idx, 0, fbit, 0, 1);
    }
    return c.n;
}

/* ------------------------------------------------------------------------------ */
/* Exhaustive search                                                              */

/* Whether melds x and y fit in the hand together (multiset-disjoint within it);
 * each alone is known to fit. O(1). */
CC_INLINE int cc_pair_fits(uint64_t b, const cc_meld *x, const cc_meld *y)
{
    uint64_t o1 = x->cards.once, t1 = x->cards.twice, o2 = y->cards.once, t2 = y->cards.twice;
    if (((t1 & o2) | (o1 & t2)) != 0)
        return 0; /* some card three times */
    return ((o1 & o2 & ~b) == 0);
}

/* Best collection of disjoint candidates under the tie-break of docs/design.md; writes
 * the chosen candidate indices (-1 for none) and returns the melded points.
 * O(k^2) for k candidates (k <= 66). Candidates in ascending key order and strict
 * improvement make the first best pair (i <= j) the smallest tuple of keys. */
static int cc_search(const cc_rules *rules, uint64_t a, uint64_t b, cc_meld *cand, int *bi,
                     int *bj)
{
    cc_hand h;
    int pts[CC_MAX_CANDIDATES], cnt[CC_MAX_CANDIDATES];
    int k, i, j, n_cards, best, best_pts = 0;
    h.once = a;
    h.twice = b;
    k = cc_enumerate_melds(h, cand, CC_MAX_CANDIDATES);
    if (k > CC_MAX_CANDIDATES)
        k = CC_MAX_CANDIDATES; /* unreachable for <= 8 cards; keeps the bound explicit */
    n_cards = cc_popcount(a) + cc_popcount(b);
    /* score = points << 8 | cards << 2 | (2 - melds): larger is better */
    best = 2;
    *bi = -1;
    *bj = -1;
    for (i = 0; i < k; i++) {
        int score;
        pts[i] = cc_wpop(rules, cand[i].cards.once) + cc_wpop(rules, cand[i].cards.twice);
        cnt[i] = cc_popcount(cand[i].cards.once) + cc_popcount(cand[i].cards.twice);
        score = (pts[i] << 8) | (cnt[i] << 2) | 1;
        if (score > best) {
            best = score;
            best_pts = pts[i];
            *bi = i;
        }
    }
    for (i = 0; i < k; i++) {
        for (j = i; j < k; j++) {
            int score;
            if (cnt[i] + cnt[j] > n_cards || !cc_pair_fits(b, &cand[i], &cand[j]))
                continue;
            score = ((pts[i] + pts[j]) << 8) | ((cnt[i] + cnt[j]) << 2);
            if (score > best) {
                best = score;
                best_pts = pts[i] + pts[j];
                *bi = i;
                *bj = j;
            }
        }
    }
    return best_pts;
}

/* Remove the cards of meld m (a multiset within the hand) from hand (a, b).
 * O(1). */
CC_INLINE void cc_remove_meld(uint64_t *a, uint64_t *b, const cc_meld *m)
{
    uint64_t o = m->cards.once, t = m->cards.twice;
    *a = (*a & ~o) | (*b & o & ~t); /* a card held twice, taken once, stays held */
    *b &= ~o;
}

/* Best arrangement by the exhaustive search. O(k^2), k candidates (k <= 66). */
static void cc_best_slow(const cc_rules *rules, uint64_t a, uint64_t b, cc_arrangement *out)
{
    cc_meld cand[CC_MAX_CANDIDATES];
    int bi, bj, melded;
    uint64_t ua = a, ub = b;
    melded = cc_search(rules, a, b, cand, &bi, &bj);
    memset(out->melds, 0, sizeof out->melds); /* unused slots read as zero */
    out->n_melds = 0;
    if (bi >= 0) {
        out->melds[out->n_melds++] = cand[bi];
        cc_remove_meld(&ua, &ub, &cand[bi]);
    }
    if (bj >= 0) {
        out->melds[out->n_melds++] = cand[bj];
        cc_remove_meld(&ua, &ub, &cand[bj]);
    }
    out->unmatched.once = ua;
    out->unmatched.twice = ub;
    out->points = cc_wpop(rules, a) + cc_wpop(rules, b) - melded;
}

/* ------------------------------------------------------------------------------ */
/* Deadwood where sets and runs compete                                           */

/* Keep the least deadwood v of a shape whose unmatched cards (one copy each) are u; on
 * a tie add u to *av, the cards some best shape leaves unmatched. O(1). */
CC_INLINE void cc_take(int v, uint64_t u, int *best, uint64_t *av)
{
    if (v < *best) {
        *best = v;
        *av = u;
    } else if (v == *best) {
        *av |= u;
    }
}

/* Exact deadwood of a valid hand of <= 8 cards whose sets and runs compete, given
 * runs = cc_run_cards(a) and sets = cc_set_columns(a, b); *av gets the cards (one copy)
 * that some best collection found leaves unmatched. No tie-break is needed for the
 * points alone, so instead of every candidate pair it takes the least deadwood of the
 * few collection shapes that can be best (<= 2 melds; the <= 5 cards left beside a set
 * or run hold one run segment at most):
 *   - every run card of a (any runs using one copy of each card: <= 2 segments);
 *   - every set card (one or two full sets);
 *   - a full set rank R, plus the run cards of what is left;
 *   - R less one copy of a run card y (R of >= 4 cards), plus the runs of the rest and y;
 *   - two decks: a run r1 from the start of a block of a through a card held twice,
 *     plus the runs of what is left (the lower of two runs sharing copies can start
 *     there: the cards below it are free).
 * Any <= 2 disjoint melds fit one of these shapes with no less deadwood, and each shape
 * is a legal collection. With b == 0 (inlined as such) each shape costs a run mask and
 * one weighted popcount: <= 2 set ranks x <= 5 shapes; two decks add one per such r1
 * (<= 6). */
CC_FORCE_INLINE int cc_conflict_dw(const cc_rules *rules, uint64_t a, uint64_t b,
                                   uint64_t runs, uint64_t sets, uint64_t *av)
{
    int best = cc_wpop(rules, a & ~runs) + cc_wpop(rules, b);
    uint64_t x;
    *av = (a & ~runs) | b;
    cc_take(cc_wpop(rules, a & ~sets) + cc_wpop(rules, b & ~sets), a & ~sets, &best, av);
    for (x = sets & CC_RANK_MASK; x != 0; x &= x - 1) {
        uint64_t col = (x & (~x + 1)) * CC_LANES, rest = a & ~col, bo = b & ~col, u, y;
        int wb = cc_wpop(rules, bo); /* second copies outside R stay unmatched */
        u = rest & ~cc_run_cards(rest);
        cc_take(cc_wpop(rules, u) + wb, u | bo, &best, av);
        if (cc_popcount(a & col) + cc_popcount(b & col) < 4)
            continue; /* a set of 3 less a card is no set */
        for (y = a & col & runs; y != 0; y &= y - 1) {
            uint64_t r = rest | (y & (~y + 1));
            u = r & ~cc_run_cards(r);
            cc_take(cc_wpop(rules, u) + wb, u | bo, &best, av);
        }
    }
    if ((b & runs) != 0) {
        /* two runs sharing cards held twice: r1 the one starting lower, stretched down
         * to the start of its block of a (those cards are free), through a copy */
        uint64_t starts;
        for (starts = runs & ~(a << 1); starts != 0; starts &= starts - 1) {
            int f = cc_ctz(starts), len;
            for (len = 3; ((a >> (f + len - 1)) & 1u) != 0; len++) {
                uint64_t r1 = ((UINT64_C(1) << len) - 1) << f, rem, u;
                if ((r1 & b) == 0)
                    continue;
                rem = (a & ~r1) | (b & r1);
                u = rem & ~cc_run_cards(rem);
                cc_take(cc_wpop(rules, u) + cc_wpop(rules, b & ~r1), u | (b & ~r1), &best, av);
            }
        }
    }
    return best;
}

/* cc_conflict_dw of a single-deck hand (b == 0 folded away), deadwood only.
 * <= ~10 weighted popcounts. */
static int cc_conflict_dw1(const cc_rules *rules, uint64_t a, uint64_t runs, uint64_t sets)
{
    uint64_t av;
    return cc_conflict_dw(rules, a, 0, runs, sets, &av);
}

/* cc_conflict_dw of a hand holding some card twice, deadwood only.
 * <= ~15 weighted popcounts, plus two per run through a copy from a block start (<= 6). */
static int cc_conflict_dw2(const cc_rules *rules, uint64_t a, uint64_t b, uint64_t runs,
                           uint64_t sets)
{
    uint64_t av;
    return cc_conflict_dw(rules, a, b, runs, sets, &av);
}

/* cc_conflict_dw of a single-deck hand with the avoidable cards (for the hints).
 * <= ~10 weighted popcounts. */
static int cc_conflict_av1(const cc_rules *rules, uint64_t a, uint64_t runs, uint64_t sets,
                           uint64_t *av)
{
    return cc_conflict_dw(rules, a, 0, runs, sets, av);
}

/* cc_conflict_dw of a two-deck hand with the avoidable cards (for the hints).
 * <= ~15 weighted popcounts, plus two per run through a copy from a block start (<= 6). */
static int cc_conflict_av2(const cc_rules *rules, uint64_t a, uint64_t b, uint64_t runs,
                           uint64_t sets, uint64_t *av)
{
    return cc_conflict_dw(rules, a, b, runs, sets, av);
}

/* ------------------------------------------------------------------------------ */
/* Fast path                                                                      */

/* Exact deadwood of a valid hand of <= 8 cards given its two masks runs and sets:
 * the fast path, else the conflict search. ~10 operations and 5-10 popcounts fast. */
CC_INLINE int cc_deadwood_masks(const cc_rules *rules, uint64_t a, uint64_t b, uint64_t runs,
                                uint64_t sets)
{
    uint64_t keep;
    if ((((a & sets) | b) & runs) != 0)
        return b == 0 ? cc_conflict_dw1(rules, a, runs, sets)
                      : cc_conflict_dw2(rules, a, b, runs, sets);
    keep = ~(runs | sets);
    return cc_wpop(rules, a & keep) + cc_wpop(rules, b & keep);
}

/* Exact deadwood of a valid hand of <= 8 cards: the two masks, else the conflict search.
 * ~25 operations and 5-10 popcounts on the fast path. */
CC_INLINE int cc_deadwood_core(const cc_rules *rules, uint64_t a, uint64_t b)
{
    return cc_deadwood_masks(rules, a, b, cc_run_cards(a), cc_set_columns(a, b));
}

/* Best arrangement of a valid hand of <= 8 cards (fast path, else exhaustive).
 * O(1) on the fast path. */
static void cc_best_core(const cc_rules *rules, uint64_t a, uint64_t b, cc_arrangement *out)
{
    uint64_t runs = cc_run_cards(a);
    uint64_t sets = cc_set_columns(a, b);
    uint64_t keep, x;
    cc_meld m[4];
    int n = 0;
    memset(m, 0, sizeof m);
    if ((((a & sets) | b) & runs) != 0) {
        cc_best_slow(rules, a, b, out);
        return;
    }
    keep = ~(runs | sets);
    for (x = sets & CC_RANK_MASK; x != 0 && n < 4; x &= x - 1) {
        uint64_t col = (x & (~x + 1)) * CC_LANES;
        m[n].cards.once = a & col;
        m[n].cards.twice = b & col;
        m[n].kind = CC_SET;
        n++;
    }
    for (x = runs; x != 0 && n < 4; n++) {
        uint64_t low = x & (~x + 1);
        uint64_t seg = ((x + low) ^ x) & x; /* the lowest block of consecutive ones */
        m[n].cards.once = seg;
        m[n].cards.twice = 0;
        m[n].kind = CC_RUN;
        x &= ~seg;
    }
    /* <= 8 cards: n <= 2. Disjoint cards, so the lowest card orders the keys. */
    if (n == 2 && cc_ctz(m[1].cards.once) < cc_ctz(m[0].cards.once)) {
        cc_meld t = m[0];
        m[0] = m[1];
        m[1] = t;
    }
    out->n_melds = n < CC_MAX_MELDS ? n : CC_MAX_MELDS;
    out->melds[0] = m[0];
    out->melds[1] = m[1];
    out->unmatched.once = a & keep;
    out->unmatched.twice = b & keep;
    out->points = cc_wpop(rules, a & keep) + cc_wpop(rules, b & keep);
}

/* Outcome of closing with the 7 cards (a, b) whose deadwood is d.
 * O(1). */
CC_INLINE cc_outcome cc_outcome_of(const cc_rules *rules, uint64_t a, uint64_t b, int d)
{
    if (b == 0 && a != 0 && (a >> cc_ctz(a)) == UINT64_C(0x7F))
        return CC_CHINCHON; /* seven consecutive bits can only sit in one lane */
    if (d == 0)
        return CC_MINUS_TEN;
    return d <= rules->close_limit ? CC_NORMAL : CC_CANNOT_CLOSE;
}

/* Hints of a valid 8-card hand: the deadwood after each discard, ascending card order,
 * a copy held twice listed twice. A card that some best 8-card collection leaves
 * unmatched (or that lies in no candidate meld) changes no meld choice, so its hint is
 * the 8-card deadwood minus its points: one pass writes that for every card, then only
 * the other candidate cards get a 7-card deadwood of their own (<= 8 deadwoods). */
CC_FORCE_INLINE void cc_hints_core(const cc_rules *rules, uint64_t a, uint64_t b,
                                   uint8_t *points)
{
    uint64_t runs = cc_run_cards(a);
    uint64_t sets = cc_set_columns(a, b);
    uint64_t x, avoid = 0;
    uint8_t tmp[CC_MAX_HAND + 2];
    int dw8, k = 0;
    if ((((a & sets) | b) & runs) != 0) {
        dw8 = b == 0 ? cc_conflict_av1(rules, a, runs, sets, &avoid)
                     : cc_conflict_av2(rules, a, b, runs, sets, &avoid);
    } else {
        uint64_t keep = ~(runs | sets);
        dw8 = cc_wpop(rules, a & keep) + cc_wpop(rules, b & keep);
    }
    for (x = a; x != 0; x &= x - 1) {
        int i = cc_ctz(x);
        uint8_t d = (uint8_t)(dw8 - rules->points[i & 15]);
        tmp[k] = d;
        tmp[k + 1] = d; /* overwritten next unless the card is held twice */
        k += 1 + (int)((b >> i) & 1u);
    }
    for (x = a & (runs | (a & sets)) & ~avoid; x != 0; x &= x - 1) {
        uint64_t bit = x & (~x + 1), below = bit - 1;
        uint64_t col = (UINT64_C(1) << (cc_ctz(x) & 15)) * CC_LANES;
        int pos = cc_popcount(a & below) + cc_popcount(b & below);
        uint8_t d;
        /* the 7 cards' sets: the same, less this rank when it falls to 2 copies */
        uint64_t sets7 = cc_popcount(a & col) + cc_popcount(b & col) > 3 ? sets : sets & ~col;
        if (b & bit) {
            d = (uint8_t)cc_deadwood_masks(rules, a, b ^ bit, runs, sets7);
            tmp[pos + 1] = d;
        } else {
            d = (uint8_t)cc_deadwood_masks(rules, a ^ bit, b, cc_run_cards(a ^ bit), sets7);
        }
        tmp[pos] = d;
    }
    memcpy(points, tmp, 8);
}

/* cc_hints_core of a single-deck hand (every twice term folded away).
 * One 8-card deadwood plus <= 8 seven-card ones. */
static void cc_hints1(const cc_rules *rules, uint64_t a, uint8_t *points)
{
    cc_hints_core(rules, a, 0, points);
}

/* cc_hints_core of a hand that may hold cards twice.
 * One 8-card deadwood plus <= 8 seven-card ones. */
static void cc_hints2(const cc_rules *rules, uint64_t a, uint64_t b, uint8_t *points)
{
    cc_hints_core(rules, a, b, points);
}

/* Closing outcomes matching the hints of an 8-card hand, from its hint points.
 * O(8). */
static void cc_hint_outcomes(const cc_rules *rules, uint64_t a, uint64_t b,
                             const uint8_t *points, uint8_t *outcomes)
{
    uint64_t x;
    int k = 0;
    for (x = a; x != 0; x &= x - 1) {
        uint64_t bit = x & (~x + 1);
        int held_twice = (b & bit) != 0;
        uint64_t a7 = held_twice ? a : a ^ bit, b7 = held_twice ? b ^ bit : b;
        outcomes[k] = (uint8_t)cc_outcome_of(rules, a7, b7, points[k]);
        k++;
        if (held_twice) {
            outcomes[k] = outcomes[k - 1];
            k++;
        }
    }
}

/* ------------------------------------------------------------------------------ */
/* Public entry points                                                            */

/* The checks every single-hand entry point shares: rules and result present, a valid
 * hand of at most 8 cards (its count in *n). O(1). */
static cc_status cc_entry(const cc_rules *rules, const void *out, cc_hand h, int *n)
{
    if (rules == NULL || out == NULL)
        return CC_ERR_BAD_ARGUMENT;
    return cc_validate(h.once, h.twice, CC_MAX_HAND, n);
}

/* Optimal deadwood of a hand of 0..8 cards (validated).
 * A few ns on the fast path; a few masks per set rank where sets and runs compete. */
cc_status cc_deadwood(const cc_rules *rules, cc_hand h, int *points)
{
    int n;
    cc_status st = cc_entry(rules, points, h, &n);
    if (st != CC_OK)
        return st;
    /* two inlined copies: the single-deck one drops every twice term */
    *points = h.twice == 0 ? cc_deadwood_core(rules, h.once, 0)
                           : cc_deadwood_core(rules, h.once, h.twice);
    return CC_OK;
}

/* Optimal arrangement with the documented tie-break, hand of 0..8 cards (validated).
 * O(1) on the fast path; exhaustive over candidate pairs otherwise. */
cc_status cc_best_melds(const cc_rules *rules, cc_hand h, cc_arrangement *out)
{
    int n;
    cc_status st = cc_entry(rules, out, h, &n);
    if (st != CC_OK)
        return st;
    cc_best_core(rules, h.once, h.twice, out);
    return CC_OK;
}

/* cc_best_melds without the fast path (for differential tests).
 * O(k^2), k <= 66 candidates. */
cc_status cc_best_melds_exhaustive(const cc_rules *rules, cc_hand h, cc_arrangement *out)
{
    int n;
    cc_status st = cc_entry(rules, out, h, &n);
    if (st != CC_OK)
        return st;
    cc_best_slow(rules, h.once, h.twice, out);
    return CC_OK;
}

/* Outcome of closing with exactly 7 cards (more than 8: TOO_MANY_CARDS, else
 * CARD_COUNT when not 7). One deadwood. */
cc_status cc_close_outcome(const cc_rules *rules, cc_hand h, cc_outcome *outcome)
{
    int n;
    cc_status st = cc_entry(rules, outcome, h, &n);
    if (st != CC_OK)
        return st;
    if (n != 7)
        return CC_ERR_CARD_COUNT;
    *outcome = cc_outcome_of(rules, h.once, h.twice, cc_deadwood_core(rules, h.once, h.twice));
    return CC_OK;
}

/* Discard hints of exactly 8 cards, ascending card order, a copy held twice listed
 * twice. One 8-card deadwood plus one 7-card deadwood per card in a candidate meld. */
cc_status cc_discard_hints(const cc_rules *rules, cc_hand h, uint8_t points[8],
                           uint8_t *outcomes)
{
    int n;
    cc_status st = cc_entry(rules, points, h, &n);
    if (st != CC_OK)
        return st;
    if (n != 8)
        return CC_ERR_CARD_COUNT;
    if (h.twice == 0)
        cc_hints1(rules, h.once, points);
    else
        cc_hints2(rules, h.once, h.twice, points);
    if (outcomes != NULL)
        cc_hint_outcomes(rules, h.once, h.twice, points, outcomes);
    return CC_OK;
}

/* Check the shared arguments of the batch calls. O(1). */
static cc_status cc_batch_args(const cc_rules *rules, const uint64_t *masks, size_t n,
                               int decks, const uint8_t *out)
{
    if (rules == NULL || (decks != 1 && decks != 2))
        return CC_ERR_BAD_ARGUMENT;
    if (n > 0 && (masks == NULL || out == NULL))
        return CC_ERR_BAD_ARGUMENT;
    return CC_OK;
}

/* Deadwood of n rows (0..8 cards each), validated row by row; stops at the first bad
 * row (its index in *bad_row when bad_row != NULL). O(n) fast-path deadwoods. */
cc_status cc_deadwood_batch(const cc_rules *rules, const uint64_t *masks, size_t n,
                            int decks, uint8_t *out, size_t *bad_row)
{
    size_t i;
    int cards;
    cc_status st = cc_batch_args(rules, masks, n, decks, out);
    if (st != CC_OK)
        return st;
    if (decks == 1) {
        for (i = 0; i < n; i++) {
            uint64_t a = masks[i];
            st = cc_validate(a, 0, CC_MAX_HAND, &cards);
            if (st != CC_OK)
                goto bad;
            out[i] = (uint8_t)cc_deadwood_core(rules, a, 0);
        }
    } else {
        for (i = 0; i < n; i++) {
            uint64_t a = masks[2 * i], b = masks[2 * i + 1];
            st = cc_validate(a, b, CC_MAX_HAND, &cards);
            if (st != CC_OK)
                goto bad;
            out[i] = (uint8_t)cc_deadwood_core(rules, a, b);
        }
    }
    return CC_OK;
bad:
    if (bad_row != NULL)
        *bad_row = i;
    return st;
}

/* Hints of n rows of exactly 8 cards into 8n bytes (row-major, ascending card order).
 * Stops at the first bad row. O(n) hint computations. */
cc_status cc_hints_batch(const cc_rules *rules, const uint64_t *masks, size_t n, int decks,
                         uint8_t *out, size_t *bad_row)
{
    size_t i;
    int cards;
    cc_status st = cc_batch_args(rules, masks, n, decks, out);
    if (st != CC_OK)
        return st;
    for (i = 0; i < n; i++) {
        uint64_t a = decks == 1 ? masks[i] : masks[2 * i];
        uint64_t b = decks == 1 ? 0 : masks[2 * i + 1];
        st = cc_validate(a, b, CC_MAX_HAND, &cards);
        if (st == CC_OK && cards != 8)
            st = CC_ERR_CARD_COUNT;
        if (st != CC_OK) {
            if (bad_row != NULL)
                *bad_row = i;
            return st;
        }
        if (b == 0)
            cc_hints1(rules, a, out + 8 * i);
        else
            cc_hints2(rules, a, b, out + 8 * i);
    }
    return CC_OK;
}
