/*
 * settle_layoffs.c -- the lay-off search of the settlement, under every rule set: the best
 * plan of an opponent's cards left onto the open table melds (settle.c chooses the own
 * melds and compares whole plans).
 *
 * - The walk is depth-first over the cards left in ascending bit order (a copy held
 *   twice is two items, the second never before the first). Each card goes onto one
 *   table meld open to it, or stays: a natural card onto a set of its rank or a run of
 *   its suit beyond either end, a joker onto a set without one or a run without one,
 *   standing for a given place beyond either end. The walk tracks what each meld has
 *   taken (set sizes against the capacity, the places laid on each run, one joker per
 *   meld); at a leaf every extended run must be one block of consecutive places.
 * - Each lay-off has a code, ((card * 16 + table meld) << 6) | place, the place being the
 *   bit index of the card a joker laid on a run stands for (0 otherwise): codes compare
 *   as the elements of the plan key's last rule do (a (card, meld) pair never meets a
 *   (card, meld, place) triple: a meld is a set or a run). The walk visits the options of
 *   a card in ascending code order, so the codes of a plan come out sorted: a partial
 *   plan is a prefix of its leaves' keys. A branch is cut when it cannot lay more points
 *   than the best plan so far, nor, laying as many, have a smaller key.
 * - Where each card may go is worked out once per hand (cc_lay_items; for runs: the
 *   places between held, but one when the hand holds a joker -- a superset of what the
 *   cards left by any own melds can reach; the leaves check the rest); each collection
 *   of own melds selects the items of the cards it leaves (cc_lay_select).
 *
 * Fixed-size state in the caller's cc_lay_search; nothing is allocated.
 */
#include "chinchon.h"

#include <string.h>

#include "base/bits.h"
#include "base/hand.h"
#include "settle/settle_layoffs.h"
#include "jokers/variants.h"

/* Whether no extension of the partial plan can have a smaller key than the best: it
 * differs from it first by a greater code, or it already holds the whole best key.
 * O(codes). */
static int key_worse(const cc_lay_search *s)
{
    int i;
    for (i = 0; i < s->n_codes && i < s->best_n; i++)
        if (s->codes[i] != s->best_codes[i])
            return s->codes[i] > s->best_codes[i];
    return s->n_codes >= s->best_n;
}

/* A leaf the bounds let through is better than the best if it is legal: every run it
 * extended is still one block of places. O(targets). */
static void leaf(cc_lay_search *s, int laid)
{
    int t;
    for (t = 0; t < s->n_tg; t++) {
        if (s->tg[t].kind == CC_RUN && (s->ext[t] || s->jok[t])) {
            unsigned m = s->tg[t].lane | s->ext[t] | (s->jok[t] ? 1u << s->stand[t] : 0u);
            m >>= cc_ctz(m);
            if (m & (m + 1u))
                return;
        }
    }
    s->best_laid = laid;
    s->best_n = s->n_codes;
    memcpy(s->best_codes, s->codes, (size_t)s->n_codes * sizeof s->codes[0]);
    memcpy(s->best_choice, s->choice, (size_t)s->n_items * sizeof s->choice[0]);
}

/* Depth-first over the items from k: each onto one of its options (ascending codes),
 * then staying. O(prod(options + 1)), cut by the bounds. */
static void walk(cc_lay_search *s, int k, int laid)
{
    int o, first = 0, it, joker, bound = laid + s->suffix[k];
    if (bound < s->best_laid || (bound == s->best_laid && key_worse(s)))
        return;
    if (k == s->n_items) {
        leaf(s, laid);
        return;
    }
    it = s->sel[k];
    joker = s->is_joker[it];
    if (k > 0 && s->card[it] == s->card[s->sel[k - 1]]) {
        /* the second copy of a card: never before the first (same plans, sorted codes) */
        if (s->choice[k - 1] < 0) {
            s->choice[k] = -1;
            walk(s, k + 1, laid);
            return;
        }
        first = s->choice[k - 1];
    }
    for (o = first; o < s->n_opts[it]; o++) {
        const cc_lay_opt *op = &s->opts[it][o];
        int t = op->t;
        const cc_lay_target *g = &s->tg[t];
        s->choice[k] = o;
        s->codes[s->n_codes++] = op->code;
        if (g->kind == CC_SET) {
            if (g->count + s->added[t] < s->cap && !(joker && s->jok[t])) {
                s->added[t]++;
                s->jok[t] = (uint8_t)(s->jok[t] | joker);
                walk(s, k + 1, laid + s->pts[it]);
                s->added[t]--;
                if (joker)
                    s->jok[t] = 0;
            }
        } else if (joker) {
            if (!s->jok[t] && !((s->ext[t] >> op->stand) & 1u)) {
                s->jok[t] = 1;
                s->stand[t] = op->stand;
                walk(s, k + 1, laid + s->pts[it]);
                s->jok[t] = 0;
            }
        } else {
            unsigned bit = 1u << s->place[it];
            if (!(s->ext[t] & bit) && !(s->jok[t] && s->stand[t] == s->place[it])) {
                s->ext[t] |= bit;
                walk(s, k + 1, laid + s->pts[it]);
                s->ext[t] &= ~bit;
            }
        }
        s->n_codes--;
    }
    s->choice[k] = -1;
    walk(s, k + 1, laid);
}

