"""The outlook's speed (docs/rules.md#the-outlook-one-draw-ahead): one call and one batch row, native
vs reference in one run. Targets: <= 10 us per 8-card hand with 40 unseen
cards (one deck), <= 25 us with two decks, native >= 100x the reference."""

from __future__ import annotations

import numpy as np
import pytest

from chinchon import Hand

from .conftest import IMPLS, random_masks

#: 8-card hands: one deck (40 unseen) and two (88 unseen)
HANDS = {"single": Hand("1o 2o 3o 5c 5e 7b 9o 12c"), "double": Hand("1o 1o 3o 5c 5e 7b 9o 12c")}
ROWS = {"native": 20_000, "python": 3}


@pytest.mark.parametrize("deck", list(HANDS))
def test_outlook_single_call(benchmark, impl_name, deck):
    impl = IMPLS[impl_name]
    hand = HANDS[deck]
    benchmark.extra_info.update(rows=1, op="outlook(Hand)", workload=deck)
    lines = benchmark(impl.outlook, hand)
    assert lines[0].draws == (40 if deck == "single" else 88)


def test_draw_outlook_single_call(benchmark, impl_name):
    impl = IMPLS[impl_name]
    hand = Hand("1o 2o 3o 5c 5e 7b 9o")
    top = Hand("4o").__iter__().__next__()
    benchmark.extra_info.update(rows=1, op="draw_outlook(Hand)", workload="single")
    assert benchmark(impl.draw_outlook, hand, top).take.draws == 1


@pytest.mark.parametrize("decks", [1, 2])
def test_outlook_batch(benchmark, impl_name, decks):
    impl = IMPLS[impl_name]
    masks = random_masks(np.random.default_rng(7), ROWS[impl_name], 8, decks)
    if decks == 1:
        unseen = np.uint64(0x0FFF0FFF0FFF0FFF) & ~masks
    else:
        lane = np.uint64(0x0FFF0FFF0FFF0FFF)
        unseen = np.stack([lane & ~masks[:, 1], lane & ~masks[:, 0]], axis=1)
    benchmark.extra_info.update(rows=len(masks), op="outlook_batch", workload=f"decks={decks}")
    out = benchmark(impl.outlook_batch, masks, unseen, threads=1)
    assert out.shape == (len(masks), 8, 6)
