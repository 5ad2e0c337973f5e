/* The game's random generator (csrc/src/base/rng.c) against tests/data/rng_vectors.txt: the
 * published xoshiro256** and splitmix64 vectors, and the seed derivation, bounded draw, float and
 * shuffle vectors that the Python implementation (tests/game/test_rng.py) checks too.
 * Also: the bounded draw stays in range and is unbiased enough on a small bound, the
 * shuffle is a permutation. The vectors file is RNG_VECTORS (a compile definition) or
 * argv[1]. */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chinchon.h"

#include "testlib.h"

#ifndef RNG_VECTORS
#define RNG_VECTORS "rng_vectors.txt"
#endif

#define MAX_TOKENS 160

static uint64_t u64(const char *s) { return (uint64_t)strtoull(s, NULL, 10); }

static void state_from(cc_rng *r, char **tok) {
    int k;
    for (k = 0; k < 4; k++)
        r->s[k] = u64(tok[k]);
}

static void check_line(char *line, int lineno) {
    char *in[MAX_TOKENS], *out[MAX_TOKENS];
    int n_in = 0, n_out = 0, after = 0, k;
    char *t;
    cc_rng r;
    for (t = strtok(line, " \t\r\n"); t; t = strtok(NULL, " \t\r\n")) {
        if (strcmp(t, ":") == 0) {
            after = 1;
        } else if (after) {
            if (n_out < MAX_TOKENS) out[n_out++] = t;
        } else if (n_in < MAX_TOKENS) {
            in[n_in++] = t;
        }
    }
    if (n_in == 0)
        return;
    CHECK(after && n_out > 0, "line %d: no outputs", lineno);
    if (!after || n_out == 0)
        return;
    if (strcmp(in[0], "xoshiro") == 0) {
        state_from(&r, in + 1);
        for (k = 0; k < n_out; k++) {
            uint64_t got = cc_rng_next(&r);
            CHECK(got == u64(out[k]), "line %d: xoshiro output %d: %" PRIu64 " != %s", lineno, k, got, out[k]);
        }
    } else if (strcmp(in[0], "splitmix") == 0) {
        uint64_t st = u64(in[1]);
        for (k = 0; k < n_out; k++) {
            uint64_t got = cc_splitmix64_next(&st);
            CHECK(got == u64(out[k]), "line %d: splitmix output %d: %" PRIu64 " != %s", lineno, k, got, out[k]);
        }
    } else if (strcmp(in[0], "derive") == 0) {
        uint64_t mag[CC_RNG_SEED_WORDS], words[MAX_TOKENS], got;
        int n_words = n_in - 2 - CC_RNG_SEED_WORDS;
        for (k = 0; k < CC_RNG_SEED_WORDS; k++)
            mag[k] = u64(in[2 + k]);
        for (k = 0; k < n_words; k++)
            words[k] = u64(in[2 + CC_RNG_SEED_WORDS + k]);
        got = cc_rng_derive(atoi(in[1]), mag, words, (size_t)n_words);
        CHECK(got == u64(out[0]), "line %d: derive: %" PRIu64 " != %s", lineno, got, out[0]);
    } else if (strcmp(in[0], "seed") == 0) {
        cc_rng_seed(&r, u64(in[1]));
        for (k = 0; k < 4; k++)
            CHECK(r.s[k] == u64(out[k]), "line %d: seed word %d: %" PRIu64 " != %s", lineno, k, r.s[k], out[k]);
    } else if (strcmp(in[0], "below") == 0) {
        uint32_t n = (uint32_t)u64(in[5]);
        state_from(&r, in + 1);
        for (k = 0; k < n_out; k++) {
            uint32_t got = cc_rng_below(&r, n);
            CHECK(got == u64(out[k]), "line %d: below(%" PRIu32 ") draw %d: %" PRIu32 " != %s", lineno, n, k,
                  got, out[k]);
        }
    } else if (strcmp(in[0], "double") == 0) {
        state_from(&r, in + 1);
        for (k = 0; k < n_out; k++) {
            double got = cc_rng_double(&r), want = strtod(out[k], NULL);
            CHECK(got == want, "line %d: double %d: %.17g != %s", lineno, k, got, out[k]);
        }
    } else if (strcmp(in[0], "shuffle") == 0) {
        uint8_t items[256];
        int n = atoi(in[5]);
        CHECK(n == n_out && n <= 256, "line %d: shuffle of %d items lists %d", lineno, n, n_out);
        if (n != n_out || n > 256)
            return;
        for (k = 0; k < n; k++)
            items[k] = (uint8_t)k;
        state_from(&r, in + 1);
        cc_rng_shuffle(&r, items, (size_t)n);
        for (k = 0; k < n; k++)
            CHECK(items[k] == u64(out[k]), "line %d: shuffle item %d: %d != %s", lineno, k, items[k], out[k]);
    } else {
        CHECK(0, "line %d: unknown vector kind %s", lineno, in[0]);
    }
}

/* Properties beyond the vectors: draws in range, a fair small bound, permutations. */
static void check_properties(void) {
    cc_rng r;
    uint32_t counts[3] = {0, 0, 0};
    uint8_t items[96], seen[96];
    uint64_t mag[CC_RNG_SEED_WORDS] = {7, 0, 0, 0};
    int i, k, round;
    cc_rng_seed(&r, cc_rng_derive(0, mag, NULL, 0));
    for (i = 0; i < 300000; i++)
        counts[cc_rng_below(&r, 3)]++;
    for (k = 0; k < 3; k++)  /* 100000 expected, sd ~258: 6 sd */
        CHECK(counts[k] > 98450 && counts[k] < 101550, "below(3) gave %d %" PRIu32 " times", k,
              counts[k]);
    for (i = 0; i < 100000; i++) {
        uint32_t n = (uint32_t)(cc_rng_next(&r) >> 33) + 1, x = cc_rng_below(&r, n);
        double d = cc_rng_double(&r);
        if (x >= n || d < 0.0 || d >= 1.0) {
            CHECK(0, "out of range: below(%" PRIu32 ") = %" PRIu32 ", double %.17g", n, x, d);
            break;
        }
    }
    CHECK(cc_rng_below(&r, UINT32_MAX) < UINT32_MAX, "below(2**32-1) out of range");
    for (round = 0; round < 1000; round++) {
        for (k = 0; k < 96; k++)
            items[k] = (uint8_t)k;
        cc_rng_shuffle(&r, items, 96);
        memset(seen, 0, sizeof seen);
        for (k = 0; k < 96; k++)
            seen[items[k]]++;
        for (k = 0; k < 96; k++)
            if (seen[k] != 1) {
                CHECK(0, "shuffle round %d is not a permutation", round);
                return;
            }
    }
    cc_rng_shuffle(&r, items, 0);  /* no items: nothing to do */
    cc_rng_shuffle(&r, items, 1);
}

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : RNG_VECTORS;
    char line[8192];
    int lineno = 0, lines = 0;
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return 1;
    }
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        lines++;
        check_line(line, lineno);
    }
    fclose(f);
    if (lines < 20) {
        fprintf(stderr, "only %d vector lines in %s\n", lines, path);
        return 1;
    }
    check_properties();
    printf("test_rng: %d vector lines\n", lines);
    return th_report("test_rng");
}
