/* engine_bots.c -- the game engine's bots (random, greedy, expert): src/chinchon/bots/rule_based.py
 * written again in C, choice for choice and draw for draw (docs/simulation.md#the-c-engine);
 * every comment "Python:" names the code mirrored. The table they play at is
 * engine.c. The expert's floats are computed in Python's order: this file must not
 * contract a*b+c into a fused multiply-add (CMake compiles it with -ffp-contract=off). */

#include <limits.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/engine_bots.h"
#include "melds/melds.h"
#include "outlook/outlook.h"

#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

/* ------------------------------------------------------------------ the table seen */

/* Subtract one copy of each card of mask m from the 2-bit counts (c1, c0). O(1). */
CC_INLINE void count_sub(uint64_t *c1, uint64_t *c0, uint64_t m)
{
    const uint64_t borrow = m & ~*c0;
    *c0 ^= m;
    *c1 ^= borrow;
}

/* Python: GameState.unseen (the cards `seat` cannot know the place of).
 * O(players). */
static cc_hand unseen_of(const game *g, int seat)
{
    const uint64_t cm = g->r.card_mask;
    uint64_t c1, c0;
    int s;
    cc_hand u;
    if (g->decks == 1) {
        c1 = 0;
        c0 = cm;
    } else {
        c1 = cm;
        c0 = 0;
    }
    count_sub(&c1, &c0, g->hands[seat].once);
    count_sub(&c1, &c0, g->hands[seat].twice);
    count_sub(&c1, &c0, g->pile_set.once);
    count_sub(&c1, &c0, g->pile_set.twice);
    for (s = 0; s < g->n; s++) {
        if (s == seat)
            continue;
        count_sub(&c1, &c0, g->taken[s].once);
        count_sub(&c1, &c0, g->taken[s].twice);
    }
    u.once = c1 | c0;
    u.twice = c1;
    if (g->has_restocked) {
        u.once &= g->restocked.once;
        u.twice &= g->restocked.twice;
    }
    return u;
}

/* ------------------------------------------------------------------ the bots */

/* Python: bots._TurnCount.stale (one more discard of `seat` this hand; past
 * STALE_TURNS of them the hand is stale). */
static int stale(game *g, int seat)
{
    if (g->stale_hand[seat] != g->hand_number) {
        g->stale_hand[seat] = g->hand_number;
        g->stale_count[seat] = 0;
    }
    g->stale_count[seat]++;
    return g->stale_count[seat] > (uint32_t)g->cfg->stale_turns;
}

/* Python: bots._best_hint (the greedy discard: fewest points, a natural card before a
 * joker, the card worth most, the first; with 0 points the better close). The order is
 * one integer per hint: points << 10 | g->card_key[card] << 3 | its place. */
static int best_hint(const game *g, const hints *h)
{
    static const uint8_t zero_closes[3] = {CC_CHINCHON, CC_JOKER_CHINCHON, CC_MINUS_TEN};
    int best, k, o;
    int low = h->points[0] << 10 | g->card_key[h->card[0]] << 3;
    for (k = 1; k < 8; k++) { /* the smallest key, the first of equals: no branch to miss */
        const int key = h->points[k] << 10 | g->card_key[h->card[k]] << 3 | k;
        low = key < low ? key : low;
    }
    best = low & 7;
    if (h->points[best] == 0 && h->outcome[best] != CC_CHINCHON)
        for (o = 0; o < 3; o++)
            for (k = 0; k < 8; k++)
                if (h->outcome[k] == zero_closes[o])
                    return k;
    return best;
}

/* The greedy order of the discards under plain rules (no jokers: the zero-point closes
 * aside, best_hint's order), one integer per distinct card: the points left << 11 |
 * (31 - the card's points) << 6 | card (g->card_key without jokers; a copy held twice
 * is the first of its two equal hints). The least key of the discards of the valid
 * 8-card hand (a, b) that is below `bound`, else `bound`; with `first`, the first key
 * found below `bound`. The hints' search (hints.c, cc_hints_core) with a bound: a card
 * that some best 8-card collection leaves unmatched leaves exactly dw8 - its points;
 * any other card at least that (a card adds at most its points to a deadwood), so its
 * own 7-card deadwood is searched only when that bound could still beat the best key
 * so far: at most dw8 - best points below the most points (`at_least`, the cards of
 * each number of points or more). One 8-card deadwood plus, rarely, 7-card ones. */
