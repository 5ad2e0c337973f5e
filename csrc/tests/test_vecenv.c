/* The learning tables (csrc/src/rl/vecenv.c, vecpool.c) under three presets, table
 * sizes and bots: every step's status, each table's mask holds the action drawn from it
 * and agrees with the observation's phase, the numbers are whole and bounded, a pool of
 * three threads writes exactly what one thread writes, an action outside a mask is
 * found and refused (or penalised), a config out of range is refused. The Python tests
 * (tests/rl/test_vector.py) compare the tables with the Python environment. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chinchon.h"

#include "engine_config.h"
#include "testlib.h"

#define TABLES 37
#define STEPS 1500
#define PHASE_AT 874 /* encoding.FIELDS["phase_draw"] */

typedef struct outputs {
    float obs[TABLES * CC_VEC_OBS];
    int8_t masks[TABLES * CC_VEC_ACTIONS];
    double rewards[TABLES];
    uint8_t terminated[TABLES], truncated[TABLES], refused[TABLES];
} outputs;

/* The tables of one config, reset from seed 100 + i. */
static cc_vec_table *started(const cc_vec_config *cfg, outputs *o)
{
    cc_vec_table *t = cc_vec_alloc(TABLES);
    size_t i;
    CHECK(t != NULL, "alloc");
    for (i = 0; t != NULL && i < TABLES; i++) {
        const uint64_t mag[CC_RNG_SEED_WORDS] = {100 + i, 0, 0, 0};
        CHECK(cc_vec_reset(cfg, t, i, 0, mag, o->obs + i * CC_VEC_OBS,
                           o->masks + i * CC_VEC_ACTIONS) == CC_OK, "reset %zu", i);
    }
    return t;
}

static void check_row(const outputs *o, size_t i, const char *preset)
{
    const float *obs = o->obs + i * CC_VEC_OBS;
    const int8_t *mask = o->masks + i * CC_VEC_ACTIONS;
    int k, any = 0, phases = 0, over;
    for (k = 0; k < CC_VEC_OBS; k++)
        if (!(obs[k] >= -16777216.0f && obs[k] <= 16777216.0f)
            || obs[k] != (float)(int32_t)obs[k]) {
            FAIL("%s table %zu: obs[%d] = %g", preset, i, k, (double)obs[k]);
            break;
        }
    for (k = 0; k < 4; k++)
        phases += obs[PHASE_AT + k] == 1.0f;
    over = obs[PHASE_AT + 3] == 1.0f;
    for (k = 0; k < CC_VEC_ACTIONS; k++)
        any |= mask[k];
    CHECK(phases == 1 && any == !over, "%s table %zu: phases %d, mask %d", preset, i, phases,
          any);
    CHECK(!over || o->terminated[i] || o->truncated[i], "%s table %zu: over but not done",
          preset, i);
}

