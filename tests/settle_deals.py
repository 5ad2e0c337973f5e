"""Random closable deals where lay-offs are frequent, for the settlement tests.

The closer's 7 are built from one or two melds plus low cards (then checked closable);
each opponent draws mostly "hot" cards -- of the rank of a set on the table or near the
ends of a run on it -- and sometimes a meld of their own, which then makes more cards hot.
"""

from __future__ import annotations

import random
from collections import Counter

from chinchon.reference import arrange


def _take(pool: Counter, card: int) -> bool:
    if pool[card] > 0:
        pool[card] -= 1
        return True
    return False


def _random_meld(rng: random.Random, pool: Counter) -> list[int]:
    for _ in range(50):
        if rng.random() < 0.5:
            r = rng.randrange(12)
            cards = [16 * s + r for s in range(4) for _ in range(pool[16 * s + r])]
            if len(cards) >= 3:
                return rng.sample(cards, min(len(cards), rng.choice((3, 3, 4))))
        else:
            s, n = rng.randrange(4), rng.choice((3, 3, 4, 5))
            lo = rng.randrange(12 - n + 1)
            cards = [16 * s + r for r in range(lo, lo + n)]
            if all(pool[c] for c in cards):
                return cards
    return []


def _hot(meld: list[int]) -> set[int]:
    """Cards that could be laid off onto this meld, or chained two deep."""
    ranks = {c % 16 for c in meld}
    if len(ranks) == 1:
        r = meld[0] % 16
        return {16 * s + r for s in range(4)}
    lo, hi = min(meld), max(meld)
    out = set()
    for d in (1, 2, 3):
        if (lo - d) // 16 == lo // 16 and (lo - d) >= 0:
            out.add(lo - d)
        if (hi + d) % 16 < 12:
            out.add(hi + d)
    return out


def random_deal(rng: random.Random, n_opponents: int, decks: int) -> tuple[list[int], list[list[int]]]:
    """(closer 7 indices, [opponent 7 indices]) of a closable deal."""
    while True:
        pool = Counter({16 * s + r: decks for s in range(4) for r in range(12)})
        closer: list[int] = []
        for _ in range(rng.choice((1, 2, 2))):
            meld = _random_meld(rng, pool)
            if len(closer) + len(meld) <= 7:
                for c in meld:
                    _take(pool, c)
                closer += meld
        while len(closer) < 7:
            c = 16 * rng.randrange(4) + rng.randrange(12 if rng.random() < 0.2 else 5)
            if _take(pool, c):
                closer.append(c)
        melds, _, points = arrange(closer)
        if points <= 5:
            break
    hot: set[int] = set()
    for _, key in melds:
        hot |= _hot(list(key))
    opponents = []
    for _ in range(n_opponents):
        hand: list[int] = []
        if rng.random() < 0.5:
            meld = _random_meld(rng, pool)[:rng.choice((3, 4, 7))]
            for c in meld:
                _take(pool, c)
            hand += meld
            if len(meld) >= 3:
                hot |= _hot(meld)
        while len(hand) < 7:
            choices = [c for c in hot if pool[c]]
            if choices and rng.random() < 0.6:
                c = rng.choice(sorted(choices))
            else:
                c = rng.choice(sorted(pool.elements()))
            if _take(pool, c):
                hand.append(c)
        opponents.append(hand)
    return closer, opponents
