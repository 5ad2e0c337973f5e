"""Benchmarks of the game loop (pytest-benchmark; outside testpaths).

Run: ``pytest benchmarks/bench_game.py``. Targets with the native core: full games of 4
greedy bots at >= 300 games per second per core, and ``simulate(jobs=2)`` at >= 1.8x
``jobs=1``. Rates are recorded (``extra_info``), not asserted: the machines are shared.
"""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor

import pytest

import chinchon
from chinchon.simulation import play_game, simulate

NATIVE = chinchon.IMPLEMENTATION == "native"
GAMES = 100 if NATIVE else 3


def _games(n: int, seed: int = 1) -> list:
    return [play_game(4, ["greedy"] * 4, seed, i) for i in range(n)]


def test_full_games_four_greedy(benchmark):
    records = benchmark.pedantic(_games, args=(GAMES,), rounds=3 if NATIVE else 1,
                                 iterations=1, warmup_rounds=1 if NATIVE else 0)
    assert len(records) == GAMES and all(r.status in ("won", "draw", "stalled")
                                         for r in records)
    benchmark.extra_info.update(rows=GAMES, op="full game, 4 greedy bots", workload="-",
                                games_per_second=GAMES / benchmark.stats.stats.median,
                                implementation=chinchon.IMPLEMENTATION)


def test_full_games_four_greedy_legacy_generator(benchmark, monkeypatch):
    """The games of test_full_games_four_greedy with random.Random as the table's and the
    bots' generator (what xoshiro256** replaced): compare the two in one run (the games
    differ, so compare per turn: ``us_per_turn``)."""
    import random

    import chinchon.bots as bots_module
    import chinchon.game.state as state_module
    monkeypatch.setattr(state_module, "make_rng", lambda seed, generator="": random.Random(seed))
    monkeypatch.setattr(bots_module, "Rng", random.Random)
    _per_turn(benchmark, "full game, 4 greedy bots, random.Random")


def test_full_games_four_greedy_per_turn(benchmark):
    """test_full_games_four_greedy per turn, on the game's generator (xoshiro256**)."""
    _per_turn(benchmark, "full game, 4 greedy bots, xoshiro256**")


def _per_turn(benchmark, op: str) -> None:
    records = benchmark.pedantic(_games, args=(GAMES,), rounds=5 if NATIVE else 1,
                                 iterations=1, warmup_rounds=1 if NATIVE else 0)
    turns = sum(sum(r.turns) for r in records)
    benchmark.extra_info.update(rows=GAMES, op=op, workload="-", turns=turns,
                                us_per_turn=benchmark.stats.stats.median / turns * 1e6,
                                games_per_second=GAMES / benchmark.stats.stats.median)


def _expert_games(n: int, seed: int = 1) -> list:
    return [play_game(4, ["expert"] * 4, seed, i) for i in range(n)]


def test_full_games_four_experts(benchmark):
    """Whole games of 4 expert bots (target: >= 100 games per second per core)."""
    n = 50 if NATIVE else 1
    records = benchmark.pedantic(_expert_games, args=(n,), rounds=3 if NATIVE else 1,
                                 iterations=1, warmup_rounds=0)
    assert len(records) == n
    benchmark.extra_info.update(rows=n, op="full game, 4 expert bots", workload="-",
                                games_per_second=n / benchmark.stats.stats.median,
                                implementation=chinchon.IMPLEMENTATION)


@pytest.mark.parametrize("jobs", [1, 2])
def test_simulate(benchmark, jobs):
    """simulate() of the Python loop over processes; compare jobs=2 with jobs=1 and with
    the machine's own two-process ceiling (test_machine_two_processes) measured in the
    same run. (The C engine's rows: bench_engine.py.)"""
    n = 1000 if NATIVE else 8
    result = benchmark.pedantic(simulate, args=(n, 4),
                                kwargs={"bots": "greedy", "seed": 2, "jobs": jobs,
                                        "engine": "python"},
                                rounds=1, iterations=1)
    assert result.games == n and sum(result.stats()["wins_per_seat"]) <= n
    benchmark.extra_info.update(rows=n, op=f"simulate jobs={jobs}", workload="4 greedy",
                                games_per_second=n / benchmark.stats.stats.median)


def _spin(n: int) -> int:
    s = 0
    for i in range(n):
        s += i * i
    return s


def _spin_jobs(jobs: int) -> list[int]:
    with ProcessPoolExecutor(jobs) as pool:
        return list(pool.map(_spin, [3_000_000] * 4))


@pytest.mark.parametrize("jobs", [1, 2])
def test_machine_two_processes(benchmark, jobs):
    """Plain CPU work in 1 or 2 processes: the most any jobs=2 can gain on this machine
    (shared machines and containers often give less than two full cores)."""
    out = benchmark.pedantic(_spin_jobs, args=(jobs,), rounds=2, iterations=1)
    assert out == [_spin(3_000_000)] * 4
    benchmark.extra_info.update(rows=4, op=f"plain CPU work jobs={jobs}", workload="-")


@pytest.mark.parametrize("preset, players", [("barajamos", 4), ("classic", 4),
                                             ("conga", 2), ("fifty", 4)])
def test_full_games_per_preset(benchmark, preset, players):
    """Whole games of greedy bots under each preset (conga with 2 players), to compare
    with the house rules' figure in the same run."""
    rules = chinchon.Rules.preset(preset)
    n = 40 if NATIVE else 2

    def games() -> list:
        return [play_game(players, ["greedy"] * players, 1, i, rules=rules) for i in range(n)]

    records = benchmark.pedantic(games, rounds=3 if NATIVE else 1, iterations=1)
    assert len(records) == n
    benchmark.extra_info.update(rows=n, op=f"full game, {players} greedy bots",
                                workload=preset,
                                games_per_second=n / benchmark.stats.stats.median,
                                implementation=chinchon.IMPLEMENTATION)
