"""Settlement of a closed hand (SPEC §4): who melds what, who lays off what where.

This module holds what both implementations share -- the validation and coercion of
the arguments of ``settle`` and the construction of the :class:`Settlement` -- and the
pure-Python reference ``settle`` (exported by :mod:`chinchon.reference`), written for
clarity: for each opponent it enumerates every choice of own melds and every lay-off
plan onto the table and keeps the best by the explicit key of docs/design.md.

Lay-offs (*tirar cartas*, *colocar*): after a close, each opponent in play order puts
down their own melds and lays off cards onto the melds already on the table -- the
closer's (unless the close was minus ten) and those of the opponents before them, as
already extended -- a card of the same rank onto a set, a card one rank beyond either
end onto a run of its suit (then the next one may follow: chains).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Optional, cast

from .cards import Card, Hand, HandLike, coerce_cards, mask_to_cards
from .errors import (
    CannotCloseError,
    CardCountError,
    ChinchonError,
    DuplicateCardError,
    InvalidHandError,
)
from .results import OUTCOMES, CloserResult, Meld, OpponentResult, Settlement, TableMeld
from .rules import HOUSE_RULES, Rules

__all__ = ["settle", "prepare", "MAX_OPPONENTS", "seat_name", "cannot_close_error",
           "build_settlement"]

MAX_OPPONENTS = 5
HAND_CARDS = 7

# bit index -> Card (None in the unused bits 12-15 of each lane)
_CARD_AT: tuple[Optional[Card], ...] = tuple(
    Card(i % 16 + 1, "oceb"[i // 16]) if i % 16 < 12 else None for i in range(64)
)


def seat_name(seat: int) -> str:
    """How messages name a hand: seat 0 is the closer, k the k-th opponent."""
    return "the closer's hand" if seat == 0 else f"opponent {seat}'s hand"


def _holders(card_bit: int, masks: Sequence[tuple[int, int]]) -> str:
    names = []
    for seat, (once, twice) in enumerate(masks):
        if once & card_bit:
            name = "the closer" if seat == 0 else f"opponent {seat}"
            names.append(name + (" (twice)" if twice & card_bit else ""))
    return ", ".join(names)


def _hand_masks(obj: HandLike, seat: int) -> tuple[int, int, bool]:
    """``(once, twice, says_two_decks)`` of one seat's 7 cards; raises naming the hand."""
    if isinstance(obj, Hand):
        once, twice, n = obj.once, obj.twice, len(obj)
        two = obj.decks == 2
    else:
        try:
            cards = coerce_cards(obj)
        except ChinchonError as exc:
            raise type(exc)(f"{seat_name(seat)}: {exc}") from None
        once = twice = n = 0
        for c in cards:
            b = 1 << c.index
            if twice & b:
                raise InvalidHandError(
                    f"card {c} appears three times in {seat_name(seat)}; at most two decks "
                    "are in play"
                )
            if once & b:
                twice |= b
            else:
                once |= b
            n += 1
        two = False
    if n != HAND_CARDS:
        text = " ".join(str(c) for c in mask_to_cards(once, twice)) or "(no cards)"
        raise CardCountError(f"{seat_name(seat)} must hold 7 cards, got {n}: {text}")
    return once, twice, two


