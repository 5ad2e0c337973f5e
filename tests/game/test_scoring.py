"""Totals, elimination and the end of the game (docs/rules.md#scores-elimination-and-the-end-of-a-game): over the limit is out,
exactly the limit stays in, one player left wins, everyone out at once is a draw, and
the totals are the sum of the settlement points."""

from __future__ import annotations

import random

import pytest

from chinchon import reference
from chinchon.bots import GreedyBot, RandomBot, play_turn
from chinchon.game import Game
from chinchon.rules import Rules
from tests.oracles.tables import (
    CLOSER, DEAD69, close_now, edited, refused, stacked_game, table_deck,
)


def test_exactly_seventy_stays_in():
    g = stacked_game()
    g = edited(g, totals=[0, 1, 29])  # seat 1 reaches 70, seat 2 reaches 71
    close_now(g)
    assert g.totals == (2, 70, 71)
    assert g.in_game == (True, True, False)
    assert g.last_hand.eliminated == (2,)
    assert g.phase == "summary"


def test_exactly_seventy_after_minus_ten_and_negative_totals():
    g = stacked_game(closer="1b 2b 3b 4b 5o 5c 5e")
    g = edited(g, totals=[-5, 1, 28])
    close_now(g)
    assert g.totals == (-15, 70, 70) and g.in_game == (True, True, True)
    assert g.phase == "summary"


def test_one_player_left_wins():
    g = stacked_game()
    g = edited(g, totals=[0, 2, 29])
    close_now(g)
    assert g.in_game == (True, False, False)
    assert g.result.status == "won" and g.result.winner == 0 and g.phase == "over"
    refused(g, g.rejoin, 1)  # one player left: the game is over, no rejoin


def test_closer_eliminated_and_one_opponent_left_wins():
    g = stacked_game(4)
    g = edited(g, totals=[69, 2, 0, 18])  # 71, 71, 42, 71
    close_now(g)
    assert g.in_game == (False, False, True, False)
    assert g.result.status == "won" and g.result.winner == 2
    assert g.turn is None and g.phase == "over"
    refused(g, g.rejoin, 0)  # chips left, but the game is over


def test_all_over_seventy_at_once_is_a_draw():
    g = stacked_game()
    g = edited(g, totals=[69, 2, 29])
    close_now(g)
    assert g.in_game == (False, False, False)
    assert g.result.status == "draw" and g.result.winner is None and g.phase == "over"


def test_every_player_eliminated_at_once_is_a_draw():
    g = stacked_game(4)
    g = edited(g, totals=[70, 2, 29, 18])  # 72, 71, 71, 71
    close_now(g)
    assert g.in_game == (False,) * 4 and g.last_hand.eliminated == (0, 1, 2, 3)
    assert g.result.status == "draw" and g.result.winner is None and g.phase == "over"
    assert g.legal_actions() == []
    for s in range(4):
        refused(g, g.rejoin, s)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_totals_are_the_sum_of_settlement_points(players):
    rng = random.Random(players)
    g = Game(players, seed=500 + players)
    bots = [GreedyBot(s) if s % 2 else RandomBot(s) for s in range(players)]
    expected = [0] * players
    last = 0
    steps = 0
    while g.result is None and steps < 5000:
        steps += 1
        if g.phase == "summary":
            before = g.in_game
            for s in range(players):
                if not before[s] and g.chips[s] and rng.random() < 0.7:
                    top = max(expected[o] for o in range(players) if g.in_game[o])
                    assert g.rejoin(s) == top
                    expected[s] = top
            g.next_hand()
            continue
        play_turn(g, bots)
        hand = g.last_hand
        if hand is not None and hand.number != last:
            last = hand.number
            order = hand.order
            s = reference.settle(g.held(order[0]), [g.held(o) for o in order[1:]],
                                 decks=g.decks, rules=g.rules)
            assert s.to_dict() == hand.settlement.to_dict()
            if hand.outcome != "chinchon":
                for seat, p in zip(order, s.points):
                    expected[seat] += p
                assert hand.points == tuple(
                    s.points[order.index(x)] if x in order else 0 for x in range(players))
            assert list(g.totals) == expected
            assert hand.eliminated == tuple(x for x in order if expected[x] > 70) or \
                hand.outcome == "chinchon"
    assert g.result is not None


def test_rule_variants_reach_the_game():
    rules = Rules(close_limit=2, eliminate_above=40, minus_ten=25, rejoin_chips=1,
                  reconnect_seconds=5)
    g = stacked_game(closer="1b 2b 3b 4b 5o 5c 5e", rules=rules)
    close_now(g)
    assert g.totals == (-25, 69, 42) and g.in_game == (True, False, False)
    assert g.result.status == "won" and g.result.winner == 0
    g = Game(3, deck=table_deck(3, 0, {0: CLOSER, 1: DEAD69, 2: "1c 3e 4b 7e 9c 11b 6o"},
                                "12e", ["12b"]), lead=0, rules=rules)
    close_now(g)
    assert g.totals == (2, 69, 41) and g.in_game == (True, False, False)
    g = Game(3, deck=table_deck(3, 0, {0: CLOSER, 1: DEAD69, 2: "1c 3e 1b 7e 5o 11b 6o"},
                                "12e", ["12b"]), lead=0, rules=rules)
    close_now(g)
    assert g.totals == (2, 69, 34) and g.in_game == (True, False, True)
    assert g.rejoin(1) == 34 and g.chips == (1, 0, 1)
    g.disconnect(2, 0)
    g.tick(4.999)
    assert g.result is None
    g.tick(5)
    assert g.result.status == "cancelled"
