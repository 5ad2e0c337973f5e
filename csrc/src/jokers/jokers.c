/*
 * jokers.c -- deadwood and discard hints of one hand with jokers
 * (docs/rules.md#jokers-in-melds): the fast paths, falling back on the parts route
 * (joker_parts.c, joker_route.c). Exact, without listing whole melds (joker_parts.c,
 * "joker deadwood", has the theory). The arrangement with jokers (which melds, what
 * each joker stands for) is variants.c's candidate search; the batch rows are
 * joker_batch.c's; the hints under rules that are not plain, variants.c's.
 */
#include "chinchon.h"

#include <string.h>

#include "base/bits.h"
#include "base/hand.h"
#include "base/space.h"
#include "jokers/joker_parts.h"
#include "jokers/joker_route.h"
#include "jokers/jokers.h"
#include "melds/hints.h"
#include "melds/melds.h"

/* ------------------------------------------------------------------ fast paths */

/* The places of every lane (a mask of the working space). O(1). */
CC_INLINE uint64_t places_mask(int places)
{
    return places == 10 ? UINT64_C(0x03FF03FF03FF03FF) : CC_LANE_MASK;
}

/* The heaviest part (its points; *part: its cards, one copy each) of natural cards
 * (a, b) that hold no natural meld; -1 when there is none. Without a natural meld a
 * rank is held at most twice and a suit's blocks of consecutive places are at most two
 * long, so the heaviest parts are: a rank held twice, or the blocks on both sides of
 * one empty place g (the joker's), >= 2 cards in all. Points are >= 0, so a part's
 * subsets weigh no more and only these need weighing. places: the lanes' places.
 * O(ranks held twice + such places), a few each. */
CC_INLINE int cc_jbest_part(const cc_rules *view, uint64_t a, uint64_t b, uint64_t places,
                            uint64_t *part)
{
    uint64_t pairs = cc_ranks_twice(a, b);
    uint64_t left1 = a << 1, left2 = a << 2, right1 = a >> 1, right2 = a >> 2, g;
    const uint8_t *pw = view->wpoints;
    int best = -1;
    for (; pairs != 0; pairs &= pairs - 1) {
        int r = cc_ctz(pairs), w = 2 * view->points[r]; /* a rank held exactly twice */
        if (w > best) {
            best = w;
            *part = a & ((UINT64_C(1) << r) * CC_LANES);
        }
    }
    /* empty places with >= 2 cards in the blocks beside them (a block is <= 2 long);
       lane edges need no care: bits 12-15 of a lane are never cards */
    for (g = ~a & places & ((left1 & left2) | (right1 & right2) | (left1 & right1)); g != 0;
         g &= g - 1) {
        /* branch-free: bit i +- 1, 2 held (i <= 59, so i + 2 < 64; below bit 0 the shift
           wraps to bits 62-63, never cards), and the points of their places (wpoints
           has a lane's 16 places, the ones past 11 zero: in bounds either way) */
        int i = cc_ctz(g);
        unsigned l1 = (unsigned)(a >> ((i - 1) & 63)) & 1u, r1 = (unsigned)(a >> (i + 1)) & 1u;
        unsigned l2 = l1 & (unsigned)(a >> ((i - 2) & 63)), r2 = r1 & (unsigned)(a >> (i + 2));
        int w = (int)(l1 * pw[(i - 1) & 15] + (l2 & 1u) * pw[(i - 2) & 15] +
                      r1 * pw[(i + 1) & 15] + (r2 & 1u) * pw[(i + 2) & 15]);
        uint64_t bit = UINT64_C(1) << i;
        uint64_t m = ((uint64_t)l1 * (bit >> 1)) | ((uint64_t)(l2 & 1u) * (bit >> 2)) |
                     ((uint64_t)r1 * (bit << 1)) | ((uint64_t)(r2 & 1u) * (bit << 2));
        *part = w > best ? m : *part;
        best = w > best ? w : best;
    }
    return best;
}


/* How the deadwood with jokers is found (the parts route: joker_parts.c). Most hands
 * hold no natural meld, and then a part is small and found without listing parts: a
 * rank held twice, or the blocks (<= 2 long) beside one empty place (cc_jbest_part);
 * with two jokers, the parts of such a hand (cc_jnomeld_parts), or in a large batch
 * per-lane tables (joker_batch.c). With one joker and natural melds that do not
 * compete, the loose cards usually decide it (cc_jone_beside). The rest takes the parts
 * route. */

