# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: freethreading_compatible = True
"""The native implementation of chinchon: a thin binding over the C core (csrc/).

Arguments are converted here and validated by the checks both implementations share
(:mod:`chinchon._args`); batch calls run the C core inside ``with nogil:`` (one hand
is a few ns of C, less than releasing the GIL would cost), and each C status maps to
its exception class of :mod:`chinchon.errors` by the status's name. The C declarations
are in ``_binding.pxd``; the docstrings are the reference's, copied on by
:mod:`chinchon._backend`.
"""

from libc.stdint cimport uint8_t, uint64_t

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from .._args import SOLVER_FUNCTIONS, check_rules, check_threads, hand_for, normalize_batch, row_error
from ..cards import CARD_AT, SPELLINGS, Card, Hand, as_hand, coerce_cards
from ..errors import raise_status
from ..results import OUTCOMES, Arrangement, Hint, Meld
from ..rules import HOUSE_RULES

IMPLEMENTATION = "native"

__all__ = ["IMPLEMENTATION", *SOLVER_FUNCTIONS]

# every status by its C name (errors.STATUS_ERRORS is keyed by these names)
_STATUS_NAMES = {
    CC_OK: "CC_OK",
    CC_ERR_LANE_BITS: "CC_ERR_LANE_BITS",
    CC_ERR_TWICE_NOT_SUBSET: "CC_ERR_TWICE_NOT_SUBSET",
    CC_ERR_TOO_MANY_CARDS: "CC_ERR_TOO_MANY_CARDS",
    CC_ERR_CARD_COUNT: "CC_ERR_CARD_COUNT",
    CC_ERR_DUPLICATE: "CC_ERR_DUPLICATE",
    CC_ERR_THREE_COPIES: "CC_ERR_THREE_COPIES",
    CC_ERR_CANNOT_CLOSE: "CC_ERR_CANNOT_CLOSE",
    CC_ERR_BAD_ARGUMENT: "CC_ERR_BAD_ARGUMENT",
    CC_ERR_NOT_IN_DECK: "CC_ERR_NOT_IN_DECK",
}
assert len(_STATUS_NAMES) == <int>CC_STATUS_END and all(
    cc_status_name(<cc_status>code).decode() == name for code, name in _STATUS_NAMES.items()
), "_binding.pxd lags csrc/include/chinchon.h"


cdef cc_rules _house
cc_rules_default(&_house)

# card of each bit index (None outside the lanes), for building results fast
cdef tuple _BY_INDEX = CARD_AT

_KINDS = ("set", "run")
# rows per thread below which a batch is not worth splitting
cdef size_t _MIN_ROWS_PER_THREAD = 16384
_pool = None


cdef inline object _raise_status(cc_status st):
    raise_status(_STATUS_NAMES.get(st, f"status {<int>st}"))


# Rule variants (SPEC 9): the C core takes a cc_rules built once per distinct solver view
# of a Rules value (Rules.solver, hashable), cached here. Each public function keeps the
# house-rule path first (`rules is None or rules is HOUSE_RULES`: two pointer
# comparisons), then looks its rules up.

cdef class _CRules:
    """A cc_rules built from one Rules.solver."""
    cdef cc_rules r


cdef dict _RULES = {}
cdef _CRules _HOUSE_CR = _CRules()
_HOUSE_CR.r = _house
cdef int _INT_MAX = 2147483647


cdef _CRules _crules_of(object rules):
    """The cc_rules of a Rules value (checked), built on first use and cached by its
    solver view."""
    solver = rules.solver
    cr = _RULES.get(solver)
    if cr is not None:
        return <_CRules>cr
    cdef _CRules c = _CRules()
    cdef uint8_t pts[12]
    cdef cc_variant v
    cdef int i
    for i in range(12):
        pts[i] = <uint8_t>solver.points[i]
    v.deck = solver.deck
    v.wild_ace_of_coins = 1 if solver.wild_ace_of_coins else 0
    v.jokers = solver.jokers
    v.joker_points = solver.joker_points
    v.seven_run_wins = 1 if solver.seven_run_wins else 0
    v.joker_chinchon = -1 if solver.joker_chinchon is None else min(solver.joker_chinchon,
                                                                      _INT_MAX)
    # Rules.minus_ten is an unbounded int: the C copy only matters when it fits (the
    # settlement's closer points are taken from the Python int)
    st = cc_rules_init_variant(&c.r, pts, solver.close_limit,
                               solver.minus_ten if solver.minus_ten <= _INT_MAX else 0, &v)
    if st != CC_OK:
        _raise_status(st)
    if len(_RULES) >= 1024:
        _RULES.clear()
    _RULES[solver] = c
    return c


