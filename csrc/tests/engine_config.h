/* engine_config.h -- for the C tests of the game engine and of the learning tables
 * (test_engine.c, test_vecenv.c): a cc_game_config of a preset, a seat count and bots
 * named by text. */
#ifndef CC_TESTS_ENGINE_CONFIG_H
#define CC_TESTS_ENGINE_CONFIG_H

#include <string.h>

#include "chinchon.h"

/* The config of a preset (docs/rules.md#rule-fields) with `players` seats of the bots named in `bots`
 * (a comma list, repeated round the table). 0 on an unknown name. */
static int config_of(cc_game_config *cfg, const char *preset, int players, const char *bots,
                     int64_t seed)
{
    static const uint8_t house[CC_NRANKS] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    cc_variant v = {48, 0, 0, 25, 1, 25};
    int close_limit = 5, s, n_names = 0;
    uint8_t names[CC_MAX_PLAYERS];
    const char *p = bots;
    memset(cfg, 0, sizeof *cfg);
    cfg->eliminate_above = 70;
    cfg->rejoin_chips = 2;
    cfg->first_round_close = 1;
    cfg->void_at_stock = -1;
    if (strcmp(preset, "classic") == 0) {
        v.seven_run_wins = 0;
    } else if (strcmp(preset, "conga") == 0) {
        v.deck = 40;
        v.wild_ace_of_coins = 1;
        close_limit = 7;
        cfg->eliminate_above = 99;
        cfg->all_out_lowest = 1;
        cfg->void_at_stock = 2;
        cfg->rejoin_chips = 0;
    } else if (strcmp(preset, "fifty") == 0) {
        v.jokers = 2;
    } else if (strcmp(preset, "barajamos") != 0) {
        return 0;
    }
    if (cc_rules_init_variant(&cfg->rules, house, close_limit, 10, &v) != CC_OK)
        return 0;
    while (*p && n_names < CC_MAX_PLAYERS) {
        if (strncmp(p, "random", 6) == 0)
            names[n_names++] = CC_BOT_RANDOM;
        else if (strncmp(p, "greedy", 6) == 0)
            names[n_names++] = CC_BOT_GREEDY;
        else if (strncmp(p, "expert", 6) == 0)
            names[n_names++] = CC_BOT_EXPERT;
        else
            return 0;
        p += 6;
        if (*p == ',')
            p++;
    }
    if (n_names == 0)
        return 0;
    cfg->players = players;
    for (s = 0; s < players; s++)
        cfg->bots[s] = names[s % n_names];
    cfg->max_turns = 1000;
    cfg->seed_negative = seed < 0;
    cfg->seed_magnitude[0] = seed < 0 ? (uint64_t)0 - (uint64_t)seed : (uint64_t)seed;
    cfg->stale_turns = 30;
    cfg->stale_shake = 0.25;
    cfg->wait_for = 0.25;
    return 1;
}

#endif /* CC_TESTS_ENGINE_CONFIG_H */
