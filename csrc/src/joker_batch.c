/*
 * joker_batch.c -- the batch rows under rules that are not plain (deadwood_batch and
 * hints_batch), and the per-lane tables that weigh the joker rows of a large batch.
 * Rows without a joker run the house kernels on the run-order space; rows with jokers
 * and a natural meld, or in a small batch, the single-hand search of jokers.c.
 */
#include "chinchon.h"

#include <string.h>

#include "bits.h"
#include "hand.h"
#include "jokers.h"
#include "melds.h"
#include "variants.h"

/*
 * A large batch weighs the parts of hands without a natural meld by table. In such a
 * hand no lane holds three places in a row, and the heaviest run part of a lane -- with
 * two jokers, the heaviest two disjoint ones -- depends on the lane's pattern alone (the
 * points by place are the rules'). Each table entry is 1 + a weight (0: no part), filled
 * in increasing pattern order from the pattern without its highest card h: the parts
 * with h are h's block B (<= 2 cards) with the joker below it and the top 0-2 cards of
 * the block below that (a joker above B melds only B, and inside B it would stand for a
 * held card: three in a row). A part never needs the joker at a place another part's
 * card holds: that card and its neighbours would again be three in a row. 2^places
 * entries (1024 or 4096), about 20 operations each: about 10 us to build (both tables,
 * 48 cards), the two-part table only once a row holds two jokers, and then for the
 * deadwood a table packing each pattern's points and both entries (one lookup a lane;
 * a third of the first two's cost). A row gains about 2-4 ns of deadwood and 50 ns of
 * hints from them (C driver, one deck), so a batch builds them from
 * CC_JTAB_ROWS_DEADWOOD / CC_JTAB_ROWS_HINTS rows. Single hands keep cc_jbest_part and
 * cc_jnomeld_parts.
 */
#define CC_JTAB_ROWS_DEADWOOD 4096
#define CC_JTAB_ROWS_HINTS 512

typedef struct jtab {
    uint8_t run[4096];  /* 1 + the heaviest run part of a lane pattern; 0: none */
    uint8_t run2[4096]; /* 1 + the heaviest two disjoint run parts; 0: none */
    uint8_t pair[4096]; /* 1 + the heaviest rank held twice (2 * its points), by rank mask */
    const uint8_t *w;   /* points by place (the rules' working points) */
    int size, have2;
    uint32_t lane[4096]; /* a lane pattern's points | run2 << 16 | run << 24 (two jokers) */
    int have_lane;
} jtab;

CC_INLINE int cc_max(int x, int y) { return x > y ? x : y; }

CC_INLINE int cc_min(int x, int y) { return x < y ? x : y; }

/* The lane pattern p (no three places in a row) without its highest card: the block B
 * of its highest card h, *bm its mask, *bw its points, *lo its lowest place. O(1). */
CC_INLINE int cc_jtop_block(const uint8_t *w, unsigned p, unsigned *bm, int *bw, int *lo)
{
    int h = cc_highest_bit(p), n = 1;
    *bm = 1u << h;
    *bw = w[h];
    *lo = h;
    if (h >= 1 && ((p >> (h - 1)) & 1u)) {
        *bm |= 1u << (h - 1);
        *bw += w[h - 1];
        *lo = h - 1;
        n = 2;
    }
    return n;
}

/* Fill run and pair (w: the view's wpoints, `places` places a lane). O(2^places). */
static void cc_jtab_build(jtab *t, const uint8_t *w, int places)
{
    unsigned p;
    t->w = w;
    t->size = 1 << places;
    t->have2 = 0;
    t->run[0] = 0;
    t->pair[0] = 0;
    for (p = 1; p < (unsigned)t->size; p++) {
        unsigned bm;
        int bw, lo, n = cc_jtop_block(w, p, &bm, &bw, &lo), e;
        t->pair[p] = (uint8_t)cc_max(2 * w[cc_ctz(p)] + 1, t->pair[p & (p - 1)]);
        if ((p & (p >> 1) & (p >> 2)) != 0) {
            t->run[p] = 0; /* three in a row: never read */
            continue;
        }
        if (lo >= 2 && ((p >> (lo - 2)) & 1u)) {
            n++;
            bw += w[lo - 2];
            if (lo >= 3 && ((p >> (lo - 3)) & 1u)) {
                n++;
                bw += w[lo - 3];
            }
        }
        e = n >= 2 ? bw + 1 : 0;
        t->run[p] = (uint8_t)cc_max(e, t->run[p & ~(1u << cc_highest_bit(p))]);
    }
}

