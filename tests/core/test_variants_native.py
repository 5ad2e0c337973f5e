"""The native solver under every variant, against the reference: random hands per
preset, per number of jokers held (0, 1, 2) and per number of decks, through every
single-hand call (results with their joker fields and ``to_dict()``) and both batch
calls. The C core runs these itself now (no reference fallback), so any difference is
a bug in one of the two.

``CHINCHON_TEST_SCALE`` multiplies the hands (the issue's 100,000 per preset and joker
count is ``CHINCHON_TEST_SCALE=250``).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from chinchon import Hand, Rules, reference
from chinchon.cards import CARD_AT

from tests.oracles.impls import agree_on_close_and_hints, scaled
from tests.oracles.variant_deals import _draw, pool_of

PRESETS = ["barajamos", "classic", "conga", "fifty"]
# rules values beyond the presets: every field away from its default somewhere
EXTRA = {
    "forty-two-jokers": Rules(deck=40, jokers=2, joker_points=0, joker_chinchon=None,
                              seven_run_wins=False,
                              points=(1, 2, 3, 4, 5, 6, 7, 0, 0, 10, 10, 10)),
    "wild-and-one": Rules(wild_ace_of_coins=True, jokers=1, close_limit=7, joker_points=3),
    "forty-flat": Rules(deck=40, jokers=1, points=(5,) * 12, joker_chinchon=0),
}
CONFIGS = [(name, Rules.preset(name), jokers, decks)
           for name in PRESETS for jokers in (0, 1, 2) for decks in (1, 2)
           if jokers == 0 or Rules.preset(name).solver.joker_mask]
CONFIGS += [(name, rules, jokers, decks) for name, rules in EXTRA.items()
            for jokers in (0, 1, 2) for decks in (1, 2)]


def _hands(rules: Rules, jokers: int, decks: int, n: int, seed: int) -> list[Hand]:
    """n random hands of 0..8 cards holding exactly `jokers` jokers (or fewer where the
    deck has fewer), meld-rich most of the time."""
    rng = random.Random(seed)
    jm = rules.solver.joker_mask
    pool = pool_of(rules, decks)
    jokers = min(jokers, sum(k for i, k in pool.items() if jm >> i & 1))
    out = []
    while len(out) < n:
        size = rng.choice((3, 5, 6, 7, 7, 7, 8, 8, 8, 8))
        idx = _draw(rng, pool.copy(), rules, size, jokers)
        if sum(1 for i in idx if jm >> i & 1) != min(jokers, size):
            continue
        out.append(Hand([CARD_AT[i] for i in idx], decks=decks))
    return out


def _rows(hands: list[Hand], decks: int) -> np.ndarray:
    if decks == 1:
        return np.array([h.once for h in hands], dtype=np.uint64)
    return np.array([(h.once, h.twice) for h in hands], dtype=np.uint64).reshape(-1, 2)


@pytest.mark.parametrize("name,rules,jokers,decks", CONFIGS,
                         ids=[f"{c[0]}-j{c[2]}-d{c[3]}" for c in CONFIGS])
def test_single_hands(native, name, rules, jokers, decks):
    for k, hand in enumerate(_hands(rules, jokers, decks, scaled(60), f"{name}{jokers}{decks}")):
        got = native.best_melds(hand, rules=rules)
        want = reference.best_melds(hand, rules=rules)
        assert got == want, (str(hand), got, want)
        assert [m.to_dict() for m in got.melds] == [m.to_dict() for m in want.melds]
        assert native.deadwood(hand, rules=rules) == want.points
        agree_on_close_and_hints(native, hand, rules)
        if len(hand) == 8:
            # a card list keeps its order, a copy in both places
            cards = list(hand)
            random.Random(k).shuffle(cards)
            assert native.discard_hints(cards, decks=decks, rules=rules) == \
                reference.discard_hints(cards, decks=decks, rules=rules), str(hand)


@pytest.mark.parametrize("name,rules,jokers,decks", CONFIGS,
                         ids=[f"{c[0]}-j{c[2]}-d{c[3]}" for c in CONFIGS])
def test_numpy_decks_are_the_decks_they_hold(native, name, rules, jokers, decks):
    """``decks=`` of numpy's integer types gives the set capacity of that many decks, as
    the int does (a 5-card set of one rank and a joker needs two decks)."""
    hands = _hands(rules, jokers, decks, scaled(12), f"np{name}{jokers}{decks}")
    if decks == 2 and rules.solver.joker_mask:
        joker = next(i for i in sorted(pool_of(rules, 2)) if rules.is_joker(i))
        hands.append(Hand(["5o", "5c", "5e", "5b", CARD_AT[joker]], decks=2))
    for hand in hands:
        cards = [str(c) for c in hand]
        want = reference.best_melds(hand, rules=rules)
        for impl in (native, reference):
            for d in (np.int64(decks), np.uint8(decks)):
                assert impl.best_melds(cards, decks=d, rules=rules) == want, (str(hand), d)
                assert impl.deadwood(cards, decks=d, rules=rules) == want.points
                if len(cards) == 7:
                    assert impl.close_outcome(cards, decks=d, rules=rules) == \
                        reference.close_outcome(hand, rules=rules)
                if len(cards) == 8:
                    assert impl.discard_hints(cards, decks=d, rules=rules) == \
                        reference.discard_hints(cards, decks=decks, rules=rules)


@pytest.mark.parametrize("name,rules,jokers,decks", CONFIGS,
                         ids=[f"{c[0]}-j{c[2]}-d{c[3]}" for c in CONFIGS])
def test_batches(native, name, rules, jokers, decks):
    hands = _hands(rules, jokers, decks, scaled(100), f"{name}{jokers}{decks}b")
    rows = _rows(hands, decks)
    assert np.array_equal(native.deadwood_batch(rows, rules=rules),
                          reference.deadwood_batch(rows, rules=rules))
    eight = _rows([h for h in hands if len(h) == 8], decks)
    assert np.array_equal(native.hints_batch(eight, rules=rules),
                          reference.hints_batch(eight, rules=rules))
    # several threads give the same rows
    assert np.array_equal(native.deadwood_batch(np.repeat(rows, 50, axis=0), rules=rules,
                                                threads=2),
                          np.repeat(reference.deadwood_batch(rows, rules=rules), 50))
    # batches of 4096 rows and more weigh the joker parts by table (csrc/src/jokers/joker_batch.c;
    # hints from 512 rows):
    # the same rows, in one thread
    big = -(-4096 // max(len(rows), 1))
    assert np.array_equal(native.deadwood_batch(np.repeat(rows, big, axis=0), rules=rules,
                                                threads=1),
                          np.repeat(reference.deadwood_batch(rows, rules=rules), big))
    if len(eight):
        big = -(-4096 // len(eight))
        assert np.array_equal(native.hints_batch(np.repeat(eight, big, axis=0), rules=rules,
                                                 threads=1),
                              np.repeat(reference.hints_batch(eight, rules=rules), big, axis=0))


def test_rules_values_share_one_cached_core_rules(native):
    """Equal rules values (and rules differing only at the table) give the same answers;
    a preset name and its value too."""
    conga_like = Rules.preset("conga").replace(eliminate_above=50)
    hand = "1o 2o 4o 3c 10c 10e 10b 5c"
    assert native.best_melds(hand, rules=conga_like) == native.best_melds(hand, rules="conga")
    assert native.best_melds(hand, rules="conga") == reference.best_melds(hand, rules="conga")
    hand = "1o 2o 4o *1 9c 9e 9b 5c"
    assert native.discard_hints(hand, rules="fifty") == \
        native.discard_hints(hand, rules=Rules(jokers=2))
    assert native.discard_hints(hand, rules="fifty") == \
        reference.discard_hints(hand, rules="fifty")


@pytest.mark.parametrize("name", ["conga", "fifty", "forty-two-jokers", "wild-and-one"])
@pytest.mark.parametrize("decks", [1, 2])
def test_batches_runs_without_jokers(native, name, decks):
    """Runs of rows without a joker, short and long, between rows with jokers: a run of
    16 rows or more goes to the house row kernels (csrc/src/jokers/joker_batch.c; the
    40-card deck's rows moved to the run-order space in chunks of 256), a shorter one
    stays in the variants' loop. Every row as the reference gives it."""
    rules = EXTRA.get(name) or Rules.preset(name)
    rng = random.Random(f"runs{name}{decks}")
    plain = _hands(rules, 0, decks, scaled(150), f"{name}{decks}plain")
    joker = _hands(rules, 1, decks, scaled(60), f"{name}{decks}joker")
    for eight in (False, True):
        p = [h for h in plain if len(h) == 8] if eight else plain
        j = [h for h in joker if len(h) == 8] if eight else joker
        order: list[Hand] = []
        while len(order) < 900:  # runs of 1-300 plain rows, then 1-3 joker rows
            order += [rng.choice(p) for _ in range(rng.choice((1, 5, 15, 16, 17, 40, 300)))]
            order += [rng.choice(j) for _ in range(rng.randint(1, 3))]
        rows = _rows(order, decks)
        if eight:
            assert np.array_equal(native.hints_batch(rows, rules=rules, threads=1),
                                  reference.hints_batch(rows, rules=rules))
        else:
            assert np.array_equal(native.deadwood_batch(rows, rules=rules, threads=1),
                                  reference.deadwood_batch(rows, rules=rules))
