/*
 * test_simd.c -- the SIMD paths of the batch kernels (csrc/src/simd/) against the
 * one-hand calls, on every path this build holds and this CPU runs (cc_simd_supported).
 *
 *   test_simd              random rows (CC_TEST_ITERS): uniform, meld-rich and
 *                          run-rich hands, one and two decks, the house points and four
 *                          other point tables, batch lengths that leave a tail, and a
 *                          bad row at every place of a group (the same status and row
 *                          as the scalar path); the classic rules' rows (no joker, 48
 *                          cards: the same kernels); the joker-free rows of fifty and
 *                          conga (the working space), and their batches with a joker
 *                          or a card outside the deck; the path selection calls
 *   test_simd exhaustive   every hand of these sets on every path (ctest label
 *                          "exhaustive"; ~1 min of CPU on an AVX-512 machine):
 *                          deadwood: the 73,629,072 single-deck hands of 7 cards
 *                          (48 choose 7) and the 24,039,972 two-deck hands of 7 cards of
 *                          three suits; hints: the 377,348,994 single-deck hands of 8
 *                          cards and the 5,612,805 two-deck hands of 8 cards of two suits;
 *                          conga (40 cards): the 15,380,937 7-card hands of its 39
 *                          natural cards
 * Every check compares a batch's bytes with cc_deadwood / cc_discard_hints, one hand at
 * a time (the scalar kernels, themselves checked against the brute force by
 * test_core_*). CHINCHON_SIMD=name restricts both modes to one path; "exhaustive N"
 * runs the first N sets only (under an emulator).
 */
#include "core_brute.h"

enum { CHUNK = 8192 };

static uint64_t g_rows[2 * CHUNK];
static uint8_t g_want[8 * CHUNK], g_got[8 * CHUNK];
static int g_paths[CC_SIMD_END], g_npaths;
static long g_hands;

/* The paths to check: every supported one, or CHINCHON_SIMD's alone.
 * O(paths). */
static void pick_paths(void)
{
    const char *only = getenv("CHINCHON_SIMD");
    int p;
    for (p = 0; p < CC_SIMD_END; p++) {
        if (only != NULL && *only != '\0' && strcmp(only, cc_simd_name((cc_simd)p)) != 0)
            continue;
        if (cc_simd_supported((cc_simd)p))
            g_paths[g_npaths++] = p;
    }
    printf("paths:");
    for (p = 0; p < g_npaths; p++)
        printf(" %s", cc_simd_name((cc_simd)g_paths[p]));
    printf("\n");
    CHECK(g_npaths > 0, "CHINCHON_SIMD=%s: no such supported path", only ? only : "");
}

/* Row i of the chunk as a hand. O(1). */
static cc_hand row_hand(int decks, int i)
{
    cc_hand h;
    h.once = decks == 1 ? g_rows[i] : g_rows[2 * i];
    h.twice = decks == 1 ? 0 : g_rows[2 * i + 1];
    return h;
}

/* Rows 0..n-1 of the chunk on every path against the one-hand calls (which fill
 * g_want first). O(n x paths). */
static void check_chunk(const cc_rules *rules, int hints, int decks, int n, const char *what)
{
    int i, p, width = hints ? 8 : 1;
    for (i = 0; i < n; i++) {
        cc_hand h = row_hand(decks, i);
        if (hints) {
            uint16_t p[8];
            int k;
            if (cc_discard_hints(rules, h, p, NULL) != CC_OK)
                FAIL("%s: row %d is no 8-card hand", what, i);
            for (k = 0; k < 8; k++) /* (plain rules: a hint fits a byte) */
                g_want[8 * i + k] = (uint8_t)p[k];
        } else {
            int d = -1;
            if (cc_deadwood(rules, h, &d) != CC_OK)
                FAIL("%s: row %d is no hand", what, i);
            g_want[i] = (uint8_t)d;
        }
    }
    for (p = 0; p < g_npaths; p++) {
        size_t bad = 0;
        cc_status st;
        cc_simd_use((cc_simd)g_paths[p]);
        memset(g_got, 0xEE, (size_t)(width * n));
        st = hints ? cc_hints_batch(rules, g_rows, (size_t)n, decks, g_got, &bad)
                   : cc_deadwood_batch(rules, g_rows, (size_t)n, decks, g_got, &bad);
        th_checks++;
        if (st != CC_OK) {
            FAIL("%s on %s: status %s at row %zu", what, cc_simd_name((cc_simd)g_paths[p]),
                 cc_status_name(st), bad);
            continue;
        }
        if (memcmp(g_want, g_got, (size_t)(width * n)) != 0) {
            for (i = 0; i < n; i++)
                if (memcmp(g_want + width * i, g_got + width * i, (size_t)width) != 0)
                    break;
            FAIL("%s on %s: row %d (%#llx, %#llx) differs from the one-hand call", what,
                 cc_simd_name((cc_simd)g_paths[p]), i,
                 (unsigned long long)row_hand(decks, i).once,
                 (unsigned long long)row_hand(decks, i).twice);
        }
    }
    g_hands += n;
}

