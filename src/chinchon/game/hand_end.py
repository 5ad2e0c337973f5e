"""The close and the end of a hand (SPEC §5, §8), a part of
:class:`~chinchon.game.state.GameState`: who may close, the close's outcome, the
settlement's points into the totals, eliminations, the end of the game, a void hand,
and the summary between hands (rejoin, the next hand).

:class:`HandEnd` is a base of :class:`~chinchon.game.state.GameState` and holds no
state of its own: it works on the fields the state sets up in its constructor.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional, Sequence

from .. import _backend as solver
from ..cards import Card
from ..errors import IllegalAction
from ..results import Hint, Settlement
from ..rules import Rules
from .deck import CardLike
from .records import GameResult, HandResult

__all__ = ["HandEnd"]


class HandEnd:
    """Closing and ending a hand: the methods of :class:`~chinchon.game.state.GameState`
    that settle a hand and move the game on from it."""

    # the fields of GameState this part reads and writes (set by GameState.__init__)
    _n: int
    _decks: int
    _rules: Rules
    _hand_number: int
    _turns: int
    _lead: int
    _phase: str
    _turn: Optional[int]
    _totals: list[int]
    _in: list[bool]
    _chips: list[int]
    _hints: Optional[list[Hint]]
    _result: Optional[GameResult]
    _last: Optional[HandResult]

    if TYPE_CHECKING:  # GameState's own methods this part calls
        def _play_order(self, start: int) -> list[int]: ...
        def _next_in(self, seat: int) -> int: ...
        def _seat(self, seat: object) -> int: ...
        def _is_away(self, seat: Optional[int]) -> bool: ...
        def _require_phase(self, phase: str, what: str) -> None: ...
        def _check_deck(self, deck: Sequence[CardLike]) -> list[Card]: ...
        def _deal(self, deck: Optional[list[Card]]) -> None: ...

    def _close_refused(self) -> Optional[str]:
        """Why nobody may close this turn whatever the cards, or None: with
        ``first_round_close=False``, until every player in the hand has completed one
        turn (the last seat's first turn may not close either, the lead's second may)."""
        if self._rules.first_round_close:
            return None
        players = sum(self._in)
        if self._turns >= players:
            return None
        return (f"nobody closes before every player has played a turn (first_round_close="
                f"False): {self._turns} of {players} turns played")

    @property
    def may_close(self) -> bool:
        """Whether the rules let the player to act close this turn at all (the cards
        decide the rest: :meth:`hints`)."""
        return self._close_refused() is None

    def _can_rejoin(self, seat: int) -> Optional[str]:
        """Why ``seat`` may not rejoin now, or None when it may."""
        if self._in[seat]:
            return f"seat {seat} is still in the game"
        if self._chips[seat] <= 0:
            return f"seat {seat} has no rejoin chips left"
        if sum(self._in) < 2:
            return "a rejoin needs at least two players still in the game"
        if self._is_away(seat):
            return f"seat {seat} is disconnected"
        return None

    def _close_outcome(self, kept: list[Card], card: Card) -> Optional[str]:
        if self._hints is not None:  # reuse this turn's hints: no extra solver call
            for h in self._hints:
                if h.card is card:
                    out: Optional[str] = h.outcome
                    return out
        res: Optional[str] = solver.close_outcome(kept, decks=self._decks, rules=self._rules)
        return res

    def _finish_hand(self, order: list[int], settlement: Settlement) -> None:
        points = [0] * self._n
        closer = order[0]
        if settlement.outcome == "chinchon":
            self._last = HandResult(self._hand_number, closer, tuple(order), settlement,
                                    tuple(points), ())
            self._end(GameResult("won", closer, "chinchón"))
            return
        for s, p in zip(order, settlement.points):
            points[s] = p
            self._totals[s] += p
        limit = self._rules.eliminate_above
        out = tuple(s for s in order if self._totals[s] > limit)
        for s in out:
            self._in[s] = False
        self._last = HandResult(self._hand_number, closer, tuple(order), settlement,
                                tuple(points), out)
        left = [s for s in range(self._n) if self._in[s]]
        if len(left) == 1:
            self._end(GameResult("won", left[0], "last player in the game"))
        elif not left:
            self._end(self._all_out(order))
        else:
            self._phase = "summary"
            self._turn = None

    def _all_out(self, order: list[int]) -> GameResult:
        """How the game ends when one close eliminates every player of the hand
        (``order``): a draw, or with ``all_out='lowest'`` won by the lowest total among
        them (a tie for lowest is a draw)."""
        if self._rules.all_out == "lowest":
            low = min(self._totals[s] for s in order)
            lowest = [s for s in order if self._totals[s] == low]
            if len(lowest) == 1:
                return GameResult("won", lowest[0], "every player out at once: the lowest "
                                                    "total wins")
            return GameResult("draw", None, "every player out at once, tied for the lowest "
                                            "total")
        return GameResult("draw", None, "every player eliminated at once")

    def _void_hand(self) -> None:
        """The stock is down to ``Rules.void_at_stock`` cards without a close: the hand
        is void, nobody scores, and the next hand opens as after any hand."""
        order = tuple(self._play_order(self._lead))
        self._last = HandResult(self._hand_number, None, order, None, (0,) * self._n, ())
        self._phase = "summary"
        self._turn = None

    def _end(self, result: GameResult) -> None:
        self._result = result
        self._phase = "over"
        self._turn = None
        self._hints = None

    def rejoin(self, seat: int) -> int:
        """In the summary, an eliminated ``seat`` spends a chip to come back with the
        highest total among the players still in; returns that total."""
        self._require_phase("summary", "rejoin")
        seat = self._seat(seat)
        why = self._can_rejoin(seat)
        if why is not None:
            raise IllegalAction(f"seat {seat} cannot rejoin: {why}")
        total = max(t for t, i in zip(self._totals, self._in) if i)
        self._chips[seat] -= 1
        self._in[seat] = True
        self._totals[seat] = total
        return total

    def next_hand(self, deck: Optional[Sequence[CardLike]] = None) -> None:
        """The host opens the next hand, led by the next player still in after the last
        lead; dealt from ``deck`` (the exact order, checked) or from a fresh shuffle."""
        self._require_phase("summary", "open the next hand")
        dealt = None if deck is None else self._check_deck(deck)
        self._open_hand(dealt)

    def _open_hand(self, dealt: Optional[list[Card]]) -> None:
        self._lead = self._next_in(self._lead)
        self._deal(dealt)
