/* The game engine: whole games between the built-in bots (random, greedy, expert), the
 * Python loop of src/chinchon/simulate/play.py over chinchon.game.state.GameState and
 * src/chinchon/bots/ written again in C, choice for choice and draw for draw
 * (docs/simulation.md#the-c-engine). Every comment "Python:" names the code mirrored.
 * This file is the table and the loop; the bots are engine_bots.c, what both share
 * engine.h.
 *
 * A game lives on the stack (a few hundred bytes); nothing is allocated. The bots'
 * floats (the random bot's coin, the expert's values) are computed in the order Python
 * computes them: this file must not contract a*b+c into a fused multiply-add (CMake
 * compiles it with -ffp-contract=off; the pragma says so to compilers that read it). */

#include <string.h>

#include "engine/engine.h"
#include "engine/engine_bots.h"
#include "settle/settle.h"

#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

/* ------------------------------------------------------------------ small helpers */

/* Record one event (kept while the record has room; counted always).
 * O(1). */
static void emit(game *g, int kind, int seat, int a, int64_t b)
{
    cc_game_record *rec = g->rec;
    if (rec->n_events < rec->cap_events)
        rec->events[rec->n_events] = (uint64_t)kind << 56 | (uint64_t)(seat & 0xff) << 48
                                     | (uint64_t)(a & 0xffff) << 32 | (uint32_t)b;
    rec->n_events++;
}

/* Python: GameState._next_in. */
static int next_in(const game *g, int seat)
{
    int k;
    for (k = 1; k <= g->n; k++) {
        const int s = (seat + k) % g->n;
        if (g->in[s])
            return s;
    }
    return seat; /* unreachable: someone is always in */
}

/* ------------------------------------------------------------------ the table */

/* Python: GameState._deal (a fresh shuffle of the full deck in ascending card order). */
static void deal(game *g)
{
    int k, s, pos = 0;
    memcpy(g->stock, g->deck, (size_t)g->deck_n);
    cc_rng_shuffle(&g->rng, g->stock, (size_t)g->deck_n);
    for (s = 0; s < g->n; s++) {
        g->hands[s].once = g->hands[s].twice = 0;
        g->taken[s].once = g->taken[s].twice = 0;
    }
    for (k = 0; k < g->n; k++) {
        int c;
        s = (g->lead + k) % g->n;
        if (!g->in[s])
            continue;
        for (c = 0; c < 7; c++)
            g->hands[s] = cc_hand_add(g->hands[s], g->stock[pos + c]);
        pos += 7;
    }
    g->pile[0] = g->stock[pos];
    g->pile_n = 1;
    g->pile_set.once = UINT64_C(1) << g->stock[pos];
    g->pile_set.twice = 0;
    g->stock_head = pos + 1;
    g->stock_n = g->deck_n;
    g->has_restocked = 0;
    g->restocked.once = g->restocked.twice = 0;
    g->hand_number++;
    g->turns = 0;
    g->turn = g->lead;
    g->summary = 0;
    emit(g, CC_EV_DEAL, g->lead, 0, g->hand_number);
}

/* Python: GameState.draw. Inlined into the engine's loop and into eng_draw (two
 * callers: the compiler would otherwise keep one out-of-line copy for both). */
CC_FORCE_INLINE int draw(game *g, int from_pile)
{
    const int seat = g->turn;
    int card;
    if (!from_pile) {
        if (g->stock_head == g->stock_n) {
            int k;
            if (g->pile_n == 0)
                return -1;
            cc_rng_shuffle(&g->rng, g->pile, (size_t)g->pile_n);
            memcpy(g->stock, g->pile, (size_t)g->pile_n);
            g->stock_head = 0;
            g->stock_n = g->pile_n;
            g->pile_n = 0;
            g->pile_set.once = g->pile_set.twice = 0;
            g->restocked.once = g->restocked.twice = 0;
            for (k = 0; k < g->stock_n; k++)
                g->restocked = cc_hand_add(g->restocked, g->stock[k]);
            g->has_restocked = 1;
            emit(g, CC_EV_RESHUFFLE, seat, 0, g->stock_n);
        }
        card = g->stock[g->stock_head++];
    } else {
        if (g->pile_n == 0)
            return -1;
        card = g->pile[--g->pile_n];
        g->pile_set = cc_hand_remove_once(g->pile_set, UINT64_C(1) << (card));
        g->taken[seat] = cc_hand_add(g->taken[seat], card);
    }
    g->hands[seat] = cc_hand_add(g->hands[seat], card);
    emit(g, CC_EV_DRAW, seat, from_pile, card);
    return 0;
}

