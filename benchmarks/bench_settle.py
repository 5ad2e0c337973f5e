"""Benchmark of settle: one settlement per call, native vs reference.

Workloads: a double-deck deal with 5 opponents (6 players) and a single-deck deal with
3 opponents, both with lay-offs, hands passed as Hand objects (the caller's usual form
in a game loop). Target: native <= 15 us per call, >= 100x the reference.

Rule variants (docs/rules.md#laying-off-with-jokers), `test_settle_variant`: a double-deck deal with 5
opponents under the fifty preset (two jokers per deck) with jokers in play everywhere --
in the closer's run, in opponents' own melds, laid off onto runs and sets -- and natural
cards laid past table jokers; and the two-player conga table (40 cards, the wild ace of
coins). Target: native <= 30 us per call, >= 100x the reference.
"""

from __future__ import annotations

import pytest

from chinchon import PRESETS, Hand, reference

try:
    from chinchon import _core as native
except ImportError:  # pragma: no cover
    native = None

DEALS = {
    # closer, opponents, expected hand points per seat
    "double-5opp": (
        "3o 4o 5o 9c 9e 9b 1b",
        ["6o 6c 6e 6b 7o 12c 11e", "10o 11o 12o 2e 4e 6e 8b", "9o 8o 1c 2c 4b 6b 8e",
         "9c 10c 11c 12b 2o 5c 5e", "8c 7c 3e 3c 3b 10e 1e"],
    ),
    "single-3opp": (
        "7o 7c 7b 9e 10e 11e 4o",
        ["7e 12e 1c 3o 5b 8c 2o", "8e 6e 5e 6o 5o 4b 3b", "12c 11c 10c 9c 1o 2b 12o"],
    ),
}


def _impl(name):
    if name == "native":
        if native is None or not hasattr(native, "settle"):
            pytest.skip("native settle not built")
        return native.settle
    return reference.settle


@pytest.mark.parametrize("deal", sorted(DEALS))
@pytest.mark.parametrize("impl", ["native", "python"])
def test_settle(benchmark, impl, deal):
    settle = _impl(impl)
    closer, opps = DEALS[deal]
    decks = 2 if deal.startswith("double") else 1
    args = (Hand(closer, decks=decks), [Hand(o, decks=decks) for o in opps])
    result = benchmark(settle, *args)
    assert result == reference.settle(*args)
    assert any(o.layoffs for o in result.opponents)


VARIANT_DEALS = {
    # rules, decks, closer, opponents
    "fifty-jokers-double-5opp": (
        "fifty", 2, "3o *1 5o 9c 9e 9b 1b",
        ["6o 7o 2o 12c 11e 10b *2", "6c 6e 6b 12o *1 11c 2e", "10c 11c 12c 8o 1e 3e 4e",
         "9o 5c 5e 5b 7e 8e 2b", "*2 4c 2e 11b 3b 8b 12e"],
    ),
    "conga-1opp": ("conga", 1, "5c 6c 7c 3e 3b 3o 1b", ["1o 11c 12e 4b 2e 6e 2o"]),
}


@pytest.mark.parametrize("deal", sorted(VARIANT_DEALS))
@pytest.mark.parametrize("impl", ["native", "python"])
def test_settle_variant(benchmark, impl, deal):
    settle = _impl(impl)
    name, decks, closer, opps = VARIANT_DEALS[deal]
    rules = PRESETS[name]
    args = (Hand(closer, decks=decks), [Hand(o, decks=decks) for o in opps])
    benchmark.extra_info.update(workload=deal)
    result = benchmark(settle, *args, rules=rules)
    assert result == reference.settle(*args, rules=rules)
    # jokers in play: laid off, and natural cards laid past them
    jokers = rules.solver.joker_mask
    laid = [(c, t) for o in result.opponents for c, t in o.layoffs]
    assert any(jokers >> c.index & 1 for c, _ in laid)
    assert any(not jokers >> c.index & 1 and result.table[t].joker is not None
               for c, t in laid)
