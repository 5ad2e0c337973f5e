# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: freethreading_compatible = True
"""The result objects of the binding, made of the C core's structs in one place
(declared in ``_results.pxd``): the cards of a mask, melds, arrangements, hints,
settlements and outlooks, as :mod:`chinchon.results` defines them.

The result objects are made the cheapest way CPython offers. The settlement's classes
keep their fields in ``__slots__`` (``results._slotted``): each object is allocated by
the type's allocator (what ``object.__new__`` calls; the dataclasses define no
``__new__`` nor ``__post_init__``) and each field stored straight into its slot, at the
offset its slot descriptor holds -- no ``__init__``, no attribute lookup, no instance
dict. A fresh object's slots are NULL, so nothing is released; every field is stored
before the object is returned. The outlook's results are named tuples, made by
``tuple.__new__``.
"""

from cpython.object cimport PyTypeObject
from cpython.ref cimport PyObject, Py_DECREF, Py_INCREF, Py_XDECREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from libc.stdint cimport uint8_t, uint16_t, uint64_t

from .chinchon cimport (CC_JOKER_CHINCHON, CC_MINUS_TEN, cc_arrangement, cc_hand, cc_meld,
                        cc_prospect, cc_seat_result, cc_settlement, cc_table_meld)
from ._common cimport chinchon_ctz, read_slot, slot_offset

from ..cards import CARD_AT, Card
from ..results import (OUTCOMES, Arrangement, CloserResult, DrawOutlook, Hint, Meld,
                       OpponentResult, Outlook, Prospect, Settlement, TableMeld)

# the card of each bit index (None outside the lanes)
cdef tuple _BY_INDEX = CARD_AT
cdef tuple _KIND_OF = ("set", "run")  # by cc_meld_kind
cdef tuple _OUTCOME_OF = tuple(OUTCOMES)  # by cc_outcome


cdef object outcome_name(int outcome):
    """The name of a cc_outcome (None for CC_CANNOT_CLOSE)."""
    return _OUTCOME_OF[outcome]


cdef extern from "Python.h":
    PyObject *PyType_GenericAlloc(PyTypeObject *t, Py_ssize_t nitems) except NULL


cdef type _plain(type cls):
    """cls, checked to be made by object.__new__ (what _alloc stands for)."""
    if (<PyTypeObject*>cls).tp_new != (<PyTypeObject*>object).tp_new:
        raise ImportError(f"chinchon._core: {cls.__name__} has its own __new__")
    return cls


cdef inline object _alloc(type cls):
    """A new instance of cls with every slot NULL (cls.__new__ is object's)."""
    obj = <object>PyType_GenericAlloc(<PyTypeObject*>cls, 0)
    Py_DECREF(obj)  # the cast took a second reference
    return obj


cdef inline void _put(object obj, Py_ssize_t offset, object value) noexcept:
    """Store value into the (NULL) slot at offset of a new object."""
    Py_INCREF(value)
    (<PyObject**>((<char*><PyObject*>obj) + offset))[0] = <PyObject*>value


for _cls in (Meld, TableMeld, Arrangement, CloserResult, OpponentResult, Settlement):
    _plain(_cls)

cdef Py_ssize_t _M_KIND = slot_offset(Meld, "kind")
cdef Py_ssize_t _M_CARDS = slot_offset(Meld, "cards")
cdef Py_ssize_t _M_JOKER = slot_offset(Meld, "joker")
cdef Py_ssize_t _M_JOKER_RANK = slot_offset(Meld, "joker_rank")
cdef Py_ssize_t _T_KIND = slot_offset(TableMeld, "kind")
cdef Py_ssize_t _T_CARDS = slot_offset(TableMeld, "cards")
cdef Py_ssize_t _T_OWNER = slot_offset(TableMeld, "owner")
cdef Py_ssize_t _T_OPEN = slot_offset(TableMeld, "open")
cdef Py_ssize_t _T_JOKER = slot_offset(TableMeld, "joker")
cdef Py_ssize_t _T_JOKER_RANK = slot_offset(TableMeld, "joker_rank")
cdef Py_ssize_t _A_MELDS = slot_offset(Arrangement, "melds")
cdef Py_ssize_t _A_UNMATCHED = slot_offset(Arrangement, "unmatched")
cdef Py_ssize_t _A_POINTS = slot_offset(Arrangement, "points")
cdef Py_ssize_t _C_MELDS = slot_offset(CloserResult, "melds")
cdef Py_ssize_t _C_UNMATCHED = slot_offset(CloserResult, "unmatched")
cdef Py_ssize_t _C_POINTS = slot_offset(CloserResult, "points")
cdef Py_ssize_t _O_MELDS = slot_offset(OpponentResult, "melds")
cdef Py_ssize_t _O_LAYOFFS = slot_offset(OpponentResult, "layoffs")
cdef Py_ssize_t _O_UNMATCHED = slot_offset(OpponentResult, "unmatched")
cdef Py_ssize_t _O_POINTS = slot_offset(OpponentResult, "points")
cdef Py_ssize_t _S_OUTCOME = slot_offset(Settlement, "outcome")
cdef Py_ssize_t _S_CLOSER = slot_offset(Settlement, "closer")
cdef Py_ssize_t _S_OPPONENTS = slot_offset(Settlement, "opponents")
cdef Py_ssize_t _S_TABLE = slot_offset(Settlement, "table")
cdef Py_ssize_t _S_POINTS = slot_offset(Settlement, "points")


