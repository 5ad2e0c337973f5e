/*
 * api.c -- the public entries of chinchon.h that check their arguments and choose a
 * kernel: the house solver (melds/) under plain rules, the variants' (jokers/) under any
 * other rules, the settlement (settle/), the outlook (outlook/) and the game engine
 * (engine/). Nothing below calls
 * up into this file: a kernel that needs another calls its internal function.
 *
 * The public functions that are kernels themselves live with their subject, below:
 * the hand checks, key order and status names (base/hand.c), the rules (base/rules.c),
 * the generator (base/rng.c) and the candidate melds (melds/melds.c).
 *
 * A batch is checked once here (the rules, the deck count, the arrays); its rows are
 * checked one by one inside the kernel's own loop, which stays in the kernel's file so
 * that its per-row work inlines there.
 */
#include "chinchon.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/bits.h"
#include "base/hand.h"
#include "engine/engine.h"
#include "jokers/joker_batch.h"
#include "jokers/joker_tables.h"
#include "jokers/variants.h"
#include "melds/hints.h"
#include "melds/melds.h"
#include "outlook/outlook.h"
#include "rl/vecenv.h"
#include "rl/vecpool.h"
#include "search/search.h"
#include "settle/settle.h"
#include "simd/simd.h"

/* ------------------------------------------------------------------ checks */

/* The checks every single-hand entry shares under plain rules: rules and result
 * present, a valid hand of at most CC_MAX_HAND cards, exactly `exact` when exact >= 0.
 * O(1). */
CC_INLINE cc_status api_hand(const cc_rules *rules, const void *out, cc_hand h, int exact)
{
    int n;
    if (rules == NULL || out == NULL)
        return CC_ERR_BAD_ARGUMENT;
    return cc_hand_status(h, CC_MAX_HAND, exact, &n);
}

/* The same checks under rules that are not plain (rules known present): a hand of the
 * rules' cards and deck (cc_var_status). O(1). */
CC_INLINE cc_status api_var_hand(const cc_rules *rules, const void *out, cc_hand h,
                                  int exact)
{
    int n;
    if (out == NULL)
        return CC_ERR_BAD_ARGUMENT;
    return cc_var_status(rules, h, CC_MAX_HAND, exact, &n);
}

/* The checks of a single-hand entry under its rules: api_hand under plain rules (or
 * none: its argument error), api_var_hand under any other. O(1). */
CC_INLINE cc_status api_rules_hand(const cc_rules *rules, const void *out, cc_hand h,
                                   int exact)
{
    return rules != NULL && !rules->plain ? api_var_hand(rules, out, h, exact)
                                          : api_hand(rules, out, h, exact);
}

/* The checks both meld batches share (their rows are checked one by one).
 * O(1). */
CC_INLINE cc_status api_batch(const cc_rules *rules, const uint64_t *masks, size_t n,
                              int decks, const void *out)
{
    if (rules == NULL || (decks != 1 && decks != 2))
        return CC_ERR_BAD_ARGUMENT;
    if (n > 0 && (masks == NULL || out == NULL))
        return CC_ERR_BAD_ARGUMENT;
    return CC_OK;
}

/* Whether a game configuration is in range (the ranges of chinchon.h, as
 * docs/rules.md#rule-fields states them for Rules). O(players). */
static cc_status api_config(const cc_game_config *cfg)
{
    int s;
    if (cfg == NULL || cfg->players < 2 || cfg->players > CC_MAX_PLAYERS
        || cfg->max_turns < 1 || cfg->void_at_stock < -1 || cfg->void_at_stock > 255 || cfg->stale_turns < 1
        || cfg->rejoin_chips < 0 || cfg->rejoin_chips > CC_MAX_RULE_NUMBER
        || cfg->eliminate_above < 0 || cfg->eliminate_above > CC_MAX_RULE_NUMBER
        || (cfg->first_round_close != 0 && cfg->first_round_close != 1)
        || (cfg->all_out_lowest != 0 && cfg->all_out_lowest != 1)
        || cfg->rules.minus_ten < 0 || cfg->rules.joker_chinchon < -1)
        return CC_ERR_BAD_ARGUMENT;
    for (s = 0; s < cfg->players; s++)
        if (cfg->bots[s] >= CC_BOT_END
            || (cfg->bots[s] == CC_BOT_SEARCH && cfg->search_playouts[s] == 0
                && cfg->search_micros[s] == 0))
            return CC_ERR_BAD_ARGUMENT;
    return CC_OK;
}

/* ------------------------------------------------------------------ melds */

/* Optimal deadwood of a hand of 0..8 cards (validated).
 * A few ns on the fast path; a few masks per set rank where sets and runs compete. */
