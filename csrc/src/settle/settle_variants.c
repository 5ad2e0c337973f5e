/*
 * settle_variants.c -- the settlement of a closed hand under rules that are not plain
 * (SPEC 9.3; docs/design.md "Settlement with jokers"): jokers on the table and in the
 * opponents' hands, the 40-card deck's run order, other point tables, the closes of
 * seven_run_wins and joker_chinchon.
 *
 * The closer's arrangement and outcome are variants.c's (cc_var_arrange,
 * cc_var_outcome). Each opponent's plan is chosen by the key of docs/design.md over
 * every collection of own melds (the candidate melds of the hand, jokers included, at
 * most two of them in 7 cards) and, for the cards left, every legal lay-off plan:
 *
 * - The lay-off search (settle_layoffs.c) is a depth-first walk over the cards left in ascending bit order
 *   (a copy held twice is two items, the second never before the first). Each card goes
 *   onto one table meld open to it, or stays: a natural card onto a set of its rank or a
 *   run of its suit beyond either end, a joker onto a set without one or a run without
 *   one, standing for a given place beyond either end. The walk tracks what each meld
 *   has taken (set sizes against the capacity, the places laid on each run, one joker per
 *   meld); at a leaf every extended run must be one block of consecutive places.
 * - Each lay-off has a code, ((card * 16 + table meld) << 6) | place, the place being the
 *   bit index of the card a joker laid on a run stands for (0 otherwise): codes compare
 *   as the elements of rule 5 do (a (card, meld) pair never meets a (card, meld, place)
 *   triple: a meld is a set or a run). The walk visits the options of a card in
 *   ascending code order, so the codes of a plan come out sorted: a partial plan is a
 *   prefix of its leaves' keys. A branch is cut when it cannot lay more points than the
 *   best plan so far, nor, laying as many, have a smaller key.
 * - Where each card may go is worked out once per hand (for runs: the places between
 *   held, but one when the hand holds a joker -- a superset of what the cards left by any
 *   own melds can reach; the leaves check the rest); each collection of own melds walks
 *   the items of the cards it leaves, and is skipped when even laying off all of them
 *   would not beat the best plan so far.
 * - Meld keys are packed into two words that compare as the tuples do; each pair of own
 *   melds is put in ascending key order as it is formed (no sort).
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

#define SV_MAX_CAND 320 /* > the candidate melds of any 7 cards with jokers */
#define SV_KEY 12       /* a meld key: <= 9 cards of 7 + 2 joker elements */

static const uint8_t sv_joker_bits[3] = {0, CC_JOKER1_BIT, CC_JOKER2_BIT};

/* ------------------------------------------------------------------ candidate melds */

/* A candidate own meld: the cc_meld (raw bits, the joker's included), its card count
 * and its tie-break key (docs/design.md "Melds with a joker"). */
typedef struct sv_meld {
    cc_meld m;
    uint8_t cnt;
    uint64_t key[2]; /* the key packed: element i + 1 in byte 7 - i % 8 of key[i / 8], zero
                        bytes after the last, so that the pair compares as the tuple does */
} sv_meld;

typedef struct sv_list {
    const cc_rules *rules;
    int cap;          /* set capacity */
    int nj;           /* distinct joker bits held */
    uint8_t jb[3];    /* those bits, ascending */
    int n;
    sv_meld *c;
} sv_list;

/* Bit index in raw card space of a working-space bit (variants.h). O(1). */
CC_INLINE int sv_raw(int deck, int wbit)
{
    return (deck == 40 && (wbit & 15) >= 7) ? wbit + 2 : wbit;
}

/* Append a meld of natural cards nat (raw) plus, with joker_rank != 0, the joker of bit
 * joker standing for a run's card stand (raw bit index) or a set's rank; fills its
 * count and key. O(cards). */
