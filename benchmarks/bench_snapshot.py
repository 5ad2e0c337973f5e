"""Benchmarks of game snapshots (pytest-benchmark; outside testpaths).

Run: ``python -m pytest benchmarks/bench_snapshot.py``. What a snapshot costs --
``Game.to_json`` and ``Game.from_json`` (which checks every field) -- and how big it is,
in hand 1, in hand 10 and after 100,000 actions of one game. The log is compact (the
state when the hand opened and the events since), so hand 10 and 100,000 actions cost
about what hand 1 does. The sizes (bytes of JSON) and the memory a game holds
(``tracemalloc``, KiB) are recorded in ``extra_info``.
"""

from __future__ import annotations

import tracemalloc

import pytest

from chinchon import Game, Rules
from chinchon.bots import GreedyBot, RandomBot, play_turn


def _at_hand(hand: int) -> Game:
    """Four greedy bots, two turns into hand ``hand`` (no elimination, so the game goes
    on)."""
    g = Game(4, seed=3, rules=Rules(eliminate_above=10_000))
    bots = [GreedyBot(s) for s in range(4)]
    while not (g.hand_number == hand and g.phase == "draw" and g.turns_this_hand == 2):
        play_turn(g, bots)
    return g


def _after_actions(actions: int) -> Game:
    """Four random bots for ``actions`` moves under rules where a close is all but
    impossible (deadwood 0 to close): one very long hand, or a few."""
    g = Game(4, seed=5, rules=Rules(close_limit=0, eliminate_above=10_000))
    bots = [RandomBot(s) for s in range(4)]
    for _ in range(actions):
        play_turn(g, bots)
    return g


GAMES = {"hand 1": lambda: _at_hand(1), "hand 10": lambda: _at_hand(10),
         "100,000 actions": lambda: _after_actions(100_000)}


@pytest.fixture(scope="module", params=list(GAMES))
def game(request):
    return request.param, GAMES[request.param]()


def _memory_kib(make) -> float:
    """KiB still allocated for the game ``make()`` returns (a first call fills the
    package's caches, so that they are not counted)."""
    make()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        g = make()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert g is not None
    return held / 1024


def test_to_json(benchmark, game):
    label, g = game
    text = benchmark(g.to_json)
    benchmark.extra_info.update(op="Game.to_json", workload=label, bytes=len(text),
                                log_events=len(g.log))


def test_from_json(benchmark, game):
    label, g = game
    text = g.to_json()
    restored = benchmark(Game.from_json, text)
    assert restored.to_json() == text
    benchmark.extra_info.update(op="Game.from_json", workload=label, bytes=len(text))


@pytest.mark.parametrize("hand", [1, 4, 10])
def test_memory_per_game(benchmark, hand):
    """KiB a game holds two turns into ``hand`` (traced allocations; one round)."""
    kib = benchmark.pedantic(_memory_kib, args=(lambda: _at_hand(hand),), rounds=1,
                             iterations=1)
    benchmark.extra_info.update(op="memory of a game", workload=f"hand {hand}",
                                kib=round(kib, 1))
    assert kib < 200
