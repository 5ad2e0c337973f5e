"""Jokers worth up to 50 points (``Rules.joker_points`` 0..50), native against the
reference: every single-hand call, the outlook, the settlement and both batches on
random rules and hands (hypothesis), one deck and two, up to every joker the rules put
in play (six with two decks, the wild ace and both jokers). A score may then pass 255:
the batches return uint16 exactly when ``rules.solver.max_deadwood`` does
(``score_dtype``), native and reference alike; the rules of the presets keep uint8."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chinchon import PRESETS, Card, ChinchonError, Hand, Rules, reference
from chinchon.cards import CARD_AT
from chinchon.rules import MAX_JOKER_POINTS

from tests.oracles.impls import agree_on_close_and_hints, scaled
from tests.oracles.variant_deals import _draw, pool_of, random_deal


@st.composite
def joker_rules(draw):
    """Rules with jokers in play, joker points up to 50 (50 itself often)."""
    wild = draw(st.booleans())
    return Rules(
        deck=draw(st.sampled_from((48, 40))),
        wild_ace_of_coins=wild,
        jokers=draw(st.integers(0 if wild else 1, 2)),
        joker_points=draw(st.one_of(st.just(50), st.sampled_from((31, 32, 49)),
                                    st.integers(0, MAX_JOKER_POINTS))),
        points=draw(st.one_of(st.just(tuple(range(1, 13))),
                              st.lists(st.integers(0, 31), min_size=12, max_size=12))),
        seven_run_wins=draw(st.booleans()),
        joker_chinchon=draw(st.one_of(st.none(), st.integers(0, 50))),
        close_limit=draw(st.integers(0, 40)),
    )


def _hand(rng: random.Random, rules: Rules, decks: int, size: int) -> Hand:
    """A hand of `size` cards with anywhere from none to every joker in play."""
    jm = rules.solver.joker_mask
    pool = pool_of(rules, decks)
    in_play = sum(k for i, k in pool.items() if jm >> i & 1)
    idx = _draw(rng, pool, rules, size, rng.choice((in_play, in_play, rng.randint(0, in_play))))
    return Hand([CARD_AT[i] for i in idx], decks=decks)


def _rows(hands: list[Hand], decks: int) -> np.ndarray:
    if decks == 1:
        return np.array([h.once for h in hands], dtype=np.uint64)
    return np.array([(h.once, h.twice) for h in hands], dtype=np.uint64).reshape(-1, 2)


def test_every_value_up_to_fifty_is_taken_and_51_or_negative_refused():
    for v in range(MAX_JOKER_POINTS + 1):
        assert Rules(jokers=2, joker_points=v).card_points(12) == v
    for bad in (MAX_JOKER_POINTS + 1, 100, -1):
        with pytest.raises(ChinchonError, match="Rules.joker_points must be 0..50") as e:
            Rules(joker_points=bad)
        assert isinstance(e.value, ValueError)


def test_the_batches_dtype_follows_the_largest_score():
    for rules in PRESETS.values():  # every preset, even at 50 a joker, where it fits
        assert rules.solver.score_dtype == "uint8"
    assert Rules(jokers=2, joker_points=50).solver.max_deadwood == 4 * 50 + 4 * 12
    assert Rules(jokers=2, joker_points=50).solver.score_dtype == "uint8"
    wide = Rules(jokers=2, wild_ace_of_coins=True, joker_points=50)
    assert wide.solver.max_deadwood == 6 * 50 + 2 * 12 and wide.solver.score_dtype == "uint16"
    # a joker worth no more than a natural card leaves the bound at 8 of those
    assert Rules(jokers=2, joker_points=5, points=[31] * 12).solver.max_deadwood == 248
    # the 40-card deck ignores the eights' and nines' points
    assert Rules(deck=40, wild_ace_of_coins=True, joker_points=0,
                 points=[1] * 7 + [31, 31] + [1] * 3).solver.max_deadwood == 8


def test_a_score_past_255_is_exact(native):
    """Six jokers that cannot all meld: the hints pass 255 and the batches say so."""
    rules = Rules(jokers=2, wild_ace_of_coins=True, joker_points=50)
    hand = Hand("1o 1o *1 *1 *2 *2 5c 9e", decks=2)
    want = reference.discard_hints(hand, rules=rules)
    assert native.discard_hints(hand, rules=rules) == want
    assert max(h.points for h in want) > 255
    for impl in (native, reference):
        out = impl.hints_batch(_rows([hand], 2), rules=rules)
        assert out.dtype == np.uint16
        assert out.tolist() == [[h.points for h in want]]
        dw = impl.deadwood_batch(_rows([hand], 2), rules=rules)
        assert dw.dtype == np.uint16 and dw.tolist() == [reference.deadwood(hand, rules=rules)]
    # the binding shares the Hints it builds: a hint past 255 is none of a smaller one
    # (1o at 264 points against 2o at 8: once the same entry of its table)
    house = Hand("2o 3c 3e 3b 4c 4e 4b 8e")
    assert native.discard_hints(house) == reference.discard_hints(house)
    assert [h.points for h in native.discard_hints(house)][0] == 8
    assert native.discard_hints(hand, rules=rules) == want


@settings(max_examples=scaled(60), deadline=None)
@given(joker_rules(), st.sampled_from((1, 2)), st.randoms(use_true_random=False))
def test_single_hands_and_outlook(native, rules, decks, rng):
    for _ in range(4):
        hand = _hand(rng, rules, decks, rng.choice((5, 7, 8, 8)))
        want = reference.best_melds(hand, rules=rules)
        assert native.best_melds(hand, rules=rules) == want, str(hand)
        assert native.deadwood(hand, rules=rules) == want.points <= rules.solver.max_deadwood
        agree_on_close_and_hints(native, hand, rules)
        if len(hand) == 8:
            pool = pool_of(rules, decks)
            for c in hand:
                pool[c.index] -= 1
            unseen = rng.sample(sorted(pool.elements()), 6)
            unseen_cards = [Card.from_index(i) for i in unseen]
            assert native.outlook(hand, unseen_cards, decks=decks, rules=rules) == \
                reference.outlook(hand, unseen_cards, decks=decks, rules=rules), str(hand)


@settings(max_examples=scaled(40), deadline=None)
@given(joker_rules(), st.sampled_from((1, 2)), st.randoms(use_true_random=False))
def test_batches_same_values_and_dtype(native, rules, decks, rng):
    hands = [_hand(rng, rules, decks, rng.choice((0, 3, 7, 8, 8))) for _ in range(24)]
    rows = _rows(hands, decks)
    eight = _rows([h for h in hands if len(h) == 8], decks)
    dtype = np.dtype(rules.solver.score_dtype)
    for batch, arr in ((native.deadwood_batch, rows), (native.hints_batch, eight)):
        want = getattr(reference, batch.__name__)(arr, rules=rules)
        got = batch(arr, rules=rules)
        assert got.dtype == want.dtype == dtype
        assert np.array_equal(got, want)
        # past the sizes that build the joker tables (csrc/src/jokers/joker_batch.c), in
        # two threads
        big = -(-4096 // max(len(arr), 1))
        assert np.array_equal(batch(np.repeat(arr, big, axis=0), rules=rules, threads=2),
                              np.repeat(want, big, axis=0))


@pytest.mark.parametrize("rules", [
    PRESETS["fifty"].replace(joker_points=50),
    PRESETS["conga"].replace(joker_points=50, jokers=2),
    Rules(wild_ace_of_coins=True, jokers=2, joker_points=50, close_limit=9),
], ids=["fifty", "conga-j2", "wild-j2"])
@pytest.mark.parametrize("decks", [1, 2])
def test_settlement(native, rules, decks):
    rng = random.Random(f"settle-{decks}-{rules.jokers}-{rules.deck}")
    for _ in range(scaled(40)):
        closer, opponents = random_deal(rng, rules, decks, rng.choice((1, 2, 3)))
        hands = [Hand([Card.from_index(i) for i in h], decks=decks) for h in [closer, *opponents]]
        want = reference.settle(hands[0], hands[1:], decks=decks, rules=rules)
        got = native.settle(hands[0], hands[1:], decks=decks, rules=rules)
        assert got.to_dict() == want.to_dict(), [str(h) for h in hands]
