/*
 * settle.c -- the settlement of a closed hand under every rule set
 * (docs/rules.md#laying-off, #laying-off-with-jokers, #which-plan-is-reported): the
 * closer's melds, then each opponent's optimal own melds and lay-offs onto the table, exhaustively. One search for the house rules and the
 * variants alike: jokers, the 40-card deck's run order, other point tables, the closes of
 * seven_run_wins and joker_chinchon.
 *
 * The closer's arrangement and outcome, and an opponent's arrangement when nothing is
 * open to lay off onto, are variants.c's (cc_var_arrange, cc_var_outcome: the house
 * kernels when the hand holds no joker). Each other opponent's plan is chosen by the key
 * of docs/rules.md#which-plan-is-reported -- the fewest points left, then the most cards in own melds, the
 * fewest own melds, the smallest own meld keys, the smallest sorted lay-off codes -- over
 * every collection of own melds (variants.c's candidate melds of the hand, jokers
 * included; at most two of them in 7 cards, the same one twice when held twice) and, for
 * the cards left, every legal lay-off plan (settle_layoffs.c, whose header says how the
 * walk, its codes and its bounds work). Where each card may go is worked out once per
 * hand; each collection of own melds walks the items of the cards it leaves, and is
 * skipped when even laying off all of them would not beat the best plan so far. Meld
 * keys are packed into two words that compare as the tuples do; each pair of own melds
 * is put in ascending key order as it is formed (no sort).
 *
 * Fixed-size arrays only; nothing is allocated.
 */
#include "chinchon.h"

#include <string.h>

#include "base/bits.h"
#include "base/hand.h"
#include "settle/settle.h"
#include "settle/settle_layoffs.h"
#include "jokers/variants.h"

/* ------------------------------------------------------------------ one seat's plan */

/* A candidate own meld: the cc_meld (raw bits, the joker's included), its card count
 * and its packed key (variants.h, cc_vcand). */
typedef struct own_meld {
    cc_meld m;
    uint8_t cnt;
    uint64_t key[2];
} own_meld;

/* The candidate own melds of a valid hand (variants.c's lister), with the set capacity
 * of decks. Returns how many. O(candidates). */
static int own_candidates(const cc_rules *rules, cc_hand hand, int decks, own_meld *out)
{
    cc_vhand v;
    cc_vcand c[CC_VAR_MAX_CAND];
    int n, i;
    cc_var_split(rules, hand, decks, &v);
    n = cc_var_candidates(rules, &v, c);
    for (i = 0; i < n; i++) {
        out[i].m = cc_var_raw_meld(rules, &c[i]);
        out[i].cnt = c[i].cnt;
        out[i].key[0] = c[i].key[0];
        out[i].key[1] = c[i].key[1];
    }
    return n;
}

typedef struct plan {
    int points;    /* of the cards neither in own melds nor laid off */
    int own_cards; /* cards in own melds, jokers counted */
    int n_own;
    own_meld own[CC_MAX_MELDS]; /* ascending key order */
    cc_hand rest;               /* cards not in own melds */
    int n_codes;
    uint16_t codes[CC_HAND_CARDS]; /* the lay-off codes, ascending (settle_layoffs.h) */
    /* the lay-offs: card, target, a run joker's place */
    uint8_t lay_card[CC_HAND_CARDS];
    uint8_t lay_t[CC_HAND_CARDS];
    int8_t lay_stand[CC_HAND_CARDS];
} plan;

/* Rules 2-4 of the plan key for own melds own[0..n) with own_cards cards against plan
 * b: negative when they are better. O(melds). */
static int own_compare(const own_meld *const *own, int n, int own_cards, const plan *b)
{
    int i, c;
    if (own_cards != b->own_cards)
        return own_cards > b->own_cards ? -1 : 1;
    if (n != b->n_own)
        return n < b->n_own ? -1 : 1;
    for (i = 0; i < n; i++) {
        c = cc_var_key_cmp(own[i]->key, b->own[i].key);
        if (c)
            return c;
    }
    return 0;
}

