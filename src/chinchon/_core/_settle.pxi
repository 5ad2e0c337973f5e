# The settle() part of the native binding (SPEC section 4), over cc_settle in the C
# core. Included from _binding.pyx (it uses _rules_for and _KINDS from there; the C
# declarations are in _binding.pxd).
#
# Validation is shared with the reference (chinchon._args.prepare_settle) so both raise
# the same classes with the same messages. Fast path: when every hand is a Hand, the C
# core validates; on any bad-deal status the shared validation is run to raise the
# documented error. The result dataclasses are filled directly (no __init__ call, see
# _alloc and _put below): they are plain frozen dataclasses with slots, without
# __post_init__. Every rule variant (SPEC 9.3) is settled by the C core
# (csrc/src/settle_variants.c).

from cpython.object cimport PyTypeObject
from cpython.ref cimport PyObject, Py_DECREF, Py_INCREF, Py_XDECREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM

import types as _types

from ..results import CloserResult, OpponentResult, Settlement, TableMeld
from .._args import MAX_OPPONENTS
from .._args import cannot_close_error as _cannot_close_error
from .._args import deal_error as _deal_error
from .._args import prepare_settle as _settle_prepare
from ..rules import Rules as _Rules


# The result objects are made the cheapest way CPython offers. Their classes keep their
# fields in __slots__ (results._slotted): each object is allocated by the type's
# allocator (what object.__new__ calls; the dataclasses define no __new__ nor
# __post_init__) and each field stored straight into its slot, at the offset its slot
# descriptor holds -- no __init__, no attribute lookup, no instance dict. A fresh object's
# slots are NULL, so nothing is released; every field is stored before the object is
# returned. A Hand's masks are read from its slots the same way (exact Hands only).

cdef extern from "Python.h":
    ctypedef struct PyMemberDef:
        int type
        Py_ssize_t offset
        int flags
    ctypedef struct PyMemberDescrObject:
        PyMemberDef *d_member
    PyObject *PyType_GenericAlloc(PyTypeObject *t, Py_ssize_t nitems) except NULL

cdef extern from "structmember.h":  # the old names, still defined by 3.12+
    int Py_T_OBJECT_EX "T_OBJECT_EX"
    int Py_READONLY "READONLY"


cdef Py_ssize_t _slot(type cls, str name) except -1:
    """The offset of the slot that holds field ``name`` of cls's instances."""
    d = getattr(cls, name)
    if (type(d) is not _types.MemberDescriptorType
            or (<PyMemberDescrObject*>d).d_member.type != Py_T_OBJECT_EX
            or (<PyMemberDescrObject*>d).d_member.flags & Py_READONLY):
        raise ImportError(f"chinchon._core: {cls.__name__}.{name} is not a plain slot")
    return (<PyMemberDescrObject*>d).d_member.offset


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


cdef inline object _get(object obj, Py_ssize_t offset, str name):
    """The value of the slot at offset (named name: an unset slot raises as reading the
    attribute does)."""
    cdef PyObject *v = (<PyObject**>((<char*><PyObject*>obj) + offset))[0]
    if v is NULL:
        return getattr(obj, name)
    return <object>v


for _cls in (Meld, TableMeld, Arrangement, CloserResult, OpponentResult, Settlement):
    _plain(_cls)

cdef Py_ssize_t _M_KIND = _slot(Meld, "kind"), _M_CARDS = _slot(Meld, "cards")
cdef Py_ssize_t _M_JOKER = _slot(Meld, "joker"), _M_JOKER_RANK = _slot(Meld, "joker_rank")
cdef Py_ssize_t _T_KIND = _slot(TableMeld, "kind"), _T_CARDS = _slot(TableMeld, "cards")
cdef Py_ssize_t _T_OWNER = _slot(TableMeld, "owner"), _T_OPEN = _slot(TableMeld, "open")
cdef Py_ssize_t _T_JOKER = _slot(TableMeld, "joker")
cdef Py_ssize_t _T_JOKER_RANK = _slot(TableMeld, "joker_rank")
cdef Py_ssize_t _A_MELDS = _slot(Arrangement, "melds")
cdef Py_ssize_t _A_UNMATCHED = _slot(Arrangement, "unmatched")
cdef Py_ssize_t _A_POINTS = _slot(Arrangement, "points")
cdef Py_ssize_t _C_MELDS = _slot(CloserResult, "melds")
cdef Py_ssize_t _C_UNMATCHED = _slot(CloserResult, "unmatched")
cdef Py_ssize_t _C_POINTS = _slot(CloserResult, "points")
cdef Py_ssize_t _O_MELDS = _slot(OpponentResult, "melds")
cdef Py_ssize_t _O_LAYOFFS = _slot(OpponentResult, "layoffs")
cdef Py_ssize_t _O_UNMATCHED = _slot(OpponentResult, "unmatched")
cdef Py_ssize_t _O_POINTS = _slot(OpponentResult, "points")
cdef Py_ssize_t _S_OUTCOME = _slot(Settlement, "outcome")
cdef Py_ssize_t _S_CLOSER = _slot(Settlement, "closer")
cdef Py_ssize_t _S_OPPONENTS = _slot(Settlement, "opponents")
cdef Py_ssize_t _S_TABLE = _slot(Settlement, "table")
cdef Py_ssize_t _S_POINTS = _slot(Settlement, "points")

