"""The bots that play by a rule, weakest first: :class:`RandomBot`, :class:`GreedyBot`
(the fewest points now) and :class:`ExpertBot` (the outlook one draw ahead)."""

from __future__ import annotations

import sys
from bisect import bisect_right, insort
from operator import attrgetter
from typing import Any, Optional

from .. import _backend as solver
from ..cards import Card
from ..errors import ChinchonError
from ..game.observation import Observation
from ..rules import Rules
from . import base
from .base import Bot, _TurnCount


class RandomBot(Bot):
    """Random draws and discards; closes whenever its random discard allows it;
    rejoins half of the time."""

    name = "random"

    def choose_draw(self, obs: Observation, seat: int) -> str:
        if obs.discard_size and self.rng.random() < 0.5:
            return "discard"
        return "stock"

    def choose_discard(self, obs: Observation, seat: int) -> tuple[Card, bool]:
        hints = obs.hints()
        h = hints[self.rng.randrange(len(hints))]
        return h.card, h.can_close

    def choose_rejoin(self, obs: Observation, seat: int) -> bool:
        return self.rng.random() < 0.5


#: the greedy bot's preference among closes that leave 0 points
_ZERO_CLOSES = ("chinchon", "joker_chinchon", "minus_ten")


def _best_hint(hints: list[Any], rules: Rules) -> Any:
    """The greedy discard: chinchón, then a joker chinchón, then minus ten, then the
    fewest points left; among equals never a joker while a natural card does as well,
    then the card worth most under ``rules`` (it costs most if the hand closes), then the
    first in ascending card order (deterministic). The caller decides whether the rules
    let it close this turn. A plain loop: this runs every turn."""
    best = hints[0]
    if rules.plain_solver:  # no jokers, points = ranks: the house rules' fast loop
        bp = best.points
        for h in hints:
            p = h.points
            if p < bp or (p == bp and h.card.points > best.card.points):
                best, bp = h, p
    else:  # the order of _discard_key, without a tuple per hint
        solver_rules = rules.solver
        jm = solver_rules.joker_mask
        pts = solver_rules.bit_points
        i = best.card.index
        bp, bj = best.points, jm >> i & 1
        bv = 0 if bj else pts[i]
        for h in hints:
            i = h.card.index
            p, j = h.points, jm >> i & 1
            v = 0 if j else pts[i]
            if p < bp or (p == bp and (j < bj or (j == bj and v > bv))):
                best, bp, bj, bv = h, p, j, v
    if best.points == 0 and best.outcome != "chinchon":
        for outcome in _ZERO_CLOSES:  # both leave 0: the better close
            for h in hints:
                if h.outcome == outcome:
                    return h
    return best


def _discard_key(h: Any, rules: Rules) -> tuple[int, bool, int]:
    """Smaller is a better discard: fewer points left, a natural card before a joker,
    then the card worth more."""
    card = h.card
    joker = rules.is_joker(card)
    return (h.points, joker, 0 if joker else -rules.card_points(card))


class GreedyBot(Bot):
    """Takes the discard top when that lowers its deadwood, discards to minimise
    deadwood, closes whenever it can (chinchón and minus ten first), always rejoins.
    Once a hand has lasted :data:`STALE_TURNS` of its discards, it discards a random
    card with chance :data:`STALE_SHAKE` (unless it can close), which breaks the
    deadlocks of greedy tables (each seat holding what another waits for).

    Cost: one ``discard_hints`` call when it looks at the discard top, and at most one
    more (``obs.hints()``) after drawing from the stock."""

    name = "greedy"

    def __init__(self, seed: Optional[int] = None) -> None:
        super().__init__(seed)
        self._deadwood: dict[int, tuple[int, int]] = {}  # seat -> (hand number, deadwood)
        # the hints of the 8 cards a draw from the pile would give, and those cards (in
        # ascending order, as Observation.held gives them)
        self._took: Optional[list[Any]] = None
        self._took_cards: list[Card] = []
        self._turns: dict[int, _TurnCount] = {}

    def _current(self, obs: Observation, seat: int) -> int:
        known = self._deadwood.get(seat)
        if known is not None and known[0] == obs.hand_number:
            return known[1]
        d: int = solver.deadwood(obs.held(seat), decks=obs.decks, rules=obs.rules)
        self._deadwood[seat] = (obs.hand_number, d)
        return d

    def choose_draw(self, obs: Observation, seat: int) -> str:
        self._took = None
        top = obs.discard_top
        if top is None:
            return "stock"
        cards = obs.held(seat)
        _insort(cards, top)
        rules = obs.rules
        hints = solver.discard_hints(cards, decks=obs.decks, rules=rules)
        best = _best_hint(hints, rules)
        if best.points < self._current(obs, seat) or (
                best.can_close and (rules.first_round_close or obs.may_close)):
            self._took = hints  # the same 8 cards as after the draw: reuse the hints
            self._took_cards = cards
            return "discard"
        if obs.stock_size == 0 and obs.discard_size == 0:  # pragma: no cover
            return "discard"
        return "stock"

    def choose_discard(self, obs: Observation, seat: int) -> tuple[Card, bool]:
        hints = self._took
        # only for the cards held: a caller may have drawn otherwise than advised
        if hints is None or obs.held(seat) != self._took_cards:
            hints = obs.hints()
        self._took = None
        rules = obs.rules
        best = _best_hint(hints, rules)
        turns = self._turns.setdefault(seat, _TurnCount())
        if turns.stale(obs) and not best.can_close and self.rng.random() < base.STALE_SHAKE:
            best = hints[self.rng.randrange(len(hints))]  # shake a deadlocked hand
        self._deadwood[seat] = (obs.hand_number, best.points)
        # the hints of a discard-pile draw were the solver's: the rules may still forbid
        # closing this turn (first_round_close=False)
        return best.card, best.can_close and (rules.first_round_close or obs.may_close)

    def choose_rejoin(self, obs: Observation, seat: int) -> bool:
        return True


