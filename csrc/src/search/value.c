/* value.c -- the search bot's value of a playout's end (docs/bots.md#the-search-bot):
 * the seat's chance to win the game from the totals, the seats in and their chips.
 * No math library: the logarithm and the exponential by their series. */

#include "search/value.h"

#define NONE (-1e300) /* a seat that cannot win */

/* e**x for x <= 0 within 1e-4 relative (below -40: 0), without the math library:
 * e**(x/64) by its Taylor series to the 7th power, squared six times. */
static double exp_neg(double x)
{
    double y, t, e;
    int k;
    if (x < -40.0)
        return 0.0;
    y = x / 64.0;
    t = 1.0;
    e = 1.0;
    for (k = 1; k <= 7; k++) {
        t *= y / k;
        e += t;
    }
    for (k = 0; k < 6; k++)
        e *= e;
    return e;
}

/* ln x for 0 < x (exact to about 1e-12 on the margins value_of takes): x halved or
 * doubled into [0.5, 1), then 2 atanh((x - 1) / (x + 1)) by its series. */
static double ln_pos(double x)
{
    static const double ln2 = 0.69314718055994530942;
    double u, u2, term, sum = 0.0;
    int k, e = 0;
    while (x >= 1.0) {
        x *= 0.5;
        e++;
    }
    while (x < 0.5) {
        x *= 2.0;
        e--;
    }
    u = (x - 1.0) / (x + 1.0);
    u2 = u * u;
    term = u;
    for (k = 1; k <= 25; k += 2) {
        sum += term / k;
        term *= u2;
    }
    return e * ln2 + 2.0 * sum;
}

/* The heads-up chance to win, fitted to the chances of the expert against itself under
 * conga (benchmarks/value_fit.py: a hand's points by who led it, from simulated games;
 * then the chance from every pair of totals by dynamic programming): a seat at total t
 * weighs (1 - t / (HEADS_UP_T (eliminate_above + 1)))**HEADS_UP_A and its chance is its
 * share of the two weights. Within 0.009 of the programme's chance on average (0.07 at
 * most), where the softmax of the margins below is off by 0.045 (0.15); in other games
 * the seats it gives 0.4-0.5 won 0.45, 0.8-0.9 won 0.87. */
#define HEADS_UP_T 1.4
#define HEADS_UP_A 3.4

/* The seat's chance to win the game from g (a playout's end): 1 or 0 (a draw: 1 over
 * the seats) once the game is over; heads-up without chips the fitted chance above;
 * else a softmax
 * of each seat's margin to elimination (eliminate_above less its total; a seat out
 * with a chip comes back at the highest total in, with a chip less; a seat out without
 * one cannot win), each chip left worth half the softmax's scale, the scale a fifth of
 * eliminate_above. */
double srch_value(const game *g, int seat)
{
    double scale, score[CC_MAX_PLAYERS] = {0}, top = NONE, sum = 0.0;
    int64_t high = 0;
    int s, first = 1;
    if (g->over) {
        if (g->rec->status == CC_GAME_WON)
            return g->rec->winner == seat ? 1.0 : 0.0;
        return 1.0 / g->n;
    }
    if (g->n == 2 && g->in[0] && g->in[1] && g->chips[0] == 0 && g->chips[1] == 0) {
        const double t = HEADS_UP_T * ((double)g->cfg->eliminate_above + 1.0);
        double d, a = 1.0 - (double)g->totals[seat] / t;
        double b = 1.0 - (double)g->totals[1 - seat] / t;
        a = a < 1e-9 ? 1e-9 : a; /* a total in play is at most eliminate_above: > 0.28 */
        b = b < 1e-9 ? 1e-9 : b;
        d = HEADS_UP_A * (ln_pos(b) - ln_pos(a)); /* ln(b's weight / a's) */
        return d <= 0.0 ? 1.0 / (1.0 + exp_neg(d)) : exp_neg(-d) / (exp_neg(-d) + 1.0);
    }
    scale = (double)g->cfg->eliminate_above / 5.0;
    scale = scale < 1.0 ? 1.0 : scale;
    for (s = 0; s < g->n; s++)
        if (g->in[s] && (first || g->totals[s] > high)) {
            high = g->totals[s];
            first = 0;
        }
    for (s = 0; s < g->n; s++) {
        double margin, chips;
        if (g->in[s]) {
            margin = (double)(g->cfg->eliminate_above - g->totals[s]);
            chips = (double)g->chips[s];
        } else if (g->chips[s] > 0) {
            margin = (double)(g->cfg->eliminate_above - high);
            chips = (double)(g->chips[s] - 1);
        } else {
            score[s] = NONE;
            continue;
        }
        score[s] = margin / scale + 0.5 * chips;
        top = score[s] > top ? score[s] : top;
    }
    if (score[seat] == NONE)
        return 0.0;
    for (s = 0; s < g->n; s++)
        if (score[s] != NONE)
            sum += exp_neg(score[s] - top);
    return exp_neg(score[seat] - top) / sum;
}