/* Append hand h to the chunk, checking it when full. O(1) amortised. */
static void push(const cc_rules *rules, int hints, int decks, cc_hand h, int *n,
                 const char *what)
{
    if (decks == 1) {
        g_rows[*n] = h.once;
    } else {
        g_rows[2 * *n] = h.once;
        g_rows[2 * *n + 1] = h.twice;
    }
    if (++*n == CHUNK) {
        check_chunk(rules, hints, decks, *n, what);
        *n = 0;
    }
}

/* ---------------------------------------------------------------- random rows */

/* Random rows of one kind (0 uniform, 1 meld-rich, 2 run-rich), n rows a batch.
 * O(iters x paths). */
static void random_rows(const cc_rules *rules, int hints, int decks, int kind, long iters)
{
    long it;
    for (it = 0; it < iters;) {
        int n = 1 + rnd(CHUNK / 8), i; /* tails of every length */
        for (i = 0; i < n; i++) {
            int lo = 1 + rnd(kind == 1 ? 9 : 6);
            cc_hand h = kind == 0   ? gen_hand(hints ? 8 : gen_count(), decks, 15u, 1, 12)
                        : kind == 1 ? gen_hand(hints ? 8 : 7, decks, 15u, lo, lo + 3)
                                    : gen_hand(hints ? 8 : 7, decks, 3u, lo, lo + 6);
            if (decks == 1) {
                g_rows[i] = h.once;
            } else {
                g_rows[2 * i] = h.once;
                g_rows[2 * i + 1] = h.twice;
            }
        }
        check_chunk(rules, hints, decks, n, hints ? "random hints" : "random deadwood");
        it += n;
    }
}

/* Random joker-free rows of a variant's deck (its natural cards less the wild ace),
 * one or two decks, n rows a batch; then an eight (not in the 40-card deck) and a
 * joker in one batch: every path gives the scalar path's status and row.
 * O(iters x paths). */
static void variant_rows(const cc_rules *rules, int hints, int decks, long iters)
{
    int cards[48], nc = 0, c;
    long it;
    for (c = 0; c < 64; c++)
        if ((c & 15) < 12 && ((rules->card_mask >> c) & 1u) && !((rules->joker_mask >> c) & 1u))
            cards[nc++] = c;
    for (it = 0; it < iters;) {
        int n = 1 + rnd(CHUNK / 8), i;
        for (i = 0; i < n; i++) {
            cc_hand h = {0, 0};
            int k = hints ? 8 : 1 + rnd(8), j;
            for (j = 0; j < k;) {
                uint64_t bit = UINT64_C(1) << cards[rnd(nc)];
                if (!(h.once & bit))
                    h.once |= bit;
                else if (decks == 2 && !(h.twice & bit))
                    h.twice |= bit;
                else
                    continue;
                j++;
            }
            if (decks == 1) {
                g_rows[i] = h.once;
            } else {
                g_rows[2 * i] = h.once;
                g_rows[2 * i + 1] = h.twice;
            }
        }
        check_chunk(rules, hints, decks, n, hints ? "variant hints" : "variant deadwood");
        it += n;
    }
}

/* A bad row at each place of the first groups and in the tail: every path reports
 * the status and the row of the scalar path. O(paths x places). */
