# The settle() part of the native binding (SPEC section 4), over cc_settle in
# csrc/src/settle.c. Included from _core.pyx after its `cdef extern from "chinchon.h"`
# block (it uses cc_status, cc_hand, cc_rules, cc_meld, _rules_for and _KINDS from there).
#
# Validation is shared with the reference (chinchon.settlement.prepare) so both raise
# the same classes with the same messages. Fast path: when every hand is a Hand, the C
# core validates; on any bad-deal status the shared validation is run to raise the
# documented error. The result dataclasses are filled directly (no __init__ call):
# they are plain frozen dataclasses without __post_init__.

from cpython.object cimport PyObject_GenericSetAttr
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM

from .results import CloserResult, OpponentResult, Settlement, TableMeld
from .rules import Rules as _Rules
from .settlement import (
    MAX_OPPONENTS as _MAX_OPPONENTS,
    _CARD_AT as _SETTLE_CARDS,
    cannot_close_error as _cannot_close_error,
    prepare as _settle_prepare,
)

cdef extern from "chinchon.h" nogil:
    ctypedef struct cc_layoff:
        uint8_t card
        uint8_t meld

    ctypedef struct cc_table_meld:
        cc_hand cards
        uint8_t kind
        uint8_t owner
        uint8_t open

    ctypedef struct cc_seat_result:
        cc_meld melds[2]
        int n_melds
        cc_layoff layoffs[7]
        int n_layoffs
        cc_hand unmatched
        int points

    ctypedef struct cc_settlement:
        uint8_t outcome
        int decks
        int deadwood
        cc_seat_result closer
        int n_opponents
        cc_seat_result opponents[5]
        int n_table
        cc_table_meld table[12]
        int points[6]
        int bad_seat
        int bad_card

    cc_status cc_settle(const cc_rules *rules, cc_hand closer, const cc_hand *opponents,
                        int n_opponents, int decks, cc_settlement *out)

    enum:
        CC_ERR_CANNOT_CLOSE

cdef object _object_new = object.__new__


cdef inline object _filled(object cls, dict fields):
    """An instance of a frozen dataclass with its fields set, skipping __init__."""
    obj = _object_new(cls)
    PyObject_GenericSetAttr(obj, "__dict__", fields)
    return obj


# the core's count-trailing-zeros (csrc/src/bits.h: builtin, MSVC intrinsic or fallback)
cdef extern from "bits.h" nogil:
    int cc_ctz(uint64_t x)  # x != 0


cdef tuple _settle_cards(cc_hand h):
    cdef uint64_t m = h.once
    cdef int i, k = 0, n = 0
    cdef tuple cards = _SETTLE_CARDS
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
    return tuple([_filled(Meld, {"kind": _KINDS[r.melds[i].kind],
                                 "cards": _settle_cards(r.melds[i].cards)})
                  for i in range(r.n_melds)])


cdef object _settlement_of(const cc_settlement *s, object minus_ten):
    # minus_ten: the Python int of Rules.minus_ten. Rules does not bound it, so the
    # closer's points on minus ten are computed here (a C int would overflow).
    cdef int k, i
    cdef const cc_seat_result *r
    closer_points = -minus_ten if s.outcome == CC_MINUS_TEN else s.closer.points
    closer = _filled(CloserResult, {
        "melds": _settle_melds(&s.closer),
        "unmatched": _settle_cards(s.closer.unmatched),
        "points": closer_points,
    })
    opponents = []
    for k in range(s.n_opponents):
        r = &s.opponents[k]
        opponents.append(_filled(OpponentResult, {
            "melds": _settle_melds(r),
            "layoffs": tuple([(_SETTLE_CARDS[r.layoffs[i].card], <int>r.layoffs[i].meld)
                              for i in range(r.n_layoffs)]),
            "unmatched": _settle_cards(r.unmatched),
            "points": r.points,
        }))
    table = tuple([_filled(TableMeld, {
        "kind": _KINDS[s.table[i].kind],
        "cards": _settle_cards(s.table[i].cards),
        "owner": <int>s.table[i].owner,
        "open": s.table[i].open != 0,
    }) for i in range(s.n_table)])
    return _filled(Settlement, {
        "outcome": OUTCOMES[s.outcome],
        "closer": closer,
        "opponents": tuple(opponents),
        "table": table,
        "points": (closer_points, *[s.points[i] for i in range(1, s.n_opponents + 1)]),
    })


def settle(closer7, opponents, *, decks=None, rules=None):
    """Settle a closed hand (SPEC section 4): the closer's 7 kept cards and the
    opponents' 7-card hands in play order (1 to 5). Each opponent melds and lays off
    optimally for themselves given the table the earlier players left; ties by
    docs/design.md. ``decks=None``: 2 if a card appears twice across the hands or there
    are 5+ players, else 1. Raises CannotCloseError, DuplicateCardError,
    InvalidHandError, CardCountError (all ValueError) for impossible deals."""
    cdef cc_hand hands[6]
    cdef cc_settlement out
    cdef cc_rules r
    cdef int n, k, c_decks
    cdef cc_status st
    fast = (type(closer7) is Hand and type(opponents) in (list, tuple)
            and 1 <= len(opponents) <= _MAX_OPPONENTS
            and (decks is None or (type(decks) is int and (decks == 1 or decks == 2)))
            and (rules is None or isinstance(rules, _Rules)))
    if fast:
        for h in opponents:
            if type(h) is not Hand:
                fast = False
                break
    if fast:
        n = len(opponents)
        hands[0].once = closer7._once
        hands[0].twice = closer7._twice
        for k in range(n):
            h = opponents[k]
            hands[k + 1].once = h._once
            hands[k + 1].twice = h._twice
        c_decks = 0 if decks is None else decks
    else:
        masks, c_decks, rules = _settle_prepare(closer7, opponents, decks, rules)
        n = len(masks) - 1
        for k in range(n + 1):
            hands[k].once = masks[k][0]
            hands[k].twice = masks[k][1]
    r = _rules_for(rules)
    with nogil:
        st = cc_settle(&r, hands[0], &hands[1], n, c_decks, &out)
    if st != CC_OK:
        if <int>st == <int>CC_ERR_CANNOT_CLOSE:
            raise _cannot_close_error((hands[0].once, hands[0].twice), out.deadwood,
                                      HOUSE_RULES if rules is None else rules)
        if fast:
            _settle_prepare(closer7, opponents, decks, rules)  # raises the documented error
        _raise_status(st)
    return _settlement_of(&out, 10 if rules is None else rules.minus_ten)