static void sv_push(sv_list *l, int kind, cc_hand nat, int joker, int joker_rank, int stand)
{
    sv_meld *c;
    uint64_t m;
    uint8_t key[SV_KEY];
    int n = 0, i;
    if (l->n >= SV_MAX_CAND)
        return; /* unreachable (see SV_MAX_CAND); keeps the bound explicit */
    c = &l->c[l->n++];
    c->m.cards = nat;
    c->m.kind = (uint8_t)kind;
    c->m.joker = 0;
    c->m.joker_rank = 0;
    for (m = nat.once; m != 0 && n < SV_KEY - 3; m &= m - 1) {
        i = cc_ctz(m);
        key[n++] = (uint8_t)i;
        if ((nat.twice >> i) & 1u)
            key[n++] = (uint8_t)i;
    }
    c->cnt = (uint8_t)cc_hand_count(nat);
    if (joker_rank != 0) {
        c->m.cards = cc_hand_add(nat, joker);
        c->m.joker = (uint8_t)joker;
        c->m.joker_rank = (uint8_t)joker_rank;
        key[n++] = (uint8_t)(64 + joker);
        if (kind == CC_RUN)
            key[n++] = (uint8_t)stand;
        c->cnt++;
    }
    c->key[0] = 0;
    c->key[1] = 0;
    for (i = 0; i < n; i++)
        c->key[i / 8] |= (uint64_t)(key[i] + 1u) << (8 * (7 - i % 8));
}

/* Sets with a joker: each sub-multiset of >= 2 of idx[start..n) (working bits ascending,
 * a copy listed twice) added to the partial set s (raw) of `size` cards, plus each joker
 * held, while the joker still fits under the capacity. O(sets emitted). */
static void sv_joker_sets(sv_list *l, const int *idx, int n, int start, cc_hand s, int size,
                          int rank)
{
    int i, k;
    if (size >= 2 && size + 1 <= l->cap)
        for (k = 0; k < l->nj; k++)
            sv_push(l, CC_SET, s, l->jb[k], rank, 0);
    if (size + 2 > l->cap)
        return; /* one more natural card leaves no room for the joker */
    for (i = start; i < n; i++) {
        if (i > start && idx[i] == idx[i - 1])
            continue;
        sv_joker_sets(l, idx, n, i + 1, cc_hand_add(s, sv_raw(l->rules->deck, idx[i])),
                      size + 1, rank);
    }
}

/* Every candidate meld of the valid hand h (raw), unsorted: the natural sets and runs,
 * the sets of >= 2 natural cards and a joker, the runs of natural cards but for one place
 * a joker stands for (inside, or at either end; with the segment all held, any place).
 * O(candidates). */
static int sv_candidates(const cc_rules *rules, cc_hand h, int cap, sv_meld *out)
{
    cc_meld nat[CC_MAX_CANDIDATES];
    sv_list l;
    cc_hand w;
    uint64_t jm = rules->joker_mask;
    int deck = rules->deck, places = deck == 40 ? 10 : CC_NRANKS, k, i, s;
    l.rules = rules;
    l.cap = cap;
    l.n = 0;
    l.c = out;
    l.nj = 0;
    for (k = 0; k < 3; k++)
        if (((jm & h.once) >> sv_joker_bits[k]) & 1u)
            l.jb[l.nj++] = sv_joker_bits[k];
    w.once = cc_var_compact(deck, h.once & ~jm);
    w.twice = cc_var_compact(deck, h.twice & ~jm);
    k = cc_enumerate_melds(w, nat, CC_MAX_CANDIDATES);
    if (k > CC_MAX_CANDIDATES)
        k = CC_MAX_CANDIDATES; /* unreachable for 7 cards */
    for (i = 0; i < k; i++) {
        cc_hand raw;
        raw.once = cc_var_expand(deck, nat[i].cards.once);
        raw.twice = cc_var_expand(deck, nat[i].cards.twice);
        sv_push(&l, nat[i].kind, raw, 0, 0, 0);
    }
    if (l.nj == 0)
        return l.n;
    for (i = 0; i < places; i++) {
        uint64_t x;
        int idx[2 * CC_NSUITS], n = 0;
        cc_hand e;
        for (x = w.once & (CC_LANES << i); x != 0; x &= x - 1) {
            int c = cc_ctz(x);
            idx[n++] = c;
            if ((w.twice >> c) & 1u)
                idx[n++] = c;
        }
        if (n < 2)
            continue;
        e.once = 0;
        e.twice = 0;
        sv_joker_sets(&l, idx, n, 0, e, 0, cc_var_rank(deck, i));
    }
    for (s = 0; s < CC_NSUITS; s++) {
        unsigned lane = (unsigned)(w.once >> (16 * s)) & 0xFFFu;
        int lo, hi;
        if (cc_popcount(lane) < 2)
            continue;
        for (lo = 0; lo + 2 < places; lo++) {
            int gap = -1;
            for (hi = lo; hi < places; hi++) {
                int p;
                if (!((lane >> hi) & 1u)) {
                    if (gap >= 0)
                        break;
                    gap = hi;
                }
                if (hi - lo < 2)
                    continue;
                for (p = (gap >= 0 ? gap : lo); p <= (gap >= 0 ? gap : hi); p++) {
                    unsigned seg = ((1u << (hi + 1)) - 1u) & ~((1u << lo) - 1u) & ~(1u << p);
                    cc_hand raw;
                    int rank = cc_var_rank(deck, p);
                    raw.once = cc_var_expand(deck, (uint64_t)seg << (16 * s));
                    raw.twice = 0;
                    for (k = 0; k < l.nj; k++)
                        sv_push(&l, CC_RUN, raw, l.jb[k], rank, 16 * s + rank - 1);
                }
            }
        }
    }
    return l.n;
}

