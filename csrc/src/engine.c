/* The game engine: whole games between the built-in bots (random, greedy, expert), the
 * Python loop of src/chinchon/simulate/play.py over chinchon.game.state.GameState and
 * src/chinchon/bots.py written again in C, choice for choice and draw for draw
 * (docs/design.md, "The game engine"). Every comment "Python:" names the code mirrored.
 *
 * A game lives on the stack (a few hundred bytes); nothing is allocated. The bots'
 * floats (the random bot's coin, the expert's values) are computed in the order Python
 * computes them: this file must not contract a*b+c into a fused multiply-add (CMake
 * compiles it with -ffp-contract=off; the pragma says so to compilers that read it). */

#include <string.h>

#include "bits.h"
#include "chinchon.h"

#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

#define NO_SEAT 0xff

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
    uint8_t took_points[8], took_outcomes[8];
    /* the greedy bot's order of equal discards, by card: a joker after a natural card
     * (bit 6), then the card worth more first (31 - its points) */
    uint8_t card_key[64];
} game;

/* A list of hints (or outlook lines): 8 cards in ascending order, copies listed twice. */
typedef struct hints {
    uint8_t card[8];
    uint8_t points[8];
    uint8_t outcome[8]; /* cc_outcome; 0 also where closing is refused this turn */
} hints;

/* ------------------------------------------------------------------ small helpers */

CC_INLINE void ms_add(cc_hand *h, int card)
{
    const uint64_t bit = UINT64_C(1) << card;
    if (h->once & bit)
        h->twice |= bit;
    else
        h->once |= bit;
}

CC_INLINE void ms_remove(cc_hand *h, int card)
{
    const uint64_t bit = UINT64_C(1) << card;
    if (h->twice & bit)
        h->twice &= ~bit;
    else
        h->once &= ~bit;
}

/* Subtract one copy of each card of mask m from the 2-bit counts (c1, c0). O(1). */
CC_INLINE void count_sub(uint64_t *c1, uint64_t *c0, uint64_t m)
{
    const uint64_t borrow = m & ~*c0;
    *c0 ^= m;
    *c1 ^= borrow;
}

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

static int count_in(const game *g)
{
    int s, k = 0;
    for (s = 0; s < g->n; s++)
        k += g->in[s];
    return k;
}

/* Python: GameState.may_close (first_round_close, or every player in has had a turn). */
static int may_close(const game *g)
{
    return g->cfg->first_round_close || g->turns >= (uint32_t)count_in(g);
}

/* Points of card bit i as the bots weigh it. Python: Rules._bit_points (greedy) and
 * ExpertBot._card_points (which gives the joker bits 12 and 28 joker_points even when
 * not in play: never held then). */
static int bit_points(const cc_rules *r, int i)
{
    if ((r->joker_mask >> i & 1) || i == CC_JOKER1_BIT || i == CC_JOKER2_BIT)
        return r->joker_points;
    return r->points[i % 16];
}

/* The cards of a hand in ascending order, copies listed twice; returns the count. */
static int cards_of(cc_hand h, uint8_t *out)
{
    int k = 0;
    uint64_t m = h.once;
    while (m) {
        const int i = cc_ctz(m);
        out[k++] = (uint8_t)i;
        if (h.twice >> i & 1)
            out[k++] = (uint8_t)i;
        m &= m - 1;
    }
    return k;
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
            ms_add(&g->hands[s], g->stock[pos + c]);
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

/* Python: GameState.unseen (the cards `seat` cannot know the place of). */
static cc_hand unseen(const game *g, int seat)
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

/* Python: GameState.draw. */
static int draw(game *g, int from_pile)
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
                ms_add(&g->restocked, g->stock[k]);
            g->has_restocked = 1;
            emit(g, CC_EV_RESHUFFLE, seat, 0, g->stock_n);
        }
        card = g->stock[g->stock_head++];
    } else {
        if (g->pile_n == 0)
            return -1;
        card = g->pile[--g->pile_n];
        ms_remove(&g->pile_set, card);
        ms_add(&g->taken[seat], card);
    }
    ms_add(&g->hands[seat], card);
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
        if (rec->n_points < rec->cap_points)
            rec->points[rec->n_points] = points[i];
        rec->n_points++;
        emit(g, CC_EV_POINTS, order[i], 0, points[i]);
    }
}

static void end_game(game *g, int status, int winner)
{
    g->over = 1;
    g->rec->status = (uint8_t)status;
    g->rec->winner = (int8_t)winner;
}