/* Parts of natural cards (a, b) (working space) that hold no natural meld, for the
 * two-joker search: every rank held twice (both copies), and for every empty place g
 * with >= 2 cards in the blocks beside it (each block <= 2 long: no meld), each choice
 * of 0-2 top cards of the block below and 0-2 bottom cards of the block above, >= 2 in
 * all, the joker at g (the smaller choices matter when the other joker's part takes a
 * card). A joker never stands for a card held here: with its two neighbours that card
 * would make a natural run. pm: the lanes' places. Returns the count (<= 40: <= 6
 * natural cards give <= 3 ranks held twice and <= 5 such places of <= 6 choices).
 * O(parts). */
#define CC_NM_MAX 48
CC_FORCE_INLINE int cc_jnomeld_parts(const cc_rules *view, uint64_t a, uint64_t b,
                                     uint64_t pm, uint64_t *po, uint64_t *pt, int *pw)
{
    uint64_t x, left1 = a << 1, left2 = a << 2, right1 = a >> 1, right2 = a >> 2;
    const uint8_t *w = view->wpoints;
    int n = 0;
    for (x = cc_ranks_twice(a, b); x != 0; x &= x - 1) {
        uint64_t col = (x & (~x + 1)) * CC_LANES;
        po[n] = a & col;
        pt[n] = b & col;
        pw[n] = 2 * w[cc_ctz(x)];
        n++;
    }
    for (x = ~a & pm & ((left1 & left2) | (right1 & right2) | (left1 & right1)); x != 0;
         x &= x - 1) {
        uint64_t bit = x & (~x + 1), lm[3] = {0, 0, 0}, rm[3] = {0, 0, 0};
        int i = cc_ctz(x), lw[3] = {0, 0, 0}, rw[3] = {0, 0, 0}, nl = 0, nr = 0, li, ri;
        if (a & (bit >> 1)) {
            nl = 1;
            lm[1] = bit >> 1;
            lw[1] = w[(i - 1) & 15];
            if (a & (bit >> 2)) {
                nl = 2;
                lm[2] = lm[1] | (bit >> 2);
                lw[2] = lw[1] + w[(i - 2) & 15];
            }
        }
        if (a & (bit << 1)) {
            nr = 1;
            rm[1] = bit << 1;
            rw[1] = w[(i + 1) & 15];
            if (a & (bit << 2)) {
                nr = 2;
                rm[2] = rm[1] | (bit << 2);
                rw[2] = rw[1] + w[(i + 2) & 15];
            }
        }
        for (li = 0; li <= nl; li++)
            for (ri = (li >= 2 ? 0 : 2 - li); ri <= nr && n < CC_NM_MAX; ri++) {
                po[n] = lm[li] | rm[ri];
                pt[n] = 0;
                pw[n] = lw[li] + rw[ri];
                n++;
            }
    }
    return n;
}

/* The heaviest part (*w1) and heaviest two parts that fit together (*w2) of natural
 * cards (a, b) that hold no natural meld (-1: none), of the parts above. O(parts^2), a
 * handful of parts in most hands. */
CC_FORCE_INLINE void cc_jnomeld_w(const cc_rules *view, uint64_t a, uint64_t b, uint64_t pm,
                                  int *w1, int *w2)
{
    uint64_t po[CC_NM_MAX], pt[CC_NM_MAX];
    int pw[CC_NM_MAX], n = cc_jnomeld_parts(view, a, b, pm, po, pt, pw), i, j;
    *w1 = -1;
    *w2 = -1;
    for (i = 0; i < n; i++) {
        *w1 = pw[i] > *w1 ? pw[i] : *w1;
        for (j = i; j < n; j++) { /* i == j: a part held twice, in two decks */
            int w = pw[i] + pw[j];
            if (w > *w2 && ((pt[i] & po[j]) | (po[i] & pt[j]) | (po[i] & po[j] & ~b)) == 0)
                *w2 = w;
        }
    }
}

/* Deadwood of natural cards (a, b) that hold no natural meld with nj >= 2 jokers: of the
 * parts above, none, the heaviest, or the heaviest two that fit together take a joker
 * each (a third joker has no meld of its own: <= 8 cards make <= 2 melds). total: the
 * natural cards' points. O(parts^2). */
