/* The learning tables: one game per table in which the learner's seat moves by the
 * caller's actions and every other seat by the engine's bots (engine/engine.c), the
 * Gymnasium environment of src/chinchon/rl/gym_env.py over the AEC environment of
 * src/chinchon/rl/aec.py written again in C, move for move and reward for reward, with
 * the learner's observation of src/chinchon/rl/encoding.py (docs/rl.md). Every comment
 * "Python:" names the code mirrored.
 *
 * A table is a game, its record (no arrays but the last hand's points) and where the
 * learner stands; nothing is allocated past cc_vec_alloc. The bots' floats are the
 * engine's (engine.c is compiled without contraction); this file adds and subtracts
 * whole numbers and the penalty only. */

#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "rl/vecenv.h"
#include "search/search.h"

/* the observation's layout (encoding.py: FIELDS; Python checks these against it) */
enum {
    PLANE_HAND = 0, PLANE_PILE = 64, PLANE_TOP = 128, PLANE_RESTOCKED = 192,
    PLANE_TAKEN = 256, /* the seat k places after the learner: PLANE_TAKEN + 64 k */
    SEAT_ROWS = 832,   /* row k: SEAT_ROWS + 7 k + field */
    F_IN_GAME = 1, F_TOTAL = 2, F_CHIPS = 3, F_TO_ACT = 4, F_LEAD = 5, F_LAST = 6,
    SEAT_FIELDS = 7,
    S_PHASE = 874,     /* draw, discard, rejoin, over: S_PHASE + phase */
    S_STOCK = 878, S_PILE = 879, S_HAND_NUMBER = 880, S_TURNS = 881, S_MAY_CLOSE = 882
};

#define CLIP INT64_C(16777216) /* encoding.CLIP */

/* the learner's decision (encoding.PHASES order) */
enum { PH_DRAW = 0, PH_DISCARD = 1, PH_REJOIN = 2, PH_OVER = 3 };

/* the actions (encoding.py) */
enum { A_CLOSE = 64, A_STOCK = 128, A_PILE = 129, A_REJOIN = 130, A_STAY = 131 };

struct cc_vec_table {
    /* first, in one cache line: what the walks over every table between steps read
     * (vec_sample, vec_refused) -- the learner's choices as put_mask last wrote them */
    uint64_t close_ok;            /* the cards the learner may close with (discard phase) */
    uint64_t held;                /* the learner's cards (discard phase; put_mask) */
    int phase;                    /* PH_*: the learner's decision, or the game over */
    int done;                     /* the last step ended the game: the next one starts the next */
    int pile;                     /* the pile has a card to take (draw phase; put_mask) */
    cc_game_config cfg;           /* the shared config with this table's seed */
    game g;
    cc_game_record rec;
    int32_t rec_points[CC_MAX_PLAYERS];
    uint8_t rec_seats[CC_MAX_PLAYERS];
    int32_t last[CC_MAX_PLAYERS]; /* the last ended hand's points by seat (0: none yet) */
    uint64_t game_index;          /* the game of the seed being played */
    uint64_t turns;               /* Python: raw_env._turns (discards this game) */
    uint8_t pending[CC_MAX_PLAYERS]; /* Python: raw_env._pending (the rejoin decisions) */
    int cursor;                   /* the next seat of pending */
    int truncated;
    /* the card planes as the table's observation row holds them (encode_planes) */
    cc_hand shown[4 + CC_MAX_PLAYERS];
};

cc_vec_table *vec_alloc(size_t n)
{
    return (cc_vec_table *)calloc(n > 0 ? n : 1, sizeof(cc_vec_table));
}

void vec_free(cc_vec_table *tables)
{
    free(tables);
}

/* ------------------------------------------------------------------ the observation */

CC_INLINE float clipped(int64_t x)
{
    return (float)(x < -CLIP ? -CLIP : x > CLIP ? CLIP : x);
}

/* The counts of the multiset h on the plane p. O(cards). */
static void put_cards(float *p, cc_hand h)
{
    uint64_t b = h.once;
    while (b) {
        const int i = cc_ctz(b);
        p[i] = 1.0f;
        b &= b - 1;
    }
    b = h.twice;
    while (b) {
        const int i = cc_ctz(b);
        p[i] = 2.0f;
        b &= b - 1;
    }
}

/* Plane p from what it shows (*shown) to h: the cards that changed. O(cards). */
static void put_plane(float *p, cc_hand *shown, cc_hand h)
{
    uint64_t b;
    if (shown->once == h.once && shown->twice == h.twice)
        return;
    for (b = shown->once; b; b &= b - 1)
        p[cc_ctz(b)] = 0.0f;
    put_cards(p, h);
    *shown = h;
}

