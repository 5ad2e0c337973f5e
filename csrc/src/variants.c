/*
 * variants.c -- the meld search under the rule variants of SPEC section 9: the 40-card
 * deck, other point tables, jokers (the extra *1 and *2, and the wild ace of coins) and the
 * closes they make. Exact, with the tie-break of docs/design.md ("Rule variants").
 *
 * How it works. A hand is split into its natural cards, moved to the working space
 * (variants.h: runs are consecutive bits there with either deck), and its jokers,
 * counted per joker bit. Without a joker the house solver's kernels run unchanged on
 * the working space with the rules' working planes (a "view" of the rules). With a
 * joker, the deadwood and the hints need no whole melds: they take the least of the
 * house deadwood of the natural cards and of what each "part" a joker completes
 * leaves (see "joker deadwood" below; without a natural meld in the hand, only the
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

#include "bits.h"
#include "hand.h"
#include "melds.h"
#include "variants.h"

#define CC_VAR_MAX_CAND 384 /* > the most candidates of 8 cards with jokers (~150) */
#define CC_KEY_MAX 20 /* 16 natural cards (never more than 8), a joker, its place */

static const uint8_t cc_joker_bits[3] = {0, CC_JOKER1_BIT, CC_JOKER2_BIT};

/* A hand split for the variant search: natural cards in the working space, jokers by
 * slot (0: bit 0 under the wild ace, 1: *1, 2: *2). */
typedef struct vhand {
    uint64_t a, b;  /* natural cards held once / twice (working space) */
    uint8_t jn[3];  /* copies held of each joker */
    int nj;         /* jokers held, copies counted */
    int n;          /* cards held */
    int cap;        /* set capacity: 4 per deck */
} vhand;

/* A candidate meld of a hand with jokers. */
typedef struct vcand {
    uint64_t o, t;  /* its natural cards (working space) */
    int8_t js;      /* joker slot, -1 none */
    uint8_t kind;   /* CC_SET / CC_RUN */
    uint8_t stand;  /* a run's joker: working bit of the card it stands for */
    uint8_t place;  /* a set's place (its rank in the run order) */
    int16_t pts;    /* points it melds */
    uint8_t cnt;    /* cards it melds, the joker counted */
    uint8_t klen;
    uint8_t key[CC_KEY_MAX];
} vcand;

/* The rules with plane and points in the working space: what the house kernels read.
 * O(1): a struct copy. */
static cc_rules cc_view(const cc_rules *rules)
{
    cc_rules v = *rules;
    memcpy(v.plane, rules->wplane, sizeof v.plane);
    memcpy(v.points, rules->wpoints, sizeof v.points);
    return v;
}

/* Split a valid hand: natural cards to the working space, jokers counted by slot.
 * decks: 1 or 2 (the set capacity), 0 to infer (2 when a card is held twice). O(1). */
