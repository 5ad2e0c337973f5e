/*
 * joker_tables.c -- the builders of the per-lane tables of joker_tables.h (what they
 * hold is said there).
 */
#include "chinchon.h"

#include "base/bits.h"
#include "jokers/joker_tables.h"

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
void cc_jtab_build(jtab *t, const uint8_t *w, int places)
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
void cc_jtab_build2(jtab *t)
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

/* Fill u.n (after cc_jtab_build2, for a batch of hints): run and run2 as points or
 * CC_JNO_PART. O(2^places). */
void cc_jtab_build_n(jtab *t)
{
    unsigned p;
    for (p = 0; p < (unsigned)t->size; p++) {
        t->u.n.runn[p] = (int16_t)(t->run[p] > 0 ? t->run[p] - 1 : CC_JNO_PART);
        t->u.n.run2n[p] = (int16_t)(t->run2[p] > 0 ? t->run2[p] - 1 : CC_JNO_PART);
    }
    t->have_n = 1;
}

/* Fill u.lane (after cc_jtab_build2, for a batch of deadwood): a pattern's points in the low 16 bits (four lanes'
 * sum stays below 2^16: <= 4 * 12 * 31), its run2 and run entries above, so that one
 * lookup a lane gives all three to the two-joker rows. O(2^places). */
void cc_jtab_build_lane(jtab *t)
{
    unsigned p;
    t->u.lane[0] = 0;
    for (p = 1; p < (unsigned)t->size; p++) {
        uint32_t pts = (t->u.lane[p & (p - 1)] & 0xFFFFu) + t->w[cc_ctz(p)];
        t->u.lane[p] = pts | (uint32_t)t->run2[p] << 16 | (uint32_t)t->run[p] << 24;
    }
    t->have_lane = 1;
}
