"""The one generator of random closable deals for the settlement tests, biased towards
lay-offs.

Cards come from a few suits and a window of ranks. The closer's 7 are a chinchón now and
then, a random 7 where the close limit allows it, and otherwise one or two melds filled
with low cards; the deal is kept when the closer may close (by the oracle's own search,
not by an implementation). Each opponent draws mostly "hot" cards -- of the rank of a
set on the table, near the ends of a run on it, or next to their own cards -- and
sometimes starts with a meld of their own, which then makes more cards hot for the
opponents after them (lay-offs onto an earlier opponent's meld).
"""

from __future__ import annotations

import random
from collections import Counter

from chinchon.rules import Rules
from tests.oracles.naive import rank
from tests.oracles.settlement import best_plan

#: rule sets the settlement tests deal under: the default, no deadwood at all, wide
#: limits, a big and a zero minus ten
RULE_SETS = [Rules(), Rules(close_limit=0), Rules(close_limit=10, minus_ten=25),
             Rules(close_limit=60, minus_ten=7), Rules(close_limit=3, minus_ten=0)]


def deck(decks: int) -> list[int]:
    """Card indices of `decks` full decks."""
    return [16 * s + r for s in range(4) for r in range(12)] * decks


def _take(pool: Counter, cards) -> bool:
    need = Counter(cards)
    if any(pool[c] < k for c, k in need.items()):
        return False
    pool.subtract(need)
    return True


def _random_meld(rng: random.Random, pool: Counter, suits: list[int], ranks: list[int],
                 size: int) -> list[int] | None:
    """A set or a run of `size` cards still in the pool (ranks 0-based), or None."""
    for _ in range(40):
        if rng.random() < 0.5:
            r = rng.choice(ranks)
            avail = [16 * s + r for s in range(4) for _ in range(pool[16 * s + r])]
            if len(avail) >= size:
                m = rng.sample(avail, size)
                if len(set(m)) == len(m) or rng.random() < 0.5:
                    return m
        else:
            s = rng.choice(suits)
            lo = rng.randrange(0, 12 - size + 1)
            m = [16 * s + r for r in range(lo, lo + size)]
            if all(pool[c] for c in m):
                return m
    return None


def _hot(meld: tuple[int, ...] | list[int]) -> set[int]:
    """Cards that could be laid off onto this meld, or chained two or three deep."""
    if len({rank(c) for c in meld}) == 1:
        return {16 * s + rank(meld[0]) - 1 for s in range(4)}
    lo, hi = min(meld), max(meld)
    out = set()
    for d in (1, 2, 3):
        if lo - d >= 16 * (lo // 16):
            out.add(lo - d)
        if (hi + d) % 16 < 12 and (hi + d) // 16 == hi // 16:
            out.add(hi + d)
    return out


def _closer(rng: random.Random, pool: Counter, suits: list[int], ranks: list[int],
            rules: Rules) -> list[int] | None:
    mode = rng.random()
    if mode < 0.06:  # a chinchón
        s = rng.choice(suits)
        a = rng.randrange(0, 6)
        closer = [16 * s + r for r in range(a, a + 7)]
        return closer if _take(pool, closer) else None
    if rules.close_limit >= 30 and mode < 0.3:  # anything closes
        closer = rng.sample(list(pool.elements()), 7)
        _take(pool, closer)
        return closer
    closer = []
    for size in rng.choice(((3, 4), (4, 3), (3, 3), (3, 3), (3,), (4,), (5,), (6,))):
        m = _random_meld(rng, pool, suits, ranks, size)
        if m is None or not _take(pool, m):
            break
        closer += m
    while len(closer) < 7:  # low cards, now and then any card
        any_rank = rng.random() < 0.15
        low = [c for c in pool.elements() if any_rank or rank(c) <= 3]
        if not low:
            return None
        c = rng.choice(low)
        _take(pool, [c])
        closer.append(c)
    return closer if len(closer) == 7 else None


def random_deal(rng: random.Random, n_opponents: int, decks: int,
                rules: Rules | None = None) -> tuple[list[int], list[list[int]]]:
    """(the closer's 7 card indices, [each opponent's 7]) of a deal from `decks` decks
    that the closer may close under `rules` (default: Rules())."""
    rules = rules or Rules()
    while True:
        pool = Counter(deck(decks))
        suits = rng.sample(range(4), rng.choice((1, 2, 2, 3, 4)))
        lo = rng.randrange(0, 8)
        ranks = list(range(lo, min(12, lo + rng.choice((3, 4, 5, 6)))))
        closer = _closer(rng, pool, suits, ranks, rules)
        if closer is None:
            continue
        deadwood, _, _, melds, _ = best_plan(closer, [])
        if deadwood <= rules.close_limit:
            break
    # hot: what lays off (or chains) onto a meld on the table; near: the closer's ranks
    # in every suit, and one or two off each of its cards or of the opponent's own
    hot: set[int] = set()
    for m in melds:
        hot |= _hot(m)
    near = {16 * s + rank(c) - 1 for c in closer for s in range(4)}
    near |= {c + d for c in closer for d in (-2, -1, 1, 2) if 0 <= c % 16 + d < 12}
    opponents = []
    for _ in range(n_opponents):
        hand: list[int] = []
        if rng.random() < 0.4:
            m = _random_meld(rng, pool, suits, [r for r in range(lo - 1, lo + 7) if 0 <= r < 12],
                             rng.choice((3, 3, 4, 5)))
            if m and _take(pool, m):
                hand += m
                hot |= _hot(m)
        while len(hand) < 7:
            x = rng.random()
            if x < 0.6:
                choices = sorted(c for c in hot if pool[c])
            elif x < 0.85:
                own = {c + d for c in hand for d in (-1, 1) if 0 <= c % 16 + d < 12}
                choices = sorted(c for c in near | own if pool[c])
            else:
                choices = []
            c = rng.choice(choices or sorted(pool.elements()))
            _take(pool, [c])
            hand.append(c)
        opponents.append(hand)
    return closer, opponents