/* Fill run2 (after cc_jtab_build): the pairs without h, or h's part (B with the top 0-2
 * cards of the block below, >= 2 cards) and the heaviest part of the rest. O(2^places). */
static void cc_jtab_build2(jtab *t)
{
    unsigned p;
    t->run2[0] = 0;
    for (p = 1; p < (unsigned)t->size; p++) {
        unsigned bm, part;
        int bw, lo, n, best, k;
        if ((p & (p >> 1) & (p >> 2)) != 0) {
            t->run2[p] = 0;
            continue;
        }
        n = cc_jtop_block(t->w, p, &bm, &bw, &lo);
        best = t->run2[p ^ (1u << cc_highest_bit(p))];
        part = bm;
        for (k = 0; k <= 2; k++) {
            int r;
            if (k > 0) {
                int c = lo - 1 - k; /* the card below the joker's place lo - 1, then the next */
                if (c < 0 || !((p >> c) & 1u))
                    break;
                part |= 1u << c;
                bw += t->w[c];
                n++;
            }
            r = t->run[p & ~part];
            if (n >= 2 && r > 0 && bw + r > best)
                best = bw + r;
        }
        t->run2[p] = (uint8_t)best;
    }
    t->have2 = 1;
}

/* Fill lane (after cc_jtab_build2): a pattern's points in the low 16 bits (four lanes'
 * sum stays below 2^16: <= 4 * 12 * 31), its run2 and run entries above, so that one
 * lookup a lane gives all three to the two-joker rows. O(2^places). */
static void cc_jtab_build_lane(jtab *t)
{
    unsigned p;
    t->lane[0] = 0;
    for (p = 1; p < (unsigned)t->size; p++) {
        uint32_t pts = (t->lane[p & (p - 1)] & 0xFFFFu) + t->w[cc_ctz(p)];
        t->lane[p] = pts | (uint32_t)t->run2[p] << 16 | (uint32_t)t->run[p] << 24;
    }
    t->have_lane = 1;
}

/* Ranks held twice (the working space, lane 0's places) of natural cards (a, b) that
 * hold no natural meld. O(1). */
CC_INLINE uint64_t cc_jpairs(uint64_t a, uint64_t b)
{
    uint64_t l0 = a & CC_RANK_MASK, l1 = (a >> 16) & CC_RANK_MASK;
    uint64_t l2 = (a >> 32) & CC_RANK_MASK, l3 = (a >> 48) & CC_RANK_MASK;
    uint64_t t1 = (b | (b >> 16) | (b >> 32) | (b >> 48)) & CC_RANK_MASK;
    return (l0 & l1) | (l2 & l3) | ((l0 | l1) & (l2 | l3)) | t1;
}

/* The heaviest part of natural cards (a, b) with no natural meld, by table, 1 + its
 * points (0: none): a rank held twice or a lane's run part. O(1): five lookups. */
CC_INLINE int cc_jtab_w1(const jtab *t, uint64_t a, uint64_t b)
{
    int r[4], s;
    for (s = 0; s < 4; s++)
        r[s] = t->run[(unsigned)(a >> (16 * s)) & 0xFFFu];
    return cc_max(cc_max(t->pair[cc_jpairs(a, b)], r[0]), cc_max(cc_max(r[1], r[2]), r[3]));
}

/* The points nj jokers save (their own included) given cc_jtab_w's w1, w2: none, the
 * heaviest part with one, or the heaviest two with one each. O(1). */
CC_INLINE int cc_jtab_gain(int jp, int nj, int w1, int w2)
{
    return cc_max((jp + w1 - 1) & -((nj >= 1) & (w1 > 0)),
                  (2 * jp + w2 - 1) & -((nj >= 2) & (w2 > 0)));
}

/* Deadwood of natural cards (a, b) with no natural meld, points total, and one joker,
 * by table. O(1). */
CC_INLINE int cc_jtab_dead(const jtab *t, int jp, uint64_t a, uint64_t b, int total)
{
    return total + jp - cc_jtab_gain(jp, 1, cc_jtab_w1(t, a, b), 0);
}