_index = attrgetter("index")


def _insort_by_index(cards: list[Card], card: Card) -> None:
    """``card`` into the sorted ``cards``, in bit order, on any Python (bisect takes
    ``key=`` from Python 3.10: the greedy bot's draw raised a TypeError on 3.9)."""
    cards.insert(bisect_right([c.index for c in cards], card.index), card)


def _insort_key(cards: list[Card], card: Card) -> None:
    """The same, by bisect's own key (Python 3.10 on)."""
    insort(cards, card, key=_index)  # type: ignore[call-arg,unused-ignore]


_insort = _insort_key if sys.version_info >= (3, 10) else _insort_by_index


def _value(p: Any) -> float:
    """How good a prospect (or an outlook line) is for the expert, smaller better: the
    expected points left, less 10 for each chance of a minus ten close and 25 for each
    chance of a chinchón (a joker chinchón included)."""
    value: float = p.expected_points - 10.0 * p.p_minus_ten - 25.0 * p.p_chinchon
    return value


class ExpertBot(Bot):
    """Plays by the outlook (docs/rules.md#the-outlook-one-draw-ahead) over the cards its seat has
    not seen (``obs.unseen()``):

    - **Draw**: takes the discard pile's top when that leaves a better hand after this
      turn's best discard than the stock's expectation (``draw_outlook``; the measure is
      :func:`_value`: the expected points, less 10 per chance of a minus ten and 25 per
      chance of a chinchón).
    - **Discard**: the card whose 7 kept have the best value after the *next* draw
      (``outlook``); ties: fewer points now, then the card worth more, then the first in
      ascending card order.
    - **Close** (when the rules allow it this turn): at once with a chinchón, a joker
      chinchón or a minus ten. With only a normal close it waits -- discards, without
      closing, the card whose 7 kept have the best chance of a minus ten or a chinchón
      (ties: fewer points) -- when some discard keeps 7 cards that may still close
      and bring a minus ten or a chinchón on the next draw with a chance of at least
      :attr:`WAIT_FOR`; else it closes with the fewest points.
    - **Deadlocks**: once a hand has lasted :data:`STALE_TURNS` of its discards, with
      chance :data:`STALE_SHAKE` it discards a random card instead (unless it can
      close): a table of bots each holding what another waits for moves again.
    - Always rejoins.

    Cost: one ``draw_outlook`` and one ``outlook`` call per turn (a few microseconds
    native) and ``obs.unseen()``. Where no card is unseen (the stock has just run out
    and the seat has seen every card of the last reshuffle leave it) it plays that turn
    as :class:`GreedyBot` would.
    """

    name = "expert"
    #: the least chance of a minus ten or chinchón on the next draw for which the bot
    #: passes up a normal close
    WAIT_FOR = 0.25

    def __init__(self, seed: Optional[int] = None) -> None:
        super().__init__(seed)
        self._turns: dict[int, _TurnCount] = {}

    def choose_draw(self, obs: Observation, seat: int) -> str:
        top = obs.discard_top
        if top is None:
            return "stock"
        rules = obs.rules
        try:
            d = solver.draw_outlook(obs.held(seat), top, obs.unseen(), decks=obs.decks,
                                    rules=rules)
        except ChinchonError:  # nothing unseen: the greedy choice
            return GreedyBot().choose_draw(obs, seat)
        return "discard" if _value(d.take) < _value(d.stock) else "stock"

    def choose_discard(self, obs: Observation, seat: int) -> tuple[Card, bool]:
        rules = obs.rules
        try:
            lines = solver.outlook(obs.held(seat), obs.unseen(), decks=obs.decks, rules=rules)
        except ChinchonError:  # nothing unseen: the greedy choice
            return GreedyBot().choose_discard(obs, seat)
        may_close = rules.first_round_close or obs.may_close
        closing = [x for x in lines if x.can_close] if may_close else []
        turns = self._turns.setdefault(seat, _TurnCount())
        if turns.stale(obs) and not closing and self.rng.random() < base.STALE_SHAKE:
            return lines[self.rng.randrange(len(lines))].card, False  # shake a deadlock
        for outcome in ("chinchon", "joker_chinchon", "minus_ten") if closing else ():
            for line in closing:
                if line.outcome == outcome:
                    return line.card, True
        points = rules.solver.bit_points
        best = lines[0]
        bkey = (_value(best), best.points, -points[best.card.index])
        for x in lines:
            key = (_value(x), x.points, -points[x.card.index])
            if key < bkey:
                best, bkey = x, key
        if closing:
            waits = [x for x in closing if x.p_minus_ten + x.p_chinchon >= self.WAIT_FOR]
            if waits:
                wait = max(waits, key=lambda x: (x.p_minus_ten + x.p_chinchon, -x.points))
                return wait.card, False
            close = min(closing, key=lambda x: (x.points, -points[x.card.index]))
            return close.card, True
        return best.card, False

    def choose_rejoin(self, obs: Observation, seat: int) -> bool:
        return True
