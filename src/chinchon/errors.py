"""Exceptions raised by chinchon.

Every error the package raises on bad input derives from :class:`ChinchonError`, which
is a :class:`ValueError`, so ``except ValueError`` catches them all. Each native status
code of the C core maps to exactly one of these classes (see ``_core.pyx``).
"""

from __future__ import annotations

__all__ = [
    "ChinchonError",
    "CardParseError",
    "InvalidHandError",
    "DuplicateCardError",
    "CardCountError",
    "BatchRowError",
    "CannotCloseError",
    "IllegalAction",
]


class ChinchonError(ValueError):
    """Base class of every error chinchon raises for bad input."""


class CardParseError(ChinchonError):
    """Card text that does not name a card; the message quotes the bad token."""

    def __init__(self, message: str, token: str | None = None) -> None:
        super().__init__(message)
        self.token = token


class InvalidHandError(ChinchonError):
    """A hand that cannot exist: bits outside the lanes, a card three times, ..."""


class DuplicateCardError(InvalidHandError):
    """A card held twice in single-deck play, or held by two players."""


class CardCountError(InvalidHandError):
    """A hand with the wrong number of cards for the call."""


class BatchRowError(InvalidHandError):
    """A bad row in a batch call; ``.row`` is its index."""

    def __init__(self, message: str, row: int) -> None:
        super().__init__(message)
        self.row = row


class CannotCloseError(ChinchonError):
    """A close with deadwood over the close limit."""


class IllegalAction(ChinchonError):
    """A game action that the rules do not allow now; the game is left unchanged."""


#: Status codes of the C core (``cc_status`` in csrc/chinchon.h), in order, with the
#: exception class and message each maps to. The reference implementation reports the
#: same problems with the same classes and messages.
STATUS_ERRORS: tuple[tuple[type[ChinchonError], str], ...] = (
    (ChinchonError, "ok"),
    (InvalidHandError, "bits set outside the card lanes (bits 12-15 of a 16-bit lane)"),
    (InvalidHandError, "the twice mask holds a card that the once mask does not"),
    (CardCountError, "too many cards (at most 8)"),
    (CardCountError, "wrong number of cards"),
    (DuplicateCardError, "a card held twice in single-deck play"),
    (InvalidHandError, "a card in play more than twice"),
    (CannotCloseError, "the closer's deadwood is over the close limit"),
    (ChinchonError, "an argument out of range"),
)