/* Whether natural cards (a, b) (working space) hold no natural meld -- cc_no_meld, with
 * the lanes read once -- and *pairs: their ranks held twice (cc_jpairs). O(1). */
CC_INLINE int cc_jtab_free(uint64_t a, uint64_t b, uint64_t *pairs)
{
    uint64_t l0 = a & CC_RANK_MASK, l1 = (a >> 16) & CC_RANK_MASK;
    uint64_t l2 = (a >> 32) & CC_RANK_MASK, l3 = (a >> 48) & CC_RANK_MASK;
    uint64_t t1 = (b | (b >> 16) | (b >> 32) | (b >> 48)) & CC_RANK_MASK;
    uint64_t ge2 = (l0 & l1) | (l2 & l3) | ((l0 | l1) & (l2 | l3));
    uint64_t ge3 = (l0 & l1 & (l2 | l3)) | (l2 & l3 & (l0 | l1));
    *pairs = ge2 | t1;
    return ((a & (a >> 1) & (a >> 2)) | ge3 | (ge2 & t1)) == 0;
}

/* Deadwood of natural cards (a, b) with no natural meld, at most one card held twice
 * (b: none or one bit), ranks held twice pairs, and nj >= 2 jokers (a third has no meld
 * of its own: <= 8 cards make <= 2 melds), by table: of the heaviest part w1 and the
 * heaviest two that fit together w2 (1 + their points, 0: none), one with a joker or
 * both with one each. A part is a rank held twice or a lane's run part; two parts are
 * one lane's two, the two heaviest lanes' parts, a rank held twice and a run avoiding
 * its places, two ranks held twice, or -- a card q held twice -- two run parts of q's
 * lane that share q, one copy each. Those two are the heaviest part of the lane's
 * places up to q and of its places from q up: a part holding q and cards on both sides
 * of it (q - 1, q, a gap, q + 2, or the mirror) leaves the other part only q (q - 2 and
 * q + 1 would make three in a row), and two parts holding q on one side both hold q's
 * neighbour there (or the card past the gap). A lane's pattern shows neither that nor
 * a part held twice (that takes two cards held twice). One lookup a lane gives its
 * points and both run entries; the lowest rank held twice is weighed by masks, not
 * branches (none: its entry and weight 0), and so is q's term (none: lane 3's place
 * 15, masked out; b == 0 folded with one deck). Further ranks held twice -- two in
 * under one row in ten, three only in 8-card rows -- go by a loop. O(1): about 15
 * lookups. */
