/* engine.h -- internal: the game engine's table (engine.c), and what its bots
 * (engine_bots.c, engine_bots.h) share with it: the state of a game in play, the hints
 * list, and the small questions both ask of them. */
#ifndef CC_SRC_ENGINE_H
#define CC_SRC_ENGINE_H

#include "chinchon.h"

#include "base/bits.h"
#include "base/hand.h"
#include "jokers/variants.h"
#include "melds/hints.h"
#include "melds/melds.h"

#define NO_SEAT 0xff
/* A game that has played this many hands is stalled (Python: simulation.play.MAX_HANDS):
 * under rules where no total can grow no game ends. */
#define ENG_MAX_HANDS 10000u

struct game;
/* A bot the engine plays through a function its caller supplies (the search bot,
 * csrc/src/search: above the engine, whose moves it plays out): the draw (discard = 0:
 * 1 in *a to take the pile's top) or the discard (discard = 1: the card in *a, 1 in *b
 * to close) of the bot at `seat`, the player to act. */
typedef cc_status (*eng_bot_fn)(struct game *g, int seat, int discard, int *a, int *b);

typedef struct game {
    const cc_game_config *cfg;
    cc_game_record *rec;
    cc_rules r;   /* the solver's rules with the game's decks */
    int n, decks;
    cc_rng rng;   /* the table's generator */
    uint8_t deck[CC_MAX_DECK];
    int deck_n;
    cc_hand hands[CC_MAX_PLAYERS];
    cc_hand taken[CC_MAX_PLAYERS]; /* cards each seat took from the pile and still holds */
    uint8_t stock[CC_MAX_DECK];
    int stock_head, stock_n;       /* the stock is stock[stock_head..stock_n), drawn from its head */
    uint8_t pile[CC_MAX_DECK];     /* the discard pile, bottom to top */
    int pile_n;
    cc_hand pile_set;              /* the pile as a multiset */
    cc_hand restocked;             /* the last reshuffle's stock this hand */
    int has_restocked;
    int64_t totals[CC_MAX_PLAYERS];
    int64_t chips[CC_MAX_PLAYERS];
    uint8_t in[CC_MAX_PLAYERS];
    int lead, turn;
    uint32_t hand_number, turns;
    int over;                      /* 1 once the game has a result */
    int summary;                   /* 1 between hands */
    /* the bots, one per seat */
    cc_rng bot_rng[CC_MAX_PLAYERS];
    uint32_t stale_hand[CC_MAX_PLAYERS], stale_count[CC_MAX_PLAYERS];
    uint32_t dw_hand[CC_MAX_PLAYERS];
    int dw[CC_MAX_PLAYERS];
    /* the greedy bot's hints of a discard-pile draw, reused for its discard */
    int took;
    uint16_t took_points[8];
    uint8_t took_outcomes[8];
    /* the greedy bot's order of equal discards, by card: a joker after a natural card
     * (bit 6), then the card worth more first (31 - its points) */
    uint8_t card_key[64];
    /* the cards of v points or more, v = 0..32 (the greedy's search, plain rules) */
    uint64_t points_at_least[33];
    /* the search bot's seats (CC_BOT_SEARCH) play through this (NULL: none may), and
     * what each saw as its turn began: the pile's top at its draw (-1: none), at the
     * turn search_seen_at (hand_number << 32 | turns) */
    eng_bot_fn search;
    /* the search's playouts under rules that are not plain: the greedy bots draw and
     * discard as the expert most often does (engine_bots.c, model_discard), reading
     * each card's links here (NULL: the greedy's own rules, every real game) */
    const uint64_t *links;
    int search_seen[CC_MAX_PLAYERS];
    uint64_t search_seen_at[CC_MAX_PLAYERS];
} game;

/* A list of hints (or outlook lines): 8 cards in ascending order, copies listed twice. */
typedef struct hints {
    uint8_t card[8];
    uint16_t points[8]; /* (jokers of up to 50 points: a hint may pass 255) */
    uint8_t outcome[8]; /* cc_outcome; 0 also where closing is refused this turn */
} hints;

/* Python: the number of players still in.
 * O(players). */
CC_INLINE int count_in(const game *g)
{
    int s, k = 0;
    for (s = 0; s < g->n; s++)
        k += g->in[s];
    return k;
}

/* Closing allowed at the turn that follows `turns` completed turns of the hand
 * (first_round_close, or every player in has had a turn). */
CC_INLINE int may_close_at(const game *g, uint32_t turns)
{
    return g->cfg->first_round_close || turns >= (uint32_t)count_in(g);
}

