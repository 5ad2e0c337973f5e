/* search.c -- the search bot: determinised ("perfect-information") Monte Carlo over the
 * game engine (docs/bots.md#the-search-bot).
 *
 * At each decision the seat's view (cc_search_view: its cards and the public table,
 * nothing else) gives the cards it cannot place: the deck less its hand, the discard
 * pile and the cards it saw the others take from the pile. A sample deals them to the
 * other hands (beside what each was seen to take) and the stock, consistently with
 * the view (after a reshuffle only the restocked cards can be in the stock), and each
 * other hand is then played as its seat played it (improve: a card from the stock per
 * turn it drew there, the greedy's discard of the rest: a hand kept for melds, not a
 * random one), and dealt again while the seat before could not have made its last
 * discard from the hand it is given; every candidate action is then played out on that
 * sample to the hand's end by the engine's greedy bots (common random numbers: the
 * same sample and the same bots' draws for every candidate; under rules that are not
 * plain they draw and discard as the expert most often does, game.links), and valued
 * by the seat's chance to win the game from there. The candidate with the best mean is
 * chosen; ties go to the first candidate.
 *
 * Nothing here reads a hidden card: srch_engine_bot copies only the public parts of the
 * engine's game into the view, and srch_choose builds its games from the view alone. */

#include <string.h>

#include "base/clock.h"
#include "base/hand.h"
#include "engine/engine.h"
#include "engine/engine_bots.h"
#include "search/search.h"
#include "search/value.h"

/* the turns a playout's hand may last past the decision before it is valued as it is */
#define PLAYOUT_TURNS 200
/* the candidates: a draw's 2, a discard's 8 cards each with and without closing */
#define MAX_CANDIDATES 16

/* ------------------------------------------------------------------ the samples */

/* The unseen cards of a view, as the samples deal them. */
typedef struct sampler {
    uint8_t forced[CC_MAX_DECK]; /* unseen cards that cannot be in the stock: in a hand */
    uint8_t free_[CC_MAX_DECK];  /* unseen cards that can be anywhere */
    int n_forced, n_free;
    int slots;                   /* the unknown cards of the other hands */
} sampler;

/* The game of the view with the other hands and the stock empty (a sample fills them),
 * its unseen cards in *sp; the playouts' bots are all greedy (cfg, the view's
 * configuration with greedy seats), under rules that are not plain with the model of
 * the expert (g->links: each card's links, filled in `links`, 64 entries, which must
 * outlive g and its copies). CC_ERR_BAD_ARGUMENT when the view's cards do not
 * fit its deck and counts. O(deck). */
