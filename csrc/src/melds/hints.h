/*
 * hints.h -- internal: the discard hints under plain rules (hints.c), for valid hands of
 * exactly 8 cards: the deadwood of the 7 cards each discard leaves, and the outcome of
 * closing with them.
 */
#ifndef CC_SRC_HINTS_H
#define CC_SRC_HINTS_H

#include <stddef.h>
#include <stdint.h>

#include "chinchon.h"

#include "base/bits.h"

/* Whether some discard of the 8 hint points leaves a hand that may close: a close needs
 * the deadwood within rules->close_limit (chinchon and minus ten have none), so when no
 * hint is, every outcome is CC_CANNOT_CLOSE. O(8), branch-free. */
CC_INLINE int cc_hints_may_close(const cc_rules *rules, const uint8_t *points)
{
    int k, any = 0;
    for (k = 0; k < 8; k++)
        any |= points[k] <= rules->close_limit;
    return any;
}

/* Hint points of the valid 8 cards h, ascending card order, a copy held twice listed
 * twice: plain rules, or a view of the rules on the working space (no joker).
 * One 8-card deadwood plus <= 8 seven-card ones. */
CC_INTERNAL void cc_hints_plain(const cc_rules *rules, cc_hand h, uint8_t *points);

/* cc_hints_plain, and the closing outcomes into outcomes[8] when not NULL (plain rules).
 * The hints plus O(8). */
CC_INTERNAL void cc_hints_of(const cc_rules *rules, cc_hand h, uint8_t *points,
                             uint8_t *outcomes);

/* Hint points of n batch rows of exactly 8 cards under plain rules (see cc_batch_row)
 * into 8n bytes; stops at the first bad row. O(n) hint rows. */
CC_INTERNAL cc_status cc_hints_rows(const cc_rules *rules, const uint64_t *masks, size_t n,
                                    int decks, uint8_t *out, size_t *bad_row);

#endif /* CC_SRC_HINTS_H */
