/* The game's random generator: xoshiro256** 1.0 (Blackman and Vigna,
 * https://prng.di.unimi.it/xoshiro256starstar.c) seeded through splitmix64, Lemire's
 * unbiased bounded draw and a Fisher-Yates shuffle from the end. The same algorithm as
 * src/chinchon/game/rng.py, draw for draw (docs/rules.md#the-shuffle-and-the-generator). */

#include "chinchon.h"

#define GOLDEN UINT64_C(0x9E3779B97F4A7C15)

/* splitmix64's output function: the mix of one state word.
 * O(1). */
static uint64_t fmix(uint64_t z) {
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* The next splitmix64 output of *state (advanced by the golden gamma).
 * O(1). */
uint64_t cc_splitmix64_next(uint64_t *state) {
    *state += GOLDEN;
    return fmix(*state);
}

/* The seed word of a signed seed and a stream (words): splitmix64's mix folded over
 * the sign, the magnitude's words and the stream's. O(words). */
uint64_t cc_rng_derive(int negative, const uint64_t magnitude[CC_RNG_SEED_WORDS],
                       const uint64_t *words, size_t n_words) {
    uint64_t h = 0;
    size_t k;
    h = fmix((h ^ (uint64_t)(negative != 0)) + GOLDEN);
    for (k = 0; k < CC_RNG_SEED_WORDS; k++)
        h = fmix((h ^ magnitude[k]) + GOLDEN);
    for (k = 0; k < n_words; k++)
        h = fmix((h ^ words[k]) + GOLDEN);
    return h;
}

/* The generator's four words: the first four splitmix64 outputs from `derived`.
 * O(1). */
void cc_rng_seed(cc_rng *r, uint64_t derived) {
    int k;
    for (k = 0; k < 4; k++)
        r->s[k] = cc_splitmix64_next(&derived);
}

/* x rotated left by k (0 < k < 64).
 * O(1). */
static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

/* The next xoshiro256** output.
 * O(1). */
uint64_t cc_rng_next(cc_rng *r) {
    uint64_t *s = r->s;
    const uint64_t result = rotl(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* Uniform in 0..n-1, n > 0, without bias (Lemire).
 * One output, a redraw with probability < n / 2**32. */
uint32_t cc_rng_below(cc_rng *r, uint32_t n) {
    uint64_t m = (cc_rng_next(r) >> 32) * (uint64_t)n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        const uint32_t t = (uint32_t)(-n) % n; /* 2**32 mod n */
        while (low < t) {
            m = (cc_rng_next(r) >> 32) * (uint64_t)n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* Uniform in [0, 1): the upper 53 bits of the next output.
 * O(1). */
double cc_rng_double(cc_rng *r) {
    return (double)(cc_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* Fisher-Yates from the end over items[0..n).
 * n - 1 bounded draws. */
void cc_rng_shuffle(cc_rng *r, uint8_t *items, size_t n) {
    size_t i;
    if (n < 2)
        return;
    for (i = n - 1; i > 0; i--) {
        const size_t j = cc_rng_below(r, (uint32_t)(i + 1));
        const uint8_t x = items[i];
        items[i] = items[j];
        items[j] = x;
    }
}