CC_FORCE_INLINE int greedy_scan(const cc_rules *r, const uint64_t *at_least, uint64_t a,
                                uint64_t b, int bound, int first)
{
    const uint64_t runs = cc_run_cards(a), sets = cc_set_columns(a, b);
    uint64_t x, avoid = 0;
    int dw8, best = bound, need;
    if (cc_sets_runs_compete(a, b, runs, sets)) {
        dw8 = cc_melds_unmatched(r, a, b, runs, sets, &avoid);
    } else {
        const uint64_t keep = ~(runs | sets);
        dw8 = cc_wpop(r, a & keep) + cc_wpop(r, b & keep);
    }
    x = a & ~((runs | sets) & ~avoid);
    if (x != 0) { /* exact: dw8 less the card's points; the least key is the lowest card
                   * of the most points: the planes, highest first */
        int k, i, p, key;
        for (k = 4; k >= 0; k--) {
            const uint64_t t = x & r->plane[k];
            x = t != 0 ? t : x;
        }
        i = cc_ctz(x);
        p = r->points[i & 15];
        key = (dw8 - p) << 11 | (31 - p) << 6 | i;
        best = key < best ? key : best;
        if (first && best < bound)
            return best;
    }
    /* the other cards that might still beat best: points >= dw8 - best's points */
    need = dw8 - (best >> 11);
    need = need < 0 ? 0 : need > 32 ? 32 : need;
    for (x = a & (runs | sets) & ~avoid & at_least[need]; x != 0; x &= x - 1) {
        const int i = cc_ctz(x), p = r->points[i & 15];
        const int tail = (31 - p) << 6 | i;
        const uint64_t bit = x & (~x + 1);
        const uint64_t col = (UINT64_C(1) << (i & 15)) * CC_LANES;
        int low = dw8 - p, d;
        uint64_t sets7;
        low = low < 0 ? 0 : low;
        if ((low << 11 | tail) >= best)
            continue; /* cannot beat the best so far */
        /* the 7 cards' sets: the same, less this rank when it falls to 2 copies */
        sets7 = cc_popcount(a & col) + cc_popcount(b & col) > 3 ? sets : sets & ~col;
        if (b & bit)
            d = cc_melds_deadwood_masks(r, a, b ^ bit, runs, sets7);
        else
            d = cc_melds_deadwood_masks(r, a ^ bit, b, cc_run_cards(a ^ bit), sets7);
        if ((d << 11 | tail) < best) {
            best = d << 11 | tail;
            if (first)
                return best;
        }
    }
    return best;
}

/* greedy_scan out of line for a hand holding a card twice (two decks, some turns). */
static int greedy_scan_two(const cc_rules *r, const uint64_t *at_least, uint64_t a,
                           uint64_t b, int bound, int first)
{
    return greedy_scan(r, at_least, a, b, bound, first);
}

/* greedy_scan of h by the copy that fits it: the single-deck one inline in its two
 * callers (every twice term folded away; the call's cost measured ~8% of a game). */
CC_FORCE_INLINE int greedy_key(const game *g, cc_hand h, int bound, int first)
{
    if (h.twice == 0)
        return greedy_scan(&g->r, g->points_at_least, h.once, 0, bound, first);
    return greedy_scan_two(&g->r, g->points_at_least, h.once, h.twice, bound, first);
}

/* Python: GreedyBot._current (the deadwood of the seat's 7 cards, cached per hand). */
static int greedy_current(game *g, int seat, int cached)
{
    int d = 0;
    if (cached && g->dw_hand[seat] == g->hand_number)
        return g->dw[seat];
    d = eng_deadwood(&g->r, g->hands[seat]);
    if (cached) {
        g->dw_hand[seat] = g->hand_number;
        g->dw[seat] = d;
    }
    return d;
}