/* Compare two melds' keys as Python tuples (a proper prefix first). O(1). */
CC_INLINE int sv_key_cmp(const sv_meld *x, const sv_meld *y)
{
    if (x->key[0] != y->key[0])
        return x->key[0] < y->key[0] ? -1 : 1;
    return (x->key[1] > y->key[1]) - (x->key[1] < y->key[1]);
}

/* ------------------------------------------------------------------ one seat's plan */

typedef struct sv_plan {
    int points;    /* of the cards neither in own melds nor laid off */
    int own_cards; /* cards in own melds, jokers counted */
    int n_own;
    sv_meld own[CC_MAX_MELDS]; /* ascending key order */
    cc_hand rest;              /* cards not in own melds */
    int n_codes;
    uint16_t codes[CC_HAND_CARDS];
    /* the lay-offs: card, target, a run joker's place */
    uint8_t lay_card[CC_HAND_CARDS];
    uint8_t lay_t[CC_HAND_CARDS];
    int8_t lay_stand[CC_HAND_CARDS];
} sv_plan;

/* Rules 2-4 of the plan key for own melds own[0..n) with own_cards cards against plan
 * b: negative when they are better. O(keys). */
static int sv_own_cmp(const sv_meld *const *own, int n, int own_cards, const sv_plan *b)
{
    int i, c;
    if (own_cards != b->own_cards)
        return own_cards > b->own_cards ? -1 : 1;
    if (n != b->n_own)
        return n < b->n_own ? -1 : 1;
    for (i = 0; i < n; i++) {
        c = sv_key_cmp(own[i], &b->own[i]);
        if (c)
            return c;
    }
    return 0;
}

