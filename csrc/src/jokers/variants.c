/*
 * variants.c -- the meld search under the rule variants of docs/rules.md#rule-variants: the 40-card
 * deck, other point tables, jokers (the extra *1 and *2, and the wild ace of coins) and the
 * closes they make. Exact, with the tie-break of docs/rules.md#which-arrangement-is-reported.
 *
 * How it works. A hand is split into its natural cards, moved to the working space
 * (variants.h: runs are consecutive bits there with either deck), and its jokers,
 * counted per joker bit. Without a joker the house solver's kernels run unchanged on
 * the working space with the rules' working planes (a "view" of the rules). With a
 * joker, the deadwood and the hints need no whole melds: they take the least of the
 * house deadwood of the natural cards and of what each "part" a joker completes
 * leaves (jokers.c, "joker deadwood"; without a natural meld in the hand, only the
 * heaviest part). The arrangement (best_melds, settle) lists every candidate meld --
 * the natural ones (cc_enumerate_melds), every set of >= 2 natural cards of a rank plus
 * one joker (up to the set capacity), every segment of >= 3 places of a suit held but
 * for one place, where a joker stands (inside, or at either end; with the whole segment
 * held, at any of its places) -- and since 8 cards hold at most two melds, the best
 * single candidate or pair is the answer, over the candidates sorted by their keys, so
 * that the first best pair (i <= j) is the one the tie-break wants.
 */
#include "chinchon.h"

#include <string.h>

#include "base/bits.h"
#include "base/hand.h"
#include "jokers/jokers.h"
#include "jokers/variants.h"
#include "melds/hints.h"
#include "melds/melds.h"

#define CC_KEY_BYTES 16 /* a packed key (cc_vcand): <= 8 natural cards, a joker, its place */

static const uint8_t cc_joker_bits[3] = {0, CC_JOKER1_BIT, CC_JOKER2_BIT};

/* Split a valid hand (variants.h). O(1). */
void cc_var_split(const cc_rules *rules, cc_hand h, int decks, cc_vhand *v)
{
    uint64_t jm = rules->joker_mask;
    int k;
    v->a = cc_space_compact(rules->deck, h.once & ~jm);
    v->b = cc_space_compact(rules->deck, h.twice & ~jm);
    v->nj = 0;
    for (k = 0; k < 3; k++) {
        int bit = cc_joker_bits[k];
        v->jn[k] = (uint8_t)(((jm >> bit) & 1u) ? ((h.once >> bit) & 1u) + ((h.twice >> bit) & 1u)
                                                : 0u);
        v->nj += v->jn[k];
    }
    v->n = cc_popcount(h.once) + cc_popcount(h.twice);
    if (decks == 0)
        decks = h.twice != 0 ? 2 : 1;
    v->cap = 4 * decks;
}

/* ------------------------------------------------------------------ candidates */

/* Fill a candidate's count and packed key. O(cards). */
static void cc_finish(cc_vcand *c)
{
    uint8_t key[CC_KEY_BYTES];
    uint64_t m;
    int n = 0, i;
    c->pts = 0;
    c->cnt = (uint8_t)(cc_popcount(c->o) + cc_popcount(c->t) + (c->js >= 0));
    for (m = c->o; m != 0 && n < CC_KEY_BYTES - 3; m &= m - 1) {
        i = cc_ctz(m);
        key[n++] = (uint8_t)i;
        if ((c->t >> i) & 1u)
            key[n++] = (uint8_t)i;
    }
    if (c->js >= 0) {
        key[n++] = (uint8_t)(64 + cc_joker_bits[c->js]);
        if (c->kind == CC_RUN)
            key[n++] = c->stand;
    }
    c->key[0] = 0;
    c->key[1] = 0;
    for (i = 0; i < n; i++)
        c->key[i / 8] |= (uint64_t)(key[i] + 1u) << (8 * (7 - i % 8));
}

typedef struct vlist {
    cc_vcand *c;
    int n;
} vlist;

/* Append a candidate (the buffer is sized above the most any hand of 8 cards gives).
 * O(cards). */
static void cc_push(vlist *l, uint64_t o, uint64_t t, int js, int kind, int stand, int place)
{
    cc_vcand *c;
    if (l->n >= CC_VAR_MAX_CAND)
        return; /* unreachable (see CC_VAR_MAX_CAND); keeps the bound explicit */
    c = &l->c[l->n++];
    c->o = o;
    c->t = t;
    c->js = (int8_t)js;
    c->kind = (uint8_t)kind;
    c->stand = (uint8_t)stand;
    c->place = (uint8_t)place;
    cc_finish(c);
}

