/*
 * joker_batch.c -- the batch rows under rules that are not plain (deadwood_batch and
 * hints_batch), and the kernels that weigh the joker rows of a large batch by the
 * per-lane tables of joker_tables.h.
 * Rows without a joker run the house kernels on the run-order space; rows with jokers
 * and a natural meld, or in a small batch, the single-hand search of jokers.c.
 */
#include "chinchon.h"

#include <string.h>

#include "base/bits.h"
#include "base/hand.h"
#include "jokers/joker_batch.h"
#include "jokers/joker_tables.h"
#include "jokers/jokers.h"
#include "jokers/variants.h"
#include "melds/hints.h"
#include "melds/melds.h"
#include "simd/simd.h"

/* The heaviest part of natural cards (a, b) with no natural meld, by table, 1 + its
 * points (0: none): a rank held twice or a lane's run part. O(1): five lookups. */
CC_INLINE int cc_jbatch_w1(const jtab *t, uint64_t a, uint64_t b)
{
    int r[4], s;
    for (s = 0; s < 4; s++)
        r[s] = t->run[(unsigned)(a >> (16 * s)) & 0xFFFu];
    return cc_max(cc_max(t->pair[cc_ranks_twice(a, b)], r[0]), cc_max(cc_max(r[1], r[2]), r[3]));
}

/* The points nj jokers save (their own included) given cc_jtab_w's w1, w2: none, the
 * heaviest part with one, or the heaviest two with one each. O(1). */
CC_INLINE int cc_jbatch_gain(int jp, int nj, int w1, int w2)
{
    return cc_max((jp + w1 - 1) & -((nj >= 1) & (w1 > 0)),
                  (2 * jp + w2 - 1) & -((nj >= 2) & (w2 > 0)));
}

/* Deadwood of natural cards (a, b) with no natural meld, points total, and one joker,
 * by table. O(1). */
CC_INLINE int cc_jbatch_dead(const jtab *t, int jp, uint64_t a, uint64_t b, int total)
{
    return total + jp - cc_jbatch_gain(jp, 1, cc_jbatch_w1(t, a, b), 0);
}

/* Whether natural cards (a, b) (working space) hold no natural meld -- cc_no_meld, with
 * the lanes read once -- and *pairs: their ranks held twice (cc_ranks_twice). O(1). */
CC_INLINE int cc_jbatch_free(uint64_t a, uint64_t b, uint64_t *pairs)
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
CC_INLINE int cc_jbatch_dead2(const jtab *t, int jp, uint64_t a, uint64_t b, uint64_t pairs,
                            int nj)
{
    unsigned l0 = (unsigned)a & 0xFFFu, l1 = (unsigned)(a >> 16) & 0xFFFu;
    unsigned l2 = (unsigned)(a >> 32) & 0xFFFu, l3 = (unsigned)(a >> 48) & 0xFFFu;
    uint32_t e0 = t->u.lane[l0], e1 = t->u.lane[l1], e2 = t->u.lane[l2], e3 = t->u.lane[l3];
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

/* Where a card goes in a hints row: the count of the row's cards below it (bits
 * `below`), copies counted (y: the cards, twice: those held twice; two == 0 folds the
 * copies away). O(1). */
CC_FORCE_INLINE int cc_jbatch_at(uint64_t y, uint64_t twice, uint64_t below, int two)
{
    return cc_popcount(y & below) + (two ? cc_popcount(twice & below) : 0);
}

/* The hint d of every joker card of jm, each at its place in the row (cc_jbatch_at), a
 * joker held twice at both. O(jokers). */
CC_FORCE_INLINE void cc_jbatch_put_jokers(uint8_t *points, uint64_t jm, uint64_t y,
                                          uint64_t twice, int two, int d)
{
    uint64_t x;
    for (x = jm; x != 0; x &= x - 1) {
        uint64_t bit = x & (~x + 1);
        int k = cc_jbatch_at(y, twice, bit - 1, two);
        points[k] = (uint8_t)d;
        if (two && (twice & bit))
            points[k + 1] = (uint8_t)d;
    }
}

/* Hint points of the 8 valid cards h with one joker whose natural cards (a, b) (working
 * space) hold no natural meld, by table, in h's raw card order (the working space keeps
 * it, and keeps the jokers' bits 0, 12, 28: never a natural card there). Discarding a
 * natural card x changes x's lane and drops x's rank from the ranks held twice (two
 * copies exactly: none is left a pair), so its heaviest part is three lookups against
 * the other lanes' best. Each card's place in the output is the count of cards below
 * it (copies counted), so the natural cards need no branch on the joker, whose hint
 * (the natural cards' points: no meld, no joker) is written after them. Inlined per
 * deck count (two == 0: b == 0 and nothing held twice folded). O(8) lookups. */
CC_FORCE_INLINE void cc_jbatch_hints1(const jtab *t, const cc_rules *view, const cc_rules *local,
                                    cc_hand h, uint64_t a, uint64_t b, uint8_t *points,
                                    int two)
{
    uint64_t jm = h.once & local->joker_mask, y = a | jm, pairs = cc_ranks_twice(a, b), x;
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
        k = cc_jbatch_at(y, twice, below, two);
        points[k] = (uint8_t)d;
        if (two && (twice & bit))
            points[k + 1] = (uint8_t)d;
    }
    cc_jbatch_put_jokers(points, jm, y, twice, two, total);
}

