/* engine_bots.h -- internal: the game engine's bots (engine_bots.c), for the table
 * (engine.c): the draw and the discard of the bot at a seat. */
#ifndef CC_SRC_ENGINE_BOTS_H
#define CC_SRC_ENGINE_BOTS_H

#include "chinchon.h"

#include "base/bits.h"
#include "engine/engine.h"

/* The draw (1 in *from_pile: the pile's top) of the bot at `seat`, the player to act.
 * One hints search (greedy), two prospects (expert), or a coin (random). */
CC_INTERNAL cc_status bot_draw(game *g, int seat, int *from_pile);

/* The discard (the card, and 1 in *close to close with it) of the bot at `seat`, the
 * player to act. One hints search (greedy), an outlook (expert), or a draw (random). */
CC_INTERNAL cc_status bot_discard(game *g, int seat, int *card, int *close);

/* The links of each card c under the rules r, for the search's model of the expert
 * (game.links): the cards of c's rank in the other suits and of c's suit within two
 * ranks of it (among the deck's ranks), jokers left out; 0 for a card not in the
 * deck. O(64 ranks). */
CC_INTERNAL void bot_links(const cc_rules *r, uint64_t *links);

#endif /* CC_SRC_ENGINE_BOTS_H */
