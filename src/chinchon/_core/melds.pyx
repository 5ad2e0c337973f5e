# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: freethreading_compatible = True
"""The meld search of the native implementation: deadwood, best melds, the close's
outcome and discard hints of one hand, and the batch calls over arrays of masks.

Single-hand calls keep the GIL: the C work is a few ns, less than releasing it costs.
Batches run the C core inside ``with nogil:``, split over threads from
``_MIN_ROWS_PER_THREAD`` rows on; the status is checked after each chunk.
"""

from libc.stdint cimport uint8_t, uint16_t, uint64_t

from .chinchon cimport (CC_CANNOT_CLOSE, CC_OK, cc_arrangement, cc_best_melds,
                        cc_close_outcome, cc_deadwood, cc_deadwood_batch,
                        cc_deadwood_batch_wide, cc_discard_hints, cc_hand, cc_hints_batch,
                        cc_hints_batch_wide, cc_outcome, cc_rules, cc_simd,
                        cc_simd_active, cc_simd_best, cc_simd_name, cc_simd_supported,
                        cc_simd_use, cc_status, CC_SIMD_END)
from ._common cimport (CRules, card_order, crules_of, hand_masks, hand_of, refused, rules_for,
                      run_chunks, status_name)
from ._results cimport arrangement_of, hints_of, outcome_name

from collections.abc import Iterator

import numpy as np

from .._args import check_threads, normalize_batch, row_error
from ..cards import Hand, coerce_cards
from ..rules import HOUSE_RULES

# rows per thread below which a batch is not worth splitting
cdef size_t _MIN_ROWS_PER_THREAD = 16384
cdef cc_rules _HOUSE = crules_of(None).r


cdef inline object _rereadable(object hand):
    """The hand as a refusal can read it again: a one-shot iterable (a generator, ``map``,
    ``iter(...)``) as the tuple of its items, read once here, anything else as given (the
    shared check that names a refused card reads the argument a second time)."""
    cdef type t = type(hand)
    if t is Hand or t is list or t is tuple or t is str or not isinstance(hand, Iterator):
        return hand
    return tuple(hand)


def deadwood(hand, *, decks=None, rules=None):
    cdef cc_hand h
    cdef int points = 0
    cdef cc_status st
    cdef cc_rules r
    hand = _rereadable(hand)
    if rules is None or rules is HOUSE_RULES:
        hand_of(hand, decks, 8, -1, &h, NULL)
        st = cc_deadwood(&_HOUSE, h, &points)
    else:
        rules_for(rules, hand, decks, &r)
        hand_of(hand, decks, 8, -1, &h, NULL)
        st = cc_deadwood(&r, h, &points)
    if st != CC_OK:
        refused(hand, decks, rules, 8, -1, st)
    return points


def best_melds(hand, *, decks=None, rules=None):
    cdef cc_rules r
    cdef cc_hand h
    cdef cc_arrangement a
    hand = _rereadable(hand)
    rules_for(rules, hand, decks, &r)
    hand_of(hand, decks, 8, -1, &h, NULL)
    cdef cc_status st = cc_best_melds(&r, h, &a)
    if st != CC_OK:
        refused(hand, decks, rules, 8, -1, st)
    return arrangement_of(&a)


def close_outcome(hand, *, decks=None, rules=None):
    cdef cc_rules r
    cdef cc_hand h
    cdef cc_outcome outcome = CC_CANNOT_CLOSE
    hand = _rereadable(hand)
    rules_for(rules, hand, decks, &r)
    hand_of(hand, decks, 7, 7, &h, NULL)
    cdef cc_status st = cc_close_outcome(&r, h, &outcome)
    if st != CC_OK:
        refused(hand, decks, rules, 7, 7, st)
    return outcome_name(outcome)


def discard_hints(hand8, *, decks=None, rules=None):
    cdef cc_hand h
    cdef cc_rules r
    cdef uint16_t points[8]
    cdef uint8_t outcomes[8]
    cdef int nd
    cdef cc_status st
    rules_for(rules, hand8, decks, &r)
    # the hints come in the order of the cards given (a Hand's: ascending)
    if type(hand8) is Hand:
        order = None
        hand_of(hand8, decks, 8, 8, &h, NULL)
    elif (type(hand8) is list or type(hand8) is tuple or type(hand8) is str) and hand_masks(
            hand8, decks, &h, &nd) == 8:
        order = card_order(hand8)
    else:
        order = coerce_cards(hand8)
        hand_of(order, decks, 8, 8, &h, NULL)
    st = cc_discard_hints(&r, h, points, outcomes)
    if st != CC_OK:
        refused(hand8 if order is None else order, decks, rules, 8, 8, st)
    return hints_of(h, points, outcomes, order)


