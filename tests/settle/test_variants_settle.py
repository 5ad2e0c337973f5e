"""Settlement with jokers (docs/rules.md#laying-off-with-jokers) and the variants' outcomes, on both implementations;
then the reference against the brute force of tests/variants_oracle.py on random deals."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chinchon import (
    CLASSIC_RULES,
    CONGA_RULES,
    FIFTY_RULES,
    HOUSE_RULES,
    Card,
    CannotCloseError,
    Hand,
    Meld,
    Rules,
    Settlement,
    reference,
)

from tests.oracles.impls import scaled
from tests.oracles.variant_deals import random_deal
from tests.oracles.variants import Oracle, meld_data

ONE = Rules(jokers=1)


def layoffs(s, k):
    return [(str(c), t) for c, t in s.opponents[k].layoffs]


def table(s):
    """Each table meld as a table shows it (Meld's str), open, joker, joker_rank."""
    return [(str(Meld(t.kind, t.cards, t.joker, t.joker_rank)), t.open,
             None if t.joker is None else str(t.joker), t.joker_rank) for t in s.table]


def test_naturals_onto_a_run_holding_a_joker(impl):
    s = impl.settle("4o *1 6o 9c 9e 9b 1b", ["7o 3o 5o 12c 11e 10b 2b"], rules=FIFTY_RULES)
    assert s.outcome == "normal" and s.points == (1, 5 + 12 + 11 + 10 + 2)
    assert layoffs(s, 0) == [("3o", 0), ("7o", 0)]  # below outward, then above
    # the 5o the joker stands for is refused; laying past the joker is fine
    assert [str(c) for c in s.opponents[0].unmatched] == ["5o", "12c", "11e", "2b", "10b"]
    assert table(s)[0] == ("3o 4o *1(5o) 6o 7o", True, "*1", 5)


LOOSE = ONE.replace(close_limit=10)


def test_a_joker_onto_a_set_and_the_set_capacity(impl):
    # one deck: the sevens take one more card; the joker saves more than the 7e
    closer, opp = "7o 7c 7b 1b 2c 1c 3e", ["*1 7e 12c 11e 10b 2b 5b"]
    s = impl.settle(closer, opp, rules=LOOSE)
    assert layoffs(s, 0) == [("*1", 0)]
    assert table(s)[0] == ("7o 7c 7b *1", True, "*1", 7)
    assert s.points[1] == 7 + 12 + 11 + 10 + 2 + 5
    # two decks: room for both; the natural card is reported before the joker
    s = impl.settle(closer, opp, rules=LOOSE, decks=2)
    assert layoffs(s, 0) == [("7e", 0), ("*1", 0)]
    assert table(s)[0] == ("7o 7c 7e 7b *1", True, "*1", 7)
    # a full set (one deck) takes nothing more, the joker included
    s = impl.settle("7o 7c 7b 7e 3e 4e 1b", ["*1 12c 11e 10b 2b 5b 9o"], rules=LOOSE)
    assert layoffs(s, 0) == [] and table(s)[0][0] == "7o 7c 7e 7b"
    assert s.points[1] == 25 + 12 + 11 + 10 + 2 + 5 + 9  # nothing laid, no own meld


def test_a_joker_onto_a_set_that_holds_one_is_refused(impl):
    s = impl.settle("7o 7c *1 1b 2c 1c 3e", ["*2 12c 11e 10b 2b 5b 9o"],
                    rules=FIFTY_RULES.replace(close_limit=10), decks=2)
    assert layoffs(s, 0) == [] and "*2" in [str(c) for c in s.opponents[0].unmatched]


def test_a_joker_at_either_end_of_a_run(impl):
    base = "7o 7c 7b 4o 5o 6o 1b"
    # alone: the lower end (3o)
    # (the sevens would take it too: (12, 0, 2) < (12, 1) in the lay-off key)
    s = impl.settle(base, ["*1 12c 11e 10b 2b 5b 9o"], rules=ONE)
    assert layoffs(s, 0) == [("*1", 0)] and table(s)[0] == ("*1(3o) 4o 5o 6o", True, "*1", 3)
    # with the 8o: the joker as the 7o, then the chain goes on past it
    s = impl.settle(base, ["*1 8o 12c 11e 10b 2b 3b"], rules=ONE)
    assert layoffs(s, 0) == [("*1", 0), ("8o", 0)]
    assert table(s)[0] == ("4o 5o 6o *1(7o) 8o", True, "*1", 7)
    # with the 2o and nothing better for the joker: 3o then 2o, outward
    s = impl.settle(base, ["*1 2o 12c 11e 10b 9o 5b"], rules=ONE)
    assert layoffs(s, 0) == [("*1", 0), ("2o", 0)]
    assert table(s)[0] == ("2o *1(3o) 4o 5o 6o", True, "*1", 3)
    # a run from the ace: only the upper end is open
    s = impl.settle("7o 7c 7b 1o 2o 3o 1b", ["*1 12c 11e 10b 9o 5b 2b"], rules=ONE)
    assert table(s)[0] == ("1o 2o 3o *1(4o)", True, "*1", 4)


def test_a_run_holding_a_joker_refuses_another(impl):
    s = impl.settle("4o *1 6o 9c 9e 9b 1b", ["*2 12c 11e 10b 2b 5b 1c"], rules=FIFTY_RULES)
    # *2 onto the nines (a set without a joker), not onto the run
    assert layoffs(s, 0) == [("*2", 1)] and table(s)[1] == ("9c 9e 9b *2", True, "*2", 9)
    s = impl.settle("4o *1 6o 9c 9e 9b 9o", ["*2 12c 11e 10b 2b 5b 1c"], rules=FIFTY_RULES)
    assert s.outcome == "minus_ten"


def test_later_opponents_lay_onto_earlier_jokers(impl):
    s = impl.settle("7o 7c 7b 2e 3e 4e 1b",
                    ["*1 9e 11e 12c 10b 2b 5b", "10e 12e 8e 1c 3b 6b 5c"], rules=ONE)
    # opponent 1's own run 9e *1(10e) 11e is open to opponent 2: 12e above it, 8e below;
    # the 10e the joker stands for is refused
    assert [str(m) for m in s.opponents[0].melds] == ["9e *1(10e) 11e"]
    assert layoffs(s, 1) == [("8e", 2), ("12e", 2)]
    assert "10e" in [str(c) for c in s.opponents[1].unmatched]


def test_the_closer_is_locked_on_joker_chinchon(impl):
    s = impl.settle("2c 3c 4c 5c *1 7c 8c", ["9c 1c 12c 11e 10b 2b 3b"], rules=FIFTY_RULES)
    assert s.outcome == "joker_chinchon" and s.points[0] == -25
    assert table(s) == [("2c 3c 4c 5c *1(6c) 7c 8c", False, "*1", 6)]
    assert layoffs(s, 0) == []
    s = impl.settle("2c 3c 4c 5c *1 7c 8c", ["9c 1c 12c 11e 10b 2b 3b"],
                    rules=FIFTY_RULES.replace(joker_chinchon=40))
    assert s.points[0] == -40
    s = impl.settle("2c 3c 4c 5c *1 7c 8c", ["9c 1c 12c 11e 10b 2b 3b"],
                    rules=FIFTY_RULES.replace(joker_chinchon=None, minus_ten=7))
    assert s.outcome == "minus_ten" and s.points[0] == -7 and not s.table[0].open
    s = impl.settle("1o 2o 3o 4o 5o 6o 7o", ["10o 1c 12c 11e 10b 2b 3b"], rules=CONGA_RULES)
    assert s.outcome == "joker_chinchon" and s.points == (-25, 1 + 12 + 11 + 10 + 2 + 3 + 10)


def test_seven_run_wins_and_classic(impl):
    closer, opp = "2c 3c 4c 5c 6c 7c 8c", ["*1 9c 9e 11e 1b 1e 10b"]
    s = impl.settle(closer, opp, rules=ONE)
    assert s.outcome == "chinchon" and s.points == (0, 0)
    # their best own melds: the run 9e *1 11e leaves 21 points, the set 9c 9e *1 23
    assert [str(m) for m in s.opponents[0].melds] == ["9e *1(10e) 11e"]
    assert s.opponents[0].layoffs == ()
    s = impl.settle(closer, opp, rules=CLASSIC_RULES.replace(jokers=1))
    assert s.outcome == "minus_ten" and s.points[0] == -10 and not s.table[0].open
    assert layoffs(s, 0) == []


def test_the_close_limit_of_the_rules(impl):
    with pytest.raises(CannotCloseError, match="has deadwood 10, over the close limit 7"):
        impl.settle("1c 2c 3c 5e 6e 7e 10b", ["1b 2b 3b 4b 5b 6b 12o"], rules="conga")
    s = impl.settle("1c 2c 3c 5e 6e 7e 7b", ["1b 2b 3b 4b 5b 6b 12o"], rules="conga")
    assert s.outcome == "normal" and s.points == (7, 12)


def test_points_tables_in_settlement(impl):
    court = Rules(points=[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10])
    s = impl.settle("7o 7c 7b 2e 3e 4e 1b", ["12c 11e 10b 7e 2b 5b 6b"], rules=court)
    assert s.points == (1, 10 + 10 + 10 + 2 + 5 + 6)


def test_settlement_round_trips_with_jokers(impl):
    s = impl.settle("4o *1 6o 9c 9e 9b 1b", ["7o 3o *2 12c 11e 10b 2b"], rules=FIFTY_RULES)
    d = s.to_dict()
    assert d["table"][0]["joker"] == "*1" and d["table"][0]["joker_rank"] == 5
    assert d["closer"]["melds"][0]["joker"] == "*1"
    assert Settlement.from_dict(d) == s


# ------------------------------------------------------------------ against the oracle

SETTLE_CONFIGS = [
    ("fifty-d1", FIFTY_RULES, 1), ("fifty-d2", FIFTY_RULES, 2), ("one-d1", ONE, 1),
    ("conga-d1", CONGA_RULES, 1), ("conga-j2-d2", CONGA_RULES.replace(jokers=2), 2),
    ("court40-j1", Rules(deck=40, jokers=1, points=[1, 2, 3, 4, 5, 6, 7, 0, 0, 10, 10, 10],
                         joker_points=12, close_limit=12), 1),
    ("classic-j1-d2", CLASSIC_RULES.replace(jokers=1, close_limit=30), 2),
]


def _check_against_oracle(rules, decks, closer, opponents):
    cards = lambda cs: [Card.from_index(i) for i in cs]  # noqa: E731
    got = reference.settle(cards(closer), [cards(o) for o in opponents], decks=decks,
                           rules=rules)
    want = Oracle(rules, decks).settle(closer, opponents)
    where = (rules, decks, closer, opponents)
    assert got.outcome == want["outcome"], where
    cmelds, cunmatched, cpoints = want["closer"]
    assert tuple(meld_data(m) for m in got.closer.melds) == cmelds, where
    assert tuple(c.index for c in got.closer.unmatched) == cunmatched
    assert got.closer.points == cpoints
    for o, w in zip(got.opponents, want["opponents"]):
        assert tuple(meld_data(m) for m in o.melds) == w["melds"], where
        assert [(c.index, t) for c, t in o.layoffs] == w["layoffs"], where
        assert tuple(c.index for c in o.unmatched) == tuple(w["unmatched"]), where
        assert o.points == w["points"], where
    assert [(tuple(c.index for c in t.cards), t.kind, t.owner, t.open,
             None if t.joker is None else t.joker.index, t.joker_rank) for t in got.table] == \
        [(m["cards"], m["kind"], m["owner"], m["open"], m["joker"], m["joker_rank"])
         for m in want["table"]], where
    return got


@pytest.mark.parametrize("name,rules,decks", SETTLE_CONFIGS, ids=[c[0] for c in SETTLE_CONFIGS])
def test_settle_against_the_oracle(name, rules, decks):
    rng = random.Random(name)
    for _ in range(scaled(40)):
        closer, opponents = random_deal(rng, rules, decks, rng.choice((1, 1, 2, 3)))
        s = _check_against_oracle(rules, decks, closer, opponents)
        # a settlement never charges an opponent more than their plain deadwood
        deck = reference.melds.solver_view(rules.solver, decks)
        for o, hand in zip(s.opponents, opponents):
            assert o.points <= reference.arrangement(hand, deck)[2]


def test_native_settle_routes_every_variant(native):
    rng = random.Random(9)
    for _, rules, decks in SETTLE_CONFIGS:
        for _ in range(6):
            n = rng.choice((1, 3, 5))
            decks = 2 if n >= 4 else decks
            closer, opponents = random_deal(rng, rules, decks, n)
            hands = [Hand([Card.from_index(i) for i in h], decks=decks)
                     for h in (closer, *opponents)]
            want = reference.settle(hands[0], hands[1:], decks=decks, rules=rules)
            assert native.settle(hands[0], hands[1:], decks=decks, rules=rules) == want
            assert native.settle(str(hands[0]), [str(h) for h in hands[1:]], decks=decks,
                                 rules=rules) == want
    # plain rules other than the house rules stay on the C core and agree
    s = native.settle("7o 7c 7b 9e 10e 11e 4o", ["7e 12e 1c 3o 5b 8c 2o"],
                      rules=Rules(close_limit=7, eliminate_above=99))
    assert s == reference.settle("7o 7c 7b 9e 10e 11e 4o", ["7e 12e 1c 3o 5b 8c 2o"],
                                 rules=Rules(close_limit=7))
    assert native.settle("7o 7c 7b 9e 10e 11e 4o", ["7e 12e 1c 3o 5b 8c 2o"],
                         rules=HOUSE_RULES).points == (4, 19)


@settings(max_examples=scaled(40), deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(SETTLE_CONFIGS), st.integers(1, 5))
def test_a_settlement_never_charges_more_than_the_plain_deadwood(seed, config, n):
    _, rules, decks = config
    decks = 2 if n >= 4 else decks
    closer, opponents = random_deal(random.Random(seed), rules, decks, n)
    cards = lambda cs: [Card.from_index(i) for i in cs]  # noqa: E731
    s = reference.settle(cards(closer), [cards(o) for o in opponents], decks=decks, rules=rules)
    deck = reference.melds.solver_view(rules.solver, decks)
    for o, hand in zip(s.opponents, opponents):
        assert o.points <= reference.arrangement(hand, deck)[2]
        assert o.points == (0 if s.outcome == "chinchon"
                            else sum(rules.card_points(c) for c in o.unmatched))