static void cc_split(const cc_rules *rules, cc_hand h, int decks, vhand *v)
{
    uint64_t jm = rules->joker_mask;
    int k;
    v->a = cc_var_compact(rules->deck, h.once & ~jm);
    v->b = cc_var_compact(rules->deck, h.twice & ~jm);
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

/* Fill a candidate's points, count and key. O(cards). */
static void cc_finish(const cc_rules *view, const cc_rules *rules, vcand *c)
{
    uint64_t m;
    int n = 0;
    c->pts = (int16_t)(cc_wpop(view, c->o) + cc_wpop(view, c->t) +
                       (c->js >= 0 ? rules->joker_points : 0));
    c->cnt = (uint8_t)(cc_popcount(c->o) + cc_popcount(c->t) + (c->js >= 0));
    for (m = c->o; m != 0 && n < CC_KEY_MAX - 4; m &= m - 1) {
        int i = cc_ctz(m);
        c->key[n++] = (uint8_t)i;
        if ((c->t >> i) & 1u)
            c->key[n++] = (uint8_t)i;
    }
    if (c->js >= 0) {
        c->key[n++] = (uint8_t)(64 + cc_joker_bits[c->js]);
        if (c->kind == CC_RUN)
            c->key[n++] = c->stand;
    }
    c->klen = (uint8_t)n;
}

typedef struct vlist {
    vcand *c;
    int n;
} vlist;

/* Append a candidate (the buffer is sized above the most any hand of 8 cards gives).
 * O(cards). */
static void cc_push(const cc_rules *view, const cc_rules *rules, vlist *l, uint64_t o,
                    uint64_t t, int js, int kind, int stand, int place)
{
    vcand *c;
    if (l->n >= CC_VAR_MAX_CAND)
        return; /* unreachable (see CC_VAR_MAX_CAND); keeps the bound explicit */
    c = &l->c[l->n++];
    c->o = o;
    c->t = t;
    c->js = (int8_t)js;
    c->kind = (uint8_t)kind;
    c->stand = (uint8_t)stand;
    c->place = (uint8_t)place;
    cc_finish(view, rules, c);
}

/* Sets with a joker: every sub-multiset of >= 2 of the cards idx[start..n) (ascending,
 * a copy listed twice) extending the partial set (o, t) of `size` cards, plus each
 * joker held, while size + 1 <= the capacity. O(sets emitted). */
static void cc_joker_sets(const cc_rules *view, const cc_rules *rules, const vhand *v,
                          vlist *l, const int *idx, int n, int start, cc_hand s, int size,
                          int place)
{
    int i, k;
    if (size >= 2 && size + 1 <= v->cap)
        for (k = 0; k < 3; k++)
            if (v->jn[k])
                cc_push(view, rules, l, s.once, s.twice, k, CC_SET, 0, place);
    if (size + 2 > v->cap)
        return; /* one more natural card leaves no room for the joker */
    for (i = start; i < n; i++) {
        if (i > start && idx[i] == idx[i - 1])
            continue;
        cc_joker_sets(view, rules, v, l, idx, n, i + 1, cc_hand_add(s, idx[i]), size + 1,
                      place);
    }
}

/* Every candidate meld of a split hand holding a joker, unsorted. O(candidates). */
static int cc_candidates(const cc_rules *view, const cc_rules *rules, const vhand *v,
                         vcand *out)
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
        cc_push(view, rules, &l, nat[i].cards.once, nat[i].cards.twice, -1, nat[i].kind, 0, 0);
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
        cc_joker_sets(view, rules, v, &l, idx, n, 0, e, 0, i);
    }
    for (s = 0; s < CC_NSUITS; s++) {
        unsigned lane = (unsigned)(v->a >> (16 * s)) & 0xFFFu;
        int lo, hi;
        if (cc_popcount(lane) < 2)
            continue;
        for (lo = 0; lo + 2 < places; lo++) {
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
                            cc_push(view, rules, &l, (uint64_t)seg << (16 * s), 0, j, CC_RUN,
                                    16 * s + p, 0);
                }
            }
        }
    }
    return l.n;
}

/* Compare two candidates' keys as Python tuples (a proper prefix first). O(key). */
static int cc_key_cmp(const vcand *x, const vcand *y)
{
    int i;
    for (i = 0; i < x->klen && i < y->klen; i++)
        if (x->key[i] != y->key[i])
            return x->key[i] < y->key[i] ? -1 : 1;
    return (x->klen > y->klen) - (x->klen < y->klen);
}

/* Whether candidates x and y fit in the hand together. O(1). */
CC_INLINE int cc_vpair_fits(const vhand *v, const vcand *x, const vcand *y)
{
    if (((x->t & y->o) | (x->o & y->t)) != 0 || (x->o & y->o & ~v->b) != 0)
        return 0;
    return x->js < 0 || x->js != y->js || v->jn[x->js] >= 2;
}

/* The best single candidate or pair of c[0..k) by score -- points melded, then cards,
 * then fewer melds -- the first best in the order scanned; returns the points melded.
 * O(k^2). */
static int cc_vsearch(const vhand *v, const vcand *c, int k, int *bi, int *bj)
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
static int cc_vtotal(const cc_rules *view, const cc_rules *rules, const vhand *v)
{
    return cc_wpop(view, v->a) + cc_wpop(view, v->b) + v->nj * rules->joker_points;
}

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

/* The places of every lane (a mask of the working space). O(1). */
CC_INLINE uint64_t places_mask(int places)
{
    return places == 10 ? UINT64_C(0x03FF03FF03FF03FF) : CC_LANE_MASK;
}

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
    uint64_t l0 = a & CC_RANK_MASK, l1 = (a >> 16) & CC_RANK_MASK;
    uint64_t l2 = (a >> 32) & CC_RANK_MASK, l3 = (a >> 48) & CC_RANK_MASK;
    uint64_t t1 = (b | (b >> 16) | (b >> 32) | (b >> 48)) & CC_RANK_MASK;
    uint64_t pairs = (l0 & l1) | (l2 & l3) | ((l0 | l1) & (l2 | l3)) | t1;
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