/* The hand has ended: its turns, outcome and points go to the record. */
static void record_hand(game *g, int outcome, const int *order, const int32_t *points, int k)
{
    cc_game_record *rec = g->rec;
    int i;
    if (rec->n_ended < rec->cap_ended) {
        rec->turns[rec->n_ended] = g->turns;
        rec->outcomes[rec->n_ended] = (uint8_t)outcome;
    }
    rec->n_ended++;
    emit(g, CC_EV_HAND, outcome == CC_HAND_VOID ? NO_SEAT : order[0], outcome, g->hand_number);
    for (i = 0; i < k; i++) {
        if (rec->n_points < rec->cap_points) {
            rec->points[rec->n_points] = points[i];
            if (rec->point_seats != NULL)
                rec->point_seats[rec->n_points] = (uint8_t)order[i];
        }
        rec->n_points++;
        emit(g, CC_EV_POINTS, order[i], 0, points[i]);
    }
}

/* The game over: its status and winner (-1: none) in the record.
 * O(1). */
static void end_game(game *g, int status, int winner)
{
    g->over = 1;
    g->rec->status = (uint8_t)status;
    g->rec->winner = (int8_t)winner;
}

/* Python: GameState.discard (close = 0) and its close (close = 1, _finish_hand).
 * Inlined into the engine's loop and into eng_discard, as draw. */
CC_FORCE_INLINE cc_status discard(game *g, int card, int close)
{
    const int seat = g->turn;
    const uint64_t bit = UINT64_C(1) << card;
    cc_hand kept;
    if (!(g->hands[seat].once & bit))
        return CC_ERR_BAD_ARGUMENT;
    if (!close) {
        g->hands[seat] = cc_hand_remove_once(g->hands[seat], UINT64_C(1) << (card));
        if (g->taken[seat].once & bit)
            g->taken[seat] = cc_hand_remove_once(g->taken[seat], UINT64_C(1) << (card));
        g->pile[g->pile_n++] = (uint8_t)card;
        g->pile_set = cc_hand_add(g->pile_set, card);
        g->turns++;
        emit(g, CC_EV_DISCARD, seat, 0, card);
        if (g->cfg->void_at_stock >= 0 && g->stock_n - g->stock_head <= g->cfg->void_at_stock) {
            int order[CC_MAX_PLAYERS], k = 0, i;
            for (i = 0; i < g->n; i++) {
                const int s = (g->lead + i) % g->n;
                if (g->in[s])
                    order[k++] = s;
            }
            record_hand(g, CC_HAND_VOID, order, NULL, 0);
            g->summary = 1;
            return CC_OK;
        }
        g->turn = next_in(g, seat);
        return CC_OK;
    }
    if (!may_close(g))
        return CC_ERR_BAD_ARGUMENT; /* the bots never close when the rules refuse it */
    {
        int order[CC_MAX_PLAYERS], k, i, s, left, last = -1;
        const int in = count_in(g);
        cc_hand opponents[CC_MAX_OPPONENTS];
        cc_settlement st;
        int32_t points[CC_MAX_PLAYERS];
        cc_status status;
        kept = g->hands[seat];
        kept = cc_hand_remove_once(kept, UINT64_C(1) << (card));
        order[0] = seat;
        k = 1;
        s = next_in(g, seat);
        for (i = 0; i < g->n && k < in; i++) {
            const int t = (s + i) % g->n;
            if (g->in[t])
                order[k++] = t;
        }
        for (i = 1; i < k; i++)
            opponents[i - 1] = g->hands[order[i]];
        status = cc_settle_run(&g->r, kept, opponents, k - 1, g->decks, &st);
        if (status != CC_OK)
            return status;
        g->hands[seat] = kept;
        if (g->taken[seat].once & bit)
            g->taken[seat] = cc_hand_remove_once(g->taken[seat], UINT64_C(1) << (card));
        g->turns++;
        emit(g, CC_EV_DISCARD, seat, 1, card);
        if (st.outcome == CC_CHINCHON) {
            for (i = 0; i < k; i++)
                points[i] = 0;
            record_hand(g, CC_CHINCHON, order, points, k);
            end_game(g, CC_GAME_WON, seat);
            return CC_OK;
        }
        for (i = 0; i < k; i++) {
            points[i] = st.points[i];
            g->totals[order[i]] += st.points[i];
        }
        for (i = 0; i < k; i++)
            if (g->totals[order[i]] > g->cfg->eliminate_above)
                g->in[order[i]] = 0;
        record_hand(g, st.outcome, order, points, k);
        left = 0;
        for (s = 0; s < g->n; s++)
            if (g->in[s]) {
                left++;
                last = s;
            }
        if (left == 1) {
            end_game(g, CC_GAME_WON, last);
        } else if (left == 0) { /* Python: GameState._all_out */
            if (g->cfg->all_out_lowest) {
                int64_t low = g->totals[order[0]];
                int ties = 0, who = -1;
                for (i = 1; i < k; i++)
                    if (g->totals[order[i]] < low)
                        low = g->totals[order[i]];
                for (i = 0; i < k; i++)
                    if (g->totals[order[i]] == low) {
                        ties++;
                        if (who < 0)
                            who = order[i];
                    }
                if (ties == 1)
                    end_game(g, CC_GAME_WON, who);
                else
                    end_game(g, CC_GAME_DRAW, -1);
            } else {
                end_game(g, CC_GAME_DRAW, -1);
            }
        } else {
            g->summary = 1;
        }
        return CC_OK;
    }
}