cc_status cc_deadwood(const cc_rules *rules, cc_hand h, int *points)
{
    cc_status st = api_rules_hand(rules, points, h, -1);
    if (st != CC_OK)
        return st;
    if (rules->plain) /* two inlined copies: the single-deck one drops every twice term */
        *points = h.twice == 0 ? cc_melds_deadwood_core(rules, h.once, 0)
                               : cc_melds_deadwood_core(rules, h.once, h.twice);
    else
        *points = cc_var_deadwood(rules, h);
    return CC_OK;
}

/* Optimal arrangement with the documented tie-break, hand of 0..8 cards (validated).
 * O(1) on the fast path; exhaustive over candidate pairs otherwise. */
cc_status cc_best_melds(const cc_rules *rules, cc_hand h, cc_arrangement *out)
{
    cc_status st = api_rules_hand(rules, out, h, -1);
    if (st != CC_OK)
        return st;
    if (!rules->plain)
        cc_var_arrange(rules, h, rules->decks, out);
    else
        cc_melds_best(rules, h, out);
    return CC_OK;
}

/* cc_best_melds without the fast path (for differential tests).
 * O(k^2), k <= 66 candidates. */
cc_status cc_best_melds_exhaustive(const cc_rules *rules, cc_hand h, cc_arrangement *out)
{
    cc_status st = api_hand(rules, out, h, -1);
    if (st == CC_OK)
        cc_melds_exhaustive(rules, h, out);
    return st;
}

/* Outcome of closing with exactly 7 cards (more than 8: TOO_MANY_CARDS, else
 * CARD_COUNT when not 7). One deadwood. */
cc_status cc_close_outcome(const cc_rules *rules, cc_hand h, cc_outcome *outcome)
{
    cc_status st = api_rules_hand(rules, outcome, h, CC_HAND_CARDS);
    if (st != CC_OK)
        return st;
    *outcome = !rules->plain ? cc_var_close_outcome(rules, h)
                             : cc_outcome_of(rules, h.once, h.twice,
                                             cc_melds_deadwood_core(rules, h.once, h.twice));
    return CC_OK;
}

/* Discard hints of exactly 8 cards, ascending card order, a copy held twice listed
 * twice. One 8-card deadwood plus one 7-card deadwood per card in a candidate meld. */
cc_status cc_discard_hints(const cc_rules *rules, cc_hand h, uint16_t points[8],
                           uint8_t *outcomes)
{
    uint8_t p8[8];
    int k;
    cc_status st = api_rules_hand(rules, points, h, CC_MAX_HAND);
    if (st != CC_OK)
        return st;
    if (!rules->plain) {
        cc_var_hints(rules, h, points, outcomes);
        return CC_OK;
    }
    cc_hints_of(rules, h, p8, outcomes); /* (plain rules: every hint fits a byte) */
    for (k = 0; k < 8; k++)
        points[k] = p8[k];
    return CC_OK;
}

/* A meld batch (hints: the hint rows, else the deadwood rows): the checks once, then the
 * kernel of the rules, which checks the rows one by one. O(n) rows. */
CC_INLINE cc_status api_rows(const cc_rules *rules, int hints, const uint64_t *masks,
                             size_t n, int decks, uint8_t *out, size_t *bad_row)
{
    cc_status st = api_batch(rules, masks, n, decks, out);
    if (st != CC_OK)
        return st;
    if (rules->max_deadwood > UINT8_MAX)
        return CC_ERR_BAD_ARGUMENT; /* a score could pass a byte: the _wide batches */
    /* points alone: no joker and the 48 cards make them the house solver's, whether or
     * not a seven-card run wins (the classic rules) -- the SIMD rows */
    if (!rules->plain && (rules->deck != 48 || rules->wild_ace || rules->jokers != 0))
        return cc_jbatch(rules, hints, masks, n, decks, out, bad_row);
    return hints ? cc_simd_hints_rows(rules, masks, n, decks, out, bad_row)
                 : cc_simd_deadwood_rows(rules, masks, n, decks, out, bad_row);
}

/* Deadwood of n rows (0..8 cards each), validated row by row; stops at the first bad
 * row. O(n) deadwoods: a few ns a row on the fast path. */
cc_status cc_deadwood_batch(const cc_rules *rules, const uint64_t *masks, size_t n,
                            int decks, uint8_t *out, size_t *bad_row)
{
    return api_rows(rules, 0, masks, n, decks, out, bad_row);
}

/* Hints of n rows of exactly 8 cards into 8n bytes (row-major, ascending card order);
 * stops at the first bad row (see cc_batch_row). O(n) hint rows. */
cc_status cc_hints_batch(const cc_rules *rules, const uint64_t *masks, size_t n, int decks,
                         uint8_t *out, size_t *bad_row)
{
    return api_rows(rules, 1, masks, n, decks, out, bad_row);
}

