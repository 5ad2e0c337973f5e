/* samples.c -- the search's samples (docs/bots.md#the-search-bot, step 1): the game of
 * a view with the cards the seat has not seen left out, and the deals of those cards to
 * the other hands and the stock that stay consistent with what the seat saw. Reads the
 * view alone: no hidden card. */

#include <string.h>

#include "base/hand.h"
#include "engine/engine.h"
#include "engine/engine_bots.h"
#include "search/samples.h"

/* ------------------------------------------------------------------ the samples */

/* The game of the view with the other hands and the stock empty (a sample fills them),
 * its unseen cards in *sp; the playouts' bots are all greedy (cfg, the view's
 * configuration with greedy seats), under rules that are not plain with the model of
 * the expert (g->links: each card's links, filled in `links`, 64 entries, which must
 * outlive g and its copies). CC_ERR_BAD_ARGUMENT when the view's cards do not
 * fit its deck and counts. O(deck). */
cc_status srch_template(const cc_search_view *v, cc_game_config *cfg,
                             cc_game_record *rec, uint64_t *links, game *g, sampler *sp)
{
    int count[64], restocked[64];
    int c, k, s, i;
    uint8_t cards[CC_MAX_DECK];
    memset(rec, 0, sizeof *rec);
    *cfg = *v->config;
    for (s = 0; s < CC_MAX_PLAYERS; s++)
        cfg->bots[s] = CC_BOT_GREEDY;
    eng_game_base(g, cfg, rec);
    memset(count, 0, sizeof count); /* each card's copies in the deck, then less those seen */
    for (i = 0; i < g->deck_n; i++)
        count[g->deck[i]]++;
    if (!g->r.plain) { /* the playouts' greedy bots as the expert (engine_bots.c) */
        bot_links(&g->r, links);
        g->links = links;
    }
    /* the table seen */
    if (v->seat < 0 || v->seat >= g->n || !v->in[v->seat] || v->pile_n < 0
        || v->pile_n > CC_MAX_DECK || v->stock_n < 0 || v->lead < 0 || v->lead >= g->n)
        return CC_ERR_BAD_ARGUMENT;
    g->hands[v->seat] = v->held;
    memcpy(g->pile, v->pile, (size_t)v->pile_n);
    g->pile_n = v->pile_n;
    for (i = 0; i < v->pile_n; i++)
        g->pile_set = cc_hand_add(g->pile_set, v->pile[i]);
    g->has_restocked = v->has_restocked != 0;
    g->restocked = v->restocked;
    for (s = 0; s < g->n; s++) {
        g->totals[s] = v->totals[s];
        g->chips[s] = v->chips[s];
        g->in[s] = v->in[s] != 0;
    }
    g->lead = v->lead;
    g->turn = v->seat;
    g->hand_number = v->hand_number;
    g->turns = v->turns;
    /* the unseen: the deck less what the seat holds or saw */
    k = cc_hand_indices(v->held, cards);
    if (k != 7 + (v->discard != 0))
        return CC_ERR_BAD_ARGUMENT;
    for (i = 0; i < k; i++)
        count[cards[i]]--;
    for (i = 0; i < v->pile_n; i++)
        count[v->pile[i]]--;
    sp->slots = 0;
    for (s = 0; s < g->n; s++) {
        if (s == v->seat || !g->in[s])
            continue;
        if (cc_hand_count(v->taken[s]) > 7)
            return CC_ERR_BAD_ARGUMENT;
        k = cc_hand_indices(v->taken[s], cards);
        for (i = 0; i < k; i++)
            count[cards[i]]--;
        g->taken[s] = g->hands[s] = v->taken[s];
        sp->slots += 7 - k;
    }
    for (c = 0; c < 64; c++) /* the copies of each card the stock may hold */
        restocked[c] = !g->has_restocked ? 2
                       : (int)(v->restocked.once >> c & 1) + (int)(v->restocked.twice >> c & 1);
    sp->n_forced = sp->n_free = 0;
    for (c = 0; c < 64; c++) {
        int n;
        if (count[c] < 0)
            return CC_ERR_BAD_ARGUMENT; /* more copies seen than the deck has */
        for (n = 0; n < count[c]; n++) {
            if (n < restocked[c])
                sp->free_[sp->n_free++] = (uint8_t)c;
            else
                sp->forced[sp->n_forced++] = (uint8_t)c;
        }
    }
    if (sp->n_forced > sp->slots || sp->n_forced + sp->n_free != sp->slots + v->stock_n)
        return CC_ERR_BAD_ARGUMENT;
    if (v->has_prev_discard
        && (v->prev_discard >= 64 || !(g->r.card_mask >> v->prev_discard & 1)))
        return CC_ERR_BAD_ARGUMENT;
    g->stock_head = 0;
    g->stock_n = v->stock_n;
    return CC_OK;
}

