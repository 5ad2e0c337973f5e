"""Meld search (deadwood, best_melds): tricky hands, an independent brute force, and
native vs reference."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chinchon import Hand, reference

from tests.oracles.impls import scaled
from tests.oracles.naive import naive_deadwood, naive_valid_arrangement
from tests.oracles.strategies import DOUBLE_CARDS, HAND_CARDS, RICH_CARDS, random_masks

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