/* Python: GameState.discard (close = 0) and its close (close = 1, _finish_hand). */
static cc_status discard(game *g, int card, int close)
{
    const int seat = g->turn;
    const uint64_t bit = UINT64_C(1) << card;
    cc_hand kept;
    if (!(g->hands[seat].once & bit))
        return CC_ERR_BAD_ARGUMENT;
    if (!close) {
        ms_remove(&g->hands[seat], card);
        if (g->taken[seat].once & bit)
            ms_remove(&g->taken[seat], card);
        g->pile[g->pile_n++] = (uint8_t)card;
        ms_add(&g->pile_set, card);
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
        ms_remove(&kept, card);
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
        status = cc_settle(&g->r, kept, opponents, k - 1, g->decks, &st);
        if (status != CC_OK)
            return status;
        g->hands[seat] = kept;
        if (g->taken[seat].once & bit)
            ms_remove(&g->taken[seat], card);
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

/* Python: the game's hints of the player to act (GameState.hints), masked while the
 * rules refuse a close this turn. */
static cc_status table_hints(const game *g, hints *h)
{
    const cc_hand held = g->hands[g->turn];
    cc_status st = cc_discard_hints(&g->r, held, h->points, h->outcome);
    int k;
    if (st != CC_OK)
        return st;
    cards_of(held, h->card);
    if (!g->cfg->first_round_close && !may_close(g))
        for (k = 0; k < 8; k++)
            h->outcome[k] = CC_CANNOT_CLOSE;
    return CC_OK;
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

/* Python: GreedyBot._current (the deadwood of the seat's 7 cards, cached per hand). */
static int greedy_current(game *g, int seat, int cached)
{
    int d = 0;
    if (cached && g->dw_hand[seat] == g->hand_number)
        return g->dw[seat];
    cc_deadwood(&g->r, g->hands[seat], &d);
    if (cached) {
        g->dw_hand[seat] = g->hand_number;
        g->dw[seat] = d;
    }
    return d;
}

/* Python: GreedyBot.choose_draw; 1 to take the pile's top. `own`: the seat's greedy bot
 * (0: the expert's stand-in, a fresh GreedyBot with nothing cached or kept). */
static cc_status greedy_draw(game *g, int seat, int own, int *from_pile)
{
    hints h;
    cc_hand h8 = g->hands[seat];
    cc_status st;
    int best;
    if (own)
        g->took = 0;
    *from_pile = 0;
    if (g->pile_n == 0)
        return CC_OK;
    ms_add(&h8, g->pile[g->pile_n - 1]);
    st = cc_discard_hints(&g->r, h8, h.points, h.outcome);
    if (st != CC_OK)
        return st;
    cards_of(h8, h.card);
    best = best_hint(g, &h);
    if (h.points[best] < greedy_current(g, seat, own)
        || (h.outcome[best] != CC_CANNOT_CLOSE && may_close(g))) {
        if (own) {
            g->took = 1;
            memcpy(g->took_points, h.points, 8);
            memcpy(g->took_outcomes, h.outcome, 8);
        }
        *from_pile = 1;
    }
    return CC_OK;
}

/* Python: GreedyBot.choose_discard (own = 0: the expert's fresh stand-in, which is never
 * stale on its first discard). */
static cc_status greedy_discard(game *g, int seat, int own, int *card, int *close)
{
    hints h;
    int best;
    if (own && g->took) {
        cards_of(g->hands[seat], h.card);
        memcpy(h.points, g->took_points, 8);
        memcpy(h.outcome, g->took_outcomes, 8);
    } else {
        cc_status st = table_hints(g, &h);
        if (st != CC_OK)
            return st;
    }
    if (own)
        g->took = 0;
    best = best_hint(g, &h);
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

/* Python: RandomBot.choose_draw / choose_discard. */
static void random_draw(game *g, int seat, int *from_pile)
{
    *from_pile = g->pile_n > 0 && cc_rng_double(&g->bot_rng[seat]) < 0.5;
}

static cc_status random_discard(game *g, int seat, int *card, int *close)
{
    hints h;
    int k;
    cc_status st = table_hints(g, &h);
    if (st != CC_OK)
        return st;
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
    u = unseen(g, seat);
    if (u.once == 0) /* nothing unseen: the greedy choice */
        return greedy_draw(g, seat, 0, from_pile);
    top.once = UINT64_C(1) << g->pile[g->pile_n - 1];
    top.twice = 0;
    st = cc_prospect_of(&g->r, g->hands[seat], top, &take);
    if (st == CC_OK)
        st = cc_prospect_of(&g->r, g->hands[seat], u, &stock);
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
    cc_hand u = unseen(g, seat);
    cc_status st;
    int k, o, any_closing = 0, best, mayc;
    double bvalue;
    if (u.once == 0)
        return greedy_discard(g, seat, 0, card, close);
    st = cc_outlook(&g->r, g->hands[seat], u, h.points, h.outcome, p);
    if (st != CC_OK)
        return st;
    cards_of(g->hands[seat], h.card);
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

static cc_status check_config(const cc_game_config *cfg)
{
    int s;
    if (cfg->players < 2 || cfg->players > CC_MAX_PLAYERS || cfg->max_turns < 1
        || cfg->void_at_stock < -1 || cfg->void_at_stock > 255 || cfg->stale_turns < 1
        || cfg->rejoin_chips < 0)
        return CC_ERR_BAD_ARGUMENT;
    for (s = 0; s < cfg->players; s++)
        if (cfg->bots[s] >= CC_BOT_END)
            return CC_ERR_BAD_ARGUMENT;
    return CC_OK;
}

/* One turn of the seat to act: its bot's draw, then its discard. */
static cc_status play_turn(game *g)
{
    const int seat = g->turn;
    int from_pile = 0, card = 0, close = 0;
    cc_status st = CC_OK;
    switch (g->cfg->bots[seat]) {
    case CC_BOT_RANDOM:
        random_draw(g, seat, &from_pile);
        break;
    case CC_BOT_GREEDY:
        st = greedy_draw(g, seat, 1, &from_pile);
        break;
    default:
        st = expert_draw(g, seat, &from_pile);
        break;
    }
    if (st != CC_OK)
        return st;
    if (draw(g, from_pile) != 0)
        return CC_ERR_BAD_ARGUMENT;
    switch (g->cfg->bots[seat]) {
    case CC_BOT_RANDOM:
        st = random_discard(g, seat, &card, &close);
        break;
    case CC_BOT_GREEDY:
        st = greedy_discard(g, seat, 1, &card, &close);
        break;
    default:
        st = expert_discard(g, seat, &card, &close);
        break;
    }
    if (st != CC_OK)
        return st;
    return discard(g, card, close);
}

/* Python: bots.bots_rejoin then GameState.next_hand, in the summary of a hand. */
static void between_hands(game *g)
{
    int s;
    for (s = 0; s < g->n; s++) {
        if (g->in[s] || g->chips[s] <= 0)
            continue;
        if (g->cfg->bots[s] == CC_BOT_RANDOM && !(cc_rng_double(&g->bot_rng[s]) < 0.5))
            continue;
        {
            int64_t total = 0;
            int t, first = 1;
            for (t = 0; t < g->n; t++)
                if (g->in[t] && (first || g->totals[t] > total)) {
                    total = g->totals[t];
                    first = 0;
                }
            g->chips[s]--;
            g->in[s] = 1;
            g->totals[s] = total;
            g->rec->rejoins[s]++;
            emit(g, CC_EV_REJOIN, s, 0, total);
        }
    }
    g->lead = next_in(g, g->lead);
    deal(g);
}

cc_status cc_play_game(const cc_game_config *cfg, uint64_t index, cc_game_record *rec)
{
    game g;
    int s, c, k;
    cc_status st = check_config(cfg);
    if (st != CC_OK || rec == NULL)
        return st != CC_OK ? st : CC_ERR_BAD_ARGUMENT;
    memset(&g, 0, sizeof g);
    g.cfg = cfg;
    g.rec = rec;
    g.n = cfg->players;
    g.decks = g.n >= 5 ? 2 : 1;
    g.r = cfg->rules;
    g.r.decks = (uint8_t)g.decks;
    rec->status = CC_GAME_STALLED;
    rec->winner = -1;
    rec->hands = 0;
    rec->n_ended = rec->n_points = rec->n_events = 0;
    for (c = 0, k = 0; c < 64; c++) /* Python: deck.deck_for (ascending, copies together) */
        if (g.r.card_mask >> c & 1) {
            g.deck[k++] = (uint8_t)c;
            if (g.decks == 2)
                g.deck[k++] = (uint8_t)c;
        }
    g.deck_n = k;
    for (c = 0; c < 64; c++) { /* every card bit (the rest, never held, stay 0) */
        const int joker = (int)(g.r.joker_mask >> c & 1);
        if (c % 16 < CC_NRANKS || joker)
            g.card_key[c] = (uint8_t)(joker << 6 | (joker ? 31 : 31 - bit_points(&g.r, c)));
    }
    for (s = 0; s < g.n; s++) {
        g.in[s] = 1;
        g.chips[s] = cfg->rejoin_chips;
        rec->totals[s] = 0;
        rec->rejoins[s] = 0;
        cc_rng_seed(&g.bot_rng[s], stream_seed(cfg, index, 1 + (uint64_t)s));
    }
    cc_rng_seed(&g.rng, stream_seed(cfg, index, 0));
    g.lead = (int)cc_rng_below(&g.rng, (uint32_t)g.n);
    deal(&g);
    /* Python: simulate.play._drive */
    while (!g.over) {
        if (g.summary) {
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