CC_INLINE int cc_jtab_dead2(const jtab *t, int jp, uint64_t a, uint64_t b, uint64_t pairs,
                            int nj)
{
    unsigned l0 = (unsigned)a & 0xFFFu, l1 = (unsigned)(a >> 16) & 0xFFFu;
    unsigned l2 = (unsigned)(a >> 32) & 0xFFFu, l3 = (unsigned)(a >> 48) & 0xFFFu;
    uint32_t e0 = t->lane[l0], e1 = t->lane[l1], e2 = t->lane[l2], e3 = t->lane[l3];
    /* the entries ordered as their run parts (the top byte): the heaviest two lanes */
    uint32_t hi01 = e0 > e1 ? e0 : e1, lo01 = e0 > e1 ? e1 : e0;
    uint32_t hi23 = e2 > e3 ? e2 : e3, lo23 = e2 > e3 ? e3 : e2;
    uint32_t top = hi01 > hi23 ? hi01 : hi23, mid = hi01 > hi23 ? hi23 : hi01;
    uint32_t lo = lo01 > lo23 ? lo01 : lo23, r2;
    int total = (int)((e0 + e1 + e2 + e3) & 0xFFFFu), m1 = (int)(top >> 24);
    int m2 = (int)((mid > lo ? mid : lo) >> 24);
    int w1 = cc_max(t->pair[pairs], m1), w2, pw, ra, p1, p2 = 0, c, plo, phi, bp;
    unsigned low = (unsigned)(pairs & (0 - pairs)), qb = ~low, lane, bit;
    uint64_t x;
    r2 = (e0 & 0xFF0000u) > (e1 & 0xFF0000u) ? e0 & 0xFF0000u : e1 & 0xFF0000u;
    r2 = r2 > (e2 & 0xFF0000u) ? r2 : e2 & 0xFF0000u;
    r2 = r2 > (e3 & 0xFF0000u) ? r2 : e3 & 0xFF0000u;
    w2 = cc_max((int)(r2 >> 16), (m1 + m2 - 1) & -(m2 > 0));
    /* the lowest rank held twice and a run avoiding its rank */
    pw = t->pair[low];
    ra = cc_max(cc_max(t->run[l0 & qb], t->run[l1 & qb]),
                cc_max(t->run[l2 & qb], t->run[l3 & qb]));
    w2 = cc_max(w2, (pw + ra - 1) & -((pw > 0) & (ra > 0)));
    p1 = pw;
    for (x = pairs & (pairs - 1); x != 0; x &= x - 1) { /* the others, rarely any */
        int q = cc_ctz(x), s, ra2 = 0;
        pw = 2 * t->w[q] + 1;
        for (s = 0; s < 4; s++)
            ra2 = cc_max(ra2, t->run[((unsigned)(a >> (16 * s)) & 0xFFFu) & ~(1u << q)]);
        w2 = cc_max(w2, (pw + ra2 - 1) & -(ra2 > 0));
        p2 = cc_max(p2, cc_min(p1, pw));
        p1 = cc_max(p1, pw);
    }
    w2 = cc_max(w2, (p1 + p2 - 1) & -(p2 > 0)); /* two pairs */
    /* q held twice: its points again, and the parts of its lane up to q and from q up */
    c = cc_ctz(b | (UINT64_C(1) << 63));
    bp = t->w[c & 15]; /* place 15: no card, 0 points */
    lane = (unsigned)(a >> (c & 48)) & 0xFFFu;
    bit = 1u << (c & 15);
    plo = t->run[lane & (2 * bit - 1)];
    phi = t->run[lane & (0 - bit)];
    w2 = cc_max(w2, (plo + phi - 1) & -((b != 0) & (plo > 0) & (phi > 0)));
    return total + bp + nj * jp -
           cc_max((jp + w1 - 1) & -(w1 > 0), (2 * jp + w2 - 1) & -(w2 > 0));
}

/* ------------------------------------------------------------------ batch rows */

/* Hint points of the 8 valid cards h with one joker whose natural cards (a, b) (working
 * space) hold no natural meld, by table, in h's raw card order (the working space keeps
 * it, and keeps the jokers' bits 0, 12, 28: never a natural card there). Discarding a
 * natural card x changes x's lane and drops x's rank from the ranks held twice (two
 * copies exactly: none is left a pair), so its heaviest part is three lookups against
 * the other lanes' best. Each card's place in the output is the count of cards below
 * it (copies counted), so the natural cards need no branch on the joker, whose hint
 * (the natural cards' points: no meld, no joker) is written after them. Inlined per
 * deck count (two == 0: b == 0 and nothing held twice folded). O(8) lookups. */
CC_FORCE_INLINE void cc_jtab_hints1(const jtab *t, const cc_rules *view, const cc_rules *local,
                                    cc_hand h, uint64_t a, uint64_t b, uint8_t *points,
                                    int two)
{
    uint64_t jm = h.once & local->joker_mask, y = a | jm, pairs = cc_jpairs(a, b), x;
    uint64_t twice = two ? b | (h.twice & local->joker_mask) : 0;
    int jp = local->joker_points, s, r[4], rest[4];
    int total = cc_wpop(view, a) + (two ? cc_wpop(view, b) : 0);
    unsigned l[4];
    for (s = 0; s < 4; s++) {
        l[s] = (unsigned)(a >> (16 * s)) & 0xFFFu;
        r[s] = t->run[l[s]];
    }
    rest[0] = cc_max(r[1], cc_max(r[2], r[3])); /* the best run part outside each lane */
    rest[1] = cc_max(r[0], cc_max(r[2], r[3]));
    rest[2] = cc_max(cc_max(r[0], r[1]), r[3]);
    rest[3] = cc_max(cc_max(r[0], r[1]), r[2]);
    for (x = a; x != 0; x &= x - 1) {
        uint64_t bit = x & (~x + 1), below = bit - 1;
        int c = cc_ctz(x), q = c & 15, ls = c >> 4, w, k, d;
        unsigned lx = (two && (b & bit)) ? l[ls] : l[ls] & ~(1u << q);
        w = cc_max(cc_max(t->pair[pairs & ~(UINT64_C(1) << q)], t->run[lx]), rest[ls]);
        d = total - t->w[q] - (w > 0 ? w - 1 : -jp);
        k = cc_popcount(y & below) + (two ? cc_popcount(twice & below) : 0);
        points[k] = (uint8_t)d;
        if (two && (twice & bit))
            points[k + 1] = (uint8_t)d;
    }
    for (x = jm; x != 0; x &= x - 1) {
        uint64_t bit = x & (~x + 1), below = bit - 1;
        int k = cc_popcount(y & below) + (two ? cc_popcount(twice & below) : 0);
        points[k] = (uint8_t)total;
        if (two && (twice & bit))
            points[k + 1] = (uint8_t)total;
    }
}

