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
 * by the seat's chance to win the game from there. The candidates race (successive
 * halving, each paired with the expert's choice on the same samples; a candidate far
 * behind it, or that could no longer be taken, leaves early), and the expert's choice
 * is taken unless a candidate's mean gain over it is significant.
 *
 * With threads (srch_choose's `threads` > 1) the calling thread deals the samples, in
 * the same order from the same generator, a chunk at a time, and the threads play them
 * out; the gains are added in the samples' order, so the choice is the same for any
 * number of threads: only the time changes.
 *
 * Nothing here reads a hidden card: srch_engine_bot copies only the public parts of the
 * engine's game into the view, and srch_choose builds its games from the view alone. */

#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200112L /* pthreads under -std=c99 */
#endif

#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/hand.h"
#include "engine/engine.h"
#include "engine/engine_bots.h"
#include "search/race.h"
#include "search/samples.h"
#include "search/search.h"
#include "search/value.h"

/* POSIX threads; elsewhere (Windows) the search plays every sample on the calling
 * thread, whatever `threads` asks (the same choice, in more time). */
#if defined(_WIN32) || (!defined(__unix__) && !defined(__APPLE__))
#define SRCH_THREADS 0
#else
#define SRCH_THREADS 1
#include <pthread.h>
#include <unistd.h> /* sysconf: the cores online */
#endif

/* the turns a playout's hand may last past the decision before it is valued as it is */
#define PLAYOUT_TURNS 200

/* ------------------------------------------------------------------ the playouts */

typedef struct candidate {
    int a, b; /* draw: a = from the pile; discard: a = the card, b = close */
} candidate;

/* The value for `seat` of candidate c played on the sample d, then the hand played
 * out by the greedy bots seeded from `seed` (the same for every candidate). `rec`: the
 * record the playout's game writes its counts and result to (each thread its own;
 * NULL: d's), read back only for the result of a game it ends. */
static cc_status playout(const game *d, int seat, int discard, candidate c, uint64_t seed,
                         cc_game_record *rec, double *value)
{
    game g = *d;
    cc_rng r;
    cc_status st;
    int s, card = 0, close = 0;
    const uint32_t cap = g.turns + PLAYOUT_TURNS;
    if (rec != NULL)
        g.rec = rec;
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

/* One sample from the template (srch_deal, samples.c), every live candidate played out on it, each
 * one's gain over the prior's added to t. */
static cc_status one_sample(const game *tmpl, const sampler *sp, const cc_search_view *v,
                            int prev, int prev_close, const candidate *cand,
                            const int *live, int n_live, int prior, cc_rng *rng, srch_tally *t)
{
    game d;
    double value[SRCH_MAX_CANDIDATES];
    const uint64_t play_seed = srch_deal(tmpl, sp, v, prev, prev_close, rng, &d);
    int i;
    for (i = 0; i < n_live; i++) {
        const cc_status st = playout(&d, v->seat, v->discard, cand[live[i]], play_seed,
                                     NULL, &value[live[i]]);
        if (st != CC_OK)
            return st;
    }
    srch_add_gains(t, value, live, n_live, prior);
    return CC_OK;
}

/* ------------------------------------------------------------------ the threads */

/* The samples the calling thread deals ahead of the threads' playouts: a chunk in
 * play, the next one dealt meanwhile. */
#define CHUNK 64

/* The decision in hand: what each sample reads, the generator that deals them and the
 * gains so far. */
typedef struct decision {
    const game *tmpl;
    const sampler *sp;
    const cc_search_view *v;
    int prev, prev_close, prior;
    const candidate *cand;
    cc_rng rng;
    srch_tally t;
    struct crew *crew; /* NULL: the calling thread plays every sample */
    uint64_t start;    /* cc_now_micros() when the decision began, its threads unstarted */
} decision;

#if SRCH_THREADS
/* The threads of a decision (the calling thread and `workers` more): the calling thread
 * deals a chunk of samples, posts it, deals the next while the others start on it, then
 * takes samples of the posted chunk too; each sample's playouts (every live candidate)
 * go to one thread at a time, under the lock. The workers live for one decision (a
 * thread starts in tens of microseconds; a decision takes milliseconds). */
typedef struct crew {
    int workers;
    pthread_t thread[CC_SEARCH_MAX_THREADS - 1];
    pthread_mutex_t lock;
    pthread_cond_t work, finished;
    /* the chunk in hand, set under the lock before it is posted */
    const game *d;
    const uint64_t *seeds;
    const candidate *cand;
    int live[SRCH_MAX_CANDIDATES];
    int n_live, seat, discard;
    int n, next, done; /* its samples, the next to take, those played */
    unsigned posted;   /* the chunks posted so far */
    int stop;
    /* each sample's values (by candidate) and status */
    double value[CHUNK][SRCH_MAX_CANDIDATES];
    cc_status status[CHUNK];
    /* the two chunks of samples and their seeds */
    game *buf[2];
    uint64_t seed[2][CHUNK];
} crew;

/* Sample i of the chunk in hand: each live candidate played out on it (rec: the
 * thread's record), its status in c->status[i]. */
static void play_sample(crew *c, int i, cc_game_record *rec)
{
    cc_status st = CC_OK;
    int k;
    for (k = 0; k < c->n_live && st == CC_OK; k++)
        st = playout(&c->d[i], c->seat, c->discard, c->cand[c->live[k]], c->seeds[i], rec,
                     &c->value[i][c->live[k]]);
    c->status[i] = st;
}

/* Take the samples of the chunk in hand until none is left (c->lock held; held again
 * on return). */
static void take_samples(crew *c, cc_game_record *rec)
{
    while (c->next < c->n) {
        const int i = c->next++;
        pthread_mutex_unlock(&c->lock);
        play_sample(c, i, rec);
        pthread_mutex_lock(&c->lock);
        if (++c->done == c->n)
            pthread_cond_broadcast(&c->finished);
    }
}

static void *worker_main(void *arg)
{
    crew *c = (crew *)arg;
    cc_game_record rec; /* this thread's: the playouts' games write their counts here */
    unsigned seen = 0;
    memset(&rec, 0, sizeof rec);
    pthread_mutex_lock(&c->lock);
    for (;;) {
        while (!c->stop && c->posted == seen)
            pthread_cond_wait(&c->work, &c->lock);
        if (c->stop)
            break;
        seen = c->posted;
        take_samples(c, &rec);
    }
    pthread_mutex_unlock(&c->lock);
    return NULL;
}

/* The threads of a decision: `threads` - 1 workers beside the calling thread, or NULL
 * (the calling thread alone: one thread asked, or none could start). */
static crew *crew_start(int threads)
{
    crew *c;
    int i;
    if (threads <= 1)
        return NULL;
    c = (crew *)calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    c->buf[0] = (game *)malloc(2 * CHUNK * sizeof(game));
    if (c->buf[0] == NULL) {
        free(c);
        return NULL;
    }
    c->buf[1] = c->buf[0] + CHUNK;
    if (pthread_mutex_init(&c->lock, NULL) != 0) {
        free(c->buf[0]);
        free(c);
        return NULL;
    }
    if (pthread_cond_init(&c->work, NULL) != 0) {
        pthread_mutex_destroy(&c->lock);
        free(c->buf[0]);
        free(c);
        return NULL;
    }
    if (pthread_cond_init(&c->finished, NULL) != 0) {
        pthread_cond_destroy(&c->work);
        pthread_mutex_destroy(&c->lock);
        free(c->buf[0]);
        free(c);
        return NULL;
    }
    for (i = 0; i < threads - 1; i++)
        if (pthread_create(&c->thread[i], NULL, worker_main, c) != 0)
            break;
    c->workers = i;
    return c; /* with no worker, the calling thread plays the chunks alone */
}

/* The threads of the crew c, the calling one among them. */
static int crew_size(const crew *c)
{
    return c->workers + 1;
}

/* Of them, those that can run at once: no more than the cores online (where the
 * system says; a time budget's looks at the clock come that many chunks apart). */
static int crew_running(const crew *c)
{
    int n = crew_size(c);
#ifdef _SC_NPROCESSORS_ONLN
    const long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores >= 1 && cores < n)
        n = (int)cores;
#endif
    return n;
}

static void crew_stop(crew *c)
{
    int i;
    if (c == NULL)
        return;
    pthread_mutex_lock(&c->lock);
    c->stop = 1;
    pthread_cond_broadcast(&c->work);
    pthread_mutex_unlock(&c->lock);
    for (i = 0; i < c->workers; i++)
        pthread_join(c->thread[i], NULL);
    pthread_cond_destroy(&c->finished);
    pthread_cond_destroy(&c->work);
    pthread_mutex_destroy(&c->lock);
    free(c->buf[0]);
    free(c);
}

/* `count` samples dealt in order by the calling thread and played by the crew, their
 * gains added in that order: the same tally as one_sample `count` times. */
static cc_status crew_samples(decision *dc, const int *live, int n_live, uint32_t count)
{
    crew *c = dc->crew;
    const cc_search_view *v = dc->v;
    uint32_t done = 0;
    int cur = 0, m = count < CHUNK ? (int)count : CHUNK, i;
    for (i = 0; i < m; i++)
        c->seed[cur][i] = srch_deal(dc->tmpl, dc->sp, v, dc->prev, dc->prev_close, &dc->rng,
                               &c->buf[cur][i]);
    while (done < count) {
        const uint32_t left = count - done - (uint32_t)m;
        const int next_m = left < CHUNK ? (int)left : CHUNK;
        pthread_mutex_lock(&c->lock);
        c->d = c->buf[cur];
        c->seeds = c->seed[cur];
        c->cand = dc->cand;
        memcpy(c->live, live, (size_t)n_live * sizeof *live);
        c->n_live = n_live;
        c->seat = v->seat;
        c->discard = v->discard;
        c->n = m;
        c->next = c->done = 0;
        c->posted++;
        pthread_cond_broadcast(&c->work);
        pthread_mutex_unlock(&c->lock);
        for (i = 0; i < next_m; i++) /* the next chunk, while the workers play this one */
            c->seed[1 - cur][i] = srch_deal(dc->tmpl, dc->sp, v, dc->prev, dc->prev_close,
                                       &dc->rng, &c->buf[1 - cur][i]);
        pthread_mutex_lock(&c->lock);
        take_samples(c, NULL);
        while (c->done < c->n)
            pthread_cond_wait(&c->finished, &c->lock);
        pthread_mutex_unlock(&c->lock);
        for (i = 0; i < m; i++) {
            if (c->status[i] != CC_OK)
                return c->status[i];
            srch_add_gains(&dc->t, c->value[i], live, n_live, dc->prior);
        }
        done += (uint32_t)m;
        cur = 1 - cur;
        m = next_m;
    }
    return CC_OK;
}
#else
typedef struct crew {
    int unused;
} crew;

static crew *crew_start(int threads)
{
    (void)threads;
    return NULL;
}

static int crew_running(const crew *c)
{
    (void)c;
    return 1;
}

static void crew_stop(crew *c)
{
    (void)c;
}

static cc_status crew_samples(decision *dc, const int *live, int n_live, uint32_t count)
{
    (void)dc;
    (void)live;
    (void)n_live;
    (void)count;
    return CC_ERR_BAD_ARGUMENT; /* never called: no crew starts */
}
#endif

/* `count` samples, every live candidate played out on each, their gains added to the
 * decision's tally in the samples' order (by the crew when there is one). */
static cc_status play_samples(decision *dc, const int *live, int n_live, uint32_t count)
{
    uint32_t j;
    if (dc->crew != NULL)
        return crew_samples(dc, live, n_live, count);
    for (j = 0; j < count; j++) {
        const cc_status st = one_sample(dc->tmpl, dc->sp, dc->v, dc->prev, dc->prev_close,
                                        dc->cand, live, n_live, dc->prior, &dc->rng, &dc->t);
        if (st != CC_OK)
            return st;
    }
    return CC_OK;
}

/* The race or the clock over the candidates of the decision: its tally, and the live
 * candidates in live[0..*n_live). */
static cc_status run(decision *dc, uint32_t playouts, uint32_t micros, int n, int *live,
                     int *n_live)
{
    cc_status st;
    uint32_t samples[SRCH_MAX_CANDIDATES], last; /* by round (fewer than candidates) */
    int k, rounds, r, width;
    for (k = 0; k < n; k++)
        live[k] = k;
    *n_live = n;
    if (n <= 1)
        return CC_OK;
    if (playouts == 0) { /* a time budget: every candidate on every sample */
        /* a sample at a time alone; with threads, 4 a thread that can run between looks
         * at the clock (a few hundred microseconds of playouts at most); the clock from
         * before the threads started */
        const uint32_t step = dc->crew != NULL ? 4 * (uint32_t)crew_running(dc->crew) : 1;
        do {
            st = play_samples(dc, live, *n_live, step);
            if (st != CC_OK)
                return st;
        } while (cc_now_micros() - dc->start < micros);
        return CC_OK;
    }
    /* a race (successive halving, race.c): each round a share of the playouts over the
     * candidates, then the worse half of them out; looked at SRCH_LOOKS times a round,
     * when a candidate far behind the expert's choice, or that could no longer be taken
     * by the race's end, is dropped (its share not played) */
    for (rounds = 1; (1 << rounds) < n; rounds++)
        ;
    /* each live candidate's samples by round; `last`: all of them, the samples of a
     * candidate live to the race's end (a live one has played every sample so far) */
    for (r = 0, width = n, last = 0; r < rounds; r++, width = (width + 1) / 2) {
        const uint32_t share = playouts / (uint32_t)rounds / (uint32_t)width;
        samples[r] = share > 0 ? share : 1;
        last += samples[r];
    }
    for (r = 0, width = n; r < rounds; r++, width = (width + 1) / 2) {
        uint32_t done = 0;
        int look;
        for (look = 1; look <= SRCH_LOOKS; look++) {
            const uint32_t upto = (uint32_t)((uint64_t)samples[r] * (uint32_t)look / SRCH_LOOKS);
            if (upto > done) {
                st = play_samples(dc, live, *n_live, upto - done);
                if (st != CC_OK)
                    return st;
                done = upto;
            }
            if (r + 1 < rounds || look < SRCH_LOOKS) {
                *n_live = srch_drop_hopeless(live, *n_live, dc->prior, &dc->t, last);
                if (*n_live == 1)
                    return CC_OK; /* the expert's choice alone */
            }
        }
        if (r + 1 < rounds)
            *n_live = srch_halve(live, *n_live, dc->prior, &dc->t, (width + 1) / 2);
    }
    return CC_OK;
}

cc_status srch_choose(const cc_search_view *v, uint32_t playouts, uint32_t micros,
                      int threads, uint64_t seed, int *choice, int *close)
{
    cc_game_config cfg;
    cc_game_record rec;
    uint64_t links[64];
    game tmpl;
    sampler sp;
    candidate cand[SRCH_MAX_CANDIDATES];
    int live[SRCH_MAX_CANDIDATES];
    decision dc;
    cc_status st;
    int n, best, n_live;
    if (playouts == 0 && micros == 0)
        return CC_ERR_BAD_ARGUMENT;
    st = srch_template(v, &cfg, &rec, links, &tmpl, &sp);
    if (st != CC_OK)
        return st;
    n = candidates_of(v, &tmpl, cand);
    memset(&dc, 0, sizeof dc);
    dc.tmpl = &tmpl;
    dc.sp = &sp;
    dc.v = v;
    dc.cand = cand;
    dc.prior = prior_of(&tmpl, v->seat, v->discard, cand, n);
    dc.prev = srch_prev_seat(v, &tmpl);
    dc.prev_close = dc.prev >= 0 && may_close_at(&tmpl, v->turns - 1); /* at its turn */
    cc_rng_seed(&dc.rng, seed);
    dc.start = cc_now_micros();
    dc.crew = n > 1 ? crew_start(threads) : NULL;
    st = run(&dc, playouts, micros, n, live, &n_live);
    crew_stop(dc.crew);
    if (st != CC_OK)
        return st;
    best = srch_pick(&dc.t, live, n_live, dc.prior);
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
    return srch_choose(&v, g->cfg->search_playouts[seat], g->cfg->search_micros[seat], 1,
                       cc_rng_next(&g->bot_rng[seat]), a, b != NULL ? b : &unused);
}