/* Sets with a joker: every sub-multiset of >= 2 of the cards idx[start..n) (ascending,
 * a copy listed twice) extending the partial set (o, t) of `size` cards, plus each
 * joker held, while size + 1 <= the capacity. O(sets emitted). */
static void cc_var_joker_sets(const cc_vhand *v, vlist *l, const int *idx, int n, int start,
                          cc_hand s, int size, int place)
{
    int i, k;
    if (size >= 2 && size + 1 <= v->cap)
        for (k = 0; k < 3; k++)
            if (v->jn[k])
                cc_push(l, s.once, s.twice, k, CC_SET, 0, place);
    if (size + 2 > v->cap)
        return; /* one more natural card leaves no room for the joker */
    for (i = start; i < n; i++) {
        if (i > start && idx[i] == idx[i - 1])
            continue;
        cc_var_joker_sets(v, l, idx, n, i + 1, cc_hand_add(s, idx[i]), size + 1, place);
    }
}

/* Every candidate meld of a split hand, unsorted (variants.h). O(candidates). */
int cc_var_candidates(const cc_rules *rules, const cc_vhand *v, cc_vcand *out)
{
    cc_meld nat[CC_MAX_CANDIDATES];
    cc_hand h;
    vlist l;
    int k, i, s, places = rules->deck == 40 ? 10 : CC_NRANKS;
    l.c = out;
    l.n = 0;
    h.once = v->a;
    h.twice = v->b;
    k = cc_enumerate_melds(h, nat, CC_MAX_CANDIDATES);
    if (k > CC_MAX_CANDIDATES)
        k = CC_MAX_CANDIDATES; /* unreachable for <= 8 cards */
    for (i = 0; i < k; i++)
        cc_push(&l, nat[i].cards.once, nat[i].cards.twice, -1, nat[i].kind, 0, 0);
    if (v->nj == 0)
        return l.n;
    for (i = 0; i < places; i++) {
        uint64_t col = CC_LANES << i;
        int idx[2 * CC_NSUITS], n = 0;
        cc_hand e;
        uint64_t x;
        if (cc_popcount(v->a & col) + cc_popcount(v->b & col) < 2)
            continue;
        for (x = v->a & col; x != 0; x &= x - 1) {
            int c = cc_ctz(x);
            idx[n++] = c;
            if ((v->b >> c) & 1u)
                idx[n++] = c;
        }
        e.once = 0;
        e.twice = 0;
        cc_var_joker_sets(v, &l, idx, n, 0, e, 0, i);
    }
    for (s = 0; s < CC_NSUITS; s++) {
        unsigned lane = (unsigned)(v->a >> (16 * s)) & 0xFFFu;
        int lo, hi, top;
        if (cc_popcount(lane) < 2)
            continue;
        /* a segment holds >= 2 of the lane's cards: it starts at most one place below the
         * lowest, and before the highest */
        lo = cc_ctz(lane) > 0 ? cc_ctz(lane) - 1 : 0;
        top = cc_highest_bit(lane);
        for (; lo < top && lo + 2 < places; lo++) {
            int gap = -1;
            for (hi = lo; hi < places; hi++) {
                int p;
                if (!((lane >> hi) & 1u)) {
                    if (gap >= 0)
                        break;
                    gap = hi;
                }
                if (hi - lo < 2)
                    continue;
                for (p = (gap >= 0 ? gap : lo); p <= (gap >= 0 ? gap : hi); p++) {
                    unsigned seg = ((1u << (hi + 1)) - 1u) & ~((1u << lo) - 1u) & ~(1u << p);
                    int j;
                    for (j = 0; j < 3; j++)
                        if (v->jn[j])
                            cc_push(&l, (uint64_t)seg << (16 * s), 0, j, CC_RUN, 16 * s + p,
                                    0);
                }
            }
        }
    }
    return l.n;
}

/* Whether candidates x and y fit in the hand together. O(1). */
CC_INLINE int cc_vpair_fits(const cc_vhand *v, const cc_vcand *x, const cc_vcand *y)
{
    if (((x->t & y->o) | (x->o & y->t)) != 0 || (x->o & y->o & ~v->b) != 0)
        return 0;
    return x->js < 0 || x->js != y->js || v->jn[x->js] >= 2;
}