# The card tuples of a settlement's melds, by mask: a table meld nobody laid off onto
# holds the same cards as the meld it was put down as, and shares its tuple (tuples of
# cards are immutable). Borrowed references, kept alive by the melds being built.
cdef struct _Seen:
    int n
    uint64_t once[12]
    uint64_t twice[12]
    PyObject *cards[12]


cdef inline tuple _meld_cards(cc_hand h, _Seen *seen):
    """cards_of(h), or the tuple of an earlier meld of the call with these cards."""
    cdef int i
    if seen is NULL:
        return cards_of(h)
    for i in range(seen.n):
        if seen.once[i] == h.once and seen.twice[i] == h.twice:
            return <tuple>seen.cards[i]
    out = cards_of(h)
    _remember_cards(seen, h, <PyObject*>out)
    return out


cdef object _new_meld(const cc_meld *m, _Seen *seen):
    """The Meld of a C meld (its cards remembered in seen, unless NULL)."""
    obj = _alloc(Meld)
    _put(obj, _M_KIND, _KIND_OF[m.kind])
    _put(obj, _M_CARDS, _meld_cards(m.cards, seen))
    if m.joker_rank != 0:
        _put(obj, _M_JOKER, _BY_INDEX[m.joker])
        _put(obj, _M_JOKER_RANK, <int>m.joker_rank)
    else:
        _put(obj, _M_JOKER, None)
        _put(obj, _M_JOKER_RANK, None)
    return obj


# Melds are few: a single deck holds about 220 (60 sets, 160 runs), two decks and
# jokers some thousands, and a game settles and arranges the same ones again and again;
# most table melds are a closer's meld nobody laid off onto. Melds and table melds are
# immutable, so the binding keeps the last one made for each slot of a direct-mapped
# table keyed by its C fields and hands it out again (strong references, replaced on
# collision): a hit costs no allocation. (Frozen: forcing a field with
# object.__setattr__ would show in later results.) Read and written with the GIL held;
# off in a free-threaded build, where a shared table would race.
cdef extern from *:
    """
    #ifdef Py_GIL_DISABLED
    #define CHINCHON_MELD_CACHE 0
    #else
    #define CHINCHON_MELD_CACHE 1
    #endif
    """
    int CHINCHON_MELD_CACHE

cdef enum:
    _MELD_CACHE_BITS = 12  # 4096 melds and table melds
    _NOT_ON_TABLE = 255  # the owner field of a Meld's entry (a table meld has 0-5)

cdef struct _CachedMeld:
    uint64_t once
    uint64_t twice
    uint8_t kind
    uint8_t joker  # 0 without a joker
    uint8_t joker_rank
    uint8_t owner  # a TableMeld's owner and open; _NOT_ON_TABLE and 0 for a Meld
    uint8_t open
    PyObject *obj  # the Meld or TableMeld (a strong reference), NULL: empty

cdef _CachedMeld _MELD_CACHE[1 << _MELD_CACHE_BITS]  # zeroed: every entry empty


