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

#endif /* CC_SRC_ENGINE_BOTS_H */