/* Add an option to item n of s (bounded by CC_LAY_MAX_OPTS). O(1). */
CC_INLINE void opt_add(cc_lay_search *s, int n, int card, const cc_lay_target *g, int t,
                       int stand, int place_bit)
{
    cc_lay_opt *op;
    if (s->n_opts[n] >= CC_LAY_MAX_OPTS)
        return; /* unreachable (see CC_LAY_MAX_OPTS) */
    op = &s->opts[n][s->n_opts[n]++];
    op->code = (uint16_t)(((card * 16 + g->index) << 6) | place_bit);
    op->t = (uint8_t)t;
    op->stand = (int8_t)stand;
}

/* The item of the first copy of card c in a hand (items ascend by card, a copy held
 * twice is two items in a row), and how many copies the hand holds. O(1). */
CC_INLINE int item_of(cc_hand hand, int c, int *copies)
{
    uint64_t below = (UINT64_C(1) << c) - 1u;
    *copies = 1 + (int)((hand.twice >> c) & 1u);
    return cc_popcount(hand.once & below) + cc_popcount(hand.twice & below);
}

/* Whether any card of the hand might have an option by cc_lay_items's rules: a natural
 * card of a set's rank with room, or next to a run's places (the first of any chain
 * onto it), or a joker with a meld without one; `all`: the places of a suit. 0: none
 * has (half the opponents the search's playouts settle at 4 players), without finding
 * the items. O(targets). */
static int any_option(const cc_lay_search *s, uint64_t naturals, uint64_t nat, int jokers,
                      unsigned all)
{
    int t;
    for (t = 0; t < s->n_tg; t++) {
        const cc_lay_target *g = &s->tg[t];
        if (g->kind == CC_SET) {
            if (g->count < s->cap
                && ((jokers && !g->joker) || (naturals & (CC_LANES << (g->rank - 1))) != 0))
                return 1;
        } else {
            const unsigned next = ((g->lane << 1) | (g->lane >> 1)) & ~g->lane & all;
            if ((jokers && !g->joker) || ((unsigned)(nat >> (16 * g->suit)) & next) != 0)
                return 1;
        }
    }
    return 0;
}

/* The items of a hand (raw, valid, <= 7 cards: one per card, a copy held twice two) and
 * their options onto the targets, target by target so that each item's options come in
 * ascending code order: a natural card onto a set of its rank with room, or onto a run
 * of its suit when the places between are held (but one, when the hand holds a joker and
 * the run none); a joker onto a set without one with room, or onto a run without one at
 * each place past either end up to the first the hand lacks; then the cards with no
 * option are dropped. O(targets + options). */
