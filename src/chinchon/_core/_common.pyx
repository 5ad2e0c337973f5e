# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: freethreading_compatible = True
"""What the binding's subject modules share (declared in ``_common.pxd``).

- the C rules of a call: the house rules, or a ``cc_rules`` built once per distinct
  solver view of a :class:`~chinchon.rules.Rules` value and cached;
- the one conversion of a hand to its masks, with a fast path for a :class:`Hand`, card
  text (parsed by :func:`chinchon.cards.parse_cards`) and a list of :class:`Card`;
  anything else, and every refusal, goes through :func:`chinchon.cards.as_hand`, which
  raises the documented error;
- a C status raised as its exception: by the name ``cc_status_name`` gives, looked up in
  :data:`chinchon.errors.STATUS_ERRORS` (checked against the C core at import);
- batches split into contiguous chunks over a thread pool (each chunk runs without the
  GIL).
"""

import os
from concurrent.futures import ThreadPoolExecutor

from cpython.ref cimport PyObject
from libc.stdint cimport uint8_t, uint32_t, uint64_t

from .chinchon cimport (CC_BOT_EXPERT, CC_BOT_GREEDY, CC_BOT_RANDOM, CC_BOT_SEARCH, CC_OK,
                        CC_STATUS_END, cc_game_config, cc_hand, cc_rules, cc_rules_default,
                        cc_rules_init_variant, cc_status, cc_status_message,
                        cc_status_name, cc_variant)

import types

from .._args import check_rules, hand_for
from .._integers import check_decks
from ..cards import CARD_AT, SPELLINGS, Card, Hand, as_hand, parse_cards
from ..errors import STATUS_ERRORS, ChinchonError
from ..errors import raise_status as _raise_named
from ..rules import HOUSE_RULES


# ---------------------------------------------------------------- statuses

cdef str status_name(int status):
    """The C name of a status code ("CC_STATUS_UNKNOWN" for no status code)."""
    return cc_status_name(<cc_status>status).decode()


cdef int raise_status(int status) except -1:
    """Raise the exception of a C status (errors.STATUS_ERRORS, by the status's name)."""
    _raise_named(status_name(status))
    return -1


# Every status of the C core has its exception and every exception its status, by name:
# a status added to csrc/include/chinchon.h without one fails here, at import.
_HEADER_NAMES = [status_name(k) for k in range(CC_STATUS_END)]
if (_HEADER_NAMES[:1] != ["CC_OK"] or sorted(_HEADER_NAMES[1:]) != sorted(STATUS_ERRORS)
        or status_name(CC_STATUS_END) != "CC_STATUS_UNKNOWN"):
    raise ImportError(f"chinchon._core: the C core's statuses {_HEADER_NAMES} are not those "
                      f"of chinchon.errors.STATUS_ERRORS {sorted(STATUS_ERRORS)}")
# ... and says each in the words of STATUS_ERRORS (the texts the errors carry)
_DRIFTED = [name for k, name in enumerate(_HEADER_NAMES[1:], 1)
            if cc_status_message(<cc_status>k).decode() != STATUS_ERRORS[name][1]]
if _DRIFTED:
    raise ImportError(f"chinchon._core: cc_status_message of {_DRIFTED} is not the text of "
                      f"chinchon.errors.STATUS_ERRORS")


# ---------------------------------------------------------------- rules

cdef class CRules:
    pass


cdef CRules _HOUSE = CRules()
cc_rules_default(&_HOUSE.r)
cdef dict _CACHE = {}
cdef int _INT_MAX = 2147483647


