"""The public records of a game: how a hand ended (:class:`HandResult`) and how the
game ended (:class:`GameResult`), with their JSON forms."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from ..results import Settlement

__all__ = ["GameResult", "HandResult", "RESULT_STATUSES"]

RESULT_STATUSES = ("won", "draw", "cancelled")


@dataclass(frozen=True)
class GameResult:
    """How a finished game ended: ``status`` ``'won'``, ``'draw'`` or ``'cancelled'``;
    ``winner`` the winning seat or ``None``; ``reason`` a few words for people."""

    status: str
    winner: Optional[int]
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"status": self.status, "winner": self.winner, "reason": self.reason}


@dataclass(frozen=True)
class HandResult:
    """The public record of an ended hand: ``closer`` seat, ``order`` (seats, closer
    first, then the opponents in play order, matching ``settlement.points``), the
    ``settlement``, ``points`` per seat (0 for seats not in the hand) and who was
    ``eliminated`` by it.

    A **void** hand (``Rules.void_at_stock``: the stock ran down without a close) has
    no closer and no settlement: ``closer`` and ``settlement`` are ``None``,
    ``outcome`` is ``'void'``, ``order`` lists the seats of the hand in play order from
    its lead, and every seat's points are 0."""

    number: int
    closer: Optional[int]
    order: tuple[int, ...]
    settlement: Optional[Settlement]
    points: tuple[int, ...]
    eliminated: tuple[int, ...]

    @property
    def outcome(self) -> str:
        """The settlement's outcome (``'normal'``, ``'minus_ten'``, ``'chinchon'``,
        ``'joker_chinchon'``), or ``'void'``."""
        return "void" if self.settlement is None else self.settlement.outcome

    @property
    def void(self) -> bool:
        return self.settlement is None

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "closer": self.closer,
            "order": list(self.order),
            "outcome": self.outcome,
            "settlement": None if self.settlement is None else self.settlement.to_dict(),
            "points": list(self.points),
            "eliminated": list(self.eliminated),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> HandResult:
        settlement = d["settlement"]
        return cls(d["number"], d["closer"], tuple(d["order"]),
                   None if settlement is None else Settlement.from_dict(settlement),
                   tuple(d["points"]), tuple(d["eliminated"]))
