/*
 * bench_core.c -- ns per hand of the chinchon C core (run by hand, not a test).
 *
 *   cmake -S csrc -B csrc/build && cmake --build csrc/build --target bench_core
 *   [CHINCHON_SIMD=scalar|avx2|avx512|neon] csrc/build/tests/bench_core [rounds [filter]]
 *
 * Random hands (7 cards for deadwood, 8 for hints), single and double deck, generated
 * up front; each line is the best of `rounds` passes over 2^16 hands, one thread. The
 * "settle" line: 2^12 closable deals (2-5 opponents, ranks in a window of 6-10 so that
 * melds and lay-offs are frequent), best of `rounds` passes.
 * Workloads as in benchmarks/conftest.py: uniform (all ranks) and meld-rich (ranks
 * confined to a 4-rank window -- 4..7 single deck, 5..8 double -- where sets and runs
 * compete). `filter` runs only the lines whose label contains it ("rich", "hints
 * double", ...); `./bench 1 <filter>` under valgrind --tool=callgrind counts the
 * instructions of one fixed set of hands (the generator is seeded); add
 * --toggle-collect=cc_deadwood_batch (or cc_hints_batch, cc_settle) to count one call.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "chinchon.h"

#include "testlib.h"

#define NHANDS (1 << 16)

static uint64_t g_rng = 12345;

/* The next number of the seeded splitmix64 generator (fixed hands per line).
 * O(1). */
static uint64_t next_u64(void) { return th_splitmix64(&g_rng); }

/* Monotonic clock in nanoseconds.
 * O(1). */
static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* k random cards of ranks lo..hi dealt from `decks` decks, as (once, twice).
 * O(k) expected. */
static void deal(int k, int decks, int lo, int hi, uint64_t *once, uint64_t *twice)
{
    int count[64] = {0}, n = 0;
    cc_hand h = {0, 0};
    while (n < k) {
        int idx = (int)(next_u64() % 4) * 16 + lo - 1 + (int)(next_u64() % (uint64_t)(hi - lo + 1));
        if (count[idx] >= decks)
            continue;
        count[idx]++;
        h = th_add(h, idx);
        n++;
    }
    *once = h.once;
    *twice = h.twice;
}

/* k random cards of the rules' deck(s), exactly nj of them jokers, as (once, twice).
 * O(k) expected. */
static void deal_variant(const cc_rules *rules, int k, int decks, int nj, uint64_t *once,
                         uint64_t *twice)
{
    int count[64] = {0}, n = 0;
    cc_hand h = {0, 0};
    uint64_t jm = rules->joker_mask, naturals = rules->card_mask & ~jm;
    while (n < k) {
        int idx = (int)(next_u64() % 64);
        uint64_t bit = UINT64_C(1) << idx;
        int joker = (jm & bit) != 0;
        if (!(rules->card_mask & bit) || count[idx] >= decks || (joker && n >= nj) ||
            (!joker && n < nj) || !((joker ? jm : naturals) & bit))
            continue;
        count[idx]++;
        h = th_add(h, idx);
        n++;
    }
    *once = h.once;
    *twice = h.twice;
}

static uint64_t rows1[NHANDS], rows2[2 * NHANDS];
static uint8_t out[8 * NHANDS];

#define NDEALS (1 << 12)

static cc_hand deals[NDEALS][1 + CC_MAX_OPPONENTS];
static int deal_opponents[NDEALS], deal_decks[NDEALS];

/* NDEALS closable deals: 1-2 decks, 2-5 opponents, ranks in a window of 6-10.
 * O(NDEALS) deals and closing checks. */