/* The second largest of three. O(1). */
CC_INLINE int cc_second3(int x, int y, int z)
{
    return cc_max(cc_min(x, y), cc_min(cc_max(x, y), z));
}

/* For each lane s of v[4]: m[s], the largest of the other three; m2[s], the sum of the
 * two largest of the other three (CC_JNO_PART-safe: a sum holding none stays negative), or
 * nothing when m2 == NULL. O(1). */
CC_INLINE void cc_jothers(const int *v, int *m, int *m2)
{
    int a01 = cc_max(v[0], v[1]), a23 = cc_max(v[2], v[3]);
    m[0] = cc_max(v[1], a23);
    m[1] = cc_max(v[0], a23);
    m[2] = cc_max(a01, v[3]);
    m[3] = cc_max(a01, v[2]);
    if (m2 != NULL) {
        m2[0] = m[0] + cc_second3(v[1], v[2], v[3]);
        m2[1] = m[1] + cc_second3(v[0], v[2], v[3]);
        m2[2] = m[2] + cc_second3(v[0], v[1], v[3]);
        m2[3] = m[3] + cc_second3(v[0], v[1], v[2]);
    }
}

/* Hint points of the 8 valid cards h with two jokers or more whose natural cards a
 * (working space; none held twice) hold no natural meld and np <= 2 ranks held twice
 * (three: 0.4% of uniform rows, the single-hand search), by table, on the int16 tables, where "no part" is CC_JNO_PART and sums need no masks;
 * inlined once per np (0, 1, 2) and deck count, so a hand without pairs weighs no pair
 * terms. A natural card x in some part (at place q of lane s; lx: lane s without x) is
 * weighed by straight-line terms:
 *   one part:  a pair left (a pair of x's rank keeps one card: gone), runn[lx], the
 *              best run part of the other lanes;
 *   two parts: run2n[lx] or the best two of another lane; runn[lx] and the best run of
 *              the other lanes, or the best two other lanes' runs; the two pairs; a pair
 *              left and the best run avoiding its rank (in lx, or in the other lanes:
 *              computed once per pair and lane);
 * and its hint is the points less x's and the most the jokers save (none, one part with
 * a joker, or two with one each). A card in no part leaves every part whole: the whole
 * hand's deadwood less its points. A joker's discard leaves nj - 1 jokers and the whole
 * hand's parts. Places in the output as in cc_jbatch_hints1. O(8) lookups a discard. */