/* Python: Encoder.sync then Encoder.observe(learner): the learner's observation now,
 * into the table's row obs, which holds the table's last observation (full = 0: only
 * the planes that changed are written) or anything (full = 1: all of it).
 * O(cards + seats), and a copy of the constant numbers when full. */
static void encode(const cc_vec_config *cfg, cc_vec_table *t, float *obs, int full)
{
    const game *g = &t->g;
    const int n = g->n, me = cfg->learner;
    cc_hand top = {0, 0}, restocked = {0, 0};
    int k;
    if (full) {
        memcpy(obs, cfg->constant, sizeof cfg->constant);
        memset(t->shown, 0, sizeof t->shown);
    }
    if (g->pile_n > 0)
        top.once = UINT64_C(1) << g->pile[g->pile_n - 1];
    if (g->has_restocked)
        restocked = g->restocked;
    put_plane(obs + PLANE_HAND, &t->shown[0], g->hands[me]);
    put_plane(obs + PLANE_PILE, &t->shown[1], g->pile_set);
    put_plane(obs + PLANE_TOP, &t->shown[2], top);
    put_plane(obs + PLANE_RESTOCKED, &t->shown[3], restocked);
    for (k = 0; k < n; k++) {
        const int s = (me + k) % n;
        float *row = obs + SEAT_ROWS + SEAT_FIELDS * k;
        put_plane(obs + PLANE_TAKEN + 64 * k, &t->shown[4 + k], g->taken[s]);
        row[F_IN_GAME] = (float)g->in[s];
        row[F_TOTAL] = clipped(g->totals[s]);
        row[F_CHIPS] = clipped(g->chips[s]);
        row[F_TO_ACT] = 0.0f;
        row[F_LEAD] = (float)(s == g->lead);
        row[F_LAST] = clipped(t->last[s]);
    }
    if (t->phase != PH_OVER)
        obs[SEAT_ROWS + F_TO_ACT] = 1.0f; /* the learner decides: row 0 */
    for (k = 0; k < 4; k++)
        obs[S_PHASE + k] = (float)(k == t->phase);
    obs[S_STOCK] = (float)(g->stock_n - g->stock_head);
    obs[S_PILE] = (float)g->pile_n;
    obs[S_HAND_NUMBER] = clipped(g->hand_number);
    obs[S_TURNS] = clipped(g->turns);
    obs[S_MAY_CLOSE] = (float)((t->phase == PH_DRAW || t->phase == PH_DISCARD) && may_close(g));
}

/* Python: raw_env._decide's mask, the learner's; its summary into t->held and t->pile.
 * O(actions). */
static void put_mask(cc_vec_table *t, int8_t *mask)
{
    const game *g = &t->g;
    memset(mask, 0, CC_VEC_ACTIONS);
    t->held = 0;
    t->pile = 0;
    if (t->phase == PH_DRAW) {
        t->pile = g->pile_n > 0;
        mask[A_STOCK] = 1;
        mask[A_PILE] = (int8_t)t->pile;
    } else if (t->phase == PH_DISCARD) {
        uint64_t b = t->held = g->hands[g->turn].once;
        while (b) {
            const int i = cc_ctz(b);
            mask[i] = 1;
            mask[A_CLOSE + i] = (int8_t)(t->close_ok >> i & 1);
            b &= b - 1;
        }
    } else if (t->phase == PH_REJOIN) {
        mask[A_REJOIN] = 1;
        mask[A_STAY] = 1;
    }
}

/* Whether `action` is in the learner's mask now (any action once the game ended). */
static int allowed(const cc_vec_table *t, int64_t a)
{
    if (t->done)
        return 1;
    switch (t->phase) {
    case PH_DRAW:
        return a == A_STOCK || (a == A_PILE && t->pile);
    case PH_DISCARD:
        if (a >= 0 && a < A_CLOSE)
            return (int)(t->held >> a & 1);
        return a >= A_CLOSE && a < A_STOCK && (int)(t->close_ok >> (a - A_CLOSE) & 1);
    case PH_REJOIN:
        return a == A_REJOIN || a == A_STAY;
    default:
        return 0;
    }
}

/* ------------------------------------------------------------------ the moves */

/* Python: raw_env._game_over. */
static void game_over(cc_vec_table *t, int truncate)
{
    t->phase = PH_OVER;
    t->truncated = truncate;
}

/* After a discard (the learner's or a bot's): Python: raw_env._apply's discard branch
 * and raw_env._hand_over. The learner's reward of that move into *reward. */
