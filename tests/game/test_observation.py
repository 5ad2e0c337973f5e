"""What a seat sees (docs/rules.md#dealing-and-stacked-decks): its own hand and the public table, nothing hidden,
and nothing that depends on the hidden cards."""

from __future__ import annotations

import json
import random

import pytest

import chinchon
from chinchon.bots import GreedyBot, play_turn
from chinchon.cards import Card
from chinchon.game import Game
from tests.oracles.tables import DEAD69, cards, close_now, stacked_game, strs


def test_observation_shows_only_what_the_seat_sees():
    g = stacked_game(4)
    obs = g.observation(1)
    assert set(obs) == set(chinchon.game.OBSERVATION_KEYS)
    assert sorted(obs["hand"]) == sorted(strs(cards(DEAD69)))
    text = json.dumps(obs)
    for seat in (0, 2, 3):
        for c in g.held(seat):
            assert f'"{c}"' not in text
    assert obs["discard_top"] == "12e" and obs["stock_size"] == 19
    close_now(g)
    obs = g.observation(1)
    assert obs["phase"] == "summary" and obs["last_hand"]["closer"] == 0
    assert "12b" not in json.dumps(obs)  # the closing card stays face down


def hidden_pool_shuffled(game, seat, rng):
    """The game with every card ``seat`` cannot see (other hands, the stock, the discard
    pile below its top) dealt out again at random, sizes kept."""
    d = json.loads(game.to_json())
    # what the seats saw of the pile (Observation.unseen; not in the observation's dict):
    # dropped, or the shuffled cards would contradict it
    d.pop("taken", None)
    d.pop("restocked", None)
    others = [s for s in range(game.players) if s != seat]
    pool = [c for s in others for c in d["hands"][s]] + d["stock"] + d["discard"][:-1]
    rng.shuffle(pool)
    pos = 0
    for s in others:
        k = len(d["hands"][s])
        d["hands"][s] = sorted(pool[pos:pos + k], key=lambda t: Card.parse(t).index)
        pos += k
    k = len(d["stock"])
    d["stock"] = pool[pos:pos + k]
    pos += k
    d["discard"] = pool[pos:] + d["discard"][-1:]
    return Game.from_json(d)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_observation_does_not_depend_on_hidden_cards(players):
    rng = random.Random(players)
    g = Game(players, seed=players * 7)
    bots = [GreedyBot(s) for s in range(players)]
    checked = 0
    for step in range(400):
        if g.result is not None:
            break
        if g.phase in ("draw", "discard") and step % 5 == 0:
            for seat in range(players):
                obs = g.observation(seat)
                twin = hidden_pool_shuffled(g, seat, rng)
                assert twin.observation(seat) == obs
                text = json.dumps(obs)
                for other in range(players):
                    if other == seat:
                        continue
                    for c in set(g.held(other)) - set(g.held(seat)) - {g.discard_top}:
                        assert f'"{c}"' not in text.replace(
                            json.dumps(obs["last_hand"]), "")
                checked += 1
        play_turn(g, bots)
    assert checked > 12
