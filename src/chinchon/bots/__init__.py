"""Bots that play a seat of a :class:`~chinchon.Game`.

A bot answers three questions, each asked with the seat's
:class:`~chinchon.game.Observation` (what that seat may see, and nothing else) and the
seat it plays:

- :meth:`Bot.choose_draw` -> ``'stock'`` or ``'discard'``;
- :meth:`Bot.choose_discard` -> ``(card, close)``;
- :meth:`Bot.choose_rejoin` -> ``True`` to spend a chip and come back.

The observation has the game's own names for what a seat may read: its own cards
(``obs.held(seat)`` / ``obs.hand(seat)``), ``obs.hints()`` on its own turn, and the
public table (``discard_top``, ``stock_size``, ``totals``, ``in_game``, ``chips``...).

The bots, weakest first (:data:`BOTS`): :class:`RandomBot`, :class:`GreedyBot`,
:class:`ExpertBot` and :class:`SearchBot`; each class says how it plays, docs/bots.md
how strong it is.

A bot's randomness is its own :class:`~chinchon.game.rng.Rng` (``bot.rng``, the game's
generator: xoshiro256**), seeded by the ``seed`` it is built with (an int of at most 256
bits; ``None``: from the OS).
"""

from .. import _backend as solver  # the solver the bots call
from . import base  # the deadlock constants' one home (read from it at each call)
from .base import STALE_SHAKE, STALE_TURNS, Bot, bots_rejoin, play_turn
from .names import BOT_FORMS, BOTS, bot_name, make_bot
from .rule_based import ExpertBot, GreedyBot, RandomBot
from .search import SearchBot

__all__ = ["Bot", "RandomBot", "GreedyBot", "ExpertBot", "SearchBot", "BOTS", "make_bot",
           "BOT_FORMS", "bot_name", "play_turn", "bots_rejoin", "STALE_TURNS", "STALE_SHAKE",
           "solver"]
