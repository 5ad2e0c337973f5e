"""The close and the end of a hand (docs/rules.md#scores-elimination-and-the-end-of-a-game),
as plain functions of the values they read: who may close, who may rejoin, the
settlement's points into the totals, eliminations, the end of the game and a void hand.
:class:`~chinchon.game.state.GameState` calls them and keeps the results.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Optional

from .. import _backend as solver
from ..cards import Card
from ..results import Hint, Settlement
from ..rules import Rules
from .records import GameResult, HandResult

__all__ = ["close_refused", "close_outcome", "rejoin_refused", "rejoin", "score_close",
           "void_hand"]


def close_refused(rules: Rules, turns: int, players_in: int) -> Optional[str]:
    """Why nobody may close this turn whatever the cards, or None: with
    ``first_round_close=False``, until every one of the ``players_in`` players in the
    hand has completed one turn (``turns`` completed so far: the last seat's first turn
    may not close either, the lead's second may)."""
    if rules.first_round_close or turns >= players_in:
        return None
    return (f"nobody closes before every player has played a turn (first_round_close="
            f"False): {turns} of {players_in} turns played")


def rejoin_refused(seat: int, in_game: Sequence[bool], chips: Sequence[int]) -> Optional[str]:
    """Why ``seat`` may not rejoin in the summary of a hand, or None when it may."""
    if in_game[seat]:
        return f"seat {seat} is still in the game"
    if chips[seat] <= 0:
        return f"seat {seat} has no rejoin chips left"
    if sum(in_game) < 2:
        return "a rejoin needs at least two players still in the game"
    return None


def close_outcome(hints: Optional[Sequence[Hint]], kept: list[Card], card: Card, decks: int,
                  rules: Rules) -> Optional[str]:
    """The outcome of closing with ``kept`` after discarding ``card`` (None: the close
    limit forbids it), from this turn's ``hints`` when there are (no solver call)."""
    if hints is not None:
        for h in hints:
            if h.card is card:
                out: Optional[str] = h.outcome
                return out
    res: Optional[str] = solver.close_outcome(kept, decks=decks, rules=rules)
    return res


def rejoin(seat: int, totals: list[int], in_game: list[bool], chips: list[int]) -> int:
    """``seat`` (allowed to: :func:`rejoin_refused`) spends a chip to come back with the
    highest total among the players still in; changes the lists in place, returns that
    total."""
    total = max(t for t, i in zip(totals, in_game) if i)
    chips[seat] -= 1
    in_game[seat] = True
    totals[seat] = total
    return total


def score_close(number: int, order: Sequence[int], settlement: Settlement,
                totals: list[int], in_game: list[bool], rules: Rules
                ) -> tuple[HandResult, Optional[GameResult]]:
    """The record of hand ``number`` closed by ``order[0]`` (``order``: the seats of the
    hand in play order from the closer) and how the game ends with it (None: it goes
    on). Adds the settlement's points to ``totals`` and takes the eliminated seats out
    of ``in_game`` (both changed in place); a chinchón ends the game without scoring."""
    points = [0] * len(totals)
    closer = order[0]
    if settlement.outcome == "chinchon":
        return (HandResult(number, closer, tuple(order), settlement, tuple(points), ()),
                GameResult("won", closer, "chinchón"))
    for s, p in zip(order, settlement.points):
        points[s] = p
        totals[s] += p
    out = tuple(s for s in order if totals[s] > rules.eliminate_above)
    for s in out:
        in_game[s] = False
    last = HandResult(number, closer, tuple(order), settlement, tuple(points), out)
    left = [s for s in range(len(totals)) if in_game[s]]
    if len(left) == 1:
        return last, GameResult("won", left[0], "last player in the game")
    if not left:
        return last, _all_out(rules, totals, order)
    return last, None


def _all_out(rules: Rules, totals: Sequence[int], order: Sequence[int]) -> GameResult:
    """How the game ends when one close eliminates every player of the hand
    (``order``): a draw, or with ``all_out='lowest'`` won by the lowest total among
    them (a tie for lowest is a draw)."""
    if rules.all_out == "lowest":
        low = min(totals[s] for s in order)
        lowest = [s for s in order if totals[s] == low]
        if len(lowest) == 1:
            return GameResult("won", lowest[0], "every player out at once: the lowest "
                                                "total wins")
        return GameResult("draw", None, "every player out at once, tied for the lowest "
                                        "total")
    return GameResult("draw", None, "every player eliminated at once")


def void_hand(number: int, order: Sequence[int], players: int) -> HandResult:
    """The record of hand ``number`` made void because the stock ran down to
    ``Rules.void_at_stock`` cards without a close: nobody scores (``order``: the seats
    of the hand in play order from its lead)."""
    return HandResult(number, None, tuple(order), None, (0,) * players, ())
