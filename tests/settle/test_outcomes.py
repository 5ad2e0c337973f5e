"""Outcomes of a close (docs/rules.md#laying-off): normal, minus ten (the closer's melds locked), chinchón
(nobody lays off, every point 0), the rule values, and the widest tables."""

from __future__ import annotations

import json
import random

import pytest

from chinchon.rules import Rules
from tests.oracles.deals import RULE_SETS, random_deal
from tests.oracles.settlement import verify


def layoffs(result, k):
    return [(str(c), t) for c, t in result.opponents[k].layoffs]


def test_normal_close_scores_deadwood(impl):
    r = verify(impl.settle, "3c 4c 5c 6c 6o 6e 1b", ["1o 2o 12c 11e 10b 8b 4e"])
    assert r.outcome == "normal" and r.closer.points == 1
    assert [str(c) for c in r.closer.unmatched] == ["1b"]


def test_minus_ten_locks_the_closers_melds(impl):
    r = verify(impl.settle, "7o 8o 9o 10o 2c 2e 2b",
               ["11o 6o 2o 1c 4e 5e 6e", "7e 3e 12o 1b 5b 9b 12b"])
    assert r.outcome == "minus_ten"
    assert r.closer.points == -10 and r.points[0] == -10
    assert layoffs(r, 0) == []
    assert [t.open for t in r.table] == [False, False, True]
    # the second opponent may still lay off on the first opponent's run 4e 5e 6e
    assert layoffs(r, 1) == [("3e", 2), ("7e", 2)]


def test_minus_ten_locks_only_the_closer(impl):
    r = verify(impl.settle, "1o 2o 3o 4o 8c 8e 8b",
               ["5o 8o 1c 2c 3c 12e 11e", "4c 8o 12b 11b 10b 6e 7e"], decks=2)
    assert r.outcome == "minus_ten"
    assert r.opponents[0].layoffs == ()
    assert layoffs(r, 1) == [("4c", 2)]


@pytest.mark.parametrize("minus_ten", [7, 0, 2**31, 2**53 - 1])
def test_minus_ten_rule_value(impl, minus_ten):
    # Rules bounds minus_ten at 2**53 - 1, past a C int; the native binding used to pass
    # it through a C int and raise OverflowError (not a ValueError) where the reference
    # settled. Beyond the bound Rules itself refuses it (test_arguments.py).
    r = verify(impl.settle, "7o 8o 9o 10o 2c 2e 2b", ["11o 6o 2o 1c 4e 5e 6e"],
               rules=Rules(minus_ten=minus_ten))
    assert r.outcome == "minus_ten"
    assert r.closer.points == r.points[0] == -minus_ten
    assert json.loads(json.dumps(r.to_dict()))["points"][0] == -minus_ten


def test_chinchon_ends_the_game(impl):
    r = verify(impl.settle, "3e 4e 5e 6e 7e 8e 9e",
               ["2e 10e 1o 2o 3o 12b 11c", "5o 5c 5b 9o 10c 12o 1b"])
    assert r.outcome == "chinchon"
    assert r.points == (0, 0, 0)
    assert all(o.layoffs == () and o.points == 0 for o in r.opponents)
    assert [str(m) for m in r.opponents[0].melds] == ["1o 2o 3o"]
    assert [str(m) for m in r.opponents[1].melds] == ["5o 5c 5b"]
    assert [t.owner for t in r.table] == [0, 1, 2]


@pytest.mark.parametrize("rules", RULE_SETS)
def test_rules_variants(impl, rules):
    for closer in ("7o 7c 7b 9e 10e 11e 4o", "7o 8o 9o 10o 2c 2e 2b", "5o 5c 5e 1b 2b 3b 10o",
                   "3e 4e 5e 6e 7e 8e 9e", "1o 2o 3o 5c 5e 5b 1c"):
        verify(impl.settle, closer, ["7e 12e 1c 3o 5b 8c 2o", "4o 11o 12o 6b 4e 9b 10b"],
               rules=rules)


def test_five_opponents_two_decks(impl):
    verify(impl.settle, "1o 2o 3o 4o 5c 5e 5b",
           ["5o 6o 5c 12c 12e 12b 1c", "6o 7o 8o 5e 9c 10c 11c", "12c 7o 4o 3o 2e 1e 9b",
            "8c 11c 9c 10b 11b 12b 3e", "5b 10c 11b 1b 2b 3b 4b"], decks=2)


def test_five_opponents_two_decks_random_deal(impl):
    closer, opps = random_deal(random.Random(7), 5, 2)
    r = verify(impl.settle, closer, opps)
    assert len(r.opponents) == 5 and len(r.points) == 6
