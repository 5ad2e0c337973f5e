"""The worked examples of the rules page (tests/data, docs/rules.md#worked-examples), on both implementations."""

from __future__ import annotations

import pytest

import chinchon
from tests.oracles.examples import RULES_EXAMPLES as EXAMPLES


@pytest.mark.parametrize("ex", EXAMPLES["hands"], ids=lambda e: e["hand"])
def test_worked_example(impl, ex):
    assert impl.deadwood(ex["hand"]) == ex["deadwood"]
    arrangement = impl.best_melds(ex["hand"])
    assert arrangement.points == ex["deadwood"]
    assert sum(c.points for c in arrangement.unmatched) == ex["deadwood"]
    assert impl.close_outcome(ex["hand"]) == ex["outcome_if_closed"]


def test_worked_example_details(impl):
    a = impl.best_melds("3c 4c 5c 6c 6o 6e 1b")
    assert {(m.kind, str(m)) for m in a.melds} == {("run", "3c 4c 5c"), ("set", "6o 6c 6e")}
    assert [str(c) for c in a.unmatched] == ["1b"]
    a = impl.best_melds("11o 12o 1o 5c 5e 5b 2c")
    assert [(m.kind, str(m)) for m in a.melds] == [("set", "5c 5e 5b")]
    a = impl.best_melds("3e 4e 5e 6e 7e 8e 9e")
    assert [(m.kind, str(m)) for m in a.melds] == [("run", "3e 4e 5e 6e 7e 8e 9e")]


def test_public_api_matches_examples():
    for ex in EXAMPLES["hands"]:
        assert chinchon.deadwood(ex["hand"]) == ex["deadwood"]
