/*
 * settle.c -- settlement of a closed hand (SPEC section 4): the closer's melds, then
 * each opponent's optimal own melds and lay-offs onto the table, exhaustively.
 *
 * Each opponent's plan is chosen by the key of docs/design.md: every collection of own
 * melds (a run may be taken twice with two decks), and for the cards left every legal
 * lay-off plan (a depth-first search that assigns each card to one open table meld or
 * to none, then checks that every run stays one contiguous block), the best by
 * (points, -own melded cards, own melds, own meld keys, sorted (card, meld) pairs).
 * Fixed-size arrays only; nothing is allocated. The meld enumeration, meld keys, hand
 * points, hand validation and closing outcome are the core's (cards.c, melds.c); the
 * bit helpers are bits.h's.
 */
#include "chinchon.h"

#include <string.h>

#include "bits.h"

#define LANE_BITS 16
#define RANK_MASK 0x0FFFu

static int hand_count(cc_hand h) { return cc_popcount(h.once) + cc_popcount(h.twice); }

/* Multiset inclusion and difference of two hands (a subset of b). O(1). */
static int hand_fits(cc_hand a, cc_hand b)
{
    return (a.once & ~b.once) == 0 && (a.twice & ~b.twice) == 0;
}

static cc_hand hand_remove_once(cc_hand h, uint64_t x) /* x subset of h.once */
{
    cc_hand r;
    r.twice = h.twice & ~x;
    r.once = h.once & ~(x & ~h.twice);
    return r;
}

static cc_hand hand_minus(cc_hand h, cc_hand m)
{
    return hand_remove_once(hand_remove_once(h, m.once), m.twice);
}

static cc_hand hand_add_card(cc_hand h, int card)
{
    uint64_t b = UINT64_C(1) << card;
    if (h.once & b)
        h.twice |= b;
    else
        h.once |= b;
    return h;
}

/* The cards of h as ascending bit indices, copies repeated; returns the count. */
static int hand_cards(cc_hand h, uint8_t *out)
{
    int n = 0;
    uint64_t m = h.once;
    while (m) {
        int i = cc_ctz(m);
        out[n++] = (uint8_t)i;
        if (h.twice & (UINT64_C(1) << i))
            out[n++] = (uint8_t)i;
        m &= m - 1;
    }
    return n;
}

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

static int codes_compare(const uint16_t *a, int na, const uint16_t *b, int nb)
{
    int i;
    for (i = 0; i < na && i < nb; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return (na > nb) - (na < nb);
}

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

/* Best lay-off plan of the cards rest onto the targets: the most points laid, then the
 * smallest sorted (card, meld) tuple. Returns the points laid; codes in s. */
static int best_layoffs(const cc_rules *rules, cc_hand rest, const target *targets,
                        int n_targets, search *s)
{
    uint8_t cards[CC_HAND_CARDS];
    int n = hand_cards(rest, cards), i, t, k;
    s->n_items = 0;
    s->targets = targets;
    s->n_targets = n_targets;
    s->best_laid = 0;
    s->best_n = 0;
    if (n_targets == 0)
        return 0;
    for (i = 0; i < n; i++) {
        int c = cards[i], suit = c / LANE_BITS, rank = c % LANE_BITS, no = 0;
        unsigned have = (unsigned)(rest.once >> (LANE_BITS * suit)) & RANK_MASK;
        for (t = 0; t < n_targets; t++) {
            const target *tg = &targets[t];
            if (tg->kind == CC_SET) {
                if (tg->rank == rank)
                    s->opts[s->n_items][no++] = (uint8_t)t;
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
                    s->opts[s->n_items][no++] = (uint8_t)t;
            }
        }
        if (no) {
            s->card[s->n_items] = (uint8_t)c;
            s->points[s->n_items] = rules->points[rank];
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

/* ------------------------------------------------------------------ one opponent */

typedef struct plan {
    int points;    /* of the cards neither in own melds nor laid off */
    int own_cards; /* cards in own melds */
    int n_own;
    cc_meld own[CC_MAX_MELDS]; /* ascending key order */
    cc_hand rest;              /* cards not in own melds */
    int n_codes;
    uint16_t codes[CC_HAND_CARDS]; /* lay-offs, card * 16 + table index, sorted */
} plan;

/* The design.md key, lexicographically: negative when a is better. O(cards). */
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
        p.rest = hand_minus(p.rest, own[i].cards);
    }
    p.own_cards = hand_count(hand) - hand_count(p.rest);
    rest_points = cc_hand_points(rules, p.rest);
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
 * arrangement). Every collection of own melds times the lay-off search; the candidates
 * come from cc_enumerate_melds in ascending key order, which keeps each pair sorted. */
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
        if (!hand_fits(cand[i].cards, hand))
            continue;
        pair[0] = cand[i];
        consider(rules, hand, pair, 1, targets, n_targets, &s, best, &have_best);
        h1 = hand_minus(hand, cand[i].cards);
        if (hand_count(h1) < 3)
            continue;
        for (j = i; j < n; j++) {
            if (!hand_fits(cand[j].cards, h1))
                continue;
            pair[1] = cand[j];
            consider(rules, hand, pair, 2, targets, n_targets, &s, best, &have_best);
        }
    }
}

/* ------------------------------------------------------------------ the settlement */

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

/* Sort key of a lay-off in the order applied (docs/design.md): by table meld; a set's
 * cards ascending; a run's cards below it outward (descending), then above (ascending). */