cdef CRules crules_of(object rules):
    """The C rules of a rules argument (None, a Rules value or a preset name; checked):
    the house rules', or those built on first use and cached by the solver view."""
    if rules is None or rules is HOUSE_RULES:
        return _HOUSE
    solver = check_rules(rules).solver
    cached = _CACHE.get(solver)
    if cached is not None:
        return <CRules>cached
    cdef CRules c = CRules()
    cdef uint8_t points[12]
    cdef cc_variant v
    cdef int i
    for i in range(12):
        points[i] = <uint8_t>solver.points[i]
    v.deck = solver.deck
    v.wild_ace_of_coins = 1 if solver.wild_ace_of_coins else 0
    v.jokers = solver.jokers
    v.joker_points = solver.joker_points
    v.seven_run_wins = 1 if solver.seven_run_wins else 0
    v.joker_chinchon = (-1 if solver.joker_chinchon is None
                        else min(solver.joker_chinchon, _INT_MAX))
    # Rules.minus_ten is an unbounded int: the C copy only matters when it fits (the
    # settlement's closer points are taken from the Python int)
    st = cc_rules_init_variant(&c.r, points, solver.close_limit,
                               solver.minus_ten if solver.minus_ten <= _INT_MAX else 0, &v)
    if st != CC_OK:
        raise_status(st)
    if len(_CACHE) >= 1024:
        _CACHE.clear()
    _CACHE[solver] = c
    return c


cdef int rules_for(object rules, object hand, object decks, cc_rules *out) except -1:
    """The C rules of a one-hand call: the house rules for None, else the cached rules
    with the hand's number of decks (its set capacity): given, a Hand's own, or 0
    (inferred by the C core: 2 when a card is held twice)."""
    if rules is None or rules is HOUSE_RULES:
        out[0] = _HOUSE.r
        return 0
    out[0] = crules_of(rules).r
    if decks is not None and type(decks) is int and (decks == 1 or decks == 2):
        out.decks = <uint8_t>decks
    elif decks is None and type(hand) is Hand:
        out.decks = <uint8_t>read_slot(hand, _H_DECKS, "_decks")
    elif decks is not None and type(decks) is not int:  # numpy's integers too
        out.decks = <uint8_t>_decks_given(decks)
    else:
        out.decks = 0  # a bad decks= is refused with the hand
    return 0


cdef int _decks_given(object decks) except -1:
    """1 or 2 for a ``decks=`` of any integer type that says so (check_decks), else 0
    (the hand's check then refuses it by name)."""
    try:
        return check_decks(decks) or 0
    except ChinchonError:
        return 0


# ---------------------------------------------------------------- slots

cdef extern from "Python.h":
    ctypedef struct PyMemberDef:
        int type
        Py_ssize_t offset
        int flags
    ctypedef struct PyMemberDescrObject:
        PyMemberDef *d_member

cdef extern from "structmember.h":  # the old names, still defined by 3.12+
    int Py_T_OBJECT_EX "T_OBJECT_EX"
    int Py_READONLY "READONLY"


cdef Py_ssize_t slot_offset(type cls, str name) except -1:
    """The offset of the slot that holds field ``name`` of cls's instances (checked to
    be a plain writable object slot, what read_slot and the result builders assume)."""
    d = getattr(cls, name)
    if (type(d) is not types.MemberDescriptorType
            or (<PyMemberDescrObject*>d).d_member.type != Py_T_OBJECT_EX
            or (<PyMemberDescrObject*>d).d_member.flags & Py_READONLY):
        raise ImportError(f"chinchon._core: {cls.__name__}.{name} is not a plain slot")
    return (<PyMemberDescrObject*>d).d_member.offset


# a Hand's fields and a Card's index, read from their slots (always set)
cdef Py_ssize_t _H_ONCE = slot_offset(Hand, "_once")
cdef Py_ssize_t _H_TWICE = slot_offset(Hand, "_twice")
cdef Py_ssize_t _H_DECKS = slot_offset(Hand, "_decks")
cdef Py_ssize_t _H_N = slot_offset(Hand, "_n")
cdef Py_ssize_t _CARD_INDEX = slot_offset(Card, "index")


# ---------------------------------------------------------------- card text

cdef extern from "Python.h":
    bint PyUnicode_IS_COMPACT_ASCII(object o)
    void *PyUnicode_DATA(object o)
    Py_ssize_t PyUnicode_GET_LENGTH(object o)

