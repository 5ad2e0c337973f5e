"""Type stub of the compiled module ``chinchon._core.engine`` (built from engine.pyx):
whole games between the built-in bots, for the simulations."""

from collections.abc import Sequence
from typing import Any

from ..rules import Rules

def _play_games(
    players: int, bots: Sequence[str], seed: int, start: int, stop: int, rules: Rules | None,
    max_turns: int, stale_turns: int, stale_shake: float, wait_for: float, trace: bool = False,
    count: bool = False
) -> Any: ...
def _count_games(
    players: int, bots: Sequence[str], seed: int, start: int, stop: int, rules: Rules | None,
    max_turns: int, stale_turns: int, stale_shake: float, wait_for: float
) -> dict[str, Any]: ...
