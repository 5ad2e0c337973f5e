"""Plain result values returned by both implementations (native and reference).

They are frozen dataclasses; ``to_dict()`` gives data that ``json.dumps`` takes as it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple, Optional

from .cards import Card

__all__ = [
    "Meld",
    "Arrangement",
    "Hint",
    "OUTCOMES",
    "TableMeld",
    "CloserResult",
    "OpponentResult",
    "Settlement",
]

#: outcome names by the C core's cc_outcome code (0 = cannot close)
OUTCOMES: tuple[Optional[str], ...] = (None, "normal", "minus_ten", "chinchon")


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