/* A meld batch into 16-bit results: rules whose scores fit a byte take the byte
 * kernels (api_rows) a chunk of rows at a time, widened after (a chunk holds as many
 * rows as a large batch needs to build its joker tables), the others the rows one by
 * one (cc_jbatch_wide). O(n) rows. */
static cc_status api_rows_wide(const cc_rules *rules, int hints, const uint64_t *masks,
                               size_t n, int decks, uint16_t *out, size_t *bad_row)
{
    uint8_t buf[8 * CC_JTAB_ROWS_HINTS]; /* = CC_JTAB_ROWS_DEADWOOD deadwood rows */
    const size_t width = hints ? 8 : 1, chunk = sizeof buf / width;
    size_t i, k, m;
    cc_status st = api_batch(rules, masks, n, decks, out);
    if (st != CC_OK)
        return st;
    if (rules->max_deadwood > UINT8_MAX)
        return cc_jbatch_wide(rules, hints, masks, n, decks, out, bad_row);
    for (i = 0; i < n; i += m) {
        size_t bad = 0;
        m = n - i < chunk ? n - i : chunk;
        st = api_rows(rules, hints, masks + i * (size_t)decks, m, decks, buf, &bad);
        if (st != CC_OK) {
            if (bad_row != NULL)
                *bad_row = i + bad;
            return st;
        }
        for (k = 0; k < m * width; k++)
            out[i * width + k] = buf[k];
    }
    return CC_OK;
}

/* cc_deadwood_batch into uint16_t results, on any rules. O(n) deadwoods. */
cc_status cc_deadwood_batch_wide(const cc_rules *rules, const uint64_t *masks, size_t n,
                                 int decks, uint16_t *out, size_t *bad_row)
{
    return api_rows_wide(rules, 0, masks, n, decks, out, bad_row);
}

/* cc_hints_batch into uint16_t results, on any rules. O(n) hint rows. */
cc_status cc_hints_batch_wide(const cc_rules *rules, const uint64_t *masks, size_t n,
                              int decks, uint16_t *out, size_t *bad_row)
{
    return api_rows_wide(rules, 1, masks, n, decks, out, bad_row);
}

/* ------------------------------------------------------------------ outlook */

/* The prospect of 7 cards drawing one unseen card (the hand and the unseen cards are
 * checked by the kernel). One prospect. */
cc_status cc_prospect_of(const cc_rules *rules, cc_hand h7, cc_hand unseen,
                         cc_prospect *out)
{
    if (rules == NULL || out == NULL)
        return CC_ERR_BAD_ARGUMENT;
    return cc_ahead_prospect(rules, h7, unseen, out);
}

/* The hints of 8 cards and the prospect after each discard (checked by the kernel).
 * The hints and eight prospects. */
cc_status cc_outlook(const cc_rules *rules, cc_hand h8, cc_hand unseen, uint16_t points[8],
                     uint8_t *outcomes, cc_prospect out[8])
{
    if (rules == NULL || points == NULL || out == NULL)
        return CC_ERR_BAD_ARGUMENT;
    return cc_ahead_hand(rules, h8, unseen, points, outcomes, out);
}

/* The outlook of n rows, each checked; stops at the first bad row.
 * O(n) outlooks. */
cc_status cc_outlook_batch(const cc_rules *rules, const uint64_t *masks,
                           const uint64_t *unseen, size_t n, int decks, double *out,
                           size_t *bad_row)
{
    if (rules == NULL || (decks != 1 && decks != 2))
        return CC_ERR_BAD_ARGUMENT;
    if (n > 0 && (masks == NULL || unseen == NULL || out == NULL))
        return CC_ERR_BAD_ARGUMENT;
    return cc_ahead_rows(rules, masks, unseen, n, decks, out, bad_row);
}

/* ------------------------------------------------------------------ games */

/* Game `index` of a configuration between the built-in bots, into *record.
 * O(turns) bot decisions; nothing allocated. */
cc_status cc_play_game(const cc_game_config *config, uint64_t index, cc_game_record *record)
{
    cc_status st = api_config(config);
    if (st != CC_OK || record == NULL)
        return st != CC_OK ? st : CC_ERR_BAD_ARGUMENT;
    return eng_play_game(config, index, record, srch_engine_bot);
}

/* ------------------------------------------------------------------ search */

/* The search bot's decision: check the view's configuration and outputs, then the
 * search (search/search.c checks the cards). O(budget) playouts. */
cc_status cc_search_choose(const cc_search_view *view, uint32_t playouts, uint32_t micros,
                           int threads, uint64_t seed, int *choice, int *close)
{
    if (view == NULL || choice == NULL || close == NULL || (playouts == 0 && micros == 0)
        || threads < 0 || threads > CC_SEARCH_MAX_THREADS)
        return CC_ERR_BAD_ARGUMENT;
    {
        const cc_status st = api_config(view->config);
        if (st != CC_OK)
            return st;
    }
    return srch_choose(view, playouts, micros, threads, seed, choice, close);
}

