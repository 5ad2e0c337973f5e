"""Meld search: tricky hands, an independent brute force, and native vs reference."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chinchon import Card, Hand, full_deck, reference
from chinchon.cards import mask_to_cards

from .conftest import random_masks, scaled
from .naive import naive_deadwood, naive_valid_arrangement

TRICKY = [
    # (hand, deadwood, why)
    ("3c 4c 5c 6c 6o 6e 1b", 1, "the 6c goes with the sixes"),
    ("11o 12o 1o 5c 5e 5b 2c", 26, "king and ace never join"),
    ("12o 1o 2o 3o", 12, "no wrap: 12-1-2-3 is only 1-2-3"),
    ("5o 5c 5e 5b 6o 7o", 0, "break the four 5s: 5o 6o 7o + 5c 5e 5b"),
    ("4o 5o 6o 6c 6e 7o 8o", 12, "6o in the run leaves 6c 6e"),
    ("4o 5o 6o 7o 7c 7e 8o", 8, "4o 5o 6o + the three 7s beats the run of 5"),
    ("1o 2o 3o 4o 5o 6o 7o 8o", 0, "one run of 8"),
    ("5o 5o 5c", 0, "two decks: a set may hold both copies"),
    ("5o 5o 6o 7o", 5, "two decks: a run never holds two copies"),
    ("3o 4o 5o 3o 4o 5o", 0, "two decks: two identical runs"),
    ("3o 4o 5o 3o 4o 5o 5c 5e", 7, "two decks: one run and the 5s beat two runs"),
    ("7o 7c 7e 7b 7o 7c 7e 7b", 0, "two decks: eight sevens, one set of 8"),
    ("", 0, "empty hand"),
    ("12b", 12, "one card"),
    ("1o 1c", 2, "two cards"),
]


@pytest.mark.parametrize("text,expected,why", TRICKY, ids=[t[0] or "empty" for t in TRICKY])
def test_tricky(impl, text, expected, why):
    cards = [c.index for c in Hand(text)]
    assert naive_deadwood(cards) == expected, why  # the oracle's oracle
    assert impl.deadwood(text) == expected, why
    a = impl.best_melds(text)
    assert a.points == expected
    assert naive_valid_arrangement(cards, [m.key for m in a.melds], [c.index for c in a.unmatched])


def test_fixed_tie_breaks(impl):
    # 2o 3o 4o vs 3o 3c 3e: both leave 6 points and meld 3 cards in 1 meld; the meld key
    # (1, 2, 3) < (2, 18, 34) picks the run
    a = impl.best_melds("2o 3o 4o 3c 3e")
    assert [(m.kind, str(m)) for m in a.melds] == [("run", "2o 3o 4o")]
    # a run of six is one meld, not two
    a = impl.best_melds("1o 2o 3o 4o 5o 6o 9b")
    assert [str(m) for m in a.melds] == ["1o 2o 3o 4o 5o 6o"]
    # melds listed in ascending key order
    a = impl.best_melds("7b 8b 9b 1o 1c 1e")
    assert [str(m) for m in a.melds] == ["1o 1c 1e", "7b 8b 9b"]


HAND_CARDS = st.lists(st.sampled_from(full_deck(1)), min_size=0, max_size=8, unique=True)
DOUBLE_CARDS = st.lists(st.sampled_from(full_deck(1)), min_size=0, max_size=8).filter(
    lambda cs: all(cs.count(c) <= 2 for c in cs))
RICH_CARDS = st.lists(
    st.builds(Card, st.integers(4, 7), st.sampled_from("oceb")), min_size=3, max_size=8
).filter(lambda cs: all(cs.count(c) <= 2 for c in cs))


@settings(max_examples=300, deadline=None)
@given(st.one_of(HAND_CARDS, DOUBLE_CARDS, RICH_CARDS))
def test_reference_against_naive(cards):
    idx = [c.index for c in cards]
    a = reference.best_melds(cards)
    assert a.points == naive_deadwood(idx)
    assert naive_valid_arrangement(idx, [m.key for m in a.melds], [c.index for c in a.unmatched])


@settings(max_examples=300, deadline=None)
@given(st.one_of(HAND_CARDS, DOUBLE_CARDS, RICH_CARDS))
def test_native_against_reference_hypothesis(native, cards):
    assert native.best_melds(cards) == reference.best_melds(cards)
    assert native.deadwood(cards) == reference.deadwood(cards)


def _differential_rows(native, masks, decks, check_arrangements):
    got = native.deadwood_batch(masks)
    want = reference.deadwood_batch(masks)
    bad = np.flatnonzero(got != want)
    assert bad.size == 0, f"row {bad[0]}: {masks[bad[0]]} native {got[bad[0]]} ref {want[bad[0]]}"
    for row in masks[:check_arrangements]:
        hand = Hand.from_mask(tuple(int(x) for x in row) if decks == 2 else int(row), decks=decks)
        assert native.best_melds(hand) == reference.best_melds(hand), str(hand)


@pytest.mark.parametrize("cards", [7, 8])
@pytest.mark.parametrize("kind", ["uniform", "meld_rich"])
def test_differential_single_deck(native, cards, kind):
    rng = np.random.default_rng(1000 + cards)
    n = scaled(25_000 if kind == "uniform" else 25_000)
    masks = random_masks(rng, n, cards, 1, ranks=(4, 7) if kind == "meld_rich" else None)
    _differential_rows(native, masks, 1, scaled(3000))


@pytest.mark.parametrize("cards", [7, 8])
@pytest.mark.parametrize("kind", ["uniform", "meld_rich"])
def test_differential_double_deck(native, cards, kind):
    rng = np.random.default_rng(2000 + cards)
    n = scaled(5_000)
    masks = random_masks(rng, n, cards, 2, ranks=(5, 8) if kind == "meld_rich" else None)
    _differential_rows(native, masks, 2, scaled(2000))


def test_differential_small_hands(native):
    rng = np.random.default_rng(7)
    for cards in range(0, 7):
        _differential_rows(native, random_masks(rng, scaled(2000), cards, 1), 1, 200)
        _differential_rows(native, random_masks(rng, scaled(1000), cards, 2, ranks=(3, 6)), 2, 200)


@pytest.mark.parametrize("decks,ranks", [(1, None), (1, (3, 6)), (2, None), (2, (4, 7))])
def test_differential_hints(native, decks, ranks):
    rng = np.random.default_rng(3000 + decks)
    masks = random_masks(rng, scaled(1500), 8, decks, ranks=ranks)
    got = native.hints_batch(masks)
    want = reference.hints_batch(masks)
    assert np.array_equal(got, want)
    for row in masks[: scaled(300)]:
        hand = Hand.from_mask(tuple(int(x) for x in row) if decks == 2 else int(row), decks=decks)
        assert native.discard_hints(hand) == reference.discard_hints(hand)


def test_hints_order_follows_input(impl):
    text = "5b 7o 7c 7b 9e 10e 11e 4o"
    hints = impl.discard_hints(text)
    assert [str(h.card) for h in hints] == text.split()
    by_card = {str(h.card): h for h in hints}
    assert by_card["5b"].points == 4 and by_card["5b"].outcome == "normal"
    assert by_card["4o"].points == 5 and by_card["4o"].can_close
    assert by_card["9e"].points == 30 and not by_card["9e"].can_close
    assert by_card["9e"].outcome is None
    hand_hints = impl.discard_hints(Hand(text))
    assert [h.card for h in hand_hints] == list(Hand(text))


def test_hints_outcomes(impl):
    hints = {str(h.card): h for h in impl.discard_hints("3e 4e 5e 6e 7e 8e 9e 12o")}
    assert hints["12o"].outcome == "chinchon" and hints["12o"].points == 0
    assert hints["3e"].outcome is None and hints["3e"].points == 12  # 4e..9e + 12o
    hints = {str(h.card): h for h in impl.discard_hints("7o 8o 9o 10o 2c 2e 2b 12b")}
    assert hints["12b"].outcome == "minus_ten"
    # two decks: seven cards of one run but holding a copy is not chinchon
    hints = impl.discard_hints("3e 4e 5e 6e 7e 8e 8e 9e")
    assert {h.outcome for h in hints if str(h.card) == "8e"} == {"chinchon"}


def test_hints_close_limit(impl):
    from chinchon import Rules

    text = "7o 7c 7b 9e 10e 11e 4o 5b"
    strict = {str(h.card): h for h in impl.discard_hints(text, rules=Rules(close_limit=4))}
    assert strict["5b"].can_close and not strict["4o"].can_close
    loose = {str(h.card): h for h in impl.discard_hints(text, rules=Rules(close_limit=30))}
    assert loose["9e"].can_close and loose["9e"].outcome == "normal"
    assert impl.close_outcome("7o 7c 7b 9e 10e 11e 4o", rules=Rules(close_limit=3)) is None


def test_double_copy_hints_listed_twice(impl):
    hand = Hand("5o 5o 5c 5e 6b 7b 8b 12c")
    hints = impl.discard_hints(hand)
    assert [str(h.card) for h in hints][:2] == ["5o", "5o"]
    assert hints[0] == hints[1]
    batch = impl.hints_batch(np.array([hand.mask], dtype=np.uint64))
    assert list(batch[0]) == [h.points for h in hints]


def test_mask_to_cards_order():
    assert [str(c) for c in mask_to_cards((1 << 4) | (1 << 20), 1 << 4)] == ["5o", "5o", "5c"]