/* The best single candidate or pair of c[0..k) by score -- points melded, then cards,
 * then fewer melds -- the first best in the order scanned; returns the points melded.
 * O(k^2). */
static int cc_vsearch(const cc_vhand *v, const cc_vcand *c, int k, int *bi, int *bj)
{
    int i, j, best = 2, best_pts = 0;
    *bi = -1;
    *bj = -1;
    for (i = 0; i < k; i++) {
        int score = (c[i].pts << 8) | (c[i].cnt << 2) | 1;
        if (score > best) {
            best = score;
            best_pts = c[i].pts;
            *bi = i;
        }
    }
    for (i = 0; i < k; i++) {
        if (c[i].cnt + 3 > v->n)
            continue;
        for (j = i; j < k; j++) {
            int score;
            if (c[i].cnt + c[j].cnt > v->n || !cc_vpair_fits(v, &c[i], &c[j]))
                continue;
            score = ((c[i].pts + c[j].pts) << 8) | ((c[i].cnt + c[j].cnt) << 2);
            if (score > best) {
                best = score;
                best_pts = c[i].pts + c[j].pts;
                *bi = i;
                *bj = j;
            }
        }
    }
    return best_pts;
}

/* Points of a split hand's cards. O(1). */
static int cc_vtotal(const cc_rules *view, const cc_rules *rules, const cc_vhand *v)
{
    return cc_wpop(view, v->a) + cc_wpop(view, v->b) + v->nj * rules->joker_points;
}

/* Deadwood of a split hand (view: cc_view(rules)). O(1) without jokers (the house
 * kernel), else the parts of jokers.c. */
static int cc_vdeadwood(const cc_rules *view, const cc_rules *rules, const cc_vhand *v)
{
    if (v->nj == 0)
        return cc_melds_deadwood_core(view, v->a, v->b);
    return cc_joker_deadwood(view, rules, v->a, v->b, v->nj, v->cap);
}

/* ------------------------------------------------------------------ arrangement */

/* A candidate as a cc_meld with raw card bits (variants.h). O(1). */
cc_meld cc_var_raw_meld(const cc_rules *rules, const cc_vcand *c)
{
    cc_meld m;
    m.cards.once = cc_space_expand(rules->deck, c->o);
    m.cards.twice = cc_space_expand(rules->deck, c->t);
    m.kind = c->kind;
    m.joker = 0;
    m.joker_rank = 0;
    if (c->js >= 0) {
        m.joker = cc_joker_bits[c->js];
        m.cards = cc_hand_add(m.cards, m.joker);
        m.joker_rank = (uint8_t)cc_space_rank(rules->deck, c->kind == CC_SET ? c->place
                                                                          : c->stand & 15);
    }
    return m;
}

/* Sort candidates by key (insertion sort; a few dozen at most in practice).
 * O(k^2) compares. */
static void cc_sort(cc_vcand *c, int k)
{
    int i, j;
    for (i = 1; i < k; i++) {
        cc_vcand x = c[i];
        for (j = i; j > 0 && cc_var_key_cmp(c[j - 1].key, x.key) > 0; j--)
            c[j] = c[j - 1];
        c[j] = x;
    }
}

/* Best arrangement of a valid hand under any rules, decks 0 (infer), 1 or 2.
 * O(1) without jokers on the house fast path, else the sorted candidate search. */
void cc_var_arrange(const cc_rules *rules, cc_hand h, int decks, cc_arrangement *out)
{
    cc_rules view = cc_view(rules);
    cc_vhand v;
    cc_vcand c[CC_VAR_MAX_CAND];
    int k, bi, bj, i;
    cc_hand left = h;
    cc_var_split(rules, h, decks, &v);
    memset(out, 0, sizeof *out);
    if (v.nj == 0) {
        cc_hand w;
        w.once = v.a;
        w.twice = v.b;
        cc_melds_best(&view, w, out);
        for (i = 0; i < out->n_melds; i++) {
            out->melds[i].cards.once = cc_space_expand(rules->deck, out->melds[i].cards.once);
            out->melds[i].cards.twice = cc_space_expand(rules->deck, out->melds[i].cards.twice);
        }
        out->unmatched.once = cc_space_expand(rules->deck, out->unmatched.once);
        out->unmatched.twice = cc_space_expand(rules->deck, out->unmatched.twice);
        return;
    }
    k = cc_var_candidates(rules, &v, c);
    for (i = 0; i < k; i++)
        c[i].pts = (int16_t)(cc_wpop(&view, c[i].o) + cc_wpop(&view, c[i].t) +
                             (c[i].js >= 0 ? rules->joker_points : 0));
    cc_sort(c, k);
    out->points = cc_vtotal(&view, rules, &v) - cc_vsearch(&v, c, k, &bi, &bj);
    if (bi >= 0)
        out->melds[out->n_melds++] = cc_var_raw_meld(rules, &c[bi]);
    if (bj >= 0)
        out->melds[out->n_melds++] = cc_var_raw_meld(rules, &c[bj]);
    for (i = 0; i < out->n_melds; i++)
        left = cc_hand_minus(left, out->melds[i].cards);
    out->unmatched = left;
}