/* engine_bots.h: each card's links for the search's model of the expert. */
void bot_links(const cc_rules *r, uint64_t *links)
{
    int c, j, n, s;
    for (c = 0; c < 64; c++) {
        const int base = c & ~15, i = c & 15;
        uint64_t m = 0;
        for (j = i - 1, n = 0; j >= 0 && n < 2; j--)
            if (r->card_mask >> (base + j) & 1) {
                m |= UINT64_C(1) << (base + j);
                n++;
            }
        for (j = i + 1, n = 0; j < CC_NRANKS && n < 2; j++)
            if (r->card_mask >> (base + j) & 1) {
                m |= UINT64_C(1) << (base + j);
                n++;
            }
        for (s = 0; s < 4; s++)
            if (s * 16 + i != c)
                m |= UINT64_C(1) << (s * 16 + i);
        links[c] = r->card_mask >> c & 1 ? m & r->card_mask & ~r->joker_mask : 0;
    }
}

/* model_discard's key of hint k (all: the 8 cards held): twice the points left plus 3
 * for each other card held that k's card links to, a joker's 400 more (last), then
 * the card's order among equal points (card_key, best_hint's). O(1). */
static int model_key(const game *g, const hints *h, int k, uint64_t all)
{
    const int c = h->card[k];
    int key = 2 * h->points[k];
    if (g->r.joker_mask >> c & 1)
        key += 400;
    else
        key += 3 * cc_popcount(all & g->links[c] & ~(UINT64_C(1) << c));
    return key << 7 | g->card_key[c];
}

/* The search's model of the expert's discard (g->links set): of the 8 hints h, the
 * card of the fewest points left plus 1.5 for each other card held it links to, a
 * joker last, then the card worth most (best_hint's order), then the first. Over the
 * expert's own discards (heads-up under conga) it picks the expert's card 90.7% of the
 * time, the greedy's rule 85.9%. `greedy`: best_hint's card, the fewest points left:
 * when it links to nothing no card comes before it, and a card can only when its
 * points alone do not pass that card's key. O(8). */
static int model_discard(const game *g, const hints *h, int greedy)
{
    uint64_t all = 0;
    int k, best = greedy, best_key;
    for (k = 0; k < 8; k++)
        all |= UINT64_C(1) << h->card[k];
    best_key = model_key(g, h, greedy, all);
    if (best_key >> 7 == 2 * h->points[greedy])
        return greedy;
    for (k = 0; k < 8; k++) {
        int key;
        if (k == greedy || 2 * h->points[k] > best_key >> 7)
            continue;
        key = model_key(g, h, k, all);
        if (key < best_key || (key == best_key && k < best)) {
            best = k;
            best_key = key;
        }
    }
    return best;
}

/* greedy_draw by the full hints (the rules that are not plain), on the 8 cards h8: the
 * seat's 7 and the pile's top. The search's model of the expert's draw (g->links set):
 * the pile's top when it is a joker, or leaves at least 2 points and 30% of the
 * deadwood fewer (over the expert's own draws heads-up under conga: its choice at
 * 96.4% of them, the greedy's rule 75.5%). */
static cc_status greedy_draw_hints(game *g, int seat, int own, cc_hand h8, int *from_pile)
{
    hints h;
    int best, take;
    eng_hints(&g->r, h8, h.points, h.outcome);
    cc_hand_indices(h8, h.card);
    best = best_hint(g, &h);
    if (g->links != NULL) {
        const int now = greedy_current(g, seat, own), saved = now - h.points[best];
        take = (g->r.joker_mask >> g->pile[g->pile_n - 1] & 1)
               || (saved >= 2 && 10 * saved >= 3 * now);
    } else {
        take = h.points[best] < greedy_current(g, seat, own)
               || (h.outcome[best] != CC_CANNOT_CLOSE && may_close(g));
    }
    if (take) {
        if (own) {
            g->took = 1;
            memcpy(g->took_points, h.points, sizeof g->took_points);
            memcpy(g->took_outcomes, h.outcome, 8);
        }
        *from_pile = 1;
    }
    return CC_OK;
}