CC_FORCE_INLINE int cc_jnomeld_two(const cc_rules *view, int jp, uint64_t a, uint64_t b,
                                   int nj, int total, uint64_t pm)
{
    int w1, w2, gain = 0; /* points (jokers included) the melded jokers save */
    cc_jnomeld_w(view, a, b, pm, &w1, &w2);
    if (w1 >= 0)
        gain = jp + w1;
    if (w2 >= 0 && 2 * jp + w2 > gain)
        gain = 2 * jp + w2;
    return total + nj * jp - gain;
}

/* The least points the natural melds leave out to take exactly k = 0, 1, 2 jokers
 * (cost[k]; CC_JNO_COST: cannot), with one more meld whose own costs are m0, m1, m2.
 * Min-plus, O(1). */
#define CC_JNO_COST (1 << 20)
CC_INLINE void cc_jtake(int *cost, int m0, int m1, int m2)
{
    int m[3], out[3], i, k;
    m[0] = m0;
    m[1] = m1;
    m[2] = m2;
    for (k = 0; k <= 2; k++) {
        out[k] = CC_JNO_COST;
        for (i = 0; i <= k; i++)
            if (cost[i] + m[k - i] < out[k])
                out[k] = cost[i] + m[k - i];
    }
    for (k = 0; k <= 2; k++)
        cost[k] = out[k];
}

/* Two jokers and more beside natural melds that do not compete, when no loose card can
 * share a meld with a meld card (same rank, or same suit within 4 places: see
 * cc_jone_beside), -1 otherwise. Then every meld is the natural melds' cards with
 * jokers, or loose cards with a joker, and the deadwood is the loose cards' points less
 * the 0, 1 or 2 loose parts that take a joker, plus the jokers left over, plus what the
 * natural melds leave out to take the others (cc_jtake). O(parts^2) of the loose
 * cards. */
CC_FORCE_INLINE int cc_jtwo_beside(const cc_rules *view, int jp, uint64_t a, uint64_t b, int nj,
                                   int cap, uint64_t runs, uint64_t sets, uint64_t pm, int two)
{
    uint64_t meld = a & (runs | sets), u = a & ~meld, ub = two ? b & ~sets : 0, x;
    uint64_t cols = (meld | (meld >> 16) | (meld >> 32) | (meld >> 48)) & CC_RANK_MASK;
    uint64_t near = (meld << 1) | (meld << 2) | (meld << 3) | (meld << 4) | (meld >> 1) |
                    (meld >> 2) | (meld >> 3) | (meld >> 4) | (cols * CC_LANES);
    uint64_t rc = a & runs;
    int cost[3] = {0, CC_JNO_COST, CC_JNO_COST}, pu, w1, w2, best, k;
    if ((u & near) != 0)
        return -1;
    /* the points the natural melds leave out to take k jokers: a run takes one (an
       empty end), or two from four cards (split in halves of >= 2 with a joker each);
       a set below the capacity the same; one deck's full set of four takes two (two
       pairs), or one by leaving a card out */
    for (x = rc & ~(rc << 1); x != 0; x &= x - 1) { /* each run's lowest card */
        uint64_t lo = x & (~x + 1);
        cc_jtake(cost, 0, 0, (lo & (rc >> 1) & (rc >> 2) & (rc >> 3)) != 0 ? 0 : CC_JNO_COST);
    }
    for (x = sets & CC_RANK_MASK; x != 0; x &= x - 1) {
        uint64_t col = (x & (~x + 1)) * CC_LANES;
        int size = cc_popcount(a & col) + (two ? cc_popcount(b & col) : 0);
        if (size >= cap) /* one deck's four suits */
            cc_jtake(cost, 0, view->points[cc_ctz(x)], 0);
        else
            cc_jtake(cost, 0, 0, size >= 4 ? 0 : CC_JNO_COST);
    }
    pu = cc_wpop(view, u) + (two ? cc_wpop(view, ub) : 0);
    cc_jnomeld_w(view, u, ub, pm, &w1, &w2);
    best = 1 << 20;
    for (k = 0; k <= 2 && k <= nj; k++) { /* k loose parts take a joker */
        int w = k == 0 ? 0 : k == 1 ? w1 : w2, m;
        if (w < 0)
            continue;
        for (m = 0; m <= 2 && k + m <= nj; m++) { /* m go to the natural melds */
            int d = pu - w + cost[m] + jp * (nj - k - m);
            best = d < best ? d : best;
        }
    }
    return best;
}

