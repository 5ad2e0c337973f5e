/*
 * settle.h -- internal: the settlement of a checked deal (settle.c), under every rule set;
 * cc_settle checks the arguments and the deal, then calls it.
 */
#ifndef CC_SRC_SETTLE_H
#define CC_SRC_SETTLE_H

#include "chinchon.h"

#include "base/bits.h"

/* The closer, then each opponent in play order. out->decks (1 or 2: the set capacity)
 * and out->n_opponents are set, the rest of *out zeroed; the hands are valid under the
 * rules and the deal is possible. CC_ERR_CANNOT_CLOSE (out->deadwood and the closer's
 * side set) over the close limit, else CC_OK. Microseconds (see chinchon.h). */
CC_INTERNAL cc_status cc_settle_deal(const cc_rules *rules, cc_hand closer,
                                     const cc_hand *opponents, int n_opponents,
                                     cc_settlement *out);

#endif /* CC_SRC_SETTLE_H */
