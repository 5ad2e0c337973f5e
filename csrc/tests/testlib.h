/*
 * testlib.h -- what the C tests and the benchmark share, written without the core so
 * that the tests stay an independent check of it: the count of checks and failures with
 * the CHECK / EXPECT / FAIL macros, seeded generators, one more copy of a card, a hand
 * from text ("7o 7c 10e"), hand equality, a hand's card count. static inline: each
 * program takes what it uses.
 */
#ifndef CC_TESTS_TESTLIB_H
#define CC_TESTS_TESTLIB_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include "chinchon.h"

/* ---------------------------------------------------------------- checks */

/* A program's checks made and failed (one tally a program: a static object of a static
 * inline function, so that a program using none of it carries none). O(1). */
typedef struct th_tally {
    long checks, failures;
} th_tally;
static inline th_tally *th_tally_of_program(void)
{
    static th_tally tally = {0, 0};
    return &tally;
}
#define th_checks (th_tally_of_program()->checks)
#define th_failures (th_tally_of_program()->failures)

/* Failures printed; the rest are counted only. */
#define TH_FAIL_LIMIT 20

#if defined(__GNUC__)
#define TH_PRINTF(format_at, args_at) __attribute__((format(printf, format_at, args_at)))
#else
#define TH_PRINTF(format_at, args_at)
#endif

/* Count a failure at file:line and print the first TH_FAIL_LIMIT of them ("file:line:
 * FAIL " and the printf-style message). O(message). */
static inline void th_fail_at(const char *file, int line, const char *format, ...)
    TH_PRINTF(3, 4);
static inline void th_fail_at(const char *file, int line, const char *format, ...)
{
    va_list args;
    if (++th_failures > TH_FAIL_LIMIT)
        return;
    fprintf(stderr, "%s:%d: FAIL ", file, line);
    va_start(args, format);
    vfprintf(stderr, format, args);
    va_end(args);
    fputc('\n', stderr);
}

/* A failure (printf-style message) not counted as a check of its own: the caller counts
 * its checks with th_checks++ (a check that can fail several ways, e.g. a hand). */
#define FAIL(...) th_fail_at(__FILE__, __LINE__, __VA_ARGS__)
/* One check: counted; when cond is false a failure with the printf-style message (the
 * arguments are evaluated on failure only). */
#define CHECK(cond, ...)            \
    do {                            \
        th_checks++;                \
        if (!(cond))                \
            FAIL(__VA_ARGS__);      \
    } while (0)
/* CHECK with the condition's text as the message. */
#define EXPECT(cond) CHECK(cond, "%s", #cond)
/* CHECK of a hand under named rules, the hand's masks in the message. */
#define CHECK_HAND(cond, what, rules_name, h)                                          \
    CHECK(cond, "%s under %s: once=%#llx twice=%#llx", what, rules_name,               \
          (unsigned long long)(h).once, (unsigned long long)(h).twice)
/* FAIL of a hand under named rules (not counted as a check). */
#define FAIL_HAND(what, rules_name, h)                                                 \
    FAIL("%s under %s: once=%#llx twice=%#llx", what, rules_name,                      \
         (unsigned long long)(h).once, (unsigned long long)(h).twice)

/* The closing line of a program ("name: N checks, M failures") and its exit status: 0
 * when nothing failed. O(1). */
static inline int th_report(const char *program)
{
    printf("%s: %ld checks, %ld failures\n", program, th_checks, th_failures);
    return th_failures == 0 ? 0 : 1;
}

/* ---------------------------------------------------------------- random numbers */

/* The next number of the splitmix64 generator whose state is *state (each program
 * keeps its own seeded state, so its random cases do not move). O(1). */
/* Whether n 16-bit hint points (cc_discard_hints, cc_outlook) equal n batch bytes. */
static inline int th_same_points(const uint16_t *p, const uint8_t *b, int n)
{
    int k;
    for (k = 0; k < n; k++)
        if (p[k] != b[k])
            return 0;
    return 1;
}

static inline uint64_t th_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* The next number of the xorshift64 generator whose state is *state (nonzero).
 * O(1). */
static inline uint64_t th_xorshift64(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

/* ---------------------------------------------------------------- hands */

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

/* Shuffle deck[0..nd-1] in place (Fisher-Yates from the end, draws from th_xorshift64 of
 * *state) and deal hands[0..n-1] 7 cards each from its start. */
static inline void th_shuffle_deal(int *deck, int nd, uint64_t *state, cc_hand *hands, int n)
{
    int i, k;
    for (i = nd - 1; i > 0; i--) {
        int j = (int)(th_xorshift64(state) % (uint64_t)(i + 1)), t = deck[i];
        deck[i] = deck[j];
        deck[j] = t;
    }
    for (k = 0; k < n; k++) {
        hands[k].once = hands[k].twice = 0;
        for (i = 0; i < 7; i++)
            hands[k] = th_add(hands[k], deck[7 * k + i]);
    }
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

/* Number of cards of h (a copy counted twice), bit by bit.
 * O(64). */
static inline int th_count(cc_hand h)
{
    int n = 0, i;
    for (i = 0; i < 64; i++)
        n += (int)((h.once >> i) & 1u) + (int)((h.twice >> i) & 1u);
    return n;
}

#endif /* CC_TESTS_TESTLIB_H */
