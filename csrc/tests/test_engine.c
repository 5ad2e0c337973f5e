/* The game engine (csrc/src/engine/engine.c): games of the built-in bots under every preset.
 *   - the digests of tests/data/engine_games.txt, written by the Python loop
 *     (tests/oracles/engine_diff.py --write-golden): the same games, event for event;
 *   - CC_ENGINE_GAMES games (default 300) per preset and table: each record agrees with
 *     its event trace (a draw then a discard by the seat to act, one deal per hand, the
 *     hands' outcomes and points, the end), a game played again is the same game, and
 *     buffers too small are counted past, never written past;
 *   - a config out of range is refused.
 * The golden file is ENGINE_GAMES (a compile definition) or argv[1]. */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chinchon.h"

#include "engine_config.h"
#include "testlib.h"

#ifndef ENGINE_GAMES
#define ENGINE_GAMES "engine_games.txt"
#endif

#define MAX_EVENTS (1u << 22)
#define MAX_ENDED 4096

typedef struct buffers {
    uint32_t turns[MAX_ENDED];
    uint8_t outcomes[MAX_ENDED];
    int32_t points[MAX_ENDED * CC_MAX_PLAYERS];
    uint8_t point_seats[MAX_ENDED * CC_MAX_PLAYERS];
    uint64_t *events;
} buffers;

static void attach(cc_game_record *rec, buffers *b, size_t cap_events)
{
    memset(rec, 0, sizeof *rec);
    rec->turns = b->turns;
    rec->outcomes = b->outcomes;
    rec->cap_ended = MAX_ENDED;
    rec->points = b->points;
    rec->point_seats = b->point_seats;
    rec->cap_points = MAX_ENDED * CC_MAX_PLAYERS;
    rec->events = b->events;
    rec->cap_events = cap_events;
}

static uint64_t fnv1a(const uint64_t *events, size_t n, uint64_t h)
{
    size_t i;
    int k;
    for (i = 0; i < n; i++)
        for (k = 0; k < 8; k++) {
            h ^= (events[i] >> (8 * k)) & 0xff;
            h *= UINT64_C(0x100000001B3);
        }
    return h;
}

static void check_golden(const char *path, buffers *b)
{
    char line[512], preset[32], bots[128];
    int players, games, lines = 0;
    long long seed;
    unsigned long long want;
    FILE *f = fopen(path, "r");
    CHECK(f != NULL, "cannot open %s", path);
    if (f == NULL)
        return;
    while (fgets(line, sizeof line, f)) {
        cc_game_config cfg;
        cc_game_record rec;
        uint64_t h = UINT64_C(0xCBF29CE484222325);
        int i;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        if (sscanf(line, "%31s %d %127s %lld %d : %llu", preset, &players, bots, &seed, &games,
                   &want) != 6) {
            CHECK(0, "bad line %s", line);
            continue;
        }
        lines++;
        if (!config_of(&cfg, preset, players, bots, seed)) {
            CHECK(0, "bad table %s", line);
            continue;
        }
        for (i = 0; i < games; i++) {
            attach(&rec, b, MAX_EVENTS);
            CHECK(cc_play_game(&cfg, (uint64_t)i, &rec) == CC_OK, "game %d of %s", i, line);
            CHECK(rec.n_events <= MAX_EVENTS, "trace too long");
            h = fnv1a(b->events, rec.n_events, h);
        }
        CHECK(h == (uint64_t)want, "%s %d %s seed %lld: digest %" PRIu64 ", the Python loop's %llu",
              preset, players, bots, seed, h, want);
    }
    fclose(f);
    CHECK(lines >= 8, "only %d runs in %s", lines, path);
}