/* ------------------------------------------------------------------ the loop */

static uint64_t stream_seed(const cc_game_config *cfg, uint64_t index, uint64_t stream)
{
    /* Python: simulate.play.game_seed (derive(seed, index, stream) >> 1), then
     * Rng(that seed) seeds from derive(that seed) */
    const uint64_t words[2] = {index, stream};
    uint64_t mag[CC_RNG_SEED_WORDS] = {0, 0, 0, 0};
    mag[0] = cc_rng_derive(cfg->seed_negative, cfg->seed_magnitude, words, 2) >> 1;
    return cc_rng_derive(0, mag, NULL, 0);
}

/* One turn of the seat to act: its bot's draw, then its discard. Inlined into the
 * engine's loop and into eng_bot_turn, as draw. */
CC_FORCE_INLINE cc_status play_turn(game *g)
{
    const int seat = g->turn;
    int from_pile = 0, card = 0, close = 0;
    cc_status st = bot_draw(g, seat, &from_pile);
    if (st != CC_OK)
        return st;
    if (draw(g, from_pile) != 0)
        return CC_ERR_BAD_ARGUMENT;
    st = bot_discard(g, seat, &card, &close);
    if (st != CC_OK)
        return st;
    return discard(g, card, close);
}

/* Python: hand_end.rejoin: `seat` spends a chip and comes back with the highest total
 * among the players still in. O(players). */
void eng_rejoin(game *g, int seat)
{
    int64_t total = 0;
    int t, first = 1;
    for (t = 0; t < g->n; t++)
        if (g->in[t] && (first || g->totals[t] > total)) {
            total = g->totals[t];
            first = 0;
        }
    g->chips[seat]--;
    g->in[seat] = 1;
    g->totals[seat] = total;
    g->rec->rejoins[seat]++;
    emit(g, CC_EV_REJOIN, seat, 0, total);
}

/* Python: the bot's choose_rejoin for an eliminated `seat` with chips (the random bot
 * flips a coin, the others always rejoin). */
int eng_bot_rejoins(game *g, int seat)
{
    return g->cfg->bots[seat] != CC_BOT_RANDOM || cc_rng_double(&g->bot_rng[seat]) < 0.5;
}

/* Python: GameState.next_hand (the next lead still in, a fresh deal). */
void eng_next_hand(game *g)
{
    g->lead = next_in(g, g->lead);
    deal(g);
}

/* Python: bots.bots_rejoin then GameState.next_hand, in the summary of a hand. */
static void between_hands(game *g)
{
    int s;
    for (s = 0; s < g->n; s++)
        if (!g->in[s] && g->chips[s] > 0 && eng_bot_rejoins(g, s))
            eng_rejoin(g, s);
    eng_next_hand(g);
}

