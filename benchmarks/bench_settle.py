"""Benchmark of settle (issue 3): one settlement per call, native vs reference.

Workloads: a double-deck deal with 5 opponents (6 players) and a single-deck deal with
3 opponents, both with lay-offs, hands passed as Hand objects (the caller's usual form
in a game loop). Target: native <= 15 us per call, >= 100x the reference.
"""

from __future__ import annotations

import pytest

from chinchon import Hand, reference

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
