"""What a seat has seen (Game.unseen, Observation.unseen) and the expert bot."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from chinchon import IMPLEMENTATION, Game, Hand, outlook, simulate
from chinchon.bots import ExpertBot, GreedyBot, make_bot, play_turn
from chinchon.cards import full_deck

from tests.oracles.tables import cards, stacked_game


def _check_unseen(g, seat):
    """unseen = the deck less the seat's hand, the discard pile and the cards the others
    took from the pile and hold: the multisets add up, and every card of another hand or
    of the stock that was never taken in sight is unseen."""
    u = Counter(g.unseen(seat))
    deck = Counter(full_deck(g.decks, rules=g.rules))
    f = g.fields()
    known = Counter(g.held(seat)) + Counter(f["discard"])
    for other, taken in enumerate(f["taken"]):
        if other != seat:
            known += Counter(taken)
    if f["restocked"] is None:
        assert u + known == deck
        hidden = Counter(f["stock"])
        for other in range(g.players):
            if other != seat:
                hidden += Counter(g.held(other)) - Counter(f["taken"][other])
        assert not hidden - u  # within u (Counter <= needs Python 3.10)
    else:  # after a reshuffle: what may still be in the stock
        assert u == (deck - known) & Counter(f["restocked"])
        assert not Counter(f["stock"]) - u  # within u (Counter <= needs Python 3.10)


def test_unseen_after_a_take_from_the_pile():
    g = stacked_game(3)  # seat 0 leads; 12e face up, 12b on the stock
    assert len(g.unseen(0)) == 48 - 7 - 1
    assert cards("12e")[0] not in g.unseen(1)
    g.draw("stock")
    g.discard("12b")
    g.draw("discard")  # seat 1 takes the 12b in sight of everyone
    assert cards("12b")[0] not in g.unseen(0) and cards("12b")[0] not in g.unseen(2)
    seat1_discards = g.held(1)[0]
    g.discard(seat1_discards)
    assert seat1_discards not in g.unseen(0)
    for s in range(3):
        _check_unseen(g, s)
    # a snapshot keeps what was taken
    h = Game.from_json(g.to_json())
    assert [h.unseen(s) for s in range(3)] == [g.unseen(s) for s in range(3)]
    # the observation gives its own seat's, and the outlook takes it
    obs = g.observe(2)
    assert obs.unseen() == g.unseen(2)


@pytest.mark.parametrize("players", [3, 5])
def test_unseen_through_random_games(players):
    rng = random.Random(players)
    g = Game(players, seed=players)
    bots = [make_bot("random", seed=s) for s in range(players)]
    reshuffles = 0
    for _ in range(600):
        if g.phase == "over":
            break
        before = g.stock_size
        play_turn(g, bots)
        reshuffles += g.phase == "discard" and g.stock_size > before
        for s in range(players):
            _check_unseen(g, s)
        # the pure-Python outlook takes ~30 ms: a few calls there
        if g.phase == "discard" and (IMPLEMENTATION == "native" or rng.random() < 0.02):
            seat = g.turn
            lines = outlook(g.held(seat), g.unseen(seat), decks=g.decks, rules=g.rules)
            assert lines[0].draws == len(g.unseen(seat))
        if rng.random() < 0.05:  # restored games keep it
            h = Game.from_json(g.to_json())
            assert [h.unseen(s) for s in range(players)] == [g.unseen(s)
                                                             for s in range(players)]
    assert isinstance(g.unseen(0), Hand) and g.unseen(0).decks == g.decks
    assert reshuffles > 0  # the games went through a reshuffle


def test_expert_closes_and_waits():
    bot = ExpertBot()
    # a minus ten on the table: it closes at once
    g = stacked_game(3, closer="1o 2o 3o 4c 5c 6c 7c", stock=("8c",))
    g.draw("stock")
    card, close = bot.choose_discard(g.observe(0), 0)
    assert close and g.discard(card, close).settlement.outcome == "minus_ten"


@pytest.mark.parametrize("rules", ["barajamos", "conga", "fifty"])
def test_expert_plays_whole_games(rules):
    # the pure-Python outlook takes ~30 ms a turn: one short game there
    games, players = (6, 4) if IMPLEMENTATION == "native" else (1, 2)
    r = simulate(games, players=players, bots=["expert", "greedy"] * (players // 2), seed=5,
                 rules=rules, max_turns=1000 if IMPLEMENTATION == "native" else 60)
    assert r.games == games and sum(r.endings.values()) + r.stalled > 0


def test_expert_by_name():
    assert isinstance(make_bot("expert"), ExpertBot)
    assert not isinstance(make_bot("expert"), GreedyBot)
