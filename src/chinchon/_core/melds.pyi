"""Type stub of the compiled module ``chinchon._core.melds`` (built from melds.pyx).

Every function has the signature of its twin in :mod:`chinchon.reference`; see there
for what each computes. Bad input raises a ChinchonError subclass.
"""

from typing import Any

import numpy as np
import numpy.typing as npt

from ..cards import HandLike
from ..results import Arrangement, Hint
from ..rules import Rules

def deadwood(hand: HandLike, *, decks: int | None = None, rules: Rules | str | None = None) -> int: ...
def best_melds(
    hand: HandLike, *, decks: int | None = None, rules: Rules | str | None = None
) -> Arrangement: ...
def discard_hints(
    hand8: HandLike, *, decks: int | None = None, rules: Rules | str | None = None
) -> list[Hint]: ...
def close_outcome(
    hand: HandLike, *, decks: int | None = None, rules: Rules | str | None = None
) -> str | None: ...

# ``masks``: anything numpy turns into an integer array of shape (n,) (one deck) or
# (n, 2) (two decks); see chinchon._args.normalize_batch. The results' dtype is
# ``rules.solver.score_dtype``: uint8, or uint16 where the rules' scores can pass 255.
def deadwood_batch(
    masks: Any, *, threads: int | None = None, rules: Rules | str | None = None
) -> npt.NDArray[np.uint8] | npt.NDArray[np.uint16]: ...
def hints_batch(
    masks: Any, *, threads: int | None = None, rules: Rules | str | None = None
) -> npt.NDArray[np.uint8] | npt.NDArray[np.uint16]: ...

def simd_paths() -> tuple[str, ...]: ...
def simd_best() -> str: ...
def simd_active() -> str: ...
def simd_use(name: str) -> None: ...
