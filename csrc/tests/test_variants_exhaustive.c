/*
 * test_variants_exhaustive.c -- every 7-card hand of the 40-card deck with the wild ace
 * of coins (conga rules; 40 choose 7 = 18,643,560 hands): deadwood, best arrangement and
 * outcome, each against the brute force of variants_brute.h. ctest's label
 * "exhaustive" (csrc/tests/run.sh with CHINCHON_EXHAUSTIVE=1; ~40 s of CPU).
 */
#include "variants_brute.h"

/* Every 7-card hand of the 40-card deck under conga (the wild ace of coins). */
static void exhaustive(void)
{
    const trules *tr = &presets[2];
    cc_rules cr = to_core(tr, 1);
    int cards[40], n = 0, i, idx[7];
    long count = 0;
    for (i = 0; i < 64; i++)
        if ((i & 15) < 12 && t_place(tr, (i & 15) + 1) >= 0)
            cards[n++] = i;
    for (i = 0; i < 7; i++)
        idx[i] = i;
    for (;;) {
        cc_hand h = {0, 0};
        int c[7], d, k;
        cc_arrangement a;
        cc_outcome o;
        tarr best;
        for (i = 0; i < 7; i++) {
            c[i] = cards[idx[i]];
            h.once |= UINT64_C(1) << c[i];
        }
        best = t_best(tr, 1, c, 7);
        if (cc_deadwood(&cr, h, &d) != CC_OK || d != best.points)
            FAIL_HAND("exhaustive deadwood", tr->name, h);
        if (cc_best_melds(&cr, h, &a) != CC_OK || !same_arrangement(&a, &best, h, c))
            FAIL_HAND("exhaustive best_melds", tr->name, h);
        if (cc_close_outcome(&cr, h, &o) != CC_OK || (int)o != t_outcome(tr, c, 7, best.points))
            FAIL_HAND("exhaustive close_outcome", tr->name, h);
        count++;
        /* next combination */
        for (k = 6; k >= 0 && idx[k] == 40 - 7 + k; k--)
            ;
        if (k < 0)
            break;
        idx[k]++;
        for (i = k + 1; i < 7; i++)
            idx[i] = idx[i - 1] + 1;
    }
    th_checks += count;
    printf("exhaustive: %ld hands of 7 of the 40-card deck (conga)\n", count);
    if (count != 18643560L)
        FAIL("exhaustive count %ld", count);
}


int main(void)
{
    exhaustive();
    return th_report("test_variants_exhaustive");
}
