"""The pure-Python settlement of a closed hand (docs/rules.md#laying-off, #laying-off-with-jokers), written for clarity.

For each opponent it enumerates every choice of own melds and every lay-off plan onto
the table and keeps the best by the explicit key of docs/rules.md#which-plan-is-reported.

Lay-offs (*tirar cartas*, *colocar*): after a close, each opponent in play order puts
down their own melds and lays off cards onto the melds already on the table -- the
closer's (unless the close was minus ten or joker chinchón) and those of the opponents
before them, as already extended -- a card of the same rank onto a set, a card one rank
beyond either end onto a run of its suit (then the next one may follow: chains).

With jokers: a natural card goes onto a meld holding a joker as onto any other (a
run's joker counts as the rank it stands for, so the natural card it stands for never
joins); a joker goes onto a set without one, or at either end of a run without one,
and the chain may go on past it. A set never grows past its capacity (4 cards per
deck, the joker counted). Jokers on the table never move.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any, Optional, cast

from .._args import cannot_close_error, prepare_settle
from ..cards import HandLike, card_index, lane_of, mask_to_cards, rank_of
from ..results import OUTCOMES, Settlement, build_settlement
from ..rules import RulesArg
from .melds import (
    CandidateMeld,
    SolverView,
    copy_choices,
    arrangement,
    candidate_melds,
    collections_of,
    solver_view,
    outcome_code,
)

__all__ = ["settle", "best_plan"]

# A lay-off as planned: (card bit index, table meld index, the rank a joker stands for
# -- None for a natural card).
Layoff = tuple[int, int, Optional[int]]


class _TableMeld:
    """A meld on the table while the hand is settled: ``cards`` a sorted list of bit
    indices (copies repeated, the joker's included), ``joker`` its joker's bit index and
    ``rank`` the rank it stands for (None without one). A run also keeps its ``suit``
    and the places ``lo``..``hi`` it covers in the run order (its joker's included)."""

    __slots__ = ("kind", "cards", "owner", "open", "joker", "rank", "suit", "lo", "hi")

    def __init__(self, meld: CandidateMeld, owner: int, is_open: bool, view: SolverView) -> None:
        self.kind = meld.kind
        self.cards = sorted(meld.cards)
        self.owner = owner
        self.open = is_open
        self.joker = meld.joker
        self.rank = meld.rank
        if self.kind == "run":
            naturals = [i for i in self.cards if i != self.joker]
            self.suit = lane_of(naturals[0])
            places = [view.position[rank_of(i)] for i in naturals]
            if self.rank is not None:
                places.append(view.position[self.rank])
            self.lo, self.hi = min(places), max(places)

    def set_rank(self) -> int:
        """The rank of a set."""
        if self.rank is not None:
            return self.rank
        return rank_of(self.cards[0])

    def lay(self, card: int, rank: Optional[int], view: SolverView) -> None:
        """Put ``card`` on this meld (a joker standing for ``rank``)."""
        self.cards = sorted([*self.cards, card])
        if rank is not None:
            self.joker, self.rank = card, rank
        if self.kind == "run":
            place = view.position[rank if rank is not None else rank_of(card)]
            self.lo, self.hi = min(self.lo, place), max(self.hi, place)

    def plain(self) -> tuple[Any, ...]:
        return (self.kind, self.cards, self.owner, self.open, self.joker, self.rank)


def _jokers_in(rest: Counter[int], view: SolverView) -> list[int]:
    return [j for j in sorted(rest) if rest[j] > 0 and view.is_joker(j)]


def _set_extensions(meld: _TableMeld, rest: Counter[int],
                    view: SolverView) -> Iterator[list[tuple[int, Optional[int]]]]:
    """Every list of ``(card, joker's rank)`` from ``rest`` that can go onto a table set
    in one turn, in the order applied: natural cards of its rank ascending, then a
    joker if the set holds none -- never past the set's capacity."""
    rank = meld.set_rank()
    room = view.capacity - len(meld.cards)
    same = [i for i in range(rank - 1, 64, 16) if rest[i] > 0 and not view.is_joker(i)]
    jokers = _jokers_in(rest, view) if meld.joker is None else []
    for c in copy_choices(same, rest):
        if len(c) <= room:
            yield [(i, None) for i in c]
        if len(c) < room:
            for j in jokers:
                yield [*((i, None) for i in c), (j, rank)]


def _run_extensions(meld: _TableMeld, rest: Counter[int],
                    view: SolverView) -> Iterator[list[tuple[int, Optional[int]]]]:
    """Every list of ``(card, joker's rank)`` from ``rest`` that can go onto a table run
    in one turn, in the order applied: the places below it outward (descending), then
    those above it outward (ascending). Each place takes its natural card, or -- once,
    when the run holds no joker -- a joker standing for that place's rank."""
    below = list(range(meld.lo - 1, -1, -1))
    above = list(range(meld.hi + 1, len(view.order)))

    def natural(place: int) -> int:
        return view.run_index(meld.suit, place)

    def chain(places: list[int]) -> int:
        """How many of ``places`` in a row the hand's natural cards fill."""
        k = 0
        while k < len(places) and rest[natural(places[k])] > 0 \
                and not view.is_joker(natural(places[k])):  # the wild ace is no ace
            k += 1
        return k

    def filled(places: list[int]) -> list[tuple[int, Optional[int]]]:
        return [(natural(p), None) for p in places]

    kb, ka = chain(below), chain(above)
    for nb in range(kb + 1):
        for na in range(ka + 1):
            yield filled(below[:nb]) + filled(above[:na])
    if meld.joker is not None:
        return
    for j in _jokers_in(rest, view):
        for side, other, k_other, below_first in ((below, above, ka, True),
                                                  (above, below, kb, False)):
            # the joker at side[t]: natural cards before it on that side, maybe after it
            for t in range(min(chain(side), len(side) - 1) + 1):
                joker = [(j, view.order[side[t]])]
                beyond = side[t + 1:]
                for m in range(chain(beyond) + 1):
                    run = filled(side[:t]) + joker + filled(beyond[:m])
                    for n in range(k_other + 1):
                        if below_first:
                            yield run + filled(other[:n])
                        else:
                            yield filled(other[:n]) + run


def _layoff_plans(rest: Counter[int], table: Sequence[_TableMeld], view: SolverView,
                  start: int = 0) -> Iterator[list[Layoff]]:
    """Every legal lay-off plan onto table[start:], as ``(card, table index, joker's
    rank)`` in the order applied. The melds take disjoint parts of ``rest``; a meld's
    extension only depends on its own cards, so per-meld choices combine freely."""
    if start == len(table):
        yield []
        return
    meld = table[start]
    if not meld.open:
        yield from _layoff_plans(rest, table, view, start + 1)
        return
    extensions = _set_extensions if meld.kind == "set" else _run_extensions
    for taken in extensions(meld, rest, view):
        left = rest.copy()
        left.subtract(c for c, _ in taken)
        head = [(c, start, r) for c, r in taken]
        for tail in _layoff_plans(left, table, view, start + 1):
            yield head + tail


def _layoff_key(plan: Sequence[Layoff], table: Sequence[_TableMeld]) -> tuple[Any, ...]:
    """Rule 5 of the plan tie-break: the sorted tuple of ``(card, table index)`` for
    each natural card or joker laid onto a set, ``(card, table index, bit index of the
    card it stands for)`` for a joker laid onto a run."""
    out: list[tuple[int, ...]] = []
    for card, t, rank in plan:
        if rank is not None and table[t].kind == "run":
            out.append((card, t, card_index(rank, table[t].suit)))
        else:
            out.append((card, t))
    return tuple(sorted(out))


def best_plan(hand: Sequence[int], table: Sequence[_TableMeld], view: SolverView) -> tuple[
        list[CandidateMeld], list[Layoff], list[int], int]:
    """An opponent's optimal play onto ``table``: ``(own melds in ascending key order,
    lay-offs in the order applied, unmatched cards ascending, points)``. Exhaustive:
    every collection of own melds times every lay-off plan of the cards left, chosen by
    the key of docs/rules.md#which-plan-is-reported (with an empty table, the choice of ``arrangement``)."""
    points = view.points
    counts = Counter(hand)
    total = sum(points[i] for i in hand)
    best: Any = None
    for own in collections_of(candidate_melds(counts, view), 0, counts):
        own = sorted(own, key=lambda m: m.key)
        rest = counts.copy()
        own_cards = 0
        for m in own:
            rest.subtract(m.cards)
            own_cards += len(m.cards)
        own_points = sum(points[i] for m in own for i in m.cards)
        own_keys = tuple(m.key for m in own)
        for plan in _layoff_plans(rest, table, view):
            laid = sum(points[c] for c, _, _ in plan)
            plan_key = (total - own_points - laid, -own_cards, len(own), own_keys,
                        _layoff_key(plan, table))
            if best is None or plan_key < best[0]:
                best = (plan_key, own, plan, rest)
    _, own, plan, rest = best
    left = rest.copy()
    left.subtract(c for c, _, _ in plan)
    unmatched = sorted(left.elements())
    return own, plan, unmatched, sum(points[i] for i in unmatched)


def settle(closer7: HandLike, opponents: Any, *, decks: Optional[int] = None,
           rules: RulesArg = None) -> Settlement:
    """Settle a closed hand (docs/rules.md#laying-off, #laying-off-with-jokers): the closer's 7 kept cards and the opponents'
    7-card hands in play order (1 to 5). Each opponent melds and lays off optimally
    for themselves given the table the earlier players left; ties by docs/rules.md#which-plan-is-reported.

    ``decks=None``: 2 if a card appears twice across the hands, a ``Hand`` argument
    says two decks or there are 5+ players, else 1. Raises :class:`CannotCloseError`
    when the closer's deadwood is over ``rules.close_limit``, :class:`DuplicateCardError`,
    :class:`InvalidHandError` and :class:`CardCountError` for impossible deals (all are
    ``ValueError``).
    """
    masks, decks, rules = prepare_settle(closer7, opponents, decks, rules)
    hands = [[c.index for c in mask_to_cards(once, twice)] for once, twice in masks]
    view = solver_view(rules.solver, decks)

    closer_melds, closer_unmatched, deadwood = arrangement(hands[0], view)
    code = outcome_code(hands[0], deadwood, view)
    if code == 0:
        raise cannot_close_error(masks[0], deadwood, rules)
    outcome = cast(str, OUTCOMES[code])  # code != 0: never None
    joker_chinchon = rules.joker_chinchon or 0  # code 4 only when it is not None
    closer_points = {1: deadwood, 2: -rules.minus_ten, 3: 0, 4: -joker_chinchon}[code]
    locked = code in (2, 4)  # minus ten and joker chinchón lock the closer's melds

    table = [_TableMeld(m, 0, not locked, view) for m in closer_melds]
    opp_data = []
    for seat, hand in enumerate(hands[1:], start=1):
        if code == 3:  # chinchón ends the game: best own melds, no lay-offs, no points
            own, unmatched, _ = arrangement(hand, view)
            plan: list[Layoff] = []
            points = 0
        else:
            own, plan, unmatched, points = best_plan(hand, table, view)
            for card, t, rank in plan:
                table[t].lay(card, rank, view)
        opp_data.append(([_plain(m) for m in own], [(c, t) for c, t, _ in plan], unmatched,
                         points))
        table.extend(_TableMeld(m, seat, True, view) for m in own)

    return build_settlement(
        outcome,
        ([_plain(m) for m in closer_melds], closer_unmatched, closer_points),
        opp_data,
        [t.plain() for t in table],
        [closer_points] + [o[3] for o in opp_data],
    )


def _plain(m: CandidateMeld) -> tuple[Any, ...]:
    return (m.kind, m.cards, m.joker, m.rank)
