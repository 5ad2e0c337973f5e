/*
 * settle.c -- settlement of a closed hand (SPEC section 4): the closer's melds, then
 * each opponent's optimal own melds and lay-offs onto the table, exhaustively.
 *
 * Each opponent's plan is chosen by the key of docs/design.md: every collection of own
 * melds (a run may be taken twice with two decks), and for the cards left every legal
 * lay-off plan (a depth-first search that assigns each card to one open table meld or
 * to none, then checks that every run stays one contiguous block), the best by
 * (points, -own melded cards, own melds, own meld keys, sorted (card, meld) pairs).
 * Fixed-size arrays only; nothing is allocated. The meld enumeration and meld keys are
 * the core's public functions; the hand operations are hand.h's, the closing outcome
 * melds.h's.
 */
#include "chinchon.h"

#include <string.h>

#include "base/bits.h"
#include "base/hand.h"
#include "melds/melds.h"
#include "settle/settle.h"
#include "jokers/variants.h"

#define LANE_BITS 16
#define RANK_MASK 0x0FFFu

/* ------------------------------------------------------------------ lay-off search */

typedef struct target {
    uint8_t index;  /* table meld index */
    uint8_t kind;   /* CC_SET / CC_RUN */
    uint8_t suit;   /* run: its suit */
    uint8_t rank;   /* set: its rank (0-based) */
    unsigned lane;  /* run: its rank bits */
} target;

typedef struct search {
    /* the cards that may be laid off, ascending, and where each may go */
    int n_items;
    uint8_t card[CC_HAND_CARDS];
    uint8_t points[CC_HAND_CARDS];
    uint8_t n_opts[CC_HAND_CARDS];
    uint8_t opts[CC_HAND_CARDS][CC_MAX_TABLE]; /* indices into targets[] */
    int suffix[CC_HAND_CARDS + 1];             /* points of items k.. */
    const target *targets;
    int n_targets;
    /* the state of the walk */
    unsigned ext[CC_MAX_TABLE]; /* rank bits laid on each run target */
    int8_t choice[CC_HAND_CARDS];
    /* the best plan so far */
    int best_laid;
    int best_n;
    uint16_t best_codes[CC_HAND_CARDS]; /* sorted card * 16 + table index */
} search;

/* Compare two sorted lay-off code lists as Python tuples (a proper prefix is smaller):
 * <0, 0, >0. O(length). */
