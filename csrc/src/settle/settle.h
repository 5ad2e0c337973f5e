/*
 * settle.h -- internal: the settlement under rules that are not plain (SPEC 9.3), called
 * by cc_settle (settle.c) once the arguments and the deal are checked.
 */
#ifndef CC_SRC_SETTLE_H
#define CC_SRC_SETTLE_H

#include "chinchon.h"

#include "base/bits.h"

/* The closer, then each opponent in play order, under rules with jokers, the 40-card
 * deck or seven_run_wins off (settle_variants.c). out->decks (1 or 2: the set capacity)
 * and out->n_opponents are set, the rest of *out zeroed; the hands are valid under the
 * rules. CC_ERR_CANNOT_CLOSE (out->deadwood set) over the close limit, else CC_OK. */
CC_INTERNAL cc_status cc_var_settle(const cc_rules *rules, cc_hand closer,
                                    const cc_hand *opponents, int n_opponents,
                                    cc_settlement *out);

#endif /* CC_SRC_SETTLE_H */