/* The record agrees with the trace. */
static void check_trace(const cc_game_config *cfg, const cc_game_record *rec, const uint64_t *ev)
{
    size_t i, ended = 0, points = 0;
    uint32_t deals = 0, turns = 0;
    int expect_discard = -1;
    for (i = 0; i < rec->n_events; i++) {
        const int kind = (int)(ev[i] >> 56), seat = (int)(ev[i] >> 48 & 0xff);
        const int a = (int)(ev[i] >> 32 & 0xffff);
        const uint32_t b = (uint32_t)ev[i];
        switch (kind) {
        case CC_EV_DEAL:
            CHECK(expect_discard < 0 && b == ++deals, "deal %u", b);
            turns = 0;
            break;
        case CC_EV_DRAW:
            CHECK(expect_discard < 0 && seat < cfg->players && b < 64, "draw");
            expect_discard = seat;
            break;
        case CC_EV_RESHUFFLE:
            CHECK(expect_discard < 0 && cfg->void_at_stock < 0 && b > 0, "reshuffle");
            break;
        case CC_EV_DISCARD:
            CHECK(seat == expect_discard && (a == 0 || a == 1), "discard by %d", seat);
            expect_discard = -1;
            turns++;
            break;
        case CC_EV_HAND:
            CHECK(ended < rec->n_ended && rec->outcomes[ended] == a && rec->turns[ended] == turns,
                  "hand %zu", ended);
            CHECK(b == deals, "hand number");
            CHECK((a == CC_HAND_VOID) == (seat == 0xff), "a void hand has no closer");
            ended++;
            break;
        case CC_EV_POINTS:
            CHECK(points < rec->n_points && rec->points[points] == (int32_t)b, "points %zu",
                  points);
            CHECK(rec->point_seats == NULL || rec->point_seats[points] == seat,
                  "the seat of points %zu", points);
            points++;
            break;
        case CC_EV_REJOIN:
            CHECK(seat < cfg->players && cfg->rejoin_chips > 0, "rejoin");
            break;
        case CC_EV_END:
            CHECK(i + 1 == rec->n_events && a == rec->status && b == rec->hands, "end");
            break;
        default:
            CHECK(0, "event kind %d", kind);
        }
    }
    CHECK(ended == rec->n_ended && points == rec->n_points && deals == rec->hands,
          "counts: %zu/%zu hands, %zu/%zu points, %u/%u deals", ended, rec->n_ended, points,
          rec->n_points, deals, rec->hands);
    if (rec->status == CC_GAME_STALLED)
        CHECK(turns >= cfg->max_turns, "stalled before the cap");
    else if (rec->status == CC_GAME_WON)
        CHECK(rec->winner >= 0 && rec->winner < cfg->players, "winner");
    else
        CHECK(rec->status == CC_GAME_DRAW && rec->winner == -1, "draw");
}

static void check_tables(buffers *b, int games)
{
    static const struct {
        const char *preset;
        int players;
        const char *bots;
    } tables[] = {
        {"barajamos", 4, "greedy"}, {"barajamos", 3, "random,greedy,expert"},
        {"classic", 4, "greedy,random"}, {"conga", 2, "greedy"}, {"conga", 2, "random"},
        {"conga", 2, "expert,random"}, {"fifty", 5, "greedy,random"},
        {"fifty", 6, "expert,greedy,random"},
    };
    uint64_t *again = malloc(MAX_EVENTS * sizeof(uint64_t));
    size_t t;
    CHECK(again != NULL, "malloc");
    if (again == NULL)
        return;
    for (t = 0; t < sizeof tables / sizeof tables[0]; t++) {
        cc_game_config cfg;
        int i;
        CHECK(config_of(&cfg, tables[t].preset, tables[t].players, tables[t].bots, 1000 + (int)t),
              "table %zu", t);
        for (i = 0; i < games; i++) {
            cc_game_record rec, rec2, small;
            uint32_t turns1[1];
            uint8_t outcomes1[1];
            int32_t points1[1];
            attach(&rec, b, MAX_EVENTS);
            CHECK(cc_play_game(&cfg, (uint64_t)i, &rec) == CC_OK, "%s game %d", tables[t].preset, i);
            check_trace(&cfg, &rec, b->events);
            /* the same game again, into other buffers: the same trace */
            memset(&rec2, 0, sizeof rec2);
            rec2.events = again;
            rec2.cap_events = MAX_EVENTS;
            rec2.turns = turns1;
            rec2.outcomes = outcomes1;
            rec2.cap_ended = 1;
            rec2.points = points1;
            rec2.cap_points = 1;
            CHECK(cc_play_game(&cfg, (uint64_t)i, &rec2) == CC_OK, "again");
            CHECK(rec2.n_events == rec.n_events
                      && memcmp(again, b->events, rec.n_events * sizeof(uint64_t)) == 0
                      && rec2.status == rec.status && rec2.winner == rec.winner
                      && rec2.n_ended == rec.n_ended && rec2.n_points == rec.n_points
                      && memcmp(rec2.totals, rec.totals, sizeof rec.totals) == 0,
                  "%s game %d played again differs", tables[t].preset, i);
            /* no room at all: counted, not written */
            memset(&small, 0, sizeof small);
            CHECK(cc_play_game(&cfg, (uint64_t)i, &small) == CC_OK
                      && small.n_events == rec.n_events && small.n_ended == rec.n_ended,
                  "without buffers");
        }
    }
    free(again);
}