CC_FORCE_INLINE void cc_jbatch_hints2_np(const jtab *t, const cc_rules *view,
                                       const cc_rules *local, cc_hand h, uint64_t a,
                                       uint64_t pairs, int nj, uint8_t *points, int two,
                                       int np)
{
    const int16_t *rn = t->u.n.runn, *r2n = t->u.n.run2n;
    const uint8_t *w = t->w;
    uint64_t jm = h.once & local->joker_mask, twice = two ? h.twice & local->joker_mask : 0;
    uint64_t y = a | jm, x, inpart;
    int jp = local->joker_points, total = cc_wpop(view, a) + nj * jp, s;
    int r[4], r2[4], rest1[4], rest2[4], o12[4], c2[4], ra0[4], ra1[4], avo0[4], avo1[4];
    int pw0 = CC_JNO_PART, pw1 = CC_JNO_PART, w1a, w2a, djoker, dwhole;
    unsigned pb0 = 0, pb1 = 0;
    if (np >= 1) { /* the ranks held twice: bits pb0, pb1 and 2 * their points */
        pb0 = (unsigned)(pairs & (~pairs + 1));
        pw0 = 2 * w[cc_ctz(pairs)];
    }
    if (np >= 2) {
        pb1 = (unsigned)(pairs & (pairs - 1));
        pw1 = 2 * w[cc_ctz(pb1)];
    }
    for (s = 0; s < 4; s++) {
        unsigned ls = (unsigned)(a >> (16 * s)) & 0xFFFu;
        r[s] = rn[ls];
        r2[s] = r2n[ls];
        ra0[s] = np >= 1 ? rn[ls & ~pb0] : CC_JNO_PART;
        ra1[s] = np >= 2 ? rn[ls & ~pb1] : CC_JNO_PART;
    }
    cc_jothers(r, rest1, o12);
    cc_jothers(r2, rest2, NULL);
    for (s = 0; s < 4; s++)
        c2[s] = cc_max(rest2[s], o12[s]);
    /* the whole hand */
    w1a = cc_max(r[0], rest1[0]);
    w2a = cc_max(cc_max(r2[0], c2[0]), r[0] + rest1[0]);
    if (np >= 1) {
        cc_jothers(ra0, avo0, NULL);
        w1a = cc_max(w1a, pw0);
        w2a = cc_max(w2a, pw0 + cc_max(ra0[0], avo0[0]));
    }
    if (np >= 2) {
        cc_jothers(ra1, avo1, NULL);
        w1a = cc_max(w1a, pw1);
        w2a = cc_max(w2a, cc_max(pw0 + pw1, pw1 + cc_max(ra1[0], avo1[0])));
    }
    djoker = total - jp - cc_max(0, cc_max(jp + w1a, nj >= 3 ? 2 * jp + w2a : CC_JNO_PART));
    dwhole = total - cc_max(0, cc_max(jp + w1a, 2 * jp + w2a));
    /* the cards in some part: another of their rank, or one within two places */
    inpart = a & ((a << 1) | (a << 2) | (a >> 1) | (a >> 2) | (pairs * CC_LANES));
    for (x = inpart; x != 0; x &= x - 1) {
        uint64_t below = (x & (~x + 1)) - 1;
        int c = cc_ctz(x), q = c & 15, ls = c >> 4, rx, w1, w2;
        unsigned qb = 1u << q, lx = (unsigned)(a >> (c & 48)) & 0xFFFu & ~qb;
        rx = rn[lx];
        w1 = cc_max(rx, rest1[ls]);
        w2 = cc_max(cc_max(r2n[lx], c2[ls]), rx + rest1[ls]);
        if (np >= 1) {
            int v0 = pb0 == qb ? CC_JNO_PART : pw0;
            w1 = cc_max(w1, v0);
            w2 = cc_max(w2, v0 + cc_max(rn[lx & ~pb0], avo0[ls]));
            if (np >= 2) {
                int v1 = pb1 == qb ? CC_JNO_PART : pw1;
                w1 = cc_max(w1, v1);
                w2 = cc_max(w2, cc_max(v0 + v1, v1 + cc_max(rn[lx & ~pb1], avo1[ls])));
            }
        }
        /* (the stores may alias the tables: every read here is a fresh one) */
        points[cc_jbatch_at(y, twice, below, two)] =
            (uint8_t)(total - w[q] - cc_max(0, cc_max(jp + w1, 2 * jp + w2)));
    }
    for (x = a & ~inpart; x != 0; x &= x - 1) {
        uint64_t below = (x & (~x + 1)) - 1;
        points[cc_jbatch_at(y, twice, below, two)] = (uint8_t)(dwhole - w[cc_ctz(x) & 15]);
    }
    cc_jbatch_put_jokers(points, jm, y, twice, two, djoker);
}

