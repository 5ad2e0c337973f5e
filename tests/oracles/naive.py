"""An obviously-correct brute force, independent of both implementations.

It tries every subset of the hand as "the melded cards" and checks whether that subset
splits into valid melds, taking the lowest card first. Slow, and only for tests.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import combinations


def rank(i: int) -> int:
    """1..12 of a card index (16*suit + rank-1)."""
    return i % 16 + 1


def suit(i: int) -> int:
    """0..3 of a card index."""
    return i // 16


def meld_kind(cards) -> str | None:
    """'set', 'run' or None for card indices in any order, copies repeated (docs/rules.md#melds-and-deadwood)."""
    if len(cards) < 3:
        return None
    ranks = [rank(c) for c in cards]
    if len(set(ranks)) == 1:
        return "set"  # a set; copies allowed
    if len({suit(c) for c in cards}) == 1 and len(set(ranks)) == len(ranks):
        if max(ranks) - min(ranks) == len(ranks) - 1:
            return "run"
    return None


def is_meld(cards: tuple[int, ...]) -> bool:
    """cards: card indices (16*suit + rank-1), copies repeated."""
    return meld_kind(cards) is not None


@lru_cache(maxsize=None)
def splits_into_melds(cards: tuple[int, ...]) -> bool:
    """Can this sorted multiset be partitioned into melds?"""
    if not cards:
        return True
    first, rest = cards[0], cards[1:]
    for k in range(2, len(rest) + 1):
        for others in set(combinations(rest, k)):
            group = (first, *others)
            if is_meld(group):
                left = list(rest)
                for o in others:
                    left.remove(o)
                if splits_into_melds(tuple(left)):
                    return True
    return False


def naive_deadwood(cards: list[int]) -> int:
    best = sum(rank(c) for c in cards)
    n = len(cards)
    for mask in range(1, 1 << n):
        melded = tuple(sorted(cards[i] for i in range(n) if mask >> i & 1))
        left = sum(rank(cards[i]) for i in range(n) if not mask >> i & 1)
        if left < best and splits_into_melds(melded):
            best = left
    return best


def naive_valid_arrangement(cards: list[int], melds: list[tuple[int, ...]],
                            unmatched: list[int]) -> bool:
    """The melds are valid, disjoint, and with the unmatched cards make up the hand."""
    used = Counter(unmatched)
    for m in melds:
        if not is_meld(m):
            return False
        used.update(m)
    return used == Counter(cards)
