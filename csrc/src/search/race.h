/* race.h -- internal: the search bot's race (race.c): the candidates' paired gains over
 * the expert's choice, the candidates dropped and halved between rounds, and the
 * choice at the end; for the decisions of search.c. No game, no playout: statistics
 * over the tally alone. */
#ifndef CC_SRC_SEARCH_RACE_H
#define CC_SRC_SEARCH_RACE_H

#include "chinchon.h"

#include "base/bits.h"

/* the candidates: a draw's 2, a discard's 8 cards each with and without closing */
#define SRCH_MAX_CANDIDATES 16

/* The looks at each round of the race, after each 1/SRCH_LOOKS of its share: a
 * candidate far behind the expert's choice, or that could no longer be taken, leaves
 * the race (srch_drop_hopeless). */
#define SRCH_LOOKS 4

/* The running sums of the candidates' paired gains over the expert's choice. */
typedef struct srch_tally {
    double gain[SRCH_MAX_CANDIDATES], gain2[SRCH_MAX_CANDIDATES];
    uint32_t samples[SRCH_MAX_CANDIDATES];
} srch_tally;

/* Each live candidate's gain on one sample (value: by candidate) over the prior's, added
 * to t (the prior is always live). O(live). */
CC_INTERNAL void srch_add_gains(srch_tally *t, const double *value, const int *live,
                                int n_live, int prior);

/* The live candidates without those far behind the prior, or that could no longer be
 * taken by the race's end, with `last` samples each at most (0: not judged so); the
 * prior stays. In their order; their count. O(live). */
CC_INTERNAL int srch_drop_hopeless(int *live, int n_live, int prior, const srch_tally *t,
                                   uint32_t last);

/* The live candidates after a round: the prior and the best `keep` - 1 of the others by
 * mean gain (ties to the first), in their order; their count. O(live**2). */
CC_INTERNAL int srch_halve(int *live, int n_live, int prior, const srch_tally *t, int keep);

/* The choice at the end of the race: the prior, unless a live candidate's mean gain over
 * it is significant; of those the largest gain. O(live). */
CC_INTERNAL int srch_pick(const srch_tally *t, const int *live, int n_live, int prior);

#endif /* CC_SRC_SEARCH_RACE_H */
