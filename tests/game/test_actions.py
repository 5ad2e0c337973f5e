"""Legal and illegal actions (docs/rules.md#dealing-and-stacked-decks): legal_actions lists exactly what succeeds,
and every illegal call raises IllegalAction and leaves the saved game byte-identical."""

from __future__ import annotations

from collections import Counter

import pytest

from chinchon.bots import GreedyBot, RandomBot, play_turn
from chinchon.cards import full_deck
from chinchon.game import Game
from tests.oracles.tables import (
    DEAD69, STATES, cards, five_player_eliminations, refused, stacked_game,
    states_of_every_kind,
)


def test_apply_and_legal_actions_agree():
    g = Game(3, seed=4)
    assert g.legal_actions() == [("draw", "stock"), ("draw", "discard")]
    card = g.apply(("draw", "stock"))
    acts = g.legal_actions()
    assert {a[1] for a in acts} == set(g.held(g.turn))
    g.apply(("discard", card, False))
    assert g.phase == "draw"


def candidate_actions(game):
    out = [("draw", "stock"), ("draw", "discard"), ("draw", "deck"), ("next_hand",)]
    out += [("rejoin", s) for s in range(game.players)]
    out += [("discard", c, close) for c in full_deck(1) for close in (False, True)]
    return out


def check_legal_actions(g):
    listed = g.legal_actions()
    assert len(set(listed)) == len(listed)
    for a in listed:
        twin = g.clone()
        twin.apply(a)
        assert twin.to_json() != g.to_json()
    for a in candidate_actions(g):
        if a not in listed:
            refused(g, g.apply, a)


@pytest.mark.parametrize("players", [3, 5])
def test_legal_actions_are_exactly_what_succeeds(players):
    g = Game(players, seed=31 + players)
    bots = [GreedyBot(s) if s % 2 else RandomBot(s) for s in range(players)]
    seen = Counter()
    steps = 0
    while g.result is None and steps < 600:
        if steps % 13 == 0 or g.phase == "summary":
            check_legal_actions(g)
            seen[g.phase] += 1
        if steps == 50:
            g.disconnect(g.turn, 0)
            check_legal_actions(g)
            assert g.legal_actions() == []
            g.reconnect(g.turn, 1)
        play_turn(g, bots)
        steps += 1
    check_legal_actions(g)
    assert seen["draw"] and seen["discard"] and seen["summary"]


def test_legal_actions_in_the_summary_list_rejoins_and_next_hand():
    g = five_player_eliminations()
    check_legal_actions(g)
    g.rejoin(2)
    check_legal_actions(g)


def test_illegal_actions_leave_the_game_unchanged():
    g = stacked_game(seed=1)
    refused(g, g.discard, "1o")  # must draw first
    refused(g, g.draw, "deck")
    refused(g, g.rejoin, 1)
    refused(g, g.next_hand)
    refused(g, g.apply, ("fold",))
    g.draw("stock")
    refused(g, g.draw, "stock")
    refused(g, g.discard, "12c")  # not held
    refused(g, g.discard, "zz")
    refused(g, g.discard, "12b", close="yes")
    hand = g.discard("12b", close=True)
    assert hand is not None
    refused(g, g.next_hand, ["1o"] * 48)
    refused(g, g.draw, "stock")


BAD_CALLS = [
    ("draw", ("deck",)), ("draw", ("Stock",)), ("draw", ("",)), ("draw", (None,)),
    ("draw", (1,)), ("draw", (["stock"],)), ("draw", ({"stock": 1},)),
    ("discard", ("13o",)), ("discard", (None,)), ("discard", (7,)), ("discard", ("7o 8o",)),
    ("discard", ([],)), ("rejoin", (None,)), ("rejoin", (-1,)), ("rejoin", (6,)),
    ("rejoin", ("0",)), ("rejoin", (1.0,)), ("next_hand", ("zz",)), ("next_hand", (5,)),
    ("next_hand", (["1o"] * 48,)), ("apply", ((),)), ("apply", (("fold",),)),
    ("apply", (("draw",),)), ("apply", (("draw", "stock", "x"),)),
    ("apply", (("discard", "1o", True, 1),)), ("apply", (None,)), ("apply", (5,)),
    ("apply", ("draw",)), ("observation", (9,)), ("hand", (-1,)), ("held", ("0",)),
]


def every_bad_call(g):
    for name, args in BAD_CALLS:
        refused(g, getattr(g, name), *args)


@pytest.mark.parametrize("label", STATES)
def test_every_illegal_action_leaves_the_json_byte_identical(label):
    g = dict(states_of_every_kind())[label]
    every_bad_call(g)
    phase = g.phase
    if phase != "draw":
        refused(g, g.draw, "stock")
        refused(g, g.draw, "discard")
    if phase != "discard":
        refused(g, g.discard, "1o")
        refused(g, g.hints)
    if phase != "summary":
        refused(g, g.next_hand)
        for s in range(3):
            refused(g, g.rejoin, s)
    if phase == "discard":
        refused(g, g.discard, "12c")  # not held
        refused(g, g.discard, "2e", close=True)  # over the limit
        refused(g, g.discard, "12b", close=1)
        refused(g, g.discard, "12b", close="yes")
        refused(g, g.discard, "12b", close=None)
    if phase == "summary":
        for s in range(3):
            if g.in_game[s]:
                refused(g, g.rejoin, s)
        refused(g, g.next_hand, full_deck(1)[:-1])
    if phase == "over":
        for s in range(3):
            refused(g, g.disconnect, s, 10 ** 6)
            refused(g, g.reconnect, s, 10 ** 6)
        assert g.legal_actions() == []


def test_wrong_seat_cannot_act():
    # there is no seat argument to draw/discard: the seat is always the one to act. An
    # out-of-turn seat is modelled by its disconnection, or by a card it holds
    g = stacked_game()
    g.draw("stock")
    for c in cards(DEAD69):  # seat 1's cards are not seat 0's to throw
        refused(g, g.discard, c)


@pytest.mark.parametrize("extra", [{1: 0, "x": 0}, {None: 0, "x": 0}, {(1,): 0}])
def test_an_action_with_keys_of_any_type_is_refused_by_name(extra):
    """Keys that are not text (a dict made in Python, not read from JSON) made the
    message's sort raise a TypeError; every extra key is named."""
    from chinchon.errors import IllegalAction
    from chinchon.game.actions import action_from_json

    with pytest.raises(IllegalAction, match=r"action 'draw' has unknown fields \[") as e:
        action_from_json({"action": "draw", "source": "stock", **extra})
    assert all(repr(k) in str(e.value) for k in extra)
