"""The bot interface (:class:`Bot`), its guard against a deadlocked hand, and how bots
play a table's turns (:func:`play_turn`, :func:`bots_rejoin`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Optional, Union, cast

from ..cards import Card
from ..errors import ChinchonError, shown
from ..game.observation import Observation
from ..game.rng import Rng
from ..game.state import GameState
from ..game.table import Game


class Bot:
    """The bot interface; subclasses override the three ``choose_*`` methods."""

    name = "bot"

    def __init__(self, seed: Optional[int] = None) -> None:
        try:
            self.rng = Rng(seed)
        except ValueError:
            raise ChinchonError(f"a bot's seed must be an int of at most 256 bits or None, "
                                f"got {shown(seed)}") from None

    def choose_draw(self, obs: Observation, seat: int) -> str:
        raise NotImplementedError

    def choose_discard(self, obs: Observation, seat: int) -> tuple[Card, bool]:
        raise NotImplementedError

    def choose_rejoin(self, obs: Observation, seat: int) -> bool:
        return True

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


#: a bot that has discarded this many times in one hand without the hand ending takes
#: the table for deadlocked (each seat holding what another waits for, every discard
#: thrown back): from then on it discards a random card with chance STALE_SHAKE
STALE_TURNS = 30
STALE_SHAKE = 0.25


class _TurnCount:
    """Counts a bot's discards per seat in the current hand (to see a deadlock)."""

    __slots__ = ("hand", "count")

    def __init__(self) -> None:
        self.hand = -1
        self.count = 0

    def stale(self, obs: Observation) -> bool:
        """Count one more discard; True once the hand has lasted STALE_TURNS of them."""
        if obs.hand_number != self.hand:
            self.hand, self.count = obs.hand_number, 0
        self.count += 1
        return self.count > STALE_TURNS



def _observe(game: Union[GameState, Game], seat: int) -> Observation:
    """What ``seat`` sees: a state's seat sees it directly (no connections: the cheap
    path of every turn), a table's through Game.observe."""
    if isinstance(game, GameState):
        return Observation(game, seat)
    return game.observe(seat)


def play_turn(game: Union[GameState, Game], bots: list[Bot]) -> None:
    """Let the bots make the next move of ``game`` (draw, discard or, in the summary,
    their rejoins and then the next hand)."""
    phase = game.phase
    if phase == "draw":
        seat = cast(int, game.turn)  # draw or discard phase: someone's turn
        obs = _observe(game, seat)
        game.draw(bots[seat].choose_draw(obs, seat))
    elif phase == "discard":
        seat = cast(int, game.turn)
        obs = _observe(game, seat)
        card, close = bots[seat].choose_discard(obs, seat)
        game.discard(card, close)
    elif phase == "summary":
        bots_rejoin(game, bots, range(game.players))
        game.next_hand()


def bots_rejoin(game: Union[GameState, Game], bots: Sequence[Bot], seats: Iterable[int]
                ) -> list[int]:
    """In the summary of a hand, each eliminated seat of ``seats`` with a chip whose bot
    wants to rejoins; returns the seats that did."""
    back = []
    for seat in seats:
        if (not game.in_game[seat] and game.chips[seat] > 0
                and bots[seat].choose_rejoin(game.observe(seat), seat)):
            game.rejoin(seat)
            back.append(seat)
    return back
