"""Random hands and deals under the rule variants, rich in jokers and melds.

Uniform hands rarely hold a joker next to the cards it could join, so the generators
here deal jokers often and draw the natural cards from a narrow window of places in
the run order (most of the time), which makes runs, gaps and sets frequent.
"""

from __future__ import annotations

import random
from collections import Counter

from chinchon import Rules, full_deck, reference


def pool_of(rules: Rules, decks: int) -> Counter[int]:
    """Every card of the rules' deck(s), as a multiset of bit indices."""
    return Counter(c.index for c in full_deck(decks, rules=rules))


def _draw(rng: random.Random, pool: Counter[int], rules: Rules, n: int,
          jokers_wanted: int) -> list[int]:
    jm = rules.solver.joker_mask
    order = rules.solver.rank_order
    out: list[int] = []
    jokers = sorted(pool[i] * [i] for i in pool if jm >> i & 1 and pool[i])
    flat = [i for group in jokers for i in group]
    rng.shuffle(flat)
    for j in flat[:min(jokers_wanted, n)]:
        out.append(j)
        pool[j] -= 1
    if rng.random() < 0.75:
        w = rng.randrange(len(order) - 3)
        ranks = set(order[w:w + rng.choice((4, 5, 6))])
    else:
        ranks = set(order)
    naturals = [i for i in sorted(pool) if not jm >> i & 1 and i % 16 + 1 in ranks
                for _ in range(pool[i])]
    rng.shuffle(naturals)
    for i in naturals:
        if len(out) == n:
            break
        out.append(i)
        pool[i] -= 1
    everything = [i for i in sorted(pool) for _ in range(pool[i])]
    rng.shuffle(everything)
    for i in everything:  # a narrow window may run short
        if len(out) == n:
            break
        out.append(i)
        pool[i] -= 1
    return out


def random_hand(rng: random.Random, rules: Rules, decks: int, n: int) -> list[int]:
    """``n`` cards of the rules' deck(s), often with jokers, often meld-rich."""
    return _draw(rng, pool_of(rules, decks), rules, n, rng.choice((0, 1, 1, 2, 2, 3)))


def random_deal(rng: random.Random, rules: Rules, decks: int, n_opponents: int
                ) -> tuple[list[int], list[list[int]]]:
    """(closer's 7, [opponents' 7]) from one pool; the closer can close."""
    deck = reference.melds.solver_view(rules.solver, decks)
    while True:
        pool = pool_of(rules, decks)
        closer = _draw(rng, pool, rules, 7, rng.choice((0, 1, 1, 2)))
        points = reference.melds.arrangement(closer, deck)[2]
        if points <= rules.close_limit:
            break
    opponents = [_draw(rng, pool, rules, 7, rng.choice((0, 0, 1, 1, 2)))
                 for _ in range(n_opponents)]
    return closer, opponents