/* The parts route of cc_jdeadwood (below) for the hands its fast path leaves: a natural
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
static int cc_jparts_one(const cc_rules *view, int jp, uint64_t a, int nj, int cap, int places,
                         int best, uint64_t runs, uint64_t sets)
{
    return cc_jparts_search(view, jp, a, 0, nj, cap, places, 0, best, runs, sets);
}

static int cc_jparts_two(const cc_rules *view, int jp, uint64_t a, uint64_t b, int nj, int cap,
                         int places, int best, uint64_t runs, uint64_t sets)
{
    return cc_jparts_search(view, jp, a, b, nj, cap, places, 1, best, runs, sets);
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
    best = cc_deadwood_masks(view, a, b, runs, sets) + nj * jp;
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

/* Deadwood of a split hand (view: cc_view(rules)). O(1) without jokers (the house
 * kernel), else the parts above. */
static int cc_vdeadwood(const cc_rules *view, const cc_rules *rules, const vhand *v)
{
    if (v->nj == 0)
        return cc_deadwood_core(view, v->a, v->b);
    return v->b == 0 ? cc_jdeadwood_one(view, rules, v->a, 0, v->nj, v->cap)
                     : cc_jdeadwood_two(view, rules, v->a, v->b, v->nj, v->cap);
}

/* ------------------------------------------------------------------ arrangement */

/* A candidate as a cc_meld with raw card bits. O(1). */
static cc_meld cc_raw_meld(const cc_rules *rules, const vcand *c)
{
    cc_meld m;
    m.cards.once = cc_var_expand(rules->deck, c->o);
    m.cards.twice = cc_var_expand(rules->deck, c->t);
    m.kind = c->kind;
    m.joker = 0;
    m.joker_rank = 0;
    if (c->js >= 0) {
        m.joker = cc_joker_bits[c->js];
        m.cards = cc_hand_add(m.cards, m.joker);
        m.joker_rank = (uint8_t)cc_var_rank(rules->deck, c->kind == CC_SET ? c->place
                                                                          : c->stand & 15);
    }
    return m;
}

/* Sort candidates by key (insertion sort; a few dozen at most in practice).
 * O(k^2) compares. */
static void cc_sort(vcand *c, int k)
{
    int i, j;
    for (i = 1; i < k; i++) {
        vcand x = c[i];
        for (j = i; j > 0 && cc_key_cmp(&c[j - 1], &x) > 0; j--)
            c[j] = c[j - 1];
        c[j] = x;
    }
}

/* Best arrangement of a valid hand under any rules, decks 0 (infer), 1 or 2.
 * O(1) without jokers on the house fast path, else the sorted candidate search. */
void cc_var_arrange(const cc_rules *rules, cc_hand h, int decks, cc_arrangement *out)
{
    cc_rules view = cc_view(rules);
    vhand v;
    vcand c[CC_VAR_MAX_CAND];
    int k, bi, bj, i;
    cc_hand left = h;
    cc_split(rules, h, decks, &v);
    memset(out, 0, sizeof *out);
    if (v.nj == 0) {
        cc_hand w;
        w.once = v.a;
        w.twice = v.b;
        cc_best_plain(&view, w, out);
        for (i = 0; i < out->n_melds; i++) {
            out->melds[i].cards.once = cc_var_expand(rules->deck, out->melds[i].cards.once);
            out->melds[i].cards.twice = cc_var_expand(rules->deck, out->melds[i].cards.twice);
        }
        out->unmatched.once = cc_var_expand(rules->deck, out->unmatched.once);
        out->unmatched.twice = cc_var_expand(rules->deck, out->unmatched.twice);
        return;
    }
    k = cc_candidates(&view, rules, &v, c);
    cc_sort(c, k);
    out->points = cc_vtotal(&view, rules, &v) - cc_vsearch(&v, c, k, &bi, &bj);
    if (bi >= 0)
        out->melds[out->n_melds++] = cc_raw_meld(rules, &c[bi]);
    if (bj >= 0)
        out->melds[out->n_melds++] = cc_raw_meld(rules, &c[bj]);
    for (i = 0; i < out->n_melds; i++)
        left = cc_hand_minus(left, out->melds[i].cards);
    out->unmatched = left;
}