cdef inline _CachedMeld *_entry(cc_hand h, int kind, int joker, int joker_rank, int owner,
                                int is_open) noexcept:
    """The cache entry for these fields (the object there may be another's)."""
    cdef uint64_t key = ((h.once * <uint64_t>0x9E3779B97F4A7C15ULL)
                         ^ (h.twice * <uint64_t>0xC2B2AE3D27D4EB4FULL)
                         ^ (<uint64_t>joker << 8) ^ (<uint64_t>joker_rank << 16)
                         ^ (<uint64_t>owner << 24) ^ (<uint64_t>is_open << 32) ^ kind)
    return &_MELD_CACHE[(key * <uint64_t>0xFF51AFD7ED558CCDULL) >> (64 - _MELD_CACHE_BITS)]


cdef inline bint _holds(const _CachedMeld *e, cc_hand h, int kind, int joker,
                        int joker_rank, int owner, int is_open) noexcept:
    return (e.obj is not NULL and e.once == h.once and e.twice == h.twice
            and e.kind == kind and e.joker == joker and e.joker_rank == joker_rank
            and e.owner == owner and e.open == is_open)


cdef inline void _keep(_CachedMeld *e, object obj, cc_hand h, int kind, int joker,
                       int joker_rank, int owner, int is_open) noexcept:
    """Put obj in entry e, in place of the object there (released: still alive if the
    settlement being built holds it)."""
    cdef PyObject *old = e.obj
    Py_INCREF(obj)
    e.obj = <PyObject*>obj
    e.once = h.once
    e.twice = h.twice
    e.kind = kind
    e.joker = joker
    e.joker_rank = joker_rank
    e.owner = owner
    e.open = is_open
    Py_XDECREF(old)


cdef inline void _remember_cards(_Seen *seen, cc_hand h, PyObject *cards) noexcept:
    if seen is not NULL and seen.n < 12:
        seen.once[seen.n] = h.once
        seen.twice[seen.n] = h.twice
        seen.cards[seen.n] = cards
        seen.n += 1


cdef object _meld_of(const cc_meld *m, _Seen *seen):
    """The Meld of a C meld: the cached one if it has the same fields, else a new one
    (then cached). Its cards are remembered in seen, unless NULL."""
    cdef int joker = m.joker if m.joker_rank != 0 else 0
    cdef _CachedMeld *e
    if not CHINCHON_MELD_CACHE:
        return _new_meld(m, seen)
    e = _entry(m.cards, m.kind, joker, m.joker_rank, _NOT_ON_TABLE, 0)
    if _holds(e, m.cards, m.kind, joker, m.joker_rank, _NOT_ON_TABLE, 0):
        obj = <object>e.obj
        cards = read_slot(obj, _M_CARDS, "cards")  # alive while the meld is
        _remember_cards(seen, m.cards, <PyObject*>cards)
        return obj
    obj = _new_meld(m, seen)
    _keep(e, obj, m.cards, m.kind, joker, m.joker_rank, _NOT_ON_TABLE, 0)
    return obj


cdef object _table_meld_of(const cc_table_meld *t, _Seen *seen):
    """The TableMeld of a C table meld: cached as _meld_of's Melds are."""
    cdef int joker = t.joker if t.joker_rank != 0 else 0
    cdef int is_open = t.open != 0
    cdef _CachedMeld *e
    if not CHINCHON_MELD_CACHE:
        return _new_table_meld(t, seen)
    e = _entry(t.cards, t.kind, joker, t.joker_rank, t.owner, is_open)
    if _holds(e, t.cards, t.kind, joker, t.joker_rank, t.owner, is_open):
        return <object>e.obj
    obj = _new_table_meld(t, seen)
    _keep(e, obj, t.cards, t.kind, joker, t.joker_rank, t.owner, is_open)
    return obj


cdef tuple cards_of(cc_hand h):
    cdef uint64_t m = h.once
    cdef int i, k = 0, n = 0
    cdef tuple cards = _BY_INDEX
    while m:
        n += 1 + <int>((h.twice >> chinchon_ctz(m)) & 1)
        m &= m - 1
    out = PyTuple_New(n)
    m = h.once
    while m:
        i = chinchon_ctz(m)
        c = cards[i]
        Py_INCREF(c)
        PyTuple_SET_ITEM(out, k, c)
        k += 1
        if (h.twice >> i) & 1:
            Py_INCREF(c)
            PyTuple_SET_ITEM(out, k, c)
            k += 1
        m &= m - 1
    return out