static void after_discard(const cc_vec_config *cfg, cc_vec_table *t, double *reward)
{
    game *g = &t->g;
    const int me = cfg->learner;
    int s;
    t->turns++;
    if (t->rec.n_ended == 0) {
        if (cfg->max_turns && t->turns >= cfg->max_turns)
            game_over(t, 1);
        return;
    }
    for (s = 0; s < g->n; s++)
        t->last[s] = 0;
    for (s = 0; s < (int)t->rec.n_points && s < CC_MAX_PLAYERS; s++)
        t->last[t->rec_seats[s]] = t->rec_points[s];
    if (cfg->hand_rewards)
        *reward -= (double)t->last[me];
    if (g->over) {
        if (t->rec.status == CC_GAME_WON)
            *reward += t->rec.winner == me ? 1.0 : -1.0;
        game_over(t, 0);
        return;
    }
    if (cfg->max_turns && t->turns >= cfg->max_turns) {
        game_over(t, 1);
        return;
    }
    /* Python: hand_end.rejoin_refused, for every seat, before any decides */
    for (s = 0; s < g->n; s++)
        t->pending[s] = (uint8_t)(!g->in[s] && g->chips[s] > 0 && count_in(g) >= 2);
    t->cursor = 0;
}

/* The record's counts before a move (its arrays hold one hand's points). */
CC_INLINE void clear_record(cc_vec_table *t)
{
    t->rec.n_ended = t->rec.n_points = t->rec.n_events = 0;
}

/* Python: ChinchonEnv._play_bots with raw_env._decide: the bots' moves (and the hands'
 * ends, the rejoins, the deals) until the learner decides or the game is over; the
 * learner's rewards over them added to *reward. */
static cc_status play_bots(const cc_vec_config *cfg, cc_vec_table *t, double *reward)
{
    game *g = &t->g;
    const int me = cfg->learner;
    while (t->phase != PH_OVER) {
        if (g->summary) {
            while (t->cursor < g->n) {
                const int s = t->cursor++;
                if (!t->pending[s])
                    continue;
                if (s == me) {
                    t->phase = PH_REJOIN;
                    return CC_OK;
                }
                if (eng_bot_rejoins(g, s))
                    eng_rejoin(g, s);
            }
            eng_next_hand(g);
            continue;
        }
        if (g->turn == me) {
            t->phase = PH_DRAW;
            return CC_OK;
        }
        {
            double r = 0.0;
            cc_status st;
            clear_record(t);
            st = eng_bot_turn(g);
            if (st != CC_OK)
                return st;
            after_discard(cfg, t, &r);
            *reward += r;
        }
    }
    return CC_OK;
}

/* Game t->game_index of the table's seed, played by the bots up to the learner's first
 * decision; games over before it are skipped. */
static cc_status start_game(const cc_vec_config *cfg, cc_vec_table *t)
{
    for (;;) {
        double ignored = 0.0;
        cc_status st;
        memset(t->last, 0, sizeof t->last);
        t->rec.points = t->rec_points;
        t->rec.point_seats = t->rec_seats;
        t->rec.cap_points = CC_MAX_PLAYERS;
        t->rec.cap_ended = t->rec.cap_events = 0;
        t->rec.turns = NULL;
        t->rec.outcomes = NULL;
        t->rec.events = NULL;
        eng_new_game(&t->g, &t->cfg, t->game_index, &t->rec);
        t->g.search = srch_engine_bot; /* search seats play as in cc_play_game */
        t->turns = 0;
        t->close_ok = 0;
        t->cursor = CC_MAX_PLAYERS;
        t->phase = PH_DRAW;
        t->done = t->truncated = 0;
        st = play_bots(cfg, t, &ignored);
        if (st != CC_OK)
            return st;
        if (t->phase != PH_OVER)
            return CC_OK;
        t->game_index++;
    }
}

cc_status vec_reset(const cc_vec_config *cfg, cc_vec_table *tables, size_t i, int negative,
                    const uint64_t *magnitude, float *obs, int8_t *mask)
{
    cc_vec_table *t = &tables[i];
    cc_status st;
    if (magnitude != NULL) {
        t->cfg = cfg->game;
        t->cfg.seed_negative = negative;
        memcpy(t->cfg.seed_magnitude, magnitude, sizeof t->cfg.seed_magnitude);
        t->game_index = 0;
    } else if (t->cfg.players == 0) {
        return CC_ERR_BAD_ARGUMENT; /* never seeded: no game to go on from */
    } else {
        t->game_index++;
    }
    st = start_game(cfg, t);
    encode(cfg, t, obs, 1);
    put_mask(t, mask);
    return st;
}

