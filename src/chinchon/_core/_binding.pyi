"""Type stub of the compiled module ``chinchon._core._binding`` (built from _binding.pyx).

Every function has the signature of its twin in :mod:`chinchon.reference`; see there
and docs/design.md for what each computes. Bad input raises a ChinchonError subclass.
"""

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ..cards import Hand, HandLike
from ..results import Arrangement, DrawOutlook, Hint, Outlook, Settlement
from ..rules import Rules

__all__: list[str]

#: always ``'native'`` for this module
IMPLEMENTATION: str

def deadwood(hand: HandLike, *, decks: int | None = None, rules: Rules | None = None) -> int: ...
def best_melds(
    hand: HandLike, *, decks: int | None = None, rules: Rules | None = None
) -> Arrangement: ...
def discard_hints(
    hand8: HandLike, *, decks: int | None = None, rules: Rules | None = None
) -> list[Hint]: ...
def close_outcome(
    hand: HandLike, *, decks: int | None = None, rules: Rules | None = None
) -> str | None: ...
# ``opponents``: the opponents' hands in play order (1 to 5), or one opponent's Hand or
# text on its own.
def settle(
    closer7: HandLike,
    opponents: Iterable[HandLike] | Hand,
    *,
    decks: int | None = None,
    rules: Rules | None = None,
) -> Settlement: ...

# ``masks``: anything numpy turns into an integer array of shape (n,) (one deck) or
# (n, 2) (two decks); see chinchon._args.normalize_batch.
def deadwood_batch(
    masks: Any, *, threads: int | None = None, rules: Rules | None = None
) -> npt.NDArray[np.uint8]: ...
def hints_batch(
    masks: Any, *, threads: int | None = None, rules: Rules | None = None
) -> npt.NDArray[np.uint8]: ...

# the outlook (docs/design.md, "The outlook"); ``unseen``: HandLike or None
OUTLOOK_COLUMNS: tuple[str, ...]

def outlook(
    hand8: HandLike, unseen: Any = None, *, decks: int | None = None, rules: Rules | None = None
) -> list[Outlook]: ...
def draw_outlook(
    hand7: HandLike, top: Any, unseen: Any = None, *, decks: int | None = None,
    rules: Rules | None = None
) -> DrawOutlook: ...
def outlook_batch(
    masks: Any, unseen_masks: Any, *, threads: int | None = None, rules: Rules | None = None
) -> npt.NDArray[np.float64]: ...

# the game's random generator (csrc/src/rng.c), for chinchon.game.rng and its tests
def _rng_shuffle(items: list[Any], state: tuple[int, int, int, int]) -> tuple[int, int, int, int]: ...
def _rng_draws(
    state: tuple[int, int, int, int], kind: str, count: int, bound: int = 0
) -> tuple[list[Any], tuple[int, int, int, int]]: ...
def _rng_seed(
    negative: bool, magnitude: Iterable[int], words: Iterable[int] = ()
) -> tuple[int, int, int, int]: ...

# whole games between the built-in bots (csrc/src/engine.c), for chinchon.simulate
def _play_games(
    players: int, bots: Sequence[str], seed: int, start: int, stop: int, rules: Rules | None,
    max_turns: int, stale_turns: int, stale_shake: float, wait_for: float, trace: bool = False
) -> Any: ...