/* Python: GreedyBot.choose_draw; 1 to take the pile's top. `own`: the seat's greedy bot
 * (0: the expert's stand-in, a fresh GreedyBot with nothing cached or kept). */
static cc_status greedy_draw(game *g, int seat, int own, int *from_pile)
{
    cc_hand h8;
    int bound;
    if (own)
        g->took = 0;
    *from_pile = 0;
    if (g->pile_n == 0)
        return CC_OK;
    h8 = cc_hand_add(g->hands[seat], g->pile[g->pile_n - 1]);
    if (!g->r.plain)
        return greedy_draw_hints(g, seat, own, h8, from_pile);
    /* the best hint's points below the deadwood, or within the close limit when closing
     * is allowed (the best hint can close exactly then): one key below that is enough */
    bound = greedy_current(g, seat, own);
    if (may_close(g) && g->r.close_limit + 1 > bound)
        bound = g->r.close_limit + 1;
    *from_pile = greedy_key(g, h8, bound << 11, 1) < bound << 11;
    if (own)
        g->took = *from_pile; /* the discard sees its hints unmasked (greedy_discard) */
    return CC_OK;
}

/* greedy_discard by the full hints: the rules that are not plain, and the discards that
 * leave 0 points (the zero-point closes of best_hint). */
static cc_status greedy_discard_hints(game *g, int seat, int own, int *card, int *close)
{
    hints h;
    int best;
    if (own && g->took && g->r.plain) { /* unmasked, as the discard-pile draw saw them */
        eng_plain_hints(&g->r, g->hands[seat], h.points, h.outcome);
        cc_hand_indices(g->hands[seat], h.card);
    } else if (own && g->took) {
        cc_hand_indices(g->hands[seat], h.card);
        memcpy(h.points, g->took_points, sizeof h.points);
        memcpy(h.outcome, g->took_outcomes, 8);
    } else {
        eng_turn_hints(g, &h);
    }
    if (own)
        g->took = 0;
    best = best_hint(g, &h);
    if (g->links != NULL && !(h.outcome[best] != CC_CANNOT_CLOSE && may_close(g)))
        best = model_discard(g, &h, best);
    if (own && stale(g, seat) && h.outcome[best] == CC_CANNOT_CLOSE
        && cc_rng_double(&g->bot_rng[seat]) < g->cfg->stale_shake)
        best = (int)cc_rng_below(&g->bot_rng[seat], 8);
    if (own) {
        g->dw_hand[seat] = g->hand_number;
        g->dw[seat] = h.points[best];
    }
    *card = h.card[best];
    *close = h.outcome[best] != CC_CANNOT_CLOSE && may_close(g);
    return CC_OK;
}

/* The stale greedy's random discard (Python: hints[rng.randrange(8)]) from the 8 cards
 * held: the card at place below(8) in ascending order, copies listed twice, and the
 * points its discard leaves. */
static int shaken_card(const cc_rules *r, cc_hand held, cc_rng *rng, int *points)
{
    uint8_t cards[8];
    uint64_t bit;
    cc_hand_indices(held, cards);
    bit = UINT64_C(1) << cards[cc_rng_below(rng, 8)];
    *points = (held.twice & bit) ? cc_melds_deadwood_core(r, held.once, held.twice ^ bit)
                                 : cc_melds_deadwood_core(r, held.once ^ bit, held.twice);
    return cc_ctz(bit);
}

/* Python: GreedyBot.choose_discard (own = 0: the expert's fresh stand-in, which is never
 * stale on its first discard). */