/* One sample into g (a copy of the template): the free cards shuffled; the hands'
 * unknown cards are the forced ones and the first free ones, shuffled and dealt in seat
 * order; the stock the other free cards in their shuffled order. O(deck). */
static void sample(game *g, const sampler *sp, int seat, cc_rng *rng)
{
    uint8_t pool[CC_MAX_DECK], hand_cards[CC_MAX_DECK];
    const int to_hands = sp->slots - sp->n_forced;
    int s, i, k = 0;
    memcpy(pool, sp->free_, (size_t)sp->n_free);
    cc_rng_shuffle(rng, pool, (size_t)sp->n_free);
    memcpy(hand_cards, sp->forced, (size_t)sp->n_forced);
    memcpy(hand_cards + sp->n_forced, pool, (size_t)to_hands);
    cc_rng_shuffle(rng, hand_cards, (size_t)sp->slots);
    for (s = 0; s < g->n; s++) {
        if (s == seat || !g->in[s])
            continue;
        for (i = cc_hand_count(g->hands[s]); i < 7; i++)
            g->hands[s] = cc_hand_add(g->hands[s], hand_cards[k++]);
    }
    memcpy(g->stock, pool + to_hands, (size_t)(sp->n_free - to_hands));
}

/* The turns `seat` has played this hand: the seats in play from the lead, in order,
 * g->turns turns in all. O(players). */
static int turns_of(const game *g, int seat)
{
    int order = 0, n_in = 0, s;
    for (s = 0; s < g->n; s++) {
        const int t = (g->lead + s) % g->n;
        if (!g->in[t])
            continue;
        if (t == seat)
            order = n_in;
        n_in++;
    }
    return (int)(g->turns / (uint32_t)n_in) + (order < (int)(g->turns % (uint32_t)n_in));
}

/* The other hands of the sample g as their seats played them: a seat that has played t
 * turns this hand, k of its cards seen taken from the pile, drew about t - k times from
 * the stock and kept the cards that meld: t - k times a stock card (at random) joins its
 * hand and the greedy's discard of the 8 (fewest points left, then the card worth most;
 * never a card it was seen take) goes back in that card's place. The hand stays 7 cards,
 * the stock its size, the unseen cards the same multiset, and the seat's taken cards in
 * its hand: only the split between the hand and the stock changes, towards hands with
 * melds, as played hands are (a uniform sample gives the others far more deadwood than
 * they hold). Not after a reshuffle (the stock then holds only restocked cards). The
 * sample alone is read: no hidden card. O(turns) hints searches. */
