/*
 * joker_tables.h -- internal: the per-lane tables with which a large batch weighs the
 * joker rows without a natural meld (joker_batch.c reads them, joker_tables.c builds
 * them).
 */
#ifndef CC_SRC_JOKER_TABLES_H
#define CC_SRC_JOKER_TABLES_H

#include <stdint.h>

#include "chinchon.h"

#include "base/bits.h"

/*
 * A large batch weighs the parts of hands without a natural meld by table. In such a
 * hand no lane holds three places in a row, and the heaviest run part of a lane -- with
 * two jokers, the heaviest two disjoint ones -- depends on the lane's pattern alone (the
 * points by place are the rules'). Each table entry is 1 + a weight (0: no part), filled
 * in increasing pattern order from the pattern without its highest card h: the parts
 * with h are h's block B (<= 2 cards) with the joker below it and the top 0-2 cards of
 * the block below that (a joker above B melds only B, and inside B it would stand for a
 * held card: three in a row). A part never needs the joker at a place another part's
 * card holds: that card and its neighbours would again be three in a row. 2^places
 * entries (1024 or 4096), about 20 operations each: about 10 us to build (both tables,
 * 48 cards), the two-part table only once a row holds two jokers, and then for the
 * deadwood a table packing each pattern's points and both entries (one lookup a lane;
 * a third of the first two's cost). A row gains about 2-4 ns of deadwood and 50 ns of
 * hints from them (C driver, one deck), so a batch builds them from
 * CC_JTAB_ROWS_DEADWOOD / CC_JTAB_ROWS_HINTS rows. Single hands keep cc_jbest_part and
 * cc_jnomeld_parts.
 */
#define CC_JTAB_ROWS_DEADWOOD 4096
#define CC_JTAB_ROWS_HINTS 512

typedef struct jtab {
    uint8_t run[4096];  /* 1 + the heaviest run part of a lane pattern; 0: none */
    uint8_t run2[4096]; /* 1 + the heaviest two disjoint run parts; 0: none */
    uint8_t pair[4096]; /* 1 + the heaviest rank held twice (2 * its points), by rank mask */
    const uint8_t *w;   /* points by place (the rules' working points) */
    int size, have2, have_n, have_lane;
    /* the two-joker rows' own tables: a batch of hints needs the first, one of deadwood
       the second, never both (so they share their place: the whole stays ~28 KiB of
       stack, small beside a 128 KiB musl thread's) */
    union {
        struct {
            int16_t runn[4096];  /* run and run2 as points, CC_JNO_PART for none: the */
            int16_t run2n[4096]; /* two-joker hints' terms add without masks */
        } n;
        uint32_t lane[4096]; /* a lane pattern's points | run2 << 16 | run << 24 */
    } u;
} jtab;

/* "No part" in the int16 tables: a sum of it with two parts' points and two jokers' (at
 * most 8 natural cards of 31 points and two jokers of 50: 348) stays negative, so the terms of cc_jbatch_hints2_np
 * add without masks and the most the jokers save (>= 0) never takes one. */
#define CC_JNO_PART (-1024)

/* The builders (joker_tables.c), each O(2^places). */
CC_INTERNAL void cc_jtab_build(jtab *t, const uint8_t *w, int places);
CC_INTERNAL void cc_jtab_build2(jtab *t);
CC_INTERNAL void cc_jtab_build_n(jtab *t);
CC_INTERNAL void cc_jtab_build_lane(jtab *t);

/* The tables for a row of nj jokers, built on first need. O(1) once built. */
CC_INLINE const jtab *cc_jtab_ready(jtab *t, const cc_rules *view, int places, int nj)
{
    if (t->size == 0)
        cc_jtab_build(t, view->wpoints, places);
    if (nj >= 2 && !t->have2)
        cc_jtab_build2(t);
    return t;
}

/* The tables of the two-joker hints rows, built on first need.
 * O(1) once built. */
CC_INLINE const jtab *cc_jtab_ready_n(jtab *t, const cc_rules *view, int places, int nj)
{
    if (!t->have_n) {
        cc_jtab_ready(t, view, places, nj);
        cc_jtab_build_n(t);
    }
    return t;
}

/* The tables and lane table for a deadwood row of nj >= 2 jokers, built on first need.
 * O(1) once built. */
CC_INLINE const jtab *cc_jtab_ready_lane(jtab *t, const cc_rules *view, int places, int nj)
{
    if (!t->have_lane) { /* (the lane table comes last: the others are built) */
        cc_jtab_ready(t, view, places, nj);
        cc_jtab_build_lane(t);
    }
    return t;
}


#endif /* CC_SRC_JOKER_TABLES_H */