/* Outcome of closing with the 7 valid cards h whose deadwood is d (docs/rules.md#jokers-in-melds order).
 * O(1). */
cc_outcome cc_var_outcome(const cc_rules *rules, cc_hand h, int d)
{
    if (d > rules->close_limit)
        return CC_CANNOT_CLOSE;
    if (d == 0 && h.twice == 0) {
        uint64_t jm = rules->joker_mask;
        uint64_t a = cc_space_compact(rules->deck, h.once & ~jm);
        int nj = cc_popcount(h.once & jm);
        if (a != 0 && (cc_ctz(a) >> 4) == (cc_highest_bit(a) >> 4)) {
            uint64_t x = a >> cc_ctz(a);
            if (nj == 0 && x == UINT64_C(0x7F) && rules->seven_run_wins)
                return CC_CHINCHON;
            if (nj == 1 && x < UINT64_C(0x80) && cc_popcount(a) == 6 &&
                rules->joker_chinchon >= 0)
                return CC_JOKER_CHINCHON;
        }
    }
    return d == 0 ? CC_MINUS_TEN : CC_NORMAL;
}

/* ------------------------------------------------------------------ kernels */

/* Deadwood of a valid hand of 0..8 cards under rules that are not plain.
 * O(1) without jokers, else the joker search. */
int cc_var_deadwood(const cc_rules *rules, cc_hand h)
{
    cc_rules view = cc_view(rules);
    cc_vhand v;
    cc_var_split(rules, h, rules->decks, &v);
    return cc_vdeadwood(&view, rules, &v);
}

/* Outcome of closing with the 7 valid cards h under rules that are not plain.
 * One deadwood. */
cc_outcome cc_var_close_outcome(const cc_rules *rules, cc_hand h)
{
    return cc_var_outcome(rules, h, cc_var_deadwood(rules, h));
}

/* Hint points (and outcomes, when not NULL) of a valid 8-card hand under rules that are
 * not plain, the rules' decks (0: 2 when a card is held twice). Without a joker: the
 * house hints kernel on the working space; with one, the joker hints (jokers.c).
 * <= 9 deadwoods without a joker; the joker search otherwise. */
void cc_var_hints(const cc_rules *rules, cc_hand h, uint16_t *points, uint8_t *outcomes)
{
    const cc_rules view = cc_view(rules);
    uint64_t x;
    int k = 0, decks = rules->decks, any = 0;
    if (decks == 0)
        decks = h.twice != 0 ? 2 : 1;
    if ((h.once & rules->joker_mask) == 0) {
        cc_hand w;
        uint8_t p8[8];
        w.once = cc_space_compact(rules->deck, h.once);
        w.twice = cc_space_compact(rules->deck, h.twice);
        cc_hints_plain(&view, w, p8);
        for (k = 0; k < 8; k++)
            points[k] = p8[k];
        k = 0;
    } else if (h.twice == 0) {
        cc_joker_hints_one(&view, rules, h, 4 * decks, points);
    } else {
        cc_joker_hints_two(&view, rules, h, 4 * decks, points);
    }
    if (outcomes == NULL)
        return;
    for (k = 0; k < 8; k++)
        any |= points[k] <= rules->close_limit;
    k = 0;
    if (!any) {
        memset(outcomes, CC_CANNOT_CLOSE, 8); /* most turns: no discard closes */
        return;
    }
    for (x = h.once; x != 0; x &= x - 1) {
        int i = cc_ctz(x), copies = 1 + (int)((h.twice >> i) & 1u), c;
        cc_hand h7 = cc_hand_remove_once(h, UINT64_C(1) << i);
        for (c = 0; c < copies; c++, k++)
            outcomes[k] = (uint8_t)cc_var_outcome(rules, h7, points[k]);
    }
}