static int codes_compare(const uint16_t *a, int na, const uint16_t *b, int nb)
{
    int i;
    for (i = 0; i < na && i < nb; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return (na > nb) - (na < nb);
}

/* Whether every run target, with the cards the walk has laid on it, is still one
 * block of consecutive ranks. O(targets). */
static int runs_contiguous(const search *s)
{
    int t;
    for (t = 0; t < s->n_targets; t++) {
        if (s->targets[t].kind == CC_RUN && s->ext[t]) {
            unsigned m = s->targets[t].lane | s->ext[t];
            m >>= cc_ctz(m);
            if (m & (m + 1u))
                return 0;
        }
    }
    return 1;
}

/* At a leaf of the walk: if the plan is legal and better than the best so far (more
 * points laid, else the smaller sorted code list), keep it. O(items). */
static void record_leaf(search *s, int laid)
{
    uint16_t codes[CC_HAND_CARDS];
    int n = 0, k, i;
    if (!runs_contiguous(s))
        return;
    for (k = 0; k < s->n_items; k++) {
        if (s->choice[k] >= 0) {
            uint16_t c = (uint16_t)(s->card[k] * 16 + s->targets[s->choice[k]].index);
            /* items ascend by card; only copies of one card can be out of order */
            for (i = n; i > 0 && codes[i - 1] > c; i--)
                codes[i] = codes[i - 1];
            codes[i] = c;
            n++;
        }
    }
    if (laid > s->best_laid ||
        codes_compare(codes, n, s->best_codes, s->best_n) < 0) {
        s->best_laid = laid;
        s->best_n = n;
        memcpy(s->best_codes, codes, (size_t)n * sizeof codes[0]);
    }
}

/* Depth-first over the items: each goes onto one of its targets or stays. Prunes
 * branches that cannot reach the best laid points so far. O(prod(options + 1)). */
static void walk(search *s, int k, int laid)
{
    int o;
    if (laid + s->suffix[k] < s->best_laid)
        return;
    if (k == s->n_items) {
        if (laid >= s->best_laid)
            record_leaf(s, laid);
        return;
    }
    for (o = 0; o < s->n_opts[k]; o++) {
        int t = s->opts[k][o];
        const target *tg = &s->targets[t];
        if (tg->kind == CC_RUN) {
            unsigned bit = 1u << (s->card[k] % LANE_BITS);
            if (s->ext[t] & bit)
                continue; /* the other copy is already on this run */
            s->ext[t] |= bit;
            s->choice[k] = (int8_t)t;
            walk(s, k + 1, laid + s->points[k]);
            s->ext[t] &= ~bit;
        } else {
            s->choice[k] = (int8_t)t;
            walk(s, k + 1, laid + s->points[k]);
        }
    }
    s->choice[k] = -1;
    walk(s, k + 1, laid);
}

/* The targets card c of rest may go onto, into opts: a set of its rank, or a run of
 * its suit that the other cards of rest can extend to reach c. Returns how many.
 * O(targets). */
static int layoff_options(cc_hand rest, int c, const target *targets, int n_targets,
                          uint8_t *opts)
{
    int suit = c / LANE_BITS, rank = c % LANE_BITS, no = 0, t;
    unsigned have = (unsigned)(rest.once >> (LANE_BITS * suit)) & RANK_MASK;
    for (t = 0; t < n_targets; t++) {
        const target *tg = &targets[t];
        if (tg->kind == CC_SET) {
            if (tg->rank == rank)
                opts[no++] = (uint8_t)t;
        } else if (tg->suit == suit) {
            int lo = cc_ctz(tg->lane), hi = cc_highest_bit(tg->lane);
            unsigned need;
            if (rank < lo)
                need = ((1u << lo) - 1u) & ~((1u << rank) - 1u); /* rank..lo-1 */
            else if (rank > hi)
                need = ((1u << (rank + 1)) - 1u) & ~((1u << (hi + 1)) - 1u);
            else
                continue;
            if ((have & need) == need)
                opts[no++] = (uint8_t)t;
        }
    }
    return no;
}

/* Best lay-off plan of the cards rest onto the targets: the most points laid, then the
 * smallest sorted (card, meld) tuple. Returns the points laid; codes in s.
 * O(cards * targets) to list the options, then the walk. */
static int best_layoffs(const cc_rules *rules, cc_hand rest, const target *targets,
                        int n_targets, search *s)
{
    uint8_t cards[CC_HAND_CARDS];
    int n = cc_hand_indices(rest, cards), i, k;
    s->n_items = 0;
    s->targets = targets;
    s->n_targets = n_targets;
    s->best_laid = 0;
    s->best_n = 0;
    if (n_targets == 0)
        return 0;
    for (i = 0; i < n; i++) {
        int no = layoff_options(rest, cards[i], targets, n_targets, s->opts[s->n_items]);
        if (no) {
            s->card[s->n_items] = cards[i];
            s->points[s->n_items] = rules->points[cards[i] % LANE_BITS];
            s->n_opts[s->n_items] = (uint8_t)no;
            s->n_items++;
        }
    }
    s->suffix[s->n_items] = 0;
    for (k = s->n_items - 1; k >= 0; k--)
        s->suffix[k] = s->suffix[k + 1] + s->points[k];
    memset(s->ext, 0, sizeof s->ext);
    walk(s, 0, 0);
    return s->best_laid;
}

/* ------------------------------------------------------------------ one seat's plan */

typedef struct plan {
    int points;    /* of the cards neither in own melds nor laid off */
    int own_cards; /* cards in own melds */
    int n_own;
    cc_meld own[CC_MAX_MELDS]; /* ascending key order */
    cc_hand rest;              /* cards not in own melds */
    int n_codes;
    uint16_t codes[CC_HAND_CARDS]; /* lay-offs, card * 16 + table index, sorted */
} plan;

/* The design.md key, lexicographically: negative when a is better.
 * O(cards). */
static int plan_compare(const plan *a, const plan *b)
{
    int i, c;
    if (a->points != b->points)
        return a->points < b->points ? -1 : 1;
    if (a->own_cards != b->own_cards)
        return a->own_cards > b->own_cards ? -1 : 1;
    if (a->n_own != b->n_own)
        return a->n_own < b->n_own ? -1 : 1;
    for (i = 0; i < a->n_own; i++) {
        c = cc_meld_key_compare(a->own[i].cards, b->own[i].cards);
        if (c)
            return c;
    }
    return codes_compare(a->codes, a->n_codes, b->codes, b->n_codes);
}

/* The plan of hand with own melds own[0..n_own) and the best lay-offs of the rest;
 * it replaces *best when better (or when there is none yet). One lay-off search,
 * skipped when even laying off every card left could not beat *best. */
static void consider(const cc_rules *rules, cc_hand hand, const cc_meld *own, int n_own,
                     const target *targets, int n_targets, search *s, plan *best,
                     int *have_best)
{
    plan p;
    int i, rest_points, laid;
    p.n_own = n_own;
    p.rest = hand;
    /* own comes in ascending key order (candidates ascend, pairs have i <= j) */
    for (i = 0; i < n_own; i++) {
        p.own[i] = own[i];
        p.rest = cc_hand_minus(p.rest, own[i].cards);
    }
    p.own_cards = cc_hand_count(hand) - cc_hand_count(p.rest);
    rest_points = cc_hand_weight(rules, p.rest);
    /* nothing laid off can bring it level with the best: skip the search */
    if (*have_best && rest_points - (n_targets ? rest_points : 0) > best->points)
        return;
    laid = best_layoffs(rules, p.rest, targets, n_targets, s);
    p.points = rest_points - laid;
    p.n_codes = s->best_n;
    memcpy(p.codes, s->best_codes, sizeof p.codes);
    if (!*have_best || plan_compare(&p, best) < 0) {
        *best = p;
        *have_best = 1;
    }
}

/* The best plan of a hand of at most 7 cards onto the targets (none: the best_melds
 * arrangement). Every collection of own melds (<= 1 + k + k(k+1)/2 for k candidates)
 * times the lay-off search; the candidates ascend by key, which keeps each pair sorted. */
static void best_plan(const cc_rules *rules, cc_hand hand, const target *targets,
                      int n_targets, plan *best)
{
    cc_meld cand[CC_MAX_CANDIDATES], pair[2];
    search s;
    int n = cc_enumerate_melds(hand, cand, CC_MAX_CANDIDATES), i, j, have_best = 0;
    if (n > CC_MAX_CANDIDATES)
        n = CC_MAX_CANDIDATES; /* unreachable for 7 cards; keeps the bound explicit */
    memset(pair, 0, sizeof pair);
    consider(rules, hand, pair, 0, targets, n_targets, &s, best, &have_best);
    for (i = 0; i < n; i++) {
        cc_hand h1;
        if (!cc_hand_fits(cand[i].cards, hand))
            continue;
        pair[0] = cand[i];
        consider(rules, hand, pair, 1, targets, n_targets, &s, best, &have_best);
        h1 = cc_hand_minus(hand, cand[i].cards);
        if (cc_hand_count(h1) < 3)
            continue;
        for (j = i; j < n; j++) {
            if (!cc_hand_fits(cand[j].cards, h1))
                continue;
            pair[1] = cand[j];
            consider(rules, hand, pair, 2, targets, n_targets, &s, best, &have_best);
        }
    }
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

/* ------------------------------------------------------------------ the settlement */

/* A seat's melds, unmatched cards and points from its plan (lay-offs: none yet).
 * O(1). */
static void seat_from_plan(const plan *p, cc_seat_result *r)
{
    int i;
    r->n_melds = p->n_own;
    for (i = 0; i < p->n_own; i++)
        r->melds[i] = p->own[i];
    r->unmatched = p->rest;
    r->points = p->points;
    r->n_layoffs = 0;
}

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
    }
}