static void bad_rows(const cc_rules *rules)
{
    static const uint64_t bad_once[4] = {UINT64_C(1) << 12, UINT64_C(0x1FF), UINT64_C(0x7F),
                                         UINT64_C(0x3F)};
    int hints, decks, place, kind, n = 21, p, i;
    for (hints = 0; hints <= 1; hints++)
        for (decks = 1; decks <= 2; decks++)
            for (kind = 0; kind < 4; kind++)
                for (place = 0; place < n; place++) {
                    size_t want_bad = 999, bad;
                    cc_status want, st;
                    for (i = 0; i < n; i++) {
                        cc_hand h = gen_hand(hints ? 8 : 7, decks, 15u, 1, 12);
                        if (i == place) {
                            h.once = bad_once[kind]; /* a lane bit, 9, 7 and 6 cards */
                            h.twice = 0;
                            if (decks == 2 && kind == 3) {
                                h.once = UINT64_C(0x3F) | (UINT64_C(1) << 20);
                                h.twice = UINT64_C(1) << 40; /* twice outside once */
                            }
                        }
                        if (decks == 1)
                            g_rows[i] = h.once;
                        else {
                            g_rows[2 * i] = h.once;
                            g_rows[2 * i + 1] = h.twice;
                        }
                    }
                    cc_simd_use(CC_SIMD_SCALAR);
                    want = hints ? cc_hints_batch(rules, g_rows, (size_t)n, decks, g_want, &want_bad)
                                 : cc_deadwood_batch(rules, g_rows, (size_t)n, decks, g_want, &want_bad);
                    if (!hints && kind >= 2 && !(decks == 2 && kind == 3))
                        continue; /* 7 and 6 cards are good deadwood rows */
                    CHECK(want != CC_OK && want_bad == (size_t)place,
                          "scalar path: bad row %d not reported", place);
                    for (p = 0; p < g_npaths; p++) {
                        bad = 999;
                        cc_simd_use((cc_simd)g_paths[p]);
                        st = hints ? cc_hints_batch(rules, g_rows, (size_t)n, decks, g_got, &bad)
                                   : cc_deadwood_batch(rules, g_rows, (size_t)n, decks, g_got, &bad);
                        CHECK(st == want && bad == want_bad,
                              "%s: bad row %d: status %s row %zu, want %s row %zu",
                              cc_simd_name((cc_simd)g_paths[p]), place, cc_status_name(st), bad,
                              cc_status_name(want), want_bad);
                        /* the rows before the bad one are right */
                        if (!hints)
                            CHECK(memcmp(g_got, g_want, (size_t)place) == 0,
                                  "%s: rows before bad row %d", cc_simd_name((cc_simd)g_paths[p]), place);
                    }
                }
}

/* Under a variant: a row with an eight (not in the 40-card deck; a good card of the
 * 48) and a row with a joker, at each place: every path gives the scalar path's status,
 * row and bytes. O(paths x places). */
static void variant_bad_rows(const cc_rules *rules)
{
    int hints, place, kind, n = 19, p, i;
    for (hints = 0; hints <= 1; hints++)
        for (kind = 0; kind < 2; kind++)
            for (place = 0; place < n; place++) {
                size_t want_bad = 999, bad = 999;
                cc_status want, st;
                for (i = 0; i < n; i++) {
                    /* 7 or 8 cards of ranks 2-6 and 10-12 of coins (in both decks) */
                    g_rows[i] = hints ? UINT64_C(0x0E3E) : UINT64_C(0x0E3C);
                    if (i == place) /* one card for an eight or a joker */
                        g_rows[i] = (g_rows[i] & ~(UINT64_C(1) << 5)) |
                                    (kind == 0 ? UINT64_C(1) << 7
                                               : rules->joker_mask & (~rules->joker_mask + 1));
                }
                cc_simd_use(CC_SIMD_SCALAR);
                want = hints ? cc_hints_batch(rules, g_rows, (size_t)n, 1, g_want, &want_bad)
                             : cc_deadwood_batch(rules, g_rows, (size_t)n, 1, g_want, &want_bad);
                for (p = 0; p < g_npaths; p++) {
                    cc_simd_use((cc_simd)g_paths[p]);
                    memset(g_got, 0, sizeof g_got);
                    st = hints ? cc_hints_batch(rules, g_rows, (size_t)n, 1, g_got, &bad)
                               : cc_deadwood_batch(rules, g_rows, (size_t)n, 1, g_got, &bad);
                    CHECK(st == want && (st == CC_OK ? 1 : bad == want_bad),
                          "%s: variant row %d kind %d: status %s, want %s",
                          cc_simd_name((cc_simd)g_paths[p]), place, kind, cc_status_name(st),
                          cc_status_name(want));
                    if (st == CC_OK)
                        CHECK(memcmp(g_got, g_want, (size_t)(hints ? 8 * n : n)) == 0,
                              "%s: variant row %d kind %d: bytes", cc_simd_name((cc_simd)g_paths[p]),
                              place, kind);
                }
            }
}

/* The path selection: names, refusal of what is not supported, the active path.
 * O(paths). */
static void selection(void)
{
    int p;
    EXPECT(strcmp(cc_simd_name(CC_SIMD_SCALAR), "scalar") == 0);
    EXPECT(cc_simd_name(CC_SIMD_END) == NULL);
    EXPECT(cc_simd_supported(CC_SIMD_SCALAR));
    EXPECT(cc_simd_supported(cc_simd_best()));
    EXPECT(!cc_simd_supported(CC_SIMD_END));
    EXPECT(cc_simd_use(CC_SIMD_END) == CC_ERR_BAD_ARGUMENT);
    for (p = 0; p < CC_SIMD_END; p++) {
        cc_status st = cc_simd_use((cc_simd)p);
        EXPECT((st == CC_OK) == (cc_simd_supported((cc_simd)p) != 0));
        if (st == CC_OK)
            EXPECT(cc_simd_active() == (cc_simd)p);
    }
#if defined(__aarch64__)
    EXPECT(cc_simd_supported(CC_SIMD_NEON));
#endif
}

/* ---------------------------------------------------------------- exhaustive */

