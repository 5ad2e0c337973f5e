"""The outlook (docs/design.md, "The outlook"): exact expectations on hand-built hands,
the unseen cards' checks, properties, and every implementation against the definition."""

from __future__ import annotations

import pytest

from chinchon import (
    CLASSIC_RULES,
    ChinchonError,
    DuplicateCardError,
    Hand,
    InvalidHandError,
    Rules,
    full_deck,
    reference,
)
from chinchon.cards import Card

from tests.oracles.impls import IMPLEMENTATIONS

#: the implementations that have the outlook
OUTLOOK_IMPLS = [m for m in IMPLEMENTATIONS if hasattr(m, "outlook")]


@pytest.fixture(params=OUTLOOK_IMPLS, ids=lambda m: m.IMPLEMENTATION)
def oimpl(request):
    return request.param


def _line(lines, card):
    (line,) = [x for x in lines if str(x.card) == card]
    return line


def _unseen_default(hand8, decks=1, rules=None):
    held = list(Hand(hand8, decks=decks))
    pool = full_deck(decks, rules=rules)
    for c in held:
        pool.remove(c)
    return pool


def test_one_out_against_four_outs(oimpl):
    # discarding 11c keeps 1o 2o 3o / 4c 4e 4b / 12o: only the 4o melds the 12o away
    one = oimpl.outlook("1o 2o 3o 4c 4e 4b 12o 11c")
    line = _line(one, "11c")
    assert (line.points, line.can_close, line.draws) == (12, False, 40)
    assert line.p_minus_ten == 1 / 40
    unseen = _unseen_default("1o 2o 3o 4c 4e 4b 12o 11c")
    # a drawn card that melds nothing replaces the 12o when it is worth less
    want = sum(0 if str(c) == "4o" else min(12, c.rank) for c in unseen)
    assert line.expected_points == want / 40
    closes = sum(1 for c in unseen if str(c) == "4o" or c.rank <= 5)
    assert line.p_close == closes / 40
    assert line.p_chinchon == 0 and line.p_joker_chinchon == 0
    # discarding 12e keeps two runs open at both ends and the 1b: four outs
    four = oimpl.outlook("4o 5o 6o 4c 5c 6c 1b 12e")
    line = _line(four, "12e")
    assert (line.points, line.outcome) == (1, "normal")
    assert line.p_minus_ten == 4 / 40
    assert line.expected_points == 36 / 40
    assert line.p_close == 1.0
    # the same hand's other discards are worse by every measure
    assert all(x.expected_points >= line.expected_points for x in four)


def test_a_draw_completing_chinchon(oimpl):
    hand = "1o 2o 3o 4o 5o 6o 12b 11c"
    line = _line(oimpl.outlook(hand), "11c")
    assert line.p_chinchon == 1 / 40 and line.p_joker_chinchon == 0
    assert line.p_minus_ten == 0
    unseen = _unseen_default(hand)
    assert line.p_close == sum(1 for c in unseen if c.rank <= 5 or str(c) == "7o") / 40
    # where a seven-card run is no chinchón it is a minus ten close
    line = _line(oimpl.outlook(hand, rules=CLASSIC_RULES), "11c")
    assert (line.p_chinchon, line.p_minus_ten) == (0, 1 / 40)


def test_explicit_unseen_and_draw_outlook(oimpl):
    hand7 = "4o 5o 6o 4c 5c 6c 1b"
    d = oimpl.draw_outlook(hand7, "7o", "3o 12e 11b 10b")
    assert str(d.top) == "7o"
    assert d.take == (0.0, 1.0, 1.0, 0.0, 0.0, 1)
    assert d.stock.draws == 4
    assert d.stock.expected_points == 3 / 4 and d.stock.p_minus_ten == 1 / 4
    # the outlook of an 8-card hand is the stock prospect of each 7 kept
    lines = oimpl.outlook(hand7 + " 12o", "3o 12e 11b 10b")
    assert _line(lines, "12o")[4:] == tuple(d.stock)
    # a copy listed twice in unseen is two chances (two decks)
    d2 = oimpl.draw_outlook(hand7, "7o", "3o 3o 12e 11b")
    assert d2.stock.draws == 4 and d2.stock.p_minus_ten == 2 / 4


def test_unseen_checks(oimpl):
    hand = "1o 2o 3o 4c 4e 4b 12o 11c"
    with pytest.raises(DuplicateCardError, match="card 4c is both held and unseen"):
        oimpl.outlook(hand, "5o 4c")
    with pytest.raises(InvalidHandError, match="card 8o is not in the 40-card deck"):
        oimpl.outlook("1o 2o 3o 4c 4e 4b 12o 11c", "5o 8o", rules="conga")
    with pytest.raises(InvalidHandError, match=r"card \*1 is not in play"):
        oimpl.outlook(hand, "5o *1")
    with pytest.raises(ChinchonError, match="unseen holds no card"):
        oimpl.outlook(hand, "")
    with pytest.raises(DuplicateCardError, match="card 7o is both held or the top and unseen"):
        oimpl.draw_outlook("1o 2o 3o 4c 4e 4b 12o", "7o", "7o 5c")
    with pytest.raises(InvalidHandError, match="a third copy"):
        oimpl.draw_outlook("1o 1o 3o 4c 4e 4b 12o", "1o", "7o 5c", decks=2)
    with pytest.raises(InvalidHandError, match="card 1o is both held and unseen: 3 copies"):
        oimpl.outlook("1o 1o 3o 4c 4e 4b 12o 11c", "1o 5c")
    with pytest.raises(ChinchonError):
        oimpl.outlook("1o 2o 3o", None)


def test_default_unseen_two_decks(oimpl):
    hand = Hand("1o 1o 3o 4c 4e 4b 12o 11c")
    lines = oimpl.outlook(hand)
    assert all(x.draws == 96 - 8 for x in lines)
    assert [x.card for x in lines] == list(hand)
    assert lines[0] == lines[1]  # the two copies of 1o


@pytest.mark.parametrize("preset", ["barajamos", "classic", "conga", "fifty"])
def test_properties(oimpl, preset):
    import random

    rules = Rules.preset(preset)
    rng = random.Random(11)
    deck = full_deck(1, rules=rules)
    for _ in range(3 if oimpl is reference else 40):
        cards = rng.sample(deck, 8)
        lines = oimpl.outlook(cards, rules=rules)
        hints = reference.discard_hints(cards, rules=rules)
        for line, hint in zip(lines, hints):
            assert (line.card, line.points, line.can_close, line.outcome) == tuple(hint)
            for p in (line.p_close, line.p_minus_ten, line.p_chinchon, line.p_joker_chinchon):
                assert 0.0 <= p <= 1.0
            assert line.p_joker_chinchon <= line.p_chinchon
            assert line.p_minus_ten + line.p_chinchon <= line.p_close + 1e-12
            # the drawn card may be thrown back: never worse than now
            assert line.expected_points <= line.points
            assert line.expected_points >= 0
            if line.can_close:
                assert line.p_close == 1.0


def test_to_dict(oimpl):
    import json

    line = oimpl.outlook("1o 2o 3o 4c 4e 4b 12o 11c")[0]
    d = json.loads(json.dumps(line.to_dict()))
    assert d["card"] == "1o" and d["points"] == line.points
    assert d["expected_points"] == line.expected_points
    dd = oimpl.draw_outlook("1o 2o 3o 4c 4e 4b 12o", "4o").to_dict()
    assert json.loads(json.dumps(dd))["take"]["p_minus_ten"] == 1.0
    assert isinstance(line.card, Card)
