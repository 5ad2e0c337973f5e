/* The search bot (csrc/src/search/search.c) through the public API:
 *   - whole games with search seats among the other bots (cc_play_game): every game
 *     ends (won or drawn, never stalled), and a game played again is the same game;
 *   - cc_search_choose on a view: the same view and seed give the same choice, the
 *     choice is legal (a card held; a draw 0/1), and the choice does not change when
 *     the cards the seat has not seen move between the other hands and the stock (the
 *     view holds none of them: it is the same view);
 *   - the same choice on 2, 3 and 8 threads as on one (the caller deals the samples);
 *   - budgets smaller than the race's rounds times its candidates still choose;
 *   - a bad budget, a missing output or a view whose cards cannot fit are refused.
 * CC_ENGINE_GAMES / 30 games per table (at least 2). */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chinchon.h"

#include "testlib.h"

static void config(cc_game_config *cfg, int players, int conga, const uint8_t *bots,
                   uint32_t playouts)
{
    static const uint8_t house[CC_NRANKS] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    cc_variant v = {48, 0, 0, 25, 1, 25};
    int s;
    memset(cfg, 0, sizeof *cfg);
    if (conga) {
        v.deck = 40;
        v.wild_ace_of_coins = 1;
    }
    CHECK(cc_rules_init_variant(&cfg->rules, house, conga ? 7 : 5, 10, &v) == CC_OK, "rules");
    cfg->players = players;
    cfg->eliminate_above = conga ? 99 : 70;
    cfg->rejoin_chips = conga ? 0 : 2;
    cfg->first_round_close = 1;
    cfg->all_out_lowest = conga;
    cfg->void_at_stock = conga ? 2 : -1;
    cfg->max_turns = 1000;
    cfg->seed_magnitude[0] = 27;
    cfg->stale_turns = 30;
    cfg->stale_shake = 0.25;
    cfg->wait_for = 0.25;
    for (s = 0; s < players; s++) {
        cfg->bots[s] = bots[s];
        cfg->search_playouts[s] = bots[s] == CC_BOT_SEARCH ? playouts : 0;
    }
}

/* Two game records on arrays of their own, room for 512 hands each. */
typedef struct {
    uint32_t turns[2][512];
    uint8_t outcomes[2][512];
    int32_t points[2][512 * CC_MAX_PLAYERS];
    cc_game_record rec[2];
} records;

static void records_init(records *r)
{
    int k;
    for (k = 0; k < 2; k++) {
        memset(&r->rec[k], 0, sizeof r->rec[k]);
        r->rec[k].turns = r->turns[k];
        r->rec[k].outcomes = r->outcomes[k];
        r->rec[k].points = r->points[k];
        r->rec[k].cap_ended = 512;
        r->rec[k].cap_points = 512 * CC_MAX_PLAYERS;
    }
}

static void check_games(int games)
{
    static const uint8_t two[2] = {CC_BOT_SEARCH, CC_BOT_EXPERT};
    static const uint8_t four[4] = {CC_BOT_SEARCH, CC_BOT_GREEDY, CC_BOT_RANDOM, CC_BOT_SEARCH};
    static const uint8_t six[6] = {CC_BOT_SEARCH, CC_BOT_GREEDY, CC_BOT_EXPERT,
                                   CC_BOT_RANDOM, CC_BOT_SEARCH, CC_BOT_GREEDY};
    const struct { int players, conga; const uint8_t *bots; } tables[] = {
        {2, 1, two}, {2, 0, two}, {4, 1, four}, {4, 0, four}, {6, 0, six}};
    static records r;
    cc_game_record *rec = r.rec;
    size_t t;
    int i;
    for (t = 0; t < sizeof tables / sizeof tables[0]; t++) {
        cc_game_config cfg;
        config(&cfg, tables[t].players, tables[t].conga, tables[t].bots, 40);
        for (i = 0; i < games; i++) {
            int k;
            records_init(&r);
            for (k = 0; k < 2; k++)
                CHECK(cc_play_game(&cfg, (uint64_t)i, &rec[k]) == CC_OK, "table %d game %d",
                      (int)t, i);
            CHECK(rec[0].status != CC_GAME_STALLED, "table %d game %d stalled", (int)t, i);
            CHECK(rec[0].status == rec[1].status && rec[0].winner == rec[1].winner
                      && rec[0].hands == rec[1].hands && rec[0].n_ended == rec[1].n_ended
                      && memcmp(r.turns[0], r.turns[1], rec[0].n_ended * sizeof r.turns[0][0]) == 0
                      && memcmp(rec[0].totals, rec[1].totals, sizeof rec[0].totals) == 0,
                  "table %d game %d again differs", (int)t, i);
        }
    }
}

