"""Exceptions raised by chinchon.

Every error the package raises on bad input derives from :class:`ChinchonError`, which
is a :class:`ValueError`, so ``except ValueError`` catches them all. Each native status
code of the C core maps to exactly one of these classes, by its name (``STATUS_ERRORS``).
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "ChinchonError",
    "CardParseError",
    "InvalidHandError",
    "DuplicateCardError",
    "CardCountError",
    "BatchRowError",
    "CannotCloseError",
    "IllegalAction",
    "ActionNotAllowed",
    "SimulationError",
    "RecordsError",
    "SchedulerError",
]


class ChinchonError(ValueError):
    """Base class of every error chinchon raises for bad input.

    Every class pickles with its message and its fields (``.row``, ``.token``, ...), so
    an error raised in a worker process reaches the caller as the same error.
    """

    def __reduce__(self) -> tuple[Any, ...]:
        # not the default (cls(*args)): a subclass's __init__ may take more than the
        # message (BatchRowError needs its row)
        return (_rebuild, (type(self), self.args, dict(self.__dict__)))


def _rebuild(cls: type[ChinchonError], args: tuple[Any, ...],
             fields: dict[str, Any]) -> ChinchonError:
    """An error of ``cls`` with these ``args`` and instance fields, without calling the
    class's own ``__init__`` (the inverse of :meth:`ChinchonError.__reduce__`)."""
    exc = cls.__new__(cls)
    exc.args = args
    exc.__dict__.update(fields)
    return exc


def shown(value: object, limit: int = 80) -> str:
    """``repr(value)`` as an error message shows it: at most ``limit`` characters, and
    never an error itself (an int of thousands of digits has no ``repr`` in Python 3.11+,
    and a caller's object may have a ``__repr__`` that raises)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"{'a negative' if value < 0 else 'an'} int of {value.bit_length()} bits"
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - any failure: name the type instead
        return f"<a {type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


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
    """A bad row in a batch call; ``.row`` is its index, or -1 when the fault is the
    arrays' own (their shape, dtype or lengths), not a row's."""

    def __init__(self, message: str, row: int) -> None:
        super().__init__(message)
        self.row = row


class CannotCloseError(ChinchonError):
    """A close with deadwood over the close limit."""


class IllegalAction(ChinchonError):
    """A game action that the rules do not allow now; the game is left unchanged."""


class ActionNotAllowed(IllegalAction):
    """An action number that the action mask of a reinforcement-learning environment
    (``chinchon.rl``, docs/rl.md) does not allow now: ``.action`` is what was given.
    The environment is left unchanged."""

    def __init__(self, message: str, action: object = None) -> None:
        super().__init__(message)
        self.action = action


class SimulationError(ChinchonError):
    """A simulated game that failed (a bot that raised, most often): ``.index`` and
    ``.seed`` are the game's index and the simulation's seed, which replay it alone
    (``chinchon.simulation.play_game(players, bots, seed, index)``); ``.cause`` is the
    original exception's type and message."""

    def __init__(self, message: str, index: int, seed: int, cause: str = "") -> None:
        super().__init__(message)
        self.index = index
        self.seed = seed
        self.cause = cause


class RecordsError(ChinchonError):
    """A simulation's records folder that cannot be made, written or read as asked:
    missing, empty, of another version of chinchon, or holding games of different
    simulations."""


class SchedulerError(ChinchonError):
    """A Dask scheduler that cannot be used: a malformed address, one that cannot be
    reached, or a local cluster that cannot start; the message names the scheduler."""


#: Each named status of the C core (``cc_status`` in csrc/include/chinchon.h) with the exception
#: class and message it maps to, keyed by the status's C name (never by position). Both
#: implementations raise these for the same problems; the binding declares the enum in
#: full, looks each code up here by name, and checks at import that ``cc_status_message``
#: says each in these words.
STATUS_ERRORS: dict[str, tuple[type[ChinchonError], str]] = {
    "CC_ERR_LANE_BITS": (InvalidHandError,
                         "bits set outside the card lanes (bits 12-15 of a 16-bit lane)"),
    "CC_ERR_TWICE_NOT_SUBSET": (InvalidHandError,
                                "the twice mask holds a card that the once mask does not"),
    "CC_ERR_TOO_MANY_CARDS": (CardCountError, "too many cards (at most 8)"),
    "CC_ERR_CARD_COUNT": (CardCountError, "wrong number of cards"),
    "CC_ERR_DUPLICATE": (DuplicateCardError, "a card held twice in single-deck play"),
    "CC_ERR_THREE_COPIES": (InvalidHandError, "a card in play more than twice"),
    "CC_ERR_CANNOT_CLOSE": (CannotCloseError, "the closer's deadwood is over the close limit"),
    "CC_ERR_BAD_ARGUMENT": (ChinchonError, "an argument out of range"),
    # rule variants (docs/rules.md#the-variant-encoding): an eight or nine in a batch row under deck=40
    "CC_ERR_NOT_IN_DECK": (InvalidHandError, "a card that the rules' deck does not have"),
    # a whole game's callback (the engine's Ctrl-C check) said stop; raised as that
    "CC_ERR_INTERRUPTED": (ChinchonError, "the game was stopped by its caller"),
}


def status_error(name: str) -> str:
    """The message of the C status ``name``."""
    return STATUS_ERRORS[name][1]


def raise_status(name: str) -> None:
    """Raise the exception of the C status ``name`` (any unknown name: ChinchonError)."""
    cls, message = STATUS_ERRORS.get(name, (ChinchonError, f"native status {name}"))
    raise cls(message)
