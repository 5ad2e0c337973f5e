"""How the library reads an argument that is a whole number: any integer type, numpy's
too, and never a bool (:func:`integer`); and ``decks=``, the one check of every number of
decks (:func:`check_decks`). Below the cards: a card's rank, ``decks=`` and ``threads=``
read their numbers here."""

from __future__ import annotations

from operator import index as _as_index
from typing import Optional

from .errors import InvalidHandError, shown

__all__ = ["integer", "check_decks"]


def integer(value: object) -> Optional[int]:
    """``value`` as an int if it is one of any integer type, numpy's too, else None. A
    bool is no number (numpy 1 gives numpy's an index)."""
    if type(value) is int:
        return value
    if isinstance(value, bool) or getattr(getattr(value, "dtype", None), "kind", "") == "b":
        return None
    try:
        return _as_index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def check_decks(decks: object) -> Optional[int]:
    """``decks`` as 1, 2 or None (infer); the one check of every ``decks=`` argument."""
    if decks is None:
        return None
    value = integer(decks)
    if value == 1 or value == 2:
        return value
    raise InvalidHandError(f"decks must be 1, 2 or None, got {shown(decks)}")
