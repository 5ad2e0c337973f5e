"""chinchon: the fastest exact Chinchón engine, a C core under a Python API.

Chinchón is played with the Spanish deck (see :mod:`chinchon.cards`). The functions
here compute optimal melds and deadwood, discard hints, and the settlement of a closed
hand with every opponent's optimal lay-offs; :class:`Game` runs a whole table.

Two implementations share this API: the native C core (``chinchon._core``) and the
pure-Python reference (:mod:`chinchon.reference`). The native one is used when it
loads; otherwise the package falls back to the reference with a warning. The
environment variable ``CHINCHON_IMPLEMENTATION`` forces one: ``native`` (fail if it
cannot load) or ``python``. ``chinchon.IMPLEMENTATION`` says which is in use.

Every error raised for bad input is a :class:`ChinchonError`, a ``ValueError``.
"""

from __future__ import annotations

from . import _backend, bots, errors, reference
from ._backend import IMPLEMENTATION, simd

# the solver functions, whichever implementation is in use; "as": re-exported for type
# checkers too (``__all__`` names them from ``_backend.FUNCTIONS``)
from ._backend import best_melds as best_melds
from ._backend import close_outcome as close_outcome
from ._backend import deadwood as deadwood
from ._backend import deadwood_batch as deadwood_batch
from ._backend import discard_hints as discard_hints
from ._backend import draw_outlook as draw_outlook
from ._backend import hints_batch as hints_batch
from ._backend import outlook as outlook
from ._backend import outlook_batch as outlook_batch
from ._backend import settle as settle
from ._version import __version__
from .cards import (
    CARD_MASK,
    JOKER_1,
    JOKER_2,
    JOKER_MASK,
    LANE_MASK,
    SUIT_MASKS,
    SUITS,
    Card,
    Hand,
    as_hand,
    full_deck,
    parse_cards,
)
from .errors import *  # noqa: F403 - every error class: errors.__all__ names them
from .game import Game, GameResult, HandResult
from .reference.outlook import OUTLOOK_COLUMNS
from .results import (
    Arrangement,
    CloserResult,
    DrawOutlook,
    Hint,
    Meld,
    OpponentResult,
    Outlook,
    Prospect,
    Settlement,
    TableMeld,
)
from .rules import (
    CLASSIC_RULES,
    CONGA_RULES,
    FIFTY_RULES,
    HOUSE_RULES,
    PRESETS,
    Rules,
    SolverRules,
)
from .simulation import SimulationResult, simulate

__all__ = [
    "__version__",
    "IMPLEMENTATION",
    "simd",
    "Card",
    "Hand",
    "parse_cards",
    "as_hand",
    "full_deck",
    "SUITS",
    "SUIT_MASKS",
    "LANE_MASK",
    "JOKER_MASK",
    "CARD_MASK",
    "JOKER_1",
    "JOKER_2",
    "Meld",
    "Arrangement",
    "Hint",
    "Rules",
    "HOUSE_RULES",
    "CLASSIC_RULES",
    "CONGA_RULES",
    "FIFTY_RULES",
    "PRESETS",
    "SolverRules",
    *_backend.FUNCTIONS,
    "OUTLOOK_COLUMNS",
    "Outlook",
    "Prospect",
    "DrawOutlook",
    "Settlement",
    "CloserResult",
    "OpponentResult",
    "TableMeld",
    "Game",
    "GameResult",
    "HandResult",
    "simulate",
    "SimulationResult",
    "bots",
    "reference",
]
__all__ += errors.__all__  # the form type checkers read as the errors' names
