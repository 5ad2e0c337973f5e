"""Plain result values returned by both implementations (native and reference).

They are frozen dataclasses; ``to_dict()`` gives data that ``json.dumps`` takes as it is.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Optional

from .cards import CARD_AT, Card

__all__ = [
    "Meld",
    "Arrangement",
    "Hint",
    "OUTCOMES",
    "TableMeld",
    "CloserResult",
    "OpponentResult",
    "Settlement",
    "build_settlement",
    "seat_label",
    "one_per_card",
]

#: outcome names by the C core's cc_outcome code (0 = cannot close)
OUTCOMES: tuple[Optional[str], ...] = (None, "normal", "minus_ten", "chinchon")


def seat_label(position: int) -> str:
    """How a settlement position is named: 0 the closer, k the k-th opponent."""
    return "closer" if position == 0 else f"opponent {position}"


@dataclass(frozen=True)
class Meld:
    """A meld: ``kind`` is ``'set'`` (same rank; *grupo*) or ``'run'`` (same suit,
    consecutive ranks; *escalera*); ``cards`` in ascending card order."""

    kind: str
    cards: tuple[Card, ...]

    @property
    def key(self) -> tuple[int, ...]:
        """The tie-break key of docs/design.md: ascending bit indices, copies repeated."""
        return tuple(c.index for c in self.cards)

    @property
    def points(self) -> int:
        return sum(c.points for c in self.cards)

    def __str__(self) -> str:
        return " ".join(str(c) for c in self.cards)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "cards": [str(c) for c in self.cards]}


@dataclass(frozen=True)
class Arrangement:
    """An optimal way to meld a hand: ``melds``, the ``unmatched`` cards and their
    ``points`` (the deadwood)."""

    melds: tuple[Meld, ...]
    unmatched: tuple[Card, ...]
    points: int

    def table_order(self) -> list[Card]:
        """The cards in the order a table shows a hand: the melds first (each sorted),
        then the unmatched cards in ascending order."""
        return [c for m in self.melds for c in m.cards] + list(self.unmatched)

    def to_dict(self) -> dict[str, Any]:
        return {
            "melds": [m.to_dict() for m in self.melds],
            "unmatched": [str(c) for c in self.unmatched],
            "points": self.points,
        }


class Hint(NamedTuple):
    """What discarding ``card`` leaves: the deadwood ``points`` of the 7 cards kept,
    whether they ``can_close``, and the ``outcome`` of closing (``None`` when closing
    is not allowed, else ``'normal'``, ``'minus_ten'`` or ``'chinchon'``).

    A named tuple rather than a dataclass: a server builds eight of these every turn.
    """

    card: Card
    points: int
    can_close: bool
    outcome: Optional[str] = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "card": str(self.card),
            "points": self.points,
            "can_close": self.can_close,
            "outcome": self.outcome,
        }


def one_per_card(hints: Sequence[Hint]) -> list[Hint]:
    """The hints with a double-deck copy's second hint dropped (the two copies of a card
    are next to each other and leave the same 7 cards: one move, one line)."""
    out: list[Hint] = []
    for h in hints:
        if not out or out[-1].card is not h.card:
            out.append(h)
    return out


@dataclass(frozen=True)
class TableMeld:
    """A meld on the table after a close. ``owner`` is 0 for the closer and k for the
    k-th opponent in play order (1-based); ``open`` says whether lay-offs were allowed
    onto it (False only for the closer's melds after minus ten). ``cards`` are the
    final cards, lay-offs included, in ascending card order."""

    kind: str
    cards: tuple[Card, ...]
    owner: int
    open: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "cards": [str(c) for c in self.cards],
            "owner": self.owner,
            "open": self.open,
        }


@dataclass(frozen=True)
class CloserResult(Arrangement):
    """The closer's side of a settlement: their arrangement, with ``points`` the hand
    points (the deadwood, ``-minus_ten`` on minus ten, 0 on chinchón)."""


@dataclass(frozen=True)
class OpponentResult:
    """One opponent's optimal play: own ``melds``, ``layoffs`` as ``(card,
    table_meld_index)`` in the order applied, ``unmatched`` cards and ``points``."""

    melds: tuple[Meld, ...]
    layoffs: tuple[tuple[Card, int], ...]
    unmatched: tuple[Card, ...]
    points: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "melds": [m.to_dict() for m in self.melds],
            "layoffs": [[str(c), i] for c, i in self.layoffs],
            "unmatched": [str(c) for c in self.unmatched],
            "points": self.points,
        }


@dataclass(frozen=True)
class Settlement:
    """The settlement of a closed hand (SPEC §4): ``outcome`` (``'normal'``,
    ``'minus_ten'``, ``'chinchon'``), the ``closer`` and ``opponents`` results, the final
    ``table`` (melds in the order they were put down) and ``points``: the hand points
    per position, closer first, then the opponents in play order."""

    outcome: str
    closer: CloserResult
    opponents: tuple[OpponentResult, ...]
    table: tuple[TableMeld, ...]
    points: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome,
            "closer": self.closer.to_dict(),
            "opponents": [o.to_dict() for o in self.opponents],
            "table": [t.to_dict() for t in self.table],
            "points": list(self.points),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Settlement:
        """The settlement that :meth:`to_dict` wrote."""
        c = d["closer"]
        return cls(
            d["outcome"],
            CloserResult(_melds_of(c["melds"]), _cards_of(c["unmatched"]), c["points"]),
            tuple(
                OpponentResult(_melds_of(o["melds"]),
                               tuple((Card.parse(x), int(i)) for x, i in o["layoffs"]),
                               _cards_of(o["unmatched"]), o["points"])
                for o in d["opponents"]
            ),
            tuple(TableMeld(t["kind"], _cards_of(t["cards"]), t["owner"], t["open"])
                  for t in d["table"]),
            tuple(d["points"]),
        )


def _cards_of(texts: Sequence[str]) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in texts)


def _melds_of(ds: Sequence[dict[str, Any]]) -> tuple[Meld, ...]:
    return tuple(Meld(d["kind"], _cards_of(d["cards"])) for d in ds)


# --------------------------------------------------------------- from plain data
#
# What the reference solver hands to build_settlement:
#   meld    = (kind, key)                 kind 'set'/'run', key = ascending bit indices
#   closer  = (melds, unmatched, points)
#   opp     = (melds, layoffs, unmatched, points), layoffs = [(bit index, table index)]
#   table   = [(kind, key, owner, open)]


def _cards(key: Iterable[int]) -> tuple[Card, ...]:
    return tuple(CARD_AT[i] for i in key)  # type: ignore[misc]


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
                tuple((CARD_AT[c], t) for c, t in layoffs),
                _cards(ounmatched),
                opoints,
            )
            for omelds, layoffs, ounmatched, opoints in opponents
        ),
        tuple(TableMeld(kind, _cards(key), owner, is_open) for kind, key, owner, is_open in table),
        tuple(points),
    )