cdef inline cc_rules _rules_for(object rules, object hand=None, object decks=None) except *:
    """The cc_rules of a call: the house rules for None, else the cached rules with the
    hand's number of decks (its set capacity): given, a Hand's own, or 0 (inferred by
    the C core: 2 when a card is held twice)."""
    if rules is None or rules is HOUSE_RULES:
        return _house
    cdef cc_rules r = _crules_of(check_rules(rules)).r
    if decks is not None and type(decks) is int and (decks == 1 or decks == 2):
        r.decks = <uint8_t>decks
    elif decks is None and type(hand) is Hand:
        r.decks = <uint8_t>hand._decks
    else:
        r.decks = 0
    return r


cdef object _refused(object hand, object decks, object rules, int max_cards, int exact,
                     cc_status st):
    """Raise the documented error of a hand the C core refused: the shared check names
    the card (a joker the rules do not have, ...), else the status's own error."""
    hand_for(hand, decks, check_rules(rules), max_cards=max_cards,
             exact=exact if exact >= 0 else None)
    _raise_status(st)


cdef inline bint _add_card(uint64_t *once, uint64_t *twice, int index,
                          bint single_deck) noexcept:
    """Add one copy of card ``index`` to the masks; False for a copy the rules forbid (a
    third one, or a second with one deck)."""
    cdef uint64_t b = (<uint64_t>1) << index
    if once[0] & b:
        if twice[0] & b or single_deck:
            return False
        twice[0] |= b
    else:
        once[0] |= b
    return True


cdef bint _fast_cards(object seq, object decks, cc_hand *h) except -1:
    """Masks of a list or tuple of Card objects (the game loop's form) without building a
    Hand. False when anything is unusual (other types, a third copy, a copy with
    decks=1): the generic path then handles it and raises the documented error."""
    cdef uint64_t once = 0
    cdef uint64_t twice = 0
    if type(seq) is not list and type(seq) is not tuple:
        return False
    if decks is not None and (type(decks) is not int or (decks != 1 and decks != 2)):
        return False
    cdef bint single = decks is not None and decks == 1
    for c in seq:
        if type(c) is not Card or not _add_card(&once, &twice, c.index, single):
            return False
    h.once = once
    h.twice = twice
    return True


cdef bint _fast_text(str text, object decks, cc_hand *h, int *count) except -1:
    """Masks of card text split on whitespace, by table look-up. False when anything is
    unusual (commas, an unknown token, a third copy, ...): the generic parser then
    handles it and raises the documented error."""
    cdef uint64_t once = 0
    cdef uint64_t twice = 0
    cdef int n = 0
    if decks is not None and (type(decks) is not int or (decks != 1 and decks != 2)):
        return False
    cdef bint single = decks is not None and decks == 1
    for tok in text.split():
        card = SPELLINGS.get(tok)
        if card is None:
            card = SPELLINGS.get(tok.lower())
            if card is None:
                return False
        if not _add_card(&once, &twice, card.index, single):
            return False
        n += 1
    h.once = once
    h.twice = twice
    count[0] = n
    return True


