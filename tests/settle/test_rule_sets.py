"""One settlement search serves every rule set: a deal of the house deck's cards settled
under the house rules and under variant rules that read those cards the same way
(jokers in play but none dealt; the wild ace of coins with that card out of the deal;
seven_run_wins off when nobody closes on a seven-card run) gives the same settlement,
field for field. A tie-break that drifted under one rule set only would show here.
Every implementation; CHINCHON_TEST_SCALE scales the count."""

from __future__ import annotations

import random

import pytest

from chinchon import HOUSE_RULES, Rules
from tests.oracles.deals import random_deal
from tests.oracles.impls import IMPLEMENTATIONS, scaled
from tests.oracles.settlement import text

N_DEALS = scaled(150)

#: variant rules that settle a deal without jokers as the house rules do, each with the
#: deals it applies to: (rules, keeps the ace of coins out, excludes a chinchon close)
SAME_READING = [
    (Rules(jokers=1), False, False),
    (Rules(jokers=2, joker_points=0, joker_chinchon=None), False, False),
    (Rules(wild_ace_of_coins=True), True, False),
    (Rules(wild_ace_of_coins=True, jokers=2), True, False),
    (Rules(seven_run_wins=False), False, True),
]
ACE_OF_COINS = 0


@pytest.mark.parametrize("impl", IMPLEMENTATIONS, ids=lambda m: m.__name__.split(".")[-1])
@pytest.mark.parametrize("n_opp, decks", [(1, 1), (3, 1), (2, 2), (5, 2)])
def test_house_deals_settle_alike_under_every_rule_set(impl, n_opp, decks):
    rng = random.Random(31 * n_opp + decks)
    compared = 0
    for _ in range(N_DEALS):
        closer, opps = random_deal(rng, n_opp, decks)
        args = (text(closer), [text(o) for o in opps])
        house = impl.settle(*args, rules=HOUSE_RULES, decks=decks)
        dealt = set(closer).union(*opps)
        for rules, no_ace, no_chinchon in SAME_READING:
            if (no_ace and ACE_OF_COINS in dealt) or (no_chinchon and house.outcome == "chinchon"):
                continue
            other = impl.settle(*args, rules=rules, decks=decks)
            assert other == house and other.to_dict() == house.to_dict(), (rules, args)
            compared += 1
    assert compared >= 3 * N_DEALS