static void make_deals(const cc_rules *rules)
{
    int done = 0;
    g_rng = 777;
    while (done < NDEALS) {
        int deck[96], nd = 0, decks = (int)(next_u64() % 2) + 1, s, k, i;
        int n_opp = decks == 1 ? 2 + (int)(next_u64() % 2) : 4 + (int)(next_u64() % 2);
        int lo = (int)(next_u64() % 6), width = 6 + (int)(next_u64() % 5);
        cc_outcome outcome;
        for (k = 0; k < decks; k++)
            for (s = 0; s < 4; s++)
                for (i = lo; i < lo + width && i < CC_NRANKS; i++)
                    deck[nd++] = 16 * s + i;
        if (nd < 7 * (n_opp + 1))
            continue;
        for (i = nd - 1; i > 0; i--) {
            int j = (int)(next_u64() % (uint64_t)(i + 1)), t = deck[i];
            deck[i] = deck[j];
            deck[j] = t;
        }
        for (k = 0; k <= n_opp; k++) {
            cc_hand h = {0, 0};
            for (i = 0; i < 7; i++)
                h = th_add(h, deck[7 * k + i]);
            deals[done][k] = h;
        }
        if (cc_close_outcome(rules, deals[done][0], &outcome) != CC_OK ||
            outcome == CC_CANNOT_CLOSE)
            continue;
        deal_opponents[done] = n_opp;
        deal_decks[done] = decks;
        done++;
    }
}

/* One pass of cc_settle over every deal; returns a checksum of the points.
 * O(NDEALS) settlements. */
static unsigned settle_all(const cc_rules *rules)
{
    cc_settlement s;
    unsigned acc = 0;
    int i;
    for (i = 0; i < NDEALS; i++) {
        cc_settle(rules, deals[i][0], &deals[i][1], deal_opponents[i], deal_decks[i], &s);
        acc += (unsigned)s.points[deal_opponents[i]];
    }
    return acc;
}

/* Each workload line: best of `rounds` passes (argv[1], default 20), lines filtered
 * by argv[2]. O(rounds * 2^16) calls per line. */
