"""The C game engine plays the Python loop's games: game by game, event by event, under
every preset and every field of docs/rules.md#rule-variants; simulate(engine=...) gives the same result
whichever engine runs. The long run is ``python -m tests.oracles.engine_diff``."""

from __future__ import annotations

from collections import Counter

from dataclasses import astuple

import pytest

import chinchon
from chinchon import bots as bots_module
from chinchon.bots import ExpertBot, GreedyBot, RandomBot
from chinchon.errors import ChinchonError
from chinchon.rules import Rules
from chinchon.simulation import simulate
from chinchon.simulation.stats import aggregate
from chinchon.simulation.engine import builtin_bots, native_available, resolve_engine
from tests.oracles import engine_diff
from tests.oracles.impls import scaled

pytestmark = pytest.mark.skipif(not native_available(), reason="the C engine is not built")

#: on the pure-Python solver (CHINCHON_IMPLEMENTATION=python) the Python loop's expert
#: takes seconds a game: there the tables without one, and fewer games (the native run
#: plays them all)
PURE = chinchon.IMPLEMENTATION == "python"
TABLES = [(preset, players, spec, rules) for preset, tables in engine_diff.TABLES.items()
          for players, spec, rules in tables if not (PURE and "expert" in spec)]


def games(n: int) -> int:
    return max(1, scaled(n) // 10) if PURE else scaled(n)


@pytest.mark.parametrize("preset,players,spec,rules", TABLES,
                         ids=[f"{t[0]}-{t[1]}-{t[2]}" for t in TABLES])
def test_native_plays_the_python_loops_games(preset, players, spec, rules):
    bots = engine_diff.seat_bots(spec, players)
    problems = engine_diff.compare(players, bots, 7, 0, games(30), rules)
    assert problems == []


#: plain rules (the greedy's bounded search, engine_bots.c) away from the house values:
#: points out of rank order, other close limits, closing refused in the first round
PLAIN_RULES = [
    Rules(first_round_close=False, close_limit=0,
          points=(10, 1, 5, 3, 12, 2, 7, 0, 9, 4, 11, 6)),
    Rules(first_round_close=False, all_out="lowest", void_at_stock=4, eliminate_above=30,
          points=(31, 0, 31, 1, 30, 2, 29, 3, 28, 4, 27, 5), close_limit=12, minus_ten=25),
]


@pytest.mark.parametrize("rules", PLAIN_RULES, ids=["close_limit-0", "close_limit-12"])
@pytest.mark.parametrize("players,spec", [(4, "greedy"), (6, "greedy,random,expert")])
def test_native_plays_the_python_loops_games_under_other_plain_rules(rules, players, spec):
    bots = engine_diff.seat_bots(spec, players)
    if PURE:
        bots = [b if b != "expert" else "greedy" for b in bots]
    assert engine_diff.compare(players, bots, 3, 0, games(30), rules) == []


#: jokers worth 50, the most Rules takes: the fifty preset at 5 players (four jokers in
#: two decks: every score within a byte), the wild ace with both jokers at 6 (six jokers:
#: hints past 255) and conga's two players
FIFTY_POINT_JOKERS = [
    (5, "greedy,random,expert", Rules.preset("fifty").replace(joker_points=50)),
    (6, "greedy,expert,random", Rules(wild_ace_of_coins=True, jokers=2, joker_points=50,
                                      close_limit=9)),
    (2, "expert,greedy", Rules.preset("conga").replace(joker_points=50)),
]


@pytest.mark.parametrize("players,spec,rules", FIFTY_POINT_JOKERS,
                         ids=["fifty-5", "wild-two-jokers-6", "conga-2"])
def test_native_plays_the_python_loops_games_with_fifty_point_jokers(players, spec, rules):
    bots = engine_diff.seat_bots(spec, players)
    if PURE:
        bots = [b if b != "expert" else "greedy" for b in bots]
    assert engine_diff.compare(players, bots, 13, 0, games(20), rules) == []


@pytest.mark.parametrize("seed", [-(2**200) - 3, 2**256 - 1])
def test_seeds_of_any_size_and_sign(seed):
    bots = ["greedy", "random", "greedy" if PURE else "expert"]
    assert engine_diff.compare(3, bots, seed, 5, 5 + games(6), None) == []


def test_stalled_games_and_the_turn_cap():
    recs, _ = engine_diff.native_games(3, ["random"] * 3, 1, 0, games(10) + 2, None, 6)
    assert any(r.status == "stalled" for r in recs)
    assert engine_diff.compare(3, ["random"] * 3, 1, 0, games(10) + 2, None, 6) == []


def test_the_comparison_sees_a_changed_event():
    recs, traces = engine_diff.native_games(4, ["greedy"] * 4, 3, 0, 1, None, 1000)
    trace = traces[0]
    _, python = engine_diff.python_game(4, ["greedy"] * 4, 3, 0, None, 1000)
    assert engine_diff.digest(trace) == engine_diff.digest(python)
    changed = list(python)
    k = next(i for i, e in enumerate(changed) if e >> 56 == engine_diff.DRAW)
    changed[k] ^= 1  # another card drawn
    assert engine_diff.digest(trace) != engine_diff.digest(changed)
    assert engine_diff.first_difference(trace, changed).startswith(f"event {k}: ")
    assert "draw" in engine_diff.first_difference(trace, changed)


@pytest.mark.parametrize("bots,rules", [
    ("greedy,greedy,random,random" if PURE else "greedy,greedy,random,expert", None),
    ("random,greedy" if PURE else "random,expert", "conga"),
])
def test_simulate_same_result_whichever_engine(bots, rules):
    players = len(bots.split(","))
    n = games(20)
    py = simulate(n, players, bots=bots, seed=11, rules=rules, engine="python")
    c = simulate(n, players, bots=bots, seed=11, rules=rules, engine="native")
    auto = simulate(n, players, bots=bots, seed=11, rules=rules, jobs=2, chunk_size=3)
    assert (py.engine, c.engine, auto.engine) == ("python", "native", chinchon.IMPLEMENTATION)
    assert c.stats() == py.stats() == auto.stats()
    assert [astuple(r) for r in c.records] == [astuple(r) for r in py.records]
    assert c.to_dict()["engine"] == "native"


@pytest.mark.parametrize("players,bots,rules", [
    (4, "greedy,greedy,random,random", None),
    (2, "random,greedy", "conga"),  # void hands, the lowest of all out
    (6, "greedy,random,greedy", None),  # two decks, eliminations and rejoins
    (3, "greedy,random,random", Rules(minus_ten=5000, eliminate_above=9000)),  # the dicts
])
def test_native_counts_equal_the_records_statistics(players, bots, rules):
    # the C engine's statistics are counted in C as it plays (_play_games(count=True),
    # and _count_games without records kept): the same as aggregate() of the records,
    # over several chunks
    bots = ",".join((bots.split(",") * players)[:players])
    n = scaled(40)
    kept = simulate(n, players, bots=bots, seed=5, rules=rules, engine="native",
                    chunk_size=7)
    counted = simulate(n, players, bots=bots, seed=5, rules=rules, engine="native",
                       chunk_size=7, keep_records=False)
    assert counted.records == [] and [r.index for r in kept.records] == list(range(n))
    reference = aggregate(kept.records, players, kept.bots, 5, kept.rules)
    assert counted.stats() == kept.stats() == reference.stats()
    assert list(counted.to_dict()) == list(kept.to_dict()) == list(reference.to_dict())
    for key in ("hands_per_game", "turns_per_hand", "points", "endings", "wins_per_bot"):
        assert list(getattr(counted, key)) == list(getattr(reference, key)), key
    # the hand points of each seat: the seats of the records' points, summing to points
    assert [list(h) for h in counted.points_per_seat] == \
        [list(h) for h in reference.points_per_seat]
    total: Counter[int] = Counter()
    for h in counted.points_per_seat:
        total.update(h)
    assert dict(total) == counted.points
    for r in kept.records:
        assert len(r.point_seats) == len(r.points) and set(r.point_seats) <= set(range(players))
    if isinstance(rules, Rules) and rules.minus_ten == 5000:
        assert -5000 in counted.points  # beyond the C array's range: the dict


class _MyGreedy(GreedyBot):
    name = "my greedy"


def test_auto_takes_the_native_engine_for_built_in_bots_only():
    house = Rules()
    assert builtin_bots(["Greedy ", RandomBot, ExpertBot]) == ["greedy", "random", "expert"]
    assert builtin_bots(["greedy", _MyGreedy]) is None
    assert resolve_engine("auto", ["greedy", RandomBot], house) in ("native", "python")
    assert resolve_engine("auto", ["greedy", _MyGreedy], house) == "python"
    assert resolve_engine("python", ["greedy"], house) == "python"
    assert resolve_engine("native", ["greedy"], house) == "native"
    with pytest.raises(ChinchonError, match="not a built-in bot"):
        resolve_engine("native", ["greedy", _MyGreedy], house)
    with pytest.raises(ChinchonError, match="minus_ten"):
        resolve_engine("native", ["greedy"], Rules(minus_ten=2**40))
    assert resolve_engine("auto", ["greedy"], Rules(minus_ten=2**40)) == "python"
    with pytest.raises(ChinchonError, match="engine must be one of"):
        resolve_engine("fast", ["greedy"], house)
    r = simulate(2, 2, bots=["greedy", _MyGreedy], seed=1)
    assert r.engine == "python"


def test_the_bots_constants_reach_the_engine(monkeypatch):
    # the engine reads STALE_TURNS, STALE_SHAKE and WAIT_FOR from the bots at each call
    monkeypatch.setattr(bots_module.base, "STALE_TURNS", 2)
    monkeypatch.setattr(bots_module.base, "STALE_SHAKE", 0.9)
    monkeypatch.setattr(ExpertBot, "WAIT_FOR", 0.05)
    n = games(6)
    bots = ["greedy", "greedy" if PURE else "expert"] * 2
    assert engine_diff.compare(4, bots, 2, 0, n, None) == []
    shaken = simulate(n, 4, bots=bots, seed=2, engine="native")
    monkeypatch.undo()
    plain = simulate(n, 4, bots=bots, seed=2, engine="native")
    assert shaken.stats() != plain.stats()


def test_native_digests_of_the_python_loops_golden_runs():
    # tests/data/engine_games.txt holds the Python loop's digests (engine_diff
    # --write-golden); the C tests (csrc/tests/test_engine.c) replay it too
    from pathlib import Path
    path = Path(__file__).resolve().parent.parent / "data" / "engine_games.txt"
    runs = [line.split() for line in path.read_text().splitlines()
            if line and not line.startswith("#")]
    assert len(runs) == len(engine_diff.GOLDEN_RUNS)
    for preset, players, bots, seed, games, _, want in runs:
        _, traces = engine_diff.native_games(int(players), bots.split(","), int(seed), 0,
                                             int(games), Rules.preset(preset), 1000)
        h = 0xCBF29CE484222325
        for trace in traces:
            h = engine_diff.fnv1a(trace, h)
        assert h == int(want), (preset, players, bots)


@pytest.mark.parametrize("players", [2, 5])
def test_a_game_no_total_can_end_stalls_at_max_hands_in_both_engines(players):
    """Every card worth nothing and no winning seven-card run: no total grows and no
    game ends. Both engines stall it after MAX_HANDS hands, the same game."""
    from chinchon.simulation.play import MAX_HANDS

    rules = Rules(points=(0,) * 12, seven_run_wins=False)
    runs = [simulate(2, players, bots="greedy,random" if players == 2 else "greedy",
                     rules=rules, seed=9, engine=engine, jobs=1)
            for engine in ("native", "python")]
    for r in runs:
        assert r.stalled == 2 and [g.hands for g in r.records] == [MAX_HANDS] * 2
    assert [astuple(g) for g in runs[0].records] == [astuple(g) for g in runs[1].records]
