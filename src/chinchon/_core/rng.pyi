"""Type stub of the compiled module ``chinchon._core.rng`` (built from rng.pyx): the
game's random generator in C, for :mod:`chinchon.game.rng` and its tests. A state is
the tuple of the generator's four words."""

from collections.abc import Iterable
from typing import Any

def _rng_shuffle(
    items: list[Any], state: tuple[int, int, int, int]
) -> tuple[int, int, int, int]: ...
def _rng_draws(
    state: tuple[int, int, int, int], kind: str, count: int, bound: int = 0
) -> tuple[list[Any], tuple[int, int, int, int]]: ...
def _rng_seed(
    negative: bool, magnitude: Iterable[int], words: Iterable[int] = ()
) -> tuple[int, int, int, int]: ...