static void check_bad_configs(buffers *b)
{
    cc_game_config cfg, bad;
    cc_game_record rec;
    CHECK(config_of(&cfg, "barajamos", 4, "greedy", 0), "config");
    attach(&rec, b, 0);
    bad = cfg;
    bad.players = 1;
    CHECK(cc_play_game(&bad, 0, &rec) == CC_ERR_BAD_ARGUMENT, "1 player");
    bad = cfg;
    bad.players = 7;
    CHECK(cc_play_game(&bad, 0, &rec) == CC_ERR_BAD_ARGUMENT, "7 players");
    bad = cfg;
    bad.bots[2] = CC_BOT_END;
    CHECK(cc_play_game(&bad, 0, &rec) == CC_ERR_BAD_ARGUMENT, "no such bot");
    bad = cfg;
    bad.max_turns = 0;
    CHECK(cc_play_game(&bad, 0, &rec) == CC_ERR_BAD_ARGUMENT, "max_turns 0");
    bad = cfg;
    bad.void_at_stock = 256;
    CHECK(cc_play_game(&bad, 0, &rec) == CC_ERR_BAD_ARGUMENT, "void_at_stock");
    bad = cfg;
    bad.eliminate_above = -5;
    CHECK(cc_play_game(&bad, 0, &rec) == CC_ERR_BAD_ARGUMENT, "eliminate_above -5");
    bad.eliminate_above = CC_MAX_RULE_NUMBER + 1;
    CHECK(cc_play_game(&bad, 0, &rec) == CC_ERR_BAD_ARGUMENT, "eliminate_above 2**53");
    bad = cfg;
    bad.rejoin_chips = CC_MAX_RULE_NUMBER + 1;
    CHECK(cc_play_game(&bad, 0, &rec) == CC_ERR_BAD_ARGUMENT, "rejoin_chips 2**53");
    bad.rejoin_chips = -1;
    CHECK(cc_play_game(&bad, 0, &rec) == CC_ERR_BAD_ARGUMENT, "rejoin_chips -1");
    bad = cfg;
    bad.first_round_close = 2;
    CHECK(cc_play_game(&bad, 0, &rec) == CC_ERR_BAD_ARGUMENT, "first_round_close 2");
    bad = cfg;
    bad.all_out_lowest = -1;
    CHECK(cc_play_game(&bad, 0, &rec) == CC_ERR_BAD_ARGUMENT, "all_out_lowest -1");
    bad = cfg;
    bad.rules.minus_ten = -1;
    CHECK(cc_play_game(&bad, 0, &rec) == CC_ERR_BAD_ARGUMENT, "minus_ten -1");
    bad = cfg;
    bad.rules.joker_chinchon = -2;
    CHECK(cc_play_game(&bad, 0, &rec) == CC_ERR_BAD_ARGUMENT, "joker_chinchon -2");
    bad = cfg;
    bad.eliminate_above = 0; /* the ends of the ranges play */
    bad.rejoin_chips = CC_MAX_RULE_NUMBER;
    CHECK(cc_play_game(&bad, 0, &rec) == CC_OK, "eliminate_above 0, rejoin_chips 2**53 - 1");
    CHECK(cc_play_game(&cfg, 0, NULL) == CC_ERR_BAD_ARGUMENT, "no record");
    CHECK(cc_play_game(&cfg, 0, &rec) == CC_OK, "the good config plays");
}

int main(int argc, char **argv)
{
    const char *env = getenv("CC_ENGINE_GAMES");
    const int games = env ? atoi(env) : 300;
    buffers *b = malloc(sizeof *b);
    if (b == NULL || (b->events = malloc(MAX_EVENTS * sizeof(uint64_t))) == NULL) {
        fprintf(stderr, "malloc failed\n");
        return 1;
    }
    check_golden(argc > 1 ? argv[1] : ENGINE_GAMES, b);
    check_tables(b, games);
    check_bad_configs(b);
    free(b->events);
    free(b);
    printf("test_engine: %d games per table\n", games);
    return th_report("test_engine");
}
