"""The native boundary under the new arguments: random rules values, random masks and
card lists with jokers and cards some decks lack -- the native module and the reference
give the same result or raise the same class with the same message."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chinchon import CONGA_RULES, FIFTY_RULES, HOUSE_RULES, Rules, reference
from chinchon.cards import CARD_AT

from tests.oracles.impls import scaled

RULES = st.sampled_from([
    None, HOUSE_RULES, "barajamos", "conga", "fifty", "classic", Rules(close_limit=0),
    Rules(close_limit=9, minus_ten=3), CONGA_RULES, FIFTY_RULES, Rules(jokers=1),
    Rules(deck=40), Rules(points=[5] * 12), "nope", 7, Rules,
])
# card texts of every card any rules have, and some that are no card
TOKENS = st.sampled_from([str(c) for c in CARD_AT if c is not None] + ["*3", "13o", "J1"])


def outcome(fn, *args, **kwargs):
    """What a call gives: ('ok', result) or ('error', class name, message)."""
    try:
        return ("ok", fn(*args, **kwargs))
    except ValueError as exc:
        return ("error", type(exc).__name__, str(exc))


def same(native, name, *args, **kwargs):
    got = outcome(getattr(native, name), *args, **kwargs)
    want = outcome(getattr(reference, name), *args, **kwargs)
    if got[0] == "ok" and isinstance(got[1], np.ndarray):
        assert want[0] == "ok" and np.array_equal(got[1], want[1]), (name, args, kwargs)
    else:
        assert got == want, (name, args, kwargs)


@settings(max_examples=scaled(300), deadline=None)
@given(st.lists(TOKENS, max_size=9), RULES, st.sampled_from([None, 1, 2]))
def test_single_hands(native, tokens, rules, decks):
    text = " ".join(tokens)
    for name in ("deadwood", "best_melds", "close_outcome", "discard_hints"):
        same(native, name, text, decks=decks, rules=rules)


@settings(max_examples=scaled(200), deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1)),
                min_size=1, max_size=4),
       st.lists(st.sampled_from([0, 7, 8, 12, 13, 28, 44, 60]), max_size=3), RULES,
       st.booleans())
def test_batches(native, rows, bits, rules, double):
    # mostly plausible rows: a few cards, plus the chosen edge bits
    fixed = []
    for once, twice in rows:
        once = (once & 0x0F0F0F0F0F0F0F0F) & ((1 << 64) - 1)
        once &= once >> 3 | 0x0101010101010101  # thin it out
        for b in bits:
            once |= 1 << b
        twice &= once
        fixed.append((once, twice) if double else once)
    arr = np.array(fixed, dtype=np.uint64)
    same(native, "deadwood_batch", arr, rules=rules, threads=1)
    same(native, "hints_batch", arr, rules=rules, threads=1)


@settings(max_examples=scaled(150), deadline=None)
@given(st.lists(st.lists(TOKENS, min_size=6, max_size=8), min_size=2, max_size=4), RULES,
       st.sampled_from([None, 1, 2]))
def test_settle(native, hands, rules, decks):
    closer, *opponents = [" ".join(h) for h in hands]
    same(native, "settle", closer, opponents, decks=decks, rules=rules)


@pytest.mark.parametrize("rules", [None, HOUSE_RULES, Rules(close_limit=30)])
def test_jokers_under_plain_rules_are_named_in_both(native, rules):
    from chinchon import Hand
    for hand in (Hand("*1 2o 3o 4o 5o 6o 7o"), "2o 3o 4o 5o 6o 7o *2"):
        same(native, "settle", hand, [Hand("1c 2c 3c 4c 5c 6c 7c")], rules=rules)
        same(native, "close_outcome", hand, rules=rules)
        same(native, "best_melds", hand, rules=rules)
    same(native, "discard_hints", Hand("*1 2o 3o 4o 5o 6o 7o 1b"), rules=rules)


def test_a_hints_row_over_8_cards_is_too_many_in_both(impl):
    # found by test_batches: the reference said "wrong number of cards" where the C core
    # (cc_check_hand before the exact count) says "too many cards"
    from chinchon import BatchRowError
    with pytest.raises(BatchRowError, match="row 0: too many cards"):
        impl.hints_batch(np.array([0x3FF], dtype=np.uint64))
    with pytest.raises(BatchRowError, match="row 0: wrong number of cards"):
        impl.hints_batch(np.array([0x7F], dtype=np.uint64))