/* The moves of the table, for a caller that drives a game itself (src/rl/vecenv.c). */
int eng_draw(game *g, int from_pile)
{
    return draw(g, from_pile);
}

cc_status eng_discard(game *g, int card, int close)
{
    return discard(g, card, close);
}

cc_status eng_bot_turn(game *g)
{
    return play_turn(g);
}

/* engine.h: the game of configuration cfg with nothing dealt: the seats, the decks,
 * the deck in Python's order (deck.deck_for: ascending, copies together), the greedy's
 * card order and point masks. O(deck). */
void eng_game_base(game *g, const cc_game_config *cfg, cc_game_record *rec)
{
    int c, k;
    memset(g, 0, sizeof *g);
    g->cfg = cfg;
    g->rec = rec;
    g->n = cfg->players;
    g->decks = g->n >= 5 ? 2 : 1;
    g->r = cfg->rules;
    g->r.decks = (uint8_t)g->decks;
    for (c = 0, k = 0; c < 64; c++)
        if (g->r.card_mask >> c & 1) {
            g->deck[k++] = (uint8_t)c;
            if (g->decks == 2)
                g->deck[k++] = (uint8_t)c;
        }
    g->deck_n = k;
    for (c = 0; c < 64; c++) { /* every card bit (the rest, never held, stay 0) */
        const int joker = (int)(g->r.joker_mask >> c & 1);
        if (c % 16 < CC_NRANKS || joker)
            g->card_key[c] = (uint8_t)(joker << 6 | (joker ? 31 : 31 - bit_points(&g->r, c)));
    }
    for (c = 0; c < CC_NRANKS; c++) /* by rank: the greedy's search runs on plain rules */
        for (k = 0; k <= g->r.points[c]; k++)
            g->points_at_least[k] |= (UINT64_C(1) << c) * CC_LANES & g->r.card_mask;
}

/* Python: the start of simulate.play.play_game (the table, the bots' generators, the
 * first lead and deal) for game `index` of the checked configuration cfg. O(deck). */
void eng_new_game(game *g, const cc_game_config *cfg, uint64_t index, cc_game_record *rec)
{
    int s;
    eng_game_base(g, cfg, rec);
    rec->status = CC_GAME_STALLED;
    rec->winner = -1;
    rec->hands = 0;
    rec->n_ended = rec->n_points = rec->n_events = 0;
    for (s = 0; s < g->n; s++) {
        g->in[s] = 1;
        g->chips[s] = cfg->rejoin_chips;
        rec->totals[s] = 0;
        rec->rejoins[s] = 0;
        cc_rng_seed(&g->bot_rng[s], stream_seed(cfg, index, 1 + (uint64_t)s));
    }
    for (s = 0; s < CC_MAX_PLAYERS; s++)
        g->search_seen[s] = -1;
    cc_rng_seed(&g->rng, stream_seed(cfg, index, 0));
    g->lead = (int)cc_rng_below(&g->rng, (uint32_t)g->n);
    deal(g);
}

/* Python: simulate.play.play_game, for a checked configuration (cc_play_game checks it:
 * api.c). O(turns) bot decisions; the game lives on the stack. */
cc_status eng_play_game(const cc_game_config *cfg, uint64_t index, cc_game_record *rec,
                        eng_bot_fn search)
{
    game g;
    int s;
    cc_status st;
    eng_new_game(&g, cfg, index, rec);
    g.search = search;
    /* Python: simulate.play._drive */
    while (!g.over) {
        if (g.summary) {
            if (g.hand_number >= ENG_MAX_HANDS)
                break; /* stalled: a game this long */
            between_hands(&g);
            continue;
        }
        if (g.turns >= cfg->max_turns)
            break; /* stalled */
        st = play_turn(&g);
        if (st != CC_OK)
            return st;
    }
    rec->hands = g.hand_number;
    for (s = 0; s < g.n; s++)
        rec->totals[s] = g.totals[s];
    emit(&g, CC_EV_END, rec->winner < 0 ? NO_SEAT : rec->winner, rec->status, g.hand_number);
    return CC_OK;
}