void cc_lay_items(const cc_rules *rules, cc_lay_search *s, cc_hand hand)
{
    uint64_t jm = rules->joker_mask, naturals = hand.once & ~jm, jokers = hand.once & jm, m;
    uint64_t nat = cc_space_compact(rules->deck, naturals);
    const cc_lay_target *tg = s->tg;
    int deck = rules->deck, places = deck == 40 ? 10 : CC_NRANKS, n_tg = s->n_tg;
    int cap = s->cap, n, i, t, k, copies;
    uint8_t cards[2 * CC_HAND_CARDS];
    if (!any_option(s, naturals, nat, jokers != 0, (1u << places) - 1u)) {
        s->n_all = 0;
        return;
    }
    n = cc_hand_indices(hand, cards);
    s->n_all = n < CC_HAND_CARDS ? n : CC_HAND_CARDS; /* 7: the hand is valid */
    memcpy(s->card, cards, (size_t)s->n_all);
    for (i = 0; i < s->n_all; i++)
        s->n_opts[i] = 0;
    for (t = 0; t < n_tg; t++) {
        const cc_lay_target *g = &tg[t];
        if (g->kind == CC_SET) {
            if (g->count >= cap)
                continue;
            /* the natural cards of its rank, then the jokers when it holds none */
            for (m = naturals & (CC_LANES << (g->rank - 1)); m != 0; m &= m - 1) {
                int c = cc_ctz(m), it = item_of(hand, c, &copies);
                for (k = 0; k < copies; k++)
                    opt_add(s, it + k, c, g, t, -1, 0);
            }
            for (m = g->joker ? 0 : jokers; m != 0; m &= m - 1) {
                int c = cc_ctz(m), it = item_of(hand, c, &copies);
                for (k = 0; k < copies; k++)
                    opt_add(s, it + k, c, g, t, -1, 0);
            }
        } else {
            unsigned have = (unsigned)(nat >> (16 * g->suit)) & 0xFFFu;
            int lo = cc_ctz(g->lane), hi = cc_highest_bit(g->lane);
            /* the natural cards of its suit past either end */
            for (m = naturals & (UINT64_C(0xFFF) << (16 * g->suit)); m != 0; m &= m - 1) {
                int c = cc_ctz(m), p = cc_space_place(deck, c % 16 + 1), it;
                unsigned between, missing;
                if (p < lo)
                    between = ((1u << lo) - 1u) & ~((1u << (p + 1)) - 1u);
                else if (p > hi)
                    between = ((1u << p) - 1u) & ~((1u << (hi + 1)) - 1u);
                else
                    continue;
                missing = between & ~have;
                if (missing == 0 ||
                    (jokers != 0 && !g->joker && (missing & (missing - 1u)) == 0)) {
                    it = item_of(hand, c, &copies);
                    for (k = 0; k < copies; k++)
                        opt_add(s, it + k, c, g, t, -1, 0);
                }
            }
            /* the jokers, when it holds none, at each place they may stand for */
            for (m = g->joker ? 0 : jokers; m != 0; m &= m - 1) {
                int c = cc_ctz(m), it = item_of(hand, c, &copies), q, qlo = lo - 1;
                int base = 16 * g->suit - 1; /* + a rank: the bit of the card stood for */
                while (qlo > 0 && ((have >> qlo) & 1u))
                    qlo--; /* below: past the natural cards held next to the run */
                for (k = 0; k < copies; k++) {
                    for (q = qlo < 0 ? 0 : qlo; q < lo; q++)
                        opt_add(s, it + k, c, g, t, q, base + cc_space_rank(deck, q));
                    for (q = hi + 1; q < places; q++) {
                        opt_add(s, it + k, c, g, t, q, base + cc_space_rank(deck, q));
                        if (!((have >> q) & 1u))
                            break;
                    }
                }
            }
        }
    }
    /* keep the cards with somewhere to go, in order */
    for (i = 0, n = 0; i < s->n_all; i++) {
        int c = s->card[i], joker = (int)((jm >> c) & 1u);
        if (s->n_opts[i] == 0)
            continue;
        if (n < i) {
            s->card[n] = (uint8_t)c;
            s->n_opts[n] = s->n_opts[i];
            memcpy(s->opts[n], s->opts[i], (size_t)s->n_opts[i] * sizeof s->opts[i][0]);
        }
        s->is_joker[n] = (uint8_t)joker;
        s->pts[n] = joker ? rules->joker_points : rules->points[c % 16];
        s->place[n] = (int8_t)(joker ? -1 : cc_space_place(deck, c % 16 + 1));
        n++;
    }
    s->n_all = n;
}

/* Select the items of the cards of rest (within the hand of cc_lay_items): a card held once
 * in rest keeps the first of its items. Returns the points they hold (suffix[0]).
 * O(items). */
int cc_lay_select(cc_lay_search *s, cc_hand rest)
{
    int i, k;
    s->n_items = 0;
    for (i = 0; i < s->n_all; i++) {
        int c = s->card[i], second = i > 0 && s->card[i - 1] == c;
        if ((((second ? rest.twice : rest.once) >> c) & 1u) != 0)
            s->sel[s->n_items++] = (uint8_t)i;
    }
    s->suffix[s->n_items] = 0;
    for (k = s->n_items - 1; k >= 0; k--)
        s->suffix[k] = s->suffix[k + 1] + s->pts[s->sel[k]];
    return s->suffix[0];
}

/* The best lay-off plan of the selected items onto the targets: the most points laid,
 * then the smallest key. Returns the points laid; the plan is in s (best_*). */
int cc_lay_best(cc_lay_search *s)
{
    s->best_laid = 0;
    s->best_n = 0;
    s->n_codes = 0;
    if (s->n_items == 0)
        return 0;
    memset(s->added, 0, sizeof s->added);
    memset(s->jok, 0, sizeof s->jok);
    memset(s->ext, 0, sizeof s->ext);
    walk(s, 0, 0);
    return s->best_laid;
}
