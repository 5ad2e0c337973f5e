"""Bots that play a seat of a :class:`~chinchon.Game`.

A bot answers three questions, each asked with the game and the seat it plays:

- :meth:`Bot.choose_draw` -> ``'stock'`` or ``'discard'``;
- :meth:`Bot.choose_discard` -> ``(card, close)``;
- :meth:`Bot.choose_rejoin` -> ``True`` to spend a chip and come back.

A bot may only use what its seat may see: its own cards (``game.held(seat)`` /
``game.hand(seat)``), ``game.hints()`` on its own turn, and the public table
(``discard_top``, ``stock_size``, ``totals``, ``in_game``, ``chips``...) - the same as
``game.observation(seat)``, read directly for speed.

:class:`RandomBot` plays uniformly at random among legal moves, except that it closes
when the discard it picked allows it (so random tables still end their hands).
:class:`GreedyBot` takes the discard top when that lowers its deadwood, discards to
minimise deadwood, closes as soon as it can, and prefers chinchón, then minus ten.
"""

from __future__ import annotations

import random
import sys
from operator import attrgetter
from typing import Any, Callable, Optional, Union

from .cards import Card

__all__ = ["Bot", "RandomBot", "GreedyBot", "BOTS", "make_bot"]

class Bot:
    """The bot interface; subclasses override the three ``choose_*`` methods."""

    name = "bot"

    def __init__(self, seed: Optional[int] = None) -> None:
        self.rng = random.Random(seed)

    def choose_draw(self, game: Any, seat: int) -> str:
        raise NotImplementedError

    def choose_discard(self, game: Any, seat: int) -> tuple[Card, bool]:
        raise NotImplementedError

    def choose_rejoin(self, game: Any, seat: int) -> bool:
        return True

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class RandomBot(Bot):
    """Random draws and discards; closes whenever its random discard allows it;
    rejoins half of the time."""

    name = "random"

    def choose_draw(self, game: Any, seat: int) -> str:
        if game.discard_size and self.rng.random() < 0.5:
            return "discard"
        return "stock"

    def choose_discard(self, game: Any, seat: int) -> tuple[Card, bool]:
        hints = game.hints()
        h = hints[self.rng.randrange(len(hints))]
        return h.card, h.can_close

    def choose_rejoin(self, game: Any, seat: int) -> bool:
        return self.rng.random() < 0.5


def _best_hint(hints: list[Any]) -> Any:
    """The greedy discard: chinchón, then minus ten, then the fewest points left; among
    equals, throw the highest card (it costs most if the hand closes), then the first in
    ascending card order (deterministic). A plain loop: this runs every turn."""
    best = hints[0]
    bp = best.points
    for h in hints:
        p = h.points
        if p < bp or (p == bp and h.card.points > best.card.points):
            best, bp = h, p
    if bp == 0 and best.outcome != "chinchon":  # minus ten and chinchón both leave 0
        for h in hints:
            if h.outcome == "chinchon":
                return h
    return best


class GreedyBot(Bot):
    """Takes the discard top when that lowers its deadwood, discards to minimise
    deadwood, closes whenever it can (chinchón and minus ten first), always rejoins.

    Cost: one ``discard_hints`` call when it looks at the discard top, and at most one
    more (``game.hints()``) after drawing from the stock."""

    name = "greedy"

    def __init__(self, seed: Optional[int] = None) -> None:
        super().__init__(seed)
        self._deadwood: dict[int, tuple[int, int]] = {}  # seat -> (hand number, deadwood)
        self._took: Optional[list[Any]] = None

    def _current(self, game: Any, seat: int) -> int:
        known = self._deadwood.get(seat)
        if known is not None and known[0] == game.hand_number:
            return known[1]
        d: int = sys.modules["chinchon"].deadwood(game.held(seat), decks=game.decks)
        self._deadwood[seat] = (game.hand_number, d)
        return d

    def choose_draw(self, game: Any, seat: int) -> str:
        self._took = None
        top = game.discard_top
        if top is None:
            return "stock"
        cards = game.held(seat)
        cards.append(top)
        cards.sort(key=_index)
        hints = sys.modules["chinchon"].discard_hints(cards, decks=game.decks, rules=game.rules)
        best = _best_hint(hints)
        if best.points < self._current(game, seat) or best.can_close:
            self._took = hints  # the same 8 cards as after the draw: reuse the hints
            return "discard"
        if game.stock_size == 0 and game.discard_size == 0:  # pragma: no cover
            return "discard"
        return "stock"

    def choose_discard(self, game: Any, seat: int) -> tuple[Card, bool]:
        hints = self._took if self._took is not None else game.hints()
        self._took = None
        best = _best_hint(hints)
        self._deadwood[seat] = (game.hand_number, best.points)
        return best.card, best.can_close

    def choose_rejoin(self, game: Any, seat: int) -> bool:
        return True


_index = attrgetter("index")


BotFactory = Callable[..., Bot]

#: bot names accepted by :func:`make_bot`, ``simulate`` and the CLI
BOTS: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot}


def make_bot(spec: Union[str, Bot, type[Bot]], seed: Optional[int] = None) -> Bot:
    """A bot from a name in :data:`BOTS`, a Bot class, or a Bot (returned as is)."""
    if isinstance(spec, Bot):
        return spec
    if isinstance(spec, type) and issubclass(spec, Bot):
        return spec(seed)
    if isinstance(spec, str) and spec.strip().lower() in BOTS:
        return BOTS[spec.strip().lower()](seed)
    from .errors import ChinchonError

    raise ChinchonError(f"unknown bot {spec!r}; choose from {', '.join(BOTS)}")


def play_turn(game: Any, bots: list[Bot]) -> None:
    """Let the bots make the next move of ``game`` (draw, discard or, in the summary,
    their rejoins and then the next hand)."""
    phase = game.phase
    if phase == "draw":
        seat = game.turn
        game.draw(bots[seat].choose_draw(game, seat))
    elif phase == "discard":
        seat = game.turn
        card, close = bots[seat].choose_discard(game, seat)
        game.discard(card, close)
    elif phase == "summary":
        chips = game.chips
        in_game = game.in_game
        for seat in range(game.players):
            if not in_game[seat] and chips[seat] > 0 and bots[seat].choose_rejoin(game, seat):
                game.rejoin(seat)
        game.next_hand()