cdef cc_hand _hand_of(object hand, object decks, int max_cards, int exact) except *:
    """The C hand of a Hand or a list of Cards (fast paths), or anything as_hand takes."""
    cdef cc_hand h
    cdef int n
    if type(hand) is Hand and (decks is None or decks == hand._decks):
        h.once = hand._once
        h.twice = hand._twice
        n = hand._n
    elif type(hand) is str and _fast_text(<str>hand, decks, &h, &n):
        pass
    elif _fast_cards(hand, decks, &h):
        n = len(hand)
    else:
        hand = as_hand(hand, decks)
        h.once = hand._once
        h.twice = hand._twice
        n = hand._n
    if (exact >= 0 and n != exact) or n > max_cards:
        # the Python check raises the documented CardCountError
        as_hand(hand, decks, exact=exact if exact >= 0 else None, max_cards=max_cards)
    return h


cdef inline int _popcount(uint64_t m) noexcept nogil:
    cdef int n = 0
    while m:
        m &= m - 1
        n += 1
    return n


# Single-hand calls keep the GIL: the C work is a few ns, less than releasing it costs.

def deadwood(hand, *, decks=None, rules=None):
    cdef cc_hand h
    cdef int points = 0
    cdef cc_status st
    cdef cc_rules r
    if rules is None or rules is HOUSE_RULES:
        if type(hand) is Hand and decks is None:  # the per-turn case, inlined
            h.once = hand._once
            h.twice = hand._twice
        else:
            h = _hand_of(hand, decks, 8, -1)
        st = cc_deadwood(&_house, h, &points)
    else:
        r = _rules_for(rules, hand, decks)
        h = _hand_of(hand, decks, 8, -1)
        st = cc_deadwood(&r, h, &points)
    if st != CC_OK:
        _hand_of(hand, decks, 8, -1)  # the Python check names the problem
        _refused(hand, decks, rules, 8, -1, st)
    return points


cdef tuple _cards(cc_hand h):
    """The cards of a C hand in ascending order, copies twice (no Python loop per bit)."""
    cdef list out = []
    cdef uint64_t m = h.once
    cdef uint64_t low
    cdef int i
    while m:
        low = m & (~m + 1)
        i = cc_ctz(m)
        card = _BY_INDEX[i]
        out.append(card)
        if h.twice & low:
            out.append(card)
        m ^= low
    return tuple(out)


def best_melds(hand, *, decks=None, rules=None):
    cdef cc_rules r = _rules_for(rules, hand, decks)
    cdef cc_hand h = _hand_of(hand, decks, 8, -1)
    cdef cc_arrangement a
    cdef cc_status st = cc_best_melds(&r, h, &a)
    if st != CC_OK:
        _refused(hand, decks, rules, 8, -1, st)
    melds = tuple([_meld_of(&a.melds[i], NULL) for i in range(a.n_melds)])
    arrangement = _alloc(Arrangement)  # filled as a settlement is (_settle.pxi)
    _put(arrangement, _A_MELDS, melds)
    _put(arrangement, _A_UNMATCHED, _cards(a.unmatched))
    _put(arrangement, _A_POINTS, a.points)
    return arrangement


def close_outcome(hand, *, decks=None, rules=None):
    cdef cc_rules r = _rules_for(rules, hand, decks)
    cdef cc_hand h = _hand_of(hand, decks, 7, 7)
    cdef cc_outcome outcome = CC_CANNOT_CLOSE
    cdef cc_status st = cc_close_outcome(&r, h, &outcome)
    if st != CC_OK:
        _refused(hand, decks, rules, 7, 7, st)
    return OUTCOMES[<int>outcome]


