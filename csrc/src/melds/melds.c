/*
 * melds.c -- the meld search: deadwood (one hand and batches), best arrangement,
 * closing outcome, and the candidate-meld enumeration (the discard hints are in hints.c;
 * the masks and the fast path they share in melds.h).
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
 * from a few masks per set rank (cc_conflict_shapes), and the arrangement from an
 * exhaustive search over the candidate melds and all their pairs, scanning candidates
 * in ascending key order so the first best is the one the tie-break wants.
 */
#include "chinchon.h"

#include <string.h>

#include "base/bits.h"
#include "base/hand.h"
#include "melds/melds.h"

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
        c->out[c->n].joker = 0;
        c->out[c->n].joker_rank = 0;
    }
    c->n++;
}

/* Sets that extend the partial set h of `size` cards by cards idx[start..n) (ascending,
 * a copy listed twice): depth-first, each set emitted before its extensions and choices
 * in ascending card order, which is ascending key order. O(sets emitted). */
static void cc_sets_dfs(cc_emit_ctx *c, const int *idx, int n, int start, cc_hand h, int size)
{
    int i;
    if (size >= 3)
        cc_emit(c, h.once, h.twice, CC_SET);
    for (i = start; i < n; i++) {
        if (i > start && idx[i] == idx[i - 1])
            continue; /* the same card again at this depth: same sets as before */
        cc_sets_dfs(c, idx, n, i + 1, cc_hand_add(h, idx[i]), size + 1);
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
    int n_cards;
    if (cc_hand_status(h, CC_ANY_COUNT, -1, &n_cards) != CC_OK)
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
        int idx[2 * CC_NSUITS];
        cc_hand f_once; /* a set so far: f alone */
        f_once.once = fbit;
        f_once.twice = 0;
        if (setcols & fbit) {
            for (u = s + 1; u < CC_NSUITS; u++) {
                uint64_t g = UINT64_C(1) << (16 * u + r);
                if (a & g)
                    idx[n_idx++] = 16 * u + r;
                if (b & g)
                    idx[n_idx++] = 16 * u + r;
            }
            if (b & fbit)
                cc_sets_dfs(&c, idx, n_idx, 0, cc_hand_add(f_once, f), 2); /* f twice */
        }
        if (starts & fbit) {
            int len;
            for (len = 3; r + len <= CC_NRANKS && ((a >> (f + len - 1)) & 1u); len++)
                cc_emit(&c, ((UINT64_C(1) << len) - 1) << f, 0, CC_RUN);
        }
        if (setcols & fbit)
            cc_sets_dfs(&c, idx, n_idx, 0, f_once, 1);
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

/* Best collection of disjoint candidates under the tie-break of
 * docs/rules.md#which-arrangement-is-reported; writes the chosen candidate indices (-1
 * for none) and returns the melded points.
 * O(k^2) for k candidates (k <= 66). Candidates in ascending key order and strict
 * improvement make the first best pair (i <= j) the smallest tuple of keys. */
static int cc_search(const cc_rules *rules, cc_hand h, cc_meld *cand, int *bi, int *bj)
{
    int pts[CC_MAX_CANDIDATES], cnt[CC_MAX_CANDIDATES];
    int k, i, j, n_cards, best, best_pts = 0;
    k = cc_enumerate_melds(h, cand, CC_MAX_CANDIDATES);
    if (k > CC_MAX_CANDIDATES)
        k = CC_MAX_CANDIDATES; /* unreachable for <= 8 cards; keeps the bound explicit */
    n_cards = cc_hand_count(h);
    /* score = points << 8 | cards << 2 | (2 - melds): larger is better */
    best = 2;
    *bi = -1;
    *bj = -1;
    for (i = 0; i < k; i++) {
        int score;
        pts[i] = cc_hand_weight(rules, cand[i].cards);
        cnt[i] = cc_hand_count(cand[i].cards);
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
            if (cnt[i] + cnt[j] > n_cards || !cc_pair_fits(h.twice, &cand[i], &cand[j]))
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

/* Best arrangement of a valid hand by the exhaustive search (cc_best_melds_exhaustive,
 * and the hands whose sets and runs compete). O(k^2), k candidates (k <= 66). */
void cc_melds_exhaustive(const cc_rules *rules, cc_hand h, cc_arrangement *out)
{
    cc_meld cand[CC_MAX_CANDIDATES];
    int bi, bj, melded;
    cc_hand left = h;
    melded = cc_search(rules, h, cand, &bi, &bj);
    memset(out->melds, 0, sizeof out->melds); /* unused slots read as zero */
    out->n_melds = 0;
    if (bi >= 0) {
        out->melds[out->n_melds++] = cand[bi];
        left = cc_hand_minus(left, cand[bi].cards);
    }
    if (bj >= 0) {
        out->melds[out->n_melds++] = cand[bj];
        left = cc_hand_minus(left, cand[bj].cards);
    }
    out->unmatched = left;
    out->points = cc_hand_weight(rules, h) - melded;
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
CC_FORCE_INLINE int cc_conflict_shapes(const cc_rules *rules, uint64_t a, uint64_t b,
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

/* Deadwood of a hand whose sets and runs compete: cc_conflict_shapes out of line,
 * inlined twice (single deck: b == 0 folded away, <= ~10 weighted popcounts; two decks:
 * <= ~15, plus two per run through a copy from a block start, <= 6). */
int cc_melds_conflict(const cc_rules *rules, uint64_t a, uint64_t b, uint64_t runs,
                         uint64_t sets)
{
    uint64_t unused; /* never read: its tracking folds away */
    return b == 0 ? cc_conflict_shapes(rules, a, 0, runs, sets, &unused)
                  : cc_conflict_shapes(rules, a, b, runs, sets, &unused);
}

/* cc_melds_conflict that also gives *av, the cards some best collection leaves
 * unmatched (for the hints). Same cost plus an OR per shape. */
int cc_melds_unmatched(const cc_rules *rules, uint64_t a, uint64_t b, uint64_t runs,
                          uint64_t sets, uint64_t *av)
{
    return b == 0 ? cc_conflict_shapes(rules, a, 0, runs, sets, av)
                  : cc_conflict_shapes(rules, a, b, runs, sets, av);
}

/* ------------------------------------------------------------------------------ */
/* Fast path                                                                      */

/* Best arrangement of a valid hand of <= 8 cards (fast path, else exhaustive).
 * O(1) on the fast path. Also the variants' kernel for hands without jokers (on the
 * working space, variants.h). */
void cc_melds_best(const cc_rules *rules, cc_hand h, cc_arrangement *out)
{
    uint64_t a = h.once, b = h.twice;
    uint64_t runs = cc_run_cards(a);
    uint64_t sets = cc_set_columns(a, b);
    uint64_t keep, x;
    cc_meld m[4];
    int n = 0;
    memset(m, 0, sizeof m);
    if (cc_sets_runs_compete(a, b, runs, sets)) {
        cc_melds_exhaustive(rules, h, out);
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

/* ------------------------------------------------------------------------------ */
/* Batch rows                                                                     */

/* Deadwood of rows 0..n-1 (see cc_batch_row) into out[]; stops at the first bad row.
 * Inlined once per deck count, so the single-deck copy drops every twice term. O(n).
 * The rows read the rules from a local copy: out[] is a byte array that may alias
 * *rules, so the planes are reloaded per row either way, and with the copy the
 * single-deck loop measured ~6% faster (AMD Zen 4, gcc 12: 3.8 vs 4.1 ns a row). */
CC_FORCE_INLINE cc_status cc_melds_rows(const cc_rules *rules, const uint64_t *masks,
                                           size_t n, int decks, uint8_t *out,
                                           size_t *bad_row)
{
    size_t i;
    const cc_rules local = *rules;
    for (i = 0; i < n; i++) {
        cc_hand h;
        cc_status st = cc_batch_row(masks, i, decks, -1, &h, bad_row);
        if (st != CC_OK)
            return st;
        out[i] = (uint8_t)cc_melds_deadwood_core(&local, h.once, h.twice);
    }
    return CC_OK;
}

/* Deadwood of n batch rows (0..8 cards each) under plain rules, validated row by row;
 * stops at the first bad row. O(n) deadwoods: a few ns a row on the fast path. */
cc_status cc_melds_deadwood_rows(const cc_rules *rules, const uint64_t *masks, size_t n,
                                 int decks, uint8_t *out, size_t *bad_row)
{
    return decks == 1 ? cc_melds_rows(rules, masks, n, 1, out, bad_row)
                      : cc_melds_rows(rules, masks, n, 2, out, bad_row);
}
