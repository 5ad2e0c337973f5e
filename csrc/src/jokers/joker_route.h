/*
 * joker_route.h -- internal: the parts route of the one-joker discard hints
 * (joker_route.c), for the hands holding one joker and a natural meld.
 */
#ifndef CC_SRC_JOKER_ROUTE_H
#define CC_SRC_JOKER_ROUTE_H

#include <stdint.h>

#include "chinchon.h"

#include "base/bits.h"

/* The hints of the 8 valid cards h holding one joker and a natural meld (meld: the
 * natural cards in a natural meld); natural cards (a, b) (working space; b == 0 in the
 * first), set capacity cap; points in h's raw card order. O(1) plus <= 8 deadwoods
 * and the parts of each. */
CC_INTERNAL void cc_jroute_hints_one(const cc_rules *view, const cc_rules *rules, cc_hand h,
                                     uint64_t a, int cap, uint64_t meld, uint16_t *points);
CC_INTERNAL void cc_jroute_hints_two(const cc_rules *view, const cc_rules *rules, cc_hand h,
                                     uint64_t a, uint64_t b, int cap, uint64_t meld,
                                     uint16_t *points);

#endif /* CC_SRC_JOKER_ROUTE_H */