# Every lay-off (card, table meld index) as a tuple, made once: a settlement's lay-offs
# are these shared tuples (a C table holds at most 12 melds).
cdef list _LAYOFF_PAIRS = [None if c is None else tuple([(c, t) for t in range(12)])
                           for c in CARD_AT]


cdef inline object _layoff_pair(int card, int meld):
    if meld < 12:
        return (<tuple>_LAYOFF_PAIRS[card])[meld]
    return (_BY_INDEX[card], meld)


cdef tuple _settle_melds(const cc_seat_result *r, _Seen *seen):
    cdef int i
    out = PyTuple_New(r.n_melds)
    for i in range(r.n_melds):
        m = _meld_of(&r.melds[i], seen)
        Py_INCREF(m)
        PyTuple_SET_ITEM(out, i, m)
    return out


cdef object _new_table_meld(const cc_table_meld *t, _Seen *seen):
    """A new TableMeld of a C table meld."""
    obj = _alloc(TableMeld)
    _put(obj, _T_KIND, _KIND_OF[t.kind])
    _put(obj, _T_CARDS, _meld_cards(t.cards, seen))
    _put(obj, _T_OWNER, <int>t.owner)
    _put(obj, _T_OPEN, t.open != 0)
    if t.joker_rank != 0:
        _put(obj, _T_JOKER, _BY_INDEX[t.joker])
        _put(obj, _T_JOKER_RANK, <int>t.joker_rank)
    else:
        _put(obj, _T_JOKER, None)
        _put(obj, _T_JOKER_RANK, None)
    return obj


cdef object settlement_of(const cc_settlement *s, object rules):
    """The Settlement of a C settlement."""
    # rules: None (the house rules) or the Rules value. Rules does not bound minus_ten
    # nor joker_chinchon, so the closer's points on those closes are computed here from
    # the Python ints (a C int would overflow).
    cdef int k, i
    cdef const cc_seat_result *r
    cdef _Seen seen
    seen.n = 0
    if s.outcome == CC_MINUS_TEN:
        closer_points = -(10 if rules is None else rules.minus_ten)
    elif s.outcome == CC_JOKER_CHINCHON:
        closer_points = -rules.joker_chinchon
    else:
        closer_points = s.closer.points
    closer = _alloc(CloserResult)
    _put(closer, _C_MELDS, _settle_melds(&s.closer, &seen))
    _put(closer, _C_UNMATCHED, cards_of(s.closer.unmatched))
    _put(closer, _C_POINTS, closer_points)
    opponents = PyTuple_New(s.n_opponents)
    points = PyTuple_New(s.n_opponents + 1)
    Py_INCREF(closer_points)
    PyTuple_SET_ITEM(points, 0, closer_points)
    for k in range(s.n_opponents):
        r = &s.opponents[k]
        layoffs = PyTuple_New(r.n_layoffs)
        for i in range(r.n_layoffs):
            pair = _layoff_pair(r.layoffs[i].card, r.layoffs[i].meld)
            Py_INCREF(pair)
            PyTuple_SET_ITEM(layoffs, i, pair)
        o = _alloc(OpponentResult)
        _put(o, _O_MELDS, _settle_melds(r, &seen))
        _put(o, _O_LAYOFFS, layoffs)
        _put(o, _O_UNMATCHED, cards_of(r.unmatched))
        p = r.points
        _put(o, _O_POINTS, p)
        Py_INCREF(o)
        PyTuple_SET_ITEM(opponents, k, o)
        Py_INCREF(p)
        PyTuple_SET_ITEM(points, k + 1, p)
    table = PyTuple_New(s.n_table)
    for i in range(s.n_table):
        t = _table_meld_of(&s.table[i], &seen)
        Py_INCREF(t)
        PyTuple_SET_ITEM(table, i, t)
    settlement = _alloc(Settlement)
    _put(settlement, _S_OUTCOME, _OUTCOME_OF[s.outcome])
    _put(settlement, _S_CLOSER, closer)
    _put(settlement, _S_OPPONENTS, opponents)
    _put(settlement, _S_TABLE, table)
    _put(settlement, _S_POINTS, points)
    return settlement


