"""simulate(): reproducible whatever jobs, sensible statistics, bad arguments refused."""

from __future__ import annotations

import json

import pytest

import chinchon
from chinchon.errors import ChinchonError
from chinchon.simulation import game_seed, play_game, simulate

NATIVE = chinchon.IMPLEMENTATION == "native"
N = 40 if NATIVE else 4


def test_same_seed_same_statistics_whatever_jobs():
    a = simulate(N, 4, bots="greedy,greedy,random,random", seed=1, jobs=1)
    b = simulate(N, 4, bots="greedy,greedy,random,random", seed=1, jobs=2, chunk_size=1)
    assert a.stats() == b.stats()
    assert a.games == N
    won = sum(a.wins_per_seat)
    assert won + a.draws + a.cancelled + a.stalled == N
    assert sum(a.wins_per_bot.values()) == won
    assert sum(a.endings.values()) == sum(a.turns_per_hand.values())
    assert a.hands == sum(k * v for k, v in a.hands_per_game.items())
    json.dumps(a.to_dict())


def test_games_depend_on_seed_and_index_only():
    r = play_game(3, ["greedy"] * 3, seed=5, index=2)
    assert r == play_game(3, ["greedy"] * 3, seed=5, index=2)
    assert game_seed(5, 2) != game_seed(5, 3) != game_seed(6, 2)


def test_max_turns_counts_a_game_as_stalled():
    r = play_game(3, ["random"] * 3, seed=1, index=0, max_turns=1)
    assert r.status in ("stalled", "won")
    s = simulate(2, 3, bots="random", seed=1, max_turns=1)
    assert s.stalled + sum(s.wins_per_seat) + s.draws == 2


def test_bad_arguments():
    for kwargs in ({"games": -1}, {"players": 1}, {"bots": "greedy,random"},
                   {"bots": "clever"}, {"jobs": 0}, {"seed": "x"}):
        args = {"games": 1, "players": 3, **kwargs}
        with pytest.raises(ChinchonError):
            simulate(args.pop("games"), args.pop("players"), **args)