static cc_status template_of(const cc_search_view *v, cc_game_config *cfg,
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
static int prev_seat(const cc_search_view *v, const game *g)
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

/* ------------------------------------------------------------------ the playouts */

typedef struct candidate {
    int a, b; /* draw: a = from the pile; discard: a = the card, b = close */
} candidate;

/* The value for `seat` of candidate c played on the sample d, then the hand played
 * out by the greedy bots seeded from `seed` (the same for every candidate). */
static cc_status playout(const game *d, int seat, int discard, candidate c, uint64_t seed,
                         double *value)
{
    game g = *d;
    cc_rng r;
    cc_status st;
    int s, card = 0, close = 0;
    const uint32_t cap = g.turns + PLAYOUT_TURNS;
    cc_rng_seed(&r, seed);
    cc_rng_seed(&g.rng, cc_rng_next(&r)); /* the table's: a reshuffle of the pile */
    for (s = 0; s < g.n; s++)
        cc_rng_seed(&g.bot_rng[s], cc_rng_next(&r));
    if (!discard) {
        if (eng_draw(&g, c.a) != 0)
            return CC_ERR_BAD_ARGUMENT;
        st = bot_discard(&g, seat, &card, &close);
        if (st == CC_OK)
            st = eng_discard(&g, card, close);
    } else {
        st = eng_discard(&g, c.a, c.b);
    }
    while (st == CC_OK && !g.over && !g.summary && g.turns < cap)
        st = eng_bot_turn(&g);
    if (st != CC_OK)
        return st;
    *value = srch_value(&g, seat);
    return CC_OK;
}

/* The candidates of the view's decision (template g): the draw's stock then pile (the
 * stock alone when the pile is empty); the discard's distinct cards in ascending order,
 * each without closing and then, where the rules and its hint allow, closing. */
static int candidates_of(const cc_search_view *v, const game *g, candidate *out)
{
    int n = 0, k;
    if (!v->discard) {
        out[n].a = 0;
        out[n++].b = 0;
        if (v->pile_n > 0) {
            out[n].a = 1;
            out[n++].b = 0;
        }
        return n;
    }
    {
        hints h;
        eng_turn_hints(g, &h);
        for (k = 0; k < 8; k++) {
            if (k > 0 && h.card[k] == h.card[k - 1])
                continue; /* a copy held twice: one candidate */
            out[n].a = h.card[k];
            out[n++].b = 0;
            if (h.outcome[k] != CC_CANNOT_CLOSE && may_close(g)) {
                out[n].a = h.card[k];
                out[n++].b = 1;
            }
        }
    }
    return n;
}

/* The expert's choice (engine_bots.c) for the view's decision on the template g (its
 * cards and the public table: what the expert reads), as a candidate's place (0 where
 * it is none of them). */
static int prior_of(const game *tmpl, int seat, int discard, const candidate *cand, int n)
{
    game g = *tmpl;
    cc_game_config cfg = *tmpl->cfg;
    int a = 0, b = 0, k;
    cfg.bots[seat] = CC_BOT_EXPERT;
    g.cfg = &cfg;
    g.links = NULL; /* the expert's own rules, not the playouts' model */
    if ((discard ? bot_discard(&g, seat, &a, &b) : bot_draw(&g, seat, &a)) != CC_OK)
        return 0;
    for (k = 0; k < n; k++)
        if (cand[k].a == a && cand[k].b == b)
            return k;
    return 0;
}

/* The least z-score of a candidate's mean gain over the expert's choice for the search
 * to take it instead: with 16 candidates, one of them beats z = 2 by chance alone
 * about one decision in three; 2.5 about one in seven. */
#define OVERRIDE_Z 1.5

/* The running sums of the candidates' paired gains over the expert's choice. */
typedef struct tally {
    double gain[MAX_CANDIDATES], gain2[MAX_CANDIDATES];
    uint32_t samples[MAX_CANDIDATES];
} tally;

/* One sample from the template, every live candidate played out on it, each one's gain
 * over the prior's added to t (the prior is always live). The sample is dealt again
 * (up to PREV_TRIES deals in all) while the hand of `prev` (the seat before, -1:
 * none) could not have discarded the view's prev_discard as it did (prev_close: the
 * rules let it close at that turn). */
static cc_status one_sample(const game *tmpl, const sampler *sp, const cc_search_view *v,
                            int prev, int prev_close, const candidate *cand,
                            const int *live, int n_live, int prior, cc_rng *rng, tally *t)
{
    game d = *tmpl;
    double value[MAX_CANDIDATES];
    const uint64_t play_seed = cc_rng_next(rng);
    int i;
    for (i = 1;; i++) {
        sample(&d, sp, v->seat, rng);
        improve(&d, v->seat, rng);
        if (prev < 0 || i == PREV_TRIES
            || could_discard(&d.r, d.hands[prev], v->prev_discard, prev_close))
            break;
        d = *tmpl;
    }
    for (i = 0; i < n_live; i++) {
        const cc_status st = playout(&d, v->seat, v->discard, cand[live[i]], play_seed,
                                     &value[live[i]]);
        if (st != CC_OK)
            return st;
    }
    for (i = 0; i < n_live; i++) { /* paired with the expert's choice on the same sample */
        const int k = live[i];
        const double x = value[k] - value[prior];
        t->gain[k] += x;
        t->gain2[k] += x * x;
        t->samples[k]++;
    }
    return CC_OK;
}

/* The live candidates after a round of the race: the prior and the better half of the
 * others by mean gain (ties to the first), in their order. O(candidates**2). */
static int halve(int *live, int n_live, int prior, const tally *t)
{
    double mean[MAX_CANDIDATES];
    int keep = (n_live + 1) / 2, out = 0, i, j;
    for (i = 0; i < n_live; i++)
        mean[i] = t->samples[live[i]] > 0 ? t->gain[live[i]] / t->samples[live[i]] : 0.0;
    for (i = 0; i < n_live; i++) {
        int rank = 0; /* the others ahead of it */
        if (live[i] == prior) {
            live[out++] = live[i];
            continue;
        }
        for (j = 0; j < n_live; j++)
            if (live[j] != prior && (mean[j] > mean[i] || (mean[j] == mean[i] && j < i)))
                rank++;
        if (rank < keep - 1)
            live[out++] = live[i];
    }
    return out;
}

cc_status srch_choose(const cc_search_view *v, uint32_t playouts, uint32_t micros,
                      uint64_t seed, int *choice, int *close)
{
    cc_game_config cfg;
    cc_game_record rec;
    uint64_t links[64];
    game tmpl;
    sampler sp;
    candidate cand[MAX_CANDIDATES];
    int live[MAX_CANDIDATES];
    tally t;
    cc_rng rng;
    cc_status st;
    uint64_t start = 0;
    int n, k, best, prior, prev, prev_close, n_live, rounds, r;
    double best_gain;
    if (playouts == 0 && micros == 0)
        return CC_ERR_BAD_ARGUMENT;
    st = template_of(v, &cfg, &rec, links, &tmpl, &sp);
    if (st != CC_OK)
        return st;
    n = candidates_of(v, &tmpl, cand);
    prior = prior_of(&tmpl, v->seat, v->discard, cand, n);
    prev = prev_seat(v, &tmpl);
    prev_close = prev >= 0 && may_close_at(&tmpl, v->turns - 1); /* at its turn */
    memset(&t, 0, sizeof t);
    for (k = 0; k < n; k++)
        live[k] = k;
    n_live = n;
    cc_rng_seed(&rng, seed);
    if (playouts == 0) { /* a time budget: every candidate on every sample */
        start = cc_now_micros();
        while (n > 1) {
            st = one_sample(&tmpl, &sp, v, prev, prev_close, cand, live, n_live, prior,
                            &rng, &t);
            if (st != CC_OK)
                return st;
            if (cc_now_micros() - start >= micros)
                break;
        }
    } else { /* a race (successive halving): each round a share of the playouts over the
              * live candidates, then the worse half of them out */
        for (rounds = 1; (1 << rounds) < n; rounds++)
            ;
        for (r = 0; r < rounds && n > 1; r++) {
            const uint32_t share = playouts / (uint32_t)rounds / (uint32_t)n_live;
            uint32_t j;
            for (j = 0; j < (share > 0 ? share : 1); j++) {
                st = one_sample(&tmpl, &sp, v, prev, prev_close, cand, live, n_live, prior,
                                &rng, &t);
                if (st != CC_OK)
                    return st;
            }
            if (r + 1 < rounds)
                n_live = halve(live, n_live, prior, &t);
        }
    }
    /* the expert's choice, unless a live candidate's mean gain over it is significant (z
     * above OVERRIDE_Z: mean**2 > z**2 var / samples); of those the largest gain */
    best = prior;
    best_gain = 0.0;
    for (r = 0; r < n_live; r++) {
        const uint32_t m = t.samples[live[r]];
        double mean, var;
        k = live[r];
        if (m <= 1)
            continue;
        mean = t.gain[k] / m;
        var = t.gain2[k] / m - mean * mean;
        if (mean > best_gain && mean * mean * m > OVERRIDE_Z * OVERRIDE_Z * var) {
            best = k;
            best_gain = mean;
        }
    }
    *choice = cand[best].a;
    *close = cand[best].b;
    return CC_OK;
}

cc_status srch_engine_bot(game *g, int seat, int discard, int *a, int *b)
{
    cc_search_view v;
    int s, unused = 0;
    memset(&v, 0, sizeof v);
    v.config = g->cfg;
    v.seat = seat;
    v.discard = discard;
    v.held = g->hands[seat];
    memcpy(v.pile, g->pile, (size_t)g->pile_n);
    v.pile_n = g->pile_n;
    for (s = 0; s < g->n; s++) {
        v.taken[s] = g->taken[s];
        v.totals[s] = g->totals[s];
        v.chips[s] = g->chips[s];
        v.in[s] = g->in[s];
    }
    v.has_restocked = g->has_restocked;
    v.restocked = g->restocked;
    v.stock_n = g->stock_n - g->stock_head;
    v.lead = g->lead;
    v.hand_number = g->hand_number;
    v.turns = g->turns;
    /* what the seat saw as its turn began: the card the seat before discarded (the
     * pile's top at its draw; remembered for its discard, when it may hold it) */
    if (!discard) {
        g->search_seen[seat] = g->turns > 0 && g->pile_n > 0 ? g->pile[g->pile_n - 1] : -1;
        g->search_seen_at[seat] = (uint64_t)g->hand_number << 32 | g->turns;
    }
    v.has_prev_discard = g->search_seen[seat] >= 0
                         && g->search_seen_at[seat] == ((uint64_t)g->hand_number << 32 | g->turns);
    v.prev_discard = (uint8_t)(v.has_prev_discard ? g->search_seen[seat] : 0);
    return srch_choose(&v, g->cfg->search_playouts[seat], g->cfg->search_micros[seat],
                       cc_rng_next(&g->bot_rng[seat]), a, b != NULL ? b : &unused);
}
