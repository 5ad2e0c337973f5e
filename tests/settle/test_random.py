"""Random closable deals (tests/oracles/deals.py), biased towards lay-offs, each checked
by the settlement oracle (tests/oracles/settlement.py) and, when the native core is
built, native against reference. CHINCHON_TEST_SCALE scales the counts."""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chinchon import reference
from chinchon.cards import Hand
from tests.oracles.deals import RULE_SETS, random_deal
from tests.oracles.impls import IMPLEMENTATIONS, NATIVE, scaled
from tests.oracles.settlement import check_settlement, text, verify

N_RANDOM = scaled(int(os.environ.get("CHINCHON_SETTLE_DEALS", "600")))
N_DIFF = scaled(int(os.environ.get("CHINCHON_SETTLE_DIFF", "3000")))
N_ORACLE = scaled(120)


@pytest.mark.parametrize("n_opp, decks", [(2, 1), (3, 1), (4, 2), (5, 2)])
def test_random_deals_verified(impl, n_opp, decks):
    rng = random.Random(1000 * n_opp + decks)
    for _ in range(N_RANDOM // 4 + 1):
        closer, opps = random_deal(rng, n_opp, decks)
        r = impl.settle(text(closer), [text(o) for o in opps], decks=decks)
        check_settlement(r, closer, opps)


def test_random_deals_lay_off_often():
    rng = random.Random(3)
    with_layoffs = 0
    for _ in range(40):
        closer, opps = random_deal(rng, 3, 1)
        r = reference.settle(text(closer), [text(o) for o in opps])
        with_layoffs += any(o.layoffs for o in r.opponents)
    assert with_layoffs >= 20


@pytest.mark.parametrize("n_opp, decks", [(1, 1), (2, 1), (3, 1), (1, 2), (4, 2), (5, 2)])
def test_random_deals_against_oracle(n_opp, decks):
    """Every implementation, every input form, a third of the deals under other rules;
    the deals reach every outcome and lay off often."""
    rng = random.Random(7919 * n_opp + decks)
    seen: Counter = Counter()
    for i in range(N_ORACLE):
        rules = RULE_SETS[i % len(RULE_SETS)] if i % 3 == 0 else RULE_SETS[0]
        closer, opps = random_deal(rng, n_opp, decks, rules)
        results = [verify(m.settle, closer, opps, rules=rules, decks=decks)
                   for m in IMPLEMENTATIONS]
        r = results[0]
        for other in results[1:]:
            assert other == r and other.to_dict() == r.to_dict()
        seen[r.outcome] += 1
        seen["layoffs"] += sum(len(o.layoffs) for o in r.opponents)
    # how often, only where there are enough deals to say (CHINCHON_TEST_SCALE >= 0.1)
    if N_ORACLE >= 12:
        assert seen["layoffs"] >= N_ORACLE // 3
    if N_ORACLE >= 100:
        assert seen["minus_ten"] and seen["chinchon"] and seen["normal"]


@pytest.mark.parametrize("n_opp, decks", [(2, 1), (3, 1), (4, 2), (5, 2)])
def test_native_matches_reference(native, n_opp, decks):
    rng = random.Random(99 + n_opp)
    for _ in range(N_DIFF // 4):
        closer, opps = random_deal(rng, n_opp, decks)
        args = (Hand(text(closer), decks=decks), [Hand(text(o), decks=decks) for o in opps])
        assert native.settle(*args) == reference.settle(*args)


@settings(max_examples=int(os.environ.get("CHINCHON_SETTLE_HYPOTHESIS", "60")), deadline=None)
@given(seed=st.integers(0, 2**32 - 1),
       shape=st.sampled_from([(2, 1), (3, 1), (4, 2), (5, 2), (1, 1), (1, 2)]))
def test_hypothesis_deals_verified(seed, shape):
    n_opp, decks = shape
    closer, opps = random_deal(random.Random(seed), n_opp, decks)
    args = (text(closer), [text(o) for o in opps])
    r = reference.settle(*args, decks=decks)
    check_settlement(r, closer, opps)
    if NATIVE is not None:
        assert NATIVE.settle(*args, decks=decks) == r
