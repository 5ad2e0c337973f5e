/* value.h -- internal: the search bot's value of a playout's end (value.c), for the
 * playouts of search.c. */
#ifndef CC_SRC_SEARCH_VALUE_H
#define CC_SRC_SEARCH_VALUE_H

#include "chinchon.h"

#include "base/bits.h"
#include "engine/engine.h"

/* The seat's chance to win the game from g (a playout's end, the hand over or cut
 * short): 1 or 0 once the game is over; heads-up without chips the chance fitted to
 * the expert's games; else a softmax of the margins to elimination. O(players). */
CC_INTERNAL double srch_value(const game *g, int seat);

#endif /* CC_SRC_SEARCH_VALUE_H */