int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 20, r, decks, k, rich;
    const char *filter = argc > 2 ? argv[2] : "";
    cc_rules rules;
    volatile unsigned sink = 0;
    cc_rules_default(&rules);
    if (getenv("CHINCHON_SIMD") != NULL) { /* the batch lines on one SIMD path */
        int p;
        for (p = 0; p < CC_SIMD_END; p++)
            if (strcmp(getenv("CHINCHON_SIMD"), cc_simd_name((cc_simd)p)) == 0 &&
                cc_simd_use((cc_simd)p) == CC_OK)
                break;
        if (p == CC_SIMD_END) {
            fprintf(stderr, "CHINCHON_SIMD=%s: not a supported path\n", getenv("CHINCHON_SIMD"));
            return 2;
        }
    }
    printf("SIMD path: %s\n", cc_simd_name(cc_simd_active()));

    for (rich = 0; rich <= 1; rich++)
    for (k = 7; k <= 8; k++) {
        for (decks = 1; decks <= 2; decks++) {
            size_t i, bad;
            double best_call = 1e30, best_batch = 1e30;
            int lo = rich ? 3 + decks : 1, hi = rich ? lo + 3 : 12;
            char label[64];
            snprintf(label, sizeof label, "%-8s %d cards, %s deck, %-9s", k == 7 ? "deadwood" : "hints", k,
                     decks == 1 ? "single" : "double", rich ? "meld-rich" : "uniform");
            if (strstr(label, filter) == NULL)
                continue;
            g_rng = 12345 + (uint64_t)(16 * rich + 4 * k + decks); /* fixed hands per line */
            for (i = 0; i < NHANDS; i++) {
                uint64_t o, t;
                deal(k, decks, lo, hi, &o, &t);
                rows1[i] = o;
                rows2[2 * i] = o;
                rows2[2 * i + 1] = t;
            }
            for (r = 0; r < rounds; r++) {
                double t0 = now_ns(), t1, t2;
                unsigned acc = 0;
                for (i = 0; i < NHANDS; i++) {
                    cc_hand h;
                    h.once = rows2[2 * i];
                    h.twice = rows2[2 * i + 1];
                    if (k == 7) {
                        int d;
                        cc_deadwood(&rules, h, &d);
                        acc += (unsigned)d;
                    } else {
                        uint16_t p[8];
                        cc_discard_hints(&rules, h, p, NULL);
                        acc += p[0] + p[7];
                    }
                }
                t1 = now_ns();
                if (k == 7)
                    cc_deadwood_batch(&rules, decks == 1 ? rows1 : rows2, NHANDS, decks, out, &bad);
                else
                    cc_hints_batch(&rules, decks == 1 ? rows1 : rows2, NHANDS, decks, out, &bad);
                t2 = now_ns();
                sink += acc + out[NHANDS / 2];
                if (t1 - t0 < best_call)
                    best_call = t1 - t0;
                if (t2 - t1 < best_batch)
                    best_batch = t2 - t1;
            }
            printf("%s: %6.2f ns/hand (single calls), %6.2f ns/hand (batch)\n", label,
                   best_call / NHANDS, best_batch / NHANDS);
        }
    }
    /* the variant presets (docs/rules.md#rule-fields) with jokers: fifty (48 cards + *1 *2) and conga
     * (40 cards, the wild ace of coins), rows with exactly 0, 1 or 2 jokers */
    for (k = 7; k <= 8; k++) {
        int preset, nj;
        for (preset = 0; preset < 2; preset++)
        for (decks = 1; decks <= 2; decks++)
        for (nj = 0; nj <= 2; nj++) {
            cc_rules vr;
            cc_variant var = {48, 0, 0, 25, 1, 25};
            static const uint8_t pts[CC_NRANKS] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
            size_t i, bad;
            double best_batch = 1e30;
            char label[80];
            if (preset == 0) {
                var.jokers = 2;
            } else {
                var.deck = 40;
                var.wild_ace_of_coins = 1;
            }
            if (preset == 1 && decks == 1 && nj == 2)
                continue; /* one wild ace in a single deck */
            cc_rules_init_variant(&vr, pts, preset == 0 ? 5 : 7, 10, &var);
            snprintf(label, sizeof label, "%-8s %d cards, %s deck, %s %d jokers",
                     k == 7 ? "deadwood" : "hints", k, decks == 1 ? "single" : "double",
                     preset == 0 ? "fifty" : "conga", nj);
            if (strstr(label, filter) == NULL)
                continue;
            g_rng = 999 + (uint64_t)(64 * preset + 16 * nj + 4 * k + decks);
            for (i = 0; i < NHANDS; i++) {
                uint64_t o, t;
                deal_variant(&vr, k, decks, nj, &o, &t);
                rows1[i] = o;
                rows2[2 * i] = o;
                rows2[2 * i + 1] = t;
            }
            for (r = 0; r < rounds; r++) {
                double t1 = now_ns(), t2;
                cc_status st = k == 7 ? cc_deadwood_batch(&vr, decks == 1 ? rows1 : rows2,
                                                          NHANDS, decks, out, &bad)
                                      : cc_hints_batch(&vr, decks == 1 ? rows1 : rows2,
                                                       NHANDS, decks, out, &bad);
                t2 = now_ns();
                if (st != CC_OK) {
                    printf("%s: status %d at row %zu\n", label, (int)st, bad);
                    break;
                }
                sink += out[NHANDS / 2];
                if (t2 - t1 < best_batch)
                    best_batch = t2 - t1;
            }
            printf("%s: %6.2f ns/row (batch)\n", label, best_batch / NHANDS);
        }
    }
    if (strstr("settle   2-5 opponents, 1-2 decks, rank window", filter) != NULL) {
        double best = 1e30;
        make_deals(&rules);
        for (r = 0; r < rounds; r++) {
            double t0 = now_ns();
            sink += settle_all(&rules);
            if (now_ns() - t0 < best)
                best = now_ns() - t0;
        }
        printf("settle   2-5 opponents, 1-2 decks, rank window: %6.0f ns/deal\n", best / NDEALS);
    }
    return sink == 0xFFFFFFFFu; /* keeps the work observable */
}