/* Outcome of closing with the 7 valid cards h whose deadwood is d (SPEC 9.2's order).
 * O(1). */
cc_outcome cc_var_outcome(const cc_rules *rules, cc_hand h, int d)
{
    if (d > rules->close_limit)
        return CC_CANNOT_CLOSE;
    if (d == 0 && h.twice == 0) {
        uint64_t jm = rules->joker_mask;
        uint64_t a = cc_var_compact(rules->deck, h.once & ~jm);
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

/* ------------------------------------------------------------------ entry points */

/* Deadwood of a hand of 0..8 cards under rules that are not plain. */
cc_status cc_var_deadwood(const cc_rules *rules, cc_hand h, int *points)
{
    int n;
    cc_rules view;
    vhand v;
    cc_status st = cc_var_status(rules, h, CC_MAX_HAND, -1, &n);
    if (st != CC_OK)
        return st;
    view = cc_view(rules);
    cc_split(rules, h, rules->decks, &v);
    *points = cc_vdeadwood(&view, rules, &v);
    return CC_OK;
}

/* Best arrangement of a hand of 0..8 cards under rules that are not plain. */
cc_status cc_var_best_melds(const cc_rules *rules, cc_hand h, cc_arrangement *out)
{
    int n;
    cc_status st = cc_var_status(rules, h, CC_MAX_HAND, -1, &n);
    if (st == CC_OK)
        cc_var_arrange(rules, h, rules->decks, out);
    return st;
}

/* Outcome of closing with exactly 7 cards under rules that are not plain. */
cc_status cc_var_close_outcome(const cc_rules *rules, cc_hand h, cc_outcome *outcome)
{
    int n;
    cc_rules view;
    vhand v;
    cc_status st = cc_var_status(rules, h, CC_MAX_HAND, CC_HAND_CARDS, &n);
    if (st != CC_OK)
        return st;
    view = cc_view(rules);
    cc_split(rules, h, rules->decks, &v);
    *outcome = cc_var_outcome(rules, h, cc_vdeadwood(&view, rules, &v));
    return CC_OK;
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

/* Hint points of a valid 8-card hand holding a joker, raw card order (a copy held twice
 * listed twice), set capacity cap. The parts of the 7 or fewer natural cards are listed
 * once: discarding a natural card x leaves the parts without x, so each term of
 * cc_jdeadwood becomes a removal pass over nat - N (one house hints pass each);
 * discarding a joker leaves the natural cards whole, with one joker less. Inlined per
 * deck count. O(parts) house hints passes, plus O(parts^2) pairs with two jokers. */
CC_FORCE_INLINE void cc_jhints(const cc_rules *view, const cc_rules *rules, cc_hand h, int cap,
                               uint8_t *points, int two)
{
    uint64_t jm = rules->joker_mask, a, b, x, meld;
    int jp = rules->joker_points, places = rules->deck == 40 ? 10 : CC_NRANKS;
    int nj = cc_popcount(h.once & jm) + cc_popcount(h.twice & jm), i, j, k = 0;
    int dnat, best1 = 1 << 20, djoker;
    uint8_t dj[64];
    jparts p;
    a = cc_var_compact(rules->deck, h.once & ~jm);
    b = two ? cc_var_compact(rules->deck, h.twice & ~jm) : 0;
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
                int wc = rules->deck == 40 && (c & 15) >= 9 ? c - 2 : c; /* working bit */
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
            points[k++] = (uint8_t)d;
            if (copies == 2)
                points[k++] = (uint8_t)d;
        }
        return;
    }
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
            int w = rules->deck == 40 && (c & 15) >= 9 ? c - 2 : c; /* working bit */
            d = dj[w];
        }
        points[k++] = (uint8_t)d;
        if (copies == 2)
            points[k++] = (uint8_t)d;
    }
}

/* cc_jhints out of line, one copy per deck count. */
static void cc_jhints_one(const cc_rules *view, const cc_rules *rules, cc_hand h, int cap,
                          uint8_t *points)
{
    cc_jhints(view, rules, h, cap, points, 0);
}

static void cc_jhints_two(const cc_rules *view, const cc_rules *rules, cc_hand h, int cap,
                          uint8_t *points)
{
    cc_jhints(view, rules, h, cap, points, 1);
}