# Card text without a Python object per token: every spelling of cards.SPELLINGS (lower
# case, at most 8 ASCII bytes) packed into a uint64, in an open-addressed table of 256
# slots -> bit index. A token is looked up with its ASCII letters lowered, so the table
# accepts exactly the ASCII spellings the any-case parser accepts; anything else (other
# characters, a longer token, a miss) is left to the Python parser, which accepts or
# raises as it always has.
cdef uint64_t _TOKEN_KEYS[256]
cdef int _TOKEN_BITS[256]
# the Card of each bit index (borrowed from cards.CARD_AT, which lives as long as we do)
cdef PyObject *_CARD_OBJ[64]


cdef inline unsigned int _token_slot(uint64_t key) noexcept nogil:
    return <unsigned int>((key * <uint64_t>0x9E3779B97F4A7C15ULL) >> 56)


cdef int _init_tokens() except -1:
    cdef uint64_t key
    cdef unsigned int k
    for i in range(64):
        _CARD_OBJ[i] = <PyObject*>CARD_AT[i] if CARD_AT[i] is not None else NULL
    for spelling, card in SPELLINGS.items():
        raw = spelling.encode("ascii")
        if not 0 < len(raw) <= 8 or raw != raw.lower() or not raw.isalnum() and b"*" not in raw:
            raise ImportError(f"chinchon._core: card spelling {spelling!r} does not pack")
        key = 0
        for i, ch in enumerate(raw):
            key |= (<uint64_t>ch) << (8 * i)
        k = _token_slot(key)
        while _TOKEN_KEYS[k]:
            k = (k + 1) & 255
        _TOKEN_KEYS[k] = key
        _TOKEN_BITS[k] = card.index
    return 0


_init_tokens()


cdef inline int token_bit(const unsigned char *s, Py_ssize_t n) noexcept nogil:
    """The bit index of the card spelled by the ASCII bytes s[0:n] (any case), or -1."""
    cdef uint64_t key = 0
    cdef unsigned char ch
    cdef unsigned int k
    cdef Py_ssize_t i
    if n <= 0 or n > 8:
        return -1
    for i in range(n):
        ch = s[i]
        if ch <= 32 or ch >= 127:
            return -1
        if 65 <= ch <= 90:  # A-Z
            ch += 32
        key |= (<uint64_t>ch) << (8 * i)
    k = _token_slot(key)
    while _TOKEN_KEYS[k]:
        if _TOKEN_KEYS[k] == key:
            return _TOKEN_BITS[k]
        k = (k + 1) & 255
    return -1


cdef int str_bit(object text) noexcept:
    """The bit index of one card's text, a str of exactly that type, or -1 (for the
    Python parser to decide: it strips whitespace, knows non-ASCII case folding, ...)."""
    if not PyUnicode_IS_COMPACT_ASCII(text):
        return -1
    return token_bit(<const unsigned char*>PyUnicode_DATA(text), PyUnicode_GET_LENGTH(text))


cdef inline bint _is_separator(unsigned char ch) noexcept nogil:
    # what parse_cards splits on among ASCII: whitespace (but \x1c-\x1f, left to it) and ','
    return ch == 32 or ch == 44 or 9 <= ch <= 13


cdef int text_bits(str text, signed char *bits, int capacity) except -2:
    """The bit indices of the cards of card text, in order, into bits[0:capacity]:
    returns their number, or -1 when the text is not plain ASCII card text of at most
    ``capacity`` cards (parse_cards then decides)."""
    if not PyUnicode_IS_COMPACT_ASCII(text):
        return -1
    cdef const unsigned char *s = <const unsigned char*>PyUnicode_DATA(text)
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(text), i = 0, start
    cdef int count = 0, bit
    while True:
        while i < n and _is_separator(s[i]):
            i += 1
        if i >= n:
            return count
        start = i
        while i < n and not _is_separator(s[i]):
            i += 1
        bit = token_bit(s + start, i - start)
        if bit < 0 or count >= capacity:
            return -1
        bits[count] = <signed char>bit
        count += 1