/* cc_jbatch_hints2_np by the count of ranks held twice (<= 2). O(1). */
CC_FORCE_INLINE void cc_jbatch_hints2(const jtab *t, const cc_rules *view,
                                        const cc_rules *local, cc_hand h, uint64_t a, int nj,
                                        uint8_t *points, int two)
{
    uint64_t pairs = cc_ranks_twice(a, 0);
    switch (cc_popcount(pairs)) {
    case 0:
        cc_jbatch_hints2_np(t, view, local, h, a, pairs, nj, points, two, 0);
        break;
    case 1:
        cc_jbatch_hints2_np(t, view, local, h, a, pairs, nj, points, two, 1);
        break;
    default:
        cc_jbatch_hints2_np(t, view, local, h, a, pairs, nj, points, two, 2);
    }
}

/* A row's natural cards (a, b) (working space) hold no natural meld. O(1). */
CC_INLINE int cc_no_meld(uint64_t a, uint64_t b)
{
    return (a & (cc_run_cards(a) | cc_set_columns(a, b))) == 0;
}

/* Rows in a run that cc_jbatch hands to the house row kernels: below it, the call and
 * the rules' copy cost more than the rows save. */
#define CC_JBATCH_PLAIN_RUN 16
/* Rows per call of the house kernels on the 40-card deck's rows, moved to the run-order
 * space in a buffer on the stack first. */
#define CC_JBATCH_PLAIN_CHUNK 256

/* The first row from i on (n if none) holding a bit of `other`: a joker, or a bit that
 * is no natural card of the deck. The rows before it are house hands (the same checks
 * in the same order: lane bits and the deck's cards cannot fail). O(rows read). */
CC_FORCE_INLINE size_t cc_jbatch_plain_end(const uint64_t *masks, size_t i, size_t n,
                                           int decks, uint64_t other)
{
    const uint64_t *m = masks + i * (size_t)decks, *end = masks + n * (size_t)decks;
    while (end - m >= 8 && ((m[0] | m[1] | m[2] | m[3] | m[4] | m[5] | m[6] | m[7]) & other) == 0)
        m += 8; /* eight words at a time, then one row at a time */
    if (decks == 1)
        while (m < end && (m[0] & other) == 0)
            m++;
    else
        while (m < end && ((m[0] | m[1]) & other) == 0)
            m += 2;
    return (size_t)(m - masks) / (size_t)decks;
}

/* Deadwood or hints of the n house hands at masks (no joker, natural cards of the deck)
 * by the house row kernels on the run-order space (view), on the active SIMD path
 * (simd/), into out; the 40-card deck's
 * rows moved there in chunks first. Stops at the first bad row (*bad_row relative to
 * masks). O(n) house rows. */
static cc_status cc_jbatch_plain(const cc_rules *view, int hints, const uint64_t *masks,
                                 size_t n, int decks, uint8_t *out, size_t *bad_row)
{
    uint64_t buf[2 * CC_JBATCH_PLAIN_CHUNK];
    size_t i, k, m, bad = 0, width = hints ? 8 : 1;
    cc_status st = CC_OK;
    if (view->deck != 40)
        return hints ? cc_simd_hints_rows(view, masks, n, decks, out, bad_row)
                     : cc_simd_deadwood_rows(view, masks, n, decks, out, bad_row);
    for (i = 0; st == CC_OK && i < n; i += m) {
        m = n - i < CC_JBATCH_PLAIN_CHUNK ? n - i : CC_JBATCH_PLAIN_CHUNK;
        for (k = 0; k < m * (size_t)decks; k++)
            buf[k] = cc_space_compact(40, masks[i * (size_t)decks + k]);
        st = hints ? cc_simd_hints_rows(view, buf, m, decks, out + i * width, &bad)
                   : cc_simd_deadwood_rows(view, buf, m, decks, out + i * width, &bad);
        if (st != CC_OK && bad_row != NULL)
            *bad_row = i + bad;
    }
    return st;
}

/* The rows of cc_jbatch from row `from` on, inlined once per (deck count, hints) so the
 * joker-free rows run the house kernels with constants folded. t: tables for the rows
 * with jokers and no natural meld (NULL: a small batch, the single-hand search). At a
 * run of CC_JBATCH_PLAIN_RUN rows or more without a joker it returns CC_OK with the
 * run's first row and its end in stop[0], stop[1] (left alone otherwise): the caller
 * gives the run to the house row kernels; stop[2]: the first row that looks ahead
 * again (CC_JBATCH_PLAIN_RUN rows after the last look: with jokers in most short
 * stretches, a look a row cost more than the rows it would hand on). O(rows), plus a
 * look ahead every CC_JBATCH_PLAIN_RUN rows at most. */
