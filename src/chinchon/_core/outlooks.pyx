# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: freethreading_compatible = True
"""The outlook, hints one draw ahead (docs/rules.md#the-outlook-one-draw-ahead), over
``cc_prospect_of``, ``cc_outlook`` and ``cc_outlook_batch``.

The common calls -- a Hand (or a list of Cards) and a Hand of unseen cards, or none --
go straight to the C core; anything else, and every refusal, goes through the shared
check (:func:`chinchon._args.check_unseen`), which raises the documented error naming
the card.
"""

from libc.stdint cimport uint8_t, uint16_t, uint64_t

from .chinchon cimport (CC_OK, CC_OUTLOOK_COLUMNS, cc_hand, cc_outlook, cc_outlook_batch,
                        cc_prospect, cc_prospect_of, cc_rules, cc_status)
from ._common cimport (CRules, card_order, crules_of, hand_masks, raise_status, run_chunks,
                      status_name)
from ._results cimport draw_outlook_of, outlook_of

import numpy as np

from .._args import (check_rules, check_threads, check_unseen, normalize_outlook_batch,
                     read_once, row_error, row_status, unseen_row_error, unseen_row_status)
from ..cards import LANE_MASK, Card, Hand, coerce_cards
from ..rules import HOUSE_RULES

# an outlook row is ~1000x a hint row: a batch is split over threads from this many on
cdef size_t _MIN_ROWS_PER_THREAD = 256


cdef inline int _outlook_rules(object rules, int decks, cc_rules *out) except -1:
    out[0] = crules_of(rules).r
    out.decks = <uint8_t>decks
    return 0


cdef inline uint64_t _card_mask(object rules) except? 0:
    if rules is None or rules is HOUSE_RULES:
        return LANE_MASK
    return check_rules(rules).solver.card_mask


cdef int _fast_hand(object hand, object decks, int n, cc_hand *h) except -1:
    """The masks of a Hand, card text or a list of Cards or card texts of n cards,
    without the generic check: its number of decks (the Hand's; else ``decks`` or 2 when
    a card is twice), or 0 when anything is unusual (the generic check then raises the
    documented error)."""
    cdef int nd = 0
    cdef type t = type(hand)
    if (t is Hand or t is list or t is tuple or t is str) and hand_masks(hand, decks, h,
                                                                         &nd) == n:
        return nd
    return 0


cdef int _checked(object hand, object uo, object ut, cc_hand *h, cc_hand *u) except -1:
    """The masks check_unseen gave (its Hand and unseen masks); returns the decks."""
    h.once = hand._once
    h.twice = hand._twice
    u.once = uo
    u.twice = ut
    return hand._decks


cdef int _fast_unseen(object unseen, object decks, int nd, uint64_t cm, uint64_t extra,
                      cc_hand h, cc_hand *u) except -1:
    """The unseen masks of a Hand, card text, a list of Cards or card texts, or None
    (the deck less the hand and ``extra``, a card bit held once more), and the call's
    number of decks; 0 for the generic path."""
    cdef int und = 0
    cdef type t = type(unseen)
    if unseen is None:
        if nd == 1:
            u.once = cm & ~h.once & ~extra
            u.twice = 0
        else:
            u.once = cm & ~(h.twice | (h.once & extra))
            u.twice = cm & ~(h.once | extra)
        return nd
    if t is list or t is tuple or t is str:
        # as check_unseen: the given decks, else 2 when the hand or the unseen cards hold
        # a card twice (hand_masks refuses a copy with decks=1, and a third copy)
        # (text the table does not know: the generic check, which checks the hand first)
        if hand_masks(unseen, decks, u, &und, False) <= 0:
            return 0  # none at all: the generic check says so
        return 2 if und == 2 else nd
    if t is not Hand:
        return 0
    u.once = unseen._once
    u.twice = unseen._twice
    if unseen._decks == 2 and nd == 1:
        if decks is not None:
            return 0
        return 2
    return nd


cdef inline object _once(object cards):
    """read_once, without a call for the common types."""
    if cards is None or type(cards) is Hand or type(cards) is str or type(cards) is list:
        return cards
    return read_once(cards)