/* ------------------------------------------------------------------ learning tables */

/* Tables for a learner (rl/vecenv.c). */
cc_vec_table *cc_vec_alloc(size_t n)
{
    return vec_alloc(n);
}

void cc_vec_free(cc_vec_table *tables)
{
    vec_free(tables);
}

/* The learning config: the game's (its turn cap is not read) and the learner's. */
static cc_status api_vec_config(const cc_vec_config *cfg)
{
    cc_game_config game;
    if (cfg == NULL)
        return CC_ERR_BAD_ARGUMENT;
    game = cfg->game;
    game.max_turns = 1;
    if (api_config(&game) != CC_OK || cfg->learner < 0 || cfg->learner >= game.players)
        return CC_ERR_BAD_ARGUMENT;
    return CC_OK;
}

/* Start table i's game (rl/vecenv.c). O(turns) bot decisions before the learner's. */
cc_status cc_vec_reset(const cc_vec_config *cfg, cc_vec_table *tables, size_t i,
                       int negative, const uint64_t *magnitude, float *obs, int8_t *mask)
{
    cc_status st = api_vec_config(cfg);
    if (st != CC_OK || tables == NULL || obs == NULL || mask == NULL)
        return st != CC_OK ? st : CC_ERR_BAD_ARGUMENT;
    return vec_reset(cfg, tables, i, negative, magnitude, obs, mask);
}

/* The first table whose action is refused. O(n). */
size_t cc_vec_refused(const cc_vec_table *tables, size_t n, const int64_t *actions)
{
    if (tables == NULL || actions == NULL)
        return 0;
    return vec_refused(tables, n, actions);
}

/* A random allowed action per table. O(n). */
void cc_vec_sample(const cc_vec_table *tables, size_t n, cc_rng *rng, int64_t *actions)
{
    if (tables != NULL && rng != NULL && actions != NULL)
        vec_sample(tables, n, rng, actions);
}

/* Step tables first..first+count-1, each written to its rows. O(moves) per table. */
cc_status cc_vec_step(const cc_vec_config *cfg, cc_vec_table *tables, size_t first,
                      size_t count, const int64_t *actions, float *obs, int8_t *masks,
                      double *rewards, uint8_t *terminated, uint8_t *truncated,
                      uint8_t *refused)
{
    cc_status st = api_vec_config(cfg);
    if (st != CC_OK || tables == NULL || actions == NULL || obs == NULL || masks == NULL
        || rewards == NULL || terminated == NULL || truncated == NULL || refused == NULL)
        return st != CC_OK ? st : CC_ERR_BAD_ARGUMENT;
    return vec_step(cfg, tables, first, count, actions, obs, masks, rewards, terminated,
                    truncated, refused);
}

/* The pool of threads of cc_vec_step_all (rl/vecpool.c). */
cc_vec_pool *cc_vec_pool_new(int threads)
{
    return pool_new(threads);
}

void cc_vec_pool_free(cc_vec_pool *pool)
{
    pool_free(pool);
}

/* Step all n tables over the pool's threads. O(moves) per table. */
cc_status cc_vec_step_all(cc_vec_pool *pool, const cc_vec_config *cfg, cc_vec_table *tables,
                          size_t n, const int64_t *actions, float *obs, int8_t *masks,
                          double *rewards, uint8_t *terminated, uint8_t *truncated,
                          uint8_t *refused)
{
    cc_status st = api_vec_config(cfg);
    if (st != CC_OK || pool == NULL || tables == NULL || actions == NULL || obs == NULL
        || masks == NULL || rewards == NULL || terminated == NULL || truncated == NULL
        || refused == NULL)
        return st != CC_OK ? st : CC_ERR_BAD_ARGUMENT;
    return pool_step(pool, cfg, tables, n, actions, obs, masks, rewards, terminated,
                     truncated, refused);
}

/* ------------------------------------------------------------------ settle */

/* Settle a closed hand: check the arguments, then the deal and the settlement
 * (settle/settle.c). A few microseconds (see chinchon.h). */
cc_status cc_settle(const cc_rules *rules, cc_hand closer, const cc_hand *opponents,
                    int n_opponents, int decks, cc_settlement *out)
{
    if (out == NULL)
        return CC_ERR_BAD_ARGUMENT;
    if (rules == NULL || opponents == NULL || n_opponents < 1 ||
        n_opponents > CC_MAX_OPPONENTS || decks < 0 || decks > 2) {
        memset(out, 0, sizeof *out);
        out->bad_seat = -1;
        out->bad_card = -1;
        return CC_ERR_BAD_ARGUMENT;
    }
    return cc_settle_run(rules, closer, opponents, n_opponents, decks, out);
}