/* Python: GameState.may_close (closing allowed at this turn). */
CC_INLINE int may_close(const game *g)
{
    return may_close_at(g, g->turns);
}

/* Points of card bit i as the bots weigh it. Python: Rules._bit_points (greedy) and
 * ExpertBot._card_points (which gives the joker bits 12 and 28 joker_points even when
 * not in play: never held then). */
CC_INLINE int bit_points(const cc_rules *r, int i)
{
    if ((r->joker_mask >> i & 1) || i == CC_JOKER1_BIT || i == CC_JOKER2_BIT)
        return r->joker_points;
    return r->points[i % 16];
}

/* Deadwood of the valid hand h under the game's rules, plain or not.
 * A few ns on the house fast path; the variants' search otherwise. */
CC_INLINE int eng_deadwood(const cc_rules *r, cc_hand h)
{
    if (!r->plain)
        return cc_var_deadwood(r, h);
    /* two inlined copies: the single-deck one drops every twice term */
    return h.twice == 0 ? cc_melds_deadwood_core(r, h.once, 0)
                        : cc_melds_deadwood_core(r, h.once, h.twice);
}

/* The discard hints (points and outcomes) of the valid 8 cards h under plain rules,
 * whose hints fit a byte, widened. <= 9 deadwoods on the house kernels. */
CC_INLINE void eng_plain_hints(const cc_rules *r, cc_hand h, uint16_t *points,
                               uint8_t *outcomes)
{
    uint8_t p8[8];
    int k;
    cc_hints_of(r, h, p8, outcomes);
    for (k = 0; k < 8; k++)
        points[k] = p8[k];
}

/* The discard hints (points and outcomes) of the valid 8 cards h under the game's
 * rules, plain or not. <= 9 deadwoods on the house kernels; the variants' otherwise. */
CC_INLINE void eng_hints(const cc_rules *r, cc_hand h, uint16_t *points, uint8_t *outcomes)
{
    if (r->plain)
        eng_plain_hints(r, h, points, outcomes);
    else
        cc_var_hints(r, h, points, outcomes);
}

/* Python: the game's hints of the player to act (GameState.hints), masked while the
 * rules refuse a close this turn. The hints plus O(8). */
CC_INLINE void eng_turn_hints(const game *g, hints *h)
{
    const cc_hand held = g->hands[g->turn];
    int k;
    eng_hints(&g->r, held, h->points, h->outcome);
    cc_hand_indices(held, h->card);
    if (!g->cfg->first_round_close && !may_close(g))
        for (k = 0; k < 8; k++)
            h->outcome[k] = CC_CANNOT_CLOSE;
}

/* The game `index` of the checked configuration cfg into *rec (cc_play_game past its
 * checks): the deal, the bots' turns, the hands' ends; the search bot's seats play
 * through `search`. O(turns) bot decisions. */
CC_INTERNAL cc_status eng_play_game(const cc_game_config *cfg, uint64_t index,
                                    cc_game_record *rec, eng_bot_fn search);

/* The game of configuration cfg (its record rec) with nothing dealt and no seat in:
 * the seats and decks, the deck in Python's order, the greedy bot's card order and
 * point masks; g zeroed first. eng_new_game starts from it, and the search's template
 * (src/search/search.c) too. O(deck). */
CC_INTERNAL void eng_game_base(game *g, const cc_game_config *cfg, cc_game_record *rec);

/* The steps of a game for a caller that drives it move by move (src/rl/vecenv.c, and
 * the search's playouts on a game it sampled, src/search/search.c): the
 * start of game `index` of the checked cfg (the deal included) into *g, the record rec
 * (its arrays may have capacity 0); a draw of the player to act (-1: nothing to draw);
 * its discard or close (CC_ERR_BAD_ARGUMENT: a card not held, or a close the rules
 * refuse this turn); the bots' whole turn of the player to act; between hands, the
 * bot's rejoin choice of an eliminated `seat` with chips, a rejoin, the next deal. */
CC_INTERNAL void eng_new_game(game *g, const cc_game_config *cfg, uint64_t index,
                              cc_game_record *rec);
CC_INTERNAL int eng_draw(game *g, int from_pile);
CC_INTERNAL cc_status eng_discard(game *g, int card, int close);
CC_INTERNAL cc_status eng_bot_turn(game *g);
CC_INTERNAL int eng_bot_rejoins(game *g, int seat);
CC_INTERNAL void eng_rejoin(game *g, int seat);
CC_INTERNAL void eng_next_hand(game *g);

#endif /* CC_SRC_ENGINE_H */
