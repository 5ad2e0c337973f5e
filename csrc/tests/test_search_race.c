/* The search's race (csrc/src/search/race.c) on tallies made by hand:
 *   - the halving keeps the expert's choice (the prior) and exactly the best keep - 1
 *     of the others by mean gain, in their order, wherever the prior is listed and
 *     whatever was dropped before it (a halving that moved the kept candidates while
 *     still ranking the others kept one more or one fewer there);
 *   - a candidate leaves the race only when its mean gain is more than 2 standard
 *     errors below nothing, never the prior, never on fewer than 2 samples;
 *   - or when, from 16 samples on, it could no longer be taken by its last sample
 *     (its chance to end over z 1.5 under 1 in 100), at the edge of that test
 *     computed here;
 *   - the choice is the prior unless a gain is significant, then the largest such.
 * Internal: the test reads the search's headers (src/), which the public API hides. */

#include <math.h>
#include <string.h>

#include "chinchon.h"
#include "search/race.h"

#include "testlib.h"

/* A tally where candidate k has m samples of gains mean[k] +- sd (half each way). */
static void fill(srch_tally *t, int n, const double *mean, double sd, uint32_t m)
{
    int k;
    memset(t, 0, sizeof *t);
    for (k = 0; k < n; k++) {
        t->samples[k] = m;
        t->gain[k] = mean[k] * m;
        t->gain2[k] = (mean[k] * mean[k] + sd * sd) * m;
    }
}

static void check_halve(void)
{
    /* 8 candidates by mean gain; the prior (gain 0 by definition) at each place */
    const double base[8] = {-0.05, -0.01, -0.04, -0.002, -0.03, -0.02, -0.06, -0.005};
    int prior;
    for (prior = 0; prior < 8; prior++) {
        double mean[8];
        srch_tally t;
        int live[8], n = 8, k, out, drop;
        memcpy(mean, base, sizeof mean);
        mean[prior] = 0.0;
        fill(&t, 8, mean, 0.5, 100);
        for (k = 0; k < 8; k++)
            live[k] = k;
        /* a first halving of all 8 keeps 4: the prior and the 3 best others */
        out = srch_halve(live, n, prior, &t, 4);
        CHECK(out == 4, "prior %d: kept %d of 8, not 4", prior, out);
        for (k = 0; k < out; k++) {
            int c = live[k], better = 0, j;
            for (j = 0; j < 8; j++)
                if (j != prior && j != c && mean[j] > mean[c])
                    better++;
            CHECK(c == prior || better < 3, "prior %d: kept %d, %d better", prior, c, better);
            CHECK(k == 0 || live[k - 1] < c, "prior %d: out of order", prior);
        }
        /* a candidate listed before the prior dropped first, then a halving to 3 */
        for (drop = 0; drop < prior; drop++) {
            int m = 0;
            for (k = 0; k < 8; k++)
                if (k != drop)
                    live[m++] = k;
            out = srch_halve(live, m, prior, &t, 3);
            CHECK(out == 3, "prior %d, %d dropped: kept %d of 7, not 3", prior, drop, out);
        }
    }
}

static void check_drop(void)
{
    const double mean[4] = {0.0, -0.09, -0.01, -0.09};
    srch_tally t;
    int live[4] = {0, 1, 2, 3}, out;
    /* sd 0.5 on 100 samples: standard error 0.05; -0.09 is 1.8 of them (kept), -0.01
     * far less */
    fill(&t, 4, mean, 0.5, 100);
    EXPECT(srch_drop_hopeless(live, 4, 0, &t, 0) == 4);
    /* on 400 samples the error halves: the two at -0.09 (3.6 errors) leave, the prior
     * stays */
    fill(&t, 4, mean, 0.5, 400);
    out = srch_drop_hopeless(live, 4, 0, &t, 0);
    EXPECT(out == 2 && live[0] == 0 && live[1] == 2);
    /* the prior stays however far behind it is of itself; one sample judges nothing */
    fill(&t, 4, mean, 0.0, 1);
    live[0] = 0, live[1] = 1, live[2] = 2, live[3] = 3;
    EXPECT(srch_drop_hopeless(live, 4, 1, &t, 0) == 4);
}

