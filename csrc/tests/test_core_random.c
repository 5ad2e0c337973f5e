/*
 * test_core_random.c -- the house-rule calls of the core on random hands (uniform,
 * meld-rich, run-rich; one and two decks; the house and other point tables), the meld
 * enumeration of bigger hands, and the batch calls against the one-hand calls, each
 * against the brute force of core_brute.h.
 *
 * Iterations scale with CC_TEST_ITERS (default 200000); CC_TEST_SEED sets the seed.
 * Exit status: 0 when everything agrees.
 */
#include "core_brute.h"

/* check_hand on iters random hands: mode 0 uniform, 1 meld-rich (3-4 ranks), 2
 * run-rich (2-3 suits, 4-7 ranks). O(iters * brute force). */
static void run_random(const cc_rules *rules, long iters, int decks, int mode, const char *label)
{
    long i;
    for (i = 0; i < iters; i++) {
        cc_hand h;
        int k = gen_count();
        if (mode == 0) {
            h = gen_hand(k, decks, 15u, 1, 12);
        } else if (mode == 1) { /* meld-rich: all suits, a window of 3-4 ranks */
            int w = 3 + rnd(2), lo = 1 + rnd(13 - w);
            h = gen_hand(k, decks, 15u, lo, lo + w - 1);
        } else { /* run-rich: 2-3 suits, a window of 4-7 ranks */
            unsigned suits = 0;
            int w = 4 + rnd(4), lo = 1 + rnd(13 - w), ns = 2 + rnd(2);
            while (ns > 0) {
                unsigned bit = 1u << rnd(4);
                if (!(suits & bit)) {
                    suits |= bit;
                    ns--;
                }
            }
            h = gen_hand(k, decks, suits, lo, lo + w - 1);
        }
        check_hand(rules, h, label);
    }
}

/* The batch calls agree with the one-hand calls on random rows, both deck counts.
 * O(iters). */
static void batches(const cc_rules *rules, long iters)
{
    enum { N = 512 };
    static uint64_t rows[2 * N];
    static uint8_t out[8 * N];
    long it;
    int decks;
    for (it = 0; it < iters; it += N) {
        for (decks = 1; decks <= 2; decks++) {
            int i;
            size_t bad;
            cc_status st;
            for (i = 0; i < N; i++) {
                cc_hand h = gen_hand(gen_count(), decks, 15u, 1, 12);
                if (decks == 1)
                    rows[i] = h.once;
                else {
                    rows[2 * i] = h.once;
                    rows[2 * i + 1] = h.twice;
                }
            }
            st = cc_deadwood_batch(rules, rows, N, decks, out, &bad);
            CHECK(st == CC_OK, "deadwood_batch: status %s", cc_status_name(st));
            for (i = 0; i < N; i++) {
                cc_hand h;
                int dw;
                h.once = decks == 1 ? rows[i] : rows[2 * i];
                h.twice = decks == 1 ? 0 : rows[2 * i + 1];
                cc_deadwood(rules, h, &dw);
                th_checks++;
                if (out[i] != dw)
                    FAIL("deadwood_batch: differs from cc_deadwood");
            }
            for (i = 0; i < N; i++) {
                int lo = 1 + rnd(6);
                cc_hand h = gen_hand(8, decks, 15u, lo, lo + 6); /* meld-richer */
                if (decks == 1)
                    rows[i] = h.once;
                else {
                    rows[2 * i] = h.once;
                    rows[2 * i + 1] = h.twice;
                }
            }
            st = cc_hints_batch(rules, rows, N, decks, out, &bad);
            CHECK(st == CC_OK, "hints_batch: status %s", cc_status_name(st));
            for (i = 0; i < N; i++) {
                cc_hand h;
                uint16_t p[8];
                h.once = decks == 1 ? rows[i] : rows[2 * i];
                h.twice = decks == 1 ? 0 : rows[2 * i + 1];
                cc_discard_hints(rules, h, p, NULL);
                th_checks++;
                if (!th_same_points(p, out + 8 * i, 8))
                    FAIL("hints_batch: differs from cc_discard_hints");
            }
        }
    }
}

/* Run every check; CC_TEST_ITERS scales them. Exit status 0 when all pass.
 * About 5-10 s at the default 200000. */
int main(void)
{
    long iters = core_iters();
    cc_rules house, tables[4];
    int t;

    cc_rules_default(&house);
    core_point_tables(tables);

    run_random(&house, iters, 1, 0, "single");
    run_random(&house, iters, 2, 0, "double");
    run_random(&house, iters / 2, 1, 1, "single-rich");
    run_random(&house, iters / 2, 2, 1, "double-rich");
    run_random(&house, iters / 4, 1, 2, "single-runs");
    run_random(&house, iters / 4, 2, 2, "double-runs");
    for (t = 0; t < 4; t++) {
        run_random(&tables[t], iters / 16, 1, 1, "table-single-rich");
        run_random(&tables[t], iters / 16, 2, 1, "table-double-rich");
        run_random(&tables[t], iters / 16, 2, 2, "table-double-runs");
    }
    /* enumeration and key order on bigger hands (up to 12 cards) */
    {
        long i;
        for (i = 0; i < iters / 20; i++) {
            int lo = 1 + rnd(9);
            cc_hand h = gen_hand(9 + rnd(4), 1 + rnd(2), 15u, lo, lo + 3);
            cardlist l = to_list(h);
            static bmeld bm[BMAX];
            static cc_meld cm[BMAX];
            int kb = brute_melds(&l, bm), kc = cc_enumerate_melds(h, cm, BMAX), j, ok;
            ok = kb == kc;
            for (j = 0; ok && j < kb; j++)
                ok = cm[j].kind == bm[j].kind && th_same(cm[j].cards, bmeld_hand(&bm[j]));
            th_checks++;
            if (!ok)
                FAIL("enumerate: hand of 9-12 cards");
        }
    }
    batches(&house, iters / 4);

    printf("test_core_random: iters=%ld\n", iters);
    return th_report("test_core_random");
}
