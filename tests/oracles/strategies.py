"""Random hands: hypothesis strategies of card lists, and numpy batches of masks."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from chinchon import Card, full_deck

#: up to 8 distinct cards of one deck
HAND_CARDS = st.lists(st.sampled_from(full_deck(1)), min_size=0, max_size=8, unique=True)
#: up to 8 cards, each at most twice (two decks)
DOUBLE_CARDS = st.lists(st.sampled_from(full_deck(1)), min_size=0, max_size=8).filter(
    lambda cs: all(cs.count(c) <= 2 for c in cs))
#: 3 to 8 cards of ranks 4 to 7, each at most twice: meld-rich hands
RICH_CARDS = st.lists(
    st.builds(Card, st.integers(4, 7), st.sampled_from("oceb")), min_size=3, max_size=8
).filter(lambda cs: all(cs.count(c) <= 2 for c in cs))


def random_masks(rng: np.random.Generator, n: int, cards: int, decks: int = 1,
                 ranks: tuple[int, int] | None = None) -> np.ndarray:
    """n random hands of `cards` cards dealt from `decks` decks, in the public encoding.

    `ranks=(lo, hi)` confines the ranks to lo..hi (meld-rich hands)."""
    lo, hi = ranks or (1, 12)
    deck = np.array([16 * s + r - 1 for s in range(4) for r in range(lo, hi + 1)] * decks,
                    dtype=np.int64)
    # argsort of random keys gives a uniform random permutation of the deck per row
    keys = rng.random((n, len(deck)))
    picks = deck[np.argsort(keys, axis=1)[:, :cards]]
    bits = np.uint64(1) << picks.astype(np.uint64)
    if decks == 1:
        return np.bitwise_or.reduce(bits, axis=1) if cards else np.zeros(n, np.uint64)
    once = np.zeros(n, np.uint64)
    twice = np.zeros(n, np.uint64)
    for j in range(cards):
        b = bits[:, j]
        twice |= once & b
        once |= b
    return np.stack([once, twice], axis=1)
