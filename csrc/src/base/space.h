/*
 * space.h -- internal: the working space of the rule variants, where a suit's run order
 * is consecutive bits with either deck (docs/rules.md#the-variant-encoding).
 *
 * The working space: with 40 cards a lane's ranks 10-12 (bits 9-11) move down to bits
 * 7-9, so that the run order 1-7, 10, 11, 12 is consecutive bits and every mask trick of
 * the house solver finds runs unchanged. The move keeps the order of the bits, so meld
 * keys compare the same way in both spaces. With 48 cards it is the identity.
 */
#ifndef CC_SRC_SPACE_H
#define CC_SRC_SPACE_H

#include <stdint.h>

#include "base/bits.h"

#define CC_LOW7 UINT64_C(0x007F007F007F007F)  /* ranks 1-7 of each lane */
#define CC_HIGH3 UINT64_C(0x0E000E000E000E00) /* ranks 10-12 (bits 9-11) of each lane */
#define CC_WHIGH3 UINT64_C(0x0380038003800380) /* their bits in the working space */

/* A mask of natural cards in the working space of a deck (40: ranks 10-12 two bits
 * down; 48: unchanged). O(1). */
CC_INLINE uint64_t cc_space_compact(int deck, uint64_t x)
{
    return deck == 40 ? (x & CC_LOW7) | ((x & CC_HIGH3) >> 2) : x;
}

/* The inverse of cc_space_compact. O(1). */
CC_INLINE uint64_t cc_space_expand(int deck, uint64_t x)
{
    return deck == 40 ? (x & CC_LOW7) | ((x & CC_WHIGH3) << 2) : x;
}

/* The working-space bit of natural card bit c (40 cards: ranks 10-12 two bits down).
 * O(1). */
CC_INLINE int cc_space_wbit(int deck, int c)
{
    return deck == 40 && (c & 15) >= 9 ? c - 2 : c;
}

/* Place (0-based position in the run order) of rank 1..12, -1 for a rank the deck
 * lacks. O(1). */
CC_INLINE int cc_space_place(int deck, int rank)
{
    if (deck != 40)
        return rank - 1;
    return rank <= 7 ? rank - 1 : rank >= 10 ? rank - 3 : -1;
}

/* Rank (1..12) at a place of the run order. O(1). */
CC_INLINE int cc_space_rank(int deck, int place)
{
    return (deck == 40 && place >= 7) ? place + 3 : place + 1;
}

#endif /* CC_SRC_SPACE_H */