static cc_status greedy_discard(game *g, int seat, int own, int *card, int *close)
{
    const cc_hand held = g->hands[seat];
    int key, points, c, can_close;
    if (!g->r.plain)
        return greedy_discard_hints(g, seat, own, card, close);
    key = greedy_key(g, held, INT_MAX, 0);
    points = key >> 11;
    c = key & 63;
    if (points == 0)
        return greedy_discard_hints(g, seat, own, card, close);
    /* more than 0 points: the best discard closes (NORMAL) within the close limit, and
     * when it does not no discard does (the others leave as many points or more); a
     * discard-pile draw's hints are the solver's, unmasked */
    can_close = points <= g->r.close_limit
                && ((own && g->took) || g->cfg->first_round_close || may_close(g));
    if (own) {
        g->took = 0;
        if (stale(g, seat) && !can_close
            && cc_rng_double(&g->bot_rng[seat]) < g->cfg->stale_shake)
            c = shaken_card(&g->r, held, &g->bot_rng[seat], &points);
        g->dw_hand[seat] = g->hand_number;
        g->dw[seat] = points;
    }
    *card = c;
    *close = can_close && may_close(g);
    return CC_OK;
}

/* Python: RandomBot.choose_draw (a coin, when the pile has a card).
 * O(1). */
static void random_draw(game *g, int seat, int *from_pile)
{
    *from_pile = g->pile_n > 0 && cc_rng_double(&g->bot_rng[seat]) < 0.5;
}

/* Python: RandomBot.choose_discard (a hint at random, closing when it may).
 * One hints search. */
static cc_status random_discard(game *g, int seat, int *card, int *close)
{
    hints h;
    int k;
    eng_turn_hints(g, &h);
    k = (int)cc_rng_below(&g->bot_rng[seat], 8);
    *card = h.card[k];
    *close = h.outcome[k] != CC_CANNOT_CLOSE;
    return CC_OK;
}

/* Python: bots._value (smaller is better), from the exact counts divided as the binding
 * divides them. */
static double value_of(const cc_prospect *p)
{
    const double n = (double)p->draws;
    const double expected = (double)p->points_sum / n;
    const double p_minus_ten = (double)p->outcomes[2] / n;
    const double p_chinchon = (double)(p->outcomes[3] + p->outcomes[4]) / n;
    return expected - 10.0 * p_minus_ten - 25.0 * p_chinchon;
}

/* Python: ExpertBot.choose_discard's chance of a wait (p_minus_ten + p_chinchon).
 * O(1). */
static double chances_of(const cc_prospect *p)
{
    const double n = (double)p->draws;
    return (double)p->outcomes[2] / n + (double)(p->outcomes[3] + p->outcomes[4]) / n;
}

/* Python: ExpertBot.choose_draw. */
static cc_status expert_draw(game *g, int seat, int *from_pile)
{
    cc_hand u, top;
    cc_prospect take, stock;
    cc_status st;
    *from_pile = 0;
    if (g->pile_n == 0)
        return CC_OK;
    u = unseen_of(g, seat);
    if (u.once == 0) /* nothing unseen: the greedy choice */
        return greedy_draw(g, seat, 0, from_pile);
    top.once = UINT64_C(1) << g->pile[g->pile_n - 1];
    top.twice = 0;
    st = cc_ahead_prospect(&g->r, g->hands[seat], top, &take);
    if (st == CC_OK)
        st = cc_ahead_prospect(&g->r, g->hands[seat], u, &stock);
    if (st != CC_OK)
        return st;
    *from_pile = value_of(&take) < value_of(&stock);
    return CC_OK;
}