CC_FORCE_INLINE cc_status cc_jbatch_rows(const cc_rules *local, const cc_rules *view, int hints,
                                      const uint64_t *masks, size_t from, size_t n, int decks,
                                      uint8_t *out, size_t *bad_row, jtab *t, size_t *stop)
{
    size_t i;
    /* the rules' values, read once (the stores to out could alias them) */
    const int dk = local->deck, places = dk == 40 ? 10 : CC_NRANKS, jp = local->joker_points;
    const uint64_t jm = local->joker_mask, deck = local->card_mask;
    const uint64_t cards = CC_LANE_MASK | (jm & deck);
    for (i = from; i < n; i++) {
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
            /* no joker: a long run of such rows goes to the house row kernels (the
               caller), checked once per run; a short one stays here */
            if (i >= stop[2]) { /* (in memory: no register held for it by the others) */
                size_t end = cc_jbatch_plain_end(masks, i, n, decks, ~(deck & ~jm));
                if (end - i >= CC_JBATCH_PLAIN_RUN) {
                    stop[0] = i;
                    stop[1] = end;
                    return CC_OK;
                }
                stop[2] = i + CC_JBATCH_PLAIN_RUN; /* one look a run's length at most */
            }
            /* the house kernels on the run-order space */
            if (hints) {
                cc_hand w;
                w.once = cc_space_compact(dk, h.once);
                w.twice = cc_space_compact(dk, h.twice);
                cc_hints_plain(view, w, out + 8 * i);
            } else {
                out[i] = (uint8_t)cc_melds_deadwood_core(view, cc_space_compact(dk, h.once),
                                                   cc_space_compact(dk, h.twice));
            }
            continue;
        }
        /* jokers: natural cards to the run-order space, jokers counted */
        nj = cc_popcount(h.once & jm) + (decks == 1 ? 0 : cc_popcount(h.twice & jm));
        a = cc_space_compact(dk, h.once & ~jm);
        b = decks == 1 ? 0 : cc_space_compact(dk, h.twice & ~jm);
        if (!hints) {
            uint64_t pairs;
            int by_table = cc_jbatch_free(a, b, &pairs) && t != NULL;
            if (by_table && nj == 1)
                out[i] = (uint8_t)cc_jbatch_dead(cc_jtab_ready(t, view, places, 1), jp, a, b,
                                               cc_wpop(view, a) + cc_wpop(view, b));
            else if (by_table && (b & (b - 1)) == 0)
                /* (two cards held twice: a part may be held twice; the single-hand
                   search) */
                out[i] = (uint8_t)cc_jbatch_dead2(cc_jtab_ready_lane(t, view, places, nj), jp, a,
                                                b, pairs, nj);
            else
                out[i] = (uint8_t)cc_joker_deadwood(view, local, a, b, nj, 4 * decks);
            continue;
        }
        if (t != NULL && (nj == 1 || b == 0) && cc_no_meld(a, b) &&
            (nj == 1 || cc_popcount(cc_ranks_twice(a, 0)) <= 2)) {
            /* (the hints of two jokers and a card held twice, or three ranks held
               twice: the single-hand search) */
            const jtab *r = nj >= 2 ? cc_jtab_ready_n(t, view, places, nj)
                                    : cc_jtab_ready(t, view, places, 1);
            if (hints && nj == 1 && decks == 1)
                cc_jbatch_hints1(r, view, local, h, a, 0, out + 8 * i, 0);
            else if (hints && nj == 1)
                cc_jbatch_hints1(r, view, local, h, a, b, out + 8 * i, 1);
            else if (hints && decks == 1)
                cc_jbatch_hints2(r, view, local, h, a, nj, out + 8 * i, 0); /* b == 0 */
            else if (hints)
                cc_jbatch_hints2(r, view, local, h, a, nj, out + 8 * i, 1);
        } else if (hints) {
            uint16_t p16[8];
            int k;
            if (decks == 1)
                cc_joker_hints_one(view, local, h, 4, p16);
            else
                cc_joker_hints_two(view, local, h, 8, p16);
            for (k = 0; k < 8; k++) /* (the rules' scores fit a byte: cc_jbatch) */
                out[8 * i + (size_t)k] = (uint8_t)p16[k];
        }
    }
    return CC_OK;
}

