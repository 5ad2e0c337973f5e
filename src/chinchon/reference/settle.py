"""The pure-Python settlement of a closed hand (SPEC §4), written for clarity.

For each opponent it enumerates every choice of own melds and every lay-off plan onto
the table and keeps the best by the explicit key of docs/design.md.

Lay-offs (*tirar cartas*, *colocar*): after a close, each opponent in play order puts
down their own melds and lays off cards onto the melds already on the table -- the
closer's (unless the close was minus ten) and those of the opponents before them, as
already extended -- a card of the same rank onto a set, a card one rank beyond either
end onto a run of its suit (then the next one may follow: chains).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any, Optional, cast

from .._args import cannot_close_error, prepare_settle
from ..cards import HandLike, mask_to_cards
from ..results import OUTCOMES, Settlement, build_settlement
from ..rules import Rules
from .melds import _collections, _copy_choices, _outcome_code, _points, arrange, candidate_melds

__all__ = ["settle", "best_plan"]


class _TableMeld:
    """A meld on the table while the hand is settled: cards as a sorted list of bit
    indices (copies repeated)."""

    __slots__ = ("kind", "cards", "owner", "open")

    def __init__(self, kind: str, cards: Sequence[int], owner: int, is_open: bool) -> None:
        self.kind = kind
        self.cards = sorted(cards)
        self.owner = owner
        self.open = is_open


def _extensions(meld: _TableMeld, rest: Counter[int]) -> Iterator[list[int]]:
    """Every list of cards from ``rest`` that can be laid off onto ``meld`` in one turn,
    in the order they would be applied (docs/design.md): a set takes any multiset of
    cards of its rank (ascending); a run takes k cards chained below its lowest card
    (outward, descending) and m chained above its highest (outward, ascending)."""
    if meld.kind == "set":
        rank = meld.cards[0] % 16
        same = sorted(i for i in rest if rest[i] > 0 and i % 16 == rank)
        yield from _copy_choices(same, rest)
        return
    lo, hi = meld.cards[0], meld.cards[-1]
    below = []
    i = lo - 1
    while i % 16 != 15 and i >= lo - lo % 16 and rest[i] > 0:  # stay inside the suit
        below.append(i)
        i -= 1
    above = []
    i = hi + 1
    while i % 16 < 12 and rest[i] > 0:
        above.append(i)
        i += 1
    for kb in range(len(below) + 1):
        for ka in range(len(above) + 1):
            yield below[:kb] + above[:ka]


def _layoff_plans(rest: Counter[int], table: Sequence[_TableMeld],
                  start: int = 0) -> Iterator[list[tuple[int, int]]]:
    """Every legal lay-off plan onto table[start:], as ``(card, table index)`` pairs in
    the order applied. The melds take disjoint parts of ``rest``; a run's extension
    only depends on its own cards, so per-meld choices combine freely."""
    if start == len(table):
        yield []
        return
    meld = table[start]
    if not meld.open:
        yield from _layoff_plans(rest, table, start + 1)
        return
    for taken in _extensions(meld, rest):
        left = rest.copy()
        left.subtract(taken)
        head = [(c, start) for c in taken]
        for tail in _layoff_plans(left, table, start + 1):
            yield head + tail


def best_plan(hand: Sequence[int], table: Sequence[_TableMeld]) -> tuple[
        list[tuple[str, tuple[int, ...]]], list[tuple[int, int]], list[int], int]:
    """An opponent's optimal play onto ``table``: ``(own melds in ascending key order,
    lay-offs in the order applied, unmatched cards ascending, points)``. Exhaustive:
    every collection of own melds times every lay-off plan of the cards left, chosen
    by the key of docs/design.md (with an empty table, the choice of reference.arrange)."""
    counts = Counter(hand)
    total = sum(_points(i) for i in hand)
    best: Any = None
    for own in _collections(candidate_melds(counts), 0, counts):
        own = sorted(own, key=lambda m: m[1])
        rest = counts.copy()
        own_cards = 0
        for _, key in own:
            rest.subtract(key)
            own_cards += len(key)
        own_points = sum(_points(i) for _, key in own for i in key)
        own_keys = tuple(key for _, key in own)
        for plan in _layoff_plans(rest, table):
            laid = sum(_points(c) for c, _ in plan)
            plan_key = (total - own_points - laid, -own_cards, len(own), own_keys,
                        tuple(sorted(plan)))
            if best is None or plan_key < best[0]:
                best = (plan_key, own, plan, rest)
    _, own, plan, rest = best
    left = rest.copy()
    left.subtract(c for c, _ in plan)
    unmatched = sorted(left.elements())
    return own, plan, unmatched, sum(_points(i) for i in unmatched)


def settle(closer7: HandLike, opponents: Any, *, decks: Optional[int] = None,
           rules: Optional[Rules] = None) -> Settlement:
    """Settle a closed hand (SPEC §4): the closer's 7 kept cards and the opponents'
    7-card hands in play order (1 to 5). Each opponent melds and lays off optimally
    for themselves given the table the earlier players left; ties by docs/design.md.

    ``decks=None``: 2 if a card appears twice across the hands or there are 5+
    players, else 1. Raises :class:`CannotCloseError` when the closer's deadwood is over
    ``rules.close_limit``, :class:`DuplicateCardError`, :class:`InvalidHandError` and
    :class:`CardCountError` for impossible deals (all are ``ValueError``).
    """
    masks, decks, rules = prepare_settle(closer7, opponents, decks, rules)
    hands = [[c.index for c in mask_to_cards(once, twice)] for once, twice in masks]

    closer_melds, closer_unmatched, deadwood = arrange(hands[0])
    code = _outcome_code(hands[0], deadwood, rules)
    if code == 0:
        raise cannot_close_error(masks[0], deadwood, rules)
    outcome = cast(str, OUTCOMES[code])  # code != 0: never None
    closer_points = {1: deadwood, 2: -rules.minus_ten, 3: 0}[code]

    table = [_TableMeld(kind, key, 0, code != 2) for kind, key in closer_melds]
    opp_data = []
    for seat, hand in enumerate(hands[1:], start=1):
        if code == 3:  # chinchón ends the game: best own melds, no lay-offs, no points
            own, unmatched, _ = arrange(hand)
            plan: list[tuple[int, int]] = []
            points = 0
        else:
            own, plan, unmatched, points = best_plan(hand, table)
            for card, t in plan:
                table[t].cards = sorted([*table[t].cards, card])
        opp_data.append((own, plan, unmatched, points))
        table.extend(_TableMeld(kind, key, seat, True) for kind, key in own)

    return build_settlement(
        outcome,
        (closer_melds, closer_unmatched, closer_points),
        opp_data,
        [(t.kind, t.cards, t.owner, t.open) for t in table],
        [closer_points] + [o[3] for o in opp_data],
    )
