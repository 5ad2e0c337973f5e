# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: freethreading_compatible = True
"""The binding's constructors of :class:`~chinchon.Hand` and :class:`~chinchon.Card`,
installed by :func:`chinchon.cards.use_native_constructors` when the binding loads.

They build the common cases in C and hand everything else, every refusal included, to
the Python methods of :mod:`chinchon.cards`, which do all the work without the binding:

- ``Hand.from_mask`` (an int mask, or ``(once, twice)`` of ints; ``decks`` None, 1 or
  2) and ``Hand.trusted`` (int masks): a Hand allocated and its four slots set here.
  Both stay classmethods to Python code: the descriptor :class:`HandClassMethod` gives
  ``Hand.from_mask`` without a bound-method object per call (a function that knows its
  class) and a bound method of any subclass, which then goes to the Python method;
- ``Hand.__init__`` of card text or a list or tuple of Cards and card texts (the one
  conversion, ``hand_masks``);
- ``Card(...)`` and ``Card.parse`` of card text the token table knows, and
  ``Card(rank, suit)`` of an int rank and one suit letter: the interned Card.
"""

from cpython.ref cimport Py_INCREF, Py_XDECREF, PyObject
from libc.stdint cimport uint64_t

from .chinchon cimport cc_hand
from ._common cimport card_object, hand_masks, slot_offset, str_bit

from ..cards import CARD_MASK, Card, Hand, use_native_constructors


cdef extern from "Python.h":
    ctypedef struct PyTypeObject
    ctypedef PyObject *(*allocfunc)(PyTypeObject *, Py_ssize_t)
    ctypedef struct AllocType "PyTypeObject":
        allocfunc tp_alloc
    object PyLong_FromUnsignedLongLong(unsigned long long v)
    object PyLong_FromLong(long v)
    PyObject *PyTuple_GET_ITEM(object t, Py_ssize_t i)
    object method_new "PyMethod_New"(object func, object self)
    Py_ssize_t PyUnicode_GET_LENGTH(object o)

cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define chinchon_popcount(m) __builtin_popcountll(m)
    #else
    static CYTHON_INLINE int chinchon_popcount(unsigned long long m)
    {
        m = m - ((m >> 1) & 0x5555555555555555ULL);
        m = (m & 0x3333333333333333ULL) + ((m >> 2) & 0x3333333333333333ULL);
        m = (m + (m >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        return (int)((m * 0x0101010101010101ULL) >> 56);
    }
    #endif
    """
    int chinchon_popcount(uint64_t m) noexcept nogil


# ---------------------------------------------------------------- a Hand from its fields

cdef Py_ssize_t _H_ONCE = slot_offset(Hand, "_once")
cdef Py_ssize_t _H_TWICE = slot_offset(Hand, "_twice")
cdef Py_ssize_t _H_DECKS = slot_offset(Hand, "_decks")
cdef Py_ssize_t _H_N = slot_offset(Hand, "_n")
cdef uint64_t _CARD_MASK = CARD_MASK
cdef object _ZERO = 0, _ONE = 1, _TWO = 2
# the card counts as objects, made once (a hand's _n): 0-128, every count two 64-bit
# masks can hold (Hand.trusted checks nothing; two decks of fifty cards are 100)
cdef tuple _COUNTS = tuple(range(129))


cdef inline void _init_slot(object obj, Py_ssize_t offset, object value) noexcept:
    """Set an unset slot of a new object (it takes a reference)."""
    Py_INCREF(value)
    (<PyObject**>((<char*><PyObject*>obj) + offset))[0] = <PyObject*>value


cdef inline void _set_slot(object obj, Py_ssize_t offset, object value) noexcept:
    """Set a slot that may hold a value already (Hand.__init__ called again)."""
    cdef PyObject **p = <PyObject**>((<char*><PyObject*>obj) + offset)
    cdef PyObject *old = p[0]
    Py_INCREF(value)
    p[0] = <PyObject*>value
    Py_XDECREF(old)


cdef object _new_hand(object once, object twice, object decks, int n):
    """A new Hand (exactly that class) of these fields, as Hand.trusted sets them."""
    cdef PyObject *p = (<AllocType*><PyObject*>Hand).tp_alloc(<PyTypeObject*><PyObject*>Hand, 0)
    if p is NULL:
        raise MemoryError()
    hand = <object>p  # takes a second reference: drop the one tp_alloc gave
    Py_XDECREF(p)
    _init_slot(hand, _H_ONCE, once)
    _init_slot(hand, _H_TWICE, twice)
    _init_slot(hand, _H_DECKS, decks)
    _init_slot(hand, _H_N, <object>PyTuple_GET_ITEM(_COUNTS, n))
    return hand


cdef inline bint _mask_of(object m, uint64_t *out) noexcept:
    """An int (exactly) as a 64-bit mask of card bits into *out: False when it is not one
    (negative, past 64 bits, bits outside the card lanes; the Python method decides)."""
    if type(m) is not int:
        return False
    try:
        out[0] = m
    except OverflowError:  # negative or past 64 bits (an exact int raises nothing else)
        return False
    return not out[0] & ~_CARD_MASK


# ---------------------------------------------------------------- Hand.from_mask, Hand.trusted

cdef object _PY_FROM_MASK = Hand.__dict__["from_mask"].__func__
cdef object _PY_TRUSTED = Hand.__dict__["trusted"].__func__


cdef object _from_mask(object mask, object decks):
    """Hand.from_mask for the class Hand: built here when the mask is an int, or a pair
    of ints, of card bits, twice within once, with decks None, 1 or 2 that fits them;
    else the Python method (which refuses what is wrong)."""
    cdef uint64_t once, twice = 0
    cdef int nd = 0
    if decks is not None:
        if type(decks) is not int or not (decks == 1 or decks == 2):
            return _PY_FROM_MASK(Hand, mask, decks=decks)
        nd = decks
    if type(mask) is int:
        if _mask_of(mask, &once):
            return _new_hand(mask, _ZERO, _TWO if nd == 2 else _ONE, chinchon_popcount(once))
    elif type(mask) is tuple and len(<tuple>mask) == 2:
        o = (<tuple>mask)[0]
        t = (<tuple>mask)[1]
        if (_mask_of(o, &once) and _mask_of(t, &twice) and not twice & ~once
                and not (nd == 1 and twice)):
            return _new_hand(o, t, _ONE if nd == 1 else _TWO,
                             chinchon_popcount(once) + chinchon_popcount(twice))
    return _PY_FROM_MASK(Hand, mask, decks=decks)


def _hand_from_mask(cls, mask, *, decks=None):
    """Hand.from_mask of any class: Hand's built here, a subclass's by the Python
    method."""
    if cls is Hand:
        return _from_mask(mask, decks)
    return _PY_FROM_MASK(cls, mask, decks=decks)


def _from_mask_of_hand(mask, *, decks=None):
    """Hand.from_mask bound to Hand (what ``Hand.from_mask`` gives)."""
    return _from_mask(mask, decks)


cdef object _trusted(object once, object twice, object decks):
    cdef uint64_t o, t
    if _mask_of(once, &o) and _mask_of(twice, &t):
        return _new_hand(once, twice, decks, chinchon_popcount(o) + chinchon_popcount(t))
    # not masks of cards: the Python method counts their bits as it always has
    return _PY_TRUSTED(Hand, once, twice, decks)


def _hand_trusted(cls, once, twice, decks):
    """Hand.trusted of any class: Hand's built here, a subclass's by the Python
    method."""
    if cls is Hand:
        return _trusted(once, twice, decks)
    return _PY_TRUSTED(cls, once, twice, decks)


def _trusted_of_hand(once, twice, decks):
    """Hand.trusted bound to Hand (what ``Hand.trusted`` gives)."""
    return _trusted(once, twice, decks)


cdef class HandClassMethod:
    """A classmethod of Hand (``__func__`` takes the class first) that binds to Hand
    itself without a new bound-method object per access: ``Hand.name`` is a function
    made once that knows its class; ``Sub.name`` (a subclass, or an instance of one) is
    a bound method of ``__func__`` as a classmethod gives."""

    cdef readonly object function
    cdef object of_hand

    def __cinit__(self, function, of_hand, python):
        for fn in (function, of_hand):
            fn.__doc__, fn.__name__ = python.__doc__, python.__name__
            fn.__qualname__ = python.__qualname__
        self.function = function
        self.of_hand = of_hand

    def __get__(self, obj, owner):
        if owner is None:
            owner = type(obj)
        if owner is Hand:
            return self.of_hand
        return method_new(self.function, owner)

    @property
    def __func__(self):
        return self.function

    @property
    def __doc__(self):
        return self.function.__doc__

    def __repr__(self):
        return f"<native classmethod {self.function.__qualname__}>"


# ---------------------------------------------------------------- Hand.__init__

cdef object _PY_INIT = Hand.__dict__["__init__"]


def _hand_init(self, cards=(), *, decks=None):
    """Hand.__init__: card text, or a list or tuple of Cards and card texts, is
    converted here (hand_masks), everything else (and every refusal) by the Python
    method."""
    cdef cc_hand h
    cdef int nd = 0, n
    cdef type t = type(cards)
    if type(self) is Hand and (t is str or t is list or t is tuple):
        n = hand_masks(cards, decks, &h, &nd)
        if n >= 0:
            _set_slot(self, _H_ONCE, PyLong_FromUnsignedLongLong(h.once))
            _set_slot(self, _H_TWICE, PyLong_FromUnsignedLongLong(h.twice) if h.twice
                      else _ZERO)
            _set_slot(self, _H_DECKS, _ONE if nd == 1 else _TWO)
            _set_slot(self, _H_N, PyLong_FromLong(n))
            return
    _PY_INIT(self, cards, decks=decks)


# ---------------------------------------------------------------- Card

cdef object _PY_CARD_NEW = Card.__dict__["__new__"].__func__
cdef object _PY_CARD_PARSE = Card.__dict__["parse"].__func__


def _card_new(cls, rank, suit=None):
    """Card(): card text, a Card, or an int rank and a one-letter suit (o, c, e, b in
    either case) is the interned Card here, everything else (and every refusal) goes to
    the Python method."""
    cdef int bit = -1, lane
    cdef Py_UCS4 ch
    cdef PyObject *card
    if cls is Card:
        if suit is None:
            if type(rank) is str:
                bit = str_bit(rank)
            elif type(rank) is Card:
                return rank
        elif (type(rank) is int and type(suit) is str and PyUnicode_GET_LENGTH(suit) == 1
              and 1 <= rank <= 12):
            ch = (<str>suit)[0]
            lane = (0 if ch == u'o' or ch == u'O' else 1 if ch == u'c' or ch == u'C'
                    else 2 if ch == u'e' or ch == u'E' else 3 if ch == u'b' or ch == u'B'
                    else -1)
            if lane >= 0:
                bit = 16 * lane + <int>rank - 1
        if bit >= 0:
            card = card_object(bit)
            if card is not NULL:
                return <object>card
    return _PY_CARD_NEW(cls, rank, suit)


def _card_parse(cls, text):
    """Card.parse: card text the table knows is its interned Card here, everything else
    (and every refusal) goes to the Python method."""
    cdef int bit
    cdef PyObject *card
    if type(text) is str:
        bit = str_bit(text)
        if bit >= 0:
            card = card_object(bit)
            if card is not NULL:
                return <object>card
    return _PY_CARD_PARSE(cls, text)


use_native_constructors(HandClassMethod(_hand_from_mask, _from_mask_of_hand, _PY_FROM_MASK),
                        HandClassMethod(_hand_trusted, _trusted_of_hand, _PY_TRUSTED),
                        _hand_init, _card_new, _card_parse)