/* The rows of cc_jbatch from `from` on by cc_jbatch_rows, inlined per (deck count,
 * hints); stop as there. */
static cc_status cc_jbatch_mixed(const cc_rules *local, const cc_rules *view, int hints,
                                 const uint64_t *masks, size_t from, size_t n, int decks,
                                 uint8_t *out, size_t *bad_row, jtab *t, size_t *stop)
{
    if (hints)
        return decks == 1
                   ? cc_jbatch_rows(local, view, 1, masks, from, n, 1, out, bad_row, t, stop)
                   : cc_jbatch_rows(local, view, 1, masks, from, n, 2, out, bad_row, t, stop);
    return decks == 1
               ? cc_jbatch_rows(local, view, 0, masks, from, n, 1, out, bad_row, t, stop)
               : cc_jbatch_rows(local, view, 0, masks, from, n, 2, out, bad_row, t, stop);
}

/* Deadwood (hints == 0) or hints (hints == 1: rows of exactly 8 cards) of n batch rows
 * under rules that are not plain; stops at the first bad row. The rows with a joker (or
 * a bad row) and short runs of rows without one go by cc_jbatch_rows; each run of
 * CC_JBATCH_PLAIN_RUN rows or more without a joker by the house row kernels, at the
 * house rules' cost. */
cc_status cc_jbatch(const cc_rules *rules, int hints, const uint64_t *masks, size_t n,
                       int decks, uint8_t *out, size_t *bad_row)
{
    const cc_rules local = *rules;
    const cc_rules view = cc_view(rules);
    const size_t width = hints ? 8 : 1;
    jtab tab, *t = n >= (hints ? CC_JTAB_ROWS_HINTS : CC_JTAB_ROWS_DEADWOOD) ? &tab : NULL;
    size_t i = 0;
    tab.size = 0;
    tab.have_n = tab.have_lane = 0;
    while (i < n) {
        size_t stop[3], bad = 0;
        cc_status st;
        stop[0] = stop[1] = n;
        stop[2] = i;
        st = cc_jbatch_mixed(&local, &view, hints, masks, i, n, decks, out, bad_row,
                                       t, stop);
        if (st != CC_OK || stop[0] >= n)
            return st;
        st = cc_jbatch_plain(&view, hints, masks + stop[0] * (size_t)decks, stop[1] - stop[0],
                             decks, out + stop[0] * width, &bad);
        if (st != CC_OK) {
            if (bad_row != NULL)
                *bad_row = stop[0] + bad;
            return st;
        }
        i = stop[1];
    }
    return CC_OK;
}

/* Deadwood (hints == 0) or hints (hints == 1) of n batch rows into 16-bit results under
 * rules that are not plain, one row at a time by the single hand's search (the rules
 * whose scores can pass a byte: cc_deadwood_batch_wide); each row checked as in
 * cc_jbatch, stops at the first bad row. O(n) single-hand searches. */
cc_status cc_jbatch_wide(const cc_rules *rules, int hints, const uint64_t *masks, size_t n,
                         int decks, uint16_t *out, size_t *bad_row)
{
    cc_rules r = *rules;
    const uint64_t cards = CC_LANE_MASK | (r.joker_mask & r.card_mask);
    size_t i;
    r.decks = (uint8_t)decks; /* the set capacity of every row: 4 per deck */
    for (i = 0; i < n; i++) {
        cc_hand h;
        int held;
        cc_status st;
        h.once = decks == 1 ? masks[i] : masks[2 * i];
        h.twice = decks == 1 ? 0 : masks[2 * i + 1];
        st = cc_var_status_masks(cards, r.card_mask, h, CC_MAX_HAND, hints ? CC_MAX_HAND : -1,
                                 &held);
        if (st != CC_OK) {
            if (bad_row != NULL)
                *bad_row = i;
            return st;
        }
        if (hints)
            cc_var_hints(&r, h, out + 8 * i, NULL);
        else
            out[i] = (uint16_t)cc_var_deadwood(&r, h);
    }
    return CC_OK;
}