/* Compare two sorted code lists as Python tuples (a proper prefix is smaller). */
static int sv_codes_cmp(const uint16_t *a, int na, const uint16_t *b, int nb)
{
    int i;
    for (i = 0; i < na && i < nb; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return (na > nb) - (na < nb);
}

typedef struct sv_seat {
    const cc_rules *rules;
    cc_hand hand;
    int hand_cards;
    sv_search s;
    sv_plan best;
    int have_best;
} sv_seat;

/* The plan with own melds own[0..n) (ascending key order) and the best lay-offs of the
 * rest; it replaces the best when better. Skipped when laying off every card left that
 * has somewhere to go could not beat the best. */
static void sv_consider(sv_seat *z, const sv_meld *const *own, int n)
{
    cc_hand rest = z->hand;
    int i, rest_points, bound, own_cards, laid, points, c;
    for (i = 0; i < n; i++)
        rest = cc_hand_minus(rest, own[i]->m.cards);
    own_cards = z->hand_cards - cc_hand_count(rest);
    rest_points = cc_hand_weight(z->rules, rest);
    bound = rest_points - sv_select(&z->s, rest);
    if (z->have_best && (bound > z->best.points ||
                         (bound == z->best.points &&
                          sv_own_cmp(own, n, own_cards, &z->best) >= 0)))
        return;
    laid = sv_layoffs(&z->s);
    points = rest_points - laid;
    if (z->have_best) {
        if (points != z->best.points) {
            if (points > z->best.points)
                return;
        } else {
            c = sv_own_cmp(own, n, own_cards, &z->best);
            if (c > 0 || (c == 0 && sv_codes_cmp(z->s.best_codes, z->s.best_n, z->best.codes,
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

/* The best plan of a 7-card hand onto the targets: every collection of own melds (none,
 * one, two -- the same one twice when the hand holds it twice), each pair put in
 * ascending key order. */
static void sv_best_plan(sv_seat *z, int cap)
{
    sv_meld cand[SV_MAX_CAND];
    const sv_meld *pair[CC_MAX_MELDS] = {NULL, NULL};
    int n = sv_candidates(z->rules, z->hand, cap, cand), i, j;
    sv_items(z->rules, &z->s, z->hand);
    z->have_best = 0;
    sv_consider(z, pair, 0);
    for (i = 0; i < n; i++) {
        cc_hand h1 = cc_hand_minus(z->hand, cand[i].m.cards);
        pair[0] = &cand[i];
        sv_consider(z, pair, 1);
        if (cc_hand_count(h1) < 3)
            continue;
        for (j = i; j < n; j++) {
            if (!cc_hand_fits(cand[j].m.cards, h1))
                continue;
            pair[0] = &cand[i];
            pair[1] = &cand[j];
            if (sv_key_cmp(pair[0], pair[1]) > 0) {
                pair[0] = &cand[j];
                pair[1] = &cand[i];
            }
            sv_consider(z, pair, 2);
        }
    }
}

/* ------------------------------------------------------------------ the settlement */

/* Put a seat's own melds on the table, owned by `owner`, open to lay-offs or not.
 * O(melds). */
static void sv_lay_melds(cc_settlement *out, const cc_seat_result *r, int owner, int open)
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

/* The table melds open to lay-offs, as targets. O(table). Returns how many. */
static int sv_targets(const cc_rules *rules, const cc_settlement *out, sv_target *tg)
{
    int i, n = 0;
    for (i = 0; i < out->n_table; i++) {
        const cc_table_meld *t = &out->table[i];
        uint64_t naturals = t->cards.once & ~(t->joker_rank ? UINT64_C(1) << t->joker : 0);
        sv_target *g;
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
            g->lane = (unsigned)(cc_var_compact(rules->deck, naturals) >> (16 * g->suit)) &
                      0xFFFu;
            if (g->joker)
                g->lane |= 1u << cc_var_place(rules->deck, t->joker_rank);
        }
    }
    return n;
}

/* Sort key of a lay-off in the order applied (docs/design.md): by table meld; on a set
 * its natural cards ascending, then the joker; on a run the places below it outward,
 * then those above it outward. O(1). */
static int sv_applied(const cc_rules *rules, const sv_target *g, int card, int stand)
{
    int sub;
    if (g->kind == CC_SET) {
        sub = ((rules->joker_mask >> card) & 1u) ? 127 : card;
    } else {
        int place = stand >= 0 ? stand : cc_var_place(rules->deck, card % 16 + 1);
        sub = place < cc_ctz(g->lane) ? 32 + (15 - place) : 64 + place;
    }
    return (g->index << 8) | sub;
}

/* Opponent k's side onto the table as it stands: their plan, its lay-offs applied (in the
 * order applied), their own melds added (open). */
static void sv_opponent(const cc_rules *rules, int k, cc_hand hand, cc_settlement *out)
{
    cc_seat_result *r = &out->opponents[k - 1];
    sv_seat z;
    sv_target tg[CC_MAX_TABLE];
    int cap = 4 * out->decks, n_tg, i, j;
    n_tg = out->outcome == CC_CHINCHON ? 0 : sv_targets(rules, out, tg);
    if (n_tg == 0) {
        /* nothing to lay off onto: the best arrangement (the plan key reduces to it) */
        cc_arrangement a;
        cc_var_arrange(rules, hand, out->decks, &a);
        r->n_melds = a.n_melds;
        for (i = 0; i < a.n_melds; i++)
            r->melds[i] = a.melds[i];
        r->unmatched = a.unmatched;
        r->points = out->outcome == CC_CHINCHON ? 0 : a.points;
        r->n_layoffs = 0;
    } else {
        int order[CC_HAND_CARDS];
        z.rules = rules;
        z.hand = hand;
        z.hand_cards = cc_hand_count(hand);
        z.s.cap = cap;
        z.s.tg = tg;
        z.s.n_tg = n_tg;
        sv_best_plan(&z, cap);
        r->n_melds = z.best.n_own;
        for (i = 0; i < z.best.n_own; i++)
            r->melds[i] = z.best.own[i].m;
        r->unmatched = z.best.rest;
        r->points = z.best.points;
        r->n_layoffs = z.best.n_codes;
        for (i = 0; i < z.best.n_codes; i++) {
            const sv_target *g = &tg[z.best.lay_t[i]];
            int key = sv_applied(rules, g, z.best.lay_card[i], z.best.lay_stand[i]);
            for (j = i; j > 0 && order[j - 1] > key; j--) {
                order[j] = order[j - 1];
                r->layoffs[j] = r->layoffs[j - 1];
            }
            order[j] = key;
            r->layoffs[j].card = z.best.lay_card[i];
            r->layoffs[j].meld = g->index;
        }
        for (i = 0; i < z.best.n_codes; i++) {
            const sv_target *g = &tg[z.best.lay_t[i]];
            cc_table_meld *t = &out->table[g->index];
            int card = z.best.lay_card[i];
            r->unmatched = cc_hand_remove_once(r->unmatched, UINT64_C(1) << card);
            t->cards = cc_hand_add(t->cards, card);
            if ((rules->joker_mask >> card) & 1u) {
                t->joker = (uint8_t)card;
                t->joker_rank = (uint8_t)(g->kind == CC_SET
                                              ? g->rank
                                              : cc_var_rank(rules->deck, z.best.lay_stand[i]));
            }
        }
    }
    out->points[k] = r->points;
    sv_lay_melds(out, r, k, 1);
}

/* The closer, then each opponent (settle.h). */
cc_status cc_var_settle(const cc_rules *rules, cc_hand closer, const cc_hand *opponents,
                        int n_opponents, cc_settlement *out)
{
    cc_arrangement a;
    cc_outcome outcome;
    int i, k;
    cc_var_arrange(rules, closer, out->decks, &a);
    out->deadwood = a.points;
    outcome = cc_var_outcome(rules, closer, a.points);
    out->outcome = (uint8_t)outcome;
    if (outcome == CC_CANNOT_CLOSE)
        return CC_ERR_CANNOT_CLOSE;
    out->closer.n_melds = a.n_melds;
    for (i = 0; i < a.n_melds; i++)
        out->closer.melds[i] = a.melds[i];
    out->closer.unmatched = a.unmatched;
    out->closer.n_layoffs = 0;
    out->closer.points = outcome == CC_NORMAL         ? a.points
                         : outcome == CC_MINUS_TEN    ? -rules->minus_ten
                         : outcome == CC_JOKER_CHINCHON ? -rules->joker_chinchon
                                                        : 0;
    out->points[0] = out->closer.points;
    sv_lay_melds(out, &out->closer, 0,
                 outcome != CC_MINUS_TEN && outcome != CC_JOKER_CHINCHON);
    for (k = 1; k <= n_opponents; k++)
        sv_opponent(rules, k, opponents[k - 1], out);
    return CC_OK;
}