/* Candidate 1 (mean gain `mean`, sd `sd`, m samples; the prior 0) after a look where
 * each may have `last` samples at the race's end: whether it is still live. */
static int kept_at(double mean, double sd, uint32_t m, uint32_t last)
{
    const double means[2] = {0.0, mean};
    srch_tally t;
    int live[2] = {0, 1};
    fill(&t, 2, means, sd, m);
    return srch_drop_hopeless(live, 2, 0, &t, last) == 2;
}

static void check_futile(void)
{
    uint32_t m;
    /* a candidate leaves once its chance to end over z 1.5 at its last sample is under
     * 1 in 100, its sum there normal with mean last * mean and variance sd**2 (last -
     * m) last / m: at the boundary last * mean + 2.33 sd sqrt((last - m) last / m) =
     * 1.5 sd sqrt(last), computed here */
    for (m = 16; m <= 1600; m *= 3) {
        const uint32_t lasts[4] = {m + 1, m + m / 4, 2 * m, 10 * m};
        int i;
        for (i = 0; i < 4; i++) {
            const double last = lasts[i], sd = 0.5;
            const double edge
                = sd * (1.5 * sqrt(last) - 2.33 * sqrt((last - m) * last / m)) / last;
            const double step = 1e-6 + 1e-6 * fabs(edge);
            CHECK(!kept_at(edge - step, sd, m, lasts[i]), "m %u last %u: kept below %g", m,
                  lasts[i], edge);
            /* above the edge it stays, unless it is far behind (z < -2) */
            if ((edge + step) * sqrt((double)m) / sd > -2.0)
                CHECK(kept_at(edge + step, sd, m, lasts[i]), "m %u last %u: dropped above %g",
                      m, lasts[i], edge);
        }
    }
    /* z 0.4 on 100 samples: hopeless with 10 more to come, not with 900 */
    EXPECT(!kept_at(0.02, 0.5, 100, 110));
    EXPECT(kept_at(0.02, 0.5, 100, 1000));
    /* z -0.4 halfway: its mean may well be higher than seen so far; it stays */
    EXPECT(kept_at(-0.02, 0.5, 100, 200));
    /* z 1 on 100 samples, 300 to come: it stays */
    EXPECT(kept_at(0.05, 0.5, 100, 400));
    /* a candidate that played exactly as the prior on every sample: from 16 samples on */
    EXPECT(!kept_at(0.0, 0.0, 16, 32));
    EXPECT(kept_at(0.0, 0.0, 15, 32));
    /* nothing to come, or `last` not given: not judged so */
    EXPECT(kept_at(0.0, 0.5, 100, 100));
    EXPECT(kept_at(0.0, 0.5, 100, 0));
    /* a gain with no spread is significant, however small: it stays */
    EXPECT(kept_at(0.001, 0.0, 100, 200));
}

static void check_pick(void)
{
    const double mean[4] = {0.0, 0.02, 0.2, 0.05};
    srch_tally t;
    int live[4] = {0, 1, 2, 3};
    /* sd 1 on 100 samples: error 0.1; only 0.2 is over z 1.5 */
    fill(&t, 4, mean, 1.0, 100);
    EXPECT(srch_pick(&t, live, 4, 0) == 2);
    /* without it, none is: the prior */
    EXPECT(srch_pick(&t, live, 2, 0) == 0);
    /* on 10,000 samples 0.02 and 0.05 are significant too: the largest gain */
    fill(&t, 4, mean, 1.0, 10000);
    live[2] = 3;
    EXPECT(srch_pick(&t, live, 3, 0) == 3);
}

int main(void)
{
    check_halve();
    check_drop();
    check_futile();
    check_pick();
    return th_report("test_search_race");
}