cdef PyObject *card_object(int bit) noexcept:
    """The interned Card of bit index ``bit`` (0-63; borrowed), or NULL for no card."""
    return _CARD_OBJ[bit]


cdef inline int card_bit(object c):
    """The bit index of a Card or one card's text (exact types), or -1."""
    if type(c) is Card:
        return <int>read_slot(c, _CARD_INDEX, "index")
    if type(c) is str:
        return str_bit(c)
    return -1


cdef object card_order(object hand):
    """The cards of a hand argument that hand_masks took (text, or a list or tuple of
    Cards and card texts), in the order given: a list or tuple of Cards as it is."""
    cdef signed char bits[64]
    cdef int n, i
    if type(hand) is str:
        n = text_bits(hand, bits, 64)
        if n < 0:
            return parse_cards(hand)
        return [<object>_CARD_OBJ[bits[i]] for i in range(n)]
    for c in hand:
        if type(c) is not Card:
            return [c if type(c) is Card else <object>_CARD_OBJ[str_bit(c)] for c in hand]
    return hand


# ---------------------------------------------------------------- hands

cdef inline int _add_bit(int bit, bint single, uint64_t *once, uint64_t *twice) noexcept:
    """One more copy of card ``bit``: 0, or -1 for a third copy or a copy with one deck."""
    cdef uint64_t b = (<uint64_t>1) << bit
    if once[0] & b:
        if twice[0] & b or single:
            return -1
        twice[0] |= b
    else:
        once[0] |= b
    return 0


cdef int hand_masks(object hand, object decks, cc_hand *h, int *hand_decks,
                    bint parse=True) except -2:
    """The masks of a hand, without building a Hand: a Hand's own (unless ``decks``
    says otherwise), or those of card text or a list or tuple of Cards and card texts
    (``decks`` 1, 2 or None). Returns the number of cards and sets ``*hand_decks`` (a
    Hand's, else ``decks``, or 2 when a card is held twice); -1 when anything is unusual
    (another type, a third copy, a copy with decks=1, card text the table does not
    know, ...): the caller's generic path then raises the documented error. Card text
    (a str) that names no card raises CardParseError (with ``parse`` false: -1, for a
    caller whose generic path checks other things first)."""
    cdef uint64_t once = 0, twice = 0
    cdef int n = 0, i, bit
    cdef bint single
    cdef signed char bits[64]
    cdef type t = type(hand)
    if t is Hand:
        if decks is not None and (type(decks) is not int
                                  or decks != read_slot(hand, _H_DECKS, "_decks")):
            return -1  # True or 1.0 equal 1: as_hand's check refuses them by name
        h.once = read_slot(hand, _H_ONCE, "_once")
        h.twice = read_slot(hand, _H_TWICE, "_twice")
        hand_decks[0] = read_slot(hand, _H_DECKS, "_decks")
        return read_slot(hand, _H_N, "_n")
    if decks is not None and (type(decks) is not int or (decks != 1 and decks != 2)):
        return -1
    single = decks is not None and decks == 1
    if t is str:
        n = text_bits(hand, bits, 64)
        if n < 0:  # the Python parser: raises naming the bad token, or takes it
            if not parse:
                return -1
            hand = parse_cards(hand)
            n = 0
        else:
            for i in range(n):
                if _add_bit(bits[i], single, &once, &twice):
                    return -1
            hand = ()
    elif t is not list and t is not tuple:
        return -1
    for c in hand:
        bit = card_bit(c)
        if bit < 0 or _add_bit(bit, single, &once, &twice):
            return -1
        n += 1
    h.once = once
    h.twice = twice
    hand_decks[0] = (2 if twice else 1) if decks is None else decks
    return n