static void check_preset(const char *preset, int players, const char *bots, int learner)
{
    static outputs a, b;
    cc_vec_config cfg;
    cc_vec_table *ta, *tb;
    cc_vec_pool *one = cc_vec_pool_new(1), *three = cc_vec_pool_new(3);
    cc_rng rng;
    int64_t actions[TABLES];
    const uint64_t zero[CC_RNG_SEED_WORDS] = {0, 0, 0, 0};
    int step, ends = 0;
    size_t i;
    memset(&cfg, 0, sizeof cfg);
    CHECK(config_of(&cfg.game, preset, players, bots, 0), "config %s", preset);
    cfg.learner = learner;
    cfg.hand_rewards = 1;
    cfg.max_turns = 500;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    ta = started(&cfg, &a);
    tb = started(&cfg, &b);
    CHECK(one != NULL && three != NULL, "pools");
    cc_rng_seed(&rng, cc_rng_derive(0, zero, NULL, 0));
    for (step = 0; ta && tb && one && three && step < STEPS; step++) {
        cc_vec_sample(ta, TABLES, &rng, actions);
        for (i = 0; i < TABLES; i++)
            CHECK(a.masks[i * CC_VEC_ACTIONS + actions[i]] || actions[i] == 0,
                  "%s step %d table %zu: action %d not in the mask", preset, step, i,
                  (int)actions[i]);
        CHECK(cc_vec_refused(ta, TABLES, actions) == TABLES, "%s: a sampled action refused",
              preset);
        CHECK(cc_vec_step_all(one, &cfg, ta, TABLES, actions, a.obs, a.masks, a.rewards,
                              a.terminated, a.truncated, a.refused) == CC_OK, "step one");
        CHECK(cc_vec_step_all(three, &cfg, tb, TABLES, actions, b.obs, b.masks, b.rewards,
                              b.terminated, b.truncated, b.refused) == CC_OK, "step three");
        CHECK(memcmp(&a, &b, sizeof a) == 0, "%s step %d: three threads differ", preset, step);
        for (i = 0; i < TABLES; i++) {
            check_row(&a, i, preset);
            ends += a.terminated[i] + a.truncated[i];
        }
    }
    CHECK(ends > 0, "%s: no game ended", preset);
    /* an action outside a mask: found, refused, or penalised (the game ends) */
    for (i = 0; i < TABLES; i++)
        actions[i] = CC_VEC_ACTIONS; /* never allowed; ignored by a table just done */
    for (i = 0; ta && i < TABLES && a.terminated[i] + a.truncated[i]; i++)
        ;
    if (ta && i < TABLES) {
        CHECK(cc_vec_refused(ta, TABLES, actions) == i, "%s: refused table", preset);
        CHECK(cc_vec_step(&cfg, ta, i, 1, actions, a.obs, a.masks, a.rewards, a.terminated,
                          a.truncated, a.refused) == CC_ERR_BAD_ARGUMENT, "%s: refused", preset);
        cfg.penalise = 1;
        cfg.penalty = -2.5;
        CHECK(cc_vec_step(&cfg, ta, i, 1, actions, a.obs, a.masks, a.rewards, a.terminated,
                          a.truncated, a.refused) == CC_OK, "%s: penalised", preset);
        CHECK(a.refused[i] && a.terminated[i] && a.rewards[i] == -2.5, "%s: the penalty",
              preset);
    }
    cc_vec_pool_free(one);
    cc_vec_pool_free(three);
    cc_vec_free(ta);
    cc_vec_free(tb);
}

static void check_bad_configs(void)
{
    static outputs o;
    cc_vec_config cfg;
    cc_vec_table *t = cc_vec_alloc(1);
    const uint64_t mag[CC_RNG_SEED_WORDS] = {1, 0, 0, 0};
    const int64_t draw[1] = {128};
    memset(&cfg, 0, sizeof cfg);
    CHECK(config_of(&cfg.game, "barajamos", 2, "greedy", 0), "config");
    cfg.learner = 2;
    CHECK(cc_vec_reset(&cfg, t, 0, 0, mag, o.obs, o.masks) == CC_ERR_BAD_ARGUMENT,
          "learner out of the table");
    cfg.learner = 0;
    cfg.game.players = 7;
    CHECK(cc_vec_reset(&cfg, t, 0, 0, mag, o.obs, o.masks) == CC_ERR_BAD_ARGUMENT,
          "7 players");
    cfg.game.players = 2;
    CHECK(cc_vec_step(&cfg, t, 0, 1, draw, o.obs, o.masks, o.rewards,
                      o.terminated, o.truncated, o.refused) == CC_ERR_BAD_ARGUMENT,
          "a table never reset");
    CHECK(cc_vec_reset(&cfg, t, 0, 0, NULL, o.obs, o.masks) == CC_ERR_BAD_ARGUMENT,
          "no seed for a table never seeded");
    CHECK(cc_vec_reset(&cfg, t, 0, 0, mag, o.obs, o.masks) == CC_OK, "the good config");
    CHECK(cc_vec_step_all(NULL, &cfg, t, 1, NULL, o.obs, o.masks, o.rewards, o.terminated,
                          o.truncated, o.refused) == CC_ERR_BAD_ARGUMENT, "no pool");
    cc_vec_free(t);
}

int main(void)
{
    check_preset("barajamos", 2, "greedy", 0);
    check_preset("conga", 4, "random,expert,greedy", 2);
    check_preset("fifty", 6, "greedy,random", 5);
    check_bad_configs();
    return th_report("test_vecenv");
}
