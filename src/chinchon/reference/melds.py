"""The pure-Python meld search: deadwood, arrangements, hints and the batch calls.

Written for clarity, independent of the C core's bit tricks: it enumerates every meld
and every way of combining them, and picks the best by the explicit keys of
docs/rules.md#which-arrangement-is-reported.

Under every rule set of docs/rules.md#rule-variants: the 40-card deck (the jack follows the seven
in a run), other point tables, and jokers -- the extra ``*1``/``*2`` and the ace of
coins under ``wild_ace_of_coins``. A meld holds at most one joker and at least two
natural cards, so a candidate meld is a set or a run of natural cards, or one of those
short of one card plus a joker standing for it. A hand of at most 8 cards holds at most
two disjoint melds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any, NamedTuple, Optional

import numpy as np

from .._args import check_rules, check_threads, hand_for, normalize_batch, row_error, row_status
from ..cards import (CARD_AT, Card, Hand, HandLike, card_index, coerce_cards, lane_of,
                     mask_to_cards, rank_of)
from ..results import OUTCOMES, Arrangement, Hint, Meld
from ..rules import HOUSE_RULES, Rules, RulesArg, SolverRules

__all__ = [
    "deadwood",
    "best_melds",
    "discard_hints",
    "close_outcome",
    "deadwood_batch",
    "hints_batch",
    "candidate_melds",
    "arrange",
    "arrangement",
]

# A meld's tie-break key (docs/rules.md#which-arrangement-is-reported): the natural cards' bit indices ascending
# (copies repeated); with a joker, then 64 + the joker's bit and, in a run, the bit index
# of the card it stands for.
MeldKey = tuple[int, ...]


class CandidateMeld(NamedTuple):
    """A meld the hand can form: ``key`` its tie-break key, ``cards`` the bit indices it
    takes from the hand (ascending, the joker's included), ``joker`` the joker's bit
    index and ``rank`` the rank that joker stands for (both None without a joker)."""

    kind: str
    key: MeldKey
    cards: tuple[int, ...]
    joker: Optional[int]
    rank: Optional[int]


class SolverView:
    """What the solver needs of one rule set and number of decks, worked out once:
    each card's points, which bits are jokers, the run order of the ranks and the set
    capacity (4 cards per deck, a joker counted)."""

    __slots__ = ("rules", "decks", "points", "jokers", "order", "position", "capacity",
                 "of_rank", "of_suit")

    def __init__(self, rules: SolverRules, decks: int) -> None:
        self.rules = rules
        self.decks = decks
        self.points = rules.bit_points
        self.jokers = rules.joker_mask
        self.order = rules.rank_order            # ranks in run order
        self.position = {r: p for p, r in enumerate(self.order)}  # rank -> place in a run
        self.capacity = 4 * decks
        # bit indices of each rank's cards (rank, (o, c, e, b)), of each suit in run order
        self.of_rank = tuple((r, tuple(range(r - 1, 64, 16))) for r in self.order)
        self.of_suit = tuple(tuple(card_index(r, s) for r in self.order) for s in range(4))

    def is_joker(self, index: int) -> bool:
        return bool(self.jokers >> index & 1)

    def run_index(self, suit: int, position: int) -> int:
        """Bit index of the card of ``suit`` at ``position`` of the run order."""
        return card_index(self.order[position], suit)


@lru_cache(maxsize=256)
def solver_view(rules: SolverRules, decks: int) -> SolverView:
    """The :class:`Deck` of a rule set (its solver view) and number of decks."""
    return SolverView(rules, decks)


def copy_choices(cards: Sequence[int], counts: Counter[int]) -> list[list[int]]:
    """Every choice of 0..counts[i] copies of each card i of ``cards`` (distinct,
    ascending), each an ascending list; the empty choice first."""
    choices: list[list[int]] = [[]]
    for idx in cards:
        choices = [c + [idx] * k for c in choices for k in range(counts[idx] + 1)]
    return choices


def candidate_melds(counts: Counter[int], view: Optional[SolverView] = None) -> list[CandidateMeld]:
    """Every meld that can be formed from a multiset of card indices (``deck``: the
    rules and decks; default the house rules, one deck).

    Sets: every multiset of >= 3 natural cards of one rank (two copies of a card
    allowed), and every multiset of >= 2 of them plus one joker, up to the set capacity.
    Runs: every segment of >= 3 consecutive ranks (in the deck's run order) of one suit,
    one copy of each card: all natural, or all natural but one place, where a joker
    stands (inside the run or at either end; the natural card of that place may be held
    too, for another meld).
    """
    if view is None:
        view = solver_view(HOUSE_RULES.solver, 1)
    jm = view.jokers
    held = {i for i, k in counts.items() if k > 0 and not jm >> i & 1}  # natural cards
    jokers = sorted(i for i, k in counts.items() if k > 0 and jm >> i & 1)
    fewest = 2 if jokers else 3  # natural cards a meld needs
    melds: list[CandidateMeld] = []
    for rank, of_rank in view.of_rank:
        cards = [i for i in of_rank if i in held]
        if sum(counts[i] for i in cards) < fewest:
            continue
        for c in copy_choices(cards, counts):
            if len(c) >= 3:
                melds.append(CandidateMeld("set", tuple(c), tuple(c), None, None))
            if jokers and len(c) >= 2 and len(c) + 1 <= view.capacity:
                for j in jokers:
                    melds.append(CandidateMeld("set", (*c, 64 + j), tuple(sorted((*c, j))),
                                               j, rank))
    n = len(view.order)
    for idx in view.of_suit:
        has = [i in held for i in idx]
        if sum(has) < fewest:
            continue
        for lo in range(n - 2):
            gap = -1  # the one place of the segment the hand lacks, if any
            for hi in range(lo, n):
                if not has[hi]:
                    if gap >= 0 or not jokers:
                        break
                    gap = hi
                if hi - lo < 2:
                    continue
                seg = idx[lo:hi + 1]
                if gap < 0:
                    melds.append(CandidateMeld("run", tuple(seg), tuple(seg), None, None))
                for p in ([gap] if gap >= 0 else range(lo, hi + 1)) if jokers else ():
                    naturals = tuple(i for q, i in enumerate(seg, start=lo) if q != p)
                    for j in jokers:
                        melds.append(CandidateMeld(
                            "run", (*naturals, 64 + j, idx[p]), tuple(sorted((*naturals, j))),
                            j, view.order[p]))
    return melds


def _fits(cards: Sequence[int], counts: Counter[int]) -> bool:
    need = Counter(cards)
    return all(counts[i] >= k for i, k in need.items())


def collections_of(melds: Sequence[CandidateMeld], start: int,
                   counts: Counter[int]) -> Iterable[list[CandidateMeld]]:
    """Every collection of melds (from melds[start:], a meld possibly more than once:
    two decks can hold two identical runs) that fits in ``counts``."""
    yield []
    for i in range(start, len(melds)):
        meld = melds[i]
        if _fits(meld.cards, counts):
            rest = counts.copy()
            rest.subtract(meld.cards)
            for tail in collections_of(melds, i, rest):
                yield [meld, *tail]


def arrangement(indices: Sequence[int], view: Optional[SolverView] = None
                ) -> tuple[list[CandidateMeld], list[int], int]:
    """The optimal arrangement of a multiset of card indices by the documented
    tie-break: ``(melds in ascending key order, unmatched indices ascending, points)``.

    The key, smallest first: the points left unmatched; more cards melded (jokers
    counted); fewer melds; the tuple of meld keys in ascending order."""
    if view is None:
        view = solver_view(HOUSE_RULES.solver, 1)
    points = view.points
    counts = Counter(indices)
    total = sum(points[i] for i in indices)

    def key(chosen: list[CandidateMeld]) -> tuple[Any, ...]:
        melded = [i for m in chosen for i in m.cards]
        return (total - sum(points[i] for i in melded), -len(melded), len(chosen),
                tuple(sorted(m.key for m in chosen)))

    best = min(collections_of(candidate_melds(counts, view), 0, counts), key=key)
    best = sorted(best, key=lambda m: m.key)
    left = counts.copy()
    for m in best:
        left.subtract(m.cards)
    unmatched = sorted(left.elements())
    return best, unmatched, sum(points[i] for i in unmatched)


def arrange(indices: Sequence[int], rules: Optional[Rules] = None, decks: int = 1
            ) -> tuple[list[tuple[str, tuple[int, ...]]], list[int], int]:
    """:func:`arrangement` with each meld as ``(kind, cards)`` (bit indices, a joker's
    included): ``(melds, unmatched, points)``."""
    view = solver_view(check_rules(rules).solver, decks)
    melds, unmatched, points = arrangement(indices, view)
    return [(m.kind, m.cards) for m in melds], unmatched, points


def _indices(hand: Hand) -> list[int]:
    return [c.index for c in hand]


def _cards(key: Iterable[int]) -> tuple[Any, ...]:
    return tuple(CARD_AT[i] for i in key)


def to_meld(m: CandidateMeld) -> Meld:
    """The public :class:`Meld` of a candidate."""
    return Meld(m.kind, _cards(m.cards), None if m.joker is None else CARD_AT[m.joker], m.rank)


def deadwood(hand: HandLike, *, decks: Optional[int] = None,
             rules: RulesArg = None) -> int:
    """Optimal deadwood (points left in no meld) of a hand of at most 8 cards."""
    rules = check_rules(rules)
    h = hand_for(hand, decks, rules, max_cards=8)
    return arrangement(_indices(h), solver_view(rules.solver, h.decks))[2]


def best_melds(hand: HandLike, *, decks: Optional[int] = None,
               rules: RulesArg = None) -> Arrangement:
    """An optimal arrangement of a hand of at most 8 cards (docs/rules.md#which-arrangement-is-reported tie-break);
    each meld says which card is its joker and what it stands for."""
    rules = check_rules(rules)
    h = hand_for(hand, decks, rules, max_cards=8)
    melds, unmatched, points = arrangement(_indices(h), solver_view(rules.solver, h.decks))
    return Arrangement(tuple(to_meld(m) for m in melds), _cards(unmatched), points)


def outcome_code(indices: Sequence[int], points: int, view: SolverView) -> int:
    """cc_outcome of closing with these cards (deadwood ``points``): 0 cannot, 1 normal,
    2 minus_ten, 3 chinchon, 4 joker_chinchon -- in docs/rules.md#jokers-in-melds order."""
    rules = view.rules
    if points > rules.close_limit:
        return 0
    if points == 0 and len(indices) == 7:
        jokers = [i for i in indices if view.is_joker(i)]
        naturals = [i for i in indices if not view.is_joker(i)]
        if len({lane_of(i) for i in naturals}) == 1 and len(set(naturals)) == len(naturals):
            places = sorted(view.position[rank_of(i)] for i in naturals)
            span = places[-1] - places[0]
            if not jokers and span == 6 and rules.seven_run_wins:
                return 3  # chinchón: seven natural cards in a run
            if len(jokers) == 1 and span <= 6 and rules.joker_chinchon is not None:
                return 4  # six in a run and a joker for the seventh place
    return 2 if points == 0 else 1


def close_outcome(hand: HandLike, *, decks: Optional[int] = None,
                  rules: RulesArg = None) -> Optional[str]:
    """What closing with these 7 cards would be: None (not allowed), 'normal',
    'minus_ten', 'chinchon' or 'joker_chinchon'."""
    rules = check_rules(rules)
    h = hand_for(hand, decks, rules, exact=7)
    idx = _indices(h)
    view = solver_view(rules.solver, h.decks)
    return OUTCOMES[outcome_code(idx, arrangement(idx, view)[2], view)]


def discard_hints(hand8: HandLike, *, decks: Optional[int] = None,
                  rules: RulesArg = None) -> list[Hint]:
    """One Hint per card held: the deadwood of the 7 cards left if it is discarded and
    whether (and how) those 7 could close. Cards in the order given (a Hand: ascending).
    A joker is listed like any card."""
    rules = check_rules(rules)
    order: list[Card] = coerce_cards(hand8)
    h = hand_for(hand8 if isinstance(hand8, Hand) else order, decks, rules, exact=8)
    view = solver_view(rules.solver, h.decks)
    hints = []
    for pos, card in enumerate(order):
        rest = [c.index for c in order[:pos] + order[pos + 1 :]]
        points = arrangement(rest, view)[2]
        code = outcome_code(rest, points, view)
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


def deadwood_batch(masks: Any, *, threads: Optional[int] = None,
                   rules: RulesArg = None) -> np.ndarray:
    """Deadwood of each row (0-8 cards) of a batch in the public encoding:
    shape (n,) single deck, (n, 2) double deck. Returns shape (n,) of dtype
    ``rules.solver.score_dtype``: uint8 while every score the rules allow fits a byte
    (every preset), uint16 when jokers worth over 31 could pass 255."""
    rules = check_rules(rules)
    check_threads(threads)
    arr, decks = normalize_batch(masks)
    view = solver_view(rules.solver, decks)
    out = np.empty(arr.shape[0], dtype=rules.solver.score_dtype)
    for row, (once, twice) in enumerate(_rows(arr, decks)):
        status = row_status(once, twice, None, rules)
        if status != "CC_OK":
            raise row_error(status, row, once)
        out[row] = arrangement([c.index for c in mask_to_cards(once, twice)], view)[2]
    return out


def hints_batch(masks: Any, *, threads: Optional[int] = None,
                rules: RulesArg = None) -> np.ndarray:
    """For each 8-card row: the deadwood after discarding each held card, in ascending
    card order (a double-deck copy listed twice). Returns shape (n, 8) of dtype
    ``rules.solver.score_dtype`` (see :func:`deadwood_batch`)."""
    rules = check_rules(rules)
    check_threads(threads)
    arr, decks = normalize_batch(masks)
    view = solver_view(rules.solver, decks)
    out = np.empty((arr.shape[0], 8), dtype=rules.solver.score_dtype)
    for row, (once, twice) in enumerate(_rows(arr, decks)):
        status = row_status(once, twice, 8, rules)
        if status != "CC_OK":
            raise row_error(status, row, once)
        idx = [c.index for c in mask_to_cards(once, twice)]
        for pos in range(8):
            out[row, pos] = arrangement(idx[:pos] + idx[pos + 1 :], view)[2]
    return out