/* Hint points (and outcomes, when not NULL) of a valid 8-card hand, decks 0/1/2.
 * Without a joker: the house hints kernel on the working space; with one, cc_jhints. */
static void cc_vhints(const cc_rules *view, const cc_rules *rules, cc_hand h, int decks,
                      uint8_t *points, uint8_t *outcomes)
{
    uint64_t x;
    int k = 0;
    if (decks == 0)
        decks = h.twice != 0 ? 2 : 1;
    if ((h.once & rules->joker_mask) == 0) {
        cc_hand w;
        w.once = cc_var_compact(rules->deck, h.once);
        w.twice = cc_var_compact(rules->deck, h.twice);
        cc_hints_plain(view, w, points);
    } else if (h.twice == 0) {
        cc_jhints_one(view, rules, h, 4 * decks, points);
    } else {
        cc_jhints_two(view, rules, h, 4 * decks, points);
    }
    if (outcomes == NULL)
        return;
    if (!cc_hints_may_close(rules, points)) {
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

/* Discard hints of exactly 8 cards under rules that are not plain. */
cc_status cc_var_discard_hints(const cc_rules *rules, cc_hand h, uint8_t *points,
                               uint8_t *outcomes)
{
    int n;
    cc_rules view;
    cc_status st = cc_var_status(rules, h, CC_MAX_HAND, CC_MAX_HAND, &n);
    if (st != CC_OK)
        return st;
    view = cc_view(rules);
    cc_vhints(&view, rules, h, rules->decks, points, outcomes);
    return CC_OK;
}

/* The rows of cc_var_batch, inlined once per (deck count, hints) so the joker-free rows
 * run the house kernels with constants folded. */
CC_FORCE_INLINE cc_status cc_var_rows(const cc_rules *local, const cc_rules *view, int hints,
                                      const uint64_t *masks, size_t n, int decks,
                                      uint8_t *out, size_t *bad_row)
{
    size_t i;
    const int places = local->deck == 40 ? 10 : CC_NRANKS;
    for (i = 0; i < n; i++) {
        cc_hand h;
        int cards;
        cc_status st;
        h.once = decks == 1 ? masks[i] : masks[2 * i];
        h.twice = decks == 1 ? 0 : masks[2 * i + 1];
        st = cc_var_status(local, h, CC_MAX_HAND, hints ? CC_MAX_HAND : -1, &cards);
        if (st != CC_OK) {
            if (bad_row != NULL)
                *bad_row = i;
            return st;
        }
        if (hints) {
            cc_vhints(view, local, h, decks, out + 8 * i, NULL);
        } else if ((h.once & local->joker_mask) == 0) {
            /* no joker: the house kernel on the run-order space */
            out[i] = (uint8_t)cc_deadwood_core(view, cc_var_compact(local->deck, h.once),
                                               cc_var_compact(local->deck, h.twice));
        } else {
            /* jokers: natural cards to the run-order space, jokers counted */
            uint64_t jm = local->joker_mask;
            int nj = cc_popcount(h.once & jm) + (decks == 1 ? 0 : cc_popcount(h.twice & jm));
            uint64_t a = cc_var_compact(local->deck, h.once & ~jm);
            out[i] = (uint8_t)(decks == 1
                                   ? cc_jdeadwood(view, local->joker_points, a, 0, nj, 4, places, 0)
                                   : cc_jdeadwood(view, local->joker_points, a,
                                                  cc_var_compact(local->deck, h.twice & ~jm),
                                                  nj, 8, places, 1));
        }
    }
    return CC_OK;
}

/* Deadwood (hints == 0) or hints (hints == 1: rows of exactly 8 cards) of n batch rows
 * under rules that are not plain; stops at the first bad row. */
cc_status cc_var_batch(const cc_rules *rules, int hints, const uint64_t *masks, size_t n,
                       int decks, uint8_t *out, size_t *bad_row)
{
    const cc_rules local = *rules;
    const cc_rules view = cc_view(rules);
    if (hints)
        return decks == 1 ? cc_var_rows(&local, &view, 1, masks, n, 1, out, bad_row)
                          : cc_var_rows(&local, &view, 1, masks, n, 2, out, bad_row);
    return decks == 1 ? cc_var_rows(&local, &view, 0, masks, n, 1, out, bad_row)
                      : cc_var_rows(&local, &view, 0, masks, n, 2, out, bad_row);
}
