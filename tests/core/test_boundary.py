"""The binding's constructors and hand conversion against the Python methods.

With the native binding loaded, ``Hand.from_mask``, ``Hand.__init__``, ``Card.__new__``
and ``Card.parse`` are the binding's (cards.use_native_constructors), which build the
common cases in C and pass the rest to the Python methods. Both must accept exactly
the same inputs, give the same values and raise the same errors; so must the solver
functions for every form of the same hand.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chinchon import Card, Hand, cards, reference
from chinchon.cards import SPELLINGS

native = pytest.importorskip("chinchon._core")

if Hand.__dict__["__init__"] is cards._PY_INIT:  # pragma: no cover
    pytest.skip("the binding's constructors are not installed", allow_module_level=True)

#: tokens and pieces of card text: every spelling, in odd cases, and near misses
PIECES = sorted(SPELLINGS) + [
    "7O", "rO", "Kb", "SE", "JOKER1", "Comodin2", "*3", "07o", "13o", "0o", "7x", "7",
    "o", "", " ", ",", ",,", "\t", "\n", "\x0b", "\x0c", "\r", "\x1c", "\x1f", "\x00",
    "\u212ao", "7\u212a", "7o\u00a0", "\u00a07c", "ſo", "７o", "7o ", " 7c", "joker", "*",
]


def _outcome(fn, *args, **kwargs):
    try:
        value = fn(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - the class and message are compared
        return ("raises", type(exc), str(exc))
    return ("value", value)


def _py_hand(arg, **kwargs):
    h = object.__new__(Hand)
    cards._PY_INIT(h, arg, **kwargs)
    return h


texts = st.lists(st.sampled_from(PIECES), max_size=10)


@settings(max_examples=400, deadline=None)
@given(texts, st.sampled_from([" ", ",", ", ", "", "\t"]),
       st.sampled_from([None, 1, 2, 3, True]))
def test_hand_text_and_lists_as_the_python_method(pieces, sep, decks):
    text = sep.join(pieces)
    for arg in (text, pieces, tuple(pieces)):
        assert _outcome(Hand, arg, decks=decks) == _outcome(_py_hand, arg, decks=decks)


@settings(max_examples=300, deadline=None)
@given(texts, st.sampled_from([" ", ","]))
def test_deadwood_of_every_form_as_the_reference(pieces, sep):
    text = sep.join(pieces)
    for arg in (text, pieces):
        got = _outcome(native.deadwood, arg)
        want = _outcome(reference.deadwood, arg)
        assert got == want


@pytest.mark.parametrize("mask", [0, 1, 5, (1 << 12) | (1 << 28), cards.CARD_MASK, -1,
                                  1 << 13, 1 << 64, 1 << 80, (1 << 64) - 1, True, 7.0,
                                  (3, 1), (1, 3), (1,), 7.5, "7", (1.0, 0), [1, 1]])
@pytest.mark.parametrize("decks", [None, 1, 2])
def test_from_mask_as_the_python_method(mask, decks):
    got = _outcome(Hand.from_mask, mask, decks=decks)
    want = _outcome(cards._PY_FROM_MASK, Hand, mask, decks=decks)
    assert got == want
    if got[0] == "value":
        h = got[1]
        assert (h.once, h.twice, h.decks, len(h)) == (want[1].once, want[1].twice,
                                                      want[1].decks, len(want[1]))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(PIECES + [7, 12, 0, 13, True, None, 7.0]),
       st.sampled_from([None, "o", "O", "b", "x", "oo", "", 1, "\u212a"]))
def test_card_as_the_python_methods(rank, suit):
    def py_new(*args):
        return cards._PY_CARD_NEW(Card, *args)

    args = (rank,) if suit is None else (rank, suit)
    assert _outcome(Card, *args) == _outcome(py_new, *args)
    assert _outcome(Card.parse, rank) == _outcome(cards._PY_CARD_PARSE, Card, rank)
    if isinstance(rank, str):
        for card in (Card(7, "o"), Card("*1")):
            assert Card(card) is card and Card.parse(card) is card


H8 = "7o 7c 7b 9e 10e 11e 4o 12b"
REST = [str(c) for c in cards.full_deck() if str(c) not in H8.split()]


@pytest.mark.parametrize("hand", [H8, H8.split(), tuple(H8.split()), H8.upper(), "7o 7c",
                                  H8.replace("12b", "zz"), H8.replace("12b", "7o"),
                                  H8.replace("12b", "8o")])
@pytest.mark.parametrize("unseen", [None, REST[:12], " ".join(REST[:12]), REST[:5] + ["7o"],
                                    REST[:5] + ["zz"], [], REST[:3] * 2, REST[:3] * 3,
                                    REST[:4] + ["8e"], REST[:4] + ["*1"], "", "1o,2o,,3o"])
@pytest.mark.parametrize("kwargs", [{}, {"decks": 1}, {"decks": 2}, {"rules": "nonsense"},
                                    {"rules": "conga"}, {"rules": "fifty"}])
def test_outlook_and_hints_of_every_form_as_the_reference(hand, unseen, kwargs):
    def norm(outcome):  # results compared by their text (the same classes either way)
        return outcome if outcome[0] == "raises" else repr(outcome[1])

    assert norm(_outcome(native.outlook, hand, unseen, **kwargs)) == norm(
        _outcome(reference.outlook, hand, unseen, **kwargs))
    if unseen is None:
        assert norm(_outcome(native.discard_hints, hand, **kwargs)) == norm(
            _outcome(reference.discard_hints, hand, **kwargs))


@pytest.mark.parametrize("hand", [H8[:-4], H8.split()[:7], H8.replace("4o", "zz")[:-4]])
@pytest.mark.parametrize("top", [Card("12b"), Card("7o"), Card("8o"), Card("*2")])
@pytest.mark.parametrize("unseen", [None, REST[:12], " ".join(REST[:12]), REST[:5] + ["12b"],
                                    REST[:3] * 2, REST[:5] + ["zz"], []])
@pytest.mark.parametrize("kwargs", [{}, {"decks": 1}, {"rules": "conga"}, {"rules": "x"}])
def test_draw_outlook_of_every_form_as_the_reference(hand, top, unseen, kwargs):
    def norm(outcome):
        return outcome if outcome[0] == "raises" else repr(outcome[1])

    assert norm(_outcome(native.draw_outlook, hand, top, unseen, **kwargs)) == norm(
        _outcome(reference.draw_outlook, hand, top, unseen, **kwargs))


@pytest.mark.parametrize("once", [0, 5, (1 << 12) | (1 << 28), cards.CARD_MASK, -1, 1 << 13,
                                  1 << 64, (1 << 64) - 1, 7.0, True])
@pytest.mark.parametrize("twice", [0, 1, 4, 5, -1, 1 << 13, 1 << 64])
@pytest.mark.parametrize("decks", [None, 1, 2, 3, True, 2.0])
def test_double_deck_from_mask_as_the_python_method(once, twice, decks):
    mask = (once, twice)
    got = _outcome(Hand.from_mask, mask, decks=decks)
    want = _outcome(cards._PY_FROM_MASK, Hand, mask, decks=decks)
    assert got == want
    if got[0] == "value":
        h, w = got[1], want[1]
        assert type(h) is Hand
        assert (h.once, h.twice, h.decks, len(h), h.mask) == (w.once, w.twice, w.decks,
                                                              len(w), w.mask)


@pytest.mark.parametrize("once", [0, 5, cards.CARD_MASK, 1 << 13, 1 << 70, -3, (1 << 64) - 1])
@pytest.mark.parametrize("twice", [0, 1, 1 << 13, -1, cards.CARD_MASK])
@pytest.mark.parametrize("decks", [1, 2])
def test_trusted_as_the_python_method(once, twice, decks):
    h = Hand.trusted(once, twice, decks)
    w = cards._PY_TRUSTED(Hand, once, twice, decks)
    assert type(h) is Hand
    assert (h._once, h._twice, h._decks, h._n) == (w._once, w._twice, w._decks, w._n)


class _Sub(Hand):
    __slots__ = ()


@pytest.mark.parametrize("mask", [5, (5, 1), (5, 0)])
def test_constructors_of_a_subclass(mask):
    """A subclass's from_mask and trusted build that class (the Python methods), as
    classmethods do; Hand's own are reached through Hand and its instances."""
    h = _Sub.from_mask(mask)
    assert type(h) is _Sub and h == Hand.from_mask(mask) and hash(h) == hash(Hand.from_mask(mask))
    assert type(h.from_mask(mask)) is _Sub
    assert type(_Sub.trusted(5, 1, 2)) is _Sub and _Sub.trusted(5, 1, 2) == Hand.from_mask((5, 1))
    assert type(Hand.from_mask(5).from_mask(mask)) is Hand
    assert type(_Sub("7o 7c")) is _Sub and _Sub("7o 7c") == Hand("7o 7c")
    assert Hand.__dict__["from_mask"].__func__(_Sub, mask) == h


def test_native_constructors_keep_the_python_names_and_pickling():
    import pickle

    for name in ("from_mask", "trusted"):
        fn = getattr(Hand, name)
        py = getattr(cards, f"_PY_{name.upper()}")
        assert (fn.__name__, fn.__qualname__, fn.__doc__) == (py.__name__, py.__qualname__,
                                                              py.__doc__)
    for h in (Hand.from_mask(5), Hand.from_mask((5, 1)), Hand.trusted(5, 0, 2)):
        back = pickle.loads(pickle.dumps(h))
        assert type(back) is Hand and back == h and back.decks == h.decks