/* The table melds open to lay-offs, as search targets (none on chinchon).
 * O(table). Returns how many. */
static int open_targets(const cc_settlement *out, target *targets)
{
    int i, n = 0;
    if (out->outcome == CC_CHINCHON)
        return 0;
    for (i = 0; i < out->n_table; i++) {
        const cc_table_meld *t = &out->table[i];
        target *tg;
        if (!t->open)
            continue;
        tg = &targets[n++];
        tg->index = (uint8_t)i;
        tg->kind = t->kind;
        tg->rank = (uint8_t)(cc_ctz(t->cards.once) % LANE_BITS);
        tg->suit = (uint8_t)(cc_ctz(t->cards.once) / LANE_BITS);
        tg->lane = (unsigned)(t->cards.once >> (LANE_BITS * tg->suit)) & RANK_MASK;
    }
    return n;
}

/* Sort key of a lay-off in the order applied (docs/design.md): by table meld; a set's
 * cards ascending; a run's cards below it outward (descending), then above (ascending).
 * O(1). */
static int applied_order(const cc_table_meld *table, cc_layoff l)
{
    int below = 0, card = l.card;
    if (table[l.meld].kind == CC_RUN) {
        int lowest = cc_ctz(table[l.meld].cards.once);
        below = card < lowest;
    }
    return (l.meld << 8) | (below ? 63 - card : 64 + card);
}

