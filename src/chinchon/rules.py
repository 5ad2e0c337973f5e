"""Rule variants. :class:`Rules` holds the house rules of the Barajamos table by default."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import ChinchonError, shown

__all__ = ["Rules", "HOUSE_RULES", "RULE_BOUNDS"]


@dataclass(frozen=True)
class Rules:
    """The numbers that vary between tables; the defaults are the house rules.

    - ``close_limit``: a player may close when the 7 cards kept have at most this
      deadwood.
    - ``eliminate_above``: a total strictly over this eliminates the player (70 stays).
    - ``minus_ten``: what a close with every card melded scores (as ``-minus_ten``).
    - ``rejoin_chips``: chips per player per game to come back after elimination.
    - ``reconnect_seconds``: how long a disconnected seat is kept.
    """

    close_limit: int = 5
    eliminate_above: int = 70
    minus_ten: int = 10
    rejoin_chips: int = 2
    reconnect_seconds: float = 60

    def __post_init__(self) -> None:
        for name, (low, high) in RULE_BOUNDS.items():
            value = getattr(self, name)
            if name == "reconnect_seconds":
                ok = (not isinstance(value, bool) and isinstance(value, (int, float))
                      and low <= value <= high)  # NaN fails both comparisons
                kind = "a number"
            else:
                ok = not isinstance(value, bool) and isinstance(value, int) and low <= value <= high
                kind = "an int"
            if not ok:
                raise ChinchonError(f"Rules.{name} must be {kind} {low}..{high}, "
                                    f"got {shown(value)}")


#: The largest number a rule takes: 2**53 - 1, the largest integer that a float (and
#: so JSON everywhere) holds exactly.
MAX_RULE_NUMBER = 2**53 - 1

#: The range of each number of :class:`Rules` (inclusive). The C core keeps the close
#: limit in a byte; the others only have to stay exact in JSON and in float arithmetic.
RULE_BOUNDS: dict[str, tuple[int, int]] = {
    "close_limit": (0, 255),
    "eliminate_above": (0, MAX_RULE_NUMBER),
    "minus_ten": (0, MAX_RULE_NUMBER),
    "rejoin_chips": (0, MAX_RULE_NUMBER),
    "reconnect_seconds": (0, MAX_RULE_NUMBER),
}


HOUSE_RULES = Rules()