# ---------------------------------------------------------------- batch API

cdef inline cc_status _call_batch(int which, const cc_rules *rules, const uint64_t *masks,
                                  size_t n, int decks, uint8_t *out,
                                  size_t *bad) noexcept nogil:
    if which == 0:
        return cc_deadwood_batch(rules, masks, n, decks, out, bad)
    return cc_hints_batch(rules, masks, n, decks, out, bad)


def _chunk(int which, CRules cr, const uint64_t[::1] flat, uint8_t[::1] res, int decks,
           int width, size_t lo, size_t hi):
    """Run rows lo..hi of a batch without the GIL: (status, absolute bad row)."""
    cdef size_t bad = 0
    cdef cc_status st
    with nogil:
        st = _call_batch(which, &cr.r, &flat[lo * decks], hi - lo, decks, &res[lo * width],
                         &bad)
    return <int>st, lo + bad


def _chunk_wide(int which, CRules cr, const uint64_t[::1] flat, uint16_t[::1] res, int decks,
                int width, size_t lo, size_t hi):
    """_chunk into uint16 results: rules whose scores can pass 255."""
    cdef size_t bad = 0
    cdef cc_status st
    with nogil:
        if which == 0:
            st = cc_deadwood_batch_wide(&cr.r, &flat[lo * decks], hi - lo, decks,
                                        &res[lo * width], &bad)
        else:
            st = cc_hints_batch_wide(&cr.r, &flat[lo * decks], hi - lo, decks,
                                     &res[lo * width], &bad)
    return <int>st, lo + bad


cdef object _run_batch(int which, masks, threads, int width, rules):
    cdef CRules cr = crules_of(rules)
    cdef int nthreads = check_threads(threads)
    arr, decks = normalize_batch(masks)
    cdef size_t n = arr.shape[0]
    # a byte per score while the rules' scores fit one (every preset), else 16 bits
    cdef bint wide = cr.r.max_deadwood > 255
    out = np.empty((arr.shape[0], width) if width > 1 else arr.shape[0],
                   dtype=np.uint16 if wide else np.uint8)
    if n == 0:
        return out
    flat = arr.reshape(-1)
    cdef size_t chunks = min(<size_t>nthreads,
                             (n + _MIN_ROWS_PER_THREAD - 1) // _MIN_ROWS_PER_THREAD)
    st, row = run_chunks(_chunk_wide if wide else _chunk, n, chunks,
                         (which, cr, flat, out.reshape(-1), decks, width))
    if st != CC_OK:
        raise row_error(status_name(st), row, int(flat[row * decks]))
    return out


def deadwood_batch(masks, *, threads=None, rules=None):
    return _run_batch(0, masks, threads, 1, rules)


def hints_batch(masks, *, threads=None, rules=None):
    return _run_batch(1, masks, threads, 8, rules)


# ---------------------------------------------------------------- SIMD path

def simd_paths():
    """The SIMD paths of the batch kernels this build holds and this CPU runs, by name
    (``'scalar'`` always; ``'avx2'``, ``'avx512'`` or ``'neon'`` where available)."""
    cdef int p
    return tuple(cc_simd_name(<cc_simd>p).decode() for p in range(<int>CC_SIMD_END)
                 if cc_simd_supported(<cc_simd>p))


def simd_best():
    """The name of the fastest path of :func:`simd_paths`."""
    return cc_simd_name(cc_simd_best()).decode()


def simd_active():
    """The name of the path the batches run on."""
    return cc_simd_name(cc_simd_active()).decode()


def simd_use(str name):
    """Run the batches on the path ``name`` (one of :func:`simd_paths`; ``ValueError``
    otherwise). Not while a batch runs on another thread: the package calls it once, at
    import (``CHINCHON_SIMD``), and the tests between batches."""
    cdef int p
    for p in range(<int>CC_SIMD_END):
        if cc_simd_name(<cc_simd>p).decode() == name and cc_simd_use(<cc_simd>p) == CC_OK:
            return
    raise ValueError(f"SIMD path {name!r} is not available here: expected one of "
                     f"{', '.join(simd_paths())}")
