"""Cards, parsing, the bitmask encoding and Hand as a multiset."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from chinchon import (
    LANE_MASK,
    SUIT_MASKS,
    Card,
    CardCountError,
    CardParseError,
    DuplicateCardError,
    Hand,
    InvalidHandError,
    full_deck,
    parse_cards,
)
from chinchon.cards import as_hand, mask_to_cards
from tests.oracles.strategies import HAND_CARDS

ALL = full_deck(1)


def test_deck_and_encoding():
    assert len(ALL) == 48 and len(set(ALL)) == 48
    for c in ALL:
        assert c.index == 16 * "oceb".index(c.suit) + c.rank - 1
        assert (1 << c.index) & LANE_MASK
        assert c.points == c.rank
        assert Card.from_index(c.index) is c
        assert Card.parse(str(c)) is c
        assert eval(repr(c)) is c
        assert c.mask & SUIT_MASKS[c.suit]
    assert sum(1 << c.index for c in ALL) == LANE_MASK
    assert len(full_deck(2)) == 96


@pytest.mark.parametrize(
    "text,expected",
    [
        ("Ro", "12o"), ("ro", "12o"), ("Kb", "12b"), ("Sc", "10c"), ("jE", "10e"),
        ("Co", "11o"), ("Nb", "11b"), ("1O", "1o"), ("10e", "10e"), (" 7c ", "7c"),
    ],
)
def test_aliases(text, expected):
    assert str(Card.parse(text)) == expected


def test_parse_separators():
    assert [str(c) for c in parse_cards("7o,7c  7b,\t9e\n10E")] == ["7o", "7c", "7b", "9e", "10e"]
    assert parse_cards("") == []
    assert parse_cards(" , ") == []


@pytest.mark.parametrize("bad", ["13o", "0c", "7x", "o7", "77o", "1", "oo", "7o7c", "-1o", "Ao"])
def test_parse_errors_name_the_token(bad):
    with pytest.raises(CardParseError) as e:
        parse_cards(f"7o {bad} 5c")
    assert bad in str(e.value)
    assert isinstance(e.value, ValueError)


def test_card_constructor_errors():
    for args in [(0, "o"), (13, "o"), (5, "x"), (True, "o"), ("7", "o")]:
        with pytest.raises(CardParseError):
            Card(*args)
    with pytest.raises(InvalidHandError):
        Card.from_index(13)  # bit 12 is joker 1 (docs/rules.md#the-variant-encoding); 13 is no card
    with pytest.raises(AttributeError):
        Card(7, "o").rank = 8  # type: ignore[misc]
    assert copy.deepcopy(Card(7, "o")) is Card(7, "o")
    assert pickle.loads(pickle.dumps(Card(7, "o"))) is Card(7, "o")


def test_a_rank_is_any_integer_and_only_an_integer():
    """numpy's integers are ranks (as they are masks and numbers of decks); a bool, a
    float or text is not, and the error says so rather than that 7 is out of range."""
    for rank in (np.int64(7), np.uint8(7), np.int32(7)):
        card = Card(rank, "o")
        assert card is Card(7, "o") and type(card.rank) is int
    for rank in (np.True_, True, 7.0, np.float64(7), "7"):
        with pytest.raises(CardParseError, match="a rank is an int, 1 to 12"):
            Card(rank, "o")
    with pytest.raises(CardParseError, match="ranks are 1 to 12"):
        Card(np.int64(13), "o")


def test_full_deck_needs_a_number_of_decks():
    with pytest.raises(InvalidHandError, match="decks=1 or decks=2, got None"):
        full_deck(decks=None)  # type: ignore[arg-type]
    assert full_deck(np.int64(2)) == full_deck(2)


def test_hand_single_and_double():
    h = Hand("7o 7c 7b 9e 10e 11e 4o")
    assert h.decks == 1 and len(h) == 7 and isinstance(h.mask, int)
    assert str(h) == "4o 7o 7c 9e 10e 11e 7b"
    assert eval(repr(h)) == h
    assert int(h) == h.mask
    h2 = Hand("5o 5o 5c")
    assert h2.decks == 2 and h2.mask == ((1 << 4) | (1 << 20), 1 << 4)
    assert h2.count("5o") == 2 and h2.count(Card(5, "c")) == 1 and h2.count("6c") == 0
    assert list(h2) == [Card(5, "o"), Card(5, "o"), Card(5, "c")]
    assert eval(repr(h2)) == h2
    assert Hand("5o 5c", decks=2).mask == ((1 << 4) | (1 << 20), 0)
    assert eval(repr(Hand("5o 5c", decks=2))).decks == 2
    assert pickle.loads(pickle.dumps(h2)) == h2
    assert Hand.from_mask(h2.mask) == h2
    assert Hand.from_mask(h.mask) == h
    assert h2.remove("5o") == Hand("5o 5c", decks=2)
    assert h2.add("5e").count("5e") == 1
    with pytest.raises(TypeError):
        int(h2)


def test_hand_errors():
    with pytest.raises(DuplicateCardError, match="5o"):
        Hand("5o 5o", decks=1)
    with pytest.raises(InvalidHandError, match="5o"):
        Hand("5o 5o 5o")
    with pytest.raises(InvalidHandError, match="lanes"):
        Hand.from_mask(1 << 13)  # bit 12 is joker 1 (docs/rules.md#the-variant-encoding)
    with pytest.raises(InvalidHandError, match="twice"):
        Hand.from_mask((1, 2))
    with pytest.raises(InvalidHandError):
        Hand.from_mask(-1)
    with pytest.raises(InvalidHandError):
        Hand.from_mask(1 << 64)
    with pytest.raises(InvalidHandError):
        Hand("5o", decks=3)
    with pytest.raises(CardCountError, match="8"):
        as_hand("1o 2o 3o 4o 5o 6o 7o 8o 9o", max_cards=8)
    with pytest.raises(InvalidHandError, match="not in the hand"):
        Hand("5o").remove("6o")
    with pytest.raises(CardParseError):
        Hand(42)  # type: ignore[arg-type]


class HandMachine(RuleBasedStateMachine):
    """Drive a double-deck Hand beside a plain multiset (a dict of counts)."""

    def __init__(self):
        super().__init__()
        self.hand = Hand([], decks=2)
        self.model: dict[Card, int] = {}

    @rule(card=st.sampled_from(ALL))
    def add(self, card):
        if self.model.get(card, 0) == 2:
            with pytest.raises(InvalidHandError):
                self.hand.add(card)
        else:
            self.hand = self.hand.add(card)
            self.model[card] = self.model.get(card, 0) + 1

    @rule(card=st.sampled_from(ALL))
    def remove(self, card):
        if self.model.get(card, 0) == 0:
            with pytest.raises(InvalidHandError):
                self.hand.remove(card)
        else:
            self.hand = self.hand.remove(card)
            self.model[card] -= 1

    @invariant()
    def agrees(self):
        expected = sorted(c for c, k in self.model.items() for _ in range(k))
        assert list(self.hand) == expected
        assert len(self.hand) == len(expected)
        for c in ALL[:: 7]:
            assert self.hand.count(c) == self.model.get(c, 0)
            assert (c in self.hand) == (self.model.get(c, 0) > 0)
        assert Hand.from_mask(self.hand.mask, decks=2) == self.hand
        assert Hand(str(self.hand), decks=2) == self.hand


TestHandMachine = HandMachine.TestCase
TestHandMachine.settings = settings(max_examples=50, stateful_step_count=30, deadline=None)


@settings(deadline=None)
@given(HAND_CARDS)
def test_mask_round_trip(cards):
    h = Hand(cards)
    assert sorted(cards) == list(h)
    assert Hand.from_mask(h.mask) == h
    assert Hand(str(h)) == h


def test_mask_to_cards_order():
    assert [str(c) for c in mask_to_cards((1 << 4) | (1 << 20), 1 << 4)] == ["5o", "5o", "5c"]


@pytest.mark.parametrize("mask", [7.0, 7.5, "7", True, [1, 1], None, (1.0, 0), (1, "0"),
                                  (False, 0), np.array([7, 0], dtype=np.uint64)])
def test_a_mask_that_is_not_an_int_is_refused_by_name(mask):
    """Nothing is converted: a float, text, a bool or an array is not a mask."""
    with pytest.raises(InvalidHandError, match="a mask is an int"):
        Hand.from_mask(mask)


def test_numpy_integers_are_masks():
    assert Hand.from_mask(np.uint64(7)) == Hand.from_mask(7) == Hand("1o 2o 3o")
    assert Hand.from_mask((np.uint64(7), np.int64(1))) == Hand("1o 1o 2o 3o", decks=2)


@pytest.mark.parametrize("token", ["\u017fo", "\u212ao", "1\u212a", "\u212a\u043e", "\uff17o"])
def test_card_text_is_ascii(token):
    """Unicode case folding matched the long s (U+017F) to "s" and lowered the Kelvin
    sign (U+212A) to "k": the first failed in int() with a plain ValueError, the second
    was read as 12o. Neither is card text."""
    for parse in (Card.parse, lambda t: Hand(t + " 7c"), parse_cards):
        with pytest.raises(CardParseError, match="unknown card"):
            parse(token)
    with pytest.raises(CardParseError):
        parse_cards(f"7c,{token}")