/* The same with two jokers or more and no card held twice (b == 0), discard by
 * discard from what the whole hand's lanes give: discarding x changes x's lane only and
 * drops x's rank from the ranks held twice, so each term of cc_jtab_w is that lane's
 * new lookups against the other lanes' best (run and two-part tables, the two heaviest
 * lanes, and per rank held twice the heaviest run avoiding its cards), all computed
 * once. A card no part holds (no other card of its rank, none within two places in its
 * suit) leaves every part whole: its hint is the whole hand's deadwood less its points.
 * A discard's terms are chosen by masks, not branches: which of them exist changes from
 * discard to discard. Every table is read before the first store to points (a byte
 * store may alias them). Places in the output as in cc_jtab_hints1 (two: a joker held
 * twice, the only card held twice here). O(8) lookups plus O(ranks held twice) a
 * discard. */
CC_FORCE_INLINE void cc_jtab_hints2(const jtab *t, const cc_rules *view, const cc_rules *local,
                                    cc_hand h, uint64_t a, int nj, uint8_t *points, int two)
{
    uint64_t jm = h.once & local->joker_mask, twice = two ? h.twice & local->joker_mask : 0;
    uint64_t y = a | jm, pairs = cc_jpairs(a, 0), x;
    uint64_t inpart = a & ((a << 1) | (a << 2) | (a >> 1) | (a >> 2) | (pairs * CC_LANES));
    int jp = local->joker_points, total = cc_wpop(view, a), s, i, k, np = 0;
    int r[4], r2[4], rest1[4], rest2[4], o1[4], o2[4], pq[4], pw[4], avo[4][4], ra[4];
    int w1a, w2a, p1a = 0, p2a = 0, djoker, dwhole, out[8], slot[8], n = 0;
    unsigned l[4];
    for (s = 0; s < 4; s++) {
        l[s] = (unsigned)(a >> (16 * s)) & 0xFFFu;
        r[s] = t->run[l[s]];
        r2[s] = t->run2[l[s]];
    }
    for (s = 0; s < 4; s++) { /* the other three lanes: best run, best two, top two runs */
        rest1[s] = rest2[s] = o1[s] = o2[s] = 0;
        for (k = 0; k < 4; k++) {
            if (k == s)
                continue;
            rest1[s] = cc_max(rest1[s], r[k]);
            rest2[s] = cc_max(rest2[s], r2[k]);
            o2[s] = cc_max(o2[s], cc_min(o1[s], r[k]));
            o1[s] = cc_max(o1[s], r[k]);
        }
    }
    /* the whole hand: cc_jtab_w's terms from the same lookups */
    w1a = cc_max(cc_max(t->pair[pairs], r[0]), rest1[0]);
    w2a = cc_max(cc_max(r2[0], rest2[0]), (cc_max(r[0], o1[0]) +
                                           cc_max(cc_min(r[0], o1[0]), o2[0]) - 1) &
                                              -(cc_max(cc_min(r[0], o1[0]), o2[0]) > 0));
    for (x = pairs; x != 0 && np < 4; x &= x - 1, np++) {
        int q = cc_ctz(x), rq[4];
        unsigned qb = ~(1u << q);
        pq[np] = q;
        pw[np] = 2 * t->w[q] + 1;
        for (k = 0; k < 4; k++)
            rq[k] = t->run[l[k] & qb];
        ra[np] = cc_max(cc_max(rq[0], rq[1]), cc_max(rq[2], rq[3]));
        w2a = cc_max(w2a, (pw[np] + ra[np] - 1) & -(ra[np] > 0));
        p2a = cc_max(p2a, cc_min(p1a, pw[np]));
        p1a = cc_max(p1a, pw[np]);
        for (s = 0; s < 4; s++) { /* the best run avoiding rank q outside lane s */
            avo[np][s] = 0;
            for (k = 0; k < 4; k++)
                avo[np][s] = k == s ? avo[np][s] : cc_max(avo[np][s], rq[k]);
        }
    }
    w2a = cc_max(w2a, (p1a + p2a - 1) & -(p2a > 0));
    djoker = total + (nj - 1) * jp - cc_jtab_gain(jp, nj - 1, w1a, w2a);
    dwhole = total + nj * jp - cc_jtab_gain(jp, nj, w1a, w2a);
    total += nj * jp;
    for (x = inpart; x != 0; x &= x - 1, n++) {
        uint64_t below = (x & (~x + 1)) - 1;
        int c = cc_ctz(x), q = c & 15, ls = c >> 4, rx, w1, w2, m1, m2, p1 = 0, p2 = 0;
        unsigned lx = l[ls] & ~(1u << q);
        rx = t->run[lx];
        w1 = cc_max(cc_max(t->pair[pairs & ~(UINT64_C(1) << q)], rx), rest1[ls]);
        w2 = cc_max(t->run2[lx], rest2[ls]);
        m1 = cc_max(rx, o1[ls]);
        m2 = cc_max(cc_min(rx, o1[ls]), o2[ls]);
        w2 = cc_max(w2, (m1 + m2 - 1) & -(m2 > 0));
        for (i = 0; i < np; i++) { /* a pair (not x's rank: one copy left) and a run */
            int v = pw[i] & -(pq[i] != q);
            int rv = cc_max(t->run[lx & ~(1u << pq[i])], avo[i][ls]);
            w2 = cc_max(w2, (v + rv - 1) & -((v != 0) & (rv != 0)));
            p2 = cc_max(p2, cc_min(p1, v));
            p1 = cc_max(p1, v);
        }
        w2 = cc_max(w2, (p1 + p2 - 1) & -(p2 > 0));
        out[n] = total - t->w[q] - cc_jtab_gain(jp, 2, w1, w2);
        slot[n] = cc_popcount(y & below) + (two ? cc_popcount(twice & below) : 0);
    }
    for (x = a & ~inpart; x != 0; x &= x - 1, n++) {
        uint64_t below = (x & (~x + 1)) - 1;
        out[n] = dwhole - t->w[cc_ctz(x) & 15];
        slot[n] = cc_popcount(y & below) + (two ? cc_popcount(twice & below) : 0);
    }
    for (i = 0; i < n; i++)
        points[slot[i]] = (uint8_t)out[i];
    for (x = jm; x != 0; x &= x - 1) {
        uint64_t bit = x & (~x + 1), below = bit - 1;
        k = cc_popcount(y & below) + (two ? cc_popcount(twice & below) : 0);
        points[k] = (uint8_t)djoker;
        if (two && (twice & bit))
            points[k + 1] = (uint8_t)djoker;
    }
}

