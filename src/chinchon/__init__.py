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

import os as _os
from importlib.util import find_spec as _find_spec
import warnings as _warnings
from types import ModuleType as _ModuleType
from typing import TYPE_CHECKING as _TYPE_CHECKING

from . import reference
from ._version import __version__
from .cards import LANE_MASK, SUIT_MASKS, SUITS, Card, Hand, as_hand, full_deck, parse_cards
from .errors import (
    BatchRowError,
    CannotCloseError,
    CardCountError,
    CardParseError,
    ChinchonError,
    DuplicateCardError,
    IllegalAction,
    InvalidHandError,
)
from .results import Arrangement, CloserResult, Hint, Meld, OpponentResult, Settlement, TableMeld
from .rules import HOUSE_RULES, Rules


def _load_implementation() -> _ModuleType:
    choice = _os.environ.get("CHINCHON_IMPLEMENTATION", "auto").strip().lower()
    if choice in ("python", "py", "reference", "pure"):
        return reference
    if choice not in ("auto", "", "native", "c"):
        raise ImportError(
            f"CHINCHON_IMPLEMENTATION={choice!r}: expected 'native', 'python' or 'auto'"
        )
    if _find_spec(f"{__name__}._core") is None:
        why = "it is not installed (this install built no C extension)"
        if choice in ("native", "c"):
            raise ImportError(f"CHINCHON_IMPLEMENTATION=native but the extension {why}")
    else:
        try:
            from . import _core
        except ImportError as exc:
            if choice in ("native", "c"):
                raise
            why = f"it failed to load: {exc}"
        else:
            return _core
    _warnings.warn(
        f"chinchon: the native extension chinchon._core is not used because {why}; "
        "running on the pure-Python implementation, which is much slower",
        RuntimeWarning,
        stacklevel=3,
    )
    return reference


if _TYPE_CHECKING:
    # For type checkers the functions below are the reference's: _core.pyi gives the
    # native module the same signatures, so either choice types the same.
    _impl = reference
else:
    _impl = _load_implementation()

#: ``'native'`` or ``'python'``: which implementation the functions below are.
IMPLEMENTATION: str = _impl.IMPLEMENTATION

deadwood = _impl.deadwood
best_melds = _impl.best_melds
discard_hints = _impl.discard_hints
close_outcome = _impl.close_outcome
deadwood_batch = _impl.deadwood_batch
hints_batch = _impl.hints_batch
settle = _impl.settle

# The game loop sits above the solver and imports it, so it comes last.
from . import bots  # noqa: E402
from .game import Game, GameResult, HandResult  # noqa: E402
from .simulate import SimulationResult, simulate  # noqa: E402

__all__ = [
    "__version__",
    "IMPLEMENTATION",
    "Card",
    "Hand",
    "parse_cards",
    "as_hand",
    "full_deck",
    "SUITS",
    "SUIT_MASKS",
    "LANE_MASK",
    "Meld",
    "Arrangement",
    "Hint",
    "Rules",
    "HOUSE_RULES",
    "deadwood",
    "best_melds",
    "discard_hints",
    "close_outcome",
    "deadwood_batch",
    "hints_batch",
    "settle",
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
    "ChinchonError",
    "CardParseError",
    "InvalidHandError",
    "DuplicateCardError",
    "CardCountError",
    "BatchRowError",
    "CannotCloseError",
    "IllegalAction",
]
