"""Invariants checked at every step of whole games played by bots: every card is
accounted for, totals are the sum of hand points (rejoins reset them), observations
leak no hidden card, and the state survives JSON and replay."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

import chinchon
from chinchon.bots import GreedyBot, RandomBot, play_turn
from chinchon.cards import full_deck
from chinchon.game import Game

# the pure-Python solver is ~1 ms per discard_hints: keep the python run to a few seconds
NATIVE = chinchon.IMPLEMENTATION == "native"
GAMES = 40 if NATIVE else 3


def accounted(game):
    d = json.loads(game.to_json())
    held = [c for h in d["hands"] for c in h] + d["stock"] + d["discard"]
    if d["face_down"]:
        held.append(d["face_down"])
    return Counter(held) == Counter(str(c) for c in full_deck(game.decks))


def check_observations(game):
    top = game.discard_top
    for seat in range(game.players):
        obs = game.observation(seat)
        own = sorted(str(c) for c in game.held(seat))
        assert sorted(obs["hand"]) == own
        public = dict(obs)
        public.pop("hand")
        last = public.pop("last_hand")
        if last is not None and game.phase in ("draw", "discard"):
            assert last["number"] < game.hand_number  # only a previous, revealed hand
        text = json.dumps(public)
        seen = {tok.strip('"') for tok in text.replace(",", " ").replace("[", " ")
                .replace("]", " ").replace("{", " ").replace("}", " ").split()}
        visible = set(own) | ({str(top)} if top is not None else set())
        if game.phase in ("draw", "discard"):
            for other in range(game.players):
                if other == seat:
                    continue
                for c in game.held(other):
                    assert str(c) not in seen or str(c) in visible


def play_checked(game, bots, rng, max_steps=5000):
    expected = [0] * game.players
    hands_seen = 0
    steps = 0
    while game.result is None and steps < max_steps:
        steps += 1
        if game.phase == "summary":
            before_in = game.in_game
            play_turn(game, bots)
            # a rejoin sets the total to the highest total of the players still in
            for s in range(game.players):
                if game.in_game[s] and not before_in[s]:
                    expected[s] = max(expected[o] for o in range(game.players) if before_in[o])
            assert list(game.totals) == expected
        else:
            play_turn(game, bots)
        last = game.last_hand
        if last is not None and last.number != hands_seen:
            hands_seen = last.number
            if last.outcome != "chinchon":
                for s in range(game.players):
                    expected[s] += last.points[s]
            assert sum(last.points) == (0 if last.outcome == "chinchon"
                                        else sum(last.settlement.points))
        assert list(game.totals) == expected
        assert accounted(game)
        if rng.random() < 0.3:
            check_observations(game)
        if rng.random() < 0.05:
            saved = game.to_json()
            assert Game.from_json(saved).to_json() == saved
    return game


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_invariants_over_whole_games(players):
    rng = random.Random(players)
    for k in range(GAMES if players in (3, 4) else max(1, GAMES // 2)):
        seed = 1000 * players + k
        game = Game(players, seed=seed)
        bots = [GreedyBot(seed + s) if s % 2 == 0 else RandomBot(seed + s)
                for s in range(players)]
        play_checked(game, bots, rng)
        saved = game.to_json()
        assert Game.replay(game.log).to_json() == saved
        assert Game.from_json(saved).to_json() == saved
