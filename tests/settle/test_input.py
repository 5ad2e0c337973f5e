"""What settle accepts (text, Hand objects, lists of cards, one opponent alone; decks
inferred) and what it refuses: every bad deal raises a ValueError subclass naming the
card and the hand, the same on both implementations."""

from __future__ import annotations

import pytest

from chinchon import reference
from chinchon.cards import Card, Hand
from chinchon.errors import (
    CannotCloseError,
    CardCountError,
    CardParseError,
    ChinchonError,
    DuplicateCardError,
    InvalidHandError,
)
from chinchon.rules import Rules

CLOSABLE = "3o 4o 5o 9c 9e 9b 1b"  # deadwood 1
OTHER = "7o 7c 7b 9e 10e 11e 4o"  # deadwood 4
OPP = "1o 2o 12c 11e 10b 8b 4e"


def test_accepts_hands_cards_and_a_single_opponent(impl):
    a = impl.settle(Hand(CLOSABLE), [Hand("6o 7o 12c 11e 10b 8c 4e")])
    b = impl.settle([Card.parse(c) for c in CLOSABLE.split()], ["6o 7o 12c 11e 10b 8c 4e"])
    c = impl.settle(CLOSABLE, "6o 7o 12c 11e 10b 8c 4e")
    assert a == b == c


def test_decks_inferred_from_players(impl):
    # a copy is fine with 5+ players or when any card is held twice
    impl.settle(CLOSABLE, ["3o 2o 12c 11e 10b 8b 4e"])
    impl.settle(CLOSABLE, [OPP, OPP])  # copies across opponents -> two decks


def test_close_limit_from_rules(impl):
    with pytest.raises(CannotCloseError):
        impl.settle(CLOSABLE, [OPP], rules=Rules(close_limit=0))


BAD_DEALS = [
    pytest.param("5o 5c 5e 1b 2b 3b 10o", [OPP], {}, CannotCloseError,
                 ["5o 10o 5c 5e 1b 2b 3b", "deadwood 10", "close limit 5"], id="over-the-limit"),
    pytest.param(CLOSABLE, ["1o 2o 12c 11e 10b 8b 3o"], {"decks": 1}, DuplicateCardError,
                 ["3o", "the closer", "opponent 1"], id="copy-of-a-closer-card"),
    pytest.param(OTHER, ["4o 2o 12c 11e 10b 8b 3o"], {"decks": 1}, DuplicateCardError,
                 ["4o", "the closer", "opponent 1"], id="copy-of-the-closers-unmatched"),
    pytest.param(OTHER, ["1o 2o 12c 11e 10b 8b 3o", "5o 1o 12b 11c 10c 8e 3e"], {"decks": 1},
                 DuplicateCardError, ["1o", "opponent 1", "opponent 2"],
                 id="copy-across-opponents"),
    pytest.param(CLOSABLE, ["1o 1o 12c 11e 10b 8b 4e", OPP], {}, InvalidHandError,
                 ["1o", "three times"], id="three-copies-across-hands"),
    pytest.param(OTHER, ["1o 1o 12c 11e 10b 8b 4e", OPP], {}, InvalidHandError,
                 ["1o", "three times", "opponent 1 (twice)", "opponent 2"],
                 id="three-copies-named-by-hand"),
    pytest.param(CLOSABLE, ["1o 1o 1o 11e 10b 8b 4e"], {}, InvalidHandError,
                 ["1o", "opponent 1"], id="three-copies-in-one-hand"),
    pytest.param(OTHER, ["12b 12b 12b 11e 10b 8b 4e"], {}, InvalidHandError,
                 ["12b", "opponent 1"], id="three-kings-in-one-hand"),
    pytest.param(CLOSABLE, ["1o 2o 12c 11e 10b 8b"], {}, CardCountError,
                 ["opponent 1", "6"], id="opponent-of-6"),
    pytest.param(OTHER, ["1o 2o 12c 11e 10b 8b"], {}, CardCountError,
                 ["opponent 1", "got 6"], id="opponent-of-6-got"),
    pytest.param("3o 4o 5o 9c 9e 9b", [OPP], {}, CardCountError, ["closer"],
                 id="closer-of-6"),
    pytest.param(OTHER + " 1o", ["2o 3o 12c 11e 10b 8b 4e"], {}, CardCountError,
                 ["closer", "got 8"], id="closer-of-8"),
    pytest.param(CLOSABLE, [], {}, ChinchonError, ["1 to 5"], id="no-opponent"),
    pytest.param(OTHER, [], {}, ChinchonError, ["1 to 5", "got 0"], id="no-opponent-got"),
    pytest.param(CLOSABLE, [OPP] * 6, {}, ChinchonError, ["1 to 5"], id="six-opponents"),
    pytest.param(OTHER, [OPP] * 6, {}, ChinchonError, ["1 to 5", "got 6"],
                 id="six-opponents-got"),
    pytest.param(CLOSABLE, ["1o 2o 12c 11e 10b 8b 4x"], {}, CardParseError,
                 ["4x", "opponent 1"], id="bad-card-text"),
    pytest.param(CLOSABLE, [OPP], {"decks": 3}, ChinchonError, ["decks"], id="three-decks"),
]


@pytest.mark.parametrize("closer, opps, kwargs, exc, words", BAD_DEALS)
def test_bad_deals_name_the_card_and_hand(impl, closer, opps, kwargs, exc, words):
    for wrap in (lambda x: x, Hand):
        try:
            args = (wrap(closer), [wrap(o) for o in opps])
        except ValueError:
            continue  # Hand() itself refuses the hand
        with pytest.raises(exc) as info:
            impl.settle(*args, **kwargs)
        assert isinstance(info.value, ValueError)
        for w in words:
            assert w in str(info.value), (w, str(info.value))


@pytest.mark.parametrize(
    "closer, opps, decks",
    [
        ("5o 5c 5e 1b 2b 3b 10o", [OPP], None),
        (CLOSABLE, ["1o 2o 12c 11e 10b 8b 3o"], 1),
        (CLOSABLE, ["1o 1o 12c 11e 10b 8b 4e", OPP], None),
        (CLOSABLE, ["1o 2o 12c 11e 10b 8b"], None),
        ("3o 4o 5o 9c 9e 9b", [OPP], None),
    ],
)
def test_bad_hands_same_error_as_reference(impl, closer, opps, decks):
    # Hand objects take the native fast path (validated in C): same class and message
    args = (Hand(closer), [Hand(o) for o in opps])
    with pytest.raises(ValueError) as want:
        reference.settle(*args, decks=decks)
    with pytest.raises(ValueError) as got:
        impl.settle(*args, decks=decks)
    assert (type(got.value), str(got.value)) == (type(want.value), str(want.value))
