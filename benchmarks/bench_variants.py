"""The rule variants (docs/rules.md#rule-variants): batch rows holding 0, 1 or 2 jokers under the presets
with jokers (fifty: 48 cards + two jokers; conga: 40 cards, the wild ace of coins),
single and double deck, native and reference in one run.

    python -m pytest benchmarks/bench_variants.py --benchmark-json=v.json
    python benchmarks/report.py v.json

Rows: uniform hands of the rules' deck with exactly that many jokers (conga single
deck holds one wild ace at most). ``test_house_same_hands`` runs the joker-free rows
again under the house rules (every such hand is a house hand too: the 40-card deck's
cards are all house cards, and conga's joker-free rows leave out the ace of coins), so
that the variant path's cost on hands without a joker is measured on the same hands.

    python benchmarks/report.py --variants v.json

prints the joker rows against the joker-free rows of the same run, and those against
the house rules on the same hands.
"""

from __future__ import annotations

import numpy as np
import pytest

from chinchon import Rules

from .conftest import IMPLS

ROWS = {"native": 20_000, "python": 100}
CASES = [(name, decks, jokers) for name in ("fifty", "conga") for decks in (1, 2)
         for jokers in (0, 1, 2) if not (name == "conga" and decks == 1 and jokers == 2)]


def variant_masks(rules: Rules, n: int, cards: int, decks: int, jokers: int,
                  seed: int) -> np.ndarray:
    """n rows of `cards` cards of the rules' deck(s), exactly `jokers` of them jokers."""
    rng = np.random.default_rng(seed)
    jm, cm = rules.solver.joker_mask, rules.solver.card_mask
    naturals = np.array([i for i in range(64) if cm >> i & 1 and not jm >> i & 1] * decks)
    joker_cards = np.array([i for i in range(64) if jm >> i & 1] * decks)
    once = np.zeros(n, np.uint64)
    twice = np.zeros(n, np.uint64)
    for r in range(n):
        picks = list(rng.choice(joker_cards, jokers, replace=False)) if jokers else []
        picks += list(rng.choice(naturals, cards - jokers, replace=False))
        for i in picks:
            b = np.uint64(1) << np.uint64(i)
            twice[r] |= once[r] & b
            once[r] |= b
    return once if decks == 1 else np.stack([once, twice], axis=1)


@pytest.mark.parametrize("name,decks,jokers", CASES,
                         ids=[f"{c[0]}-d{c[1]}-j{c[2]}" for c in CASES])
@pytest.mark.parametrize("op,cards", [("deadwood_batch", 7), ("hints_batch", 8)])
def test_variant_batch(benchmark, impl_name, op, cards, name, decks, jokers):
    rules = Rules.preset(name)
    masks = variant_masks(rules, ROWS[impl_name], cards, decks, jokers, 7)
    benchmark.extra_info.update(rows=len(masks), op=op,
                                workload=f"{name} {decks}-deck {jokers} jokers")
    out = benchmark(getattr(IMPLS[impl_name], op), masks, threads=1, rules=rules)
    assert len(out) == len(masks)


SAME = [(name, decks) for name in ("fifty", "conga") for decks in (1, 2)]


@pytest.mark.parametrize("name,decks", SAME, ids=[f"{c[0]}-d{c[1]}" for c in SAME])
@pytest.mark.parametrize("op,cards", [("deadwood_batch", 7), ("hints_batch", 8)])
def test_house_same_hands(benchmark, op, cards, name, decks):
    """The joker-free rows of test_variant_batch (same seed) under the house rules."""
    if IMPLS["native"] is None:
        pytest.skip("native module not built")
    masks = variant_masks(Rules.preset(name), ROWS["native"], cards, decks, 0, 7)
    benchmark.extra_info.update(rows=len(masks), op=op, rules="house",
                                workload=f"{name} {decks}-deck 0 jokers, house rules")
    out = benchmark(getattr(IMPLS["native"], op), masks, threads=1,
                    rules=Rules.preset("barajamos"))
    assert len(out) == len(masks)


PLAIN = [(op, cards, decks, preset) for op, cards in (("deadwood_batch", 7), ("hints_batch", 8))
         for decks in (1, 2) for preset in ("fifty", "barajamos")]


@pytest.mark.benchmark(warmup=True, warmup_iterations=200)
@pytest.mark.parametrize("op,cards,decks,preset", PLAIN,
                         ids=[f"{c[0]}-d{c[2]}-{c[3]}" for c in PLAIN])
def test_plain_rows(benchmark, op, cards, decks, preset):
    """Rows without a joker under fifty, then the same rows under the house rules, one
    right after the other (this shared machine drifts between tests far apart):

        python -m pytest benchmarks/bench_variants.py -k plain_rows --benchmark-json=p.json
        python benchmarks/report.py --plain p.json

    prints fifty's time a row against the house rules' (target <= 1.15x), from each
    test's fastest round."""
    if IMPLS["native"] is None:
        pytest.skip("native module not built")
    masks = variant_masks(Rules.preset("fifty"), ROWS["native"], cards, decks, 0, 11)
    benchmark.extra_info.update(rows=len(masks), op=op, pair=f"{op}, {decks} deck(s)",
                                rules=preset)
    out = benchmark(getattr(IMPLS["native"], op), masks, threads=1, rules=Rules.preset(preset))
    assert len(out) == len(masks)
