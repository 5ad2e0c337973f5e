"""Rule variants. :class:`Rules` holds the house rules of the Barajamos table by default."""

from __future__ import annotations

import math
from dataclasses import dataclass

from .errors import ChinchonError

__all__ = ["Rules", "HOUSE_RULES", "PRESETS"]


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
        for name in ("close_limit", "eliminate_above", "minus_ten", "rejoin_chips"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ChinchonError(f"Rules.{name} must be an int, got {value!r}")
        if not 0 <= self.close_limit <= 255:
            raise ChinchonError(f"Rules.close_limit must be 0..255, got {self.close_limit}")
        if self.minus_ten < 0:
            raise ChinchonError(f"Rules.minus_ten must be >= 0, got {self.minus_ten}")
        if self.rejoin_chips < 0:
            raise ChinchonError(f"Rules.rejoin_chips must be >= 0, got {self.rejoin_chips}")
        seconds = self.reconnect_seconds
        if (isinstance(seconds, bool) or not isinstance(seconds, (int, float))
                or not math.isfinite(seconds) or seconds < 0):
            raise ChinchonError(
                f"Rules.reconnect_seconds must be a number >= 0, got {self.reconnect_seconds!r}"
            )

    @classmethod
    def preset(cls, name: str) -> Rules:
        """The named rules of :data:`PRESETS` (case-insensitive), e.g. ``'barajamos'``."""
        key = name.strip().lower() if isinstance(name, str) else name
        if key not in PRESETS:
            raise ChinchonError(f"unknown rules preset {name!r}; choose from "
                                f"{', '.join(PRESETS)}")
        return PRESETS[key]


HOUSE_RULES = Rules()

#: named rules, accepted by :meth:`Rules.preset` (the house rules are ``'barajamos'``)
PRESETS: dict[str, Rules] = {"barajamos": HOUSE_RULES}
