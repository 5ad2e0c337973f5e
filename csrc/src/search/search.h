/* search.h -- internal: the search bot (search.c), above the game engine whose table it
 * plays out: its decision (cc_search_choose past api.c's checks) and the engine's hook
 * for the CC_BOT_SEARCH seats of a simulation (eng_play_game's `search`). */
#ifndef CC_SRC_SEARCH_H
#define CC_SRC_SEARCH_H

#include "chinchon.h"

#include "base/bits.h"
#include "engine/engine.h"

/* The search's choice for the view (cc_search_choose, view and outputs present): O(budget)
 * playouts of one hand each, on `threads` threads (the calling thread among them; 1 or
 * less: it alone), the same choice for any number. */
CC_INTERNAL cc_status srch_choose(const cc_search_view *view, uint32_t playouts,
                                  uint32_t micros, int threads, uint64_t seed, int *choice,
                                  int *close);

/* The engine's hook (eng_bot_fn) for a search seat: the seat's view of the game g (its
 * cards and the public table, never the other hands or the stock's order), the
 * decision's seed from the seat's generator (one output), the seat's budget. */
CC_INTERNAL cc_status srch_engine_bot(game *g, int seat, int discard, int *a, int *b);

#endif /* CC_SRC_SEARCH_H */
