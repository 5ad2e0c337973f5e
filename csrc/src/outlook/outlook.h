/*
 * outlook.h -- internal: the outlook (outlook.c), discard hints that look one draw
 * ahead: cc_prospect_of, cc_outlook and cc_outlook_batch past their pointer checks,
 * for the public entries and the expert bot. Each checks its hands and unseen cards.
 */
#ifndef CC_SRC_OUTLOOK_H
#define CC_SRC_OUTLOOK_H

#include <stddef.h>
#include <stdint.h>

#include "chinchon.h"

#include "base/bits.h"

/* The prospect of 7 cards h7 drawing one of unseen (rules non-NULL, out non-NULL).
 * One 7-card deadwood, seven 6-card ones and a hint search per useful unseen card
 * (plain rules); a hint search per distinct unseen card otherwise. */
CC_INTERNAL cc_status cc_ahead_prospect(const cc_rules *rules, cc_hand h7, cc_hand unseen,
                                        cc_prospect *out);

/* The hints of 8 cards h8 and the prospect after each discard (rules, points and out
 * non-NULL; outcomes may be NULL). The hints and eight prospects. */
CC_INTERNAL cc_status cc_ahead_hand(const cc_rules *rules, cc_hand h8, cc_hand unseen,
                                    uint16_t points[8], uint8_t *outcomes,
                                    cc_prospect out[8]);

/* The outlook of n batch rows (rules non-NULL, decks 1 or 2, the arrays present when
 * n > 0) into 8 * CC_OUTLOOK_COLUMNS doubles a row; stops at the first bad row.
 * O(n) outlooks. */
CC_INTERNAL cc_status cc_ahead_rows(const cc_rules *rules, const uint64_t *masks,
                                    const uint64_t *unseen, size_t n, int decks, double *out,
                                    size_t *bad_row);

#endif /* CC_SRC_OUTLOOK_H */