/* Compare two sorted code lists as Python tuples (a proper prefix is smaller): <0, 0,
 * >0. O(length). */
static int codes_compare(const uint16_t *a, int na, const uint16_t *b, int nb)
{
    int i;
    for (i = 0; i < na && i < nb; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return (na > nb) - (na < nb);
}

/* One opponent's plan search: the hand, the lay-off search over the targets, the best
 * plan so far. */
typedef struct seat {
    const cc_rules *rules;
    cc_hand hand;
    int hand_cards;
    cc_lay_search s;
    plan best;
    int have_best;
} seat;

/* The plan with own melds own[0..n) (ascending key order) and the best lay-offs of the
 * rest; it replaces the best when better. Skipped when laying off every card left that
 * has somewhere to go could not beat the best. One lay-off search at most. */
static void consider(seat *z, const own_meld *const *own, int n)
{
    cc_hand rest = z->hand;
    int i, rest_points, bound, own_cards, laid, points, c;
    for (i = 0; i < n; i++)
        rest = cc_hand_minus(rest, own[i]->m.cards);
    own_cards = z->hand_cards - cc_hand_count(rest);
    rest_points = cc_hand_weight_any(z->rules, rest);
    bound = rest_points - cc_lay_select(&z->s, rest);
    if (z->have_best && (bound > z->best.points ||
                         (bound == z->best.points &&
                          own_compare(own, n, own_cards, &z->best) >= 0)))
        return;
    laid = cc_lay_best(&z->s);
    points = rest_points - laid;
    if (z->have_best) {
        if (points != z->best.points) {
            if (points > z->best.points)
                return;
        } else {
            c = own_compare(own, n, own_cards, &z->best);
            if (c > 0 || (c == 0 && codes_compare(z->s.best_codes, z->s.best_n, z->best.codes,
                                                  z->best.n_codes) >= 0))
                return;
        }
    }
    z->have_best = 1;
    z->best.points = points;
    z->best.own_cards = own_cards;
    z->best.n_own = n;
    for (i = 0; i < n; i++)
        z->best.own[i] = *own[i];
    z->best.rest = rest;
    z->best.n_codes = z->s.best_n;
    memcpy(z->best.codes, z->s.best_codes, sizeof z->best.codes);
    c = 0;
    for (i = 0; i < z->s.n_items && z->s.best_n > 0; i++) {
        int o = z->s.best_choice[i], it = z->s.sel[i];
        if (o >= 0) {
            z->best.lay_card[c] = z->s.card[it];
            z->best.lay_t[c] = z->s.opts[it][o].t;
            z->best.lay_stand[c] = z->s.opts[it][o].stand;
            c++;
        }
    }
}

/* The best plan of a 7-card hand onto the targets of z->s, its items already found
 * (cc_lay_items): every collection of own melds (none, one, two -- the same one twice
 * when the hand holds it twice), each pair put in ascending key order.
 * <= 1 + k + k(k+1)/2 lay-off searches for k candidates. */
static void best_plan(seat *z, int decks)
{
    own_meld cand[CC_VAR_MAX_CAND];
    const own_meld *pair[CC_MAX_MELDS] = {NULL, NULL};
    int n = own_candidates(z->rules, z->hand, decks, cand), i, j;
    z->have_best = 0;
    consider(z, pair, 0);
    for (i = 0; i < n; i++) {
        cc_hand h1 = cc_hand_minus(z->hand, cand[i].m.cards);
        pair[0] = &cand[i];
        consider(z, pair, 1);
        if (cc_hand_count(h1) < 3)
            continue;
        for (j = i; j < n; j++) {
            if (!cc_hand_fits(cand[j].m.cards, h1))
                continue;
            pair[0] = &cand[i];
            pair[1] = &cand[j];
            if (cc_var_key_cmp(pair[0]->key, pair[1]->key) > 0) {
                pair[0] = &cand[j];
                pair[1] = &cand[i];
            }
            consider(z, pair, 2);
        }
    }
}

/* ------------------------------------------------------------------ the table */

/* Put a seat's own melds on the table, owned by `owner`, open to lay-offs or not.
 * O(melds). */
static void lay_melds(cc_settlement *out, const cc_seat_result *r, int owner, int open)
{
    int i;
    for (i = 0; i < r->n_melds; i++) {
        cc_table_meld *t = &out->table[out->n_table++];
        t->cards = r->melds[i].cards;
        t->kind = r->melds[i].kind;
        t->owner = (uint8_t)owner;
        t->open = (uint8_t)open;
        t->joker = r->melds[i].joker;
        t->joker_rank = r->melds[i].joker_rank;
    }
}

/* The table melds open to lay-offs, as targets (none on chinchon). O(table). Returns
 * how many. */
static int open_targets(const cc_rules *rules, const cc_settlement *out, cc_lay_target *tg)
{
    int i, n = 0;
    if (out->outcome == CC_CHINCHON)
        return 0;
    for (i = 0; i < out->n_table; i++) {
        const cc_table_meld *t = &out->table[i];
        uint64_t naturals = t->cards.once & ~(t->joker_rank ? UINT64_C(1) << t->joker : 0);
        cc_lay_target *g;
        if (!t->open)
            continue;
        g = &tg[n++];
        g->index = (uint8_t)i;
        g->kind = t->kind;
        g->joker = t->joker_rank != 0;
        g->count = (uint8_t)cc_hand_count(t->cards);
        g->suit = (uint8_t)(cc_ctz(naturals) / 16);
        g->rank = (uint8_t)(cc_ctz(naturals) % 16 + 1);
        g->lane = 0;
        if (t->kind == CC_RUN) {
            g->lane = (unsigned)(cc_space_compact(rules->deck, naturals) >> (16 * g->suit)) &
                      0xFFFu;
            if (g->joker)
                g->lane |= 1u << cc_space_place(rules->deck, t->joker_rank);
        }
    }
    return n;
}

/* Sort key of a lay-off in the order applied (docs/rules.md#which-plan-is-reported): by table meld; on a set
 * its natural cards ascending, then the joker; on a run the places below it outward,
 * then those above it outward. O(1). */
static int applied_order(const cc_rules *rules, const cc_lay_target *g, int card, int stand)
{
    int sub;
    if (g->kind == CC_SET) {
        sub = ((rules->joker_mask >> card) & 1u) ? 127 : card;
    } else {
        int place = stand >= 0 ? stand : cc_space_place(rules->deck, card % 16 + 1);
        sub = place < cc_ctz(g->lane) ? 32 + (15 - place) : 64 + place;
    }
    return (g->index << 8) | sub;
}

/* ------------------------------------------------------------------ the seats */

/* A seat's melds, unmatched cards and points from an arrangement (no lay-offs).
 * O(1). */
static void seat_from_arrangement(const cc_arrangement *a, cc_seat_result *r)
{
    int i;
    r->n_melds = a->n_melds;
    for (i = 0; i < a->n_melds; i++)
        r->melds[i] = a->melds[i];
    r->unmatched = a->unmatched;
    r->points = a->points;
    r->n_layoffs = 0;
}

/* A seat's side from its plan: own melds, lay-offs listed in the order applied and taken
 * out of its unmatched cards, then added to the table melds (a joker laid off becomes
 * its meld's joker). O(lay-offs^2), <= 7 of them. */
static void seat_from_plan(const cc_rules *rules, const plan *p, const cc_lay_target *tg,
                           cc_settlement *out, cc_seat_result *r)
{
    int order[CC_HAND_CARDS], i, j;
    r->n_melds = p->n_own;
    for (i = 0; i < p->n_own; i++)
        r->melds[i] = p->own[i].m;
    r->unmatched = p->rest;
    r->points = p->points;
    r->n_layoffs = p->n_codes;
    for (i = 0; i < p->n_codes; i++) {
        const cc_lay_target *g = &tg[p->lay_t[i]];
        int key = applied_order(rules, g, p->lay_card[i], p->lay_stand[i]);
        for (j = i; j > 0 && order[j - 1] > key; j--) {
            order[j] = order[j - 1];
            r->layoffs[j] = r->layoffs[j - 1];
        }
        order[j] = key;
        r->layoffs[j].card = p->lay_card[i];
        r->layoffs[j].meld = g->index;
    }
    for (i = 0; i < p->n_codes; i++) {
        const cc_lay_target *g = &tg[p->lay_t[i]];
        cc_table_meld *t = &out->table[g->index];
        int card = p->lay_card[i];
        r->unmatched = cc_hand_remove_once(r->unmatched, UINT64_C(1) << card);
        t->cards = cc_hand_add(t->cards, card);
        if ((rules->joker_mask >> card) & 1u) {
            t->joker = (uint8_t)card;
            t->joker_rank = (uint8_t)(g->kind == CC_SET
                                          ? g->rank
                                          : cc_space_rank(rules->deck, p->lay_stand[i]));
        }
    }
}

/* The closer's side: best arrangement, outcome, points, melds on the table (closed to
 * lay-offs on minus ten and joker chinchon). CC_ERR_CANNOT_CLOSE over the close limit
 * (the closer's side and deadwood set). One arrangement. */
static cc_status settle_closer(const cc_rules *rules, cc_hand closer, cc_settlement *out)
{
    cc_arrangement a;
    cc_outcome outcome;
    cc_var_arrange(rules, closer, out->decks, &a);
    seat_from_arrangement(&a, &out->closer);
    out->deadwood = a.points;
    outcome = cc_var_outcome(rules, closer, a.points);
    out->outcome = (uint8_t)outcome;
    if (outcome == CC_CANNOT_CLOSE)
        return CC_ERR_CANNOT_CLOSE;
    out->closer.points = outcome == CC_NORMAL           ? a.points
                         : outcome == CC_MINUS_TEN      ? -rules->minus_ten
                         : outcome == CC_JOKER_CHINCHON ? -rules->joker_chinchon
                                                        : 0;
    out->points[0] = out->closer.points;
    lay_melds(out, &out->closer, 0, outcome != CC_MINUS_TEN && outcome != CC_JOKER_CHINCHON);
    return CC_OK;
}

/* Opponent k's side onto the table as it stands: their plan, its lay-offs applied, their
 * own melds added (open). One plan search (the bulk of cc_settle's time), or one
 * arrangement when no card of the hand has a table meld open to it. */
static void settle_opponent(const cc_rules *rules, int k, cc_hand hand, cc_settlement *out)
{
    cc_seat_result *r = &out->opponents[k - 1];
    cc_lay_target tg[CC_MAX_TABLE];
    seat z;
    z.s.n_tg = open_targets(rules, out, tg);
    z.s.n_all = 0;
    if (z.s.n_tg > 0) {
        z.s.cap = 4 * out->decks;
        z.s.tg = tg;
        cc_lay_items(rules, &z.s, hand);
    }
    if (z.s.n_all == 0) {
        /* nothing to lay off onto, or no card with somewhere to go: the best arrangement
         * (every plan lays nothing, and the plan key reduces to the arrangement's) */
        cc_arrangement a;
        cc_var_arrange(rules, hand, out->decks, &a);
        seat_from_arrangement(&a, r);
        if (out->outcome == CC_CHINCHON)
            r->points = 0;
    } else {
        z.rules = rules;
        z.hand = hand;
        z.hand_cards = cc_hand_count(hand);
        best_plan(&z, out->decks);
        seat_from_plan(rules, &z.best, tg, out, r);
    }
    out->points[k] = r->points;
    lay_melds(out, r, k, 1);
}

/* The closer, then each opponent in play order (settle.h). */
cc_status cc_settle_deal(const cc_rules *rules, cc_hand closer, const cc_hand *opponents,
                         int n_opponents, cc_settlement *out)
{
    int k;
    cc_status st = settle_closer(rules, closer, out);
    if (st != CC_OK)
        return st;
    for (k = 1; k <= n_opponents; k++)
        settle_opponent(rules, k, opponents[k - 1], out);
    return CC_OK;
}

/* ------------------------------------------------------------------ the deal */

/* The hand of a seat: 0 the closer, k the k-th opponent.
 * O(1). */
static cc_hand seat_hand(cc_hand closer, const cc_hand *opponents, int seat)
{
    return seat == 0 ? closer : opponents[seat - 1];
}

/* The first seat whose hand brings card bit to `copies` copies, counting the seats in
 * order (the holder of a card's second or third copy). O(seats). */
static int seat_reaching(uint64_t bit, int copies, cc_hand closer, const cc_hand *opponents,
                         int n_opponents)
{
    int seat, held = 0;
    for (seat = 0; seat <= n_opponents; seat++) {
        cc_hand h = seat_hand(closer, opponents, seat);
        held += ((h.once & bit) != 0) + ((h.twice & bit) != 0);
        if (held >= copies)
            return seat;
    }
    return -1; /* unreachable: the caller saw the copies */
}

/* Check a deal: each hand 7 valid cards (under rules that are not plain: cards of the
 * rules' deck), no card three times, none twice with one deck (decks 0: inferred here).
 * On a bad deal, bad_seat and bad_card say where. O(seats). */
static cc_status check_deal(const cc_rules *rules, cc_hand closer, const cc_hand *opponents,
                            int n_opponents, int *decks, cc_settlement *out)
{
    uint64_t acc_once = 0, acc_twice = 0, bit;
    int seat, n;
    for (seat = 0; seat <= n_opponents; seat++) {
        cc_hand h = seat_hand(closer, opponents, seat);
        cc_status st = rules->plain
                           ? cc_hand_status(h, CC_ANY_COUNT, CC_HAND_CARDS, &n)
                           : cc_var_status(rules, h, CC_ANY_COUNT, CC_HAND_CARDS, &n);
        if (st != CC_OK) {
            out->bad_seat = seat;
            return st;
        }
    }
    for (seat = 0; seat <= n_opponents; seat++) {
        cc_hand h = seat_hand(closer, opponents, seat);
        uint64_t three = (acc_twice & h.once) | (acc_once & h.twice);
        if (three) {
            out->bad_seat = seat;
            out->bad_card = cc_ctz(three);
            return CC_ERR_THREE_COPIES;
        }
        acc_twice |= (acc_once & h.once) | h.twice;
        acc_once |= h.once;
    }
    if (*decks == 0)
        *decks = (acc_twice || n_opponents >= 4) ? 2 : 1;
    if (*decks == 1 && acc_twice) {
        bit = acc_twice & (~acc_twice + 1);
        out->bad_card = cc_ctz(bit);
        out->bad_seat = seat_reaching(bit, 2, closer, opponents, n_opponents);
        return CC_ERR_DUPLICATE;
    }
    return CC_OK;
}

/* Settle a closed hand whose arguments are in range (settle.h): check the deal, then
 * the closer, then each opponent in play order. A few microseconds (see chinchon.h). */
cc_status cc_settle_run(const cc_rules *rules, cc_hand closer, const cc_hand *opponents,
                        int n_opponents, int decks, cc_settlement *out)
{
    cc_status st;
    memset(out, 0, sizeof *out);
    out->bad_seat = -1;
    out->bad_card = -1;
    st = check_deal(rules, closer, opponents, n_opponents, &decks, out);
    if (st != CC_OK)
        return st;
    out->decks = decks;
    out->n_opponents = n_opponents;
    return cc_settle_deal(rules, closer, opponents, n_opponents, out);
}
