"""The game loop: a whole Chinchón table (docs/rules.md#turns-hints-and-closing, #scores-elimination-and-the-end-of-a-game, #dealing-and-stacked-decks).

- :mod:`~chinchon.game.state`: the rules as a state machine (:class:`GameState`:
  deal, draw, discard, close, settle, score, eliminate, rejoin, the next hand).
- :mod:`~chinchon.game.actions`: the moves as typed values with JSON forms.
- :mod:`~chinchon.game.observation`: what one seat may see (what bots act on).
- :mod:`~chinchon.game.table`: :class:`Game`, the state plus seats, connection clocks,
  the event log, snapshots and replay -- what a server wraps.
"""

from .actions import Action, Discard, Draw, NextHand, Rejoin, action_from_json, as_action
from .observation import OBSERVATION_KEYS, Observation
from .records import GameResult, HandResult
from .state import PHASES, GameState
from .table import Game

__all__ = [
    "Game",
    "GameState",
    "GameResult",
    "HandResult",
    "Observation",
    "OBSERVATION_KEYS",
    "PHASES",
    "Action",
    "Draw",
    "Discard",
    "Rejoin",
    "NextHand",
    "as_action",
    "action_from_json",
]