static void improve(game *g, int seat, cc_rng *rng)
{
    const int m = g->stock_n - g->stock_head;
    int s, j, k;
    if (g->has_restocked || m <= 0)
        return;
    for (s = 0; s < g->n; s++) {
        int t;
        if (s == seat || !g->in[s])
            continue;
        t = turns_of(g, s) - cc_hand_count(g->taken[s]);
        for (j = 0; j < t; j++) {
            hints h;
            const int at = g->stock_head + (int)cc_rng_below(rng, (uint32_t)m);
            const cc_hand h8 = cc_hand_add(g->hands[s], g->stock[at]);
            int best = -1;
            eng_hints(&g->r, h8, h.points, h.outcome);
            cc_hand_indices(h8, h.card);
            for (k = 0; k < 8; k++) {
                if (g->taken[s].once >> h.card[k] & 1)
                    continue; /* known to be held */
                if (best < 0 || h.points[k] < h.points[best]
                    || (h.points[k] == h.points[best]
                        && g->card_key[h.card[k]] < g->card_key[h.card[best]]))
                    best = k;
            }
            if (best < 0)
                break; /* every card known (two decks: copies of taken cards) */
            g->hands[s] = cc_hand_remove_once(h8, UINT64_C(1) << h.card[best]);
            g->stock[at] = h.card[best];
        }
    }
}

/* The seat that played the turn before the view's seat (the seat before it in play),
 * or -1 when the view has no discard of it to read: none this hand, or the card has
 * left the pile for the stock (a reshuffle at this seat's draw: the samples may then
 * deal it to any hand). O(players). */
int srch_prev_seat(const cc_search_view *v, const game *g)
{
    int k;
    if (!v->has_prev_discard
        || !((g->pile_set.once | v->held.once) >> v->prev_discard & 1))
        return -1;
    for (k = 1; k < g->n; k++) {
        const int s = (v->seat - k + g->n) % g->n;
        if (g->in[s])
            return s;
    }
    return -1;
}

/* How many points more than its best discard the greedy's rule may leave for a sample's
 * hand to count as one its seat could have discarded the card it did from: 0 keeps
 * 92% of the hands really held (heads-up under conga against the expert, whose
 * discards look a draw ahead), 1 keeps 98%. */
#define PREV_SLACK 0
/* The deals a sample may take to find such a hand (after which it keeps the last). */
#define PREV_TRIES 8

/* 1 when a seat holding h (7 cards) and `card` could have discarded `card` as it did:
 * the points it leaves are within PREV_SLACK of the fewest any discard of the 8
 * leaves, and (`could_close`: the rules let it close then) it could not have closed
 * with it, or it would have (the expert waits for a likely minus ten, which this
 * leaves out). O(hints). */
static int could_discard(const cc_rules *r, cc_hand h, int card, int could_close)
{
    hints x;
    const cc_hand h8 = cc_hand_add(h, card);
    int k, fewest = 1 << 30, own = 1 << 30, closes = 0;
    eng_hints(r, h8, x.points, x.outcome);
    cc_hand_indices(h8, x.card);
    for (k = 0; k < 8; k++) {
        fewest = x.points[k] < fewest ? x.points[k] : fewest;
        if (x.card[k] == card) {
            own = x.points[k] < own ? x.points[k] : own;
            closes |= x.outcome[k] != CC_CANNOT_CLOSE;
        }
    }
    return own - fewest <= PREV_SLACK && !(could_close && closes);
}

/* One sample from the template into *d, and the seed of its playouts (the same for
 * every candidate). The sample is dealt again (up to PREV_TRIES deals in all) while the
 * hand of `prev` (the seat before, -1: none) could not have discarded the view's
 * prev_discard as it did (prev_close: the rules let it close at that turn). */
uint64_t srch_deal(const game *tmpl, const sampler *sp, const cc_search_view *v, int prev,
                   int prev_close, cc_rng *rng, game *d)
{
    const uint64_t play_seed = cc_rng_next(rng);
    int i;
    *d = *tmpl;
    for (i = 1;; i++) {
        sample(d, sp, v->seat, rng);
        improve(d, v->seat, rng);
        if (prev < 0 || i == PREV_TRIES
            || could_discard(&d->r, d->hands[prev], v->prev_discard, prev_close))
            break;
        *d = *tmpl;
    }
    return play_seed;
}

