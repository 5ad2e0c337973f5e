"""Melds, deadwood, hints and closing under the rule variants (docs/rules.md#rule-fields, #jokers-in-melds).

Hand-picked cases for each rule, then the reference against an independent brute force
(tests/variants_oracle.py) on random hands of every preset and joker count, single and
double deck, then hypothesis properties.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chinchon import (
    CLASSIC_RULES,
    CONGA_RULES,
    FIFTY_RULES,
    HOUSE_RULES,
    Card,
    Hand,
    InvalidHandError,
    Rules,
    full_deck,
    reference,
)

from tests.oracles.impls import scaled
from tests.oracles.variant_deals import random_hand
from tests.oracles.variants import Oracle

ONE = Rules(jokers=1)
COURT10 = Rules(points=[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10])


def melds(arrangement):
    return [(m.kind, str(m), None if m.joker is None else str(m.joker), m.joker_rank)
            for m in arrangement.melds]


# ------------------------------------------------------------------ one case per rule


def test_a_joker_fills_a_gap(impl):
    a = impl.best_melds("4o *1 6o 9c 9e 9b 2c", rules=ONE)
    assert melds(a) == [("run", "4o *1(5o) 6o", "*1", 5), ("set", "9c 9e 9b", None, None)]
    assert a.points == 2 and [str(c) for c in a.unmatched] == ["2c"]
    run = a.melds[0]
    assert run.stands_for == Card("5o") and run.key == (3, 5, 64 + 12, 4)
    assert [str(c) for c in run.cards] == ["4o", "6o", "*1"]  # ascending bit order
    assert run.to_dict() == {"kind": "run", "cards": ["4o", "6o", "*1"], "joker": "*1",
                             "joker_rank": 5}
    assert a.melds[1].to_dict()["joker"] is None


@pytest.mark.parametrize("hand,rules,shown,rank", [
    ("5o 6o *1", ONE, "*1(4o) 5o 6o", 4),          # either end: the lower one
    ("5o 6o 7o *1", ONE, "*1(4o) 5o 6o 7o", 4),
    ("1c 2c *1", ONE, "1c 2c *1(3c)", 3),           # nothing below the ace
    ("11b 12b *1", ONE, "*1(10b) 11b 12b", 10),
    ("10e 11e *2", FIFTY_RULES, "*2(9e) 10e 11e", 9),
    ("10e 11e *1", Rules(deck=40, jokers=1), "*1(7e) 10e 11e", 7),  # the jack follows the 7
    ("6e 7e *1", Rules(deck=40, jokers=1), "*1(5e) 6e 7e", 5),
    ("1c 2c 1o", CONGA_RULES, "1c 2c 1o(3c)", 3),   # the wild ace stands for any rank
    ("2o 3o 1o", CONGA_RULES, "1o(1o) 2o 3o", 1),   # ... its own included
])
def test_a_joker_at_either_end(impl, hand, rules, shown, rank):
    a = impl.best_melds(hand, rules=rules)
    assert a.points == 0 and len(a.melds) == 1
    assert str(a.melds[0]) == shown and a.melds[0].joker_rank == rank


def test_a_joker_in_a_set(impl):
    a = impl.best_melds("7o 7c *1 2b", rules=ONE)
    assert melds(a) == [("set", "7o 7c *1", "*1", 7)] and a.points == 2
    assert a.melds[0].stands_for is None and a.melds[0].key == (6, 22, 76)
    # set capacity: 4 cards per deck, the joker counted
    a = impl.best_melds("9o 9c 9e 9b *1 1c", rules=ONE)
    assert a.points == 1 + 9 and len(a.melds[0].cards) == 4
    a = impl.best_melds("9o 9c 9e 9b *1 1c", rules=ONE, decks=2)
    assert a.points == 1 and len(a.melds[0].cards) == 5
    # two copies of one card with a joker (two decks)
    a = impl.best_melds("5o 5o *1 3b", rules=ONE)
    assert melds(a) == [("set", "5o 5o *1", "*1", 5)] and a.points == 3


def test_two_jokers_in_two_melds(impl):
    a = impl.best_melds("9c 9e *1 4o 5o *2 1b", rules=FIFTY_RULES)
    assert melds(a) == [("run", "*1(3o) 4o 5o", "*1", 3), ("set", "9c 9e *2", "*2", 9)]
    assert a.points == 1
    # the wild ace (bit 0) and *1: the meld with the smaller key takes the lower bit
    a = impl.best_melds("10c 10e 1o 4c 5c *1 1b", rules=CONGA_RULES.replace(jokers=1))
    assert melds(a) == [("run", "1o(3c) 4c 5c", "1o", 3), ("set", "10c 10e *1", "*1", 10)]
    assert a.points == 1


def test_a_meld_refuses_a_second_joker(impl):
    assert impl.deadwood("4o *1 *2", rules=FIFTY_RULES) == 4 + 25 + 25
    a = impl.best_melds("4o 5o *1 *2", rules=FIFTY_RULES)
    assert melds(a) == [("run", "*1(3o) 4o 5o", "*1", 3)] and a.points == 25
    a = impl.best_melds("7o 7c *1 *2 2b", rules=FIFTY_RULES)
    assert melds(a) == [("set", "7o 7c *1", "*1", 7)] and a.points == 25 + 2
    # two wild aces are two jokers: not in one meld
    a = impl.best_melds("1o 1o 5c 6c", rules=CONGA_RULES)
    assert melds(a) == [("run", "1o(4c) 5c 6c", "1o", 4)] and a.points == 25
    assert impl.deadwood("1o 1o 1c", rules=CONGA_RULES) == 25 + 25 + 1


def test_the_40_card_deck(impl):
    forty = Rules(deck=40)
    assert impl.deadwood("6c 7c 10c 1b", rules=forty) == 1
    assert impl.deadwood("6c 7c 10c 1b") == 6 + 7 + 10 + 1
    assert impl.deadwood("7c 10c 11c 12c", rules=forty) == 0
    assert impl.deadwood("5c 6c 7c 10c 11c 12c 1b", rules=forty) == 1
    assert impl.close_outcome("4c 5c 6c 7c 10c 11c 12c", rules=forty) == "chinchon"
    with pytest.raises(InvalidHandError, match="8c"):
        impl.deadwood("6c 7c 8c", rules=forty)


def test_the_wild_ace_never_scores_one(impl):
    assert impl.deadwood("1o 5b 12c", rules=CONGA_RULES) == 25 + 5 + 12
    assert impl.deadwood("1o 5b 12c", rules=CONGA_RULES.replace(joker_points=0)) == 17
    assert impl.deadwood("1o 5b 12c") == 18
    a = impl.best_melds("1o 1c 1e 12b", rules=CONGA_RULES)
    assert melds(a) == [("set", "1c 1e 1o", "1o", 1)] and a.points == 12
    # capacity 4 with one deck: the three aces and the wild one make one set
    a = impl.best_melds("1o 1c 1e 1b", rules=CONGA_RULES)
    assert melds(a) == [("set", "1c 1e 1b 1o", "1o", 1)] and a.points == 0
    a = impl.best_melds("1o 1c 1e 1b 1c", rules=CONGA_RULES)  # two decks: capacity 8
    assert melds(a) == [("set", "1c 1c 1e 1b 1o", "1o", 1)] and a.points == 0


def test_point_tables(impl):
    # court cards worth 10
    assert impl.deadwood("11o 12o 5c", rules=COURT10) == 25
    assert impl.deadwood("10o 11o 12o 5c", rules=COURT10) == 5
    # 40 cards with the courts worth 8, 9, 10
    forty = Rules(deck=40, points=[1, 2, 3, 4, 5, 6, 7, 0, 0, 8, 9, 10])
    assert impl.deadwood("10o 11c 2e", rules=forty) == 8 + 9 + 2
    # the table changes which meld is best: run 3c 4c 5c or set of fives
    hand = "3c 4c 5c 5o 5e 12b"
    assert melds(impl.best_melds(hand))[0][1] == "5o 5c 5e"
    cheap_fives = Rules(points=[1, 2, 20, 20, 1, 6, 7, 8, 9, 10, 11, 12])
    a = impl.best_melds(hand, rules=cheap_fives)
    assert melds(a)[0][1] == "3c 4c 5c" and a.points == 1 + 1 + 12
    # zero-point cards and minus_ten (deadwood 0, literally)
    zero = Rules(points=[0] * 12)
    assert impl.deadwood("1o 5c 9e 12b 2c 3e 7b", rules=zero) == 0
    assert impl.close_outcome("1o 5c 9e 12b 2c 3e 7b", rules=zero) == "minus_ten"


def test_hints_list_jokers(impl):
    hand = "2c 3c 4c 5c *1 7c 8c 12b"
    hints = impl.discard_hints(hand, rules=ONE)
    assert [str(h.card) for h in hints] == hand.split()
    by_card = {str(h.card): h for h in hints}
    assert by_card["12b"].outcome == "joker_chinchon" and by_card["12b"].points == 0
    # without the joker: 2c..5c and 7c 8c 12b left; without the 2c: 3c..8c, 12b left
    assert by_card["*1"].points == 27 and by_card["*1"].can_close is False
    assert by_card["2c"].points == 12 and by_card["2c"].outcome is None
    assert by_card["8c"].points == 12 and by_card["8c"].outcome is None
    h = impl.discard_hints(Hand(hand), rules=ONE)
    assert [str(x.card) for x in h] == [str(c) for c in Hand(hand)]


def test_closing_outcomes(impl):
    natural = "2c 3c 4c 5c 6c 7c 8c"
    with_joker = "2c 3c 4c 5c *1 7c 8c"
    joker_end = "3c 4c 5c 6c 7c 8c *1"
    assert impl.close_outcome(natural) == "chinchon"
    assert impl.close_outcome(natural, rules=ONE) == "chinchon"
    assert impl.close_outcome(natural, rules=CLASSIC_RULES) == "minus_ten"
    assert impl.close_outcome(with_joker, rules=ONE) == "joker_chinchon"
    assert impl.close_outcome(joker_end, rules=ONE) == "joker_chinchon"
    assert impl.close_outcome(with_joker, rules=ONE.replace(joker_chinchon=None)) == "minus_ten"
    # joker_chinchon does not depend on seven_run_wins
    assert impl.close_outcome(with_joker, rules=CLASSIC_RULES.replace(jokers=1)) == "joker_chinchon"
    assert impl.close_outcome("1o 2o 3o 4o 5o 6o 7o", rules=CONGA_RULES) == "joker_chinchon"
    assert impl.close_outcome("1o 2o 3o 4o 5o 6o 7o") == "chinchon"
    # one joker, deadwood 0, but two melds: minus ten
    assert impl.close_outcome("2c 3c *1 9o 9c 9e 9b", rules=ONE) == "minus_ten"
    # two jokers never make one run
    assert impl.close_outcome("2c 3c *1 5c *2 7c 8c", rules=FIFTY_RULES) == "minus_ten"
    assert impl.close_outcome("2c 3c *1 9o 9c *2 9e", rules=FIFTY_RULES) == "minus_ten"
    assert impl.close_outcome("2c 3c 4c *1 9o 9c 12b", rules=ONE) is None
    assert impl.close_outcome("2c 3c 4c *1 9o 9c 1b", rules=ONE) == "normal"


def test_batches_under_rules(impl):
    rng = random.Random(21)
    for rules, decks in ((FIFTY_RULES, 1), (FIFTY_RULES, 2), (CONGA_RULES, 1), (COURT10, 2)):
        rows = [random_hand(rng, rules, decks, rng.randrange(9)) for _ in range(40)]
        masks = [Hand([Card.from_index(i) for i in r], decks=decks).mask for r in rows]
        arr = np.array(masks, dtype=np.uint64)
        got = impl.deadwood_batch(arr, rules=rules)
        assert list(got) == [impl.deadwood([Card.from_index(i) for i in r], decks=decks,
                                           rules=rules) for r in rows]
        rows8 = [random_hand(rng, rules, decks, 8) for _ in range(15)]
        hands8 = [Hand([Card.from_index(i) for i in r], decks=decks) for r in rows8]
        out = impl.hints_batch(np.array([h.mask for h in hands8], dtype=np.uint64), rules=rules)
        assert out.shape == (15, 8)
        for h, row in zip(hands8, out):
            assert list(row) == [x.points for x in impl.discard_hints(h, rules=rules)]


# ------------------------------------------------------------------ against the oracle

# (rules, decks): every preset's melds (classic melds as the house rules do) with 0, 1
# and 2 extra jokers, single and double deck, and a custom point table
_BASES = {
    "barajamos": HOUSE_RULES,
    "conga": CONGA_RULES,
    "court": Rules(deck=40, points=[1, 2, 3, 4, 5, 6, 7, 0, 0, 10, 10, 10], joker_points=4),
}
CONFIGS = [(f"{name}-j{k}-d{d}", base.replace(jokers=k), d)
           for name, base in _BASES.items() for k in (0, 1, 2) for d in (1, 2)]


@pytest.mark.parametrize("name,rules,decks", CONFIGS, ids=[c[0] for c in CONFIGS])
def test_reference_against_the_oracle(name, rules, decks):
    rng = random.Random(name)
    oracle = Oracle(rules, decks)
    deck = reference.melds.solver_view(rules.solver, decks)
    for _ in range(scaled(250)):
        cards = random_hand(rng, rules, decks, rng.randrange(3, 9))
        key, want_melds, want_unmatched = oracle.best(cards)
        got_melds, got_unmatched, points = reference.arrangement(cards, deck)
        assert points == key[0], (name, cards)
        assert tuple((m.cards, (m.kind, m.joker, m.rank)) for m in got_melds) == want_melds, \
            (name, sorted(cards))
        assert tuple(got_unmatched) == want_unmatched
        if len(cards) == 7:
            hand = [Card.from_index(i) for i in cards]
            assert reference.close_outcome(hand, decks=decks, rules=rules) == oracle.outcome(cards)


@pytest.mark.parametrize("name,rules,decks", CONFIGS[1::2][:6], ids=[c[0] for c in CONFIGS[1::2][:6]])
def test_hints_against_the_oracle(name, rules, decks):
    rng = random.Random("hints" + name)
    oracle = Oracle(rules.replace(close_limit=rng.choice((5, 7, 30))), decks)
    for _ in range(scaled(12)):
        cards = random_hand(rng, rules, decks, 8)
        hand = [Card.from_index(i) for i in cards]
        hints = reference.discard_hints(hand, decks=decks, rules=oracle.rules)
        for pos, h in enumerate(hints):
            rest = cards[:pos] + cards[pos + 1:]
            assert h.card is hand[pos]
            assert h.points == oracle.deadwood(rest)
            assert h.outcome == oracle.outcome(rest) and h.can_close == (h.outcome is not None)


def test_native_routes_every_variant(native):
    """The native module gives the reference's answer under every rules value (it runs
    the variants on the reference until the C core knows them) and keeps the house
    path native."""
    rng = random.Random(5)
    rules_list = [r for _, r, _ in CONFIGS] + [CLASSIC_RULES, Rules(close_limit=7), "conga"]
    for rules in rules_list:
        r = rules if isinstance(rules, Rules) else Rules.preset(rules)
        for decks in (1, 2):
            for _ in range(8):
                hand = [Card.from_index(i) for i in random_hand(rng, r, decks, 8)]
                args = dict(decks=decks, rules=rules)
                assert native.best_melds(hand, **args) == reference.best_melds(hand, **args)
                assert native.deadwood(hand[:7], **args) == reference.deadwood(hand[:7], **args)
                assert native.close_outcome(hand[:7], **args) == \
                    reference.close_outcome(hand[:7], **args)
                assert native.discard_hints(hand, **args) == reference.discard_hints(hand, **args)


# ------------------------------------------------------------------ properties


@st.composite
def rules_values(draw):
    return Rules(
        deck=draw(st.sampled_from((48, 40))),
        wild_ace_of_coins=draw(st.booleans()),
        jokers=draw(st.integers(0, 2)),
        joker_points=draw(st.integers(0, 50)),
        points=draw(st.lists(st.integers(0, 31), min_size=12, max_size=12)),
        seven_run_wins=draw(st.booleans()),
        joker_chinchon=draw(st.one_of(st.none(), st.integers(0, 50))),
        close_limit=draw(st.integers(0, 40)),
    )


@st.composite
def hands_under_rules(draw, size=st.integers(1, 8)):
    """(rules, decks, cards as bit indices) with the cards from the rules' deck(s)."""
    rules = draw(rules_values())
    decks = draw(st.sampled_from((1, 2)))
    pool = [c.index for c in full_deck(decks, rules=rules)]
    jokers = [i for i in pool if rules.is_joker(i)]
    n = draw(size)
    # jokers are drawn first, often, so that the properties meet them
    k = draw(st.integers(0, min(len(jokers), n, 6)))
    picks = draw(st.permutations(jokers))[:k] if jokers else []
    rest = [i for i in pool]
    for j in picks:
        rest.remove(j)
    picks += draw(st.permutations(rest))[:n - k]
    return rules, decks, picks


