"""The native settlement under every rule variant (csrc/src/settle/settle.c) against the
reference (the oracle, itself checked against the brute force in
test_variants_settle.py): identical results -- melds, jokers and what they stand for,
lay-offs in the order applied, points, outcome, the final table -- on random deals per
preset and joker count, single and double deck, and under field combinations."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chinchon import PRESETS, Card, Hand, Rules, reference
from chinchon.cards import CARD_AT

from tests.oracles.impls import scaled
from tests.oracles.variant_deals import _draw, pool_of, random_deal

# every preset with 0, 1 and 2 extra jokers
PRESET_CONFIGS = [(f"{name}-j{j}", rules.replace(jokers=j))
                  for name, rules in PRESETS.items() for j in (0, 1, 2)]

# field combinations beyond the presets
FIELD_CONFIGS = [
    ("d40", Rules(deck=40)),
    ("d40-court-j1", Rules(deck=40, jokers=1, points=[1, 2, 3, 4, 5, 6, 7, 0, 0, 10, 10, 10],
                           joker_points=12, close_limit=12)),
    ("wild48", Rules(wild_ace_of_coins=True, close_limit=9)),
    ("wild40-j2-court", Rules(deck=40, wild_ace_of_coins=True, jokers=2,
                              points=[0, 2, 3, 4, 5, 6, 7, 0, 0, 10, 10, 10], joker_points=5,
                              close_limit=8)),
    ("j2-free-jokers-no-jc", Rules(jokers=2, joker_points=0, joker_chinchon=None, minus_ten=7)),
    ("j1-classic-jc3", Rules(jokers=1, seven_run_wins=False, joker_chinchon=3, close_limit=30)),
    ("j1-court-minus25", Rules(jokers=1, points=[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10],
                               minus_ten=25, joker_points=31, close_limit=7)),
    ("plain-points", Rules(points=[12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1], close_limit=9)),
]


def _hands(cards_lists, decks):
    return [Hand([Card.from_index(i) for i in h], decks=decks) for h in cards_lists]


def _check(native, rules, decks, closer, opponents, rng):
    hands = _hands([closer, *opponents], decks)
    want = reference.settle(hands[0], hands[1:], decks=decks, rules=rules)
    got = native.settle(hands[0], hands[1:], decks=decks, rules=rules)
    where = (rules, decks, [str(h) for h in hands])
    assert got.to_dict() == want.to_dict(), where
    assert got == want, where
    if rng.random() < 0.2:  # the slow path: card text, decks inferred
        text = [str(h) for h in hands]
        assert native.settle(text[0], text[1:], rules=rules) == \
            reference.settle(text[0], text[1:], rules=rules), where
    return got


@pytest.mark.parametrize("name,rules", PRESET_CONFIGS + FIELD_CONFIGS,
                         ids=[c[0] for c in PRESET_CONFIGS + FIELD_CONFIGS])
@pytest.mark.parametrize("decks", [1, 2])
def test_native_settle_matches_the_reference(native, name, rules, decks):
    rng = random.Random(f"{name}-{decks}")
    for _ in range(scaled(40)):
        n = rng.choice((1, 2, 3)) if decks == 1 else rng.choice((1, 2, 3, 4, 5))
        closer, opponents = random_deal(rng, rules, decks, n)
        _check(native, rules, decks, closer, opponents, rng)


def test_many_deals_with_jokers_in_play(native):
    """A longer run on the preset with the most jokers, double deck, six players."""
    rules = PRESETS["fifty"]
    rng = random.Random(96)
    joker_layoffs = past_jokers = 0
    for _ in range(scaled(150)):
        closer, opponents = random_deal(rng, rules, 2, 5)
        s = _check(native, rules, 2, closer, opponents, rng)
        for o in s.opponents:
            for card, t in o.layoffs:
                joker_layoffs += card.index in (12, 28)
                past_jokers += card.index not in (12, 28) and s.table[t].joker is not None
    if scaled(150) == 150:  # the deals do lay jokers off, and cards past them
        assert joker_layoffs >= 5 and past_jokers >= 20, (joker_layoffs, past_jokers)


JOKER_HEAVY = [("fifty", PRESETS["fifty"]), ("conga-j2", PRESETS["conga"].replace(jokers=2)),
               ("wild40-court", Rules(deck=40, wild_ace_of_coins=True, jokers=2,
                                      points=[0, 2, 3, 4, 5, 6, 7, 0, 0, 10, 10, 10],
                                      joker_points=5, close_limit=8))]


@pytest.mark.parametrize("name,rules", JOKER_HEAVY, ids=[c[0] for c in JOKER_HEAVY])
@pytest.mark.parametrize("decks", [1, 2])
def test_deals_with_a_joker_in_every_opponents_hand(native, name, rules, decks):
    """Every opponent dealt one or two jokers (where the deck has them): jokers laid off
    onto sets and at run ends, chains past them, natural cards onto melds holding one."""
    deck = reference.melds.solver_view(rules.solver, decks)
    rng = random.Random(f"heavy-{name}-{decks}")
    joker_layoffs = 0
    for _ in range(scaled(60)):
        while True:
            pool = pool_of(rules, decks)
            closer = _draw(rng, pool, rules, 7, rng.choice((0, 0, 1)))
            if reference.melds.arrangement(closer, deck)[2] <= rules.close_limit:
                break
        n = rng.choice((1, 2, 3)) if decks == 1 else rng.choice((2, 3, 4, 5))
        opponents = [_draw(rng, pool, rules, 7, rng.choice((1, 2, 2))) for _ in range(n)]
        s = _check(native, rules, decks, closer, opponents, rng)
        joker_layoffs += sum(1 for o in s.opponents for c, _ in o.layoffs
                             if rules.solver.joker_mask >> c.index & 1)
    if scaled(60) == 60:
        assert joker_layoffs >= 5  # the deals do lay jokers off


def test_native_settle_errors_match_the_reference(native):
    cases = [
        ("7o 7c 7b 9e 10e 11e 4o", ["*1 12e 1c 3o 5b 8c 2o"], Rules(close_limit=7)),
        ("7o 7c 7b 9e 10e 11e 4o", ["*1 12e 1c 3o 5b 8c 2o"], Rules(deck=40)),
        ("7o 7c 7b 5e 6e 7e 4o", ["*2 12e 1c 3o 5b 8c 2o"], Rules(jokers=1)),
        ("7o 7c 7b 5e 6e 7e 4o", ["*1 12e 1c 3o 5b 6c 2o", "*1 12e 1e 3c 5o 6b 2c",
                                  "*1 12b 1b 3e 5e 6o 2e"], Rules(jokers=1)),
        ("7o 7c 12b 5e 6e 7e 4o", ["*1 12e 1c 3o 5b 6c 2o"], PRESETS["fifty"]),
        ("1c 2c 3c 5e 6e 7e 10b", ["1b 2b 3b 4b 5b 6b 12o"], PRESETS["conga"]),
        ("7o 7c 7b 5e 6e 7e 4o", ["1o 12e 1c 3o 5b 6c 1o", "1o 12c 1e 3c 5o 6b 2c"],
         PRESETS["conga"]),  # the wild ace three times
    ]
    for closer, opponents, rules in cases:
        for as_hands in (False, True):
            args = ((Hand(closer), [Hand(o) for o in opponents]) if as_hands
                    else (closer, opponents))
            with pytest.raises(ValueError) as want:
                reference.settle(*args, rules=rules)
            with pytest.raises(want.type) as got:
                native.settle(*args, rules=rules)
            assert str(got.value) == str(want.value)


def test_a_two_deck_hand_sets_the_set_capacity(native):
    # decks=None with Hands of two decks: capacity 8, as the reference infers it
    rules = Rules(jokers=1, close_limit=10)
    closer = Hand("7o 7c 7b 1b 2c 1c 3e", decks=2)
    opponents = [Hand("*1 7e 12c 11e 10b 2b 5b", decks=2)]
    s = native.settle(closer, opponents, rules=rules)
    assert s == reference.settle(closer, opponents, rules=rules)
    assert [(str(c), t) for c, t in s.opponents[0].layoffs] == [("7e", 0), ("*1", 0)]
    s = native.settle(Hand(str(closer)), [Hand(str(opponents[0]))], rules=rules)
    assert [(str(c), t) for c, t in s.opponents[0].layoffs] == [("*1", 0)]


@pytest.mark.parametrize("jc", [0, 25, 2**31 - 1])
def test_joker_chinchon_points_from_the_rules(native, jc):
    rules = PRESETS["fifty"].replace(joker_chinchon=jc)
    args = ("2c 3c 4c 5c *1 7c 8c", ["9c 1c 12c 11e 10b 2b 3b"])
    s = native.settle(*args, rules=rules)
    assert s.outcome == "joker_chinchon" and s.points[0] == -jc
    assert s == reference.settle(*args, rules=rules)


# The native boundary through the fast path (every hand a Hand: the C core checks the
# deal against the rules' deck): random Hands with jokers and cards some decks lack,
# random rules -- the same result, or the same error class and message, as the reference.
_CARDS = [str(c) for c in CARD_AT if c is not None]
_RULES = [None, PRESETS["barajamos"], PRESETS["classic"], PRESETS["conga"], PRESETS["fifty"],
          Rules(jokers=1)]
# the same with a close limit nobody goes over, so that most deals get settled
_RULES += [(r or PRESETS["barajamos"]).replace(close_limit=255) for r in _RULES]
_RULES += [Rules(deck=40, jokers=2, wild_ace_of_coins=True, close_limit=255)]


@st.composite
def _deals(draw):
    """(rules, hands as card texts): mostly 7 cards a hand from the rules' own deck, now
    and then a card it lacks, 6 or 8 cards, a copy too many."""
    rules = draw(st.sampled_from(_RULES))
    mask = (rules or PRESETS["barajamos"]).solver.card_mask
    own = [c for c in _CARDS if mask >> Card.parse(c).index & 1]
    cards = draw(st.permutations(own * 2))  # two decks' worth: no third copy
    sizes = draw(st.lists(st.sampled_from([7] * 20 + [6, 8]), min_size=2, max_size=6))
    hands, i = [], 0
    for k in sizes:
        hands.append(list(cards[i:i + k]))
        i += k
    if draw(st.integers(0, 9)) == 0:  # any card at all: one the deck lacks, a third copy
        hands[draw(st.integers(0, len(hands) - 1))][0] = draw(st.sampled_from(_CARDS))
    return rules, hands


def _outcome(fn, *args, **kwargs):
    try:
        return ("ok", fn(*args, **kwargs))
    except ValueError as exc:
        return ("error", type(exc).__name__, str(exc))


@settings(max_examples=scaled(300), deadline=None)
@given(_deals(), st.sampled_from([None, 1, 2]), st.booleans())
def test_settle_boundary_with_hands(native, deal, decks, two_deck_hands):
    rules, hands = deal
    try:
        hs = [Hand(" ".join(h), decks=2 if two_deck_hands else None) for h in hands]
    except ValueError:
        return  # a third copy inside one hand: no Hand to pass
    closer, *opponents = hs
    got = _outcome(native.settle, closer, opponents, decks=decks, rules=rules)
    want = _outcome(reference.settle, closer, opponents, decks=decks, rules=rules)
    assert got == want, (hands, rules, decks)
