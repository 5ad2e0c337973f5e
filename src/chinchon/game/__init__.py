"""The game loop: a whole Chinchón table (docs/rules.md#turns-hints-and-closing,
docs/rules.md#scores-elimination-and-the-end-of-a-game, docs/rules.md#dealing-and-stacked-decks).

- :mod:`~chinchon.game.state`: the rules as a state machine (:class:`GameState`:
  deal, draw, discard, close, settle, score, eliminate, rejoin, the next hand).
- :mod:`~chinchon.game.actions`: the moves as typed values with JSON forms.
- :mod:`~chinchon.game.observation`: what one seat may see (what bots act on).
- :mod:`~chinchon.game.table`: :class:`Game`, which wraps a state and adds seats,
  connection clocks, the event log (:mod:`~chinchon.game.log`), snapshots and replay --
  what a server wraps.
- the state's parts: :mod:`~chinchon.game.piles` (stock, discard pile, what every seat
  saw of them), :mod:`~chinchon.game.hand_end` (closing, scoring, rejoining),
  :mod:`~chinchon.game.deck` (seats, decks, the deck, stacked orders),
  :mod:`~chinchon.game.capture` and :mod:`~chinchon.game.snapshot` (the state as data
  and back).
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