/* A row's natural cards (a, b) (working space) hold no natural meld. O(1). */
CC_INLINE int cc_no_meld(uint64_t a, uint64_t b)
{
    return (a & (cc_run_cards(a) | cc_set_columns(a, b))) == 0;
}

/* The tables for a row of nj jokers, built on first need. O(1) once built. */
CC_INLINE const jtab *cc_jtab_ready(jtab *t, const cc_rules *view, int places, int nj)
{
    if (t->size == 0)
        cc_jtab_build(t, view->wpoints, places);
    if (nj >= 2 && !t->have2)
        cc_jtab_build2(t);
    return t;
}

/* The tables and lane table for a deadwood row of nj >= 2 jokers, built on first need.
 * O(1) once built. */
CC_INLINE const jtab *cc_jtab_ready_lane(jtab *t, const cc_rules *view, int places, int nj)
{
    if (!t->have_lane) { /* (the lane table comes last: the others are built) */
        cc_jtab_ready(t, view, places, nj);
        cc_jtab_build_lane(t);
    }
    return t;
}

/* The rows of cc_var_batch, inlined once per (deck count, hints) so the joker-free rows
 * run the house kernels with constants folded. t: tables for the rows with jokers and
 * no natural meld (NULL: a small batch, the single-hand search). */
