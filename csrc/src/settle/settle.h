/*
 * settle.h -- internal: the settlement (settle.c), under every rule set. cc_settle (api.c)
 * checks the arguments, then calls cc_settle_run, which checks the deal and settles it.
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

/* cc_settle for arguments already in range (rules and opponents not NULL, out not NULL,
 * 1 <= n_opponents <= CC_MAX_OPPONENTS, 0 <= decks <= 2): *out zeroed, the deal checked
 * (out->bad_seat, out->bad_card on a bad card), then settled. Microseconds. */
CC_INTERNAL cc_status cc_settle_run(const cc_rules *rules, cc_hand closer,
                                    const cc_hand *opponents, int n_opponents, int decks,
                                    cc_settlement *out);

#endif /* CC_SRC_SETTLE_H */
