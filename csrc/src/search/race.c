/* race.c -- the search bot's race (docs/bots.md#the-search-bot, steps 4 and 5): the
 * statistics over the candidates' paired gains that decide which candidates play on
 * and which one is chosen. search.c plays the samples and calls these between them. */
#include <math.h>

#include "chinchon.h"

#include "search/race.h"

/* The least z-score of a candidate's mean gain over the expert's choice for the search
 * to take it instead: with 16 candidates, one of them beats z = 2 by chance alone
 * about one decision in three; 2.5 about one in seven. */
#define OVERRIDE_Z 1.5

/* A candidate leaves the race as soon as its mean gain over the expert's choice is
 * more than STOP_Z standard errors below nothing, looked at SRCH_LOOKS times a round
 * (its remaining share is not played), and the decision ends when only the expert's
 * choice is left: most decisions are clear long before their budget is spent. Measured
 * at 5000 playouts against the race played to its end on the same samples: heads-up
 * under conga (30 games) 776 of 927 draws and 558 of 927 discards ended early and one
 * discard came out otherwise; at 4 players under the house rules (8 games) 353 of 543
 * draws and 217 of 543 discards ended early and three discards came out otherwise. */
#define STOP_Z 2.0

/* It also leaves once it could no longer be taken: the chance that it would end the
 * race over OVERRIDE_Z, however many halvings it survived, is under 1 in 100
 * (FUTILE_Z standard deviations), its gains to come drawn as its samples so far allow
 * (their mean known only to its standard error: a flat prior). Judged from FUTILE_MIN
 * samples on. Measured at 5000 playouts against the race without it, on the same
 * samples (docs/bots.md, step 4). */
#define FUTILE_Z 2.33
#define FUTILE_MIN 16

void srch_add_gains(srch_tally *t, const double *value, const int *live, int n_live,
                    int prior)
{
    int i;
    for (i = 0; i < n_live; i++) { /* paired with the expert's choice on the same sample */
        const int k = live[i];
        const double x = value[k] - value[prior];
        t->gain[k] += x;
        t->gain2[k] += x * x;
        t->samples[k]++;
    }
}

/* Candidate k's mean gain over the prior and its variance; 0 with fewer than 2 samples
 * (too few to judge). O(1). */
static int mean_var(const srch_tally *t, int k, double *mean, double *var)
{
    const uint32_t m = t->samples[k];
    if (m <= 1)
        return 0;
    *mean = t->gain[k] / m;
    *var = t->gain2[k] / m - *mean * *mean;
    return 1;
}

/* Whether candidate k's mean gain over the prior is more than STOP_Z standard errors
 * below nothing, or (from FUTILE_MIN samples, with `last` > its m samples) it could no
 * longer be taken by its last sample. Its sum of gains there, given its m so far, is
 * normal with mean `last` * mean and variance var * (last - m) * last / m; that it
 * stays under OVERRIDE_Z sd sqrt(last) but for 1 chance in 100 is, with z its z-score
 * now (mean sqrt(m) / sd) and f = m / last: z < OVERRIDE_Z sqrt(f) - FUTILE_Z
 * sqrt(1 - f). With no spread, a mean of nothing or less. O(1). */
static int hopeless(const srch_tally *t, int k, uint32_t last)
{
    const uint32_t m = t->samples[k];
    double mean, var, f;
    if (!mean_var(t, k, &mean, &var))
        return 0;
    if (var < 0.0)
        var = 0.0; /* rounding */
    if (mean < 0.0 && mean * mean * m > STOP_Z * STOP_Z * var)
        return 1;
    if (m < FUTILE_MIN || last <= m)
        return 0;
    if (var == 0.0)
        return mean <= 0.0;
    f = (double)m / last;
    return mean * sqrt((double)m / var) < OVERRIDE_Z * sqrt(f) - FUTILE_Z * sqrt(1.0 - f);
}

int srch_drop_hopeless(int *live, int n_live, int prior, const srch_tally *t, uint32_t last)
{
    int out = 0, i;
    for (i = 0; i < n_live; i++)
        if (live[i] == prior || !hopeless(t, live[i], last))
            live[out++] = live[i];
    return out;
}

/* Each one's place is decided before any is moved. */
int srch_halve(int *live, int n_live, int prior, const srch_tally *t, int keep)
{
    double mean[SRCH_MAX_CANDIDATES];
    int kept[SRCH_MAX_CANDIDATES];
    int out = 0, i, j;
    for (i = 0; i < n_live; i++)
        mean[i] = t->samples[live[i]] > 0 ? t->gain[live[i]] / t->samples[live[i]] : 0.0;
    for (i = 0; i < n_live; i++) {
        int rank = 0; /* the others ahead of it */
        kept[i] = 1;
        if (live[i] == prior)
            continue;
        for (j = 0; j < n_live; j++)
            if (live[j] != prior && (mean[j] > mean[i] || (mean[j] == mean[i] && j < i)))
                rank++;
        kept[i] = rank < keep - 1;
    }
    for (i = 0; i < n_live; i++)
        if (kept[i])
            live[out++] = live[i];
    return out;
}

/* Significant: z above OVERRIDE_Z, mean**2 > z**2 var / samples. */
int srch_pick(const srch_tally *t, const int *live, int n_live, int prior)
{
    int best = prior, r;
    double best_gain = 0.0;
    for (r = 0; r < n_live; r++) {
        const int k = live[r];
        double mean, var;
        if (!mean_var(t, k, &mean, &var))
            continue;
        if (mean > best_gain && mean * mean * t->samples[k] > OVERRIDE_Z * OVERRIDE_Z * var) {
            best = k;
            best_gain = mean;
        }
    }
    return best;
}
