/*
 * settle_layoffs.h -- internal: the lay-off search of the settlement (settle_layoffs.c,
 * whose header comment says how it works), for the plan search of settle.c.
 */
#ifndef CC_SRC_SETTLE_LAYOFFS_H
#define CC_SRC_SETTLE_LAYOFFS_H

#include <stdint.h>

#include "chinchon.h"

#include "base/bits.h"

#define CC_LAY_MAX_OPTS 128 /* > the places a joker may take on 10 table melds (<= 9 each) */

/* A table meld open to lay-offs, as the search sees it. */
typedef struct cc_lay_target {
    uint8_t index;  /* table meld index */
    uint8_t kind;   /* CC_SET / CC_RUN */
    uint8_t suit;   /* a run's suit */
    uint8_t rank;   /* a set's rank (1..12) */
    uint8_t count;  /* cards on it */
    uint8_t joker;  /* 1 when it holds a joker */
    unsigned lane;  /* a run: the places it covers, its joker's included */
} cc_lay_target;

/* Where an item may go: target t (index into the targets), a joker on a run standing at
 * place `stand` (-1 otherwise); code as in settle_layoffs.c's header comment. */
typedef struct cc_lay_opt {
    uint16_t code;
    uint8_t t;
    int8_t stand;
} cc_lay_opt;

/* The state of one opponent's lay-off search: the targets and the set capacity, the
 * items of the hand, those of one collection of own melds, the walk, the best plan. */
typedef struct cc_lay_search {
    int cap;
    int n_tg;
    const cc_lay_target *tg;
    /* the cards of the hand that may be laid off, ascending, and where each may go (found
     * once for the whole hand: a superset of what the cards left by any own melds can
     * reach; the leaves check the rest) */
    int n_all;
    uint8_t card[CC_HAND_CARDS];
    uint8_t is_joker[CC_HAND_CARDS];
    uint8_t pts[CC_HAND_CARDS];
    int8_t place[CC_HAND_CARDS]; /* a natural card's place in the run order */
    int n_opts[CC_HAND_CARDS];
    cc_lay_opt opts[CC_HAND_CARDS][CC_LAY_MAX_OPTS];
    /* the items of one collection of own melds: those of the cards it leaves */
    int n_items;
    uint8_t sel[CC_HAND_CARDS];    /* indices into the arrays above */
    int suffix[CC_HAND_CARDS + 1]; /* points of items k.. */
    /* the state of the walk, per target */
    uint8_t added[CC_MAX_TABLE];
    uint8_t jok[CC_MAX_TABLE];
    int8_t stand[CC_MAX_TABLE];
    unsigned ext[CC_MAX_TABLE]; /* places of the natural cards laid on a run */
    int choice[CC_HAND_CARDS];  /* option index per item, -1: stays */
    int n_codes;
    uint16_t codes[CC_HAND_CARDS];
    /* the best plan so far (the empty one to start with) */
    int best_laid;
    int best_n;
    uint16_t best_codes[CC_HAND_CARDS];
    int best_choice[CC_HAND_CARDS];
} cc_lay_search;

/* Where each card of the hand may go (a superset of what the cards left by any own
 * melds can reach; the leaves check the rest), once per hand; s->n_all 0 when no card
 * has anywhere to go (told from the targets alone first). s->cap, s->tg and s->n_tg
 * set; the hand valid, <= 7 cards. O(targets + options). */
CC_INTERNAL void cc_lay_items(const cc_rules *rules, cc_lay_search *s, cc_hand hand);

/* Select the items of the cards of rest (within the hand of cc_lay_items); returns the
 * points they hold. O(items). */
CC_INTERNAL int cc_lay_select(cc_lay_search *s, cc_hand rest);

/* The best lay-off plan of the selected items onto the targets: the most points laid,
 * then the smallest key. Returns the points laid; the plan is in s (best_*).
 * O(prod(options + 1)), cut by the bounds. */
CC_INTERNAL int cc_lay_best(cc_lay_search *s);

#endif /* CC_SRC_SETTLE_LAYOFFS_H */