/* A seat's lay-offs from its plan's codes: listed in the order applied, taken out of
 * its unmatched cards, then added to the table melds. O(lay-offs^2), <= 7 of them. */
static void apply_layoffs(const plan *p, cc_settlement *out, cc_seat_result *r)
{
    int i, j;
    for (i = 0; i < p->n_codes; i++) {
        cc_layoff l;
        l.card = (uint8_t)(p->codes[i] >> 4);
        l.meld = (uint8_t)(p->codes[i] & 15u);
        for (j = r->n_layoffs; j > 0 && applied_order(out->table, r->layoffs[j - 1]) >
                                           applied_order(out->table, l); j--)
            r->layoffs[j] = r->layoffs[j - 1];
        r->layoffs[j] = l;
        r->n_layoffs++;
        r->unmatched = cc_hand_remove_once(r->unmatched, UINT64_C(1) << l.card);
    }
    for (i = 0; i < r->n_layoffs; i++) {
        cc_table_meld *t = &out->table[r->layoffs[i].meld];
        t->cards = cc_hand_add(t->cards, r->layoffs[i].card);
    }
}

/* The closer's side: best arrangement, outcome, points, melds on the table (closed to
 * lay-offs on minus ten). CC_ERR_CANNOT_CLOSE over the close limit. One meld search. */
static cc_status settle_closer(const cc_rules *rules, cc_hand closer, cc_settlement *out)
{
    plan p;
    cc_outcome outcome;
    best_plan(rules, closer, NULL, 0, &p);
    seat_from_plan(&p, &out->closer);
    out->deadwood = p.points; /* no targets: the exact deadwood */
    outcome = cc_outcome_of(rules, closer.once, closer.twice, p.points);
    out->outcome = (uint8_t)outcome;
    if (outcome == CC_CANNOT_CLOSE)
        return CC_ERR_CANNOT_CLOSE;
    out->closer.points = outcome == CC_NORMAL ? p.points
                         : outcome == CC_MINUS_TEN ? -rules->minus_ten : 0;
    out->points[0] = out->closer.points;
    lay_melds(out, &out->closer, 0, outcome != CC_MINUS_TEN);
    return CC_OK;
}

/* Opponent k's side onto the table as it stands: best plan, its lay-offs applied, its
 * own melds added (open). One plan search (the bulk of cc_settle's time). */
static void settle_opponent(const cc_rules *rules, int k, cc_hand hand, cc_settlement *out)
{
    cc_seat_result *r = &out->opponents[k - 1];
    target targets[CC_MAX_TABLE];
    int n_targets = open_targets(out, targets);
    plan p;
    best_plan(rules, hand, targets, n_targets, &p);
    seat_from_plan(&p, r);
    apply_layoffs(&p, out, r);
    if (out->outcome == CC_CHINCHON)
        r->points = 0;
    out->points[k] = r->points;
    lay_melds(out, r, k, 1);
}

/* Settle a closed hand: check the arguments and the deal, then the closer, then each
 * opponent in play order. A few microseconds (see chinchon.h). */
cc_status cc_settle(const cc_rules *rules, cc_hand closer, const cc_hand *opponents,
                    int n_opponents, int decks, cc_settlement *out)
{
    cc_status st;
    int k;
    if (out == NULL)
        return CC_ERR_BAD_ARGUMENT;
    memset(out, 0, sizeof *out);
    out->bad_seat = -1;
    out->bad_card = -1;
    if (rules == NULL || opponents == NULL || n_opponents < 1 ||
        n_opponents > CC_MAX_OPPONENTS || decks < 0 || decks > 2)
        return CC_ERR_BAD_ARGUMENT;
    st = check_deal(rules, closer, opponents, n_opponents, &decks, out);
    if (st != CC_OK)
        return st;
    out->decks = decks;
    out->n_opponents = n_opponents;
    if (!rules->plain) /* jokers, 40 cards, seven_run_wins off: settle_variants.c */
        return cc_var_settle(rules, closer, opponents, n_opponents, out);
    st = settle_closer(rules, closer, out);
    if (st != CC_OK)
        return st;
    for (k = 1; k <= n_opponents; k++)
        settle_opponent(rules, k, opponents[k - 1], out);
    return CC_OK;
}