/* Python: ExpertBot.choose_discard. */
static cc_status expert_discard(game *g, int seat, int *card, int *close)
{
    static const uint8_t best_closes[3] = {CC_CHINCHON, CC_JOKER_CHINCHON, CC_MINUS_TEN};
    hints h;
    cc_prospect p[8];
    cc_hand u = unseen_of(g, seat);
    cc_status st;
    int k, o, any_closing = 0, best, mayc;
    double bvalue;
    if (u.once == 0)
        return greedy_discard(g, seat, 0, card, close);
    st = cc_ahead_hand(&g->r, g->hands[seat], u, h.points, h.outcome, p);
    if (st != CC_OK)
        return st;
    cc_hand_indices(g->hands[seat], h.card);
    mayc = may_close(g);
    if (mayc)
        for (k = 0; k < 8; k++)
            any_closing |= h.outcome[k] != CC_CANNOT_CLOSE;
    if (stale(g, seat) && !any_closing
        && cc_rng_double(&g->bot_rng[seat]) < g->cfg->stale_shake) {
        *card = h.card[cc_rng_below(&g->bot_rng[seat], 8)];
        *close = 0;
        return CC_OK;
    }
    if (any_closing)
        for (o = 0; o < 3; o++)
            for (k = 0; k < 8; k++)
                if (h.outcome[k] == best_closes[o]) {
                    *card = h.card[k];
                    *close = 1;
                    return CC_OK;
                }
    best = 0;
    bvalue = value_of(&p[0]);
    for (k = 1; k < 8; k++) { /* the key (value, points, -card points), first smallest */
        const double v = value_of(&p[k]);
        if (v < bvalue
            || (v == bvalue
                && (h.points[k] < h.points[best]
                    || (h.points[k] == h.points[best]
                        && bit_points(&g->r, h.card[k]) > bit_points(&g->r, h.card[best]))))) {
            best = k;
            bvalue = v;
        }
    }
    if (any_closing) {
        int wait = -1, closing = -1;
        double wchance = 0.0;
        for (k = 0; k < 8; k++) { /* the waits: the largest (chance, -points), first */
            double c;
            if (h.outcome[k] == CC_CANNOT_CLOSE)
                continue;
            c = chances_of(&p[k]);
            if (!(c >= g->cfg->wait_for))
                continue;
            if (wait < 0 || c > wchance || (c == wchance && h.points[k] < h.points[wait])) {
                wait = k;
                wchance = c;
            }
        }
        if (wait >= 0) {
            *card = h.card[wait];
            *close = 0;
            return CC_OK;
        }
        for (k = 0; k < 8; k++) { /* the close: the smallest (points, -card points), first */
            if (h.outcome[k] == CC_CANNOT_CLOSE)
                continue;
            if (closing < 0 || h.points[k] < h.points[closing]
                || (h.points[k] == h.points[closing]
                    && bit_points(&g->r, h.card[k]) > bit_points(&g->r, h.card[closing])))
                closing = k;
        }
        *card = h.card[closing];
        *close = 1;
        return CC_OK;
    }
    *card = h.card[best];
    *close = 0;
    return CC_OK;
}

/* The search seat's decision (through g->search; NULL: none may play), then the
 * caller's check of whether to go on (cc_game_config.interrupted): a search may take
 * long, the other bots microseconds. */
static cc_status search_decision(game *g, int seat, int discard, int *a, int *b)
{
    const cc_game_config *cfg = g->cfg;
    cc_status st;
    if (g->search == NULL)
        return CC_ERR_BAD_ARGUMENT;
    st = g->search(g, seat, discard, a, b);
    if (st == CC_OK && cfg->interrupted != NULL && cfg->interrupted(cfg->interrupt_context))
        return CC_ERR_INTERRUPTED;
    return st;
}

/* The draw of the bot at `seat` (the player to act): 1 in *from_pile to take the
 * pile's top. */
cc_status bot_draw(game *g, int seat, int *from_pile)
{
    switch (g->cfg->bots[seat]) {
    case CC_BOT_RANDOM:
        random_draw(g, seat, from_pile);
        return CC_OK;
    case CC_BOT_GREEDY:
        return greedy_draw(g, seat, 1, from_pile);
    case CC_BOT_SEARCH:
        return search_decision(g, seat, 0, from_pile, NULL);
    default:
        return expert_draw(g, seat, from_pile);
    }
}

/* The discard of the bot at `seat` (the player to act): the card, and 1 in *close to
 * close with it. */
cc_status bot_discard(game *g, int seat, int *card, int *close)
{
    switch (g->cfg->bots[seat]) {
    case CC_BOT_RANDOM:
        return random_discard(g, seat, card, close);
    case CC_BOT_GREEDY:
        return greedy_discard(g, seat, 1, card, close);
    case CC_BOT_SEARCH:
        return search_decision(g, seat, 1, card, close);
    default:
        return expert_discard(g, seat, card, close);
    }
}
