/*
 * testlib.h -- what the C tests and the benchmark share, written without the core so
 * that the tests stay an independent check of it: a seeded generator, one more copy of
 * a card, a hand from text ("7o 7c 10e"), hand equality. static inline: each program
 * takes what it uses.
 */
#ifndef CC_TESTS_TESTLIB_H
#define CC_TESTS_TESTLIB_H

#include <stdint.h>

#include "chinchon.h"

/* The next number of the splitmix64 generator whose state is *state (each program
 * keeps its own seeded state, so its random cases do not move). O(1). */
static inline uint64_t th_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* h with one more copy of card (a bit index): held once, or twice if h holds it
 * already (the tests never add a third copy). O(1). */
static inline cc_hand th_add(cc_hand h, int card)
{
    uint64_t bit = UINT64_C(1) << card;
    if (h.once & bit)
        h.twice |= bit;
    else
        h.once |= bit;
    return h;
}

/* Bit index of the card spelled at text ("10e", spaces before it skipped); *end gets
 * the text after it. Well-formed text assumed. O(length). */
static inline int th_card(const char *text, const char **end)
{
    int rank = 0, suit;
    while (*text == ' ')
        text++;
    while (*text >= '0' && *text <= '9')
        rank = rank * 10 + (*text++ - '0');
    suit = *text == 'o' ? 0 : *text == 'c' ? 1 : *text == 'e' ? 2 : 3;
    *end = text + 1;
    return 16 * suit + rank - 1;
}

/* The hand spelled by text ("7o 7c 10e"; a card written twice is held twice; the joker
 * cards "*1" and "*2" are bits CC_JOKER1_BIT and CC_JOKER2_BIT). O(length). */
static inline cc_hand th_parse(const char *text)
{
    cc_hand h = {0, 0};
    for (;;) {
        while (*text == ' ')
            text++;
        if (*text == '\0')
            return h;
        if (*text == '*') {
            h = th_add(h, text[1] == '1' ? CC_JOKER1_BIT : CC_JOKER2_BIT);
            text += 2;
        } else {
            h = th_add(h, th_card(text, &text));
        }
    }
}

/* Whether two hands hold the same cards.
 * O(1). */
static inline int th_same(cc_hand a, cc_hand b) { return a.once == b.once && a.twice == b.twice; }

#endif /* CC_TESTS_TESTLIB_H */
