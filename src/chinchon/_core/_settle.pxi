# The settle() part of the native binding (SPEC section 4), over cc_settle in the C
# core. Included from _binding.pyx (it uses _rules_for and _KINDS from there; the C
# declarations are in _binding.pxd).
#
# Validation is shared with the reference (chinchon._args.prepare_settle) so both raise
# the same classes with the same messages. Fast path: when every hand is a Hand, the C
# core validates; on any bad-deal status the shared validation is run to raise the
# documented error. The result dataclasses are filled directly (no __init__ call, see
# _bare below): they are plain frozen dataclasses without __post_init__. Every rule variant (SPEC 9.3)
# is settled by the C core (csrc/src/settle_variants.c).

from cpython.object cimport PyObject_GenericSetAttr, PyTypeObject
from cpython.ref cimport PyObject, Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM

from ..results import CloserResult, OpponentResult, Settlement, TableMeld
from .._args import MAX_OPPONENTS as _MAX_OPPONENTS
from .._args import cannot_close_error as _cannot_close_error
from .._args import deal_error as _deal_error
from .._args import prepare_settle as _settle_prepare
from ..rules import Rules as _Rules

cdef object _object_new = object.__new__


cdef inline object _filled(object cls, dict fields):
    """An instance of a frozen dataclass with its fields set, skipping __init__."""
    obj = _object_new(cls)
    PyObject_GenericSetAttr(obj, "__dict__", fields)
    return obj


# The settlement's objects are made the cheapest way CPython offers: the type's own
# tp_new (object's: the dataclasses define no __new__), then each field stored with the
# generic setattr, which puts it in the instance's inline values -- no __dict__ is built,
# which also spares the garbage collector a container per object. A field left unset
# (a meld's joker fields without a joker) reads as its class default, None.

cdef tuple _NO_ARGS = ()


cdef inline object _bare(type cls):
    """An instance of cls made without __init__ (cls.__new__ is object's)."""
    return (<PyTypeObject*>cls).tp_new(cls, <PyObject*>_NO_ARGS, NULL)


cdef inline object _new_meld(cc_meld m):
    obj = _bare(Meld)
    PyObject_GenericSetAttr(obj, "kind", _KINDS[m.kind])
    PyObject_GenericSetAttr(obj, "cards", _settle_cards(m.cards))
    if m.joker_rank != 0:
        PyObject_GenericSetAttr(obj, "joker", _BY_INDEX[m.joker])
        PyObject_GenericSetAttr(obj, "joker_rank", <int>m.joker_rank)
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


cdef tuple _settle_melds(const cc_seat_result *r):
    cdef int i
    out = PyTuple_New(r.n_melds)
    for i in range(r.n_melds):
        m = _new_meld(r.melds[i])
        Py_INCREF(m)
        PyTuple_SET_ITEM(out, i, m)
    return out


cdef object _table_meld_of(const cc_table_meld *t):
    """The TableMeld of a C table meld."""
    obj = _bare(TableMeld)
    PyObject_GenericSetAttr(obj, "kind", _KINDS[t.kind])
    PyObject_GenericSetAttr(obj, "cards", _settle_cards(t.cards))
    PyObject_GenericSetAttr(obj, "owner", <int>t.owner)
    PyObject_GenericSetAttr(obj, "open", t.open != 0)
    if t.joker_rank != 0:
        PyObject_GenericSetAttr(obj, "joker", _BY_INDEX[t.joker])
        PyObject_GenericSetAttr(obj, "joker_rank", <int>t.joker_rank)
    return obj


cdef object _settlement_of(const cc_settlement *s, object rules):
    # rules: None (the house rules) or the Rules value. Rules does not bound minus_ten
    # nor joker_chinchon, so the closer's points on those closes are computed here from
    # the Python ints (a C int would overflow).
    cdef int k, i
    cdef const cc_seat_result *r
    if s.outcome == CC_MINUS_TEN:
        closer_points = -(10 if rules is None else rules.minus_ten)
    elif s.outcome == CC_JOKER_CHINCHON:
        closer_points = -rules.joker_chinchon
    else:
        closer_points = s.closer.points
    closer = _bare(CloserResult)
    PyObject_GenericSetAttr(closer, "melds", _settle_melds(&s.closer))
    PyObject_GenericSetAttr(closer, "unmatched", _settle_cards(s.closer.unmatched))
    PyObject_GenericSetAttr(closer, "points", closer_points)
    opponents = PyTuple_New(s.n_opponents)
    points = PyTuple_New(s.n_opponents + 1)
    Py_INCREF(closer_points)
    PyTuple_SET_ITEM(points, 0, closer_points)
    for k in range(s.n_opponents):
        r = &s.opponents[k]
        layoffs = PyTuple_New(r.n_layoffs)
        for i in range(r.n_layoffs):
            pair = (_BY_INDEX[r.layoffs[i].card], <int>r.layoffs[i].meld)
            Py_INCREF(pair)
            PyTuple_SET_ITEM(layoffs, i, pair)
        o = _bare(OpponentResult)
        PyObject_GenericSetAttr(o, "melds", _settle_melds(r))
        PyObject_GenericSetAttr(o, "layoffs", layoffs)
        PyObject_GenericSetAttr(o, "unmatched", _settle_cards(r.unmatched))
        p = r.points
        PyObject_GenericSetAttr(o, "points", p)
        Py_INCREF(o)
        PyTuple_SET_ITEM(opponents, k, o)
        Py_INCREF(p)
        PyTuple_SET_ITEM(points, k + 1, p)
    table = PyTuple_New(s.n_table)
    for i in range(s.n_table):
        t = _table_meld_of(&s.table[i])
        Py_INCREF(t)
        PyTuple_SET_ITEM(table, i, t)
    settlement = _bare(Settlement)
    PyObject_GenericSetAttr(settlement, "outcome", OUTCOMES[s.outcome])
    PyObject_GenericSetAttr(settlement, "closer", closer)
    PyObject_GenericSetAttr(settlement, "opponents", opponents)
    PyObject_GenericSetAttr(settlement, "table", table)
    PyObject_GenericSetAttr(settlement, "points", points)
    return settlement


# The Rules value of the last settle call and its cc_rules (Rules is frozen): a game
# settles every hand under one Rules value, and looking a Rules value up (its solver
# view, hashed) costs more than a small settlement. Read and written with the GIL held.
cdef object _last_rules = None
cdef cc_rules _last_crules


cdef inline void _remember_rules(object rules, const cc_rules *r):
    global _last_rules, _last_crules
    _last_crules = r[0]
    _last_rules = rules


def settle(closer7, opponents, *, decks=None, rules=None):
    cdef cc_hand hands[6]
    cdef cc_settlement out
    cdef cc_rules r
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
        hands[0].once = closer7._once
        hands[0].twice = closer7._twice
        says_two = closer7._decks == 2
        for k in range(n):
            h = opponents[k]
            hands[k + 1].once = h._once
            hands[k + 1].twice = h._twice
            says_two = says_two or h._decks == 2
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
        r = _house
    elif rules is _last_rules:  # the same Rules value as the last call: a game's
        r = _last_crules
    else:
        r = _rules_for(rules)
        _remember_rules(rules, &r)
    with nogil:
        st = cc_settle(&r, hands[0], &hands[1], n, c_decks, &out)
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