def discard_hints(hand8, *, decks=None, rules=None):
    cdef cc_hand h
    cdef cc_rules r = _rules_for(rules, hand8, decks)
    cdef uint8_t points[8]
    cdef uint8_t outcomes[8]
    cdef cc_status st
    if type(hand8) is Hand:
        order = None
        h = _hand_of(hand8, decks, 8, 8)
    elif _fast_cards(hand8, decks, &h) and len(hand8) == 8:
        order = hand8
    else:
        order = coerce_cards(hand8)
        h = _hand_of(order, decks, 8, 8)
    st = cc_discard_hints(&r, h, points, outcomes)
    if st != CC_OK:
        _refused(hand8 if order is None else order, decks, rules, 8, 8, st)
    cdef list hints = []
    cdef uint64_t m = h.once
    cdef int i
    cdef int k = 0
    while m:  # ascending card order, a copy held twice listed twice
        i = cc_ctz(m)
        hints.append(_hint(i, points[k], outcomes[k]))
        k += 1
        if h.twice >> i & 1:
            hints.append(_hint(i, points[k], outcomes[k]))
            k += 1
        m &= m - 1
    if order is None:
        return hints
    cdef uint64_t below
    cdef list ordered = []
    for c in order:  # a card's place in ascending order = cards held below it
        i = c.index
        below = ((<uint64_t>1) << i) - 1
        ordered.append(hints[_popcount(h.once & below) + _popcount(h.twice & below)])
    return ordered


# Hints are immutable values; a server asks for eight every turn, so each distinct one
# is built once and shared (at most 64 cards x 256 points x 5 outcomes).
cdef list _HINTS = [None] * (64 * 256 * 5)


cdef inline object _hint(int index, int points, int outcome):
    cdef int key = (index * 256 + points) * 5 + outcome
    hint = _HINTS[key]
    if hint is None:
        hint = Hint(_BY_INDEX[index], points, outcome != 0, OUTCOMES[outcome])
        _HINTS[key] = hint
    return hint


# ---------------------------------------------------------------- batch API

cdef inline cc_status _call_batch(int which, const cc_rules *rules, const uint64_t *masks,
                                  size_t n, int decks, uint8_t *out,
                                  size_t *bad) noexcept nogil:
    if which == 0:
        return cc_deadwood_batch(rules, masks, n, decks, out, bad)
    return cc_hints_batch(rules, masks, n, decks, out, bad)


def _chunk(int which, _CRules cr, const uint64_t[::1] flat, uint8_t[::1] res, int decks,
           int width, size_t lo, size_t hi):
    """Run rows lo..hi of a batch without the GIL: (status, absolute bad row)."""
    cdef size_t bad = 0
    cdef cc_status st
    with nogil:
        st = _call_batch(which, &cr.r, &flat[lo * decks], hi - lo, decks, &res[lo * width],
                         &bad)
    return <int>st, lo + bad


def _run_batch(int which, masks, threads, int width, rules):
    cdef _CRules cr = _HOUSE_CR if rules is None or rules is HOUSE_RULES else _crules_of(
        check_rules(rules))
    cdef int nthreads = check_threads(threads)
    arr, decks = normalize_batch(masks)
    cdef size_t n = arr.shape[0]
    out = np.empty((arr.shape[0], width) if width > 1 else arr.shape[0], dtype=np.uint8)
    if n == 0:
        return out
    flat = arr.reshape(-1)
    res = out.reshape(-1)
    cdef size_t chunks = min(<size_t>nthreads, (n + _MIN_ROWS_PER_THREAD - 1) // _MIN_ROWS_PER_THREAD)
    if chunks <= 1:
        results = [_chunk(which, cr, flat, res, decks, width, 0, n)]
    else:
        # contiguous chunks, one per thread; the C core is thread-safe and the GIL is
        # released inside each chunk
        step = (n + chunks - 1) // chunks
        global _pool
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=os.cpu_count() or 2,
                                       thread_name_prefix="chinchon")
        futures = [_pool.submit(_chunk, which, cr, flat, res, decks, width, lo,
                                min(n, lo + step))
                   for lo in range(0, n, step)]
        results = [f.result() for f in futures]
    failures = [(row, st) for st, row in results if st != 0]
    if failures:
        row, st = min(failures)
        raise row_error(_STATUS_NAMES.get(st, f"status {st}"), row, int(flat[row * decks]))
    return out


def deadwood_batch(masks, *, threads=None, rules=None):
    return _run_batch(0, masks, threads, 1, rules)


def hints_batch(masks, *, threads=None, rules=None):
    return _run_batch(1, masks, threads, 8, rules)
include "_settle.pxi"
include "_outlook.pxi"
include "_rng.pxi"
include "_engine.pxi"