static int applied_order(const cc_table_meld *table, cc_layoff l)
{
    int below = 0, card = l.card;
    if (table[l.meld].kind == CC_RUN) {
        int lowest = cc_ctz(table[l.meld].cards.once);
        below = card < lowest;
    }
    return (l.meld << 8) | (below ? 63 - card : 64 + card);
}

static cc_status check_deal(cc_hand closer, const cc_hand *opponents, int n_opponents,
                            int *decks, cc_settlement *out)
{
    uint64_t acc_once = 0, acc_twice = 0;
    int seat;
    for (seat = 0; seat <= n_opponents; seat++) {
        cc_hand h = seat ? opponents[seat - 1] : closer;
        int n;
        cc_status st = cc_check_hand(h, CC_HAND_CARDS, &n);
        out->bad_seat = seat;
        if (st == CC_ERR_TOO_MANY_CARDS || (st == CC_OK && n != CC_HAND_CARDS))
            return CC_ERR_CARD_COUNT;
        if (st != CC_OK)
            return st;
    }
    for (seat = 0; seat <= n_opponents; seat++) {
        cc_hand h = seat ? opponents[seat - 1] : closer;
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
        out->bad_card = cc_ctz(acc_twice);
        out->bad_seat = -1;
        return CC_ERR_DUPLICATE;
    }
    out->bad_seat = -1;
    return CC_OK;
}

cc_status cc_settle(const cc_rules *rules, int minus_ten, cc_hand closer,
                    const cc_hand *opponents, int n_opponents, int decks,
                    cc_settlement *out)
{
    plan p;
    cc_status st;
    cc_outcome outcome;
    int k, i;

    if (!out)
        return CC_ERR_BAD_ARGUMENT;
    memset(out, 0, sizeof *out);
    out->bad_seat = -1;
    out->bad_card = -1;
    if (!rules || !opponents || n_opponents < 1 || n_opponents > CC_MAX_OPPONENTS ||
        decks < 0 || decks > 2)
        return CC_ERR_BAD_ARGUMENT;
    st = check_deal(closer, opponents, n_opponents, &decks, out);
    if (st != CC_OK)
        return st;
    out->decks = decks;
    out->n_opponents = n_opponents;

    best_plan(rules, closer, NULL, 0, &p);
    seat_from_plan(&p, &out->closer);
    out->deadwood = p.points;
    /* the core's outcome of these 7 cards (its deadwood is exact, so equals p.points) */
    st = cc_close_outcome(rules, closer, &outcome);
    if (st != CC_OK)
        return st; /* unreachable: check_deal accepted 7 valid cards */
    if (outcome == CC_CANNOT_CLOSE) {
        out->outcome = CC_CANNOT_CLOSE;
        return CC_ERR_CANNOT_CLOSE;
    }
    out->outcome = (uint8_t)outcome;
    out->closer.points = outcome == CC_NORMAL ? p.points
                         : outcome == CC_MINUS_TEN ? -minus_ten : 0;
    out->points[0] = out->closer.points;
    for (i = 0; i < p.n_own; i++) {
        cc_table_meld *t = &out->table[out->n_table++];
        t->cards = p.own[i].cards;
        t->kind = p.own[i].kind;
        t->owner = 0;
        t->open = outcome != CC_MINUS_TEN;
    }

    for (k = 1; k <= n_opponents; k++) {
        cc_seat_result *r = &out->opponents[k - 1];
        target targets[CC_MAX_TABLE];
        int n_targets = 0;
        if (outcome != CC_CHINCHON) {
            for (i = 0; i < out->n_table; i++) {
                const cc_table_meld *t = &out->table[i];
                target *tg;
                if (!t->open)
                    continue;
                tg = &targets[n_targets++];
                tg->index = (uint8_t)i;
                tg->kind = t->kind;
                tg->rank = (uint8_t)(cc_ctz(t->cards.once) % LANE_BITS);
                tg->suit = (uint8_t)(cc_ctz(t->cards.once) / LANE_BITS);
                tg->lane = (unsigned)(t->cards.once >> (LANE_BITS * tg->suit)) & RANK_MASK;
            }
        }
        best_plan(rules, opponents[k - 1], targets, n_targets, &p);
        seat_from_plan(&p, r);
        /* the lay-offs, in the order applied, and the cards they leave */
        for (i = 0; i < p.n_codes; i++) {
            cc_layoff l;
            int j;
            l.card = (uint8_t)(p.codes[i] >> 4);
            l.meld = (uint8_t)(p.codes[i] & 15u);
            for (j = r->n_layoffs; j > 0 && applied_order(out->table, r->layoffs[j - 1]) >
                                               applied_order(out->table, l); j--)
                r->layoffs[j] = r->layoffs[j - 1];
            r->layoffs[j] = l;
            r->n_layoffs++;
            r->unmatched = hand_remove_once(r->unmatched, UINT64_C(1) << l.card);
        }
        for (i = 0; i < r->n_layoffs; i++) {
            cc_table_meld *t = &out->table[r->layoffs[i].meld];
            t->cards = hand_add_card(t->cards, r->layoffs[i].card);
        }
        if (outcome == CC_CHINCHON)
            r->points = 0;
        out->points[k] = r->points;
        for (i = 0; i < r->n_melds; i++) {
            cc_table_meld *t = &out->table[out->n_table++];
            t->cards = r->melds[i].cards;
            t->kind = r->melds[i].kind;
            t->owner = (uint8_t)k;
            t->open = 1;
        }
    }
    return CC_OK;
}
