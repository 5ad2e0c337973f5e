"""The C game engine against the Python loop (pytest-benchmark; outside testpaths).

Run: ``pytest benchmarks/bench_engine.py``. Whole games per core (one thread), the two
engines measured in the same run on the same games: 4 greedy bots under the house
rules (target: >= 20,000 games/s and >= 50x the Python loop), 2 greedy bots
under conga, 6 greedy bots with two decks, and 4 experts. Rates are recorded
(``extra_info``), not asserted: the machines are shared.
"""

from __future__ import annotations

import pytest

import chinchon
from chinchon.simulation.engine import native_available, play_games

NATIVE = chinchon.IMPLEMENTATION == "native" and native_available()

WORKLOADS = {
    # name: (players, bots, rules, games per round: native, python)
    "4 greedy, house": (4, "greedy", None, 4000, 60),
    "2 greedy, conga": (2, "greedy", "conga", 4000, 60),
    "6 greedy, two decks": (6, "greedy", None, 2000, 30),
    "4 expert, house": (4, "expert", None, 200, 6),
}


@pytest.mark.skipif(not NATIVE, reason="the C engine needs the native core")
@pytest.mark.parametrize("impl", ["native", "python"])
@pytest.mark.parametrize("workload", list(WORKLOADS))
def test_engine_games(benchmark, workload, impl):
    players, bot, rules, n_native, n_python = WORKLOADS[workload]
    n = n_native if impl == "native" else n_python
    rules_value = None if rules is None else chinchon.Rules.preset(rules)
    bots = [bot] * players
    records = benchmark.pedantic(play_games,
                                 args=(players, bots, 1, 0, n, rules_value, 1000, impl),
                                 rounds=5 if impl == "native" else 3, iterations=1,
                                 warmup_rounds=1)
    assert len(records) == n and all(r.status in ("won", "draw", "stalled") for r in records)
    benchmark.extra_info.update(rows=n, op="whole games, engine", workload=workload,
                                games_per_second=n / benchmark.stats.stats.median,
                                turns=sum(sum(r.turns) for r in records))