/* One joker beside natural melds that do not compete (the house kernel's fast path:
 * its melds are every run card and set card, the rest U is loose and stays loose in
 * any arrangement). The joker left out, joined to a meld with room (any run: a run of
 * <= 7 natural cards has an empty place at an end; a set below the capacity), or
 * completing the heaviest part of U (which holds no meld: cc_jbest_part) gives
 * deadwood c. A part that takes a meld card instead leaves at least U's points less
 * those of the loose cards R it can share a meld with -- same rank as a meld card, or
 * same suit within 4 places (a part spans one missing place and loose blocks of <= 2
 * cards) -- so when c is within that bound it is the deadwood; else returns -1 (the
 * parts route decides). O(1). */
CC_FORCE_INLINE int cc_jone_beside(const cc_rules *view, int jp, uint64_t a, uint64_t b, int cap,
                                   uint64_t runs, uint64_t sets, uint64_t pm, int two)
{
    uint64_t meld = a & (runs | sets), u = a & ~meld, ub = two ? b & ~sets : 0, part;
    uint64_t cols = (meld | (meld >> 16) | (meld >> 32) | (meld >> 48)) & CC_RANK_MASK;
    uint64_t near = (meld << 1) | (meld << 2) | (meld << 3) | (meld << 4) | (meld >> 1) |
                    (meld >> 2) | (meld >> 3) | (meld >> 4) | (cols * CC_LANES);
    int pu = cc_wpop(view, u) + (two ? cc_wpop(view, ub) : 0), c = pu + jp, w1;
    int room = (a & runs) != 0;
    if (!room) {
        /* sets only: one deck's set of four suits is full (two decks: no set of 8) */
        uint64_t full = cap > 4 ? 0
                                : (a & (a >> 16) & (a >> 32) & (a >> 48) & CC_RANK_MASK) *
                                      CC_LANES;
        room = (sets & ~full) != 0;
    }
    if (room)
        c = pu;
    w1 = cc_jbest_part(view, u, ub, pm, &part);
    if (w1 >= 0 && pu - w1 < c)
        c = pu - w1;
    if (c <= pu - cc_wpop(view, u & near) - (two ? cc_wpop(view, ub & near) : 0))
        return c;
    return -1;
}

/* Deadwood of natural cards (a, b) (working space) with nj jokers, set capacity cap:
 * the house kernel's masks, then, with one joker and no natural meld (most hands), the
 * heaviest part; else the parts route. Inlined per deck count (two == 0: b == 0
 * folded). O(1) on the fast path. */
CC_FORCE_INLINE int cc_jdeadwood(const cc_rules *view, int jp, uint64_t a, uint64_t b, int nj,
                                 int cap, int places, int two)
{
    uint64_t runs, sets;
    int best;
    if (!two)
        b = 0;
    runs = cc_run_cards(a);
    sets = cc_set_columns(a, b);
    if (nj == 1 && (a & (runs | sets)) == 0) {
        /* no natural meld: the rest beside any part holds none either, so the least
           deadwood melds the heaviest part */
        uint64_t part;
        int total = cc_wpop(view, a) + (two ? cc_wpop(view, b) : 0);
        int w = cc_jbest_part(view, a, b, places_mask(places), &part);
        return w >= 0 ? total - w : total + jp;
    }
    if (nj >= 2 && (a & (runs | sets)) == 0) {
        /* no natural meld, two jokers or more */
        int total = cc_wpop(view, a) + (two ? cc_wpop(view, b) : 0);
        return cc_jnomeld_two(view, jp, a, b, nj, total, places_mask(places));
    }
    if (!cc_sets_runs_compete(a, b, runs, sets)) {
        int d = nj == 1 ? cc_jone_beside(view, jp, a, b, cap, runs, sets, places_mask(places),
                                         two)
                        : cc_jtwo_beside(view, jp, a, b, nj, cap, runs, sets,
                                         places_mask(places), two);
        if (d >= 0)
            return d;
    }
    if (nj >= 2)
        return two ? cc_jcands_two(view, jp, a, b, nj, cap, places)
                   : cc_jcands_one(view, jp, a, nj, cap, places);
    best = cc_melds_deadwood_masks(view, a, b, runs, sets) + nj * jp;
    if (nj == 0)
        return best;
    return two ? cc_jparts_two(view, jp, a, b, nj, cap, places, best, runs, sets)
               : cc_jparts_one(view, jp, a, nj, cap, places, best, runs, sets);
}

/* cc_jdeadwood out of line, one copy per deck count (b == 0 folded in the first). */
static int cc_jdeadwood_one(const cc_rules *view, const cc_rules *rules, uint64_t a,
                            uint64_t b, int nj, int cap)
{
    (void)b;
    return cc_jdeadwood(view, rules->joker_points, a, 0, nj, cap,
                        rules->deck == 40 ? 10 : CC_NRANKS, 0);
}