def prepare(closer7: HandLike, opponents: Any, decks: Optional[int],
            rules: Optional[Rules]) -> tuple[list[tuple[int, int]], int, Rules]:
    """Validate and coerce the arguments of ``settle`` (shared by both implementations).

    Returns ``(masks, decks, rules)``: ``masks[0]`` is the closer's ``(once, twice)``,
    then one per opponent in play order. Raises, in this order: a bad ``rules`` or
    ``decks`` or number of opponents (:class:`ChinchonError`); card text that does not
    parse, or a hand that is not 7 cards (:class:`CardCountError`), hand by hand from the
    closer on; a card in play three times (:class:`InvalidHandError`); a card held twice
    in single-deck play (:class:`DuplicateCardError`). Whether the closer may close is
    checked by the solver (:func:`cannot_close_error`).
    """
    if rules is None:
        rules = HOUSE_RULES
    elif not isinstance(rules, Rules):
        raise ChinchonError(f"rules must be a chinchon.Rules, got {type(rules).__name__}")
    if decks is not None and (isinstance(decks, bool) or decks not in (1, 2)):
        raise ChinchonError(f"decks must be 1, 2 or None, got {decks!r}")
    if isinstance(opponents, (str, Hand)):
        opponents = [opponents]  # one opponent's hand passed on its own
    try:
        opponents = list(opponents)
    except TypeError:
        raise ChinchonError(
            f"opponents must be a list of hands, got {type(opponents).__name__}"
        ) from None
    if not 1 <= len(opponents) <= MAX_OPPONENTS:
        raise ChinchonError(
            f"settle takes 1 to {MAX_OPPONENTS} opponents, got {len(opponents)}"
        )
    masks = []
    says_two = False
    for seat, obj in enumerate([closer7, *opponents]):
        once, twice, two = _hand_masks(obj, seat)
        masks.append((once, twice))
        says_two = says_two or two
    # a card in play three times, across all hands
    acc_once = acc_twice = 0
    for once, twice in masks:
        three = (acc_twice & once) | (acc_once & twice)
        if three:
            bit = three & -three
            card = _CARD_AT[bit.bit_length() - 1]
            raise InvalidHandError(
                f"card {card} is in play three times ({_holders(bit, masks)}); "
                "at most two decks are in play"
            )
        acc_twice |= (acc_once & once) | twice
        acc_once |= once
    if decks is None:
        decks = 2 if (acc_twice or says_two or len(opponents) >= 4) else 1
    if decks == 1 and acc_twice:
        bit = acc_twice & -acc_twice
        card = _CARD_AT[bit.bit_length() - 1]
        raise DuplicateCardError(
            f"card {card} is held twice in single-deck play ({_holders(bit, masks)})"
        )
    return masks, int(decks), rules


def cannot_close_error(closer: tuple[int, int], deadwood: int, rules: Rules) -> CannotCloseError:
    """The error for a closer over the close limit (same text in both implementations)."""
    text = " ".join(str(c) for c in mask_to_cards(*closer))
    return CannotCloseError(
        f"the closer cannot close: {text} has deadwood {deadwood}, over the close limit "
        f"{rules.close_limit}"
    )


# --------------------------------------------------------------- building the result

# Plain data handed to build_settlement (both implementations produce it):
#   meld    = (kind, key)                 kind 'set'/'run', key = ascending bit indices
#   closer  = (melds, unmatched, points)
#   opp     = (melds, layoffs, unmatched, points), layoffs = [(bit index, table index)]
#   table   = [(kind, key, owner, open)]


def _cards(key: Iterable[int]) -> tuple[Card, ...]:
    return tuple(_CARD_AT[i] for i in key)  # type: ignore[misc]


def _meld(kind: str, key: Iterable[int]) -> Meld:
    return Meld(kind, _cards(key))


def build_settlement(outcome: str, closer: Any, opponents: Sequence[Any], table: Sequence[Any],
                     points: Sequence[int]) -> Settlement:
    """The :class:`Settlement` of plain data (see the comment above)."""
    melds, unmatched, cpoints = closer
    return Settlement(
        outcome,
        CloserResult(tuple(_meld(k, key) for k, key in melds), _cards(unmatched), cpoints),
        tuple(
            OpponentResult(
                tuple(_meld(k, key) for k, key in omelds),
                tuple((_CARD_AT[c], t) for c, t in layoffs),
                _cards(ounmatched),
                opoints,
            )
            for omelds, layoffs, ounmatched, opoints in opponents
        ),
        tuple(TableMeld(kind, _cards(key), owner, is_open) for kind, key, owner, is_open in table),
        tuple(points),
    )


# --------------------------------------------------------------- the reference solver
#
# The meld enumeration, the collections search, the best own melds (``arrange``) and the
# card points are chinchon.reference's; it is imported inside the functions because it
# imports this module at its end (for ``reference.settle``).


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
        from .reference import _copy_choices

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
    from .reference import _collections, _points, candidate_melds

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
    from .reference import _outcome_code, arrange

    masks, decks, rules = prepare(closer7, opponents, decks, rules)
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
