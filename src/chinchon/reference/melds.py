"""The pure-Python meld search: deadwood, arrangements, hints and the batch calls.

Written for clarity, independent of the C core's bit tricks: it enumerates every meld
and every way of combining them, and picks the best by the explicit keys of
docs/design.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, Optional

import numpy as np

from .._args import check_rules, check_threads, normalize_batch, row_error, row_status
from ..cards import CARD_AT, Hand, HandLike, as_hand, coerce_cards, mask_to_cards
from ..results import OUTCOMES, Arrangement, Hint, Meld
from ..rules import Rules

__all__ = [
    "deadwood",
    "best_melds",
    "discard_hints",
    "close_outcome",
    "deadwood_batch",
    "hints_batch",
    "candidate_melds",
    "arrange",
]

# A meld is held here as a sorted tuple of card indices (copies repeated): its key.
MeldKey = tuple[int, ...]


def _rank(index: int) -> int:
    return index % 16 + 1


def _suit(index: int) -> int:
    return index // 16


def _points(index: int) -> int:
    return _rank(index)


def _copy_choices(cards: Sequence[int], counts: Counter[int]) -> list[list[int]]:
    """Every choice of 0..counts[i] copies of each card i of ``cards`` (distinct,
    ascending), each an ascending list; the empty choice first."""
    choices: list[list[int]] = [[]]
    for idx in cards:
        choices = [c + [idx] * k for c in choices for k in range(counts[idx] + 1)]
    return choices


def candidate_melds(counts: Counter[int]) -> list[tuple[str, MeldKey]]:
    """Every meld that can be formed from a multiset of card indices.

    Sets: every multiset of >= 3 cards of one rank that the hand holds (two copies of
    a card allowed). Runs: every segment of >= 3 consecutive ranks of one suit that the
    hand holds, one copy of each card.
    """
    melds: list[tuple[str, MeldKey]] = []
    for rank in range(1, 13):
        cards = [(16 * s + rank - 1) for s in range(4) if counts[16 * s + rank - 1]]
        # every choice of 0..count copies of each card of this rank
        for c in _copy_choices(cards, counts):
            if len(c) >= 3:
                melds.append(("set", tuple(sorted(c))))
    for suit in range(4):
        for lo in range(1, 11):
            hi = lo
            while hi <= 12 and counts[16 * suit + hi - 1]:
                if hi - lo + 1 >= 3:
                    melds.append(("run", tuple(16 * suit + r - 1 for r in range(lo, hi + 1))))
                hi += 1
    return melds


def _fits(meld: MeldKey, counts: Counter[int]) -> bool:
    need = Counter(meld)
    return all(counts[i] >= k for i, k in need.items())


def _collections(
    melds: Sequence[tuple[str, MeldKey]], start: int, counts: Counter[int]
) -> Iterable[list[tuple[str, MeldKey]]]:
    """Every collection of melds (from melds[start:], a meld possibly more than once:
    two decks can hold two identical runs) that fits in ``counts``."""
    yield []
    for i in range(start, len(melds)):
        kind, key = melds[i]
        if _fits(key, counts):
            rest = counts.copy()
            rest.subtract(key)
            for tail in _collections(melds, i, rest):
                yield [(kind, key), *tail]


def _arrangement_key(chosen: list[tuple[str, MeldKey]], total: int) -> tuple[Any, ...]:
    melded = [i for _, key in chosen for i in key]
    points = total - sum(_points(i) for i in melded)
    return (points, -len(melded), len(chosen), tuple(sorted(key for _, key in chosen)))


def arrange(indices: Sequence[int]) -> tuple[list[tuple[str, MeldKey]], list[int], int]:
    """The optimal arrangement of a multiset of card indices by the documented
    tie-break: ``(melds in ascending key order, unmatched indices ascending, points)``."""
    counts = Counter(indices)
    total = sum(_points(i) for i in indices)
    melds = candidate_melds(counts)
    best = min(_collections(melds, 0, counts), key=lambda ch: _arrangement_key(ch, total))
    best = sorted(best, key=lambda m: m[1])
    left = counts.copy()
    for _, key in best:
        left.subtract(key)
    unmatched = sorted(left.elements())
    return best, unmatched, sum(_points(i) for i in unmatched)


def _indices(hand: Hand) -> list[int]:
    return [c.index for c in hand]


def _cards(key: Iterable[int]) -> tuple[Any, ...]:
    return tuple(CARD_AT[i] for i in key)


def _to_meld(kind: str, key: MeldKey) -> Meld:
    return Meld(kind, _cards(key))


def deadwood(hand: HandLike, *, decks: Optional[int] = None) -> int:
    """Optimal deadwood (points left in no meld) of a hand of at most 8 cards."""
    h = as_hand(hand, decks, max_cards=8)
    return arrange(_indices(h))[2]


def best_melds(hand: HandLike, *, decks: Optional[int] = None) -> Arrangement:
    """An optimal arrangement of a hand of at most 8 cards (docs/design.md tie-break)."""
    h = as_hand(hand, decks, max_cards=8)
    melds, unmatched, points = arrange(_indices(h))
    return Arrangement(
        tuple(_to_meld(k, key) for k, key in melds),
        _cards(unmatched),
        points,
    )


def _outcome_code(indices: Sequence[int], points: int, rules: Rules) -> int:
    """cc_outcome of closing with these 7 cards: 0 cannot, 1 normal, 2 minus_ten, 3 chinchon."""
    if points > rules.close_limit:
        return 0
    if points == 0:
        ranks = sorted(_rank(i) for i in indices)
        one_suit = len({_suit(i) for i in indices}) == 1
        if len(indices) == 7 and one_suit and ranks == list(range(ranks[0], ranks[0] + 7)):
            return 3
        return 2
    return 1


def close_outcome(hand: HandLike, *, decks: Optional[int] = None,
                  rules: Optional[Rules] = None) -> Optional[str]:
    """What closing with these 7 cards would be: None (not allowed), 'normal',
    'minus_ten' or 'chinchon'."""
    rules = check_rules(rules)
    h = as_hand(hand, decks, exact=7)
    idx = _indices(h)
    return OUTCOMES[_outcome_code(idx, arrange(idx)[2], rules)]


def discard_hints(hand8: HandLike, *, decks: Optional[int] = None,
                  rules: Optional[Rules] = None) -> list[Hint]:
    """One Hint per card held: the deadwood of the 7 cards left if it is discarded and
    whether (and how) those 7 could close. Cards in the order given (a Hand: ascending)."""
    rules = check_rules(rules)
    order = coerce_cards(hand8)
    as_hand(hand8 if isinstance(hand8, Hand) else order, decks, exact=8)  # validates
    hints = []
    for pos, card in enumerate(order):
        rest = [c.index for c in order[:pos] + order[pos + 1 :]]
        points = arrange(rest)[2]
        code = _outcome_code(rest, points, rules)
        hints.append(Hint(card, points, code != 0, OUTCOMES[code]))
    return hints


# ---------------------------------------------------------------- batch API


def _rows(arr: np.ndarray, decks: int) -> Iterable[tuple[int, int]]:
    if decks == 1:
        for m in arr.tolist():
            yield m, 0
    else:
        for once, twice in arr.tolist():
            yield once, twice


def deadwood_batch(masks: Any, *, threads: Optional[int] = None) -> np.ndarray:
    """Deadwood of each row (0-8 cards) of a batch in the public encoding:
    shape (n,) single deck, (n, 2) double deck. Returns uint8 of shape (n,)."""
    check_threads(threads)
    arr, decks = normalize_batch(masks)
    out = np.empty(arr.shape[0], dtype=np.uint8)
    for row, (once, twice) in enumerate(_rows(arr, decks)):
        status = row_status(once, twice, None)
        if status != "CC_OK":
            raise row_error(status, row)
        out[row] = arrange([c.index for c in mask_to_cards(once, twice)])[2]
    return out


def hints_batch(masks: Any, *, threads: Optional[int] = None) -> np.ndarray:
    """For each 8-card row: the deadwood after discarding each held card, in ascending
    card order (a double-deck copy listed twice). Returns uint8 of shape (n, 8)."""
    check_threads(threads)
    arr, decks = normalize_batch(masks)
    out = np.empty((arr.shape[0], 8), dtype=np.uint8)
    for row, (once, twice) in enumerate(_rows(arr, decks)):
        status = row_status(once, twice, 8)
        if status != "CC_OK":
            raise row_error(status, row)
        idx = [c.index for c in mask_to_cards(once, twice)]
        for pos in range(8):
            out[row, pos] = arrange(idx[:pos] + idx[pos + 1 :])[2]
    return out