static int cc_jdeadwood_two(const cc_rules *view, const cc_rules *rules, uint64_t a,
                            uint64_t b, int nj, int cap)
{
    return cc_jdeadwood(view, rules->joker_points, a, b, nj, cap,
                        rules->deck == 40 ? 10 : CC_NRANKS, 1);
}

/* Deadwood of natural cards (a, b) (working space; b == 0 with one deck) and nj >= 1
 * jokers, set capacity cap (view: cc_view(rules)). */
int cc_joker_deadwood(const cc_rules *view, const cc_rules *rules, uint64_t a, uint64_t b,
                      int nj, int cap)
{
    return b == 0 ? cc_jdeadwood_one(view, rules, a, 0, nj, cap)
                  : cc_jdeadwood_two(view, rules, a, b, nj, cap);
}

/* Hint points of a valid 8-card hand holding a joker, raw card order (a copy held twice
 * listed twice), set capacity cap. The parts of the 7 or fewer natural cards are listed
 * once: discarding a natural card x leaves the parts without x, so each term of
 * cc_jdeadwood becomes a removal pass over nat - N (one house hints pass each);
 * discarding a joker leaves the natural cards whole, with one joker less. Inlined per
 * deck count. O(parts) house hints passes, plus O(parts^2) pairs with two jokers. */
CC_FORCE_INLINE void cc_jhints(const cc_rules *view, const cc_rules *rules, cc_hand h, int cap,
                               uint16_t *points, int two)
{
    uint64_t jm = rules->joker_mask, a, b, x, meld;
    int jp = rules->joker_points, places = rules->deck == 40 ? 10 : CC_NRANKS;
    int nj = cc_popcount(h.once & jm) + cc_popcount(h.twice & jm), k = 0;
    a = cc_space_compact(rules->deck, h.once & ~jm);
    b = two ? cc_space_compact(rules->deck, h.twice & ~jm) : 0;
    meld = a & (cc_run_cards(a) | cc_set_columns(a, b));
    if (nj == 1 && meld == 0) {
        /* no natural meld (nor in any rest): discarding x melds the heaviest part
           without x -- the heaviest of all unless x is in it -- and discarding the
           joker leaves the points */
        uint64_t part = 0, part_x;
        int total = cc_wpop(view, a) + (two ? cc_wpop(view, b) : 0);
        uint64_t pm = places_mask(places);
        int w = cc_jbest_part(view, a, b, pm, &part);
        for (x = h.once; x != 0; x &= x - 1) {
            int c = cc_ctz(x), d, copies = 1 + (int)((h.twice >> c) & 1u);
            if ((jm >> c) & 1u) {
                d = total;
            } else {
                int wc = cc_space_wbit(rules->deck, c);
                uint64_t bit = UINT64_C(1) << wc;
                int wx = w;
                if (w < 0) {
                    wx = -jp; /* no part: the joker stays unmatched */
                } else if (part & bit) {
                    wx = two && (b & bit) ? cc_jbest_part(view, a, b ^ bit, pm, &part_x)
                                          : cc_jbest_part(view, a ^ bit, two ? b : 0, pm,
                                                          &part_x);
                    if (wx < 0)
                        wx = -jp;
                }
                d = total - view->points[wc & 15] - wx;
            }
            points[k++] = (uint16_t)d;
            if (copies == 2)
                points[k++] = (uint16_t)d;
        }
        return;
    }
    if (nj >= 2 && two)
        cc_jcands_hints_two(view, rules, h, a, b, nj, cap, points);
    else if (nj >= 2)
        cc_jcands_hints_one(view, rules, h, a, nj, cap, points);
    else if (two)
        cc_jroute_hints_two(view, rules, h, a, b, cap, meld, points);
    else
        cc_jroute_hints_one(view, rules, h, a, cap, meld, points);
}

/* cc_jhints out of line, one copy per deck count. */
void cc_joker_hints_one(const cc_rules *view, const cc_rules *rules, cc_hand h, int cap,
                          uint16_t *points)
{
    cc_jhints(view, rules, h, cap, points, 0);
}

void cc_joker_hints_two(const cc_rules *view, const cc_rules *rules, cc_hand h, int cap,
                          uint16_t *points)
{
    cc_jhints(view, rules, h, cap, points, 1);
}