cdef int hand_of(object hand, object decks, int max_cards, int exact, cc_hand *h,
                 int *hand_decks) except -1:
    """The masks of any hand argument (hand_masks, else as_hand) of at most
    ``max_cards`` cards, exactly ``exact`` unless it is -1 (else CardCountError);
    returns the number of cards, sets ``*hand_decks`` (unless NULL)."""
    cdef int nd = 0
    cdef int n = hand_masks(hand, decks, h, &nd)
    if n < 0:
        hand = as_hand(hand, decks)
        h.once = hand._once
        h.twice = hand._twice
        nd = hand._decks
        n = hand._n
    if (exact >= 0 and n != exact) or n > max_cards:
        # the Python check raises the documented CardCountError
        as_hand(hand, decks, exact=exact if exact >= 0 else None, max_cards=max_cards)
    if hand_decks is not NULL:
        hand_decks[0] = nd
    return n


cdef int refused(object hand, object decks, object rules, int max_cards, int exact,
                 cc_status status) except -1:
    """Raise the documented error of a hand the C core refused: the shared check names
    the card (a joker the rules do not have, ...), else the status's own error."""
    hand_for(hand, decks, check_rules(rules), max_cards=max_cards,
             exact=exact if exact >= 0 else None)
    return raise_status(status)


# ---------------------------------------------------------------- batches

_pool = None


def _forget_pool():
    """In a forked child: the pool object came along, its threads did not (a batch
    would wait for ever on them); the child makes its own."""
    global _pool
    _pool = None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool)


cdef tuple run_chunks(object chunk, size_t n, size_t chunks, tuple args):
    """Rows 0..n-1 of a batch in ``chunks`` contiguous chunks, one per thread of a
    shared pool (one chunk: in this thread): ``chunk(*args, lo, hi)`` runs rows lo..hi
    without the GIL and returns ``(status, absolute bad row)``. Returns the first
    failure's ``(status, row)`` by row, or ``(CC_OK, 0)``."""
    global _pool
    if chunks <= 1:
        results = [chunk(*args, 0, n)]
    else:
        step = (n + chunks - 1) // chunks
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=os.cpu_count() or 2,
                                       thread_name_prefix="chinchon")
        futures = [_pool.submit(chunk, *args, lo, min(n, lo + step))
                   for lo in range(0, n, step)]
        results = [f.result() for f in futures]
    failures = [(row, st) for st, row in results if st != CC_OK]
    if not failures:
        return (CC_OK, 0)
    row, st = min(failures)
    return (st, row)


# ------------------------------------------------------------------ the engine's bots

_BOT_CODES = {"random": CC_BOT_RANDOM, "greedy": CC_BOT_GREEDY, "expert": CC_BOT_EXPERT}


cdef int seat_bot(cc_game_config *cfg, int s, object name) except -1:
    """Seat ``s`` of cfg played by the built-in bot ``name``: one of random, greedy,
    expert, or the search's canonical name (bots.bot_name: ``search:<playouts>`` or
    ``search:<ms>ms``) with its budget. The one reading of a bot name for the C engine
    (whole games, engine.pyx) and the learning tables (vecenv.pyx)."""
    code = _BOT_CODES.get(name)
    cfg.search_playouts[s] = 0
    cfg.search_micros[s] = 0
    if code is None and isinstance(name, str) and name.startswith("search:"):
        code = CC_BOT_SEARCH
        budget = name[len("search:"):]
        if budget.endswith("ms"):
            cfg.search_micros[s] = <uint32_t>_budget(int(budget[:len(budget) - 2]) * 1000)
        else:
            cfg.search_playouts[s] = <uint32_t>_budget(int(budget))
    if code is None:
        raise ChinchonError(f"the native engine plays the bots {', '.join(_BOT_CODES)}, "
                            f"search:<playouts>, search:<ms>ms, not {name!r}")
    cfg.bots[s] = <uint8_t>code
    return 0


def _budget(n):
    if not 1 <= n <= 0xFFFFFFFF:
        raise ChinchonError(f"a search budget must be 1..{0xFFFFFFFF} playouts or "
                            f"microseconds, got {n}")
    return n
