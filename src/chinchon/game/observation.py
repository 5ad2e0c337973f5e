"""What one seat may see: :class:`Observation`, the only thing bots are given.

An observation is a read-only window onto a game for one seat: its own cards, the
discard pile's top card and size, the stock's size, every seat's total, who is in, the
chips, whose turn it is, the last closed hand's public record, the result and the
cards it cannot know the place of (:meth:`Observation.unseen`: what every seat saw go
to the discard pile or be taken from it is known, and :meth:`Observation.discard_pile`,
:meth:`Observation.taken` and :meth:`Observation.restocked` give those public parts) --
never another seat's cards or the stock's order. It reads
the game on demand, so making one per decision costs next to nothing; it is meant to be
used while the decision is being made. :meth:`Observation.to_dict` gives the JSON-ready
form that :meth:`Game.observation` returns and a server sends to that seat.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Optional

from ..cards import Card, Hand
from ..errors import IllegalAction
from ..results import Hint
from ..rules import Rules

if TYPE_CHECKING:
    from .records import GameResult, HandResult
    from .state import GameState

__all__ = ["Observation", "OBSERVATION_KEYS"]

#: the keys of :meth:`Observation.to_dict` (and of :meth:`Game.observation`)
OBSERVATION_KEYS = (
    "seat", "names", "phase", "turn", "lead", "hand_number", "hand", "discard_top",
    "discard_size", "stock_size", "totals", "in_game", "chips", "disconnected",
    "last_hand", "result",
)


#: no seat disconnected (a state has no connections: the table's)
_NOBODY: Mapping[int, float] = {}


class Observation:
    """The view of ``seat`` onto a game (see the module docstring), read through the
    state's public methods; ``disconnected`` is the table's (:attr:`Game.disconnected
    <chinchon.Game.disconnected>`: seat -> time), read when shown."""

    __slots__ = ("_game", "seat", "_away")

    def __init__(self, game: GameState, seat: int,
                 disconnected: Mapping[int, float] = _NOBODY) -> None:
        self._game = game
        self.seat = seat
        self._away = disconnected

    # the public table
    @property
    def players(self) -> int:
        return self._game.players

    @property
    def decks(self) -> int:
        return self._game.decks

    @property
    def rules(self) -> Rules:
        return self._game.rules

    @property
    def may_close(self) -> bool:
        """Whether the rules let the player to act close this turn at all
        (``Rules.first_round_close``); the cards decide the rest (:meth:`hints`)."""
        return self._game.may_close

    @property
    def phase(self) -> str:
        return self._game.phase

    @property
    def turn(self) -> Optional[int]:
        return self._game.turn

    @property
    def lead(self) -> int:
        return self._game.lead

    @property
    def hand_number(self) -> int:
        return self._game.hand_number

    @property
    def turns_this_hand(self) -> int:
        """Completed turns (draw and discard) in the current hand: every seat saw them."""
        return self._game.turns_this_hand

    @property
    def discard_top(self) -> Optional[Card]:
        return self._game.discard_top

    @property
    def discard_size(self) -> int:
        return self._game.discard_size

    @property
    def stock_size(self) -> int:
        return self._game.stock_size

    @property
    def totals(self) -> tuple[int, ...]:
        return self._game.totals

    @property
    def in_game(self) -> tuple[bool, ...]:
        return self._game.in_game

    @property
    def chips(self) -> tuple[int, ...]:
        return self._game.chips

    @property
    def last_hand(self) -> Optional[HandResult]:
        return self._game.last_hand

    @property
    def result(self) -> Optional[GameResult]:
        return self._game.result

    # this seat's own cards (``seat``, where given, must be this seat: the names and
    # arguments are the game's, so a bot written against a Game reads the same)
    def _own(self, seat: Optional[int]) -> int:
        if seat is not None and seat != self.seat:
            raise IllegalAction(f"seat {self.seat} cannot see the cards of seat {seat}")
        return self.seat

    def held(self, seat: Optional[int] = None) -> list[Card]:
        """This seat's cards in ascending card order."""
        return self._game.held(self._own(seat))

    def hand(self, seat: Optional[int] = None) -> list[Card]:
        """This seat's cards in the order the table shows them (melds first)."""
        return self._game.hand(self._own(seat))

    def unseen(self) -> Hand:
        """The cards this seat cannot know the place of (:meth:`GameState.unseen`): the
        deck less its own hand, the discard pile and the cards it saw the others take
        from the pile. What :func:`~chinchon.outlook` takes as ``unseen``."""
        return self._game.unseen(self.seat)

    # what every seat saw of the piles (public; the same for every seat): the parts of
    # what :meth:`unseen` leaves out
    def discard_pile(self) -> list[Card]:
        """The discard pile, bottom to top: every seat saw each card discarded (the
        JSON form, :meth:`to_dict`, shows only its top and size)."""
        return self._game.discard_pile()

    def taken(self, seat: int) -> list[Card]:
        """The cards ``seat`` (any seat) took from the discard pile this hand and still
        holds: every seat saw them taken."""
        return self._game.taken(seat)

    def restocked(self) -> Optional[list[Card]]:
        """The cards of this hand's last reshuffle into the stock (ascending), or None
        before any: every seat saw the pile turned over."""
        return self._game.restocked()

    def hints(self) -> list[Hint]:
        """The discard hints of this seat's 8 cards, on its own turn after the draw."""
        if self._game.turn != self.seat:
            raise IllegalAction(f"seat {self.seat} asks for hints out of its turn")
        return self._game.hints()

    def to_dict(self) -> dict[str, Any]:
        """Everything this seat may see, as a JSON-ready dict (cards as text)."""
        g = self._game
        top = g.discard_top
        last = g.last_hand
        result = g.result
        return {
            "seat": self.seat,
            "names": list(g.names),
            "phase": g.phase,
            "turn": g.turn,
            "lead": g.lead,
            "hand_number": g.hand_number,
            "hand": [str(c) for c in g.hand(self.seat)],
            "discard_top": None if top is None else str(top),
            "discard_size": g.discard_size,
            "stock_size": g.stock_size,
            "totals": list(g.totals),
            "in_game": list(g.in_game),
            "chips": list(g.chips),
            "disconnected": sorted(self._away),
            "last_hand": None if last is None else last.to_dict(),
            "result": None if result is None else result.to_dict(),
        }