/* The interrupted callback of check_interrupt: counts its calls, says stop at the
 * `stop_at`-th (0: never). */
typedef struct { int calls, stop_at; } asked;

static int interrupted_at(void *context)
{
    asked *a = context;
    a->calls++;
    return a->stop_at > 0 && a->calls >= a->stop_at;
}

/* cc_game_config.interrupted: asked after each search seat's decision alone, it stops
 * the game at once where it says so; a callback that never does changes nothing. */
static void check_interrupt(void)
{
    static const uint8_t two[2] = {CC_BOT_SEARCH, CC_BOT_EXPERT};
    static const uint8_t none[2] = {CC_BOT_GREEDY, CC_BOT_EXPERT};
    static records r;
    cc_game_record *rec = r.rec;
    cc_game_config cfg;
    asked a = {0, 0};
    records_init(&r);
    config(&cfg, 2, 1, two, 20);
    CHECK(cc_play_game(&cfg, 3, &rec[0]) == CC_OK, "the game without a callback");
    cfg.interrupted = interrupted_at;
    cfg.interrupt_context = &a;
    CHECK(cc_play_game(&cfg, 3, &rec[1]) == CC_OK, "the game with one that never stops it");
    CHECK(rec[0].winner == rec[1].winner && rec[0].hands == rec[1].hands
              && rec[0].n_ended == rec[1].n_ended
              && memcmp(rec[0].totals, rec[1].totals, sizeof rec[0].totals) == 0,
          "a callback that says go on changed the game");
    CHECK(a.calls >= 2, "asked %d times in a whole game", a.calls);
    a.calls = 0;
    a.stop_at = 2;
    CHECK(cc_play_game(&cfg, 3, &rec[1]) == CC_ERR_INTERRUPTED, "not stopped");
    CHECK(a.calls == 2, "asked %d times after it said stop", a.calls);
    a.calls = 0;
    a.stop_at = 1;
    config(&cfg, 2, 1, none, 20);
    cfg.interrupted = interrupted_at;
    cfg.interrupt_context = &a;
    CHECK(cc_play_game(&cfg, 3, &rec[1]) == CC_OK && a.calls == 0,
          "asked %d times with no search seat", a.calls);
}

/* A view of seat 0 at its draw, 4 players, house rules: a shuffled deck dealt 7 each,
 * one card to the pile, the rest the stock; seat 2 took a card from the pile; `turns`
 * played this hand (from 3: each other seat played one; more: the samples' other hands
 * are played as their seats drew, search.c's improve). */
static void view_of(cc_search_view *v, const cc_game_config *cfg, const int *deck,
                    uint32_t turns)
{
    int s, k;
    memset(v, 0, sizeof *v);
    v->config = cfg;
    v->seat = 0;
    for (k = 0; k < 7; k++)
        v->held = th_add(v->held, deck[k]);
    v->pile[0] = (uint8_t)deck[28];
    v->pile[1] = (uint8_t)deck[29];
    v->pile_n = 2;
    v->taken[2] = th_add(v->taken[2], deck[14]); /* seat 2 holds deck[14..20] */
    v->stock_n = 48 - 30;
    for (s = 0; s < 4; s++)
        v->in[s] = 1;
    v->lead = 1;
    v->hand_number = 1;
    v->turns = turns;
}