@settings(max_examples=scaled(150), deadline=None)
@given(hands_under_rules(size=st.integers(0, 7)), st.data())
def test_adding_a_joker_costs_at_most_its_points(drawn, data):
    rules, decks, cards = drawn
    pool = [c.index for c in full_deck(decks, rules=rules)]
    for i in cards:
        pool.remove(i)
    jokers = [i for i in pool if rules.is_joker(i)]
    if not jokers:
        return
    j = data.draw(st.sampled_from(jokers))
    deck = reference.melds.solver_view(rules.solver, decks)
    before = reference.arrangement(cards, deck)[2]
    after = reference.arrangement([*cards, j], deck)[2]
    assert after <= before + rules.joker_points


@settings(max_examples=scaled(150), deadline=None)
@given(hands_under_rules(), st.data())
def test_removing_a_card_lowers_the_deadwood_by_at_most_its_points(drawn, data):
    # the rules' reading of "removing a card never raises the deadwood of the rest by
    # more than that card's points": the rest's deadwood is never below the hand's minus
    # that card's points (it may rise by more: 4o 5o 6o without the 5o).
    rules, decks, cards = drawn
    if not cards:
        return
    pos = data.draw(st.integers(0, len(cards) - 1))
    deck = reference.melds.solver_view(rules.solver, decks)
    whole = reference.arrangement(cards, deck)[2]
    rest = reference.arrangement(cards[:pos] + cards[pos + 1:], deck)[2]
    assert rest >= whole - rules.card_points(cards[pos])


@settings(max_examples=scaled(100), deadline=None)
@given(hands_under_rules(size=st.integers(3, 8)))
def test_the_arrangement_is_a_valid_one(drawn):
    rules, decks, cards = drawn
    oracle = Oracle(rules, decks)
    a = reference.best_melds([Card.from_index(i) for i in cards], decks=decks, rules=rules)
    used = []
    for m in a.melds:
        group = tuple(sorted(c.index for c in m.cards))
        option = (m.kind, None if m.joker is None else m.joker.index, m.joker_rank)
        assert option in oracle.meld_options(group), (m, cards)
        used += group
    used += [c.index for c in a.unmatched]
    assert sorted(used) == sorted(cards)
    assert a.points == sum(rules.card_points(c) for c in a.unmatched)
    assert [m.key for m in a.melds] == sorted(m.key for m in a.melds)
