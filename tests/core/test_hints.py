"""Discard hints (docs/api.md): order, outcomes, the close limit, copies, and native vs
reference on random hands."""

from __future__ import annotations

import numpy as np
import pytest

from chinchon import Hand, Rules, reference

from tests.oracles.impls import scaled
from tests.oracles.strategies import random_masks


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