static void check_choices(void)
{
    static const uint8_t bots[4] = {CC_BOT_SEARCH, CC_BOT_GREEDY, CC_BOT_GREEDY, CC_BOT_GREEDY};
    cc_game_config cfg;
    cc_search_view v, w;
    int deck[48], k, c, trial, choice, close, again, again_close;
    uint64_t state = 99;
    config(&cfg, 4, 0, bots, 200);
    for (trial = 0; trial < 20; trial++) {
        k = 0;
        for (c = 0; c < 64; c++)
            if ((cfg.rules.card_mask >> c) & 1)
                deck[k++] = c;
        for (k = 47; k > 0; k--) {
            const int j = (int)(th_splitmix64(&state) % (uint64_t)(k + 1)), x = deck[k];
            deck[k] = deck[j];
            deck[j] = x;
        }
        view_of(&v, &cfg, deck, 3 + 4 * (uint32_t)(trial / 2 % 4));
        v.discard = trial % 2;
        if (v.discard) { /* it drew deck[30] from the stock */
            v.held = th_add(v.held, deck[30]);
            v.stock_n--;
        }
        CHECK(cc_search_choose(&v, 200, 0, 1, 7, &choice, &close) == CC_OK, "trial %d", trial);
        { /* the same choice on more threads (the samples dealt in order by the caller) */
            static const int threads[3] = {2, 3, 8};
            int t2, c2, c2_close;
            for (t2 = 0; t2 < 3; t2++) {
                CHECK(cc_search_choose(&v, 200, 0, threads[t2], 7, &c2, &c2_close) == CC_OK,
                      "trial %d: %d threads", trial, threads[t2]);
                CHECK(c2 == choice && c2_close == close,
                      "trial %d: %d threads: another choice", trial, threads[t2]);
            }
            CHECK(cc_search_choose(&v, 0, 2000, 2, 7, &c2, &c2_close) == CC_OK,
                  "trial %d: a time budget on 2 threads", trial);
            CHECK(v.discard ? (v.held.once >> c2 & 1) != 0 : (c2 == 0 || c2 == 1),
                  "trial %d: a time budget on 2 threads: not a legal choice", trial);
        }
        if (v.discard)
            CHECK((v.held.once >> choice & 1) && (close == 0 || close == 1), "a card held");
        else
            CHECK((choice == 0 || choice == 1) && close == 0, "a draw");
        { /* budgets below the race's rounds times its candidates: a sample a round */
            static const uint32_t small[3] = {1, 5, 17};
            int b2, c2, c2_close;
            for (b2 = 0; b2 < 3; b2++) {
                CHECK(cc_search_choose(&v, small[b2], 0, 1, 7, &c2, &c2_close) == CC_OK,
                      "trial %d: budget %u", trial, (unsigned)small[b2]);
                CHECK(v.discard ? (v.held.once >> c2 & 1) != 0 : (c2 == 0 || c2 == 1),
                      "trial %d: budget %u: not a legal choice", trial, (unsigned)small[b2]);
            }
        }
        /* the hidden cards moved (deck[7..27] but deck[14], the other hands; deck[31..47],
         * the stock): the view made again from that deal is the same view, and so is
         * the choice */
        for (k = 0; k < 10; k++) {
            const int a = 7 + (int)(th_splitmix64(&state) % 21);
            const int b = 31 + (int)(th_splitmix64(&state) % 17);
            if (a != 14) {
                const int x = deck[a];
                deck[a] = deck[b];
                deck[b] = x;
            }
        }
        view_of(&w, &cfg, deck, v.turns);
        w.discard = v.discard;
        w.held = v.held;
        w.stock_n = v.stock_n;
        CHECK(memcmp(&w, &v, sizeof w) == 0, "trial %d: the view moved", trial);
        CHECK(cc_search_choose(&w, 200, 0, 1, 7, &again, &again_close) == CC_OK, "again");
        CHECK(again == choice && again_close == close, "trial %d: the same view, another choice",
              trial);
    }
    /* refused */
    view_of(&v, &cfg, deck, 3);
    CHECK(cc_search_choose(&v, 0, 0, 1, 1, &choice, &close) == CC_ERR_BAD_ARGUMENT, "no budget");
    CHECK(cc_search_choose(NULL, 10, 0, 1, 1, &choice, &close) == CC_ERR_BAD_ARGUMENT, "no view");
    CHECK(cc_search_choose(&v, 10, 0, 1, 1, NULL, &close) == CC_ERR_BAD_ARGUMENT, "no output");
    CHECK(cc_search_choose(&v, 10, 0, -1, 1, &choice, &close) == CC_ERR_BAD_ARGUMENT,
          "threads -1");
    CHECK(cc_search_choose(&v, 10, 0, CC_SEARCH_MAX_THREADS + 1, 1, &choice, &close)
              == CC_ERR_BAD_ARGUMENT, "too many threads");
    w = v;
    w.pile[1] = w.pile[0]; /* one card twice with one deck */
    CHECK(cc_search_choose(&w, 10, 0, 1, 1, &choice, &close) == CC_ERR_BAD_ARGUMENT, "a card twice");
    w = v;
    w.stock_n++;
    CHECK(cc_search_choose(&w, 10, 0, 1, 1, &choice, &close) == CC_ERR_BAD_ARGUMENT, "a card short");
    w = v;
    w.held = th_add(w.held, deck[30]); /* 8 cards at the draw */
    CHECK(cc_search_choose(&w, 10, 0, 1, 1, &choice, &close) == CC_ERR_BAD_ARGUMENT, "8 at the draw");
    w = v;
    w.seat = 4;
    CHECK(cc_search_choose(&w, 10, 0, 1, 1, &choice, &close) == CC_ERR_BAD_ARGUMENT, "no such seat");
    CHECK(cc_search_choose(&v, 0, 500, 1, 1, &choice, &close) == CC_OK, "a time budget");
}

int main(void)
{
    const char *env = getenv("CC_ENGINE_GAMES");
    int games = (env ? atoi(env) : 300) / 30;
    games = games < 2 ? 2 : games;
    check_games(games);
    check_interrupt();
    check_choices();
    printf("test_search: %d games per table\n", games);
    return th_report("test_search");
}
