/* The search's model of the expert in its playouts (csrc/src/engine/engine_bots.c:
 * game.links set, the greedy bots' draw and discard changed), on hands made by hand
 * under conga (40 cards, the ace of coins a joker) through the engine's bots:
 *   - each card's links: its rank in the other suits and its suit within two of the
 *     deck's ranks (7 and 10 are neighbours without 8 and 9), never a joker;
 *   - the discard: where the greedy bot discards the card that leaves the fewest
 *     points, the model keeps a card linked to another and discards a lone one that
 *     leaves at most a point more; a card that links to nothing stays the greedy's;
 *     a close the greedy would make is still made;
 *   - the draw: the greedy takes the pile's top for any point saved, the model only
 *     for 2 points and 30% of the deadwood, or a joker;
 *   - without the links (every real game) the greedy's own choices.
 * Internal: the test reads the engine's headers (src/), which the public API hides. */

#include <stdio.h>
#include <string.h>

#include "chinchon.h"
#include "engine/engine.h"
#include "engine/engine_bots.h"

#include "testlib.h"

static cc_game_config cfg;
static uint64_t links[64];

/* A 2-player conga game at seat 0's turn (`turns` played), its hand h, the pile `pile`
 * (its top last; NULL: empty); the model on when `model`. */
static void setup(game *g, const char *h, const char *pile, int model, uint32_t turns)
{
    static const uint8_t house[CC_NRANKS] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    cc_variant v = {40, 1, 0, 25, 1, 25};
    int c;
    memset(&cfg, 0, sizeof cfg);
    CHECK(cc_rules_init_variant(&cfg.rules, house, 7, 10, &v) == CC_OK, "conga rules");
    cfg.players = 2;
    cfg.eliminate_above = 99;
    cfg.first_round_close = 1;
    cfg.all_out_lowest = 1;
    cfg.max_turns = 1000;
    cfg.stale_turns = 30;
    cfg.stale_shake = 0.25;
    cfg.bots[0] = cfg.bots[1] = CC_BOT_GREEDY;
    memset(g, 0, sizeof *g);
    g->cfg = &cfg;
    g->r = cfg.rules;
    g->r.decks = 1;
    g->n = 2;
    g->decks = 1;
    g->in[0] = g->in[1] = 1;
    g->turns = turns;
    g->hands[0] = th_parse(h);
    for (c = 0; c < 64; c++) {
        const int joker = (int)(g->r.joker_mask >> c & 1);
        if (c % 16 < CC_NRANKS || joker)
            g->card_key[c] = (uint8_t)(joker << 6
                                       | (joker ? 31 : 31 - bit_points(&g->r, c)));
    }
    g->dw_hand[0] = g->dw_hand[1] = 1; /* nothing cached: hand_number is 0 */
    if (pile != NULL) {
        const cc_hand p = th_parse(pile);
        uint8_t cards[CC_MAX_DECK];
        g->pile_n = cc_hand_indices(p, cards);
        memcpy(g->pile, cards, (size_t)g->pile_n);
        g->pile_set = p;
    }
    bot_links(&g->r, links);
    g->links = model ? links : NULL;
}

static int card_of(const char *text)
{
    return cc_ctz(th_parse(text).once);
}

static void check_links(void)
{
    game g;
    setup(&g, "1c", NULL, 1, 0);
    /* 7 of cups: 5c 6c (below), 10c 11c (above: no 8 or 9), and the other 7s */
    EXPECT(links[card_of("7c")] == th_parse("5c 6c 10c 11c 7o 7e 7b").once);
    /* the ace of cups: 2c 3c and the other aces but the ace of coins (the joker) */
    EXPECT(links[card_of("1c")] == th_parse("2c 3c 1e 1b").once);
    /* the joker's own (never read: a joker is discarded last); 12 of swords: 10e 11e
     * and the other 12s */
    EXPECT(links[card_of("1o")] == th_parse("2o 3o 1c 1e 1b").once);
    EXPECT(links[card_of("12e")] == th_parse("10e 11e 12o 12c 12b").once);
    EXPECT(links[8] == 0 && links[15] == 0); /* the 9 and no rank: not in the deck */
}

static void discard_of(const char *h, int model, uint32_t turns, int *card, int *close)
{
    game g;
    setup(&g, h, "4b", model, turns);
    g.turn = 0;
    CHECK(bot_discard(&g, 0, card, close) == CC_OK, "discard of %s", h);
}

static void check_discards(void)
{
    int card, close;
    /* a run of five; 7e (linked to 5e) leaves 11 points, 6b (lone) 12: the greedy
     * discards 7e, the model 6b */
    discard_of("1c 2c 3c 4c 5c 7e 5e 6b", 0, 4, &card, &close);
    EXPECT(card == card_of("7e") && !close);
    discard_of("1c 2c 3c 4c 5c 7e 5e 6b", 1, 4, &card, &close);
    EXPECT(card == card_of("6b") && !close);
    /* 7e linked, 3b lone but 4 points fewer: both discard 7e (1.5 points of a link
     * do not cover 4) */
    discard_of("1c 2c 3c 4c 5c 7e 5e 3b", 1, 4, &card, &close);
    EXPECT(card == card_of("7e"));
    /* 7e linked to nothing: the greedy's card */
    discard_of("1c 2c 3c 4c 5c 7e 2e 6b", 1, 4, &card, &close);
    EXPECT(card == card_of("7e"));
    /* a close within the limit (7) is made by both: 3e leaves 2 points and closes;
     * by its links alone (3c, 5e) the model would keep 3e and discard 2b */
    discard_of("1c 2c 3c 5e 5b 5o 3e 2b", 0, 4, &card, &close);
    EXPECT(card == card_of("3e") && close);
    discard_of("1c 2c 3c 5e 5b 5o 3e 2b", 1, 4, &card, &close);
    EXPECT(card == card_of("3e") && close);
}

static int draw_of(const char *h, const char *top, int model)
{
    game g;
    int from_pile = -1;
    setup(&g, h, top, model, 4);
    g.turn = 0;
    CHECK(bot_draw(&g, 0, &from_pile) == CC_OK, "draw of %s onto %s", h, top);
    return from_pile;
}

static void check_draws(void)
{
    /* 12e alone beside two melds (deadwood 12): the pile's 11e saves 1 point (the
     * greedy takes it, the model not); 1e saves 11 (both); 12b saves nothing
     * (neither) */
    EXPECT(draw_of("1c 2c 3c 5b 5e 5o 12e", "11e", 0) == 1);
    EXPECT(draw_of("1c 2c 3c 5b 5e 5o 12e", "11e", 1) == 0);
    EXPECT(draw_of("1c 2c 3c 5b 5e 5o 12e", "1e", 0) == 1);
    EXPECT(draw_of("1c 2c 3c 5b 5e 5o 12e", "1e", 1) == 1);
    EXPECT(draw_of("1c 2c 3c 5b 5e 5o 12e", "12b", 0) == 0);
    EXPECT(draw_of("1c 2c 3c 5b 5e 5o 12e", "12b", 1) == 0);
    /* the joker: the model takes it even where it saves 1 point (1e, beside melds) */
    EXPECT(draw_of("2c 3c 4c 5b 5e 5o 1e", "1o", 1) == 1);
}

int main(void)
{
    check_links();
    check_discards();
    check_draws();
    return th_report("test_search_model");
}