cdef object arrangement_of(const cc_arrangement *a):
    """The Arrangement of a C arrangement (its melds shared as a settlement's are)."""
    cdef int i
    melds = PyTuple_New(a.n_melds)
    for i in range(a.n_melds):
        m = _meld_of(&a.melds[i], NULL)
        Py_INCREF(m)
        PyTuple_SET_ITEM(melds, i, m)
    arrangement = _alloc(Arrangement)
    _put(arrangement, _A_MELDS, melds)
    _put(arrangement, _A_UNMATCHED, cards_of(a.unmatched))
    _put(arrangement, _A_POINTS, a.points)
    return arrangement


# a Card's index, read from its slot (as _common reads it)
cdef Py_ssize_t _CARD_INDEX = slot_offset(Card, "index")


cdef list _in_order(list lines, cc_hand h, object order):
    """``lines`` (one per card of h in ascending card order, a copy held twice listed
    twice) in the order of the cards of ``order`` instead (None: as they are). A card's
    line is the first at its place in ascending order."""
    if order is None:
        return lines
    cdef uint8_t first[64]
    cdef uint64_t m = h.once
    cdef int i, k = 0
    while m:
        i = chinchon_ctz(m)
        first[i] = k
        k += 1 + <int>((h.twice >> i) & 1)
        m &= m - 1
    return [lines[first[<int>(read_slot(c, _CARD_INDEX, "index") if type(c) is Card
                              else c.index)]] for c in order]



# Hints are immutable values; a server asks for eight every turn, so each distinct one
# is built once and shared (at most 64 cards x 256 points x 5 outcomes). A hint of 256
# points or more (jokers worth over 31: Rules.joker_points) is built each time.
cdef list _HINTS = [None] * (64 * 256 * 5)


cdef inline object _hint(int index, int points, int outcome):
    if points > 255:
        return Hint(_BY_INDEX[index], points, outcome != 0, _OUTCOME_OF[outcome])
    cdef int key = (index * 256 + points) * 5 + outcome
    hint = _HINTS[key]
    if hint is None:
        hint = Hint(_BY_INDEX[index], points, outcome != 0, _OUTCOME_OF[outcome])
        _HINTS[key] = hint
    return hint


cdef list hints_of(cc_hand h, const uint16_t *points, const uint8_t *outcomes, object order):
    """The Hints of cc_discard_hints's rows for hand h: in ascending card order, or in
    the order of the cards of ``order`` (the hand as the caller gave it; None: none)."""
    cdef list hints = []
    cdef uint64_t m = h.once
    cdef int i, k = 0
    while m:  # ascending card order, a copy held twice listed twice
        i = chinchon_ctz(m)
        hints.append(_hint(i, points[k], outcomes[k]))
        k += 1
        if (h.twice >> i) & 1:
            hints.append(_hint(i, points[k], outcomes[k]))
            k += 1
        m &= m - 1
    return _in_order(hints, h, order)


cdef inline tuple _prospect_fields(const cc_prospect *p):
    """The Prospect fields of exact counts, divided as results.prospect_of divides."""
    cdef double n = <double>p.draws
    return ((<double>p.points_sum) / n, (<double>(p.draws - p.outcomes[0])) / n,
            (<double>p.outcomes[2]) / n, (<double>(p.outcomes[3] + p.outcomes[4])) / n,
            (<double>p.outcomes[4]) / n, <int>p.draws)


cdef list outlook_of(cc_hand h, const uint16_t *points, const uint8_t *outcomes,
                     const cc_prospect *prospects, object order):
    """The Outlook lines of cc_outlook's rows for hand h, ordered as hints_of's."""
    cdef list lines = []
    cdef uint64_t m = h.once
    cdef int i, k = 0
    while m:  # ascending card order, a copy held twice listed twice
        i = chinchon_ctz(m)
        lines.append(tuple.__new__(Outlook, (_BY_INDEX[i], points[k], outcomes[k] != 0,
                                             _OUTCOME_OF[outcomes[k]])
                                   + _prospect_fields(&prospects[k])))
        k += 1
        if (h.twice >> i) & 1:
            lines.append(lines[k - 1])
            k += 1
        m &= m - 1
    return _in_order(lines, h, order)


cdef object draw_outlook_of(object top, const cc_prospect *take, const cc_prospect *stock):
    """The DrawOutlook of taking ``top`` and of drawing from the stock."""
    return tuple.__new__(DrawOutlook, (top, tuple.__new__(Prospect, _prospect_fields(take)),
                                       tuple.__new__(Prospect, _prospect_fields(stock))))