# a Hand's masks (Hand keeps them in __slots__ too; they are always set)
cdef Py_ssize_t _H_ONCE = _slot(Hand, "_once")
cdef Py_ssize_t _H_TWICE = _slot(Hand, "_twice")
cdef Py_ssize_t _H_DECKS = _slot(Hand, "_decks")

cdef tuple _KIND_OF = tuple(_KINDS)
cdef tuple _OUTCOME_OF = tuple(OUTCOMES)


# The card tuples of a settlement's melds, by mask: a table meld nobody laid off onto
# holds the same cards as the meld it was put down as, and shares its tuple (tuples of
# cards are immutable). Borrowed references, kept alive by the melds being built.
cdef struct _Seen:
    int n
    uint64_t once[12]
    uint64_t twice[12]
    PyObject *cards[12]


cdef inline tuple _meld_cards(cc_hand h, _Seen *seen):
    """_settle_cards(h), or the tuple of an earlier meld of the call with these cards."""
    cdef int i
    if seen is NULL:
        return _settle_cards(h)
    for i in range(seen.n):
        if seen.once[i] == h.once and seen.twice[i] == h.twice:
            return <tuple>seen.cards[i]
    out = _settle_cards(h)
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
        cards = _get(obj, _M_CARDS, "cards")  # alive while the meld is
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


cdef tuple _settle_cards(cc_hand h):
    cdef uint64_t m = h.once
    cdef int i, k = 0, n = 0
    cdef tuple cards = _BY_INDEX
    while m:
        n += 1 + <int>((h.twice >> cc_ctz(m)) & 1)
        m &= m - 1
    out = PyTuple_New(n)
    m = h.once
    while m:
        i = cc_ctz(m)
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


cdef object _settlement_of(const cc_settlement *s, object rules):
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
    _put(closer, _C_UNMATCHED, _settle_cards(s.closer.unmatched))
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
        _put(o, _O_UNMATCHED, _settle_cards(r.unmatched))
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


# The Rules value of the last settle call and its cc_rules (Rules is frozen): a game
# settles every hand under one Rules value, and looking a Rules value up (its solver
# view, hashed) costs more than a small settlement. Read and written with the GIL held.
cdef object _last_rules = None
cdef Py_ssize_t _MAX_OPPONENTS = MAX_OPPONENTS
cdef cc_rules _last_crules


cdef inline void _remember_rules(object rules, const cc_rules *r):
    global _last_rules, _last_crules
    _last_crules = r[0]
    _last_rules = rules


def settle(closer7, opponents, *, decks=None, rules=None):
    cdef cc_hand hands[6]
    cdef cc_settlement out
    cdef cc_rules r
    cdef const cc_rules *rp
    cdef int n, k, c_decks
    cdef cc_status st
    fast = (type(closer7) is Hand and type(opponents) in (list, tuple)
            and 1 <= len(opponents) <= _MAX_OPPONENTS
            and (decks is None or (type(decks) is int and (decks == 1 or decks == 2)))
            and (rules is None or isinstance(rules, _Rules)))  # a preset name: slow path
    if fast:
        for h in opponents:
            if type(h) is not Hand:
                fast = False
                break
    if fast:
        n = len(opponents)
        hands[0].once = _get(closer7, _H_ONCE, "_once")
        hands[0].twice = _get(closer7, _H_TWICE, "_twice")
        says_two = _get(closer7, _H_DECKS, "_decks") == 2
        for k in range(n):
            h = opponents[k]
            hands[k + 1].once = _get(h, _H_ONCE, "_once")
            hands[k + 1].twice = _get(h, _H_TWICE, "_twice")
            says_two = says_two or _get(h, _H_DECKS, "_decks") == 2
        # decks=None: a Hand of two decks makes it 2 (the set capacity under jokers), as
        # in prepare_settle; else the C core infers it from the cards
        c_decks = (2 if says_two else 0) if decks is None else decks
    else:
        masks, c_decks, rules = _settle_prepare(closer7, opponents, decks, rules)
        n = len(masks) - 1
        for k in range(n + 1):
            hands[k].once = masks[k][0]
            hands[k].twice = masks[k][1]
    if rules is None or rules is HOUSE_RULES:
        rp = &_house
    elif rules is _last_rules:  # the same Rules value as the last call (a game's case)
        r = _last_crules  # a copy: the global may change under a free-threaded build
        rp = &r
    else:
        r = _rules_for(rules)
        _remember_rules(rules, &r)
        rp = &r
    # with the GIL, as every one-hand call: a settlement is 0.3-3 us of C, and giving the
    # GIL up and taking it back costs a tenth of that alone (more when another thread
    # holds it: then the wait is up to the switch interval, 5 ms)
    st = cc_settle(rp, hands[0], &hands[1], n, c_decks, &out)
    if st != CC_OK:
        if <int>st == <int>CC_ERR_CANNOT_CLOSE:
            raise _cannot_close_error((hands[0].once, hands[0].twice), out.deadwood,
                                      HOUSE_RULES if rules is None else rules)
        if fast:  # the shared check names the problem (a joker the rules lack, ...)
            _settle_prepare(closer7, opponents, decks, rules)
        raise _deal_error(_STATUS_NAMES.get(st, f"status {<int>st}"),
                          [(hands[k].once, hands[k].twice) for k in range(n + 1)],
                          out.bad_seat, out.bad_card)
    return _settlement_of(&out, rules)