def outlook(hand8, unseen=None, *, decks=None, rules=None):
    cdef cc_hand h, u
    cdef int nd
    cdef cc_rules r
    cdef uint16_t points[8]
    cdef uint8_t outcomes[8]
    cdef cc_prospect p[8]
    cdef cc_status st
    order = None
    cdef uint64_t cm = _card_mask(rules)  # a bad rules argument first, as check_unseen's caller
    hand8 = _once(hand8)  # read more than once below
    unseen = _once(unseen)
    nd = _fast_hand(hand8, decks, 8, &h)
    if nd:
        nd = _fast_unseen(unseen, decks, nd, cm, 0, h, &u)
    if nd:
        if type(hand8) is not Hand:
            order = card_order(hand8)
    else:
        hand, uo, ut, _ = check_unseen(hand8, unseen, decks, check_rules(rules), 8)
        if type(hand8) is not Hand:
            order = coerce_cards(hand8)
        nd = _checked(hand, uo, ut, &h, &u)
    _outlook_rules(rules, nd, &r)
    st = cc_outlook(&r, h, u, points, outcomes, p)
    if st != CC_OK:
        check_unseen(hand8, unseen, decks, check_rules(rules), 8)  # names the problem
        raise_status(st)
    return outlook_of(h, points, outcomes, p, order)


def draw_outlook(hand7, top, unseen=None, *, decks=None, rules=None):
    cdef cc_hand h, u, t
    cdef int nd, held
    cdef uint64_t cm, bit = 0
    cdef cc_rules r
    cdef cc_prospect take, stock
    cdef cc_status st
    cm = _card_mask(rules)  # a bad rules argument first, as check_unseen's caller
    hand7 = _once(hand7)  # read more than once below
    top = _once(top)
    unseen = _once(unseen)
    nd = _fast_hand(hand7, decks, 7, &h) if type(top) is Card else 0
    if nd:
        bit = (<uint64_t>1) << (<int>top.index)
        if decks is None and h.once & bit:
            nd = 2
        held = (1 if h.once & bit else 0) + (1 if h.twice & bit else 0)
        if not cm & bit or held + 1 > nd:
            nd = 0
    if nd:
        nd = _fast_unseen(unseen, decks, nd, cm, bit, h, &u)
        if nd and unseen is not None and (
                held + 1 + (1 if u.once & bit else 0) + (1 if u.twice & bit else 0)) > nd:
            nd = 0
    if not nd:
        hand, uo, ut, top = check_unseen(hand7, unseen, decks, check_rules(rules), 7, top=top)
        nd = _checked(hand, uo, ut, &h, &u)
    _outlook_rules(rules, nd, &r)
    t.once = (<uint64_t>1) << (<int>top.index)
    t.twice = 0
    st = cc_prospect_of(&r, h, t, &take)
    if st == CC_OK:
        st = cc_prospect_of(&r, h, u, &stock)
    if st != CC_OK:
        check_unseen(hand7, unseen, decks, check_rules(rules), 7, top=top)
        raise_status(st)
    return draw_outlook_of(top, &take, &stock)


def _chunk(CRules cr, const uint64_t[::1] flat, const uint64_t[::1] uflat, double[::1] res,
           int decks, size_t lo, size_t hi):
    """Rows lo..hi of an outlook batch without the GIL: (status, absolute bad row)."""
    cdef size_t bad = 0
    cdef cc_status st
    with nogil:
        st = cc_outlook_batch(&cr.r, &flat[lo * decks], &uflat[lo * decks], hi - lo, decks,
                              &res[lo * 8 * CC_OUTLOOK_COLUMNS], &bad)
    return <int>st, lo + bad


def outlook_batch(masks, unseen_masks, *, threads=None, rules=None):
    cdef CRules cr = crules_of(rules)
    rules_value = check_rules(rules)
    cdef int nthreads = check_threads(threads)
    arr, decks, uarr = normalize_outlook_batch(masks, unseen_masks)
    cdef size_t n = arr.shape[0]
    out = np.empty((n, 8, CC_OUTLOOK_COLUMNS), dtype=np.float64)
    if n == 0:
        return out
    flat = arr.reshape(-1)
    uflat = uarr.reshape(-1)
    cdef size_t chunks = min(<size_t>nthreads,
                             (n + _MIN_ROWS_PER_THREAD - 1) // _MIN_ROWS_PER_THREAD)
    st, row = run_chunks(_chunk, n, chunks, (cr, flat, uflat, out.reshape(-1), decks))
    if st != CC_OK:
        # the shared checks name the row's problem: its hand, else its unseen cards
        once = int(flat[row * decks])
        twice = 0 if decks == 1 else int(flat[row * decks + 1])
        status = row_status(once, twice, 8, rules_value)
        if status != "CC_OK":
            raise row_error(status, row, once)
        u_once = int(uflat[row * decks])
        u_twice = 0 if decks == 1 else int(uflat[row * decks + 1])
        status = unseen_row_status(once, twice, u_once, u_twice, decks, rules_value)
        if status != "CC_OK":
            raise unseen_row_error(status, row, u_once)
        raise row_error(status_name(st), row, once)
    return out