CC_FORCE_INLINE cc_status cc_var_rows(const cc_rules *local, const cc_rules *view, int hints,
                                      const uint64_t *masks, size_t n, int decks,
                                      uint8_t *out, size_t *bad_row, jtab *t)
{
    size_t i;
    /* the rules' values, read once (the stores to out could alias them) */
    const int dk = local->deck, places = dk == 40 ? 10 : CC_NRANKS, jp = local->joker_points;
    const uint64_t jm = local->joker_mask, deck = local->card_mask;
    const uint64_t cards = CC_LANE_MASK | (jm & deck);
    for (i = 0; i < n; i++) {
        cc_hand h;
        int held, nj;
        uint64_t a, b;
        cc_status st;
        h.once = decks == 1 ? masks[i] : masks[2 * i];
        h.twice = decks == 1 ? 0 : masks[2 * i + 1];
        st = cc_var_status_masks(cards, deck, h, CC_MAX_HAND, hints ? CC_MAX_HAND : -1, &held);
        if (st != CC_OK) {
            if (bad_row != NULL)
                *bad_row = i;
            return st;
        }
        if ((h.once & jm) == 0) {
            /* no joker: the house kernels on the run-order space */
            if (hints) {
                cc_hand w;
                w.once = cc_var_compact(dk, h.once);
                w.twice = cc_var_compact(dk, h.twice);
                cc_hints_plain(view, w, out + 8 * i);
            } else {
                out[i] = (uint8_t)cc_deadwood_core(view, cc_var_compact(dk, h.once),
                                                   cc_var_compact(dk, h.twice));
            }
            continue;
        }
        /* jokers: natural cards to the run-order space, jokers counted */
        nj = cc_popcount(h.once & jm) + (decks == 1 ? 0 : cc_popcount(h.twice & jm));
        a = cc_var_compact(dk, h.once & ~jm);
        b = decks == 1 ? 0 : cc_var_compact(dk, h.twice & ~jm);
        if (!hints) {
            uint64_t pairs;
            int by_table = cc_jtab_free(a, b, &pairs) && t != NULL;
            if (by_table && nj == 1)
                out[i] = (uint8_t)cc_jtab_dead(cc_jtab_ready(t, view, places, 1), jp, a, b,
                                               cc_wpop(view, a) + cc_wpop(view, b));
            else if (by_table && (b & (b - 1)) == 0)
                /* (two cards held twice: a part may be held twice; the single-hand
                   search) */
                out[i] = (uint8_t)cc_jtab_dead2(cc_jtab_ready_lane(t, view, places, nj), jp, a,
                                                b, pairs, nj);
            else
                out[i] = (uint8_t)cc_joker_deadwood(view, local, a, b, nj, 4 * decks);
            continue;
        }
        if (t != NULL && (nj == 1 || b == 0) && cc_no_meld(a, b)) {
            /* (two jokers and a card held twice: two run parts may share its places,
               which a lane's pattern does not show; the single-hand search does) */
            const jtab *r = cc_jtab_ready(t, view, places, nj);
            if (hints && nj == 1 && decks == 1)
                cc_jtab_hints1(r, view, local, h, a, 0, out + 8 * i, 0);
            else if (hints && nj == 1)
                cc_jtab_hints1(r, view, local, h, a, b, out + 8 * i, 1);
            else if (hints && decks == 1)
                cc_jtab_hints2(r, view, local, h, a, nj, out + 8 * i, 0); /* b == 0 */
            else if (hints)
                cc_jtab_hints2(r, view, local, h, a, nj, out + 8 * i, 1);
        } else if (hints) {
            if (decks == 1)
                cc_joker_hints_one(view, local, h, 4, out + 8 * i);
            else
                cc_joker_hints_two(view, local, h, 8, out + 8 * i);
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
    jtab tab, *t = n >= (hints ? CC_JTAB_ROWS_HINTS : CC_JTAB_ROWS_DEADWOOD) ? &tab : NULL;
    tab.size = 0;
    tab.have_lane = 0;
    if (hints)
        return decks == 1 ? cc_var_rows(&local, &view, 1, masks, n, 1, out, bad_row, t)
                          : cc_var_rows(&local, &view, 1, masks, n, 2, out, bad_row, t);
    return decks == 1 ? cc_var_rows(&local, &view, 0, masks, n, 1, out, bad_row, t)
                      : cc_var_rows(&local, &view, 0, masks, n, 2, out, bad_row, t);
}
