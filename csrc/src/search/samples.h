/* samples.h -- internal: the search's samples (samples.c), dealt for search.c: the
 * template game of a view, the seat whose last discard holds them, one deal. */
#ifndef CC_SRC_SEARCH_SAMPLES_H
#define CC_SRC_SEARCH_SAMPLES_H

#include "chinchon.h"

#include "base/bits.h"
#include "engine/engine.h"

/* The unseen cards of a view, as the samples deal them. */
typedef struct sampler {
    uint8_t forced[CC_MAX_DECK]; /* unseen cards that cannot be in the stock: in a hand */
    uint8_t free_[CC_MAX_DECK];  /* unseen cards that can be anywhere */
    int n_forced, n_free;
    int slots;                   /* the unknown cards of the other hands */
} sampler;

/* The game of the view with the other hands and the stock empty (a sample fills them),
 * its unseen cards in *sp (samples.c). CC_ERR_BAD_ARGUMENT when the view's cards do
 * not fit its deck and counts. O(deck). */
CC_INTERNAL cc_status srch_template(const cc_search_view *v, cc_game_config *cfg,
                                    cc_game_record *rec, uint64_t *links, game *g,
                                    sampler *sp);

/* The seat that played the turn before the view's seat, or -1 (samples.c). */
CC_INTERNAL int srch_prev_seat(const cc_search_view *v, const game *g);

/* One sample from the template into *d, and the seed of its playouts (samples.c). */
CC_INTERNAL uint64_t srch_deal(const game *tmpl, const sampler *sp, const cc_search_view *v,
                               int prev, int prev_close, cc_rng *rng, game *d);

#endif /* CC_SRC_SEARCH_SAMPLES_H */
