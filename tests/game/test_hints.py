"""Hints in the game (docs/api.md): the solver's, for the hand of the player to act, under
the table's rules."""

from __future__ import annotations

import pytest

import chinchon
from chinchon import reference
from chinchon.bots import GreedyBot, play_turn
from chinchon.errors import IllegalAction
from chinchon.game import Game
from chinchon.rules import Rules
from tests.oracles.tables import CLOSER, cards, refused, stacked_game


def test_hints_are_the_solvers():
    g = stacked_game()
    with pytest.raises(IllegalAction):
        g.hints()
    g.draw("stock")
    hints = g.hints()
    assert hints == chinchon.discard_hints(sorted(cards(CLOSER + " 12b")))
    assert [h.card for h in hints] == sorted(g.held(0))


@pytest.mark.parametrize("players", [3, 6])
def test_hints_agree_with_the_reference(players):
    g = Game(players, seed=players)
    bots = [GreedyBot(s) for s in range(players)]
    checked = 0
    while g.result is None and checked < 60:
        if g.phase == "discard":
            want = reference.discard_hints(g.held(g.turn), decks=g.decks, rules=g.rules)
            assert g.hints() == want
            assert [h.card for h in g.hints()] == g.held(g.turn)
            checked += 1
        play_turn(g, bots)


def test_hints_with_a_stricter_close_limit_follow_the_rules():
    rules = Rules(close_limit=1)
    g = stacked_game(rules=rules)
    g.draw("stock")
    assert not any(h.can_close for h in g.hints())
    refused(g, g.discard, "12b", close=True)
