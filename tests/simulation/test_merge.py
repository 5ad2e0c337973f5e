"""SimulationResult.merge: exact, associative, commutative, with the empty result as
its identity, and equal to counting every record at once."""

from __future__ import annotations

import random

import pytest

import chinchon
from chinchon.errors import ChinchonError
from chinchon.simulation import SimulationParams, aggregate, play_game, simulate

NATIVE = chinchon.IMPLEMENTATION == "native"
N = 30 if NATIVE else 6
BOTS = ["greedy", "greedy", "random", "random"]


@pytest.fixture(scope="module")
def games():
    return [play_game(4, BOTS, 11, i) for i in range(N)]


def _parts(records, cuts):
    bounds = [0, *sorted(cuts), len(records)]
    return [aggregate(records[a:b], 4, BOTS, 11) for a, b in zip(bounds, bounds[1:])]


def test_merged_parts_equal_the_whole(games):
    whole = aggregate(games, 4, BOTS, 11)
    rng = random.Random(5)
    for _ in range(10):
        parts = _parts(games, rng.sample(range(1, N), rng.randint(1, min(6, N - 1))))
        rng.shuffle(parts)  # any order
        merged = parts[0]
        for p in parts[1:]:
            merged = merged.merge(p)
        assert merged.stats() == whole.stats()
        assert merged.records == whole.records  # game order, whatever the parts' order
        assert merged.to_dict()["endings"] == whole.to_dict()["endings"]


def test_associative_commutative_and_identity(games):
    a, b, c = _parts(games, [N // 3, 2 * N // 3])
    assert ((a + b) + c).stats() == (a + (b + c)).stats() == (c + a + b).stats()
    assert (a + b).stats() == (b + a).stats()
    empty = aggregate([], 4, BOTS, 11)
    assert (a + empty).stats() == (empty + a).stats() == a.stats()
    assert empty.games == 0 and (a + empty).records == a.records
    # neither operand changes
    before = a.stats()
    _ = a + b
    assert a.stats() == before
    # the parts' counts add up
    assert (a + b).games == a.games + b.games
    assert (a + b).points == {k: a.points.get(k, 0) + b.points.get(k, 0)
                              for k in set(a.points) | set(b.points)}


def test_merging_different_simulations_is_refused(games):
    a = aggregate(games[:3], 4, BOTS, 11)
    for other in (aggregate(games[3:6], 4, BOTS, 12),
                  aggregate(games[3:6], 4, ["greedy"] * 4, 11)):
        with pytest.raises(ChinchonError, match="different simulations"):
            a.merge(other)
    with pytest.raises(TypeError):
        a + 1  # noqa: B018


def test_simulate_whatever_chunk_size_equals_one_chunk():
    ref = simulate(N, 4, bots=BOTS, seed=2, chunk_size=N)
    for size in (1, 4, N - 1):
        r = simulate(N, 4, bots=BOTS, seed=2, chunk_size=size)
        assert r.stats() == ref.stats() and r.records == ref.records


def test_params_empty_is_the_identity():
    p = SimulationParams(3, ("greedy",) * 3, 1, chinchon.HOUSE_RULES)
    e = p.empty()
    assert e.games == 0 and e.bots == ["greedy"] * 3 and e.rules == chinchon.HOUSE_RULES