typedef struct walk_ctx {
    const cc_rules *rules;
    const int *cards;
    int hints, kinds, copies, decks, n;
    const char *what;
} walk_ctx;

/* Every hand of h plus `left` more cards among cards[c..kinds), each at most `copies`
 * times, through the chunk. O(hands). */
static void walk(walk_ctx *w, int c, int left, cc_hand h)
{
    int m;
    if (left == 0) {
        push(w->rules, w->hints, w->decks, h, &w->n, w->what);
        return;
    }
    if (left > (w->kinds - c) * w->copies)
        return;
    for (m = 0; m <= w->copies && m <= left; m++) {
        cc_hand g = h;
        uint64_t bit = UINT64_C(1) << w->cards[c];
        if (m >= 1)
            g.once |= bit;
        if (m == 2)
            g.twice |= bit;
        walk(w, c + 1, left - m, g);
    }
}

/* Every hand of k cards of the `kinds` cards (bit indices), each at most `copies`
 * times, on every path. O(hands x paths). */
static void every_hand(const cc_rules *rules, int hints, const int *cards, int kinds, int k,
                       int copies, const char *what)
{
    walk_ctx w;
    cc_hand none = {0, 0};
    long before = g_hands;
    w.rules = rules;
    w.cards = cards;
    w.hints = hints;
    w.kinds = kinds;
    w.copies = copies;
    w.decks = copies == 1 ? 1 : 2;
    w.n = 0;
    w.what = what;
    walk(&w, 0, k, none);
    if (w.n > 0)
        check_chunk(rules, hints, w.decks, w.n, what);
    printf("  %s: %ld hands on each path\n", what, g_hands - before);
}

/* Random rows, bad rows and the selection; with the argument "exhaustive", every hand
 * of the sets above. Exit status 0 when all pass. */
int main(int argc, char **argv)
{
    cc_rules house, tables[4], classic;
    cc_variant v = {48, 0, 0, 25, 0, 25}; /* the classic rules: no seven-card run wins */
    int t, hints, decks, kind;
    long iters = core_iters();
    cc_rules_default(&house);
    core_point_tables(tables);
    CHECK(cc_rules_init_variant(&classic, house.points, 5, 10, &v) == CC_OK && !classic.plain,
          "the classic rules");
    pick_paths();
    if (argc > 1 && strcmp(argv[1], "exhaustive") == 0) {
        int cards[48], n = 0, c;
        for (c = 0; c < 64; c++)
            if ((c & 15) < 12)
                cards[n++] = c;
        int sets = argc > 2 ? atoi(argv[2]) : 5; /* the first `sets` sets (emulators) */
        every_hand(&house, 0, cards, 48, 7, 1, "deadwood, 7 of the 48 cards");
        if (sets >= 2)
            every_hand(&house, 0, cards, 36, 7, 2, "deadwood, 7 of three suits, two decks");
        if (sets >= 3)
            every_hand(&house, 1, cards, 24, 8, 2, "hints, 8 of two suits, two decks");
        if (sets >= 4)
            every_hand(&house, 1, cards, 48, 8, 1, "hints, 8 of the 48 cards");
        if (sets >= 5) {
            cc_variant conga = {40, 1, 0, 25, 1, 25};
            cc_rules cr;
            int natural[40], nn = 0;
            CHECK(cc_rules_init_variant(&cr, house.points, 7, 10, &conga) == CC_OK, "conga");
            for (c = 1; c < 64; c++) /* not the wild 1o (bit 0) */
                if ((c & 15) < 12 && ((cr.card_mask >> c) & 1u))
                    natural[nn++] = c;
            every_hand(&cr, 0, natural, nn, 7, 1, "conga deadwood, 7 of the 39 natural cards");
        }
        return th_report("test_simd exhaustive");
    }
    selection();
    for (hints = 0; hints <= 1; hints++)
        for (decks = 1; decks <= 2; decks++)
            for (kind = 0; kind < 3; kind++) {
                random_rows(&house, hints, decks, kind, iters);
                random_rows(&classic, hints, decks, kind, iters / 8);
                for (t = 0; t < 4; t++)
                    random_rows(&tables[t], hints, decks, kind, iters / 8);
            }
    bad_rows(&house);
    for (t = 0; t < 2; t++) {
        cc_variant fifty = {48, 0, 2, 25, 1, 25}, conga = {40, 1, 0, 25, 1, 25};
        cc_rules vr;
        CHECK(cc_rules_init_variant(&vr, house.points, 5, 10, t ? &conga : &fifty) == CC_OK,
              "variant rules");
        for (hints = 0; hints <= 1; hints++)
            for (decks = 1; decks <= 2; decks++)
                variant_rows(&vr, hints, decks, iters / 4);
        variant_bad_rows(&vr);
    }
    return th_report("test_simd");
}