size_t vec_refused(const cc_vec_table *tables, size_t n, const int64_t *actions)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (!allowed(&tables[i], actions[i]))
            return i;
    return n;
}

/* The k-th set bit of b (k < popcount(b)). */
static int nth_bit(uint64_t b, uint32_t k)
{
    while (k--)
        b &= b - 1;
    return cc_ctz(b);
}

void vec_sample(const cc_vec_table *tables, size_t n, cc_rng *rng, int64_t *actions)
{
    size_t i;
    for (i = 0; i < n; i++) {
        const cc_vec_table *t = &tables[i];
        int64_t a = 0;
        if (t->done) {
            a = 0;
        } else if (t->phase == PH_DRAW) {
            a = t->pile ? A_STOCK + (int64_t)cc_rng_below(rng, 2) : A_STOCK;
        } else if (t->phase == PH_DISCARD) {
            const uint64_t held = t->held, closes = t->close_ok & held;
            const uint32_t nd = (uint32_t)cc_popcount(held);
            const uint32_t k = cc_rng_below(rng, nd + (uint32_t)cc_popcount(closes));
            a = k < nd ? nth_bit(held, k) : A_CLOSE + nth_bit(closes, k - nd);
        } else if (t->phase == PH_REJOIN) {
            a = A_REJOIN + (int64_t)cc_rng_below(rng, 2);
        }
        actions[i] = a;
    }
}

/* The learner's action (in its mask) and the bots after it. */
static cc_status learner_moves(const cc_vec_config *cfg, cc_vec_table *t, int a,
                               double *reward)
{
    game *g = &t->g;
    double more = 0.0;
    cc_status st;
    if (t->phase == PH_DRAW) {
        if (eng_draw(g, a == A_PILE) != 0)
            return CC_ERR_BAD_ARGUMENT;
        {
            hints h;
            int k;
            eng_turn_hints(g, &h);
            t->close_ok = 0;
            for (k = 0; k < 8; k++)
                if (h.outcome[k] != CC_CANNOT_CLOSE)
                    t->close_ok |= UINT64_C(1) << h.card[k];
        }
        t->phase = PH_DISCARD;
        return CC_OK;
    }
    if (t->phase == PH_DISCARD) {
        clear_record(t);
        st = eng_discard(g, a & 63, a >= A_CLOSE);
        if (st != CC_OK)
            return st;
        after_discard(cfg, t, reward);
    } else if (a == A_REJOIN) {
        eng_rejoin(g, cfg->learner);
    }
    st = play_bots(cfg, t, &more);
    *reward += more;
    return st;
}

/* One table's step (vec_step). */
static cc_status step_one(const cc_vec_config *cfg, cc_vec_table *t, int64_t action,
                          float *obs, int8_t *mask, double *reward, uint8_t *terminated,
                          uint8_t *truncated, uint8_t *refused)
{
    cc_status st = CC_OK;
    double r = 0.0;
    *refused = 0;
    if (t->cfg.players == 0)
        return CC_ERR_BAD_ARGUMENT; /* never reset */
    if (t->done) { /* autoreset (Gymnasium's next-step mode): the next game */
        t->game_index++;
        st = start_game(cfg, t);
    } else if (!allowed(t, action)) {
        if (!cfg->penalise)
            return CC_ERR_BAD_ARGUMENT;
        *refused = 1;
        r = cfg->penalty; /* Python: raw_env._penalise */
        game_over(t, 0);
    } else {
        st = learner_moves(cfg, t, (int)action, &r);
    }
    if (st != CC_OK)
        return st;
    *reward = r;
    *terminated = (uint8_t)(t->phase == PH_OVER && !t->truncated);
    *truncated = (uint8_t)(t->phase == PH_OVER && t->truncated);
    t->done = t->phase == PH_OVER;
    encode(cfg, t, obs, 0);
    put_mask(t, mask);
    return CC_OK;
}

cc_status vec_step(const cc_vec_config *cfg, cc_vec_table *tables, size_t first, size_t count,
                   const int64_t *actions, float *obs, int8_t *masks, double *rewards,
                   uint8_t *terminated, uint8_t *truncated, uint8_t *refused)
{
    size_t i;
    for (i = first; i < first + count; i++) {
        const cc_status st = step_one(cfg, &tables[i], actions[i], obs + (size_t)CC_VEC_OBS * i,
                                      masks + (size_t)CC_VEC_ACTIONS * i, &rewards[i],
                                      &terminated[i], &truncated[i], &refused[i]);
        if (st != CC_OK)
            return st;
    }
    return CC_OK;
}
